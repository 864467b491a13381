"""Argument checks at the public boundary, one function per kind of argument, with torch's
exception types and messages.

The ops trust what these return: a size is a tuple of Python ints, a dim is a wrapped int in
range, a flag is a bool. Each check costs a type test on the common path.

>>> dim("sum", 1, 2), sizes("zeros", (2, 3))
(1, (2, 3))
>>> dim("size", 5, 2)
Traceback (most recent call last):
IndexError: Dimension out of range (expected to be in range of [-2, 1], but got 5)
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import math
import numbers as _numbers
import operator
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from typing import Any

INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1


class _Omitted:
    """The default of an optional argument that torch does not let be None."""

    def __repr__(self) -> str:
        return "<omitted>"


OMITTED: Any = _Omitted()


def required(fn: str, value: Any, name: str) -> Any:
    """A required argument left out (its default ``OMITTED``) gets torch's TypeError.

    >>> required("softmax", OMITTED, "dim")
    Traceback (most recent call last):
    TypeError: softmax() missing 1 required positional arguments: "dim"
    """
    if value is OMITTED:
        raise TypeError(f'{fn}() missing 1 required positional arguments: "{name}"')
    return value


def missing(fn: str, *given: tuple) -> None:
    """torch's parser's refusal of required arguments left out, ``(value, name)`` pairs
    (``OMITTED`` where left out), all named at once in its words (its plural: "argument"
    for several, "arguments" for one).

    >>> missing("dropout", (OMITTED, "p"), (OMITTED, "train"))
    Traceback (most recent call last):
    TypeError: dropout() missing 2 required positional argument: "p", "train"
    """
    names = [name for value, name in given if value is OMITTED]
    if names:
        listed = ", ".join(f'"{name}"' for name in names)
        raise TypeError(f"{fn}() missing {len(names)} required positional argument"
                        f"{'s' if len(names) == 1 else ''}: {listed}")


def type_name(value: Any) -> str:
    """The type of ``value`` as torch's messages name it.

    >>> import numpy as np
    >>> import minitorch
    >>> type_name(2.5), type_name(np.int64(2)), type_name(minitorch.Size([2]))
    ('float', 'numpy.int64', 'torch.Size')
    >>> from fractions import Fraction
    >>> type_name(Fraction(1))  # a class written in Python: its bare name, as torch's
    'Fraction'
    """
    return class_name(type(value))


def class_name(kind: type) -> str:
    """A class's name as torch's messages give it (its C type's ``tp_name``), as
    :func:`type_name` of an instance.

    >>> import numpy as np
    >>> class_name(np.float32), class_name(float)
    ('numpy.float32', 'float')
    """
    module, name = kind.__module__, type_c_name(kind)
    if module.split(".")[0] in ("minitorch", "torch"):  # (torch's C types say torch.X)
        return name
    if module == "builtins" or kind.__flags__ & _HEAP_TYPE:
        return name  # the type object's name, which for a class defined in Python is bare
    return f"{module.split('.')[0]}.{name}"


_HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: set on classes made by a class statement


def type_c_name(kind: type) -> str:
    """The name Python's own messages give ``kind`` (its ``tp_name``): ``torch.Size`` for a
    :class:`TorchCType`, else its ``__name__``.

    >>> import minitorch
    >>> type_c_name(minitorch.Size), minitorch.Size.__name__
    ('torch.Size', 'Size')
    """
    return type.__dict__["__name__"].__get__(kind)


class TorchCType(type):
    """The metaclass of minitorch's twins of torch's C types (``torch.dtype``, ``torch.Size``,
    ...): Python's own messages (an operator's, an attribute's) name such a type
    ``torch.Size``, as torch's C name, while its ``__name__`` is the last part, as a C
    type's; ``c_name=`` gives another C name.

    >>> class Size(tuple, metaclass=TorchCType): __module__ = "minitorch.doctest"
    >>> Size.__name__, type_c_name(Size)
    ('Size', 'torch.Size')
    >>> Size().shape
    Traceback (most recent call last):
    AttributeError: 'torch.Size' object has no attribute 'shape'
    """

    def __new__(mcs, name: str, bases: tuple, namespace: dict,
                c_name: str | None = None) -> TorchCType:
        cls = super().__new__(mcs, name, bases, namespace)
        if namespace.get("__module__", "").split(".")[0] in ("minitorch", "torch"):  # (not a
            # user's subclass)
            type.__dict__["__name__"].__set__(cls, c_name or f"torch.{name}")
        return cls

    @property
    def __name__(cls) -> str:  # type: ignore[override]
        return cls.__qualname__.rpartition(".")[2]


def as_int(value: Any) -> int | None:
    """``value`` as an int if torch takes it where an int is expected (ints, numpy ints,
    one-element integer tensors; never bools or floats), else None.

    >>> as_int(3), as_int(2.0), as_int(True)
    (3, None, None)
    """
    if type(value) is int:
        return value
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


# torch's int64 parameters, where its parser takes a tensor only if it is 0-d (its SymInt ones,
# sizes, ``k``, ``index``, ``length``, eye's ``n``, take any one-element integer tensor)
_INT64_PARAMETERS = frozenset(("offset", "chunks", "bins", "num_classes", "decimals", "row",
                               "col", "r", "start_dim", "end_dim", "size", "step", "from", "to",
                               "source", "destination", "p", "steps"))
# int64 parameters whose name is a SymInt elsewhere (eye's ``n``, an fft's ``n``)
_INT64_OF = frozenset((("diff", "n"), ("polygamma", "n"), ("polygamma_", "n"),
                       ("hsplit", "sections"), ("vsplit", "sections"), ("dsplit", "sections"),
                       ("diag", "diagonal"), ("rot90", "k")))


def as_param_int(value: Any, name: str, fn: str = "") -> int | None:
    """``value`` as an int for torch's parameter ``name``: as :func:`as_int`, but an int64
    parameter (a dim, ``offset``, ``chunks``, ...) takes a tensor only if it is 0-d and not
    bool, and never a numpy array (its SymInt ones take a 0-d one by ``__index__``).

    >>> import minitorch, numpy as np
    >>> as_param_int(minitorch.tensor([2]), "k"), as_param_int(minitorch.tensor([2]), "dim")
    (2, None)
    >>> as_param_int(np.array(2), "k"), as_param_int(np.array(2), "dim")
    (2, None)
    """
    int64 = name.startswith(("dim", "axis")) or name in _INT64_PARAMETERS or \
        (fn, name) in _INT64_OF
    if int64 and ((is_tensor(value) and (value.dim() or value.dtype.name == "bool")) or
                  type(value).__name__ == "ndarray"):
        return None  # (torch's parser takes a 0-d integral tensor, never a bool one)
    return as_int(value)


def sizes_by_keyword(keyword: str, name: str | None = None
                     ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``fn(input, *values)`` (torch's ``name``, ``fn``'s own by default) that also takes its
    values by torch's keyword, as a tuple or list (``x.permute(dims=(1, 0))``); a bare int is
    refused there, as torch's parser does. An unknown keyword is refused after the values,
    as torch's parser reads its parameters before it looks for keywords left over.

    >>> import minitorch
    >>> minitorch.arange(6).reshape(shape=(2, 3)).shape
    torch.Size([2, 3])
    >>> minitorch.arange(6).reshape(2.5, foo=1)
    Traceback (most recent call last):
    TypeError: reshape(): argument 'shape' (position 1) must be tuple of ints, not float
    """
    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def called(input: Any, *values: Any, **kwargs: Any) -> Any:
            if keyword not in kwargs:
                if kwargs:  # the values' types before the keywords' (unknown ones too),
                    # of a list its first item (the rest unpacked once all types match)
                    head = (list_head(values[0]),) if len(values) == 1 else \
                        values[:1] if values and as_int(values[0]) is not None else values
                    size_types(name or fn.__name__, head, keyword)
                return fn(input, *values, **kwargs)
            return fn(input, by_keyword(name or fn.__name__, keyword, values, kwargs.pop(keyword)),
                      **kwargs)

        return called

    return decorate


def by_keyword(fn: str, keyword: str, values: tuple, given: Any) -> Any:
    """``given``, the values that ``fn`` took by torch's ``keyword``, refused as torch's parser
    refuses them: values given by position too (whose types it reads first), or one bare int,
    which is a size only by position.

    >>> by_keyword("zeros", "size", (), [2, 3])
    [2, 3]
    >>> by_keyword("zeros", "size", (2,), (2, 3))
    Traceback (most recent call last):
    TypeError: zeros() got multiple values for argument 'size'
    """
    if values:
        size_types(fn, values, keyword)
        raise TypeError(f"{fn}() got multiple values for argument '{keyword}'")
    if not isinstance(given, (tuple, list)):
        raise TypeError(f"{fn}(): argument '{keyword}' must be tuple of ints, "
                        f"not {type_name(given)}")
    return given


# torch's SymInt[] parameters among those read by sizes(): their item of a bool tensor is
# refused (an int[], a dim list, ``shifts``, takes it as 0 or 1)
_SYMINT_LISTS = frozenset(("size", "shape", "sizes", "repeats", "split_sizes", "indices",
                           "pad", "output_size", "stride", "normalized_shape"))


def sizes(fn: str, args: tuple, name: str = "size", check_negative: bool = True,
          position: int = 1, symint: bool | None = None) -> tuple:
    """The sizes of ``fn(*args)`` (ints, or one tuple/list of ints), checked like torch;
    ``symint`` (by default: ``name`` is one of torch's SymInt lists) refuses a bool tensor.

    >>> sizes("ones", ([2, 3],))
    (2, 3)
    >>> sizes("zeros", (2.5,))
    Traceback (most recent call last):
    TypeError: zeros(): argument 'size' (position 1) must be tuple of ints, not float
    """
    if not args:
        raise TypeError(f'{fn}() missing 1 required positional arguments: "{name}"')
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        values, packed = tuple(args[0]), True
    elif len(args) == 1 and as_int(args[0]) is None:
        raise TypeError(f"{fn}(): argument '{name}'{_at(position)} must be tuple of ints, "
                        f"not {type_name(args[0])}")
    else:
        values, packed = args, False
        if len(values) > 1 and as_int(values[0]) is None:  # torch then reads it as one size
            raise TypeError(f"{fn}() takes 1 positional argument but {len(values)} were given")
    out = []
    symint = name in _SYMINT_LISTS if symint is None else symint
    for i, v in enumerate(values):
        n = v if type(v) is int else as_int(v)
        if n is None and i and isinstance(v, bool):  # torch's quirk: a bool after the first
            n = int(v)
        if n is None:
            if packed and not i:
                raise TypeError(f"{fn}(): argument '{name}'{_at(position)} must be tuple of "
                                f"ints, but found element of type {type_name(v)} at pos {i}")
            raise TypeError(f"{fn}(): argument '{name}' failed to unpack the object at pos "
                            f"{i + 1} with error \"type must be tuple of ints,but got "
                            f"{type_name(v)}\"")
        if symint and is_tensor(v) and v.dtype.name == "bool":  # a SymInt's item: integral
            raise RuntimeError(check_failed("scalar.isIntegral( false)"))
        if not INT64_MIN <= n <= INT64_MAX:
            raise unpack_overflow(fn, name, i + 1)
        out.append(n)
    shape = tuple(out)
    if check_negative:
        non_negative(fn, shape)
    concrete(fn, shape, name)
    return shape


def check_failed(condition: str) -> str:
    """The message of a ``TORCH_CHECK`` of ``condition`` that carries no message of its own.

    >>> check_failed("dim < 2")[:40]
    'Expected dim < 2 to be true, but got fal'
    """
    return (f"Expected {condition} to be true, but got false.  (Could this error message be "
            "improved?  If so, please report an enhancement request to PyTorch.)")


def unpack_overflow(fn: str, name: str, position: int) -> TypeError:
    """torch's parser's refusal of an int past int64 as item ``position`` (from 1) of an
    int-list argument: its C++ error's text, whose backtrace header (its frames left out)
    the message carries as torch's does, so that the text before it ends as torch's.

    >>> unpack_overflow("view", "size", 1).args[0].split(" with error")[0]
    "view(): argument 'size' failed to unpack the object at pos 1"
    """
    return TypeError(f"{fn}(): argument '{name}' failed to unpack the object at pos {position} "
                     "with error \"Overflow when unpacking long long\nException raised from "
                     "THPUtils_unpackLong at /__w/pytorch/pytorch/torch/csrc/utils/"
                     "python_numbers.h:79 (most recent call first):\n\"")


def int_list(fn: str, value: Any, name: str, position: int) -> tuple:
    """A tuple-of-ints argument that also takes one int (``linalg_vector_norm``'s ``dim``,
    unpacked by :func:`lone_int`), its types checked as torch's parser does (a bool is
    refused, but not after the first).

    >>> int_list("f", 1, "dim", 3), int_list("f", [0, True], "dim", 3)
    ((1,), (0, 1))
    >>> int_list("f", "a", "dim", 3)
    Traceback (most recent call last):
    TypeError: f(): argument 'dim' (position 3) must be tuple of ints, not str
    """
    n = lone_int(value)
    if n is not None:
        return (n,)
    return sizes(fn, (value,), name, check_negative=False, position=position)


def lone_int(value: Any, symint: bool = False, listed: bool = True) -> int | None:
    """The int given alone for a tuple-of-ints parameter of a fixed length (``roll``'s
    ``shifts``, a norm's ``dim``: torch's ``int[1]``), None for anything else; past int64 it is
    the parser's ValueError, as for an int parameter (a list's item is a TypeError).

    >>> lone_int(3), lone_int((3,))
    (3, None)
    """
    if listed:  # (an overload that takes an int, torch's sections or repeats, reads it so)
        array_list(value, symint)
    n = as_int(value)
    if n is not None and not INT64_MIN <= n <= INT64_MAX:
        raise ValueError("Overflow when unpacking long long")
    return n


def array_list(value: Any, symint: bool = False) -> None:
    """torch's parser on a 0-d integer numpy array given for a tuple of ints: it takes it
    as one int (by ``__index__``) when it matches the call, then asserts it is a list as it
    unpacks it (an internal error that names the unpacker's line: ``symint``, a SymInt list).

    >>> import numpy as np
    >>> array_list(np.array(0))
    Traceback (most recent call last):
    RuntimeError: PyList_Check(arg) INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/torch/\
csrc/utils/python_arg_parser.h":658, please report a bug to PyTorch. expected tuple or list
    """
    if type(value).__name__ == "ndarray" and value.shape == () and as_int(value) is not None:
        raise RuntimeError('PyList_Check(arg) INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/'
                           'torch/csrc/utils/python_arg_parser.h":'
                           f'{573 if symint else 658}, please report a bug to PyTorch. '
                           'expected tuple or list')


def int_tuple(fn: str, value: Any, name: str, position: int, symint: bool | None = None
              ) -> tuple:
    """A tuple-of-ints argument that takes no lone int (``layer_norm``'s
    ``normalized_shape``), its types checked as torch's parser does.

    >>> int_tuple("f", [2, 3], "normalized_shape", 2)
    (2, 3)
    >>> int_tuple("f", 3, "normalized_shape", 2)
    Traceback (most recent call last):
    TypeError: f(): argument 'normalized_shape' (position 2) must be tuple of ints, not int
    """
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"{fn}(): argument '{name}'{_at(position)} must be tuple of ints, not "
                        f"{type_name(value)}")
    return sizes(fn, (value,), name, check_negative=False, position=position, symint=symint)


