"""torch's CPU group norm forward, bit for bit (``GroupNormKernelImplInternal``).

Each (sample, group) is a row of ``C / group * HxW`` values whose mean and variance come from
layer norm's ``RowwiseMoments`` (:func:`~._layer_norm_order.row_moments`); the reciprocal
standard deviation is taken in float64 (``eps`` is a double) and rounded back. Without
weight and bias the output is ``(x - mean) * rstd``; with either, each channel has
``scale = rstd * weight`` and ``shift = -scale * mean + bias`` (fused), and the output is
``x * scale + shift`` (fused), as compiled.

>>> out = forward(np.array([[1.0, 3.0, 0.0, 4.0]], np.float32), None, None, 2, 1e-5)
>>> out.tolist()
[[-0.9999949932098389, 0.9999949932098389, -0.9999987483024597, 0.9999987483024597]]
"""

from __future__ import annotations

import numpy as np

from ._fused import multiply_add
from ._layer_norm_order import row_moments

__all__ = ["forward"]


def forward(x: np.ndarray, weight: np.ndarray | None, bias: np.ndarray | None, group: int,
            eps: float) -> np.ndarray:
    """The group norm of ``x`` (N, C, *spatial) in ``group`` groups, as torch's CPU kernel."""
    n, c = x.shape[:2]
    rows = x.reshape(n * group, -1)
    mean, var = row_moments(rows)
    rstd = (1.0 / np.sqrt(np.maximum(var, 0).astype(np.float64) + eps)).astype(x.dtype)
    if weight is None and bias is None:
        return ((rows - mean[:, None]) * rstd[:, None]).reshape(x.shape)
    per_group = (n, group, 1, 1)
    grouped = x.reshape(n, group, c // group, -1)
    gamma = np.ones(c, x.dtype) if weight is None else weight
    beta = np.zeros(c, x.dtype) if bias is None else bias
    scale = rstd.reshape(per_group) * gamma.reshape(1, group, -1, 1)
    shift = multiply_add(np, -scale, mean.reshape(per_group), beta.reshape(1, group, -1, 1))
    return multiply_add(np, grouped, scale, shift).reshape(x.shape)
