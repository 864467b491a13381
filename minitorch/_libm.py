"""The float32 math behind torch's normal numbers: the C library's ``logf``, ``sinf`` and
``cosf`` (torch's DEFAULT CPU kernels call them), the cephes ``log`` and ``sincos`` of
``avx_mathfun.h`` (its AVX2/AVX512 kernels), vectorised with numpy, and C's ``fmaf``.

torch's float32 ``randn`` evaluates these functions element by element (its Box-Muller kernel
for 16 or more numbers), and they are not correctly rounded: about 1 result in 100 differs in
its last bit from the nearest float to the true value, so numpy's own float32 functions do not
reproduce them.

- Without AVX2, torch calls the platform's C library; so does minitorch, through ctypes (one
  call per number: slow, and only on machines without AVX2). Where no C maths library can be
  loaded, the float64 result rounded to float32 stands in (then the last bit may differ).
- torch's AVX2 kernel (its AVX512 build runs the same) takes 8 numbers at a time through
  Julien Pommier's ``avx_mathfun.h`` (zlib licence), after the cephes library of Stephen
  Moshier: float32 polynomials, where the compiler fuses every product that feeds a sum into
  one ``fma``. ``avx_log`` and ``avx_sincos`` take the same steps, with the same published
  cephes coefficients, on arrays.

>>> import numpy as np
>>> logf(np.array([1.0, 0.5], dtype=np.float32))
array([ 0.       , -0.6931472], dtype=float32)
>>> cosf(np.array([0.0], dtype=np.float32)), sinf(np.array([0.0], dtype=np.float32))
(array([1.], dtype=float32), array([0.], dtype=float32))
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["avx_log", "avx_sincos", "c_math", "c_math_of", "chbevl_fused", "cosf", "exp_of", "expf",
           "fma", "fmaf", "logf", "pow_of", "scalar", "sinf"]


@functools.cache
def _c_math(name: str, ctype: Any = ctypes.c_float,
            arity: int = 1) -> Callable[..., float] | None:
    """The C library's function ``name`` of ``arity`` ``ctype`` arguments, or None where none
    can be loaded."""
    for library in ("m", "c", "ucrtbase"):
        path = ctypes.util.find_library(library)
        try:
            function = getattr(ctypes.CDLL(path), name) if path else None
        except (OSError, AttributeError):
            continue
        if function is not None:
            function.restype, function.argtypes = ctype, [ctype] * arity
            return function
    return None


def _elementwise(name: str, fallback: Callable[[np.ndarray], np.ndarray],
                 x: np.ndarray) -> np.ndarray:
    function = _c_math(name)
    if function is None:
        return fallback(x.astype(np.float64)).astype(np.float32)
    return np.fromiter(map(function, x.ravel().tolist()), np.float32, x.size).reshape(x.shape)


def c_math(name: str, x: np.ndarray) -> np.ndarray:
    """The C library's ``name`` of each float64 in ``x``, or its ``name + "f"`` of each
    float32 (the scalar ``std::`` calls of torch's CPU kernels); numpy's where none loads.

    >>> c_math("asinh", np.array([0.0, 1.0]))
    array([0.        , 0.88137359])
    """
    if x.dtype == np.float32:
        return _elementwise(f"{name}f", getattr(np, name), x)
    function = _c_math(name, ctypes.c_double)
    if function is None:
        return getattr(np, name)(x)
    return np.fromiter(map(function, x.ravel().tolist()), np.float64, x.size).reshape(x.shape)


def c_math_of(xp: Any, name: str, x: Any) -> Any:
    """:func:`c_math` for a float numpy array (a scalar loop of torch's calls ``std::name``
    there), else ``xp``'s own ``name``.

    >>> float(c_math_of(np, "log1p", np.float32([-0.5]))[0])
    -0.6931471824645996
    """
    if type(x) is np.ndarray and x.dtype.char in "fd":
        return c_math(name, x)
    return getattr(xp, name)(x)


def exp_of(xp: Any, x: Any) -> Any:
    """The C library's ``exp`` (``expf`` for float32) of a numpy array, nearly always to the
    bit and without a call per number: glibc's ``expf`` is the float64 exp rounded, and its
    ``exp`` is within a hair of correct rounding, which ``expl`` rounded reaches (99.9%);
    numpy's own float64 ``exp`` (SVML's on AVX512 machines) differs from it in 4%. Other
    arrays take ``xp.exp``.

    >>> float(exp_of(np, np.float32([1.0]))[0])
    2.7182817459106445
    """
    if isinstance(x, np.generic):  # a 0-d array's arithmetic gave a numpy scalar
        x = np.asarray(x)
    if type(x) is np.ndarray and x.dtype.char in "fd":
        wide = np.float64 if x.dtype.char == "f" or np.finfo(np.longdouble).nmant <= 52 \
            else np.longdouble
        with np.errstate(over="ignore"):
            return np.exp(x.astype(wide)).astype(x.dtype)
    return xp.exp(x)


def pow_of(xp: Any, a: Any, exponent: float) -> Any:
    """``a ** exponent`` as the C library's ``pow`` gives it (nearly correctly rounded): for
    a float numpy array in long double, rounded once (99.9% of ``pow``'s bits; numpy's own
    float64 power, SVML's on AVX512 machines, has 95%), an integral exponent by squaring
    (``powl`` is 10-100 times slower); other arrays take ``xp``'s power.

    >>> float(pow_of(np, np.array([2.0]), -3.0)[0])
    0.125
    """
    if type(a) is not np.ndarray or np.finfo(np.longdouble).nmant <= 52:
        return a ** exponent
    wide = a.astype(np.longdouble)
    with np.errstate(all="ignore"):
        k = abs(int(exponent))
        if exponent != int(exponent) or not 0 < k < 2 ** 16:
            return np.power(wide, np.longdouble(exponent)).astype(a.dtype)
        power = None
        while k:
            if k & 1:
                power = wide if power is None else power * wide
            k >>= 1
            if k:
                wide = wide * wide
        return (1 / power if exponent < 0 else power).astype(a.dtype)


def chbevl_fused(y: Any, coefficients: tuple) -> Any:
    """Cephes' ``chbevl`` of a float numpy ``y`` as torch's AVX2 kernels compile it, each
    step's ``y * b1 - b2`` fused into one ``fma``; None for any other array (and for float64
    of more than 64 values). float32 values are carried in float64, where ``y * b1`` is exact
    and ``- b2`` rounds at most once (a second rounding to float32 errs only on an exact tie,
    about once in 2**29); float64 ones in long double (99.9% of fma's bits), whose steps cost
    20 to 50 times float64's on long arrays but not twice as much on a few values, where
    numpy's call overhead dominates.

    >>> chbevl_fused(np.float32([0.0, 1.0]), (1.0, 2.0))
    array([1. , 1.5], dtype=float32)
    """
    if isinstance(y, np.generic):  # a 0-d array's arithmetic gave a numpy scalar
        y = np.asarray(y)
    if type(y) is not np.ndarray:
        return None
    if y.dtype == np.float32:
        wide, rounded = y.astype(np.float64), np.float32
    elif y.dtype == np.float64 and y.size <= 64 and np.finfo(np.longdouble).nmant > 52:
        wide, rounded = y.astype(np.longdouble), np.float64
    else:
        return None
    b0, b1 = np.full_like(wide, float(rounded(coefficients[0]))), np.zeros_like(wide)
    b2 = b1
    for c in coefficients[1:]:
        b2, b1 = b1, b0
        fused = (wide * b1 - b2).astype(rounded)
        b0 = (fused + rounded(c)).astype(wide.dtype)
    return rounded(0.5) * (b0.astype(rounded) - b2.astype(rounded))


def scalar(name: str, arity: int = 1, single: bool = False) -> Callable[..., float]:
    """The C library's float64 ``name`` of ``arity`` arguments (its float32 one, ``name``
    ending in ``f``, where ``single``) on Python numbers, as torch's scalar loops call it: no
    Python exception where C gives an infinity or a NaN (``math.log(0.0)`` raises); numpy's
    where no C library loads.

    >>> scalar("log")(0.0), scalar("pow", 2)(2.0, 0.5) == 2 ** 0.5
    (-inf, True)
    """
    function = _c_math(name, ctypes.c_float if single else ctypes.c_double, arity)
    if function is not None:
        return function
    base = name.removesuffix("f") if single else name
    ufunc = getattr(np, "power" if base == "pow" else base)
    ftype = np.float32 if single else np.float64

    def fallback(*x: float) -> float:
        with np.errstate(all="ignore"):
            return float(ufunc(*map(ftype, x)))
    return fallback


def expf(x: np.ndarray) -> np.ndarray:
    """The C library's ``expf`` of each float32 in ``x`` (torch's scalar kernels call it)."""
    return _elementwise("expf", np.exp, x)


def logf(x: np.ndarray) -> np.ndarray:
    """The C library's ``logf`` of each float32 in ``x``."""
    return _elementwise("logf", np.log, x)


