"""Element-wise ops with broadcasting: arithmetic, powers, activations, comparisons.

Each gradient is summed back to its input's shape (``sum_to``), so broadcasting works in
backward as it does in forward.

>>> import minitorch
>>> x = minitorch.tensor([1., 2.], requires_grad=True)
>>> (x * minitorch.tensor([[1.], [2.]])).sum().backward(); x.grad
tensor([3., 3.])
"""

from __future__ import annotations

from typing import Any

from .. import _args, _call_form
from .._dtype import (
    _is_uint64,
    float16,
    float64,
    from_array_dtype,
    get_default_dtype,
    int64,
    result_type,
    rounded,
    uint64_promotion,
    wrapped,
)
from .._dtype import bool as bool_
from .._tensor import Tensor, broadcast_pair, broadcast_shapes, sum_to, sum_to_array
from .._warn_once import warn_once
from ..autograd import forward_ad, grad_mode, profiler, torch_events
from ..backend import (
    array_dtype,
    c_order,
    cpu_math,
    half_via_float,
    in_memory_order,
    namespace,
    quiet,
    torch_layout,
    zero_where,
)
from . import _fused
from ._base import (
    Op,
    cast_operands,
    check_same_device,
    check_unsigned,
    iterator_layout,
    kept,
    like,
    wrap,
)
from ._out import takes_out_elementwise
from ._softmax_order import torch_pow, torch_sigmoid

Number = int | float | bool


def keep_ties(xp: Any, x: Any, result: Any) -> Any:
    """``result`` of a max, min or clamp of ``x``, but ``x`` wherever the two are equal: torch's
    kernels keep the first operand on a tie, so ``relu(-0.)`` is ``-0.`` (numpy's gives ``0.``).

    >>> import numpy as np
    >>> x = np.array([-0.0, -1.0])
    >>> keep_ties(np, x, np.maximum(x, 0.0)).tolist()
    [-0.0, 0.0]
    """
    return xp.where(result == x, x, result)


def clamped(xp: Any, x: Any, low: Any, high: Any) -> Any:
    """``x`` raised to ``low`` then lowered to ``high`` (either may be None), ties kept at each
    step as torch's ``min(max(x, low), high)``; NaN anywhere gives NaN.

    >>> import numpy as np
    >>> clamped(np, np.array([-1.0, 2.0]), -0.0, 0.0).tolist()
    [-0.0, 0.0]
    """
    if low is not None:
        x = _held(xp, x, low, xp.maximum, xp.less)
    if high is not None:
        x = _held(xp, x, high, xp.minimum, xp.greater)
    return x


def _held(xp: Any, x: Any, bound: Any, extremum: Any, past: Any) -> Any:
    """``extremum(x, bound)`` keeping ``x`` on ties. A single bound that is not NaN takes one
    ``where`` (NaN in ``x`` is never past it, so it stays): a third of :func:`keep_ties`'s
    passes, and relu runs in every training step."""
    if getattr(bound, "ndim", 0) == 0 and bound == bound:
        return xp.where(past(x, bound), bound, x)
    return keep_ties(xp, x, extremum(x, bound))


def _binary(ufunc_name: str, a: Any, b: Any) -> Tensor:
    x, y, _dt = cast_operands(a, b)
    check_broadcast(a, b)
    xp = namespace((a if isinstance(a, Tensor) else b)._data)
    out = getattr(xp, ufunc_name)(x, y)
    return wrap(out if out.ndim < 2 else iterator_layout(out, a, b, x, y))  # (a call fewer)


def _half_by_one_value(ufunc_name: str, a: Any, b: Any) -> Tensor | None:
    """``a * b`` or ``a / b`` of a float16 result whose second operand holds one value (a
    number, a tensor of one element) of another dtype, as torch's CPU kernels compute it: that
    value read from its own dtype into float32 (not rounded to float16 first: ``x * 1e6`` of
    a zero is 0, not nan), the product in float32, rounded once. None where that does not
    apply.

    >>> import minitorch
    >>> _half_by_one_value("multiply", minitorch.tensor([397.], dtype=minitorch.float16), 0.001)
    tensor([0.3970], dtype=torch.float16)
    """
    # a float16 result with a one-value operand of another dtype needs ``a`` in float16: the
    # test every float32 product takes, asked first
    if not isinstance(a, Tensor) or a.dtype.name != "float16":
        return None
    b = _args.numpy_scalar(b)  # a numpy number is the Python number it holds, to torch
    if type(b) is float or type(b) is int:
        pass
    elif (isinstance(b, Tensor) and b.numel() == 1
          and b.dtype.name not in ("float16", "bool") and result_type(a, b).name == "float16"):
        check_same_device(a, b)
        check_broadcast(a, b)
    else:
        return None
    xp = a._xp
    x, y = xp.astype(a._data, xp.float32), _in_float32(xp, b)
    out = xp.astype(getattr(xp, ufunc_name)(x, y), xp.float16)
    return wrap(torch_layout(out, a._data, y))


def _in_float32(xp: Any, value: Any) -> Any:
    """A number or a one-element tensor read from its own dtype into float32, as torch's
    kernels read a CPU scalar operand (not rounded to the other operand's float16 first)."""
    if isinstance(value, Tensor):
        return xp.astype(value._data, xp.float32)
    return xp.asarray(_args.float_scalar(value), dtype=xp.float32)


def _laid(ufunc_name: str, x: Any, y: Any) -> Any:
    """``ufunc(x, y)`` on arrays (a backward's product), laid out as torch's kernel lays its
    result (the first operand's dim order): a sum over it then runs in torch's order."""
    shapes = getattr(x, "shape", ()), getattr(y, "shape", ())  # (a Python number has none)
    if shapes[0] != shapes[1]:  # a saved tensor's unpack hook may answer any shape
        broadcast_pair(*shapes)
    out = getattr(namespace(x), ufunc_name)(x, y)
    return out if getattr(out, "ndim", 0) < 2 else torch_layout(out, x, y)  # (as _binary)


# What torch records when its kernel copies an operand to the op's dtype first.


def _conversions(a: Any, b: Any, common: Any = None) -> tuple:
    """The ``aten::to`` events torch's kernel records inside a binary op: one for each operand
    whose dtype is not the op's (a Python number is a float64, int64 or bool tensor to torch).

    >>> from minitorch import tensor
    >>> len(_conversions(tensor([1.0]), 2.0)), len(_conversions(tensor([1.0]), tensor(2.0)))
    (1, 0)
    """
    common = common or result_type(a, b)
    return tuple(torch_events.TO_COPY for v in (a, b) if _operand_dtype(v) is not common)


def _operand_dtype(value: Any) -> Any:
    if isinstance(value, Tensor):
        return value.dtype
    return {bool: bool_, int: int64, float: float64}.get(type(value))


def _record_conversions(a: Any, b: Any, common: Any = None) -> None:
    if profiler._active is not None:
        for chain in _conversions(a, b, common):
            profiler._mark(*chain)


def check_broadcast(*operands: Any) -> None:
    """torch's error if the tensors among ``operands`` do not broadcast (numbers always do),
    found as its TensorIterator finds it: each one's shape against that of those before.

    >>> check_broadcast(minitorch.ones(4), minitorch.ones(1, 3, 1), minitorch.ones(3, 3))
    Traceback (most recent call last):
    RuntimeError: The size of tensor a (4) must match the size of tensor b (3) at non-singleton \
dimension 2
    """
    shape = None
    for value in operands:
        if isinstance(value, Tensor):
            here = value._data.shape
            shape = here if shape is None or shape == here else broadcast_pair(shape, here)


def _is_bool(v: Any) -> bool:
    return v is True or v is False or (isinstance(v, Tensor) and v.dtype is bool_)


def no_bool(a: Any, b: Any) -> None:
    """torch refuses ``-`` on bool operands (``~`` inverts a mask, ``^`` compares two), once
    its parser has read a Python int operand (past int64 and uint64 it overflows)."""
    for number in (a, b):
        if type(number) is int:
            _args.float_scalar(number)
    bools = _is_bool(a) + _is_bool(b)
    if bools == 2:
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                           "supported. Use the `^` or `logical_xor()` operator instead.")
    if bools:
        raise RuntimeError(
            "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
            "trying to invert a mask, use the `~` or `logical_not()` operator instead.")


class Add(Op):
    """``a + alpha * b``; with an ``alpha``, one fused multiply-add as torch's kernel (two
    float tensors only: ``add`` scales a number or an integer tensor itself)."""

    node_name = "AddBackward0"
    saved_values = {"alpha": kept("alpha")}
    node_slots = ("a", "b", "alpha")  # what forward keeps on the node (see BackwardCFunction)
    _profile_name = "aten::add"

    @staticmethod
    def forward(ctx: Any, a: Tensor, b: Tensor | Number, *, alpha: Number = 1) -> Tensor:
        if profiler._active is not None:  # (checked here: one call fewer per op)
            _record_conversions(a, b)
        ctx.alpha = alpha
        if True in ctx.needs_input_grad:  # what backward needs (an unrecorded call keeps none)
            ctx.a, ctx.b = _meta(a), _meta(b)
        if alpha == 1:
            return _binary("add", a, b)
        return _binary_scaled(a, b, alpha)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        gb = g if ctx.alpha == 1 else g * ctx.alpha
        return _reduce(g, ctx.a), _reduce(gb, ctx.b)

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> Any:
        if ctx.alpha != 1 or not _same_dtype_as(g, ctx.a, ctx.b):
            return NotImplemented
        xp = namespace(g)
        return _reduce_array(xp, g, ctx.a), _reduce_array(xp, g, ctx.b)


def _binary_scaled(a: Tensor, b: Tensor, alpha: Number) -> Tensor:
    """``a + alpha * b`` of two tensors in their result type, rounded as torch's kernel."""
    check_same_device(a, b)
    check_broadcast(a, b)
    x, y, _dt = cast_operands(a, b)
    return wrap(iterator_layout(_fused.add_scaled(a._xp, x, y, alpha), a, b, x, y))


class Sub(Op):
    node_name = "SubBackward0"
    saved_values = {"alpha": kept("alpha")}
    node_slots = ("a", "b", "alpha")  # what forward keeps on the node (see BackwardCFunction)
    _profile_name = "aten::sub"

    @staticmethod
    def forward(ctx: Any, a: Tensor, b: Tensor | Number, *, alpha: Number = 1) -> Tensor:
        no_bool(a, b)
        if profiler._active is not None:  # (checked here: one call fewer per op)
            _record_conversions(a, b)
        ctx.alpha = alpha
        if True in ctx.needs_input_grad:
            ctx.a, ctx.b = _meta(a), _meta(b)
        if alpha == 1:
            return _binary("subtract", a, b)
        return _binary_scaled(a, b, -alpha)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        if not ctx.needs_input_grad[1]:
            return _reduce(g, ctx.a), None
        return _reduce(g, ctx.a), _reduce(-g if ctx.alpha == 1 else -g * ctx.alpha, ctx.b)

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> Any:
        if ctx.alpha != 1 or not _same_dtype_as(g, ctx.a, ctx.b):
            return NotImplemented
        xp = namespace(g)
        return (_reduce_array(xp, g, ctx.a),
                _reduce_array(xp, xp.negative(g), ctx.b) if ctx.needs_input_grad[1] else None)


