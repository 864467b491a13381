"""Shape ops: views (reshape, transpose, permute, squeeze, expand, indexing), cat and stack.

Views share their base's version counter, so an in-place change through either is seen by
the saved-tensor check.

>>> import minitorch
>>> x = minitorch.ones(2, 3, requires_grad=True)
>>> x.t().shape, x[0].grad_fn.name()
(torch.Size([3, 2]), 'SelectBackward0')
"""

from __future__ import annotations

from typing import Any

from .. import _args, _layout
from .._tensor import Tensor, mark_multi_output, sum_to, sum_to_as_torch, view_strides
from ..autograd import profiler, torch_events
from ..autograd.grad_mode import is_inference_mode_enabled
from ..backend import (
    array_dtype,
    c_order,
    contiguous_strides,
    copy_preserving_layout,
    element_strides,
    getitem,
    is_c_contiguous,
    namespace,
    placed,
    restrided,
    to_device,
)
from ._base import (
    INPUT_SIZES,
    Op,
    c_ints,
    check_indices,
    check_same_device,
    kept,
    save_indices,
    wrap,
)
from ._index_layout import torch_index_layout


class View(Op):
    node_name = "ViewBackward0"
    saved_values = INPUT_SIZES
    _profile_name = "aten::view"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, shape: tuple) -> Tensor:
        ctx.shape = a._data.shape  # the shape is resolved and checked (_methods._resolve)
        array = a._xp.reshape(a._data, shape)
        strides = element_strides(a._data)
        if strides is None:  # a library without strides
            return a._view(array)
        wanted = view_strides(a._data.shape, strides, shape)
        if wanted is None:
            # reshape where the strides allow no view: a copy, as torch's (its own memory
            # and version counter; an in-place op on it leaves ``a`` alone)
            return wrap(array)
        return a._view(_strided_as(array, wanted))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (g.reshape(ctx.shape),)

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> Any:
        return (namespace(g).reshape(g, ctx.shape),)


class Alias(Op):
    """``x[...]``: a new view of all of ``x`` (AliasBackward0)."""

    node_name = "AliasBackward0"
    _profile_name = "aten::alias"

    @staticmethod
    def forward(ctx: Any, a: Tensor) -> Tensor:
        return a._view(a._data)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (g,)


class FwPrimal(Alias):
    """Forward AD's primal of a dual tensor (``unpack_dual``): a view whose node torch builds
    in C++ as ``Identity``, with no Python class of its own (``CppFunction``)."""

    node_name = "CppFunction"
    _profile_name = "aten::_fw_primal"


FwPrimal._backward_cls._torch_name = "torch::autograd::Identity"


class ReshapeAlias(View):
    """The view ``reshape`` makes of memory that is not contiguous (a contiguous one it
    views): torch's ``aten::_reshape_alias``, node ``ReshapeAliasBackward0``."""

    node_name = "ReshapeAliasBackward0"

    _profile_name = "aten::_reshape_alias"


VIEW_REFUSAL = ("view size is not compatible with input tensor's size and stride (at least "
                "one dimension spans across two contiguous subspaces). Use .reshape(...) "
                "instead.")


def viewable(a: Tensor, target: tuple) -> bool:
    """Whether ``a``'s strides let it be seen in the shape ``target`` without a copy.

    >>> viewable(minitorch.zeros(2, 3).t(), (6,))
    False
    """
    strides = None if is_c_contiguous(a._data) else element_strides(a._data)  # (a dense
    # array views as any shape: no stride walk on every view, reshape and _unsafe_view)
    return strides is None or view_strides(a._data.shape, strides, target) is not None


class UnsafeView(View):
    """reshape's view of its own fresh copy: torch's ``_unsafe_view``, which shares the copy's
    memory but is no view (``_base`` is None; nothing else holds the copy); refused, as
    ``view``, where the strides allow none (kron's product of a transposed operand)."""

    node_name = "UnsafeViewBackward0"
    _profile_name = "aten::_unsafe_view"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, shape: tuple) -> Tensor:
        if not viewable(a, shape):
            raise RuntimeError(VIEW_REFUSAL)
        ctx.shape = a._data.shape
        return wrap(a._xp.reshape(a._data, shape))


