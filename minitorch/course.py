"""Seams: where the course's students plug their own pieces into minitorch.

Each chapter of the course rebuilds one piece of minitorch (the engine, ``apply``, the
grad-mode state, the saved-tensor check, ...). A seam is a module attribute that minitorch
always looks up when it calls it, so a student's function can stand in for the reference:

>>> import minitorch
>>> from minitorch import course
>>> from minitorch.autograd import engine
>>> with course.plug(engine, "discover", lambda roots: ({}, [])):
...     engine.discover is not course.reference(engine, "discover")
True
>>> engine.discover is course.reference(engine, "discover")
True

A reference declared with ``@course.seam`` can also be switched off: calling it (even through
a reference the student kept) raises, so a test shows that the student's piece works alone.
Switching off swaps the function's code for one that raises, so there is no wrapper to reach
through and no cost on the normal path. It is state of the student's own process, so it
cannot stop a student who switches it back on: grading's defence is the grading copy of
minitorch (course/integrity.py), which holds no code for the piece an exercise asks for.

>>> with course.switched_off("engine.discover"):
...     engine.discover([])
Traceback (most recent call last):
...
minitorch.course.SwitchedOff: minitorch's engine.discover is switched off here: write your own
>>> course.reset()   # restores every seam and switches every reference back on

Hidden tests also ``observe`` the student's results, or ``expect`` one with a sentence that
says what it is: under nbgrader each observation is sent to the grader, which compares it,
outside the student's kernel, with what the instructor's solution observed (course/integrity.py).
A hidden test therefore holds no expected value for a hook or a frame walk to copy.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from types import ModuleType
from typing import Any, TypeVar

__all__ = [
    "OBSERVATION_MIME", "SwitchedOff", "error_of", "expect", "needs", "observe", "observed",
    "plug", "reference", "reset", "seam", "seams", "switched_off",
]

F = TypeVar("F", bound=Callable[..., Any])

_seams: dict[str, tuple[ModuleType, str, Any]] = {}  # "engine.execute" -> (module, attr, ref)
_codes: dict[str, Any] = {}  # each seam's own code, put back when it is switched on
_plugged: list[tuple[ModuleType, str, Any]] = []  # (module, attr, value to put back)
_off: set[str] = set()
OBSERVATION_MIME = "application/vnd.minitorch.observation+json"


class SwitchedOff(RuntimeError):
    """Raised by a reference piece of minitorch while it is switched off."""


def _seam_name(module: ModuleType | str, attr: str) -> str:
    name = module if isinstance(module, str) else module.__name__
    return f"{name.removeprefix('minitorch.').removeprefix('autograd.')}.{attr}"


def seam(func: F) -> F:
    """Declare a module-level function of minitorch as a seam (a decorator).

    The function itself is returned: minitorch calls it directly. Callers inside minitorch
    must look it up on its module at each call (``engine.execute(...)``), so that ``plug``
    reaches them.
    """
    module = __import__(func.__module__, fromlist=["_"])
    name = _seam_name(module, func.__name__)
    _seams[name] = (module, func.__name__, func)
    _codes[name] = func.__code__
    return func


def _switched_off_stub(*args: Any, **kwargs: Any) -> Any:
    """The code a switched-off seam runs (renamed after the seam by ``switched_off``)."""
    import sys  # the seam's own module runs this code: import what it needs here

    from minitorch.course import SwitchedOff

    name = sys._getframe().f_code.co_name
    raise SwitchedOff(f"minitorch's {name} is switched off here: write your own")


def seams() -> list[str]:
    """The names of every declared seam, e.g. ``"engine.execute"``."""
    return sorted(_seams)


def reference(module: ModuleType, attr: str) -> Any:
    """minitorch's own value of a seam (what ``reset`` puts back)."""
    return _seams[_seam_name(module, attr)][2]


@contextmanager
def plug(module: ModuleType, attr: str, replacement: Any) -> Iterator[Any]:
    """Replace ``module.attr`` with ``replacement`` inside the block, then put it back."""
    previous = getattr(module, attr)
    entry = (module, attr, previous)
    _plugged.append(entry)
    setattr(module, attr, replacement)
    try:
        yield replacement
    finally:
        setattr(module, attr, previous)
        if entry in _plugged:
            _plugged.remove(entry)


@contextmanager
def switched_off(*names: str) -> Iterator[None]:
    """Make the named reference seams raise ``SwitchedOff`` inside the block."""
    unknown = [n for n in names if n not in _seams]
    if unknown:
        raise KeyError(f"no such seam: {unknown}; the seams are {seams()}")
    added = [n for n in names if n not in _off]
    for name in added:
        _seams[name][2].__code__ = _switched_off_stub.__code__.replace(co_name=name)
    _off.update(added)
    try:
        yield
    finally:
        _switch_on(added)


def _switch_on(names: list[str] | set[str]) -> None:
    for name in names:
        _seams[name][2].__code__ = _codes[name]
    _off.difference_update(names)


def reset() -> None:
    """Restore every plugged seam to what it was, and switch every reference back on."""
    while _plugged:
        module, attr, previous = _plugged.pop()
        setattr(module, attr, previous)
    _switch_on(set(_off))


