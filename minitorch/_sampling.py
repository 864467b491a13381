"""torch's CPU sampling kernels: how 32- and 64-bit words of a ``Generator`` become uniform,
normal, integer, Bernoulli, exponential, Poisson and Gamma numbers and permutations, step for
step as in torch 2.13 (``ATen/core/TransformationHelper.h``,
``ATen/native/cpu/DistributionTemplates.h``, ``randperm_cpu``, ``Distributions.h``), so every
sample equals torch's for the same seed.

Poisson and Gamma numbers come from rejection methods that take float64 uniforms (and, for
Gamma, normals) one at a time, as many as each number needs: they are drawn one number after
another, reading the uniforms from blocks drawn ahead (``_Uniforms``).

A float32 uniform takes one word and keeps 24 bits, a float64 one a 64-bit draw and 53
bits. Normals of a contiguous tensor of 16 or more take uniforms in blocks of 16, each block a
Box-Muller transform of 8 pairs in the tensor's precision (the last, partial block is drawn
again as a full block over the last 16 places); smaller tensors take float64 Box-Muller pairs
one number at a time, keeping the pair's spare number in the generator for the next call.

Every function returns a flat numpy array; ``draw`` shapes it and puts it on the tensor's
array module (CuPy has its own generator: no CUDA sample equals torch's, whose CUDA
generator differs from its CPU one anyway).

>>> from minitorch._generator import Generator
>>> uniform(Generator().manual_seed(0), 3, "float32").tolist()
[0.49625658988952637, 0.7682217955589294, 0.08847743272781372]
"""

from __future__ import annotations

import functools
import importlib
import math
from typing import Any

import numpy as np

from . import _libm, backend
from ._batched_function import check_random
from ._generator import Generator

__all__ = ["bernoulli", "cauchy", "draw", "exponential", "geometric", "log_normal", "normal",
           "randint", "random_bits", "randperm", "standard_gamma", "uniform"]

_BITS = {"float16": 11, "float32": 24, "float64": 53}


def uniform(gen: Generator, n: int, dtype: str, low: float = 0.0,
            high: float = 1.0) -> np.ndarray:
    """``n`` numbers from [low, high): ``uniform_`` / ``rand``."""
    if dtype == "float16":  # torch's are its float32 numbers rounded; one that rounds up to
        value = uniform(gen, n, "float32", low, high).astype(np.float16)  # ``high`` gives
        return np.where(value == np.float16(high), np.float16(low), value)  # ``low``
    if dtype == "float64":
        x = (gen.words64(n) & np.uint64(2 ** 53 - 1)).astype(np.float64) * 2.0 ** -53
    else:
        x = (gen.words(n) & np.uint64(2 ** 24 - 1)).astype(np.float32) * np.float32(2 ** -24)
    ftype = np.dtype(dtype).type
    lo, hi = ftype(low), ftype(high)
    if (lo, hi) == (0, 1):
        return x
    fma = _fma64 if dtype == "float64" else _libm.fmaf
    value = fma(x, hi - lo, lo) if _torch_avx() else x * (hi - lo) + lo
    return np.where(value == hi, lo, value)  # rounding up to ``high`` gives ``low``, as torch


