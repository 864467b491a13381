"""``minitorch.dist(input, other, p)``: the ``p``-norm of ``input - other`` (``DistBackward0``);
``cdist``: the ``p``-norm distance between every row of one batch of matrices and every row
of another (``CdistBackward0``, or torch's matrix-product form for large Euclidean ones).

The forward is torch's ``norm(input - other, p)`` (the same kernels as the vector norms, so the
same bits); the backward is the norm's gradient of the difference, negated for ``other``.

>>> import minitorch
>>> minitorch.dist(minitorch.tensor([3., 0.]), minitorch.tensor([0., 4.]))
tensor(5.)
"""

from __future__ import annotations

import math
from typing import Any

from .. import _args, _call_form
from .._dtype import float16
from .._tensor import Tensor, broadcast_shapes
from ..autograd.grad_mode import is_grad_enabled, no_grad
from ..backend import index_add, quiet
from ._base import Op, sum_to, wrap
from .linalg import same_matrix_dtypes
from .norm import _check_identity, _norm_backward, _reduce, real_order, vector_norm_of

__all__ = ["Cdist", "Dist", "EuclideanDist", "Pdist", "cdist", "dist", "pdist"]


class Dist(Op):
    node_name = "DistBackward0"
    _profile_name = "aten::dist"

    @staticmethod
    def forward(ctx: Any, a: Tensor, b: Tensor, *, p: float) -> Tensor:
        with no_grad():
            diff = a - b
        if not diff.dtype.is_floating_point:
            raise RuntimeError("norm(): input dtype should be either floating point or complex. "
                               f"Got {_args.legacy(diff.dtype)} instead.")
        p = real_order(p)
        _check_identity(diff.shape, p, None)
        xp = diff._xp
        out = wrap(xp.reshape(vector_norm_of(xp, xp.abs(diff._data), p, None), ()))
        ctx.p = p
        ctx.save_for_backward(a, b, out)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        a, b, out = ctx.saved_tensors
        grad = _norm_backward(a - b, out, g, ctx.p, None)
        if grad is None:  # p = 0: torch's formula for ``other`` negates the missing gradient
            if ctx.needs_input_grad[1]:
                raise _args.undefined_self()
            return None, None
        return sum_to(grad, a.shape), sum_to(-grad, b.shape)


@_call_form.parser_types(p="Number")  # (an int too)
def dist(input: Tensor, other: Tensor, p: float = 2) -> Tensor:
    """The ``p``-norm of ``input - other`` (broadcast); ``p`` may be 0, ``inf`` or ``-inf``.

    >>> minitorch.dist(minitorch.ones(3), minitorch.zeros(3), p=1)
    tensor(3.)
    """
    _args.tensor_args("dist", (input, "input", 1), (other, "other", 2))
    (p,) = _args.numbers("dist", (p, "p", 3))
    return Dist.apply(input, other, p=p)


def _pair_norms(xp: Any, a: Any, p: float, dim: int, scalar_max: bool = False) -> Any:
    """The ``p``-norms along ``dim`` of the absolute differences ``a``, kept, as torch's
    cdist and pdist kernels compute them: a general order's root taken in double
    (``std::pow(sum, 1.0 / p)``) and rounded once to the dtype; the 0-"norm" sums
    ``min(ceil(a), 1)``, so a nan difference makes it nan; the ``scalar_max`` of cdist's
    loop (``std::max`` from 0) passes over a nan, where pdist's vector maximum keeps it.

    >>> import numpy as np
    >>> _pair_norms(np, np.float32([[2.0]]), 3.0, 1)
    array([[2.]], dtype=float32)
    >>> _pair_norms(np, np.float32([[np.nan, 1.0]]), math.inf, 1, scalar_max=True)
    array([[1.]], dtype=float32)
    """
    if p == 0:
        return xp.sum(xp.minimum(xp.ceil(a), 1), axis=dim, keepdims=True)
    if p == math.inf and scalar_max:
        a = xp.where(xp.isnan(a), 0, a)
    if p in (1, 2, math.inf):  # (no differences: 0, each kernel's starting value)
        return vector_norm_of(xp, a, p, (dim,)) if not a.shape[dim] else _reduce(xp, a, p, (dim,))
    total = xp.sum(a ** p, axis=dim, keepdims=True)
    return xp.astype(xp.astype(total, xp.float64) ** (1.0 / p), a.dtype)


