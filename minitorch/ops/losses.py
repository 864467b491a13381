"""Element-wise losses with a reduction, each one node as in torch:
``binary_cross_entropy`` (BinaryCrossEntropyBackward0), ``binary_cross_entropy_with_logits``,
``smooth_l1_loss`` and ``huber_loss``.

An op here gives the loss of each element on arrays (``loss``) and its two partial
derivatives in Tensor operations (``partials``), so higher-order gradients come for free; the
reduction ('mean', 'sum' or 'none') is the same for all.

>>> import minitorch
>>> x = minitorch.tensor([0.2, 0.9], requires_grad=True)
>>> BinaryCrossEntropy.apply(x, minitorch.tensor([0., 1.]), reduction="mean", params={})
tensor(0.1643, grad_fn=<BinaryCrossEntropyBackward0>)
"""

from __future__ import annotations

import math
from typing import Any

from .. import _args
from .._factories import full_like
from .._libm import c_math_of
from .._tensor import Tensor, broadcast_pair, broadcast_shapes, check_output_shape
from ..autograd.function import reduce_to_shape
from ..autograd.grad_mode import is_grad_enabled
from ..backend import array_dtype, from_numpy, namespace, quiet, to_numpy
from ._base import Op, wrap
from ._cascade_sum import torch_sum
from ._softmax_order import torch_log_sigmoid
from .activation import LogSigmoid
from .pointwise import _NoDerivative, where

__all__ = [
    "BinaryCrossEntropy",
    "BinaryCrossEntropyWithLogits",
    "HuberLoss",
    "MultiLabelMarginLoss",
    "MultiMarginLoss",
    "SmoothL1Loss",
    "SoftMarginLoss",
]


class _ElementLoss(Op):
    """A loss of ``input`` and ``target`` (same shape), reduced by ``reduction``."""

    @staticmethod
    def loss(xp: Any, x: Any, t: Any, params: dict) -> Any:
        raise NotImplementedError

    @staticmethod
    def partials(x: Tensor, t: Tensor, params: dict) -> tuple[Tensor, Tensor]:
        raise NotImplementedError

    @classmethod
    def forward(cls, ctx: Any, x: Tensor, t: Tensor, *, reduction: str, params: dict) -> Tensor:
        ctx.save_for_backward(x, t)
        ctx.reduction, ctx.params = reduction, params
        xp = x._xp
        target = t._data if cls.target_as_given else xp.astype(t._data, x._data.dtype)
        each = cls.loss(xp, x._data, target, params)
        each = xp.astype(each, cls.result_dtype(x, t)._data.dtype, copy=False)
        weight = params.get("weight_as_given", params.get("weight"))
        if weight is not None:  # torch's in-place mul_: in the loss's dtype
            each = xp.astype(each * weight._data, each.dtype, copy=False)
        if reduction == "mean":  # torch's mean: its sum over the count
            return wrap(torch_sum(xp, each) / math.prod(each.shape))
        return wrap(torch_sum(xp, each) if reduction == "sum" else each)

    @staticmethod
    def result_dtype(x: Tensor, t: Tensor) -> Tensor:
        """The tensor whose dtype the loss has: the input's."""
        return x

    target_as_given = False  # else ``loss`` reads the target in the input's dtype

    divides_last = False  # torch's backward divides by the count last, else it scales g first

    @classmethod
    def backward(cls, ctx: Any, g: Tensor) -> tuple:
        x, t = ctx.saved_tensors
        weight = ctx.params.get("weight")
        dx, dt = cls.partials(x, t, ctx.params)
        if cls.divides_last:
            return tuple(cls._scaled(d * g, weight, ctx.reduction, x.numel()) if need else None
                         for d, need in zip((dx, dt), ctx.needs_input_grad))
        if ctx.reduction == "mean":
            g = g / max(x.numel(), 1)
        if weight is not None:
            g = g * weight
        return (g * dx if ctx.needs_input_grad[0] else None,
                g * dt if ctx.needs_input_grad[1] else None)

    @staticmethod
    def _scaled(grad: Tensor, weight: Tensor | None, reduction: str, count: int) -> Tensor:
        if weight is not None:
            grad = grad * weight
        return grad / max(count, 1) if reduction == "mean" else grad


