"""torch's CPU nll_loss reduction, bit for bit: the order in which it adds the picked values.

``cross_entropy(x, y).item()`` prints every digit of a float, so its last bit shows. torch's
kernel for (batch, classes) inputs (``nll_loss_out_frame`` in ATen's LossNLL.cpp) walks the
rows in order with eight accumulators, a cascade of levels of 16:

* each kept row's ``-logp[row, target] * weight`` is added to level 0;
* after a kept row whose number ``b`` is a multiple of ``16**k`` (row 0 is a multiple of
  everything), level ``j`` is added into level ``j + 1`` and reset, for each ``j < k``, lowest
  first (at most level 7); an ignored row flushes nothing;
* the loss is ``0 + level 0 + level 1 + ... + level 7``; the total weight likewise.

So a level holds runs of values that end at such rows. Each run is summed in order (a cumsum
along a padded row, numpy's accumulate never pairs) and the run sums go up one level.

>>> import numpy as np
>>> values = np.array([1, 1e8, 1, -1e8], dtype=np.float32)  # row 0 goes up to level 7
>>> float(cascade_nll_sum(values, np.arange(4))), float(np.cumsum(values)[-1])
(1.0, 0.0)
"""

from __future__ import annotations

from typing import Any

import numpy as np

LEVELS, STEP = 8, 16


def nll_sum(xp: Any, values: Any, rows: Any) -> Any:
    """``xp.sum(values)``; for numpy arrays in the order of torch's CPU kernel (see above)."""
    if type(values) is np.ndarray:
        return cascade_nll_sum(values, rows)
    return xp.sum(values)


def cascade_nll_sum(values: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The sum of ``values`` (one per kept row, in row order; ``rows``: their row numbers)
    in the order of torch's nll_loss kernel, as a 0-d array of ``values``' dtype."""
    if values.size == 1:  # a batch of one row (an RNN fed a step at a time): whatever its
        return np.zeros((), values.dtype) + _in_order(values)  # level, 0 + value + zeros
    return _cascade(values, rows)


def _cascade(values: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """:func:`cascade_nll_sum` level by level."""
    kept: list[np.ndarray] = []
    for level in range(LEVELS - 1):
        flush = rows % STEP ** (level + 1) == 0
        ends = np.flatnonzero(flush)
        kept.append(_in_order(values[ends[-1] + 1:] if ends.size else values))
        if not ends.size:
            values = values[:0]
            break
        values, rows = _run_sums(values[:ends[-1] + 1], ends), rows[ends]
    kept.append(_in_order(values))
    total = np.zeros((), values.dtype)
    for level_sum in kept:
        total = total + level_sum
    return total


def _run_sums(values: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The sum in order of each run ``values[previous end + 1 : end + 1]``."""
    starts = np.concatenate(([0], ends[:-1] + 1))
    lengths = ends + 1 - starts
    padded = np.zeros((ends.size, int(lengths.max())), values.dtype)
    padded[np.repeat(np.arange(ends.size), lengths),
           np.arange(values.size) - np.repeat(starts, lengths)] = values
    return np.cumsum(padded, axis=1)[:, -1]


def _in_order(values: np.ndarray) -> np.ndarray:
    """``0 + values[0] + values[1] + ...``, one after another."""
    if not values.size:
        return np.zeros((), values.dtype)
    return np.cumsum(np.concatenate(([0], values)).astype(values.dtype))[-1]
