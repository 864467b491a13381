"""Random numbers beyond ``rand``/``randn``: ``normal``, ``randint``, ``bernoulli``,
``randperm``, ``multinomial``, the ``*_like`` samplers, the in-place samplers
(``uniform_``, ``normal_``, ``random_``, ``bernoulli_``, ``exponential_``) and
``manual_seed``.

Every sample comes from a ``Generator`` (``_generator``: torch's CPU Mersenne Twister) through
torch's own sampling steps (``_sampling``), so after ``manual_seed(s)`` the numbers on the CPU
are torch's, bit for bit (CuPy tensors draw from CuPy's generator instead).

>>> import minitorch
>>> g = minitorch.manual_seed(0)
>>> g.initial_seed()
0
>>> minitorch.rand(2)
tensor([0.4963, 0.7682])
>>> minitorch.normal(2.0, 0.0, size=(3,))
tensor([2., 2., 2.])
"""

from __future__ import annotations

import math
import struct
import warnings
from collections.abc import Callable
from typing import Any

from . import _args, _batched_function, _call_form, _layout, _meta, _sampling
from . import _dtype as D
from ._creation import _CREATION_KEYWORDS, _created, _leaf, empty, rand, randn, zeros
from ._generator import Generator, default_generator
from ._tensor import (
    Tensor,
    broadcast_pair,
    broadcast_shapes,
    check_inplace_allowed,
    check_internal_overlap,
    expanded_shape,
)
from .autograd.profiler import records
from .backend import is_dense, namespace
from .ops._base import Op, wrap
from .ops._out import takes_out
from .ops.pointwise import _NoDerivative

__all__ = ["Generator", "bernoulli", "binomial", "default_generator", "get_rng_state",
           "initial_seed", "manual_seed", "multinomial", "normal", "poisson", "rand_like",
           "randint", "randint_like", "randn_like", "randperm", "seed", "set_rng_state"]


def manual_seed(seed: int) -> Generator:
    """Seed the random numbers of ``rand``, ``randn``, ``nn`` initialisation and dropout;
    returns the generator, as torch does.

    >>> type(minitorch.manual_seed(0)).__name__
    'Generator'
    """
    return default_generator.manual_seed(int(seed))  # torch's Python converts first


def initial_seed() -> int:
    """The seed last given to ``manual_seed``.

    >>> minitorch.manual_seed(7).initial_seed() == minitorch.initial_seed()
    True
    """
    return default_generator.initial_seed()


def seed() -> int:
    """Seed from fresh entropy; returns the seed.

    >>> isinstance(minitorch.seed(), int)
    True
    """
    return default_generator.seed()


def get_rng_state() -> Tensor:
    """The default generator's state, torch's 5056 bytes (``set_rng_state`` restores it).

    >>> state = minitorch.get_rng_state()
    >>> first = minitorch.rand(2)
    >>> minitorch.set_rng_state(state)
    >>> minitorch.equal(first, minitorch.rand(2))
    True
    """
    return default_generator.get_state()


def set_rng_state(new_state: Tensor) -> None:
    """Restore the default generator's state from ``get_rng_state`` (or torch's)."""
    default_generator.set_state(new_state)


def _sample(sample: str, like: Tensor, generator: Any = None, layout: Any = None,
            **params: Any) -> Any:
    """``sample``'s numbers with the shape, dtype and array module of ``like``; a ``layout``
    array that is not C-contiguous but dense (a transposed view) gets them in its memory
    order, as torch fills it (and its normals one by one); one with gaps or overlaps (an
    expanded view) gets them in C order, as torch's ``empty_like`` makes it contiguous."""
    if _meta.is_meta(like._data):  # torch draws nothing for a meta tensor: the seed's
        return like._data  # stream is left for the next real sample
    strided = getattr(layout, "flags", None) is not None and not layout.flags.c_contiguous \
        and is_dense(layout.shape, [s // layout.itemsize for s in layout.strides])
    if sample == "normal":
        params["contiguous"] = not strided
    values = _sampling.draw(like._xp, sample, tuple(like.shape), like.dtype.name, generator,
                            **params)
    if not strided:
        return values
    placed = like._xp.empty_like(layout, order="K")
    placed.ravel(order="K")[...] = values.ravel()  # a view: placed is dense in "K" order
    return placed


def _check_continuous(distribution: str, dt: D.dtype, naming: Callable[[D.dtype], str]) -> None:
    """A continuous sampler's refusal of an integer or bool tensor (each names the dtype its
    own way: ``Long`` or ``long int``)."""
    if not dt.is_floating_point:
        raise RuntimeError(f"{distribution} distribution is a continuous probability "
                           "distribution. dtype must be a floating point but you specified "
                           f"{naming(dt)}")


def _check_float(dt: D.dtype, kernel: str) -> None:
    if not dt.is_floating_point:
        raise _args.not_implemented(kernel, dt)


def _check_kernel(t: Tensor, kernel: str, dtype_ok: bool) -> None:
    """A sampling kernel's refusal of ``t``'s dtype: torch dispatches the kernel on dtype only
    when there is an element to fill, so an empty tensor of any dtype passes."""
    if not dtype_ok and t.numel():
        raise _args.not_implemented(kernel, t.dtype)


# ---- functions ---------------------------------------------------------------------------
class _Normal(Op):
    """``normal(mean, std)`` with a tensor among them: a sample, whose gradient is zero (torch
    does not reparameterise it)."""

    _profile_name = "aten::normal"

    @staticmethod
    def forward(ctx: Any, mean: Any, std: Any, generator: Any = None) -> Tensor:
        ctx.generator = generator
        ctx.shapes = [tuple(v.shape) if isinstance(v, Tensor) else None for v in (mean, std)]
        first = mean if isinstance(mean, Tensor) else std
        shape = broadcast_shapes(*[s for s in ctx.shapes if s is not None])
        xp = first._xp
        noise = _sampling.draw(xp, "normal", shape, first.dtype.name, ctx.generator)
        if not noise.size:  # (a number need not fit an empty integer output)
            return wrap(noise)
        m = mean._data if isinstance(mean, Tensor) else mean
        s = std._data if isinstance(std, Tensor) else std
        return wrap(xp.astype(m + s * noise, noise.dtype))  # torch's: empty_like(first)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        from ._creation import zeros

        grads = [None if s is None else zeros(s, dtype=g.dtype, device=g.device)
                 for s in ctx.shapes]
        return (*grads, None)  # none for the generator


_NORMAL_NODES = {(True, False): "NormalBackward1", (False, True): "NormalBackward2",
                 (True, True): "NormalBackward3"}
_NormalOps = {key: type(name, (_Normal,), {"node_name": name, "__module__": __name__})
              for key, name in _NORMAL_NODES.items()}


def _check_std(std: Any) -> None:
    """torch's refusal of a negative (or nan) standard deviation."""
    if isinstance(std, Tensor):
        if std.numel() and not bool(std._xp.all(std._data >= 0)):
            raise RuntimeError("normal expects all elements of std >= 0.0")
    elif not float(std) >= 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {float(std):g}")


_BOUNDS = {"float16": ("c10::Half", 65504.0), "float32": ("float", 3.4028234663852886e38),
           "float64": ("double", 1.7976931348623157e308)}  # torch's C++ names, largest finite
_C_NAMES = {"float16": "Half", "float32": "Float", "float64": "Double"}


def _check_bounds(dt: D.dtype, low: float, high: float) -> None:
    """torch's checks of ``uniform_``'s bounds: finite in the dtype, and in order."""
    kind, largest = _BOUNDS.get(dt.name, _BOUNDS["float64"])
    for value, name in ((low, "from"), (high, "to")):
        if not -largest <= value <= largest:
            raise RuntimeError(f"{name} is out of bounds for {kind}")
    if low > high:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found "
                           f"from={low:g} > to={high:g}")
    if high - low > largest:
        name = _C_NAMES.get(dt.name, "Double")
        raise RuntimeError(f"uniform_ expects to-from <= std::numeric_limits<{name}>::max(), "
                           f"but found to={high:g} and from={low:g} which result in to-from to "
                           "exceed the limit")


_NOT_GIVEN = object()  # random_'s overloads: random_(), random_(to), random_(from, to)


def _check_range(low: int, high: int) -> None:
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} "
                           f">= to={high}")


