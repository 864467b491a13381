"""Reading with ``x[key]``: ints, slices, None and ``...`` give views; integer or bool
tensors (advanced indexing) give a copy.

>>> import minitorch
>>> x = minitorch.arange(6.).reshape(2, 3).requires_grad_()
>>> x[1, ::2]
tensor([3., 5.], grad_fn=<SliceBackward0>)
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

from .. import _args, _creation
from .._tensor import Tensor, broadcast_shapes, expanded_shape
from ..backend import namespace, to_numpy
from .shape import Alias, Index, Select, Slice, Unsqueeze, written


def array_key(key: Any, xp: Any) -> Any:
    """The key with tensors and lists replaced by arrays of namespace ``xp`` (for the array's
    own indexing)."""
    parts = _ranges_as_lists(key if isinstance(key, tuple) else (key,))
    out = tuple(_part(p, xp) for p in parts)
    return out if isinstance(key, tuple) else out[0]


def _ranges_as_lists(parts: tuple) -> tuple:
    """A ``range`` or a tuple in a key indexes as the list of its items, as in torch (d2l's
    ``y_hat[range(len(y_hat)), y]``)."""
    return tuple(list(p) if isinstance(p, (range, tuple)) else p for p in parts)


def _part(p: Any, xp: Any) -> Any:
    if isinstance(p, Tensor):
        _check_index_dtype(p)
        return p._data
    if isinstance(p, list) or _is_array(p):
        if isinstance(p, list) and p:  # torch reads a list in a key as torch.tensor does
            array = xp.asarray(_creation.as_array(p, None))
        else:
            array = xp.asarray(p) if len(p) else xp.zeros((0,), dtype=xp.int64)
        kind = _args.kind_of(array.dtype)
        if kind == "float":
            return _truncated(xp, array)
        if str(array.dtype) == "uint64" and int(xp.max(array)) > _args.INT64_MAX:
            raise ValueError("Overflow when unpacking long long")  # an int past int64
        if kind not in ("int", "bool"):
            raise IndexError("minitorch takes a list index of numbers or bools only, not "
                             f"{p!r}; torch's reading of other lists is deprecated")
        return array
    if isinstance(p, slice):
        _clipped(p, 0)
    elif not (p is None or p is Ellipsis or isinstance(p, bool) or _args.as_int(p) is not None
              or _is_array(p)):
        raise _args.index_error(p)
    return p


def _truncated(xp: Any, array: Any) -> Any:
    """A float list or array read as an index, as torch reads it: truncated to int64 (nan,
    infinities and values past int64 become int64's minimum, as C's cast gives)."""
    fits = xp.isfinite(array) & (array >= -(2.0 ** 63)) & (array < 2.0 ** 63)
    return xp.astype(xp.where(fits, array, -(2.0 ** 63)), xp.int64)


def is_index_array(p: Any) -> bool:
    """True for a key part that indexes by its values (a list, an array or a tensor with
    dims): torch's index kernel checks it, after the basic indexing of the other parts."""
    return isinstance(p, list) or (isinstance(p, Tensor) and p.dim() > 0) or _is_array(p)


def _is_advanced(p: Any) -> bool:
    return isinstance(p, (Tensor, list)) or _is_array(p)


def _is_array(p: Any) -> bool:
    """An array with dims (numpy's scalars and 0-d arrays index as numbers)."""
    return hasattr(p, "__array_namespace__") and getattr(p, "ndim", 0) > 0


def getitem(t: Tensor, key: Any) -> Tensor:
    """``t[key]`` with torch's node for each part of the key."""
    parts = check_key(t, key)
    out, dim, advanced, lone = t, 0, {}, isinstance(key, slice)
    for p in parts:
        if _is_bool_mask(p) and p.dim() == 0:  # a 0-d mask: a bool
            p = bool(p.item())
        if p is None or p is True or p is False:  # a new dim, which a bool indexes as a
            out = Unsqueeze.apply(out, dim=dim)  # mask (torch's IndexBackward0)
            if p is not None:
                advanced[dim] = [0] * int(p)
            dim += 1
        elif _is_bool_mask(p):  # a mask of the dims it indexes
            advanced[dim] = p
            dim += p.dim()
        elif isinstance(p, slice):
            if lone or not _whole(p, out.shape[dim]):
                out = Slice.apply(out, key=(slice(None),) * dim + (_clipped(p, out.shape[dim]),),
                                  given=(dim, _as_written(p)))
            dim += 1
        elif _is_advanced(p) and _index_array(p, t._xp) is not None:  # after the ints, as
            advanced[dim] = p  # torch does
            dim += 1
        else:  # an int, or a 0-d integer tensor
            out = Select.apply(out, key=(slice(None),) * dim + (_args.as_int(p),),
                               given=(dim, _args.as_int(p)))
    if advanced:
        return Index.apply(out, key=readable_key(out, _advanced_key(advanced)),
                           indices=index_tensors(key))
    return out if out is not t else Alias.apply(t)


