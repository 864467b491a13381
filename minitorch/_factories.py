"""Factories that torch programs use beyond the core ones: ``linspace``, ``logspace``,
``full_like``/``empty_like``, the legacy typed constructors (``torch.Tensor(2, 3)``,
``FloatTensor``, ``LongTensor``, ...), ``Tensor.type`` and the default device.

>>> import minitorch
>>> minitorch.linspace(0, 1, 5)
tensor([0.0000, 0.2500, 0.5000, 0.7500, 1.0000])
>>> minitorch.FloatTensor([1, 2])
tensor([1., 2.])
"""

from __future__ import annotations

import functools
import importlib
import inspect
import math
import operator
import sys
import warnings
from collections.abc import Callable
from typing import Any

from . import _args, _batched_function, _call_form, _layout, _storage, backend
from . import _dtype as D
from ._creation import (
    _CREATION_KEYWORDS,
    _created,
    _filled,
    _is_sequence,
    _leaf,
    as_array,
    empty,
    full,
    ones,
    warn_copy_construct,
    zeros,
)
from ._powf import c_pow, c_pow_of
from ._tensor import Size, Tensor
from ._warn_once import warn_once
from .autograd import grad_mode
from .autograd.function import Function
from .ops import _fused

__all__ = ["BoolTensor", "ByteTensor", "CharTensor", "DoubleTensor", "FloatTensor", "HalfTensor",
           "IntTensor", "LongTensor", "ShortTensor", "creation_options", "empty_like",
           "empty_strided", "full_like", "get_default_device", "legacy_array", "legacy_tensor",
           "linspace", "logspace", "resize_storage", "scalar_tensor", "set_default_device",
           "set_default_tensor_type", "with_size_keyword"]


def _spaced_args(fn: str, start: Any, end: Any, steps: Any, dtype: Any, requires_grad: Any,
                 base: Any = _args.OMITTED) -> tuple:
    """``start``, ``end`` as floats, ``steps`` as an int, the dtype's name, the flag and
    ``base``, checked as torch does: its parser (a 0-d tensor end is its Tensor overload's),
    then its kernel."""
    numbers = [_args.OMITTED if _args.is_tensor(v) else v for v in (start, end)]
    first, last, steps, base, dt, requires_grad = _args.parsed(
        fn, ("number", numbers[0], "start", 1), ("number", numbers[1], "end", 2),
        ("int", steps, "steps", 3), ("float", base, "base", 4), ("dtype", dtype, "dtype", None),
        ("flag", requires_grad, "requires_grad", None))
    tensors = [(name, v) for name, v in (("start", start), ("end", end)) if _args.is_tensor(v)]
    if any(v.dim() for _, v in tensors):  # torch's Tensor overloads take 0-d ones (with two
        got = " and ".join(f"{name} with {v.dim()} dimension(s)" for name, v in tensors)
        raise RuntimeError(f"{fn} only supports 0-dimensional start and end tensors, but "
                           f"got {got}.")  # tensors, it names both)
    start = _args.number(fn, start, "start", 1) if _args.is_tensor(start) else first
    end = _args.number(fn, end, "end", 2) if _args.is_tensor(end) else last
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    if any(isinstance(value, complex) for value in (start, end)) and _args.is_into_out():
        start, end = (_args.assigned(v, dt, unsigned=True) if isinstance(v, complex) else v
                      for v in (start, end))  # (out=: both read into out's dtype, no inference)
    if any(isinstance(value, complex) for value in (start, end)):
        if dt is not None:
            raise RuntimeError(f"torch.{fn}(): inferred dtype c10::complex<float> can't be "
                               f"safely cast to passed dtype {_args.legacy(dt)}")
        raise TypeError(f"{fn}(): minitorch has no complex tensors; 'start' and 'end' must "
                        "be real numbers")
    dt = dt or D.get_default_dtype()
    dtype_name = dt.name
    _args.check_alloc((steps,), dt.itemsize)  # torch's output, made before its kernel runs
    if dtype_name == "bool" and steps > 1:  # (one step fills, no step runs nothing)
        raise _args.not_implemented(f"{fn}_cpu", dt)
    ends = (start, end)[:steps]
    if fn == "logspace" and steps == 1 and not dt.is_floating_point:  # filled: base ** start
        ends = (c_pow_of(float(base), float(start)),)
    if not (steps == 1 and dtype_name == "float16"):  # (one half: fill_'s unchecked path)
        for value in ends:  # torch converts the ends it uses to the dtype: both,
            _args.assigned(value, dt, unsigned=True)  # one for one step (fills with start)
    if steps > 1 and not dt.is_floating_point and dtype_name != "bool":  # int ends wrap
        start, end = (D.wrapped(v, dt) if type(v) is int else v for v in (start, end))
    return float(start), float(end), steps, dtype_name, requires_grad, base


def _evenly_spaced(xp: Any, start: float, end: float, steps: int, name: str) -> Any:
    """torch's linspace: the first half counts up from ``start``, the second half down from
    ``end``, so both ends are exact; integer dtypes truncate a float64 computation."""
    work = name if name.startswith("float") else "float64"
    dt = backend.array_dtype(xp, work)
    with backend.quiet():  # torch's kernel in that dtype (see ops/_fused.py), cast unchecked
        if steps == 1:
            return xp.astype(xp.full((1,), start, dtype=dt), backend.array_dtype(xp, name))
        start, end = _integer_ends(start, end, steps, name)
        return xp.astype(_fused.linspace(xp, start, end, steps, dt),
                         backend.array_dtype(xp, name))


def _log_exponents(xp: Any, start: float, end: float, steps: int, name: str) -> Any:
    """torch's logspace exponents in float64 (steps >= 2): its ends in dtype ``name`` (an
    integer dtype's truncated), the step their difference in that dtype over ``steps - 1`` in
    float64, ``start + step*i`` for the first half, ``end - step*(steps-1-i)`` for the second
    (C++ built without fused multiply-adds, unlike linspace's vectorised kernel)."""
    first, last = _integer_ends(start, end, steps, name)
    span = last - first
    if name.startswith("float"):
        with backend.quiet():  # a span past the dtype's range is inf, as in torch
            ends = xp.asarray([first, last], dtype=backend.array_dtype(xp, name))
            first, last, span = float(ends[0]), float(ends[1]), float(ends[1] - ends[0])
    step = span / (steps - 1)
    count = xp.arange(steps, dtype=xp.float64)
    with backend.quiet():  # (inf * 0 is nan, as in torch)
        return xp.where(count < steps // 2, first + step * count,
                        last - step * (steps - 1 - count))


