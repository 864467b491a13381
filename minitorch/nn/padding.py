"""Padding modules over ``F.pad``: ``ReflectionPad``, ``ReplicationPad``, ``CircularPad``,
``ConstantPad`` and ``ZeroPad``, each for 1, 2 or 3 spatial dims.

>>> import minitorch
>>> from minitorch import nn
>>> nn.ZeroPad1d((1, 0))(minitorch.ones(1, 2))
tensor([[0., 1., 1.]])
"""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from . import functional as F
from .conv import _ntuple
from .module import Module

__all__ = ["CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d",
           "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d",
           "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d",
           "ZeroPad1d", "ZeroPad2d", "ZeroPad3d"]


class _PadNd(Module):
    """``F.pad(input, padding, mode)`` over ``dims`` spatial dims; an int pads every side."""

    mode = "constant"
    dims = 1

    def __init__(self, padding: Any) -> None:
        super().__init__()
        self.padding = _ntuple(padding, 2 * self.dims)

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _CircularPadNd(_PadNd):
    """Circular padding checks the input's rank first, as torch's module does."""

    mode = "circular"

    def forward(self, input: Tensor) -> Tensor:
        if input.dim() not in (self.dims + 1, self.dims + 2):
            raise ValueError(f"expected {self.dims + 1}D or {self.dims + 2}D input "
                             f"(got {input.dim()}D input)")
        return super().forward(input)


class _ConstantPadNd(_PadNd):
    """Padding with a constant ``value``."""

    def __init__(self, padding: Any, value: float) -> None:
        super().__init__(padding)
        self.value = value

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class _ReflectionPadNd(_PadNd):
    mode = "reflect"


class _ReplicationPadNd(_PadNd):
    mode = "replicate"


class ReflectionPad1d(_ReflectionPadNd):
    """Pad the last dim with its mirror image (the edge not repeated).

    >>> nn.ReflectionPad1d(2)(minitorch.tensor([[0., 1., 2.]]))
    tensor([[2., 1., 0., 1., 2., 1., 0.]])
    """


class ReflectionPad2d(_ReflectionPadNd):
    """``ReflectionPad1d`` over the last two dims: ``(left, right, top, bottom)``.

    >>> nn.ReflectionPad2d((1, 1, 2, 0))
    ReflectionPad2d((1, 1, 2, 0))
    """

    dims = 2


class ReflectionPad3d(_ReflectionPadNd):
    """``ReflectionPad1d`` over the last three dims.

    >>> nn.ReflectionPad3d(1)
    ReflectionPad3d((1, 1, 1, 1, 1, 1))
    """

    dims = 3


class ReplicationPad1d(_ReplicationPadNd):
    """Pad the last dim by repeating its edge values.

    >>> nn.ReplicationPad1d((2, 1))(minitorch.tensor([[0., 1.]]))
    tensor([[0., 0., 0., 1., 1.]])
    """


class ReplicationPad2d(_ReplicationPadNd):
    """``ReplicationPad1d`` over the last two dims.

    >>> nn.ReplicationPad2d(1)
    ReplicationPad2d((1, 1, 1, 1))
    """

    dims = 2


class ReplicationPad3d(_ReplicationPadNd):
    """``ReplicationPad1d`` over the last three dims.

    >>> nn.ReplicationPad3d(1)
    ReplicationPad3d((1, 1, 1, 1, 1, 1))
    """

    dims = 3


class CircularPad1d(_CircularPadNd):
    """Pad the last dim by wrapping around: the left pad is the right end.

    >>> nn.CircularPad1d(1)(minitorch.tensor([[0., 1., 2.]]))
    tensor([[2., 0., 1., 2., 0.]])
    """


class CircularPad2d(_CircularPadNd):
    """``CircularPad1d`` over the last two dims.

    >>> nn.CircularPad2d(1)
    CircularPad2d((1, 1, 1, 1))
    """

    dims = 2


class CircularPad3d(_CircularPadNd):
    """``CircularPad1d`` over the last three dims.

    >>> nn.CircularPad3d(1)
    CircularPad3d((1, 1, 1, 1, 1, 1))
    """

    dims = 3


class ConstantPad1d(_ConstantPadNd):
    """Pad the last dim with ``value``.

    >>> nn.ConstantPad1d(1, 3.5)(minitorch.tensor([[0.]]))
    tensor([[3.5000, 0.0000, 3.5000]])
    """


class ConstantPad2d(_ConstantPadNd):
    """``ConstantPad1d`` over the last two dims.

    >>> nn.ConstantPad2d((1, 0, 0, 1), -1.0)
    ConstantPad2d(padding=(1, 0, 0, 1), value=-1.0)
    """

    dims = 2


class ConstantPad3d(_ConstantPadNd):
    """``ConstantPad1d`` over the last three dims.

    >>> nn.ConstantPad3d(1, 0.5)
    ConstantPad3d(padding=(1, 1, 1, 1, 1, 1), value=0.5)
    """

    dims = 3


class _ZeroPadNd(_ConstantPadNd):
    """``ConstantPad`` with ``value=0.0``, printed by its padding alone."""

    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad1d(_ZeroPadNd, ConstantPad1d):
    """Pad the last dim with zeros.

    >>> nn.ZeroPad1d(1)
    ZeroPad1d((1, 1))
    """


class ZeroPad2d(_ZeroPadNd, ConstantPad2d):
    """Pad the last two dims with zeros.

    >>> nn.ZeroPad2d((0, 1, 1, 0))(minitorch.ones(1, 1, 1)).shape
    torch.Size([1, 2, 2])
    """


class ZeroPad3d(_ZeroPadNd, ConstantPad3d):
    """Pad the last three dims with zeros.

    >>> nn.ZeroPad3d(1)
    ZeroPad3d((1, 1, 1, 1, 1, 1))
    """
