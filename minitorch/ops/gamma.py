"""The gamma family: ``lgamma`` (the log of ``|Γ(x)|``), ``digamma`` (its derivative),
``polygamma(n, x)`` (the n-th derivative of digamma) and the multivariate ``mvlgamma``, each
the derivative of the one before, as torch's backward formulas chain them.

The array API has none of these, so they are computed here from array operations: lgamma
from Lanczos' series in float64 (reflected below 1/2), rounded once; digamma, trigamma and
the Hurwitz zeta of the higher orders as torch's CPU kernels (Cephes') compute them, in the
input's dtype.

>>> import minitorch
>>> x = minitorch.tensor([0.5, 3.], requires_grad=True)
>>> minitorch.lgamma(x)
tensor([0.5724, 0.6931], grad_fn=<LgammaBackward0>)
>>> minitorch.digamma(x).sum().backward(); x.grad
tensor([4.9348, 0.3949])
"""

from __future__ import annotations

import math
from typing import Any

from .. import _args, _call_form, _libm, _mkl, _sleef
from .. import _dtype as D
from .._tensor import Tensor, check_inplace_allowed
from ..backend import cpu_math, half_via_float
from ._base import example, public_unary, wrap
from ._cascade_sum import torch_sum
from .pointwise import _ParametrizedUnary, _unary

__all__ = ["METHODS", "Digamma", "Lgamma", "Mvlgamma", "Polygamma", "PolygammaInPlace",
           "digamma", "lgamma", "mvlgamma", "polygamma", "torch_lgamma"]

_LANCZOS_G = 7.0
_LANCZOS = (0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
            -176.61502916214059, 12.507343278686905, -0.13857109526572012,
            9.9843695780195716e-6, 1.5056327351493116e-7)


def _lgamma_right(xp: Any, x: Any) -> Any:
    """lgamma of float64 ``x >= 1/2`` by Lanczos' series (g = 7, nine terms)."""
    x = x - 1
    series = xp.full(x.shape, _LANCZOS[0], dtype=x.dtype)
    for k, c in enumerate(_LANCZOS[1:], 1):
        series = series + c / (x + k)
    t = x + _LANCZOS_G + 0.5
    return 0.5 * math.log(2 * math.pi) + (x + 0.5) * xp.log(t) - t + xp.log(series)


def lgamma_array(xp: Any, a: Any) -> Any:
    """``log|Γ(a)|`` of a floating array: inf at 0, at the negative integers and at ±inf.

    >>> import numpy as np
    >>> lgamma_array(np, np.array([0.5, 1.0, 10.0])).round(12).tolist()
    [0.572364942925, 0.0, 12.801827480081]
    """
    x = xp.astype(a, xp.float64)
    right = _lgamma_right(xp, xp.where(x >= 0.5, x, 1 - x))
    # |sin(πx)| from x less its nearest integer (exact): no π x rounded for large x
    sin_pi = xp.abs(xp.sin(math.pi * (x - xp.round(x))))
    pole = sin_pi == 0
    reflected = math.log(math.pi) - xp.log(xp.where(pole, 1.0, sin_pi)) - right
    reflected = xp.where(pole, math.inf, reflected)
    out = xp.where(x >= 0.5, right, reflected)
    out = xp.where((x == 1) | (x == 2), xp.zeros_like(x), out)  # Γ is exactly 1 there
    out = xp.where(xp.isinf(x), xp.abs(x), out)
    return xp.astype(out, a.dtype)


def torch_lgamma(xp: Any, a: Any) -> Any:
    """lgamma as torch's CPU kernel gives it: SLEEF's vector ``lgamma``. float64 is MKL's
    ``vdLGamma`` where MKL is installed (torch's bits for 99.5% of doubles, against 30% for
    Lanczos' series); float32 on the host is SLEEF's own steps (:func:`~minitorch._sleef.lgammaf`:
    every bit of torch's, where the series in float64, rounded, misses 5 to 20% of the values
    in (0, 3), at ten times the cost); elsewhere the series.

    >>> import numpy as np
    >>> float(torch_lgamma(np, np.array([3.0]))[0]), float(torch_lgamma(np, np.float32([1.5]))[0])
    (0.6931471805599453, -0.12078223377466202)
    """
    if a.dtype == getattr(xp, "float16", None) or a.dtype == xp.float32:
        return _sleef.lgammaf_or(lgamma_array, xp, a)
    return _mkl.vector_maths_or("lgamma", lgamma_array, xp, a)