def _advanced_key(advanced: dict) -> tuple:
    """The key of the index kernel: the index parts at the dims they index (a mask indexes
    as many as it has), whole slices between them."""
    key: list = []
    while len(key) <= max(advanced):
        p = advanced.get(len(key), slice(None))
        key += [p] + [None] * (p.dim() - 1 if _is_bool_mask(p) else 0)
    return tuple(k for k in key if k is not None)


def _as_written(s: slice) -> slice:
    """A key's slice as torch's SliceBackward0 shows it: its bounds as ints, unclipped (no
    start: 0, no stop: int64's largest, no step: 1)."""
    s = _int_bounds(s)
    bounds = (None if b is None else _args.as_int(b) for b in (s.start, s.stop, s.step))
    return written(slice(*bounds), 0, end=_args.INT64_MAX)


def _whole(s: slice, size: int) -> bool:
    """Whether torch's indexing skips the slice ``s`` of a dim of ``size`` in a tuple key (a
    lone slice it always applies): from 0 as written, by steps of 1, to the end or past it."""
    s = _int_bounds(s)
    start, stop, step = (None if b is None else _args.as_int(b) for b in (s.start, s.stop,
                                                                           s.step))
    return start in (None, 0) and step in (None, 1) and (stop is None or stop >= size)


def _is_bool_mask(p: Any) -> bool:
    return isinstance(p, Tensor) and p.dtype.name == "bool"


def check_key(t: Tensor, key: Any, bounds: bool = True, as_tensors: bool = False,
              writes: bool = False) -> tuple:
    """The parts of ``t[key]`` with the ellipsis expanded, after torch's checks: the count of
    dims the key indexes, then each part in turn (an index torch takes, an int in range, a
    mask of the indexed shape), then the index tensors' dtypes, the broadcast of their shapes,
    an index into an empty dim and (``bounds``) their values (see :func:`check_bounds`). A
    lone slice or int is applied at once (on a 0-d tensor too). ``as_tensors``: a 0-d integer
    tensor is an index tensor (index_put's reading), not an int. ``writes`` (``t[key] = v``,
    torch's index_put_ on the sliced view): masks' shapes and dtypes checked index by index."""
    if t.dim() == 0:
        _check_lone_part(key)
    _count_arrays_as_torch(t, key)
    parts = _ranges_as_lists(key_parts(key))
    parts, items = _expand_ellipsis(parts, t)
    parts = _sliced_as_torch(t, parts)
    indexed = _checked(t, parts, bounds=False, items=items, as_tensors=as_tensors,
                       writes=writes)
    for p in parts:  # the index kernel's checks, after the slicing: the dtypes, the masks
        if isinstance(p, Tensor) or _is_array(p):
            _part(p, t._xp)
    _check_masks(t, parts)
    _check_empty_dims(t, parts, indexed)
    return check_bounds(t, parts, as_tensors) if bounds else parts


