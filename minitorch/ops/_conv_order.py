"""torch's CPU float32 convolution, bit for bit: which kernel torch runs, and the order in which
that kernel adds.

A convolution's output is a sum of ``C/G * kh * kw`` products; float addition is not
associative, so the order of that sum decides the last bits. torch (``use_mkldnn`` in ATen's
Convolution.cpp) gives a float32 convolution to oneDNN, except a single image with a kernel
of at most 3 in some dim, no groups and at most 20480 input values, which its own
``slow_conv2d`` computes. The kernels this module repeats:

* ``slow``: ``slow_conv2d`` (ConvolutionMM2d.cpp), per image im2col and MKL's gemm; its
  calls are repeated with :mod:`minitorch._mkl`, so their bits are MKL's own.
* ``direct``: oneDNN's direct convolution (``jit:avx512_core``, ``jit:avx2``): each output
  a chain of fused multiply-adds (one rounding each), kernel rows, then kernel columns,
  then channels, over the input channels in blocks of 16; the first block's chain plus the
  bias, then each later block's chain added. ``grad_input`` likewise over the output
  channels (strided: oneDNN's brgemm kernel, one chain over all of them, or one per kernel
  column when the last windows leave input columns over). ``grad_weight`` a chain over
  images, output rows, output columns, the images (or, past 9 output rows, the rows of all
  images) split between threads as oneDNN's ``balance()`` splits them (AVX-512 kernel) or
  its reduction balancer (the AVX2 kernel it takes for 4 to 15 input channels), the
  threads' chains then added; ``grad_bias`` plain adds in that order, split as the weights
  (rows) or by the reduction balancer (images).
* ``1x1``: oneDNN's 1x1 kernel (no padding; strided only where the strides tile the image,
  which it first copies to a dense one): one chain that starts from the bias;
  ``grad_input`` one chain over all output channels; ``grad_weight`` one chain per block of
  an image's positions, the blocks' sums added, the blocks shared between threads as its
  ``balance()`` shares them. Its depthwise kernel
  (``jit_dw``, as many groups as channels) likewise starts from the bias, and its
  ``grad_input`` is the direct one's.
* ``gemm``: oneDNN's im2col and its own sgemm (``gemm:jit``), taken for padding as large as
  the kernel and for padded 1x1 kernels: one chain per output in im2col order
  (channel, kernel row, kernel column), cut into the sgemm's blocks of ``k`` whose chains
  are added, then the bias; ``grad_input`` alike over the output channels, then col2im.

A fused multiply-add is ``round(acc + a * b)``: here the product and sum in float64 (the
product of two float32 is exact there) rounded to float32, which differs from the hardware's
single rounding only when the float64 sum lands on a float32 tie, a chance below 1e-8.
A chain is sequential, but a kernel's chains are independent until their sums are added:
every output's, and every block's (or kernel column's, or thread's) of one output, so one
numpy call takes one step of all of them. A tap that reads padding is skipped, as oneDNN's
kernels skip it (a zero product would turn an inf weight into nan, a -0 bias into +0).

oneDNN chooses among its kernels by shape; :func:`plan` names the kernel it runs for each of
forward, grad_input and grad_weight, as measured against torch 2.13 (oneDNN 3.12) with
``ONEDNN_VERBOSE=1`` on an AVX-512 CPU. The cases it does not know (``None``) keep numpy's
products, within rounding of torch's: grouped convolutions' gradients (but a depthwise
grad_input) and their forward on oneDNN's direct kernels for groups or with dilation (see
:func:`_grouped_plan`), the weight gradient of
oneDNN's gemm kernel (padding as large as the kernel, padded 1x1 kernels,
dilation with stride or with 4 to 15 channels), dilated single images
(``slow_conv_dilated2d``), and every oneDNN kernel on CPUs without AVX-512. Known misses of
a claimed part, measured over random shapes on two threads: about one strided
``grad_input`` in a hundred (a single image, the ``columns`` kernel).

>>> import numpy as np
>>> x = np.ones((2, 1, 3, 3), np.float32)
>>> w = np.full((1, 1, 2, 2), 0.5, np.float32)
>>> plan(x.shape, w.shape, ((1, 1), (0, 0), (1, 1)), 1).forward in ("direct", None)
True
>>> direct_forward(x, w, np.float32([1]), ((1, 1), (0, 0), (1, 1)), 1, 16)[0, 0]
array([[3., 3.],
       [3., 3.]], dtype=float32)
"""

from __future__ import annotations

import contextvars
from concurrent.futures import ThreadPoolExecutor
from functools import cache, lru_cache
from itertools import pairwise
from math import prod
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from .. import _mkl
from ._cascade_sum import _in_order, get_num_threads
from ._softmax_order import lanes

__all__ = ["Plan", "direct_forward", "direct_grad_input", "direct_grad_weight", "gemm_blocks",
           "gemm_forward", "gemm_grad_input", "plan", "plan_of", "reduce_block_1x1",
           "slow_forward", "slow_grad_input", "slow_grad_weight"]

Pair = tuple[int, int]
Geometry = tuple[Pair, Pair, Pair]  # stride, padding, dilation
_F64 = np.float64


class Plan(NamedTuple):
    """The kernel torch runs for each part of one convolution, None where this module does
    not repeat it. ``forward``: ``"slow"``, ``"direct"``, ``"bias-first"`` (one chain that
    starts from the bias: oneDNN's 1x1 and depthwise kernels) or ``"gemm"``;
    ``grad_input``: ``"slow"``, ``"direct"`` (blocks of 16 output channels), ``"chain"``
    (one chain over all of them: oneDNN's 1x1 and strided brgemm kernels) or ``"columns"``
    (a chain per kernel column: the strided kernel when columns are left over) or
    ``"gemm"``; ``grad_weight`` (with the bias's): ``"slow"``, ``"direct"`` or ``"1x1"``,
    with ``weight_lanes`` the direct kernel's vector width (oneDNN may take its AVX2 kernel
    there). oneDNN's gemm backward-weights kernel is not repeated."""

    forward: str | None
    grad_input: str | None
    grad_weight: str | None
    weight_lanes: int = 16


_NONE = Plan(None, None, None)


def plan_of(x: Any, w: Any, b: Any, geometry: Geometry, groups: int) -> Plan | None:
    """:func:`plan` for float32 numpy arrays (an input, weights and a bias or None); None for
    any other arrays: CuPy keeps its own sums, float64 numpy's.

    >>> plan_of(np.ones((1, 3, 8, 8)), np.ones((4, 3, 3, 3)), None, ((1, 1),) * 3, 1) is None
    True
    """
    arrays = (x, w) if b is None else (x, w, b)
    if any(type(a) is not np.ndarray or a.dtype != np.float32 for a in arrays) or x.ndim != 4:
        return None
    return plan(x.shape, w.shape, geometry, groups)


