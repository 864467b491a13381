"""torch's ``TORCH_WARN_ONCE``: a warning its C++ gives the first time only, per process
(``storage()``, ``set_default_tensor_type``, ``asarray`` of a tensor that requires grad);
and its ``TORCH_WARN``, every time (:func:`torch_warn`).

>>> import warnings
>>> with warnings.catch_warnings(record=True) as seen:
...     warnings.simplefilter("always")
...     warn_once("doctest: said once"); warn_once("doctest: said once")
>>> len(seen)
1
"""

from __future__ import annotations

import sys
import warnings

__all__ = ["is_warn_always_enabled", "set_warn_always", "torch_warn", "warn_once"]

_given: set[str] = set()
_always = [False]  # torch.set_warn_always: every "once" warning each time


def warn_once(message: str, stacklevel: int | None = 3, key: str | None = None,
              repeats: bool = True) -> None:
    """A UserWarning with ``message``, unless it (or another with the same ``key``: torch's
    once is per place in its code, whatever values the message shows) was given before in
    this process; each time while :func:`set_warn_always` is on, unless not ``repeats`` (a
    once of torch's Python code, which that switch does not reach). ``stacklevel`` None: at
    the first line outside minitorch, as :func:`torch_warn`."""
    key = message if key is None else key
    if key not in _given or (_always[0] and repeats):
        _given.add(key)
        warnings.warn(message, UserWarning,
                      stacklevel=_outside_level() if stacklevel is None else stacklevel)


def set_warn_always(b: bool) -> None:
    """Give the warnings torch gives once (``TORCH_WARN_ONCE``) every time, while ``b``.

    >>> minitorch.set_warn_always(False); minitorch.is_warn_always_enabled()
    False
    """
    if not isinstance(b, bool):
        raise RuntimeError(f"setWarnOnlyOnce expects a bool, but got {type(b).__name__}")
    _always[0] = b


def is_warn_always_enabled() -> bool:
    """Whether :func:`set_warn_always` is on.

    >>> minitorch.is_warn_always_enabled()
    False
    """
    return _always[0]


def torch_warn(message: str) -> None:
    """torch's ``TORCH_WARN`` (every time): a UserWarning at the first line of the caller's
    code outside minitorch, as Python sees a warning of torch's C++.

    >>> with warnings.catch_warnings(record=True) as seen:
    ...     warnings.simplefilter("always")
    ...     torch_warn("doctest: said")
    >>> seen[0].message.args
    ('doctest: said',)
    """
    warnings.warn(message, UserWarning, stacklevel=_outside_level())


def _outside_level() -> int:
    """The stack level, seen from the caller's caller, of the first frame outside
    minitorch."""
    level, frame = 2, sys._getframe(2)
    while frame is not None and frame.f_globals.get("__name__", "").startswith("minitorch."):
        level, frame = level + 1, frame.f_back
    return level
