"""The losses torch composes from other ops, soft-target cross entropy, einsum and
scaled_dot_product_attention, against live torch: the same program on both libraries gives the
same bits (values and gradients), the same grad_fn names and the same errors.

>>> run(lambda L, x: x.sum(), [np.ones(2)])[0][0]
array(2.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt

RNG = np.random.default_rng(20)


def data(*shape: int, low: float = -2.0, high: float = 2.0) -> np.ndarray:
    """float32 data, the dtype torch's programs run in."""
    return RNG.uniform(low, high, shape).astype(np.float32)


def run(program: Callable[..., Any], arrays: list[np.ndarray], L: Any = mt,
        grad: tuple[bool, ...] | None = None) -> tuple[list[np.ndarray], list[str]]:
    """``program(L, *tensors)``'s value and its inputs' gradients as arrays, with its node name."""
    grad = grad or (True,) * len(arrays)
    ts = [L.tensor(a, requires_grad=g and a.dtype.kind == "f") for a, g in zip(arrays, grad)]
    out = program(L, *ts)
    names = [out.grad_fn.name() if out.grad_fn is not None else "", repr(out)]
    wanted = [t for t in ts if t.requires_grad]
    grads = L.autograd.grad(out.sum(), wanted, allow_unused=True) if out.requires_grad else []
    return [out.detach().numpy()] + [g.numpy() for g in grads if g is not None], names


def check(program: Callable[..., Any], *arrays: np.ndarray,
          grad: tuple[bool, ...] | None = None) -> None:
    """Bit-identical values and gradients, the same node name and the same printed value."""
    got, got_names = run(program, list(arrays), mt, grad)
    want, want_names = run(program, list(arrays), torch, grad)
    assert got_names == want_names
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)


def check_error(program: Callable[..., Any], *arrays: np.ndarray) -> None:
    """Both libraries refuse ``program`` with the same exception and message."""
    errors = []
    for L in (mt, torch):
        with pytest.raises(Exception) as info:
            program(L, *[L.tensor(a) for a in arrays])
        errors.append((type(info.value).__name__, str(info.value)))
    assert errors[0] == errors[1]


def F(L: Any) -> Any:
    return L.nn.functional


# ---- 1. cross entropy against class probabilities ---------------------------------------------
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("smoothing", [0.0, 0.2])
@pytest.mark.parametrize("weighted", [False, True])
def test_cross_entropy_soft_targets(reduction: str, smoothing: float, weighted: bool) -> None:
    target = RNG.dirichlet(np.ones(5), 4).astype(np.float32)
    weight = data(5, low=0.1, high=1.0)

    def program(L: Any, x: Any, t: Any, w: Any) -> Any:
        return F(L).cross_entropy(x, t, weight=w if weighted else None, reduction=reduction,
                                  label_smoothing=smoothing)
    check(program, data(4, 5), target, weight, grad=(True, True, False))


def test_cross_entropy_soft_targets_shapes_and_errors() -> None:
    check(lambda L, x, t, w: L.nn.CrossEntropyLoss(weight=w)(x, t), data(2, 3, 4),
          data(2, 3, 4, low=0, high=1), data(3, low=0.1, high=1))
    check(lambda L, x, t: F(L).cross_entropy(x, t), data(5), data(5, low=0, high=1))
    check_error(lambda L, x, t: F(L).cross_entropy(x, t, ignore_index=1), data(2, 3), data(2, 3))
