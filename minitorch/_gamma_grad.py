"""The reparameterised gradients of Gamma and Dirichlet samples, as torch's CPU kernels
compute them (``standard_gamma_grad_one`` and ``dirichlet_grad_one`` of ATen's
``Distributions.h``): ``-(d cdf / d alpha) / pdf`` at the sample, from a series for small
samples, Rice's saddle-point expansion for large alphas, and fitted rational approximations
elsewhere; one number at a time, with torch's float32 steps where it takes them, so each
gradient equals torch's.

>>> import numpy as np
>>> standard_gamma_grad(np.array([0.5]), np.array([0.3])).round(4).tolist()
[1.0098]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import _libm

__all__ = ["dirichlet_grad", "standard_gamma_grad"]



def _c(name: str, arity: int = 1, single: bool = False) -> Any:
    """The C library's ``name``, its result a numpy scalar: arithmetic on it then divides by
    zero as C does (an infinity or a NaN, where Python's floats raise)."""
    function, ftype = _libm.scalar(name, arity, single), np.float32 if single else np.float64
    return lambda *x: ftype(function(*x))


_LOG, _EXP, _TAN, _POW = _c("log"), _c("exp"), _c("tan"), _c("pow", 2)
_LOGF, _TANF, _POWF = _c("logf", single=True), _c("tanf", single=True), _c("powf", 2, True)
_F32 = {v: float(np.float32(v)) for v in (0.8, 0.9, 1.1, 1e17)}  # C++ float literals


def _each(fn: Any, dtype: Any, *arrays: np.ndarray) -> np.ndarray:
    """``fn`` on the numbers of ``arrays`` (broadcast), in ``dtype``."""
    arrays = np.broadcast_arrays(*(np.asarray(a, dtype=dtype) for a in arrays))
    ftype = np.float32 if dtype == np.float32 else np.float64  # numpy's: C's division
    with np.errstate(all="ignore"):
        values = [fn(*map(ftype, numbers), ftype) for numbers in zip(*(a.ravel().tolist()
                                                                       for a in arrays))]
    return np.array(values, dtype=dtype).reshape(arrays[0].shape)


def standard_gamma_grad(alpha: np.ndarray, x: np.ndarray) -> np.ndarray:
    """d x / d alpha of Gamma(alpha, 1) samples ``x`` (torch's ``_standard_gamma_grad``)."""
    return _each(lambda a, v, ftype: _gamma_grad_one(np.float64(a), np.float64(v)),
                 alpha.dtype, alpha, x)


def dirichlet_grad(x: np.ndarray, alpha: np.ndarray, total: np.ndarray) -> np.ndarray:
    """d x / d alpha of the Beta(alpha, total - alpha) samples ``x``, divided by ``1 - x``
    (torch's ``_dirichlet_grad``)."""
    return _each(_dirichlet_grad_one, x.dtype, x, alpha, total)


_PSI_10 = 2.25175258906672110764
_DIGAMMA_ASYMPTOTIC = (8.33333333333333333333e-2, -2.10927960927960927961e-2,
                       7.57575757575757575758e-3, -4.16666666666666666667e-3,
                       3.96825396825396825397e-3, -8.33333333333333333333e-3,
                       8.33333333333333333333e-2)


def _digamma(x: Any, ftype: Any = np.float64) -> Any:
    """Cephes' digamma as torch's ``digamma_one``: ``x`` of ``ftype`` (its scalar type)
    pushed up to 10 in that type, the series and sum in float64."""
    if x == 0:
        return ftype(math.inf)
    reflection = 0.0
    if x < 0:
        if x == math.floor(x):
            return ftype(math.inf)
        pi = ftype(math.pi)
        tan = _TANF(pi * x) if ftype is np.float32 else _TAN(pi * x)
        reflection = float(ftype(-pi / ftype(tan)))
        x = ftype(1) - x
    result = 0.0
    while x < 10:
        result -= float(ftype(1) / x)
        x += ftype(1)
    if x == 10:
        return ftype(result + _PSI_10 + reflection)
    y = 0.0
    if x < _F32[1e17]:
        z = 1.0 / float(x * x)
        poly = 0.0
        for coefficient in _DIGAMMA_ASYMPTOTIC:
            poly = poly * z + coefficient
        y = z * poly
    log = float(_LOGF(x) if ftype is np.float32 else _LOG(x))
    return ftype(result + log - float(ftype(0.5) / x) - y + reflection)


def _gamma_grad_one(alpha: float, x: float) -> float:
    if x < _F32[0.8]:  # a Taylor series of the cdf
        numer, denom = 1.0, alpha
        series1, series2 = numer / denom, numer / (denom * denom)
        for i in range(1, 6):
            numer *= -x / i
            denom += 1
            series1 += numer / denom
            series2 += numer / (denom * denom)
        pow_x_alpha = _POW(x, alpha)
        pdf = _POW(x, alpha - 1) * _EXP(-x)
        cdf = pow_x_alpha * series1
        cdf_alpha = (_LOG(x) - _digamma(alpha)) * cdf - pow_x_alpha * series2
        result = -cdf_alpha / pdf
        return 0.0 if math.isnan(result) else result
    if alpha > 8:
        return _gamma_grad_saddle_point(alpha, x)
    return _gamma_grad_rational(alpha, x)


def _gamma_grad_saddle_point(alpha: float, x: float) -> float:
    if _F32[0.9] * alpha <= x <= _F32[1.1] * alpha:
        numer_1 = 1 + 24 * alpha * (1 + 12 * alpha)
        numer_2 = (1440 * (alpha * alpha) + 6 * x * (53 - 120 * x) - 65 * x * x / alpha
                   + alpha * (107 + 3600 * x))
        return numer_1 * numer_2 / (1244160 * (alpha * alpha) * (alpha * alpha))
    denom = math.sqrt(8 * alpha)
    term2 = denom / (alpha - x)
    term3 = _POW(x - alpha - alpha * _LOG(x / alpha), -1.5)
    term23 = term2 - term3 if x < alpha else term2 + term3
    term1 = (_LOG(x / alpha) * term23
             - math.sqrt(2 / alpha) * (alpha + x) / ((alpha - x) * (alpha - x)))
    stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
    return -stirling * (x * term1) / denom


# torch's fitted coefficients of the bivariate rational approximation, in u = log(x / alpha)
# (rows: u**0, u**1, u**2) of p's four and q's four coefficients in v = log(alpha)
_GAMMA_RATIONAL = ((0.16009398, -0.094634809, 0.025146376, -0.0030648343,
                    1, 0.32668115, 0.10406089, 0.0014179084),
                   (0.53487893, 0.1298071, 0.065735949, -0.0015649758,
                    0.16639465, 0.020070113, -0.0035938915, -0.00058392623),
                   (0.040121004, -0.0065914022, -0.0026286047, -0.0013441777,
                    0.017050642, -0.0021309326, 0.00085092367, -1.5247877e-07))


def _gamma_grad_rational(alpha: float, x: float) -> float:
    u, v = _LOG(x / alpha), _LOG(alpha)
    c = [c0 + u * (c1 + u * c2) for c0, c1, c2 in zip(*_GAMMA_RATIONAL)]
    p = c[0] + v * (c[1] + v * (c[2] + v * c[3]))
    q = c[4] + v * (c[5] + v * (c[6] + v * c[7]))
    return _EXP(p / q)


def _dirichlet_grad_one(x: Any, alpha: Any, total: Any, ftype: Any) -> float:
    beta = total - alpha
    boundary = total * x * (1 - x)
    if x <= 0.5 and boundary < 2.5:  # x near 0
        return _beta_grad_alpha_small(x, alpha, beta, ftype)
    if x >= 0.5 and boundary < 0.75:  # x near 1
        return -_beta_grad_beta_small(1 - x, beta, alpha, ftype)
    if alpha > 6 and beta > 6:
        wide = np.float64
        return _beta_grad_alpha_mid(wide(x), wide(alpha), wide(total) - wide(alpha))
    return _beta_grad_rational(np.float64(x), np.float64(alpha), np.float64(total), ftype)


def _beta_grad_alpha_small(x: Any, alpha: Any, beta: Any, ftype: Any) -> Any:
    """A Taylor series in ``x`` (near 0), in torch's scalar type ``ftype``."""
    factor = _digamma(alpha, ftype) - _digamma(alpha + beta, ftype) - _log(x, ftype)
    numer = ftype(1)
    series = numer / alpha * (factor + 1 / alpha)
    for i in range(1, 11):
        i = ftype(i)
        numer *= (i - beta) * x / i
        denom = alpha + i
        series += numer / denom * (factor + 1 / denom)
    result = x * _pow(1 - x, -beta, ftype) * series
    return ftype(0) if math.isnan(result) else result


def _beta_grad_beta_small(x: Any, alpha: Any, beta: Any, ftype: Any) -> Any:
    factor = _digamma(alpha + beta, ftype) - _digamma(beta, ftype)
    numer, betas, dbetas, series = ftype(1), ftype(1), ftype(0), factor / alpha
    for i in range(1, 9):
        i = ftype(i)
        numer *= -x / i
        dbetas = dbetas * (beta - i) + betas
        betas = betas * (beta - i)
        series += numer / (alpha + i) * (dbetas + factor * betas)
    result = -_pow(1 - x, 1 - beta, ftype) * series
    return ftype(0) if math.isnan(result) else result


def _log(x: Any, ftype: Any) -> Any:
    return _LOGF(x) if ftype is np.float32 else _LOG(x)


def _pow(x: Any, y: Any, ftype: Any) -> Any:
    return _POWF(x, y) if ftype is np.float32 else _POW(x, y)



def _beta_grad_alpha_mid(x: float, alpha: float, beta: float) -> float:
    """Rice's saddle-point expansion for large alpha and beta, in float64."""
    total = alpha + beta
    mean = alpha / total
    std = math.sqrt(alpha * beta / (total + 1)) / total
    if mean - 0.1 * std <= x <= mean + 0.1 * std:  # near the singularity at x = mean
        poly = 47 * x * (beta * beta) * (beta * beta) + alpha * (
            (43 + 20 * (16 + 27 * beta) * x) * (beta * beta) * beta + alpha * (
                3 * (59 + 180 * beta - 90 * x) * (beta * beta) + alpha * (
                    (453 + 1620 * beta * (1 - x) - 455 * x) * beta + alpha * (
                        8 * (1 - x) * (135 * beta - 11)))))
        prefactor_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
        prefactor_den = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total)
        return prefactor_num / (1 - x) * poly / prefactor_den
    prefactor = -x / math.sqrt(2 * alpha * beta / total)
    stirling = ((1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha))
                * (1 + 1 / (12 * beta) + 1 / (288 * beta * beta))
                / (1 + 1 / (12 * total) + 1 / (288 * total * total)))
    term1_num = 2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * (beta * beta)
    axbx = alpha * (x - 1) + beta * x
    term1_den = math.sqrt(2 * alpha / beta) * _POW(total, 1.5) * axbx * axbx
    term1 = term1_num / term1_den
    term2 = 0.5 * _LOG(alpha / (total * x))
    term3 = math.sqrt(8 * alpha * beta / total) / (beta * x + alpha * (x - 1))
    term4_base = beta * _LOG(beta / (total * (1 - x))) + alpha * _LOG(alpha / (total * x))
    term4 = _POW(term4_base, -1.5)
    return stirling * prefactor * (term1 + term2 * (term3 + (term4 if x < mean else -term4)))