class Cdist(Op):
    """The ``p``-norms of the differences of every row of ``a`` with every row of ``b``.
    Its backward (torch's ``_cdist_backward``, on arrays) has no derivative in torch: a
    graph of it is refused as torch refuses it."""

    node_name = "CdistBackward0"
    _profile_name = "aten::_cdist_forward"

    @staticmethod
    def forward(ctx: Any, a: Tensor, b: Tensor, *, p: float) -> Tensor:
        xp = a._xp
        diff = xp.expand_dims(a._data, axis=-2) - xp.expand_dims(b._data, axis=-3)
        out = xp.squeeze(_pair_norms(xp, xp.abs(diff), p, diff.ndim - 1, scalar_max=True),
                         axis=-1)
        out = xp.astype(out, a._data.dtype, copy=False)  # (b's may differ where no row or
        ctx.p, result = p, wrap(out)  # column is read: torch's result is a's)
        ctx.save_for_backward(a, b, result)  # (the result itself: a write into it is refused)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        if is_grad_enabled():
            raise NotImplementedError("the derivative for '_cdist_backward' is not "
                                      "implemented.")
        a, b, out = ctx.saved_tensors
        xp, p = g._xp, ctx.p
        rows_a, rows_b = xp.expand_dims(a._data, axis=-2), xp.expand_dims(b._data, axis=-3)
        dist, grad = xp.expand_dims(out._data, axis=-1), xp.expand_dims(g._data, axis=-1)

        def summed(diff: Any, axis: int, like: Tensor) -> Tensor:
            # torch's kernel adds each term onto zeros (so no -0.0); batches broadcast are
            # summed back
            total = xp.sum(_cdist_term(xp, diff, dist, grad, p), axis=axis) + 0.0
            return sum_to(wrap(xp.astype(total, like._data.dtype, copy=False)), like.shape)
        # torch's gradient for b is a's with the two swapped: b's rows minus a's
        return (summed(rows_a - rows_b, -2, a) if ctx.needs_input_grad[0] else None,
                summed(rows_b - rows_a, -3, b) if ctx.needs_input_grad[1] else None)


class Pdist(Op):
    """The ``p``-norm distances between the rows ``i < j`` of a matrix, in that order; its
    backward (torch's ``_pdist_backward``, on arrays) has no derivative in torch either."""

    node_name = "PdistBackward0"
    _profile_name = "aten::_pdist_forward"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, p: float) -> Tensor:
        xp, n = a._xp, a.shape[0]
        first, second = (xp.asarray(k, dtype=xp.int64) for k in _pairs(n))
        diff = xp.take(a._data, first, axis=0) - xp.take(a._data, second, axis=0)
        out = xp.squeeze(_pair_norms(xp, xp.abs(diff), p, 1), axis=-1) if diff.shape[0] else \
            xp.zeros((0,), dtype=a._data.dtype)
        ctx.p, ctx.pairs = p, (first, second)
        ctx.save_for_backward(a, wrap(out))
        return wrap(out)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        if g.dtype.name == "float16":  # (a forward of no pairs runs no kernel: it passes)
            raise _args.not_implemented("pdist_backward", g.dtype)
        if is_grad_enabled():
            raise NotImplementedError("the derivative for '_pdist_backward' is not "
                                      "implemented.")
        a, out = ctx.saved_tensors
        xp, (first, second) = g._xp, ctx.pairs
        diff = xp.take(a._data, first, axis=0) - xp.take(a._data, second, axis=0)
        each = _cdist_term(xp, diff, xp.expand_dims(out._data, axis=-1),
                           xp.expand_dims(g._data, axis=-1), ctx.p)
        grad = xp.zeros(a._data.shape, dtype=a._data.dtype)
        index_add(xp, grad, (first,), each)
        index_add(xp, grad, (second,), -each)
        return (wrap(grad),)


def _pairs(n: int) -> tuple:
    """The rows ``i < j`` of ``n``, row by row."""
    first = [i for i in range(n) for _ in range(i + 1, n)]
    return first, [j for i in range(n) for j in range(i + 1, n)]


def pdist(input: Tensor, p: float = 2) -> Tensor:
    """The ``p``-norm distance between each pair of rows ``i < j`` of a matrix, as one
    vector (the upper triangle of ``cdist(input, input)``, row by row).

    >>> minitorch.pdist(minitorch.tensor([[0., 0.], [3., 4.], [0., 1.]]))
    tensor([5.0000, 1.0000, 4.2426])
    """
    _args.tensor_args("pdist", (input, "input", 1))
    (p,) = _args.reals("pdist", (p, "p", 2))
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    if not input.dtype.is_floating_point:
        raise RuntimeError("pdist only supports floating-point dtypes")
    if not p >= 0:  # (a nan order too)
        raise RuntimeError("pdist only supports non-negative p values")
    if input.dtype is float16 and input.shape[0] > 1 and input.shape[1]:  # (its kernel's: it
        raise _args.not_implemented("pdist", input.dtype)  # runs only for pairs of values)
    return Pdist.apply(input, p=float(p))


