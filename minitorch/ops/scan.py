"""Running totals and products: ``cumsum``, ``cumprod``, ``prod``, and ``flip`` (which the
running totals' gradients need: the gradient of a cumsum is a cumsum run backwards).

As torch's CPU kernel, a float32 ``cumsum`` adds in float64 and rounds each total once.

>>> import minitorch
>>> x = minitorch.tensor([1., 2., 3.], requires_grad=True)
>>> x.cumsum(0)
tensor([1., 3., 6.], grad_fn=<CumsumBackward0>)
>>> x.prod()
tensor(6., grad_fn=<ProdBackward0>)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import _args, _batched_function, _call_form
from .._dtype import int64
from .._tensor import Tensor, check_inplace_allowed
from ..backend import c_order, half_via_float, torch_layout
from ._base import Op, c_ints, kept, wrap, written_dims
from .reduction import cast_back, cast_inside
from .shape import cat

__all__ = ["Cumprod", "Cumsum", "Flip", "Prod", "ProdDim", "cumprod", "cumsum", "flip", "prod"]


class Flip(Op):
    node_name = "FlipBackward0"
    saved_values = {"dims": kept("given", c_ints)}
    _profile_name = "aten::flip"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, dims: tuple, given: tuple | None = None) -> Tensor:
        ctx.dims, ctx.given = dims, dims if given is None else given  # (as written)
        xp = a._xp
        # a copy, as torch's (numpy's flip is a view: a later write to ``a`` would show)
        out = xp.asarray(xp.flip(a._data, axis=dims) if dims and a.dim() else a._data, copy=True)
        return wrap(torch_layout(out, a._data))  # TensorIterator's: contiguous if expanded

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        if not g.dim() and ctx.dims and _batched_function.cotangents_batched():  # torch's
            raise _batched_function.zero_dim_flip_error()  # vmap rule: jacrev's 0-d row
        return (Flip.apply(g, dims=ctx.dims),)


@_args.sizes_by_keyword("dims")
@_call_form.parser_types(dims="tuple of ints")
def flip(input: Tensor, *dims: Any) -> Tensor:
    """A copy of ``input`` with the order of ``dims`` reversed.

    >>> minitorch.tensor([1, 2, 3]).flip(0)
    tensor([3, 2, 1])
    """
    _args.tensor_args("flip", (input, "input", 1))
    given = _args.sizes("flip", dims, "dims", check_negative=False, position=2)
    wrapped = _args.dims("flip", list(given), input.dim())  # each in range, then no repeat
    return Flip.apply(input, dims=tuple(wrapped),  # (a 0-d input's dim: 0, flipping nothing)
                      given=written_dims(given))


@_call_form.parser_types(dims="int[]")
def flip_function(input: Tensor, dims: Any) -> Tensor:
    """``torch.flip(input, dims)``: unlike the method's, its ``dims`` is one tuple (or list).

    >>> minitorch.flip(minitorch.tensor([1, 2]), (0,))
    tensor([2, 1])
    """
    if not isinstance(dims, (tuple, list)):
        raise TypeError("flip(): argument 'dims' (position 2) must be tuple of ints, not "
                        f"{_args.type_name(dims)}")
    return flip(input, dims)


def _scanned(fn: Any, a: Tensor, dim: int) -> Any:
    """``fn`` (cumulative_sum or cumulative_prod) along ``dim``; float32 runs in float64,
    float16 in float32 (torch's accumulator types)."""
    xp, data = a._xp, a._data
    if a.dim() == 0:
        return xp.asarray(data, copy=True)
    if data.dtype == xp.float32:
        out = fn(xp.astype(data, xp.float64), axis=dim)
    else:
        out = half_via_float(lambda xp, d: fn(d, axis=dim), xp, data)
    # float32, or bool (only when empty); contiguous, as torch's scans
    return c_order(xp.astype(out, data.dtype, copy=False))


class Cumsum(Op):
    node_name = "CumsumBackward0"
    auto_linear = True  # forward AD: the tangent is this op on the input's tangent
    saved_values = {"dim": kept("dim")}
    _profile_name = "aten::cumsum"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, dim: int, dtype: Any = None) -> Tensor:
        ctx.dim = dim
        return wrap(_scanned(a._xp.cumulative_sum, cast_inside(ctx, a, dtype), dim))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (_reversed_cumsum(cast_back(ctx, g), ctx.dim),)  # torch casts first


def _reversed_cumsum(g: Tensor, dim: int) -> Tensor:
    """The sums of ``g`` from each index to the end of ``dim``: cumsum's gradient."""
    if g.numel() <= 1 or g.dim() == 0 or g.shape[dim] == 1:
        return g
    return Flip.apply(Cumsum.apply(Flip.apply(g, dims=(dim,)), dim=dim), dims=(dim,))