def _sliced_as_torch(t: Tensor, parts: tuple) -> tuple:
    """``parts`` with each slice of a huge step as torch's int64 arithmetic cuts it: the step
    truncated to int64, the view's size ``(len + step - 1) / step`` and stride ``stride *
    step`` wrapped as int64 (a size wrapped to 0 is an empty slice), then its view's checks
    (see :func:`_check_view`), slice by slice, as the basic indexing goes."""
    if not any(isinstance(p, slice) and type(p.step) is int and p.step > _HUGE_STEP
               for p in parts):
        return parts
    sizes, strides, at, out = list(t.shape), list(t.stride()), 0, []
    for p in parts:
        if isinstance(p, slice) and at < len(sizes):
            s = _clipped(p, sizes[at])
            step = min(s.step, _args.INT64_MAX)
            span = _wrap64(max(s.stop - s.start, 0) + step - 1)
            sizes[at] = span // step if span >= 0 else -(-span // step)  # C's division
            strides[at] = _wrap64(strides[at] * step)
            _check_view(sizes, strides)
            p = slice(s.start, s.stop if sizes[at] > 0 else s.start, step)
        elif p is None or p is True or p is False or (isinstance(p, Tensor) and not p.dim() and
                                                      p.dtype.name in ("bool", "uint8")):
            new = _wrap64(sizes[at] * strides[at]) if at < len(sizes) else 1  # a 0-d mask too
            sizes.insert(at, 1)
            strides.insert(at, new)
        elif p is Ellipsis or (array := _index_array(p, t._xp)) is not None:
            at += array.ndim if p is not Ellipsis and _args.kind_of(array.dtype) == "bool" \
                else 1
            out.append(p)
            continue
        else:  # an int (one out of range: _checked refuses it, as torch, before what follows)
            i = _args.as_int(p)
            if at >= len(sizes) or i is None or not -sizes[at] <= i < sizes[at]:
                return tuple(out) + parts[len(out):]
            del sizes[at], strides[at]
            out.append(p)
            continue
        out.append(p)
        at += 1
    return tuple(out)


_HUGE_STEP = 2 ** 31  # below it no slice of a tensor that fits in memory overflows int64


def _wrap64(n: int) -> int:
    return _args.int_scalar(n % 2 ** 64)


def _check_view(sizes: list, strides: list) -> None:
    """torch's as_strided refusals of a view whose int64 strides or sizes wrapped: a stride
    its SymInt cannot hold, a negative stride, then a size of -1, which (no size 0) the
    storage size overflows with unless its stride is 0, else the element count (as unsigned
    int64s) may. torch keeps the view of size -1 that gets through: here it is empty."""
    for s in strides:
        _args.symint(s)
    if any(s < 0 for s in strides):
        raise RuntimeError("as_strided: Negative strides are not supported at the moment, "
                           f"got strides: {strides}")
    if not any(n < 0 for n in sizes):
        return
    if all(sizes) and any(n < 0 and s for n, s in zip(sizes, strides)):
        raise RuntimeError(f"Storage size calculation overflowed with sizes={sizes} and "
                           f"strides={strides}")
    _args.check_numel(sizes)





def _check_empty_dims(t: Tensor, parts: tuple, indexed: list) -> None:
    """torch's refusal of an index tensor into a dim of size 0, where no index fits: made once
    the index tensors broadcast, and only where their broadcast shape is not empty (then no
    index is read)."""
    if any(not size for _, size, _ in indexed) and math.prod(result_shape(t, parts, True)):
        raise IndexError("index is out of bounds for dimension with size 0")


def _check_lone_part(key: Any) -> None:
    """torch's refusals of a lone slice or int indexing a 0-d tensor, which it applies before
    any count of dims."""
    if isinstance(key, slice):
        _clipped(key, 0)
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    index = None if isinstance(key, (bool, Tensor)) or _is_ndarray(key) else _args.as_int(key)
    if index == 0:
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                         "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
    if index is not None:
        _check_int(0, 0, key)


def _is_ndarray(p: Any) -> bool:
    return type(p).__name__ == "ndarray"


def _count_arrays_as_torch(t: Tensor, key: Any) -> None:
    """torch's first check of a key that holds a numpy array: it counts the dims the key
    indexes before it reads any array, so an array counts one, whatever it holds (a mask made
    a tensor counts its dims only later): ``x[np.array(True), 0, 0]`` of a matrix indexes too
    many dims, as ``x[np.array(0)]`` of a 0-d tensor does."""
    parts = key if isinstance(key, tuple) else (key,)
    if not any(map(_is_ndarray, parts)):
        return
    count = sum(1 if _is_ndarray(p) else _consumed(p) for p in parts)
    if count > t.dim():
        raise IndexError(f"too many indices for tensor of dimension {t.dim()}")


def check_bounds(t: Tensor, parts: tuple, as_tensors: bool = False) -> tuple:
    """``parts`` (checked by :func:`check_key`) after torch's index kernel's check of the
    integer tensors' values, which it makes per element of the result: none when the result
    is empty (``ones(2, 0)[[5]]`` is an empty tensor)."""
    if math.prod(result_shape(t, parts)):
        _checked(t, parts, bounds=True, as_tensors=as_tensors)
    return parts


