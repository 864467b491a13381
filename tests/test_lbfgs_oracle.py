"""``optim.LBFGS`` against torch: every loss, iterate and state entry bit for bit, with and
without the strong-Wolfe line search, and torch's errors; float64 ``add(alpha=)`` fused."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same_error, raised_by


def _run(L: Any, dtype: str, line_search: str | None, history: int) -> list:
    L.manual_seed(0)
    dt = getattr(L, dtype)
    w = L.randn(5, dtype=dt, requires_grad=True)
    v = L.randn(2, 2, dtype=dt, requires_grad=True)
    opt = L.optim.LBFGS([w, v], lr=0.8, line_search_fn=line_search, history_size=history,
                        max_iter=7)

    def closure() -> Any:
        opt.zero_grad()
        loss = ((w - 1) ** 2 * L.arange(5, dtype=dt)).sum() + (w[0] * w[1]).exp()
        loss = loss + (v @ v - w[:2].sum()).tanh().pow(2).sum()
        loss.backward()
        return loss
    seen = []
    for _ in range(4):
        seen.append(opt.step(closure).item())
        seen += w.tolist() + v.flatten().tolist()
    state = opt.state_dict()["state"][0]
    seen += [list(state), state["func_evals"], state["n_iter"], float(state["t"]),
             float(state["H_diag"]), len(state["old_dirs"]), state["prev_loss"],
             state["d"].tolist()]
    return seen


@pytest.mark.parametrize("history", [2, 100])
@pytest.mark.parametrize("line_search", [None, "strong_wolfe"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_lbfgs_steps_match_torch_bits(dtype: str, line_search: str | None,
                                      history: int) -> None:
    assert _run(mt, dtype, line_search, history) == _run(torch, dtype, line_search, history)


def test_a_converged_step_returns_at_once() -> None:
    def run(L: Any) -> list:
        w = L.zeros(3, requires_grad=True)
        opt = L.optim.LBFGS([w])

        def closure() -> Any:
            opt.zero_grad()
            loss = (w ** 2).sum()
            loss.backward()
            return loss
        return [opt.step(closure).item(), list(opt.state_dict()["state"][0]), repr(opt)]
    assert run(mt) == run(torch)


@pytest.mark.parametrize("call", [
    lambda L: L.optim.LBFGS([L.ones(1, requires_grad=True)], lr=-1),
    lambda L: L.optim.LBFGS([{"params": [L.ones(1, requires_grad=True)]},
                             {"params": [L.ones(1, requires_grad=True)]}]),
    lambda L: L.optim.LBFGS([L.ones(1, requires_grad=True)], lr=L.ones(2)),
])
def test_errors_match_torch(call: Any) -> None:
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


def test_an_unknown_line_search_is_refused_as_torch() -> None:
    def call(L: Any) -> Any:
        w = L.ones(2, requires_grad=True)
        opt = L.optim.LBFGS([w], line_search_fn="armijo")

        def closure() -> Any:
            opt.zero_grad()
            loss = (w * w).sum()
            loss.backward()
            return loss
        return opt.step(closure)
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


@pytest.mark.parametrize("size", [1, 5, 4099])
def test_float64_add_with_alpha_is_torch_fused_multiply_add(size: int) -> None:
    rng = np.random.default_rng(size)
    a, b = rng.standard_normal(size), rng.standard_normal(size)
    for alpha in (-0.37123456789, 3.3):
        want = torch.tensor(a).add(torch.tensor(b), alpha=alpha).numpy()
        got = mt.tensor(a).add(mt.tensor(b), alpha=alpha).numpy()
        np.testing.assert_array_equal(got.view(np.int64), want.view(np.int64))
