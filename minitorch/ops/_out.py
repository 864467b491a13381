"""``out=``: an op's result written into a given tensor, as torch's ``torch.add(a, b,
out=t)``.

>>> import minitorch
>>> t = minitorch.empty(2)
>>> minitorch.add(minitorch.ones(2), 1, out=t) is t, t
(True, tensor([2., 2.]))
"""

from __future__ import annotations

import functools
import inspect
import math
import warnings
from collections.abc import Callable
from typing import Any

from .. import _args, _batched_function, _call_form
from .. import _dtype as D
from .._dtype import can_cast
from .._tensor import (
    Tensor,
    broadcast_pair,
    check_iterator_out,
    check_no_overlap,
    check_output_shape,
    check_partial_overlap,
    overlap_error,
    shares_memory,
)
from ..autograd import grad_mode
from ..autograd.grad_mode import is_grad_enabled


def takes_out(fn: Callable, name: str | None = None, elementwise: bool = False,
              promoted: bool = False, differentiable: bool = True,
              typed: bool = False) -> Callable:
    """``fn`` with torch's ``out=`` keyword: the result is copied into ``out``, which is
    returned; autograd refuses it, as in torch (its message names ``name``, or ``fn``).
    An ``elementwise`` op given one of its operands as ``out`` works in place, as torch's
    TensorIterator: that operand is not resized to the broadcast shape but refused. A
    ``promoted`` op (its result of its operands' promoted dtype) has ``out``'s dtype checked
    before it runs, as TensorIterator checks it before the kernel. An op torch gives no
    derivative (not ``differentiable``) takes ``out`` whatever requires grad. A ``typed`` op
    (of two operands) first refuses an operand its parser refuses by type
    (:func:`_operand_refused`), as torch parses before autograd sees ``out``.

    >>> double = takes_out(lambda x: x * 2)
    >>> t = minitorch.empty(1)
    >>> double(minitorch.ones(1), out=t) is t
    True
    """

    @functools.wraps(fn)
    def with_out(*args: Any, out: Tensor | None = None, **kwargs: Any) -> Any:
        if out is None:
            return fn(*args, **kwargs)
        if not _parses(fn, args, kwargs):  # the op's own refusal first (a call it takes
            fn(*args, **kwargs)  # after all, a number where it says Tensor, goes on)
        label = name or fn.__name__
        _number_first(fn.__name__, fn, args, kwargs, out)
        out = _number_as_out(label, out)
        _args.tensor_args(label, (out, "out", None))  # the parser's check
        operands = _tensors_of((*args[label in _CONDITION_FIRST:], *kwargs.values()))
        if typed and _operand_refused(fn, args):
            _refuse_operands(fn, args, {**kwargs, "out": out})
        if differentiable:
            _refuse_grad(label, operands, (out,))
        if label in ("sub", "pow") and len(args) > 1:  # torch's sub_check, pow's meta check:
            from . import pointwise  # before TensorIterator's of out (pointwise imports this)

            getattr(pointwise, _META_CHECKS[label])(*args[:2])
        number_base = label == "pow" and not isinstance(args[0], Tensor)  # (its meta resizes
        # out to the exponent's shape before the iterator sees it)
        if elementwise and label not in _OVERLAPPING_OUT and not number_base and \
                _operands_parsed(fn, args, kwargs):
            check_iterator_out(out, operands)  # (TensorIterator's: before shapes, dtypes)
        if label in _COMPLEX_CAST_FIRST:
            _complex_into(args[:2], out)
        if promoted and len(args) >= 2 and all(
                isinstance(a, Tensor) or _args.is_real(a) for a in args[:2]):
            broadcast_pair(*args[:2])  # (TensorIterator's shape first, then its dtypes)
            _check_cast(D.result_type(*args[:2]), out)
        unimplemented = label in _DERIVATIVE_NOT_IMPLEMENTED  # (its NotImplemented record
        with grad_mode._recording(unimplemented and grad_mode._state.grad_enabled):  # is out's)
            result = fn(*args, **kwargs)
        if elementwise and any(t is out for t in operands):
            check_output_shape(out.shape, result.shape)
        return _write(result, out, differentiable and not unimplemented)

    return out_last(with_out, fn)


# the checks of an op's meta function that come before TensorIterator's checks of out
_META_CHECKS = {"sub": "no_bool", "pow": "check_int_power"}

# elementwise ops with out= that declare no signatures but take a number operand
_NUMBER_OPERANDS = frozenset({"polygamma", "float_power"})


def _operand_refused(fn: Callable, args: tuple) -> bool:
    """True where torch's parser refuses an operand of ``fn(*args, out=...)`` (elementwise,
    of two operands) by its type: neither a tensor nor a number (an ndarray, a Decimal), or
    a number where none of ``fn``'s signatures with ``out`` takes one (where it declares
    none: tensors only)."""
    name = fn.__name__
    numbers = name in _call_form.NUMBERS_AS_TENSORS or name in _NUMBER_OPERANDS
    signatures = [s for s in getattr(fn, "torch_signatures", ()) if "Tensor out" in s]
    for i, value in enumerate(args[:2]):
        if isinstance(value, Tensor):
            continue
        if not (isinstance(value, (int, float, complex)) or _args.holds_number(value)):
            return True
        if not numbers and not any(s.split(", ")[i].startswith("Number ") for s in signatures
                                   if s.count(", ") >= i):
            return True
    return False


def _refuse_operands(fn: Callable, args: tuple, kwargs: dict) -> None:
    """torch's parser refusal of ``fn``'s operands (:func:`_operand_refused`): the invalid
    combination of its overloads, or, where one takes ``out``, that one's refusal of the
    type (where none is declared, ``fn``'s own)."""
    signatures = getattr(fn, "torch_signatures", ())
    with_out = [s for s in signatures if "Tensor out" in s]
    if len(with_out) == 1 and (message := _call_form.signature_types_first(
            fn.__name__, with_out[0], args, kwargs, 1)):
        raise TypeError(message)
    if signatures:
        raise _args.invalid_combination(fn.__name__, args, *signatures, keywords=kwargs)
    del kwargs["out"]
    fn(*args, **kwargs)


# elementwise ops whose out torch's TensorIterator checks after their own dtype check
_OVERLAPPING_OUT = frozenset({"nan_to_num"})
# the ops of :data:`PARSED_OUT` that write out with a TensorIterator
_ITERATOR_OUT = frozenset({"clamp", "clip", "clamp_min", "clamp_max", "addcmul", "addcdiv",
                           "gcd", "lcm", "logaddexp", "logaddexp2"})


def _operands_parsed(fn: Callable, args: tuple, kwargs: dict) -> bool:
    """Whether a call of ``fn`` passes torch's parser, as far as an iterator's out check
    needs: it binds to fn's named parameters (not to ``*args``), its values are tensors or
    numbers, and (clamp's) one bound is not None (logit's eps may be); else fn refuses the
    call first."""
    named = [p for p in inspect.signature(fn).parameters.values()
             if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    values = [*args, *kwargs.values()]
    numbers = all(isinstance(v, (Tensor, int, float, complex)) or v is None for v in values)
    given = fn.__name__ not in _CLAMPS or any(v is not None for v in values[1:])
    return _call_form.binds(fn, args, kwargs) and len(args) <= len(named) and numbers and given


def _divides_integers(key: str, args: tuple, kwargs: dict) -> bool:
    """Whether ``key`` is addcdiv of two integral tensors, which its meta function refuses
    before its TensorIterator checks ``out``'s memory."""
    operands = [*args[1:3], kwargs.get("tensor1"), kwargs.get("tensor2")]
    tensors = [t for t in operands if isinstance(t, Tensor)]
    return key == "addcdiv" and len(tensors) == 2 and not any(
        t.dtype.is_floating_point for t in tensors)


def _parses(fn: Callable, args: tuple, kwargs: dict) -> bool:
    """Whether torch's parser takes the call of ``fn`` (its arguments bind, of its
    parameters' types): its refusal comes before anything ``out=`` is checked for, and is the
    op's own (raised by ``fn`` itself, which its entry words as torch's parser)."""
    return _call_form.binds(fn, args, kwargs) and not _call_form.parameter_types(
        fn, fn.__name__, args, kwargs)


def _number_as_out(name: str, out: Any) -> Any:
    """``out`` as the parser of ``name`` reads it: the ops whose Tensor parameters take a
    Python number (add's) take one as ``out`` too, a new 0-d tensor of its dtype (int64,
    float64, bool), which the result is written into.

    >>> _number_as_out("add", 1.5)
    tensor(1.5000, dtype=torch.float64)
    """
    if name not in _call_form.NUMBERS_AS_TENSORS or type(out) not in (bool, int, float):
        return out
    if type(out) is int and out < _args.INT64_MIN:
        raise OverflowError("can't convert negative int to unsigned")
    if type(out) is int and out >= 2 ** 64:
        raise OverflowError("int too big to convert")
    if type(out) is int and out > _args.INT64_MAX:  # (torch's uint64, which minitorch lacks)
        return out
    from .._creation import tensor

    return tensor(out, dtype={bool: D.bool, int: D.int64, float: D.float64}[type(out)])


def out_last(wrapper: Callable, fn: Callable, kind: str = "Tensor") -> Callable:
    """``wrapper`` (of ``fn``, taking ``out=``) with ``fn``'s signature and torch's
    keyword-only ``out`` (of ``kind``) last, the names its parser reads (an unknown keyword
    is another one).

    >>> import inspect
    >>> str(inspect.signature(out_last(lambda *a, out=None: a, lambda input, dim=0: None)))
    "(input, dim=0, *, out: 'Tensor | None' = None)"
    """
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return wrapper
    params = list(signature.parameters.values())
    if "out" in signature.parameters:
        return wrapper
    at = next((i for i, p in enumerate(params) if p.kind is p.VAR_KEYWORD), len(params))
    params.insert(at, inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY, default=None,
                                        annotation=f"{kind} | None"))
    wrapper.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
    return wrapper


