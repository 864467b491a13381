"""``torch.accelerator``: the device-agnostic view of the machine's accelerator, which for
minitorch is a CUDA GPU through CuPy, or none.

>>> import minitorch
>>> device = minitorch.accelerator.current_accelerator() or minitorch.device("cpu")
"""

from __future__ import annotations

from typing import Any

from . import backend, cuda

__all__ = ["current_accelerator", "current_device_index", "device_count", "is_available",
           "synchronize"]


def is_available() -> bool:
    """Whether an accelerator (a CUDA GPU) is there to use.

    >>> minitorch.accelerator.is_available() == minitorch.cuda.is_available()
    True
    """
    return cuda.is_available()


def current_accelerator(check_available: bool = False) -> Any:
    """``device("cuda")`` where a GPU is, else None (with or without ``check_available``,
    as torch on a machine without one).

    >>> minitorch.accelerator.current_accelerator() in (None, minitorch.device("cuda"))
    True
    """
    return backend.as_device("cuda") if is_available() else None


def device_count() -> int:
    """The number of accelerators (0 without one).

    >>> minitorch.accelerator.device_count() >= 0
    True
    """
    return cuda.device_count()


def _require() -> None:
    if not is_available():
        raise RuntimeError("Cannot access accelerator device when none is available.")


def current_device_index() -> int:
    """The index of the current accelerator; an error without one.

    >>> minitorch.accelerator.current_device_index() if minitorch.accelerator.is_available() \\
    ...     else 0
    0
    """
    _require()
    return cuda.current_device()


def synchronize(device: Any = None) -> None:
    """Wait for the accelerator's queued work; an error without one.

    >>> if minitorch.accelerator.is_available(): minitorch.accelerator.synchronize()
    """
    _require()
    cuda.synchronize(device)