def sinf(x: np.ndarray) -> np.ndarray:
    """The C library's ``sinf`` of each float32 in ``x``."""
    return _elementwise("sinf", np.sin, x)


def cosf(x: np.ndarray) -> np.ndarray:
    """The C library's ``cosf`` of each float32 in ``x``."""
    return _elementwise("cosf", np.cos, x)


# the 29 bits a float64 has below a float32's last one, and their value half-way between two
# floats (numpy scalars made once: fmaf runs on tiny arrays, where each call's set-up shows)
_LOW_BITS, _HALF_WAY = np.uint64(0x1FFFFFFF), np.uint64(0x10000000)


def fmaf(a: np.ndarray, b: Any, c: Any) -> np.ndarray:
    """C's ``fmaf``: float32 ``a*b + c`` rounded once. An operand may come as a float64
    array or a Python float holding a float32 value: the same sum, one conversion fewer.

    >>> fmaf(np.float32([3]), np.float32(2), np.float32(1))
    array([7.], dtype=float32)
    """
    s = np.multiply(a, b, dtype=np.float64)  # exact: 24 + 24 bits
    s += c
    r = s.astype(np.float32)
    # rounding twice goes wrong only where the float64 sum sits exactly half-way between two
    # floats (its 29 bits below float32's are 1000...0): mend those few, exactly
    halfway = np.bitwise_and(s.view(np.uint64), _LOW_BITS) == _HALF_WAY
    if np.count_nonzero(halfway):  # cheaper than .any() on a small array
        p = np.multiply(a, b, dtype=np.float64)  # a mask, not nonzero(): 0-d arrays too
        r = np.asarray(r)  # 0-d operands gave a numpy scalar
        r[halfway] = _round_once(p[halfway],
                                 np.broadcast_to(np.asarray(c, np.float64), p.shape)[halfway])
    return r


