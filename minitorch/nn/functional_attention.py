"""``scaled_dot_product_attention`` as torch's math path composes it: query and key each scaled
by the square root of the scale, their product masked (``is_causal`` or ``attn_mask``), a
``_safe_softmax`` (fully masked rows give 0), optional dropout, and the product with value.
``minitorch.nn.functional`` re-exports it.

>>> import minitorch
>>> from minitorch.nn import functional as F
>>> q = minitorch.ones(2, 4, requires_grad=True)
>>> F.scaled_dot_product_attention(q, q, q).grad_fn.name()
'MmBackward0'
"""

from __future__ import annotations

import math

from .. import _creation
from .._dtype import bool as bool_
from .._tensor import Tensor
from ..ops.linalg import matmul
from ..ops.nn_ops import SafeSoftmax
from ..ops.pointwise import MulScalar, where

__all__ = ["scaled_dot_product_attention"]


def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor,
                                 attn_mask: Tensor | None = None, dropout_p: float = 0.0,
                                 is_causal: bool = False, scale: float | None = None,
                                 enable_gqa: bool = False) -> Tensor:
    """``softmax(query @ key.T * scale + mask) @ value``, ``scale`` 1/sqrt(E) by default; a
    bool mask keeps where True, a float mask is added.

    >>> F.scaled_dot_product_attention(minitorch.ones(1, 2), minitorch.ones(3, 2),
    ...                                minitorch.arange(3.).reshape(3, 1))
    tensor([[1.]])
    """
    if enable_gqa and query.shape[-3:-2] != key.shape[-3:-2]:
        raise NotImplementedError("minitorch's scaled_dot_product_attention does not support "
                                  "grouped-query attention (enable_gqa with fewer key heads)")
    negative = scale is not None and scale < 0.0
    softmax_scale = 1.0 / math.sqrt(query.shape[-1]) if scale is None else abs(scale)
    factor = math.sqrt(softmax_scale)
    query = MulScalar.apply(query, -factor if negative else factor)
    if is_causal:
        if attn_mask is not None:
            raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not "
                               "be set when is_causal=True")
        length, source = query.shape[-2], key.shape[-2]
        attn_mask = _creation.ones(length, source, dtype=bool_).tril()
    if attn_mask is not None and attn_mask.dtype is bool_:  # True keeps, False gives -inf
        attn_mask = where(~attn_mask, -math.inf,
                          _creation.tensor(0.0, dtype=query.dtype))
    attn = matmul(query, MulScalar.apply(key.transpose(-2, -1), factor))
    if attn_mask is not None:
        attn = attn + attn_mask
    attn = SafeSoftmax.apply(attn, dim=attn.dim() - 1)
    if dropout_p > 0.0:
        from .functional import dropout
        attn = dropout(attn, dropout_p, True)
    return matmul(attn, value)
