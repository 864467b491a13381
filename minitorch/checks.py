"""The course's one way to check: a failed check says what was checked, what was expected,
what the student's code gave, where the two first differ and, when it helps, the mistake.

Every test cell of the course (solutions/*.py) checks with these, visible and hidden alike.
They hold no answers: the expected value is passed in by the test.

>>> check("self_times of the visible profile", [3, 4, 3, 1, 11], [3, 4, 3, 1, 10],
...       hint="subtract each event's direct children only")
Traceback (most recent call last):
...
minitorch.checks.CheckFailed: self_times of the visible profile
  expected: [3, 4, 3, 1, 10]
  got:      [3, 4, 3, 1, 11]
  first difference at [4]: expected 10, got 11
  hint: subtract each event's direct children only

Hidden tests hold no expected values: they send the student's with ``course.expect``, and
the grader compares it with the solution's outside the student's kernel.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["CheckFailed", "NotAnswered", "check", "check_raises", "check_runs"]

LONGEST = 300  # characters of a value shown in a message
_isclose = math.isclose  # bound at import: a later math.isclose = ... does not change checks


class CheckFailed(AssertionError):
    """A course check failed; its message says what was expected and what was got."""


class NotAnswered(CheckFailed):
    """The exercise under test still holds the release's ``raise NotImplementedError()``."""


def check(what: str, got: Any, expected: Any, *, hint: str | None = None,
          mistakes: Mapping[str, Any] | None = None, tol: float = 1e-9) -> None:
    """Pass when ``got`` equals ``expected``, else raise ``CheckFailed`` saying how they differ.

    Lists and tuples compare item by item (a NamedTuple equals its plain tuple), numbers to a
    relative and absolute ``tol``, ``True`` is not ``1``, tensors and arrays by their values.
    ``mistakes`` maps a known mistake to the value it gives: a match is named (and replaces
    the hint).

    >>> check("self time of step (0-21) with children 1-9 and 10-20", 21, 3,
    ...       mistakes={"the children were not subtracted": 21})
    Traceback (most recent call last):
    ...
    minitorch.checks.CheckFailed: self time of step (0-21) with children 1-9 and 10-20
      expected: 3
      got:      21
      first difference: expected 3, got 21
      this is what you get when the children were not subtracted

    >>> check("grad mode inside no_grad()", False, False)
    >>> check("the count", True, 1)
    Traceback (most recent call last):
    ...
    minitorch.checks.CheckFailed: the count
      expected: 1
      got:      True
      first difference: expected 1 (int), got True (bool)
    """
    where = _difference(got, expected, "", tol)
    if where is None:
        return
    lines = [what, f"  expected: {_show(expected)}", f"  got:      {_show(got)}",
             f"  first difference{where}"]
    named = [name for name, value in (mistakes or {}).items()
             if _difference(got, value, "", tol) is None]
    if named:
        lines.append(f"  this is what you get when {named[0]}")
    elif hint:
        lines.append(f"  hint: {hint}")
    raise CheckFailed("\n".join(lines))


def check_raises(what: str, call: Callable[[], Any], error: type[BaseException], *,
                 match: str | None = None, hint: str | None = None) -> BaseException:
    """Call ``call()``; pass when it raises ``error`` (whose message matches the regular
    expression ``match``) and return the exception, else raise ``CheckFailed``. A
    ``NotImplementedError`` (the release's placeholder) is reported as not answered yet,
    never taken for the ``error`` expected.

    >>> check_raises("a negative square root", lambda: math.sqrt(-1), ValueError)
    ValueError('math domain error')
    >>> check_raises("sqrt of a string", lambda: math.sqrt(4), TypeError)
    Traceback (most recent call last):
    ...
    minitorch.checks.CheckFailed: sqrt of a string
      expected: TypeError
      got:      no error (it returned 2.0)
    """
    try:
        result = call()
    except NotImplementedError as raised:
        if error is NotImplementedError:
            return _matching(what, raised, match, hint)
        raise NotAnswered(f"{what}: not answered yet (the code it runs still raises "
                          "NotImplementedError, the release's placeholder)") from raised
    except error as raised:
        return _matching(what, raised, match, hint)
    except Exception as raised:
        _fail(what, error.__name__, f"{type(raised).__name__}: {raised}", hint)
    _fail(what, error.__name__, f"no error (it returned {_show(result)})", hint)
    raise AssertionError("unreachable")  # pragma: no cover (_fail raises)