def window(fn: str, value: Any, name: str, position: int, n: int = 2,
           kernel: str | None = None) -> tuple:
    """A pooling window's ``kernel_size`` or ``stride``: one int, or a tuple of one or ``n``
    (two, or three for a 3-d pool); a wrong length is refused in the words of the
    ``kernel`` (``fn``, the parser's name, by default).

    >>> window("avg_pool2d", 2, "kernel_size", 2), window("avg_pool2d", [1, 3], "stride", 3)
    ((2, 2), (1, 3))
    """
    if as_int(value) is not None:
        sizes_ = (integer(fn, value, name, position),)
    else:  # torch's int-list parse: the first item's type, then each item's when unpacked
        sizes_ = int_tuple(fn, value, name, position)
    if len(sizes_) not in (1, n):
        omitted = " omitted," if name == "stride" else ""
        must = "must be either" if name == "dilation" else f"must either be{omitted}"
        if (kernel or fn) == "avg_pool3d":  # the one kernel whose words have no "either"
            must = f"must be{omitted}"
        raise RuntimeError(f"{kernel or fn}: {name} {must} a single int, or a tuple of "
                           f"{('two', 'three')[n - 2]} ints")
    return sizes_ if len(sizes_) == n else sizes_ * n


def windows(fn: str, *specs: tuple, n: int = 2, kernel: str | None = None) -> tuple:
    """Several window arguments ``(value, name, position)`` (``OMITTED``: left out, comes
    back as None): every type first, then every value, as torch's parser.

    >>> windows("max_pool2d", (2 ** 63, "kernel_size", 2), (0.5, "stride", 3))
    Traceback (most recent call last):
    TypeError: max_pool2d(): argument 'stride' (position 3) must be tuple of ints, not float
    """
    window_types(fn, *specs)
    unpack_windows(fn, *specs)
    return tuple(None if spec[0] is OMITTED else window(fn, *spec, n, kernel)
                 for spec in specs)


def window_types(fn: str, *specs: tuple) -> None:
    """The type check alone of window arguments ``(value, name, position)``: torch's parser
    reads every argument's type (a flag after them too) before any window's length; of a
    list it reads the first item only, the others when it unpacks the list
    (:func:`unpack_windows`).

    >>> window_types("avg_pool2d", ((2, "a"), "kernel_size", 2))  # refused when unpacked
    >>> window_types("avg_pool2d", ((True, 2), "kernel_size", 2))
    Traceback (most recent call last):
    TypeError: avg_pool2d(): argument 'kernel_size' (position 2) must be tuple of ints, but \
found element of type bool at pos 0
    """
    for value, name, position in specs:
        if value is OMITTED:
            continue
        _ints_type(fn, value, name, position)  # the parser's match: the first item alone


def unpack_windows(fn: str, *specs: tuple) -> None:
    """torch's parser's unpack of window lists ``(value, name, position)``, after every
    argument's type and before any length: right to left (GCC's order of the arguments of
    the call torch generates), so the last bad list is the one named.

    >>> unpack_windows("avg_pool2d", ((2, "a"), "kernel_size", 2), ((1, "b"), "stride", 3))
    Traceback (most recent call last):
    TypeError: avg_pool2d(): argument 'stride' failed to unpack the object at pos 2 with \
error "type must be tuple of ints,but got str"
    """
    for value, name, position in reversed(specs):
        if isinstance(value, (tuple, list)):
            sizes(fn, (value,), name, check_negative=False, position=position)


def window_steps(kernel: tuple, stride: tuple) -> None:
    """torch's checks of a pooling window against its stride, in torch's order."""
    if 0 in stride:
        raise RuntimeError("stride should not be zero")
    if min(kernel) <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got "
                           f"{per_dim('k', kernel)}")
    if min(stride) < 0:
        raise RuntimeError(f"stride should be greater than zero, but got "
                           f"{per_dim('d', stride)}")


def per_dim(prefix: str, values: tuple) -> str:
    """torch's pooling labels of per-dim values: T(ime), H(eight), W(idth), the last
    ``len(values)`` of them.

    >>> per_dim("k", (2, 3)), per_dim("dilation", (1, 2, 3))
    ('kH: 2 kW: 3', 'dilationT: 1 dilationH: 2 dilationW: 3')
    """
    return " ".join(f"{prefix}{d}: {v}" for d, v in zip("THW"[-len(values):], values))


def size_types(fn: str, args: tuple, name: str = "size") -> None:
    """The type check of :func:`sizes` that torch's parser makes: the first size's (it reads
    the others, and refuses them, after the other arguments' types, as it checks the
    overflow and the signs).

    >>> size_types("zeros", ((2, None),))  # refused later, by sizes()
    >>> size_types("zeros", ((None, 2),))
    Traceback (most recent call last):
    TypeError: zeros(): argument 'size' (position 1) must be tuple of ints, but found element \
of type NoneType at pos 0
    """
    packed = len(args) == 1 and isinstance(args[0], (tuple, list))
    first = args[0][:1] if packed else args[:1]
    if not args or any(type(v) is not int and as_int(v) is None for v in first):
        sizes(fn, args, name, check_negative=False)


# where torch's dispatcher registers each op (by its sizes' parameter) that finds a size its
# SymInt cannot hold (below -2**62, which it takes for a symbol's tag), which its message
# names; randint_high and randint_low are its overloads without and with low (its sizes are
# checked there, after every argument is read), "NAME.out" its out= overloads
SYMINT_MIN = -(2 ** 62)
_SYMINT_SITES = {
    **dict.fromkeys((("empty", "size"), ("new_empty", "size")), "CPU_1.cpp:2398"),
    ("empty_strided", "size"): "CPU_2.cpp:2356",
    **dict.fromkeys((("reshape", "shape"), ("view", "size")), "CPU_3.cpp:5710"),
    ("resize_", "size"): "CPU_3.cpp:2677", ("roll", "shifts"): "CPU_3.cpp:4890",
    **{(fn, "size"): f"CompositeExplicitAutograd_0.cpp:{line}" for fn, line in (
        ("ones", 8236), ("rand", 8781), ("randn", 9454), ("full", 5179), ("new_zeros", 4600),
        ("new_ones", 4653), ("new_full", 4547), ("expand", 4963), ("broadcast_to", 4963),
        ("randint_high", 8948), ("randint_low", 9054), ("normal", 16347))},
    **dict.fromkeys((("repeat", "repeats"), ("tile", "dims")),
                    "CompositeExplicitAutograd_0.cpp:9752"),
    ("pad", "pad"): "CompositeExplicitAutograd_0.cpp:3016",
    **{(f"{fn}.out", "size"): f"CompositeExplicitAutograd_0.cpp:{line}" for fn, line in (
        ("zeros", 11638), ("ones", 8243), ("rand", 8788), ("full", 5186),
        ("randint_high", 8955), ("randint_low", 9061))},
    **{(f"{fn}.out", "size"): f"CompositeImplicitAutograd_0.cpp:{line}" for fn, line in (
        ("empty", 4400), ("randn", 6504))}}

