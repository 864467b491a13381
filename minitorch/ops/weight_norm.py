"""torch's fused ``_weight_norm_interface``: ``w = v * (g / ||v||)``, the norm over every dim
but ``dim`` (the first or the last), in one node ``WeightNormInterfaceBackward0`` that keeps
``v``, ``g`` and the norms. On CPU, torch's kernel sums the squares of a row (``dim`` 0) in
AVX2 lanes, and those of a column (the last dim) row after row, each square fused into its
add, one run of rows per thread, the threads' sums then added in turn.

>>> import minitorch
>>> v = minitorch.tensor([[3., 4.], [0., 2.]], requires_grad=True)
>>> weight_norm_interface(v, minitorch.tensor([[10.], [1.]]), 0)
tensor([[6., 8.],
        [0., 1.]], grad_fn=<WeightNormInterfaceBackward0>)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._tensor import Tensor
from ._base import Op, kept, wrap
from ._cascade_sum import _thread_ranges, get_num_threads
from ._fused import multiply_add
from ._softmax_order import lane_sum

__all__ = ["WeightNormInterface", "weight_norm_interface"]


class WeightNormInterface(Op):
    node_name = "WeightNormInterfaceBackward0"
    saved_values = {"dim": kept("dim")}
    saved_names = ("v", "g", "result1")
    _profile_name = "aten::_weight_norm_interface"

    @staticmethod
    def forward(ctx: Any, v: Tensor, g: Tensor, *, dim: int) -> Tensor:
        norm = _norms(v._xp, v._data, dim)
        ctx.dim = dim
        ctx.save_for_backward(v, g, wrap(norm))
        return wrap(v._data * (g._data / norm))

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        # torch's weight_norm backward: with a = g / norm and s = sum(grad * v) over the
        # norm's dims, grad_g = s / norm and grad_v = a * grad - (a * grad_g / norm) * v
        v, g, norm = ctx.saved_tensors
        dims = tuple(d for d in range(v.dim()) if d != ctx.dim)
        grad_g = (grad * v).sum(dims, keepdim=True) / norm
        a = g / norm
        return a * grad - (a * grad_g / norm) * v, grad_g

    @staticmethod
    def backward_arrays(ctx: Any, grad: Any) -> Any:
        v, g, norm = (t._data for t in ctx.saved_tensors)
        if not _ours(grad) or grad.dtype != v.dtype:
            return NotImplemented
        grad_g = _dot(grad, v, ctx.dim) / norm
        a = g / norm
        return multiply_add(np, -(a * grad_g / norm), v, a * grad), grad_g


def weight_norm_interface(v: Tensor, g: Tensor, dim: int) -> Tensor:
    """``v * (g / ||v||)``, the norm over every dim but ``dim`` (0 or the last), in torch's
    fused node (see the module's docstring)."""
    return WeightNormInterface.apply(v, g, dim=dim)


def _norms(xp: Any, v: Any, dim: int) -> Any:
    """The 2-norms of ``v`` over every dim but ``dim``, kept (torch's CPU order for float32
    and float64 numpy arrays)."""
    if _ours(v):
        return np.sqrt(_dot(v, v, dim))
    others = tuple(d for d in range(v.ndim) if d != dim)
    return xp.sqrt(xp.sum(v * v, axis=others, keepdims=True))


def _ours(a: Any) -> bool:
    return type(a) is np.ndarray and a.dtype.char in "fd" and a.size > 0


def _dot(x: np.ndarray, y: np.ndarray, dim: int) -> np.ndarray:
    """``sum(x * y)`` over every dim but ``dim`` (0 or the last), kept, as torch's kernels
    add: a row's products in AVX2 lanes; a column's fused in, row after row, one run of rows
    per thread, the runs' sums then added in turn."""
    kept_shape = tuple(n if d == dim else 1 for d, n in enumerate(x.shape))
    if dim == 0:
        rows, other = x.reshape(x.shape[0], -1), y.reshape(y.shape[0], -1)
        return lane_sum(rows * other, bits=256).reshape(kept_shape)
    rows, other = x.reshape(-1, x.shape[-1]), y.reshape(-1, y.shape[-1])
    total = np.zeros(x.shape[-1], x.dtype)
    for begin, end in _thread_ranges(rows.shape[0], 1, get_num_threads()):
        part = np.zeros(x.shape[-1], x.dtype)
        for a, b in zip(rows[begin:end], other[begin:end]):
            part = multiply_add(np, a, b, part)
        total = total + part
    return total.reshape(kept_shape)
