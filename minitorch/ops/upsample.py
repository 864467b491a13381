"""Upsampling by ``nearest`` (and ``nearest-exact``), (bi/tri)``linear`` and ``bicubic``
interpolation over the last one, two or three dims, computed as torch's CPU kernels compute
them: per dim, each output reads a few sources (one, two or four) with weights computed in
the input's float type (float32 for float32), dims nested first outermost
(``h0 * (w0 * x00 + w1 * x01) + h1 * (w0 * x10 + w1 * x11)``), and a backward that adds each
output's share to its sources in output order. A float32 bilinear upsampling to a small
output (height + width at most 128) takes torch's channels-last kernel instead, whose
weights are the corners' products (:func:`_bilinear_channels_last`).

>>> import minitorch
>>> from minitorch.nn import functional as F
>>> F.interpolate(minitorch.tensor([[[1., 2.]]]), scale_factor=2)
tensor([[[1., 1., 2., 2.]]])
"""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from ..backend import index_add
from ._base import Op, wrap
from ._cascade_sum import get_num_threads

__all__ = ["NODES", "Upsample", "cubic_sources", "linear_sources", "nearest_exact_sources",
           "nearest_sources"]


def _scale(xp: Any, dt: Any, size: int, out: int, scale: float | None, align: bool) -> Any:
    """torch's ``area_pixel_compute_scale``: input pixels per output pixel."""
    if align:
        if out <= 1:
            return xp.asarray(0.0, dtype=dt)
        return xp.asarray(size - 1, dtype=dt) / xp.asarray(out - 1, dtype=dt)
    if scale is not None and scale > 0:
        return xp.asarray(1.0 / scale, dtype=dt)
    return xp.asarray(size, dtype=dt) / xp.asarray(out, dtype=dt)


def nearest_sources(xp: Any, size: int, out: int, scale: float | None) -> tuple:
    """Each output's source index (weight one), as torch's ``nearest_idx``."""
    positions = xp.arange(out, dtype=xp.int64)
    if out == size:
        return (positions,), (None,)
    if out == 2 * size:
        return (positions // 2,), (None,)
    step = _scale(xp, xp.float32, size, out, scale, False)
    index = xp.astype(xp.floor(xp.astype(positions, xp.float32) * step), xp.int64)
    return (xp.minimum(index, size - 1),), (None,)


def nearest_exact_sources(xp: Any, size: int, out: int, scale: float | None) -> tuple:
    """Each output's source index, as torch's ``nearest_exact_idx``: the input pixel whose
    centre is nearest, ``floor((i + 0.5) * scale)`` (the product rounded to float32)."""
    step = _scale(xp, xp.float32, size, out, scale, False)
    centres = xp.astype(xp.arange(out, dtype=xp.int64), xp.float64) + 0.5
    index = xp.floor(xp.astype(centres * xp.astype(step, xp.float64), xp.float32))
    return (xp.minimum(xp.astype(index, xp.int64), size - 1),), (None,)


def linear_sources(xp: Any, dt: Any, size: int, out: int, scale: float | None,
                   align: bool) -> tuple:
    """The two source indices and weights of each output, as torch's
    ``compute_indices_weights_linear``."""
    step = _scale(xp, dt, size, out, scale, align)
    positions = xp.astype(xp.arange(out), dt)
    real = positions * step if align else xp.maximum(_fma(xp, step, positions + 0.5, -0.5), 0)
    low = xp.astype(real, xp.int64)
    high = low + xp.astype(low < size - 1, xp.int64)
    upper = xp.clip(real - xp.astype(low, dt), 0, 1)
    return (low, high), (1 - upper, upper)


_A = -0.75  # torch's bicubic convolution constant


def cubic_sources(xp: Any, dt: Any, size: int, out: int, scale: float | None,
                  align: bool) -> tuple:
    """The four source indices (clamped to the input) and weights of each output, as torch's
    ``compute_indices_weights_cubic``: Keys' cubic convolution with A = -0.75 around the
    source position, which is not clamped at 0 as the linear one is."""
    step = _scale(xp, dt, size, out, scale, align)
    positions = xp.astype(xp.arange(out), dt)
    real = positions * step if align else _fma(xp, step, positions + 0.5, -0.5)
    low = xp.minimum(xp.astype(xp.floor(real), xp.int64), size - 1)
    t = xp.clip(real - xp.astype(low, dt), 0, 1)
    weights = (_far(t + 1), _near(t), _near(1 - t), _far((1 - t) + 1))
    return tuple(xp.clip(low + j, 0, size - 1) for j in (-1, 0, 1, 2)), weights


def _near(x: Any) -> Any:
    """The cubic convolution kernel for a source within one pixel."""
    return ((_A + 2) * x - (_A + 3)) * x * x + 1


def _far(x: Any) -> Any:
    """The cubic convolution kernel for a source one to two pixels away."""
    return ((_A * x - 5 * _A) * x + 8 * _A) * x - 4 * _A


class Upsample(Op):
    """``input`` read at ``sources`` (per spatial dim: index arrays and weights, None for
    nearest), weighted and summed in torch's order."""

    _profile_name = "aten::upsample"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, sources: tuple) -> Tensor:
        ctx.meta = (a._data.shape, sources)
        if _channels_last_kernel(a._xp, a._data, sources):
            return wrap(_bilinear_channels_last(a._xp, a._data, sources))
        return wrap(_interpolate(a._xp, a._data, sources))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        shape, sources = ctx.meta
        node = ctx._forward_cls
        return (_BACKS[node].apply(g, shape=shape, sources=sources, node=node),)


