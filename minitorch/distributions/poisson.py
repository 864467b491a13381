"""``Poisson``: counts of events that arrive at ``rate`` per interval.

>>> import minitorch
>>> Poisson(2.).log_prob(minitorch.tensor(1.))
tensor(-1.3069)
"""

from __future__ import annotations

from typing import Any

import minitorch

from .._tensor import Tensor
from . import constraints
from .exp_family import ExponentialFamily
from .rate import RateFamily
from .utils import broadcast_all, own_init


@own_init
class Poisson(RateFamily, ExponentialFamily):
    """``sample`` draws with ``minitorch.poisson``: torch's counts for the same seed."""

    arg_constraints = {"rate": constraints.nonnegative}
    support = constraints.nonnegative_integer

    @property
    def mean(self) -> Tensor:
        return self.rate

    @property
    def mode(self) -> Tensor:
        return self.rate.floor()

    @property
    def variance(self) -> Tensor:
        return self.rate

    def sample(self, sample_shape: Any = ()) -> Tensor:
        with minitorch.no_grad():
            return minitorch.poisson(self.rate.expand(self._extended_shape(sample_shape)))

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        rate, value = broadcast_all(self.rate, value)
        return value.xlogy(rate) - rate - (value + 1).lgamma()
