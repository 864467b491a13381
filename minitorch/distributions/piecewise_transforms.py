"""Transforms that act piece by piece along a dim: ``CatTransform`` on slices of given
lengths (as ``cat`` joins them), ``StackTransform`` on each index (as ``stack`` does).

>>> import minitorch
>>> from minitorch.distributions.transforms import ExpTransform, identity_transform
>>> StackTransform([ExpTransform(), identity_transform])(minitorch.zeros(2))
tensor([1., 0.])
"""

from __future__ import annotations

from typing import Any

import minitorch

from .._tensor import Tensor
from . import constraints
from .transforms import Transform
from .utils import _sum_rightmost, lazy_property


def _transforms_of(tseq: Any, cache_size: int) -> list[Transform]:
    if not all(isinstance(t, Transform) for t in tseq):
        raise AssertionError("All elements of tseq must be Transform instances")
    return [t.with_cache(cache_size) for t in tseq] if cache_size else list(tseq)


def _check_along(dim: int, value: Tensor, name: str, size: int, what: str,
                 role: str = "tensor") -> None:
    """torch's two checks of a value before slicing it: ``dim`` is one of its dims and it
    is ``size`` long along it."""
    if not -value.dim() <= dim < value.dim():
        raise AssertionError(f"dim {dim} out of range for {role} with {value.dim()} dimensions")
    if value.size(dim) != size:
        raise AssertionError(f"{name}.size({dim}) = {value.size(dim)} must equal {what} {size}")


class CatTransform(Transform):
    """``tseq[i]`` applied to the i-th slice (``lengths[i]`` long) along ``dim``.

    >>> from minitorch.distributions.transforms import ExpTransform, identity_transform
    >>> CatTransform([ExpTransform(), identity_transform], lengths=[1, 2])(minitorch.zeros(3))
    tensor([1., 0., 0.])
    """

    def __init__(self, tseq: Any, dim: int = 0, lengths: Any = None,
                 cache_size: int = 0) -> None:
        tseq = _transforms_of(tseq, cache_size)
        super().__init__(cache_size=cache_size)
        self.transforms = tseq
        self.lengths = [1] * len(tseq) if lengths is None else list(lengths)
        if len(self.lengths) != len(self.transforms):
            raise AssertionError(f"lengths ({len(self.lengths)}) must match transforms "
                                 f"({len(self.transforms)})")
        self.dim = dim

    @lazy_property
    def event_dim(self) -> int:  # type: ignore[override]
        return max(t.event_dim for t in self.transforms)

    @lazy_property
    def length(self) -> int:
        return sum(self.lengths)

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return CatTransform(self.transforms, self.dim, self.lengths, cache_size)

    def _slices(self, value: Tensor) -> list[Tensor]:
        starts = [sum(self.lengths[:i]) for i in range(len(self.lengths))]
        return [value.narrow(self.dim, s, n) for s, n in zip(starts, self.lengths)]

    def _call(self, x: Tensor) -> Tensor:
        _check_along(self.dim, x, "x", self.length, "length")
        return minitorch.cat([t(v) for t, v in zip(self.transforms, self._slices(x))], self.dim)

    def _inverse(self, y: Tensor) -> Tensor:
        _check_along(self.dim, y, "y", self.length, "length")
        return minitorch.cat([t.inv(v) for t, v in zip(self.transforms, self._slices(y))],
                             self.dim)

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        _check_along(self.dim, x, "x", self.length, "length", "x")
        _check_along(self.dim, y, "y", self.length, "length", "y")
        terms = [_sum_rightmost(t.log_abs_det_jacobian(a, b), self.event_dim - t.event_dim)
                 for t, a, b in zip(self.transforms, self._slices(x), self._slices(y))]
        dim = (self.dim - x.dim() if self.dim >= 0 else self.dim) + self.event_dim
        return minitorch.cat(terms, dim) if dim < 0 else sum(terms)

    @property
    def bijective(self) -> bool:  # type: ignore[override]
        return all(t.bijective for t in self.transforms)

    @constraints.dependent_property
    def domain(self) -> constraints.Constraint:
        return constraints.cat([t.domain for t in self.transforms], self.dim, self.lengths)

    @constraints.dependent_property
    def codomain(self) -> constraints.Constraint:
        return constraints.cat([t.codomain for t in self.transforms], self.dim, self.lengths)


class StackTransform(Transform):
    """``tseq[i]`` applied to ``x.select(dim, i)``, the results stacked back along ``dim``.

    >>> from minitorch.distributions.transforms import ExpTransform
    >>> StackTransform([ExpTransform()], dim=1)(minitorch.zeros(2, 1))
    tensor([[1.],
            [1.]])
    """

    def __init__(self, tseq: Any, dim: int = 0, cache_size: int = 0) -> None:
        tseq = _transforms_of(tseq, cache_size)
        super().__init__(cache_size=cache_size)
        self.transforms, self.dim = tseq, dim

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return StackTransform(self.transforms, self.dim, cache_size)

    def _slice(self, z: Tensor) -> list[Tensor]:
        return [z.select(self.dim, i) for i in range(z.size(self.dim))]

    def _call(self, x: Tensor) -> Tensor:
        _check_along(self.dim, x, "x", len(self.transforms), "len(transforms)")
        return minitorch.stack([t(v) for v, t in zip(self._slice(x), self.transforms)],
                               self.dim)

    def _inverse(self, y: Tensor) -> Tensor:
        _check_along(self.dim, y, "y", len(self.transforms), "len(transforms)")
        return minitorch.stack([t.inv(v) for v, t in zip(self._slice(y), self.transforms)],
                               self.dim)

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        _check_along(self.dim, x, "x", len(self.transforms), "len(transforms)", "x")
        _check_along(self.dim, y, "y", len(self.transforms), "len(transforms)", "y")
        return minitorch.stack([t.log_abs_det_jacobian(a, b) for a, b, t in
                                zip(self._slice(x), self._slice(y), self.transforms)], self.dim)

    @property
    def bijective(self) -> bool:  # type: ignore[override]
        return all(t.bijective for t in self.transforms)

    @constraints.dependent_property
    def domain(self) -> constraints.Constraint:
        return constraints.stack([t.domain for t in self.transforms], self.dim)

    @constraints.dependent_property
    def codomain(self) -> constraints.Constraint:
        return constraints.stack([t.codomain for t in self.transforms], self.dim)