def _as_stored(dt: D.dtype, low: int, high: int) -> tuple:
    """``[low, high)`` narrowed as torch narrows it for a floating ``dt``: an end that the
    dtype rounds across the other side moves to the nearest integer it holds inside (torch
    refuses a range left empty)."""
    if not dt.is_floating_point:
        return low, high
    low, high = _stored_from(dt, low), _stored_to(dt, high)
    if low >= high:
        raise RuntimeError("random_ expects 'from' casted to dtype to be less than 'to' casted "
                           f"to dtype, but got from={low} >= to={high}")
    return low, high


def _open_bounds(self: Tensor, low: int) -> tuple:
    """``random_(from, None)``'s ``[from, to)``: ``to`` one past the dtype's largest value
    (past ``2**digits`` for a float dtype); ``(low, None)`` for the full 64-bit range that
    ``from = -2**63`` asks for, which torch draws only into int64 and float tensors."""
    dt = self.dtype
    if low == -2 ** 63:  # the kernel checks the dtype; none runs for an empty tensor
        if not self.numel():
            return low, None
        if dt.name in ("float16", "bool"):
            raise _args.not_implemented("random_full_64_bits_range_kernel_cpu", dt)
        if not dt.is_floating_point and dt.name != "int64":
            raise RuntimeError("random_full_64_bits_range_kernel_cpu handles only int64, "
                               "double, float and bfloat16")
        return low, None
    if dt.is_floating_point:
        top = 2 ** (1 - round(math.log2(D.finfo(dt).eps)))
        low = _stored_from(dt, low)
        if low >= top:
            raise RuntimeError("random_ expects 'from' casted to dtype to be less than or "
                               "equal to 'to_inc' casted to dtype, but got from="
                               f"{low} > to_inc={top}")
    else:
        top = 1 if dt is D.bool else D.iinfo(dt).max
    _check_int_bounds(dt, low, top + 1)
    return low, top + 1


def _c_long(dt: D.dtype, value: int) -> int:
    """The int64 ``value`` rounded into float ``dt`` and read back as C++ casts it on x86 (a
    value past int64's range, inf included, reads as its smallest)."""
    value = (value + 2 ** 63) % 2 ** 64 - 2 ** 63  # int64 arithmetic wraps
    fmt = {"float16": "e", "float32": "f"}.get(dt.name)
    if fmt is None:
        rounded = float(value)
    elif abs(value) >= (65520 if fmt == "e" else 2 ** 128):
        return -(2 ** 63)
    else:
        rounded = struct.unpack(fmt, struct.pack(fmt, float(value)))[0]
    return int(rounded) if -(2 ** 63) <= rounded < 2 ** 63 else -(2 ** 63)


def _step(dt: D.dtype, value: int) -> int:
    """The gap between neighbouring values of float ``dt`` around ``value``."""
    digits = 1 - round(math.log2(D.finfo(dt).eps))
    return 1 << (max(abs(value).bit_length() - 1, 0) - digits + 1)


def _stored_from(dt: D.dtype, low: int) -> int:
    above = _c_long(dt, low + 1)
    return above + _step(dt, low + 1) if above < low else low


def _stored_to(dt: D.dtype, high: int) -> int:
    below = _c_long(dt, high - 1)
    return below - _step(dt, high - 1) if below >= high else high


def _check_int_bounds(dt: D.dtype, low: int, high: int) -> None:
    """torch's check of a draw from ``[low, high)`` into ``dt``: both ends within the
    dtype's range; a floating dtype holds integers exactly up to 2**digits only (a warning
    beyond)."""
    bounds = ((low, "from"), (high - 1, "to - 1"))
    info = None if dt is D.bool else D.finfo(dt) if dt.is_floating_point else D.iinfo(dt)
    smallest, largest = (0, 1) if info is None else (info.min, info.max)
    for value, name in bounds:
        if not smallest <= value <= largest:
            raise RuntimeError(f"{name} is out of bounds for {_args.c_name(dt)}")
    if not dt.is_floating_point:
        return
    digits = 1 - round(math.log2(info.eps))  # the significand's bits
    for value, name in bounds:
        if not -(2 ** digits) <= value <= 2 ** digits:
            warnings.warn(f"{name} is out of bounds [-(2^{digits}), 2^{digits}]. Due to "
                          f"precision limitations {_args.c_name(dt)} can support discrete "
                          "uniform distribution only within this range. This warning will "
                          "become an error in version 1.7 release, please fix the code in "
                          "advance", stacklevel=3)


