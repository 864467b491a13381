"""``transform_to`` and ``biject_to``: from a constraint to a transform that maps the reals
onto it, so an optimizer can work on an unconstrained parameter.

>>> import minitorch
>>> transform_to(constraints.positive)(minitorch.tensor(0.))
tensor(1.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import minitorch  # noqa: F401 (the doctests' name)

from . import constraints
from .transforms import (
    AffineTransform,
    CatTransform,
    ComposeTransform,
    CorrCholeskyTransform,
    ExpTransform,
    IndependentTransform,
    LowerCholeskyTransform,
    PositiveDefiniteTransform,
    SigmoidTransform,
    SoftmaxTransform,
    StackTransform,
    StickBreakingTransform,
    Transform,
    identity_transform,
)
from .utils import NUMBER


class ConstraintRegistry:
    """Constraint class to transform factory."""

    def __init__(self) -> None:
        self._registry: dict[type, Callable] = {}

    def register(self, constraint: Any, factory: Callable | None = None) -> Any:
        """Register ``factory`` for ``constraint``'s class (a class or an instance).

        >>> r = ConstraintRegistry(); _ = r.register(constraints.real, lambda c: ExpTransform())
        >>> r(constraints.real)
        ExpTransform()
        """
        if factory is None:
            return lambda factory: self.register(constraint, factory)
        if isinstance(constraint, constraints.Constraint):
            constraint = type(constraint)
        if not isinstance(constraint, type) or not issubclass(constraint,
                                                              constraints.Constraint):
            raise TypeError("Expected constraint to be either a Constraint subclass or "
                            f"instance, but got {constraint}")
        self._registry[constraint] = factory
        return factory

    def __call__(self, constraint: constraints.Constraint) -> Transform:
        try:
            factory = self._registry[type(constraint)]
        except KeyError:
            raise NotImplementedError(
                f"Cannot transform {type(constraint).__name__} constraints") from None
        return factory(constraint)


biject_to = ConstraintRegistry()
transform_to = ConstraintRegistry()


@biject_to.register(constraints.real)
@transform_to.register(constraints.real)
def _transform_to_real(constraint: Any) -> Transform:
    return identity_transform


@biject_to.register(constraints.greater_than)
@biject_to.register(constraints.greater_than_eq)
@transform_to.register(constraints.greater_than)
@transform_to.register(constraints.greater_than_eq)
def _transform_to_greater_than(constraint: Any) -> Transform:
    return ComposeTransform([ExpTransform(), AffineTransform(constraint.lower_bound, 1)])


@biject_to.register(constraints.independent)
def _biject_to_independent(constraint: Any) -> Transform:
    return IndependentTransform(biject_to(constraint.base_constraint),
                                constraint.reinterpreted_batch_ndims)


@transform_to.register(constraints.independent)
def _transform_to_independent(constraint: Any) -> Transform:
    return IndependentTransform(transform_to(constraint.base_constraint),
                                constraint.reinterpreted_batch_ndims)


@biject_to.register(constraints.less_than)
@transform_to.register(constraints.less_than)
def _transform_to_less_than(constraint: Any) -> Transform:
    return ComposeTransform([ExpTransform(), AffineTransform(constraint.upper_bound, -1)])


@biject_to.register(constraints.interval)
@biject_to.register(constraints.half_open_interval)
@transform_to.register(constraints.interval)
@transform_to.register(constraints.half_open_interval)
def _transform_to_interval(constraint: Any) -> Transform:
    """A sigmoid, then scaled onto the interval (the unit interval: the sigmoid alone).

    >>> transform_to(constraints.interval(0., 1.))
    SigmoidTransform()
    """
    low, high = constraint.lower_bound, constraint.upper_bound
    if isinstance(low, NUMBER) and low == 0 and isinstance(high, NUMBER) and high == 1:
        return SigmoidTransform()
    return ComposeTransform([SigmoidTransform(), AffineTransform(low, high - low)])


@biject_to.register(constraints.simplex)
def _biject_to_simplex(constraint: Any) -> Transform:
    return StickBreakingTransform()


@transform_to.register(constraints.simplex)
def _transform_to_simplex(constraint: Any) -> Transform:
    return SoftmaxTransform()


@transform_to.register(constraints.lower_cholesky)
def _transform_to_lower_cholesky(constraint: Any) -> Transform:
    return LowerCholeskyTransform()


@transform_to.register(constraints.positive_definite)
@transform_to.register(constraints.positive_semidefinite)
def _transform_to_positive_definite(constraint: Any) -> Transform:
    return PositiveDefiniteTransform()


@biject_to.register(constraints.corr_cholesky)
@transform_to.register(constraints.corr_cholesky)
def _transform_to_corr_cholesky(constraint: Any) -> Transform:
    return CorrCholeskyTransform()


@biject_to.register(constraints.cat)
def _biject_to_cat(constraint: Any) -> Transform:
    """Each piece's own bijection, on its slice.

    >>> t = biject_to(constraints.cat([constraints.real, constraints.real], lengths=[2, 1]))
    >>> t(minitorch.zeros(3)), t.lengths
    (tensor([0., 0., 0.]), [2, 1])
    """
    return CatTransform([biject_to(c) for c in constraint.cseq], constraint.dim,
                        constraint.lengths)


@transform_to.register(constraints.cat)
def _transform_to_cat(constraint: Any) -> Transform:
    return CatTransform([transform_to(c) for c in constraint.cseq], constraint.dim,
                        constraint.lengths)


@biject_to.register(constraints.stack)
def _biject_to_stack(constraint: Any) -> Transform:
    return StackTransform([biject_to(c) for c in constraint.cseq], constraint.dim)


@transform_to.register(constraints.stack)
def _transform_to_stack(constraint: Any) -> Transform:
    return StackTransform([transform_to(c) for c in constraint.cseq], constraint.dim)
