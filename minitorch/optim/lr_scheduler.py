"""Learning-rate schedulers: after each epoch, ``scheduler.step()`` sets every parameter
group's ``lr`` for the next one, by torch's formulas (so the floats are torch's).

A scheduler remembers each group's starting ``lr`` as ``group["initial_lr"]`` (its
``base_lrs``), counts epochs in ``last_epoch`` and steps once when it is made. Most schedules
are *chained*: each step scales the group's current ``lr``, so changes made by others
compose; ``step(epoch)`` (deprecated, as in torch) uses the closed form instead.

>>> import minitorch
>>> from minitorch import nn, optim
>>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=1.0)
>>> sched = optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
>>> lrs = []
>>> for _ in range(4):
...     opt.step(); lrs.append(sched.get_last_lr()[0]); sched.step()
>>> lrs
[1.0, 1.0, 0.5, 0.5]
"""

from __future__ import annotations

import math
import types
import warnings
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any
from weakref import ref

from .. import _args
from .._tensor import Tensor
from .optimizer import Optimizer

__all__ = ["ChainedScheduler", "ConstantLR", "CosineAnnealingLR",
           "CosineAnnealingWarmRestarts", "CyclicLR", "ExponentialLR", "LRScheduler",
           "LambdaLR", "LinearLR", "MultiStepLR", "MultiplicativeLR", "OneCycleLR",
           "PolynomialLR", "ReduceLROnPlateau", "SequentialLR", "StepLR"]

_EPOCH_DEPRECATED = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated "
    "where possible. Please use `scheduler.step()` to step the scheduler. During the "
    "deprecation, if epoch is different from None, the closed form is used instead of the "
    "new chainable form, where available. Please open an issue if you are unable to "
    "replicate your use case: https://github.com/pytorch/pytorch/issues/new/choose.")
_ORDER_DOCS = "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"


def _values(optimizer: Optimizer, key: str) -> list[Any]:
    """``group[key]`` of every group (tensors copied, so that they never alias)."""
    return [g[key].clone() if isinstance(g[key], Tensor) else g[key]
            for g in optimizer.param_groups]


def _lambdas(optimizer: Optimizer, lr_lambda: Any) -> list[Any]:
    """One lambda per group: ``lr_lambda`` repeated, or a list or tuple of as many."""
    if not isinstance(lr_lambda, (list, tuple)):
        return [lr_lambda] * len(optimizer.param_groups)
    if len(lr_lambda) != len(optimizer.param_groups):
        raise ValueError(f"Expected {len(optimizer.param_groups)} lr_lambdas, but got "
                         f"{len(lr_lambda)}")
    return list(lr_lambda)


def _set_lr(group: dict, lr: Any) -> None:
    """A group's ``lr`` becomes ``lr`` (a tensor ``lr`` is filled in place, as torch's)."""
    if isinstance(group["lr"], Tensor):
        group["lr"].fill_(lr.item() if isinstance(lr, Tensor) else lr)
    else:
        group["lr"] = lr


def _watch_steps(optimizer: Optimizer) -> None:
    """Make ``optimizer.step`` note that it ran, so that a scheduler stepped first can warn
    as torch's does."""
    if hasattr(optimizer.step, "_wrapped_by_lr_sched"):
        return
    step, owner = optimizer.step.__func__, ref(optimizer)

    @wraps(step)
    def noted(*args: Any, **kwargs: Any) -> Any:
        opt = owner()
        opt._opt_called = True
        return step(opt, *args, **kwargs)

    noted._wrapped_by_lr_sched = True  # type: ignore[attr-defined]
    optimizer.step = noted  # type: ignore[method-assign]


