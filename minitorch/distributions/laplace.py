"""``Laplace``: the double exponential with location ``loc`` and scale ``scale``.

>>> import minitorch
>>> Laplace(0., 1.).log_prob(minitorch.tensor(0.))
tensor(-0.6931)
"""

from __future__ import annotations

from numbers import Number
from typing import Any

import minitorch

from .._tensor import Size, Tensor
from . import constraints
from .distribution import Distribution
from .utils import broadcast_all


class Laplace(Distribution):
    """``rsample`` inverts the cdf at ``uniform_(eps - 1, 1)``, as torch draws it: torch's
    numbers for a seed."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc: Tensor | float, scale: Tensor | float,
                 validate_args: bool | None = None) -> None:
        self.loc, self.scale = broadcast_all(loc, scale)
        scalars = isinstance(loc, Number) and isinstance(scale, Number)
        super().__init__(Size() if scalars else self.loc.shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Laplace:
        """The same distributions repeated over a larger ``batch_shape`` (views, no copy).

        >>> Laplace(0., 1.).expand([2]).scale
        tensor([1., 1.])
        """
        return self._expanded(Laplace, batch_shape, _instance, {"loc": (), "scale": ()})

    @property
    def mean(self) -> Tensor:
        return self.loc

    mode = mean

    @property
    def variance(self) -> Tensor:
        return 2 * self.scale.pow(2)

    @property
    def stddev(self) -> Tensor:
        return (2 ** 0.5) * self.scale

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        finfo = minitorch.finfo(self.loc.dtype)
        u = self.loc.new(self._extended_shape(sample_shape)).uniform_(finfo.eps - 1, 1)
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
