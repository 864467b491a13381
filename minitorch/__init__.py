"""minitorch: a small, readable autograd library that behaves like ``torch.autograd``.

A program written for torch's autograd, within the covered subset, runs unchanged after
``import minitorch as torch`` and prints the same numbers, node names and errors.

>>> import minitorch as torch
>>> A = torch.tensor(2., requires_grad=True)
>>> B = torch.tensor(.5, requires_grad=True)
>>> E = torch.tensor(1., requires_grad=True)
>>> F = (A * B).exp() + E
>>> F
tensor(3.7183, grad_fn=<AddBackward0>)
>>> F.backward(); A.grad, B.grad, E.grad
(tensor(1.3591), tensor(5.4366), tensor(1.))
"""

from __future__ import annotations

from math import e, inf, nan, pi  # torch's constants are these very floats
from typing import Any

from . import (
    __future__,
    _args,
    _call_form,
    _methods,
    accelerator,
    autograd,
    backends,
    course,
    cuda,
    distributions,
    func,
    linalg,
    nn,
    onnx,
    optim,
    overrides,
    profiler,
    random,
    return_types,
    serialization,
    testing,
    utils,
)
from ._aliases import (
    absolute,
    adjoint,
    clip,
    concat,
    concatenate,
    conj,
    conj_physical,
    conj_physical_,
    divide,
    fix,
    is_conj,
    is_floating_point,
    is_neg,
    multiply,
    negative,
    positive,
    resolve_conj,
    resolve_neg,
    rsub,
    sgn,
    subtract,
    true_divide,
    typename,
)
from ._alpha_first import alpha_first
from ._as_tensor import as_tensor, asarray
from ._attributes import get_device, imag, is_complex, is_nonzero, is_same_size, is_signed, real
from ._compile import compile
from ._complex import complex, polar, view_as_complex, view_as_real
from ._creation import (
    arange,
    empty,
    eye,
    from_numpy,
    frombuffer,
    full,
    ones,
    ones_like,
    rand,
    randn,
    tensor,
    zeros,
    zeros_like,
)
from ._deterministic import (
    are_deterministic_algorithms_enabled,
    get_deterministic_debug_mode,
    is_deterministic_algorithms_warn_only_enabled,
    set_deterministic_debug_mode,
    use_deterministic_algorithms,
)
from ._dtype import (
    bool,
    can_cast,
    dtype,
    finfo,
    float16,
    float32,
    float64,
    get_default_dtype,
    iinfo,
    int8,
    int16,
    int32,
    int64,
    promote_types,
    set_default_dtype,
    uint8,
)
from ._dtype import result_type_of_two as result_type
from ._factories import (
    BoolTensor,
    ByteTensor,
    CharTensor,
    DoubleTensor,
    FloatTensor,
    HalfTensor,
    IntTensor,
    LongTensor,
    ShortTensor,
    creation_options,
    empty_like,
    empty_strided,
    full_like,
    get_default_device,
    linspace,
    logspace,
    resize_as_,
    scalar_tensor,
    set_default_device,
    set_default_tensor_type,
    with_size_keyword,
)
from ._gamma_random import _dirichlet_grad, _sample_dirichlet, _standard_gamma, _standard_gamma_grad
from ._layout import (
    channels_last,
    channels_last_3d,
    contiguous_format,
    layout,
    memory_format,
    preserve_format,
    strided,
)
from ._nn_functions import (
    adaptive_avg_pool1d,
    adaptive_max_pool1d,
    alpha_dropout,
    alpha_dropout_,
    avg_pool1d,
    batch_norm,
    bilinear,
    binary_cross_entropy_with_logits,
    celu,
    celu_,
    channel_shuffle,
    constant_pad_nd,
    conv1d,
    conv2d,
    conv3d,
    conv_transpose1d,
    conv_transpose2d,
    conv_transpose3d,
    cosine_embedding_loss,
    cosine_similarity,
    dropout,
    dropout_,
    embedding,
    feature_alpha_dropout,
    feature_alpha_dropout_,
    feature_dropout,
    feature_dropout_,
    hinge_embedding_loss,
    instance_norm,
    kl_div,
    layer_norm,
    margin_ranking_loss,
    max_pool1d,
    max_pool1d_with_indices,
    max_pool2d,
    max_pool3d,
    pairwise_distance,
    pixel_shuffle,
    pixel_unshuffle,
    poisson_nll_loss,
    prelu,
    rrelu,
    rrelu_,
    selu,
    selu_,
    threshold,
    threshold_,
    triplet_margin_loss,
)
from ._random import (
    Generator,
    bernoulli,
    binomial,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    multinomial,
    normal,
    poisson,
    rand_like,
    randint,
    randint_like,
    randn_like,
    randperm,
    seed,
    set_rng_state,
)
from ._range import range
from ._removed import eig, lstsq, matrix_rank, solve
from ._tensor import Size, Tensor
from ._tensor_str import set_printoptions
from ._warn_once import is_warn_always_enabled, set_warn_always
from ._windows import (
    bartlett_window,
    blackman_window,
    hamming_window,
    hann_window,
    kaiser_window,
)
from .autograd.anomaly_mode import (
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    set_anomaly_enabled,
)
from .autograd.grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from .backend import device
from .backends.cuda import get_float32_matmul_precision, set_float32_matmul_precision
from .func import vmap  # torch.vmap is torch.func.vmap
from .ops import _out
from .ops._cascade_sum import get_num_threads, set_num_threads
from .ops.as_strided import as_strided, as_strided_
from .ops.binary_more import (
    arctan2,
    atan2,
    copysign,
    float_power,
    fmax,
    fmin,
    heaviside,
    hypot,
    logaddexp,
    logaddexp2,
)
from .ops.broadcast import broadcast_tensors, broadcast_to, meshgrid
from .ops.channel_shuffle import native_channel_shuffle
from .ops.counting import (
    bincount,
    bucketize,
    histc,
    histogram,
    histogramdd,
    isin,
    searchsorted,
)
from .ops.cross import cross
from .ops.decompositions import (
    cholesky,
    cholesky_inverse,
    cholesky_solve,
    logdet,
    pinverse,
    qr,
    slogdet,
    svd,
)
from .ops.diagonal import block_diag, diag, diag_embed, diagflat, diagonal, trace
from .ops.differences import cumulative_trapezoid, diff, trapezoid, trapz
from .ops.dist import cdist, dist, pdist
from .ops.divisors import gcd, lcm
from .ops.einsum import einsum
from .ops.floating import frexp, ldexp, nextafter
from .ops.foreach import _foreach_add, _foreach_add_, _foreach_mul, _foreach_mul_
from .ops.gamma import digamma, lgamma, mvlgamma, polygamma
from .ops.gather import gather, index_select, scatter, scatter_add, scatter_reduce
from .ops.gradient import gradient
from .ops.grids import cartesian_prod, combinations, vander
from .ops.hardshrink import hardshrink
from .ops.householder import geqrf, orgqr
from .ops.index_reduce import index_reduce
from .ops.index_tables import tril_indices, triu_indices, unravel_index
from .ops.index_write import index_copy, index_fill, index_put, index_put_, put, take
from .ops.inplace_more import index_add
from .ops.kl_div import xlogy
from .ops.linalg import addmm, matmul, mm
from .ops.logic import (
    bitwise_and,
    bitwise_left_shift,
    bitwise_not,
    bitwise_or,
    bitwise_right_shift,
    bitwise_xor,
    count_nonzero,
    isclose,
    isfinite,
    isinf,
    isneginf,
    isposinf,
    isreal,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    signbit,
)
from .ops.lu import lu, lu_solve, lu_unpack
from .ops.masked import masked_fill_function as masked_fill
from .ops.masked import masked_scatter, masked_select
from .ops.matrix_exp import matrix_exp
from .ops.nn_ops import log_softmax, softmax
from .ops.nonzero import argwhere, nonzero, nonzero_static
from .ops.norm import frobenius_norm, norm, nuclear_norm
from .ops.normalize import clamp_max, clamp_min, group_norm, rms_norm
from .ops.pointwise import (
    add,
    clamp,
    div,
    floor_divide,
    fmod,
    maximum,
    minimum,
    mul,
    pow,
    remainder,
    round,
    sub,
    where,
)
from .ops.products import (
    chain_matmul,
    inner,
    kron,
    matrix_power,
    outer,
    tensordot,
    vdot,
)
from .ops.rearrange import (
    fliplr,
    flipud,
    narrow_copy,
    ravel,
    roll,
    rot90,
    swapaxes,
    swapdims,
    tile,
)
from .ops.reduction import argmax, argmin, logsumexp, max, mean, min, std, sum, var
from .ops.reduction_more import (
    amax,
    amin,
    aminmax,
    nanmean,
    nansum,
    std_mean,
    var_mean,
)
from .ops.renorm import renorm
from .ops.scaled_products import addbmm, addmv, addmv_, addr, baddbmm
from .ops.scan import cumprod, cumsum, prod
from .ops.scan import flip_function as flip
from .ops.scan_more import cummax, cummin, logcumsumexp
from .ops.selection import kthvalue, median, mode, msort, nanmedian
from .ops.shape import cat, stack
from .ops.sorting import argsort, sort, topk
from .ops.special import addcdiv, addcmul, lerp
from .ops.special_functions import erfc, erfinv, i0, logit, nan_to_num
from .ops.special_more import igamma, igammac
from .ops.split import chunk, repeat_interleave, select, split, split_with_sizes
from .ops.stacking import (
    atleast_1d,
    atleast_2d,
    atleast_3d,
    column_stack,
    dstack,
    hstack,
    row_stack,
    vstack,
)
from .ops.statistics import corrcoef, cov, nanquantile, quantile
from .ops.take import take_along_dim
from .ops.tensor_split import dsplit, hsplit, tensor_split, unsafe_chunk, unsafe_split, vsplit
from .ops.triangle import tril, triu
from .ops.triangular_solve import triangular_solve
from .ops.trig import (
    acos,
    angle,
    arccos,
    arcsin,
    arctan,
    asin,
    atan,
    deg2rad,
    rad2deg,
    sinc,
    tan,
)
from .ops.unique import unique, unique_consecutive
from .ops.view_copies import copy_functions
from .ops.view_scatter import diagonal_scatter, select_scatter, slice_scatter
from .serialization import load, save

