"""``NegativeBinomial``: the number of successes before ``total_count`` failures, each trial
a success with probability ``probs`` (or ``logits``); draws are Poisson of a Gamma rate.

>>> import minitorch
>>> NegativeBinomial(3., probs=minitorch.tensor(0.5)).mean
tensor(3.)
"""

from __future__ import annotations

from typing import Any

import minitorch

from .._tensor import Size, Tensor
from . import constraints
from .distribution import Distribution
from .gamma import Gamma
from .utils import BinaryParameters, _count_and_binary_param, lazy_property


class NegativeBinomial(BinaryParameters, Distribution):
    """Negative binomial with ``total_count`` failures and ``probs`` or ``logits`` of a
    success (one of them)."""

    arg_constraints = {"total_count": constraints.greater_than_eq(0),
                       "probs": constraints.half_open_interval(0.0, 1.0),
                       "logits": constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, total_count: Tensor | float, probs: Tensor | None = None,
                 logits: Tensor | None = None, validate_args: bool | None = None) -> None:
        _count_and_binary_param(self, total_count, probs, logits)
        super().__init__(self._param.size(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> NegativeBinomial:
        """The same distributions repeated over a larger ``batch_shape`` (views, no copy).

        >>> NegativeBinomial(3., logits=minitorch.tensor(0.)).expand([2]).total_count
        tensor([3., 3.])
        """
        new = self._expanded(NegativeBinomial, batch_shape, _instance,
                             {"total_count": (), "probs": (), "logits": ()})
        new._param = new.__dict__.get("logits", new.__dict__.get("probs"))
        return new

    @property
    def param_shape(self) -> Size:
        return self._param.size()

    @property
    def mean(self) -> Tensor:
        return self.total_count * minitorch.exp(self.logits)

    @property
    def mode(self) -> Tensor:
        return ((self.total_count - 1) * self.logits.exp()).floor().clamp(min=0.0)

    @property
    def variance(self) -> Tensor:
        return self.mean / minitorch.sigmoid(-self.logits)

    @lazy_property
    def _gamma(self) -> Gamma:
        return Gamma(concentration=self.total_count, rate=minitorch.exp(-self.logits),
                     validate_args=False)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        with minitorch.no_grad():
            return minitorch.poisson(self._gamma.sample(sample_shape=sample_shape))

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        logsigmoid = minitorch.nn.functional.logsigmoid
        unnormalized = (self.total_count * logsigmoid(-self.logits)
                        + value * logsigmoid(self.logits))
        normalization = (-minitorch.lgamma(self.total_count + value)
                         + minitorch.lgamma(1.0 + value) + minitorch.lgamma(self.total_count))
        normalization = normalization.masked_fill(self.total_count + value == 0.0, 0.0)
        return unnormalized - normalization
