"""LU factorization with partial pivoting, ``A = P L U``: ``linalg.lu_factor(_ex)`` (LAPACK's
packed factors, ``LinalgLuFactorExBackward0``), ``linalg.lu`` (``LinalgLuBackward0``) and
``lu_unpack`` (``LuUnpackBackward0``).

The forward is MKL's getrf as torch calls it where MKL is here (torch's bits), else the
backend's elimination column by column (getrf's pivots, values within rounding). The backward
is torch's ``linalg_lu_backward``, written in Tensor ops so higher derivatives come free: for a
square ``A``, ``dA = P L⁻ᴴ (tril₋₁(Lᴴ dL) + triu(dU Uᴴ)) U⁻ᴴ``, with the tall and wide cases'
extra blocks.

>>> import minitorch
>>> minitorch.linalg.lu_factor(minitorch.tensor([[1., 2.], [3., 4.]])).pivots
tensor([2, 2], dtype=torch.int32)
"""

from __future__ import annotations

from typing import Any

from .. import _args, _call_form, _mkl, return_types
from .._tensor import Tensor, broadcast_pair, sum_to
from .._warn_once import warn_once
from ._base import Op, wrap
from .inverse import Solve, SolveRight, check_lapack, getrf, raise_first_failure
from .shape import cat

__all__ = ["linalg_lu", "linalg_lu_factor", "linalg_lu_factor_ex", "linalg_lu_solve", "lu_solve",
           "lu_unpack"]


def _factor(xp: Any, a: Any) -> tuple[Any, Any, Any]:
    """getrf of each matrix of ``a``: MKL's where it is here, else the backend's."""
    factored = _mkl.lu_factor(a)
    return getrf(xp, a) if factored is None else factored


def _permutation(xp: Any, pivots: Any, m: int, dtype: Any) -> Any:
    """``P`` (..., m, m) of LAPACK's row swaps ``pivots`` (row i with row pivots[i] - 1, in
    turn): ``A = P L U``, column i of ``P`` holding its 1 in the row that went to place i."""
    place = xp.arange(m)
    perm = xp.broadcast_to(place, (*pivots.shape[:-1], m))
    for i in range(pivots.shape[-1]):
        p = xp.astype(pivots[..., i:i + 1], xp.int64) - 1
        here, there = perm[..., i:i + 1], xp.take_along_axis(perm, p, axis=-1)
        perm = xp.where(place == i, there, xp.where(place == p, here, perm))
    return xp.astype(perm[..., None, :] == place[:, None], dtype)


def _unpack(xp: Any, lu: Any) -> tuple[Any, Any]:
    """``L`` (..., m, k), unit lower, and ``U`` (..., k, n) of getrf's packed ``lu``."""
    m, n = lu.shape[-2:]
    k = min(m, n)
    lower = xp.tril(lu[..., :, :k], k=-1) + xp.eye(m, k, dtype=lu.dtype)
    return lower, xp.triu(lu[..., :k, :])


def _lu_backward(gl: Tensor | None, gu: Tensor | None, p: Tensor, lower: Tensor, upper: Tensor
                 ) -> Tensor:
    """torch's ``linalg_lu_backward`` (pivoted): the gradient of ``A = P L U`` from those of
    ``L`` and ``U`` (None: zero)."""
    m, n = lower.shape[-2], upper.shape[-1]
    k = min(m, n)
    gl = lower.new_zeros(lower.shape) if gl is None else gl
    gu = upper.new_zeros(upper.shape) if gu is None else gu
    if m == n:
        inner = (lower.mH @ gl).tril(-1) + (gu @ upper.mH).triu()
        grad = _left(lower.mH, SolveRight.apply(upper.mH, inner))
    elif m < n:  # wide: U = [U1 U2]
        u1 = upper[..., :k]
        inner = SolveRight.apply(u1.mH, ((lower.mH @ gl) - gu.triu() @ upper.mH).tril(-1))
        grad = _left(lower.mH, cat([inner + gu[..., :k].triu(), gu[..., k:]], -1))
    else:  # tall: L = [L1; L2]
        l1 = lower[..., :k, :]
        inner = _left(l1.mH, ((gu @ upper.mH) - lower.mH @ gl.tril(-1)).triu())
        grad = SolveRight.apply(upper.mH, cat([inner + gl[..., :k, :].tril(-1), gl[..., k:, :]],
                                              -2))
    return p @ grad


