"""More element-wise functions of two tensors: ``hypot``, ``atan2``, ``copysign``,
``logaddexp``/``logaddexp2``, the NaN-ignoring ``fmax``/``fmin``, the step ``heaviside`` and
``float_power`` (in float64), each with torch's node and backward formula (written in Tensor
operations, so they differentiate again).

>>> import minitorch
>>> minitorch.hypot(minitorch.tensor([3.]), minitorch.tensor([4.]))
tensor([5.])
"""

from __future__ import annotations

import math
from typing import Any

from .. import _args, _call_form
from .._dtype import check_unsigned, float64, get_default_dtype
from .._tensor import Tensor
from ..backend import array_dtype, cpu_math, half_via_float
from . import pointwise
from ._base import Op, cast_operands, example, iterator_layout, public_binary, wrap
from .pointwise import (
    _meta,
    _NoDerivative,
    _reduce,
    _tensor_operand,
    check_broadcast,
    keep_ties,
    where,
    zero_grad,
)

__all__ = ["Atan2", "Copysign", "CopysignScalar", "Fmax", "Fmin", "Heaviside", "Hypot",
           "Logaddexp", "Logaddexp2", "atan2", "copysign", "float_power", "fmax", "fmin",
           "heaviside", "hypot", "logaddexp", "logaddexp2"]


def _floating_operands(name: str, a: Tensor, b: Any, integers: bool) -> tuple:
    """The operands' arrays in their float result type: integers become the default float
    where torch's kernel takes them (``integers``, each operand converted from its own dtype,
    as torch promotes integer inputs to float), else torch's "not implemented" error."""
    check_broadcast(a, b)
    x, y, dt = cast_operands(a, b)
    if not dt.is_floating_point:
        if not integers:
            raise _args.not_implemented(f"{name}_cpu", dt)
        xp = a._xp
        float_dt = array_dtype(xp, get_default_dtype().name)
        # each operand read as it is (a 0-d int64 -3 beside uint8 is -3., not 253.)
        x, y = (xp.astype(o._data, float_dt) if isinstance(o, Tensor) else
                xp.asarray(_args.float_scalar(o), dtype=float_dt) for o in (a, b))
    return x, y


class _Binary(Op):
    """``compute(xp, x, y)`` on arrays, ``gradients(g, a, b, result)``, each of the three
    None unless torch saves it (``saved_names``, in torch's order: a write into a tensor it
    does not save is no matter to backward). Integer operands are computed in the default
    float (``integers``), refused (False), or kept (``"kept"``)."""

    integers: bool | str = True
    # the roles each input's gradient reads, where torch saves them only for it (None: each
    # reads all of ``saved_names``)
    reads: tuple[tuple[str, ...], tuple[str, ...]] | None = None

    @classmethod
    def forward(cls, ctx: Any, a: Tensor, b: Tensor) -> Tensor:
        out = wrap(cls.result(a, b))
        ctx.a, ctx.b = _meta(a), _meta(b)
        given = {"self": a, "other": b, "result": out}
        reads = cls.reads or (cls.saved_names,) * 2
        wanted = {role for need, roles in zip(ctx.needs_input_grad, reads) if need
                  for role in roles}
        ctx.save_for_backward(*(given[role] if role in wanted else None
                                for role in cls.saved_names))
        return out

    @classmethod
    def result(cls, a: Tensor, b: Tensor) -> Any:
        """The result's array: ``compute`` of the operands as ``integers`` says."""
        if cls.integers == "kept":
            check_broadcast(a, b)
            x, y, _ = cast_operands(a, b)
        else:
            x, y = _floating_operands(cls._profile_name[6:], a, b, cls.integers)
        return iterator_layout(cls.compute(a._xp, x, y), a, b, x, y)

    @classmethod
    def backward(cls, ctx: Any, g: Tensor) -> tuple:
        saved = dict(zip(cls.saved_names, ctx.saved_tensors))
        a, b, out = saved.get("self"), saved.get("other"), saved.get("result")
        grad_a, grad_b = cls.gradients(g, a, b, out)
        return (_reduce(grad_a, ctx.a) if ctx.needs_input_grad[0] else None,
                _reduce(grad_b, ctx.b) if ctx.needs_input_grad[1] else None)


