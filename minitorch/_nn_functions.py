"""torch's top-level names for nn functions (``torch.conv2d``, ``torch.dropout``, ...): thin
calls of ``minitorch.nn.functional`` under torch's own top-level signatures, which differ from
F's in places: no defaults for ``dropout``'s ``p`` and ``train`` or for most of
``batch_norm``'s arguments (with its ``cudnn_enabled``), ``embedding`` takes the weight first,
and the losses take an int ``reduction`` (1: mean, 2: sum, anything else: none, also by
default).

>>> import minitorch
>>> minitorch.dropout(minitorch.ones(3), 0.5, False)
tensor([1., 1., 1.])
>>> minitorch.hinge_embedding_loss(minitorch.tensor([0.5, 2.]), minitorch.tensor([1., -1.]))
tensor([0.5000, 0.0000])
"""

from __future__ import annotations

import math
from typing import Any

from . import _args, _call_form
from ._tensor import Tensor
from .nn import functional as F
from .nn.functional_losses import logits_kernel
from .nn.functional_losses_more import ranking_kernel

__all__ = [
    "adaptive_avg_pool1d",
    "adaptive_max_pool1d",
    "alpha_dropout",
    "alpha_dropout_",
    "avg_pool1d",
    "batch_norm",
    "bilinear",
    "binary_cross_entropy_with_logits",
    "celu",
    "celu_",
    "channel_shuffle",
    "constant_pad_nd",
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
    "cosine_embedding_loss",
    "cosine_similarity",
    "dropout",
    "dropout_",
    "embedding",
    "feature_alpha_dropout",
    "feature_alpha_dropout_",
    "feature_dropout",
    "feature_dropout_",
    "hinge_embedding_loss",
    "instance_norm",
    "kl_div",
    "layer_norm",
    "margin_ranking_loss",
    "max_pool1d",
    "max_pool1d_with_indices",
    "max_pool2d",
    "max_pool3d",
    "pairwise_distance",
    "pixel_shuffle",
    "pixel_unshuffle",
    "poisson_nll_loss",
    "prelu",
    "rrelu",
    "rrelu_",
    "selu",
    "selu_",
    "threshold",
    "threshold_",
    "triplet_margin_loss",
]

# the same functions under the same names and arguments as F's
conv1d, conv2d, conv3d = F.conv1d, F.conv2d, F.conv3d
conv_transpose1d, conv_transpose2d, conv_transpose3d = F.conv_transpose1d, \
    F.conv_transpose2d, F.conv_transpose3d
pixel_shuffle, pixel_unshuffle = F.pixel_shuffle, F.pixel_unshuffle
cosine_similarity, pairwise_distance, prelu, bilinear = F.cosine_similarity, \
    F.pairwise_distance, F.prelu, F.bilinear
adaptive_avg_pool1d = F.adaptive_avg_pool1d
avg_pool1d = F.avg_pool1d  # torch.avg_pool1d is F.avg_pool1d, one builtin
channel_shuffle = F.channel_shuffle


def _reduction(fn: str, value: Any, position: int | None) -> str:
    """An int ``reduction`` as torch's kernels read it: 1 the mean, 2 the sum, else none."""
    reduction = _args.integer(fn, value, "reduction", position)
    return {1: "mean", 2: "sum"}.get(reduction, "none")


def dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """Zeros with probability ``p`` and the rest scaled by ``1 / (1 - p)`` where ``train``,
    else ``input`` itself (``F.dropout``).

    >>> minitorch.dropout(minitorch.ones(2), 0.0, True)
    tensor([1., 1.])
    """
    return _dropout("dropout", input, p, train, inplace=False)


def dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place ``dropout``.

    >>> minitorch.dropout_(minitorch.ones(2), 0.0, True)
    tensor([1., 1.])
    """
    return _dropout("dropout_", input, p, train, inplace=True)


def _dropout(fn: str, input: Any, p: Any, train: Any, inplace: bool) -> Tensor:
    _args.tensor_args(fn, (input, "input", 1))
    (p,) = _args.reals(fn, (p, "p", 2))
    train = _args.flag(fn, train, "train", 3)
    if not 0 <= p <= 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p:g}")
    return F.dropout(input, p, train, inplace)


def feature_dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """``dropout`` of whole channels: one draw per ``input[i, j]`` (``F.dropout2d``'s kernel).

    >>> minitorch.feature_dropout(minitorch.ones(1, 2), 0.5, False)
    tensor([[1., 1.]])
    """
    return F._vf_dropout("feature_dropout", input, p, train, False, True, False)


def feature_dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place ``feature_dropout``.

    >>> minitorch.feature_dropout_(minitorch.ones(1, 2), 0.0, True)
    tensor([[1., 1.]])
    """
    return F._vf_dropout("feature_dropout", input, p, train, True, True, False)


@_call_form.parser_types(lower="Number", upper="Number")
def rrelu(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3,
          training: bool = False, generator: Any = None) -> Tensor:
    """``F.rrelu`` under torch's top-level signature (minitorch draws from its global
    generator whatever ``generator`` is given).

    >>> minitorch.rrelu(minitorch.tensor([-1., 2.]))
    tensor([-0.2292,  2.0000])
    """
    return F.rrelu(input, lower, upper, training)


@_call_form.parser_types(lower="Number", upper="Number")
def rrelu_(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3,
           training: bool = False, generator: Any = None) -> Tensor:
    """In-place ``rrelu``.

    >>> minitorch.rrelu_(minitorch.tensor([-1., 2.]))
    tensor([-0.2292,  2.0000])
    """
    return F.rrelu(input, lower, upper, training, inplace=True)


def constant_pad_nd(input: Tensor, pad: Any, value: Any = 0) -> Tensor:
    """``input`` padded with ``value`` (``F.pad``'s constant mode; ``pad`` gives the last dim's
    two sides first).

    >>> minitorch.constant_pad_nd(minitorch.tensor([1., 2.]), (1, 0), 9.)
    tensor([9., 1., 2.])
    """
    _args.tensor_args("constant_pad_nd", (input, "input", 1))
    _args.int_tuple("constant_pad_nd", pad, "pad", 2)
    pad, value = _args.parsed("constant_pad_nd", ("ints", pad, "pad", 2),
                              ("number", value, "value", 3))
    if len(pad) % 2:
        raise RuntimeError(f"Length of pad must be even but instead it equals {len(pad)}")
    if len(pad) > 2 * input.dim():  # (torch's words, its spaces missing)
        raise RuntimeError("Length of pad should be no more than twice the number of "
                           f"dimensions of the input. Pad length is {len(pad)}while the input "
                           f"has {input.dim()}dimensions.")
    return F.pad(input, tuple(pad), "constant", value)


@_call_form.alias_of("max_pool1d")
def max_pool1d_with_indices(input: Tensor, kernel_size: Any, stride: Any = (), padding: Any = 0,
                            dilation: Any = 1, ceil_mode: bool = False) -> tuple:
    """``max_pool1d``'s maxima and where they are (``F.max_pool1d(..., return_indices=True)``).

    >>> minitorch.max_pool1d_with_indices(minitorch.tensor([[1., 3., 2., 0.]]), 2)[1]
    tensor([[1, 2]])
    """
    return F.max_pool1d(input, kernel_size, stride if stride != () else None, padding, dilation,
                        ceil_mode, return_indices=True)


def embedding(weight: Tensor, indices: Tensor, padding_idx: int = -1,
              scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """The rows of ``weight`` at ``indices`` (torch's order of the two; ``padding_idx``
    -1 for none).

    >>> minitorch.embedding(minitorch.eye(3), minitorch.tensor([2, 0]))
    tensor([[0., 0., 1.],
            [1., 0., 0.]])
    """
    _args.tensor_args("embedding", (weight, "weight", 1), (indices, "indices", 2))
    (padding_idx,) = _args.integers("embedding", (padding_idx, "padding_idx", 3))
    return F.embedding(indices, weight, None if padding_idx == -1 else padding_idx,
                       scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


def layer_norm(input: Tensor, normalized_shape: Any, weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-05,
               cudnn_enable: bool = True) -> Tensor:
    """``F.layer_norm`` (``cudnn_enable`` has no effect on the CPU).

    >>> minitorch.layer_norm(minitorch.tensor([[1., 3.]]), (2,))
    tensor([[-1.0000,  1.0000]])
    """
    _args.flag("layer_norm", cudnn_enable, "cudnn_enable", 6)
    return F.layer_norm(input, normalized_shape, weight, bias, eps)


def batch_norm(input: Tensor, weight: Any = _args.OMITTED, bias: Any = _args.OMITTED,
               running_mean: Any = _args.OMITTED, running_var: Any = _args.OMITTED,
               training: Any = _args.OMITTED, momentum: Any = _args.OMITTED,
               eps: Any = _args.OMITTED, cudnn_enabled: Any = _args.OMITTED) -> Tensor:
    """``F.batch_norm`` with torch's top-level order of arguments, every one required.

    >>> minitorch.batch_norm(minitorch.tensor([[1.], [3.]]), None, None, None, None, True,
    ...                      0.1, 1e-5, False)
    tensor([[-1.0000],
            [ 1.0000]])
    """
    _norm_parsed("batch_norm", input, weight, bias, running_mean, running_var,
                 ("training", training), momentum, eps, cudnn_enabled)
    return F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum,
                        eps)


def _stats_as_parameters(input: Tensor, weight: Any, running_mean: Any,
                         running_var: Any) -> tuple:
    """instance_norm's running statistics in its parameters' dtype (the weight's, else the
    input's): torch casts both where the running mean has another (a missing running var
    then fails the cast), and its batch_norm reads them so; the updates are cast back.

    >>> x = minitorch.ones(1, 2, 2, dtype=minitorch.float64)
    >>> [t.dtype for t in _stats_as_parameters(x, None, minitorch.ones(2), minitorch.ones(2))]
    [torch.float64, torch.float64]
    """
    dtype = (input if weight is None else weight).dtype
    if running_mean is None or running_mean.dtype is dtype:
        return running_mean, running_var
    if running_var is None:
        raise _args.undefined_self()
    return running_mean.to(dtype), running_var.to(dtype)


def _norm_parsed(fn: str, input: Any, weight: Any, bias: Any, running_mean: Any,
                 running_var: Any, flag: tuple, momentum: Any, eps: Any,
                 cudnn_enabled: Any) -> tuple:
    """The arguments of torch's top-level ``batch_norm``/``instance_norm``, every one
    required, as its parser reads them (every given one's type, then the missing ones):
    ``flag`` (its name and value), ``momentum`` and ``eps``."""
    specs = (("tensor", input, "input"), ("tensor?", weight, "weight"), ("tensor?", bias, "bias"),
             ("tensor?", running_mean, "running_mean"), ("tensor?", running_var, "running_var"),
             ("bool", flag[1], flag[0]), ("float", momentum, "momentum"),
             ("float", eps, "eps"), ("bool", cudnn_enabled, "cudnn_enabled"))
    read = _args.parsed(fn, *((*spec, i) for i, spec in enumerate(specs, start=1)),
                        required=True)
    return read[5:8]


def selu(input: Tensor) -> Tensor:
    """``F.selu``.

    >>> minitorch.selu(minitorch.tensor([0.]))
    tensor([0.])
    """
    return F.selu(input)


def selu_(input: Tensor) -> Tensor:
    """In-place ``selu``.

    >>> minitorch.selu_(minitorch.tensor([0.]))
    tensor([0.])
    """
    return F.selu(input, inplace=True)  # (torch's node: EluBackward1)


@_call_form.parser_types(alpha="Number")
def celu(input: Tensor, alpha: float = 1.0) -> Tensor:
    """``F.celu``.

    >>> minitorch.celu(minitorch.tensor([1.]))
    tensor([1.])
    """
    return F.celu(input, alpha)


@_call_form.parser_types(alpha="Number")
def celu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    """In-place ``celu``.

    >>> minitorch.celu_(minitorch.tensor([1.]))
    tensor([1.])
    """
    return F.celu(input, alpha, inplace=True)


@_call_form.parser_types(threshold="Number", value="Number")
def threshold(input: Tensor, threshold: float, value: float) -> Tensor:
    """``value`` where ``input`` is not above ``threshold`` (``F.threshold``).

    >>> minitorch.threshold(minitorch.tensor([0.5, 2.]), 1., -1.)
    tensor([-1.,  2.])
    """
    return F.threshold(input, threshold, value)


@_call_form.parser_types(threshold="Number", value="Number")
def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:
    """In-place ``threshold``.

    >>> minitorch.threshold_(minitorch.tensor([0.5, 2.]), 1., 0.)
    tensor([0., 2.])
    """
    return F.threshold(input, threshold, value, inplace=True)


def kl_div(input: Tensor, target: Tensor, reduction: int = 0, *,
           log_target: bool = False) -> Tensor:
    """``F.kl_div`` with an int ``reduction``.

    >>> minitorch.kl_div(minitorch.zeros(2), minitorch.ones(2), 2)
    tensor(0.)
    """
    return F.kl_div(input, target, reduction=_reduction("kl_div", reduction, 3),
                    log_target=log_target)


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                        reduction: int = 0) -> Tensor:
    """``F.margin_ranking_loss`` with an int ``reduction``.

    >>> minitorch.margin_ranking_loss(minitorch.ones(1), minitorch.zeros(1), -minitorch.ones(1))
    tensor([1.])
    """
    _args.parsed("margin_ranking_loss", ("tensor", input1, "input1", 1),
                 ("tensor", input2, "input2", 2), ("tensor", target, "target", 3),
                 ("float", margin, "margin", 4), ("int", reduction, "reduction", 5))
    return ranking_kernel(input1, input2, target, margin,
                          _reduction("margin_ranking_loss", reduction, 5))


def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0,
                         reduction: int = 0) -> Tensor:
    """``F.hinge_embedding_loss`` with an int ``reduction``.

    >>> minitorch.hinge_embedding_loss(minitorch.ones(1), -minitorch.ones(1), reduction=2)
    tensor(0.)
    """
    return F.hinge_embedding_loss(input, target, margin,
                                  reduction=_reduction("hinge_embedding_loss", reduction, 4))


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                          reduction: int = 0) -> Tensor:
    """``F.cosine_embedding_loss`` with an int ``reduction``.

    >>> minitorch.cosine_embedding_loss(minitorch.ones(1, 2), minitorch.ones(1, 2),
    ...                                 minitorch.ones(1))
    tensor([0.])
    """
    return F.cosine_embedding_loss(input1, input2, target, margin,
                                   reduction=_reduction("cosine_embedding_loss", reduction, 5))


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor,
                        margin: float = 1.0, p: float = 2, eps: float = 1e-06,
                        swap: bool = False, reduction: int = 0) -> Tensor:
    """``F.triplet_margin_loss`` with an int ``reduction``.

    >>> minitorch.triplet_margin_loss(minitorch.zeros(1, 2), minitorch.zeros(1, 2),
    ...                               minitorch.zeros(1, 2), reduction=1)
    tensor(1.)
    """
    margin, p, eps, swap, reduction = _args.parsed(
        "triplet_margin_loss", ("tensor", anchor, "anchor", 1), ("tensor", positive, "positive", 2),
        ("tensor", negative, "negative", 3), ("float", margin, "margin", 4), ("float", p, "p", 5),
        ("float", eps, "eps", 6), ("bool", swap, "swap", 7), ("int", reduction, "reduction", 8))[3:]
    return F.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
                                 reduction=_reduction("triplet_margin_loss", reduction, 8))


