"""``Gumbel``: the law of the largest of many draws, with location ``loc`` and ``scale``.

>>> import minitorch
>>> Gumbel(0., 1.).log_prob(minitorch.tensor(0.))
tensor(-1.)
"""

from __future__ import annotations

import math
from typing import Any

import minitorch

from .._tensor import Tensor
from . import constraints
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, ExpTransform
from .uniform import Uniform
from .utils import NUMBER, broadcast_all, euler_constant


class Gumbel(TransformedDistribution):
    """Built as torch builds it, ``loc - scale * log(-log(u))`` for ``u`` uniform in
    ``[tiny, 1 - eps)``, so its samples for a seed are torch's."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real

    def __init__(self, loc: Tensor | float, scale: Tensor | float,
                 validate_args: bool | None = None) -> None:
        self.loc, self.scale = broadcast_all(loc, scale)
        finfo = minitorch.finfo(self.loc.dtype)
        low, high = finfo.tiny, 1 - finfo.eps
        if not (isinstance(loc, NUMBER) and isinstance(scale, NUMBER)):
            low, high = (minitorch.full_like(self.loc, v) for v in (low, high))
        base_dist = Uniform(low, high, validate_args=validate_args)
        transforms = [ExpTransform().inv, AffineTransform(0, -minitorch.ones_like(self.scale)),
                      ExpTransform().inv, AffineTransform(loc, -self.scale)]
        super().__init__(base_dist, transforms, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Gumbel:
        """The same distributions repeated over a larger ``batch_shape`` (views, no copy).

        >>> Gumbel(0., 1.).expand([2]).loc
        tensor([0., 0.])
        """
        new = self._get_checked_instance(Gumbel, _instance)
        new.loc, new.scale = self.loc.expand(batch_shape), self.scale.expand(batch_shape)
        return super().expand(batch_shape, _instance=new)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        y = (self.loc - value) / self.scale
        return (y - y.exp()) - self.scale.log()

    @property
    def mean(self) -> Tensor:
        return self.loc + self.scale * euler_constant

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def stddev(self) -> Tensor:
        return (math.pi / math.sqrt(6)) * self.scale

    @property
    def variance(self) -> Tensor:
        return self.stddev.pow(2)

    def entropy(self) -> Tensor:
        return self.scale.log() + (1 + euler_constant)
