"""Sliding windows: ``Tensor.unfold`` (the windows along one dim, a view:
``UnfoldBackward0``) and ``F.unfold`` / ``F.fold`` (im2col and its adjoint col2im over the
last two dims: ``Im2ColBackward0`` / ``Col2ImBackward0``).

im2col reads the same strided slices as the convolution (one per kernel offset, see
``conv.py``); fold adds them back, so each is the other's backward.

>>> import minitorch
>>> minitorch.arange(5.).unfold(0, 2, 2)
tensor([[0., 1.],
        [2., 3.]])
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from .. import _args
from .._tensor import Tensor
from ..autograd.grad_mode import is_grad_enabled
from ..backend import sliding_windows
from ._base import Op, wrap
from .conv import _columns_array, _fold, _slices, out_size
from .shape import Embed

__all__ = ["Col2Im", "Im2Col", "Unfold", "fold", "unfold", "unfold_method"]


class Unfold(Op):
    node_name = "UnfoldBackward0"
    _profile_name = "aten::unfold"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, dim: int, size: int, step: int) -> Tensor:
        ctx.meta = tuple(a.shape), dim, size, step
        if a.dim() == 0:  # torch's one window of the one element
            return a._view(a._xp.reshape(a._data, (1,))[:size])
        return a._view(sliding_windows(a._data, dim, size, step))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        """Each window offset's gradient added back where that offset read (offset order)."""
        shape, dim, size, step = ctx.meta
        if not shape:
            return (g.sum(),)
        lead = (slice(None),) * dim
        total = g.new_zeros(shape)
        for k in range(size):
            key = (*lead, slice(k, k + step * (g.shape[dim] - 1) + 1, step))
            total = total + Embed.apply(g[..., k], shape=shape, key=key)
        return (total,)


def unfold_method(self: Tensor, dimension: int, size: int, step: int) -> Tensor:
    """The windows of ``size`` elements every ``step`` along ``dimension``, as a new last
    dim: a view of this tensor.

    >>> minitorch.arange(4.).unfold(0, 3, 1).shape
    torch.Size([2, 3])
    """
    dimension, size, step = _args.integers("unfold", (dimension, "dimension", 1),
                                           (size, "size", 2), (step, "step", 3))
    dim = _args.wrap_dim(dimension, self.dim())
    length = self.shape[dim] if self.dim() else 1
    if size > length:
        raise RuntimeError(f"maximum size for tensor at dimension {dim} is {length} but size "
                           f"is {size}")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    return Unfold.apply(self, dim=dim, size=size, step=step)


Pair = tuple[int, int]


class Im2Col(Op):
    node_name = "Im2ColBackward0"
    _profile_name = "aten::im2col"

    @staticmethod
    def forward(ctx: Any, x: Tensor, *, kernel: Pair, geometry: Any) -> Tensor:
        keys = _slices(tuple(x.shape), kernel, geometry)
        cols = _columns_array(x._xp, x._data, keys, geometry[1], 0.0)  # (.., C, K, OH, OW)
        ctx.meta = tuple(x.shape[-2:]), kernel, geometry
        lead = cols.shape[:-4]
        rows = cols.shape[-4] * cols.shape[-3]  # named, not -1: an empty batch has no -1
        return wrap(x._xp.reshape(cols, (*lead, rows, cols.shape[-2] * cols.shape[-1])))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        size, kernel, geometry = ctx.meta
        return (Col2Im.apply(g, size=size, kernel=kernel, geometry=geometry),)


