"""Counting and locating values: ``histc`` (a histogram of equal bins), ``bincount``
(occurrences of each non-negative integer, or their summed weights), ``searchsorted`` and
``bucketize`` (where values would go in a sorted sequence) and ``isin``. None of them has a
gradient: their results are counts and positions (a weighted ``bincount`` that requires
grad is recorded, as torch's, under a node that refuses backward).

>>> import minitorch
>>> minitorch.bincount(minitorch.tensor([0, 2, 2]))
tensor([1, 0, 2])
>>> minitorch.bucketize(minitorch.tensor([0.5, 3.]), minitorch.tensor([1., 2., 3.]))
tensor([0, 2])
"""

from __future__ import annotations

import math
from typing import Any

from .. import _args, _call_form, return_types
from .._cpp_print import cpp_float
from .._dtype import bool as bool_
from .._dtype import float64, result_type, wrapped
from .._tensor import Tensor
from ..backend import array_dtype, index_add, quiet
from ._base import wrap
from ._fused import linspace
from .pointwise import _NoDerivative

__all__ = ["Bincount", "bincount", "bucketize", "histc", "histogram", "histogramdd", "isin",
           "searchsorted"]


def _check_histc_range(low: float, high: float) -> None:
    """torch's refusals of a histc range: not finite, or ``max`` not above ``min``."""
    if any(v != v or v in (float("inf"), float("-inf")) for v in (low, high)):
        raise RuntimeError(f"torch.histc: range of [{cpp_float(low)}, {cpp_float(high)}] is "
                           "not finite")
    if not low < high:
        raise RuntimeError("torch.histc: max must be larger than min")


def _histc_edges(xp: Any, low: float, high: float, dt: Any) -> tuple[float, float]:
    """histc's outer edges, as doubles: an empty range is widened by 1 each way, and for
    float32 and float64 by at least one step of the dtype (its next number), then refused
    where it is not finite or not increasing."""
    if low == high:
        center, low, high = low, low - 1, high + 1
        if dt.name in ("float32", "float64"):
            array_dt = getattr(xp, dt.name)
            info = xp.finfo(array_dt)
            with quiet():  # (a double past the dtype's range is inf in it, as C++'s cast)
                left, right = (xp.nextafter(xp.asarray(center, dtype=array_dt),
                                            xp.asarray(toward, dtype=array_dt))
                               for toward in (info.min, info.max))
            low, high = min(float(left), low), max(float(right), high)
    _check_histc_range(low, high)
    return low, high


def histc(input: Tensor, bins: int = 100, min: Any = 0, max: Any = 0) -> Tensor:
    """Counts of ``input``'s elements in ``bins`` equal bins between ``min`` and ``max``
    (the data's own range when both are equal; elements outside are not counted).

    >>> minitorch.histc(minitorch.tensor([1., 2., 1.]), bins=4, min=0, max=3)
    tensor([0., 2., 1., 0.])
    """
    _args.tensor_args("histc", (input, "input", 1))
    bins, low, high = _args.parsed("histc", ("int", bins, "bins", 2), ("number", min, "min", 3),
                                   ("number", max, "max", 4))
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for "
                           "dimension 0")
    low, high = (float(_args.kernel_scalar(v, float64)) for v in (low, high))  # (a complex:
    # its real part, if it is one)
    if low != high:  # equal bounds ask for the data's own range, checked once it is read
        _check_histc_range(low, high)
    dt = input.dtype
    if dt is bool_:  # its bin edges are made in the input's dtype first
        raise _args.not_implemented("linspace_cpu", dt)
    xp = input._xp
    data = xp.reshape(input._data, (-1,))
    if low == high and data.shape[0]:  # a nan among the data: torch's kernel's own, which
        nan = math.copysign(math.nan, 1 if data.shape[0] == 1 or dt.name == "bfloat16"
                            else -1)  # is -nan where it compares two or more
        low, high = (nan if v != v else v for v in (float(xp.min(data)), float(xp.max(data))))
    low, high = _histc_edges(xp, low, high, dt)
    for bound in (low, high):  # the bin edges are made in the input's dtype
        _args.check_overflow(bound, dt)
    if not dt.is_floating_point:
        raise _args.not_implemented("histogram_cpu", dt)
    _args.check_alloc((bins + 1,), input._data.dtype.itemsize)  # (its bin edges, allocated)
    edges = linspace(xp, low, high, bins + 1, data.dtype)  # torch reads its outer edges
    left, right = edges[0], edges[-1]  # back from these (a span past the dtype: nan)
    kept = data[(data >= left) & (data <= right)]
    with quiet():  # torch's linear interpolation, in the input's dtype
        where = (kept - left) * bins / (right - left)
    # torch casts a position that is not finite to INT64_MIN, an offset that wraps round to
    # the first bin; the right edge joins the last bin
    where = xp.astype(xp.where(xp.isfinite(where), where, xp.zeros_like(where)), xp.int64)
    where = xp.where(where == bins, bins - 1, where[(where >= 0) & (where <= bins)])
    counts = xp.zeros((bins,), dtype=data.dtype)
    index_add(xp, counts, (where,), xp.ones(where.shape, dtype=data.dtype))
    return wrap(counts)


