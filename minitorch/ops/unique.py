"""``unique``: the distinct elements (or rows along ``dim``), sorted, with optionally the
inverse (where each element went) and the counts. NaN are never equal, so each is its own.
``unique_consecutive`` merges only runs of equal neighbours, in their order.

The values keep the input's ``requires_grad`` under a node whose backward torch has not
implemented (``Unique2Backward0``, ``UniqueDimBackward0``, ``UniqueConsecutiveBackward0``):
backward through it raises.

>>> import minitorch
>>> minitorch.tensor([3, 1, 3, 2]).unique(return_counts=True)
(tensor([1, 2, 3]), tensor([1, 1, 2]))
"""

from __future__ import annotations

import math
from typing import Any

from .. import _args, _call_form
from .._batched import refuse_dynamic_shape
from .._tensor import Tensor
from ..backend import setitem, to_numpy
from ._base import Op, wrap
from .introsort import std_sort_order

__all__ = ["unique", "unique_consecutive"]


class _Unique(Op):
    """Distinct rows of the input's dim ``dim`` (each element when ``dim`` is None); runs of
    equal neighbours only, in their order, when the class does not ``sort``."""

    sort = True

    @classmethod
    def forward(cls, ctx: Any, a: Tensor, *, dim: int | None) -> tuple:
        ctx.derivative = cls._profile_name[6:]
        xp = a._xp
        x = xp.reshape(a._data, (-1, 1)) if dim is None else xp.moveaxis(a._data, dim, 0)
        rows = xp.reshape(x, (x.shape[0], math.prod(x.shape[1:])))  # no -1: may be empty
        order = _row_order(xp, rows, dim is not None) if cls.sort else xp.arange(rows.shape[0])
        ordered = xp.take(rows, order, axis=0)
        new = xp.any(ordered[1:] != ordered[:-1], axis=1) | _nan_rows(xp, ordered)
        starts = xp.concat([xp.ones(min(rows.shape[0], 1), dtype=xp.bool), new])
        group = xp.cumsum(xp.astype(starts, xp.int64)) - 1
        inverse = xp.zeros(rows.shape[0], dtype=xp.int64)
        setitem(xp, inverse, order, group)
        first = xp.nonzero(starts)[0]
        ends = xp.concat([first[1:], xp.asarray([rows.shape[0]], dtype=first.dtype)])
        values = xp.take(x, xp.take(order, first), axis=0)
        values = values if dim is None else xp.moveaxis(values, 0, dim)
        shape = a._data.shape if dim is None else (rows.shape[0],)
        extras = wrap(xp.reshape(inverse, shape)), wrap(xp.astype(ends - first, xp.int64))
        ctx.mark_non_differentiable(*extras)
        return (wrap(xp.reshape(values, (-1,)) if dim is None else values), *extras)

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> tuple:
        raise NotImplementedError(f"the derivative for '{ctx.derivative}' is not implemented.")


class Unique2(_Unique):
    node_name = "Unique2Backward0"
    _profile_name = "aten::_unique2"


class UniqueDim(_Unique):
    node_name = "UniqueDimBackward0"
    _profile_name = "aten::unique_dim"


class UniqueConsecutive(_Unique):
    node_name = "UniqueConsecutiveBackward0"
    _profile_name = "aten::unique_consecutive"
    sort = False


def _row_order(xp: Any, rows: Any, by_slice: bool) -> Any:
    """The stable lexicographic order of ``rows``: a stable sort by each column, last first.
    Slices holding NaN (``by_slice``: unique along a dim) are left where torch's
    ``std::sort`` leaves them, as ``<`` does not order NaN."""
    if by_slice and xp.isdtype(rows.dtype, "real floating") and xp.any(xp.isnan(rows)):
        order = std_sort_order(to_numpy(rows).tolist(), rows=True)
        return xp.asarray(order, dtype=xp.int64)
    order = xp.arange(rows.shape[0])
    for column in range(rows.shape[1] - 1, -1, -1):
        keys = xp.take(rows[:, column], order)
        order = xp.take(order, xp.argsort(keys, stable=True))
    return order


def _nan_rows(xp: Any, ordered: Any) -> Any:
    """Rows (after the first) holding NaN: never equal to the row before."""
    if not xp.isdtype(ordered.dtype, ("real floating", "complex floating")):
        return xp.zeros(max(ordered.shape[0] - 1, 0), dtype=xp.bool)
    return xp.any(xp.isnan(ordered[1:]), axis=1)


