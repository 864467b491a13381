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
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = [
    "enable_grad", "inference_mode", "is_grad_enabled", "is_inference_mode_enabled",
    "no_grad", "set_grad_enabled",
]

F = TypeVar("F", bound=Callable[..., Any])


class _ThreadState(threading.local):
    """Each thread starts with grad mode on and inference mode off."""

    grad_enabled = True
    inference = False


_state = _ThreadState()


def _set_state(grad_enabled: bool, inference: bool) -> None:
    _state.grad_enabled = grad_enabled
    _state.inference = inference


def is_grad_enabled() -> bool:
    """True when operations in this thread are recorded for backward.

    >>> minitorch.is_grad_enabled()
    True
    """
    return _state.grad_enabled


def is_inference_mode_enabled() -> bool:
    """True inside ``inference_mode()`` in this thread."""
    return _state.inference


class _Mode:
    """A context manager that also decorates functions (torch's _DecoratorContextManager)."""

    def _target(self) -> tuple[bool, bool]:
        raise NotImplementedError

    def __enter__(self) -> None:
        self._saved = (_state.grad_enabled, _state.inference)
        _set_state(*self._target())

    def __exit__(self, *exc: object) -> None:
        _set_state(*self._saved)

    def clone(self) -> _Mode:
        """A fresh manager with the same settings (decorators use one per call)."""
        return self.__class__()

    def __call__(self, func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self.clone():
                return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]


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
        self.mode = bool(mode)
        self._saved = (_state.grad_enabled, _state.inference)
        _state.grad_enabled = self.mode

    def _target(self) -> tuple[bool, bool]:
        return self.mode, _state.inference

    def __enter__(self) -> None:
        pass

    def clone(self) -> set_grad_enabled:
        return set_grad_enabled(self.mode)

    def __call__(self, func: F) -> F:
        _state.grad_enabled = self._saved[0]  # decorating must not flip the mode now
        return super().__call__(func)


class inference_mode(_Mode):
    """Like no_grad, and tensors made inside are inference tensors (``is_inference()``).

    >>> with minitorch.inference_mode():
    ...     y = minitorch.ones(2) * 2
    >>> y.is_inference()
    True
    """

    def __new__(cls, mode: bool | Callable[..., Any] = True) -> Any:
        if callable(mode):
            return cls()(mode)
        return super().__new__(cls)

    def __init__(self, mode: bool = True) -> None:
        self.mode = bool(mode)

    def _target(self) -> tuple[bool, bool]:
        if self.mode:
            return False, True
        return _state.grad_enabled, False

    def clone(self) -> inference_mode:
        return inference_mode(self.mode)
