"""Factories: ``tensor``, ``zeros``, ``ones``, ``full``, ``rand``, ``randn``, ``arange``,
``eye`` and the ``*_like`` variants, with torch's default dtypes.

>>> import minitorch
>>> minitorch.tensor([1, 2]).dtype, minitorch.tensor([1., 2.]).dtype, minitorch.arange(3).dtype
(torch.int64, torch.float32, torch.int64)
"""

from __future__ import annotations

import builtins
import functools
import math
import operator
import warnings
from typing import Any

import numpy as np

from . import _args, _call_form, _layout, _sampling, backend
from . import _dtype as D
from ._generator import Generator
from ._tensor import Tensor, mark_traced
from ._warn_once import warn_once
from .autograd.profiler import records
from .ops import _fused

__all__ = ["arange", "as_array", "empty", "eye", "from_numpy", "full", "ones",
           "ones_like", "rand", "randn", "tensor", "zeros", "zeros_like"]


def as_array(data: Any, dtype: D.dtype | None, device: Any = None) -> Any:
    """An array for ``tensor(data, dtype, device)``: Python data gets torch's default dtypes;
    arrays and tensors keep their device unless ``device`` is given."""
    dev = backend.as_device(device) or backend.default_device
    if isinstance(data, Tensor):
        data = data._data
    if hasattr(data, "__array_namespace__") and not isinstance(data, (np.ndarray, np.generic)):
        xp = backend.namespace(data)
        target = dtype or D.from_array_dtype(data.dtype)
        array = xp.astype(data, backend.array_dtype(xp, target.name), copy=True)
        return array if dev is None else backend.to_device(array, dev)
    if isinstance(data, np.generic) and dtype is not None:
        _leaf_kind(type(data), dtype)  # torch reads a numpy scalar as the number it holds
        data = data.item()  # (its checks of a value the dtype cannot hold too)
    elif isinstance(data, np.uint64):  # a number its int64 reading refuses
        raise TypeError("an integer is required")
    if isinstance(data, np.ndarray):
        _check_numpy(data)
    if isinstance(data, (np.ndarray, np.generic)):
        target = (dtype or _own_dtype("tensor", data)).np
        with np.errstate(invalid="ignore", over="ignore"):  # torch casts arrays silently too
            values = _copy_keeping_strides(np.asarray(data), target)
    else:
        values = _python_array(data, dtype)
    return backend.from_numpy(values, dev)


def _python_array(data: Any, dtype: D.dtype | None) -> np.ndarray:
    """A Python number or sequence as an array of ``dtype`` (or of the one torch infers), in
    torch's steps: its shape, its dtype, then each item stored depth first."""
    _check_sized(data)
    target = dtype or _items_dtype(data)
    lengths = _lengths(data)
    if not all(lengths):
        return np.zeros(lengths, (target or D.float64).np)  # (torch reads no item into it)
    values = _unwrap(data, lengths=lengths, dtype=target)
    if target is None:
        raise TypeError(f"minitorch has no complex tensors (its dtypes are "
                        f"{', '.join(D._BY_NAME)}); give real numbers, or keep the real parts")
    return _python_values(values, target)


# numpy dtypes torch has and minitorch has not, by torch's C++ names (for its messages)
_PYTHON_NUMBERS = {bool, int, float}
_WIDE_UNSIGNED = {"uint16": "UInt16", "uint32": "UInt32", "uint64": "UInt64"}
_COMPLEX = {"complex64": "ComplexFloat", "complex128": "ComplexDouble"}


def _items_dtype(data: Any) -> D.dtype | None:
    """torch's dtype for ``tensor(data)`` (its ``infer_scalar_type``): the dtypes of the
    tensors, numpy arrays and numpy scalars in it and those of its Python numbers (bool,
    int64, the default dtype; an empty sequence counts as the default dtype) promoted in
    order, every item read, so the first one that is not a number is refused here. None
    for a Python complex: minitorch refuses it once torch's copy has read every item.

    >>> _items_dtype([np.ones(2), [1.0, 2.0]]), _items_dtype([1, 2])
    (torch.float64, torch.int64)
    >>> _items_dtype([np.uint16(3), 1.5])  # a wide unsigned int promotes with floats only
    torch.float32
    """
    kinds: list = []  # a dtype, or the numpy dtype name of one minitorch has not

    def walk(item: Any) -> None:
        if isinstance(item, Tensor):
            kinds.append(item.dtype)
        elif isinstance(item, (np.ndarray, np.generic)):
            name = item.dtype.name
            kinds.append(name if name in _WIDE_UNSIGNED or name in _COMPLEX
                         else _own_dtype("tensor", item))
        elif not _is_sequence(item):
            kinds.append(getattr(builtins, _leaf_kind(type(item), None)))  # (int for an
            # int's subclass; torch's refusal of what is no number)
        elif not item:
            kinds.append(D.get_default_dtype())
        elif _PYTHON_NUMBERS.issuperset(numbers := set(map(type, item))):
            kinds.extend(numbers)  # (a row of Python numbers: their kinds at once)
        else:
            for x in item:
                walk(x)

    walk(data)
    if complex in kinds:
        return None
    python_dtypes = {bool: D.bool, int: D.int64, float: D.get_default_dtype()}
    result = functools.reduce(_promote_kinds, [python_dtypes.get(k, k) for k in
                                               dict.fromkeys(kinds)])
    if isinstance(result, str):  # a dtype minitorch has not: torch would keep it
        if result == "uint64":
            raise TypeError("an integer is required")  # torch's reading of a uint64 value
        _own_dtype("tensor", np.zeros(0, dtype=result))
    return result


