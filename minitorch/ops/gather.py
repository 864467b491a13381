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

from .. import _args
from .._tensor import Tensor
from ..backend import getitem, index_add, setitem, to_numpy
from ._base import Op, wrap
from .inplace_more import IndexAdd

__all__ = ["Gather", "IndexSelect", "Scatter", "ScatterAdd", "ScatterValue", "gather",
           "index_select", "scatter", "scatter_", "scatter_add", "scatter_add_"]


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


def _src_part(src: Tensor, index_shape: tuple) -> Any:
    """The corner of ``src`` the index covers (``src`` may be larger than the index)."""
    return src._data[tuple(slice(0, n) for n in index_shape)]


class Gather(Op):
    node_name = "GatherBackward0"
    _profile_name = "aten::gather"

    @staticmethod
    def forward(ctx: Any, a: Tensor, index: Tensor, *, dim: int) -> Tensor:
        ctx.shape, ctx.dim = a.shape, dim
        ctx.save_for_backward(index)
        if not index.numel():  # an empty index reads nothing, whatever its rank
            return wrap(a._xp.empty(index._data.shape, dtype=a._data.dtype))
        return wrap(getitem(a._xp, _flat(a._data), _positions(a._xp, index._data, dim)))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (index,) = ctx.saved_tensors
        zeros = wrap(g._xp.zeros(tuple(ctx.shape), dtype=g._data.dtype))
        return ScatterAdd.apply(zeros, index, g, dim=ctx.dim), None


def _flat(array: Any) -> Any:
    """A 0-d array as one element of 1-d, so that one key form serves every rank."""
    return array if array.ndim else array.reshape((1,))


def _written(a: Tensor, index: Tensor, dim: int, values: Any, add: bool) -> Tensor:
    xp = a._xp
    out = xp.asarray(a._data, copy=True)
    if not index.numel():  # an empty index writes nothing, whatever its rank
        return wrap(out)
    key = _positions(xp, index._data, dim)
    (index_add if add else setitem)(xp, _flat(out), key, values)
    return wrap(out)


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
    _profile_name = "aten::scatter_add"

    @staticmethod
    def forward(ctx: Any, a: Tensor, index: Tensor, src: Tensor, *, dim: int) -> Tensor:
        ctx.dim, ctx.src_shape, ctx.node_name = dim, tuple(src.shape), ScatterAdd.node_name
        ctx.save_for_backward(index if ctx.needs_input_grad[2] else None)  # as torch saves
        return _written(a, index, dim, _src_part(src, index.shape), add=True)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (index,) = ctx.saved_tensors
        return g, None, _src_grad(ctx, g, index)


class Scatter(Op):
    node_name = "ScatterBackward0"
    _profile_name = "aten::scatter"

    @staticmethod
    def forward(ctx: Any, a: Tensor, index: Tensor, src: Tensor, *, dim: int) -> Tensor:
        ctx.dim, ctx.src_shape, ctx.node_name = dim, tuple(src.shape), Scatter.node_name
        ctx.save_for_backward(index)
        return _written(a, index, dim, _src_part(src, index.shape), add=False)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (index,) = ctx.saved_tensors
        grad_self = ScatterValue.apply(g, index, dim=ctx.dim, value=0)
        return grad_self, None, _src_grad(ctx, g, index)


class ScatterValue(Op):
    node_name = "ScatterBackward1"
    _profile_name = "aten::scatter"

    @staticmethod
    def forward(ctx: Any, a: Tensor, index: Tensor, *, dim: int, value: Any) -> Tensor:
        ctx.dim = dim
        ctx.save_for_backward(index)
        return _written(a, index, dim, _args.scalar_for(value, a.dtype) if type(value) is int
                        else value, add=False)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (index,) = ctx.saved_tensors
        return ScatterValue.apply(g, index, dim=ctx.dim, value=0), None


def _check_index(fn: str, input: Tensor, dim: Any, index: Any, src: Any = None) -> int:
    """``dim`` wrapped, after torch's checks in torch's order: the dim, an integer index, a
    tensor ``src`` of ``input``'s dtype, an index of ``input``'s rank."""
    _args.tensor_args(fn, (input, "input", 1), (index, "index", 3))  # types, then values
    d = _args.dim(fn, dim, input.dim())
    if index.dtype.name not in ("int64", "int32"):
        raise RuntimeError(f"{fn}(): Expected dtype int32/int64 for index")
    if isinstance(src, Tensor) and src.dtype is not input.dtype:
        raise RuntimeError(f"{fn}(): Expected self.dtype to be equal to src.dtype")
    if index.numel() and max(index.dim(), 1) != max(input.dim(), 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as "
                           f"{'input' if fn == 'gather' else 'self'} tensor")
    return d


