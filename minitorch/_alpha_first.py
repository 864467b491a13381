"""torch's deprecated overloads that put the scale first: ``add(Number alpha, Tensor other)``
and ``sub``'s, on ``torch.add``/``torch.sub`` and the methods ``add``, ``add_``, ``sub``,
``sub_``. Pre-1.0 code still calls them (the char-RNN tutorial's ``p.data.add_(-lr,
p.grad.data)``); torch accepts them, warning once per process for all of its deprecated
signatures together.

>>> import minitorch
>>> minitorch.ones(2).add(2, minitorch.ones(2))
tensor([3., 3.])
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from numbers import Number
from typing import Any

from ._tensor import Tensor
from ._warn_once import warn_once

__all__ = ["alpha_by_position", "alpha_first"]


def alpha_first(name: str) -> Callable[[Callable[..., Tensor]], Callable[..., Tensor]]:
    """``fn(input, alpha, other)`` read as ``fn(input, other, alpha=alpha)``, with torch's
    warning; every other call passes through unchanged."""
    def decorate(fn: Callable[..., Tensor]) -> Callable[..., Tensor]:
        @functools.wraps(fn)
        def call(input: Any, *args: Any, **kwargs: Any) -> Tensor:
            if len(args) == 1 and set(kwargs) == {"other"} and _number(args[0]):
                args, kwargs = (args[0], kwargs["other"]), {}
            if (len(args) == 2 and not kwargs and _number(args[0])
                    and (isinstance(args[1], Tensor) or _number(args[1]))):
                warn_once(f"This overload of {name} is deprecated:\n\t{name}(Number alpha, "
                          f"Tensor other)\nConsider using one of the following signatures "
                          f"instead:\n\t{name}(Tensor other, *, Number alpha = 1)",
                          key="deprecated signature")
                return fn(input, args[1], alpha=args[0])
            return fn(input, *args, **kwargs)

        return call

    return decorate


def alpha_by_position(fn: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """``fn(input, other, alpha)`` of a number ``other`` and ``alpha`` read as ``fn(input,
    other, alpha=alpha)``: the ``Number other, Number alpha = 1`` overload of ``subtract``,
    ``subtract_`` and ``rsub``, whose alpha torch takes by position too; every other call
    passes through unchanged (its tensor ``other`` takes alpha only by keyword).

    >>> import minitorch
    >>> alpha_by_position(minitorch.sub)(minitorch.ones(2), 1, 2)
    tensor([-1., -1.])
    """
    @functools.wraps(fn)
    def call(input: Any, *args: Any, **kwargs: Any) -> Tensor:
        if len(args) == 2 and not kwargs and all(map(_number, args)):
            return fn(input, args[0], alpha=args[1])
        return fn(input, *args, **kwargs)

    return call


def _number(value: Any) -> bool:
    return isinstance(value, Number) and not isinstance(value, Tensor)