class Permute(Op):
    """The dims reordered; ``given``: the dims as the call wrote them (negative ones too),
    which torch's node shows (``_saved_dims``)."""

    node_name = "PermuteBackward0"
    saved_values = {"dims": kept("given", c_ints)}
    _profile_name = "aten::permute"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, dims: tuple, given: tuple | None = None) -> Tensor:
        if ctx.needs_input_grad[0]:
            ctx.inverse = tuple(sorted(range(len(dims)), key=dims.__getitem__))
            ctx.given = dims if given is None else given
        return a._view(a._xp.permute_dims(a._data, dims))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (g.permute(*ctx.inverse),)

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> Any:
        return (namespace(g).permute_dims(g, ctx.inverse),)


class Transpose(Permute):
    """Two dims swapped; ``given``: the two as written (torch's ``_saved_dim0``, ``_dim1``)."""

    node_name = "TransposeBackward0"
    saved_values = {"dim0": kept("given", lambda dims: c_ints(dims[0])),
                    "dim1": kept("given", lambda dims: c_ints(dims[1]))}
    _profile_name = "aten::transpose"

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (g.transpose(*ctx.given),)  # torch's formula: aten::transpose of the dims as
        # written (its node, called on a gradient of fewer dims, wraps them anew)


class T(Permute):
    node_name = "TBackward0"
    saved_values: dict = {}  # torch's t() saves nothing
    _profile_name = "aten::t"

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (g.t(),)  # torch's formula: the profiler lists aten::t, not aten::permute


class Unsqueeze(Op):
    node_name = "UnsqueezeBackward0"
    saved_values = {"dim": kept("given", c_ints)}  # the dim as written, as torch's node
    _profile_name = "aten::unsqueeze"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, dim: int, given: int | None = None) -> Tensor:
        ctx.dim, ctx.given = dim, dim if given is None else given
        array = a._xp.expand_dims(a._data, axis=dim)
        # torch's strides: the new dim's, and the size-one dims' that numpy's reshape resets
        strides = a.stride()
        step = strides[dim] * a.shape[dim] if dim < a.dim() else 1
        wanted = (*strides[:dim], step, *strides[dim:])
        if element_strides(array) not in (None, wanted):
            array = restrided(array, wanted)
        return a._view(array)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (g.squeeze(ctx.dim),)

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> Any:
        return (namespace(g).squeeze(g, axis=ctx.dim),)


class Squeeze(Op):
    node_name = "SqueezeBackward0"
    saved_values = INPUT_SIZES
    _profile_name = "aten::squeeze"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, dims: tuple, given: Any = None) -> Tensor:
        ctx.shape, ctx.given = a._data.shape, dims if given is None else given
        return a._view(a._xp.squeeze(a._data, axis=dims) if dims else a._data)

    # the same as View's: back to the input's shape
    backward = staticmethod(View.backward)
    backward_arrays = staticmethod(View.backward_arrays)


class SqueezeDim(Squeeze):
    node_name = "SqueezeBackward1"
    saved_values = {"dim": kept("given", lambda dims: c_ints(dims[0])), **INPUT_SIZES}


class SqueezeDims(Squeeze):
    """``squeeze`` given a tuple or list of dims: torch's own overload and node."""

    node_name = "SqueezeBackward2"
    saved_values = {"dim": kept("given", c_ints), **INPUT_SIZES}


class SqueezeInplace(Squeeze):
    """The squeeze torch's matmul applies to a vector-matrix product's result."""

    node_name = "SqueezeBackward4"
    saved_values = SqueezeDim.saved_values
    _profile_name = "aten::squeeze_"