class Hypot(_Binary):
    node_name = "HypotBackward0"
    saved_names = ("other", "self", "result")
    reads = (("self", "result"), ("other", "result"))
    _profile_name = "aten::hypot"
    integers = False

    @staticmethod
    def compute(xp: Any, x: Any, y: Any) -> Any:
        return xp.hypot(x, y)

    @staticmethod
    def gradients(g: Tensor, a: Tensor | None, b: Tensor | None, out: Tensor) -> tuple:
        return None if a is None else g * a / out, None if b is None else g * b / out


class Atan2(_Binary):
    node_name = "Atan2Backward0"
    saved_names = ("other", "self")
    _profile_name = "aten::atan2"

    @staticmethod
    def compute(xp: Any, x: Any, y: Any) -> Any:
        return cpu_math(xp.atan2, x, y)  # float32 in float64: most of torch's bits

    @staticmethod
    def gradients(g: Tensor, a: Tensor, b: Tensor, out: Tensor) -> tuple:
        squares = a * a + b * b
        recip = where(squares == 0, 0.0, squares.reciprocal())  # torch's: no nan at (0, 0)
        return g * b * recip, g * -a * recip


class Logaddexp(_Binary):
    node_name = "LogaddexpBackward0"
    saved_names = ("other", "self")
    _profile_name = "aten::logaddexp"
    integers = False

    @staticmethod
    def compute(xp: Any, x: Any, y: Any) -> Any:
        return xp.logaddexp(x, y)

    @staticmethod
    def gradients(g: Tensor, a: Tensor, b: Tensor, out: Tensor) -> tuple:
        return g / (1 + (b - a).exp()), g / (1 + (a - b).exp())


class Logaddexp2(_Binary):
    node_name = "Logaddexp2Backward0"
    saved_names = ("other", "self")
    _profile_name = "aten::logaddexp2"
    integers = False

    @staticmethod
    def compute(xp: Any, x: Any, y: Any) -> Any:
        """torch's kernel: ``max + log1p(2^-|x-y|) / ln 2``, an infinity met by itself kept."""
        def stable(xp: Any, x: Any, y: Any) -> Any:
            gap = cpu_math(lambda d: xp.pow(2.0, d), -xp.abs(x - y))
            out = xp.maximum(x, y) + cpu_math(xp.log1p, gap) * (1 / math.log(2))
            return xp.where(xp.isinf(x) & (x == y), x, out)
        return half_via_float(stable, xp, x, y)

    @staticmethod
    def gradients(g: Tensor, a: Tensor, b: Tensor, out: Tensor) -> tuple:
        return g / (1 + 2 ** (b - a)), g / (1 + 2 ** (a - b))


class Fmax(_Binary):
    """The larger of the two, NaN only where both are; the gradient goes to ``input`` where
    it is the larger (ties too) or ``other`` is NaN, else to ``other``."""

    node_name = "FmaxBackward0"
    saved_names = ("other", "self")
    _profile_name = "aten::fmax"
    integers = "kept"
    larger = True

    @classmethod
    def compute(cls, xp: Any, x: Any, y: Any) -> Any:
        if x.dtype == xp.bool:
            return (xp.logical_or if cls.larger else xp.logical_and)(x, y)
        out = keep_ties(xp, x, (xp.maximum if cls.larger else xp.minimum)(x, y))
        if not xp.isdtype(out.dtype, "real floating"):
            return out
        return xp.where(xp.isnan(x), y, xp.where(xp.isnan(y), x, out))

    @classmethod
    def gradients(cls, g: Tensor, a: Tensor, b: Tensor, out: Tensor) -> tuple:
        mine = ((a >= b) if cls.larger else (a <= b)) | b.isnan()
        return where(mine, g, 0.0), where(mine, 0.0, g)


class Fmin(Fmax):
    node_name = "FminBackward0"
    _profile_name = "aten::fmin"
    larger = False


