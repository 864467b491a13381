"""Logical and bitwise functions and the float tests: ``logical_and/or/xor/not``,
``bitwise_and/or/xor/not``, ``bitwise_left_shift/right_shift``, ``isinf``, ``isposinf``,
``isneginf``, ``isfinite``, ``isreal``, ``signbit``, ``isclose`` and ``count_nonzero``.
Their results are bool or integer tensors, so they have no gradient.

>>> import minitorch
>>> x = minitorch.tensor([0., 2., float("inf")])
>>> minitorch.logical_and(x, x > 1), x.isinf()
(tensor([False,  True,  True]), tensor([False, False,  True]))
"""

from __future__ import annotations

from typing import Any

from .. import _args, _call_form
from .._dtype import check_unsigned, get_default_dtype, result_type
from .._tensor import Tensor, broadcast_pair, check_inplace_operands
from ..autograd import grad_mode
from ..backend import array_dtype, c_order, quiet
from ._base import cast_operands, iterator_layout, wrap
from .pointwise import _tensor_operand, logical, shift

__all__ = ["bitwise_and", "bitwise_left_shift", "bitwise_not", "bitwise_or",
           "bitwise_right_shift", "bitwise_xor", "count_nonzero", "isclose", "isfinite", "isinf",
           "isneginf", "isposinf", "isreal", "logical_and", "logical_not", "logical_or",
           "logical_xor", "signbit"]


def _truth(xp: Any, a: Any) -> Any:
    return a if a.dtype == xp.bool else a != 0


def _logical(name: str) -> Any:
    def fn(input: Tensor, other: Tensor) -> Tensor:
        _args.tensor_args(f"logical_{name}", (input, "input", 1), (other, "other", 2))
        broadcast_pair(input, other)
        x, y, _ = cast_operands(input, other)
        xp = input._xp
        return wrap(iterator_layout(getattr(xp, f"logical_{name}")(_truth(xp, x),
                                                                   _truth(xp, y)),
                                    input, other, x, y))

    fn.__name__ = f"logical_{name}"
    fn.__doc__ = (f"Element-wise logical {name} of the truth (non-zero) of two tensors.\n\n"
                  f"    >>> minitorch.logical_{name}(minitorch.tensor([0, 1]), "
                  f"minitorch.tensor([1, 1])).dtype\n    torch.bool\n    ")
    return fn


logical_and, logical_or, logical_xor = (_logical(n) for n in ("and", "or", "xor"))


def logical_not(input: Tensor) -> Tensor:
    """True where ``input`` is zero.

    >>> minitorch.logical_not(minitorch.tensor([0., 2.]))
    tensor([ True, False])
    """
    _args.tensor_args("logical_not", (input, "input", 1))
    return wrap(input._xp.logical_not(_truth(input._xp, input._data)))


# torch's overloads of the bitwise functions of two operands
BITWISE_SIGNATURES = ("Tensor input, Tensor other, *, Tensor out = None",
                      "Number self, Tensor other",
                      "Tensor input, Number other, *, Tensor out = None")


def _bitwise(name: str) -> Any:
    def fn(input: Any, other: Any) -> Tensor:
        if not isinstance(input, Tensor):
            _tensor_operand(f"bitwise_{name}", input, other, "other")  # a number, or none
            _args.tensor_args(f"bitwise_{name}", (other, "other", 2))
            return logical(name, other, input)  # and, or, xor commute
        _args.tensor_or_number(f"bitwise_{name}", other, "other", 2)
        return logical(name, input, other)

    fn.__name__ = f"bitwise_{name}"
    fn.torch_signatures = BITWISE_SIGNATURES  # type: ignore[attr-defined]
    fn.__doc__ = (f"Element-wise bitwise {name} of integer or bool tensors (``"
                  f"{ {'and': '&', 'or': '|', 'xor': '^'}[name]}``).\n\n"
                  f"    >>> minitorch.bitwise_{name}(minitorch.tensor([12]), 10).dtype\n"
                  f"    torch.int64\n    ")
    return fn