def _number_first(name: str, fn: Callable, args: tuple, kwargs: dict, out: Any) -> None:
    """torch's parser refusal of a number first operand with ``out``, where none of ``fn``'s
    overloads taking a number first (``remainder``'s ``Number self, Tensor other``) has
    ``out``, and the parser does not take a number for a tensor (as ``floor_divide``'s)."""
    signatures = getattr(fn, "torch_signatures", ())
    if not signatures or not args or not isinstance(args[0], (int, float, complex)) or \
            name in _call_form.NUMBERS_AS_TENSORS:
        return
    if not any(s.startswith("Number") and "out" in s for s in signatures):
        raise _args.invalid_combination(name, args, *signatures,
                                        keywords={**kwargs, "out": out})


# ops taking a number operand whose promoted result type (complex for a complex number)
# torch's TensorIterator casts into out's dtype before its kernel could refuse complex
_COMPLEX_CAST_FIRST = frozenset({
    "remainder", "fmod", "floor_divide", "bitwise_and", "bitwise_or", "bitwise_xor",
    "bitwise_left_shift", "bitwise_right_shift", "copysign", "xlogy", "pow", "sub", "div",
    "add", "mul"})


def _complex_into(operands: tuple, out: Tensor) -> None:
    """torch's refusal of a complex result (a tensor and a complex number) for ``out``, of a
    real dtype as all of minitorch's are."""
    tensors = [a for a in operands if isinstance(a, Tensor)]
    if tensors and any(isinstance(a, complex) for a in operands):
        raise RuntimeError(f"result type {_args.complex_name(tensors[0].dtype)} can't be cast "
                           f"to the desired output type {_args.legacy(out.dtype)}")


def _tensors_of(values: tuple) -> list:
    """The tensors among a call's ``values``, and in its lists (cat's and stack's)."""
    nested = (t for v in values if isinstance(v, (list, tuple)) for t in v)
    return [v for v in (*values, *nested) if isinstance(v, Tensor)]


# ops whose first operand (a condition) autograd does not differentiate: its out= check
# skips it, and a wrong one is the kernel's refusal
_CONDITION_FIRST = frozenset({"where"})


def _refuse_grad(name: str, operands: list, outs: tuple) -> None:
    """autograd's refusal of ``out=`` where one of the call's ``operands`` or ``outs``
    requires grad; of an op whose derivative torch leaves not implemented, only where an
    ``out`` does, in the aten op's name."""
    if name in _DERIVATIVE_NOT_IMPLEMENTED:
        name, operands = f"aten::{name}", []
    if is_grad_enabled() and any(t.requires_grad for t in (*operands, *outs)):
        raise RuntimeError(
            f"{name}(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad.")


def takes_out_elementwise(fn: Callable) -> Callable:
    """``takes_out`` for an elementwise op (its ``out`` may be one of its operands).

    >>> x = minitorch.ones(1)
    >>> takes_out_elementwise(minitorch.add)(x, minitorch.ones(2), out=x)
    Traceback (most recent call last):
    RuntimeError: output with shape [1] doesn't match the broadcast shape [2]
    """
    return takes_out(fn, elementwise=True)


# torch's one-signature elementwise functions of one tensor that take ``out=``
UNARY_WITH_OUT = (
    "abs", "absolute", "acos", "acosh", "angle", "arccos", "arccosh", "arcsin", "arcsinh", "arctan",
    "arctanh", "asin", "asinh", "atan", "atanh", "bitwise_not", "ceil", "conj_physical", "cos",
    "cosh",
    "deg2rad", "digamma", "erf", "erfc", "erfinv", "exp", "exp2", "expm1", "fix", "floor",
    "frac", "i0", "isneginf", "isposinf", "lgamma", "log", "log10", "log1p", "log2",
    "logical_not", "logit", "msort", "nan_to_num", "neg", "negative", "rad2deg", "reciprocal",
    "rsqrt", "sgn", "sigmoid", "sign", "signbit", "sin", "sinc", "sinh", "sqrt", "square",
    "tan", "tanh", "trunc", "round")

# torch's elementwise functions of two arguments that take ``out=`` (add and mul have it
# already; polygamma's other argument, n, is an int): the result is computed as
# without ``out``, then cast into it where it can be
BINARY_WITH_OUT = (
    "sub", "subtract", "div", "divide", "true_divide", "floor_divide", "remainder", "fmod",
    "pow", "float_power", "atan2", "arctan2", "maximum", "minimum", "fmax", "fmin", "eq",
    "ne", "lt", "le", "gt", "ge", "greater", "greater_equal", "less", "less_equal",
    "not_equal", "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or",
    "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift", "hypot", "copysign",
    "xlogy", "nextafter", "ldexp", "heaviside", "lerp", "polygamma", "igamma", "igammac")

# those whose result has their operands' promoted dtype, and whose own refusals come from
# their kernel (after out's dtype is checked)
_PROMOTED = frozenset({"bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
                       "bitwise_right_shift", "remainder", "fmod", "floor_divide", "nextafter",
                       "hypot", "igamma", "igammac"})


# the op an alias runs, which torch's autograd refusal names
# the ops that join their tensors raised to enough dims with cat (ops/stacking.py)
_STACKING = frozenset({"hstack", "vstack", "dstack", "row_stack", "column_stack"})
_JOINS = frozenset({"cat", "concat", "concatenate", "stack", *_STACKING})  # (cat's kernel)
_RUNS = {"square": "pow", "absolute": "abs", "negative": "neg", "fix": "trunc", "msort": "sort",
         "arccos": "acos", "arccosh": "acosh", "arcsin": "asin", "arcsinh": "asinh",
         "arctan": "atan", "arctanh": "atanh", "subtract": "sub", "divide": "div",
         "true_divide": "div", "arctan2": "atan2", "greater": "gt", "greater_equal": "ge",
         "less": "lt", "less_equal": "le", "not_equal": "ne", "linalg_inv": "linalg_inv_ex",
         "linalg_eigh": "_linalg_eigh", "linalg_svd": "_linalg_svd",
         "linalg_slogdet": "_linalg_slogdet", "linalg_lu_factor": "linalg_lu_factor_ex",
         "cross": "linalg_cross", "log_sigmoid": "log_sigmoid_forward",
         "inverse": "linalg_inv_ex", "take_along_dim": "gather",
         "orgqr": "linalg_householder_product", "linalg_multi_dot": "mm",
         # a composite op's out= is refused by the op with out= it runs
         "diff": "sub", "ger": "mul", "kron": "mul", "outer": "mul", "nanmean": "nansum",
         "clip": "clamp", "frobenius_norm": "norm", "linalg_det": "_linalg_det",
         "linalg_eigvalsh": "_linalg_eigh", "linalg_svdvals": "_linalg_svd",
         "linalg_cholesky": "linalg_cholesky_ex", "linalg_solve": "_linalg_solve_ex",
         "linalg_matmul": "matmul",
         **dict.fromkeys((*_STACKING, "concat", "concatenate"), "cat")}
# ops whose kernel writes its own dtype (no cast into ``out``): torch's checks of out's dtype
_SAME_DTYPE = frozenset({"abs", "absolute", "neg", "negative", "floor", "ceil", "trunc", "fix",
                         "frac", "sign", "sgn", "bitwise_not", "round", "conj_physical"})
_BOOL_OUT = frozenset({"isneginf", "isposinf", "signbit"})
# outputs torch's derivatives.yaml marks not differentiable: no autograd refusal of out=
_NOT_DIFFERENTIABLE = _BOOL_OUT | {
    "logical_not", "eq", "ne", "lt", "le", "gt", "ge", "greater", "greater_equal", "less",
    "less_equal", "not_equal", "logical_and", "logical_or", "logical_xor"}
# ops whose derivative it leaves "not implemented": only an out that requires grad is
# refused, in the aten op's name
# the view copies (view_copies.py's single-output ones), whose out= has no derivative either
_VIEW_COPIES = tuple(f"{view}_copy" for view in (
    "view", "permute", "expand", "t", "transpose", "squeeze", "unsqueeze", "diagonal", "select",
    "slice", "unfold", "alias", "as_strided", "detach"))
_DERIVATIVE_NOT_IMPLEMENTED = frozenset({
    *_VIEW_COPIES, "diag_embed",
    "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "bitwise_left_shift",
    "bitwise_right_shift", "gcd", "lcm", "floor_divide", "heaviside", "conj_physical",
    "softmax", "log_softmax"})


def _check_out_dtype(name: str, input: Any, result: Tensor | None, out: Tensor) -> None:
    """torch's refusal of an ``out`` whose dtype ``name`` does not write into (``result``
    None: before the op runs)."""
    written = input if result is None else result
    if name in _SAME_DTYPE and written.dtype is not out.dtype:  # (before the kernel runs)
        raise RuntimeError(_found_dtype(out, written.dtype))
    if result is None:
        return
    if name == "nan_to_num" and input.dtype is not out.dtype:
        raise RuntimeError(f"nan_to_num: dtype of out: {_args.legacy(out.dtype)} should be same "
                           f"as input: {_args.legacy(input.dtype)}")
    if name == "nan_to_num" and input.dtype.is_floating_point:  # (an integer one is copied)
        check_iterator_out(out, [input])
    elif name == "nan_to_num" and out.shape == input.shape:  # (copy_'s check, after out is
        check_partial_overlap(out._data, input)  # resized: only an unresized out is judged)
    if name == "msort" and result.dtype is not out.dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {_args.c_name(result.dtype)}, "
                           f"but got {_args.c_name(out.dtype)} instead")


def _found_dtype(out: Tensor, expected: D.dtype) -> str:
    """TensorIterator's refusal of an ``out`` of another dtype than its operands' one."""
    return f"Found dtype {_args.legacy(out.dtype)} but expected {_args.legacy(expected)}"