class Heaviside(_NoDerivative):
    """The step function: 0 below 0, 1 above, ``values`` at 0 (no derivative in torch)."""

    node_name = "NotImplemented"
    _profile_name = "aten::heaviside"

    @staticmethod
    def compute(a: Tensor, values: Tensor) -> Any:
        check_broadcast(a, values)
        xp, x = a._xp, a._data
        zero, positive = (~x, x) if x.dtype == xp.bool else (x == 0, x > 0)
        return xp.where(zero, values._data, xp.astype(positive, x.dtype))


def _copysign_gradient(g: Tensor, a: Tensor, out: Tensor) -> Tensor:
    """torch's ``copysign_tensor_self_backward``: ``g`` times ``out / a`` made 0 where ``a``
    is 0 (so its forward-mode tangent, linear in ``g``, has no nan there either)."""
    return g * where(a == 0, 0.0, out / a)


class Copysign(_Binary):
    node_name = "CopysignBackward0"
    saved_names = ("self", "result")
    reads = (("self", "result"), ("result",))  # (torch keeps the result for other's zero)
    _profile_name = "aten::copysign"

    @staticmethod
    def compute(xp: Any, x: Any, y: Any) -> Any:
        return xp.copysign(x, y)

    @staticmethod
    def gradients(g: Tensor, a: Tensor | None, b: None, out: Tensor | None) -> tuple:
        return None if a is None else _copysign_gradient(g, a, out), zero_grad(g, None)


class CopysignScalar(Op):
    """``copysign`` with a number for ``other``: only ``input`` is an operand of the node."""

    node_name = "CopysignBackward1"
    saved_names = ("self", "result")
    _profile_name = "aten::copysign"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, other: Any) -> Tensor:
        x, y = _floating_operands("copysign", a, float(other), True)
        out = wrap(a._xp.copysign(x, y))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        a, out = ctx.saved_tensors
        return (_copysign_gradient(g, a, out),)


hypot = public_binary(Hypot, "hypot", """``sqrt(input² + other²)``, without overflow.

    >>> minitorch.hypot(minitorch.tensor([5.]), minitorch.tensor([12.]))
    tensor([13.])
    """)
atan2 = public_binary(Atan2, "atan2", """The angle of the point ``(other, input)``, in radians.

    >>> minitorch.atan2(minitorch.tensor([1.]), minitorch.tensor([-1.]))
    tensor([2.3562])
    """)
logaddexp = public_binary(Logaddexp, "logaddexp", """``log(exp(input) + exp(other))``, stably.

    >>> minitorch.logaddexp(minitorch.tensor([0.]), minitorch.tensor([0.]))
    tensor([0.6931])
    """)


_COPYSIGN_SIGNATURES = ("Tensor input, Tensor other, *, Tensor out = None",
                        "Tensor input, Number other, *, Tensor out = None")


@_call_form.overloads(*_COPYSIGN_SIGNATURES)
def copysign(input: Tensor, other: Any) -> Tensor:
    """``input``'s magnitude with ``other``'s sign (a tensor or a number).

    >>> minitorch.copysign(minitorch.tensor([1., -2.]), -1.)
    tensor([-1., -2.])
    """
    _args.tensor_args("copysign", (input, "input", 1))
    if isinstance(other, Tensor):
        return Copysign.apply(input, other)
    _args.tensor_or_number("copysign", other, "other", 2)
    other = _args.numpy_scalar(other)
    if _args.is_array(other):  # a numpy array, even 0-d, is no Number to torch's parser
        raise _args.invalid_combination("copysign", (input, other), *_COPYSIGN_SIGNATURES)
    _args.no_complex_kernel("copysign", input, other)
    check_unsigned(input, other)
    if type(other) is int:
        _args.float_scalar(other)  # torch's overflow past int64/uint64
    return CopysignScalar.apply(input, other=other)


logaddexp2 = public_binary(Logaddexp2, "logaddexp2", example(
    "``log2(2**input + 2**other)``, stably.",
    "minitorch.logaddexp2(minitorch.tensor([1.]), minitorch.tensor([1.]))", "tensor([2.])"))
