"""2-D (and 3-D) convolution and 2-D max pooling over (batch, channels, height, width)
tensors (and depth before the height).

Both read a window with one strided slice per offset inside the kernel (``kh * kw`` slices,
never a loop over pixels): stacked, the slices are the "columns" of im2col, so a convolution
is one matrix product and a max pool one ``max`` over the offsets. Their backward scatters
each offset's gradient back with the adjoint of that slice (``fold``), in Tensor operations,
so higher-order gradients work.

>>> import minitorch
>>> x = minitorch.arange(16.).reshape(1, 1, 4, 4).requires_grad_()
>>> y = Convolution.apply(x, minitorch.ones(1, 1, 2, 2), None, geometry=((1, 1), (0, 0), (1, 1)))
>>> y[0, 0, 0], y.grad_fn.name()
(tensor([10., 14., 18.], grad_fn=<SelectBackward0>), 'ConvolutionBackward0')
"""

from __future__ import annotations

import itertools
import math
from typing import Any, NamedTuple

from .._tensor import Tensor
from ..backend import namespace
from . import _conv_order as order
from ._base import Op, like, wrap
from .pointwise import where
from .shape import Embed, Slice, stack

__all__ = ["Convolution", "ConvolutionTranspose", "MaxPool3DReturningIndices",
           "MaxPool3DWithIndices", "MaxPoolReturningIndices", "MaxPoolWithIndices", "out_size"]

Pair = tuple[int, int]
Geometry = tuple[Pair, Pair, Pair]  # stride, padding, dilation


