"""``autograd.grad(..., is_grads_batched=True)`` against live torch: the first dim of each
grad_output is a batch, one vector-Jacobian product per row, stacked; torch's errors for
gradients that do not fit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch

import minitorch as mt


def _graph(L: Any) -> tuple:
    x = L.tensor([[1.0, -2.0, 0.5], [0.3, 2.0, -1.0]], dtype=L.float64, requires_grad=True)
    w = L.tensor([0.7, -0.2, 1.1], dtype=L.float64, requires_grad=True)
    return x, w, x.exp() * w, (x * w).sum()


def _grad(L: Any, outputs: Callable, inputs: Callable, grads: Callable, **kwargs: Any) -> Any:
    x, w, y, s = _graph(L)
    names = {"x": x, "w": w, "y": y, "s": s}
    pick = lambda f: f(names, L)  # noqa: E731
    return L.autograd.grad(pick(outputs), pick(inputs), pick(grads), is_grads_batched=True,
                           **kwargs)


def _eye(L: Any) -> Any:
    return L.eye(6, dtype=L.float64).reshape(6, 2, 3)


CASES: dict[str, dict[str, Any]] = {
    "jacobian rows": dict(outputs=lambda n, L: n["y"], inputs=lambda n, L: (n["x"], n["w"]),
                          grads=lambda n, L: _eye(L)),
    "two outputs": dict(outputs=lambda n, L: (n["y"], n["s"]), inputs=lambda n, L: n["w"],
                        grads=lambda n, L: (_eye(L), L.arange(6.0, dtype=L.float64))),
    "create_graph": dict(outputs=lambda n, L: n["y"], inputs=lambda n, L: n["w"],
                         grads=lambda n, L: _eye(L)[:2], create_graph=True),
    "unused": dict(outputs=lambda n, L: n["s"], inputs=lambda n, L: (n["x"], n["y"]),
                   grads=lambda n, L: L.ones(4, dtype=L.float64), allow_unused=True),
    "materialized": dict(outputs=lambda n, L: n["s"], inputs=lambda n, L: (n["x"], n["y"]),
                         grads=lambda n, L: L.ones(4, dtype=L.float64), materialize_grads=True),
}

ERRORS: dict[str, dict[str, Any]] = {
    "batch sizes differ": dict(
        outputs=lambda n, L: (n["y"], n["s"]), inputs=lambda n, L: n["w"],
        grads=lambda n, L: (_eye(L), L.ones(5, dtype=L.float64))),
    "rows of the wrong shape": dict(outputs=lambda n, L: n["y"], inputs=lambda n, L: n["w"],
                                    grads=lambda n, L: L.ones(4, 3, 2, dtype=L.float64)),
    "an implicit 0-d gradient": dict(outputs=lambda n, L: n["s"], inputs=lambda n, L: n["w"],
                                     grads=lambda n, L: None),
    "unused, not allowed": dict(outputs=lambda n, L: n["s"], inputs=lambda n, L: (n["x"], n["y"]),
                                grads=lambda n, L: L.ones(4, dtype=L.float64)),
    "an empty batch": dict(outputs=lambda n, L: n["y"], inputs=lambda n, L: n["w"],
                           grads=lambda n, L: L.ones(0, 2, 3, dtype=L.float64)),
}


@pytest.mark.parametrize("case", CASES)
def test_values_are_torchs(case: str) -> None:
    got, want = (_grad(L, **CASES[case]) for L in (mt, torch))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert (g is None) == (w is None)
        if g is not None:
            assert g.shape == w.shape and g.requires_grad == w.requires_grad
            assert torch.allclose(torch.from_numpy(g.detach().numpy()), w.detach(),
                                  rtol=1e-12, atol=1e-14)


def test_a_freed_graph_is_refused_on_the_second_call() -> None:
    raised = []
    for L in (mt, torch):
        x, _, y, _ = _graph(L)
        L.autograd.grad(y, x, _eye(L), is_grads_batched=True)
        with pytest.raises(RuntimeError) as info:
            L.autograd.grad(y, x, _eye(L), is_grads_batched=True)
        raised.append(str(info.value))
    assert raised[0] == raised[1]


@pytest.mark.parametrize("case", ERRORS)
def test_refuses_as_torch(case: str) -> None:
    raised = []
    for L in (mt, torch):
        with pytest.raises(Exception) as info:
            _grad(L, **ERRORS[case])
        raised.append((type(info.value).__name__, str(info.value)))
    assert raised[0] == raised[1]


def test_vectorized_jacobian_and_hessian_are_torchs() -> None:
    def f(L: Any) -> Callable:
        return lambda a: a.exp() * a.sum()

    for fn in ("jacobian", "hessian"):
        got, want = (getattr(L.autograd.functional, fn)(
            (lambda a, L=L: f(L)(a).sum()) if fn == "hessian" else f(L),
            L.tensor([1.0, 2.0], dtype=L.float64), vectorize=True) for L in (mt, torch))
        assert torch.allclose(torch.from_numpy(got.numpy()), want, rtol=1e-12)
