"""``LayerNorm``: normalise each sample over its last dims, then scale and shift it.

>>> import minitorch
>>> from minitorch import nn
>>> nn.LayerNorm(4)
LayerNorm((4,), eps=1e-05, elementwise_affine=True, bias=True)
"""

from __future__ import annotations

from typing import Any

from .. import _args, _creation
from .._tensor import Tensor
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter

__all__ = ["LayerNorm", "RMSNorm"]


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
        if not isinstance(normalized_shape, int) and _args.as_int(normalized_shape) is None \
                and not hasattr(normalized_shape, "__iter__"):
            # torch's Python takes tuple(normalized_shape) of anything but an int
            raise TypeError(f"'{type(normalized_shape).__name__}' object is not iterable")
        self.normalized_shape = _args.int_list("LayerNorm", normalized_shape,
                                               "normalized_shape", 1)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(_creation.empty(self.normalized_shape, device=device,
                                                    dtype=dtype))
            if bias:
                self.bias = Parameter(_creation.empty(self.normalized_shape, device=device,
                                                      dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Weight back to ones, bias to zeros."""
        if self.elementwise_affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

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
        if isinstance(normalized_shape, int):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
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
