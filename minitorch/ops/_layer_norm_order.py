"""torch's CPU layer norm forward, bit for bit: ATen's ``RowwiseMoments`` (moments_utils.h).

Each row's mean and variance come from Welford's algorithm run in SIMD lanes (torch runs the
kernel's AVX2 build: 8 float32 or 4 float64 lanes) over chunks of 16 vectors, the chunks'
moments merged in a cascade (a binary counter of partial results, as a pairwise sum), the
values past the last whole vector taken one by one, and then the lanes merged into those.
Rounding follows the compiled code, measured against torch 2.13: the vector Welford steps
and the scalar merges of the lanes are fused multiply-adds, the one-by-one values are not; a
merge of vectors adds ``m2 + m2_add`` first and fuses ``delta * (delta * c * m0)`` into it.
The output is ``((x - mean) * rstd) * weight + bias``, the last step fused.

The backward (``layer_norm_backward_frame``) takes per row ``ds = sum(dy * x * weight)`` and
``db = sum(dy * weight)`` in vector lanes, then ``dx = rstd * dy * weight + b * x + c`` with
``b = (db * mean - ds) * rstd**3 / n`` and ``c = -b * mean - db * rstd / n``; the weight's and
bias's gradients are sums over the rows, each thread's rows in turn, the threads' sums then.

Every step is a whole-array numpy call over all rows at once (one per vector of a row).

>>> x = np.array([[1.0, 2.0, 4.0]], np.float32)
>>> mean, var = row_moments(x)
>>> float(mean[0]), float(var[0])
(2.3333332538604736, 1.5555557012557983)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._batch_norm_order import AVX2, _per_thread
from ._cascade_sum import _in_order, _thread_ranges, get_num_threads
from ._fused import multiply_add
from ._softmax_order import lane_dot, lane_sum

__all__ = ["applies", "backward", "forward", "row_moments"]

CHUNK = 16  # vectors per Welford chunk (kChunkSize)


def applies(*arrays: Any) -> bool:
    """These kernels are torch's for numpy float32 or float64 arrays of one dtype."""
    given = [a for a in arrays if a is not None]
    return all(type(a) is np.ndarray and a.dtype == given[0].dtype for a in given) and \
        given[0].dtype in (np.float32, np.float64)


def _merge(count_add: int, m1_add: Any, m2_add: Any, count: int, m1: Any, m2: Any,
           vector: bool) -> tuple[int, Any, Any]:
    """AddMoments: the moments of ``count_add`` more values merged into ``(count, m1, m2)``."""
    dt = m1.dtype.type
    total = count + count_add
    c = dt(0) if total == 0 else dt(count_add) / dt(total)
    delta = m1_add - m1
    if vector:  # AddMomentsVec
        return total, m1 + c * delta, multiply_add(np, delta, delta * c * dt(count), m2 + m2_add)
    m1 = multiply_add(np, np.full_like(delta, c), delta, m1)
    return total, m1, m2 + multiply_add(np, delta * delta * c, dt(count), m2_add)


def _chunk(x: np.ndarray) -> tuple[Any, Any]:
    """Welford over a chunk's vectors (x: rows, vectors, lanes), from zero."""
    dt = x.dtype.type
    m1 = np.zeros((x.shape[0], x.shape[2]), x.dtype)
    m2 = np.zeros_like(m1)
    for j in range(x.shape[1]):
        delta = x[:, j] - m1
        m1 = multiply_add(np, delta, dt(1) / dt(j + 1), m1)
        m2 = multiply_add(np, delta, x[:, j] - m1, m2)
    return m1, m2