class BinaryCrossEntropy(_ElementLoss):
    """``-(t log x + (1 - t) log(1 - x))``, each log clamped at -100 as torch does."""

    node_name = "BinaryCrossEntropyBackward0"
    _profile_name = "aten::binary_cross_entropy"

    @staticmethod
    def loss(xp: Any, x: Any, t: Any, params: dict) -> Any:
        # torch's scalar kernel: (t - 1) max(log1p(-x), -100) - t max(log(x), -100), with the
        # C library's log and log1p
        floor = xp.asarray(-100.0, dtype=x.dtype)
        return ((t - 1) * xp.maximum(c_math_of(xp, "log1p", -x), floor)
                - t * xp.maximum(c_math_of(xp, "log", x), floor))

    @staticmethod
    def partials(x: Tensor, t: Tensor, params: dict) -> tuple[Tensor, Tensor]:
        dx = (x - t) / ((1 - x) * x).clamp(min=1e-12)  # torch's EPSILON
        dt = (1 - x).log().clamp(min=-100) - x.log().clamp(min=-100)
        return dx, dt


class BinaryCrossEntropyWithLogits(_ElementLoss):
    """``(1 - t) x - c log(sigmoid(x))`` with ``c = 1 + (pos_weight - 1) t``, in torch's order
    with its log_sigmoid kernel."""

    node_name = "BinaryCrossEntropyWithLogitsBackward0"
    _profile_name = "aten::binary_cross_entropy_with_logits"

    @staticmethod
    def loss(xp: Any, x: Any, t: Any, params: dict) -> Any:
        # torch's steps, each in place in its left operand's dtype: log_sigmoid(x) in x's,
        # times the positive weights; (1 - t).mul_(x).sub_(log_sigmoid) in t's
        log_sigmoid = torch_log_sigmoid(xp, x)[0]
        pw = params.get("pos_weight_as_given")
        if pw is not None:
            common = array_dtype(xp, params["pos_weight_dtype"].name)
            shifted = xp.astype(pw._data - 1, common, copy=False)
            log_sigmoid = xp.astype(log_sigmoid * (shifted * t + 1), x.dtype, copy=False)
        scaled = xp.astype((1 - t) * x, t.dtype, copy=False)
        return xp.astype(scaled - log_sigmoid, t.dtype, copy=False)

    divides_last = True
    target_as_given = True

    @classmethod
    def backward(cls, ctx: Any, g: Tensor) -> tuple:
        """torch's, of an input broadcast into the target's shape (``input_shape``): its
        input's gradient ``sigmoid(x).sub_(t)`` in place where no graph is recorded, and a
        mean's divided by the input's own count; its target's ``-x * g`` (times the weight
        in place) in their broadcast shape, which the engine checks."""
        shape = ctx.params.get("input_shape")
        if shape is None:
            return super().backward(ctx, g)
        x, t = ctx.saved_tensors
        if ctx.needs_input_grad[0] and not is_grad_enabled():
            check_output_shape(shape, tuple(t.shape))
        if ctx.needs_input_grad[1]:
            own = tuple(broadcast_shapes(shape, g.shape))
            if "weight" in ctx.params:
                check_output_shape(own, tuple(broadcast_shapes(own, ctx.params["weight"].shape)))
            reduce_to_shape(cls.node_name, 1, g.expand(own), tuple(t.shape))
        dx, dt = super().backward(ctx, g)
        if dx is not None and ctx.reduction == "mean":
            dx = dx * (x.numel() / math.prod(shape))
        return dx, dt

    @staticmethod
    def result_dtype(x: Tensor, t: Tensor) -> Tensor:
        """The target's, where it is floating: torch's loss is ``(1 - t).mul_(x)...``."""
        return t if t.dtype.is_floating_point else x

    @staticmethod
    def partials(x: Tensor, t: Tensor, params: dict) -> tuple[Tensor, Tensor]:
        pw = params.get("pos_weight")
        if pw is None:
            return x.sigmoid() - t, -x
        pt = pw * t  # torch's order of rounding: ((pw t + 1) - t) sigmoid(x) - pw t
        return (pt + 1 - t) * x.sigmoid() - pt, LogSigmoid.apply(-x) - LogSigmoid.apply(x) * pw


