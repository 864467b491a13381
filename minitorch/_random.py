"""Random numbers beyond ``rand``/``randn``: ``normal``, ``randint``, ``bernoulli``,
``randperm``, the ``*_like`` samplers, the in-place samplers (``uniform_``, ``normal_``,
``random_``, ``bernoulli_``) and the ``Generator`` that ``manual_seed`` returns.

Every sample is drawn from minitorch's one generator (``backend.random``): uniform or standard
normal floats, which the functions here shift, scale, floor or threshold with the array API.

>>> import minitorch
>>> g = minitorch.manual_seed(0)
>>> g.initial_seed()
0
>>> minitorch.normal(2.0, 0.0, size=(3,))
tensor([2., 2., 2.])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import _args, backend
from . import _dtype as D
from ._creation import _created, _leaf, rand, randn
from ._tensor import Tensor, broadcast_shapes
from .ops._base import Op, wrap

__all__ = ["Generator", "bernoulli", "initial_seed", "manual_seed", "normal", "rand_like",
           "randint", "randint_like", "randn_like", "randperm", "seed"]


class Generator:
    """minitorch's random generator; ``manual_seed`` reseeds it and returns it, as torch's.

    >>> minitorch.Generator().manual_seed(3).initial_seed()
    3
    """

    __module__ = "minitorch._C"  # its repr, <minitorch._C.Generator object at 0x...>, is torch's

    def __init__(self, device: Any = "cpu") -> None:
        self.device = backend.as_device(device) or backend.CPU

    def manual_seed(self, seed: int) -> Generator:
        """Reseed, and return this generator."""
        backend.seed(int(seed))
        return self

    def initial_seed(self) -> int:
        """The seed last given."""
        return backend._seed

    def seed(self) -> int:
        """Reseed from fresh entropy and return the new seed."""
        import secrets

        value = secrets.randbits(63)
        backend.seed(value)
        return value


_DEFAULT = Generator()


def manual_seed(seed: int) -> Generator:
    """Seed the random numbers of ``rand``, ``randn``, ``nn`` initialisation and dropout;
    returns the generator, as torch does.

    >>> type(minitorch.manual_seed(0)).__name__
    'Generator'
    """
    return _DEFAULT.manual_seed(seed)


def initial_seed() -> int:
    """The seed last given to ``manual_seed``.

    >>> minitorch.manual_seed(7).initial_seed() == minitorch.initial_seed()
    True
    """
    return _DEFAULT.initial_seed()


def seed() -> int:
    """Seed from fresh entropy; returns the seed.

    >>> isinstance(minitorch.seed(), int)
    True
    """
    return _DEFAULT.seed()


def _uniform(xp: Any, shape: tuple, dtype_name: str) -> Any:
    return backend.random(xp, "uniform", tuple(shape), dtype_name)


def _standard_normal(xp: Any, shape: tuple, dtype_name: str) -> Any:
    return backend.random(xp, "normal", tuple(shape), dtype_name)


def _integers(xp: Any, low: int, high: int, shape: tuple, dtype_name: str) -> Any:
    """Integers in ``[low, high)``: a float64 uniform sample scaled and floored."""
    u = _uniform(xp, shape, "float64")
    values = xp.floor(u * (high - low)) + low
    return xp.astype(values, backend.array_dtype(xp, dtype_name))


def _check_float(dt: D.dtype, kernel: str) -> None:
    if not dt.is_floating_point:
        names = {"int64": "Long", "bool": "Bool"}
        raise NotImplementedError(f'"{kernel}" not implemented for \'{names[dt.name]}\'')


# ---- functions ---------------------------------------------------------------------------
class _Normal(Op):
    """``normal(mean, std)`` with a tensor among them: a sample, whose gradient is zero (torch
    does not reparameterise it)."""

    _profile_name = "aten::normal"

    @staticmethod
    def forward(ctx: Any, mean: Any, std: Any) -> Tensor:
        ctx.shapes = [tuple(v.shape) if isinstance(v, Tensor) else None for v in (mean, std)]
        first = mean if isinstance(mean, Tensor) else std
        shape = broadcast_shapes(*[s for s in ctx.shapes if s is not None])
        xp = first._xp
        noise = _standard_normal(xp, shape, first.dtype.name)
        m = mean._data if isinstance(mean, Tensor) else mean
        s = std._data if isinstance(std, Tensor) else std
        return wrap(m + s * noise)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        from ._creation import zeros

        return tuple(None if s is None else zeros(s, dtype=g.dtype, device=g.device)
                     for s in ctx.shapes)


_NORMAL_NODES = {(True, False): "NormalBackward1", (False, True): "NormalBackward2",
                 (True, True): "NormalBackward3"}
_NormalOps = {key: type(name, (_Normal,), {"node_name": name, "__module__": __name__})
              for key, name in _NORMAL_NODES.items()}


def _check_std(std: Any) -> None:
    if isinstance(std, Tensor):
        low = float(std._xp.min(std._data)) if std.numel() else 0.0
    else:
        low = float(std)
    if low < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {low:g}")


def normal(mean: Any, std: Any = 1.0, size: Any = None, *, generator: Any = None,
           dtype: D.dtype | None = None, device: Any = None,
           requires_grad: bool = False) -> Tensor:
    """Normal samples: ``mean`` and ``std`` are tensors (broadcast together) or numbers, in
    which case ``size`` is required.

    >>> minitorch.normal(minitorch.zeros(2), 0.0)
    tensor([0., 0.])
    >>> minitorch.normal(0.0, 1.0, size=(2, 3)).shape
    minitorch.Size([2, 3])
    """
    _check_std(std)
    key = (isinstance(mean, Tensor), isinstance(std, Tensor))
    if key == (False, False):
        if size is None:
            raise TypeError(
                "normal() received an invalid combination of arguments - got (float, float), "
                "but expected one of: (Tensor mean, Tensor std), (Tensor mean, float std = 1), "
                "(float mean, Tensor std), (float mean, float std, tuple of ints size)")
        sample = randn(*_args.sizes("normal", (size,)), dtype=dtype, device=device)
        with_moments = sample * float(std) + float(mean)
        return _leaf(with_moments._data, requires_grad)
    return _NormalOps[key].apply(mean, std)


def randint(low: int, high: Any = None, size: Any = None, *, generator: Any = None,
            dtype: D.dtype | None = None, device: Any = None,
            requires_grad: bool = False) -> Tensor:
    """Integers drawn uniformly from ``[low, high)`` (``randint(high, size)`` starts at 0);
    int64 unless ``dtype``.

    >>> minitorch.randint(0, 1, (2,))
    tensor([0, 0])
    """
    if size is None:
        low, high, size = 0, low, high
    if high <= low:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} "
                           f">= to={high}")
    name, shape = (dtype or D.int64).name, _args.sizes("randint", (size,))
    array = _created(lambda xp: _integers(xp, low, high, shape, name), device)
    return _leaf(array, requires_grad)


def randperm(n: int, *, generator: Any = None, dtype: D.dtype | None = None,
             device: Any = None, requires_grad: bool = False) -> Tensor:
    """A random permutation of ``0 .. n-1`` (int64).

    >>> sorted(minitorch.randperm(4).tolist())
    [0, 1, 2, 3]
    """
    keys = rand(n, dtype=D.float64, device=device)
    order = keys._xp.argsort(keys._data)
    name = (dtype or D.int64).name
    return _leaf(keys._xp.astype(order, backend.array_dtype(keys._xp, name)), requires_grad)


def bernoulli(input: Tensor, p: Any = None, *, generator: Any = None) -> Tensor:
    """1 with probability ``input`` (or ``p``), else 0, with ``input``'s dtype.

    >>> minitorch.bernoulli(minitorch.tensor([0., 1.]))
    tensor([0., 1.])
    """
    prob = input._data if p is None else p
    xp = input._xp
    u = _uniform(xp, input.shape, "float64")
    return wrap(xp.astype(u < prob, input._data.dtype))


def _like(kind: Callable[..., Tensor]) -> Callable[..., Tensor]:
    def like(input: Tensor, *, dtype: D.dtype | None = None, device: Any = None,
             requires_grad: bool = False, memory_format: Any = None) -> Tensor:
        return kind(*input.shape, dtype=dtype or input.dtype, device=device or input.device,
                    requires_grad=requires_grad)

    like.__name__ = f"{kind.__name__}_like"
    like.__doc__ = (f"``{kind.__name__}`` with the shape, dtype and device of ``input``.\n\n"
                    f"    >>> minitorch.{kind.__name__}_like(minitorch.ones(2, 3)).shape\n"
                    f"    minitorch.Size([2, 3])\n    ")
    return like


rand_like = _like(rand)
randn_like = _like(randn)


def randint_like(input: Tensor, low: int, high: Any = None, *, dtype: D.dtype | None = None,
                 device: Any = None, requires_grad: bool = False) -> Tensor:
    """``randint`` with the shape, dtype and device of ``input``.

    >>> minitorch.randint_like(minitorch.ones(2), 1).tolist()
    [0.0, 0.0]
    """
    if high is None:
        low, high = 0, low
    return randint(low, high, tuple(input.shape), dtype=dtype or input.dtype,
                   device=device or input.device, requires_grad=requires_grad)


# ---- in-place samplers (Tensor methods) ---------------------------------------------------
def _sampler_op(name: str, aten: str, node: str = "") -> type:
    """An op that overwrites its input with a sample; the old values get a zero gradient."""

    def forward(ctx: Any, a: Tensor, *, draw: Callable[[Any, tuple, str], Any]) -> Tensor:
        xp = a._xp
        return wrap(xp.astype(draw(xp, tuple(a.shape), a.dtype.name), a._data.dtype))

    def backward(ctx: Any, g: Tensor) -> tuple:
        return (g * 0,)

    return type(name, (Op,), {"node_name": node or f"{name}Backward0",
                              "_profile_name": f"aten::{aten}", "__module__": __name__,
                              "forward": staticmethod(forward),
                              "backward": staticmethod(backward)})


Uniform = _sampler_op("Uniform", "uniform_")
Normal = _sampler_op("Normal", "normal_")
# random_(from, to), random_(to) and random_() are three overloads, three node names
Randoms = [_sampler_op("Random", "random_", f"RandomBackward{i}") for i in range(3)]
Exponential = _sampler_op("Exponential", "exponential_")
Bernoulli = _sampler_op("Bernoulli", "bernoulli_", "BernoulliBackward2")


def uniform_(self: Tensor, a: float = 0.0, b: float = 1.0, *, generator: Any = None) -> Tensor:
    """Fill with samples from ``[a, b)``, in place.

    >>> minitorch.zeros(2).uniform_(3., 3.)
    tensor([3., 3.])
    """
    _check_float(self.dtype, "check_uniform_bounds")
    return self._inplace(Uniform.apply, draw=lambda xp, s, d: _uniform(xp, s, d) * (b - a) + a)


def normal_(self: Tensor, mean: float = 0.0, std: float = 1.0, *,
            generator: Any = None) -> Tensor:
    """Fill with normal samples, in place.

    >>> minitorch.zeros(2).normal_(1., 0.)
    tensor([1., 1.])
    """
    _check_float(self.dtype, "normal_kernel_cpu")
    _check_std(std)
    return self._inplace(Normal.apply,
                         draw=lambda xp, s, d: _standard_normal(xp, s, d) * std + mean)


def random_(self: Tensor, low: int = 0, high: Any = None, *, generator: Any = None) -> Tensor:
    """Fill with integers from ``[low, high)`` (``random_(high)`` starts at 0), in place.

    >>> minitorch.zeros(2).random_(1)
    tensor([0., 0.])
    """
    overload = 0
    if high is None:
        overload = 1 if low else 2
        if low == 0:
            low, high = 0, 2 ** 24 + 1 if self.dtype is D.float32 else 2 ** 53 + 1
        else:
            low, high = 0, low
    return self._inplace(Randoms[overload].apply,
                         draw=lambda xp, s, d: _integers(xp, low, high, s, "float64"))


def bernoulli_(self: Tensor, p: Any = 0.5, *, generator: Any = None) -> Tensor:
    """Fill with 1 (probability ``p``) or 0, in place.

    >>> minitorch.zeros(2).bernoulli_(1.0)
    tensor([1., 1.])
    """
    prob = p._data if isinstance(p, Tensor) else p
    return self._inplace(Bernoulli.apply,
                         draw=lambda xp, s, d: _uniform(xp, s, "float64") < prob)


def exponential_(self: Tensor, lambd: float = 1.0, *, generator: Any = None) -> Tensor:
    """Fill with exponential samples of rate ``lambd``, in place.

    >>> bool(minitorch.all(minitorch.zeros(3).exponential_() >= 0))
    True
    """
    _check_float(self.dtype, "exponential_cpu")
    return self._inplace(Exponential.apply, draw=lambda xp, s, d: -xp.log1p(
        -_uniform(xp, s, "float64")) / lambd)


METHODS = {"uniform_": uniform_, "normal_": normal_, "random_": random_,
           "bernoulli_": bernoulli_, "exponential_": exponential_,
           "bernoulli": bernoulli}
