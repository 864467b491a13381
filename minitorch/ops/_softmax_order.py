"""torch's CPU float32 softmax and log_softmax, bit for bit: its exp and its order of adding.

A softmax whose last bit differs from torch's prints differently as soon as its rows add up
to exactly 1 (``tensor([1., 1.])`` where torch prints ``tensor([1.0000, 1.0000])``).
torch's kernel (ATen's SoftMaxKernel.cpp) for float32 on x86-64, along the last dim:

* ``e = exp(x - max)`` with its vectorised exp, SLEEF's ``expf_u10`` (:func:`sleef_expf`);
* ``s``: the row's sum in SIMD lanes (16 with AVX512, 8 with AVX2): the first ``lanes``
  values start the lanes, each later block of ``lanes`` values is added lane by lane, a last
  partial block into the first lanes; the lanes are then folded in halves (lane ``i`` plus
  lane ``i ^ half``). A row shorter than the lanes is added value by value;
* softmax ``e * (1 / s)``; log_softmax ``(x - max) - log(s)``, the log SLEEF's ``logf_u10``
  (:func:`~minitorch._sleef.logf`; the C library's differs for 1 row in 30).

Along another dim, the values of the dim are added one after another and softmax divides;
the kernel runs vectors across the positions after the dim, and where a whole vector does
not fit (the last positions of each chunk, see :func:`_exp_by_kernel`) it takes the C
library's ``expf`` instead of SLEEF's.
torch's float32 ``sigmoid`` takes the same vectorised exp (:func:`torch_sigmoid`), its ``pow``
SLEEF's pow (:func:`torch_pow`), both the C library's past the last pair of vectors.
Every step is a whole-array numpy call; CUDA and other arrays keep their library's math.

>>> import numpy as np
>>> x = np.array([[0.5, -1.25, 2.0]], dtype=np.float32)
>>> torch_softmax(np, x, 1).sum()
np.float32(1.0)
"""

from __future__ import annotations

import math
import os
from functools import cache, lru_cache
from typing import Any

import numpy as np

from .._libm import c_math, expf, fmaf
from .._sleef import expd as sleef_expd
from .._sleef import expf as sleef_expf
from .._sleef import log1pf as sleef_log1pf
from .._sleef import logf as sleef_logf
from .._sleef import powf as sleef_powf
from ..backend import cpu_math, half_via_float, namespace
from ._cascade_sum import _in_order, _thread_ranges, get_num_threads, torch_sum
from ._fused import cpu_features, fuses, multiply_add


def torch_sigmoid(xp: Any, a: Any) -> Any:
    """``1 / (1 + exp(-a))``; for a float32 or float64 numpy array with torch's exps
    (:func:`vectorised_exp`), which makes it torch's CPU sigmoid bit for bit.

    >>> torch_sigmoid(np, np.array([-13.142858], dtype=np.float32))
    array([1.959425e-06], dtype=float32)
    """
    if type(a) is not np.ndarray or a.dtype not in (np.float32, np.float64):
        return 1 / (1 + xp.exp(-a))
    one = a.dtype.type(1)
    return one / (one + vectorised_exp(-a, like=a))


def torch_exp(xp: Any, a: Any) -> Any:
    """``exp(a)`` as torch's element-wise kernels other than ``exp`` itself take it: for a
    float32 numpy array :func:`vectorised_exp`, else the backend's (:func:`cpu_math`).

    >>> torch_exp(np, np.array([1.0], dtype=np.float32))
    array([2.7182817], dtype=float32)
    """
    if type(a) is not np.ndarray or a.dtype != np.float32:
        return cpu_math(xp.exp, a)
    return vectorised_exp(a)


def torch_silu(xp: Any, a: Any) -> Any:
    """``a / (1 + exp(-a))``, with torch's exps for a float32 numpy array (as
    :func:`torch_sigmoid`), which makes it torch's CPU silu bit for bit.

    >>> torch_silu(np, np.array([1.0], dtype=np.float32))
    array([0.7310586], dtype=float32)
    """
    return a / (1 + torch_exp(xp, -a))