def poisson_nll_loss(input: Tensor, target: Tensor, log_input: Any = _args.OMITTED,
                     full: Any = _args.OMITTED, eps: Any = _args.OMITTED,
                     reduction: Any = _args.OMITTED) -> Tensor:
    """``F.poisson_nll_loss``, every argument required and ``reduction`` an int.

    >>> minitorch.poisson_nll_loss(minitorch.zeros(2), minitorch.ones(2), True, False, 1e-8, 2)
    tensor(2.)
    """
    _args.parsed("poisson_nll_loss", ("tensor", input, "input", 1), ("tensor", target, "target", 2),
                 ("bool", log_input, "log_input", 3), ("bool", full, "full", 4),
                 ("float", eps, "eps", 5), ("int", reduction, "reduction", 6), required=True)
    return F.poisson_nll_loss(input, target, log_input, full, eps=eps,
                              reduction=_reduction("poisson_nll_loss", reduction, 6))


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor,
                                     weight: Tensor | None = None,
                                     pos_weight: Tensor | None = None,
                                     reduction: int = 0) -> Tensor:
    """``F.binary_cross_entropy_with_logits`` with an int ``reduction``.

    >>> minitorch.binary_cross_entropy_with_logits(minitorch.zeros(1), minitorch.ones(1))
    tensor([0.6931])
    """
    _args.parsed("binary_cross_entropy_with_logits", ("tensor", input, "input", 1),
                 ("tensor", target, "target", 2), ("tensor?", weight, "weight", 3),
                 ("tensor?", pos_weight, "pos_weight", 4), ("int", reduction, "reduction", 5))
    return logits_kernel(input, target, weight, pos_weight,
                         _reduction("binary_cross_entropy_with_logits", reduction, 5))