NODES = {(mode, dims): type(f"Upsample{name}{dims}D", (Upsample,),
                           {"node_name": f"Upsample{name}{dims}DBackward0",
                            "_profile_name": f"aten::{aten}{dims}d"})
         for mode, dims, name, aten in (
             *(("nearest", d, "Nearest", "upsample_nearest") for d in (1, 2, 3)),
             *(("nearest-exact", d, "NearestExact", "_upsample_nearest_exact")
               for d in (1, 2, 3)),
             ("linear", 1, "Linear", "upsample_linear"),
             ("bilinear", 2, "Bilinear", "upsample_bilinear"),
             ("trilinear", 3, "Trilinear", "upsample_trilinear"),
             ("bicubic", 2, "Bicubic", "upsample_bicubic"))}


class _UpsampleBack(Op):
    """The gradient of an upsampling: each output's share added to its sources. Its own
    gradient is the upsampling ``node`` again, recorded, so that it differentiates further
    (hessians, forward-mode tangents)."""

    @staticmethod
    def forward(ctx: Any, g: Tensor, *, shape: tuple, sources: tuple, node: type) -> Tensor:
        ctx.meta = (sources, node)
        return wrap(_spread(g._xp, g._data, shape, sources))

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        sources, node = ctx.meta
        return (node.apply(gg, sources=sources),)


_BACKS = {node: type(f"{node.__name__}Backward", (_UpsampleBack,),
                     {"node_name": f"{node.__name__}BackwardBackward0",
                      "_profile_name": f"{node._profile_name}_backward"})
          for node in NODES.values()}


def _interpolate(xp: Any, x: Any, sources: tuple) -> Any:
    """``x`` at the sources of its last ``len(sources)`` dims, the first dim outermost."""
    if not sources:
        return x
    (indices, weights), rest = sources[0], sources[1:]
    axis = x.ndim - len(sources)
    parts = [_interpolate(xp, xp.take(x, i, axis=axis), rest) for i in indices]
    if weights[0] is None:
        return parts[0]
    shape = [1] * x.ndim
    shape[axis] = -1
    w = [xp.reshape(xp.astype(v, x.dtype), tuple(shape)) for v in weights]
    if len(parts) == 2:
        return _fma(xp, parts[0], w[0], parts[1] * w[1])
    total = parts[0] * w[0]  # torch's loop: ``out += t_j * w_j``, fused
    for part, weight in zip(parts[1:], w[1:]):
        total = _fma(xp, part, weight, total)
    return total


_LANES = 8  # measured with torch's AVX512 build: its blocks of channels are 8 wide


def _channels_last_kernel(xp: Any, x: Any, sources: tuple) -> bool:
    """Whether torch runs its channels-last bilinear kernel on this NCHW float32 input: for
    a small output (height + width at most 128), or one thread and three channels."""
    if x.ndim != 4 or len(sources) != 2 or len(sources[0][1]) != 2 or x.dtype != xp.float32:
        return False
    out_h, out_w = (indices[0].shape[0] for indices, _ in sources)
    return out_h + out_w <= 128 or (get_num_threads() == 1 and x.shape[1] == 3)


