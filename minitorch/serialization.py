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

import collections
import contextlib
import io
import os
import pickle
import pickletools
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from . import _dtype as D
from . import backend
from ._storage import UntypedStorage
from ._tensor import Size, Tensor

__all__ = ["add_safe_globals", "clear_safe_globals", "get_safe_globals", "load", "safe_globals",
           "save"]


def _rebuild_storage(raw: bytes) -> np.ndarray:
    """The bytes of one saved storage, as a writable array that its tensors view."""
    return np.frombuffer(bytearray(raw), dtype=np.uint8)


def _rebuild_tensor(storage: np.ndarray, offset: int, dtype_name: str, shape: tuple,
                    strides: tuple, requires_grad: bool, device: str,
                    parameter: bool) -> Tensor:
    """A leaf tensor (or Parameter) from ``save``'s record of it: its values seen in
    ``storage`` at byte ``offset`` with byte ``strides``, so that tensors saved from one
    memory share one again."""
    kind = D._BY_NAME[dtype_name].np
    values = np.ndarray(shape, kind, storage, offset, strides)
    t = Tensor._make(values)
    if (where := _restored(device, t)) != "cpu":
        t = Tensor._make(backend.from_numpy(values, backend.as_device(where)))
    else:  # its storage is the whole saved memory, as in torch: storage_offset() counts from there
        t._memory = Tensor._make(storage[:storage.size - storage.size % kind.itemsize].view(kind))
    if parameter:
        from .nn.parameter import Parameter

        return Parameter(t, requires_grad)
    t._requires_grad = requires_grad
    return t


class _Storage:
    """One memory that saved tensors live in, pickled once however many tensors view it."""

    def __init__(self, array: np.ndarray) -> None:
        self.array = array

    def __reduce__(self) -> tuple:
        return _rebuild_storage, (self.array.tobytes(),)


class _Pickler(pickle.Pickler):
    def __init__(self, file: Any, protocol: int) -> None:
        super().__init__(file, protocol=protocol)
        self._storages: dict[int, _Storage] = {}

    def reducer_override(self, obj: Any) -> Any:
        if not isinstance(obj, Tensor):
            return NotImplemented
        from .nn.parameter import Parameter

        storage, offset, strides = self._located(backend.to_numpy(obj.detach()._data))
        return _rebuild_tensor, (storage, offset, obj.dtype.name, tuple(obj.shape), strides,
                                 obj.requires_grad, str(obj.device), isinstance(obj, Parameter))

    def _located(self, values: np.ndarray) -> tuple[_Storage, int, tuple]:
        """The storage ``values`` lies in (the array that owns its memory, kept once per
        save), its byte offset there and its byte strides."""
        owner = values
        while isinstance(owner.base, np.ndarray):
            owner = owner.base
        if not owner.flags.c_contiguous or not values.size:  # saved as values of their own
            owner = values = np.ascontiguousarray(values)
        # the dict keeps each owner alive until the save ends, so its id stays its own
        storage = self._storages.setdefault(id(owner), _Storage(owner))
        offset = values.__array_interface__["data"][0] - owner.__array_interface__["data"][0]
        return storage, offset, values.strides


_MAGIC_NUMBER = 0x1950A86A20F9469CFC6C  # torch's: a checkpoint starts with it, a stray pickle not


def save(obj: Any, f: Any, pickle_module: Any = None, pickle_protocol: int = 2,
         _use_new_zipfile_serialization: bool = True,
         _disable_byteorder_record: bool = False) -> None:
    """Write ``obj`` (tensors, state dicts, containers of them) to a path or binary file;
    tensors that share memory (a tensor and its views) share it again when loaded. torch's
    format switches are taken and change nothing: minitorch has one format.

    >>> minitorch.save(minitorch.zeros(1), io.BytesIO())
    """
    with _opened(f, "wb") as file:  # torch refuses a bad ``f`` before it pickles anything
        buffer = io.BytesIO()
        try:
            pickle.dump(_MAGIC_NUMBER, buffer, protocol=2)
            _Pickler(buffer, protocol=max(pickle_protocol, 3)).dump(obj)  # 2: bytes by a codec
        finally:  # torch closes its archive even when pickling failed: a text stream refuses
            file.write(buffer.getbuffer())


_SAFE: dict[str, Any] = {
    _name: _global for _global in (_rebuild_tensor, _rebuild_storage, collections.OrderedDict,
                                   collections.Counter, Size, backend.device, set, complex,
                                   bytearray)
    for _name in [f"{_global.__module__}.{_global.__qualname__}"]}