_HISTOGRAM_SIGNATURES = (
    "Tensor input, Tensor bins, *, Tensor weight = None, bool density = False, "
    "tuple of Tensors out = None",
    "Tensor input, int bins = 100, *, tuple of floats range = None, Tensor weight = None, "
    "bool density = False, tuple of Tensors out = None")


@_call_form.overloads(*_HISTOGRAM_SIGNATURES)
def histogram(input: Tensor, bins: Any = 100, *, range: Any = _args.OMITTED,
              weight: Tensor | None = None, density: bool = False) -> Any:
    """Counts (or summed ``weight``) of ``input``'s elements in bins: ``bins`` equal bins over
    ``range`` (the data's own range by default), or the edges in a 1-D tensor ``bins``. Each
    bin holds its left edge, the last its right edge too; ``density`` divides by the total
    and the bin widths. Returns ``(hist, bin_edges)``.

    >>> minitorch.histogram(minitorch.tensor([1., 2., 1.]), bins=2).hist
    tensor([2., 1.])
    """
    _args.tensor_args("histogram", (input, "input", 1))
    if isinstance(bins, Tensor) and range is not _args.OMITTED:  # no overload takes both
        raise TypeError(_call_form.combination_message(
            "histogram", (input, bins), {"range": range}, _HISTOGRAM_SIGNATURES))
    range = None if range is _args.OMITTED else range
    xp = input._xp
    data = xp.reshape(input._data, (-1,))
    if isinstance(bins, Tensor):  # torch checks its inputs, then the count of bins
        _check_histogram_inputs(input, bins, weight)
        if bins.numel() < 2:
            raise RuntimeError("torch.histogram(): bins must be > 0, but got 0 for dimension 0")
        edges = xp.astype(bins._data, data.dtype)
    else:  # torch finds the edges first, then checks its inputs
        edges = _histogram_edges(input, data, bins, range)
        _check_histogram_inputs(input, None, weight)
    if not input.dtype.is_floating_point:
        raise _args.not_implemented("histogram_cpu", input.dtype)
    hist, edges = Histogram.on(input, bins if isinstance(bins, Tensor) else None, weight,
                               edges=edges, density=density)
    return return_types.histogram(hist, edges)


