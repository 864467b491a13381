"""``Beta``: distributions on [0, 1] with ``concentration1`` (alpha) and ``concentration0``
(beta), as torch builds them: the first coordinate of a two-coordinate ``Dirichlet``, so the
draws and their gradients are that Dirichlet's (torch's for the same seed).

>>> import minitorch
>>> Beta(2.0, 3.0).mean
tensor(0.4000)
>>> g = minitorch.manual_seed(0)
>>> Beta(1.0, 1.0).sample()
tensor(0.8638)
"""

from __future__ import annotations

from typing import Any

import minitorch

from .._tensor import Size, Tensor
from . import constraints
from .dirichlet import Dirichlet
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .utils import NUMBER, broadcast_all


class Beta(ExponentialFamily):
    """Beta with ``concentration1`` and ``concentration0`` (two numbers give a scalar Beta)."""

    arg_constraints = {"concentration1": constraints.positive,
                       "concentration0": constraints.positive}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1: Tensor | float, concentration0: Tensor | float,
                 validate_args: bool | None = None) -> None:
        if isinstance(concentration1, NUMBER) and isinstance(concentration0, NUMBER):
            both = minitorch.tensor([float(concentration1), float(concentration0)])
        else:
            both = minitorch.stack(broadcast_all(concentration1, concentration0), -1)
        self._dirichlet = Dirichlet(both, validate_args=validate_args)
        super().__init__(self._dirichlet.batch_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Beta:
        """The same distributions repeated over a larger ``batch_shape`` (views, no copy).

        >>> Beta(minitorch.tensor(2.), minitorch.tensor(3.)).expand([2]).concentration1
        tensor([2., 2.])
        """
        new = self._get_checked_instance(Beta, _instance)
        new._dirichlet = self._dirichlet.expand(batch_shape)
        Distribution.__init__(new, Size(batch_shape), validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self) -> Tensor:
        return self.concentration1 / (self.concentration1 + self.concentration0)

    @property
    def mode(self) -> Tensor:
        return self._dirichlet.mode[..., 0]

    @property
    def variance(self) -> Tensor:
        total = self.concentration1 + self.concentration0
        return self.concentration1 * self.concentration0 / (total.pow(2) * (total + 1))

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        return self._dirichlet.rsample(sample_shape).select(-1, 0)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return self._dirichlet.log_prob(minitorch.stack([value, 1.0 - value], -1))

    def entropy(self) -> Tensor:
        return self._dirichlet.entropy()

    @property
    def concentration1(self) -> Tensor:
        return self._dirichlet.concentration[..., 0]

    @property
    def concentration0(self) -> Tensor:
        return self._dirichlet.concentration[..., 1]
