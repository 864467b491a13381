"""``MultiheadAttention``: torch's multi-head attention layer, composed from existing ops in
the order of torch's ``F.multi_head_attention_forward`` (its ``need_weights`` path reads
the weights with ``bmm`` and ``softmax``; without weights it calls
``scaled_dot_product_attention``).

>>> import minitorch
>>> from minitorch import nn
>>> mha = nn.MultiheadAttention(8, 2, batch_first=True)
>>> out, weights = mha(minitorch.ones(3, 5, 8), minitorch.ones(3, 4, 8), minitorch.ones(3, 4, 8))
>>> out.shape, weights.shape
(torch.Size([3, 5, 8]), torch.Size([3, 5, 4]))
"""

from __future__ import annotations

import math
import warnings
from typing import Any

from .. import _args, _creation, _dtype
from .._tensor import Tensor
from ..ops import shape as shape_ops
from . import functional as F
from . import init
from .linear import Linear
from .module import Module
from .parameter import Parameter

__all__ = ["MultiheadAttention", "NonDynamicallyQuantizableLinear"]


class NonDynamicallyQuantizableLinear(Linear):
    """A ``Linear`` by another name: torch's ``out_proj`` of ``MultiheadAttention``.

    >>> NonDynamicallyQuantizableLinear(4, 4)
    NonDynamicallyQuantizableLinear(in_features=4, out_features=4, bias=True)
    """


