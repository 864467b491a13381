"""``as_strided``: a view of a tensor's storage with any sizes, strides (in elements) and
storage offset, as torch's: element ``i`` of dim ``k`` lies ``i * stride[k]`` elements after
``storage_offset`` in the memory of the tensor the input was taken from (its *storage*).
Writes through the view reach every tensor sharing that memory.

Its gradient (``AsStridedBackward0``) is torch's ``as_strided_backward``: the output's
gradient added up per storage element (elements the view shows twice add up), then read back
in the input's own geometry, shared evenly where the input shows one storage element more
than once.

>>> import minitorch
>>> x = minitorch.arange(6.)
>>> x.as_strided((2, 2), (1, 2))
tensor([[0., 2.],
        [1., 3.]])
>>> x.storage_offset(), x[2:].storage_offset()
(0, 2)
"""

from __future__ import annotations

from typing import Any

from .. import _args, _call_form, backend
from .._storage import storage_elements, storage_root
from .._tensor import Tensor, check_inplace_allowed
from ._base import Op, wrap
from .inplace_more import IndexAdd
from .inplace_views import reshape_in_place
from .shape import Index

__all__ = ["METHODS", "AsStrided", "AsStridedInplace", "as_strided", "as_strided_"]


def _storage(t: Tensor) -> Any:
    """The 1-d view of the memory ``t`` lives in, as ``t``'s dtype (:func:`storage_elements`),
    or minitorch's refusal where numpy cannot show that memory as one array."""
    flat = storage_elements(t)
    if flat is None:
        raise RuntimeError("minitorch cannot take an as_strided view here: the tensor's memory "
                           "is not one dense block that this array library can re-stride "
                           "(numpy and CuPy can, for a tensor that owns its memory or a view "
                           "of one); clone() it first.")
    return flat


def _positions(xp: Any, sizes: tuple, strides: tuple, offset: int) -> Any:
    """The storage position of every element of the geometry, as an array of ``sizes``."""
    out = xp.full(sizes, offset, dtype=xp.int64)
    for d, (n, stride) in enumerate(zip(sizes, strides)):
        shape = [1] * len(sizes)
        shape[d] = n
        out = out + xp.reshape(xp.arange(n, dtype=xp.int64) * stride, tuple(shape))
    return out


class AsStrided(Op):
    node_name = "AsStridedBackward0"
    _profile_name = "aten::as_strided"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, sizes: tuple, strides: tuple, offset: int) -> Tensor:
        ctx.geometry = (sizes, strides, offset)
        ctx.input_geometry = (tuple(a.shape), tuple(a.stride()), a.storage_offset())
        return a._view(backend.strided_view(_storage(a), offset, sizes, strides))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        xp = g._xp
        shown = _positions(xp, *ctx.geometry)
        inside = _positions(xp, *ctx.input_geometry)
        size = 1 + max(int(xp.max(p)) if p.size else -1 for p in (shown, inside))
        storage = wrap(xp.zeros((size,), dtype=g._data.dtype))
        storage = IndexAdd.apply(storage, g.reshape(-1), key=(xp.reshape(shown, (-1,)),),
                                 alpha=1)
        grad = Index.apply(storage, key=(inside,))
        counts = xp.zeros((size,), dtype=g._data.dtype)
        backend.index_add(xp, counts, (xp.reshape(inside, (-1,)),),
                          xp.ones((inside.size,), dtype=g._data.dtype))
        shared = counts[inside]
        return (grad / wrap(shared) if bool(xp.any(shared > 1)) else grad,)


@_call_form.parser_types(size="int[]", stride="int[]")
def as_strided(input: Tensor, size: Any, stride: Any, storage_offset: Any = None) -> Tensor:
    """A view of ``input``'s storage with the given sizes, strides (in elements) and
    storage offset (by default ``input``'s own).

    >>> minitorch.as_strided(minitorch.arange(4.), (3, 2), (1, 1))
    tensor([[0., 1.],
            [1., 2.],
            [2., 3.]])
    """
    return AsStrided.apply(input, **_geometry("as_strided", input, size, stride,
                                              storage_offset))


