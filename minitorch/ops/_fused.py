"""torch's CPU float32 and float64 ``add(alpha=)``, ``addcmul``, ``addcdiv`` and ``lerp``, bit
for bit.

torch's CPU kernels for these ops are compiled with fused multiply-adds: a product that feeds
a sum is rounded once, with the sum. An optimizer's step is made of them (``SGD`` is
``p.add_(g, alpha=-lr)``, ``Adam`` a ``lerp_``, an ``addcmul_`` and an ``addcdiv_``), so a
step rounded twice drifts from torch's by a last bit that a training loop then grows.
Measured against torch 2.13 on 200 000 random float32 values each (AVX512 and AVX2 alike):

* ``a.add(b, alpha=s)`` is ``fma(b, s, a)`` (``sub``: ``fma(b, -s, a)``) — 100%
  (``a + s*b`` rounded twice: 72-99%);
* ``a.addcmul(b, c, value=s)`` is ``fma(s*b, c, a)`` — 100%;
* ``a.addcdiv(b, c, value=s)`` is ``a + (s*b)/c``, each step rounded — 100%;
* ``a.lerp(b, w)`` is ``fma(w, b - a, a)`` for ``w < 0.5``, else ``fma(a - b, 1 - w, b)``.

The scalar ``s`` (or ``w``) is first rounded to float32, as torch's kernel does.
``linspace`` and float ``arange`` are multiply-adds too (:func:`linspace`, :func:`arange`).

torch fuses only in its vectorised builds (AVX2 and AVX512, which need the CPU's FMA); run with
``ATEN_CPU_CAPABILITY=default`` or on a CPU without AVX2, it rounds the product and the sum
apart, and so does minitorch then (:func:`fuses`). The fused forms are taken for float32
numpy arrays (and float64 ones for ``linspace`` and ``arange``); any other array (CuPy,
array-api-strict) gets the same formula with its library's own rounding.

>>> import numpy as np
>>> p, g = np.float32([0.15494743]), np.float32([-0.7537045])
>>> float(add_scaled(np, p, g, -0.01)[0])  # torch's SGD step, lr=0.01
0.16248448193073273
"""

from __future__ import annotations

import os
from functools import cache
from typing import Any

import numpy as np

from .._libm import fma, fmaf
from ..backend import quiet

__all__ = ["add_scaled", "addcdiv", "addcmul", "arange", "cpu_features", "fuses", "lerp",
           "linspace", "multiply_add", "one_minus_square"]


@cache
def cpu_features() -> dict[str, bool]:
    """The CPU's SIMD features as numpy detected them (``{}`` where numpy does not say),
    which tell the kernels torch runs: ``{"AVX2": True, "FMA3": True, ...}``."""
    features = getattr(getattr(np, "_core", np), "_multiarray_umath", None)
    return dict(getattr(features, "__cpu_features__", {}))


@cache
def fuses() -> bool:
    """True where torch's CPU kernels fuse a multiply and an add: an x86 CPU with AVX2 and FMA
    (so torch runs its AVX2 or AVX512 kernels), unless ``ATEN_CPU_CAPABILITY=default``."""
    have = cpu_features()
    wanted = os.environ.get("ATEN_CPU_CAPABILITY", "").lower()
    return bool(have.get("AVX2") and have.get("FMA3")) and wanted != "default"


def one_minus_square(xp: Any, r: Any) -> Any:
    """``1 - r*r`` as torch's tanh backward computes it: ``fma(-r, r, 1)``, in float32 and in
    float64 alike (its vectorised and its scalar loops are both contracted). Against torch's
    ``tanh_backward`` on 100 003 random float64 values: 100% (rounded twice: 75%).

    >>> one_minus_square(np, np.float32([0.5]))
    array([0.75], dtype=float32)
    >>> float(one_minus_square(np, np.float64([0.8]))[0])  # rounded twice: 0.3599999999999999
    0.35999999999999993
    """
    return multiply_add(xp, -r, r, 1)


