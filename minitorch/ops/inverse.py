"""Square systems: the inverse (``LinalgInvExBackward0``), the determinant
(``LinalgDetBackward0``) and the solution of ``A X = B`` (``LinalgSolveExBackward0``).

The forwards factor and solve as torch does on the CPU, by MKL's getrf and getrs where MKL is
installed (torch's bits, see ``_mkl.lu_solve``), else by the backend's ``linalg`` (numpy's or
CuPy's LAPACK); the backwards are written in these same ops, so higher derivatives come free:
``d(A⁻¹) = -A⁻¹ dA A⁻¹``, ``d det A = det A · tr(A⁻¹ dA)`` and ``dX = A⁻¹ (dB - dA X)``.

>>> import minitorch
>>> a = minitorch.tensor([[2., 1.], [1., 3.]], requires_grad=True)
>>> minitorch.linalg.det(a)
tensor(5., grad_fn=<LinalgDetBackward0>)
"""

from __future__ import annotations

from typing import Any

from .. import _args, _mkl
from .._creation import eye
from .._tensor import Tensor, broadcast_pair, sum_to
from ._base import Op, check_same_device, wrap
from .pointwise import where

__all__ = ["Det", "Inv", "LinAlgError", "Solve", "det", "inv", "solve"]


class LinAlgError(RuntimeError):
    """torch's error for a matrix the algorithm cannot handle (a singular one)."""


LinAlgError.__name__ = LinAlgError.__qualname__ = "_LinAlgError"  # torch's class name


# torch's float16 refusals: the LAPACK kernel it has none of, else its own check
_HALF_KERNELS = {"det": "lu_cpu", "solve": "lu_cpu", "qr": "geqrf_cpu", "svd": "linalg_svd_cpu"}


def check_half(fn: str, a: Tensor) -> None:
    """torch's refusal of a float16 ``A`` in ``linalg.<fn>`` (LAPACK has no float16).

    >>> check_half("inv", minitorch.eye(2, dtype=minitorch.float16))
    Traceback (most recent call last):
    RuntimeError: linalg.inv: Low precision dtypes not supported. Got Half
    """
    if a.dtype.name != "float16":
        return
    if fn in _HALF_KERNELS:
        raise NotImplementedError(f'"{_HALF_KERNELS[fn]}" not implemented for \'Half\'')
    raise RuntimeError(f"linalg.{fn}: Low precision dtypes not supported. Got Half")


def _check_square(fn: str, a: Tensor, floating: bool = True) -> None:
    """torch's checks of ``A`` in ``linalg.<fn>``: a batch of square (floating) matrices."""
    if not isinstance(a, Tensor):
        raise TypeError(f"linalg_{fn}(): argument 'A' (position 1) must be Tensor, not "
                        f"{_args.type_name(a)}")
    if a.dim() < 2:
        raise RuntimeError(f"linalg.{fn}: The input tensor A must have at least 2 dimensions.")
    rows, cols = a.shape[-2:]
    if rows != cols:
        raise RuntimeError(f"linalg.{fn}: A must be batches of square matrices, but they are "
                           f"{rows} by {cols} matrices")
    if floating:
        _check_floating(fn, a)
    check_half(fn, a)


def _check_floating(fn: str, a: Tensor) -> None:
    """torch's refusal of a non-floating ``A`` in ``linalg.<fn>``."""
    if not a.dtype.is_floating_point:
        raise RuntimeError(f"linalg.{fn}: Expected a floating point or complex tensor as input. "
                           f"Got {_args.legacy(a.dtype)}")


def _check_right_side(A: Tensor, B: Tensor, vector: bool, left: bool) -> None:
    """torch's checks of ``B`` in ``linalg.solve``: a vector (one per matrix of ``A``) or a
    batch of matrices whose rows (``left``: A X = B) or columns (X A = B) fit ``A``; a vector
    fits only ``left``."""
    if not vector and B.dim() < 2:
        raise RuntimeError("linalg.solve: The input tensor B must have at least 2 dimensions.")
    rows, cols = (B.shape[-1], 1) if vector else B.shape[-2:]
    if (rows if left else cols) != A.shape[-1]:
        raise RuntimeError("linalg.solve: Incompatible shapes of A and B for the equation "
                           f"{'AX' if left else 'XA'} = B ({A.shape[-2]}x{A.shape[-1]} and "
                           f"{rows}x{cols})")
    if vector and not left:
        raise RuntimeError("linalg.solve: Vector broadcasting of the left hand side is not "
                           "supported for left=False. In this case linalg.solve is equivalent "
                           "to B / A.squeeze(-1)")