def normal(gen: Generator, n: int, dtype: str, mean: float = 0.0, std: float = 1.0,
           contiguous: bool = True) -> np.ndarray:
    """``n`` normal numbers: ``normal_`` / ``randn``."""
    if dtype == "float16":  # torch's are its float32 numbers rounded, but its half kernel
        # draws the last, overlapping 16 after the whole blocks, not after all n
        whole = -(-n // 16) * 16 if n >= 16 and contiguous else n
        values = normal(gen, whole, "float32", mean, std, contiguous)
        if whole != n:
            values = np.concatenate([values[:n - 16], values[whole - 16:]])
        return values.astype(np.float16)
    if n >= 16 and contiguous:
        return _normal_fill(gen, n, dtype, mean, std)
    values = np.array([_scalar_normal(gen) for _ in range(n)], dtype=np.float64)
    return _moved(values, std, mean).astype(dtype)


def _moved(x: np.ndarray, scale: float, shift: float) -> np.ndarray:
    """``x * scale + shift`` in float64 as torch's compiled kernels round it: one fma on its
    AVX builds."""
    return _fma64(x, scale, shift) if _torch_avx() else x * scale + shift


@functools.cache
def _torch_avx() -> bool:
    """Whether torch's CPU kernels here run its AVX2/AVX512 build (``ATEN_CPU_CAPABILITY=default``
    turns that off): its compiler fuses ``x * std + mean`` into one fma there, and its float32
    normals go through ``avx_mathfun.h`` instead of the C library."""
    import os

    if os.environ.get("ATEN_CPU_CAPABILITY", "").lower() == "default":
        return False
    try:
        with open("/proc/cpuinfo") as info:
            flags = next((line for line in info if line.startswith("flags")), "").split()
    except OSError:
        return False
    return "avx2" in flags and "fma" in flags


_ROWS = 2048


def _normal_fill(gen: Generator, n: int, dtype: str, mean: float, std: float) -> np.ndarray:
    data = uniform(gen, n, dtype)
    blocks = data[:n - n % 16].reshape(-1, 16)
    for start in range(0, len(blocks), _ROWS):  # chunks that stay in cache: twice as fast
        rows = blocks[start:start + _ROWS]
        rows[...] = _box_muller_16(rows, dtype, mean, std)
    if n % 16:
        data[n - 16:] = _box_muller_16(uniform(gen, 16, dtype).reshape(1, 16), dtype, mean,
                                       std).ravel()
    return data


def _box_muller_16(u: np.ndarray, dtype: str, mean: float, std: float) -> np.ndarray:
    """torch's NormalFill16 on rows of 16 uniforms: the first 8 give cosines, the last 8
    sines; float64 goes through the C library's log/cos/sin and fma, float32 through
    avx_mathfun's where torch runs AVX2/AVX512 kernels, else through the C library's
    logf/cosf/sinf."""
    u1, u2 = 1 - u[:, :8], u[:, 8:]
    if dtype == "float64":
        radius = np.sqrt(-2 * _each(math.log, u1))
        theta = 2.0 * math.pi * u2
        cos, sin, fma = _each(math.cos, theta), _each(math.sin, theta), _fma64
    elif _torch_avx():
        radius = np.sqrt(np.float32(-2) * _libm.avx_log(u1))
        sin, cos = _libm.avx_sincos(np.float32(2 * math.pi) * u2)
        fma = _libm.fmaf
    else:
        radius = np.sqrt(np.float32(-2) * _libm.logf(u1))
        theta = (2.0 * math.pi * u2.astype(np.float64)).astype(np.float32)
        cos, sin, fma = _libm.cosf(theta), _libm.sinf(theta), _libm.fmaf
    ftype = np.dtype(dtype).type
    m, s = ftype(mean), ftype(std)
    return np.concatenate([fma(radius * cos, s, m), fma(radius * sin, s, m)], axis=1)


def _each(fn: Any, x: np.ndarray) -> np.ndarray:
    """The C library's float64 ``fn`` (through Python's math module) on every element:
    numpy's own float64 log/cos/sin differ from it in the last bit now and then."""
    return np.fromiter(map(fn, x.ravel().tolist()), np.float64, x.size).reshape(x.shape)


def _exp(x: float) -> float:
    """The C library's ``exp``: infinity where the result overflows (Python's raises)."""
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def _fma64(a: np.ndarray, b: Any, c: Any) -> np.ndarray:
    """float64 ``a*b + c`` rounded once (C's fma), from an exact product (Dekker)."""
    if b == 1 and c == 0:
        return a
    p = a * b
    s = p + c
    with np.errstate(invalid="ignore"):  # an infinite mean or std: the errors are nan
        err = _two_product_error(a, np.float64(b), p)
        bb = s - p
        sum_err = (p - (s - bb)) + (c - bb)
        return np.where(np.isfinite(s), s + (sum_err + err), s)  # inf stays inf, as C's fma


def _two_product_error(a: np.ndarray, b: np.float64, p: np.ndarray) -> np.ndarray:
    def split(x: Any) -> tuple:
        t = 134217729.0 * x  # 2**27 + 1
        hi = t - (t - x)
        return hi, x - hi

    ah, al = split(a)
    bh, bl = split(b)
    return ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _scalar_normal(gen: Generator, draw: Any = None) -> float:
    """One float64 normal number; a Box-Muller pair's sine is kept for the next call. Its
    uniforms come from ``draw()`` (a ``_Uniforms`` reading ``gen``) where given."""
    if gen.next_double_normal is not None:
        value, gen.next_double_normal = gen.next_double_normal, None
        return value
    u1, u2 = (draw(), draw()) if draw else uniform(gen, 2, "float64").tolist()
    r = math.sqrt(-2.0 * math.log1p(-u2))
    theta = 2.0 * math.pi * u1
    gen.next_double_normal = r * math.sin(theta)
    return r * math.cos(theta)


def randint(gen: Generator, n: int, dtype: str, low: int, high: int) -> np.ndarray:
    """``n`` integers from [low, high): ``random_(low, high)`` / ``randint``; a range of
    2**28 or more takes 64-bit draws, one of 2**64 keeps them whole."""
    span = high - low
    words = gen.words64(n) if span >= 2 ** 28 else gen.words(n)
    if span == 2 ** 64:  # random_(-2**63, None): the words' own bits
        return words.view(np.int64).astype(dtype)
    values = (words % np.uint64(span)).astype(np.int64) + np.int64(low)
    return values.astype(dtype)


def random_bits(gen: Generator, n: int, dtype: str) -> np.ndarray:
    """``random_()`` without bounds: integers from [0, 2**mantissa] for floats, [0, max]
    for integers, a coin for bool."""
    if dtype == "bool":
        return (gen.words(n) & np.uint64(1)).astype(bool)
    wide = dtype in ("float64", "int64")
    words = gen.words64(n) if wide else gen.words(n)
    if dtype in _BITS:
        modulus = 2 ** _BITS[dtype] + 1
    else:
        modulus = int(np.iinfo(dtype).max) + 1
    return (words % np.uint64(modulus)).astype(dtype)


def bernoulli(gen: Generator, n: int, dtype: str, p: Any) -> np.ndarray:
    """``n`` coins, 1 with probability ``p``: a number (float64 uniforms) or an array of
    probabilities (float64 uniforms for float64 ones, else float32)."""
    if isinstance(p, np.ndarray):
        precision = "float64" if p.dtype == np.float64 else "float32"
        return (uniform(gen, n, precision) < p.ravel()).astype(dtype)
    return (uniform(gen, n, "float64") < p).astype(dtype)


def exponential(gen: Generator, n: int, dtype: str, lambd: float) -> np.ndarray:
    """``n`` exponential numbers of rate ``lambd``: ``-log1p(-u) / lambd``, in float64."""
    u = uniform(gen, n, "float64")
    return (-1.0 / lambd * _each(math.log1p, -u)).astype(dtype)


class _Uniforms:
    """torch's float64 uniforms one at a time, read from blocks drawn ahead (one call to the
    generator per block, not per number); ``close`` gives back those not read, leaving the
    generator where torch's would be."""

    def __init__(self, gen: Generator, ahead: int) -> None:
        self.gen, self.ahead = gen, ahead
        self._next_block()

    def _next_block(self) -> None:
        self.start = self.gen._tell()
        self.block, self.used = uniform(self.gen, self.ahead, "float64").tolist(), 0

    def __call__(self) -> float:
        if self.used == len(self.block):
            self._next_block()
        self.used += 1
        return self.block[self.used - 1]

    def close(self) -> None:
        self.gen._seek(self.start)
        self.gen.words64(self.used)


def cauchy(gen: Generator, n: int, dtype: str, median: float, sigma: float) -> np.ndarray:
    """``n`` Cauchy numbers: ``median + sigma * tan(pi * (u - 0.5))`` of float64 uniforms."""
    u = uniform(gen, n, "float64")
    return _moved(_each(math.tan, math.pi * (u - 0.5)), sigma, median).astype(dtype)


def log_normal(gen: Generator, n: int, dtype: str, mean: float, std: float) -> np.ndarray:
    """``n`` numbers ``exp(normal)``: float64 normals one by one (sharing the Box-Muller
    pair's sine kept between calls), as torch's serial kernel draws them."""
    normals = np.array([_scalar_normal(gen) for _ in range(n)], dtype=np.float64)
    return _each(_exp, _moved(normals, std, mean)).astype(dtype)


def geometric(gen: Generator, n: int, dtype: str, p: float) -> np.ndarray:
    """``n`` counts of trials to the first success: ``ceil(log(u) / log1p(-p))``."""
    u = uniform(gen, n, "float64")
    return np.ceil(_each(math.log, u) / math.log1p(-p)).astype(dtype)


def poisson(gen: Generator, n: int, dtype: str, rates: Any) -> np.ndarray:
    """One Poisson count per rate, in order: torch's ``sample_poisson`` on each, drawing its
    float64 uniforms one by one."""
    rates = np.asarray(rates, dtype=np.float64).ravel()
    draw = _Uniforms(gen, ahead=min(max(64, 2 * len(rates)), 2 ** 16))
    counts = [_poisson_count(draw, lam) for lam in rates.tolist()]
    draw.close()
    return np.asarray(counts).astype(dtype)


def _poisson_count(draw: _Uniforms, lam: float) -> int:
    """A products-of-uniforms count below rate 10; from 10 Hoermann's transformed rejection
    (1993), with torch's constants."""
    if lam == 0:
        return 0
    if lam < 10:
        count, prod, limit = 0, 1.0, math.exp(-lam)
        while True:
            prod *= draw()
            if prod <= limit:
                return count
            count += 1
    slam, loglam = math.sqrt(lam), math.log(lam)
    b = 0.931 + 2.53 * slam
    a = -0.059 + 0.02483 * b
    invalpha = 1.1239 + 1.1328 / (b - 3.4)
    vr = 0.9277 - 3.6224 / (b - 2)
    while True:
        u = draw() - 0.5
        v = draw()
        us = 0.5 - abs(u)
        k = _floor((2 * a / us + b) * u + lam + 0.43)
        if us >= 0.07 and v <= vr:
            return _int64(k)
        if k < 0 or (us < 0.013 and v > us):
            continue
        if (math.log(v) + math.log(invalpha) - math.log(a / (us * us) + b)
                <= -lam + k * loglam - math.lgamma(k + 1.0)):
            return _int64(k)


def _floor(x: float) -> float:
    """C's ``floor``: an infinite or NaN ``x`` (an infinite rate's) is itself."""
    return math.floor(x) if math.isfinite(x) else x


def _int64(k: float) -> int:
    """C's cast of a double to int64 on x86-64: out of range (inf, NaN) gives INT64_MIN."""
    return int(k) if math.isfinite(k) and -2 ** 63 <= k < 2 ** 63 else -2 ** 63


def binomial(gen: Generator, n: int, dtype: str, counts: Any, probs: Any) -> np.ndarray:
    """One Binomial(count, prob) number per pair, in order: torch's ``sample_binomial`` on
    each (inversion of geometric waiting times while ``count * prob`` is below 10, else
    Hoermann's BTRS rejection), its uniforms float64 and its parameters' steps in ``dtype``."""
    ftype = np.float32 if dtype == "float32" else np.float64
    pairs = zip(np.asarray(counts, dtype=dtype).ravel().tolist(),
                np.asarray(probs, dtype=dtype).ravel().tolist())
    draw = _Uniforms(gen, ahead=min(max(64, 2 * n), 2 ** 16))
    with np.errstate(all="ignore"):
        values = [_binomial_count(draw, ftype(count), ftype(prob)) for count, prob in pairs]
    draw.close()
    return np.array(values, dtype=dtype)


def _binomial_count(draw: _Uniforms, count: Any, prob: Any) -> Any:
    if count <= 0 or prob <= 0:
        return 0
    if prob >= 1:
        return count
    if prob <= 0.5:
        sampler = _btrs if count * prob >= 10 else _binomial_inversion
        return sampler(draw, count, prob)
    if prob > 0.5:
        q = 1 - prob
        sampler = _btrs if count * q >= 10 else _binomial_inversion
        return count - sampler(draw, count, q)
    return math.nan  # a NaN probability


_LOG1P, _LOG1PF = _libm.scalar("log1p"), _libm.scalar("log1pf", single=True)


def _binomial_inversion(draw: _Uniforms, count: Any, prob: Any) -> Any:
    """Geometric waiting times for a success, summed until past ``count``."""
    logprob = (_LOG1PF if type(prob) is np.float32 else _LOG1P)(-prob)
    geom_sum, successes = 0.0, type(count)(0)
    while True:
        geom_sum += math.ceil(_LOG(draw()) / logprob) if logprob else math.inf
        if geom_sum > count:
            return successes
        successes += 1


_STIRLING_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983,
                  0.02079067210376509, 0.0166446911898211, 0.0138761288230707,
                  0.0118967099458917, 0.0104112652619720, 0.00925546218271273,
                  0.00833056343336287)