def _promote_kinds(a: Any, b: Any) -> Any:
    """``promote_types`` of two kinds of :func:`_items_dtype`: a wide unsigned int promotes
    with itself and with floating dtypes only, as in torch; a complex stays complex."""
    if not isinstance(a, str) and not isinstance(b, str):
        return D.promote_types(a, b)
    if a == b:
        return a
    wide, other = (a, b) if a in _WIDE_UNSIGNED else (b, a)
    if wide in _WIDE_UNSIGNED:
        if not isinstance(other, str) and other.is_floating_point:
            return other
        names = [_WIDE_UNSIGNED.get(k) or _COMPLEX.get(k) or k.legacy for k in (a, b)]
        raise D.uint64_promotion(*names)
    return a if isinstance(a, str) else b  # a complex with a real dtype


def _copy_keeping_strides(data: np.ndarray, dtype: Any) -> np.ndarray:
    """A copy of ``data`` as ``dtype``, laid out with data's strides when they are dense, as
    ``torch.tensor`` keeps a numpy array's layout (numpy's own copy resets the strides of
    size-1 dims). A layout chooses which BLAS kernel a matrix product runs, so its rounding."""
    elements = [stride // data.itemsize for stride in data.strides]
    if not data.size or not backend.is_dense(data.shape, elements):
        return np.array(data, dtype=dtype)
    dtype = np.dtype(dtype)
    copy = np.ndarray(data.shape, dtype, buffer=np.empty(data.size, dtype),
                      strides=[e * dtype.itemsize for e in elements])
    copy[...] = data
    return copy


def _python_values(data: Any, dtype: D.dtype) -> np.ndarray:
    """Nested Python numbers as an array of ``dtype``, with torch's errors for ragged lists,
    non-numbers and values the dtype cannot hold."""
    leaves = _nested_leaves(data, dtype)
    alone = not isinstance(data, list)  # one number, or a string: never a sequence of them
    # (each type in the order met: torch refuses the first leaf it cannot read)
    kinds = {_leaf_kind(kind, dtype, alone) for kind in dict.fromkeys(map(type, leaves))}
    if "int" in kinds and "complex" not in kinds and "float" not in kinds:
        ints = [int(v) for v in leaves]  # (numpy bools and ints as the ints they are)
        _check_fits(min(ints), dtype)  # the extremes are enough
        _check_fits(max(ints), dtype)
    elif dtype is D.int64 and "float" in kinds and "complex" not in kinds:
        floats = np.array(data, dtype=np.float64)
        if not np.all((floats >= -2.0 ** 63) & (floats <= 2.0 ** 63)):  # nan and inf fail too
            raise _args.conversion_overflow("int64")
        if np.any(floats == 2.0 ** 63):  # compared as a double it fits; torch's CPU gives
            data = _int64_min_for_2_63(data)  # int64's minimum
    if dtype is D.bool:
        return np.array(data, dtype=np.complex128 if "complex" in kinds else None) != 0 \
            if kinds else np.zeros(_shape_of(data), dtype=np.bool_)
    if "complex" in kinds:
        raise TypeError("must be real number, not complex" if dtype.is_floating_point
                        else "'complex' object cannot be interpreted as an integer")
    if dtype.itemsize < 8 and not dtype.is_floating_point and kinds:
        return _narrow_ints(data, leaves, dtype)
    with np.errstate(over="ignore"):  # a float too large for float32 is inf, as in torch
        return np.array(data, dtype=dtype.np) if kinds else np.zeros(_shape_of(data), dtype.np)


def _int64_min_for_2_63(data: Any) -> Any:
    """Nested numbers with each float 2.0**63 replaced by int64's minimum."""
    if isinstance(data, list):
        return [_int64_min_for_2_63(item) for item in data]
    return _args.INT64_MIN if isinstance(data, float) and data == 2.0 ** 63 else data


def _narrow_ints(data: Any, leaves: list, dtype: D.dtype) -> np.ndarray:
    """Python numbers as an int32/int16/int8/uint8 array: refused as torch where one
    overflows, else read as int64 (or float64) and cut to the dtype's bits."""
    if any(D.overflows(v, dtype) for v in leaves):
        raise _args.conversion_overflow(dtype.name)
    return np.array(data, dtype=np.float64 if float in map(type, leaves) else np.int64
                    ).astype(dtype.np)


def _shape_of(data: Any) -> tuple:
    shape = []
    while isinstance(data, list):
        shape.append(len(data))
        if not data:
            break
        data = data[0]
    return tuple(shape)


def _nested_leaves(data: Any, dtype: D.dtype | None) -> list:
    """The numbers of a nested list, after checking that every level is as long as the first
    one (torch's messages for ragged or mixed nesting)."""
    shape = _shape_of(data)
    level, leaves = [data], []
    for depth in range(len(shape) + 1):
        nxt = []
        for item in level:
            if depth == len(shape):
                if isinstance(item, list):
                    _leaf_kind(list, dtype or D.int64)
                leaves.append(item)
            elif isinstance(item, (str, bytes)):  # a sequence to torch, of non-numbers
                _leaf_kind(type(item), dtype)
            elif not isinstance(item, list):
                raise TypeError("not a sequence")
            elif shape[depth] == 0:  # torch's quirk: what follows an empty list is not read
                continue
            elif len(item) != shape[depth]:
                raise ValueError(f"expected sequence of length {shape[depth]} at dim {depth} "
                                 f"(got {len(item)})")
            else:
                nxt.extend(item)
        level = nxt
    return leaves


def _leaf_kind(kind: type, dtype: D.dtype | None, alone: bool = False) -> str:
    """The category of a number type in a nested list (or ``alone``), or torch's error for a
    non-number (or for a numpy scalar an integer or bool dtype cannot read as an int)."""
    if dtype is not None and not dtype.is_floating_point and issubclass(kind, np.generic) \
            and not issubclass(kind, (float, np.integer)) \
            and not (dtype is D.bool and issubclass(kind, np.bool_)):
        raise TypeError(f"'numpy.{kind.__name__}' object cannot be interpreted as an integer")
    if issubclass(kind, (bool, np.bool_)):
        return "bool"
    if issubclass(kind, (int, np.integer)):
        return "int"
    if issubclass(kind, (float, np.floating)):
        return "float"
    if issubclass(kind, (complex, np.complexfloating)):
        return "complex"
    if issubclass(kind, (str, bytes)) and (dtype is None or alone):
        raise TypeError(f"new(): invalid data type '{kind.__name__}'")
    if dtype is not None and not dtype.is_floating_point:
        raise TypeError(f"'{_type_name(kind)}' object cannot be interpreted as an integer")
    if dtype is not None and dtype.is_floating_point:
        if hasattr(kind, "__float__") or hasattr(kind, "__index__"):
            return "float"  # torch reads it as a double (PyFloat_AsDouble: a Decimal, ...)
        raise TypeError(f"must be real number, not {kind.__name__}")
    raise RuntimeError(f"Could not infer dtype of {_type_name(kind)}")


def _check_fits(value: Any, dtype: D.dtype) -> None:
    """torch's errors for a Python int that ``dtype`` cannot hold."""
    if not dtype.is_floating_point and dtype is not D.bool and \
            not _args.INT64_MIN <= value <= _args.INT64_MAX:  # every int dtype reads an int64
        raise ValueError("Overflow when unpacking long long")
    if dtype.is_floating_point and abs(value) >= 2 ** 1024:
        raise OverflowError("int too large to convert to float")


def _is_sequence(data: Any) -> bool:
    """torch reads any Python sequence (``PySequence_Check``: indexable, not a dict) as a
    list: a tuple, a range, a ``collections.deque``, an ``array.array``, a class with
    ``__getitem__``; a set, a dict or a generator is not one."""
    return (hasattr(type(data), "__getitem__") and hasattr(type(data), "__len__")
            and not isinstance(data, (dict, str, bytes, np.generic, np.ndarray, Tensor)))


def _check_sized(data: Any) -> None:
    """torch measures a nested sequence's shape down its first items, taking ``len()`` of
    each: a 0-d numpy array met there has none (one further along reads as its number), a
    string is a sequence of strings without end."""
    while _is_sequence(data) and len(data):
        data = data[0]
        if isinstance(data, np.ndarray) and data.ndim == 0:
            raise TypeError("len() of unsized object")
        if isinstance(data, str) and data:
            raise ValueError("too many dimensions 'str'")


def _type_name(kind: type) -> str:
    """The name Python's C API prints for a type (``tp_name``): qualified by its module for
    a built-in type outside ``builtins``, as ``collections.OrderedDict``."""
    heap = kind.__flags__ & (1 << 9)  # Py_TPFLAGS_HEAPTYPE: a class made by Python code
    if heap or kind.__module__ == "builtins":
        return kind.__name__
    return f"{kind.__module__}.{kind.__name__}"


def _lengths(data: Any) -> tuple:
    """The shape torch measures for ``data``: the lengths down its first items (a numpy
    array's among them), stopping at a tensor (which torch reads as one number there)."""
    lengths: list = []
    while _is_sequence(data) or (lengths and isinstance(data, (str, bytes))) or \
            (isinstance(data, np.ndarray) and data.ndim):  # (a sequence to torch)
        lengths.append(len(data))
        if not len(data):
            break
        data = data[0]
    return tuple(lengths)


def _unwrap(data: Any, nested: bool = False, dtype: D.dtype | None = None,
            lengths: tuple = (), level: int = 0) -> Any:
    """``data`` as nested Python lists and numbers, read as torch's copy into ``dtype``
    (None: a complex one) does, depth first, so the first item it cannot store is the one
    refused: each sequence at ``level`` as long as ``lengths`` says; a tensor inside a
    sequence at the last level
    must hold one element (torch reads it as a number; an integer one for an integer or
    bool dtype), above it is a sequence; a range is a sequence, and inside one a string."""
    deeper = level < len(lengths)
    if nested and isinstance(data, np.ndarray) and data.ndim and deeper:
        # its items read as any others, torch's checks and all (at once where it fits)
        data = data.tolist() if data.shape == lengths[level:] else list(data)
    sequence = _is_sequence(data) or (nested and isinstance(data, (str, bytes)))
    if nested and deeper and lengths[level] and (
            sequence or (isinstance(data, Tensor) and data.dim())) and \
            len(data) != lengths[level]:
        raise ValueError(f"expected sequence of length {lengths[level]} at dim {level} "
                         f"(got {len(data)})")
    if isinstance(data, Tensor) and nested and deeper and data.dim():
        return [_unwrap(d, True, dtype, lengths, level + 1) for d in data.unbind()]
    if isinstance(data, Tensor):
        if nested and deeper:  # (a 0-d one)
            _check_stored(data, dtype, deeper)
        index = dtype is not None and not dtype.is_floating_point
        if nested and index and (data.numel() != 1 or data.dtype.is_floating_point):
            raise TypeError("only integer tensors of a single element can be converted to an "
                            "index")
        if nested and data.numel() != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return data.item() if data.dim() == 0 or nested else data.tolist()
    if isinstance(data, np.ndarray):
        if nested and data.ndim:  # where a number goes: numpy's refusal to read it as one
            (operator.index if dtype and not dtype.is_floating_point else float)(data)
        return data.tolist()
    if nested and not (deeper and sequence):  # (an item, or an item where a sequence goes)
        _check_stored(data, dtype, deeper)
    if not sequence:
        return data
    if level + 1 == len(lengths) and _row_fits(data, set(map(type, data)), dtype or D.float64):
        return list(data)  # (a row of numbers that fit: no item to check on its own)
    return [_unwrap(d, True, dtype, lengths, level + 1) for d in data]


def _row_fits(row: Any, kinds: set, dtype: D.dtype) -> bool:
    """Whether ``row`` holds Python numbers only (of the types ``kinds``), each of which
    ``dtype`` holds."""
    if not _PYTHON_NUMBERS.issuperset(kinds):
        return False
    for kind in kinds - {bool} if dtype is not D.bool else ():
        if kind is int or not dtype.is_floating_point:  # (a float tensor holds any float)
            low, high = _held(dtype, kind)
            if not all(low <= v <= high for v in row if type(v) is kind):  # (nan too)
                return False
    return True


@functools.lru_cache(maxsize=64)
def _held(dtype: D.dtype, kind: type) -> tuple:
    """The least and the greatest Python ``kind`` (int, or float for an integer dtype) that
    ``dtype`` holds as torch reads one (:func:`_check_fits`, ``D.overflows``)."""
    if dtype.is_floating_point:
        return -2 ** 1024 + 1, 2 ** 1024 - 1
    info = D.iinfo(dtype)
    if kind is float:
        return float(info.min), float(info.max)
    return info.min if dtype.is_signed else -info.max, info.max


def _check_stored(value: Any, dtype: D.dtype | None, deeper: bool) -> None:
    """torch's error for writing one item of a nested sequence into a ``dtype`` tensor
    (None: a complex one, which takes what a float64 one takes and complex numbers too),
    where it cannot (``store_scalar``): not a sequence above the last level, not a number,
    a number out of the dtype's range."""
    if deeper:
        raise TypeError("not a sequence")
    complex_ = dtype is None
    dtype = dtype or D.float64
    kind = _leaf_kind(type(value), dtype)
    if kind == "complex" and dtype is not D.bool and not complex_:
        raise TypeError("must be real number, not complex" if dtype.is_floating_point
                        else "'complex' object cannot be interpreted as an integer")
    if kind == "int":
        _check_fits(int(value), dtype)
    if kind in ("int", "float") and not dtype.is_floating_point and \
            D.overflows(int(value) if kind == "int" else float(value), dtype):
        raise _args.conversion_overflow(dtype.name)


def _leaf(array: Any, requires_grad: bool) -> Tensor:
    t = Tensor._make(array)
    if requires_grad:
        if not t.dtype.is_floating_point:
            raise RuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients")
        t._set_requires_grad(True)
    return t


@records("tensor", event=False)
def tensor(data: Any, *, dtype: D.dtype | None = None, device: Any = None,
           requires_grad: bool = False) -> Tensor:
    """A new leaf tensor holding a copy of ``data`` (numbers, nested lists, arrays).

    >>> minitorch.tensor([[1., 2.]], requires_grad=True)
    tensor([[1., 2.]], requires_grad=True)
    """
    requires_grad = _args.flag("tensor", requires_grad, "requires_grad")
    _args.device_type("tensor", device)
    if isinstance(data, Tensor):
        # frames above: tensor, its profiler record, the factory wrapper, the call form, the user
        warn_copy_construct("torch.tensor", stacklevel=6)
    made = _numpy_layout(_leaf(as_array(data, _args.dtype("tensor", dtype), device), requires_grad),
                         data)
    if isinstance(data, Tensor) and data.dim():  # torch's copy of a tensor: to(copy=True)'s
        made._data = backend.with_strides(made._data, backend.preserve_format_strides(
            data._data))  # layout
    if made._version_counter.traced:  # a literal: a constant of linearize's trace, as torch's
        mark_traced(made, False)
    return made


def warn_copy_construct(call: str, stacklevel: int) -> None:
    """torch's advice when ``call`` copies a tensor: ``detach().clone()`` says that a copy
    without the graph is meant.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = minitorch.tensor(minitorch.ones(1))
    >>> str(caught[0].message).endswith("rather than torch.tensor(sourceTensor).")
    True
    """
    warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor"
                  ".detach().clone() or sourceTensor.detach().clone().requires_grad_(True), "
                  f"rather than {call}(sourceTensor).", UserWarning, stacklevel=stacklevel)


