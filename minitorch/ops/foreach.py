"""torch's ``_foreach_*`` list ops, as optimizers and EMA code call them: one op applied to
each tensor of a list, with a number, a tensor, or one number or tensor per element.

>>> import minitorch
>>> params = [minitorch.ones(2), minitorch.ones(1)]
>>> minitorch._foreach_mul_(params, 0.5)
[tensor([0.5000, 0.5000]), tensor([0.5000])]
"""

from __future__ import annotations

from collections.abc import Sequence
from numbers import Number
from typing import Any

from .._tensor import Tensor

__all__ = ["_foreach_add", "_foreach_add_", "_foreach_mul", "_foreach_mul_"]


def _pairs(tensors: Sequence[Tensor], other: Any) -> list[tuple[Tensor, Any]]:
    """Each tensor with its operand, after torch's checks of the list lengths."""
    if not tensors:
        raise RuntimeError("Tensor list must have at least one tensor.")
    if not isinstance(other, (list, tuple)):
        return [(t, other) for t in tensors]
    if all(isinstance(o, Number) for o in other):
        if len(other) != len(tensors):
            raise RuntimeError("Tensor list must have same number of elements as scalar list.")
    elif len(other) != len(tensors):
        raise RuntimeError("Tensor lists must have the same number of tensors, got "
                           f"{len(tensors)} and {len(other)}")
    return list(zip(tensors, other))


def _foreach_mul_(self: Sequence[Tensor], other: Any) -> Sequence[Tensor]:
    """``t.mul_(o)`` for each tensor; returns the list itself."""
    for t, o in _pairs(self, other):
        t.mul_(o)
    return self


def _foreach_mul(self: Sequence[Tensor], other: Any) -> tuple[Tensor, ...]:
    """``t * o`` for each tensor, as a tuple.

    >>> minitorch._foreach_mul([minitorch.ones(1)], [3.0])
    (tensor([3.]),)
    """
    return tuple(t * o for t, o in _pairs(self, other))


def _foreach_add_(self: Sequence[Tensor], other: Any, *, alpha: Any = 1) -> Sequence[Tensor]:
    """``t.add_(o, alpha=alpha)`` for each tensor; returns the list itself."""
    for t, o in _pairs(self, other):
        t.add_(o, alpha=alpha) if isinstance(o, Tensor) else t.add_(o)
    return self


def _foreach_add(self: Sequence[Tensor], other: Any, *, alpha: Any = 1) -> tuple[Tensor, ...]:
    """``t + alpha * o`` for each tensor, as a tuple.

    >>> minitorch._foreach_add([minitorch.ones(1)], minitorch.ones(1), alpha=2)
    (tensor([3.]),)
    """
    return tuple(t.add(o, alpha=alpha) if isinstance(o, Tensor) else t + o
                 for t, o in _pairs(self, other))
