"""The special functions of ``torch.special`` beyond the top-level ones: the entropy term
``entr``, the scaled ``erfcx``, the normal distribution's ``ndtr``/``ndtri``/``log_ndtr``,
the exponentially scaled ``i0e``/``i1e``, the Bessel functions of integer order, Airy's
``Ai`` and the regularized incomplete gamma functions ``igamma``/``igammac``.

The array API has none of them, so each is summed here from array operations in float64
(float32 rounded once at the end): power series where they converge without loss, the
Hankel expansions for large arguments, and for ``K_ν`` the integral
``∫₀^∞ exp(-x cosh t) cosh(νt) dt`` by the trapezoid rule, which converges geometrically
for an integrand analytic in a strip.

>>> import minitorch
>>> minitorch.special.bessel_j0(minitorch.tensor([0., 1.]))
tensor([1.0000, 0.7652])
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .. import _args, _libm
from .._tensor import Tensor
from .special_functions import (
    _I0E_HIGH,
    _I0E_LOW,
    _I1_FLOAT_TERMS,
    _I1E_HIGH,
    _I1E_LOW,
    _chebyshev,
    erfc_array,
)
from .unary_more import erf_array

__all__ = [
    "airy_ai_array",
    "bessel_j_array",
    "bessel_k_array",
    "bessel_y_array",
    "entr_array",
    "erfcx_array",
    "float_operand",
    "igamma_array",
    "log_ndtr_array",
    "ndtri_array",
    "polynomial_array",
    "scaled_i_array",
    "spherical_j0_array",
    "zeta_array",
]

_EULER = 0.5772156649015329
_SERIES, _HANKEL = 60, 30
_HANKEL_FROM = 14.0  # J/Y: power series below (|error| ~ 1e-12), Hankel's expansion above


def float_operand(kernel: str, a: Tensor, halves: bool = False) -> Any:
    """The array a special function of ``a`` computes on: integers and bools as the default
    float dtype, half types (where the kernel has them: ``halves``) as float32; any other
    dtype refused as torch's dispatch refuses it (``"<kernel>" not implemented for ...``)."""
    from .._dtype import get_default_dtype

    xp, dt = a._xp, a.dtype
    if not dt.is_floating_point and not dt.is_complex:
        return xp.astype(a._data, getattr(xp, get_default_dtype().name))
    if dt.name in ("float32", "float64"):
        return a._data
    if halves and dt.name in ("float16", "bfloat16"):
        return xp.astype(a._data, xp.float32)
    raise _args.not_implemented(kernel, dt)


def _wide(xp: Any, x: Any) -> Any:
    return xp.astype(x, xp.float64)


def _back(xp: Any, out: Any, like: Any) -> Any:
    return xp.astype(out, like.dtype)


def entr_array(xp: Any, a: Any) -> Any:
    """``-x log x``: 0 at 0, -inf below 0 (NaN stays).

    >>> import numpy as np
    >>> entr_array(np, np.array([0.0, 0.5, -1.0])).round(4).tolist()
    [0.0, 0.3466, -inf]
    """
    safe = xp.where(a > 0, a, xp.ones_like(a))
    out = -a * xp.log(safe)
    out = xp.where(a == 0, xp.zeros_like(a), out)
    return xp.where(a < 0, xp.full_like(a, -math.inf), out)


def _erfcx_large(xp: Any, x: Any) -> Any:
    """``exp(x²) erfc(x)`` for x >= 3: the continued fraction of erfc without its exp."""
    tail = x
    for k in range(60, 0, -1):
        tail = x + (k / 2) / tail
    return 1 / math.sqrt(math.pi) / tail


def erfcx_array(xp: Any, a: Any) -> Any:
    """``exp(x²) erfc(x)``, the scaled complementary error function.

    >>> import numpy as np
    >>> erfcx_array(np, np.array([0.0, 1.0, 30.0])).round(6).tolist()
    [1.0, 0.427584, 0.018796]
    """
    x = _wide(xp, a)
    near = xp.clip(x, -26.7, 3.0)
    small = xp.exp(near * near) * erfc_array(xp, near)
    out = xp.where(x < 3, small, _erfcx_large(xp, xp.where(x < 3, 3.0, x)))
    out = xp.where(x < -26.7, xp.full_like(x, math.inf), out)
    return _back(xp, xp.where(xp.isnan(x), x, out), a)