def with_out_keyword(fn: Callable, name: str) -> Callable:
    """``fn`` (a function of one tensor, elementwise) taking torch's keyword ``out``, which
    its parser checks is a Tensor before anything else.

    >>> minitorch.exp(minitorch.zeros(1), out=2.0)
    Traceback (most recent call last):
    TypeError: exp(): argument 'out' must be Tensor, not float
    >>> minitorch.floor(minitorch.zeros(1), out=minitorch.zeros(1, dtype=minitorch.float64))
    Traceback (most recent call last):
    RuntimeError: Found dtype Double but expected Float
    """
    @functools.wraps(fn)
    def checked(*args: Any, out: Any = None, **kwargs: Any) -> Any:
        if out is None:
            return fn(*args, **kwargs)
        if not _parses(fn, args, kwargs):  # the op's own refusal first (a call it takes
            fn(*args, **kwargs)  # after all, a number where it says Tensor, goes on)
        if not isinstance(out, Tensor):
            raise TypeError(f"{name}(): argument 'out' must be Tensor, not "
                            f"{_args.type_name(out)}")
        if name in _BOOL_OUT and out.dtype is not D.bool:
            raise RuntimeError(f"{name} does not support non-boolean outputs.")

        @functools.wraps(fn)  # (its parameters: a call that does not bind them is refused)
        def checked_dtype(*args: Any, **kwargs: Any) -> Tensor:  # (after autograd's refusal)
            input = args[0] if args else kwargs.get("input")
            if name in _SAME_DTYPE and isinstance(input, Tensor) and not (
                    name in ("neg", "negative") and input.dtype is D.bool):  # its own refusal
                _check_out_dtype(name, input, None, out)
            result = fn(*args, **kwargs)
            _check_out_dtype(name, input, result, out)
            if name == "nan_to_num" and not input.dtype.is_floating_point:
                return input  # torch copies it into out as it is (into itself: nothing)
            if name == "conj_physical" and result is input and input.requires_grad and \
                    grad_mode._state.grad_enabled:
                from .pointwise import ConjPhysicalOut  # (pointwise imports this module)

                return ConjPhysicalOut.on(input)
            return result

        return takes_out(checked_dtype, _RUNS.get(name, name), elementwise=True,
                         differentiable=name not in _NOT_DIFFERENTIABLE)(*args, out=out, **kwargs)

    return out_last(checked, fn)


def add_out_keywords(namespace: dict) -> None:
    """The functions of :data:`UNARY_WITH_OUT` and :data:`BINARY_WITH_OUT` in ``namespace``
    (the package's globals), each taking ``out=`` (those that do not already)."""
    for name in UNARY_WITH_OUT:
        fn = namespace.get(name)
        if fn is not None and "out" not in inspect.signature(fn).parameters:
            namespace[name] = with_out_keyword(fn, name)
    for name in REDUCING_WITH_OUT:
        namespace[name] = reducing_with_out(namespace[name], name)
    namespace["where"] = where_with_out(namespace["where"])
    add_parsed_out(namespace, PARSED_OUT)
    for name, runs, refusal in (("float_power", "pow", _float_power_refusal),
                                ("heaviside", "heaviside", _heaviside_refusal),
                                ("ldexp", "ldexp", _ldexp_refusal),
                                ("lerp", "lerp", _lerp_refusal)):
        namespace[name] = checked_out(namespace[name], runs, refusal)
    for name in BINARY_WITH_OUT:
        fn = namespace.get(name)
        if fn is not None and "out" not in inspect.signature(fn).parameters:
            namespace[name] = takes_out(fn, _RUNS.get(name, name), elementwise=True,
                                        promoted=name in _PROMOTED,
                                        differentiable=name not in _NOT_DIFFERENTIABLE,
                                        typed=True)


def checked_out(fn: Callable, runs: str, refusal: Callable[[tuple, Tensor], str | None]
                ) -> Callable:
    """``fn`` (elementwise, of two operands, or lerp's three) taking ``out=``, whose dtype
    torch's kernel checks first (before autograd refuses ``out`` in ``runs``'s name):
    ``refusal(operands, out)`` is its message, None where it takes it.

    >>> minitorch.float_power(minitorch.ones(1), 2, out=minitorch.ones(1))
    Traceback (most recent call last):
    RuntimeError: the output given to float_power has dtype Float but the operation's result \
requires dtype Double
    """
    @functools.wraps(fn)
    def checked(*args: Any, out: Any = None, **kwargs: Any) -> Any:
        if out is None:
            return fn(*args, **kwargs)
        if not _parses(fn, args, kwargs):  # the op's own refusal first (a call it takes
            fn(*args, **kwargs)  # after all, a number where it says Tensor, goes on)
        operands = tuple(inspect.signature(fn).bind(*args, **kwargs).arguments.values()) \
            if _call_form.binds(fn, args, kwargs) else ()  # (by position or by name)
        if isinstance(out, Tensor) and len(operands) in (2, 3) and all(
                isinstance(a, (Tensor, int, float, complex)) for a in operands):
            message = refusal(operands, out)
            if message is not None:
                raise RuntimeError(message)
        return takes_out(fn, runs, elementwise=True, typed=True)(*args, out=out, **kwargs)

    return out_last(checked, fn)


def _float_power_refusal(operands: tuple, out: Tensor) -> str | None:
    """float_power's out must be of its result's dtype: float64, complex for a complex
    number."""
    from .binary_more import float_power_type

    wanted = float_power_type(*operands)
    if wanted == "Double" and out.dtype is D.float64:
        return None
    return (f"the output given to float_power has dtype {_args.legacy(out.dtype)} but the "
            f"operation's result requires dtype {wanted}")


def _heaviside_refusal(operands: tuple, out: Tensor) -> str | None:
    """heaviside's out must be of its input's dtype (its operands' check, values a tensor)."""
    if all(isinstance(a, Tensor) for a in operands) and out.dtype is not operands[0].dtype:
        return "heaviside is not yet implemented for tensors with different dtypes."
    return None


def _lerp_refusal(operands: tuple, out: Tensor) -> str | None:
    """lerp's out of a tensor weight must be of its input's dtype (its TensorIterator's
    check of every operand, before any shape); a number weight's is cast into."""
    if len(operands) == 3 and all(isinstance(a, Tensor) for a in operands) and \
            out.dtype is not operands[0].dtype:
        return _found_dtype(out, operands[0].dtype)
    return None


def _ldexp_refusal(operands: tuple, out: Tensor) -> str | None:
    """ldexp's floating result cast into an integer or bool out: refused in its own words
    (by its kernel: after autograd's refusal of out)."""
    tensors = [a for a in operands if isinstance(a, Tensor)]
    if is_grad_enabled() and any(t.requires_grad for t in tensors):
        return None
    if len(tensors) == 2 and not out.dtype.is_floating_point:
        return f"ldexp can't be cast to the desired output type {_args.legacy(out.dtype)}"
    return None


# torch's reductions over dims that take ``out=``, by how their kernel reads out's dtype:
# "dtype" ones reduce in it (as their ``dtype=``), "same" ones write the input's dtype only,
# "float" ones (mean) compute in a floating dtype cast into out where it can be
REDUCING_WITH_OUT = {"sum": "dtype", "prod": "dtype", "nansum": "dtype", "cumsum": "dtype",
                     "cumprod": "dtype", "amax": "same", "amin": "same", "mean": "float"}


