"""Order statistics along a dim: ``kthvalue``, ``median``, ``nanmedian`` and ``mode``, each
the value picked from each row and the index it came from; and ``msort``.

torch's median is the lower one (no averaging of the two middle values); a row with NaN has
median NaN, while ``nanmedian`` skips NaN. The gradient goes back to the picked index
(``KthvalueBackward0``, ``MedianBackward1``, ...); ``median()`` of a whole tensor spreads it
evenly over every element equal to the median (``MedianBackward0``), as torch does.

>>> import minitorch
>>> minitorch.tensor([3., 1., 4., 2.]).median()
tensor(2.)
"""

from __future__ import annotations

from typing import Any

from .. import _args, _call_form, return_types
from .._tensor import Tensor
from ..backend import to_numpy
from ._base import Op, wrap
from .introsort import std_sort_order
from .pointwise import where
from .sorting import _order, _ScatterBack, sort

__all__ = ["kthvalue", "median", "mode", "msort", "nanmedian"]


class _Pick(Op):
    """The element at ``positions`` (size 1 along ``dim``) of each row, and its index."""

    saved_names = ("indices",)

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, positions: Any, dim: int, keepdim: bool) -> tuple:
        xp = a._xp
        x = a._data if a.dim() else xp.reshape(a._data, (1,))
        index = xp.astype(positions, xp.int64)
        ctx.save_for_backward(wrap(index))
        ctx.meta = (a._data.shape, x.shape, dim)
        values = xp.take_along_axis(x, index, axis=dim)
        if not (keepdim and a.dim()):
            shape = tuple(s for i, s in enumerate(values.shape) if i != dim) if a.dim() else ()
            values, index = xp.reshape(values, shape), xp.reshape(index, shape)
        indices = wrap(index)
        ctx.mark_non_differentiable(indices)
        return wrap(values), indices

    @staticmethod
    def backward(ctx: Any, g: Tensor, _g_indices: Tensor | None) -> tuple:
        shape, row_shape, dim = ctx.meta
        (index,) = ctx.saved_tensors
        g = g.reshape(index.shape)
        return (_ScatterBack.apply(g, index, shape=row_shape, dim=dim).reshape(shape),)


def _pick_op(name: str) -> type[_Pick]:
    """The ``_Pick`` whose node is ``<name>Backward0``, profiled as ``aten::<name>``."""
    node = f"{name}Backward1" if name.lower().endswith("median") else f"{name}Backward0"
    return type(name.capitalize(), (_Pick,), {"node_name": node,
                                             "_profile_name": f"aten::{name.lower()}"})


Kthvalue, MedianDim, NanmedianDim, Mode = map(_pick_op, ("Kthvalue", "Median", "Nanmedian",
                                                        "Mode"))