def _check_probability(p: float) -> None:
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p:g}")


_GENERATOR_OUT = "*, torch.Generator generator = None, Tensor out = None"
_NORMAL_SIGNATURES = (f"Tensor mean, Tensor std, {_GENERATOR_OUT}",
                      f"Tensor mean, float std = 1, {_GENERATOR_OUT}",
                      f"float mean, Tensor std, {_GENERATOR_OUT}",
                      f"float mean, float std, tuple of ints size, {_GENERATOR_OUT}, "
                      f"{_CREATION_KEYWORDS}")


@_call_form.overloads(*_NORMAL_SIGNATURES)
def normal(mean: Any, std: Any = 1.0, size: Any = None, *, generator: Any = None,
           dtype: D.dtype | None = None, device: Any = None,
           requires_grad: bool | None = False) -> Tensor:
    """Normal samples: ``mean`` and ``std`` are tensors (broadcast together) or numbers, in
    which case ``size`` is required.

    >>> minitorch.normal(minitorch.zeros(2), 0.0)
    tensor([0., 0.])
    >>> minitorch.normal(0.0, 1.0, size=(2, 3)).shape
    torch.Size([2, 3])
    """
    key = _normal_overload(mean, std, size)
    _args.generator("normal", generator)
    # a number is the parser's double (a numpy scalar by float(): a complex by its real part)
    mean, std = (float(v) if _args.is_array(v) else v for v in (mean, std))
    if key == (False, False):
        dtype = _args.dtype("normal", dtype)
        shape = _args.sizes("normal", (size,), check_negative=False)
        mean, std = float(mean), float(std)  # torch's OverflowError for a huge int
        sample = empty(shape, dtype=dtype, device=device)
        _check_std(std)
        return _leaf(normal_(sample, mean, std, generator=generator)._data, requires_grad)
    _check_std(std)
    if key == (True, True):  # torch's output shape before its kernel's dtype
        shape = broadcast_pair(mean, std)
    else:
        shape = (mean if key[0] else std).shape
    out = (mean if key[0] else std).dtype
    if key == (False, True) and out is not D.bool and out.name != "float16":
        _args.check_overflow(float(mean), out)  # torch reads the mean into the output's dtype
    if math.prod(shape):  # (no kernel runs, so no dtype is refused, for an empty output)
        _check_float(out, "normal_kernel_cpu")
    elif key == (True, True) and not D.can_cast(D.result_type(mean, std), out):
        raise _args.cast_error(D.result_type(mean, std), out)
    return _NormalOps[key].apply(mean, std, generator)


def _normal_overload(mean: Any, std: Any, size: Any) -> tuple[bool, bool]:
    """Which of ``normal``'s overloads the arguments pick (is mean a tensor, is std), or
    torch's TypeError where none does: with a size, mean and std are numbers (a 0-d tensor
    reads as one); without, one of them at least is a tensor."""
    if isinstance(size, (tuple, list)) and _args.reads_as_double(mean) and \
            _args.reads_as_double(std):
        return False, False
    key = (isinstance(mean, Tensor), isinstance(std, Tensor))
    if size is not None or key == (False, False) or not all(
            tensor or _args.reads_as_double(v) for tensor, v in zip(key, (mean, std))):
        given = (mean, std) if size is None else (mean, std, size)
        raise _args.invalid_combination("normal", given, *_NORMAL_SIGNATURES)
    return key


_RANDINT_SIGNATURES = tuple(
    f"{first}tuple of ints size, *, {gen}Tensor out = None, {_CREATION_KEYWORDS}"
    for first in ("int high, ", "int low, int high, ")
    for gen in ("torch.Generator generator, ", ""))


@_call_form.overloads(*_RANDINT_SIGNATURES)
def randint(low: Any = _args.OMITTED, high: Any = _args.OMITTED, size: Any = _args.OMITTED, *,
            generator: Any = None, dtype: D.dtype | None = None, device: Any = None,
            requires_grad: bool = False) -> Tensor:
    """Integers drawn uniformly from ``[low, high)`` (``randint(high, size)`` starts at 0);
    int64 unless ``dtype``.

    >>> minitorch.randint(0, 1, (2,))
    tensor([0, 0])
    """
    _args.generator("randint", generator)
    if low is _args.OMITTED and high is not _args.OMITTED:  # randint(high=..., size=...)
        low, high = high, _args.OMITTED
    low, high, shape = _randint_args(low, high, size)
    dt = _args.dtype("randint", dtype) or D.int64
    _args.check_alloc(shape, dt.itemsize)  # torch's empty tensor, then random_'s checks
    _check_range(low, high)
    low, high = _as_stored(dt, low, high)
    _check_int_bounds(dt, low, high)
    name = dt.name
    array = _created(lambda xp: _sampling.draw(xp, "randint", shape, name, generator, low=low,
                                               high=high), device)
    return _leaf(array, requires_grad)


def _randint_args(low: Any, high: Any, size: Any) -> tuple:
    """``randint``'s ``(low, high, shape)`` from ``(high, size)`` or ``(low, high, size)``,
    checked in torch's order: the types (one wrong in the three-argument form matches none of
    torch's overloads), then the sizes (the range is random_'s, once the tensor is made)."""
    if high is _args.OMITTED and size is _args.OMITTED:
        raise _randint_mismatch((low,))
    if high is _args.OMITTED:  # randint(high, size=...) is randint(high, size)
        high, size = size, _args.OMITTED
    if size is _args.OMITTED:  # randint(high, size)
        low, high, size = 0, low, high
        if _args.as_int(high) is None:
            _args.integer("randint", high, "high", 1)
        if not isinstance(size, (tuple, list)):
            raise TypeError("randint(): argument 'size' (position 2) must be tuple of ints, "
                            f"not {_args.type_name(size)}")
        shape = _args.sizes("randint", (size,), check_negative=False, position=2)
        high = _args.integer("randint", high, "high", 1)
        _args.non_negative("randint", shape, "randint_high")
    else:
        ints = (low, high, *size[:1]) if isinstance(size, (tuple, list)) else ()
        if not (ints and all(_args.as_int(v) is not None for v in ints)):  # (the parser
            raise _randint_mismatch((low, high, size))  # matches a size by its first item)
        low, high, shape = _args.parsed("randint", ("int", low, "low", 1),
                                        ("int", high, "high", 2), ("ints", size, "size", 3))
        _args.non_negative("randint", shape, "randint_low")
    return low, high, shape


