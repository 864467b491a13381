"""``torch.testing.assert_close``: are two results close, and if not, where and by how much.

Tutorials end with ``torch.testing.assert_close(got, want)`` (torch.func's per-sample
gradients, jacobians and hessians do); under ``import minitorch as torch`` this is the one they
call. It follows torch's rules and words: the inputs are walked as matching sequences and
mappings down to leaf pairs (tensors, numpy arrays, Python or numpy scalars, None); every pair
is first checked to be comparable (a TypeError or ValueError, where ``msg`` does not apply),
then compared (an AssertionError, whose message ``msg`` replaces or rewrites).

>>> import minitorch
>>> assert_close(minitorch.tensor([1.0, 2.0]), minitorch.tensor([1.0, 2.000001]))
>>> assert_close(minitorch.tensor([1.0, 2.0, 3.0]), minitorch.tensor([1.0, 2.0, 4.0]))
Traceback (most recent call last):
...
AssertionError: Tensor-likes are not close!
<BLANKLINE>
Mismatched elements: 1 / 3 (33.3%)
Greatest absolute difference: 1.0 at index (2,) (up to 1e-05 allowed)
Greatest relative difference: 0.25 at index (2,) (up to 1.3e-06 allowed)
"""

from __future__ import annotations

import cmath
import contextlib
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from . import _dtype, backend
from ._as_tensor import as_tensor
from ._creation import tensor
from ._tensor import Tensor
from .autograd.grad_mode import no_grad
from .ops.logic import isclose

__all__ = ["assert_allclose", "assert_close"]

# torch's default (rtol, atol) per dtype; every other dtype (integers, bool) is compared exactly
_TOLERANCES = {"float16": (1e-3, 1e-5), "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7),
               "complex128": (1e-7, 1e-7)}
# the deprecated assert_allclose's looser defaults
_ALLCLOSE_TOLERANCES = {"float16": (1e-3, 1e-3), "float32": (1e-4, 1e-5),
                        "float64": (1e-5, 1e-8)}
_NUMBER_DTYPES = {int: "int64", float: "float64", complex: "complex128"}
Where = tuple  # the indices and keys that lead from the inputs to a leaf pair


class _Rules(NamedTuple):
    """assert_close's keyword arguments, passed to every pair."""

    allow_subclasses: bool
    rtol: float | None
    atol: float | None
    equal_nan: bool
    check_device: bool
    check_dtype: bool
    check_layout: bool
    check_stride: bool


class _Failure(Exception):
    """A failed check: the exception type torch raises, its message, and the leaf's place."""

    def __init__(self, kind: type[Exception], message: str, where: Where = ()) -> None:
        super().__init__(message)
        self.kind, self.message, self.where = kind, message, where

    def error(self, msg: str | Callable[[str], str] | None = None) -> Exception:
        """The exception the user sees: ``msg`` replaces (a string) or rewrites (a callable)
        the message, which names the failing item when the inputs were nested."""
        if isinstance(msg, str):
            return self.kind(msg)
        text = self.message
        if self.where:
            text += "\n\nThe failure occurred for item " + "".join(str([k]) for k in self.where)
        return self.kind(msg(text) if callable(msg) else text)


