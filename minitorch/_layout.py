"""How a tensor lies in memory, in torch's names: ``layout`` (minitorch's tensors are all
``strided``) and ``memory_format`` (``preserve_format``, ``contiguous_format``, and
``channels_last`` / ``channels_last_3d``: an image batch with its channels innermost, which the
factories, ``contiguous``, ``clone`` and ``to`` lay out as torch's do).

>>> import minitorch
>>> minitorch.strided, minitorch.contiguous_format
(torch.strided, torch.contiguous_format)
"""

from __future__ import annotations

from typing import Any

from ._dtype import Uncreatable
from .backend import contiguous_strides, preserve_format_strides, with_strides


class layout(metaclass=Uncreatable):
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


strided = layout.made("strided")
preserve_format = memory_format.made("preserve_format")
contiguous_format = memory_format.made("contiguous_format")
channels_last = memory_format.made("channels_last")
channels_last_3d = memory_format.made("channels_last_3d")


def typed(fn: str, value: Any, optional: bool = True) -> None:
    """torch's parser's refusal of a ``memory_format=`` that is none (None passes where
    ``optional``).

    >>> typed("cuda", "channels_last")
    Traceback (most recent call last):
    TypeError: cuda(): argument 'memory_format' must be torch.memory_format, not str
    """
    if not (value is None and optional) and not isinstance(value, memory_format):
        raise TypeError(f"{fn}(): argument 'memory_format' must be torch.memory_format, not "
                        f"{type(value).__name__}")


def checked(fn: str, value: Any, ndim: int | None = None) -> memory_format:
    """``value`` as a memory format (None: ``preserve_format``); given the ``ndim`` of the
    tensor to lay out, torch's refusal of a channels-last format of another rank.

    >>> checked("clone", channels_last, 2)
    Traceback (most recent call last):
    RuntimeError: required rank 4 tensor to use channels_last format
    """
    if value is None:
        return preserve_format
    typed(fn, value)
    rank = _RANKS.get(value)
    if rank is not None and ndim is not None and ndim != rank:
        raise RuntimeError(f"required rank {rank} tensor to use {str(value)[6:]} format")
    return value


_CHANNELS_LAST_ORDER = {4: (1, 3, 2, 0), 5: (1, 4, 3, 2, 0)}
_RANKS = {channels_last: 4, channels_last_3d: 5}  # the rank each channels-last format needs


def dims_order(fn: str, value: Any, ndim: int) -> tuple | None:
    """For ``is_contiguous(memory_format=value)``: the dims from innermost out that
    channels_last (channels_last_3d) asks of an ``ndim``-d tensor, () where it cannot hold
    (another rank), None for plain row-major order (contiguous or preserve format)."""
    typed(fn, value, optional=False)
    rank = _RANKS.get(value)
    if rank is None:
        return None
    return _CHANNELS_LAST_ORDER[rank] if ndim == rank else ()


def format_strides(value: memory_format, shape: tuple) -> tuple | None:
    """The element strides torch gives a new tensor of ``shape`` in the memory format
    ``value``: channels_last (channels_last_3d) runs the channels innermost, then the
    spatial dims from the last, the batch outermost (sizes of zero counted as they are);
    None for row-major order.

    >>> format_strides(channels_last, (2, 3, 4, 5))
    (60, 1, 15, 3)
    """
    rank = _RANKS.get(value)
    if rank != len(shape):
        return None
    order = _CHANNELS_LAST_ORDER[rank]
    strides, step = [0] * len(shape), 1
    for d in order:
        strides[d], step = step, step * shape[d]
    return tuple(strides)


def suggested_format(shape: tuple, strides: tuple) -> memory_format:
    """torch's ``suggest_memory_format``: channels_last (channels_last_3d) for a 4-d (5-d)
    tensor whose strides run in that order (its ``is_channels_last_strides_2d``, which
    leaves ambiguous layouts, a channel stride of 0 or an empty dim, in row-major order),
    else contiguous_format.

    >>> suggested_format((2, 3, 4, 5), (60, 1, 15, 3)), suggested_format((2, 3), (1, 2))
    (torch.channels_last, torch.contiguous_format)
    """
    order = _CHANNELS_LAST_ORDER.get(len(shape))
    if order is None or strides[1] == 0:
        return contiguous_format
    least = 0
    for d in order:
        if shape[d] == 0 or strides[d] < least or (d == 0 and least == strides[1]):
            return contiguous_format
        least = strides[d] * (shape[d] if shape[d] > 1 else 1)
    return channels_last if len(shape) == 4 else channels_last_3d


def dense_in_order(shape: tuple, strides: tuple, order: tuple) -> bool:
    """Whether elements lie without gaps with dims ``order`` running innermost first (sizes of
    one do not count, as torch's channels-last test); False for an empty ``order``."""
    expected = 1
    for d in order:
        if shape[d] != 1:
            if strides[d] != expected:
                return False
            expected *= shape[d]
    return bool(order)


def preserved_strides(fn: str, t: Any, value: Any) -> tuple | None:
    """The element strides of a new tensor made like ``t`` (``*_like``, ``memory_format``
    ``value``): under ``preserve_format``, those of ``t``'s copy as torch's ``empty_like``
    lays it out (:func:`~minitorch.backend.preserve_format_strides`), else
    :func:`format_strides`; None for contiguous.

    >>> preserved_strides("zeros_like", minitorch.ones(2, 3).t(), None)
    (1, 3)
    """
    value = checked(fn, value, t.ndim)
    if value is not preserve_format:
        return format_strides(value, tuple(t.shape))
    strides = preserve_format_strides(t._data)
    return None if strides == contiguous_strides(tuple(t.shape)) else strides


def laid_out(made: Any, strides: tuple | None) -> Any:
    """The new tensor ``made`` with its values in the layout of element ``strides`` (None:
    as it is), for the ``*_like`` factories under ``preserve_format``."""
    made._data = with_strides(made._data, strides)  # (an empty one: its strides alone, as
    return made  # torch keeps them)