def _left(a: Tensor, b: Tensor) -> Tensor:
    """``a⁻¹ b`` (a triangular ``a``; the solve of ``linalg.solve``)."""
    return Solve.apply(a, b, vector=False)


class LuFactor(Op):
    node_name = "LinalgLuFactorExBackward0"
    saved_names = ("LU", "pivots")
    _profile_name = "aten::linalg_lu_factor_ex"

    @staticmethod
    def forward(ctx: Any, a: Tensor) -> tuple:
        lu, pivots, info = (wrap(x) for x in _factor(a._xp, a._data))
        ctx.mark_non_differentiable(pivots, info)
        ctx.save_for_backward(lu, pivots)
        return lu, pivots, info

    @staticmethod
    def backward(ctx: Any, g: Tensor, _g_pivots: Any, _g_info: Any) -> tuple:
        lu, pivots = ctx.saved_tensors
        m, n = lu.shape[-2:]
        k = min(m, n)
        lower = lu[..., :, :k].tril(-1) + _eye_like(lu, m, k)
        p = wrap(_permutation(lu._xp, pivots._data, m, lu._data.dtype))
        return (_lu_backward(g[..., :, :k], g[..., :k, :], p, lower, lu[..., :k, :].triu()),)


def _eye_like(t: Tensor, m: int, k: int) -> Tensor:
    return wrap(t._xp.eye(m, k, dtype=t._data.dtype))


class Lu(Op):
    node_name = "LinalgLuBackward0"
    saved_names = ("L", "P", "U")
    _profile_name = "aten::linalg_lu"

    @staticmethod
    def forward(ctx: Any, a: Tensor) -> tuple:
        xp = a._xp
        lu, pivots, _ = _factor(xp, a._data)
        p = wrap(_permutation(xp, pivots, a.shape[-2], a._data.dtype))
        lower, upper = (wrap(x) for x in _unpack(xp, lu))
        ctx.mark_non_differentiable(p)
        ctx.save_for_backward(p, lower, upper)
        return p, lower, upper

    @staticmethod
    def backward(ctx: Any, _g_p: Any, gl: Tensor | None, gu: Tensor | None) -> tuple:
        p, lower, upper = ctx.saved_tensors
        return (_lu_backward(gl, gu, p, lower, upper),)


class LuUnpack(Op):
    node_name = "LuUnpackBackward0"
    _profile_name = "aten::lu_unpack"

    @staticmethod
    def forward(ctx: Any, lu: Tensor, pivots: Tensor) -> tuple:
        xp = lu._xp
        p = wrap(_permutation(xp, pivots._data, lu.shape[-2], lu._data.dtype))
        lower, upper = (wrap(x) for x in _unpack(xp, lu._data))
        ctx.mark_non_differentiable(p)
        ctx.shape = tuple(lu.shape)
        return p, lower, upper

    @staticmethod
    def backward(ctx: Any, _g_p: Any, gl: Tensor | None, gu: Tensor | None) -> tuple:
        """torch's ``lu_unpack_backward``: L's strict lower triangle and U's upper one, each
        where it sits in the packed ``LU``."""
        m, n = ctx.shape[-2:]
        k = min(m, n)
        grad = None
        if gl is not None:
            grad = gl.tril(-1)
            grad = cat([grad, grad.new_zeros((*grad.shape[:-1], n - k))], -1) if n > k else grad
        if gu is not None:
            upper = gu.triu()
            upper = cat([upper, upper.new_zeros((*upper.shape[:-2], m - k, n))], -2) if m > k \
                else upper
            grad = upper if grad is None else grad + upper
        return grad, None


