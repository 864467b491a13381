"""More reductions: ``amax``, ``amin``, ``aminmax``, ``nansum``, ``nanmean``, ``std_mean`` and
``var_mean``, with torch's nodes. ``amax``/``amin`` share their gradient evenly among tied
extrema (where ``max(dim)`` gives it all to one index).

>>> import minitorch
>>> x = minitorch.tensor([[1., 3.], [3., 2.]], requires_grad=True)
>>> x.amax(), minitorch.nansum(minitorch.tensor([1., float("nan")]))
(tensor(3., grad_fn=<AmaxBackward0>), tensor(1.))
"""

from __future__ import annotations

from typing import Any

from .. import _args, _call_form, return_types
from .._dtype import float32
from .._tensor import Tensor
from ..backend import c_order
from ._base import Op, c_ints, kept, wrap, written_dims
from ._cascade_sum import torch_sum
from ._variance_order import welford_mean
from .pointwise import where
from .reduction import (
    VARIANCE_MEAN_SIGNATURES,
    _expand_back,
    _variance_overload,
    accumulated,
    cast_back,
    variance_node,
    variance_options,
    variance_signature,
)

__all__ = ["Amax", "Amin", "Aminmax", "Nansum", "StdMean", "VarMean", "amax", "amin",
           "aminmax", "nanmean", "nansum", "std_mean", "var_mean"]


def _share(g: Tensor, a: Tensor, result: Tensor, dims: tuple | None, keepdim: bool) -> Tensor:
    """torch's ``scale_grad_by_count``: ``g`` split evenly among the elements equal to
    ``result`` in each reduced slice."""
    shape = a.shape
    hit = (a == _expand_back(result, shape, dims, keepdim)).to(g.dtype)
    count = hit.sum(dims, keepdim=True) if dims is not None else hit.sum()
    return _expand_back(g, shape, dims, keepdim) * hit / count


class _Extremum(Op):
    """``amax``/``amin`` over ``dims`` (None: everything); ``given``: the dims as written,
    which torch's node shows."""

    ufunc = "max"
    saved_values = {"dim": kept("given", c_ints), "keepdim": kept("keepdim")}

    @classmethod
    def forward(cls, ctx: Any, a: Tensor, *, dims: tuple | None, keepdim: bool,
                given: tuple = ()) -> Tensor:
        xp = a._xp
        # in C order, as torch's reductions allocate it (numpy follows the input's layout)
        out = wrap(c_order(getattr(xp, cls.ufunc)(a._data, axis=dims, keepdims=keepdim)))
        ctx.dims, ctx.keepdim, ctx.given = dims, keepdim, given
        ctx.save_for_backward(a, out)
        return out

    @classmethod
    def backward(cls, ctx: Any, g: Tensor) -> tuple:
        a, out = ctx.saved_tensors
        return (_share(g, a, out, ctx.dims, ctx.keepdim),)


class Amax(_Extremum):
    node_name = "AmaxBackward0"
    saved_names = ("self", "result")
    _profile_name = "aten::amax"


class Amin(_Extremum):
    node_name = "AminBackward0"
    saved_names = ("self", "result")
    ufunc = "min"
    _profile_name = "aten::amin"


def _extremum_dims(fn: str, input: Tensor, dim: Any, keepdim: Any) -> tuple:
    """amax's or amin's dims and keepdim after torch's checks: the parser's types (input,
    dim, keepdim), then the dims' range and sizes."""
    _args.tensor_args(fn, (input, "input", 1))
    _args.dim_types(fn, dim)
    keepdim = _args.flag(fn, keepdim, "keepdim")
    _args.dims(fn, dim, None)  # the rest of the dims unpacked once every type matched
    if input.numel() and dim is not None:
        dims = _args.dims(fn, dim, input.dim(), ranges_first=True)
        return (dims if dims and input.dim() else None), keepdim
    if not (dim if isinstance(dim, (tuple, list)) else dim is not None):
        if input.numel() == 0:
            raise RuntimeError(f"{fn}(): Expected reduction dim to be specified for "
                               "input.numel() == 0. Specify the reduction dim with the 'dim' "
                               "argument.")
        return None, keepdim
    # an empty input: torch checks each dim, as given, for a zero size before any repeat
    for d in dim if isinstance(dim, (tuple, list)) else (dim,):
        if input.shape[_args.wrap_dim(_args.as_int(d), input.dim())] == 0:
            raise IndexError(f"{fn}(): Expected reduction dim {_args.as_int(d)} to have "
                             "non-zero size.")
    return _args.dims(fn, dim, input.dim(), ranges_first=True), keepdim