def _top_level_pool(dims: int, doc: str) -> Any:
    """torch's ``max_pool{dims}d(input, kernel_size, stride=(), padding, dilation,
    ceil_mode)``: ``F``'s, an empty ``stride`` being the kernel size; with ``doc``."""
    pool = getattr(F, f"max_pool{dims}d")

    def form(input: Tensor, kernel_size: Any, stride: Any = (), padding: Any = 0,
             dilation: Any = 1, ceil_mode: bool = False) -> Tensor:
        _args.parsed(f"max_pool{dims}d", ("tensor", input, "input", 1),
                     *(("ints", value, name, i + 2) for i, (value, name) in enumerate(
                         ((kernel_size, "kernel_size"), (stride, "stride"),
                          (padding, "padding"), (dilation, "dilation")))),
                     ("bool", ceil_mode, "ceil_mode", 6))
        return pool(input, kernel_size, stride or None, padding, dilation, ceil_mode)
    form.__name__ = form.__qualname__ = f"max_pool{dims}d"
    form.__doc__ = doc
    return form


max_pool1d = _top_level_pool(1, """``F.max_pool1d`` (an empty ``stride``: the kernel size).

    >>> minitorch.max_pool1d(minitorch.tensor([[1., 3., 2., 0.]]), 2)
    tensor([[3., 2.]])
    """)
