"""``ContinuousBernoulli``: the continuous relaxation on [0, 1] of a coin of ``probs``
(Loaiza-Ganem and Cunningham, 2019), with its normalising constant.

>>> import minitorch
>>> ContinuousBernoulli(0.5).log_prob(minitorch.tensor(0.3))
tensor(0.)
"""

from __future__ import annotations

import math
from typing import Any

import minitorch
from minitorch.nn.functional import binary_cross_entropy_with_logits

from .._tensor import Size, Tensor
from . import constraints
from .coin import Coin
from .exp_family import ExponentialFamily
from .utils import broadcast_all, clamp_probs, lazy_property, logits_to_probs


class ContinuousBernoulli(Coin, ExponentialFamily):
    """``rsample`` is ``icdf(rand)``, as torch draws it: torch's numbers for a seed. Near
    ``probs = 0.5`` (between ``lims``) the formulas switch to Taylor expansions, as torch's."""

    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, probs: Tensor | float | None = None,
                 logits: Tensor | float | None = None,
                 lims: tuple[float, float] = (0.499, 0.501),
                 validate_args: bool | None = None) -> None:
        if probs is not None and logits is None:
            (probs,) = broadcast_all(probs)
            if validate_args is not None and not bool(
                    constraints.unit_interval.check(probs).all()):
                raise ValueError("The parameter probs has invalid values")
            probs = clamp_probs(probs)
        self._lims = lims
        super().__init__(probs, logits, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> ContinuousBernoulli:
        """The same laws over a larger ``batch_shape`` (views, no copy).

        >>> ContinuousBernoulli(0.3).expand([2]).probs
        tensor([0.3000, 0.3000])
        """
        new = super().expand(batch_shape, _instance)
        new._lims = self._lims
        return new

    @lazy_property
    def probs(self) -> Tensor:
        return clamp_probs(logits_to_probs(self.logits, is_binary=True))

    @property
    def param_shape(self) -> Size:
        return self._param.shape

    def _outside_unstable_region(self) -> Tensor:
        return minitorch.max(minitorch.le(self.probs, self._lims[0]),
                             minitorch.gt(self.probs, self._lims[1]))

    def _cut_probs(self) -> Tensor:
        return minitorch.where(self._outside_unstable_region(), self.probs,
                               self._lims[0] * minitorch.ones_like(self.probs))

    def _cont_bern_log_norm(self) -> Tensor:
        """The log normalising constant, by its Taylor expansion near ``probs = 0.5``."""
        cut = self._cut_probs()
        below_half = minitorch.where(minitorch.le(cut, 0.5), cut, minitorch.zeros_like(cut))
        above_half = minitorch.where(minitorch.ge(cut, 0.5), cut, minitorch.ones_like(cut))
        log_norm = minitorch.log(minitorch.abs(minitorch.log1p(-cut) - minitorch.log(cut))) \
            - minitorch.where(minitorch.le(cut, 0.5), minitorch.log1p(-2.0 * below_half),
                              minitorch.log(2.0 * above_half - 1.0))
        x = minitorch.pow(self.probs - 0.5, 2)
        taylor = math.log(2.0) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return minitorch.where(self._outside_unstable_region(), log_norm, taylor)

    @property
    def mean(self) -> Tensor:
        cut = self._cut_probs()
        mus = cut / (2.0 * cut - 1.0) + 1.0 / (minitorch.log1p(-cut) - minitorch.log(cut))
        x = self.probs - 0.5
        taylor = 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * minitorch.pow(x, 2)) * x
        return minitorch.where(self._outside_unstable_region(), mus, taylor)

    @property
    def variance(self) -> Tensor:
        cut = self._cut_probs()
        variances = cut * (cut - 1.0) / minitorch.pow(1.0 - 2.0 * cut, 2) \
            + 1.0 / minitorch.pow(minitorch.log1p(-cut) - minitorch.log(cut), 2)
        x = minitorch.pow(self.probs - 0.5, 2)
        taylor = 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x
        return minitorch.where(self._outside_unstable_region(), variances, taylor)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        u = minitorch.rand(self._extended_shape(sample_shape), dtype=self.probs.dtype,
                           device=self.probs.device)
        return self.icdf(u)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return (-binary_cross_entropy_with_logits(logits, value, reduction="none")
                + self._cont_bern_log_norm())

    def cdf(self, value: Tensor) -> Tensor:
        """P(X <= value), ``value`` itself in the unstable region.

        >>> ContinuousBernoulli(0.5).cdf(minitorch.tensor(0.3))
        tensor(0.3000)
        """
        if self._validate_args:
            self._validate_sample(value)
        cut = self._cut_probs()
        cdfs = (minitorch.pow(cut, value) * minitorch.pow(1.0 - cut, 1.0 - value) + cut - 1.0) \
            / (2.0 * cut - 1.0)
        unbounded = minitorch.where(self._outside_unstable_region(), cdfs, value)
        return minitorch.where(minitorch.le(value, 0.0), minitorch.zeros_like(value),
                               minitorch.where(minitorch.ge(value, 1.0),
                                               minitorch.ones_like(value), unbounded))

    def icdf(self, value: Tensor) -> Tensor:
        """The quantile of probability ``value``.

        >>> ContinuousBernoulli(0.5).icdf(minitorch.tensor(0.3))
        tensor(0.3000)
        """
        cut = self._cut_probs()
        return minitorch.where(
            self._outside_unstable_region(),
            (minitorch.log1p(-cut + value * (2.0 * cut - 1.0)) - minitorch.log1p(-cut))
            / (minitorch.log(cut) - minitorch.log1p(-cut)),
            value)

    def entropy(self) -> Tensor:
        log_probs0, log_probs1 = minitorch.log1p(-self.probs), minitorch.log(self.probs)
        return self.mean * (log_probs0 - log_probs1) - self._cont_bern_log_norm() - log_probs0
