"""Writing into a copy at positions an index tensor names: ``put`` and its reading twin
``take`` (positions in the flattened tensor, negative ones counted from the end),
``index_copy`` and ``index_fill`` (slices along one dim), ``index_put`` (advanced indexing,
``accumulate=True`` adds). Each has its in-place twin; each node is torch's
(``PutBackward0``, ``TakeBackward0``, ``IndexCopyBackward0``, ``IndexFillBackward0`` /
``IndexFillBackward1`` for a tensor value, ``IndexPutBackward0``) with torch's gradient: the
overwritten places get none, the written values get theirs.

>>> import minitorch
>>> x = minitorch.zeros(2, 3, requires_grad=True)
>>> x.index_fill(1, minitorch.tensor([0, 2]), 5.)
tensor([[5., 0., 5.],
        [5., 0., 5.]], grad_fn=<IndexFillBackward0>)
>>> minitorch.take(minitorch.tensor([[1, 2], [3, 4]]), minitorch.tensor([-1, 0]))
tensor([4, 1])
"""

from __future__ import annotations

from typing import Any

from .. import _args, _call_form
from .._tensor import (
    Tensor,
    check_inplace_allowed,
    check_internal_overlap,
    check_no_overlap,
    expandable_to,
    warn_expanded,
)
from ..backend import (
    c_order,
    contiguous_strides,
    copy_preserving_layout,
    element_strides,
    getitem,
    index_add,
    setitem,
    to_numpy,
)
from ._base import Op, check_indices, save_indices, sum_to, wrap
from .gather import IndexSelect
from .indexing import _indexed_shape, check_key, check_put_dtype, readable_key, result_shape
from .inplace import IndexPut
from .masked import check_fill_through_mask, fill_value
from .shape import Index, tensor_list
from .unique import unique

__all__ = ["METHODS", "IndexCopy", "IndexFill", "IndexFillTensor", "IndexPutAccumulate", "Put",
           "Take", "index_copy", "index_fill", "index_put", "index_put_", "put", "take"]


def _flat_positions(a: Tensor, index: Tensor) -> Any:
    """``index`` as positions in the flattened ``a`` (negative ones from the end)."""
    xp, data = index._xp, index._data
    return xp.where(data < 0, data + a.numel(), data)


class Take(Op):
    """The elements at ``index`` of the flattened input, in ``index``'s shape."""

    node_name = "TakeBackward0"
    index_operands = (1,)
    saved_names = ("self", "index")  # torch saves self too: a write into it is refused
    _profile_name = "aten::take"

    @staticmethod
    def forward(ctx: Any, a: Tensor, index: Tensor) -> Tensor:
        ctx.shape = a.shape
        ctx.save_for_backward(a, index)
        flat = a._xp.reshape(a._data, (-1,))
        return wrap(getitem(a._xp, flat, (_flat_positions(a, index),)))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        _, index = ctx.saved_tensors
        zeros = wrap(g._xp.zeros(tuple(ctx.shape), dtype=g._data.dtype))
        return Put.apply(zeros, index, g, accumulate=True), None


class Put(Op):
    """A copy with ``source``'s elements written (or added) at ``index`` of the flattened
    tensor."""

    node_name = "PutBackward0"
    index_operands = (1,)
    _profile_name = "aten::put"

    @staticmethod
    def forward(ctx: Any, a: Tensor, index: Tensor, source: Tensor, *,
                accumulate: bool) -> Tensor:
        ctx.accumulate, ctx.source_shape = accumulate, source.shape
        ctx.save_for_backward(index)
        xp = a._xp
        flat = xp.reshape(xp.asarray(a._data, copy=True), (-1,))
        values = xp.reshape(source._data, (-1,))
        positions = xp.reshape(_flat_positions(a, index), (-1,))
        (index_add if accumulate else setitem)(xp, flat, (positions,), values)
        out = xp.reshape(flat, a._data.shape)
        if element_strides(out) == element_strides(laid := copy_preserving_layout(xp, a._data)):
            return wrap(out)
        laid[...] = out  # torch's put: a clone, then written in place
        return wrap(laid)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (index,) = ctx.saved_tensors
        grad_self = g
        if not ctx.accumulate:
            zeros = wrap(g._xp.zeros(tuple(ctx.source_shape), dtype=g._data.dtype))
            grad_self = Put.apply(g, index, zeros, accumulate=False)
        grad_source = Take.apply(g, index).reshape(ctx.source_shape)
        return grad_self, None, grad_source if ctx.needs_input_grad[2] else None


