"""How a tensor lies in memory, in torch's names: ``layout`` (minitorch's tensors are all
``strided``) and ``memory_format`` (``preserve_format``, ``contiguous_format``; minitorch has
no ``channels_last`` kernels and refuses it).

>>> import minitorch
>>> minitorch.strided, minitorch.contiguous_format
(torch.strided, torch.contiguous_format)
"""

from __future__ import annotations

from typing import Any


class layout:
    """A tensor's memory layout.

    >>> minitorch.ones(1).layout
    torch.strided
    """

    def __init__(self, name: str) -> None:
        self._name = name

    def __repr__(self) -> str:
        return f"torch.{self._name}"


class memory_format(layout):
    """The order in which a new tensor's elements are laid out.

    >>> minitorch.preserve_format
    torch.preserve_format
    """


strided = layout("strided")
preserve_format = memory_format("preserve_format")
contiguous_format = memory_format("contiguous_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")


def checked(fn: str, value: Any) -> memory_format:
    """``value`` as a memory format (None: ``preserve_format``), refusing what minitorch does
    not lay out."""
    if value is None:
        return preserve_format
    if not isinstance(value, memory_format):
        raise TypeError(f"{fn}(): argument 'memory_format' must be torch.memory_format, not "
                        f"{type(value).__name__}")
    if value in (channels_last, channels_last_3d):
        raise NotImplementedError(f"{fn}(): minitorch lays tensors out in "
                                  f"torch.contiguous_format only, not {value}")
    return value
