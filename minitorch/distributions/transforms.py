"""Transforms: differentiable maps between constraint spaces, each with its inverse and
the log of its Jacobian's absolute determinant. Element-wise ones act on each number
(``event_dim`` 0); the others on the last dims (a vector, a matrix). ``cache_size=1`` keeps
the last pair ``(x, y)``, so that inverting a value the transform made gives back the very
``x`` (as a sampler's ``log_prob`` of its own sample needs, past where the inverse is exact).

>>> import minitorch
>>> ExpTransform().inv(minitorch.tensor(1.))
tensor(0.)
"""

from __future__ import annotations

import functools
import math
import operator
from typing import Any

import minitorch

from .._tensor import Size, Tensor
from . import constraints
from .utils import NUMBER, _sum_rightmost, broadcast_all


class Transform:
    """``y = t(x)``; ``t.inv`` maps back and ``log_abs_det_jacobian(x, y)`` is
    ``log |dy/dx|``."""

    bijective = False
    sign: Any = 1
    domain: constraints.Constraint = constraints.real
    codomain: constraints.Constraint = constraints.real

    def __init__(self, cache_size: int = 0) -> None:
        if cache_size not in (0, 1):
            raise ValueError("cache_size must be 0 or 1")
        self._cache_size = cache_size
        self._cached_x_y: tuple[Any, Any] = (None, None)
        self._inv: Transform | None = None

    @property
    def event_dim(self) -> int:
        """The dims of one event, where domain and codomain agree on it."""
        if self.domain.event_dim == self.codomain.event_dim:
            return self.domain.event_dim
        raise ValueError("Please use either .domain.event_dim or .codomain.event_dim")

    def with_cache(self, cache_size: int = 1) -> Transform:
        """This transform with ``cache_size`` (itself where it already has it).

        >>> ExpTransform().with_cache()._cache_size
        1
        """
        if self._cache_size == cache_size:
            return self
        if type(self).__init__ is Transform.__init__:
            return type(self)(cache_size=cache_size)
        raise NotImplementedError(f"{type(self)}.with_cache is not implemented")

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
        return self._through_cache(x, forward=True)

    def _inv_call(self, y: Tensor) -> Tensor:
        """The inverse at ``y``: the cached ``x`` where ``y`` is the last value made."""
        return self._through_cache(y, forward=False)

    def _through_cache(self, value: Tensor, forward: bool) -> Tensor:
        """``_call`` (or ``_inverse``) of ``value``, the cached pair's other side where
        ``value`` is its own side (with ``cache_size=1``)."""
        compute = self._call if forward else self._inverse
        if not self._cache_size:
            return compute(value)
        pair = self._cached_x_y if forward else self._cached_x_y[::-1]
        if value is pair[0]:
            return pair[1]
        other = compute(value)
        self._cached_x_y = (value, other) if forward else (other, value)
        return other

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
        super().__init__(cache_size=transform._cache_size)
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

    def with_cache(self, cache_size: int = 1) -> Transform:
        return self._inv.with_cache(cache_size).inv  # type: ignore[union-attr]

    def __call__(self, x: Tensor) -> Tensor:
        return self._inv._inv_call(x)  # type: ignore[union-attr]

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        return -self._inv.log_abs_det_jacobian(y, x)  # type: ignore[union-attr]

    def forward_shape(self, shape: Any) -> Any:
        return self._inv.inverse_shape(shape)  # type: ignore[union-attr]

    def inverse_shape(self, shape: Any) -> Any:
        return self._inv.forward_shape(shape)  # type: ignore[union-attr]


