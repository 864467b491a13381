"""The activations after ReLU: ``elu``, ``leaky_relu``, ``hardtanh`` (and ``relu6``),
``silu`` and ``gelu``, each with torch's node and torch's backward formula.

float32 ``gelu`` of a contiguous tensor of two or more elements, and its backward, are
oneDNN's kernels bit for bit, as in torch (:mod:`minitorch._onednn`). Of a strided or
one-element float32 tensor, ``gelu`` differs from torch in the last bits, and by up to about
1e-3 relative far out in its negative tail (x < -3): torch's own vectorised float32 erf is
Abramowitz and Stegun's 7.1.26 approximation, this one is nearly correctly rounded.

>>> import minitorch
>>> import minitorch.nn.functional as F
>>> x = minitorch.tensor([-1., 2.], requires_grad=True)
>>> F.leaky_relu(x, 0.1)
tensor([-0.1000,  2.0000], grad_fn=<LeakyReluBackward0>)
"""

from __future__ import annotations

import math
from typing import Any

from .. import _args, _onednn
from .._dtype import int64
from .._tensor import Tensor
from ..backend import c_order, cpu_math, half_via_float, namespace, zero_where
from . import _fused
from ._base import Op, kept, like, wrap
from ._softmax_order import (
    nan_in_body,
    torch_exp,
    torch_log_sigmoid,
    torch_sigmoid,
    torch_silu,
    vector_body,
)
from .pointwise import clamped, where, zero_grad
from .unary_more import erf_array

__all__ = ["Elu", "EluInplace", "Gelu", "Hardtanh", "LeakyRelu", "LeakyReluInplace",
           "LogSigmoid", "LogSigmoidBackward", "Silu", "elu", "gelu", "hardtanh", "hardtanh_",
           "leaky_relu", "logsigmoid", "relu6", "silu"]

_SQRT1_2 = 1 / math.sqrt(2)
# gelu's tanh form: β is torch's M_SQRT2 * M_2_SQRTPI * 0.5 (one ulp below √2·2/√π·0.5)
_BETA, _KAPPA = math.sqrt(2) * (2 / math.sqrt(math.pi)) * 0.5, 0.044715


class _Activation(Op):
    """One floating input saved for backward; ``compute(ctx, xp, x)`` makes the output, of
    float16 in float32 (torch's opmath) unless ``exact`` (a clamp rounds nothing, and its
    bounds are float16 numbers first in torch's kernel)."""

    exact = False

    @classmethod
    def forward(cls, ctx: Any, a: Tensor, **options: Any) -> Tensor:
        ctx.save_for_backward(a)
        ctx.options = options
        if cls.exact:
            return wrap(cls.compute(a._xp, a._data, **options))
        return wrap(half_via_float(lambda xp, x: cls.compute(xp, x, **options), a._xp, a._data))

    @classmethod
    def backward(cls, ctx: Any, g: Tensor) -> tuple:
        refuse_negative_slope(cls, ctx)
        (a,) = ctx.saved_tensors
        return (cls.gradient(g, a, **ctx.options),)


_ELU_RESULT = ("In-place elu backward calculation is triggered with a negative slope which is "
               "not supported. This is caused by calling in-place forward function with a "
               "negative slope, please call out-of-place version instead.")
_LEAKY_RESULT = ("In-place leakyReLu backward calculation is triggered with a negative slope "
                 "which is not supported. This is caused by calling in-place forward function "
                 "with a negative slope, please call out-of-place version instead. File an "
                 "issue at https://github.com/pytorch/pytorch if you do require supporting "
                 "in-place leakRelu backward calculation with negative slope")


def refuse_negative_slope(cls: Any, ctx: Any) -> None:
    """torch's refusal to differentiate an in-place elu, celu or leaky_relu with a negative
    slope: its backward reads the result, which a negative slope makes ambiguous."""
    slope = getattr(cls, "result_slope", None)  # (option, message) of an in-place op's node
    if slope is not None and ctx.options[slope[0]] < 0:
        raise RuntimeError(slope[1])


