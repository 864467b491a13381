"""``LayerNorm``: normalise each sample over its last dims, then scale and shift it;
``GroupNorm``: the same over each group of a sample's channels; ``RMSNorm``: scale each
sample by its root mean square over its last dims; ``LocalResponseNorm``: divide each value
by a power of the mean square of its neighbouring channels.

>>> import minitorch
>>> from minitorch import nn
>>> nn.LayerNorm(4)
LayerNorm((4,), eps=1e-05, elementwise_affine=True, bias=True)
"""

from __future__ import annotations

import numbers
from typing import Any

from .. import _args, _creation
from .._tensor import Tensor
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter

__all__ = ["GroupNorm", "LayerNorm", "LocalResponseNorm", "RMSNorm"]


def _affine_parameters(module: Module, shape: Any, affine: bool, bias: bool, device: Any,
                       dtype: Any) -> None:
    """A normalisation's learnable ``weight`` and ``bias`` of ``shape`` (each registered as
    None where absent), set to ones and zeros."""
    weight = Parameter(_creation.empty(shape, device=device, dtype=dtype)) if affine else None
    module.register_parameter("weight", weight)
    module.register_parameter("bias", Parameter(_creation.empty(
        shape, device=device, dtype=dtype)) if affine and bias else None)
    module.reset_parameters()


def _reset_affine(module: Module) -> None:
    if module.weight is not None:
        init.ones_(module.weight)
    if module.bias is not None:
        init.zeros_(module.bias)



def _shape_tuple(normalized_shape: Any) -> tuple:
    """torch's Python reading of a norm module's ``normalized_shape``: an Integral as a
    one-tuple, anything else through ``tuple()`` (its TypeError for no iterable); the values
    are read where they are used (torch.empty of the weight, then the function)."""
    if isinstance(normalized_shape, numbers.Integral):
        return (normalized_shape,)
    if _args.as_int(normalized_shape) is None and not hasattr(normalized_shape, "__iter__"):
        raise TypeError(f"'{_args.type_name(normalized_shape)}' object is not iterable")
    return tuple(normalized_shape)

class LayerNorm(Module):
    """``F.layer_norm`` over the last dims ``normalized_shape``, with a learnable weight
    (ones) and bias (zeros) of that shape unless ``elementwise_affine=False``.

    >>> ln = nn.LayerNorm([2, 3], bias=False)
    >>> ln(minitorch.ones(4, 2, 3)).grad_fn.name(), ln.bias
    ('NativeLayerNormBackward0', None)
    """

    def __init__(self, normalized_shape: Any, eps: float = 1e-5,
                 elementwise_affine: bool = True, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.normalized_shape = _shape_tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        _affine_parameters(self, self.normalized_shape, elementwise_affine, bias, device, dtype)

    def reset_parameters(self) -> None:
        """Weight back to ones, bias to zeros."""
        _reset_affine(self)

    def forward(self, input: Tensor) -> Tensor:
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}")


class RMSNorm(Module):
    """``F.rms_norm`` over the last dims ``normalized_shape``, with a learnable weight (ones)
    of that shape unless ``elementwise_affine=False``; ``eps=None`` is the machine epsilon.

    >>> nn.RMSNorm([2, 3])
    RMSNorm((2, 3), eps=None, elementwise_affine=True)
    """

    def __init__(self, normalized_shape: Any, eps: float | None = None,
                 elementwise_affine: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.normalized_shape = _shape_tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(_creation.empty(self.normalized_shape, device=device,
                                                    dtype=dtype))
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Weight back to ones."""
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, x: Tensor) -> Tensor:
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}")


class GroupNorm(Module):
    """``F.group_norm`` of ``num_channels`` channels in ``num_groups`` groups, with a
    learnable per-channel weight (ones) and bias (zeros) unless ``affine=False``.

    >>> nn.GroupNorm(2, 4)
    GroupNorm(2, 4, eps=1e-05, affine=True, bias=True)
    """

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5,
                 affine: bool = True, device: Any = None, dtype: Any = None, *,
                 bias: bool = True) -> None:
        super().__init__()
        if _args.python_op(num_channels, "%", num_groups) != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups "
                             f"({num_groups})")
        self.num_groups, self.num_channels = num_groups, num_channels
        self.eps, self.affine = eps, affine
        _affine_parameters(self, num_channels, affine, bias, device, dtype)

    def reset_parameters(self) -> None:
        """Weight back to ones, bias to zeros."""
        _reset_affine(self)

    def forward(self, input: Tensor) -> Tensor:
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, "
                f"affine={self.affine}, bias={self.bias is not None}")


class LocalResponseNorm(Module):
    """``F.local_response_norm`` over windows of ``size`` channels; no parameters.

    >>> nn.LocalResponseNorm(2)
    LocalResponseNorm(2, alpha=0.0001, beta=0.75, k=1.0)
    """

    __constants__ = ["size", "alpha", "beta", "k"]

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75,
                 k: float = 1.0) -> None:
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input: Tensor) -> Tensor:
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
