"""``OverCategorical``: what a distribution built on an inner ``Categorical`` shares
(OneHotCategorical, Multinomial, ExpRelaxedCategorical): ``probs`` or ``logits`` given to
it, the batch shape its batch, one event of ``K`` values, and ``expand``.

>>> import minitorch
>>> from minitorch.distributions import OneHotCategorical
>>> OneHotCategorical(logits=minitorch.zeros(2)).probs
tensor([0.5000, 0.5000])
"""

from __future__ import annotations

from typing import Any

from .._tensor import Size, Tensor
from . import constraints
from .categorical import Categorical
from .distribution import Distribution


class OverCategorical(Distribution):
    """The parameters live in ``self._categorical``; ``_copied`` names the attributes of a
    subclass that ``expand`` carries over as they are."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    _copied: tuple[str, ...] = ()

    def __init__(self, probs: Tensor | None = None, logits: Tensor | None = None,
                 validate_args: bool | None = None) -> None:
        self._categorical = Categorical(probs, logits)
        self._check_inner()
        super().__init__(self._categorical.batch_shape, self._categorical.param_shape[-1:],
                         validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Any:
        """The same classes' probabilities repeated over a larger ``batch_shape``.

        >>> from minitorch.distributions import OneHotCategorical
        >>> OneHotCategorical(minitorch.ones(3)).expand([2]).probs.shape
        torch.Size([2, 3])
        """
        family = next(c for c in type(self).__mro__ if OverCategorical in c.__bases__)
        new = self._get_checked_instance(family, _instance)
        for name in self._copied:
            setattr(new, name, getattr(self, name))
        new._categorical = self._categorical.expand(batch_shape)
        Distribution.__init__(new, Size(batch_shape), self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def _check_inner(self) -> None:
        """What a subclass checks once its categorical is built, before its own arguments."""

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
    def param_shape(self) -> Size:
        return self._categorical.param_shape
