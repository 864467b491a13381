"""Intel MKL, the library behind torch's CPU kernels, called the way torch calls it.

torch's x86-64 build hands matrix products to MKL (``gemm``, ``gemv``, ``dot``) and the
element-wise ``exp``, ``log``, ``sqrt``, ``sin``, ``cos`` and ``tanh`` to MKL's vector maths.
numpy's results (OpenBLAS, numpy's own loops) differ from MKL's in the last bits, and in a
training loop those bits grow until a printed loss differs. Calling the same MKL (2024.2, the
version torch 2.13 links) with the same arguments (the same transposes, leading dimensions and
thread count) gives torch's bits exactly: that is all this module does.

MKL is optional: ``pip install "minitorch[mkl]"`` (x86-64 Linux and Windows). Without it, or
with ``MINITORCH_MKL=0`` in the environment, every function here answers ``None`` and the ops
use numpy, whose results are within rounding of torch's.

>>> import numpy as np
>>> out = gemm_product(np.ones((2, 3), np.float32), np.ones((3, 4), np.float32))
>>> out is None or out.tolist() == [[3.0] * 4] * 2
True
"""

from __future__ import annotations

import ctypes
import importlib.metadata
import math
import os
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np

_BLAS_PREFIX = {np.dtype(np.float32): "s", np.dtype(np.float64): "d"}
_C_TYPE = {"s": ctypes.c_float, "d": ctypes.c_double}
# numpy's function → MKL's vector-maths name, for the functions torch's CPU kernels give MKL
# (and, by name, the ones numpy lacks: ``erf``, ``erfc``, ``erfinv``; and ``lgamma``, whose
# torch kernel is SLEEF's, not MKL's, but MKL's bits are torch's for 99.5% of doubles, against
# about 30% for a Lanczos series in float64)
VECTOR_MATHS = {np.exp: "Exp", np.log: "Ln", np.sqrt: "Sqrt", np.sin: "Sin", np.cos: "Cos",
                np.tanh: "Tanh", "erf": "Erf", "erfc": "Erfc", "erfinv": "ErfInv",
                "lgamma": "LGamma"}


@cache
def library() -> ctypes.CDLL | None:
    """MKL's single dynamic library (``mkl_rt``), or None when it is not installed.

    >>> library() is None or hasattr(library(), "sgemm")
    True
    """
    if os.environ.get("MINITORCH_MKL", "1") == "0":
        return None
    try:
        files = importlib.metadata.distribution("mkl").files or []
    except importlib.metadata.PackageNotFoundError:
        return None
    for file in files:
        if file.name.startswith(("libmkl_rt.so", "mkl_rt.")) and not file.name.endswith(".lib"):
            path = file.locate()
            if hasattr(os, "add_dll_directory"):  # Windows finds MKL's other DLLs beside it
                os.add_dll_directory(str(path.parent))
            try:
                return ctypes.CDLL(str(path))
            except OSError:
                return None
    return None


def _kernel(array: Any) -> str | None:
    """``"s"`` or ``"d"``: the BLAS prefix for a float32/float64 numpy array, if MKL is here."""
    if type(array) is not np.ndarray or library() is None:
        return None
    return _BLAS_PREFIX.get(array.dtype)


_threads_set: list[int] = []


@cache
def _torch_threads() -> Any:
    """``get_num_threads`` of ``ops._cascade_sum``, imported once, at the first product (that
    package imports the backend, which imports this module, so not at the top)."""
    from .ops._cascade_sum import get_num_threads

    return get_num_threads


def _use_threads() -> None:
    """Give MKL torch's thread count: a product of a long inner dimension is split between
    the threads, and where it is split changes the sum's rounding."""
    n = _torch_threads()()
    if _threads_set != [n]:
        library().MKL_Set_Num_Threads(ctypes.c_int(n))
        _threads_set[:] = [n]