def fma(a: Any, b: Any, c: Any) -> np.ndarray:
    """C's ``fma``: ``a*b + c`` in float64 rounded (nearly always) once: the product's exact
    error by Dekker's split, the sum's by Knuth's two-sum, added back before the last
    rounding; where the split itself overflows (a factor past about 1e300), rounded twice.

    >>> float(fma(1e308, 0.0, 0.0)), float(fma(1e308, 1.0, 0.0))
    (0.0, 1e+308)
    """
    a, b, c = (np.asarray(v, np.float64) for v in (a, b, c))
    with np.errstate(over="ignore", invalid="ignore"):
        # numpy broadcasts each step itself: no np.broadcast_arrays (a third of the time
        # on the small arrays of an RNN's sigmoid)
        return np.asarray(fma_split(a, dekker_split(a), b, dekker_split(b), c))


def fma_split(a: Any, a_parts: tuple[Any, Any], b: Any, b_parts: tuple[Any, Any],
              c: Any) -> Any:
    """:func:`fma` of float64 ``a``, ``b``, ``c`` with the factors' Dekker splits
    (:func:`dekker_split`) given, for a caller that multiplies by one value several times or
    by a constant (SLEEF's polynomials): each split made once, not once per product.
    The caller holds ``np.errstate`` (overflow and invalid are expected here).

    >>> float(fma_split(3.0, dekker_split(3.0), 0.1, dekker_split(0.1), 1.0))
    1.3
    """
    p = a * b
    a_hi, a_lo = a_parts
    b_hi, b_lo = b_parts
    p_err = ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo
    s = p + c
    back = s - p
    s_err = (p - (s - back)) + (c - back)
    fused = s + (s_err + p_err)
    # a split that overflowed leaves NaN where the plain sum is a number: that sum then
    # (a test first, since a NaN is rare and the mend costs four passes)
    nan = np.isnan(fused)
    if np.count_nonzero(nan):
        return np.where(nan & ~np.isnan(s), s, fused)
    return fused