def row_moments(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's (last axis) mean and biased variance as torch's ``RowwiseMoments``."""
    rows, n_values = x.shape
    lanes = AVX2 // (8 * x.dtype.itemsize)
    n = n_values // lanes
    vectors = x[:, :n * lanes].reshape(rows, n, lanes)
    zero = np.zeros((rows, lanes), x.dtype)
    stack = [[0, zero, zero]]  # level k holds 2**k chunks' moments
    for i in range(-(-n // CHUNK)):
        m1, m2 = _chunk(vectors[:, i * CHUNK:(i + 1) * CHUNK])
        stack[0] = list(_merge(min(CHUNK, n - i * CHUNK), m1, m2, *stack[0], vector=True))
        level, mask = 1, i + 1
        while mask % 2 == 0:  # a carry: merge this level into the next, as a binary counter
            if level == len(stack):
                stack.append([0, zero, zero])
            stack[level] = list(_merge(*stack[level - 1], *stack[level], vector=True))
            stack[level - 1] = [0, zero, zero]
            level, mask = level + 1, mask // 2
    for level in stack[1:]:
        stack[0] = list(_merge(*level, *stack[0], vector=True))
    dt = x.dtype.type
    count, m1, m2 = 0, np.zeros(rows, x.dtype), np.zeros(rows, x.dtype)
    for j in range(n * lanes, n_values):  # the values past the last vector, one by one
        delta = x[:, j] - m1
        count += 1
        m1 = m1 + delta / dt(count)
        m2 = m2 + delta * (x[:, j] - m1)
    for lane in range(lanes):
        count, m1, m2 = _merge(n, stack[0][1][:, lane], stack[0][2][:, lane], count, m1, m2,
                               vector=False)
    return m1, m2 / dt(n_values)


def forward(x: np.ndarray, weight: np.ndarray | None, bias: np.ndarray | None,
            k: int, eps: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(output, mean, rstd)`` of a layer norm over the last ``k`` dims of ``x``."""
    dt = x.dtype.type
    lead = x.shape[:x.ndim - k]
    rows = x.reshape(int(np.prod(lead, dtype=np.int64)), -1)
    mean, var = row_moments(rows)
    rstd = dt(1) / np.sqrt(var + dt(eps))
    scaled = (rows - mean[:, None]) * rstd[:, None]
    w = np.ones(1, x.dtype) if weight is None else weight.reshape(-1)
    b = np.zeros(1, x.dtype) if bias is None else bias.reshape(-1)
    return multiply_add(np, scaled, w, b).reshape(x.shape), mean, rstd


def backward(g: np.ndarray, x: np.ndarray, mean: np.ndarray, rstd: np.ndarray,
             weight: np.ndarray | None, k: int, need: tuple[bool, bool, bool],
             mixed: bool = False) -> tuple[Any, Any, Any]:
    """``(grad_input, grad_weight, grad_bias)`` as torch's layer norm backward kernel, from
    the forward's ``mean`` and ``rstd`` (one per row); ``None`` for what ``need`` does not ask.
    ``mixed``: a half input's arrays in float32 (torch's mixed mode), whose kernel sums the
    weight's and bias's gradients in half buffers (:func:`_half_rows`)."""
    rows_sum = _half_rows if mixed else lambda a, b=None: _in_order(np, _per_thread(a, b))
    dt = x.dtype.type
    n_values = int(np.prod(x.shape[x.ndim - k:], dtype=np.int64))
    rows, dy = x.reshape(-1, n_values), g.reshape(-1, n_values)
    need_x, need_w, need_b = need
    grad_x = grad_w = grad_b = None
    if need_x:
        grad_x = _input_grad(dy, rows, mean, rstd, weight, dt).reshape(x.shape)
    if need_w:
        centred = multiply_add(np, np.broadcast_to(rstd[:, None], rows.shape), rows,
                               (-rstd * mean)[:, None])
        grad_w = rows_sum(dy, centred).reshape(weight.shape)
    if need_b:
        grad_b = rows_sum(dy).reshape(x.shape[x.ndim - k:])
    return grad_x, grad_w, grad_b


def _half_rows(a: np.ndarray, b: np.ndarray | None = None) -> np.ndarray:
    """The sum of the rows of ``a`` (or of ``a * b``), float32 arrays, as torch's mixed-mode
    kernel adds them: each thread's rows one after another into its own half buffer (each sum
    rounded to half), then the threads' buffers in float32."""
    terms = a if b is None else a * b
    threads = get_num_threads()
    buffer = np.zeros((threads, terms.shape[1]), np.float16)
    for t, (begin, end) in enumerate(_thread_ranges(terms.shape[0], 1, threads)):
        for row in terms[begin:end]:
            buffer[t] = buffer[t] + row  # added in float32, stored in half
    return _in_order(np, buffer.astype(np.float32))


def _input_grad(dy: np.ndarray, rows: np.ndarray, mean: np.ndarray, a: np.ndarray,
                weight: np.ndarray | None, dt: Any) -> np.ndarray:
    """``a * dy * weight + b * x + c`` per row, ``a`` the row's rstd (fused as compiled)."""
    scale = dt(1) / dt(rows.shape[1])
    if weight is None:
        ds, db = lane_dot(dy, rows, bits=AVX2)[:, 0], lane_sum(dy, bits=AVX2)[:, 0]
        scaled = a[:, None] * dy
    else:
        w = np.broadcast_to(weight.reshape(-1), rows.shape)
        ds, db = lane_dot(dy * rows, w, bits=AVX2)[:, 0], lane_dot(dy, w, bits=AVX2)[:, 0]
        scaled = a[:, None] * dy * w
    b = multiply_add(np, db, mean, -ds) * a * a * a * scale
    c = multiply_add(np, -b, mean, -(db * a * scale))
    return multiply_add(np, np.broadcast_to(b[:, None], rows.shape), rows, scaled) + c[:, None]