class Median(Op):
    """The lower median of all elements; its gradient shared by the elements equal to it."""

    node_name = "MedianBackward0"
    _profile_name = "aten::median"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, skip_nan: bool) -> Tensor:
        xp = a._xp
        flat = xp.reshape(a._data, (-1,))
        nan = xp.isnan(flat) if a.dtype.is_floating_point else xp.zeros(flat.shape, dtype=xp.bool)
        count = int(flat.shape[0] - xp.sum(nan)) if skip_nan else flat.shape[0]
        ordered = xp.sort(flat)  # NaN last
        if flat.shape[0] == 0 or (not skip_nan and bool(xp.any(nan))) or count == 0:
            value = wrap(xp.asarray(float("nan"))).to(a.dtype)._data  # NaN cast as torch casts
        else:
            value = ordered[(count - 1) // 2]
        ctx.save_for_backward(a, wrap(xp.reshape(value, ())))  # a twin, not the output
        return wrap(xp.reshape(value, ()))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        a, value = ctx.saved_tensors
        mask = a.isnan() if bool(value.isnan()) else a == value
        return (where(mask, g / mask.sum(), 0.0),)


class Nanmedian(Median):
    node_name = "NanmedianBackward0"
    _profile_name = "aten::nanmedian"


def _rows(fn: str, input: Tensor, dim: Any) -> tuple[int, Any]:
    """``dim`` wrapped and the input's array as rows (a 0-d input as one element), after
    torch's checks."""
    _args.tensor_args(fn, (input, "input", 1))
    d = _args.dim(fn, dim, input.dim())
    x = input._data if input.dim() else input._xp.reshape(input._data, (1,))
    return d, x


def _nonempty(fn: str, x: Any, d: int) -> None:
    if x.shape[d] == 0:
        raise IndexError(f"{fn}(): Expected reduction dim {d} to have non-zero size.")


def _nth(xp: Any, x: Any, d: int, k: Any) -> Any:
    """Positions of the ``k``-th smallest (0-based, an int or an array along ``d``), NaN
    counting as the largest, ties in index order."""
    order = _order(xp, x, d, False)
    if isinstance(k, int):
        return xp.take(order, xp.asarray([k]), axis=d)
    return xp.take_along_axis(order, k, axis=d)


def _greater(a: float, b: float) -> bool:
    """``a > b`` with NaN above every number, torch's ``gt_or_nan``."""
    return (a != a and b == b) or a > b


def _quickselect(row: list, k: int) -> int:
    """The index of the ``k``-th smallest (0-based) of ``row``, found by torch's CPU
    quickselect (Sedgewick's, from TH): among equal values it picks the one torch picks."""
    values, order = list(row), list(range(len(row)))

    def swap(i: int, j: int) -> None:
        values[i], values[j] = values[j], values[i]
        order[i], order[j] = order[j], order[i]

    left, right = 0, len(values) - 1
    while right > left + 1:
        swap((left + right) >> 1, left + 1)  # median of three for the pivot
        for i, j in ((left + 1, right), (left, right), (left + 1, left)):
            if _greater(values[i], values[j]):
                swap(i, j)
        i, j, pivot = left + 1, right, values[left]
        while True:
            i += 1
            while _greater(pivot, values[i]):
                i += 1
            j -= 1
            while _greater(values[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(left, j)
        if j <= k:
            left = i
        if j >= k:
            right = j - 1
    if right == left + 1 and _greater(values[left], values[right]):
        swap(left, right)
    return order[k]


def _kth_positions(xp: Any, x: Any, d: int, k: int) -> Any:
    """Positions (size 1 along ``d``) of each row's ``k``-th smallest, as torch picks them.
    torch's selection is sequential, so it runs row by row on the host."""
    rows = to_numpy(xp.moveaxis(x, d, -1))
    picked = [_quickselect(row, k) for row in rows.reshape(-1, rows.shape[-1]).tolist()]
    shape = (*rows.shape[:-1], 1)
    return xp.moveaxis(xp.reshape(xp.asarray(picked, dtype=xp.int64), shape), -1, d)


def _no_bool_kernel(kernel: str, input: Tensor, empty_passes: bool = False) -> None:
    """torch has no CPU kernel of the selections for bool tensors (``empty_passes``: none is
    dispatched for an empty input)."""
    if input.dtype.name == "bool" and not (empty_passes and input.numel() == 0):
        raise _args.not_implemented(kernel, "Bool")


def kthvalue(input: Tensor, k: int, dim: int = -1, keepdim: bool = False) -> Any:
    """The ``k``-th smallest value along ``dim`` (1-based) and its index.

    >>> minitorch.tensor([3., 1., 2.]).kthvalue(2)
    torch.return_types.kthvalue(
    values=tensor(2.),
    indices=tensor(2))
    """
    # the parser reads every type (k, dim, keepdim), then the values, before dim's range
    _, k, dim, keepdim = _args.parsed("kthvalue", ("tensor", input, "input", 1),
                                      ("int", k, "k", 2), ("int", dim, "dim", 3),
                                      ("bool", keepdim, "keepdim", 4))
    d, x = _rows("kthvalue", input, dim)
    _nonempty("kthvalue", x, d)
    if not 1 <= k <= x.shape[d]:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    if input.dim():  # (torch copies a 0-d input out before it looks for a kernel)
        _no_bool_kernel("kthvalue_cpu", input)
    positions = _kth_positions(input._xp, x, d, k - 1)
    return return_types.kthvalue(*Kthvalue.apply(input, positions=positions, dim=d,
                                                 keepdim=keepdim))


def _median_dim(input: Tensor, dim: Any, keepdim: bool, skip_nan: bool) -> Any:
    fn = "nanmedian" if skip_nan else "median"
    # the parser reads dim's type, then keepdim's, before either value
    _, keepdim = _args.parsed(fn, ("int", dim, "dim", 2), ("bool", keepdim, "keepdim", 3))
    d, x = _rows(fn, input, dim)
    _nonempty("median", x, d)  # nanmedian's message names median too
    _no_bool_kernel("median_out", input)
    xp = input._xp
    if not input.dtype.is_floating_point:
        positions = _nth(xp, x, d, (x.shape[d] - 1) // 2)
    elif skip_nan:
        count = xp.sum(~xp.isnan(x), axis=d, keepdims=True)
        positions = _nth(xp, x, d, xp.maximum(count - 1, 0) // 2)
    else:
        nan = xp.isnan(x)
        first_nan = xp.argmax(nan, axis=d, keepdims=True)
        positions = xp.where(xp.any(nan, axis=d, keepdims=True), first_nan,
                             _nth(xp, x, d, (x.shape[d] - 1) // 2))
    op, result = (NanmedianDim, return_types.nanmedian) if skip_nan else \
        (MedianDim, return_types.median)
    return result(*op.apply(input, positions=positions, dim=d, keepdim=keepdim))


# torch's overloads of median and nanmedian (function form; its Dimname ones never listed)
MEDIAN_SIGNATURES = ("Tensor input", "Tensor input, int dim, bool keepdim = False, *, "
                     "tuple of Tensors out = None")


@_call_form.overloads(*MEDIAN_SIGNATURES)
@_call_form.parser_types(dim="int")
def median(input: Tensor, dim: Any = _args.OMITTED, keepdim: Any = _args.OMITTED) -> Any:
    """The lower median of all elements, or along ``dim`` with its index (NaN if the row
    has NaN).

    >>> minitorch.tensor([[1., 4.], [3., 2.]]).median(1).values
    tensor([1., 2.])
    """
    if dim is _args.OMITTED:
        _args.tensor_args("median", (input, "input", 1))
        if keepdim is not _args.OMITTED:  # torch's overload without dim takes no keepdim
            _args.missing("median", (dim, "dim"))
        _no_bool_kernel("median_cpu", input, empty_passes=True)
        return Median.apply(input, skip_nan=False)
    return _median_dim(input, dim, keepdim is not _args.OMITTED and keepdim,
                       skip_nan=False)


@_call_form.overloads(*MEDIAN_SIGNATURES)
@_call_form.parser_types(dim="int")
def nanmedian(input: Tensor, dim: Any = _args.OMITTED, keepdim: Any = _args.OMITTED) -> Any:
    """``median`` ignoring NaN (NaN only where a row holds nothing else).

    >>> minitorch.tensor([1., float('nan'), 3., 2.]).nanmedian()
    tensor(2.)
    """
    if dim is _args.OMITTED:
        _args.tensor_args("nanmedian", (input, "input", 1))
        if keepdim is not _args.OMITTED:  # torch's overload without dim takes no keepdim
            _args.missing("nanmedian", (dim, "dim"))
        _no_bool_kernel("median_cpu", input, empty_passes=True)
        return Nanmedian.apply(input, skip_nan=True)
    return _median_dim(input, dim, keepdim is not _args.OMITTED and keepdim,
                       skip_nan=True)


def _mode_positions(xp: Any, x: Any, d: int) -> Any:
    """Positions (size 1 along ``d``) of each row's mode as torch's CPU kernel finds it: the
    last of the longest run of equal values in the row's ``std::sort`` order (a NaN, equal
    to nothing, is a run of its own), the first such run on ties."""
    rows = to_numpy(xp.moveaxis(x, d, -1))
    picked = [_mode_position(row) for row in rows.reshape(-1, rows.shape[-1]).tolist()]
    shape = (*rows.shape[:-1], 1)
    return xp.moveaxis(xp.reshape(xp.asarray(picked, dtype=xp.int64), shape), -1, d)


def _mode_position(row: list) -> int:
    order = std_sort_order(row)
    best, run, where = 0, 0, 0
    for k, i in enumerate(order):
        run += 1
        if k == len(order) - 1 or row[i] != row[order[k + 1]]:
            if run > best:
                best, where = run, i
            run = 0
    return where


def mode(input: Tensor, dim: int = -1, keepdim: bool = False) -> Any:
    """The most frequent value along ``dim`` (the smallest of equally frequent ones) and an
    index where it occurs (the one torch's sort of the row puts last among them).

    >>> minitorch.tensor([2, 1, 2, 1, 3]).mode()
    torch.return_types.mode(
    values=tensor(1),
    indices=tensor(3))
    """
    # the parser reads dim's type, then keepdim's, before either value
    _, keepdim = _args.parsed("mode", ("int", dim, "dim", 2), ("bool", keepdim, "keepdim", 3))
    d, x = _rows("mode", input, dim)
    _nonempty("mode", x, d)
    positions = _mode_positions(input._xp, x, d)
    return return_types.mode(*Mode.apply(input, positions=positions, dim=d,
                                         keepdim=keepdim))


def msort(input: Tensor) -> Tensor:
    """``input`` sorted along its first dim (the values of ``sort(input, 0)``).

    >>> minitorch.msort(minitorch.tensor([[3., 1.], [2., 4.]]))
    tensor([[2., 1.],
            [3., 4.]])
    """
    _args.tensor_args("msort", (input, "input", 1))
    return sort(input, 0).values