def _check_long_index(fn: str, index: Tensor) -> None:
    if index.dtype.name != "int64":
        raise RuntimeError(f"{fn}(): Expected a long tensor for index, but got "
                           f"{_args.legacy(index.dtype)}")


def _check_flat_index(fn: str, input: Tensor, index: Tensor) -> None:
    """torch's checks of ``take``/``put``'s index: int64, and in range of the elements."""
    _check_long_index(fn, index)
    n, data = input.numel(), index._data
    if not index.numel():
        return
    if not n:
        raise IndexError("take(): tried to take from an empty tensor" if fn == "take" else
                         "put_(): Tried to put elements into an empty tensor")
    bad = (data < -n) | (data >= n)
    if bool(index._xp.any(bad)):
        first = int(to_numpy(data).reshape(-1)[to_numpy(bad).reshape(-1)][0])
        raise IndexError(f"out of range: tried to access index {first} on a tensor of {n} "
                         "elements.")


def take(input: Tensor, index: Tensor) -> Tensor:
    """The elements of the flattened ``input`` at ``index`` (negative ones from the end),
    in ``index``'s shape.

    >>> minitorch.take(minitorch.tensor([10, 20, 30]), minitorch.tensor([[2], [-3]]))
    tensor([[30],
            [10]])
    """
    _args.tensor_args("take", (input, "input", 1), (index, "index", 2))
    _check_flat_index("take", input, index)
    return Take.apply(input, index)


def _put_checked(fn: str, input: Tensor, index: Any, source: Any, accumulate: Any) -> bool:
    _args.tensor_args(fn, (input, "input", 1), (index, "index", 2), (source, "source", 3))
    accumulate = _args.flag(fn, accumulate, "accumulate", 4)
    if fn.endswith("_"):
        check_inplace_allowed(input)
    _check_long_index("put_", index)  # torch's order: the dtypes, then the counts
    if source.dtype is not input.dtype:
        raise RuntimeError("put_(): self and source expected to have the same dtype, but got "
                           f"self.dtype = {_args.legacy(input.dtype)} and source.dtype = "
                           f"{_args.legacy(source.dtype)}")
    if source.numel() != index.numel():
        raise IndexError("put_(): Expected source and index to have the same number of "
                         f"elements, but got source.numel() = {source.numel()}, index.numel() = "
                         f"{index.numel()}")
    _check_flat_index("put_", input, index)
    return accumulate