def _stirling_tail(k: float) -> float:
    """log(k!) minus its Stirling approximation."""
    if k <= 9:
        return _STIRLING_TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _btrs(draw: _Uniforms, count: Any, prob: Any) -> Any:
    """Hoermann's transformed rejection with squeeze (BTRS, 1993), as torch (after
    TensorFlow): the parameters' products in their own type, the rest in float64."""
    stddev = float(np.sqrt(count * prob * (1 - prob)))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * float(prob)
    c = float(count * prob) + 0.5
    v_r = 0.92 - 4.2 / b
    r = float(prob / (1 - prob))
    alpha = (2.83 + 5.1 / b) * stddev
    m = float(math.floor((count + 1) * prob))
    n = float(count)
    while True:
        u = draw() - 0.5
        v = draw()
        us = 0.5 - abs(u)
        k = type(count)(math.floor((2 * a / us + b) * u + c))
        if k < 0 or k > count:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        v = _LOG(v * alpha / (a / (us * us) + b))
        upperbound = ((m + 0.5) * _LOG((m + 1) / (r * (n - m + 1)))
                      + float(count + 1) * _LOG((n - m + 1) / float(count - k + 1))
                      + float(k + 0.5) * _LOG(r * float(count - k + 1) / float(k + 1))
                      + _stirling_tail(m) + _stirling_tail(n - m)
                      - _stirling_tail(float(k)) - _stirling_tail(float(count - k)))
        if v <= upperbound:
            return k


