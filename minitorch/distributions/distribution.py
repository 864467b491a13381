"""The base of every distribution: batch and event shapes, argument validation with
torch's messages, ``sample`` from ``rsample`` without a graph, and torch's printed form.

>>> import minitorch
>>> from minitorch.distributions import Normal
>>> Normal(0., 1.)
Normal(loc: 0.0, scale: 1.0)
"""

from __future__ import annotations

import warnings
from typing import Any

import minitorch

from .._tensor import Size, Tensor
from . import constraints
from .utils import lazy_property

_SCALAR = Size()  # the shapes torch gives by default

class Distribution:
    """A probability distribution over values of shape ``batch_shape + event_shape``."""

    has_rsample = False
    has_enumerate_support = False
    _validate_args = __debug__
    arg_constraints: dict[str, constraints.Constraint] = {}

    @staticmethod
    def set_default_validate_args(value: bool) -> None:
        """Whether new distributions check their arguments (on unless Python runs with -O)."""
        if value not in (True, False):
            raise ValueError
        Distribution._validate_args = value

    def __init__(self, batch_shape: Any = _SCALAR, event_shape: Any = _SCALAR,
                 validate_args: bool | None = None) -> None:
        self._batch_shape, self._event_shape = batch_shape, event_shape  # as given, as torch's
        if validate_args is not None:
            self._validate_args = validate_args
        if self._validate_args:
            self._check_parameters()

    def expand(self, batch_shape: Any, _instance: Any = None) -> Distribution:
        """A view of this distribution over a larger ``batch_shape``: each subclass's own."""
        raise NotImplementedError

    def enumerate_support(self, expand: bool = True) -> Tensor:
        """Every value of a discrete support, along a new first dim: each subclass's own."""
        raise NotImplementedError

    def _enumerate(self, count: int, dtype: Any, device: Any, expand: bool) -> Tensor:
        """``0 .. count-1`` along dim 0 with a dim per batch dim (of size 1, or expanded)."""
        values = minitorch.arange(count, dtype=dtype, device=device)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1, *self._batch_shape)) if expand else values

    def _expanded(self, cls: type, batch_shape: Any, _instance: Any, params: dict,
                  **copied: Any) -> Any:
        """``expand``'s steps: a bare ``cls`` instance whose parameters (those of ``params``
        this one holds, each expanded to ``batch_shape`` plus its trailing shape) are views
        of these, with the ``copied`` attributes, shapes set and no check run again."""
        new = self._get_checked_instance(cls, _instance)
        batch_shape = Size(batch_shape)
        for name, tail in params.items():
            if name in self.__dict__:
                setattr(new, name, self.__dict__[name].expand((*batch_shape, *tail)))
        new.__dict__.update(copied)
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def _get_checked_instance(self, cls: type, _instance: Any = None) -> Any:
        """A bare instance of ``self``'s class for ``expand`` to fill; a subclass with its
        own ``__init__`` must have its own ``expand``."""
        if _instance is None and type(self).__init__ != cls.__init__:
            raise NotImplementedError(f"Subclass {type(self).__name__} of {cls.__name__} that "
                                      "defines a custom __init__ method must also define a "
                                      "custom .expand() method.")
        return self.__new__(type(self)) if _instance is None else _instance

    def _check_parameters(self) -> None:
        for param, constraint in self.arg_constraints.items():
            if constraints.is_dependent(constraint):
                continue
            if param not in self.__dict__ and isinstance(getattr(type(self), param),
                                                         lazy_property):
                continue  # derived from the parameter that was given
            value = getattr(self, param)
            if not bool(constraint.check(value).all()):
                raise ValueError(
                    f"Expected parameter {param} ({type(value).__name__} of shape "
                    f"{tuple(value.shape)}) of distribution {self!r} to satisfy the "
                    f"constraint {constraint!r}, but found invalid values:\n{value}")

    @property
    def batch_shape(self) -> Size:
        return self._batch_shape

    @property
    def event_shape(self) -> Size:
        return self._event_shape

    @property
    def support(self) -> constraints.Constraint:
        """The constraint the values lie in: each subclass's own."""
        raise NotImplementedError

    @property
    def mean(self) -> Tensor:
        """Each subclass's own; a distribution without one refuses, as torch's."""
        raise NotImplementedError

    @property
    def mode(self) -> Tensor:
        """Each subclass's own; a distribution without one refuses, as torch's."""
        raise NotImplementedError(f"{self.__class__} does not implement mode")

    @property
    def variance(self) -> Tensor:
        """Each subclass's own; a distribution without one refuses, as torch's."""
        raise NotImplementedError

    @property
    def stddev(self) -> Tensor:
        return self.variance.sqrt()

    def sample(self, sample_shape: Any = ()) -> Tensor:
        """A sample of shape ``sample_shape + batch_shape + event_shape``, without a graph."""
        with minitorch.no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        raise NotImplementedError

    def sample_n(self, n: int) -> Tensor:
        """``n`` samples along a new first dimension: ``sample((n,))``, with torch's
        deprecation warning."""
        warnings.warn("`sample_n(n)` will be deprecated. Use `sample((n,))` instead.",
                      FutureWarning, stacklevel=2)
        return self.sample(Size((n,)))

    # the scores a subclass defines; torch's base class refuses them as these do
    def log_prob(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def cdf(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def icdf(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def entropy(self) -> Tensor:
        raise NotImplementedError

    def perplexity(self) -> Tensor:
        return self.entropy().exp()

    def _extended_shape(self, sample_shape: Any = ()) -> Size:
        sample_shape = Size(sample_shape)  # (torch's errors for what is not a shape)
        return Size(sample_shape + self._batch_shape + self._event_shape)

    def _validate_sample(self, value: Any) -> None:
        """torch's checks of a value to score: a tensor, of a shape that broadcasts, in the
        support."""
        if not isinstance(value, Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        start = value.dim() - len(self._event_shape)
        if value.shape[start:] != self._event_shape:
            raise ValueError("The right-most size of value must match event_shape: "
                             f"{value.shape} vs {self._event_shape}.")
        expected = Size(tuple(self._batch_shape) + tuple(self._event_shape))
        for i, j in zip(reversed(value.shape), reversed(expected)):
            if i != 1 and j != 1 and i != j:
                raise ValueError("Value is not broadcastable with batch_shape+event_shape: "
                                 f"{value.shape} vs {expected}.")
        support = self.support
        if not bool(support.check(value).all()):
            raise ValueError(
                f"Expected value argument ({type(value).__name__} of shape "
                f"{tuple(value.shape)}) to be within the support ({support!r}) of the "
                f"distribution {self!r}, but found invalid values:\n{value}")

    def __repr__(self) -> str:
        given = [(k, self.__dict__[k]) for k in self.arg_constraints if k in self.__dict__]
        # a one-element parameter is shown by value (a 0-d tensor formats as its number)
        args = ", ".join(f"{k}: {v if v.numel() == 1 else v.size()}" for k, v in given)
        return f"{type(self).__name__}({args})"
