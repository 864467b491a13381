"""Functions of a float's representation: ``ldexp`` (times a power of two), ``frexp`` (its
mantissa and exponent) and ``nextafter`` (the next representable number), with torch's
nodes and gradients.

>>> import minitorch
>>> minitorch.frexp(minitorch.tensor([8., -0.75]))
torch.return_types.frexp(
mantissa=tensor([ 0.5000, -0.7500]),
exponent=tensor([4, 0], dtype=torch.int32))
"""

from __future__ import annotations

import math
from typing import Any

from .. import _args, return_types
from .._tensor import Tensor, check_inplace_operands
from ..backend import cpu_math, half_via_float
from . import pointwise
from ._base import Op, example, public_binary, wrap
from .binary_more import _Binary, _floating_operands
from .pointwise import check_broadcast, where, zero_grad

__all__ = ["METHODS", "Frexp", "Ldexp", "Nextafter", "frexp", "frexp_arrays", "ldexp",
           "nextafter"]


class Ldexp(_Binary):
    """``input * 2 ** other`` in the operands' float dtype: exact (rounded once) for an
    integer ``other``, as C's ``ldexp``; for a float one, as torch's ``mul(input, pow(2,
    other))``, the power rounded to ``other``'s own dtype before the product."""

    node_name = "LdexpBackward0"
    saved_names = ("other", "result")
    reads = (("other", "result"), ("result",))  # (torch keeps the result whatever is wanted)
    _profile_name = "aten::ldexp"

    @classmethod
    def result(cls, a: Tensor, b: Tensor) -> Any:
        exact = a.dtype.is_floating_point and not b.dtype.is_floating_point
        check_broadcast(a, b)  # torch's iterator before its kernel's dtype check
        if exact and b.dtype.name == "bool":
            raise NotImplementedError("\"ldexp_cpu_exp\" not implemented for 'Bool'")
        x, y = _floating_operands("ldexp", a, b, True)
        xp = a._xp
        if exact:
            return xp.astype(_scaled(xp, xp.astype(x, xp.float64), xp.astype(y, xp.float64)),
                             x.dtype)
        if b.dtype.is_floating_point:
            return pointwise.mul(a.detach(), pointwise.pow(2, b.detach()))._data
        return half_via_float(lambda xp, x, y: x * cpu_math(lambda e: xp.pow(2.0, e), y),
                              xp, x, y)

    @staticmethod
    def gradients(g: Tensor, a: None, b: Tensor | None, out: Tensor | None) -> tuple:
        # (torch takes pow(2, other), in integers for an integer other: its gradient for a
        # negative one is 0, a wrong gradient minitorch does not copy)
        power = None if b is None else b.exp2() if not b.dtype.is_floating_point else 2 ** b
        return (None if b is None else g * power,
                None if out is None else g * out * math.log(2))


def _scaled(xp: Any, x: Any, power: Any) -> Any:
    """``x * 2 ** power`` of float64 ``x`` and integral ``power``, exactly: the mantissa's
    exponent moved in two halves, so that no step overflows or rounds before the last."""
    mantissa, exponent = frexp_arrays(xp, x)
    # each half at most 1023 (2 ** 1024 is inf: a zero times it nan); a zero, inf or nan is
    # itself whatever the power, as C's ldexp keeps it
    total = xp.clip(xp.astype(exponent, xp.float64) + power, -5000.0, 2046.0)
    half = xp.floor(total / 2)
    moved = mantissa * xp.pow(2.0, total - half) * xp.pow(2.0, half)
    return xp.where(xp.isfinite(x) & (x != 0), moved, x)


class Nextafter(_Binary):
    """The float next to ``input`` towards ``other``; torch passes the gradient to ``input``
    where the two differ (a step of one unit is flat) and none to ``other``."""

    node_name = "NextafterBackward0"
    saved_names = ("other", "self")
    _profile_name = "aten::nextafter"
    integers = False

    @staticmethod
    def compute(xp: Any, x: Any, y: Any) -> Any:
        return xp.nextafter(x, y)

    @staticmethod
    def gradients(g: Tensor, a: Tensor, b: Tensor, out: Tensor) -> tuple:
        return where(a != b, g, 0.0), zero_grad(g, None)


