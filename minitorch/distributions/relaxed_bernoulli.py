"""``RelaxedBernoulli``: a coin relaxed to values in (0, 1) at a ``temperature`` (the
binary Concrete / Gumbel-softmax of Maddison et al. and Jang et al., 2017), and
``LogitRelaxedBernoulli``, the law of its logit.

>>> import minitorch
>>> d = RelaxedBernoulli(minitorch.tensor(0.5), probs=0.5)
>>> d.log_prob(minitorch.tensor(0.5))
tensor(-0.6931)
"""

from __future__ import annotations

from typing import Any

import minitorch

from .._tensor import Size, Tensor
from . import constraints
from .coin import Coin
from .transformed_distribution import TransformedDistribution
from .transforms import SigmoidTransform
from .utils import broadcast_all, clamp_probs


class LogitRelaxedBernoulli(Coin):
    """``rsample`` is ``(logit(u) + logit(probs)) / temperature`` for ``u = rand``, as torch
    draws it: torch's numbers for a seed."""

    support = constraints.real

    def __init__(self, temperature: Tensor, probs: Tensor | float | None = None,
                 logits: Tensor | float | None = None,
                 validate_args: bool | None = None) -> None:
        self.temperature = temperature
        super().__init__(probs, logits, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> LogitRelaxedBernoulli:
        """The same coins at the same temperature over a larger ``batch_shape``.

        >>> LogitRelaxedBernoulli(minitorch.tensor(1.), 0.5).expand([2]).probs
        tensor([0.5000, 0.5000])
        """
        new = super().expand(batch_shape, _instance)
        new.temperature = self.temperature
        return new

    @property
    def param_shape(self) -> Size:
        return self._param.shape

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        probs = clamp_probs(self.probs.expand(shape))
        uniforms = clamp_probs(minitorch.rand(shape, dtype=probs.dtype, device=probs.device))
        return (uniforms.log() - (-uniforms).log1p() + probs.log() - (-probs).log1p()) \
            / self.temperature

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        diff = logits - value.mul(self.temperature)
        return self.temperature.log() + diff - 2 * diff.exp().log1p()


class Relaxed(TransformedDistribution):
    """What the relaxed families share (RelaxedBernoulli, RelaxedOneHotCategorical): a base
    of ``temperature`` and ``probs`` or ``logits`` through one transform, and ``expand``."""

    has_rsample = True

    def expand(self, batch_shape: Any, _instance: Any = None) -> Any:
        """The same relaxed distributions over a larger ``batch_shape``.

        >>> RelaxedBernoulli(minitorch.tensor(1.), 0.5).expand([2]).batch_shape
        torch.Size([2])
        """
        family = next(c for c in type(self).__mro__ if Relaxed in c.__bases__)
        new = self._get_checked_instance(family, _instance)
        return super().expand(batch_shape, _instance=new)

    @property
    def temperature(self) -> Tensor:
        return self.base_dist.temperature

    @property
    def logits(self) -> Tensor:
        return self.base_dist.logits

    @property
    def probs(self) -> Tensor:
        return self.base_dist.probs


class RelaxedBernoulli(Relaxed):
    """The sigmoid of a ``LogitRelaxedBernoulli``, built as torch builds it: its samples for
    a seed are torch's."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval

    def __init__(self, temperature: Tensor, probs: Tensor | float | None = None,
                 logits: Tensor | float | None = None,
                 validate_args: bool | None = None) -> None:
        base_dist = LogitRelaxedBernoulli(temperature, probs, logits)
        super().__init__(base_dist, SigmoidTransform(), validate_args=validate_args)
