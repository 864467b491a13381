"""torch's CPU float sum, bit for bit: the order in which torch adds, rebuilt from array ops.

Float addition is not associative, so two good sums of the same numbers can differ in the
last bit, and torch's printer then picks another format (``1.0000`` instead of ``1.``).
numpy sums pairwise; torch's CPU kernel (``cascade_sum`` in ATen's SumKernel.cpp) adds in
this order, which this module repeats with whole-array adds, never one element at a time:

* cascade: values along the reduced dim go one after another into a level-0 accumulator;
  every ``step`` values (16; more for rows over 2**19) it is added into level 1, every
  ``step**2`` level 1 into level 2, every ``step**3`` level 2 into level 3; at the end
  ``((level0 + level1) + level2) + level3``. Like a pairwise sum, it adds numbers of a size.
* four-way: a row is read as rows of 4 (instruction-level parallelism): one cascade per
  position mod 4, the last ``n % 4`` values go into the first, then ``first + ... + fourth``.
* vector rows: a contiguous row of at least W values (W: the SIMD lanes, 8 float32 or 4
  float64) is read as vectors of W; each lane gets a
  four-way sum, then ``0 + the leftover values + lane 0 + ... + lane W-1``.
* columns: when the kept dim is the contiguous one, columns in blocks of 4W (of 4 when
  there are fewer than W columns) get a plain cascade each, the columns left a four-way sum.
* several reduced dims that cannot merge into one: the innermost is summed per row, and
  the rows' sums are added one after another.
* threads: from 32768 elements on, torch splits the work between its threads. A sum of
  everything splits into equal ranges whose sums are summed again; a column sum splits its
  columns at multiples of 128 bytes, which moves the block boundaries above.

Which dims are "innermost" and which merge follows torch's TensorIterator: reduced dims
first, each group sorted by stride, neighbours merged when their memory is contiguous.
CUDA tensors keep their library's own sum: torch's order on a GPU is another one anyway.

Speed, with numpy: every level of every cascade is one array call, never a Python loop over
values. ``np.add.reduce`` along an axis that is not the innermost of numpy's loop adds its
rows one after another, exactly a torch accumulator's order (only along the innermost axis
does numpy sum pairwise, and :func:`_np_in_order` never asks for that). numpy pays per call of
its inner loop, so many short rows are first copied side by side (:func:`_rows`,
:func:`_np_in_order`); the decisions for a shape, strides and dims are made once and cached
(:func:`_plan`); short rows, whose order is one run through their values, are one gather and
one reduce (:func:`_short_order`). ``benchmarks/run.py`` compares it with ``np.sum``.

>>> import numpy as np
>>> x = np.array([1e8, 1, -1e8, 1, 1], dtype=np.float32)  # four-way: 1e8 + 1 + 1 + -1e8 + 1
>>> float(cascade_sum(np, x, None, False)), float(np.sum(x))  # torch.sum gives 1. too
(1.0, 2.0)
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from functools import cache, lru_cache
from typing import Any, NamedTuple

import numpy as np

from .. import _args
from ..backend import c_order, device_of, namespace

GRAIN = 32768  # torch's at::internal::GRAIN_SIZE: below it a reduction runs on one thread
# torch registers no AVX512 sum kernel (its AVX512 slot falls back to AVX2), and its AVX2 and
# plain builds both use 32-byte vectors: 8 float32 or 4 float64 lanes on any x86 CPU
VECTOR_BYTES = 32
_threads: list[int] = []  # set_num_threads' choice; empty: torch's default


def get_num_threads(*args: Any, **kwargs: Any) -> int:
    """The threads torch would split a large sum between: the cores, or fewer if
    ``MKL_NUM_THREADS`` / ``OMP_NUM_THREADS`` ask (torch never takes more than the cores).

    >>> get_num_threads() >= 1
    True
    """
    _args.no_arguments("torch.get_num_threads", args, kwargs)
    return _threads[0] if _threads else _default_threads()


@cache
def _default_threads() -> int:
    """Read once, as torch reads the variables once, when it starts."""
    env = os.environ.get("MKL_NUM_THREADS") or os.environ.get("OMP_NUM_THREADS", "")
    cores = _physical_cores()
    return min(int(env), cores) if env.isdigit() and int(env) > 0 else cores


def set_num_threads(n: int) -> None:
    """Sum as torch does with ``n`` threads (torch.set_num_threads).

    >>> set_num_threads(1); get_num_threads()
    1
    >>> _threads.clear()
    """
    if n <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    _threads[:] = [n]


@cache
def _physical_cores() -> int:
    """Cores, not hyperthreads, as torch counts them for its default (cpuinfo)."""
    try:
        with open("/proc/cpuinfo") as f:
            info = f.read()
    except OSError:
        return os.cpu_count() or 1
    cores = set()
    for block in info.split("\n\n"):
        fields = dict(line.split(":", 1) for line in block.splitlines() if ":" in line)
        fields = {k.strip(): v.strip() for k, v in fields.items()}
        if "processor" in fields:
            cores.add((fields.get("physical id"), fields.get("core id", fields["processor"])))
    return len(cores) or os.cpu_count() or 1


def torch_sum(xp: Any, a: Any, dims: tuple[int, ...] | None = None,
              keepdim: bool = False) -> Any:
    return c_order(_sum(xp, a, dims, keepdim))


def _sum(xp: Any, a: Any, dims: tuple[int, ...] | None, keepdim: bool) -> Any:
    """``xp.sum``, except float32/float64 CPU arrays, summed in torch's order (cascade_sum),
    in C order as torch's reductions allocate their result (numpy follows the input's layout).

    >>> import numpy as np
    >>> float(torch_sum(np, np.array([1e8, 1, -1e8, 1, 1], dtype=np.float32)))
    1.0
    """
    if type(a) is np.ndarray:  # the common case, without the device look-up
        if a.dtype.char in "fd":
            return _owning(cascade_sum(xp, a, dims, keepdim))
        if a.dtype.char == "e":  # torch adds float16 in float32 accumulators, in its order
            return cascade_sum(xp, a.astype(np.float32), dims, keepdim).astype(np.float16)
    elif a.dtype in (xp.float32, xp.float64) and device_of(a).type == "cpu":
        return _owning(cascade_sum(xp, a, dims, keepdim))
    return xp.sum(a, axis=dims, keepdims=keepdim)


def _owning(out: Any) -> Any:
    """``out`` as an array that owns its memory, as ``np.sum``'s result does: the engine keeps
    a gradient without a copy only if it is no view (the cascade's last step often reshapes
    a temporary; copying the small result is cheaper than the leaf's copy later)."""
    return out.copy() if getattr(out, "base", None) is not None else out


# ---------------------------------------------------------------- orders of addition
# Each takes a (batch, n, lanes) array and sums its axis 1: (batch, lanes). With numpy, they
# hand numpy whole levels at once: ``np.add.reduce`` over an axis that is not the innermost
# of numpy's loop adds one row of lanes after another, exactly as torch's accumulators do
# (only a reduce along its innermost axis is pairwise, and that one is never asked for).

def _in_order(xp: Any, x: Any) -> Any:
    """Axis -2 of ``x`` (..., n, lanes) summed one value after another: (..., lanes).

    Unlike torch it may start from the first value instead of 0. That changes only the sign
    of a zero (-0.0 + -0.0 is -0.0, 0.0 + -0.0 is 0.0); cascade_sum's last ``+ 0`` puts it right.
    """
    n = x.shape[-2]
    if n == 1:
        return x[..., 0, :]
    if xp is np and n > 2:
        return _np_in_order(x)
    return _one_by_one(x)


def _one_by_one(x: Any) -> Any:
    """_in_order as a loop of adds, one row of lanes after another (in place after the first)."""
    acc = x[..., 0, :] + x[..., 1, :]
    for j in range(2, x.shape[-2]):
        acc += x[..., j, :]
    return acc


def _np_in_order(x: np.ndarray) -> np.ndarray:
    """_in_order in as few numpy loops as can be: numpy calls its inner loop once per row of
    lanes, and a row of 32 float32 lanes costs it about what 100 more values would."""
    n, lanes = x.shape[-2:]
    rows = x.size // (n * lanes)
    # numpy's reduce adds in order unless the values' axis is its innermost (then pairwise)
    lanes_inside = lanes > 1 and abs(x.strides[-1]) < abs(x.strides[-2])
    if lanes_inside and (rows == 1 or rows * n < 256 or lanes >= 256):
        return np.add.reduce(x, axis=-2)
    if rows == 1 or rows * n < 64:  # numpy's accumulate, never pairwise; for few values
        if rows == 1 and lanes == 1:
            return x.ravel().cumsum()[-1:].reshape((*x.shape[:-2], 1))
        return np.cumsum(x, axis=-2)[..., -1, :]
    if x.size > 2**17:  # too large for the caches' liking of the copy below
        return _one_by_one(x)
    # the values' rows as the outermost axis of a copy: one long loop per add
    axes = (x.ndim - 2, *range(x.ndim - 2), x.ndim - 1)
    return np.add.reduce(np.ascontiguousarray(x.transpose(axes)), axis=0)


def _cascade(xp: Any, x: Any) -> Any:
    """torch's four-level cascade down axis 1."""
    batch, n, lanes = x.shape
    step = 2 ** max(4, _ceil_log2(n) // 4)
    if n <= step:  # one level: level 0's values, or one chunk of them carried to level 1
        return _in_order(xp, x)
    total = None
    for _ in range(3):
        whole = n // step * step
        if whole < n:  # the values left at this level: its accumulator at the end
            tail = _in_order(xp, x[:, whole:, :])
            total = tail if total is None else total + tail
        if whole == 0:  # the levels above are empty: adding their zeros changes nothing
            return total
        n = whole // step
        x = _in_order(xp, _reshape(xp, x[:, :whole, :], (batch, n, step, lanes)))
    top = _in_order(xp, x)
    return top if total is None else total + top


def _reshape(xp: Any, x: Any, shape: tuple) -> Any:
    """``xp.reshape``; for numpy its method, which costs a fifth of its function."""
    return x.reshape(shape) if xp is np else xp.reshape(x, shape)


def _permute(xp: Any, x: Any, axes: tuple) -> Any:
    return x.transpose(axes) if xp is np else xp.permute_dims(x, axes)


def _swap(xp: Any, x: Any) -> Any:
    """The last two axes swapped (xp.matrix_transpose)."""
    return x.swapaxes(-1, -2) if xp is np else xp.matrix_transpose(x)


def _ceil_log2(n: int) -> int:
    return 1 if n <= 2 else (n - 1).bit_length()


def _four_way(xp: Any, x: Any) -> Any:
    """Four interleaved cascades (positions mod 4), the leftovers into the first."""
    batch, n, lanes = x.shape
    fours = n // 4
    if fours == 0:  # only leftovers: 0 + x[0] + x[1] + x[2], plus three empty cascades
        return _in_order(xp, x)
    partial = _cascade(xp, _reshape(xp, x[:, :4 * fours, :], (batch, fours, 4 * lanes)))
    partial = _reshape(xp, partial, (batch, 4, lanes))
    if 4 * fours == n:  # no leftovers: first + second + third + fourth
        return _in_order(xp, partial)
    first = partial[:, 0, :]
    for j in range(4 * fours, n):
        first = first + x[:, j, :]
    return ((first + partial[:, 1, :]) + partial[:, 2, :]) + partial[:, 3, :]


def _rows(xp: Any, x: Any, lanes: int | None) -> Any:
    """Sums of the rows of a (batch, n) array; ``lanes``: read as vectors of that many."""
    batch, n = x.shape
    order = _short_order(n, lanes)
    if order is not None:
        return _short_rows(xp, x, order)
    if xp is np and batch >= 8 and x.size <= 2**17:
        # many rows: a transposing copy makes them columns, side by side in memory, and each
        # add below one long numpy loop instead of one per row. Every column sums on its
        # own, so the order of additions in each is the same
        x = np.ascontiguousarray(x.T).reshape(1, n, batch)
    else:
        x = _reshape(xp, x, (batch, n, 1))
    if lanes is None or n < lanes:
        return _reshape(xp, _four_way(xp, x), (batch,))
    whole = n // lanes * lanes
    per_lane = _four_way(xp, _reshape(xp, x[:, :whole, :], (x.shape[0], whole // lanes, -1)))
    rest = _reshape(xp, per_lane, (x.shape[0], lanes, -1))  # (…, lane, column)
    if whole < n:  # 0 + the leftover values + lane 0 + ... + lane W-1
        rest = xp.concat([x[:, whole:, :], rest], axis=1)
    return _reshape(xp, _in_order(xp, rest), (batch,))


@cache
def _short_order(n: int, lanes: int | None) -> tuple[int, ...] | None:
    """For short rows, the order above is a single run through the row's values, in this order
    (None for longer rows):

    * no vectors and fewer than 8 values: the four-way sum of one row of 4, the leftovers
      into the first, ``x0 + x4 + x5 + x6 + x1 + x2 + x3``;
    * one vector and leftovers: ``0 + the leftover values + lane 0 + ... + lane W-1``.
    """
    if lanes is None or n < lanes:
        return (0, *range(4, n), 1, 2, 3) if 4 <= n < 8 else tuple(range(n)) if n < 4 else None
    return (*range(lanes, n), *range(lanes)) if n < 2 * lanes else None


def _short_rows(xp: Any, x: Any, order: tuple[int, ...]) -> Any:
    """Each row of (batch, n) summed one value after another, in ``order``: (batch,)."""
    if xp is np:
        columns = x.T.take(_index(order), axis=0)  # (n, batch): a row per value, C order
        if x.shape[0] > 1:  # down the rows in order, the batch numpy's inner loop
            return np.add.reduce(columns, axis=0)
        return columns.ravel().cumsum()[-1:]
    columns = xp.take(xp.matrix_transpose(x), xp.asarray(order), axis=0)
    return _in_order(xp, _reshape(xp, columns, (1, len(order), x.shape[0])))[0, :]


@cache
def _index(order: tuple[int, ...]) -> Any:
    return np.array(order, dtype=np.intp)


def _columns(xp: Any, x: Any, spans: tuple[tuple[int, int, bool], ...]) -> Any:
    """Sums down axis 1 of (batch, n, columns): ``spans`` of columns summed by a cascade each
    (whole blocks) or by a four-way sum (the columns after the last whole block)."""
    parts = [(_cascade if blocked else _four_way)(xp, x[:, :, begin:end])
             for begin, end, blocked in spans]
    return parts[0] if len(parts) == 1 else xp.concat(parts, axis=1)


# ---------------------------------------------------------------- torch's iteration plan

def _strides(a: Any) -> tuple[int, ...]:
    """Strides in bytes; C order for arrays that do not say (the array API's)."""
    strides = getattr(a, "strides", None)
    if strides is not None:
        return strides
    out, step = [], 4 if a.dtype == namespace(a).float32 else 8
    for n in reversed(a.shape):
        out.append(step)
        step *= n
    return tuple(reversed(out))


def _groups(shape: tuple, strides: tuple, dims: set[int]) -> list[list[int]]:
    """torch's iteration order: groups of original dims, fastest group first.

    Reduced dims come first, sorted by the input's strides; then the kept dims, sorted by the
    output's (torch compares the output's strides first; they are C order, the last dim
    fastest). Neighbours whose memory (input's and output's) is contiguous merge into one
    group. Size-1 dims are left out.
    """
    kept = [d for d in range(len(shape)) if d not in dims]
    out_stride = {d: math.prod(shape[e] for e in kept if e > d) for d in kept}
    order = sorted((d for d in range(len(shape)) if shape[d] != 1),
                   key=lambda d: (d not in dims, strides[d] if d in dims else -d, shape[d]))
    groups: list[list[int]] = []
    for d in order:
        if groups and _merges(groups[-1], d, shape, strides, dims, out_stride):
            groups[-1].append(d)
        else:
            groups.append([d])
    return groups


def _merges(group: list[int], d: int, shape: tuple, strides: tuple, dims: set[int],
            out_stride: dict) -> bool:
    size = math.prod(shape[e] for e in group)
    first = group[0]
    if (first in dims) != (d in dims) or strides[d] != size * strides[first]:
        return False
    return d in dims or out_stride[d] == size * out_stride[first]


class _Plan(NamedTuple):
    """What cascade_sum does with an array of one shape, strides and dims: worked out once."""
    out_shape: tuple
    copy: bool  # broadcast or flipped: summed as a contiguous copy
    order: tuple | None  # permutation putting the groups' dims slowest first (None: as is)
    grouped: tuple  # the shape with one axis per group
    how: Callable[..., Any] | None  # the summation, called as how(xp, x, *args); None: no sum
    args: tuple
    kept: tuple  # the sums' shape, kept dims slowest first
    back: tuple | None  # the permutation back to the dims' order (None: as is)


@lru_cache(maxsize=1024)
def _plan(shape: tuple, byte_strides: tuple, dims: tuple | None, keepdim: bool, itemsize: int,
          threads: int) -> _Plan:
    ndim = len(shape)
    strides = tuple(s // itemsize for s in byte_strides)
    reduced = set(range(ndim)) if dims is None else {d % ndim for d in dims}
    out_shape = tuple(1 if d in reduced else n for d, n in enumerate(shape)
                      if keepdim or d not in reduced)
    copy = any(s <= 0 for s, n in zip(strides, shape, strict=True) if n > 1)
    groups = _groups(shape, strides, reduced)
    kept_groups = [g for g in groups if g[0] not in reduced]
    if copy or math.prod(shape) == 0 or len(kept_groups) == len(groups):
        return _Plan(out_shape, copy, None, (), None, (), (), None)
    outer_first = [d for g in reversed(groups) for d in reversed(g)]
    order = tuple(outer_first + [d for d in range(ndim) if shape[d] == 1])
    grouped = tuple(math.prod(shape[d] for d in g) for g in reversed(groups))
    how, args = _summation(grouped, groups, strides, reduced, itemsize, threads)
    kept_order = [d for g in reversed(kept_groups) for d in reversed(g)]
    back = tuple(sorted(range(len(kept_order)), key=lambda i: kept_order[i]))
    return _Plan(out_shape, copy, None if order == tuple(range(ndim)) else order, grouped,
                 how, args, tuple(shape[d] for d in kept_order),
                 None if back == tuple(range(len(back))) else back)


def cascade_sum(xp: Any, a: Any, dims: tuple[int, ...] | None, keepdim: bool) -> Any:
    """``a`` summed over ``dims`` (all when None) in torch's CPU order, for float arrays.

    >>> import numpy as np
    >>> cascade_sum(np, np.ones((2, 3), dtype=np.float32), (1,), True)
    array([[3.],
           [3.]], dtype=float32)
    """
    if type(a) is np.ndarray:
        itemsize, strides = a.itemsize, a.strides
    else:
        itemsize, strides = (4 if a.dtype == xp.float32 else 8), _strides(a)
    plan = _plan(a.shape, strides, None if dims is None else tuple(dims), keepdim, itemsize,
                 _threads[0] if _threads else _default_threads())
    if math.prod(a.shape) == 0:  # before the copy: an empty array's strides stay odd
        return xp.zeros(plan.out_shape, dtype=a.dtype)
    if plan.copy:
        return cascade_sum(xp, xp.asarray(a, copy=True), dims, keepdim)
    if plan.how is None:  # nothing of size > 1 to reduce: the values (a fresh array), plus 0
        return _reshape(xp, a + 0, plan.out_shape)
    x = a if plan.order is None else _permute(xp, a, plan.order)
    sums = plan.how(xp, _reshape(xp, x, plan.grouped), *plan.args)
    if plan.back is not None:
        sums = _permute(xp, _reshape(xp, sums, plan.kept), plan.back)
    # + 0: torch's sums start from 0.0, which turns a sum of -0.0s into 0.0 (see _in_order)
    sums = sums + 0
    return sums if sums.shape == plan.out_shape else _reshape(xp, sums, plan.out_shape)


def _summation(grouped: tuple, groups: list[list[int]], strides: tuple, reduced: set[int],
               itemsize: int, threads: int) -> tuple[Callable[..., Any], tuple]:
    """How the grouped array (the groups as axes, slowest first) is summed over its reduced
    groups: a function and its arguments."""
    lanes = VECTOR_BYTES // itemsize
    inner = groups[0]
    row_lanes = lanes if strides[inner[0]] == 1 else None
    n_reduced = sum(g[0] in reduced for g in groups)
    if n_reduced == len(groups) == 1 and grouped[0] >= GRAIN and threads > 1:
        return _split_whole, (_thread_ranges(grouped[0], GRAIN, threads), lanes, threads)
    if len(groups) == 1:  # everything, in one run
        return _sum_rows, (grouped[0], row_lanes)
    if n_reduced > 1 or n_reduced == len(groups):
        return _rows_of_rows, (math.prod(grouped[:len(groups) - n_reduced]), row_lanes)
    kept_sizes = list(reversed(grouped[:-1]))  # fastest first
    columns, n = grouped[-2], grouped[-1]
    stride_n, stride_c = strides[inner[0]], strides[groups[1][0]]
    vector_rows = stride_n == 1 and n >= lanes
    vector_columns = stride_c == 1 and columns >= lanes
    if vector_rows or (not vector_columns and stride_n < stride_c):
        return _sum_rows, (n, lanes if stride_n == 1 else None)
    spans = []
    for begin, end in _column_ranges(kept_sizes, n, stride_c == 1, itemsize, threads):
        block = 4 * lanes if stride_c == 1 and end - begin >= lanes else 4
        whole = begin + (end - begin) // block * block
        spans += [(begin, whole, True), (whole, end, False)]
    return _sum_columns, (columns, n, _merged(spans))


def _merged(spans: list[tuple[int, int, bool]]) -> tuple[tuple[int, int, bool], ...]:
    """Empty spans dropped, neighbours of one kind joined: fewer, longer array calls."""
    out: list[tuple[int, int, bool]] = []
    for begin, end, blocked in spans:
        if begin == end:
            continue
        if out and out[-1][2] == blocked and out[-1][1] == begin:
            out[-1] = (out[-1][0], end, blocked)
        else:
            out.append((begin, end, blocked))
    return tuple(out)


def _rows_of_rows(xp: Any, x: Any, kept: int, row_lanes: int | None) -> Any:
    """Several reduced groups: the innermost summed per row, the rows' sums one by one."""
    rows = _rows(xp, _reshape(xp, x, (-1, x.shape[-1])), row_lanes)
    return _in_order(xp, _reshape(xp, rows, (kept, -1, 1)))[:, 0]


def _sum_rows(xp: Any, x: Any, n: int, lanes: int | None) -> Any:
    """One reduced group, the fastest: each row of it summed on its own (cascade_sum gives
    the sums their shape)."""
    return _rows(xp, _reshape(xp, x, (-1, n)), lanes)


def _sum_columns(xp: Any, x: Any, columns: int, n: int, spans: tuple) -> Any:
    """One reduced group, with a faster kept one: summed down the columns, as torch does."""
    return _columns(xp, _swap(xp, _reshape(xp, x, (-1, columns, n))), spans)


def _column_ranges(kept_sizes: list[int], n: int, contiguous: bool, itemsize: int,
                   threads: int) -> list[tuple[int, int]]:
    """The columns each thread sums: all of them unless torch splits exactly this dim."""
    columns = kept_sizes[0]
    if math.prod(kept_sizes) * n < GRAIN or threads == 1 or _split_dim(kept_sizes,
                                                                          threads) != 0:
        return [(0, columns)]
    multiple = 128 // itemsize if contiguous else 1
    ranges = []
    for begin, end in _thread_ranges(columns, 1, threads):
        begin -= begin % multiple
        end -= end % multiple if end != columns else 0
        if begin != end:
            ranges.append((begin, end))
    return ranges


def _split_dim(kept_sizes: list[int], threads: int) -> int:
    """Which kept group torch splits between threads: the slowest one with a row per thread,
    else the largest."""
    best = len(kept_sizes) - 1
    for i in reversed(range(len(kept_sizes))):
        if kept_sizes[i] >= threads:
            return i
        if kept_sizes[i] > kept_sizes[best]:
            best = i
    return best


def _thread_ranges(n: int, grain: int, threads: int) -> tuple[tuple[int, int], ...]:
    """at::parallel_for's split of ``range(n)``: equal chunks, one per thread used (none for
    nothing)."""
    if n == 0:
        return ()
    used = min(threads, -(-n // grain))
    chunk = -(-n // used)
    return tuple((begin, min(n, begin + chunk)) for begin in range(0, n, chunk))


def _split_whole(xp: Any, x: Any, ranges: tuple, lanes: int, threads: int) -> Any:
    """A sum of everything on several threads: one sum per thread's range, then their sum."""
    size = ranges[0][1]
    equal = [r for r in ranges if r[1] - r[0] == size]  # all but maybe the last: one batch
    parts = [_rows(xp, _reshape(xp, x[:len(equal) * size], (len(equal), size)), lanes)]
    parts += [_rows(xp, _reshape(xp, x[begin:end], (1, end - begin)), lanes)
              for begin, end in ranges[len(equal):]]
    if len(ranges) < threads:  # the threads left idle add their zeros
        parts.append(xp.zeros((threads - len(ranges),), dtype=x.dtype))
    buffer = _reshape(xp, parts[0] if len(parts) == 1 else xp.concat(parts), (1, threads))
    return _rows(xp, buffer, lanes)