def standard_gamma(gen: Generator, n: int, dtype: str, alphas: Any) -> np.ndarray:
    """One Gamma(alpha, 1) number per alpha, in order: torch's ``sample_gamma`` on each, which
    takes its float64 uniforms and normals one by one (how many depends on the numbers, so
    no number can be drawn before the last is done), in ``dtype``'s precision where torch
    computes in it; a result below the smallest normal number (or NaN) becomes that
    number."""
    ftype = np.float32 if dtype == "float32" else float
    tiny = ftype(np.finfo(dtype).tiny)
    draw = _Uniforms(gen, ahead=min(max(64, 3 * n), 2 ** 16))
    values = []
    for alpha in np.asarray(alphas, dtype=dtype).ravel().tolist():
        value = ftype(_gamma_number(gen, draw, ftype(alpha), ftype))
        values.append(value if tiny < value else tiny)  # C++'s std::max(tiny, value)
    draw.close()
    return np.array(values, dtype=dtype)


_LOG, _POW = _libm.scalar("log"), _libm.scalar("pow", 2)
# C++ float literals of torch's sample_gamma (1.0f / 3.0f and 0.0331f), as float64
_THIRD, _SQUEEZE = float(np.float32(1) / np.float32(3)), float(np.float32(0.0331))


def _gamma_number(gen: Generator, draw: _Uniforms, alpha: Any, ftype: Any) -> float:
    """Marsaglia and Tsang's (2000) rejection method as torch runs it: an alpha below 1 is
    raised by 1 and the result scaled by ``u ** (1 / alpha)`` (one uniform first); then
    each try takes normals until ``1 + c x`` is positive and one uniform. ``alpha`` and its
    reciprocal are of ``ftype`` (torch's scalar type), the rest float64."""
    scale = 1.0
    if alpha < 1:
        if alpha == 0:
            return 0.0
        scale = _POW(1 - draw(), float(ftype(1) / alpha))
        alpha += ftype(1)
    d = float(alpha - ftype(_THIRD))
    c = 1.0 / math.sqrt(9.0 * d) if d > 0 else math.inf if d == 0 else math.nan  # C's
    while True:
        x = _scalar_normal(gen, draw)
        y = 1.0 + c * x
        while y <= 0:
            x = _scalar_normal(gen, draw)
            y = 1.0 + c * x
        v = y * y * y
        u = 1 - draw()
        xx = x * x
        if u < 1.0 - _SQUEEZE * xx * xx or _LOG(u) < 0.5 * xx + d * (1.0 - v + _LOG(v)):
            return scale * d * v