def _check_dim(input: Tensor, dim: int) -> int:
    """``dim`` wrapped, with torch's refusals: a 0-d tensor has no dim, and empty slices are
    only made along an empty dim, the only one."""
    d = _args.wrap_dim(dim, input.dim(), scalar=False)
    empty = input.shape.count(0)
    if input.shape[d] == 0 and empty > 1:
        raise RuntimeError("Number of zero sized dimensions is more than one, so unique cannot "
                           "be applied ")
    if input.shape[d] and empty:
        raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique "
                           "cannot be applied")
    return d


def _dispatched(prefix: str, inverse_at: int, counts_at: int) -> Any:
    """The name of the function torch's ``boolean_dispatch`` runs for a call: by the truth of
    return_inverse and return_counts, by keyword or at torch's (odd) positions."""
    def name(args: tuple, kwargs: dict) -> str:
        inverse, counts = (kwargs[k] if k in kwargs else len(args) > at and args[at]
                           for k, at in (("return_inverse", inverse_at),
                                         ("return_counts", counts_at)))
        kind = {(False, False): "output", (True, False): "inverse", (False, True): "counts",
                (True, True): "inverse_and_counts"}[bool(inverse), bool(counts)]
        return f"{prefix}_return_{kind}"

    return name


@_call_form.python_dispatch(_dispatched("", 2, 3))
def unique(input: Tensor, sorted: bool = True, return_inverse: bool = False,
           return_counts: bool = False, dim: int | None = None) -> Any:
    """The sorted distinct elements of ``input`` (or its distinct slices along ``dim``); with
    ``return_inverse`` also each element's position among them, with ``return_counts`` also
    how often each occurs.

    >>> minitorch.unique(minitorch.tensor([[2, 1], [2, 1], [0, 3]]), dim=0)
    tensor([[0, 3],
            [2, 1]])
    """
    _dispatch_truth(return_inverse, return_counts)
    _args.tensor_args("_unique2" if dim is None else "unique_dim", (input, "input", 1))
    if dim is None:
        _flags("_unique2", sorted=sorted, return_inverse=return_inverse,
               return_counts=return_counts)
        refuse_dynamic_shape("aten::_unique2", input)
        values, inverse, counts = Unique2.apply(input, dim=None)
    else:
        if _args.as_param_int(dim, "dim", "unique_dim") is None:
            _args.integer("unique_dim", dim, "dim", 2)  # (every type first, then the range)
        _flags("unique_dim", sorted=sorted, return_inverse=return_inverse,
               return_counts=return_counts)
        d = _args.integer("unique_dim", dim, "dim", 2)
        refuse_dynamic_shape("aten::unique_dim", input)
        values, inverse, counts = UniqueDim.apply(input, dim=_check_dim(input, d))
    extras = (inverse,) * bool(return_inverse) + (counts,) * bool(return_counts)
    return (values, *extras) if extras else values


@_call_form.python_dispatch(_dispatched("_consecutive", 2, 1))
def unique_consecutive(input: Tensor, return_inverse: bool = False, return_counts: bool = False,
                       dim: int | None = None) -> Any:
    """``input`` with each run of equal neighbours (elements, or slices along ``dim``) kept
    once; with ``return_inverse`` also each element's run, with ``return_counts`` also each
    run's length.

    >>> minitorch.unique_consecutive(minitorch.tensor([1, 1, 2, 1]), return_counts=True)
    (tensor([1, 2, 1]), tensor([2, 1, 1]))
    """
    _dispatch_truth(return_inverse, return_counts)
    _args.tensor_args("unique_consecutive", (input, "input", 1))
    _flags("unique_consecutive", return_inverse=return_inverse, return_counts=return_counts)
    refuse_dynamic_shape("aten::unique_consecutive", input)
    d = None if dim is None else _check_dim(input, _args.integer("unique_consecutive", dim,
                                                                  "dim", None))  # (by keyword)
    values, inverse, counts = UniqueConsecutive.apply(input, dim=d)
    extras = (inverse,) * bool(return_inverse) + (counts,) * bool(return_counts)
    return (values, *extras) if extras else values


def _dispatch_truth(*flags: Any) -> None:
    """torch's ``boolean_dispatch`` asks the truth of each flag before any check: a tensor
    that is not one value refuses it."""
    for flag in flags:
        if isinstance(flag, Tensor):
            bool(flag)


def _flags(fn: str, **flags: Any) -> None:
    """torch's parser's check of the flags torch's Python passes on by keyword to ``fn``."""
    for name, value in flags.items():
        _args.flag(fn, value, name)
