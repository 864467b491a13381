"""torch's CPU ``grid_sampler_2d`` backward (bilinear), bit for bit: the order in which its
vectorised kernel adds the gradients of the image and of the grid.

The kernel walks each image's output positions in vectors of 8 (its AVX2 build: measured on
an AVX-512 CPU too; a contiguous grid's positions flattened, else row by row) and, per
vector, the channels in order:

* the grid's gradient of each position is one chain over the channels, each step a fused
  multiply-add of ``((ne - nw) * s + (se - sw) * n)`` (itself the fused
  ``(se - sw) * n + round((ne - nw) * s)``, as the compiler contracts it) times the
  output's gradient; ``y`` alike with ``(sw - nw) * e + (se - ne) * w``; at the end times
  ``d x / d grid`` (``size / 2``, or ``(size - 1) / 2`` with ``align_corners``; 0 where
  ``border`` clips).
* the image's gradient is scattered: per vector and channel, the corner ``nw`` of every
  lane, then ``ne``, ``sw``, ``se``, each ``round(weight * grad)`` added in float32 where
  the corner is inside the image. A pixel read by several positions therefore sums their
  shares in (vector, corner, lane) order, which :func:`bilinear_backward` repeats with one
  unbuffered ``add.at`` over that sequence.

>>> import numpy as np
>>> g = np.ones((1, 1, 1, 1), np.float32)
>>> gi, gg = bilinear_backward(g, np.ones((1, 1, 2, 2), np.float32),
...                            np.zeros((1, 1, 1, 2), np.float32), False, True, True)
>>> gi.ravel().tolist(), gg.ravel().tolist()
([0.25, 0.25, 0.25, 0.25], [0.0, 0.0])
"""

from __future__ import annotations

import numpy as np

__all__ = ["bilinear_backward", "replays"]

_F32, _F64 = np.float32, np.float64
_LANES = 8  # the kernel's float32 vector


def replays(*arrays: object) -> bool:
    """Whether torch's order can be replayed on ``arrays``: float32 numpy arrays, the first
    (the output's gradient) not empty; any other array module takes the composition's
    backward."""
    return (all(type(a) is np.ndarray and a.dtype == _F32 for a in arrays)
            and arrays[0].size > 0)