class _Parameterless(Transform):
    """A transform with no parameters: any two of its class are equal."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, type(self))

    __hash__ = object.__hash__


class ExpTransform(_Parameterless):
    """``y = exp(x)``, from the reals onto the positive numbers.

    >>> ExpTransform()(minitorch.tensor(0.))
    tensor(1.)
    """

    domain = constraints.real
    codomain = constraints.positive
    bijective = True

    def _call(self, x: Tensor) -> Tensor:
        return x.exp()

    def _inverse(self, y: Tensor) -> Tensor:
        return y.log()

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        return x


class AbsTransform(_Parameterless):
    """``y = |x|``, folding the reals onto the positive numbers (not invertible: ``inv``
    gives back ``y``).

    >>> AbsTransform()(minitorch.tensor(-2.))
    tensor(2.)
    """

    domain = constraints.real
    codomain = constraints.positive

    def _call(self, x: Tensor) -> Tensor:
        return x.abs()

    def _inverse(self, y: Tensor) -> Tensor:
        return y


class SigmoidTransform(_Parameterless):
    """``y = sigmoid(x)``, clipped into the open unit interval as torch clips it, from the
    reals onto (0, 1); its inverse is the logit.

    >>> SigmoidTransform()(minitorch.tensor(0.))
    tensor(0.5000)
    """

    domain = constraints.real
    codomain = constraints.unit_interval
    bijective = True

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
    """``y = loc + scale * x``, element-wise; with ``event_dim`` n, each event is the last n
    dims (their log-determinants summed).

    >>> AffineTransform(1., 2.)(minitorch.tensor(3.))
    tensor(7.)
    """

    bijective = True

    def __init__(self, loc: Tensor | float, scale: Tensor | float, event_dim: int = 0,
                 cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        self.loc, self.scale, self._event_dim = loc, scale, event_dim

    @property
    def event_dim(self) -> int:
        return self._event_dim

    @property
    def domain(self) -> constraints.Constraint:  # type: ignore[override]
        return _real_over(self._event_dim)

    codomain = domain

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return AffineTransform(self.loc, self.scale, self._event_dim, cache_size=cache_size)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, AffineTransform) and _same(self.loc, other.loc)
                and _same(self.scale, other.scale))

    __hash__ = object.__hash__

    @property
    def sign(self) -> Any:  # type: ignore[override]
        if isinstance(self.scale, NUMBER):
            return 1 if float(self.scale) > 0 else -1 if float(self.scale) < 0 else 0
        return self.scale.sign()

    def _call(self, x: Tensor) -> Tensor:
        return self.loc + self.scale * x

    def _inverse(self, y: Tensor) -> Tensor:
        return (y - self.loc) / self.scale

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        shape = x.shape  # first: what is not a tensor fails here, as in torch
        if isinstance(self.scale, NUMBER):
            result = minitorch.full_like(x, math.log(abs(self.scale)))
        else:
            result = minitorch.abs(self.scale).log()
        if self._event_dim:
            result = _sum_rightmost(result, self._event_dim)
            shape = shape[:-self._event_dim]
        return result.expand(shape)

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

    def __init__(self, exponent: Tensor | float, cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        (self.exponent,) = broadcast_all(exponent)

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return PowerTransform(self.exponent, cache_size=cache_size)

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


class TanhTransform(_Parameterless):
    """``y = tanh(x)``, from the reals onto (-1, 1); its inverse, atanh, is not clipped
    (``cache_size=1`` keeps a sample's own ``x`` where atanh of a rounded 1 is inf).

    >>> TanhTransform().log_abs_det_jacobian(minitorch.tensor(0.), minitorch.tensor(0.))
    tensor(0.)
    """

    domain = constraints.real
    codomain = constraints.interval(-1.0, 1.0)
    bijective = True

    def _call(self, x: Tensor) -> Tensor:
        return x.tanh()

    def _inverse(self, y: Tensor) -> Tensor:
        return minitorch.atanh(y)

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        # log(1 - tanh(x)**2), written to stay finite for large |x|
        return 2.0 * (math.log(2.0) - x - minitorch.nn.functional.softplus(-2.0 * x))


class SoftplusTransform(_Parameterless):
    """``y = log(1 + exp(x))`` (linear past x = 20, as softplus), onto the positive numbers.

    >>> SoftplusTransform().inv(minitorch.tensor(1.))
    tensor(0.5413)
    """

    domain = constraints.real
    codomain = constraints.positive
    bijective = True

    def _call(self, x: Tensor) -> Tensor:
        return minitorch.nn.functional.softplus(x)

    def _inverse(self, y: Tensor) -> Tensor:
        return (-y).expm1().neg().log() + y

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        return -minitorch.nn.functional.softplus(-x)


def _needs_a_dim(shape: Any) -> Any:
    if len(shape) < 1:
        raise ValueError("Too few dimensions on input")
    return shape


class SoftmaxTransform(_Parameterless):
    """``y = softmax(x)`` over the last dim, onto the simplex: not a bijection (adding a
    constant to ``x`` gives the same ``y``), so its inverse is one of many (``log y``) and it
    has no log-determinant.

    >>> SoftmaxTransform()(minitorch.zeros(2))
    tensor([0.5000, 0.5000])
    """

    domain = constraints.real_vector
    codomain = constraints.simplex

    def _call(self, x: Tensor) -> Tensor:
        probs = (x - x.max(-1, True)[0]).exp()
        return probs / probs.sum(-1, True)

    def _inverse(self, y: Tensor) -> Tensor:
        return y.log()

    forward_shape = inverse_shape = staticmethod(_needs_a_dim)


class StickBreakingTransform(_Parameterless):
    """A bijection from vectors of K - 1 reals onto the simplex of K: each coordinate, through
    a sigmoid, breaks off its share of what the earlier ones left of a stick of length 1.

    >>> StickBreakingTransform()(minitorch.zeros(1))
    tensor([0.5000, 0.5000])
    """

    domain = constraints.real_vector
    codomain = constraints.simplex
    bijective = True

    @staticmethod
    def _log_offset(x: Tensor) -> Tensor:
        """log(K - 1 - i) for coordinate i: centres the breaks, so x = 0 is the middle."""
        return (x.shape[-1] + 1 - x.new_ones(x.shape[-1]).cumsum(-1)).log()

    def _call(self, x: Tensor) -> Tensor:
        finfo = minitorch.finfo(x.dtype)
        z = (x - self._log_offset(x)).sigmoid().clamp(min=finfo.tiny, max=1.0 - finfo.eps)
        pad = minitorch.nn.functional.pad
        return pad(z, [0, 1], value=1) * pad((1 - z).cumprod(-1), [1, 0], value=1)

    def _inverse(self, y: Tensor) -> Tensor:
        shares = y[..., :-1]
        left = (1 - shares.cumsum(-1)).clamp(min=minitorch.finfo(y.dtype).tiny)
        return shares.log() - left.log() + self._log_offset(shares)

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        x = x - self._log_offset(x)  # 1 - sigmoid(x) is exp(-x) * sigmoid(x)
        logsigmoid = minitorch.nn.functional.logsigmoid
        return (-x + logsigmoid(x) + y[..., :-1].log()).sum(-1)

    def forward_shape(self, shape: Any) -> Any:
        shape = _needs_a_dim(shape)
        return shape[:-1] + (shape[-1] + 1,)  # noqa: RUF005 (the caller's type: tuple or Size)

    def inverse_shape(self, shape: Any) -> Any:
        shape = _needs_a_dim(shape)
        return shape[:-1] + (shape[-1] - 1,)  # noqa: RUF005


class LowerCholeskyTransform(_Parameterless):
    """Square matrices onto lower-triangular ones with a positive diagonal: the strict lower
    triangle kept, the diagonal through exp (the upper triangle dropped: not a bijection).

    >>> LowerCholeskyTransform()(minitorch.zeros(2, 2))
    tensor([[1., 0.],
            [0., 1.]])
    """

    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.lower_cholesky

    def _call(self, x: Tensor) -> Tensor:
        return x.tril(-1) + x.diagonal(dim1=-2, dim2=-1).exp().diag_embed()

    def _inverse(self, y: Tensor) -> Tensor:
        return y.tril(-1) + y.diagonal(dim1=-2, dim2=-1).log().diag_embed()


class PositiveDefiniteTransform(_Parameterless):
    """Square matrices onto positive-definite ones: ``L @ L.mT`` for ``L`` the
    lower-Cholesky transform of ``x``; its inverse goes back through the Cholesky factor.

    >>> PositiveDefiniteTransform()(minitorch.zeros(2, 2))
    tensor([[1., 0.],
            [0., 1.]])
    """

    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.positive_definite

    def _call(self, x: Tensor) -> Tensor:
        lower = LowerCholeskyTransform()(x)
        return lower @ lower.mT

    def _inverse(self, y: Tensor) -> Tensor:
        return LowerCholeskyTransform().inv(minitorch.linalg.cholesky(y))


class IndependentTransform(Transform):
    """``base_transform`` with its last ``reinterpreted_batch_ndims`` batch dims read as part
    of one event (its log-determinants summed over them).

    >>> t = IndependentTransform(ExpTransform(), 1)
    >>> t.log_abs_det_jacobian(minitorch.ones(2), t(minitorch.ones(2)))
    tensor(2.)
    """

    def __init__(self, base_transform: Transform, reinterpreted_batch_ndims: int,
                 cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        self.base_transform = base_transform.with_cache(cache_size)
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return IndependentTransform(self.base_transform, self.reinterpreted_batch_ndims,
                                    cache_size=cache_size)

    @property
    def domain(self) -> constraints.Constraint:  # type: ignore[override]
        return constraints.independent(self.base_transform.domain,
                                       self.reinterpreted_batch_ndims)

    @property
    def codomain(self) -> constraints.Constraint:  # type: ignore[override]
        return constraints.independent(self.base_transform.codomain,
                                       self.reinterpreted_batch_ndims)

    @property
    def bijective(self) -> bool:  # type: ignore[override]
        return self.base_transform.bijective

    @property
    def sign(self) -> Any:  # type: ignore[override]
        return self.base_transform.sign

    def _call(self, x: Tensor) -> Tensor:
        if x.dim() < self.domain.event_dim:
            raise ValueError("Too few dimensions on input")
        return self.base_transform(x)

    def _inverse(self, y: Tensor) -> Tensor:
        if y.dim() < self.codomain.event_dim:
            raise ValueError("Too few dimensions on input")
        return self.base_transform.inv(y)

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        return _sum_rightmost(self.base_transform.log_abs_det_jacobian(x, y),
                              self.reinterpreted_batch_ndims)

    def forward_shape(self, shape: Any) -> Any:
        return self.base_transform.forward_shape(shape)

    def inverse_shape(self, shape: Any) -> Any:
        return self.base_transform.inverse_shape(shape)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.base_transform!r}, {self.reinterpreted_batch_ndims})"


class ReshapeTransform(Transform):
    """Events of ``in_shape`` reshaped to ``out_shape`` (as many elements), batch dims kept.

    >>> ReshapeTransform((4,), (2, 2))(minitorch.arange(4.)).shape
    torch.Size([2, 2])
    """

    bijective = True

    def __init__(self, in_shape: Any, out_shape: Any, cache_size: int = 0) -> None:
        self.in_shape, self.out_shape = Size(in_shape), Size(out_shape)
        if self.in_shape.numel() != self.out_shape.numel():
            raise ValueError("in_shape, out_shape have different numbers of elements")
        super().__init__(cache_size=cache_size)

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return ReshapeTransform(self.in_shape, self.out_shape, cache_size=cache_size)

    @property
    def domain(self) -> constraints.Constraint:  # type: ignore[override]
        return constraints.independent(constraints.real, len(self.in_shape))

    @property
    def codomain(self) -> constraints.Constraint:  # type: ignore[override]
        return constraints.independent(constraints.real, len(self.out_shape))

    def _call(self, x: Tensor) -> Tensor:
        return x.reshape(x.shape[:x.dim() - len(self.in_shape)] + self.out_shape)

    def _inverse(self, y: Tensor) -> Tensor:
        return y.reshape(y.shape[:y.dim() - len(self.out_shape)] + self.in_shape)

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        return x.new_zeros(x.shape[:x.dim() - len(self.in_shape)])

    def forward_shape(self, shape: Any) -> Any:
        return _reshaped(shape, self.in_shape, self.out_shape)

    def inverse_shape(self, shape: Any) -> Any:
        return _reshaped(shape, self.out_shape, self.in_shape)


def _reshaped(shape: Any, source: Size, target: Size) -> Any:
    """``shape`` with its last dims, which must be ``source``, made ``target``."""
    if len(shape) < len(source):
        raise ValueError("Too few dimensions on input")
    cut = len(shape) - len(source)
    if shape[cut:] != source:
        raise ValueError(f"Shape mismatch: expected {shape[cut:]} but got {source}")
    return shape[:cut] + target


def _real_over(event_dim: int) -> constraints.Constraint:
    """The reals, ``event_dim`` dims to an event."""
    return constraints.independent(constraints.real, event_dim) if event_dim else \
        constraints.real


def _widened(constraint: constraints.Constraint, event_dim: int) -> constraints.Constraint:
    """``constraint`` read over ``event_dim`` dims (at least its own)."""
    if event_dim > constraint.event_dim:
        return constraints.independent(constraint, event_dim - constraint.event_dim)
    return constraint


def _same(a: Any, b: Any) -> bool:
    """Torch's test of two affine parameters: numbers by value, tensors by every element."""
    if isinstance(a, NUMBER) and isinstance(b, NUMBER):
        return a == b
    return bool((a == b).all().item())


class ComposeTransform(Transform):
    """``parts`` applied in order; no parts is the identity.

    >>> ComposeTransform([ExpTransform(), AffineTransform(1., 1.)])(minitorch.tensor(0.))
    tensor(2.)
    """

    def __init__(self, parts: list[Transform], cache_size: int = 0) -> None:
        if cache_size:
            parts = [part.with_cache(cache_size) for part in parts]
        super().__init__(cache_size=cache_size)
        self.parts = parts

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return ComposeTransform(self.parts, cache_size=cache_size)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ComposeTransform) and self.parts == other.parts

    __hash__ = object.__hash__

    @property
    def domain(self) -> constraints.Constraint:  # type: ignore[override]
        """The first part's domain, over as many dims as the chain needs for one event."""
        if not self.parts:
            return constraints.real
        event_dim = self.parts[-1].codomain.event_dim
        for part in reversed(self.parts):
            event_dim = max(event_dim + part.domain.event_dim - part.codomain.event_dim,
                            part.domain.event_dim)
        return _widened(self.parts[0].domain, event_dim)

    @property
    def codomain(self) -> constraints.Constraint:  # type: ignore[override]
        """The last part's codomain, over as many dims as the chain makes of one event."""
        if not self.parts:
            return constraints.real
        event_dim = self.parts[0].domain.event_dim
        for part in self.parts:
            event_dim = max(event_dim + part.codomain.event_dim - part.domain.event_dim,
                            part.codomain.event_dim)
        return _widened(self.parts[-1].codomain, event_dim)

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
        terms, event_dim = [], self.domain.event_dim
        for part, a, b in zip(self.parts, xs, xs[1:]):
            # a part's term covers its own event; the chain's event may span more dims
            terms.append(_sum_rightmost(part.log_abs_det_jacobian(a, b),
                                        event_dim - part.domain.event_dim))
            event_dim += part.codomain.event_dim - part.domain.event_dim
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


