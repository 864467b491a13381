"""``Categorical``: one of ``K`` classes, given its probabilities or its logits.

>>> import minitorch
>>> _ = minitorch.manual_seed(0)
>>> m = Categorical(minitorch.tensor([0.3, 0.7]))
>>> a = m.sample()
>>> a, m.log_prob(a)
(tensor(1), tensor(-0.3567))
"""

from __future__ import annotations

import math
from typing import Any

import minitorch

from .._tensor import Size, Tensor
from . import constraints
from .distribution import Distribution
from .utils import lazy_property, logits_to_probs, probs_to_logits


class Categorical(Distribution):
    """Classes ``0 .. K-1`` over the last dim of ``probs`` (normalised to sum to 1) or of
    ``logits`` (normalised to log-sum-exp 0); the other dims are the batch."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    has_enumerate_support = True

    def __init__(self, probs: Tensor | None = None, logits: Tensor | None = None,
                 validate_args: bool | None = None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.probs = probs / probs.sum(-1, keepdim=True)
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)
        self._param = self.probs if probs is not None else self.logits
        self._num_events = self._param.shape[-1]
        batch = self._param.shape[:-1] if self._param.dim() > 1 else Size()
        super().__init__(batch, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Categorical:
        """The same classes' probabilities repeated over a larger ``batch_shape``.

        >>> Categorical(minitorch.ones(3)).expand([2]).probs.shape
        torch.Size([2, 3])
        """
        events = (self._num_events,)
        new = self._expanded(Categorical, batch_shape, _instance,
                             {"probs": events, "logits": events}, _num_events=events[0])
        new._param = new.__dict__.get("logits", new.__dict__.get("probs"))
        return new

    @property
    def support(self) -> constraints.Constraint:
        return constraints.integer_interval(0, self._num_events - 1)

    @lazy_property
    def logits(self) -> Tensor:
        return probs_to_logits(self.probs)

    @lazy_property
    def probs(self) -> Tensor:
        return logits_to_probs(self.logits)

    @property
    def param_shape(self) -> Size:
        return self._param.shape

    @property
    def mean(self) -> Tensor:
        return minitorch.full(self._extended_shape(), math.nan, dtype=self.probs.dtype)

    variance = mean

    @property
    def mode(self) -> Tensor:
        return self.probs.argmax(dim=-1)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        """Draws with ``multinomial`` on the probabilities as rows, as torch does, so a seed
        gives torch's classes."""
        sample_shape = Size(sample_shape)
        rows = minitorch.multinomial(self.probs.reshape(-1, self._num_events),
                                     sample_shape.numel(), True).T
        return rows.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        value = value.long().unsqueeze(-1)
        shape = minitorch.broadcast_shapes(value.shape, self.logits.shape)
        value, log_pmf = value.expand(shape), self.logits.expand(shape)
        return log_pmf.gather(-1, value[..., :1]).squeeze(-1)

    def entropy(self) -> Tensor:
        logits = self.logits.clamp(min=minitorch.finfo(self.logits.dtype).min)
        return -(logits * self.probs).sum(-1)

    def enumerate_support(self, expand: bool = True) -> Tensor:
        """The classes ``0 .. K-1`` along a new first dim.

        >>> Categorical(minitorch.ones(2, 3)).enumerate_support(expand=False)
        tensor([[0],
                [1],
                [2]])
        """
        return self._enumerate(self._num_events, minitorch.long, self._param.device, expand)