def randperm(gen: Generator, n: int, dtype: str = "int64") -> np.ndarray:
    """A permutation of 0..n-1: torch's Fisher-Yates, swapping place i with one of i..n-1."""
    order = list(range(n))
    picks = (gen.words(max(n - 1, 0)) % np.arange(n, 1, -1, dtype=np.uint64)).tolist()
    for i, z in enumerate(picks):
        order[i], order[i + z] = order[i + z], order[i]
    return np.array(order, dtype=dtype)


def draw(xp: Any, sample: str, shape: tuple, dtype: str, generator: Generator | None = None,
         **params: Any) -> Any:
    """An array of ``xp`` holding ``sample`` (a function's name here, or ``"normal"`` and
    ``"uniform"`` on CuPy with ``generator``'s CuPy twin), of ``shape`` and ``dtype``.

    >>> draw(np, "uniform", (2, 1), "float32").shape
    (2, 1)
    """
    from ._generator import default_generator

    check_random()
    gen = generator or default_generator
    n = math.prod(shape)
    if backend.is_cupy(xp):
        return _cupy_draw(gen.gpu_rng(), sample, shape, dtype, params)
    for key in ("p", "rates", "alphas", "counts", "probs"):  # parameters of any array module
        if not isinstance(params.get(key, 0.0), (int, float)):
            params[key] = backend.to_numpy(params[key])
    values = _SAMPLERS[sample](gen, n, dtype, **params).reshape(shape)
    return values if xp is np else xp.asarray(values)