class Expand(Op):
    node_name = "ExpandBackward0"
    saved_values = INPUT_SIZES
    _profile_name = "aten::expand"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, shape: tuple) -> Tensor:
        ctx.shape = a._data.shape
        return a._view(_strided_as(a._xp.broadcast_to(a._data, shape), _expanded(a, shape)))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        if not ctx.shape:  # torch's at::sum_to of a 0-d shape: a sum, even of a 0-d g
            return (g.sum(),)
        if profiler._active is not None:  # torch's formula, at::sum_to: its sum and view
            return (sum_to_as_torch(g, ctx.shape),)
        return (sum_to(g, ctx.shape),)


def _expanded(a: Tensor, shape: tuple) -> tuple:
    """torch's strides of ``a`` expanded to ``shape`` (its ``inferExpandGeometry``), from the
    last dim: 0 where a dim is broadcast, ``a``'s own where it is kept, and a new dim of size
    one strides over the dims after it (numpy's broadcast zeroes every size-1 dim's).

    >>> _expanded(minitorch.ones(3, 1), (2, 1, 3, 4))
    (0, 3, 1, 0)
    """
    lead = len(shape) - a.dim()
    strides, out = a.stride(), [0] * len(shape)
    for i in reversed(range(len(shape))):
        if i >= lead:
            size, stride = a.shape[i - lead], strides[i - lead]
        else:
            size, stride = 1, shape[i + 1] * out[i + 1] if i + 1 < len(shape) else 0
        out[i] = stride if size == shape[i] else 0
    return tuple(out)


def _strided_as(array: Any, strides: tuple) -> Any:
    """``array`` with torch's ``strides`` where numpy chose others for the same elements."""
    given = element_strides(array)
    return array if given is None or given == strides else restrided(array, strides)


def _copied(a: Tensor, result: Tensor) -> Tensor:
    """``result``, a copy of ``a`` by torch's ``copy_`` into a new tensor: one write counted
    where ``a`` is an inference tensor read outside inference mode (its call skips autograd,
    so the copy_ inside it goes through the version bookkeeping a normal call's skips)."""
    if a._inference and not is_inference_mode_enabled():
        result._version_counter.value += 1
    return result


class Clone(Op):
    node_name = "CloneBackward0"
    auto_linear = True  # forward AD: the tangent is this op on the input's tangent
    _profile_name = "aten::clone"
    _profile_inner = staticmethod(torch_events.variant("aten::clone", "contiguous"))

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, contiguous: bool = False,
                memory_format: Any = None) -> Tensor:
        """A copy keeping the memory layout, or in row-major order when ``contiguous``, or
        in a channels-last ``memory_format``."""
        xp = a._xp
        if contiguous and hasattr(xp, "ascontiguousarray"):  # numpy and CuPy
            # not ascontiguousarray: it returns a contiguous input itself, and 0-d as 1-d
            return _copied(a, wrap(xp.array(a._data, copy=True, order="C")))
        return _copied(a, wrap(copy_preserving_layout(xp, a._data, strides=_layout.format_strides(
            memory_format, a._data.shape))))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (g,)


