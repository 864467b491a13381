"""``ChannelShuffle``: the module of ``F.channel_shuffle`` (a ShuffleNet unit's mixing of
its channel groups).

>>> import minitorch
>>> from minitorch import nn
>>> nn.ChannelShuffle(2)(minitorch.arange(4.).view(1, 4, 1)).flatten()
tensor([0., 2., 1., 3.])
"""

from __future__ import annotations

from .._tensor import Tensor
from . import functional as F
from .module import Module

__all__ = ["ChannelShuffle"]


class ChannelShuffle(Module):
    """The channels of a ``(N, C, *)`` input in ``groups`` groups, interleaved.

    >>> nn.ChannelShuffle(3)
    ChannelShuffle(groups=3)
    """

    __constants__ = ["groups"]

    def __init__(self, groups: int) -> None:
        super().__init__()
        self.groups = groups

    def forward(self, input: Tensor) -> Tensor:
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        return f"groups={self.groups}"
