"""``CorrCholeskyTransform``: unconstrained vectors onto Cholesky factors of correlation
matrices (lower triangular, rows of unit length), for ``LKJCholesky`` and ``biject_to``.

>>> import minitorch
>>> CorrCholeskyTransform()(minitorch.zeros(1))
tensor([[1., 0.],
        [0., 1.]])
"""

from __future__ import annotations

import math
from typing import Any

import minitorch

from .._tensor import Tensor
from . import constraints
from .transforms import Transform
from .utils import tril_matrix_to_vec, vec_to_tril_matrix


class CorrCholeskyTransform(Transform):
    """A vector of ``D(D-1)/2`` reals, each through ``tanh`` into (-1, 1), fills the strict
    lower triangle row by row; each row then breaks a stick of unit squared length (its
    diagonal takes what the others left), so every row has norm 1."""

    domain = constraints.real_vector
    codomain = constraints.corr_cholesky
    bijective = True

    def _call(self, x: Tensor) -> Tensor:
        eps = minitorch.finfo(x.dtype).eps
        r = vec_to_tril_matrix(x.tanh().clamp(min=-1 + eps, max=1 - eps), diag=-1)
        left = (1 - r ** 2).sqrt().cumprod(-1)
        r = r + minitorch.eye(r.shape[-1], dtype=r.dtype, device=r.device)
        return r * minitorch.nn.functional.pad(left[..., :-1], [1, 0], value=1)

    def _inverse(self, y: Tensor) -> Tensor:
        left = minitorch.nn.functional.pad((1 - (y * y).cumsum(-1))[..., :-1], [1, 0], value=1)
        t = tril_matrix_to_vec(y, diag=-1) / tril_matrix_to_vec(left, diag=-1).sqrt()
        return (t.log1p() - t.neg().log1p()) / 2

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor, intermediates: Any = None) -> Tensor:
        left = tril_matrix_to_vec(1 - (y * y).cumsum(-1), diag=-2)
        stick_breaking = 0.5 * left.log().sum(-1)
        softplus = minitorch.nn.functional.softplus
        tanh = -2 * (x + softplus(-2 * x) - math.log(2.0)).sum(-1)
        return stick_breaking + tanh

    def forward_shape(self, shape: Any) -> Any:
        if len(shape) < 1:
            raise ValueError("Too few dimensions on input")
        n = shape[-1]
        d = round((0.25 + 2 * n) ** 0.5 + 0.5)
        if d * (d - 1) // 2 != n:
            raise ValueError("Input is not a flattened lower-diagonal number")
        return shape[:-1] + (d, d)  # noqa: RUF005 (the caller's type: tuple or Size)

    def inverse_shape(self, shape: Any) -> Any:
        if len(shape) < 2:
            raise ValueError("Too few dimensions on input")
        if shape[-2] != shape[-1]:
            raise ValueError("Input is not square")
        d = shape[-1]
        return shape[:-2] + (d * (d - 1) // 2,)  # noqa: RUF005