_SAFE.update({f"minitorch._dtype.{d.name}": d for d in D._BY_NAME.values()})
_USER: dict[str, Any] = {}
_MAP_LOCATION: list = [None]  # while load runs: where its tensors go, from their saved device


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
        if found is None:  # torch names a builtin without its module
            raise pickle.UnpicklingError(_weights_only_message(
                name if module == "builtins" else _torch_name(module, name)))
        return found


_OPTIMIZER_FILES = {"SparseAdam": "sparse_adam"}  # torch's file of each, where not lower()


def _torch_name(module: str, name: str) -> str:
    """The dotted name torch's refusal prints for the global ``module.name``: an ``nn``
    module class by its torch file (``torch.nn.modules.linear.Linear``), an optimizer by
    its own (``torch.optim.adamw.AdamW``), another of minitorch's under ``torch.``
    (``torch.optim.lr_scheduler.StepLR``: those files mirror torch's)."""
    if module.startswith("minitorch."):
        import importlib

        from .nn.modules import torch_path
        from .optim import Optimizer

        try:
            found = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            found = None
        if isinstance(found, type) and (path := torch_path(found)):
            return path
        if isinstance(found, type) and issubclass(found, Optimizer) and \
                module != "minitorch.optim":  # torch's file per optimizer (adamw.py)
            return f"torch.optim.{_OPTIMIZER_FILES.get(name, name.lower())}.{name}"
        module = "torch" + module.removeprefix("minitorch")
    return f"{module}.{name}"


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        key = f"{module}.{name}"
        if key.startswith("minitorch.serialization."):
            return _SAFE[key]
        return super().find_class(module, name)


def _weights_only_failure(reason: str) -> pickle.UnpicklingError:
    """torch's error for a stream its weights-only unpickler cannot read (``reason``)."""
    return pickle.UnpicklingError(
        "Weights only load failed. In PyTorch 2.6, we changed the default value of the "
        "`weights_only` argument in `torch.load` from `False` to `True`. Re-running "
        "`torch.load` with `weights_only` set to `False` will likely succeed, but it can result "
        "in arbitrary code execution. Do it only if you got the file from a trusted source.\n"
        "Please file an issue with the following so that we can make `weights_only=True` "
        f"compatible with your use case: WeightsUnpickler error: \n\n{reason}\n\nCheck the "
        "documentation of torch.load to learn more about types accepted by default with "
        "weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")


_ZIP_ERROR = (
    "PytorchStreamReader failed reading zip archive: not a ZIP archive. This is an internal "
    "miniz error. If you are seeing this error, there is a high likelihood that your checkpoint "
    "file is corrupted. This can happen if the checkpoint was not saved properly, was "
    "transferred incorrectly, or the file was modified after saving.")


def _checked_stream(data: Any, weights_only: bool) -> io.BytesIO:
    """``data``, read from the file, refused as torch refuses a stream that is not a
    checkpoint: text, nothing, a zip archive (minitorch writes none), or, for the weights-only
    unpickler, an opcode it does not read."""
    if isinstance(data, str):  # the weights-only reader asserts, pickle refuses
        if weights_only:
            raise AssertionError("Expected bytes, got str")
        raise TypeError("a bytes-like object is required, not 'str'")
    if not data:
        raise EOFError("" if weights_only else "Ran out of input")
    if data[:4] == b"PK\x03\x04":
        raise RuntimeError(_ZIP_ERROR)
    if weights_only:
        _check_opcodes(data)
    return io.BytesIO(data)


# The opcodes torch's weights-only unpickler reads; it refuses any other (protocol 4's FRAME).
_WEIGHTS_ONLY_OPCODES = frozenset(getattr(pickle, name)[0] for name in (
    "GLOBAL", "NEWOBJ", "REDUCE", "BUILD", "APPEND", "APPENDS", "SETITEM", "SETITEMS", "MARK",
    "TUPLE", "TUPLE1", "TUPLE2", "TUPLE3", "NONE", "NEWFALSE", "NEWTRUE", "EMPTY_TUPLE",
    "EMPTY_LIST", "EMPTY_DICT", "EMPTY_SET", "BININT", "BININT1", "BININT2", "BINFLOAT",
    "BINUNICODE", "SHORT_BINSTRING", "BINPERSID", "BINGET", "LONG_BINGET", "BINPUT",
    "LONG_BINPUT", "LONG1", "PROTO", "STOP"))