def _integer_ends(start: float, end: float, steps: int, name: str) -> tuple[float, float]:
    """The ends torch's kernel spaces for dtype ``name``: an integer dtype's truncated to it
    where there are two steps or more (one step is ``start`` itself)."""
    if steps < 2 or name.startswith("float"):
        return start, end
    return float(math.trunc(start)), float(math.trunc(end))


def _spaced_signatures(extra: str = "") -> tuple:
    """torch's overloads of linspace (``extra``: logspace's ``base``): each of start and end
    a Tensor or a Number."""
    kinds = ("Tensor", "Number")
    return tuple(f"{a} start, {b} end, int steps, {extra}*, Tensor out = None, "
                 f"{_CREATION_KEYWORDS}" for b in kinds for a in kinds)


@_call_form.overloads(*_spaced_signatures())
def linspace(start: Any, end: Any, steps: int, *, dtype: D.dtype | None = None,
             device: Any = None, requires_grad: bool = False) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end``, both included.

    >>> minitorch.linspace(-1, 1, 3)
    tensor([-1.,  0.,  1.])
    """
    start, end, steps, name, requires_grad, _ = _spaced_args("linspace", start, end, steps,
                                                             dtype, requires_grad)
    return _leaf(_created(lambda xp: _evenly_spaced(xp, start, end, steps, name), device),
                 requires_grad)


@_call_form.overloads(*_spaced_signatures("float base = 10.0, "))
def logspace(start: Any, end: Any, steps: int, base: float = 10.0, *,
             dtype: D.dtype | None = None, device: Any = None,
             requires_grad: bool = False) -> Tensor:
    """``base ** linspace(start, end, steps)``.

    >>> minitorch.logspace(0, 2, 3)
    tensor([  1.,  10., 100.])
    """
    start, end, steps, name, requires_grad, base = _spaced_args("logspace", start, end, steps,
                                                                dtype, requires_grad, base)
    if steps == 1 and name != "float16":  # torch fills its one value, with fill_'s check
        # that the dtype holds it (not for one half, fill_'s fast path)
        _args.assigned(c_pow_of(float(base), start), getattr(D, name))

    def make(xp: Any) -> Any:
        if steps == 1:
            powers = xp.full((1,), c_pow_of(float(base), start), dtype=xp.float64)
        else:
            powers = c_pow(xp, float(base), _log_exponents(xp, start, end, steps, name))
        if name == "float16":  # torch's double goes to float, then to half
            powers = xp.astype(powers, xp.float32)
        with backend.quiet():
            return xp.astype(powers, backend.array_dtype(xp, name))

    return _leaf(_created(make, device), requires_grad)


@_call_form.alias_of("full")  # full's refusals of the fill value and flags are its own
@_args.tensors("full_like", input="input")
@_call_form.parser_types(fill_value="Number")
def full_like(input: Tensor, fill_value: Any, *, dtype: D.dtype | None = None,
              device: Any = None, requires_grad: bool | None = False,
              memory_format: Any = None) -> Tensor:
    """``fill_value`` in the shape (and dtype, device) of ``input``.

    >>> minitorch.full_like(minitorch.ones(2), 7)
    tensor([7., 7.])
    """
    dtype = _args.dtype("full_like", dtype) or input.dtype
    strides = _layout.preserved_strides("full_like", input, memory_format)
    return _layout.laid_out(full(tuple(input.shape), fill_value, dtype=dtype,
                                 device=input.device if device is None else device,
                                 requires_grad=requires_grad), strides)


@_args.tensors("empty_like", input="input")
def empty_like(input: Tensor, *, dtype: D.dtype | None = None, device: Any = None,
               requires_grad: bool | None = False, memory_format: Any = None) -> Tensor:
    """An uninitialised tensor shaped like ``input`` (minitorch fills it with zeros).

    >>> minitorch.empty_like(minitorch.ones(2, 3)).shape
    torch.Size([2, 3])
    """
    dtype = _args.dtype("empty_like", dtype) or input.dtype
    requires_grad = _args.flag("empty_like", requires_grad, "requires_grad", none=True)
    strides = _layout.preserved_strides("empty_like", input, memory_format)
    return _layout.laid_out(zeros(tuple(input.shape), dtype=dtype, device=input.device
                                  if device is None else device, requires_grad=requires_grad),
                            strides)


def with_size_keyword(factory: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """``factory(*size)`` that also takes torch's ``size=`` keyword.

    >>> with_size_keyword(minitorch.zeros)(size=(1, 2)).shape
    torch.Size([1, 2])
    """

    @functools.wraps(factory)
    def sized(*args: Any, size: Any = _args.OMITTED, **kwargs: Any) -> Tensor:
        if size is not _args.OMITTED:
            args = (_args.by_keyword(factory.__name__, "size", args, size),)
        return factory(*args, **kwargs)

    return sized


def creation_options(factory: Callable[..., Tensor], *, layout: bool = True,
                     pin_memory: bool = True, out: bool = True,
                     pin_none: bool = True) -> Callable[..., Tensor]:
    """``factory`` taking torch's tensor options that minitorch answers one way, each where
    its flag says torch's signature has it: ``layout`` (``strided``, minitorch's only one),
    ``pin_memory`` (True refused once the factory's own checks pass: there is no pinned
    memory without an accelerator; a meta tensor has none to pin; None refused unless
    ``pin_none``, as torch's ``tensor`` refuses it) and ``out=`` (:func:`_created_into`).

    >>> creation_options(minitorch.zeros)(2, layout=minitorch.strided, pin_memory=False)
    tensor([0., 0.])
    """
    name = factory.__name__
    options = {"layout": layout, "out": out}
    first = next(iter(inspect.signature(factory).parameters.values()), None)
    sized = first is not None and first.kind is first.VAR_POSITIONAL  # zeros(*size)
    formats = "memory_format" in inspect.signature(factory).parameters

    @functools.wraps(factory)
    def made(*args: Any, **kwargs: Any) -> Tensor:
        pinned = kwargs.pop("pin_memory", False) if pin_memory else False
        given = {k: kwargs.pop(k, None) for k, taken in options.items() if taken}
        kind = given.get("layout")
        if sized:  # the parser reads the sizes' types first
            _args.size_types(name, (kwargs["size"],) if "size" in kwargs and not args else args)
        if typed := _call_form.positional_types(factory, name, args, kwargs):
            raise TypeError(typed)  # torch's parser reads the positional arguments first
        if formats:  # first option in torch's parser (its rank: the kernel's, later)
            _layout.typed(name, kwargs.get("memory_format"))
        _args.dtype(name, kwargs.get("dtype"))  # torch's parser reads dtype before layout
        _layout_typed(name, kind)
        _args.device_type(name, kwargs.get("device"))
        pin = _args.flag(name, pinned, "pin_memory", none=pin_none)
        _device_made(factory, args, kwargs)
        if pin and factory(*args, **kwargs).device.type != "meta":
            raise RuntimeError("pin_memory=True requires a CUDA or other accelerator backend; "
                               "no pinned memory allocator is available on this system.")
        if (out := given.get("out")) is not None:
            if not isinstance(out, Tensor):
                raise TypeError(f"{name}(): argument 'out' must be Tensor, not "
                                f"{_args.type_name(out)}")
            if not _call_form.binds(factory, args, kwargs) or _call_form.parameter_types(
                    factory, name, args, kwargs):
                factory(*args, **kwargs)  # (the parser's refusal first: its entry's words,
                # counting out= among the arguments, as here)
            return _created_into(factory, args, kwargs, out)
        return factory(*args, **kwargs)

    made.__signature__ = _with_options(factory, {**options, "pin_memory": pin_memory})
    return made


def _layout_typed(name: str, kind: Any) -> None:
    """torch's parser's refusal of a ``layout=`` that is none (None passes)."""
    if kind is not None and (not isinstance(kind, _layout.layout) or
                             isinstance(kind, _layout.memory_format)):
        raise TypeError(f"{name}(): argument 'layout' must be torch.layout, not "
                        f"{_args.type_name(kind)}")


def _device_made(factory: Callable, args: tuple, kwargs: dict) -> None:
    """torch's binding makes the device (a bad string or index refused) once its parser has
    read every argument's type, before it unpacks a size or runs the kernel's checks."""
    device = kwargs.get("device")
    if not isinstance(device, (str, int)) or isinstance(device, bool) or \
            _call_form.parameter_types(factory, factory.__name__, args, kwargs):
        return
    _args.flag(factory.__name__, kwargs.get("requires_grad", False), "requires_grad", none=True)
    backend.device(device)


def _with_options(factory: Callable, options: dict) -> inspect.Signature:
    """``factory``'s signature with the keyword-only ``options`` its wrapper takes (those
    True), so that a call's unknown keyword is told from them."""
    signature = inspect.signature(factory)
    params = list(signature.parameters.values())
    at = next((i for i, p in enumerate(params) if p.kind is p.VAR_KEYWORD), len(params))
    added = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY,
                               default=False if name == "pin_memory" else None)
             for name, taken in options.items() if taken and name not in signature.parameters]
    return signature.replace(parameters=params[:at] + added + params[at:])


