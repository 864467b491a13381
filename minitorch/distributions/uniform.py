"""``Uniform``: every value in ``[low, high)`` equally likely.

>>> import minitorch
>>> Uniform(0., 2.).entropy()
tensor(0.6931)
"""

from __future__ import annotations

import math
from typing import Any

import minitorch

from .._tensor import Size, Tensor
from . import constraints
from .distribution import Distribution
from .utils import NUMBER, broadcast_all


class Uniform(Distribution):
    """``rsample`` is ``low + rand * (high - low)``: torch's numbers for the same seed."""

    has_rsample = True

    def __init__(self, low: Tensor | float, high: Tensor | float,
                 validate_args: bool | None = None) -> None:
        self.low, self.high = broadcast_all(low, high)
        scalars = isinstance(low, NUMBER) and isinstance(high, NUMBER)
        super().__init__(Size() if scalars else self.low.shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Uniform:
        """The same intervals repeated over a larger ``batch_shape`` (views, no copy).

        >>> Uniform(0., 1.).expand([2]).high
        tensor([1., 1.])
        """
        return self._expanded(Uniform, batch_shape, _instance, {"low": (), "high": ()})

    @property
    def arg_constraints(self) -> dict:  # type: ignore[override]
        return {"low": constraints.less_than(self.high),
                "high": constraints.greater_than(self.low)}

    @property
    def support(self) -> constraints.Constraint:
        return constraints.interval(self.low, self.high)

    @property
    def mean(self) -> Tensor:
        return (self.high + self.low) / 2

    @property
    def mode(self) -> Tensor:
        """nan: every value of the interval is a mode."""
        return math.nan * self.high

    @property
    def variance(self) -> Tensor:
        return (self.high - self.low).pow(2) / 12

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        rand = minitorch.rand(self._extended_shape(sample_shape), dtype=self.low.dtype)
        return self.low + rand * (self.high - self.low)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        inside = self.low.le(value).type_as(self.low) * self.high.gt(value).type_as(self.low)
        return inside.log() - (self.high - self.low).log()

    def cdf(self, value: Tensor) -> Tensor:
        """P(X <= value), clamped to ``[0, 1]``.

        >>> Uniform(0., 2.).cdf(minitorch.tensor(0.5))
        tensor(0.2500)
        """
        if self._validate_args:
            self._validate_sample(value)
        return ((value - self.low) / (self.high - self.low)).clamp(min=0, max=1)

    def icdf(self, value: Tensor) -> Tensor:
        """The quantile of probability ``value``.

        >>> Uniform(0., 2.).icdf(minitorch.tensor(0.25))
        tensor(0.5000)
        """
        return value * (self.high - self.low) + self.low

    def entropy(self) -> Tensor:
        return (self.high - self.low).log()