class ToCopy(Op):
    node_name = "ToCopyBackward0"
    _profile_name = "aten::_to_copy"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, dtype: Any, device: Any = None,
                memory_format: Any = None) -> Tensor:
        """Convert to ``dtype``, then move to ``device`` (None: stay), laid out as torch's
        ``preserve_format`` (None) or ``memory_format``."""
        ctx.dtype, ctx.device = a.dtype, a.device if device is not None else None
        xp = a._xp
        shape = a._data.shape
        strides = None if memory_format is None else \
            _layout.format_strides(memory_format, shape) or contiguous_strides(shape)
        out = copy_preserving_layout(xp, a._data, array_dtype(xp, dtype.name), strides)
        result = _copied(a, wrap(out if device is None else to_device(out, device)))
        if not dtype.is_floating_point:  # an integer or bool copy has no gradient, as torch's
            ctx.mark_non_differentiable(result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (g.to(ctx.device, ctx.dtype),)


class Cat(Op):
    node_name = "CatBackward0"
    saved_values = {"dim": kept("given", c_ints)}  # the dim as written, as torch's node
    _profile_name = "aten::cat"

    @staticmethod
    def forward(ctx: Any, *tensors: Tensor, dim: int, given: int | None = None) -> Tensor:
        _check_cat_sizes(tensors, dim)
        ctx.sizes = [None if _legacy_empty(t) else t.shape[dim] for t in tensors]
        ctx.dim, ctx.given = dim, dim if given is None else given
        xp = tensors[0]._xp
        kept = [t._data for t in tensors if not _legacy_empty(t)]
        # torch's CPU cat allocates its result contiguous whatever its inputs' layouts
        return wrap(c_order(xp.concat(kept, axis=dim)) if kept else
                    xp.asarray(tensors[0]._data, copy=True))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        grads, start = [], 0
        for size in ctx.sizes:
            if size is None:  # a skipped legacy empty tensor
                grads.append(wrap(g._xp.zeros((0,), dtype=g._data.dtype)))
                continue
            grads.append(g.narrow(ctx.dim, start, size))
            start += size
        return tuple(grads)


def _legacy_empty(t: Tensor) -> bool:
    """A 1-D empty tensor, which torch's cat skips next to tensors of any rank (legacy)."""
    return tuple(t.shape) == (0,)


def _check_cat_sizes(tensors: tuple, dim: int) -> None:
    numbered = [(i, t) for i, t in enumerate(tensors) if not _legacy_empty(t)]
    if not numbered:
        return
    first = numbered[0][1].shape
    for i, t in numbered[1:]:  # each tensor in turn: its rank, then its sizes, as torch
        if t.dim() != len(first):
            raise RuntimeError(f"Tensors must have same number of dimensions: got {len(first)} "
                               f"and {t.dim()}")
        for d, (a, b) in enumerate(zip(first, t.shape)):
            if d != dim and a != b:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {dim}. Expected size {a} "
                    f"but got size {b} for tensor number {i} in the list.")


class Stack(Op):
    node_name = "StackBackward0"
    saved_values = {"dim": kept("given", c_ints)}  # the dim as written, as torch's node
    _profile_name = "aten::stack"

    @staticmethod
    def forward(ctx: Any, *tensors: Tensor, dim: int, given: int | None = None) -> Tensor:
        ctx.dim, ctx.given = dim, dim if given is None else given
        xp = tensors[0]._xp
        return wrap(c_order(xp.stack([t._data for t in tensors], axis=dim)))  # as cat's

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return g.unbind(ctx.dim)


class Unbind(Op):
    node_name = "UnbindBackward0"
    saved_values = {"dim": kept("given", c_ints)}  # the dim as written, as torch's node
    _profile_name = "aten::unbind"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, dim: int, given: int | None = None) -> tuple:
        _args.check_pieces(a.shape[dim])
        ctx.dim, ctx.given = dim, dim if given is None else given
        index = [slice(None)] * a.dim()
        views = []
        for i in range(a.shape[dim]):
            index[dim] = i
            views.append(a._view(part(a, tuple(index))))
        return mark_multi_output(tuple(views))  # torch forbids in-place ops on these

    @staticmethod
    def backward(ctx: Any, *grads: Tensor) -> tuple:
        from .. import stack

        return (stack(grads, ctx.dim),)


class _BasicIndex(Op):
    """Indexing with ints and slices only: a view (SelectBackward0 / SliceBackward0). The
    last part of ``key`` is the one this node applies (the parts before it are whole
    slices); ``given`` is its dim and that part as the call wrote them, which torch's node
    shows (negative ones, a slice's bounds before they are clipped), where they differ."""

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, key: tuple, given: tuple | None = None) -> Tensor:
        ctx.shape, ctx.key = a.shape, key
        d = len(key) - 1
        ctx.given = (d, written(key[-1], a.shape[d])) if given is None else given
        return a._view(part(a, key))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (Embed.apply(g, shape=ctx.shape, key=ctx.key),)


