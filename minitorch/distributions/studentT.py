"""``StudentT``: heavy-tailed ``loc``/``scale`` family with ``df`` degrees of freedom; draws
(a normal over the root of a ``Chi2``'s, torch's for the same seed), scores and moments as
torch computes them.

>>> import minitorch
>>> StudentT(4.).log_prob(minitorch.tensor(0.))
tensor(-0.9808)
"""

from __future__ import annotations

import math
from typing import Any

import minitorch

from .._tensor import Tensor
from . import constraints
from .distribution import Distribution
from .gamma import Chi2
from .utils import _standard_normal, broadcast_all


class StudentT(Distribution):
    """Student's t with ``df`` degrees of freedom, location ``loc`` and scale ``scale``."""

    arg_constraints = {"df": constraints.positive, "loc": constraints.real,
                       "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, df: Tensor | float, loc: Tensor | float = 0.0,
                 scale: Tensor | float = 1.0, validate_args: bool | None = None) -> None:
        self.df, self.loc, self.scale = broadcast_all(df, loc, scale)
        self._chi2 = Chi2(self.df)
        super().__init__(self.df.shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> StudentT:
        """The same distributions repeated over a larger ``batch_shape`` (views, no copy).

        >>> StudentT(3.).expand([2]).df
        tensor([3., 3.])
        """
        new = self._expanded(StudentT, batch_shape, _instance, {"df": (), "loc": (), "scale": ()})
        new._chi2 = self._chi2.expand(new.batch_shape)  # after the parameters, as torch
        return new

    @property
    def mean(self) -> Tensor:
        m = self.loc.clone(memory_format=minitorch.contiguous_format)
        m[self.df <= 1] = math.nan
        return m

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def variance(self) -> Tensor:
        m = self.df.clone(memory_format=minitorch.contiguous_format)
        wide = self.df > 2
        m[wide] = self.scale[wide].pow(2) * self.df[wide] / (self.df[wide] - 2)
        m[(self.df <= 2) & (self.df > 1)] = math.inf
        m[self.df <= 1] = math.nan
        return m

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        x = _standard_normal(shape, dtype=self.df.dtype, device=self.df.device)
        z = self._chi2.rsample(sample_shape)
        return self.loc + self.scale * (x * minitorch.rsqrt(z / self.df))

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        y = (value - self.loc) / self.scale
        z = (self.scale.log() + 0.5 * self.df.log() + 0.5 * math.log(math.pi)
             + minitorch.lgamma(0.5 * self.df) - minitorch.lgamma(0.5 * (self.df + 1.0)))
        return -0.5 * (self.df + 1.0) * minitorch.log1p(y ** 2.0 / self.df) - z

    def entropy(self) -> Tensor:
        lbeta = (minitorch.lgamma(0.5 * self.df) + math.lgamma(0.5)
                 - minitorch.lgamma(0.5 * (self.df + 1)))
        return (self.scale.log()
                + 0.5 * (self.df + 1) * (minitorch.digamma(0.5 * (self.df + 1))
                                         - minitorch.digamma(0.5 * self.df))
                + 0.5 * self.df.log() + lbeta)
