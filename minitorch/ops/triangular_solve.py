"""The deprecated ``torch.triangular_solve(b, A)`` (``TriangularSolveBackward0``): ``X`` with
``A X = b`` (``Aᵀ X = b`` when ``transpose``) for a triangular ``A``, and a copy of ``A``.

The forward is MKL's trsm as torch calls it where MKL is here (torch's bits), else the
backend's solve with the triangle read; the backward is torch's ``triangular_solve_backward``
in these same ops: ``db = A⁻ᵀ dX`` (the transposed solve) and ``dA = -db Xᵀ`` (``-X dbᵀ``
when ``transpose``) kept to the triangle, plus the copy's gradient.

>>> import minitorch
>>> a = minitorch.tensor([[2., 0.], [1., 1.]])
>>> minitorch.triangular_solve(minitorch.tensor([[2.], [3.]]), a, upper=False).solution
tensor([[1.],
        [2.]])
"""

from __future__ import annotations

from typing import Any

from .. import _args, _mkl, return_types
from .._tensor import Tensor, checked_broadcast_shapes, sum_to
from .._warn_once import warn_once
from ._base import Op, wrap

__all__ = ["triangular_solve"]

_DEPRECATED = (
    "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will be "
    "removed in a future PyTorch release.\ntorch.linalg.solve_triangular has its arguments "
    "reversed and does not return a copy of one of the inputs.\nX = torch.triangular_solve(B, "
    "A).solution\nshould be replaced with\nX = torch.linalg.solve_triangular(A, B).")


def _triangle(xp: Any, a: Any, upper: bool, unitriangular: bool) -> Any:
    """The triangle of ``a`` that LAPACK reads, with ones on its diagonal when
    ``unitriangular``."""
    part = xp.triu(a, k=int(unitriangular)) if upper else xp.tril(a, k=-int(unitriangular))
    return part + xp.eye(a.shape[-1], dtype=a.dtype) if unitriangular else part


def _column_major(xp: Any, a: Any) -> Any:
    """A copy of the batch ``a`` with each matrix stored column by column, as torch's clone."""
    buffer = xp.empty((*a.shape[:-2], a.shape[-1], a.shape[-2]), dtype=a.dtype)
    buffer[...] = xp.matrix_transpose(a)
    return xp.matrix_transpose(buffer)


class TriangularSolve(Op):
    node_name = "TriangularSolveBackward0"
    saved_names = ("self", "A", "solution")
    _profile_name = "aten::triangular_solve"

    @staticmethod
    def forward(ctx: Any, b: Tensor, a: Tensor, *, upper: bool, transpose: bool,
                unitriangular: bool) -> tuple:
        xp = a._xp
        batch = tuple(checked_broadcast_shapes((b.shape[:-2], a.shape[:-2])))
        left = xp.broadcast_to(a._data, (*batch, *a.shape[-2:]))
        right = xp.broadcast_to(b._data, (*batch, *b.shape[-2:]))
        coefficient = _column_major(xp, left)
        system = xp.matrix_transpose(coefficient) if transpose else coefficient
        x = _mkl.triangular_solve(system, right, upper != transpose, True, unitriangular)
        if x is None:
            triangle = _triangle(xp, left, upper, unitriangular)
            x = xp.linalg.solve(xp.matrix_transpose(triangle) if transpose else triangle, right)
        solution = wrap(x)
        ctx.flags = upper, transpose, unitriangular, tuple(b.shape), tuple(a.shape)
        ctx.save_for_backward(b, a, solution)
        return solution, wrap(coefficient)

    @staticmethod
    def backward(ctx: Any, gx: Tensor | None, gm: Tensor | None) -> tuple:
        _, a, x = ctx.saved_tensors
        upper, transpose, unitriangular, b_shape, a_shape = ctx.flags
        gb = ga = None
        if gx is not None:
            gb, _ = TriangularSolve.apply(gx, a, upper=upper, transpose=not transpose,
                                          unitriangular=unitriangular)
            if ctx.needs_input_grad[1]:
                ga = -(x @ gb.mT) if transpose else -(gb @ x.mT)
                ga = ga.triu(int(unitriangular)) if upper else ga.tril(-int(unitriangular))
        if ctx.needs_input_grad[1] and gm is not None:
            ga = gm if ga is None else ga + gm
        return (None if gb is None else sum_to(gb, b_shape),
                None if ga is None else sum_to(ga, a_shape))


def triangular_solve(input: Tensor, A: Tensor, upper: bool = True, transpose: bool = False,
                     unitriangular: bool = False) -> Any:
    """``(solution, cloned_coefficient)``: ``X`` with ``A X = input`` (``Aᵀ X = input`` when
    ``transpose``) reading only ``A``'s upper (or lower) triangle, and a copy of ``A``;
    deprecated in favour of ``linalg.solve_triangular``, as in torch.

    >>> minitorch.triangular_solve(minitorch.ones(2, 1), minitorch.eye(2) * 2).solution
    tensor([[0.5000],
            [0.5000]])
    """
    fn = "triangular_solve"
    _args.tensor_args(fn, (input, "input", 1), (A, "A", 2))
    upper = _args.flag(fn, upper, "upper")
    transpose = _args.flag(fn, transpose, "transpose")
    unitriangular = _args.flag(fn, unitriangular, "unitriangular")
    warn_once(_DEPRECATED)
    _check_triangular_solve(input, A)
    return return_types.triangular_solve(*TriangularSolve.apply(
        input, A, upper=upper, transpose=transpose, unitriangular=unitriangular))


def _check_triangular_solve(b: Tensor, a: Tensor) -> None:
    """torch's checks of ``triangular_solve``'s ``b`` and ``A``."""
    for t, name in ((b, "b"), (a, "A")):
        if t.dim() < 2:
            raise RuntimeError(f"torch.triangular_solve: Expected {name} to have at least 2 "
                               f"dimensions, but it has {t.dim()} dimensions instead")
    if a.dtype is not b.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                           f"{_args.legacy(b.dtype)} and A of type {_args.legacy(a.dtype)} "
                           "instead.")
    if a.shape[-1] != a.shape[-2]:
        raise RuntimeError(f"A must be batches of square matrices, but they are {a.shape[-2]} "
                           f"by {a.shape[-1]} matrices")
    if a.shape[-1] != b.shape[-2]:
        raise RuntimeError("Incompatible matrix sizes for triangular_solve: each A matrix is "
                           f"{a.shape[-1]} by {a.shape[-1]} but each b matrix is {b.shape[-2]} "
                           f"by {b.shape[-1]}")
    if a.dtype.name not in ("float32", "float64"):
        raise NotImplementedError("\"triangular_solve_cpu\" not implemented for "
                                  f"'{_args.legacy(a.dtype)}'")