@_call_form.parser_types(dim="tuple of ints | None")
def amax(input: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    """The largest values over ``dim`` (an int or a tuple; ``()``: everything).

    >>> minitorch.amax(minitorch.tensor([[1., 5.], [3., 2.]]), 1)
    tensor([5., 3.])
    """
    dims, keepdim = _extremum_dims("amax", input, dim, keepdim)
    return Amax.apply(input, dims=dims, keepdim=keepdim, given=written_dims(dim) or ())


@_call_form.parser_types(dim="tuple of ints | None")
def amin(input: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    """The smallest values over ``dim`` (an int or a tuple; ``()``: everything).

    >>> minitorch.amin(minitorch.tensor([[1., 5.], [3., 2.]]), 1)
    tensor([1., 2.])
    """
    dims, keepdim = _extremum_dims("amin", input, dim, keepdim)
    return Amin.apply(input, dims=dims, keepdim=keepdim, given=written_dims(dim) or ())


class Aminmax(Op):
    node_name = "AminmaxBackward0"
    saved_names = ("self", "min", "max")
    _profile_name = "aten::aminmax"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, dims: tuple | None, keepdim: bool) -> tuple:
        xp = a._xp
        low = wrap(xp.min(a._data, axis=dims, keepdims=keepdim))
        high = wrap(xp.max(a._data, axis=dims, keepdims=keepdim))
        ctx.dims, ctx.keepdim = dims, keepdim
        ctx.save_for_backward(a, low, high)
        return low, high

    @staticmethod
    def backward(ctx: Any, g_low: Tensor | None, g_high: Tensor | None) -> tuple:
        a, low, high = ctx.saved_tensors
        parts = [_share(g, a, r, ctx.dims, ctx.keepdim)
                 for g, r in ((g_low, low), (g_high, high)) if g is not None]
        return (parts[0] if len(parts) == 1 else parts[0] + parts[1],)


def aminmax(input: Tensor, *, dim: int | None = None, keepdim: bool = False) -> Any:
    """``(min, max)`` over ``dim``, or over everything.

    >>> minitorch.aminmax(minitorch.tensor([3., 1., 2.])).max
    tensor(3.)
    """
    _args.tensor_args("aminmax", (input, "input", 1))
    if dim is not None and _args.as_param_int(dim, "dim") is None:  # types before values
        _args.integer("aminmax", dim, "dim", None)
    keepdim = _args.flag("aminmax", keepdim, "keepdim")
    if dim is None:
        if input.numel() == 0:
            raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as "
                               "the operation has no identity.")
        dims = None
    else:
        d = _args.dim("aminmax", dim, input.dim())
        if input.dim() and input.shape[d] == 0:
            raise IndexError(f"aminmax: Expected reduction dim {d} to have non-zero size.")
        dims = (d,) if input.dim() else None
    keepdim = _args.flag("aminmax", keepdim, "keepdim")
    if dims is None and keepdim and input.dim():
        dims = tuple(range(input.dim()))
    return return_types.aminmax(*Aminmax.apply(input, dims=dims, keepdim=keepdim))


class Nansum(Op):
    node_name = "NansumBackward0"
    saved_names = ("self",)
    _profile_name = "aten::nansum"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, dims: tuple | None, keepdim: bool,
                dtype: Any = None) -> Tensor:
        xp = a._xp
        ctx.dims, ctx.keepdim = dims, keepdim
        ctx.save_for_backward(a)
        data, ctx.input_dtype = accumulated(a, dtype)
        data = xp.where(xp.isnan(data), xp.zeros((), dtype=data.dtype), data)
        return wrap(torch_sum(xp, data, dims, keepdim))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (a,) = ctx.saved_tensors
        grad = where(a.isnan(), 0.0, _expand_back(g, a.shape, ctx.dims, ctx.keepdim))
        return (cast_back(ctx, grad),)


