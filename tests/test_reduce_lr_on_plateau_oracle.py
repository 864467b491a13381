"""``ReduceLROnPlateau`` follows torch's learning rates, state and errors step by step."""

from __future__ import annotations

from typing import Any

import pytest
import torch
from oracle import assert_same_error, raised_by

import minitorch as mt

METRICS = [1.0, 0.9, 0.9, 0.95, 0.9, 0.91, 0.5, 0.5, 0.5, 0.6, 0.7, 0.7, 0.7, 0.7]
SETTINGS = [
    {"factor": 0.1, "patience": 2},
    {"mode": "max", "factor": 0.5, "patience": 1, "threshold_mode": "abs", "threshold": 0.05},
    {"mode": "min", "threshold_mode": "abs", "threshold": 0.02, "patience": 0, "cooldown": 2},
    {"mode": "max", "patience": 0, "factor": 0.5, "min_lr": [0.02, 0.0]},
    {"patience": 0, "factor": 0.9, "eps": 0.01},
]


def trajectory(L: Any, kwargs: dict) -> tuple:
    p, q = L.nn.Parameter(L.zeros(1)), L.nn.Parameter(L.zeros(1))
    opt = L.optim.SGD([{"params": [p]}, {"params": [q], "lr": 0.05}], lr=0.1)
    sched = L.optim.lr_scheduler.ReduceLROnPlateau(opt, **kwargs)
    lrs = []
    for metric in METRICS:
        sched.step(L.tensor(metric) if metric == 0.5 else metric)
        lrs.append((sched.get_last_lr(), sched.num_bad_epochs, sched.cooldown_counter))
    state = sched.state_dict()
    return lrs, sorted(state), state["best"], state["last_epoch"]


@pytest.mark.parametrize("kwargs", SETTINGS, ids=str)
def test_trajectory_and_state(kwargs: dict) -> None:
    assert trajectory(mt, kwargs) == trajectory(torch, kwargs)


def test_load_state_dict() -> None:
    def run(L: Any) -> list:
        opt = L.optim.SGD([L.nn.Parameter(L.zeros(1))], lr=1.0)
        first = L.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=0)
        first.step(1.0)
        first.step(2.0)
        second = L.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="max")
        second.load_state_dict(first.state_dict())
        second.step(3.0)
        return [second.mode, second.best, second.get_last_lr()]
    assert run(mt) == run(torch)


BAD = {
    "factor": {"factor": 1.0},
    "mode": {"mode": "lowest"},
    "threshold mode": {"threshold_mode": "relative"},
    "min_lr count": {"min_lr": [0.1, 0.2]},
}


@pytest.mark.parametrize("name", BAD)
def test_errors(name: str) -> None:
    def run(L: Any) -> None:
        opt = L.optim.SGD([L.nn.Parameter(L.zeros(1))], lr=1.0)
        L.optim.lr_scheduler.ReduceLROnPlateau(opt, **BAD[name])
    assert_same_error(raised_by(run, mt), raised_by(run, torch))
