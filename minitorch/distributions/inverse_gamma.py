"""``InverseGamma``: ``1 / X`` for ``X ~ Gamma(concentration, rate)``.

>>> import minitorch
>>> InverseGamma(3., 2.).mean
tensor(1.)
"""

from __future__ import annotations

from typing import Any

import minitorch

from .._tensor import Tensor
from . import constraints
from .gamma import Gamma
from .transformed_distribution import TransformedDistribution
from .transforms import PowerTransform


class InverseGamma(TransformedDistribution):
    """Built as torch builds it (a Gamma through ``PowerTransform(-1)``), so scores and
    supports are torch's; a mean (variance) only where ``concentration`` > 1 (> 2)."""

    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, concentration: Tensor | float, rate: Tensor | float,
                 validate_args: bool | None = None) -> None:
        base_dist = Gamma(concentration, rate, validate_args=validate_args)
        neg_one = -base_dist.rate.new_ones(())
        super().__init__(base_dist, PowerTransform(neg_one), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> InverseGamma:
        new = self._get_checked_instance(InverseGamma, _instance)
        return super().expand(batch_shape, _instance=new)

    @property
    def concentration(self) -> Tensor:
        return self.base_dist.concentration

    @property
    def rate(self) -> Tensor:
        return self.base_dist.rate

    @property
    def mean(self) -> Tensor:
        result = self.rate / (self.concentration - 1)
        return minitorch.where(self.concentration > 1, result, minitorch.inf)

    @property
    def mode(self) -> Tensor:
        return self.rate / (self.concentration + 1)

    @property
    def variance(self) -> Tensor:
        c = self.concentration
        result = self.rate.square() / ((c - 1).square() * (c - 2))
        return minitorch.where(c > 2, result, minitorch.inf)

    def entropy(self) -> Tensor:
        c = self.concentration
        return c + self.rate.log() + c.lgamma() - (1 + c) * c.digamma()
