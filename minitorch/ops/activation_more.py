"""More activations: ``selu``, ``celu``, ``mish``, ``hardswish``, ``hardsigmoid``,
``threshold``, ``glu``, ``prelu``, ``softsign`` and ``tanhshrink``, with torch's nodes
(``softsign`` and ``tanhshrink`` are compositions in torch too, so their nodes are
``DivBackward0`` and ``SubBackward0``). Gradients are written in Tensor operations: they
differentiate again.

>>> import minitorch
>>> import minitorch.nn.functional as F
>>> F.selu(minitorch.tensor([-1., 1.], requires_grad=True))
tensor([-1.1113,  1.0507], grad_fn=<EluBackward0>)
"""

from __future__ import annotations

import struct
from typing import Any

from .. import _args, _call_form
from .._dtype import float64
from .._tensor import Tensor, check_inplace_allowed
from ..backend import cpu_math, zero_where
from ._base import Op, wrap
from .activation import (
    _ELU_RESULT,
    _IN_PLACE,
    _Activation,
    _activation,
    _check_kernel_dtype,
    _PiecewiseLinearBackward,
    vector_nan,
)
from .pointwise import _NoDerivative, sum_to, where

__all__ = ["Celu", "CeluInplace", "Glu", "Hardsigmoid", "HardsigmoidBackward", "Hardswish",
           "Mish", "Prelu", "Selu", "SeluInplace", "Threshold", "ThresholdBackward",
           "ThresholdInplace", "celu", "glu", "hardsigmoid", "hardswish", "mish", "prelu", "selu",
           "softsign", "tanhshrink", "threshold"]

_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def _negative_part(x: Tensor) -> Tensor:
    """``x`` where not positive (NaN kept), else 0: what an exp may see without
    overflowing."""
    return where((x < 0) | x.isnan(), x, 0.0)


class Selu(_Activation):
    node_name = "EluBackward0"  # torch's selu is elu with a scale
    _profile_name = "aten::elu"

    @staticmethod
    def compute(xp: Any, x: Any) -> Any:
        return xp.where(x > 0, x * _SELU_SCALE,
                        cpu_math(xp.expm1, x) * (_SELU_ALPHA * _SELU_SCALE))

    @staticmethod
    def gradient(g: Tensor, x: Tensor) -> Tensor:
        # (torch's elu_backward takes the negative branch where x <= 0, and for NaN in its
        # vectorised body)
        return where((x <= 0) | vector_nan(x),
                     g * (_SELU_ALPHA * _SELU_SCALE) * _negative_part(x).exp(), g * _SELU_SCALE)


class Celu(_Activation):
    node_name = "CeluBackward0"
    _profile_name = "aten::celu"

    @staticmethod
    def compute(xp: Any, x: Any, alpha: float) -> Any:
        return xp.where(x > 0, x, cpu_math(xp.expm1, x * (1 / alpha)) * alpha)

    @staticmethod
    def gradient(g: Tensor, x: Tensor, alpha: float) -> Tensor:
        # torch's CeluBackward0 takes 1/alpha from alpha rounded to float32
        input_scale = 1.0 / struct.unpack("f", struct.pack("f", alpha))[0]
        return where((x <= 0) | vector_nan(x),
                     g * input_scale * alpha * (_negative_part(x) * input_scale).exp(), g)


class Mish(_Activation):
    node_name = "MishBackward0"
    _profile_name = "aten::mish"

    @staticmethod
    def compute(xp: Any, x: Any) -> Any:
        softplus = xp.where(x > 20, x, cpu_math(xp.log1p, cpu_math(xp.exp, x)))
        return x * cpu_math(xp.tanh, softplus)

    @staticmethod
    def gradient(g: Tensor, x: Tensor) -> Tensor:
        t = where(x > 20, x, x.exp().log1p()).tanh()
        return g * (t + x * x.sigmoid() * (1 - t * t))


class Hardswish(_Activation):
    node_name = "HardswishBackward0"
    _profile_name = "aten::hardswish"

    @staticmethod
    def compute(xp: Any, x: Any) -> Any:
        return x * xp.clip(x + 3, 0, 6) / 6

    @staticmethod
    def gradient(g: Tensor, x: Tensor) -> Tensor:
        # torch's kernel: 0 up to -3, g·(x/3 + 1/2) strictly inside (-3, 3), g from 3 on;
        # NaN is inside in its vectorised body, past 3 in its scalar tail
        return where(x <= -3, 0.0, where((x < 3) | vector_nan(x), g * (x / 3 + 0.5), g))


