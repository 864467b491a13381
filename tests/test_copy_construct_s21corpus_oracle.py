"""torch.tensor(t) and t.new_tensor(t) of a tensor warn as torch does, at the caller's line.

Found by corpus21 (hunkim/PyTorchZeroToAll 08_1_dataset_loader: ``tensor(inputs)`` of a batch):
torch advises ``detach().clone()``; minitorch copied silently.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest
import torch

import minitorch as mt

CALLS: dict[str, Callable[[Any], Any]] = {
    "tensor": lambda L: L.tensor(L.ones(2)),
    "tensor of a leaf that requires grad": lambda L: L.tensor(L.ones(2, requires_grad=True)),
    "tensor with a dtype": lambda L: L.tensor(L.ones(2), dtype=L.float64),
    "tensor of a parameter": lambda L: L.tensor(L.nn.Parameter(L.ones(2))),
    "new_tensor": lambda L: L.ones(1).new_tensor(L.ones(2)),
    "tensor of a list of 0-dim tensors": lambda L: L.tensor([L.ones(()), L.ones(())]),
    "as_tensor": lambda L: L.as_tensor(L.ones(2)),
    "Tensor": lambda L: L.Tensor(L.ones(2)),
}


def caught(call: Callable[[Any], Any], lib: Any) -> tuple[Any, list[tuple[str, str, str, int]]]:
    """What ``call(lib)`` returns, and each warning's category, message, file and line."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        out = call(lib)
    return out, [(w.category.__name__, str(w.message), w.filename, w.lineno) for w in seen]


@pytest.mark.parametrize("name", CALLS)
def test_copy_construct_warns_as_torch_does(name: str) -> None:
    got, got_warnings = caught(CALLS[name], mt)
    want, want_warnings = caught(CALLS[name], torch)
    assert got_warnings == want_warnings
    assert got.tolist() == want.tolist() and str(got.dtype) == str(want.dtype)
    assert got.requires_grad is want.requires_grad and got.is_leaf is want.is_leaf


def test_the_copy_is_detached_from_the_graph() -> None:
    for L in (mt, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            source = L.ones(2, requires_grad=True) * 2
            copy = L.tensor(source)
        assert copy.grad_fn is None and not copy.requires_grad