def _randint_mismatch(args: tuple) -> TypeError:
    return _args.invalid_combination("randint", args, *_RANDINT_SIGNATURES)


@_call_form.overloads(*(f"int n, *, {gen}Tensor out = None, {_CREATION_KEYWORDS}"
                        for gen in ("torch.Generator generator, ", "")))
def randperm(n: int, *, generator: Any = None, dtype: D.dtype | None = None,
             device: Any = None, requires_grad: bool = False) -> Tensor:
    """A random permutation of ``0 .. n-1`` (int64).

    >>> sorted(minitorch.randperm(4).tolist())
    [0, 1, 2, 3]
    """
    n = _args.integer("randperm", n, "n", 1)
    generator = _args.generator("randperm", generator)
    name = (_args.dtype("randperm", dtype) or D.int64).name  # every type before any value
    if n < 0 and _args.is_into_out():  # its out= kernel's own check, before the size's
        raise RuntimeError(f"n must be non-negative, got{n}")
    _args.non_negative("randperm", (_args.symint(n),))
    _args.check_alloc((n,), getattr(D, name).itemsize)  # torch's output, before the checks
    if name == "bool":
        raise _args.not_implemented("randperm", "Bool")
    _check_permutation_fits(n, name)
    array = _created(lambda xp: _sampling.draw(xp, "randperm", (n,), name, generator), device)
    return _leaf(array, requires_grad)


# the largest n whose permutation a floating dtype holds exactly, as torch words it
_EXACT_UP_TO = {"float16": (2049, "2049", "Half"), "float32": (2**24 + 1, "2^24+1", "Float")}


def _check_permutation_fits(n: int, dtype: str) -> None:
    """torch's refusal of a permutation of ``n`` that ``dtype`` cannot hold: an integer type
    overflowing at ``n - 1``, a floating one past its exact integers."""
    if dtype in _EXACT_UP_TO:
        limit, shown, name = _EXACT_UP_TO[dtype]
        if n > limit:
            raise RuntimeError(f"n cannot be greater than {shown} for {name} type.")
    elif n and dtype != "float64":
        _args.check_overflow(n - 1, getattr(D, dtype))


_BERNOULLI_SIGNATURES = ("Tensor input, *, torch.Generator generator = None, Tensor out = None",
                         "Tensor input, float p, *, torch.Generator generator = None")


@_call_form.overloads(*_BERNOULLI_SIGNATURES)
@_args.tensors("bernoulli", input="input")
def bernoulli(input: Tensor, p: Any = _args.OMITTED, *, generator: Any = None,
              out: Any = None) -> Tensor:
    """1 with probability ``input`` (or the number ``p``, which a 0-d tensor can give), else
    0, with ``input``'s dtype (into ``out``, given the probabilities).

    >>> minitorch.bernoulli(minitorch.tensor([0., 1.]))
    tensor([0., 1.])
    """
    _args.generator("bernoulli", generator)
    if p is _args.OMITTED:
        return _of_probabilities(input, generator=generator, out=out)
    if out is not None or not _args.reads_as_double(p):
        raise _args.invalid_combination("bernoulli", (input, p), *_BERNOULLI_SIGNATURES,
                                        keywords={"out": out} if out is not None else None)
    return BernoulliNumber.on(input, p=float(p), generator=generator)


def _check_probabilities(p: Tensor) -> None:
    """torch's bernoulli kernel's checks of a tensor of probabilities: floating, in [0, 1]
    (NaN is not)."""
    _check_kernel(p, "bernoulli_tensor_cpu_p_", p.dtype.is_floating_point)
    data = p._data
    if not bool(p._xp.all((data >= 0) & (data <= 1))):
        raise RuntimeError(_args.check_failed("p_in >= 0 && p_in <= 1"))


def _probabilities(input: Tensor, *, generator: Any) -> Tensor:
    _batched_function.check_random()  # torch's vmap refuses before the kernel's checks
    _check_probabilities(input)
    return BernoulliOfProbabilities.apply(
        input, draw=lambda p: _sample("bernoulli", p, generator, p=p._data))


_of_probabilities = takes_out(_probabilities, "bernoulli")


class BernoulliNumber(_NoDerivative):
    """``bernoulli(input, p)``: ``input``'s shape and dtype, 1 with probability ``p``; torch
    records it without a derivative."""

    node_name = "NotImplemented"
    _profile_name = "aten::bernoulli"

    @staticmethod
    def compute(input: Tensor, *, p: Any, generator: Any) -> Any:
        sample = empty(input.shape, dtype=input.dtype, device=input.device)
        return bernoulli_(sample, p, generator=generator)._data


