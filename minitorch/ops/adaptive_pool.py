"""Adaptive pooling: the input's last two dims cut into a given number of windows, each
averaged (``adaptive_avg_pool2d``, and ``adaptive_avg_pool1d`` on one dim) or reduced to its
largest element (``adaptive_max_pool2d``, with the flat index of that element in its plane).

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

__all__ = ["AdaptiveAvgPool2D", "AdaptiveAvgPool2DBackward", "AdaptiveMaxPool2D",
           "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_max_pool2d"]


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


def _output_size(fn: str, input: Tensor, output_size: Any) -> tuple:
    """``output_size`` as a tuple, a None taking the input's size there (torch's Python
    wrapper, which reads ``input.size()`` first), then read by ``fn``'s parser as an
    ``int[2]`` (one int is spread; no bool, no float).

    >>> _output_size("adaptive_avg_pool2d", minitorch.ones(1, 4, 6), (2, None))
    (2, 6)
    >>> _output_size("adaptive_avg_pool2d", minitorch.ones(1, 4, 6), (2.5, None))
    Traceback (most recent call last):
    TypeError: adaptive_avg_pool2d(): argument 'output_size' (position 2) must be tuple of \
ints, but found element of type float at pos 0
    """
    _args.python_attribute(input, "size")
    if not isinstance(output_size, int):  # torch's wrapper fills the Nones in
        _args.python_len(output_size)
        if len(input.shape) <= len(output_size):
            raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
        output_size = [d if v is None else v for v, d in
                       zip(output_size, input.shape[-len(output_size):])]
    if _args.as_int(output_size) is not None:
        return (output_size, output_size)
    return _args.int_tuple(fn, output_size, "output_size", 2)


def adaptive_avg_pool2d(input: Tensor, output_size: Any) -> Tensor:
    """The average of ``output_size`` (an int, or a pair whose None keeps the input's size)
    adaptive windows over the last two dims of a 3-D or 4-D input.

    >>> F.adaptive_avg_pool2d(minitorch.ones(1, 4, 6), (2, None)).shape
    torch.Size([1, 2, 6])
    """
    size = _output_size("adaptive_avg_pool2d", input, output_size)
    if len(size) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    if size[0] < 0 or size[1] < 0:
        raise RuntimeError("adaptive_avg_pool2d: elements of output_size must be greater than or "
                           f"equal to 0 but received {{{size[0]}, {size[1]}}}")
    if size == (1, 1):
        return input.mean((-1, -2), keepdim=True)
    _check_input("adaptive_avg_pool2d", input, "but got", any_dtype=0 in size)
    if not input.dtype.is_floating_point:  # an empty output of any dtype: nothing to average
        return input.new_zeros((*input.shape[:-2], *size))
    return AdaptiveAvgPool2D.apply(input, output_size=size)


def adaptive_avg_pool1d(input: Tensor, output_size: Any) -> Tensor:
    """The average of ``output_size`` adaptive windows over the last dim of a 2-D or 3-D
    input: ``adaptive_avg_pool2d`` over one row, as torch.

    >>> F.adaptive_avg_pool1d(minitorch.arange(6.).reshape(1, 6), 2)
    tensor([[1., 4.]])
    """
    _args.tensor_args("adaptive_avg_pool1d", (input, "input", 1))
    sizes = ((output_size,) if _args.as_int(output_size) is not None else
             _args.int_tuple("adaptive_avg_pool1d", output_size, "output_size", 2))
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional "
                           "tensor for argument #1 'self' (while checking arguments for "
                           "adaptive_avg_pool1d)")
    if len(sizes) != 1:
        raise RuntimeError("adaptive_avg_pool1d() argument 'output_size' should contain one int "
                           f"(got {len(sizes)})")
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, sizes[0])).squeeze(-2)


def _argmax_windows(a: Any, out: tuple[int, int]) -> Any:
    """The flat index (in its H x W plane) of each window's largest element: the window's
    offsets scanned in row-major order, a later element taken only when larger (or NaN), as
    torch's CPU loop."""
    xp = namespace(a)
    height, width = a.shape[-2:]
    (top, heights), (left, widths) = _windows(height, out[0]), _windows(width, out[1])
    best = xp.full((*a.shape[:-2], *out), -xp.inf, dtype=a.dtype)
    index = xp.asarray([t * width + s for t in top for s in left], dtype=xp.int64)
    index = xp.broadcast_to(xp.reshape(index, out), best.shape)
    h_axis = a.ndim - 2
    for dh in range(max(heights, default=0)):
        rows = [min(t + dh, height - 1) for t in top]
        picked_rows = xp.take(a, xp.asarray(rows, dtype=xp.int64), axis=h_axis)
        for dw in range(max(widths, default=0)):
            cols = [min(s + dw, width - 1) for s in left]
            values = xp.take(picked_rows, xp.asarray(cols, dtype=xp.int64), axis=h_axis + 1)
            inside = xp.asarray([[dh < h and dw < w for w in widths] for h in heights])
            better = inside & ((values > best) | xp.isnan(values))
            best = xp.where(better, values, best)
            flat = xp.asarray([[r * width + c for c in cols] for r in rows], dtype=xp.int64)
            index = xp.where(better, flat, index)
    return index


class AdaptiveMaxPool2D(Op):
    """The elements ``indices`` picks in each (H x W) plane; the gradient goes back to them,
    added in output order where windows share their largest element."""

    node_name = "AdaptiveMaxPool2DBackward0"
    saved_slots = ("indices",)
    saved_names = ("self", "result1")
    _profile_name = "aten::adaptive_max_pool2d"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, indices: Tensor) -> Tensor:
        xp, batch = a._xp, tuple(a.shape[:-2])
        planes = xp.reshape(a._data, (*batch, a.shape[-2] * a.shape[-1]))
        flat = xp.reshape(indices._data, (*batch, indices.shape[-2] * indices.shape[-1]))
        picked = xp.take_along_axis(planes, flat, axis=-1)
        ctx.shape, ctx.indices = tuple(a.shape), indices
        return wrap(xp.reshape(picked, indices.shape))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        shape, indices = ctx.shape, ctx.indices
        _check_nonempty("adaptive_max_pool2d_backward", g, "grad_output", 1)
        zeros = g.new_zeros((*shape[:-2], shape[-2] * shape[-1]))
        grad = zeros.scatter_add(-1, indices.flatten(-2), g.flatten(-2))
        return (grad.reshape(shape),)


