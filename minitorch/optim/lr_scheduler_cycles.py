"""Schedules that cycle: ``CosineAnnealingWarmRestarts`` (cosine, restarted), ``CyclicLR``
(triangles between two bounds) and ``OneCycleLR`` (one warm-up then annealing); the last two
move the momentum (or Adam's beta1) the other way, as torch's do.

>>> import minitorch
>>> from minitorch import nn, optim
>>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=1.0)
>>> sched = CosineAnnealingWarmRestarts(opt, T_0=2)
>>> lrs = []
>>> for _ in range(4):
...     lrs.append(sched.get_last_lr()[0]); opt.step(); sched.step()
>>> [round(lr, 3) for lr in lrs]
[1.0, 0.5, 1.0, 0.5]
"""

from __future__ import annotations

import math
import types
from collections.abc import Callable
from typing import Any

from .. import _args
from .._tensor import Tensor
from .lr_scheduler import LRScheduler, _set_lr, _values
from .optimizer import Optimizer


def _format_param(name: str, optimizer: Optimizer, param: Any) -> list:
    """One value per parameter group (a list must have one per group)."""
    groups = len(optimizer.param_groups)
    if isinstance(param, (list, tuple)):
        if len(param) != groups:
            raise ValueError(f"{name} must have the same length as optimizer.param_groups. "
                             f"{name} has {len(param)} values, param_groups has {groups}.")
    else:
        param = [param] * groups
    return [p.clone() if isinstance(p, Tensor) else p for p in param]


def _set_momentum(group: dict, use_beta1: bool, value: Any) -> None:
    if use_beta1:
        group["betas"] = (value, *group["betas"][1:])
    else:
        group["momentum"] = value


def _start_momentum(optimizer: Optimizer, base_momentum: Any, max_momentum: Any,
                    last_epoch: int) -> tuple[bool, list, list]:
    """Check that the optimizer has a momentum to cycle; a fresh schedule starts at the
    maximum. Returns (uses Adam's beta1, base momentums, max momentums)."""
    defaults = optimizer.defaults
    if "momentum" not in defaults and "betas" not in defaults:
        raise ValueError("optimizer must support momentum or beta1 with `cycle_momentum` "
                         "option enabled")
    use_beta1 = "betas" in defaults
    bases = _format_param("base_momentum", optimizer, base_momentum)
    maxes = _format_param("max_momentum", optimizer, max_momentum)
    if last_epoch == -1:
        for top, bottom, group in zip(maxes, bases, optimizer.param_groups, strict=True):
            _set_momentum(group, use_beta1, top)
            group["max_momentum"], group["base_momentum"] = top, bottom
    return use_beta1, bases, maxes


class CosineAnnealingWarmRestarts(LRScheduler):
    """Half a cosine from the initial ``lr`` down to ``eta_min`` over ``T_0`` epochs, then a
    restart; each period is ``T_mult`` times the previous one.

    >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=1.0)
    >>> CosineAnnealingWarmRestarts(opt, T_0=10, T_mult=2).T_i
    10
    """

    def __init__(self, optimizer: Optimizer, T_0: int, T_mult: int = 1,
                 eta_min: float = 0.0, last_epoch: int = -1) -> None:
        if _args.python_op(T_0, "<=", 0) or not isinstance(T_0, int):
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if _args.python_op(T_mult, "<", 1) or not isinstance(T_mult, int):
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        if not isinstance(eta_min, (float, int)):
            raise ValueError(f"Expected float or int eta_min, but got {eta_min} of type "
                             f"{type(eta_min)}")
        self.T_0 = self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        self._warn_outside_step()
        return [self.eta_min + (base - self.eta_min)
                * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2 for base in self.base_lrs]

    def step(self, epoch: float | None = None) -> None:
        """The next epoch, or ``epoch`` (a fraction too: call it per batch with
        ``epoch + i / iters``)."""
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur += 1
            if self.T_cur >= self.T_i:
                self.T_cur %= self.T_i
                self.T_i *= self.T_mult
        else:
            self._restart_at(epoch)
        self.last_epoch = math.floor(epoch)
        self._get_lr_called_within_step = True
        try:
            values = self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values, strict=True):
            _set_lr(group, lr)
        self._last_lr = _values(self.optimizer, "lr")

    def _restart_at(self, epoch: float) -> None:
        """``T_cur`` and ``T_i`` at ``epoch``, by the geometric sum of the periods."""
        if epoch < 0:
            raise ValueError(f"Expected non-negative epoch, but got {epoch}")
        if epoch < self.T_0:
            self.T_i, self.T_cur = self.T_0, epoch
        elif self.T_mult == 1:
            self.T_cur = epoch % self.T_0
        else:
            n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
            self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
            self.T_i = self.T_0 * self.T_mult ** n


