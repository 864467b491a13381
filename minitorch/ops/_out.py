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
import warnings
from collections.abc import Callable
from typing import Any

from .. import _args, _call_form
from .. import _dtype as D
from .._dtype import can_cast
from .._tensor import Tensor, check_output_shape
from ..autograd import grad_mode
from ..autograd.grad_mode import is_grad_enabled


def takes_out(fn: Callable, name: str | None = None, elementwise: bool = False,
              promoted: bool = False) -> Callable:
    """``fn`` with torch's ``out=`` keyword: the result is copied into ``out``, which is
    returned; autograd refuses it, as in torch (its message names ``name``, or ``fn``).
    An ``elementwise`` op given one of its operands as ``out`` works in place, as torch's
    TensorIterator: that operand is not resized to the broadcast shape but refused. A
    ``promoted`` op (its result of its operands' promoted dtype) has ``out``'s dtype checked
    before it runs, as TensorIterator checks it before the kernel.

    >>> double = takes_out(lambda x: x * 2)
    >>> t = minitorch.empty(1)
    >>> double(minitorch.ones(1), out=t) is t
    True
    """

    @functools.wraps(fn)
    def with_out(*args: Any, out: Tensor | None = None, **kwargs: Any) -> Any:
        if out is None:
            return fn(*args, **kwargs)
        _args.tensor_args(name or fn.__name__, (out, "out", None))  # the parser's check
        given = [*args, *kwargs.values()]  # (cat's and stack's tensors come in a list)
        tensors = [a for a in (*given, *(t for v in given if isinstance(v, (list, tuple))
                                         for t in v), out) if isinstance(a, Tensor)]
        if is_grad_enabled() and any(t.requires_grad for t in tensors):
            raise RuntimeError(
                f"{name or fn.__name__}(): functions with out=... arguments don't support "
                "automatic differentiation, but one of the arguments requires grad.")
        if promoted and len(args) >= 2 and all(
                isinstance(a, (Tensor, int, float)) for a in args[:2]):
            _check_cast(D.result_type(*args[:2]), out)
        with grad_mode._recording(False):
            result = fn(*args, **kwargs)
        if elementwise and any(t is out for t in tensors[:-1]):
            check_output_shape(out.shape, result.shape)
        return _write(result, out)

    return with_out


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
    "arctanh", "asin", "asinh", "atan", "atanh", "bitwise_not", "ceil", "cos", "cosh",
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
    "xlogy", "nextafter", "ldexp", "heaviside", "lerp", "polygamma")

# those whose result has their operands' promoted dtype, and whose own refusals come from
# their kernel (after out's dtype is checked)
_PROMOTED = frozenset({"bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
                       "bitwise_right_shift", "remainder", "fmod", "floor_divide"})


# the op an alias runs, which torch's autograd refusal names
_RUNS = {"square": "pow", "absolute": "abs", "negative": "neg", "fix": "trunc", "msort": "sort",
         "arccos": "acos", "arccosh": "acosh", "arcsin": "asin", "arcsinh": "asinh",
         "arctan": "atan", "arctanh": "atanh", "subtract": "sub", "divide": "div",
         "true_divide": "div", "arctan2": "atan2", "greater": "gt", "greater_equal": "ge",
         "less": "lt", "less_equal": "le", "not_equal": "ne", "linalg_inv": "linalg_inv_ex"}
# ops whose kernel writes its own dtype (no cast into ``out``): torch's checks of out's dtype
_SAME_DTYPE = frozenset({"abs", "absolute", "neg", "negative", "floor", "ceil", "trunc", "fix",
                         "frac", "sign", "sgn", "bitwise_not", "round"})
_BOOL_OUT = frozenset({"isneginf", "isposinf", "signbit"})
_NOT_DIFFERENTIABLE = _BOOL_OUT | {"logical_not", "bitwise_not"}  # no autograd refusal