def part(a: Tensor, key: tuple) -> Any:
    """``a``'s array indexed by ``key`` (ints in range and slices, one per leading dim) as a
    view, 0-d too; one of no elements with torch's strides (numpy keeps a slice's, torch
    scales it by the step) and placed where torch's lies in the storage: each dim's first
    index times its stride past ``a``'s first element.

    >>> x = minitorch.arange(6.).view(2, 3)
    >>> x[2:].storage_offset(), x.unbind()[1].storage_offset(), x[:, 3::2].stride()
    (6, 3, (3, 2))
    """
    array = a._data[(*key, ...)]  # the trailing ... keeps 0-d results views
    if array.size:
        return array
    strides, rest = a.stride(), a.stride()[len(key):]
    starts = (k.indices(n)[0] if isinstance(k, slice) else k % n for k, n in zip(key, a.shape))
    offset = sum(i * st for i, st in zip(starts, strides))
    kept = tuple((st * min(k.step or 1, _args.INT64_MAX) + 2 ** 63) % 2 ** 64 - 2 ** 63
                 for k, st in zip(key, strides) if isinstance(k, slice)) + rest  # int64's
    if min(kept, default=0) < 0:
        raise RuntimeError("as_strided: Negative strides are not supported at the moment, got "
                           f"strides: {list(kept)}")
    if element_strides(array) is not None and \
            max(map(abs, kept), default=0) * array.itemsize <= _args.INT64_MAX:
        array = _strided_as(array, kept)  # (past int64 bytes numpy holds none; a library
        # without strides keeps its own)
    return placed(array, a._data, offset)


def written(part: Any, size: int, end: int | None = None) -> Any:
    """An index as torch's select and slice save it: an int as it is, a slice with its
    bounds filled in (``end`` where it has no stop, else the dim's ``size``).

    >>> written(slice(None, None, 2), 5), written(slice(1, None), 5, end=2 ** 63 - 1)
    (slice(0, 5, 2), slice(1, 9223372036854775807, 1))
    """
    if not isinstance(part, slice):
        return part
    stop = (size if end is None else end) if part.stop is None else part.stop
    return slice(part.start or 0, stop, 1 if part.step is None else part.step)


_INDEXED_DIM = {"dim": kept("given", lambda given: c_ints(given[0])), **INPUT_SIZES}


class Select(_BasicIndex):
    node_name = "SelectBackward0"
    saved_values = {"index": kept("given", lambda given: c_ints(given[1])), **_INDEXED_DIM}
    _profile_name = "aten::select"


class Slice(_BasicIndex):
    node_name = "SliceBackward0"
    saved_values = {"start": kept("given", lambda given: c_ints(given[1].start)),
                    "end": kept("given", lambda given: c_ints(given[1].stop)),
                    "step": kept("given", lambda given: given[1].step), **_INDEXED_DIM}
    _profile_name = "aten::slice"

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (SliceEmbed.apply(g, shape=ctx.shape, key=ctx.key),)


class Embed(Op):
    """The gradient of basic indexing: zeros of the input's shape with ``grad`` at ``key``."""

    node_name = "EmbedBackward0"
    _profile_name = "aten::select_backward"

    @staticmethod
    def forward(ctx: Any, g: Tensor, *, shape: tuple, key: tuple) -> Tensor:
        ctx.key = key
        xp = g._xp
        out = xp.zeros(shape, dtype=g._data.dtype)
        out[(*key, ...)] = g._data
        return wrap(out)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (Slice.apply(g, key=ctx.key),)


class SliceEmbed(Embed):
    """``Embed`` of a slice's gradient: torch's ``aten::slice_backward``."""

    _profile_name = "aten::slice_backward"


