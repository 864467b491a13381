"""``LogisticNormal``: a ``Normal(loc, scale)`` vector through ``StickBreakingTransform``,
onto the simplex one coordinate longer.

>>> import minitorch
>>> LogisticNormal(minitorch.zeros(1), minitorch.ones(1)).event_shape
torch.Size([2])
"""

from __future__ import annotations

from typing import Any

from .._tensor import Tensor
from . import constraints
from .normal import Normal
from .transformed_distribution import TransformedDistribution
from .transforms import StickBreakingTransform


class LogisticNormal(TransformedDistribution):
    """Built as torch builds it, so its scores and shapes are torch's (a scalar ``loc`` and
    ``scale`` make a vector of one)."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, loc: Tensor | float, scale: Tensor | float,
                 validate_args: bool | None = None) -> None:
        base_dist = Normal(loc, scale, validate_args=validate_args)
        if not base_dist.batch_shape:
            base_dist = base_dist.expand([1])
        super().__init__(base_dist, StickBreakingTransform(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> LogisticNormal:
        new = self._get_checked_instance(LogisticNormal, _instance)
        return super().expand(batch_shape, _instance=new)

    @property
    def loc(self) -> Tensor:
        return self.base_dist.base_dist.loc

    @property
    def scale(self) -> Tensor:
        return self.base_dist.base_dist.scale