class MultiheadAttention(Module):
    """Attention of ``num_heads`` heads of ``embed_dim // num_heads`` each: queries, keys and
    values projected by ``in_proj_weight`` (or ``q/k/v_proj_weight`` when ``kdim`` or
    ``vdim`` differ), attended per head, joined and projected by ``out_proj``. Inputs are
    (L, N, E), (N, L, E) with ``batch_first``, or unbatched (L, E); the forward returns the
    output and the attention weights (averaged over heads unless told otherwise), or None.

    >>> nn.MultiheadAttention(4, 2)
    MultiheadAttention(
      (out_proj): NonDynamicallyQuantizableLinear(in_features=4, out_features=4, bias=True)
    )
    """

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0,
                 bias: bool = True, add_bias_kv: bool = False, add_zero_attn: bool = False,
                 kdim: int | None = None, vdim: int | None = None, batch_first: bool = False,
                 device: Any = None, dtype: Any = None) -> None:
        if _args.python_op(embed_dim, "<=", 0) or _args.python_op(num_heads, "<=", 0):
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got "
                             f"embed_dim={embed_dim} and num_heads={num_heads} instead")
        super().__init__()
        self.embed_dim, self.num_heads = embed_dim, num_heads
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.dropout, self.batch_first = dropout, batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        self._projections(bias, device, dtype)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias,
                                                        device=device, dtype=dtype)
        if add_bias_kv:
            self.bias_k = Parameter(_creation.empty(1, 1, embed_dim, device=device, dtype=dtype))
            self.bias_v = Parameter(_creation.empty(1, 1, embed_dim, device=device, dtype=dtype))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _projections(self, bias: bool, device: Any, dtype: Any) -> None:
        """The in-projection's parameters, registered in torch's order."""
        def empty(*shape: int) -> Parameter:
            return Parameter(_creation.empty(shape, device=device, dtype=dtype))
        e = self.embed_dim
        names = ("q_proj_weight", "k_proj_weight", "v_proj_weight")
        if self._qkv_same_embed_dim:
            self.in_proj_weight = empty(3 * e, e)
            for name in names:
                self.register_parameter(name, None)
        else:
            self.q_proj_weight, self.k_proj_weight = empty(e, e), empty(e, self.kdim)
            self.v_proj_weight = empty(e, self.vdim)
            self.register_parameter("in_proj_weight", None)
        if bias:
            self.in_proj_bias = empty(3 * e)
        else:
            self.register_parameter("in_proj_bias", None)

    def _reset_parameters(self) -> None:
        """torch's start: xavier_uniform_ in-projections (after out_proj drew its own),
        zero biases, xavier_normal_ ``bias_k`` and ``bias_v``."""
        weights = ([self.in_proj_weight] if self._qkv_same_embed_dim else
                   [self.q_proj_weight, self.k_proj_weight, self.v_proj_weight])
        for weight in weights:
            init.xavier_uniform_(weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        for extra in (self.bias_k, self.bias_v):
            if extra is not None:
                init.xavier_normal_(extra)

    def forward(self, query: Tensor, key: Tensor, value: Tensor,
                key_padding_mask: Tensor | None = None, need_weights: bool = True,
                attn_mask: Tensor | None = None, average_attn_weights: bool = True,
                is_causal: bool = False) -> tuple[Tensor, Tensor | None]:
        if key_padding_mask is not None and attn_mask is not None \
                and key_padding_mask.dtype is not attn_mask.dtype:
            warnings.warn("Support for mismatched key_padding_mask and attn_mask is deprecated. "
                          "Use same type for both instead.", UserWarning, stacklevel=2)
        key_padding_mask = _float_mask(key_padding_mask, "key_padding_mask", query.dtype)
        attn_mask = _float_mask(attn_mask, "attn_mask", query.dtype)
        if self.batch_first and query.dim() == 3:  # torch keeps self-attention's identities
            query, key, value = _time_first(query, key, value)
        out, weights = _attend(self, query, key, value, key_padding_mask, attn_mask,
                               need_weights, average_attn_weights, is_causal)
        if self.batch_first and query.dim() == 3:
            return out.transpose(1, 0), weights
        return out, weights


def _time_first(query: Tensor, key: Tensor, value: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    """(N, L, E) to (L, N, E), one transpose for inputs that are the same tensor."""
    if key is value:
        if query is key:
            query = key = value = query.transpose(1, 0)
        else:
            query, key = query.transpose(1, 0), key.transpose(1, 0)
            value = key
    else:
        query, key, value = (x.transpose(1, 0) for x in (query, key, value))
    return query, key, value


def _attend(mha: MultiheadAttention, query: Tensor, key: Tensor, value: Tensor,
            key_padding_mask: Tensor | None, attn_mask: Tensor | None, need_weights: bool,
            average: bool, is_causal: bool = False) -> tuple[Tensor, Tensor | None]:
    """torch's ``multi_head_attention_forward`` on (L, N, E) inputs (or unbatched (L, E)) and
    floating masks; ``is_causal`` is a hint that ``attn_mask`` is causal, which torch trusts
    where the mask alone would be used (no weights, no key padding)."""
    batched = _shape_check(query, key, value, key_padding_mask, attn_mask, mha.num_heads)
    if not batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    heads, head_dim = mha.num_heads, mha.head_dim
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the "
                           "Transformer module method `generate_square_subsequent_mask` to "
                           "create this mask.")
    # torch trusts the hint where the mask would be used alone, without weights
    causal = is_causal and key_padding_mask is None and not need_weights
    attn_mask = None if causal else attn_mask
    if embed_dim != mha.embed_dim:
        raise AssertionError(f"was expecting embedding dimension of {mha.embed_dim}, but got "
                             f"{embed_dim}")
    if mha._qkv_same_embed_dim and key.shape != value.shape:
        raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")
    if not mha._qkv_same_embed_dim and key.shape[:2] != value.shape[:2]:
        raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match "
                             f"value's {value.shape[:2]}")
    q, k, v = _in_projection(mha, query, key, value)
    attn_mask = _three_d(attn_mask, bsz * heads, tgt_len, k.shape[0])
    if (mha.bias_k is None) != (mha.bias_v is None):
        raise AssertionError("bias_k is set but bias_v is None" if mha.bias_v is None else
                             "bias_v is set but bias_k is None")
    if mha.bias_k is not None:  # one more key and value, learnt, for every batch
        k = shape_ops.cat([k, mha.bias_k.repeat(1, bsz, 1)])
        v = shape_ops.cat([v, mha.bias_v.repeat(1, bsz, 1)])
        attn_mask, key_padding_mask = _one_more_key(attn_mask, key_padding_mask)
    q = q.view(tgt_len, bsz * heads, head_dim).transpose(0, 1)
    k = k.view(k.shape[0], bsz * heads, head_dim).transpose(0, 1)
    v = v.view(v.shape[0], bsz * heads, head_dim).transpose(0, 1)
    if mha.add_zero_attn:  # one more key and value, zeros
        zeros = _creation.zeros((bsz * heads, 1, head_dim), dtype=k.dtype, device=k.device)
        k, v = shape_ops.cat([k, zeros], dim=1), shape_ops.cat([v, zeros], dim=1)
        attn_mask, key_padding_mask = _one_more_key(attn_mask, key_padding_mask)
    src_len = k.shape[1]
    attn_mask = _with_padding(attn_mask, key_padding_mask, bsz, heads, src_len)
    dropout_p = mha.dropout if mha.training else 0.0
    if need_weights:
        scores = (q * math.sqrt(1.0 / float(head_dim))).bmm(k.transpose(-2, -1))
        if attn_mask is not None:  # torch's baddbmm(attn_mask, q, kᵀ)
            scores = attn_mask + scores
        weights = F.softmax(scores, dim=-1)
        if _args.python_op(dropout_p, ">", 0.0):
            weights = F.dropout(weights, p=dropout_p)
        out = weights.bmm(v)
        out = out.transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
    else:
        if attn_mask is not None:
            attn_mask = attn_mask.unsqueeze(0) if attn_mask.shape[0] == 1 else \
                attn_mask.view(bsz, heads, -1, src_len)
        out = F.scaled_dot_product_attention(
            q.view(bsz, heads, tgt_len, head_dim), k.view(bsz, heads, src_len, head_dim),
            v.view(bsz, heads, src_len, head_dim), attn_mask, dropout_p, is_causal=causal)
        out = out.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
        weights = None
    out = F.linear(out, mha.out_proj.weight, mha.out_proj.bias)
    out = out.view(tgt_len, bsz, out.shape[1])
    if weights is not None:
        weights = weights.view(bsz, heads, tgt_len, src_len)
        if average:
            weights = weights.mean(dim=1)
    if not batched:
        out = out.squeeze(1)
        weights = None if weights is None else weights.squeeze(0)
    return out, weights