@_args.tensors("multinomial", input="input")
def multinomial(input: Tensor, num_samples: int, replacement: bool = False, *,
                generator: Any = None) -> Tensor:
    """``num_samples`` indices drawn from the weights ``input`` (each row of a matrix is a
    distribution), without replacement unless told, by torch's CPU steps: a single draw or
    a draw without replacement takes the largest ``input / q`` with ``q`` exponential, a draw
    with replacement looks up float64 uniforms in the normalised cumulative weights.

    >>> g = minitorch.manual_seed(0)
    >>> minitorch.multinomial(minitorch.tensor([0.1, 0.2, 0.3, 0.4]), 2)
    tensor([2, 1])
    """
    n = _args.integer("multinomial", num_samples, "num_samples", 2)
    _args.generator("multinomial", generator)
    replacement = _args.flag("multinomial", replacement, "replacement", 3)
    if not 1 <= input.dim() <= 2:
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not input.dtype.is_floating_point:
        raise RuntimeError("multinomial only supports floating-point dtypes for input, got: "
                           f"{_args.legacy(input.dtype)}")
    if n <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    categories = input.shape[-1]
    if not replacement and n > categories:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without "
                           "replacement")
    if categories > 2 ** 24:
        raise RuntimeError("number of categories cannot exceed 2^24")
    shape = (n,) if input.dim() == 1 else (input.shape[0], n)
    _args.check_alloc(shape, 8)  # torch's int64 result, allocated before any draw
    xp = input._xp
    if 0 in shape:
        return wrap(xp.zeros(shape, dtype=xp.int64))
    if not categories:  # rows with no category: where each of torch's two draws stops
        raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the "
                           "operation has no identity." if n == 1 else
                           "invalid multinomial distribution (sum of probabilities <= 0)")
    if not replacement or n == 1:
        return _largest_over_exponential(input, n, generator)
    return wrap(_cumulative_lookup(input._data, n, generator))


def _largest_over_exponential(input: Tensor, n: int, generator: Any) -> Tensor:
    """torch's draw without replacement (or of one sample): the ``n`` largest ``p / q``,
    ``q`` exponential of rate 1 in ``p``'s dtype and memory order."""
    xp, p = input._xp, input._data
    if not bool(xp.all((p >= 0) & (p < float("inf")))):  # nan fails both
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if bool(xp.any(xp.sum(p, axis=-1) == 0)):
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    if bool(xp.any(xp.sum(xp.astype(p > 0, xp.int64), axis=-1) < n)):
        raise NotImplementedError(
            "multinomial without replacement of more samples than a row has non-zero "
            "probabilities: torch then picks among the zero-probability categories in the tie "
            "order of its C++ sort, which minitorch does not reproduce")
    q = wrap(p / _sample("exponential", input, generator, p, lambd=1.0))
    if n == 1:
        from .ops.reduction import argmax

        return argmax(q, -1, keepdim=True)
    return q.topk(n).indices


def _cumulative_lookup(p: Any, n: int, generator: Any) -> Any:
    """torch's draw with replacement: per row, the running sums of ``p`` in its own dtype,
    divided by their total, the last set to 1; each of ``n`` float64 uniforms picks the
    first place whose sum is not below it. A bad row raises torch's error after the rows
    before it have drawn their uniforms, as torch's loop does."""
    xp = namespace(p)
    rows = xp.reshape(p, (-1, p.shape[-1]))
    cum = xp.cumulative_sum(rows, axis=1)
    _check_rows(rows, cum, n, generator)
    last = cum[:, -1:]
    cum = xp.concat([cum[:, :-1] / last, xp.ones_like(last)], axis=1)
    cum = xp.astype(cum, xp.float64)  # each sum meets a float64 uniform
    u = _sampling.draw(xp, "uniform", (rows.shape[0], n), "float64", generator)
    picks = xp.stack([xp.searchsorted(cum[r, :], u[r, :], side="left")
                      for r in range(rows.shape[0])])
    return xp.reshape(xp.astype(picks, xp.int64), (-1,) if p.ndim == 1 else (-1, n))


def _check_rows(rows: Any, cum: Any, n: int, generator: Any) -> None:
    """torch's checks of the draw with replacement, row by row and in a row element by
    element (``>= 0``, which nan fails, then finite), then the row's sum; the rows before
    the first bad one have drawn their uniforms when the error is raised."""
    xp = namespace(rows)
    negative = ~(rows >= 0)
    codes = xp.astype(negative, xp.int64) + 2 * xp.astype(~negative & ~xp.isfinite(rows),
                                                          xp.int64)
    bad = xp.astype(xp.any(codes != 0, axis=1) | ~(cum[:, -1] > 0), xp.int64)
    if not bool(xp.any(bad != 0)):
        return
    row = int(xp.argmax(bad))
    found = xp.astype(codes[row, :] != 0, xp.int64)
    code = int(codes[row, int(xp.argmax(found))]) if bool(xp.any(found != 0)) else 3
    _sampling.draw(xp, "uniform", (row * n,), "float64", generator)
    message = {1: "encountering probability entry < 0",
               2: "encountering probability entry = infinity or NaN",
               3: "sum of probabilities <= 0"}[code]
    raise RuntimeError(f"invalid multinomial distribution ({message})")


_LIKE_SIGNATURES = tuple(
    f"Tensor input, *, {generator}torch.memory_format memory_format = None, {_CREATION_KEYWORDS}"
    for generator in ("torch.Generator generator, ", ""))


def _like(kind: Callable[..., Tensor], sampler: str) -> Callable[..., Tensor]:
    """``kind``'s ``*_like``: torch's ``empty_like(input)`` filled in place by ``sampler``,
    which for a contiguous result is ``kind(input.shape)``; a result in a transposed layout
    (``preserve_format``) is sampled in memory order, as torch's."""

    @_args.tensors(f"{kind.__name__}_like", input="input")
    @_call_form.overloads(*_LIKE_SIGNATURES)
    def like(input: Tensor, *, generator: Any = None, dtype: D.dtype | None = None,
             device: Any = None, requires_grad: bool = False,
             memory_format: Any = None) -> Tensor:
        _args.generator(like.__name__, generator)
        dtype = _args.dtype(like.__name__, dtype) or input.dtype
        requires_grad = requires_grad is not None and _args.flag(  # (None: the default)
            like.__name__, requires_grad, "requires_grad")
        strides = _layout.preserved_strides(like.__name__, input, memory_format)
        device = input.device if device is None else device
        if strides is None:
            return kind(input.shape, dtype=dtype, device=device, requires_grad=requires_grad,
                        generator=generator)
        made = _layout.laid_out(zeros(tuple(input.shape), dtype=dtype, device=device), strides)
        getattr(made, sampler)(generator=generator)
        return made._set_requires_grad(requires_grad)

    like.__name__ = f"{kind.__name__}_like"
    like.__doc__ = (f"``{kind.__name__}`` with the shape, dtype and device of ``input``.\n\n"
                    f"    >>> minitorch.{kind.__name__}_like(minitorch.ones(2, 3)).shape\n"
                    f"    torch.Size([2, 3])\n    ")
    return records(f"aten::{like.__name__}")(like)


