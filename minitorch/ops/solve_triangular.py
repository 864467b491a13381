"""``linalg.solve_triangular``: ``X`` with ``A X = B`` (or ``X A = B``) for a triangular ``A``,
by substitution, a row of ``X`` at a time (as LAPACK's trsm: a zero on the diagonal gives
inf and nan, never an error). Only ``A``'s triangle is read.

>>> import minitorch
>>> a = minitorch.tensor([[2., 0.], [1., 4.]], requires_grad=True)
>>> minitorch.linalg.solve_triangular(a, minitorch.tensor([[2.], [5.]]), upper=False)
tensor([[1.],
        [1.]], grad_fn=<LinalgSolveTriangularBackward0>)
"""

from __future__ import annotations

from typing import Any

from .. import _args, _mkl, backend
from .._tensor import Tensor, broadcast_shapes, sum_to
from ._base import Op, check_same_device, kept, wrap
from .inverse import check_lapack

__all__ = ["LinalgSolveTriangular", "solve_triangular"]


def _substitute(xp: Any, a: Any, b: Any, upper: bool, unit: bool) -> Any:
    """``A⁻¹ B`` for a batch of triangular ``A`` (broadcast with ``B``): forward
    substitution from the first row (lower) or back substitution from the last (upper)."""
    n = a.shape[-1]
    rows: list = []  # the solved rows, in the order of X's rows
    for i in (range(n - 1, -1, -1) if upper else range(n)):
        acc = b[..., i:i + 1, :]
        if rows:
            known = xp.concat(rows, axis=-2)
            coeffs = a[..., i:i + 1, i + 1:] if upper else a[..., i:i + 1, :i]
            acc = acc - xp.matmul(coeffs, known)
        row = acc if unit else acc / a[..., i:i + 1, i:i + 1]
        rows = [row, *rows] if upper else [*rows, row]
    return xp.concat(rows, axis=-2) if rows else b


class LinalgSolveTriangular(Op):
    """torch's ``linalg_solve_triangular_backward``: ``gB = A⁻ᴴ gX`` (the other triangle's
    solve), ``gA = -gB Xᴴ`` (``-Xᴴ gB`` on the right) kept to ``A``'s triangle."""

    node_name = "LinalgSolveTriangularBackward0"
    saved_names = ("self", "result")
    saved_values = {name: kept(name) for name in ("upper", "left", "unitriangular")}
    _profile_name = "aten::linalg_solve_triangular"

    @staticmethod
    def forward(ctx: Any, a: Tensor, b: Tensor, *, upper: bool, left: bool,
                unitriangular: bool) -> Tensor:
        xp = a._xp
        batch = broadcast_shapes(b.shape[:-2], a.shape[:-2])  # torch's order in its message
        a_data = xp.broadcast_to(a._data, (*batch, *a.shape[-2:]))
        b_data = xp.broadcast_to(b._data, (*batch, *b.shape[-2:]))
        out = _mkl.triangular_solve(a_data, b_data, upper, left, unitriangular)  # torch's trsm
        if out is None and left:
            out = backend.column_major(_substitute(xp, a_data, b_data, upper, unitriangular))
        elif out is None:  # X A = B is Aᵀ Xᵀ = Bᵀ, Aᵀ of the other triangle
            out = xp.matrix_transpose(backend.c_order(_substitute(
                xp, xp.matrix_transpose(a_data), xp.matrix_transpose(b_data), not upper,
                unitriangular)))
        ctx.upper, ctx.left, ctx.unitriangular = upper, left, unitriangular
        ctx.shapes = tuple(a.shape), tuple(b.shape)
        result = wrap(out)
        ctx.save_for_backward(a, result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        a, x = ctx.saved_tensors
        upper, left, unit = ctx.upper, ctx.left, ctx.unitriangular
        a_shape, b_shape = ctx.shapes
        gb = LinalgSolveTriangular.apply(a.mT, g, upper=not upper, left=left,
                                         unitriangular=unit)
        ga = None
        if ctx.needs_input_grad[0]:
            ga = -(gb @ x.mT) if left else -(x.mT @ gb)
            ga = sum_to(ga.triu(int(unit)) if upper else ga.tril(-int(unit)), a_shape)
        return ga, sum_to(gb, b_shape)


_REQUIRED = object()


def solve_triangular(input: Tensor, B: Tensor, *, upper: Any = _REQUIRED, left: bool = True,
                     unitriangular: bool = False) -> Tensor:
    """``X`` with ``A X = B`` (``X A = B`` when ``left`` is False), ``A`` upper or lower
    triangular (only that triangle is read; a diagonal of ones with ``unitriangular``).

    >>> minitorch.linalg.solve_triangular(minitorch.tensor([[2., 1.], [0., 4.]]),
    ...                                   minitorch.tensor([[3.], [4.]]), upper=True)
    tensor([[1.],
            [1.]])
    """
    fn = "linalg_solve_triangular"
    if upper is _REQUIRED:
        raise TypeError(f'{fn}() missing 1 required positional arguments: "upper"')
    _args.tensor_args(fn, (input, "input", 1), (B, "B", 2))
    upper = _args.flag(fn, upper, "upper")
    left = _args.flag(fn, left, "left")
    unitriangular = _args.flag(fn, unitriangular, "unitriangular")
    check_same_device(input, B)
    _check_shapes(input, B, left)
    check_lapack("triangular_solve_cpu", input)
    if B.dtype is not input.dtype:  # torch solves in A's dtype
        B = B.to(input.dtype)
    return LinalgSolveTriangular.apply(input, B, upper=upper, left=left,
                                       unitriangular=unitriangular)


def _check_shapes(A: Tensor, B: Tensor, left: bool) -> None:
    name = "linalg.solve_triangular"
    for t, which in ((A, "A"), (B, "B")):
        if t.dim() < 2:
            raise RuntimeError(f"{name}: The input tensor {which} must have at least 2 "
                               "dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are "
                           f"{A.shape[-2]} by {A.shape[-1]} matrices")
    rows, cols = B.shape[-2:]
    if (rows if left else cols) != A.shape[-1]:
        raise RuntimeError(f"{name}: Incompatible shapes of A and B for the equation "
                           f"{'AX' if left else 'XA'} = B ({A.shape[-2]}x{A.shape[-1]} and "
                           f"{rows}x{cols})")
