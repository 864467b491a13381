"""Transforms: differentiable maps between constraint spaces, each with its inverse and
the log of its Jacobian's absolute determinant (element-wise ones: ``event_dim`` 0; no
caching).

>>> import minitorch
>>> ExpTransform().inv(minitorch.tensor(1.))
tensor(0.)
"""

from __future__ import annotations

import functools
import math
import operator
from numbers import Number
from typing import Any

import minitorch

from .._tensor import Size, Tensor
from . import constraints
from .utils import broadcast_all


class Transform:
    """``y = t(x)``; ``t.inv`` maps back and ``log_abs_det_jacobian(x, y)`` is
    ``log |dy/dx|``."""

    bijective = False
    sign: Any = 1
    domain: constraints.Constraint = constraints.real
    codomain: constraints.Constraint = constraints.real

    def __init__(self) -> None:
        self._inv: Transform | None = None

    @property
    def event_dim(self) -> int:
        return 0

    @property
    def inv(self) -> Transform:
        """The inverse map, built once.

        >>> t = ExpTransform(); t.inv.inv is t
        True
        """
        if self._inv is None:
            self._inv = _InverseTransform(self)
        return self._inv

    def __eq__(self, other: object) -> bool:
        return self is other

    __hash__ = object.__hash__

    def __call__(self, x: Tensor) -> Tensor:
        return self._call(x)

    def _call(self, x: Tensor) -> Tensor:
        raise NotImplementedError

    def _inverse(self, y: Tensor) -> Tensor:
        raise NotImplementedError

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        raise NotImplementedError

    def forward_shape(self, shape: Any) -> Any:
        return shape

    def inverse_shape(self, shape: Any) -> Any:
        return shape

    def __repr__(self) -> str:
        return type(self).__name__ + "()"


class _InverseTransform(Transform):
    def __init__(self, transform: Transform) -> None:
        super().__init__()
        self._inv = transform
        self.domain, self.codomain = transform.codomain, transform.domain
        self.bijective, self.sign = transform.bijective, transform.sign

    @property
    def inv(self) -> Transform:
        return self._inv  # type: ignore[return-value]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _InverseTransform) and self._inv == other._inv

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._inv!r})"

    def __call__(self, x: Tensor) -> Tensor:
        return self._inv._inverse(x)  # type: ignore[union-attr]

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        return -self._inv.log_abs_det_jacobian(y, x)  # type: ignore[union-attr]

    def forward_shape(self, shape: Any) -> Any:
        return self._inv.inverse_shape(shape)  # type: ignore[union-attr]

    def inverse_shape(self, shape: Any) -> Any:
        return self._inv.forward_shape(shape)  # type: ignore[union-attr]


class ExpTransform(Transform):
    """``y = exp(x)``, from the reals onto the positive numbers.

    >>> ExpTransform()(minitorch.tensor(0.))
    tensor(1.)
    """

    domain = constraints.real
    codomain = constraints.positive
    bijective = True

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ExpTransform)

    __hash__ = object.__hash__

    def _call(self, x: Tensor) -> Tensor:
        return x.exp()

    def _inverse(self, y: Tensor) -> Tensor:
        return y.log()

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        return x


class AbsTransform(Transform):
    """``y = |x|``, folding the reals onto the positive numbers (not invertible: ``inv``
    gives back ``y``).

    >>> AbsTransform()(minitorch.tensor(-2.))
    tensor(2.)
    """

    domain = constraints.real
    codomain = constraints.positive

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AbsTransform)

    __hash__ = object.__hash__

    def _call(self, x: Tensor) -> Tensor:
        return x.abs()

    def _inverse(self, y: Tensor) -> Tensor:
        return y


class SigmoidTransform(Transform):
    """``y = sigmoid(x)``, clipped into the open unit interval as torch clips it, from the
    reals onto (0, 1); its inverse is the logit.

    >>> SigmoidTransform()(minitorch.tensor(0.))
    tensor(0.5000)
    """

    domain = constraints.real
    codomain = constraints.unit_interval
    bijective = True

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SigmoidTransform)

    __hash__ = object.__hash__

    def _call(self, x: Tensor) -> Tensor:
        finfo = minitorch.finfo(x.dtype)
        return x.sigmoid().clamp(min=finfo.tiny, max=1.0 - finfo.eps)

    def _inverse(self, y: Tensor) -> Tensor:
        finfo = minitorch.finfo(y.dtype)
        y = y.clamp(min=finfo.tiny, max=1.0 - finfo.eps)
        return y.log() - (-y).log1p()

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        softplus = minitorch.nn.functional.softplus
        return -softplus(-x) - softplus(x)


