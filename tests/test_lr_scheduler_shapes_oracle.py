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


def momentum_optimizer(L: Any, adam: bool) -> Any:
    p, q = L.nn.Parameter(L.zeros(1)), L.nn.Parameter(L.zeros(1))
    groups = [{"params": [p]}, {"params": [q], "lr": 0.3}]
    return L.optim.Adam(groups, lr=0.1) if adam else L.optim.SGD(groups, lr=0.1, momentum=0.9)


CYCLES: dict[str, Callable[[Any, Any], Any]] = {
    "WarmRestarts": lambda L, o: sched(L).CosineAnnealingWarmRestarts(o, T_0=3, eta_min=0.01),
    "WarmRestarts T_mult": lambda L, o: sched(L).CosineAnnealingWarmRestarts(o, 2, T_mult=2),
    "Cyclic": lambda L, o: sched(L).CyclicLR(o, 0.01, [0.1, 0.2], step_size_up=3,
                                             step_size_down=2),
    "Cyclic triangular2": lambda L, o: sched(L).CyclicLR(o, 0.01, 0.1, 2, mode="triangular2"),
    "Cyclic exp_range": lambda L, o: sched(L).CyclicLR(o, 0.01, 0.1, 2, mode="exp_range",
                                                       gamma=0.9),
    "Cyclic scale_fn": lambda L, o: sched(L).CyclicLR(o, 0.01, 0.1, 2,
                                                      scale_fn=lambda x: 0.5 ** x),
    "OneCycle": lambda L, o: sched(L).OneCycleLR(o, max_lr=[1.0, 0.5], total_steps=12),
    "OneCycle linear three phase": lambda L, o: sched(L).OneCycleLR(
        o, 0.8, epochs=3, steps_per_epoch=4, anneal_strategy="linear", three_phase=True),
}


@pytest.mark.parametrize("adam", [False, True])
@pytest.mark.parametrize("name", CYCLES)
def test_cycles(name: str, adam: bool) -> None:
    def run(L: Any) -> tuple:
        opt = momentum_optimizer(L, adam)
        s = CYCLES[name](L, opt)
        key = "betas" if adam else "momentum"
        seen = [(s.get_last_lr(), [g[key] for g in opt.param_groups])]
        for _ in range(12):
            opt.step()
            s.step()
            seen.append((s.get_last_lr(), [g[key] for g in opt.param_groups]))
        return seen, sorted(s.state_dict())
    assert run(mt) == run(torch)


def test_warm_restarts_fractional_epochs() -> None:
    def run(L: Any) -> list:
        opt = optimizer(L)
        s = sched(L).CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=3)
        out = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for epoch in [0.5, 1.25, 2.0, 7.5, 9.0, 3.0]:
                s.step(epoch)
                out.append((s.get_last_lr(), s.T_i, s.T_cur, s.last_epoch))
        return out
    assert run(mt) == run(torch)


CYCLE_ERRORS: dict[str, Callable[[Any], Any]] = {
    "T_0": lambda L: sched(L).CosineAnnealingWarmRestarts(optimizer(L), T_0=0),
    "T_mult": lambda L: sched(L).CosineAnnealingWarmRestarts(optimizer(L), 2, T_mult=1.5),
    "negative epoch": lambda L: sched(L).CosineAnnealingWarmRestarts(optimizer(L), 2).step(-1),
    "cyclic mode": lambda L: sched(L).CyclicLR(momentum_optimizer(L, False), 0.1, 1.0,
                                               mode="square"),
    "cyclic no momentum": lambda L: sched(L).CyclicLR(
        L.optim.Adagrad([L.nn.Parameter(L.zeros(1))]), 0.1, 1.0),
    "cyclic lengths": lambda L: sched(L).CyclicLR(momentum_optimizer(L, False), [0.1], 1.0),
    "one cycle steps": lambda L: sched(L).OneCycleLR(momentum_optimizer(L, False), 1.0),
    "one cycle pct": lambda L: sched(L).OneCycleLR(momentum_optimizer(L, False), 1.0, 10,
                                                   pct_start=1),
    "one cycle strategy": lambda L: sched(L).OneCycleLR(momentum_optimizer(L, False), 1.0, 10,
                                                        anneal_strategy="step"),
    "one cycle too many": lambda L: step_times(
        sched(L).OneCycleLR(momentum_optimizer(L, False), 1.0, 2), 3),
}


def step_times(scheduler: Any, times: int) -> None:
    for _ in range(times):
        scheduler.step()


@pytest.mark.parametrize("name", CYCLE_ERRORS)
def test_cycle_errors(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same_error(raised_by(CYCLE_ERRORS[name], mt), raised_by(CYCLE_ERRORS[name], torch))