# the 1-d factories whose kernels resize out only where its number of elements differs
_SEQUENCES = frozenset({"arange", "range", "linspace", "logspace"})


def _created_into(factory: Callable[..., Tensor], args: tuple, kwargs: dict,
                  out: Any) -> Tensor:
    """``factory(*args, out=out)`` as torch: made with ``out``'s dtype and device (a different
    ``dtype=`` is refused), then ``out`` resized to it (a sequence's: to as many elements,
    with arange's warning) and, but for ``empty``, written; a ``requires_grad=True`` makes
    ``out`` require grad."""
    name = factory.__name__
    if kwargs.get("device") is not None:  # the parser makes the device, out's or not
        backend.device(kwargs["device"])
    dtype = kwargs.get("dtype")
    if dtype is not None and dtype != out.dtype:
        raise RuntimeError(f"dtype {_args.legacy(dtype)} does not match dtype of out parameter "
                           f"({_args.legacy(out.dtype)})")
    if out.requires_grad and grad_mode.is_grad_enabled():
        _unpacked(factory, args, {**kwargs, "dtype": out.dtype}, checked=name == "empty")
        if name in ("empty", "randn"):  # torch's composite out=: out.resize_(...) first
            raise RuntimeError("cannot resize variables that require grad")
        raise RuntimeError(f"aten::{name}(): functions with out=... arguments don't support "
                           "automatic differentiation, but one of the arguments requires grad.")
    with _args.into_out():
        result = factory(*args, **{**kwargs, "dtype": out.dtype, "device": out.device})
    with grad_mode.no_grad(), _batched_function.own_write():
        if name in _SEQUENCES and out.numel() == result.numel():  # out's shape kept
            result = result.reshape(out.shape)
        elif name in ("empty", "randn"):  # torch's composite out=: out.resize_(...), counted
            resize_(out, result.shape)
        elif out.shape != result.shape:  # the kernels' resize, which torch does not count
            if name == "arange" and out.numel():
                warnings.warn(
                    f"The number of elements in the out tensor of shape {list(out.shape)} is "
                    f"{out.numel()} which does not match the computed number of elements "
                    f"{result.numel()}. Note that this may occur as a result of rounding "
                    "error. The out tensor will be resized to a tensor of shape "
                    f"({result.numel()},).", UserWarning, stacklevel=4)
            resize_storage(out, result.shape)
        if name != "empty":  # torch's empty leaves what the memory held
            out.copy_(result)
    return out.requires_grad_() if result.requires_grad else out