def plan(x_shape: tuple, w_shape: tuple, geometry: Geometry, groups: int) -> Plan:
    """Which kernel computes each part of a float32 CPU convolution in torch.

    >>> plan((1, 3, 8, 8), (4, 3, 3, 3), ((1, 1), (1, 1), (1, 1)), 1)
    Plan(forward='slow', grad_input='slow', grad_weight='slow', weight_lanes=16)
    """
    return _plan(tuple(x_shape), tuple(w_shape), geometry, groups, get_num_threads())


@lru_cache(maxsize=256)
def _plan(x_shape: tuple, w_shape: tuple, geometry: Geometry, groups: int,
          threads: int) -> Plan:
    (sh, sw), (ph, pw), (dh, dw) = geometry
    n, c, h, w = x_shape
    kh, kw = w_shape[2:]
    strided, dilated, one = (sh, sw) != (1, 1), (dh, dw) != (1, 1), (kh, kw) == (1, 1)
    # ATen's use_mkldnn: oneDNN unless torch's own kernel is faster
    onednn = ((strided or dilated or n >= 16 or not one or threads > 1)
              and (groups > 1 or (kh > 3 and kw > 3) or n > 1 or n * c * h * w > 20480))
    if not onednn:  # slow_conv2d, one per group (its grouped weight gradient not repeated)
        return _NONE if dilated else Plan("slow", "slow", "slow" if groups == 1 else None)
    if lanes() != 16:
        return _NONE
    if groups > 1:
        return _grouped_plan(c // groups, w_shape[0] // groups, geometry, (kh, kw))
    # strided gradients of the input: oneDNN's brgemm kernel, unless dilated
    columns_left = (w + 2 * pw - dw * (kw - 1) - 1) % sw
    strided_input = None if dilated else "columns" if columns_left else "chain"
    unpadded = (ph, pw) == (0, 0)
    if one and unpadded and h % sh == 0 and w % sw == 0:
        # oneDNN's 1x1 kernel; strided, it first copies the inputs its windows read into a
        # dense image ("reduce to unit stride"), which needs the strides to tile the image
        return Plan("bias-first", strided_input if strided else "chain", "1x1")
    if (one and not unpadded) or ph >= kh or pw >= kw:  # oneDNN's gemm convolution
        return Plan("gemm", strided_input if strided else "gemm", None)
    if strided and dilated:
        return Plan("direct", "gemm", None)
    grad_input = strided_input if strided else "direct"
    within = ph <= (kh - 1) // 2 and pw <= (kw - 1) // 2
    if c in (1, 2, 3) or (c >= 16 and within):  # a first layer, or whole blocks of 16
        return Plan("direct", grad_input, "direct", 16)
    return Plan("direct", grad_input, None if dilated else "direct", 8)


def _grouped_plan(cg: int, og: int, geometry: Geometry, kernel: Pair) -> Plan:
    """Grouped convolutions, forward only: oneDNN's depthwise kernel (``jit_dw``: from the
    bias; grad_input as the direct kernel's) or its gemm kernel, taken when the groups are
    not whole vectors of 4 channels (nor 1 to 3 input channels to 8 outputs); its direct
    kernels for groups add in another order, not repeated, nor is anything dilated."""
    (ph, pw), (dh, dw) = geometry[1:]
    if (dh, dw) != (1, 1):
        return _NONE
    if cg == og == 1 and ph < kernel[0] and pw < kernel[1]:
        return Plan("bias-first", "direct", None)
    if (og % 4 == 0 and cg % 4 == 0) or (cg in (1, 2, 3) and og % 8 == 0):
        return _NONE
    return Plan("gemm", None, None)


def _fma(acc: np.ndarray, a: np.ndarray, b: np.ndarray, scratch: Any = None) -> None:
    """``acc = round(acc + a * b)`` in place, a fused multiply-add on float32 arrays (or their
    float64 copies); ``scratch``: a flat float64 array of at least ``acc.size`` values to reuse
    for ``a * b``. The product goes to its first values, contiguous even where ``acc`` is a
    strided slice (a window's outputs): numpy's add then reads one operand straight through,
    a quarter faster on the windows of a padded image, and the same bits."""
    product = None if scratch is None else scratch[:acc.size].reshape(acc.shape)
    np.add(acc, np.multiply(a, b, dtype=_F64, out=product), out=acc, casting="unsafe")


def _windows(shape: tuple, kernel: Pair, geometry: Geometry) -> list[tuple]:
    """One key per kernel offset (row-major): the strided slice of the padded image that
    the offset reads in every window."""
    from .conv import _slices  # the forward's own geometry

    return _slices(shape, kernel, geometry)


def _padded(x: np.ndarray, padding: Pair) -> np.ndarray:
    ph, pw = padding
    return np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw))) if ph or pw else x


Reads = tuple[tuple[slice, slice], tuple[slice, slice]]  # outputs, padded input's values


