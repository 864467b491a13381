"""``OneHotCategorical``: a ``Categorical`` whose values are one-hot vectors, and its
straight-through twin whose ``rsample`` passes gradients to the probabilities.

>>> import minitorch
>>> _ = minitorch.manual_seed(0)
>>> m = OneHotCategorical(minitorch.tensor([0.3, 0.7]))
>>> a = m.sample()
>>> a, m.log_prob(a)
(tensor([0., 1.]), tensor(-0.3567))
"""

from __future__ import annotations

from typing import Any

import minitorch
from minitorch.nn.functional import one_hot

from .._tensor import Tensor
from . import constraints
from .over_categorical import OverCategorical
from .utils import own_init


@own_init
class OneHotCategorical(OverCategorical):
    """One of ``K`` classes as a vector of ``K`` with a single 1; ``probs`` or ``logits`` as
    ``Categorical`` takes them (it draws the classes: torch's numbers for a seed)."""

    support = constraints.one_hot
    has_enumerate_support = True

    @property
    def mean(self) -> Tensor:
        return self.probs

    @property
    def mode(self) -> Tensor:
        return one_hot(self.probs.argmax(dim=-1), self.probs.shape[-1]).to(self.probs)

    @property
    def variance(self) -> Tensor:
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        classes = self._categorical.sample(sample_shape)
        return one_hot(classes, self._categorical._num_events).to(self.probs)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return self._categorical.log_prob(value.max(-1)[1])

    def entropy(self) -> Tensor:
        return self._categorical.entropy()

    def enumerate_support(self, expand: bool = True) -> Tensor:
        """The ``K`` one-hot vectors along a new first dim.

        >>> OneHotCategorical(minitorch.ones(2)).enumerate_support()
        tensor([[1., 0.],
                [0., 1.]])
        """
        n = self.event_shape[0]
        values = minitorch.eye(n, dtype=self._param.dtype, device=self._param.device)
        values = values.view((n,) + (1,) * len(self.batch_shape) + (n,))
        return values.expand((n, *self.batch_shape, n)) if expand else values


class OneHotCategoricalStraightThrough(OneHotCategorical):
    """``rsample`` is a one-hot sample whose gradient flows to ``probs`` as if it were
    ``probs`` (the straight-through estimator of Bengio et al., 2013).

    >>> p = minitorch.tensor([0.3, 0.7], requires_grad=True)
    >>> x = OneHotCategoricalStraightThrough(p).rsample()
    >>> (x * minitorch.tensor([1., 2.])).sum().backward()
    >>> p.grad
    tensor([-0.7000,  0.3000])
    """

    has_rsample = True

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        samples = self.sample(sample_shape)
        probs = self.probs
        return samples + (probs - probs.detach())