def vectorised_exp(a: np.ndarray, like: np.ndarray | None = None) -> np.ndarray:
    """The exps of a float32 or float64 array as torch's element-wise kernels take them
    (``sigmoid``, ``silu`` and its backward): SLEEF's where the vector loop runs
    (:func:`sleef_expf`, :func:`sleef_expd`), the C library's ``exp``/``expf`` elsewhere
    (:func:`by_vector_loop`), the loop laid out as ``like`` (the kernel's input, where ``a``
    was computed from it) or ``a``.

    >>> vectorised_exp(np.array([0.0, 1.0], dtype=np.float32))
    array([1.       , 2.7182817], dtype=float32)
    """
    if a.dtype == np.float32:
        return by_vector_loop(a, sleef_expf, expf, like)
    return by_vector_loop(a, sleef_expd, lambda v: c_math("exp", v), like)


def torch_pow(xp: Any, x: Any, p: float) -> Any:
    """``x ** p`` for a number ``p`` (not one of the exponents torch computes by products);
    for a float32 numpy array as torch's pow kernel: SLEEF's ``powf_u10``
    (:func:`minitorch._sleef.powf`, of ``p`` rounded to float32) where its vector loop runs;
    on the values after it (:func:`by_vector_loop`), and on all of them without AVX2 or with
    ``ATEN_CPU_CAPABILITY=default``, the C library's double ``pow`` of ``p`` itself, rounded.
    0 and 1 are a fill and a copy there.

    >>> torch_pow(np, np.float32([2.0, 4.0]), 1.5)
    array([2.828427, 8.      ], dtype=float32)
    """
    if type(x) is not np.ndarray or x.dtype != np.float32 or p in (0, 1):
        return xp.pow(x, p)
    def one_by_one(v: np.ndarray) -> np.ndarray:
        with np.errstate(all="ignore"):
            return np.power(v.astype(np.float64), float(p)).astype(np.float32)

    if not fuses():
        return one_by_one(x)
    return by_vector_loop(x, lambda v: sleef_powf(v, np.float32(p)), one_by_one)


def torch_log_sigmoid(xp: Any, a: Any) -> tuple[Any, Any]:
    """``log(sigmoid(a)) = min(a, 0) - log1p(b)`` and the ``b = exp(-|a|)`` torch's kernel keeps
    for backward; for a float32 numpy array as torch's CPU kernel, bit for bit: every value
    (a last part-filled vector too) takes SLEEF's exp and log1p.

    >>> torch_log_sigmoid(np, np.array([0.0, -100.0], dtype=np.float32))[0]
    array([  -0.6931472, -100.       ], dtype=float32)
    """
    if type(a) is np.ndarray and a.dtype == np.float16:  # torch's kernel: in float, rounded
        value, b = torch_log_sigmoid(xp, a.astype(np.float32))
        return value.astype(np.float16), b.astype(np.float16)
    if type(a) is not np.ndarray or a.dtype != np.float32:
        b = xp.exp(-xp.abs(a))
        return xp.minimum(a, 0) - xp.log1p(b), b
    b = sleef_expf(-np.abs(a))
    return np.minimum(a, np.float32(0)) - sleef_log1pf(b), b

def by_vector_loop(a: np.ndarray, vector: Any, scalar: Any,
                   like: np.ndarray | None = None) -> np.ndarray:
    """``vector`` of the values of ``a`` where torch's element-wise loop (``cpu_kernel_vec``)
    runs vectors, ``scalar`` of the others: at::parallel_for splits the values, in memory
    order, between the threads (grain 32768); each thread's range falls into runs of
    contiguous values (all of a contiguous array; each row of a view such as a ``chunk``
    of a wider tensor), and each run takes two vectors at a time from its start and its
    values after the last pair one by one. Without a contiguous dim, all go one by one.
    The layout is that of ``like`` where given (an array of ``a``'s shape).

    >>> out = by_vector_loop(np.zeros(40, np.float32), lambda v: v + 1, lambda v: v - 1)
    >>> int((out == 1).sum())  # two vectors of 16 (or four of 8), then 8 one by one
    32
    >>> int((by_vector_loop(np.zeros((2, 80), np.float32)[:, :40], np.exp, np.sin) == 1).sum())
    64
    """
    order, run = _loop_order(a if like is None else like)
    values = np.transpose(a, order).ravel()
    width = 2 * lanes() * 4 // a.itemsize  # two vectors of the dtype's lanes
    plan = _small_vector_plan if values.size <= 4096 else _vector_plan
    vectorised, count = plan(values.size, run, get_num_threads(), width)
    out = np.empty_like(values)
    if count:  # SLEEF's steps cost tens of µs even on no values: none on a short array
        out[vectorised] = vector(values[vectorised])
    if count < values.size:
        out[~vectorised] = scalar(values[~vectorised])
    shaped = out.reshape([a.shape[d] for d in order])
    return np.transpose(shaped, np.argsort(order))