rand_like = _like(rand, "uniform_")
randn_like = _like(randn, "normal_")


@_args.tensors("randint_like", input="input")
@_call_form.overloads(*(f"Tensor input, {bounds}, *, {generator}torch.memory_format memory_format "
                        f"= None, {_CREATION_KEYWORDS}"
                        for bounds in ("int low, int high", "Tensor high", "int high")
                        for generator in ("torch.Generator generator, ", "")))
def randint_like(input: Tensor, *bounds: Any, low: Any = _args.OMITTED,
                 high: Any = _args.OMITTED,
                 generator: Any = None, dtype: D.dtype | None = None, device: Any = None,
                 requires_grad: bool = False, memory_format: Any = None) -> Tensor:
    """``randint`` with the shape, dtype and device of ``input`` (``high`` alone, by position
    or keyword, starts at 0).

    >>> minitorch.randint_like(minitorch.ones(2), 1).tolist()
    [0.0, 0.0]
    """
    _args.tensor_args("randint_like", (input, "input", 1))
    named = {k: v for k, v in (("low", low), ("high", high)) if v is not _args.OMITTED}
    given = dict(zip(("high",) if len(bounds) == 1 and not named else
                     ("low", "high"), bounds))
    if len(bounds) > 2 or set(given) & set(named) or "high" not in {**given, **named} or \
            None in given.values() or named.get("high", 0) is None:  # torch's int high
        raise _args.invalid_combination("randint_like", (input, *bounds),
                                        *randint_like.torch_signatures, keywords=named)
    low, high = {"low": 0, **given, **named}["low"], {**given, **named}["high"]
    if generator is not None and not isinstance(generator, Generator):
        given = tuple(v for v in (input, low, high) if v is not None and v is not _args.OMITTED)
        raise _args.invalid_combination("randint_like", given, *randint_like.torch_signatures,
                                        keywords={"generator": generator})
    _args.integers("randint_like", (low, "low", 2), (high, "high", 3))
    device = input.device if device is None else device
    strides = _layout.preserved_strides("randint_like", input, memory_format)
    if strides is None:
        return randint(low, high, tuple(input.shape), generator=generator,
                       dtype=dtype or input.dtype, device=device, requires_grad=requires_grad)
    made = _layout.laid_out(zeros(tuple(input.shape), dtype=dtype or input.dtype,
                                  device=device), strides)
    return made.random_(low, high, generator=generator)._set_requires_grad(requires_grad)


# ---- in-place samplers (Tensor methods) ---------------------------------------------------
def _sampler_op(name: str, aten: str, node: str = "") -> type:
    """An op that overwrites its input with a sample; the old values get a zero gradient."""

    def forward(ctx: Any, a: Tensor, *, draw: Callable[[Tensor], Any]) -> Tensor:
        return wrap(draw(a))

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
Cauchy = _sampler_op("Cauchy", "cauchy_")
LogNormal = _sampler_op("LogNormal", "log_normal_")
Geometric = _sampler_op("Geometric", "geometric_")
Bernoulli = _sampler_op("Bernoulli", "bernoulli_", "BernoulliBackward2")
# bernoulli(p): the probabilities that require grad get a zero gradient, as torch's
BernoulliOfProbabilities = _sampler_op("BernoulliOfProbabilities", "bernoulli",
                                       "BernoulliBackward0")


# poisson(rates): the rates that require grad get a zero gradient, as torch's
Poisson = _sampler_op("Poisson", "poisson")


def poisson(input: Tensor, generator: Any = None) -> Tensor:
    """Counts drawn from Poisson distributions of rates ``input``, in its dtype: torch's
    sampler, so the same counts for the same seed.

    >>> minitorch.poisson(minitorch.zeros(2))
    tensor([0., 0.])
    """
    _args.tensor_args("poisson", (input, "input", 1))
    _args.generator("poisson", generator)
    _check_float(input.dtype, "poisson_cpu")
    if not bool(input._xp.all(input._data >= 0)):
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    return Poisson.apply(input, draw=lambda rates: _sample("poisson", rates, generator,
                                                           rates=rates._data))


class Binomial(_NoDerivative):
    """``binomial(count, prob)``: torch has no derivative of it (a NotImplemented node)."""

    node_name = "NotImplemented"
    _profile_name = "aten::binomial"

    @staticmethod
    def compute(count: Tensor, prob: Tensor, generator: Any = None) -> Any:
        shape = broadcast_shapes(tuple(count.shape), tuple(prob.shape))
        xp = count._xp
        return _sampling.draw(xp, "binomial", shape, count.dtype.name, generator,
                              counts=xp.broadcast_to(count._data, shape),
                              probs=xp.broadcast_to(prob._data, shape))


@_args.tensors("binomial", count="count", prob="prob")
def binomial(count: Tensor, prob: Tensor, generator: Any = None) -> Tensor:
    """The number of successes in ``count`` trials of probability ``prob`` (float tensors
    that broadcast together): torch's sampler, so the same counts for the same seed.

    >>> minitorch.binomial(minitorch.tensor([4.0, 0.0]), minitorch.tensor([1.0, 0.5]))
    tensor([4., 0.])
    """
    generator = _args.generator("binomial", generator)
    for t, name in ((count, "count"), (prob, "prob")):
        if not t.dtype.is_floating_point:
            raise ValueError(f"binomial only supports floating-point dtypes for {name}, got: "
                             f"{_args.legacy(t.dtype)}")
    broadcast_pair(count, prob)  # the shapes, before the kernel's dtypes
    if prob.dtype != count.dtype:
        raise RuntimeError(f"Found dtype {_args.legacy(prob.dtype)} but expected "
                           f"{_args.legacy(count.dtype)}")
    if count.dtype.name not in ("float32", "float64"):
        raise _args.not_implemented("binomial_cpu", count.dtype)
    return Binomial.on(count, prob, generator=generator)