ger = outer  # torch's older name
add, sub = alpha_first("add")(add), alpha_first("sub")(sub)  # also (Number alpha, other)

__version__ = "0.1.0"

zeros, ones, empty, rand, randn = (with_size_keyword(f) for f in (zeros, ones, empty, rand, randn))
# torch's layout=, pin_memory= and out= keywords, where its signature has them
(zeros, ones, empty, rand, randn, full, arange, eye, linspace, logspace, randint, randperm) = (
    creation_options(f) for f in (zeros, ones, empty, rand, randn, full, arange, eye, linspace,
                                  logspace, randint, randperm))
range = creation_options(range, pin_memory=False)
(zeros_like, ones_like, full_like, empty_like, rand_like, randn_like, randint_like,
 empty_strided, scalar_tensor, tril_indices, triu_indices) = (
    creation_options(f, out=False) for f in (
        zeros_like, ones_like, full_like, empty_like, rand_like, randn_like, randint_like,
        empty_strided, scalar_tensor, tril_indices, triu_indices))
(hann_window, hamming_window, blackman_window, bartlett_window, kaiser_window) = (
    creation_options(f, layout=False, out=False) for f in (
        hann_window, hamming_window, blackman_window, bartlett_window, kaiser_window))
tensor = creation_options(tensor, layout=False, out=False, pin_none=False)