def _unpacked(factory: Callable[..., Tensor], args: tuple, kwargs: dict,
              checked: bool = False) -> None:
    """torch's binding's refusals of ``factory``'s arguments as it unpacks them (an int past
    int64), which come before its kernel's (autograd's of out=): the factory run on the meta
    device (nothing allocated, nothing drawn), its own checks' refusals ignored unless
    ``checked`` (empty's sizes, checked before it resizes out)."""
    try:
        factory(*args, **{**kwargs, "device": "meta"})
    except (TypeError, ValueError, OverflowError):
        raise
    except Exception:  # (the kernel's: after autograd's refusal)
        if checked:
            raise


def scalar_tensor(s: Any, *, dtype: D.dtype | None = None, device: Any = None,
                  requires_grad: bool | None = False) -> Tensor:
    """A 0-d tensor holding the number ``s``, of the default float dtype unless ``dtype``.

    >>> minitorch.scalar_tensor(3), minitorch.scalar_tensor(3, dtype=minitorch.int64)
    (tensor(3.), tensor(3))
    """
    s, dtype, requires_grad = _args.parsed(
        "scalar_tensor", ("number", s, "s", 1), ("dtype", dtype, "dtype", None),
        ("flag", requires_grad, "requires_grad", None))
    return full((), s, dtype=dtype or D.get_default_dtype(), device=device,
                requires_grad=requires_grad)


@_call_form.parser_types(size="int[]", stride="int[]")  # (no lone int, as torch)
def empty_strided(size: Any, stride: Any, *, dtype: D.dtype | None = None, device: Any = None,
                  requires_grad: bool | None = False) -> Tensor:
    """A new tensor of ``size`` laid out with the element steps ``stride`` (minitorch fills it
    with zeros; torch leaves it uninitialised). Where the steps make elements overlap, it is
    read-only here.

    >>> x = minitorch.empty_strided((2, 3), (1, 2)); x.stride(), x.is_contiguous()
    ((1, 2), False)
    """
    if typed := _call_form.parameter_types(empty_strided, "empty_strided", (size, stride), {}):
        raise TypeError(typed)  # (the parser's types of both before either is unpacked)
    size, stride, dtype, requires_grad = _args.parsed(
        "empty_strided", ("ints", size, "size", 1), ("ints", stride, "stride", 2),
        ("dtype", dtype, "dtype", None), ("flag", requires_grad, "requires_grad", None))
    _args.non_negative("empty_strided", size)  # torch's check of the sizes comes first
    if len(size) != len(stride):
        raise RuntimeError(f"dimensionality of sizes ({len(size)}) must match dimensionality "
                           f"of strides ({len(stride)})")
    if 0 not in size and any(step < 0 and n > 1 for n, step in zip(size, stride)):
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and "
                           f"strides={list(stride)}")  # (torch's unsigned product overflows)
    stride = _nonnegative_strides(size, stride)
    dtype = dtype or D.get_default_dtype()
    storage = backend.strided_storage(size, stride)
    if storage * dtype.itemsize > _args.INT64_MAX:  # torch's computeStorageNbytes: both named
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and "
                           f"strides={list(stride)}")
    _args.check_alloc((storage,), dtype.itemsize)
    _args.check_holdable(size, dtype.itemsize)
    name = dtype.name
    array = _created(lambda xp: backend.strided_zeros(xp, size, stride,
                                                      backend.array_dtype(xp, name)), device)
    return _leaf(array, requires_grad)


def _nonnegative_strides(size: tuple, stride: tuple) -> tuple:
    """``stride`` as torch's tensor takes it: a negative step (which only a dim of one
    element, or a tensor of none, gets past the storage check) replaced from the last dim
    up: 1 for the last, else the next dim's size times its step, as numpy's order.

    >>> _nonnegative_strides((0, 3), (5, -2)), _nonnegative_strides((1, 2), (-1, 1))
    ((5, 1), (2, 1))
    """
    steps = list(stride)
    for d in reversed(range(len(steps))):
        if steps[d] < 0:
            steps[d] = 1 if d == len(steps) - 1 else max(size[d + 1], 1) * steps[d + 1]
    return tuple(steps)


def new_empty_strided(self: Tensor, size: Any, stride: Any, *, dtype: D.dtype | None = None,
                      device: Any = None, requires_grad: bool = False,
                      **options: Any) -> Tensor:
    """:func:`empty_strided` with this tensor's dtype and device unless given (and torch's
    ``layout=`` and ``pin_memory=`` as ``empty_strided`` takes them).

    >>> minitorch.ones(1, dtype=minitorch.int32).new_empty_strided((2,), (2,)).stride()
    (2,)
    """
    if typed := _call_form.parameter_types(empty_strided, "new_empty_strided", (size, stride),
                                           {}):
        raise TypeError(typed)  # (empty_strided's parser's types: a lone int is no size)
    dtype = _args.dtype("new_empty_strided", dtype) or self.dtype
    try:
        return creation_options(empty_strided, out=False)(
            size, stride, dtype=dtype, device=self.device if device is None else device,
            requires_grad=requires_grad, **options)
    except TypeError as error:  # torch names the method in its argument errors
        raise TypeError(str(error).replace("empty_strided()", "new_empty_strided()", 1)
                        ) from None


# ---- the default device ---------------------------------------------------------------------
def set_default_device(device: Any) -> None:
    """Make factories place new tensors on ``device`` (None: the CPU).

    >>> minitorch.set_default_device("cpu"); minitorch.ones(1).device
    device(type='cpu')
    >>> minitorch.set_default_device(None)
    """
    dev = backend.as_device(device)
    if dev is not None and dev.type != "cpu":
        backend.factory_namespace(dev)  # fails now, not at the next factory, without CuPy
    backend.default_device = dev


def get_default_device() -> backend.device:
    """The device factories use when none is given.

    >>> minitorch.get_default_device()
    device(type='cpu')
    """
    return backend.default_device or backend.CPU


# ---- the legacy constructors --------------------------------------------------------------
def _is_sizes(args: tuple) -> bool:
    if len(args) == 1 and isinstance(args[0], tuple) and all(isinstance(a, int) for a in args[0]):
        return type(args[0]).__name__ == "Size"
    # numpy's ints (a 0-d integer array too) are sizes to torch, a tensor is data
    return all(not isinstance(a, Tensor) and _args.as_int(a) is not None for a in args)