class Rsub(Op):
    """``number - tensor``: the number is not an operand of the node (RsubBackward1)."""

    node_name = "RsubBackward1"
    _profile_name = "aten::rsub"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, other: Number) -> Tensor:
        no_bool(a, other)
        if profiler._active is not None:  # torch's rsub is a sub
            profiler._mark("aten::sub", *_conversions(other, a))
        return _binary("subtract", other, a)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (-g,)


class RsubTensors(Op):
    """``torch.rsub(input, other, alpha=...)`` of two tensors: ``other - alpha * input``."""

    node_name = "RsubBackward0"
    _profile_name = "aten::rsub"

    @staticmethod
    def forward(ctx: Any, a: Tensor, b: Tensor, *, alpha: Number = 1) -> Tensor:
        no_bool(a, b)
        ctx.alpha, ctx.a, ctx.b = alpha, _meta(a), _meta(b)
        if alpha == 1:
            return _binary("subtract", b, a)
        return _binary_scaled(b, a, -alpha)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (_reduce(-g if ctx.alpha == 1 else -g * ctx.alpha, ctx.a), _reduce(g, ctx.b))


class Mul(Op):
    node_name = "MulBackward0"
    # torch wraps a number operand as a tensor: its zero tangent times the other primal gives
    # the tangent a graph (forward_ad's zero terms)
    tangent_of_number = True
    node_slots = ("a", "b", "scalar")  # what forward keeps on the node (see BackwardCFunction)
    saved_slots = ("scalar",)
    saved_names = ("other", "self")  # torch packs (and unpacks) other first
    _profile_name = "aten::mul"

    @staticmethod
    def forward(ctx: Any, a: Tensor, b: Tensor | Number) -> Tensor:
        if profiler._active is not None:  # (checked here: one call fewer per op)
            _record_conversions(a, b)
        need_a, need_b = ctx.needs_input_grad
        if need_a or need_b:
            ctx.a, ctx.b = _meta(a), _meta(b)
            ctx.save_for_backward(b if need_a and ctx.b else None, a if need_b else None)
            ctx.scalar = None if ctx.b else b
        half = _half_by_one_value("multiply", a, b)
        return _binary("multiply", a, b) if half is None else half

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        b, a = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        ga = _reduce(g * (ctx.scalar if b is None else b), ctx.a) if need_a else None
        gb = _reduce(g * a, ctx.b) if need_b else None
        return ga, gb

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> Any:
        if (operands := _operands_like(ctx, g)) is NotImplemented:
            return operands
        xp, other, mine = operands
        return (sum_to_array(xp, _laid("multiply", g, other), ctx.a[0])
                if other is not None else None,
                sum_to_array(xp, _laid("multiply", g, mine), ctx.b[0])
                if mine is not None else None)


class MulScalar(Mul):
    """``tensor * number`` as torch's C++ writes it (``mul.Scalar``, MulBackward1).

    >>> MulScalar.apply(minitorch.ones(1, requires_grad=True), 2.0).grad_fn.name()
    'MulBackward1'
    """

    node_name = "MulBackward1"
    saved_names = ("other",)
    tangent_of_number = False  # mul.Scalar's formula: self_t * other


class Div(Op):
    node_name = "DivBackward0"
    tangent_of_number = True  # (as Mul's)
    node_slots = ("a", "b", "scalar")  # what forward keeps on the node (see BackwardCFunction)
    saved_slots = ("scalar",)
    saved_names = ("other", "self")  # torch packs (and unpacks) other first
    _profile_name = "aten::div"

    @staticmethod
    def forward(ctx: Any, a: Tensor, b: Tensor | Number) -> Tensor:
        x, y, dt = cast_operands(a, b)
        _record_conversions(a, b, dt if dt.is_floating_point else get_default_dtype())
        if not dt.is_floating_point:
            x, y = _to_default_float(x, a), _to_default_float(y, b)
        if True in ctx.needs_input_grad:
            ctx.a, ctx.b = _meta(a), _meta(b)
            ctx.save_for_backward(b if ctx.b else None, a if ctx.needs_input_grad[1] else None)
            ctx.scalar = None if ctx.b else b
        check_broadcast(a, b)
        half = _half_by_one_value("divide", a, b)
        return wrap(iterator_layout(a._xp.divide(x, y), a, b, x, y)) if half is None else half

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        b, a = ctx.saved_tensors
        divisor = ctx.scalar if b is None else b
        ga = _reduce(g / divisor, ctx.a) if ctx.needs_input_grad[0] else None
        # torch's -g * ((a / b) / b), which rounds otherwise than -g * a / (b * b)
        gb = _reduce(-g * (a / b / b), ctx.b) if ctx.needs_input_grad[1] else None
        return ga, gb

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> Any:
        if (operands := _operands_like(ctx, g, divisor=True)) is NotImplemented:
            return operands
        xp, divisor, mine = operands
        ga = (sum_to_array(xp, _laid("divide", g, divisor), ctx.a[0])
              if ctx.needs_input_grad[0] else None)
        if mine is None:
            return ga, None
        ratio = _laid("divide", _laid("divide", mine, divisor), divisor)
        return ga, sum_to_array(xp, _laid("multiply", xp.negative(g), ratio), ctx.b[0])


def _to_default_float(array: Any, like: Any) -> Any:
    """An integer operand of a true division in the default float type, from its own values
    (a 0-d int16 tensor's 32767 beside a uint8 tensor, not the 255 their common int type
    holds), as torch converts each input to the float it computes in."""
    if not isinstance(like, Tensor):  # a number as it was given, not as an int8 holds it
        return _args.float_scalar(like) if type(like) is int else float(array)  # (uint64: +)
    xp = like._xp
    own = like._data if type(like._data) is type(array) else array  # (one moved to a device)
    return xp.astype(own, getattr(xp, get_default_dtype().name))



class DivScalar(Div):
    """``tensor / number`` as torch's C++ writes it (``div.Scalar``, DivBackward1): what its
    Python-free compositions (a loss's mean over a count) build.

    >>> DivScalar.apply(minitorch.ones(1, requires_grad=True), 2).grad_fn.name()
    'DivBackward1'
    """

    node_name = "DivBackward1"
    saved_names = ("other",)

class Neg(Op):
    node_name = "NegBackward0"
    _profile_name = "aten::neg"

    @staticmethod
    def forward(ctx: Any, a: Tensor) -> Tensor:
        if a.dtype is bool_:
            raise RuntimeError(
                "Negation, the `-` operator, on a bool tensor is not supported. If you are "
                "trying to invert a mask, use the `~` or `logical_not()` operator instead."
            )
        return wrap(a._xp.negative(a._data))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (-g,)


# torch's CPU kernel computes these exponents with products and quotients, not its pow, so
# their last bit is that of the products (each measured 100% equal to torch's in float32);
# 0.5 is torch.sqrt itself
_POW_SPECIAL = {
    2: lambda xp, x: x * x,
    3: lambda xp, x: x * x * x,
    0.5: lambda xp, x: cpu_math(xp.sqrt, x),
    -1: lambda xp, x: 1 / x,
    -2: lambda xp, x: 1 / (x * x),
    -0.5: lambda xp, x: 1 / xp.sqrt(x),
}


def _scalar_power(xp: Any, x: Any, p: Any) -> Any:
    """``x ** p`` of a floating array for a number ``p`` as torch's CPU pow kernel computes
    it: products for the exponents of _POW_SPECIAL, else :func:`torch_pow`."""
    if p in _POW_SPECIAL:
        return _POW_SPECIAL[p](xp, x)
    return torch_pow(xp, x, p)


def check_uint64_exponent(a: Tensor, exponent: Any) -> None:
    """torch's refusal of an int exponent past int64 for an integer tensor: read as uint64,
    it does not convert to int64 (minitorch would wrap it negative).

    >>> check_uint64_exponent(minitorch.tensor([2]), 2 ** 63)
    Traceback (most recent call last):
    RuntimeError: value cannot be converted to type int64_t without overflow
    """
    if _is_uint64(exponent) and not a.dtype.is_floating_point:  # (past 2**64 the parser's
        # OverflowError)
        raise _args.conversion_overflow("int64_t")


def check_int_power(a: Tensor, exponent: Any) -> None:
    """torch's refusal of a negative int exponent of an integer (or bool) tensor.

    >>> check_int_power(minitorch.tensor([2]), -1)
    Traceback (most recent call last):
    RuntimeError: Integers to negative integer powers are not allowed.
    """
    if type(exponent) is int and exponent < 0 and not a.dtype.is_floating_point and \
            not a.dtype.is_complex:
        raise RuntimeError("Integers to negative integer powers are not allowed.")


class PowScalarExponent(Op):
    """``tensor ** number`` (PowBackward0)."""

    node_name = "PowBackward0"
    saved_names = ("self",)
    _profile_name = "aten::pow"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, exponent: Number) -> Tensor:
        ctx.save_for_backward(a)
        ctx._saved_exponent = exponent
        if profiler._active is not None:  # what torch's pow kernel records inside aten::pow
            profiler._mark("aten::result_type")
            profiler._mark("aten::to")
            if exponent == 1:  # x ** 1 is a copy of x
                profiler._mark("aten::copy_")
        check_uint64_exponent(a, exponent)
        x, p, dt = cast_operands(a, exponent)
        if isinstance(exponent, bool) and dt is bool_:  # x ** True is x, x ** False is True
            return wrap(a._xp.logical_or(x, not exponent))
        _pow_supported(dt)
        if not isinstance(exponent, float) and exponent < 0 and not a.dtype.is_floating_point:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        if (type(exponent) is int and dt.itemsize < 8 and dt is not bool_) or \
                (type(exponent) is float and dt.itemsize == 2):  # float16 reads it as its own
            _args.check_overflow(exponent, dt)
        if dt.is_floating_point:  # (an integer tensor too: torch's kernel on it, converted)
            return wrap(_scalar_power(a._xp, x, exponent))
        return wrap(a._xp.pow(x, p))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (a,) = ctx.saved_tensors
        p = ctx._saved_exponent
        if p == 0:  # zeros, as torch: even where g is inf or nan
            return (wrap(a._xp.zeros_like(a._data)),)
        return (g * (p * a ** (p - 1)),)  # torch's order of the products, for torch's rounding

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> Any:
        (a,) = ctx.saved_tensors
        p = ctx._saved_exponent
        if p == 0 or type(p) not in (int, float) or not like(g, a._data):
            return NotImplemented
        xp = namespace(g)
        if p == 2:
            power = a._data  # x ** 1 is x, exactly
        elif a.dtype.is_floating_point:
            power = _scalar_power(xp, a._data, p - 1)
        else:
            power = xp.pow(a._data, float(p - 1))
        return (xp.multiply(g, xp.multiply(power, float(p))),)


