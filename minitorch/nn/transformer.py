"""The Transformer of "Attention Is All You Need" as torch builds it: encoder and decoder
layers (self-attention, cross-attention, a feed-forward block, each with dropout, a residual
and a LayerNorm, before or after), stacks of deep copies of a layer, and ``Transformer``.

minitorch always runs torch's reference path (torch's fused inference "fast path" computes
the same function).

>>> import minitorch
>>> from minitorch import nn
>>> layer = nn.TransformerEncoderLayer(d_model=4, nhead=2, dim_feedforward=8)
>>> layer(minitorch.zeros(3, 1, 4)).shape
torch.Size([3, 1, 4])
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable
from typing import Any

from .. import _creation
from .._tensor import Tensor
from . import functional as F
from .activation import GELU, ReLU
from .attention import MultiheadAttention, _float_mask
from .container import ModuleList
from .dropout import Dropout
from .init import xavier_uniform_
from .linear import Linear
from .module import Module
from .normalization import LayerNorm

__all__ = ["Transformer", "TransformerDecoder", "TransformerDecoderLayer", "TransformerEncoder",
           "TransformerEncoderLayer"]


def _square_subsequent_mask(sz: int, device: Any = None, dtype: Any = None) -> Tensor:
    return _creation.full((sz, sz), float("-inf"), dtype=dtype, device=device).triu(1)


def _activation(activation: str | Callable[[Tensor], Tensor]) -> Callable[[Tensor], Tensor]:
    if not isinstance(activation, str):
        return activation
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    raise RuntimeError(f"activation should be relu/gelu, not {activation}")


def _canonical(mask: Tensor | None, name: str, other: Tensor | None, other_name: str,
               dtype: Any) -> Tensor | None:
    """torch's ``F._canonical_mask`` with its check against the other mask's type."""
    if mask is not None and other is not None and mask.dtype is not other.dtype:
        warnings.warn(f"Support for mismatched {name} and {other_name} is deprecated. Use "
                      "same type for both instead.", stacklevel=4)
    return _float_mask(mask, name, dtype)


def _seq_len(src: Tensor, batch_first: bool) -> int:
    return src.shape[0] if src.dim() == 2 else src.shape[1 if batch_first else 0]


def _detect_is_causal(mask: Tensor | None, is_causal: bool | None, size: int | None) -> bool:
    """torch's ``_detect_is_causal_mask``: the hint, or whether ``mask`` is the causal one."""
    if is_causal is not None or mask is None:
        return is_causal is True
    causal = _square_subsequent_mask(size if size is not None else mask.shape[-2],
                                     mask.device, mask.dtype)
    return mask.shape == causal.shape and bool((mask == causal).all())


def _clones(module: Module, n: int) -> ModuleList:
    return ModuleList([copy.deepcopy(module) for _ in range(n)])


class _Layer(Module):
    """What both layers share: their construction (``attentions`` names the attention
    modules, made first, as torch's order of draws), the feed-forward block and the
    residual wiring."""

    attentions: tuple = ()

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation: str | Callable[[Tensor], Tensor] = F.relu,
                 layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        kwargs = {"device": device, "dtype": dtype}
        for name in self.attentions:
            setattr(self, name, MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                                   batch_first=batch_first, **kwargs))
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **kwargs)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **kwargs)
        self.norm_first = norm_first
        blocks = range(1, len(self.attentions) + 2)
        for i in blocks:
            setattr(self, f"norm{i}", LayerNorm(d_model, eps=layer_norm_eps, bias=bias,
                                                **kwargs))
        for i in blocks:
            setattr(self, f"dropout{i}", Dropout(dropout))
        self.activation = _activation(activation)

    def _residual(self, x: Tensor, blocks: list) -> Tensor:
        """Each ``(norm, block)``: ``x + block(norm(x))`` with ``norm_first``, else
        ``norm(x + block(x))``."""
        for norm, block in blocks:
            x = x + block(norm(x)) if self.norm_first else norm(x + block(x))
        return x

    def _ff_block(self, x: Tensor, dropout: Dropout) -> Tensor:
        return dropout(self.linear2(self.dropout(self.activation(self.linear1(x)))))

    def _attention(self, attn: MultiheadAttention, dropout: Dropout, x: Tensor, mem: Tensor,
                   mask: Tensor | None, padding: Tensor | None, is_causal: bool) -> Tensor:
        out = attn(x, mem, mem, attn_mask=mask, key_padding_mask=padding,
                   need_weights=False, is_causal=is_causal)[0]
        return dropout(out)