def _check_out_dtype(name: str, input: Any, result: Tensor | None, out: Tensor) -> None:
    """torch's refusal of an ``out`` whose dtype ``name`` does not write into (``result``
    None: before the op runs)."""
    written = input if result is None else result
    if name in _SAME_DTYPE and written.dtype is not out.dtype:  # (before the kernel runs)
        raise RuntimeError(f"Found dtype {_args.legacy(out.dtype)} but expected "
                           f"{_args.legacy(written.dtype)}")
    if result is None:
        return
    if name == "nan_to_num" and input.dtype is not out.dtype:
        raise RuntimeError(f"nan_to_num: dtype of out: {_args.legacy(out.dtype)} should be same "
                           f"as input: {_args.legacy(input.dtype)}")
    if name == "msort" and result.dtype is not out.dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {_args.c_name(result.dtype)}, "
                           f"but got {_args.c_name(out.dtype)} instead")


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
        if not isinstance(out, Tensor):
            raise TypeError(f"{name}(): argument 'out' must be Tensor, not "
                            f"{_args.type_name(out)}")
        if name in _BOOL_OUT and out.dtype is not D.bool:
            raise RuntimeError(f"{name} does not support non-boolean outputs.")
        if name in _NOT_DIFFERENTIABLE and args and isinstance(args[0], Tensor):
            args = (args[0].detach(), *args[1:])

        def checked_dtype(*args: Any, **kwargs: Any) -> Tensor:  # (after autograd's refusal)
            input = args[0] if args else kwargs.get("input")
            if name in _SAME_DTYPE and isinstance(input, Tensor) and not (
                    name in ("neg", "negative") and input.dtype is D.bool):  # its own refusal
                _check_out_dtype(name, input, None, out)
            result = fn(*args, **kwargs)
            _check_out_dtype(name, input, result, out)
            return result

        return takes_out(checked_dtype, _RUNS.get(name, name), elementwise=True)(
            *args, out=out, **kwargs)

    return checked


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
    add_other_out_keywords(namespace, OTHER_WITH_OUT)
    for name in BINARY_WITH_OUT:
        fn = namespace.get(name)
        if fn is not None and "out" not in inspect.signature(fn).parameters:
            namespace[name] = takes_out(fn, _RUNS.get(name, name), elementwise=True,
                                        promoted=name in _PROMOTED)


# torch's other functions that take ``out=``: "same" ones (structured kernels) write only
# their result's dtype, "cast" ones cast into out where they can ("in_out" ones compute in a
# floating out's dtype), the rest refuse another
# dtype in their own words (a format of the result's and out's legacy names, or C++ names
# where it says "c"); linalg's under its names
def _words(text: str, cast: bool = False, c: bool = False, kind: type = RuntimeError,
           takes: tuple = ()) -> tuple:
    return text, cast, c, kind, takes


_TRUTHS = ("bool", "uint8")  # all's and any's results
_NOT_DIFFERENTIABLE_OUT = frozenset({"searchsorted", "bucketize", "argmax", "argmin", "isin",
                                     "nonzero", "all", "any", "multinomial"})
_SEARCH_OUT = ("torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32) "
               "or Long(int64) depending on whether out_int32 flag is True, but we got output "
               "tensor's dtype {o} and out_int32 flag is {int32}")
