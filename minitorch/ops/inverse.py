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

from .. import _args, _mkl, return_types
from .._creation import eye
from .._tensor import Tensor, broadcast_pair, sum_to
from ..backend import column_major
from ._base import Op, check_same_device, wrap
from .pointwise import where

__all__ = ["Det", "Inv", "LinAlgError", "Solve", "det", "inv", "inv_ex", "solve", "solve_ex"]


class LinAlgError(RuntimeError):
    """torch's error for a matrix the algorithm cannot handle (a singular one)."""


LinAlgError.__name__ = LinAlgError.__qualname__ = "_LinAlgError"  # torch's class name


# torch's float16 refusals: the LAPACK kernel it has none of, else its own check
_HALF_KERNELS = {"det": "lu_cpu", "solve": "lu_cpu", "qr": "geqrf_cpu", "svd": "linalg_svd_cpu",
                 "cholesky": "cholesky_cpu"}
# the kernels torch does not call on an empty batch: its float16 refusal never comes
_EMPTY_SKIPS_KERNEL = {"cholesky"}  # (torch skips det, solve, svd, lu too: minitorch not)


def check_half(fn: str, a: Tensor, module: str = "linalg.") -> None:
    """torch's refusal of a float16 ``A`` in ``linalg.<fn>`` (LAPACK has no float16), or in
    ``<module><fn>``.

    >>> check_half("inv", minitorch.eye(2, dtype=minitorch.float16))
    Traceback (most recent call last):
    RuntimeError: linalg.inv: Low precision dtypes not supported. Got Half
    """
    if a.dtype.name != "float16":
        return
    if fn in _HALF_KERNELS:
        if not a.numel() and fn in _EMPTY_SKIPS_KERNEL:
            return
        raise NotImplementedError(f'"{_HALF_KERNELS[fn]}" not implemented for \'Half\'')
    raise RuntimeError(f"{module}{fn}: Low precision dtypes not supported. Got Half")


def check_lapack(kernel: str, a: Tensor) -> None:
    """torch's refusal of a dtype its LAPACK ``kernel`` has no version of: all but float32
    and float64.

    >>> check_lapack("cholesky_solve_cpu", minitorch.eye(2, dtype=minitorch.int64))
    Traceback (most recent call last):
    NotImplementedError: "cholesky_solve_cpu" not implemented for 'Long'
    """
    if a.dtype.name not in ("float32", "float64"):
        raise _args.not_implemented(kernel, a.dtype)


def _check_square(fn: str, a: Tensor, floating: bool = True) -> None:
    """torch's checks of ``A`` in ``linalg.<fn>``: a batch of square (floating, not float16)
    matrices."""
    if not isinstance(a, Tensor):
        raise TypeError(f"linalg_{fn}(): argument 'A' (position 1) must be Tensor, not "
                        f"{_args.type_name(a)}")
    if a.dim() < 2:
        raise RuntimeError(f"linalg.{fn}: The input tensor A must have at least 2 dimensions.")
    rows, cols = a.shape[-2:]
    if rows != cols:
        raise RuntimeError(f"linalg.{fn}: A must be batches of square matrices, but they are "
                           f"{rows} by {cols} matrices")
    if floating:  # the others (matrix_power, cond) meet these checks in the inv they call
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


def getrf(xp: Any, a: Any) -> tuple[Any, Any, Any]:
    """LAPACK's getrf by the backend: ``LU`` (unit-lower L below the diagonal, U on and above
    it), the 1-based int32 ``pivots`` (..., min(m, n)) and ``info`` (the first zero pivot, or
    0) of each matrix of the batch ``a`` (..., m, n): Gaussian elimination with the row of the
    largest magnitude as pivot, the batch at once, a column at a time."""
    lu = xp.asarray(a, copy=True)
    m, n = lu.shape[-2:]
    rows = xp.arange(m)
    info = xp.zeros(a.shape[:-2], dtype=xp.int32)
    pivots = []
    for j in range(min(m, n)):
        p = j + xp.argmax(xp.abs(lu[..., j:, j]), axis=-1)
        pivots.append(xp.astype(p + 1, xp.int32))
        order = xp.where(rows == j, p[..., None], xp.where(rows == p[..., None], j, rows))
        lu = xp.take_along_axis(lu, xp.broadcast_to(order[..., None], lu.shape), axis=-2)
        pivot = lu[..., j, j]
        info = xp.where((info == 0) & (pivot == 0), j + 1, info)
        below = lu[..., j + 1:, j] / xp.where(pivot == 0, 1, pivot)[..., None]
        lu[..., j + 1:, j] = below
        rest = lu[..., j + 1:, j + 1:] - below[..., None] * lu[..., j:j + 1, j + 1:]
        lu[..., j + 1:, j + 1:] = rest
    if not pivots:
        return lu, xp.zeros((*a.shape[:-2], 0), dtype=xp.int32), info
    return lu, xp.stack(pivots, axis=-1), info


