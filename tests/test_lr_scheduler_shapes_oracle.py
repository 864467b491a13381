"""The warm-up shapes and combined schedulers follow torch's learning rates step by step
(chained form, closed form with ``step(epoch)``, state dicts, errors)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest
import torch
from oracle import assert_same_error, raised_by

import minitorch as mt


def optimizer(L: Any) -> Any:
    p, q = L.nn.Parameter(L.zeros(1)), L.nn.Parameter(L.zeros(1))
    return L.optim.SGD([{"params": [p]}, {"params": [q], "lr": 0.3}], lr=0.1)


def sched(L: Any) -> Any:
    return L.optim.lr_scheduler


MAKERS: dict[str, Callable[[Any, Any], Any]] = {
    "MultiplicativeLR": lambda L, o: sched(L).MultiplicativeLR(o, lambda e: 0.9 if e < 4 else 1),
    "ConstantLR": lambda L, o: sched(L).ConstantLR(o, factor=0.25, total_iters=3),
    "LinearLR": lambda L, o: sched(L).LinearLR(o, start_factor=0.2, end_factor=0.9,
                                               total_iters=4),
    "PolynomialLR": lambda L, o: sched(L).PolynomialLR(o, total_iters=5, power=2.0),
    "SequentialLR": lambda L, o: sched(L).SequentialLR(
        o, [sched(L).LinearLR(o, start_factor=0.1, total_iters=3),
            sched(L).ExponentialLR(o, gamma=0.8),
            sched(L).StepLR(o, step_size=2, gamma=0.5)], milestones=[3, 6]),
    "ChainedScheduler": lambda L, o: sched(L).ChainedScheduler(
        [sched(L).ConstantLR(o, factor=0.5, total_iters=2), sched(L).ExponentialLR(o, 0.9)]),
}


def trajectory(L: Any, name: str, closed_form: bool) -> tuple:
    opt = optimizer(L)
    s = MAKERS[name](L, opt)
    lrs = [s.get_last_lr()]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for epoch in range(1, 10):
            opt.step()
            s.step(epoch) if closed_form else s.step()
            lrs.append(s.get_last_lr())
    state = s.state_dict()
    return lrs, sorted(state), state.get("last_epoch")


@pytest.mark.parametrize("name", MAKERS)
def test_chained_trajectory(name: str) -> None:
    assert trajectory(mt, name, False) == trajectory(torch, name, False)


@pytest.mark.parametrize("name", ["ConstantLR", "LinearLR", "PolynomialLR"])
def test_closed_form_trajectory(name: str) -> None:
    assert trajectory(mt, name, True) == trajectory(torch, name, True)


BAD: dict[str, Callable[[Any], Any]] = {
    "constant factor": lambda L: sched(L).ConstantLR(optimizer(L), factor=1.5),
    "linear start": lambda L: sched(L).LinearLR(optimizer(L), start_factor=0),
    "linear end": lambda L: sched(L).LinearLR(optimizer(L), end_factor=2),
    "multiplicative not callable": lambda L: sched(L).MultiplicativeLR(optimizer(L), 0.5),
    "sequential milestones": lambda L: (lambda o: sched(L).SequentialLR(
        o, [sched(L).ConstantLR(o)], milestones=[2]))(optimizer(L)),
    "sequential empty": lambda L: sched(L).SequentialLR(optimizer(L), [], milestones=[]),
    "chained plateau": lambda L: (lambda o: sched(L).ChainedScheduler(
        [sched(L).ReduceLROnPlateau(o)]))(optimizer(L)),
    "chained empty": lambda L: sched(L).ChainedScheduler([], optimizer(L)),
}


@pytest.mark.parametrize("name", BAD)
def test_errors(name: str) -> None:
    assert_same_error(raised_by(BAD[name], mt), raised_by(BAD[name], torch))