def _from_to(fn: str, args: tuple, kwargs: dict) -> list:
    """The bounds ``from`` and ``to`` of ``uniform_`` or ``random_``, by position or by
    torch's keywords (``from`` is a Python keyword: ``**{"from": 0}``); not given:
    ``_NOT_GIVEN``. A keyword of another name gets Python's message (``uniform_``'s; the caller
    words ``random_``'s)."""
    if len(args) > 2:
        raise TypeError(f"{fn}() takes from 0 to 2 positional arguments but {len(args)} were "
                        "given")
    unexpected = next((k for k in kwargs if k not in ("from", "to")), None)
    if unexpected is not None:
        raise TypeError(f"{fn}() got an unexpected keyword argument '{unexpected}'")
    bounds = [*args, *[_NOT_GIVEN] * (2 - len(args))]
    for i, name in enumerate(("from", "to")):
        if name in kwargs:
            if i < len(args):
                raise TypeError(f"{fn}() got multiple values for argument '{name}'")
            bounds[i] = kwargs[name]
    return bounds


def uniform_(self: Tensor, *args: Any, generator: Any = None, **kwargs: Any) -> Tensor:
    """Fill with samples from ``[from, to)`` (by default ``[0, 1)``), in place.

    >>> minitorch.zeros(2).uniform_(3., 3.)
    tensor([3., 3.])
    """
    try:
        bounds = _from_to("uniform_", args, kwargs)
    except TypeError:  # torch's parser reads the types before the keywords left over
        if len(args) <= 2:
            for i, (value, name) in enumerate(zip(args, ("from", "to"))):
                _args.real("uniform_", value, name, i + 1)
            _args.generator("uniform_", generator)
        raise
    a, b = (d if v is _NOT_GIVEN else v for v, d in zip(bounds, (0.0, 1.0)))
    generator = _args.generator("uniform_", generator)
    a, b = _args.reals("uniform_", (a, "from", 1), (b, "to", 2))
    check_inplace_allowed(self)  # autograd's refusal, before the kernel's checks
    _check_float(self.dtype, "check_uniform_bounds")
    _check_bounds(self.dtype, a, b)
    return self._inplace(Uniform.apply, draw=lambda t: _sample(
        "uniform", t, generator, self._data, low=a, high=b))


def normal_(self: Tensor, mean: float = 0.0, std: float = 1.0, *,
            generator: Any = None) -> Tensor:
    """Fill with normal samples, in place.

    >>> minitorch.zeros(2).normal_(1., 0.)
    tensor([1., 1.])
    """
    mean, std = _args.reals("normal_", (mean, "mean", 1), (std, "std", 2))
    generator = _args.generator("normal_", generator)
    check_inplace_allowed(self)
    _check_std(std)
    _check_kernel(self, "normal_kernel_cpu", self.dtype.is_floating_point)
    return self._inplace(Normal.apply,
                         draw=lambda t: _sample("normal", t, generator, self._data,
                                                mean=mean, std=std))


_RANDOM_SIGNATURES = tuple(f"{first}*, torch.Generator generator = None"
                           for first in ("", "int from, int to, ", "int to, "))


def random_(self: Tensor, *args: Any, generator: Any = _NOT_GIVEN, **kwargs: Any) -> Tensor:
    """Fill with integers from ``[from, to)`` (``random_(to)`` starts at 0), in place.

    >>> minitorch.zeros(2).random_(1)
    tensor([0., 0.])
    """
    keywords = kwargs if generator is _NOT_GIVEN else {**kwargs, "generator": generator}
    generator = None if generator is _NOT_GIVEN else generator
    # three arguments fit only (from, to, generator): torch's parser words that one's refusal
    if refusal := _call_form.overload_refusal("random_", args, keywords, _RANDOM_SIGNATURES,
                                              True):
        raise TypeError(refusal)
    if len(args) > 2 and len(args) + len(keywords) > 3:  # too many for every overload
        raise _args.invalid_combination("random_", args, *_RANDOM_SIGNATURES, keywords=keywords)
    low, high = _random_bounds(args, kwargs, generator)
    overload = 0 if high is not _NOT_GIVEN else 1 if low is not _NOT_GIVEN else 2
    given = (low, high)[:2 - overload]
    ints = given[:1] if overload == 0 and high is None else given  # ``to`` may be None
    if any(_args.as_param_int(v, "to") is None for v in ints):  # (an int64's reading)
        raise _args.invalid_combination("random_", given, *_RANDOM_SIGNATURES,  # two of
                                        keywords={} if generator is None else  # torch's
                                        {"generator": generator})  # take one or two ints
    if overload == 0:  # only (from, to) takes two: torch's parser names the argument
        _args.generator("random_", generator)
    elif generator is not None and not isinstance(generator, Generator):
        raise _args.invalid_combination("random_", () if overload == 2 else (low,),
                                        *_RANDOM_SIGNATURES, keywords={"generator": generator})
    if overload == 0 and high is None:
        low = _args.integer("random_", low, "from", 1)
        low, high = _open_bounds(self, low)
    elif overload == 0:
        low, high = _args.integers("random_", (low, "from", 1), (high, "to", 2))
    if overload == 1:
        low, high = 0, _args.integer("random_", low, "to", 1)
    check_inplace_allowed(self)
    check_internal_overlap(self)  # its TensorIterator's, before the bounds' checks
    if overload < 2 and high is not None:
        _check_range(low, high)
        low, high = _as_stored(self.dtype, low, high)
        _check_int_bounds(self.dtype, low, high)
    if overload == 2:
        return self._inplace(Randoms[2].apply,
                             draw=lambda t: _sample("random_bits", t, generator, self._data))
    if high is None:  # the full 64-bit range
        high = low + 2 ** 64
    return self._inplace(Randoms[overload].apply,
                         draw=lambda t: _sample("randint", t, generator, self._data,
                                                low=low, high=high))


