"""Grad modes: whether operations are recorded into the graph, per thread.

Grad mode is a thread-local switch read by every operation. ``no_grad``, ``enable_grad``,
``set_grad_enabled`` and ``inference_mode`` flip it for a block of code and work both as
context managers and as decorators.

>>> import minitorch
>>> x = minitorch.ones(2, requires_grad=True)
>>> with minitorch.no_grad():
...     y = x * 2
>>> y.requires_grad
False

The course plugs a student's state in with ``use``; every context manager here sets the mode
through ``set_state``, the seam chapter 4 rebuilds, while minitorch's own code (optimizers,
initialisers, the engine) switches through the private ``_recording``, so it runs unchanged
where the chapter's grading leaves the public managers out.
"""

from __future__ import annotations

import functools
import inspect
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from .. import course
from .._args import flag, no_arguments

__all__ = [
    "enable_grad", "inference_mode", "is_grad_enabled", "is_inference_mode_enabled",
    "no_grad", "set_grad_enabled", "set_multithreading_enabled", "set_state", "use",
]

F = TypeVar("F", bound=Callable[..., Any])


def _per_thread_state() -> Any:
    """minitorch's own grad-mode state: one per thread (chapter 4's grading copy keeps one
    for all threads, so that a submission cannot borrow minitorch's per-thread state)."""

    class ThreadState(threading.local):
        """Each thread starts with grad mode on and inference mode off."""

        grad_enabled = True
        inference = False
        grad_requested = True

    return ThreadState()


_state = _per_thread_state()  # read at every use: plugging it swaps the mode's home


@contextmanager
def _recording(enabled: bool) -> Iterator[None]:
    """minitorch's own switch for a block: grad mode ``enabled`` in this thread, then back.

    Internal code (the engine, custom forwards, pack hooks) uses this rather than the public
    managers, which go through ``set_state``, the seam grading switches off.
    """
    state = _state
    previous = state.grad_enabled
    state.grad_enabled = enabled
    try:
        yield
    finally:
        state.grad_enabled = previous


@course.seam
def set_state(grad_enabled: bool, inference: bool) -> None:
    """Set this thread's grad mode and inference mode; every context manager here calls it.

    >>> set_state(False, False); minitorch.is_grad_enabled()
    False
    >>> set_state(True, False)
    """
    _state.grad_enabled = grad_enabled and not inference  # what operations read: inference
    _state.inference = inference  # mode records nothing, whatever grad mode says
    _state.grad_requested = grad_enabled


class _WithInference(threading.local):
    """A student's state that has only ``grad_enabled``, with minitorch's inference flag."""

    inference = False

    def __init__(self, state: Any) -> None:
        self.state = state

    @property
    def grad_enabled(self) -> bool:
        return self.state.grad_enabled

    @grad_enabled.setter
    def grad_enabled(self, mode: bool) -> None:
        self.state.grad_enabled = mode


def _check_per_thread(state: Any) -> None:
    """Refuse a state shared between threads, or one a new thread does not see as "on"."""
    here = state.grad_enabled
    seen: list[Any] = []

    def probe() -> None:
        seen.append(getattr(state, "grad_enabled", None))
        state.grad_enabled = not here

    thread = threading.Thread(target=probe)
    thread.start()
    thread.join()
    if state.grad_enabled != here:
        state.grad_enabled = here
        raise TypeError("grad_mode.use: setting grad_enabled in another thread changed it in "
                        "this one; keep the state per thread (subclass threading.local)")
    if seen != [True]:
        raise TypeError(f"grad_mode.use: a new thread must start with grad_enabled True, it "
                        f"sees {seen[0]!r}; give the class a default (grad_enabled = True)")


