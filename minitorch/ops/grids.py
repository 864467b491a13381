"""Tables built from vectors, each torch's composition of existing ops (so its graph and
gradient are torch's): ``cartesian_prod`` (every tuple of one element from each vector, a
``meshgrid`` flattened and stacked), ``combinations`` (the increasing tuples of one vector's
elements, picked from a meshgrid by a mask) and ``vander`` (the columns of powers).

>>> import minitorch
>>> minitorch.cartesian_prod(minitorch.tensor([1, 2]), minitorch.tensor([3, 4]))
tensor([[1, 3],
        [1, 4],
        [2, 3],
        [2, 4]])
>>> minitorch.vander(minitorch.tensor([1., 2., 3.]))
tensor([[1., 1., 1.],
        [4., 2., 1.],
        [9., 3., 1.]])
"""

from __future__ import annotations

import itertools
from typing import Any

from .. import _args
from .._dtype import int64, promote_types
from .._tensor import Tensor
from .broadcast import meshgrid
from .masked import masked_select
from .scan import cumprod, flip
from .shape import stack, tensor_list

__all__ = ["cartesian_prod", "combinations", "vander"]


def _vector(input: Tensor) -> None:
    if input.dim() != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(input.shape)}")


def cartesian_prod(*tensors: Tensor) -> Tensor:
    """Every tuple taking one element of each vector, in order, as the rows of a matrix (a
    single vector comes back as it is).

    >>> minitorch.cartesian_prod(minitorch.tensor([1, 2]), minitorch.tensor([5])).tolist()
    [[1, 5], [2, 5]]
    """
    tensors = tensor_list("cartesian_prod", tensors)
    for t in tensors:
        _vector(t)
    if len(tensors) == 1:
        return tensors[0]
    return stack([grid.flatten() for grid in meshgrid(*tensors, indexing="ij")], 1)


def combinations(input: Tensor, r: int = 2, with_replacement: bool = False) -> Tensor:
    """The ``r``-tuples of ``input``'s elements taken in order (``i < j < ...``; ``i <= j``
    with ``with_replacement``), as the rows of a matrix (Python's
    ``itertools.combinations``).

    >>> minitorch.combinations(minitorch.tensor([1, 2, 3])).tolist()
    [[1, 2], [1, 3], [2, 3]]
    """
    _args.tensor_args("combinations", (input, "input", 1))
    (r,) = _args.integers("combinations", (r, "r", 2))
    with_replacement = _args.flag("combinations", with_replacement, "with_replacement", 3)
    _vector(input)
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return input.new_empty(0)
    _check_grid_memory(r)
    n = input.shape[0]
    _args.check_numel((n,) * r)  # torch's grid of n ** r elements
    if not n or (r > n and not with_replacement):  # no tuple: r empty columns (numpy's
        return stack([input[:0]] * r, 1)  # grid would have r dims, at most 64)
    from .._creation import arange

    positions = meshgrid(*[arange(input.shape[0], device=input.device)] * r, indexing="ij")
    mask = positions[0] == positions[0]
    for earlier, later in itertools.pairwise(positions):
        mask = mask * (earlier <= later if with_replacement else earlier < later)
    return stack([masked_select(grid, mask) for grid in meshgrid(*[input] * r, indexing="ij")],
                 1)


def _check_grid_memory(r: int) -> None:
    """torch's refusals of ``r`` grids of ``r`` dims each that the machine's memory cannot
    hold: the list of their tensors, else their sizes and strides (its allocator's words)."""
    if r * 32 > _args.ALLOC_LIMIT:
        raise RuntimeError("std::bad_alloc")
    if r * r * 16 > _args.ALLOC_LIMIT:
        raise RuntimeError("Could not allocate memory to change Tensor SizesAndStrides!")


def vander(x: Tensor, N: Any = None, increasing: bool = False) -> Tensor:
    """The Vandermonde matrix of the vector ``x``: column ``j`` holds ``x ** (N - 1 - j)``
    (``x ** j`` with ``increasing``); ``N`` columns, ``len(x)`` by default. Integer
    vectors give int64.

    >>> minitorch.vander(minitorch.tensor([2, 3]), 3, increasing=True)
    tensor([[1, 2, 4],
            [1, 3, 9]])
    """
    _args.tensor_args("vander", (x, "x", 1))
    n, increasing = _args.parsed("vander", ("int", _args.OMITTED if N is None else N, "N", 2),
                                 ("bool", increasing, "increasing", 3))
    n = None if n is _args.OMITTED else n
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if n is None else n
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    result = x.new_empty((x.shape[0], n), dtype=promote_types(x.dtype, int64))
    if n:  # torch's composition: ones, then the running product written in place
        result.fill_(1)
        if n > 1:
            result[:, 1:].copy_(x.unsqueeze(1))
            result[:, 1:].copy_(cumprod(result[:, 1:], 1))
    return result if increasing else flip(result, 1)
