"""The losses torch composes from other ops (in its Python or in its C++), composed the same
way here so that the values round as torch's and the graph has torch's nodes: margin ranking,
hinge embedding, cosine embedding, soft margin, multi-label soft margin, triplet margin,
Poisson and Gaussian negative log-likelihood, with ``pairwise_distance`` and
``cosine_similarity``. ``minitorch.nn.functional`` re-exports them.

>>> import minitorch
>>> from minitorch.nn import functional as F
>>> F.margin_ranking_loss(minitorch.tensor([1.]), minitorch.tensor([2.]), minitorch.tensor([1.]))
tensor(1.)
"""

from __future__ import annotations

import math
from typing import Any

from .. import _args, _call_form, _creation, _dtype
from .._dtype import int64, result_type
from .._tensor import Tensor, broadcast_pair, broadcast_shapes, check_output_shape
from ..autograd.grad_mode import no_grad
from ..linalg import vector_norm
from ..ops import losses
from ..ops.activation import logsigmoid
from ..ops.ctc import CtcLoss
from ..ops.norm import Norm, _check_identity
from ..ops.pointwise import where
from .functional_losses import _check_reduction, not_differentiable

__all__ = ["cosine_embedding_loss", "cosine_similarity", "ctc_loss", "gaussian_nll_loss",
           "hinge_embedding_loss", "margin_ranking_loss", "multi_margin_loss",
           "multilabel_margin_loss", "multilabel_soft_margin_loss", "pairwise_distance",
           "poisson_nll_loss", "soft_margin_loss", "triplet_margin_loss",
           "triplet_margin_with_distance_loss"]


def _reduced(output: Tensor, reduction: str) -> Tensor:
    """torch's ``apply_loss_reduction``: the mean, the sum, or each."""
    if reduction == "none":
        return output
    return output.mean() if reduction == "mean" else output.sum()


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                        size_average: Any = None, reduce: Any = None,
                        reduction: str = "mean") -> Tensor:
    """``max(0, -target * (input1 - input2) + margin)``: input1 should rank above input2 where
    ``target`` is 1, below it where -1.

    >>> F.margin_ranking_loss(minitorch.tensor([1.]), minitorch.tensor([2.]),
    ...                       minitorch.tensor([-1.]), reduction="none")
    tensor([0.])
    """
    reduction = _check_reduction(reduction, size_average, reduce)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():  # (torch's Python:
        # dim() and size() read in this order)
        raise RuntimeError("margin_ranking_loss : All input tensors should have same dimension "
                           f"but got sizes: input1: {input1.size()}, input2: {input2.size()}, "
                           f"target: {target.size()} ")
    return ranking_kernel(input1, input2, target, margin, reduction)


def ranking_kernel(input1: Tensor, input2: Tensor, target: Tensor, margin: float,
                   reduction: str) -> Tensor:
    """torch's C++ ``margin_ranking_loss``: its parser's reading of the arguments, then
    ``max(0, -target * (input1 - input2) + margin)`` of the broadcast tensors.

    >>> ranking_kernel(minitorch.ones(2, 1), minitorch.zeros(3), minitorch.ones(1), 0., "sum")
    tensor(0.)
    """
    margin = _parsed_loss("margin_ranking_loss", (input1, "input1"), (input2, "input2"),
                          (target, "target"), margin=("float", margin, "margin"))
    difference = input1 - input2  # torch's C++ computes the product's right operand first
    return _reduced((-target * difference + margin).clamp_min(0), reduction)


def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0,
                         size_average: Any = None, reduce: Any = None,
                         reduction: str = "mean") -> Tensor:
    """``input`` where ``target`` is 1, ``max(0, margin - input)`` where it is -1.

    >>> F.hinge_embedding_loss(minitorch.tensor([0.3, 2.]), minitorch.tensor([1., -1.]),
    ...                        reduction="none")
    tensor([0.3000, 0.0000])
    """
    reduction = _check_reduction(reduction, size_average, reduce)
    margin = _parsed_loss("hinge_embedding_loss", (input, "input"), (target, "target"),
                          margin=("float", margin, "margin"))
    zeros = _creation.zeros_like(input)
    # torch's C++ ``margin - input``: the margin filled into the input's dtype, less the input
    margin_clamp = zeros.clone().fill_(margin).sub_(input).clamp_min(0)
    output_margin = where(target != 1, margin_clamp, zeros)
    output_self = where(target != -1, input, zeros)
    return _reduced(output_margin + output_self, reduction)


