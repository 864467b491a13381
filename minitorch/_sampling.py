"""torch's CPU sampling kernels: how 32- and 64-bit words of a ``Generator`` become uniform,
normal, integer, Bernoulli and exponential numbers and permutations, step for step as in
torch 2.13 (``ATen/core/TransformationHelper.h``, ``ATen/native/cpu/DistributionTemplates.h``,
``randperm_cpu``), so every sample equals torch's for the same seed.

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
           "randint", "random_bits", "randperm", "uniform"]

_BITS = {"float32": 24, "float64": 53}


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


def _scalar_normal(gen: Generator) -> float:
    """One float64 normal number; a Box-Muller pair's sine is kept for the next call."""
    if gen.next_double_normal is not None:
        value, gen.next_double_normal = gen.next_double_normal, None
        return value
    u1, u2 = uniform(gen, 2, "float64").tolist()
    r = math.sqrt(-2.0 * math.log1p(-u2))
    theta = 2.0 * math.pi * u1
    gen.next_double_normal = r * math.sin(theta)
    return r * math.cos(theta)


def randint(gen: Generator, n: int, dtype: str, low: int, high: int) -> np.ndarray:
    """``n`` integers from [low, high): ``random_(low, high)`` / ``randint``; a range of
    2**28 or more takes 64-bit draws."""
    span = high - low
    words = gen.words64(n) if span >= 2 ** 28 else gen.words(n)
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


def cauchy(gen: Generator, n: int, dtype: str, median: float, sigma: float) -> np.ndarray:
    """``n`` Cauchy numbers: ``median + sigma * tan(pi * (u - 0.5))`` of float64 uniforms."""
    u = uniform(gen, n, "float64")
    return _moved(_each(math.tan, math.pi * (u - 0.5)), sigma, median).astype(dtype)


def log_normal(gen: Generator, n: int, dtype: str, mean: float, std: float) -> np.ndarray:
    """``n`` numbers ``exp(normal)``: float64 normals one by one (sharing the Box-Muller
    pair's sine kept between calls), as torch's serial kernel draws them."""
    normals = np.array([_scalar_normal(gen) for _ in range(n)], dtype=np.float64)
    return _each(math.exp, _moved(normals, std, mean)).astype(dtype)


def geometric(gen: Generator, n: int, dtype: str, p: float) -> np.ndarray:
    """``n`` counts of trials to the first success: ``ceil(log(u) / log1p(-p))``."""
    u = uniform(gen, n, "float64")
    return np.ceil(_each(math.log, u) / math.log1p(-p)).astype(dtype)


def poisson(gen: Generator, n: int, dtype: str, rates: Any) -> np.ndarray:
    """One Poisson count per rate, in order: torch's ``sample_poisson`` on each, drawing its
    float64 uniforms one by one."""
    rates = np.asarray(rates, dtype=np.float64).ravel()
    return np.asarray([_poisson_count(gen, float(lam)) for lam in rates]).astype(dtype)


def _uniform64(gen: Generator) -> float:
    return float(gen.words64(1)[0] & np.uint64(2 ** 53 - 1)) * 2.0 ** -53


def _poisson_count(gen: Generator, lam: float) -> int:
    """A products-of-uniforms count below rate 10; from 10 Hoermann's transformed rejection
    (1993), with torch's constants."""
    if lam == 0:
        return 0
    if lam < 10:
        count, prod, limit = 0, 1.0, math.exp(-lam)
        while True:
            prod *= _uniform64(gen)
            if prod <= limit:
                return count
            count += 1
    slam, loglam = math.sqrt(lam), math.log(lam)
    b = 0.931 + 2.53 * slam
    a = -0.059 + 0.02483 * b
    invalpha = 1.1239 + 1.1328 / (b - 3.4)
    vr = 0.9277 - 3.6224 / (b - 2)
    while True:
        u = _uniform64(gen) - 0.5
        v = _uniform64(gen)
        us = 0.5 - abs(u)
        k = math.floor((2 * a / us + b) * u + lam + 0.43)
        if us >= 0.07 and v <= vr:
            return k
        if k < 0 or (us < 0.013 and v > us):
            continue
        if (math.log(v) + math.log(invalpha) - math.log(a / (us * us) + b)
                <= -lam + k * loglam - math.lgamma(k + 1.0)):
            return k


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
    for key in ("p", "rates"):  # probabilities (rates) of any array module
        if not isinstance(params.get(key, 0.0), (int, float)):
            params[key] = backend.to_numpy(params[key])
    values = _SAMPLERS[sample](gen, n, dtype, **params).reshape(shape)
    return values if xp is np else xp.asarray(values)


_SAMPLERS = {"uniform": uniform, "normal": normal, "randint": randint,
             "random_bits": random_bits, "bernoulli": bernoulli, "exponential": exponential,
             "randperm": randperm, "poisson": poisson, "cauchy": cauchy,
             "log_normal": log_normal, "geometric": geometric}


def _cupy_draw(rng: Any, sample: str, shape: tuple, dtype: str, params: dict) -> Any:
    """``sample`` from CuPy's generator, by the plain formulas (not torch's numbers)."""
    n = math.prod(shape)
    if sample in ("normal", "log_normal"):
        values = rng.standard_normal(shape) * params.get("std", 1.0) + params.get("mean", 0.0)
        if sample == "log_normal":
            values = importlib.import_module("cupy").exp(values)
    elif sample == "randperm":
        values = rng.random(n).argsort()
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
