"""The ops of ``torch.special``'s own functions: each node with torch's name and backward
formula (``derivatives.yaml``), or no node where torch's function has no derivative (the
Bessel and Airy functions, the orthogonal polynomials), and the regularized incomplete gamma
functions ``igamma``/``igammac`` (whose derivative in ``input`` torch does not implement).

>>> import minitorch
>>> x = minitorch.tensor([0.5], requires_grad=True)
>>> minitorch.special.entr(x)
tensor([0.3466], grad_fn=<SpecialEntrBackward0>)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .. import _args, _call_form
from .._tensor import Tensor
from ._base import Op, cast_operands, wrap
from ._out import takes_out
from .gamma import Lgamma
from .kl_div import _number, _xlogy
from .pointwise import _meta, _reduce, _unary, check_broadcast, where
from .special_functions import bessel_array, refuse_halves
from .special_series import (
    entr_array,
    erfcx_array,
    float_operand,
    igamma_array,
    log_ndtr_array,
    ndtri_array,
    polynomial_array,
    scaled_i_array,
    zeta_array,
)

__all__ = [
    "METHODS",
    "Entr",
    "Erfcx",
    "I0e",
    "I1e",
    "Igamma",
    "Igammac",
    "LogNdtr",
    "Ndtri",
    "Xlog1py",
    "Xlog1pyOther",
    "Xlog1pySelf",
    "Zeta",
    "ZetaOther",
    "ZetaSelf",
    "igamma",
    "igammac",
    "modified_i",
    "no_grad_unary",
    "polynomial",
    "special_unary",
    "xlog1py",
    "zeta",
]

_SQRT_2PI = math.sqrt(2 * math.pi)

Entr = _unary("Entr", "special_entr", entr_array, lambda g, x: g * (-(1 + x.log())), "self",
              node="SpecialEntrBackward0")
Erfcx = _unary("Erfcx", "special_erfcx", erfcx_array,
               lambda g, x: (2.0 * x * Erfcx.apply(x) - 2.0 / math.sqrt(math.pi)) * g, "self",
               node="SpecialErfcxBackward0")
Ndtri = _unary("Ndtri", "special_ndtri", ndtri_array,
               lambda g, r: g * _SQRT_2PI * (r.square() / 2).exp(), "result",
               node="SpecialNdtriBackward0")
LogNdtr = _unary("LogNdtr", "special_log_ndtr", log_ndtr_array,
                 lambda g, x: g / _SQRT_2PI * (LogNdtr.apply(x) + x.pow(2) / 2).neg().exp(),
                 "self", node="SpecialLogNdtrBackward0")
I1e = _unary("I1e", "special_i1e", lambda xp, a: scaled_i_array(xp, a, 1),
             lambda g, x: _i1e_grad(g, x), "self", node="SpecialI1EBackward0")
I0e = _unary("I0e", "special_i0e", lambda xp, a: scaled_i_array(xp, a, 0),
             lambda g, x: g * (I1e.apply(x) - x.sgn() * I0e.apply(x)), "self",
             node="SpecialI0EBackward0")


def _i1e_grad(g: Tensor, x: Tensor) -> Tensor:
    """torch's ``i1e_backward``: ``i0e(x) - i1e(x) (sgn x + 1/x)``, 1/2 where ``|x|`` is
    below epsilon (its kernel has no half types)."""
    refuse_halves("i1e_backward", x)
    eps = 2.0 ** -52 if x.dtype.name == "float64" else 2.0 ** -23
    not_tiny = x.abs() > eps
    safe = where(not_tiny, x, eps)
    result = I1e.apply(x)
    return g * where(not_tiny, I0e.apply(safe) - result * (safe.sgn() + safe.reciprocal()), 0.5)



def special_unary(op: Any, name: str, doc: str, halves: bool = False) -> Callable:
    """The public ``torch.special.<name>(input, *, out=None)`` of ``op``: a tensor of a
    dtype the kernel has (``halves``: float16 and bfloat16 too), integers as floats."""

    def fn(input: Tensor) -> Tensor:
        _args.tensor_args(f"special_{name}", (input, "input", 1))
        float_operand(f"{name}_cpu", input, halves)  # (its refusal only)
        return op.apply(input)

    fn.__name__, fn.__doc__ = name, doc
    return takes_out(fn, f"special_{name}", elementwise=True)


def no_grad_unary(compute: Callable, name: str, doc: str, argument: str = "input") -> Callable:
    """The public ``torch.special.<name>(input, *, out=None)`` (its tensor named ``argument``)
    of an array function that torch gives no derivative: its result is no node's."""

    def computed(input: Tensor) -> Tensor:
        _args.tensor_args(f"special_{name}", (input, argument, 1))
        return wrap(compute(input._xp, float_operand(f"{name}_cpu", input)))

    def fn_x(x: Tensor) -> Tensor:
        return computed(x)

    fn = fn_x if argument == "x" else computed
    fn.__name__, fn.__doc__ = name, doc
    return takes_out(fn, f"special_{name}", elementwise=True, differentiable=False)


