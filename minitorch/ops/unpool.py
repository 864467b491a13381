"""``max_unpool2d``/``3d``: the inverse of ``max_pool2d``/``3d(return_indices=True)``: each
value put back at its flat index in a plane (volume) of zeros (``MaxUnpool2DBackward0``,
``MaxUnpool3DBackward0``; the gradient reads it back).

>>> import minitorch
>>> from minitorch.nn import functional as F
>>> v, i = F.max_pool2d(minitorch.arange(4.).reshape(1, 1, 2, 2), 2, return_indices=True)
>>> F.max_unpool2d(v, i, 2)
tensor([[[[0., 0.],
          [0., 3.]]]])
"""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from ..backend import setitem
from ._base import Op, wrap

__all__ = ["MaxUnpool2D", "MaxUnpool3D"]


def _planes(xp: Any, array: Any, lead: tuple) -> Any:
    """The array as one row per plane (volume) of its last dims after ``lead``."""
    return xp.reshape(array, (_count(lead), _count(array.shape[len(lead):])))  # -1: 0 planes


def _count(sizes: tuple) -> int:
    n = 1
    for s in sizes:
        n *= s
    return n


class MaxUnpool2D(Op):
    node_name = "MaxUnpool2DBackward0"
    _profile_name = "aten::max_unpool2d"

    @staticmethod
    def forward(ctx: Any, a: Tensor, indices: Tensor, *, size: tuple) -> Tensor:
        xp, volume = a._xp, _count(size)
        lead = tuple(a.shape[:-len(size)])
        index = _planes(xp, indices._data, lead)
        bad = (index < 0) | (index >= volume)
        if volume and bool(xp.any(bad)):  # torch reads no index into empty planes
            flat = xp.reshape(bad, (-1,))  # torch names the last one it met
            last = flat.shape[0] - 1 - int(xp.argmax(xp.astype(xp.flip(flat), xp.int8)))
            raise RuntimeError(f"Found an invalid max index: "
                               f"{int(xp.reshape(index, (-1,))[last])} (output volumes are of "
                               f"size {'x'.join(map(str, size))})")
        ctx.save_for_backward(wrap(index))
        ctx.shape, ctx.volume, ctx.lead = a._data.shape, volume, lead
        out = xp.zeros((_count(lead), volume), dtype=a._data.dtype)
        if volume:
            rows = xp.reshape(xp.arange(index.shape[0]), (-1, 1))
            setitem(xp, out, (rows, index), _planes(xp, a._data, lead))
        return wrap(xp.reshape(out, (*lead, *size)))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (index,) = ctx.saved_tensors  # a gather, recorded: the gradient differentiates again
        planes = g.reshape(*ctx.lead, ctx.volume)  # (torch's: over the last dim of its lead)
        return planes.gather(-1, index.reshape(*ctx.lead, -1)).reshape(ctx.shape), None


class MaxUnpool3D(MaxUnpool2D):
    node_name = "MaxUnpool3DBackward0"
    _profile_name = "aten::max_unpool3d"