def multiply_add(xp: Any, a: Any, b: Any, c: Any) -> Any:
    """``a*b + c`` (``b`` and ``c`` arrays of ``a``'s dtype or numbers) rounded once, as
    torch's compiled kernels round a product that feeds a sum, for float32 and float64 numpy
    arrays where torch fuses; else rounded twice.

    >>> float(multiply_add(np, np.float64([0.8]), -0.8, 1)[0])
    0.35999999999999993
    """
    if _float32(a):
        return _fma(a, b, c)
    if fuses() and type(a) is np.ndarray and a.dtype == np.float64:
        return fma(a, b, c)
    return a * b + c


def _float32(*arrays: Any) -> bool:
    """Every array is a float32 numpy array (the kernels measured above), and torch fuses."""
    return fuses() and all(type(a) is np.ndarray and a.dtype == np.float32 for a in arrays)


def _float64(*arrays: Any) -> bool:
    """Every array is a float64 numpy array, and torch fuses (its float64 kernels too)."""
    return fuses() and all(type(a) is np.ndarray and a.dtype == np.float64 for a in arrays)


def _fma(a: np.ndarray, b: Any, c: np.ndarray) -> np.ndarray:
    """``a*b + c`` rounded once, broadcast; a float32 array (0-d where all are)."""
    a, b, c = np.broadcast_arrays(np.asarray(a, np.float32), np.asarray(b, np.float32),
                                  np.asarray(c, np.float32))
    return fmaf(a, b, c).reshape(a.shape)


def add_scaled(xp: Any, a: Any, b: Any, alpha: float) -> Any:
    """``a + alpha * b`` as torch's ``add(alpha=)``: one fused multiply-add for float32 and
    float64 (float64 against torch on 100 000 random values, sizes 1 to 100 000: 100%).

    >>> add_scaled(np, np.float32([1.0]), np.float32([3.0]), 0.5)
    array([2.5], dtype=float32)
    """
    if isinstance(alpha, bool) and a.dtype != bool:  # torch's add checks a Python bool alpha
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if alpha == 1:
        return a + b
    if _float32(a, b):
        return _fma(b, np.float32(alpha), a)
    if _float64(a, b):
        return fma(b, alpha, a)
    if xp.isdtype(a.dtype, "integral"):  # alpha in the integer dtype, wrapping as torch's
        return a + b * xp.astype(xp.asarray(alpha), a.dtype)  # kernel
    return a + b * alpha


def addcmul(xp: Any, a: Any, b: Any, c: Any, value: float = 1) -> Any:
    """``a + value * b * c`` as torch's ``addcmul``: ``fma(value*b, c, a)`` for float32.

    >>> addcmul(np, np.float32([1.0]), np.float32([2.0]), np.float32([3.0]), 0.5)
    array([4.], dtype=float32)
    """
    if _float32(a, b, c):
        scaled = b if value == 1 else b * np.float32(value)
        return _fma(scaled, c, a)
    if _float64(a, b, c):
        return fma(b if value == 1 else b * value, c, a)
    if (wide := _half_in_float32(xp, a, b, c)) is not None:
        a, b, c = wide
        return xp.astype(a + (b * np.float32(value)) * c, xp.float16)
    return a + (b if value == 1 else b * value) * c


def _half_in_float32(xp: Any, *arrays: Any) -> tuple | None:
    """float16 ``arrays`` in float32, as torch's kernels compute them (its opmath: each step
    in float32, the result rounded once), or None where one is not float16 (or ``xp`` has
    no float16, as a strict array API namespace)."""
    half = getattr(xp, "float16", None)
    if half is None or any(x.dtype != half for x in arrays):
        return None
    return tuple(xp.astype(x, xp.float32) for x in arrays)


def addcdiv(xp: Any, a: Any, b: Any, c: Any, value: float = 1) -> Any:
    """``a + (value * b) / c`` as torch's ``addcdiv`` (no fused step: each one rounded).

    >>> addcdiv(np, np.float32([1.0]), np.float32([2.0]), np.float32([4.0]), -1)
    array([0.5], dtype=float32)
    """
    if all(type(x) is np.ndarray and x.dtype == np.float32 for x in (a, b, c)):
        value = np.float32(value)
    if (wide := _half_in_float32(xp, a, b, c)) is not None:
        a, b, c = wide
        return xp.astype(a + (b * np.float32(value)) / c, xp.float16)
    return a + (b if value == 1 else b * value) / c