def assert_close(actual: Any, expected: Any, *, allow_subclasses: bool = True,
                 rtol: float | None = None, atol: float | None = None, equal_nan: bool = False,
                 check_device: bool = True, check_dtype: bool = True, check_layout: bool = True,
                 check_stride: bool = False,
                 msg: str | Callable[[str], str] | None = None) -> None:
    """Raise an AssertionError unless ``actual`` and ``expected`` are close, as torch's does:
    ``|actual - expected| <= atol + rtol * |expected|`` elementwise (infinities only equal to
    themselves, NaN only with ``equal_nan``), with the same shape, device and dtype (each check
    but the shape can be switched off; ``check_stride`` adds the strides). Without ``rtol`` and
    ``atol`` (give both or neither) each dtype has torch's default: float16 1e-3/1e-5, float32
    1.3e-6/1e-5, float64 1e-7/1e-7, integers and bool exact; the looser of the two dtypes when
    ``check_dtype=False`` lets them differ. ``requires_grad`` is not compared.

    >>> import minitorch
    >>> assert_close([minitorch.tensor(1.0), 2], [minitorch.tensor(1.0), 2])
    >>> assert_close({"w": 1.0}, {"w": 1.5}, msg=lambda text: text.splitlines()[0])
    Traceback (most recent call last):
    ...
    AssertionError: Scalars are not close!
    """
    rules = _Rules(allow_subclasses, rtol, atol, equal_nan, check_device, check_dtype,
                   check_layout, check_stride)
    try:
        comparisons = [_comparison(a, e, where, rules)
                       for a, e, where in _leaves(actual, expected, ())]
    except _Failure as failure:
        raise failure.error() from None  # torch's msg only replaces the comparisons' messages
    for compare, where in comparisons:
        mismatch = compare()
        if mismatch is not None:
            raise _Failure(AssertionError, mismatch, where).error(msg) from None


def assert_allclose(actual: Any, expected: Any, rtol: float | None = None,
                    atol: float | None = None, equal_nan: bool = True, msg: str = "") -> None:
    """torch's deprecated form of :func:`assert_close` (it warns): the inputs become tensors,
    ``expected`` of ``actual``'s dtype; the defaults are looser (float16 1e-3/1e-3, float32
    1e-4/1e-5, float64 1e-5/1e-8), NaN equals NaN, and the dtypes are not compared.

    >>> with warnings.catch_warnings(action="ignore"):  # torch's FutureWarning
    ...     assert_allclose([1.0, float("nan")], [1.00001, float("nan")])
    """
    warnings.warn("`torch.testing.assert_allclose()` is deprecated since 1.12 and will be "
                  "removed in a future release. Please use `torch.testing.assert_close()` "
                  "instead. You can find detailed upgrade instructions in "
                  "https://github.com/pytorch/pytorch/issues/61844.", FutureWarning,
                  stacklevel=2)
    actual = actual if isinstance(actual, Tensor) else tensor(actual)
    expected = expected if isinstance(expected, Tensor) else tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        rtol, atol = _default_tolerances([actual.dtype.name, expected.dtype.name],
                                         _ALLCLOSE_TOLERANCES)
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan,
                 check_dtype=False, msg=msg or None)


# ---------------------------------------------------------------------------- the leaf pairs


def _is_sequence(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, str)


def _leaves(actual: Any, expected: Any, where: Where) -> Iterator[tuple[Any, Any, Where]]:
    """The leaf pairs of two inputs, walking their matching sequences and mappings."""
    if _is_sequence(actual) and _is_sequence(expected):
        if len(actual) != len(expected):
            raise _Failure(AssertionError, "The length of the sequences mismatch: "
                           f"{len(actual)} != {len(expected)}", where)
        for i in range(len(actual)):
            yield from _leaves(actual[i], expected[i], (*where, i))
    elif isinstance(actual, Mapping) and isinstance(expected, Mapping):
        for key in _same_keys(actual, expected, where):
            yield from _leaves(actual[key], expected[key], (*where, key))
    else:
        yield actual, expected, where


def _same_keys(actual: Mapping, expected: Mapping, where: Where) -> list:
    """The two mappings' keys, sorted where they can be, which must be the same."""
    keys, wanted = set(actual.keys()), set(expected.keys())
    if keys != wanted:
        raise _Failure(AssertionError, "The keys of the mappings do not match:\n"
                       f"Missing keys in the actual mapping: {sorted(wanted - keys)}\n"
                       f"Additional keys in the actual mapping: {sorted(keys - wanted)}", where)
    with contextlib.suppress(TypeError):
        return sorted(keys)
    return list(keys)


