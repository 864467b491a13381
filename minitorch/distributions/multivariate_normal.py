"""``MultivariateNormal``: the Gaussian of vectors with mean ``loc`` and a covariance given as
the covariance matrix, the precision matrix or its lower Cholesky factor ``scale_tril``; every
computation goes through that factor, as torch's does.

>>> import minitorch
>>> d = MultivariateNormal(minitorch.zeros(2), minitorch.eye(2))
>>> d.log_prob(minitorch.zeros(2))
tensor(-1.8379)
"""

from __future__ import annotations

import math
from typing import Any

import minitorch

from .._tensor import Size, Tensor
from . import constraints
from .distribution import Distribution
from .utils import _standard_normal, lazy_property

__all__ = ["MultivariateNormal"]


def _batch_mv(bmat: Tensor, bvec: Tensor) -> Tensor:
    """Matrix-vector products of batches that broadcast."""
    return minitorch.matmul(bmat, bvec.unsqueeze(-1)).squeeze(-1)


def _batch_mahalanobis(bL: Tensor, bx: Tensor) -> Tensor:
    """``xᵀ (L Lᵀ)⁻¹ x`` for batches of factors ``bL`` broadcasting to the vectors ``bx``,
    with torch's reshapes, so one triangular solve serves every vector of a factor."""
    n = bx.size(-1)
    bx_batch_shape = bx.shape[:-1]
    bx_batch_dims = len(bx_batch_shape)
    bL_batch_dims = bL.dim() - 2
    outer = bx_batch_dims - bL_batch_dims
    old_batch_dims = outer + bL_batch_dims
    new_batch_dims = outer + 2 * bL_batch_dims
    new_shape = tuple(bx.shape[:outer])
    for sL, sx in zip(bL.shape[:-2], bx.shape[outer:-1]):
        new_shape += (sx // sL, sL)
    bx = bx.reshape((*new_shape, n))
    permute = (list(range(outer)) + list(range(outer, new_batch_dims, 2))
               + list(range(outer + 1, new_batch_dims, 2)) + [new_batch_dims])
    bx = bx.permute(permute)
    flat_L = bL.reshape(-1, n, n)
    flat_x = bx.reshape(-1, flat_L.size(0), n)
    M = minitorch.linalg.solve_triangular(flat_L, flat_x.permute(1, 2, 0),
                                          upper=False).pow(2).sum(-2).t()
    permuted = M.reshape(bx.shape[:-1])
    inverse = list(range(outer))
    for i in range(bL_batch_dims):
        inverse += [outer + i, old_batch_dims + i]
    return permuted.permute(inverse).reshape(bx_batch_shape)


def _precision_to_scale_tril(P: Tensor) -> Tensor:
    """The lower Cholesky factor of ``P⁻¹`` without inverting ``P``: the factor of ``P``
    with rows and columns reversed, inverted by a triangular solve."""
    Lf = minitorch.linalg.cholesky(minitorch.flip(P, (-2, -1)))
    L_inv = minitorch.transpose(minitorch.flip(Lf, (-2, -1)), -2, -1)
    Id = minitorch.eye(P.shape[-1], dtype=P.dtype, device=P.device)
    return minitorch.linalg.solve_triangular(L_inv, Id, upper=False)


class MultivariateNormal(Distribution):
    """Gaussian of vectors; exactly one of ``covariance_matrix``, ``precision_matrix`` and
    ``scale_tril`` (lower triangular, positive diagonal) gives its covariance. ``rsample`` is
    ``loc + L eps``, torch's numbers for the same seed."""

    arg_constraints = {"loc": constraints.real_vector,
                       "covariance_matrix": constraints.positive_definite,
                       "precision_matrix": constraints.positive_definite,
                       "scale_tril": constraints.lower_cholesky}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc: Tensor, covariance_matrix: Tensor | None = None,
                 precision_matrix: Tensor | None = None, scale_tril: Tensor | None = None,
                 validate_args: bool | None = None) -> None:
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        given = {"scale_tril": scale_tril, "covariance_matrix": covariance_matrix,
                 "precision_matrix": precision_matrix}
        given = {k: v for k, v in given.items() if v is not None}
        if len(given) != 1:
            raise ValueError("Exactly one of covariance_matrix or precision_matrix or "
                             "scale_tril may be specified.")
        ((name, matrix),) = given.items()
        if matrix.dim() < 2:
            label = "scale_tril matrix" if name == "scale_tril" else name
            raise ValueError(f"{label} must be at least two-dimensional, with optional "
                             "leading batch dimensions")
        batch_shape = minitorch.broadcast_shapes(matrix.shape[:-2], loc.shape[:-1])
        setattr(self, name, matrix.expand((*batch_shape, -1, -1)))
        self.loc = loc.expand((*batch_shape, -1))
        super().__init__(batch_shape, self.loc.shape[-1:], validate_args=validate_args)
        if name == "scale_tril":
            self._unbroadcasted_scale_tril = matrix
        elif name == "covariance_matrix":
            self._unbroadcasted_scale_tril = minitorch.linalg.cholesky(matrix)
        else:
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(matrix)

    def expand(self, batch_shape: Any, _instance: Any = None) -> MultivariateNormal:
        """The same distribution repeated over a larger ``batch_shape`` (no copy).

        >>> MultivariateNormal(minitorch.zeros(2), minitorch.eye(2)).expand([3]).batch_shape
        torch.Size([3])
        """
        event, matrix = tuple(self.event_shape), tuple(self.event_shape) * 2
        return self._expanded(MultivariateNormal, batch_shape, _instance,
                              {"loc": event, "covariance_matrix": matrix, "scale_tril": matrix,
                               "precision_matrix": matrix},
                              _unbroadcasted_scale_tril=self._unbroadcasted_scale_tril)

    def _matrix_shape(self) -> Size:
        return self._batch_shape + self._event_shape + self._event_shape

    @lazy_property
    def scale_tril(self) -> Tensor:
        return self._unbroadcasted_scale_tril.expand(self._matrix_shape())

    @lazy_property
    def covariance_matrix(self) -> Tensor:
        L = self._unbroadcasted_scale_tril
        return minitorch.matmul(L, L.mT).expand(self._matrix_shape())

    @lazy_property
    def precision_matrix(self) -> Tensor:
        return minitorch.cholesky_inverse(self._unbroadcasted_scale_tril).expand(
            self._matrix_shape())

    @property
    def mean(self) -> Tensor:
        return self.loc

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def variance(self) -> Tensor:
        return self._unbroadcasted_scale_tril.pow(2).sum(-1).expand(
            self._batch_shape + self._event_shape)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        eps = _standard_normal(self._extended_shape(sample_shape), self.loc.dtype,
                               self.loc.device)
        return self.loc + _batch_mv(self._unbroadcasted_scale_tril, eps)

    def _half_log_det(self) -> Tensor:
        return self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        M = _batch_mahalanobis(self._unbroadcasted_scale_tril, value - self.loc)
        return (-0.5 * (self._event_shape[0] * math.log(2 * math.pi) + M)
                - self._half_log_det())

    def entropy(self) -> Tensor:
        H = 0.5 * self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + self._half_log_det()
        return H if len(self._batch_shape) == 0 else H.expand(self._batch_shape)
