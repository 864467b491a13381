"""The ops behind ``nn.functional``: softmax, log_softmax, nll_loss, mse_loss, avg_pool2d.

Each is one node with torch's name, and a backward written in Tensor operations.

>>> import minitorch
>>> x = minitorch.zeros(1, 2, requires_grad=True)
>>> minitorch.softmax(x, 1)
tensor([[0.5000, 0.5000]], grad_fn=<SoftmaxBackward0>)
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from .. import _args, _call_form
from .._tensor import Tensor
from ..autograd import torch_events
from ..backend import c_order, half_via_float, namespace, quiet, setitem, torch_layout
from ._base import Op, check_same_device, kept, like, wrap
from ._cascade_sum import torch_sum
from ._nll_order import nll_sum
from ._softmax_order import (
    half_log_softmax,
    half_softmax,
    torch_log_softmax_backward,
    torch_softmax,
    torch_softmax_backward,
)
from .pointwise import int_trunc_divide
from .shape import Embed


def logsumexp_jvp(p: Tensor, t: Tensor, dim: int, dual: bool) -> Tensor:
    """The tangent of ``logsumexp(p, dim, keepdim=True)`` for the tangent ``t`` of ``p``, as
    torch's formula computes it: the exp-normalised weights times ``t``, summed, over their
    sum. On a ``dual`` tensor (``forward_ad``'s own, no ``torch.func`` transform) torch
    multiplies the weights in place: the product keeps the primal's dtype, and a backward
    through the tangent finds exp's result modified (torch's error).

    >>> logsumexp_jvp(minitorch.zeros(2), minitorch.tensor([1., 3.]), 0, dual=True)
    tensor([2.])
    """
    e = (p - p.amax(dim, keepdim=True)).exp() if p.numel() else p.exp()
    total = e.sum(dim, keepdim=True)
    weighted = e.mul_(t) if dual else e * t
    return weighted.sum(dim, keepdim=True) / total


class Softmax(Op):
    node_name = "SoftmaxBackward0"
    saved_values = {"dim": kept("dim")}
    saved_names = ("result",)
    _profile_name = "aten::softmax"

    @staticmethod
    def tangent_formula(a: Tensor, t: Tensor, result: Tensor, dual: bool, *, dim: int
                        ) -> Tensor:
        """Forward AD: torch's ``result * (self_t - logsumexp_jvp)``."""
        return result * (t - logsumexp_jvp(a, t, dim, dual))

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, dim: int) -> Tensor:
        out = wrap(c_order(half_softmax(a._xp, a._data, dim)))
        ctx.dim = dim
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (y,) = ctx.saved_tensors
        return (y * (g - (g * y).sum(ctx.dim, keepdim=True)),)

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> Any:
        (y,) = ctx.saved_tensors
        if not like(g, y._data):
            return NotImplemented
        return (torch_softmax_backward(namespace(g), g, y._data, ctx.dim),)


class SafeSoftmax(Softmax):
    """softmax, with the rows that are all ``-inf`` (attention fully masked) given 0 instead of
    nan, as torch's ``_safe_softmax``; the gradient is softmax's, from this result.

    >>> SafeSoftmax.apply(minitorch.tensor([[0., 0.], [-math.inf, -math.inf]]), dim=-1)
    tensor([[0.5000, 0.5000],
            [0.0000, 0.0000]])
    """

    node_name = "SafeSoftmaxBackward0"
    _profile_name = "aten::_safe_softmax"
    tangent_formula = None  # forward AD: the tangent from the backward (masked rows' zeros)

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, dim: int) -> Tensor:
        xp = a._xp
        out = torch_softmax(xp, a._data, dim)
        masked = xp.all(a._data == -xp.inf, axis=dim, keepdims=True)
        out = wrap(c_order(xp.where(masked, xp.zeros((), dtype=out.dtype), out)))
        ctx.dim = dim
        ctx.save_for_backward(out)
        return out


class LogSoftmax(Op):
    node_name = "LogSoftmaxBackward0"
    saved_values = {"dim": kept("dim")}
    saved_names = ("result",)
    _profile_name = "aten::log_softmax"
    # (``cast``: a dtype was given, which torch's kernel converts to, aten::to, first)
    _profile_inner = staticmethod(torch_events.variant("aten::log_softmax", "cast"))

    @staticmethod
    def tangent_formula(a: Tensor, t: Tensor, result: Tensor, dual: bool, *, dim: int,
                        cast: bool = False) -> Tensor:
        """Forward AD: torch's ``self_t - logsumexp_jvp``."""
        return t - logsumexp_jvp(a, t, dim, dual)

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, dim: int, cast: bool = False) -> Tensor:
        out = wrap(c_order(half_log_softmax(a._xp, a._data, dim)))
        ctx.dim = dim
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (y,) = ctx.saved_tensors
        return (g - y.exp() * g.sum(ctx.dim, keepdim=True),)

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> Any:
        (y,) = ctx.saved_tensors
        if not like(g, y._data):
            return NotImplemented
        return (torch_log_softmax_backward(namespace(g), g, y._data, ctx.dim),)