def _comparison(actual: Any, expected: Any, where: Where,
                rules: _Rules) -> tuple[Callable[[], str | None], Where]:
    """How one leaf pair is compared (a function giving the mismatch's message, or None) and
    the place its failure names, by torch's kinds of pair in its order: None, booleans,
    numbers, tensor-likes."""
    if actual is None or expected is None:
        return lambda: _none_mismatch(actual, expected), where
    flags = _scalar(actual, (bool,)), _scalar(expected, (bool,))
    if None not in flags:
        return lambda: _bool_mismatch(*flags), ()  # torch names no place for booleans
    numbers = _scalar(actual, tuple(_NUMBER_DTYPES)), _scalar(expected, tuple(_NUMBER_DTYPES))
    if None not in numbers:
        tolerances = _tolerances([_NUMBER_DTYPES[type(n)] for n in numbers], rules, where)
        return lambda: _number_mismatch(*numbers, *tolerances, rules), where
    tensors = _tensors(actual, expected, rules.allow_subclasses)
    if tensors is None:
        raise _Failure(TypeError, "No comparison pair was able to handle inputs of type "
                       f"{type(actual)} and {type(expected)}.", where)
    tolerances = _tolerances([t.dtype.name for t in tensors], rules, where)
    return lambda: _tensor_mismatch(*tensors, *tolerances, rules), where


def _scalar(value: Any, kinds: tuple[type, ...]) -> Any:
    """``value`` as a Python scalar of one of ``kinds`` (a numpy scalar as its item), or None."""
    if isinstance(value, backend.HOST_SCALARS):
        value = value.item()
    return value if type(value) in kinds else None


def _tensors(actual: Any, expected: Any, allow_subclasses: bool) -> tuple | None:
    """Two tensor-likes of related types as detached tensors, or None where they are not."""
    related = isinstance(actual, type(expected)) or isinstance(expected, type(actual))
    if not related or not (allow_subclasses or type(actual) is type(expected)):
        return None
    try:
        return tuple(x.detach() if isinstance(x, Tensor) else as_tensor(x)
                     for x in (actual, expected))
    except Exception:  # torch's rule: what as_tensor cannot take is no tensor-like
        return None


def _tolerances(dtype_names: list[str], rules: _Rules, where: Where) -> tuple[float, float]:
    """The given (rtol, atol), both or neither; for neither the loosest dtype's default."""
    if (rules.rtol is None) != (rules.atol is None):
        missing = "rtol" if rules.rtol is None else "atol"
        raise _Failure(ValueError, "Both 'rtol' and 'atol' must be either specified or "
                       f"omitted, but got no {missing}.", where)
    if rules.rtol is not None:
        return rules.rtol, rules.atol
    return _default_tolerances(dtype_names, _TOLERANCES)


def _default_tolerances(dtype_names: list[str],
                        table: dict[str, tuple[float, float]]) -> tuple[float, float]:
    """The loosest (rtol, atol) of the dtypes in ``table``; other dtypes are exact."""
    defaults = [table.get(name, (0.0, 0.0)) for name in dtype_names]
    return max(r for r, _ in defaults), max(a for _, a in defaults)


# ---------------------------------------------------------------------------- comparing pairs


def _none_mismatch(actual: Any, expected: Any) -> str | None:
    if actual is None and expected is None:
        return None
    return f"None mismatch: {actual} is not {expected}"


def _bool_mismatch(actual: bool, expected: bool) -> str | None:
    return None if actual is expected else f"Booleans mismatch: {actual} is not {expected}"


def _number_mismatch(actual: Any, expected: Any, rtol: float, atol: float,
                     rules: _Rules) -> str | None:
    """Why two Python numbers are not close (their types differ under check_dtype), or None."""
    if rules.check_dtype and type(actual) is not type(expected):
        return f"The (d)types do not match: {type(actual)} != {type(expected)}."
    if actual == expected or (rules.equal_nan and cmath.isnan(actual)
                              and cmath.isnan(expected)):
        return None
    difference = abs(actual - expected)
    if cmath.isfinite(difference) and difference <= atol + rtol * abs(expected):
        return None
    return _scalar_message(actual, expected, rtol, atol)


