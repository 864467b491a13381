"""``Linear`` (``y = x Wᵀ + b``), ``LazyLinear`` (a Linear that learns its in_features
from its first input) and ``Identity``.

>>> import minitorch
>>> from minitorch import nn
>>> nn.Linear(10, 5)
Linear(in_features=10, out_features=5, bias=True)
"""

from __future__ import annotations

from typing import Any

from .. import _creation
from .._tensor import Tensor
from ..autograd import grad_mode
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter, UninitializedParameter

__all__ = ["Identity", "LazyLinear", "Linear"]


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


class LazyLinear(Linear):
    """A :class:`Linear` whose ``in_features`` is the last dim of its first input.

    Its weight and bias start as :class:`UninitializedParameter`; the first call
    materialises them, draws them as Linear does (the same random numbers as torch's after
    the same seed) and turns the module into a plain ``Linear``.

    >>> fc = nn.LazyLinear(2)
    >>> fc
    LazyLinear(in_features=0, out_features=2, bias=True)
    >>> fc(minitorch.ones(1, 3)).shape, fc
    (torch.Size([1, 2]), Linear(in_features=3, out_features=2, bias=True))
    """

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        Module.__init__(self)
        self.in_features = 0
        self.out_features = out_features
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)
        else:
            self.register_parameter("bias", None)
        # torch's LazyModuleMixin: a forward pre-hook infers the shapes before anything else
        self._initialize_hook = self.register_forward_pre_hook(LazyLinear._infer_parameters)

    def reset_parameters(self) -> None:
        """Draw fresh weights, once they have a shape (torch's order: weight, then bias)."""
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def has_uninitialized_params(self) -> bool:
        """True while a parameter still waits for its shape."""
        return any(isinstance(p, UninitializedParameter) for p in self._parameters.values())

    def initialize_parameters(self, input: Tensor) -> None:
        """Materialise weight (out_features, input's last dim) and bias, then draw them;
        after ``load_state_dict`` (which materialised them) only learn ``in_features``."""
        if self.has_uninitialized_params():
            with grad_mode.no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()
        if self.in_features == 0:
            if input.shape[-1] != self.weight.shape[-1]:
                raise AssertionError(
                    f"The in_features inferred from input: {input.shape[-1]} is not equal to "
                    f"in_features from self.weight: {self.weight.shape[-1]}")
            self.in_features = input.shape[-1]

    def state_dict(self, *, destination: dict | None = None, prefix: str = "",
                   keep_vars: bool = False) -> Any:
        """As Module's; uninitialized parameters are kept as they are (they cannot be
        detached), as torch's lazy modules do."""
        return super().state_dict(destination=destination, prefix=prefix,
                                  keep_vars=keep_vars or self.has_uninitialized_params())

    @staticmethod
    def _infer_parameters(module: LazyLinear, args: tuple) -> None:
        module.initialize_parameters(*args)
        module._initialize_hook.remove()
        del module._initialize_hook
        module.__class__ = module.cls_to_become