float = float32
double = float64
half = float16
long = int64
int = int32
short = int16

_T = Tensor


def _method(name: str, other: str | None = None):  # type: ignore[no-untyped-def]
    """``minitorch.name(input, ...)`` as ``input.name(...)``; ``other`` names a second
    tensor argument, checked here so that torch's message counts it as position 2."""
    def fn(input: Tensor, *args, **kwargs):  # type: ignore[no-untyped-def]
        if too_many := _call_form.too_many_positional(fn, name, (input, *args), False):
            raise TypeError(too_many)  # (the parser counts them before any type)
        if not isinstance(input, Tensor):
            raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                            f"{_args.type_name(input)}")
        if other is not None and args:
            _args.tensor_args(name, (args[0], other, 2))
        result = _call_form.unwrapped(getattr(Tensor, name))(input, *args, **kwargs)
        if result is NotImplemented:  # a comparison's operand that torch's signatures refuse
            raise _args.invalid_combination(
                name, (input, *args), "Tensor input, Tensor other, *, Tensor out = None",
                "Tensor input, Number other, *, Tensor out = None")
        return result

    fn.__name__ = name
    fn.__wrapped__ = _call_form.unwrapped(getattr(Tensor, name))  # type: ignore[attr-defined]
    fn.torch_signatures = getattr(fn.__wrapped__, "torch_signatures", ())  # type: ignore
    if name.endswith("_") and fn.torch_signatures:  # an in-place method's function: its
        fn.torch_signatures = tuple(  # type: ignore  # method's signatures after its input
            ", ".join(("Tensor input", *filter(None, [s])))
            for s in _call_form.method_signatures(list(fn.torch_signatures)))
    if fn.__wrapped__.__name__ != name and hasattr(Tensor, fn.__wrapped__.__name__):  # an alias
        fn.alias_of = fn.__wrapped__.__name__  # type: ignore  # (moveaxis): torch names its own
    fn.__signature__ = _call_form.function_signature(fn.__wrapped__)  # type: ignore
    fn.__doc__ = f"``minitorch.{name}(x, ...)`` is ``x.{name}(...)``.\n\n    >>> " \
                 f"minitorch.{name} is not None\n    True\n    "
    return fn


