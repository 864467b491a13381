"""Element-wise activations and softmax as modules: ReLU, Sigmoid, Tanh, Softmax, LogSoftmax,
Softmin and the rest of torch's.

>>> import minitorch
>>> from minitorch import nn
>>> nn.ReLU()(minitorch.tensor([-1., 1.]))
tensor([0., 1.])
"""

from __future__ import annotations

from typing import Any

from .. import _args, _creation
from .._tensor import Tensor
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter

__all__ = [
    "CELU",
    "ELU",
    "GELU",
    "GLU",
    "SELU",
    "Hardshrink",
    "Hardsigmoid",
    "Hardswish",
    "Hardtanh",
    "LeakyReLU",
    "LogSigmoid",
    "LogSoftmax",
    "Mish",
    "PReLU",
    "RReLU",
    "ReLU",
    "ReLU6",
    "SiLU",
    "Sigmoid",
    "Softmax",
    "Softmax2d",
    "Softmin",
    "Softplus",
    "Softshrink",
    "Softsign",
    "Tanh",
    "Tanhshrink",
    "Threshold",
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

    def forward(self, input: Tensor) -> Tensor:
        return F.elu(input, self.alpha, self.inplace)

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

    def forward(self, input: Tensor) -> Tensor:
        return F.leaky_relu(input, self.negative_slope, self.inplace)

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
        if _args.python_op(self.max_val, "<=", self.min_val):  # torch's comparison
            raise AssertionError(f"max_val ({self.max_val}) must be greater than min_val "
                                 f"({self.min_val})")

    def forward(self, input: Tensor) -> Tensor:
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

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

    def forward(self, input: Tensor) -> Tensor:
        return F.silu(input, self.inplace)

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

    def forward(self, input: Tensor) -> Tensor:
        return F.gelu(input, approximate=self.approximate)

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


class Softmin(Module):
    """``softmax(-x)`` along ``dim``.

    >>> nn.Softmin(dim=0)(minitorch.zeros(2))
    tensor([0.5000, 0.5000])
    """

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return F.softmin(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class _InplaceOnly(Module):
    """An activation whose only setting is ``inplace`` (``function(input, inplace)``), which
    it prints when set unless ``prints_inplace`` is False (as torch's Hardswish)."""

    prints_inplace = True

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return type(self).function(input, self.inplace)

    def extra_repr(self) -> str:
        return _inplace("", self.inplace and self.prints_inplace)


class SELU(_InplaceOnly):
    """``scale * elu(x, alpha)`` with the self-normalising constants.

    >>> nn.SELU(inplace=True)
    SELU(inplace=True)
    """

    function = staticmethod(F.selu)


class Mish(_InplaceOnly):
    """``x * tanh(softplus(x))``.

    >>> nn.Mish()(minitorch.tensor([0.]))
    tensor([0.])
    """

    function = staticmethod(F.mish)


class Hardswish(_InplaceOnly):
    """``x * relu6(x + 3) / 6`` (torch prints no settings).

    >>> nn.Hardswish(inplace=True)
    Hardswish()
    """

    function = staticmethod(F.hardswish)
    prints_inplace = False


class Hardsigmoid(_InplaceOnly):
    """``relu6(x + 3) / 6`` (torch prints no settings).

    >>> nn.Hardsigmoid()(minitorch.tensor([0.]))
    tensor([0.5000])
    """

    function = staticmethod(F.hardsigmoid)
    prints_inplace = False


class CELU(ELU):
    """``x`` where positive, else ``alpha * (exp(x / alpha) - 1)``.

    >>> nn.CELU(2.)
    CELU(alpha=2.0)
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.celu(input, self.alpha, self.inplace)


class Threshold(Module):
    """``x`` where above ``threshold``, else ``value``.

    >>> nn.Threshold(0.1, 20.)
    Threshold(threshold=0.1, value=20.0)
    """

    def __init__(self, threshold: float, value: float, inplace: bool = False) -> None:
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self) -> str:
        return _inplace(f"threshold={self.threshold}, value={self.value}", self.inplace)


class Hardshrink(Module):
    """``x`` where ``|x| > lambd``, else 0.

    >>> nn.Hardshrink(0.3)
    Hardshrink(0.3)
    """

    function = staticmethod(F.hardshrink)

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = lambd

    def forward(self, input: Tensor) -> Tensor:
        return type(self).function(input, self.lambd)

    def extra_repr(self) -> str:
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    """``x`` moved ``lambd`` towards 0, and 0 within ``lambd`` of it.

    >>> nn.Softshrink()(minitorch.tensor([-1., 0.2]))
    tensor([-0.5000,  0.0000])
    """

    function = staticmethod(F.softshrink)


class Tanhshrink(Module):
    """``x - tanh(x)``.

    >>> nn.Tanhshrink()
    Tanhshrink()
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.tanhshrink(input)


class Softsign(Module):
    """``x / (1 + |x|)``.

    >>> nn.Softsign()(minitorch.tensor([1.]))
    tensor([0.5000])
    """

    def forward(self, input: Tensor) -> Tensor:
        return F.softsign(input)


class PReLU(Module):
    """``x`` where positive, else ``weight * x``, with a learnt ``weight`` (one, or one per
    channel) that starts at ``init``.

    >>> nn.PReLU(3).weight
    Parameter containing:
    tensor([0.2500, 0.2500, 0.2500], requires_grad=True)
    """

    def __init__(self, num_parameters: int = 1, init: float = 0.25, device: Any = None,
                 dtype: Any = None) -> None:
        self.num_parameters = num_parameters
        super().__init__()
        self.init = init
        self.weight = Parameter(_creation.empty(num_parameters, device=device, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.constant_(self.weight, self.init)

    def forward(self, input: Tensor) -> Tensor:
        return F.prelu(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"


class RReLU(Module):
    """The randomized leaky ReLU: in training each negative value gets a slope drawn from
    ``U(lower, upper)``, in eval the mean slope.

    >>> nn.RReLU(0.1, 0.3)
    RReLU(lower=0.1, upper=0.3)
    """

    def __init__(self, lower: float = 1.0 / 8, upper: float = 1.0 / 3,
                 inplace: bool = False) -> None:
        super().__init__()
        self.lower, self.upper, self.inplace = lower, upper, inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self) -> str:
        return _inplace(f"lower={self.lower}, upper={self.upper}", self.inplace)
