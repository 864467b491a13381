"""``tensor_split``: numpy's ``array_split`` (pieces whose sizes differ by at most one, or
cut at given indices), each piece a slice (``SliceBackward0``); and ``unsafe_split`` /
``unsafe_chunk``, ``split``/``chunk`` whose pieces torch does not track as views
(``UnsafeSplitBackward0``).

>>> import minitorch
>>> [p.tolist() for p in minitorch.arange(5).tensor_split(3)]
[[0, 1], [2, 3], [4]]
"""

from __future__ import annotations

from typing import Any

from .. import _args, _call_form
from .._tensor import Tensor
from .shape import Slice
from .split import Split, SplitWithSizes, _equal_pieces, _split_dim, chunk_with

__all__ = ["UnsafeSplit", "UnsafeSplitWithSizes", "dsplit", "hsplit", "tensor_split",
           "unsafe_chunk", "unsafe_split", "vsplit"]

_SIGNATURES = ("tuple of ints indices, int dim = 0",
               "Tensor tensor_indices_or_sections, int dim = 0", "int sections, int dim = 0")


def _cuts(arg: Any, size: int) -> list[int]:
    """The indices where pieces start (after the first), from sections or indices."""
    if isinstance(arg, int):
        if arg <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {arg}")
        if arg > _args.INT64_MAX // 8:  # torch's vector of that many tensors
            raise RuntimeError("cannot create std::vector larger than max_size()")
        _args.check_pieces(arg)
        small, extra = divmod(size, arg)
        cuts, start = [], 0
        for i in range(arg - 1):
            start += small + (i < extra)
            cuts.append(start)
        return cuts
    return list(arg)


def _overload_argument(fn: str, input: Tensor, positional: Any, named: dict,
                       signatures: tuple) -> Any:
    """The sections or indices, given by position or by the name of torch's overload that
    takes them (``sections=``, ``indices=``, ``tensor_indices_or_sections=``; ``named`` holds
    those not given as OMITTED): exactly one, else none of ``signatures`` fits."""
    given = {k: v for k, v in named.items() if v is not _args.OMITTED}
    if (positional is _args.OMITTED) == (len(given) != 1):
        values = (input,) if positional is _args.OMITTED else (input, positional)
        raise _args.invalid_combination(fn, values, *signatures, keywords=given)
    return positional if positional is not _args.OMITTED else next(iter(given.values()))


def _dims(input: Tensor) -> None:
    if input.dim() == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a "
                           "tensor with 0 dims")


def _indices_or_sections(input: Tensor, arg: Any, dim: Any) -> Any:
    """``arg`` as an int (sections) or a tuple of ints (indices), as torch's parser reads it
    (a tensor: with the checks of torch's Tensor overload, in its order)."""
    if isinstance(arg, Tensor):
        _dims(input)
        if arg.device.type != "cpu":
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to be on cpu, "
                               f"but it's on {arg.device}")
        if arg.dtype.name != "int64":
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to have dtype "
                               f"of long, but got {_args.legacy(arg.dtype)}")
        if arg.dim() > 1:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to be a "
                               "zero-dimensional or one-dimensional tensor, but got a tensor "
                               f"with {arg.dim()} dims")
        return int(arg.item()) if arg.dim() == 0 else tuple(int(i) for i in arg.tolist())
    if _args.as_int(arg) is not None:  # a numpy int or 0-d array: torch's ``int sections``
        arg = _args.as_int(arg)
    if isinstance(arg, bool) or not isinstance(arg, (int, tuple, list)) or \
            _args.as_param_int(dim, "dim") is None:
        raise _args.invalid_combination("tensor_split", (arg,), *_SIGNATURES)
    _args.lone_int(arg)  # an int past int64: the parser's overflow
    return arg if isinstance(arg, int) else _args.int_list("tensor_split", arg, "indices", 1)


@_call_form.overloads(*(f"Tensor input, {s}" for s in _SIGNATURES))
def tensor_split(input: Tensor, indices_or_sections: Any = _args.OMITTED, /, dim: int = 0, *,
                 sections: Any = _args.OMITTED, indices: Any = _args.OMITTED,
                 tensor_indices_or_sections: Any = _args.OMITTED) -> tuple:
    """``sections`` pieces of near-equal size along ``dim`` (the first ones one longer), or
    the pieces between the given ``indices`` (by position, or by the name of torch's overload).

    >>> [p.tolist() for p in minitorch.arange(5).tensor_split([1, 4])]
    [[0], [1, 2, 3], [4]]
    """
    _args.tensor_args("tensor_split", (input, "input", 1))
    indices_or_sections = _overload_argument(
        "tensor_split", input, indices_or_sections,
        {"sections": sections, "indices": indices,
         "tensor_indices_or_sections": tensor_indices_or_sections},
        tuple(f"Tensor input, {s}" for s in _SIGNATURES))
    arg = _indices_or_sections(input, indices_or_sections, dim)
    _dims(input)
    d = _args.dim("tensor_split", dim, input.dim())
    cuts = _cuts(arg, input.shape[d])
    bounds = zip([0, *cuts], [*cuts, None])
    return tuple(Slice.apply(input, key=(slice(None),) * d + (slice(start, end),))
                 for start, end in bounds)