# the signatures of torch's legacy constructor, its parser's function ``new``
_LEGACY_SIGNATURES = ("*, torch.device device = None", "torch.Storage storage", "Tensor other",
                      "tuple of ints size, *, torch.device device = None",
                      "object data, *, torch.device device = None")


def legacy_array(args: tuple, dtype: D.dtype | None, keywords: dict) -> Any:
    """The array of ``torch.Tensor(*args, **keywords)`` (``dtype`` None: the default dtype,
    but a tensor keeps its own; ``device`` the one keyword): no argument is an empty tensor,
    integers (or a Size) a zero-filled tensor of that shape, a tensor itself (which torch
    aliases: :func:`legacy_tensor`), anything else data converted to ``dtype``.

    >>> legacy_array((2, 3), D.float32, {}).shape
    (2, 3)
    >>> legacy_array((2, -1), D.float32, {})
    Traceback (most recent call last):
    RuntimeError: Trying to create tensor with negative dimension -1: [2, -1]
    """
    device = keywords.get("device")
    if not args:
        args, keywords = _by_keyword(keywords)
    if keywords.keys() - {"device"} or (len(args) > 1 and _args.as_int(args[0]) is None) or \
            not _is_device(device):
        raise _args.invalid_combination("new", args, *_LEGACY_SIGNATURES, keywords=keywords)
    if not args:
        args = (0,)
    if _is_sizes(args) or len(args) > 1:  # torch reads sizes when the first is an int
        shape = _args.sizes("new", args, check_negative=False)
        _args.non_negative("new", shape, "empty")  # torch's kernel: empty's (its SymInt site)
        return zeros(shape, dtype=dtype or D.get_default_dtype(), device=device)._data
    data = args[0]
    if isinstance(data, Tensor):
        return _aliased(data, dtype, device)
    dtype = dtype or D.get_default_dtype()
    if not (isinstance(data, (str, bytes)) or _is_sequence(data) or _args.is_array(data)) or (
            _args.is_array(data) and data.shape == () and type(data).__name__ != "ndarray"):
        raise TypeError(f"new(): data must be a sequence (got {_args.type_name(data)})")
    return as_array(data, dtype, device)


def legacy_tensor(cls: type, args: tuple, dtype: D.dtype | None, keywords: dict) -> Tensor:
    """A ``cls`` (``Tensor`` or a subclass) of :func:`legacy_array`'s array; a tensor given
    comes back as torch's alias of it (a view, AliasBackward0 where it requires grad).

    >>> x = minitorch.ones(2, requires_grad=True)
    >>> legacy_tensor(Tensor, (x,), None, {}).grad_fn.name()
    'AliasBackward0'
    """
    made = legacy_array(args, dtype, keywords)
    return made.as_subclass(cls) if isinstance(made, Tensor) else cls._make(made)


def _by_keyword(keywords: dict) -> tuple:
    """The legacy constructor's one argument given by its name (``size``: a list or tuple of
    them, ``data`` or a Tensor ``other``) as the positional arguments it stands for, and the
    keywords left; the keywords as they are when none applies."""
    rest = {k: v for k, v in keywords.items() if k not in ("size", "data", "other")}
    given = keywords.keys() - rest.keys()
    if len(given) != 1 or rest.keys() - {"device"} or not _is_device(rest.get("device")):
        return (), keywords
    name = given.pop()
    value = keywords[name]
    if name == "size" and isinstance(value, (list, tuple)):
        return (tuple(value) or (Size(),)), rest  # (no sizes: a 0-d tensor)
    if name == "data" or (name == "other" and isinstance(value, Tensor)):
        return (value,), rest
    return (), keywords


def _is_device(value: Any) -> bool:
    """Whether torch's parser takes ``value`` as a ``torch.device`` argument (a device, its
    string or index, or None); else no signature of the legacy constructor matches."""
    return value is None or isinstance(value, (str, backend.device)) or \
        _args.as_int(value) is not None


def _aliased(data: Tensor, dtype: D.dtype | None, device: Any) -> Any:
    """The tensor a legacy constructor aliases, refused as torch when a device
    is given or the constructor's dtype is another (``dtype`` None: ``torch.Tensor``)."""
    if device is not None:
        raise RuntimeError("Legacy tensor constructor of the form torch.Tensor(tensor, "
                           "device=device) is not supported.  Use torch.tensor(...) or "
                           "torch.as_tensor(...) instead.")
    if dtype is not None and data.dtype is not dtype:
        raise TypeError(f"expected {_options(dtype, data.device)} (got "
                        f"{_options(data.dtype, data.device)})")
    return data


def _options(dtype: D.dtype, device: backend.device) -> str:
    """torch's printed ``TensorOptions`` of a plain tensor of ``dtype`` on ``device``."""
    where = "cpu" if device.type == "cpu" else f"cuda:{device.index or 0}"
    return (f"TensorOptions(dtype={_args.c_name(dtype)}, device={where}, layout=Strided, "
            "requires_grad=false (default), pinned_memory=false (default), "
            "memory_format=(nullopt))")


class _LegacyType(type):
    """The metaclass of ``FloatTensor`` and co.: calling one builds a tensor of its dtype,
    ``isinstance`` checks the dtype."""

    dtype: D.dtype

    def __call__(cls, *args: Any, **keywords: Any) -> Tensor:  # type: ignore[override]
        return legacy_tensor(Tensor, args, cls.dtype, keywords)

    def __instancecheck__(cls, obj: object) -> bool:
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype

    def __repr__(cls) -> str:
        return f"<class 'torch.{cls.__name__}'>"


def _legacy(dt: D.dtype) -> type:
    name = f"{dt.legacy}Tensor"
    doc = (f"``{name}(data)`` or ``{name}(*sizes)``: a {dt.name} tensor.\n\n"
           f"    >>> minitorch.{name}(2).shape\n    torch.Size([2])\n    ")
    return _LegacyType(name, (), {"dtype": dt, "__doc__": doc, "__module__": "minitorch"})


