"""Reductions: sum, mean, var, max, min and logsumexp, over everything or over chosen dims.

>>> import minitorch
>>> x = minitorch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
>>> x.sum(0)
tensor([4., 6.], grad_fn=<SumBackward1>)
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Callable
from typing import Any

from .. import _args, _call_form, return_types
from .. import _dtype as D
from .._dtype import get_default_dtype
from .._tensor import Tensor
from ..autograd import profiler, torch_events
from ..backend import array_dtype, half_via_float, namespace, quiet
from ._base import REDUCED, Op, kept, wrap, written_dims
from ._cascade_sum import torch_sum
from ._variance_order import torch_variance
from .pointwise import where

Dims = int | tuple[int, ...] | list[int] | None

def _expand_back(g: Tensor, shape: tuple, dims: tuple[int, ...] | None, keepdim: bool) -> Tensor:
    """Broadcast a reduced gradient back over the reduced dims."""
    if dims is not None and not keepdim:
        for d in sorted(dims):
            g = g.unsqueeze(d)
    return g.expand(shape)


def _expand_back_array(g: Any, shape: tuple, dims: tuple[int, ...] | None,
                       keepdim: bool) -> Any:
    """``_expand_back`` on arrays: the reduced dims back as 1s, then broadcast (a view)."""
    xp = namespace(g)
    if dims is not None and not keepdim:
        g = xp.reshape(g, tuple(1 if d in dims else n for d, n in enumerate(shape)))
    return xp.broadcast_to(g, shape)


class Sum(Op):
    node_name = "SumBackward0"
    auto_linear = True  # forward AD: the tangent is this op on the input's tangent
    saved_values = {"self_sym_sizes": REDUCED["self_sym_sizes"]}
    _profile_name = "aten::sum"
    _profile_inner = staticmethod(torch_events.variant("aten::sum", "keepdim"))

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, dims: tuple | None = None, keepdim: bool = False,
                dtype: Any = None, given: tuple | None = None) -> Tensor:
        ctx.given = dims if given is None else given  # (the dims as written: written_dims)
        dims = None if a.dim() == 0 else dims
        ctx.meta = (a._data.shape, dims, keepdim)
        xp = a._xp
        data, ctx.input_dtype = accumulated(a, dtype)
        if not xp.isdtype(data.dtype, "real floating"):
            data = xp.astype(data, xp.int64)
        return wrap(torch_sum(xp, data, dims, keepdim))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (cast_back(ctx, _expand_back(g, *ctx.meta)),)

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> Any:
        return (cast_back_array(ctx, _expand_back_array(g, *ctx.meta)),)


def accumulated(a: Tensor, dtype: Any) -> tuple:
    """``a``'s array in the floating ``dtype`` a reduction's ``dtype=`` asks for, and the dtype
    its gradient goes back to (None where there is no cast): torch's reduction casts as it
    reads, inside its one node (no ``ToCopyBackward0`` below it)."""
    if dtype is None or dtype is a.dtype:
        return a._data, None
    return a._xp.astype(a._data, array_dtype(a._xp, dtype.name)), a.dtype


def cast_inside(ctx: Any, a: Tensor, dtype: Any) -> Tensor:
    """``a`` in the ``dtype`` an op's ``dtype=`` asks for, as a plain tensor for its forward
    (cast inside the op's one node, as torch's kernels cast); ``ctx.input_dtype`` is the
    dtype :func:`cast_back` returns the gradient in (None: no cast)."""
    data, ctx.input_dtype = accumulated(a, dtype)
    return a if ctx.input_dtype is None else wrap(data)


def cast_back(ctx: Any, grad: Tensor) -> Tensor:
    """A gradient back in the dtype of the input :func:`cast_inside` cast."""
    return grad if ctx.input_dtype is None else grad.to(ctx.input_dtype)


def cast_back_array(ctx: Any, grad: Any) -> Any:
    """:func:`cast_back` of an array gradient."""
    if ctx.input_dtype is None:
        return grad
    xp = namespace(grad)
    return xp.astype(grad, array_dtype(xp, ctx.input_dtype.name))


class SumDim(Sum):
    node_name = "SumBackward1"
    saved_values = REDUCED


class Mean(Op):
    node_name = "MeanBackward0"
    auto_linear = True  # forward AD: the tangent is this op on the input's tangent
    saved_values = {"self_sym_sizes": REDUCED["self_sym_sizes"],
                    "self_sym_numel": kept("meta", lambda m: math.prod(m[0]))}
    _profile_name = "aten::mean"
    _profile_inner = staticmethod(torch_events.variant("aten::mean", "keepdim"))

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, dims: tuple | None = None, keepdim: bool = False,
                dtype: Any = None, given: tuple | None = None) -> Tensor:
        check_mean_dtype(a, dtype)
        ctx.given = dims if given is None else given  # (the dims as written: written_dims)
        # a float16 mean of another dtype: torch's sums its values in float32, then rounds
        half = dtype is D.float16 and a.dtype is not D.float16
        given = a.dtype
        a = cast_inside(ctx, a, D.float32 if half else dtype)
        ctx.input_dtype = given if half else ctx.input_dtype
        dims = None if a.dim() == 0 else dims
        ctx.meta = (a._data.shape, dims, keepdim)
        ctx.count = _count(a._data.shape, dims)
        # torch's CPU mean is its sum over the count (an empty mean is nan, silently)
        mean = half_via_float(lambda xp, d: torch_sum(xp, d, dims, keepdim) / ctx.count,
                              a._xp, a._data)
        return wrap(a._xp.astype(mean, array_dtype(a._xp, "float16")) if half else mean)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (cast_back(ctx, _expand_back(g, *ctx.meta) / ctx.count),)

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> Any:
        grad = namespace(g).divide(_expand_back_array(g, *ctx.meta), float(ctx.count))
        return (cast_back_array(ctx, grad),)


class MeanDim(Mean):
    node_name = "MeanBackward1"
    saved_values = {**Mean.saved_values, "dim": REDUCED["dim"], "keepdim": REDUCED["keepdim"]}


def check_mean_dtype(a: Tensor, dt: Any = None) -> None:
    """torch's refusal of an integer mean: of the input's dtype, or of the ``dt`` asked for."""
    which, dt = ("Input", a.dtype) if dt is None else ("Optional", dt)
    if not dt.is_floating_point:
        raise RuntimeError(
            f"mean(): could not infer output dtype. {which} dtype must be either a floating "
            f"point or complex dtype. Got: {_args.legacy(dt)}")


def _count(shape: tuple, dims: tuple | None) -> int:
    n = 1
    for d in range(len(shape)) if dims is None else dims:
        n *= shape[d]
    return n


def _var_backward(g: Tensor, a: Tensor, ctx: Any) -> Tensor:
    """torch's var_backward: ``2 / (n - correction) * g * (a - mean)``. Over every element
    with no degree of freedom left it is ``g`` times nan where ``a`` is its mean and inf
    elsewhere; over chosen dims a zero ``n - correction`` divides as a float (inf), and an
    empty list of dims counts ``n`` as 1 (torch's ``_safe_size``) though all are reduced."""
    shape, dims, keepdim = ctx.meta
    dof = (1 if ctx.no_dims else _count(shape, dims)) - ctx.correction
    g = _expand_back(g, shape, dims, keepdim)
    if ctx.every and dof <= 0:
        return g * where(a == a.mean(), math.nan, math.inf)
    return g * (2.0 / dof if dof else math.inf) * (a - a.mean(dims, keepdim=True))


class Var(Op):
    """The variance over ``dims`` (every element if None) with ``correction``; ``every``
    says that no dim was given (torch's backward then treats no degree of freedom apart)."""

    node_name = "VarBackward0"
    saved_names = ("self",)
    _profile_name = "aten::var"

    @classmethod
    def forward(cls, ctx: Any, a: Tensor, *, dims: tuple | None, correction: float,
                keepdim: bool, every: bool, no_dims: bool = False,
                welford: bool = False) -> Tensor:
        dims = None if a.dim() == 0 else dims
        ctx.meta = (a._data.shape, dims, keepdim)
        ctx.correction, ctx.every = correction, every or a.dim() == 0
        ctx.no_dims = no_dims and a.dim() > 0
        out = wrap(half_via_float(
            lambda xp, d: torch_variance(xp, d, dims, correction, keepdim, cls.take_sqrt,
                                         welford),
            a._xp, a._data))
        ctx.save_for_backward(*(a if name == "self" else out for name in cls.saved_names))
        return out

    take_sqrt = False

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (a,) = ctx.saved_tensors
        return (_var_backward(g, a, ctx),)


class Std(Var):
    """The standard deviation: torch's own node, whose backward is var's of
    ``g / (2 * result)``, 0 where the result is 0."""

    node_name = "StdBackward0"
    saved_names = ("self", "result")
    _profile_name = "aten::std"
    take_sqrt = True

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        a, result = ctx.saved_tensors
        return (_var_backward((g / (result * 2)).masked_fill(result == 0, 0), a, ctx),)


class _ExtremumAll(Op):
    """max()/min() of all elements: ties share the gradient evenly (MaxBackward1)."""

    saved_names = ("self", "result")
    fn = "max"

    @classmethod
    def forward(cls, ctx: Any, a: Tensor) -> Tensor:
        if a.numel() == 0:
            raise RuntimeError(
                f"{cls.fn}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument."
            )
        out = wrap(getattr(a._xp, cls.fn)(a._data))
        ctx.save_for_backward(*(a if name == "self" else out for name in cls.saved_names))
        return out

    @classmethod
    def backward(cls, ctx: Any, g: Tensor) -> tuple:
        a, out = ctx.saved_tensors
        hits = a.isnan() if out.isnan().item() else a == out  # a nan result: the nans
        return (where(hits, g / hits.sum(), 0.0),)


class MaxAll(_ExtremumAll):
    node_name = "MaxBackward1"
    _profile_name = "aten::max"


class MinAll(_ExtremumAll):
    node_name = "MinBackward1"
    fn = "min"
    _profile_name = "aten::min"


class _ExtremumDim(Op):
    """max(dim)/min(dim): values and indices; only the first extremum gets the gradient."""

    fn = "max"

    @classmethod
    def forward(cls, ctx: Any, a: Tensor, *, dim: int, keepdim: bool,
                given: int | None = None) -> tuple:
        ctx.given = dim if given is None else given  # the dim as written, as torch's node
        xp = a._xp
        if a.dim() == 0:  # torch allows dim 0 on a 0-d tensor: the value, index 0
            indices = wrap(xp.zeros((), dtype=xp.int64))
            ctx.mark_non_differentiable(indices)
            ctx.zero_dim = True
            return wrap(xp.asarray(a._data, copy=True)), indices
        arg = xp.argmax if cls.fn == "max" else xp.argmin
        idx = arg(a._data, axis=dim, keepdims=True)
        values = xp.take_along_axis(a._data, idx, axis=dim)
        if not keepdim:
            idx = xp.squeeze(idx, axis=dim)
            values = xp.squeeze(values, axis=dim)
        indices = wrap(xp.astype(idx, xp.int64))
        ctx.mark_non_differentiable(indices)
        ctx.meta = (a._data.shape, dim, keepdim)
        # packed through saved-tensor hooks as torch does; a twin sharing the array, so it
        # reads back without the node (an output would be rewrapped with it)
        ctx.save_for_backward(wrap(indices._data))
        return wrap(values), indices

    @classmethod
    def backward(cls, ctx: Any, g: Tensor, _g_indices: Tensor | None) -> tuple:
        if ctx.__dict__.get("zero_dim"):
            return (g,)
        shape, dim, keepdim = ctx.meta
        (indices,) = ctx.saved_tensors
        idx = indices if keepdim else indices.unsqueeze(dim)
        xp = idx._xp
        positions = xp.reshape(xp.arange(shape[dim]), tuple(-1 if d == dim else 1
                                                            for d in range(len(shape))))
        onehot = wrap(positions == idx._data)
        g = g if keepdim else g.unsqueeze(dim)
        return (g * onehot,)


class MaxDim(_ExtremumDim):
    node_name = "MaxBackward0"
    saved_values = REDUCED
    saved_names = ("indices",)
    _profile_name = "aten::max"
    _profile_inner = staticmethod(torch_events.variant("aten::max.dim", "keepdim"))


class MinDim(_ExtremumDim):
    node_name = "MinBackward0"
    saved_values = REDUCED
    saved_names = ("indices",)
    fn = "min"
    _profile_name = "aten::min"
    _profile_inner = staticmethod(torch_events.variant("aten::min.dim", "keepdim"))


def _keepdim_needs_dim(fn: Any, method: bool) -> Any:
    """``fn`` refusing ``keepdim`` given without ``dim``, as none of torch's overloads takes
    it (``method``: with the Tensor method's message)."""

    @functools.wraps(fn)
    def checked(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        if not args and "keepdim" in kwargs and "dim" not in kwargs:
            raise _args.keepdim_alone(fn.__name__, kwargs, method)
        return fn(input, *args, **kwargs)

    return checked


# torch's overloads (function form) of the reductions whose dim may be left out
SUM_SIGNATURES = ("Tensor input, *, torch.dtype dtype = None",
                  "Tensor input, tuple of ints? dim, bool keepdim = False, *, "
                  "torch.dtype dtype = None, Tensor out = None")
MEAN_SIGNATURES = ("Tensor input, *, torch.dtype dtype = None, Tensor out = None",
                   SUM_SIGNATURES[1])
VARIANCE_SIGNATURES = ("Tensor input, tuple of ints dim, bool unbiased = True, "
                       "bool keepdim = False, *, Tensor out = None",
                       "Tensor input, tuple of ints dim = None, *, Number correction = None, "
                       "bool keepdim = False, Tensor out = None",
                       "Tensor input, bool unbiased = True")
VARIANCE_MEAN_SIGNATURES = tuple(s.replace(", *, Tensor out = None", "")
                                 .replace(", Tensor out = None", "")
                                 for s in VARIANCE_SIGNATURES)  # std_mean, var_mean: no out


@_call_form.overloads(*SUM_SIGNATURES)
@_args.tensors("sum", input="input")
def _sum(input: Tensor, dim: Dims = _args.OMITTED, keepdim: bool = False, *,
         dtype: Any = None) -> Tensor:
    """Sum of all elements, or over ``dim`` (an int or a tuple; None: all of them, by the
    overload with dims, as torch: ``SumBackward1``).

    >>> minitorch.sum(minitorch.ones(2, 3), 1)
    tensor([3., 3.])
    """
    whole, dim = dim is _args.OMITTED, None if dim is _args.OMITTED else dim
    _args.dim_types("sum", dim)  # the parser's types in its order: dim, keepdim, dtype
    keepdim = _args.flag("sum", keepdim, "keepdim")
    dt = _args.dtype("sum", dtype)
    dims = None if whole else _args.dims("sum", dim, input.dim(), ranges_first=True) or None
    if dt is not None:
        _args.differentiable_dtype(input, dt)
    if dt is not None and dt.is_floating_point:  # cast inside the sum's node, as torch
        return Sum.apply(input, dtype=dt) if whole else \
            SumDim.apply(input, dims=dims, keepdim=keepdim, dtype=dt, given=written_dims(dim))
    if dt is not None:
        input = input.to(dt)
    total = Sum.apply(input) if whole else SumDim.apply(input, dims=dims, keepdim=keepdim,
                                                        given=written_dims(dim))
    # an integer sum runs in int64 (its low bits are the narrower sum's); a bool sum stays
    # bool in torch (true where any element is)
    return total.to(dt) if dt is not None and dt is not total.dtype else total


@_call_form.overloads(*MEAN_SIGNATURES)
@_args.tensors("mean", input="input")
def _mean(input: Tensor, dim: Dims = _args.OMITTED, keepdim: bool = False, *,
          dtype: Any = None) -> Tensor:
    """Mean of all elements, or over ``dim`` (None: all of them, by the overload with dims,
    as torch: ``MeanBackward1``).

    >>> minitorch.mean(minitorch.tensor([1., 2., 3.]))
    tensor(2.)
    """
    whole, dim = dim is _args.OMITTED, None if dim is _args.OMITTED else dim
    _args.dim_types("mean", dim)  # the parser's types in its order: dim, keepdim, dtype
    keepdim = _args.flag("mean", keepdim, "keepdim")
    dt = _args.dtype("mean", dtype)
    _args.dims("mean", dim, None)  # the rest of the dims unpacked once every type matched
    _args.lone_int(dim)  # the parser's overflow of an int dim, after the types
    if dt is not None:
        check_mean_dtype(input, dt)
    if whole:  # (dtype=: cast inside the op, as torch's kernel casts)
        return Mean.apply(input, dtype=dt)
    _args.dims("mean", dim, None)  # the types of the dims, then the dtype, then their range
    check_mean_dtype(input, dt)
    dims = _args.dims("mean", dim, input.dim(), ranges_first=True) or None
    return MeanDim.apply(input, dims=dims, keepdim=keepdim, dtype=dt, given=written_dims(dim))


_sum.__name__, _mean.__name__ = "sum", "mean"
sum = _keepdim_needs_dim(_sum, method=False)
mean = _keepdim_needs_dim(_mean, method=False)
sum_method = _keepdim_needs_dim(_sum, method=True)
mean_method = _keepdim_needs_dim(_mean, method=True)


def variance_signature(fn: Any) -> Any:
    """``fn`` (var, std, var_mean or std_mean) refusing what matches none of torch's
    overloads by how it is called: ``dim=`` given a bool by keyword (torch reads a bool in
    dim's place as ``unbiased`` only when it is positional), or ``unbiased`` with ``keepdim``
    but no dim (only the overload with a dim takes both)."""

    @functools.wraps(fn)
    def checked(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        no_dim = not args and "dim" not in kwargs
        if isinstance(kwargs.get("dim"), bool) or (
                no_dim and "unbiased" in kwargs and "keepdim" in kwargs):
            _no_variance_overload(fn.__name__, [f"{k}={_args.type_name(v)}"
                                                for k, v in kwargs.items()] + [""])
        return fn(input, *args, **kwargs)

    return checked


@_call_form.overloads(*VARIANCE_SIGNATURES)
@variance_signature
def var(input: Tensor, dim: Dims = None, unbiased: Any = _args.OMITTED,
        keepdim: Any = _args.OMITTED, *,
        correction: Any = _args.OMITTED) -> Tensor:
    """Variance (unbiased by default, like torch).

    >>> minitorch.var(minitorch.tensor([1., 2., 3.]))
    tensor(1.)
    """
    return variance("var", input, dim, unbiased, keepdim, correction)


@_call_form.overloads(*VARIANCE_SIGNATURES)
@variance_signature
def std(input: Tensor, dim: Dims = None, unbiased: Any = _args.OMITTED,
        keepdim: Any = _args.OMITTED, *,
        correction: Any = _args.OMITTED) -> Tensor:
    """Standard deviation (the square root of ``var``).

    >>> minitorch.std(minitorch.tensor([1., 3.]))
    tensor(1.4142)
    """
    return variance("std", input, dim, unbiased, keepdim, correction)


def _variance_overload(name: str, dim: Any, unbiased: Any, keepdim: Any,
                       correction: Any) -> tuple:
    """``(dim, unbiased, keepdim)`` of the overload of torch's var/std that the arguments
    match: ``(dim, unbiased, keepdim)``, ``(dim, *, correction, keepdim)`` or ``(unbiased)``
    alone (a bool in dim's place); anything else is torch's TypeError."""
    alone = isinstance(dim, bool) and unbiased is _args.OMITTED
    given = {"keepdim": keepdim, "correction": correction}
    if alone and keepdim is _args.OMITTED and correction is _args.OMITTED:
        return None, dim, False
    flag = unbiased is True or unbiased is False
    if alone or (unbiased is not _args.OMITTED and not flag) or (flag and (
            isinstance(dim, bool) or correction is not _args.OMITTED)):
        got = [_args.type_name(dim)] if dim is not None else []
        got += [_args.type_name(unbiased)] if unbiased is not _args.OMITTED else []
        got += [f"{k}={_args.type_name(v)}" for k, v in given.items()
                if v is not _args.OMITTED]
        _no_variance_overload(name, got)
    return dim, unbiased is not False, False if keepdim is _args.OMITTED else keepdim


def _no_variance_overload(name: str, got: list) -> None:
    """torch's TypeError for var/std arguments (their types, ``got``) that match none of
    its overloads."""
    raise TypeError(
        f"{name}() received an invalid combination of arguments - got ({', '.join(got)}"
        "), but expected one of:\n"
        " * (tuple of ints dim, bool unbiased = True, bool keepdim = False)\n"
        " * (tuple of ints dim = None, *, Number correction = None, bool keepdim = False)\n"
        " * (bool unbiased = True)\n")


def variance(name: str, input: Tensor, dim: Dims, unbiased: Any, keepdim: Any,
             correction: Any, welford: bool = False) -> Tensor:
    """``var`` or ``std`` (as ``name`` says) with torch's checks (``welford``: std_mean's
    one-pass kernel for every reduction)."""
    _args.tensor_args(name, (input, "input", 1))  # (the entry words it as torch's parser)
    options = variance_options(name, input, dim, unbiased, keepdim, correction)
    return variance_node(name, input, options, welford)


def variance_node(name: str, input: Tensor, options: dict, welford: bool = False) -> Tensor:
    """The :class:`Var`/:class:`Std` node (as ``name`` says) of ``input`` with the checked
    ``options`` of :func:`variance_options`."""
    with quiet(), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy's (torch's: variance_options)
        return (Std if name == "std" else Var).apply(input, welford=welford, **options)


def variance_options(name: str, input: Tensor, dim: Dims, unbiased: Any, keepdim: Any,
                     correction: Any) -> dict:
    """torch's checks and warning of ``var`` or ``std`` (as ``name`` says), and the options
    of its :class:`Var`/:class:`Std` node."""
    dim, unbiased, keepdim = _variance_overload(name, dim, unbiased, keepdim, correction)
    if correction is None or correction is _args.OMITTED:
        correction = 1 if unbiased else 0
    else:
        correction = _args.numbers(name, (correction, "correction", None))[0]
    _args.dim_types(name, dim)  # the dims' types before keepdim's, as torch
    keepdim = _args.flag(name, keepdim, "keepdim")
    _args.dims(name, dim, None)  # the rest of the dims unpacked once every type matched
    if not input.dtype.is_floating_point:
        raise RuntimeError("std and var only support floating point and complex dtypes")
    correction = _args.double_of(correction)  # the kernel reads it, after the dtype check
    correction = correction if _args.INT64_MIN <= correction <= _args.INT64_MAX \
        else float(correction)  # torch reads an int past int64 as a double
    dims = _args.dims(name, dim, input.dim()) or None
    if _count(input.shape, dims if input.dim() else None) - correction <= 0:
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly "
                      "less than the reduction factor (input numel divided by output numel).",
                      stacklevel=4)
    return {"dims": dims, "correction": correction, "keepdim": keepdim, "every": dim is None,
            "no_dims": isinstance(dim, (tuple, list)) and not dim}


# torch's overloads of max and min (function form)
EXTREMUM_SIGNATURES = ("Tensor input, *, Tensor out = None",
                       "Tensor input, Tensor other, *, Tensor out = None",
                       "Tensor input, int dim, bool keepdim = False, *, "
                       "tuple of Tensors out = None")


def _dim_by_keyword(fn: Callable) -> Callable:
    """``fn`` (max or min) reading ``dim=`` as torch's parser does: by keyword, only its dim
    overload takes it, a 0-d integer tensor as its index (by position a tensor is the
    ``other`` of its element-wise overload); no other tensor.

    >>> minitorch.tensor([[1., 5.], [3., 2.]]).max(dim=minitorch.tensor(1)).values
    tensor([5., 3.])
    """
    @functools.wraps(fn)
    def called(*args: Any, **kwargs: Any) -> Any:
        if isinstance(kwargs.get("dim"), Tensor):
            index = _args.as_param_int(kwargs["dim"], "dim")
            if index is None and "keepdim" in kwargs:  # (only the dim overload takes it)
                raise TypeError(f"{fn.__name__}(): argument 'dim' must be int, not Tensor")
            if index is None:  # (no overload matches: the parser's message lists them)
                raise TypeError(f"{fn.__name__}() got an unexpected keyword argument 'dim'")
            kwargs["dim"] = index
        return fn(*args, **kwargs)

    return called


@_call_form.overloads(*EXTREMUM_SIGNATURES)
@_dim_by_keyword
def max(input: Tensor, dim: Any = _args.OMITTED, keepdim: Any = _args.OMITTED, *,
        other: Any = _args.OMITTED) -> Any:
    """The largest element; with ``dim``, ``(values, indices)``; with a tensor, maximum.

    >>> minitorch.max(minitorch.tensor([[1., 5.], [3., 2.]]), 1).values
    tensor([5., 3.])
    """
    _extremum_input("max", input, dim, keepdim, other)
    if other is not _args.OMITTED and dim is _args.OMITTED and keepdim is _args.OMITTED:
        _args.tensor_args("max", (other, "other", 2))
        dim = other  # torch's max(input, other=...): the element-wise form
    if isinstance(dim, Tensor) and keepdim is _args.OMITTED:
        from .pointwise import maximum

        return maximum(input, dim)
    if dim is _args.OMITTED:
        if keepdim is not _args.OMITTED:  # keepdim alone matches none of torch's overloads
            _args.missing("max", (dim, "dim"))
        return MaxAll.apply(input)
    keepdim = False if keepdim is _args.OMITTED else keepdim
    if _args.as_param_int(dim, "dim") is None:  # the parser's types (dim's, keepdim's),
        _args.integer("max", dim, "dim", 1)  # then int64
    keepdim = _args.flag("max", keepdim, "keepdim")
    _args.integer("max", dim, "dim", 1)
    found = MaxDim.apply(input, dim=_extremum_dim("max", input, dim), keepdim=keepdim,
                         given=_args.as_int(dim))
    return return_types.max(*found)


@_call_form.overloads(*EXTREMUM_SIGNATURES)
@_dim_by_keyword
def min(input: Tensor, dim: Any = _args.OMITTED, keepdim: Any = _args.OMITTED, *,
        other: Any = _args.OMITTED) -> Any:
    """The smallest element; with ``dim``, ``(values, indices)``; with a tensor, minimum.

    >>> minitorch.min(minitorch.tensor([3., 1., 2.]))
    tensor(1.)
    """
    _extremum_input("min", input, dim, keepdim, other)
    if other is not _args.OMITTED and dim is _args.OMITTED and keepdim is _args.OMITTED:
        _args.tensor_args("min", (other, "other", 2))
        dim = other  # torch's min(input, other=...): the element-wise form
    if isinstance(dim, Tensor) and keepdim is _args.OMITTED:
        from .pointwise import minimum

        return minimum(input, dim)
    if dim is _args.OMITTED:
        if keepdim is not _args.OMITTED:  # keepdim alone matches none of torch's overloads
            _args.missing("min", (dim, "dim"))
        return MinAll.apply(input)
    keepdim = False if keepdim is _args.OMITTED else keepdim
    if _args.as_param_int(dim, "dim") is None:  # the parser's types (dim's, keepdim's),
        _args.integer("min", dim, "dim", 1)  # then int64
    keepdim = _args.flag("min", keepdim, "keepdim")
    _args.integer("min", dim, "dim", 1)
    found = MinDim.apply(input, dim=_extremum_dim("min", input, dim), keepdim=keepdim,
                         given=_args.as_int(dim))
    return return_types.min(*found)


def _extremum_input(fn: str, input: Any, dim: Any, keepdim: Any, other: Any) -> None:
    """torch's parser's refusal of a max/min ``input`` that is no tensor: its type alone, or
    with more arguments the overloads none of which matches."""
    if isinstance(input, Tensor):
        return
    given = [v for v in (dim, keepdim) if v is not _args.OMITTED]
    if not given and other is _args.OMITTED:
        _args.tensor_args(fn, (input, "input", 1))
    keywords = {} if other is _args.OMITTED else {"other": other}
    raise _args.invalid_combination(fn, (input, *given), *EXTREMUM_SIGNATURES,
                                    keywords=keywords)


def argmax(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """Index of the largest element (flattened without ``dim``); never requires grad.

    >>> minitorch.argmax(minitorch.tensor([1., 5., 3.]))
    tensor(1)
    """
    return _arg_extremum("argmax", input, dim, keepdim)


def argmin(input: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """Index of the smallest element (flattened without ``dim``); never requires grad.

    >>> minitorch.argmin(minitorch.tensor([[1., 5.], [0., 3.]]), dim=1)
    tensor([0, 0])
    """
    return _arg_extremum("argmin", input, dim, keepdim)


def _arg_extremum(fn: str, input: Tensor, dim: int | None, keepdim: bool) -> Tensor:
    """argmax or argmin (``fn``), with torch's checks, profiled as torch's ``aten::<fn>``."""
    key = f"aten::{fn}" if dim is None else \
        f"aten::{fn}.dim" + (".keepdim" if keepdim is True else "")  # (parsed in the op)
    return profiler.run_op(f"aten::{fn}", key, lambda: _arg_extremum_of(fn, input, dim, keepdim),
                           (input, dim, keepdim))


def _arg_extremum_of(fn: str, input: Tensor, dim: int | None, keepdim: bool) -> Tensor:
    _args.tensor_args(fn, (input, "input", 1))
    xp = input._xp
    if dim is not None and _args.as_param_int(dim, "dim") is None:  # dim's type first
        _args.integer(fn, dim, "dim", 1)
    keepdim = _args.flag(fn, keepdim, "keepdim")
    if dim is not None:
        _args.integer(fn, dim, "dim", 1)
    if input.dtype.name == "bool":
        raise RuntimeError(f"{fn}(): does not support bool input")
    arg = getattr(xp, fn)
    if dim is None:
        if input.numel() == 0:
            raise IndexError(
                f"{fn}(): Expected reduction dim to be specified for input.numel() == 0.")
        found = xp.astype(arg(xp.reshape(input._data, (-1,))), xp.int64)
        return wrap(xp.reshape(found, (1,) * input.dim()) if keepdim else found)
    d = _extremum_dim(fn, input, dim)
    if input.dim() == 0:
        return wrap(xp.zeros((), dtype=xp.int64))
    return wrap(xp.astype(arg(input._data, axis=d, keepdims=keepdim), xp.int64))


def _extremum_dim(fn: str, input: Tensor, dim: Any) -> int:
    """The one dim of max/min/argmax, which must not be empty (there is no extremum)."""
    d = _args.dim(fn, dim, input.dim())
    if input.dim() and input._data.shape[d] == 0:
        raise IndexError(f"{fn}(): Expected reduction dim {d} to have non-zero size.")
    return d


class Logsumexp(Op):
    """``log(sum(exp(x)))`` as torch computes it: the largest value (0 if infinite) taken
    out before ``exp`` and added back after ``log``."""

    node_name = "LogsumexpBackward0"
    saved_values = {"dim": kept("meta", lambda m: m[0]), "keepdim": kept("meta", lambda m: m[1])}
    saved_names = ("self", "result")
    _profile_name = "aten::logsumexp"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, dims: tuple | None, keepdim: bool,
                into: Any = None) -> Tensor:
        xp, data = a._xp, a._data
        dims = None if a.dim() == 0 else dims
        ctx.meta = (dims, keepdim)
        wide = (lambda x: x) if into is None else (lambda x: xp.astype(x, getattr(xp, into.name)))
        if not a.numel():
            result = wrap(torch_sum(xp, wide(wrap(data).exp()._data), dims, keepdim)).log()
        else:
            maxes = xp.max(data, axis=dims, keepdims=True)
            maxes = xp.where(xp.abs(maxes) == float("inf"), xp.zeros_like(maxes), maxes)
            total = torch_sum(xp, wide(wrap(data - maxes).exp()._data), dims, keepdim)
            result = wrap(wrap(total).log()._data + wide(xp.reshape(maxes, total.shape)))
        ctx.save_for_backward(a, result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        a, result = ctx.saved_tensors
        dims, keepdim = ctx.meta
        if not keepdim and dims is not None:
            for d in sorted(dims):
                g, result = g.unsqueeze(d), result.unsqueeze(d)
        return (g * (a - result).exp(),)


@_args.tensors("logsumexp", input="input")
def logsumexp(input: Tensor, dim: Dims = _args.OMITTED, keepdim: bool = False) -> Tensor:
    """``log(sum(exp(input)))`` over ``dim``, without overflow; integer inputs give the
    default float dtype.

    >>> minitorch.logsumexp(minitorch.tensor([[0., 0.], [1., 1.]]), 1)
    tensor([0.6931, 1.6931])
    """
    return _logsumexp(input, dim, keepdim)


def _logsumexp_into(dtype: Any, input: Tensor, dim: Dims = _args.OMITTED,
                    keepdim: bool = False) -> Tensor:
    """``logsumexp`` as torch's ``out=`` of the floating ``dtype`` computes it: the
    exponentials in the input's dtype, their sum, its log and the maxima added in ``dtype``."""
    return _logsumexp(input, dim, keepdim, dtype)


logsumexp.computed_into = _logsumexp_into  # type: ignore[attr-defined]


def _logsumexp(input: Tensor, dim: Dims, keepdim: bool, into: Any = None) -> Tensor:
    _args.required("logsumexp", dim, "dim")
    listed = _args.as_int(dim) is None  # a tuple of ints, not None
    if listed:  # the parser's types in order (of a list, its first item), then its unpacking
        _args.int_tuple("logsumexp", _args.list_head(dim), "dim", 2)
    keepdim = _args.flag("logsumexp", keepdim, "keepdim")
    if listed:
        dim = _args.int_tuple("logsumexp", dim, "dim", 2)
    # () reduces every dim, and without keepdim torch's kernel then fails adding the maxima
    dims = _args.dims("logsumexp", dim, input.dim(), ranges_first=True) or None
    if dims is None and not keepdim and input.numel() and input.dim():
        raise RuntimeError("output with shape [] doesn't match the broadcast shape "
                           f"{[1] * input.dim()}")
    if not input.dtype.is_floating_point:
        input = input.to(get_default_dtype())
    return Logsumexp.apply(input, dims=dims, keepdim=keepdim, into=into)