_PSI_10 = 2.25175258906672110764
_DIGAMMA_SERIES = (8.33333333333333333333E-2, -2.10927960927960927961E-2,
                   7.57575757575757575758E-3, -4.16666666666666666667E-3,
                   3.96825396825396825397E-3, -8.33333333333333333333E-3,
                   8.33333333333333333333E-2)


def digamma_array(xp: Any, a: Any) -> Any:
    """``ψ(a)`` of a floating array as torch's kernel (Cephes') computes it in its dtype:
    raised past 10 by ``ψ(x) = ψ(x+1) - 1/x``, then the asymptotic series; ``-inf``/``inf`` at
    ``+0``/``-0``, NaN at the negative integers, reflected below 0.

    >>> import numpy as np
    >>> digamma_array(np, np.array([1.0, 0.5])).round(12).tolist()
    [-0.577215664902, -1.963510026021]
    """
    negative = a < 0
    integer = a == xp.trunc(a)
    x = xp.where(negative, 1 - a, a)
    result = xp.zeros_like(a)
    for _ in range(10):  # x >= 0 reaches 10 within ten steps
        below = x < 10
        result = xp.where(below, result - 1 / xp.where(below, x, 1), result)
        x = xp.where(below, x + 1, x)
    z = 1 / (x * x)
    series = xp.zeros_like(z)
    for c in _DIGAMMA_SERIES:
        series = series * z + c
    tail = xp.where(x < 1.0e17, z * series, xp.zeros_like(z))
    out = xp.where(x == 10, result + _PSI_10, result + xp.log(x) - (0.5 / x) - tail)
    # the reflection's pi / tan(pi r) of the fractional part r, in float64 as torch's
    r = xp.astype(a - xp.trunc(a), xp.float64)
    cotangent = xp.astype(math.pi / xp.tan(math.pi * xp.where(integer, 0.5, r)), a.dtype)
    out = xp.where(negative, out - cotangent, out)
    out = xp.where(negative & integer, xp.full_like(a, math.nan), out)
    return xp.where(a == 0, xp.copysign(xp.full_like(a, math.inf), -a), out)


def trigamma_array(xp: Any, a: Any) -> Any:
    """``ψ'(a)`` as torch's kernel computes it in the dtype: reflected below 1/2, raised six
    steps, then its asymptotic series.

    >>> import numpy as np  # (π²/6 = 1.6449340668...: torch's six steps stop short)
    >>> round(float(trigamma_array(np, np.array(1.0))), 12)
    1.644934067638
    """
    low = a < 0.5
    pi = xp.asarray(math.pi, dtype=a.dtype)  # π², as torch's kernel, in the dtype
    sin_pi = cpu_math(xp.sin, pi * a)
    result = xp.where(low, -(pi * pi) / (sin_pi * sin_pi), xp.zeros_like(a))
    x = xp.where(low, 1 - a, a)
    for _ in range(6):
        result = result + 1 / (x * x)
        x = x + 1
    ixx = 1 / (x * x)
    result = result + (1 + 1 / (2 * x) + ixx * (1 / 6 - ixx * (1 / 30 - ixx * (1 / 42)))) / x
    return xp.where(low, -result, result)


_MACHEP = 1.11022302462515654042E-16
_FARTHEST = -1e5
_ZETA_TAIL = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
              7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
              -4.5979787224074726105e15, 1.8152105401943546773e17, -7.1661652561756670113e18)


def zeta_array(xp: Any, s: float, q: Any, single: bool = False) -> Any:
    """The Hurwitz zeta ``ζ(s, q) = Σ (q+k)^-s`` for ``s > 1`` in float64, by Cephes' steps
    (torch's): terms added until they no longer count, at least to ``q + 9``, then the
    Euler-Maclaurin tail. Each power is the C library's ``pow``; for float32 (``single``)
    the first, ``q ** -s``, is its ``powf``, as torch's kernel calls ``pow`` on two floats.

    >>> import numpy as np
    >>> round(float(zeta_array(np, 2.0, np.array(1.0))), 12)  # π²/6
    1.644934066848
    """
    pole = (q <= 0) & (q == xp.floor(q))
    q = xp.where(pole, 1.0, q)
    if bool(xp.any(q < _FARTHEST)):
        raise NotImplementedError(
            f"minitorch's polygamma(n >= 2, x) adds the terms from x up to 9 one by one, as "
            f"torch does, and takes no x below {_FARTHEST:g} (as many steps)")
    total, a, b = _libm.pow_of(xp, q, -s), q, xp.zeros_like(q)
    if single:
        total = xp.astype(xp.astype(total, xp.float32), q.dtype)
    done, count = xp.zeros(q.shape, dtype=xp.bool), 0
    while True:
        going = ~done & ((count < 9) | (a <= 9.0))
        if not bool(xp.any(going)):
            break
        a = xp.where(going, a + 1, a)
        b = xp.where(going, _libm.pow_of(xp, a, -s), b)
        total = xp.where(going, total + b, total)
        done = done | (going & (-_MACHEP * total < b) & (b < _MACHEP * total))
        count += 1
    early, w = done, a
    tail = total + b * w / (s - 1)
    tail = tail - 0.5 * b
    factor, k = xp.ones_like(q), 0.0
    for term in _ZETA_TAIL:  # each element stops adding once a term no longer counts
        factor = factor * (s + k)
        b = b / w
        step = factor * b / term
        tail = xp.where(done, tail, tail + step)
        done = done | (xp.abs(step / tail) < _MACHEP)
        k += 1
        factor = factor * (s + k)
        b = b / w
        k += 1
    out = xp.where(early, total, tail)
    return xp.where(pole, xp.full_like(q, math.inf), out)


