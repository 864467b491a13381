"""Folding an eval-mode BatchNorm into the convolution or linear layer before it: the norm
is ``(z - mean) / sqrt(var + eps) * w + b``, an affine map per channel, so it merges into
the layer's weight (scaled per output channel) and bias.

>>> import minitorch
>>> from minitorch import nn
>>> conv, bn = nn.Conv2d(1, 2, 1).eval(), nn.BatchNorm2d(2).eval()
>>> x = minitorch.randn(1, 1, 3, 3)
>>> bool(minitorch.allclose(fuse_conv_bn_eval(conv, bn)(x), bn(conv(x)), atol=1e-6))
True
"""

from __future__ import annotations

import copy
from typing import Any

import minitorch

from ..._tensor import Tensor
from ..parameter import Parameter

__all__ = ["fuse_conv_bn_eval", "fuse_conv_bn_weights", "fuse_linear_bn_eval",
           "fuse_linear_bn_weights"]


def _check_eval(layer: Any, bn: Any) -> None:
    if layer.training or bn.training:
        raise AssertionError("Fusion only for eval!")


def _check_running_stats(bn: Any) -> None:
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("bn.running_mean and bn.running_var must not be None")


def fuse_conv_bn_eval(conv: Any, bn: Any, transpose: bool = False) -> Any:
    """A new convolution computing ``bn(conv(x))`` (both in eval mode); with ``transpose``,
    for a transposed convolution, whose output channels are its weight's dim 1.

    >>> from minitorch import nn
    >>> fuse_conv_bn_eval(nn.Conv1d(2, 3, 1).eval(), nn.BatchNorm1d(3).eval()).bias.shape
    torch.Size([3])
    """
    _check_eval(conv, bn)
    fused = copy.deepcopy(conv)
    _check_running_stats(bn)
    fused.weight, fused.bias = fuse_conv_bn_weights(
        fused.weight, fused.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias,
        transpose)
    return fused


def fuse_conv_bn_weights(conv_w: Tensor, conv_b: Tensor | None, bn_rm: Tensor, bn_rv: Tensor,
                         bn_eps: float, bn_w: Tensor | None, bn_b: Tensor | None,
                         transpose: bool = False) -> tuple[Parameter, Parameter]:
    """The fused convolution's ``(weight, bias)``, each in its dtype before (a missing bias
    or affine parameter reads as zeros or ones).

    >>> w, b = fuse_conv_bn_weights(minitorch.ones(2, 1, 1), None, minitorch.zeros(2),
    ...                             minitorch.ones(2), 0., None, None)
    >>> w.flatten().tolist(), b.tolist(), b.requires_grad
    ([1.0, 1.0], [0.0, 0.0], False)
    """
    weight_dtype = conv_w.dtype  # (torch reads the weight's dtype first)
    bias_dtype = conv_b.dtype if conv_b is not None else weight_dtype
    conv_b, bn_w, bn_b = _defaults(conv_b, bn_w, bn_b, bn_rm)
    scale = minitorch.rsqrt(bn_rv + bn_eps)
    channels = [1, -1] if transpose else [-1, 1]
    weight = (conv_w * (bn_w * scale).reshape(channels + [1] * (len(conv_w.shape) - 2))).to(
        dtype=weight_dtype)
    bias = ((conv_b - bn_rm) * scale * bn_w + bn_b).to(dtype=bias_dtype)
    return Parameter(weight, conv_w.requires_grad), Parameter(bias, conv_b.requires_grad)


def fuse_linear_bn_eval(linear: Any, bn: Any) -> Any:
    """A new linear layer computing ``bn(linear(x))`` (both in eval mode); the norm's
    features must be the layer's outputs, or one.

    >>> from minitorch import nn
    >>> fuse_linear_bn_eval(nn.Linear(2, 3).eval(), nn.BatchNorm1d(3).eval()).weight.shape
    torch.Size([3, 2])
    """
    _check_eval(linear, bn)
    fused = copy.deepcopy(linear)
    if linear.out_features != bn.num_features and bn.num_features != 1:
        raise AssertionError(
            "To fuse, linear.out_features == bn.num_features or bn.num_features == 1, got "
            f"linear.out_features={linear.out_features} and bn.num_features={bn.num_features}")
    _check_running_stats(bn)
    fused.weight, fused.bias = fuse_linear_bn_weights(
        fused.weight, fused.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias)
    return fused


def fuse_linear_bn_weights(linear_w: Tensor, linear_b: Tensor | None, bn_rm: Tensor,
                           bn_rv: Tensor, bn_eps: float, bn_w: Tensor, bn_b: Tensor
                           ) -> tuple[Parameter, Parameter]:
    """The fused linear layer's ``(weight, bias)``, each in its dtype before.

    >>> w, b = fuse_linear_bn_weights(minitorch.ones(2, 1), None, minitorch.zeros(2),
    ...                               minitorch.ones(2), 0., minitorch.ones(2), minitorch.ones(2))
    >>> b.tolist(), b.requires_grad
    ([1.0, 1.0], False)
    """
    weight_dtype = linear_w.dtype  # (torch reads the weight's dtype first)
    bias_dtype = linear_b.dtype if linear_b is not None else weight_dtype
    if linear_b is None:
        linear_b = minitorch.zeros_like(bn_rm)
    scale = bn_w * minitorch.rsqrt(bn_rv + bn_eps)
    weight = linear_w * scale.unsqueeze(-1).to(dtype=weight_dtype)
    bias = ((linear_b - bn_rm) * scale + bn_b).to(dtype=bias_dtype)
    return Parameter(weight, linear_w.requires_grad), Parameter(bias, linear_b.requires_grad)


def _defaults(conv_b: Tensor | None, bn_w: Tensor | None, bn_b: Tensor | None,
              like: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    """A missing bias or BatchNorm bias as zeros, a missing BatchNorm weight as ones (each
    made only when missing, as torch: ``like`` is read no sooner)."""
    return (minitorch.zeros_like(like) if conv_b is None else conv_b,
            minitorch.ones_like(like) if bn_w is None else bn_w,
            minitorch.zeros_like(like) if bn_b is None else bn_b)
