"""``minitorch.backends.cudnn``: cuDNN's switches. minitorch does not call cuDNN (its GPU
convolutions are CuPy's), so, as on torch's CPU build, cuDNN is not available and the
switches are kept and checked only.

>>> import minitorch
>>> with minitorch.backends.cudnn.flags(enabled=True, benchmark=True):
...     minitorch.backends.cudnn.benchmark
True
>>> minitorch.backends.cudnn.is_available(), minitorch.backends.cudnn.version()
(False, None)
"""

from __future__ import annotations

import contextlib
import sys
import types
from collections.abc import Iterator
from typing import Any

from ._flags import Switch

__all__ = ["flags", "is_acceptable", "is_available", "version"]


def is_available() -> bool:
    """False: minitorch does not call cuDNN."""
    return False


def version() -> None:
    """cuDNN's version: None, as torch answers where cuDNN is not available."""
    return None


def is_acceptable(tensor: Any) -> bool:
    """Whether cuDNN would take ``tensor``: never here."""
    return False


@contextlib.contextmanager
def flags(enabled: bool = False, benchmark: bool = False, benchmark_limit: int = 10,
          deterministic: bool = False, allow_tf32: bool = True) -> Iterator[None]:
    """Sets the switches for the ``with`` block, then restores them.

    >>> with minitorch.backends.cudnn.flags(enabled=False):
    ...     minitorch.backends.cudnn.enabled
    False
    """
    module = sys.modules[__name__]
    names = ("enabled", "benchmark", "benchmark_limit", "deterministic", "allow_tf32")
    old = {name: getattr(module, name) for name in names}
    new = (enabled, benchmark, benchmark_limit, deterministic, allow_tf32)
    try:
        for name, value in zip(names, new):
            setattr(module, name, value)
        yield
    finally:
        for name, value in old.items():
            setattr(module, name, value)


class _CudnnModule(types.ModuleType):
    enabled = Switch(True, "set_enabled_cudnn")
    benchmark = Switch(False, "set_benchmark_cudnn")
    deterministic = Switch(False, "set_deterministic_cudnn")
    allow_tf32 = Switch(True, "set_allow_tf32_cublas")  # (torch's own word here)
    benchmark_limit = None


sys.modules[__name__].__class__ = _CudnnModule
