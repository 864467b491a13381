"""Sampling an image at arbitrary points (spatial transformers): ``affine_grid`` builds the
points of an affine map of a regular grid, ``grid_sample`` reads the image there.

Both are torch's compositions of existing ops, so their gradients (to ``theta``, to the image
and to the grid) come from those ops: ``affine_grid`` is ATen's ``affine_grid_generator`` (a
base grid of ``linspace`` points times ``theta``'s transpose, by ``bmm``); ``grid_sample``
computes what ATen's 2-d CPU kernel computes, in its order: the unnormalised coordinates
``(x + 1) * size/2 - 1/2`` (``(x + 1) * (size-1)/2`` with ``align_corners``), the four
neighbours' weights ``(1-dy)(1-dx)``, ``(1-dy)dx``, ``dy(1-dx)``, ``dy dx`` and their sum
``nw + ne + sw + se`` left to right, a neighbour outside the image reading 0 (``zeros``) or
the border (``border``).

>>> import minitorch
>>> from minitorch.nn import functional as F
>>> grid = F.affine_grid(minitorch.eye(2, 3)[None], (1, 1, 2, 2), align_corners=False)
>>> grid[0, 0]
tensor([[-0.5000, -0.5000],
        [ 0.5000, -0.5000]])
>>> F.grid_sample(minitorch.arange(4.).view(1, 1, 2, 2), grid, align_corners=False)
tensor([[[[0., 1.],
          [2., 3.]]]])
"""

from __future__ import annotations

import math
import warnings
from typing import Any

from .. import _args
from .._dtype import float16
from .._tensor import Tensor
from ..autograd import grad_mode
from ..ops._base import Op, wrap
from ..ops._grid_sample_order import bilinear_backward, replays
from ..ops.multiply_add import MultiplyAdd

__all__ = ["affine_grid", "grid_sample"]

_DEFAULT_CHANGED = ("Default grid_sample and affine_grid behavior has changed to align_corners="
                    "False since 1.3.0. Please specify align_corners=True if the old behavior "
                    "is desired. See the documentation of grid_sample for details.")


def _align_corners(align_corners: bool | None) -> bool:
    if align_corners is None:
        warnings.warn(_DEFAULT_CHANGED, stacklevel=3)
        return False
    return align_corners


def affine_grid(theta: Tensor, size: Any, align_corners: bool | None = None) -> Tensor:
    """The sampling points ``theta @ (x, y, 1)`` of a regular ``size[-2:]`` grid spanning
    [-1, 1] (3-d: ``size[-3:]``, ``theta`` N×3×4), as (N, H, W, 2) for :func:`grid_sample`.

    >>> F.affine_grid(minitorch.eye(2, 3)[None], (1, 1, 1, 2), align_corners=True)
    tensor([[[[-1.,  0.],
              [ 1.,  0.]]]])
    """
    align_corners = _align_corners(align_corners)
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    dims = len(size) - 2
    if dims not in (2, 3):
        raise NotImplementedError("affine_grid only supports 4D and 5D sizes, for 2D and 3D "
                                  f"affine transforms, respectively. Got size {size}.")
    if theta.dim() != 3 or tuple(theta.shape[-2:]) != (dims, dims + 1):
        raise ValueError(f"Expected a batch of {dims}D affine matrices of shape Nx{dims}x"
                         f"{dims + 1} for size {size}. Got {theta.shape}.")
    spatial = tuple(size[-dims:])
    if align_corners and min(spatial) == 1:
        warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size "
                      "grids when align_corners=True. This is not an intended use case of "
                      "affine_grid. See the documentation of affine_grid for details.",
                      stacklevel=2)
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    _args.parsed("affine_grid_generator", ("tensor", theta, "theta", 1),
                 ("ints", size, "size", 2), ("bool", align_corners, "align_corners", 3))
    return AffineGridGenerator.apply(theta, size=(size[0], *spatial),
                                     align_corners=align_corners)


class AffineGridGenerator(Op):
    """``affine_grid``'s node, ATen's ``affine_grid_generator``: the base grid times
    ``theta``'s transpose; its gradient the base grid's transpose times the incoming one's
    (both by ``bmm``, so a graph of the gradient can be built too)."""

    node_name = "AffineGridGeneratorBackward0"

    @staticmethod
    def forward(ctx: Any, theta: Tensor, *, size: tuple, align_corners: bool) -> Tensor:
        n, *spatial = size
        with grad_mode.no_grad():
            base = _base_grid(theta, n, tuple(spatial), align_corners).view(n, -1,
                                                                             len(spatial) + 1)
            ctx.base, ctx.shape = base, size
            return wrap(base.bmm(theta.transpose(1, 2)).view(n, *spatial, len(spatial))._data)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        base = ctx.base
        g = g.reshape(base.shape[0], base.shape[1], -1)
        return (base.transpose(1, 2).bmm(g).transpose(1, 2),)