def _numpy_layout(t: Tensor, data: Any) -> Tensor:
    """``t`` made from ``data`` with the zero strides numpy gives an empty array, which
    torch keeps (so ``view`` to a wider dtype refuses it, as torch's does)."""
    if isinstance(data, np.ndarray) and not data.size and data.ndim and not any(data.strides):
        t._data = backend.restrided(t._data, (0,) * data.ndim)
    return t


@_args.one_argument("torch._VariableFunctionsClass.from_numpy")
def from_numpy(array: np.ndarray) -> Tensor:
    """A CPU tensor sharing memory with a numpy array.

    >>> minitorch.from_numpy(np.zeros(2)).dtype
    torch.float64
    """
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {_args.type_name(array)})")
    _check_numpy(array)
    _own_dtype("from_numpy", array)
    warn_if_read_only(array)
    return _numpy_layout(Tensor._make(backend.borrow(backend.from_numpy(array, None))), array)


def warn_if_read_only(array: np.ndarray) -> None:
    """torch's warning, once per program, where a tensor keeps a read-only numpy array's
    memory (minitorch refuses to write into it, where torch writes anyway).

    >>> warn_if_read_only(np.zeros(1))  # writable: no warning
    """
    if not array.flags.writeable:
        warn_once("The given NumPy array is not writable, and PyTorch does not support "
                  "non-writable tensors. This means writing to this tensor will result in "
                  "undefined behavior. You may want to copy the array to protect its data or "
                  "make it writable before converting it to a tensor. This type of warning "
                  "will be suppressed for the rest of this program.", stacklevel=None)