def _inside(size: int, out: int, offset: int, stride: int, pad: int,
            dilation: int) -> tuple[slice, slice] | None:
    """Along one dim, at kernel ``offset``: the outputs whose windows read the input itself
    rather than its padding, and the padded input's positions they read (None: no output)."""
    start = offset * dilation
    low = max(0, -((start - pad) // stride))
    high = min(out, (pad + size - 1 - start) // stride + 1)
    if high <= low:
        return None
    return slice(low, high), slice(start + low * stride, start + (high - 1) * stride + 1, stride)


def _reads(x_shape: tuple, kernel: Pair, geometry: Geometry, out_hw: Pair) -> list[Reads | None]:
    """Per kernel offset (row-major) the outputs (rows, columns) whose windows read the input
    there, and the padded input's values they read; None where all read padding: oneDNN's
    kernels skip the padding's products (no ``0 * inf``; a -0 bias stays -0)."""
    (sh, sw), (ph, pw), (dh, dw) = geometry
    rows = [_inside(x_shape[2], out_hw[0], i, sh, ph, dh) for i in range(kernel[0])]
    cols = [_inside(x_shape[3], out_hw[1], j, sw, pw, dw) for j in range(kernel[1])]
    return [None if r is None or c is None else ((r[0], c[0]), (r[1], c[1]))
            for r in rows for c in cols]


def _blocked(a: np.ndarray, axis: int, width: int) -> np.ndarray:
    """``a`` with its ``axis`` cut into (blocks, ``width``), the last block padded with zeros:
    the blocks' chains, which oneDNN runs one after another, run side by side here."""
    size = a.shape[axis]
    blocks = -(-size // width)
    if blocks * width != size:
        pad = [(0, 0)] * a.ndim
        pad[axis] = (0, blocks * width - size)
        a = np.pad(a, pad)
    return a.reshape(*a.shape[:axis], blocks, width, *a.shape[axis + 1:])


def _live(blocks: int, size: int, width: int) -> list[int]:
    """Per step of a block's chain, how many of the ``blocks`` (of ``size`` channels in all)
    take part: a shorter last block leaves once its channels are spent."""
    last = size - (blocks - 1) * width
    return [blocks if i < last else blocks - 1 for i in range(width)]


_CACHED = 1 << 17  # values of a step's arrays that stay in a core's cache (float64 and float32)
_MOST = 1 << 24  # values in a kernel's chains side by side (128 MiB of float64 products)


def _tiles(chains: int, images: int, per_chain: int) -> list[tuple[slice, slice]]:
    """A kernel's ``chains`` (blocks, columns) of ``images`` images (``per_chain`` values
    each) in tiles of at most ``_CACHED`` values: a tile runs its chains from first step to
    last before the next tile starts, so that its sums and products stay in a core's cache
    rather than stream through memory at every step (several times faster); every chain
    still adds in its own order, so the bits are the same.

    >>> _tiles(4, 3, _CACHED // 2)
    [(slice(0, 2, None), slice(0, 1, None)), (slice(0, 2, None), slice(1, 2, None)), \
(slice(0, 2, None), slice(2, 3, None)), (slice(2, 4, None), slice(0, 1, None)), \
(slice(2, 4, None), slice(1, 2, None)), (slice(2, 4, None), slice(2, 3, None))]
    """
    per_tile = max(1, _CACHED // max(1, per_chain))
    chain_step = min(chains, per_tile)
    image_step = max(1, per_tile // chain_step)
    return [(slice(c, c + chain_step), slice(i, i + image_step))
            for c in range(0, chains, chain_step) for i in range(0, images, image_step)]


def _each_tile(work: Any, tiles: list) -> None:
    """``work(chains, images)`` for every tile of :func:`_tiles`. Tiles are independent (each
    its own chains from first step to last), so as many run at once as torch would use threads
    (numpy lets go of the GIL inside each step); which thread runs a tile changes no bit. Each
    runs in a copy of the caller's context: numpy's error state is a context variable."""
    threads = min(get_num_threads(), len(tiles))
    if threads < 2:
        for tile in tiles:
            work(*tile)
        return
    context = contextvars.copy_context()
    pool = ThreadPoolExecutor(threads)  # a pool a call: nothing left over for a fork
    try:
        for done in [pool.submit(context.copy().run, work, *tile) for tile in tiles]:
            done.result()
    finally:  # an error or a ^C in one tile: the tiles not started yet are not run
        pool.shutdown(cancel_futures=True)


def _live_in(live: int, chains: slice) -> int:
    """Of the first ``live`` chains, how many fall in the tile ``chains`` (a prefix of it)."""
    return max(0, min(live, chains.stop) - chains.start)


def _batch_parts(n: int, per_image: int) -> list[slice]:
    """The batch in parts whose chains hold at most ``_MOST`` values: all blocks' chains
    side by side take that many times one chain's memory (images are independent)."""
    step = max(1, _MOST // per_image)
    return [slice(start, start + step) for start in range(0, n, step)]


def reduce_block_1x1(reduce_dim: int, load_dim: int, rows: int, positions: int, images: int,
                     threads: int) -> int:
    """How many channels oneDNN's 1x1 kernel (``jit_avx512_common_1x1``, forward and
    backward-data) sums in one chain: its ``reduce_blocking``. The forward reduces over the
    input channels (``load_dim`` the output channels), backward-data over the output channels;
    ``rows`` the image's rows, ``positions`` its rows times columns. The first block's chain
    starts from the bias, each later block's chain from zero and is added to the sum so far.

    >>> reduce_block_1x1(192, 96, 12, 144, 32, 2), reduce_block_1x1(192, 96, 8, 64, 32, 2)
    (80, 192)
    """
    if (8 * images) // threads >= 1:  # the kernel broadcasts explicitly
        if load_dim <= 256 and 10 < rows < 28:
            block = min(reduce_dim, 80)
        else:
            block = min(reduce_dim, 512 if rows > 10 else 256)
        ur = _unroll_1x1(load_dim, rows, positions, (6, 5) if 128 < load_dim < 256
                         and 10 < rows < 28 else (9, 6))
    else:
        blocks = -(-reduce_dim // 16)
        most = blocks if reduce_dim < 1024 else 16 if rows <= 10 else 8
        block = _best_divider(blocks, 1, most) * 16
        ur = _unroll_1x1(load_dim, rows, positions, (30, 9))
    return _unaliased_block(block, positions, ur)


def _unroll_1x1(load_dim: int, rows: int, positions: int, regs: Pair) -> int:
    """The kernel's ``ur``: how many image positions one register block holds."""
    most, least = regs
    for ur in range(most, least - 1, -1):
        if (rows >= 14 and rows % ur == 0) or (rows < 14 and positions % ur == 0):
            return ur
    ur, tail = min(most, positions), positions % most
    for i in range(most, least - 1, -1):
        if positions % i > tail or positions % i == 0:
            ur, tail = i, positions % i
            if tail == 0:
                break
    return ur


def _unaliased_block(block: int, positions: int, ur: int) -> int:
    """The kernel's check of L2 cache aliasing: a smaller block where the block's image rows
    would hit one cache set too often (64 KiB ways, at most 7 hits)."""
    way, hits_most = 16384, 7
    if positions * block <= way * hits_most:
        return block
    rows_of_16, stride = block // 16, way // 16
    for start in range(ur):
        off, hits = start, 0
        while off < positions * rows_of_16:
            if off % positions < ur:
                hits += 1
                if hits >= hits_most:
                    block = min(block, 16 * max(1, (off + stride) // positions))
                    break
            off += stride
    return block


def _best_divider(value: int, least: int, most: int) -> int:
    """oneDNN's ``best_divider(find_max=true)``: the divider in [least, most] that wastes the
    smallest share of ``value`` rounded up to it, the largest one on ties."""
    most = max(1, min(most, value))
    least = max(1, min(least, most))
    best, best_loss = most, float("inf")
    for divider in range(most, least - 1, -1):
        padded = -(-value // divider) * divider
        loss = (padded - value) / padded
        if loss < best_loss:
            best, best_loss = divider, loss
    return best


def direct_forward(x: np.ndarray, w: np.ndarray, b: np.ndarray | None, geometry: Geometry,
                   groups: int, width: int, bias_first: bool = False) -> np.ndarray:
    """oneDNN's direct convolution: per block of ``width`` input channels a fused chain over
    kernel rows, kernel columns, channels; the first block's plus the bias, then the others.
    ``bias_first``: oneDNN's 1x1 kernel, chains over :func:`reduce_block_1x1` channels, the
    first from the bias.

    >>> x, w = np.ones((1, 1, 2, 2), np.float32), np.ones((1, 1, 2, 2), np.float32)
    >>> direct_forward(x, w, None, ((1, 1), (0, 0), (1, 1)), 1, 16).ravel()
    array([4.], dtype=float32)
    """
    n, o = x.shape[0], w.shape[0]
    keys = _windows(x.shape, w.shape[2:], geometry)
    padded = _padded(x, geometry[1])
    cg = w.shape[1]
    oh, ow = padded[keys[0]].shape[-2:]
    if bias_first:  # oneDNN's 1x1 kernel (one chain: its depthwise kernel)
        width = cg if groups > 1 else reduce_block_1x1(cg, o, oh, oh * ow, n,
                                                       get_num_threads())
    outs = [_direct_forward(padded[part], w, b, geometry, groups, width, bias_first,
                            x.shape[2:]) for part in _batch_parts(n, -(-cg // width) * o * oh * ow)]
    return outs[0] if len(outs) == 1 else np.concatenate(outs)


def _direct_forward(padded: np.ndarray, w: np.ndarray, b: np.ndarray | None,
                    geometry: Geometry, groups: int, width: int, bias_first: bool,
                    image: Pair) -> np.ndarray:
    """:func:`direct_forward` of the padded images ``padded`` (each ``image`` rows by
    columns before padding), all blocks' chains side by side."""
    n, o = padded.shape[0], w.shape[0]
    x_shape = (n, padded.shape[1], *image)
    keys = _windows(x_shape, w.shape[2:], geometry)
    cg, og = w.shape[1], o // groups
    oh, ow = padded[keys[0]].shape[-2:]
    # all blocks' chains side by side, output channels last (numpy's inner loop runs along
    # them); per channel of a block (blocks, N, G, H, W, 1) images, and per kernel offset
    # (blocks, 1, G, 1, 1, O/G) weights, in float64 once rather than at every step
    images = _blocked(padded.reshape(n, groups, cg, *padded.shape[2:]), 2, width)
    images = images.transpose(3, 2, 0, 1, 4, 5).astype(_F64)[..., None]
    taps = _blocked(w.reshape(groups, og, cg, len(keys)), 2, width)
    taps = np.ascontiguousarray(taps.transpose(3, 4, 2, 0, 1), _F64)
    taps = taps[:, :, :, None, :, None, None, :]
    blocks = images.shape[1]
    acc = np.zeros((blocks, n, groups, oh, ow, og), np.float32)
    if bias_first and b is not None:  # the first block's chain starts from the bias
        acc[0] = b.reshape(groups, 1, 1, og)
        b = None
    live = _live(blocks, cg, width)
    reads = [(k, r) for k, r in enumerate(_reads(x_shape, w.shape[2:], geometry, (oh, ow)))
             if r is not None]

    def run(chains: slice, part: slice) -> None:
        tile = acc[chains, part]
        product = np.empty(tile.size)
        for k, (outs, ins) in reads:
            for ci, m in enumerate(live):
                m = _live_in(m, chains)
                _fma(tile[:m, :, :, outs[0], outs[1]],
                     images[ci, chains.start:chains.start + m, part, :, ins[0], ins[1]],
                     taps[ci, k, chains.start:chains.start + m], product)

    _each_tile(run, _tiles(blocks, n, prod(acc.shape[2:])))
    first = acc[0] if b is None else acc[0] + b.reshape(groups, 1, 1, og)
    out = _parts_sum([first, *acc[1:]]).transpose(0, 1, 4, 2, 3)
    return np.ascontiguousarray(out).reshape(n, o, oh, ow)


def direct_grad_input(g: np.ndarray, w: np.ndarray, x_shape: tuple, geometry: Geometry,
                      groups: int, width: int, per_column: bool = False) -> np.ndarray:
    """oneDNN's direct backward-data: each input value a fused chain over kernel rows, kernel
    columns, output channels, in blocks of ``width`` output channels added in turn.
    ``per_column``: one chain per kernel column instead (over its rows, then all output
    channels), the columns' chains added in turn (oneDNN's strided brgemm kernel when the
    last windows leave input columns over).

    >>> g, w = np.ones((1, 1, 1, 1), np.float32), np.ones((1, 1, 2, 2), np.float32)
    >>> direct_grad_input(g, w, (1, 1, 2, 2), ((1, 1), (0, 0), (1, 1)), 1, 16).ravel()
    array([1., 1., 1., 1.], dtype=float32)
    """
    n, c, h, wd = x_shape
    (ph, pw), kh, kw = geometry[1], *w.shape[2:]
    og, cg = g.shape[1] // groups, w.shape[1]
    chains = kw if per_column else -(-og // width)
    parts = _batch_parts(n, chains * c * (h + 2 * ph) * (wd + 2 * pw))
    if len(parts) > 1:
        return np.concatenate([direct_grad_input(g[part], w, (len(range(n)[part]), c, h, wd),
                                                 geometry, groups, width, per_column)
                               for part in parts])
    # input channels last (numpy's inner loop runs along them); per output channel
    # (N, G, OH, OW, 1) gradients and (kh, kw, 1, G, 1, 1, C/G) weights, in float64 once
    grads = g.reshape(n, groups, og, *g.shape[2:]).transpose(2, 0, 1, 3, 4).astype(_F64)
    taps = np.ascontiguousarray(w.reshape(groups, og, cg, kh, kw).transpose(1, 3, 4, 0, 2), _F64)
    shape = (n, groups, h + 2 * ph, wd + 2 * pw, cg)
    grads, taps = grads[..., None], taps[:, :, :, None, :, None, None]
    if per_column:
        keys = [key[2:] for key in _windows(x_shape, (kh, kw), geometry)]
        chains = _column_chains(grads, taps, shape, keys)
    else:  # the values only padding would get are cut off: skipped
        reads = _reads(x_shape, (kh, kw), geometry, g.shape[2:])
        chains = _block_chains(grads, taps, shape, reads, width)
    total = _parts_sum(chains).transpose(0, 1, 4, 2, 3).reshape(n, c, *shape[2:4])
    return total[:, :, ph:ph + h, pw:pw + wd]


def _block_chains(grads: np.ndarray, taps: np.ndarray, shape: tuple,
                  reads: list[Reads | None], width: int) -> list[np.ndarray]:
    """:func:`direct_grad_input`'s chains, one per block of ``width`` output channels, side
    by side in one array: their sums (each of the padded input's ``shape``) in block order."""
    og, kw = len(grads), taps.shape[2]
    grads, taps = _blocked(grads, 0, width), _blocked(taps, 0, width)
    acc = np.zeros((len(grads), *shape), np.float32)
    live = _live(len(grads), og, width)
    reads = [(k, r) for k, r in enumerate(reads) if r is not None]

    def run(chains: slice, part: slice) -> None:
        tile = acc[chains, part]
        first = chains.start
        product = np.empty(prod((*tile.shape[:3], *grads.shape[-3:-1], shape[-1])))
        for k, ((rows, cols), ins) in reads:
            row, col = divmod(k, kw)
            for oc, m in enumerate(live):
                m = _live_in(m, chains)
                _fma(tile[:m, :, :, ins[0], ins[1]],
                     grads[first:first + m, oc, part, :, rows, cols],
                     taps[first:first + m, oc, row, col], product)

    _each_tile(run, _tiles(len(grads), shape[0], prod(acc.shape[2:])))
    return list(acc)


def _column_chains(grads: np.ndarray, taps: np.ndarray, shape: tuple,
                   keys: list[tuple]) -> list[np.ndarray]:
    """:func:`direct_grad_input`'s chains, one per kernel column, side by side in one array:
    their sums (each of the padded input's ``shape``) in column order. Column ``j``'s chain
    keeps input column ``x`` at ``x + (kw - 1 - j) * dilation``, which puts every column's
    windows of a kernel row where the last column's windows are."""
    kh, kw = taps.shape[1:3]
    starts = [cols.start for _, cols in keys[:kw]]  # each column's first input column
    acc = np.zeros((kw, *shape[:3], shape[3] + starts[-1], shape[4]), np.float32)
    columns = np.moveaxis(taps, 2, 0)  # (kw, O/G, kh, 1, G, 1, 1, C/G)

    def run(chains: slice, part: slice) -> None:
        tile = acc[chains, part]
        product = np.empty(prod((*tile.shape[:3], *grads.shape[-3:-1], shape[-1])))
        for row in range(kh):
            window = tile[(slice(None),) * 3 + keys[row * kw + kw - 1]]
            for oc in range(len(grads)):
                _fma(window, grads[oc, part], columns[chains, oc, row], product)

    _each_tile(run, _tiles(kw, shape[0], prod(acc.shape[2:])))
    return [acc[:, :, :, :, starts[-1] - start:][j, :, :, :, :shape[3]]
            for j, start in enumerate(starts)]


def _balance211(n: int, parts: int) -> list[int]:
    """oneDNN's split of ``n`` items between ``parts`` threads: the first ones get one more."""
    big = -(-n // parts)
    first = n - (big - 1) * parts
    return [big if i < first else big - 1 for i in range(parts)]


def _reducer_threads(threads: int, jobs: int, job_size: int, reduction: int) -> int:
    """oneDNN's ``reduce_balancer_t``: of ``threads``, how many share one job's reduction
    (over ``reduction`` images, each thread its own range, the ranges' sums then added)."""
    fewest = max(1, jobs // threads)
    most = max(1, (1 << 21) // (threads * job_size))
    groups = min(jobs // fewest, threads)
    per_group = min(threads // groups, reduction)
    best = jobs * job_size * reduction
    for per_job in range(fewest, jobs):
        c_groups = min(jobs // per_job, threads)
        c_per_group = min(threads // c_groups, reduction)
        bound = -(-jobs // c_groups)
        if c_per_group > 1 and bound > most:
            continue
        work = job_size * bound * (-(-reduction // c_per_group) + (c_per_group != 1))
        if work < best:
            per_group, best = c_per_group, work
    return per_group


class _WeightSplit(NamedTuple):
    """How oneDNN's direct backward-weights kernel shares its reduction between threads:
    over ``rows`` (its 2-d harness: every output row of every image a unit) or images, among
    ``mb_threads`` of the ``threads`` it runs."""

    rows: bool
    mb_threads: int
    threads: int


def _threads_of_weight_grad(x_shape: tuple, w_shape: tuple, out_hw: Pair, geometry: Geometry,
                            groups: int, width: int) -> _WeightSplit:
    """With AVX-512, oneDNN's ``balance()``: the split of images (or rows), output-channel
    and input-channel blocks that moves the least memory, then one that computes less if it
    moves at most 10% more; with AVX2 a ``reduce_balancer_t`` shares the weight blocks out."""
    n, _, ih, iw = x_shape
    o, cg, kh, kw = w_shape
    threads = get_num_threads()
    nb_oc = -(-(o // groups) // width)
    if width == 8:
        jobs = groups * nb_oc * -(-cg // width)
        return _WeightSplit(False, _reducer_threads(threads, jobs, width * width * kh * kw, n),
                            threads)
    if threads < groups:
        return _WeightSplit(False, 1, threads)
    (sh, sw), (oh, ow), (dh, _) = geometry[0], out_hw, geometry[2]
    rows = dh == 1 and oh > 9  # its 2-d harness, unless one output column spans the input
    rows = rows and not (ow == 1 and kw == iw and kw >= 2 and (sh, sw) == (1, 1)
                         and geometry[1] == (0, 0) and dh == 1)
    ih_r, oh_r = (ih, oh) if rows else (1, 1)  # the rows the units reduce over
    ih_rest, oh_rest = (1, 1) if rows else (ih, oh)
    ic_block = cg if cg < 16 else width  # a first layer: read as its channels are
    nb_ic = -(-cg // ic_block)
    per_group = threads // groups
    units = n * max(1, oh_r // 9)

    def cost(mb_t: int, oc_t: int, ic_t: int) -> int:
        src = -(-n * ih_r // mb_t) * -(-nb_ic // ic_t) * ic_block * ih_rest * iw // sh // sw
        dst = -(-n * oh_r // mb_t) * -(-nb_oc // oc_t) * width * oh_rest * ow
        wei = 8 * -(-nb_oc // oc_t) * -(-nb_ic // ic_t) * kh * kw * ic_block * width
        return src + dst + wei

    def work(mb_t: int, oc_t: int, ic_t: int) -> int:
        return -(-n * oh_r // mb_t) * -(-nb_oc // oc_t) * -(-nb_ic // ic_t)

    splits = [(mb_t, oc_t, min(per_group // mb_t // oc_t, nb_ic))
              for mb_t in range(1, min(per_group, units) + 1)
              for oc_t in range(1, min(per_group // mb_t, nb_oc) + 1)]
    least, split = cost(1, 1, 1), (1, 1, 1)
    for candidate in splits:  # step 1: the least memory moved
        if (value := cost(*candidate)) <= least:
            least, split = value, candidate
    fewest = work(*split)
    for candidate in splits:  # step 2: less computing, for at most 10% more memory
        value = work(*candidate)
        if (value <= fewest and cost(*candidate) < 1.1 * least) or 4 * value <= 3 * fewest:
            fewest, split = value, candidate
    mb_t, oc_t, ic_t = split
    if threads // 2 < mb_t < threads:
        mb_t = min(units, threads)
    return _WeightSplit(rows, mb_t, mb_t * groups * oc_t * ic_t)


def direct_grad_weight(g: np.ndarray, x: np.ndarray, w_shape: tuple, geometry: Geometry,
                       groups: int, width: int, bias: bool,
                       per_image: bool = False) -> tuple[np.ndarray, Any]:
    """oneDNN's direct backward-weights: each weight a fused chain over images, output rows,
    output columns, the images split between threads as its ``balance()`` splits them (their
    chains then added); the bias's gradient plain adds in that order, its images split
    between threads by oneDNN's reduction balancer. ``per_image``: oneDNN's 1x1 kernel,
    whose chains run over blocks of an image's positions (:func:`_runs_of_1x1`), each
    block's sum added to its thread's in turn.

    >>> x, g = np.ones((2, 1, 2, 2), np.float32), np.ones((2, 1, 1, 1), np.float32)
    >>> gw, gb = direct_grad_weight(g, x, (1, 1, 2, 2), ((1, 1), (0, 0), (1, 1)), 1, 16, True)
    >>> gw.ravel(), gb
    (array([2., 2., 2., 2.], dtype=float32), array([2.], dtype=float32))
    """
    n, o, oh, ow = g.shape
    keys = _windows(x.shape, w_shape[2:], geometry)
    padded = _padded(x, geometry[1])
    cg, og = w_shape[1], o // groups
    # per image and output position: (G, C/G * K) inputs, (G, O/G) gradients
    cols = np.stack([padded[key] for key in keys], axis=2)  # N, C, K, OH, OW
    cols = cols.reshape(n, groups, cg * len(keys), oh * ow).transpose(0, 3, 1, 2)
    grads = g.reshape(n, groups, og, oh * ow).transpose(0, 3, 1, 2)
    items = grads
    if per_image:
        threads = get_num_threads()
        weight = _run_chains(grads, cols, _runs_of_1x1(n, (oh, ow), (cg, o), threads))
    else:
        split = _threads_of_weight_grad(x.shape, w_shape, (oh, ow), geometry, groups, width)
        threads = split.threads
        if split.rows:  # the units are rows, not images
            items, cols = (a.reshape(n * oh, ow, *a.shape[2:]) for a in (grads, cols))
        sizes = _balance211(len(items), split.mb_threads)
        (sh, sw), (ph, pw), (dh, dw) = geometry
        rows = [_kernel_inside(x.shape[2], y, sh, ph, dh, w_shape[2]) for y in range(oh)]
        columns = [_kernel_inside(x.shape[3], c, sw, pw, dw, w_shape[3]) for c in range(ow)]
        # per position of an item; rows of several images (all kernel rows) share a step
        reach = ([(slice(None), c) for c in columns] if split.rows else
                 [(r, c) for r in rows for c in columns])
        weight = _chains(items, cols, sizes, w_shape[2:], reach)
        if bias and split.rows:  # its 2-d harness sums the bias with the weights
            return weight.reshape(w_shape), _sums_in_order(items, sizes)
    grad_bias = None
    if bias:  # oneDNN's own reduction: output-channel blocks shared among the threads
        units, jobs = len(items), groups * -(-og // width)
        grad_bias = _sums_in_order(
            items, _balance211(units, _reducer_threads(threads, jobs, width, units)))
    return weight.reshape(w_shape), grad_bias


def _sums_in_order(items: np.ndarray, sizes: list[int]) -> np.ndarray:
    """Per thread (its ``sizes`` of ``items``), all its values (N, positions, G, O/G) added
    one after another; then the threads' sums added."""
    o = items.shape[2] * items.shape[3]
    return _parts_sum([_in_order(np, items[a:b].reshape(-1, o)) if b > a
                       else np.zeros(o, np.float32) for a, b in _ranges(sizes)])


def _ranges(sizes: list[int]) -> list[Pair]:
    return list(pairwise(np.cumsum([0, *sizes]).tolist()))


def _parts_sum(parts: list[np.ndarray]) -> np.ndarray:
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    return total


def _chains(grads: np.ndarray, cols: np.ndarray, sizes: list[int], kernel: Pair,
            reach: list[Pair]) -> np.ndarray:
    """Per thread (its images ``sizes``), the fused chain of ``grads ⊗ cols`` (N, positions,
    G, ·) over its images and positions, all threads in one loop, then the threads' sums
    added. ``reach``: per position, the kernel rows and columns (slices) whose inputs are
    not padding; the others' products are zeros, which leave a chain from zero as it is."""
    positions, groups, og = grads.shape[1:]
    kh, kw = kernel
    cg = cols.shape[3] // (kh * kw)
    threads = len(sizes)
    starts = [a for a, _ in _ranges(sizes)]
    # input channels last: a slice of kernel rows and columns keeps numpy's inner loop long
    total = np.zeros((threads, groups, og, kh, kw, cg), np.float32)
    product = np.empty(total.size)
    chunks = _chunks(og, threads * groups * cols.shape[3])
    for i in range(max(sizes)):
        # (positions, thread, G, O/G, ·) and (..., 1, kh, kw, C/G); a thread without image i
        # adds 0
        g_i = np.zeros((positions, threads, groups, og, 1, 1, 1))
        x_i = np.zeros((positions, threads, groups, 1, kh, kw, cg))
        for t in range(threads):
            if i < sizes[t]:
                g_i[:, t, :, :, 0, 0, 0] = grads[starts[t] + i]
                x_i[:, t, :, 0] = cols[starts[t] + i].reshape(
                    positions, groups, cg, kh, kw).transpose(0, 1, 3, 4, 2)
        for part in chunks:  # a part's arrays stay in the cache along its chain
            for (rows, columns), gs, xs in zip(reach, g_i[:, :, :, part], x_i):
                _fma(total[:, :, part, rows, columns], gs, xs[:, :, :, rows, columns], product)
    weight = total.transpose(0, 1, 2, 5, 3, 4).reshape(threads, groups, og, -1)
    return _parts_sum(list(weight))


def _kernel_inside(size: int, out: int, stride: int, pad: int, dilation: int,
                   kernel: int) -> slice:
    """Along one dim, the kernel offsets at which output ``out``'s window reads the input
    itself rather than its padding."""
    start = out * stride - pad
    low = max(0, -(start // dilation))
    high = min(kernel, (size - 1 - start) // dilation + 1)
    return slice(low, max(low, high))


def _chunks(size: int, per_item: int) -> list[slice]:
    """``range(size)`` cut into slices of at most ``_CACHED`` values of ``per_item`` each."""
    step = max(1, _CACHED // per_item)
    return [slice(start, start + step) for start in range(0, size, step)]


Run = tuple[int, int, int]  # an image, its first position, the position after its last


def _best_divider(value: int, low: int, high: int, largest: bool) -> int:
    """oneDNN's ``best_divider``: of ``low..high``, the divider that leaves the least of
    ``value`` over in its last block, the largest such (``largest``) or the smallest."""
    high = max(1, min(high, value))
    low = max(1, min(low, high))
    best, loss_best = high, float("inf")
    for divider in range(high, low - 1, -1):
        padded = -(-value // divider) * divider
        loss = np.float32(padded - value) / np.float32(padded)  # float, as oneDNN's
        if loss < loss_best or (not largest and loss == loss_best):
            best, loss_best = divider, loss
    return best


@cache
def _l1_floats() -> int:
    """The per-core L1 data cache in floats, which oneDNN's 1x1 kernel blocks for (Linux
    says where it is; elsewhere 48 KiB, the AVX-512 CPUs' this module was measured on)."""
    try:
        text = Path("/sys/devices/system/cpu/cpu0/cache/index0/size").read_text().strip()
        return int(text.removesuffix("K")) * 1024 // 4 if text.endswith("K") else 12288
    except (OSError, ValueError):
        return 12288


def _runs_of_1x1(n: int, out_hw: Pair, channels: Pair, threads: int) -> list[list[Run]]:
    """How oneDNN's 1x1 backward-weights kernel (``jit_avx512_common_1x1``) walks the
    positions: per thread, its runs of positions, each one fused chain from zero whose sum is
    then added to the thread's. A unit is one block of an image's positions (the kernel's
    ``reduce_block``); its ``balance()`` shares the units out between ``nthr_mb`` threads
    (the others take output/input channel blocks, which leaves the order alone), and each
    thread's kernel calls take ``nb_reduce_blocking`` blocks at a time, never past an image."""
    oh, ow = out_hw
    size = oh * ow  # a strided kernel first copies its windows' inputs into a dense image
    block = _best_divider(size, 7, 16, True)
    if size % block:
        block = _best_divider(ow, 4, ow, False)
    block = 1 if block > 256 else block
    per_image = -(-size // block)
    ur = 8 if block <= 19 else 16  # registers per broadcast, as its kernel generator picks
    l1 = _l1_floats() // ur
    blocking = _best_divider(size, min(l1, max(ow, oh)), min(l1, size), True)
    blocking = max(blocking // block * block, block)
    step, step_max = -(-blocking // block), -(-(blocking * 3 // 2 // block * block) // block)
    units = n * per_image
    mb_threads = _threads_of_1x1(units, n, channels, block, threads)
    runs: list[list[Run]] = []
    for start, end in _ranges(_balance211(units, mb_threads)):
        mine, unit = [], start
        while unit < end:
            image, first = divmod(unit, per_image)
            left = min(per_image - first, end - unit)
            blocks = left if left < step_max else step
            mine.append((image, first * block, min((first + blocks) * block, size)))
            unit += blocks
        runs.append(mine)
    return runs


def _threads_of_1x1(units: int, n: int, channels: Pair, block: int, threads: int) -> int:
    """``nthr_mb`` of the 1x1 kernel's ``balance()``: the split of its ``units`` (image
    position blocks), output-channel and input-channel blocks of 16 that moves the least
    memory; how many threads share the units out."""
    nb_ic, nb_oc = -(-channels[0] // 16), -(-channels[1] // 16)

    def cost(mb_t: int, oc_t: int, ic_t: int) -> int:
        per_thread = -(-units // mb_t)
        return (per_thread * -(-nb_ic // ic_t) * 16 * block
                + per_thread * -(-nb_oc // oc_t) * 16 * block
                + 12 * -(-nb_oc // oc_t) * -(-nb_ic // ic_t) * 16 * 16)

    best, mb_threads = cost(1, 1, 1), 1
    for mb_t in range(1, min(threads, units) + 1):
        rest = threads // mb_t
        for oc_t in range(1, min(rest, nb_oc) + 1):
            if (value := cost(mb_t, oc_t, min(rest // oc_t, nb_ic))) <= best:
                best, mb_threads = value, mb_t
    if threads // 2 < mb_threads < threads:
        mb_threads = min(n, threads)
    return mb_threads


def _run_chains(grads: np.ndarray, cols: np.ndarray, runs: list[list[Run]]) -> np.ndarray:
    """Per thread, each of its ``runs`` a fused chain of ``grads ⊗ cols`` (N, positions, G,
    ·) from zero, added to the thread's sum in turn; then the threads' sums added. The
    threads' j-th runs go through one loop together, a shorter run padded with products of
    -0, which leave any sum as it is."""
    groups, og, ck = grads.shape[2], grads.shape[3], cols.shape[3]
    sums: list[Any] = [None] * len(runs)
    for j in range(max(map(len, runs))):
        active = [t for t, mine in enumerate(runs) if j < len(mine)]
        length = max(runs[t][j][2] - runs[t][j][1] for t in active)
        g_j = np.full((length, len(active), groups, og, 1), -0.0)
        x_j = np.zeros((length, len(active), groups, 1, ck))
        for i, t in enumerate(active):
            image, a, b = runs[t][j]
            g_j[:b - a, i, :, :, 0] = grads[image, a:b]
            x_j[:b - a, i, :, 0, :] = cols[image, a:b]
        acc = np.zeros((len(active), groups, og, ck), np.float32)
        product = np.empty(acc.size)
        for gs, xs in zip(g_j, x_j):
            _fma(acc, gs, xs, product)
        for i, t in enumerate(active):
            sums[t] = acc[i] if sums[t] is None else acc[i] + sums[t]
    return _parts_sum([total for total in sums if total is not None])


def gemm_blocks(k: int) -> list[int]:
    """How oneDNN's AVX-512 sgemm cuts its inner dimension ``k`` (``get_k_padd``): whole up to
    384, in two halves below 768, else in blocks of 384.

    >>> gemm_blocks(300), gemm_blocks(400), gemm_blocks(1000)
    ([300], [200, 200], [384, 384, 232])
    """
    block = k if k <= 384 else (k + 1) // 2 if k < 768 else 384
    return [min(block, k - start) for start in range(0, k, block)]


def gemm_forward(x: np.ndarray, w: np.ndarray, b: np.ndarray | None, geometry: Geometry,
                 groups: int) -> np.ndarray:
    """oneDNN's gemm convolution: im2col, then per output a fused chain in im2col order
    (channel, kernel row, kernel column) in the sgemm's blocks (:func:`gemm_blocks`), the
    blocks' chains added, then the bias.

    >>> x, w = np.ones((1, 1, 2, 2), np.float32), np.ones((1, 1, 1, 1), np.float32)
    >>> gemm_forward(x, w, np.float32([1]), ((2, 2), (0, 0), (1, 1)), 1).ravel()
    array([2.], dtype=float32)
    """
    n, o = x.shape[0], w.shape[0]
    keys = _windows(x.shape, w.shape[2:], geometry)
    padded = _padded(x, geometry[1])
    cg, og = w.shape[1], o // groups
    oh, ow = padded[keys[0]].shape[-2:]
    cols = np.stack([padded[key] for key in keys], axis=2)  # N, C, K, OH, OW
    cols = cols.reshape(n, groups, 1, cg * len(keys), oh, ow)
    taps = w.reshape(1, groups, og, cg * len(keys), 1, 1)
    out, start = None, 0
    for size in gemm_blocks(cg * len(keys)):
        acc = np.zeros((n, groups, og, oh, ow), np.float32)
        for i in range(start, start + size):
            _fma(acc, cols[:, :, :, i], taps[:, :, :, i])
        out = acc if out is None else out + acc
        start += size
    if b is not None:
        out = out + b.reshape(1, groups, og, 1, 1)
    return out.reshape(n, o, oh, ow)


def gemm_grad_input(g: np.ndarray, w: np.ndarray, x_shape: tuple, geometry: Geometry,
                    groups: int) -> np.ndarray:
    """oneDNN's gemm backward-data: per column of im2col a fused chain over the output
    channels (in :func:`gemm_blocks`, their chains added), then each kernel offset's
    columns added back in turn (col2im).

    >>> g, w = np.ones((1, 1, 1, 1), np.float32), np.ones((1, 1, 2, 2), np.float32)
    >>> gemm_grad_input(g, w, (1, 1, 2, 2), ((1, 1), (0, 0), (1, 1)), 1).ravel()
    array([1., 1., 1., 1.], dtype=float32)
    """
    n, c, h, wd = x_shape
    (ph, pw), o, (oh, ow) = geometry[1], g.shape[1], g.shape[2:]
    keys = _windows(x_shape, w.shape[2:], geometry)
    cg, og = w.shape[1], o // groups
    grads = g.reshape(n, groups, og, 1, 1, oh, ow)
    taps = w.reshape(1, groups, og, cg, len(keys), 1, 1)
    parts, start = None, 0
    for size in gemm_blocks(og):
        acc = np.zeros((n, groups, cg, len(keys), oh, ow), np.float32)
        for oc in range(start, start + size):
            _fma(acc, grads[:, :, oc], taps[:, :, oc])
        parts = acc if parts is None else parts + acc
        start += size
    parts = parts.reshape(n, c, len(keys), oh, ow)
    total = np.zeros((n, c, h + 2 * ph, wd + 2 * pw), np.float32)
    for k, key in enumerate(keys):
        total[key] += parts[:, :, k]
    return total[:, :, ph:ph + h, pw:pw + wd]


def _slow_columns(x: np.ndarray, kernel: Pair, geometry: Geometry) -> np.ndarray:
    """slow_conv2d's ``finput``: (N, C * kh * kw, OH * OW), C-contiguous."""
    keys = _windows(x.shape, kernel, geometry)
    cols = np.stack([_padded(x, geometry[1])[key] for key in keys], axis=2)
    n, c, k, oh, ow = cols.shape
    return np.ascontiguousarray(cols.reshape(n, c * k, oh * ow))


def _split(a: np.ndarray | None, axis: int, groups: int) -> list:
    """``a``'s ``groups`` equal parts along ``axis`` (Nones for no bias)."""
    return [None] * groups if a is None else np.split(a, groups, axis=axis)


def _joined(parts: list, axis: int) -> np.ndarray | None:
    """The groups' results side by side along ``axis`` (None if MKL computed none)."""
    return None if any(p is None for p in parts) else np.concatenate(parts, axis=axis)


def slow_forward(x: np.ndarray, w: np.ndarray, b: np.ndarray | None,
                 geometry: Geometry, groups: int = 1) -> np.ndarray | None:
    """slow_conv2d: per image, ``bias + weight @ columns`` by MKL's gemm (None without MKL);
    with groups, ATen's ``_convolution`` runs one per group and concatenates.

    >>> out = slow_forward(np.ones((1, 1, 2, 2), np.float32), np.ones((1, 1, 1, 1), np.float32),
    ...                    None, ((1, 1), (0, 0), (1, 1)))
    >>> out is None or out.ravel().tolist() == [1.0] * 4
    True
    """
    if groups > 1:
        return _joined([slow_forward(*part, geometry) for part in zip(
            _split(x, 1, groups), _split(w, 0, groups), _split(b, 0, groups))], 1)
    cols = _slow_columns(x, w.shape[2:], geometry)
    n, o = x.shape[0], w.shape[0]
    weight = np.ascontiguousarray(w.reshape(o, -1))
    bias = None if b is None else np.broadcast_to(b[:, None], (o, cols.shape[2]))
    frames = [_mkl.gemm_product(weight, frame, bias=bias) for frame in cols]
    if any(f is None for f in frames):
        return None
    first = _windows(x.shape, w.shape[2:], geometry)[0]
    return np.stack(frames).reshape(n, o, *_padded(x[:1, :1], geometry[1])[first].shape[-2:])


def slow_grad_input(g: np.ndarray, w: np.ndarray, x_shape: tuple,
                    geometry: Geometry, groups: int = 1) -> np.ndarray | None:
    """slow_conv2d's backward: per image ``weightᵀ @ grad`` by MKL's gemm, then each kernel
    offset's columns added back in turn (col2im); one per group, concatenated.

    >>> gx = slow_grad_input(np.ones((1, 1, 1, 1), np.float32), np.ones((1, 1, 2, 2),
    ...                      np.float32), (1, 1, 2, 2), ((1, 1), (0, 0), (1, 1)))
    >>> gx is None or gx.ravel().tolist() == [1.0] * 4
    True
    """
    if groups > 1:
        shape = (x_shape[0], x_shape[1] // groups, *x_shape[2:])
        return _joined([slow_grad_input(gg, wg, shape, geometry) for gg, wg in zip(
            _split(g, 1, groups), _split(w, 0, groups))], 1)
    n, o, oh, ow = g.shape
    weight_t = np.ascontiguousarray(w.reshape(o, -1)).T
    frames = [_mkl.gemm_product(weight_t, np.ascontiguousarray(frame.reshape(o, -1)))
              for frame in g]
    if any(f is None for f in frames):
        return None
    keys = _windows(x_shape, w.shape[2:], geometry)
    (ph, pw), (_, c, h, wd) = geometry[1], x_shape
    parts = np.stack(frames).reshape(n, c, len(keys), oh, ow)
    total = np.zeros((n, c, h + 2 * ph, wd + 2 * pw), np.float32)
    for k, key in enumerate(keys):
        total[key] += parts[:, :, k]
    return total[:, :, ph:ph + h, pw:pw + wd]


def slow_grad_weight(g: np.ndarray, x: np.ndarray, w_shape: tuple,
                     geometry: Geometry, groups: int = 1) -> np.ndarray | None:
    """slow_conv2d's weight gradient: ``grad @ columnsᵀ`` by MKL's gemm, image after image
    added into the same result (gemm's ``beta = 1``); one per group, concatenated.

    >>> gw = slow_grad_weight(np.ones((1, 1, 1, 1), np.float32), np.ones((1, 1, 2, 2),
    ...                       np.float32), (1, 1, 2, 2), ((1, 1), (0, 0), (1, 1)))
    >>> gw is None or gw.ravel().tolist() == [1.0] * 4
    True
    """
    if groups > 1:
        shape = (w_shape[0] // groups, *w_shape[1:])
        return _joined([slow_grad_weight(gg, xg, shape, geometry) for gg, xg in zip(
            _split(g, 1, groups), _split(x, 1, groups))], 0)
    cols = _slow_columns(x, w_shape[2:], geometry)
    o = w_shape[0]
    total = np.zeros((o, cols.shape[1]), np.float32)
    for frame, grad in zip(cols, g):
        total = _mkl.gemm_product(np.ascontiguousarray(grad.reshape(o, -1)), frame.T,
                                  bias=total)
        if total is None:
            return None
    return total.reshape(w_shape)