class LRScheduler:
    """Base of the schedulers: subclasses define ``get_lr`` (the chained rule) and may
    define ``_get_closed_form_lr``.

    >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=0.1)
    >>> optim.lr_scheduler.ExponentialLR(opt, gamma=0.5).base_lrs
    [0.1]
    """

    _get_lr_called_within_step = False
    _is_initial = False

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                lr = group["lr"]
                group.setdefault("initial_lr", lr.clone() if isinstance(lr, Tensor) else lr)
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        f"param 'initial_lr' is not specified in param_groups[{i}] when "
                        "resuming scheduler with last_epoch >= 0.\nThis typically happens "
                        "when:\n1. You're trying to resume training from a checkpoint but "
                        "haven't properly loaded the optimizer state\n2. You're using "
                        "last_epoch >= 0 for a fresh training run (not recommended)")
        self.base_lrs: list[Any] = _values(optimizer, "initial_lr")
        self.last_epoch = last_epoch
        _watch_steps(optimizer)
        self._initial_step()

    def _initial_step(self) -> None:
        """The step a scheduler takes when made (or when SequentialLR hands over to it)."""
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def state_dict(self) -> dict[str, Any]:
        """Everything the scheduler holds but its optimizer.

        >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=0.1)
        >>> optim.lr_scheduler.StepLR(opt, 3).state_dict()["last_epoch"]
        0
        """
        return {k: v for k, v in self.__dict__.items() if k != "optimizer"}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Take over a ``state_dict``'s state.

        >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=0.1)
        >>> s = optim.lr_scheduler.StepLR(opt, 3); s.load_state_dict({"last_epoch": 7})
        >>> s.last_epoch
        7
        """
        self.__dict__.update(state_dict)

    def get_last_lr(self) -> list[Any]:
        """The learning rates the last step set, one per parameter group.

        >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=0.1)
        >>> optim.lr_scheduler.StepLR(opt, 3).get_last_lr()
        [0.1]
        """
        return self._last_lr

    def get_lr(self) -> list[Any]:
        """The next learning rates (what ``step`` sets); subclasses define it."""
        raise NotImplementedError

    def _warn_outside_step(self) -> None:
        if not self._get_lr_called_within_step:
            warnings.warn("To get the last learning rate computed by the scheduler, please "
                          "use `get_last_lr()`.", UserWarning, stacklevel=3)

    def step(self, epoch: int | None = None) -> None:
        """Move to the next epoch (or to ``epoch``, deprecated) and set its learning rates.

        >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=1.0)
        >>> s = optim.lr_scheduler.ExponentialLR(opt, 0.5); opt.step(); s.step()
        >>> opt.param_groups[0]["lr"]
        0.5
        """
        if self._step_count == 1:
            self._warn_order()
        self._step_count += 1
        if epoch is not None:
            warnings.warn(_EPOCH_DEPRECATED, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch: int | None = None) -> None:
        """Set the learning rates of the next epoch (or of ``epoch``, by the closed form)."""
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                closed_form = getattr(self, "_get_closed_form_lr", self.get_lr)
                values = closed_form()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values, strict=True):
            _set_lr(group, lr)
        self._last_lr: list[Any] = _values(self.optimizer, "lr")

    def _warn_order(self) -> None:
        """torch's warnings for a scheduler stepped before its optimizer."""
        if not hasattr(self.optimizer.step, "_wrapped_by_lr_sched"):
            warnings.warn("Seems like `optimizer.step()` has been overridden after learning "
                          "rate scheduler initialization. Please, make sure to call "
                          "`optimizer.step()` before `lr_scheduler.step()`. See more details "
                          f"at {_ORDER_DOCS}", UserWarning, stacklevel=3)
        elif not getattr(self.optimizer, "_opt_called", False):
            warnings.warn("Detected call of `lr_scheduler.step()` before `optimizer.step()`. "
                          "In PyTorch 1.1.0 and later, you should call them in the opposite "
                          "order: `optimizer.step()` before `lr_scheduler.step()`.  Failure to "
                          "do this will result in PyTorch skipping the first value of the "
                          f"learning rate schedule. See more details at {_ORDER_DOCS}",
                          UserWarning, stacklevel=3)


