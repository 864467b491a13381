"""``Binomial``: the number of successes in ``total_count`` trials of probability ``probs``
(or ``logits``); draws with ``minitorch.binomial`` (torch's for the same seed), scores and
moments as torch computes them.

>>> import minitorch
>>> Binomial(10, minitorch.tensor([0.5])).mean
tensor([5.])
"""

from __future__ import annotations

from typing import Any

import minitorch

from .._tensor import Size, Tensor
from . import constraints
from .distribution import Distribution
from .utils import BinaryParameters, _count_and_binary_param


def _clamp_by_zero(x: Tensor) -> Tensor:
    """``x.clamp(min=0)`` whose gradient at 0 is 1/2, as torch's."""
    return (x.clamp(min=0) + x - x.clamp(max=0)) / 2


class Binomial(BinaryParameters, Distribution):
    """Binomial with ``total_count`` trials and ``probs`` or ``logits`` (one of them)."""

    arg_constraints = {"total_count": constraints.nonnegative_integer,
                       "probs": constraints.unit_interval, "logits": constraints.real}
    has_enumerate_support = True

    def __init__(self, total_count: Tensor | int = 1, probs: Tensor | None = None,
                 logits: Tensor | None = None, validate_args: bool | None = None) -> None:
        _count_and_binary_param(self, total_count, probs, logits)
        super().__init__(self._param.size(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Binomial:
        """The same distributions repeated over a larger ``batch_shape`` (views, no copy).

        >>> Binomial(3, minitorch.tensor(0.5)).expand([2]).total_count
        tensor([3., 3.])
        """
        new = self._expanded(Binomial, batch_shape, _instance,
                             {"total_count": (), "probs": (), "logits": ()})
        new._param = new.__dict__.get("logits", new.__dict__.get("probs"))
        return new

    @property
    def support(self) -> constraints.Constraint:
        return constraints.integer_interval(0, self.total_count)

    @property
    def param_shape(self) -> Size:
        return self._param.shape

    @property
    def mean(self) -> Tensor:
        return self.total_count * self.probs

    @property
    def mode(self) -> Tensor:
        return ((self.total_count + 1) * self.probs).floor().clamp(max=self.total_count)

    @property
    def variance(self) -> Tensor:
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        with minitorch.no_grad():
            return minitorch.binomial(self.total_count.expand(shape), self.probs.expand(shape))

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        log_factorial_n = minitorch.lgamma(self.total_count + 1)
        log_factorial_k = minitorch.lgamma(value + 1)
        log_factorial_nmk = minitorch.lgamma(self.total_count - value + 1)
        normalize_term = (self.total_count * _clamp_by_zero(self.logits)
                          + self.total_count
                          * minitorch.log1p(minitorch.exp(-minitorch.abs(self.logits)))
                          - log_factorial_n)
        return value * self.logits - log_factorial_k - log_factorial_nmk - normalize_term

    def entropy(self) -> Tensor:
        self._homogeneous_count("entropy")
        log_prob = self.log_prob(self.enumerate_support(False))
        return -(minitorch.exp(log_prob) * log_prob).sum(0)

    def enumerate_support(self, expand: bool = True) -> Tensor:
        """The counts ``0 .. total_count`` along a new first dim (one count for the batch).

        >>> Binomial(2, minitorch.tensor([0.5])).enumerate_support()
        tensor([[0.],
                [1.],
                [2.]])
        """
        count = self._homogeneous_count("enumerate_support")
        return self._enumerate(1 + count, self._param.dtype, self._param.device, expand)

    def _homogeneous_count(self, method: str) -> int:
        count = int(self.total_count.max())
        if not self.total_count.min() == count:
            raise NotImplementedError(
                f"Inhomogeneous total count not supported by `{method}`.")
        return count
