"""``a * b + c`` rounded once where torch's compiled kernels fuse the product into the sum:
for compositions that stand for one of those kernels (``grid_sample``'s), so their values are
the kernel's bit for bit. Tensors of one floating dtype; ``b`` and ``c`` broadcast to ``a``.

>>> import minitorch
>>> MultiplyAdd.apply(minitorch.tensor([0.8], dtype=minitorch.float64),
...                   minitorch.tensor(-0.8, dtype=minitorch.float64),
...                   minitorch.tensor(1.0, dtype=minitorch.float64))
tensor([0.3600], dtype=torch.float64)
"""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from . import _fused
from ._base import Op, wrap
from .pointwise import _meta, _reduce

__all__ = ["MultiplyAdd"]


class MultiplyAdd(Op):
    """The fused ``a * b + c``; its gradients are ``g * b``, ``g * a`` and ``g``."""

    node_name = "MultiplyAddBackward"  # minitorch's: in torch it is inside a kernel's node

    @staticmethod
    def forward(ctx: Any, a: Tensor, b: Tensor, c: Tensor) -> Tensor:
        ctx.metas = tuple(_meta(t) for t in (a, b, c))
        ctx.save_for_backward(a, b)
        return wrap(_fused.multiply_add(a._xp, a._data, b._data, c._data))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        a, b = ctx.saved_tensors
        meta_a, meta_b, meta_c = ctx.metas
        return _reduce(g * b, meta_a), _reduce(g * a, meta_b), _reduce(g, meta_c)
