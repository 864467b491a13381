"""``Normal``: the Gaussian with mean ``loc`` and standard deviation ``scale``.

>>> import minitorch
>>> Normal(0., 1.).log_prob(minitorch.tensor(0.))
tensor(-0.9189)
"""

from __future__ import annotations

import math
from numbers import Number
from typing import Any

import minitorch

from .._tensor import Size, Tensor
from . import constraints
from .distribution import Distribution
from .utils import _standard_normal, broadcast_all


class Normal(Distribution):
    """Gaussian; ``sample`` draws with ``minitorch.normal`` and ``rsample`` as
    ``loc + eps * scale``, both torch's numbers for the same seed."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc: Tensor | float, scale: Tensor | float,
                 validate_args: bool | None = None) -> None:
        self.loc, self.scale = broadcast_all(loc, scale)
        scalars = isinstance(loc, Number) and isinstance(scale, Number)
        super().__init__(Size() if scalars else self.loc.shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Normal:
        """The same Gaussians repeated over a larger ``batch_shape`` (views, no copy).

        >>> Normal(0., 1.).expand([2]).loc
        tensor([0., 0.])
        """
        return self._expanded(Normal, batch_shape, _instance, {"loc": (), "scale": ()})

    @property
    def mean(self) -> Tensor:
        return self.loc

    mode = mean

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
