"""Adaptive pooling: the input's last two (three) dims cut into a given number of windows,
each averaged (``adaptive_avg_pool2d``/``3d``, and ``adaptive_avg_pool1d`` on one dim) or
reduced to its largest element (``adaptive_max_pool2d``/``3d``, with the flat index of that
element in its plane or volume).

Output cell ``i`` of a side of size ``n`` cut into ``m`` averages the inputs from
``floor(i * n / m)`` to ``ceil((i + 1) * n / m)``, so windows may differ in size and overlap.
As torch's CPU kernel, each window is summed in the input's dtype in row-major order and
divided by its sides in order (depth, height, width); a 1x1(x1) output is the mean over the
pooled dims (torch's shortcut, ``MeanBackward1``).

>>> import minitorch
>>> x = minitorch.arange(6.).reshape(1, 2, 3).requires_grad_()
>>> F.adaptive_avg_pool2d(x, (1, 2))
tensor([[[2., 3.]]], grad_fn=<AdaptiveAvgPool2DBackward0>)
"""

from __future__ import annotations

from itertools import product
from typing import Any

from .. import _args, _call_form
from .._creation import zeros_like
from .._tensor import Tensor
from ..backend import namespace
from ._base import Op, wrap

__all__ = ["AdaptiveAvgPool2D", "AdaptiveAvgPool2DBackward", "AdaptiveAvgPool3D",
           "AdaptiveAvgPool3DBackward", "AdaptiveMaxPool2D", "AdaptiveMaxPool3D",
           "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d",
           "adaptive_max_pool2d", "adaptive_max_pool3d"]


