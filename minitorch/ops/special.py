"""Element-wise ops that tutorials reach for after the basic ones: ``log1p``, ``expm1``,
``rsqrt``, ``softplus``, ``lerp``, ``addcmul`` and ``addcdiv``.

Each rounds as torch's CPU kernel does where that is known (``lerp`` and ``addcmul`` with one
fused multiply-add, ``log1p``/``expm1`` near correctly rounded), and each backward is
torch's formula from ``derivatives.yaml``, in torch's order of the products.

>>> import minitorch
>>> x = minitorch.tensor([0., 1.], requires_grad=True)
>>> y = minitorch.lerp(x, minitorch.ones(2), 0.5)
>>> y
tensor([0.5000, 1.0000], grad_fn=<LerpBackward0>)
"""

from __future__ import annotations

from typing import Any

from .. import _args, _call_form
from .._creation import ones_like
from .._dtype import can_cast, result_type
from .._tensor import Tensor, broadcast_shapes, check_inplace_allowed, check_output_shape
from ..autograd import forward_ad
from ..backend import cpu_math, namespace, torch_layout
from . import _fused
from ._base import Op, check_same_device, like, wrap
from ._softmax_order import torch_exp
from .activation import _activation
from .pointwise import _meta, _reduce, _unary, check_broadcast, where

__all__ = ["Addcdiv", "Addcmul", "Expm1", "Lerp", "LerpTensor", "Log1p", "Rsqrt", "Softplus",
           "addcdiv", "addcmul", "lerp", "softplus", "torch_log1p"]

Number = int | float

def torch_log1p(xp: Any, a: Any) -> Any:
    """``log1p(a)`` as torch's CPU kernel (SLEEF's ``log1p``) takes it, as far as it is cheap:
    the backend's (:func:`cpu_math`; for float32 the float64 log1p rounded, 99.7% of SLEEF's
    bits, whose own steps cost a hundred times more), except that a subnormal float32 or
    float64 ``a`` gives SLEEF's ``2 * (a / 2)``: ``m / (2 + m)`` halves it, rounding to even
    (``log1p(1e-45)`` is 0).

    >>> import numpy as np
    >>> torch_log1p(np, np.float32([1e-45, 4.2e-45, 1.0]))
    array([0.000000e+00, 5.605194e-45, 6.931472e-01], dtype=float32)
    """
    out = cpu_math(xp.log1p, a)
    if a.dtype != xp.float32 and a.dtype != xp.float64:
        return out
    subnormal = xp.abs(a) < xp.finfo(a.dtype).smallest_normal
    if not bool(xp.any(subnormal)):
        return out
    return xp.where(subnormal, 2 * (a / 2), out)


Log1p = _unary("Log1p", "log1p", torch_log1p,
               lambda g, x: g / (x + 1), "self", arrays=True, node="Log1PBackward0")
Expm1 = _unary("Expm1", "expm1", lambda xp, a: cpu_math(xp.expm1, a),
               lambda g, r: g * (r + 1), "result", arrays=True)
# torch's rsqrt is 1 / sqrt(x), two roundings; its backward is -0.5 * g * result ** 3
Rsqrt = _unary("Rsqrt", "rsqrt", lambda xp, a: 1 / xp.sqrt(a),
               lambda g, r: -0.5 * g * (r * r * r), "result", arrays=True)


class Softplus(Op):
    """``log(1 + exp(beta * x)) / beta``, and ``x`` itself where ``beta * x > threshold``."""

    node_name = "SoftplusBackward0"
    saved_names = ("self",)
    _profile_name = "aten::softplus"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, beta: Number, threshold: Number) -> Tensor:
        ctx.save_for_backward(a)
        ctx._saved_beta, ctx._saved_threshold = beta, threshold
        xp, x = a._xp, a._data
        scaled = x * beta
        smooth = cpu_math(xp.log1p, torch_exp(xp, scaled)) / beta
        return wrap(xp.where(scaled > threshold, x, xp.astype(smooth, x.dtype)))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (a,) = ctx.saved_tensors
        scaled = a * ctx._saved_beta
        z = scaled.exp()
        return (where(scaled > ctx._saved_threshold, g, g * z / (z + 1)),)

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> Any:
        """torch's ``softplus_backward`` kernel, with its exps (:func:`torch_exp`)."""
        (a,) = ctx.saved_tensors
        if not like(g, a._data):
            return NotImplemented
        xp = namespace(g)
        scaled = a._data * ctx._saved_beta
        z = torch_exp(xp, xp.where(scaled > ctx._saved_threshold,
                                   xp.zeros((), dtype=scaled.dtype), scaled))
        return (xp.where(scaled > ctx._saved_threshold, g, g * z / (z + 1)),)


