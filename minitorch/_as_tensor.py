"""``as_tensor`` and ``asarray``: a tensor over existing data that shares its memory where
the dtype and device allow, as torch's do (``tensor`` always copies).

>>> import numpy as np
>>> a = np.zeros(2)
>>> t = minitorch.as_tensor(a); a[0] = 5.0; t
tensor([5., 0.], dtype=torch.float64)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _args, backend
from . import _dtype as D
from ._creation import from_numpy, frombuffer, tensor, warn_if_read_only
from ._tensor import Tensor
from ._warn_once import warn_once

__all__ = ["as_tensor", "asarray"]


def _shared(data: Any, dtype: D.dtype | None, device: backend.device | None) -> Any:
    """A tensor sharing the memory of the array ``data`` (a numpy array, a CuPy array, ...)
    as ``dtype`` on ``device``, or None where that needs a copy."""
    if isinstance(data, np.ndarray):
        same = dtype is None or dtype.name == data.dtype.name
        return from_numpy(data) if same and device in (None, backend.CPU) else None
    if isinstance(data, np.generic) or not hasattr(data, "__array_namespace__"):
        return None
    if dtype not in (None, D.from_array_dtype(data.dtype)) or \
            device not in (None, backend.device_of(data)):
        return None
    return Tensor._make(data)


def _target_device(device: Any) -> backend.device | None:
    return backend.as_device(device) or backend.default_device


def as_tensor(data: Any, *, dtype: D.dtype | None = None, device: Any = None) -> Tensor:
    """``data`` as a tensor without a copy where it can be: a tensor itself (or converted,
    recorded as ``to``), a numpy array of the same dtype sharing its memory; anything else
    copied as ``tensor`` copies it.

    >>> x = minitorch.ones(2); minitorch.as_tensor(x) is x
    True
    >>> minitorch.as_tensor([1, 2], dtype=minitorch.float64)
    tensor([1., 2.], dtype=torch.float64)
    """
    dtype = _args.dtype("as_tensor", dtype)
    if isinstance(data, Tensor):
        return data.to(device=backend.as_device(device), dtype=dtype)
    shared = _shared(data, dtype, _target_device(device))
    return shared if shared is not None else tensor(data, dtype=dtype, device=device)


def asarray(obj: Any, *, dtype: D.dtype | None = None, device: Any = None, copy: Any = None,
            requires_grad: Any = _args.OMITTED) -> Tensor:
    """``obj`` as a tensor, sharing its memory unless ``copy=True`` (``copy=False``
    refuses to copy); a tensor keeps its graph (and, unless ``requires_grad`` is given, its
    ``requires_grad``, with torch's warning, once).

    >>> a = np.ones(2); minitorch.asarray(a).data_ptr() == a.ctypes.data
    True
    >>> minitorch.asarray([1, 2], dtype=minitorch.float32)
    tensor([1., 2.])
    """
    dtype, copy, flag = _args.parsed(
        "asarray", ("dtype", dtype, "dtype", None),
        ("flag", _args.OMITTED if copy is None else copy, "copy", None),
        ("flag", requires_grad, "requires_grad", None))
    copy = None if copy is _args.OMITTED else copy
    target = backend.as_device(device)
    if isinstance(obj, Tensor):
        result = _converted(obj, dtype, target, copy)
    else:
        result = _new_array(obj, dtype, device, copy)
    if requires_grad is _args.OMITTED:  # (then obj's, which an integer copy cannot keep)
        if isinstance(obj, Tensor) and obj.requires_grad:  # (a copy too: torch warns as it
            warn_once("torch.asarray: unspecified requires_grad now defaults to "  # reads it)
                      "obj.requires_grad instead of False. Pass requires_grad=False explicitly "
                      "to get the old behavior and silence this warning.")
        if isinstance(obj, Tensor) and obj.requires_grad and not result.dtype.is_floating_point:
            raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                               "gradients")
        return result
    if result.requires_grad == flag:
        return result
    if result.grad_fn is not None:
        return result.detach()
    if flag and not result.dtype.is_floating_point:
        raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                           "gradients")
    return result._set_requires_grad(flag)  # the tensor itself, where that is what is returned


def _converted(obj: Tensor, dtype: D.dtype | None, device: backend.device | None,
               copy: bool | None) -> Tensor:
    """The tensor ``obj`` as ``dtype`` on ``device``: itself, or a recorded copy."""
    if copy is False:
        _check_alias(obj.dtype, obj.device, dtype, device)
    moved = obj.to(device=device, dtype=dtype)
    return moved.clone() if copy and moved is obj else moved


def _new_array(obj: Any, dtype: D.dtype | None, device: Any, copy: bool | None) -> Tensor:
    """A tensor over non-tensor data: shared with an array where dtype and device allow."""
    if _is_buffer(obj):  # torch reads its raw bytes as the dtype, sharing a writable one
        read = frombuffer(obj, dtype=dtype or D.get_default_dtype())
        return _converted(read, None, _target_device(device), copy)
    if copy is False:
        if isinstance(obj, np.generic):
            raise RuntimeError("can't alias NumPy scalars. Either remove copy=False or "
                               "transform it in a ndarray. ")
        if not hasattr(obj, "__array_namespace__"):
            raise ValueError("can't alias arbitrary sequence into a tensor.")
    target = _target_device(device)
    if isinstance(obj, np.generic) or (isinstance(obj, np.ndarray) and not obj.ndim):
        return _numpy_scalar(np.asarray(obj), dtype, device, target, copy)
    shared = None if copy else _shared(obj, dtype, target)
    if shared is not None:
        return shared
    if copy is False:
        _check_alias(D.from_array_dtype(obj.dtype), backend.device_of(obj), dtype, target)
    return tensor(obj, dtype=dtype, device=device)


def _numpy_scalar(array: np.ndarray, dtype: D.dtype | None, device: Any,
                  target: backend.device | None, copy: bool | None) -> Tensor:
    """torch's reading of a numpy scalar or 0-d array (both numpy's ``PyArray_CheckScalar``):
    always a copy, cast as a 0-d array (where ``tensor()`` reads a Python number); with
    ``copy`` given, that copy is then checked as an alias, as ``copy=False`` checks one."""
    have = D.from_array_dtype(array.dtype)
    if copy is not None or (dtype in (None, have) and target in (None, backend.CPU)):
        _check_alias(have, target or backend.CPU, dtype, target)
        warn_if_read_only(array)  # (where torch's path keeps the array's data)
    return tensor(array, dtype=dtype, device=device)


def _check_alias(have: D.dtype, where: backend.device, dtype: D.dtype | None,
                 device: backend.device | None) -> None:
    """torch's refusal of ``copy=False`` where the dtype or the device differs."""
    if device is not None and device != where:
        raise ValueError(f"can't alias tensor from device '{where}' to '{device}'.")
    if dtype is not None and dtype is not have:
        raise ValueError(f"can't alias tensor with dtype '{_args.legacy(have)}' into dtype "
                         f"'{_args.legacy(dtype)}'.")


def _is_buffer(obj: Any) -> bool:
    """Python's buffers (bytes, bytearray, array.array, memoryview), which torch reads as raw
    memory; numpy arrays and scalars are read as arrays."""
    if isinstance(obj, (np.ndarray, np.generic)) or hasattr(obj, "__array_namespace__"):
        return False
    try:
        memoryview(obj)
    except TypeError:
        return False
    return True
