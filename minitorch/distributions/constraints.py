"""Constraints: the sets a distribution's parameters and samples must lie in, each with a
``check`` (a bool tensor) and torch's printed name.

>>> import minitorch
>>> positive.check(minitorch.tensor([1., -1.]))
tensor([ True, False])
>>> positive
GreaterThan(lower_bound=0.0)
"""

from __future__ import annotations

from typing import Any

import minitorch

from .._tensor import Tensor


class Constraint:
    """A set of values; ``event_dim`` dims of a value make one event."""

    is_discrete = False
    event_dim = 0

    def check(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def __repr__(self) -> str:
        return type(self).__name__.lstrip("_") + "()"


class _Dependent(Constraint):
    """A constraint that depends on other parameters: not checked on its own."""

    def __init__(self, is_discrete: bool = False, event_dim: int = 0) -> None:
        self.is_discrete, self.event_dim = is_discrete, event_dim


class dependent_property(property):
    """A property whose constraint depends on the instance (``Uniform.support``)."""

    def __init__(self, fn: Any = None, *, is_discrete: bool = False, event_dim: int = 0) -> None:
        super().__init__(fn)
        self.is_discrete, self.event_dim = is_discrete, event_dim

    def __call__(self, fn: Any) -> dependent_property:
        return dependent_property(fn, is_discrete=self.is_discrete, event_dim=self.event_dim)


def is_dependent(constraint: Any) -> bool:
    return isinstance(constraint, _Dependent)


class _Real(Constraint):
    def check(self, value: Tensor) -> Tensor:
        return value == value  # false for NaN only


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value: Tensor) -> Tensor:
        return (value == 0) | (value == 1)


class _Bounded(Constraint):
    """Bounds named ``lower_bound``/``upper_bound`` and printed as torch prints them."""

    _names: tuple[str, ...] = ()

    def __repr__(self) -> str:
        bounds = ", ".join(f"{name}={getattr(self, name)}" for name in self._names)
        return f"{type(self).__name__[1:]}({bounds})"


class _GreaterThan(_Bounded):
    _names = ("lower_bound",)

    def __init__(self, lower_bound: Any) -> None:
        self.lower_bound = lower_bound

    def check(self, value: Tensor) -> Tensor:
        return self.lower_bound < value


class _GreaterThanEq(_Bounded):
    _names = ("lower_bound",)

    def __init__(self, lower_bound: Any) -> None:
        self.lower_bound = lower_bound

    def check(self, value: Tensor) -> Tensor:
        return self.lower_bound <= value


class _LessThan(_Bounded):
    _names = ("upper_bound",)

    def __init__(self, upper_bound: Any) -> None:
        self.upper_bound = upper_bound

    def check(self, value: Tensor) -> Tensor:
        return value < self.upper_bound


class _Interval(_Bounded):
    _names = ("lower_bound", "upper_bound")

    def __init__(self, lower_bound: Any, upper_bound: Any) -> None:
        self.lower_bound, self.upper_bound = lower_bound, upper_bound

    def check(self, value: Tensor) -> Tensor:
        return (self.lower_bound <= value) & (value <= self.upper_bound)


class _HalfOpenInterval(_Interval):
    def check(self, value: Tensor) -> Tensor:
        return (self.lower_bound <= value) & (value < self.upper_bound)


class _IntegerInterval(_Interval):
    is_discrete = True

    def check(self, value: Tensor) -> Tensor:
        return (value % 1 == 0) & super().check(value)


class _IntegerGreaterThan(_GreaterThanEq):
    """Whole numbers from ``lower_bound`` up."""

    is_discrete = True

    def __repr__(self) -> str:
        return f"IntegerGreaterThan(lower_bound={self.lower_bound})"

    def check(self, value: Tensor) -> Tensor:
        return (value % 1 == 0) & (value >= self.lower_bound)


