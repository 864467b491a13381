"""``RelaxedOneHotCategorical``: a one-hot class relaxed to a point of the simplex at a
``temperature`` (Gumbel-softmax), and ``ExpRelaxedCategorical``, the law of its log.

>>> import minitorch
>>> d = RelaxedOneHotCategorical(minitorch.tensor(1.), minitorch.tensor([0.5, 0.5]))
>>> d.log_prob(minitorch.tensor([0.5, 0.5]))
tensor(0.)
"""

from __future__ import annotations

from typing import Any

import minitorch

from .._tensor import Tensor
from . import constraints
from .over_categorical import OverCategorical
from .relaxed_bernoulli import Relaxed
from .transforms import ExpTransform
from .utils import broadcast_all, clamp_probs


class ExpRelaxedCategorical(OverCategorical):
    """``rsample`` is the log-softmax of ``(logits + gumbel) / temperature``, the Gumbel
    noise from ``rand`` as torch draws it: torch's numbers for a seed."""

    support = constraints.real_vector  # in truth a submanifold of it
    has_rsample = True
    _copied = ("temperature",)

    def __init__(self, temperature: Tensor, probs: Tensor | None = None,
                 logits: Tensor | None = None, validate_args: bool | None = None) -> None:
        self.temperature = temperature
        super().__init__(probs, logits, validate_args=validate_args)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        uniforms = clamp_probs(minitorch.rand(shape, dtype=self.logits.dtype,
                                              device=self.logits.device))
        gumbels = -((-(uniforms.log())).log())
        scores = (self.logits + gumbels) / self.temperature
        return scores - scores.logsumexp(dim=-1, keepdim=True)

    def log_prob(self, value: Tensor) -> Tensor:
        k = self._categorical._num_events
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        log_scale = (minitorch.full_like(self.temperature, float(k)).lgamma()
                     - self.temperature.log().mul(-(k - 1)))
        score = logits - value.mul(self.temperature)
        return (score - score.logsumexp(dim=-1, keepdim=True)).sum(-1) + log_scale


class RelaxedOneHotCategorical(Relaxed):
    """The ``exp`` of an ``ExpRelaxedCategorical``, built as torch builds it: its samples for
    a seed are torch's."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.simplex

    def __init__(self, temperature: Tensor, probs: Tensor | None = None,
                 logits: Tensor | None = None, validate_args: bool | None = None) -> None:
        base_dist = ExpRelaxedCategorical(temperature, probs, logits,
                                          validate_args=validate_args)
        super().__init__(base_dist, ExpTransform(), validate_args=validate_args)
