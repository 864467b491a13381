"""Normalising: ``layer_norm`` (each sample over its last dims, as in transformers),
``group_norm`` (each sample's groups of channels) and ``normalize`` (vectors scaled to unit
p-norm).

``layer_norm``'s backward recomputes the statistics from the saved input in Tensor
operations, as ``batch_norm``'s does, so gradients of gradients are right too.

>>> import minitorch
>>> import minitorch.nn.functional as F
>>> F.layer_norm(minitorch.tensor([[1., 3.]], requires_grad=True), (2,))
tensor([[-1.0000,  1.0000]], grad_fn=<NativeLayerNormBackward0>)
"""

from __future__ import annotations

import math
from typing import Any

from .. import _args, _call_form
from .._dtype import finfo, result_type
from .._tensor import Tensor, broadcast_pair
from .._warn_once import warn_once
from ..backend import c_order, namespace
from . import _group_norm_order as group_norm_order
from . import _layer_norm_order as ln_order
from ._base import Op, kept, like, wrap
from .pointwise import Clamp, ClampTensor, clamp_result_type

__all__ = ["ClampMax", "ClampMaxTensor", "ClampMin", "ClampMinTensor", "NativeGroupNorm",
           "NativeLayerNorm", "clamp_max", "clamp_max_", "clamp_min", "clamp_min_", "group_norm",
           "layer_norm", "normalize", "rms_norm"]


def mixed_mode(x: Tensor, *params: Tensor | None) -> bool:
    """Whether a normalization of ``x`` runs in torch's mixed mode (checked by
    :func:`check_mixed_dtype`): a half input with float32 parameters, computed in float32.

    >>> mixed_mode(minitorch.ones(2, dtype=minitorch.float16), None, minitorch.ones(2))
    True
    """
    return x.dtype.name == "float16" and any(p is not None and p.dtype.name == "float32"
                                             for p in params)


def opmath_array(mixed: bool, data: Any) -> Any:
    """``data`` as a mixed-mode kernel reads it: in float32 (else as it is)."""
    return namespace(data).astype(data, namespace(data).float32) if mixed else data


def opmath_tensors(mixed: bool, *tensors: Tensor) -> tuple[Tensor, ...]:
    """The tensors a mixed-mode backward reads (saved input, incoming gradient) in float32,
    so that it computes as torch's does and rounds once at the end."""
    return tuple(t.float() for t in tensors) if mixed else tensors


def _opmath(xp: Any, data: Any) -> Any:
    """The dtype torch's normalization kernels scale and shift in: float32 for a half input
    (rounded once at the end, float32 parameters taken as they are), else the input's."""
    return xp.float32 if str(data.dtype) == "float16" else data.dtype


class NativeLayerNorm(Op):
    node_name = "NativeLayerNormBackward0"
    saved_names = ("input", "weight")
    _profile_name = "aten::native_layer_norm"

    @staticmethod
    def forward(ctx: Any, x: Tensor, weight: Tensor | None, bias: Tensor | None, *,
                k: int, eps: float) -> Tensor:
        xp = x._xp
        ctx.dims, ctx.eps = tuple(range(x.dim() - k, x.dim())), eps
        ctx.count = 1
        for d in ctx.dims:
            ctx.count *= x.shape[d]
        ctx.save_for_backward(x, weight)
        ctx.mixed = mixed_mode(x, weight, bias)
        data = x._data
        arrays = (opmath_array(ctx.mixed, data),
                  *(None if t is None else t._data for t in (weight, bias)))
        ctx.kernel_stats = None
        if data.size and ln_order.applies(*arrays):
            out, *ctx.kernel_stats = ln_order.forward(*arrays, k, eps)
            # torch's kernel writes a contiguous result
            return wrap(c_order(xp.astype(out, data.dtype, copy=False)))
        wide = xp.astype(data, xp.float64)  # the statistics in double, rounded once
        mean = xp.mean(wide, axis=ctx.dims, keepdims=True)
        rstd = 1 / xp.sqrt(xp.mean((wide - mean) ** 2, axis=ctx.dims, keepdims=True) + eps)
        out = xp.astype((wide - mean) * rstd, _opmath(xp, data))
        if weight is not None:
            out = out * weight._data
        if bias is not None:
            out = out + bias._data
        return wrap(c_order(xp.astype(out, data.dtype)))

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> Any:
        """torch's kernel (:mod:`._layer_norm_order`) where the forward ran it."""
        x, weight = ctx.saved_tensors
        _check_mixed_bias_only(ctx, weight, "expected scalar type Half but found Float")
        if ctx.kernel_stats is None or not like(g, x._data):
            return NotImplemented
        mean, rstd = ctx.kernel_stats
        grads = ln_order.backward(opmath_array(ctx.mixed, g), opmath_array(ctx.mixed, x._data),
                                  mean, rstd, None if weight is None else weight._data,
                                  len(ctx.dims), ctx.needs_input_grad, ctx.mixed)
        return (None if grads[0] is None else grads[0].astype(g.dtype, copy=False), *grads[1:])

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, weight = ctx.saved_tensors
        _check_mixed_bias_only(ctx, weight, "expected scalar type Half but found Float")
        dims, dtype = ctx.dims, g.dtype
        x, g = opmath_tensors(ctx.mixed, x, g)
        centred = x - x.mean(dims, keepdim=True)
        rstd = ((centred * centred).mean(dims, keepdim=True) + ctx.eps) ** -0.5
        xhat = centred * rstd
        need_x, need_w, need_b = ctx.needs_input_grad
        batch = tuple(range(x.dim() - len(dims)))
        grad_x = None
        if need_x:
            gw = g if weight is None else g * weight
            grad_x = _through_normalisation(gw, xhat, rstd, dims).to(dtype)
        grad_w = (g * xhat).sum(batch) if need_w and batch else g * xhat if need_w else None
        grad_b = g.sum(batch) if need_b and batch else g if need_b else None
        return grad_x, grad_w, grad_b