class Histogram(_NoDerivative):
    """``histogram``'s counts and edges: torch records both under one node with no
    derivative when an operand requires grad."""

    node_name = "NotImplemented"
    _profile_name = "aten::histogram"

    @classmethod
    def forward(cls, ctx: Any, *recorded: Tensor, operands: tuple, options: dict) -> tuple:
        return tuple(wrap(a) for a in cls.compute(*operands, **options))

    @staticmethod
    def compute(input: Tensor, bins: Any, weight: Any, edges: Any, density: bool) -> tuple:
        xp = input._xp
        data = xp.reshape(input._data, (-1,))
        kept = (data >= edges[0]) & (data <= edges[-1])
        where = xp.searchsorted(edges, data[kept], side="right") - 1
        where = xp.where(where == edges.shape[0] - 1, where - 1, where)  # the right edge's bin
        hist = xp.zeros((edges.shape[0] - 1,), dtype=data.dtype)
        counted = (xp.ones(where.shape, dtype=data.dtype) if weight is None
                   else xp.astype(xp.reshape(weight._data, (-1,)), data.dtype)[kept])
        index_add(xp, hist, (where,), counted)
        if density:  # torch divides by the total, then by each bin's width (no counts: nan)
            with quiet():
                hist = hist / xp.sum(hist) / (edges[1:] - edges[:-1])
        return hist, edges


_HISTOGRAMDD_SIGNATURES = tuple(
    f"Tensor input, {bins} bins, tuple of floats range = None, Tensor weight = None, "
    "bool density = False" for bins in ("int", "tuple of ints", "tuple of Tensors"))


@_call_form.overloads(*_HISTOGRAMDD_SIGNATURES)
def histogramdd(input: Tensor, bins: Any = _args.OMITTED, *, range: Any = None,
                weight: Tensor | None = None, density: bool = False) -> Any:
    """A histogram of the rows of ``input`` (the last dim holds each point's D coordinates):
    ``bins`` equal bins per dim (one int, or one per dim) over ``range`` (``[min0, max0,
    min1, ...]``; the data's own range by default), or each dim's edges as a 1-D tensor.
    Returns ``(hist, bin_edges)``, ``bin_edges`` a tuple of D tensors.

    >>> minitorch.histogramdd(minitorch.tensor([[0., 1.], [1., 0.]]), bins=2).hist
    tensor([[0., 1.],
            [1., 0.]])
    """
    _args.tensor_args("histogramdd", (input, "input", 1))
    listed = isinstance(bins, (tuple, list))
    tensors = listed and bool(bins) and _args.as_int(bins[0]) is None
    if (_args.as_int(bins) is None and not listed) or (
            weight is not None and not isinstance(weight, Tensor)):
        given = {k: v for k, v in (("bins", bins), ("weight", weight))
                 if v is not None and v is not _args.OMITTED}
        raise TypeError(_call_form.combination_message("histogramdd", (input,), given,
                                                       _HISTOGRAMDD_SIGNATURES))
    if tensors:
        bins = _args.tensor_items(bins)  # a list whose first item is no int: of tensors
    counts = (None if tensors else list(_args.int_tuple("histogramdd", bins, "bins", 2))
              if listed else [bins] * (input.shape[-1] if input.dim() else 0))
    if range is not None:
        range = _bounds(range)
    if input.dim() < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    xp, d = input._xp, input.shape[-1]
    rows = xp.reshape(input._data, (-1, d))
    if tensors:
        if len(bins) != d:
            raise RuntimeError(f"torch.histogramdd: expected {d} sequences of bin edges for a "
                               f"{d}-dimensional histogram but got {len(bins)}")
        for i, b in enumerate(bins):
            _check_edges(input, b, i)
        edges = [xp.astype(b._data, rows.dtype) for b in bins]
    else:
        edges = _histogramdd_edges(input, rows, counts, range)
        for i, e in enumerate(edges):  # a negative count made no edge
            _check_edges(input, wrap(e), i)
    _check_histogram_inputs(input, None, weight, list(input.shape))
    for i, e in enumerate(edges):
        if e.shape[0] < 2:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {e.shape[0] - 1} "
                               f"for dimension {i}")
    shape = tuple(e.shape[0] - 1 for e in edges)  # the histogram's, resized as torch's out
    _args.check_numel(shape)  # (before minitorch's flat bin numbers)
    _args.check_alloc(shape, input.dtype.itemsize)
    if not input.dtype.is_floating_point:
        raise _args.not_implemented("histogram_cpu", input.dtype)
    return return_types.histogramdd(*_count_rows(xp, rows, edges, weight, density))