# set while a factory writes into its out= tensor (:func:`into_out`)
_INTO_OUT: ContextVar[bool] = ContextVar("into_out", default=False)


@contextlib.contextmanager
def into_out() -> Iterator[None]:
    """Within it a factory's size is checked as torch's out= kernel checks it: the size is
    registered at the out= overload's site, and ``out`` is resized to it (``resize_``'s
    count of the elements, where a negative size overflows), not a new tensor made.

    >>> with into_out():
    ...     non_negative("ones", (2, -1))
    Traceback (most recent call last):
    RuntimeError: numel: integer multiplication overflow
    """
    token = _INTO_OUT.set(True)
    try:
        yield
    finally:
        _INTO_OUT.reset(token)


def is_into_out() -> bool:
    """True within :func:`into_out`."""
    return _INTO_OUT.get()


def concrete(fn: str, shape: tuple, name: str = "size") -> None:
    """torch's dispatcher's refusal of a size of ``fn`` (its parameter ``name``) that its
    SymInt cannot hold.

    >>> concrete("ones", (2, -2 ** 63))
    Traceback (most recent call last):
    RuntimeError: /__w/pytorch/pytorch/build/aten/src/ATen/RegisterCompositeExplicitAutograd_0.cpp:\
8236: SymIntArrayRef expected to contain only concrete integers
    """
    site = _SYMINT_SITES.get((f"{fn}.out" if is_into_out() else fn, name))
    if site and any(s < SYMINT_MIN for s in shape):
        raise RuntimeError(f"/__w/pytorch/pytorch/build/aten/src/ATen/Register{site}: "
                           "SymIntArrayRef expected to contain only concrete integers")


def symint(n: int) -> int:
    """``n``, an int64 that torch's SymInt holds (an IntArrayRef's item), else its refusal.

    >>> symint(-2 ** 63)
    Traceback (most recent call last):
    RuntimeError: IntArrayRef contains an int that cannot be represented as a SymInt: \
-9223372036854775808
    """
    if n < SYMINT_MIN:
        raise RuntimeError(f"IntArrayRef contains an int that cannot be represented as a "
                           f"SymInt: {n}")
    return n


def non_negative(fn: str, shape: tuple, site: str | None = None) -> None:
    """torch's error for a negative size in a new tensor's shape (``site``: the op's name in
    :data:`_SYMINT_SITES`, ``fn`` by default); within :func:`into_out`, the refusal of
    ``resize_`` (``empty``'s out= kernel checks the signs first)."""
    concrete(site or fn, shape)
    resized = is_into_out()
    for s in shape if not resized or fn == "empty" else ():
        if s < 0:
            if fn == "zeros":
                raise RuntimeError("zeros: Dimension size must be non-negative.")
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: "
                               f"{list(shape)}")
    if resized:
        check_numel(shape)


def _memory_bytes() -> int:
    """What one allocation may take before the system refuses it, as torch meets it: the
    machine's memory and swap (Linux's overcommit heuristic), or 1 TiB where unknown."""
    try:
        with open("/proc/meminfo") as meminfo:
            kib = {line.split(":")[0]: int(line.split()[1]) for line in meminfo}
        return (kib["MemTotal"] + kib.get("SwapTotal", 0)) * 1024
    except (OSError, KeyError, ValueError, IndexError):
        return 2 ** 40


ALLOC_LIMIT = _memory_bytes()  # bytes; larger requests are refused before numpy tries


def check_alloc(shape: tuple, itemsize: int) -> None:
    """torch's refusal of a tensor whose size overflows, and of one larger than the machine's
    memory (torch's allocator fails; numpy would fail deep inside, or swap).

    >>> check_alloc((2 ** 62, 8), 4)
    Traceback (most recent call last):
    RuntimeError: Storage size calculation overflowed with sizes=[4611686018427387904, 8]
    >>> check_alloc((2 ** 38,), 4)
    Traceback (most recent call last):
    RuntimeError: DefaultCPUAllocator: can't allocate memory: you tried to allocate \
1099511627776 bytes. Error code 12 (Cannot allocate memory)
    """
    numel = 1
    for s in shape:  # torch's running product: it overflows even before a later 0
        numel *= s
        if numel > INT64_MAX:
            break
    if numel * itemsize > INT64_MAX:
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(shape)}")
    check_holdable(shape, itemsize)
    if numel * itemsize > ALLOC_LIMIT:
        raise RuntimeError(f"DefaultCPUAllocator: can't allocate memory: you tried to allocate "
                           f"{numel * itemsize} bytes. Error code 12 (Cannot allocate memory)")


def check_pieces(count: int) -> None:
    """torch's refusal of an op that would return ``count`` tensors (split's, chunk's,
    unbind's pieces) when its vector of them, 8 bytes a tensor, is more than the machine's
    memory: it fails to allocate it (minitorch would build them for hours).

    >>> check_pieces(2 ** 40)
    Traceback (most recent call last):
    RuntimeError: std::bad_alloc
    """
    if count * 8 > ALLOC_LIMIT:
        raise RuntimeError("std::bad_alloc")


def int64_wrapped(value: int) -> int:
    """An int as torch's int64 arithmetic leaves it: its low 64 bits, signed.

    >>> int64_wrapped(2 ** 63), int64_wrapped(3 * (2 ** 63 - 1))
    (-9223372036854775808, 9223372036854775805)
    """
    return (value + 2 ** 63) % 2 ** 64 - 2 ** 63


def check_numel(shape: tuple) -> None:
    """torch's count of a shape's elements (c10's ``safe_multiply_u64``): a running product
    of the sizes as unsigned int64s, refused where a step overflows or the count passes int64,
    so a later 0 does not undo an overflow, and a negative size overflows unless a 0 comes
    first.

    >>> check_numel((2 ** 40, 2 ** 40, 0))
    Traceback (most recent call last):
    RuntimeError: numel: integer multiplication overflow
    >>> check_numel((0, -1)), check_numel((2 ** 62, 2, 0))
    (None, None)
    """
    count, overflowed = 1, False
    for s in shape:
        count *= s % 2 ** 64
        overflowed |= count >= 2 ** 64
        count %= 2 ** 64
    if overflowed or count > INT64_MAX:
        raise RuntimeError("numel: integer multiplication overflow")


def check_holdable(shape: tuple, itemsize: int) -> None:
    """minitorch's refusal of an empty tensor that torch holds but numpy cannot: numpy checks
    the product of the sizes other than 0 (in bytes), and refuses a negative size (which
    torch's count of the elements lets through after a 0).

    >>> check_holdable((0, 2 ** 62), 4)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    RuntimeError: minitorch cannot hold an empty tensor of sizes [0, 4611686018427387904]: ...
    >>> check_holdable((0, -1), 4)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    RuntimeError: minitorch cannot hold an empty tensor of sizes [0, -1]: numpy refuses a ...
    """
    span = itemsize
    for s in shape:
        span *= abs(s) or 1
    if math.prod(shape):
        return
    if any(s < 0 for s in shape):
        raise RuntimeError(f"minitorch cannot hold an empty tensor of sizes {list(shape)}: "
                           "numpy refuses a negative size")
    if span > INT64_MAX:
        raise RuntimeError(f"minitorch cannot hold an empty tensor of sizes {list(shape)}: "
                           "numpy refuses sizes whose product (leaving out the 0) overflows")


def parsed(fn: str, *specs: tuple, required: bool = False) -> tuple:
    """Arguments ``(kind, value, name, position)`` read as torch's argument parser reads
    them: every type first (no overload matches); then every value, unpacked right to left,
    the order in which GCC evaluates the arguments of the call torch generates (an int past
    int64 overflows there); the kernel's own checks (negative sizes, dims in range) come
    after. Kinds: "int", "int?" (None passes), "ints" (a size), "number" (a Scalar: complex
    comes back as it is), "float", "tensor", "tensor?" (None passes), "dtype", "flag" (None
    reads as False), "bool",
    "str"; an ``OMITTED`` value comes back as it is, or, where every argument is ``required``,
    is refused as missing once the given ones' types pass.

    >>> parsed("full", ("ints", (2 ** 63,), "size", 1), ("number", 2 ** 64, "fill_value", 2))
    Traceback (most recent call last):
    OverflowError: int too big to convert
    >>> parsed("f", ("int", 2 ** 63, "dim", 1), ("number", 2.5, "value", 2),
    ...        ("dtype", "a", "dtype", None))
    Traceback (most recent call last):
    TypeError: f(): argument 'dtype' must be torch.dtype, not str
    """
    given = [(i, spec) for i, spec in enumerate(specs) if spec[1] is not OMITTED]
    for _, (kind, value, name, position) in given:
        _TYPE_CHECKS[kind](fn, value, name, position)
    if required:
        missing(fn, *((value, name) for _, value, name, _ in specs))
    out = [spec[1] for spec in specs]
    for i, (kind, value, name, position) in reversed(given):
        out[i] = _UNPACKS[kind](fn, value, name, position)
    return tuple(out)


def _int_type(fn: str, value: Any, name: str, position: int | None) -> None:
    if as_param_int(value, name, fn) is None:
        integer(fn, value, name, position)


def _ints_type(fn: str, value: Any, name: str, position: int | None) -> None:
    """The parser's match of a size: a tuple or list whose first item is an int (later
    items are read when unpacked), or one int."""
    values = value if isinstance(value, (tuple, list)) else (value,)
    if as_int(value) is None and (not isinstance(value, (tuple, list)) or (
            values and as_int(values[0]) is None)):
        sizes(fn, (value,), name, check_negative=False, position=position)


def _number_unpack(fn: str, value: Any, name: str, position: int | None) -> Any:
    if type(value) is int and not INT64_MIN <= value < 2 ** 64:
        raise int_overflow(value)
    return value if isinstance(value, complex) else number(fn, value, name, position)


# the checks of each kind (lambdas: the functions they call are defined further down)
_TYPE_CHECKS: dict[str, Callable] = {
    "int": lambda fn, value, name, at: _int_type(fn, value, name, at),
    "int?": lambda fn, value, name, at: value is None or _int_type(fn, value, name, at),
    "ints": lambda fn, value, name, at: _ints_type(fn, value, name, at),
    "number": lambda fn, value, name, at: number_types(fn, (value, name, at)),
    "float": lambda fn, value, name, at: real(fn, value, name, at),
    "tensor": lambda fn, value, name, at: tensor_args(fn, (value, name, at)),
    "tensor?": lambda fn, value, name, at: value is None or tensor_args(fn, (value, name, at)),
    "dtype": lambda fn, value, name, at: dtype(fn, value),
    "flag": lambda fn, value, name, at: flag(fn, value, name, at, none=True),
    "bool": lambda fn, value, name, at: flag(fn, value, name, at),
    "str": lambda fn, value, name, at: string(fn, value, name, at)}