def _sum_dims(fn: str, input: Tensor, dim: Any = None, keepdim: Any = False, dtype: Any = None,
              into: bool = False) -> tuple:
    """The dims and keepdim of nansum or nanmean after torch's checks in its order: the
    parser's types, then nanmean's dtypes (of ``input``, worded otherwise ``into`` an out=
    tensor; of ``dtype``), then the dims' range."""
    _args.tensor_args(fn, (input, "input", 1))
    _args.dim_types(fn, dim)
    keepdim = _args.flag(fn, keepdim, "keepdim")
    wanted = _args.dtype(fn, dtype)
    _args.dims(fn, dim, None)  # the rest of the dims unpacked once every type matched
    if fn == "nanmean":
        if not input.dtype.is_floating_point:
            raise RuntimeError("nanmean(): integral types and 'Bool' are not supported for "
                               "nanmean, even for empty tensors." if into else
                               "nanmean(): expected input to have floating point or complex "
                               f"dtype but got {_args.legacy(input.dtype)}")
        if wanted is not None and not wanted.is_floating_point:
            raise RuntimeError("nanmean(): could not infer output dtype. Optional dtype must "
                               "be either a floating point or complex dtype. Got: "
                               f"{_args.legacy(wanted)}")
    dims = _args.dims(fn, dim, input.dim(), ranges_first=fn == "nanmean") \
        if dim is not None else None
    return dims if dims and input.dim() else None, keepdim


@_call_form.parser_types(dim="tuple of ints | None")
def nansum(input: Tensor, dim: Any = None, keepdim: bool = False, *,
           dtype: Any = None) -> Tensor:
    """The sum with NaNs counted as zero.

    >>> minitorch.nansum(minitorch.tensor([1., float("nan"), 2.]))
    tensor(3.)
    """
    dims, keepdim = _sum_dims("nansum", input, dim, keepdim, dtype)
    dtype = _args.dtype("nansum", dtype)
    if dtype is not None:
        _args.differentiable_dtype(input, dtype)
    if not input.dtype.is_floating_point or (dtype is not None and
                                             not dtype.is_floating_point):
        # torch skips a NaN before it casts each element to the sum's dtype
        whole = input if not input.dtype.is_floating_point else \
            where(input.isnan(), 0.0, input)
        every = tuple(range(input.dim()))  # nansum's keepdim alone keeps every dim
        given = {} if dim is None and not keepdim else \
            {"dim": every if dim is None else dim, "keepdim": keepdim}
        return whole.sum(**given, dtype=dtype)
    if keepdim and dims is None and input.dim():
        dims = tuple(range(input.dim()))
    return Nansum.apply(input, dims=dims, keepdim=keepdim, dtype=dtype)


@_call_form.parser_types(dim="tuple of ints | None")
def nanmean(input: Tensor, dim: Any = None, keepdim: bool = False, *,
            dtype: Any = None) -> Tensor:
    """The mean of the elements that are not NaN.

    >>> minitorch.nanmean(minitorch.tensor([1., float("nan"), 2.]))
    tensor(1.5000)
    """
    _sum_dims("nanmean", input, dim, keepdim, dtype)
    count = input.isnan().logical_not().sum(dim, keepdim=keepdim) if dim is not None else \
        input.isnan().logical_not().sum()
    if keepdim and dim is None:
        count = count.reshape((1,) * input.dim())
    return nansum(input, dim, keepdim, dtype=dtype) / count


