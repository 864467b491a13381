"""``minitorch.special``: torch.special's names for the special functions minitorch has. Each is
the op of the same math (its node, its bits), refusing bad arguments under torch.special's
name (``special_expit(): argument 'input' ...``).

>>> import minitorch
>>> minitorch.special.expit(minitorch.tensor([0.]))
tensor([0.5000])
"""

from __future__ import annotations

from typing import Any

import minitorch

from . import _args, _call_form
from ._tensor import Tensor
from .ops import special_series as _series
from .ops._out import _write
from .ops._out import takes_out as _takes_out
from .ops.pointwise import MulScalar as _MulScalar
from .ops.special_functions import I1 as _I1
from .ops.special_more import BINARY_SIGNATURES as _BINARY_SIGNATURES
from .ops.special_more import (
    Entr,
    Erfcx,
    I0e,
    I1e,
    LogNdtr,
    Ndtri,
    igamma,
    igammac,
    modified_i,
    no_grad_unary,
    special_unary,
)
from .ops.special_more import polynomial as _polynomial
from .ops.special_more import xlog1py as _xlog1py
from .ops.special_more import zeta as _zeta

__all__ = ["airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1",
           "chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
           "chebyshev_polynomial_w", "digamma", "entr", "erf", "erfc", "erfcx", "erfinv", "exp2",
           "expit", "expm1", "gammainc", "gammaincc", "gammaln", "hermite_polynomial_h",
           "hermite_polynomial_he", "i0", "i0e", "i1", "i1e", "laguerre_polynomial_l",
           "legendre_polynomial_p", "log1p", "log_ndtr", "log_softmax", "logit", "logsumexp",
           "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0",
           "modified_bessel_k1", "multigammaln", "ndtr", "ndtri", "polygamma", "psi", "round",
           "scaled_modified_bessel_k0", "scaled_modified_bessel_k1",
           "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u",
           "shifted_chebyshev_polynomial_v", "shifted_chebyshev_polynomial_w", "sinc", "softmax",
           "spherical_bessel_j0", "xlog1py", "xlogy", "zeta"]


