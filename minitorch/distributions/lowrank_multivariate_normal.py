"""``LowRankMultivariateNormal``: a Gaussian whose covariance is ``W Wᵀ + diag(D)`` for a
tall ``cov_factor`` ``W`` and a positive ``cov_diag`` ``D``, scored through the small
capacitance matrix ``I + Wᵀ D⁻¹ W`` (Woodbury) instead of the full covariance.

>>> import minitorch
>>> m = LowRankMultivariateNormal(minitorch.zeros(2), minitorch.zeros(2, 1), minitorch.ones(2))
>>> m.log_prob(minitorch.zeros(2))
tensor(-1.8379)
"""

from __future__ import annotations

import math
from typing import Any

import minitorch

from .._tensor import Size, Tensor
from . import constraints
from .distribution import Distribution
from .multivariate_normal import _batch_mahalanobis, _batch_mv
from .utils import _standard_normal, lazy_property


def _plus_identity(k: Tensor) -> Tensor:
    """``k + I`` for a batch of square matrices (torch adds 1 to the diagonal in place)."""
    return k + minitorch.eye(k.shape[-1], dtype=k.dtype, device=k.device)


def _capacitance_tril(w: Tensor, d: Tensor) -> Tensor:
    """The Cholesky factor of ``I + Wᵀ D⁻¹ W``."""
    return minitorch.linalg.cholesky(_plus_identity(minitorch.matmul(w.mT / d.unsqueeze(-2), w)))


def _lowrank_logdet(w: Tensor, d: Tensor, capacitance_tril: Tensor) -> Tensor:
    """``log |W Wᵀ + D| = log |C| + log |D|`` (the matrix determinant lemma)."""
    return 2 * capacitance_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1) + d.log().sum(-1)


def _lowrank_mahalanobis(w: Tensor, d: Tensor, x: Tensor, capacitance_tril: Tensor) -> Tensor:
    """``xᵀ (W Wᵀ + D)⁻¹ x`` through Woodbury's identity."""
    wt_dinv_x = _batch_mv(w.mT / d.unsqueeze(-2), x)
    return (x.pow(2) / d).sum(-1) - _batch_mahalanobis(capacitance_tril, wt_dinv_x)


class LowRankMultivariateNormal(Distribution):
    """``rsample`` is ``loc + W eps_W + sqrt(D) eps_D``, the two normals drawn in torch's
    order: torch's numbers for a seed."""

    arg_constraints = {"loc": constraints.real_vector,
                       "cov_factor": constraints.independent(constraints.real, 2),
                       "cov_diag": constraints.independent(constraints.positive, 1)}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc: Tensor, cov_factor: Tensor, cov_diag: Tensor,
                 validate_args: bool | None = None) -> None:
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        event_shape = loc.shape[-1:]
        if cov_factor.dim() < 2:
            raise ValueError("cov_factor must be at least two-dimensional, with optional "
                             "leading batch dimensions")
        if cov_factor.shape[-2:-1] != event_shape:
            raise ValueError(f"cov_factor must be a batch of matrices with shape "
                             f"{event_shape[0]} x m")
        if cov_diag.shape[-1:] != event_shape:
            raise ValueError(f"cov_diag must be a batch of vectors with shape {event_shape}")
        try:
            loc_, self.cov_factor, cov_diag_ = minitorch.broadcast_tensors(
                loc.unsqueeze(-1), cov_factor, cov_diag.unsqueeze(-1))
        except RuntimeError as e:  # torch's contract: a ValueError naming the three shapes
            raise ValueError(f"Incompatible batch shapes: loc {loc.shape}, cov_factor "
                             f"{cov_factor.shape}, cov_diag {cov_diag.shape}") from e
        self.loc, self.cov_diag = loc_[..., 0], cov_diag_[..., 0]
        self._unbroadcasted_cov_factor = cov_factor
        self._unbroadcasted_cov_diag = cov_diag
        self._capacitance_tril = _capacitance_tril(cov_factor, cov_diag)
        super().__init__(self.loc.shape[:-1], event_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> LowRankMultivariateNormal:
        """The same Gaussians over a larger ``batch_shape`` (views, no copy).

        >>> m = LowRankMultivariateNormal(minitorch.zeros(2), minitorch.ones(2, 1),
        ...                               minitorch.ones(2))
        >>> m.expand([3]).loc.shape
        torch.Size([3, 2])
        """
        new = self._get_checked_instance(LowRankMultivariateNormal, _instance)
        loc_shape = Size(batch_shape) + self.event_shape
        new.loc, new.cov_diag = self.loc.expand(loc_shape), self.cov_diag.expand(loc_shape)
        new.cov_factor = self.cov_factor.expand(loc_shape + self.cov_factor.shape[-1:])
        for name in ("_unbroadcasted_cov_factor", "_unbroadcasted_cov_diag",
                     "_capacitance_tril"):
            setattr(new, name, getattr(self, name))
        Distribution.__init__(new, Size(batch_shape), self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self) -> Tensor:
        return self.loc

    mode = mean

    def _matrix(self, m: Tensor) -> Tensor:
        return m.expand(self._batch_shape + self._event_shape + self._event_shape)

    @lazy_property
    def variance(self) -> Tensor:
        return (self._unbroadcasted_cov_factor.pow(2).sum(-1)
                + self._unbroadcasted_cov_diag).expand(self._batch_shape + self._event_shape)

    @lazy_property
    def scale_tril(self) -> Tensor:
        """The lower Cholesky factor of the covariance: ``sqrt(D) chol(I + D^-1/2 W Wᵀ D^-1/2)``."""
        diag_sqrt = self._unbroadcasted_cov_diag.sqrt().unsqueeze(-1)
        dinvsqrt_w = self._unbroadcasted_cov_factor / diag_sqrt
        k = _plus_identity(minitorch.matmul(dinvsqrt_w, dinvsqrt_w.mT))
        return self._matrix(diag_sqrt * minitorch.linalg.cholesky(k))

    @lazy_property
    def covariance_matrix(self) -> Tensor:
        w = self._unbroadcasted_cov_factor
        return self._matrix(minitorch.matmul(w, w.mT)
                            + minitorch.diag_embed(self._unbroadcasted_cov_diag))

    @lazy_property
    def precision_matrix(self) -> Tensor:
        """``D⁻¹ - Aᵀ A`` for ``A = C⁻¹ Wᵀ D⁻¹`` (Woodbury)."""
        wt_dinv = self._unbroadcasted_cov_factor.mT / self._unbroadcasted_cov_diag.unsqueeze(-2)
        a = minitorch.linalg.solve_triangular(self._capacitance_tril, wt_dinv, upper=False)
        return self._matrix(minitorch.diag_embed(self._unbroadcasted_cov_diag.reciprocal())
                            - a.mT @ a)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        eps_w = _standard_normal(shape[:-1] + self.cov_factor.shape[-1:], self.loc.dtype,
                                 self.loc.device)
        eps_d = _standard_normal(shape, self.loc.dtype, self.loc.device)
        return (self.loc + _batch_mv(self._unbroadcasted_cov_factor, eps_w)
                + self._unbroadcasted_cov_diag.sqrt() * eps_d)

    def _logdet(self) -> Tensor:
        return _lowrank_logdet(self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag,
                               self._capacitance_tril)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        m = _lowrank_mahalanobis(self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag,
                                 value - self.loc, self._capacitance_tril)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + self._logdet() + m)

    def entropy(self) -> Tensor:
        h = 0.5 * (self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + self._logdet())
        return h if len(self._batch_shape) == 0 else h.expand(self._batch_shape)
