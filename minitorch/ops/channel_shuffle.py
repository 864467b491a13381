"""``channel_shuffle``: a ``(N, C, *)`` input's channels, read as ``groups`` groups of
``C / groups``, interleaved (ShuffleNet's mixing across grouped convolutions): channel
``g * (C / groups) + i`` moves to ``i * groups + g``. Its backward is the shuffle back, one
with ``C / groups`` groups.

>>> import minitorch
>>> channel_shuffle(minitorch.arange(4.).view(1, 4, 1), 2).flatten()
tensor([0., 2., 1., 3.])
"""

from __future__ import annotations

from typing import Any

from .. import _args
from .._tensor import Tensor
from ._base import Op, wrap
from .pointwise import _NoDerivative

__all__ = ["ChannelShuffle", "NativeChannelShuffle", "channel_shuffle",
           "native_channel_shuffle"]


class ChannelShuffle(Op):
    node_name = "ChannelShuffleBackward0"
    _profile_name = "aten::channel_shuffle"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, groups: int) -> Tensor:
        ctx.groups = groups
        xp, data = a._xp, a._data
        n, c, *rest = data.shape
        data = xp.reshape(data, (n, groups, c // groups, *rest))
        data = xp.permute_dims(data, (0, 2, 1, *range(3, data.ndim)))
        return wrap(xp.reshape(data, (n, c, *rest)))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (ChannelShuffle.apply(g, groups=g.shape[1] // ctx.groups),)


def channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """The channels (dim 1) of ``input``, in ``groups`` groups, interleaved; see
    ``nn.ChannelShuffle``.

    >>> F.channel_shuffle(minitorch.arange(6.).view(1, 6, 1), 3).flatten()
    tensor([0., 2., 4., 1., 3., 5.])
    """
    fn = "channel_shuffle"
    _args.tensor_args(fn, (input, "input", 1))
    groups = _args.integer(fn, groups, "groups", 2)
    if input.dim() <= 2:
        raise RuntimeError(f"{fn} expects input with > 2 dims, but got input with sizes "
                           f"{list(input.shape)}")
    if groups <= 0:
        raise RuntimeError("Number of groups to divide channels in must be positive. Value of "
                           f"groups:{groups}")
    if input.shape[1] % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got "
                           f"{input.shape[1]} channels and {groups} groups.")
    return ChannelShuffle.apply(input, groups=groups)


class NativeChannelShuffle(_NoDerivative):
    """``native_channel_shuffle``: ``channel_shuffle``'s values, recorded (as torch does)
    under the ``NotImplemented`` node of a kernel with no derivative."""

    node_name = "NotImplemented"
    _profile_name = "aten::native_channel_shuffle"

    @staticmethod
    def compute(a: Tensor, shuffled: Tensor) -> Any:
        return shuffled._data


def native_channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """``channel_shuffle`` without a derivative (torch's kernel behind it).

    >>> minitorch.native_channel_shuffle(minitorch.arange(4.).view(1, 4, 1), 2).flatten()
    tensor([0., 2., 1., 3.])
    """
    _args.tensor_args("native_channel_shuffle", (input, "input", 1))
    groups = _args.integer("native_channel_shuffle", groups, "groups", 2)
    return NativeChannelShuffle.on(input, shuffled=channel_shuffle(input.detach(), groups))