class Hardsigmoid(_Activation):
    node_name = "HardsigmoidBackward0"  # in place too: torch has no HardsigmoidBackward1
    _profile_name = "aten::hardsigmoid"

    @staticmethod
    def compute(xp: Any, x: Any) -> Any:
        return xp.clip(x + 3, 0, 6) / 6

    @staticmethod
    def gradient(g: Tensor, x: Tensor) -> Tensor:
        return HardsigmoidBackward.on(g, x)

    @staticmethod
    def tangent_formula(x: Tensor, t: Tensor, result: Tensor, dual: bool) -> Tensor:
        """Forward AD: torch's ``hardsigmoid_backward(self_t, self_p)`` (the backward has no
        derivative of its own, so the tangent is not a double backward's)."""
        return HardsigmoidBackward.on(t, x)


_ONE_SIXTH = struct.unpack("f", struct.pack("f", 1 / 6))[0]  # torch's 1.0f / 6.0f, any dtype


class HardsigmoidBackward(_NoDerivative):
    """torch's kernel: ``g * (1/6)`` strictly inside (-3, 3), else 0; torch has no derivative
    of it."""

    node_name = "NotImplemented"
    _profile_name = "aten::hardsigmoid_backward"

    @staticmethod
    def compute(g: Tensor, x: Tensor) -> Any:
        x = x._data
        return zero_where(g._xp, g._data * _ONE_SIXTH, ~((x > -3) & (x < 3)))


class Threshold(_Activation):
    node_name = "ThresholdBackward0"
    _profile_name = "aten::threshold"

    @staticmethod
    def compute(xp: Any, x: Any, threshold: float, value: float) -> Any:
        return xp.where(x <= threshold, xp.asarray(value, dtype=x.dtype), x)

    @staticmethod
    def gradient(g: Tensor, x: Tensor, threshold: float, value: float) -> Tensor:
        return ThresholdBackward.apply(g, x, threshold=threshold, value=value)


class ThresholdBackward(_PiecewiseLinearBackward):
    node_name = "ThresholdBackwardBackward0"
    _profile_name = "aten::threshold_backward"

    @staticmethod
    def kernel(xp: Any, g: Any, x: Any, threshold: float, value: float) -> Any:
        return zero_where(xp, g, x <= threshold)


class SeluInplace(Selu):
    node_name = "EluBackward1"  # torch's selu_ is elu_ with a scale


class CeluInplace(Celu):
    node_name = "CeluBackward1"
    result_slope = ("alpha", _ELU_RESULT)  # torch's celu_ is an elu_


class ThresholdInplace(Threshold):
    node_name = "ThresholdBackward1"


_IN_PLACE.update({Selu: SeluInplace, Celu: CeluInplace, Threshold: ThresholdInplace})


def _elu_kernel(input: Any) -> None:
    """torch's selu and celu run elu's kernel, which names itself when it refuses a dtype."""
    if isinstance(input, Tensor):
        _check_kernel_dtype("elu", input)


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    """``scale * elu(x, alpha)`` with the self-normalising constants.

    >>> F.selu(minitorch.tensor([0., 1.]))
    tensor([0.0000, 1.0507])
    """
    _elu_kernel(input)
    return _activation("selu", Selu, input, inplace)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """``x`` where positive, else ``alpha * (exp(x / alpha) - 1)``.

    >>> F.celu(minitorch.tensor([-1., 1.]), alpha=2.)
    tensor([-0.7869,  1.0000])
    """
    name = "celu_" if inplace else "celu"  # torch's parser first, then its 1 / alpha
    _args.tensor_args(name, (input, "input", 1))
    _args.numbers(name, (alpha, "alpha", 2))
    if inplace:  # autograd's checks of celu_ come before its kernel's 1 / alpha
        check_inplace_allowed(input)
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    if isinstance(alpha, complex):  # torch's celu reads alpha as a double for 1 / alpha
        _args.kernel_scalar(alpha, float64)
    _elu_kernel(input)
    return _activation("celu", Celu, input, inplace, numbers={"alpha": alpha})


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    """``x * tanh(softplus(x))``.

    >>> F.mish(minitorch.tensor([0., 1.]))
    tensor([0.0000, 0.8651])
    """
    return _activation("mish", Mish, input, inplace)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    """``x * relu6(x + 3) / 6``.

    >>> F.hardswish(minitorch.tensor([-1., 1.]))
    tensor([-0.3333,  0.6667])
    """
    return _activation("hardswish", Hardswish, input, inplace)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    """``relu6(x + 3) / 6``: 0 up to -3, 1 from 3 on, linear between.

    >>> F.hardsigmoid(minitorch.tensor([-3., 0., 1.5]))
    tensor([0.0000, 0.5000, 0.7500])
    """
    return _activation("hardsigmoid", Hardsigmoid, input, inplace)