def soft_margin_loss(input: Tensor, target: Tensor, size_average: Any = None,
                     reduce: Any = None, reduction: str = "mean") -> Tensor:
    """``log(1 + exp(-target * input))``, the logistic loss of labels -1 and 1.

    >>> F.soft_margin_loss(minitorch.tensor([0.]), minitorch.tensor([1.]))
    tensor(0.6931)
    """
    reduction = _check_reduction(reduction, size_average, reduce)
    _parsed_loss("soft_margin_loss", (input, "input"), (target, "target"))
    not_differentiable("soft_margin_loss", target, "target")  # autograd's, before the kernel
    # torch's kernel computes in place in the input's dtype: -input, * target, exp, log1p
    if input.dtype is _dtype.bool:
        input.neg()  # torch's refusal of a bool's negation
    check_output_shape(tuple(input.shape), broadcast_pair(input, target))  # (mul_'s shapes
    dt = result_type(input, target)  # are checked before its cast)
    for step in (dt, dt if dt.is_floating_point else _dtype.get_default_dtype()):
        if step._category > input.dtype._category:
            raise _args.cast_error(step, input.dtype)
    return losses.SoftMarginLoss.apply(input, target, reduction=reduction)


def _parsed_loss(fn: str, *tensors: tuple, **others: tuple) -> Any:
    """The arguments of torch's C++ loss ``fn`` read by its parser: the tensors
    ``(value, name)`` first in their positions, then the others ``(kind, value, name)`` (see
    :func:`_args.parsed`); the others' values come back (one alone as itself).

    >>> _parsed_loss("hinge_embedding_loss", (minitorch.ones(1), "input"), (1.0, "target"))
    Traceback (most recent call last):
    TypeError: hinge_embedding_loss(): argument 'target' (position 2) must be Tensor, not float
    """
    specs = [("tensor", value, name, i + 1) for i, (value, name) in enumerate(tensors)]
    specs += [(kind, value, name, len(tensors) + i + 1 if position else None)
              for i, (kind, value, name, *position) in enumerate(
                  (*spec, True) if len(spec) == 3 else spec for spec in others.values())]
    values = _args.parsed(fn, *specs)[len(tensors):]
    return values[0] if len(values) == 1 else values


def multilabel_soft_margin_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                size_average: Any = None, reduce: Any = None,
                                reduction: str = "mean") -> Tensor:
    """The logistic loss of each class (targets 0 or 1), averaged over the classes.

    >>> F.multilabel_soft_margin_loss(minitorch.zeros(1, 2), minitorch.tensor([[1., 0.]]))
    tensor(0.6931)
    """
    if size_average is not None or reduce is not None:
        reduction = _check_reduction(reduction, size_average, reduce)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.size(class_dim)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    return _reduced(loss, reduction)


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                          size_average: Any = None, reduce: Any = None,
                          reduction: str = "mean") -> Tensor:
    """``1 - cos(input1, input2)`` where ``target`` is 1, ``max(0, cos - margin)`` where -1.

    >>> F.cosine_embedding_loss(minitorch.tensor([[1., 0.]]), minitorch.tensor([[0., 1.]]),
    ...                         minitorch.tensor([1.]))
    tensor(1.)
    """
    reduction = _check_reduction(reduction, size_average, reduce)
    margin = _parsed_loss("cosine_embedding_loss", (input1, "input1"), (input2, "input2"),
                          (target, "target"), margin=("float", margin, "margin"))
    dim = target.dim()
    if dim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if input1.dim() != dim + 1 or input2.dim() != dim + 1:
        raise RuntimeError(f"{dim}D target tensor expects {dim + 1}D input tensors, but found "
                           f"inputs with sizes {list(input1.shape)} and {list(input2.shape)}.")
    prod_sum = (input1 * input2).sum(dim)
    mag_square1 = (input1 * input1).sum(dim) + 1e-12
    mag_square2 = (input2 * input2).sum(dim) + 1e-12
    cos = prod_sum / (mag_square1 * mag_square2).sqrt()
    zeros = _creation.zeros_like(cos)
    output_pos = where(target == 1, 1 - cos, zeros)
    output_neg = where(target == -1, (cos - margin).clamp_min(0), zeros)
    return _reduced(output_pos + output_neg, reduction)


