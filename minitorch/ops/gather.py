"""Reading and writing along one dim at the positions an index tensor names: ``gather``,
``scatter``, ``scatter_add`` and ``index_select``.

``gather`` and ``scatter_add`` are each other's gradient: what gather reads, its backward
adds back at the same positions (repeated indices add up).

>>> import minitorch
>>> x = minitorch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
>>> y = x.gather(1, minitorch.tensor([[1], [0]]))
>>> y
tensor([[2.],
        [3.]], grad_fn=<GatherBackward0>)
"""

from __future__ import annotations

from typing import Any

from .. import _args, _call_form
from .._creation import ones_like, zeros_like
from .._tensor import Tensor
from .._warn_once import warn_once
from ..autograd.function import delayed_error, reduce_to_shape
from ..backend import (
    c_order,
    contiguous_strides,
    element_strides,
    getitem,
    index_reduce,
    restrided,
    setitem,
    to_numpy,
)
from ._base import Op, check_indices, kept, save_indices, wrap
from .inplace_more import IndexAdd
from .pointwise import _NoDerivative, where

__all__ = ["Gather", "IndexSelect", "Scatter", "ScatterAdd", "ScatterReduce", "ScatterValue",
           "gather", "index_select", "scatter", "scatter_", "scatter_add", "scatter_add_",
           "scatter_reduce", "scatter_reduce_"]


def _positions(xp: Any, index: Any, dim: int) -> tuple:
    """The array key that reaches element ``i`` of ``dim`` for every entry ``i`` of ``index``:
    aranges on the other dims, ``index`` on ``dim``."""
    if index.ndim == 0:
        return (index,)
    key = []
    for d, n in enumerate(index.shape):
        if d == dim:
            key.append(index)
        else:
            shape = [1] * index.ndim
            shape[d] = n
            key.append(xp.reshape(xp.arange(n), tuple(shape)))
    return tuple(key)


def _src_part(src: Any, index_shape: tuple) -> Any:
    """The corner of ``src`` the index covers (``src`` may be larger than the index; a 0-d
    one counts as one element of one dim, as in torch), or a number as it is."""
    if not isinstance(src, Tensor):
        return src
    data = src._data if src.dim() else src._xp.reshape(src._data, (1,))
    if not index_shape:
        return data[(0,) * data.ndim]
    return data[tuple(slice(0, n) for n in index_shape)]


class Gather(Op):
    node_name = "GatherBackward0"
    index_operands = (1,)
    saved_values = {"dim": kept("dim"), "sparse_grad": kept("sparse_grad")}
    _profile_name = "aten::gather"
    saved_names = ("self", "index")  # torch saves self too: an in-place write to it is refused

    @staticmethod
    def forward(ctx: Any, a: Tensor, index: Tensor, *, dim: int, sparse_grad: bool = False
                ) -> Tensor:
        ctx.shape, ctx.dim, ctx.sparse_grad = a.shape, dim, sparse_grad
        ctx.save_for_backward(a, index)
        if not index.numel():  # an empty index reads nothing, whatever its rank
            return wrap(a._xp.empty(index._data.shape, dtype=a._data.dtype))
        return wrap(getitem(a._xp, _flat(a._data), _positions(a._xp, index._data, dim)))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        _, index = ctx.saved_tensors
        if ctx.sparse_grad:
            raise NotImplementedError("minitorch has no sparse tensors: torch's gradient of "
                                      "gather(..., sparse_grad=True) is one; use "
                                      "sparse_grad=False for the same values, dense")
        zeros = wrap(g._xp.zeros(tuple(ctx.shape), dtype=g._data.dtype))
        return ScatterAdd.apply(zeros, index, g, dim=ctx.dim), None


def _flat(array: Any) -> Any:
    """A 0-d array as one element of 1-d, so that one key form serves every rank."""
    return array if array.ndim else array.reshape((1,))


def _written(a: Tensor, index: Tensor, dim: int, src: Any, op: str | None) -> Any:
    """A copy of ``a``'s array with ``src`` (a tensor or a number) written at ``index``
    along ``dim``, or reduced into it by the ufunc ``op`` (see ``backend.index_reduce``)."""
    xp = a._xp
    out = xp.asarray(a._data, copy=True)
    if not index.numel():  # an empty index writes nothing, whatever its rank
        return out
    key, values = _positions(xp, index._data, dim), _src_part(src, index.shape)
    if op is None:
        setitem(xp, _flat(out), key, values)
    else:
        index_reduce(xp, _flat(out), key, values, op)
    return out