class PowTensorExponent(Op):
    """``tensor ** tensor`` (PowBackward1)."""

    node_name = "PowBackward1"
    saved_names = ("exponent", "self", "result")  # torch's packing order
    _profile_name = "aten::pow"

    @staticmethod
    def forward(ctx: Any, a: Tensor, b: Tensor) -> Tensor:
        out = _power(a, b)
        ctx.save_for_backward(b, a, out)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        b, a, out = ctx.saved_tensors
        # torch's pow_backward_self: 0 where the exponent is 0 (not 0 * inf at a zero base)
        ga = _reduce(where(b == 0, 0.0, g * (b * a ** (b - 1))), _meta(a)) \
            if ctx.needs_input_grad[0] else None
        gb = None
        if ctx.needs_input_grad[1]:
            zero_base = (a == 0) & (b >= 0)
            base = a if a.dtype is out.dtype else a.to(out.dtype)  # torch's log of the base in
            gb = _reduce(g * where(zero_base, 0.0, out * base.log()), _meta(b))  # the result
            # type (a half base's log is not rounded to half)
        return ga, gb


class PowScalarBase(Op):
    """``number ** tensor`` (PowBackward2)."""

    node_name = "PowBackward2"
    saved_names = ("result",)
    _profile_name = "aten::pow"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, base: Number) -> Tensor:
        out = _power(base, a)
        ctx.save_for_backward(out)
        ctx.base = base
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        import math

        (out,) = ctx.saved_tensors
        return (g * out * math.log(ctx.base) if ctx.base > 0 else g * out * float("nan"),)


def _pow_supported(dt: Any) -> None:
    if dt is bool_:
        raise _args.not_implemented("pow", dt)


def _power(base: Any, exponent: Tensor) -> Tensor:
    """``base ** exponent`` for a tensor exponent; integers to negative powers as torch's
    integer pow (1 for a base of 1, +-1 for -1, else 0), where numpy refuses them."""
    dt = result_type(base, exponent)
    _pow_supported(dt)
    x, y, _ = cast_operands(base, exponent)
    check_broadcast(base, exponent)
    xp = exponent._xp
    if dt.is_floating_point:  # torch's result of a number to a tensor power is contiguous
        out = cpu_math(xp.pow, x, y)
        return wrap(torch_layout(out, x, y) if isinstance(base, Tensor) else c_order(out))
    x = x if isinstance(base, Tensor) else xp.asarray(x, dtype=y.dtype)
    negative = y < 0
    powered = xp.pow(x, xp.where(negative, xp.zeros_like(y), y))
    one = xp.ones_like(powered)
    odd = (y % 2) != 0
    special = xp.where(x == 1, one, xp.where(x == -1, xp.where(odd, -one, one), one - one))
    return wrap(xp.where(negative, special, powered))


class Where(Op):
    node_name = "WhereBackward0"
    index_operands = (0,)
    saved_names = ("condition",)
    _profile_name = "aten::where"

    @staticmethod
    def forward(ctx: Any, cond: Tensor, a: Tensor | Number, b: Tensor | Number) -> Tensor:
        check_same_device(cond, a, b)
        ctx.save_for_backward(cond)  # packed through saved-tensor hooks, as torch does
        ctx.a, ctx.b = _meta(a), _meta(b)
        x, y, _ = cast_operands(a, b)
        xp = cond._xp
        return wrap(xp.where(cond._data, x, y))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (cond,) = ctx.saved_tensors
        return None, _reduce(where(cond, g, 0.0), ctx.a), _reduce(where(cond, 0.0, g), ctx.b)


WHERE_SIGNATURES = ("Tensor condition",
                     "Tensor condition, Tensor input, Tensor other, *, Tensor out = None",
                     "Tensor condition, Number self, Tensor other",
                     "Tensor condition, Tensor input, Number other",
                     "Tensor condition, Number self, Number other")


@_call_form.overloads(*WHERE_SIGNATURES)
def where(condition: Tensor, input: Any = _args.OMITTED, other: Any = _args.OMITTED) -> Any:
    """Pick ``input`` where ``condition`` holds, else ``other`` (both broadcast); with the
    condition alone, the indices where it holds, one tensor per dim.

    >>> minitorch.where(minitorch.tensor([True, False]), 1., minitorch.zeros(2))
    tensor([1., 0.])
    >>> minitorch.where(minitorch.tensor([0., 2., 3.]))
    (tensor([1, 2]),)
    """
    given = tuple(v for v in (input, other) if v is not _args.OMITTED)
    if not isinstance(condition, Tensor):  # one overload takes the condition alone
        if given:
            raise _args.invalid_combination("where", (condition, *given), *WHERE_SIGNATURES)
        raise TypeError(f"where(): argument 'condition' (position 1) must be Tensor, not "
                        f"{_args.type_name(condition)}")
    if not given:
        return _nonzero(condition)
    input, other = _args.numpy_scalar(input), _args.numpy_scalar(other)
    if len(given) == 1 or not all(isinstance(v, (Tensor, int, float, complex))
                                  for v in (input, other)):
        raise _args.invalid_combination("where", (condition, *given), *WHERE_SIGNATURES)
    for value in (input, other):
        _args.unpack_int(value)
    check_unsigned(input, other)
    complex_ = any(isinstance(v, complex) for v in (input, other))
    unsigned = all(map(_is_uint64, (input, other)))
    if not complex_ and not unsigned:  # (a complex or uint64 result holds them: refused
        # after torch's checks)
        dt = result_type(input, other)  # torch converts the numbers before the condition
        for value in (input, other):  # a number is read into the result's type (into
            if not isinstance(value, Tensor) and dt is not float16:  # float16 unchecked)
                _args.kernel_scalar(value, dt)
    if condition.dtype.name == "uint8":
        warn_once("where received a uint8 condition tensor. This behavior is deprecated and "
                  "will be removed in a future version of PyTorch. Use a boolean condition "
                  "instead.", stacklevel=4)  # torch's TORCH_WARN_ONCE, at the caller
        condition = condition.bool()
    if condition.dtype is not bool_:
        raise RuntimeError("where expected condition to be a boolean tensor, but got a tensor "
                           f"with dtype {_args.legacy(condition.dtype)}")
    check_broadcast(condition, input, other)
    if complex_:
        dt = result_type(input, other)  # minitorch's refusal: it has no complex tensors
    if unsigned:  # torch's uint64 result, which minitorch has not
        from_array_dtype(condition._xp.empty((0,), dtype=condition._xp.uint64).dtype)
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        xp = condition._xp  # two Python scalars: torch's dtype for them (float32 for floats)
        input = Tensor._make(xp.asarray(input, dtype=array_dtype(xp, dt.name)))
    return Where.apply(condition, input, other)


def _nonzero(condition: Tensor) -> tuple:
    """The indices of ``condition``'s non-zero elements, one int64 tensor per dim (a 0-d
    condition counts as one dim), as torch's ``nonzero(as_tuple=True)``."""
    xp = condition._xp
    data = xp.reshape(condition._data, (1,)) if condition.dim() == 0 else condition._data
    return tuple(wrap(xp.astype(i, xp.int64)) for i in xp.nonzero(data))


def _meta(value: Any) -> Any:
    """What backward needs to reduce a gradient to an input: its array's shape and dtype."""
    return (value._data.shape, value._data.dtype) if isinstance(value, Tensor) else None


def _reduce(g: Tensor, meta: Any) -> Tensor | None:
    if meta is None:
        return None
    shape, dt = meta
    if g._data.shape != shape:
        g = sum_to(g, shape)
    if g._data.dtype is dt:
        return g
    dt = from_array_dtype(dt)  # compared as minitorch dtypes: a numpy dtype may meet CuPy's
    return g if g.dtype is dt else g.to(dt)


def _reduce_array(xp: Any, g: Any, meta: Any) -> Any:
    """``_reduce`` on arrays, for an input of ``g``'s dtype: ``g`` summed to its shape."""
    return None if meta is None else sum_to_array(xp, g, meta[0])


def _operands_like(ctx: Any, g: Any, divisor: bool = False) -> Any:
    """For the array backward of ``a * b`` or ``a / b``: the namespace, b (its array, or the
    number as a float) if a needs a gradient (or, for a ``divisor``, b does), and a's array if
    b does (None where not needed); NotImplemented where ``backward`` would cast."""
    b, a = ctx.saved_tensors  # unpacked once, in torch's order
    need_a, need_b = ctx.needs_input_grad
    other = _operand_array(ctx.scalar if b is None else b, g) if need_a or (
        divisor and need_b) else None
    mine = _operand_array(a, g) if need_b else None
    if other is NotImplemented or mine is NotImplemented or \
            not _same_dtype_as(g, ctx.a if need_a else None, ctx.b if need_b else None):
        return NotImplemented
    return namespace(g), other, mine


def _operand_array(value: Any, g: Any) -> Any:
    """What multiplies ``g`` in an array backward: the array of a tensor of ``g``'s dtype, or
    a Python number as a float (as ``cast_operands`` gives it); NotImplemented otherwise."""
    if isinstance(value, Tensor):
        return value._data if like(g, value._data) else NotImplemented
    return float(value) if type(value) in (int, float) else NotImplemented


def _same_dtype_as(g: Any, *metas: Any) -> bool:
    """Every input (by its ``_meta``) has ``g``'s dtype, in ``g``'s array library: no cast
    after the product."""
    dt = g.dtype
    for meta in metas:  # a loop is cheaper than all() on a few items
        if meta is not None and (type(meta[1]) is not type(dt) or meta[1] != dt):
            return False
    return True


class _Unary(Op):
    """An op of one tensor whose backward needs its input (``ctx.x``) or result."""

    floating = True  # integer inputs are computed in the default float dtype
    bool_error: Exception | None = None  # torch's refusal of a bool input, if it refuses

    @classmethod
    def prepare(cls, a: Tensor) -> Any:
        if cls.floating and not a.dtype.is_floating_point:
            xp = a._xp
            return xp.astype(a._data, getattr(xp, get_default_dtype().name))
        if cls.bool_error is not None and a.dtype.name == "bool":
            raise cls.bool_error
        return a._data


