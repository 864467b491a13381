"""``Unfold`` (im2col: every sliding block of an image as a column) and ``Fold`` (col2im,
the columns summed back into an image): the modules of ``F.unfold`` and ``F.fold``.

>>> import minitorch
>>> from minitorch import nn
>>> nn.Unfold(kernel_size=(2, 3))(minitorch.ones(2, 5, 3, 4)).shape
torch.Size([2, 30, 4])
"""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from . import functional as F
from .module import Module

__all__ = ["Fold", "Unfold"]


class Unfold(Module):
    """Each ``kernel_size`` block of a (N, C, H, W) input as a column of (N, C·kh·kw, L).

    >>> nn.Unfold(2, stride=2)
    Unfold(kernel_size=2, dilation=1, padding=0, stride=2)
    """

    def __init__(self, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
                 stride: Any = 1) -> None:
        super().__init__()
        self.kernel_size, self.dilation = kernel_size, dilation
        self.padding, self.stride = padding, stride

    def forward(self, input: Tensor) -> Tensor:
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")


class Fold(Unfold):
    """Columns (N, C·kh·kw, L) summed back into a (N, C, H, W) image of ``output_size``.

    >>> nn.Fold(output_size=(4, 5), kernel_size=(2, 2))(minitorch.ones(1, 12, 12)).shape
    torch.Size([1, 3, 4, 5])
    """

    def __init__(self, output_size: Any, kernel_size: Any, dilation: Any = 1,
                 padding: Any = 0, stride: Any = 1) -> None:
        super().__init__(kernel_size, dilation, padding, stride)
        self.output_size = output_size

    def forward(self, input: Tensor) -> Tensor:
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding,
                      self.stride)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}, {super().extra_repr()}"