class Cumprod(Op):
    node_name = "CumprodBackward0"
    _profile_name = "aten::cumprod"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, dim: int, dtype: Any = None) -> Tensor:
        ctx.dim = dim
        out = wrap(_scanned(a._xp.cumulative_prod, cast_inside(ctx, a, dtype), dim))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        a, out = ctx.saved_tensors
        g = cast_back(ctx, g)  # torch's formula runs in the input's dtype
        if a.numel() <= 1 or a.shape[ctx.dim] == 1:  # (torch's: the gradient itself, which
            return (g,)  # depends on no input)
        if not bool(a._xp.any(a._data == 0)):  # torch's formula: sum_{j>=k} g_j out_j / a_k
            return (_reversed_cumsum(g * out, ctx.dim) / a,)
        return (_cumprod_backward_at_zeros(g, a, ctx.dim),)


def _cumprod_backward_at_zeros(g: Tensor, a: Tensor, dim: int) -> Tensor:
    """``grad_k = sum_{j>=k} g_j * prod_{i<=j, i!=k} a_i``, with no division: row ``k`` of
    an (n, n) table is the running product of ``a`` with ``a_k`` set to one."""
    from .pointwise import where

    x, gl = a.transpose(dim, -1), g.transpose(dim, -1)
    xp, n = a._xp, a.shape[dim]
    k = wrap(xp.reshape(xp.arange(n), (n, 1)))
    j = wrap(xp.reshape(xp.arange(n), (1, n)))
    others = cumprod(where(k == j, 1.0, x.unsqueeze(-2)), -1)
    terms = where(j >= k, gl.unsqueeze(-2) * others, 0.0)
    return terms.sum(-1).transpose(dim, -1)


def _scan_args(fn: str, input: Tensor, dim: Any, dtype: Any, into: Any = None) -> tuple:
    """cumsum's or cumprod's arguments checked as torch does: the types (dim, then dtype),
    dim's range, an in-place call's dtype (``into``, the tensor's own: the only one it
    computes in), a kernel for the result's dtype (none for bool, unless there is nothing
    to scan) and a differentiable dtype where a gradient is recorded."""
    _args.tensor_args(fn, (input, "input", 1))
    _, dt = _args.parsed(fn, ("int", dim, "dim", 1), ("dtype", dtype, "dtype", None))
    d = _args.dim(fn, dim, input.dim())
    if into is not None:
        if dt not in (None, into):
            raise RuntimeError(f"Bad in-place call: input tensor dtype {_args.c_name(into)} "
                               f"and output tensor dtype {_args.c_name(dt)} should match")
        dt = into
    if dt is not None and dt.name == "bool":  # no kernel, unless there is nothing to scan
        if input.numel() and input.dim():  # (a 0-d input is copied, not scanned)
            raise _args.not_implemented(f"{fn.rstrip('_')}_out_cpu", dt)
        _args.differentiable_dtype(input, dt)
    return _as_dtype(input, dt), d, dt


def _as_dtype(input: Tensor, dt: Any) -> Tensor:
    """``input`` for an op asked to compute in the dtype ``dt`` (None: integers as int64),
    which it casts to inside its own node as torch's kernels do; refused as torch refuses an
    integer or bool result for an input recording a gradient (a scan's bool kernel refuses
    first, in :func:`_scan_args`)."""
    if dt is None:
        return input if input.dtype.is_floating_point else input.to(int64)
    _args.differentiable_dtype(input, dt)
    return input


@_call_form.parser_types(dim="int")
def cumsum(input: Tensor, dim: Any, *, dtype: Any = None) -> Tensor:
    """Running sums along ``dim``; integer and bool inputs give int64.

    >>> minitorch.tensor([[1, 2], [3, 4]]).cumsum(1)
    tensor([[1, 3],
            [3, 7]])
    """
    input, d, dt = _scan_args("cumsum", input, dim, dtype)
    return Cumsum.apply(input, dim=d, dtype=dt)


@_call_form.parser_types(dim="int")
def cumprod(input: Tensor, dim: Any, *, dtype: Any = None) -> Tensor:
    """Running products along ``dim``; integer and bool inputs give int64.

    >>> minitorch.tensor([1., 2., 3.]).cumprod(0)
    tensor([1., 2., 6.])
    """
    input, d, dt = _scan_args("cumprod", input, dim, dtype)
    return Cumprod.apply(input, dim=d, dtype=dt)


def _in_place(op: type, name: str) -> Callable[..., Tensor]:
    """``x.<name>_(dim)``: the scan ``op`` written into ``x``, in ``x``'s own dtype."""
    @_call_form.parser_types(dim="int")
    def scan_(self: Tensor, dim: Any, *, dtype: Any = None) -> Tensor:
        _args.parsed(f"{name}_", ("int", dim, "dim", 1),  # the parser's checks, before
                     ("dtype", dtype, "dtype", None))  # the in-place ones
        check_inplace_allowed(self)  # (autograd's, then the scan's, then an overlap's)
        _scan_args(f"{name}_", self, dim, dtype, into=self.dtype)

        def written(old: Tensor, dim: Any, dtype: Any) -> Tensor:
            input, d, dt = _scan_args(f"{name}_", old, dim, dtype, into=self.dtype)
            return op.apply(input, dim=d, dtype=dt)

        return self._inplace(written, dim=dim, dtype=dtype)

    scan_.__name__ = scan_.__qualname__ = f"{name}_"
    scan_.__doc__ = f"In-place ``{name}``, in the tensor's own dtype.\n\n    >>> " \
                    f"minitorch.ones(2).{name}_(0) is not None\n    True\n    "
    return scan_