def _unary(name: str, aten: str, compute: Any, grad: Any, saves: str | None,
           floating: bool = True, arrays: bool = False, node: str | None = None):
    """Define a unary op class: forward ``compute(xp, array)``, backward ``grad(g, saved)``,
    ``saved`` the "self" or "result" that ``saves`` names, or None where torch saves nothing
    (then a second backward runs, as torch's). With ``arrays``, ``grad`` is written in
    operators only, so the same formula also serves arrays: it is the op's backward on arrays
    too. ``node`` is torch's node name where it is not ``<name>Backward0``."""

    def forward(ctx: Any, a: Tensor) -> Tensor:
        xp, x = a._xp, cls.prepare(a)
        out = in_memory_order(lambda x: half_via_float(compute, xp, x), x)
        out = wrap(out if x is a._data else torch_layout(out, a._data))  # (the cast copy of an
        # expanded input has lost its zero strides: laid out by the input as given)
        if saves is not None:
            ctx.save_for_backward(out if saves == "result" else a)
        return out

    def backward(ctx: Any, g: Tensor) -> tuple:
        return (grad(g, ctx.saved_tensors[0] if saves is not None else None),)

    def backward_arrays(ctx: Any, g: Any) -> Any:
        (saved,) = ctx.saved_tensors
        if not like(g, saved._data):  # a dtype to promote: left to backward's rules
            return NotImplemented
        # laid out as torch's kernels lay it: g's dim order first
        return (torch_layout(grad(g, saved._data), g, saved._data),)

    cls = type(name, (_Unary,), {
        "node_name": node or f"{name}Backward0", "saved_names": (saves,) if saves else (),
        "floating": floating,
        "_profile_name": f"aten::{aten}", "__module__": __name__,
        "forward": staticmethod(forward), "backward": staticmethod(backward),
        **({"backward_arrays": staticmethod(backward_arrays)} if arrays else {}),
    })
    return cls


class _ParametrizedUnary(_Unary):
    """A unary op with keyword parameters (an order, an ``eps``) kept on its node, which
    saves its input: a subclass gives ``compute(xp, array, **parameters)`` and
    ``gradient(g, x, **parameters)``."""

    saved_names = ("self",)

    @classmethod
    def forward(cls, ctx: Any, a: Tensor, **parameters: Any) -> Tensor:
        ctx.save_for_backward(a)
        ctx.parameters = parameters
        return wrap(in_memory_order(lambda x: cls.compute(a._xp, x, **parameters),
                                    cls.prepare(a)))

    @classmethod
    def backward(cls, ctx: Any, g: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        return (cls.gradient(g, x, **ctx.parameters),)


def zero_grad(g: Tensor, saved: Any) -> Tensor:
    """The gradient of a step function (sign, floor, ...): torch's ``zeros_like(grad)``, +0
    everywhere and no graph (``g * 0`` would be -0 where ``g`` is negative).

    >>> zero_grad(minitorch.tensor([-2.0, 3.0]), None)
    tensor([0., 0.])
    """
    return wrap(g._xp.zeros_like(g._data))


# The backward formulas multiply in torch's order, so that they round as torch's do.
# exp, log, sqrt, sin, cos and tanh round as torch's CPU kernels do (see cpu_math).
Exp = _unary("Exp", "exp", lambda xp, a: cpu_math(xp.exp, a), lambda g, r: g * r,
             "result", arrays=True)
Log = _unary("Log", "log", lambda xp, a: cpu_math(xp.log, a), lambda g, x: g / x,
             "self", arrays=True)
Sqrt = _unary("Sqrt", "sqrt", lambda xp, a: cpu_math(xp.sqrt, a), lambda g, r: g / (2 * r),
              "result", arrays=True)
Sin = _unary("Sin", "sin", lambda xp, a: cpu_math(xp.sin, a),
             lambda g, x: g * x.cos(), "self")
Cos = _unary("Cos", "cos", lambda xp, a: cpu_math(xp.cos, a),
             lambda g, x: -g * x.sin(), "self")
Tanh = _unary("Tanh", "tanh", lambda xp, a: cpu_math(xp.tanh, a),
              lambda g, r: TanhBackward.apply(g, r), "result")
Sigmoid = _unary("Sigmoid", "sigmoid", lambda xp, a: torch_sigmoid(xp, a),
                 lambda g, r: SigmoidBackward.apply(g, r), "result")
Reciprocal = _unary("Reciprocal", "reciprocal", lambda xp, a: 1 / a,
                    lambda g, r: -g * (r * r), "result", arrays=True)
Abs = _unary("Abs", "abs", lambda xp, a: xp.abs(a), lambda g, x: g * x.sign(), "self",
             floating=False)


def _sign(xp: Any, a: Any) -> Any:
    """torch's sign: 0 for NaN, a bool unchanged."""
    if _args.kind_of(a.dtype) == "bool":
        return a
    return xp.where(xp.isnan(a), xp.zeros((), dtype=a.dtype), xp.sign(a))


Sign = _unary("Sign", "sign", _sign, zero_grad, None, floating=False)
Sgn = _unary("Sgn", "sgn", _sign, zero_grad, None, floating=False)  # sign, complex-aware
# +0 where a < 0, a elsewhere: NaN stays NaN and -0. stays -0., as torch's clamp_min(a, 0).
# Not where(): on numpy, zero_where's AND with a bit mask takes 7-10 us on a 64x256 float32
# where where() takes ~20 alone and far more inside a training step (benchmarks/README.md)
Relu = _unary("Relu", "relu", lambda xp, a: zero_where(xp, a, xp.less(a, 0)),
              lambda g, r: ThresholdBackward.apply(g, r), "result", floating=False)


def _relu_backward_arrays(ctx: Any, g: Any) -> tuple:
    (result,) = ctx.saved_tensors
    return (_threshold_backward(g, result._data),)


def _threshold_backward(g: Any, result: Any) -> Any:
    """``g`` where ``result`` is above 0 or NaN, else +0: torch's threshold_backward."""
    return zero_where(namespace(g), g, result <= 0)


Relu.backward_arrays = staticmethod(_relu_backward_arrays)  # the same formula, on arrays
Relu.bool_error = RuntimeError("Boolean inputs not supported for relu")
Abs.bool_error = _args.not_implemented("abs_cpu", "Bool")


class _ResultBackward(Op):
    """An op's backward from its result as one op, as in torch (``tanh_backward``,
    ``sigmoid_backward``): ``kernel(g, result)`` on arrays, which also serves the forward
    op's array backward; differentiated again by torch's formulas, where the gradient for
    ``grad_output`` is the op itself and the one for the result is ``result_grad``."""

    saved_names = ("grad_output", "output")

    @classmethod
    def forward(cls, ctx: Any, g: Tensor, result: Tensor) -> Tensor:
        broadcast_pair(g, result)  # (a result from an unpack hook may not fit)
        ctx.save_for_backward(g, result)
        return wrap(cls.half_kernel(g._data, result._data))

    @classmethod
    def backward(cls, ctx: Any, gg: Tensor) -> tuple:
        g, result = ctx.saved_tensors
        return (cls.apply(gg, result) if ctx.needs_input_grad[0] else None,
                cls.result_grad(gg, g, result) if ctx.needs_input_grad[1] else None)

    @classmethod
    def of_arrays(cls, ctx: Any, g: Any) -> Any:
        """The forward op's ``backward_arrays``: the kernel on its saved result."""
        (result,) = ctx.saved_tensors
        if not like(g, result._data):  # a dtype to promote: left to backward's rules
            return NotImplemented
        return (cls.half_kernel(g, result._data),)

    half_in_float = True  # torch's kernel computes float16 in float32 (sigmoid's in float16)

    @classmethod
    def half_kernel(cls, g: Any, result: Any) -> Any:
        """The kernel, float16 computed as torch's."""
        if not cls.half_in_float:
            return cls.kernel(g, result)
        return half_via_float(lambda xp, g, r: cls.kernel(g, r), namespace(g), g, result)


class TanhBackward(_ResultBackward):
    """``g * (1 - r*r)``, the ``1 - r*r`` fused as torch's kernel rounds it.

    >>> x = minitorch.tensor([0.5], requires_grad=True)
    >>> g, = minitorch.autograd.grad(x.tanh(), x, create_graph=True); g
    tensor([0.7864], grad_fn=<TanhBackwardBackward0>)
    """

    node_name = "TanhBackwardBackward0"
    _profile_name = "aten::tanh_backward"

    @staticmethod
    def kernel(g: Any, result: Any) -> Any:
        return g * _fused.one_minus_square(namespace(g), result)

    @staticmethod
    def result_grad(gg: Tensor, g: Tensor, result: Tensor) -> Tensor:
        return gg * (-2 * result * g)


class SigmoidBackward(_ResultBackward):
    """``g * (1 - r) * r``, in torch's order.

    >>> x = minitorch.tensor([0.5], requires_grad=True)
    >>> g, = minitorch.autograd.grad(x.sigmoid(), x, create_graph=True); g
    tensor([0.2350], grad_fn=<SigmoidBackwardBackward0>)
    """

    half_in_float = False
    node_name = "SigmoidBackwardBackward0"
    _profile_name = "aten::sigmoid_backward"

    @staticmethod
    def kernel(g: Any, result: Any) -> Any:
        return g * (1 - result) * result

    @staticmethod
    def result_grad(gg: Tensor, g: Tensor, result: Tensor) -> Tensor:
        return gg * g * (-2 * result + 1)


Tanh.backward_arrays = staticmethod(TanhBackward.of_arrays)  # the same kernel, on arrays
Sigmoid.backward_arrays = staticmethod(SigmoidBackward.of_arrays)


class ThresholdBackward(Op):
    """relu's backward as one op, as in torch: ``g`` where the result is above 0, else 0 (a NaN
    result passes ``g``). Differentiated again it is itself, with the same result, and zeros
    for the result (so the layers below get zero gradients, not none)."""

    node_name = "ThresholdBackwardBackward0"
    saved_names = ("self",)
    _profile_name = "aten::threshold_backward"

    @staticmethod
    def forward(ctx: Any, g: Tensor, result: Tensor) -> Tensor:
        ctx.save_for_backward(result)
        return wrap(_threshold_backward(g._data, result._data))

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        (result,) = ctx.saved_tensors
        return (ThresholdBackward.apply(gg, result) if ctx.needs_input_grad[0] else None,
                gg.new_zeros(gg.shape) if ctx.needs_input_grad[1] else None)  # torch's zeros_like


class Clamp(Op):
    node_name = "ClampBackward1"
    saved_values = {"min": kept("bounds", lambda b: b[0]), "max": kept("bounds", lambda b: b[1])}
    saved_names = ("self",)
    _profile_name = "aten::clamp"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, min: Number | None = None,
                max: Number | None = None) -> Tensor:
        if min is None and max is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        ctx.save_for_backward(a)
        ctx.bounds = (min, max)
        return _clipped(a, min, max)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (a,) = ctx.saved_tensors
        lo, hi = ctx.bounds
        keep = None
        if lo is not None:
            keep = a >= lo
        if hi is not None:
            keep = (a <= hi) if keep is None else keep & (a <= hi)
        return (where(keep, g, 0.0),)  # +0 outside, not g * 0 (-0 where g < 0)