_NO_DEVICE = "tensor does not have a device"  # group norm's: an undefined weight read


def _check_mixed_bias_only(ctx: Any, weight: Tensor | None, message: str) -> None:
    """torch's backward kernels that read the weight given a bias alone fail: layer norm's
    mixed-mode one (its parameters' dtype taken from the weight), and group norm's, in any
    dtype, where the bias needs a gradient."""
    if weight is None and (ctx.needs_input_grad[2] if message == _NO_DEVICE else ctx.mixed):
        raise RuntimeError(message)


def _through_normalisation(g: Tensor, xhat: Tensor, rstd: Tensor, dims: tuple) -> Tensor:
    """The gradient through ``xhat = (x - mean) * rstd`` (statistics over ``dims``) of the
    gradient ``g`` of ``xhat``."""
    return rstd * (g - g.mean(dims, keepdim=True) - xhat * (g * xhat).mean(dims, keepdim=True))


class NativeGroupNorm(Op):
    """Each sample's channels in ``group`` groups, each group normalised over its channels
    and spatial positions, then a per-channel scale and shift; the backward is layer norm's
    over a group, written in ops so it can be differentiated again."""

    node_name = "NativeGroupNormBackward0"
    saved_names = ("input", "weight")
    saved_values = {name: kept(name) for name in ("N", "C", "HxW", "group", "eps")}
    _profile_name = "aten::native_group_norm"

    @staticmethod
    def forward(ctx: Any, x: Tensor, weight: Tensor | None, bias: Tensor | None, *,
                group: int, eps: float) -> Tensor:
        xp, data = x._xp, x._data
        n, c = data.shape[:2]
        ctx.group, ctx.eps = group, eps
        ctx.N, ctx.C, ctx.HxW = n, c, math.prod(data.shape[2:])
        ctx.save_for_backward(x, weight)
        ctx.mixed = mixed_mode(x, weight, bias)
        arrays = (data, *(p._data for p in (weight, bias) if p is not None))
        ctx.kernel = bool(data.size) and ln_order.applies(*arrays)
        if ctx.kernel:  # torch's CPU kernel, bit for bit
            return wrap(group_norm_order.forward(
                data, None if weight is None else weight._data,
                None if bias is None else bias._data, group, eps))
        wide = xp.reshape(xp.astype(data, xp.float64), (n, group, c // group * ctx.HxW))
        mean = xp.mean(wide, axis=-1, keepdims=True) if wide.shape[-1] else wide
        var = xp.mean((wide - mean) ** 2, axis=-1, keepdims=True) if wide.shape[-1] else wide
        out = xp.reshape(xp.astype((wide - mean) / xp.sqrt(var + eps), _opmath(xp, data)),
                         data.shape)
        channel = (c,) + (1,) * (data.ndim - 2)
        if weight is not None:
            out = out * xp.reshape(weight._data, channel)
        if bias is not None:
            out = out + xp.reshape(bias._data, channel)
        return wrap(c_order(xp.astype(out, data.dtype)))

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> Any:
        """torch's float32 kernel (:mod:`._group_norm_order`) where the forward ran it."""
        x, weight = ctx.saved_tensors
        _check_mixed_bias_only(ctx, weight, _NO_DEVICE)
        if not ctx.kernel or x.dtype.name != "float32" or not like(g, x._data):
            return NotImplemented
        return group_norm_order.backward(g, x._data, None if weight is None else weight._data,
                                         ctx.group, ctx.eps, ctx.needs_input_grad)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, weight = ctx.saved_tensors
        _check_mixed_bias_only(ctx, weight, _NO_DEVICE)
        dtype = g.dtype
        x, g = opmath_tensors(ctx.mixed, x, g)
        shape, channel = tuple(x.shape), (ctx.C,) + (1,) * (x.dim() - 2)
        grouped = x.reshape(ctx.N, ctx.group, ctx.C // ctx.group * ctx.HxW)
        centred = grouped - grouped.mean(-1, keepdim=True)
        rstd = ((centred * centred).mean(-1, keepdim=True) + ctx.eps) ** -0.5
        xhat = (centred * rstd).reshape(shape)
        need_x, need_w, need_b = ctx.needs_input_grad
        others = (0, *range(2, x.dim()))
        grad_x = None
        if need_x:
            gw = (g if weight is None else g * weight.reshape(channel)).reshape(grouped.shape)
            xg = xhat.reshape(grouped.shape)
            grad_x = _through_normalisation(gw, xg, rstd, (-1,)).reshape(shape).to(dtype)
        grad_w = (g * xhat).sum(others) if need_w else None
        grad_b = g.sum(others) if need_b else None
        return grad_x, grad_w, grad_b


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-5,
               cudnn_enabled: bool = True) -> Tensor:
    """``torch.group_norm``: the channels (dim 1) of each sample in ``num_groups`` groups,
    each normalised to mean 0 and variance 1, then scaled by ``weight`` and shifted by
    ``bias`` per channel (``cudnn_enabled`` has no effect on the CPU).

    >>> minitorch.group_norm(minitorch.tensor([[1., 3., 0., 4.]]), 2)
    tensor([[-1.0000,  1.0000, -1.0000,  1.0000]])
    """
    _args.tensor_args("group_norm", (input, "input", 1))
    num_groups = _args.integer("group_norm", num_groups, "num_groups", 2)
    _args.tensor_args("group_norm", *((p, name, i) for p, name, i in
                                      ((weight, "weight", 3), (bias, "bias", 4)) if p is not None))
    eps = _args.real("group_norm", eps, "eps", 5)
    _args.flag("group_norm", cudnn_enabled, "cudnn_enabled", 6)
    channels = input.shape[1] if input.dim() > 1 else 1
    if num_groups <= 0:
        raise RuntimeError(f"Expected num groups to be greater than 0, got {num_groups}")
    if channels % num_groups:
        raise RuntimeError("Expected number of channels in input to be divisible by "
                           f"num_groups, but got input of shape {list(input.shape)} and "
                           f"num_groups={num_groups}")
    for name, param in (("weight", weight), ("bias", bias)):
        if param is not None and (param.dim() != 1 or param.numel() != channels):
            shown = [0] if weight is None else list(weight.shape)  # torch's (weight's) shape
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number "
                               f"of channels in input, but got {name} of shape {shown} and "
                               f"input of shape {list(input.shape)}")
    mixed = check_mixed_dtype(input, weight, bias)
    if not input.dtype.is_floating_point:
        raise _args.not_implemented("GroupNormKernelImpl", input.dtype)
    if bias is not None and not mixed:  # the kernel reads it as the input's type
        _args.scalar_type(input.dtype, bias.dtype)
    return NativeGroupNorm.apply(input, weight, bias, group=num_groups, eps=eps)


def _check_layer_norm(input: Tensor, shape: tuple, weight: Any, bias: Any) -> None:
    """torch's checks in its order: the parameters' dtype against the input's, then the
    last dims of ``input`` are ``shape`` and so are the parameters', then a floating kernel."""
    mixed = check_mixed_dtype(input, weight, bias)
    _check_normalized(input, shape, {"weight": weight, "bias": bias}, "*, ",
                      "LayerNormKernelImpl")
    if bias is not None and not mixed:
        _args.scalar_type(input.dtype, bias.dtype)


def check_mixed_dtype(input: Tensor, *params: Any) -> bool:
    """torch's mixed-dtype check, when the first parameter given has not the input's dtype:
    then all must be float32 (else "expect ... Float"), and the input half (its mixed mode,
    whether this returns True; else all must share one dtype).

    >>> check_mixed_dtype(minitorch.ones(2, dtype=minitorch.float16), minitorch.ones(2))
    True
    """
    given = [p.dtype for p in params if p is not None]
    if not given or given[0] is input.dtype:
        return False
    if any(d.name != "float32" for d in given):
        raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
    if input.dtype.name != "float16":
        raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
    return True


def layer_norm(input: Tensor, normalized_shape: Any, weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    """Each sample normalised over its last ``len(normalized_shape)`` dims to mean 0 and
    variance 1, then scaled by ``weight`` and shifted by ``bias``.

    >>> F.layer_norm(minitorch.tensor([[1., 2., 3.]]), [3]).shape
    torch.Size([1, 3])
    """
    _args.tensor_args("layer_norm", (input, "input", 1))  # the parser's order: by position
    shape = _args.int_tuple("layer_norm", normalized_shape, "normalized_shape", 2)
    _args.tensor_args("layer_norm", *((p, name, i) for p, name, i in
                                      ((weight, "weight", 3), (bias, "bias", 4)) if p is not None))
    eps = _args.real("layer_norm", eps, "eps", 5)
    _check_layer_norm(input, shape, weight, bias)
    return NativeLayerNorm.apply(input, weight, bias, k=len(shape), eps=eps)


def rms_norm(input: Tensor, normalized_shape: Any, weight: Tensor | None = None,
             eps: float | None = None) -> Tensor:
    """Each sample divided by its root mean square over the last ``len(normalized_shape)``
    dims (plus ``eps``, by default the machine epsilon of the computation), then scaled by
    ``weight``: torch's composite on the CPU, so the graph is its MulBackward0 chain.

    >>> F.rms_norm(minitorch.tensor([[3., 4.]]), (2,))
    tensor([[0.8485, 1.1314]])
    """
    _args.tensor_args("rms_norm", (input, "input", 1))
    shape = _args.int_tuple("rms_norm", normalized_shape, "normalized_shape", 2)
    if weight is not None:
        _args.tensor_args("rms_norm", (weight, "weight", 3))
    if eps is not None:
        eps = _args.real("rms_norm", eps, "eps", 4)
    _check_normalized(input, shape, {"weight": weight}, "*", "rms_norm")
    upcast = input.float() if input.dtype.itemsize < 4 else input  # torch's opmath type
    eps = finfo(upcast.dtype).eps if eps is None else eps
    dims = tuple(range(-len(shape), 0))
    result = upcast.mul(upcast.pow(2).mean(dims, keepdim=True).add(eps).rsqrt())
    if weight is not None:  # scaled in the computation's dtype, then cast back, as torch's
        result = result.mul(weight)
    return result.contiguous().type_as(input)  # torch's composite ends in contiguous()


def _check_normalized(input: Tensor, shape: tuple, params: dict, star: str,
                      kernel: str) -> None:
    """The checks layer_norm and rms_norm share: the parameters' shapes are ``shape``, so
    are the input's last dims (torch writes the batch ``star``), then a floating kernel;
    first of all, ``shape`` names a dim."""
    if not shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., "
                           "containing at least one element, but got normalized_shape = []")
    for name, param in params.items():
        if param is not None and tuple(param.shape) != shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but "
                               f"got {name} of shape {list(param.shape)} and normalized_shape "
                               f"= {list(shape)}")
    if kernel == "rms_norm" and input.dim() < len(shape):  # its composite's own check
        raise ValueError(f"Input tensor must have at least {len(shape)} dimensions, but got "
                         f"{input.dim()}")
    if input.dim() < len(shape) or tuple(input.shape[input.dim() - len(shape):]) != shape:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape "
                           f"[{star}{', '.join(map(str, shape))}], but got input of size"
                           f"{list(input.shape)}")
    weight = params.get("weight")
    if kernel == "rms_norm" and weight is not None and weight.dtype != input.dtype:
        warn_once(f"Mismatch dtype between input and weight: input dtype = "
                  f"{input.dtype.c_type}, weight dtype = {weight.dtype.c_type}, Cannot dispatch "
                  f"to fused implementation.", stacklevel=None, key="rms_norm dtypes")
    if not input.dtype.is_floating_point:
        raise _args.not_implemented(kernel, input.dtype)