def readable_key(t: Tensor, parts: tuple) -> Any:
    """The array key of ``t[parts]`` (checked): where the result is empty, torch reads no
    index, so out-of-range ones become 0 (numpy would check them; the dim they index is not
    empty, :func:`check_key` saw to it)."""
    key = array_key(parts, t._xp)
    if math.prod(result_shape(t, parts)):
        return key
    return tuple(t._xp.zeros_like(k) if hasattr(k, "ndim") and _args.kind_of(k.dtype) ==
                 "int" else k for k in key)  # a 0-d index tensor too


def result_shape(t: Tensor, parts: tuple, joined_only: bool = False) -> tuple:
    """The shape of ``t[parts]`` as torch's indexing makes it, without reading an integer
    tensor's values: the basic parts first (an int or a 0-d integer tensor selects), then
    the index tensors' broadcast shape, in place of the dims they index where those are
    adjacent, else in front (``joined_only``: that broadcast shape alone, a mask giving one
    index tensor per dim it indexes)."""
    shape, out, where, indexes, dim = t._data.shape, [], [], [], 0
    for p in parts:
        # a bool is torch's 0-d mask: a new dim, indexed with the other index tensors
        array = None if p is None or isinstance(p, slice) else t._xp.asarray(p) if \
            isinstance(p, bool) else _index_array(p, t._xp)
        if array is None and isinstance(p, slice):
            out.append(len(range(*_clipped(p, shape[dim]).indices(shape[dim]))))
        elif array is None and p is not None:  # an int
            pass
        elif array is None:  # a new dim
            out.append(1)
            dim -= 1
        else:
            mask = _args.kind_of(array.dtype) == "bool"  # a 0-d one indexes a new dim
            where.append(len(out))
            out.append(0)  # a place holder
            indexes.extend([(int(namespace(array).count_nonzero(array)),)] *
                           max(array.ndim, 1) if mask else [tuple(array.shape)])
            dim += array.ndim - 1 if mask else 0
        dim += 1
    out += shape[dim:]
    if not where:
        return () if joined_only else tuple(out)
    joined = _indexed_shape(indexes)
    if joined_only:
        return joined
    rest = [s for i, s in enumerate(out) if i not in where]
    at = where[0] if where == list(range(where[0], where[0] + len(where))) else 0
    return tuple(rest[:at]) + joined + tuple(rest[at:])


def _index_array(p: Any, xp: Any) -> Any:
    """The array of an index part with dims, or of a 0-d bool tensor (a mask) or 0-d float
    tensor (an index tensor torch's kernel refuses); None for a part that is an int to torch
    (a 0-d integer tensor too)."""
    if isinstance(p, Tensor):
        return p._data if p.dim() or p.dtype.name == "bool" or p.dtype.is_floating_point \
            else None
    return _part(p, xp) if isinstance(p, list) or _is_array(p) else None


def _indexed_shape(shapes: list) -> tuple:
    """The broadcast shape of the index tensors, with torch's error where there is none."""
    try:
        return broadcast_shapes(*shapes)
    except RuntimeError:
        said = ", ".join(str(list(s)) for s in shapes)
        raise IndexError("shape mismatch: indexing tensors could not be broadcast together "
                         f"with shapes {said}") from None


def key_parts(key: Any) -> tuple:
    """The parts of a key: a tuple's items, and those of a short list that holds a sequence,
    a tensor, a slice, None or ``...`` (numpy's old rule, which torch keeps with a warning);
    any other key is one part.

    >>> key_parts((0, 1)), key_parts([[0, 1], [1, 0]]), key_parts([0, 1])
    ((0, 1), ([0, 1], [1, 0]), ([0, 1],))
    """
    if isinstance(key, tuple):
        return _narrow_index_tensors(tuple(map(_zero_d_array, map(byte_array, key))))
    if is_index_sequence(key):
        warnings.warn("Using a non-tuple sequence for multidimensional indexing is deprecated "
                      "and will be changed in pytorch 2.9; use x[tuple(seq)] instead of x[seq]. "
                      "In pytorch 2.9 this will be interpreted as tensor index, "
                      "x[torch.tensor(seq)], which will result either in an error or a "
                      "different result", UserWarning, stacklevel=4)
        return _narrow_index_tensors(tuple(map(byte_array, key)))
    return _narrow_index_tensors((_zero_d_array(byte_array(key)),))


