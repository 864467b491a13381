"""How a tensor lies in memory, in torch's names: ``layout`` (minitorch's tensors are all
``strided``) and ``memory_format`` (``preserve_format``, ``contiguous_format``; minitorch has
no ``channels_last`` kernels and refuses it).

>>> import minitorch
>>> minitorch.strided, minitorch.contiguous_format
(torch.strided, torch.contiguous_format)
"""

from __future__ import annotations

from typing import Any

from ._dtype import Uncreatable
from .backend import contiguous_strides, element_strides, is_dense, restrided, strided_zeros


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
    """``value`` as a memory format (None: ``preserve_format``), refusing what minitorch does
    not lay out; given the ``ndim`` of the tensor to lay out, torch's refusal of a
    channels-last format of another rank comes first.

    >>> checked("clone", channels_last, 2)
    Traceback (most recent call last):
    RuntimeError: required rank 4 tensor to use channels_last format
    """
    if value is None:
        return preserve_format
    typed(fn, value)
    rank = {channels_last: 4, channels_last_3d: 5}.get(value)
    if rank is not None and ndim is not None and ndim != rank:
        raise RuntimeError(f"required rank {rank} tensor to use {str(value)[6:]} format")
    if value in (channels_last, channels_last_3d):
        raise NotImplementedError(f"{fn}(): minitorch lays tensors out in "
                                  f"torch.contiguous_format only, not {value}")
    return value


_CHANNELS_LAST_ORDER = {4: (1, 3, 2, 0), 5: (1, 4, 3, 2, 0)}


def dims_order(fn: str, value: Any, ndim: int) -> tuple | None:
    """For ``is_contiguous(memory_format=value)``: the dims from innermost out that
    channels_last (channels_last_3d) asks of an ``ndim``-d tensor, () where it cannot hold
    (another rank), None for plain row-major order (contiguous or preserve format)."""
    typed(fn, value, optional=False)
    if value is channels_last:
        return _CHANNELS_LAST_ORDER[4] if ndim == 4 else ()
    if value is channels_last_3d:
        return _CHANNELS_LAST_ORDER[5] if ndim == 5 else ()
    return None


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
    ``value``): ``t``'s own under ``preserve_format`` when ``t`` lies densely in memory (a
    transpose, a permutation), as torch's ``empty_like``; None for contiguous.

    >>> preserved_strides("zeros_like", minitorch.ones(2, 3).t(), None)
    (1, 3)
    """
    if checked(fn, value, t.ndim) is not preserve_format:
        return None
    strides, shape = element_strides(t._data), tuple(t.shape)
    if strides is None or strides == contiguous_strides(shape) or not (
            is_dense(shape, strides) or 0 in shape):  # (torch: any empty tensor is dense)
        return None
    return strides


def laid_out(made: Any, strides: tuple | None) -> Any:
    """The new tensor ``made`` with its values in the layout of element ``strides`` (None:
    as it is), for the ``*_like`` factories under ``preserve_format``."""
    if strides is None:
        return made
    if 0 in made.shape:  # (no elements: the strides alone, as torch keeps them)
        made._data = restrided(made._data, strides)
        return made
    data = strided_zeros(made._xp, tuple(made.shape), strides, made._data.dtype)
    data[...] = made._data
    made._data = data
    return made