def reducing_with_out(fn: Callable, name: str) -> Callable:
    """``fn`` (a reduction over ``dim``) taking torch's ``out=``, whose dtype it reduces in,
    must match, or receives a cast, as :data:`REDUCING_WITH_OUT` says; without ``dim`` its
    overloads take no ``out`` (``fn``'s parser refuses it), but nansum's one overload does.

    >>> o = minitorch.empty(2, dtype=minitorch.int64)
    >>> minitorch.sum(minitorch.full((3, 2), 2.7), 0, out=o) is o, o
    (True, tensor([6, 6]))
    >>> minitorch.amax(minitorch.ones(2), 0, out=o)
    Traceback (most recent call last):
    RuntimeError: Expected the dtype for input and out to match, but got Float for input's \
dtype and Long for out's dtype.
    """
    kind = REDUCING_WITH_OUT[name]

    @functools.wraps(fn)
    def reduced(*args: Any, out: Tensor | None = None, **kwargs: Any) -> Any:
        if out is None or (len(args) < 2 and "dim" not in kwargs and kind == "dtype"
                           and name != "nansum"):  # (its one overload: dim optional)
            return fn(*args, **({} if out is None else {"out": out}), **kwargs)
        if typed := _call_form.parameter_types(fn, name, args, kwargs):
            raise TypeError(typed)  # torch's parser reads out, keyword-only, last
        if not _call_form.binds(fn, args, kwargs):
            fn(*args, **kwargs)  # (Python's refusal, which the op's entry words as torch's)
        _call_form.parameter_values(fn, name, args, kwargs)

        def into_out(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
            if kind == "same" and input.dtype is not out.dtype:
                raise RuntimeError(
                    "Expected the dtype for input and out to match, but got "
                    f"{_args.legacy(input.dtype)} for input's dtype and "
                    f"{_args.legacy(out.dtype)} for out's dtype.")
            if kind == "dtype":
                kwargs = _out_dtype(name, input, out, kwargs)
            if kind == "float":
                kwargs = _mean_dtype(input, out, kwargs, every=len(args) + len(kwargs) == len(
                    kwargs.keys() & {"dtype", "keepdim"}))
            result = fn(input, *args, **kwargs)
            if kind == "float":  # torch's message names Float for any floating input
                _check_cast(D.float32, out)
            if input is out and name in _FILLED_FIRST:
                return _reduced_from_identity(name, input, result, args, kwargs)
            return result

        return takes_out(into_out, name)(*args, out=out, **kwargs)

    return out_last(reduced, fn)


# the reductions (not the scans) whose kernel fills out with their identity before it reads
# the input (int64 amin's fills nothing: its result is as computed)
_FILLED_FIRST = frozenset({"sum", "nansum", "prod", "mean", "amax", "amin"})


def _reduced_from_identity(name: str, input: Tensor, result: Tensor, args: tuple,
                           kwargs: dict) -> Tensor:
    """torch's reduction whose ``out`` is its ``input`` (over the dims in ``args`` or
    ``kwargs``): out, resized to the result's shape, is the input the kernel wraps the dims
    against, and is filled with the reduction's identity before the kernel reads it, so the
    result is that identity (mean's: a sum of zeros divided; half's mean, a float sum copied
    in, is left as computed), not the reduction of the input's values.

    >>> x = minitorch.tensor([0.5, 1.25])
    >>> minitorch.sum(x, 0, out=x)
    tensor(0.)
    """
    if name != "nansum" or not input.dtype.is_floating_point:  # (not float nansum's kernel)
        for d in _dims_given(args, kwargs):
            _args.wrap_dim(d, result.dim())  # (the kernel wraps dim against the resized input)
    if name == "mean" and result.dtype is D.float16:  # (half's mean: a float sum copied in)
        return result
    if name == "amin" and result.dtype is D.int64:
        return result
    return result.detach().new_full(tuple(result.shape), _identity(name, result.dtype))


def _identity(name: str, dtype: D.dtype) -> Any:
    """The value a reduction's kernel starts from: amax's the dtype's lowest, amin's its
    highest, prod's 1, the sums' 0.

    >>> _identity("amax", minitorch.uint8), _identity("amin", minitorch.float32)
    (0, inf)
    """
    if name not in ("amax", "amin"):
        return 1 if name == "prod" else 0
    if dtype is D.bool:
        return name == "amin"
    if dtype.is_floating_point:
        return math.inf if name == "amin" else -math.inf
    info = D.iinfo(dtype)
    return info.max if name == "amin" else info.min


def _dims_given(args: tuple, kwargs: dict) -> tuple:
    """The dims a reduction's call names (after its input): none, one, or a sequence.

    >>> _dims_given((1,), {}), _dims_given((), {"dim": [0, 1]}), _dims_given((), {})
    ((1,), (0, 1), ())
    """
    dim = args[0] if args else kwargs.get("dim")
    return tuple(dim) if isinstance(dim, (tuple, list)) else () if dim is None else (dim,)


def _mean_dtype(input: Any, out: Tensor, kwargs: dict, every: bool) -> dict:
    """mean's keywords with ``out``: a ``dtype=`` must be out's; without one a floating input
    is summed in out's floating dtype (torch's mean.out sums into out, then divides). Its
    overload of ``every`` element first checks that the input's dtype casts into out's."""
    if every and isinstance(input, Tensor) and not can_cast(input.dtype, out.dtype):
        raise RuntimeError("mean.dtype_out(): input types can't be cast to the desired output "
                           f"type {_args.legacy(out.dtype)}")
    dtype = kwargs.get("dtype")
    if isinstance(dtype, D.dtype) and isinstance(input, Tensor):
        from .reduction import check_mean_dtype

        check_mean_dtype(input, dtype)  # (before out's)
    if dtype is not None and dtype is not out.dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {_args.c_name(dtype)}, but got "
                           f"{_args.c_name(out.dtype)} instead")
    if dtype is None and isinstance(input, Tensor) and input.dtype.is_floating_point and \
            out.dtype.is_floating_point:
        return {**kwargs, "dtype": out.dtype}
    return kwargs


def _out_dtype(name: str, input: Tensor, out: Tensor, kwargs: dict) -> dict:
    """The keywords of a reduction that reduces in out's dtype: ``dtype=`` must name it."""
    dtype = kwargs.get("dtype")
    nan_kernel = name == "nansum" and input.dtype.is_floating_point  # (else sum's)
    if dtype is not None and dtype is not out.dtype and nan_kernel:
        raise RuntimeError(f"nansum: provided dtype must match dtype of result. Got "
                           f"{_args.legacy(out.dtype)} and {_args.legacy(dtype)}.")
    if dtype is not None and dtype is not out.dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {_args.c_name(dtype)}, but got "
                           f"{_args.c_name(out.dtype)} instead")
    if nan_kernel and dtype is None and not out.dtype.is_floating_point:
        raise _args.not_implemented("nansum_cpu", out.dtype)
    return {**kwargs, "dtype": out.dtype}


def where_with_out(fn: Callable) -> Callable:
    """torch's ``where(condition, input, other, out=t)``: its overload with ``out`` takes
    tensors only, whose promoted dtype must be out's.

    >>> minitorch.where(minitorch.ones(1) > 0, minitorch.ones(1), 2.0, out=minitorch.ones(1))
    Traceback (most recent call last):
    TypeError: where(): argument 'other' (position 3) must be Tensor, not float
    """
    @functools.wraps(fn)
    def where(*args: Any, out: Any = _args.OMITTED, **kwargs: Any) -> Any:
        if out is _args.OMITTED:
            return fn(*args, **kwargs)
        if len(args) + len(kwargs) < 3:  # where(condition) takes no out, even None
            from .pointwise import WHERE_SIGNATURES

            raise _args.invalid_combination("where", args, *WHERE_SIGNATURES,
                                            keywords={**kwargs, "out": out})
        if out is None or not _call_form.binds(fn, args, kwargs):
            return fn(*args, **kwargs)  # (the parser's refusal of the call first)
        _args.tensor_args("where", *((a, n, i + 1) for i, (a, n) in enumerate(
            zip(args, ("condition", "input", "other")))))

        def into_out(condition: Tensor, input: Tensor, other: Tensor) -> Tensor:
            promoted = D.result_type(input, other)
            if promoted is not out.dtype:
                raise RuntimeError(f"Expected out type to be {_args.legacy(promoted)} but got "
                                   f"{_args.legacy(out.dtype)}")
            check_iterator_out(out, (condition, input, other))  # (its TensorIterator's)
            result = fn(condition, input, other)
            if any(t is out for t in (condition, input, other)):  # (an input is not resized)
                check_output_shape(out.shape, result.shape)
            return result

        return takes_out(into_out, "where")(*args, out=out, **kwargs)

    return out_last(where, fn)


def _check_cast(dt: D.dtype, out: Tensor) -> None:
    if not can_cast(dt, out.dtype):
        raise RuntimeError(f"result type {_args.legacy(dt)} can't be cast to the "
                           f"desired output type {_args.legacy(out.dtype)}")


def warn_resized(had: tuple, required: tuple, stacklevel: int = 2) -> None:
    """torch's warning for an output with elements resized to the ``required`` shape.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_resized((2,), (1,))
    >>> str(caught[0].message)[:59]
    'An output with one or more elements was resized since it ha'
    """
    warnings.warn(
        f"An output with one or more elements was resized since it had shape {list(had)}, "
        f"which does not match the required output shape {list(required)}. This behavior is "
        "deprecated, and in a future PyTorch release outputs will not be resized unless they "
        "have zero elements. You can explicitly reuse an out tensor t by resizing it, "
        "inplace, to zero elements with t.resize_(0).", UserWarning, stacklevel=stacklevel)


def _write(result: Tensor, out: Tensor, differentiable: bool = True,
           cast: bool = False) -> Tensor:
    """``result`` written into ``out`` (resized where its shape differs, with torch's
    warning); unrecorded for an op torch gives no derivative (``out`` keeps its history);
    into any dtype where ``cast`` (a copy), else one it casts to."""
    if not cast:
        _check_cast(result.dtype, out)
    _resized(out, tuple(result.shape))
    with _batched_function.own_write(), grad_mode._recording(
            differentiable and grad_mode._state.grad_enabled):
        out.copy_(result)
    if result._grad_fn is not None and not differentiable:  # (an op torch gives no derivative:
        # out takes its NotImplemented node)
        out._take_grad_fn(result._grad_fn, result._output_nr)
    return out


def _resized(out: Tensor, shape: tuple) -> None:
    """``out`` resized to ``shape`` where it has another, with torch's warning where it had
    elements."""
    if tuple(out.shape) != shape:
        if out.numel():
            warn_resized(tuple(out.shape), shape, stacklevel=5)
        from .._factories import resize_storage  # (the factories import this module)

        resize_storage(out, shape)


def _refuse_joined_overlap(key: str, args: tuple, kwargs: dict, out: Tensor) -> None:
    """torch's refusal of cat (which stack and the stacking ops run) into an ``out`` that is,
    or shares memory with, one of the tensors it joins.

    >>> x = minitorch.ones(2)
    >>> minitorch.cat([x, x], out=x)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    RuntimeError: unsupported operation: some elements of the input tensor and the written-to...
    """
    if key in _JOINS:
        for tensor in _tensors_of((*args, *kwargs.values())):
            if tensor is out:  # (torch's same tensor overlaps fully, even with no elements)
                raise overlap_error()
            check_no_overlap(out, tensor)


def _stack_into_its_tensor(fn: Callable, args: tuple, kwargs: dict, out: Tensor) -> None:
    """torch's stack into an ``out`` that is one of its tensors, of another shape than the
    result: out resized first, then the tensors' sizes compared, out's now another."""
    tensors = _tensors_of((*args, *kwargs.values()))
    if any(t is out for t in tensors) and all(t.shape == tensors[0].shape for t in tensors):
        _resized(out, tuple(fn(*args, **kwargs).shape))
        at = next((i for i, t in enumerate(tensors) if t.shape != tensors[0].shape), None)
        if at is not None:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                               f"{list(tensors[0].shape)} at entry 0 and "
                               f"{list(tensors[at].shape)} at entry {at}")


