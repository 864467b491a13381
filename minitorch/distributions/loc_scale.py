"""``LocScale``: what a family with a real ``loc`` and a positive ``scale`` shares (Normal,
Laplace): the broadcast parameters, the batch shape, ``expand`` and the mean at ``loc``.

>>> from minitorch.distributions import Laplace
>>> Laplace(0., 1.).expand([2]).loc
tensor([0., 0.])
"""

from __future__ import annotations

from typing import Any

from .._tensor import Size, Tensor
from . import constraints
from .distribution import Distribution
from .utils import NUMBER, broadcast_all


class LocScale(Distribution):
    """A distribution of ``loc`` and ``scale``, broadcast together; numbers give batch shape
    ``()``."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc: Tensor | float, scale: Tensor | float,
                 validate_args: bool | None = None) -> None:
        self.loc, self.scale = broadcast_all(loc, scale)
        scalars = isinstance(loc, NUMBER) and isinstance(scale, NUMBER)
        super().__init__(Size() if scalars else self.loc.shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Any:
        """The same distributions repeated over a larger ``batch_shape`` (views, no copy).

        >>> from minitorch.distributions import Normal
        >>> Normal(0., 1.).expand([2]).scale
        tensor([1., 1.])
        """
        family = next(c for c in type(self).__mro__ if LocScale in c.__bases__)
        return self._expanded(family, batch_shape, _instance, {"loc": (), "scale": ()})

    @property
    def mean(self) -> Tensor:
        return self.loc

    mode = mean