def log_ndtr_array(xp: Any, a: Any) -> Any:
    """``log Φ(x)``: through ``erfcx`` in the lower tail, ``log1p`` in the upper.

    >>> import numpy as np
    >>> log_ndtr_array(np, np.array([0.0, -10.0])).round(4).tolist()
    [-0.6931, -53.2313]
    """
    t = _wide(xp, a) / math.sqrt(2)
    low = xp.where(t < -1, t, -1.0)
    lower = xp.log(erfcx_array(xp, -low) / 2) - low * low
    upper = xp.log1p(-erfc_array(xp, xp.where(t < -1, 0.0, t)) / 2)
    return _back(xp, xp.where(t < -1, lower, upper), a)


def _ndtr(xp: Any, x: Any) -> Any:
    return erfc_array(xp, -x / math.sqrt(2)) / 2


def ndtri_array(xp: Any, a: Any) -> Any:
    """The inverse of the normal distribution function: a rational first guess
    (Abramowitz and Stegun 26.2.23) on the lower half, then Newton's steps on
    ``log Φ(x) = log p`` (whose tail keeps the digits of subnormal ``p``).

    >>> import numpy as np
    >>> ndtri_array(np, np.array([0.5, 0.975, 0.0])).round(6).tolist()
    [0.0, 1.959964, -inf]
    """
    p = _wide(xp, a)
    lower = xp.where(p > 0.5, 1 - p, p)
    log_q = xp.log(xp.where((lower > 0) & (lower <= 0.5), lower, 0.5))
    t = xp.sqrt(-2 * log_q)
    x = -(t - (2.515517 + 0.802853 * t + 0.010328 * t * t)
          / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t))
    for _ in range(4):
        ratio = math.sqrt(math.pi / 2) * erfcx_array(xp, -x / math.sqrt(2))  # Φ(x) / φ(x)
        x = x - (log_ndtr_array(xp, x) - log_q) * ratio
    x = xp.where(p > 0.5, -x, x)
    for _ in range(2):  # near the middle, on Φ(x) - 1/2 = erf(x/√2)/2 (p - 1/2 is exact)
        density = xp.exp(-x * x / 2) / math.sqrt(2 * math.pi)
        step = (erf_array(xp, x / math.sqrt(2)) / 2 - (p - 0.5)) / density
        x = xp.where(xp.abs(p - 0.5) < 0.25, x - step, x)
    x = xp.where(p == 0, xp.full_like(p, -math.inf), x)
    x = xp.where(p == 1, xp.full_like(p, math.inf), x)
    x = xp.where((p < 0) | (p > 1) | xp.isnan(p), xp.full_like(p, math.nan), x)
    return _back(xp, x, a)


def scaled_i_array(xp: Any, a: Any, order: int) -> Any:
    """``exp(-|x|) I_order(x)`` by Cephes' Chebyshev series, in the dtype as torch's
    ``i0e``/``i1e`` kernels (float32's ``i0e(0)`` is ``1 - 2⁻²⁴``).

    >>> import numpy as np
    >>> scaled_i_array(np, np.array([1.0]), 0).round(6).tolist()
    [0.46576]
    """
    low, high = (_I0E_LOW, _I0E_HIGH) if order == 0 else (_I1E_LOW, _I1E_HIGH)
    if order == 1 and a.dtype == xp.float32:
        low, high = low[-_I1_FLOAT_TERMS[0]:], high[-_I1_FLOAT_TERMS[1]:]
    x = xp.abs(a)
    far = xp.where(x <= 8, xp.full_like(x, 8), x)
    near = _chebyshev(xp, x / 2 - 2, low)
    if order == 1:
        near = near * x
    out = xp.where(x <= 8, near, _chebyshev(xp, 32 / far - 2, high) / xp.sqrt(far))
    return xp.where(a < 0, -out, out) if order == 1 else out


