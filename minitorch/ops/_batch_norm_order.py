"""torch's CPU batch norm, bit for bit: ATen's ``batch_norm_kernel.cpp`` and ``Normalization.cpp``.

A batch norm in training gives the layer in front of it a gradient that is pure rounding noise
(the batch's mean is subtracted, so the gradient of anything that shifts a channel is 0 but
for the last bits), and a printed momentum buffer shows that noise. So minitorch adds and
rounds where torch's kernels do, for float32 and float64 numpy arrays (``n`` values per
channel, ``image`` of them per sample and channel):

* statistics: ``mean`` is the channel's sum in double divided by ``n``, rounded to the dtype;
  ``var_sum`` the sum in double of the rounded ``(x - mean)**2``, rounded to the dtype;
  ``invstd = 1 / sqrt(var_sum / n + eps)``, the quotient in the dtype, the rest in double.
  Where ``image`` is 1 (a (batch, channels) input, torch's "channels last" kernel) and the
  batch outnumbers torch's threads, each thread first sums its rows in the dtype, the squares
  fused into the adds, and the threads' sums are added in double.
* running statistics (Normalization.cpp): ``m*mean + (1-m)*running`` in the dtype, ``m`` the
  momentum rounded to it; the variance's ``m * (var_sum / (n-1))`` in double.
* output: ``x * alpha + beta`` with ``alpha = invstd * weight``, ``beta = bias - mean * alpha``.
  In evaluation ``invstd = 1 / sqrt(running_var + eps)`` in the dtype (the backward's in double).
* backward: per channel ``sum(dy)`` and ``dotp = sum((x - mean) * dy)`` (by rows per thread
  where ``image`` is 1, else each sample's plane in vector lanes, the planes' sums in double),
  then ``dx = (dy - sum/n - (x - mean) * k) * invstd * weight`` with
  ``k = dotp * invstd * invstd / n``; ``grad_weight = dotp * invstd``, ``grad_bias = sum``.

Every step is a whole-array numpy call but the per-row adds of the channels-last kernel (one
call per row of the batch). Other arrays (CuPy, array-api-strict) keep the plain formulas of
``NativeBatchNorm``.

>>> x = np.array([[1.0], [2.0], [4.0]], np.float32)
>>> mean, var_sum = batch_stats(x)
>>> float(mean[0]), float(var_sum[0]), float(invstd_of(var_sum, 3, 1e-5)[0])
(2.3333332538604736, 4.6666669845581055, 0.8017811179161072)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._libm import fmaf
from ._cascade_sum import _in_order, _thread_ranges, get_num_threads
from ._fused import fuses, multiply_add
from ._softmax_order import lane_dot, lane_sum

AVX2 = 256  # torch registers these kernels for AVX2 alone: AVX512 CPUs run them too

__all__ = ["applies", "backward", "batch_stats", "eval_invstd", "invstd_of", "running_update",
           "transform"]


def applies(*arrays: Any) -> bool:
    """The kernels here are torch's for these arrays: numpy, float32 or float64, one dtype."""
    given = [a for a in arrays if a is not None]
    return all(type(a) is np.ndarray and a.dtype == given[0].dtype for a in given) and \
        given[0].dtype in (np.float32, np.float64)


def _rows(x: np.ndarray) -> np.ndarray:
    """``x`` (batch, channels, *image) as rows of values per channel: (batch * image, C) where
    ``image`` is 1 (torch's channels-last kernel), else (batch, C, image)."""
    n, c = x.shape[:2]
    image = x.size // max(n * c, 1)
    return x.reshape(n, c) if image == 1 else x.reshape(n, c, image)


def _double_sum(parts: np.ndarray) -> np.ndarray:
    """Axis 0 of ``parts`` added one after another in double (torch's ``acc_type``)."""
    return _in_order(np, parts.astype(np.float64))


