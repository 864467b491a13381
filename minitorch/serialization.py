"""``save`` and ``load``: tensors, state dicts and checkpoints in a file, with torch's safe
default: ``load`` rebuilds only tensors, numbers, strings and containers unless told
``weights_only=False`` or given more classes with ``add_safe_globals``.

A tensor is stored as its raw bytes, dtype name, shape, requires_grad and device (never as a
numpy object), so loading one needs no global but minitorch's own rebuild function.

>>> import io, minitorch
>>> buffer = io.BytesIO()
>>> minitorch.save({"w": minitorch.ones(2, requires_grad=True), "step": 3}, buffer)
>>> _ = buffer.seek(0)
>>> minitorch.load(buffer)
{'w': tensor([1., 1.], requires_grad=True), 'step': 3}
"""

from __future__ import annotations

import builtins
import collections
import contextlib
import io
import os
import pickle
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from . import _dtype as D
from . import backend
from ._tensor import Size, Tensor

__all__ = ["add_safe_globals", "clear_safe_globals", "get_safe_globals", "load", "safe_globals",
           "save"]


def _rebuild_tensor(raw: bytes, dtype_name: str, shape: tuple, requires_grad: bool,
                    device: str, parameter: bool) -> Tensor:
    """A leaf tensor (or Parameter) from ``save``'s record of it."""
    values = np.frombuffer(bytearray(raw), dtype=D._BY_NAME[dtype_name].np).reshape(shape)
    t = Tensor._make(backend.from_numpy(values, backend.as_device(_MAP_LOCATION[0] or device)))
    if parameter:
        from .nn.parameter import Parameter

        return Parameter(t, requires_grad)
    t._requires_grad = requires_grad
    return t


class _Pickler(pickle.Pickler):
    def reducer_override(self, obj: Any) -> Any:
        if not isinstance(obj, Tensor):
            return NotImplemented
        from .nn.parameter import Parameter

        values = backend.to_numpy(obj.detach()._data)
        return _rebuild_tensor, (np.ascontiguousarray(values).tobytes(), obj.dtype.name,
                                 tuple(obj.shape), obj.requires_grad, str(obj.device),
                                 isinstance(obj, Parameter))


def save(obj: Any, f: Any, pickle_module: Any = None, pickle_protocol: int = 2) -> None:
    """Write ``obj`` (tensors, state dicts, containers of them) to a path or binary file.

    >>> minitorch.save(minitorch.zeros(1), io.BytesIO())
    """
    with _opened(f, "wb") as file:
        _Pickler(file, protocol=max(pickle_protocol, 3)).dump(obj)  # 2 spells bytes by a codec


_SAFE: dict[str, Any] = {f"minitorch.serialization.{_rebuild_tensor.__name__}": _rebuild_tensor,
                         "collections.OrderedDict": collections.OrderedDict,
                         "minitorch._tensor.Size": Size}
_SAFE.update({f"builtins.{n}": getattr(builtins, n)
              for n in ("set", "frozenset", "complex", "slice", "range", "bytearray")})
_SAFE.update({f"minitorch._dtype.{d.name}": d for d in D._BY_NAME.values()})
_USER: dict[str, Any] = {}
_MAP_LOCATION: list = [None]


def _name(obj: Any) -> str:
    return f"{obj.__module__}.{obj.__qualname__}"


def add_safe_globals(safe_globals: Iterable[Any]) -> None:
    """Let ``load(weights_only=True)`` rebuild these classes or functions.

    >>> class Box: pass
    >>> minitorch.serialization.add_safe_globals([Box])
    >>> minitorch.serialization.clear_safe_globals()
    """
    _USER.update({_name(g): g for g in safe_globals})


def get_safe_globals() -> list[Any]:
    """The globals added with ``add_safe_globals``.

    >>> minitorch.serialization.get_safe_globals()
    []
    """
    return list(_USER.values())