@_call_form.function
def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6,
                      keepdim: bool = False) -> Tensor:
    """The ``p``-norm of ``x1 - x2 + eps`` over the last dimension.

    >>> F.pairwise_distance(minitorch.tensor([[3., 4.]]), minitorch.zeros(1, 2), eps=0.)
    tensor([5.])
    """
    fn = "pairwise_distance"
    _args.tensor_args(fn, (x1, "x1", 1), (x2, "x2", 2))
    p, eps = _args.reals(fn, (p, "p", 3), (eps, "eps", 4))
    keepdim = _args.flag(fn, keepdim, "keepdim", 5)
    dim = max(x1.dim(), x2.dim()) - 1
    diff = x1 - x2 + eps
    if dim >= 0:  # torch's norm refuses an inf or negative p over an empty last dim
        _check_identity(tuple(diff.shape), p, (dim,))
    # 0-d operands: torch's norm over their dim -1 reduces nothing (|d|^p^(1/p), rounded)
    return Norm.apply(diff, p=p, dims=(dim,) if dim >= 0 else (), keepdim=keepdim)


@_call_form.function
def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """The cosine of the angle between ``x1`` and ``x2`` along ``dim``: each divided by its
    2-norm (at least ``eps``) first, as torch does.

    >>> F.cosine_similarity(minitorch.tensor([[1., 1.]]), minitorch.tensor([[2., 2.]]))
    tensor([1.0000])
    """
    x1, x2, dim, eps = _cosine_operands(x1, x2, dim, eps)
    x1_norm = vector_norm(x1, 2, dim, True).clone()  # torch clamps a copy, out of the graph
    x2_norm = vector_norm(x2, 2, dim, True).clone()
    with no_grad():
        x1_norm.clamp_(min=eps)
        x2_norm.clamp_(min=eps)
    return ((x1 / x1_norm) * (x2 / x2_norm)).sum(dim)


def _cosine_operands(x1: Any, x2: Any, dim: Any, eps: Any) -> tuple:
    """cosine_similarity's arguments checked as torch does: the types, a floating common
    dtype (integer operands are converted to it), eps non-negative, then broadcast."""
    fn = "cosine_similarity"
    _args.tensor_args(fn, (x1, "x1", 1), (x2, "x2", 2))
    dim, eps = _args.integer(fn, dim, "dim", 3), _args.real(fn, eps, "eps", 4)
    common = result_type(x1, x2)
    if not common.is_floating_point:
        raise RuntimeError("expected common dtype to be floating point, yet common dtype is "
                           f"{_args.legacy(common)}")
    if not eps >= 0:  # (NaN too)
        raise RuntimeError(f"eps must be non-negative, got: {eps:g}")
    shape = broadcast_shapes(tuple(x1.shape), tuple(x2.shape))
    # only integer operands take the common dtype: a float32 one keeps its own (its norm
    # overflows there as torch's does), the mixed product promotes after
    x1, x2 = (x if x.dtype.is_floating_point else x.to(common) for x in (x1, x2))
    return x1.expand(shape), x2.expand(shape), dim, eps


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor,
                        margin: float = 1.0, p: float = 2, eps: float = 1e-6,
                        swap: bool = False, size_average: Any = None, reduce: Any = None,
                        reduction: str = "mean") -> Tensor:
    """``max(0, d(anchor, positive) - d(anchor, negative) + margin)``, d the pairwise distance.

    >>> F.triplet_margin_loss(minitorch.zeros(1, 2), minitorch.zeros(1, 2), minitorch.ones(1, 2))
    tensor(0.)
    """
    reduction = _check_reduction(reduction, size_average, reduce)

    def parsed() -> float:  # torch.triplet_margin_loss's parser, after the Python's margin
        _args.tensor_args("triplet_margin_loss", (anchor, "anchor", 1),
                          (positive, "positive", 2), (negative, "negative", 3))
        reals = _args.reals("triplet_margin_loss", (margin, "margin", 4), (p, "p", 5),
                            (eps, "eps", 6))
        _args.flag("triplet_margin_loss", swap, "swap", 7)
        return reals[0]  # the margin as the C++ op's double

    return _triplet(anchor, positive, negative, lambda a, b: pairwise_distance(a, b, p, eps),
                    margin, swap, reduction, parsed)