def frombuffer(buffer: Any, *, dtype: D.dtype, count: int = -1, offset: int = 0,
               requires_grad: bool = False) -> Tensor:
    """A 1-d CPU tensor of ``count`` elements of ``dtype`` read from an object with Python's
    buffer protocol, from byte ``offset`` on (``count=-1``: to its end); it shares the
    memory of a writable buffer.

    >>> minitorch.frombuffer(bytearray(b"ab"), dtype=minitorch.uint8)
    tensor([97, 98], dtype=torch.uint8)
    """
    dtype = _args.dtype("frombuffer", dtype, none=False)
    count, offset = _args.integers("frombuffer", (count, "count", None), (offset, "offset", None))
    requires_grad = _args.flag("frombuffer", requires_grad, "requires_grad")
    try:
        view = memoryview(buffer)
    except TypeError:
        raise ValueError("object does not implement Python buffer protocol.") from None
    length, size = view.nbytes, dtype.itemsize
    _check_buffer_span(length, size, count, offset)
    n = (length - offset) // size if count < 0 else count
    if view.readonly:
        _warn_once_not_writable()
    array = np.frombuffer(view.cast("B"), dtype=dtype.np, count=n, offset=offset)
    return _leaf(array if not view.readonly else array.copy(), requires_grad)