class ClampMin(Clamp):
    node_name = "ClampMinBackward0"
    saved_values = {"min": Clamp.saved_values["min"]}  # (torch's node has no max)
    _profile_name = "aten::clamp_min"


class ClampMinTensor(ClampTensor):
    node_name = "ClampMinBackward1"
    _profile_name = "aten::clamp_min"


class ClampMax(Clamp):
    node_name = "ClampMaxBackward0"
    saved_values = {"max": Clamp.saved_values["max"]}  # (torch's node has no min)
    _profile_name = "aten::clamp_max"


class ClampMaxTensor(ClampTensor):
    node_name = "ClampMaxBackward1"
    _profile_name = "aten::clamp_max"


@_call_form.overloads("Tensor input, Tensor min, *, Tensor out = None",
                      "Tensor input, Number min, *, Tensor out = None")
def clamp_min(input: Tensor, min: Any) -> Tensor:
    """``input`` raised to at least ``min``, a number (ClampMinBackward0) or a tensor that
    broadcasts with it (ClampMinBackward1).

    >>> minitorch.tensor([-1., 2.]).clamp_min(0.5)
    tensor([0.5000, 2.0000])
    """
    return _one_sided("min", input, min, ClampMin, ClampMinTensor)


@_call_form.overloads("Tensor input, Tensor max, *, Tensor out = None",
                      "Tensor input, Number max, *, Tensor out = None")