fmax = public_binary(Fmax, "fmax", example(
    "The element-wise maximum, ignoring NaN (NaN only where both are).",
    "minitorch.fmax(minitorch.tensor([1., float('nan')]), minitorch.tensor([2., 3.]))",
    "tensor([2., 3.])"))
fmin = public_binary(Fmin, "fmin", example(
    "The element-wise minimum, ignoring NaN (NaN only where both are).",
    "minitorch.fmin(minitorch.tensor([1., float('nan')]), minitorch.tensor([2., 3.]))",
    "tensor([1., 3.])"))


def heaviside(input: Tensor, values: Tensor) -> Tensor:
    """0 where ``input`` is negative, 1 where positive, ``values`` where it is zero (both of
    one dtype).

    >>> minitorch.heaviside(minitorch.tensor([-2., 0., 3.]), minitorch.tensor([0.5]))
    tensor([0.0000, 0.5000, 1.0000])
    """
    _args.tensor_args("heaviside", (input, "input", 1), (values, "values", 2))
    same_dtypes(input, values)
    return Heaviside.on(input, values)


def same_dtypes(input: Tensor, values: Tensor) -> None:
    """heaviside's refusal of operands of two dtypes (before their shapes are compared)."""
    if input.dtype is not values.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different "
                           "dtypes.")


@_call_form.overloads("Tensor input, Tensor exponent, *, Tensor out = None",
                      "Number self, Tensor exponent, *, Tensor out = None",
                      "Tensor input, Number exponent, *, Tensor out = None")
def float_power(input: Any, exponent: Any) -> Tensor:
    """``input ** exponent`` in float64 (each operand converted first, recorded as ``to``).

    >>> minitorch.float_power(minitorch.tensor([2, 3]), 2)
    tensor([4., 9.], dtype=torch.float64)
    """
    _tensor_operand("float_power", input, exponent, "exponent", number_out=True)
    for v in (input, exponent):  # a Scalar the parser cannot hold
        if type(v) is int and not _args.INT64_MIN <= v < 2 ** 64:
            raise _args.int_overflow(v)
    if float_power_type(input, exponent) != "Double":
        raise TypeError("minitorch has no complex tensors: it cannot compute with "
                        f"{next(v for v in (input, exponent) if isinstance(v, complex))!r}")
    base, power = (v.to(float64) if isinstance(v, Tensor) else float(v)
                   for v in (_args.numpy_scalar(input), _args.numpy_scalar(exponent)))
    return pointwise.pow(base, power)


def float_power_type(*operands: Any) -> str:
    """torch's name of float_power's result type: complex where an operand is a complex
    number, double otherwise.

    >>> float_power_type(minitorch.ones(1), 2j)
    'ComplexDouble'
    """
    return "ComplexDouble" if any(isinstance(v, complex) for v in operands) else "Double"


@_call_form.overloads("Tensor exponent", "Number exponent")
def float_power_(self: Tensor, exponent: Any) -> Tensor:
    """In-place :func:`float_power`, of a float64 tensor only.

    >>> minitorch.tensor([2.], dtype=minitorch.float64).float_power_(3)
    tensor([8.], dtype=torch.float64)
    """
    _tensor_operand("float_power_", self, exponent, "exponent", number_out=True)
    _args.unpack_int(exponent)  # the parser's reading of a Number, before the op's checks
    wanted = float_power_type(exponent)
    if self.dtype is not float64 or wanted != "Double":
        raise RuntimeError(f"the base given to float_power_ has dtype "
                           f"{_args.legacy(self.dtype)} but the operation's result requires "
                           f"dtype {wanted}")
    return self._inplace(float_power, exponent)


arctan2 = atan2
METHODS = {"hypot": hypot, "atan2": atan2, "arctan2": atan2, "logaddexp": logaddexp,
           "copysign": copysign, "logaddexp2": logaddexp2, "fmax": fmax, "fmin": fmin,
           "heaviside": heaviside, "float_power": float_power, "float_power_": float_power_}