# how torch's kernel of each :data:`PARSED_OUT` op checks out's dtype against its result's:
# whether it casts into out where it can, and its refusal (of the legacy names ``r`` and
# ``o``, the C names ``cr`` and ``co``, the result's ``field``); exact, as structured
# kernels check, where not listed
_EXACT = (False, "Expected out tensor to have dtype {cr}, but got {co} instead", RuntimeError)
_CAST = (True, "result type {r} can't be cast to the desired output type {o}", RuntimeError)
_CLAMPS = ("clamp", "clip", "clamp_min", "clamp_max")
_OUT_DTYPES = {
    **dict.fromkeys(("addcdiv", "addcmul", "diff", "ger", "kron", "logaddexp", "logaddexp2",
                     "outer", "threshold"), _CAST),
    **dict.fromkeys(("cat", "column_stack", "concat", "concatenate", "dstack", "hstack",
                     "row_stack", "stack", "vstack"),
                    (True, "torch.cat(): input types can't be cast to the desired output type "
                     "{o}", TypeError)),
    **dict.fromkeys(("std", "var"), _CAST),
    **dict.fromkeys(("all", "any"), (False, "{name} only supports bool tensor for result, got: "
                                     "{o}", RuntimeError)),
    **dict.fromkeys(("bucketize", "searchsorted"),
                    (False, "torch.searchsorted(): output tensor's dtype is wrong, it can only "
                     "be Int(int32) or Long(int64) depending on whether out_int32 flag is True, "
                     "but we got output tensor's dtype {o} and out_int32 flag is {int32}",
                     RuntimeError)),
    **dict.fromkeys(("quantile", "nanquantile"),
                    (False, "quantile() out tensor must be same dtype as the input tensor",
                     RuntimeError)),
    "clamp_tensor": _CAST,
    **dict.fromkeys(("clamp_max", "clamp_min", "hardshrink", "clamp", "clip", "gelu",
                     "softplus", "softshrink"),
                    (False, "Found dtype {o} but expected {r}", RuntimeError)),
    **dict.fromkeys(("logcumsumexp", "cummax", "cummin"),
                    (False, "expected scalar_type {r} but found {o}", RuntimeError)),
    **dict.fromkeys(("dot", "vdot"),
                    (False, "result dtype {o} does not match input dtype {r}", RuntimeError)),
    **dict.fromkeys(("cholesky", "cholesky_inverse"),
                    (True, "{name}: Expected result to be safely castable from {r} dtype, but "
                     "got result with dtype {o}", RuntimeError)),
    "nanmean": (True, "\"nansum_cpu\" not implemented for '{o}'", NotImplementedError),
    "logsumexp": (True, "logsumexp(): Expected floating point type for result tensor, but "
                  "got: {o}", RuntimeError),
    **dict.fromkeys(("inner", "tensordot"), (
        False, "tensordot: Expected the output tensor to have dtype {r}, but got an output "
        "tensor with dtype {o}", RuntimeError)),
    "index_select": (False, "index_select(): self and result must have the same scalar type",
                     RuntimeError),
    "take": (False, "take(): self and out expected to have the same dtype, but got self.dtype "
             "= {r} and out.dtype = {o}", RuntimeError),
    "mode": (False, "expected scalar type '{r}' but got '{o}' for {field} output",
             RuntimeError),
    **dict.fromkeys(("addr", "gcd", "lcm"), _CAST),
    "masked_select": (False, "masked_select(): self and result must have the same scalar type",
                      RuntimeError),
    "addbmm": (False, "self and mat2 must have the same dtype, but got {o} and {r}",
               RuntimeError),
    "cholesky_solve": (True, "cholesky_solve: Expected result to be safely castable from {r} "
                       "dtype, but got result with dtype {o}", RuntimeError),
    "nonzero": (False, "nonzero: Expected out tensor to have scalar type Long but got scalar "
                "type{o}", RuntimeError),
    "mvlgamma": (True, "mvlgamma: result type {r} can't be cast to the desired output type "
                 "{r}", RuntimeError),  # (torch names the result's type twice)
    "multinomial": (False, "multinomial expects Long tensor out, got: {o}", RuntimeError),
    **dict.fromkeys(("histc", "histogram"), (
        False, "torch.histogram: input tensor and {field} tensor should have the same dtype, "
        "but got input {cr} and {field} {co}{edges}", RuntimeError)),
    # max and min without dim (:func:`_overload_of`): a cast where it can, the other's op's
    "max_all": (True, _args.check_failed("canCast( typeMetaToScalarType(self.dtype()), "
                                         "typeMetaToScalarType(out.dtype()))"), RuntimeError),
    "narrow_copy": (False, _args.check_failed("self.dtype() == output.dtype()"), RuntimeError),
    **dict.fromkeys(("maximum", "minimum"), _CAST),
    # linalg's, under their names
    **{f"linalg_{name}": (True, f"{message}: Expected result to be safely castable from {{r}} "
                          "dtype, but got result with dtype {o}", RuntimeError)
       for name, message in (("cond", "linalg.cond"), ("tensorinv", "tensorinv"),
                             ("matrix_rank", "torch.linalg.matrix_rank"),
                             ("tensorsolve", "tensorsolve"))},
    "linalg_lstsq": (True, "torch.linalg.lstsq: Expected {field} to be safely castable from "
                     "{r} dtype, but got {field} with dtype {o}", RuntimeError),
    "geqrf": (True, "torch.geqrf: Expected {field} to be safely castable from {r} dtype, but "
              "got {field} with dtype {o}", RuntimeError),
    "linalg_norm": (False, "linalg.norm expected out tensor dtype {r} but got: {o}",
                    RuntimeError),
    "linalg_matrix_norm": (False, "linalg.matrix_norm expected out tensor dtype {r} but got: "
                           "{o}", RuntimeError),
    "linalg_vecdot": (False, "linalg.vecdot: Expected out of dtype{r} but found {o}",
                      RuntimeError),
    "linalg_multi_dot": (False, "multi_dot(): expected out tensor to have dtype {cr} but got "
                         "{co}", RuntimeError),
    **dict.fromkeys(("linalg_solve_triangular", "log_sigmoid"),
                    (False, "expected scalar type {r} but found {o}", RuntimeError)),
    "linalg_pinv": (True, "linalg.pinv: Expected result to be safely castable from {r} dtype, "
                    "but got result with dtype {o}", RuntimeError),
    **dict.fromkeys(("linalg_householder_product", "orgqr"), (
        True, "torch.linalg.householder_product: Expected result to be safely castable from {r} "
        "dtype, but got result with dtype {o}", RuntimeError))}
# ops whose out= refuses no input that requires grad (their results have no gradient)
_NOT_DIFFERENTIABLE_OUT = frozenset({"searchsorted", "bucketize", "argmax", "argmin", "isin",
                                     "nonzero", "all", "any", "multinomial", "histogram"})


def _check_written(name: str, result: Tensor, out: Tensor, field: str) -> Tensor:
    """``result`` as written into ``out`` (for the ``field`` of ``name``'s result), after
    torch's refusal of an ``out`` of a dtype its kernel does not write (:data:`_OUT_DTYPES`)."""
    castable = _OUT_DTYPES.get(name, _EXACT)[0]
    if result.dtype is out.dtype or (castable and can_cast(result.dtype, out.dtype)):
        return result
    if name in ("all", "any") and out.dtype in (D.bool, D.uint8):  # their kernel writes
        return result.to(out.dtype)  # either
    raise _out_dtype_error(name, result.dtype, out.dtype, field)


def _out_dtype_error(name: str, written: D.dtype, given: D.dtype, field: str) -> Exception:
    """The refusal of ``name``'s kernel (:data:`_OUT_DTYPES`) to write ``written`` (the dtype
    of its result's ``field``) into an out of dtype ``given``."""
    _, template, error = _OUT_DTYPES.get(name, _EXACT)
    return error(template.format(
        r=_args.legacy(written), o=_args.legacy(given), cr=_args.c_name(written),
        co=_args.c_name(given), name=name, field=field.replace("result", "hist"),
        edges=" for dimension 0" if field == "bin_edges" else "", int32=written is D.int32))


# ops whose kernel checks the dtypes of out's first fields (these) against its input's before
# it refuses an input of a dtype it does not compute in (float16 too); max's and min's of all
# elements check out's before they look at the input (:func:`_extremum_of_none`)
# composite linear algebra ops that check out's dtype against their input's before anything
_INPUT_DTYPE_FIRST = frozenset({"linalg_tensorsolve", "linalg_tensorinv", "linalg_cond",
                                "linalg_pinv", "cholesky_solve", "cholesky"})
_CHECKED_FIRST = {"linalg_eigh": ("eigenvalues", "eigenvectors"), "linalg_lu_factor": ("LU",),
                  "linalg_eigvalsh": ("result",),
                  "histogram": ("hist", "bin_edges"), "max_all": ("result",),
                  "triangular_solve": ("solution", "cloned_coefficient"),
                  "linalg_lu": ("P", "L", "U"), "linalg_lu_factor_ex": ("LU",),
                  # (these refuse an integer input first, float16 after out's check)
                  "linalg_cholesky_ex": ("L",), "linalg_qr": ("Q", "R"), "linalg_svd": ("U",),
                  "linalg_solve_ex": ("result",), "geqrf": ("a", "tau"),
                  **dict.fromkeys(_INPUT_DTYPE_FIRST, ("result",))}
_HALF_ONLY = frozenset({"linalg_cholesky_ex", "linalg_qr", "linalg_svd", "linalg_solve_ex",
                        "geqrf"})


def _index_like(value: Any) -> bool:
    """Whether ``value`` is a 0-d integer tensor, which torch's parser reads as an int."""
    return isinstance(value, Tensor) and value.dim() == 0 and not (
        value.dtype.is_floating_point or value.dtype is D.bool)


# composite ops that compute, then copy into out (recorded: out takes the gradient)
_COPIED = frozenset({"inner", "quantile", "nanquantile", "tensordot", "nuclear_norm",
                     "linalg_norm", "linalg_matrix_norm", "linalg_cond", "linalg_matrix_rank",
                     "linalg_tensorinv", "linalg_tensorsolve"})