def _base_grid(theta: Tensor, n: int, spatial: tuple, align_corners: bool) -> Tensor:
    """ATen's ``make_base_grid``: (N, *spatial, dims + 1) of (x, y[, z], 1), x along the last
    spatial dim."""
    from .. import _creation

    base = _creation.empty((n, *spatial, len(spatial) + 1), dtype=theta.dtype,
                           device=theta.device)
    for axis, steps in enumerate(reversed(spatial)):  # x, then y, then z
        line = _steps_from_minus_one(theta, steps, align_corners)
        base.select(-1, axis).copy_(line.view(-1, *(1,) * axis))
    base.select(-1, len(spatial)).fill_(1)
    return base


def _steps_from_minus_one(theta: Tensor, steps: int, align_corners: bool) -> Tensor:
    from .. import _creation, _factories

    if steps <= 1:
        # ATen's ``at::tensor(0, options)``: its CPU loop has no half-precision dtypes
        if theta.device.type == "cpu" and theta.dtype == float16:
            raise _args.not_implemented("tensor_cpu", theta.dtype)
        return _creation.tensor(0, dtype=theta.dtype, device=theta.device)
    line = _factories.linspace(-1, 1, steps, dtype=theta.dtype, device=theta.device)
    return line if align_corners else line * (steps - 1) / steps


_MODES = ("bilinear", "nearest", "bicubic")
_PADDINGS = ("zeros", "border", "reflection")


def grid_sample(input: Tensor, grid: Tensor, mode: str = "bilinear",
                padding_mode: str = "zeros", align_corners: bool | None = None) -> Tensor:
    """``input`` (N, C, H, W) read at the points ``grid`` (N, Ho, Wo, 2) of [-1, 1]² (x, y):
    (N, C, Ho, Wo), each value interpolated from the neighbouring pixels.

    >>> F.grid_sample(minitorch.ones(1, 1, 2, 2), minitorch.zeros(1, 1, 1, 2),
    ...               align_corners=True)
    tensor([[[[1.]]]])
    """
    if mode not in _MODES:
        raise ValueError("nn.functional.grid_sample(): expected mode to be 'bilinear', "
                         f"'nearest' or 'bicubic', but got: '{mode}'")
    if padding_mode not in _PADDINGS:
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', "
                         f"'border', or 'reflection', but got: '{padding_mode}'")
    align_corners = _align_corners(align_corners)
    _args.parsed("grid_sampler", ("tensor", input, "input", 1), ("tensor", grid, "grid", 2),
                 ("bool", align_corners, "align_corners", 5))
    _check_grid_sample(input, grid, mode)
    if not input.dtype.is_floating_point:  # torch's kernels' dtypes; no kernel when empty
        if not input.numel():
            return input.new_zeros((*input.shape[:2], *grid.shape[1:-1]))
        kernel = "grid_sampler_2d_cpu_kernel_impl" if input.dim() == 4 else "grid_sampler3d_cpu"
        raise _args.not_implemented(kernel, input.dtype)
    if input.dim() != 4 or mode == "bicubic" or padding_mode == "reflection":
        raise NotImplementedError("minitorch's grid_sample reads 4-D inputs, in the modes "
                                  "'bilinear' and 'nearest' with padding 'zeros' or 'border'")
    return GridSampler2d.apply(input, grid, mode=mode, padding_mode=padding_mode,
                               align_corners=align_corners)


class GridSampler2d(Op):
    """``grid_sample``'s node. Its values are the composition :func:`_sampled` (ATen's
    kernel's, in its order); its gradients, where no graph of them is wanted, ATen's backward
    kernel's bits (:mod:`..ops._grid_sample_order`: bilinear float32), else the composition's
    own, which can be differentiated again."""

    node_name = "GridSampler2DBackward0"

    @staticmethod
    def forward(ctx: Any, input: Tensor, grid: Tensor, *, mode: str, padding_mode: str,
                align_corners: bool) -> Tensor:
        ctx.save_for_backward(input, grid)
        ctx.settings = (mode, padding_mode, align_corners)
        with grad_mode.no_grad():
            return wrap(_sampled(input, grid, *ctx.settings)._data)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        from .. import autograd

        input, grid = ctx.saved_tensors
        needs = ctx.needs_input_grad[:2]
        wanted = [t for t, need in zip((input, grid), needs) if need]
        with grad_mode.enable_grad():
            out = _sampled(input, grid, *ctx.settings)
        grads = [None] * len(wanted)  # nearest: the grid's gradient is zero
        if out.requires_grad:  # (nearest from the grid alone: no graph at all)
            grads = autograd.grad(out, wanted, g, create_graph=grad_mode.is_grad_enabled(),
                                  allow_unused=True)
        grads = iter([t.new_zeros(t.shape) if d is None else d for t, d in zip(wanted, grads)])
        return tuple(next(grads) if need else None for need in needs)

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> Any:
        input, grid = ctx.saved_tensors
        mode, padding_mode, align_corners = ctx.settings
        arrays = (g, input._data, grid._data)
        if mode != "bilinear" or not replays(*arrays):
            return NotImplemented
        need_input, need_grid = ctx.needs_input_grad[:2]
        grad_input, grad_grid = bilinear_backward(g, *arrays[1:], padding_mode == "border",
                                                  align_corners, need_input)
        return grad_input, grad_grid if need_grid else None


