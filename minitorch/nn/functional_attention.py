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
from typing import Any

from .. import _args, _creation
from .._dtype import bool as bool_
from .._tensor import Tensor, broadcast_pair, broadcast_shapes, check_output_shape
from ..autograd import grad_mode
from ..ops import _flash_attention_order as flash_order
from ..ops._base import wrap
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
    _check_arguments(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa)
    _check_inputs(query, key, value, attn_mask)
    empty = value.numel() == 0 or 0 in (*query.shape[:-1], value.shape[-1])
    if empty and 0 in (query.shape[-2], key.shape[-2], *value.shape[-2:]):  # torch's shortcut
        return _empty_attention(query, key, value)  # (an empty batch takes its math path)
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set "
                           "when is_causal=True")
    if enable_gqa:
        heads = [t.shape[_args.wrap_dim(-3, t.dim())] for t in (query, key, value)]
        if heads[0] != heads[1]:
            raise NotImplementedError("minitorch's scaled_dot_product_attention does not support"
                                      " grouped-query attention (enable_gqa with fewer key heads)")
    if query.shape[-1] == key.shape[-1]:  # else the product's own refusal comes first
        _check_scores_shape(query, key, attn_mask)
    if empty:
        if value.numel():  # the math path's product of the scores by the value comes first
            broadcast_shapes(broadcast_shapes(query.shape[:-2], key.shape[:-2]),
                             value.shape[:-2])
        return _empty_attention(query, key, value)
    if dropout_p < 0.0 and query.dtype.is_floating_point and flash_order.takes_flash(
            (query.shape, key.shape, value.shape), tuple(t.stride()[-1] for t in (
                query, key, value)), None if attn_mask is None else attn_mask.dim()):
        raise RuntimeError("scaled_dot_product_attention_flash_attention: Currently do not "
                           "support dropout > 0")  # (its selector turns a positive one away)
    if dropout_p == 0.0 and not _records(query, key, value, attn_mask):
        fused = flash_order.fused(query._data, key._data, value._data,
                                  None if attn_mask is None else attn_mask._data, is_causal,
                                  scale)
        if fused is not None:  # torch's CPU flash kernel, in its order of rounding
            return wrap(fused)
    half = query.dtype.name == "float16"  # torch's math path works in float32, then rounds
    if half:
        query, key, value = query.float(), key.float(), value.float()
    negative = scale is not None and scale < 0.0
    width = query.shape[-1]  # torch's double arithmetic: an empty width scales by inf
    softmax_scale = (1.0 / math.sqrt(width) if width else math.inf) if scale is None else \
        abs(scale)
    factor = math.sqrt(softmax_scale)
    query = MulScalar.apply(query, -factor if negative else factor)
    if is_causal:
        length, source = query.shape[-2], key.shape[-2]
        attn_mask = _creation.ones(length, source, dtype=bool_).tril()
    if attn_mask is not None and attn_mask.dtype is bool_:  # True keeps, False gives -inf
        attn_mask = where(~attn_mask, -math.inf,
                          _creation.tensor(0.0, dtype=query.dtype))
    attn = matmul(query, MulScalar.apply(key.transpose(-2, -1), factor))
    if attn_mask is not None:  # torch's attn.add_(attn_mask): a float mask of a half query
        attn = attn.add_(attn_mask)  # is added in the scores' dtype
    attn = SafeSoftmax.apply(attn, dim=attn.dim() - 1)
    if dropout_p > 0.0:  # torch's C++ dropout: its range check is a RuntimeError
        from .functional import _dropout
        attn = _dropout(attn, dropout_p, True)
    out = matmul(attn, value)
    return out.half() if half else out


def _records(*tensors: Tensor | None) -> bool:
    """Whether autograd records an op of these tensors (the fused path records none)."""
    return grad_mode._state.grad_enabled and any(
        t is not None and t.requires_grad for t in tensors)


def _check_arguments(query: Any, key: Any, value: Any, attn_mask: Any, dropout_p: Any,
                     is_causal: Any, scale: Any, enable_gqa: Any) -> None:
    """The arguments' types, as torch's parser checks them, in its order."""
    fn = "scaled_dot_product_attention"
    _args.tensor_args(fn, (query, "query", 1), (key, "key", 2), (value, "value", 3))
    if attn_mask is not None:
        _args.tensor_args(fn, (attn_mask, "attn_mask", None))
    _args.real(fn, dropout_p, "dropout_p")
    _args.flag(fn, is_causal, "is_causal")
    if scale is not None:
        _args.real(fn, scale, "scale")
    _args.flag(fn, enable_gqa, "enable_gqa")


def _check_inputs(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None) -> None:
    """torch's ``validate_sdpa_input``: one dtype, matrices (at least 2-D), and a mask that is
    bool, float or of the query's dtype."""
    if not query.dtype is key.dtype is value.dtype:
        raise RuntimeError("Expected query, key, and value to have the same dtype, but got "
                           f"query.dtype: {_args.c_name(query.dtype)} key.dtype: "
                           f"{_args.c_name(key.dtype)} and value.dtype: "
                           f"{_args.c_name(value.dtype)} instead.")
    if min(query.dim(), key.dim(), value.dim()) < 2:
        raise RuntimeError("Expected query, key, and value to all be  at least 2 dimensional, "
                           f"but got query.dim: {query.dim()} key.dim: {key.dim()} and "
                           f"value.dim: {value.dim()} instead.")
    if attn_mask is not None and attn_mask.dtype.name not in ("bool", "float32",
                                                              query.dtype.name):
        raise RuntimeError("Expected attn_mask dtype to be bool or float or to match query "
                           f"dtype, but got attn_mask.dtype: {_args.c_name(attn_mask.dtype)} "
                           f"and  query.dtype: {_args.c_name(query.dtype)} instead.")


def _check_scores_shape(query: Tensor, key: Tensor, attn_mask: Tensor | None) -> None:
    """torch's refusals of the scores ``query @ key.T``: batches that do not broadcast, and a
    mask that does not fit them (torch adds it in place)."""
    scores = (*broadcast_pair(tuple(query.shape[:-2]), tuple(key.shape[:-2])),
              query.shape[-2], key.shape[-2])
    if attn_mask is not None:
        check_output_shape(scores, broadcast_pair(scores, tuple(attn_mask.shape)))


def _empty_attention(query: Tensor, key: Tensor, value: Tensor) -> Tensor:
    """torch's answer when the value or the output is empty (measured: an empty key alone, or
    an empty query width, take the math path): zeros of the output's shape, tied to the
    graph of all three (``zeros + (q.sum() + k.sum() + v.sum()) * 0``)."""
    zeros = _creation.zeros(*query.shape[:-1], value.shape[-1], dtype=query.dtype)
    return zeros + (query.sum() + key.sum() + value.sum()) * 0
