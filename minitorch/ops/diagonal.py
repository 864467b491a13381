"""Diagonals: ``diagonal`` (a view, DiagonalBackward0, writes reach its base), ``diag``
(a vector's matrix, or a matrix's diagonal as a copy) and ``diag_embed``.

A diagonal's gradient is zeros with the gradient on the diagonal (``diagonal_backward``),
and the gradient of ``diag_embed`` is the diagonal of its gradient: the two are each
other's backward.

>>> import minitorch
>>> x = minitorch.arange(9.).reshape(3, 3).requires_grad_()
>>> x.diagonal()
tensor([0., 4., 8.], grad_fn=<DiagonalBackward0>)
>>> minitorch.diag(minitorch.tensor([1., 2.]))
tensor([[1., 0.],
        [0., 2.]])
"""

from __future__ import annotations

from typing import Any

from .. import _args, backend
from .._tensor import Tensor
from ._base import Op, wrap

__all__ = ["METHODS", "DiagEmbed", "Diagonal", "DiagonalBackward", "DiagonalCopy", "diag",
           "diag_embed", "diagonal"]


class Diagonal(Op):
    """``diagonal``: a view of the diagonal ``offset`` over ``dim1``, ``dim2``, last."""

    node_name = "DiagonalBackward0"
    _profile_name = "aten::diagonal"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, offset: int, dim1: int, dim2: int) -> Tensor:
        ctx.shape, ctx.where = a.shape, (offset, dim1, dim2)
        return a._view(backend.diagonal(a._xp, a._data, offset, dim1, dim2))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        offset, dim1, dim2 = ctx.where
        return (DiagonalBackward.apply(g, shape=ctx.shape, offset=offset, dim1=dim1,
                                       dim2=dim2),)


class DiagonalCopy(Diagonal):
    """``diag`` of a matrix: its diagonal as a new tensor (torch's ``diagonal_copy``)."""

    node_name = "DiagonalBackward0_copy"
    _profile_name = "aten::diag"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, offset: int, dim1: int, dim2: int) -> Tensor:
        ctx.shape, ctx.where = a.shape, (offset, dim1, dim2)
        view = backend.diagonal(a._xp, a._data, offset, dim1, dim2)
        return wrap(a._xp.asarray(view, copy=True))


class DiagEmbed(Op):
    """Zeros of ``shape`` with ``a``'s last dim on the diagonal ``offset`` over ``dim1``,
    ``dim2``; backward takes that diagonal of the gradient."""

    node_name = "DiagEmbedBackward0"
    _profile_name = "aten::diag_embed"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, shape: tuple, offset: int, dim1: int,
                dim2: int) -> Tensor:
        ctx.where = (offset, dim1, dim2)
        return wrap(backend.embed_diagonal(a._xp, a._data, shape, offset, dim1, dim2))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        offset, dim1, dim2 = ctx.where
        return (Diagonal.apply(g, offset=offset, dim1=dim1, dim2=dim2),)


class DiagonalBackward(DiagEmbed):
    """The gradient of ``diagonal`` (torch's ``diagonal_backward``)."""

    node_name = "DiagonalBackwardBackward0"
    _profile_name = "aten::diagonal_backward"


def _dims(fn: str, ndim: int, dim1: int, dim2: int) -> tuple[int, int]:
    d1, d2 = _args.wrap_dim(dim1, ndim), _args.wrap_dim(dim2, ndim)
    if d1 == d2:
        raise RuntimeError(f"{fn} dimensions cannot be identical {dim1}, {dim2}")
    return d1, d2


def diagonal(input: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """The diagonal ``offset`` (above the main one if positive) over ``dim1`` and ``dim2``,
    as the last dim: a view, so writes to it reach ``input``.

    >>> minitorch.diagonal(minitorch.arange(6.).reshape(2, 3), 1)
    tensor([1., 5.])
    """
    _args.tensor_args("diagonal", (input, "input", 1))
    return _diagonal(input, offset, dim1, dim2, first=2)


def _diagonal(input: Tensor, offset: Any, dim1: Any, dim2: Any, first: int) -> Tensor:
    offset, dim1, dim2 = _args.integers("diagonal", (offset, "offset", first),
                                        (dim1, "dim1", first + 1), (dim2, "dim2", first + 2))
    d1, d2 = _dims("diagonal", input.dim(), dim1, dim2)
    return Diagonal.apply(input, offset=offset, dim1=d1, dim2=d2)


def _diagonal_method(self: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    return _diagonal(self, offset, dim1, dim2, first=1)


def diag_embed(input: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """A tensor one dim larger whose diagonals (``offset`` over ``dim1``, ``dim2``) hold
    ``input``'s last dim, zeros elsewhere.

    >>> minitorch.diag_embed(minitorch.ones(2, 2)).shape
    torch.Size([2, 2, 2])
    """
    _args.tensor_args("diag_embed", (input, "input", 1))
    offset, dim1, dim2 = _args.integers("diag_embed", (offset, "offset", 2), (dim1, "dim1", 3),
                                        (dim2, "dim2", 4))
    d1, d2 = _dims("diagonal", input.dim() + 1, dim1, dim2)
    n = (input.shape[-1] if input.dim() else 1) + abs(offset)
    rest = iter(input.shape[:-1])
    shape = tuple(n if d in (d1, d2) else next(rest) for d in range(input.dim() + 1))
    source = input.reshape(1) if input.dim() == 0 else input
    return DiagEmbed.apply(source, shape=shape, offset=offset, dim1=d1, dim2=d2)


def diag(input: Tensor, diagonal: int = 0) -> Tensor:
    """A vector's square matrix with it on the diagonal ``diagonal``, or a matrix's
    diagonal ``diagonal`` as a new vector.

    >>> minitorch.diag(minitorch.tensor([[1, 2], [3, 4]]))
    tensor([1, 4])
    """
    _args.tensor_args("diag", (input, "input", 1))
    (offset,) = _args.integers("diag", (diagonal, "diagonal", 2))
    if input.dim() == 1:
        n = input.shape[0] + abs(offset)
        return DiagEmbed.apply(input, shape=(n, n), offset=offset, dim1=0, dim2=1)
    if input.dim() != 2:
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {input.dim()}D")
    return DiagonalCopy.apply(input, offset=offset, dim1=0, dim2=1)


_diagonal_method.__name__, _diagonal_method.__doc__ = "diagonal", diagonal.__doc__
METHODS = {"diagonal": _diagonal_method, "diag": diag, "diag_embed": diag_embed}