def _windows(size: int, cells: int) -> tuple[list[int], list[int]]:
    """The start and the length of each of ``cells`` windows over ``size`` inputs."""
    starts = [i * size // cells for i in range(cells)]
    ends = [-(-(i + 1) * size // cells) for i in range(cells)]
    return starts, [e - s for s, e in zip(starts, ends)]


def _along(xp: Any, values: list, dim: int, n: int, dtype: Any = None) -> Any:
    """``values`` as an array along spatial dim ``dim`` of ``n``, to broadcast over the
    others."""
    return xp.reshape(xp.asarray(values, dtype=dtype), (-1,) + (1,) * (n - 1 - dim))


def _offsets(a: Any, out: tuple) -> Any:
    """Each offset inside a window (row-major), with the picked elements at that offset of
    every window (clamped inside the input), the windows that reach that far, and the
    picked elements' flat indices in their plane (or volume)."""
    xp, n = namespace(a), len(out)
    spatial = a.shape[a.ndim - n:]
    cuts = [_windows(size, cells) for size, cells in zip(spatial, out)]
    for offset in product(*(range(max(lengths, default=0)) for _, lengths in cuts)):
        picked, inside, flat = a, xp.asarray(True), xp.asarray(0, dtype=xp.int64)
        for dim, (k, (starts, lengths)) in enumerate(zip(offset, cuts)):
            at = [min(s + k, spatial[dim] - 1) for s in starts]
            picked = xp.take(picked, xp.asarray(at, dtype=xp.int64), axis=a.ndim - n + dim)
            inside = inside & _along(xp, [k < length for length in lengths], dim, n)
            flat = flat * spatial[dim] + _along(xp, at, dim, n, xp.int64)
        yield picked, inside, flat


def _pool(a: Any, out: tuple) -> Any:
    """The windows' averages: every window's offset added in row-major order, where the
    window has it (so each sum is added as torch's loop adds it), then divided by the
    window's sides in order."""
    xp = namespace(a)
    total = xp.zeros((*a.shape[:a.ndim - len(out)], *out), dtype=a.dtype)
    zero = xp.zeros((), dtype=a.dtype)
    for picked, inside, _ in _offsets(a, out):
        total = total + xp.where(inside, picked, zero)
    for dim, (size, cells) in enumerate(zip(a.shape[a.ndim - len(out):], out)):
        total = total / _along(xp, _windows(size, cells)[1], dim, len(out), a.dtype)
    return total


def _unpool(g: Any, shape: tuple, n: int) -> Any:
    """The gradient of ``_pool``: each output cell's gradient over its window's sides,
    added over its window, cell after cell (torch's order, which matters where windows
    overlap)."""
    xp = namespace(g)
    lead = g.shape[:g.ndim - n]
    cuts = [list(zip(*_windows(size, cells)))
            for size, cells in zip(shape[len(shape) - n:], g.shape[g.ndim - n:])]
    grad = xp.zeros(shape, dtype=g.dtype)
    for cell in product(*(range(len(c)) for c in cuts)):
        part = g[(..., *cell)]
        window = [c[i] for c, i in zip(cuts, cell)]
        for _, length in window:
            part = part / length
        key = (..., *(slice(start, start + length) for start, length in window))
        grad[key] = grad[key] + xp.reshape(part, (*lead, *(1,) * n))
    return grad


class AdaptiveAvgPool2D(Op):
    node_name = "AdaptiveAvgPool2DBackward0"
    saved_names = ("self",)
    dims = 2
    _profile_name = "aten::_adaptive_avg_pool2d"

    @classmethod
    def forward(cls, ctx: Any, a: Tensor, *, output_size: tuple) -> Tensor:
        ctx.save_for_backward(a)
        return wrap(_pool(a._data, output_size))

    @classmethod
    def backward(cls, ctx: Any, g: Tensor) -> tuple:
        return (cls.gradient.apply(g, *ctx.saved_tensors),)


class AdaptiveAvgPool2DBackward(Op):
    """The pooling's gradient as an op of the output's gradient and (as torch's, for its
    shape only) the input, so that gradients of gradients work: its own gradient is the
    pooling again."""

    node_name = "AdaptiveAvgPool2DBackwardBackward0"
    _profile_name = "aten::_adaptive_avg_pool2d_backward"
    pool = AdaptiveAvgPool2D

    @classmethod
    def forward(cls, ctx: Any, g: Tensor, a: Tensor) -> Tensor:
        n = cls.pool.dims
        for d in range(1, g.dim()):
            if g.shape[d] == 0:
                raise RuntimeError(
                    f"adaptive_avg_pool{n}d_backward(): Expected grad_output to have non-zero "
                    f"size for non-batch dimensions, but grad_output has sizes {list(g.shape)} "
                    f"with dimension {d} being empty")
        ctx.output_size = tuple(g.shape[-n:])
        ctx.save_for_backward(a)
        return wrap(_unpool(g._data, tuple(a.shape), n))

    @classmethod
    def backward(cls, ctx: Any, gg: Tensor) -> tuple:
        (a,) = ctx.saved_tensors
        return cls.pool.apply(gg, output_size=ctx.output_size), zeros_like(a)


AdaptiveAvgPool2D.gradient = AdaptiveAvgPool2DBackward


class AdaptiveAvgPool3D(AdaptiveAvgPool2D):
    node_name = "AdaptiveAvgPool3DBackward0"
    dims = 3
    _profile_name = "aten::adaptive_avg_pool3d"


class AdaptiveAvgPool3DBackward(AdaptiveAvgPool2DBackward):
    node_name = "AdaptiveAvgPool3DBackwardBackward0"
    _profile_name = "aten::adaptive_avg_pool3d_backward"
    pool = AdaptiveAvgPool3D


AdaptiveAvgPool3D.gradient = AdaptiveAvgPool3DBackward


def _output_size(fn: str, input: Tensor, output_size: Any, n: int = 2) -> tuple:
    """``output_size`` as a tuple, a None taking the input's size there (torch's Python
    wrapper, which reads ``input.size()`` first), then read by ``fn``'s parser as an
    ``int[n]`` (one int is spread; no bool, no float).

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
        return (output_size,) * n
    return _args.int_tuple(fn, output_size, "output_size", 2)


def adaptive_avg_pool2d(input: Tensor, output_size: Any) -> Tensor:
    """The average of ``output_size`` (an int, or a pair whose None keeps the input's size)
    adaptive windows over the last two dims of a 3-D or 4-D input.

    >>> F.adaptive_avg_pool2d(minitorch.ones(1, 4, 6), (2, None)).shape
    torch.Size([1, 2, 6])
    """
    return _adaptive_avg_pool(2, input, output_size)


def adaptive_avg_pool3d(input: Tensor, output_size: Any) -> Tensor:
    """The average of ``output_size`` (an int, or a triple whose None keeps the input's
    size) adaptive windows over the last three dims of a 4-D or 5-D input.

    >>> F.adaptive_avg_pool3d(minitorch.ones(1, 2, 4, 6), (1, None, 3)).shape
    torch.Size([1, 1, 4, 3])
    """
    return _adaptive_avg_pool(3, input, output_size)


def _adaptive_avg_pool(n: int, input: Tensor, output_size: Any) -> Tensor:
    """``adaptive_avg_pool2d`` or ``adaptive_avg_pool3d`` (``n`` 2, 3) after torch's checks."""
    name = f"adaptive_avg_pool{n}d"
    size = _output_size(name, input, output_size, n)
    if len(size) != n:
        raise RuntimeError(f"{name}: output_size must be {n}")
    if min(size) < 0:
        shown = f"{size[0]}, {size[1]}" + ("" if n == 2 else f",{size[2]}")  # torch's spacing
        raise RuntimeError(f"{name}: elements of output_size must be greater than or equal to "
                           f"0 but received {{{shown}}}")
    if size == (1,) * n:
        return input.mean(tuple(range(-1, -n - 1, -1)), keepdim=True)
    _check_input(name, input, "but got", any_dtype=n == 2 and 0 in size)
    if not input.dtype.is_floating_point:  # an empty output of any dtype: nothing to average
        return input.new_zeros((*input.shape[:-n], *size))
    op = AdaptiveAvgPool2D if n == 2 else AdaptiveAvgPool3D
    return op.apply(input, output_size=size)


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


def _argmax_windows(a: Any, out: tuple) -> Any:
    """The flat index (in its plane or volume) of each window's largest element: the
    window's offsets scanned in row-major order, a later element taken only when larger (or
    NaN), as torch's CPU loop; a window of -inf alone picks its first."""
    xp = namespace(a)
    best = xp.full((*a.shape[:a.ndim - len(out)], *out), -xp.inf, dtype=a.dtype)
    index = xp.zeros(best.shape, dtype=xp.int64)
    for k, (values, inside, flat) in enumerate(_offsets(a, out)):
        if not k:  # (torch's loop starts at the window's first element)
            index = xp.broadcast_to(flat, best.shape)
        better = inside & ((values > best) | xp.isnan(values))
        best = xp.where(better, values, best)
        index = xp.where(better, flat, index)
    return index


class AdaptiveMaxPool2D(Op):
    """The elements ``indices`` picks in each (H x W) plane; the gradient goes back to them,
    added in output order where windows share their largest element."""

    node_name = "AdaptiveMaxPool2DBackward0"
    dims = 2
    saved_slots = ("indices",)
    saved_names = ("self", "result1")
    _profile_name = "aten::adaptive_max_pool2d"

    @classmethod
    def forward(cls, ctx: Any, a: Tensor, *, indices: Tensor) -> Tensor:
        xp, n = a._xp, cls.dims
        batch = tuple(a.shape[:-n])
        planes = xp.reshape(a._data, (*batch, _count(a.shape[-n:])))
        flat = xp.reshape(indices._data, (*batch, _count(indices.shape[-n:])))
        picked = xp.take_along_axis(planes, flat, axis=-1)
        ctx.shape, ctx.indices = tuple(a.shape), indices
        return wrap(xp.reshape(picked, indices.shape))

    @classmethod
    def backward(cls, ctx: Any, g: Tensor) -> tuple:
        shape, indices, n = ctx.shape, ctx.indices, cls.dims
        _check_nonempty(f"adaptive_max_pool{n}d_backward", g, "grad_output", 1)
        zeros = g.new_zeros((*shape[:-n], _count(shape[-n:])))
        grad = zeros.scatter_add(-1, indices.flatten(-n), g.flatten(-n))
        return (grad.reshape(shape),)


class AdaptiveMaxPool3D(AdaptiveMaxPool2D):
    node_name = "AdaptiveMaxPool3DBackward0"
    dims = 3
    _profile_name = "aten::adaptive_max_pool3d"


def _count(sizes: Any) -> int:
    total = 1
    for size in sizes:
        total *= size
    return total


@_call_form.boolean_dispatch("adaptive_max_pool2d", 2)
def adaptive_max_pool2d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    """The largest element of each of ``output_size`` adaptive windows over the last two dims
    of a 3-D or 4-D input, and with ``return_indices`` its flat index in its plane.

    >>> F.adaptive_max_pool2d(minitorch.arange(6.).reshape(1, 2, 3), (1, 2), True)
    (tensor([[[4., 5.]]]), tensor([[[4, 5]]]))
    """
    return _adaptive_max_pool(2, input, output_size, return_indices)


@_call_form.boolean_dispatch("adaptive_max_pool3d", 2)
def adaptive_max_pool3d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    """The largest element of each of ``output_size`` adaptive windows over the last three
    dims of a 4-D or 5-D input, and with ``return_indices`` its flat index in its volume.

    >>> F.adaptive_max_pool3d(minitorch.arange(8.).reshape(1, 2, 2, 2), (1, 1, 2), True)
    (tensor([[[[6., 7.]]]]), tensor([[[[6, 7]]]]))
    """
    return _adaptive_max_pool(3, input, output_size, return_indices)


def _adaptive_max_pool(n: int, input: Tensor, output_size: Any, return_indices: bool) -> Any:
    """``adaptive_max_pool2d`` or ``adaptive_max_pool3d`` (``n`` 2, 3) after torch's
    checks."""
    name = f"adaptive_max_pool{n}d"
    size = _output_size(name, input, output_size, n)
    _check_input(name, input, "but got:", any_dtype=True)  # the shape first
    if len(size) != n:
        raise RuntimeError(f"{name}(): internal error: output_size.size() must be {n}")
    if min(size) < 0:
        raise RuntimeError("Trying to create tensor with negative dimension "
                           f"{min(size)}: {[*input.shape[:-n], *size]}")
    _check_input(name, input, "but got:")  # then the dtype
    indices = wrap(_argmax_windows(input._data, size))
    op = AdaptiveMaxPool2D if n == 2 else AdaptiveMaxPool3D
    out = op.apply(input, indices=indices)
    return (out, indices) if return_indices else out


def _check_input(name: str, input: Tensor, got: str, any_dtype: bool = False) -> None:
    """torch's checks of an adaptive pooling's input (``name`` ends in its spatial dims), in
    its order: a channel and an optional batch dim before those, no empty non-batch dim, a
    floating dtype unless nothing is computed (``any_dtype``; ``got``: the words before the
    shape in torch's text)."""
    ndim, n = input.dim(), int(name[-2])
    if name == "adaptive_avg_pool3d":  # (its emptiness first, its rank after)
        _check_nonempty(name, input, "input", 1)
    if ndim not in (n + 1, n + 2):
        raise RuntimeError(f"{name}(): Expected {n + 1}D or {n + 2}D tensor, {got} "
                           f"{list(input.shape)}")
    # 2-d average pooling checks only its pooled dims
    _check_nonempty(name, input, "input", ndim - 2 if name == "adaptive_avg_pool2d" else 1)
    if not input.dtype.is_floating_point and not any_dtype:  # 3-d: torch's kernel's name
        raise _args.not_implemented(name if n == 2 else f"{name}_cpu", input.dtype)


def _check_nonempty(name: str, t: Tensor, what: str, first: int) -> None:
    """torch's refusal of an empty dim from ``first`` on (max pooling: all but the first,
    even of a 3-D input; average pooling: the pooled two)."""
    for d in range(first, t.dim()):
        if t.shape[d] == 0:
            raise RuntimeError(
                f"{name}(): Expected {what} to have non-zero size for non-batch dimensions, but "
                f"{what} has sizes {list(t.shape)} with dimension {d} being empty")