def polygamma_array(xp: Any, n: int, a: Any) -> Any:
    """``ψ⁽ⁿ⁾(a)``: digamma for 0, trigamma for 1 (float16 computed in float32), else
    ``(-1)ⁿ⁺¹ n! ζ(n+1, a)`` in the dtype, ζ summed in float64 (float32 for float16); for
    float16, ``n!`` and the product in float32, as torch's Half arithmetic (ζ rounded to
    float16 first)."""
    if n < 2:
        return half_via_float(digamma_array if n == 0 else trigamma_array, xp, a)
    half = a.dtype == getattr(xp, "float16", None)
    product = xp.float32 if half else a.dtype
    factorial = xp.asarray((1 if n % 2 else -1) * _factorial(n, a.dtype != xp.float64),
                           dtype=product)
    zeta = zeta_array(xp, n + 1.0, xp.astype(a, xp.float32 if half else xp.float64),
                      single=a.dtype == xp.float32)
    return xp.astype(factorial * xp.astype(xp.astype(zeta, a.dtype), product), a.dtype)


def _factorial(n: int, single: bool) -> float:
    """``n!`` as torch's polygamma kernel takes it, ``exp(lgamma(n + 1))`` by the C library
    (its float32 ``expf(lgammaf(...))`` for a float32 ``single``): not exact past 2, and
    ±inf past 170 (34 in float32)."""
    suffix = "f" if single else ""
    lgamma, exp = _libm.scalar("lgamma" + suffix, single=single), _libm.scalar(
        "exp" + suffix, single=single)
    return exp(lgamma(n + 1.0))


Lgamma = _unary("Lgamma", "lgamma", torch_lgamma, lambda g, x: g * Digamma.apply(x), "self")
Digamma = _unary("Digamma", "digamma", digamma_array,
                 lambda g, x: g * Polygamma.apply(x, n=1), "self")


class Polygamma(_ParametrizedUnary):
    """``ψ⁽ⁿ⁾(x)``, whose gradient is ``ψ⁽ⁿ⁺¹⁾(x)``."""

    node_name = "PolygammaBackward0"
    _profile_name = "aten::polygamma"

    @staticmethod
    def compute(xp: Any, x: Any, n: int) -> Any:
        return polygamma_array(xp, n, x)

    @staticmethod
    def gradient(g: Tensor, x: Tensor, n: int) -> Tensor:
        return g * Polygamma.apply(x, n=n + 1)


class PolygammaInPlace(Polygamma):
    """``x.polygamma_(n)``: torch's node of the in-place form is another."""

    node_name = "PolygammaBackward1"


class Mvlgamma(_ParametrizedUnary):
    """The multivariate log-gamma of order ``p``: ``Σᵢ lgamma(x - i/2) + p(p-1)/4 log π``
    over ``i < p``, and its gradient the sum of the digammas, as torch composes them."""

    node_name = "MvlgammaBackward0"
    _profile_name = "aten::mvlgamma"

    @staticmethod
    def compute(xp: Any, x: Any, p: int) -> Any:
        return _mvlgamma_array(xp, x, p)

    @staticmethod
    def gradient(g: Tensor, x: Tensor, p: int) -> Tensor:
        return g * Digamma.apply(x.unsqueeze(-1) + _halves(x, p)).sum(-1)