_UNPACKS: dict[str, Callable] = {
    "int": lambda fn, value, name, at: integer(fn, value, name, at),
    "int?": lambda fn, value, name, at: None if value is None else integer(fn, value, name, at),
    "ints": lambda fn, value, name, at: sizes(fn, (value,), name, check_negative=False,
                                              position=at),
    "number": lambda fn, value, name, at: _number_unpack(fn, value, name, at),
    "float": lambda fn, value, name, at: real(fn, value, name, at),
    "tensor": lambda fn, value, name, at: value,
    "tensor?": lambda fn, value, name, at: value,
    "dtype": lambda fn, value, name, at: dtype(fn, value),
    "flag": lambda fn, value, name, at: flag(fn, value, name, at, none=True),
    "bool": lambda fn, value, name, at: flag(fn, value, name, at),
    "str": lambda fn, value, name, at: string(fn, value, name, at)}


def integers(fn: str, *specs: tuple) -> tuple:
    """Int arguments ``(value, name, position)``: every type first, then every range, as
    torch's argument parser.

    >>> integers("narrow", (0, "dim", 1), (2 ** 63, "start", 2), (1.5, "length", 3))
    Traceback (most recent call last):
    TypeError: narrow(): argument 'length' (position 3) must be int, not float
    """
    for value, name, position in specs:
        if as_param_int(value, name, fn) is None:
            integer(fn, value, name, position)
    return tuple(integer(fn, *spec) for spec in specs)


def integer(fn: str, value: Any, name: str, position: int | None) -> int:
    """An int argument (not bool, not float).

    >>> integer("eye", None, "n", 1)
    Traceback (most recent call last):
    TypeError: eye(): argument 'n' (position 1) must be int, not NoneType
    """
    n = as_param_int(value, name, fn)
    if n is None:
        raise TypeError(f"{fn}(): argument '{name}'{_at(position)} must be int, not "
                        f"{type_name(value)}")
    if not INT64_MIN <= n <= INT64_MAX:
        raise ValueError("Overflow when unpacking long long")
    if is_tensor(value) and value.dtype.name == "bool":  # a SymInt's (an int64 refused it)
        raise RuntimeError('scalar.isIntegral( false) INTERNAL ASSERT FAILED at "/__w/pytorch/'
                           'pytorch/torch/csrc/utils/pybind.cpp":27, please report a bug to '
                           'PyTorch. ')
    return n


def dim(fn: str, value: Any, ndim: int, name: str = "dim", position: int = 1) -> int:
    """One dim: an int in ``[-ndim, ndim)`` (a 0-d tensor counts as one dim), wrapped.

    >>> dim("unbind", -1, 3)
    2
    """
    if type(value) is not int:
        value = integer(fn, value, name, position)
    return wrap_dim(value, ndim)


def wrap_dim(d: int, ndim: int, scalar: bool = True) -> int:
    """An int dim wrapped into ``[0, ndim)``, with torch's range error (``scalar``: a 0-d
    tensor counts as one dim, as in most ops; otherwise it has none, as in pooling).

    >>> wrap_dim(-1, 3)
    2
    >>> wrap_dim(-3, 0, scalar=False)
    Traceback (most recent call last):
    IndexError: Dimension specified as -3 but tensor has no dimensions
    """
    if not ndim and not scalar:
        raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
    n = ndim if ndim > 0 else 1
    if not -n <= d < n:
        if not INT64_MIN <= d <= INT64_MAX:  # torch's parser could not read it as an int64
            raise ValueError("Overflow when unpacking long long")
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})")
    return d % n


def dims(fn: str, value: Any, ndim: int | None, ranges_first: bool = False) -> tuple | None:
    """The dims of a reduction: None (all), an int, or a tuple/list of ints, no repeats
    (with ``ndim`` None, only unpacked: their ints). A repeat is refused as it is met,
    or (``ranges_first``, torch's dim mask of sum, amax, all, ...) after every range.

    >>> dims("sum", [0, -1], 3), dims("sum", None, 3)
    ((0, 2), None)
    >>> dims("sum", [0, -2, 5], 2, ranges_first=True)
    Traceback (most recent call last):
    IndexError: Dimension out of range (expected to be in range of [-2, 1], but got 5)
    """
    if ranges_first and isinstance(value, (tuple, list)) and ndim is not None:
        for n in dims(fn, value, None):
            wrap_dim(n, ndim)
    if value is None:
        return None
    if isinstance(value, (tuple, list)):
        given = []
        for i, v in enumerate(value):  # every item unpacked before any range is checked
            n = as_int(v)
            if n is None and not i:  # torch's parser then finds no tuple of ints at all
                raise TypeError(f"{fn}(): argument 'dim' (position 2) must be tuple of ints, "
                                f"but found element of type {type_name(v)} at pos 0")
            if n is None and isinstance(v, bool):  # torch's quirk: a bool after the first
                n = int(v)
            if n is None:
                raise TypeError(f"{fn}(): argument 'dim' failed to unpack the object at pos "
                                f"{i + 1} with error \"type must be tuple of ints,but got "
                                f"{type_name(v)}\"")
            if not INT64_MIN <= n <= INT64_MAX:
                raise unpack_overflow(fn, "dim", i + 1)
            given.append(n)
        if ndim is None:
            return tuple(given)
        out: list[int] = []
        for n in given:
            d = wrap_dim(n, ndim)
            if d in out:
                raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
            out.append(d)
        return tuple(out)
    array_list(value)
    n = as_int(value)
    if n is None:  # the function form's words: _call_form.entry words it for the call made
        raise TypeError(f"{fn}(): argument 'dim' (position 2) must be tuple of ints, not "
                        f"{type_name(value)}")
    if not INT64_MIN <= n <= INT64_MAX:  # the parser's, before any check of the input
        raise ValueError("Overflow when unpacking long long")
    return None if ndim is None else (wrap_dim(n, ndim),)


def list_head(value: Any) -> Any:
    """The part of an int-list argument whose type torch's parser checks as it matches the
    call: the first item of a tuple or list (the others are unpacked only once every
    argument's type has matched, so a later argument's type error comes first), else all.

    >>> list_head((0, 1.5)), list_head(2)
    ((0,), 2)
    """
    return value[:1] if isinstance(value, (tuple, list)) else value


def dim_types(fn: str, value: Any) -> None:
    """torch's parser's check of a reduction's ``dim`` as it matches the call (None, an int,
    or a tuple or list whose first item is an int); :func:`dims` unpacks the rest.

    >>> dim_types("sum", (0, 1.5))  # the first item is an int: the parse goes on
    >>> dim_types("sum", "a")
    Traceback (most recent call last):
    TypeError: sum(): argument 'dim' (position 2) must be tuple of ints, not str
    >>> dim_types("all", 2 ** 63)  # any int matches: its value is read once all types have
    """
    head = list_head(value)
    item = head[0] if isinstance(head, (tuple, list)) and head else head
    if as_int(item) is None:  # (an int of any size matches: its range is the unpacking's)
        dims(fn, head, None)


def int_list_types(fn: str, value: Any, name: str, position: int) -> None:
    """:func:`dim_types` for any int-list parameter ``name`` (at ``position``): its type as
    torch's parser matches it, the first item only; :func:`sizes` unpacks the rest once
    every argument's type has matched.

    >>> int_list_types("roll", (0, 1.5), "shifts", 2)
    >>> int_list_types("roll", "yes", "dims", 3)
    Traceback (most recent call last):
    TypeError: roll(): argument 'dims' (position 3) must be tuple of ints, not str
    """
    head = list_head(value)
    item = head[0] if isinstance(head, (tuple, list)) and head else head
    if as_int(item) is None:
        sizes(fn, (head,), name, check_negative=False, position=position)


def keepdim_alone(fn: str, kwargs: dict, method: bool) -> TypeError:
    """torch's refusal of a reduction given ``keepdim`` but no ``dim`` (``method``: called as
    a Tensor method), which none of its overloads takes.

    >>> print(keepdim_alone("sum", {"keepdim": True, "dtype": None}, method=True))
    sum() missing 1 required positional arguments: "dim"
    """
    if "dtype" in kwargs and (method or fn == "sum"):
        return TypeError(f'{fn}() missing 1 required positional arguments: "dim"')
    given = ", ".join(f"{k}={type_name(v)}" for k, v in sorted(kwargs.items()))
    out = "" if method else ", Tensor out = None"
    plain = "" if method or fn == "sum" else out
    tensor, input = ("", "") if method else ("Tensor, ", "Tensor input, ")
    return TypeError(
        f"{fn}() received an invalid combination of arguments - got ({tensor}{given}"
        f"{', ' if method else ''}), but expected one of:\n"
        f" * ({input}*, torch.dtype dtype = None{plain})\n"
        f" * ({input}tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None{out})\n")


def differentiable_dtype(input: Any, dt: Any) -> None:
    """torch's refusal of an integer or bool result ``dt`` for an op recording a gradient.

    >>> import minitorch
    >>> differentiable_dtype(minitorch.ones(2, requires_grad=True), minitorch.int64)
    Traceback (most recent call last):
    RuntimeError: Autograd not support dtype: Long
    """
    from .autograd.grad_mode import is_grad_enabled

    if not dt.is_floating_point and input.requires_grad and is_grad_enabled():
        raise RuntimeError(f"Autograd not support dtype: {legacy(dt)}")


def flag(fn: str, value: Any, name: str, position: int | None = None,
         none: bool = False) -> bool:
    """A bool argument: ``True`` or ``False`` only, as torch's argument parser.

    >>> flag("sum", 1, "keepdim")
    Traceback (most recent call last):
    TypeError: sum(): argument 'keepdim' must be bool, not int
    """
    if value is True or value is False:
        return value
    if none and value is None:  # an optional keyword left at its default
        return False
    where = f" (position {position})" if position else ""
    raise TypeError(f"{fn}(): argument '{name}'{where} must be bool, not {type_name(value)}")


def generator(fn: str, value: Any) -> Any:
    """A ``generator=`` keyword: None or a Generator, as torch's argument parser.

    >>> generator("uniform_", 3)
    Traceback (most recent call last):
    TypeError: uniform_(): argument 'generator' must be torch.Generator, not int
    """
    from ._generator import Generator

    if value is None or isinstance(value, Generator):
        return value
    raise TypeError(f"{fn}(): argument 'generator' must be torch.Generator, not "
                    f"{type_name(value)}")


def py_flag(value: Any, none: bool = True) -> bool:
    """A flag of a Python-level torch function (``backward``'s ``retain_graph``,
    ``create_graph``): anything ``int()`` takes, as torch's C++ binding converts it (None
    only where ``none``)."""
    if value is True or value is False or (none and value is None):
        return bool(value)
    n = as_int(value)
    if n is None:
        raise TypeError(f"'{type_name(value)}' object cannot be interpreted as an integer")
    return bool(n)


def device_type(fn: str, value: Any) -> None:
    """torch's parser's refusal of a ``device`` argument that is no device, device string
    or device index (its values are checked later, as the device is made).

    >>> device_type("zeros", True)
    Traceback (most recent call last):
    TypeError: zeros(): argument 'device' must be torch.device, not bool
    """
    from .backend import device

    if value is None or isinstance(value, (str, device)) or as_int(value) is not None:
        return
    raise TypeError(f"{fn}(): argument 'device' must be torch.device, not {type_name(value)}")


