"""``PixelShuffle`` and ``PixelUnshuffle``: the modules of ``F.pixel_shuffle`` (channels
traded for resolution) and its inverse ``F.pixel_unshuffle``.

>>> import minitorch
>>> from minitorch import nn
>>> nn.PixelShuffle(3)(minitorch.ones(1, 9, 4, 4)).shape
torch.Size([1, 1, 12, 12])
"""

from __future__ import annotations

from .._tensor import Tensor
from . import functional as F
from .module import Module

__all__ = ["PixelShuffle", "PixelUnshuffle"]


class PixelShuffle(Module):
    """``(*, C·r², H, W)`` to ``(*, C, H·r, W·r)`` with ``r = upscale_factor``.

    >>> nn.PixelShuffle(3)
    PixelShuffle(upscale_factor=3)
    """

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input: Tensor) -> Tensor:
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """``(*, C, H·r, W·r)`` to ``(*, C·r², H, W)`` with ``r = downscale_factor``.

    >>> nn.PixelUnshuffle(2)
    PixelUnshuffle(downscale_factor=2)
    """

    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input: Tensor) -> Tensor:
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        return f"downscale_factor={self.downscale_factor}"