class UnsafeSplitWithSizes(SplitWithSizes):
    node_name = "UnsafeSplitWithSizesBackward0"
    _profile_name = "aten::unsafe_split_with_sizes"


class UnsafeSplit(Split):
    node_name = "UnsafeSplitBackward0"
    _profile_name = "aten::unsafe_split"
    with_sizes = UnsafeSplitWithSizes  # (unsafe_chunk's of an empty dim)


def unsafe_split(input: Tensor, split_size: int, dim: int = 0) -> tuple:
    """``split`` into pieces of ``split_size``, not tracked as views.

    >>> [p.tolist() for p in minitorch.arange(5).unsafe_split(2)]
    [[0, 1], [2, 3], [4]]
    """
    _args.tensor_args("unsafe_split", (input, "input", 1))
    size, _ = _args.integers("unsafe_split", (split_size, "split_size", 2), (dim, "dim", 3))
    return _equal_pieces(input, size, _split_dim("split", input, dim, size), UnsafeSplit,
                         _args.as_int(dim))


def unsafe_chunk(input: Tensor, chunks: int, dim: int = 0) -> tuple:
    """``chunk``, its pieces not tracked as views.

    >>> [p.tolist() for p in minitorch.arange(5).unsafe_chunk(2)]
    [[0, 1, 2], [3, 4]]
    """
    return chunk_with("unsafe_chunk", input, chunks, dim, UnsafeSplit)


# the fewest dims each takes, the dim it cuts, and how its docstring says it
_DIRECTIONS = {"hsplit": (1, 1, "along its columns (dim 1; dim 0 of a vector)"),
               "vsplit": (2, 0, "along its rows (dim 0)"),
               "dsplit": (3, 2, "along its depth (dim 2)")}


def _directional(fn: str) -> Any:
    """torch's ``hsplit``/``vsplit``/``dsplit``: ``tensor_split`` along one dim, an int
    ``sections`` dividing that dim exactly."""
    least, dim, where = _DIRECTIONS[fn]

    signatures = ("Tensor input, int sections", "Tensor input, tuple of ints indices")

    @_call_form.int_varargs
    @_call_form.overloads(*signatures)
    def split_along(input: Tensor, indices_or_sections: Any = _args.OMITTED, /, *,
                    sections: Any = _args.OMITTED, indices: Any = _args.OMITTED) -> tuple:
        _args.tensor_args(fn, (input, "input", 1))
        arg = _overload_argument(fn, input, indices_or_sections,
                                 {"sections": sections, "indices": indices}, signatures)
        if not isinstance(arg, (tuple, list)) and _args.as_param_int(arg, "sections",
                                                                      fn) is None:
            raise _args.invalid_combination(fn, (input, arg), "Tensor input, int sections",
                                            "Tensor input, tuple of ints indices")
        if input.dim() < least:
            raise RuntimeError(f"torch.{fn} requires a tensor with at least {least} dimension, "
                               f"but got a tensor with {input.dim()} dimensions!")
        d = min(dim, input.dim() - 1)  # a vector's hsplit cuts its only dim
        if isinstance(arg, (tuple, list)):
            return tensor_split(input, _args.sizes(fn, (arg,), "indices", False, 2,
                                                   symint=False), d)  # (torch's int[])
        sections = _args.integer(fn, arg, "sections", 2)
        if not sections or input.shape[d] % sections:
            raise RuntimeError(f"torch.{fn} attempted to split along dimension {d}, but the "
                               f"size of the dimension {input.shape[d]} is not divisible by the "
                               f"split_size {sections}!")
        return tensor_split(input, sections, d)

    split_along.__name__ = split_along.__qualname__ = fn
    split_along.__doc__ = (f"``input`` cut {where}: into ``sections`` equal pieces, or at "
                           "the given indices; each piece a view.\n\n"
                           f"    >>> [p.shape for p in minitorch.{fn}(minitorch.zeros(2, 2, 2), 2)]"
                           "\n    [torch.Size(%s), torch.Size(%s)]\n    ")
    piece = [[1, 2, 2], [2, 1, 2], [2, 2, 1]][dim]
    split_along.__doc__ %= (piece, piece)
    return split_along


hsplit, vsplit, dsplit = (_directional(fn) for fn in _DIRECTIONS)
