"""``nn.functional``: the layers as functions of their inputs and weights.

Each function builds the same backward nodes as torch's, so a model's graph reads the same:

>>> import minitorch
>>> import minitorch.nn.functional as F
>>> x = minitorch.ones(2, 3, requires_grad=True)
>>> F.linear(x, minitorch.ones(4, 3)).grad_fn.name()
'MmBackward0'
>>> F.cross_entropy(x, minitorch.tensor([0, 2])).grad_fn.name()
'NllLossBackward0'
"""

from __future__ import annotations

import inspect
import math
import warnings
from collections.abc import Iterable
from typing import Any

from .. import _args, _call_form, _creation, _factories, backend, overrides
from .._batched import (
    BatchedTensor,
    check_folded_dtypes,
    check_inner_sizes,
    check_running_stats,
)
from .._batched import linear as batched_linear
from .._dtype import int64
from .._tensor import Tensor
from ..autograd import profiler
from ..backend import namespace
from ..ops import _batch_norm_order as bn_order
from ..ops import _out, nn_ops
from ..ops._base import Op, check_same_device, like, wrap
from ..ops.activation import elu, gelu, hardtanh, hardtanh_, leaky_relu, logsigmoid, relu6, silu
from ..ops.activation_more import (
    celu,
    glu,
    hardsigmoid,
    hardswish,
    mish,
    prelu,
    selu,
    softsign,
    tanhshrink,
    threshold,
)
from ..ops.adaptive_pool import (
    adaptive_avg_pool1d,
    adaptive_avg_pool2d,
    adaptive_avg_pool3d,
    adaptive_max_pool2d,
    adaptive_max_pool3d,
)
from ..ops.channel_shuffle import channel_shuffle, native_channel_shuffle
from ..ops.dist import pdist
from ..ops.einsum import einsum
from ..ops.embedding import embedding, one_hot
from ..ops.embedding_bag import embedding_bag
from ..ops.hardshrink import hardshrink, softshrink
from ..ops.kl_div import kl_div
from ..ops.linalg import addmm
from ..ops.normalize import (
    check_mixed_dtype,
    layer_norm,
    mixed_mode,
    normalize,
    opmath_array,
    opmath_tensors,
    rms_norm,
)
from ..ops.pad import pad
from ..ops.pixel_shuffle import pixel_shuffle, pixel_unshuffle
from ..ops.pointwise import DivScalar
from ..ops.rrelu import rrelu
from ..ops.special import softplus
from ..ops.unfold import fold, unfold
from .functional_attention import scaled_dot_product_attention
from .functional_conv import (
    check_pool_geometry,
    conv2d,
    conv3d,
    conv_transpose1d,
    conv_transpose2d,
    conv_transpose3d,
    max_pool2d,
    max_pool3d,
    pool_out_size,
)
from .functional_conv1d import conv1d, max_pool1d, max_unpool1d, max_unpool2d, max_unpool3d
from .functional_grid import affine_grid, grid_sample
from .functional_interpolate import interpolate, upsample, upsample_bilinear, upsample_nearest
from .functional_losses import (
    _check_reduction,
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    check_operands,
    check_weight,
    elementwise_pair,
    floating_kernel,
    huber_loss,
    kernel_operands,
    l1_loss,
    not_differentiable,
    smooth_l1_loss,
    weighted,
)
from .functional_losses_more import (
    cosine_embedding_loss,
    cosine_similarity,
    ctc_loss,
    gaussian_nll_loss,
    hinge_embedding_loss,
    margin_ranking_loss,
    multi_margin_loss,
    multilabel_margin_loss,
    multilabel_soft_margin_loss,
    pairwise_distance,
    poisson_nll_loss,
    soft_margin_loss,
    triplet_margin_loss,
    triplet_margin_with_distance_loss,
)

__all__ = [
    "adaptive_avg_pool1d",
    "adaptive_avg_pool2d",
    "adaptive_avg_pool3d",
    "adaptive_max_pool1d",
    "adaptive_max_pool2d",
    "adaptive_max_pool3d",
    "affine_grid",
    "alpha_dropout",
    "avg_pool1d",
    "avg_pool2d",
    "avg_pool3d",
    "batch_norm",
    "bilinear",
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "celu",
    "celu_",
    "channel_shuffle",
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
    "cosine_embedding_loss",
    "cosine_similarity",
    "cross_entropy",
    "ctc_loss",
    "dropout",
    "dropout1d",
    "dropout2d",
    "dropout3d",
    "elu",
    "elu_",
    "embedding",
    "embedding_bag",
    "feature_alpha_dropout",
    "fold",
    "gaussian_nll_loss",
    "gelu",
    "glu",
    "grid_sample",
    "group_norm",
    "gumbel_softmax",
    "hardshrink",
    "hardsigmoid",
    "hardswish",
    "hardtanh",
    "hardtanh_",
    "hinge_embedding_loss",
    "huber_loss",
    "instance_norm",
    "interpolate",
    "kl_div",
    "l1_loss",
    "layer_norm",
    "leaky_relu",
    "leaky_relu_",
    "linear",
    "local_response_norm",
    "log_softmax",
    "logsigmoid",
    "lp_pool1d",
    "lp_pool2d",
    "lp_pool3d",
    "margin_ranking_loss",
    "max_pool1d",
    "max_pool2d",
    "max_pool3d",
    "max_unpool1d",
    "max_unpool2d",
    "max_unpool3d",
    "mish",
    "mse_loss",
    "multi_margin_loss",
    "multilabel_margin_loss",
    "multilabel_soft_margin_loss",
    "native_channel_shuffle",
    "nll_loss",
    "normalize",
    "one_hot",
    "pad",
    "pairwise_distance",
    "pdist",
    "pixel_shuffle",
    "pixel_unshuffle",
    "poisson_nll_loss",
    "prelu",
    "relu",
    "relu6",
    "relu_",
    "rms_norm",
    "rrelu",
    "rrelu_",
    "scaled_dot_product_attention",
    "selu",
    "selu_",
    "sigmoid",
    "silu",
    "smooth_l1_loss",
    "soft_margin_loss",
    "softmax",
    "softmin",
    "softplus",
    "softshrink",
    "softsign",
    "tanh",
    "tanhshrink",
    "threshold",
    "threshold_",
    "triplet_margin_loss",
    "triplet_margin_with_distance_loss",
    "unfold",
    "upsample",
    "upsample_bilinear",
    "upsample_nearest",
]


