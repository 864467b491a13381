"""``index_reduce``: the slices of ``source`` reduced into ``input``'s slices ``index`` along
``dim`` by ``prod``, ``mean``, ``amax`` or ``amin`` (``include_self``: with the slice's own
values), node ``IndexReduceBackward0`` with torch's ``index_reduce_backward``.

>>> import minitorch
>>> x = minitorch.tensor([1., 2., 3.], requires_grad=True)
>>> y = x.index_reduce(0, minitorch.tensor([0, 0]), minitorch.tensor([4., 5.]), "amax"); y
tensor([5., 2., 3.], grad_fn=<IndexReduceBackward0>)
>>> y.sum().backward(); x.grad
tensor([0., 1., 1.])
"""

from __future__ import annotations

from typing import Any

from .. import _args, backend
from .._tensor import Tensor, check_inplace_allowed
from .._warn_once import warn_once
from ._base import Op, wrap
from ._out import takes_out
from .index_write import check_restrided
from .inplace_more import check_index_add, check_index_range

__all__ = ["METHODS", "IndexReduce", "index_reduce", "index_reduce_"]

_UFUNCS = {"prod": "multiply", "amax": "maximum", "amin": "minimum", "mean": "add"}


class IndexReduce(Op):
    """``index_reduce``: ``source``'s slices reduced into ``a``'s at the flat ``index``."""

    node_name = "IndexReduceBackward0"
    saved_names = ("self", "source", "result")
    _profile_name = "aten::index_reduce"
    no_forward_ad = "index_reduce"  # derivatives.yaml gives it no forward formula

    @staticmethod
    def forward(ctx: Any, a: Tensor, source: Tensor, *, dim: int, index: Tensor, reduce: str,
                include_self: bool) -> Tensor:
        out = wrap(_reduced(a, source, dim, index._data, reduce, include_self))
        ctx.dim, ctx.index, ctx.reduce, ctx.include_self = dim, index, reduce, include_self
        ctx.save_for_backward(a, source, out)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        a, source, result = ctx.saved_tensors
        shapes = (a.shape, source.shape)
        if a.dim() == 0:  # the formulas index a dim: a 0-d self is one slice of one
            a, source, result, g = (t.reshape(1) for t in (a, source, result, g))
        grad_self, grad_source = _gradients(g, a, source, result, ctx.dim, ctx.index,
                                            ctx.reduce, ctx.include_self)
        return grad_self.reshape(shapes[0]), grad_source.reshape(shapes[1])


def _reduced(a: Tensor, source: Tensor, d: int, index: Any, reduce: str,
             include_self: bool) -> Any:
    """The array of ``a`` with ``source`` reduced into its slices ``index`` along ``d``."""
    xp = a._xp
    out = xp.asarray(a._data, copy=True)
    target = xp.reshape(out, (1,)) if out.ndim == 0 else out  # a view: writes reach out
    values = xp.reshape(source._data, (-1,)) if out.ndim == 0 else source._data
    key = (slice(None),) * d + (xp.reshape(index, (-1,)),)
    if not target.size:  # torch reads no index for an empty self
        return out
    if reduce == "mean":
        counts = xp.ones_like(target)
        if not include_self:
            backend.setitem(xp, target, key, 0)
            backend.setitem(xp, counts, key, 0)
        backend.index_add(xp, counts, key, xp.ones_like(values))
        backend.index_add(xp, target, key, values)
        counts = xp.where(counts == 0, xp.ones_like(counts), counts)
        target[...] = target / counts if a.dtype.is_floating_point else target // counts
        return out
    if not include_self:
        backend.setitem(xp, target, key, _identity(xp, target.dtype, reduce))
    backend.index_reduce(xp, target, key, values, _UFUNCS[reduce])
    return out


def _identity(xp: Any, array_dtype: Any, reduce: str) -> Any:
    """The value that ``reduce`` leaves unchanged, of ``array_dtype`` (an empty slice's start)."""
    if reduce == "prod":
        return 1
    if array_dtype == xp.bool:
        return reduce == "amin"
    if xp.isdtype(array_dtype, "real floating"):
        return -float("inf") if reduce == "amax" else float("inf")
    info = xp.iinfo(array_dtype)
    return info.min if reduce == "amax" else info.max


