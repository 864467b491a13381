"""Data types and torch's type-promotion rules.

A minitorch ``dtype`` names one of torch's real array types (bool, the signed integers,
uint8, float16/32/64). Promotion follows torch: a tensor with
dimensions outranks a 0-d tensor, which outranks a Python scalar, unless the lower-ranked
operand belongs to a higher category (bool < integer < floating point).

>>> import minitorch
>>> (minitorch.ones(2) * 2.5).dtype          # a Python float does not upcast float32
torch.float32
>>> (minitorch.tensor([1, 2]) / 2).dtype     # int / int gives the default float
torch.float32
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._args import (
    TorchCType,
    int_overflow,
    invalid_combination,
    operand,
    tensor_or_number,
    type_c_name,
    type_name,
    unpack_int,
)
from ._args import dtype as dtype_argument
from ._call_form import overloads

__all__ = ["bool", "dtype", "finfo", "float16", "float32", "float64", "get_default_dtype", "iinfo",
           "int8", "int16", "int32", "int64", "promote_types", "result_type", "set_default_dtype",
           "uint8"]

_BOOL, _INT, _FLOAT = 0, 1, 2
_PY_BOOL = bool  # this module rebinds the name ``bool`` to the dtype
_INT64_MAX = 2 ** 63 - 1


class Uncreatable(TorchCType):
    """The type of torch's classes whose instances are all made by torch itself (``dtype``,
    ``layout``, ``memory_format``): calling the class is refused in torch's words;
    :meth:`made` makes the ones that exist.

    >>> minitorch.dtype()
    Traceback (most recent call last):
    TypeError: cannot create 'torch.dtype' instances
    """

    def __call__(cls, *args: object, **kwargs: object) -> None:
        raise TypeError(f"cannot create '{type_c_name(cls)}' instances")

    def made(cls, *args: object) -> object:
        """The instance of ``cls`` that ``args`` describe (its ``__init__``'s)."""
        instance = cls.__new__(cls)
        instance.__init__(*args)
        return instance


class dtype(metaclass=Uncreatable):
    """A tensor element type, e.g. ``minitorch.float32``, printed as torch prints it.

    >>> minitorch.float64.is_floating_point
    True
    """

    __slots__ = ("_category", "c_scalar", "c_type", "is_floating_point", "is_signed", "itemsize",
                 "legacy", "name", "np")

    def __init__(self, name: str, category: int, legacy: str, c_type: str,
                 c_scalar: str | None = None) -> None:
        self.name = name
        self.np = np.dtype(name)
        self.itemsize = self.np.itemsize
        self._category = category
        self.is_floating_point = category == _FLOAT  # an attribute: ops ask it all the time
        self.is_signed = category == _FLOAT or name.startswith("int")
        self.legacy = legacy  # torch's kernel-message name, "Int"; its tensor type is IntTensor
        self.c_type = c_type  # the C++ type torch's messages print, "int"
        self.c_scalar = c_scalar or c_type  # the one its overflow errors print, "int16_t"

    @property
    def is_complex(self) -> _PY_BOOL:
        """False: minitorch has no complex dtypes."""
        return False

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self) -> str:
        return self.name

    def to_real(self) -> dtype:
        """The real dtype of this one: itself (minitorch's dtypes are all real).

        >>> minitorch.float32.to_real()
        torch.float32
        """
        return self

    def to_complex(self) -> dtype:
        """The complex dtype of this one: torch refuses it for integer and bool dtypes, and
        minitorch has no complex dtypes for the floating ones.

        >>> minitorch.int64.to_complex()
        Traceback (most recent call last):
        RuntimeError: Unknown Complex ScalarType for Long
        """
        if not self.is_floating_point:
            raise RuntimeError(f"Unknown Complex ScalarType for {self.legacy}")
        raise TypeError(f"minitorch has no complex dtypes: {self!r} has none (torch's would be "
                        f"{_COMPLEX_OF[self.name]})")


_COMPLEX_OF = {"float16": "torch.complex32", "float32": "torch.complex64",
               "float64": "torch.complex128"}
