"""More running reductions: ``cummax``, ``cummin`` (values and the index each came from) and
``logcumsumexp``, each a loop over the scanned dim on whole slices.

``cummax`` keeps torch's kernel rules: a tie moves the index to the later element, and a NaN
takes over (each later NaN moves the index again). The gradient goes to those indices.

>>> import minitorch
>>> minitorch.tensor([1., 3., 2., 3.]).cummax(0)
torch.return_types.cummax(
values=tensor([1., 3., 3., 3.]),
indices=tensor([0, 1, 1, 3]))
"""

from __future__ import annotations

from typing import Any

from .. import _args, return_types
from .._dtype import finfo
from .._tensor import Tensor
from ..backend import c_order, cpu_math, setitem
from ._base import Op, wrap
from .pointwise import where

__all__ = ["Cummax", "Cummin", "Logcumsumexp", "cummax", "cummin", "logcumsumexp"]


def _slices(xp: Any, data: Any, dim: int) -> tuple:
    """``data`` with ``dim`` moved first (a 0-d array as one element), and how to undo it."""
    if data.ndim == 0:
        return xp.reshape(data, (1,)), lambda out: xp.reshape(out, ())
    return xp.moveaxis(data, dim, 0), lambda out: xp.moveaxis(out, 0, dim)


class _RunningExtremum(Op):
    better = staticmethod(lambda a, b: a >= b)

    @classmethod
    def forward(cls, ctx: Any, a: Tensor, *, dim: int) -> tuple:
        xp = a._xp
        x, back = _slices(xp, a._data, dim)
        values, indices = xp.empty_like(x), xp.zeros(x.shape, dtype=xp.int64)
        best, where_best = x[0] if x.shape[0] else None, xp.zeros(x.shape[1:], dtype=xp.int64)
        for i in range(x.shape[0]):
            current = x[i]
            take = cls.better(current, best)
            if xp.isdtype(x.dtype, "real floating"):
                take = xp.isnan(current) | (~xp.isnan(best) & take)
            best = xp.where(take, current, best)
            where_best = xp.where(take, xp.asarray(i, dtype=xp.int64), where_best)
            setitem(xp, values, i, best)
            setitem(xp, indices, i, where_best)
        out_indices = wrap(c_order(back(indices)))  # torch's CPU kernel: contiguous
        ctx.mark_non_differentiable(out_indices)
        ctx.dim, ctx.shape = dim, a.shape
        ctx.save_for_backward(wrap(out_indices._data))  # a twin, read back without a node
        return wrap(c_order(back(values))), out_indices

    @classmethod
    def backward(cls, ctx: Any, g: Tensor, _g_indices: Any) -> tuple:
        (indices,) = ctx.saved_tensors
        if not ctx.shape:
            return (g,)
        return (g.new_zeros(ctx.shape).scatter_add(ctx.dim, indices, g),)


class Cummax(_RunningExtremum):
    node_name = "CummaxBackward0"
    saved_names = ("indices",)
    _profile_name = "aten::cummax"


class Cummin(_RunningExtremum):
    node_name = "CumminBackward0"
    saved_names = ("indices",)
    _profile_name = "aten::cummin"
    better = staticmethod(lambda a, b: a <= b)


def _running(name: str, op: type, input: Tensor, dim: Any) -> Any:
    _args.tensor_args(name, (input, "input", 1))
    dim = _args.integer(name, dim, "dim", 2)
    if input.dim() == 0 and dim not in (-1, 0):
        raise IndexError(f"{name}(): Expected reduction dim -1 or 0 for scalar but got {dim}")
    # torch returns an empty input's empty results before it wraps the dim: any dim goes
    d = 0 if input.numel() == 0 and not -input.dim() <= dim < input.dim() else \
        _args.dim(name, dim, input.dim())
    return getattr(return_types, name)(*op.apply(input, dim=d))


def cummax(input: Tensor, dim: int) -> Any:
    """The running maximum along ``dim`` and the index of each.

    >>> minitorch.cummax(minitorch.tensor([2, 1, 3]), 0).values
    tensor([2, 2, 3])
    """
    return _running("cummax", Cummax, input, dim)


