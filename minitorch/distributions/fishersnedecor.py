"""``FisherSnedecor``: the F distribution, the ratio of two chi-squared variables each
over its ``df``.

>>> import minitorch
>>> FisherSnedecor(2., 6.).mean
tensor(1.5000)
"""

from __future__ import annotations

from typing import Any

import minitorch

from .._tensor import Size, Tensor
from . import constraints
from .distribution import Distribution
from .gamma import Gamma
from .utils import NUMBER, broadcast_all


def _nan_where(value: Tensor, mask: Tensor) -> Tensor:
    """A copy of ``value`` with NaN where ``mask`` holds (an undefined moment)."""
    value = value.clone()
    value[mask] = minitorch.nan
    return value


class FisherSnedecor(Distribution):
    """F with ``df1`` and ``df2`` degrees of freedom; draws are two gamma draws' ratio."""

    arg_constraints = {"df1": constraints.positive, "df2": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, df1: Tensor | float, df2: Tensor | float,
                 validate_args: bool | None = None) -> None:
        self.df1, self.df2 = broadcast_all(df1, df2)
        self._gamma1 = Gamma(self.df1 * 0.5, self.df1)
        self._gamma2 = Gamma(self.df2 * 0.5, self.df2)
        scalars = isinstance(df1, NUMBER) and isinstance(df2, NUMBER)
        super().__init__(Size() if scalars else self.df1.size(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> FisherSnedecor:
        """The same distributions repeated over a larger ``batch_shape`` (views, no copy).

        >>> FisherSnedecor(2., 6.).expand([2]).df1
        tensor([2., 2.])
        """
        new = self._expanded(FisherSnedecor, batch_shape, _instance, {"df1": (), "df2": ()})
        new._gamma1 = self._gamma1.expand(new.batch_shape)  # after the parameters, as torch
        new._gamma2 = self._gamma2.expand(new.batch_shape)
        return new

    @property
    def mean(self) -> Tensor:
        df2 = _nan_where(self.df2, self.df2 <= 2)
        return df2 / (df2 - 2)

    @property
    def mode(self) -> Tensor:
        mode = (self.df1 - 2) / self.df1 * self.df2 / (self.df2 + 2)
        return _nan_where(mode, self.df1 <= 2)

    @property
    def variance(self) -> Tensor:
        df1, df2 = self.df1, _nan_where(self.df2, self.df2 <= 4)
        return 2 * df2.pow(2) * (df1 + df2 - 2) / (df1 * (df2 - 2).pow(2) * (df2 - 4))

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        x1 = self._gamma1.rsample(sample_shape).view(shape)
        x2 = self._gamma2.rsample(sample_shape).view(shape)
        tiny = minitorch.finfo(x2.dtype).tiny
        return (x1 / x2.clamp(min=tiny)).clamp(min=tiny)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        ct1, ct2, ct3 = self.df1 * 0.5, self.df2 * 0.5, self.df1 / self.df2
        t1 = (ct1 + ct2).lgamma() - ct1.lgamma() - ct2.lgamma()
        t2 = ct1 * ct3.log() + (ct1 - 1) * minitorch.log(value)
        t3 = (ct1 + ct2) * minitorch.log1p(ct3 * value)
        return t1 + t2 - t3
