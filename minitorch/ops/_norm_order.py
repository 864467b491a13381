"""torch's CPU norms bit for bit: the float32 2-norm along the last dim (its order of adding
the squares), and the 1-norm (its values added one after another).

``w.norm().item()`` prints every digit, so the last bit shows (d2l's weight decay chapter
prints it). torch's fast path (``norm_kernel_tensor_iterator_impl`` in ATen's
ReduceOpsKernel.cpp), taken when float32 values are reduced along their innermost, contiguous
dims (the whole of a contiguous tensor, or its trailing dims), walks each row so:

* eight float32 lanes: the squares of each whole block of 8 values are added lane by lane,
  a product rounded, then the sum (an AVX2 multiply and add, never fused);
* the lanes are added into the first one after another;
* the values after the last whole block are added one by one, as the compiler built that
  loop: a first run of four as a multiply and an add, the rest as fused multiply-adds;
* the square root of that, rounded once; a row of one value is its absolute value.

The 1-norm takes ATen's plain reduction loop instead: each output adds its values one by one,
in the order they lie in memory (the reduced dims walked from the largest stride in). A single
output of ``GRAIN`` values or more is shared between torch's threads: each adds its own equal
chunk from 0, and the chunks' sums are then added in thread order.

>>> import numpy as np
>>> float(norm2_lastdim(np.array([[3.0, 4.0]], dtype=np.float32))[0])
5.0
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._libm import fmaf
from ._cascade_sum import _in_order, get_num_threads

LANES, PLAIN_TAIL = 8, 4
GRAIN = 32768  # ATen's GRAIN_SIZE: below it a reduction runs on one thread


def norm2(xp: Any, a: Any, dims: tuple[int, ...] | None) -> Any:
    """``sqrt(sum(a * a))`` over ``dims`` (None: all), the dims kept; in torch's order where
    torch takes its fast path on numpy arrays, else with ``xp``'s own sum.

    >>> norm2(np, np.array([[3.0, 4.0]], dtype=np.float32), (1,))
    array([[5.]], dtype=float32)
    """
    if type(a) is not np.ndarray or not _is_lastdim(a, dims):
        return xp.sqrt(xp.sum(a * a, axis=dims, keepdims=True))
    kept = tuple(1 if dims is None or d in dims else n for d, n in enumerate(a.shape))
    return norm2_lastdim(a.reshape(math.prod(kept), -1)).reshape(kept)


def norm1(xp: Any, a: Any, dims: tuple[int, ...] | None) -> Any:
    """``sum(a)`` of the absolute values ``a`` over ``dims`` (None: all), the dims kept; added
    in torch's 1-norm order on numpy arrays (``a`` keeping the input's strides), else with
    ``xp``'s own sum.

    >>> norm1(np, np.float32([[1e8, 1, 1, -1e8]]), None)
    array([[0.]], dtype=float32)
    """
    reduced = tuple(range(a.ndim)) if dims is None else tuple(sorted(d % a.ndim for d in dims))
    count = math.prod(a.shape[d] for d in reduced)
    if type(a) is not np.ndarray or count == 0:
        return xp.sum(a, axis=dims, keepdims=True)
    rows = memory_rows(a, reduced)
    chunks = 1
    if count == a.size and count >= GRAIN:
        chunks = min(get_num_threads(), -(-count // GRAIN))
    size = -(-count // chunks)
    total = None
    for start in range(0, count, size):  # one pass per thread, added in thread order
        part = np.cumsum(rows[..., start:start + size], axis=-1, dtype=a.dtype)[..., -1]
        total = part if total is None else total + part
    return total.reshape(tuple(1 if d in reduced else n for d, n in enumerate(a.shape)))


def memory_rows(a: np.ndarray, reduced: tuple[int, ...]) -> np.ndarray:
    """``a`` with its kept dims first and the ``reduced`` ones flattened into the last, in the
    order ATen's reduction loops read them: memory order, the largest stride first.

    >>> memory_rows(np.arange(6.0).reshape(2, 3).T, (0,))  # a column of a transposed matrix
    array([[0., 1., 2.],
           [3., 4., 5.]])
    """
    kept = tuple(d for d in range(a.ndim) if d not in reduced)
    reduced = tuple(sorted(reduced, key=lambda d: -a.strides[d]))  # memory order, stable
    count = math.prod(a.shape[d] for d in reduced)
    return np.transpose(a, kept + reduced).reshape(*(a.shape[d] for d in kept), count)


def norm2_lastdim(rows: np.ndarray) -> np.ndarray:
    """The 2-norm of each row of the float32 matrix ``rows`` (shape (n, size)), in torch's order.

    >>> norm2_lastdim(np.full((2, 11), 0.1, dtype=np.float32))
    array([0.33166248, 0.33166248], dtype=float32)
    """
    size = rows.shape[1]
    whole = size - size % LANES
    squares = rows[:, :whole] * rows[:, :whole]
    lanes = _in_order(np, squares.reshape(len(rows), whole // LANES, LANES)) if whole else (
        np.zeros((len(rows), LANES), np.float32))
    total = lanes[:, 0].copy()
    for j in range(1, LANES):
        total += lanes[:, j]
    tail = rows[:, whole:]
    plain = PLAIN_TAIL if tail.shape[1] >= PLAIN_TAIL else 0
    for j in range(plain):
        total += tail[:, j] * tail[:, j]
    for j in range(plain, tail.shape[1]):
        total = fmaf(tail[:, j], tail[:, j], total)
    return np.sqrt(total)


def _is_lastdim(a: np.ndarray, dims: tuple[int, ...] | None) -> bool:
    """Whether torch takes its fast path for the 2-norm of ``a`` over ``dims``: float32,
    C-contiguous and ``dims`` (None: all) its trailing dims."""
    if a.dtype != np.float32 or not a.flags.c_contiguous or a.size == 0 or dims == ():
        return False
    if dims is None:
        return True
    wanted = {d % a.ndim for d in dims}
    return wanted == set(range(a.ndim - len(wanted), a.ndim))