def dtype(fn: str, value: Any, name: str = "dtype", position: int | None = None,
          none: bool = True) -> Any:
    """A ``minitorch.dtype`` (or None, where ``none``); Python's ``float``/``int``/``bool``
    types map to float64, int64 and bool as in torch.

    >>> dtype("zeros", float)
    torch.float64
    """
    from . import _dtype as D

    if (value is None and none) or isinstance(value, D.dtype):
        return value
    python = {float: D.float64, int: D.int64, bool: D.bool}
    if isinstance(value, type) and value in python:
        return python[value]
    if value is complex:
        raise TypeError(f"{fn}(): minitorch has no complex dtypes, so it cannot take Python's "
                        "complex as a dtype (torch's complex128); give a real dtype")
    raise TypeError(f"{fn}(): argument '{name}'{_at(position)} must be torch.dtype, not "
                    f"{type_name(value)}")


def numbers(fn: str, *specs: tuple) -> tuple:
    """Number arguments ``(value, name, position)``, checked in torch's order: every type,
    then every range; complex values come back as Python's (a numpy complex128 too: numpy
    would promote by its dtype), for the caller to refuse.

    >>> numbers("arange", (1, "start", 1), ("a", "end", 2))
    Traceback (most recent call last):
    TypeError: arange(): argument 'end' (position 2) must be Number, not str
    """
    number_types(fn, *specs)
    for value, _, _ in specs:
        if type(value) is int and not INT64_MIN <= value < 2 ** 64:
            raise int_overflow(value)
    return tuple(complex(spec[0]) if isinstance(spec[0], complex) else number(fn, *spec)
                 for spec in specs)


def double_of(value: Any, target: str = "double") -> Any:
    """A Number that torch reads as a double (``Scalar.to<double>()``; or as the C type
    ``target``): a complex one only if its imaginary part is zero, as its real part; anything
    else as it is.

    >>> double_of(2 + 0j), double_of(3)
    (2.0, 3)
    >>> double_of(1j)
    Traceback (most recent call last):
    RuntimeError: value cannot be converted to type double without overflow
    """
    if not isinstance(value, complex):
        return value
    if value.imag:
        raise conversion_overflow(target)
    return value.real


def unpack_int(value: Any) -> None:
    """torch's parser unpacking a Python int given as a Number: outside what int64 and
    uint64 hold it overflows, before any check of the op's.

    >>> unpack_int(2 ** 64)
    Traceback (most recent call last):
    OverflowError: int too big to convert
    """
    if type(value) is int and not INT64_MIN <= value < 2 ** 64:
        raise int_overflow(value)


def number_types(fn: str, *specs: tuple) -> None:
    """The type check of number arguments ``(value, name, position)`` alone: torch's parser
    checks every argument's type before it reads any value.

    >>> number_types("full", (None, "fill_value", 2))
    Traceback (most recent call last):
    TypeError: full(): argument 'fill_value' (position 2) must be Number, not NoneType
    """
    for value, name, position in specs:
        if not isinstance(value, (int, float, complex)) and not holds_number(value):
            raise TypeError(f"{fn}(): argument '{name}'{_at(position)} must be Number, "
                            f"not {type_name(value)}")


def reals(fn: str, *specs: tuple) -> tuple:
    """Float arguments ``(value, name, position)``: every type first, then every value (an
    int too large for a double overflows), as torch's parser.

    >>> reals("uniform_", (2 ** 1100, "from", 1), (None, "to", 2))
    Traceback (most recent call last):
    TypeError: uniform_(): argument 'to' (position 2) must be float, not NoneType
    """
    for spec in specs:
        if not is_real(spec[0]):
            real(fn, *spec)
    return tuple(real(fn, *spec) for spec in specs)


def real(fn: str, value: Any, name: str, position: int | None = None) -> float:
    """A float argument: a bool, int or float (numpy scalars and one-element tensors too), as
    torch's parser reads ``double``.

    A numpy complex scalar is read too, by its real part with numpy's ComplexWarning, as
    torch's parser reads any numpy scalar (a Python complex is refused).

    >>> real("f", None, "label_smoothing", 6)
    Traceback (most recent call last):
    TypeError: f(): argument 'label_smoothing' (position 6) must be float, not NoneType
    """
    if reads_as_double(value):
        return float(value)
    raise TypeError(f"{fn}(): argument '{name}'{_at(position)} must be float, not "
                    f"{type_name(value)}")


def tolerances(rtol: float, atol: float) -> None:
    """torch's range check of ``isclose``'s (and ``allclose``'s) tolerances, read as floats:
    neither may be negative nor nan.

    >>> tolerances(1e-5, -1.0)
    Traceback (most recent call last):
    RuntimeError: atol must be greater than or equal to zero, but got -1
    """
    for name, value in (("rtol", rtol), ("atol", atol)):
        if not value >= 0:  # nan too
            raise RuntimeError(f"{name} must be greater than or equal to zero, but got "
                               f"{value:g}")


def is_real(value: Any) -> bool:
    """True for what torch's parser reads as a real ``double`` or Number: a bool, int or
    float, a numpy scalar or a one-element tensor holding one (not a 0-d numpy array, not a
    Python complex), and a numpy scalar that it reads by ``float()`` (a long double, a
    complex64 or a clongdouble: their real part).

    >>> import numpy as np
    >>> is_real(np.int32(3)), is_real(np.longdouble(2)), is_real(np.array(2.0)), is_real(1j)
    (True, True, False, False)
    """
    return isinstance(value, (int, float)) or _no_python_twin(value) or (
        holds_number(value) and isinstance(value.item(), (int, float)))


def holds_number(value: Any) -> bool:
    """True for a numpy scalar or a 0-d tensor that does not require grad: what torch's
    parser reads as a number besides Python's (a 0-d numpy array is none).

    >>> import numpy as np
    >>> holds_number(np.float32(2)), holds_number(np.array(2.0))
    (True, False)
    """
    return hasattr(value, "item") and getattr(value, "ndim", 1) == 0 and \
        type(value).__name__ != "ndarray" and not getattr(value, "requires_grad", False)


def _at(position: int | None) -> str:
    """Where torch's messages place an argument: `` (position 2)``, or nothing for a
    keyword-only one."""
    return f" (position {position})" if position else ""


def tensor_args(fn: str, *specs: tuple) -> None:
    """Tensor arguments ``(value, name, position)``, refused with torch's message otherwise.

    >>> tensor_args("maximum", (2, "other", 2))
    Traceback (most recent call last):
    TypeError: maximum(): argument 'other' (position 2) must be Tensor, not int
    """
    for value, name, position in specs:
        if not is_vmap_example(value) and not is_tensor(value):
            raise TypeError(f"{fn}(): argument '{name}'{_at(position)} must be Tensor, not "
                            f"{type_name(value)}")


def undefined_self() -> RuntimeError:
    """torch's refusal where its C++ calls a method of an undefined (None) tensor.

    >>> str(undefined_self()).startswith("Expected a proper Tensor but got None")
    True
    """
    return RuntimeError("Expected a proper Tensor but got None (or an undefined Tensor in C++) "
                        "for argument #0 'self'")


def string(fn: str, value: Any, name: str, position: int | None = None) -> str:
    """A string argument, refused with torch's parser's message otherwise.

    >>> string("pad", 3, "mode", 3)
    Traceback (most recent call last):
    TypeError: pad(): argument 'mode' (position 3) must be str, not int
    """
    if not isinstance(value, str):
        raise TypeError(f"{fn}(): argument '{name}'{_at(position)} must be str, not "
                        f"{type_name(value)}")
    return value


def tensors(fn: str, python: bool = False, **torch_names: Any) -> Callable:
    """Decorator: the parameters named in ``torch_names`` (as ``parameter="torch's name"``,
    or ``(name, position)`` where torch's order differs) must be tensors, or None where their
    default or annotation is None; anything else is refused with torch's message before the
    body runs, and before an unknown keyword, as torch's parser reads them, unless torch's
    function is ``python`` code (whose call refuses the keyword first). A method (first
    parameter ``self``) counts its positions from the argument after ``self``, as torch does.

    >>> @tensors("mm", a="input", b="mat2")
    ... def mm(a, b): return a
    >>> mm(None, None)
    Traceback (most recent call last):
    TypeError: mm(): argument 'input' (position 1) must be Tensor, not NoneType
    """
    def decorate(f: Callable) -> Callable:
        signature = inspect.signature(f)
        names = list(signature.parameters)
        first = 0 if names[0] == "self" else 1
        specs = []
        for p, torch_name in torch_names.items():
            i = names.index(p)
            torch_name, position = torch_name if isinstance(torch_name, tuple) else \
                (torch_name, i + first)
            parameter = signature.parameters[p]
            optional = parameter.default is None or "None" in str(parameter.annotation)
            specs.append((i, p, torch_name, position, optional))

        kinds = [q.kind for q in signature.parameters.values()]
        most = math.inf if inspect.Parameter.VAR_POSITIONAL in kinds else sum(
            k in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
            for k in kinds)
        known = None if inspect.Parameter.VAR_KEYWORD in kinds else set(names)

        @functools.wraps(f)
        def checked(*args: Any, **kwargs: Any) -> Any:
            if len(args) > most or (known is not None and python and
                                    not known.issuperset(kwargs)):
                return f(*args, **kwargs)  # the parser refuses the count first: Python's words
            for i, p, torch_name, position, optional in specs:  # (then the types, then an
                # unknown keyword, which Python refuses)
                value = args[i] if i < len(args) else kwargs.get(p, OMITTED)
                if not (value is OMITTED or (optional and value is None)):
                    tensor_args(fn, (value, torch_name, position))
            return f(*args, **kwargs)

        return checked

    return decorate


def python_attribute(value: Any, attribute: str) -> None:
    """Where torch's function is Python code that first reads ``value.attribute`` (the
    losses read ``.size()``), a non-tensor gets the AttributeError that read raises there.

    >>> python_attribute(2, "size")
    Traceback (most recent call last):
    AttributeError: 'int' object has no attribute 'size'
    >>> import numpy as np
    >>> python_attribute(np.zeros(2), "size")  # an int, which torch then calls
    Traceback (most recent call last):
    TypeError: 'int' object is not callable
    """
    if is_vmap_example(value) or is_tensor(value):
        return
    read = getattr(value, attribute, None)
    if read is not None and attribute not in _READ_NOT_CALLED and not callable(read):
        raise TypeError(f"'{type_name(read)}' object is not callable")  # (ndarray's size)
    raise AttributeError(f"'{type_name(value)}' object has no attribute '{attribute}'")


# the attributes of a tensor that torch's Python reads without calling them
_READ_NOT_CALLED = frozenset({"shape", "device", "layout", "is_cuda"})