_LEGACY = {dt.name: _legacy(dt) for dt in D.ALL}
FloatTensor, DoubleTensor, HalfTensor = _LEGACY["float32"], _LEGACY["float64"], _LEGACY["float16"]
LongTensor, IntTensor, ShortTensor = _LEGACY["int64"], _LEGACY["int32"], _LEGACY["int16"]
CharTensor, ByteTensor, BoolTensor = _LEGACY["int8"], _LEGACY["uint8"], _LEGACY["bool"]
_LEGACY_NAMES = {t.__name__ for t in _LEGACY.values()}


def set_default_tensor_type(t: Any) -> None:
    """Make a legacy floating type (``minitorch.DoubleTensor``, or its name such as
    ``"torch.DoubleTensor"``) the default: its dtype becomes the default dtype, a CUDA type's
    device the default device. Deprecated in torch, which warns once: use
    ``set_default_dtype`` and ``set_default_device``.

    >>> minitorch.set_default_tensor_type(minitorch.DoubleTensor); minitorch.tensor([1.]).dtype
    torch.float64
    >>> minitorch.set_default_tensor_type("torch.FloatTensor")
    """
    cuda = isinstance(t, str) and t.startswith("torch.cuda.")
    if isinstance(t, str):
        t = _dotted_name(t)
    warn_once("torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
              "torch.set_default_dtype() and torch.set_default_device() as alternatives.")
    if not isinstance(t, _LegacyType):
        raise TypeError("invalid type object: only floating-point types are supported as the "
                        "default type")
    if not t.dtype.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    D.set_default_dtype(t.dtype)
    if cuda:
        set_default_device("cuda")


def _dotted_name(name: str) -> Any:
    """The object a dotted name such as ``"torch.FloatTensor"`` names, as torch imports it
    (``torch.`` is minitorch; ``torch.cuda.`` names a CUDA type, where one is available)."""
    first, *rest = name.split(".")
    if first in ("torch", "minitorch"):
        if rest[:1] == ["cuda"] and len(rest) == 2 and rest[1] in _LEGACY_NAMES:
            if not backend.cuda_device_count():
                raise TypeError(f"type {name} not available. Torch not compiled with CUDA "
                                "enabled.")
            rest = rest[1:]
        obj: Any = importlib.import_module("minitorch")
    else:
        obj = importlib.import_module(first)
    for component in rest:
        obj = getattr(obj, component)
    return obj


def tensor_type(self: Tensor, dtype: Any = None, *positional: Any, **kwargs: Any) -> Any:
    """Without an argument, the tensor's type name; with a dtype, a type name or a legacy
    class, the tensor converted to it (``non_blocking``, second, is a flag only here).

    >>> minitorch.ones(1).type(), minitorch.ones(1).type(minitorch.int64)
    ('torch.FloatTensor', tensor([1]))
    """
    if len(positional) > 1:
        raise TypeError("type() takes from 0 to 2 positional arguments but "
                        f"{len(positional) + 1} were given")
    if positional:  # torch's parser reads it before it looks at the dtype or keywords
        _args.flag("type", positional[0], "non_blocking", 2)
    elif "non_blocking" in kwargs:
        _args.flag("type", kwargs["non_blocking"], "non_blocking")
    if unknown := next((k for k in kwargs if k not in ("non_blocking", "async",
                                                        "memory_format")), None):
        raise TypeError(f"type() got an unexpected keyword argument '{unknown}'")  # (async:
        # non_blocking's deprecated name)
    if dtype is None:
        prefix = "torch." if self.device.type == "cpu" else "torch.cuda."
        return prefix + _LEGACY[self.dtype.name].__name__
    if isinstance(dtype, str):
        prefix, _, name = dtype.rpartition(".")
        found = [t for t in _LEGACY.values() if t.__name__ == name]
        if not found or prefix not in ("torch", "torch.cuda"):
            raise ValueError(f"invalid type: '{dtype}'")
        if prefix == "torch.cuda":  # a CUDA type names the device too
            backend.cuda_library("initialize CUDA")
            return self.to("cuda", found[0].dtype)
        dtype = found[0]
    if isinstance(dtype, _LegacyType):
        dtype = dtype.dtype
    elif dtype is Tensor:  # torch.Tensor is the default legacy type
        dtype = D.get_default_dtype()
    if not isinstance(dtype, (D.dtype, type)):
        raise TypeError("dtype must be a type, str, or dtype object")
    if not isinstance(dtype, D.dtype):  # torch takes no Python type here, unlike in to()
        raise ValueError(f"invalid type: '{_args.class_name(dtype)}'")
    return self.to(dtype)