def triplet_margin_with_distance_loss(anchor: Tensor, positive: Tensor, negative: Tensor, *,
                                      distance_function: Any = None, margin: float = 1.0,
                                      swap: bool = False, reduction: str = "mean") -> Tensor:
    """``triplet_margin_loss`` under any ``distance_function`` (``pairwise_distance`` when
    None).

    >>> F.triplet_margin_with_distance_loss(minitorch.zeros(1, 2), minitorch.zeros(1, 2),
    ...     minitorch.ones(1, 2), distance_function=lambda a, b: (a - b).abs().sum(1))
    tensor(0.)
    """
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    distance = pairwise_distance if distance_function is None else distance_function
    return _triplet(anchor, positive, negative, distance, margin, swap, reduction)


def _triplet(anchor: Tensor, positive: Tensor, negative: Tensor, distance: Any, margin: float,
             swap: bool, reduction: str, parsed: Any = None) -> Tensor:
    """torch's composition of the triplet losses, its checks first (``parsed``: a C++ op's
    argument parser, after the margin's)."""
    if _args.python_op(margin, "<=", 0):
        raise ValueError(f"margin must be greater than 0, got {margin}")
    if parsed is not None:
        margin = parsed()
    dims = anchor.ndim, positive.ndim, negative.ndim  # (torch's Python reads ndim)
    if not dims[0] == dims[1] == dims[2]:
        raise RuntimeError("The anchor, positive, and negative tensors are expected to have the "
                           f"same number of dimensions, but got: anchor {dims[0]}D, positive "
                           f"{dims[1]}D, and negative {dims[2]}D inputs")
    dist_pos = _args.python_call(distance, anchor, positive)
    dist_neg = _args.python_call(distance, anchor, negative)
    if swap:
        dist_neg = dist_neg.minimum(_args.python_call(distance, positive, negative))
    import minitorch  # torch.clamp_min, whose parser refuses a distance that is no tensor

    return _reduced(minitorch.clamp_min(margin + dist_pos - dist_neg, 0), reduction)


def multilabel_margin_loss(input: Tensor, target: Tensor, size_average: Any = None,
                           reduce: Any = None, reduction: str = "mean") -> Tensor:
    """The multi-label hinge loss: per sample, ``max(0, 1 - x[j] + x[i])`` summed over its
    target classes ``j`` (``target``'s row up to the first -1) and the other classes ``i``,
    over the class count.

    >>> F.multilabel_margin_loss(minitorch.tensor([[0.1, 0.2, 0.4, 0.8]]),
    ...                          minitorch.tensor([[3, 0, -1, 1]]))
    tensor(0.8500)
    """
    reduction = _check_reduction(reduction, size_average, reduce)
    _parsed_loss("multilabel_margin_loss", (input, "input"), (target, "target"))
    ndim = input.dim()
    if not ((ndim == 2 and input.shape[1] != 0) or (ndim == 1 and input.shape[0] != 0)
            or ndim == 0):
        raise RuntimeError("Expected non-empty vector or matrix with optional 0-dim batch "
                           f"size, but got: {list(input.shape)}")
    fits = (target.dim() <= 1 and target.numel() == (input.numel() if ndim else 1)) \
        if ndim <= 1 else tuple(target.shape) == tuple(input.shape)
    if not fits:
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of "
                           f"size: {list(input.shape)}")
    # torch reads the target's range (as int64s) before it dispatches on either dtype
    if target.numel() and not (int(target.min()) >= -1 and int(target.max()) < max(
            input.shape[-1] if ndim else 1, 1)):
        raise RuntimeError("argument #2 'target' is out of range")
    if input.dtype.name not in ("float32", "float64"):
        raise _args.not_implemented("multilabel_margin_loss_forward_out_frame", input.dtype)
    _args.scalar_type(int64, target.dtype)
    return losses.MultiLabelMarginLoss.apply(input, target, reduction=reduction)