def dekker_split(x: Any) -> tuple[Any, Any]:
    """Dekker's split of float64 ``x`` in a high part of 26 bits and the rest: products of
    such parts are exact."""
    big = 134217729.0 * x  # 2**27 + 1
    high = big - (big - x)
    return high, x - high


def _round_once(p: np.ndarray, c: np.ndarray) -> np.ndarray:
    """``p + c`` rounded once to float32, for sums whose float64 value is half-way."""
    s = p + c
    back = s - p
    err = (p - (s - back)) + (c - back)  # s + err == p + c exactly
    r = s.astype(np.float32)
    t = r.astype(np.float64)
    other = (2 * s - t).astype(np.float32)  # the float on the other side of s
    return np.where((err != 0) & (np.sign(err) == np.sign(s - t)), other, r)


def _f(value: float) -> np.float32:
    return np.float32(value)


_LOG_P = [_f(v) for v in (7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1,
                          -1.2420140846e-1, 1.4249322787e-1, -1.6668057665e-1,
                          2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1)]
_LOG_Q1, _LOG_Q2 = _f(-2.12194440e-4), _f(0.693359375)
_SQRTHF = _f(0.707106781186547524)
_ONE, _HALF = _f(1), _f(0.5)


def avx_log(x: np.ndarray) -> np.ndarray:
    """``log256_ps`` of torch's ``avx_mathfun.h`` for positive normal float32 ``x``: split
    x = m * 2**e with m in [sqrt(1/2), sqrt(2)), then a degree-9 polynomial in m - 1."""
    bits = x.view(np.uint32)
    e = ((bits >> 23).astype(np.int32) - 0x7F).astype(np.float32) + _ONE
    m = ((bits & np.uint32(0x807FFFFF)) | np.uint32(0x3F000000)).view(np.float32)  # [0.5, 1)
    low = m < _SQRTHF
    e = e - np.where(low, _ONE, _f(0))
    m = (m - _ONE) + np.where(low, m, _f(0))
    z = m * m
    y = np.full_like(m, _LOG_P[0])
    for p in _LOG_P[1:]:
        y = fmaf(y, m, p)
    y = fmaf(y * m, z, e * _LOG_Q1)
    y = y - z * _HALF
    return (m + y) + e * _LOG_Q2


_DP = [_f(-0.78515625), _f(-2.4187564849853515625e-4), _f(-3.77489497744594108e-8)]
_SIN_P = [_f(-1.9515295891e-4), _f(8.3321608736e-3), _f(-1.6666654611e-1)]
_COS_P = [_f(2.443315711809948e-5), _f(-1.388731625493765e-3), _f(4.166664568298827e-2)]
_FOUR_OVER_PI = _f(1.27323954473516)


def avx_sincos(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``sincos256_ps`` of torch's ``avx_mathfun.h`` for non-negative float32 ``x``: reduce
    by an even multiple j of pi/4 in three steps, then cephes' sine and cosine polynomials,
    swapped and signed by j."""
    j = (x * _FOUR_OVER_PI).astype(np.int32)
    j = (j + 1) & ~1
    y = j.astype(np.float32)
    for dp in _DP:
        x = fmaf(y, dp, x)
    z = x * x
    cos = fmaf(fmaf(np.full_like(x, _COS_P[0]), z, _COS_P[1]), z, _COS_P[2])
    cos = fmaf(cos * z, z, -(z * _HALF)) + _ONE
    sin = fmaf(fmaf(np.full_like(x, _SIN_P[0]), z, _SIN_P[1]), z, _SIN_P[2])
    sin = fmaf(sin * z, x, x)
    swapped = (j & 2) != 0
    sin, cos = np.where(swapped, cos, sin), np.where(swapped, sin, cos)
    return np.where((j & 4) != 0, -sin, sin), np.where(((j - 2) & 4) == 0, -cos, cos)
