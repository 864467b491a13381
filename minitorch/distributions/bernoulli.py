"""``Bernoulli``: 1 with probability ``probs`` (or ``sigmoid(logits)``), else 0.

>>> import minitorch
>>> Bernoulli(0.25).entropy()
tensor(0.5623)
"""

from __future__ import annotations

from numbers import Number
from typing import Any

import minitorch
from minitorch.nn.functional import binary_cross_entropy_with_logits

from .._tensor import Size, Tensor
from . import constraints
from .distribution import Distribution
from .utils import BinaryParameters, broadcast_all


class Bernoulli(BinaryParameters, Distribution):
    """A coin: ``sample`` draws with ``minitorch.bernoulli``, torch's numbers for a seed."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.boolean
    has_enumerate_support = True

    def __init__(self, probs: Tensor | Number | None = None,
                 logits: Tensor | Number | None = None,
                 validate_args: bool | None = None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        given = probs if probs is not None else logits
        if probs is not None:
            (self.probs,) = broadcast_all(probs)
        else:
            (self.logits,) = broadcast_all(logits)
        self._param = self.probs if probs is not None else self.logits
        batch = Size() if isinstance(given, Number) else self._param.shape
        super().__init__(batch, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Bernoulli:
        """The same coins repeated over a larger ``batch_shape`` (views, no copy).

        >>> Bernoulli(0.25).expand([2]).probs
        tensor([0.2500, 0.2500])
        """
        new = self._expanded(Bernoulli, batch_shape, _instance, {"probs": (), "logits": ()})
        new._param = new.__dict__.get("logits", new.__dict__.get("probs"))
        return new

    def enumerate_support(self, expand: bool = True) -> Tensor:
        """The two values, 0 and 1, along a new first dim.

        >>> Bernoulli(minitorch.tensor([0.25, 0.5])).enumerate_support()
        tensor([[0., 0.],
                [1., 1.]])
        """
        return self._enumerate(2, self._param.dtype, self._param.device, expand)

    @property
    def mean(self) -> Tensor:
        return self.probs

    @property
    def variance(self) -> Tensor:
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        with minitorch.no_grad():
            return minitorch.bernoulli(self.probs.expand(self._extended_shape(sample_shape)))

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -binary_cross_entropy_with_logits(logits, value, reduction="none")

    def entropy(self) -> Tensor:
        return binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")
