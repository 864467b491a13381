"""``OneHotCategorical``: a ``Categorical``'s classes as one-hot vectors (the last dimension
is the event); draws are the Categorical's, so a seed gives torch's. Its straight-through
twin passes the probabilities' gradient through the draw.

>>> import minitorch
>>> OneHotCategorical(minitorch.tensor([0.0, 1.0])).sample()
tensor([0., 1.])
"""

from __future__ import annotations

from typing import Any

import minitorch

from .._tensor import Size, Tensor
from . import constraints
from .categorical import Categorical
from .distribution import Distribution


class OneHotCategorical(Distribution):
    """One-hot classes with ``probs`` (normalised over the last dimension) or ``logits``."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.one_hot
    has_enumerate_support = True

    def __init__(self, probs: Tensor | None = None, logits: Tensor | None = None,
                 validate_args: bool | None = None) -> None:
        self._categorical = Categorical(probs, logits)
        super().__init__(self._categorical.batch_shape, self._categorical.param_shape[-1:],
                         validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> OneHotCategorical:
        """The same classes' probabilities repeated over a larger ``batch_shape``.

        >>> OneHotCategorical(minitorch.ones(3)).expand([2]).probs.shape
        torch.Size([2, 3])
        """
        new = self._get_checked_instance(OneHotCategorical, _instance)
        new._categorical = self._categorical.expand(batch_shape)
        Distribution.__init__(new, Size(batch_shape), self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def _param(self) -> Tensor:
        return self._categorical._param

    @property
    def probs(self) -> Tensor:
        return self._categorical.probs

    @property
    def logits(self) -> Tensor:
        return self._categorical.logits

    @property
    def mean(self) -> Tensor:
        return self._categorical.probs

    @property
    def mode(self) -> Tensor:
        probs = self._categorical.probs
        return minitorch.nn.functional.one_hot(probs.argmax(dim=-1), probs.shape[-1]).to(probs)

    @property
    def variance(self) -> Tensor:
        return self._categorical.probs * (1 - self._categorical.probs)

    @property
    def param_shape(self) -> Size:
        return self._categorical.param_shape

    def sample(self, sample_shape: Any = ()) -> Tensor:
        indices = self._categorical.sample(Size(sample_shape))
        return minitorch.nn.functional.one_hot(indices, self._categorical._num_events).to(
            self._categorical.probs)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return self._categorical.log_prob(value.max(-1)[1])

    def entropy(self) -> Tensor:
        return self._categorical.entropy()

    def enumerate_support(self, expand: bool = True) -> Tensor:
        """Each one-hot vector along a new first dimension.

        >>> OneHotCategorical(minitorch.ones(2)).enumerate_support()
        tensor([[1., 0.],
                [0., 1.]])
        """
        n = self.event_shape[0]
        values = minitorch.eye(n, dtype=self._param.dtype, device=self._param.device)
        values = values.view((n,) + (1,) * len(self.batch_shape) + (n,))
        return values.expand((n, *self.batch_shape, n)) if expand else values


class OneHotCategoricalStraightThrough(OneHotCategorical):
    """``OneHotCategorical`` whose ``rsample`` is the draw plus ``probs - probs.detach()``:
    the straight-through gradient estimator (Bengio et al., 2013).

    >>> p = minitorch.tensor([0.0, 1.0], requires_grad=True)
    >>> OneHotCategoricalStraightThrough(p).rsample()
    tensor([0., 1.], grad_fn=<AddBackward0>)
    """

    has_rsample = True

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        probs = self._categorical.probs
        return self.sample(sample_shape) + (probs - probs.detach())