def put(input: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    """A copy of ``input`` with ``source``'s elements written at ``index`` of the flattened
    tensor (added there with ``accumulate``).

    >>> minitorch.put(minitorch.zeros(3), minitorch.tensor([2, 0]), minitorch.tensor([1., 2.]))
    tensor([2., 0., 1.])
    """
    accumulate = _put_checked("put", input, index, source, accumulate)
    return Put.apply(input, index, source, accumulate=accumulate)


def put_(input: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    """In-place ``put``.

    >>> minitorch.zeros(2).put_(minitorch.tensor([1]), minitorch.tensor([3.]))
    tensor([0., 3.])
    """
    accumulate = _put_checked("put_", input, index, source, accumulate)
    return input._inplace(Put.apply, index, source, accumulate=accumulate)


def _slices(input: Tensor, d: int, index: Tensor) -> tuple:
    """The key of the slices ``index`` (a vector or a scalar) of dim ``d``."""
    positions = input._xp.reshape(index._data, (-1,))
    return (positions,) if not input.dim() else (slice(None),) * d + (positions,)


class IndexCopy(Op):
    """A copy with ``source``'s slices written at the slices ``key``."""

    node_name = "IndexCopyBackward0"
    saved_slots = ("key",)  # torch saves the index
    _profile_name = "aten::index_copy"

    @staticmethod
    def forward(ctx: Any, a: Tensor, source: Tensor, *, key: tuple, index: Tensor) -> Tensor:
        ctx.key, ctx.source_shape = key, source.shape
        save_indices(ctx, index)
        xp = a._xp
        out = c_order(xp.asarray(a._data, copy=True))  # torch's out-of-place: contiguous
        target = xp.reshape(out, (1,)) if out.ndim == 0 else out
        setitem(xp, target, key, xp.reshape(source._data, getitem(xp, target, key).shape))
        return wrap(xp.reshape(target, out.shape))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        check_indices(ctx)
        grad_source = None
        if ctx.needs_input_grad[1]:
            flat = g.reshape(1) if g.dim() == 0 else g
            grad_source = IndexSelect.apply(flat, key=ctx.key).reshape(ctx.source_shape)
        return IndexFill.apply(g, key=ctx.key, value=0), grad_source


def _index_copy_checked(fn: str, input: Tensor, dim: Any, index: Any, source: Any) -> tuple:
    _args.tensor_args(fn, (input, "input", 1))
    d, _, _ = _args.parsed(fn, ("int", dim, "dim", 1), ("tensor", index, "index", 3),
                           ("tensor", source, "source", 4))  # then autograd's, then the range
    if fn.endswith("_"):
        check_inplace_allowed(input, source)
    d = _args.wrap_dim(d, input.dim())
    if fn.endswith("_"):
        check_internal_overlap(input)  # torch's first check after the dim's range
    name = "index_copy_()"
    if index.dim() >= 2:
        raise IndexError(f"{name}: Index should have dimension 1 or 0 (got {index.dim()})")
    if source.dim() == 0 and index.numel() != 1:
        raise IndexError(f"{name}: When source is scalar, index should have one element (got "
                         f"{index.numel()})")
    if source.dim() != input.dim() and source.dim() and input.dim():
        raise IndexError(f"{name}: When source and destination are not scalars, their "
                         f"dimensionality must match. Source dimensionality ({source.dim()}), "
                         f"destination dimensionality ({input.dim()})")
    if index.dtype.name != "int64":
        raise RuntimeError(f"{name}: Expected a long tensor for index, but got "
                           f"{_args.legacy(index.dtype)}")
    if source.dtype is not input.dtype:
        raise RuntimeError(f"{name}: self and source expected to have the same dtype, but got "
                           f"(self) {_args.legacy(input.dtype)} and (source) "
                           f"{_args.legacy(source.dtype)}")
    own, given = list(input.shape), list(source.shape)
    del own[d:d + 1], given[d:d + 1]
    if own != given:
        raise RuntimeError(f"{name}: Source/destination tensor must have same slice shapes. "
                           f"Destination slice shape: {' '.join(map(str, own))} at dimension "
                           f"{d} and source slice shape: {' '.join(map(str, given))} at "
                           "dimension 0.")
    if source.dim() and index.numel() != source.shape[d]:
        raise IndexError(f"{name}: Number of indices ({index.numel()}) should be equal to "
                         f"source.size(dim) ({source.shape[d]})")
    if fn.endswith("_"):
        check_no_overlap(input, source)
    size, data = (input.shape[d] if input.dim() else 1), index._data
    reads = check_restrided(input, d, index.numel(), "input" if fn.endswith("_") else "new")
    bad = (data < 0) | (data >= size)
    if index.numel() and (input.numel() or reads) and bool(index._xp.any(bad)):
        first = int(to_numpy(data).reshape(-1)[to_numpy(bad).reshape(-1)][0])
        raise IndexError(f"{name}: index {first} is out of bounds for dimension {d} with "
                         f"size {size}")
    return _slices(input, d, index if input.numel() else index.reshape(-1)[:0])


def index_copy(input: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
    """A copy of ``input`` whose slices ``index`` of ``dim`` are ``source``'s slices.

    >>> minitorch.index_copy(minitorch.zeros(3), 0, minitorch.tensor([2]),
    ...                      minitorch.tensor([7.]))
    tensor([0., 0., 7.])
    """
    key = _index_copy_checked("index_copy", input, dim, index, source)
    return IndexCopy.apply(input, source, key=key, index=index)


def index_copy_(input: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
    """In-place ``index_copy``.

    >>> minitorch.zeros(2).index_copy_(0, minitorch.tensor([1]), minitorch.tensor([4.]))
    tensor([0., 4.])
    """
    key = _index_copy_checked("index_copy_", input, dim, index, source)
    return input._inplace(IndexCopy.apply, source, key=key, index=index)


class IndexFill(Op):
    """A copy with the number ``value`` in the slices ``key``."""

    node_name = "IndexFillBackward0"
    saved_slots = ("key",)
    _profile_name = "aten::index_fill"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, key: tuple, value: Any, index: Tensor | None = None
                ) -> Tensor:
        ctx.key = key
        save_indices(ctx, index)
        xp = a._xp
        out = copy_preserving_layout(xp, a._data)  # torch's clone, then its fill
        target = xp.reshape(out, (1,)) if out.ndim == 0 else out
        setitem(xp, target, key, value._data if isinstance(value, Tensor) else value)
        return wrap(xp.reshape(target, out.shape))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        check_indices(ctx)
        return (IndexFill.apply(g, key=ctx.key, value=0),)


class IndexFillTensor(IndexFill):
    """``index_fill`` of a 0-d tensor value, which gets the gradient of the (distinct)
    places it fills."""

    node_name = "IndexFillBackward1"

    @staticmethod
    def forward(ctx: Any, a: Tensor, value: Tensor, *, key: tuple, index: Tensor) -> Tensor:
        ctx.value_dtype = value.dtype
        return IndexFill.forward(ctx, a, key=key, value=value, index=index)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        check_indices(ctx)
        grad_value = None
        if ctx.needs_input_grad[1]:
            *lead, positions = ctx.key
            once = unique(wrap(positions))._data  # torch's: each slice counted once
            flat = g.reshape(1) if g.dim() == 0 else g
            grad_value = IndexSelect.apply(flat, key=(*lead, once)).sum().to(ctx.value_dtype)
        return IndexFill.apply(g, key=ctx.key, value=0), grad_value


_FILL_SIGNATURES = ("Tensor input, int dim, Tensor index, Tensor value",
                    "Tensor input, int dim, Tensor index, Number value")


def _index_fill_checked(fn: str, input: Any, dim: Any, index: Any, value: Any) -> tuple:
    """The key of the filled slices and the value (a number in ``input``'s dtype, or a 0-d
    tensor), after torch's checks."""
    value = _args.numpy_scalar(value)
    if not (_args.is_tensor(input) and _args.as_int(dim) is not None and
            _args.is_tensor(index) and (_args.is_tensor(value) or _args.is_real(value)
                                        or isinstance(value, complex))):
        raise _args.invalid_combination(fn, (input, dim, index, value), *_FILL_SIGNATURES)
    _args.unpack_int(value)
    _args.integer(fn, dim, "dim", 1)  # the binding unpacks it into int64 before any check
    if fn.endswith("_"):
        check_inplace_allowed(input)
    if isinstance(value, Tensor) and value.dim():
        raise RuntimeError("index_fill_ only supports a 0-dimensional value tensor, but got "
                           f"tensor with {value.dim()} dimension(s).")
    if index.dtype.name != "int64":
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    if isinstance(value, complex):  # (minitorch has no complex tensors)
        raise RuntimeError("index_fill_(): Converting complex Scalar to non-complex type is "
                           "not supported")
    d = _args.dim(fn, dim, input.dim())
    if index.dim() > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    size, data = (input.shape[d] if input.dim() else 1), index._data
    reads = check_restrided(input, d, index.numel(), "input" if fn.endswith("_") else "clone")
    value = fill_value(value, input.dtype)  # the value's item before the indices' bounds
    bad = (data < -size) | (data >= size)  # (an empty input's kernel reads no index)
    if index.numel() and (input.numel() or reads) and bool(index._xp.any(bad)):
        first = int(to_numpy(data).reshape(-1)[to_numpy(bad).reshape(-1)][0])
        raise IndexError(f"index {first} is out of bounds for dimension {d} with size {size}")
    return _slices(input, d, index if input.numel() else index.reshape(-1)[:0]), value


def check_restrided(input: Tensor, dim: int, n: int, written: str) -> bool:
    """torch's refusal of index_fill, index_copy or index_reduce (not including self) into a
    dim of size 0 with ``n`` indices: its kernel restrides the ``written`` tensor to ``n``
    along ``dim`` with stride 0, past the end of its storage: ``"input"`` itself in place
    (its own storage, not the memory an expanded or sliced one still lies in), else a
    ``"clone"`` keeping its strides (index_fill) or a ``"new"`` row-major result, with no
    storage at all. Whether the restrided tensor has elements, so that the kernel then
    reads the indices.

    >>> check_restrided(minitorch.zeros(2, 1).expand(2, 0), 1, 3, "input")
    True
    """
    if not n or (input.shape[dim] if input.dim() else 1):
        return False
    sizes = list(input.shape)
    strides = list(contiguous_strides(tuple(sizes)) if written == "new" else input.stride())
    sizes[dim], strides[dim] = n, 0
    if 0 in sizes:
        return False
    offset, held = (input.storage_offset(), input.untyped_storage().nbytes()) \
        if written == "input" else (0, 0)
    size = input.element_size()
    needed = size * (offset + 1 + sum((s - 1) * st for s, st in zip(sizes, strides)))
    if needed > held:
        raise RuntimeError(f"setStorage: sizes {sizes}, strides {strides}, storage offset "
                           f"{offset}, and itemsize {size} requiring a storage size of "
                           f"{needed} are out of bounds for storage of size {held}")
    return True


def _filled(input: Tensor, key: tuple, value: Any, index: Tensor) -> tuple:
    """The op that fills ``value`` in at ``index`` (``key``), its positional operands and its
    keywords."""
    if isinstance(value, Tensor):
        return IndexFillTensor.apply, (value,), {"key": key, "index": index}
    return IndexFill.apply, (), {"key": key, "value": value, "index": index}


@_call_form.overloads("Tensor input, int dim, Tensor index, Tensor value",
                      "Tensor input, int dim, Tensor index, Number value")
def index_fill(input: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:
    """A copy of ``input`` with ``value`` (a number or a 0-d tensor) in the slices ``index``
    of ``dim``.

    >>> minitorch.index_fill(minitorch.zeros(2, 2), 0, minitorch.tensor([1]), 3.)
    tensor([[0., 0.],
            [3., 3.]])
    """
    key, value = _index_fill_checked("index_fill", input, dim, index, value)
    if isinstance(value, Tensor):  # its gradient would flow into an integer result
        _args.differentiable_dtype(value, input.dtype)
    op, operands, keywords = _filled(input, key, value, index)
    return op(input, *operands, **keywords)


@_call_form.overloads("int dim, Tensor index, Tensor value", "int dim, Tensor index, Number value")
def index_fill_(input: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:
    """In-place ``index_fill``.

    >>> minitorch.zeros(3).index_fill_(0, minitorch.tensor([0, 2]), -1.)
    tensor([-1.,  0., -1.])
    """
    key, value = _index_fill_checked("index_fill_", input, dim, index, value)
    warn_expanded(input, "index_fill_")
    op, operands, keywords = _filled(input, key, value, index)
    return input._inplace(op, *operands, fills=True, **keywords)  # torch's: onto an expand


class IndexPutAccumulate(Op):
    """``index_put(..., accumulate=True)``: ``values`` added at ``key`` (repeated indices add
    up); the gradient passes to the input whole."""

    node_name = "IndexPutBackward0"
    _profile_name = "aten::index_put_"

    @staticmethod
    def forward(ctx: Any, a: Tensor, values: Tensor, *, key: tuple, indices: tuple = ()
                ) -> Tensor:
        ctx.key, ctx.values_shape = key, values.shape
        save_indices(ctx, *indices)
        xp = a._xp
        out = xp.asarray(a._data, copy=True)
        key = sum((xp.nonzero(k) if getattr(k, "dtype", None) == xp.bool else (k,)
                   for k in key), ())  # a mask's positions: scatter-add takes integers
        index_add(xp, out, key, xp.broadcast_to(values._data, getitem(xp, out, key).shape))
        return wrap(out)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        check_indices(ctx)
        grad_values = None
        if ctx.needs_input_grad[1]:
            grad_values = sum_to(Index.apply(g, key=ctx.key), ctx.values_shape)
        return g, grad_values


def _index_put_checked(fn: str, input: Any, indices: Any, values: Any, accumulate: Any
                       ) -> tuple:
    """The array key of ``indices`` and the values as written, after torch's checks."""
    _args.tensor_args(fn, (input, "input", 1))
    indices = tensor_list(fn, indices, "indices", 2)
    _args.tensor_args(fn, (values, "values", 3))
    accumulate = _args.flag(fn, accumulate, "accumulate", 4)
    if fn.endswith("_"):
        check_inplace_allowed(input)
        for written_from in (*(i for i in indices if isinstance(i, Tensor)), values):
            check_no_overlap(input, written_from)  # an index tensor is read as it is written
    if len(indices) > input.dim():
        raise IndexError(f"too many indices for tensor of dimension {input.dim()} (got "
                         f"{len(indices)})")
    _check_index_tensors(input, indices, not accumulate and values.numel() == 1)
    if _fills_through_mask(indices, values, accumulate):
        check_fill_through_mask(input, indices[0], values)
        return readable_key(input, check_key(input, tuple(indices))), values, accumulate
    given = bool(indices)
    indices = [i for i in indices if not _is_mask(i) or i.dim()]  # a 0-d mask indexes nothing
    if not indices:
        _refuse_no_indices(input, values, accumulate or given)
    _broadcast_indices(indices)
    if sum(i.dim() if _is_mask(i) else 1 for i in indices) > input.dim():
        _args.wrap_dim(input.dim(), input.dim())  # the masks' dims counted with the others
    parts = check_key(input, tuple(indices), bounds=False, as_tensors=True)
    _check_put_value(input, parts, values)
    parts = check_key(input, tuple(indices), as_tensors=True)
    return readable_key(input, parts), values, accumulate


def _broadcast_indices(indices: list) -> None:
    """torch's index_put broadcasts its index tensors (a mask as one of its true elements'
    count per dim it indexes) before it counts the dims they index."""
    shapes = []
    for index in indices:
        if _is_mask(index):
            shapes += [(int(index.count_nonzero().item()),)] * index.dim()
        elif isinstance(index, Tensor):
            shapes.append(tuple(index.shape))
    if shapes:
        _indexed_shape(shapes)


def _is_mask(index: Any) -> bool:
    return isinstance(index, Tensor) and index.dtype.name in ("bool", "uint8")


def _fills_through_mask(indices: list, values: Tensor, accumulate: bool) -> bool:
    """Whether torch writes ``index_put``'s one-element value through its only index, a mask
    of any dims, with masked_fill_ (a cast of the value, where index_put wants its dtype)."""
    return not accumulate and values.numel() == 1 and len(indices) == 1 and \
        _is_mask(indices[0])


def _check_index_tensors(input: Tensor, indices: list, one_value: bool = False) -> None:
    """index_put's checks of its index tensors: every dtype (int8, int16 and floats are no
    index, a 0-d one neither), then each mask's shape against ``input``'s dims from where it
    stands. A ``one_value`` write (one element, not accumulated) first asks masked_fill_,
    which reads the shape of a leading mask before any dtype."""
    if one_value and indices and _is_mask(indices[0]):
        _check_mask_shapes(input, indices[:1])
    if any(isinstance(i, Tensor) and i.dtype.name not in _INDEX_DTYPES for i in indices):
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    _check_mask_shapes(input, indices)


def _check_mask_shapes(input: Tensor, indices: list) -> None:
    at = 0
    for index in indices:
        if isinstance(index, Tensor) and index.dtype.name in ("bool", "uint8"):
            for i, n in enumerate(index.shape):
                if at + i >= input.dim():  # torch reads the size of a dim input lacks
                    _args.wrap_dim(at + i, input.dim())
                if n != input.shape[at + i]:
                    raise IndexError(f"The shape of the mask {list(index.shape)} at index {i} "
                                     "does not match the shape of the indexed tensor "
                                     f"{list(input.shape)} at index {at + i}")
            at += index.dim()
        else:
            at += 1


_INDEX_DTYPES = ("int64", "int32", "uint8", "bool")


def _check_put_value(input: Tensor, parts: tuple, values: Tensor) -> None:
    """torch's index_put value checks: unlike ``x[key] = value`` every index is a tensor
    index (a 0-d one too) and the value's leading ones count, so its whole shape must
    broadcast to the indexing result; then its dtype must be ``input``'s."""
    target = tuple(result_shape(input, parts))
    if not expandable_to(tuple(values.shape), target):
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(values.shape)} cannot "
                           f"be broadcast to indexing result of shape {list(target)}")
    check_put_dtype(input, values)


def _refuse_no_indices(input: Tensor, values: Tensor, no_fill: bool) -> None:
    """torch's refusal of ``index_put`` with no index tensor, where its kernel fails on the
    missing index: a one-element value (not accumulated, no 0-d masks given: ``no_fill``
    false) goes to masked_fill_ first; any other
    meets the value checks against the whole of ``input`` (no leading ones dropped), and only
    an empty ``input`` gets through (nothing is written)."""
    if not no_fill and values.numel() == 1:
        if not input.dim():
            raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with "
                               "dtype nullptr (uninitialized)")
        raise RuntimeError("sym_strides() called on an undefined Tensor")
    if not expandable_to(tuple(values.shape), tuple(input.shape)):
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(values.shape)} cannot "
                           f"be broadcast to indexing result of shape {list(input.shape)}")
    check_put_dtype(input, values)
    if input.numel():
        raise RuntimeError(
            'ntensor >= 3 INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/native/'
            'cpu/IndexKernelUtils.h":8, please report a bug to PyTorch. ')