@_call_form.python_dispatch(lambda args, kwargs: "_threshold")  # torch's Python function
def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    """``x`` where above ``threshold``, else ``value``.

    >>> F.threshold(minitorch.tensor([0.5, 2.]), 1., -1.)
    tensor([-1.,  2.])
    """
    return _activation("threshold", Threshold, input, inplace,
                       numbers={"threshold": threshold, "value": value})


def softsign(input: Tensor) -> Tensor:
    """``x / (1 + |x|)``.

    >>> F.softsign(minitorch.tensor([-1., 3.]))
    tensor([-0.5000,  0.7500])
    """
    _args.python_attribute(input, "abs")  # torch's is Python: input / (input.abs() + 1)
    return input / (input.abs() + 1)


def tanhshrink(input: Tensor) -> Tensor:
    """``x - tanh(x)``.

    >>> F.tanhshrink(minitorch.tensor([0., 1.]))
    tensor([0.0000, 0.2384])
    """
    _args.python_attribute(input, "tanh")  # torch's is Python: input - input.tanh()
    return input - input.tanh()


class Glu(Op):
    """``a * sigmoid(b)``, ``a`` and ``b`` the two halves of the input along ``dim``."""

    node_name = "GluBackward0"
    _profile_name = "aten::glu"

    @staticmethod
    def forward(ctx: Any, x: Tensor, *, dim: int) -> Tensor:
        ctx.save_for_backward(x)
        ctx.dim = dim
        a, b = x.detach().chunk(2, dim)
        return wrap((a * b.sigmoid())._data)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        a, b = x.chunk(2, ctx.dim)
        s = b.sigmoid()
        return (_cat((g * s, g * a * s * (1 - s)), ctx.dim),)


def _cat(parts: tuple, dim: int) -> Tensor:
    from .shape import cat

    return cat(list(parts), dim)


def glu(input: Tensor, dim: int = -1) -> Tensor:
    """The gated linear unit: ``a * sigmoid(b)`` for the halves ``a``, ``b`` along ``dim``.

    >>> F.glu(minitorch.tensor([1., 0.]))
    tensor([0.5000])
    """
    if input.dim() == 0:  # (torch's Python asks first: what is no tensor has no dim())
        raise RuntimeError("glu does not support scalars because halving size must be even")
    _args.tensor_args("glu", (input, "input", 1))
    d = _args.dim("glu", dim, input.dim(), position=2)
    if input.shape[d] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {d} is size "
                           f"{input.shape[d]}")
    _args.floating_kernel("glu_cpu", input.dtype)
    return Glu.apply(input, dim=d)


class Prelu(Op):
    """``x`` where positive, else ``weight * x``, one weight per channel (dim 1) or one in
    all."""

    node_name = "PreluKernelBackward0"
    _profile_name = "aten::_prelu_kernel"

    @staticmethod
    def forward(ctx: Any, x: Tensor, w: Tensor) -> Tensor:
        ctx.save_for_backward(x, w)
        xp, a = x._xp, x._data
        return wrap(xp.where(a > 0, a, _spread(w, x)._data * a))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, w = ctx.saved_tensors
        ws = _spread(w, x)
        grad_x = where(x > 0, g, ws * g) if ctx.needs_input_grad[0] else None
        grad_w = None
        if ctx.needs_input_grad[1]:
            grad_w = sum_to(where(x > 0, 0.0, x * g), ws.shape).reshape(w.shape)
        return grad_x, grad_w


def _spread(w: Tensor, x: Tensor) -> Tensor:
    """``w`` shaped to broadcast over ``x``: along dim 1, or everywhere if it has one value."""
    if w.numel() == 1 or x.dim() < 2:
        return w.reshape(())
    return w.reshape((1, w.numel()) + (1,) * (x.dim() - 2))


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """``x`` where positive, else ``weight * x`` (``weight``: one per channel, or one).

    >>> F.prelu(minitorch.tensor([-2., 3.]), minitorch.tensor([0.25]))
    tensor([-0.5000,  3.0000])
    """
    _args.tensor_args("prelu", (input, "input", 1), (weight, "weight", 2))
    if input.dtype != weight.dtype:  # torch's kernel promotes neither
        raise RuntimeError(f"prelu: Type promoting not supported. Got "
                           f"{_args.legacy(input.dtype)} and {_args.legacy(weight.dtype)}")
    channels = input.shape[1] if input.dim() >= 2 else 1
    if weight.numel() != 1:  # torch checks the input against several weights first
        if not input.dim():
            raise RuntimeError("Not allow zero-dim input tensor.")
        if weight.numel() != channels:
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found "
                               f"parameter numbers = {weight.numel()} and channel size = "
                               f"{channels}.")
    if weight.dim() > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                           f"ndim = {weight.dim()}")
    if not input.dtype.is_floating_point:
        raise _args.not_implemented("prelu_cpu", input.dtype)
    return Prelu.apply(input, weight)
