"""torch's CPU float32 softmax and log_softmax, bit for bit: its exp and its order of adding.

A softmax whose last bit differs from torch's prints differently as soon as its rows add up
to exactly 1 (``tensor([1., 1.])`` where torch prints ``tensor([1.0000, 1.0000])``).
torch's kernel (ATen's SoftMaxKernel.cpp) for float32 on x86-64, along the last dim:

* ``e = exp(x - max)`` with its vectorised exp, SLEEF's ``expf_u10`` (:func:`sleef_expf`);
* ``s``: the row's sum in SIMD lanes (16 with AVX512, 8 with AVX2): the first ``lanes``
  values start the lanes, each later block of ``lanes`` values is added lane by lane, a last
  partial block into the first lanes; the lanes are then folded in halves (lane ``i`` plus
  lane ``i ^ half``). A row shorter than the lanes is added value by value;
* softmax ``e * (1 / s)``; log_softmax ``(x - max) - log(s)``.

Along another dim, the values of the dim are added one after another and softmax divides.
torch's float32 ``sigmoid`` takes the same vectorised exp (:func:`torch_sigmoid`).
Every step is a whole-array numpy call; CUDA and other arrays keep their library's math.

>>> import numpy as np
>>> x = np.array([[0.5, -1.25, 2.0]], dtype=np.float32)
>>> torch_softmax(np, x, 1).sum()
np.float32(1.0)
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import numpy as np

from .._libm import expf, fmaf
from ..backend import cpu_math
from ._cascade_sum import _in_order, torch_sum
from ._fused import cpu_features

# SLEEF's expf_u10: exp(d) = 2**q * exp(s), q = round(d / ln 2), s = d - q*ln 2 in two parts
# (Cody and Waite), exp(s) by a degree-6 polynomial; each product that feeds a sum is one fma.
_LOG2_E = np.float32(1.442695040888963407359924681001892137426645954152985934135449406931)
_LN2_HIGH, _LN2_LOW = np.float32(0.693145751953125), np.float32(1.428606765330187045e-06)
_POLY = tuple(np.float32(c) for c in (
    0.000198527617612853646278381, 0.00139304355252534151077271, 0.00833336077630519866943359,
    0.0416664853692054748535156, 0.166666671633720397949219, 0.5))


def sleef_expf(d: np.ndarray) -> np.ndarray:
    """torch's vectorised float32 ``exp`` (SLEEF's ``expf_u10`` with fused multiply-adds).

    >>> sleef_expf(np.array([0.0, 1.0, -200.0], dtype=np.float32))
    array([1.       , 2.7182817, 0.       ], dtype=float32)
    """
    with np.errstate(all="ignore"):
        q = np.rint(d * _LOG2_E)
        s = fmaf(q, -_LN2_HIGH, d)
        s = fmaf(q, -_LN2_LOW, s)
        u = np.full_like(d, _POLY[0])
        for c in _POLY[1:]:
            u = fmaf(u, s, c)
        u = np.float32(1) + fmaf(s * s, u, s)
        k = np.clip(np.nan_to_num(q), -300, 300).astype(np.int32)
        half = k >> 1  # 2**k in two factors, so that neither overflows on its own
        u = u * np.ldexp(np.float32(1), half) * np.ldexp(np.float32(1), k - half)
        u = np.where(d < -104, np.float32(0), u)
        return np.where(d > 104, np.float32(np.inf), u).astype(np.float32)


def torch_sigmoid(xp: Any, a: Any) -> Any:
    """``1 / (1 + exp(-a))``; for a float32 numpy array with torch's exps, which makes it
    torch's CPU sigmoid bit for bit: its kernel runs two vectors at a time
    (:func:`sleef_expf`) and the values after the last pair one by one, with the C library's
    ``expf``.

    >>> torch_sigmoid(np, np.array([-13.142858], dtype=np.float32))
    array([1.959425e-06], dtype=float32)
    """
    if type(a) is not np.ndarray or a.dtype != np.float32:
        return 1 / (1 + xp.exp(-a))
    return np.float32(1) / (np.float32(1) + vectorised_expf(-a))


def torch_exp(xp: Any, a: Any) -> Any:
    """``exp(a)`` as torch's element-wise kernels other than ``exp`` itself take it: for a
    float32 numpy array :func:`vectorised_expf`, else the backend's (:func:`cpu_math`).

    >>> torch_exp(np, np.array([1.0], dtype=np.float32))
    array([2.7182817], dtype=float32)
    """
    if type(a) is not np.ndarray or a.dtype != np.float32:
        return cpu_math(xp.exp, a)
    return vectorised_expf(a)


def torch_silu(xp: Any, a: Any) -> Any:
    """``a / (1 + exp(-a))``, with torch's exps for a float32 numpy array (as
    :func:`torch_sigmoid`), which makes it torch's CPU silu bit for bit.

    >>> torch_silu(np, np.array([1.0], dtype=np.float32))
    array([0.7310586], dtype=float32)
    """
    return a / (1 + torch_exp(xp, -a))


def vectorised_expf(a: np.ndarray) -> np.ndarray:
    """The exps of a float32 array as torch's element-wise kernels take them (``sigmoid``,
    ``silu`` and its backward): SLEEF's for each pair of vectors (:func:`sleef_expf`), the C
    library's ``expf`` for the values after the last pair.

    >>> vectorised_expf(np.array([0.0, 1.0], dtype=np.float32))
    array([1.       , 2.7182817], dtype=float32)
    """
    flat = a.ravel()
    paired = flat.size - flat.size % (2 * lanes())
    return np.concatenate([sleef_expf(flat[:paired]), expf(flat[paired:])]).reshape(a.shape)


@cache
def lanes() -> int:
    """float32 lanes of torch's vectorised kernels on this CPU: 16 with AVX512, else 8."""
    have = cpu_features()
    avx512 = all(have.get(f) for f in ("AVX512F", "AVX512BW", "AVX512VL", "AVX512DQ"))
    return 16 if avx512 else 8