def frexp_arrays(xp: Any, a: Any) -> tuple:
    """``a = mantissa * 2 ** exponent`` with ``|mantissa|`` in ``[1/2, 1)`` (0, inf and NaN
    kept, exponent 0), the mantissa in ``a``'s dtype, the exponent int32; exact, through
    float64.

    >>> import numpy as np
    >>> [v.tolist() for v in frexp_arrays(np, np.array([5e-324, -6.0]))]
    [[0.5, -0.75], [-1073, 3]]
    """
    x = xp.astype(a, xp.float64)
    finite = xp.isfinite(x) & (x != 0)
    exponent = xp.floor(xp.log2(xp.where(finite, xp.abs(x), 1.0))) + 1
    half = xp.floor(exponent / 2)  # two exact steps: 2**-exponent alone may overflow
    mantissa = x * xp.pow(2.0, -half) * xp.pow(2.0, half - exponent)
    for too_far, scale in ((xp.abs(mantissa) >= 1, 0.5), (xp.abs(mantissa) < 0.5, 2.0)):
        fix = too_far & finite  # log2 rounded across a power of two
        mantissa = xp.where(fix, mantissa * scale, mantissa)
        exponent = xp.where(fix, exponent - math.log2(scale), exponent)
    mantissa = xp.where(finite, mantissa, x)
    exponent = xp.where(finite, exponent, 0.0)
    return xp.astype(mantissa, a.dtype), xp.astype(exponent, xp.int32)


class Frexp(Op):
    """The mantissa of ``frexp``; its gradient is ``g / 2 ** exponent``."""

    node_name = "FrexpBackward0"
    _profile_name = "aten::frexp"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, mantissa: Any, exponent: Tensor) -> Tensor:
        ctx.exponent = exponent
        return wrap(mantissa)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (g / ctx.exponent.exp2(),)


def frexp(input: Tensor) -> Any:
    """The mantissa (``|m|`` in ``[1/2, 1)``) and the int32 exponent of each float, with
    ``input = mantissa * 2 ** exponent``.

    >>> minitorch.frexp(minitorch.tensor([3.])).exponent
    tensor([2], dtype=torch.int32)
    """
    _args.tensor_args("frexp", (input, "input", 1))
    if not input.dtype.is_floating_point:
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    mantissa, exponent = frexp_arrays(input._xp, input._data)
    exponent = wrap(exponent)
    return return_types.frexp(Frexp.apply(input, mantissa=mantissa, exponent=exponent),
                              exponent)


ldexp = public_binary(Ldexp, "ldexp", example(
    "``input * 2 ** other`` (in floats).",
    "minitorch.ldexp(minitorch.tensor([3., 1.]), minitorch.tensor([2, -1]))",
    "tensor([12.0000,  0.5000])"))
nextafter = public_binary(Nextafter, "nextafter", example(
    "The next float after ``input`` towards ``other``.",
    "minitorch.nextafter(minitorch.tensor([1.]), minitorch.tensor([2.])) - 1",
    "tensor([1.1921e-07])"))


def ldexp_(self: Tensor, other: Tensor) -> Tensor:
    """In-place :func:`ldexp` (of a floating tensor: the result is a float).

    >>> minitorch.tensor([1.5]).ldexp_(minitorch.tensor([2]))
    tensor([6.])
    """
    _args.tensor_args("ldexp_", (other, "other", 1))
    if not self.dtype.is_floating_point:
        raise RuntimeError(f"ldexp can't be cast to the desired output type "
                           f"{_args.legacy(self.dtype)}")
    check_inplace_operands(self, other)  # torch writes into self: its shape before the kernel's
    return self._inplace(ldexp, other)


METHODS = {"ldexp": ldexp, "ldexp_": ldexp_, "nextafter": nextafter, "frexp": frexp}
