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
import os
from functools import cache
from typing import Any

import numpy as np

_BLAS_PREFIX = {np.dtype(np.float32): "s", np.dtype(np.float64): "d"}
_C_TYPE = {"s": ctypes.c_float, "d": ctypes.c_double}
# numpy's function → MKL's vector-maths name, for the functions torch's CPU kernels give MKL
# (and, by name, the ones numpy lacks: ``erf``)
VECTOR_MATHS = {np.exp: "Exp", np.log: "Ln", np.sqrt: "Sqrt", np.sin: "Sin", np.cos: "Cos",
                np.tanh: "Tanh", "erf": "Erf"}


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


def _use_threads() -> None:
    """Give MKL torch's thread count: a product of a long inner dimension is split between
    the threads, and where it is split changes the sum's rounding."""
    from .ops._cascade_sum import get_num_threads

    n = get_num_threads()
    if _threads_set != [n]:
        library().MKL_Set_Num_Threads(ctypes.c_int(n))
        _threads_set[:] = [n]


def _strides(array: np.ndarray) -> tuple[int, ...]:
    return tuple(s // array.itemsize for s in array.strides)


_ALIGNMENT = 64  # torch's CPU allocator's; numpy's is 16


def _empty(shape: tuple, dtype: Any) -> np.ndarray:
    """An uninitialised C-contiguous array at an address aligned as torch aligns its tensors."""
    dtype = np.dtype(dtype)
    size = int(np.prod(shape)) * dtype.itemsize
    raw = np.empty(size + _ALIGNMENT, np.uint8)
    start = -raw.ctypes.data % _ALIGNMENT
    return raw[start:start + size].view(dtype).reshape(shape)


def _aligned(array: np.ndarray) -> np.ndarray:
    """``array``, or a copy of it with the same strides at an aligned address: MKL's kernels
    start their vector loops at aligned elements, so where an operand sits in memory changes
    how its sums are split, and so their rounding."""
    if array.ctypes.data % _ALIGNMENT == 0 or not (array.flags.c_contiguous
                                                  or array.flags.f_contiguous):
        return array
    raw = _empty((array.nbytes,), np.uint8)
    copy = np.ndarray(array.shape, array.dtype, buffer=raw, strides=array.strides)
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
    lda = _strides(a)[1 if transpose_a == transpose_c else 0]
    ldb = _strides(b)[1 if transpose_b == transpose_c else 0]
    ldc = _strides(result)[0 if transpose_c else 1]
    lda, ldb, ldc = _normalize_last_dims(transpose_a, transpose_b, m, n, inner, lda, ldb, ldc)
    fits = (lda >= max(1, inner if transpose_a else m)
            and ldb >= max(1, n if transpose_b else inner) and ldc >= max(1, m))
    if not fits:
        return None  # torch's own kernel, not BLAS, takes these
    c_type = _C_TYPE[kind]
    _use_threads()
    getattr(library(), kind + "gemm")(
        _ref(b"T" if transpose_a else b"N", ctypes.c_char), _ref(b"T" if transpose_b else b"N",
                                                                 ctypes.c_char),
        _ref(m), _ref(n), _ref(inner), _ref(alpha, c_type), _pointer(a), _ref(lda),
        _pointer(b), _ref(ldb), _ref(beta, c_type), _pointer(result), _ref(ldc))
    return result


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
    ``VECTOR_MATHS`` (``fn`` a numpy function or ``"erf"``); None when MKL is absent or does
    not take this array.

    >>> r = vector_maths(np.exp, np.zeros(2, np.float32))
    >>> r is None or r.tolist() == [1.0, 1.0]
    True
    """
    kind = _kernel(array)
    name = VECTOR_MATHS.get(fn)
    if kind is None or name is None:
        return None
    source = array if array.flags.c_contiguous else array.copy()
    result = np.empty_like(source)
    if source.size:
        getattr(library(), f"v{kind}{name}")(ctypes.c_int(source.size), _pointer(source),
                                             _pointer(result))
    return result