@_call_form.function
def softplus(input: Tensor, beta: Number = 1.0, threshold: Number = 20.0) -> Tensor:
    """A smooth ReLU: ``log(1 + exp(beta * x)) / beta`` (linear above ``threshold``).

    >>> minitorch.nn.functional.softplus(minitorch.tensor([0., 30.]))
    tensor([ 0.6931, 30.0000])
    """
    return _activation("softplus", Softplus, input,
                       numbers={"beta": beta, "threshold": threshold})


def _arrays(dt: Any, *values: Any) -> list:
    """The arrays (or numbers) of ``values`` in the array dtype of ``dt``."""
    xp = next(v for v in values if isinstance(v, Tensor))._xp
    target = getattr(xp, dt.name)
    return [xp.astype(v._data, target) if isinstance(v, Tensor) else v for v in values]


class Lerp(Op):
    """``lerp(start, end, weight)`` with a number weight (LerpBackward0)."""

    node_name = "LerpBackward0"
    _profile_name = "aten::lerp"

    @staticmethod
    def forward(ctx: Any, start: Tensor, end: Tensor, *, weight: Number) -> Tensor:
        ctx.a, ctx.b, ctx._saved_weight = _meta(start), _meta(end), weight
        x, y = _arrays(result_type(start, end), start, end)
        return wrap(torch_layout(_fused.lerp(start._xp, x, y, weight),
                                 start._data, end._data))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        w = ctx._saved_weight
        return _reduce(g * (1 - w), ctx.a), _reduce(g * w, ctx.b)


class LerpTensor(Op):
    """``lerp(start, end, weight)`` with a tensor weight (LerpBackward1)."""

    node_name = "LerpBackward1"
    saved_names = ("end", "self", "weight")
    _profile_name = "aten::lerp"

    @staticmethod
    def forward(ctx: Any, start: Tensor, end: Tensor, weight: Tensor) -> Tensor:
        need = ctx.needs_input_grad  # each saved only for a gradient that reads it, as torch
        ctx.save_for_backward(end if need[2] else None, start if need[2] else None,
                              weight if need[0] or need[1] else None)
        ctx.metas = _meta(start), _meta(end), _meta(weight)
        x, y, w = _arrays(result_type(start, end, weight), start, end, weight)
        return wrap(torch_layout(_fused.lerp(start._xp, x, y, w),
                                 start._data, end._data, weight._data))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        end, start, weight = ctx.saved_tensors
        need, (m_start, m_end, m_weight) = ctx.needs_input_grad, ctx.metas
        return (_reduce(g * (ones_like(weight) - weight), m_start) if need[0] else None,
                _reduce(g * weight, m_end) if need[1] else None,  # (torch's C++ ``1 - weight``
                _reduce(g * (end - start), m_weight) if need[2] else None)  # reads 1 in its
        # dtype)


@_call_form.overloads("Tensor input, Tensor end, Tensor weight, *, Tensor out = None",
                      "Tensor input, Tensor end, Number weight, *, Tensor out = None")
def lerp(input: Tensor, end: Tensor, weight: Tensor | Number) -> Tensor:
    """``input + weight * (end - input)``.

    >>> minitorch.lerp(minitorch.zeros(2), minitorch.ones(2), minitorch.tensor([0.25, 1.]))
    tensor([0.2500, 1.0000])
    """
    if not isinstance(end, Tensor):  # no signature matches, before the weight is read
        _lerp_parsed(input, end, weight)
    weight = _args.numpy_scalar(weight)
    common = _lerp_type(input, end, weight)
    if not common.is_floating_point:
        kernel = "tensor" if isinstance(weight, Tensor) else "scalar"
        raise _args.not_implemented(f"lerp_kernel_{kernel}", common)
    if isinstance(weight, Tensor):
        return LerpTensor.apply(input, end, weight)
    return Lerp.apply(input, end, weight=_args.kernel_scalar(weight, input.dtype, opmath=True))