def _bounds(values: Any) -> list:
    """``histogramdd``'s ``range`` as its parser reads a tuple of floats."""
    for i, v in enumerate(values):
        if isinstance(v, bool) or not (isinstance(v, (int, float)) or _args.holds_number(v)):
            raise TypeError("histogramdd(): argument 'range' must be tuple of floats, but "
                            f"found element of type {_args.type_name(v)} at pos {i + 1}")
    return [float(v) for v in values]


def _histogramdd_edges(input: Tensor, rows: Any, counts: list, bounds: Any) -> list:
    """Each dim's equal-bin edges, over its pair of ``bounds`` or its data's range."""
    d = rows.shape[1]
    if bounds is not None and len(bounds) != 2 * d:
        raise RuntimeError(f"torch.histogramdd: for a {d}-dimensional histogram range should "
                           f"have {2 * d} elements, but got {len(bounds)}")
    if len(counts) != d:  # checked after the range's values, before any edge
        if bounds is not None:
            for i in range(d):
                _histogram_edges(input, rows[:, i], 1, bounds[2 * i:2 * i + 2], i)
        raise RuntimeError("histogramdd: The size of bins must be equal to the innermost "
                           "dimension of the input.")
    return [_histogram_edges(input, rows[:, i], counts[i],
                             None if bounds is None else bounds[2 * i:2 * i + 2], i)
            for i in range(d)]


def _count_rows(xp: Any, rows: Any, edges: list, weight: Any, density: bool) -> tuple:
    """The D-dim histogram of ``rows`` over ``edges`` (each bin holds its left edges, the
    last its right edge too), and the edges as tensors."""
    kept = xp.ones((rows.shape[0],), dtype=xp.bool)
    flat = xp.zeros((rows.shape[0],), dtype=xp.int64)
    for i, e in enumerate(edges):
        column = rows[:, i]
        kept = kept & (column >= e[0]) & (column <= e[-1])
        where = xp.searchsorted(e, column, side="right") - 1
        where = xp.clip(where, 0, e.shape[0] - 2)  # the right edge's own bin
        flat = flat * (e.shape[0] - 1) + where
    shape = tuple(e.shape[0] - 1 for e in edges)
    hist = xp.zeros((math.prod(shape),), dtype=rows.dtype)
    counted = (xp.ones((rows.shape[0],), dtype=rows.dtype) if weight is None
               else xp.reshape(weight._data, (-1,)))
    index_add(xp, hist, (flat[kept],), counted[kept])
    hist = xp.reshape(hist, shape)
    if density:  # the total, then each dim's bin widths
        with quiet():
            hist = hist / xp.sum(hist)
            for i, e in enumerate(edges):
                hist = hist / xp.reshape(e[1:] - e[:-1], (-1,) + (1,) * (len(edges) - 1 - i))
    return wrap(hist), tuple(wrap(e) for e in edges)


def _histogram_edges(input: Tensor, data: Any, bins: Any, range: Any,
                     dim: int | None = None) -> Any:
    """The bin edges of :func:`histogram` (of ``histogramdd``'s dim ``dim``: ``data`` its
    column) with a count of ``bins``, in the input's dtype: over ``range``, else over the
    data's own range (found by a kernel of floats only)."""
    xp = input._xp
    (count,) = _args.integers("histogram", (bins, "bins", 2))
    at = dim or 0
    if count <= 0 and dim is None:  # (histogramdd's counts are checked with its edges)
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {count} for "
                           "dimension 0")
    if dim is None:  # histogram's edges are allocated before their range is read
        _args.check_alloc((count + 1,), input.dtype.itemsize)
    if range is not None:
        low, high = (float(v) for v in range)
    elif data.shape[0]:
        if not input.dtype.is_floating_point or input.dtype.name == "float16":
            raise _args.not_implemented("histogramdd", input.dtype)
        low, high = float(xp.min(data)), float(xp.max(data))
    else:
        low, high = 0.0, 1.0
    if not (math.isfinite(low) and math.isfinite(high)):
        raise RuntimeError(f"torch.histogramdd: dimension {at}'s range [{cpp_float(low)}, "
                           f"{cpp_float(high)}] is not finite")
    if low > high:
        raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min "
                           f"{cpp_float(low)} max {cpp_float(high)} for dimension {at}")
    if low == high:
        low, high = low - 0.5, high + 0.5
    if input.dtype is bool_:
        raise _args.not_implemented("linspace_cpu", bool_)
    _args.check_alloc((max(count + 1, 0),), input.dtype.itemsize)  # histogramdd's, here
    return linspace(xp, low, high, max(count + 1, 0), data.dtype)