class Col2Im(Op):
    node_name = "Col2ImBackward0"
    _profile_name = "aten::col2im"

    @staticmethod
    def forward(ctx: Any, cols: Tensor, *, size: Pair, kernel: Pair, geometry: Any) -> Tensor:
        lead, count = tuple(cols.shape[:-2]), math.prod(kernel)
        shape = (*lead, cols.shape[-2] // count, *size)
        keys = _slices(shape, kernel, geometry)
        oh, ow = _blocks(size, kernel, geometry)
        parts = wrap(cols._xp.reshape(cols._data, (*shape[:-2], count, oh, ow)))
        ctx.meta = kernel, geometry
        return _fold(parts, shape, keys, geometry[1])

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        kernel, geometry = ctx.meta
        return (Im2Col.apply(g, kernel=kernel, geometry=geometry),)


def _blocks(size: tuple, kernel: Pair, geometry: Any) -> tuple[int, int]:
    """The number of block positions along the height and the width."""
    return tuple(out_size(size[i], kernel[i], *(part[i] for part in geometry))
                 for i in range(2))  # type: ignore[return-value]


def _pair(value: Any) -> Any:
    """torch's wrapper's ``_pair``: an iterable as a tuple, anything else twice."""
    return tuple(value) if isinstance(value, Iterable) else (value, value)


def _geometry(fn: str, *values: Any) -> tuple[Pair, Any]:
    """The kernel and (stride, padding, dilation) pairs, with torch's checks; ``values``:
    (col2im's output_size,) kernel_size, dilation, padding, stride, each made a pair by
    torch's wrapper, then read by its parser (every type first). col2im's output size comes
    back first."""
    names = ("output_size",) * (len(values) == 5) + ("kernel_size", "dilation", "padding",
                                                     "stride")
    given = tuple(("ints", _pair(v), name, i + 2) for i, (v, name) in enumerate(zip(values,
                                                                                   names)))
    pairs = []
    for value, name in zip(_args.parsed(fn, *given), names):
        if len(value) != 2:
            raise RuntimeError(f"It is expected {name} equals to 2, but got size {len(value)}")
        pairs.append(tuple(value))
    size, (kernel, dil, pad, strd) = pairs[:-4], pairs[-4:]
    checks = [(kernel, "kernel size", 1, "kernel"), (strd, "stride", 1, "stride"),
              (dil, "dilation", 1, "dilation"), (pad, "padding", 0, "pad")]
    if fn == "im2col":  # unfold checks the stride last, fold right after the kernel
        checks.append(checks.pop(1))
    for (h, w), what, least, words in checks:
        if h < least or w < least:
            need = "greater than zero" if least else "non-negative"
            raise RuntimeError(f"{what} should be {need}, but got {words}_height: {h} "
                               f"{words}_width: {w}")
    return (*size, kernel, (strd, pad, dil))


def _read_sizes(input: Tensor) -> None:
    """The sizes torch reads before it checks the rank, with their range errors: the
    recorded backward saves ``size(-2)`` and ``size(-1)``, then im2col reads ``size(1)``
    and, where that is not 0, ``size(2)``."""
    ndim = input.dim()
    if is_grad_enabled() and input.requires_grad:
        _args.wrap_dim(-1, ndim, scalar=False)
        _args.wrap_dim(-2, ndim)
    if input.shape[_args.wrap_dim(1, ndim, scalar=False)]:
        _args.wrap_dim(2, ndim)


def unfold(input: Tensor, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
           stride: Any = 1) -> Tensor:
    """im2col: every ``kernel_size`` block of a (N, C, H, W) or (C, H, W) input as a column,
    (N, C·kh·kw, L) for the L block positions.

    >>> F.unfold(minitorch.ones(1, 2, 3, 3), 2).shape
    torch.Size([1, 8, 4])
    """
    _args.tensor_args("im2col", (input, "input", 1))
    kernel, geometry = _geometry("im2col", kernel_size, dilation, padding, stride)
    _read_sizes(input)
    if input.dim() not in (3, 4) or 0 in input.shape[-3:]:
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with possibly 0 batch size "
                           f"and other non-zero dimensions for input, but got: "
                           f"{list(input.shape)}")
    _, (ph, pw), (dh, dw) = geometry
    blocks = _blocks(tuple(input.shape[-2:]), kernel, geometry)
    if min(blocks) < 1:
        raise RuntimeError(
            f"Given input with spatial size ({input.shape[-2]}, {input.shape[-1]}), "
            f"kernel_size=({kernel[0]}, {kernel[1]}), dilation=({dh}, {dw}), padding=({ph}, "
            f"{pw}), calculated shape of the array of sliding blocks as ({blocks[0]}, "
            f"{blocks[1]}), but its components must be at least one.")
    if not (input.dtype.is_floating_point or input.dtype.name == "bool"):
        raise _args.not_implemented("im2col_out_cpu", input.dtype)
    return Im2Col.apply(input, kernel=kernel, geometry=geometry)


def fold(input: Tensor, output_size: Any, kernel_size: Any, dilation: Any = 1,
         padding: Any = 0, stride: Any = 1) -> Tensor:
    """col2im, the adjoint of ``unfold``: columns (N, C·kh·kw, L) summed back into a
    (N, C, H, W) image of ``output_size``.

    >>> F.fold(minitorch.ones(1, 4, 4), (3, 3), 2)[0, 0]
    tensor([[1., 2., 1.],
            [2., 4., 2.],
            [1., 2., 1.]])
    """
    _args.tensor_args("col2im", (input, "input", 1))
    size, kernel, geometry = _geometry("col2im", output_size, kernel_size, dilation, padding,
                                       stride)
    if input.dim() not in (2, 3) or 0 in input.shape[-2:]:
        raise RuntimeError("Expected 2D or 3D (batch mode) tensor for input with possibly 0 "
                           "batch size and non-zero dimensions for input, but got: "
                           f"{list(input.shape)}")
    count = math.prod(kernel)
    if input.shape[-2] % count:
        raise RuntimeError("Expected size of input's dimension 1 to be divisible by the product "
                           f"of kernel_size, but got input.size(1)={input.shape[-2]} and "
                           f"kernel_size=({kernel[0]}, {kernel[1]}).")
    blocks = _blocks(size, kernel, geometry)
    (sh, sw), (ph, pw), (dh, dw) = geometry
    given = (f"Given output_size=({size[0]}, {size[1]}), kernel_size=({kernel[0]}, "
             f"{kernel[1]}), dilation=({dh}, {dw}), padding=({ph}, {pw}), stride=({sh}, {sw}), ")
    if blocks[0] * blocks[1] != input.shape[-1]:
        raise RuntimeError(
            f"{given}expected size of input's dimension 2 to match the calculated number of "
            f"sliding blocks {blocks[0]} * {blocks[1]} = {blocks[0] * blocks[1]}, but got "
            f"input.size(2)={input.shape[-1]}.")
    if min(blocks) < 1:  # two negative counts can multiply to the right one
        raise RuntimeError(f"{given}calculated shape of the array of sliding blocks as "
                           f"({blocks[0]}, {blocks[1]}), which is too small (non-positive)")
    if min(size) < 1:  # padding can give blocks for an empty image
        raise RuntimeError("Expected output spatial size to be positive, but got: "
                           f"output_size=({size[0]}, {size[1]}).")
    if not (input.dtype.is_floating_point or input.dtype.name == "bool"):
        raise _args.not_implemented("col2im_out_cpu", input.dtype)
    return Col2Im.apply(input, size=tuple(size), kernel=kernel, geometry=geometry)