max_pool2d = _top_level_pool(2, """``F.max_pool2d`` (an empty ``stride``: the kernel size).

    >>> minitorch.max_pool2d(minitorch.arange(4.).view(1, 2, 2), 2)
    tensor([[[3.]]])
    """)
max_pool3d = _top_level_pool(3, """``F.max_pool3d`` (an empty ``stride``: the kernel size).

    >>> minitorch.max_pool3d(minitorch.arange(8.).view(1, 2, 2, 2), 2)
    tensor([[[[7.]]]])
    """)


def _single(fn: str, name: str, values: Any) -> int:
    if len(values) != 1:
        raise RuntimeError(f"{fn}() argument '{name}' should contain one int (got "
                           f"{len(values)})")
    return values[0]


def _ints(fn: str, name: str, value: Any, position: int) -> tuple:
    """A 1-d pooling's size as torch's parser reads it: an int or a tuple of ints."""
    if isinstance(value, bool):  # the parser's refusal of a lone bool for a tuple of ints
        raise TypeError(f"{fn}(): argument '{name}' (position {position}) must be tuple of "
                        "ints, not bool")
    return _args.int_list(fn, value, name, position)


def _pooled_dims(fn: str, input: Any) -> None:
    _args.tensor_args(fn, (input, "input", 1))
    if not 2 <= input.dim() < 4:
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional "
                           f"tensor for argument #1 'self' (while checking arguments for {fn})")


def adaptive_max_pool1d(input: Tensor, output_size: Any) -> tuple:
    """The maxima of ``output_size`` adaptive windows along the last dim and where they are:
    torch's composition, ``adaptive_max_pool2d`` of a height-1 input, squeezed.

    >>> minitorch.adaptive_max_pool1d(minitorch.tensor([[1., 3., 2., 0.]]), 2)[0]
    tensor([[3., 2.]])
    """
    _args.tensor_args("adaptive_max_pool1d", (input, "input", 1))  # the parser's order:
    sizes = _ints("adaptive_max_pool1d", "output_size", output_size, 2)  # types, the input's
    _pooled_dims("adaptive_max_pool1d", input)  # dims, then the size's length
    size = _single("adaptive_max_pool1d", "output_size", sizes)
    for i in range(1, input.dim()):
        if not input.shape[i]:
            raise RuntimeError(f"adaptive_max_pool1d(): Expected input to have non-zero size "
                               f"for non-batch dimensions, but input has sizes "
                               f"{list(input.shape)} with dimension {i} being empty")
    values, indices = F.adaptive_max_pool2d(input.unsqueeze(-2), (1, size),
                                            return_indices=True)
    return values.squeeze(-2), indices.squeeze(-2)


_ALPHA = 1.7580993408473766  # SELU's alpha times its scale: the value dropped units take


def alpha_dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """Dropout that keeps SELU's mean and variance: dropped elements take ``-alpha``'s
    value, then all are scaled and shifted back (torch's composition, its mask).

    >>> minitorch.alpha_dropout(minitorch.ones(2), 0.5, False)
    tensor([1., 1.])
    """
    return _alpha_dropout("alpha_dropout", input, p, train, feature=False, inplace=False)


