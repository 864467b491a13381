"""``Linear`` (``y = x Wᵀ + b``), ``Bilinear`` (``y = x₁ᵀ W x₂ + b``) and ``Identity``;
``LazyLinear`` lives with the lazy modules.
>>> import minitorch
>>> from minitorch import nn
>>> nn.Linear(10, 5)
Linear(in_features=10, out_features=5, bias=True)
"""

from __future__ import annotations

import math
from typing import Any

from .. import _creation
from .._tensor import Tensor
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter

__all__ = ["Bilinear", "Identity", "Linear"]


class Identity(Module):
    """Returns its input unchanged (a placeholder layer); ignores its arguments.

    >>> x = minitorch.ones(2); nn.Identity()(x) is x
    True
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:
        return input


class Linear(Module):
    """``y = x @ weight.T + bias`` with ``weight`` of shape (out_features, in_features).

    Weight and bias start uniform in ±1/sqrt(in_features), as torch's defaults.

    >>> fc = nn.Linear(3, 2)
    >>> fc.weight.shape, fc(minitorch.ones(4, 3)).grad_fn.name()
    (torch.Size([2, 3]), 'AddmmBackward0')
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(_creation.empty((out_features, in_features), device=device,
                                                dtype=dtype))
        if bias:
            self.bias = Parameter(_creation.empty(out_features, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw fresh weights: kaiming_uniform_(a=sqrt(5)), bias in ±1/sqrt(in_features)."""
        init._reset_layer(self.weight, self.bias)

    def forward(self, input: Tensor) -> Tensor:
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class Bilinear(Module):
    """``y = x1ᵀ W x2 + b`` per output feature, ``weight`` of shape
    (out_features, in1_features, in2_features); all uniform in ±1/sqrt(in1_features).

    >>> nn.Bilinear(20, 30, 40)
    Bilinear(in1_features=20, in2_features=30, out_features=40, bias=True)
    """

    def __init__(self, in1_features: int, in2_features: int, out_features: int,
                 bias: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.in1_features, self.in2_features = in1_features, in2_features
        self.out_features = out_features
        self.weight = Parameter(_creation.empty((out_features, in1_features, in2_features),
                                                device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(_creation.empty(out_features, device=device, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw weight and bias uniform in ±1/sqrt(in1_features), as torch."""
        if self.in1_features <= 0:  # torch's check (the bound below divides by it)
            raise ValueError(f"in1_features must be > 0, but got (in1_features="
                             f"{self.in1_features})")
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1: Tensor, input2: Tensor) -> Tensor:
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")