def _zero_pivot(xp: Any, matrix: Any) -> int:
    """The 1-based column where LU with partial pivoting (LAPACK's getrf) meets a zero pivot,
    or 0: the number torch's singular-matrix message names."""
    lu = xp.asarray(matrix, copy=True)
    n = lu.shape[0]
    for j in range(n):
        p = j + int(xp.argmax(xp.abs(lu[j:, j])))
        if float(lu[p, j]) == 0.0:
            return j + 1
        if p != j:
            rows = xp.asarray(lu[p, :], copy=True)
            lu[p, :] = lu[j, :]
            lu[j, :] = rows
        lu[j + 1:, j] = lu[j + 1:, j] / lu[j, j]
        lu[j + 1:, j + 1:] = lu[j + 1:, j + 1:] - lu[j + 1:, j:j + 1] * lu[j:j + 1, j + 1:]
    return 0


def _singular(xp: Any, a: Any, message: Any) -> LinAlgError:
    """torch's error for the first singular matrix of the batch ``a``: ``message(where, k)``
    words it, ``where`` being ``(Batch element i): `` for a batch and ``k`` the zero pivot."""
    flat = xp.reshape(a, (-1, *a.shape[-2:]))
    for i in range(flat.shape[0]):
        pivot = _zero_pivot(xp, flat[i, ...])
        if pivot:
            return LinAlgError(message(f"(Batch element {i}): " if a.ndim > 2 else "", pivot))
    return LinAlgError(message("", a.shape[-1]))  # the backend's own refusal, not getrf's


def _solve(xp: Any, a: Any, b: Any, message: Any, adjoint: bool = False) -> Any:
    """``X`` with ``A X = B`` (``Aᵀ X = B`` when ``adjoint``) for batches ``a`` and ``b``
    (broadcast already), as torch: by MKL's getrf and getrs where MKL is here, else the
    backend's ``linalg.solve``; torch's error, worded by ``message(where, k)``, for the first
    singular matrix."""
    solved = _mkl.lu_solve(a, b, adjoint)
    if solved is None:
        try:
            return xp.linalg.solve(xp.matrix_transpose(a) if adjoint else a, b)
        except Exception as error:  # LAPACK's refusal, whatever the backend calls it
            raise _singular(xp, a, message) from error
    out, infos = solved
    for i, k in enumerate(infos):
        if k:
            raise LinAlgError(message(f"(Batch element {i}): " if a.ndim > 2 else "", k))
    return out


class Inv(Op):
    node_name = "LinalgInvExBackward0"
    saved_names = ("inverse",)
    _profile_name = "aten::linalg_inv_ex"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, caller: str = "linalg.inv") -> Tensor:
        """``caller``: the name a singular matrix's error starts with (tensorinv's: inv)."""
        xp = a._xp
        identity = xp.broadcast_to(xp.eye(a.shape[-1], dtype=a._data.dtype), a._data.shape)
        out = wrap(_solve(xp, a._data, identity, lambda where, k: (
            f"{caller}: {where}The diagonal element {k} is zero, the inversion could not "
            "be completed because the input matrix is singular.")))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (inverse,) = ctx.saved_tensors
        t = inverse.mT
        return (-(t @ (g @ t)),)  # torch's association


class Det(Op):
    node_name = "LinalgDetBackward0"
    saved_names = ("A", "result")
    _profile_name = "aten::linalg_det"

    @staticmethod
    def forward(ctx: Any, a: Tensor) -> Tensor:
        det = _mkl.lu_det(a._data)
        out = wrap(a._xp.linalg.det(a._data) if det is None else det)
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        """``A⁻ᵀ (g · det A) I``, solved as torch solves it; as torch, 0 for an exactly
        singular matrix (solved with the identity in its place)."""
        a, out = ctx.saved_tensors
        singular = (out == 0)[..., None, None]
        identity = eye(a.shape[-1], dtype=a.dtype)
        safe = where(singular, identity, a)
        return (Solve.apply(safe.mT, (g * out)[..., None, None] * identity, vector=False),)