@_call_form.alias_of("sigmoid")
def expit(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The logistic sigmoid, ``1 / (1 + exp(-x))``: :func:`minitorch.sigmoid`.

    >>> minitorch.special.expit(minitorch.tensor([0.]))
    tensor([0.5000])
    """
    return minitorch.sigmoid(input, out=out)


@_call_form.alias_of("logit")
def logit(input: Tensor, eps: float | None = None, *, out: Tensor | None = None) -> Tensor:
    """``log(p / (1 - p))``, ``p`` clamped to ``[eps, 1 - eps]`` when ``eps`` is given.

    >>> minitorch.special.logit(minitorch.tensor([0.5]))
    tensor([0.])
    """
    return minitorch.logit(input, eps, out=out)


@_call_form.alias_of("erf")
def erf(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The error function: :func:`minitorch.erf`.

    >>> minitorch.special.erf(minitorch.tensor([0.]))
    tensor([0.])
    """
    return minitorch.erf(input, out=out)


@_call_form.alias_of("erfc")
def erfc(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``1 - erf(x)``: :func:`minitorch.erfc`.

    >>> minitorch.special.erfc(minitorch.tensor([0.]))
    tensor([1.])
    """
    return minitorch.erfc(input, out=out)


@_call_form.alias_of("erfinv")
def erfinv(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The inverse error function: :func:`minitorch.erfinv`.

    >>> minitorch.special.erfinv(minitorch.tensor([0.]))
    tensor([0.])
    """
    return minitorch.erfinv(input, out=out)


@_call_form.alias_of("exp2")
def exp2(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``2 ** x``: :func:`minitorch.exp2`.

    >>> minitorch.special.exp2(minitorch.tensor([3.]))
    tensor([8.])
    """
    return minitorch.exp2(input, out=out)


@_call_form.alias_of("expm1")
def expm1(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``exp(x) - 1``: :func:`minitorch.expm1`.

    >>> minitorch.special.expm1(minitorch.tensor([0.]))
    tensor([0.])
    """
    return minitorch.expm1(input, out=out)


@_call_form.alias_of("log1p")
def log1p(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``log(1 + x)``: :func:`minitorch.log1p`.

    >>> minitorch.special.log1p(minitorch.tensor([0.]))
    tensor([0.])
    """
    return minitorch.log1p(input, out=out)


@_call_form.alias_of("lgamma")
def gammaln(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``log |Γ(x)|``: :func:`minitorch.lgamma`.

    >>> minitorch.special.gammaln(minitorch.tensor([3.]))
    tensor([0.6931])
    """
    return minitorch.lgamma(input, out=out)


@_call_form.alias_of("digamma")
def digamma(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``Γ'(x) / Γ(x)``: :func:`minitorch.digamma`.

    >>> minitorch.special.digamma(minitorch.tensor([1.]))
    tensor([-0.5772])
    """
    return minitorch.digamma(input, out=out)


@_call_form.alias_of("digamma")
def psi(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """torch.special's other name for :func:`digamma`.

    >>> minitorch.special.psi(minitorch.tensor([1.]))
    tensor([-0.5772])
    """
    return minitorch.digamma(input, out=out)


@_call_form.alias_of("polygamma")
def polygamma(n: int, input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The ``n``-th derivative of :func:`digamma`.

    >>> minitorch.special.polygamma(1, minitorch.tensor([1.]))
    tensor([1.6449])
    """
    return minitorch.polygamma(n, input, out=out)


@_call_form.alias_of("mvlgamma")
def multigammaln(input: Tensor, p: int, *, out: Tensor | None = None) -> Tensor:
    """The multivariate log-gamma function of dimension ``p``: :func:`minitorch.mvlgamma`.

    >>> minitorch.special.multigammaln(minitorch.tensor([2.5]), 2)
    tensor([0.8570])
    """
    return minitorch.mvlgamma(input, p, out=out)


@_call_form.alias_of("i0")
def i0(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The modified Bessel function of the first kind, order 0: :func:`minitorch.i0`.

    >>> minitorch.special.i0(minitorch.tensor([0.]))  # (float32's i0(0) is 1 - 2⁻²⁴)
    tensor([1.0000])
    """
    return minitorch.i0(input, out=out)


@_call_form.alias_of("sinc")
def sinc(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``sin(πx) / (πx)`` (1 at 0): :func:`minitorch.sinc`.

    >>> minitorch.special.sinc(minitorch.tensor([0.]))
    tensor([1.])
    """
    return minitorch.sinc(input, out=out)


@_call_form.alias_of("round")
def round(input: Tensor, *, decimals: int = 0, out: Tensor | None = None) -> Tensor:
    """Rounded half to even, to ``decimals`` places: :func:`minitorch.round`.

    >>> minitorch.special.round(minitorch.tensor([1.26]), decimals=1)
    tensor([1.3000])
    """
    # torch.special's round has one signature (the function's has two): its own messages
    _args.parsed("special_round", ("tensor", input, "input", 1),
                 ("int", decimals, "decimals", None))
    return minitorch.round(input, decimals=decimals, out=out)


@_call_form.alias_of("softmax")
def softmax(input: Tensor, dim: int, *, dtype: Any = None) -> Tensor:
    """:func:`minitorch.softmax` along ``dim`` (required here, as in torch.special).

    >>> minitorch.special.softmax(minitorch.tensor([1., 1.]), 0)
    tensor([0.5000, 0.5000])
    """
    return minitorch.softmax(input, dim, dtype=dtype)


@_call_form.alias_of("log_softmax")
def log_softmax(input: Tensor, dim: int, *, dtype: Any = None) -> Tensor:
    """:func:`minitorch.log_softmax` along ``dim``.

    >>> minitorch.special.log_softmax(minitorch.tensor([0., 0.]), 0)
    tensor([-0.6931, -0.6931])
    """
    return minitorch.log_softmax(input, dim, dtype=dtype)


@_call_form.alias_of("logsumexp")
def logsumexp(input: Tensor, dim: Any, keepdim: bool = False, *,
              out: Tensor | None = None) -> Tensor:
    """``log(sum(exp(x)))`` along ``dim``: :func:`minitorch.logsumexp`.

    >>> minitorch.special.logsumexp(minitorch.tensor([0., 0.]), 0)
    tensor(0.6931)
    """
    return minitorch.logsumexp(input, dim, keepdim, out=out)


@_call_form.alias_of("xlogy")
@_call_form.overloads(*_call_form.unwrapped(minitorch.xlogy).torch_signatures)
def xlogy(input: Any, other: Any, *, out: Tensor | None = None) -> Tensor:
    """``x * log(y)``, 0 where ``x`` is 0: :func:`minitorch.xlogy`.

    >>> minitorch.special.xlogy(minitorch.tensor([0.]), minitorch.tensor([0.]))
    tensor([0.])
    """
    return minitorch.xlogy(input, other, out=out)



def _doc(summary: str, call: str, printed: str) -> str:
    return f"{summary}\n\n    >>> minitorch.special.{call}\n    {printed}\n    "


entr = special_unary(Entr, "entr", _doc(
    "``-x log x`` (0 at 0, -inf below).", "entr(minitorch.tensor([0., 0.5]))",
    "tensor([0.0000, 0.3466])"), halves=True)
erfcx = special_unary(Erfcx, "erfcx", _doc(
    "The scaled complementary error function ``exp(x²) erfc(x)``.",
    "erfcx(minitorch.tensor([0., 1.]))", "tensor([1.0000, 0.4276])"))
ndtri = special_unary(Ndtri, "ndtri", _doc(
    "The inverse of the standard normal distribution function.",
    "ndtri(minitorch.tensor([0.5, 0.975]))", "tensor([0.0000, 1.9600])"))
log_ndtr = special_unary(LogNdtr, "log_ndtr", _doc(
    "The log of the standard normal distribution function.",
    "log_ndtr(minitorch.tensor([0.]))", "tensor([-0.6931])"))
i0e = special_unary(I0e, "i0e", _doc(
    "``exp(-|x|) I0(x)``, the exponentially scaled Bessel function of order 0.",
    "i0e(minitorch.tensor([1.]))", "tensor([0.4658])"), halves=True)
i1 = special_unary(_I1, "i1", _doc(
    "The modified Bessel function of the first kind, of order 1.",
    "i1(minitorch.tensor([1.]))", "tensor([0.5652])"), halves=True)
i1e = special_unary(I1e, "i1e", _doc(
    "``exp(-|x|) I1(x)``, the exponentially scaled Bessel function of order 1.",
    "i1e(minitorch.tensor([1.]))", "tensor([0.2079])"), halves=True)


@_call_form.alias_of("special_ndtr")
def ndtr(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The standard normal distribution function, ``(1 + erf(x / √2)) / 2``.

    >>> minitorch.special.ndtr(minitorch.tensor([0.]))
    tensor([0.5000])
    """
    _args.tensor_args("special_ndtr", (input, "input", 1))
    result = _MulScalar.apply(1 + minitorch.erf(input * 0.7071067811865476), 0.5)  # MulBackward1
    return result if out is None else _write(result, out)  # (copied into out, as torch's)


def _no_grad(name: str, compute: Any, printed: str, argument: str = "input") -> Any:
    return no_grad_unary(compute, name, _doc(
        f"torch.special's ``{name}`` (no derivative, as torch's).",
        f"{name}(minitorch.tensor([1.]))", f"tensor([{printed}])"), argument)


bessel_j0 = _no_grad("bessel_j0", lambda xp, a: _series.bessel_j_array(xp, a, 0), "0.7652")
bessel_j1 = _no_grad("bessel_j1", lambda xp, a: _series.bessel_j_array(xp, a, 1), "0.4401")
bessel_y0 = _no_grad("bessel_y0", lambda xp, a: _series.bessel_y_array(xp, a, 0), "0.0883")
bessel_y1 = _no_grad("bessel_y1", lambda xp, a: _series.bessel_y_array(xp, a, 1), "-0.7812")
modified_bessel_i0 = _no_grad("modified_bessel_i0", modified_i(0), "1.2661")
modified_bessel_i1 = _no_grad("modified_bessel_i1", modified_i(1), "0.5652")
modified_bessel_k0 = _no_grad("modified_bessel_k0",
                              lambda xp, a: _series.bessel_k_array(xp, a, 0), "0.4210")
modified_bessel_k1 = _no_grad("modified_bessel_k1",
                              lambda xp, a: _series.bessel_k_array(xp, a, 1), "0.6019")
scaled_modified_bessel_k0 = _no_grad(
    "scaled_modified_bessel_k0", lambda xp, a: _series.bessel_k_array(xp, a, 0, True), "1.1445",
    "x")
scaled_modified_bessel_k1 = _no_grad(
    "scaled_modified_bessel_k1", lambda xp, a: _series.bessel_k_array(xp, a, 1, True), "1.6362",
    "x")
spherical_bessel_j0 = _no_grad("spherical_bessel_j0", _series.spherical_j0_array, "0.8415", "x")
airy_ai = _no_grad("airy_ai", _series.airy_ai_array, "0.1353", "x")


def _poly(name: str, printed: str, at: str = "0.5") -> Any:
    return _polynomial(name, _doc(
        f"torch.special's ``{name}`` of degree ``n`` (no derivative, as torch's).",
        f"{name}(minitorch.tensor([{at}]), 3)", f"tensor([{printed}])"))


chebyshev_polynomial_t = _poly("chebyshev_polynomial_t", "-1.0000")
chebyshev_polynomial_u = _poly("chebyshev_polynomial_u", "-1.0000")
chebyshev_polynomial_v = _poly("chebyshev_polynomial_v", "0.0000")
chebyshev_polynomial_w = _poly("chebyshev_polynomial_w", "-1.0000")
hermite_polynomial_h = _poly("hermite_polynomial_h", "-5.0000")
hermite_polynomial_he = _poly("hermite_polynomial_he", "-1.3750")
laguerre_polynomial_l = _poly("laguerre_polynomial_l", "-0.1458")
legendre_polynomial_p = _poly("legendre_polynomial_p", "-0.4375")
shifted_chebyshev_polynomial_t = _poly("shifted_chebyshev_polynomial_t", "1.0000", "1.")
shifted_chebyshev_polynomial_u = _poly("shifted_chebyshev_polynomial_u", "4.0000", "1.")
shifted_chebyshev_polynomial_v = _poly("shifted_chebyshev_polynomial_v", "1.0000", "1.")
shifted_chebyshev_polynomial_w = _poly("shifted_chebyshev_polynomial_w", "7.0000", "1.")


@_call_form.alias_of("special_xlog1py")
@_call_form.overloads(*_BINARY_SIGNATURES)
def xlog1py(input: Any, other: Any, *, out: Tensor | None = None) -> Tensor:
    """``x * log1p(y)``, 0 where ``x`` is 0.

    >>> minitorch.special.xlog1py(minitorch.tensor([0., 2.]), minitorch.tensor([-1., 0.]))
    tensor([0., 0.])
    """
    if out is not None:
        return _takes_out(_xlog1py, "special_xlog1py", elementwise=True)(input, other, out=out)
    return _xlog1py(input, other)


@_call_form.alias_of("igamma")
def gammainc(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The regularized lower incomplete gamma function: :func:`minitorch.igamma`.

    >>> minitorch.special.gammainc(minitorch.tensor([1.]), minitorch.tensor([1.]))
    tensor([0.6321])
    """
    return minitorch.igamma(input, other, out=out)


@_call_form.alias_of("igammac")
def gammaincc(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The regularized upper incomplete gamma function: :func:`minitorch.igammac`.

    >>> minitorch.special.gammaincc(minitorch.tensor([1.]), minitorch.tensor([1.]))
    tensor([0.3679])
    """
    return minitorch.igammac(input, other, out=out)


@_call_form.alias_of("special_zeta")
@_call_form.overloads(*_BINARY_SIGNATURES)
def zeta(input: Any, other: Any, *, out: Tensor | None = None) -> Tensor:
    """Hurwitz's zeta function ``Σ_k (k + other)^-input``.

    >>> minitorch.special.zeta(minitorch.tensor([2.]), minitorch.tensor([1.]))
    tensor([1.6449])
    """
    if out is not None:
        return _takes_out(_zeta, "special_zeta", elementwise=True)(input, other, out=out)
    return _zeta(input, other)


_ = (igamma, igammac)

_call_form.public_functions(globals(), prefix="special_")
