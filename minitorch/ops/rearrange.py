"""Moving elements without changing them: ``roll`` and ``rot90`` (each one node whose
backward is the same move undone: ``RollBackward0``, ``Rot90Backward0``), and torch's
compositions of existing moves: ``tile`` (a ``repeat``), ``ravel`` (a contiguous view),
``fliplr``/``flipud`` (a ``flip``), ``swapaxes``/``swapdims`` (a ``transpose``, also in
place) and ``narrow_copy`` (a narrowed copy, ``NarrowCopyBackward0``).

>>> import minitorch
>>> x = minitorch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
>>> x.roll(1, 0)
tensor([[3., 4.],
        [1., 2.]], grad_fn=<RollBackward0>)
>>> minitorch.rot90(x)
tensor([[2., 4.],
        [1., 3.]], grad_fn=<Rot90Backward0>)
"""

from __future__ import annotations

from typing import Any

from .. import _args, _call_form
from .._tensor import Tensor
from ..backend import c_order
from ._base import Op, c_ints, kept, wrap
from .inplace_views import transpose_
from .scan import flip
from .shape import SliceEmbed
from .split import repeat

__all__ = ["METHODS", "NarrowCopy", "Roll", "Rot90", "fliplr", "flipud", "narrow_copy",
           "ravel", "roll", "rot90", "swapaxes", "swapaxes_", "swapdims", "swapdims_", "tile"]


class Roll(Op):
    """Elements shifted by ``shifts`` along ``dims`` (of the flattened tensor when ``dims``
    is empty), wrapping around; its gradient is the opposite shift."""

    node_name = "RollBackward0"
    saved_values = {"dims": kept("dims"), "shifts": kept("shifts", c_ints)}
    _profile_name = "aten::roll"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, shifts: tuple, dims: tuple) -> Tensor:
        ctx.shifts, ctx.dims = shifts, dims
        xp = a._xp
        if not dims or not a.numel():  # the flattened tensor, shifted once (or nothing)
            return wrap(c_order(xp.roll(a._data, shift=shifts[0])))
        # torch's CPU roll allocates its result contiguous
        return wrap(c_order(xp.roll(a._data, shift=shifts, axis=dims)))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (Roll.apply(g, shifts=tuple(-s for s in ctx.shifts), dims=ctx.dims),)


@_call_form.parser_types(shifts="tuple of ints", dims="tuple of ints")
def roll(input: Tensor, shifts: Any, dims: Any = ()) -> Tensor:
    """``input`` with its elements shifted ``shifts`` places along ``dims``, those pushed
    past the end coming back at the start; with no ``dims``, along the flattened tensor.

    >>> minitorch.roll(minitorch.tensor([1, 2, 3, 4]), 1)
    tensor([4, 1, 2, 3])
    """
    _args.tensor_args("roll", (input, "input", 1))
    _args.int_list_types("roll", shifts, "shifts", 2)  # both types before either is unpacked
    if dims is not None:
        _args.int_list_types("roll", dims, "dims", 3)
    for value, symint in ((shifts, True), (dims, False)):  # then a lone int past int64, as
        _args.lone_int(value, symint)  # the parser unpacks it
    shifts = _args.sizes("roll", (shifts,), "shifts", check_negative=False, position=2,
                         symint=isinstance(shifts, (tuple, list)))  # (a SymInt[1]: a lone
    # tensor is read as an int, one in a list as a SymInt)
    dims = () if dims is None else _args.sizes("roll", (dims,), "dims", check_negative=False,
                                               position=3)
    if not shifts:
        raise RuntimeError("`shifts` required")
    if dims or len(shifts) != 1:
        if len(shifts) != len(dims):
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, "
                               f"dims:{len(dims)}")
        if input.numel():  # torch returns an empty input before reading dims' range
            dims = tuple(_args.wrap_dim(d, input.dim(), scalar=False) for d in dims)
    return Roll.apply(input, shifts=shifts, dims=dims)