cumsum_, cumprod_ = _in_place(Cumsum, "cumsum"), _in_place(Cumprod, "cumprod")


def _prod_backward(g: Tensor, a: Tensor, result: Tensor, dim: int) -> Tensor:
    """torch's ``prod_backward`` with ``g`` and ``result`` keeping ``dim``: ``result / a``
    without zeros, else the product of the others from running products on either side."""
    if not bool(a._xp.any(a._data == 0)):
        return g * (result / a)
    n = a.shape[dim]
    if n == 1:  # (torch's products of no others: ones, which depend on no input)
        return g
    ones = wrap(a._xp.ones(tuple(1 if k == dim else s for k, s in enumerate(a.shape)),
                           dtype=a._data.dtype))
    before = cumprod(cat([ones, a.narrow(dim, 0, n - 1)], dim), dim)
    after = flip(cumprod(cat([ones, flip(a.narrow(dim, 1, n - 1), dim)], dim), dim), dim)
    return g * (before * after)


class Prod(Op):
    node_name = "ProdBackward0"
    _profile_name = "aten::prod"
    tangent_promoted = True  # forward AD: torch's prod_jvp is not cast to dtype=

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, dtype: Any = None) -> Tensor:
        data = cast_inside(ctx, a, dtype)._data
        out = wrap(a._xp.prod(data, dtype=data.dtype))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        a, result = ctx.saved_tensors
        if a.dim() == 0:
            return (cast_back(ctx, g),)
        flat = (a if ctx.input_dtype is None else a.to(result.dtype)).reshape(-1)
        grad = _prod_backward(g.reshape(1), flat, result.reshape(1), 0).reshape(a.shape)
        return (cast_back(ctx, grad),)


class ProdDim(Op):
    node_name = "ProdBackward1"
    saved_values = {"dim": kept("dim"), "keepdim": kept("keepdim")}
    _profile_name = "aten::prod"
    tangent_promoted = True  # forward AD: torch's prod_jvp is not cast to dtype=

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, dim: int, keepdim: bool, dtype: Any = None) -> Tensor:
        data = cast_inside(ctx, a, dtype)._data
        ctx.dim, ctx.keepdim = dim, keepdim
        out = a._xp.prod(data, axis=dim if a.dim() else None, dtype=data.dtype,
                         keepdims=keepdim)
        result = wrap(c_order(out))  # torch's reduction allocates it contiguous
        ctx.save_for_backward(a, result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        a, result = ctx.saved_tensors
        if a.dim() == 0:
            return (cast_back(ctx, g),)
        if not ctx.keepdim:
            g, result = g.unsqueeze(ctx.dim), result.unsqueeze(ctx.dim)
        a = a if ctx.input_dtype is None else a.to(result.dtype)
        return (cast_back(ctx, _prod_backward(g, a, result, ctx.dim)),)


@_call_form.overloads("Tensor input, *, torch.dtype dtype = None",
                      "Tensor input, int dim, bool keepdim = False, *, torch.dtype dtype = None, "
                      "Tensor out = None")
@_call_form.parser_types(dim="int")
def prod(input: Tensor, dim: Any = _args.OMITTED, keepdim: Any = _args.OMITTED, *,
         dtype: Any = None) -> Tensor:
    """The product of all elements, or over ``dim``; integer and bool inputs give int64.

    >>> minitorch.tensor([[1., 2.], [3., 4.]]).prod(1)
    tensor([ 2., 12.])
    """
    _args.tensor_args("prod", (input, "input", 1))
    if (dim is None and keepdim is _args.OMITTED) or (
            dim is _args.OMITTED and keepdim is not _args.OMITTED):  # no overload of torch's
        given = tuple(v for v in (dim, keepdim) if v is not _args.OMITTED)
        if dtype is not None and dim is _args.OMITTED:  # three arguments: only the dim
            raise TypeError('prod() missing 1 required positional arguments: "dim"')  # overload
        if dtype is not None:  # takes them, which refuses its dim
            _args.integer("prod", dim, "dim", 2)
        raise _args.invalid_combination("prod", given, "*, torch.dtype dtype = None",
                                        "int dim, bool keepdim = False, *, torch.dtype dtype "
                                        "= None")
    if dim is _args.OMITTED:
        dt = _args.dtype("prod", dtype)
        return Prod.apply(_as_dtype(input, dt), dtype=dt)
    _, keepdim, dt = _args.parsed(  # the parser's types (dim's, keepdim's, dtype's), values
        "prod", ("int", dim, "dim", 2),
        ("bool", False if keepdim is _args.OMITTED else keepdim, "keepdim", 3),
        ("dtype", dtype, "dtype", None))
    d = _args.dim("prod", dim, input.dim())  # then the dim's range
    return ProdDim.apply(_as_dtype(input, dt), dim=d, keepdim=keepdim, dtype=dt)
