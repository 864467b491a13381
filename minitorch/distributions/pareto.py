"""``Pareto``: the power law above ``scale`` with tail index ``alpha``.

>>> import minitorch
>>> Pareto(1., 2.).log_prob(minitorch.tensor(2.))
tensor(-1.3863)
"""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from . import constraints
from .exponential import Exponential
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, ExpTransform
from .utils import broadcast_all


class Pareto(TransformedDistribution):
    """Built as torch builds it, ``scale * exp(E)`` for ``E ~ Exponential(alpha)``: its
    samples for a seed are torch's."""

    arg_constraints = {"alpha": constraints.positive, "scale": constraints.positive}

    def __init__(self, scale: Tensor | float, alpha: Tensor | float,
                 validate_args: bool | None = None) -> None:
        self.scale, self.alpha = broadcast_all(scale, alpha)
        base_dist = Exponential(self.alpha, validate_args=validate_args)
        transforms = [ExpTransform(), AffineTransform(0, self.scale)]
        super().__init__(base_dist, transforms, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Pareto:
        """The same power laws over a larger ``batch_shape`` (views, no copy).

        >>> Pareto(1., 2.).expand([2]).alpha
        tensor([2., 2.])
        """
        new = self._get_checked_instance(Pareto, _instance)
        new.scale, new.alpha = self.scale.expand(batch_shape), self.alpha.expand(batch_shape)
        return super().expand(batch_shape, _instance=new)

    @property
    def mean(self) -> Tensor:
        """Infinite for ``alpha <= 1``."""
        a = self.alpha.clamp(min=1)
        return a * self.scale / (a - 1)

    @property
    def mode(self) -> Tensor:
        return self.scale

    @property
    def variance(self) -> Tensor:
        """Infinite for ``alpha <= 2``."""
        a = self.alpha.clamp(min=2)
        return self.scale.pow(2) * a / ((a - 1).pow(2) * (a - 2))

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self) -> constraints.Constraint:  # type: ignore[override]
        return constraints.greater_than_eq(self.scale)

    def entropy(self) -> Tensor:
        return (self.scale / self.alpha).log() + (1 + self.alpha.reciprocal())
