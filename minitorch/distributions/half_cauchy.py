"""``HalfCauchy``: ``|X|`` for ``X ~ Cauchy(0, scale)``; its mean is infinite.

>>> import minitorch
>>> HalfCauchy(1.).cdf(minitorch.tensor(1.))
tensor(0.5000)
"""

from __future__ import annotations

import math

import minitorch

from .._tensor import Tensor
from .cauchy import Cauchy
from .folded import Folded
from .utils import own_init


@own_init
class HalfCauchy(Folded):
    """Built as torch builds it (a Cauchy through ``AbsTransform``): torch's samples for a
    seed."""

    base_family = Cauchy

    @property
    def mean(self) -> Tensor:
        return minitorch.full(self._extended_shape(), math.inf, dtype=self.scale.dtype,
                              device=self.scale.device)

    @property
    def variance(self) -> Tensor:
        return self.base_dist.variance

    def log_prob(self, value: Tensor) -> Tensor:
        """Folded's, of ``value`` read first as a tensor of the scale's dtype (torch's)."""
        if self._validate_args:
            self._validate_sample(value)
        value = minitorch.as_tensor(value, dtype=self.scale.dtype, device=self.scale.device)
        return super().log_prob(value)