def adaptive_max_pool2d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    """The largest element of each of ``output_size`` adaptive windows over the last two dims
    of a 3-D or 4-D input, and with ``return_indices`` its flat index in its plane.

    >>> F.adaptive_max_pool2d(minitorch.arange(6.).reshape(1, 2, 3), (1, 2), True)
    (tensor([[[4., 5.]]]), tensor([[[4, 5]]]))
    """
    size = _output_size("adaptive_max_pool2d", input, output_size)
    _check_input("adaptive_max_pool2d", input, "but got:", any_dtype=True)  # the shape first
    if len(size) != 2:
        raise RuntimeError("adaptive_max_pool2d(): internal error: output_size.size() must be 2")
    if min(size) < 0:
        raise RuntimeError("Trying to create tensor with negative dimension "
                           f"{min(size)}: {[*input.shape[:-2], *size]}")
    _check_input("adaptive_max_pool2d", input, "but got:")  # then the dtype
    indices = wrap(_argmax_windows(input._data, size))
    out = AdaptiveMaxPool2D.apply(input, indices=indices)
    return (out, indices) if return_indices else out


def _check_input(name: str, input: Tensor, got: str, any_dtype: bool = False) -> None:
    """torch's checks of a 2-d adaptive pooling's input, in its order: 3 or 4 dims, no empty
    non-batch dim, a floating dtype unless nothing is computed (``any_dtype``; ``got``: the
    words before the shape in torch's text)."""
    ndim = input.dim()
    if ndim not in (3, 4):
        raise RuntimeError(f"{name}(): Expected 3D or 4D tensor, {got} {list(input.shape)}")
    _check_nonempty(name, input, "input", 1 if "max" in name else ndim - 2)
    if not input.dtype.is_floating_point and not any_dtype:
        raise _args.not_implemented(name, input.dtype)


def _check_nonempty(name: str, t: Tensor, what: str, first: int) -> None:
    """torch's refusal of an empty dim from ``first`` on (max pooling: all but the first,
    even of a 3-D input; average pooling: the pooled two)."""
    for d in range(first, t.dim()):
        if t.shape[d] == 0:
            raise RuntimeError(
                f"{name}(): Expected {what} to have non-zero size for non-batch dimensions, but "
                f"{what} has sizes {list(t.shape)} with dimension {d} being empty")
