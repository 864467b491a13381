"""torch's CPU group norm, forward and backward, bit for bit (``GroupNormKernelImplInternal``
and ``GroupNormBackwardKernelImplInternal``, their AVX2 build: torch runs it on AVX512 CPUs
too).

Each (sample, group) is a row of ``C / group * HxW`` values whose mean and variance come from
layer norm's ``RowwiseMoments`` (:func:`~._layer_norm_order.row_moments`); the reciprocal
standard deviation is taken in float64 (``eps`` is a double) and rounded back. Without
weight and bias the output is ``(x - mean) * rstd``; with either, each channel has
``scale = rstd * weight`` and ``shift = -scale * mean + bias`` (fused), and the output is
``x * scale + shift`` (fused), as compiled.

The backward (:func:`backward`) takes each channel's ``ds = sum(dy * x)`` and ``db = sum(dy)``
in 8 lanes (``map2_reduce_all``, unfused on torch's threads; ``reduce_all``), each group's
``ds`` and ``db`` through the weight (8 lanes of fmas added in turn, the rest fused one by one),
then ``c2 = fma(db, mean, -ds) * rstd³ / n``, ``c3 = fma(-db * rstd, 1/n, -c2 * mean)`` and
``dx = fma(rstd * weight, dy, c2 * x) + c3``; the weight's gradient adds
``fma(fma(-db, mean, ds), rstd, acc)`` over the samples, the bias's ``db`` in turn. Which
products the compiler fused was measured against torch.

>>> out = forward(np.array([[1.0, 3.0, 0.0, 4.0]], np.float32), None, None, 2, 1e-5)
>>> out.tolist()
[[-0.9999949932098389, 0.9999949932098389, -0.9999987483024597, 0.9999987483024597]]
"""

from __future__ import annotations

import numpy as np

from ._fused import multiply_add
from ._layer_norm_order import row_moments
from ._softmax_order import lane_dot, lane_sum

__all__ = ["backward", "forward", "statistics"]

_AVX2 = 256  # the kernel's vector width in bits: 8 float32 lanes


def forward(x: np.ndarray, weight: np.ndarray | None, bias: np.ndarray | None, group: int,
            eps: float) -> np.ndarray:
    """The group norm of ``x`` (N, C, *spatial) in ``group`` groups, as torch's CPU kernel."""
    n, c = x.shape[:2]
    rows = x.reshape(n * group, -1)
    mean, rstd = statistics(x, group, eps)
    if weight is None and bias is None:
        return ((rows - mean[:, None]) * rstd[:, None]).reshape(x.shape)
    per_group = (n, group, 1, 1)
    grouped = x.reshape(n, group, c // group, -1)
    gamma = np.ones(c, x.dtype) if weight is None else weight
    beta = np.zeros(c, x.dtype) if bias is None else bias
    scale = rstd.reshape(per_group) * gamma.reshape(1, group, -1, 1)
    shift = multiply_add(np, -scale, mean.reshape(per_group), beta.reshape(1, group, -1, 1))
    return multiply_add(np, grouped, scale, shift).reshape(x.shape)


def statistics(x: np.ndarray, group: int, eps: float) -> tuple[np.ndarray, np.ndarray]:
    """Each (sample, group)'s mean and reciprocal standard deviation, as the forward's."""
    mean, var = row_moments(x.reshape(x.shape[0] * group, -1))
    rstd = (1.0 / np.sqrt(np.maximum(var, 0).astype(np.float64) + eps)).astype(x.dtype)
    return mean, rstd


def backward(g: np.ndarray, x: np.ndarray, weight: np.ndarray | None, group: int, eps: float,
             need: tuple[bool, bool, bool]) -> tuple:
    """``(grad_input, grad_weight, grad_bias)`` of a float32 group norm of ``x`` (N, C,
    *spatial) for the output's gradient ``g``, as torch's CPU kernel; None where ``need``
    asks for none.

    >>> x = np.array([[1.0, 3.0, 0.0, 4.0]], np.float32)
    >>> backward(np.ones_like(x), x, None, 2, 1e-5, (True, False, False))[0].tolist()
    [[0.0, 0.0, 0.0, 0.0]]
    """
    n, c = x.shape[:2]
    d = c // group
    mean, rstd = (a.reshape(n, group) for a in statistics(x, group, eps))
    dy, rows = g.reshape(n * c, -1), x.reshape(n * c, -1)
    inline = n * c == 1  # at::parallel_for runs it on this thread
    ds = (lane_dot(dy, rows, bits=_AVX2) if inline else
          lane_sum(dy * rows, bits=_AVX2))[:, 0].reshape(n, group, d)
    db = lane_sum(dy, bits=_AVX2)[:, 0].reshape(n, group, d)
    gamma = np.ones((1, group, d), x.dtype) if weight is None else weight.reshape(1, group, d)
    grad_x = grad_w = grad_b = None
    if need[0]:
        grad_x = _input_grad(g.reshape(n, group, d, -1), x.reshape(n, group, d, -1), mean,
                             rstd, gamma, ds, db).reshape(x.shape)
    if need[1]:
        grad_w = np.zeros((group, d), x.dtype)
        for sample in range(n):
            centred = multiply_add(np, -db[sample], mean[sample, :, None], ds[sample])
            grad_w = multiply_add(np, centred, rstd[sample, :, None], grad_w)
        grad_w = grad_w.reshape(c)
    if need[2]:
        grad_b = np.zeros((group, d), x.dtype)
        for sample in range(n):
            grad_b = grad_b + db[sample]
        grad_b = grad_b.reshape(c)
    return grad_x, grad_w, grad_b


def _input_grad(dy: np.ndarray, x: np.ndarray, mean: np.ndarray, rstd: np.ndarray,
                gamma: np.ndarray, ds: np.ndarray, db: np.ndarray) -> np.ndarray:
    """``dx`` per (sample, group, channel, position): ``fma(c1, dy, c2 * x) + c3``."""
    ds_sum, db_sum = _through_weight(ds, gamma), _through_weight(db, gamma)
    scale = x.dtype.type(1) / x.dtype.type(x.shape[2] * x.shape[3])
    c2 = multiply_add(np, db_sum, mean, -ds_sum) * rstd * rstd * rstd * scale
    c3 = multiply_add(np, -db_sum * rstd, scale, -c2 * mean)
    c1 = (rstd[..., None] * gamma)[..., None]
    return multiply_add(np, np.broadcast_to(c1, x.shape), dy,
                        c2[..., None, None] * x) + c3[..., None, None]


def _through_weight(values: np.ndarray, gamma: np.ndarray) -> np.ndarray:
    """Each group's ``sum(values * gamma)`` over its channels as CalcDsDb adds it: 8 lanes
    of fmas from 0, the lanes added in turn, then the channels past them fused one by one."""
    lanes = _AVX2 // 32
    full = values.shape[-1] // lanes * lanes
    acc = np.zeros((*values.shape[:-1], lanes), values.dtype)
    for j in range(0, full, lanes):
        acc = multiply_add(np, values[..., j:j + lanes], gamma[..., j:j + lanes], acc)
    total = np.zeros(values.shape[:-1], values.dtype)
    for lane in range(lanes):
        total = total + acc[..., lane]
    for j in range(full, values.shape[-1]):
        total = multiply_add(np, values[..., j], gamma[..., j], total)
    return total
