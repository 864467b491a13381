"""``Geometric``: the number of failures before the first success of probability ``probs``.

>>> import minitorch
>>> Geometric(0.5).log_prob(minitorch.tensor(2.))
tensor(-2.0794)
"""

from __future__ import annotations

from typing import Any

import minitorch
from minitorch.nn.functional import binary_cross_entropy_with_logits

from .._tensor import Tensor
from . import constraints
from .coin import Coin
from .utils import broadcast_all


class Geometric(Coin):
    """``sample`` is ``floor(log(u) / log1p(-probs))`` for ``u`` drawn by
    ``uniform_(tiny, 1)``, as torch draws it: torch's counts for a seed."""

    support = constraints.nonnegative_integer

    def __init__(self, probs: Tensor | float | None = None,
                 logits: Tensor | float | None = None,
                 validate_args: bool | None = None) -> None:
        super().__init__(probs, logits, validate_args=validate_args)
        if self._validate_args and probs is not None:
            valid = self.probs > 0
            if not bool(valid.all()):
                raise ValueError(
                    f"Expected parameter probs ({type(self.probs).__name__} of shape "
                    f"{tuple(self.probs.shape)}) of distribution {self!r} to be positive but "
                    f"found invalid values:\n{self.probs.detach()[~valid]}")

    @property
    def mean(self) -> Tensor:
        return 1.0 / self.probs - 1.0

    @property
    def mode(self) -> Tensor:
        return minitorch.zeros_like(self.probs)

    @property
    def variance(self) -> Tensor:
        return (1.0 / self.probs - 1.0) / self.probs

    def sample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        tiny = minitorch.finfo(self.probs.dtype).tiny
        with minitorch.no_grad():
            u = self.probs.new(shape).uniform_(tiny, 1)
            return (u.log() / (-self.probs).log1p()).floor()

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        value, probs = broadcast_all(value, self.probs)
        # a sure success scores 0 failures as log 1, not 0 * log 0
        probs = minitorch.where((probs == 1) & (value == 0), 0, probs)
        return value * (-probs).log1p() + self.probs.log()

    def entropy(self) -> Tensor:
        return (binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")
                / self.probs)