def cummin(input: Tensor, dim: int) -> Any:
    """The running minimum along ``dim`` and the index of each.

    >>> minitorch.cummin(minitorch.tensor([2, 1, 3]), 0).values
    tensor([2, 1, 1])
    """
    return _running("cummin", Cummin, input, dim)


class Logcumsumexp(Op):
    node_name = "LogcumsumexpBackward0"
    saved_names = ("self", "result")
    _profile_name = "aten::logcumsumexp"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, dim: int) -> Tensor:
        xp = a._xp
        x, back = _slices(xp, a._data, dim)
        # torch's CPU kernel runs the sum in its accumulate type (double for a float, float
        # for a half) and rounds each running value to the input's dtype
        x = xp.astype(x, xp.float32 if x.dtype == xp.float16 else xp.float64)
        out = xp.empty_like(x)
        total = None
        for i in range(x.shape[0]):
            total = _logaddexp(xp, total, x[i]) if total is not None else \
                x[i] + 0.0 if a.dim() else x[i]  # (torch's first is logaddexp(-inf, x):
            # -0. becomes 0.; a 0-d input comes back as it is)
            setitem(xp, out, i, total)
        result = wrap(back(xp.astype(out, a._data.dtype)))
        ctx.dim = dim
        ctx.save_for_backward(a, result)
        return result

    @staticmethod
    def tangent_formula(a: Tensor, t: Tensor, result: Tensor, dual: bool, *, dim: int
                        ) -> Tensor:
        """Forward AD: torch's ``logcumsumexp_jvp``, the running sums of ``t * exp(a - max)``
        over those of ``exp(a - max)`` (linear in ``t``, where the backward's logs of the
        gradient are not)."""
        weights = (a - a.max(dim, keepdim=True).values).exp()
        return (t * weights).cumsum(dim) / weights.cumsum(dim)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        """torch's formula, ``grad_i = Σ_{j >= i} g_j · exp(x_i - out_j)`` taken in logs:
        the positive and the negative parts of ``g`` each through a reversed logcumsumexp
        (``log|g_j| - out_j``), then ``exp(... + x_i)``; a part with no term holds the
        dtype's lowest value instead of ``-inf``."""
        a, out = ctx.saved_tensors
        if a.dim() == 0 or not a.numel():
            return (g,)
        lowest = finfo(g.dtype).min
        log_g = g.abs().log()
        parts = (where(g > 0, log_g, lowest), where(g < 0, log_g, lowest))
        pos, neg = ((_reversed(part - out, ctx.dim) + a).exp() for part in parts)
        return (pos - neg,)


def _reversed(x: Tensor, dim: int) -> Tensor:
    """logcumsumexp from the end of ``dim`` back (torch's ``reverse_logcumsumexp``)."""
    return Logcumsumexp.apply(x.flip(dim), dim=dim).flip(dim)


def _logaddexp(xp: Any, a: Any, b: Any) -> Any:
    """``log(exp(a) + exp(b))`` with the larger taken out (infinities of one sign kept)."""
    high, low = xp.maximum(a, b), xp.minimum(a, b)
    same_inf = xp.isinf(high) & (high == low)
    spread = xp.where(same_inf, xp.zeros((), dtype=a.dtype), low - high)
    return xp.where(same_inf, high, high + cpu_math(xp.log1p, cpu_math(xp.exp, spread)))


def logcumsumexp(input: Tensor, dim: int) -> Tensor:
    """Running ``log(sum(exp(x)))`` along ``dim``, computed stably.

    >>> minitorch.logcumsumexp(minitorch.tensor([0., 0.]), 0)
    tensor([0.0000, 0.6931])
    """
    _args.tensor_args("logcumsumexp", (input, "input", 1))
    d = _args.dim("logcumsumexp", dim, input.dim())
    if not input.dtype.is_floating_point:
        raise _args.not_implemented("logcumsumexp_out_cpu", input.dtype)
    return Logcumsumexp.apply(input, dim=d)


METHODS = {"cummax": cummax, "cummin": cummin, "logcumsumexp": logcumsumexp}