class LambdaLR(LRScheduler):
    """Each group's ``lr`` is its initial one times ``lr_lambda(epoch)`` (one function, or
    one per group).

    >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=1.0)
    >>> s = optim.lr_scheduler.LambdaLR(opt, lambda epoch: 1 / (epoch + 1))
    >>> opt.step(); s.step(); s.get_last_lr()
    [0.5]
    """

    def __init__(self, optimizer: Optimizer, lr_lambda: Callable[[int], float] |
                 list[Callable[[int], float]], last_epoch: int = -1) -> None:
        self.optimizer = optimizer
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def state_dict(self) -> dict[str, Any]:
        """The state, with each lambda's attributes where it is a callable object (plain
        functions are not saved), as torch's.

        >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=1.0)
        >>> optim.lr_scheduler.LambdaLR(opt, lambda e: 1.0).state_dict()["lr_lambdas"]
        [None]
        """
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "lr_lambdas")}
        state["lr_lambdas"] = [None if isinstance(fn, types.FunctionType) else fn.__dict__.copy()
                               for fn in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Take over a ``state_dict``'s state, and its callable objects' attributes.

        >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=1.0)
        >>> s = optim.lr_scheduler.LambdaLR(opt, lambda e: 1.0)
        >>> s.load_state_dict(s.state_dict())
        """
        lambdas = state_dict["lr_lambdas"]
        self.__dict__.update({k: v for k, v in state_dict.items() if k != "lr_lambdas"})
        for fn, saved in zip(self.lr_lambdas, lambdas):
            if saved is not None:
                fn.__dict__.update(saved)

    def get_lr(self) -> list[Any]:
        self._warn_outside_step()
        return [base * _args.python_call(fn, self.last_epoch) for fn, base in
                zip(self.lr_lambdas, self.base_lrs, strict=True)]


class StepLR(LRScheduler):
    """Every ``step_size`` epochs, each group's ``lr`` is multiplied by ``gamma``.

    >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=1.0)
    >>> optim.lr_scheduler.StepLR(opt, step_size=30).gamma
    0.1
    """

    def __init__(self, optimizer: Optimizer, step_size: int, gamma: float = 0.1,
                 last_epoch: int = -1) -> None:
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        self._warn_outside_step()
        if self.last_epoch == 0 or _args.python_op(self.last_epoch, "%", self.step_size) != 0:
            return _values(self.optimizer, "lr")
        return [g["lr"] * self.gamma for g in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[Any]:
        return [base * self.gamma ** (self.last_epoch // self.step_size)
                for base in self.base_lrs]


class MultiStepLR(LRScheduler):
    """At each epoch in ``milestones``, each group's ``lr`` is multiplied by ``gamma``
    (by ``gamma ** n`` for a milestone given ``n`` times).

    >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=1.0)
    >>> optim.lr_scheduler.MultiStepLR(opt, [3, 3, 5]).milestones
    Counter({3: 2, 5: 1})
    """

    def __init__(self, optimizer: Optimizer, milestones: Iterable[int], gamma: float = 0.1,
                 last_epoch: int = -1) -> None:
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        self._warn_outside_step()
        if self.last_epoch not in self.milestones:
            return _values(self.optimizer, "lr")
        return [g["lr"] * self.gamma ** self.milestones[self.last_epoch]
                for g in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[Any]:
        milestones = sorted(self.milestones.elements())
        return [base * self.gamma ** bisect_right(milestones, self.last_epoch)
                for base in self.base_lrs]


class ExponentialLR(LRScheduler):
    """Every epoch, each group's ``lr`` is multiplied by ``gamma``.

    >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=1.0)
    >>> optim.lr_scheduler.ExponentialLR(opt, gamma=0.9).get_last_lr()
    [1.0]
    """

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        self._warn_outside_step()
        if self._is_initial:
            return _values(self.optimizer, "lr")
        return [g["lr"] * self.gamma for g in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[Any]:
        return [base * self.gamma ** self.last_epoch for base in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """Each group's ``lr`` follows half a cosine from its initial value down to ``eta_min``
    over ``T_max`` epochs (then back up, and so on), by torch's chained formula.

    >>> opt = optim.SGD(nn.Linear(1, 1).parameters(), lr=1.0)
    >>> s = optim.lr_scheduler.CosineAnnealingLR(opt, T_max=2)
    >>> opt.step(); s.step(); s.get_last_lr()
    [0.5]
    """

    def __init__(self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0,
                 last_epoch: int = -1) -> None:
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        self._warn_outside_step()
        groups, epoch, low = self.optimizer.param_groups, self.last_epoch, self.eta_min
        if self._is_initial:
            return _values(self.optimizer, "lr")
        op, period = _args.python_op, self.T_max  # torch's Python arithmetic on T_max
        if self._step_count == 1 and epoch > 0:  # resumed: the closed form
            return [low + (base - low) * (1 + math.cos(op(epoch * math.pi, "/", period))) / 2
                    for base, _ in zip(self.base_lrs, groups, strict=True)]
        if op(op(epoch - 1, "-", period), "%", op(2, "*", period)) == 0:  # the bottom: turn up
            return [g["lr"] + (base - low) * (1 - math.cos(math.pi / period)) / 2
                    for base, g in zip(self.base_lrs, groups, strict=True)]
        return [(1 + math.cos(op(math.pi * epoch, "/", period)))
                / (1 + math.cos(math.pi * (epoch - 1) / period)) * (g["lr"] - low) + low
                for g in groups]

    def _get_closed_form_lr(self) -> list[Any]:
        return [self.eta_min + (base - self.eta_min)
                * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base in self.base_lrs]


# in their own modules, built on the names above: the cycling schedules, the scheduler that
# watches a metric, the warm-up shapes and combinations of schedulers
from .lr_scheduler_cycles import (  # noqa: E402
    CosineAnnealingWarmRestarts,
    CyclicLR,
    OneCycleLR,
)
from .lr_scheduler_plateau import ReduceLROnPlateau  # noqa: E402
from .lr_scheduler_shapes import (  # noqa: E402
    ChainedScheduler,
    ConstantLR,
    LinearLR,
    MultiplicativeLR,
    PolynomialLR,
    SequentialLR,
)


class _LRScheduler(LRScheduler):
    """torch's old name of :class:`LRScheduler`, kept so that schedulers written against it
    (``class MyScheduler(optim.lr_scheduler._LRScheduler)``) still run; a subclass, not an
    alias, so that its ``__name__`` is its own, as in torch.

    >>> issubclass(optim.lr_scheduler._LRScheduler, optim.lr_scheduler.LRScheduler)
    True
    """