class Index(Op):
    """Advanced indexing with integer tensors (IndexBackward0): a copy, not a view."""

    node_name = "IndexBackward0"
    saved_slots = ("key",)  # torch saves the indices
    _profile_name = "aten::index"
    laid_out = True  # in torch's index kernel's layout (a user sees its strides)

    @classmethod
    def forward(cls, ctx: Any, a: Tensor, *, key: tuple, indices: tuple = ()) -> Tensor:
        ctx.shape, ctx.key = a.shape, key  # indexing.check_key checked the key
        save_indices(ctx, *indices)
        out = getitem(a._xp, a._data, key)
        return wrap(torch_index_layout(out, a._data, key) if cls.laid_out else out)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        check_indices(ctx)
        return (IndexAdd.apply(g, shape=ctx.shape, key=ctx.key),)


class AsStridedView(Index):
    """A view's elements taken from its base after an in-place op on the view rewrote the
    base's history (torch regenerates the view as ``as_strided`` of the base)."""

    node_name = "AsStridedBackward0"
    saved_slots = ()  # torch keeps only sizes and strides
    laid_out = False  # (an op's input inside an in-place write, never seen)
    _profile_name = "aten::as_strided"


class IndexAdd(Op):
    """The gradient of advanced indexing: repeated indices add up."""

    node_name = "IndexPutBackward0"
    _profile_name = "aten::index_put_"

    @staticmethod
    def forward(ctx: Any, g: Tensor, *, shape: tuple, key: tuple) -> Tensor:
        from ..backend import index_add

        ctx.key = key
        xp = g._xp
        out = xp.zeros(shape, dtype=g._data.dtype)
        index_add(xp, out, key, g._data)
        return wrap(out)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (Index.apply(g, key=ctx.key),)


def cat(tensors: Any, dim: int = 0) -> Tensor:
    """Join tensors along an existing dim.

    >>> minitorch.cat([minitorch.ones(1), minitorch.zeros(2)])
    tensor([1., 0., 0.])
    """
    tensors = tensor_list("cat", tensors)
    d = _args.integer("cat", dim, "dim", 2)  # the parser's check, before the list's
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    for i, t in enumerate(tensors):
        if t.dim() == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be "
                               "concatenated")
    kept = [t for t in tensors if not _legacy_empty(t)]
    if not kept:  # nothing but legacy empty tensors: dim is not even wrapped
        return Cat.apply(*_promoted(tensors), dim=d)
    ndim = kept[0].dim()
    return Cat.apply(*_promoted(tensors), dim=_args.wrap_dim(d, ndim), given=d)


def stack(tensors: Any, dim: int = 0) -> Tensor:
    """Join same-shaped tensors along a new dim.

    >>> minitorch.stack([minitorch.ones(2), minitorch.zeros(2)]).shape
    torch.Size([2, 2])
    """
    tensors = tensor_list("stack", tensors)
    _args.integer("stack", dim, "dim", 2)  # the parser's check, before the list's
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    d = _args.dim("stack", dim, tensors[0].dim() + 1, position=2)
    shape = tensors[0].shape
    for i, t in enumerate(tensors):
        if t.shape != shape:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got {list(shape)} at entry 0 "
                f"and {list(t.shape)} at entry {i}"
            )
    return Stack.apply(*_promoted(tensors), dim=d, given=_args.as_int(dim))


def tensor_list(fn: str, tensors: Any, name: str = "tensors", position: int = 1) -> tuple:
    """The tensors of an argument that is a sequence of tensors (``cat``/``stack``'s first,
    ``index_put``'s ``indices``), refused in torch's words otherwise."""
    if isinstance(tensors, Tensor) or not isinstance(tensors, (tuple, list)):
        raise TypeError(f"{fn}(): argument '{name}' (position {position}) must be tuple of "
                        f"Tensors, not {_args.type_name(tensors)}")
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument {position - 1}, but "
                            f"got {_args.type_name(t)}")
    return tuple(tensors)


def _promoted(tensors: tuple) -> tuple:
    from .._dtype import result_type

    check_same_device(*tensors)
    dt = result_type(*tensors)
    return tuple(t if t.dtype is dt else t.to(dt) for t in tensors)