def clamp_max(input: Tensor, max: Any) -> Tensor:
    """``input`` lowered to at most ``max``, a number (ClampMaxBackward0) or a tensor that
    broadcasts with it (ClampMaxBackward1).

    >>> minitorch.tensor([-1., 2.]).clamp_max(0.5)
    tensor([-1.0000,  0.5000])
    """
    return _one_sided("max", input, max, ClampMax, ClampMaxTensor)


def _one_sided(side: str, input: Tensor, bound: Any, by_number: type, by_tensor: type) -> Tensor:
    if isinstance(input, Tensor) and isinstance(bound, Tensor):
        broadcast_pair(input, bound)  # torch's error where the shapes do not broadcast
        return by_tensor.apply(input, *((bound, None) if side == "min" else (None, bound)))
    bound = _number_bound(f"clamp_{side}", side, input, bound)
    bound = _args.kernel_scalar(bound, result_type(input, bound))  # as the kernel reads it
    if input.dtype.name == "bool" and isinstance(bound, bool):
        raise _args.not_implemented(f"clamp_{side}_scalar_cpu", "Bool")
    return by_number.apply(input, **{side: bound})


@_call_form.overloads("Tensor min", "Number min")
def clamp_min_(self: Tensor, min: Any) -> Tensor:
    """In place :func:`clamp_min`: a number bound is checked before the result's cast.

    >>> minitorch.tensor([-1., 2.]).clamp_min_(0.)
    tensor([0., 2.])
    """
    return _one_sided_inplace("min", self, min, clamp_min)