def _runs(key: str, op: str, args: tuple, kwargs: dict) -> tuple:
    """``(refused, recorded)`` for a call of ``key`` with out=: the op with out= it runs,
    which autograd's refusal names (None where it refuses nothing), and whether the result is
    copied into out as recorded (:data:`_COPIED`); matrix_power's product, inverse, copy or
    identity by its power; vecdot's vdot of vectors, else its sum; diag's its diagonal_copy
    (of a matrix) or diag_embed."""
    if key in ("matrix_power", "linalg_matrix_power"):
        n = args[1] if len(args) > 1 else kwargs.get("n")
        return (None, n == 1) if n in (0, 1) else ("linalg_inv_ex" if n < 0 else "matmul", False)
    if key == "diag" and isinstance(first := args[0] if args else kwargs.get("input"), Tensor):
        return "diagonal_copy" if first.dim() == 2 else "diag_embed", False
    if key == "inner" and any(isinstance(t, Tensor) and not t.dim() for t in args[:2]):
        return "mul", False  # (torch's inner of a 0-d operand is mul's out=)
    if key == "linalg_vecdot":
        tensors = (*args[:2], *(kwargs[k] for k in ("x", "y") if k in kwargs))
        return "vdot" if all(t.dim() == 1 for t in tensors) else "sum", False
    return (None, True) if key in _COPIED else (op, False)


def _checked_first(key: str, input: Any) -> bool:
    """Whether ``key``'s out is checked (:data:`_CHECKED_FIRST`) before its kernel runs: a
    linear algebra kernel's after its input's dims (a batch of matrices; solve's square)."""
    if not isinstance(input, Tensor):
        return False
    if key in _INPUT_DTYPE_FIRST:
        return True
    if key not in ("histogram", "max_all") and (input.dim() < 2 or (
            key == "linalg_solve_ex" and input.shape[-1] != input.shape[-2])):
        return False
    if key in _HALF_ONLY:
        return input.dtype is D.float16
    return key == "max_all" or input.dtype.name not in (
        "float32", "float64", "complex64", "complex128")


def _kernel_checks_first(key: str, args: tuple, kwargs: dict, out: Tensor, graded: bool
                         ) -> None:
    """The refusal of ``out``'s dtype by a kernel that checks it before it refuses its
    operands: (log_)softmax's before autograd refuses ``out`` (not ``graded``); a
    product's, clamp's, cat's, index_select's and logsumexp's after (``graded``)."""
    kernel = (_product_writes(key, args, kwargs) or _clamp_writes(key, args, kwargs)
              or _cat_writes(key, args, kwargs) or _index_select_writes(key, args, kwargs)
              or _logsumexp_writes(key, args, kwargs) or _pair_writes(key, args)
              if graded
              else _softmax_writes(key, args, kwargs))
    if kernel is not None and kernel[1] is not out.dtype and not (
            _OUT_DTYPES.get(kernel[0], _EXACT)[0] and can_cast(kernel[1], out.dtype)):
        raise _out_dtype_error(*kernel, out.dtype, "result")
    if graded and key in ("all", "any") and out.dtype not in (D.bool, D.uint8) and \
            _dims_parse(args[1:], kwargs):
        raise _out_dtype_error(key, D.bool, out.dtype, "result")  # (its meta's, before the
        # dims)


def _dims_parse(args: tuple, kwargs: dict) -> bool:
    """Whether a reduction's ``dim`` and ``keepdim`` (after its input) are of the types its
    parser takes: ints, and a bool."""
    dim = args[0] if args else kwargs.get("dim")
    keepdim = args[1] if len(args) > 1 else kwargs.get("keepdim", False)
    dims = dim if isinstance(dim, (tuple, list)) else () if dim is None else (dim,)
    return all(type(d) is int for d in dims) and type(keepdim) is bool and len(args) <= 2


def _cat_writes(key: str, args: tuple, kwargs: dict) -> tuple | None:
    """cat's kernel of tensors (not 0-d) and their result type, which it casts into out once
    its dim is in range, before it compares the tensors' sizes; a stacking op's cat (of its
    tensors raised to enough dims, its dim always in range) alike."""
    tensors = args[0] if args else kwargs.get("tensors")
    stacking = key in _STACKING
    if (key not in ("cat", "concat", "concatenate") and not stacking) or \
            not isinstance(tensors, (list, tuple)) or not tensors or \
            not all(isinstance(t, Tensor) and (t.dim() or stacking) for t in tensors):
        return None
    if stacking:
        return key, D.result_type(*tensors)
    dim = args[1] if len(args) > 1 else kwargs.get("dim", kwargs.get("axis", 0))
    ranked = [t for t in tensors if tuple(t.shape) != (0,)]  # (legacy empty 1-D tensors
    if ranked:  # skipped, as torch's cat does)
        _args.dim(key, dim, ranked[0].dim())
    return key, D.result_type(*tensors)


def _pair_writes(key: str, args: tuple) -> tuple | None:
    """The kernel of gcd, lcm or logaddexp(2) of two tensors and the dtype it writes (their
    promoted one), which TensorIterator casts into out once their shapes broadcast, before
    the kernel refuses that dtype."""
    if key not in ("gcd", "lcm", "logaddexp", "logaddexp2") or len(args) != 2 or not all(
            isinstance(t, Tensor) for t in args):
        return None
    broadcast_pair(*args)
    return key, D.result_type(*args)


def _logsumexp_writes(key: str, args: tuple, kwargs: dict) -> tuple | None:
    """logsumexp's kernel and the dtype it writes (its input's, floating): it wants a
    floating out before it reads its dims."""
    first = args[0] if args else kwargs.get("input")
    if key != "logsumexp" or not isinstance(first, Tensor):
        return None
    _args.dims(key, args[1] if len(args) > 1 else kwargs.get("dim"), None)  # (unpacked first)
    return key, first.dtype if first.dtype.is_floating_point else D.get_default_dtype()


def _index_select_writes(key: str, args: tuple, kwargs: dict) -> tuple | None:
    """index_select's kernel and the dtype it writes (its input's), checked once its dim is
    in range and its index a vector of indices, before the indices' range."""
    first = args[0] if args else kwargs.get("input")
    dim = args[1] if len(args) > 1 else kwargs.get("dim")
    index = args[2] if len(args) > 2 else kwargs.get("index")
    if key != "index_select" or not isinstance(first, Tensor) or _args.as_int(dim) is None \
            or not isinstance(index, Tensor) or index.dim() > 1 \
            or index.dtype not in (D.int32, D.int64):
        return None
    _args.dim(key, dim, first.dim())
    return key, first.dtype


def _softmax_writes(key: str, args: tuple, kwargs: dict) -> tuple | None:
    """(log_)softmax's kernel and the dtype it writes (its ``dtype=``, or its input's), once
    its dim is in range."""
    dim = args[1] if len(args) > 1 else kwargs.get("dim")
    if key not in ("softmax", "log_softmax") or not args or not isinstance(args[0], Tensor) \
            or dim is None:
        return None
    _args.dim(key, dim, args[0].dim(), position=2)
    dtype = args[2] if len(args) > 2 else kwargs.get("dtype")
    return key, dtype if isinstance(dtype, D.dtype) else args[0].dtype


def _clamp_writes(key: str, args: tuple, kwargs: dict) -> tuple | None:
    """clamp's kernel (clamp_min's, clamp_max's) of number bounds and the dtype it writes,
    checked before a bound is converted to it; None where it is refused first (no bound, a
    number its parser cannot read, torch's uint64 promoted with an integer or bool)."""
    if key not in ("clamp", "clip", "clamp_min", "clamp_max") or not args or not isinstance(
            args[0], Tensor):
        return None
    dt = args[0].dtype
    numbers = [b for b in (*args[1:], *(kwargs.get(k) for k in ("min", "max"))) if b is not None]
    if not numbers or not all(type(b) in (bool, int, float, complex) and not (
            type(b) is int and not _args.INT64_MIN <= b < 2 ** 64) for b in numbers):
        return None
    wide = [b for b in numbers if type(b) is int and b > _args.INT64_MAX]
    if any(type(b) is complex for b in numbers):  # (a floating clamp's own dtype)
        return (key, dt) if key in ("clamp", "clip") and dt.is_floating_point and not wide \
            else None
    floating = dt.is_floating_point or any(type(b) is float for b in numbers)
    if wide and not floating and (dt is D.bool or len(numbers) > len(wide)):
        return None
    return key, D.result_type(args[0], *(0 if b in wide else b for b in numbers))


def _product_writes(key: str, args: tuple, kwargs: dict) -> tuple | None:
    """The kernel of a product of ``args`` and the dtype it writes (its first operand's):
    dot's (vdot's, matmul's of two vectors) before anything else, mm's (matmul's of a matrix
    by one) once the shapes fit."""
    if key not in ("mm", "matmul", "dot", "vdot") or len(args) < 2 or not all(
            isinstance(t, Tensor) for t in args[:2]):
        return None
    a, b = args[:2]
    if key != "mm" and a.dim() == 1 == b.dim():
        return ("vdot" if key == "vdot" else "dot"), a.dtype
    matrix = a.dim() == 2 or (key == "matmul" and a.dim() > 0)  # (matmul's folded to mm)
    if key in ("mm", "matmul") and matrix and b.dim() == 2 and a.shape[-1] == b.shape[0]:
        return "mm", a.dtype
    return None


# the products torch computes with BLAS straight into out: an input sharing out's memory is
# read after out is written (zeroed, or resized to new memory) or while it is
_BLAS_PRODUCTS = frozenset({"mm", "bmm", "mv", "matmul", "addmm", "addmv", "addbmm",
                            "baddbmm"})


