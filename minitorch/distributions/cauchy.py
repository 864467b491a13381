"""``Cauchy``: the ratio of two standard normals, moved to ``loc`` and stretched by
``scale``; it has no mean and no variance.

>>> import minitorch
>>> Cauchy(0., 1.).cdf(minitorch.tensor(1.))
tensor(0.7500)
"""

from __future__ import annotations

import math
from typing import Any

import minitorch

from .._tensor import Tensor
from .loc_scale import LocScale
from .utils import own_init


@own_init
class Cauchy(LocScale):
    """``rsample`` is ``loc + cauchy_() * scale``, as torch draws it: torch's numbers for a
    seed."""

    @property
    def mean(self) -> Tensor:
        return minitorch.full(self._extended_shape(), math.nan, dtype=self.loc.dtype,
                              device=self.loc.device)

    @property
    def variance(self) -> Tensor:
        return minitorch.full(self._extended_shape(), math.inf, dtype=self.loc.dtype,
                              device=self.loc.device)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        eps = self.loc.new(self._extended_shape(sample_shape)).cauchy_()
        return self.loc + eps * self.scale

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return (-math.log(math.pi) - self.scale.log()
                - (((value - self.loc) / self.scale) ** 2).log1p())

    def cdf(self, value: Tensor) -> Tensor:
        """P(X <= value), through ``atan``.

        >>> Cauchy(0., 1.).cdf(minitorch.tensor(0.))
        tensor(0.5000)
        """
        if self._validate_args:
            self._validate_sample(value)
        return minitorch.atan((value - self.loc) / self.scale) / math.pi + 0.5

    def icdf(self, value: Tensor) -> Tensor:
        """The quantile of probability ``value``, through ``tan``.

        >>> Cauchy(1., 2.).icdf(minitorch.tensor(0.5))
        tensor(1.)
        """
        return minitorch.tan(math.pi * (value - 0.5)) * self.scale + self.loc

    def entropy(self) -> Tensor:
        return math.log(4 * math.pi) + self.scale.log()