class NllLoss(Op):
    """Negative log-likelihood of class indices: ``-weight[t] * logp[i, t]`` for each row
    ``i`` of ``logp`` (rows, classes) and its target ``t``, averaged over the weights kept
    (or summed, or each, shaped ``shape``)."""

    node_name = "NllLossBackward0"
    saved_slots = ("meta",)  # torch saves the target and total weight
    _profile_name = "aten::nll_loss"
    sum = staticmethod(nll_sum)  # torch's order of adding the rows' values

    @staticmethod
    def as_rows(xp: Any, logp: Any) -> Any:
        """``logp`` as (rows, classes)."""
        return logp

    @staticmethod
    def from_rows(grad: Tensor, shape: tuple) -> Tensor:
        """A gradient of the rows back in the input's shape."""
        return grad

    @classmethod
    def forward(cls, ctx: Any, logp: Tensor, target: Tensor, *, reduction: str,
                ignore_index: int = -100, weight: Tensor | None = None,
                shape: tuple | None = None) -> Tensor:
        check_same_device(logp, target)
        xp = logp._xp
        data = cls.as_rows(xp, logp._data)
        flat = xp.reshape(target._data, (-1,))
        kept = flat != ignore_index
        rows = xp.arange(data.shape[0])[kept]
        classes = flat[kept]
        scale = xp.ones(classes.shape, dtype=data.dtype) if weight is None else \
            weight._data[classes]
        # torch averages over the weights of the targets it did not ignore (none: 0/0, nan)
        total_weight = cls.sum(xp, scale, rows) if reduction == "mean" else xp.asarray(1.0)
        ctx.meta = (data.shape, logp.shape, rows, classes, scale, reduction, total_weight,
                    flat.shape)
        picked = -data[rows, classes] * scale
        if reduction == "none":
            out = xp.zeros(flat.shape, dtype=data.dtype)
            setitem(xp, out, kept, picked)
            return wrap(xp.reshape(out, target._data.shape if shape is None else shape))
        total = cls.sum(xp, picked, rows)
        with quiet():
            return wrap(xp.asarray(total / xp.asarray(total_weight, dtype=total.dtype)))

    @classmethod
    def backward(cls, ctx: Any, g: Tensor, *_: Any) -> tuple:
        shape, input_shape, rows, classes, scale, reduction, total_weight, flat = ctx.meta
        xp = g._xp
        onehot = xp.zeros(shape, dtype=g._data.dtype)
        if reduction == "mean" and total_weight:  # torch's order: weight * -(g / total_weight)
            setitem(xp, onehot, (rows, classes), -scale)
            g = g / float(total_weight)
        else:  # a zero total weight: nan where a target was kept, as torch's -(g / 0) there
            with quiet():
                setitem(xp, onehot, (rows, classes), -scale / total_weight)
        g = g.reshape(flat).unsqueeze(1) if reduction == "none" else g
        return cls.from_rows(wrap(onehot) * g, input_shape), None


class NllLoss2d(NllLoss):
    """``NllLoss`` of an input (batch, classes, height, width): each position is a row, the
    rows in (batch, height, width) order, added in the same cascade as nll_loss's."""

    node_name = "NllLoss2DBackward0"
    _profile_name = "aten::nll_loss2d"

    @staticmethod
    def as_rows(xp: Any, logp: Any) -> Any:
        return xp.reshape(xp.permute_dims(logp, (0, 2, 3, 1)), (-1, logp.shape[1]))

    @staticmethod
    def from_rows(grad: Tensor, shape: tuple) -> Tensor:
        n, c, h, w = shape
        return grad.reshape(n, h, w, c).permute(0, 3, 1, 2)


class MseLoss(Op):
    node_name = "MseLossBackward0"
    _profile_inner = staticmethod(lambda args, kwargs: f"aten::mse_loss.{kwargs['reduction']}")
    saved_names = ("self", "target")
    _profile_name = "aten::mse_loss"

    @staticmethod
    def forward(ctx: Any, a: Tensor, target: Tensor, *, reduction: str) -> Tensor:
        check_same_device(a, target)
        ctx.save_for_backward(a, target)
        ctx.reduction = reduction
        xp = a._xp
        # the difference laid out as torch's (the input's layout first): a mean sums it in
        # that memory order
        sq = torch_layout(a._data - target._data, a._data, target._data) ** 2
        if reduction == "none":
            return wrap(sq)
        def reduce(xp: Any, sq: Any) -> Any:  # torch's mean is its sum over the count
            total = torch_sum(xp, sq)
            return total / math.prod(sq.shape) if reduction == "mean" else total

        return wrap(half_via_float(reduce, xp, sq))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        a, t = ctx.saved_tensors
        n = a.numel()  # torch's double division: 2 / 0 is inf (times an empty gradient)
        scale = (2.0 / n if n else math.inf) if ctx.reduction == "mean" else 2.0
        d = (a - t) * (g * scale)
        return (d if ctx.needs_input_grad[0] else None, -d if ctx.needs_input_grad[1] else None)


