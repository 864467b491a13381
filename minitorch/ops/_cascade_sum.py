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

>>> import numpy as np
>>> x = np.array([1e8, 1, -1e8, 1, 1], dtype=np.float32)  # four-way: 1e8 + 1 + 1 + -1e8 + 1
>>> float(cascade_sum(np, x, None, False)), float(np.sum(x))  # torch.sum gives 1. too
(1.0, 2.0)
"""

from __future__ import annotations

import math
import os
from functools import cache
from typing import Any

from ..backend import device_of

GRAIN = 32768  # torch's at::internal::GRAIN_SIZE: below it a reduction runs on one thread
# torch registers no AVX512 sum kernel (its AVX512 slot falls back to AVX2), and its AVX2 and
# plain builds both use 32-byte vectors: 8 float32 or 4 float64 lanes on any x86 CPU
VECTOR_BYTES = 32
_threads: list[int] = []  # set_num_threads' choice; empty: torch's default


def get_num_threads() -> int:
    """The threads torch would split a large sum between: the cores, or fewer if
    ``MKL_NUM_THREADS`` / ``OMP_NUM_THREADS`` ask (torch never takes more than the cores).

    >>> get_num_threads() >= 1
    True
    """
    if _threads:
        return _threads[0]
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
    """``xp.sum``, except float32/float64 CPU arrays, summed in torch's order (cascade_sum).

    >>> import numpy as np
    >>> float(torch_sum(np, np.array([1e8, 1, -1e8, 1, 1], dtype=np.float32)))
    1.0
    """
    if a.dtype in (xp.float32, xp.float64) and device_of(a).type == "cpu":
        return cascade_sum(xp, a, dims, keepdim)
    return xp.sum(a, axis=dims, keepdims=keepdim)


# ---------------------------------------------------------------- orders of addition
# Each takes a (batch, n, lanes) array and sums its axis 1: (batch, lanes).

def _one_by_one(xp: Any, x: Any) -> Any:
    """Axis -2 summed from 0, one value after another (the loop runs over positions)."""
    acc = xp.zeros(x.shape[:-2] + x.shape[-1:], dtype=x.dtype)
    for j in range(x.shape[-2]):
        acc = acc + x[..., j, :]
    return acc


def _cascade(xp: Any, x: Any) -> Any:
    """torch's four-level cascade down axis 1."""
    batch, n, lanes = x.shape
    step = 2 ** max(4, _ceil_log2(n) // 4)
    total = None
    for _ in range(3):
        whole = x.shape[1] // step * step
        level = _one_by_one(xp, x[:, whole:, :])
        total = level if total is None else total + level
        if whole == 0:  # the levels above are empty: adding their zeros changes nothing
            return total
        x = _one_by_one(xp, xp.reshape(x[:, :whole, :], (batch, whole // step, step, lanes)))
    return total + _one_by_one(xp, x)


def _ceil_log2(n: int) -> int:
    return 1 if n <= 2 else (n - 1).bit_length()


def _four_way(xp: Any, x: Any) -> Any:
    """Four interleaved cascades (positions mod 4), the leftovers into the first."""
    batch, n, lanes = x.shape
    fours = n // 4
    partial = _cascade(xp, xp.reshape(x[:, :4 * fours, :], (batch, fours, 4 * lanes)))
    partial = xp.reshape(partial, (batch, 4, lanes))
    first = partial[:, 0, :]
    for j in range(4 * fours, n):
        first = first + x[:, j, :]
    return ((first + partial[:, 1, :]) + partial[:, 2, :]) + partial[:, 3, :]


def _rows(xp: Any, x: Any, lanes: int | None) -> Any:
    """Sums of the rows of a (batch, n) array; ``lanes``: read as vectors of that many."""
    batch, n = x.shape
    if lanes is None or n < lanes:
        return _four_way(xp, xp.reshape(x, (batch, n, 1)))[:, 0]
    whole = n // lanes * lanes
    per_lane = _four_way(xp, xp.reshape(x[:, :whole], (batch, whole // lanes, lanes)))
    rest = xp.concat([x[:, whole:], per_lane], axis=1)
    return _one_by_one(xp, xp.reshape(rest, (batch, rest.shape[1], 1)))[:, 0]


def _columns(xp: Any, x: Any, block: int) -> Any:
    """Sums down axis 1 of (batch, n, columns): cascades for whole blocks, four-way after."""
    whole = x.shape[2] // block * block
    return xp.concat([_cascade(xp, x[:, :, :whole]), _four_way(xp, x[:, :, whole:])], axis=1)


# ---------------------------------------------------------------- torch's iteration plan

def _strides(a: Any) -> tuple[int, ...]:
    """Strides in elements; C order for arrays that do not say (the array API's)."""
    strides = getattr(a, "strides", None)
    if strides is not None:
        return tuple(s // a.itemsize for s in strides)
    out, step = [], 1
    for n in reversed(a.shape):
        out.append(step)
        step *= n
    return tuple(reversed(out))


def _plan(shape: tuple, strides: tuple, dims: set[int]) -> list[list[int]]:
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


def cascade_sum(xp: Any, a: Any, dims: tuple[int, ...] | None, keepdim: bool) -> Any:
    """``a`` summed over ``dims`` (all when None) in torch's CPU order, for float arrays.

    >>> import numpy as np
    >>> cascade_sum(np, np.ones((2, 3), dtype=np.float32), (1,), True)
    array([[3.],
           [3.]], dtype=float32)
    """
    ndim = len(a.shape)
    reduced = set(range(ndim)) if dims is None else {d % ndim for d in dims}
    out_shape = tuple(1 if d in reduced else n for d, n in enumerate(a.shape)
                      if keepdim or d not in reduced)
    if math.prod(a.shape) == 0:
        return xp.zeros(out_shape, dtype=a.dtype)
    if any(s <= 0 for s, n in zip(_strides(a), a.shape, strict=True) if n > 1):
        a = xp.asarray(a, copy=True)  # broadcast or flipped: summed as a contiguous copy
    groups = _plan(a.shape, _strides(a), reduced)
    kept_groups = [g for g in groups if g[0] not in reduced]
    if len(kept_groups) == len(groups):  # nothing of size > 1 to reduce: the values, plus 0
        return xp.reshape(a + 0, out_shape)
    outer_first = [d for g in reversed(groups) for d in reversed(g)]
    x = xp.permute_dims(xp.reshape(a, _without_ones(a.shape)), _ranks(a.shape, outer_first))
    x = xp.reshape(x, tuple(math.prod(a.shape[d] for d in g) for g in reversed(groups)))
    sums = _sum_groups(xp, x, groups, _strides(a), reduced, 4 if a.dtype == xp.float32 else 8)
    kept_order = [d for g in reversed(kept_groups) for d in reversed(g)]
    sums = xp.reshape(sums, tuple(a.shape[d] for d in kept_order))
    sums = xp.permute_dims(sums, tuple(sorted(range(len(kept_order)),
                                              key=lambda i: kept_order[i])))
    return xp.reshape(sums, out_shape)


def _without_ones(shape: tuple) -> tuple:
    return tuple(n for n in shape if n != 1)


def _ranks(shape: tuple, dims: list[int]) -> tuple[int, ...]:
    """Positions of ``dims`` once the size-1 dims are gone."""
    position = {d: i for i, d in enumerate(d for d in range(len(shape)) if shape[d] != 1)}
    return tuple(position[d] for d in dims)


def _sum_groups(xp: Any, x: Any, groups: list[list[int]], strides: tuple, reduced: set[int],
                itemsize: int) -> Any:
    """The sums of ``x`` (the groups as axes, slowest first) over its reduced groups."""
    lanes = VECTOR_BYTES // itemsize
    inner = groups[0]
    contiguous = strides[inner[0]] == 1
    row_lanes = lanes if contiguous else None
    n_reduced = sum(g[0] in reduced for g in groups)
    kept = math.prod(x.shape[:len(groups) - n_reduced])
    if n_reduced == len(groups) == 1 and x.shape[0] >= GRAIN and get_num_threads() > 1:
        return _split_whole(xp, x, lanes)
    if n_reduced > 1 or n_reduced == len(groups):
        rows = _rows(xp, xp.reshape(x, (-1, x.shape[-1])), row_lanes)
        return _one_by_one(xp, xp.reshape(rows, (kept, -1, 1)))[:, 0]
    return _reduce_one(xp, x, (strides[inner[0]], strides[groups[1][0]]), lanes, itemsize)


def _reduce_one(xp: Any, x: Any, strides: tuple, lanes: int, itemsize: int) -> Any:
    """One reduced group (the fastest) and kept ones: rows or columns, as torch picks.

    ``strides``: of the reduced group and of the fastest kept one.
    """
    kept_sizes = list(reversed(x.shape[:-1]))  # fastest first
    columns, n = x.shape[-2], x.shape[-1]
    x = xp.reshape(x, (-1, columns, n))
    stride_n, stride_c = strides
    vector_rows = stride_n == 1 and n >= lanes
    vector_columns = stride_c == 1 and columns >= lanes
    if vector_rows or (not vector_columns and stride_n < stride_c):
        return xp.reshape(_rows(xp, xp.reshape(x, (-1, n)), lanes if stride_n == 1 else None),
                          (-1, columns))
    x = xp.matrix_transpose(x)
    parts = []
    for begin, end in _column_ranges(kept_sizes, n, stride_c == 1, itemsize):
        vectors = stride_c == 1 and end - begin >= lanes
        parts.append(_columns(xp, x[:, :, begin:end], 4 * lanes if vectors else 4))
    return xp.concat(parts, axis=1)


def _column_ranges(kept_sizes: list[int], n: int, contiguous: bool,
                   itemsize: int) -> list[tuple[int, int]]:
    """The columns each thread sums: all of them unless torch splits exactly this dim."""
    columns = kept_sizes[0]
    threads = get_num_threads()
    if math.prod(kept_sizes) * n < GRAIN or threads == 1 or _split_dim(kept_sizes) != 0:
        return [(0, columns)]
    multiple = 128 // itemsize if contiguous else 1
    ranges = []
    for begin, end in _thread_ranges(columns, 1, threads):
        begin -= begin % multiple
        end -= end % multiple if end != columns else 0
        if begin != end:
            ranges.append((begin, end))
    return ranges


def _split_dim(kept_sizes: list[int]) -> int:
    """Which kept group torch splits between threads: the slowest one with a row per thread,
    else the largest."""
    best = len(kept_sizes) - 1
    for i in reversed(range(len(kept_sizes))):
        if kept_sizes[i] >= get_num_threads():
            return i
        if kept_sizes[i] > kept_sizes[best]:
            best = i
    return best


def _thread_ranges(n: int, grain: int, threads: int) -> list[tuple[int, int]]:
    """at::parallel_for's split of ``range(n)``: equal chunks, one per thread used."""
    used = min(threads, -(-n // grain))
    chunk = -(-n // used)
    return [(begin, min(n, begin + chunk)) for begin in range(0, n, chunk)]


def _split_whole(xp: Any, x: Any, lanes: int) -> Any:
    """A sum of everything on several threads: one sum per thread's range, then their sum."""
    threads = get_num_threads()
    parts = [_rows(xp, xp.reshape(x[begin:end], (1, end - begin)), lanes)
             for begin, end in _thread_ranges(x.shape[0], GRAIN, threads)]
    parts += [xp.zeros((1,), dtype=x.dtype)] * (threads - len(parts))
    buffer = xp.reshape(xp.concat(parts), (1, threads))
    return _rows(xp, buffer, lanes)