class TransformerEncoderLayer(_Layer):
    """Self-attention then a feed-forward block, each with dropout, a residual and a
    LayerNorm (after, or before with ``norm_first``). Inputs are (S, N, E), (N, S, E) with
    ``batch_first``, or (S, E).

    >>> nn.TransformerEncoderLayer(4, 2, 8, activation="gelu").linear1
    Linear(in_features=4, out_features=8, bias=True)
    """

    attentions = ("self_attn",)

    @property
    def activation_relu_or_gelu(self) -> int:
        """torch's flag for its fused path: 1 for relu, 2 for gelu, else 0."""
        act = self.activation
        return 1 if act is F.relu or isinstance(act, ReLU) else \
            2 if act is F.gelu or isinstance(act, GELU) else 0

    def forward(self, src: Tensor, src_mask: Tensor | None = None,
                src_key_padding_mask: Tensor | None = None, is_causal: bool = False) -> Tensor:
        padding = _canonical(src_key_padding_mask, "src_key_padding_mask", src_mask,
                             "src_mask", src.dtype)
        mask = _float_mask(src_mask, "src_mask", src.dtype)
        return self._residual(src, [
            (self.norm1, lambda x: self._attention(self.self_attn, self.dropout1, x, x, mask,
                                                   padding, is_causal)),
            (self.norm2, lambda x: self._ff_block(x, self.dropout2))])


class TransformerDecoderLayer(_Layer):
    """Self-attention over the target, attention to the encoder's ``memory``, then a
    feed-forward block; each with dropout, a residual and a LayerNorm.

    >>> layer = nn.TransformerDecoderLayer(4, 2, 8)
    >>> layer(minitorch.zeros(2, 1, 4), minitorch.zeros(3, 1, 4)).shape
    torch.Size([2, 1, 4])
    """

    attentions = ("self_attn", "multihead_attn")

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask: Tensor | None = None,
                memory_mask: Tensor | None = None, tgt_key_padding_mask: Tensor | None = None,
                memory_key_padding_mask: Tensor | None = None, tgt_is_causal: bool = False,
                memory_is_causal: bool = False) -> Tensor:
        return self._residual(tgt, [
            (self.norm1, lambda x: self._attention(self.self_attn, self.dropout1, x, x,
                                                   tgt_mask, tgt_key_padding_mask,
                                                   tgt_is_causal)),
            (self.norm2, lambda x: self._attention(self.multihead_attn, self.dropout2, x,
                                                   memory, memory_mask,
                                                   memory_key_padding_mask, memory_is_causal)),
            (self.norm3, lambda x: self._ff_block(x, self.dropout3))])


def _nested_tensor_obstacle(layer: Any) -> str:
    """Why torch's encoder cannot use nested tensors with ``layer`` ("" when it can)."""
    name = "encoder_layer"
    if not isinstance(layer, TransformerEncoderLayer):
        return f"{name} was not TransformerEncoderLayer"
    attn = layer.self_attn
    checks = [(layer.norm_first, f"{name}.norm_first was True"),
              (not attn.batch_first, f"{name}.self_attn.batch_first was not True(use "
               "batch_first for better inference performance)"),
              (not attn._qkv_same_embed_dim, f"{name}.self_attn._qkv_same_embed_dim was not "
               "True"),
              (attn.in_proj_bias is None, f"{name}.self_attn was passed bias=False"),
              (not layer.activation_relu_or_gelu, f"{name}.activation_relu_or_gelu was not "
               "True"),
              (layer.norm1.eps != layer.norm2.eps, f"{name}.norm1.eps was not equal to "
               f"{name}.norm2.eps"),
              (attn.num_heads % 2 == 1, f"{name}.self_attn.num_heads is odd")]
    return next((why for failed, why in checks if failed), "")


