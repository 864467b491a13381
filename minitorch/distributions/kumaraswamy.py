"""``Kumaraswamy``: a Beta-like law on (0, 1) with a closed-form cdf, of concentrations
``concentration1`` (a) and ``concentration0`` (b).

>>> import minitorch
>>> Kumaraswamy(1., 1.).log_prob(minitorch.tensor(0.5))
tensor(0.)
"""

from __future__ import annotations

import math
from typing import Any

import minitorch

from .._tensor import Tensor
from . import constraints
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, PowerTransform
from .uniform import Uniform
from .utils import broadcast_all, euler_constant


def _moments(a: Tensor, b: Tensor, n: int) -> Tensor:
    """The ``n``-th moment, ``b B(1 + n/a, b)``, through ``lgamma``."""
    arg1 = 1 + n / a
    return b * minitorch.exp(minitorch.lgamma(arg1) + minitorch.lgamma(b)
                             - minitorch.lgamma(arg1 + b))


class Kumaraswamy(TransformedDistribution):
    """Built as torch builds it, ``(1 - u ** (1/b)) ** (1/a)`` for ``u`` uniform: its samples
    for a seed are torch's."""

    arg_constraints = {"concentration1": constraints.positive,
                       "concentration0": constraints.positive}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1: Tensor | float, concentration0: Tensor | float,
                 validate_args: bool | None = None) -> None:
        self.concentration1, self.concentration0 = broadcast_all(concentration1, concentration0)
        base_dist = Uniform(minitorch.full_like(self.concentration0, 0),
                            minitorch.full_like(self.concentration0, 1),
                            validate_args=validate_args)
        transforms = [PowerTransform(self.concentration0.reciprocal()),
                      AffineTransform(1.0, -1.0),
                      PowerTransform(self.concentration1.reciprocal())]
        super().__init__(base_dist, transforms, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Kumaraswamy:
        """The same laws over a larger ``batch_shape`` (views, no copy).

        >>> Kumaraswamy(1., 2.).expand([2]).concentration0
        tensor([2., 2.])
        """
        new = self._get_checked_instance(Kumaraswamy, _instance)
        new.concentration1 = self.concentration1.expand(batch_shape)
        new.concentration0 = self.concentration0.expand(batch_shape)
        return super().expand(batch_shape, _instance=new)

    @property
    def mean(self) -> Tensor:
        return _moments(self.concentration1, self.concentration0, 1)

    @property
    def mode(self) -> Tensor:
        """NaN where a concentration is below 1 (no interior mode)."""
        c1, c0 = self.concentration1, self.concentration0
        log_mode = c0.reciprocal() * (-c0).log1p() - (-c0 * c1).log1p()
        return minitorch.where((c0 < 1) | (c1 < 1), math.nan, log_mode).exp()

    @property
    def variance(self) -> Tensor:
        return (_moments(self.concentration1, self.concentration0, 2)
                - minitorch.pow(self.mean, 2))

    def entropy(self) -> Tensor:
        t1 = 1 - self.concentration1.reciprocal()
        t0 = 1 - self.concentration0.reciprocal()
        h0 = minitorch.digamma(self.concentration0 + 1) + euler_constant
        return (t0 + t1 * h0 - minitorch.log(self.concentration1)
                - minitorch.log(self.concentration0))