class ClampTensor(Op):
    """clamp with tensor bounds (one may be None): the bounds are inputs of the graph too,
    each getting the gradient where it is the result (torch's clamp_backward_min_max)."""

    node_name = "ClampBackward0"
    saved_names = ("self", "min", "max")
    _profile_name = "aten::clamp"

    @staticmethod
    def forward(ctx: Any, a: Tensor, low: Tensor | None, high: Tensor | None) -> Tensor:
        check_same_device(a, *(v for v in (low, high) if v is not None))
        ctx.save_for_backward(a, low, high)
        ctx.metas = (_meta(a), _meta(low), _meta(high))
        return _clipped(a, low, high)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        a, low, high = ctx.saved_tensors
        if low is None:
            keeps = (a <= high, None, a > high)
        elif high is None:
            keeps = (a >= low, a < low, None)
        else:  # bounds that cross: max wins, as in torch's forward
            _check_masks(ctx.needs_input_grad, a, low, high)
            keeps = ((a >= low) & (a <= high), (a < low) & (low < high), (a > high) | (high < low))
        return tuple(None if keep is None else _reduce(where(keep, g, 0.0), meta)
                     for keep, meta in zip(keeps, ctx.metas))


def _check_masks(needed: tuple, a: Tensor, low: Tensor, high: Tensor) -> None:
    """torch's backward builds each mask in place (``(a >= low).logical_and_(a <= high)``,
    ``(a < low).logical_and_(low < high)``, ``(a > high).logical_or_(high < low)``): a
    second operand that broadcasts wider than the first is refused there."""
    shapes = [tuple(t.shape) for t in (a, low, high)]
    pairs = (((0, 1), (0, 2)), ((0, 1), (1, 2)), ((0, 2), (1, 2)))
    for need, ((i, j), (k, m)) in zip(needed, pairs):
        if not need:
            continue
        mask = broadcast_shapes(shapes[i], shapes[j])
        wide = broadcast_shapes(mask, shapes[k], shapes[m])
        if wide != mask:
            raise RuntimeError(f"output with shape {list(mask)} doesn't match the broadcast "
                               f"shape {list(wide)}")


def _clipped(a: Tensor, low: Any, high: Any) -> Any:
    """``a`` clipped to the bounds (numbers, tensors or None), in the result's dtype, as torch
    computes."""
    x = a._data
    xp = a._xp
    dt = result_type(a, *(v for v in (low, high) if v is not None))
    if dt is not a.dtype:
        x = xp.astype(x, getattr(xp, dt.name))
    low, high = (xp.astype(v._data, x.dtype) if isinstance(v, Tensor) else v
                 for v in (low, high))
    return wrap(clamped(xp, x, low, high))


class _Extremum(Op):
    """maximum/minimum: the larger (smaller) input gets the gradient, the other +0; ties
    (and NaNs, as in torch) pass half of it (all of it) to both."""

    saved_names = ("other", "self")  # torch's packing order
    ufunc = "maximum"

    @classmethod
    def forward(cls, ctx: Any, a: Tensor, b: Tensor) -> Tensor:
        ctx.save_for_backward(b, a)
        x, y, _dt = cast_operands(a, b)
        check_broadcast(a, b)
        return wrap(iterator_layout(keep_ties(a._xp, x, getattr(a._xp, cls.ufunc)(x, y)), a, b,
                                    x, y))

    @classmethod
    def backward(cls, ctx: Any, g: Tensor) -> tuple:
        b, a = ctx.saved_tensors
        # torch's where(a == b, g / 2, g), zeroed (+0, even under a nan or -0 g) for the loser;
        # a nan beats neither, so both get g
        half = where(a == b, g / 2, g)
        a_loses, b_loses = (a < b, b < a) if cls.ufunc == "maximum" else (a > b, b > a)
        return (_reduce(where(a_loses, 0.0, half), _meta(a)),
                _reduce(where(b_loses, 0.0, half), _meta(b)))


class Maximum(_Extremum):
    node_name = "MaximumBackward0"
    _profile_name = "aten::maximum"


class Minimum(_Extremum):
    node_name = "MinimumBackward0"
    ufunc = "minimum"
    _profile_name = "aten::minimum"


_COMPARISONS = {"lt": "less", "le": "less_equal", "gt": "greater", "ge": "greater_equal",
                "eq": "equal", "ne": "not_equal"}


def compare(name: str, a: Any, b: Any) -> Tensor:
    """A comparison (``lt``, ``le``, ...): a bool tensor that never requires grad."""
    if name not in ("eq", "ne"):  # complex numbers have no order
        _args.no_complex_kernel(name, a, b)
    x, y, _ = cast_operands(a, b)
    check_broadcast(a, b)
    xp = (a if isinstance(a, Tensor) else b)._xp
    return wrap(iterator_layout(getattr(xp, _COMPARISONS[name])(x, y), a, b, x, y))


def logical(name: str, a: Tensor, b: Any) -> Tensor:
    """``&``, ``|``, ``^`` on bool or integer tensors (no gradient)."""
    xp = a._xp
    if isinstance(b, Tensor):
        broadcast_pair(a, b)
    _args.no_complex_kernel(f"bitwise_{name}", a, b)
    x, y, dt = cast_operands(a, b)
    if dt.is_floating_point:
        raise _args.not_implemented(f"bitwise_{name}_cpu", dt)
    op = {"and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor"}[name]
    return wrap(iterator_layout(getattr(xp, op)(x, y), a, b, x, y))


def shift(name: str, a: Any, b: Any) -> Tensor:
    """``a << b`` (``name`` "lshift") or ``a >> b`` ("rshift") on integer tensors, as torch
    shifts: a count that is negative or at least 64 shifts every bit out (``>>`` of a negative
    number leaves -1).

    >>> shift("lshift", minitorch.tensor([1, 3]), 2)
    tensor([ 4, 12])
    """
    if isinstance(a, Tensor) and isinstance(b, Tensor):
        broadcast_pair(a, b)
    _args.no_complex_kernel(name, a, b)
    x, y, dt = cast_operands(a, b)
    if dt.is_floating_point or dt is bool_:
        raise _args.not_implemented(f"{name}_cpu", dt)
    xp = (a if isinstance(a, Tensor) else b)._xp
    x, y = (xp.asarray(v, dtype=array_dtype(xp, dt.name)) for v in (x, y))
    out_of_range = (y < 0) | (y >= 64)
    count = xp.where(out_of_range, xp.zeros_like(y), y)
    if name == "lshift":
        return wrap(xp.where(out_of_range, xp.zeros_like(x), xp.bitwise_left_shift(x, count)))
    sign = xp.where(x < 0, -xp.ones_like(x), xp.zeros_like(x))
    return wrap(xp.where(out_of_range, sign, xp.bitwise_right_shift(x, count)))


def is_unit(alpha: Any) -> bool:
    """True for ``alpha`` at its default 1 (checked without comparing an unchecked value)."""
    return type(alpha) is int and alpha == 1


def _alpha(fn: str, input: Any, other: Any, alpha: Any) -> Any:
    """``add``'s and ``sub``'s ``alpha``: a number of a kind the result's dtype takes (a bool
    for a bool result), checked after the operands broadcast, as torch's kernel."""
    # a Python bool or a 0-d bool tensor's Scalar (torch's parser reads numpy's as a double)
    boolean = isinstance(alpha, bool) or (isinstance(alpha, Tensor) and alpha.dtype is bool_)
    (alpha,) = _args.numbers(fn, (alpha, "alpha", None))
    if fn == "sub":  # before alpha scales a bool into a number
        no_bool(input, other)
    if isinstance(input, Tensor) and isinstance(other, Tensor):
        broadcast_pair(input, other)
    result = result_type(input, other)
    check_unsigned(input, other)
    if boolean and result is not bool_:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if isinstance(alpha, (float, complex)) and not result.is_floating_point:
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating "
                           "point number.")
    if isinstance(alpha, complex):
        raise RuntimeError("For non-complex input tensors, argument alpha must not be a "
                           "complex number.")
    if isinstance(alpha, float):
        _args.assigned(alpha, result)  # torch's overflow error beyond float32's range
    if type(alpha) is int and fn == "sub":  # torch adds -alpha, negated in int64 (wrapping)
        alpha = -_args.int_scalar(-alpha % 2 ** 64)
    elif type(alpha) is int and result is int64 and alpha > _args.INT64_MAX:
        raise _args.conversion_overflow("int64_t")
    if type(alpha) is int and result.itemsize < 8 and result is not bool_:
        _args.check_overflow(alpha, result)
    return bool(alpha) if result is bool_ else alpha


def _fusable(input: Any, other: Any) -> bool:
    """Two float tensors of one dtype: ``add``/``sub`` with an alpha is then one fused op."""
    return (isinstance(input, Tensor) and isinstance(other, Tensor)
            and input.dtype is other.dtype and input.is_floating_point())


def _scaled(input: Any, other: Any, alpha: Any) -> Any:
    """``alpha * other``, a tensor in the result's dtype; two Python bools stay a bool, as in
    torch's bool arithmetic; for a floating result numbers read as doubles and rounded to
    its dtype, else two ints multiply in int64, wrapping (an int past int64 is read as
    uint64, as torch does)."""
    if type(other) is bool and type(alpha) is bool:
        return other and alpha
    result = result_type(input, other)
    if isinstance(other, Tensor) and other.dtype is not result:
        other = other.to(result)  # (a bool tensor times an int is int8 beside a 0-d int8)
    if result.is_floating_point:  # numbers read as doubles, then cast (unchecked) into
        alpha = rounded(float(alpha), result)  # the result's dtype, as torch's kernel
        if not isinstance(other, Tensor):
            other = rounded(_args.float_scalar(other), result)
    elif type(other) is int and type(alpha) is int:
        return _args.int_scalar(_args.int_scalar(other) * alpha % 2 ** 64)
    return other * alpha


# add's and sub's one listed signature (their deprecated ones, alpha first, hidden)
ALPHA_SIGNATURE = "Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None"


@_call_form.overloads(ALPHA_SIGNATURE, hidden=True)
@takes_out_elementwise
def add(input: Tensor, other: Any, *, alpha: Number = 1) -> Tensor:
    """``input + alpha * other`` with broadcasting.

    >>> minitorch.add(minitorch.ones(2), 2)
    tensor([3., 3.])
    """
    input = _number_input("add", input, other, alpha)
    if not is_unit(alpha):
        alpha = _alpha("add", input, other, alpha)
        if _fusable(input, other):
            return Add.apply(input, other, alpha=alpha)
        other = _scaled(input, other, alpha)
    if not isinstance(input, Tensor):
        input, other = other, input
    return Add.apply(input, other)