def _j_series(xp: Any, x: Any, order: int) -> tuple:
    """``J_order(x)`` by its power series, and the sum of its terms weighted by the harmonic
    numbers that the series of ``Y_order`` needs."""
    q = -(x * x) / 4
    term = xp.ones_like(x) if order == 0 else x / 2
    total, weighted = term, term * (0.0 if order == 0 else 1.0)
    harmonic = 0.0
    for k in range(1, _SERIES):
        term = term * q / (k * (k + order))
        harmonic = harmonic + 1 / k
        total = total + term
        weighted = weighted + term * (harmonic if order == 0 else 2 * harmonic + 1 / (k + 1))
    return total, weighted


def _hankel(xp: Any, x: Any, order: int) -> tuple:
    """Hankel's asymptotic ``P`` and ``Q`` of order ``order`` at large ``x``."""
    mu = 4 * order * order
    term = xp.ones_like(x)
    p, q = term, xp.zeros_like(x)
    for k in range(1, _HANKEL):
        term = term * (mu - (2 * k - 1) ** 2) / (8 * k) / x
        sign = -1 if (k // 2) % 2 else 1
        if k % 2:
            q = q + sign * term
        else:
            p = p + sign * term
    return p, q


def _phase(xp: Any, x: Any, order: int) -> tuple:
    """``cos`` and ``sin`` of ``x - (order/2 + 1/4) π``, the difference rounded first as
    Cephes' (torch's) kernels round it."""
    chi = x - (order / 2 + 0.25) * math.pi
    return xp.cos(chi), xp.sin(chi)


def _bessel_far(xp: Any, x: Any, order: int) -> tuple:
    far = xp.where(x < _HANKEL_FROM, _HANKEL_FROM, x)
    p, q = _hankel(xp, far, order)
    cos_chi, sin_chi = _phase(xp, far, order)
    scale = xp.sqrt(2 / (math.pi * far))
    return scale * (p * cos_chi - q * sin_chi), scale * (p * sin_chi + q * cos_chi)


def bessel_j_array(xp: Any, a: Any, order: int) -> Any:
    """The Bessel function of the first kind ``J_order`` (order 0 or 1).

    >>> import numpy as np
    >>> bessel_j_array(np, np.array([1.0, 20.0]), 1).round(6).tolist()
    [0.440051, 0.066833]
    """
    w = _wide(xp, a)
    x = xp.abs(w)
    near = xp.where(x < _HANKEL_FROM, x, 0.0)
    series, _ = _j_series(xp, near, order)
    far, _ = _bessel_far(xp, xp.where(xp.isinf(x), _HANKEL_FROM, x), order)
    out = xp.where(x < _HANKEL_FROM, series, far)
    if order == 1:
        out = xp.where(w < 0, -out, out)
    return _back(xp, xp.where(xp.isnan(x) | xp.isinf(x), xp.full_like(x, math.nan), out), a)


def bessel_y_array(xp: Any, a: Any, order: int) -> Any:
    """The Bessel function of the second kind ``Y_order`` (order 0 or 1): -inf at 0, NaN
    below.

    >>> import numpy as np
    >>> bessel_y_array(np, np.array([1.0, 20.0]), 0).round(6).tolist()
    [0.088257, 0.062641]
    """
    x = _wide(xp, a)
    near = xp.where((x < _HANKEL_FROM) & (x > 0), x, 1.0)
    j, weighted = _j_series(xp, near, order)
    log_half = xp.log(near) - math.log(2) + _EULER  # (near / 2 underflows at 5e-324)
    if order == 0:
        series = 2 / math.pi * (log_half * j - weighted)
    else:
        series = 2 / math.pi * log_half * j - 2 / (math.pi * near) - weighted / math.pi
    _, far = _bessel_far(xp, xp.where(xp.isinf(x), _HANKEL_FROM, x), order)
    out = xp.where(x < _HANKEL_FROM, series, far)
    out = xp.where(x == 0, xp.full_like(x, -math.inf), out)
    bad = (x < 0) | xp.isnan(x) | xp.isinf(x)
    return _back(xp, xp.where(bad, xp.full_like(x, math.nan), out), a)


_STEP, _NODES = 0.125, 49  # the trapezoid rule's t = 0, 1/8, ..., 6


def _k_integral(xp: Any, x: Any, order: float) -> Any:
    """``exp(x) K_order(x)`` for x >= 1.5: ``∫₀^∞ exp(-x (cosh t - 1)) cosh(order t) dt``."""
    total = xp.zeros_like(x)
    for j in range(_NODES):
        t = j * _STEP
        weight = 0.5 if j == 0 else 1.0
        total = total + weight * math.cosh(order * t) * xp.exp(
            -x * (2 * math.sinh(t / 2) ** 2))
    return total * _STEP


_ASYMPTOTIC_FROM = 30.0


def _k_scaled(xp: Any, x: Any, order: float) -> Any:
    """``exp(x) K_order(x)`` for x >= 1.5: the trapezoid rule below 30 (beyond, the
    integrand's peak is narrower than its step), the asymptotic expansion above."""
    near = _k_integral(xp, xp.where(x < _ASYMPTOTIC_FROM, x, _ASYMPTOTIC_FROM), order)
    far = xp.where(x < _ASYMPTOTIC_FROM, _ASYMPTOTIC_FROM, x)
    term, total = xp.ones_like(far), xp.ones_like(far)
    for k in range(1, 40):
        term = term * (4 * order * order - (2 * k - 1) ** 2) / (8 * k) / far
        total = total + term
    return xp.where(x < _ASYMPTOTIC_FROM, near, xp.sqrt(math.pi / (2 * far)) * total)


def _k_series(xp: Any, x: Any, order: int) -> Any:
    """``K_order(x)`` for small x, by its power series around ``I_order``."""
    t = x * x / 4
    term = xp.ones_like(x)
    i_sum, weighted = term, term * (0.0 if order == 0 else 1.0)
    harmonic = 0.0
    for k in range(1, 40):
        term = term * t / (k * (k + order))
        harmonic = harmonic + 1 / k
        i_sum = i_sum + term
        weighted = weighted + term * (harmonic if order == 0 else
                                      2 * harmonic + 1 / (k + 1))
    log_half = xp.log(x / 2) + _EULER  # (-inf where x/2 underflows, as Cephes' log(0.5 x))
    if order == 0:
        return -log_half * i_sum + weighted
    return 1 / x + log_half * (x / 2) * i_sum - x / 4 * weighted


def bessel_k_array(xp: Any, a: Any, order: int, scaled: bool = False) -> Any:
    """The modified Bessel function of the second kind ``K_order`` (times ``exp(x)`` where
    ``scaled``): inf at 0, NaN below 0.

    >>> import numpy as np
    >>> bessel_k_array(np, np.array([1.0, 3.0]), 0).round(6).tolist()
    [0.421024, 0.03474]
    """
    x = _wide(xp, a)
    small = xp.where((x > 0) & (x < 1.5), x, 1.0)
    near = _k_series(xp, small, order)
    if scaled:
        near = near * xp.exp(small)
    big = xp.where((x >= 1.5) & ~xp.isinf(x), x, 1.5)
    far = _k_scaled(xp, big, order)
    far = far if scaled else far * xp.exp(-big)
    out = xp.where(x < 1.5, near, far)
    out = xp.where(xp.isinf(x), xp.zeros_like(x), out)
    out = xp.where(x == 0, xp.full_like(x, math.inf), out)
    # Cephes' log(x/2) is -inf where x/2 underflows in the dtype: K0 inf, K1 NaN (-inf · 0);
    # torch's float32 K0 alone keeps its digits there
    if order == 1 or scaled or a.dtype == xp.float64:
        underflow = (a > 0) & (a / 2 == 0)
        out = xp.where(underflow, xp.full_like(x, math.inf if order == 0 else math.nan), out)
    bad = (x < 0) | xp.isnan(x)
    return _back(xp, xp.where(bad, xp.full_like(x, math.nan), out), a)


def spherical_j0_array(xp: Any, a: Any) -> Any:
    """``sin(x) / x``, 1 at 0 and 0 at ±inf.

    >>> import numpy as np
    >>> spherical_j0_array(np, np.array([0.0, 1.0])).round(6).tolist()
    [1.0, 0.841471]
    """
    x = _wide(xp, a)
    safe = xp.where((x == 0) | xp.isinf(x), 1.0, x)
    out = xp.where(xp.abs(x) < 1e-4, 1 - x * x / 6, xp.sin(safe) / safe)
    out = xp.where(xp.isinf(x), xp.zeros_like(x), out)
    return _back(xp, xp.where(xp.isnan(x), x, out), a)


_AI0, _AI1 = 0.3550280538878172, 0.2588194037928068  # Ai(0) and -Ai'(0)


def _airy_series(xp: Any, x: Any) -> Any:
    cube = x * x * x
    f, g = xp.ones_like(x), x
    tf, tg = xp.ones_like(x), x
    for k in range(1, 60):
        tf = tf * cube / ((3 * k - 1) * (3 * k))
        tg = tg * cube / ((3 * k) * (3 * k + 1))
        f, g = f + tf, g + tg
    return _AI0 * f - _AI1 * g


# Cephes' rational fits of Ai's modulus and phase corrections in 1/ζ², as torch's kernel takes
# them: its denominators lack Cephes' leading 1 (p1evl read as polevl), which leaves Ai
# below -2.09 about 1e-5 off in relative terms; torch's values are these
_AFN = (-1.31696323418331795333e-01, -6.26456544431912369773e-01,
        -6.93158036036933542233e-01, -2.79779981545119124951e-01,
        -4.91900132609500318020e-02, -4.06265923594885404393e-03,
        -1.59276496239262096340e-04, -2.77649108155232920844e-06,
        -1.67787698489114633780e-08)
_AFD = (1.33560420706553243746e+01, 3.26825032795224613948e+01, 2.67367040941499554804e+01,
        9.18707402907259625840e+00, 1.47529146771666414581e+00, 1.15687173795188044134e-01,
        4.40291641615211203805e-03, 7.54720348287414296618e-05, 4.51850092970580378464e-07)
_AGN = (1.97339932091685679179e-02, 3.91103029615688277255e-01, 1.06579897599595591108e+00,
        9.39169229816650230044e-01, 3.51465656105547619242e-01, 6.33888919628925490927e-02,
        5.85804113048388458567e-03, 2.82851600836737019778e-04, 6.98793669997260967291e-06,
        8.11789239554389293311e-08, 3.41551784765923618484e-10)
_AGD = (9.30892908077441974853e+00, 1.98352928718312140417e+01, 1.55646628932864612953e+01,
        5.47686069422975497931e+00, 9.54293611618961883998e-01, 8.64580826352392193095e-02,
        4.12656523824222607191e-03, 1.01259085116509135510e-04, 1.17166733214413521882e-06,
        4.91834570062930015649e-09)


def _horner(x: Any, coefficients: tuple) -> Any:
    total = x * 0 + coefficients[0]
    for c in coefficients[1:]:
        total = total * x + c
    return total


def _airy_oscillating(xp: Any, x: Any, narrow: Any) -> Any:
    """``Ai(-x)`` for x > 2.09 as torch's kernel (Cephes') takes it: ``ζ = 2/3 x^{3/2}``,
    rational corrections in ``1/ζ²`` to the modulus and phase, and the phase ``ζ + π/4``
    rounded in the dtype of ``narrow`` (``x`` there) as the kernel rounds it (where ``ζ`` is
    large, its float32 value is the phase torch's sine takes)."""
    z = 1 / (2 * x * xp.sqrt(x) / 3)
    zz = z * z
    modulus = 1 + zz * _horner(zz, _AFN) / _horner(zz, _AFD)
    phase_shift = z * _horner(zz, _AGN) / _horner(zz, _AGD)
    root = xp.sqrt(narrow)
    phase = _wide(xp, 2 * narrow * root / 3 + math.pi / 4)
    return (1 / math.sqrt(math.pi)) / xp.sqrt(xp.sqrt(x)) * (
        xp.sin(phase) * modulus - xp.cos(phase) * phase_shift)


def airy_ai_array(xp: Any, a: Any) -> Any:
    """Airy's function ``Ai``: oscillating below 0, decaying above.

    >>> import numpy as np
    >>> airy_ai_array(np, np.array([0.0, 1.0, -10.0])).round(6).tolist()
    [0.355028, 0.135292, 0.040241]
    """
    x = _wide(xp, a)
    middle = (x >= -2.09) & (x <= 2)
    series = _airy_series(xp, xp.where(middle, x, 0.0))
    low = xp.where((x < -2.09) & ~xp.isinf(x), -x, 7.0)
    oscillating = _airy_oscillating(xp, low, xp.astype(low, a.dtype))
    high = xp.where((x > 2) & ~xp.isinf(x), x, 2.0)
    zeta = 2 / 3 * high * xp.sqrt(high)
    decaying = xp.sqrt(high / 3) / math.pi * _k_scaled(xp, zeta, 1 / 3) * xp.exp(-zeta)
    out = xp.where(middle, series, xp.where(x < -2.09, oscillating, decaying))
    out = xp.where(x > 103.892, xp.zeros_like(x), out)  # (Cephes' cut to 0)
    bad = xp.isinf(x) | xp.isnan(x)
    return _back(xp, xp.where(bad, xp.full_like(x, math.nan), out), a)


def _lgamma(xp: Any, a: Any) -> Any:
    from .gamma import lgamma_array

    return lgamma_array(xp, a)


_GAMMA_TERMS = 2000


def _gamma_series(xp: Any, a: Any, x: Any) -> Any:
    """``P(a, x)`` for ``x < a + 1``: ``x^a e^-x / Γ(a+1) Σ x^n / ((a+1)...(a+n))``."""
    term = xp.ones_like(x)
    total = term
    for n in range(1, _GAMMA_TERMS):
        term = term * x / (a + n)
        total = total + term
        if n % 50 == 0 and bool(xp.all(term <= total * 1e-17)):
            break
    return xp.exp(a * xp.log(x) - x - _lgamma(xp, a + 1)) * total


def _gamma_fraction(xp: Any, a: Any, x: Any) -> Any:
    """``Q(a, x)`` for ``x >= a + 1``: Legendre's continued fraction, by Lentz's method."""
    tiny = 1e-300
    b = x + 1 - a
    c = xp.full_like(x, 1 / tiny)
    d = 1 / b
    h = d
    for i in range(1, _GAMMA_TERMS):
        an = -i * (i - a)
        b = b + 2
        d = an * d + b
        d = xp.where(xp.abs(d) < tiny, tiny, d)
        c = b + an / c
        c = xp.where(xp.abs(c) < tiny, tiny, c)
        d = 1 / d
        delta = d * c
        h = h * delta
        if i % 50 == 0 and bool(xp.all(xp.abs(delta - 1) <= 1e-16)):
            break
    return xp.exp(a * xp.log(x) - x - _lgamma(xp, a)) * h


def igamma_array(xp: Any, a: Any, x: Any, upper: bool = False) -> Any:
    """The regularized lower incomplete gamma function ``P(a, x)`` (``Q = 1 - P`` where
    ``upper``), as torch's ``igamma``/``igammac``: NaN for negative arguments.

    >>> import numpy as np
    >>> igamma_array(np, np.array([1.0, 2.0]), np.array([1.0, 3.0])).round(6).tolist()
    [0.632121, 0.800852]
    """
    av, xv = _wide(xp, a), _wide(xp, x)
    av, xv = xp.broadcast_arrays(av, xv)
    valid = (av > 0) & (xv > 0) & xp.isfinite(av) & xp.isfinite(xv)
    sa, sx = xp.where(valid, av, 1.0), xp.where(valid, xv, 1.0)
    use_series = sx < sa + 1
    p = _gamma_series(xp, sa, xp.where(use_series, sx, xp.zeros_like(sx) + 0.5 * sa))
    q = _gamma_fraction(xp, sa, xp.where(use_series, sa + 1, sx))
    lower = xp.where(use_series, p, 1 - q)
    upper_q = xp.where(use_series, 1 - p, q)
    out = upper_q if upper else lower
    nan = xp.full_like(av, math.nan)
    low_edge, high_edge = (xp.ones_like(av), xp.zeros_like(av)) if upper else \
        (xp.zeros_like(av), xp.ones_like(av))
    out = xp.where(xp.isnan(av) | xp.isnan(xv), nan, out)
    # torch's kernel's edges, the first taken first (so applied here last)
    out = xp.where(xp.isinf(xv), high_edge, out)
    out = xp.where(xp.isinf(av), xp.where(xp.isinf(xv), nan, low_edge), out)
    out = xp.where(xv == 0, low_edge, out)
    out = xp.where(av == 0, xp.where(xv > 0, high_edge, nan), out)
    out = xp.where((xv < 0) | (av < 0), nan, out)
    return xp.astype(out, xp.result_type(a, x))



def _recurrence(xp: Any, x: Any, n: Any, first: Any, step: Callable) -> Any:
    """``p_n(x)`` of each element's degree ``n`` by a three-term recurrence from ``p_0 = 1``
    and ``p_1 = first``: ``p_{k+1} = step(k, p_k, p_{k-1})``."""
    previous, current = xp.ones_like(x), first
    out = xp.where(n == 0, previous, xp.where(n == 1, current, xp.zeros_like(x)))
    pending = n > 1
    top = int(xp.max(xp.where(pending, n, 1.0))) if x.size else 1
    for k in range(1, top):
        previous, current = current, step(k, current, previous)
        out = xp.where(n == k + 1, current, out)
        if k % 64 == 0 and bool(xp.all(~pending | (n <= k + 1) | xp.isnan(current))):
            out = xp.where(pending & (n > k + 1), current, out)
            break  # (the rest are NaN, which their recurrence would keep)
    return out


def _sign(xp: Any, positive: Any) -> Any:
    """1 where ``positive``, else -1."""
    one = xp.ones(positive.shape)
    return xp.where(positive, one, -one)


def _chebyshev_kind(xp: Any, x: Any, n: Any, kind: str, shifted: bool = False) -> Any:
    """Chebyshev's polynomials of the four kinds, with torch's closed forms on ``(-1, 1)``
    above its degree for each (``shifted``: its shifted polynomial's, ``x`` shifted already)
    and its values at ``±1``."""
    first = {"t": x, "u": 2 * x, "v": 2 * x - 1, "w": 2 * x + 1}[kind]
    inside = xp.abs(x) < 1
    cutoff = {"t": 6, "u": 6, "v": 6, "w": 4}[kind] if shifted else 6 if kind == "t" else 8
    closed_form = (inside & (n > cutoff)) | (xp.abs(x) == 1)  # (no recurrence to degree n:
    out = _recurrence(xp, x, xp.where(closed_form, 0, n), first,  # a huge one takes no time)
                      lambda k, p, q: 2 * x * p - q)
    theta = _libm.c_math_of(xp, "acos", xp.where(inside, x, 0.0))  # torch's std:: calls
    # (numpy's vector acos and sin may differ from them by an ulp, which a degree of 2**31
    # makes visible)
    odd = (n % 2) == 1
    degree = xp.astype(n, xp.int64)  # torch's degree is an int64: its sums wrap past 2**63,
    half = xp.astype(n, x.dtype) + 0.5  # and it meets x in x's dtype
    if kind == "t":
        closed = _libm.c_math_of(xp, "cos", xp.astype(n, x.dtype) * theta)
        edge = _sign(xp, (x > 0) | ~odd)
    elif kind == "u":
        closed = _libm.c_math_of(xp, "sin", xp.astype(degree + 1, x.dtype) * theta) / \
            _libm.c_math_of(xp, "sin", theta)
        edge = xp.where((x > 0) | ~odd, degree + 1, -(degree + 1))
    elif kind == "v":
        closed = _libm.c_math_of(xp, "cos", half * theta) / _libm.c_math_of(xp, "cos", theta / 2)
        edge = xp.where(x > 0, 1, xp.where(odd, -(degree + degree + 1), degree + degree + 1))
    else:
        closed = _libm.c_math_of(xp, "sin", half * theta) / _libm.c_math_of(xp, "sin", theta / 2)
        edge = xp.where(x > 0, degree + degree + 1, xp.astype(_sign(xp, ~odd), xp.int64))
    out = xp.where(inside & (n > cutoff), closed, out)
    return xp.where(xp.abs(x) == 1, xp.astype(edge, x.dtype), out)


def polynomial_array(xp: Any, x: Any, n: Any, kind: str) -> Any:
    """torch.special's orthogonal polynomial ``kind`` of degree ``n`` (truncated to an
    integer; 0 where it is negative or no int64) at ``x``.

    >>> import numpy as np
    >>> polynomial_array(np, np.array([0.5, 2.0]), np.array([3.0]), "hermite_h").tolist()
    [-5.0, 40.0]
    """
    x, n = xp.broadcast_arrays(x, n)
    wide = x  # (in the dtype, as torch's kernels: float32 overflows as theirs)
    degree = _wide(xp, n)
    valid = xp.isfinite(degree) & (xp.abs(degree) < 2.0 ** 63)
    degree = xp.trunc(xp.where(valid, degree, -1.0))
    if kind.startswith("shifted_"):
        out = _chebyshev_kind(xp, 2 * wide - 1, degree, kind[-1], shifted=True)
    elif kind.startswith("chebyshev_"):
        out = _chebyshev_kind(xp, wide, degree, kind[-1])
    elif kind == "hermite_h":
        out = _recurrence(xp, wide, degree, 2 * wide, lambda k, p, q: 2 * wide * p - 2 * k * q)
    elif kind == "hermite_he":
        out = _recurrence(xp, wide, degree, wide, lambda k, p, q: wide * p - k * q)
    elif kind == "laguerre_l":
        out = _recurrence(xp, wide, degree, 1 - wide,
                          lambda k, p, q: ((2 * k + 1 - wide) * p - k * q) / (k + 1))
        out = xp.where(wide == 0, xp.ones_like(wide), out)
    else:  # legendre_p
        out = _recurrence(xp, wide, degree, wide,
                          lambda k, p, q: ((2 * k + 1) * wide * p - k * q) / (k + 1))
        odd = (degree % 2) == 1
        out = xp.where(xp.abs(wide) == 1, _sign(xp, (wide > 0) | ~odd), out)
    out = xp.where(degree < 0, xp.zeros_like(wide), out)
    return xp.astype(out, x.dtype)


def _euler_maclaurin() -> tuple:
    """``(2k)! / B_2k`` for k = 1..12: the tail coefficients of Hurwitz's zeta."""
    from fractions import Fraction

    bernoulli = [Fraction(1)]
    for m in range(1, 25):
        bernoulli.append(-sum(math.comb(m + 1, j) * bernoulli[j] for j in range(m)) / (m + 1))
    return tuple(float(math.factorial(2 * k) / bernoulli[2 * k]) for k in range(1, 13))


_ZETA_TAIL = _euler_maclaurin()


def zeta_array(xp: Any, x: Any, q: Any) -> Any:
    """Hurwitz's zeta ``Σ_k (k + q)^-x`` as Cephes sums it (Euler-Maclaurin; an asymptotic
    form beyond ``q = 1e8``): inf at ``x = 1`` and at the poles ``q = 0, -1, ...``, NaN
    where ``x < 1`` or a negative ``q`` has a fractional power.

    >>> import numpy as np
    >>> zeta_array(np, np.array([2.0, 3.0]), np.array([1.0, 2.0])).round(6).tolist()
    [1.644934, 0.202057]
    """
    xw, qw = xp.broadcast_arrays(_wide(xp, x), _wide(xp, q))
    pole = (qw <= 0) & (qw == xp.floor(qw))
    valid = (xw > 1) & ~pole & ((qw > 0) | (xw == xp.floor(xw))) & (qw <= 1e8)
    sx, sq = xp.where(valid, xw, 2.0), xp.where(valid, qw, 1.0)
    total, a = sq ** -sx, sq
    i = 0
    while True:
        active = (a <= 9) | (i < 9)
        if not bool(xp.any(active)) or i > 100000:
            break
        a = xp.where(active, a + 1, a)
        total = xp.where(active, total + a ** -sx, total)
        i += 1
    w = a
    b = w ** -sx
    total = total + b * w / (sx - 1) - 0.5 * b
    factor, k = xp.ones_like(sx), 0.0
    for coefficient in _ZETA_TAIL:
        factor = factor * (sx + k)
        b = b / w
        total = total + factor * b / coefficient
        factor, b, k = factor * (sx + k + 1), b / w, k + 2
    big = xp.where(qw > 1e8, qw, 1e8)
    far = (1 / (xw - 1) + 1 / (2 * big)) * big ** (1 - xw)
    out = xp.where(valid, total, xp.where((qw > 1e8) & (xw > 1), far, math.nan))
    out = xp.where(pole | (xw == 1), math.inf, out)
    out = xp.where((xw < 1) | xp.isnan(xw) | xp.isnan(qw) | (qw == math.inf), math.nan, out)
    return xp.astype(out, xp.result_type(x, q))
