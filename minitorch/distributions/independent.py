"""``Independent``: some of a distribution's batch dims read as event dims, so ``log_prob``
and ``entropy`` sum over them (a diagonal Gaussian from a ``Normal`` of vectors).

>>> import minitorch
>>> from minitorch.distributions import Independent, Normal
>>> d = Independent(Normal(minitorch.zeros(2, 3), minitorch.ones(2, 3)), 1)
>>> d.batch_shape, d.event_shape
(torch.Size([2]), torch.Size([3]))
>>> d.log_prob(minitorch.zeros(2, 3))
tensor([-2.7568, -2.7568])
"""

from __future__ import annotations

from typing import Any

from .._tensor import Size, Tensor
from . import constraints
from .distribution import Distribution
from .utils import _sum_rightmost

__all__ = ["Independent"]


class Independent(Distribution):
    """``base_distribution`` with its last ``reinterpreted_batch_ndims`` batch dims read as
    event dims."""

    arg_constraints: dict[str, constraints.Constraint] = {}

    def __init__(self, base_distribution: Distribution, reinterpreted_batch_ndims: int,
                 validate_args: bool | None = None) -> None:
        if reinterpreted_batch_ndims > len(base_distribution.batch_shape):
            raise ValueError("Expected reinterpreted_batch_ndims <= "
                             "len(base_distribution.batch_shape), actual "
                             f"{reinterpreted_batch_ndims} vs "
                             f"{len(base_distribution.batch_shape)}")
        shape = Size((*base_distribution.batch_shape, *base_distribution.event_shape))
        event_dim = reinterpreted_batch_ndims + len(base_distribution.event_shape)
        self.base_dist = base_distribution
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims
        super().__init__(shape[:len(shape) - event_dim], shape[len(shape) - event_dim:],
                         validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Independent:
        """The base distribution expanded, its reinterpreted dims kept as event dims.

        >>> from minitorch.distributions import Normal
        >>> Independent(Normal(minitorch.zeros(3), 1.), 1).expand([2]).batch_shape
        torch.Size([2])
        """
        n = self.reinterpreted_batch_ndims
        base = self.base_dist.expand((*batch_shape, *self.event_shape[:n]))
        return self._expanded(Independent, batch_shape, _instance, {}, base_dist=base,
                              reinterpreted_batch_ndims=n)

    @property
    def has_rsample(self) -> bool:  # type: ignore[override]
        return self.base_dist.has_rsample

    @property
    def has_enumerate_support(self) -> bool:  # type: ignore[override]
        return self.reinterpreted_batch_ndims == 0 and self.base_dist.has_enumerate_support

    def enumerate_support(self, expand: bool = True) -> Tensor:
        """The base distribution's support, when no dim is reinterpreted."""
        if self.reinterpreted_batch_ndims > 0:
            raise NotImplementedError("Enumeration over cartesian product is not implemented")
        return self.base_dist.enumerate_support(expand=expand)

    @property
    def support(self) -> constraints.Constraint:
        result = self.base_dist.support
        if self.reinterpreted_batch_ndims:
            result = constraints.independent(result, self.reinterpreted_batch_ndims)
        return result

    @property
    def mean(self) -> Tensor:
        return self.base_dist.mean

    @property
    def mode(self) -> Tensor:
        return self.base_dist.mode

    @property
    def variance(self) -> Tensor:
        return self.base_dist.variance

    def sample(self, sample_shape: Any = ()) -> Tensor:
        return self.base_dist.sample(sample_shape)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        return self.base_dist.rsample(sample_shape)

    def log_prob(self, value: Tensor) -> Tensor:
        return _sum_rightmost(self.base_dist.log_prob(value), self.reinterpreted_batch_ndims)

    def entropy(self) -> Tensor:
        return _sum_rightmost(self.base_dist.entropy(), self.reinterpreted_batch_ndims)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.base_dist}, {self.reinterpreted_batch_ndims})"
