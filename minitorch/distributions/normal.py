"""``Normal``: the Gaussian with mean ``loc`` and standard deviation ``scale``.

>>> import minitorch
>>> Normal(0., 1.).log_prob(minitorch.tensor(0.))
tensor(-0.9189)
"""

from __future__ import annotations

import math
from typing import Any

import minitorch

from .._tensor import Tensor
from .exp_family import ExponentialFamily
from .loc_scale import LocScale
from .utils import _standard_normal, own_init


@own_init
class Normal(LocScale, ExponentialFamily):
    """Gaussian; ``sample`` draws with ``minitorch.normal`` and ``rsample`` as
    ``loc + eps * scale``, both torch's numbers for the same seed."""

    @property
    def stddev(self) -> Tensor:
        return self.scale

    @property
    def variance(self) -> Tensor:
        return self.stddev.pow(2)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        with minitorch.no_grad():
            return minitorch.normal(self.loc.expand(shape), self.scale.expand(shape))

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        eps = _standard_normal(self._extended_shape(sample_shape), self.loc.dtype,
                               self.loc.device)
        return self.loc + eps * self.scale

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return (-((value - self.loc) ** 2) / (2 * self.scale ** 2) - self.scale.log()
                - math.log(math.sqrt(2 * math.pi)))

    def cdf(self, value: Tensor) -> Tensor:
        """P(X <= value), through ``erf``.

        >>> Normal(0., 1.).cdf(minitorch.tensor(0.))
        tensor(0.5000)
        """
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 * (1 + minitorch.erf((value - self.loc) * self.scale.reciprocal()
                                        / math.sqrt(2)))

    def icdf(self, value: Tensor) -> Tensor:
        """The quantile of probability ``value``, through ``erfinv``.

        >>> Normal(0., 1.).icdf(minitorch.tensor(0.5))
        tensor(0.)
        """
        return self.loc + self.scale * minitorch.erfinv(2 * value - 1) * math.sqrt(2)

    def entropy(self) -> Tensor:
        return 0.5 + 0.5 * math.log(2 * math.pi) + self.scale.log()
