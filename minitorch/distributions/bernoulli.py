"""``Bernoulli``: 1 with probability ``probs`` (or ``sigmoid(logits)``), else 0.

>>> import minitorch
>>> Bernoulli(0.25).entropy()
tensor(0.5623)
"""

from __future__ import annotations

import math
from typing import Any

import minitorch
from minitorch.nn.functional import binary_cross_entropy_with_logits

from .._tensor import Size, Tensor
from . import constraints
from .coin import Coin
from .exp_family import ExponentialFamily
from .utils import broadcast_all, own_init


@own_init
class Bernoulli(Coin, ExponentialFamily):
    """A coin: ``sample`` draws with ``minitorch.bernoulli``, torch's numbers for a seed."""

    support = constraints.boolean
    has_enumerate_support = True

    def enumerate_support(self, expand: bool = True) -> Tensor:
        """The two values, 0 and 1, along a new first dim.

        >>> Bernoulli(minitorch.tensor([0.25, 0.5])).enumerate_support()
        tensor([[0., 0.],
                [1., 1.]])
        """
        return self._enumerate(2, self._param.dtype, self._param.device, expand)

    @property
    def param_shape(self) -> Size:
        return self._param.shape

    @property
    def mean(self) -> Tensor:
        return self.probs

    @property
    def variance(self) -> Tensor:
        return self.probs * (1 - self.probs)

    @property
    def mode(self) -> Tensor:
        """1 where ``probs`` is above one half, 0 below, nan at one half (no single mode)."""
        mode = (self.probs >= 0.5).to(self.probs)
        mode[self.probs == 0.5] = math.nan
        return mode

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
