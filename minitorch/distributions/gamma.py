"""``Gamma``: the waiting time for ``concentration`` events at ``rate``; draws
(``_standard_gamma``'s: torch's for the same seed, differentiable in both parameters), scores,
moments and KL as torch computes them.

>>> import minitorch
>>> Gamma(2., 1.).log_prob(minitorch.tensor(1.))
tensor(-1.)
>>> g = minitorch.manual_seed(0)
>>> Gamma(2., 1.).sample((2,))
tensor([4.5526, 1.3158])
"""

from __future__ import annotations

from typing import Any

import minitorch

from .._tensor import Size, Tensor
from . import constraints
from .exp_family import ExponentialFamily
from .utils import NUMBER, broadcast_all


class Gamma(ExponentialFamily):
    """Gamma with shape ``concentration`` and inverse scale ``rate``."""

    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, concentration: Tensor | float, rate: Tensor | float,
                 validate_args: bool | None = None) -> None:
        self.concentration, self.rate = broadcast_all(concentration, rate)
        scalars = isinstance(concentration, NUMBER) and isinstance(rate, NUMBER)
        super().__init__(Size() if scalars else self.concentration.shape,
                         validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Gamma:
        """The same distributions repeated over a larger ``batch_shape`` (views, no copy).

        >>> Gamma(2., 1.).expand([2]).concentration
        tensor([2., 2.])
        """
        return self._expanded(Gamma, batch_shape, _instance, {"concentration": (), "rate": ()})

    @property
    def mean(self) -> Tensor:
        return self.concentration / self.rate

    @property
    def mode(self) -> Tensor:
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self) -> Tensor:
        return self.concentration / self.rate.pow(2)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        value = minitorch._standard_gamma(self.concentration.expand(shape)) \
            / self.rate.expand(shape)
        value.detach().clamp_(min=minitorch.finfo(value.dtype).tiny)  # outside the graph
        return value

    def log_prob(self, value: Any) -> Tensor:
        value = minitorch.as_tensor(value, dtype=self.rate.dtype, device=self.rate.device)
        if self._validate_args:
            self._validate_sample(value)
        return (minitorch.xlogy(self.concentration, self.rate)
                + minitorch.xlogy(self.concentration - 1, value)
                - self.rate * value - minitorch.lgamma(self.concentration))

    def cdf(self, value: Tensor) -> Tensor:
        """``P(concentration, rate * value)``, the regularized lower incomplete gamma.

        >>> Gamma(1., 1.).cdf(minitorch.tensor(1.))
        tensor(0.6321)
        """
        if self._validate_args:
            self._validate_sample(value)
        return minitorch.special.gammainc(self.concentration, self.rate * value)

    def entropy(self) -> Tensor:
        return (self.concentration - minitorch.log(self.rate)
                + minitorch.lgamma(self.concentration)
                + (1.0 - self.concentration) * minitorch.digamma(self.concentration))


class Chi2(Gamma):
    """``Gamma(0.5 * df, 0.5)``: chi-squared with ``df`` degrees of freedom.

    >>> Chi2(2.).mean
    tensor(2.)
    """

    arg_constraints = {"df": constraints.positive}

    def __init__(self, df: Tensor | float, validate_args: bool | None = None) -> None:
        super().__init__(0.5 * df, 0.5, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Chi2:
        return super().expand(batch_shape, self._get_checked_instance(Chi2, _instance))

    @property
    def df(self) -> Tensor:
        return self.concentration * 2