def _check_opcodes(data: bytes) -> None:
    """The first pickle of ``data`` (a checkpoint's magic number) read as torch's weights-only
    unpickler reads it: each opcode is looked at before its argument, and one it does not know
    is refused in its words. A stream that ends early is left to the unpickler's own error."""
    stream = io.BytesIO(data)
    for code in iter(lambda: stream.read(1), b""):
        if code[0] not in _WEIGHTS_ONLY_OPCODES:
            raise _weights_only_failure(f"Unsupported operand {code[0]}")
        if code == pickle.STOP:
            return
        argument = pickletools.code2op[code.decode("latin-1")].arg
        try:
            if argument is not None:
                argument.reader(stream)
        except ValueError:  # a truncated argument
            return


def _check_mmap(f: Any, data: Any) -> None:
    """torch maps only a checkpoint file named by a path: what is not one of minitorch's
    checkpoints (which stand for torch's default zip ones: nothing, garbage) is none torch
    could map, and a file object has no path to map. With a path, minitorch just reads the
    file.

    >>> _check_mmap(io.BytesIO(b"x"), pickle.dumps(_MAGIC_NUMBER, protocol=2))
    Traceback (most recent call last):
    ValueError: f must be a file path in order to use the mmap argument
    """
    if not isinstance(data, bytes) or not data.startswith(pickle.dumps(_MAGIC_NUMBER,
                                                                       protocol=2)):
        f_name = f"{f}, " if isinstance(f, str) else ""
        raise RuntimeError("mmap can only be used with files saved with "
                           f"`torch.save({f_name}_use_new_zipfile_serialization=True), please "
                           "torch.save your checkpoint with this option in order to use mmap.")
    if not isinstance(f, (str, os.PathLike)):
        raise ValueError("f must be a file path in order to use the mmap argument")


def load(f: Any, map_location: Any = None, pickle_module: Any = None, *,
         weights_only: bool | None = None, mmap: Any = None, **pickle_load_args: Any) -> Any:
    """Read what ``save`` wrote. By default only tensors, numbers, strings, containers and the
    globals of ``add_safe_globals`` are rebuilt (``weights_only=True``, torch's default).

    >>> buffer = io.BytesIO(); minitorch.save([minitorch.tensor(2.)], buffer)
    >>> _ = buffer.seek(0); minitorch.load(buffer, map_location="cpu")
    [tensor(2.)]
    """
    weights_only = weights_only is not False
    unpickler = _WeightsUnpickler if weights_only else _Unpickler
    with _opened(f, "rb") as file:
        data = file.read()
    if mmap:
        _check_mmap(f, data)
    stream = _checked_stream(data, weights_only)
    _MAP_LOCATION[0] = map_location
    try:
        magic = unpickler(stream, **pickle_load_args).load()
        if type(magic) is not int or magic != _MAGIC_NUMBER:
            raise RuntimeError("Invalid magic number; corrupt file?")
        if stream.tell() == len(data):
            raise EOFError("" if weights_only else "Ran out of input")
        return unpickler(stream, **pickle_load_args).load()
    finally:
        _MAP_LOCATION[0] = None


def _restored(location: str, tensor: Tensor) -> str:
    """The device a tensor saved on ``location`` is loaded on (``tensor``, on the CPU), as
    ``map_location`` says: a device, a dict from saved to new locations, or a function
    ``f(storage, location)`` that returns a storage where it should go (None: where it was)."""
    where = _MAP_LOCATION[0]
    if where is None:
        return location
    if isinstance(where, dict):
        where = where.get(location, location)
    elif not isinstance(where, (str, backend.device)):
        moved = where(UntypedStorage(tensor), location)  # torch calls what it is given
        return location if moved is None else str(moved.device)
    try:
        return str(backend.device(where))
    except RuntimeError:
        raise RuntimeError("don't know how to restore data location of "
                           f"torch.storage.UntypedStorage (tagged with {where})") from None


@contextlib.contextmanager
def _opened(f: Any, mode: str) -> Iterator[Any]:
    """``f`` as a binary file: a path opened (for writing, in a folder that exists), or a
    file-like object with what ``mode`` needs, refused otherwise in torch's words."""
    if isinstance(f, (str, os.PathLike)):
        folder = os.path.dirname(os.fspath(f))
        if "w" in mode and folder and not os.path.isdir(folder):
            raise RuntimeError(f"Parent directory {folder} does not exist.")
        with open(f, mode) as file:
            yield file
    elif "w" in mode:
        if not hasattr(f, "write"):
            raise AttributeError("expected 'f' to be string, path, or a file-like object with "
                                 "a 'write' attribute")
        yield f
    else:
        if not hasattr(f, "seek"):
            raise AttributeError(
                f"'{type(f).__name__}' object has no attribute 'seek'. You can only torch.load "
                "from a file that is seekable. Please pre-load the data into a buffer like "
                "io.BytesIO and try to load from it instead.")
        yield f