def given_parts(key: Any) -> tuple:
    """The parts of a key as given, read as :func:`key_parts` reads them but unconverted and
    with no warning (a uint8 mask stays itself).

    >>> given_parts([[0, 1], [1, 0]]), given_parts(0)
    (([0, 1], [1, 0]), (0,))
    """
    return key if isinstance(key, tuple) else tuple(key) if is_index_sequence(key) else (key,)


def index_tensors(key: Any) -> tuple:
    """The index tensors (with dims) of a key as given: those torch's indexing node saves, so
    that a write into one is refused at backward.

    >>> index_tensors((slice(None), minitorch.tensor([1, 0]), minitorch.tensor(0)))
    (tensor([1, 0]),)
    """
    return tuple(p for p in given_parts(key) if isinstance(p, Tensor) and p.dim())


def is_index_sequence(key: Any) -> bool:
    """Whether a list key reads as a tuple of indices (numpy's old rule, which torch keeps
    with a warning): a short one that holds a sequence, a tensor, a slice, None or ``...``.

    >>> is_index_sequence([[0, 1], [1, 0]]), is_index_sequence([0, 1])
    (True, False)
    """
    return isinstance(key, list) and len(key) < 32 and any(map(_multidimensional, key))


def byte_array(p: Any) -> Any:
    """A numpy array of uint8 (0-d too), or a list of numpy uint8 scalars, as the uint8 tensor
    torch makes of it: a mask; any other index part as it is.

    >>> import numpy as np
    >>> byte_array(np.array([1, 0], dtype=np.uint8)), byte_array([1, 0])
    (tensor([1, 0], dtype=torch.uint8), [1, 0])
    """
    if isinstance(p, list) and p and all(type(v).__name__ == "uint8" for v in p):
        p = _creation.as_array(p, None)
    if _is_ndarray(p) and (str(p.dtype) == "uint8" or (
            str(p.dtype) == "bool" and p.ndim)):  # (a mask of bools: the tensor too)
        return _creation.tensor(p)
    return p


def _zero_d_array(p: Any) -> Any:
    """A 0-d numpy array as torch's indexing reads it: a real one as its value truncated to an
    int, a bool one as a bool (numpy's scalars are refused, as torch's)."""
    if not _is_ndarray(p) or p.ndim or _args.kind_of(p.dtype) not in (
            "bool", "int", "float"):
        return p
    return bool(p) if _args.kind_of(p.dtype) == "bool" else int(p)


def _check_index_dtype(p: Tensor) -> None:
    """torch's index kernel's refusal of a tensor of indices that are no integers of its
    kinds (int8 and int16 ones are none; a 0-d one of them is an int to torch)."""
    if p.dtype.is_floating_point or (p.dim() and p.dtype.name in ("int8", "int16")):
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")


def _narrow_index_tensors(parts: tuple) -> tuple:
    """The parts as torch reads them: a uint8 tensor is a mask (deprecated, with torch's
    warning); int8 and int16 tensors are no index at all (refused after the dims are
    counted, :func:`_check_index_dtype`; int32 ones index as int64)."""
    if not any(isinstance(p, Tensor) and p.dtype.name == "uint8" for p in parts):
        return parts
    if any(isinstance(p, Tensor) and p.dtype.name == "uint8" and p.dim() for p in parts):
        warnings.warn("indexing with dtype torch.uint8 is now deprecated, please use a dtype "
                      "torch.bool instead.", UserWarning, stacklevel=5)  # (a 0-d one is a
        # bool to torch's slicing, before the masks it warns of)
    return tuple(p.bool() if isinstance(p, Tensor) and p.dtype.name == "uint8" else p
                 for p in parts)


_NARROW = ("uint8", "int8", "int16")


def _multidimensional(p: Any) -> bool:
    """True for an item that makes a list key read as a tuple of indices."""
    return isinstance(p, (Tensor, slice, Sequence)) or p is None or p is Ellipsis or \
        _is_array(p)


