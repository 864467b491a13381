"""Warm-up and decay shapes (``ConstantLR``, ``LinearLR``, ``PolynomialLR``,
``MultiplicativeLR``) and the schedulers that combine others (``SequentialLR`` hands over at
milestones, ``ChainedScheduler`` steps them all), with torch's chained formulas.

>>> import minitorch
>>> from minitorch import nn, optim
>>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=1.0)
>>> sched = LinearLR(opt, start_factor=0.5, total_iters=2)
>>> lrs = []
>>> for _ in range(3):
...     lrs.append(sched.get_last_lr()[0]); opt.step(); sched.step()
>>> lrs
[0.5, 0.75, 1.0]
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from typing import Any

from .. import _args
from .lr_scheduler import LambdaLR, LRScheduler, ReduceLROnPlateau, _lambdas, _set_lr, _values
from .optimizer import Optimizer


class MultiplicativeLR(LambdaLR):
    """Every epoch, each group's ``lr`` is multiplied by ``lr_lambda(epoch)``.

    >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=1.0)
    >>> s = MultiplicativeLR(opt, lambda epoch: 0.5)
    >>> opt.step(); s.step(); s.get_last_lr()
    [0.5]
    """

    def __init__(self, optimizer: Optimizer, lr_lambda: Callable[[int], float] |
                 list[Callable[[int], float]], last_epoch: int = -1) -> None:
        for fn in _lambdas(optimizer, lr_lambda):  # their count first, as torch's
            if not callable(fn):
                raise TypeError(f"lr_lambda should be a function, but got {type(fn).__name__}")
        super().__init__(optimizer, lr_lambda, last_epoch)

    def get_lr(self) -> list[Any]:
        self._warn_outside_step()
        if self._is_initial:
            return _values(self.optimizer, "lr")
        return [g["lr"] * fn(self.last_epoch)
                for fn, g in zip(self.lr_lambdas, self.optimizer.param_groups, strict=True)]


class ConstantLR(LRScheduler):
    """The ``lr`` times ``factor`` for the first ``total_iters`` epochs, then the ``lr``.

    >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=1.0)
    >>> ConstantLR(opt, factor=0.5).get_last_lr()
    [0.5]
    """

    def __init__(self, optimizer: Optimizer, factor: float = 1.0 / 3, total_iters: int = 5,
                 last_epoch: int = -1) -> None:
        if _args.python_op(factor, ">", 1.0) or _args.python_op(factor, "<", 0):
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        self._warn_outside_step()
        groups = self.optimizer.param_groups
        if self.last_epoch == 0:
            return [g["lr"] * self.factor for g in groups]
        if self.last_epoch != self.total_iters:
            return _values(self.optimizer, "lr")
        return [g["lr"] * (1.0 / self.factor) for g in groups]

    def _get_closed_form_lr(self) -> list[Any]:
        done = self.last_epoch >= self.total_iters
        return [base * (self.factor + done * (1 - self.factor)) for base in self.base_lrs]


class LinearLR(LRScheduler):
    """The ``lr``'s factor goes linearly from ``start_factor`` to ``end_factor`` over
    ``total_iters`` epochs.

    >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=0.3)
    >>> LinearLR(opt).total_iters
    5
    """

    def __init__(self, optimizer: Optimizer, start_factor: float = 1.0 / 3,
                 end_factor: float = 1.0, total_iters: int = 5, last_epoch: int = -1) -> None:
        if _args.python_op(start_factor, ">", 1.0) or _args.python_op(start_factor, "<=", 0):
            raise ValueError("Starting multiplicative factor expected to be greater than 0 and "
                             "less or equal to 1.")
        if _args.python_op(end_factor, ">", 1.0) or _args.python_op(end_factor, "<", 0):
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor, self.end_factor = start_factor, end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        self._warn_outside_step()
        groups, epoch = self.optimizer.param_groups, self.last_epoch
        if epoch == 0:
            return [g["lr"] * self.start_factor for g in groups]
        if self._is_initial or _args.python_op(epoch, ">", self.total_iters):
            return _values(self.optimizer, "lr")
        change = self.end_factor - self.start_factor
        ratio = 1.0 + change / (self.total_iters * self.start_factor + (epoch - 1) * change)
        return [g["lr"] * ratio for g in groups]

    def _get_closed_form_lr(self) -> list[Any]:
        done = min(self.total_iters, self.last_epoch) / self.total_iters
        return [base * (self.start_factor + (self.end_factor - self.start_factor) * done)
                for base in self.base_lrs]


class PolynomialLR(LRScheduler):
    """The ``lr`` decays as ``(1 - epoch / total_iters) ** power``, then stays.

    >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=1.0)
    >>> s = PolynomialLR(opt, total_iters=4)
    >>> opt.step(); s.step(); s.get_last_lr()
    [0.75]
    """

    def __init__(self, optimizer: Optimizer, total_iters: int = 5, power: float = 1.0,
                 last_epoch: int = -1) -> None:
        self.total_iters, self.power = total_iters, power
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        self._warn_outside_step()
        epoch, total = self.last_epoch, self.total_iters
        if self._is_initial or _args.python_op(epoch, ">", total):
            return _values(self.optimizer, "lr")
        decay = _args.python_op((1.0 - epoch / total) / (1.0 - (epoch - 1) / total), "**",
                                self.power)
        return [g["lr"] * decay for g in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[Any]:
        left = 1.0 - min(self.total_iters, self.last_epoch) / self.total_iters
        return [base * left ** self.power for base in self.base_lrs]


class _Combined(LRScheduler):
    """A scheduler made of others on one optimizer: their checks and their state."""

    _schedulers: Sequence[LRScheduler]

    def _check(self, optimizer: Optimizer, schedulers: Sequence[Any], empty: str) -> None:
        name = type(self).__name__
        if len(schedulers) < 1:
            raise ValueError(f"{name} expects at least one scheduler{empty}, but got no "
                             "scheduler.")
        for i, scheduler in enumerate(schedulers):
            if not hasattr(scheduler, "optimizer"):
                raise TypeError(f"{name} at index {i} should have `optimizer` as its "
                                "attribute.")
            if isinstance(scheduler, ReduceLROnPlateau):
                raise ValueError(
                    f"{name} does not support `ReduceLROnPlateau` scheduler as it requires "
                    "additional kwargs to be specified when calling `step`, but got one at "
                    f"index {i} in the given schedulers sequence.")
            if optimizer != scheduler.optimizer:
                raise ValueError(
                    f"{name} expects all schedulers to belong to the same optimizer, but got "
                    f"scheduler {type(scheduler).__name__} at index {i} has "
                    f"{scheduler.optimizer}, which is different from "
                    f"{type(optimizer).__name__}.")

    def state_dict(self) -> dict[str, Any]:
        """The state, with each scheduler's own state in place of the scheduler."""
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "_schedulers")}
        state["_schedulers"] = [s.state_dict() for s in self._schedulers]
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Take over the state, each scheduler its own."""
        self.__dict__.update({k: v for k, v in state_dict.items() if k != "_schedulers"})
        for scheduler, state in zip(self._schedulers, state_dict["_schedulers"]):
            scheduler.load_state_dict(state)


class SequentialLR(_Combined):
    """``schedulers[i]`` runs from ``milestones[i-1]`` on (the first from the start), each
    starting again from the initial ``lr``.

    >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=1.0)
    >>> warm = ConstantLR(opt, factor=0.1, total_iters=2)
    >>> decay = optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
    >>> SequentialLR(opt, [warm, decay], milestones=[2]).get_last_lr()
    [0.1]
    """

    def __init__(self, optimizer: Optimizer, schedulers: list[LRScheduler],
                 milestones: list[int], last_epoch: int = -1) -> None:
        self._check(optimizer, schedulers, "")
        _args.python_len(milestones)
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(
                "Sequential Schedulers expects number of schedulers provided to be one more "
                "than the number of milestone points, but got number of schedulers "
                f"{len(schedulers)} and the number of milestones to be equal to "
                f"{len(milestones)}")
        self._schedulers, self._milestones = schedulers, milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        for group in optimizer.param_groups:  # undo what the schedulers did when made
            _set_lr(group, group["initial_lr"])
        for scheduler in _leaves(self):
            scheduler.last_epoch -= 1
        first = self._schedulers[bisect_right(milestones, 0)]
        first._initial_step()
        self._last_lr = first.get_last_lr()

    def step(self) -> None:  # type: ignore[override]
        """The next epoch of the scheduler in charge (the next one starts at epoch 0)."""
        self.last_epoch += 1
        idx = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[idx]
        if idx > 0 and self._milestones[idx - 1] == self.last_epoch:
            scheduler._update_lr(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()


def _leaves(combined: Any) -> list:
    """The schedulers inside ``combined`` that count epochs, nested ones included."""
    found, todo = [], list(combined._schedulers)
    while todo:
        s = todo.pop()
        if hasattr(s, "_schedulers"):
            todo.extend(s._schedulers)
        elif hasattr(s, "last_epoch"):
            found.append(s)
    return found


class ChainedScheduler(_Combined):
    """Every step steps each scheduler in turn, so their changes multiply.

    >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=1.0)
    >>> a = ConstantLR(opt, factor=0.5, total_iters=2)
    >>> b = optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
    >>> ChainedScheduler([a, b]).get_last_lr()
    [0.5]
    """

    def __init__(self, schedulers: Sequence[LRScheduler],
                 optimizer: Optimizer | None = None) -> None:
        if len(schedulers) < 1:
            self._check(optimizer, schedulers, " to be chained")
        optimizer = optimizer or schedulers[0].optimizer
        self._check(optimizer, schedulers, " to be chained")
        self._schedulers = schedulers
        self.optimizer = optimizer
        self._last_lr = _values(schedulers[-1].optimizer, "lr")

    def step(self) -> None:  # type: ignore[override]
        """Step every scheduler."""
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = _values(self._schedulers[-1].optimizer, "lr")