# ---- linear and activations --------------------------------------------------------------
@_args.tensors("linear", input="input", weight="weight", bias="bias")
def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``input @ weight.T + bias``, as one ``addmm`` when there is a bias.

    >>> F.linear(minitorch.ones(3), minitorch.ones(2, 3), minitorch.zeros(2))
    tensor([3., 3.])
    """
    if isinstance(weight, BatchedTensor) or isinstance(bias, BatchedTensor):
        return batched_linear(input, weight, bias)  # vmap over an ensemble's weights
    if isinstance(input, BatchedTensor) and isinstance(weight, Tensor) and weight.dim() == 2:
        check_inner_sizes(input, weight.t())  # (torch's batch rule folds the batch in)
        check_folded_dtypes(input, weight)
    if input.dim() == 0 or weight.dim() == 0:
        raise RuntimeError("both arguments to linear need to be at least 1D, but they are "
                           f"{input.dim()}D and {weight.dim()}D")
    if bias is not None:  # torch checks the bias against the input (the weight it does not)
        check_same_device(input, bias)
    return profiler.run_op("aten::linear", "aten::linear", lambda: _linear(input, weight, bias),
                           (input, weight, bias))


def _linear(input: Tensor, weight: Tensor, bias: Tensor | None) -> Tensor:
    if bias is None:
        return input.matmul(weight.t())
    if input.dim() == 2:
        return addmm(bias, input, weight.t())
    one_row = bias.dim() == 1 or bias.squeeze().dim() == 1
    if not (one_row and bias.is_contiguous() and input.is_contiguous()):
        # torch fuses only a bias of one row into addmm (its "likely fusable" bias), and
        # only for a contiguous input; else it adds the bias to the product in place, so the
        # product's dtype and shape must hold the sum
        return input.matmul(weight.t()).add_(bias)
    # Other ranks go through a matrix of rows, as torch does (ViewBackward0 ← AddmmBackward0).
    # the row count spelled out: -1 is ambiguous for an input with no features
    rows = addmm(bias, input.reshape(math.prod(input.shape[:-1]), input.shape[-1]), weight.t())
    return rows.reshape(*input.shape[:-1], weight.shape[0])


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None
             ) -> Tensor:
    """``y[..., o] = input1[..., i] weight[o, i, j] input2[..., j] + bias[o]``.

    >>> F.bilinear(minitorch.ones(4, 2), minitorch.ones(4, 3), minitorch.ones(5, 2, 3)).shape
    torch.Size([4, 5])
    """
    _args.tensor_args("bilinear", (input1, "input1", 1), (input2, "input2", 2),
                      (weight, "weight", 3))
    if bias is not None:
        _args.tensor_args("bilinear", (bias, "bias", 4))
    named = {"input1": input1, "input2": input2, "weight": weight, "bias": bias}
    if len({t.dtype for t in named.values() if t is not None}) > 1:
        raise RuntimeError("All tensors must have the same dtype, got " + ", ".join(
            f"{name}: {_args.c_name(t.dtype)}" for name, t in named.items() if t is not None))
    if input1.dim() != input2.dim():
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.dim()} and "
                           f"{input2.dim()}")
    for d in range(input1.dim() - 1):
        if input1.size(d) != input2.size(d):
            raise RuntimeError(f"bilinear(): input batch dimensions do not match at dim {d}: "
                               f"got {input1.size(d)} and {input2.size(d)}")
    for k, x in ((1, input1), (2, input2)):
        if x.size(-1) != weight.size(k):
            raise RuntimeError(f"bilinear(): input{k} size does not match weight size: got "
                               f"{x.size(-1)} but expected {weight.size(k)}")
    if bias is not None and bias.size(0) != weight.size(0):
        raise RuntimeError(f"bilinear(): bias size does not match weight size: got "
                           f"{bias.size(0)} but expected {weight.size(0)}")
    out = einsum("...i,oij,...j->...o", input1, weight, input2)
    return out if bias is None else out + bias


@_args.tensors("relu", python=True, input="input")
def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """``max(x, 0)`` element-wise (node ``ReluBackward0``), optionally in place.

    >>> F.relu(minitorch.tensor([-1., 2.]))
    tensor([0., 2.])
    """
    if inplace:
        return input._inplace(Tensor.relu)
    return input.relu()


def _inplace_form(fn: Any, example: str = "") -> Any:
    """``F.<fn>_(input, ...)``: ``fn(input, ..., inplace=True)``, as torch's in-place forms
    (``example``: the arguments after the input in its docstring's example)."""

    def inplace(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        return fn(input, *args, **kwargs, inplace=True)

    inplace.__name__ = f"{fn.__name__}_"
    signature = inspect.signature(fn)  # (for the call form: which argument came where)
    inplace.__signature__ = signature.replace(parameters=[  # type: ignore[attr-defined]
        p for name, p in signature.parameters.items() if name != "inplace"])
    inplace.__doc__ = f"In-place ``{fn.__name__}``.\n\n    >>> F.{fn.__name__}_(" \
                      f"minitorch.tensor([-1., 2.]){example}).shape\n    torch.Size([2])\n    "
    return inplace


relu_, elu_, leaky_relu_, selu_, celu_ = map(
    _inplace_form, (relu, elu, leaky_relu, selu, celu))
threshold_ = _inplace_form(threshold, ", 0., 1.")
rrelu_ = _inplace_form(rrelu)


def sigmoid(input: Tensor) -> Tensor:
    """``1 / (1 + exp(-x))`` element-wise.

    >>> F.sigmoid(minitorch.zeros(1))
    tensor([0.5000])
    """
    _args.python_attribute(input, "sigmoid")  # torch's F.sigmoid is Python: input.sigmoid()
    return input.sigmoid()


def tanh(input: Tensor) -> Tensor:
    """Hyperbolic tangent element-wise.

    >>> F.tanh(minitorch.zeros(1))
    tensor([0.])
    """
    _args.python_attribute(input, "tanh")
    return input.tanh()


def _softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to "
                  "include dim=X as an argument.", stacklevel=stacklevel)  # (torch's: the
    # caller's ``_stacklevel``, which Python then checks is an int)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
                   dtype: Any = None) -> Tensor:
    """``exp(x) / exp(x).sum(dim)`` (node ``SoftmaxBackward0``).

    >>> F.softmax(minitorch.zeros(1, 2), dim=1)
    tensor([[0.5000, 0.5000]])
    """
    if overrides.has_torch_function_unary(input):  # (in the body: it warns, see below)
        return overrides.handle_torch_function(softmax, (input,), input, dim=dim,
                                           _stacklevel=_stacklevel, dtype=dtype)
    _args.python_attribute(input, "dim" if dim is None else "softmax")  # what torch reads
    if dim is None:
        dim = _softmax_dim("softmax", input.dim(), _stacklevel)
    return input.softmax(dim, dtype=dtype)  # the method, as torch's (its messages' positions)


@_call_form.boolean_dispatch("adaptive_max_pool1d", 2)
def adaptive_max_pool1d(input: Tensor, output_size: Any,
                        return_indices: bool = False) -> Any:
    """The maxima of ``output_size`` adaptive windows along the last dim (and, with
    ``return_indices``, where they are: ``minitorch.adaptive_max_pool1d``).

    >>> F.adaptive_max_pool1d(minitorch.tensor([[1., 3., 2., 0.]]), 1)
    tensor([[3.]])
    """
    from .. import _nn_functions  # it reads this module's functions at its import

    values, indices = _nn_functions.adaptive_max_pool1d(input, output_size)
    return (values, indices) if return_indices else values


def softmin(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
            dtype: Any = None) -> Tensor:
    """``softmax(-x, dim)`` (nodes ``SoftmaxBackward0`` over ``NegBackward0``).

    >>> F.softmin(minitorch.tensor([0., 0.]), dim=0)
    tensor([0.5000, 0.5000])
    """
    if overrides.has_torch_function_unary(input):  # (in the body: it warns, see below)
        return overrides.handle_torch_function(softmin, (input,), input, dim=dim,
                                           _stacklevel=_stacklevel, dtype=dtype)
    if dim is None:
        _args.python_attribute(input, "dim")
        dim = _softmax_dim("softmin", input.dim(), _stacklevel)
    return (-input).softmax(dim, dtype=dtype)


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
                       dtype: Any = None) -> Tensor:
    """``log(softmax(x, dim))`` computed stably (node ``LogSoftmaxBackward0``).

    >>> F.log_softmax(minitorch.zeros(2), dim=0)
    tensor([-0.6931, -0.6931])
    """
    if overrides.has_torch_function_unary(input):  # (in the body: it warns, see below)
        return overrides.handle_torch_function(log_softmax, (input,), input, dim=dim,
                                           _stacklevel=_stacklevel, dtype=dtype)
    _args.python_attribute(input, "dim" if dim is None else "log_softmax")  # what torch reads
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim(), _stacklevel)
    return input.log_softmax(dim, dtype=dtype)  # the method, as torch's (its messages' positions)


def gumbel_softmax(logits: Tensor, tau: float = 1, hard: bool = False, eps: float = 1e-10,
                   dim: int = -1) -> Tensor:
    """A differentiable draw from the categorical of ``logits``: ``softmax((logits + g) /
    tau)``, g Gumbel noise (torch's draw: minus the log of ``exponential_``). ``hard`` gives
    the one-hot of its argmax, with the soft draw's gradient (straight-through).

    >>> _ = minitorch.manual_seed(0)
    >>> F.gumbel_softmax(minitorch.zeros(2, 3), hard=True).sum(1)
    tensor([1., 1.])
    """
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    gumbels = -_factories.empty_like(logits).exponential_().log()
    y_soft = _args.python_op(logits + gumbels, "/", tau).softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = _creation.zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft


