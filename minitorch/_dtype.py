"""Data types and torch's type-promotion rules.

A minitorch ``dtype`` names one of four array types. Promotion follows torch: a tensor with
dimensions outranks a 0-d tensor, which outranks a Python scalar, unless the lower-ranked
operand belongs to a higher category (bool < integer < floating point).

>>> import minitorch
>>> (minitorch.ones(2) * 2.5).dtype          # a Python float does not upcast float32
torch.float32
>>> (minitorch.tensor([1, 2]) / 2).dtype     # int / int gives the default float
torch.float32
"""

from __future__ import annotations

import numpy as np

from ._args import int_overflow, operand

__all__ = ["bool", "dtype", "finfo", "float32", "float64", "get_default_dtype", "iinfo", "int64",
           "result_type", "set_default_dtype"]

_BOOL, _INT, _FLOAT = 0, 1, 2
_PY_BOOL = bool  # this module rebinds the name ``bool`` to the dtype


class dtype:
    """A tensor element type, e.g. ``minitorch.float32``, printed as torch prints it.

    >>> minitorch.float64.is_floating_point
    True
    """

    __slots__ = ("_category", "is_floating_point", "itemsize", "name", "np")

    def __init__(self, name: str, np_dtype: type, category: int) -> None:
        self.name = name
        self.np = np.dtype(np_dtype)
        self.itemsize = self.np.itemsize
        self._category = category
        self.is_floating_point = category == _FLOAT  # an attribute: ops ask it all the time

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self) -> str:
        return self.name

    # minitorch's dtypes are all real: nothing complex, and each is its own real form
    is_complex = property(lambda self: False, doc="False: minitorch has no complex dtypes.")
    is_signed = property(lambda self: self.np.kind in "fi", doc="Whether it holds negatives.")

    def to_real(self) -> dtype:
        """The real dtype of this one: itself.

        >>> minitorch.float32.to_real()
        torch.float32
        """
        return self


float32 = dtype("float32", np.float32, _FLOAT)
float64 = dtype("float64", np.float64, _FLOAT)
int64 = dtype("int64", np.int64, _INT)
bool = dtype("bool", np.bool_, _BOOL)

_BY_NAME = {d.name: d for d in (float32, float64, int64, bool)}
_BY_NUMPY_DTYPE_CLASS: dict = {}  # numpy dtype class -> minitorch dtype, filled on first sight
_WIDENED = {"int8": "int64", "int16": "int64", "int32": "int64", "uint8": "int64",
            "uint16": "int64", "uint32": "int64", "float16": "float32"}


class _TypeInfo:
    """What ``finfo`` and ``iinfo`` share: numpy's limits of a dtype, printed as torch's."""

    _FIELDS: tuple[str, ...] = ()

    def __init__(self, type: dtype, category: int, other: str) -> None:
        mine = "finfo" if category == _FLOAT else "iinfo"
        if type._category != category:
            if type._category == _BOOL and category == _INT:
                raise TypeError("torch.bool is not supported by torch.iinfo")
            kind = "a floating point" if category == _FLOAT else "an integer"
            raise TypeError(f"torch.{mine}() requires {kind} input type. Use torch.{other} "
                            f"to handle 'torch.{mine}'")
        self.dtype = type.name
        self.bits = type.itemsize * 8

    def __eq__(self, other: object) -> _PY_BOOL:
        return type(other) is type(self) and other.dtype == self.dtype

    def __hash__(self) -> int:
        return hash((type(self), self.dtype))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name):g}" for name in self._FIELDS)
        return f"{type(self).__name__}({fields}, dtype={self.dtype})"


class finfo(_TypeInfo):
    """The limits of a floating-point dtype (the default dtype when none is given).

    >>> minitorch.finfo(minitorch.float32).eps
    1.1920928955078125e-07
    >>> minitorch.finfo(minitorch.float64)
    finfo(resolution=1e-15, min=-1.79769e+308, max=1.79769e+308, eps=2.22045e-16, \
smallest_normal=2.22507e-308, tiny=2.22507e-308, dtype=float64)
    """

    _FIELDS = ("resolution", "min", "max", "eps", "smallest_normal", "tiny")

    def __init__(self, type: dtype | None = None) -> None:
        type = type or _default[0]
        super().__init__(type, _FLOAT, "iinfo")
        info = np.finfo(type.np)
        self.eps, self.max, self.min = float(info.eps), float(info.max), float(info.min)
        self.tiny = self.smallest_normal = float(info.smallest_normal)
        self.resolution = 10.0 ** -info.precision  # torch: a double, not a rounded float32