OTHER_WITH_OUT = {
    "mm": "same", "bmm": "same", "matmul": "same", "mv": "same", "addmm": "same",
    "addmv": "same", "baddbmm": "same", "tril": "same", "triu": "same",
    "gather": "same", "index_add": "same", "renorm": "same", "cross": "same", "isin": "same",
    "argmax": "same", "argmin": "same", "addr": "cast", "outer": "cast", "ger": "cast",
    "kron": "cast", "diff": "cast", "logaddexp": "cast", "std": "in_out", "var": "in_out",
    "logaddexp2": "cast", "polygamma": "cast", "gcd": "cast", "lcm": "cast",
    "cat": _words("torch.cat(): input types can't be cast to the desired output type {o}",
                  cast=True, kind=TypeError),
    "concat": _words("torch.cat(): input types can't be cast to the desired output type {o}",
                     cast=True, kind=TypeError),
    "concatenate": _words("torch.cat(): input types can't be cast to the desired output type "
                          "{o}", cast=True, kind=TypeError),
    "stack": _words("torch.cat(): input types can't be cast to the desired output type {o}",
                    cast=True, kind=TypeError),
    "take": _words("take(): self and out expected to have the same dtype, but got self.dtype = "
                   "{r} and out.dtype = {o}"),
    "index_select": _words("index_select(): self and result must have the same scalar type"),
    "masked_select": _words("masked_select(): self and result must have the same scalar type"),
    "inner": _words("tensordot: Expected the output tensor to have dtype {r}, but got an output "
                    "tensor with dtype {o}"),
    "tensordot": _words("tensordot: Expected the output tensor to have dtype {r}, but got an "
                        "output tensor with dtype {o}"),
    "dot": _words("result dtype {o} does not match input dtype {r}"),
    "vdot": _words("result dtype {o} does not match input dtype {r}"),
    "logcumsumexp": _words("expected scalar_type {r} but found {o}"),
    "histc": _words("torch.histogram: input tensor and hist tensor should have the same dtype, "
                    "but got input {r} and hist {o}", c=True),
    "addbmm": _words("self and mat2 must have the same dtype, but got {o} and {r}"),
    "quantile": _words("quantile() out tensor must be same dtype as the input tensor"),
    "nanquantile": _words("quantile() out tensor must be same dtype as the input tensor"),
    "all": _words("all only supports bool tensor for result, got: {o}", takes=_TRUTHS),
    "any": _words("any only supports bool tensor for result, got: {o}", takes=_TRUTHS),
    "cholesky_solve": _words("cholesky_solve: Expected result to be safely castable from {r} "
                             "dtype, but got result with dtype {o}", cast=True),
    "searchsorted": _words(_SEARCH_OUT),
    "bucketize": _words(_SEARCH_OUT),
    "multinomial": _words("multinomial expects Long tensor out, got: {o}"),
    "nonzero": _words("nonzero: Expected out tensor to have scalar type Long but got scalar "
                      "type{o}"),
}
LINALG_WITH_OUT = {
    "inv": "same", "det": "same", "vector_norm": "same", "eigvalsh": "same", "svdvals": "same",
    "cholesky": "same", "solve": "same", "cross": "same",
    "norm": _words("linalg.norm expected out tensor dtype {r} but got: {o}"),
    "matrix_norm": _words("linalg.matrix_norm expected out tensor dtype {r} but got: {o}"),
    "vecdot": _words("linalg.vecdot: Expected out of dtype{r} but found {o}"),
    "multi_dot": _words("multi_dot(): expected out tensor to have dtype {r} but got {o}", c=True),
    "solve_triangular": _words("expected scalar type {r} but found {o}"),
    "pinv": _words("linalg.pinv: Expected result to be safely castable from {r} dtype, but got "
                   "result with dtype {o}", cast=True),
    "householder_product": _words("torch.linalg.householder_product: Expected result to be "
                                  "safely castable from {r} dtype, but got result with dtype "
                                  "{o}", cast=True),
}


def _check_written(kind: Any, result: Tensor, out: Tensor) -> Tensor:
    """``result`` as written into ``out``, after torch's refusal of ``out``'s dtype, by
    ``kind``."""
    if kind in ("cast", "in_out") or result.dtype is out.dtype:
        return result
    if kind == "same":
        raise RuntimeError(f"Expected out tensor to have dtype {_args.c_name(result.dtype)}, "
                           f"but got {_args.c_name(out.dtype)} instead")
    text, cast, c, error, takes = kind
    if out.dtype.name in takes:
        return result.to(out.dtype)
    if cast and can_cast(result.dtype, out.dtype):
        return result
    name = _args.c_name if c else _args.legacy
    raise error(text.format(r=name(result.dtype), o=name(out.dtype),
                            int32=result.dtype.name == "int32"))


def other_with_out(fn: Callable, name: str, kind: Any) -> Callable:
    """``fn`` taking torch's ``out=`` (see :data:`OTHER_WITH_OUT`): its result, resized into
    ``out``; a "same" op refuses an ``out`` of another dtype as torch's structured kernels.

    >>> o = minitorch.empty(0, dtype=minitorch.float64)
    >>> minitorch.mm(minitorch.eye(2), minitorch.eye(2), out=o)
    Traceback (most recent call last):
    RuntimeError: Expected out tensor to have dtype float, but got double instead
    """
    @functools.wraps(fn)
    def written(*args: Any, out: Tensor | None = None, **kwargs: Any) -> Any:
        if out is None:
            return fn(*args, **kwargs)
        if kind == "in_out" and args and isinstance(args[0], Tensor) and isinstance(
                out, Tensor) and args[0].dtype.is_floating_point and out.dtype.is_floating_point:
            args = (args[0].to(out.dtype), *args[1:])  # the kernel computes in out's dtype

        if name == "diff":
            _check_diff_into_out(*args, **kwargs)
        if name == "bucketize" and args and not isinstance(args[0], Tensor):
            return fn(*args, out=out, **kwargs)  # its Number overload has no out: refused
        if name in _NOT_DIFFERENTIABLE_OUT:  # no autograd refusal
            args = tuple(a.detach() if isinstance(a, Tensor) else a for a in args)

        def checked(*args: Any, **kwargs: Any) -> Tensor:
            return _check_written(kind, fn(*args, **kwargs), out)

        return takes_out(checked, name)(*args, out=out, **kwargs)

    return written


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