def vector_mask(a: Any) -> Any:
    """Where torch's element-wise loop over ``a`` runs vectors (:func:`by_vector_loop`), as a
    bool array of ``a``'s shape; nowhere outside numpy (a GPU kernel goes value by value).

    >>> int(vector_mask(np.zeros(40, np.float32)).sum())
    32
    """
    if type(a) is not np.ndarray:
        xp = namespace(a)
        return xp.zeros(a.shape, dtype=xp.bool)
    return by_vector_loop(a, np.ones_like, np.zeros_like).astype(bool)


def _loop_order(a: np.ndarray) -> tuple[list[int], int]:
    """The dims of ``a`` outermost first as torch's TensorIterator orders them (by stride),
    and the length of the contiguous runs its loop sees (innermost dims merged while their
    strides allow; 0 where the innermost dim is not contiguous)."""
    dims = sorted(range(a.ndim), key=lambda d: (a.shape[d] > 1, abs(a.strides[d])),
                  reverse=True)
    inner = [d for d in dims if a.shape[d] > 1]
    if not inner:
        return dims, a.size
    if a.strides[inner[-1]] != a.itemsize:
        return dims, 0
    run, stride = 1, a.itemsize
    for d in reversed(inner):
        if a.strides[d] != stride:
            break
        run, stride = run * a.shape[d], stride * a.shape[d]
    return dims, run


def _vector_plan(size: int, run: int, threads: int, width: int) -> tuple[np.ndarray, int]:
    """Which of ``size`` values in loop order :func:`by_vector_loop`'s vectors take (a
    read-only mask), and how many, for contiguous runs of ``run`` values (0: none)."""
    position = np.arange(size)
    vectorised = np.zeros(size, bool)
    for begin, end in _thread_ranges(size, 32768, threads) if run else ():
        at = position[begin:end]
        start = at // run * run
        vectorised[begin:end] = _covered(at, np.maximum(start, begin),
                                         np.minimum(start + run, end), width)
    vectorised.flags.writeable = False
    return vectorised, int(np.count_nonzero(vectorised))


# a model calls its ops on the same few small shapes step after step: their plans made once
_small_vector_plan = lru_cache(maxsize=256)(_vector_plan)


@cache
def lanes() -> int:
    """float32 lanes of torch's vectorised kernels on this CPU: 16 with AVX512, else 8 (also
    where ``ATEN_CPU_CAPABILITY`` holds torch to ``avx2`` or ``default``)."""
    have = cpu_features()
    avx512 = all(have.get(f) for f in ("AVX512F", "AVX512BW", "AVX512VL", "AVX512DQ"))
    held = os.environ.get("ATEN_CPU_CAPABILITY", "").lower() in ("avx2", "default")
    return 16 if avx512 and not held else 8


def vector_body(xp: Any, x: Any) -> Any:
    """Where torch's CPU loop runs its vectorised form on ``x`` (a mask): the values two
    vectors at a time from the start, in memory order; the rest (the tail) runs its scalar
    form. The two differ on NaN and on the sign of a zero. (One thread's loop: tensors of
    fewer than 32768 values.)

    >>> int(vector_body(np, np.zeros(20, np.float32)).sum()) % 16
    0
    """
    block = 2 * lanes() * 32 // xp.finfo(x.dtype).bits  # two vectors of the dtype's lanes
    index = xp.reshape(xp.arange(x.size), x.shape)
    return index < x.size - x.size % block


def nan_in_body(xp: Any, x: Any) -> Any:
    """Where ``x`` is NaN in torch's vectorised body (:func:`vector_body`), where its
    piecewise kernels take another branch than in its scalar tail.

    >>> nan_in_body(np, np.full(17, np.nan, np.float32)).sum()
    np.int64(16)
    """
    return xp.isnan(x) & vector_body(xp, x)