class SmoothL1Loss(_ElementLoss):
    """``0.5 d² / beta`` where ``|d| < beta``, else ``|d| - 0.5 beta`` (``d = x - t``)."""

    node_name = "SmoothL1LossBackward0"
    _profile_name = "aten::smooth_l1_loss"

    @staticmethod
    def loss(xp: Any, x: Any, t: Any, params: dict) -> Any:
        beta = params["beta"]
        d = xp.abs(x - t)
        return xp.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta)

    @staticmethod
    def partials(x: Tensor, t: Tensor, params: dict) -> tuple[Tensor, Tensor]:
        beta = params["beta"]
        d = x - t
        dx = where(d.abs() < beta, d / beta, d.sign())
        return dx, -dx


class HuberLoss(_ElementLoss):
    """``0.5 d²`` where ``|d| <= delta``, else ``delta (|d| - 0.5 delta)``."""

    node_name = "HuberLossBackward0"
    _profile_name = "aten::huber_loss"

    @staticmethod
    def loss(xp: Any, x: Any, t: Any, params: dict) -> Any:
        with quiet():  # torch's kernel takes delta in the input's dtype (1e308: inf in
            delta = xp.asarray(params["delta"], dtype=x.dtype)  # float32, and inf - inf NaN)
            d = xp.abs(x - t)
            return xp.where(d < delta, 0.5 * d * d, delta * (d - 0.5 * delta))

    @staticmethod
    def partials(x: Tensor, t: Tensor, params: dict) -> tuple[Tensor, Tensor]:
        delta = params["delta"]
        d = x - t
        dx = where(d.abs() <= delta, d, delta * d.sign())
        return dx, -dx

    @classmethod
    def backward(cls, ctx: Any, g: Tensor) -> tuple:
        """torch's huber backward takes the target as given (``params["target_dtype"]``):
        one of another dtype than the input is refused, though the forward cast it."""
        given, x = ctx.params.get("target_dtype"), ctx.saved_tensors[0]
        if given is not None and given is not x.dtype:
            raise RuntimeError(f"Found dtype {_args.legacy(given)} but expected "
                               f"{_args.legacy(x.dtype)}")
        return super().backward(ctx, g)

class SoftMarginLoss(Op):
    """``log1p(exp(-input * target))``, reduced; its gradient reaches ``input`` only, in torch's
    order: ``(target * z) * -norm / (1 + z) * g`` with ``z = exp(-input * target)``.

    >>> SoftMarginLoss.apply(minitorch.zeros(1, requires_grad=True), minitorch.ones(1),
    ...                      reduction="mean")
    tensor(0.6931, grad_fn=<SoftMarginLossBackward0>)
    """

    node_name = "SoftMarginLossBackward0"
    _profile_name = "aten::soft_margin_loss"
    formula_op = "soft_margin_loss_backward"  # torch's forward formula, no forward AD itself

    @staticmethod
    def forward(ctx: Any, x: Tensor, t: Tensor, *, reduction: str) -> Tensor:
        # torch's kernel writes into a tensor of the input's shape: the target may not widen it
        check_output_shape(x.shape, broadcast_pair(x, t))
        ctx.save_for_backward(x, t)  # as given: torch's backward negates it (not a bool)
        t = t.to(x.dtype)  # torch's kernel reads the target in the input's dtype
        ctx.reduction = reduction
        each = (-x * t).exp().log1p()
        if reduction == "none":
            return each
        return each.mean() if reduction == "mean" else each.sum()

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, target = ctx.saved_tensors
        # an empty input has an empty gradient: torch divides by zero into nothing
        norm = 1.0 / (x.numel() or 1) if ctx.reduction == "mean" else 1.0
        z = ((-target).to(x.dtype) * x).exp()
        t = target.to(x.dtype)
        return (t * z) * -norm / (1 + z) * g, None