def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool = True, full: bool = False,
                     size_average: Any = None, eps: float = 1e-8, reduce: Any = None,
                     reduction: str = "mean") -> Tensor:
    """The negative log-likelihood of counts ``target`` under Poisson rates ``input`` (their
    logs when ``log_input``); ``full`` adds Stirling's term.

    >>> F.poisson_nll_loss(minitorch.zeros(1), minitorch.ones(1))
    tensor(1.)
    """
    if size_average is not None or reduce is not None:
        reduction = _check_reduction(reduction, size_average, reduce)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not a valid value for reduction")
    log_input, full, eps = _parsed_loss(
        "poisson_nll_loss", (input, "input"), (target, "target"),
        log_input=("bool", log_input, "log_input"), full=("bool", full, "full"),
        eps=("float", eps, "eps"))
    loss = input.exp() - target * input if log_input else input - target * (input + eps).log()
    if full:
        stirling = target * target.log() - target + 0.5 * (2 * math.pi * target).log()
        loss = loss + stirling.masked_fill(target <= 1, 0)
    return _reduced(loss, reduction)


def gaussian_nll_loss(input: Tensor, target: Tensor, var: Tensor | float, full: bool = False,
                      eps: float = 1e-6, reduction: str = "mean") -> Tensor:
    """The negative log-likelihood of ``target`` under normals of mean ``input`` and variance
    ``var`` (clamped to at least ``eps``, out of the graph).

    >>> F.gaussian_nll_loss(minitorch.zeros(1), minitorch.zeros(1), minitorch.ones(1))
    tensor(0.)
    """
    import minitorch  # (torch.any, the package's: nn loads first)

    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * _creation.ones_like(input)
    elif bool(minitorch.any(var < 0)):  # torch.any (its parser refuses what is no tensor)
        raise ValueError("var has negative entry/entries")
    if var.size() != input.size():  # (torch's Python asks size() and ndim: its refusals)
        if input.size()[:-1] == var.size():
            var = var.unsqueeze(-1)
        elif not (input.ndim == var.ndim
                  and sum(y for x, y in zip(input.size(), var.size()) if x != y) == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduced(loss, reduction)


def multi_margin_loss(input: Tensor, target: Tensor, p: int = 1, margin: float = 1.0,
                      weight: Tensor | None = None, size_average: Any = None,
                      reduce: Any = None, reduction: str = "mean") -> Tensor:
    """The multi-class hinge loss: per sample, ``max(0, margin - x[y] + x[i])`` (to the power
    ``p``, 1 or 2) summed over the other classes, over the class count.

    >>> F.multi_margin_loss(minitorch.tensor([[0.1, 0.2, 0.4]]), minitorch.tensor([2]))
    tensor(0.5000)
    """
    if size_average is not None or reduce is not None:
        reduction = _check_reduction(reduction, size_average, reduce)
    reduction = _check_reduction(reduction)  # torch reads it before p and the weight
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    _args.tensor_args("multi_margin_loss", (input, "input", 1), (target, "target", 2))
    (margin,) = _args.numbers("multi_margin_loss", (margin, "margin", 4))  # (its parser's)
    if weight is not None:
        not_differentiable("multi_margin_loss", weight, "weight")
    ndim = input.dim()
    if not ((ndim == 2 and input.shape[1] != 0) or (ndim == 1 and input.shape[0] != 0)
            or ndim == 0):
        raise RuntimeError("Expected non-empty vector or matrix with optional 0-dim batch "
                           f"size, but got: {list(input.shape)}")
    frames, dim = (1, input.shape[0] if ndim == 1 else 1) if ndim < 2 else input.shape
    if not (target.dim() <= 1 and target.numel() == frames):
        raise RuntimeError("multi_margin_loss: target tensor should be 1-D with size equal "
                           "to the number of input samples (batch size). Expected target size "
                           f"[{frames}], but got {list(target.shape)}. Input has shape "
                           f"{list(input.shape)}.")
    if weight is not None and weight.numel() != dim:
        raise RuntimeError(f"inconsistent weight size, expected {dim} but got "
                           f"{list(weight.shape)}")
    if input.numel():  # torch's kernel reads the arrays as these dtypes
        if input.dtype.name not in ("float32", "float64"):
            raise _args.not_implemented("multi_margin_loss_cpu_kernel", input.dtype)
        margin = _args.kernel_scalar(margin, input.dtype)
        _args.scalar_type(int64, target.dtype)
        if weight is not None:
            _args.scalar_type(input.dtype, weight.dtype)
    else:  # torch returns before it reads the target
        target = target.long()
    if target.numel() and bool(((target < 0) | (target >= dim)).any()):
        raise RuntimeError("target out of range")
    return losses.MultiMarginLoss.apply(input, target, p=p, margin=margin,
                                        weight=None if weight is None else weight.detach(),
                                        reduction=reduction)


_CTC_SIGNATURES = tuple(
    f"Tensor log_probs, Tensor targets, {kind} input_lengths, {kind} target_lengths, "
    "int blank = 0, int reduction = at::Reduction::Mean, bool zero_infinity = False"
    for kind in ("tuple of ints", "Tensor"))
_REDUCTION_ENUM = {"none": 0, "mean": 1, "sum": 2}


def _int_list(value: Any) -> bool:
    """Whether torch's parser matches ``value`` as a tuple of ints (its first item decides;
    the others are read when unpacked)."""
    return isinstance(value, (tuple, list)) and (not value or _args.as_int(value[0]) is not None)


def _ctc_call(log_probs: Any, targets: Any, input_lengths: Any, target_lengths: Any,
              blank: Any, reduction: str, zero_infinity: Any) -> tuple[list, list, int]:
    """The lengths (as lists) and blank of a ``ctc_loss`` call, read as torch reads them:
    the reduction in Python, then one of the two overloads (both lengths int lists, or both
    tensors) with an int blank and a bool ``zero_infinity``."""
    enum = _REDUCTION_ENUM[_check_reduction(reduction)]
    args = (log_probs, targets, input_lengths, target_lengths, blank, enum, zero_infinity)
    as_tensors = all(isinstance(n, Tensor) for n in (input_lengths, target_lengths))
    if not (isinstance(log_probs, Tensor) and isinstance(targets, Tensor)
            and (as_tensors or (_int_list(input_lengths) and _int_list(target_lengths)))
            and _args.as_int(blank) is not None and isinstance(zero_infinity, bool)):
        raise TypeError(_call_form.combination_message("ctc_loss", args, {}, _CTC_SIGNATURES))
    if as_tensors:
        for lengths, name in ((input_lengths, "input_lengths"), (target_lengths, "target_lengths")):
            if lengths.dtype.is_floating_point or lengths.dtype == _dtype.bool:
                raise RuntimeError(f"{name} must be integral")
        return input_lengths.reshape(-1).tolist(), target_lengths.reshape(-1).tolist(), int(blank)
    target_list = _args.sizes("ctc_loss", (target_lengths,), "target_lengths", False)
    input_list = _args.sizes("ctc_loss", (input_lengths,), "input_lengths", False)
    return list(input_list), list(target_list), _args.as_int(blank)


def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths: Any, target_lengths: Any,
             blank: int = 0, reduction: str = "mean", zero_infinity: bool = False) -> Tensor:
    """The connectionist temporal classification loss: the negative log likelihood of each
    target sequence (padded rows of ``targets``, or all of them end to end) under
    ``log_probs`` (frames, batch, classes: a log_softmax), summing over every alignment.
    'mean' divides each sample's loss by its target length first; ``zero_infinity`` gives
    0 (and a zero gradient) where a target cannot be aligned.

    >>> lp = minitorch.zeros(2, 1, 2).log_softmax(2)
    >>> F.ctc_loss(lp, minitorch.tensor([[1]]), [2], [1])
    tensor(0.2877)
    """
    input_lengths, target_lengths, blank = _ctc_call(
        log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity)
    if reduction == "elementwise_mean":  # _ctc_call read (and warned of) the old name
        reduction = "mean"
    unbatched = log_probs.dim() != 3  # (torch's kernel then finds the wrong rank, one more)
    if unbatched:
        log_probs = log_probs.unsqueeze(1)
    nll = CtcLoss.apply(log_probs, targets, input_lengths=input_lengths,
                        target_lengths=target_lengths, blank=blank, zero_infinity=zero_infinity)
    if zero_infinity:
        nll = where(nll == math.inf, _creation.zeros((), dtype=nll.dtype), nll)
    if reduction == "mean":
        lengths = _creation.tensor(target_lengths, dtype=nll.dtype).clamp_min(1)
        return (nll / lengths).mean()
    if reduction == "sum":
        return nll.sum()
    return nll.squeeze(0) if unbatched else nll
