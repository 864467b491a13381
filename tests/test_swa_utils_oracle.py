"""``optim.swa_utils`` against torch: AveragedModel's averages (default, ``avg_fn``,
``multi_avg_fn``, with buffers) bit for bit, SWALR's learning rates, ``update_bn`` and
torch's errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
import torch.optim.swa_utils  # torch does not import it with optim

import minitorch as mt
from tests.oracle import assert_same_error, raised_by


def _model(L: Any) -> Any:
    return L.nn.Sequential(L.nn.Linear(3, 4), L.nn.BatchNorm1d(4), L.nn.ReLU(),
                           L.nn.Linear(4, 2))


AVERAGING = {
    "default": lambda S: {},
    "ema avg_fn": lambda S: {"avg_fn": S.get_ema_avg_fn(0.9)},
    "swa avg_fn": lambda S: {"avg_fn": S.get_swa_avg_fn()},
    "ema multi": lambda S: {"multi_avg_fn": S.get_ema_multi_avg_fn(0.7)},
    "swa multi": lambda S: {"multi_avg_fn": S.get_swa_multi_avg_fn()},
    "ema multi, buffers": lambda S: {"multi_avg_fn": S.get_ema_multi_avg_fn(0.7),
                                     "use_buffers": True},
    "default, buffers": lambda S: {"use_buffers": True},
}


def _averaged_run(L: Any, how: str) -> list:
    S = L.optim.swa_utils
    L.manual_seed(0)
    model = _model(L)
    swa = S.AveragedModel(model, **AVERAGING[how](S))
    opt = L.optim.SGD(model.parameters(), lr=0.1)
    x = L.randn(8, 3)
    for _ in range(4):
        opt.zero_grad()
        model(x).pow(2).sum().backward()
        opt.step()
        swa.update_parameters(model)
    S.update_bn([(x[:4], 0), (x[4:], 1)], swa)
    out = [t.detach().numpy() for t in (*swa.parameters(), *swa.buffers(), swa(x))]
    return [*out, repr(swa), list(swa.state_dict())]


@pytest.mark.parametrize("how", list(AVERAGING))
def test_averaged_model_matches_torch_bits(how: str) -> None:
    got, want = _averaged_run(mt, how), _averaged_run(torch, how)
    for g, w in zip(got, want):
        if isinstance(w, np.ndarray):
            assert g.dtype == w.dtype and g.tobytes() == w.tobytes()
        else:
            assert g == w


@pytest.mark.parametrize("kwargs", [{"swa_lr": 0.05}, {"swa_lr": [0.05, 0.2],
                                                       "anneal_strategy": "linear"},
                                    {"swa_lr": 0.3, "anneal_epochs": 0},
                                    {"swa_lr": 0.3, "anneal_epochs": 3}])
def test_swalr_learning_rates_match_torch(kwargs: dict) -> None:
    def run(L: Any) -> list:
        w, v = L.nn.Parameter(L.ones(1)), L.nn.Parameter(L.ones(1))
        opt = L.optim.SGD([{"params": [w]}, {"params": [v], "lr": 0.01}], lr=0.1)
        sched = L.optim.swa_utils.SWALR(opt, **kwargs)
        lrs = []
        for _ in range(12):
            opt.step()
            sched.step()
            lrs.append(sched.get_last_lr())
        state = sched.state_dict()
        return [*lrs, sorted(state), [g["swa_lr"] for g in opt.param_groups]]
    assert run(mt) == run(torch)


@pytest.mark.parametrize("call", [
    lambda L: L.optim.swa_utils.get_ema_avg_fn(1.5),
    lambda L: L.optim.swa_utils.get_ema_multi_avg_fn(-0.1),
    lambda L: L.optim.swa_utils.AveragedModel(L.nn.Linear(1, 1), avg_fn=lambda *a: a[0],
                                              multi_avg_fn=lambda *a: None),
    lambda L: L.optim.swa_utils.SWALR(L.optim.SGD([L.nn.Parameter(L.ones(1))], lr=0.1),
                                      swa_lr=0.1, anneal_strategy="exp"),
    lambda L: L.optim.swa_utils.SWALR(L.optim.SGD([L.nn.Parameter(L.ones(1))], lr=0.1),
                                      swa_lr=0.1, anneal_epochs=-1),
    lambda L: L.optim.swa_utils.SWALR(L.optim.SGD([L.nn.Parameter(L.ones(1))], lr=0.1),
                                      swa_lr=[0.1, 0.2]),
])
def test_errors_match_torch(call: Any) -> None:
    assert_same_error(raised_by(call, mt), raised_by(call, torch))