def _per_thread(a: np.ndarray, b: np.ndarray | None = None) -> np.ndarray:
    """at::parallel_for over the rows with grain 1: each thread adds its rows of ``a`` (or of
    ``a * b``, each product fused into its add) into its own zeroed row of a (threads, C)
    buffer, one row after another; the buffer."""
    threads = get_num_threads()
    buffer = np.zeros((threads, a.shape[1]), a.dtype)
    for t, (begin, end) in enumerate(_thread_ranges(a.shape[0], 1, threads)):
        if b is None:
            buffer[t] = _in_order(np, a[begin:end])
        else:
            buffer[t] = _fused_in_order(a[begin:end], b[begin:end])
    return buffer


def _fused_in_order(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``0 + a[0]*b[0] + a[1]*b[1] + ...`` along axis 0, each product fused into its add.

    For float32 each step is the exact product plus the sum so far in double, rounded to
    float32. That rounds twice, which goes wrong only where the double sum was inexact and
    landed half-way between two floats: the steps are redone with true fmas if any did.
    """
    if a.dtype != np.float32 or not fuses():
        acc = np.zeros(a.shape[1:], a.dtype)
        for i in range(a.shape[0]):
            acc = multiply_add(np, a[i], b[i], acc)
        return acc
    products = a.astype(np.float64) * b
    sums = np.empty_like(products)
    acc = np.zeros(a.shape[1:], np.float64)
    for i in range(a.shape[0]):
        np.add(products[i], acc, out=sums[i])
        acc = sums[i].astype(np.float32).astype(np.float64)
    before = np.concatenate([np.zeros_like(sums[:1]),
                             sums[:-1].astype(np.float32).astype(np.float64)])
    back = sums - products
    inexact = (products - (sums - back)) + (before - back) != 0  # TwoSum's error
    halfway = np.bitwise_and(sums.view(np.uint64), np.uint64(0x1FFFFFFF)) == 0x10000000
    if (inexact & halfway).any():
        acc32 = np.zeros(a.shape[1:], np.float32)
        for i in range(a.shape[0]):
            acc32 = fmaf(a[i], b[i], acc32)
        return acc32
    return acc.astype(np.float32)


def batch_stats(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each channel's ``mean`` and ``var_sum`` (the sum of squared deviations), in ``x``'s
    dtype, as ``batch_norm_cpu_collect_stats`` adds them."""
    rows = _rows(x)
    dt = x.dtype
    if rows.ndim == 3:  # one channel's planes, one value after another in double
        planes = np.moveaxis(rows, 1, 0).reshape(rows.shape[1], -1).T
        mean = (_double_sum(planes) / planes.shape[0]).astype(dt)
        return mean, _double_sum((planes - mean) * (planes - mean)).astype(dt)
    n = rows.shape[0]
    if n <= get_num_threads():
        mean = (_double_sum(rows) / n).astype(dt)
        return mean, _double_sum((rows - mean) * (rows - mean)).astype(dt)
    mean = (_double_sum(_per_thread(rows)) / n).astype(dt)
    centred = rows - mean
    return mean, _double_sum(_per_thread(centred, centred)).astype(dt)


def invstd_of(var_sum: np.ndarray, n: int, eps: float) -> np.ndarray:
    """``1 / sqrt(var_sum / n + eps)``: the quotient in the dtype, the rest in double; 0
    where both the variance and ``eps`` are 0 (torch's InvStd)."""
    var = (var_sum / var_sum.dtype.type(n)).astype(np.float64)
    with np.errstate(divide="ignore"):
        invstd = 1 / np.sqrt(var + eps)
    return np.where((var == 0) & (eps == 0), 0.0, invstd).astype(var_sum.dtype)


def eval_invstd(running_var: np.ndarray, eps: float, forward: bool) -> np.ndarray:
    """Evaluation's ``1 / sqrt(running_var + eps)``: the forward's in the dtype, the
    backward's in double."""
    dt = running_var.dtype
    if forward:
        return dt.type(1) / np.sqrt(running_var + dt.type(eps))
    return (1 / np.sqrt(running_var.astype(np.float64) + eps)).astype(dt)


def running_update(running_mean: np.ndarray, running_var: np.ndarray, mean: np.ndarray,
                   var_sum: np.ndarray, n: int, momentum: float) -> tuple[np.ndarray, ...]:
    """The moved running statistics: the mean in the dtype, the unbiased variance's share
    in double (Normalization.cpp's update, momentum rounded to the dtype)."""
    dt = running_mean.dtype
    m = dt.type(momentum)
    new_mean = m * mean + (dt.type(1) - m) * running_mean
    unbiased = (var_sum / dt.type(n - 1)).astype(np.float64)
    kept = ((dt.type(1) - m) * running_var).astype(np.float64)
    return new_mean, (np.float64(m) * unbiased + kept).astype(dt)


def _channel_shape(x: np.ndarray) -> tuple[int, ...]:
    return (1, x.shape[1]) + (1,) * (x.ndim - 2)


def transform(x: np.ndarray, mean: np.ndarray, invstd: np.ndarray, weight: np.ndarray | None,
              bias: np.ndarray | None) -> np.ndarray:
    """The output ``x * alpha + beta`` (fused where torch's vector code fuses)."""
    dt = x.dtype
    alpha = invstd if weight is None else invstd * weight
    beta = multiply_add(np, -mean, alpha, dt.type(0) if bias is None else bias)
    shape = _channel_shape(x)
    return multiply_add(np, x, alpha.reshape(shape), beta.reshape(shape))


def backward(g: np.ndarray, x: np.ndarray, mean: np.ndarray, invstd: np.ndarray,
             weight: np.ndarray | None, training: bool,
             need: tuple[bool, bool, bool]) -> tuple[Any, Any, Any]:
    """``(grad_input, grad_weight, grad_bias)`` as ``batch_norm_cpu_backward``, ``None`` for
    what ``need`` does not ask."""
    dt = x.dtype
    n = x.size // x.shape[1]
    rows, dy = _rows(x), _rows(g)
    if rows.ndim == 2:
        centred = rows - mean
        g_sum = _double_sum(_per_thread(dy)).astype(dt)
        dotp = _double_sum(_per_thread(centred, dy)).astype(dt)
        k = dotp * invstd * invstd / dt.type(n)
        grad_mean = g_sum / dt.type(n)
        grad_w = dotp * invstd
    else:
        g_sum64 = _double_sum(lane_sum(dy, bits=AVX2)[..., 0])
        dotp64 = _double_sum(lane_dot(rows - mean[:, None], dy, bits=AVX2)[..., 0])
        k = dotp64.astype(dt) * invstd * invstd / dt.type(n)
        grad_mean = (g_sum64 / n).astype(dt)
        g_sum = g_sum64.astype(dt)
        grad_w = (dotp64 * invstd).astype(dt)
    need_x, need_w, need_b = need
    grad_x = None
    if need_x:
        shape = _channel_shape(x)
        grad_x = g
        if training:
            grad_x = _minus_centred(x, g - grad_mean.reshape(shape), mean.reshape(shape),
                                    k.reshape(shape), fused_tail=rows.ndim == 3)
        grad_x = grad_x * invstd.reshape(shape)
        if weight is not None:
            grad_x = grad_x * weight.reshape(shape)
    return grad_x, grad_w if need_w else None, g_sum if need_b else None


def _minus_centred(x: np.ndarray, shifted: np.ndarray, mean: np.ndarray, k: np.ndarray,
                   fused_tail: bool) -> np.ndarray:
    """``shifted - (x - mean) * k``, one fused multiply-add, except (channels-last kernel) in
    the channels past the last whole vector, whose code the compiler leaves unfused."""
    centred = x - mean
    out = multiply_add(np, -centred, k, shifted)
    full = x.shape[1] - x.shape[1] % (AVX2 // (8 * x.dtype.itemsize))
    if not fused_tail and full < x.shape[1]:
        out[:, full:] = shifted[:, full:] - centred[:, full:] * k[:, full:]
    return out