_SAMPLERS = {"uniform": uniform, "normal": normal, "randint": randint,
             "random_bits": random_bits, "bernoulli": bernoulli, "exponential": exponential,
             "randperm": randperm, "poisson": poisson, "standard_gamma": standard_gamma,
             "binomial": binomial, "cauchy": cauchy, "log_normal": log_normal,
             "geometric": geometric}


def _cupy_draw(rng: Any, sample: str, shape: tuple, dtype: str, params: dict) -> Any:
    """``sample`` from CuPy's generator, by the plain formulas (not torch's numbers)."""
    n = math.prod(shape)
    if sample in ("normal", "log_normal"):
        values = rng.standard_normal(shape) * params.get("std", 1.0) + params.get("mean", 0.0)
        if sample == "log_normal":
            values = importlib.import_module("cupy").exp(values)
    elif sample == "randperm":
        values = rng.random(n).argsort()
    elif sample == "standard_gamma":
        values = rng.standard_gamma(params["alphas"])
    else:
        u = rng.random(shape)
        if sample == "uniform":
            low, high = params.get("low", 0.0), params.get("high", 1.0)
            values = u * (high - low) + low
        elif sample == "bernoulli":
            values = u < params["p"]
        elif sample == "exponential":
            values = -importlib.import_module("cupy").log1p(-u) / params["lambd"]
        elif sample == "cauchy":
            values = params["median"] + params["sigma"] * importlib.import_module("cupy").tan(
                math.pi * (u - 0.5))
        elif sample == "geometric":
            cp = importlib.import_module("cupy")
            values = cp.ceil(cp.log(u) / math.log1p(-params["p"]))
        else:  # randint, random_bits
            low, high = params.get("low", 0), params.get("high", 2 ** _BITS.get(dtype, 31))
            values = u * (high - low) // 1 + low
    return values.astype(dtype, copy=False)