class iinfo(_TypeInfo):
    """The limits of an integer dtype.

    >>> minitorch.iinfo(minitorch.int64).max
    9223372036854775807
    """

    _FIELDS = ("min", "max")

    def __init__(self, type: dtype) -> None:
        super().__init__(type, _INT, "finfo")
        info = np.iinfo(type.np)
        self.max, self.min = int(info.max), int(info.min)


_default = [float32]  # a list: set_default_dtype rebinds its item, importers keep the list


def get_default_dtype() -> dtype:
    """The dtype of floating-point tensors made from Python floats (float32 unless set).

    >>> get_default_dtype()
    torch.float32
    """
    return _default[0]


def set_default_dtype(d: dtype) -> None:
    """Make ``d`` (float32 or float64) the dtype of new floating-point tensors.

    >>> set_default_dtype(float64); minitorch.tensor([1.]).dtype
    torch.float64
    >>> set_default_dtype(float32)
    """
    if not isinstance(d, dtype) or not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _default[0] = d


def from_array_dtype(array_dtype: object) -> dtype:
    """The minitorch dtype of an array's dtype; lossless widening for small ints and float16.

    >>> from_array_dtype(np.dtype("float64"))
    torch.float64
    """
    try:  # numpy (and CuPy) have one dtype class per type: a fast key that never compares
        return _BY_NUMPY_DTYPE_CLASS[type(array_dtype)]
    except KeyError:
        pass
    name = str(array_dtype).rpartition(".")[2]  # "array_api_strict.float64" is "float64"
    name = _WIDENED.get(name, name)
    try:
        found = _BY_NAME[name]
    except KeyError:
        raise TypeError(
            f"minitorch supports float32, float64, int64 and bool tensors, not {name}"
        ) from None
    if isinstance(array_dtype, np.dtype):
        _BY_NUMPY_DTYPE_CLASS[type(array_dtype)] = found
    return found


def _promote(a: dtype, b: dtype) -> dtype:
    if a is b:
        return a
    if a._category != b._category:
        return a if a._category > b._category else b
    return a if a.itemsize >= b.itemsize else b


def _scalar_dtype(value: object) -> dtype:
    if isinstance(value, (_PY_BOOL, np.bool_)):
        return bool
    if isinstance(value, (int, np.integer)):
        if type(value) is int and not -2 ** 63 <= value < 2 ** 64:  # not even uint64
            raise int_overflow(value)
        return int64
    if isinstance(value, (float, np.floating)):
        return _default[0]
    if isinstance(value, complex):
        raise TypeError(f"minitorch has no complex tensors: it cannot compute with {value!r}")
    raise TypeError(f"unsupported operand type: {type(value).__name__}")



def _combine(higher: dtype | None, lower: dtype | None) -> dtype | None:
    """torch's rule for joining two priority groups (dimensioned over 0-d over scalars)."""
    if higher is None:
        return lower
    if lower is None or higher._category == _FLOAT:
        return higher
    if higher is bool or lower._category == _FLOAT:
        return _promote(higher, lower)
    return higher


def result_type(*operands: object) -> dtype:
    """The dtype torch computes for an operation on these tensors and Python scalars.

    >>> result_type(minitorch.tensor([1, 2]), 0.5)
    torch.float32
    """
    dim = zero = scalar = None
    for op in operands:
        d = getattr(op, "dtype", None)
        if d is not None and not isinstance(d, dtype):  # a numpy scalar reads as a number
            op, d = operand(op), None
        if d is None:
            s = _scalar_dtype(op)
            scalar = s if scalar is None else _promote(scalar, s)
        elif op.ndim:
            dim = d if dim is None else _promote(dim, d)
        else:
            zero = d if zero is None else _promote(zero, d)
    return _combine(dim, _combine(zero, scalar))