for _name in ("exp", "log", "sqrt", "sin", "cos", "abs", "sigmoid", "tanh", "relu", "neg",
              "log1p", "expm1", "rsqrt",
              "reciprocal", "sign", "square", "t", "transpose", "movedim", "moveaxis",
              "unsqueeze", "squeeze", "flatten", "unbind", "narrow", "clone", "detach",
              "is_inference",
              "numel", "lt", "le", "gt", "ge", "eq", "ne", "less", "less_equal", "greater",
              "greater_equal", "not_equal", "floor", "ceil", "trunc", "frac", "log2",
              "log10", "exp2", "erf", "isnan", "sinh", "cosh", "asinh", "acosh", "atanh",
              "arcsinh", "arccosh", "arctanh", "inverse", "det"):
    globals()[_name] = _method(_name)
fill = _methods.fill


def unflatten(input: Tensor, dim: int, sizes: Any) -> Tensor:
    """``input.unflatten(dim, sizes)`` as torch's function: its parser reads dim's range
    before the method's (Python) refusal of no sizes.

    >>> unflatten(ones(2, 6), 1, (2, 3)).shape
    torch.Size([2, 2, 3])
    """
    _args.tensor_args("unflatten", (input, "input", 1))
    return _methods.unflatten_parsed(input, dim, sizes)


# torch's in-place functions: ``minitorch.relu_(x)`` is ``x.relu_()``
for _name in ("abs_", "acosh_", "arccosh_", "arcsinh_", "arctanh_", "asinh_", "atanh_", "ceil_",
              "clamp_", "clamp_max_", "clamp_min_", "clip_", "cos_", "cosh_", "detach_", "erf_",
              "exp2_", "exp_", "expm1_", "fill_", "floor_", "frac_", "log10_", "log1p_", "log2_",
              "log_", "neg_", "reciprocal_", "relu_", "round_", "rsqrt_", "sigmoid_", "sin_",
              "sinh_", "sqrt_", "square_", "tanh_", "trunc_", "zero_", "acos_", "asin_", "atan_",
              "tan_", "arccos_", "arcsin_", "arctan_", "negative_", "deg2rad_", "rad2deg_",
              "sinc_", "fix_", "xlogy_", "erfc_", "i0_", "logit_", "nan_to_num_", "ldexp_",
              "gcd_", "lcm_"):
    globals()[_name] = _method(_name)
for _name, _other in (("dot", "tensor"), ("mv", "vec"), ("bmm", "mat2"), ("equal", "other"),
                      ("allclose", "other")):
    globals()[_name] = _method(_name, _other)


def _sizes_form(name: str, input: Tensor, sizes: Any, argument: str) -> Tensor:
    """``minitorch.name(input, sizes)`` as ``input.name(sizes)``: torch's function takes the
    sizes as one tuple (or list) of ints, its ``argument`` at position 2, where the method also
    takes them spread out."""
    _args.tensor_args(name, (input, "input", 1))
    if not isinstance(sizes, (tuple, list)):
        raise TypeError(f"{name}(): argument '{argument}' (position 2) must be tuple of "
                        f"ints, not {_args.type_name(sizes)}")
    return getattr(input, name)(_args.sizes(name, (sizes,), argument, False, position=2))


