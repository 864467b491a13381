"""Broadcasting made explicit: ``broadcast_to``, ``broadcast_tensors`` and ``meshgrid``,
each one ``expand`` per tensor (views, ``ExpandBackward0``), as torch composes them.

>>> import minitorch
>>> x, y = minitorch.meshgrid(minitorch.tensor([1, 2]), minitorch.tensor([3, 4, 5]),
...                           indexing="ij")
>>> x
tensor([[1, 1, 1],
        [2, 2, 2]])
>>> y
tensor([[3, 4, 5],
        [3, 4, 5]])
"""

from __future__ import annotations

import itertools
import warnings
from types import SimpleNamespace
from typing import Any

from .. import _args
from .._cpp_print import cpp_str
from .._tensor import Tensor, broadcast_pair
from ._base import check_same_device
from .shape import tensor_list

__all__ = ["METHODS", "broadcast_tensors", "broadcast_to", "meshgrid"]


def broadcast_to(input: Tensor, size: Any) -> Tensor:
    """``input`` seen in the larger shape ``size`` without a copy (``expand``).

    >>> minitorch.broadcast_to(minitorch.tensor([1, 2]), (2, 2))
    tensor([[1, 2],
            [1, 2]])
    """
    _args.tensor_args("broadcast_to", (input, "input", 1))
    return input.expand(_args.int_tuple("broadcast_to", size, "size", 2))


def _broadcast_to_method(self: Tensor, *size: Any) -> Tensor:
    """``broadcast_to``: the method also takes the sizes one by one."""
    return self.expand(_args.sizes("broadcast_to", size, check_negative=False))


def broadcast_tensors(*tensors: Tensor) -> tuple:
    """The tensors expanded to the shape they broadcast to, each a view; as torch's
    ``expand_outplace``, a tensor already of that shape is returned itself, not a view.

    >>> [t.shape for t in minitorch.broadcast_tensors(minitorch.ones(2, 1), minitorch.ones(3))]
    [torch.Size([2, 3]), torch.Size([2, 3])]
    """
    tensors = tensor_list("broadcast_tensors", tensors)
    check_same_device(*tensors)
    shape = SimpleNamespace(shape=tensors[0].shape if tensors else ())
    for t in tensors[1:]:  # torch's order: each tensor against the shape so far
        shape.shape = broadcast_pair(shape, t)
    return tuple(t if t.shape == shape.shape else t.expand(shape.shape) for t in tensors)


_warned = [False]  # torch warns once per process


def meshgrid(*tensors: Any, indexing: str | None = None) -> tuple:
    """Coordinate grids of 1-d tensors: output ``i`` holds ``tensors[i]`` along dim ``i``
    (``indexing="ij"``), or with the first two dims swapped (``"xy"``, as numpy's default).

    >>> [t.shape for t in minitorch.meshgrid(minitorch.ones(2), minitorch.ones(3),
    ...                                      indexing="xy")]
    [torch.Size([3, 2]), torch.Size([3, 2])]
    """
    if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):  # torch's Python wrapper
        tensors = tuple(tensors[0])
    tensors = tensor_list("meshgrid", tensors)
    if indexing is None:
        if not _warned[0]:
            _warned[0] = True
            warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass "
                          "the indexing argument.", UserWarning, stacklevel=2)
        indexing = "ij"
    else:
        _args.string("meshgrid", indexing, "indexing")
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t, u in itertools.pairwise(tensors):  # torch's order: neighbours, indexing, ranks
        if t.dtype is not u.dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
        if t.device != u.device:
            raise RuntimeError("meshgrid expects all tensors to have the same device")
    if indexing not in ("xy", "ij"):
        raise RuntimeError('torch.meshgrid: indexing must be one of "xy" or "ij", but received: '
                           f"{indexing}")
    for t in tensors:
        if t.dim() > 1:
            raise RuntimeError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list but "
                               f"got: {cpp_str(t)}")
    order = list(tensors)
    swap = indexing == "xy" and len(order) >= 2
    if swap:
        order[0], order[1] = order[1], order[0]
    shape = tuple(t.numel() for t in order)
    grids = [t.view(*(-1 if d == i else 1 for d in range(len(order)))).expand(shape)
             for i, t in enumerate(order)]
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


METHODS = {"broadcast_to": _broadcast_to_method}
