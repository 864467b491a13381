"""torch's CPU variance, bit for bit: which of its two algorithms runs, and in what order.

``x.var()`` and ``x.std(0)`` print every digit with ``.item()``, and batch statistics feed
training, so a last bit that differs shows up a few steps later (makemore's hand-made batch
norm, d2l's). numpy's ``var`` works in the input's precision; torch's CPU kernels
(``std_var_out`` in ATen's ReduceOps.cpp, ``std_var_kernel_impl`` in ReduceOpsKernel.cpp)
accumulate in double, in one of two ways:

* everything that is not a dim of size one reduced (a single output): two passes. The mean
  is torch's own float mean (its cascade sum, divided), read as a double; then the squares
  ``(double(x) - mean) ** 2`` are added one after another in memory order, each of torch's
  threads its own range from ``GRAIN`` values on, the threads' sums added in thread order.
* otherwise Welford's one-pass update, per output, over the reduced values in memory order::

      n += 1; delta = x - mean; mean += delta / n; m2 += delta * (x - mean)

Both divide ``m2`` by ``max(0, n - correction)``, take the square root for std while still
in double, and round to the input's dtype once, at the end. ``std_mean`` and ``var_mean``
always take Welford's pass (its mean too, so that an inf followed by a number is NaN), here
for a single output of at most ``WELFORD_MAX`` values (one Python step each), the two passes
for more.

>>> import numpy as np
>>> x = np.array([0.1, 0.2, 0.4], dtype=np.float32)
>>> float(variance(x, None, 1, False)[0]), float(np.var(x, ddof=1))  # torch's: the first
(0.023333333432674408, 0.023333335295319557)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._cascade_sum import GRAIN, _thread_ranges, get_num_threads, torch_sum
from ._norm_order import memory_rows

WELFORD_MAX = 2048


def torch_variance(xp: Any, a: Any, dims: tuple[int, ...] | None, correction: float,
                   keepdim: bool, take_sqrt: bool, welford: bool = False) -> Any:
    """The variance (standard deviation if ``take_sqrt``) of ``a`` over ``dims`` (None: all)
    with torch's divisor ``max(0, n - correction)`` (nan for no values): in torch's order for
    float numpy arrays (``welford``: std_mean's pass), with ``xp.var`` for any other array
    (a GPU's order is its own).

    >>> torch_variance(np, np.float32([1, 2, 4]), None, 1, False, True)
    array(1.5275252, dtype=float32)
    """
    reduced = tuple(range(a.ndim)) if dims is None else tuple(d % a.ndim for d in dims)
    shape = tuple(1 if d in reduced else n for d, n in enumerate(a.shape))
    count = math.prod(a.shape[d] for d in reduced)
    if count == 0:
        result = xp.full(shape, math.nan, dtype=a.dtype)
    elif type(a) is np.ndarray and a.dtype.char in "fd":
        result = variance(a, reduced, correction, take_sqrt, welford)
    else:
        ddof = count if correction != correction else correction  # nan: divides by 0
        result = xp.var(a, axis=reduced, correction=ddof, keepdims=True)
        result = xp.sqrt(result) if take_sqrt else result
    if keepdim:
        return result
    return xp.reshape(result, tuple(n for d, n in enumerate(a.shape) if d not in reduced))


def variance(a: np.ndarray, dims: tuple[int, ...] | None, correction: float,
             take_sqrt: bool, welford: bool = False) -> np.ndarray:
    """The variance (its square root if ``take_sqrt``) of the float32/float64 array ``a``
    over ``dims`` (None: all), the dims kept as ones, as torch's CPU kernels compute it.

    >>> variance(np.float32([[1, 2], [3, 5]]), (1,), 1, False)
    array([[0.5],
           [2. ]], dtype=float32)
    """
    reduced = tuple(range(a.ndim)) if dims is None else tuple(sorted(d % a.ndim for d in dims))
    kept = tuple(1 if d in reduced else n for d, n in enumerate(a.shape))
    rows = memory_rows(a, reduced)
    if math.prod(kept) == 1 and not (welford and rows.size <= WELFORD_MAX):
        m2 = _two_pass_m2(a, rows.reshape(-1))
    else:
        m2 = welford_moments(rows)[1]
    count = rows.shape[-1]
    result = np.divide(m2, max(0.0, count - correction))  # 0 divides as IEEE does
    if take_sqrt:
        result = np.sqrt(result)
    return np.asarray(result).astype(a.dtype).reshape(kept)


def _two_pass_m2(a: np.ndarray, values: np.ndarray) -> np.float64:
    """``std_var_all_cpu``: the squares about torch's mean, added in double per thread."""
    mean = np.float64(torch_sum(np, a) / np.asarray(a.size, a.dtype))
    squares = np.square(values.astype(np.float64) - mean)
    threads = get_num_threads() if values.size >= GRAIN else 1
    total = np.float64(0.0)
    for begin, end in _thread_ranges(values.size, GRAIN, threads):
        total += np.cumsum(squares[begin:end])[-1]  # one value after another
    return total


def welford_mean(a: Any, dims: tuple[int, ...] | None) -> np.ndarray | None:
    """std_mean's mean of ``a`` over ``dims`` (None: all), the dims kept as ones: Welford's
    in float64, rounded to ``a``'s dtype (a half's by way of float, as C++ converts it); None
    where it is not a float numpy array, has no values (torch's mean is then NaN), or for a
    single output of more than ``WELFORD_MAX``.

    >>> welford_mean(np.float32([[1, np.inf, 2]]), (1,))
    array([[nan]], dtype=float32)
    """
    if type(a) is not np.ndarray or a.dtype.char not in "efd" or a.size == 0:
        return None
    reduced = tuple(range(a.ndim)) if dims is None else tuple(sorted(d % a.ndim for d in dims))
    kept = tuple(1 if d in reduced else n for d, n in enumerate(a.shape))
    if math.prod(kept) == 1 and a.size > WELFORD_MAX:
        return None
    mean = welford_moments(memory_rows(a, reduced))[0].reshape(kept)
    return (mean if a.dtype.char == "d" else mean.astype(np.float32)).astype(a.dtype)


def welford_moments(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``WelfordOps``: each row's mean and sum of squared deviations in float64, its values
    taken in turn (one update per column for all rows at once; Python floats for one row).
    """
    if rows.size == rows.shape[-1]:  # one row: Python's floats are C's doubles, and quicker
        mean = m2 = 0.0
        for n, x in enumerate(rows.reshape(-1).astype(np.float64).tolist()):
            delta = x - mean
            mean = mean + delta / (n + 1)
            m2 = m2 + delta * (x - mean)
        shape = rows.shape[:-1]
        return np.full(shape, mean), np.full(shape, m2)
    mean = np.zeros(rows.shape[:-1])
    m2 = np.zeros(rows.shape[:-1])
    with np.errstate(all="ignore"):
        for n in range(rows.shape[-1]):
            x = rows[..., n].astype(np.float64)
            delta = x - mean
            mean = mean + delta / (n + 1)
            m2 = m2 + delta * (x - mean)
    return mean, m2
