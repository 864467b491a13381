"""``Weibull``: lifetimes of ``scale`` and shape ``concentration``.

>>> import minitorch
>>> Weibull(1., 1.).log_prob(minitorch.tensor(1.))
tensor(-1.)
"""

from __future__ import annotations

from typing import Any

import minitorch

from .._tensor import Tensor
from . import constraints
from .exponential import Exponential
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, PowerTransform
from .utils import broadcast_all, euler_constant


class Weibull(TransformedDistribution):
    """Built as torch builds it, ``scale * E ** (1 / concentration)`` for ``E ~
    Exponential(1)``: its samples for a seed are torch's."""

    arg_constraints = {"scale": constraints.positive, "concentration": constraints.positive}
    support = constraints.positive

    def __init__(self, scale: Tensor | float, concentration: Tensor | float,
                 validate_args: bool | None = None) -> None:
        self.scale, self.concentration = broadcast_all(scale, concentration)
        self.concentration_reciprocal = self.concentration.reciprocal()
        base_dist = Exponential(minitorch.ones_like(self.scale), validate_args=validate_args)
        super().__init__(base_dist, self._transforms(), validate_args=validate_args)

    def _transforms(self) -> list:
        return [PowerTransform(self.concentration_reciprocal), AffineTransform(0, self.scale)]

    def expand(self, batch_shape: Any, _instance: Any = None) -> Weibull:
        """The same lifetimes over a larger ``batch_shape`` (views, no copy).

        >>> Weibull(1., 2.).expand([2]).concentration
        tensor([2., 2.])
        """
        new = self._get_checked_instance(Weibull, _instance)
        new.scale = self.scale.expand(batch_shape)
        new.concentration = self.concentration.expand(batch_shape)
        new.concentration_reciprocal = new.concentration.reciprocal()
        TransformedDistribution.__init__(new, self.base_dist.expand(batch_shape),
                                         new._transforms(), validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self) -> Tensor:
        return self.scale * minitorch.exp(minitorch.lgamma(1 + self.concentration_reciprocal))

    @property
    def mode(self) -> Tensor:
        return (self.scale * ((self.concentration - 1) / self.concentration)
                ** self.concentration.reciprocal())

    @property
    def variance(self) -> Tensor:
        return self.scale.pow(2) * (
            minitorch.exp(minitorch.lgamma(1 + 2 * self.concentration_reciprocal))
            - minitorch.exp(2 * minitorch.lgamma(1 + self.concentration_reciprocal)))

    def entropy(self) -> Tensor:
        return (euler_constant * (1 - self.concentration_reciprocal)
                + minitorch.log(self.scale * self.concentration_reciprocal) + 1)
