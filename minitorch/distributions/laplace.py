"""``Laplace``: the double exponential with location ``loc`` and scale ``scale``.

>>> import minitorch
>>> Laplace(0., 1.).log_prob(minitorch.tensor(0.))
tensor(-0.6931)
"""

from __future__ import annotations

from typing import Any

import minitorch

from .._tensor import Tensor
from .loc_scale import LocScale
from .utils import own_init


@own_init
class Laplace(LocScale):
    """``rsample`` inverts the cdf at ``uniform_(eps - 1, 1)``, as torch draws it: torch's
    numbers for a seed."""

    @property
    def variance(self) -> Tensor:
        return 2 * self.scale.pow(2)

    @property
    def stddev(self) -> Tensor:
        return (2 ** 0.5) * self.scale

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        finfo = minitorch.finfo(self.loc.dtype)
        u = self.loc.new(shape).uniform_(finfo.eps - 1, 1)
        return self.loc - self.scale * u.sign() * minitorch.log1p(-u.abs())

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return -minitorch.log(2 * self.scale) - minitorch.abs(value - self.loc) / self.scale

    def cdf(self, value: Tensor) -> Tensor:
        """P(X <= value).

        >>> Laplace(0., 1.).cdf(minitorch.tensor(0.))
        tensor(0.5000)
        """
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 - 0.5 * (value - self.loc).sign() * minitorch.expm1(
            -(value - self.loc).abs() / self.scale)

    def icdf(self, value: Tensor) -> Tensor:
        """The quantile of probability ``value``.

        >>> Laplace(0., 1.).icdf(minitorch.tensor(0.5))
        tensor(0.)
        """
        term = value - 0.5
        return self.loc - self.scale * term.sign() * minitorch.log1p(-2 * term.abs())

    def entropy(self) -> Tensor:
        return 1 + minitorch.log(2 * self.scale)
