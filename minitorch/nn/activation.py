"""Element-wise activations and softmax as modules: ReLU, Sigmoid, Tanh, Softmax, LogSoftmax.

>>> import minitorch
>>> from minitorch import nn
>>> nn.ReLU()(minitorch.tensor([-1., 1.]))
tensor([0., 1.])
"""

from __future__ import annotations

from .. import _args
from .._tensor import Tensor
from . import functional as F
from .module import Module

__all__ = ["LogSoftmax", "ReLU", "Sigmoid", "Softmax", "Tanh"]


class ReLU(Module):
    """``max(x, 0)``; with ``inplace=True`` it overwrites its input.

    >>> nn.ReLU(inplace=True)
    ReLU(inplace=True)
    """

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Sigmoid(Module):
    """``1 / (1 + exp(-x))``.

    >>> nn.Sigmoid()(minitorch.zeros(1))
    tensor([0.5000])
    """

    def forward(self, input: Tensor) -> Tensor:
        _args.tensor_args("sigmoid", (input, "input", 1))  # torch's module calls torch.sigmoid
        return input.sigmoid()


class Tanh(Module):
    """Hyperbolic tangent.

    >>> nn.Tanh()(minitorch.zeros(1))
    tensor([0.])
    """

    def forward(self, input: Tensor) -> Tensor:
        _args.tensor_args("tanh", (input, "input", 1))
        return input.tanh()


class Softplus(Module):
    """A smooth ReLU: ``log(1 + exp(beta * x)) / beta``, linear above ``threshold``.

    >>> nn.Softplus(beta=2.0)
    Softplus(beta=2.0, threshold=20.0)
    """

    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, input: Tensor) -> Tensor:
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


class Softmax(Module):
    """Softmax along ``dim``: non-negative values summing to one.

    >>> nn.Softmax(dim=1)(minitorch.zeros(1, 4))
    tensor([[0.2500, 0.2500, 0.2500, 0.2500]])
    """

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return F.softmax(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class LogSoftmax(Softmax):
    """The logarithm of softmax along ``dim``, computed stably.

    >>> nn.LogSoftmax(dim=0)(minitorch.zeros(2))
    tensor([-0.6931, -0.6931])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.log_softmax(input, self.dim)