def permute(input: Tensor, dims: Any) -> Tensor:
    """``input`` with its dimensions reordered; ``dims`` is one tuple of ints, as in torch.

    >>> minitorch.permute(minitorch.zeros(2, 3), (1, 0)).shape
    torch.Size([3, 2])
    """
    return _sizes_form("permute", input, dims, "dims")


def reshape(input: Tensor, shape: Any) -> Tensor:
    """``input`` with its values in a new shape; ``shape`` is one tuple of ints, as in torch.

    >>> minitorch.reshape(minitorch.zeros(2, 3), (3, 2)).shape
    torch.Size([3, 2])
    """
    return _sizes_form("reshape", input, shape, "shape")


def is_tensor(obj: object, /) -> bool:
    """True for minitorch tensors.

    >>> minitorch.is_tensor(minitorch.ones(1))
    True
    """
    return isinstance(obj, Tensor)


def is_storage(obj: object, /) -> bool:
    """True for a tensor's storage (``untyped_storage()`` or ``storage()``).

    >>> minitorch.is_storage(minitorch.ones(1).untyped_storage()), minitorch.is_storage(1)
    (True, False)
    """
    from ._storage import UntypedStorage
    return isinstance(obj, UntypedStorage)


@_call_form.overloads(*_methods.REDUCE_BOOL_SIGNATURES)
def all(input: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    """True where every element is true (non-zero), over everything or over ``dim``.

    >>> minitorch.all(minitorch.tensor([1., 2.]) > 0)
    tensor(True)
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"all(): argument 'input' (position 1) must be Tensor, not "
                        f"{_args.type_name(input)}")
    _methods.check_tensor_dim("all", (input, dim, keepdim), method=False)
    return input.all(dim, keepdim)


@_call_form.overloads(*_methods.REDUCE_BOOL_SIGNATURES)
def any(input: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    """True where some element is true (non-zero), over everything or over ``dim``.

    >>> minitorch.any(minitorch.tensor([0., 2.]) > 1)
    tensor(True)
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"any(): argument 'input' (position 1) must be Tensor, not "
                        f"{_args.type_name(input)}")
    _methods.check_tensor_dim("any", (input, dim, keepdim), method=False)
    return input.any(dim, keepdim)


def broadcast_shapes(*shapes: tuple) -> Size:
    """The shape the given shapes broadcast to.

    >>> minitorch.broadcast_shapes((2, 1), (3,))
    torch.Size([2, 3])
    """
    from ._tensor import checked_broadcast_shapes

    return Size(checked_broadcast_shapes(shapes))


globals().update(copy_functions(globals()))  # the ``*_copy`` ops, from their views
_out.add_out_keywords(globals())  # before their entries: the parser checks out
_call_form.public_functions(globals())  # torch's parser messages as the call was written
for _name in ("avg_pool1d", "celu_", "channel_shuffle", "hardshrink", "native_channel_shuffle",
              "pdist", "relu_", "rrelu_", "selu_", "threshold_"):
    setattr(nn.functional, _name, globals()[_name])  # torch's F.<name> is torch.<name> itself
_UNSUPPORTED_DTYPES = ("bfloat16", "complex32", "complex64", "complex128", "cfloat", "cdouble",
                       "chalf", "uint16", "uint32", "uint64", "BFloat16Tensor")


def __getattr__(name: str):  # type: ignore[no-untyped-def]
    """``minitorch.viz`` loads on first use: it needs graphviz, which the core does not;
    ``minitorch.special`` too. torch's dtypes that minitorch lacks are refused by name."""
    if name in ("viz", "special"):  # (special builds on this namespace, complete by then)
        import importlib

        return importlib.import_module(f".{name}", __name__)
    if name in _UNSUPPORTED_DTYPES:
        raise AttributeError(f"module 'minitorch' has no attribute {name!r}: torch's {name} is "
                             "not supported; minitorch's dtypes are bool, uint8, int8, int16, "
                             "int32, int64, float16, float32 and float64")
    raise AttributeError(f"module 'minitorch' has no attribute {name!r}")
