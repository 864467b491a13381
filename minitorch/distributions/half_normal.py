"""``HalfNormal``: ``|X|`` for ``X ~ Normal(0, scale)``.

>>> import minitorch
>>> HalfNormal(1.).log_prob(minitorch.tensor(0.))
tensor(-0.2258)
"""

from __future__ import annotations

import math

from .._tensor import Tensor
from .folded import Folded
from .normal import Normal
from .utils import own_init


@own_init
class HalfNormal(Folded):
    """Built as torch builds it (a Normal through ``AbsTransform``): torch's samples for a
    seed."""

    base_family = Normal

    @property
    def mean(self) -> Tensor:
        return self.scale * math.sqrt(2 / math.pi)

    @property
    def variance(self) -> Tensor:
        return self.scale.pow(2) * (1 - 2 / math.pi)