class MultiMarginLoss(Op):
    """The multi-class hinge loss of scores ``x`` (frames, classes) against class indices, as
    torch's CPU kernel: per frame, ``max(0, margin - x[y] + x[d])`` (squared when p is 2, times
    ``weight[y]``) summed over the other classes one by one in float, over the class count;
    frames summed in double for 'mean' and 'sum'.

    >>> MultiMarginLoss.apply(minitorch.tensor([[0.1, 0.2, 0.4]], requires_grad=True),
    ...                       minitorch.tensor([2]), p=1, margin=1.0, weight=None,
    ...                       reduction="mean")
    tensor(0.5000, grad_fn=<MultiMarginLossBackward0>)
    """

    node_name = "MultiMarginLossBackward0"
    index_operands = (1,)
    _profile_name = "aten::multi_margin_loss"

    @classmethod
    def forward(cls, ctx: Any, x: Tensor, target: Tensor, *, p: int, margin: float,
                weight: Tensor | None, reduction: str) -> Tensor:
        ctx.save_for_backward(x, target, weight)
        ctx.p, ctx.margin, ctx.reduction, ctx.shape = p, margin, reduction, x.shape
        xp = x._xp
        a = xp.reshape(x._data, (-1, x.shape[-1] if x.dim() else 1))
        t = xp.reshape(target._data, (-1,))
        dt = a.dtype
        if not a.shape[0]:  # no frame: torch's kernel returns at once, its output of x's dtype
            return wrap(xp.zeros((0,) if reduction == "none" else (), dtype=dt))  # left unset
        z = (xp.asarray(margin, dtype=dt) - xp.take_along_axis(a, t[:, None], axis=1)) + a
        others = xp.arange(a.shape[1])[None, :] != t[:, None]
        h = xp.where(others & (z > 0), z if p == 1 else z * z, xp.zeros((), dtype=dt))
        if weight is not None:
            h = h * xp.take(weight._data, t)[:, None]
        each = xp.zeros(a.shape[0], dtype=dt)
        for d in range(a.shape[1]):  # the kernel's running sum, class by class
            each = each + h[:, d]
        each = each / xp.asarray(a.shape[1], dtype=dt)
        if reduction == "none" and target.dim() > 0:
            return wrap(each)
        total = xp.sum(xp.astype(each, xp.float64))  # the kernel sums frames in double
        if reduction == "mean":
            total = total / a.shape[0]
        return wrap(xp.astype(total, dt))

    @classmethod
    def backward(cls, ctx: Any, g: Tensor) -> tuple:
        x, target, weight = ctx.saved_tensors
        a = x.reshape(-1, ctx.shape[-1] if x.dim() else 1)
        frames, dim = a.shape
        xp = a._xp
        count = frames * dim if ctx.reduction == "mean" else dim
        # the kernel's g, in its dtype (an empty batch: no gradient to scale)
        scale = float(xp.asarray(1.0 / count if count else 0.0, dtype=a._data.dtype))
        t = target.reshape(-1)
        z = (ctx.margin - a.gather(1, t[:, None])) + a
        others = xp.arange(dim)[None, :] != t._data[:, None]
        h = full_like(a, scale) if ctx.p == 1 else (2 * scale) * z
        if weight is not None:
            h = h * weight[t][:, None]
        h = where(wrap(others & (z._data > 0)), h, 0.0)
        target_grad = h[:, 0] * 0
        for d in range(dim):  # the kernel's grad_input_target -= h, class by class
            target_grad = target_grad - h[:, d]
        grad = where(wrap(others), h, target_grad[:, None])
        grad = grad * (g[:, None] if ctx.reduction == "none" and g.dim() > 0 else g)
        return grad.reshape(ctx.shape), None, None


