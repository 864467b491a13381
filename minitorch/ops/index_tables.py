"""Tables of positions: ``tril_indices``/``triu_indices`` (the coordinates of a matrix's
lower or upper triangle, row by row) and ``unravel_index`` (flat positions as coordinates in
a shape, torch's Python composition of ``floor_divide`` and ``%``).

>>> import minitorch
>>> minitorch.triu_indices(2, 3)
tensor([[0, 0, 0, 1, 1],
        [0, 1, 2, 1, 2]])
>>> minitorch.unravel_index(minitorch.tensor([5]), (2, 3))
(tensor([1]), tensor([2]))
"""

from __future__ import annotations

import itertools
import operator
from typing import Any

from .. import _args, _dtype
from .._tensor import Tensor

__all__ = ["tril_indices", "triu_indices", "unravel_index"]


def _triangle(fn: str, row: Any, col: Any, offset: Any, dtype: Any, device: Any,
              lower: bool) -> Tensor:
    from .._creation import arange

    row, col, offset = _args.integers(fn, (row, "row", 1), (col, "col", 2),
                                      (offset, "offset", 3))
    dtype = _args.dtype(fn, dtype) or _dtype.int64
    for name, n in (("row", row), ("col", col)):
        if n < 0:
            raise RuntimeError(f"{name} must be non-negative, got{n}")
    count = _lower_size(row, col, offset) if lower else \
        row * col - _lower_size(row, col, offset - 1)
    _args.check_alloc((2, count), dtype.itemsize)  # torch allocates the result first
    if dtype not in (_dtype.int32, _dtype.int64):  # torch's kernel has these two only
        raise NotImplementedError(f"\"{fn}\" not implemented for '{_args.legacy(dtype)}'")
    if lower:  # only the columns (rows) that can hold an index: a wide matrix costs nothing
        col = min(col, max(row + offset, 0))
    else:
        row = min(row, max(col - offset, 0))
    rows = arange(row, device=device).unsqueeze(1)
    cols = arange(col, device=device).unsqueeze(0)
    inside = cols - rows <= offset if lower else cols - rows >= offset
    rows, cols = rows.expand(row, col)[inside], cols.expand(row, col)[inside]
    from .shape import stack

    return stack([rows, cols]).to(dtype)


def _lower_size(row: int, col: int, offset: int) -> int:
    """How many cells of a ``row`` x ``col`` matrix lie on or below the diagonal ``offset``
    (a trapezoid of rows, then a rectangle), as torch counts them to size its result."""
    if row == 0 or col == 0:
        return 0
    first = min(col, 1 + offset) if offset > 0 else int(row + offset > 0)
    last = max(0, min(col, row + offset))
    rows = max(0, min(row, row + offset))
    trapezoid = last - first + 1
    return (first + last) * trapezoid // 2 + max(rows - trapezoid, 0) * col


def tril_indices(row: int, col: int, offset: int = 0, *, dtype: Any = None, device: Any = None
                 ) -> Tensor:
    """The coordinates (a 2 x N tensor: rows, then columns) of the lower triangle of a
    ``row`` x ``col`` matrix, on and below the diagonal ``offset``.

    >>> minitorch.tril_indices(3, 2)
    tensor([[0, 1, 1, 2, 2],
            [0, 0, 1, 0, 1]])
    """
    return _triangle("tril_indices", row, col, offset, dtype, device, lower=True)


def triu_indices(row: int, col: int, offset: int = 0, *, dtype: Any = None, device: Any = None
                 ) -> Tensor:
    """The coordinates (a 2 x N tensor) of the upper triangle of a ``row`` x ``col`` matrix,
    on and above the diagonal ``offset``.

    >>> minitorch.triu_indices(2, 2, 1)
    tensor([[0],
            [1]])
    """
    return _triangle("triu_indices", row, col, offset, dtype, device, lower=False)


def unravel_index(indices: Tensor, shape: Any) -> tuple:
    """The coordinates in ``shape`` of the flat positions ``indices`` (negative ones wrap
    around, as torch's ``%``), one int64 tensor per dim.

    >>> minitorch.unravel_index(minitorch.tensor(7), (2, 4))
    (tensor(1), tensor(3))
    """
    _args.python_attribute(indices, "is_complex")
    if indices.dtype.is_floating_point or indices.dtype is _dtype.bool:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    if _args.as_int(shape) is not None and not isinstance(shape, bool):
        shape = (_args.as_int(shape),)
    elif not isinstance(shape, (tuple, list)):
        raise TypeError(f"expected 'shape' to be int or sequence of ints, but got "
                        f"{type(shape)}")
    for n in shape:
        if type(n) is not int:  # torch's check: Python ints only
            raise TypeError(f"expected 'shape' sequence to only contain ints, but got {type(n)}")
    if any(n < 0 for n in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {tuple(shape)}")
    steps = list(reversed(list(itertools.accumulate(reversed([*shape[1:], 1]), operator.mul))))
    from .._creation import tensor

    coordinates = indices.unsqueeze(-1).floor_divide(tensor(steps, device=indices.device)) \
        % tensor(list(shape), dtype=_dtype.int64, device=indices.device)
    return coordinates.unbind(-1)