class AffineTransform(Transform):
    """``y = loc + scale * x``, element-wise.

    >>> AffineTransform(1., 2.)(minitorch.tensor(3.))
    tensor(7.)
    """

    bijective = True

    def __init__(self, loc: Tensor | float, scale: Tensor | float) -> None:
        super().__init__()
        self.loc, self.scale = loc, scale

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, AffineTransform) and _same(self.loc, other.loc)
                and _same(self.scale, other.scale))

    __hash__ = object.__hash__

    @property
    def sign(self) -> Any:  # type: ignore[override]
        if isinstance(self.scale, Number):
            return 1 if float(self.scale) > 0 else -1 if float(self.scale) < 0 else 0
        return self.scale.sign()

    def _call(self, x: Tensor) -> Tensor:
        return self.loc + self.scale * x

    def _inverse(self, y: Tensor) -> Tensor:
        return (y - self.loc) / self.scale

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        if isinstance(self.scale, Number):
            return minitorch.full_like(x, math.log(abs(self.scale)))
        return minitorch.abs(self.scale).log().expand(x.shape)

    def forward_shape(self, shape: Any) -> Any:
        return Size(minitorch.broadcast_shapes(shape, getattr(self.loc, "shape", ()),
                                               getattr(self.scale, "shape", ())))

    inverse_shape = forward_shape


class PowerTransform(Transform):
    """``y = x ** exponent``, element-wise on the positive numbers.

    >>> PowerTransform(minitorch.tensor(2.))(minitorch.tensor(3.))
    tensor(9.)
    """

    domain = constraints.positive
    codomain = constraints.positive
    bijective = True

    def __init__(self, exponent: Tensor | float) -> None:
        super().__init__()
        (self.exponent,) = broadcast_all(exponent)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PowerTransform) and bool(
            self.exponent.eq(other.exponent).all())

    __hash__ = object.__hash__

    @property
    def sign(self) -> Any:  # type: ignore[override]
        return self.exponent.sign()

    def _call(self, x: Tensor) -> Tensor:
        return x.pow(self.exponent)

    def _inverse(self, y: Tensor) -> Tensor:
        return y.pow(1 / self.exponent)

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        return (self.exponent * y / x).abs().log()

    def forward_shape(self, shape: Any) -> Any:
        return Size(minitorch.broadcast_shapes(shape, self.exponent.shape))

    inverse_shape = forward_shape


def _same(a: Any, b: Any) -> bool:
    """Torch's test of two affine parameters: numbers by value, tensors by every element."""
    if isinstance(a, Number) and isinstance(b, Number):
        return a == b
    return bool((a == b).all().item())


class ComposeTransform(Transform):
    """``parts`` applied in order; no parts is the identity.

    >>> ComposeTransform([ExpTransform(), AffineTransform(1., 1.)])(minitorch.tensor(0.))
    tensor(2.)
    """

    def __init__(self, parts: list[Transform]) -> None:
        super().__init__()
        self.parts = parts

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ComposeTransform) and self.parts == other.parts

    __hash__ = object.__hash__

    @property
    def domain(self) -> constraints.Constraint:  # type: ignore[override]
        return self.parts[0].domain if self.parts else constraints.real

    @property
    def codomain(self) -> constraints.Constraint:  # type: ignore[override]
        return self.parts[-1].codomain if self.parts else constraints.real

    @property
    def bijective(self) -> bool:  # type: ignore[override]
        return all(p.bijective for p in self.parts)

    @property
    def sign(self) -> Any:  # type: ignore[override]
        return functools.reduce(operator.mul, (p.sign for p in self.parts), 1)

    @property
    def inv(self) -> Transform:
        if self._inv is None:
            self._inv = ComposeTransform([p.inv for p in reversed(self.parts)])
            self._inv._inv = self
        return self._inv

    def __call__(self, x: Tensor) -> Tensor:
        for part in self.parts:
            x = part(x)
        return x

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        if not self.parts:
            return minitorch.zeros_like(x)
        xs = [x]
        for part in self.parts[:-1]:
            xs.append(part(xs[-1]))
        xs.append(y)
        terms = [p.log_abs_det_jacobian(a, b) for p, a, b in zip(self.parts, xs, xs[1:])]
        return functools.reduce(operator.add, terms)

    def forward_shape(self, shape: Any) -> Any:
        for part in self.parts:
            shape = part.forward_shape(shape)
        return shape

    def inverse_shape(self, shape: Any) -> Any:
        for part in reversed(self.parts):
            shape = part.inverse_shape(shape)
        return shape

    def __repr__(self) -> str:
        return type(self).__name__ + "(\n    " + ",\n    ".join(map(repr, self.parts)) + "\n)"


identity_transform = ComposeTransform([])
