"""``pixel_shuffle``: channels traded for resolution, ``(*, C*r*r, H, W)`` to
``(*, C, H*r, W*r)``; ``pixel_unshuffle`` is its inverse, and each one's backward is the
other.

>>> import minitorch
>>> pixel_shuffle(minitorch.arange(4.).view(1, 4, 1, 1), 2)
tensor([[[[0., 1.],
          [2., 3.]]]])
"""

from __future__ import annotations

from typing import Any

from .. import _args
from .._tensor import Tensor
from ..autograd.function import reduce_to_shape
from ._base import Op, wrap

__all__ = ["PixelShuffle", "PixelUnshuffle", "pixel_shuffle", "pixel_unshuffle"]


def _shuffled(xp: Any, a: Any, r: int) -> Any:
    """``(*, C*r*r, H, W)`` -> ``(*, C, H*r, W*r)``."""
    *batch, c, h, w = a.shape
    n = len(batch)
    a = xp.reshape(a, (*batch, c // (r * r), r, r, h, w))
    a = xp.permute_dims(a, (*range(n), n, n + 3, n + 1, n + 4, n + 2))
    return xp.reshape(a, (*batch, c // (r * r), h * r, w * r))


def _unshuffled(xp: Any, a: Any, r: int) -> Any:
    """``(*, C, H*r, W*r)`` -> ``(*, C*r*r, H, W)``."""
    *batch, c, h, w = a.shape
    n = len(batch)
    a = xp.reshape(a, (*batch, c, h // r, r, w // r, r))
    a = xp.permute_dims(a, (*range(n), n, n + 2, n + 4, n + 1, n + 3))
    return xp.reshape(a, (*batch, c * r * r, h // r, w // r))


class PixelShuffle(Op):
    node_name = "PixelShuffleBackward0"
    _profile_name = "aten::pixel_shuffle"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, factor: int) -> Tensor:
        ctx.factor, ctx.shape = factor, tuple(a.shape)
        return wrap(_shuffled(a._xp, a._data, factor))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (_checked(PixelShuffle, pixel_unshuffle(g, ctx.factor), ctx.shape),)


class PixelUnshuffle(Op):
    node_name = "PixelUnshuffleBackward0"
    _profile_name = "aten::pixel_unshuffle"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, factor: int) -> Tensor:
        ctx.factor, ctx.shape = factor, tuple(a.shape)
        if not a._data.size:  # torch's kernel returns an empty input's copy, its shape kept
            return wrap(a._xp.asarray(a._data, copy=True))
        return wrap(_unshuffled(a._xp, a._data, factor))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (_checked(PixelUnshuffle, pixel_shuffle(g, ctx.factor), ctx.shape),)


def _checked(op: type, grad: Tensor, shape: tuple) -> Tensor:
    """The engine's check of ``op``'s gradient for an input of ``shape``: the other op of
    an empty gradient keeps its shape, which need not be the input's."""
    return reduce_to_shape(op.node_name, 0, grad, shape)


def _check(fn: str, input: Tensor, factor: Any, argument: str) -> int:
    """``factor``, after torch's checks of the arguments' types, the input's rank and the
    factor's sign."""
    _args.tensor_args(fn, (input, "input", 1))
    factor = _args.integer(fn, factor, argument, 2)
    if input.dim() < 3:
        raise RuntimeError(f"{fn} expects input to have at least 3 dimensions, but got input "
                           f"with {input.dim()} dimension(s)")
    if factor <= 0:
        raise RuntimeError(f"{fn} expects a positive {argument}, but got {factor}")
    return factor


def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    """``(*, C*r*r, H, W)`` rearranged to ``(*, C, H*r, W*r)`` with ``r = upscale_factor``.

    >>> F.pixel_shuffle(minitorch.ones(1, 9, 2, 2), 3).shape
    torch.Size([1, 1, 6, 6])
    """
    upscale_factor = _check("pixel_shuffle", input, upscale_factor, "upscale_factor")
    c = input.size(-3)
    if c % (upscale_factor * upscale_factor):
        raise RuntimeError("pixel_shuffle expects its input's 'channel' dimension to be "
                           "divisible by the square of upscale_factor, but input.size(-3)="
                           f"{c} is not divisible by {upscale_factor * upscale_factor}")
    return PixelShuffle.apply(input, factor=upscale_factor)


def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:
    """``(*, C, H*r, W*r)`` rearranged to ``(*, C*r*r, H, W)`` with ``r = downscale_factor``.

    >>> F.pixel_unshuffle(minitorch.ones(1, 1, 6, 6), 3).shape
    torch.Size([1, 9, 2, 2])
    """
    downscale_factor = _check("pixel_unshuffle", input, downscale_factor, "downscale_factor")
    for name, dim in (("height", -2), ("width", -1)):
        if input.size(dim) % downscale_factor:
            raise RuntimeError(f"pixel_unshuffle expects {name} to be divisible by "
                               f"downscale_factor, but input.size({dim})={input.size(dim)} is "
                               f"not divisible by {downscale_factor}")
    return PixelUnshuffle.apply(input, factor=downscale_factor)