def out_size(size: int, kernel: int, stride: int, padding: int, dilation: int) -> int:
    """The number of window positions along one dim (torch's formula, floor mode).

    >>> out_size(5, 3, 1, 0, 1), out_size(4, 2, 2, 1, 1)
    (3, 3)
    """
    return (size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1


def _slices(shape: tuple, kernel: tuple, geometry: Geometry,
            windows: tuple | None = None) -> list[tuple]:
    """One key per kernel offset (row-major): the strided slice of the padded input that the
    offset sees in every window; ``windows`` (OH, OW) keeps only the first windows (a
    transposed convolution's output padding may leave room for more). The kernel has one
    size per spatial dim (the last ``len(kernel)`` of ``shape``): two, or three for conv3d."""
    stride, padding, dilation = geometry
    n = len(kernel)
    sizes = shape[-n:]
    outs = windows or tuple(out_size(*args) for args in zip(sizes, kernel, *geometry))
    if min(outs) <= 0:
        raise RuntimeError(
            f"Calculated output size: ({'x'.join(map(str, outs))}). Output size is too small "
            f"(input {'x'.join(map(str, sizes))}, kernel {'x'.join(map(str, kernel))}, "
            f"padding {'x'.join(map(str, padding))})")
    lead = (slice(None),) * (len(shape) - n)  # no Ellipsis: Embed appends its own
    return [(*lead, *(slice(i * d, i * d + s * (o - 1) + 1, s)
                      for i, s, d, o in zip(offset, stride, dilation, outs)))
            for offset in itertools.product(*(range(k) for k in kernel))]


class Reach(NamedTuple):
    """What a convolution's windows make of its input, per spatial dim: ``output``, the
    slice of the output positions whose window meets the input (the others read padding
    alone); ``input``, the slice of the input those windows read; ``padding``, the padding
    they read before and after it; ``outs``, how many they are (0 in a dim where none
    meets the input)."""

    output: tuple
    input: tuple
    padding: tuple
    outs: tuple


def reach(shape: tuple, kernel: tuple, geometry: Geometry) -> Reach | None:
    """The :class:`Reach` of windows ``kernel`` with ``geometry`` over an input ``shape``;
    None where every window meets the input and the padding is all read (nothing to cut).
    A padding wider than the kernel leaves windows of padding alone: computing only what the
    others read keeps the work the input's size, not the padding's.

    >>> reach((1, 1, 3), (1,), ((3,), (100,), (1,)))
    Reach(output=(slice(34, 35, None),), input=(slice(2, 3, None),), padding=((0, 0),), outs=(1,))
    >>> reach((1, 1, 4, 4), (3, 3), ((1, 1), (1, 1), (1, 1))) is None
    True
    """
    dims, whole = [], []
    for size, k, s, p, d in zip(shape[-len(kernel):], kernel, *geometry):
        span, n = d * (k - 1), out_size(size, k, s, p, d)  # (span: a window's extent)
        first, last = max(0, -((span - p) // s)), min(n - 1, (p + size - 1) // s)
        start, end = s * first - p, s * last + span - p  # in the input's positions
        dims.append((slice(first, last + 1), slice(max(start, 0), min(end, size - 1) + 1),
                     (max(0, -start), max(0, end - size + 1)), max(0, last - first + 1)))
        whole.append((slice(0, n), slice(0, size), (p, p), n))
    return None if dims == whole else Reach(*map(tuple, zip(*dims)))


def _sides(p: int | Pair) -> Pair:
    """A dim's padding before and after it: ``p`` both sides, or the pair a :class:`Reach`
    gives."""
    return p if isinstance(p, tuple) else (p, p)


def _pads(padding: tuple) -> bool:
    return any(any(_sides(p)) for p in padding)


def _padded_shape(shape: tuple, padding: tuple) -> tuple:
    n = len(padding)
    return (*shape[:-n], *(size + sum(_sides(p)) for size, p in zip(shape[-n:], padding)))


def _inner(shape: tuple, padding: tuple) -> tuple:
    """The key of the unpadded input inside the padded one."""
    n = len(padding)
    lead = (slice(None),) * (len(shape) - n)
    return (*lead, *(slice(_sides(p)[0], _sides(p)[0] + size)
                     for size, p in zip(shape[-n:], padding)))


def _pad_array(xp: Any, a: Any, padding: tuple, fill: float) -> Any:
    if not _pads(padding):
        return a
    out = xp.full(_padded_shape(a.shape, padding), fill, dtype=a.dtype)
    out[_inner(a.shape, padding)] = a
    return out


def _columns_array(xp: Any, a: Any, keys: list, padding: tuple, fill: float) -> Any:
    """(..., K, OH, OW): the input under each of the K kernel offsets."""
    padded = _pad_array(xp, a, padding, fill)
    return xp.stack([padded[key] for key in keys], axis=-1 - len(padding))


def _columns(x: Tensor, keys: list, padding: tuple) -> Tensor:
    """``_columns_array`` in Tensor operations (zero padding), for the backward's graph."""
    if _pads(padding):
        x = Embed.apply(x, shape=_padded_shape(tuple(x.shape), padding),
                        key=_inner(tuple(x.shape), padding))
    return stack([Slice.apply(x, key=key) for key in keys], x.dim() - len(padding))


def _fold(parts: Tensor, shape: tuple, keys: list, padding: tuple,
          last_first: bool = False) -> Tensor:
    """The adjoint of ``_columns``: each offset's (N, C, OH, OW) gradient added back where
    that offset read it, the padding cut off. The offsets are added in kernel order (torch's
    col2im), or from the last to the first (``last_first``): an input's windows in row-major
    order, as torch's max-pool backward visits them."""
    padded = _padded_shape(shape, padding)
    spatial = (slice(None),) * len(padding)
    total = None
    offsets = reversed(range(len(keys))) if last_first else range(len(keys))
    for k, key in ((k, keys[k]) for k in offsets):
        part = Embed.apply(parts[(..., k, *spatial)], shape=padded, key=key)
        total = part if total is None else total + part
    if not _pads(padding):
        return total
    return Slice.apply(total, key=_inner(shape, padding))


class Convolution(Op):
    """``conv2d``: ``weight`` (O, C/G, kh, kw) as G matrices (O/G, C/G*K) times each group's
    columns (N, C/G*K, OH*OW), plus ``bias``; G is ``groups`` (1 by default)."""

    node_name = "ConvolutionBackward0"
    _profile_name = "aten::convolution"

    @staticmethod
    def forward(ctx: Any, x: Tensor, w: Tensor, b: Tensor | None, *,
                geometry: Geometry, groups: int = 1) -> Tensor:
        xp = x._xp
        kernel = tuple(w.shape[2:])
        keys = _slices(tuple(x.shape), kernel, geometry)
        ctx.save_for_backward(x, w)
        bias = None if b is None else b._data
        ctx.plan = (order.plan_of(x._data, w._data, bias, geometry, groups)
                    if x.numel() and w.numel() else None)
        out = _torch_forward(ctx.plan, x._data, w._data, bias, geometry, groups)
        ctx.reach = reach(tuple(x.shape), kernel, geometry) if x.numel() else None
        if out is None and ctx.reach is not None:
            out = _forward_within(xp, x._data, w._data, bias, geometry, groups, ctx.reach)
        elif out is None:
            out = _numpy_forward(xp, x._data, w._data, bias, keys, geometry[1], groups)
        ctx.meta = (keys, geometry, tuple(out.shape[-2:]), b is not None, groups)
        return wrap(out)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return _grads(ctx, g, ctx.needs_input_grad, *ctx.saved_tensors)

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> Any:
        return _grad_arrays(ctx, g, *ctx.saved_tensors)


def _grad_arrays(ctx: Any, g: Any, x: Tensor, w: Tensor) -> Any:
    """torch's kernels' bits (:mod:`._conv_order`) for the parts it knows; the others
    from ``backward``, whose products are numpy's."""
    plan = ctx.plan
    if plan is None or not like(g, x._data):
        return NotImplemented
    _, geometry, _, has_bias, groups = ctx.meta
    need_x, need_w, need_b = ctx.needs_input_grad
    need_b = need_b and has_bias
    grad_x = grad_w = grad_b = None
    if need_x:
        grad_x = _torch_grad_input(plan, g, w._data, tuple(x.shape), geometry, groups)
    if need_w or need_b:
        grad_w, grad_b = _torch_grad_weight(plan, g, x._data, tuple(w.shape), geometry,
                                            groups, need_b)
    left = (need_x and grad_x is None, need_w and grad_w is None, need_b and grad_b is None)
    if any(left):
        rest = _grads(ctx, wrap(g), left, x, w)
        grad_x, grad_w, grad_b = (mine if theirs is None else theirs._data
                                  for mine, theirs in zip((grad_x, grad_w, grad_b), rest))
    return (grad_x if need_x else None, grad_w if need_w else None,
            grad_b if need_b else None)


def _torch_forward(plan: order.Plan | None, x: Any, w: Any, b: Any, geometry: Geometry,
                   groups: int) -> Any:
    kind = plan and plan.forward
    if kind == "slow":
        return order.slow_forward(x, w, b, geometry, groups)
    if kind in ("direct", "bias-first"):
        return order.direct_forward(x, w, b, geometry, groups, 16,
                                    bias_first=kind == "bias-first")
    if kind == "gemm":
        return order.gemm_forward(x, w, b, geometry, groups)
    return None


def _torch_grad_input(plan: order.Plan, g: Any, w: Any, x_shape: tuple, geometry: Geometry,
                      groups: int) -> Any:
    if plan.grad_input == "slow":
        return order.slow_grad_input(g, w, x_shape, geometry, groups)
    if plan.grad_input in ("direct", "chain", "columns"):
        block = 16 if plan.grad_input == "direct" else w.shape[0]
        if plan.grad_weight == "1x1" and geometry[0] == (1, 1):  # oneDNN's 1x1 kernel
            block = order.reduce_block_1x1(w.shape[0], x_shape[1], x_shape[2],
                                           x_shape[2] * x_shape[3], x_shape[0],
                                           order.get_num_threads())
        return order.direct_grad_input(g, w, x_shape, geometry, groups, block,
                                       per_column=plan.grad_input == "columns")
    if plan.grad_input == "gemm":
        return order.gemm_grad_input(g, w, x_shape, geometry, groups)
    return None


def _torch_grad_weight(plan: order.Plan, g: Any, x: Any, w_shape: tuple, geometry: Geometry,
                       groups: int, bias: bool) -> tuple[Any, Any]:
    """The weight's and the bias's gradients (None for those not repeated): oneDNN computes
    both in one kernel; slow_conv2d sums the bias with ``sum``, as ``backward`` does."""
    if plan.grad_weight == "slow":
        return order.slow_grad_weight(g, x, w_shape, geometry, groups), None
    if plan.grad_weight in ("direct", "1x1"):
        return order.direct_grad_weight(g, x, w_shape, geometry, groups, plan.weight_lanes,
                                        bias, per_image=plan.grad_weight == "1x1")
    return None, None


def _torch_transposed(x: Tensor, w: Tensor, shape: tuple, geometry: Geometry,
                      groups: int) -> Any:
    """A float32 transposed convolution in torch's bits: torch's kernel for the input
    gradient of the conv2d whose input has ``shape``; None where minitorch keeps numpy's."""
    if not (x.numel() and w.numel()) or \
            order.plan_of(x._data, w._data, None, geometry, groups) is None:
        return None
    if not _one_window_per_input(x, w, shape, geometry):
        return None
    plan = order.plan(shape, tuple(w.shape), geometry, groups)
    return _torch_grad_input(plan, x._data, w._data, shape, geometry, groups)


def _one_window_per_input(x: Tensor, w: Tensor, shape: tuple, geometry: Geometry) -> bool:
    """Whether the convolution over a transposed one's output ``shape`` has a window per
    input value: an output padding past the stride leaves room for more, which torch's
    kernels (repeated in :mod:`._conv_order`) never see and numpy's path cuts off."""
    windows = tuple(out_size(*args) for args in zip(shape[2:], w.shape[2:], *geometry))
    return windows == tuple(x.shape[2:])


def _numpy_forward(xp: Any, x: Any, w: Any, bias: Any, keys: list, padding: Pair,
                   groups: int) -> Any:
    """The convolution with numpy's products: each group's (O/G, C/G*K) weights times its
    (C/G*K, OH*OW) columns (sizes spelled out: a zero batch leaves no -1 to infer)."""
    n, c, o = x.shape[0], x.shape[1], w.shape[0]
    cols = _columns_array(xp, x, keys, padding, 0.0)
    outs = cols.shape[-len(padding):]
    if not c:  # torch's empty convolution: no input channels give no output channels
        return xp.zeros((n, 0, *outs), dtype=x.dtype)
    per_group = c // groups * len(keys)
    out = xp.matmul(xp.reshape(w, (groups, o // groups, per_group)),
                    xp.reshape(cols, (n, groups, per_group, math.prod(outs))))
    out = xp.reshape(out, (n, o, math.prod(outs)))
    if bias is not None:
        out = out + xp.reshape(bias, (o, 1))
    return xp.reshape(out, (n, o, *outs))


def _forward_within(xp: Any, x: Any, w: Any, bias: Any, geometry: Geometry, groups: int,
                    reached: Reach) -> Any:
    """The convolution computed over the part of the input its windows reach
    (:func:`reach`); a window of padding alone gives each weight times 0, summed (0, or nan
    where torch's sum meets a weight that is not finite), plus the bias."""
    n, o, kernel = x.shape[0], w.shape[0], w.shape[2:]
    outs = tuple(out_size(*args) for args in zip(x.shape[2:], kernel, *geometry))
    spread = (1,) * len(kernel)
    out = xp.zeros((n, o, *outs), dtype=x.dtype)
    out[...] = xp.reshape(xp.sum(xp.reshape(w, (o, math.prod(w.shape[1:]))) * 0, axis=1),
                          (o, *spread))
    if 0 not in reached.outs:
        inner = x[(slice(None), slice(None), *reached.input)]
        keys = _slices(inner.shape, kernel, (geometry[0], reached.padding, geometry[2]),
                       reached.outs)
        out[(slice(None), slice(None), *reached.output)] = _numpy_forward(
            xp, inner, w, None, keys, reached.padding, groups)
    return out if bias is None else out + xp.reshape(bias, (o, *spread))


def _grads(ctx: Any, g: Tensor, needs: tuple, x: Tensor, w: Tensor) -> tuple:
    """The gradients ``needs`` asks for, in Tensor operations (numpy's products): a graph
    to ``x`` and ``w`` (the input and weight as 4-d tensors) when one is recorded."""
    keys, (_, padding, _), _, has_bias, groups = ctx.meta
    need_x, need_w, need_b = needs
    if not x.shape[1]:  # nothing was read: every gradient is zero
        zero = g.sum() * 0
        return (zero.expand(*x.shape) if need_x else None,
                zero.expand(*w.shape) if need_w else None,
                zero.expand(w.shape[0]) if need_b and has_bias else None)
    grad_b = g.sum((0, *range(2, g.dim()))) if need_b and has_bias else None
    if ctx.reach is not None:
        return (*_grads_within(g, x, w, need_x, need_w, ctx.meta[1], groups, ctx.reach),
                grad_b)
    grad_x = input_grad(g, w, tuple(x.shape), keys, padding, groups) if need_x else None
    grad_w = weight_grad(g, x, tuple(w.shape), keys, padding, groups) if need_w else None
    return grad_x, grad_w, grad_b


def _grads_within(g: Tensor, x: Tensor, w: Tensor, need_x: bool, need_w: bool,
                  geometry: Geometry, groups: int, reached: Reach) -> tuple:
    """The input's and weight's gradients from the part of the input the windows reach
    (:func:`reach`): the rest of the input gets none; the windows of padding alone add
    each gradient times 0 to the weight's (0, or nan where the gradient is not finite)."""
    every = (slice(None), slice(None))
    grad_x = grad_w = None
    if 0 not in reached.outs:
        g_in, x_in = Slice.apply(g, key=(*every, *reached.output)), \
            Slice.apply(x, key=(*every, *reached.input))
        keys = _slices(tuple(x_in.shape), tuple(w.shape[2:]),
                       (geometry[0], reached.padding, geometry[2]), reached.outs)
        if need_x:
            grad_x = Embed.apply(input_grad(g_in, w, tuple(x_in.shape), keys, reached.padding,
                                            groups), shape=tuple(x.shape),
                                 key=(*every, *reached.input))
        if need_w:
            grad_w = weight_grad(g_in, x_in, tuple(w.shape), keys, reached.padding, groups)
    if need_x and grad_x is None:  # (torch's reads the weight: so does its graph)
        grad_x = g.new_zeros(tuple(x.shape)) + _no_value_of(w)
    if need_w:
        alone = g._xp.ones(tuple(g.shape), dtype=g._xp.bool)  # windows of padding alone
        alone[(*every, *reached.output)] = False
        lost = (where(wrap(alone), g, 0) * 0).sum((0, *range(2, g.dim())))
        lost = lost.reshape(-1, *(1,) * (w.dim() - 1)).expand(*w.shape)
        grad_w = lost + _no_value_of(x) if grad_w is None else grad_w + lost
    return grad_x, grad_w


def _no_value_of(t: Tensor) -> Tensor:
    """0, as the sum of none of ``t``'s values: a gradient that reads nothing of ``t`` still
    records the graph to it that torch's (which reads its zero padding) does."""
    return t.reshape(-1)[:0].sum()


def input_grad(g: Tensor, w: Tensor, x_shape: tuple, keys: list, padding: Pair,
               groups: int) -> Tensor:
    """conv2d's input gradient (a transposed convolution of ``g`` by ``w``): each group's
    (C/G*K, O/G) transposed weights times ``g``'s (O/G, OH*OW), folded back to ``x_shape``."""
    n, c, o = x_shape[0], x_shape[1], w.shape[0]
    outs = tuple(g.shape[2:])
    g2 = g.reshape(n, groups, o // groups, math.prod(outs))
    w2 = w.reshape(groups, o // groups, c // groups * len(keys))
    parts = (w2.transpose(1, 2) @ g2).reshape(n, c, len(keys), *outs)
    return _fold(parts, x_shape, keys, padding)


def weight_grad(g: Tensor, x: Tensor, w_shape: tuple, keys: list, padding: Pair,
                groups: int) -> Tensor:
    """conv2d's weight gradient: each group's ``g`` (O/G, OH*OW) times the transposed
    columns of ``x`` (OH*OW, C/G*K), summed over the batch."""
    n, c, o = x.shape[0], x.shape[1], w_shape[0]
    spatial = math.prod(g.shape[2:])
    g2 = g.reshape(n, groups, o // groups, spatial)
    cols = _columns(x, keys, padding).reshape(n, groups, c // groups * len(keys), spatial)
    return (g2 @ cols.transpose(2, 3)).sum(0).reshape(*w_shape)


class ConvolutionTranspose(Op):
    """``conv_transpose1d``, ``2d`` or ``3d``: the adjoint of the convolution by the same
    ``weight`` (here read as (C_in, C_out/G, *kernel)), so its output is the convolution's
    input gradient with ``x`` as the output gradient; its own gradients are the convolution
    (for ``x``) and its weight gradient with the roles of input and output swapped. ``out``
    is the output's spatial size. In 2-d float32 the forward is torch's bits: torch's kernel
    for conv2d's input gradient (:mod:`._conv_order`).

    >>> x = minitorch.ones(1, 1, 2, 2, requires_grad=True)
    >>> y = ConvolutionTranspose.apply(x, minitorch.ones(1, 1, 2, 2), None,
    ...                                geometry=((1, 1), (0, 0), (1, 1)), out=(3, 3))
    >>> y[0, 0], y.grad_fn.name()
    (tensor([[1., 2., 1.],
            [2., 4., 2.],
            [1., 2., 1.]], grad_fn=<SelectBackward0>), 'ConvolutionBackward0')
    """

    node_name = "ConvolutionBackward0"
    _profile_name = "aten::convolution"

    @staticmethod
    def forward(ctx: Any, x: Tensor, w: Tensor, b: Tensor | None, *, geometry: Geometry,
                out: Pair, groups: int = 1) -> Tensor:
        shape = (x.shape[0], w.shape[1] * groups, *out)
        keys = _slices(shape, tuple(w.shape[2:]), geometry, tuple(x.shape[2:]))
        ctx.save_for_backward(x, w)
        ctx.meta = (keys, geometry, shape, b is not None, groups)
        y = _torch_transposed(x, w, shape, geometry, groups)
        if y is None:
            y = input_grad(wrap(x._data), wrap(w._data), shape, keys, geometry[1],
                           groups)._data
        if b is not None:
            y = y + x._xp.reshape(b._data, (-1,) + (1,) * len(out))
        return wrap(y)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, w = ctx.saved_tensors
        keys, geometry, _, has_bias, groups = ctx.meta
        need_x, need_w, need_b = ctx.needs_input_grad
        grad_x = grad_w = grad_b = None
        if need_x:  # the windows past the input (room left by output padding) are cut off
            grad_x = Convolution.apply(g, w, None, geometry=geometry, groups=groups)
            if tuple(grad_x.shape) != tuple(x.shape):
                grad_x = Slice.apply(grad_x, key=(slice(None), slice(None),
                                                  *(slice(0, n) for n in x.shape[2:])))
        if need_w:
            grad_w = weight_grad(x, g, tuple(w.shape), keys, geometry[1], groups)
        if need_b and has_bias:
            grad_b = g.sum((0, *range(2, g.dim())))
        return grad_x, grad_w, grad_b

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> Any:
        """torch's float32 bits where :mod:`._conv_order` knows the kernels (conv2d's
        forward for the input, its weight gradient with the roles swapped for the weight;
        not yet the bias's sum, nor grouped weights), the rest from ``backward``."""
        x, w = ctx.saved_tensors
        _, geometry, shape, has_bias, groups = ctx.meta
        if not (x.numel() and w.numel()) or not like(g, x._data) or \
                order.plan_of(g, w._data, None, geometry, groups) is None or \
                not _one_window_per_input(x, w, shape, geometry):
            return NotImplemented
        need_x, need_w, need_b = ctx.needs_input_grad
        need_b = need_b and has_bias
        grad_x = grad_w = grad_b = None
        if need_x:
            grad_x = _torch_forward(order.plan(g.shape, tuple(w.shape), geometry, groups), g,
                                    w._data, None, geometry, groups)
            grad_x = None if grad_x is None else grad_x[..., :x.shape[2], :x.shape[3]]
        if need_w:
            plan = order.plan(shape, tuple(w.shape), geometry, groups)
            grad_w = _torch_grad_weight(plan, x._data, g, tuple(w.shape), geometry, groups,
                                        False)[0]
        if need_b:  # numpy's sum, not oneDNN's order
            grad_b = wrap(g).sum((0, 2, 3))._data
        if (need_x and grad_x is None) or (need_w and grad_w is None):
            rest = ConvolutionTranspose.backward(ctx, wrap(g))
            grad_x, grad_w = (theirs._data if mine is None and theirs is not None else mine
                              for mine, theirs in zip((grad_x, grad_w), rest))
        return grad_x, grad_w, grad_b


class MaxPoolWithIndices(Op):
    """The largest value of each window (over the last two or three dims); the gradient
    goes to the first largest element."""

    node_name = "MaxPool2DWithIndicesBackward0"
    saved_slots = ("winner",)  # torch saves the input and the indices
    _profile_name = "aten::max_pool2d_with_indices"

    @staticmethod
    def forward(ctx: Any, x: Tensor, *, kernel: tuple, geometry: Geometry,
                plane: tuple = ()) -> Tensor:
        xp = x._xp
        keys = _slices(tuple(x.shape), kernel, geometry)
        cols = _columns_array(xp, x._data, keys, geometry[1], -float("inf"))
        axis = -1 - len(kernel)
        first = xp.argmax(cols, axis=axis, keepdims=True)
        offsets = xp.reshape(xp.arange(len(keys), dtype=first.dtype),
                             (len(keys),) + (1,) * len(kernel))
        ctx.winner = wrap(first == offsets)  # (..., K, *out)
        ctx.meta = (tuple(x.shape), keys, geometry[1])
        ctx.first = first
        # the first maximum's own value: of a -0 and a +0, torch keeps the first
        return wrap(xp.squeeze(xp.take_along_axis(cols, first, axis=axis), axis=axis))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        shape, keys, padding = ctx.meta
        # torch adds each window's gradient to its winner, window after window, into zeros:
        # losers add +0 here (a product by 0 could leave a -0 where torch has +0)
        parts = where(ctx.winner, g.unsqueeze(-1 - len(padding)), 0.0)
        return (_fold(parts, shape, keys, padding, last_first=True),)


class MaxPoolReturningIndices(MaxPoolWithIndices):
    """``max_pool2d(return_indices=True)`` (3d too): also each maximum's flat position in
    its ``plane`` of the input (before any ceil-mode growth), as torch returns it."""

    node_name = "MaxPool2DWithIndicesBackward0"
    _profile_name = "aten::max_pool2d_with_indices"

    @staticmethod
    def forward(ctx: Any, x: Tensor, *, kernel: tuple, geometry: Geometry,
                plane: tuple = ()) -> tuple:
        values = MaxPoolWithIndices.forward(ctx, x, kernel=kernel, geometry=geometry)
        xp = x._xp
        n = len(kernel)
        first = xp.squeeze(ctx.first, axis=-1 - n)
        flat = xp.zeros(first.shape, dtype=xp.int64)
        for d, (k, s, p, dil) in enumerate(zip(kernel, *geometry)):
            offset = first // math.prod(kernel[d + 1:]) % k
            starts = xp.reshape(xp.arange(first.shape[d - n]), (-1,) + (1,) * (n - 1 - d))
            flat = flat * plane[d] + xp.astype(starts * s - p + offset * dil, xp.int64)
        indices = wrap(flat)
        ctx.mark_non_differentiable(indices)
        return values, indices

    @staticmethod
    def backward(ctx: Any, g: Tensor, _g_indices: Any = None) -> tuple:
        return MaxPoolWithIndices.backward(ctx, g)


class MaxPool3DWithIndices(MaxPoolWithIndices):
    node_name = "MaxPool3DWithIndicesBackward0"
    _profile_name = "aten::max_pool3d_with_indices"


class MaxPool3DReturningIndices(MaxPoolReturningIndices):
    node_name = "MaxPool3DWithIndicesBackward0"
    _profile_name = "aten::max_pool3d_with_indices"


def _as_2d(t: Tensor) -> Tensor:
    """A 3-d tensor's array as (N, C, 1, L): torch runs a 1-d convolution as a 2-d one."""
    shape = t._data.shape
    return wrap(t._xp.reshape(t._data, (*shape[:2], 1, *shape[2:])))


def _as_1d(value: Any) -> Any:
    """A gradient of the (N, C, 1, L) form as (N, C, L): a tensor (a graph is recorded) or
    an array; None stays None, a bias's stays as it is."""
    if value is None or len(value.shape) < 4:
        return value
    if isinstance(value, Tensor):
        return value.squeeze(2)
    return namespace(value).squeeze(value, axis=2)


class Convolution1d(Convolution):
    """``conv1d``: torch's own route, the 2-d convolution of ``(N, C, 1, L)`` by
    ``(O, C/G, 1, k)``, so its values are the 2-d kernels' to the bit; one node, as torch's."""

    node_name = "ConvolutionBackward0"
    _profile_name = "aten::convolution"

    @staticmethod
    def forward(ctx: Any, x: Tensor, w: Tensor, b: Tensor | None, *,
                geometry: Geometry, groups: int = 1) -> Tensor:
        out = Convolution.forward(ctx, _as_2d(x), _as_2d(w), b, geometry=geometry,
                                  groups=groups)
        # the inputs themselves, not their 4-d copies: a gradient's graph must reach them
        ctx.save_for_backward(x, w)
        return wrap(_as_1d(out._data))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, w = ctx.saved_tensors
        grads = _grads(ctx, g.unsqueeze(2), ctx.needs_input_grad, x.unsqueeze(2), w.unsqueeze(2))
        return tuple(_as_1d(t) for t in grads)

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> Any:
        x, w = ctx.saved_tensors
        grads = _grad_arrays(ctx, _as_2d(wrap(g))._data, _as_2d(x), _as_2d(w))
        return grads if grads is NotImplemented else tuple(_as_1d(a) for a in grads)
