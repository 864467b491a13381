"""torch's CPU flash attention in float32, bit for bit: the fused kernel that
``scaled_dot_product_attention`` takes for 4-D inputs without dropout (ATen's
FlashAttentionKernel.cpp), where the math path (``softmax(q kᵀ) v``) rounds otherwise.

For each batch, head and block of 32 query rows (64 from 192 rows, 256 from 768), over blocks
of 512 keys, the kernel

* multiplies ``q kᵀ`` by MKL's gemm (transposed key, ``alpha`` 1) into its thread's buffer;
* scales it (``x * scale``, or one fma ``x * scale + mask`` where there is a mask; ``-inf``
  past the diagonal where causal) and takes each row's running maximum;
* exponentiates ``x - max``: 16 values at a time (AVX512) by its fast ``exp_u20`` (a degree-5
  polynomial, :func:`exp_u20`), the last ``n % 16`` by the C library's ``expf``; the row sum
  adds the vectors lane by lane, folds the lanes in halves, then adds the last values in turn;
* rescales the running sum and output by ``expf(old max - max)`` and adds ``p v`` by gemm;
* divides by the sum (times its reciprocal), a sum of 0 (a fully masked row) counting as 1.

MKL's small products round by where their operands sit in memory, so the blocks' buffers sit
where torch's threads' buffers do (:func:`_buffers`). Without MKL, :func:`attention` answers
None and the math path runs.

>>> q = np.ones((1, 1, 2, 4), np.float32)
>>> out = attention(q, q, q, None, False, None)
>>> out is None or out.tolist() == [[[[1.0] * 4] * 2]]
True
"""

from __future__ import annotations

import ctypes
import math
from typing import Any

import numpy as np

from .. import _mkl
from .._libm import expf, fmaf
from ._cascade_sum import _in_order
from ._softmax_order import _fold, lanes

# exp_u20's constants (ATen's vec512_float.h), as float32 bit patterns where it gives them so
_FACTORIALS = np.float32([0.00828929059, 0.0418978221, 0.166676521, 0.499991506, 0.999999701])
_LOG2E, _LN2, _LN_MIN, _LN_MAX = np.uint32([0x3FB8AA3B, 0x3F317218, 0xC2AEAC50,
                                            0x42B17218]).view(np.float32)


def exp_u20(x: np.ndarray) -> np.ndarray:
    """ATen's vectorised float32 ``exp_u20``: ``2^n p(r)`` with ``n = floor(x log2e + 1/2)``,
    ``r = x - n ln2`` and ``p`` the degree-5 polynomial of its constants (each step one fma);
    0 below log(FLT_MIN).

    >>> float(exp_u20(np.float32([0.0]))[0])
    1.0
    """
    src = np.maximum(np.minimum(x, _LN_MAX), _LN_MIN)
    fx = np.floor(fmaf(src, _LOG2E, np.float32(0.5)))
    r = fmaf(-fx, _LN2, src)
    poly = fmaf(r, _FACTORIALS[0], _FACTORIALS[1])
    for factor in (*_FACTORIALS[2:], np.float32(1.0)):
        poly = fmaf(r, poly, factor)
    power = ((fx - 1).astype(np.int32) + 127) << 23
    two_n = np.where(x < _LN_MIN, np.float32(0), power.view(np.float32))
    return poly * two_n * np.float32(2)


def attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None,
              causal: bool, scale: float | None) -> np.ndarray | None:
    """``softmax(q kᵀ scale + mask) v`` for float32 (batch, heads, length, dim) numpy arrays
    as torch's CPU flash kernel computes it (``mask`` float32, broadcastable to (batch, heads,
    queries, keys)); None without MKL."""
    if _mkl.library() is None:
        return None
    batch, heads, queries, dim = q.shape
    keys = k.shape[2]
    factor = np.float32(1.0 / math.sqrt(dim) if scale is None else scale)
    q, k, v = _mkl._aligned(q), _mkl._aligned(k), _mkl._aligned(v)
    if mask is not None:
        mask = np.broadcast_to(mask, (batch, heads, queries, keys))
    q_split = min(256 if queries >= 768 else 64 if queries >= 192 else 32, queries)
    kv_split = min(512, keys)
    slices = -(-queries // q_split)
    buffers, place = _buffers(batch * heads * slices, q_split, kv_split, dim)
    out = np.empty((batch, heads, queries, dim), np.float32)
    for b in range(batch):
        for h in range(heads):
            for start in range(0, queries, q_split):
                qk_buffer, dst_buffer = buffers[place((b * heads + h) * slices
                                                      + start // q_split)]
                rows = min(q_split, queries - start)
                out[b, h, start:start + rows] = _query_block(
                    q[b, h, start:start + rows], k[b, h], v[b, h],
                    None if mask is None else mask[b, h, start:start + rows], causal, start,
                    factor, kv_split, qk_buffer, dst_buffer[:rows * dim].reshape(rows, dim))
    return out


def _query_block(q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None,
                 causal: bool, start: int, factor: np.float32, kv_split: int,
                 qk_buffer: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """One block of query rows (the first at ``start``) against every block of keys."""
    rows, keys = q.shape[0], k.shape[0]
    running_max = np.full(rows, -np.inf, np.float32)
    running_sum = np.zeros(rows, np.float32)
    last_key = min(start + rows, keys) if causal else keys
    for n in range(0, last_key, kv_split):
        width = min(kv_split, keys - n)
        qk = qk_buffer[:rows * width].reshape(rows, width)
        _gemm(True, width, rows, q.shape[1], k[n:], q, 0.0, qk)
        if causal and last_key - n <= kv_split:
            past = np.arange(width)[None, :] > (start - n + np.arange(rows))[:, None]
            qk[past] = -np.inf
        if mask is None:
            qk *= factor
        else:
            _scale_and_mask(qk, factor, mask[:, n:n + width])
        new_max = np.maximum(running_max, qk.max(axis=1))
        live = new_max != -np.inf  # a row masked so far adds nothing (its p row is 0)
        qk[~live] = 0
        new_max[~live] = running_max[~live]
        qk[live] = _exp(qk[live] - new_max[live, None])
        rescale = expf(running_max[live] - new_max[live])
        running_sum[live] = fmaf(rescale, running_sum[live], _row_sum(qk[live]))
        running_max = new_max
        if n:
            dst[live] *= rescale[:, None]
        _gemm(False, q.shape[1], rows, width, v[n:], qk, 0.0 if n == 0 else 1.0, dst)
    running_sum[running_sum == 0] = 1
    return dst * (np.float32(1) / running_sum)[:, None]


def _scale_and_mask(qk: np.ndarray, factor: np.float32, mask: np.ndarray) -> None:
    """``qk * factor + mask`` in place, rounded once (the compiler fuses the kernel's multiply
    and add into an fma, on its vectors and past them alike: measured)."""
    qk[...] = fmaf(qk, factor, mask)


def _exp(z: np.ndarray) -> np.ndarray:
    """Each row's exps: exp_u20 on whole vectors, the C library's expf past them."""
    full = z.shape[1] - z.shape[1] % lanes()
    return np.concatenate([exp_u20(z[:, :full]), expf(z[:, full:])], axis=1)


def _row_sum(e: np.ndarray) -> np.ndarray:
    """Each row's sum as the kernel adds it: vectors lane by lane from 0, the lanes folded,
    then the values past the vectors one after another."""
    width = lanes()
    full = e.shape[1] - e.shape[1] % width
    total = np.zeros(e.shape[0], np.float32)
    if full:
        blocks = e[:, :full].reshape(e.shape[0], full // width, width)
        total = _fold(_in_order(np, blocks))[:, 0] + np.float32(0)
    for column in e[:, full:].T:
        total = total + column
    return total


def _buffers(blocks: int, q_split: int, kv_split: int, dim: int) -> tuple[list, Any]:
    """Each thread's (qk, dst) buffers where torch's are: one 64-byte aligned allocation of a
    run per thread (qk, the running max and sum, dst); and which thread takes a block
    (at::parallel_for's even chunks). MKL runs on one thread inside torch's parallel loop."""
    threads = min(_mkl._torch_threads()(), blocks)
    qk_size, dst_size = q_split * kv_split, q_split * dim
    run = qk_size + 2 * q_split + dst_size
    memory = _mkl._empty((threads * run,), np.float32)
    buffers = [(memory[t * run:t * run + qk_size], memory[(t + 1) * run - dst_size:(t + 1) * run])
               for t in range(threads)]
    chunk = -(-blocks // threads)
    _gemm_threads(1 if blocks > 1 else None)
    return buffers, lambda block: block // chunk


def _gemm_threads(count: int | None) -> None:
    """MKL's thread count for the kernel's products: one inside torch's parallel loop."""
    if count is None:
        _mkl._use_threads()
    elif _mkl._threads_set != [count]:
        _mkl.library().MKL_Set_Num_Threads(ctypes.c_int(count))
        _mkl._threads_set[:] = [count]


def _gemm(transpose_a: bool, m: int, n: int, inner: int, a: np.ndarray, b: np.ndarray,
          beta: float, c: np.ndarray) -> None:
    """cpublas::gemm as the kernel calls it, column-major: ``c (m x n) = op(a) b + beta c``,
    ``a`` a key block (transposed) or a value block, ``b`` a query block or the p block."""
    lda = a.strides[0] // a.itemsize
    ldb = b.strides[0] // b.itemsize
    ldc = c.strides[0] // c.itemsize
    lda, ldb, ldc = _mkl._normalize_last_dims(transpose_a, False, m, n, inner, lda, ldb, ldc)
    _mkl._cblas_gemm("s")(102, 112 if transpose_a else 111, 111, m, n, inner, 1.0,
                          a.ctypes.data, lda, b.ctypes.data, ldb, beta, c.ctypes.data, ldc)


def takes_flash(shapes: tuple, last_strides: tuple, mask_dims: int | None) -> bool:
    """Whether torch's CPU picks its flash kernel (``use_flash_attention_cpp``, dropout aside)
    for a query, key and value of ``shapes`` (their last strides ``last_strides``) and a mask
    of ``mask_dims`` dims (None: no mask): all 4-D with one batch and head count and one head
    size, keys as many as values, last dims contiguous, a mask of 2 or 4 dims.

    >>> takes_flash(((1, 1, 2, 4),) * 3, (1, 1, 1), None), takes_flash(((2, 4),) * 3, (1,) * 3, 2)
    (True, False)
    """
    q, k, v = shapes
    return (all(len(s) == 4 for s in shapes) and all(st == 1 for st in last_strides) and
            q[:2] == k[:2] == v[:2] and q[3] == k[3] == v[3] and k[2] == v[2] and
            mask_dims in (None, 2, 4))


def fused(q: Any, k: Any, v: Any, mask: Any, causal: bool, scale: float | None
          ) -> np.ndarray | None:
    """:func:`attention` where torch's CPU takes its flash kernel for these arrays
    (:func:`takes_flash`, of float32 numpy arrays, a mask bool or float32); None where it
    takes the math path (or minitorch does: another dtype, MKL absent)."""
    arrays = (q, k, v)
    if not all(type(a) is np.ndarray and a.dtype == np.float32 for a in arrays) or \
            not takes_flash(tuple(a.shape for a in arrays),
                            tuple(a.strides[-1] // a.itemsize for a in arrays),
                            None if mask is None else mask.ndim):
        return None
    if mask is not None:
        if type(mask) is not np.ndarray or mask.dtype not in (np.bool_, np.float32):
            return None
        if mask.dtype == np.bool_:  # torch's convert_boolean_attn_mask
            mask = np.where(mask, np.float32(0), np.float32(-np.inf))
    return attention(q, k, v, mask, causal, scale)