@_call_form.parser_types(size="int[]", stride="int[]")
def as_strided_(input: Tensor, size: Any, stride: Any, storage_offset: Any = None) -> Tensor:
    """In-place :func:`as_strided`: ``input`` becomes that view of its own storage.

    >>> minitorch.arange(4.).as_strided_((2,), (2,), 1)
    tensor([1., 3.])
    """
    geometry = _geometry("as_strided_", input, size, stride, storage_offset)
    if storage_root(input) is input:  # its memory, kept whole under the new view
        input._memory = input._sharing(input._data)
    return reshape_in_place(input, AsStridedInplace, **geometry)


class AsStridedInplace(AsStrided):
    """``as_strided_``'s node: ``as_strided``'s backward under torch's in-place name."""

    node_name = "AsStridedBackward1"
    _profile_name = "aten::as_strided_"


def _geometry(fn: str, input: Tensor, size: Any, stride: Any, storage_offset: Any) -> dict:
    """``as_strided``'s sizes, strides and offset, read and checked as torch does (the
    in-place form checks the leaf first, and counts the elements before the storage)."""
    _args.tensor_args(fn, (input, "input", 1))
    sizes = _args.int_tuple(fn, size, "size", 2)
    strides = _args.int_tuple(fn, stride, "stride", 3)
    offset = input.storage_offset() if storage_offset is None else \
        _args.integer(fn, storage_offset, "storage_offset", 4)
    inplace = fn.endswith("_")
    if inplace:
        check_inplace_allowed(input)
    if len(sizes) != len(strides):
        raise RuntimeError("mismatch in length of strides and shape")
    if not inplace and any(n < -(2 ** 62) for n in sizes + strides):  # beyond a SymInt
        raise RuntimeError("/__w/pytorch/pytorch/build/aten/src/ATen/RegisterCPU_0.cpp:1754: "
                           "SymIntArrayRef expected to contain only concrete integers")
    if any(s < 0 for s in strides):
        raise RuntimeError("as_strided: Negative strides are not supported at the moment, got "
                           f"strides: {list(strides)}")
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    if inplace:  # torch counts the elements first
        _args.check_numel(sizes)
    item = input.element_size()
    need = _storage_bytes(sizes, strides, offset, item)
    if need is None:
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(sizes)} and "
                           f"strides={list(strides)}")
    flat = _storage(input)
    if need > flat.shape[0] * item:
        raise RuntimeError(f"setStorage: sizes {list(sizes)}, strides {list(strides)}, storage "
                           f"offset {offset}, and itemsize {item} requiring a storage size of "
                           f"{need} are out of bounds for storage of size "
                           f"{flat.shape[0] * item}")
    _args.check_numel(sizes)  # (torch counts the elements last)
    if any(n < 0 for n in sizes):
        raise RuntimeError(f"minitorch cannot make a view with a negative size ({list(sizes)});"
                           " torch makes an empty one")
    _args.check_holdable(sizes, item)
    return {"sizes": sizes, "strides": strides, "offset": offset}


_U64 = 1 << 64


def _storage_bytes(sizes: tuple, strides: tuple, offset: int, item: int) -> int | None:
    """The bytes of storage a view needs, in torch's unsigned 64-bit arithmetic (a negative
    size wraps around, so it may fit); None where that overflows or passes int64.

    >>> _storage_bytes((2, 3), (3, 1), 1, 4), _storage_bytes((-1,), (0,), 0, 4)
    (28, 4)
    >>> _storage_bytes((-1,), (1,), 0, 4) is None
    True
    """
    if 0 in sizes:
        return 0
    total, over = 1, False
    for n, s in zip(sizes, strides):
        step = (s % _U64) * ((n - 1) % _U64)
        total += step % _U64
        over |= step >= _U64 or total >= _U64
        total %= _U64
    need = total * item + (offset % _U64) * item
    return None if over or need > _args.INT64_MAX else need  # (torch's storage_max())


METHODS = {"as_strided": as_strided, "as_strided_": as_strided_}