bitwise_and, bitwise_or, bitwise_xor = (_bitwise(n) for n in ("and", "or", "xor"))


def _shift(name: str, kernel: str, operator: str) -> Any:
    def fn(input: Any, other: Any) -> Tensor:
        _tensor_operand(name, input, other, "other")
        return shift(kernel, input, other)

    fn.__name__ = name
    fn.torch_signatures = BITWISE_SIGNATURES  # type: ignore[attr-defined]
    fn.__doc__ = (f"``input {operator} other``: integers' bits shifted (every bit out past the "
                  f"width).\n\n    >>> minitorch.{name}(minitorch.tensor([8]), 2).dtype\n"
                  "    torch.int64\n    ")
    return fn


bitwise_left_shift = _shift("bitwise_left_shift", "lshift", "<<")
bitwise_right_shift = _shift("bitwise_right_shift", "rshift", ">>")


def bitwise_not(input: Tensor) -> Tensor:
    """``~input``: each bit flipped (a bool negated).

    >>> minitorch.bitwise_not(minitorch.tensor([0, 5]))
    tensor([-1, -6])
    """
    _args.tensor_args("bitwise_not", (input, "input", 1))
    if input.dtype.is_floating_point:
        raise _args.not_implemented("bitwise_not_cpu", input.dtype)
    return ~input


def _float_test(name: str, doc: str, test: Any, example: str) -> Any:
    def fn(input: Tensor) -> Tensor:
        _args.tensor_args(name, (input, "input", 1))
        xp, a = input._xp, input._data
        if not input.dtype.is_floating_point:
            a = xp.astype(a, xp.float64)
        return wrap(test(xp, a))

    fn.__name__ = name
    fn.__doc__ = (f"True where ``input`` {doc}.\n\n    >>> minitorch.{name}(minitorch.tensor("
                  f"[1., float('-inf')]))\n    tensor({example})\n    ")
    return fn


isinf = _float_test("isinf", "is infinite", lambda xp, a: xp.isinf(a), "[False,  True]")
isfinite = _float_test("isfinite", "is neither infinite nor NaN",
                       lambda xp, a: xp.isfinite(a), "[ True, False]")
signbit = _float_test("signbit", "has its sign bit set (also -0.)",
                      lambda xp, a: xp.signbit(a), "[False,  True]")
isposinf = _float_test("isposinf", "is +inf", lambda xp, a: a == float("inf"),
                       "[False, False]")
isneginf = _float_test("isneginf", "is -inf", lambda xp, a: a == -float("inf"),
                       "[False,  True]")
isreal = _float_test("isreal", "is real (every element of a real tensor)",
                     lambda xp, a: xp.ones(a.shape, dtype=xp.bool), "[True, True]")


def isclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Tensor:
    """True where ``|input - other| <= atol + rtol * |other|`` (infinities equal themselves).

    >>> minitorch.isclose(minitorch.tensor([1., 2.]), minitorch.tensor([1., 2.1]))
    tensor([ True, False])
    """
    _args.tensor_args("isclose", (input, "input", 1), (other, "other", 2))
    rtol, atol = _args.reals("isclose", (rtol, "rtol", 3), (atol, "atol", 4))
    equal_nan = _args.flag("isclose", equal_nan, "equal_nan", 5)
    if input.dtype is not other.dtype:
        raise RuntimeError(f"{_args.legacy(input.dtype)} did not match "
                           f"{_args.legacy(other.dtype)}")
    _args.tolerances(rtol, atol)
    broadcast_pair(input, other)
    xp, a, b = input._xp, input._data, other._data
    close = a == b
    if input.dtype.name == "bool":
        if rtol == 0 and atol == 0:
            return wrap(close)
        # torch measures the distance of bools as numbers of the default dtype
        a, b = (xp.astype(x, array_dtype(xp, get_default_dtype().name)) for x in (a, b))
    elif equal_nan:
        close = close | (xp.isnan(a) & xp.isnan(b))
    if xp.isdtype(a.dtype, "real floating"):
        with quiet():  # inf - inf and 0 * inf are NaN, which is not close, silently as in torch
            diff = xp.abs(a - b)
            close = close | (xp.isfinite(diff) & (diff <= atol + rtol * xp.abs(b)))
    else:
        diff = xp.abs(xp.astype(a, xp.float64) - xp.astype(b, xp.float64))
        close = close | (diff <= atol + rtol * xp.abs(xp.astype(b, xp.float64)))
    return wrap(close)