@_call_form.overloads(ALPHA_SIGNATURE, hidden=True)
def sub(input: Tensor, other: Any, *, alpha: Number = 1) -> Tensor:
    """``input - alpha * other`` (a number ``input`` is a 0-d operand, as torch wraps it:
    ``SubBackward0``).

    >>> minitorch.sub(minitorch.ones(2), 1)
    tensor([0., 0.])
    """
    return _difference(input, other, alpha, Sub)


def rsub_number(number: Any, tensor: Any) -> Tensor:
    """``number - tensor`` as torch's ``rsub`` of a number records it (``RsubBackward1``):
    the operator ``2 - x`` and ``minitorch.rsub(x, 2)``.

    >>> rsub_number(2, minitorch.ones(1, requires_grad=True)).grad_fn.name()
    'RsubBackward1'
    """
    return _difference(number, tensor, 1, Rsub)


def _difference(input: Any, other: Any, alpha: Any, number_first: type) -> Tensor:
    input = _number_input("sub", input, other, alpha)
    if not is_unit(alpha):
        alpha = _alpha("sub", input, other, alpha)
        if _fusable(input, other):
            return Sub.apply(input, other, alpha=alpha)
        other = _scaled(input, other, alpha)
    if isinstance(input, Tensor):
        return Sub.apply(input, other)
    if number_first is Rsub:
        return Rsub.apply(other, other=input)
    no_bool(input, other)  # (before the number is wrapped in the result's dtype)
    return Sub.apply(like_tensor(other, input), other)


@takes_out_elementwise
@_call_form.parser_types(input="Tensor", other="Tensor")  # (numbers wrapped as tensors)
def mul(input: Any, other: Any) -> Tensor:
    """Element-wise product.

    >>> minitorch.mul(minitorch.tensor([1., 2.]), 3)
    tensor([3., 6.])
    """
    input = _number_input("mul", input, other)
    if not isinstance(input, Tensor):
        input, other = other, input
    return Mul.apply(input, other)


# torch's overloads of div (its others, the ones without rounding_mode that take a Number,
# are hidden; divide and true_divide list one)
DIV_SIGNATURES = ("Tensor input, Tensor other, *, Tensor out = None",
                  "Tensor input, Tensor other, *, str rounding_mode, Tensor out = None",
                  "Tensor input, Number other, *, str rounding_mode")


@_call_form.overloads(*DIV_SIGNATURES)
def div(input: Any, other: Any, *, rounding_mode: Any = _args.OMITTED) -> Tensor:
    """True division (int / int gives float); with ``rounding_mode="trunc"`` or ``"floor"``
    the quotient rounded toward zero or down, in the operands' dtype, whose gradient is zero
    (torch's ``DivBackward2``, also the node of an explicit ``rounding_mode=None``).

    >>> minitorch.div(minitorch.tensor([1, 2]), 2)
    tensor([0.5000, 1.0000])
    >>> minitorch.div(minitorch.tensor([7., -7.]), 2, rounding_mode="trunc")
    tensor([ 3., -3.])
    """
    input = _number_input("div", input, other)
    _rounding_mode("div", (input, other), rounding_mode)
    rounding_mode_value(rounding_mode)
    if rounding_mode in ("trunc", "floor"):
        return DivRounded.apply(input, other, rounding_mode=rounding_mode)
    if not isinstance(input, Tensor):  # torch wraps the number: a division (DivBackward0),
        input = _number_operand(input, other)  # not ``number / x``'s reciprocal product
    return (Div if rounding_mode is _args.OMITTED else DivMode).apply(input, other)


def rdiv_number(number: Any, tensor: Tensor) -> Tensor:
    """``number / tensor`` as the operator: torch's ``__rtruediv__`` is the reciprocal times
    the number (``MulBackward0``), which rounds otherwise than ``div(number, tensor)``.

    >>> rdiv_number(2, minitorch.ones(1, requires_grad=True)).grad_fn.name()
    'MulBackward0'
    """
    _args.tensor_or_number("div", number, "input", 1)  # (the number stays a number: the
    return tensor.reciprocal() * number  # product's opmath reads it, 1e-45 / half(0) is inf)


def _number_operand(number: Any, other: Tensor) -> Tensor:
    """A number dividend as a 0-d tensor of the division's float type (read from the number
    itself: 300 beside int8 is 300., not int8's 44.).

    >>> _number_operand(300, minitorch.tensor([7], dtype=minitorch.int8))
    tensor(300.)
    """
    dt = result_type(number, other)
    if not dt.is_floating_point:
        dt = get_default_dtype()
    xp = other._xp
    with quiet():  # past float32's range it is inf, as torch casts it
        return Tensor._make(xp.asarray(_args.float_scalar(number),
                                       dtype=array_dtype(xp, dt.name)))


_DIV_SIGNATURES = {"div": DIV_SIGNATURES, "div_": tuple(_call_form.method_signatures(
    list(DIV_SIGNATURES)))}


def _rounding_mode(fn: str, args: tuple, rounding_mode: Any) -> None:
    """torch's parser: a ``rounding_mode`` is a str (or None); anything else matches none of
    ``fn``'s overloads."""
    if rounding_mode is _args.OMITTED or rounding_mode is None or \
            isinstance(rounding_mode, str):
        return
    raise _args.invalid_combination(fn, args, *_DIV_SIGNATURES[fn],
                                    keywords={"rounding_mode": rounding_mode})


def rounding_mode_value(rounding_mode: Any) -> None:
    """div's refusal of a ``rounding_mode`` it does not know (before the operands' shapes)."""
    if rounding_mode is not _args.OMITTED and rounding_mode not in (None, "trunc", "floor"):
        raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                           f"but found '{rounding_mode}'")


class DivMode(Div):
    node_name = "DivBackward2"  # div with a rounding_mode argument, None here


def int_trunc_divide(xp: Any, x: Any, y: Any) -> Any:
    """Integer arrays' quotient rounded toward zero, as C++'s ``/`` in torch's kernels.

    >>> import numpy as np
    >>> int_trunc_divide(np, np.array([-7, 7]), 2).tolist()
    [-3, 3]
    """
    q = xp.floor_divide(x, y)  # one up where it rounded a negative down
    return q + xp.astype((q * y != x) & ((x < 0) != (y < 0)), q.dtype)


def _rounded_quotient(a: Any, b: Any, mode: str) -> Any:
    """The array of ``div(a, b, rounding_mode=mode)`` (``"floor"`` is also ``a // b``)."""
    xp, x, y, dt = _floor_operands(f"div_{mode}", a, b)
    with quiet():
        if dt.name == "float16":
            return _half_rounded_quotient(xp, x, y, b, mode)
        if mode == "floor":
            return xp.floor_divide(x, y)
        if dt.is_floating_point:  # (a number dividend stays a Python number)
            return xp.trunc(x / y)
        return int_trunc_divide(xp, x, y)


def _half_rounded_quotient(xp: Any, x: Any, y: Any, divisor: Any, mode: str) -> Any:
    """``div(x, y, rounding_mode=mode)`` of float16 arrays as torch's CPU kernels: a divisor of
    one value (a number, a one-element tensor) is read from its own dtype into float32 and the
    whole quotient computed there, rounded once; otherwise each step rounds to float16 (numpy's
    float16 ``floor_divide`` computes in float32 throughout, so floor is written out)."""
    if isinstance(divisor, (int, float)) or (isinstance(divisor, Tensor)
                                            and divisor.numel() == 1):
        x = xp.astype(xp.asarray(x, dtype=xp.float16), xp.float32)  # a number dividend too
        y = _in_float32(xp, divisor)
    if mode == "trunc":
        out = xp.trunc(x / y)
    else:  # torch's div_floor_floating: (a - fmod(a, b)) / b, moved to the floor's side
        mod = xp.fmod(x, y)
        div = (x - mod) / y
        div = xp.where((mod != 0) & ((y < 0) != (mod < 0)), div - 1, div)
        low = xp.floor(div)
        low = xp.where(div - low > 0.5, low + 1, low)
        out = xp.where(div != 0, low, xp.copysign(xp.zeros_like(div), x / y))
        out = xp.where(y == 0, x / y, out)
    return xp.astype(out, xp.float16)


class DivRounded(Op):
    """``div`` rounding its quotient: ``trunc(a / b)`` (integers: toward zero) or Python's
    ``a // b``, as torch's ``div_trunc`` and ``div_floor`` kernels; zero gradients."""

    node_name = "DivBackward2"
    saved_slots = ("a",)  # set always: torch saves the divisor (a number too)
    _profile_name = "aten::div"

    @staticmethod
    def forward(ctx: Any, a: Tensor, b: Tensor | Number, *, rounding_mode: str) -> Tensor:
        ctx.a, ctx.b = _meta(a), _meta(b)
        return wrap(_rounded_quotient(a, b, rounding_mode))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        zero = zero_grad(g, None)
        return (_reduce(zero, ctx.a) if ctx.needs_input_grad[0] else None,
                _reduce(zero, ctx.b) if ctx.b and ctx.needs_input_grad[1] else None)


@_call_form.overloads("Tensor input, Tensor exponent, *, Tensor out = None",
                      "Number self, Tensor exponent, *, Tensor out = None",
                      "Tensor input, Number exponent, *, Tensor out = None")
def pow(input: Any, exponent: Any) -> Tensor:
    """``input ** exponent`` for tensor/number in either position.

    >>> minitorch.pow(minitorch.tensor([2., 3.]), 2)
    tensor([4., 9.])
    """
    _tensor_operand("pow", input, exponent, "exponent")
    input, exponent = _args.numpy_scalar(input), _args.numpy_scalar(exponent)  # as the parser
    if not isinstance(input, Tensor):
        return PowScalarBase.apply(exponent, base=input)
    if isinstance(exponent, Tensor):
        return PowTensorExponent.apply(input, exponent)
    if type(exponent) is int and not _args.INT64_MIN <= exponent < 2 ** 64:
        raise _args.int_overflow(exponent)  # past what torch's parser reads, any dtype
    if isinstance(exponent, complex) and input.dtype.name == "float16":
        raise _args.not_implemented("pow", "ComplexHalf")  # (torch's kernel has none)
    return PowScalarExponent.apply(input, exponent=exponent)


CLAMP_SIGNATURES = {
    "clamp": ("Tensor input, Tensor min = None, Tensor max = None, *, Tensor out = None",
              "Tensor input, Number min = None, Number max = None, *, Tensor out = None"),
    "clamp_": ("Tensor min = None, Tensor max = None", "Number min = None, Number max = None")}


@_call_form.function
@_call_form.overloads(*CLAMP_SIGNATURES["clamp"])
@_args.tensors("clamp", input="input")
def clamp(input: Tensor, min: Any = None, max: Any = None) -> Tensor:
    """Limit values to ``[min, max]``; the gradient passes where the input is inside.

    >>> minitorch.clamp(minitorch.tensor([-1., 0.5, 2.]), 0, 1)
    tensor([0.0000, 0.5000, 1.0000])
    """
    min, max = clamp_bounds("clamp", min, max, input)
    min, max = _check_bounds(input, min, max)
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        return ClampTensor.apply(input, min, max)
    min, max = (b.real if isinstance(b, complex) else b for b in (min, max))
    return Clamp.apply(input, min=min, max=max)