# ---- dropout and pooling -----------------------------------------------------------------
def dropout(input: Tensor, p: float = 0.5, training: bool = True,
            inplace: bool = False) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by ``1/(1-p)``.

    Outside training it returns ``input`` itself. The mask comes from minitorch's generator
    (see ``minitorch.manual_seed``); the node is ``MulBackward0``, as in torch.

    >>> F.dropout(minitorch.ones(3), p=0.5, training=False)
    tensor([1., 1., 1.])
    """
    _dropout_range(p)  # torch's Python check, before its parser's
    return _vf_dropout("dropout", input, p, training, inplace, False, False)


def _dropout(input: Tensor, p: float, training: bool, inplace: bool = False,
             feature: bool = False, alpha: bool = False) -> Tensor:
    """torch's C++ dropout (which attention calls too): its own range check, which nan
    fails, then the mask. ``feature`` draws one mask value per (sample, channel); ``alpha``
    sends dropped values to SELU's saturation and rescales to keep mean and variance."""
    if not 0 <= p <= 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p:g}")
    if not training or p == 0 or input.numel() == 0:
        return input
    if p == 1:
        noise = _creation.zeros((), dtype=input.dtype, device=input.device)
        return input.mul_(noise) if inplace else input * noise
    # torch's steps: a mask by bernoulli_(1 - p), scaled in place (so an integer input's
    # mask cannot take the float quotient)
    noise = (_creation.empty(_noise_shape(input), dtype=input.dtype, device=input.device)
             if feature else _empty_like(input)).bernoulli_(1 - p)
    if not alpha:
        noise.div_(1 - p)
        return input.mul_(noise) if inplace else input * noise
    a = 1.0 / math.sqrt((_SELU_ALPHA * _SELU_ALPHA * p + 1) * (1 - p))
    shift = noise.add(-1).mul_(_SELU_ALPHA * a).add_(_SELU_ALPHA * a * p)
    noise.mul_(a)
    return (input.mul_(noise) if inplace else input * noise).add_(shift)


_SELU_ALPHA = 1.7580993408473766  # torch's alpha' = -SELU's scale * alpha


def _empty_like(input: Tensor) -> Tensor:
    """torch's ``empty_like``: a dense input's strides kept, so that a random fill draws in
    the input's memory order (a transposed input gets a transposed mask)."""
    strides = input.stride()
    if input.dim() < 2 or not backend.is_dense(tuple(input.shape), tuple(strides)):
        return _creation.empty(input.shape, dtype=input.dtype, device=input.device)
    order = sorted(range(input.dim()), key=lambda d: -strides[d])
    outer_first = _creation.empty([input.shape[d] for d in order], dtype=input.dtype,
                                  device=input.device)
    return outer_first.permute(*sorted(range(input.dim()), key=order.__getitem__))


def _noise_shape(input: Tensor) -> tuple:
    """Feature dropout's mask: one value per sample and channel, broadcast over the rest."""
    if input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    return (*input.shape[:2], *(1,) * (input.dim() - 2))


def max_pool1d_with_indices(input: Tensor, kernel_size: Any, stride: Any = None,
                            padding: Any = 0, dilation: Any = 1, ceil_mode: bool = False,
                            return_indices: bool = False) -> tuple:
    """``max_pool1d``'s maxima and their indices, whatever ``return_indices`` says.

    >>> F.max_pool1d_with_indices(minitorch.tensor([[1., 3., 2., 0.]]), 2)[1]
    tensor([[1, 2]])
    """
    _args.tensor_args("max_pool1d_with_indices", (input, "input", 1))  # torch's kernel's name
    return max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool2d_with_indices(input: Tensor, kernel_size: Any, stride: Any = None,
                            padding: Any = 0, dilation: Any = 1, ceil_mode: bool = False,
                            return_indices: bool = False) -> tuple:
    """``max_pool2d``'s maxima and their indices, whatever ``return_indices`` says.

    >>> F.max_pool2d_with_indices(minitorch.tensor([[[1., 3.], [2., 0.]]]), 2)[1]
    tensor([[[1]]])
    """
    _args.tensor_args("max_pool2d_with_indices", (input, "input", 1))  # torch's kernel's name
    return max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool3d_with_indices(input: Tensor, kernel_size: Any, stride: Any = None,
                            padding: Any = 0, dilation: Any = 1, ceil_mode: bool = False,
                            return_indices: bool = False) -> tuple:
    """``max_pool3d``'s maxima and their indices, whatever ``return_indices`` says.

    >>> F.max_pool3d_with_indices(minitorch.ones(1, 1, 2, 2, 2), 2)[1].shape
    torch.Size([1, 1, 1, 1, 1])
    """
    _args.python_attribute(input, "is_cuda")  # torch's Python asks it first
    return max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def adaptive_max_pool1d_with_indices(input: Tensor, output_size: Any,
                                     return_indices: bool = False) -> tuple:
    """``adaptive_max_pool1d``'s maxima and their indices, whatever ``return_indices`` says.

    >>> F.adaptive_max_pool1d_with_indices(minitorch.tensor([[1., 3., 2., 0.]]), 2)[1]
    tensor([[1, 2]])
    """
    return adaptive_max_pool1d(input, output_size, True)


def adaptive_max_pool2d_with_indices(input: Tensor, output_size: Any,
                                     return_indices: bool = False) -> tuple:
    """``adaptive_max_pool2d``'s maxima and their indices, whatever ``return_indices`` says.

    >>> F.adaptive_max_pool2d_with_indices(minitorch.tensor([[[1., 3.], [2., 0.]]]), 1)[1]
    tensor([[[1]]])
    """
    return adaptive_max_pool2d(input, output_size, True)


def adaptive_max_pool3d_with_indices(input: Tensor, output_size: Any,
                                     return_indices: bool = False) -> tuple:
    """``adaptive_max_pool3d``'s maxima and their indices, whatever ``return_indices`` says.

    >>> F.adaptive_max_pool3d_with_indices(minitorch.ones(1, 1, 2, 2), 1)[1]
    tensor([[[[0]]]])
    """
    return adaptive_max_pool3d(input, output_size, True)


def _vf_dropout(fn: str, input: Tensor, p: Any, training: Any, inplace: bool,
                feature: bool, alpha: bool) -> Tensor:
    """The C function torch's Python dropouts call (``fn`` or ``fn_`` in place): its
    parser's checks, then the mask."""
    fn += "_" if inplace else ""
    _args.tensor_args(fn, (input, "input", 1))
    p = _args.real(fn, p, "p", 2)  # (the parser reads them in their order)
    return _dropout(input, p, _args.flag(fn, training, "train", 3), inplace, feature, alpha)


def alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False,
                  inplace: bool = False) -> Tensor:
    """Dropout for SELU networks: dropped values become SELU's negative saturation, and
    an affine map keeps mean 0 and variance 1. Node: ``AddBackward0``.

    >>> F.alpha_dropout(minitorch.ones(3), p=0.5)  # training=False: the input itself
    tensor([1., 1., 1.])
    """
    _dropout_range(p)
    return _vf_dropout("alpha_dropout", input, p, training, inplace, False, True)


def feature_alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False,
                          inplace: bool = False) -> Tensor:
    """``alpha_dropout`` of whole channels: one draw per ``input[i, j]``.

    >>> F.feature_alpha_dropout(minitorch.ones(1, 2), p=0.5)
    tensor([[1., 1.]])
    """
    _dropout_range(p)
    return _vf_dropout("feature_alpha_dropout", input, p, training, inplace, True, True)


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    """Zero whole channels of ``(N, C, L)`` or ``(C, L)`` input with probability ``p``.

    >>> F.dropout1d(minitorch.ones(2, 3), p=0.5, training=False)
    tensor([[1., 1., 1.],
            [1., 1., 1.]])
    """
    _dropout_range(p)
    dims = input.dim()
    if dims not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {dims}D input. Note that "
            "dropout1d exists to provide channel-wise dropout on inputs with 1 spatial "
            "dimension, a channel dimension, and an optional batch dimension (i.e. 2D or 3D "
            "inputs).")
    return _unbatched_feature_dropout(input, p, training, inplace, dims == 3)


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    """Zero whole channels of ``(N, C, H, W)`` input with probability ``p`` (a 3-D input
    is read as ``(N, C, L)``, with torch's warning).

    >>> F.dropout2d(minitorch.ones(1, 1, 2, 2), p=0.5, training=False).shape
    torch.Size([1, 1, 2, 2])
    """
    if _channel_dims("dropout2d", input, p, 2) == 3:
        warnings.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D "
            "dropout behavior is desired - input is interpreted as shape (N, C, L), where C "
            "is the channel dim. This behavior will change in a future release to interpret "
            "the input as one without a batch dimension, i.e. shape (C, H, W). To maintain "
            "the 1D channel-wise dropout behavior, please switch to using dropout1d "
            "instead.", stacklevel=2)
    return _vf_dropout("feature_dropout", input, p, training, inplace, True, False)


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True,
              inplace: bool = False) -> Tensor:
    """Zero whole channels of ``(N, C, D, H, W)`` or ``(C, D, H, W)`` input with
    probability ``p``.

    >>> F.dropout3d(minitorch.ones(1, 1, 1, 2), p=0.5, training=False).shape
    torch.Size([1, 1, 1, 2])
    """
    batched = _channel_dims("dropout3d", input, p, 3) == 5
    return _unbatched_feature_dropout(input, p, training, inplace, batched)


