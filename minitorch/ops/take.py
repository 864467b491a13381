"""``take_along_dim``: numpy's ``take_along_axis``, composed as torch composes it: the input
and the indices broadcast to each other except along ``dim``, then one ``gather``
(``GatherBackward0``); with no ``dim``, a gather from the flattened input.

>>> import minitorch
>>> x = minitorch.tensor([[10., 30., 20.], [60., 40., 50.]])
>>> minitorch.take_along_dim(x, x.argsort(dim=1), dim=1)
tensor([[10., 20., 30.],
        [40., 50., 60.]])
"""

from __future__ import annotations

from typing import Any

from .. import _args
from .._tensor import Tensor, broadcast_shapes
from .gather import gather

__all__ = ["take_along_dim"]


def take_along_dim(input: Tensor, indices: Tensor, dim: int | None = None) -> Tensor:
    """The elements of ``input`` at ``indices`` along ``dim`` (of the flattened input when
    ``dim`` is None).

    >>> minitorch.take_along_dim(minitorch.tensor([[1., 2.], [3., 4.]]), minitorch.tensor([3, 0]))
    tensor([4., 1.])
    """
    _args.tensor_args("take_along_dim", (input, "input", 1), (indices, "indices", 2))
    if dim is None:
        return gather(input.view(-1), 0, indices.view(-1))
    _args.integer("take_along_dim", dim, "dim", None)
    if input.dim() != indices.dim():
        raise RuntimeError("torch.take_along_dim(): input and indices should have the same "
                           f"number of dimensions, but got {input.dim()} dimensions for input, "
                           f"and {indices.dim()} dimensions for indices")
    if indices.dtype.name != "int64":
        raise RuntimeError("torch.take_along_dim(): dtype of indices should be Long but got "
                           f"{_args.legacy(indices.dtype)}")
    d = _args.dim("take_along_dim", dim, input.dim())
    if not input.dim():  # torch reads the size at the (wrapped) dim of a 0-d tensor
        raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
    indices = indices.expand(*_sizes_except(input.shape, indices.shape, d))
    input = input.expand(*_sizes_except(indices.shape, input.shape, d))
    # torch 2.13 wraps each index into the dim (Python's modulo: -6 and 9 of 5 are 4), so
    # none is out of range; a dim of size 0 is an integer division by zero
    return gather(input, d, indices.remainder(input.shape[d]))


def _sizes_except(other: Any, own: Any, d: int) -> tuple:
    """The shape ``own`` and ``other`` broadcast to, ``other``'s size at ``d`` taken as
    ``own``'s."""
    sizes = list(other)
    sizes[d] = own[d]
    return tuple(broadcast_shapes(tuple(sizes), tuple(own)))