class TransformerEncoder(Module):
    """``num_layers`` deep copies of ``encoder_layer`` in a row, then ``norm`` if given.

    >>> import warnings
    >>> with warnings.catch_warnings(action="ignore"):
    ...     enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8), num_layers=2)
    >>> len(enc.layers)
    2
    """

    def __init__(self, encoder_layer: TransformerEncoderLayer, num_layers: int,
                 norm: Module | None = None, enable_nested_tensor: bool = True,
                 mask_check: bool = True) -> None:
        super().__init__()
        self.layers = _clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        why = _nested_tensor_obstacle(encoder_layer)
        if enable_nested_tensor and why:
            warnings.warn("enable_nested_tensor is True, but self.use_nested_tensor is False "
                          f"because {why}", stacklevel=2)
            self.use_nested_tensor = False

    def forward(self, src: Tensor, mask: Tensor | None = None,
                src_key_padding_mask: Tensor | None = None,
                is_causal: bool | None = None) -> Tensor:
        padding = _canonical(src_key_padding_mask, "src_key_padding_mask", mask, "mask",
                             src.dtype)
        mask = _float_mask(mask, "mask", src.dtype)
        first = self.layers[0]
        is_causal = _detect_is_causal(mask, is_causal,
                                      _seq_len(src, first.self_attn.batch_first))
        output = src
        for layer in self.layers:
            output = layer(output, src_mask=mask, is_causal=is_causal,
                           src_key_padding_mask=padding)
        return output if self.norm is None else self.norm(output)


class TransformerDecoder(Module):
    """``num_layers`` deep copies of ``decoder_layer``, each attending to ``memory``, then
    ``norm`` if given.

    >>> len(nn.TransformerDecoder(nn.TransformerDecoderLayer(4, 2, 8), num_layers=3).layers)
    3
    """

    def __init__(self, decoder_layer: TransformerDecoderLayer, num_layers: int,
                 norm: Module | None = None) -> None:
        super().__init__()
        self.layers = _clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask: Tensor | None = None,
                memory_mask: Tensor | None = None, tgt_key_padding_mask: Tensor | None = None,
                memory_key_padding_mask: Tensor | None = None,
                tgt_is_causal: bool | None = None, memory_is_causal: bool = False) -> Tensor:
        tgt_is_causal = _detect_is_causal(
            tgt_mask, tgt_is_causal, _seq_len(tgt, self.layers[0].self_attn.batch_first))
        output = tgt
        for layer in self.layers:
            output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                           tgt_key_padding_mask=tgt_key_padding_mask,
                           memory_key_padding_mask=memory_key_padding_mask,
                           tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)
        return output if self.norm is None else self.norm(output)


class Transformer(Module):
    """An encoder stack and a decoder stack (each with a final LayerNorm), every matrix
    parameter re-initialised by ``xavier_uniform_`` in ``parameters()`` order, as torch.

    >>> import warnings
    >>> with warnings.catch_warnings(action="ignore"):
    ...     model = nn.Transformer(8, 2, 1, 1, dim_feedforward=16)
    >>> model(minitorch.zeros(3, 1, 8), minitorch.zeros(2, 1, 8)).shape
    torch.Size([2, 1, 8])
    """

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6,
                 num_decoder_layers: int = 6, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation: str | Callable[[Tensor], Tensor] = F.relu,
                 custom_encoder: Any = None, custom_decoder: Any = None,
                 layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        kwargs = {"device": device, "dtype": dtype}
        layer_args = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                      batch_first, norm_first, bias)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(*layer_args, **kwargs)
            norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kwargs)
            self.encoder = TransformerEncoder(layer, num_encoder_layers, norm)
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(*layer_args, **kwargs)
            norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kwargs)
            self.decoder = TransformerDecoder(layer, num_decoder_layers, norm)
        for p in self.parameters():
            if p.dim() > 1:
                xavier_uniform_(p)
        self.d_model, self.nhead, self.batch_first = d_model, nhead, batch_first

    def forward(self, src: Tensor, tgt: Tensor, src_mask: Tensor | None = None,
                tgt_mask: Tensor | None = None, memory_mask: Tensor | None = None,
                src_key_padding_mask: Tensor | None = None,
                tgt_key_padding_mask: Tensor | None = None,
                memory_key_padding_mask: Tensor | None = None,
                src_is_causal: bool | None = None, tgt_is_causal: bool | None = None,
                memory_is_causal: bool = False) -> Tensor:
        batch = 0 if self.batch_first else 1
        if src.dim() == 3 and src.shape[batch] != tgt.shape[batch]:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask,
                              is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask,
                            tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)

    @staticmethod
    def generate_square_subsequent_mask(sz: int, device: Any = None,
                                        dtype: Any = None) -> Tensor:
        """The causal mask: ``-inf`` above the diagonal, 0 elsewhere.

        >>> nn.Transformer.generate_square_subsequent_mask(2)
        tensor([[0., -inf],
                [0., 0.]])
        """
        return _square_subsequent_mask(sz, device, dtype)