@_call_form.overloads(*lerp.torch_signatures)
def lerp_(self: Tensor, end: Tensor, weight: Tensor | Number) -> Tensor:
    """In-place :func:`lerp`: the type a 0-d weight promotes to must cast back to
    ``self``'s, which torch checks before its kernel's dtype.

    >>> minitorch.zeros(2).lerp_(minitorch.ones(2), minitorch.tensor(0.25))
    tensor([0.2500, 0.2500])
    """
    if not isinstance(end, Tensor):  # no signature matches, before the weight is read
        _lerp_parsed(self, end, weight)
    weight = _args.numpy_scalar(weight)
    _lerp_parsed(self, end, weight)
    check_inplace_allowed(self, overlap=False)  # autograd's check, before the kernel's
    _lerp_dtypes(self, end, weight)
    check_inplace_allowed(self, *(t for t in (end, weight) if isinstance(t, Tensor)))
    common = _lerp_type(self, end, weight)  # (the overlap is refused before the broadcast)
    shapes = [t.shape for t in (self, end, weight) if isinstance(t, Tensor)]
    check_output_shape(tuple(self.shape), broadcast_shapes(*shapes))
    if not can_cast(common, self.dtype):
        raise _args.cast_error(common, self.dtype)
    return self._inplace(lerp, end, weight)


def _lerp_parsed(input: Any, end: Any, weight: Any) -> None:
    """torch's parser on lerp's arguments."""
    if not isinstance(input, Tensor) or not isinstance(end, Tensor) or \
            not isinstance(weight, (Tensor, int, float, complex)):
        raise _args.invalid_combination(
            "lerp", (input, end, weight),
            "Tensor input, Tensor end, Tensor weight, *, Tensor out = None",
            "Tensor input, Tensor end, Number weight, *, Tensor out = None")
    _args.unpack_int(weight)


def _lerp_type(input: Any, end: Any, weight: Any) -> Any:
    """lerp's arguments checked as torch does, and the type its kernel computes in: ``end``
    (and a weight tensor of some dims) of ``input``'s dtype; a 0-d weight tensor promotes
    with them as an operand of lower rank."""
    _lerp_parsed(input, end, weight)
    _lerp_dtypes(input, end, weight)
    check_broadcast(input, end, weight)
    promoted = isinstance(weight, Tensor) and not weight.dim()
    return result_type(input, end, weight) if promoted else input.dtype


def _lerp_dtypes(input: Tensor, end: Tensor, weight: Any) -> None:
    """torch's check that ``end`` (and a weight tensor of some dims) has ``input``'s dtype
    and device."""
    promoted = isinstance(weight, Tensor) and not weight.dim()
    for name, other in (("end", end), ("weight", None if promoted else weight)):
        if isinstance(other, Tensor) and other.dtype is not input.dtype:
            want, got = (_args.c_name(t.dtype) for t in (input, other))
            raise RuntimeError(f"expected dtype {want} for `{name}` but got dtype {got}")
    check_same_device(input, end)


class _Addc(Op):
    """``input + value * tensor1 ∘ tensor2``; each subclass names its kernel in ``_fused``."""

    saved_names = ("tensor1", "tensor2")

    @classmethod
    def forward(cls, ctx: Any, a: Tensor, t1: Tensor, t2: Tensor, *, value: Number) -> Tensor:
        need = ctx.needs_input_grad  # each saved only for a gradient that reads it, as torch
        ctx.save_for_backward(t1 if need[2] else None,
                              t2 if need[1] or cls.saves_tensor2 else None)
        ctx.metas, ctx._saved_value = (_meta(a), _meta(t1), _meta(t2)), value
        x, y, z = _arrays(result_type(a, t1, t2), a, t1, t2)
        return wrap(torch_layout(cls.combine(a._xp, x, y, z, value),
                                 a._data, t1._data, t2._data))


