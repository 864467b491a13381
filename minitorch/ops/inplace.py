"""The ops behind ``fill_``, ``copy_`` and ``x[key] = value``.

They compute the new value out of place; ``Tensor._inplace`` writes it into the tensor's
memory, bumps its version and, when recorded, makes the node the tensor's ``grad_fn``.

>>> import minitorch
>>> y = minitorch.ones(3, requires_grad=True) * 1
>>> y[0] = 5.
>>> y.grad_fn.name()
'torch::autograd::CopySlices'
"""

from __future__ import annotations

from typing import Any

from .._creation import zeros_like
from .._tensor import Tensor, internal_overlap_error, sum_to
from ..backend import setitem, to_device
from ._base import Op, array_of, check_indices, save_indices, wrap


class Fill(Op):
    node_name = "FillBackward2"
    fills = True  # one value for every element: no check of overlapping ones before it
    _profile_name = "aten::fill_"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, value: Any) -> Tensor:
        xp = a._xp
        return wrap(xp.full(a._data.shape, array_of(value), dtype=a._data.dtype))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (zeros_like(g),)  # (no nan from g * 0)


class FillNumber(Fill):
    """``fill``: ``fill_`` out of place."""

    node_name = "FillBackward0"
    _profile_name = "aten::fill"


class Zero(Fill):
    node_name = "ZeroBackward0"
    _profile_name = "aten::zero_"


class ConjPhysical_(Op):
    """``conj_physical_`` of a real tensor: its values kept, written in place as torch's kernel
    writes them (a new version); the gradient passes through."""

    node_name = "ConjPhysicalBackward1"
    _profile_name = "aten::conj_physical_"
    fills = True  # each element its own value again: torch checks no overlap

    @staticmethod
    def forward(ctx: Any, a: Tensor) -> Tensor:
        return wrap(a._xp.asarray(a._data, copy=True))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (g,)


class Copy(Op):
    node_name = "CopyBackwards"
    _profile_name = "aten::copy_"
    records_integer_writes = False

    @staticmethod
    def forward(ctx: Any, a: Tensor, src: Tensor) -> Tensor:
        ctx.src_meta = (src.shape, src.dtype, _device_if_other(src, a))
        xp = a._xp
        data = xp.broadcast_to(xp.astype(_array_on(src, a), a._data.dtype), a._data.shape)
        return wrap(xp.asarray(data, copy=True))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        shape, dtype, device = ctx.src_meta
        return zeros_like(g), sum_to(g, shape).to(device, dtype)  # (no nan from g * 0)


class FillTensor(Copy):
    """``fill`` by a 0-d tensor: ``fill_`` out of place; the value gets the gradient's sum."""

    node_name = "FillBackward1"
    _profile_name = "aten::fill"
    records_integer_writes = True


class FillTensor_(Copy):
    """``fill_`` by a 0-d tensor: the value gets the gradient's sum, the filled tensor none."""

    node_name = "FillBackward3"
    _profile_name = "aten::fill_"
    records_integer_writes = True


def _device_if_other(src: Tensor, dst: Tensor) -> Any:
    """``src``'s device when ``copy_`` moves values across devices (as torch allows), else
    None."""
    return src.device if type(src._data) is not type(dst._data) else None


def _array_on(value: Any, dst: Tensor) -> Any:
    """The array of ``value`` on ``dst``'s device (a Python scalar stays as it is)."""
    if not isinstance(value, Tensor):
        return value
    if type(value._data) is type(dst._data):
        return value._data
    return to_device(value._data, dst.device)


class CopySlices(Op):
    """``a[key] = value``: the gradient skips the overwritten part of ``a``."""

    node_name = "CopySlices"
    _profile_name = "aten::index_put_"

    @staticmethod
    def forward(ctx: Any, a: Tensor, value: Any, *, key: Any, overlapping: bool = False,
                indices: tuple = ()) -> Tensor:
        ctx.key, ctx.overlapping = key, overlapping
        save_indices(ctx, *indices)
        ctx.value_meta = ((value.shape, value.dtype, _device_if_other(value, a))
                          if isinstance(value, Tensor) else None)
        xp = a._xp
        out = xp.asarray(a._data, copy=True)
        setitem(xp, out, key, _array_on(value, a))
        return wrap(out)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        check_indices(ctx)
        if ctx.overlapping:  # torch writes the view's gradient into an expanded view of g's
            raise internal_overlap_error()
        written = wrap(g._xp.zeros(g._data.shape, dtype=g._xp.bool))
        setitem(g._xp, written._data, ctx.key, True)
        grad_value = None
        if ctx.value_meta is not None:
            shape, dtype, device = ctx.value_meta
            from .shape import Index

            grad_value = sum_to(Index.apply(g, key=ctx.key), shape).to(device, dtype)
        return g.masked_fill(written, 0), grad_value  # (zeros, as torch's: no nan from g * 0)


def _written_into_self(name: str, node: str, profile: str, doc: str) -> type:
    """CopySlices' gradients under the node torch records where ``a[key] = value`` writes
    into ``a`` itself, not into a view of it."""
    return type(name, (CopySlices,), {"node_name": node, "_profile_name": profile,
                                      "__doc__": doc, "__module__": __name__})


IndexPut = _written_into_self("IndexPut", "IndexPutBackward0", "aten::index_put_",
                              "``a[indices] = value`` (torch's index_put_).")
CopyInto = _written_into_self("CopyInto", "CopyBackwards", "aten::copy_",
                              "``a[...] = value`` of a value with dims (torch's copy_).")
FillInto = _written_into_self("FillInto", "FillBackward3", "aten::fill_",
                              "``a[...] = value`` of a number or 0-d tensor (torch's fill_).")