def python_len(value: Any) -> None:
    """Where torch's function is Python code that takes ``len(value)`` (``torch.norm``'s dim
    with ``p="fro"``), a value without a length gets the TypeError that ``len`` raises there.

    >>> python_len(1.5)
    Traceback (most recent call last):
    TypeError: object of type 'float' has no len()
    """
    if is_tensor(value) and not value.dim():
        raise TypeError("len() of a 0-d tensor")
    if not hasattr(value, "__len__"):
        raise TypeError(f"object of type '{type_name(value)}' has no len()")


def is_vmap_example(value: Any) -> bool:
    """True for the example vmap's function sees (a batched tensor, whose methods are the
    batching rules).

    >>> is_vmap_example(2.5)
    False
    """
    return getattr(type(value), "vmap_example", False)


def is_tensor(value: Any) -> bool:
    """True for a minitorch tensor (a Parameter too).

    >>> is_tensor(2.5)
    False
    """
    return hasattr(value, "_version_counter")


def invalid_combination(fn: str, values: tuple, *signatures: str,
                        keywords: dict | None = None) -> TypeError:
    """torch's TypeError for arguments (positional ``values``, then ``keywords``) that match
    none of ``fn``'s signatures.

    >>> print(invalid_combination("pow", (2, 3), "Tensor input, Tensor exponent"))
    pow() received an invalid combination of arguments - got (!int!, !int!), but expected \
(Tensor input, Tensor exponent)
    """
    from ._call_form import combination_message

    return TypeError(combination_message(fn, values, keywords or {}, signatures))


def tensor_items(values: Any) -> list:
    """A list that torch's parser reads as a tuple of Tensors: every item a tensor, else its
    refusal of the first that is not (the argument numbered from 0, as it numbers it).

    >>> tensor_items([1.0])
    Traceback (most recent call last):
    TypeError: expected Tensor as element 0 in argument 1, but got float
    """
    for i, value in enumerate(values):
        if type(value).__name__ != "Tensor":
            raise TypeError(f"expected Tensor as element {i} in argument 1, but got "
                            f"{type_name(value)}")
    return list(values)


def tensor_or_number(fn: str, value: Any, name: str, position: int) -> None:
    """An operand that is a tensor or a number (numpy scalars included, not a 0-d array),
    as ``add``'s ``other``; anything else gets torch's message.

    >>> import numpy as np
    >>> tensor_or_number("add", np.array(2.0), "other", 2)
    Traceback (most recent call last):
    TypeError: add(): argument 'other' (position 2) must be Tensor, not numpy.ndarray
    """
    if isinstance(value, (int, float, complex)) or (
            is_array(value) and value.shape == () and type(value).__name__ != "ndarray"):
        return
    tensor_args(fn, (value, name, position))


def not_implemented(kernel: str, dt: Any) -> NotImplementedError:
    """torch's dispatch refusal of a dtype its ``kernel`` has no loop for (``dt`` a dtype, or
    torch's name of one such as ``"ComplexFloat"``).

    >>> import minitorch
    >>> raise not_implemented("bitwise_not_cpu", minitorch.float64)
    Traceback (most recent call last):
    NotImplementedError: "bitwise_not_cpu" not implemented for 'Double'
    """
    return NotImplementedError(f'"{kernel}" not implemented for '
                               f"'{dt if isinstance(dt, str) else legacy(dt)}'")


def no_complex_kernel(kernel: str, a: Any, b: Any) -> None:
    """torch's refusal where an op has no complex kernel (``//``, ``%``, ``<``, ``&``, ...)
    and an operand is a complex number; minitorch refuses complex numbers everywhere, but
    here in torch's words.

    >>> no_complex_kernel("div_floor", 1.0, 2.0)  # no complex operand: nothing to say
    """
    if isinstance(a, complex) or isinstance(b, complex):
        tensor = a if hasattr(a, "dtype") else b
        raise not_implemented(f"{kernel}_cpu", complex_name(getattr(tensor, "dtype", None)))


def complex_name(dt: Any) -> str:
    """torch's name of the complex type a tensor of dtype ``dt`` and a complex number
    promote to.

    >>> import minitorch
    >>> complex_name(minitorch.float16), complex_name(minitorch.int64)
    ('ComplexHalf', 'ComplexFloat')
    """
    name = getattr(dt, "name", "")
    return {"float64": "ComplexDouble", "float16": "ComplexHalf"}.get(name, "ComplexFloat")


def floating_kernel(kernel: str, dt: Any) -> None:
    """torch's refusal where an op has only floating-point kernels and gets integers or
    bools.

    >>> import minitorch
    >>> floating_kernel("glu_cpu", minitorch.int16)
    Traceback (most recent call last):
    NotImplementedError: "glu_cpu" not implemented for 'Short'
    """
    if not dt.is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{legacy(dt)}\'')


def number(fn: str, value: Any, name: str, position: int) -> Any:
    """A Python number argument (bool, int, float; a one-element tensor's value)."""
    if isinstance(value, int):
        if type(value) is int and not INT64_MIN <= value < 2 ** 64:
            raise int_overflow(value)
        return value
    if isinstance(value, float):  # a numpy float64 too, which torch reads as a Python float
        return float(value)
    if isinstance(value, complex):
        if fn != "full":  # torch reads it as a double
            raise conversion_overflow("double")
        raise TypeError(f"{fn}(): minitorch has no complex tensors; argument '{name}' "
                        f"(position {position}) must be a real number, not complex")
    if holds_number(value):
        return _item(value)
    raise TypeError(f"{fn}(): argument '{name}'{_at(position)} must be Number, not "
                    f"{type_name(value)}")


def _item(value: Any) -> Any:
    """The Python number a 0-d array or one-element tensor holds; torch's parser reads a
    numpy bool as a double (``tensor([1]) * np.True_`` is ``tensor([1.])``).

    >>> import numpy as np
    >>> _item(np.True_), _item(np.int64(2))
    (1.0, 2)
    """
    if _no_python_twin(value):
        return float(value)  # torch reads complex64 as a double, complex128 as a complex
    number_ = value.item()
    if type(number_) is int and number_ > INT64_MAX and type(value).__module__ == "numpy":
        raise TypeError("an integer is required")  # torch's reading of a numpy uint64 Number
    return float(number_) if type(number_) is bool and is_array(value) else number_


def _numpy_complex(value: Any) -> bool:
    """True for a numpy complex scalar, which torch's parser reads by its real part (numpy's
    ComplexWarning) where it wants a double, and where it wants a Number unless it is a
    complex128 (a Python complex).

    >>> import numpy as np
    >>> _numpy_complex(np.complex64(1j)), _numpy_complex(1j), _numpy_complex(np.float32(1))
    (True, False, False)
    """
    return type(value).__module__ == "numpy" and isinstance(value, _numbers.Complex) and \
        not isinstance(value, _numbers.Real)


def reads_as_double(value: Any) -> bool:
    """True for what torch's parser reads where it wants a ``double``: what :func:`is_real`
    takes, and any numpy complex or long double scalar (by ``float()``).

    >>> import numpy as np
    >>> reads_as_double(np.complex64(1j)), reads_as_double(np.longdouble(2)), reads_as_double(1j)
    (True, True, False)
    """
    return is_real(value) or _numpy_complex(value) or _no_python_twin(value)


def _no_python_twin(value: Any) -> bool:
    """A numpy scalar that torch's parser reads by ``float()`` where it wants a Number: a
    long double, or a complex that is not a Python complex (complex64, clongdouble)."""
    return type(value).__module__ == "numpy" and (
        type(value).__name__ == "longdouble" or
        (_numpy_complex(value) and not isinstance(value, complex)))


def is_array(value: Any) -> bool:
    """True for an array of another library (a numpy array, a numpy scalar, ...): something
    with a ``dtype`` and a ``shape`` that is not a minitorch tensor.

    >>> import numpy as np
    >>> is_array(np.float32(1)), is_array(2.0)
    (True, False)
    """
    if is_vmap_example(value):  # its own operators run
        return False
    return hasattr(value, "dtype") and hasattr(value, "shape") and \
        not hasattr(value, "_version_counter")  # a minitorch Tensor, or a subclass


def operand(value: Any) -> Any:
    """The other operand of a tensor op: numpy scalars read as the Python numbers they hold
    (as torch reads them); a numpy array is refused (torch's operators convert it, minitorch
    asks for a tensor).

    >>> import numpy as np
    >>> operand(np.float32(2.5)), operand(3)
    (2.5, 3)
    """
    if not is_array(value):
        return value
    if value.shape == () and type(value).__module__ == "numpy" and \
            type(value).__name__ != "ndarray":
        number_ = _item(value)
        if isinstance(number_, (bool, int, float, complex)):
            return number_
    raise TypeError(f"minitorch does not mix tensors with {type_name(value)} operands (torch "
                    "converts them); wrap it first with minitorch.tensor(...) or "
                    "minitorch.from_numpy(...)")


def numpy_scalar(value: Any) -> Any:
    """A numpy scalar as the Python number it holds (torch reads it so); anything else,
    numpy arrays included, as it is.

    >>> import numpy as np
    >>> numpy_scalar(np.float64(-1.0)), numpy_scalar("a")
    (-1.0, 'a')
    """
    if is_array(value) and type(value).__name__ != "ndarray" and value.shape == ():
        return operand(value)
    return value


def int_scalar(value: int) -> int:
    """A Python int operand of an integer op, as torch reads it into int64: values up to
    2**64 wrap (torch reads them as unsigned), larger ones overflow."""
    if INT64_MIN <= value <= INT64_MAX:
        return value
    if INT64_MAX < value < 2 ** 64:
        return value - 2 ** 64
    raise int_overflow(value)


def int_overflow(value: int) -> OverflowError:
    """torch's error for a Python int outside what int64 (or uint64) holds."""
    if value < 0:
        return OverflowError("can't convert negative int to unsigned")
    return OverflowError("int too big to convert")


def scalar_for(value: int, dt: Any) -> Any:
    """A Python int operand of an op on a tensor of dtype ``dt``: a float for a floating
    tensor, else an int64 (with torch's overflow errors)."""
    return float_scalar(value) if dt.is_floating_point else int_scalar(value)


def float_scalar(value: Any) -> float:
    """A Python number as a double operand; ints outside int64/uint64 overflow, as in torch."""
    if type(value) is int and not INT64_MIN <= value < 2 ** 64:
        raise int_overflow(value)
    return float(value)


def kind_of(array_dtype: Any) -> str:
    """"int", "bool", "float" or "other" for an array dtype of any namespace.

    >>> import numpy as np
    >>> kind_of(np.dtype("int32")), kind_of(np.dtype("float64"))
    ('int', 'float')
    """
    name = str(array_dtype).rpartition(".")[2]
    if name == "bool":
        return "bool"
    if name.startswith(("int", "uint")):
        return "int"
    return "float" if name.startswith("float") else "other"