def _check_histogram_inputs(input: Tensor, bins: Tensor | None, weight: Any,
                            shape: list | None = None) -> None:
    """torch's checks of the edges (a tensor of them) and the weights, in its order; the
    input is seen as a column of its ``numel`` values (``histogramdd``: as rows of the
    ``shape`` given, its edges checked by :func:`_check_edges`)."""
    if bins is not None:
        _check_edges(input, bins, 0)
    if weight is None:
        return
    if weight.dtype is not input.dtype:
        raise RuntimeError("torch.histogramdd: if weight tensor is provided, input tensor and "
                           "weight tensor should have the same dtype, but got input("
                           f"{_args.c_name(input.dtype)}), and weight("
                           f"{_args.c_name(weight.dtype)})")
    rows = [input.numel(), 1] if shape is None else shape
    if (weight.numel() != input.numel() if shape is None else
            list(weight.shape) != list(input.shape[:-1])):
        raise RuntimeError("torch.histogramdd: if weight tensor is provided it should have the "
                           "same shape as the input tensor excluding its innermost dimension, "
                           f"but got input with shape {rows} and weight with "
                           f"shape {list(weight.shape) if shape else [weight.numel()]}")


def _check_edges(input: Tensor, bins: Tensor, dim: int) -> None:
    """torch's checks of the bin edges of dim ``dim``: the input's dtype, one dim, one
    edge at least."""
    if bins.dtype is not input.dtype:
        raise RuntimeError("torch.histogramdd: input tensor and bins tensors should have "
                           "the same dtype, but got input with dtype "
                           f"{_args.c_name(input.dtype)} and bins for dimension {dim} with "
                           f"dtype {_args.c_name(bins.dtype)}")
    if bins.dim() != 1:
        raise RuntimeError("torch.histogramdd: bins tensor should have one dimension, but "
                           f"got {bins.dim()} dimensions in the bins tensor for dimension {dim}")
    if not bins.numel():
        raise RuntimeError("torch.histogramdd: bins tensor should have at least 1 element, "
                           f"but got 0 elements in the bins tensor for dimension {dim}")


class Bincount(_NoDerivative):
    """``bincount`` with weights that require grad: torch records it and refuses backward."""

    node_name = "NotImplemented"
    _profile_name = "aten::bincount"

    @staticmethod
    def compute(input: Tensor, weights: Any, minlength: int) -> Any:
        xp, data = input._xp, input._data
        size = max(minlength, int(xp.max(data)) + 1 if data.shape[0] else 0)
        if weights is None:
            counts = xp.zeros((size,), dtype=xp.int64)
            index_add(xp, counts, (data,), xp.ones(data.shape, dtype=xp.int64))
            return counts
        kind = weights._data.dtype if weights.dtype.name in ("float32", "float64") \
            else xp.float64
        counts = xp.zeros((size,), dtype=kind)
        index_add(xp, counts, (data,), xp.astype(weights._data, kind))
        return counts


