"""Cutting a tensor into pieces along one dim, and tiling it: ``split``, ``chunk``,
``select``, ``repeat`` and ``repeat_interleave``.

Every piece of a split is a view and an output of one node (``SplitBackward0``, or
``SplitWithSizesBackward0`` for a list of sizes), whose backward joins the pieces' gradients
again with ``cat``.

>>> import minitorch
>>> x = minitorch.arange(5.).requires_grad_()
>>> a, b = x.split([2, 3])
>>> b
tensor([2., 3., 4.], grad_fn=<SplitWithSizesBackward0>)
>>> x.repeat(2).grad_fn.name()
'RepeatBackward0'
"""

from __future__ import annotations

from typing import Any

from .. import _args, _call_form
from .._tensor import Tensor, mark_multi_output
from ._base import Op, c_ints, kept, wrap
from .shape import Select, cat, part

__all__ = ["Repeat", "Split", "SplitWithSizes", "chunk", "repeat", "repeat_interleave",
           "repeat_interleave_method", "select", "select_key", "split", "split_method",
           "split_with_sizes"]


class SplitWithSizes(Op):
    """Pieces of the given ``sizes`` along ``dim``, each a view; ``given``: the dim as
    written (negative too), which torch's node shows."""

    node_name = "SplitWithSizesBackward0"
    saved_values = {"dim": kept("given", c_ints), "self_sym_sizes": kept("shape", tuple),
                    "split_sizes": kept("sizes")}
    _profile_name = "aten::split_with_sizes"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, sizes: tuple, dim: int, given: int | None = None,
                split_size: int | None = None) -> tuple:
        ctx.dim, ctx.given, ctx.shape, ctx.sizes = dim, dim if given is None else given, \
            a.shape, sizes
        ctx.split_size = split_size  # (Split's: the size asked for; the last piece may be
        # shorter, a lone piece as well)
        index: list = [slice(None)] * a.dim()
        pieces, start = [], 0
        for size in sizes:
            index[dim] = slice(start, start + size)
            pieces.append(a._view(part(a, tuple(index))))
            start += size
        return tuple(pieces)

    @staticmethod
    def backward(ctx: Any, *grads: Tensor) -> tuple:
        return (cat(grads, ctx.dim),)


class Split(SplitWithSizes):
    node_name = "SplitBackward0"
    saved_values = {"dim": kept("given", c_ints), "self_sym_sizes": kept("shape", tuple),
                    "split_size": kept("split_size")}
    _profile_name = "aten::split"


def _split_dim(fn: str, input: Tensor, dim: Any, size: int | None = None) -> int:
    """``dim`` wrapped, after torch's checks in its order: a tensor of at least one dim, a
    non-negative split ``size`` (if given), then the dim's range (its type is checked
    with the other arguments' before)."""
    if input.dim() == 0:
        raise RuntimeError(f"{fn} expects at least a 1-dimensional tensor")
    if size is not None and size < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got split_size={size}")
    return _args.dim(fn, dim, input.dim())


