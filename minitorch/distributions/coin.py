"""``Coin``: what a family of one success probability shares (Bernoulli, Geometric): it is
given as ``probs`` or as ``logits`` (the other derived), the batch shape and ``expand``.

>>> from minitorch.distributions import Geometric
>>> Geometric(logits=0.).probs
tensor(0.5000)
"""

from __future__ import annotations

from typing import Any

from .._tensor import Size, Tensor
from . import constraints
from .distribution import Distribution
from .utils import NUMBER, BinaryParameters, broadcast_all


class Coin(BinaryParameters, Distribution):
    """A success probability per batch element, as ``probs`` or ``sigmoid(logits)``."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}

    def __init__(self, probs: Tensor | float | None = None,
                 logits: Tensor | float | None = None,
                 validate_args: bool | None = None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        given = probs if probs is not None else logits
        if probs is not None:
            (self.probs,) = broadcast_all(probs)
        else:
            (self.logits,) = broadcast_all(logits)
        self._param = self.probs if probs is not None else self.logits
        batch = Size() if isinstance(given, NUMBER) else self._param.shape
        super().__init__(batch, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Any:
        """The same coins repeated over a larger ``batch_shape`` (views, no copy).

        >>> from minitorch.distributions import Bernoulli
        >>> Bernoulli(0.25).expand([2]).probs
        tensor([0.2500, 0.2500])
        """
        family = next(c for c in type(self).__mro__ if Coin in c.__bases__)
        new = self._expanded(family, batch_shape, _instance, {"probs": (), "logits": ()})
        new._param = new.__dict__.get("logits", new.__dict__.get("probs"))
        return new