def bincount(input: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    """How often each non-negative integer occurs in the 1-d ``input`` (or the sum of the
    ``weights`` of its occurrences), for ``0 .. max(input)`` and at least ``minlength`` of
    them.

    >>> minitorch.bincount(minitorch.tensor([1, 1, 3]), minitorch.tensor([.5, .5, 2.]))
    tensor([0., 1., 0., 2.])
    """
    _args.tensor_args("bincount", (input, "input", 1))
    if weights is not None:
        _args.tensor_args("bincount", (weights, "weights", 2))
    (minlength,) = _args.integers("bincount", (minlength, "minlength", 3))
    if input.dtype.is_floating_point or input.dtype.name == "bool":
        raise NotImplementedError(f"\"bincount_cpu\" not implemented for "
                                  f"'{_args.legacy(input.dtype)}'")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if input.dim() == 1 and not input.numel():
        return wrap(input._xp.zeros((minlength,), dtype=input._xp.int64))
    if input.dim() != 1 or bool(input._xp.any(input._data < 0)):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is not None and (weights.dim() != 1 or weights.shape[0] != input.shape[0]):
        raise RuntimeError("weights should be 1-d and have the same length as input")
    if (top := int(input._xp.max(input._data))) >= _args.INT64_MAX:  # max + 1 bins
        raise RuntimeError("maximum value of input overflowed, it should be < "
                           f"{_args.INT64_MAX} but got {top}")
    return Bincount.on(input, weights, minlength)


_SEARCH_SIGNATURES = (
    "Tensor sorted_sequence, Tensor input, *, bool out_int32 = False, bool right = False, "
    "str side = None, Tensor sorter = None, Tensor out = None",
    "Tensor sorted_sequence, Number self, *, bool out_int32 = False, bool right = False, "
    "str side = None, Tensor sorter = None, Tensor out = None")


def _common(a: Any, b: Any) -> tuple:
    """The arrays of ``a`` and ``b`` (tensors, or a number and a tensor) in their torch
    result dtype, as torch compares them (a number is 0-d; an int the integer dtype cannot
    hold keeps its low bits, as torch's cast of a Scalar does)."""
    dt = result_type(a, b)
    like = a if isinstance(a, Tensor) else b
    xp = like._xp
    kind = array_dtype(xp, dt.name)
    return tuple(xp.astype(v._data, kind) if isinstance(v, Tensor) else
                 xp.asarray(_number_in(v, dt), dtype=kind) for v in (a, b))


def _number_in(value: Any, dt: Any) -> Any:
    """``value`` as a ``dt`` array holds it: an int wrapped into an integer ``dt``."""
    whole = _args.as_int(value)
    return value if whole is None or _args.kind_of(dt) != "int" else wrapped(whole, dt)


def _binary_search(xp: Any, rows: Any, wanted: Any, base: Any, n: int, order: Any,
                   right: bool) -> Any:
    """torch's lower (upper with ``right``) bound of each value among the ``n`` boundaries
    from its row's ``base`` in the flat ``rows`` (read through ``order``): the halving
    steps of its search, run for all values at once, so that NaN and unsorted boundaries
    give torch's answers (a step moves right unless ``boundary >= value``, ``>`` with
    ``right``)."""
    lo = xp.zeros(wanted.shape, dtype=xp.int64)
    hi = xp.full(wanted.shape, n, dtype=xp.int64)
    for _ in range(n.bit_length()):
        mid = lo + (hi - lo) // 2
        active = lo < hi
        at = base + xp.minimum(mid, max(n - 1, 0))
        if order is not None:
            at = base + xp.reshape(xp.take(order, xp.reshape(at, (-1,)), axis=0), at.shape)
        mid_value = xp.reshape(xp.take(rows, xp.reshape(at, (-1,)), axis=0), at.shape)
        stop = mid_value > wanted if right else mid_value >= wanted
        lo = xp.where(active & ~stop, mid + 1, lo)
        hi = xp.where(active & stop, mid, hi)
    return lo


def _positions(boundaries: Tensor, values: Any, right: bool, sorter: Any,
               out_int32: bool) -> Tensor:
    """Where each value (a tensor or a number) would go in the sorted last dim of
    ``boundaries`` (its rows matched with ``values``' leading dims), as int64 (int32 with
    ``out_int32``)."""
    empty = isinstance(values, Tensor) and values.numel() == 0  # no loop is dispatched
    if result_type(boundaries, values) is bool_ and not empty:  # torch's has none for Bool
        raise _args.not_implemented("searchsorted_out_cpu", bool_)
    xp = boundaries._xp
    common = _common(boundaries, values)
    n = boundaries.shape[-1]
    rows = xp.reshape(common[0], (-1,))
    wanted = xp.reshape(common[1], (max(rows.shape[0] // n, 1) if n else 1, -1))
    base = xp.reshape(xp.arange(wanted.shape[0], dtype=xp.int64) * n, (-1, 1))
    if boundaries.dim() == 1:
        base = base * 0
    order = None if sorter is None else xp.reshape(sorter._data, (-1,))
    out = _binary_search(xp, rows, wanted, base, n, order, right)
    out = xp.reshape(out, common[1].shape)
    return wrap(xp.astype(out, xp.int32 if out_int32 else xp.int64))


@_call_form.overloads(*_SEARCH_SIGNATURES)
def searchsorted(sorted_sequence: Tensor, input: Any, *, out_int32: bool = False,
                 right: bool = False, side: str | None = None,
                 sorter: Tensor | None = None) -> Tensor:
    """The index where each value of ``input`` would be inserted into the sorted last dim
    of ``sorted_sequence`` to keep it sorted (after equal values with ``right=True`` or
    ``side="right"``); ``sorter`` sorts an unsorted sequence.

    >>> minitorch.searchsorted(minitorch.tensor([1., 3., 5.]), minitorch.tensor([3., 4.]))
    tensor([1, 2])
    """
    if not _args.is_tensor(sorted_sequence) or not (
            _args.is_tensor(input) or _args.is_real(input)):
        raise _args.invalid_combination("searchsorted", (sorted_sequence, input),
                                        *_SEARCH_SIGNATURES)
    out_int32, right = (_args.flag("searchsorted", v, name) for v, name in
                        ((out_int32, "out_int32"), (right, "right")))
    values = input
    if side is not None and side not in ("left", "right"):
        raise RuntimeError("torch.searchsorted(): side can only be 'left' or 'right' but got "
                           f"{side}")
    if side == "left" and right:
        raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, "
                           "got side of left while right was True")
    if sorter is not None:
        _check_sorter(sorted_sequence, sorter)
    ndim = values.dim() if isinstance(values, Tensor) else 0
    if not ndim and sorted_sequence.dim() != 1:
        numel = values.numel() if isinstance(values, Tensor) else 1
        raise RuntimeError("torch.searchsorted(): input value can be a scalar only when "
                           "boundaries tensor dimension is 1, but we got boundaries tensor "
                           f"dim({sorted_sequence.dim()}) and input value's dim({ndim}) "
                           f"numel({numel})")
    if not sorted_sequence.dim():
        raise RuntimeError("torch.searchsorted(): boundaries tensor should have positive "
                           "dimension, but got 0 dimension")
    if sorted_sequence.dim() != 1 and (sorted_sequence.dim() != ndim or tuple(
            sorted_sequence.shape[:-1]) != tuple(values.shape[:-1])):
        raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or "
                           "the first N-1 dimensions of boundaries tensor and input value "
                           f"tensor must match, but we got boundaries tensor "
                           f"{list(sorted_sequence.shape)} and input value tensor "
                           f"{list(values.shape)}")
    return _positions(sorted_sequence, values, right or side == "right", sorter,
                      out_int32)


def _check_sorter(boundaries: Tensor, sorter: Any) -> None:
    _args.tensor_args("searchsorted", (sorter, "sorter", None))
    if tuple(sorter.shape) != tuple(boundaries.shape):
        raise RuntimeError("torch.searchsorted(): boundary and sorter must have the same size, "
                           f"but got boundary tensor {list(boundaries.shape)}and got sorter "
                           f"tensor {list(sorter.shape)}")
    if sorter.dtype.name != "int64":
        raise RuntimeError("torch.searchsorted(): sorter must be a tensor of long dtype but got "
                           f"dtype {_args.legacy(sorter.dtype)}")
    data = sorter._data
    if not sorter.numel() or bool(sorter._xp.any(data < 0)):
        if sorter.numel():
            raise RuntimeError("torch.searchsorted(): sorter index out of range")
        return
    if not sorter.dim():  # torch reads the last size of a 0-d sorter
        raise RuntimeError("ArrayRef: attempted to access back() of empty list")
    if bool(sorter._xp.any(data >= sorter.shape[-1])):
        raise RuntimeError("torch.searchsorted(): sorter index out of range")


_BUCKET_SIGNATURES = (
    "Tensor input, Tensor boundaries, *, bool out_int32 = False, bool right = False, "
    "Tensor out = None",
    "Number self, Tensor boundaries, *, bool out_int32 = False, bool right = False")


@_call_form.overloads(*_BUCKET_SIGNATURES)
def bucketize(input: Any, boundaries: Tensor, *, out_int32: bool = False,
              right: bool = False) -> Tensor:
    """The bucket of each value of ``input`` between the sorted 1-d ``boundaries``:
    ``boundaries[i-1] < x <= boundaries[i]`` gives ``i`` (``<=`` and ``<`` swapped with
    ``right=True``).

    >>> minitorch.bucketize(minitorch.tensor([1., 2.5]), minitorch.tensor([1., 2., 3.]))
    tensor([0, 2])
    """
    if not _args.is_tensor(boundaries) or not (_args.is_tensor(input) or _args.is_real(input)):
        raise _args.invalid_combination("bucketize", (input, boundaries), *_BUCKET_SIGNATURES)
    out_int32, right = (_args.flag("bucketize", v, name) for v, name in
                        ((out_int32, "out_int32"), (right, "right")))
    if boundaries.dim() != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim("
                           f"{boundaries.dim()})")
    return _positions(boundaries, input, right, None, out_int32)


_ISIN_SIGNATURES = tuple(
    f"{pair}, *, bool assume_unique = False, bool invert = False, Tensor out = None"
    for pair in ("Tensor elements, Tensor test_elements", "Number element, Tensor test_elements",
                 "Tensor elements, Number test_element"))


@_call_form.overloads(*_ISIN_SIGNATURES)
def isin(elements: Any, test_elements: Any, *, assume_unique: bool = False,
         invert: bool = False) -> Tensor:
    """True where an element of ``elements`` equals some element of ``test_elements``
    (either may be a number); ``invert`` gives the opposite.

    >>> minitorch.isin(minitorch.tensor([1, 2, 3]), minitorch.tensor([3, 1]))
    tensor([ True, False,  True])
    """
    tensors = [_args.is_tensor(elements), _args.is_tensor(test_elements)]
    if not all(t or _args.is_real(v) for t, v in zip(tensors, (elements, test_elements))) or \
            not any(tensors):
        raise _args.invalid_combination("isin", (elements, test_elements), *_ISIN_SIGNATURES)
    _args.flag("isin", assume_unique, "assume_unique")
    invert = _args.flag("isin", invert, "invert")
    if any(v.dtype is bool_ if isinstance(v, Tensor) else isinstance(v, bool)
           for v in (elements, test_elements)):
        raise RuntimeError("Unsupported input type encountered for isin(): Bool")
    a, b = _common(elements, test_elements)
    xp = (elements if tensors[0] else test_elements)._xp
    found = xp.any(xp.reshape(a, (-1, 1)) == xp.reshape(b, (1, -1)), axis=1)
    found = xp.reshape(found, a.shape)
    return wrap(xp.logical_not(found) if invert else found)