class AvgPool2d(Op):
    """The sum over ``kernel`` windows moved by ``stride`` over the input padded with zeros
    (``padding`` before, ``padding + extra`` after: ceil mode's last windows), divided by
    ``divisor``: one number, or an array of one per output position. The pooled dims are
    the last ``len(kernel)`` (two here, three in ``AvgPool3d``)."""

    node_name = "AvgPool2DBackward0"
    saved_slots = ("meta",)  # torch saves the input
    _profile_name = "aten::avg_pool2d"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, kernel: tuple, stride: tuple, padding: tuple,
                extra: tuple, divisor: Any = None) -> Tensor:
        xp, data = a._xp, a._data
        n = len(kernel)
        lead, spatial = data.shape[:-n], data.shape[-n:]
        shape = (*lead, *(size + 2 * p + e for size, p, e in zip(spatial, padding, extra)))
        inner = (..., *(slice(p, p + size) for p, size in zip(padding, spatial)))
        if shape != data.shape:
            data = xp.zeros(shape, dtype=data.dtype)
            data[inner] = a._data
        keys = _window_keys(shape, kernel, stride)
        divisor = math.prod(kernel) if divisor is None else divisor
        ctx.meta = (shape, inner if shape != a._data.shape else None, keys, divisor)
        total = sum(data[key] for key in keys)
        if xp.isdtype(total.dtype, "integral"):  # torch's integer kernel divides as C++
            return wrap(int_trunc_divide(xp, total, divisor))
        return wrap(total / divisor)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        shape, inner, keys, divisor = ctx.meta
        g = g / (divisor if isinstance(divisor, int) else wrap(divisor))
        # torch adds each output's share into its window, outputs in order: an input value
        # hears from the window offsets in reverse
        parts = [Embed.apply(g, shape=shape, key=key) for key in reversed(keys)]
        total = parts[0]
        for p in parts[1:]:
            total = total + p
        return (total if inner is None else total[inner],)


class AvgPool3d(AvgPool2d):
    node_name = "AvgPool3DBackward0"
    _profile_name = "aten::avg_pool3d"


def _window_keys(shape: tuple, kernel: tuple, stride: tuple) -> list[tuple]:
    """One strided slice per offset inside the window (row-major): their sum is the
    windows' sum."""
    n = len(kernel)
    out = [(size - k) // s + 1 for size, k, s in zip(shape[-n:], kernel, stride)]
    if min(out) <= 0:
        raise RuntimeError(f"Output size is too small (input {'x'.join(map(str, shape[-n:]))}, "
                           f"kernel {'x'.join(map(str, kernel))})")
    lead = (slice(None),) * (len(shape) - n)
    return [(*lead, *(slice(i, i + s * (o - 1) + 1, s) for i, s, o in zip(offset, stride, out)))
            for offset in itertools.product(*(range(k) for k in kernel))]


@_args.tensors("softmax", input="input")
@_call_form.parser_types(dim="int", dtype="torch.dtype | None")
def softmax(input: Tensor, dim: Any, dtype: Any = None) -> Tensor:
    """``exp(x) / exp(x).sum(dim)``, computed stably; with ``dtype``, of ``input`` cast to it first.

    >>> minitorch.softmax(minitorch.tensor([0., 0.]), 0)
    tensor([0.5000, 0.5000])
    """
    _args.integer("softmax", dim, "dim", 2)  # types first
    dt = _args.dtype("softmax", dtype)
    d = _args.dim("softmax", dim, input.dim(), position=2)
    if dt is not None:
        input = input.to(dt)
    if not _check_floating("softmax", input, d):
        return input.clone()  # an empty integer tensor: nothing to normalise
    return Softmax.apply(input, dim=d)


@_args.tensors("log_softmax", input="input")
@_call_form.parser_types(dim="int", dtype="torch.dtype | None")
def log_softmax(input: Tensor, dim: Any, dtype: Any = None) -> Tensor:
    """``log(softmax(x))``, computed stably; with ``dtype``, of ``input`` cast to it first.

    >>> minitorch.log_softmax(minitorch.tensor([0., 0.]), 0)
    tensor([-0.6931, -0.6931])
    """
    _args.integer("log_softmax", dim, "dim", 2)
    dt = _args.dtype("log_softmax", dtype)
    d = _args.dim("log_softmax", dim, input.dim(), position=2)
    if dt is not None and dt is not input.dtype:
        input = input.to(dt)
    if not _check_floating("log_softmax", input, d):
        return input.clone()  # an empty integer tensor: nothing to normalise
    return LogSoftmax.apply(input, dim=d, cast=dt is not None)


def _check_floating(name: str, input: Tensor, dim: int) -> bool:
    """Whether ``input`` is floating; torch has no (log_)softmax kernel for integer or bool
    tensors, but runs none when they are empty."""
    if input.dtype.is_floating_point:
        return True
    if input.numel():
        kernel = "lastdim_kernel_impl" if dim == max(input.dim() - 1, 0) else "kernel_impl"
        raise _args.not_implemented(f"{name}_{kernel}", input.dtype)
    return False