class Addcmul(_Addc):
    """``input + value * tensor1 * tensor2``, one fused multiply-add as torch's kernel."""

    node_name = "AddcmulBackward0"
    _profile_name = "aten::addcmul"
    saves_tensor2 = False  # (for tensor1's gradient only)

    combine = staticmethod(_fused.addcmul)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        t1, t2 = ctx.saved_tensors
        value, (ma, m1, m2), need = ctx._saved_value, ctx.metas, ctx.needs_input_grad
        return (_reduce(g, ma),
                _reduce(g * (t2 * value), m1) if need[1] else None,
                _reduce(g * (t1 * value), m2) if need[2] else None)


class Addcdiv(_Addc):
    """``input + value * tensor1 / tensor2``."""

    node_name = "AddcdivBackward0"
    _profile_name = "aten::addcdiv"
    saves_tensor2 = True  # (torch's node keeps it whatever gradients are wanted)

    combine = staticmethod(_fused.addcdiv)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        t1, t2 = ctx.saved_tensors
        value, (ma, m1, m2), need = ctx._saved_value, ctx.metas, ctx.needs_input_grad
        if need[1] and not t2.dtype.is_floating_point and not forward_ad.deriving_tangent():
            # torch's backward formula's value / tensor2 is
            raise RuntimeError(  # empty_like(tensor2).fill_(value).div_(tensor2)
                "result type Float can't be cast to the desired output type "
                f"{_args.legacy(t2.dtype)}")
        return (_reduce(g, ma),
                _reduce(g * (value / t2), m1) if need[1] else None,
                _reduce(-g * (value * t1 / (t2 * t2)), m2) if need[2] else None)


def _addc(op: type[Op], fn: str, input: Tensor, tensor1: Tensor, tensor2: Tensor,
          value: Number) -> Tensor:
    _args.tensor_args(fn, (input, "input", 1), (tensor1, "tensor1", 2), (tensor2, "tensor2", 3))
    (value,) = _args.numbers(fn, (value, "value", None))
    if fn == "addcdiv" and not tensor1.dtype.is_floating_point and \
            not tensor2.dtype.is_floating_point:
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future  release "
            "addcdiv will perform a true division of tensor1 and tensor2. The historic "
            "addcdiv behavior can be implemented as (input + value * torch.trunc(tensor1 / "
            "tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / "
            "tensor2) for float inputs. The future addcdiv behavior is just the latter "
            "implementation: (input + value * tensor1 / tensor2), for all dtypes.")
    check_same_device(input, tensor1, tensor2)
    check_broadcast(input, tensor1, tensor2)
    dt = result_type(input, tensor1, tensor2)
    if dt.name == "bool":
        raise _args.not_implemented(f"{fn}_cpu_out", dt)
    value = _args.kernel_scalar(value, dt, opmath=True)
    if not dt.is_floating_point:  # torch's kernel reads value in the integer dtype
        value = int(value)
    return op.apply(input, tensor1, tensor2, value=value)


# torch's one signature it lists (its deprecated ones hidden), whose count of arguments
# decides how it words an unknown keyword
_ADDC_SIGNATURE = ("Tensor input, Tensor tensor1, Tensor tensor2, *, Number value = 1, "
                   "Tensor out = None")


@_call_form.overloads(_ADDC_SIGNATURE, hidden=True)
def addcmul(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Number = 1) -> Tensor:
    """``input + value * tensor1 * tensor2``.

    >>> minitorch.addcmul(minitorch.ones(2), minitorch.tensor([1., 2.]), minitorch.ones(2),
    ...                   value=0.5)
    tensor([1.5000, 2.0000])
    """
    return _addc(Addcmul, "addcmul", input, tensor1, tensor2, value)


@_call_form.overloads(_ADDC_SIGNATURE, hidden=True)
def addcdiv(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Number = 1) -> Tensor:
    """``input + value * tensor1 / tensor2``.

    >>> minitorch.addcdiv(minitorch.zeros(2), minitorch.ones(2), minitorch.tensor([2., 4.]))
    tensor([0.5000, 0.2500])
    """
    return _addc(Addcdiv, "addcdiv", input, tensor1, tensor2, value)
