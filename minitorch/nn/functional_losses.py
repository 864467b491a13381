"""The functional forms of the losses beyond MSE and NLL: binary cross entropy (on
probabilities or logits), L1, smooth L1 and Huber. ``minitorch.nn.functional`` re-exports them.

>>> import minitorch
>>> from minitorch.nn import functional as F
>>> F.binary_cross_entropy_with_logits(minitorch.zeros(2), minitorch.ones(2))
tensor(0.6931)
"""

from __future__ import annotations

import warnings
from typing import Any

from .. import _args
from .._dtype import bool as bool_
from .._dtype import dtype, result_type
from .._tensor import (
    Tensor,
    broadcast_pair,
    broadcast_shapes,
    check_output_shape,
    checked_broadcast_shapes,
)
from ..autograd.grad_mode import is_grad_enabled
from ..ops import losses
from ..ops.pointwise import no_bool

__all__ = ["binary_cross_entropy", "binary_cross_entropy_with_logits", "huber_loss",
           "l1_loss", "smooth_l1_loss"]


def _check_reduction(reduction: str, size_average: Any = None, reduce: Any = None) -> str:
    """The reduction a loss computes, as torch reads it: the deprecated ``size_average`` and
    ``reduce`` pair when either is given, else ``reduction``, one of 'none', 'mean' and 'sum'
    (or 'elementwise_mean', deprecated, read as 'mean').

    >>> _check_reduction("sum")
    'sum'
    >>> _check_reduction("all")
    Traceback (most recent call last):
    ValueError: all is not a valid value for reduction
    """
    if size_average is not None or reduce is not None:
        return _legacy_reduction(size_average, reduce)
    if reduction == "elementwise_mean":
        warnings.warn("reduction='elementwise_mean' is deprecated. Please use reduction='mean' "
                      "instead.", stacklevel=3)
        return "mean"
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def _legacy_reduction(size_average: Any, reduce: Any) -> str:
    """torch's deprecated ``size_average``/``reduce`` pair read as a reduction (truthiness,
    None counting as True), with torch's warning."""
    reduction = "none" if reduce is not None and not reduce else \
        "sum" if size_average is not None and not size_average else "mean"
    warnings.warn("size_average and reduce args will be deprecated, please use "
                  f"reduction='{reduction}' instead.", stacklevel=4)
    return reduction


def check_operands(input: Any, target: Any) -> None:
    """torch's Python losses first read ``target.size()``, then ``input.size()``."""
    _args.python_attribute(target, "size")
    _args.python_attribute(input, "size")


def _same_shape(input: Tensor, target: Tensor, stacklevel: int = 3) -> tuple[Tensor, Tensor]:
    """torch warns when the shapes differ, then broadcasts them together."""
    if input.shape == target.shape:
        return input, target
    warnings.warn(f"Using a target size ({target.shape}) that is different to the input "
                  f"size ({input.shape}). This will likely lead to incorrect results due "
                  "to broadcasting. Please ensure they have the same size.",
                  stacklevel=stacklevel)
    shape = broadcast_pair(input, target)
    return input.expand(shape), target.expand(shape)


def elementwise_pair(input: Tensor, target: Tensor, reduction: str, size_average: Any = None,
                     reduce: Any = None) -> tuple[Tensor, Tensor, str]:
    """An elementwise loss's operands as torch's Python code takes them: warned about and
    broadcast to one shape, then the reduction checked (see :func:`_check_reduction`).

    >>> elementwise_pair(minitorch.ones(2), minitorch.ones(2), "all")
    Traceback (most recent call last):
    ValueError: all is not a valid value for reduction
    """
    input, target = _same_shape(input, target, stacklevel=4)
    return input, target, _check_reduction(reduction, size_average, reduce)


def check_weight(weight: Any, shape: tuple) -> None:
    """torch's Python check of an elementwise loss's ``weight``: a tensor (it reads
    ``weight.size()``) of the input's own shape (``shape``, before broadcasting)."""
    _args.python_attribute(weight, "size")
    if tuple(weight.shape) != shape:
        raise ValueError("Weights and input must have the same size.")