def _tensor_mismatch(actual: Tensor, expected: Tensor, rtol: float, atol: float,
                     rules: _Rules) -> str | None:
    """Why two tensors are not close: an attribute, then the values (a meta tensor has none)."""
    mismatch = _attribute_mismatch(actual, expected, rules)
    if mismatch is not None or "meta" in (actual.device.type, expected.device.type):
        return mismatch
    if actual.device != expected.device:  # only with check_device=False
        actual, expected = actual.cpu(), expected.cpu()
    if actual.dtype is not expected.dtype:  # only with check_dtype=False
        common = _dtype.promote_types(actual.dtype, expected.dtype)
        actual, expected = actual.to(common), expected.to(common)
    with no_grad():
        return _value_mismatch(actual, expected, rtol, atol, rules.equal_nan)


_ATTRIBUTES: dict[str, Callable[[Tensor], Any]] = {
    "shape": lambda t: t.shape, "layout": lambda t: t.layout, "stride()": lambda t: t.stride(),
    "device": lambda t: t.device, "dtype": lambda t: t.dtype}


def _attribute_mismatch(actual: Tensor, expected: Tensor, rules: _Rules) -> str | None:
    """The first checked attribute whose values differ, in torch's order and words."""
    checked = {"shape": True, "layout": rules.check_layout, "stride()": rules.check_stride,
               "device": rules.check_device, "dtype": rules.check_dtype}
    for name, read in _ATTRIBUTES.items():
        a, e = read(actual), read(expected)
        if checked[name] and a != e:
            return f"The values for attribute '{name}' do not match: {a} != {e}."
    return None


def _value_mismatch(actual: Tensor, expected: Tensor, rtol: float, atol: float,
                    equal_nan: bool) -> str | None:
    matches = isclose(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if bool(matches.all()):
        return None
    if actual.dim() == 0:
        return _scalar_message(actual.item(), expected.item(), rtol, atol)
    return _tensor_message(actual, expected, matches, rtol, atol)


# ---------------------------------------------------------------------------- torch's messages


def _scalar_message(actual: Any, expected: Any, rtol: float, atol: float) -> str:
    difference = abs(actual - expected)
    relative = float("inf") if expected == 0 else difference / abs(expected)
    return _message("Scalars", f"Expected {expected} but got {actual}.",
                    [("Absolute difference", difference, atol),
                     ("Relative difference", relative, rtol)])


def _tensor_message(actual: Tensor, expected: Tensor, matches: Tensor, rtol: float,
                    atol: float) -> str:
    """How many elements mismatch, and the greatest differences among them (in the tensors'
    dtype; integers and bools as int64, so that they can be subtracted) with their index."""
    count, mismatched = matches.numel(), matches.numel() - int(matches.sum())
    actual, expected, matched = actual.flatten(), expected.flatten(), matches.flatten()
    if not actual.dtype.is_floating_point:
        actual, expected = actual.to(_dtype.int64), expected.to(_dtype.int64)
    difference = (actual - expected).abs().masked_fill(matched, 0)
    relative = (difference / expected.abs()).masked_fill(matched, 0)
    lines = []
    for kind, diff, tolerance in (("absolute", difference, atol), ("relative", relative, rtol)):
        greatest, flat = diff.max(0)
        index = _unravel(int(flat), matches.shape)
        lines.append((f"Greatest {kind} difference", f"{greatest.item()} at index {index}",
                      tolerance))
    return _message("Tensor-likes", f"Mismatched elements: {mismatched} / {count} "
                    f"({mismatched / count:.1%})", lines)


def _unravel(flat: int, shape: Sequence[int]) -> tuple[int, ...]:
    """The index of element ``flat`` of a row-major ``shape``."""
    index = []
    for size in reversed(shape):
        flat, rest = divmod(flat, size)
        index.append(rest)
    return tuple(reversed(index))


def _message(what: str, summary: str, differences: list[tuple[str, Any, float]]) -> str:
    """torch's mismatch report; the allowed tolerances are left out when both are 0."""
    equality = all(tolerance == 0 for *_, tolerance in differences)
    lines = [f"{what} are not {'equal' if equality else 'close'}!", "", summary]
    for label, value, tolerance in differences:
        lines.append(f"{label}: {value}" + ("" if equality else f" (up to {tolerance} allowed)"))
    return "\n".join(lines)