# torch's fitted coefficients of the rational correction: [p or q][u power][a power] give
# four coefficients of a cubic in b
_BETA_RATIONAL = (
    (((1.003668233, -0.01061107488, -0.0657888334, 0.01201642863),
      (0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033),
      (-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013)),
     ((0.221950385, -0.3187676331, 0.01799915743, 0.01074823814),
      (-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057),
      (0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05)),
     ((-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565),
      (0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181),
      (0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05))),
    (((1, -0.02924021934, -0.04438342661, 0.007285809825),
      (0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521),
      (-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149)),
     ((0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273),
      (0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956),
      (-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05)),
     ((0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05),
      (0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05),
      (-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06))))


def _beta_grad_rational(x: float, alpha: float, total: float, ftype: Any) -> float:
    """An analytic approximation times a fitted rational correction, in float64 (its digammas
    in torch's scalar type)."""
    u = _LOG(x)
    a = _LOG(alpha) - u
    b = _LOG(total) - a
    pow_u, pow_a = (1, u, u * u), (1, a, a * a)
    p = q = 0.0
    for i in range(3):
        for j in range(3):
            ua = pow_u[i] * pow_a[j]
            cp, cq = _BETA_RATIONAL[0][i][j], _BETA_RATIONAL[1][i][j]
            p += ua * (cp[0] + b * (cp[1] + b * (cp[2] + b * cp[3])))
            q += ua * (cq[0] + b * (cq[1] + b * (cq[2] + b * cq[3])))
    approx = x * float(_digamma(ftype(total), ftype) - _digamma(ftype(alpha), ftype)) \
        / (total - alpha)
    return p / q * approx