def _gradients(g: Tensor, a: Tensor, source: Tensor, result: Tensor, d: int, index: Tensor,
               reduce: str, include_self: bool) -> tuple:
    """torch's ``index_reduce_backward``: the gradients of ``a`` and ``source``."""
    if reduce == "prod":
        masked_self = a.masked_fill(a == 0, 1)
        masked_self_result = masked_self.index_reduce(d, index, source, reduce,
                                                      include_self=include_self)
        grad_self = g * masked_self_result / masked_self
        source_zero = source == 0
        zeros = a.new_zeros(a.shape).index_add(d, index, source_zero.to(a.dtype))
        single_zero = source_zero & (zeros.index_select(d, index) == 1)
        masked_source_result = a.index_reduce(d, index, source.masked_fill(single_zero, 1),
                                              reduce, include_self=include_self)
        grad_source = (g * masked_source_result).index_select(d, index).where(
            single_zero, (g * result).index_select(d, index) / source.masked_fill(source_zero, 1))
    elif reduce == "mean":
        counts = (g.new_ones(g.shape) if include_self else g.new_zeros(g.shape)).index_add(
            d, index, source.new_ones(source.shape))
        counts = counts.masked_fill(counts == 0, 1)
        grad_self = g / counts
        grad_source = g.index_select(d, index) / counts.index_select(d, index)
    else:
        self_is_result = (a == result).to(a.dtype)
        source_is_result = (source == result.index_select(d, index)).to(a.dtype)
        distributed = g / self_is_result.index_add(d, index, source_is_result)
        grad_self = self_is_result * distributed
        grad_source = source_is_result * distributed.index_select(d, index)
    if not include_self:
        grad_self = grad_self.index_fill(d, index, 0)
    return grad_self, grad_source


def _checked(fn: str, input: Tensor, dim: Any, index: Any, source: Any, reduce: Any,
             include_self: Any) -> int:
    """``dim`` wrapped, after torch's checks in its order: the arguments' types (then their
    values), the leaf check of the in-place form, ``reduce``, ``dim``, the tensors."""
    _args.tensor_args(fn, (input, "input", 1))
    dim, *_ = _args.parsed(fn, ("int", dim, "dim", 2), ("tensor", index, "index", 3),
                           ("tensor", source, "source", 4), ("str", reduce, "reduce", 5),
                           ("bool", include_self, "include_self", None))
    if fn.endswith("_"):
        check_inplace_allowed(input, source)
    if reduce not in _UFUNCS:
        raise RuntimeError("index_reduce(): Expected reduce to be one of prod, mean, amax or "
                           f"amin but got {reduce}.")
    d = _args.wrap_dim(dim, input.dim())
    check_index_add(input, d, index, source, None, fn="index_reduce_", ranged=False)
    warn_once("index_reduce() is in beta and the API may change at any time.")
    if not include_self:  # the loop over no self's values: bool has none, then the restride
        if input.dtype.name == "bool":
            raise _args.not_implemented("index_reduce_func_exclude_input_init", input.dtype)
        if check_restrided(input, d, index.numel(), "input" if fn.endswith("_") else "new"):
            first = int(index.reshape(-1)[0])  # its kernel reads the first index, out of a
            # dim of size 0
            raise IndexError(f"index {first} is out of bounds for dimension {d} with size 0")
    if input.dim() > 1 and not input.shape[d] and index.numel():  # its first slice
        raise IndexError(f"select(): index 0 out of range for tensor of size "
                         f"{list(input.shape)} at dimension {d}")
    if input.dtype.name == "bool" and input.dim() < 2:  # the kernel of one dim has no bool
        raise _args.not_implemented("index_func_", input.dtype)  # loop (a matrix's has)
    check_index_range(input, d, index, None)
    if reduce == "mean" and input.dtype.name == "bool" and index.numel():
        raise _args.not_implemented("div_floor_cpu", input.dtype)
    return d


@takes_out
def index_reduce(input: Tensor, dim: int, index: Tensor, source: Tensor, reduce: str, *,
                 include_self: bool = True) -> Tensor:
    """``input`` with ``source``'s slices reduced into its slices ``index`` along ``dim``.

    >>> minitorch.index_reduce(minitorch.ones(3), 0, minitorch.tensor([2, 2]),
    ...                        minitorch.tensor([2., 3.]), "prod")
    tensor([1., 1., 6.])
    """
    d = _checked("index_reduce", input, dim, index, source, reduce, include_self)
    return IndexReduce.apply(input, source, dim=d, index=index, reduce=reduce,
                             include_self=include_self)


def index_reduce_(self: Tensor, dim: int, index: Tensor, source: Tensor, reduce: str, *,
                  include_self: bool = True) -> Tensor:
    """In-place :func:`index_reduce`.

    >>> minitorch.zeros(2).index_reduce_(0, minitorch.tensor([1]), minitorch.ones(1), "amax")
    tensor([0., 1.])
    """
    d = _checked("index_reduce_", self, dim, index, source, reduce, include_self)
    return self._inplace(IndexReduce.apply, source, dim=d, index=index, reduce=reduce,
                         include_self=include_self)


METHODS = {"index_reduce": index_reduce, "index_reduce_": index_reduce_}
