"""The C library's ``pow`` and ``powf`` (glibc's and musl's ``powf`` from Arm's
optimized-routines) on arrays, the way torch's scalar loops call ``std::pow``.

torch's vector norm of any order but 0, 1, 2 and ±inf adds ``powf(|x|, p)`` one by one and
ends with ``powf(sum, 1/p)``. That ``powf`` is not correctly rounded (its bound is 0.82 ulp):
``pow`` in float64 rounded to float32 misses it for about 1 number in 1500, and a norm of a
few hundred values then shows it in its last bit. The algorithm, all in float64:

* ``log2 x``: ``x = 2**k * z`` with ``z`` near 1; ``c`` the centre of z's sixteenth of the
  range ``[0x3f330000, 2*0x3f330000)`` as a float's bits, ``r = z/c - 1`` (``z * invc - 1``)
  and ``log2 x = k + log2 c + P(r)``, ``P`` of degree 5;
* ``2**(y log2 x)``: ``y log2 x = k/32 + r`` with ``|r| <= 1/64``, ``2**(k/32)`` from a table
  of 32 doubles whose exponent field takes ``k // 32``, ``2**r`` a cubic;
* the float64 result rounded once to float32 (so underflow to a subnormal rounds right).

Measured against the C library's ``powf`` through ctypes on 200 000 random floats for five
orders: every bit. :func:`powf` takes a non-negative ``x`` (a norm's absolute values) and a
Python float ``y`` that is a float32 value.

numpy's own ``power`` differs from both in the last bit for a few numbers in a hundred where
it has SIMD code (SVML on AVX512 machines). :func:`c_pow` picks: :func:`powf` for float32
numpy arrays; for a float64 numpy array of at most ``C_POW_MAX`` numbers (a norm's values,
logspace's exponents), the C library's ``pow``, one call each through ctypes (too slow for
more: numpy's stands in there); the namespace's own power for any other array.

>>> float(powf(np.float32([2.0]), 3.0)[0]), float(powf(np.float32([8.0]), 1 / 3)[0])
(8.0, 2.0)
"""

from __future__ import annotations

import ctypes
import itertools
import math
from typing import Any

import numpy as np

from ._libm import _c_math

__all__ = ["C_POW_MAX", "c_pow", "c_pow_of", "powf"]

C_POW_MAX = 128


def _hex(text: str) -> np.ndarray:
    return np.array([float.fromhex(v) for v in text.split()])


def _bits(text: str) -> np.ndarray:
    return np.array([int(v, 16) for v in text.split()], np.uint64)


# log2's sixteen subintervals: 1/c and log2(c) for each
_INV_C = _hex("0x1.661ec79f8f3bep+0 0x1.571ed4aaf883dp+0 0x1.49539f0f010bp+0 0x1.3c995b0b80385p+0 "
              "0x1.30d190c8864a5p+0 0x1.25e227b0b8eap+0 0x1.1bb4a4a1a343fp+0 0x1.12358f08ae5bap+0 "
              "0x1.0953f419900a7p+0 0x1p+0 0x1.e608cfd9a47acp-1 0x1.ca4b31f026aap-1 "
              "0x1.b2036576afce6p-1 0x1.9c2d163a1aa2dp-1 0x1.886e6037841edp-1 "
              "0x1.767dcf5534862p-1")
_LOG2_C = _hex("-0x1.efec65b963019p-2 -0x1.b0b6832d4fca4p-2 -0x1.7418b0a1fb77bp-2 "
               "-0x1.39de91a6dcf7bp-2 -0x1.01d9bf3f2b631p-2 -0x1.97c1d1b3b7afp-3 "
               "-0x1.2f9e393af3c9fp-3 -0x1.960cbbf788d5cp-4 -0x1.a6f9db6475fcep-5 0x0p+0 "
               "0x1.338ca9f24f53dp-4 0x1.476a9543891bap-3 0x1.e840b4ac4e4d2p-3 "
               "0x1.40645f0c6651cp-2 0x1.88e9c2c1b9ff8p-2 0x1.ce0a44eb17bccp-2")
_LOG2_P = [float(v) for v in _hex("0x1.27616c9496e0bp-2 -0x1.71969a075c67ap-2 "
                                  "0x1.ec70a6ca7baddp-2 -0x1.7154748bef6c8p-1 "
                                  "0x1.71547652ab82bp0")]
# 2**(i/32) as bits, less i << 47, so that adding k << 47 puts k // 32 into the exponent
_EXP2_TABLE = _bits(
    "3ff0000000000000 3fefd9b0d3158574 3fefb5586cf9890f 3fef9301d0125b51 3fef72b83c7d517b "
    "3fef54873168b9aa 3fef387a6e756238 3fef1e9df51fdee1 3fef06fe0a31b715 3feef1a7373aa9cb "
    "3feedea64c123422 3feece086061892d 3feebfdad5362a27 3feeb42b569d4f82 3feeab07dd485429 "
    "3feea47eb03a5585 3feea09e667f3bcd 3fee9f75e8ec5f74 3feea11473eb0187 3feea589994cce13 "
    "3feeace5422aa0db 3feeb737b0cdc5e5 3feec49182a3f090 3feed503b23e255d 3feee89f995ad3ad "
    "3feeff76f2fb5e47 3fef199bdd85529c 3fef3720dcef9069 3fef5818dcfba487 3fef7c97337b9b5f "
    "3fefa4afa2a490da 3fefd0765b6e4540")