@_call_form.parser_types(indices="tuple of Tensors")
def index_put(input: Tensor, indices: Any, values: Tensor, accumulate: bool = False) -> Tensor:
    """A copy of ``input`` with ``values`` written at ``input[indices]`` (a tuple of index
    tensors), or added there with ``accumulate`` (repeated indices add up).

    >>> minitorch.index_put(minitorch.zeros(3), (minitorch.tensor([0, 0]),),
    ...                     minitorch.tensor(1.), accumulate=True)
    tensor([2., 0., 0.])
    """
    key, values, accumulate = _index_put_checked("index_put", input, indices, values,
                                                 accumulate)
    return (IndexPutAccumulate if accumulate else IndexPut).apply(
        input, values, key=key, indices=tuple(indices))


@_call_form.parser_types(indices="tuple of Tensors")
def index_put_(input: Tensor, indices: Any, values: Tensor, accumulate: bool = False
               ) -> Tensor:
    """In-place ``index_put``.

    >>> minitorch.zeros(3).index_put_((minitorch.tensor([1]),), minitorch.tensor(5.))
    tensor([0., 5., 0.])
    """
    key, values, accumulate = _index_put_checked("index_put_", input, indices, values,
                                                 accumulate)
    warn_expanded(input, "index_put_", "tensor[indices] = tensor")
    given = [i for i in indices if i is not None]
    if not accumulate and values.numel() == 1 and len(given) == 1 and \
            given[0].dtype.name in ("bool", "uint8"):  # torch fills through the mask
        warn_expanded(input, "masked_fill_")
    op = IndexPutAccumulate if accumulate else IndexPut
    return input._inplace(op.apply, values, key=key, fills="adds" if accumulate else True,
                          indices=tuple(indices))


METHODS = {"take": take, "put": put, "put_": put_, "index_copy": index_copy,
           "index_copy_": index_copy_, "index_fill": index_fill, "index_fill_": index_fill_,
           "index_put": index_put, "index_put_": index_put_}