def clear_safe_globals() -> None:
    """Forget the globals added with ``add_safe_globals``."""
    _USER.clear()


@contextlib.contextmanager
def safe_globals(safe_globals: Iterable[Any]) -> Iterator[None]:
    """``add_safe_globals`` for the duration of a ``with`` block.

    >>> with minitorch.serialization.safe_globals([complex]):
    ...     pass
    """
    before = dict(_USER)
    add_safe_globals(safe_globals)
    try:
        yield
    finally:
        _USER.clear()
        _USER.update(before)


_BOLD = "\x1b[1m"
_PLAIN = "\x1b[0m"


def _weights_only_message(name: str) -> str:
    """torch's message, word for word."""
    return (
        "Weights only load failed. This file can still be loaded, to do so you have two "
        f"options, {_BOLD}do those steps only if you trust the source of the checkpoint"
        f"{_PLAIN}. \n\t(1) In PyTorch 2.6, we changed the default value of the `weights_only` "
        "argument in `torch.load` from `False` to `True`. Re-running `torch.load` "
        "with `weights_only` set to `False` will likely succeed, but it can result in "
        "arbitrary code execution. Do it only if you got the file from a trusted source."
        "\n\t(2) Alternatively, to load with `weights_only=True` please check the recommended "
        "steps in the following error message.\n\tWeightsUnpickler error: Unsupported global: "
        f"GLOBAL {name} was not an allowed global by default. Please use "
        f"`torch.serialization.add_safe_globals([{name}])` or the "
        f"`torch.serialization.safe_globals([{name}])` context manager to allowlist this "
        "global if you trust this class/function.\n\nCheck the documentation of torch.load "
        "to learn more about types accepted by default with weights_only "
        "https://pytorch.org/docs/stable/generated/torch.load.html.")


class _WeightsUnpickler(pickle.Unpickler):
    """An unpickler that finds only the allowed globals."""

    def find_class(self, module: str, name: str) -> Any:
        key = f"{module}.{name}"
        found = _SAFE.get(key) or _USER.get(key)
        if found is None:
            raise pickle.UnpicklingError(_weights_only_message(key))
        return found


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if f"{module}.{name}" == "minitorch.serialization._rebuild_tensor":
            return _rebuild_tensor
        return super().find_class(module, name)


def load(f: Any, map_location: Any = None, pickle_module: Any = None, *,
         weights_only: bool | None = None, mmap: Any = None, **pickle_load_args: Any) -> Any:
    """Read what ``save`` wrote. By default only tensors, numbers, strings, containers and the
    globals of ``add_safe_globals`` are rebuilt (``weights_only=True``, torch's default).

    >>> buffer = io.BytesIO(); minitorch.save([minitorch.tensor(2.)], buffer)
    >>> _ = buffer.seek(0); minitorch.load(buffer, map_location="cpu")
    [tensor(2.)]
    """
    unpickler = _Unpickler if weights_only is False else _WeightsUnpickler
    _MAP_LOCATION[0] = _location(map_location)
    try:
        with _opened(f, "rb") as file:
            return unpickler(file, **pickle_load_args).load()
    finally:
        _MAP_LOCATION[0] = None


def _location(map_location: Any) -> str | None:
    if map_location is None:
        return None
    if callable(map_location) or isinstance(map_location, dict):
        raise NotImplementedError("minitorch.load takes map_location as a device or a device "
                                  "name (e.g. 'cpu'), not a function or a dict")
    return str(backend.device(map_location))


@contextlib.contextmanager
def _opened(f: Any, mode: str) -> Iterator[Any]:
    if isinstance(f, (str, os.PathLike)):
        with open(f, mode) as file:
            yield file
    elif isinstance(f, io.IOBase) or hasattr(f, "write" if "w" in mode else "read"):
        yield f
    else:
        raise AttributeError(f"'{type(f).__name__}' object has no attribute "
                             f"'{'write' if 'w' in mode else 'read'}'")
