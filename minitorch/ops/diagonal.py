"""Diagonals: ``diagonal`` (a view, DiagonalBackward0, writes reach its base), ``diag``
(a vector's matrix, or a matrix's diagonal as a copy), ``diag_embed``, ``diagflat``,
``trace`` (the sum of the diagonal, TraceBackward0) and ``block_diag`` (matrices along the
diagonal of a larger one, BlockDiagBackward0).

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
from ._base import Op, check_same_device, wrap

__all__ = ["METHODS", "BlockDiag", "DiagEmbed", "Diagonal", "DiagonalBackward", "DiagonalCopy",
           "Trace", "block_diag", "diag", "diag_embed", "diagflat", "diagonal", "trace"]


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
        _args.check_alloc(shape, a.dtype.itemsize)  # (diag's matrix, diag_embed's tensor)
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


def diagflat(input: Tensor, offset: int = 0) -> Tensor:
    """The square matrix with ``input``'s elements (flattened) on the diagonal ``offset``.

    >>> minitorch.diagflat(minitorch.tensor([[1, 2]]))
    tensor([[1, 0],
            [0, 2]])
    """
    _args.tensor_args("diagflat", (input, "input", 1))
    (offset,) = _args.integers("diagflat", (offset, "offset", 2))
    return diag(input.contiguous().view(-1), offset)  # torch's composition


class Trace(Op):
    """The sum of a matrix's main diagonal, added up in the accumulating dtype (float64 for
    float32, as torch's CPU loop); its gradient is ``grad`` on that diagonal."""

    node_name = "TraceBackward0"
    _profile_name = "aten::trace"

    @staticmethod
    def forward(ctx: Any, a: Tensor) -> Tensor:
        ctx.shape = a.shape
        xp, data = a._xp, a._data
        values = backend.diagonal(xp, data, 0, 0, 1)
        if a.dtype.is_floating_point:
            wide = xp.float64 if a.dtype.name == "float32" else data.dtype
            return wrap(xp.astype(xp.sum(xp.astype(values, wide)), data.dtype))
        return wrap(xp.sum(xp.astype(values, xp.int64)))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        n = min(ctx.shape)
        return (DiagonalBackward.apply(g.expand(n), shape=ctx.shape, offset=0, dim1=0, dim2=1),)


def trace(input: Tensor) -> Tensor:
    """The sum of the main diagonal of a matrix (an integer matrix's as int64).

    >>> minitorch.trace(minitorch.tensor([[1, 2], [3, 4]]))
    tensor(5)
    """
    _args.tensor_args("trace", (input, "input", 1))
    if input.dtype.name == "bool":  # torch's dispatch, before the kernel's rank check
        raise NotImplementedError("\"trace\" not implemented for 'Bool'")
    if input.dim() != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input.dim()}")
    return Trace.apply(input)


def _block(shape: tuple) -> tuple:
    """A block's rows and columns: a number is 1 x 1, a vector one row."""
    return (1, 1) if not shape else (1, shape[0]) if len(shape) == 1 else tuple(shape)


class BlockDiag(Op):
    """The inputs' matrices one after the other along the diagonal, zeros elsewhere; each
    input's gradient is its block of the gradient."""

    node_name = "BlockDiagBackward0"
    _profile_name = "aten::block_diag"

    @staticmethod
    def forward(ctx: Any, *tensors: Tensor, dtype: Any) -> Tensor:
        ctx.shapes = [tuple(t.shape) for t in tensors]
        ctx.dtypes = [t.dtype for t in tensors]
        blocks = [_block(shape) for shape in ctx.shapes]
        xp = tensors[0]._xp
        kind = backend.array_dtype(xp, dtype.name)
        out = xp.zeros((sum(b[0] for b in blocks), sum(b[1] for b in blocks)), dtype=kind)
        row = column = 0
        for t, (rows, columns) in zip(tensors, blocks):
            block = xp.reshape(xp.astype(t._data, kind), (rows, columns))
            backend.setitem(xp, out, (slice(row, row + rows), slice(column, column + columns)),
                            block)
            row, column = row + rows, column + columns
        return wrap(out)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        grads, row, column = [], 0, 0
        for shape, dtype in zip(ctx.shapes, ctx.dtypes):
            rows, columns = _block(shape)
            block = g[row:row + rows, column:column + columns].reshape(shape)
            grads.append(block if block.dtype is dtype else block.to(dtype))
            row, column = row + rows, column + columns
        return tuple(grads)


def block_diag(*tensors: Tensor) -> Tensor:
    """The matrices (numbers as 1 x 1, vectors as one row) along the diagonal of one matrix,
    in their common dtype.

    >>> minitorch.block_diag(minitorch.tensor([[1, 2]]), minitorch.tensor(3))
    tensor([[1, 2, 0],
            [0, 0, 3]])
    """
    from .._dtype import result_type
    from .shape import tensor_list

    tensors = tensor_list("block_diag", tensors)
    for i, t in enumerate(tensors):
        if t.dim() > 2:
            raise RuntimeError("torch.block_diag: Input tensors must have 2 or fewer dimensions. "
                               f"Input {i} has {t.dim()} dimensions")
    if not tensors:  # torch's: one row of no columns
        from .._creation import zeros

        return zeros(1, 0)
    check_same_device(*tensors)
    return BlockDiag.apply(*tensors, dtype=result_type(*tensors))


_diagonal_method.__name__, _diagonal_method.__doc__ = "diagonal", diagonal.__doc__
METHODS = {"diagonal": _diagonal_method, "diag": diag, "diag_embed": diag_embed,
           "diagflat": diagflat, "trace": trace}