def _checked(t: Tensor, parts: tuple, bounds: bool, items: list | None = None,
             as_tensors: bool = False, writes: bool = False) -> list:
    """The integer index tensors of ``parts`` (array, size of the dim, number among the index
    tensors), after the checks of the ints, the dtypes and (``bounds``) the values."""
    # torch's messages number an int by its item in the key (``items``: of each part), an
    # index tensor among the index tensors (a bool, as a mask of a new dim, is one; a mask
    # one per dim); the ints are checked as torch slices, the index tensors after (their
    # dtypes first)
    shape, dim, tensors, indexed = t._data.shape, 0, 0, []
    for j, p in enumerate(parts):
        kind = type(p)
        if kind is int:  # the common cases first
            if not -shape[dim] <= p < shape[dim]:
                _check_int(shape[dim], items[j] if items else dim, p)
        elif kind is slice:  # slice's errors here; getitem and array_key clip it
            _clipped(p, 0)
        elif p is None:
            continue
        elif p is True or p is False:
            tensors += 1
            continue
        elif (array := p._data if as_tensors and isinstance(p, Tensor) else
              _index_array(p, t._xp)) is not None:  # not a 0-d integer tensor: an int
            if _args.kind_of(array.dtype) == "bool":  # a mask (see _check_masks)
                dim += array.ndim
                tensors += max(array.ndim, 1)
                continue
            indexed.append((array, shape[dim], tensors))
            tensors += 1
        else:
            _check_int(shape[dim], items[j] if items else dim, p)
        dim += 1
    if writes:
        _check_in_order(t, tuple(parts))
    for p in parts:
        if isinstance(p, Tensor):
            _check_index_dtype(p)
    if bounds:
        _check_bounds(indexed, result_shape(t, parts, joined_only=True))
    return indexed


def _check_in_order(t: Tensor, parts: tuple) -> None:
    """index_put_'s reading of a write's first index tensor, where it is a mask: its shape
    before any index tensor's dtype (an index read, torch's ``x[key]``, checks the dtypes
    first; so does a write whose first index tensor, or bool, is no mask)."""
    first = next((j for j, p in enumerate(parts) if isinstance(p, (Tensor, bool)) or
                  _is_array(p) or isinstance(p, list)), None)
    mask = None if first is None or isinstance(parts[first], bool) else \
        _index_array(parts[first], t._xp)  # a list of bools is a mask too
    refused = any(isinstance(p, Tensor) and (p.dtype.is_floating_point or (
        p.dim() and p.dtype.name in ("int8", "int16"))) for p in parts)
    if refused and mask is not None and mask.ndim and str(mask.dtype) in ("bool", "uint8"):
        _check_masks(t, tuple(_UNREAD if j > first and isinstance(p, Tensor) and (
            p.dim() or p.dtype.is_floating_point) else p for j, p in enumerate(parts)))


_UNREAD = slice(None)  # an index tensor not yet read: only the dim it takes counts


def _check_masks(t: Tensor, parts: tuple) -> None:
    """Each mask of the key against the tensor the basic indexing made (ints' dims dropped,
    slices cut, a new dim of 1 for None or a bool), as torch's index kernel checks it."""
    shape, sliced, dim, masks = t._data.shape, [], 0, []
    for p in parts:
        array = None if p is None or isinstance(p, (bool, int, slice)) else \
            _index_array(p, t._xp)
        if p is None or isinstance(p, bool) or (array is not None and array.ndim == 0):
            sliced.append(1)
            continue
        if array is not None and _args.kind_of(array.dtype) == "bool":
            masks.append((array.shape, len(sliced)))
            sliced.extend(shape[dim:dim + array.ndim])
            dim += array.ndim
            continue
        if isinstance(p, slice):
            sliced.append(len(range(*p.indices(shape[dim]))))
        elif array is not None:
            sliced.append(shape[dim])
        dim += 1
    sliced.extend(shape[dim:])
    for mask, at in masks:
        for i, n in enumerate(mask):
            if n != sliced[at + i]:
                raise IndexError(f"The shape of the mask {list(mask)} at index {i} does not "
                                 f"match the shape of the indexed tensor {sliced} at index "
                                 f"{at + i}")