class _Simplex(Constraint):
    event_dim = 1

    def check(self, value: Tensor) -> Tensor:
        return (value >= 0).all(dim=-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class _OneHot(Constraint):
    """Vectors of zeros and ones with a single one."""

    is_discrete = True
    event_dim = 1

    def check(self, value: Tensor) -> Tensor:
        return ((value == 0) | (value == 1)).all(-1) & value.sum(-1).eq(1)


class _Multinomial(Constraint):
    """Vectors of nonnegative counts summing to at most ``upper_bound`` (torch's weaker check
    than equal)."""

    is_discrete = True
    event_dim = 1

    def __init__(self, upper_bound: int) -> None:
        self.upper_bound = upper_bound

    def check(self, value: Tensor) -> Tensor:
        return (value >= 0).all(dim=-1) & (value.sum(dim=-1) <= self.upper_bound)


class _LowerCholesky(Constraint):
    """Lower-triangular square matrices with a positive diagonal."""

    event_dim = 2

    def check(self, value: Tensor) -> Tensor:
        lower = _LowerTriangular().check(value)
        return lower & (value.diagonal(dim1=-2, dim2=-1) > 0).all(-1)


class _LowerTriangular(Constraint):
    event_dim = 2

    def check(self, value: Tensor) -> Tensor:
        return (value.tril() == value).reshape((*value.shape[:-2], -1)).all(-1)


class _Square(Constraint):
    event_dim = 2

    def check(self, value: Tensor) -> Tensor:
        return minitorch.full(value.shape[:-2], value.shape[-2] == value.shape[-1],
                              dtype=minitorch.bool, device=value.device)


class _Symmetric(_Square):
    def check(self, value: Tensor) -> Tensor:
        square = super().check(value)
        if not bool(square.all()):
            return square
        return minitorch.isclose(value, value.mT, atol=1e-6).all(-2).all(-1)


class _PositiveDefinite(_Symmetric):
    """Symmetric matrices whose Cholesky factorisation succeeds."""

    def check(self, value: Tensor) -> Tensor:
        symmetric = super().check(value)
        if not bool(symmetric.all()):
            return symmetric
        return minitorch.linalg.cholesky_ex(value).info.eq(0)


class _PositiveSemidefinite(_Symmetric):
    """Symmetric matrices with no negative eigenvalue."""

    def check(self, value: Tensor) -> Tensor:
        symmetric = super().check(value)
        if not bool(symmetric.all()):
            return symmetric
        return minitorch.linalg.eigvalsh(value).ge(0).all(-1)


class _IndependentConstraint(Constraint):
    """``base`` checked per element, then all of the last ``reinterpreted_batch_ndims``."""

    def __init__(self, base: Constraint, reinterpreted_batch_ndims: int) -> None:
        self.base_constraint, self.reinterpreted_batch_ndims = base, reinterpreted_batch_ndims
        self.event_dim = base.event_dim + reinterpreted_batch_ndims

    def check(self, value: Tensor) -> Tensor:
        result = self.base_constraint.check(value)
        n = self.reinterpreted_batch_ndims
        if result.dim() < n:
            raise ValueError(f"Expected value.dim() >= {self.base_constraint.event_dim + n} "
                             f"but got {value.dim()}")
        return result.reshape((*result.shape[:result.dim() - n], -1)).all(-1)

    def __repr__(self) -> str:
        return f"IndependentConstraint({self.base_constraint!r}, {self.reinterpreted_batch_ndims})"



class _CorrCholesky(Constraint):
    """Lower Cholesky factors of correlation matrices: each row of unit length (to within
    ten machine epsilons per column)."""

    event_dim = 2

    def check(self, value: Tensor) -> Tensor:
        tol = minitorch.finfo(value.dtype).eps * value.size(-1) * 10
        row_norm = minitorch.linalg.norm(value.detach(), dim=-1)
        unit_rows = (row_norm - 1.0).abs().le(tol).all(dim=-1)
        return _LowerCholesky().check(value) & unit_rows


def _check_dim(dim: int, value: Tensor) -> None:
    if not -value.dim() <= dim < value.dim():
        raise AssertionError(f"dim {dim} out of range for value with {value.dim()} dimensions")


class _Cat(Constraint):
    """Constraints ``cseq`` each checked on its own ``lengths`` slice along ``dim``."""

    def __init__(self, cseq: Any, dim: int = 0, lengths: Any = None) -> None:
        if not all(isinstance(c, Constraint) for c in cseq):
            raise AssertionError("All elements of cseq must be Constraint instances")
        self.cseq, self.dim = list(cseq), dim
        self.lengths = [1] * len(self.cseq) if lengths is None else list(lengths)
        if len(self.lengths) != len(self.cseq):
            raise AssertionError(f"lengths ({len(self.lengths)}) must match cseq "
                                 f"({len(self.cseq)})")

    @property
    def is_discrete(self) -> bool:  # type: ignore[override]
        return any(c.is_discrete for c in self.cseq)

    @property
    def event_dim(self) -> int:  # type: ignore[override]
        return max(c.event_dim for c in self.cseq)

    def check(self, value: Tensor) -> Tensor:
        _check_dim(self.dim, value)
        checks, start = [], 0
        for constraint, length in zip(self.cseq, self.lengths):
            checks.append(constraint.check(value.narrow(self.dim, start, length)))
            start += length
        return minitorch.cat(checks, self.dim)


class _Stack(_Cat):
    """Constraints ``cseq`` each checked on its own slice ``value.select(dim, i)``."""

    def __init__(self, cseq: Any, dim: int = 0) -> None:
        super().__init__(cseq, dim)

    @property
    def event_dim(self) -> int:  # type: ignore[override]
        """The pieces' event dims, one more where ``dim`` (negative) falls among them."""
        dim = max(c.event_dim for c in self.cseq)
        return dim + 1 if self.dim + dim < 0 else dim

    def check(self, value: Tensor) -> Tensor:
        _check_dim(self.dim, value)
        parts = [value.select(self.dim, i) for i in range(value.size(self.dim))]
        return minitorch.stack([c.check(v) for c, v in zip(self.cseq, parts)], self.dim)


class MixtureSameFamilyConstraint(Constraint):
    """A mixture's support: ``base_constraint`` (its components') checked with the component
    dim put back, a value valid where it is valid for every component.

    >>> MixtureSameFamilyConstraint(positive).check(minitorch.tensor([1., -1.]))
    tensor([ True, False])
    """

    def __init__(self, base_constraint: Constraint) -> None:
        if not isinstance(base_constraint, Constraint):
            raise AssertionError("base_constraint must be a Constraint, got "
                                 f"{type(base_constraint).__name__}")
        self.base_constraint = base_constraint

    @property
    def is_discrete(self) -> bool:  # type: ignore[override]
        return self.base_constraint.is_discrete

    @property
    def event_dim(self) -> int:  # type: ignore[override]
        return self.base_constraint.event_dim

    def check(self, value: Tensor) -> Tensor:
        result = self.base_constraint.check(value.unsqueeze(-1 - self.event_dim))
        if value.dim() < self.event_dim:
            raise ValueError(f"Expected value.dim() >= {self.event_dim} but got {value.dim()}")
        kept = value.dim() - self.event_dim
        return result.reshape((*result.shape[:kept], -1)).all(-1)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.base_constraint!r})"

dependent = _Dependent()
real = _Real()
real_vector = _IndependentConstraint(real, 1)
boolean = _Boolean()
positive = _GreaterThan(0.0)
nonnegative = _GreaterThanEq(0.0)
nonnegative_integer = _IntegerGreaterThan(0)
positive_integer = _IntegerGreaterThan(1)
unit_interval = _Interval(0.0, 1.0)
simplex = _Simplex()
one_hot = _OneHot()
multinomial = _Multinomial
lower_cholesky = _LowerCholesky()
lower_triangular = _LowerTriangular()
square = _Square()
symmetric = _Symmetric()
positive_definite = _PositiveDefinite()
positive_semidefinite = _PositiveSemidefinite()
corr_cholesky = _CorrCholesky()
cat = _Cat
stack = _Stack
greater_than = _GreaterThan
greater_than_eq = _GreaterThanEq
less_than = _LessThan
interval = _Interval
half_open_interval = _HalfOpenInterval
independent = _IndependentConstraint
integer_interval = _IntegerInterval
