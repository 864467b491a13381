"""Sorting: ``sort`` (values and the indices they came from), ``argsort`` and ``topk``.

torch's CPU sort is stable whatever ``stable`` says, and puts NaN after every number
(before them when ``descending``). The gradient goes back to where each value came from:
the output gradient scattered by the indices (SortBackward0, TopkBackward0).

>>> import minitorch
>>> minitorch.sort(minitorch.tensor([3., 1., 2.]))
torch.return_types.sort(
values=tensor([1., 2., 3.]),
indices=tensor([1, 2, 0]))
"""

from __future__ import annotations

from typing import Any

from .. import _args, _call_form, return_types
from .._tensor import Tensor
from ..backend import dense_layout
from ._base import Op, c_ints, kept, wrap

__all__ = ["Sort", "Topk", "argsort", "sort", "topk"]


def _order(xp: Any, x: Any, dim: int, descending: bool) -> Any:
    """The stable order of ``x`` along ``dim``, NaN last (first when ``descending``)."""
    if not descending:
        return xp.argsort(x, axis=dim, stable=True)
    if x.dtype == xp.bool:
        x = xp.astype(x, xp.int8)
    floating = xp.isdtype(x.dtype, "real floating")
    # ~x (-x - 1) reverses any integer order without overflow: -x keeps the minimum in place
    flipped = -x if floating else xp.bitwise_invert(x)
    order = xp.argsort(flipped, axis=dim, stable=True)
    if floating:  # NaN (last by now) goes first, keeping its order
        nan_last = xp.astype(xp.take_along_axis(~xp.isnan(x), order, axis=dim), xp.int8)
        order = xp.take_along_axis(order, xp.argsort(nan_last, axis=dim, stable=True), axis=dim)
    return order


def _scatter_back(g: Tensor, indices: Tensor, shape: tuple, dim: int) -> Tensor:
    """The gradient of a gather along ``dim``: ``g`` put back where ``indices`` point."""
    xp = g._xp
    out = xp.zeros(shape, dtype=g._data.dtype)
    xp.put_along_axis(out, indices._data, g._data, axis=dim)
    return wrap(out)


class _Selection(Op):
    """Values picked along ``dim`` (sorted, or the top k) and their indices; ``given``: the
    dim as written, which torch's node shows (a negative one unsigned)."""

    saved_names = ("indices",)
    saved_values = {"dim": kept("given", c_ints), "self_sym_sizes": kept("meta", lambda m: m[0])}

    @staticmethod
    def select(ctx: Any, a: Tensor, order: Any, dim: int, like: Any = None) -> tuple:
        xp = a._xp
        laid = (lambda r: r) if like is None else (lambda r: dense_layout(r, like))
        indices = wrap(laid(xp.astype(order, xp.int64)))
        ctx.mark_non_differentiable(indices)
        ctx.meta = (a._data.shape, dim)
        ctx.save_for_backward(wrap(indices._data))  # a twin: it reads back without the node
        return wrap(laid(xp.take_along_axis(a._data, order, axis=dim))), indices

    @staticmethod
    def backward(ctx: Any, g: Tensor, _g_indices: Tensor | None) -> tuple:
        shape, dim = ctx.meta
        (indices,) = ctx.saved_tensors
        if not shape:
            return (g.reshape(()),)
        return (_ScatterBack.apply(g, indices, shape=shape, dim=dim),)


class _ScatterBack(Op):
    """A gradient put back at its indices; differentiated again, it is gathered."""

    node_name = "ScatterBackward0"  # what torch's value_selecting_reduction_backward builds
    _profile_name = "aten::scatter"

    @staticmethod
    def forward(ctx: Any, g: Tensor, indices: Tensor, *, shape: tuple, dim: int) -> Tensor:
        ctx.save_for_backward(indices)
        ctx.dim = dim
        return _scatter_back(g, indices, shape, dim)

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        (indices,) = ctx.saved_tensors
        return gg.gather(ctx.dim, indices), None  # an op: hvp differentiates it once more


class Sort(_Selection):
    node_name = "SortBackward0"
    _profile_name = "aten::sort"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, dim: int, descending: bool,
                given: int | None = None) -> tuple:
        ctx.given = dim if given is None else given
        xp = a._xp
        x = a._data if a.dim() else xp.reshape(a._data, (1,))
        order = _order(xp, x, dim, descending)
        # torch's sort keeps a dense input's layout (a permuted one's too)
        values, indices = _Selection.select(ctx, wrap(x), order, dim, like=x)
        if not a.dim():
            ctx.meta = ((), dim)
            return _scalar_pair(ctx, values, indices)
        return values, indices


