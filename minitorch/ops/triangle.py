"""The lower and upper triangles of matrices: ``tril`` and ``triu``.

Element ``(i, j)`` of the last two dims is kept where ``j - i <= diagonal`` (tril) or
``j - i >= diagonal`` (triu), else it is zero; the gradient is the same triangle of the
output's gradient.

>>> import minitorch
>>> minitorch.ones(2, 3).triu(1)
tensor([[0., 1., 1.],
        [0., 0., 1.]])
"""

from __future__ import annotations

from typing import Any

from .. import _args
from .._tensor import Tensor
from ._base import Op, c_ints, kept, wrap

__all__ = ["Tril", "Triu", "tril", "triu"]


class Tril(Op):
    node_name = "TrilBackward0"
    saved_values = {"diagonal": kept("diagonal", c_ints)}
    _profile_name = "aten::tril"
    lower = True

    @classmethod
    def forward(cls, ctx: Any, a: Tensor, *, diagonal: int) -> Tensor:
        ctx.diagonal = diagonal
        xp, data = a._xp, a._data
        rows, cols = data.shape[-2:]
        offsets = xp.reshape(xp.arange(cols), (1, -1)) - xp.reshape(xp.arange(rows), (-1, 1))
        keep = offsets <= diagonal if cls.lower else offsets >= diagonal
        return wrap(xp.where(keep, data, xp.zeros((), dtype=data.dtype)))

    @classmethod
    def backward(cls, ctx: Any, g: Tensor) -> tuple:
        return (cls.apply(g, diagonal=ctx.diagonal),)


class Triu(Tril):
    node_name = "TriuBackward0"
    _profile_name = "aten::triu"
    lower = False


def _triangle(op: type[Tril], name: str) -> Any:
    def triangle(input: Tensor, diagonal: int = 0) -> Tensor:
        _args.tensor_args(name, (input, "input", 1))
        diagonal = _args.integer(name, diagonal, "diagonal", 1)
        if input.dim() < 2:
            raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
        return op.apply(input, diagonal=diagonal)

    triangle.__name__ = triangle.__qualname__ = name
    return triangle


tril = _triangle(Tril, "tril")
tril.__doc__ = """The lower triangle (``j - i <= diagonal``) of the last two dims; zeros
elsewhere.

    >>> minitorch.tril(minitorch.ones(2, 2))
    tensor([[1., 0.],
            [1., 1.]])
    """
triu = _triangle(Triu, "triu")
triu.__doc__ = """The upper triangle (``j - i >= diagonal``) of the last two dims; zeros
elsewhere.

    >>> minitorch.triu(minitorch.ones(2, 2), -1)
    tensor([[1., 1.],
            [1., 1.]])
    """
