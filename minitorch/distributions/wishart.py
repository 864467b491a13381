"""``Wishart``: the distribution of ``sum x_i x_i^T`` for ``df`` draws ``x_i`` of a zero-mean
``MultivariateNormal`` with the given covariance (or precision, or scale_tril).

>>> import minitorch
>>> Wishart(3., covariance_matrix=minitorch.eye(2)).mean
tensor([[3., 0.],
        [0., 3.]])
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import minitorch

from .._tensor import Size, Tensor
from . import constraints
from .chi2 import Chi2
from .exp_family import ExponentialFamily
from .multivariate_normal import _precision_to_scale_tril
from .utils import NUMBER, lazy_property

_log_2 = math.log(2)


def _mvdigamma(x: Tensor, p: int) -> Tensor:
    """The multivariate digamma: ``sum_i digamma(x - i/2)`` for ``i < p``."""
    if not x.gt((p - 1) / 2).all():
        raise AssertionError("Wrong domain for multivariate digamma function.")
    halves = minitorch.arange(p, dtype=x.dtype, device=x.device).div(2)
    return minitorch.digamma(x.unsqueeze(-1) - halves.expand((*x.shape, -1))).sum(-1)


def _clamp_above_eps(x: Tensor) -> Tensor:
    return x.clamp(min=minitorch.finfo(x.dtype).eps)


class Wishart(ExponentialFamily):
    """Wishart with ``df`` degrees of freedom (more than the dimension less one) and one of
    ``covariance_matrix``, ``precision_matrix``, ``scale_tril``; draws by Bartlett's
    decomposition (chi and normal entries of a triangular factor)."""

    support = constraints.positive_definite
    has_rsample = True
    _mean_carrier_measure = 0

    @property
    def arg_constraints(self) -> dict:  # type: ignore[override]
        return {"covariance_matrix": constraints.positive_definite,
                "precision_matrix": constraints.positive_definite,
                "scale_tril": constraints.lower_cholesky,
                "df": constraints.greater_than(self.event_shape[-1] - 1)}

    def __init__(self, df: Tensor | float, covariance_matrix: Tensor | None = None,
                 precision_matrix: Tensor | None = None, scale_tril: Tensor | None = None,
                 validate_args: bool | None = None) -> None:
        given = [p for p in (covariance_matrix, precision_matrix, scale_tril) if p is not None]
        if len(given) != 1:
            raise AssertionError("Exactly one of covariance_matrix or precision_matrix or "
                                 "scale_tril may be specified.")
        param = given[0]
        if param.dim() < 2:
            raise ValueError("scale_tril must be at least two-dimensional, with optional "
                             "leading batch dimensions")
        if isinstance(df, NUMBER):
            batch_shape = Size(param.shape[:-2])
            self.df = minitorch.tensor(df, dtype=param.dtype, device=param.device)
        else:
            batch_shape = minitorch.broadcast_shapes(param.shape[:-2], df.shape)
            self.df = df.expand(batch_shape)
        event_shape = param.shape[-2:]
        p = event_shape[-1]
        if self.df.le(p - 1).any():
            raise ValueError(f"Value of df={df} expected to be greater than ndim - 1 = {p - 1}.")
        name = ("scale_tril" if scale_tril is not None else
                "covariance_matrix" if covariance_matrix is not None else "precision_matrix")
        setattr(self, name, param.expand((*batch_shape, -1, -1)))
        if self.df.lt(p).any():
            warnings.warn("Low df values detected. Singular samples are highly likely to occur "
                          "for ndim - 1 < df < ndim.", stacklevel=2)
        super().__init__(batch_shape, event_shape, validate_args=validate_args)
        self._batch_dims = [-(x + 1) for x in range(len(self._batch_shape))]
        if scale_tril is not None:
            self._unbroadcasted_scale_tril = scale_tril
        elif covariance_matrix is not None:
            self._unbroadcasted_scale_tril = minitorch.linalg.cholesky(covariance_matrix)
        else:
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(precision_matrix)
        self._dist_chi2 = self._chi2(self.df, batch_shape)

    def _chi2(self, df: Tensor, batch_shape: Size) -> Chi2:
        """The diagonal of Bartlett's factor: square roots of chi2 with ``df - i`` dof."""
        tril = self._unbroadcasted_scale_tril
        offsets = minitorch.arange(self._event_shape[-1], dtype=tril.dtype, device=tril.device)
        return Chi2(df=df.unsqueeze(-1) - offsets.expand((*batch_shape, -1)))

    def expand(self, batch_shape: Any, _instance: Any = None) -> Wishart:
        """The same distributions repeated over a larger ``batch_shape`` (views, no copy).

        >>> Wishart(3., covariance_matrix=minitorch.eye(2)).expand([4]).batch_shape
        torch.Size([4])
        """
        new = self._get_checked_instance(Wishart, _instance)
        batch_shape = Size(batch_shape)
        cov_shape = (*batch_shape, *self.event_shape)
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril.expand(cov_shape)
        new.df = self.df.expand(batch_shape)
        new._batch_dims = [-(x + 1) for x in range(len(batch_shape))]
        for name in ("covariance_matrix", "scale_tril", "precision_matrix"):
            if name in self.__dict__:
                setattr(new, name, self.__dict__[name].expand(cov_shape))
        ExponentialFamily.__init__(new, Size(batch_shape), self.event_shape, validate_args=False)
        new._dist_chi2 = new._chi2(new.df, batch_shape)
        new._validate_args = self._validate_args
        return new

    @lazy_property
    def scale_tril(self) -> Tensor:
        return self._unbroadcasted_scale_tril.expand(self._batch_shape + self._event_shape)

    @lazy_property
    def covariance_matrix(self) -> Tensor:
        tril = self._unbroadcasted_scale_tril
        return (tril @ tril.transpose(-2, -1)).expand(self._batch_shape + self._event_shape)

    @lazy_property
    def precision_matrix(self) -> Tensor:
        tril = self._unbroadcasted_scale_tril
        identity = minitorch.eye(self._event_shape[-1], device=tril.device, dtype=tril.dtype)
        return minitorch.cholesky_solve(identity, tril).expand(self._batch_shape
                                                               + self._event_shape)

    @property
    def mean(self) -> Tensor:
        return self.df.view((*self._batch_shape, 1, 1)) * self.covariance_matrix

    @property
    def mode(self) -> Tensor:
        factor = self.df - self.covariance_matrix.shape[-1] - 1
        factor = minitorch.where(factor <= 0, minitorch.nan, factor)
        return factor.view((*self._batch_shape, 1, 1)) * self.covariance_matrix

    @property
    def variance(self) -> Tensor:
        v = self.covariance_matrix
        diag = v.diagonal(dim1=-2, dim2=-1)
        return self.df.view((*self._batch_shape, 1, 1)) * (
            v.pow(2) + minitorch.einsum("...i,...j->...ij", diag, diag))

    def _bartlett_sampling(self, sample_shape: Any = ()) -> Tensor:
        p = self._event_shape[-1]
        noise = _clamp_above_eps(self._dist_chi2.rsample(sample_shape).sqrt()).diag_embed(
            dim1=-2, dim2=-1)
        i, j = minitorch.tril_indices(p, p, offset=-1)
        noise[..., i, j] = minitorch.randn((*Size(sample_shape), *self._batch_shape,
                                            p * (p - 1) // 2),
                                           dtype=noise.dtype, device=noise.device)
        chol = self._unbroadcasted_scale_tril @ noise
        return chol @ chol.transpose(-2, -1)

    def rsample(self, sample_shape: Any = (), max_try_correction: int | None = None) -> Tensor:
        """Bartlett draws; as torch's, the ones its check flags (which are those the support
        accepts) are drawn again, up to ``max_try_correction`` times, with a warning."""
        max_try_correction = 10 if max_try_correction is None else max_try_correction
        sample_shape = Size(sample_shape)
        sample = self._bartlett_sampling(sample_shape)
        flagged = self.support.check(sample)
        if self._batch_shape:
            flagged = flagged.amax(self._batch_dims)
        if flagged.any():
            warnings.warn("Singular sample detected.", stacklevel=2)
            for _ in range(max_try_correction):
                redraw = self._bartlett_sampling(flagged[flagged].shape)
                sample[flagged] = redraw
                flagged_new = ~self.support.check(redraw)
                if self._batch_shape:
                    flagged_new = flagged_new.amax(self._batch_dims)
                flagged[flagged.clone()] = flagged_new
                if not flagged.any():
                    break
        return sample

    def _log_det_scale(self) -> Tensor:
        p = self._event_shape[-1]
        tril_diag = self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1)
        return p * _log_2 / 2 + tril_diag.log().sum(-1)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        nu, p = self.df, self._event_shape[-1]
        log_prob = (-nu * self._log_det_scale() - minitorch.mvlgamma(nu / 2, p=p)
                    + (nu - p - 1) / 2 * minitorch.linalg.slogdet(value).logabsdet)
        trace = minitorch.cholesky_solve(value, self._unbroadcasted_scale_tril).diagonal(
            dim1=-2, dim2=-1).sum(dim=-1)
        return log_prob - trace / 2

    def entropy(self) -> Tensor:
        nu, p = self.df, self._event_shape[-1]
        return ((p + 1) * self._log_det_scale() + minitorch.mvlgamma(nu / 2, p=p)
                - (nu - p - 1) / 2 * _mvdigamma(nu / 2, p=p) + nu * p / 2)

    @property
    def _natural_params(self) -> tuple[Tensor, Tensor]:
        p = self._event_shape[-1]
        return -self.precision_matrix / 2, (self.df - p - 1) / 2

    def _log_normalizer(self, x: Tensor, y: Tensor) -> Tensor:
        p = self._event_shape[-1]
        return (y + (p + 1) / 2) * (-minitorch.linalg.slogdet(-2 * x).logabsdet + _log_2 * p) \
            + minitorch.mvlgamma(y + (p + 1) / 2, p=p)
