"""``hardshrink``: ``x`` where ``|x| > lambd``, else 0, with torch's nodes for its gradient
and the gradient of that (``HardshrinkBackward0``, ``HardshrinkBackwardBackward0``).

>>> import minitorch
>>> x = minitorch.tensor([-1., 0.2, 0.7], requires_grad=True)
>>> minitorch.hardshrink(x, 0.5)
tensor([-1.0000,  0.0000,  0.7000], grad_fn=<HardshrinkBackward0>)
"""

from __future__ import annotations

from typing import Any

from .. import _args
from .._tensor import Tensor
from ._base import Op, wrap

__all__ = ["Hardshrink", "HardshrinkBackward", "hardshrink"]


def _shrunk(xp: Any, x: Any, lambd: Any, kept: Any) -> Any:
    """``kept`` where ``x`` is outside ``[-lambd, lambd]`` (NaN too), else 0."""
    inside = (x >= -lambd) & (x <= lambd)
    return xp.where(inside, xp.zeros_like(kept), kept)


class Hardshrink(Op):
    node_name = "HardshrinkBackward0"
    saved_names = ("self",)
    _profile_name = "aten::hardshrink"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, lambd: Any) -> Tensor:
        ctx.save_for_backward(a)
        ctx.lambd = lambd
        return wrap(_shrunk(a._xp, a._data, lambd, a._data))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        return (HardshrinkBackward.apply(g, x, lambd=ctx.lambd),)


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

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        return (HardshrinkBackward.apply(gg, x, lambd=ctx.lambd) if ctx.needs_input_grad[0]
                else None, gg.new_zeros(gg.shape) if ctx.needs_input_grad[1] else None)


def hardshrink(input: Tensor, lambd: Any = 0.5) -> Tensor:
    """``input`` where ``|input| > lambd``, else 0.

    >>> minitorch.hardshrink(minitorch.tensor([-0.6, 0.3]))
    tensor([-0.6000,  0.0000])
    """
    _, lambd = _args.parsed("hardshrink", ("tensor", input, "input", 1),
                            ("number", lambd, "lambd", 2))
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"hardshrink_cpu" not implemented for '
                                  f"'{_args.legacy(input.dtype)}'")
    return Hardshrink.apply(input, lambd=lambd)