def _solve_ex(xp: Any, a: Any, b: Any, adjoint: bool = False) -> tuple[Any, Any]:
    """``X`` with ``A X = B`` (``Aᵀ X = B`` when ``adjoint``) for batches ``a`` and ``b``
    (broadcast already), and the getrf info of each ``A`` (int32, the batch's shape), as torch's
    ``linalg.solve_ex``: by MKL's getrf and getrs where MKL is here (a singular matrix solved
    all the same, to torch's infs and NaNs), else the backend's ``linalg.solve`` (NaN for a
    singular matrix); column-major, as torch's."""
    solved = _mkl.lu_solve(a, b, adjoint)
    if solved is not None:
        out, infos = solved
        return out, xp.reshape(xp.asarray(infos, dtype=xp.int32), a.shape[:-2])
    square = xp.matrix_transpose(a) if adjoint else a
    try:
        return column_major(xp.linalg.solve(square, b)), xp.zeros(a.shape[:-2], dtype=xp.int32)
    except Exception:  # LAPACK's refusal of a singular matrix, whatever the backend calls it
        infos = getrf(xp, a)[2]
    singular = (infos != 0)[..., None, None]
    identity = xp.eye(a.shape[-1], dtype=a.dtype)
    out = xp.linalg.solve(xp.where(singular, identity, square), b)
    return column_major(xp.where(singular, xp.asarray(float("nan"), dtype=out.dtype), out)), infos


def raise_first_failure(xp: Any, info: Any, message: Any, error: type = LinAlgError) -> None:
    """torch's ``_linalg_check_errors``: an ``error`` for the first nonzero ``info`` of the
    batch, worded by ``message(where, k)``, ``where`` being ``(Batch element i): `` for a
    batch and ``k`` the info."""
    flat = xp.reshape(info, (-1,))
    bad = xp.nonzero(flat)[0]
    if bad.shape[0]:
        i = int(bad[0])
        raise error(message(f"(Batch element {i}): " if info.ndim else "", int(flat[i])))


def _report(xp: Any, info: Any, infos: list | None, message: Any) -> None:
    """The infos go to the caller's list ``infos`` (the ``_ex`` forms), else become torch's
    error for the first singular matrix."""
    if infos is None:
        raise_first_failure(xp, info, message)
    else:
        infos.append(info)


def inverse_failure(caller: str) -> Any:
    """torch's words for a singular matrix in ``<caller>`` (``linalg.inv`` and its kin)."""
    return lambda where, k: (f"{caller}: {where}The diagonal element {k} is zero, the inversion "
                             "could not be completed because the input matrix is singular.")


def solve_failure(caller: str) -> Any:
    """torch's words for a singular matrix in ``<caller>`` (``torch.linalg.solve``, ...)."""
    return lambda where, _: (f"{caller}: {where}The solver failed because the input matrix is "
                             "singular.")


class Inv(Op):
    node_name = "LinalgInvExBackward0"
    saved_names = ("inverse",)
    _profile_name = "aten::linalg_inv_ex"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, caller: str = "linalg.inv",
                infos: list | None = None) -> Tensor:
        """``caller``: the name a singular matrix's error starts with (tensorinv's: inv);
        ``infos``: a list that takes getrf's infos in place of that error (``inv_ex``)."""
        xp = a._xp
        identity = xp.broadcast_to(xp.eye(a.shape[-1], dtype=a._data.dtype), a._data.shape)
        out, info = _solve_ex(xp, a._data, identity)
        _report(xp, info, infos, inverse_failure(caller))
        out = wrap(out)
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
    def forward(ctx: Any, a: Tensor, b: Tensor, *, vector: bool, adjoint: bool = False,
                infos: list | None = None) -> Tensor:
        """``b`` is a batch of matrices, or of vectors (one column each) when ``vector``;
        ``adjoint`` solves ``Aᵀ X = B`` with the factors of ``A`` (the backward's solve);
        ``infos``: a list that takes getrf's infos of ``A``'s batch in place of torch's error
        for a singular matrix (``solve_ex``)."""
        xp = a._xp
        right = b._data[..., None] if vector else b._data
        batch = _broadcast_batch(right.shape[:-2], a.shape[:-2])
        left = xp.broadcast_to(a._data, (*batch, *a.shape[-2:]))
        out, info = _solve_ex(xp, left, xp.broadcast_to(right, (*batch, *right.shape[-2:])),
                              adjoint)
        _report(xp, _own_batch(info, a.shape[:-2]), infos, solve_failure("torch.linalg.solve"))
        ctx.meta = tuple(a.shape), tuple(b.shape), vector, adjoint
        result = wrap(_as_matrices(xp, out[..., 0]) if vector else out)
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
    def forward(ctx: Any, a: Tensor, b: Tensor, *, infos: list | None = None) -> Tensor:
        xp = a._xp
        transposed = wrap(xp.matrix_transpose(b._data))
        out = Solve.forward(ctx, a, transposed, vector=False, adjoint=True, infos=infos)
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


