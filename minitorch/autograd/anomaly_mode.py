"""Anomaly mode: remember where each node was created, and check backward for NaN.

While it is on, every recorded operation keeps the Python stack of its forward call. When
a node fails in backward, the engine warns with that stack before re-raising; with
``check_nan`` a node that returns NaN raises at once. Anomaly mode is global (all threads).

>>> import minitorch
>>> with minitorch.autograd.set_detect_anomaly(True):
...     minitorch.autograd.is_anomaly_enabled()
True
"""

from __future__ import annotations

import warnings
from typing import Any

from .. import _args

__all__ = ["detect_anomaly", "is_anomaly_check_nan_enabled", "is_anomaly_enabled",
           "set_anomaly_enabled", "set_detect_anomaly"]

_enabled = False
_check_nan = True


def is_anomaly_enabled(*args: Any, **kwargs: Any) -> bool:
    """True while anomaly detection is on."""
    if args or kwargs:  # torch's is a builtin
        _args.no_arguments("torch.is_anomaly_enabled", args, kwargs)
    return _enabled


def is_anomaly_check_nan_enabled(*args: Any, **kwargs: Any) -> bool:
    """True while anomaly detection also checks backward outputs for NaN."""
    if args or kwargs:  # torch's is a builtin
        _args.no_arguments("torch.is_anomaly_check_nan_enabled", args, kwargs)
    return _check_nan


def _set(mode: bool, check_nan: bool) -> None:
    global _enabled, _check_nan
    # both read before either is set: a bad argument changes nothing, as in torch
    enabled = _args.flag("set_anomaly_enabled", mode, "enabled", 1)
    _check_nan = _args.flag("set_anomaly_enabled", check_nan, "check_nan", 2)
    _enabled = enabled


def set_anomaly_enabled(enabled: bool, check_nan: bool = True) -> None:
    """Turn anomaly detection on or off until the next call (torch.set_anomaly_enabled).

    >>> minitorch.set_anomaly_enabled(False); minitorch.is_anomaly_enabled()
    False
    """
    _set(enabled, check_nan)


class set_detect_anomaly:
    """Turn anomaly detection on or off: now when called, until exit when used with ``with``.

    >>> _ = minitorch.autograd.set_detect_anomaly(False)
    """

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self._previous = (_enabled, _check_nan)
        _set(mode, check_nan)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        _set(*self._previous)


class detect_anomaly:
    """Context manager that turns anomaly detection on, warning that it slows things down.

    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     with minitorch.autograd.detect_anomaly():
    ...         pass
    """

    def __init__(self, check_nan: bool = True) -> None:
        self.check_nan = check_nan
        warnings.warn(
            "Anomaly Detection has been enabled. This mode will increase the runtime and "
            "should only be enabled for debugging.", stacklevel=2,
        )

    def __enter__(self) -> None:
        self._previous = (_enabled, _check_nan)
        _set(True, self.check_nan)

    def __exit__(self, *exc: object) -> None:
        _set(*self._previous)


def warn_forward_trace(node: Any) -> None:
    """Warn, before backward re-raises an error of ``node``, where its forward was called."""
    trace = "".join(node._anomaly_trace or ["  (no forward trace recorded)\n"])
    warnings.warn(
        f"Error detected in {node.name()}. Traceback of forward call that caused the "
        f"error:\n{trace}", stacklevel=3,
    )


def check_nan(node: Any, outs: tuple) -> None:
    """Raise torch's error if a node returned NaN in any gradient (after the warning that
    shows where the node's forward ran, as for any other error in backward)."""
    for i, g in enumerate(outs):
        if g is not None and g._has_nan():
            warn_forward_trace(node)
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th output.")
