"""``RateFamily``: what a family of one ``rate`` parameter shares (Exponential, Poisson):
the parameter as a tensor, the batch shape and ``expand``.

>>> from minitorch.distributions import Poisson
>>> Poisson(2.).expand([2]).rate
tensor([2., 2.])
"""

from __future__ import annotations

from typing import Any

from .._tensor import Size, Tensor
from .distribution import Distribution
from .utils import NUMBER, broadcast_all


class RateFamily(Distribution):
    """A distribution of one ``rate``; a number gives batch shape ``()``."""

    def __init__(self, rate: Tensor | float, validate_args: bool | None = None) -> None:
        (self.rate,) = broadcast_all(rate)
        super().__init__(Size() if isinstance(rate, NUMBER) else self.rate.shape,
                         validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Any:
        """The same rates repeated over a larger ``batch_shape`` (views, no copy).

        >>> from minitorch.distributions import Exponential
        >>> Exponential(1.).expand([2]).rate
        tensor([1., 1.])
        """
        family = next(c for c in type(self).__mro__ if RateFamily in c.__bases__)
        return self._expanded(family, batch_shape, _instance, {"rate": ()})