class CumulativeDistributionTransform(Transform):
    """``y = distribution.cdf(x)``: the distribution's support onto the unit interval (the
    log-determinant is its ``log_prob``).

    >>> from minitorch.distributions import Normal
    >>> CumulativeDistributionTransform(Normal(0., 1.))(minitorch.tensor(0.))
    tensor(0.5000)
    """

    bijective = True
    codomain = constraints.unit_interval
    sign = +1

    def __init__(self, distribution: Any, cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        self.distribution = distribution

    @property
    def domain(self) -> constraints.Constraint:  # type: ignore[override]
        return self.distribution.support

    def _call(self, x: Tensor) -> Tensor:
        return self.distribution.cdf(x)

    def _inverse(self, y: Tensor) -> Tensor:
        return self.distribution.icdf(y)

    def log_abs_det_jacobian(self, x: Tensor, y: Tensor) -> Tensor:
        return self.distribution.log_prob(x)

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return CumulativeDistributionTransform(self.distribution, cache_size=cache_size)


# torch's module holds these too; they live in their own modules here
from .corr_cholesky import CorrCholeskyTransform  # noqa: E402, F401
from .piecewise_transforms import CatTransform, StackTransform  # noqa: E402, F401
from .utils import tril_matrix_to_vec, vec_to_tril_matrix  # noqa: E402, F401