def _check_bounds(indexed: list, shape: tuple) -> None:
    """torch's index kernel's error for the first index outside ``[-size, size)`` of its dim:
    it walks the elements of the index tensors' broadcast ``shape`` in order, and reads each
    element's index tensors in turn (``indexed``: array, size, number)."""
    bad = [(index < -size) | (index >= size) for index, size, _ in indexed]
    if not any(bool(namespace(b).any(b)) for b in bad):
        return
    flat = [to_numpy(b).reshape(-1) if b.shape == shape else
            to_numpy(namespace(b).broadcast_to(b, shape)).reshape(-1) for b in bad]
    first = min(int(f.argmax()) for f in flat if f.any())
    for (index, size, dim), f in zip(indexed, flat):
        if f[first]:
            value = int(to_numpy(namespace(index).broadcast_to(index, shape)).reshape(-1)[first])
            raise IndexError(f"index {value} is out of bounds for dimension {dim} with size "
                             f"{size}")


def _consumed(p: Any) -> int:
    """How many dims of the indexed tensor an index part uses."""
    if p is None or p is Ellipsis or p is True or p is False:
        return 0
    return p.dim() if _is_bool_mask(p) else 1


def _expand_ellipsis(parts: tuple, t: Tensor) -> tuple[tuple, list]:
    """The parts with the ellipsis as the full slices it stands for, and the item of the key
    each part comes from."""
    ndim, consumed, i = t.dim(), 0, None
    for j, p in enumerate(parts):
        kind = type(p)
        if kind is int or kind is slice:
            consumed += 1
        else:
            consumed += _consumed(p)
            if p is Ellipsis and i is None:
                i = j
    if consumed > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    if i is None:
        return parts, list(range(len(parts)))
    if ndim > consumed and sum(p is Ellipsis for p in parts) > 1:
        _walk_ellipses(t, parts, ndim - consumed)
    # where torch's walk passes, a later ``...`` takes no dim
    later = [j for j in range(i + 1, len(parts)) if parts[j] is not Ellipsis]
    return (parts[:i] + (slice(None),) * (ndim - consumed) + tuple(parts[j] for j in later),
            [*range(i), *[i] * (ndim - consumed), *later])


def _walk_ellipses(t: Tensor, parts: tuple, spare: int) -> None:
    """torch's errors for a key with several ``...`` and ``spare`` dims: each ``...`` moves on
    by all of them, so after the second one the parts meet dims past the tensor's (an int
    reads a size of 0 there, a slice that cuts or a new dim is out of range, the index
    tensors are too many)."""
    shape, dim, indexed = list(t.shape), 0, 0
    for j, p in enumerate(parts):
        if p is Ellipsis:
            dim += spare
        elif p is None or p is True or p is False:
            if dim > len(shape):
                raise IndexError(_dim_out_of_range(dim, len(shape) + 1))
            shape.insert(dim, 1)
            dim += 1
            indexed = dim if p is not None else indexed
        elif isinstance(p, slice):
            if dim < len(shape):
                shape[dim] = len(range(*_clipped(p, shape[dim]).indices(shape[dim])))
            elif not _whole(p, 0):
                raise IndexError(_dim_out_of_range(dim, len(shape)))
            dim += 1
        elif isinstance(p, list) or _index_array(p, t._xp) is not None:
            if isinstance(p, list):  # read as it is met
                _part(p, t._xp)
            dim += 1
            indexed = dim
        else:  # an int
            _check_int(shape.pop(dim) if dim < len(shape) else 0, j, p)
    if indexed > len(shape):
        raise IndexError(f"too many indices for tensor of dimension {len(shape)} "
                         f"(got {indexed})")


def _dim_out_of_range(dim: int, ndim: int) -> str:
    return f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but " \
           f"got {dim})"


def _clipped(s: slice, size: int) -> slice:
    """``s`` with its bounds inside ``size`` (the standard leaves out-of-range bounds out); a
    bound may be a bool (an int to Python's slice and to torch)."""
    s = _int_bounds(s)
    _check_slice_bounds(s)
    if s.step is not None and s.step <= 0:
        raise ValueError("step must be greater than zero" if s.step else
                         "slice step cannot be zero")
    return slice(*s.indices(size))


# the bounds torch's reading of a slice takes for a failure while an error is pending (as
# torch 2.13 on CPython answers: -1, and the two lowest)
_READ_AS_FAILED = frozenset({-1, -2 ** 63, -2 ** 63 + 1})