def _cdist_term(xp: Any, diff: Any, dist: Any, grad: Any, p: float) -> Any:
    """torch's per-pair terms of the cdist gradient (its CPU kernel's formulas per ``p``)."""
    zero = xp.zeros((), dtype=diff.dtype)
    sign = xp.sign(diff)  # (of a nan: nan, as torch's vector sign)
    if p == 0:
        return xp.zeros(diff.shape, dtype=diff.dtype)
    if p == 1:
        return grad * sign
    with quiet():
        if p == math.inf:  # torch's test of |diff| == dist, which a nan or inf - inf fails
            return grad * sign * (1 - xp.minimum(1, xp.ceil(xp.abs(xp.abs(diff) - dist))))
        if p == 2:
            return xp.where(dist == 0, zero, grad * diff / dist)
        if p < 2:
            term = xp.where(dist == 0, zero, sign * xp.abs(diff) ** (p - 1) * grad /
                            dist ** (p - 1))
            return xp.where((diff == 0) & (p < 1), zero, term)
        return xp.where(dist == 0, zero, diff * xp.abs(diff) ** (p - 2) * grad /
                        dist ** (p - 1))


class EuclideanDist(Op):
    """torch's matrix-product form of Euclidean distances (``_euclidean_dist``):
    ``sqrt(clamp(|a|^2 - 2 a.b + |b|^2, 0))`` by one product of padded matrices."""

    node_name = "EuclideanDistBackward0"
    _profile_name = "aten::_euclidean_dist"

    @staticmethod
    def forward(ctx: Any, a: Tensor, b: Tensor) -> Tensor:
        xp, x, y = a._xp, a._data, b._data
        x_norm = xp.sum(x * x, axis=-1, keepdims=True)
        y_norm = xp.sum(y * y, axis=-1, keepdims=True)
        x_pad = xp.concat([x * -2, x_norm, xp.ones_like(x_norm)], axis=-1)
        y_pad = xp.concat([y, xp.ones_like(y_norm), y_norm], axis=-1)
        out = wrap(xp.sqrt(xp.clip(xp.matmul(x_pad, xp.matrix_transpose(y_pad)), 0, None)))
        ctx.save_for_backward(a, b, out)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        a, b, out = ctx.saved_tensors
        ratio = (g / out).masked_fill(out == 0, 0)
        return (a * ratio.sum(-1, keepdim=True) - ratio.matmul(b),
                b * ratio.sum(-2).unsqueeze(-1) - ratio.mT.matmul(a))


_MODES = {"use_mm_for_euclid_dist_if_necessary": 0, "use_mm_for_euclid_dist": 1,
          "donot_use_mm_for_euclid_dist": 2}


def cdist(x1: Tensor, x2: Tensor, p: float = 2.0,
          compute_mode: str = "use_mm_for_euclid_dist_if_necessary") -> Tensor:
    """The ``p``-norm distance between each row of ``x1`` and each row of ``x2`` (batches of
    matrices with as many columns, their batch dims broadcast).

    >>> minitorch.cdist(minitorch.tensor([[0., 0.]]), minitorch.tensor([[3., 4.], [1., 0.]]))
    tensor([[5., 1.]])
    """
    _args.tensor_args("cdist", (x1, "x1", 1), (x2, "x2", 2))
    if compute_mode not in _MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    (p,) = _args.reals("cdist", (p, "p", 3))
    for name, x in (("X1", x1), ("X2", x2)):
        if x.dim() < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: "
                               f"{x.dim()}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: "
                           f"{x1.shape[-1]} X2: {x2.shape[-1]}")
    for name, x in (("X1", x1), ("X2", x2)):
        if not x.dtype.is_floating_point:
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: "
                               f"{_args.legacy(x.dtype)}")
    if not p >= 0:  # (a nan order too)
        raise RuntimeError("cdist only supports non-negative p values")
    broadcast_shapes(tuple(x1.shape[:-2]), tuple(x2.shape[:-2]))  # torch's check
    mode, (r1, r2) = _MODES[compute_mode], (x1.shape[-2], x2.shape[-2])
    if not (r1 and r2 and x1.shape[-1]):  # (an empty result, or zeros, before the kernel's
        return Cdist.apply(x1, x2, p=float(p))  # dtype checks)
    if p == 2 and (mode == 1 or (mode == 0 and max(r1, r2) > 25)):
        same_matrix_dtypes(x1, x2)  # (its matmul's: float16 too)
        return _euclidean(x1, x2)
    if x1.dtype is float16:  # torch's kernels have no half loop
        raise _args.not_implemented("cdist", x1.dtype)
    if x1.dtype is not x2.dtype:
        raise RuntimeError(f"expected scalar type {_args.legacy(x1.dtype)} but found "
                           f"{_args.legacy(x2.dtype)}")
    return Cdist.apply(x1, x2, p=float(p))


def _euclidean(x1: Tensor, x2: Tensor) -> Tensor:
    """torch's ``cdist_impl`` for large Euclidean distances: the batches expanded and
    flattened to one, one ``_euclidean_dist``, viewed back."""
    batch = broadcast_shapes(tuple(x1.shape[:-2]), tuple(x2.shape[:-2]))
    count = math.prod(batch)
    if count != 1:
        x1 = x1.expand(*batch, *x1.shape[-2:]).reshape(count, *x1.shape[-2:])
        x2 = x2.expand(*batch, *x2.shape[-2:]).reshape(count, *x2.shape[-2:])
    return EuclideanDist.apply(x1, x2).view(*batch, x1.shape[-2], x2.shape[-2])