def weighted(each: Tensor, weight: Tensor, reduction: str, over_weights: bool = True
             ) -> Tensor:
    """torch's Python path of a loss given ``weight``: each element's loss times its
    weight, then summed, or (mean) summed over the weights' sum (mse_loss, l1_loss) or
    averaged (``over_weights`` False: huber_loss).

    >>> weighted(minitorch.tensor([1., 4.]), minitorch.tensor([1., 3.]), "mean")
    tensor(3.2500)
    """
    out = each * weight
    if reduction == "none":
        return out
    if reduction == "sum":
        return out.sum()
    return out.sum() / weight.sum() if over_weights else out.mean()


def kernel_operands(kernel: str, input: Tensor, target: Tensor,
                    out: dtype | None = None) -> tuple[Tensor, Tensor]:
    """Both operands in their result type, as torch's loss kernel ``kernel`` computes: it
    must cast to ``out`` (the output's dtype, where the kernel writes into one, and then the
    dtype computed in) and be floating.

    >>> kernel_operands("huber", minitorch.ones(1), minitorch.ones(1, dtype=minitorch.int64))
    (tensor([1.]), tensor([1.]))
    >>> kernel_operands("huber", minitorch.ones(1, dtype=minitorch.int64), minitorch.ones(1),
    ...                 out=minitorch.int64)
    Traceback (most recent call last):
    RuntimeError: result type Float can't be cast to the desired output type Long
    """
    dt = result_type(input, target)
    if out is not None and dt._category > out._category:
        raise _args.cast_error(dt, out)
    floating_kernel(kernel, dt)  # torch's kernel dispatches on the common dtype
    dt = out or dt
    return (input if input.dtype is dt else input.to(dt),
            target if target.dtype is dt else target.to(dt))


def floating_kernel(kernel: str, dt: dtype, suffix: str = "_cpu") -> None:
    """torch's CPU kernel ``kernel`` (named with ``suffix``) runs on floating dtypes only.

    >>> floating_kernel("huber", minitorch.int64)
    Traceback (most recent call last):
    NotImplementedError: "huber_cpu" not implemented for 'Long'
    """
    if not dt.is_floating_point:
        raise _args.not_implemented(f"{kernel}{suffix}", dt)


def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                         size_average: Any = None, reduce: Any = None,
                         reduction: str = "mean") -> Tensor:
    """The cross entropy of probabilities ``input`` against targets in [0, 1].

    >>> F.binary_cross_entropy(minitorch.tensor([0.5]), minitorch.tensor([1.]))
    tensor(0.6931)
    """
    reduction = _check_reduction(reduction, size_average, reduce)  # (torch's first line)
    check_operands(input, target)
    if input.shape != target.shape:
        raise ValueError(f"Using a target size ({target.shape}) that is different to the "
                         f"input size ({input.shape}) is deprecated. Please ensure they have "
                         "the same size.")
    if weight is not None:
        _args.python_attribute(weight, "size")  # torch's Python reads weight.size(), then
        weight = weight.expand(checked_broadcast_shapes((target.shape, weight.shape)))  # expands
    if weight is not None:  # autograd's refusal, before the kernel's checks
        not_differentiable("binary_cross_entropy", weight, "weight")
    if target.dtype is not input.dtype:  # the kernel's checks, after its Python's
        raise RuntimeError(f"Found dtype {_args.legacy(target.dtype)} but expected "
                           f"{_args.legacy(input.dtype)}")
    floating_kernel("binary_cross_entropy", input.dtype, suffix="")
    _check_probabilities(input, target)
    if weight is not None:
        _in_place_broadcast(input.shape, weight.shape)  # the kernel scales the loss in
        # place
    # the kernels scale the loss in place: the weights in the input's dtype
    params = {} if weight is None else _weights(weight, input, input)
    return losses.BinaryCrossEntropy.apply(input, target, reduction=reduction, params=params)