class MultiLabelMarginLoss(Op):
    """The multi-label hinge loss of scores ``x`` (frames, classes) against each frame's target
    classes (listed first in its target row, up to a -1), as torch's CPU kernel: per frame
    ``1 - x[j] + x[i]`` where positive, for each target ``j`` and each non-target ``i``, summed
    in double and rounded to the frame's dtype, over the class count; frames summed in double
    for 'mean' and 'sum'.

    >>> MultiLabelMarginLoss.apply(minitorch.tensor([[0.1, 0.2, 0.4, 0.8]]),
    ...                            minitorch.tensor([[3, 0, -1, 1]]), reduction="mean")
    tensor(0.8500)
    """

    node_name = "MultilabelMarginLossBackward0"
    index_operands = (1,)
    _profile_name = "aten::multilabel_margin_loss"

    @staticmethod
    def _hinges(xp: Any, a: Any, t: Any) -> Any:
        """Each (target, class) step of the kernel in its order: the frames it adds for, the
        target's class and the positive ``z``s (0 elsewhere)."""
        rows = xp.arange(a.shape[0])
        valid = xp.cumulative_prod(xp.astype(t >= 0, xp.int64), axis=1) > 0  # to the first -1
        is_target = xp.zeros(a.shape, dtype=bool)
        for k in range(t.shape[1]):
            is_target[rows, xp.where(valid[:, k], t[:, k], 0)] |= valid[:, k]
        one = xp.asarray(1, dtype=a.dtype)
        for k in range(t.shape[1]):
            idx = xp.where(valid[:, k], t[:, k], 0)
            for d in range(a.shape[1]):
                z = (one - a[rows, idx]) + a[:, d]
                yield valid[:, k] & ~is_target[:, d] & (z > 0), idx, z, d

    @classmethod
    def forward(cls, ctx: Any, x: Tensor, target: Tensor, *, reduction: str) -> Tensor:
        ctx.save_for_backward(x, target)
        ctx.reduction = reduction
        dim = x.shape[-1] if x.dim() else 1
        xp, a, t = _on_host(x, target, dim)
        sums = xp.zeros(a.shape[0], dtype=xp.float64)
        for add, _, z, _ in cls._hinges(xp, a, t):
            sums = xp.where(add, sums + xp.astype(z, xp.float64), sums)
        each = xp.astype(sums, a.dtype)  # the kernel returns each frame's sum in its dtype
        if reduction == "none" and x.dim() == 2:
            return wrap(from_numpy(each / xp.asarray(dim, dtype=a.dtype), x.device))
        # frame by frame, in double (no frames: 0, over none for a mean, as torch's sums)
        total = xp.sum(xp.cumsum(xp.astype(each, xp.float64))[-1:]) / dim
        if reduction == "mean":
            total = total / a.shape[0]
        return wrap(from_numpy(xp.astype(xp.asarray(total), a.dtype), x.device))

    @classmethod
    def backward(cls, ctx: Any, g: Tensor) -> tuple:
        x, target = ctx.saved_tensors
        return MultiLabelMarginLossBackward.on(g, x, target, reduction=ctx.reduction), None


class MultiLabelMarginLossBackward(_NoDerivative):
    """torch's ``multilabel_margin_loss_backward``, which has no derivative: a graph of the
    loss's gradient is refused when differentiated, in torch's words."""

    _profile_name = "aten::multilabel_margin_loss_backward"

    @staticmethod
    def compute(g: Tensor, x: Tensor, target: Tensor, *, reduction: str) -> Any:
        dim = x.shape[-1] if x.dim() else 1
        xp, a, t = _on_host(x, target, dim)
        count = a.shape[0] * dim if reduction == "mean" else dim
        step = xp.asarray(1.0 / max(count, 1), dtype=a.dtype)  # no frames: an empty gradient
        grad = xp.zeros(a.shape, dtype=a.dtype)
        rows = xp.arange(a.shape[0])
        for add, idx, _, d in MultiLabelMarginLoss._hinges(xp, a, t):  # -= g, += g in turn
            grad[rows, idx] = xp.where(add, grad[rows, idx] - step, grad[rows, idx])
            grad[:, d] = xp.where(add, grad[:, d] + step, grad[:, d])
        scale = to_numpy(g._data)
        scale = xp.reshape(scale, (-1, 1)) if reduction == "none" and g.dim() > 0 else scale
        return from_numpy(xp.reshape(grad * scale, x.shape), x.device)


def _on_host(x: Tensor, target: Tensor, dim: int) -> tuple:
    """The host namespace and the scores and targets as frames: the kernel's steps, element
    by element and in its order, use numpy's fancy indexing (a CUDA tensor's go there and
    back)."""
    a = to_numpy(x._data)
    xp = namespace(a)
    return xp, xp.reshape(a, (-1, dim)), xp.reshape(to_numpy(target._data), (-1, dim))