def _check_buffer_span(length: int, size: int, count: int, offset: int) -> None:
    """torch's refusals of a ``count`` and ``offset`` (bytes) that a buffer of ``length``
    bytes cannot give elements of ``size`` bytes for."""
    if length <= 0 or count == 0:
        raise ValueError(f"both buffer length ({length}) and count ({count}) must not be 0")
    if not 0 <= offset < length:
        raise ValueError(f"offset ({offset} bytes) must be non-negative and no greater than "
                         f"buffer length ({length} bytes) minus 1")
    if count < 0 and (length - offset) % size:
        raise ValueError(f"buffer length ({length - offset} bytes) after offset ({offset} "
                         f"bytes) must be a multiple of element size ({size})")
    n = (length - offset) // size if count < 0 else count
    if offset + n * size > length:
        raise ValueError(f"requested buffer length ({n} * {size} bytes) after offset "
                         f"({offset} bytes) must not be greater than actual buffer length "
                         f"({length} bytes)")


@functools.cache
def _warn_once_not_writable() -> None:
    """torch's warning for a read-only buffer, which it gives once per program (minitorch
    copies such a buffer: numpy cannot write into it)."""
    warnings.warn("The given buffer is not writable, and PyTorch does not support non-writable "
                  "tensors. This means you can write to the underlying (supposedly non-writable)"
                  " buffer using the tensor. You may want to copy the buffer to protect its data "
                  "or make it writable before converting it to a tensor. This type of warning "
                  "will be suppressed for the rest of this program.", UserWarning, stacklevel=4)


_TORCH_NUMPY_TYPES = ("float64", "float32", "float16", "complex64", "complex128", "int64",
                      "int32", "int16", "int8", "uint64", "uint32", "uint16", "uint8", "bool")


def _check_numpy(array: np.ndarray) -> None:
    """torch's refusals of a numpy array it cannot hold: a dtype it has no tensors of, a
    non-native byte order, a negative stride."""
    if array.dtype.name not in _TORCH_NUMPY_TYPES:
        raise TypeError(f"can't convert np.ndarray of type numpy.{array.dtype.type.__name__}. "
                        f"The only supported types are: {', '.join(_TORCH_NUMPY_TYPES[:-1])}, "
                        "and bool.")
    if not array.dtype.isnative:
        raise ValueError("given numpy array has byte order different from the native byte "
                         "order. Conversion between byte orders is currently not supported.")
    if any(stride < 0 for stride in array.strides):
        raise ValueError("At least one stride in the given numpy array is negative, and tensors "
                         "with negative strides are not currently supported. (You can probably "
                         "work around this by making a copy of your array  with array.copy().) ")


def _own_dtype(fn: str, array: Any) -> D.dtype:
    """The dtype of a numpy array or scalar, refused where torch would keep a dtype minitorch
    does not have (uint16, uint32, uint64, complex) instead of giving another dtype silently."""
    name = array.dtype.name
    if name not in D._BY_NAME:
        hint = "pass dtype=minitorch.int64 (or another dtype it has), or " \
            if fn == "tensor" else ""
        raise NotImplementedError(
            f"minitorch's {fn} supports only {', '.join(D._BY_NAME)} arrays, not {name} "
            f"(torch would keep that dtype); {hint}convert the array first with .astype(...)")
    return D.from_array_dtype(array.dtype)