def alpha_dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place ``alpha_dropout``.

    >>> minitorch.alpha_dropout_(minitorch.ones(2), 0.0, True)
    tensor([1., 1.])
    """
    return _alpha_dropout("alpha_dropout_", input, p, train, feature=False, inplace=True)


def feature_alpha_dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """``alpha_dropout`` of whole channels (one draw per sample and channel).

    >>> minitorch.feature_alpha_dropout(minitorch.ones(1, 2), 0.5, False)
    tensor([[1., 1.]])
    """
    return _alpha_dropout("feature_alpha_dropout", input, p, train, feature=True,
                          inplace=False)


def feature_alpha_dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """In-place ``feature_alpha_dropout``.

    >>> minitorch.feature_alpha_dropout_(minitorch.ones(1, 2), 0.0, True)
    tensor([[1., 1.]])
    """
    return _alpha_dropout("feature_alpha_dropout_", input, p, train, feature=True,
                          inplace=True)


def _alpha_dropout(fn: str, input: Any, p: Any, train: Any, feature: bool,
                   inplace: bool) -> Tensor:
    """torch's ``_dropout_impl`` for alpha dropout: a mask by ``bernoulli_(1 - p)`` (per
    channel for ``feature``), scaled by ``a``, plus the shift ``b``."""
    from ._creation import empty

    _args.tensor_args(fn, (input, "input", 1))
    (p,) = _args.reals(fn, (p, "p", 2))
    train = _args.flag(fn, train, "train", 3)
    if not 0 <= p <= 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p:g}")
    if p == 0 or not train or not input.numel():
        return input
    if p == 1:
        zero = input.new_zeros(())
        return input.mul_(zero) if inplace else input * zero
    if feature and input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    shape = (*input.shape[:2], *(1,) * (input.dim() - 2)) if feature else input.shape
    noise = empty(shape, dtype=input.dtype, device=input.device).bernoulli_(1 - p)
    a = 1.0 / math.sqrt((_ALPHA * _ALPHA * p + 1) * (1 - p))
    shift = noise.add(-1).mul_(_ALPHA * a).add_(_ALPHA * a * p)
    noise.mul_(a)
    return (input.mul_(noise) if inplace else input * noise).add_(shift)


def instance_norm(input: Tensor, weight: Any = _args.OMITTED, bias: Any = _args.OMITTED,
                  running_mean: Any = _args.OMITTED, running_var: Any = _args.OMITTED,
                  use_input_stats: Any = _args.OMITTED, momentum: Any = _args.OMITTED,
                  eps: Any = _args.OMITTED, cudnn_enabled: Any = _args.OMITTED) -> Tensor:
    """Each sample's channels normalised on their own: torch's composition, one
    ``batch_norm`` of the input seen as one sample of ``N * C`` channels (the running
    statistics updated with the mean over the samples).

    >>> minitorch.instance_norm(minitorch.tensor([[[1., 3.]]]), None, None, None, None,
    ...                         True, 0.1, 1e-5, False)
    tensor([[[-1.0000,  1.0000]]])
    """
    # its parser's types, before its own checks; the batch_norm it runs reads them again
    use_input_stats, momentum, eps = _norm_parsed(
        "instance_norm", input, weight, bias, running_mean, running_var,
        ("use_input_stats", use_input_stats), momentum, eps, cudnn_enabled)
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError("Expected running_mean and running_var to be defined when "
                           "use_input_stats is false")
    _args.wrap_dim(1, input.dim())  # torch's kernel reads the channels, input.size(1)
    samples, channels = input.shape[:2]

    def repeated(t: Any) -> Any:
        return None if t is None else t.repeat(samples)

    w, b = repeated(weight), repeated(bias)
    mean, var = (repeated(t) for t in _stats_as_parameters(input, weight, running_mean,
                                                            running_var))
    shape = (1, samples * channels, *input.shape[2:])
    # torch's C++ batch_norm: not the Python function's checks (an eps of 0 runs)
    out = F._native_batch_norm(input.contiguous().view(shape), mean, var, w, b,
                               use_input_stats, momentum, eps)
    from .autograd.grad_mode import no_grad

    with no_grad():
        for given, updated in ((running_mean, mean), (running_var, var)):
            if given is not None:
                given.copy_(updated.view(samples, channels).mean(0))
    return out.view(input.shape)