def _refuse_aliased_out(name: str, args: tuple, kwargs: dict, out: Tensor) -> None:
    """minitorch's refusal of a product whose ``out`` shares memory with a factor: torch
    gives values that depend on its kernel's order of reads and writes (zeros from mm),
    which no formula states. (addmm's and the others' added ``input`` may be out: BLAS
    scales it in place.)"""
    added = name.startswith(("add", "baddbmm"))
    factors = (*args[added:], *(v for k, v in kwargs.items() if k != "input" or not added))
    if any(isinstance(a, Tensor) and shares_memory(a, out) for a in factors):
        raise RuntimeError(
            f"{name}(): out= shares memory with an input; torch reads that input while or "
            "after it writes out, so its result is not the product (often zeros). minitorch "
            "refuses it: pass an out that shares no memory with the inputs, or leave out= off "
            "and copy the result.")


def _refuse_cross_overlap(name: str, args: tuple, kwargs: dict, out: Tensor) -> None:
    """torch's refusal of a cross product into an ``out`` whose memory overlaps an input's
    (where both lie densely); minitorch's where they share memory otherwise, as torch's
    result then depends on its kernel's order of reads and writes.

    >>> x = minitorch.ones(3)
    >>> minitorch.linalg.cross(x, minitorch.ones(3), out=x)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    RuntimeError: unsupported operation: some elements of the input tensor and the written-to...
    """
    for input in _tensors_of((*args, *kwargs.values())):
        check_no_overlap(out, input)
    _refuse_aliased_out(name, args, kwargs, out)


def _extremum_of_none(name: str, input: Tensor) -> Tensor:
    """torch's ``max(input, out=)`` and ``min``'s of an empty input, whose kernel into out
    checks no size: the reduction's identity (max's lowest value of the dtype, -inf for a
    floating one)."""
    dt = input.dtype
    if dt.is_floating_point:
        value = -math.inf if name == "max" else math.inf
    elif dt is D.bool:
        value = name == "min"
    else:
        value = D.iinfo(dt).min if name == "max" else D.iinfo(dt).max
    return input.new_full((), value)


# ops whose kernel checks its outs' dtypes last field first
_VECTORS_FIRST = frozenset({"linalg_eigh"})


# torch's functions whose parser takes ``out=`` that minitorch's op does not read itself:
# one Tensor, or a tuple of them (a named tuple's fields)
PARSED_OUT = {
    **dict.fromkeys((
        "addcdiv", "addcmul", "argmax", "argmin", "cat", "cholesky", "cholesky_inverse",
        "clamp_max", "clamp_min", "column_stack", "concat", "concatenate", "cross", "diag",
        "diff", "dot", "dstack", "ger", "hardshrink", "histc", "hstack", "inner", "inverse",
        "kron", "log_softmax", "logaddexp", "logaddexp2", "logcumsumexp", "logsumexp",
        "multinomial", "mvlgamma", "nanmean", "outer", "row_stack",
        "slice_scatter", "softmax", "stack", "threshold", "tril", "triu", "vdot", "vstack",
        "mm", "bmm", "addmm", "baddbmm", "all", "any", "clamp", "clip", "bucketize",
        "searchsorted", "isin", "quantile", "nanquantile", "std", "var", "gather",
        "index_select", "take", "take_along_dim", "tensordot", "matmul", "mv", "addmv",
        "index_add", "index_copy", "scatter", "scatter_add", "scatter_reduce", "narrow_copy",
        "orgqr", "lu_solve", "renorm", "addr", "gcd", "lcm", "masked_select", "addbmm",
        "matrix_power", "cholesky_solve", "nonzero", "nonzero_static", "frobenius_norm",
        "nuclear_norm",
        *_VIEW_COPIES),
        "Tensor"),
    **dict.fromkeys(("aminmax", "cummax", "cummin", "frexp", "geqrf", "kthvalue", "median",
                     "mode", "nanmedian", "qr", "slogdet", "svd", "topk", "sort", "histogram",
                     "lu_unpack", "triangular_solve"),
                    "tuple of Tensors"),
    # a Tensor without dim (or with another tensor), a tuple with it: :func:`_overload_of`
    **dict.fromkeys(("max", "min"), "extremum")}


# linalg's functions that take ``out=`` (minitorch.linalg's names, without "linalg_")
LINALG_PARSED_OUT = dict.fromkeys((
    "inv", "det", "vector_norm", "eigvalsh", "svdvals", "cholesky", "solve", "cross", "norm",
    "matrix_norm", "vecdot", "multi_dot", "solve_triangular", "pinv", "householder_product",
    "cond", "matrix_rank", "tensorinv", "tensorsolve", "matmul", "matrix_power", "lu_solve"),
    "Tensor") | dict.fromkeys((
        "eigh", "svd", "qr", "slogdet", "lu_factor", "cholesky_ex", "inv_ex", "lu",
        "lu_factor_ex", "solve_ex", "lstsq"), "tuple of Tensors")


# the number of results of the ops with a tuple out (torch's parser checks out's length
# before the op runs: :func:`_count_refused`); the others' have two
_TUPLE_SIZES = dict.fromkeys(("svd", "lu_unpack", "linalg_lu",
                              "linalg_lu_factor_ex", "linalg_svd"), 3) | {"linalg_lstsq": 4}


# where torch checks a tuple out's dtypes in another order than its fields' (svd: U, Vh, S)
_CHECK_ORDER = {"svd": (0, 2, 1), "linalg_svd": (0, 2, 1)}


def _count_refused(fn: Callable, args: tuple, kwargs: dict, size: int, given: int) -> None:
    """torch's refusal of a tuple out of ``given`` tensors for ``size`` results: after its
    parser's refusals of the other arguments (a TypeError of ``fn``'s), before the op's own
    checks; a call that does not bind is left to refuse itself, as Python's binding (which the
    op's entry words as torch's parser)."""
    if not _call_form.binds(fn, args, kwargs):
        return
    try:
        with grad_mode._recording(False):
            fn(*args, **kwargs)
    except TypeError:
        raise
    except Exception:  # the op's own refusals come after the count
        pass
    raise TypeError(f"expected tuple of {size} elements but got {given}")


def add_parsed_out(namespace: dict, table: dict, prefix: str = "") -> None:
    """The functions of ``table`` in ``namespace`` taking ``out=`` (:func:`parsed_out`),
    named in messages with ``prefix``."""
    for name, kind in table.items():
        fn = namespace[name]
        if not hasattr(fn, "op") and not prefix:  # (the package's entries come later)
            namespace[name] = parsed_out(fn, prefix + name, kind)
            continue
        # an op that is its public entry already: out read inside a new entry, named as
        # torch's parser names it (linalg's with their prefix)
        namespace[name] = _call_form.entry(parsed_out(getattr(fn, "op", fn), prefix + name,
                                                      kind), prefix + name, method=False)
        namespace[name].__name__ = fn.__name__


def _prepared(name: str, args: tuple, kwargs: dict, outs: tuple) -> tuple:
    """The arguments as the op with ``out=`` reads them: std and var compute in a floating
    out's dtype; diff's refusal of an empty dim it narrows; nanmean's checks."""
    first = args[0] if args else None
    if name in ("std", "var") and isinstance(first, Tensor) and \
            first.dtype.is_floating_point and outs[0].dtype.is_floating_point:
        return (first.to(outs[0].dtype), *args[1:])
    if name == "diff":
        _check_diff_into_out(*args, **kwargs)
    if name == "nanmean":  # its checks (dims counted by a sum), before its nansum's out=
        from .reduction_more import _sum_dims  # (reduction_more imports this module)

        _sum_dims(name, *args, **kwargs, into=True)
    return args


def _check_diff_into_out(input: Any, n: Any = 1, dim: Any = -1, prepend: Any = None,
                         append: Any = None) -> None:
    """torch's ``diff(out=)`` narrows its input from 1, which an empty dim refuses (where
    ``diff`` without ``out`` gives an empty result); other refusals are ``diff``'s."""
    if not (isinstance(input, Tensor) and input.dim() and type(n) is int and n > 0 and
            type(dim) is int and -input.dim() <= dim < input.dim()):
        return
    joined = [t for t in (prepend, input, append) if isinstance(t, Tensor)]
    if all(t.dim() == input.dim() for t in joined) and not sum(t.shape[dim] for t in joined):
        raise IndexError("start out of range (expected to be in range of [0, 0], but got 1)")


def _lacks_required(fn: Callable, args: tuple, kwargs: dict) -> bool:
    """Whether the call leaves out a parameter of ``fn`` that has no default."""
    positional, required, _ = _call_form._parameters(fn)
    given = {*positional[:len(args)], *kwargs}
    return any(r not in given for r in required)