def _sampled(input: Tensor, grid: Tensor, mode: str, padding_mode: str,
             align_corners: bool) -> Tensor:
    """The kernel's forward as a composition of ops (see the module's docstring)."""
    n, c, h, w = input.shape
    x = _unnormalize(grid.select(-1, 0), w, align_corners, padding_mode)
    y = _unnormalize(grid.select(-1, 1), h, align_corners, padding_mode)
    flat = input.reshape(n, c, h * w)
    if mode == "nearest":
        return _read(flat, x.round(), y.round(), h, w)
    x0, y0 = x.floor(), y.floor()
    dx, dy = x - x0, y - y0
    rx, ry = 1 - dx, 1 - dy
    out = _read(flat, x0, y0, h, w) * (ry * rx).unsqueeze(1)
    for right, below, weight in ((1, 0, ry * dx), (0, 1, dy * rx), (1, 1, dy * dx)):
        out = MultiplyAdd.apply(_read(flat, x0 + right, y0 + below, h, w),
                                weight.unsqueeze(1), out)
    return out


def _check_grid_sample(input: Tensor, grid: Tensor, mode: str) -> None:
    """ATen's ``check_grid_sampler_common`` and ``_2d``/``_3d`` (``_3d``'s: no ``bicubic``
    ``mode``), then its kernel's dtype check, with their messages."""
    def sizes() -> str:
        return f"input with sizes {list(input.shape)} and grid with sizes {list(grid.shape)}"

    if input.device != grid.device:
        raise RuntimeError("grid_sampler(): expected input and grid to be on same device, but "
                           f"input is on {input.device} and grid is on {grid.device}")
    if input.dim() and grid.dim() and input.shape[0] != grid.shape[0]:
        raise RuntimeError("grid_sampler(): expected grid and input to have same batch size, "
                           f"but got {sizes()}")
    if not grid.dim() or grid.shape[-1] != input.dim() - 2:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {input.dim() - 2} in "
                           f"last dimension, but got grid with sizes {list(grid.shape)}")
    for d in range(2, input.dim()):
        if input.shape[d] == 0:
            raise RuntimeError("grid_sampler(): expected input to have non-empty spatial "
                               f"dimensions, but input has sizes {list(input.shape)} with "
                               f"dimension {d} being empty")
    rank = 4 if input.dim() == 4 else 5
    if input.dim() != rank or grid.dim() != rank:
        raise RuntimeError(f"grid_sampler(): expected {rank}D input and grid with same number "
                           f"of dimensions, but got {sizes()}")
    if rank == 5 and mode == "bicubic":
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    if input.dtype != grid.dtype:
        raise RuntimeError(f"expected scalar type {_args.legacy(input.dtype)} but found "
                           f"{_args.legacy(grid.dtype)}")


def _unnormalize(coord: Tensor, size: int, align_corners: bool, padding_mode: str) -> Tensor:
    """A coordinate of [-1, 1] in pixels, as ATen's vector kernel (``border``: clipped)."""
    shifted = coord + 1
    if align_corners:
        pixels = shifted * ((size - 1) / 2)
    else:
        pixels = MultiplyAdd.apply(shifted, _scalar(shifted, size / 2), _scalar(shifted, -0.5))
    return pixels.clamp(0, size - 1) if padding_mode == "border" else pixels


def _scalar(like: Tensor, value: float) -> Tensor:
    return like.new_full((), value)


def _read(flat: Tensor, x: Tensor, y: Tensor, h: int, w: int) -> Tensor:
    """The pixels of ``flat`` (N, C, H*W) at integral ``x``, ``y`` (N, Ho, Wo); 0 outside."""
    from ..ops.pointwise import where

    inside = (x >= 0) & (x < w) & (y >= 0) & (y < h)  # False for a NaN point too
    index = where(inside, y * w + x, 0).long()
    n, c = flat.shape[:2]
    points = math.prod(x.shape[1:])  # not -1: an empty batch leaves it ambiguous
    picked = flat.gather(2, index.view(n, 1, points).expand(n, c, points)).view(n, c, *x.shape[1:])
    return where(inside.unsqueeze(1), picked, picked.new_zeros(()))