_EXP2_P = [float(v) for v in _hex("0x1.c6af84b912394p-5 0x1.ebfce50fac4f3p-3 "
                                  "0x1.62e42ff0c52d6p-1")]
_SHIFT = float.fromhex("0x1.8p+52") / 32  # adding it leaves round(32 x) in the low bits
_OFF = 0x3F330000
_OVERFLOW, _UNDERFLOW = float.fromhex("0x1.fffffffd1d571p+6"), -150.0


def powf(x: np.ndarray, y: float) -> np.ndarray:
    """``powf(x, y)`` of each non-negative float32 in ``x`` (NaN stays NaN).

    >>> powf(np.float32([0.0, 4.0, np.inf]), -0.5)
    array([inf, 0.5, 0. ], dtype=float32)
    """
    with np.errstate(all="ignore"):
        result = _exp2(y * _log2(np.asarray(x, np.float32)))
        special = (x == 0) | np.isinf(x) | np.isnan(x)
        if np.count_nonzero(special):  # 0, inf, NaN: C's rules, which numpy's pow keeps
            result = np.where(special, np.power(x, np.float32(y)), result)
    return result


def c_pow(xp: Any, x: Any, y: Any) -> Any:
    """C's ``pow(x, y)`` of each ``x`` of an array and the float ``y`` (``powf`` for float32,
    whose ``x`` must not be negative and ``y`` must be a float32 value), or of the float ``x``
    and each ``y`` of a float64 array, where it can be had at a cost near numpy's; ``x ** y``
    elsewhere.

    >>> c_pow(np, np.array([2.0, 9.0]), 0.5), c_pow(np, 10.0, np.array([-1.0, 2.0]))
    (array([1.41421356, 3.        ]), array([  0.1, 100. ]))
    """
    array = y if isinstance(x, float) else x
    if type(array) is np.ndarray and array.dtype == np.float32 and array is x:
        return powf(x, y)
    function = _c_math("pow", ctypes.c_double, 2)
    if (type(array) is not np.ndarray or array.dtype != np.float64 or array.size > C_POW_MAX
            or function is None):
        return x ** y
    xs, ys = (v.ravel().tolist() if v is array else itertools.repeat(v) for v in (x, y))
    return np.fromiter(map(function, xs, ys), np.float64, array.size).reshape(array.shape)


def c_pow_of(x: float, y: float) -> float:
    """C's ``pow`` of two floats (``math.pow`` where no C library loads, its errors C's values).

    >>> c_pow_of(0.0, -1.5), c_pow_of(-8.0, 1 / 3), c_pow_of(-10.0, 401.0)
    (inf, nan, -inf)
    """
    function = _c_math("pow", ctypes.c_double, 2)
    if function is not None:
        return function(x, y)
    try:
        return math.pow(x, y)
    except OverflowError:
        return -math.inf if x < 0 and y % 2 == 1 else math.inf
    except ValueError:  # 0 to a negative power, a negative number to a fraction
        return math.copysign(math.inf, x) if x == 0 and y % 2 == 1 else (
            math.inf if x == 0 else math.nan)


def _log2(x: np.ndarray) -> np.ndarray:
    """``log2 x`` in float64 for positive float32 ``x`` (subnormals scaled by ``2**23``)."""
    bits = x.view(np.int32)  # C's uint32 bits
    tiny = x < np.float32(2.0 ** -126)
    if tiny.any():
        bits = np.where(tiny, (x * np.float32(2.0 ** 23)).view(np.int32) - (23 << 23), bits)
    offset = bits - _OFF
    i = (offset >> 19) & 15  # the sixteenth, as C's unsigned % 16
    top = offset & -(1 << 23)  # the exponent part, kept signed
    z = (bits - top).view(np.float32).astype(np.float64)
    r = z * np.take(_INV_C, i) - 1
    a0, a1, a2, a3, a4 = _LOG2_P
    r2 = r * r
    log2_c = np.take(_LOG2_C, i) + (top >> 23)
    return (a0 * r + a1) * (r2 * r2) + ((a2 * r + a3) * r2 + (a4 * r + log2_c))


def _exp2(x: np.ndarray) -> np.ndarray:
    """``2**x`` of float64 ``x`` rounded to float32: overflow to inf, underflow to 0."""
    shifted = x + _SHIFT
    k = shifted.view(np.uint64)
    r = x - (shifted - _SHIFT)
    scale = (np.take(_EXP2_TABLE, k & np.uint64(31)) + (k << np.uint64(47))).view(np.float64)
    c0, c1, c2 = _EXP2_P
    y = ((c0 * r + c1) * (r * r) + (c2 * r + 1)) * scale
    if not ((x > _OVERFLOW) | (x <= _UNDERFLOW)).any():  # NaN passes through both
        return y.astype(np.float32)
    return np.where(x > _OVERFLOW, np.inf, np.where(x <= _UNDERFLOW, 0.0, y)).astype(np.float32)