def _weights(weight: Tensor, input: Tensor, loss: Tensor) -> dict:
    """A kernel's ``loss.mul_(weight)``, computed in the common dtype of the loss (of the
    dtype of ``loss``) and the weights: those, and for the gradient the input's."""
    weight = weight.expand(input.shape)
    return {"weight": weight.to(input.dtype),
            "weight_as_given": weight.detach().to(result_type(loss, weight))}


def not_differentiable(fn: str, value: Tensor, name: str) -> None:
    """torch's refusal of a gradient asked for through ``fn``'s argument ``name``."""
    if value.requires_grad and is_grad_enabled():
        raise RuntimeError(f"The function '{fn}' is not differentiable with respect to argument "
                           f"'{name}'. This input cannot have requires_grad True.")


def _check_probabilities(input: Tensor, target: Tensor) -> None:
    """torch's kernel's check, element by element (the input's, then the target's), that
    each lies in [0, 1] (NaN does not)."""
    xp = input._xp
    bad_input = ~((input._data >= 0) & (input._data <= 1))
    bad = xp.reshape(bad_input | ~((target._data >= 0) & (target._data <= 1)), (-1,))
    if input.numel() and bool(xp.any(bad)):
        first = xp.argmax(xp.astype(bad, xp.int8))  # (the array API has no argmax of bools)
        which = "input" if bool(xp.reshape(bad_input, (-1,))[first]) else "target"
        raise RuntimeError(f"all elements of {which} should be between 0 and 1")


def _in_place_broadcast(result: tuple, factor: tuple) -> None:
    """torch's checks of ``result.mul_(factor)``, of their shapes: they broadcast, to
    ``result``'s."""
    check_output_shape(tuple(result), tuple(broadcast_shapes(result, factor)))


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor,
                                     weight: Tensor | None = None, size_average: Any = None,
                                     reduce: Any = None, reduction: str = "mean",
                                     pos_weight: Tensor | None = None) -> Tensor:
    """``binary_cross_entropy(sigmoid(input), target)``, computed stably from logits;
    ``pos_weight`` weighs the positive targets.

    >>> F.binary_cross_entropy_with_logits(minitorch.tensor([0.]), minitorch.tensor([1.]),
    ...                                    pos_weight=minitorch.tensor([2.]))
    tensor(1.3863)
    """
    reduction = _check_reduction(reduction, size_average, reduce)  # (torch's first line)
    check_operands(input, target)
    if input.shape != target.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size "
                         f"({input.shape})")
    for value, name, position in ((weight, "weight", 3), (pos_weight, "pos_weight", 4)):
        if value is not None:  # torch's parser, after its Python's checks
            _args.tensor_args("binary_cross_entropy_with_logits", (value, name, position))
    return logits_kernel(input, target, weight, pos_weight, reduction)