def modified_i(order: int) -> Callable:
    """``I_order`` in the dtype, as torch's kernel (Cephes') computes it."""
    return lambda xp, a: bessel_array(xp, a, order)


class Igamma(Op):
    """The regularized incomplete gamma function of ``input`` (a) at ``other`` (x): lower
    (``P``) or, with ``upper``, upper (``Q``); only ``other``'s derivative exists."""

    node_name = "IgammaBackward0"
    saved_names = ("other", "self")
    _profile_name = "aten::igamma"

    @staticmethod
    def forward(ctx: Any, a: Tensor, x: Tensor, *, upper: bool) -> Tensor:
        ctx.a, ctx.b, ctx.upper = _meta(a), _meta(x), upper
        ctx.save_for_backward(x, a)
        av, xv, _ = cast_operands(a, x)
        return wrap(igamma_array(a._xp, av, xv, upper))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, a = ctx.saved_tensors
        if ctx.needs_input_grad[0]:
            name = "igammac" if ctx.upper else "igamma"
            raise NotImplementedError(f"the derivative for '{name}: input' is not implemented.")
        slope = ((a - 1) * x.log() - x - Lgamma.apply(a)).exp()
        return None, _reduce(-g * slope if ctx.upper else g * slope, ctx.b)


class Igammac(Igamma):
    """:class:`Igamma`'s upper function, under its own node."""

    node_name = "IgammacBackward0"
    _profile_name = "aten::igammac"


def _igamma(name: str, input: Tensor, other: Tensor, upper: bool) -> Tensor:
    _args.tensor_args(name, (input, "input", 1), (other, "other", 2))
    check_broadcast(input, other)
    from .._dtype import result_type

    dt = result_type(input, other)
    if dt.is_complex or not dt.is_floating_point:
        raise _args.not_implemented(f"{'igammac' if upper else 'igamma'}_cpu", dt)
    return (Igammac if upper else Igamma).apply(input, other, upper=upper)


def igamma(input: Tensor, other: Tensor) -> Tensor:
    """The regularized lower incomplete gamma function ``P(input, other)``.

    >>> minitorch.igamma(minitorch.tensor([1.]), minitorch.tensor([1.]))
    tensor([0.6321])
    """
    return _igamma("igamma", input, other, upper=False)


def igammac(input: Tensor, other: Tensor) -> Tensor:
    """The regularized upper incomplete gamma function ``Q(input, other) = 1 - P``.

    >>> minitorch.igammac(minitorch.tensor([1.]), minitorch.tensor([1.]))
    tensor([0.3679])
    """
    return _igamma("igammac", input, other, upper=True)


METHODS = {"igamma": igamma, "igammac": igammac}


_POLYNOMIAL_SIGNATURES = ("Tensor x, Tensor n, *, Tensor out = None",
                          "Number x, Tensor n, *, Tensor out = None",
                          "Tensor x, Number n, *, Tensor out = None")