@_call_form.int_varargs
@_call_form.overloads("Tensor input, int dim = None", "Tensor input, tuple of ints dim")
def count_nonzero(input: Tensor, dim: Any = None) -> Tensor:
    """How many elements are non-zero, over everything or over ``dim`` (an int or a tuple).

    >>> minitorch.count_nonzero(minitorch.tensor([[0., 1.], [2., 3.]]), dim=0)
    tensor([1, 2])
    """
    _args.tensor_args("count_nonzero", (input, "input", 1))
    if not (dim is None or isinstance(dim, (tuple, list)) or
            _args.as_param_int(dim, "dim") is not None):
        raise _args.invalid_combination("count_nonzero", (input, dim),
                                        *count_nonzero.torch_signatures)
    xp = input._xp
    # () counts over all, too
    axis = _args.dims("count_nonzero", dim, input.dim(), ranges_first=True) or None
    nonzero = xp.astype(_truth(xp, input._data), xp.int64)
    return wrap(c_order(xp.sum(nonzero, axis=axis if input.dim() else None, dtype=xp.int64)))


def _inplace_method(fn: Any) -> Any:
    # (``input``, not ``self``: the op's refusals are worded for the function form, which
    # the method's entry renumbers; bitwise ones take a tensor or a number, two overloads)
    def method(input: Tensor, other: Any) -> Tensor:
        if fn in _BITS:  # a numpy number is the Python number it holds, to torch's parser
            other = _args.numpy_scalar(other)
        if fn in _BITS and isinstance(other, (Tensor, int, float)):
            check_inplace_operands(input, other)
            check_unsigned(input, other)
            result = result_type(input, other)  # torch's cast check precedes its kernel's
            if result._category > input.dtype._category:
                raise _args.cast_error(result, input.dtype)
        if fn in _LOGICAL:
            if not isinstance(other, Tensor):  # before _inplace reads a number as self's
                _args.tensor_args(fn.__name__, (other, "other", 2))
            with grad_mode._recording(False):
                return input._inplace(fn, other)
        return input._inplace(fn, other)

    def unary(input: Tensor) -> Tensor:
        if fn is logical_not:
            with grad_mode._recording(False):
                return input._inplace(fn)
        return input._inplace(fn)

    if fn in (logical_not, bitwise_not):
        method = unary
    method.__name__ = f"{fn.__name__}_"
    method.__doc__ = f"In-place ``{fn.__name__}``."
    if fn in _BITS:
        method.torch_signatures = ("Tensor other", "Number other")  # type: ignore[attr-defined]
    if fn in _LOGICAL:  # (its parser checks other's type before any keyword left over)
        method = _call_form.parser_types(other="Tensor")(method)
    return method


# no derivative: torch writes them into a tensor that requires grad, leaving its history
_LOGICAL = (logical_and, logical_or, logical_xor)
_BITS = (bitwise_and, bitwise_or, bitwise_xor, bitwise_left_shift, bitwise_right_shift)
_PUBLIC = (logical_and, logical_or, logical_xor, logical_not, bitwise_and, bitwise_or,
           bitwise_xor, bitwise_not, bitwise_left_shift, bitwise_right_shift, isinf, isfinite,
           signbit, isposinf, isneginf, isreal, isclose, count_nonzero)
METHODS = {fn.__name__: fn for fn in _PUBLIC}
METHODS.update({f"{fn.__name__}_": _inplace_method(fn) for fn in _PUBLIC[:10]})
