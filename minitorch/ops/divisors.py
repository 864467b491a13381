"""``gcd`` and ``lcm`` of integer tensors, by Euclid's steps as torch's kernel takes them
(C's remainder, so the smallest int8 keeps its sign as in torch). Integers have no gradient.

>>> import minitorch
>>> minitorch.gcd(minitorch.tensor([12, -18, 0]), minitorch.tensor([8, 12, 0]))
tensor([4, 6, 0])
"""

from __future__ import annotations

from typing import Any

from .. import _args
from .._dtype import result_type
from .._tensor import Tensor, check_inplace_operands
from ._base import cast_operands, wrap
from .pointwise import check_broadcast, int_trunc_divide

__all__ = ["METHODS", "gcd", "gcd_array", "lcm"]


def gcd_array(xp: Any, a: Any, b: Any) -> Any:
    """The greatest common divisor of two integer arrays (0 for two zeros).

    >>> import numpy as np
    >>> gcd_array(np, np.array([12, 7]), np.array([-18, 0])).tolist()
    [6, 7]
    """
    a, b = xp.broadcast_arrays(xp.abs(a), xp.abs(b))
    while bool(xp.any(a != 0)):
        going = a != 0
        divisor = xp.where(going, a, xp.ones_like(a))
        remainder = b - int_trunc_divide(xp, b, divisor) * divisor
        a, b = xp.where(going, remainder, a), xp.where(going, a, b)
    return b


def _integers(fn: str, input: Tensor, other: Tensor) -> tuple:
    """The operands in their promoted integer dtype, or torch's refusals."""
    _args.tensor_args(fn, (input, "input", 1), (other, "other", 2))
    check_broadcast(input, other)
    x, y, dt = cast_operands(input, other)
    if dt.is_floating_point or dt.name == "bool":
        raise NotImplementedError(f'"{fn}_cpu" not implemented for \'{_args.legacy(dt)}\'')
    return input._xp, x, y


def gcd(input: Tensor, other: Tensor) -> Tensor:
    """The greatest common divisor of integers (never negative but for the smallest int).

    >>> minitorch.gcd(minitorch.tensor([4, 9]), minitorch.tensor([6, 3]))
    tensor([2, 3])
    """
    xp, x, y = _integers("gcd", input, other)
    return wrap(gcd_array(xp, x, y))


def lcm(input: Tensor, other: Tensor) -> Tensor:
    """The least common multiple of integers (0 where one is 0; wrapping as torch's does).

    >>> minitorch.lcm(minitorch.tensor([4, 6]), minitorch.tensor([6, 0]))
    tensor([12,  0])
    """
    xp, x, y = _integers("lcm", input, other)
    divisor = gcd_array(xp, x, y)
    none = divisor == 0
    quotient = int_trunc_divide(xp, x, xp.where(none, xp.ones_like(divisor), divisor))
    if xp.iinfo(quotient.dtype).bits < 32:  # C's int arithmetic: the product and its abs in
        quotient = xp.astype(quotient, xp.int32)  # int32, then wrapped into the dtype
    multiple = xp.astype(xp.abs(quotient * y), divisor.dtype)
    return wrap(xp.where(none, xp.zeros_like(divisor), multiple))


def _in_place(fn: Any) -> Any:
    """``x.gcd_(other)``/``x.lcm_(other)``: torch checks that ``x`` can hold the result's
    dtype before its kernel checks the dtype."""
    def method(self: Tensor, other: Tensor) -> Tensor:
        _args.tensor_args(f"{fn.__name__}_", (other, "other", 1))
        check_inplace_operands(self, other)
        result = result_type(self, other)
        if result._category > self.dtype._category:
            raise _args.cast_error(result, self.dtype)
        return self._inplace(fn, other)

    method.__name__ = f"{fn.__name__}_"
    method.__doc__ = (f"In-place :func:`{fn.__name__}`.\n\n    >>> minitorch.tensor([4])."
                      f"{fn.__name__}_(minitorch.tensor([6])).dtype\n    torch.int64\n    ")
    return method


METHODS = {"gcd": gcd, "lcm": lcm, "gcd_": _in_place(gcd), "lcm_": _in_place(lcm)}