def polynomial(name: str, doc: str) -> Callable:
    """The public ``torch.special.<name>(x, n, *, out=None)``: an orthogonal polynomial of
    degree ``n`` (a tensor or a number, either of ``x`` and ``n`` but not both a number)."""
    kind = name.replace("_polynomial", "")

    def fn(x: Any, n: Any) -> Tensor:
        from .._dtype import get_default_dtype, result_type

        if not (isinstance(x, Tensor) or isinstance(n, Tensor)) or not all(
                isinstance(v, (Tensor, int, float)) for v in (x, n)):
            raise _args.invalid_combination(f"special_{name}", (x, n), *_POLYNOMIAL_SIGNATURES)
        check_broadcast(x, n)
        dt = result_type(x, n)
        if not dt.is_floating_point and not dt.is_complex:
            dt = get_default_dtype()
        if dt.name not in ("float32", "float64"):
            raise _args.not_implemented(f"{name}_cpu", dt)
        xp = (x if isinstance(x, Tensor) else n)._xp
        target = getattr(xp, dt.name)
        xa, na = (xp.astype(v._data, target) if isinstance(v, Tensor)
                  else xp.asarray(v, dtype=target) for v in (x, n))
        return wrap(polynomial_array(xp, xa, na, kind))

    fn.__name__, fn.__doc__ = name, doc
    return _call_form.overloads(*_POLYNOMIAL_SIGNATURES)(
        takes_out(fn, f"special_{name}", elementwise=True, differentiable=False))


class _Forms(Op):
    """An op of two operands, one of which may be a number (its ``form``: "other" for
    ``(tensor, number)``, "self" for ``(number, tensor)``): the node's operands are the
    tensors; ``compute(a, b)`` gives the result."""

    form = "both"

    @classmethod
    def operands(cls, tensors: tuple, number: Any) -> tuple:
        if cls.form == "other":
            return tensors[0], number
        return (number, tensors[0]) if cls.form == "self" else tensors

    @classmethod
    def forward(cls, ctx: Any, *tensors: Tensor, number: Any = None) -> Tensor:
        ctx.metas = [_meta(t) for t in tensors]
        ctx.save_for_backward(*tensors)
        ctx.number = number
        return cls.compute(*cls.operands(tensors, number))


class Xlog1py(_Forms):
    """``x * log1p(y)``, 0 where ``x`` is 0 (not where ``y`` is NaN); one operand may be a
    number (then the node is torch's ``SpecialXlog1PyBackward1``/``2`` of the other)."""

    node_name = "SpecialXlog1PyBackward0"
    _profile_name = "aten::special_xlog1py"

    @staticmethod
    def compute(a: Any, b: Any) -> Tensor:
        return _xlogy(a, b, "log1p")

    @classmethod
    def backward(cls, ctx: Any, g: Tensor) -> tuple:
        a, b = cls.operands(ctx.saved_tensors, ctx.number)
        grads = []
        if isinstance(a, Tensor):
            grad = xlog1py(g, b)
            if isinstance(b, Tensor) or b <= -1:
                grad = grad.masked_fill((a == 0) & (b <= -1), 0.0)
            grads.append(_reduce(grad, ctx.metas[0]) if ctx.needs_input_grad[0] else None)
        if isinstance(b, Tensor):
            need = ctx.needs_input_grad[len(grads)]
            grads.append(_reduce(g * a / (b + 1), ctx.metas[-1]) if need else None)
        return tuple(grads)


class Xlog1pyOther(Xlog1py):
    """``xlog1py(tensor, number)``."""

    node_name = "SpecialXlog1PyBackward2"
    form = "other"


class Xlog1pySelf(Xlog1py):
    """``xlog1py(number, tensor)``."""

    node_name = "SpecialXlog1PyBackward1"
    form = "self"