def _check_sizes(input: Tensor, d: int, index: Tensor, src: Tensor | None) -> None:
    """The index fits ``input`` (and ``src``) apart from ``d``, and its entries are in range
    (an empty index fits anything)."""
    if not index.numel():
        return
    shape, ishape = list(input.shape), list(index.shape)
    for k, n in enumerate(ishape):
        if src is not None and n > (src.shape[_args.wrap_dim(k, src.dim())] if src.dim()
                                    else 1):
            raise RuntimeError(f"Expected index {ishape} to be no larger than self {shape} "
                               f"apart from dimension {d} and to be no larger size than src "
                               f"{list(src.shape)}")
        if k != d and n > shape[k]:
            what = "" if src is None else " to be no larger size than src"
            raise RuntimeError(f"Size does not match at dimension {k} expected index {ishape} "
                               f"to be no larger than self {shape} apart from dimension {d}"
                               + what)
    size = shape[d] if shape else 1
    xp, data = index._xp, index._data
    bad = (data < 0) | (data >= size)
    if bool(xp.any(bad)):
        first = int(xp.reshape(data, (-1,))[xp.reshape(bad, (-1,))][0])
        raise RuntimeError(f"index {first} is out of bounds for dimension {d} with size "
                           f"{size}")


def gather(input: Tensor, dim: int, index: Tensor, *, sparse_grad: bool = False) -> Tensor:
    """``out[i][j] = input[i][index[i][j]]`` for ``dim=1`` (likewise for any dim).

    >>> minitorch.gather(minitorch.tensor([10, 20, 30]), 0, minitorch.tensor([2, 0]))
    tensor([30, 10])
    """
    d = _check_index("gather", input, dim, index)
    _check_sizes(input, d, index, None)
    return Gather.apply(input, index, dim=d)


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
    elif _args.as_int(dim) is None or not _args.is_tensor(index) or not (
            _args.is_tensor(src) or _args.is_real(src) or isinstance(src, complex)) or (
            "value" in keywords and not _is_number(keywords["value"])) or (
            keywords.get("reduce") is not None and not isinstance(keywords["reduce"], str)):
        given = (dim, index) if "value" in keywords else (dim, index, src)
        shown = {k: v for k, v in keywords.items() if v is not None}
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
    return src


def _is_number(value: Any) -> bool:
    """What torch's parser takes for a Number: a real or complex number, or a 0-d tensor."""
    if _args.is_tensor(value):
        return value.dim() == 0
    return _args.is_real(value) or isinstance(value, complex)


def scatter(input: Tensor, dim: int, index: Tensor, src: Any = None, *,
            value: Any = None, reduce: str | None = None) -> Tensor:
    """A copy of ``input`` with ``src`` (a tensor or a number) written at ``index`` along
    ``dim``: ``out[i][index[i][j]] = src[i][j]`` for ``dim=1``.

    >>> minitorch.zeros(3).scatter(0, minitorch.tensor([2]), 5.)
    tensor([0., 0., 5.])
    """
    src = _scatter_source("scatter", dim, index, src, value, reduce)
    d = _check_index("scatter", input, dim, index, src)
    if isinstance(src, Tensor):
        _check_sizes(input, d, index, src)
        _refuse_reduce(reduce)
        return Scatter.apply(input, index, src, dim=d)
    if not index.numel():  # torch's kernel converts the value per element written: none
        src = 0
    src = _args.kernel_scalar(src, input.dtype)
    _check_sizes(input, d, index, None)
    _refuse_reduce(reduce)
    return ScatterValue.apply(input, index, dim=d, value=src)


def _refuse_reduce(reduce: str | None) -> None:
    """torch's check of ``reduce`` (after the index's), then minitorch's refusal of it."""
    if reduce is None:
        return
    if reduce not in ("add", "multiply"):
        raise RuntimeError("reduce argument must be either add or multiply.")
    raise NotImplementedError("minitorch's scatter has no reduce argument; use scatter_add "
                              "(or torch.scatter_reduce in torch)")


def scatter_add(input: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    """A copy of ``input`` with ``src`` added at ``index`` along ``dim`` (repeated indices
    add up).

    >>> minitorch.zeros(3).scatter_add(0, minitorch.tensor([2, 2]), minitorch.ones(2))
    tensor([0., 0., 2.])
    """
    _scatter_parsed("scatter_add", dim, index, src, add=True)
    d = _check_index("scatter", input, dim, index, src)  # torch names scatter in both
    _check_sizes(input, d, index, src)
    return ScatterAdd.apply(input, index, src, dim=d)


def scatter_(self: Tensor, dim: int, index: Tensor, src: Any = None, *, value: Any = None,
             reduce: str | None = None) -> Tensor:
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
    def forward(ctx: Any, a: Tensor, *, key: tuple) -> Tensor:
        ctx.shape, ctx.key = a.shape, key
        out = getitem(a._xp, _flat(a._data), key)
        return wrap(out if a.dim() else a._xp.reshape(out, ()))  # a scalar's is a scalar

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
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
    _args.tensor_args("index_select", (input, "input", 1), (index, "index", 3))
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
    return IndexSelect.apply(input, key=key)


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
