"""The ``meta`` device against live torch: tensors with a shape and a dtype but no values,
created, printed, moved and swapped out as torch does (the model-ensembling tutorial's
``copy.deepcopy(model).to("meta")`` skeleton for ``functional_call``); reading values gets
torch's errors. An op on a meta tensor, which torch answers with a meta result, is refused
with a NotImplementedError, never computed on made-up values.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
import torch

import minitorch as mt


def _meta(L: Any, *size: Any, **kwargs: Any) -> Any:
    return L.empty(*size, device="meta", **kwargs)


def _linear(L: Any) -> Any:
    L.manual_seed(0)
    return L.nn.Linear(2, 3)


CASES: dict[str, Callable[[Any], Any]] = {
    "empty": lambda L: _meta(L, 2, 3),
    "0-d": lambda L: _meta(L, ()),
    "no elements": lambda L: _meta(L, 0, 3),
    "float64": lambda L: _meta(L, 2, dtype=L.float64),
    "int64 zeros": lambda L: L.zeros(2, device="meta", dtype=L.int64),
    "full": lambda L: L.full((2,), 3, device="meta"),
    "bool": lambda L: _meta(L, 2, dtype=L.bool),
    "tensor()": lambda L: L.tensor([1.0, 2.0], device="meta"),
    "requires_grad": lambda L: _meta(L, 2, requires_grad=True),
    "zeros_like": lambda L: L.zeros_like(_meta(L, 2, 2)),
    "metadata": lambda L: (_meta(L, 2, 3).shape, _meta(L, 2, 3).numel(), _meta(L, 2, 3).dim(),
                           _meta(L, 2, 3).dtype, _meta(L, 2).device, _meta(L, 2).is_meta,
                           L.ones(1).is_meta),
    "str": lambda L: str(_meta(L, 2)),
    "device": lambda L: (L.device("meta"), str(L.device("meta"))),
    "to meta": lambda L: L.ones(2, 2).to("meta"),
    "to meta and a dtype": lambda L: _meta(L, 2).to(L.float64),
    "detach": lambda L: _meta(L, 2, requires_grad=True).detach(),
    "parameter": lambda L: L.nn.Parameter(_meta(L, 2)),
    "module to meta": lambda L: list(_linear(L).to("meta").parameters()),
    "state_dict": lambda L: _linear(L).to("meta").state_dict(),
    "deepcopy": lambda L: copy.deepcopy(_linear(L).to("meta")).weight,
    "to_empty": lambda L: [(p.shape, p.device, p.dtype) for p in
                           _linear(L).to("meta").to_empty(device="cpu").parameters()],
    "functional_call": lambda L: L.func.functional_call(
        copy.deepcopy(_linear(L)).to("meta"), dict(_linear(L).named_parameters()),
        (L.ones(4, 2),)),
}

ERRORS: dict[str, Callable[[Any], Any]] = {
    "item": lambda L: _meta(L, ()).item(),
    "bool()": lambda L: bool(_meta(L, ())),
    "numpy": lambda L: _meta(L, 2).numpy(),
    "tolist": lambda L: _meta(L, 2).tolist(),
    "to cpu": lambda L: _meta(L, 2).to("cpu"),
    "meta and cpu": lambda L: _meta(L, 2) + L.ones(2),
}

REFUSED: dict[str, Callable[[Any], Any]] = {
    "add": lambda L: _meta(L, 2) + 1,
    "matmul": lambda L: _meta(L, 2, 3) @ _meta(L, 3, 4),
    "sum": lambda L: _meta(L, 2).sum(),
    "exp": lambda L: _meta(L, 2).exp(),
    "view": lambda L: _meta(L, 2, 3).view(6),
}


@pytest.mark.parametrize("case", CASES)
def test_prints_what_torch_prints(case: str) -> None:
    assert repr(CASES[case](mt)) == repr(CASES[case](torch))


@pytest.mark.parametrize("case", ERRORS)
def test_refuses_as_torch(case: str) -> None:
    raised = []
    for L in (mt, torch):
        with pytest.raises(Exception) as info:
            ERRORS[case](L)
        raised.append((type(info.value).__name__, str(info.value)))
    assert raised[0] == raised[1]


@pytest.mark.parametrize("case", REFUSED)
def test_ops_are_refused_not_made_up(case: str) -> None:
    assert REFUSED[case](torch).is_meta  # torch gives a meta result
    with pytest.raises(NotImplementedError, match="meta tensors carry only a shape and a dtype"):
        REFUSED[case](mt)


def test_the_ensembling_skeleton_runs_under_vmap() -> None:
    """The tutorial: a meta copy of one model, the stacked states of all, vmap over both."""
    results = []
    for L in (mt, torch):
        L.manual_seed(0)
        models = [L.nn.Sequential(L.nn.Linear(3, 4), L.nn.ReLU(), L.nn.Linear(4, 2))
                  for _ in range(3)]
        params, buffers = L.func.stack_module_state(models)
        base = copy.deepcopy(models[0]).to("meta")
        x = L.randn(3, 5, 3)
        out = L.func.vmap(lambda p, b, x, L=L, base=base: L.func.functional_call(
            base, (p, b), (x,)))(params, buffers, x)
        results.append(out.detach().numpy())
    assert results[0].shape == results[1].shape == (3, 5, 2)
    assert abs(results[0] - results[1]).max() < 1e-6