def check_runs(what: str, call: Callable[[], Any], *, hint: str | None = None) -> Any:
    """Call ``call()`` and return its result; when it raises, raise ``CheckFailed`` saying
    what it raised (the release's ``NotImplementedError`` reads "not answered yet").

    >>> check_runs("the square root of 4", lambda: math.sqrt(4))
    2.0
    >>> check_runs("the square root of -1", lambda: math.sqrt(-1), hint="check the sign first")
    Traceback (most recent call last):
    ...
    minitorch.checks.CheckFailed: the square root of -1
      expected: it runs without an error
      got:      ValueError: math domain error
      hint: check the sign first
    """
    try:
        return call()
    except NotImplementedError as raised:
        raise NotAnswered(f"{what}: not answered yet (the code it runs still raises "
                          "NotImplementedError, the release's placeholder)") from raised
    except Exception as raised:
        _fail(what, "it runs without an error", f"{type(raised).__name__}: {raised}", hint)
    raise AssertionError("unreachable")  # pragma: no cover (_fail raises)


def _matching(what: str, raised: BaseException, match: str | None,
              hint: str | None) -> BaseException:
    if match is not None and not re.search(match, str(raised)):
        _fail(what, f"{type(raised).__name__} whose message matches {match!r}",
              f"{type(raised).__name__}: {raised}", hint)
    return raised


def _fail(what: str, expected: str, got: str, hint: str | None) -> None:
    lines = [what, f"  expected: {expected}", f"  got:      {got}"]
    if hint:
        lines.append(f"  hint: {hint}")
    raise CheckFailed("\n".join(lines))


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= LONGEST else text[:LONGEST - 5] + " ...]"


def _plain(value: Any) -> Any:
    """Tensors and arrays as nested lists; anything else as it is."""
    if hasattr(value, "tolist") and hasattr(value, "dtype"):
        return value.tolist()
    return value


def _difference(got: Any, expected: Any, path: str, tol: float) -> str | None:
    """Where ``got`` first differs from ``expected`` (e.g. ``" at [2]: expected 1, got 2"``),
    or None when they are equal."""
    got, expected = _plain(got), _plain(expected)
    if isinstance(expected, (list, tuple)) and isinstance(got, (list, tuple)):
        if len(got) != len(expected):
            return f"{_at(path)}: expected {len(expected)} items, got {len(got)}"
        for index, (g, e) in enumerate(zip(got, expected)):
            found = _difference(g, e, f"{path}[{index}]", tol)
            if found:
                return found
        return None
    if isinstance(expected, Mapping) and isinstance(got, Mapping):
        if set(got) != set(expected):
            missing, extra = sorted(set(expected) - set(got), key=repr), sorted(
                set(got) - set(expected), key=repr)
            return f"{_at(path)}: keys missing {missing}, keys not expected {extra}"
        for key in expected:
            found = _difference(got[key], expected[key], f"{path}[{key!r}]", tol)
            if found:
                return found
        return None
    if _equal(got, expected, tol):
        return None
    if type(got) is not type(expected) and (isinstance(got, bool) or isinstance(expected, bool)
                                            or got is None or expected is None):
        return (f"{_at(path)}: expected {_show(expected)} ({type(expected).__name__}), "
                f"got {_show(got)} ({type(got).__name__})")
    return f"{_at(path)}: expected {_show(expected)}, got {_show(got)}"


def _at(path: str) -> str:
    return f" at {path}" if path else ""


def _equal(got: Any, expected: Any, tol: float) -> bool:
    if isinstance(got, bool) or isinstance(expected, bool):
        return type(got) is type(expected) and got == expected
    numbers = (int, float)
    if isinstance(got, numbers) and isinstance(expected, numbers):
        return _isclose(got, expected, rel_tol=tol, abs_tol=tol) or (
            math.isnan(got) and math.isnan(expected))
    try:
        return bool(got == expected)
    except Exception:  # an object whose == does not give one bool
        return False