def _as_matrices(xp: Any, vectors: Any) -> Any:
    """A batch of solution vectors laid out as torch's ``linalg.solve`` lays them out: the
    last two dims column-major, as if the vectors of the last batch dim were a matrix's rows."""
    if vectors.ndim < 2:
        return vectors
    buffer = xp.empty(vectors.shape[:-2] + vectors.shape[::-1][:2], dtype=vectors.dtype)
    buffer[...] = xp.matrix_transpose(vectors)
    return xp.matrix_transpose(buffer)


def _own_batch(info: Any, batch: tuple) -> Any:
    """The infos of a broadcast batch cut back to ``A``'s own batch dims ``batch`` (a dim that
    ``A`` broadcast repeats the same matrix)."""
    extra = info.ndim - len(batch)
    return info[(0,) * extra + tuple(slice(None) if size == full else slice(0, 1)
                                     for size, full in zip(batch, info.shape[extra:]))]


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


def inv_ex(A: Tensor, *, check_errors: bool = False) -> Any:
    """``(inverse, info)``: :func:`inv` with getrf's info of each matrix (its first zero pivot,
    1-based, or 0) in place of the error for a singular one, unless ``check_errors``.

    >>> minitorch.linalg.inv_ex(minitorch.tensor([[1., 2.], [2., 4.]])).info
    tensor(2, dtype=torch.int32)
    """
    _args.tensor_args("linalg_inv_ex", (A, "A", 1))
    check = _args.flag("linalg_inv_ex", check_errors, "check_errors")
    _check_square("inv", A)
    infos: list = []
    inverse = Inv.apply(A, infos=infos)
    if check:
        raise_first_failure(A._xp, infos[0], inverse_failure("linalg.inv_ex"))
    return return_types.linalg_inv_ex(inverse, wrap(infos[0]))


def solve(A: Tensor, B: Tensor, *, left: bool = True) -> Tensor:
    """``X`` with ``A X = B`` (``X A = B`` when ``left`` is False): ``B`` a vector (one per
    matrix of ``A``) or a batch of matrices, batches broadcast.

    >>> minitorch.linalg.solve(minitorch.tensor([[2., 0.], [0., 4.]]), minitorch.ones(2))
    tensor([0.5000, 0.2500])
    """
    return _checked_solve("linalg_solve", A, B, left)


def solve_ex(A: Tensor, B: Tensor, *, left: bool = True, check_errors: bool = False) -> Any:
    """``(result, info)``: :func:`solve` with getrf's info of each matrix of ``A`` (its first
    zero pivot, 1-based, or 0) in place of the error for a singular one, unless
    ``check_errors``.

    >>> minitorch.linalg.solve_ex(minitorch.eye(2) * 2, minitorch.ones(2))
    torch.return_types.linalg_solve_ex(
    result=tensor([0.5000, 0.5000]),
    info=tensor(0, dtype=torch.int32))
    """
    _args.tensor_args("linalg_solve_ex", (A, "A", 1), (B, "B", 2))
    left = _args.flag("linalg_solve_ex", left, "left")
    check = _args.flag("linalg_solve_ex", check_errors, "check_errors")
    infos: list = []
    result = _checked_solve("linalg_solve_ex", A, B, left, infos)
    if check:
        raise_first_failure(A._xp, infos[0], solve_failure("torch.linalg.solve_ex"))
    return return_types.linalg_solve_ex(result, wrap(infos[0]))


def _checked_solve(fn: str, A: Tensor, B: Tensor, left: bool, infos: list | None = None
                   ) -> Tensor:
    """torch's checks of ``linalg.solve``'s arguments (``fn`` naming the entry point), then
    the solve; ``infos`` as :class:`Solve`'s."""
    _args.tensor_args(fn, (A, "A", 1), (B, "B", 2))
    left = _args.flag(fn, left, "left")
    check_same_device(A, B)
    _check_floating("solve", A)
    if A.dtype is not B.dtype:
        raise RuntimeError("linalg.solve: Expected A and B to have the same dtype, but found A "
                           f"of type {_args.legacy(A.dtype)} and B of type "
                           f"{_args.legacy(B.dtype)} instead")
    _check_square("solve", A)
    vector = B.dim() == 1 or (B.dim() == A.dim() - 1 and B.shape == A.shape[:-1])
    _check_right_side(A, B, vector, left)
    check_half("solve", A)  # (the shapes' refusals first, as torch's)
    if not left:
        return SolveRight.apply(A, B, infos=infos)
    return Solve.apply(A, B, vector=vector, infos=infos)