class LuSolve(Op):
    node_name = "LinalgLuSolveBackward0"
    saved_names = ("LU", "pivots", "result")
    _profile_name = "aten::linalg_lu_solve"

    @staticmethod
    def forward(ctx: Any, lu: Tensor, pivots: Tensor, b: Tensor, *, left: bool, adjoint: bool
                ) -> Tensor:
        """``X A = B`` (not ``left``) is solved as torch solves it: ``Aᵀ Xᵀ = Bᵀ``."""
        xp = lu._xp
        right = b._data if left else xp.matrix_transpose(b._data)
        transposed = adjoint == left  # Aᵀ is the matrix solved with
        batch = broadcast_pair(right.shape[:-2], lu.shape[:-2])
        n = lu.shape[-1]
        factors = xp.broadcast_to(lu._data, (*batch, n, n))
        rows = xp.broadcast_to(pivots._data, (*batch, n))
        right = xp.broadcast_to(right, (*batch, *right.shape[-2:]))
        x = _mkl.lu_factored_solve(factors, rows, right, transposed)
        if x is None:
            lower, upper = _unpack(xp, factors)
            a = _permutation(xp, rows, n, factors.dtype) @ lower @ upper
            x = xp.linalg.solve(xp.matrix_transpose(a) if transposed else a, right)
        result = wrap(x if left else xp.matrix_transpose(x))
        ctx.meta = left, adjoint, tuple(lu.shape), tuple(b.shape)
        ctx.save_for_backward(lu, pivots, result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        lu, pivots, x = ctx.saved_tensors
        left, adjoint, lu_shape, b_shape = ctx.meta
        gb = sum_to(LuSolve.apply(lu, pivots, g, left=left, adjoint=not adjoint), b_shape)
        glu = None
        if ctx.needs_input_grad[0]:
            glu = sum_to(_lu_solve_lu_grad(g, lu, pivots, x, left, adjoint), lu_shape)
        return glu, None, gb


def _lu_solve_lu_grad(gx: Tensor, lu: Tensor, pivots: Tensor, x: Tensor, left: bool,
                      adjoint: bool) -> Tensor:
    """torch's ``linalg_lu_solve_LU``: the gradient of the packed ``LU`` from ``X``'s."""
    n = lu.shape[-1]
    lower = lu.tril(-1) + _eye_like(lu, n, n)
    upper = lu.triu()
    if left != adjoint:
        gr = _left(upper.mH, -(gx if left else gx.mH) @ (x.mH if left else x))
        return _left(lower.mH, gr @ upper.mH).tril(-1) + gr.triu()
    p = wrap(_permutation(lu._xp, pivots._data, n, lu._data.dtype))
    gr = -(p.mT @ (x if left else x.mH) @ (gx.mH if left else gx) @ p)
    gr = SolveRight.apply(lower.mH, gr)
    return gr.tril(-1) + SolveRight.apply(upper.mH, lower.mH @ gr).triu()


def _check_unpack(lu: Tensor, pivots: Tensor) -> None:
    """torch's checks of ``lu_unpack``'s ``LU_data`` and ``LU_pivots``."""
    if lu.dim() < 2:
        raise RuntimeError("torch.lu_unpack: Expected tensor with 2 or more dimensions. Got size: "
                           f"{list(lu.shape)} instead")
    if pivots.dtype.name != "int32":
        raise RuntimeError("torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of "
                           "torch.int32 dtype.\nNote: this function is intended to be used with "
                           "the output produced by torch.linalg.lu_factor")
    m = lu.shape[-2]
    data = pivots._data
    xp = pivots._xp
    if pivots.dim() < 1 or pivots.shape[-1] != min(lu.shape[-2:]) or \
            not bool(xp.all((data >= 1) & (data <= m))):
        raise RuntimeError("pivots passed to lu_unpack must be between 1 and LU.size(-2) "
                           "inclusive.Did you properly pass the result of lu_factor?")


def _check_lu_input(fn: str, A: Tensor, pivot: Any) -> bool:
    """torch's checks of ``linalg.lu_factor``'s and ``linalg.lu``'s ``A`` and ``pivot``."""
    _args.tensor_args(f"linalg_{fn}", (A, "A", 1))
    pivot = _args.flag(f"linalg_{fn}", pivot, "pivot")
    if A.dim() < 2:
        raise RuntimeError(f"{'linalg.lu' if fn == 'lu' else 'torch.lu_factor'}: Expected tensor "
                           f"with 2 or more dimensions. Got size: {list(A.shape)} instead")
    if (A.dtype.name == "float16" or not A.dtype.is_floating_point) and A.numel():  # (torch
        # calls no kernel for an empty batch)
        raise NotImplementedError(f"\"lu_cpu\" not implemented for '{_args.legacy(A.dtype)}'")
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    return pivot


def _singular_factor(fn: str) -> Any:
    """torch's words for a zero pivot in ``<fn>`` with ``check_errors``."""
    return lambda where, k: (
        f"torch.linalg.{fn}: {where}U[{k},{k}] is zero and using it on lu_solve would result in "
        "a division by zero. If you still want to perform the factorization, consider calling "
        "linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)")


def linalg_lu_factor_ex(A: Tensor, *, pivot: bool = True, check_errors: bool = False) -> Any:
    """``(LU, pivots, info)``: the LU factorization of each matrix of ``A`` with partial
    pivoting, packed as LAPACK's getrf packs it, its 1-based pivots and getrf's info (the first
    zero pivot, or 0; an error for one when ``check_errors``).

    >>> minitorch.linalg.lu_factor_ex(minitorch.tensor([[0., 1.], [2., 0.]])).LU
    tensor([[2., 0.],
            [0., 1.]])
    """
    _check_lu_input("lu_factor_ex", A, pivot)
    check = _args.flag("linalg_lu_factor_ex", check_errors, "check_errors")
    lu, pivots, info = LuFactor.apply(A)
    if check:
        raise_first_failure(A._xp, info._data, _singular_factor("lu_factor_ex"),
                            RuntimeError)
    return return_types.linalg_lu_factor_ex(lu, pivots, info)


@_call_form.python_dispatch(lambda args, kwargs: "_lu_with_infos" if (
    kwargs["get_infos"] if "get_infos" in kwargs else len(args) > 2 and args[2]) else
    "_lu_no_infos")  # (the function torch's boolean_dispatch runs)
def lu(A: Tensor, pivot: bool = True, get_infos: bool = False, out: Any = None) -> tuple:
    """torch's deprecated ``lu``: ``(LU, pivots)`` of
    :func:`linalg_lu_factor_ex`, with its ``info`` too when ``get_infos``; a zero pivot is
    not refused. torch warns once.

    >>> import warnings; warnings.simplefilter("ignore")
    >>> minitorch.lu(minitorch.tensor([[0., 1.], [2., 0.]]))[1]
    tensor([2, 2], dtype=torch.int32)
    """
    factors = _lu_with_info(A, pivot)
    if out is None:
        return factors if get_infos else factors[:2]
    if len(out) - bool(get_infos) != 2:  # torch's Python: each copied in, its size first
        raise TypeError(f"expected tuple of {2 + bool(get_infos)} elements but got {len(out)}")
    if not isinstance(out, (tuple, list)):
        raise TypeError(f"argument 'out' must be tuple of Tensors, not {type(out).__name__}")
    for into, factor in zip(out, factors):
        into.resize_as_(factor).copy_(factor)
    return out


def tensor_lu(self: Tensor, pivot: bool = True, get_infos: bool = False) -> tuple:
    """``Tensor.lu``, torch's Python method: :func:`lu` without ``out=`` (it warns the same,
    once, as the op both call).

    >>> minitorch.tensor([[0., 1.], [2., 0.]]).lu()[1]
    tensor([2, 2], dtype=torch.int32)
    """
    factors = _lu_with_info(self, pivot)
    return factors if get_infos else factors[:2]


def _lu_with_info(A: Any, pivot: Any) -> tuple:
    """``(LU, pivots, info)``: the op torch's Python ``lu`` calls, with its parser's checks."""
    _args.tensor_args("_lu_with_info", (A, "input", 1))
    _args.flag("_lu_with_info", pivot, "pivot")
    warn_once(_LU_DEPRECATED, stacklevel=5)
    return tuple(linalg_lu_factor_ex(A, pivot=pivot))


_LU_DEPRECATED = (
    "torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and "
    "will be removed in a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\n"
    "should be replaced with\nLU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\n"
    "LU, pivots, info = torch.lu(A, compute_pivots, get_infos=True)\nshould be replaced with\n"
    "LU, pivots, info = torch.linalg.lu_factor_ex(A, compute_pivots)")


def linalg_lu_factor(A: Tensor, *, pivot: bool = True) -> Any:
    """``(LU, pivots)``: :func:`linalg_lu_factor_ex` that refuses a matrix with a zero pivot.

    >>> minitorch.linalg.lu_factor(minitorch.tensor([[1., 2.], [3., 4.]])).LU
    tensor([[3.0000, 4.0000],
            [0.3333, 0.6667]])
    """
    _check_lu_input("lu_factor", A, pivot)
    lu, pivots, info = LuFactor.apply(A)
    raise_first_failure(A._xp, info._data, _singular_factor("lu_factor"), RuntimeError)
    return return_types.linalg_lu_factor(lu, pivots)


def linalg_lu(A: Tensor, *, pivot: bool = True) -> Any:
    """``(P, L, U)`` with ``A = P L U``: ``P`` a permutation, ``L`` unit lower triangular
    (..., m, k), ``U`` upper triangular (..., k, n), k = min(m, n).

    >>> minitorch.linalg.lu(minitorch.tensor([[0., 1.], [2., 0.]])).P
    tensor([[0., 1.],
            [1., 0.]])
    """
    _check_lu_input("lu", A, pivot)
    return return_types.linalg_lu(*Lu.apply(A))


def linalg_lu_solve(LU: Tensor, pivots: Tensor, B: Tensor, *, left: bool = True,
                    adjoint: bool = False) -> Tensor:
    """``X`` with ``A X = B`` (``X A = B`` unless ``left``; ``Aᴴ`` for ``A`` when ``adjoint``)
    from ``A``'s :func:`linalg_lu_factor`; batches broadcast.

    >>> lu = minitorch.linalg.lu_factor(minitorch.tensor([[2., 0.], [0., 4.]]))
    >>> minitorch.linalg.lu_solve(*lu, minitorch.ones(2, 1))
    tensor([[0.5000],
            [0.2500]])
    """
    fn = "linalg_lu_solve"
    _args.tensor_args(fn, (LU, "LU", 1), (pivots, "pivots", 2), (B, "B", 3))
    left, adjoint = _args.flag(fn, left, "left"), _args.flag(fn, adjoint, "adjoint")
    _check_lu_solve(LU, pivots, B, left)
    return LuSolve.apply(LU, pivots, B, left=left, adjoint=adjoint)


def lu_solve(input: Tensor, LU_data: Tensor, LU_pivots: Tensor) -> Tensor:
    """The deprecated ``torch.lu_solve(B, LU, pivots)``: :func:`linalg_lu_solve` with its
    arguments in the old order.

    >>> lu = minitorch.linalg.lu_factor(minitorch.tensor([[2., 0.], [0., 4.]]))
    >>> minitorch.ones(2, 1).lu_solve(*lu)
    tensor([[0.5000],
            [0.2500]])
    """
    _args.tensor_args("lu_solve", (input, "input", 1), (LU_data, "LU_data", 2),
                      (LU_pivots, "LU_pivots", 3))
    warn_once("torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be "
              "removed in a future PyTorch release.\nNote that torch.linalg.lu_solve has its "
              "arguments reversed.\nX = torch.lu_solve(B, LU, pivots)\nshould be replaced "
              "with\nX = torch.linalg.lu_solve(LU, pivots, B)")
    return linalg_lu_solve(LU_data, LU_pivots, input)


def _check_lu_solve(LU: Tensor, pivots: Tensor, B: Tensor, left: bool) -> None:
    """torch's checks of ``linalg.lu_solve``'s ``LU``, ``pivots`` and ``B``."""
    if not LU.dtype.is_floating_point:
        raise RuntimeError("torch.linalg.lu_solve: Expected a floating point or complex tensor as "
                           f"input. Got {_args.legacy(LU.dtype)}")
    if LU.dtype is not B.dtype:
        raise RuntimeError("linalg.lu_solve: Expected LU and B to have the same dtype, but found "
                           f"LU of type {_args.legacy(LU.dtype)} and B of type "
                           f"{_args.legacy(B.dtype)} instead")
    if pivots.dtype.name != "int32":
        raise RuntimeError("linalg.lu_solve: pivots should be a Tensor of scalar type "
                           "torch.int32")
    if LU.dim() < 2:
        raise RuntimeError("torch.linalg.lu_solve: The input tensor A must have at least 2 "
                           "dimensions.")
    if LU.shape[-1] != LU.shape[-2]:
        raise RuntimeError("torch.linalg.lu_solve: A must be batches of square matrices, but "
                           f"they are {LU.shape[-2]} by {LU.shape[-1]} matrices")
    if B.dim() < 2:
        raise RuntimeError("linalg.lu_solve: The input tensor B must have at least 2 dimensions.")
    n = LU.shape[-1]
    rows, cols = B.shape[-2:]
    if (rows if left else cols) != n:
        raise RuntimeError("linalg.lu_solve: Incompatible shapes of A and B for the equation "
                           f"{'AX' if left else 'XA'} = B ({n}x{n} and {rows}x{cols})")
    if pivots.dim() < 1:
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    if pivots.shape[-1] != n:
        raise RuntimeError("linalg.lu_solve: Number of pivots per batch should be same as the "
                           "dimension of the matrix")
    if pivots.shape != LU.shape[:-1]:
        raise RuntimeError("linalg.lu_solve: Expected LU.shape[:-1] and pivots.shape to be the "
                           f"same, but got pivots with shape {list(pivots.shape)} instead")
    broadcast_pair(B.shape[:-2], LU.shape[:-2])
    check_lapack("linalg.lu_solve_cpu", LU)
    xp = pivots._xp
    if not bool(xp.all(pivots._data >= 1)):
        raise RuntimeError("Pivots given to lu_solve must all be greater or equal to 1. Did you "
                           "properly pass the result of lu_factor?")
    if not bool(xp.all(pivots._data <= n)):
        raise RuntimeError("Pivots given to lu_solve must all be smaller or equal to LU.size(-2). "
                           "Did you properly pass the result of lu_factor?")


def lu_unpack(LU_data: Tensor, LU_pivots: Tensor, unpack_data: bool = True,
              unpack_pivots: bool = True) -> Any:
    """``(P, L, U)`` from :func:`linalg_lu_factor`'s packed ``LU`` and ``pivots``; an
    unrequested part is an empty tensor, as torch's.

    >>> lu = minitorch.linalg.lu_factor(minitorch.tensor([[0., 1.], [2., 0.]]))
    >>> minitorch.lu_unpack(*lu).U
    tensor([[2., 0.],
            [0., 1.]])
    """
    _args.tensor_args("lu_unpack", (LU_data, "LU_data", 1), (LU_pivots, "LU_pivots", 2))
    unpack_data = _args.flag("lu_unpack", unpack_data, "unpack_data")
    unpack_pivots = _args.flag("lu_unpack", unpack_pivots, "unpack_pivots")
    _check_unpack(LU_data, LU_pivots)
    p, lower, upper = LuUnpack.apply(LU_data, LU_pivots)
    empty = LU_data.new_empty((0,))
    return return_types.lu_unpack(p if unpack_pivots else empty,
                                  lower if unpack_data else empty, upper if unpack_data else empty)