def _check_slice_bounds(s: slice) -> None:
    """torch's reading of a slice's bounds: the step first, whose zero it refuses only once
    start and stop are read, so meanwhile a tensor bound's ``__index__`` runs with that
    refusal pending (Python's SystemError) and a bound of -1 reads as a failure (the
    refusal surfaces there, before a later bound's type is checked)."""
    def index(bound: Any) -> int:
        i = bound if type(bound) is int else _args.as_int(bound)
        if i is None:
            raise TypeError("slice indices must be integers or None or have an __index__ method")
        return i

    zero = s.step is not None and index(s.step) == 0
    for bound in (s.start, s.stop):
        if bound is None:
            continue
        if zero and isinstance(bound, Tensor) and _args.as_int(bound) is not None:
            raise SystemError("<method '__index__' of 'torch._C.TensorBase' objects> returned "
                              "a result with an exception set")
        if index(bound) in _READ_AS_FAILED and zero:
            break


def _int_bounds(s: slice) -> slice:
    """``s`` with a bool bound read as the int it is (``x[True:]`` is ``x[1:]``)."""
    if bool in (type(s.start), type(s.stop), type(s.step)):
        return slice(*(int(b) if type(b) is bool else b for b in (s.start, s.stop, s.step)))
    return s


def _check_int(size: int, dim: int, index: Any) -> int:
    i = _args.as_int(index)
    if i is None:
        if isinstance(index, (str, bytes)):
            raise TypeError(f"new(): invalid data type '{type(index).__name__}'")
        raise _args.index_error(index)
    if not _args.INT64_MIN <= i <= _args.INT64_MAX:
        raise ValueError("Overflow when unpacking long long")
    if not -size <= i < size:
        raise IndexError(
            f"index {i} is out of bounds for dimension {dim} with size {size}")
    return i


def check_value_shape(self: Tensor, parts: tuple, value: Tensor) -> Tensor:
    """torch's errors for a value that does not broadcast to ``self[parts]`` (its leading ones
    dropped, as torch does), then for a value of another dtype written by
    index_put (a tensor index, a 0-d bool one included), except through one boolean mask
    of a one-element value, which torch writes with masked_fill_ (a cast). The value comes
    back without its leading ones."""
    key = array_key(parts, self._xp)
    arrays = [k for k in key if getattr(k, "ndim", 0) or _bool_array(k) or
              isinstance(k, bool)]  # a bool indexes a new dim with a mask
    target = result_shape(self, parts)
    shape = tuple(value.shape)
    while shape and shape[0] == 1:
        shape = shape[1:]
    fits = len(shape) <= len(target) and all(
        v in (1, t) for v, t in zip(reversed(shape), reversed(target)))
    if not fits and arrays:
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(shape)} cannot "
                           f"be broadcast to indexing result of shape {list(target)}")
    if not fits:
        expanded_shape(shape, target, _args.type_string(value.dtype))  # raises torch's error
    mask_fill = (len(arrays) == 1 and getattr(arrays[0], "ndim", 0) and _bool_array(arrays[0])
                 and value.numel() == 1)
    if arrays and not mask_fill:
        check_put_dtype(self, value)
    return value if shape == value.shape else value.view(shape)


def copied_value(target: tuple, given: Tensor, cut: Tensor) -> Tensor:
    """The value torch's ``t[basic key] = given`` copies into the part ``t[key]`` of shape
    ``target`` (``cut``: ``given`` without its leading ones): ``given`` itself where the shapes
    agree, or where it is a 0-d CPU value (filled), else ``cut`` expanded to ``target`` (an
    ExpandBackward0 in its graph where it requires grad).

    >>> v = minitorch.tensor([2.], requires_grad=True)
    >>> copied_value((3,), v, v.view(())).grad_fn.name()
    'ExpandBackward0'
    """
    if tuple(given.shape) == target or (not given.dim() and given.device.type == "cpu"):
        return given
    return cut if tuple(cut.shape) == target else cut.expand(target)


def check_put_dtype(self: Tensor, value: Tensor) -> None:
    """torch's index_put refusal of a value whose dtype is not ``self``'s."""
    if value.dtype is not self.dtype:
        raise RuntimeError(
            "Index put requires the source and destination dtypes match, got "
            f"{_args.legacy(self.dtype)} for the destination and {_args.legacy(value.dtype)} "
            "for the source.")


def _bool_array(part: Any) -> bool:
    """True if a key's part is a boolean array (a mask; a 0-d one is still a tensor index)."""
    return type(part).__name__ == "ndarray" and _args.kind_of(part.dtype) == "bool"