def _bounds_read(name: str, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """clamp's and clip's bounds, by position or keyword, as torch's parser reads them
    (:func:`pointwise.bounds_as_numbers`)."""
    from .pointwise import bounds_as_numbers  # (pointwise imports this module)

    keys = [k for k in ("min", "max") if k in kwargs]
    bounds = [*args[1:3], *(kwargs[k] for k in keys)]
    if name not in ("clamp", "clip") or len(bounds) != 2:
        return args, kwargs
    read = bounds_as_numbers(*bounds)
    positional = len(args[1:3])
    return (*args[:1], *read[:positional], *args[3:]), {
        **kwargs, **dict(zip(keys, read[positional:]))}


def _clamp_parsed(fn: Callable, name: str, args: tuple, kwargs: dict, out: Any) -> None:
    """torch's parser on a clamp's bounds, before anything out= is checked for: each a
    tensor or a number (clamp's and clip's of one kind, numbers within what it reads); its
    refusal names the call with its ``out=``."""
    bounds = [*args[1:], *(v for k, v in kwargs.items() if k in ("min", "max"))]
    if name in ("clamp", "clip"):
        given = [b for b in bounds if b is not None]
        fits = len({isinstance(b, Tensor) for b in given}) <= 1 and all(map(_bound, given))
    else:
        fits = len(bounds) == 1 and _bound(bounds[0])
    if not fits:
        raise _args.invalid_combination(name, args, *fn.torch_signatures,
                                        keywords={**kwargs, "out": out})
    numbers = [(b, key, i) for i, (key, b) in enumerate(zip(("min", "max") if name in (
        "clamp", "clip") else (name[-3:],), bounds), 2) if type(b) is int]
    _args.parsed(name, *(("number", b, key, i) for b, key, i in numbers))


def _bound(value: Any) -> bool:
    """Whether torch's parser takes ``value`` as a clamp's bound: a tensor or a Number."""
    return isinstance(value, (Tensor, complex)) or _args.is_real(value)


def _overload_of(name: str, kind: str, args: tuple, kwargs: dict) -> tuple:
    """The kind of ``out`` the overload a call of ``name`` matches takes, the op it runs
    (which autograd's refusal names) and the key of its kernel's dtype check
    (:data:`_OUT_DTYPES`): max's and min's take a Tensor without ``dim`` (their reduction's,
    or with another tensor, maximum's), a tuple with it."""
    if name in _CLAMPS and any(isinstance(b, Tensor) for b in (*args[1:], *kwargs.values())):
        return kind, _RUNS.get(name, name), "clamp_tensor"  # (a TensorIterator's cast check)
    if kind != "extremum":
        return kind, _RUNS.get(name, name), name
    if "dim" in kwargs:  # (a tensor by keyword is an index: the dim overload's)
        return "tuple of Tensors", name, name
    dim = args[1] if len(args) > 1 else kwargs.get("other", _args.OMITTED)
    if dim is _args.OMITTED:
        return "Tensor", name, "max_all"
    if isinstance(dim, Tensor):
        other = {"max": "maximum", "min": "minimum"}[name]
        return "Tensor", other, other
    return "tuple of Tensors", name, name


def _out_position(fn: Callable, kind: str, args: tuple, kwargs: dict) -> int | None:
    """``out``'s position in the signature of ``fn`` (:func:`_call_form.overloads`) the
    call's arguments match, which torch's refusal of one of its elements names."""
    for signature in getattr(fn, "torch_signatures", ()):
        pieces = signature.split(", ")
        if f"{kind} out = None" not in pieces:
            continue
        params = pieces[:pieces.index(f"{kind} out = None")]
        stop = params.index("*") if "*" in params else len(params)
        if len(args) <= stop and all(_matched(p, i < stop, args[i] if i < len(args) else None,
                                              kwargs) for i, p in enumerate(params)):
            return len(params) - (stop < len(params))
    return None


def _matched(param: str, positional: bool, value: Any, kwargs: dict) -> bool:
    """Whether a call's ``value`` (given by position), or its keyword, fits ``param``."""
    declared, _, default = param.partition(" = ")
    if param == "*":
        return True
    kind, _, keyword = declared.rpartition(" ")
    given = value if positional and value is not None else kwargs.get(keyword, _args.OMITTED)
    if given is _args.OMITTED:
        return bool(default)
    return _call_form._matches(kind, _args.type_name(given))


def parsed_out(fn: Callable, name: str, kind: str) -> Callable:
    """``fn`` taking torch's ``out=`` of ``kind`` (:data:`PARSED_OUT`): its parser reads the
    op's parameters' types first, then out's (keyword-only, last), then the keywords left
    over; the result is written into ``out`` (of a dtype its kernel writes:
    :data:`_OUT_DTYPES`), which is returned.

    >>> x = minitorch.ones(2, 2)
    >>> minitorch.tril(x, out=1)
    Traceback (most recent call last):
    TypeError: tril(): argument 'out' must be Tensor, not int
    >>> o = minitorch.empty(0)
    >>> minitorch.tril(x, out=o) is o, o
    (True, tensor([[1., 0.],
            [1., 1.]]))
    """
    fallback = sum(p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
                   for p in inspect.signature(fn).parameters.values())

    @functools.wraps(fn)
    def with_out(*args: Any, out: Any = None, **kwargs: Any) -> Any:
        if out is None or _lacks_required(fn, args, kwargs):  # (the parser stops there)
            return fn(*args, **kwargs)
        if name in _CLAMPS:  # (which overload: after a 0-d tensor reads as a number)
            args, kwargs = _bounds_read(name, args, kwargs)
        if name == "bucketize" and args and not isinstance(args[0], Tensor):
            return fn(*args, out=out, **kwargs)  # its Number overload has no out: refused
        if kind == "extremum" and isinstance(out, (tuple, list)) and len(args) > 1 and \
                _index_like(args[1]):  # torch's parser reads it as the dim of the overload
            args = (args[0], int(args[1].item()), *args[2:])  # whose out is a tuple
        called, op, key = _overload_of(name, kind, args, kwargs)
        many = called != "Tensor"
        if kind != called and isinstance(out, (tuple, list)) != many:
            return fn(*args, out=out, **kwargs)  # no overload of this call takes this out
        if typed := _call_form.parameter_types(fn, name, args, kwargs):
            raise TypeError(typed)
        if name in _CLAMPS:
            _clamp_parsed(fn, name, args, kwargs, out)
        if not (isinstance(out, (tuple, list)) if many else isinstance(out, Tensor)):
            raise TypeError(f"{name}(): argument 'out' must be {called}, not "
                            f"{_args.type_name(out)}")
        outs = tuple(out) if many else (out,)
        where = _out_position(fn, called, args, kwargs) or fallback
        for i, o in enumerate(outs):
            if not isinstance(o, Tensor):
                raise TypeError(f"expected Tensor as element {i} in argument {where}, but "
                                f"got {_args.type_name(o)}")  # (out's place: after all)
        if many and len(outs) != (size := _TUPLE_SIZES.get(key, 2)):
            _count_refused(fn, args, kwargs, size, len(outs))
        if not _call_form.binds(fn, args, kwargs):  # a stray keyword: refused after out's
            return fn(*args, **kwargs)  # elements are read, before anything else
        _call_form.parameter_values(fn, name, args, kwargs)
        args = _prepared(name, args, kwargs, outs)
        if key in _STACKING and not (args[0] if args else kwargs.get("tensors", ())):
            return fn(*args, **kwargs)  # (its refusal of no tensors, before its cat's out=)
        if key == "stack":
            _stack_into_its_tensor(fn, args, kwargs, outs[0])
        _kernel_checks_first(key, args, kwargs, outs[0], graded=False)
        refused, copied = _runs(key, op, args, kwargs)
        if key == "inner" and refused == "mul":  # torch's inner of a 0-d operand is mul,
            # out= and all
            from .pointwise import mul  # (pointwise imports this)

            return mul(*args, **kwargs, out=out)
        unimplemented = refused in _DERIVATIVE_NOT_IMPLEMENTED  # (out takes its record)
        if name not in _NOT_DIFFERENTIABLE_OUT and refused:  # (theirs refuse no gradient)
            _refuse_grad(refused, _tensors_of((*args, *kwargs.values())), outs)
        first = args[0] if args else kwargs.get("input")
        if key.removesuffix("_tensor") in _ITERATOR_OUT and _operands_parsed(
                fn, args, kwargs) and not \
                _divides_integers(key, args, kwargs):  # (addcdiv's meta refuses that first)
            check_iterator_out(outs[0], _tensors_of((*args, *kwargs.values())))
        _kernel_checks_first(key, args, kwargs, outs[0], graded=True)
        if _checked_first(key, first):
            for o, field in (reversed if key in _VECTORS_FIRST else list)(list(zip(
                    outs, _CHECKED_FIRST.get(key, ())))):
                _check_written(key, first, o, field)  # (before the kernel refuses the input)
        enabled = grad_mode._state.grad_enabled
        with grad_mode._recording(copied and enabled):
            into = getattr(fn, "computed_into", None)  # (an op whose out= computes in out's
            if into is not None and outs[0].dtype.is_floating_point:  # dtype: logsumexp)
                result = into(outs[0].dtype, *args, **kwargs)
            elif key == "max_all" and isinstance(first, Tensor) and not first.numel():
                result = _extremum_of_none(name, first)
            elif unimplemented:
                from .pointwise import WrittenWithoutDerivative  # (pointwise imports this)

                with grad_mode._recording(enabled):
                    result = WrittenWithoutDerivative.on(
                        *_tensors_of((*args, *kwargs.values())), fn=fn, args=args, kwargs=kwargs,
                        name=refused)
            else:
                result = fn(*args, **kwargs)
        if key in _BLAS_PRODUCTS and result.numel():  # (once the product's own checks
            # passed; an out resized to no elements is not written)
            _refuse_aliased_out(name, args, kwargs, outs[0])
        if key == "max_all" and result.dtype is not outs[0].dtype is not D.float16:  # torch
            _args.assigned(result.item(), outs[0].dtype)  # fills out: a checked conversion
            # (but float16's, which rounds to inf)
        results = tuple(result) if many else (result,)
        if len(outs) != len(results):
            raise TypeError(f"expected tuple of {len(results)} elements but got {len(outs)}")
        fields = getattr(result, "_fields", ("result",))
        order = _CHECK_ORDER.get(key, range(len(outs))[::-1 if key in _VECTORS_FIRST else 1])
        checked = {i: _check_written(key, results[i] if copied else results[i].detach(),
                                     outs[i], fields[i]) for i in order}
        if key in ("cross", "linalg_cross"):  # (its kernel's overlap checks, after out's dtype)
            _refuse_cross_overlap(name, args, kwargs, outs[0])
        _refuse_joined_overlap(key, args, kwargs, outs[0])
        for i, o in enumerate(outs):  # (every dtype checked before any is written)
            _write(results[i] if unimplemented else checked[i], o, not unimplemented)
        if not many:
            return out
        from .. import return_types

        return return_types.written(result, outs)

    return out_last(with_out, fn, "Tensor | tuple of Tensors" if kind == "extremum" else kind)
