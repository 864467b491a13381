"""``GeneralizedPareto``: the limit law of exceedances over a high threshold, with
``loc``, ``scale`` and shape ``concentration`` (0: exponential; < 0: bounded above).

>>> import minitorch
>>> GeneralizedPareto(0., 1., 0.).cdf(minitorch.tensor(1.))
tensor(0.6321)
"""

from __future__ import annotations

from numbers import Number
from typing import Any

import minitorch

from .._tensor import Size, Tensor
from . import constraints
from .distribution import Distribution
from .utils import broadcast_all


class GeneralizedPareto(Distribution):
    """Draws are the ``icdf`` of uniforms, so they carry gradients to every parameter."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive,
                       "concentration": constraints.real}
    has_rsample = True

    def __init__(self, loc: Tensor | float, scale: Tensor | float,
                 concentration: Tensor | float, validate_args: bool | None = None) -> None:
        self.loc, self.scale, self.concentration = broadcast_all(loc, scale, concentration)
        scalars = all(isinstance(v, Number) for v in (loc, scale, concentration))
        super().__init__(Size() if scalars else self.loc.size(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> GeneralizedPareto:
        """The same distributions repeated over a larger ``batch_shape`` (views, no copy).

        >>> GeneralizedPareto(0., 1., 0.5).expand([2]).concentration
        tensor([0.5000, 0.5000])
        """
        return self._expanded(GeneralizedPareto, batch_shape, _instance,
                              {"loc": (), "scale": (), "concentration": ()})

    def _safe_concentration(self) -> tuple[Tensor, Tensor]:
        """Where the concentration is (close to) 0 (the exponential limit), and the
        concentration with 1 there, so the general formula stays finite."""
        eq_zero = minitorch.isclose(self.concentration, minitorch.tensor(0.0))
        return eq_zero, minitorch.where(eq_zero, minitorch.ones_like(self.concentration),
                                        self.concentration)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        return self.icdf(minitorch.rand(shape, dtype=self.loc.dtype, device=self.loc.device))

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero, safe = self._safe_concentration()
        y = 1 / safe + minitorch.ones_like(z)
        nonzero = minitorch.where(y == 0, y, y * minitorch.log1p(safe * z))
        return -self.scale.log() - minitorch.where(eq_zero, z, nonzero)

    def log_survival_function(self, value: Tensor) -> Tensor:
        """``log P(X > value)``.

        >>> GeneralizedPareto(0., 1., 0.).log_survival_function(minitorch.tensor(2.))
        tensor(-2.)
        """
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        eq_zero, safe = self._safe_concentration()
        return minitorch.where(eq_zero, -z, -minitorch.log1p(safe * z) / safe)

    def log_cdf(self, value: Tensor) -> Tensor:
        """``log P(X <= value)``.

        >>> GeneralizedPareto(0., 1., 0.).log_cdf(minitorch.tensor(0.))
        tensor(-inf)
        """
        return minitorch.log1p(-minitorch.exp(self.log_survival_function(value)))

    def cdf(self, value: Tensor) -> Tensor:
        return minitorch.exp(self.log_cdf(value))

    def icdf(self, value: Tensor) -> Tensor:
        c = self.concentration
        eq_zero = minitorch.isclose(c, minitorch.zeros_like(c))
        safe = minitorch.where(eq_zero, minitorch.ones_like(c), c)
        logu = minitorch.log1p(-value)
        nonzero = self.loc + self.scale / safe * minitorch.expm1(-safe * logu)
        return minitorch.where(eq_zero, self.loc - self.scale * logu, nonzero)

    def _z(self, x: Tensor) -> Tensor:
        return (x - self.loc) / self.scale

    @property
    def mean(self) -> Tensor:
        valid = self.concentration < 1
        safe = minitorch.where(valid, self.concentration, 0.5)
        return minitorch.where(valid, self.loc + self.scale / (1 - safe), minitorch.nan)

    @property
    def variance(self) -> Tensor:
        valid = self.concentration < 0.5
        safe = minitorch.where(valid, self.concentration, 0.25)
        result = self.scale ** 2 / ((1 - safe) ** 2 * (1 - 2 * safe))
        return minitorch.where(valid, result, minitorch.nan)

    def entropy(self) -> Tensor:
        return minitorch.broadcast_to(minitorch.log(self.scale) + self.concentration + 1,
                                      self._batch_shape)

    @property
    def mode(self) -> Tensor:
        return self.loc

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self) -> constraints.Constraint:
        upper = minitorch.where(self.concentration < 0,
                                self.loc - self.scale / self.concentration, minitorch.inf)
        return constraints.interval(self.loc, upper)
