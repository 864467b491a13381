"""The memory layout of an advanced-indexing result, as torch's index kernel gives it.

torch computes ``x[idx]`` with a TensorIterator whose inputs are the source, restrided so
that the indexed dims become the index shape with stride 0, and the index tensors (a bool
mask becomes its ``nonzero()`` columns), broadcast over the other dims. The output takes the
dims' order TensorIterator finds over those inputs: ``x[:, [0, 1]]`` of a contiguous ``x`` is
contiguous, where numpy's fancy indexing puts the indexed dim outermost in memory. The
layout decides what ``.view()`` accepts and what ``stride()`` shows.

>>> import numpy as np
>>> x = np.arange(24.0).reshape(2, 3, 4)
>>> torch_index_layout(x[:, [0, 1]], x, (slice(None), np.array([0, 1]))).strides
(64, 32, 8)
"""

from __future__ import annotations

from typing import Any

from .. import backend
from .._tensor import broadcast_shapes


def torch_index_layout(result: Any, source: Any, key: tuple) -> Any:
    """``result`` (``source[key]`` as numpy indexed it) laid out as torch's index kernel lays
    it out; itself where the key holds parts other than slices, ``...`` and index arrays, or
    the library has no strides."""
    if getattr(result, "ndim", 0) < 2 or backend.element_strides(source) is None:
        return result
    operands = _operands(source, key, result.shape)
    if operands is None:
        return result
    return backend.with_strides(result, _output_strides(result.shape, operands))


def _output_strides(shape: tuple, operands: list) -> tuple:
    """TensorIterator's strides for a new output: in the dims' natural order, contiguous
    (an empty dim counted as one element); else contiguous in its dims' order, each dim's
    stride the product of the faster dims' sizes (an empty dim's too, so that the dims
    after it get stride 0).

    >>> _output_strides((0, 2), [(1, 5)]), _output_strides((2, 0), [(5, 1)])
    ((1, 0), (1, 1))
    """
    order = backend.fastest_first(list(operands), shape)
    natural = order == list(range(len(shape)))[::-1]
    out, step = [0] * len(shape), 1
    for d in order:
        out[d] = step
        step *= max(shape[d], 1) if natural else shape[d]
    return tuple(out)


def _operands(source: Any, key: tuple, shape: tuple) -> list | None:
    """The TensorIterator inputs' strides over the result's dims: the restrided source, then
    each index array; None for a key this does not follow."""
    parts = _spelled_out(key, source.ndim)
    if parts is None:
        return None
    kept, indexes, positions, dim = [], [], [], 0
    for i, p in enumerate(parts):
        if isinstance(p, slice):
            kept.append(backend.element_strides(source)[dim] * p.indices(source.shape[dim])[2])
            dim += 1
            continue
        positions.append(i)
        if _is_mask(p):  # nonzero(): an (n, k) array, one 1-d column per masked dim
            indexes += [((int(p.sum()),), (p.ndim,))] * p.ndim
            dim += p.ndim
        else:
            indexes.append((p.shape, backend.element_strides(p)))
            dim += 1
    if not indexes:
        return None
    joined = broadcast_shapes(*(s for s, _ in indexes))
    adjacent = positions == list(range(positions[0], positions[0] + len(positions)))
    before = sum(isinstance(p, slice) for p in parts[:positions[0]]) if adjacent else 0
    if len(joined) + len(kept) != len(shape):
        return None
    rest = kept
    zeros = (0,) * len(joined)
    src = (*rest[:before], *zeros, *rest[before:])
    out = [src]
    for index_shape, index_strides in indexes:
        lead = len(joined) - len(index_shape)
        inner = (0,) * lead + tuple(0 if n == 1 and joined[lead + i] != 1 else s for i, (n, s)
                                    in enumerate(zip(index_shape, index_strides)))
        # reshaped with 1s around (torch's view strides there), which only a dim of one
        # element in the result keeps (TensorIterator zeroes the broadcast ones)
        outer, last = joined[0] * inner[0], inner[-1]
        ones = [outer] * before + [None] * len(joined) + [last] * (len(rest) - before)
        out.append(tuple(
            inner[d - before] if s is None else (s if shape[d] == 1 else 0)
            for d, s in enumerate(ones)))
    return out


def _spelled_out(key: tuple, ndim: int) -> list | None:
    """The key's parts with ``...`` and the trailing dims written as whole slices; None where
    it holds an int, a None or a bool (those are taken apart before the index kernel)."""
    parts = list(key) if isinstance(key, tuple) else [key]
    if any(not (p is Ellipsis or isinstance(p, slice) or getattr(p, "ndim", 0) > 0)
           for p in parts):
        return None
    used = sum(p.ndim if _is_mask(p) else 1 for p in parts if p is not Ellipsis)
    dots = [i for i, p in enumerate(parts) if p is Ellipsis]
    if len(dots) > 1 or used > ndim:
        return None
    fill = [slice(None)] * (ndim - used)
    return parts[:dots[0]] + fill + parts[dots[0] + 1:] if dots else parts + fill


def _is_mask(p: Any) -> bool:
    return str(getattr(p, "dtype", None)) == "bool"