def _channel_dims(fn: str, input: Tensor, p: Any, spatial: int) -> int:
    """The checks of ``dropout2d``/``dropout3d``: ``p``'s range, then the input's rank,
    which (for now, in torch) only warns when it is not ``spatial`` + 1 or 2."""
    _dropout_range(p)
    dims = input.dim()
    if dims in (spatial + 1, spatial + 2):
        return dims
    expected = f"{spatial + 1}D or {spatial + 2}D"
    warnings.warn(
        f"{fn}: Received a {dims}-D input to {fn}, which is deprecated and will result in an "
        "error in a future release. To retain the behavior and silence this warning, please "
        f"use dropout instead. Note that {fn} exists to provide channel-wise dropout on "
        f"inputs with {spatial} spatial dimensions, a channel dimension, and an optional "
        f"batch dimension (i.e. {expected} inputs).", stacklevel=3)
    return dims


def _unbatched_feature_dropout(input: Tensor, p: Any, training: Any, inplace: bool,
                               batched: bool) -> Tensor:
    """Feature dropout, with an unbatched input given a batch of one for the draw."""
    if not batched:
        input = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    result = _vf_dropout("feature_dropout", input, p, training, inplace, True, False)
    if not batched:
        result = result.squeeze_(0) if inplace else result.squeeze(0)
    return result


def _dropout_range(p: Any) -> None:
    """torch's Python-level range check of dropout's ``p``, which runs before its argument
    parser: Python's own comparisons, so that a number, a numpy value or a tensor passes or
    fails (and prints) just as it does there.

    >>> import numpy as np
    >>> F.dropout(minitorch.ones(1), np.array([2.0]))
    Traceback (most recent call last):
    ValueError: dropout probability has to be between 0 and 1, but got [2.]
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


@_call_form.function
@_args.tensors("avg_pool2d", input="input")
def avg_pool2d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
               ceil_mode: Any = False, count_include_pad: Any = True,
               divisor_override: Any = None) -> Tensor:
    """The mean of each ``kernel_size`` window, moved by ``stride`` (default: the kernel),
    over the input padded with zeros; the divisor counts the padding unless
    ``count_include_pad`` is False, or is ``divisor_override``.

    >>> F.avg_pool2d(minitorch.ones(1, 1, 4, 4), 2).shape
    torch.Size([1, 1, 2, 2])
    """
    return _avg_pool(2, input, (kernel_size, stride, padding), ceil_mode, count_include_pad,
                     divisor_override)


@_call_form.function
@_args.tensors("avg_pool3d", input="input")
def avg_pool3d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
               ceil_mode: Any = False, count_include_pad: Any = True,
               divisor_override: Any = None) -> Tensor:
    """The mean of each ``kernel_size`` window over the last three dims of a 4-D or 5-D
    input (see :func:`avg_pool2d`).

    >>> F.avg_pool3d(minitorch.arange(8.).reshape(1, 1, 2, 2, 2), 2)
    tensor([[[[[3.5000]]]]])
    """
    return _avg_pool(3, input, (kernel_size, stride, padding), ceil_mode, count_include_pad,
                     divisor_override)


def _avg_pool(n: int, input: Tensor, window: tuple, ceil_mode: Any, count_include_pad: Any,
              divisor_override: Any) -> Tensor:
    """``avg_pool2d`` or ``avg_pool3d`` (``n`` 2, 3) after torch's checks, in its order;
    ``window`` is the user's ``(kernel_size, stride, padding)``."""
    name = f"avg_pool{n}d"
    kernel_size, stride, padding = window
    unset = stride is None or (isinstance(stride, (list, tuple)) and not stride)
    windows = ((kernel_size, "kernel_size", 2), (_args.OMITTED if unset else stride, "stride", 3),
               (padding, "padding", 4))
    _args.window_types(name, *windows)  # every type, then the windows' lengths
    ceil_mode = _args.flag(name, ceil_mode, "ceil_mode", 5)
    count_include_pad = _args.flag(name, count_include_pad, "count_include_pad", 6)
    if divisor_override is not None:
        divisor_override = _args.integer(name, divisor_override, "divisor_override", 7)
    kernel, steps, pad = _args.windows(name, *windows, n=n)
    steps = steps or kernel
    if n == 3 and input.dim() not in (4, 5):
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    if divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    _args.wrap_dim(-n - 1, input.dim(), scalar=False)  # torch's error for too few dims
    shape = tuple(input.shape)
    check_pool_geometry(shape, (kernel, steps, pad, (1,) * n), ceil_mode, name)
    out = [pool_out_size(shape[d], kernel[i], steps[i], pad[i], 1, ceil_mode)
           for i, d in enumerate(range(-n, 0))]
    extra = tuple(max(0, (o - 1) * s + k - size - 2 * p)
                  for o, s, k, size, p in zip(out, steps, kernel, shape[-n:], pad))
    if not ((input.dtype.is_floating_point and input.dtype.itemsize >= 4 * (n - 2))
            or input.dtype.name == "int64"):
        # torch's kernel's dtypes (its 3-d kernel takes no half floats)
        raise _args.not_implemented(name if n == 2 else "avg_pool3d_out_frame", input.dtype)
    divisor = divisor_override
    if divisor is None and (pad != (0,) * n or extra != (0,) * n):
        divisor = _pool_divisors(input, out, kernel, steps, pad, count_include_pad)
    op = nn_ops.AvgPool2d if n == 2 else nn_ops.AvgPool3d
    return op.apply(input, kernel=kernel, stride=steps, padding=pad, extra=extra,
                    divisor=divisor)


@_args.tensors("avg_pool1d", input="input")
def avg_pool1d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,
               ceil_mode: Any = False, count_include_pad: Any = True) -> Tensor:
    """The mean of each ``kernel_size`` window of the last dim, moved by ``stride`` (default:
    the kernel): torch's ``avg_pool2d`` of the input seen with a height of one.

    >>> F.avg_pool1d(minitorch.tensor([[1., 3., 2., 5., 4.]]), 2)
    tensor([[2.0000, 3.5000]])
    """
    unset = stride is None or (isinstance(stride, (list, tuple)) and not stride)
    specs = ((kernel_size, "kernel_size", 2), (_args.OMITTED if unset else stride, "stride", 3),
             (padding, "padding", 4))
    _args.window_types("avg_pool1d", *specs)
    ceil_mode = _args.flag("avg_pool1d", ceil_mode, "ceil_mode", 5)
    count_include_pad = _args.flag("avg_pool1d", count_include_pad, "count_include_pad", 6)
    _args.unpack_windows("avg_pool1d", *specs)
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional "
                           "tensor for argument #1 'self' (while checking arguments for "
                           "avg_pool1d)")
    kernel, steps, pad = (None if value is _args.OMITTED else _one_int(value, name, position)
                          for value, name, position in specs)
    out = avg_pool2d(input.unsqueeze(-2), (1, kernel), (1, kernel if steps is None else steps),
                     (0, pad), ceil_mode, count_include_pad)
    return out.squeeze(-2)


def lp_pool1d(input: Tensor, norm_type: float, kernel_size: int, stride: Any = None,
              ceil_mode: bool = False) -> Tensor:
    """The ``norm_type``-norm of each window of the last dim: torch's composition,
    ``(kernel · avg_pool1d(x ** p)) ** (1 / p)`` (a max pool of ``|x|`` for ``p = ±inf``).

    >>> F.lp_pool1d(minitorch.tensor([[3., 4., 0., 1.]]), 2, 2)
    tensor([[5., 1.]])
    """
    return _lp_pool(avg_pool1d, max_pool1d, input, norm_type, kernel_size, stride, ceil_mode,
                    (kernel_size,))


def lp_pool2d(input: Tensor, norm_type: float, kernel_size: Any, stride: Any = None,
              ceil_mode: bool = False) -> Tensor:
    """The ``norm_type``-norm of each window of the last two dims (see :func:`lp_pool1d`).

    >>> F.lp_pool2d(minitorch.tensor([[[3., 4.], [0., 0.]]]), 2, 2)
    tensor([[[5.]]])
    """
    return _lp_pool(avg_pool2d, max_pool2d, input, norm_type, kernel_size, stride, ceil_mode,
                    _unpacked(kernel_size, 2))


