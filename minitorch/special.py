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

__all__ = ["digamma", "erf", "erfc", "erfinv", "exp2", "expit", "expm1", "gammaln", "i0",
           "log1p", "log_softmax", "logit", "logsumexp", "multigammaln", "polygamma", "psi",
           "round", "sinc", "softmax", "xlogy"]


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
def multigammaln(input: Tensor, p: int) -> Tensor:
    """The multivariate log-gamma function of dimension ``p``: :func:`minitorch.mvlgamma`.

    >>> minitorch.special.multigammaln(minitorch.tensor([2.5]), 2)
    tensor([0.8570])
    """
    return minitorch.mvlgamma(input, p)


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
def logsumexp(input: Tensor, dim: Any, keepdim: bool = False) -> Tensor:
    """``log(sum(exp(x)))`` along ``dim``: :func:`minitorch.logsumexp`.

    >>> minitorch.special.logsumexp(minitorch.tensor([0., 0.]), 0)
    tensor(0.6931)
    """
    return minitorch.logsumexp(input, dim, keepdim)


@_call_form.alias_of("xlogy")
@_call_form.overloads(*_call_form.unwrapped(minitorch.xlogy).torch_signatures)
def xlogy(input: Any, other: Any, *, out: Tensor | None = None) -> Tensor:
    """``x * log(y)``, 0 where ``x`` is 0: :func:`minitorch.xlogy`.

    >>> minitorch.special.xlogy(minitorch.tensor([0.]), minitorch.tensor([0.]))
    tensor([0.])
    """
    return minitorch.xlogy(input, other, out=out)


_call_form.public_functions(globals(), prefix="special_")