class Topk(_Selection):
    node_name = "TopkBackward0"
    _profile_name = "aten::topk"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, k: int, dim: int, largest: bool,
                given: int | None = None) -> tuple:
        ctx.given = dim if given is None else given
        xp = a._xp
        x = a._data if a.dim() else xp.reshape(a._data, (1,))
        order = _order(xp, x, dim, largest)
        # a 0-d input is its own top value, for k 0 or 1 alike (as torch)
        order = xp.take(order, xp.arange(k if a.dim() else 1), axis=dim)
        values, indices = _Selection.select(ctx, wrap(x), order, dim)
        if not a.dim():
            ctx.meta = ((), dim)
            return _scalar_pair(ctx, values, indices)
        return values, indices


def _scalar_pair(ctx: Any, values: Tensor, indices: Tensor) -> tuple:
    """A 0-d input's value and index, 0-d too; the index is no differentiable output."""
    index = wrap(indices._xp.reshape(indices._data, ()))
    ctx.mark_non_differentiable(index)
    return wrap(values._xp.reshape(values._data, ())), index


def _sort_dim(fn: str, input: Tensor, dim: Any) -> int:
    _args.tensor_args(fn, (input, "input", 1))
    return _args.dim(fn, dim, input.dim(), position=2)


def _sort_flags(fn: str, descending: Any, stable: Any) -> None:
    """The parser's bool checks of ``descending`` and ``stable`` (sort's may be None);
    :func:`_call_form.as_called` words a refusal as torch's, over its two overloads."""
    _args.flag(fn, descending, "descending", 3)
    if stable is not _args.OMITTED:
        _args.flag(fn, stable, "stable", none=fn == "sort")


@_call_form.overloads("Tensor input, *, bool stable, int dim = -1, bool descending = False, "
                      "tuple of Tensors out = None",
                      "Tensor input, int dim = -1, bool descending = False, *, "
                      "tuple of Tensors out = None")
@_call_form.keyword_alone("stable")
def sort(input: Tensor, dim: int = -1, descending: bool = False, *,
         stable: bool | None = _args.OMITTED) -> Any:
    """The values along ``dim`` in order, with the indices they came from (always a stable
    sort; ``stable`` given selects torch's other overload, whose node is SortBackward1).

    >>> minitorch.tensor([3., 1., 2.]).sort(descending=True).indices
    tensor([0, 2, 1])
    """
    _sort_flags("sort", descending, stable)
    d = _sort_dim("sort", input, dim)
    op = Sort if stable is _args.OMITTED else SortStable
    return return_types.sort(*op.apply(input, dim=d, descending=bool(descending),
                                       given=_args.as_int(dim)))


class SortStable(Sort):
    """``sort(..., stable=...)``: torch's ``sort.stable`` overload (``SortBackward1``)."""

    node_name = "SortBackward1"


@_call_form.overloads("Tensor input, *, bool stable, int dim = -1, bool descending = False, "
                      "Tensor out = None",
                      "Tensor input, int dim = -1, bool descending = False")
@_call_form.keyword_alone("stable")
def argsort(input: Tensor, dim: int = -1, descending: bool = False, *,
            stable: bool = False) -> Tensor:
    """The indices that sort ``input`` along ``dim``.

    >>> minitorch.argsort(minitorch.tensor([3., 1., 2.]))
    tensor([1, 2, 0])
    """
    _sort_flags("argsort", descending, stable)
    d = _sort_dim("argsort", input, dim)
    xp = input._xp
    x = input._data if input.dim() else xp.reshape(input._data, (1,))
    order = dense_layout(xp.astype(_order(xp, x, d, bool(descending)), xp.int64), x)  # sort's
    return wrap(order if input.dim() else xp.reshape(order, ()))


def topk(input: Tensor, k: int, dim: int = -1, largest: bool = True,
         sorted: bool = True) -> Any:
    """The ``k`` largest (``largest=False``: smallest) values along ``dim``, and their
    indices.

    >>> minitorch.topk(minitorch.tensor([1., 5., 3.]), 2).values
    tensor([5., 3.])
    """
    _args.tensor_args("topk", (input, "input", 1))
    # the parser's order: every type (k, dim, then the flags) before any range
    k, dim, largest, _ = _args.parsed("topk", ("int", k, "k", 2), ("int", dim, "dim", 3),
                                      ("bool", largest, "largest", 4),
                                      ("bool", sorted, "sorted", 5))
    d = _sort_dim("topk", input, dim)
    size = input._data.shape[d] if input.dim() else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    if input.dtype.name == "bool":
        raise RuntimeError("topk does not support bool dtypes on CPU")
    return return_types.topk(*Topk.apply(input, k=k, dim=d, largest=largest, given=dim))