def _new(name: str, factory: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """``Tensor.new_<name>``: ``factory`` with self's dtype and device unless given."""

    options = creation_options(factory, out=False)

    def method(self: Tensor, *size: Any, dtype: D.dtype | None = None, device: Any = None,
               requires_grad: bool = False, layout: Any = None, pin_memory: Any = None,
               **kwargs: Any) -> Tensor:
        if name == "full" and size:  # one tuple: the parser refuses a lone int (or a tuple
            _args.int_tuple("new_full", _args.list_head(size[0]), "size", 1)  # led by a
            # non-int) before it finds the fill value missing
        if name == "full" and ((not size and "size" not in kwargs) or
                               (len(size) < 2 and "fill_value" not in kwargs)):
            lacking = ["fill_value"] if size or "size" in kwargs else ["size", "fill_value"]
            raise TypeError(f"new_full() missing {len(lacking)} required positional argument"
                            f"{'s' * (len(lacking) == 1)}: "  # (torch's plural, as its parser)
                            + ", ".join(f'"{n}"' for n in lacking))
        if name != "full":  # the parser's types of the size and the options, then the device
            _args.size_types(f"new_{name}", size)  # made, the sizes unpacked; torch's new_zeros
            _args.dtype(f"new_{name}", dtype)  # allocates first: empty's message for -1
            _layout_typed(f"new_{name}", layout)
            _args.device_type(f"new_{name}", device)
            _args.flag(f"new_{name}", pin_memory, "pin_memory", none=True)
            _args.flag(f"new_{name}", requires_grad, "requires_grad", none=True)
            if unknown := next(iter(kwargs), None):  # (the parser's, before the sizes')
                raise TypeError(f"new_{name}() got an unexpected keyword argument '{unknown}'")
            if isinstance(device, (str, int)) and not isinstance(device, bool):
                backend.device(device)
            _args.sizes(f"new_{name}", size)
        try:
            return options(*size, dtype=dtype or self.dtype,
                           device=self.device if device is None else device,
                           requires_grad=requires_grad, layout=layout, pin_memory=pin_memory,
                           **kwargs)
        except TypeError as error:  # torch names the method in its argument errors
            raise TypeError(str(error).replace(f"{factory.__name__}()", f"new_{name}()", 1)
                            ) from None

    method.__name__ = f"new_{name}"
    if name != "full":  # new_full's size is one tuple, not the sizes one by one
        method = _args.sizes_by_keyword("size")(method)
    method.__doc__ = (f"``minitorch.{factory.__name__}(...)`` with this tensor's dtype and "
                      f"device.\n\n    >>> minitorch.ones(1, dtype=minitorch.float64).new_{name}("
                      f"{'(2,), 0' if name == 'full' else '2'}).dtype\n    torch.float64\n    ")
    return method


def new_tensor(self: Tensor, data: Any, *, dtype: D.dtype | None = None, device: Any = None,
               requires_grad: bool = False) -> Tensor:
    """A new leaf holding a copy of ``data``, with this tensor's dtype and device.

    >>> minitorch.ones(1, dtype=minitorch.float64).new_tensor([1, 2])
    tensor([1., 2.], dtype=torch.float64)
    """
    dtype = _args.dtype("new_tensor", dtype)
    _args.device_type("new_tensor", device)
    _args.flag("new_tensor", requires_grad, "requires_grad")
    if isinstance(data, Tensor):
        warn_copy_construct("tensor.new_tensor", stacklevel=4)  # new_tensor, call form, user
        data = data.detach()
    where = self.device if device is None else device
    return _leaf(as_array(data, dtype or self.dtype, where), requires_grad)


_CPP_NAMES = {"float32": "float", "float64": "double", "int64": "long int", "int32": "int",
              "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
              "bool": "bool", "float16": "c10::Half", "bfloat16": "c10::BFloat16"}


def new(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """torch's legacy constructor: ``new()`` empty, ``new(*sizes)`` uninitialised, ``new(data)``
    a copy of ``data``, ``new(tensor)`` an alias of that tensor (in its graph); else self's
    dtype (and device unless ``device=``), not requiring grad.

    >>> x = minitorch.ones(2, dtype=minitorch.float64)
    >>> x.new(2, 3).shape, x.new([1, 2]), x.new()
    (torch.Size([2, 3]), tensor([1., 2.], dtype=torch.float64), tensor([], dtype=torch.float64))
    """
    if set(kwargs) - {"device"} or not _is_device(kwargs.get("device")):
        raise TypeError(_call_form.combination_message("new", args, kwargs, _LEGACY_SIGNATURES))
    device = kwargs.get("device") or self.device
    if not args:
        return empty((0,), dtype=self.dtype, device=device)
    if len(args) == 1 and isinstance(args[0], Tensor):
        return _new_of(self, args[0])
    sizes = args[0] if len(args) == 1 and isinstance(args[0], Size) else args
    if not sizes or _args.as_int(sizes[0]) is not None:  # sizes, read as new's parser reads
        (shape,) = _args.parsed("new", ("ints", tuple(sizes), "size", 1))
        return empty(shape, dtype=self.dtype, device=device)
    if len(args) > 1:
        raise TypeError(_call_form.combination_message("new", args, kwargs, _LEGACY_SIGNATURES))
    data = args[0]
    if isinstance(data, str):
        raise TypeError("new(): invalid data type 'str'")
    if not isinstance(data, (list, tuple)) and not (
            _args.is_array(data) and type(data).__name__ == "ndarray"):  # a numpy scalar is none
        raise TypeError(f"new(): data must be a sequence (got {_args.type_name(data)})")
    return _leaf(as_array(data, self.dtype, device), False)


def _new_of(self: Tensor, other: Tensor) -> Tensor:
    """``new(other)``: an alias of ``other``, which must already have self's dtype and device."""
    if other.dtype is not self.dtype or other.device != self.device:
        def options(t: Tensor) -> str:
            return (f"TensorOptions(dtype={_CPP_NAMES[t.dtype.name]}, device={t.device.type}, "
                    "layout=Strided, requires_grad=false (default), pinned_memory=false "
                    "(default), memory_format=(nullopt))")
        raise TypeError(f"expected {options(self)} (got {options(other)})")
    return other.as_subclass(Tensor)  # torch's alias, in other's graph


def _zeroed(*size: Any, dtype: D.dtype | None = None, device: Any = None,
            requires_grad: bool = False) -> Tensor:
    """``zeros`` as ``new_zeros`` makes them: torch's empty, then zero_, so a negative size
    gets empty's message, not zeros' own."""
    return _filled("new_zeros", 0, size, dtype, requires_grad, device)


_zeroed.__name__ = "new_zeros"
NEW_METHODS = {"new_ones": _new("ones", ones), "new_zeros": _new("zeros", _zeroed),
               "new_empty": _new("empty", empty), "new_full": _new("full", full),
               "new_tensor": new_tensor, "new_empty_strided": new_empty_strided, "new": new}


def type_as(self: Tensor, other: Tensor) -> Tensor:
    """``self`` converted to ``other``'s type (dtype and device); itself if it has it.

    >>> minitorch.ones(2).type_as(minitorch.tensor([1, 2]))
    tensor([1, 1])
    """
    _args.tensor_args("type_as", (other, "other", 1))
    return tensor_type(self, other.type())


@_args.sizes_by_keyword("size")
def resize_(self: Tensor, *sizes: Any, memory_format: Any = None) -> Tensor:
    """Give ``self`` a new shape in place, keeping its first elements in row-major order (new
    ones are zeros here, uninitialised in torch); refused for a tensor that requires grad, and
    for a view that would outgrow the memory of a base still in use (:func:`resize_storage`).
    A ``memory_format`` lays the shape over the same memory in that order instead.

    >>> minitorch.arange(6.).resize_(2, 2)
    tensor([[0., 1.],
            [2., 3.]])
    """
    shape = _args.sizes("resize_", sizes, check_negative=False)  # torch's parser first
    given = _layout.checked("resize_", memory_format, len(shape))
    if self.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    if memory_format is not None and given is _layout.preserve_format:
        raise RuntimeError("Unsupported memory formatPreserve")
    changes = shape != tuple(self.shape)  # (the same shape: torch leaves its strides, unless
    if changes or memory_format is not None:  # a format sets them anew, and does not count it)
        resize_storage(self, shape)
    self._version_counter.value += changes
    if (strides := _layout.format_strides(given, shape)) is not None:
        self._data = backend.restrided(self._data, strides)
    return self


def resize_storage(self: Tensor, shape: tuple) -> None:
    """Lay ``self`` over its storage in ``shape`` (contiguous, from its offset), the storage
    grown where it is too small: torch's resize kernel, which ``resize_`` and an ``out=``
    of another shape run. A view's storage is its base's, which minitorch cannot grow while
    anything else holds that base.

    >>> x = minitorch.zeros(4); v = x[1:3]; resize_storage(v, (3,)); _ = v.fill_(7); x
    tensor([0., 7., 7., 7.])
    """
    _args.check_numel(shape)
    count = math.prod(shape)
    storage, start = _storage_from(self)
    grows = count > storage.shape[0] - start
    if grows and backend.is_borrowed(self._data):  # from_numpy's memory
        raise RuntimeError("Trying to resize storage that is not resizable")  # cannot grow
    if grows and self._view_of is not None and self._memory is None and \
            _held_elsewhere(self._view_of[0]):
        raise RuntimeError(
            f"minitorch cannot grow the memory a view shares with its base: the shape "
            f"{list(shape)} from the view's offset needs {start + count} elements, the base's "
            f"memory holds {storage.shape[0]}. torch grows that memory for both; here the base "
            "would not see it. Please resize the base instead, or a clone() of the view.")
    _args.check_alloc(shape, self.dtype.itemsize)  # its storage's bytes, as torch's
    xp = self._xp
    if grows:  # torch's storage grows, its values first (this tensor keeps its offset)
        storage = xp.concat([storage, xp.zeros(start + count - storage.shape[0],
                                               dtype=storage.dtype)])
    if grows or self._memory_root() is self:  # a storage that does not shrink
        self._memory = Tensor._make(storage)
    self._data = xp.reshape(backend.placed(storage[start:start + count], storage, start), shape)


def _held_elsewhere(base: Tensor) -> bool:
    """Whether anything but the view being resized holds its ``base`` (a name, another
    view, the graph), so that a storage grown for the view alone would not be seen where torch's
    would: numpy's ``resize(refcheck=True)`` asks so. Its references otherwise: the view's
    own, this parameter and getrefcount's argument."""
    return sys.getrefcount(base) > 3


def _storage_from(t: Tensor) -> tuple:
    """``t``'s storage as one 1-d array of its dtype and where ``t`` starts in it, which torch's
    ``resize_`` lays its new shape over (a view's memory past its elements, not its elements
    in row-major order); its own elements where it owns its memory, or where its storage is
    laid out otherwise or at no address the library tells.

    >>> x = minitorch.arange(3.)
    >>> storage, start = _storage_from(x[1:2].expand(3))
    >>> storage.tolist(), start
    ([0.0, 1.0, 2.0], 1)
    """
    root = t._memory_root()
    if root is t or backend.address(t._data) is None or not root.is_contiguous():
        return t._xp.reshape(t._data, (-1,)), 0
    return _storage.storage_elements(t), t.storage_offset()


def resize_as_(input: Tensor, the_template: Tensor, *, memory_format: Any = None) -> Tensor:
    """``resize_`` to ``the_template``'s shape (its values and dtype are not used), in
    ``memory_format`` (``preserve_format``: the order the template's strides suggest).

    >>> minitorch.ones(2).resize_as_(minitorch.zeros(3))
    tensor([1., 1., 0.])
    """
    _args.tensor_args("resize_as_", (input, "input", 1), (the_template, "the_template", 2))
    _layout.typed("resize_as_", memory_format)
    shape = tuple(the_template.shape)  # (a 0-d template: no sizes at all)
    if memory_format is _layout.preserve_format:  # the template's order
        memory_format = _layout.suggested_format(shape, the_template.stride())
    return resize_(input, shape, memory_format=memory_format)


class Resize(Function):
    """torch's ``autograd._functions.Resize``: the deprecated out-of-place ``resize`` and
    ``resize_as``, which may only reshape (same number of elements); its node is
    ``ResizeBackward``."""

    @staticmethod
    def forward(ctx: Any, tensor: Tensor, sizes: tuple) -> Tensor:
        count = functools.reduce(operator.mul, sizes, 1)  # (torch's product of what it got)
        if tensor.numel() != count:
            raise RuntimeError(
                f"requested resize to {'x'.join(map(str, sizes))} ({count} elements in total), "
                f"but the given tensor has a size of {'x'.join(map(str, tensor.size()))} "
                f"({tensor.numel()} elements). autograd's resize can only change the shape of a "
                "given tensor, while preserving the number of elements. ")
        ctx.input_sizes = tensor.size()
        return tensor.contiguous().view(*sizes)

    @staticmethod
    def backward(ctx: Any, grad_output: Tensor) -> tuple:
        return grad_output.contiguous().view(ctx.input_sizes), None


def resize(self: Tensor, *sizes: Any) -> Tensor:
    """``self`` in the shape ``sizes`` (deprecated in torch, which warns: the same number of
    elements only; ``resize_`` changes it in place).

    >>> import warnings; warnings.simplefilter("ignore")
    >>> minitorch.arange(6.).resize(2, 3).shape
    torch.Size([2, 3])
    """
    warnings.warn("non-inplace resize is deprecated", stacklevel=2)
    return Resize.apply(self, sizes)


def resize_as(self: Tensor, tensor: Tensor) -> Tensor:
    """``self.resize(*tensor.size())`` (deprecated in torch, which warns).

    >>> import warnings; warnings.simplefilter("ignore")
    >>> minitorch.arange(6.).resize_as(minitorch.ones(3, 2)).shape
    torch.Size([3, 2])
    """
    warnings.warn("non-inplace resize_as is deprecated", stacklevel=2)
    return Resize.apply(self, tensor.size())