float16 = dtype.made("float16", _FLOAT, "Half", "c10::Half")
float32 = dtype.made("float32", _FLOAT, "Float", "float")
float64 = dtype.made("float64", _FLOAT, "Double", "double")
uint8 = dtype.made("uint8", _INT, "Byte", "unsigned char", "uint8_t")
int8 = dtype.made("int8", _INT, "Char", "signed char", "int8_t")
int16 = dtype.made("int16", _INT, "Short", "short int", "int16_t")
int32 = dtype.made("int32", _INT, "Int", "int")
int64 = dtype.made("int64", _INT, "Long", "long int", "int64_t")
bool = dtype.made("bool", _BOOL, "Bool", "bool")

ALL = (bool, uint8, int8, int16, int32, int64, float16, float32, float64)
_BY_NAME = {d.name: d for d in ALL}
_BY_NUMPY_DTYPE_CLASS: dict = {}  # numpy dtype class -> minitorch dtype, filled on first sight


class _TypeInfo(metaclass=TorchCType):
    """What ``finfo`` and ``iinfo`` share: numpy's limits of a dtype, printed as torch's."""

    _FIELDS: tuple[str, ...] = ()

    def __init__(self, args: tuple, kwargs: dict, category: int, other: str) -> None:
        mine = "finfo" if category == _FLOAT else "iinfo"
        type, where = _type_argument(mine, args, kwargs)
        if not isinstance(type, dtype):  # torch's parser reads Python's number types as dtypes
            python = ((float, float64), (int, int64), (_PY_BOOL, bool), (complex, float64))
            type = next((d for t, d in python if type is t), type)  # complex: its real part's
            if not isinstance(type, dtype):
                raise TypeError(f"{mine}(): argument 'type'{where} must be torch.dtype, not "
                                f"{type_name(type)}")
        if type._category != category:
            if type._category == _BOOL and category == _INT:
                raise TypeError("torch.bool is not supported by torch.iinfo")
            kind = "a floating point" if category == _FLOAT else "an integer"
            raise TypeError(f"torch.{mine}() requires {kind} input type. Use torch.{other} "
                            f"to handle 'torch.{mine}'")
        self.dtype = type.name
        self.bits = type.itemsize * 8
        self._read(type.np)

    def _read(self, np_dtype: np.dtype) -> None:
        """Set the limits from numpy's."""

    def __eq__(self, other: object) -> _PY_BOOL:
        return type(other) is type(self) and other.dtype == self.dtype

    def __hash__(self) -> int:
        return hash((type(self), self.dtype))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name):g}" for name in self._FIELDS)
        return f"{type(self).__name__}({fields}, dtype={self.dtype})"


def _type_argument(name: str, args: tuple, kwargs: dict) -> tuple:
    """``(type, where)``: the ``type`` argument of ``finfo`` or ``iinfo`` as torch's parser
    reads it (``where``: its position, as its messages name it), or its refusal of the
    call. iinfo's one signature is ``(torch.dtype type)``; finfo's ``()`` too, which is the
    default dtype.

    >>> _type_argument("iinfo", (int32, 1), {})
    Traceback (most recent call last):
    TypeError: iinfo() takes 1 positional argument but 2 were given
    """
    count = len(args) + len(kwargs)
    if name == "finfo" and count > 1:  # neither of its signatures takes two
        raise invalid_combination(name, args, "torch.dtype type", "", keywords=kwargs)
    if len(args) > 1:
        raise TypeError(f"{name}() takes 1 positional argument but {len(args)} were given")
    if args and "type" in kwargs:
        raise TypeError(f"{name}() got multiple values for argument 'type'")
    if not args and "type" not in kwargs:
        if count or name == "iinfo":  # (another keyword: type missing, the parser's first)
            raise TypeError(f'{name}() missing 1 required positional arguments: "type"')
        return _default[0], ""
    unknown = next((k for k in kwargs if k != "type"), None)
    if unknown is not None:
        raise TypeError(f"{name}() got an unexpected keyword argument '{unknown}'")
    return (args[0], " (position 1)") if args else (kwargs["type"], "")


