"""``Folded``: what a half distribution shares (HalfNormal, HalfCauchy): ``|X|`` for ``X``
of a family symmetric about 0 with a ``scale``, scored as twice the base on ``[0, inf)``.

>>> from minitorch.distributions import HalfNormal
>>> HalfNormal(1.).expand([2]).scale
tensor([1., 1.])
"""

from __future__ import annotations

import math
from typing import Any

import minitorch

from .._tensor import Tensor
from . import constraints
from .transformed_distribution import TransformedDistribution
from .transforms import AbsTransform


class Folded(TransformedDistribution):
    """``|X|`` for ``X ~ base_family(0, scale)``; a subclass names its ``base_family``."""

    arg_constraints = {"scale": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    base_family: type

    def __init__(self, scale: Tensor | float, validate_args: bool | None = None) -> None:
        base_dist = self.base_family(0, scale, validate_args=False)
        super().__init__(base_dist, AbsTransform(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Any:
        """The same distributions repeated over a larger ``batch_shape``.

        >>> from minitorch.distributions import HalfCauchy
        >>> HalfCauchy(2.).expand([2]).scale
        tensor([2., 2.])
        """
        family = next(c for c in type(self).__mro__ if Folded in c.__bases__)
        new = self._get_checked_instance(family, _instance)
        return super().expand(batch_shape, _instance=new)

    @property
    def scale(self) -> Tensor:
        return self.base_dist.scale

    @property
    def mode(self) -> Tensor:
        return minitorch.zeros_like(self.scale)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        log_prob = self.base_dist.log_prob(value) + math.log(2)
        return minitorch.where(value >= 0, log_prob, -math.inf)

    def cdf(self, value: Tensor) -> Tensor:
        """P(X <= value): twice the base's mass between 0 and ``value``.

        >>> from minitorch.distributions import HalfNormal
        >>> HalfNormal(1.).cdf(minitorch.tensor(0.))
        tensor(0.)
        """
        if self._validate_args:
            self._validate_sample(value)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, prob: Tensor) -> Tensor:
        """The quantile of probability ``prob``: the base's of ``(prob + 1) / 2``.

        >>> from minitorch.distributions import HalfNormal
        >>> HalfNormal(1.).icdf(minitorch.tensor(0.))
        tensor(0.)
        """
        return self.base_dist.icdf((prob + 1) / 2)

    def entropy(self) -> Tensor:
        return self.base_dist.entropy() - math.log(2)