def _created(make: Any, device: Any) -> Any:
    """``make(xp)`` with the namespace of ``device``, the array placed on that device."""
    dev = backend.as_device(device) or backend.default_device
    array = make(backend.factory_namespace(dev))
    return array if dev is None or dev.type == "cpu" else backend.to_device(array, dev)


def _filled(fn: str, fill: Any, size: tuple, dtype: D.dtype | None, requires_grad: bool,
            device: Any = None) -> Tensor:
    _args.size_types(fn, size)
    dtype = _args.dtype(fn, dtype) or D.get_default_dtype()
    requires_grad = _args.flag(fn, requires_grad, "requires_grad", none=True)
    shape = _args.sizes(fn, size, check_negative=False)
    _args.non_negative(fn, shape)
    _args.check_alloc(shape, dtype.itemsize)
    name = dtype.name
    array = _created(lambda xp: xp.full(shape, fill, dtype=backend.array_dtype(xp, name)), device)
    return _leaf(array, requires_grad)


@records("aten::zeros")
def zeros(*size: Any, dtype: D.dtype | None = None, device: Any = None,
          requires_grad: bool = False) -> Tensor:
    """A tensor of zeros (float32 unless ``dtype``).

    >>> minitorch.zeros(2)
    tensor([0., 0.])
    """
    return _filled("zeros", 0, size, dtype, requires_grad, device)


@records("aten::ones")
def ones(*size: Any, dtype: D.dtype | None = None, device: Any = None,
         requires_grad: bool = False) -> Tensor:
    """A tensor of ones (float32 unless ``dtype``).

    >>> minitorch.ones(1, 2)
    tensor([[1., 1.]])
    """
    return _filled("ones", 1, size, dtype, requires_grad, device)


@records("aten::empty")
def empty(*size: Any, dtype: D.dtype | None = None, device: Any = None,
          requires_grad: bool = False, memory_format: Any = None) -> Tensor:
    """A new tensor (minitorch fills it with zeros; torch leaves it uninitialised), laid out
    in ``memory_format`` (row-major by default).

    >>> minitorch.empty(2).shape
    torch.Size([2])
    >>> minitorch.empty(1, 2, 1, 3, memory_format=minitorch.channels_last).stride()
    (6, 1, 6, 2)
    """
    made = _filled("empty", 0, size, dtype, requires_grad, device)
    given = _layout.checked("empty", memory_format, made.ndim)
    if given is _layout.preserve_format and memory_format is not None:
        raise RuntimeError("unsupported memory format Preserve")
    return _layout.laid_out(made, _layout.format_strides(given, tuple(made.shape)))


@records("aten::full")
@_call_form.parser_types(size="int[]", fill_value="Number")  # (no lone int, as torch)
def full(size: Any, fill_value: Any, *, dtype: D.dtype | None = None, device: Any = None,
         requires_grad: bool | None = False) -> Tensor:
    """A tensor filled with ``fill_value``; its dtype follows the value like torch.

    >>> minitorch.full((2,), 7)
    tensor([7, 7])
    """
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"full(): argument 'size' (position 1) must be tuple of ints, not "
                        f"{_args.type_name(size)}")
    shape, fill_value, dtype, requires_grad = _args.parsed(
        "full", ("ints", size, "size", 1), ("number", fill_value, "fill_value", 2),
        ("dtype", dtype, "dtype", None), ("flag", requires_grad, "requires_grad", None))
    _args.non_negative("full", shape)  # torch's kernel: an empty tensor, then fill_
    if dtype is None and isinstance(fill_value, complex):
        _args.check_alloc(shape, 8)  # torch's complex64 tensor
        raise TypeError("full(): minitorch has no complex tensors; argument 'fill_value' "
                        "(position 2) must be a real number, not complex")
    dtype = dtype or D.result_type(fill_value)
    _args.check_alloc(shape, dtype.itemsize)
    if dtype is D.int64 and not isinstance(fill_value, complex) and not _fits(fill_value):
        raise _args.conversion_overflow("int64_t")
    if math.prod(shape) == 1 and dtype.name == "float16":  # fill_'s fast path
        fill_value = _args.one_half(fill_value)
    else:
        fill_value = _args.assigned(fill_value, dtype, unsigned=True)
    if dtype.name == "bool":  # any number is a truth value (an int past int64 too)
        fill_value = bool(fill_value)
    return _filled("full", fill_value, (shape,), dtype, requires_grad, device)


def _fits(value: Any) -> bool:
    """True if a Python number converts to int64 without overflow."""
    if isinstance(value, float):
        return not D.overflows(value, D.int64)
    return _args.INT64_MIN <= value <= _args.INT64_MAX


@records("aten::zeros_like")
@_args.tensors("zeros_like", input="input")
def zeros_like(input: Tensor, *, dtype: D.dtype | None = None, device: Any = None,
               requires_grad: bool | None = False, memory_format: Any = None) -> Tensor:
    """Zeros with the shape (and dtype, device) of ``input``.

    >>> minitorch.zeros_like(minitorch.ones(2))
    tensor([0., 0.])
    """
    dtype = _args.dtype("zeros_like", dtype) or input.dtype
    requires_grad = _args.flag("zeros_like", requires_grad, "requires_grad", none=True)
    strides = _layout.preserved_strides("zeros_like", input, memory_format)
    device = input.device if device is None else device
    return _layout.laid_out(zeros(tuple(input.shape), dtype=dtype, device=device,
                                  requires_grad=requires_grad), strides)