def clamp_bounds(fn: str, low: Any, high: Any, input: Tensor | None = None) -> tuple:
    """clamp's bounds as torch's parser reads them: a tensor or a number each (a 0-d tensor
    next to a number is read as a number, unless it requires grad: the (Number min, Number
    max) overload), else no overload matches; then numbers past int64 overflow, right to
    left."""
    low, high = bounds_as_numbers(_args.numpy_scalar(low), _args.numpy_scalar(high))
    given = tuple(b for b in (low, high) if b is not None)
    if not all(isinstance(b, (Tensor, int, float, complex)) for b in given) or \
            len({isinstance(b, Tensor) for b in given}) > 1:
        raise _args.invalid_combination(fn, given if input is None else (input, *given),
                                        *CLAMP_SIGNATURES[fn])
    _args.parsed(fn, *(("number", _args.OMITTED if b is None or isinstance(b, Tensor) else b,
                        name, position)
                       for position, (name, b) in enumerate((("min", low), ("max", high)), 1)))
    return low, high


def bounds_as_numbers(low: Any, high: Any) -> tuple:
    """clamp's two bounds with a 0-d tensor that does not require grad, given next to a
    number, read as a number: torch's parser takes the (Number min, Number max) overload.

    >>> bounds_as_numbers(minitorch.tensor(2), 5), bounds_as_numbers(minitorch.tensor(2), None)
    ((2, 5), (tensor(2), None))
    """
    if low is None or high is None or isinstance(low, Tensor) == isinstance(high, Tensor):
        return low, high
    return tuple(b.item() if isinstance(b, Tensor) and not b.dim() and not b.requires_grad
                 else b for b in (low, high))


def clamp_result_type(input: Tensor, low: Any, high: Any) -> None:
    """torch's refusal of an in-place clamp of an integer or bool tensor by number bounds
    that promote it (a float or complex bound)."""
    bounds = [b for b in (low, high) if b is not None and not isinstance(b, Tensor)]
    if input.dtype.is_floating_point or not bounds:
        return
    kind = "ComplexFloat" if any(isinstance(b, complex) for b in bounds) else \
        _args.legacy(get_default_dtype()) if any(isinstance(b, float) for b in bounds) else None
    if kind is None:  # (an integer result: a uint64 bound's promotion refused first)
        _clamp_unsigned(input, low, high)
        kind = "Long" if input.dtype is bool_ and any(type(b) is int for b in bounds) else None
    if kind is not None:
        raise RuntimeError(f"result type {kind} can't be cast to the desired output type "
                           f"{_args.c_name(input.dtype)}")


def _clamp_unsigned(input: Tensor, low: Any, high: Any) -> None:
    """An int bound past int64 (read as uint64) of an integer or bool tensor, as torch's type
    promotion meets it: promoted with the other int or bool bound first, then with a bool
    tensor; an integer tensor keeps its dtype, which cannot hold the bound."""
    names = ["Bool" if type(b) is bool else "UInt64" if _is_uint64(b) else "Long"
             for b in (low, high) if type(b) in (bool, int)]
    if "UInt64" not in names:
        return
    if len(set(names)) == 2 or input.dtype is bool_:
        raise uint64_promotion(*(names if len(set(names)) == 2 else ["Bool", "UInt64"]))
    raise _args.conversion_overflow(input.dtype.c_scalar)


def _check_bounds(input: Tensor, low: Any, high: Any) -> tuple:
    """clamp's number bounds as torch's kernel checks them (after :func:`clamp_bounds`):
    complex values, then what the result's dtype can hold (a float bound makes the result
    floating, which holds an int one); they come back as that dtype holds them (-1 is 255 to
    a uint8 clamp, as torch's cast gives)."""
    shape = tuple(input.shape)
    for bound in (low, high):
        if isinstance(bound, Tensor):  # torch's error where the shapes do not broadcast,
            shape = broadcast_pair(shape, bound)  # the bounds' to each other's too
    bounds = [b for b in (low, high) if b is not None and not isinstance(b, Tensor)]
    floating = input.dtype.is_floating_point
    for bound in bounds:
        if isinstance(bound, complex):
            if not floating:
                raise NotImplementedError("clamp is not supported for complex types")
            _args.kernel_scalar(bound, float64)  # a floating clamp reads it as a double
    result_floating = floating or any(isinstance(b, float) for b in bounds)
    if not result_floating:  # (their promotion's refusal, before the kernel's conversions)
        _clamp_unsigned(input, low, high)
    for bound in bounds:
        if result_floating:
            _args.assigned(bound, input.dtype if floating else get_default_dtype(),
                           unsigned=True)
        elif type(bound) is int and input.dtype.itemsize < 8 and input.dtype is not bool_:
            _args.check_overflow(bound, input.dtype)
    if not result_floating and input.dtype.itemsize < 8 and input.dtype is not bool_:
        low, high = (wrapped(b, input.dtype) if type(b) is int else b for b in (low, high))
    if input.dtype is bool_ and bounds and all(isinstance(b, bool) for b in bounds):
        kernel = "clamp" if len(bounds) == 2 else "clamp_min" if low is not None else \
            "clamp_max"
        raise _args.not_implemented(f"{kernel}_scalar_cpu", "Bool")
    return low, high


def maximum(input: Tensor, other: Tensor) -> Tensor:
    """Element-wise maximum of two tensors.

    >>> minitorch.maximum(minitorch.tensor([1., 5.]), minitorch.tensor([3., 2.]))
    tensor([3., 5.])
    """
    _args.tensor_args("maximum", (input, "input", 1), (other, "other", 2))
    return Maximum.apply(input, other)


def minimum(input: Tensor, other: Tensor) -> Tensor:
    """Element-wise minimum of two tensors.

    >>> minitorch.minimum(minitorch.tensor([1., 5.]), minitorch.tensor([3., 2.]))
    tensor([1., 2.])
    """
    _args.tensor_args("minimum", (input, "input", 1), (other, "other", 2))
    return Minimum.apply(input, other)


class Round(Op):
    """round to even (``decimals`` places); its gradient is zero. ``RoundBackward1`` when
    ``decimals`` is given, as in torch."""

    node_name = "RoundBackward0"
    _profile_name = "aten::round"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, decimals: int = 0) -> Tensor:
        xp = a._xp
        if a.dtype.name == "bool":
            raise _args.not_implemented("round_vml_cpu", a.dtype)
        if not a.dtype.is_floating_point:  # round() refused it with decimals
            return wrap(xp.asarray(a._data, copy=True))
        if not decimals:
            return wrap(xp.round(a._data))
        return wrap(_rounded_places(xp, a._data, decimals))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (wrap(g._xp.zeros_like(g._data)),)


def _rounded_places(xp: Any, data: Any, decimals: int) -> Any:
    """torch's kernel: ``nearbyint(x * 10**d) / 10**d`` (``nearbyint(x / 10**-d) * 10**-d``
    for negative ``d``) in the op's math type (float32 for half), the power a double cast
    to it (inf past its range, so nan where it meets inf or 0)."""
    work = xp.float32 if data.dtype == xp.float16 else data.dtype
    x = xp.astype(data, work)
    with quiet():
        power = 10.0 ** abs(decimals) if abs(decimals) <= 308 else float("inf")
        scale = xp.asarray(power, dtype=work)
        out = xp.round(x / scale) * scale if decimals < 0 else xp.round(x * scale) / scale
    return xp.astype(out, data.dtype)


class RoundDecimals(Round):
    node_name = "RoundBackward1"


_ROUND_SIGNATURES = ("Tensor input, *, Tensor out = None",
                     "Tensor input, *, int decimals, Tensor out = None")


@_call_form.overloads(*_ROUND_SIGNATURES)
@_args.tensors("round", input="input")
def round(input: Tensor, *args: Any, decimals: Any = _args.OMITTED) -> Tensor:
    """Round half to even, to ``decimals`` places (a keyword, as in torch).

    >>> minitorch.round(minitorch.tensor([0.5, 1.5, 1.2345]), decimals=2)
    tensor([0.5000, 1.5000, 1.2300])
    """
    if args:
        given = (input, *args) + ((decimals,) if decimals is not _args.OMITTED else ())
        raise _args.invalid_combination(
            "round", given, *_ROUND_SIGNATURES,
            keywords={} if decimals is _args.OMITTED else {"decimals": decimals})
    if decimals is _args.OMITTED:
        return Round.apply(input)
    places = _args.integer("round", decimals, "decimals", None)
    if not input.dtype.is_floating_point:
        kernel = "round_cpu" if places else "round_vml_cpu"
        raise _args.not_implemented(kernel, input.dtype)
    # beyond 400 places 10**places is inf in float64 already (nan, as torch gives); numpy
    # would overflow its C int instead
    return RoundDecimals.apply(input, decimals=max(-400, min(400, places)))


@_call_form.overloads(*_ROUND_SIGNATURES)
def round_method(self: Tensor, *args: Any, decimals: Any = _args.OMITTED) -> Tensor:
    """``Tensor.round``: ``minitorch.round`` with torch's messages for a positional decimals
    and, the method's one signature that takes it, for a decimals that is no int.

    >>> minitorch.tensor([2.5, 3.5]).round()
    tensor([2., 4.])
    """
    if args:
        raise TypeError(f"round() takes from 1 to 0 positional arguments but {len(args)} "
                        "were given")
    if decimals is not _args.OMITTED:
        _args.integer("round", decimals, "decimals", None)
    return round(self, decimals=decimals)


def _floor_operands(kernel: str, a: Any, b: Any) -> tuple[Any, Any, Any, Any]:
    """``a`` and ``b`` cast for ``//`` or ``%`` (and their dtype) with torch's refusals: bool
    operands, and an integer division by zero (which numpy would answer with 0)."""
    _args.no_complex_kernel(kernel, a, b)
    check_broadcast(a, b)  # torch's iterator, before its kernel's dtype and divisor checks
    x, y, dt = cast_operands(a, b)
    if dt is bool_:
        raise _args.not_implemented(f"{kernel}_cpu", dt)
    xp = (a if isinstance(a, Tensor) else b)._xp
    if not dt.is_floating_point and 0 not in broadcast_shapes(
            getattr(x, "shape", ()), getattr(y, "shape", ())) and bool(xp.any(xp.asarray(y) == 0)):
        raise RuntimeError("ZeroDivisionError")  # of a divisor it reads: none of an empty result
    return xp, x, y, dt