def _fma(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """``round(a * b + c)`` of float32 arrays (the float64 product is exact)."""
    return (a.astype(_F64) * b + c).astype(_F32)


def _location(coord: np.ndarray, size: int, align_corners: bool,
              border: bool) -> tuple[np.ndarray, np.ndarray]:
    """The pixel coordinate of grid values and its derivative, as the kernel's
    ``apply_get_grad``: the fused ``(g + 1) * size/2 - 0.5`` (or ``(g + 1) * (size-1)/2``),
    ``border`` clipping to [0, size - 1] with derivative 0 at and beyond both ends."""
    shifted = coord + _F32(1)
    if align_corners:
        scale = _F32((size - 1) / 2)
        pixels = shifted * scale
    else:
        scale = _F32(size / 2)
        pixels = _fma(shifted, scale, np.full_like(shifted, -0.5))
    multiplier = np.full_like(pixels, scale)
    if border:
        low = np.maximum(pixels, _F32(0))
        pixels = np.minimum(low, _F32(size - 1))
        multiplier = np.where((low != 0) & (pixels != size - 1), multiplier, _F32(0))
    return pixels, multiplier


def _positions_in_order(grid: np.ndarray) -> np.ndarray:
    """The kernel's vectors of output positions (flat indices into Ho*Wo), ``-1`` padding a
    short last vector: over the flattened positions when the grid's rows follow each other
    in memory, else row by row."""
    _, ho, wo, _ = grid.shape
    step = _LANES
    stride_h, stride_w = (s // grid.itemsize for s in grid.strides[1:3])
    rows_joined = grid.flags.c_contiguous or ((stride_w == 1 or wo == 1)
                                              and (stride_h == wo * stride_w or ho == 1))
    runs = [np.arange(ho * wo)] if rows_joined else [np.arange(wo) + h * wo for h in range(ho)]
    vectors = []
    for run in runs:
        padded = np.full(-(-len(run) // step) * step, -1)
        padded[:len(run)] = run
        vectors.append(padded.reshape(-1, step))
    return np.concatenate(vectors)


def bilinear_backward(grad: np.ndarray, image: np.ndarray, grid: np.ndarray, border: bool,
                      align_corners: bool, need_image: bool
                      ) -> tuple[np.ndarray | None, np.ndarray]:
    """The gradients of the image (None unless ``need_image``) and of the grid of a bilinear
    ``grid_sample`` (padding ``zeros`` or ``border``) of float32 arrays, in the CPU kernel's
    order (see the module's docstring)."""
    n, c, h, w = image.shape
    ho, wo = grid.shape[1:3]
    x, x_mult = _location(grid[..., 0], w, align_corners, border)
    y, y_mult = _location(grid[..., 1], h, align_corners, border)
    x_w, y_n = np.floor(x), np.floor(y)
    west, north = x - x_w, y - y_n  # distances to the west and north sides
    east, south = _F32(1) - west, _F32(1) - north
    corners = []  # (flat index, inside, weight) of nw, ne, sw, se
    for dy, dx, weight in ((0, 0, south * east), (0, 1, south * west),
                           (1, 0, north * east), (1, 1, north * west)):
        col, row = x_w.astype(np.int64) + dx, y_n.astype(np.int64) + dy
        inside = (col >= 0) & (col < w) & (row >= 0) & (row < h)
        corners.append((np.where(inside, row * w + col, 0), inside, weight))
    flat = image.reshape(n, c, h * w)
    picks = [np.where(inside[:, None], np.take_along_axis(
        flat, index.reshape(n, 1, -1).repeat(c, 1), 2).reshape(n, c, ho, wo), _F32(0))
        for index, inside, _ in corners]
    nw, ne, sw, se = picks
    grad_x = np.zeros((n, ho, wo), _F32)
    grad_y = np.zeros((n, ho, wo), _F32)
    for ch in range(c):  # each position's chain over the channels
        g = grad[:, ch]
        across = _fma(se[:, ch] - sw[:, ch], north, (ne[:, ch] - nw[:, ch]) * south)
        down = _fma(se[:, ch] - ne[:, ch], west, (sw[:, ch] - nw[:, ch]) * east)
        grad_x, grad_y = _fma(across, g, grad_x), _fma(down, g, grad_y)
    grad_grid = np.stack([grad_x * x_mult, grad_y * y_mult], axis=-1)
    if not need_image:
        return None, grad_grid
    return _scattered(grad, corners, _positions_in_order(grid), (n, c, h, w)), grad_grid


def _scattered(grad: np.ndarray, corners: list, vectors: np.ndarray,
               shape: tuple) -> np.ndarray:
    """The image's gradient: every inside corner's ``round(weight * grad)`` added in float32,
    in (vector, corner, lane) order."""
    n, c, h, w = shape
    # per vector: each corner's lanes in turn; a padding lane (-1) is left out
    order = np.stack([vectors] * len(corners), axis=1)  # (vectors, corner, lane)
    which = np.broadcast_to(np.arange(len(corners))[None, :, None], order.shape)
    keep = order >= 0
    order, which = order[keep], which[keep]
    index, inside, weight = (np.stack([corner[part].reshape(n, -1) for corner in corners], 1)
                             [:, which, order] for part in range(3))  # (N, sequence)
    shares = weight[:, None] * grad.reshape(n, c, -1)[:, :, order]  # (N, C, sequence)
    total = np.zeros((n, c, h * w), _F32)
    channels = np.arange(c)[:, None]
    for i in range(n):  # the kernel's threads take whole images: their sums never meet
        mask = inside[i]
        np.add.at(total[i], (channels, index[i][None, mask]), shares[i][:, mask])
    return total.reshape(n, c, h, w)