def _shape_check(query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Tensor | None,
                 attn_mask: Tensor | None, heads: int) -> bool:
    """torch's ``_mha_shape_check``: whether the inputs are batched, their ranks checked."""
    kind = {3: "batched (3-D)", 2: "unbatched (2-D)"}.get(query.dim())
    if kind is None:
        raise AssertionError("query should be unbatched 2D or batched 3D tensor but received "
                             f"{query.dim()}-D query tensor")
    rank = query.dim()
    if key.dim() != rank or value.dim() != rank:
        raise AssertionError(f"For {kind} `query`, expected `key` and `value` to be {rank}-D "
                             f"but found {key.dim()}-D and {value.dim()}-D tensors respectively")
    if key_padding_mask is not None and key_padding_mask.dim() != rank - 1:
        raise AssertionError(f"For {kind} `query`, expected `key_padding_mask` to be `None` or "
                             f"{rank - 1}-D but found {key_padding_mask.dim()}-D tensor instead")
    if attn_mask is not None:
        if attn_mask.dim() not in (2, 3):
            raise AssertionError(f"For {kind} `query`, expected `attn_mask` to be `None`, 2-D "
                                 f"or 3-D but found {attn_mask.dim()}-D tensor instead")
        expected = (heads, query.shape[0], key.shape[0])
        if rank == 2 and attn_mask.dim() == 3 and tuple(attn_mask.shape) != expected:
            raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got "
                                 f"{attn_mask.shape}")
    return rank == 3


def _float_mask(mask: Tensor | None, name: str, dtype: Any) -> Tensor | None:
    """torch's ``_canonical_mask``: a boolean mask as 0 / -inf of ``dtype``."""
    if mask is None or mask.is_floating_point():
        return mask
    if mask.dtype is not _dtype.bool:
        raise AssertionError(f"only bool and floating types of {name} are supported")
    return _creation.zeros_like(mask, dtype=dtype).masked_fill_(mask, float("-inf"))


