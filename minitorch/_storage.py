"""A tensor's storage: the memory its values live in, shared by every view of it.

``t.untyped_storage()`` counts bytes and ``t.storage()`` (torch's deprecated TypedStorage)
counts values; both describe the whole array of the tensor the view was taken from, so an
``expand`` that shows nine values over three reports three.

>>> import minitorch
>>> c = minitorch.tensor([10., 20., 30.])
>>> c.expand(3, 3).untyped_storage().size(), c[1:].storage().size()
(12, 3)
"""

from __future__ import annotations

from typing import Any

from . import backend
from ._warn_once import warn_once

__all__ = ["TypedStorage", "UntypedStorage", "is_shared", "share_memory_", "storage",
           "storage_elements", "storage_root", "untyped_storage"]


def storage_root(t: Any) -> Any:
    """The tensor whose memory ``t`` lives in: its base if it is a view, else itself."""
    return t._memory_root()


def storage_elements(t: Any) -> Any:
    """The memory ``t`` lives in as one 1-d array in address order, read as ``t``'s dtype (a
    ``view(dtype)`` reads its storage so); None where the array library cannot show it as one
    (see :func:`backend.storage_view`).

    >>> x = minitorch.arange(2.)
    >>> storage_elements(x.view(minitorch.int16)[1:]).tolist()
    [0, 0, 0, 16256]
    """
    flat = backend.storage_view(storage_root(t)._data)
    if flat is not None and flat.dtype != t._data.dtype:
        flat = backend.reinterpret(flat, t._data.dtype)
    return flat


class UntypedStorage:
    """A tensor's memory as bytes."""

    def __init__(self, root: Any) -> None:
        self._root = root

    def size(self) -> int:
        """Its size in bytes."""
        return self._root.numel() * self._root.element_size()

    nbytes = size
    __len__ = size

    def data_ptr(self) -> int:
        """The address of the memory's first byte (0 for an empty one), as torch's."""
        return self._root.data_ptr()

    @property
    def device(self) -> Any:
        return self._root.device

    def is_shared(self) -> bool:
        """Whether ``share_memory_()`` was called on this memory (through any view of it);
        CUDA memory always is, as in torch."""
        return self.device.type == "cuda" or self._root.__dict__.get("_shared_memory", False)

    def share_memory_(self) -> UntypedStorage:
        """Mark this memory shared. minitorch runs in one process, so nothing moves; torch
        refuses it on the meta device."""
        if self.device.type == "meta":
            raise RuntimeError("_share_fd_: only available on CPU")
        self._root._shared_memory = True
        return self


class TypedStorage(UntypedStorage):
    """A tensor's memory as values of its dtype (torch's deprecated storage)."""

    def size(self) -> int:
        """Its size in values."""
        return self._root.numel()

    __len__ = size

    def nbytes(self) -> int:
        return self._root.numel() * self._root.element_size()

    def element_size(self) -> int:
        return self._root.element_size()

    @property
    def dtype(self) -> Any:
        return self._root.dtype

    def tolist(self) -> list:
        return self._root.detach().reshape(-1).tolist()

    def __repr__(self) -> str:
        values = "".join(f" {v}\n" for v in self.tolist())
        return (f"{values}[torch.storage.TypedStorage(dtype={self.dtype}, "
                f"device={self.device}) of size {self.size()}]")


def untyped_storage(self: Any) -> UntypedStorage:
    """The memory this tensor (and every view of its base) lives in, counted in bytes."""
    return UntypedStorage(storage_root(self))


def share_memory_(self: Any) -> Any:
    """Mark this tensor's storage shared (every view of it then reports ``is_shared()``).

    >>> x = minitorch.ones(3)
    >>> x.share_memory_() is x, x[1:].is_shared()
    (True, True)
    """
    untyped_storage(self).share_memory_()
    return self


def is_shared(self: Any) -> bool:
    """Whether this tensor's storage was shared with ``share_memory_()``."""
    return untyped_storage(self).is_shared()


def storage(self: Any) -> TypedStorage:
    """The memory this tensor lives in, counted in values; deprecated in torch, which warns
    once (use ``untyped_storage()``)."""
    warn_once("TypedStorage is deprecated. It will be removed in the future and UntypedStorage "
              "will be the only storage class. This should only matter to you if you are using "
              "storages directly.  To access UntypedStorage directly, use "
              "tensor.untyped_storage() instead of tensor.storage()", repeats=False)
    return TypedStorage(storage_root(self))
