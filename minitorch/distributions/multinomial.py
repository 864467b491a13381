"""``Multinomial``: the counts of each of ``K`` classes in ``total_count`` draws of a
``Categorical``.

>>> import minitorch
>>> Multinomial(2, minitorch.tensor([0.5, 0.5])).log_prob(minitorch.tensor([1., 1.]))
tensor(-0.6931)
"""

from __future__ import annotations

import math
from typing import Any

import minitorch

from .._tensor import Size, Tensor
from . import constraints
from .binomial import Binomial
from .over_categorical import OverCategorical
from .utils import broadcast_all, probs_to_logits


class Multinomial(OverCategorical):
    """``sample`` draws ``total_count`` classes from the inner ``Categorical`` (torch's numbers
    for a seed) and counts them."""

    _copied = ("total_count",)

    def __init__(self, total_count: int = 1, probs: Tensor | None = None,
                 logits: Tensor | None = None, validate_args: bool | None = None) -> None:
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        super().__init__(probs, logits, validate_args=validate_args)

    def _check_inner(self) -> None:
        # torch builds a Binomial of each class's count, which checks total_count and probs
        # (as distributions do by default) whatever this distribution's validate_args
        Binomial(total_count=self.total_count, probs=self.probs)

    @constraints.dependent_property(is_discrete=True, event_dim=1)
    def support(self) -> constraints.Constraint:
        return constraints.multinomial(self.total_count)

    @property
    def mean(self) -> Tensor:
        return self.probs * self.total_count

    @property
    def variance(self) -> Tensor:
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        sample_shape = Size(sample_shape)
        classes = self._categorical.sample((self.total_count, *sample_shape))
        classes = classes.permute(*range(1, classes.dim()), 0)  # the draws last
        counts = classes.new(self._extended_shape(sample_shape)).zero_()
        counts.scatter_add_(-1, classes, minitorch.ones_like(classes))
        return counts.type_as(self.probs)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        log_factorial_n = minitorch.lgamma(value.sum(-1) + 1)
        log_factorial_xs = minitorch.lgamma(value + 1).sum(-1)
        # a class never drawn scores 0, even where its probability is 0 (logit -inf)
        logits = minitorch.where((value == 0) & (logits == -math.inf), 0, logits)
        return log_factorial_n - log_factorial_xs + (logits * value).sum(-1)

    def entropy(self) -> Tensor:
        """torch's formula: the categorical part, less the expected log-factorials of each
        class's (binomial) count.

        >>> Multinomial(1, minitorch.tensor([0.5, 0.5])).entropy()
        tensor(0.6931)
        """
        n = minitorch.tensor(self.total_count)
        term1 = n * self._categorical.entropy() - minitorch.lgamma(n + 1)
        counts = minitorch.arange(1 + self.total_count, dtype=self.probs.dtype,
                                  device=self.probs.device)
        counts = counts.view((-1,) + (1,) * self.probs.dim())[1:]
        binomial_probs = minitorch.exp(_binomial_log_prob(self.total_count, self.probs, counts))
        return term1 + (binomial_probs * minitorch.lgamma(counts + 1)).sum([0, -1])


def _binomial_log_prob(total_count: int, probs: Tensor, value: Tensor) -> Tensor:
    """The log-probability of ``value`` successes in ``total_count`` trials of success
    ``probs``, as torch's Binomial computes it (through the logits, stable either side of
    0)."""
    n, probs = broadcast_all(total_count, probs)
    logits = probs_to_logits(probs, is_binary=True)
    clamped = (logits.clamp(min=0) + logits - logits.clamp(max=0)) / 2
    normalize = n * clamped + n * minitorch.log1p(minitorch.exp(-logits.abs())) \
        - minitorch.lgamma(n + 1)
    return (value * logits - minitorch.lgamma(value + 1) - minitorch.lgamma(n - value + 1)
            - normalize)