def lane_sum(e: np.ndarray) -> np.ndarray:
    """Each row's sum (last axis, kept as size 1) in the order of torch's lanes (see above).

    >>> lane_sum(np.ones((2, 20), dtype=np.float32)).ravel()
    array([20., 20.], dtype=float32)
    """
    width, n = lanes(), e.shape[-1]
    if n < width:
        return _in_order(np, e[..., None])
    full = n - n % width
    acc = _in_order(np, e[..., :full].reshape(*e.shape[:-1], full // width, width))
    if full == width:  # one block: _in_order handed back a view of e itself
        acc = acc.copy()
    acc[..., :n - full] += e[..., full:]
    while width > 1:
        width //= 2
        acc = acc[..., :width] + acc[..., width:2 * width]
    return acc


def _in_turn_sum(e: np.ndarray, dim: int) -> np.ndarray:
    """The values along ``dim`` added one after another, the dim kept."""
    dim %= e.ndim
    shape = e.shape
    rows = e.reshape(math.prod(shape[:dim]), shape[dim], math.prod(shape[dim + 1:]))
    return _in_order(np, rows).reshape(*shape[:dim], 1, *shape[dim + 1:])


def torch_softmax(xp: Any, a: Any, dim: int) -> Any:
    """softmax of ``a`` along ``dim``; for a float32 numpy array in torch's CPU order."""
    z = _minus_max(xp, a, dim)
    if not _ours(a):
        e = xp.exp(z)
        return e / torch_sum(xp, e, _dims(a, dim), keepdim=True)
    e = sleef_expf(z)
    if _last(a, dim):
        return e * (np.float32(1) / lane_sum(e))
    return e / _in_turn_sum(e, dim)


def torch_log_softmax(xp: Any, a: Any, dim: int) -> Any:
    """log_softmax of ``a`` along ``dim``; for a float32 numpy array in torch's CPU order."""
    z = _minus_max(xp, a, dim)
    if not _ours(a):
        return z - xp.log(torch_sum(xp, xp.exp(z), _dims(a, dim), keepdim=True))
    return z - cpu_math(np.log, _sum_along(sleef_expf(z), dim))


def torch_softmax_backward(xp: Any, g: Any, y: Any, dim: int) -> Any:
    """The gradient of softmax's input ``(g - sum(g * y)) * y`` for its result ``y``; for
    float32 numpy arrays in torch's CPU order (the products added in lanes).

    >>> y = np.float32([[0.25, 0.75]])
    >>> torch_softmax_backward(np, np.float32([[1, 0]]), y, 1)
    array([[ 0.1875, -0.1875]], dtype=float32)
    """
    if not (_ours(g) and _ours(y)):
        return (g - torch_sum(xp, g * y, _dims(y, dim), keepdim=True)) * y
    return (g - _sum_along(g * y, dim)) * y


def torch_log_softmax_backward(xp: Any, g: Any, y: Any, dim: int) -> Any:
    """The gradient of log_softmax's input ``g - exp(y) * sum(g)`` for its result ``y``; for
    float32 numpy arrays with torch's vectorised exp (:func:`sleef_expf`) and order.

    >>> y = np.log(np.float32([[0.25, 0.75]]))
    >>> torch_log_softmax_backward(np, np.float32([[1, 0]]), y, 1)
    array([[ 0.75, -0.75]], dtype=float32)
    """
    if not (_ours(g) and _ours(y)):
        return g - xp.exp(y) * torch_sum(xp, g, _dims(y, dim), keepdim=True)
    return g - sleef_expf(y) * _sum_along(g, dim)


def _sum_along(e: np.ndarray, dim: int) -> np.ndarray:
    return lane_sum(e) if _last(e, dim) else _in_turn_sum(e, dim)


def _minus_max(xp: Any, a: Any, dim: int) -> Any:
    if a.size == 0:  # nothing to shift (and an empty max has no value)
        return a
    return a - xp.max(a, axis=dim, keepdims=True)


def _last(a: Any, dim: int) -> bool:
    return dim % a.ndim == a.ndim - 1


def _dims(a: Any, dim: int) -> tuple[int, ...] | None:
    return (dim,) if a.ndim else None  # a 0-d array: its one value


def _ours(a: Any) -> bool:
    return type(a) is np.ndarray and a.dtype == np.float32 and a.size > 0 and a.ndim > 0