class _StatMean(Op):
    """``(std or var, mean)`` in one node, as torch's ``std_mean``/``var_mean``."""

    @classmethod
    def forward(cls, ctx: Any, a: Tensor, *, stat: Any, mean: Any, dims: Any) -> tuple:
        ctx.stat, ctx.mean = stat, mean
        ctx.save_for_backward(a)
        # torch's kernel takes the mean from its Welford pass, in double, rounded once (a
        # float32 mean in double comes near it where that pass is not run here)
        welford = welford_mean(a._data, None if a.dim() == 0 else dims)
        value = None if welford is not None else \
            mean(a.double()).float() if a.dtype is float32 else mean(a)
        result = stat(a)
        data = value._data if value is not None else \
            a._xp.reshape(welford, tuple(result.shape))
        return wrap(result._data), wrap(data)

    @classmethod
    def backward(cls, ctx: Any, g_stat: Tensor | None, g_mean: Tensor | None) -> tuple:
        from ..autograd import enable_grad, grad  # (autograd imports the ops)

        (a,) = ctx.saved_tensors
        pairs = [(f, g) for f, g in ((ctx.stat, g_stat), (ctx.mean, g_mean)) if g is not None]
        with enable_grad():  # the two formulas' gradients, differentiable again
            x = a if a.requires_grad else a.detach()._set_requires_grad(True)
            return grad([f(x) for f, _ in pairs], [x], [g for _, g in pairs],
                        create_graph=True)


class StdMean(_StatMean):
    node_name = "StdMeanBackward0"
    _profile_name = "aten::std_mean"


class VarMean(_StatMean):
    node_name = "VarMeanBackward0"
    _profile_name = "aten::var_mean"


def _stat_mean(name: str, op: type, input: Tensor, dim: Any, unbiased: Any, keepdim: Any,
               correction: Any) -> tuple:
    _args.tensor_args(f"{name}_mean", (input, "input", 1))
    if not isinstance(dim, bool):  # (std_mean(x, unbiased)) the parser's type checks first
        _args.dim_types(f"{name}_mean", dim)
    _variance_overload(f"{name}_mean", dim, unbiased, keepdim, correction)
    _args.flag(f"{name}_mean", False if keepdim is _args.OMITTED else keepdim, "keepdim")
    if not isinstance(dim, bool):
        _args.dims(f"{name}_mean", dim, None)  # the rest unpacked once every type matched
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"{name}_mean only support floating point and complex dtypes")
    keep = False if keepdim is _args.OMITTED else keepdim
    if isinstance(dim, bool):  # std_mean(x, unbiased)
        dim, unbiased = None, dim
    options = variance_options(f"{name}_mean", input, dim, unbiased, keepdim, correction)

    def stat(x: Tensor) -> Tensor:
        return variance_node(name, x, options, welford=True)

    def mean(x: Tensor) -> Tensor:
        return x.mean() if dim is None and not keep else \
            x.mean(tuple(range(x.dim())) if dim is None else dim, keepdim=keep)

    dims = _args.dims(f"{name}_mean", dim, input.dim()) or None if dim is not None else None
    return op.apply(input, stat=stat, mean=mean, dims=dims)


@_call_form.overloads(*VARIANCE_MEAN_SIGNATURES)
@variance_signature
def std_mean(input: Tensor, dim: Any = None, unbiased: Any = _args.OMITTED,
             keepdim: Any = _args.OMITTED, *, correction: Any = _args.OMITTED) -> tuple:
    """``(std, mean)`` over ``dim`` (or everything).

    >>> minitorch.std_mean(minitorch.tensor([1., 3.]))
    (tensor(1.4142), tensor(2.))
    """
    return _stat_mean("std", StdMean, input, dim, unbiased, keepdim, correction)


@_call_form.overloads(*VARIANCE_MEAN_SIGNATURES)
@variance_signature
def var_mean(input: Tensor, dim: Any = None, unbiased: Any = _args.OMITTED,
             keepdim: Any = _args.OMITTED, *, correction: Any = _args.OMITTED) -> tuple:
    """``(var, mean)`` over ``dim`` (or everything).

    >>> minitorch.var_mean(minitorch.tensor([1., 3.]))
    (tensor(2.), tensor(2.))
    """
    return _stat_mean("var", VarMean, input, dim, unbiased, keepdim, correction)


METHODS = {"amax": amax, "amin": amin, "aminmax": aminmax, "nansum": nansum,
           "nanmean": nanmean}