class Solve(Op):
    node_name = "LinalgSolveExBackward0"
    saved_names = ("A", "result")
    _profile_name = "aten::linalg_solve_ex"

    @staticmethod
    def forward(ctx: Any, a: Tensor, b: Tensor, *, vector: bool, adjoint: bool = False
                ) -> Tensor:
        """``b`` is a batch of matrices, or of vectors (one column each) when ``vector``;
        ``adjoint`` solves ``Aᵀ X = B`` with the factors of ``A`` (the backward's solve)."""
        xp = a._xp
        right = b._data[..., None] if vector else b._data
        batch = _broadcast_batch(right.shape[:-2], a.shape[:-2])
        left = xp.broadcast_to(a._data, (*batch, *a.shape[-2:]))
        out = _solve(xp, left, xp.broadcast_to(right, (*batch, *right.shape[-2:])),
                     lambda where, _: (f"torch.linalg.solve: {where}The solver failed because "
                                       "the input matrix is singular."), adjoint)
        ctx.meta = tuple(a.shape), tuple(b.shape), vector, adjoint
        result = wrap(out[..., 0] if vector else out)
        ctx.save_for_backward(a, result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        a, x = ctx.saved_tensors
        a_shape, b_shape, vector, adjoint = ctx.meta
        gb = Solve.apply(a, g, vector=vector, adjoint=not adjoint)
        ga = None
        if ctx.needs_input_grad[0]:
            left, right = (x, gb) if adjoint else (gb, x)
            ga = -(left[..., None] * right[..., None, :] if vector else left @ right.mT)
            ga = sum_to(ga, a_shape)
        return ga, sum_to(gb, b_shape)


class SolveRight(Op):
    """``solve(A, B, left=False)``: ``X`` with ``X A = B``, as torch computes it: the adjoint
    solve ``Aᵀ Xᵀ = Bᵀ`` with the factors of ``A``, transposed back; one node."""

    node_name = "LinalgSolveExBackward0"
    saved_names = ("A", "result")
    _profile_name = "aten::linalg_solve_ex"

    @staticmethod
    def forward(ctx: Any, a: Tensor, b: Tensor) -> Tensor:
        xp = a._xp
        transposed = wrap(xp.matrix_transpose(b._data))
        out = Solve.forward(ctx, a, transposed, vector=False, adjoint=True)
        result = wrap(xp.matrix_transpose(out._data))
        ctx.shapes = tuple(a.shape), tuple(b.shape)
        ctx.save_for_backward(a, result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        a, x = ctx.saved_tensors
        a_shape, b_shape = ctx.shapes
        gb = Solve.apply(a, g.mT, vector=False).mT  # g A⁻ᵀ
        ga = sum_to(-(x.mT @ gb), a_shape) if ctx.needs_input_grad[0] else None
        return ga, sum_to(gb, b_shape)


def _broadcast_batch(b: tuple, a: tuple) -> tuple:
    """The batch dims of ``B`` and ``A`` broadcast, with torch's error (``infer_size``'s)."""
    return broadcast_pair(b, a)


def inv(A: Tensor) -> Tensor:
    """The inverse of a square matrix (or of each in a batch).

    >>> minitorch.linalg.inv(minitorch.tensor([[2., 0.], [0., 4.]]))
    tensor([[0.5000, 0.0000],
            [0.0000, 0.2500]])
    """
    _check_square("inv", A)
    return Inv.apply(A)


def det(A: Tensor) -> Tensor:
    """The determinant of a square matrix (or of each in a batch).

    >>> minitorch.linalg.det(minitorch.tensor([[2., 1.], [1., 3.]]))
    tensor(5.)
    """
    _check_square("det", A)
    return Det.apply(A)


def solve(A: Tensor, B: Tensor, *, left: bool = True) -> Tensor:
    """``X`` with ``A X = B`` (``X A = B`` when ``left`` is False): ``B`` a vector (one per
    matrix of ``A``) or a batch of matrices, batches broadcast.

    >>> minitorch.linalg.solve(minitorch.tensor([[2., 0.], [0., 4.]]), minitorch.ones(2))
    tensor([0.5000, 0.2500])
    """
    _args.tensor_args("linalg_solve", (A, "A", 1), (B, "B", 2))
    left = _args.flag("linalg_solve", left, "left")
    check_same_device(A, B)
    _check_floating("solve", A)
    if A.dtype is not B.dtype:
        raise RuntimeError("linalg.solve: Expected A and B to have the same dtype, but found A "
                           f"of type {_args.legacy(A.dtype)} and B of type "
                           f"{_args.legacy(B.dtype)} instead")
    check_half("solve", A)
    _check_square("solve", A)
    vector = B.dim() == 1 or (B.dim() == A.dim() - 1 and B.shape == A.shape[:-1])
    _check_right_side(A, B, vector, left)
    if not left:
        return SolveRight.apply(A, B)
    return Solve.apply(A, B, vector=vector)