def lerp(xp: Any, a: Any, b: Any, weight: Any) -> Any:
    """``a + weight * (b - a)`` as torch's ``lerp``: from ``a`` where the weight (a number or
    an array) is below 0.5, from ``b`` elsewhere, with fused multiply-adds for float32.

    >>> lerp(np, np.float32([0.0]), np.float32([8.0]), 0.25)
    array([2.], dtype=float32)
    >>> lerp(np, np.float32([0.0, 0.0]), np.float32([8.0, 8.0]), np.float32([0.25, 0.75]))
    array([2., 6.], dtype=float32)
    """
    if (wide := _half_in_float32(xp, a, b)) is not None:  # torch's opmath
        weight = weight if not hasattr(weight, "shape") else xp.astype(weight, xp.float32)
        return xp.astype(lerp(xp, *wide, weight), xp.float16)
    if not hasattr(weight, "shape"):  # a number: one of the two forms for every element
        if _float32(a, b):
            w = np.float32(weight)
            if abs(w) < 0.5:
                return _fma(w, b - a, a)
            return _fma(a - b, np.float32(1) - w, b)
        if _float64(a, b):
            return fma(weight, b - a, a) if abs(weight) < 0.5 else fma(a - b, 1 - weight, b)
        if abs(weight) < 0.5:
            return a + weight * (b - a)
        return b - (b - a) * (1 - weight)
    near = xp.abs(weight) < 0.5
    if _float32(a, b, weight):
        return np.where(near, _fma(weight, b - a, a), _fma(a - b, np.float32(1) - weight, b))
    if _float64(a, b, weight):
        return np.where(near, fma(weight, b - a, a), fma(a - b, 1 - weight, b))
    return xp.where(near, a + weight * (b - a), b - (b - a) * (1 - weight))


def linspace(xp: Any, start: float, end: float, steps: int, dtype: Any) -> Any:
    """torch's float ``linspace`` (steps >= 2): ``start + step*i`` for the first half,
    ``end - step*(steps-1-i)`` for the second, in the dtype itself, fused where torch fuses
    (integer dtypes: in float64, truncated after).

    >>> float(linspace(np, -5, 5, 200, np.float32)[28])
    -3.5929648876190186
    """
    start, end = xp.asarray(start, dtype=dtype), xp.asarray(end, dtype=dtype)
    count = xp.arange(steps)
    half = count < steps // 2
    i, back = xp.astype(count, dtype), xp.astype(steps - 1 - count, dtype)
    with quiet():  # a span past the dtype's range is inf (and inf * 0 nan), as in torch
        # (half: each operation rounded to half, as c10::Half's operators do)
        step = (end - start) / xp.asarray(steps - 1, dtype=dtype)
        if fuses() and type(i) is np.ndarray and i.dtype == np.float32:
            return np.where(half, _fma(step, i, start), _fma(-step, back, end))
        if fuses() and type(i) is np.ndarray and i.dtype == np.float64:
            return np.where(half, fma(step, i, start), fma(-step, back, end))
        return xp.where(half, start + step * i, end - step * back)


def arange(xp: Any, start: float, step: float, length: int, dtype: Any) -> Any:
    """torch's float ``arange``: ``start + step*i`` in float64, rounded to ``dtype``.

    torch's kernel writes 2 vectors (8 float32 or 4 float64 values each) at a time: a vector
    starts at the rounded value of its first index and adds ``k*step`` (k = 0, 1, ...) in
    float64 to it; the values after the last pair of vectors are computed one by one.

    >>> arange(np, -8.0, 0.1, 160, np.float32)[80]
    np.float32(4.440892e-16)
    """
    i = xp.arange(length, dtype=xp.float64)
    if type(i) is not np.ndarray:
        return xp.astype(start + step * i, dtype)
    muladd = fma if fuses() else (lambda a, b, c: a * b + c)
    with np.errstate(over="ignore"):  # past float32's range is inf, as in torch
        out = muladd(step, i, start).astype(dtype)
    lanes = 32 // out.itemsize
    vectors = length // (2 * lanes) * 2
    if vectors:
        first = out[:vectors * lanes:lanes].astype(np.float64)[:, None]
        k = np.arange(lanes, dtype=np.float64)
        with np.errstate(over="ignore"):
            out[:vectors * lanes] = muladd(k, step, first).astype(dtype).ravel()
    return out