def observed(value: Any) -> Any:
    """``value`` as plain JSON data: what ``observe`` sends, and what the grader compares.

    >>> import minitorch
    >>> observed((minitorch.tensor([1., 2.]), {"b": True}, None))
    [{'tensor': [1.0, 2.0], 'dtype': 'torch.float32'}, {'dict': [['b', True]]}, None]
    """
    from ._tensor import Tensor
    from .autograd.graph import Node

    if isinstance(value, Tensor):
        return {"tensor": observed(value.tolist()), "dtype": str(value.dtype)}
    if hasattr(value, "__array__") and hasattr(value, "dtype"):  # numpy arrays and scalars
        return {"array": observed(value.tolist()), "dtype": str(value.dtype)}
    if isinstance(value, float):
        return value if math.isfinite(value) else {"float": repr(value)}
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [observed(item) for item in value]
    if isinstance(value, dict):
        items = sorted(value.items(), key=lambda item: repr(item[0]))
        return {"dict": [[observed(k), observed(v)] for k, v in items]}
    if isinstance(value, (set, frozenset)):
        return {"set": sorted((observed(item) for item in value), key=repr)}
    if isinstance(value, Node):
        return {"node": value.name()}
    return {"repr": re.sub(r" at 0x[0-9a-fA-F]+", "", repr(value))}


def observe(*values: Any) -> None:
    """Send ``values`` to the grader (in a hidden test); outside IPython, do nothing.

    The grader compares them with the solution's observations of the same test cell, so a
    cell whose checks were bypassed inside the kernel still loses its points.
    """
    _publish(observed(list(values)))


def expect(what: str, got: Any, *, hint: str | None = None,
           mistakes: Mapping[str, Any] | None = None, tol: float = 1e-6) -> None:
    """A hidden check that holds no answer: send ``got`` to the grader, which compares it with
    what the solution's code gave at the same place. On a difference the student reads
    ``what``, the first difference (expected against got) and the ``hint``, or the name of a
    known mistake whose value (in ``mistakes``) equals ``got``. As with ``checks.check``,
    tensors and arrays compare by their values, numbers to a relative and absolute ``tol``.

    >>> expect("grad mode after a no_grad() block that raised", True,
    ...        hint="restore the mode in a finally: block")   # outside IPython: nothing
    >>> expectation("x.grad", (1.5,), None, {"x.grad was overwritten": [0.5]})["mistakes"]
    [['x.grad was overwritten', [0.5]]]
    """
    _publish([expectation(what, got, hint, mistakes, tol)])


def expectation(what: str, got: Any, hint: str | None = None,
                mistakes: Mapping[str, Any] | None = None, tol: float = 1e-6) -> dict[str, Any]:
    """What ``expect`` sends: plain JSON data the grader tells apart by its ``expect`` key."""
    named = [[name, observed(_values(value))] for name, value in (mistakes or {}).items()]
    return {"expect": what, "got": observed(_values(got)), "hint": hint, "mistakes": named,
            "tol": tol}


def _values(value: Any) -> Any:
    """Tensors and arrays, at any depth, as their nested lists of values."""
    if hasattr(value, "tolist") and hasattr(value, "dtype"):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [_values(item) for item in value]
    if isinstance(value, dict):
        return {key: _values(item) for key, item in value.items()}
    return value


def error_of(call: Callable[[], Any]) -> str:
    """What ``call()`` raises, as "TypeName: message", or "no error": an outcome ``expect``
    can send without the test naming the error it expects.

    >>> error_of(lambda: 1 / 0), error_of(lambda: 1)
    ('ZeroDivisionError: division by zero', 'no error')
    """
    try:
        call()
    except Exception as error:
        return f"{type(error).__name__}: {error}"
    return "no error"


def _publish(data: list) -> None:
    try:
        from IPython import get_ipython
        from IPython.display import publish_display_data
    except ImportError:
        return
    if get_ipython() is not None:  # a kernel: the grader reads its display messages
        publish_display_data({OBSERVATION_MIME: data, "text/plain": ""})


@contextmanager
def needs(*answers: str) -> Iterator[None]:
    """Run a demo that calls your answers; while one is not written yet (its cell still
    raises ``NotImplementedError()``, or a name it defines is missing), print one line that
    says which exercise to answer instead of failing.

    >>> with needs("trace"):
    ...     raise NotImplementedError()
    answer `trace` above first
    >>> with needs("trace", "leaves"):
    ...     picture
    answer `trace` and `leaves` above first (name 'picture' is not defined yet)
    """
    try:
        yield
    except NotImplementedError as error:
        if error.args:  # minitorch's own "not supported", not an exercise's stub
            raise
        print(f"answer {_listed(answers)} above first")
    except NameError as error:
        print(f"answer {_listed(answers)} above first (name {error.name!r} is not defined yet)")


def _listed(names: tuple[str, ...]) -> str:
    quoted = [f"`{name}`" for name in names]
    return " and ".join([", ".join(quoted[:-1]), quoted[-1]] if len(quoted) > 1 else quoted)