def lane_sum(e: np.ndarray, fold: bool = True, bits: int | None = None) -> np.ndarray:
    """Each row's sum (last axis, kept as size 1) in the order of torch's lanes (see above);
    with ``fold=False``, the lanes themselves, before their halves are added. ``bits``: the
    kernel's vector width (256 for one that torch runs in its AVX2 build on every CPU),
    else this CPU's.

    >>> lane_sum(np.ones((2, 20), dtype=np.float32)).ravel()
    array([20., 20.], dtype=float32)
    """
    width, n = _width(e, bits), e.shape[-1]
    if n < width:
        return _in_order(np, e[..., None])
    full = n - n % width
    acc = _in_order(np, e[..., :full].reshape(*e.shape[:-1], full // width, width))
    if full == width:  # one block: _in_order handed back a view of e itself
        acc = acc.copy()
    acc[..., :n - full] += e[..., full:]
    return _fold(acc) if fold else acc


def lane_dot(a: np.ndarray, b: np.ndarray, bits: int | None = None) -> np.ndarray:
    """Each row's ``sum(a * b)`` (last axis, kept) as torch's ``map2_reduce_all`` takes it
    when its caller runs on one thread: :func:`lane_sum` of the products, except that the
    products of the last partial block are fused into the adds that take them into the
    lanes (one fma each). Measured so: the copy of the kernel that at::parallel_for runs
    inline is compiled with that fma, the copy its threads run without it.

    >>> lane_dot(np.ones((1, 20), np.float32), np.full((1, 20), 0.5, np.float32)).ravel()
    array([10.], dtype=float32)
    """
    width, n = _width(a, bits), a.shape[-1]
    full = n - n % width
    if n < width or full == n:
        return lane_sum(a * b, bits=bits)
    acc = lane_sum(a[..., :full] * b[..., :full], fold=False, bits=bits)
    acc[..., :n - full] = multiply_add(np, a[..., full:], b[..., full:], acc[..., :n - full])
    return _fold(acc)


def _width(a: np.ndarray, bits: int | None) -> int:
    """The lanes of a vector of ``a``'s dtype: :func:`lanes` float32s (or ``bits`` of them),
    half as many float64s."""
    return (bits or 32 * lanes()) // (8 * a.dtype.itemsize)


def _fold(acc: np.ndarray) -> np.ndarray:
    """The lanes (last axis) added in halves: lane ``i`` plus lane ``i + half``; float64
    lanes one after another (torch's vec_reduce_all has shuffles for float32 alone)."""
    if acc.dtype == np.float64:
        return _in_order(np, acc[..., None])
    width = acc.shape[-1]
    while width > 1:
        width //= 2
        acc = acc[..., :width] + acc[..., width:2 * width]
    return acc


def _in_turn_sum(e: np.ndarray, dim: int) -> np.ndarray:
    """The values along ``dim`` added one after another, the dim kept."""
    dim %= e.ndim
    shape = e.shape
    rows = e.reshape(math.prod(shape[:dim]), shape[dim], math.prod(shape[dim + 1:]))
    return _in_order(np, rows).reshape(*shape[:dim], 1, *shape[dim + 1:])


def torch_softmax(xp: Any, a: Any, dim: int) -> Any:
    """softmax of ``a`` along ``dim``; for a float32 numpy array in torch's CPU order."""
    z = _minus_max(xp, a, dim)
    if _ours(a, np.float64) and _last(a, dim):  # torch's vectorised exp and lanes for doubles
        e = sleef_expd(z)
        return e * (1.0 / lane_sum(e))
    if not _ours(a):
        e = xp.exp(z)
        return e / torch_sum(xp, e, _dims(a, dim), keepdim=True)
    if _last(a, dim):
        e = sleef_expf(z)
        return e * (np.float32(1) / lane_sum(e))
    e = _exp_by_kernel(z, dim, _softmax_vectors)
    return e / _in_turn_sum(e, dim)


def torch_log_softmax(xp: Any, a: Any, dim: int) -> Any:
    """log_softmax of ``a`` along ``dim``; for a float32 numpy array in torch's CPU order:
    ``(x - max) - log(sum)``, the log SLEEF's (:func:`~minitorch._sleef.logf`).

    >>> torch_log_softmax(np, np.float32([[0.0, 0.0, 0.0]]), 1)
    array([[-1.0986123, -1.0986123, -1.0986123]], dtype=float32)
    """
    z = _minus_max(xp, a, dim)
    if not _ours(a):
        return z - xp.log(torch_sum(xp, xp.exp(z), _dims(a, dim), keepdim=True))
    if _last(a, dim):
        return z - sleef_logf(lane_sum(sleef_expf(z)))
    return z - sleef_logf(_in_turn_sum(_exp_by_kernel(z, dim, _chunk_vectors), dim))


def half_softmax(xp: Any, a: Any, dim: int) -> Any:
    """softmax of a float16 ``a``: along a dim other than the last, torch's kernel divides
    each exp by the float32 sum of the unrounded exps, in float32 where its vectors (of
    float16's lanes, twice float32's) take them, else after keeping the exp in float16.

    >>> half_softmax(np, np.float16([[0.0], [1.0]]), 0).ravel().tolist()
    [0.26904296875, 0.73095703125]
    """
    if not _ours(a, np.float16) or _last(a, dim):
        return half_via_float(torch_softmax, xp, a, dim)
    z = _minus_max(xp, a.astype(np.float32), dim)
    dim %= z.ndim
    vectors = _softmax_vectors(math.prod(z.shape[:dim]), z.shape[dim],
                               math.prod(z.shape[dim + 1:]), 2 * lanes())
    e = _exp_by_kernel(z, dim, lambda *_: vectors)
    kept = np.where(vectors, e.reshape(vectors.shape[0], -1, vectors.shape[2]),
                    e.astype(np.float16).reshape(vectors.shape[0], -1, vectors.shape[2]))
    return (kept.reshape(z.shape) / _in_turn_sum(e, dim)).astype(np.float16)


def half_log_softmax(xp: Any, a: Any, dim: int) -> Any:
    """log_softmax of a float16 ``a``: along the last dim, torch's kernel keeps each row's sum
    of exps, then its log, in float16 (each rounded there), the rest in float32; along
    another dim, everything in float32.

    >>> half_log_softmax(np, np.float16([[1, 2]]), 1).tolist()  # -0.3132 in float32 then
    [[-1.3134765625, -0.3134765625]]
    """
    if not (_ours(a, np.float16) and _last(a, dim)):
        return half_via_float(torch_log_softmax, xp, a, dim)
    z = _minus_max(np, a.astype(np.float32), dim)
    total = np.exp(z).sum(-1, keepdims=True, dtype=np.float32).astype(np.float16)
    return (z - np.log(total.astype(np.float32)).astype(np.float16)).astype(np.float16)


def _exp_by_kernel(z: np.ndarray, dim: int, vectors: Any) -> np.ndarray:
    """``exp(z)`` along a dim that is not the last, as torch's kernel takes it: SLEEF's for
    the positions its vector loop covers, the C library's ``expf`` for the rest (``vectors``
    tells which, as a (outer, 1, inner) mask of the array seen as (outer, dim, inner))."""
    dim %= z.ndim
    outer, inner = math.prod(z.shape[:dim]), math.prod(z.shape[dim + 1:])
    rows = z.reshape(outer, z.shape[dim], inner)
    scalar = ~vectors(outer, z.shape[dim], inner)
    e = sleef_expf(rows)
    if scalar.any():
        at = np.broadcast_to(scalar, rows.shape)
        e[at] = expf(rows[at])
    return e.reshape(z.shape)


def _covered(position: np.ndarray, start: Any, stop: Any, width: int = 0) -> np.ndarray:
    """Whether a vector loop run from ``start`` to ``stop`` in steps of ``width`` (the lanes)
    covers each position (the loop stops where a whole step no longer fits)."""
    width = width or lanes()
    return position - start < (stop - start) // width * width


def _chunk_vectors(outer: int, size: int, inner: int) -> np.ndarray:
    """log_softmax's kernels (``_vec_logsoftmax`` and its backward) cut the inner positions
    into chunks of a multiple of the lanes (about 128 KiB of the dim each) and run vectors
    along each chunk."""
    width = lanes()
    chunk = max(128 * 1024 // size // 4, width) // width * width
    j = np.arange(inner)
    start = j // chunk * chunk
    return _covered(j, start, np.minimum(start + chunk, inner)).reshape(1, 1, inner)


def _softmax_vectors(outer: int, size: int, inner: int, width: int = 0) -> np.ndarray:
    """softmax's kernel (``_vec_softmax``) runs vectors (of ``width`` lanes, float32's by
    default) over the (outer, inner) positions split evenly between all its threads
    (at::parallel_for with grain 0): each thread's vectors restart at the start of its
    range and at each outer index."""
    p = np.arange(outer * inner)
    vector = np.zeros(p.shape, bool)
    for begin, end in _thread_ranges(p.size, 1, get_num_threads()):
        q = p[begin:end]
        row = q - q % inner
        vector[begin:end] = _covered(q, np.maximum(row, begin), np.minimum(row + inner, end),
                                     width)
    return vector.reshape(outer, 1, inner)


def torch_softmax_backward(xp: Any, g: Any, y: Any, dim: int) -> Any:
    """The gradient of softmax's input ``(g - sum(g * y)) * y`` for its result ``y``; for
    float32 numpy arrays in torch's CPU order: the products added in lanes along the last
    dim (:func:`lane_dot`); along another, in turn, each product fused into the sum that
    adds it.

    >>> y = np.float32([[0.25, 0.75]])
    >>> torch_softmax_backward(np, np.float32([[1, 0]]), y, 1)
    array([[ 0.1875, -0.1875]], dtype=float32)
    """
    if not (_ours(g) and _ours(y)):
        return (g - torch_sum(xp, g * y, _dims(y, dim), keepdim=True)) * y
    if _last(y, dim):
        inline = math.prod(y.shape[:-1]) <= 1 or get_num_threads() == 1
        return (g - (lane_dot(g, y) if inline else lane_sum(g * y))) * y
    return (g - _in_turn_dot(g, y, dim)) * y


def _in_turn_dot(a: np.ndarray, b: np.ndarray, dim: int) -> np.ndarray:
    """``sum(a * b)`` along ``dim`` (kept) from 0, one fused multiply-add a value."""
    dim %= a.ndim
    acc = np.zeros((*a.shape[:dim], 1, *a.shape[dim + 1:]), a.dtype)
    for i in range(a.shape[dim]):
        at = (slice(None),) * dim + (slice(i, i + 1),)
        acc = fmaf(a[at], b[at], acc)
    return acc


def torch_log_softmax_backward(xp: Any, g: Any, y: Any, dim: int) -> Any:
    """The gradient of log_softmax's input ``g - exp(y) * sum(g)`` for its result ``y``; for
    float32 numpy arrays as torch's kernel: one fused multiply-add ``fma(-exp(y), sum, g)``,
    the exp SLEEF's where a whole vector is loaded (all of it along the last dim), the C
    library's elsewhere (:func:`_exp_by_kernel`).

    >>> y = np.log(np.float32([[0.25, 0.75]]))
    >>> torch_log_softmax_backward(np, np.float32([[1, 0]]), y, 1)
    array([[ 0.75, -0.75]], dtype=float32)
    """
    if not (_ours(g) and _ours(y)):
        return g - xp.exp(y) * torch_sum(xp, g, _dims(y, dim), keepdim=True)
    if _last(y, dim):
        return fmaf(-sleef_expf(y), lane_sum(g), g)
    return fmaf(-_exp_by_kernel(y, dim, _chunk_vectors), _in_turn_sum(g, dim), g)


def _minus_max(xp: Any, a: Any, dim: int) -> Any:
    if a.size == 0:  # nothing to shift (and an empty max has no value)
        return a
    return a - xp.max(a, axis=dim, keepdims=True)


def _last(a: Any, dim: int) -> bool:
    return dim % a.ndim == a.ndim - 1


def _dims(a: Any, dim: int) -> tuple[int, ...] | None:
    return (dim,) if a.ndim else None  # a 0-d array: its one value


def _ours(a: Any, dtype: Any = np.float32) -> bool:
    return type(a) is np.ndarray and a.dtype == dtype and a.size > 0 and a.ndim > 0