class finfo(_TypeInfo):
    """The limits of a floating-point dtype (the default dtype when none is given).

    >>> minitorch.finfo(minitorch.float32).eps
    1.1920928955078125e-07
    >>> minitorch.finfo(minitorch.float64)
    finfo(resolution=1e-15, min=-1.79769e+308, max=1.79769e+308, eps=2.22045e-16, \
smallest_normal=2.22507e-308, tiny=2.22507e-308, dtype=float64)
    """

    _FIELDS = ("resolution", "min", "max", "eps", "smallest_normal", "tiny")

    def __init__(self, *args: Any, **kwargs: Any) -> None:  # (type: dtype = the default)
        super().__init__(args, kwargs, _FLOAT, "iinfo")

    def _read(self, np_dtype: np.dtype) -> None:
        info = np.finfo(np_dtype)
        self.eps, self.max, self.min = float(info.eps), float(info.max), float(info.min)
        self.tiny = self.smallest_normal = float(info.smallest_normal)
        self.resolution = 10.0 ** -info.precision  # torch: a double, not a rounded float32


class iinfo(_TypeInfo):
    """The limits of an integer dtype.

    >>> minitorch.iinfo(minitorch.int64).max
    9223372036854775807
    """

    _FIELDS = ("min", "max")

    def __init__(self, *args: Any, **kwargs: Any) -> None:  # (type: dtype)
        super().__init__(args, kwargs, _INT, "finfo")

    def _read(self, np_dtype: np.dtype) -> None:
        info = np.iinfo(np_dtype)
        self.max, self.min = int(info.max), int(info.min)


def overflows(value: _PY_BOOL | int | float, type: dtype) -> _PY_BOOL:
    """Whether a Python number is out of ``type``'s range, as torch's checked conversions
    decide (c10::overflows): an unsigned type takes an int down to minus its maximum (it
    wraps), a float must lie within the limits, nan fits only a floating type.

    >>> overflows(-1, uint8), overflows(-1.5, uint8), overflows(1e5, float16)
    (False, True, True)
    """
    if type._category == _FLOAT:
        return math.isfinite(value) and abs(value) > finfo(type).max
    if type is bool:
        return False
    info = iinfo(type)
    low = -info.max if isinstance(value, int) and not type.is_signed else info.min
    if isinstance(value, float):  # compared as doubles: 2.0**63 is int64's max as a double
        return not float(low) <= value <= float(info.max)  # nan compares False: it overflows
    return not low <= value <= info.max


def rounded(value: float, type: dtype) -> float:
    """A double as C's cast reads it into the floating ``type`` (past its largest an
    infinity, not a refusal), read back as a double.

    >>> rounded(1e-46, float32), rounded(1e39, float32), rounded(0.1, float64)
    (0.0, inf, 0.1)
    """
    with np.errstate(over="ignore"):
        return float(np.asarray(value, dtype=type.name))


def wrapped(value: int, type: dtype) -> int:
    """A Python int as an integer ``type`` holds it: its low bits, two's complement.

    >>> wrapped(300, uint8), wrapped(200, int8)
    (44, -56)
    """
    bits = type.itemsize * 8
    value &= (1 << bits) - 1
    return value - (1 << bits) if type.is_signed and value >> (bits - 1) else value


_default = [float32]  # a list: set_default_dtype rebinds its item, importers keep the list


def get_default_dtype() -> dtype:
    """The dtype of floating-point tensors made from Python floats (float32 unless set).

    >>> get_default_dtype()
    torch.float32
    """
    return _default[0]


def set_default_dtype(d: dtype, /) -> None:
    """Make ``d`` (float32 or float64) the dtype of new floating-point tensors; torch's
    message says first when ``d`` is no dtype at all.

    >>> set_default_dtype(float64); minitorch.tensor([1.]).dtype
    torch.float64
    >>> set_default_dtype(float32)
    >>> set_default_dtype("float64")
    Traceback (most recent call last):
    TypeError: invalid dtype object: only floating-point types are supported as the default type
    """
    if not isinstance(d, dtype) or not d.is_floating_point:
        raise TypeError(("" if isinstance(d, dtype) else "invalid dtype object: ") +
                        "only floating-point types are supported as the default type")
    _default[0] = d