def lp_pool3d(input: Tensor, norm_type: float, kernel_size: Any, stride: Any = None,
              ceil_mode: bool = False) -> Tensor:
    """The ``norm_type``-norm of each window of the last three dims (see :func:`lp_pool1d`).

    >>> F.lp_pool3d(minitorch.tensor([[[[3., 4.], [0., 0.]]]]), 2, (1, 2, 2))
    tensor([[[[5.]]]])
    """
    return _lp_pool(avg_pool3d, max_pool3d, input, norm_type, kernel_size, stride, ceil_mode,
                    _unpacked(kernel_size, 3))


def _unpacked(kernel_size: Any, n: int) -> tuple:
    """torch's ``kw, kh = _pair(kernel_size)`` (``_triple`` for three): a sequence as it is,
    anything else ``n`` times, then Python's refusal of a wrong length's unpacking."""
    sides = tuple(kernel_size) if isinstance(kernel_size, Iterable) else (kernel_size,) * n
    if len(sides) != n:
        raise ValueError(f"not enough values to unpack (expected {n}, got {len(sides)})"
                         if len(sides) < n else f"too many values to unpack (expected {n})")
    return sides


def _lp_pool(avg_pool: Any, max_pool: Any, input: Tensor, norm_type: float, kernel_size: Any,
             stride: Any, ceil_mode: bool, window: tuple) -> Tensor:
    """torch's lp_pool1d/2d/3d, step for step (so its graph's nodes); ``window``: the
    kernel's sides, multiplied (in Python, as torch) after the pool."""
    if isinstance(norm_type, (int, float)):
        if norm_type == float("inf"):
            return max_pool(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -float("inf"):
            return -max_pool(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = avg_pool(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    size = window[0]
    for side in window[1:]:
        size = _args.python_op(size, "*", side)
    return (out.sign() * relu(out.abs())).mul(size).pow(_args.python_op(1.0, "/", norm_type))


def _one_int(value: Any, name: str, position: int) -> int:
    """A 1-d pooling's window argument: an int or a sequence of exactly one (torch's
    ``check1d``)."""
    values = ((value,) if _args.as_int(value) is not None
              else _args.int_tuple("avg_pool1d", value, name, position))
    if len(values) != 1:
        raise RuntimeError(f"avg_pool1d() argument '{name}' should contain one int (got "
                           f"{len(values)})")
    return _args.integer("avg_pool1d", values[0], name, position)


def _pool_divisors(input: Tensor, out: list, kernel: tuple, stride: tuple, pad: tuple,
                   count_include_pad: bool) -> Any:
    """torch's divisor of each average-pooling window, an array of the output's spatial
    shape: the window's size within the padded input, or (``count_include_pad`` False)
    within the input."""
    xp, n = input._xp, len(kernel)
    counts = xp.ones((1,) * n, dtype=xp.int64)
    for dim, (o, k, s, p, size) in enumerate(zip(out, kernel, stride, pad, input.shape[-n:])):
        start = xp.arange(o) * s - p
        end = xp.minimum(start + k, size + p)
        if not count_include_pad:
            start, end = xp.maximum(start, 0), xp.minimum(end, size)
        counts = counts * xp.reshape(end - start, (-1,) + (1,) * (n - 1 - dim))
    return xp.astype(counts, input._data.dtype)


# ---- batch normalisation -----------------------------------------------------------------
class NativeBatchNorm(Op):
    """Normalise each channel (dim 1) by its mean and variance, then scale and shift.

    In training the statistics are the batch's (and ``running_mean``/``running_var`` move
    towards them); otherwise the running ones. The backward recomputes the statistics from
    the saved input in Tensor operations, so gradients of gradients are right too.
    """

    node_name = "NativeBatchNormBackward0"
    saved_names = ("input", "weight")
    _profile_name = "aten::native_batch_norm"

    @staticmethod
    def forward(ctx: Any, x: Tensor, weight: Tensor | None, bias: Tensor | None, *,
                running_mean: Tensor | None, running_var: Tensor | None, training: bool,
                momentum: float, eps: float) -> Tensor:
        ctx.dims = (0, *range(2, x.dim()))
        ctx.stat_shape = (1, x.shape[1]) + (1,) * (x.dim() - 2)
        ctx.count = x.numel() // x.shape[1]
        ctx.eps = eps
        ctx.save_for_backward(x, weight)
        # torch's forward reads weight and bias by their numel (checked): any shape, flat
        # here; its backward refuses them (below)
        xp = x._xp
        ctx.flat = all(t is None or t.dim() == 1 for t in (weight, bias))
        ctx.bias_shape = None if bias is None else bias.shape
        ctx.mixed = mixed_mode(x, weight, bias, running_mean, running_var)
        data = opmath_array(ctx.mixed, x._data)
        w, b = (None if t is None else xp.reshape(t._data, (-1,)) for t in (weight, bias))
        kernel = x.numel() > 0 and bn_order.applies(
            data, w, b, *(None if t is None else t._data for t in (running_mean, running_var)))
        run = _torch_batch_norm if kernel else _plain_batch_norm
        out, mean, invstd = run(data, w, b, running_mean, running_var, training, momentum, eps)
        ctx.kernel_stats = (mean, invstd, training) if kernel else None
        ctx.fixed_stats = None if training else (wrap(xp.reshape(mean, ctx.stat_shape)),
                                                 wrap(xp.reshape(invstd, ctx.stat_shape)))
        return wrap(xp.astype(out, x._data.dtype, copy=False))

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> Any:
        """torch's kernel (:mod:`._batch_norm_order`) where the forward ran it."""
        x, weight = ctx.saved_tensors
        if ctx.kernel_stats is None or not like(g, x._data) or not ctx.flat:
            return NotImplemented
        mean, invstd, training = ctx.kernel_stats
        grads = bn_order.backward(opmath_array(ctx.mixed, g), opmath_array(ctx.mixed, x._data),
                                  mean, invstd, None if weight is None else weight._data,
                                  training, ctx.needs_input_grad)
        return (None if grads[0] is None else grads[0].astype(g.dtype, copy=False), *grads[1:])

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, weight = ctx.saved_tensors
        if weight is not None and weight.dim() != 1:  # torch's kernel reads a 1-d weight (its
            # other kernel, for some gradients' layouts, refuses the flat gradient instead)
            raise RuntimeError(f"TensorAccessor expected 1 dims but tensor has {weight.dim()}")
        dims, dtype = ctx.dims, g.dtype
        x, g = opmath_tensors(ctx.mixed, x, g)
        if ctx.fixed_stats is None:  # batch statistics: functions of x
            centred = x - x.mean(dims, keepdim=True)
            invstd = ((centred * centred).mean(dims, keepdim=True) + ctx.eps) ** -0.5
        else:
            mean, invstd = ctx.fixed_stats
            centred = x - mean
        xhat = centred * invstd
        need_x, need_w, need_b = ctx.needs_input_grad
        g_sum = g.sum(dims, keepdim=True)
        g_xhat = (g * xhat).sum(dims, keepdim=True)
        grad_x = None
        if need_x:
            scale = invstd if weight is None else invstd * weight.reshape(ctx.stat_shape)
            if ctx.fixed_stats is None:  # through the mean and variance as well
                g = g - (g_sum + xhat * g_xhat) / ctx.count
            grad_x = (g * scale).to(dtype)
        grad_b = g_sum.reshape(-1) if need_b else None
        if grad_b is not None and grad_b.shape != ctx.bias_shape:
            raise RuntimeError("Function NativeBatchNormBackward0 returned an invalid gradient "
                               f"at index 2 - got {list(grad_b.shape)} but expected shape "
                               f"compatible with {list(ctx.bias_shape)}")
        return grad_x, g_xhat.reshape(-1) if need_w else None, grad_b


def _torch_batch_norm(x: Any, w: Any, b: Any, running_mean: Tensor | None,
                      running_var: Tensor | None, training: bool, momentum: float,
                      eps: float) -> tuple:
    """torch's CPU kernels on numpy arrays: the output, and the per-channel mean and invstd
    that its backward reads."""
    if not training:
        mean = running_mean._data.copy()
        invstd = bn_order.eval_invstd(running_var._data, eps, forward=True)
        return (bn_order.transform(x, mean, invstd, w, b), mean,
                bn_order.eval_invstd(running_var._data, eps, forward=False))
    mean, var_sum = bn_order.batch_stats(x)
    n = x.size // x.shape[1]
    invstd = bn_order.invstd_of(var_sum, n, eps)
    if running_mean is not None:
        moved = bn_order.running_update(running_mean._data, running_var._data, mean, var_sum,
                                        n, momentum)
        running_mean._write(moved[0])
        running_var._write(moved[1])
    return bn_order.transform(x, mean, invstd, w, b), mean, invstd


def _plain_batch_norm(x: Any, w: Any, b: Any, running_mean: Tensor | None,
                      running_var: Tensor | None, training: bool, momentum: float,
                      eps: float) -> tuple:
    """The same in plain array formulas, for any array library: the output, and the mean and
    invstd (per channel, broadcastable to ``x``)."""
    xp = namespace(x)
    dims = (0, *range(2, x.ndim))
    stat_shape = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    if training:
        mean = xp.mean(x, axis=dims, keepdims=True)
        var = xp.var(x, axis=dims, keepdims=True)
        if running_mean is not None:
            count = math.prod(x.shape) // x.shape[1]
            unbiased = var * (count / (count - 1))
            _blend_(running_mean, xp.reshape(mean, (-1,)), momentum)
            _blend_(running_var, xp.reshape(unbiased, (-1,)), momentum)
    else:
        mean = xp.reshape(xp.asarray(running_mean._data, copy=True), stat_shape)
        var = xp.reshape(running_var._data, stat_shape)
    invstd = 1 / xp.sqrt(var + eps)
    if training and eps == 0:  # torch's InvStd: 0 for no variance and no eps (instance_norm)
        invstd = xp.where(var == 0, xp.zeros_like(invstd), invstd)
    out = (x - mean) * invstd
    if w is not None:
        out = out * xp.reshape(w, stat_shape)
    if b is not None:
        out = out + xp.reshape(b, stat_shape)
    return out, mean, invstd


def _blend_(running: Tensor, batch: Any, momentum: float) -> None:
    """``running ← (1 - momentum)·running + momentum·batch``, in place."""
    running._write((1 - momentum) * running._data + momentum * batch)


def batch_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None,
               weight: Tensor | None = None, bias: Tensor | None = None,
               training: bool = False, momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Normalise over the batch (and spatial) dims per channel; see ``nn.BatchNorm1d``.

    >>> F.batch_norm(minitorch.tensor([[1.], [3.]]), None, None, training=True)
    tensor([[-1.0000],
            [ 1.0000]])
    """
    if training:  # torch's Python checks these before its parser reads the arguments
        _args.python_attribute(input, "size")
        if _values_per_channel(input.shape) == 1:
            raise ValueError("Expected more than 1 value per channel when training, got "
                             f"input size {input.shape}")
    if training and _args.python_op(eps, "<=", 0.0):
        raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    if _args.python_op(eps, "<", 0.0):
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    if training is True:
        check_running_stats(input, running_mean, running_var)
    return _native_batch_norm(input, running_mean, running_var, weight, bias, training,
                              momentum, eps)


@_args.tensors("batch_norm", python=True, input="input", running_mean=("running_mean", 4),
               running_var=("running_var", 5), weight=("weight", 2), bias=("bias", 3))
def _native_batch_norm(input: Tensor, running_mean: Tensor | None,
                       running_var: Tensor | None, weight: Tensor | None, bias: Tensor | None,
                       training: Any, momentum: Any, eps: Any) -> Tensor:
    """torch.batch_norm: the arguments checked as its parser and kernel do, then the op."""
    training = _args.flag("batch_norm", training, "training", 6)
    momentum = _args.real("batch_norm", momentum, "momentum", 7)
    eps = _args.real("batch_norm", eps, "eps", 8)
    if input.numel() == 0:
        return _empty_batch_norm(input, weight, bias)
    _check_per_channel(input, (("running_mean", running_mean), ("running_var", running_var),
                               ("weight", weight), ("bias", bias)), training)
    _check_running_stats(running_mean, running_var)
    if (running_mean is None) != (running_var is None):
        raise ValueError("running_mean and running_var must either both be None or neither "
                         "be None")
    _check_batch_norm_dtypes(input, (weight, bias, running_mean, running_var), training)
    _args.wrap_dim(1, input.dim())  # torch's kernel reads the channels, input.size(1)
    for stat in (running_mean, running_var):  # torch's kernel reads them as 1-d arrays
        if stat is not None and stat.dim() != 1:
            raise RuntimeError(f"TensorAccessor expected 1 dims but tensor has {stat.dim()}")
    return NativeBatchNorm.apply(input, weight, bias, running_mean=running_mean,
                                 running_var=running_var, training=training,
                                 momentum=momentum, eps=eps)


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    """Normalise each sample's groups of channels; see ``nn.GroupNorm``.

    >>> F.group_norm(minitorch.tensor([[1., 3., 0., 4.]]), 2)
    tensor([[-1.0000,  1.0000, -1.0000,  1.0000]])
    """
    from ..ops.normalize import group_norm as native

    _args.python_attribute(input, "dim")  # torch's Python reads these before its parser
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received "
                           f"{input.dim()}")
    size = [_args.python_op(input.shape[0] * input.shape[1], "//", num_groups), num_groups,
            *input.shape[2:]]
    if math.prod(size[:1] + size[2:]) == 1:  # torch's _verify_batch_size
        raise ValueError(f"Expected more than 1 value per channel when training, got input "
                         f"size {size}")
    return native(input, num_groups, weight, bias, eps, True)


def local_response_norm(input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75,
                        k: float = 1.0) -> Tensor:
    """Each value divided by ``(k + alpha * mean of the squares of the ``size`` channels
    around it) ** beta`` (AlexNet's normalisation across channels), as torch composes it:
    its graph ends in a division.

    >>> F.local_response_norm(minitorch.tensor([[[1.], [2.]]]), 2, alpha=1.)
    tensor([[[0.7378],
             [0.7816]]])
    """
    dim = input.dim()
    if dim < 3:
        raise ValueError("Expected 3D or higher dimensionality                          "
                         f"input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    # torch pools a (N, 1, C, H, rest) view over (size, 1, 1) windows: the same windows as
    # (size, 1) ones over (N, 1, C, H * rest)
    half = _args.python_op(size, "//", 2)  # torch's Python: its TypeError for no int
    if dim == 3:
        div = pad(input.mul(input).unsqueeze(1), (0, 0, half, (size - 1) // 2))
    else:  # torch pads the (N, 1, C, H, rest) view: its pad's words count six widths
        div = input.mul(input).reshape(input.shape[0], 1, input.shape[1], input.shape[2], -1)
        div = pad(div, (0, 0, 0, 0, half, (size - 1) // 2))
        _args.int_list("avg_pool3d", (size, 1, 1), "kernel_size", 2)  # its parser's refusals
        if size <= -2:  # torch pools those with avg_pool3d: its C++ size / 2 is below pad 0
            raise RuntimeError("pad should be at most half of effective kernel size, but got "
                               f"pad=0, kernel_size={size} and dilation=1")
        if size <= 0:  # torch pools those with avg_pool3d, and says so
            raise RuntimeError("kernel size should be greater than zero, but got "
                               f"{_args.per_dim('k', (size, 1, 1))}")
        if input.dtype.name not in ("float32", "float64", "bfloat16", "int64"):
            raise _args.not_implemented("avg_pool3d_out_frame", input.dtype)
    div = div.reshape(div.shape[0], 1, div.shape[2], math.prod(div.shape[3:]))
    div = avg_pool2d(div, (size, 1), stride=1).squeeze(1).view(input.shape)
    return input / div.mul(alpha).add(k).pow(beta)


def instance_norm(input: Tensor, running_mean: Tensor | None = None,
                  running_var: Tensor | None = None, weight: Tensor | None = None,
                  bias: Tensor | None = None, use_input_stats: bool = True,
                  momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Normalise each sample's channels on their own; see ``nn.InstanceNorm2d``.

    >>> F.instance_norm(minitorch.tensor([[[1., 3.]]]))
    tensor([[[-1.0000,  1.0000]]])
    """
    from .._nn_functions import instance_norm as native

    if use_input_stats:  # torch's Python check, before its parser reads the arguments
        _args.python_attribute(input, "size")
        if math.prod(input.shape[2:]) == 1:
            raise ValueError("Expected more than 1 spatial element when training, got input "
                             f"size {input.shape}")
        check_running_stats(input, running_mean, running_var)
    return native(input, weight, bias, running_mean, running_var, use_input_stats, momentum,
                  eps, False)


def _values_per_channel(shape: tuple) -> int:
    """torch's ``_verify_batch_size``: the batch size times the spatial sizes."""
    n = shape[0]
    for size in shape[2:]:
        n *= size
    return n


def _empty_batch_norm(input: Tensor, weight: Tensor | None, bias: Tensor | None) -> Tensor:
    """torch's batch_norm of an empty input: no statistics (the running ones stay as they
    are), a copy of the input scaled by ``weight[0]`` and shifted by ``bias[0]``, so that
    the gradient chain is kept (nodes CloneBackward0, MulBackward0, AddBackward0)."""
    out = input.clone()
    if weight is not None:
        out = out * weight.select(0, 0)
    if bias is not None:
        out = out + bias.select(0, 0)
    return out


def _check_per_channel(input: Tensor, stats: tuple, training: bool) -> None:
    """torch's checks of batch_norm's ``(name, tensor)`` pairs (running mean and var, weight,
    bias), in that order: one value per channel, and running statistics in evaluation."""
    channels = input.shape[1] if input.dim() > 1 else 0
    for name, stat in stats:
        if stat is None and name.startswith("running") and not training:
            raise RuntimeError(f"{name} must be defined in evaluation mode")
        if stat is not None and stat.numel() != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not {stat.numel()}")


def _check_running_stats(mean: Tensor | None, var: Tensor | None) -> None:
    """The running statistics are buffers, not inputs: they may not require grad."""
    for name, stat in (("running_mean", mean), ("running_var", var)):
        if stat is not None and stat.requires_grad:
            raise RuntimeError(f"The function 'native_batch_norm' is not differentiable with "
                               f"respect to argument '{name}'. This input cannot have "
                               "requires_grad True.")


def _check_batch_norm_dtypes(input: Tensor, params: tuple, training: bool) -> None:
    """torch's CPU dtype checks of batch_norm: a floating input; parameters (weight, bias,
    running mean and var) whose first has the input's dtype and the others too, or (torch's
    mixed mode, for half inputs only) all float32."""
    floating_kernel("batch_norm", input.dtype, suffix="")
    if check_mixed_dtype(input, *params):
        return
    weight, bias, mean, var = params  # training reads the running stats first
    order = (mean, var, weight, bias) if training else params
    for p in order:
        if p is not None:
            _args.scalar_type(input.dtype, p.dtype)


# ---- losses ------------------------------------------------------------------------------
def mse_loss(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None,
             reduction: str = "mean", weight: Tensor | None = None) -> Tensor:
    """The mean (or sum, or each) of the squared differences (node ``MseLossBackward0``);
    with ``weight``, each weighted (torch's Python path, its own nodes).

    >>> F.mse_loss(minitorch.tensor([1., 3.]), minitorch.tensor([0., 0.]))
    tensor(5.)
    """
    check_operands(input, target)
    shape = tuple(input.shape)
    input, target, reduction = elementwise_pair(input, target, reduction, size_average,
                                                reduce)
    if weight is not None:
        check_weight(weight, shape)
        return weighted((input - target) ** 2, weight, reduction)
    input, target = kernel_operands("mse", input, target)
    profiler._mark("aten::broadcast_tensors")  # torch's Python mse_loss broadcasts first
    return nn_ops.MseLoss.apply(input, target, reduction=reduction)


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,
             size_average: Any = None, ignore_index: int = -100, reduce: Any = None,
             reduction: str = "mean") -> Tensor:
    """``-input[i, target[i]]`` averaged (or summed, or each) over the batch, skipping the
    targets equal to ``ignore_index``.

    ``input`` holds log-probabilities of shape (classes,), (batch, classes) or (batch,
    classes, d1, ...); ``target`` class indices of shape (), (batch,) or (batch, d1, ...);
    ``weight`` one factor per class.

    >>> F.nll_loss(minitorch.tensor([[-1., -2.], [-3., -4.]]), minitorch.tensor([1, 0]),
    ...            ignore_index=0)
    tensor(2.)
    """
    reduction = _check_reduction(reduction, size_average, reduce)  # torch's Python, first
    _args.tensor_args("nll_loss_nd", (input, "input", 1), (target, "target", 2))
    ignore_index = _args.integer("nll_loss_nd", ignore_index, "ignore_index", 5)
    if weight is not None:
        _args.tensor_args("nll_loss_nd", (weight, "weight", 3))
    if input.dim() == 0:
        raise ValueError("Expected 1 or more dimensions (got 0)")
    batch = target.shape[0] if target.dim() else 0  # torch counts a 0-d target as no batch
    if input.dim() >= 2 and batch != input.shape[0]:
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target "
                         f"batch_size ({batch}).")
    if input.dim() != 4:  # nll_loss_nd's own check; a 4-D input's are nll_loss2d's kernel's
        _check_spatial_target(input, target, before_dtype=True)
    if weight is not None:  # autograd's refusal, before the forward kernel's checks
        not_differentiable(f"nll_loss{'2d' * (input.dim() > 2)}_forward", weight, "weight")
    if target.dim() > 1 and input.dim() <= 2:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if input.dim() >= 2 and target.dim() == 0:  # an empty batch passed the check above
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    _check_spatial_target(input, target, before_dtype=True)
    byte = target.dtype.name == "uint8"
    if byte:  # torch's kernel takes bytes as class indices too (not its K-dim kernel)
        target = target.long()
    if target.dtype is not int64:
        raise RuntimeError("expected target dtype to be Long or Byte, but got "
                           f"{target.dtype.legacy}")
    if input.dim() == 1 and target.numel() != 1:
        raise ValueError("For 1D input, 1D target must have size 1, but got target size: "
                         f"{target.numel()}")
    classes = input.shape[1] if input.dim() > 1 else input.shape[0]
    _check_class_weights(input, weight, classes)
    _check_spatial_target(input, target, before_dtype=False)
    if not input.dtype.is_floating_point:  # torch's kernels: floating inputs only
        raise _args.not_implemented(f"nll_loss{'2d_forward' if input.dim() > 2 else ''}"
                                    "_out_frame", input.dtype)
    if weight is not None:
        _args.scalar_type(input.dtype, weight.dtype)
    if byte and input.dim() > 2 and (target.numel() or reduction == "none"):
        raise RuntimeError("expected scalar type Long but found Byte")
    _check_targets(target, classes, ignore_index)
    # torch's nll_loss is aten::nll_loss_nd, which calls aten::nll_loss (or nll_loss2d)
    return profiler.run_op("aten::nll_loss_nd", "aten::nll_loss_nd", lambda: _nll_loss(
        input, target, weight, ignore_index, reduction, classes), (input, target, weight))


def _nll_loss(input: Tensor, target: Tensor, weight: Tensor | None, ignore_index: int,
              reduction: str, classes: int) -> Tensor:
    # target by keyword: it is no edge of the graph (torch's node has one next function)
    options = {"target": target, "reduction": reduction, "ignore_index": ignore_index,
               "weight": weight if weight is None or input.dim() <= 2 else weight.reshape(-1)}
    if input.dim() <= 2:
        rows = input.unsqueeze(0) if input.dim() == 1 else input
        # torch's 1-D input has one 0-d loss, whichever of its targets' shapes it was given
        shape = () if input.dim() == 1 else tuple(target.shape)
        return nn_ops.NllLoss.apply(rows, shape=shape, **options)
    if input.dim() == 4:
        return nn_ops.NllLoss2d.apply(input, shape=tuple(target.shape), **options)
    # as torch: other dims go through (batch, classes, 1, positions) and back, as views
    batch, positions = input.shape[0], math.prod(input.shape[2:])
    out = nn_ops.NllLoss2d.apply(input.reshape(batch, classes, 1, positions),
                                 shape=(batch, 1, positions), **options)
    return out.view(target.shape) if reduction == "none" else out


def _cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None, ignore_index: int,
                   reduction: str) -> Tensor:
    # torch's log_softmax(input, dim, input's dtype); an integer input fails here
    log_p = log_softmax(input, 0 if input.dim() == 1 else 1, dtype=input.dtype)
    return nll_loss(log_p, target, weight, ignore_index=ignore_index, reduction=reduction)


def _check_spatial_target(input: Tensor, target: Tensor, before_dtype: bool) -> None:
    """torch's errors for a target of input (N, C, d1, ...) not shaped (N, d1, ...), in its
    order around the target's dtype check: nll_loss_nd's own size check, or, for a 4-D
    input (nll_loss2d), the target's rank before the dtype and its sizes after."""
    want = (input.shape[0], *input.shape[2:])
    if input.dim() < 3 or tuple(target.shape) == want:
        return
    if input.dim() != 4:
        if before_dtype:
            raise RuntimeError(f"Expected target size {list(want)}, got {list(target.shape)}")
    elif target.dim() != 3:
        raise RuntimeError("only batches of spatial targets supported (3D tensors) but got "
                           f"targets of dimension: {target.dim()}")
    elif not before_dtype:
        raise RuntimeError(f"size mismatch (got input: {list(input.shape)} , target: "
                           f"{list(target.shape)}")


def _check_class_weights(input: Tensor, weight: Tensor | None, classes: int) -> None:
    """torch's kernel's checks of nll_loss's ``weight``: one per class (its dtype is checked
    after the input's)."""
    if weight is None:
        return
    spatial = input.dim() > 2  # torch's nll_loss2d kernel, which counts the weights only
    if spatial and weight.numel() != classes:
        raise RuntimeError("weight tensor should be defined either for all or no classes")
    if not spatial and (weight.dim() != 1 or weight.numel() != classes):
        raise RuntimeError(f"weight tensor should be defined either for all {classes} classes "
                           f"or no classes but got weight tensor of shape: {list(weight.shape)}")


def _check_targets(target: Tensor, classes: int, ignore_index: int = -100) -> None:
    xp = target._xp
    outside = (target._data < 0) | (target._data >= classes)
    outside &= target._data != ignore_index
    if bool(xp.any(outside)):
        first = target._data[outside][0]
        raise IndexError(f"Target {int(first)} is out of bounds.")


def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,
                  size_average: Any = None, ignore_index: int = -100, reduce: Any = None,
                  reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    """``nll_loss(log_softmax(input, 1), target)``: the loss of logits against class indices;
    ``label_smoothing`` mixes in that much of the uniform distribution over the classes.

    >>> F.cross_entropy(minitorch.zeros(1, 4), minitorch.tensor([3]))
    tensor(1.3863)
    """
    reduction = _check_reduction(reduction, size_average, reduce)  # torch's Python, first
    _args.tensor_args("cross_entropy_loss", (input, "input", 1), (target, "target", 2))
    if weight is not None:
        _args.tensor_args("cross_entropy_loss", (weight, "weight", 3))
    ignore_index = _args.integer("cross_entropy_loss", ignore_index, "ignore_index", 5)
    smoothing = _args.real("cross_entropy_loss", label_smoothing, "label_smoothing", 6)
    if target.shape == input.shape:  # torch reads the target as class probabilities
        if not target.is_floating_point():
            raise RuntimeError("Expected floating point type for target with class "
                               f"probabilities, got {_args.legacy(target.dtype)}")
        return _cross_entropy_soft(input, target, weight, reduction, smoothing, ignore_index)
    if not smoothing > 0.0:  # (nan too) torch's aten::cross_entropy_loss: log_softmax,
        # then nll_loss_nd
        return profiler.run_op("aten::cross_entropy_loss", "aten::cross_entropy_loss",
                               lambda: _cross_entropy(input, target, weight, ignore_index,
                                                      reduction), (input, target, weight))
    _check_smoothing(smoothing)
    log_p = log_softmax(input, 0 if input.dim() == 1 else 1)  # an integer input fails here
    nll = nll_loss(log_p, target, weight, ignore_index=ignore_index, reduction=reduction)
    uniform = _uniform_loss(log_p, target, ignore_index, reduction, weight)
    return (1 - smoothing) * nll + uniform * (smoothing / log_p.shape[log_p.dim() > 1])


def _cross_entropy_soft(input: Tensor, target: Tensor, weight: Tensor | None, reduction: str,
                        smoothing: float, ignore_index: int) -> Tensor:
    """torch's cross entropy against class probabilities, its composition step by step:
    ``-(log_softmax(input) * target * weight).sum()`` over the count of samples.

    >>> F.cross_entropy(minitorch.zeros(1, 2), minitorch.tensor([[0.5, 0.5]]))
    tensor(0.6931)
    """
    if ignore_index >= 0:
        raise RuntimeError("ignore_index is not supported for floating point target")
    if input.dim() == 0:  # torch asks the size of dim 1
        raise IndexError("Dimension specified as 1 but tensor has no dimensions")
    dim = 0 if input.dim() == 1 else 1
    classes = input.shape[dim]
    if weight is not None and (weight.dim() != 1 or weight.numel() != classes):
        raise RuntimeError(f"cross_entropy: weight tensor should be defined either for all "
                           f"{classes} classes or no classes but got weight tensor of shape: "
                           f"{list(weight.shape)}")
    _check_smoothing(smoothing)
    log_p = log_softmax(input, dim)
    if smoothing > 0.0:
        target = target * (1 - smoothing) + smoothing / classes
    each = log_p * target
    if weight is not None:
        each = each * (weight if input.dim() == 1 else
                       weight.view(*[weight.shape[0] if i == 1 else 1 for i in range(input.dim())]))
    if reduction == "none":
        return -each.sum(dim)
    if reduction == "sum":
        return -each.sum()
    if input.numel() == 0:  # torch fills its empty mean with nan (its node: the negation)
        return -(each.sum() * float("nan"))
    return DivScalar.apply(-each.sum(), input.numel() // classes)


def _check_smoothing(smoothing: float) -> None:
    """torch's range check of label_smoothing, after the checks of its target's kind."""
    if smoothing > 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {smoothing:g}")


def _uniform_loss(log_p: Tensor, target: Tensor, ignore_index: int, reduction: str,
                  weight: Tensor | None) -> Tensor:
    """The cross entropy against the uniform distribution (each class weighed by ``weight``),
    times the number of classes, over the targets kept; its mean is over their weights, as
    nll_loss's. torch divides by the classes last, in the mix with nll_loss."""
    dim = 0 if log_p.dim() == 1 else 1
    kept = target != ignore_index
    if weight is not None:
        log_p = log_p * weight.reshape(-1, *[1] * (log_p.dim() - dim - 1))
    each = (-log_p.sum(dim)).masked_fill(~kept, 0.0)  # ignored: grad 0
    if reduction != "mean":
        return each if reduction == "none" else each.sum()
    return each.sum() / (kept.sum() if weight is None else weight[target[kept]].sum())


_WARNS = frozenset({"warnings", "warn", "warn_once"})

# the functions of F that are C functions taking out= in torch (its parser reads out before
# their entries see the call)
_out.add_parsed_out(globals(), dict.fromkeys(
    ("avg_pool2d", "avg_pool3d", "gelu", "linear", "softplus", "softshrink"), "Tensor"))
logsigmoid = _out.parsed_out(logsigmoid, "log_sigmoid", "Tensor")

# the functions of F that are C functions in torch: its argument parser's messages, as the call
# was written, under the parser's name
for _name, _parsed in (("adaptive_avg_pool1d", "adaptive_avg_pool1d"), ("bilinear", "bilinear"),
                       ("avg_pool1d", "avg_pool1d"),
                       ("conv1d", "conv1d"), ("conv2d", "conv2d"), ("conv3d", "conv3d"),
                       ("conv_transpose1d", "conv_transpose1d"),
                       ("conv_transpose2d", "conv_transpose2d"),
                       ("conv_transpose3d", "conv_transpose3d"),
                       ("cosine_similarity", "cosine_similarity"), ("linear", "linear"),
                       ("logsigmoid", "log_sigmoid"), ("one_hot", "one_hot"),
                       ("pairwise_distance", "pairwise_distance"), ("pdist", "pdist"),
                       ("pixel_shuffle", "pixel_shuffle"), ("pixel_unshuffle", "pixel_unshuffle"),
                       ("prelu", "prelu"), ("softplus", "softplus"),
                       ("softshrink", "softshrink"), ("hardshrink", "hardshrink"),
                       ("gelu", "gelu"),
                       *((name, name) for name in ("hardtanh_", "elu_", "leaky_relu_",
                                                   "threshold_", "relu_", "selu_", "celu_",
                                                   "rrelu_"))):
    globals()[_name] = _call_form.entry(globals()[_name], _parsed, method=False)

def _may_warn(fn: Any, seen: set) -> bool:
    """Whether ``fn`` or a function of F's modules it calls warns: a warning's stack level
    counts the frames up to the caller's line, which a wrapper around ``fn`` would shift."""
    code = fn.__code__
    if code in seen:
        return False
    seen.add(code)
    if not _WARNS.isdisjoint(code.co_names):
        return True
    called = (fn.__globals__.get(name) for name in code.co_names)
    return any(inspect.isfunction(f) and f.__module__.startswith(__name__) and
               _may_warn(f, seen) for f in called)


# torch's Python functions of F hand a tensor-like argument to its __torch_function__ (the C
# ones above do so through their parser's entry); not yet those that may warn (_may_warn)
for _name in __all__:
    _fn = globals()[_name]
    if inspect.isfunction(_fn) and not hasattr(_fn, "op") and not _may_warn(_fn, set()):
        globals()[_name] = overrides.dispatched(_fn)