class _PiecewiseLinearBackward(Op):
    """The backward of a piecewise-linear activation as one op, as torch records it
    (``LeakyReluBackwardBackward0``, ...): ``kernel(xp, g, x, **options)`` on arrays.
    Differentiated again it is itself for ``grad_output`` and zero for the input, so its
    result requires grad wherever the input does, as torch's.

    >>> x = minitorch.tensor([-1., 2.], requires_grad=True)
    >>> g, = minitorch.autograd.grad(F.leaky_relu(x).sum(), x, create_graph=True); g
    tensor([0.0100, 1.0000], grad_fn=<LeakyReluBackwardBackward0>)
    """

    saved_names = ("self",)

    @classmethod
    def forward(cls, ctx: Any, g: Tensor, x: Tensor, **options: Any) -> Tensor:
        ctx.save_for_backward(x)
        ctx.options = options
        return wrap(cls.kernel(namespace(g._data), g._data, x._data, **options))

    @classmethod
    def backward(cls, ctx: Any, gg: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        return (cls.apply(gg, x, **ctx.options) if ctx.needs_input_grad[0] else None,
                zero_grad(gg, x) if ctx.needs_input_grad[1] else None)


class LeakyReluBackward(_PiecewiseLinearBackward):
    node_name = "LeakyReluBackwardBackward0"
    _profile_name = "aten::leaky_relu_backward"

    @staticmethod
    def kernel(xp: Any, g: Any, x: Any, negative_slope: float) -> Any:
        return xp.where(x > 0, g, g * negative_slope)


class HardtanhBackward(_PiecewiseLinearBackward):
    node_name = "HardtanhBackwardBackward0"
    _profile_name = "aten::hardtanh_backward"

    @staticmethod
    def kernel(xp: Any, g: Any, x: Any, min_val: float, max_val: float) -> Any:
        # NaN passes the gradient in torch's scalar tail, not in its vectorised body
        inside = ((x > min_val) & (x < max_val)) | (xp.isnan(x) & ~vector_body(xp, x))
        return zero_where(xp, g, ~inside)


class Elu(_Activation):
    node_name = "EluBackward0"
    _profile_name = "aten::elu"

    @staticmethod
    def compute(xp: Any, x: Any, alpha: float) -> Any:
        # a zero (-0.0 too) is itself, as torch's kernel, whatever alpha's sign
        return xp.where(x >= 0, x, cpu_math(xp.expm1, x) * alpha)

    @staticmethod
    def gradient(g: Tensor, x: Tensor, alpha: float) -> Tensor:
        # torch's second derivative is zero at x = 0: exp sees x only where x < 0
        negative = (x <= 0) | vector_nan(x)  # (NaN: positive in torch's scalar tail)
        return where(negative, g * alpha * where((x < 0) | x.isnan(), x, 0.0).exp(), g)

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> Any:
        """torch's ``elu_backward`` kernel: ``g * alpha * exp(x)`` where ``x <= 0``, with the
        exps of torch's vectorised loop (:func:`torch_exp`)."""
        (x,) = ctx.saved_tensors
        if not like(g, x._data):
            return NotImplemented
        xp, x = namespace(g), x._data
        negative = x <= 0
        e = torch_exp(xp, xp.where(negative, x, xp.zeros((), dtype=x.dtype)))
        return (_nan_in_body(xp, x, xp.where(negative, g * ctx.options["alpha"] * e, g)),)


class LeakyRelu(_Activation):
    node_name = "LeakyReluBackward0"
    saved_values = {"negative_slope": kept("options", lambda o: o["negative_slope"])}
    _profile_name = "aten::leaky_relu"

    @staticmethod
    def compute(xp: Any, x: Any, negative_slope: float) -> Any:
        return xp.where(x > 0, x, x * negative_slope)

    @staticmethod
    def gradient(g: Tensor, x: Tensor, negative_slope: float) -> Tensor:
        return LeakyReluBackward.apply(g, x, negative_slope=negative_slope)


class Hardtanh(_Activation):
    node_name = "HardtanhBackward0"
    _profile_name = "aten::hardtanh"
    exact = True

    @staticmethod
    def compute(xp: Any, x: Any, min_val: float, max_val: float) -> Any:
        return clamped(xp, x, xp.asarray(min_val, dtype=x.dtype),
                       xp.asarray(max_val, dtype=x.dtype))

    @staticmethod
    def gradient(g: Tensor, x: Tensor, min_val: float, max_val: float) -> Tensor:
        return HardtanhBackward.apply(g, x, min_val=min_val, max_val=max_val)


class Silu(_Activation):
    node_name = "SiluBackward0"
    _profile_name = "aten::silu"

    @staticmethod
    def compute(xp: Any, x: Any) -> Any:
        return torch_silu(xp, x)

    @staticmethod
    def gradient(g: Tensor, x: Tensor) -> Tensor:
        """torch's formula when a graph of the backward is made (create_graph=True)."""
        s = x.sigmoid()
        return g * s * (1 + x * (1 - s))

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> Any:
        """torch's ``silu_backward`` kernel: ``g * s * (1 + x * (1 - s))``, ``s`` its sigmoid
        and the ``1 + x * ...`` one fused multiply-add (float32 and float64)."""
        (x,) = ctx.saved_tensors
        if not like(g, x._data):
            return NotImplemented
        xp, x = namespace(g), x._data
        s = torch_sigmoid(xp, x)
        return (g * s * _fused.multiply_add(xp, x, 1 - s, 1),)


class Gelu(_Activation):
    """``x·Φ(x)`` with the normal CDF Φ from erf, or torch's tanh approximation (whose
    kernels fuse its multiply-adds: :func:`_gelu_tanh_inner`, :meth:`backward_arrays`).
    Where torch hands the erf form to oneDNN (:func:`_uses_onednn`), oneDNN's kernels."""

    node_name = "GeluBackward0"
    saved_values = {"approximate": kept("options", lambda o: o["approximate"])}
    _profile_name = "aten::gelu"

    @classmethod
    def forward(cls, ctx: Any, a: Tensor, **options: Any) -> Tensor:
        if not _uses_onednn(a, options["approximate"]):
            return super().forward(ctx, a, **options)
        ctx.save_for_backward(a)
        ctx.options = options
        return wrap(_onednn.gelu_erf(a._data))

    @staticmethod
    def compute(xp: Any, x: Any, approximate: str) -> Any:
        if approximate == "tanh":
            return x * 0.5 * (1 + cpu_math(xp.tanh, _gelu_tanh_inner(xp, x)))
        return x * 0.5 * (1 + erf_array(xp, x * _SQRT1_2))

    @staticmethod
    def gradient(g: Tensor, x: Tensor, approximate: str) -> Tensor:
        """The derivative in tensor ops, for a graph of the backward (create_graph=True)."""
        if approximate == "tanh":
            x_sq = x * x
            t = (_BETA * (x + _KAPPA * (x_sq * x))).tanh()
            left_derivative = 0.5 * (1 + t)
            right_derivative = (1 - t * t) * (_BETA * (1 + 3 * _KAPPA * x_sq))
            return g * (left_derivative + 0.5 * x * right_derivative)
        cdf = 0.5 * (1 + (x * _SQRT1_2).erf())
        pdf = (-0.5 * (x * x)).exp() * (2 / math.sqrt(math.pi) * _SQRT1_2 * 0.5)
        return g * (cdf + x * pdf)

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> Any:
        """torch's ``gelu_backward`` kernel: oneDNN's where the forward was, for the tanh
        approximation ATen's, its multiply-adds fused (``1 - t*t``, ``1 + 3κ·x²`` and the
        inner ``x + κ·x³``); the erf form's others on tensors."""
        (x,) = ctx.saved_tensors
        if not like(g, x._data):
            return NotImplemented
        if _uses_onednn(x, ctx.options["approximate"]):
            return (_onednn.gelu_erf_backward(x._data, g),)
        if ctx.options["approximate"] != "tanh":
            return NotImplemented
        xp, x = namespace(g), x._data
        t = cpu_math(xp.tanh, _gelu_tanh_inner(xp, x))
        three_kappa = xp.asarray(3, dtype=x.dtype) * xp.asarray(_KAPPA, dtype=x.dtype)
        inner_derivative = _BETA * _fused.multiply_add(xp, x * x, three_kappa, 1)
        right_derivative = 0.5 * x * _fused.one_minus_square(xp, t) * inner_derivative
        return (g * (0.5 * (1 + t) + right_derivative),)


def _uses_onednn(x: Tensor, approximate: str) -> bool:
    """torch's ``use_mkldnn`` for gelu: the erf form of a contiguous float32 CPU tensor of more
    than one element goes to oneDNN (its backward too, whatever the gradient's layout)."""
    data = x._data
    return approximate == "none" and _onednn.takes(data) and x.is_contiguous()


def _gelu_tanh_inner(xp: Any, x: Any) -> Any:
    """``β·(x + κ·x³)``, the ``x + κ·x³`` one fused multiply-add as in torch's kernels."""
    return _BETA * _fused.multiply_add(xp, x * x * x, _KAPPA, x)


def _nan_in_body(xp: Any, x: Any, grad: Any) -> Any:
    """elu's gradient ``grad`` with NaN where ``x`` is NaN in torch's vectorised body (its
    negative side, computed there), not in its scalar tail (its positive side)."""
    return xp.where(nan_in_body(xp, x), x, grad)


def vector_nan(x: Tensor) -> Tensor:
    """:func:`nan_in_body` of a tensor, as a bool tensor (for the gradients' tensor
    formulas, differentiated again).

    >>> vector_nan(minitorch.full((17,), float("nan"))).sum()
    tensor(16)
    """
    return wrap(nan_in_body(x._xp, x._data))


class EluInplace(Elu):
    node_name = "EluBackward1"  # torch's elu_ computes its gradient from the result
    result_slope = ("alpha", _ELU_RESULT)

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> Any:
        """torch's ``elu_backward`` from the result ``r`` (what ``elu_`` keeps):
        ``g * (r + alpha)`` where ``r <= 0``, else ``g``; ``r`` computed again, bit for bit."""
        refuse_negative_slope(EluInplace, ctx)
        (x,) = ctx.saved_tensors
        if not like(g, x._data):
            return NotImplemented
        xp, alpha = namespace(g), ctx.options["alpha"]
        r = Elu.compute(xp, x._data, alpha)
        return (_nan_in_body(xp, r, xp.where(r <= 0, g * (r + alpha), g)),)


class LeakyReluInplace(LeakyRelu):
    node_name = "LeakyReluBackward1"
    result_slope = ("negative_slope", _LEAKY_RESULT)


class LogSigmoid(Op):
    """``log(sigmoid(x))``; like torch's kernel it keeps ``exp(-|x|)`` (its buffer) for the
    backward."""

    node_name = "LogSigmoidBackward0"
    saved_names = ("self", "buffer")
    _profile_name = "aten::log_sigmoid"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Tensor:
        out, buffer = torch_log_sigmoid(x._xp, x._data)
        ctx.save_for_backward(x, wrap(buffer))
        return wrap(c_order(out))  # torch's kernel writes a contiguous result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, buffer = ctx.saved_tensors
        return (LogSigmoidBackward.apply(g, x, buffer),)


def _log_sigmoid_backward(xp: Any, g: Any, x: Any, buffer: Any) -> Any:
    """torch's kernel: ``g * (1 - q)`` where ``x < 0``, else ``g * q``, ``q = b / (1 + b)``."""
    q = buffer / (1 + buffer)
    return xp.where(x < 0, 1 - q, q) * g


class LogSigmoidBackward(Op):
    """log_sigmoid's backward as one op, as in torch; differentiated again by torch's
    formulas (log_sigmoid_double_backward for ``x``)."""

    node_name = "LogSigmoidBackwardBackward0"
    saved_names = ("grad_output", "self", "buffer")
    _profile_name = "aten::log_sigmoid_backward"

    @staticmethod
    def forward(ctx: Any, g: Tensor, x: Tensor, buffer: Tensor) -> Tensor:
        ctx.save_for_backward(g, x, buffer)
        return wrap(_log_sigmoid_backward(g._xp, g._data, x._data, buffer._data))

    @staticmethod
    def backward(ctx: Any, gg: Tensor) -> tuple:
        g, x, buffer = ctx.saved_tensors
        z = x.sigmoid()
        return (LogSigmoidBackward.apply(gg, x, buffer) if ctx.needs_input_grad[0] else None,
                gg * g * (z - 1) * z if ctx.needs_input_grad[1] else None, None)


_IN_PLACE = {Elu: EluInplace, LeakyRelu: LeakyReluInplace}


def _activation(fn: str, op: Any, input: Any, inplace: bool = False, *,
                numbers: dict | None = None, **options: Any) -> Tensor:
    """``op`` on ``input`` (in place when asked), its arguments checked as torch's parser of
    ``fn`` (``fn_`` in place) does: a tensor, then the Number ``numbers`` from position 2;
    an input of a dtype the kernel has no loop for is refused as torch refuses it, and the
    numbers are read in the input's dtype as its kernel reads them."""
    name = f"{fn}_" if inplace else fn
    _args.tensor_args(name, (input, "input", 1))
    numbers = numbers or {}
    values = _args.numbers(name, *((value, key, position) for position, (key, value)
                                   in enumerate(numbers.items(), 2)))

    def kernel(a: Tensor, op: Any = op) -> Tensor:  # (in place: after autograd's checks and
        _check_kernel_dtype(fn, input)  # TensorIterator's of overlap)
        bounds = _integer_bounds(values, input.dtype) if fn == "hardtanh" and \
            not input.dtype.is_floating_point else values
        return op.apply(a, **options, **{key: _kernel_number(fn, key, value, input.dtype)
                                          for key, value in zip(numbers, bounds)})

    if inplace:  # (threshold's kernel does not check that its elements do not overlap)
        return input._inplace(lambda a: kernel(a, _IN_PLACE.get(op, op)),
                              fills=fn == "threshold")
    return kernel(input)


def _integer_bounds(bounds: tuple, dt: Any) -> tuple:
    """hardtanh's bounds for an integer input, as torch reads them: int64 first (a float
    truncated), none negative for uint8."""
    bounds = tuple(int(_args.kernel_scalar(value, int64)) for value in bounds)
    if dt.name == "uint8" and min(bounds) < 0:
        raise RuntimeError("cannot do hardtanh on an unsigned type with negative limits")
    return bounds


def _kernel_number(fn: str, key: str, value: Any, dt: Any) -> Any:
    """A Number argument of ``fn`` as its kernel reads it: in float32 for a float16 input
    (threshold's ``value`` and hardtanh's bounds in float16 itself)."""
    opmath = fn != "hardtanh" and key != "value"
    return _args.kernel_scalar(value, dt, opmath)


def _check_kernel_dtype(fn: str, input: Tensor) -> None:
    """torch's refusal of a dtype its CPU kernel for ``fn`` lacks: hardtanh (relu6) and
    threshold run on integers but not bools, the others on floating dtypes only."""
    if fn == "threshold":
        if input.dtype.name == "bool":
            raise _args.not_implemented("threshold_cpu", input.dtype)
    elif fn in ("hardtanh", "relu6"):
        if input.dtype.name == "bool":
            raise RuntimeError("Bool inputs not supported for hardtanh")
    elif not input.dtype.is_floating_point:
        kernel = "GeluKernelImpl" if fn == "gelu" else f"{fn}_cpu"
        raise _args.not_implemented(kernel, input.dtype)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """``x`` where positive, else ``alpha * (exp(x) - 1)``.

    >>> F.elu(minitorch.tensor([-1., 1.]))
    tensor([-0.6321,  1.0000])
    """
    return _activation("elu", Elu, input, inplace, numbers={"alpha": alpha})


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """``x`` where positive, else ``negative_slope * x``.

    >>> F.leaky_relu(minitorch.tensor([-10., 1.]))
    tensor([-0.1000,  1.0000])
    """
    return _activation("leaky_relu", LeakyRelu, input, inplace,
                       numbers={"negative_slope": negative_slope})


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0,
             inplace: bool = False) -> Tensor:
    """``x`` clamped to ``[min_val, max_val]``; the gradient is zero outside (and at) them.

    >>> F.hardtanh(minitorch.tensor([-2., 0.5, 2.]))
    tensor([-1.0000,  0.5000,  1.0000])
    """
    if _args.python_op(min_val, ">", max_val):  # torch's Python check, before its parser's
        raise ValueError("min_val cannot be greater than max_val")
    return _activation("hardtanh", Hardtanh, input, inplace,
                       numbers={"min_val": min_val, "max_val": max_val})