@_call_form.overloads("Tensor max", "Number max")
def clamp_max_(self: Tensor, max: Any) -> Tensor:
    """In place :func:`clamp_max`: a number bound is checked before the result's cast.

    >>> minitorch.tensor([-1., 2.]).clamp_max_(0.)
    tensor([-1.,  0.])
    """
    return _one_sided_inplace("max", self, max, clamp_max)


def _one_sided_inplace(side: str, self: Tensor, bound: Any, op: Any) -> Tensor:
    if not isinstance(bound, Tensor):
        bound = _number_bound(f"clamp_{side}_", side, self, bound)
        clamp_result_type(self, *((bound, None) if side == "min" else (None, bound)))
    return self._inplace(op, bound)


def _number_bound(fn: str, side: str, input: Any, bound: Any) -> Any:
    """A one-sided clamp's number ``bound`` as torch's parser reads it, a complex one
    refused."""
    if not isinstance(input, Tensor) or not (_args.is_real(bound) or isinstance(bound, complex)):
        raise _args.invalid_combination(fn, (input, bound),
                                        f"Tensor input, Tensor {side}, *, Tensor out = None",
                                        f"Tensor input, Number {side}, *, Tensor out = None")
    (bound,) = _args.numbers(fn, (bound, side, 2))
    if isinstance(bound, complex):
        raise NotImplementedError("clamp is not supported for complex types")
    return bound


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12,
              out: Any = None) -> Tensor:
    """``input`` divided by its ``p``-norm along ``dim`` (at least ``eps``); written into
    ``out`` where one is given (then, as torch's, not differentiable).

    >>> F.normalize(minitorch.tensor([[3., 4.]]))
    tensor([[0.6000, 0.8000]])
    """
    _args.python_attribute(input, "norm")  # torch's normalize is Python: input.norm(...)
    if out is None:
        return input / input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    from .. import div

    return div(input, input.norm(p, dim, keepdim=True).clamp_min_(eps).expand_as(input),
               out=out)
