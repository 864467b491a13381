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

__all__ = ["arange", "as_array", "empty", "eye", "from_numpy", "full", "manual_seed", "ones",
           "ones_like", "rand", "randn", "tensor", "zeros", "zeros_like"]


def _infer(values: np.ndarray) -> D.dtype:
    if values.dtype.kind == "f":
        return D.get_default_dtype()
    return D.from_array_dtype(values.dtype)


def as_array(data: Any, dtype: D.dtype | None) -> Any:
    """An array for ``tensor(data, dtype)``: Python data gets torch's default dtypes."""
    if isinstance(data, Tensor):
        data = data._data
        return data.astype(dtype.np) if dtype is not None else data.copy()
    if hasattr(data, "__array_namespace__") and not isinstance(data, np.ndarray):
        xp = backend.namespace(data)
        target = dtype or D.from_array_dtype(data.dtype)
        return xp.astype(data, getattr(xp, target.name))
    if isinstance(data, np.ndarray):
        target = dtype or D.from_array_dtype(data.dtype)
        return np.array(data, dtype=target.np)
    values = np.array(_unwrap(data))
    if values.dtype == object:
        raise TypeError(f"Could not infer dtype of {type(data).__name__}")
    return values.astype((dtype or _infer(values)).np)


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
    _check_device(device)
    return _leaf(as_array(data, dtype), requires_grad)


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor sharing memory with a numpy array.

    >>> minitorch.from_numpy(np.zeros(2)).dtype
    minitorch.float64
    """
    D.from_array_dtype(array.dtype)
    return Tensor._make(array)


def _size(size: tuple) -> tuple:
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    return tuple(int(s) for s in size)


def _check_device(device: Any) -> None:
    if device not in (None, "cpu"):
        raise RuntimeError(f"minitorch has no device {device!r}; only 'cpu' is available")


def _filled(fill: Any, size: tuple, dtype: D.dtype | None, requires_grad: bool,
            device: Any = None) -> Tensor:
    _check_device(device)
    dt = dtype or D.get_default_dtype()
    return _leaf(np.full(_size(size), fill, dtype=dt.np), requires_grad)


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


def zeros_like(t: Tensor, *, dtype: D.dtype | None = None, requires_grad: bool = False) -> Tensor:
    """Zeros with the shape (and dtype) of ``t``.

    >>> minitorch.zeros_like(minitorch.ones(2))
    tensor([0., 0.])
    """
    return zeros(tuple(t.shape), dtype=dtype or t.dtype, requires_grad=requires_grad)


def ones_like(t: Tensor, *, dtype: D.dtype | None = None, requires_grad: bool = False) -> Tensor:
    """Ones with the shape (and dtype) of ``t``.

    >>> minitorch.ones_like(minitorch.zeros(2))
    tensor([1., 1.])
    """
    return ones(tuple(t.shape), dtype=dtype or t.dtype, requires_grad=requires_grad)


def _random(sample: Any, size: tuple, dtype: D.dtype | None, requires_grad: bool) -> Tensor:
    dt = dtype or D.get_default_dtype()
    if not dt.is_floating_point:
        raise RuntimeError(f'"check_uniform_bounds" not implemented for \'{dt.name}\'')
    return _leaf(sample(_size(size)).astype(dt.np), requires_grad)


def rand(*size: Any, dtype: D.dtype | None = None, device: Any = None,
         requires_grad: bool = False) -> Tensor:
    """Uniform samples from [0, 1).

    >>> minitorch.rand(2, 3).shape
    minitorch.Size([2, 3])
    """
    _check_device(device)
    return _random(backend.default_rng().random, size, dtype, requires_grad)


def randn(*size: Any, dtype: D.dtype | None = None, device: Any = None,
          requires_grad: bool = False) -> Tensor:
    """Standard normal samples.

    >>> minitorch.randn(4).shape
    minitorch.Size([4])
    """
    _check_device(device)
    return _random(backend.default_rng().standard_normal, size, dtype, requires_grad)


def arange(start: Any, end: Any = None, step: Any = 1, *, dtype: D.dtype | None = None,
           requires_grad: bool = False) -> Tensor:
    """``start, start+step, ...`` below ``end``; int64 for int arguments, else float32.

    >>> minitorch.arange(3)
    tensor([0, 1, 2])
    """
    if end is None:
        start, end = 0, start
    dt = dtype or D.result_type(start, end, step)
    return _leaf(np.arange(start, end, step).astype(dt.np), requires_grad)


def eye(n: int, m: int | None = None, *, dtype: D.dtype | None = None,
        requires_grad: bool = False) -> Tensor:
    """The identity matrix.

    >>> minitorch.eye(2)
    tensor([[1., 0.],
            [0., 1.]])
    """
    return _leaf(np.eye(n, m, dtype=(dtype or D.get_default_dtype()).np), requires_grad)


def manual_seed(seed: int) -> None:
    """Seed the random numbers of ``rand``, ``randn``, ``nn`` initialisation and dropout.

    >>> minitorch.manual_seed(0)
    """
    backend.seed(seed)