def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    """:func:`hardtanh` in place, torch's C++ form: bounds in either order (everything ends
    at ``max_val`` where they cross).

    >>> F.hardtanh_(minitorch.tensor([-2., 0.5]), 1., -1.)
    tensor([-1., -1.])
    """
    return _activation("hardtanh", Hardtanh, input, True,
                       numbers={"min_val": min_val, "max_val": max_val})


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    """``hardtanh(x, 0, 6)``.

    >>> F.relu6(minitorch.tensor([-1., 7.]))
    tensor([0., 6.])
    """
    return _activation("relu6", Hardtanh, input, inplace, min_val=0.0, max_val=6.0)


def logsigmoid(input: Tensor) -> Tensor:
    """``log(sigmoid(x))``, computed without overflow.

    >>> F.logsigmoid(minitorch.tensor([0., -100.]))
    tensor([  -0.6931, -100.0000])
    """
    return _activation("log_sigmoid", LogSigmoid, input)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """``x * sigmoid(x)`` (also called swish).

    >>> F.silu(minitorch.tensor([0., 1.]))
    tensor([0.0000, 0.7311])
    """
    return _activation("silu", Silu, input, inplace)


def gelu(input: Tensor, *, approximate: str = "none") -> Tensor:
    """``x * Φ(x)``, Φ the standard normal CDF (``approximate="tanh"``: torch's tanh form).

    >>> F.gelu(minitorch.tensor([-1., 1.]))
    tensor([-0.1587,  0.8413])
    """
    _args.tensor_args("gelu", (input, "input", 1))
    _args.string("gelu", approximate, "approximate")
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return _activation("gelu", Gelu, input, approximate=approximate)