def _modulo_array(kernel: str, a: Any, b: Any) -> Any:
    """The array of ``remainder(a, b)`` or ``fmod(a, b)`` (``kernel``)."""
    xp, x, y, _dt = _floor_operands(kernel, a, b)
    with quiet():
        out = getattr(xp, kernel)(x, y)
    if kernel == "remainder" and xp.isdtype(out.dtype, "real floating"):
        # torch's remainder is fmod moved by b where the signs differ, so a zero keeps
        # fmod's sign, the dividend's (numpy's takes the divisor's: -4. % 2. is 0.)
        out = xp.where(out == 0, xp.copysign(out, x), out)
    return out


class Remainder(Op):
    """``remainder`` (the sign of the divisor) and, below, ``fmod`` (the sign of the
    dividend): exact, with the gradient ``g`` for the dividend and ``-g`` times the rounded
    quotient (floored, truncated) for the divisor, as torch's."""

    node_name = "RemainderBackward1"
    _profile_name = "aten::remainder"
    kernel, rounding = "remainder", "floor"

    @classmethod
    def forward(cls, ctx: Any, a: Tensor, b: Tensor | Number) -> Tensor:
        if True in ctx.needs_input_grad:
            ctx.a, ctx.b = _meta(a), _meta(b)
            # torch saves the operands only for the divisor's gradient
            ctx.save_for_backward(*((a, b) if ctx.needs_input_grad[1] else (None, None)))
            ctx.scalar = None if ctx.b else b
        return wrap(_modulo_array(cls.kernel, a, b))

    @classmethod
    def backward(cls, ctx: Any, g: Tensor) -> tuple:
        a, b = ctx.saved_tensors
        ga = _reduce(g, ctx.a) if ctx.needs_input_grad[0] else None
        gb = (_reduce(-g * div(a, b, rounding_mode=cls.rounding), ctx.b)
              if ctx.needs_input_grad[1] else None)
        return ga, gb


class RemainderScalar(Remainder):
    node_name = "RemainderBackward0"  # torch's node when the divisor is a number


class _NoDerivative(Op):
    """An op torch records under its ``NotImplemented`` node, having no derivative: one edge
    per operand that requires grad (none for the others), and a backward that refuses.
    ``on(*operands, **options)`` runs it; a subclass gives its array,
    ``compute(*operands, **options)``."""

    node_name = "NotImplemented"
    refuses_tangents = True  # torch's forward AD refuses it too (set_ words it otherwise)

    @classmethod
    def on(cls, *operands: Any, **options: Any) -> Tensor:
        cls.check_no_tangents(operands)
        recorded = [t for t in operands if isinstance(t, Tensor) and t.requires_grad]
        return cls.apply(*recorded, operands=operands, options=options)

    @classmethod
    def check_no_tangents(cls, operands: tuple) -> None:
        """torch's refusal of an operand carrying a forward-AD tangent: the op has no
        derivative, forward or backward (its tangent would otherwise be silently dropped)."""
        if cls.refuses_tangents and forward_ad.levels and forward_ad.has_tangents(operands):
            raise NotImplementedError(
                f"Trying to use forward AD with {cls._profile_name} that does not support it.")

    @classmethod
    def forward(cls, ctx: Any, *recorded: Tensor, operands: tuple, options: dict) -> Tensor:
        return wrap(cls.compute(*operands, **options))

    @classmethod
    def backward(cls, ctx: Any, *grads: Any) -> tuple:
        raise RuntimeError(f"derivative for {cls._profile_name} is not implemented")


class WrittenWithoutDerivative(_NoDerivative):
    """The result of an op whose out= torch gives no derivative (a view copy's, torch's
    ``name``): computed by ``fn``, recorded under torch's ``NotImplemented`` node."""

    node_name = "NotImplemented"
    refuses_tangents = False

    @classmethod
    def forward(cls, ctx: Any, *recorded: Tensor, operands: tuple, options: dict) -> Tensor:
        ctx.op_name = options["name"]
        return super().forward(ctx, *recorded, operands=operands, options=options)

    @staticmethod
    def compute(*operands: Any, fn: Any, args: tuple, kwargs: dict, name: str) -> Any:
        with grad_mode._recording(False):
            return fn(*args, **kwargs)._data

    @classmethod
    def backward(cls, ctx: Any, *grads: Any) -> tuple:
        raise RuntimeError(f"derivative for aten::{ctx.op_name} is not implemented")


class SetNotImplemented(_NoDerivative):
    """``set_``'s record: torch has no derivative for it."""

    node_name = "NotImplemented"
    _profile_name = "aten::set_"
    refuses_tangents = False

    @staticmethod
    def compute(a: Any, b: Any = None) -> Any:
        return (a if b is None else b)._data

    @classmethod
    def backward(cls, ctx: Any, *grads: Any) -> tuple:
        raise RuntimeError("derivative for set_ is not implemented")


class RemainderNumber(_NoDerivative):
    """``remainder`` of a number by a tensor (torch's ``remainder.Scalar_Tensor``)."""

    node_name = "NotImplemented"
    _profile_name = "aten::remainder"

    @staticmethod
    def compute(a: Any, b: Any) -> Any:
        return _modulo_array("remainder", a, b)


class FloorDivide(_NoDerivative):
    """Python's ``//``: the quotient rounded down."""

    node_name = "NotImplemented"
    _profile_name = "aten::floor_divide"

    @staticmethod
    def compute(a: Any, b: Any) -> Any:
        return _rounded_quotient(a, b, "floor")


class FloorDivideInplace(FloorDivide):
    """``//=``: its refused derivative is named by the in-place op, as torch's."""

    node_name = "NotImplemented"
    _profile_name = "aten::floor_divide_"


class ConjPhysicalOut(_NoDerivative):
    """``conj_physical(x, out=o)`` of a real ``x`` that requires grad: the copy into ``o`` is
    recorded, as autograd's fallback records it (the op alone gives ``x`` itself back)."""

    node_name = "NotImplemented"
    _profile_name = "aten::conj_physical"

    @staticmethod
    def compute(a: Any) -> Any:
        return a._data


class Fmod(Remainder):
    node_name = "FmodBackward1"
    _profile_name = "aten::fmod"
    kernel, rounding = "fmod", "trunc"


class FmodScalar(Fmod):
    node_name = "FmodBackward0"


@_call_form.overloads("Tensor input, Tensor other, *, Tensor out = None",
                      "Number self, Tensor other",
                      "Tensor input, Number other, *, Tensor out = None")
def remainder(input: Any, other: Any) -> Tensor:
    """Python's ``%``: the remainder with the sign of the divisor.

    >>> minitorch.remainder(minitorch.tensor([5., -5.]), 3)
    tensor([2., 1.])
    """
    return _modulo("remainder", Remainder, RemainderScalar, input, other)


@_call_form.overloads("Tensor input, Tensor other, *, Tensor out = None",
                      "Tensor input, Number other, *, Tensor out = None")
def fmod(input: Any, other: Any) -> Tensor:
    """C's ``fmod``: the remainder with the sign of the dividend.

    >>> minitorch.fmod(minitorch.tensor([5., -5.]), 3)
    tensor([ 2., -2.])
    """
    return _modulo("fmod", Fmod, FmodScalar, input, other)


def _modulo(fn: str, op: Any, scalar_op: Any, input: Any, other: Any) -> Tensor:
    _tensor_operand(fn, input, other, "other")
    _args.tensor_or_number(fn, other, "other", 2)
    if not isinstance(input, Tensor) and fn == "fmod":  # no overload for a number dividend
        raise _args.invalid_combination(
            fn, (input, other), "Tensor input, Tensor other, *, Tensor out = None",
            "Tensor input, Number other, *, Tensor out = None")
    _args.no_complex_kernel(fn, input, other)
    if not isinstance(input, Tensor):
        return RemainderNumber.on(like_tensor(other, input), other)
    return (op if isinstance(other, Tensor) else scalar_op).apply(input, other)


@_call_form.overloads("Tensor input, Tensor other, *, Tensor out = None",
                      "Tensor input, Number other")
def floor_divide(input: Any, other: Any) -> Tensor:
    """Python's ``//``: the quotient rounded down (recorded under torch's ``NotImplemented``
    node: it has no derivative).

    >>> minitorch.floor_divide(minitorch.tensor([5., -5.]), 3)
    tensor([ 1., -2.])
    """
    input = _number_input("floor_divide", input, other)
    _args.tensor_or_number("floor_divide", other, "other", 2)
    return FloorDivide.on(input, other)


def _number_input(fn: str, input: Any, other: Any, alpha: Any = 1) -> Any:
    """``input`` of ``fn(input, other)``, each operand a tensor or a number (torch's parser
    reads a number as a tensor for these ops); with no tensor operand torch reads a number
    ``input`` as a 0-d tensor (``minitorch.sub(2.5, 2)`` is ``tensor(0.5000)``). The parser
    checks ``alpha``'s type with the others', and unpacks it before ``other`` (right to
    left)."""
    _args.tensor_or_number(fn, input, "input", 1)
    _args.tensor_or_number(fn, other, "other", 2)
    if not is_unit(alpha):
        _args.number_types(fn, (alpha, "alpha", None))
        _args.unpack_int(alpha)
    _args.unpack_int(other)  # the parser's, before any check of the op's
    if type(input) in (int, float) and isinstance(other, Tensor) and other.dtype is float16:
        return like_tensor(other, input)  # a number first is a float16 tensor (70000: inf)
    if isinstance(input, Tensor) or isinstance(other, Tensor):
        return input
    from .._creation import tensor as make

    return make(_args.numpy_scalar(input))


def _tensor_operand(fn: str, input: Any, other: Any, other_name: str,
                    number_out: bool = False) -> None:
    """``fn(input, other)`` with a number in both places, or something that is neither a
    tensor nor a number, matches none of torch's signatures (``remainder``, ``pow``; with
    ``number_out`` its number-first form takes ``out=`` too, as ``float_power``'s)."""
    operands = (input, other)
    if not any(isinstance(v, Tensor) for v in operands) or not all(
            isinstance(v, (Tensor, complex)) or _args.reads_as_double(v)
            for v in operands):
        out = ", *, Tensor out = None"
        raise _args.invalid_combination(
            fn, (input, other), f"Tensor input, Tensor {other_name}{out}",
            f"Number self, Tensor {other_name}{out if number_out else ''}",
            f"Tensor input, Number {other_name}{out}")


def like_tensor(tensor: Tensor, number: Any) -> Tensor:
    """A Python number as a 0-d tensor of torch's wrapped-number dtype next to ``tensor``."""
    from .._creation import tensor as make

    dt = result_type(tensor, number)
    if type(number) is int and _args.INT64_MIN <= number < 2 ** 64 and \
            not dt.is_floating_point and dt is not bool_:
        # torch's wrapped number (int64, or uint64 past it) cast unchecked: its low bits
        number = wrapped(number, dt)
    return make(number, dtype=dt)