def assigned(value: Any, dt: Any, unsigned: bool = False, named: Any = None) -> Any:
    """A Python number written into a tensor of dtype ``dt`` (``x[i] = value``, ``fill_``),
    refused as torch when the dtype cannot hold it (``unsigned``: ints up to 2**64 are read,
    as ``fill_`` and ``full`` do for floating tensors); a non-number is refused naming the
    tensor's type (``named``, where ``dt`` is only the type it is read in).

    >>> import minitorch
    >>> assigned(float("nan"), minitorch.int64)
    Traceback (most recent call last):
    RuntimeError: value cannot be converted to type int64_t without overflow
    """
    if isinstance(value, (bool, int)) or type(value).__name__.startswith(("int", "uint", "bool")):
        n = int(value)
        high = 2 ** 64 if unsigned else INT64_MAX + 1
        if not INT64_MIN <= n < high:
            raise ValueError("Overflow when unpacking long long")
        if n > INT64_MAX and dt.name == "int64":  # read (unsigned), then not held
            raise conversion_overflow("int64_t")
        if dt.itemsize < 8 and dt.name != "bool":
            check_overflow(n, dt)
            from ._dtype import wrapped

            return value if dt.is_floating_point else wrapped(n, dt)
        return (n != 0) if dt.name == "bool" else value  # (2**63 into bool is True)
    if isinstance(value, (float, complex)) or type(value).__name__.startswith("float"):
        target = dt.c_scalar
        real = value.real if isinstance(value, complex) else float(value)
        if isinstance(value, complex) and dt.name == "bool":  # whether it is non-zero
            return bool(value)
        if isinstance(value, complex):  # its real part, if it is one
            if value.imag:
                raise conversion_overflow(target)
            value = real
        if dt.name != "float64":
            check_overflow(real, dt)  # compared as doubles: 2.0**63 passes into int64 ...
        if dt.name == "int64" and real == 2.0 ** 63:
            return INT64_MIN  # ... and converts to its minimum, as on torch's CPU
        return value
    raise TypeError(f"can't assign a {type_name(value)} to a torch.{legacy(named or dt)}Tensor")


def kernel_scalar(value: Any, dt: Any, opmath: bool = False) -> Any:
    """A Number argument as torch's kernel computing in ``dt`` reads it (``Scalar.to<T>``,
    after the parser kept a complex as it is): refused where ``dt`` cannot hold it, a complex
    read by its real part (any number into bool: whether it is non-zero), a float into an
    integer type truncated. An ``opmath`` kernel reads it for float16 in float32, the type
    it computes in.

    >>> import minitorch
    >>> kernel_scalar(1j, minitorch.float32)
    Traceback (most recent call last):
    RuntimeError: value cannot be converted to type float without overflow
    >>> kernel_scalar(2 + 0j, minitorch.float64), kernel_scalar(1j, minitorch.bool)
    (2.0, True)
    """
    if opmath and dt.name == "float16":
        from ._dtype import float32 as dt
    value = assigned(value, dt, unsigned=True)
    if isinstance(value, complex) or dt.name == "bool":
        return bool(value)
    return int(value) if isinstance(value, float) and kind_of(dt) == "int" else value


def one_half(value: Any) -> Any:
    """``value`` as fill_'s fast path for one float16 element reads it: as a double, unchecked
    (past half's largest, rounded to infinity), but a complex number's imaginary part refused.

    >>> one_half(1e300), one_half(2 + 0j)
    (inf, 2.0)
    >>> one_half(1j)
    Traceback (most recent call last):
    RuntimeError: value cannot be converted to type double without overflow
    """
    if isinstance(value, complex):
        if value.imag:
            raise conversion_overflow("double")
        value = value.real
    return math.copysign(math.inf, float(value)) if abs(float(value)) >= 65520 else value


def conversion_overflow(target: str) -> RuntimeError:
    """torch's refusal to read a number into the C type ``target``, which cannot hold it.

    >>> print(conversion_overflow("int64_t"))
    value cannot be converted to type int64_t without overflow
    """
    return RuntimeError(f"value cannot be converted to type {target} without overflow")


def check_overflow(value: float, dt: Any) -> None:
    from ._dtype import overflows

    if overflows(value, dt):
        raise conversion_overflow(dt.c_scalar)


def item_assigned(value: Any, dt: Any) -> Any:
    """A number written by ``x[key] = value``: as :func:`assigned`, but torch's indexing reads
    only Python numbers and what has ``__index__``, so other numpy scalars are refused; into
    float16 it is checked as a double (70000 becomes inf, as in torch).

    >>> import numpy as np, minitorch
    >>> item_assigned(np.float32(2), minitorch.float32)
    Traceback (most recent call last):
    TypeError: can't assign a numpy.float32 to a torch.FloatTensor
    """
    if is_array(value) and type(value).__name__ != "ndarray" and \
            not isinstance(value, (float, complex)) and as_int(value) is None:
        raise TypeError(f"can't assign a {type_name(value)} to a torch.{legacy(dt)}Tensor")
    if dt.name == "float16":  # torch reads it into a double first, then casts unchecked
        from ._dtype import float64

        checked = assigned(value, float64, named=dt)
        return checked if isinstance(value, complex) else value  # (a complex: its real part)
    return assigned(value, dt)


def fits_int64(value: float) -> bool:
    """True if a float converts to int64 without overflow (nan and inf do not)."""
    return math.isfinite(value) and -2.0 ** 63 <= value < 2.0 ** 63


def index_error(value: Any) -> IndexError:
    """torch's error for an index that is not an int, slice, None, ... or tensor."""
    return IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                      f"Variables are valid indices (got {type_name(value)})")


def hook_result(name: str, grad: Any, result: Any) -> Any:
    """What a gradient hook returned, checked as torch: None keeps ``grad``; otherwise a
    tensor of the same shape, dtype and device.

    >>> import minitorch
    >>> hook_result("hook", minitorch.ones(2), minitorch.ones(3))
    Traceback (most recent call last):
    RuntimeError: hook 'hook' has changed the size of value
    """
    if result is None:
        return None
    if type(result).__name__ != "Tensor" or not hasattr(result, "_data"):
        raise TypeError(f"expected Variable, but hook returned '{type_name(result)}'")
    if grad is None:
        return result
    if result.dtype is not grad.dtype or result.device != grad.device:  # torch: type, then size
        raise RuntimeError(f"hook '{name}' has changed the type of value (was "
                           f"{_legacy_name(grad)} got {_legacy_name(result)})")
    if result.shape != grad.shape:
        raise RuntimeError(f"hook '{name}' has changed the size of value")
    return result


def c_name(dt: Any) -> str:
    """A dtype as torch's C++ messages name it.

    >>> import minitorch
    >>> c_name(minitorch.int64)
    'long int'
    """
    return dt.c_type


def legacy(dt: Any) -> str:
    """torch's C++ name of a dtype, as its kernel errors print it: ``Float``, ``Long``."""
    return dt.legacy


def type_string(dt: Any) -> str:
    """torch's name of a CPU tensor's type of dtype ``dt`` in its messages (bool has no legacy
    tensor type).

    >>> import minitorch
    >>> type_string(minitorch.float32), type_string(minitorch.bool)
    ('torch.FloatTensor', 'CPUBoolType')
    """
    return "CPUBoolType" if dt.legacy == "Bool" else f"torch.{dt.legacy}Tensor"


def scalar_type(expected: Any, found: Any) -> None:
    """torch's refusal where a kernel reads an array of dtype ``found`` as ``expected``.

    >>> import minitorch
    >>> scalar_type(minitorch.int64, minitorch.float32)
    Traceback (most recent call last):
    RuntimeError: expected scalar type Long but found Float
    """
    if found is not expected:
        raise RuntimeError(f"expected scalar type {legacy(expected)} but found {legacy(found)}")


def arg_scalar_types(fn: str, arg: tuple, allowed: tuple) -> None:
    """torch's ``checkScalarTypes``: the tensor of ``arg`` (tensor, name, position) has one of
    the dtypes ``allowed`` names (as its kernel messages do: "Long", "Float").

    >>> import minitorch
    >>> arg_scalar_types("f", (minitorch.ones(1), "indices", 1), ("Long", "Int"))
    Traceback (most recent call last):
    RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar \
types: Long, Int; but got torch.FloatTensor instead (while checking arguments for f)
    """
    tensor, name, position = arg
    if legacy(tensor.dtype) not in allowed:
        raise RuntimeError(f"Expected tensor for argument #{position} '{name}' to have one of the "
                           f"following scalar types: {', '.join(allowed)}; but got "
                           f"{type_string(tensor.dtype)} instead (while checking arguments for "
                           f"{fn})")


def arg_same_type(fn: str, arg: tuple, other: tuple) -> None:
    """torch's ``checkSameType``: the tensors of ``arg`` and ``other`` (tensor, name,
    position) have one dtype.

    >>> import minitorch
    >>> arg_same_type("f", (minitorch.ones(1), "a", 1), (minitorch.ones(1).double(), "b", 2))
    Traceback (most recent call last):
    RuntimeError: Expected tensor for argument #1 'a' to have the same type as tensor for \
argument #2 'b'; but type torch.FloatTensor does not equal torch.DoubleTensor (while checking \
arguments for f)
    """
    (a, a_name, a_at), (b, b_name, b_at) = arg, other
    if a.dtype is not b.dtype:
        raise RuntimeError(f"Expected tensor for argument #{a_at} '{a_name}' to have the same "
                           f"type as tensor for argument #{b_at} '{b_name}'; but type "
                           f"{type_string(a.dtype)} does not equal {type_string(b.dtype)} "
                           f"(while checking arguments for {fn})")


def cast_error(result: Any, out: Any) -> RuntimeError:
    """torch's error for a result of dtype ``result`` written into a tensor of dtype ``out``.

    >>> import minitorch
    >>> cast_error(minitorch.float32, minitorch.int64)
    RuntimeError("result type Float can't be cast to the desired output type Long")
    """
    return RuntimeError(f"result type {legacy(result)} can't be cast to the desired output "
                        f"type {legacy(out)}")


def _legacy_name(t: Any) -> str:
    prefix = "torch.cuda." if t.device.type == "cuda" else "torch."
    return f"{prefix}{legacy(t.dtype)}Tensor"


def no_arguments(name: str, args: tuple, kwargs: dict) -> None:
    """torch's refusal of arguments to its builtin ``name`` that takes none.

    >>> no_arguments("torch.is_grad_enabled", (1,), {})
    Traceback (most recent call last):
    TypeError: torch.is_grad_enabled() takes no arguments (1 given)
    """
    if kwargs:
        raise TypeError(f"{name}() takes no keyword arguments")
    if args:
        raise TypeError(f"{name}() takes no arguments ({len(args)} given)")