def _halves(x: Tensor, p: int) -> Tensor:
    """torch's ``arange(-p/2 + 1/2, 1/2, 1/2)`` in ``x``'s dtype: ``(1-p)/2, ..., -1/2, 0``."""
    xp = x._xp
    return wrap(xp.astype(xp.asarray([(i + 1 - p) / 2 for i in range(p)]), x._data.dtype))


def _mvlgamma_array(xp: Any, x: Any, p: int) -> Any:
    """torch's composition, each step in ``x``'s dtype (float16 summed in float32)."""
    halves = xp.astype(xp.asarray([(i + 1 - p) / 2 for i in range(p)]), x.dtype)
    terms = torch_lgamma(xp, x[..., None] + halves)
    total = torch_sum(xp, terms, (terms.ndim - 1,))  # float16 in float32, as torch's sum
    constant = xp.asarray(p * (p - 1) * math.log(math.pi) * 0.25, dtype=x.dtype)
    return half_via_float(lambda _, t, c: t + c, xp, total, constant)


lgamma = public_unary(Lgamma, "lgamma", example(
    "The log of the absolute value of the gamma function.",
    "minitorch.lgamma(minitorch.tensor([0.5, 4.]))", "tensor([0.5724, 1.7918])"))
digamma = public_unary(Digamma, "digamma", example(
    "The derivative of :func:`lgamma`.", "minitorch.digamma(minitorch.tensor([1., 2.]))",
    "tensor([-0.5772,  0.4228])"))


def polygamma(n: int, input: Tensor) -> Tensor:
    """The ``n``-th derivative of :func:`digamma` (``n = 0`` is digamma itself).

    >>> minitorch.polygamma(1, minitorch.tensor([1., 2.]))
    tensor([1.6449, 0.6449])
    """
    n, _ = _args.parsed("polygamma", ("int", n, "n", 1), ("tensor", input, "input", 2))
    return Polygamma.apply(input, n=_order(n))


def _order(n: int) -> int:
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return n


def polygamma_method(self: Tensor, n: Any = _args.OMITTED) -> Tensor:
    """``x.polygamma(n)`` is ``polygamma(n, x)``.

    >>> minitorch.tensor([1.]).polygamma(0)
    tensor([-0.5772])
    """
    return polygamma(_args.required("polygamma", n, "n"), self)


def polygamma_(self: Tensor, n: Any = _args.OMITTED) -> Tensor:
    """In-place ``polygamma(n, x)`` (node ``PolygammaBackward1``).

    >>> minitorch.ones(1).polygamma_(1)
    tensor([1.6449])
    """
    n = _args.integer("polygamma_", _args.required("polygamma_", n, "n"), "n", 1)
    check_inplace_allowed(self)  # autograd's refusal comes before the kernel's checks
    return self._inplace(PolygammaInPlace.apply, n=_order(n))


@_call_form.parser_types(p="int")
def mvlgamma(input: Tensor, p: Any = _args.OMITTED) -> Tensor:
    """The multivariate log-gamma function of dimension ``p`` (``p = 1`` is lgamma).

    >>> minitorch.mvlgamma(minitorch.tensor([2.5]), 2)
    tensor([0.8570])
    """
    return Mvlgamma.apply(input, p=_dimension("mvlgamma", input, p))


def mvlgamma_(self: Tensor, p: Any = _args.OMITTED) -> Tensor:
    """In-place :func:`mvlgamma`.

    >>> minitorch.tensor([2.5]).mvlgamma_(1)
    tensor([0.2847])
    """
    p = _dimension("mvlgamma_", self, p)
    if not self.dtype.is_floating_point:  # torch's own words, its two types swapped
        raise RuntimeError(f"mvlgamma: result type {_args.legacy(self.dtype)} can't be cast to "
                           f"the desired output type {_args.legacy(D.get_default_dtype())}")
    return self._inplace(Mvlgamma.apply, p=p)


def _dimension(fn: str, input: Tensor, p: Any) -> int:
    """mvlgamma's ``p``, checked as torch: its type, then (in place) autograd's refusal, then
    a bool input, then its value."""
    _, p = _args.parsed(fn, ("tensor", input, "input", 1),
                        ("int", _args.required(fn, p, "p"), "p", 2))
    if fn.endswith("_"):
        check_inplace_allowed(input)
    if input.dtype.name == "bool":
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    _args.check_alloc((p,), input.dtype.itemsize)  # torch's arange of p halves
    return p


METHODS = {"lgamma": lgamma, "digamma": digamma, "polygamma": polygamma_method,
           "polygamma_": polygamma_, "mvlgamma": mvlgamma, "mvlgamma_": mvlgamma_}