def _strides(array: np.ndarray) -> tuple[int, ...]:
    return tuple(s // array.itemsize for s in array.strides)


_ALIGNMENT = 64  # torch's CPU allocator's; numpy's is 16


def _empty(shape: tuple, dtype: Any) -> np.ndarray:
    """An uninitialised C-contiguous array at an address aligned as torch aligns its tensors."""
    dtype = np.dtype(dtype)
    size = math.prod(shape) * dtype.itemsize  # math's, not numpy's: no array made of the shape
    raw = np.empty(size + _ALIGNMENT, np.uint8)
    start = -raw.ctypes.data % _ALIGNMENT
    return raw[start:start + size].view(dtype).reshape(shape)


def _torch_offset(array: np.ndarray, address: int) -> int:
    """Where torch's twin of ``array`` would start past a 64-byte boundary: torch allocates
    every tensor at such a boundary and a view starts where its storage offset puts it, so
    this is the view's distance in bytes from the start of the numpy array owning its memory,
    modulo 64 (0 for an array of its own, or one viewing memory of another dtype, which
    ``torch.tensor`` would have copied). ``address`` is the view's own (``.ctypes.data``, which
    costs about a microsecond a call: read once per array)."""
    root = array
    while isinstance(root.base, np.ndarray):
        root = root.base
    if root is array or root.dtype != array.dtype:
        return 0
    return (address - root.ctypes.data) % _ALIGNMENT


def _aligned(array: np.ndarray) -> np.ndarray:
    """``array``, or a copy of it with the same strides at the address torch's twin would
    have modulo 64 bytes (:func:`_torch_offset`): MKL's kernels start their vector loops at
    aligned elements, so where an operand sits in memory changes how its sums are split,
    and so their rounding. A row ``x[i]`` of a matrix keeps its offset from the matrix's
    start, as in torch.

    >>> m = np.ones((3, 5), np.float32)
    >>> _aligned(m[1]).ctypes.data % 64 == 20 and _aligned(m).ctypes.data % 64 == 0
    True
    """
    if array.size == 0:
        return array
    address = array.ctypes.data
    offset = _torch_offset(array, address)
    if address % _ALIGNMENT == offset:
        return array
    extent = [(n - 1) * s for n, s in zip(array.shape, array.strides)]
    before = -sum(e for e in extent if e < 0)  # bytes below the first element (negative strides)
    span = before + sum(e for e in extent if e > 0) + array.itemsize
    raw = np.empty(span + _ALIGNMENT, np.uint8)  # the first element's byte: raw's address
    first = (offset - before - raw.ctypes.data) % _ALIGNMENT + before  # + first ≡ offset
    copy = np.ndarray(array.shape, array.dtype, buffer=raw, offset=first,
                      strides=array.strides)
    copy[...] = array
    return copy


def _ref(value: Any, kind: type = ctypes.c_int) -> Any:
    return ctypes.byref(kind(value))


def _pointer(array: np.ndarray) -> ctypes.c_void_p:
    return ctypes.c_void_p(array.ctypes.data)


def gemm_product(m1: np.ndarray, m2: np.ndarray, bias: np.ndarray | None = None,
                 beta: float = 1.0, alpha: float = 1.0) -> np.ndarray | None:
    """``beta * bias + alpha * (m1 @ m2)`` by MKL's gemm, as torch's ``addmm_impl_cpu_`` calls
    it (``mm`` is ``bias=None``); None when MKL is absent or does not take these arrays.

    torch reads the operands' strides to choose each transpose flag, and copies an operand
    only when neither layout fits; so does this, on numpy's strides, which are torch's for
    the same views.

    >>> r = gemm_product(np.eye(2, dtype=np.float32), np.ones((2, 2), np.float32),
    ...                  bias=np.float32([1, 2]))
    >>> r is None or r.tolist() == [[2.0, 3.0], [2.0, 3.0]]
    True
    """
    kind = _kernel(m1)
    if kind is None or m2.dtype != m1.dtype or (bias is not None and bias.dtype != m1.dtype):
        return None
    rows, cols, inner = m1.shape[0], m2.shape[1], m1.shape[1]
    result = np.empty((rows, cols), m1.dtype)  # gemm packs its operands: any address will do
    if bias is None:
        beta = 0.0
    else:
        result[...] = bias
    if result.size == 0 or inner == 0:
        return None  # torch's early outs: zeros, or beta * bias, which numpy gives as well
    # result is C-contiguous: as a column-major matrix it is resultᵀ = m2ᵀ m1ᵀ (transpose_c),
    # except a single column, whose strides (1, 1) read as column-major already
    transpose_c = cols != 1
    if transpose_c:
        m1, m2 = m2, m1
    m, n = (cols, rows) if transpose_c else (rows, cols)
    a, transpose_a = _operand(m1, transpose_c, m, inner)
    b, transpose_b = _operand(m2, transpose_c, inner, n)
    if m == 1 or n == 1:  # a gemv inside MKL: it reads its operands as gemv does
        a, b = _aligned(a), _aligned(b)
    lda = a.strides[1 if transpose_a == transpose_c else 0] // a.itemsize
    ldb = b.strides[1 if transpose_b == transpose_c else 0] // b.itemsize
    ldc = result.strides[0 if transpose_c else 1] // result.itemsize
    lda, ldb, ldc = _normalize_last_dims(transpose_a, transpose_b, m, n, inner, lda, ldb, ldc)
    fits = (lda >= max(1, inner if transpose_a else m)
            and ldb >= max(1, n if transpose_b else inner) and ldc >= max(1, m))
    if not fits:
        return None  # torch's own kernel, not BLAS, takes these
    _use_threads()
    _cblas_gemm(kind)(_COLUMN_MAJOR, _TRANSPOSE[transpose_a], _TRANSPOSE[transpose_b], m, n,
                      inner, alpha, a.ctypes.data, lda, b.ctypes.data, ldb, beta,
                      result.ctypes.data, ldc)
    return result


_COLUMN_MAJOR, _TRANSPOSE = 102, {False: 111, True: 112}  # CBLAS's enums


@cache
def _cblas_gemm(kind: str) -> Any:
    """MKL's ``cblas_sgemm``/``cblas_dgemm``, its argument types declared once, so that a call
    passes plain ints and floats. It is MKL's C door to the gemm torch calls (``sgemm_``,
    whose every argument is a pointer): the same kernel, the same bits."""
    c_int, c_void_p, scalar = ctypes.c_int, ctypes.c_void_p, _C_TYPE[kind]
    function = getattr(library(), f"cblas_{kind}gemm")
    function.argtypes = [c_int] * 6 + [scalar, c_void_p, c_int, c_void_p, c_int, scalar,
                                       c_void_p, c_int]
    function.restype = None
    return function


def _operand(mat: np.ndarray, transpose_c: bool, rows: int, inner: int) -> tuple[np.ndarray, bool]:
    """One factor and its transpose flag: its own memory when a column-major (flag off) or
    row-major (flag on) reading fits, else a C-contiguous copy, as torch chooses."""
    strides = _strides(mat)
    near, far = (1, 0) if transpose_c else (0, 1)
    if strides[near] == 1 and strides[far] >= max(1, rows):
        return mat, False
    if strides[far] == 1 and strides[near] >= max(1, inner):
        return mat, True
    return np.ascontiguousarray(mat), not transpose_c


def _normalize_last_dims(ta: bool, tb: bool, m: int, n: int, k: int, lda: int, ldb: int,
                         ldc: int) -> tuple[int, int, int]:
    """torch's cpublas fix-up of leading dimensions that a size-1 dimension leaves free."""
    if n == 1:
        ldc = m
    if ta and m == 1:
        lda = k
    elif not ta and k == 1:
        lda = m
    if tb and k == 1:
        ldb = n
    elif not tb and n == 1:
        ldb = k
    return lda, ldb, ldc


def gemm_batch_product(a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """``a @ b`` for batches of matrices (batch, rows, inner) @ (batch, inner, cols) by one
    call of MKL's ``cblas_sgemm_batch``/``dgemm``, as torch's ``baddbmm_with_gemm_`` makes it
    (its bmm above 400 multiply-adds a matrix): the batch is column-major ``bᵀ aᵀ``, a
    transpose flag where a matrix is stored column by column. None when MKL is absent or
    torch would take another kernel (a matrix neither row- nor column-major, or one batch).
    MKL's batched kernels round otherwise than a gemm a matrix does.

    >>> r = gemm_batch_product(np.ones((2, 2, 3), np.float32), np.ones((2, 3, 2), np.float32))
    >>> r is None or r.tolist() == [[[3.0, 3.0]] * 2] * 2
    True
    """
    kind = _kernel(a)
    if kind is None or b.dtype != a.dtype or a.ndim != 3 or a.shape[0] < 2:
        return None
    if not (_row_or_column_major(a) and _row_or_column_major(b)):
        return None
    batch, rows, inner = a.shape
    cols = b.shape[2]
    if rows * cols * inner == 0:
        return None
    a, b = _aligned(a), _aligned(b)
    result = _empty((batch, rows, cols), a.dtype)
    # column-major: resultᵀ (cols x rows) = bᵀ (cols x inner) aᵀ (inner x rows)
    transpose_a, transpose_b = _column_major_items(b), _column_major_items(a)
    m, n, k = cols, rows, inner
    lda = _torch_strides(b)[2 if transpose_a else 1]
    ldb = _torch_strides(a)[2 if transpose_b else 1]
    lda, ldb, ldc = _normalize_last_dims(transpose_a, transpose_b, m, n, k, lda, ldb, cols)
    if not (lda >= max(1, k if transpose_a else m) and ldb >= max(1, n if transpose_b else k)
            and ldc >= max(1, m)):
        return None
    c_type = _C_TYPE[kind]
    pointers = ctypes.c_void_p * batch
    a_ptrs = pointers(*(b.ctypes.data + i * b.strides[0] for i in range(batch)))
    b_ptrs = pointers(*(a.ctypes.data + i * a.strides[0] for i in range(batch)))
    c_ptrs = pointers(*(result.ctypes.data + i * result.strides[0] for i in range(batch)))
    _use_threads()
    getattr(library(), f"cblas_{kind}gemm_batch")(
        ctypes.c_int(102), _ref(112 if transpose_a else 111),  # CblasColMajor, (No)Trans
        _ref(112 if transpose_b else 111), _ref(m), _ref(n), _ref(k),
        _ref(1.0, c_type), a_ptrs, _ref(lda), b_ptrs, _ref(ldb), _ref(0.0, c_type), c_ptrs,
        _ref(ldc), ctypes.c_int(1), _ref(batch))
    return result


def _torch_strides(array: np.ndarray) -> tuple[int, ...]:
    """The array's strides in elements as torch's twin has them: numpy gives a size-1 dim
    of a broadcast (expanded) array stride 0, torch the stride a contiguous tensor has."""
    strides = list(_strides(array))
    for d in reversed(range(array.ndim)):
        if array.shape[d] == 1:
            strides[d] = strides[d + 1] * array.shape[d + 1] if d + 1 < array.ndim else 1
    return tuple(strides)


def _row_or_column_major(batch: np.ndarray) -> bool:
    """Each matrix of a batch is stored row by row or column by column (torch's
    ``batch_items_contiguous_or_transposed``)."""
    (_, rows, cols), (_, s1, s2) = batch.shape, _torch_strides(batch)
    return (s2 == 1 and s1 >= cols) or (s1 == 1 and s2 >= rows)


def _column_major_items(batch: np.ndarray) -> bool:
    (_, rows, _), (_, s1, s2) = batch.shape, _torch_strides(batch)
    return s1 == 1 and s2 >= rows


def gemv_product(mat: np.ndarray, vec: np.ndarray) -> np.ndarray | None:
    """``mat @ vec`` by MKL's gemv, with the flag torch's ``addmv`` chooses from the strides;
    None when MKL is absent or torch would not call BLAS.

    >>> r = gemv_product(np.ones((2, 3), np.float32), np.ones(3, np.float32))
    >>> r is None or r.tolist() == [3.0, 3.0]
    True
    """
    kind = _kernel(mat)
    if kind is None or vec.dtype != mat.dtype or mat.size == 0:
        return None
    mat, vec = _aligned(mat), _aligned(vec)
    (rows, cols), (s0, s1), incx = mat.shape, _strides(mat), _strides(vec)[0]
    if incx <= 0:
        return None  # an expanded vector: torch's own kernel
    if s0 == 1 and (cols == 1 or s1 >= max(1, rows)):
        trans, m, n, lda = b"N", rows, cols, s1
    elif s1 == 1 and (rows == 1 or s0 >= max(1, cols)):
        trans, m, n, lda = b"T", cols, rows, s0
    else:
        mat = np.ascontiguousarray(mat)
        trans, m, n, lda = b"T", cols, rows, cols
    if n == 1:
        lda = m
    result = _empty((rows,), mat.dtype)
    c_type = _C_TYPE[kind]
    _use_threads()
    getattr(library(), kind + "gemv")(
        _ref(trans, ctypes.c_char), _ref(m), _ref(n), _ref(1.0, c_type), _pointer(mat),
        _ref(lda), _pointer(vec), _ref(incx), _ref(0.0, c_type), _pointer(result), _ref(1))
    return result


def dot_product(x: np.ndarray, y: np.ndarray) -> np.ndarray | None:
    """``x · y`` by MKL's dot, as torch's ``dot``; a 0-d array, or None without MKL.

    >>> r = dot_product(np.ones(3, np.float32), np.ones(3, np.float32))
    >>> r is None or float(r) == 3.0
    True
    """
    kind = _kernel(x)
    if kind is None or y.dtype != x.dtype:
        return None
    x, y, n = _aligned(x), _aligned(y), x.shape[0]
    incx, incy = (1, 1) if n == 1 else (_strides(x)[0], _strides(y)[0])
    function = getattr(library(), kind + "dot")
    function.restype = _C_TYPE[kind]
    _use_threads()
    return np.array(function(_ref(n), _pointer(x), _ref(incx), _pointer(y), _ref(incy)),
                    x.dtype)


def vector_maths(fn: Any, array: Any) -> np.ndarray | None:
    """``fn(array)`` by MKL's vector maths (``vsExp``, ``vdLn``, ...) for the functions in
    ``VECTOR_MATHS`` (``fn`` a numpy function or a name: ``"erf"``); None when MKL is absent or
    does not take this array.

    >>> r = vector_maths(np.exp, np.zeros(2, np.float32))
    >>> r is None or r.tolist() == [1.0, 1.0]
    True
    """
    kind = _kernel(array)
    name = VECTOR_MATHS.get(fn)
    if kind is None or name is None:
        return None
    # MKL reads memory in order: a dense array is read as it lies and the result takes its
    # layout (torch's element-wise results keep a transposed input's strides); others are
    # made dense first, in their own dims' order
    flags = array.flags
    source = array if flags.c_contiguous or flags.f_contiguous else array.copy(order="K")
    result = np.empty_like(source)
    if source.size:
        getattr(library(), f"v{kind}{name}")(ctypes.c_int(source.size), _pointer(source),
                                             _pointer(result))
    return result


def vector_maths_or(name: str, fallback: Callable[[Any, Any], Any], xp: Any, array: Any) -> Any:
    """:func:`vector_maths` of the function ``name``, else ``fallback(xp, array)``: the
    float32/float64 kernels torch gives MKL (``erf``, ``erfc``, ``erfinv``) with its bits where
    MKL is installed, numpy's approximation elsewhere (CuPy, float16, no MKL).

    >>> float(vector_maths_or("erfc", lambda xp, a: 1 - a, np, np.zeros(1))[0])
    1.0
    """
    result = vector_maths(name, array)
    return fallback(xp, array) if result is None else result


def _lu_factor(matrix: np.ndarray, kind: str) -> tuple[np.ndarray, np.ndarray, int]:
    """LAPACK's getrf on a column-major copy of one square ``matrix``: (LU, 1-based pivots,
    info), info being the first zero pivot's column (1-based) or 0."""
    n = matrix.shape[-1]
    lu = np.array(matrix, order="F")
    pivots = np.zeros(n, np.int32)
    info = ctypes.c_int(0)
    getattr(library(), kind + "getrf_")(_ref(n), _ref(n), _pointer(lu), _ref(max(n, 1)),
                                        _pointer(pivots), ctypes.byref(info))
    return lu, pivots, info.value


def lu_solve(a: np.ndarray, b: np.ndarray, adjoint: bool = False
             ) -> tuple[np.ndarray, list[int]] | None:
    """``X`` with ``A X = B`` (``Aᵀ X = B`` when ``adjoint``) for each square ``A`` of the
    batch ``a`` (..., n, n) and ``b`` (..., n, k) of the same batch, as torch's
    ``linalg.solve`` (and so ``linalg.inv``, and their backwards) calls MKL: getrf on a
    column-major copy of each ``A``, then getrs (even with a zero pivot, as torch's
    ``solve_ex``), into a column-major result as torch's; with
    the getrf infos (the first zero pivot of each matrix, or 0). None when MKL is absent or
    for other arrays.

    >>> r = lu_solve(np.float32([[2, 0], [0, 4]]), np.float32([[2], [2]]))
    >>> r is None or (r[0].ravel().tolist(), r[1]) == ([1.0, 0.5], [0])
    True
    """
    factored = lu_factor(a)
    if factored is None or type(b) is not np.ndarray or b.dtype != a.dtype:
        return None
    lu, pivots, infos = factored
    solved = lu_factored_solve(lu, pivots, b, adjoint)  # a singular U too, to torch's infs
    return solved, [int(info) for info in infos.reshape(-1)]




def _lapack_kernel(a: np.ndarray, b: Any = None) -> str | None:
    """The LAPACK prefix for the float numpy array ``a`` (and ``b``, when given, a numpy
    array of its dtype), with MKL given torch's thread count; None without MKL or for other
    arrays."""
    kind = _kernel(a)
    if kind is None or (b is not None and (type(b) is not np.ndarray or b.dtype != a.dtype)):
        return None
    _use_threads()
    return kind


def _items(batch: np.ndarray, item_dims: int = 2) -> list[ctypes.c_void_p]:
    """The address of each item (the last ``item_dims`` dims) of a batch stored item after
    item, in order (torch's pointer arithmetic: where a matrix lies modulo 64 bytes changes
    how MKL's vector loops split it)."""
    step = math.prod(batch.shape[-item_dims:]) * batch.itemsize
    start = batch.ctypes.data
    return [ctypes.c_void_p(start + i * step) for i in range(math.prod(batch.shape[:-item_dims]))]


def lu_factored_solve(lu: np.ndarray, pivots: np.ndarray, b: np.ndarray, adjoint: bool
                      ) -> np.ndarray | None:
    """``X`` with ``A X = B`` (``Aᵀ X = B`` when ``adjoint``) from getrf's ``lu`` (..., n, n)
    and ``pivots`` (..., n) and ``b`` (..., n, k), all of one batch, as torch's
    ``linalg.lu_solve`` calls MKL: getrs on column-major copies, into a column-major result.
    None without MKL or for other arrays.

    >>> r = lu_factored_solve(np.float32([[2, 0], [0, 4]]), np.int32([1, 2]),
    ...                       np.float32([[2], [2]]), False)
    >>> r is None or r.ravel().tolist() == [1.0, 0.5]
    True
    """
    kind = _lapack_kernel(lu, b)
    if kind is None:
        return None
    n, k = b.shape[-2:]
    factors, x = _column_major_batch(lu), _column_major_batch(b)
    rows = np.ascontiguousarray(pivots, dtype=np.int32)
    routine, done = getattr(library(), kind + "getrs_"), ctypes.c_int(0)
    for factor, pivot, column in zip(_items(factors), _items(rows, 1), _items(x)) if k else ():
        routine(ctypes.c_char_p(b"T" if adjoint else b"N"), _ref(n), _ref(k), factor,
                _ref(max(1, n)), pivot, column, _ref(max(1, n)), ctypes.byref(done))
    return x


def lu_factor(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """``LU``, ``pivots`` and ``info`` of each matrix of the float batch ``a`` (..., m, n) as
    torch's ``linalg.lu_factor_ex`` computes them on CPU: getrf on each matrix of a
    column-major copy of the batch (getrf's packed unit-lower L and U, torch's layout), its
    1-based int32 pivots (..., min(m, n)) and its infos (the first zero pivot, or 0). None
    without MKL.

    >>> r = lu_factor(np.float32([[1, 2], [3, 4]]))
    >>> r is None or (r[1].tolist(), int(r[2])) == ([2, 2], 0)
    True
    """
    kind = _lapack_kernel(a)
    if kind is None:
        return None
    m, n = a.shape[-2:]
    lu = _column_major_batch(a)
    pivots = np.zeros((*a.shape[:-2], min(m, n)), np.int32)
    infos = np.zeros(a.shape[:-2], np.int32)
    routine = getattr(library(), kind + "getrf_")
    for i, (factor, rows) in enumerate(zip(_items(lu), _items(pivots, 1))):
        info = ctypes.c_int(0)
        routine(_ref(m), _ref(n), factor, _ref(max(m, 1)), rows, ctypes.byref(info))
        infos.flat[i] = info.value
    return lu, pivots, infos


def lu_det(a: np.ndarray) -> np.ndarray | None:
    """The determinant of each square matrix of ``a`` (..., n, n) as torch's ``linalg.det``
    takes it: the permutation's sign times the product of U's diagonal (see
    :func:`lu_diagonals`). None without MKL.

    >>> r = lu_det(np.float32([[2, 1], [1, 3]]))
    >>> r is None or float(r) == 5.0
    True
    """
    found = lu_diagonals(a)
    if found is None:
        return None
    out = np.empty(len(found), a.dtype)
    for i, (diagonal, sign) in enumerate(found):
        out[i] = a.dtype.type(sign) * np.prod(diagonal)
    return out.reshape(a.shape[:-2])


def lu_diagonals(a: np.ndarray) -> list[tuple[np.ndarray, int]] | None:
    """For each square matrix of ``a`` (..., n, n): U's diagonal and the sign (1 or -1) of
    the row permutation of its LU factorization, as torch's ``linalg.det`` and
    ``linalg.slogdet`` factor it: getrf on the transpose when ``a`` is contiguous (torch's
    shortcut, as ``det Aᵀ = det A``), else on ``A``. None without MKL.

    >>> r = lu_diagonals(np.float32([[0, 1], [2, 0]]))
    >>> r is None or [(d.tolist(), s) for d, s in r] == [([1.0, 2.0], -1)]
    True
    """
    kind = _lapack_kernel(a)
    if kind is None:
        return None
    n = a.shape[-1]
    found = []
    for matrix in a.reshape(int(np.prod(a.shape[:-2])), n, n):
        lu, pivots, _ = _lu_factor(matrix.T if a.flags.c_contiguous else matrix, kind)
        swaps = int(np.count_nonzero(pivots != np.arange(1, n + 1)))
        found.append((np.diagonal(lu), -1 if swaps % 2 else 1))
    return found


def cholesky(a: np.ndarray, upper: bool) -> tuple[np.ndarray, list[int]] | None:
    """The Cholesky factor of each matrix of the float batch ``a`` (..., n, n) as torch's
    ``linalg.cholesky_ex`` computes it on CPU: potrf on a column-major copy of the triangle it
    reads (the other triangle zero), into a column-major result as torch's; with potrf's infos
    (the order of each matrix's first leading minor that is not positive-definite, or 0).
    None without MKL.

    >>> r = cholesky(np.float32([[4, 2], [2, 5]]), upper=False)
    >>> r is None or (r[0].tolist(), r[1]) == ([[2.0, 0.0], [1.0, 2.0]], [0])
    True
    """
    kind = _lapack_kernel(a)
    if kind is None:
        return None
    n = a.shape[-1]
    out = _column_major_batch(np.triu(a) if upper else np.tril(a))
    routine, uplo, infos = getattr(library(), kind + "potrf_"), b"U" if upper else b"L", []
    for factor in _items(out):
        info = ctypes.c_int(0)
        routine(ctypes.c_char_p(uplo), _ref(n), factor, _ref(max(1, n)), ctypes.byref(info))
        infos.append(info.value)
    return out, infos


def cholesky_solve(b: np.ndarray, factor: np.ndarray, upper: bool) -> np.ndarray | None:
    """``X`` with ``A X = B`` for each ``B`` of ``b`` and Cholesky factor of ``A`` of
    ``factor`` (batch dims broadcast already), as torch's ``cholesky_solve`` calls MKL: potrs
    on column-major copies of both; the result column-major, as torch's. None without MKL.

    >>> r = cholesky_solve(np.float32([[4], [5]]), np.float32([[2, 0], [0, 2]]), False)
    >>> r is None or r.ravel().tolist() == [1.0, 1.25]
    True
    """
    kind = _lapack_kernel(factor, b)
    if kind is None:
        return None
    out, factors = _column_major_batch(b), _column_major_batch(factor)
    n, k = b.shape[-2:]
    if not out.size or not n:
        return out
    routine, info = getattr(library(), kind + "potrs_"), ctypes.c_int(0)
    for matrix, column in zip(_items(factors), _items(out)):
        routine(ctypes.c_char_p(b"U" if upper else b"L"), _ref(n), _ref(k), matrix, _ref(n),
                column, _ref(n), ctypes.byref(info))
    return out


def cholesky_inverse(factor: np.ndarray, upper: bool) -> np.ndarray | None:
    """``(L Lᵀ)⁻¹`` (``(Uᵀ U)⁻¹`` with ``upper``) of each Cholesky factor of ``factor``, as
    torch's ``cholesky_inverse`` calls MKL: potri on a column-major copy, then the triangle it
    wrote mirrored onto the other; the result column-major, as torch's. None without MKL.

    >>> r = cholesky_inverse(np.float32([[2, 0], [0, 4]]), False)
    >>> r is None or r.tolist() == [[0.25, 0.0], [0.0, 0.0625]]
    True
    """
    kind = _lapack_kernel(factor)
    if kind is None:
        return None
    out, n = _column_major_batch(factor), factor.shape[-1]
    routine, info = getattr(library(), kind + "potri_"), ctypes.c_int(0)
    for matrix in _items(out) if n else ():
        routine(ctypes.c_char_p(b"U" if upper else b"L"), _ref(n), matrix, _ref(n),
                ctypes.byref(info))
    written = np.triu(out) if upper else np.tril(out)
    out[...] = written + np.swapaxes(np.triu(out, 1) if upper else np.tril(out, -1), -1, -2)
    return out


def triangular_solve(a: np.ndarray, b: np.ndarray, upper: bool, left: bool,
                     unitriangular: bool) -> np.ndarray | None:
    """``X`` with ``A X = B`` (``X A = B`` unless ``left``) for the triangular ``A`` of each
    matrix of ``a`` and ``B`` of ``b`` (batch dims broadcast already), as torch's
    ``linalg.solve_triangular`` calls MKL's trsm: ``B`` copied column-major (an equation
    transposed when that copy's rows are one element apart), ``A`` read in place when stored
    row by row or column by column (copied otherwise), the flags from those layouts. The
    result is column-major, as torch's. None without MKL.

    >>> r = triangular_solve(np.float32([[2, 0], [1, 1]]), np.float32([[2], [3]]),
    ...                      upper=False, left=True, unitriangular=False)
    >>> r is None or r.ravel().tolist() == [1.0, 2.0]
    True
    """
    kind = _lapack_kernel(a, b)
    if kind is None:
        return None
    out = _column_major_batch(b)
    if not out.size or not a.size:
        return out
    solved, transpose = out, _strides(out)[-1] == 1
    if transpose:  # X A = B is Aᵀ Xᵀ = Bᵀ
        left, solved = not left, out.swapaxes(-1, -2)
    rows_first = (_strides(a)[-1] == 1) == transpose  # A's layout reads as A's flag
    if not (a.flags.c_contiguous or a.swapaxes(-1, -2).flags.c_contiguous):
        a = _c_order_copy(a) if transpose else _column_major_batch(a)
        rows_first = True
    a = _aligned(a)  # where torch's twin would lie: MKL's vector loops start by address
    if _strides(a)[-1] == 1:  # a matrix stored by rows is its transpose by columns
        upper = not upper
    m, n, order = a.shape[-1] if left else solved.shape[-2], solved.shape[-1], a.shape[-1]
    flags = [ctypes.c_char(c) for c in (b"L" if left else b"R", b"U" if upper else b"L",
                                        b"N" if rows_first else b"T",
                                        b"U" if unitriangular else b"N")]
    routine, one = getattr(library(), kind + "trsm_"), _C_TYPE[kind](1.0)
    for matrix, rhs in zip(_items(a), _items(solved)):
        routine(*map(ctypes.byref, flags), _ref(m), _ref(n), ctypes.byref(one), matrix,
                _ref(max(1, order)), rhs, _ref(max(1, solved.shape[-2])))
    return out


def _c_order_copy(array: np.ndarray) -> np.ndarray:
    copy = _empty(array.shape, array.dtype)
    copy[...] = array
    return copy


def _column_major_batch(batch: np.ndarray) -> np.ndarray:
    """A copy of a batch of matrices, each stored column by column, one after another."""
    copy = _empty_column_major(batch.shape, batch.dtype)
    copy[...] = batch
    return copy


def _torch_column_major(batch: np.ndarray) -> np.ndarray:
    """``batch`` (its matrices stored column by column, one after another) with the strides
    torch gives such a tensor on its dims of size 1 too (numpy's reshape sets those as it
    likes): torch's later products read them to choose their BLAS calls, and their bits."""
    m, k = batch.shape[-2:]
    strides, step = [1, max(m, 1)], max(m, 1) * max(k, 1)
    for n in reversed(batch.shape[:-2]):
        strides.insert(0, step)
        step *= max(n, 1)
    return np.lib.stride_tricks.as_strided(
        batch, batch.shape, tuple(s * batch.itemsize for s in strides),
        writeable=batch.flags.writeable)


def _empty_column_major(shape: tuple, dtype: Any) -> np.ndarray:
    """An uninitialised batch of matrices, each stored column by column (torch's
    batched column-major layout), aligned as torch's."""
    return _torch_column_major(_empty((*shape[:-2], shape[-1], shape[-2]), dtype).swapaxes(-1, -2))


def _lapack(kind: str, name: str, *args: Any, after_work: tuple = ()) -> int:
    """LAPACK's ``name`` with torch's workspace: a query (lwork -1), then the call with
    ``max(1, optimal)`` elements of work; ``after_work``: arguments between lwork and info.
    Its info."""
    optimal = np.zeros(1, np.float32 if kind == "s" else np.float64)
    info = ctypes.c_int(0)
    routine = getattr(library(), f"{kind}{name}_")
    routine(*args, _pointer(optimal), _ref(-1), *after_work, ctypes.byref(info))
    lwork = max(1, int(optimal[0]))
    work = _empty((lwork,), optimal.dtype)
    routine(*args, _pointer(work), _ref(lwork), *after_work, ctypes.byref(info))
    return info.value


def lstsq(a: np.ndarray, b: np.ndarray, driver: str, rcond: float
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """The least-squares solutions of ``A X = B`` for the float batches ``a`` (..., m, n) and
    ``b`` (..., m, k) of one batch, as torch's ``linalg.lstsq`` calls LAPACK's ``driver``
    (gels, gelsy, gelsd or gelss): on column-major copies, ``B`` padded to max(m, n) rows; the
    solution buffer (..., max(m, n), k) (its first n rows the solution, below them what
    LAPACK leaves there), the ranks, the singular values (gelsd, gelss) and LAPACK's infos.
    None without MKL.

    >>> r = lstsq(np.float64([[2, 0], [0, 4], [0, 0]]), np.float64([[2], [4], [1]]), "gelsy",
    ...           1e-15)
    >>> r is None or (r[0].ravel().tolist(), int(r[1])) == ([1.0, 1.0, 1.0], 2)
    True
    """
    kind = _lapack_kernel(a, b)
    if kind is None:
        return None
    m, n = a.shape[-2:]
    k, rows = b.shape[-1], max(m, n, 1)
    batch = a.shape[:-2]
    factors = _column_major_batch(a)
    solution = _column_major_batch(np.zeros((*batch, rows, k), a.dtype))
    solution[..., :m, :] = b
    ranks, infos = np.zeros(batch, np.int64), np.zeros(batch, np.int32)
    singular = np.zeros((*batch, min(m, n)), a.dtype)
    real = np.float32 if kind == "s" else np.float64
    for i, (factor, rhs) in enumerate(zip(_items(factors), _items(solution))):
        head = (_ref(m), _ref(n), _ref(k), factor, _ref(max(m, 1)), rhs, _ref(rows))
        rank = ctypes.c_int(0)
        cond = np.array([rcond], real)
        if driver == "gels":
            infos.flat[i] = _lapack(kind, "gels", ctypes.c_char_p(b"N"), *head)
        elif driver == "gelsy":
            pivots = np.ones(max(n, 1), np.int32)
            _lapack(kind, "gelsy", *head, _pointer(pivots), _pointer(cond), ctypes.byref(rank))
        else:
            values = np.zeros(max(min(m, n), 1), a.dtype)
            tail = (_pointer(values), _pointer(cond), ctypes.byref(rank))
            iwork = np.zeros(max(1, 203 * min(m, n)), np.int32)  # held while LAPACK writes
            _lapack(kind, driver, *head, *tail,
                    after_work=(_pointer(iwork),) if driver == "gelsd" else ())
            if min(m, n):  # (an empty batch of values has no rows to write)
                singular.reshape(-1, min(m, n))[i] = values[:min(m, n)]
        ranks.flat[i] = rank.value
    return solution, ranks, singular, infos


def qr_reduced(a: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """``Q`` (m, k) and ``R`` (k, n), k = min(m, n), of one float matrix ``a`` (m, n) as
    torch's ``linalg.qr`` computes them on CPU: geqrf on a column-major copy, R the upper
    triangle of its first k rows, then orgqr on the first k columns. None without MKL.

    >>> r = qr_reduced(np.float32([[3, 0], [4, 5]]))
    >>> r is None or np.allclose(r[0] @ r[1], [[3, 0], [4, 5]], atol=1e-6)
    True
    """
    found = geqrf(a)
    if found is None:
        return None
    qr, tau = found
    k = min(a.shape)
    return orgqr(qr[:, :k], tau), np.triu(qr[:k])


def geqrf(a: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """LAPACK's geqrf of each float matrix of ``a`` (..., m, n), as torch's ``geqrf`` and
    ``linalg.qr`` run it: on a column-major copy of the batch in one buffer, R above the
    diagonal and the Householder vectors below, with their scales ``tau`` (..., min(m, n)).
    None without MKL.

    >>> r = geqrf(np.float32([[3, 0], [4, 5]]))
    >>> r is None or float(r[0][0, 0]) == -5.0
    True
    """
    kind = _lapack_kernel(a)
    if kind is None:
        return None
    m, n = a.shape[-2:]
    qr = _column_major_batch(a)
    tau = _empty((*a.shape[:-2], min(m, n)), a.dtype)
    for matrix, scales in zip(_items(qr), _items(tau, 1)) if a.size else ():
        _lapack(kind, "geqrf", _ref(m), _ref(n), matrix, _ref(max(1, m)), scales)
    return qr, tau


def orgqr(a: np.ndarray, tau: np.ndarray) -> np.ndarray | None:
    """LAPACK's orgqr on each matrix of ``a`` (..., m, n): the first n columns of the product
    of the ``tau.shape[-1]`` Householder reflectors stored below its diagonal, as torch's
    ``linalg.householder_product`` (and ``linalg.qr``) run it on a column-major copy of the
    batch. None without MKL.

    >>> q = orgqr(np.zeros((2, 1), np.float32), np.float32([2]))
    >>> q is None or q.ravel().tolist() == [-1.0, 0.0]
    True
    """
    kind = _lapack_kernel(a)
    if kind is None:
        return None
    m, n = a.shape[-2:]
    q, scales = _column_major_batch(a), np.ascontiguousarray(tau, a.dtype)
    for matrix, reflectors in zip(_items(q), _items(scales, 1)) if a.size else ():
        _lapack(kind, "orgqr", _ref(m), _ref(n), _ref(tau.shape[-1]), matrix, _ref(max(1, m)),
                reflectors)
    return q


def symmetric_eigen(a: np.ndarray, uplo: str, vectors: bool
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Eigenvalues, (when ``vectors``) eigenvectors and LAPACK's info of each symmetric
    matrix of the batch ``a``, read from its ``uplo`` triangle, as torch's ``linalg.eigh``
    computes them on CPU: LAPACK's syevd on a column-major copy, workspaces from a query.
    None without MKL.

    >>> r = symmetric_eigen(np.float32([[2, 1], [1, 2]]), "L", False)
    >>> r is None or (r[0].tolist(), int(r[2])) == ([1.0, 3.0], 0)
    True
    """
    kind = _lapack_kernel(a)
    if kind is None:
        return None
    n = a.shape[-1]
    vecs = _column_major_batch(a)  # torch's working copy, one buffer
    values = _empty(a.shape[:-1], a.dtype)
    routine = getattr(library(), f"{kind}syevd_")
    jobz, side = ctypes.c_char(b"V" if vectors else b"N"), ctypes.c_char(uplo.encode())
    infos = np.zeros(a.shape[:-2], np.int32)
    for i, (matrix, found) in enumerate(zip(_items(vecs), _items(values, 1))):
        info, lwork, liwork = ctypes.c_int(0), np.zeros(1, a.dtype), np.zeros(1, np.int32)
        args = (ctypes.byref(jobz), ctypes.byref(side), _ref(n), matrix, _ref(max(1, n)), found)
        routine(*args, _pointer(lwork), _ref(-1), _pointer(liwork), _ref(-1), ctypes.byref(info))
        work = _empty((max(1, int(lwork[0])),), a.dtype)
        iwork = np.empty(max(1, int(liwork[0])), np.int32)
        routine(*args, _pointer(work), _ref(work.size), _pointer(iwork), _ref(iwork.size),
                ctypes.byref(info))
        infos.reshape(-1)[i] = info.value
    return values, vecs, infos


class NotConverged(ArithmeticError):
    """LAPACK's report that a factorization did not converge: its positive ``info``, for the
    matrix at ``at`` in the batch order."""

    def __init__(self, info: int, at: int) -> None:
        super().__init__(info, at)
        self.info, self.at = info, at


def svd(a: np.ndarray, full_matrices: bool, vectors: bool = True
        ) -> tuple[np.ndarray | None, np.ndarray, np.ndarray | None] | None:
    """``U``, ``S``, ``Vh`` of each matrix of the float batch ``a`` as torch's
    ``linalg.svd`` computes them on CPU: LAPACK's gesdd on a column-major copy (so the signs
    of the singular vectors are torch's), workspace from a query. Without ``vectors``, ``S``
    alone (``U`` and ``Vh`` None) by gesdd's values-only job, as torch's ``linalg.svdvals``
    asks for it when no gradient is wanted (its rounding differs). None without MKL.

    >>> r = svd(np.float64([[3, 0], [0, 4]]), False)
    >>> r is None or r[1].tolist() == [4.0, 3.0]
    True
    """
    kind = _lapack_kernel(a) if a.size else None
    if kind is None:
        return None
    m, n = a.shape[-2:]
    k = min(m, n)
    cols_u, rows_vh = (m, n) if full_matrices else (k, k)
    batch = a.shape[:-2]
    work_a = _column_major_batch(a)  # torch's working copy, one buffer
    ss = _empty((*batch, k), a.dtype)
    us = _empty_column_major((*batch, m, cols_u), a.dtype) if vectors else None
    vhs = _empty_column_major((*batch, rows_vh, n), a.dtype) if vectors else None
    routine = getattr(library(), f"{kind}gesdd_")
    jobz = ctypes.c_char(b"N" if not vectors else b"A" if full_matrices else b"S")
    values_at = _items(ss, 1)  # also where gesdd's values-only job gets U and Vh: unread
    lefts, rights = (_items(us), _items(vhs)) if vectors else (values_at, values_at)
    for at, (matrix, values, left, right) in enumerate(zip(_items(work_a), values_at, lefts,
                                                             rights)):
        iwork, info, optimal = np.empty(max(1, 8 * k), np.int32), ctypes.c_int(0), \
            np.zeros(1, a.dtype)
        args = (ctypes.byref(jobz), _ref(m), _ref(n), matrix, _ref(max(1, m)), values, left,
                _ref(max(1, m)), right, _ref(max(1, rows_vh)))
        routine(*args, _pointer(optimal), _ref(-1), _pointer(iwork), ctypes.byref(info))
        work = _empty((max(1, int(optimal[0])),), a.dtype)
        routine(*args, _pointer(work), _ref(work.size), _pointer(iwork), ctypes.byref(info))
        if info.value > 0 and vectors:  # torch reports it (where an infinity is met)
            raise NotConverged(info.value, at)
        if info.value:
            return None
    return us, ss, vhs