@records("aten::ones_like")
@_args.tensors("ones_like", input="input")
def ones_like(input: Tensor, *, dtype: D.dtype | None = None, device: Any = None,
              requires_grad: bool | None = False, memory_format: Any = None) -> Tensor:
    """Ones with the shape (and dtype, device) of ``input``.

    >>> minitorch.ones_like(minitorch.zeros(2))
    tensor([1., 1.])
    """
    dtype = _args.dtype("ones_like", dtype) or input.dtype
    requires_grad = _args.flag("ones_like", requires_grad, "requires_grad", none=True)
    strides = _layout.preserved_strides("ones_like", input, memory_format)
    device = input.device if device is None else device
    return _layout.laid_out(ones(tuple(input.shape), dtype=dtype, device=device,
                                 requires_grad=requires_grad), strides)


_RANDOM_SIGNATURES = tuple(
    f"tuple of ints size, *, {gen}Tensor out = None, torch.dtype dtype = None, torch.layout "
    "layout = None, torch.device device = None, bool pin_memory = False, bool requires_grad = "
    "False" for gen in ("torch.Generator generator, ", ""))
"""torch's signatures of ``rand`` and ``randn``, as its refusals list them."""


def _random(kind: str, size: tuple, dtype: D.dtype | None, requires_grad: bool,
            device: Any, generator: Any = None) -> Tensor:
    fn = "rand" if kind == "uniform" else "randn"
    if generator is not None and not isinstance(generator, Generator):
        raise _args.invalid_combination(fn, size, *_RANDOM_SIGNATURES,
                                        keywords={"generator": generator})
    _args.size_types(fn, size)
    dt = _args.dtype(fn, dtype) or D.get_default_dtype()
    requires_grad = _args.flag(fn, requires_grad, "requires_grad", none=True)
    shape = _args.sizes(fn, size, check_negative=False)
    _args.non_negative(fn, shape)
    _args.check_alloc(shape, dt.itemsize)  # torch's output, made before its kernel runs
    if not dt.is_floating_point and (kind == "uniform" or 0 not in shape):  # uniform checks
        # its bounds for the dtype even of none; normal runs no kernel for an empty tensor
        kernel = "check_uniform_bounds" if kind == "uniform" else "normal_kernel_cpu"
        raise _args.not_implemented(kernel, dt)
    array = _created(lambda xp: _sampling.draw(xp, kind, shape, dt.name, generator), device)
    return _leaf(array, requires_grad)


# the keywords of torch's creation signatures, as its messages list them
_CREATION_KEYWORDS = ("torch.dtype dtype = None, torch.layout layout = None, "
                      "torch.device device = None, bool pin_memory = False, "
                      "bool requires_grad = False")
# torch's overloads of rand and randn
_RANDOM_SIGNATURES = ("tuple of ints size, *, torch.Generator generator, Tensor out = None, "
                      f"{_CREATION_KEYWORDS}",
                      f"tuple of ints size, *, Tensor out = None, {_CREATION_KEYWORDS}")


@_call_form.overloads(*_RANDOM_SIGNATURES)
@records("aten::rand")
def rand(*size: Any, generator: Any = None, dtype: D.dtype | None = None, device: Any = None,
         requires_grad: bool = False) -> Tensor:
    """Uniform samples from [0, 1), torch's numbers for the same seed.

    >>> minitorch.rand(2, 3).shape
    torch.Size([2, 3])
    """
    return _random("uniform", size, dtype, requires_grad, device, generator)


@_call_form.overloads(*_RANDOM_SIGNATURES)
@records("aten::randn")
def randn(*size: Any, generator: Any = None, dtype: D.dtype | None = None, device: Any = None,
           requires_grad: bool = False) -> Tensor:
    """Standard normal samples, torch's numbers for the same seed.

    >>> minitorch.randn(4).shape
    torch.Size([4])
    """
    return _random("normal", size, dtype, requires_grad, device, generator)


@_call_form.overloads(f"Number end, *, Tensor out = None, {_CREATION_KEYWORDS}",
                      f"Number start, Number end, *, {_CREATION_KEYWORDS}",
                      "Number start, Number end, Number step = 1, *, Tensor out = None, "
                      f"{_CREATION_KEYWORDS}")
@records("aten::arange")
def arange(start: Any = _args.OMITTED, end: Any = _args.OMITTED, step: Any = 1, *,
           dtype: D.dtype | None = None, device: Any = None,
           requires_grad: bool = False) -> Tensor:
    """``start, start+step, ...`` below ``end``; int64 for int arguments, else float32.

    >>> minitorch.arange(3), minitorch.arange(end=2)
    (tensor([0, 1, 2]), tensor([0, 1]))
    """
    if start is end is _args.OMITTED:  # (torch's parser: none of its forms takes no end)
        raise TypeError(_call_form.combination_message("arange", (), {},
                                                       arange.torch_signatures))
    if _args.OMITTED in (start, end):  # arange(end), its end given by place or by name
        start, end, step, dtype, requires_grad = 0, *_args.parsed(
            "arange", ("number", end if start is _args.OMITTED else start, "end", 1),
            ("number", step, "step", 3),
            ("dtype", dtype, "dtype", None), ("flag", requires_grad, "requires_grad", None))
    else:
        start, end, step, dtype, requires_grad = _args.parsed(
            "arange", ("number", start, "start", 1), ("number", end, "end", 2),
            ("number", step, "step", 3), ("dtype", dtype, "dtype", None),
            ("flag", requires_grad, "requires_grad", None))
    if dtype is D.bool:
        raise _args.not_implemented("arange_cpu", dtype)
    start, end, step = (_args.double_of(v) for v in (start, end, step))
    dt = dtype or D.result_type(start, end, step)
    if dt is D.bool:  # (bools given, read as ints)
        dt = D.int64
    start, end, step, length = _range_checked(start, end, step, dt)
    name = dt.name
    if name in ("float32", "float64"):  # torch's float64 steps, as its kernel rounds them
        array = _created(lambda xp: _fused.arange(xp, float(start), float(step), length,
                                                  backend.array_dtype(xp, name)), device)
    else:
        # (a type of one or two bytes repeats after 2**bits values: one round is counted)
        period = min(length, 2 ** (8 * dt.itemsize)) if dt.itemsize < 4 and \
            not dt.is_floating_point else length
        array = _created(lambda xp: _counted(xp, start, step, length, period,
                                             backend.array_dtype(xp, name)), device)
    return _leaf(array, requires_grad)


