"""Adaptive average pooling: the input's last two dims cut into a given number of windows.

Output cell ``i`` of a side of size ``n`` cut into ``m`` averages the inputs from
``floor(i * n / m)`` to ``ceil((i + 1) * n / m)``, so windows may differ in size and overlap.
As torch's CPU kernel, each window is summed in the input's dtype in row-major order and
divided by its height, then its width; a 1x1 output is the mean over the two dims (torch's
shortcut, ``MeanBackward1``).

>>> import minitorch
>>> x = minitorch.arange(6.).reshape(1, 2, 3).requires_grad_()
>>> F.adaptive_avg_pool2d(x, (1, 2))
tensor([[[2., 3.]]], grad_fn=<AdaptiveAvgPool2DBackward0>)
"""

from __future__ import annotations

from typing import Any

from .. import _args
from .._creation import zeros_like
from .._tensor import Tensor
from ..backend import namespace
from ._base import Op, wrap

__all__ = ["AdaptiveAvgPool2D", "AdaptiveAvgPool2DBackward", "adaptive_avg_pool2d"]


def _windows(size: int, cells: int) -> tuple[list[int], list[int]]:
    """The start and the length of each of ``cells`` windows over ``size`` inputs."""
    starts = [i * size // cells for i in range(cells)]
    ends = [-(-(i + 1) * size // cells) for i in range(cells)]
    return starts, [e - s for s, e in zip(starts, ends)]


def _pool(a: Any, out: tuple[int, int]) -> Any:
    """The windows' averages: every window's offset ``(dh, dw)`` added in row-major order,
    where the window has it (so each sum is added as torch's loop adds it)."""
    xp = namespace(a)
    (top, heights), (left, widths) = _windows(a.shape[-2], out[0]), _windows(a.shape[-1], out[1])
    total = xp.zeros((*a.shape[:-2], *out), dtype=a.dtype)
    zero = xp.zeros((), dtype=a.dtype)
    h_axis = a.ndim - 2
    for dh in range(max(heights, default=0)):
        rows = xp.asarray([min(t + dh, a.shape[-2] - 1) for t in top], dtype=xp.int64)
        picked_rows = xp.take(a, rows, axis=h_axis)
        for dw in range(max(widths, default=0)):
            cols = xp.asarray([min(s + dw, a.shape[-1] - 1) for s in left], dtype=xp.int64)
            inside = xp.asarray([[dh < h and dw < w for w in widths] for h in heights])
            total = total + xp.where(inside, xp.take(picked_rows, cols, axis=h_axis + 1), zero)
    return total / _column(xp, heights, a.dtype) / xp.asarray(widths, dtype=a.dtype)


def _column(xp: Any, values: list[int], dtype: Any) -> Any:
    return xp.reshape(xp.asarray(values, dtype=dtype), (-1, 1))


def _unpool(g: Any, shape: tuple) -> Any:
    """The gradient of ``_pool``: each output cell's gradient over its height and width,
    added over its window, cell after cell (torch's order, which matters where windows
    overlap)."""
    xp = namespace(g)
    out = g.shape[-2:]
    (top, heights), (left, widths) = _windows(shape[-2], out[0]), _windows(shape[-1], out[1])
    grad = xp.zeros(shape, dtype=g.dtype)
    for i, (t, h) in enumerate(zip(top, heights)):
        for j, (s, w) in enumerate(zip(left, widths)):
            window = (..., slice(t, t + h), slice(s, s + w))
            grad[window] = grad[window] + xp.reshape(g[..., i, j] / h / w, (*g.shape[:-2], 1, 1))
    return grad


class AdaptiveAvgPool2D(Op):
    node_name = "AdaptiveAvgPool2DBackward0"
    saved_names = ("self",)
    _profile_name = "aten::_adaptive_avg_pool2d"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, output_size: tuple[int, int]) -> Tensor:
        ctx.save_for_backward(a)
        return wrap(_pool(a._data, output_size))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (AdaptiveAvgPool2DBackward.apply(g, *ctx.saved_tensors),)


class AdaptiveAvgPool2DBackward(Op):
    """The pooling's gradient as an op of the output's gradient and (as torch's, for its
    shape only) the input, so that gradients of gradients work: its own gradient is the
    pooling again."""

    node_name = "AdaptiveAvgPool2DBackwardBackward0"
    _profile_name = "aten::_adaptive_avg_pool2d_backward"

    @staticmethod
    def forward(ctx: Any, g: Tensor, a: Tensor) -> Tensor:
        for d in range(1, g.dim()):
            if g.shape[d] == 0:
                raise RuntimeError(
                    "adaptive_avg_pool2d_backward(): Expected grad_output to have non-zero size "
                    f"for non-batch dimensions, but grad_output has sizes {list(g.shape)} with "
                    f"dimension {d} being empty")
        ctx.output_size = tuple(g.shape[-2:])
        ctx.save_for_backward(a)
        return wrap(_unpool(g._data, tuple(a.shape)))

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        (a,) = ctx.saved_tensors
        return AdaptiveAvgPool2D.apply(gg, output_size=ctx.output_size), zeros_like(a)


def adaptive_avg_pool2d(input: Tensor, output_size: Any) -> Tensor:
    """The average of ``output_size`` (an int, or a pair whose None keeps the input's size)
    adaptive windows over the last two dims of a 3-D or 4-D input.

    >>> F.adaptive_avg_pool2d(minitorch.ones(1, 4, 6), (2, None)).shape
    torch.Size([1, 2, 6])
    """
    _args.python_attribute(input, "size")  # torch's Python wrapper reads input.size() first
    if isinstance(output_size, int):
        size = (output_size, output_size)
    else:
        if len(input.shape) <= len(output_size):
            raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
        size = tuple(d if v is None else v for v, d in
                     zip(output_size, input.shape[-len(output_size):]))
    if len(size) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    if size[0] < 0 or size[1] < 0:
        raise RuntimeError("adaptive_avg_pool2d: elements of output_size must be greater than or "
                           f"equal to 0 but received {{{size[0]}, {size[1]}}}")
    if size == (1, 1):
        return input.mean((-1, -2), keepdim=True)
    ndim = input.dim()
    if ndim not in (3, 4):
        raise RuntimeError(f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got "
                           f"{list(input.shape)}")
    for d in (ndim - 2, ndim - 1):
        if input.shape[d] == 0:
            raise RuntimeError(
                "adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch "
                f"dimensions, but input has sizes {list(input.shape)} with dimension {d} being "
                "empty")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(
            f"\"adaptive_avg_pool2d\" not implemented for '{_args.legacy(input.dtype)}'")
    return AdaptiveAvgPool2D.apply(input, output_size=size)
