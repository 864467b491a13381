"""``Linear`` (``y = x Wᵀ + b``) and ``Identity``; ``LazyLinear`` lives with the lazy modules.
>>> import minitorch
>>> from minitorch import nn
>>> nn.Linear(10, 5)
Linear(in_features=10, out_features=5, bias=True)
"""

from __future__ import annotations

from typing import Any

from .. import _creation
from .._tensor import Tensor
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter

__all__ = ["Identity", "Linear"]


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