def _src_grad(ctx: Any, g: Tensor, index: Tensor) -> Tensor | None:
    """``g`` read back at ``index``: the gradient of ``src``, which torch refuses (with the
    engine's error) when ``src`` is larger than the index."""
    if not ctx.needs_input_grad[2]:
        return None
    if tuple(index.shape) != ctx.src_shape:
        raise RuntimeError(f"Function {ctx.node_name} returned an invalid gradient at index 1 "
                           f"- got {list(index.shape)} but expected shape compatible with "
                           f"{list(ctx.src_shape)}")
    return Gather.apply(g, index, dim=ctx.dim)


class ScatterAdd(Op):
    node_name = "ScatterAddBackward0"
    index_operands = (1,)
    _profile_name = "aten::scatter_add"

    @staticmethod
    def forward(ctx: Any, a: Tensor, index: Tensor, src: Tensor, *, dim: int) -> Tensor:
        ctx.dim, ctx.src_shape, ctx.node_name = dim, tuple(src.shape), ScatterAdd.node_name
        ctx.save_for_backward(index if ctx.needs_input_grad[2] else None)  # as torch saves
        return wrap(_written(a, index, dim, src, "add"))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (index,) = ctx.saved_tensors
        return g, None, _src_grad(ctx, g, index)


class Scatter(Op):
    node_name = "ScatterBackward0"
    index_operands = (1,)
    _profile_name = "aten::scatter"

    @staticmethod
    def forward(ctx: Any, a: Tensor, index: Tensor, src: Tensor, *, dim: int) -> Tensor:
        ctx.dim, ctx.src_shape, ctx.node_name = dim, tuple(src.shape), Scatter.node_name
        ctx.save_for_backward(index)
        return wrap(c_order(_written(a, index, dim, src, None)))  # torch's: contiguous

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (index,) = ctx.saved_tensors
        grad_self = ScatterValue.apply(g, index, dim=ctx.dim, value=0)
        return grad_self, None, _src_grad(ctx, g, index)


class ScatterValue(Op):
    node_name = "ScatterBackward1"
    index_operands = (1,)
    _profile_name = "aten::scatter"

    @staticmethod
    def forward(ctx: Any, a: Tensor, index: Tensor, *, dim: int, value: Any) -> Tensor:
        ctx.dim = dim
        ctx.save_for_backward(index)
        return wrap(c_order(_written(a, index, dim, _args.scalar_for(value, a.dtype)
                                     if type(value) is int else value, None)))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (index,) = ctx.saved_tensors
        return ScatterValue.apply(g, index, dim=ctx.dim, value=0), None


def _check_index(fn: str, input: Tensor, dim: Any, index: Any, src: Any = None) -> int:
    """``dim`` wrapped, after torch's checks in torch's order: the dim, an integer index, a
    tensor ``src`` of ``input``'s dtype, an index of ``input``'s rank (an empty index's dtype
    is not read)."""
    _args.tensor_args(fn, (input, "input", 1), (index, "index", 3))  # types, then values
    d = _args.dim(fn, dim, input.dim())
    if index.numel() and index.dtype.name not in ("int64", "int32"):
        raise RuntimeError(f"{fn}(): Expected dtype int32/int64 for index")
    if isinstance(src, Tensor) and src.dtype is not input.dtype:
        raise RuntimeError(f"{fn}(): Expected self.dtype to be equal to src.dtype")
    if index.numel() and max(index.dim(), 1) != max(input.dim(), 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as "
                           f"{'input' if fn == 'gather' else 'self'} tensor")
    return d


def _size(t: Tensor, k: int) -> int:
    """torch's ``ensure_nonempty_size``: a 0-d tensor's one size is 1; a dim ``t`` lacks
    is torch's IndexError."""
    return t.shape[_args.wrap_dim(k, t.dim())] if t.dim() else 1