class Rot90(Op):
    """A quarter turn ``k`` times in the plane of ``dims``, from the first towards the
    second; its gradient turns back. As torch's, a turn is a flip then a transpose of the
    flipped copy (so the result's strides are torch's)."""

    node_name = "Rot90Backward0"
    _profile_name = "aten::rot90"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, k: int, dims: tuple) -> Tensor:
        ctx.k, ctx.dims = k, dims
        xp, (d0, d1) = a._xp, dims
        k %= 4
        flipped = {0: (), 1: (d1,), 2: (d0, d1), 3: (d0,)}[k]
        out = xp.asarray(xp.flip(a._data, axis=flipped) if flipped else a._data, copy=True)
        if k % 2:
            order = list(range(a.dim()))
            order[d0], order[d1] = d1, d0
            out = xp.permute_dims(out, tuple(order))
        return wrap(out)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (Rot90.apply(g, k=-ctx.k, dims=ctx.dims),)


def rot90(input: Tensor, k: int = 1, dims: Any = (0, 1)) -> Tensor:
    """``input`` turned by 90 degrees ``k`` times in the plane of ``dims`` (from the first
    dim towards the second).

    >>> minitorch.rot90(minitorch.tensor([[1, 2], [3, 4]]))
    tensor([[2, 4],
            [1, 3]])
    """
    _args.tensor_args("rot90", (input, "input", 1))
    k, dims = _args.parsed("rot90", ("int", k, "k", 2), ("ints", dims, "dims", 3))
    ndim = input.dim()
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {ndim}")
    wrapped = tuple(_args.wrap_dim(d, ndim) for d in dims)  # ranges first, as torch's
    if dims[0] == dims[1] or abs(dims[0] - dims[1]) == ndim:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {dims[0]} "
                           f"and dim1 = {dims[1]}")
    return Rot90.apply(input, k=k, dims=wrapped)


def tile(input: Tensor, dims: Any) -> Tensor:
    """``input`` repeated ``dims[i]`` times along each dim; fewer ``dims`` than the tensor
    has dims repeat the last ones (torch's composition: a ``repeat``).

    >>> minitorch.tile(minitorch.tensor([[1, 2]]), (2,))
    tensor([[1, 2, 1, 2]])
    """
    _args.tensor_args("tile", (input, "input", 1))
    return _tiled(input, _args.int_tuple("tile", dims, "dims", 2, symint=True))


@_args.sizes_by_keyword("dims", "tile")
def _tile_method(self: Tensor, *dims: Any) -> Tensor:
    """``tile``: the method also takes the counts one by one (``x.tile(2, 2)``)."""
    return _tiled(self, _args.sizes("tile", dims, "dims", check_negative=False,
                                     symint=True))


def _tiled(input: Tensor, counts: tuple) -> Tensor:
    return repeat(input, (*(1,) * (input.dim() - len(counts)), *counts))  # () too (0-d)


def ravel(input: Tensor) -> Tensor:
    """The elements of ``input`` in one dim: a view when it is contiguous, else of a
    contiguous copy (torch's ``contiguous().view(-1)``).

    >>> minitorch.ravel(minitorch.tensor([[1, 2], [3, 4]]).t())
    tensor([1, 3, 2, 4])
    """
    _args.tensor_args("ravel", (input, "input", 1))
    return input.contiguous().view(-1)


def fliplr(input: Tensor) -> Tensor:
    """``input`` with the order of its columns (dim 1) reversed.

    >>> minitorch.fliplr(minitorch.tensor([[1, 2], [3, 4]]))
    tensor([[2, 1],
            [4, 3]])
    """
    return _flipped("fliplr", input, 1)


def flipud(input: Tensor) -> Tensor:
    """``input`` with the order of its rows (dim 0) reversed.

    >>> minitorch.flipud(minitorch.tensor([[1, 2], [3, 4]]))
    tensor([[3, 4],
            [1, 2]])
    """
    return _flipped("flipud", input, 0)