def _in_projection(mha: MultiheadAttention, query: Tensor, key: Tensor,
                   value: Tensor) -> tuple[Tensor, ...]:
    """q, k, v as torch projects them: packed weights in one linear for self-attention, one
    for the query and one for key and value when those are the same tensor, else one per
    input; separate weights (``kdim``/``vdim``) after torch's checks of their shapes."""
    w, b = mha.in_proj_weight, mha.in_proj_bias
    biases = (None, None, None) if b is None else b.chunk(3)
    if not mha._qkv_same_embed_dim:
        weights = (mha.q_proj_weight, mha.k_proj_weight, mha.v_proj_weight)
        _check_projection(query, key, value, weights, biases)
        return tuple(F.linear(x, wx, bx) for x, wx, bx in zip((query, key, value), weights,
                                                              biases))
    e = query.shape[-1]
    if key is not value:
        return tuple(F.linear(x, wx, bx) for x, wx, bx in zip((query, key, value), w.chunk(3),
                                                              biases))
    if query is key:
        return _unpacked(F.linear(query, w, b), 3, e)
    w_q, w_kv = w.split([e, 2 * e])
    b_q, b_kv = (None, None) if b is None else b.split([e, 2 * e])
    return (F.linear(query, w_q, b_q), *_unpacked(F.linear(key, w_kv, b_kv), 2, e))


def _unpacked(proj: Tensor, count: int, e: int) -> tuple[Tensor, ...]:
    """``count`` projections packed along the last dim, each its own contiguous tensor."""
    proj = proj.unflatten(-1, (count, e)).unsqueeze(0).transpose(0, -2).squeeze(-2) \
        .contiguous()
    return tuple(proj[i] for i in range(count))


def _check_projection(query: Tensor, key: Tensor, value: Tensor, weights: tuple,
                      biases: tuple) -> None:
    """torch's ``_in_projection`` checks: each weight maps its input's width to the query's,
    each bias has the query's width."""
    eq = query.shape[-1]
    names = ("query", "key", "value")
    for name, weight, x in zip(names, weights, (query, key, value)):
        if weight.shape != (eq, x.shape[-1]):
            raise AssertionError(f"expecting {name} weights shape of {(eq, x.shape[-1])}, but "
                                 f"got {weight.shape}")
    for name, bias in zip(names, biases):
        if bias is not None and bias.shape != (eq,):
            raise AssertionError(f"expecting {name} bias shape of {(eq,)}, but got "
                                 f"{bias.shape}")


def _three_d(attn_mask: Tensor | None, batches: int, tgt_len: int,
              src_len: int) -> Tensor | None:
    """The attention mask as (1 or N*heads, L, S), its shape checked as torch does."""
    if attn_mask is None:
        return None
    want = (tgt_len, src_len) if attn_mask.dim() == 2 else (batches, tgt_len, src_len)
    if attn_mask.dim() not in (2, 3):
        raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")
    if tuple(attn_mask.shape) != want:
        raise RuntimeError(f"The shape of the {attn_mask.dim()}D attn_mask is "
                           f"{attn_mask.shape}, but should be {want}.")
    return attn_mask.unsqueeze(0) if attn_mask.dim() == 2 else attn_mask


def _one_more_key(attn_mask: Tensor | None,
                  key_padding_mask: Tensor | None) -> tuple[Tensor | None, Tensor | None]:
    """Both masks widened by one key that nothing masks (``add_bias_kv``, ``add_zero_attn``)."""
    return tuple(None if mask is None else F.pad(mask, (0, 1))
                 for mask in (attn_mask, key_padding_mask))


def _with_padding(attn_mask: Tensor | None, key_padding_mask: Tensor | None, bsz: int,
                  heads: int, src_len: int) -> Tensor | None:
    """The attention mask with the key padding mask (N, S) added to each head's rows."""
    if key_padding_mask is None:
        return attn_mask
    for dim, want in enumerate((bsz, src_len)):  # torch's _check_key_padding_mask
        if key_padding_mask.shape[dim] != want:
            raise AssertionError(f"Expected key_padded_mask.shape[{dim}] to be {want}, but "
                                 f"got {key_padding_mask.shape[dim]}")
    padding = key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, heads, -1, -1) \
        .reshape(bsz * heads, 1, src_len)
    return padding if attn_mask is None else attn_mask + padding