def _random_bounds(args: tuple, kwargs: dict, generator: Any) -> tuple:
    """``random_``'s ``(from, to)`` as its body reads them: ``(to, _NOT_GIVEN)`` for the
    overload of ``to`` alone, ``(_NOT_GIVEN, _NOT_GIVEN)`` for none, ``to`` None for the
    open range from ``from``; torch's parser refuses keywords that
    fit none of its overloads (``from`` without ``to``, a ``from`` after a position)."""
    try:
        low, high = _from_to("random_", args, kwargs)
    except TypeError as error:
        if "positional" in str(error):
            raise TypeError(f"random_() takes 2 positional arguments but {len(args)} were "
                            "given") from None
        raise _args.invalid_combination("random_", args, *_RANDOM_SIGNATURES,
                                        keywords={**kwargs, "generator": generator}
                                        if generator is not None else kwargs) from None
    if low is not _NOT_GIVEN and high is _NOT_GIVEN and "from" in kwargs:
        raise _args.invalid_combination("random_", args, *_RANDOM_SIGNATURES, keywords=kwargs)
    if low is _NOT_GIVEN and high is not _NOT_GIVEN:  # ``to`` alone
        return high, _NOT_GIVEN
    return low, high


@_call_form.overloads("Tensor p, *, torch.Generator generator = None",
                      "float p = 0.5, *, torch.Generator generator = None")
def bernoulli_(self: Tensor, p: Any = 0.5, *, generator: Any = None) -> Tensor:
    """Fill with 1 (probability ``p``, a number or a tensor of them) or 0, in place.

    >>> minitorch.zeros(2).bernoulli_(1.0)
    tensor([1., 1.])
    """
    if not isinstance(generator, (Generator, type(None))) or not (
            isinstance(p, Tensor) or _args.reads_as_double(p)):
        raise _args.invalid_combination("bernoulli_", (self, p), "Tensor p", "float p")
    check_inplace_allowed(self, p)
    if isinstance(p, Tensor):
        if self.numel():  # torch's kernel runs (expands and checks) only with something to
            expanded_shape(tuple(p.shape), tuple(self.shape), _args.type_string(p.dtype))
            _check_probabilities(p)  # fill
            prob = p._xp.broadcast_to(p._data, tuple(self.shape))
        else:
            prob = p._xp.zeros(tuple(self.shape), dtype=p._data.dtype)
        return self._inplace(BernoulliTensor.apply, p, draw=lambda t: _sample(
            "bernoulli", t, generator, self._data, p=prob))
    prob = _args.real("bernoulli_", p, "p", 1)
    _check_probability(prob)
    return self._inplace(Bernoulli.apply,
                         draw=lambda t: _sample("bernoulli", t, generator, self._data, p=prob))


class BernoulliTensor(Op):
    """``bernoulli_`` with a tensor of probabilities: the overwritten values and the
    probabilities both get a zero gradient (torch's BernoulliBackward1)."""

    node_name = "BernoulliBackward1"
    _profile_name = "aten::bernoulli_"

    @staticmethod
    def forward(ctx: Any, a: Tensor, p: Tensor, *, draw: Callable[[Tensor], Any]) -> Tensor:
        ctx.p_meta = (tuple(p.shape), p.dtype)
        return wrap(draw(a))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        shape, dtype = ctx.p_meta
        return g * 0, zeros(shape, dtype=dtype, device=g.device)


def exponential_(self: Tensor, lambd: float = 1.0, *, generator: Any = None) -> Tensor:
    """Fill with exponential samples of rate ``lambd``, in place.

    >>> bool(minitorch.all(minitorch.zeros(3).exponential_() >= 0))
    True
    """
    generator = _args.generator("exponential_", generator)
    lambd = _args.real("exponential_", lambd, "lambd", 1)
    check_inplace_allowed(self)
    if not lambd > 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd:g}")
    check_internal_overlap(self)  # its TensorIterator's, before the kernel's dtype check
    if self.numel():  # torch's kernel, and its dtype check, never run on no elements
        _check_continuous("Exponential", self.dtype, _args.legacy)
    return self._inplace(Exponential.apply,
                         draw=lambda t: _sample("exponential", t, generator, self._data,
                                                lambd=lambd))


def cauchy_(self: Tensor, median: float = 0.0, sigma: float = 1.0, *,
            generator: Any = None) -> Tensor:
    """Fill with Cauchy samples about ``median`` of half-width ``sigma``, in place: torch's
    numbers for a seed.

    >>> minitorch.zeros(2).cauchy_(1., 1e-30)
    tensor([1., 1.])
    """
    generator = _args.generator("cauchy_", generator)
    median, sigma = _args.reals("cauchy_", (median, "median", 1), (sigma, "sigma", 2))
    check_inplace_allowed(self)
    if not sigma > 0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={sigma:g}")
    _check_continuous("Cauchy", self.dtype, _args.c_name)
    return self._inplace(Cauchy.apply, draw=lambda t: _sample(
        "cauchy", t, generator, self._data, median=median, sigma=sigma))


def log_normal_(self: Tensor, mean: float = 1.0, std: float = 2.0, *,
                generator: Any = None) -> Tensor:
    """Fill with ``exp`` of normal samples of ``mean`` and ``std``, in place.

    >>> bool(minitorch.all(minitorch.zeros(3).log_normal_() > 0))
    True
    """
    generator = _args.generator("log_normal_", generator)
    mean, std = _args.reals("log_normal_", (mean, "mean", 1), (std, "std", 2))
    check_inplace_allowed(self)
    if not std > 0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std:g}")
    check_internal_overlap(self)  # its TensorIterator's, before the kernel's dtype check
    _check_kernel(self, "log_normal_cpu", self.dtype.is_floating_point)
    return self._inplace(LogNormal.apply, draw=lambda t: _sample(
        "log_normal", t, generator, self._data, mean=mean, std=std))


def geometric_(self: Tensor, p: float, *, generator: Any = None) -> Tensor:
    """Fill with the number of trials to a first success of probability ``p``, in place.

    >>> minitorch.zeros(2).geometric_(1 - 1e-12)
    tensor([1., 1.])
    """
    generator = _args.generator("geometric_", generator)
    p = _args.real("geometric_", p, "p", 1)
    check_inplace_allowed(self)
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p:g}")
    _check_kernel(self, "geometric_cpu", self.dtype != D.bool)
    return self._inplace(Geometric.apply, draw=lambda t: _sample(
        "geometric", t, generator, self._data, p=p))


METHODS = {"uniform_": uniform_, "normal_": normal_, "random_": random_,
           "bernoulli_": bernoulli_, "exponential_": exponential_, "cauchy_": cauchy_,
           "log_normal_": log_normal_, "geometric_": geometric_,
           "bernoulli": bernoulli, "multinomial": multinomial}