def _flipped(fn: str, input: Tensor, dim: int) -> Tensor:
    _args.tensor_args(fn, (input, "input", 1))
    if input.dim() <= dim:
        raise RuntimeError(f"Input must be >= {dim + 1}-d.")
    return flip(input, dim)


def swapaxes(input: Tensor, axis0: int, axis1: int) -> Tensor:
    """``input`` with dims ``axis0`` and ``axis1`` swapped: numpy's name for ``transpose``.

    >>> minitorch.zeros(2, 3).swapaxes(0, 1).shape
    torch.Size([3, 2])
    """
    return _swapped("swapaxes", input, (axis0, "axis0"), (axis1, "axis1"))


def swapdims(input: Tensor, dim0: int, dim1: int) -> Tensor:
    """``input`` with dims ``dim0`` and ``dim1`` swapped: another name for ``transpose``.

    >>> minitorch.zeros(2, 3).swapdims(0, 1).shape
    torch.Size([3, 2])
    """
    return _swapped("swapdims", input, (dim0, "dim0"), (dim1, "dim1"))


def swapaxes_(input: Tensor, axis0: int, axis1: int) -> Tensor:
    """In-place ``swapaxes``: ``transpose_``.

    >>> minitorch.zeros(2, 3).swapaxes_(0, 1).shape
    torch.Size([3, 2])
    """
    return _swapped("swapaxes_", input, (axis0, "axis0"), (axis1, "axis1"))


def swapdims_(input: Tensor, dim0: int, dim1: int) -> Tensor:
    """In-place ``swapdims``: ``transpose_``.

    >>> minitorch.zeros(2, 3).swapdims_(0, 1).shape
    torch.Size([3, 2])
    """
    return _swapped("swapdims_", input, (dim0, "dim0"), (dim1, "dim1"))


def _swapped(fn: str, input: Tensor, first: tuple, second: tuple) -> Tensor:
    """``transpose`` (``transpose_`` for a name ending in ``_``) under torch's other names."""
    _args.tensor_args(fn, (input, "input", 1))
    a, b = _args.integers(fn, (*first, 2), (*second, 3))
    return transpose_(input, a, b) if fn.endswith("_") else input.transpose(a, b)


class NarrowCopy(Op):
    """``narrow`` as a new tensor; its gradient is the slice's (``slice_backward``)."""

    node_name = "NarrowCopyBackward0"
    _profile_name = "aten::narrow_copy"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, key: tuple) -> Tensor:
        ctx.shape, ctx.key = a.shape, key
        return wrap(c_order(a._xp.asarray(a._data[key], copy=True)))  # (torch's: contiguous)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (SliceEmbed.apply(g, shape=ctx.shape, key=ctx.key),)


def narrow_copy(input: Tensor, dim: int, start: int, length: int) -> Tensor:
    """A copy of ``input.narrow(dim, start, length)``: the elements ``start`` to
    ``start + length`` of ``dim``.

    >>> minitorch.narrow_copy(minitorch.tensor([1, 2, 3]), 0, 1, 2)
    tensor([2, 3])
    """
    _args.tensor_args("narrow_copy", (input, "input", 1))
    dim, start, length = _args.integers("narrow_copy", (dim, "dim", 2), (start, "start", 3),
                                        (length, "length", 4))
    if input.dim() == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if dim >= input.dim():  # torch's kernel wraps only a negative dim; this is its check
        raise RuntimeError(_args.check_failed("dim < static_cast<int64_t>(self_sizes.size())"))
    d = _args.wrap_dim(dim, input.dim())
    size = input.shape[d]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], "
                         f"but got {start})")
    start += size if start < 0 else 0
    if start + length > size or length < 0:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size "
                           f"({size}).")
    return NarrowCopy.apply(input, key=(slice(None),) * d + (slice(start, start + length),))


METHODS = {"roll": roll, "rot90": rot90, "tile": _tile_method, "ravel": ravel, "fliplr": fliplr,
           "flipud": flipud, "swapaxes": swapaxes, "swapdims": swapdims,
           "swapaxes_": swapaxes_, "swapdims_": swapdims_, "narrow_copy": narrow_copy}