def one_argument(name: str, method: bool = False) -> Callable:
    """Decorator: ``fn`` as torch's builtin ``name`` that takes one argument, by position
    only (after ``self`` for a ``method``), refusing others in Python's words for a C function.

    >>> one_argument("torch.f")(lambda a: a)(a=1)
    Traceback (most recent call last):
    TypeError: torch.f() takes no keyword arguments
    """
    def wrap(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def called(*args: Any, **kwargs: Any) -> Any:
            if kwargs:
                raise TypeError(f"{name}() takes no keyword arguments")
            if len(args) != 1 + method:
                raise TypeError(f"{name}() takes exactly one argument ({len(args) - method} "
                                "given)")
            return fn(*args)
        return called
    return wrap


def hook_name(hook: Any) -> str:
    """A hook as torch's messages name it: its ``__name__``, else its class's.

    >>> hook_name(print)
    'print'
    """
    return getattr(hook, "__name__", type(hook).__name__)


def post_accumulate_hook_result(name: str, variable: Any, result: Any) -> None:
    """What a post-accumulate-grad hook ``name`` of ``variable`` returned, checked as torch:
    None (or the tensor itself); another tensor is checked as any hook's result against
    ``variable``, then refused; anything else is no tensor at all.

    >>> post_accumulate_hook_result("hook", None, [1])
    Traceback (most recent call last):
    TypeError: expected Variable, but hook returned 'list'
    """
    if result is None or result is variable:
        return
    hook_result(name, variable, result)
    raise RuntimeError("Tensor post accumulate grad hooks should return None.")


def node_hook_result(hook: Any, old: tuple, result: Any) -> tuple:
    """What a Node's (pre)hook returned in place of ``old``: a tuple of the same length whose
    tensors keep their shape, dtype and device (None keeps ``old``)."""
    name = hook_name(hook)
    if not isinstance(result, tuple):
        raise TypeError(f"expected tuple, but hook returned '{type_name(result)}'")
    if len(result) != len(old):
        raise RuntimeError(f"hook '{name}' has returned an incorrect number of values (got "
                           f"{len(result)}, but expected {len(old)})")
    for was, new in zip(old, result):
        if was is None and new is not None:
            raise RuntimeError("can't replace a None gradient with a non-None value")
        if new is not None:
            hook_result(name, was, new)
    return result


# Python's operators, for the checks torch writes in Python (see python_op)
_OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "%": operator.mod, "//": operator.floordiv, "/": operator.truediv, "*": operator.mul,
    "+": operator.add, "-": operator.sub, "**": operator.pow}
# Python 3.11's words for a zero divisor: (operator, a float among the operands) -> message
_ZERO_DIVISION = {("%", False): "integer modulo by zero", ("%", True): "float modulo",
                  ("//", False): "integer division or modulo by zero",
                  ("//", True): "float floor division by zero",
                  ("/", False): "division by zero", ("/", True): "float division by zero"}


def python_op(a: Any, symbol: str, b: Any) -> Any:
    """``a symbol b`` where torch's own check is Python code (``groups <= 0``,
    ``in_channels % groups``): its value, or the TypeError or ZeroDivisionError Python
    raises there, in Python's words, raised here as minitorch's refusal. Numbers and
    tensors are operands; a sequence or string keeps Python's own meaning of ``%``, ``*``
    and ``+`` (:func:`_sequence_meaning`).

    >>> python_op(4, "%", 3), python_op(2.0, "<=", 0)
    (1, False)
    >>> python_op((1,), "<=", 0)
    Traceback (most recent call last):
    TypeError: '<=' not supported between instances of 'tuple' and 'int'
    >>> python_op(4, "//", 0)
    Traceback (most recent call last):
    ZeroDivisionError: integer division or modulo by zero
    """
    compare = symbol in ("<", "<=", ">", ">=")
    if _sequence_meaning(a, symbol, b):
        try:
            return _OPERATORS[symbol](a, b)
        except TypeError as error:  # a string's formatting: Python's own words, as torch's
            raise TypeError(str(error)) from None
    if not (_python_operand(a, compare) and _python_operand(b, compare)):
        names = f"'{type(a).__name__}' and '{type(b).__name__}'"
        raise TypeError(f"'{symbol}' not supported between instances of {names}" if compare
                        else f"unsupported operand type(s) for "
                        f"{'** or pow()' if symbol == '**' else symbol}: {names}")
    if symbol in ("%", "//", "/") and not is_tensor(b) and b == 0 and not is_tensor(a):
        floats = isinstance(a, float) or isinstance(b, float)
        raise ZeroDivisionError(_ZERO_DIVISION[symbol, floats])
    return _OPERATORS[symbol](a, b)


def _sequence_meaning(a: Any, symbol: str, b: Any) -> bool:
    """Whether Python gives ``a symbol b`` a meaning for sequences: formatting (``%`` of a
    string), repetition (``*`` by an int), concatenation (``+``, refused in Python's words
    for other kinds) and ordering (``<``...) of two of a kind."""
    sequences = (str, bytes, list, tuple)
    if symbol in ("<", "<=", ">", ">="):
        return isinstance(a, sequences) and type(a) is type(b)
    if symbol == "%":
        return isinstance(a, (str, bytes))
    if symbol == "*":  # (by anything but a tensor: Python's own words for a non-int)
        return (isinstance(a, sequences) and not is_tensor(b)) or \
            (isinstance(b, sequences) and not is_tensor(a))
    # a sequence's + of anything but a tensor: Python's own "can only concatenate" words
    return symbol == "+" and isinstance(a, sequences) and not is_tensor(b)


def _python_operand(value: Any, ordered: bool) -> bool:
    """A number (one that Python orders, where it is ordered: not a Python complex), a
    tensor, or a numpy array or scalar (numpy's operators give their own answer)."""
    if is_tensor(value) or is_array(value):
        return True
    return isinstance(value, _numbers.Number) and not (ordered and isinstance(value, complex))


def python_float(value: Any) -> float:
    """``float(value)`` where torch's Python takes it (a scheduler's metric), Python's own
    refusal raised here.

    >>> python_float("2.5"), python_float(3)
    (2.5, 3.0)
    >>> python_float(None)
    Traceback (most recent call last):
    TypeError: float() argument must be a string or a real number, not 'NoneType'
    """
    if isinstance(value, (str, bytes, bytearray)):
        try:
            return float(value)
        except ValueError:  # Python's words for a string that is no number
            raise ValueError(f"could not convert string to float: {value!r}") from None
    if not (is_tensor(value) or hasattr(type(value), "__float__") or
            hasattr(type(value), "__index__")):
        raise TypeError("float() argument must be a string or a real number, not "
                        f"'{type(value).__name__}'")
    return float(value)


def python_call(fn: Any, *args: Any) -> Any:
    """``fn(*args)`` where torch's Python calls a user's value (an ``lr_lambda``): Python's
    TypeError for one that is not callable, raised here.

    >>> python_call(1, 0)
    Traceback (most recent call last):
    TypeError: 'int' object is not callable
    """
    if not callable(fn):
        raise TypeError(f"'{type(fn).__name__}' object is not callable")
    return fn(*args)


def python_index(value: Any) -> int:
    """``value`` as Python reads an index where torch's Python uses it as one (``range(n)``,
    a list position): Python's TypeError for one that is none, raised here.

    >>> python_index(2)
    2
    >>> python_index(2.0)
    Traceback (most recent call last):
    TypeError: 'float' object cannot be interpreted as an integer
    """
    if not hasattr(type(value), "__index__"):
        raise TypeError(f"'{type(value).__name__}' object cannot be interpreted as an integer")
    return operator.index(value)


def python_int(value: Any) -> int:
    """``int(value)`` where torch's Python truncates a user's value (``int(size * scale)``):
    Python's refusal of a nan, an infinity, a string that is no integer or no number at all,
    raised here.

    >>> python_int(2.7), python_int("3")
    (2, 3)
    >>> python_int(float("nan"))
    Traceback (most recent call last):
    ValueError: cannot convert float NaN to integer
    """
    if isinstance(value, float) and not math.isfinite(value):
        if math.isnan(value):
            raise ValueError("cannot convert float NaN to integer")
        raise OverflowError("cannot convert float infinity to integer")
    if isinstance(value, (str, bytes, bytearray)):
        try:
            return int(value)
        except ValueError:  # Python's words for a string that is no integer
            raise ValueError(f"invalid literal for int() with base 10: {value!r}") from None
    if not (is_tensor(value) or any(hasattr(type(value), name) for name in
                                      ("__int__", "__index__", "__trunc__"))):
        raise TypeError("int() argument must be a string, a bytes-like object or a real "
                        f"number, not '{type(value).__name__}'")
    return int(value)


def python_ceil(value: Any) -> int:
    """``math.ceil(value)`` where torch's Python rounds a user's value up
    (``ceil(sparsity * rows)``): Python's refusal of a nan, an infinity or no number.

    >>> python_ceil(0.5)
    1
    >>> python_ceil("aa")
    Traceback (most recent call last):
    TypeError: must be real number, not str
    """
    if not (is_tensor(value) or isinstance(value, _numbers.Real) or
            hasattr(type(value), "__ceil__") or hasattr(type(value), "__float__")):
        raise TypeError(f"must be real number, not {type(value).__name__}")
    if isinstance(value, float) and not math.isfinite(value):
        return python_int(value)  # Python's words for a nan or an infinity
    return math.ceil(value)


def python_item(value: Any, index: int) -> Any:
    """``value[index]`` where torch's Python indexes a user's setting (``eps[0]``): Python's
    TypeError for a value that is not subscriptable, its IndexError for a short sequence.

    >>> python_item((1e-3, 0.1), 1)
    0.1
    >>> python_item(1e-8, 0)
    Traceback (most recent call last):
    TypeError: 'float' object is not subscriptable
    """
    if not hasattr(type(value), "__getitem__"):
        raise TypeError(f"'{type(value).__name__}' object is not subscriptable")
    if isinstance(value, (tuple, list, str)) and not -len(value) <= index < len(value):
        raise IndexError(f"{type(value).__name__} index out of range")
    return value[index]


def python_unpack(value: Any, n: int) -> tuple:
    """``a, b = value`` where torch's Python unpacks a user's setting (``betas``): Python's
    refusal of a value that is no iterable or holds too few or too many.

    >>> python_unpack((0.9, 0.99), 2)
    (0.9, 0.99)
    >>> python_unpack((0.9, 0.99, 0.1), 2)
    Traceback (most recent call last):
    ValueError: too many values to unpack (expected 2)
    """
    if not hasattr(type(value), "__iter__") and not hasattr(type(value), "__getitem__"):
        raise TypeError(f"cannot unpack non-iterable {type(value).__name__} object")
    values = tuple(value)
    if len(values) < n:
        raise ValueError(f"not enough values to unpack (expected {n}, got {len(values)})")
    if len(values) > n:
        raise ValueError(f"too many values to unpack (expected {n})")
    return values


def python_ntuple(value: Any, n: int) -> tuple:
    """torch's ``_pair``/``_single`` (Python code): an iterable as a tuple, anything else
    ``n`` times; the values are read where they are used.

    >>> python_ntuple(3, 2), python_ntuple([1, 2], 2), python_ntuple(2.5, 1)
    ((3, 3), (1, 2), (2.5,))
    """
    return tuple(value) if isinstance(value, Iterable) else (value,) * n


def python_negative(value: Any) -> Any:
    """``-value`` where torch's Python negates a user's value (``-num_embeddings``): Python's
    TypeError for one that is no number, raised here.

    >>> python_negative(3)
    -3
    >>> python_negative(None)
    Traceback (most recent call last):
    TypeError: bad operand type for unary -: 'NoneType'
    """
    if not _python_operand(value, False):
        raise TypeError(f"bad operand type for unary -: '{type(value).__name__}'")
    return -value
