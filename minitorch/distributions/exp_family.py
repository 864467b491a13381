"""``ExponentialFamily``: distributions whose density is ``exp(<t(x), θ> - F(θ) + k(x))``
for natural parameters ``θ``, log-normalizer ``F`` and carrier measure ``k``. Its entropy
comes from ``F`` by autograd (a Bregman divergence): ``F(θ) - <θ, ∇F(θ)> - E[k(x)]``.

>>> from minitorch.distributions import Exponential
>>> isinstance(Exponential(1.), ExponentialFamily)
True
"""

from __future__ import annotations

from typing import Any

import minitorch

from .._tensor import Tensor
from .distribution import Distribution


class ExponentialFamily(Distribution):
    """A subclass gives ``_natural_params``, ``_log_normalizer`` and
    ``_mean_carrier_measure``; then ``entropy`` needs nothing else."""

    @property
    def _natural_params(self) -> tuple[Tensor, ...]:
        raise NotImplementedError

    def _log_normalizer(self, *natural_params: Tensor) -> Tensor:
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self) -> Any:
        raise NotImplementedError

    def _normalizer_slope(self) -> tuple[list, Tensor, tuple]:
        """The natural parameters ``θ`` (detached, each asking for its gradient), ``F(θ)``
        and ``∇F(θ)`` by autograd (a graph kept, so the result differentiates again)."""
        params = [p.detach().requires_grad_() for p in self._natural_params]
        log_normalizer = self._log_normalizer(*params)
        grads = minitorch.autograd.grad(log_normalizer.sum(), params, create_graph=True)
        return params, log_normalizer, grads

    def entropy(self) -> Tensor:
        """``F(θ) - <θ, ∇F(θ)> - E[k(x)]``, with ``∇F`` by autograd."""
        result: Any = -self._mean_carrier_measure
        params, log_normalizer, grads = self._normalizer_slope()
        result = result + log_normalizer
        for param, grad in zip(params, grads):
            result = result - (param * grad).reshape(*self._batch_shape, -1).sum(-1)
        return result
