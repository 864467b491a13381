"""``hardshrink``: ``x`` where ``|x| > lambd``, else 0, with torch's nodes for its gradient
and the gradient of that (``HardshrinkBackward0``, ``HardshrinkBackwardBackward0``); and
``softshrink``, which also moves the kept values ``lambd`` towards 0 and has the same
gradient (``SoftshrinkBackward0``, ``SoftshrinkBackwardBackward0``).

>>> import minitorch
>>> x = minitorch.tensor([-1., 0.2, 0.7], requires_grad=True)
>>> minitorch.hardshrink(x, 0.5)
tensor([-1.0000,  0.0000,  0.7000], grad_fn=<HardshrinkBackward0>)
"""

from __future__ import annotations

from typing import Any

from .. import _args
from .._dtype import finfo
from .._tensor import Tensor
from ._base import Op, wrap
from ._softmax_order import nan_in_body, vector_body

Number = int | float  # a Scalar of torch's parser (the annotation its type check reads)

__all__ = ["Hardshrink", "HardshrinkBackward", "Softshrink", "SoftshrinkBackward", "hardshrink",
           "softshrink"]


def _shrunk(xp: Any, x: Any, lambd: Any, kept: Any) -> Any:
    """``kept`` where ``x`` is outside ``[-lambd, lambd]``, else 0; NaN counts as outside in
    torch's scalar tail and as inside in its vectorised body."""
    inside = ((x >= -lambd) & (x <= lambd)) | nan_in_body(xp, x)
    return xp.where(inside, xp.zeros_like(kept), kept)


class Hardshrink(Op):
    node_name = "HardshrinkBackward0"
    saved_names = ("self",)
    _profile_name = "aten::hardshrink"

    @classmethod
    def forward(cls, ctx: Any, a: Tensor, *, lambd: Any) -> Tensor:
        ctx.save_for_backward(a)
        ctx.lambd = lambd
        return wrap(cls.shrink(a._xp, a._data, lambd))

    @staticmethod
    def shrink(xp: Any, x: Any, lambd: Any) -> Any:
        return xp.where((x >= -lambd) & (x <= lambd), xp.zeros_like(x), x)

    @classmethod
    def backward(cls, ctx: Any, g: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        return (cls.gradient.apply(g, x, lambd=ctx.lambd),)


class HardshrinkBackward(Op):
    """hardshrink's backward as one op: ``g`` outside the band; differentiated again, itself
    for ``g`` and zeros for ``x``."""

    node_name = "HardshrinkBackwardBackward0"
    saved_names = ("self",)
    _profile_name = "aten::hardshrink_backward"

    @staticmethod
    def forward(ctx: Any, g: Tensor, x: Tensor, *, lambd: Any) -> Tensor:
        ctx.save_for_backward(x)
        ctx.lambd = lambd
        return wrap(_shrunk(g._xp, x._data, lambd, g._data))

    @classmethod
    def backward(cls, ctx: Any, gg: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        return (cls.apply(gg, x, lambd=ctx.lambd) if ctx.needs_input_grad[0]
                else None, gg.new_zeros(gg.shape) if ctx.needs_input_grad[1] else None)


Hardshrink.gradient = HardshrinkBackward


class Softshrink(Hardshrink):
    node_name = "SoftshrinkBackward0"
    _profile_name = "aten::softshrink"

    @staticmethod
    def shrink(xp: Any, x: Any, lambd: Any) -> Any:
        # torch's kernel: inside the band +0., or x * 0 in its scalar tail (-0. for a
        # negative x); NaN stays NaN
        band = xp.where(vector_body(xp, x) & ~xp.isnan(x), xp.zeros_like(x), x * 0)
        return xp.where(x > lambd, x - lambd, xp.where(x < -lambd, x + lambd, band))


class SoftshrinkBackward(HardshrinkBackward):
    node_name = "SoftshrinkBackwardBackward0"
    _profile_name = "aten::softshrink_backward"


Softshrink.gradient = SoftshrinkBackward


def hardshrink(input: Tensor, lambd: Number = 0.5) -> Tensor:
    """``input`` where ``|input| > lambd``, else 0.

    >>> minitorch.hardshrink(minitorch.tensor([-0.6, 0.3]))
    tensor([-0.6000,  0.0000])
    """
    _, lambd = _args.parsed("hardshrink", ("tensor", input, "input", 1),
                            ("number", lambd, "lambd", 2))
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"hardshrink_cpu" not implemented for '
                                  f"'{_args.legacy(input.dtype)}'")
    _args.kernel_scalar(lambd, input.dtype)
    return Hardshrink.apply(input, lambd=lambd)


def softshrink(input: Tensor, lambd: Number = 0.5) -> Tensor:
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0.

    >>> minitorch.nn.functional.softshrink(minitorch.tensor([-2., 0.3, 1.]))
    tensor([-1.5000,  0.0000,  0.5000])
    """
    _, lambd = _args.parsed("softshrink", ("tensor", input, "input", 1),
                            ("number", lambd, "lambd", 2))
    if not input.dtype.is_floating_point:
        raise _args.not_implemented("softshrink_check", input.dtype)
    largest = finfo(input.dtype).max
    if not 0 <= lambd <= largest:
        raise RuntimeError(f"lambda must be in range [0, {largest:g}] for input dtype "
                           f"{_args.legacy(input.dtype)}, but found {lambd:g}")
    return Softshrink.apply(input, lambd=lambd)
