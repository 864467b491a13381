"""Factories: ``tensor``, ``zeros``, ``ones``, ``full``, ``rand``, ``randn``, ``arange``,
``eye`` and the ``*_like`` variants, with torch's default dtypes.

>>> import minitorch
>>> minitorch.tensor([1, 2]).dtype, minitorch.tensor([1., 2.]).dtype, minitorch.arange(3).dtype
(minitorch.int64, minitorch.float32, minitorch.int64)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _dtype as D
from . import backend
from ._tensor import Tensor

__all__ = ["arange", "as_array", "empty", "eye", "from_numpy", "full", "ones",
           "ones_like", "rand", "randn", "tensor", "zeros", "zeros_like"]


def _infer(values: np.ndarray) -> D.dtype:
    if values.dtype.kind == "f":
        return D.get_default_dtype()
    return D.from_array_dtype(values.dtype)


def as_array(data: Any, dtype: D.dtype | None, device: Any = None) -> Any:
    """An array for ``tensor(data, dtype, device)``: Python data gets torch's default dtypes;
    arrays and tensors keep their device unless ``device`` is given."""
    dev = backend.as_device(device) or backend.default_device
    if isinstance(data, Tensor):
        data = data._data
    if hasattr(data, "__array_namespace__") and not isinstance(data, (np.ndarray, np.generic)):
        xp = backend.namespace(data)
        target = dtype or D.from_array_dtype(data.dtype)
        array = xp.astype(data, backend.array_dtype(xp, target.name), copy=True)
        return array if dev is None else backend.to_device(array, dev)
    if isinstance(data, (np.ndarray, np.generic)):
        values = np.array(data, dtype=(dtype or D.from_array_dtype(data.dtype)).np)
    else:
        values = np.array(_unwrap(data))
        if values.dtype == object:
            raise TypeError(f"Could not infer dtype of {type(data).__name__}")
        values = values.astype((dtype or _infer(values)).np)
    return backend.from_numpy(values, dev)


def _unwrap(data: Any) -> Any:
    if isinstance(data, Tensor):
        return data.item() if data.dim() == 0 else data.tolist()
    if isinstance(data, (list, tuple)):
        return [_unwrap(d) for d in data]
    return data


def _leaf(array: Any, requires_grad: bool) -> Tensor:
    t = Tensor._make(array)
    if requires_grad:
        if not t.dtype.is_floating_point:
            raise RuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients")
        t.requires_grad_(True)
    return t


def tensor(data: Any, dtype: D.dtype | None = None, device: Any = None,
           requires_grad: bool = False) -> Tensor:
    """A new leaf tensor holding a copy of ``data`` (numbers, nested lists, arrays).

    >>> minitorch.tensor([[1., 2.]], requires_grad=True)
    tensor([[1., 2.]], requires_grad=True)
    """
    return _leaf(as_array(data, dtype, device), requires_grad)


def from_numpy(array: np.ndarray) -> Tensor:
    """A CPU tensor sharing memory with a numpy array.

    >>> minitorch.from_numpy(np.zeros(2)).dtype
    minitorch.float64
    """
    D.from_array_dtype(array.dtype)
    return Tensor._make(backend.from_numpy(array, None))


def _size(size: tuple) -> tuple:
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    return tuple(int(s) for s in size)


def _created(make: Any, device: Any) -> Any:
    """``make(xp)`` with the namespace of ``device``, the array placed on that device."""
    dev = backend.as_device(device) or backend.default_device
    array = make(backend.factory_namespace(dev))
    return array if dev is None or dev.type == "cpu" else backend.to_device(array, dev)


def _filled(fill: Any, size: tuple, dtype: D.dtype | None, requires_grad: bool,
            device: Any = None) -> Tensor:
    name = (dtype or D.get_default_dtype()).name
    array = _created(lambda xp: xp.full(_size(size), fill, dtype=backend.array_dtype(xp, name)),
                     device)
    return _leaf(array, requires_grad)


def zeros(*size: Any, dtype: D.dtype | None = None, device: Any = None,
          requires_grad: bool = False) -> Tensor:
    """A tensor of zeros (float32 unless ``dtype``).

    >>> minitorch.zeros(2)
    tensor([0., 0.])
    """
    return _filled(0, size, dtype, requires_grad, device)


def ones(*size: Any, dtype: D.dtype | None = None, device: Any = None,
         requires_grad: bool = False) -> Tensor:
    """A tensor of ones (float32 unless ``dtype``).

    >>> minitorch.ones(1, 2)
    tensor([[1., 1.]])
    """
    return _filled(1, size, dtype, requires_grad, device)


empty = zeros


def full(size: Any, fill_value: Any, *, dtype: D.dtype | None = None, device: Any = None,
         requires_grad: bool = False) -> Tensor:
    """A tensor filled with ``fill_value``; its dtype follows the value like torch.

    >>> minitorch.full((2,), 7)
    tensor([7, 7])
    """
    if dtype is None:
        dtype = D.result_type(fill_value)
    return _filled(fill_value, (tuple(size),), dtype, requires_grad, device)


def zeros_like(t: Tensor, *, dtype: D.dtype | None = None, device: Any = None,
               requires_grad: bool = False) -> Tensor:
    """Zeros with the shape (and dtype, device) of ``t``.

    >>> minitorch.zeros_like(minitorch.ones(2))
    tensor([0., 0.])
    """
    return zeros(tuple(t.shape), dtype=dtype or t.dtype, device=device or t.device,
                 requires_grad=requires_grad)


def ones_like(t: Tensor, *, dtype: D.dtype | None = None, device: Any = None,
              requires_grad: bool = False) -> Tensor:
    """Ones with the shape (and dtype, device) of ``t``.

    >>> minitorch.ones_like(minitorch.zeros(2))
    tensor([1., 1.])
    """
    return ones(tuple(t.shape), dtype=dtype or t.dtype, device=device or t.device,
                requires_grad=requires_grad)


def _random(kind: str, size: tuple, dtype: D.dtype | None, requires_grad: bool,
            device: Any) -> Tensor:
    dt = dtype or D.get_default_dtype()
    if not dt.is_floating_point:
        raise RuntimeError(f'"check_uniform_bounds" not implemented for \'{dt.name}\'')
    array = _created(lambda xp: backend.random(xp, kind, _size(size), dt.name), device)
    return _leaf(array, requires_grad)


def rand(*size: Any, dtype: D.dtype | None = None, device: Any = None,
         requires_grad: bool = False) -> Tensor:
    """Uniform samples from [0, 1).

    >>> minitorch.rand(2, 3).shape
    minitorch.Size([2, 3])
    """
    return _random("uniform", size, dtype, requires_grad, device)


def randn(*size: Any, dtype: D.dtype | None = None, device: Any = None,
          requires_grad: bool = False) -> Tensor:
    """Standard normal samples.

    >>> minitorch.randn(4).shape
    minitorch.Size([4])
    """
    return _random("normal", size, dtype, requires_grad, device)


def arange(start: Any, end: Any = None, step: Any = 1, *, dtype: D.dtype | None = None,
           device: Any = None, requires_grad: bool = False) -> Tensor:
    """``start, start+step, ...`` below ``end``; int64 for int arguments, else float32.

    >>> minitorch.arange(3)
    tensor([0, 1, 2])
    """
    if end is None:
        start, end = 0, start
    name = (dtype or D.result_type(start, end, step)).name
    array = _created(lambda xp: xp.astype(xp.arange(start, end, step),
                                          backend.array_dtype(xp, name)), device)
    return _leaf(array, requires_grad)


def eye(n: int, m: int | None = None, *, dtype: D.dtype | None = None, device: Any = None,
        requires_grad: bool = False) -> Tensor:
    """The identity matrix.

    >>> minitorch.eye(2)
    tensor([[1., 0.],
            [0., 1.]])
    """
    name = (dtype or D.get_default_dtype()).name
    array = _created(lambda xp: xp.eye(n, m, dtype=backend.array_dtype(xp, name)), device)
    return _leaf(array, requires_grad)