@contextmanager
def use(state: Any) -> Iterator[Any]:
    """Make minitorch keep its grad mode in ``state`` inside the block (the course's seam).

    ``state`` holds this thread's mode in ``state.grad_enabled`` (True in every new thread)
    and, optionally, ``state.inference``; without it minitorch keeps its own inference flag.
    Every operation, ``no_grad`` and ``backward`` then read and write ``state``.

    >>> class Mode(threading.local):
    ...     grad_enabled = True
    >>> mine = Mode()
    >>> with use(mine):
    ...     mine.grad_enabled = False
    ...     (minitorch.ones(1, requires_grad=True) * 2).requires_grad
    False
    >>> minitorch.is_grad_enabled()
    True
    """
    if not hasattr(state, "grad_enabled"):
        raise TypeError(f"grad_mode.use needs a state with a grad_enabled attribute, got "
                        f"{type(state).__name__}")
    _check_per_thread(state)
    with course.plug(sys.modules[__name__], "_state",
                     state if hasattr(state, "inference") else _WithInference(state)) as plugged:
        yield plugged


def is_grad_enabled(*args: Any, **kwargs: Any) -> bool:
    """True in grad mode: operations in this thread record for backward (except inside
    inference mode, which records nothing whatever grad mode says).

    >>> minitorch.is_grad_enabled()
    True
    """
    if args or kwargs:  # torch's is a builtin
        no_arguments("torch.is_grad_enabled", args, kwargs)
    return _state.grad_enabled or (  # inside inference mode, grad mode as set (torch's)
        _state.inference and getattr(_state, "grad_requested", False))


def is_inference_mode_enabled(*args: Any, **kwargs: Any) -> bool:
    """True inside ``inference_mode()`` in this thread."""
    if args or kwargs:  # torch's is a builtin
        no_arguments("torch.is_inference_mode_enabled", args, kwargs)
    return _state.inference


class _Mode:
    """A context manager that also decorates functions (torch's _DecoratorContextManager)."""

    _torch_saved = "prev"  # the attribute torch's manager saves the state in on enter

    def _target(self) -> tuple[bool, bool]:
        raise NotImplementedError

    def __enter__(self) -> None:
        self._saved = (is_grad_enabled(), _state.inference)
        set_state(*self._target())

    def __exit__(self, *exc: object) -> None:
        if not hasattr(self, "_saved"):  # exit without enter: torch's error
            raise AttributeError(f"'{type(self).__name__}' object has no attribute "
                                 f"'{self._torch_saved}'")
        set_state(*self._saved)

    def clone(self) -> _Mode:
        """A fresh manager with the same settings (decorators use one per call)."""
        return self.__class__()

    def __call__(self, func: F) -> F:
        if inspect.isgeneratorfunction(func):
            return self._each_step(func)

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self.clone():
                return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    def _each_step(self, func: F) -> F:
        """A generator function whose every step runs in this mode, and whose caller's mode
        is back while it waits at a ``yield`` (as torch decorates generators)."""

        @functools.wraps(func)
        def generator(*args: Any, **kwargs: Any) -> Any:
            steps = func(*args, **kwargs)
            sent: Any = None
            thrown: BaseException | None = None
            while True:
                with self.clone():
                    try:
                        out = steps.send(sent) if thrown is None else steps.throw(thrown)
                    except StopIteration as stop:
                        return stop.value
                sent, thrown = None, None
                try:
                    sent = yield out
                except GeneratorExit:
                    with self.clone():
                        steps.close()
                    raise
                except BaseException as error:  # thrown in by the caller: passed on inside
                    thrown = error

        return generator  # type: ignore[return-value]


class _BareDecoratable(_Mode):
    """Allows ``@no_grad`` without parentheses, as torch does."""

    def __new__(cls, orig_func: Callable[..., Any] | None = None) -> Any:
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)


