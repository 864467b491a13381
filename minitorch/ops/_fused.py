"""torch's CPU float32 ``add(alpha=)``, ``addcmul``, ``addcdiv`` and ``lerp``, bit for bit.

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

The scalar ``s`` (or ``w``) is first rounded to float32, as torch's kernel does. The fused
forms are taken for float32 numpy arrays; any other array (float64, CuPy, array-api-strict)
gets the same formula with its library's own rounding.

>>> import numpy as np
>>> p, g = np.float32([0.15494743]), np.float32([-0.7537045])
>>> float(add_scaled(np, p, g, -0.01)[0])  # torch's SGD step, lr=0.01
0.16248448193073273
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._libm import fmaf

__all__ = ["add_scaled", "addcdiv", "addcmul", "lerp"]


def _float32(*arrays: Any) -> bool:
    """Every array is a float32 numpy array (the kernels measured above)."""
    return all(type(a) is np.ndarray and a.dtype == np.float32 for a in arrays)


def _fma(a: np.ndarray, b: Any, c: np.ndarray) -> np.ndarray:
    """``a*b + c`` rounded once, broadcast; a float32 array (0-d where all are)."""
    a, b, c = np.broadcast_arrays(np.asarray(a, np.float32), np.asarray(b, np.float32),
                                  np.asarray(c, np.float32))
    return fmaf(a, b, c).reshape(a.shape)


def add_scaled(xp: Any, a: Any, b: Any, alpha: float) -> Any:
    """``a + alpha * b`` as torch's ``add(alpha=)``: one fused multiply-add for float32.

    >>> add_scaled(np, np.float32([1.0]), np.float32([3.0]), 0.5)
    array([2.5], dtype=float32)
    """
    if alpha == 1:
        return a + b
    if _float32(a, b):
        return _fma(b, np.float32(alpha), a)
    return a + b * alpha


def addcmul(xp: Any, a: Any, b: Any, c: Any, value: float = 1) -> Any:
    """``a + value * b * c`` as torch's ``addcmul``: ``fma(value*b, c, a)`` for float32.

    >>> addcmul(np, np.float32([1.0]), np.float32([2.0]), np.float32([3.0]), 0.5)
    array([4.], dtype=float32)
    """
    if _float32(a, b, c):
        scaled = b if value == 1 else b * np.float32(value)
        return _fma(scaled, c, a)
    return a + (b if value == 1 else b * value) * c


def addcdiv(xp: Any, a: Any, b: Any, c: Any, value: float = 1) -> Any:
    """``a + (value * b) / c`` as torch's ``addcdiv`` (no fused step: each one rounded).

    >>> addcdiv(np, np.float32([1.0]), np.float32([2.0]), np.float32([4.0]), -1)
    array([0.5], dtype=float32)
    """
    if _float32(a, b, c):
        value = np.float32(value)
    return a + (b if value == 1 else b * value) / c


def lerp(xp: Any, a: Any, b: Any, weight: float) -> Any:
    """``a + weight * (b - a)`` as torch's ``lerp`` with a number ``weight``: from ``a`` for
    a weight below 0.5, from ``b`` above, with fused multiply-adds for float32.

    >>> lerp(np, np.float32([0.0]), np.float32([8.0]), 0.25)
    array([2.], dtype=float32)
    """
    if _float32(a, b):
        w = np.float32(weight)
        if abs(w) < 0.5:
            return _fma(w, b - a, a)
        return _fma(a - b, np.float32(1) - w, b)
    if abs(weight) < 0.5:
        return a + weight * (b - a)
    return b - (b - a) * (1 - weight)
