"""``TransformedDistribution``: a base distribution pushed through transforms, scored by
inverting them and adding each ``-log |dy/dx|``.

>>> import minitorch
>>> from minitorch.distributions import ExpTransform, Normal
>>> TransformedDistribution(Normal(0., 1.), ExpTransform()).log_prob(minitorch.tensor(1.))
tensor(-0.9189)
"""

from __future__ import annotations

from typing import Any

import minitorch

from .._tensor import Size, Tensor
from . import constraints
from .distribution import Distribution
from .independent import Independent
from .transforms import ComposeTransform, Transform
from .utils import _sum_rightmost


class TransformedDistribution(Distribution):
    """``Y = f(X)`` for ``X ~ base_distribution`` and ``f`` the ``transforms`` in order; a
    transform whose events span more dims than the base's makes those base dims one event."""

    arg_constraints: dict = {}

    def __init__(self, base_distribution: Distribution, transforms: Transform | list,
                 validate_args: bool | None = None) -> None:
        if isinstance(transforms, Transform):
            self.transforms = [transforms]
        elif isinstance(transforms, list):
            if not all(isinstance(t, Transform) for t in transforms):
                raise ValueError("transforms must be a Transform or a list of Transforms")
            self.transforms = transforms
        else:
            raise ValueError(f"transforms must be a Transform or list, but was {transforms}")
        base_shape = base_distribution.batch_shape + base_distribution.event_shape
        base_event_dim = len(base_distribution.event_shape)
        transform = ComposeTransform(self.transforms)
        domain_dim, codomain_dim = transform.domain.event_dim, transform.codomain.event_dim
        if len(base_shape) < domain_dim:
            raise ValueError(f"base_distribution needs to have shape with size at least "
                             f"{domain_dim}, but got {base_shape}.")
        forward_shape = transform.forward_shape(base_shape)
        expanded_base_shape = transform.inverse_shape(forward_shape)
        if base_shape != expanded_base_shape:
            base_distribution = base_distribution.expand(
                expanded_base_shape[:len(expanded_base_shape) - base_event_dim])
        if domain_dim > base_event_dim:
            base_distribution = Independent(base_distribution, domain_dim - base_event_dim)
        self.base_dist = base_distribution
        # one event: what the transform makes of one, or the base's events carried through
        event_dim = max(codomain_dim, base_event_dim + codomain_dim - domain_dim)
        cut = len(forward_shape) - event_dim
        super().__init__(Size(forward_shape[:cut]), Size(forward_shape[cut:]),
                         validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Any:
        """The same distribution over a larger ``batch_shape``, through its base's ``expand``.

        >>> from minitorch.distributions import LogNormal
        >>> LogNormal(0., 1.).expand([2]).batch_shape
        torch.Size([2])
        """
        new = self._get_checked_instance(TransformedDistribution, _instance)
        batch_shape = Size(batch_shape)
        shape = batch_shape + self.event_shape
        for t in reversed(self.transforms):
            shape = t.inverse_shape(shape)
        new.base_dist = self.base_dist.expand(shape[:len(shape) - len(self.base_dist.event_shape)])
        new.transforms = self.transforms
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @constraints.dependent_property
    def support(self) -> constraints.Constraint:  # type: ignore[override]
        if not self.transforms:
            return self.base_dist.support
        support = self.transforms[-1].codomain
        if len(self.event_shape) > support.event_dim:
            support = constraints.independent(support, len(self.event_shape) - support.event_dim)
        return support

    @property
    def has_rsample(self) -> bool:  # type: ignore[override]
        return self.base_dist.has_rsample

    def sample(self, sample_shape: Any = ()) -> Tensor:
        with minitorch.no_grad():
            return self._through_transforms(self.base_dist.sample(sample_shape))

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        return self._through_transforms(self.base_dist.rsample(sample_shape))

    def _through_transforms(self, x: Tensor) -> Tensor:
        for transform in self.transforms:
            x = transform(x)
        return x

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        event_dim = len(self.event_shape)
        log_prob: Any = 0.0
        y = value
        for transform in reversed(self.transforms):
            x = transform.inv(y)
            event_dim += transform.domain.event_dim - transform.codomain.event_dim
            log_prob = log_prob - _sum_rightmost(transform.log_abs_det_jacobian(x, y),
                                                 event_dim - transform.domain.event_dim)
            y = x
        return log_prob + _sum_rightmost(self.base_dist.log_prob(y),
                                         event_dim - len(self.base_dist.event_shape))

    def _monotonize_cdf(self, value: Tensor) -> Tensor:
        """``value``, or ``1 - value`` where the transforms reverse the order."""
        sign = 1
        for transform in self.transforms:
            sign = sign * transform.sign
        if isinstance(sign, int) and sign == 1:
            return value
        return sign * (value - 0.5) + 0.5

    def cdf(self, value: Tensor) -> Tensor:
        """P(Y <= value): the base's ``cdf`` at the transforms' inverse of ``value``.

        >>> from minitorch.distributions import ExpTransform, Normal
        >>> TransformedDistribution(Normal(0., 1.), ExpTransform()).cdf(minitorch.tensor(1.))
        tensor(0.5000)
        """
        for transform in reversed(self.transforms):
            value = transform.inv(value)
        if self._validate_args:
            self.base_dist._validate_sample(value)
        return self._monotonize_cdf(self.base_dist.cdf(value))

    def icdf(self, value: Tensor) -> Tensor:
        """The quantile of probability ``value``: the base's, through the transforms.

        >>> from minitorch.distributions import ExpTransform, Normal
        >>> TransformedDistribution(Normal(0., 1.), ExpTransform()).icdf(minitorch.tensor(0.5))
        tensor(1.)
        """
        return self._through_transforms(self.base_dist.icdf(self._monotonize_cdf(value)))
