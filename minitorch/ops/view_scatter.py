"""The out-of-place writes into a view: ``select_scatter``, ``slice_scatter`` and
``diagonal_scatter`` return a copy of the input whose ``select`` / slice / ``diagonal`` holds
``src`` (cast to the input's dtype). Their gradients split the incoming one: the view's part
goes to ``src`` (``grad.select(...)``, ..., in ``src``'s dtype), the rest to the input (zeros
written in the view), as torch's formulas.

>>> import minitorch
>>> x = minitorch.zeros(2, 3, requires_grad=True)
>>> minitorch.select_scatter(x, minitorch.ones(3), 0, 1)
tensor([[0., 0., 0.],
        [1., 1., 1.]], grad_fn=<SelectScatterBackward0>)
"""

from __future__ import annotations

from typing import Any

from .. import _args, backend
from .._tensor import Tensor
from ._base import Op, wrap
from .diagonal import Diagonal, _dims
from .shape import Select, Slice
from .split import select_key

__all__ = ["METHODS", "DiagonalScatter", "SelectScatter", "SliceScatter", "diagonal_scatter",
           "select_scatter", "slice_scatter"]


def _copy_with(a: Tensor, src: Tensor, write: Any) -> Tensor:
    """A copy of ``a`` after ``write(copy, src array)``."""
    xp = a._xp
    out = xp.asarray(a._data, copy=True)
    write(xp, out, xp.astype(src._data, out.dtype))
    return wrap(out)


def _zeros(g: Tensor, shape: tuple) -> Tensor:
    return wrap(g._xp.zeros(shape, dtype=g._data.dtype))


class SelectScatter(Op):
    node_name = "SelectScatterBackward0"
    _profile_name = "aten::select_scatter"
    view: Any = Select  # the view whose elements ``src`` replaces: its gradient goes there

    @staticmethod
    def forward(ctx: Any, a: Tensor, src: Tensor, *, key: tuple) -> Tensor:
        ctx.key, ctx.src_shape, ctx.src_dtype = key, tuple(src.shape), src.dtype
        return _copy_with(a, src, lambda xp, out, values: backend.setitem(xp, out, key, values))

    @classmethod
    def backward(cls, ctx: Any, g: Tensor) -> tuple:
        rest = cls.apply(g, _zeros(g, ctx.src_shape), key=ctx.key)
        return rest, cls.view.apply(g, key=ctx.key).to(ctx.src_dtype)


class SliceScatter(SelectScatter):
    node_name = "SliceScatterBackward0"
    _profile_name = "aten::slice_scatter"
    view = Slice


class DiagonalScatter(Op):
    node_name = "DiagonalScatterBackward0"
    _profile_name = "aten::diagonal_scatter"

    @staticmethod
    def forward(ctx: Any, a: Tensor, src: Tensor, *, offset: int, dim1: int, dim2: int
                ) -> Tensor:
        ctx.where, ctx.src_shape, ctx.src_dtype = (offset, dim1, dim2), tuple(src.shape), \
            src.dtype
        return _copy_with(a, src, lambda xp, out, values: backend.write_diagonal(
            xp, out, values, offset, dim1, dim2))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        offset, dim1, dim2 = ctx.where
        rest = DiagonalScatter.apply(g, _zeros(g, ctx.src_shape), offset=offset, dim1=dim1,
                                     dim2=dim2)
        return rest, Diagonal.apply(g, offset=offset, dim1=dim1, dim2=dim2).to(ctx.src_dtype)


def _check_src(view_shape: tuple, src: Tensor) -> None:
    if tuple(src.shape) != tuple(view_shape):
        raise RuntimeError("expected src to have a size equal to the slice of self. src size = "
                           f"{list(src.shape)}, slice size = {list(view_shape)}")


def _view_shape(input: Tensor, key: tuple) -> tuple:
    """The shape of ``input[key]`` (a basic key), without making it."""
    return input._data[key].shape


def select_scatter(input: Tensor, src: Tensor, dim: int, index: int) -> Tensor:
    """A copy of ``input`` whose ``select(dim, index)`` is ``src``.

    >>> minitorch.select_scatter(minitorch.zeros(2, 2), minitorch.ones(2), 1, 0)
    tensor([[1., 0.],
            [1., 0.]])
    """
    _args.tensor_args("select_scatter", (input, "input", 1), (src, "src", 2))
    dim, index = _args.integers("select_scatter", (dim, "dim", 3), (index, "index", 4))
    key = select_key(input, dim, index)
    _check_src(_view_shape(input, key), src)
    return SelectScatter.apply(input, src, key=key)


def slice_scatter(input: Tensor, src: Tensor, dim: int = 0, start: int | None = None,
                  end: int | None = None, step: int = 1) -> Tensor:
    """A copy of ``input`` whose slice ``start:end:step`` of ``dim`` is ``src``.

    >>> minitorch.slice_scatter(minitorch.zeros(4), minitorch.ones(2), start=1, step=2)
    tensor([0., 1., 0., 1.])
    """
    _, _, dim, start, end, step = _args.parsed(
        "slice_scatter", ("tensor", input, "input", 1), ("tensor", src, "src", 2),
        ("int", dim, "dim", 3), ("int?", start, "start", 4), ("int?", end, "end", 5),
        ("int", step, "step", 6))
    if input.dim() == 0:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    d = _args.wrap_dim(dim, input.dim())
    key = (slice(None),) * d + (slice(*slice(start, end, step).indices(input.shape[d])),)
    _check_src(_view_shape(input, key), src)
    return SliceScatter.apply(input, src, key=key)


def diagonal_scatter(input: Tensor, src: Tensor, offset: int = 0, dim1: int = 0,
                     dim2: int = 1) -> Tensor:
    """A copy of ``input`` whose diagonal ``offset`` over ``dim1`` and ``dim2`` is ``src``.

    >>> minitorch.diagonal_scatter(minitorch.zeros(2, 2), minitorch.tensor([1., 2.]))
    tensor([[1., 0.],
            [0., 2.]])
    """
    _args.tensor_args("diagonal_scatter", (input, "input", 1), (src, "src", 2))
    offset, dim1, dim2 = _args.integers("diagonal_scatter", (offset, "offset", 3),
                                        (dim1, "dim1", 4), (dim2, "dim2", 5))
    d1, d2 = _dims("diagonal", input.dim(), dim1, dim2)
    view = backend.diagonal(input._xp, input._data, offset, d1, d2)
    _check_src(view.shape, src)
    return DiagonalScatter.apply(input, src, offset=offset, dim1=d1, dim2=d2)


METHODS = {"select_scatter": select_scatter, "slice_scatter": slice_scatter,
           "diagonal_scatter": diagonal_scatter}
