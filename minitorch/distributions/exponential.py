"""``Exponential``: waiting times with ``rate`` (mean ``1 / rate``).

>>> import minitorch
>>> Exponential(minitorch.tensor(2.)).log_prob(minitorch.tensor(1.))
tensor(-1.3069)
"""

from __future__ import annotations

from typing import Any

import minitorch

from .._tensor import Tensor
from . import constraints
from .exp_family import ExponentialFamily
from .rate import RateFamily
from .utils import own_init


@own_init
class Exponential(RateFamily, ExponentialFamily):
    """``rsample`` is ``exponential_() / rate``, as torch draws it: torch's numbers for a seed."""

    arg_constraints = {"rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    @property
    def mean(self) -> Tensor:
        return self.rate.reciprocal()

    @property
    def mode(self) -> Tensor:
        return minitorch.zeros_like(self.rate)

    @property
    def stddev(self) -> Tensor:
        return self.rate.reciprocal()

    @property
    def variance(self) -> Tensor:
        return self.rate.pow(-2)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        return self.rate.new(self._extended_shape(sample_shape)).exponential_() / self.rate

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return self.rate.log() - self.rate * value

    def cdf(self, value: Tensor) -> Tensor:
        """P(X <= value).

        >>> Exponential(1.).cdf(minitorch.tensor(0.))
        tensor(0.)
        """
        if self._validate_args:
            self._validate_sample(value)
        return 1 - minitorch.exp(-self.rate * value)

    def icdf(self, value: Tensor) -> Tensor:
        """The quantile of probability ``value``.

        >>> Exponential(1.).icdf(minitorch.tensor(0.))
        tensor(0.)
        """
        return -minitorch.log1p(-value) / self.rate

    def entropy(self) -> Tensor:
        return 1.0 - minitorch.log(self.rate)