BINARY_SIGNATURES = ("Tensor input, Tensor other, *, Tensor out = None",
                     "Number self, Tensor other, *, Tensor out = None",
                     "Tensor input, Number other, *, Tensor out = None")


def _refuse_types(name: str, input: Any, other: Any) -> None:
    """torch's parser refusal of ``(input, other)`` matching none of its overloads."""
    if not all(isinstance(v, Tensor) or _number(v) is not None for v in (input, other)) or \
            not (isinstance(input, Tensor) or isinstance(other, Tensor)):
        raise _args.invalid_combination(name, (input, other), *BINARY_SIGNATURES)


def _binary(name: str, input: Any, other: Any, forms: tuple, check: Callable) -> Tensor:
    """``input`` and ``other`` (tensors, or one a number) through the op of their form
    (``forms``: the tensors', a tensor and a number, a number and a tensor), ``check``-ed
    first as torch's kernel checks them."""
    _refuse_types(name, input, other)
    both, tensor_number, number_tensor = forms
    if isinstance(other, Tensor) and _number(input) is not None:
        check(_number(input), other)
        return number_tensor.apply(other, number=_number(input))
    if isinstance(input, Tensor) and _number(other) is not None:
        check(input, _number(other))
        return tensor_number.apply(input, number=_number(other))
    check_broadcast(input, other)
    check(input, other)
    return both.apply(input, other)


def xlog1py(input: Any, other: Any) -> Tensor:
    """``input * log1p(other)``, 0 where ``input`` is 0 (either may be a number).

    >>> xlog1py(minitorch.tensor([2.]), 0.)
    tensor([0.])
    """
    return _binary("special_xlog1py", input, other, (Xlog1py, Xlog1pyOther, Xlog1pySelf),
                   lambda a, b: _args.no_complex_kernel("special_xlog1py", a, b))


class Zeta(_Forms):
    """Hurwitz's zeta of ``input`` (the power) at ``other`` (the shift); one may be a number
    (torch's ``SpecialZetaBackward1``/``2``); only ``other``'s derivative exists."""

    node_name = "SpecialZetaBackward0"
    _profile_name = "aten::special_zeta"

    @staticmethod
    def compute(x: Any, q: Any) -> Tensor:
        xp = (x if isinstance(x, Tensor) else q)._xp
        xa, qa, dt = cast_operands(x, q)
        if not dt.is_floating_point:
            from .._dtype import get_default_dtype

            dt = get_default_dtype()
        target = getattr(xp, dt.name)
        xa, qa = (xp.astype(xp.asarray(v), target) for v in (xa, qa))
        return wrap(zeta_array(xp, xa, qa))

    @classmethod
    def backward(cls, ctx: Any, g: Tensor) -> tuple:
        if cls.form != "self" and ctx.needs_input_grad[0]:
            raise NotImplementedError("the derivative for 'zeta' is not implemented.")
        if cls.form == "other":
            return (None,)
        x, q = cls.operands(ctx.saved_tensors, ctx.number)
        grad = _reduce(g * -x * zeta(x + 1, q), ctx.metas[-1])
        return (grad,) if cls.form == "self" else (None, grad)


class ZetaOther(Zeta):
    """``zeta(tensor, number)``."""

    node_name = "SpecialZetaBackward2"
    form = "other"


class ZetaSelf(Zeta):
    """``zeta(number, tensor)``."""

    node_name = "SpecialZetaBackward1"
    form = "self"


def zeta(input: Any, other: Any) -> Tensor:
    """Hurwitz's zeta function ``Σ_k (k + other)^-input`` (either may be a number).

    >>> zeta(minitorch.tensor([2.]), 1.)
    tensor([1.6449])
    """
    return _binary("special_zeta", input, other, (Zeta, ZetaOther, ZetaSelf), _zeta_type)


def _zeta_type(input: Any, other: Any) -> None:
    from .._dtype import result_type

    dt = result_type(input, other)
    if dt.name in ("float16", "bfloat16") or dt.is_complex:
        raise _args.not_implemented("zeta_cpu", dt)
