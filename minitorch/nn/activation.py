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

__all__ = [
    "ELU",
    "GELU",
    "GLU",
    "Hardtanh",
    "LeakyReLU",
    "LogSigmoid",
    "LogSoftmax",
    "ReLU",
    "ReLU6",
    "SiLU",
    "Sigmoid",
    "Softmax",
    "Softmax2d",
    "Tanh",
]


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


class LogSigmoid(Module):
    """``log(sigmoid(x))``, computed without overflow.

    >>> nn.LogSigmoid()(minitorch.zeros(1))
    tensor([-0.6931])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.logsigmoid(input)


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


class Softmax2d(Module):
    """Softmax over the channels at every position of a (N, C, H, W) or (C, H, W) input.

    >>> nn.Softmax2d()(minitorch.zeros(1, 2, 1, 1)).flatten()
    tensor([0.5000, 0.5000])
    """

    def forward(self, input: Tensor) -> Tensor:
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D "
                             "instead")
        return F.softmax(input, -3)


class LogSoftmax(Softmax):
    """The logarithm of softmax along ``dim``, computed stably.

    >>> nn.LogSoftmax(dim=0)(minitorch.zeros(2))
    tensor([-0.6931, -0.6931])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.log_softmax(input, self.dim)


def _inplace(extra: str, inplace: bool) -> str:
    """torch's modules list ``inplace=True`` after their other settings, and only when set."""
    if not inplace:
        return extra
    return f"{extra}, inplace=True" if extra else "inplace=True"


class ELU(Module):
    """``x`` where positive, else ``alpha * (exp(x) - 1)``.

    >>> nn.ELU(alpha=0.5)
    ELU(alpha=0.5)
    """

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, x: Tensor) -> Tensor:
        return F.elu(x, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return _inplace(f"alpha={self.alpha}", self.inplace)


class LeakyReLU(Module):
    """``x`` where positive, else ``negative_slope * x``.

    >>> nn.LeakyReLU(0.2, inplace=True)
    LeakyReLU(negative_slope=0.2, inplace=True)
    """

    def __init__(self, negative_slope: float = 1e-2, inplace: bool = False) -> None:
        super().__init__()
        self.negative_slope, self.inplace = negative_slope, inplace

    def forward(self, x: Tensor) -> Tensor:
        return F.leaky_relu(x, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        return _inplace(f"negative_slope={self.negative_slope}", self.inplace)


class Hardtanh(Module):
    """``x`` clamped to ``[min_val, max_val]``.

    >>> nn.Hardtanh(-2, 2)
    Hardtanh(min_val=-2, max_val=2)
    """

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0,
                 inplace: bool = False) -> None:
        super().__init__()
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace
        if self.max_val <= self.min_val:  # torch's comparison (its TypeError for a None too)
            raise AssertionError(f"max_val ({self.max_val}) must be greater than min_val "
                                 f"({self.min_val})")

    def forward(self, x: Tensor) -> Tensor:
        return F.hardtanh(x, self.min_val, self.max_val, self.inplace)

    def extra_repr(self) -> str:
        return _inplace(f"min_val={self.min_val}, max_val={self.max_val}", self.inplace)


class ReLU6(Hardtanh):
    """``min(max(x, 0), 6)``.

    >>> nn.ReLU6()(minitorch.tensor([-1., 9.]))
    tensor([0., 6.])
    """

    def __init__(self, inplace: bool = False) -> None:
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self) -> str:
        return _inplace("", self.inplace)


class SiLU(Module):
    """``x * sigmoid(x)``.

    >>> nn.SiLU()
    SiLU()
    """

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, x: Tensor) -> Tensor:
        return F.silu(x, self.inplace)

    def extra_repr(self) -> str:
        return _inplace("", self.inplace)


class GELU(Module):
    """``x * Φ(x)``, Φ the standard normal CDF (or its tanh approximation).

    >>> nn.GELU(approximate="tanh")
    GELU(approximate='tanh')
    """

    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def forward(self, x: Tensor) -> Tensor:
        return F.gelu(x, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class GLU(Module):
    """The gated linear unit ``F.glu``: halve ``dim`` into ``a, b``, return ``a * sigmoid(b)``.

    >>> nn.GLU()(minitorch.tensor([1., 0.]))
    tensor([0.5000])
    """

    def __init__(self, dim: int = -1) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return F.glu(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"