def logits_kernel(input: Tensor, target: Tensor, weight: Tensor | None,
                  pos_weight: Tensor | None, reduction: str) -> Tensor:
    """torch's C++ ``binary_cross_entropy_with_logits`` once its parser has read the
    arguments: ``log_sigmoid(input)`` times the positive weights in place, then
    ``(1 - target).mul_(input)``, so ``input`` broadcasts into ``target``'s shape, and the
    loss times ``weight`` in place.

    >>> logits_kernel(minitorch.zeros(1), minitorch.ones(2, 1), None, None, "none").shape
    torch.Size([2, 1])
    """
    for value, name in ((weight, "weight"), (pos_weight, "pos_weight")):
        if value is not None:
            not_differentiable("binary_cross_entropy_with_logits", value, name)
    floating_kernel("log_sigmoid", input.dtype)
    if pos_weight is not None:  # torch's kernel: (pos_weight - 1) * target, into the
        no_bool(pos_weight, 1)  # log-sigmoid in place, before it reads (1 - target)
        _in_place_broadcast(input.shape, broadcast_shapes(pos_weight.shape, target.shape))
    if target.dtype is bool_:  # then (1 - target), whose 1 torch takes as a second bool
        no_bool(True, target)
    _in_place_broadcast(target.shape, input.shape)  # (1 - target).mul_(input)
    if result_type(input, target)._category > target.dtype._category:
        raise _args.cast_error(result_type(input, target), target.dtype)
    params: dict = {}
    if input.shape != target.shape:  # (its backward takes the input's shape)
        params["input_shape"] = tuple(input.shape)
        input = input.expand(target.shape)
    if pos_weight is not None:  # (pos_weight - 1) * target into the log-sigmoid in place,
        # then the loss times weight in place
        params["pos_weight"] = pos_weight.detach().to(input.dtype)  # (for the gradient)
        # the loss: (pos_weight - 1) in its dtype, then times the target in their common one
        params["pos_weight_as_given"] = pos_weight.detach()
        params["pos_weight_dtype"] = result_type(pos_weight, target)
    if weight is not None:
        _in_place_broadcast(input.shape, weight.shape)
        params.update(_weights(weight, input, target))
    return losses.BinaryCrossEntropyWithLogits.apply(input, target, reduction=reduction,
                                                     params=params)


def l1_loss(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None,
            reduction: str = "mean", weight: Tensor | None = None) -> Tensor:
    """The mean (or sum, or each) of the absolute differences (torch builds it from ``abs``),
    each weighted by ``weight`` if given.

    >>> F.l1_loss(minitorch.tensor([1., -3.]), minitorch.zeros(2))
    tensor(2.)
    """
    check_operands(input, target)
    shape = tuple(input.shape)
    input, target = _same_shape(input, target)
    reduction = _check_reduction(reduction, size_average, reduce)
    if weight is not None:
        check_weight(weight, shape)
        return weighted((input - target).abs(), weight, reduction)
    each = (input - target).abs()
    if reduction == "none":
        return each
    return each.mean() if reduction == "mean" else each.sum()


def smooth_l1_loss(input: Tensor, target: Tensor, size_average: Any = None,
                   reduce: Any = None, reduction: str = "mean", beta: float = 1.0) -> Tensor:
    """Squared error below ``beta``, absolute error above it.

    >>> F.smooth_l1_loss(minitorch.tensor([0.5, 3.]), minitorch.zeros(2), reduction="none")
    tensor([0.1250, 2.5000])
    """
    check_operands(input, target)
    if beta == 0:  # torch's smooth L1 with beta 0 is its L1 loss, nodes included
        return l1_loss(input, target, size_average, reduce, reduction)
    input, target, reduction = elementwise_pair(input, target, reduction, size_average, reduce)
    beta = _args.real("smooth_l1_loss", beta, "beta", 4)
    if not beta >= 0:  # nan too, as torch's check
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    input, target = kernel_operands("smooth_l1", input, target)
    return losses.SmoothL1Loss.apply(input, target, reduction=reduction,
                                     params={"beta": beta})


def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean",
               delta: float = 1.0, weight: Tensor | None = None) -> Tensor:
    """Squared error up to ``delta``, then ``delta`` times the absolute error.

    >>> F.huber_loss(minitorch.tensor([0.5, 3.]), minitorch.zeros(2), reduction="sum")
    tensor(2.6250)
    """
    check_operands(input, target)
    shape, target_dtype = tuple(input.shape), target.dtype
    input, target, reduction = elementwise_pair(input, target, reduction)
    if weight is not None:
        check_weight(weight, shape)
    delta = _args.real("huber_loss", delta, "delta", 4)
    if not delta > 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    input, target = kernel_operands("huber", input, target, out=input.dtype)
    params: dict = {"delta": delta, "target_dtype": target_dtype}
    if weight is not None:  # torch's Python path: each loss times its weight, then the mean
        each = losses.HuberLoss.apply(input, target, reduction="none", params=params)
        return weighted(each, weight, reduction, over_weights=False)
    return losses.HuberLoss.apply(input, target, reduction=reduction, params=params)