def add_other_out_keywords(namespace: dict, table: dict, prefix: str = "") -> None:
    """The functions of ``table`` in ``namespace`` taking ``out=`` (those that do not)."""
    for name, kind in table.items():
        fn = namespace.get(name)
        if fn is not None and "out" not in inspect.signature(fn).parameters:
            namespace[name] = other_with_out(fn, _RUNS.get(prefix + name, prefix + name), kind)


# torch's reductions over dims that take ``out=``, by how their kernel reads out's dtype:
# "dtype" ones reduce in it (as their ``dtype=``), "same" ones write the input's dtype only,
# "float" ones (mean) compute in a floating dtype cast into out where it can be
REDUCING_WITH_OUT = {"sum": "dtype", "prod": "dtype", "nansum": "dtype", "cumsum": "dtype",
                     "cumprod": "dtype", "amax": "same", "amin": "same", "mean": "float"}


def reducing_with_out(fn: Callable, name: str) -> Callable:
    """``fn`` (a reduction over ``dim``) taking torch's ``out=``, whose dtype it reduces in,
    must match, or receives a cast, as :data:`REDUCING_WITH_OUT` says; without ``dim`` its
    overloads take no ``out`` (``fn``'s parser refuses it).

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
        if out is None or (len(args) < 2 and "dim" not in kwargs and kind == "dtype"):
            return fn(*args, **({} if out is None else {"out": out}), **kwargs)
        if typed := _call_form.parameter_types(fn, name, args, kwargs):
            raise TypeError(typed)  # torch's parser reads out, keyword-only, last

        def into_out(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
            if kind == "same" and input.dtype is not out.dtype:
                raise RuntimeError(
                    "Expected the dtype for input and out to match, but got "
                    f"{_args.legacy(input.dtype)} for input's dtype and "
                    f"{_args.legacy(out.dtype)} for out's dtype.")
            if kind == "dtype":
                return fn(input, *args, **_out_dtype(name, input, out, kwargs))
            result = fn(input, *args, **kwargs)
            if kind == "float":  # torch's message names Float for any floating input
                _check_cast(D.float32, out)
            return result

        return takes_out(into_out, name)(*args, out=out, **kwargs)

    return reduced


def _out_dtype(name: str, input: Tensor, out: Tensor, kwargs: dict) -> dict:
    """The keywords of a reduction that reduces in out's dtype: ``dtype=`` must name it."""
    dtype = kwargs.get("dtype")
    if dtype is not None and dtype is not out.dtype:
        raise RuntimeError(f"Expected out tensor to have dtype {_args.c_name(dtype)}, but got "
                           f"{_args.c_name(out.dtype)} instead")
    if name == "nansum" and input.dtype.is_floating_point and not out.dtype.is_floating_point:
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
    def where(*args: Any, out: Tensor | None = None, **kwargs: Any) -> Any:
        if out is None or len(args) + len(kwargs) < 3:  # (where(condition) takes no out)
            return fn(*args, **({} if out is None else {"out": out}), **kwargs)
        _args.tensor_args("where", *((a, n, i + 1) for i, (a, n) in enumerate(
            zip(args, ("condition", "input", "other")))))

        def into_out(condition: Tensor, input: Tensor, other: Tensor) -> Tensor:
            promoted = D.result_type(input, other)
            if promoted is not out.dtype:
                raise RuntimeError(f"Expected out type to be {_args.legacy(promoted)} but got "
                                   f"{_args.legacy(out.dtype)}")
            return fn(condition, input, other)

        return takes_out(into_out, "where")(*args, out=out, **kwargs)

    return where


def _check_cast(dt: D.dtype, out: Tensor) -> None:
    if not can_cast(dt, out.dtype):
        raise RuntimeError(f"result type {_args.legacy(dt)} can't be cast to the "
                           f"desired output type {_args.legacy(out.dtype)}")


def _write(result: Tensor, out: Tensor) -> Tensor:
    _check_cast(result.dtype, out)
    if out.shape != result.shape:
        if out.numel():
            warnings.warn(
                f"An output with one or more elements was resized since it had shape "
                f"{list(out.shape)}, which does not match the required output shape "
                f"{list(result.shape)}. This behavior is deprecated, and in a future PyTorch "
                "release outputs will not be resized unless they have zero elements. You can "
                "explicitly reuse an out tensor t by resizing it, inplace, to zero elements "
                "with t.resize_(0).", UserWarning, stacklevel=3)
        xp = out._xp
        out._data = xp.empty(result._data.shape, dtype=out._data.dtype)
    out.copy_(result)
    return out