def _check_gather_shape(input: Tensor, d: int, index: Tensor) -> None:
    """gather's index no larger than ``input`` apart from ``d`` (an empty index fits)."""
    for k in range(max(input.dim(), 1)) if index.numel() else ():
        if k != d and _size(index, k) > _size(input, k):
            raise RuntimeError(f"Size does not match at dimension {k} expected index "
                               f"{list(index.shape)} to be no larger than self "
                               f"{list(input.shape)} apart from dimension {d}")


def _check_scatter_shape(input: Tensor, d: int, index: Tensor, src: Tensor | None) -> None:
    """torch's shape check of the scatters (an empty index fits anything): the index no
    larger than ``input`` apart from ``d`` and, only if so, than a tensor ``src`` in every
    dim (one ``src`` lacks is torch's IndexError); then ``src``'s rank; then the sizes."""
    if not index.numel():
        return
    dims = range(max(input.dim(), 1))
    wrong = any(k != d and _size(index, k) > _size(input, k) for k in dims)
    if not wrong and src is not None:
        wrong = any(_size(index, k) > _size(src, k) for k in dims)
    expected = (f"Expected index {list(index.shape)} to be no larger than self "
                f"{list(input.shape)} apart from dimension {d}")
    if src is not None and max(src.dim(), 1) != max(index.dim(), 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    if wrong:
        raise RuntimeError(expected if src is None else
                           f"{expected} and to be no larger size than src {list(src.shape)}")


def _check_in_range(input: Tensor, d: int, index: Tensor) -> None:
    """The index's entries within ``input``'s dim ``d``, as torch's scatter and gather
    kernels check them: the first one outside is named."""
    size, xp, data = _size(input, d), index._xp, index._data
    bad = (data < 0) | (data >= size)
    if index.numel() and bool(xp.any(bad)):
        first = int(xp.reshape(data, (-1,))[xp.reshape(bad, (-1,))][0])
        raise RuntimeError(f"index {first} is out of bounds for dimension {d} with size "
                           f"{size}")


def _first_in_range(input: Tensor, d: int, index: Tensor) -> bool:
    """Whether the kernel's first element (the index's first entry) is inside dim ``d``: it
    is written, so a value that does not fit is refused before any later index's range."""
    first = int(index._xp.reshape(index._data, (-1,))[0])
    return 0 <= first < _size(input, d)


def gather(input: Tensor, dim: int, index: Tensor, *, sparse_grad: bool = False) -> Tensor:
    """``out[i][j] = input[i][index[i][j]]`` for ``dim=1`` (likewise for any dim).

    >>> minitorch.gather(minitorch.tensor([10, 20, 30]), 0, minitorch.tensor([2, 0]))
    tensor([30, 10])
    """
    _args.tensor_args("gather", (input, "input", 1))  # the parser's order: input, dim, index
    _args.integer("gather", dim, "dim", 2)
    _args.tensor_args("gather", (index, "index", 3))
    _args.flag("gather", sparse_grad, "sparse_grad")  # the parser's, before any value check
    d = _check_index("gather", input, dim, index)
    _check_gather_shape(input, d, index)
    _check_in_range(input, d, index)
    return Gather.apply(input, index, dim=d, sparse_grad=sparse_grad)


SCATTER_SIGNATURES = ("int dim, Tensor index, Tensor src",
                      "int dim, Tensor index, Tensor src, *, str reduce",
                      "int dim, Tensor index, Number value",
                      "int dim, Tensor index, Number value, *, str reduce")


def _scatter_parsed(fn: str, dim: Any, index: Any, src: Any, add: bool = False,
                    keywords: dict | None = None) -> None:
    """torch's parser on scatter's arguments, before any other check (a leaf's in-place
    refusal included): an int dim, a tensor index and, for scatter, a tensor or number src
    (one of its overloads; ``value=`` and ``reduce=`` as keywords: a number and a str), for
    scatter_add a tensor src; then their values (a number src, then the dim, past int64
    overflow)."""
    keywords = keywords or {}
    if add:
        _args.integer(fn, dim, "dim", 1)
        _args.tensor_args(fn, (index, "index", 2), (src, "src", 3))
    elif _args.as_param_int(dim, "dim") is None or not _args.is_tensor(index) or not (
            _args.is_tensor(src) or _args.is_real(src) or isinstance(src, complex)) or (
            "value" in keywords and not _is_number(keywords["value"])) or (
            keywords.get("reduce", _args.OMITTED) is not _args.OMITTED and
            not isinstance(keywords["reduce"], str)):  # (a None given too: no str)
        given = (dim, index) if "value" in keywords else (dim, index, src)
        shown = {k: v for k, v in keywords.items() if v is not _args.OMITTED}
        raise _args.invalid_combination(fn, given, *SCATTER_SIGNATURES, keywords=shown)
    _args.parsed(fn, ("int", dim, "dim", 1),
                 ("number", _args.OMITTED if _args.is_tensor(src) else src, "value", 3))


def _scatter_source(fn: str, dim: Any, index: Any, src: Any, value: Any,
                    reduce: Any) -> Any:
    """scatter's ``src`` (a tensor or a number) from its ``src`` or ``value=``, after torch's
    parser: a ``value=`` is a number (a 0-d tensor reads as one), given without ``src``."""
    if value is not None and src is not None:
        raise _args.invalid_combination(fn, (dim, index, src), *SCATTER_SIGNATURES,
                                        keywords={"value": value})
    keywords = {"reduce": reduce} if value is None else {"value": value, "reduce": reduce}
    if value is not None:
        src = value.item() if isinstance(value, Tensor) and _is_number(value) else value
    _scatter_parsed(fn, dim, index, src, keywords=keywords)
    return _args.numpy_scalar(src)  # a numpy scalar: the number torch's parser reads


def _is_number(value: Any) -> bool:
    """What torch's parser takes for a Number: a real or complex number, or a 0-d tensor."""
    if _args.is_tensor(value):
        return value.dim() == 0
    return _args.is_real(value) or isinstance(value, complex)


@_call_form.overloads(*(f"Tensor input, {s}{', *' if '*' not in s else ''}, Tensor out = None"
                        for s in SCATTER_SIGNATURES))
def scatter(input: Tensor, dim: int, index: Tensor, src: Any = None, *,
            value: Any = None, reduce: Any = _args.OMITTED) -> Tensor:
    """A copy of ``input`` with ``src`` (a tensor or a number) written at ``index`` along
    ``dim``: ``out[i][index[i][j]] = src[i][j]`` for ``dim=1``.

    >>> minitorch.zeros(3).scatter(0, minitorch.tensor([2]), 5.)
    tensor([0., 0., 5.])
    """
    src = _scatter_source("scatter", dim, index, src, value, reduce)
    d = _check_index("scatter", input, dim, index, src)
    _check_scatter_shape(input, d, index, src if isinstance(src, Tensor) else None)
    if reduce is not _args.OMITTED and reduce not in _LEGACY_REDUCTIONS:
        raise RuntimeError("reduce argument must be either add or multiply.")
    if not isinstance(src, Tensor):  # the kernel converts it as it writes its first element:
        first = index.numel() and _first_in_range(input, d, index)  # none for an empty index,
        src = _args.kernel_scalar(src, input.dtype) if first else 0  # the range's error first
    _check_in_range(input, d, index)
    if reduce is not _args.OMITTED:
        if isinstance(src, Tensor):  # torch deprecates only the tensor form, once a process
            warn_once(_REDUCE_DEPRECATED, stacklevel=4)
        return ScatterLegacyReduce.on(input, src, index=index, dim=d, op=reduce)
    if isinstance(src, Tensor):
        return Scatter.apply(input, index, src, dim=d)
    return ScatterValue.apply(input, index, dim=d, value=src)


# scatter's deprecated reductions, by the ufunc each runs
_LEGACY_REDUCTIONS = {"add": "add", "multiply": "multiply"}
_REDUCE_DEPRECATED = (
    "The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in "
    "a future PyTorch release. Use torch.scatter_reduce instead for more reduction options.")


class ScatterLegacyReduce(_NoDerivative):
    """scatter's deprecated ``reduce=`` of a tensor or a number ``src`` into ``a``: torch
    records it without a derivative."""

    node_name = "NotImplemented"
    _profile_name = "aten::scatter"

    @staticmethod
    def compute(a: Tensor, src: Any, *, index: Tensor, dim: int, op: str) -> Any:
        return _written(a, index, dim, src, _LEGACY_REDUCTIONS[op])


def scatter_add(input: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """A copy of ``input`` with ``src`` added at ``index`` along ``dim`` (repeated indices
    add up).

    >>> minitorch.zeros(3).scatter_add(0, minitorch.tensor([2, 2]), minitorch.ones(2))
    tensor([0., 0., 2.])
    """
    _args.tensor_args("scatter_add", (input, "input", 1))  # (the parser's first)
    _scatter_parsed("scatter_add", dim, index, src, add=True)
    d = _check_index("scatter", input, dim, index, src)  # torch names scatter in both
    _check_scatter_shape(input, d, index, src)
    _check_in_range(input, d, index)
    return ScatterAdd.apply(input, index, src, dim=d)


# scatter_reduce's reductions, by the ufunc each runs (mean: a sum, then a division); torch's
# forward also takes "max" and "min", whose backward it refuses
_REDUCTIONS = {"sum": "add", "prod": "multiply", "mean": "add", "amax": "maximum",
               "amin": "minimum", "max": "maximum", "min": "minimum"}


def _identity(xp: Any, array: Any, reduce: str) -> Any:
    """What a position ``reduce`` starts from when ``self`` is left out (include_self=False):
    the reduction's identity in ``array``'s dtype (the lowest or highest value it holds)."""
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    highest = reduce in ("amin", "min")
    if array.dtype == xp.bool:
        return highest
    if xp.isdtype(array.dtype, "real floating"):
        return float("inf") if highest else -float("inf")
    info = xp.iinfo(array.dtype)
    return info.max if highest else info.min


class ScatterReduce(Op):
    """``scatter_reduce``: ``src`` reduced into a copy of ``input`` at ``index`` along
    ``dim`` (sum, prod, mean, amax or amin), ``input``'s own values taking part unless
    ``include_self`` is False. The backward is torch's ``scatter_reduce_backward``."""

    node_name = "ScatterReduceBackward0"
    _profile_name = "aten::scatter_reduce"

    @staticmethod
    def forward(ctx: Any, a: Tensor, src: Tensor, *, index: Tensor, dim: int, reduce: str,
                include_self: bool) -> Tensor:
        ctx.options = {"dim": dim, "reduce": reduce, "include_self": include_self}
        ctx.src_shape, ctx.node_name = tuple(src.shape), ScatterReduce.node_name
        xp = a._xp
        start = a
        if not include_self:
            start = wrap(_written(a, index, dim, _identity(xp, a._data, reduce), None))
        out = _written(start, index, dim, src, _REDUCTIONS[reduce])
        if reduce == "mean":
            counts = _written(wrap(xp.full(a._data.shape, int(include_self), dtype=out.dtype)),
                              index, dim, 1, "add")
            counts = xp.where(counts == 0, xp.ones_like(counts), counts)
            out = out / counts if xp.isdtype(out.dtype, "real floating") else \
                xp.floor_divide(out, counts)
        result = wrap(out)
        ctx.save_for_backward(a, index, src, result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        a, index, src, result = ctx.saved_tensors
        grad_self, grad_src = _scatter_reduce_grads(g, a, index, src, result, **ctx.options)
        if not ctx.options["include_self"]:
            grad_self = grad_self.scatter(ctx.options["dim"], index, 0)
        if ctx.needs_input_grad[1] and tuple(grad_src.shape) != ctx.src_shape:
            grad_src = reduce_to_shape(ctx.node_name, 1, grad_src, ctx.src_shape)
        return (grad_self if ctx.needs_input_grad[0] else None,
                grad_src if ctx.needs_input_grad[1] else None)


def _scatter_reduce_grads(g: Tensor, a: Tensor, index: Tensor, src: Tensor, result: Tensor,
                          dim: int, reduce: str, include_self: bool) -> tuple:
    """torch's gradients of ``scatter_reduce`` for ``input`` and ``src``."""
    if reduce == "sum":
        return g, g.gather(dim, index)
    if reduce == "mean":  # the counts are constants: no graph runs through them
        counts = (ones_like(g) if include_self else zeros_like(g)).scatter_add(
            dim, index, ones_like(src))
        counts = counts.masked_fill(counts == 0, 1)
        return g / counts, g.gather(dim, index) / counts.gather(dim, index)
    if reduce == "prod":
        return _prod_grads(g, a, index, src, result, dim, include_self)
    if reduce not in ("amax", "amin"):
        raise RuntimeError("Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', "
                           f"'amin' but got {reduce}.")
    value = result.gather(dim, index)  # amax, amin: shared evenly among the ties
    self_hits, src_hits = a == result, src == value
    ties = self_hits.to(a.dtype).scatter_add(dim, index, src_hits.to(a.dtype))
    shared = g / ties
    return self_hits * shared, src_hits * shared.gather(dim, index)


def _prod_grads(g: Tensor, a: Tensor, index: Tensor, src: Tensor, result: Tensor, dim: int,
                include_self: bool) -> tuple:
    """scatter_reduce's prod gradients, torch's: products that leave out each zero factor
    are computed again without it; a ``src`` position sharing its target with another zero
    gets a gradient whose own derivative torch refuses."""
    def again(base: Tensor, values: Tensor) -> Tensor:
        return base.scatter_reduce(dim, index, values, "prod", include_self=include_self)

    masked_self = a.masked_fill(a == 0, 1)
    grad_self = g * again(masked_self, src) / masked_self
    src_zero = src == 0
    zeros_there = zeros_like(a).scatter_add(dim, index, src_zero.to(a.dtype)).gather(dim, index)
    single_zero = src_zero & (zeros_there == 1)
    without_zero = again(a, src.masked_fill(single_zero, 1))
    grad_src = where(single_zero, (g * without_zero).gather(dim, index),
                     (g * result).gather(dim, index) / src.masked_fill(src_zero, 1))
    if bool((zeros_there > 1).any()):
        grad_src = delayed_error(
            grad_src, "scatter_reduce(): Double backward is unsupported for src when >1 zeros "
            "in src are scattered to the same position in self")
    return grad_self, grad_src


def scatter_reduce(input: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *,
                   include_self: bool = True) -> Tensor:
    """A copy of ``input`` with ``src`` reduced in at ``index`` along ``dim``: "sum",
    "prod", "mean", "amax" or "amin", ``input``'s values included unless ``include_self``
    is False.

    >>> minitorch.zeros(3).scatter_reduce(0, minitorch.tensor([0, 0, 2]),
    ...                                   minitorch.tensor([1., 2., 3.]), "amax")
    tensor([2., 0., 3.])
    """
    fn = "scatter_reduce"
    include_self = _scatter_reduce_parsed(fn, input, dim, index, src, reduce, include_self)
    d = _check_index("scatter", input, dim, index, src)
    _check_scatter_shape(input, d, index, src)
    if reduce not in _REDUCTIONS:
        raise RuntimeError("reduce argument must be either sum, prod, mean, amax or amin, got "
                           f"{reduce}")
    if reduce == "mean" and input.dtype.name == "bool":
        raise _args.not_implemented("scatter_gather_tensor_cpu_reduce_mean", input.dtype)
    _check_in_range(input, d, index)
    return ScatterReduce.apply(input, src, index=index, dim=d, reduce=reduce,
                               include_self=include_self)


def _scatter_reduce_parsed(fn: str, input: Any, dim: Any, index: Any, src: Any, reduce: Any,
                           include_self: Any) -> bool:
    """torch's parser on scatter_reduce's arguments: each type in order, then the dim."""
    _args.tensor_args(fn, (input, "input", 1))
    _args.parsed(fn, ("int", dim, "dim", 2), ("tensor", index, "index", 3),
                 ("tensor", src, "src", 4))
    _args.string(fn, reduce, "reduce", 5)
    return _args.flag(fn, include_self, "include_self")


def scatter_reduce_(self: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *,
                    include_self: bool = True) -> Tensor:
    """In-place ``scatter_reduce``.

    >>> minitorch.ones(2).scatter_reduce_(0, minitorch.tensor([1, 1]),
    ...                                   minitorch.tensor([2., 3.]), "prod")
    tensor([1., 6.])
    """
    include_self = _scatter_reduce_parsed("scatter_reduce_", self, dim, index, src, reduce,
                                          include_self)
    return self._inplace(lambda a, v: scatter_reduce(a, dim, index, v, reduce,
                                                     include_self=include_self), src)


@_call_form.overloads("int dim, Tensor index, Tensor src",
                      "int dim, Tensor index, Tensor src, *, str reduce",
                      "int dim, Tensor index, Number value",
                      "int dim, Tensor index, Number value, *, str reduce")
def scatter_(self: Tensor, dim: int, index: Tensor, src: Any = None, *, value: Any = None,
             reduce: Any = _args.OMITTED) -> Tensor:
    """In-place ``scatter``: the arguments' types are checked before the in-place
    refusals, a number is checked by scatter (after the dim), as torch.

    >>> minitorch.zeros(2).scatter_(0, minitorch.tensor([1]), 1.)
    tensor([0., 1.])
    """
    src = _scatter_source("scatter_", dim, index, src, value, reduce)
    if isinstance(src, Tensor):
        return self._inplace(lambda a, v: scatter(a, dim, index, v, reduce=reduce), src)
    return self._inplace(lambda a: scatter(a, dim, index, src, reduce=reduce))


def scatter_add_(self: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """In-place ``scatter_add``.

    >>> minitorch.zeros(2).scatter_add_(0, minitorch.tensor([1, 1]), minitorch.ones(2))
    tensor([0., 2.])
    """
    _scatter_parsed("scatter_add_", dim, index, src, add=True)
    return self._inplace(lambda a, v: scatter_add(a, dim, index, v), src)


class IndexSelect(Op):
    node_name = "IndexSelectBackward0"
    saved_slots = ("key",)  # torch saves the index
    _profile_name = "aten::index_select"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, key: tuple, index: Tensor | None = None) -> Tensor:
        ctx.shape, ctx.key = a.shape, key
        save_indices(ctx, index)
        out = c_order(getitem(a._xp, _flat(a._data), key))  # torch's CPU kernel: contiguous
        if element_strides(out) not in (None, contiguous_strides(out.shape)):
            out = restrided(out, contiguous_strides(out.shape))  # a dim of size 1's stride too
        return wrap(out if a.dim() else a._xp.reshape(out, ()))  # a scalar's is a scalar

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        check_indices(ctx)
        xp = g._xp
        zeros = wrap(xp.zeros(tuple(ctx.shape), dtype=g._data.dtype))
        source = g.reshape(-1) if not ctx.shape else g
        target = zeros.reshape(1) if not ctx.shape else zeros
        return (IndexAdd.apply(target, source, key=ctx.key, alpha=1).reshape(ctx.shape),)


def index_select(input: Tensor, dim: int, index: Tensor) -> Tensor:
    """The slices ``index`` (a vector of ints) of ``dim``, in that order.

    >>> minitorch.arange(6).reshape(3, 2).index_select(0, minitorch.tensor([2, 0]))
    tensor([[4, 5],
            [0, 1]])
    """
    _args.tensor_args("index_select", (input, "input", 1))  # input, dim, index: the parser's
    _args.integer("index_select", dim, "dim", 2)
    _args.tensor_args("index_select", (index, "index", 3))
    d = _args.dim("index_select", dim, input.dim())
    if index.dim() > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if not input.dim() and index.numel() != 1:
        raise RuntimeError("index_select(): Index to scalar can have only 1 value, got "
                           f"{index.numel()} value(s)")
    if index.dtype.name not in ("int64", "int32"):
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    _check_select_bounds(input, d, index)
    key = (slice(None),) * d + (index._xp.reshape(index._data, (-1,)),)
    return IndexSelect.apply(input, key=key, index=index)


def _check_select_bounds(input: Tensor, d: int, index: Tensor) -> None:
    """torch's error for an index out of ``[0, size)``, which its CPU kernel words by its
    path: an empty dim has no index at all; dim 1 (its own kernel) or an empty input names
    the first bad index; other dims are IndexError."""
    size, data = (input.shape[d] if input.dim() else 1), index._data
    bad = (data < 0) | (data >= size)
    if not index.numel() or not bool(index._xp.any(bad)):
        return
    if input.dim() > 1 and not size:
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    if input.dim() > 1 and (d == 1 or not input.numel()):
        first = int(to_numpy(data).reshape(-1)[to_numpy(bad).reshape(-1)][0])
        raise RuntimeError(f"INDICES element is out of DATA bounds, id={first} axis_dim={size}")
    raise IndexError("index out of range in self")