def _bilinear_channels_last(xp: Any, x: Any, sources: tuple) -> Any:
    """torch's channels-last bilinear kernel: each output is four corners times the
    products of their weights (``w01 = h0 * w1``, rounded), added with fused multiply-adds
    in one order on whole vectors of channels and in another on the channels after them.
    Measured against torch 2.13: every bit."""
    (rows, row_w), (cols, col_w) = sources
    h0, h1 = (xp.reshape(xp.astype(w, x.dtype), (-1, 1)) for w in row_w)
    w0, w1 = (xp.reshape(xp.astype(w, x.dtype), (1, -1)) for w in col_w)
    picked = [xp.take(x, r, axis=2) for r in rows]
    i00, i01, i10, i11 = (xp.take(p, c, axis=3) for p in picked for c in cols)
    w00, w01, w10, w11 = h0 * w0, h0 * w1, h1 * w0, h1 * w1
    vectors = x.shape[1] - x.shape[1] % _LANES  # channels in whole vectors
    head = (slice(None), slice(0, vectors), ...)
    tail = (slice(None), slice(vectors, None), ...)
    # vectors: i00*w00 + (i01*w01 + (i10*w10 + i11*w11)), each product but one fused
    in_vectors = _fma(xp, i00[head], w00, _fma(xp, i01[head], w01,
                                               _fma(xp, i11[head], w11, i10[head] * w10)))
    # one channel at a time: ((i00*w00 + i01*w01) + i10*w10) + i11*w11
    one_by_one = _fma(xp, i11[tail], w11, _fma(xp, i10[tail], w10,
                                               _fma(xp, i00[tail], w00, i01[tail] * w01)))
    return xp.concat([in_vectors, one_by_one], axis=1)


def _fma(xp: Any, a: Any, b: Any, c: Any) -> Any:
    """``a * b + c`` rounded once, as torch's compiled kernels fuse it: float32 through
    float64, where the product is exact (float64 has no wider type here: two roundings)."""
    dt = getattr(a, "dtype", None)
    if dt != xp.float32:
        return a * b + c
    wide = [xp.astype(xp.asarray(v, dtype=xp.float32), xp.float64) for v in (a, b, c)]
    return xp.astype(wide[0] * wide[1] + wide[2], xp.float32)


def _spread(xp: Any, g: Any, shape: tuple, sources: tuple) -> Any:
    """Add each output's share of ``g`` to its sources, in torch's loop order (outputs row
    by row, each one's corners in turn; a share is ``(h_weight * w_weight) * g``)."""
    spatial = shape[len(shape) - len(sources):]
    lead = shape[:len(shape) - len(sources)]
    index, weight = _corners(xp, sources, spatial, g.dtype)
    k = index.shape[-1]
    shares = xp.reshape(g, (*lead, index.shape[0], 1))  # (no -1: an empty batch)
    shares = shares if weight is None else shares * weight
    out = xp.zeros((*lead, _count(spatial)), dtype=g.dtype)
    values = xp.moveaxis(xp.reshape(xp.broadcast_to(shares, (*lead, index.shape[0], k)),
                                    (*lead, index.shape[0] * k)), -1, 0)
    target = xp.moveaxis(out, -1, 0)  # a view: adding into it fills ``out``
    index_add(xp, target, xp.reshape(index, (-1,)), values)
    return xp.reshape(out, shape)


def _count(sizes: tuple) -> int:
    n = 1
    for s in sizes:
        n *= s
    return n


def _corners(xp: Any, sources: tuple, spatial: tuple, dt: Any) -> tuple:
    """Every output's (row-major) source corners: flat indices and weights (None for
    nearest), shape ``(outputs, corners)``."""
    index = weight = None
    for (indices, weights), size in zip(sources, spatial):
        idx = xp.stack(indices, axis=-1)  # (out, k)
        w = None if weights[0] is None else xp.stack([xp.astype(v, dt) for v in weights], -1)
        if index is None:
            index, weight = idx, w
            continue
        n, k = index.shape
        m, j = idx.shape
        index = xp.reshape(index[:, None, :, None] * size + idx[None, :, None, :],
                           (n * m, k * j))
        if w is not None:
            weight = xp.reshape(weight[:, None, :, None] * w[None, :, None, :], (n * m, k * j))
    return index, weight