def from_array_dtype(array_dtype: object) -> dtype:
    """The minitorch dtype of an array's dtype; torch's others (uint16, complex...) refused.

    >>> from_array_dtype(np.dtype("float64"))
    torch.float64
    """
    try:  # numpy (and CuPy) have one dtype class per type: a fast key that never compares
        return _BY_NUMPY_DTYPE_CLASS[type(array_dtype)]
    except KeyError:
        pass
    name = str(array_dtype).rpartition(".")[2]  # "array_api_strict.float64" is "float64"
    try:
        found = _BY_NAME[name]
    except KeyError:
        raise TypeError(f"minitorch supports {', '.join(d.name for d in ALL)} tensors, not "
                        f"{name}") from None
    if isinstance(array_dtype, np.dtype):
        _BY_NUMPY_DTYPE_CLASS[type(array_dtype)] = found
    return found


def _promote(a: dtype, b: dtype) -> dtype:
    if a is b:
        return a
    if a._category != b._category:
        return a if a._category > b._category else b
    if a.is_signed != b.is_signed:  # uint8 with a signed int: one that holds both
        signed = a if a.is_signed else b
        return signed if signed.itemsize > 1 else int16
    return a if a.itemsize >= b.itemsize else b


def can_cast(from_: dtype, to: dtype) -> _PY_BOOL:
    """Whether torch's type promotion may cast ``from_`` to ``to``: no floating value into an
    integer, no number into a bool.

    >>> can_cast(float32, int64), can_cast(int64, int8), can_cast(uint8, bool)
    (False, True, False)
    """
    from_, to = (dtype_argument("can_cast", value, name, position, none=False)
                 for position, (name, value) in enumerate((("from_", from_), ("to", to)), 1))
    return from_._category <= to._category


def promote_types(type1: dtype, type2: dtype) -> dtype:
    """The smallest dtype both ``type1`` and ``type2`` convert to without losing their kind.

    >>> promote_types(minitorch.uint8, minitorch.int8)
    torch.int16
    >>> promote_types(minitorch.int64, minitorch.float16)
    torch.float16
    """
    type1, type2 = (dtype_argument("promote_types", d, f"type{position}", position, none=False)
                    for position, d in enumerate((type1, type2), 1))  # (Python's types too)
    return _promote(type1, type2)


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


@overloads("Tensor tensor, Tensor other", "Number scalar, Tensor tensor",
           "Tensor tensor, Number other", "Number scalar1, Number scalar2")
def result_type_of_two(tensor: object, other: object) -> dtype:
    """torch's ``result_type``: the dtype of an operation on two operands, each a tensor or
    a number (minitorch's ``result_type``).

    >>> result_type_of_two(minitorch.tensor([1, 2]), 0.5)
    torch.float32
    """
    tensor_or_number("result_type", tensor, "tensor", 1)
    tensor_or_number("result_type", other, "other", 2)
    unpack_int(other)  # the parser's, right to left, before any promotion
    unpack_int(tensor)
    check_unsigned(tensor, other)
    return result_type(tensor, other)


def uint64_promotion(first: str, second: str) -> RuntimeError:
    """torch's refusal to promote a uint64 (an int past int64) with the dtype ``second``
    (torch's names of the two, in the order it met them).

    >>> print(uint64_promotion("Bool", "UInt64"))
    Promotion for uint16, uint32, uint64 types is not supported, attempted to promote Bool \
and UInt64
    """
    return RuntimeError("Promotion for uint16, uint32, uint64 types is not supported, "
                        f"attempted to promote {first} and {second}")


def _is_uint64(value: object) -> bool:
    """Whether torch reads the Python number ``value`` as a uint64: an int past int64."""
    return type(value) is int and _INT64_MAX < value < 2 ** 64


def check_unsigned(a: object, b: object) -> None:
    """An int above int64 reads as uint64 in torch, which a bool tensor cannot promote with,
    nor (both numbers, as ``where`` takes them) a bool or an int64 number."""
    if type(a) in (int, _PY_BOOL) and type(b) in (int, _PY_BOOL):
        names = ["UInt64" if _is_uint64(v) else "Bool" if type(v) is _PY_BOOL else "Long"
                 for v in (a, b)]
        if names.count("UInt64") == 1:
            raise uint64_promotion(*names)
    for value, other in ((a, b), (b, a)):
        if _is_uint64(value) and getattr(other, "dtype", None) is bool:
            raise uint64_promotion("Bool", "UInt64")


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
    if _combine(dim, zero) is bool and any(map(_is_uint64, operands)):
        raise uint64_promotion("Bool", "UInt64")  # an int past int64 is a uint64 to torch
    return _combine(dim, _combine(zero, scalar))