class CyclicLR(LRScheduler):
    """The ``lr`` climbs from ``base_lr`` to ``max_lr`` in ``step_size_up`` steps and back
    in ``step_size_down``; ``mode`` (or ``scale_fn``) scales each cycle's height. Step it
    after every batch.

    >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=1.0, momentum=0.9)
    >>> s = CyclicLR(opt, base_lr=0.1, max_lr=1.1, step_size_up=2)
    >>> opt.step(); s.step(); s.get_last_lr()
    [0.6]
    """

    def __init__(self, optimizer: Optimizer, base_lr: float | list[float],
                 max_lr: float | list[float], step_size_up: int = 2000,
                 step_size_down: int | None = None, mode: str = "triangular",
                 gamma: float = 1.0, scale_fn: Callable[[float], float] | None = None,
                 scale_mode: str = "cycle", cycle_momentum: bool = True,
                 base_momentum: float = 0.8, max_momentum: float = 0.9,
                 last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        base_lrs = _format_param("base_lr", optimizer, base_lr)
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups, strict=True):
                _set_lr(group, lr)
        self.max_lrs = _format_param("max_lr", optimizer, max_lr)
        up = _args.python_float(step_size_up)
        down = _args.python_float(step_size_down) if step_size_down is not None else up
        self.total_size = up + down
        self.step_ratio = _args.python_op(up, "/", self.total_size)
        if mode not in ["triangular", "triangular2", "exp_range"] and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode, self.gamma = mode, gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        self._init_scale_fn()
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            self.use_beta1, self.base_momentums, self.max_momentums = _start_momentum(
                optimizer, base_momentum, max_momentum, last_epoch)
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def _init_scale_fn(self) -> None:
        """The built-in modes fix the scale mode: per cycle, or per iteration for exp_range."""
        if self._scale_fn_custom is None and self.mode in ("triangular", "triangular2"):
            self.scale_mode = "cycle"
        elif self._scale_fn_custom is None and self.mode == "exp_range":
            self.scale_mode = "iterations"

    def scale_fn(self, x: float) -> float:
        """The height of cycle (or iteration) ``x``, relative to the first."""
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        if self.mode == "triangular":
            return 1.0
        if self.mode == "triangular2":
            return 1 / 2.0 ** (x - 1)
        return self.gamma ** x

    def get_lr(self) -> list[Any]:
        self._warn_outside_step()
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle
        factor = x / self.step_ratio if x <= self.step_ratio else \
            (x - 1) / (self.step_ratio - 1)
        scale = self.scale_fn(cycle if self.scale_mode == "cycle" else self.last_epoch)
        op = _args.python_op  # torch's Python arithmetic: its TypeError for a None
        lrs = [op(base, "+", op(op(op(top, "-", base), "*", factor), "*", scale))
               for base, top in zip(self.base_lrs, self.max_lrs, strict=True)]
        if self.cycle_momentum:
            for bottom, top, group in zip(self.base_momentums, self.max_momentums,
                                          self.optimizer.param_groups, strict=True):
                _set_momentum(group, self.use_beta1, top - (top - bottom) * factor * scale)
        return lrs

    def state_dict(self) -> dict[str, Any]:
        """The state, with a callable object's attributes in place of a custom scale_fn
        (a plain function is not saved), as torch's."""
        state = super().state_dict()
        fn = state.pop("_scale_fn_custom")
        state["_scale_fn_custom"] = None if fn is None or isinstance(fn, types.FunctionType) \
            else fn.__dict__.copy()
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Take over the state (a custom scale_fn object gets its saved attributes)."""
        saved = state_dict["_scale_fn_custom"]
        super().load_state_dict({k: v for k, v in state_dict.items()
                                 if k != "_scale_fn_custom"})
        if saved is not None:
            self._scale_fn_custom.__dict__.update(saved)
        self._init_scale_fn()


class OneCycleLR(LRScheduler):
    """The 1cycle policy: from ``max_lr / div_factor`` up to ``max_lr`` over ``pct_start``
    of ``total_steps``, then down to the initial ``lr / final_div_factor`` (cosine or
    linear). Step it after every batch.

    >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=1.0, momentum=0.9)
    >>> OneCycleLR(opt, max_lr=1.0, total_steps=10).get_last_lr()  # the cosine's rounding
    [0.040000000000000036]
    """

    def __init__(self, optimizer: Optimizer, max_lr: float | list[float],
                 total_steps: int | None = None, epochs: int | None = None,
                 steps_per_epoch: int | None = None, pct_start: float = 0.3,
                 anneal_strategy: str = "cos", cycle_momentum: bool = True,
                 base_momentum: float | list[float] = 0.85,
                 max_momentum: float | list[float] = 0.95, div_factor: float = 25.0,
                 final_div_factor: float = 1e4, three_phase: bool = False,
                 last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        self.total_steps = _total_steps(total_steps, epochs, steps_per_epoch)
        end_up = _args.python_float(_args.python_op(pct_start, "*", self.total_steps)) - 1
        last = self.total_steps - 1
        if three_phase:
            self._schedule_phases = [
                _phase(end_up, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                _phase(float(2 * pct_start * self.total_steps) - 2, "max_lr", "initial_lr",
                       "base_momentum", "max_momentum"),
                _phase(last, "initial_lr", "min_lr", "max_momentum", "max_momentum")]
        else:
            self._schedule_phases = [
                _phase(end_up, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                _phase(last, "max_lr", "min_lr", "base_momentum", "max_momentum")]
        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError("anneal_strategy must be one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")
        self._anneal_func_type = anneal_strategy
        max_lrs = _format_param("max_lr", optimizer, max_lr)
        if last_epoch == -1:
            for top, group in zip(max_lrs, optimizer.param_groups):
                group["initial_lr"] = top / div_factor
                group["max_lr"] = top
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            self.use_beta1 = _start_momentum(optimizer, base_momentum, max_momentum,
                                             last_epoch)[0]
        super().__init__(optimizer, last_epoch)

    def _anneal(self, start: float, end: float, pct: float) -> float:
        if self._anneal_func_type == "cos":
            return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)
        return (end - start) * pct + start

    def get_lr(self) -> list[Any]:
        self._warn_outside_step()
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(f"Tried to step {step} times. The specified number of total "
                             f"steps is {self.total_steps}")
        lrs = []
        for group in self.optimizer.param_groups:
            start = 0.0
            for i, phase in enumerate(self._schedule_phases):
                end = phase["end_step"]
                if step <= end or i == len(self._schedule_phases) - 1:
                    pct = (step - start) / (end - start)
                    lrs.append(self._anneal(group[phase["start_lr"]], group[phase["end_lr"]],
                                            pct))
                    if self.cycle_momentum:
                        _set_momentum(group, self.use_beta1, self._anneal(
                            group[phase["start_momentum"]], group[phase["end_momentum"]], pct))
                    break
                start = end
        return lrs


def _phase(end_step: float, start_lr: str, end_lr: str, start_momentum: str,
           end_momentum: str) -> dict:
    """One phase of the 1cycle policy: where it ends, and the group keys it goes between."""
    return {"end_step": end_step, "start_lr": start_lr, "end_lr": end_lr,
            "start_momentum": start_momentum, "end_momentum": end_momentum}


def _total_steps(total_steps: int | None, epochs: int | None,
                 steps_per_epoch: int | None) -> int:
    if total_steps is not None:
        if _args.python_op(total_steps, "<=", 0) or not isinstance(total_steps, int):
            raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
        return total_steps
    if epochs is not None and steps_per_epoch is not None:
        if not isinstance(epochs, int) or epochs <= 0:
            raise ValueError(f"Expected positive integer epochs, but got {epochs}")
        if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
            raise ValueError("Expected positive integer steps_per_epoch, but got "
                             f"{steps_per_epoch}")
        return epochs * steps_per_epoch
    raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")
