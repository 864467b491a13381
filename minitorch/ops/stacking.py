"""Joining tensors the numpy way: ``hstack``, ``vstack`` (``row_stack``), ``dstack`` and
``column_stack``, each ``cat`` of the tensors raised to enough dims (``atleast_1d``,
``atleast_2d``, ``atleast_3d``), as torch composes them (one ``CatBackward0`` node).

>>> import minitorch
>>> minitorch.hstack([minitorch.ones(2), minitorch.zeros(1)])
tensor([1., 1., 0.])
"""

from __future__ import annotations

from typing import Any

from .. import _args, _call_form
from .._tensor import Tensor
from .shape import cat, tensor_list

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "column_stack", "dstack", "hstack",
           "row_stack", "vstack"]


def _each(name: str, fn: Any, tensors: tuple) -> Any:
    """torch's atleast_*d: one tensor gives one tensor, several (or a list) a tuple."""
    if len(tensors) == 1 and isinstance(tensors[0], Tensor):
        return fn(tensors[0])
    items = tensors[0] if len(tensors) == 1 else tensors
    if not isinstance(items, (tuple, list)):
        raise _args.invalid_combination(name, (items,), "Tensor input", "tuple of Tensors tensors")
    return tuple(fn(t) for t in tensor_list(name, items))


def _1d(t: Tensor) -> Tensor:
    return t.reshape(1) if t.dim() == 0 else t


def _2d(t: Tensor) -> Tensor:
    return t.reshape(1, 1) if t.dim() == 0 else t.unsqueeze(0) if t.dim() == 1 else t


def _3d(t: Tensor) -> Tensor:
    if t.dim() == 0:
        return t.reshape(1, 1, 1)
    if t.dim() == 1:
        return t.unsqueeze(0).unsqueeze(-1)
    return t.unsqueeze(-1) if t.dim() == 2 else t


def atleast_1d(*tensors: Any) -> Any:
    """Each tensor with at least one dim (a 0-d one becomes shape ``(1,)``).

    >>> minitorch.atleast_1d(minitorch.tensor(3.))
    tensor([3.])
    """
    return _each("atleast_1d", _1d, tensors)


def atleast_2d(*tensors: Any) -> Any:
    """Each tensor with at least two dims (new dims in front).

    >>> minitorch.atleast_2d(minitorch.ones(2)).shape
    torch.Size([1, 2])
    """
    return _each("atleast_2d", _2d, tensors)


def atleast_3d(*tensors: Any) -> Any:
    """Each tensor with at least three dims (``(n,)`` becomes ``(1, n, 1)``).

    >>> minitorch.atleast_3d(minitorch.ones(2)).shape
    torch.Size([1, 2, 1])
    """
    return _each("atleast_3d", _3d, tensors)


def _raised(fn: str, tensors: Any, raise_to: Any) -> list:
    tensors = tensor_list(fn, tensors)
    if not tensors:
        raise RuntimeError(f"{fn} expects a non-empty TensorList")
    return [raise_to(t) for t in tensors]


def hstack(tensors: Any) -> Tensor:
    """Join along the columns (the first dim of 1-d tensors, else the second).

    >>> minitorch.hstack([minitorch.ones(2, 1), minitorch.zeros(2, 1)]).shape
    torch.Size([2, 2])
    """
    parts = _raised("hstack", tensors, _1d)
    return cat(parts, 0 if parts[0].dim() == 1 else 1)


def vstack(tensors: Any) -> Tensor:
    """Join along the rows (1-d tensors become rows).

    >>> minitorch.vstack([minitorch.ones(2), minitorch.zeros(2)]).shape
    torch.Size([2, 2])
    """
    return cat(_raised("vstack", tensors, _2d), 0)


@_call_form.alias_of("vstack")  # torch's parser names row_stack, its kernel vstack
def row_stack(tensors: Any) -> Tensor:
    """``vstack``'s other name.

    >>> minitorch.row_stack([minitorch.ones(2), minitorch.zeros(2)]).shape
    torch.Size([2, 2])
    """
    return cat(_raised("vstack", tensors, _2d), 0)  # torch's messages name vstack


def dstack(tensors: Any) -> Tensor:
    """Join along the third dim (depth).

    >>> minitorch.dstack([minitorch.ones(2), minitorch.zeros(2)]).shape
    torch.Size([1, 2, 2])
    """
    return cat(_raised("dstack", tensors, _3d), 2)


def column_stack(tensors: Any) -> Tensor:
    """Join as columns: 0-d and 1-d tensors become columns, others join along dim 1.

    >>> minitorch.column_stack([minitorch.ones(2), minitorch.zeros(2)]).shape
    torch.Size([2, 2])
    """
    return cat(_raised("column_stack", tensors,
                       lambda t: t.reshape(t.numel(), 1) if t.dim() <= 1 else t), 1)