class no_grad(_BareDecoratable):
    """Disable recording: results do not require grad and are leaves.

    >>> @minitorch.no_grad
    ... def double(x):
    ...     return x * 2
    >>> double(minitorch.ones(1, requires_grad=True)).requires_grad
    False
    """

    def __init__(self) -> None:  # ``no_grad(None)`` is refused, as torch's
        super().__init__()
        self._saved = (False, _state.inference)  # torch's: exit without enter disables grad

    def _target(self) -> tuple[bool, bool]:
        return False, _state.inference


class enable_grad(_BareDecoratable):
    """Re-enable recording inside ``no_grad`` (not inside inference mode).

    >>> with minitorch.no_grad(), minitorch.enable_grad():
    ...     minitorch.is_grad_enabled()
    True
    """

    def _target(self) -> tuple[bool, bool]:
        return True, _state.inference


class set_grad_enabled(_Mode):
    """Switch grad mode now; as a context manager, restore the old mode on exit.

    >>> _ = minitorch.set_grad_enabled(False); minitorch.is_grad_enabled()
    False
    >>> _ = minitorch.set_grad_enabled(True)
    """

    def __init__(self, mode: bool) -> None:
        self.mode = flag("set_grad_enabled", mode, "enabled", 1)
        self._saved = (is_grad_enabled(), _state.inference)
        set_state(self.mode, _state.inference)

    def _target(self) -> tuple[bool, bool]:
        return self.mode, _state.inference

    def __enter__(self) -> None:  # as torch's: the mode again (it may have changed since)
        set_state(self.mode, _state.inference)

    def clone(self) -> set_grad_enabled:
        return set_grad_enabled(self.mode)

    def __call__(self, func: F) -> F:
        set_state(self._saved[0], _state.inference)  # decorating must not flip the mode now
        return super().__call__(func)


class inference_mode(_Mode):
    """Like no_grad, and tensors made inside are inference tensors (``is_inference()``).

    >>> with minitorch.inference_mode():
    ...     y = minitorch.ones(2) * 2
    >>> y.is_inference()
    True

    ``inference_mode(False)`` is plain grad mode, as in torch: grad on, even inside no_grad.

    >>> with minitorch.no_grad(), minitorch.inference_mode(False):
    ...     minitorch.is_grad_enabled()
    True
    """

    def __new__(cls, mode: bool | Callable[..., Any] = True) -> Any:
        if not isinstance(mode, bool):  # as torch: anything else is a function to decorate
            return cls()(mode)
        return super().__new__(cls)

    _torch_saved = "_inference_mode_context"

    def __init__(self, mode: bool = True) -> None:
        self.mode = bool(mode)

    def _target(self) -> tuple[bool, bool]:
        return not self.mode, self.mode  # as torch: inference_mode(False) turns grad mode on

    def clone(self) -> inference_mode:
        return inference_mode(self.mode)


class _MultithreadingState(threading.local):
    enabled = True


_multithreading = _MultithreadingState()


def is_multithreading_enabled(*args: Any, **kwargs: Any) -> bool:
    """Whether backward may run on device worker threads (this thread's setting).

    >>> minitorch.autograd.is_multithreading_enabled()
    True
    """
    if args or kwargs:  # torch's is a builtin
        no_arguments("torch._C._is_multithreading_enabled", args, kwargs)
    return _multithreading.enabled


class set_multithreading_enabled(_Mode):
    """torch's switch for multithreaded backward, set now and restored on exit. minitorch's
    backward always runs on the calling thread; the setting is kept and read back only.

    >>> with minitorch.autograd.grad_mode.set_multithreading_enabled(False):
    ...     minitorch.autograd.is_multithreading_enabled()
    False
    >>> minitorch.autograd.is_multithreading_enabled()
    True
    """

    def __init__(self, mode: bool) -> None:
        self.prev = _multithreading.enabled
        _multithreading.enabled = flag("set_multithreading_enabled", mode, "enabled", 1)
        self.mode = mode

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        _multithreading.enabled = self.prev

    def clone(self) -> set_multithreading_enabled:
        return set_multithreading_enabled(self.mode)