def _counted(xp: Any, start: Any, step: Any, length: int, period: int, dtype: Any) -> Any:
    """``start + step * i`` for ``i < length`` in int64 as torch's kernel counts, then cast
    to ``dtype`` (an integer type wraps; float16 rounds), for a dtype whose values repeat
    after ``period``: one round is counted and repeated, so ``arange(2**31, dtype=int8)``
    does not count 2**31 int64s first (16 GiB)."""
    values = xp.astype(start + step * xp.arange(period, dtype=xp.int64), dtype)
    if period == length:
        return values
    rounds = -(-length // period)
    return xp.reshape(xp.broadcast_to(values, (rounds, period)), (-1,))[:length]


def check_range_bounds(start: Any, end: Any, step: Any) -> None:
    """torch's checks of a range's bounds and step, shared by ``arange`` and ``range``.

    >>> check_range_bounds(0, 1, -1)
    Traceback (most recent call last):
    RuntimeError: upper bound and lower bound inconsistent with step sign
    """
    if not (step > 0 or step < 0):
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError(f"unsupported range: {start:g} -> {end:g}")
    if (step > 0 and end < start) or (step < 0 and end > start):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")


def _range_checked(start: Any, end: Any, step: Any, dt: D.dtype) -> tuple:
    """torch's checks of an arange, and its bounds, step and length; an integer dtype
    truncates the bounds and step first. The length comes from the truncated numbers for
    int64, but from the numbers as given for the narrower integer dtypes, as torch's kernel
    counts (``arange(3.5, dtype=int64)`` has 3 values, ``arange(3.5, dtype=int32)`` 4)."""
    check_range_bounds(start, end, step)
    given = (start, end, step)
    if not dt.is_floating_point:  # the kernel reads start and step in int64 (int64's end
        # too; a narrower type's end only counts the length, as a double)
        if not all(_fits(v) for v in ((start, end, step) if dt is D.int64 else (start, step))):
            raise _args.conversion_overflow("int64_t")
        start, end, step = int(start), int(end), int(step)
        if step == 0 and dt is D.int64:  # narrower dtypes count with the step as given
            raise ValueError("step must be nonzero")
    if ((end - start) / step if dt is D.int64 else (given[1] - given[0]) / given[2]) > \
            float(_args.INT64_MAX):  # (as doubles: 2**63 passes, then wraps below)
        raise RuntimeError("invalid size, possible overflow?")
    if dt is D.int64:  # torch counts in int64 arithmetic, which wraps
        span = D.wrapped(end - start + step - (1 if step > 0 else -1), D.int64)
        length = abs(span) // abs(step) * (1 if (span >= 0) == (step > 0) else -1)
        if length < 0:
            raise RuntimeError("invalid size, possible overflow?")
        length = int(float(length))  # (torch's ceil of it, a double)
    else:
        length = math.ceil((given[1] - given[0]) / given[2] if not dt.is_floating_point
                           else (end - start) / step)
    length = max(length, 0)
    if float(length) >= 2.0 ** 63:  # torch's length, a double, cast to int64
        _args.symint(_args.INT64_MIN)
    _args.check_alloc((length,), dt.itemsize)
    return start, end, step, length


_FACTORY_KEYWORDS = f"*, Tensor out = None, {_CREATION_KEYWORDS}"


@_call_form.overloads(f"int n, {_FACTORY_KEYWORDS}", f"int n, int m, {_FACTORY_KEYWORDS}")
def eye(n: int, m: int | None = _args.OMITTED, *, dtype: D.dtype | None = None, device: Any = None,
        requires_grad: bool = False) -> Tensor:
    """The identity matrix.

    >>> minitorch.eye(2)
    tensor([[1., 0.],
            [0., 1.]])
    """
    dtype = _args.dtype("eye", dtype) or D.get_default_dtype()  # types before values
    if m is _args.OMITTED:
        n = m = _args.integer("eye", n, "n", 1)
    else:
        n, m = _args.integers("eye", (n, "n", 1), (m, "m", 2))
    for name, value in (("n", n), ("m", m)):
        if value < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {value}")
    _args.check_numel((n, m))  # its numel, before the storage's bytes
    _args.check_alloc((n, m), dtype.itemsize)
    dt = dtype.name
    array = _created(lambda xp: xp.eye(n, m, dtype=backend.array_dtype(xp, dt)), device)
    return _leaf(array, _args.flag("eye", requires_grad, "requires_grad", none=True))