def _equal_pieces(input: Tensor, size: int, d: int, op: type[Op] | None = None,
                  given: int | None = None) -> tuple:
    """Tensors of ``size`` along ``d`` (``given``: as written), the last one shorter when
    ``size`` does not divide; views of one ``Split`` node unless another ``op``
    (``UnsafeSplit``) is given."""
    length = input.shape[d]
    if size == 0 and length:
        raise RuntimeError("split_size can only be 0 if dimension size is 0, but got dimension "
                           f"size of {length}")
    count = max(-(-length // size), 1) if size else 1
    _args.check_pieces(count)
    sizes = tuple(min(size, length - i * size) for i in range(count))
    options = {"sizes": sizes, "dim": d, "given": given, "split_size": size}
    if op is not None:
        return op.apply(input, **options)
    return mark_multi_output(Split.apply(input, **options))


def split(tensor: Tensor, split_size_or_sections: Any, dim: int = 0) -> tuple:
    """Pieces of ``tensor`` (torch's function's name for it) along ``dim``: of equal size (an
    int; the last may be shorter) or of the sizes listed.

    >>> [p.tolist() for p in minitorch.arange(5).split(2)]
    [[0, 1], [2, 3], [4]]
    """
    _args.tensor_args("split", (tensor, "input", 1))
    size = split_size_or_sections
    if isinstance(size, Tensor) and size.numel() == 1:  # torch's Tensor.split: int(size)
        size = int(size.item())
    if isinstance(size, bool):  # torch reads an int (a bool too), else a list of sizes
        raise _args.invalid_combination("split", (tensor, size, dim),
                                        "Tensor input, int split_size, int dim = 0",
                                        "Tensor input, tuple of ints split_size, int dim = 0")
    if isinstance(size, int):
        if _args.as_param_int(dim, "dim") is None:  # every type before any value
            raise _args.invalid_combination("split", (tensor, size, dim),
                                            "Tensor input, int split_size, int dim = 0",
                                            "Tensor input, tuple of ints split_size, int dim = 0")
        size = _args.integer("split", size, "split_size", 2)
        return _equal_pieces(tensor, size, _split_dim("split", tensor, dim, size),
                             given=_args.as_int(dim))
    return split_with_sizes(tensor, size, dim)


def split_method(self: Tensor, split_size: Any, dim: int = 0) -> tuple:
    """``x.split(split_size, dim)``: torch's method names the size ``split_size``.

    >>> [p.tolist() for p in minitorch.arange(3).split(split_size=2)]
    [[0, 1], [2]]
    """
    return split(self, split_size, dim)


split_method.__name__ = "split"  # the name torch's __torch_function__ handlers see


def split_with_sizes(input: Tensor, split_sizes: Any, dim: int = 0) -> tuple:
    """Pieces of ``input`` of the listed sizes along ``dim`` (they must add up to its size),
    each a view.

    >>> [p.tolist() for p in minitorch.split_with_sizes(minitorch.arange(5), [2, 3])]
    [[0, 1], [2, 3, 4]]
    """
    _args.tensor_args("split_with_sizes", (input, "input", 1))
    if not isinstance(split_sizes, (tuple, list)):
        raise TypeError("split_with_sizes(): argument 'split_sizes' (position 2) must be tuple "
                        f"of ints, not {_args.type_name(split_sizes)}")
    sizes = _args.int_list("split_with_sizes", split_sizes, "split_sizes", 2)
    _args.integer("split_with_sizes", dim, "dim", 3)  # the parser's (torch's split calls it)
    d = _split_dim("split", input, dim)  # torch names split in its 0-d refusal here too
    if any(s < 0 for s in sizes):
        raise RuntimeError("split_with_sizes expects split_sizes have only non-negative "
                           f"entries, but got split_sizes={list(sizes)}")
    if sum(sizes) != input.shape[d]:
        raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to "
                           f"{input.shape[d]} (input tensor's size at dimension {dim}), but got "
                           f"split_sizes={list(sizes)}")
    return mark_multi_output(SplitWithSizes.apply(input, sizes=sizes, dim=d,
                                                  given=_args.as_int(dim)))


def chunk(input: Tensor, chunks: int, dim: int = 0) -> tuple:
    """At most ``chunks`` pieces of equal size along ``dim`` (a split of size
    ``ceil(size / chunks)``).

    >>> [p.tolist() for p in minitorch.arange(5).chunk(3)]
    [[0, 1], [2, 3], [4]]
    """
    return chunk_with("chunk", input, chunks, dim)


def chunk_with(fn: str, input: Tensor, chunks: int, dim: int, op: type[Op] | None = None
               ) -> tuple:
    """``chunk`` (or ``unsafe_chunk``, with its ``op``) after torch's checks."""
    _args.tensor_args(fn, (input, "input", 1))
    chunks, given = _args.integers(fn, (chunks, "chunks", 2), (dim, "dim", 3))
    if input.dim() == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    d = _split_dim("chunk", input, dim)
    if input.shape[d] == 0 and chunks > _VECTOR_MAX:  # (torch's vector of pieces)
        raise RuntimeError("cannot create std::vector larger than max_size()")
    if input.shape[d] == 0 and op is not None:  # as torch: ``chunks`` empty pieces (of
        return op.with_sizes.apply(input, sizes=(0,) * chunks, dim=d, given=given)  # (of
        # split_with_sizes)
    if input.shape[d] == 0:
        return mark_multi_output(SplitWithSizes.apply(input, sizes=(0,) * chunks, dim=d,
                                                      given=given))
    total = input.shape[d] + chunks - 1  # torch's ceil division, in int64: it may wrap
    if total > _args.INT64_MAX:
        total -= 2 ** 64
    size = -(-total // chunks) if total < 0 else total // chunks  # (C's truncation)
    _split_dim("chunk", input, d, size)
    return _equal_pieces(input, size, d, op, given)


_VECTOR_MAX = _args.INT64_MAX // 8  # the most pieces a C++ vector of tensors holds


def select(input: Tensor, dim: int, index: int) -> Tensor:
    """The slice ``index`` of ``dim``, without that dim: ``x.select(0, i)`` is ``x[i]``.

    >>> minitorch.arange(6).reshape(2, 3).select(1, -1)
    tensor([2, 5])
    """
    _args.tensor_args("select", (input, "input", 1))
    dim, index = _args.integers("select", (dim, "dim", 2), (index, "index", 3))
    return Select.apply(input, key=select_key(input, dim, index), given=(dim, index))


def select_key(input: Tensor, dim: int, index: int) -> tuple:
    """The key of ``input.select(dim, index)`` (two ints), after torch's checks."""
    if input.dim() == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = _args.wrap_dim(dim, input.dim())
    size = input.shape[d]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{list(input.shape)} at dimension {d}")
    return (slice(None),) * d + (index % size,)


class Repeat(Op):
    """``input`` tiled ``repeats[i]`` times along dim ``i`` (leading repeats add dims)."""

    node_name = "RepeatBackward0"
    saved_values = {"repeats": kept("repeats"),
                    "self_sym_sizes": lambda node: tuple(node.shape[node.added:])}
    _profile_name = "aten::repeat"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, repeats: tuple) -> Tensor:
        shape = (1,) * (len(repeats) - a.dim()) + tuple(a.shape)
        ctx.shape, ctx.repeats, ctx.added = shape, repeats, len(repeats) - a.dim()
        xp = a._xp
        return wrap(xp.tile(xp.reshape(a._data, shape), repeats))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        # each dim of g is (repeat, size): sum over the repeats
        split = [n for pair in zip(ctx.repeats, ctx.shape) for n in pair]
        summed = g.reshape(split).sum(tuple(range(0, len(split), 2)))
        return (summed.reshape(ctx.shape[ctx.added:]),)


@_args.sizes_by_keyword("repeats")
def repeat(self: Tensor, *repeats: Any) -> Tensor:
    """``self`` tiled: ``repeats[i]`` copies along dim ``i``; extra leading repeats add dims.

    >>> minitorch.tensor([1, 2]).repeat(2, 2)
    tensor([[1, 2, 1, 2],
            [1, 2, 1, 2]])
    """
    counts = _args.sizes("repeat", repeats, "repeats", check_negative=False)
    if len(counts) < self.dim():
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    shape = (1,) * (len(counts) - self.dim()) + tuple(self.shape)
    target = [_args.int64_wrapped(c * s) for c, s in zip(counts, shape)]  # torch's int64
    for c in target:
        if c < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {c}: {target}")
    _args.check_alloc(tuple(target), self.dtype.itemsize)
    return Repeat.apply(self, repeats=counts)


_METHOD_FORMS = ("Tensor repeats, int dim = None, *, int output_size = None",
                 "int repeats, int dim = None, *, int output_size = None")
_FUNCTION_FORMS = ("Tensor input, Tensor repeats, int dim = None, *, int output_size = None",
                   "Tensor repeats, *, int output_size = None",
                   "Tensor input, int repeats, int dim = None, *, int output_size = None")


@_call_form.overloads(*_FUNCTION_FORMS)
def repeat_interleave(input: Tensor, repeats: Any = _args.OMITTED, dim: int | None = None, *,
                      output_size: int | None = None) -> Tensor:
    """Each element (each slice along ``dim``) repeated ``repeats`` times in place: an int, or
    a tensor of counts. Without ``dim`` the input is flattened first; with a tensor alone,
    the indices ``0, 1, ...`` each repeated by its count.

    >>> minitorch.repeat_interleave(minitorch.tensor([1, 2]), 2)
    tensor([1, 1, 2, 2])
    >>> minitorch.repeat_interleave(minitorch.tensor([2, 0, 1]))
    tensor([0, 0, 2])
    """
    if repeats is _args.OMITTED:
        _args.tensor_args("repeat_interleave", (input, "repeats", 1))
        return _repeated_indices(input, output_size)
    return _interleave(input, repeats, dim, output_size, _FUNCTION_FORMS, (input,))


@_call_form.overloads(*_FUNCTION_FORMS)
def repeat_interleave_method(self: Tensor, repeats: Any, dim: int | None = None, *,
                             output_size: int | None = None) -> Tensor:
    """``minitorch.repeat_interleave(self, repeats, dim)``.

    >>> minitorch.tensor([[1, 2]]).repeat_interleave(2, dim=0)
    tensor([[1, 2],
            [1, 2]])
    """
    return _interleave(self, repeats, dim, output_size, _METHOD_FORMS, ())


def _interleave(input: Tensor, repeats: Any, dim: Any, output_size: Any, forms: tuple,
                first: tuple) -> Tensor:
    """torch's two decompositions: an int count expands a new dim after ``dim`` and folds it
    in (``ViewBackward0``), a tensor of counts selects indices (``IndexSelectBackward0``)."""
    counted = isinstance(repeats, Tensor) or _args.as_int(repeats) is not None
    ints = [None if v is None else _args.as_param_int(v, name)
            for v, name in ((dim, "dim"), (output_size, "output_size"))]
    if not counted or any(n is None and v is not None for n, v in zip(ints, (dim, output_size))):
        given = (repeats,) if dim is None else (repeats, dim)
        raise _args.invalid_combination("repeat_interleave", first + given, *forms)
    dim, output_size = ints  # (numpy ints and 0-d integral tensors as ints, as torch's parser)
    if not isinstance(repeats, Tensor):
        repeats = _args.lone_int(repeats, listed=False)  # (past int64: the parser's overflow)
    flat = input.flatten() if dim is None else input
    if isinstance(repeats, Tensor):
        return _interleave_counts(flat, repeats, 0 if dim is None else dim, output_size)
    d = _args.wrap_dim(0 if dim is None else dim, input.dim())
    if repeats < 0:
        raise RuntimeError("Repeats must be non-negative")
    wide = flat.unsqueeze(d + 1)
    shape = list(wide.shape)
    shape[d + 1] = repeats
    _check_output_size(output_size, repeats * shape[d])
    return wide.expand(shape).clone().flatten(d, d + 1)


def _interleave_counts(input: Tensor, repeats: Tensor, dim: int, output_size: Any) -> Tensor:
    """``input``'s slices along ``dim`` repeated by the counts ``repeats`` (or one count)."""
    if input.dim() == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    if repeats.dim() > 1:
        raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
    size = input.shape[_args.wrap_dim(dim, input.dim())]
    if repeats.numel() == 1:
        repeats = repeats.reshape(1).expand(size)
    elif repeats.shape[0] != size:
        raise RuntimeError("repeats must have the same size as input along dim, but got "
                           f"repeats.size(0) = {repeats.shape[0]} and input.size({dim}) = "
                           f"{size}")
    return input.index_select(dim, _repeated_indices(repeats, output_size))


def _repeated_indices(repeats: Tensor, output_size: Any) -> Tensor:
    """``0, 1, ...`` each repeated by its count in ``repeats`` (a vector of ints)."""
    if repeats.dtype.name not in ("int64", "int32"):
        raise _args.not_implemented("repeat_interleave_cpu", repeats.dtype)
    if repeats.dim() != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    xp, counts = repeats._xp, repeats._data
    if bool(xp.any(counts < 0)):
        raise RuntimeError("repeats can not be negative")
    positions = xp.arange(counts.shape[0], dtype=xp.int64)
    indices = xp.repeat(positions, counts) if counts.shape[0] else positions
    _check_output_size(output_size, indices.shape[0])
    return wrap(indices)


def _check_output_size(output_size: int | None, size: int) -> None:
    if output_size is not None and output_size != size:
        raise RuntimeError(f"repeat_interleave: Invalid output_size, expected {size} but got "
                           f"{output_size}")
