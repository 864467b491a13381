"""Eigen-decomposition of symmetric matrices: ``linalg.eigh`` and ``linalg.eigvalsh`` (one
node, ``LinalgEighBackward0``), by the backend's LAPACK (syevd, as torch's CPU kernel),
reading only the ``UPLO`` triangle.

The gradient is torch's ``linalg_eig_backward`` for Hermitian input, written in ops (so it has
its own gradient): ``V (diag(gL) + sym(Vᴴ gV) / (Lⱼ - Lᵢ)) Vᴴ``, just ``V diag(gL) Vᴴ`` when the
eigenvectors get no gradient.

>>> import minitorch
>>> minitorch.linalg.eigvalsh(minitorch.tensor([[2., 1.], [1., 2.]]))
tensor([1., 3.])
"""

from __future__ import annotations

from typing import Any

from .. import _args, _mkl, backend, return_types
from .._tensor import Tensor
from ..autograd import forward_ad
from ..autograd.grad_mode import is_grad_enabled
from ._base import Op, wrap
from .diagonal import diag_embed
from .inverse import _check_square, raise_first_failure

__all__ = ["LinalgEigh", "eigh", "eigvalsh"]


class LinalgEigh(Op):
    node_name = "LinalgEighBackward0"
    _profile_name = "aten::_linalg_eigh"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, uplo: str, vectors: bool) -> tuple:
        out = tuple(wrap(x) for x in _decompose(a._xp, a._data, uplo, vectors))
        ctx.set_materialize_grads(False)  # as torch's: no vectors' gradient is not a zero one
        ctx.save_for_backward(*out)
        return out

    @staticmethod
    def backward(ctx: Any, g_values: Tensor | None, g_vectors: Tensor | None) -> tuple:
        values, vectors = ctx.saved_tensors
        v, vt = vectors, vectors.mT
        if g_values is None and g_vectors is None:  # torch's node is not run then
            return (None,)
        if g_vectors is None:
            return ((v * g_values.unsqueeze(-2)) @ vt,)
        vtg = vt @ g_vectors
        gaps = values.unsqueeze(-2) - values.unsqueeze(-1)
        gaps = gaps + diag_embed(1 - gaps.diagonal(0, -2, -1))  # 1 on the diagonal
        inner = 0.5 * (vtg - vtg.mT) / gaps
        if g_values is not None:
            inner = inner + diag_embed(g_values - inner.diagonal(0, -2, -1))
        return (v @ (inner @ vt),)


def _decompose(xp: Any, a: Any, uplo: str, vectors: bool) -> tuple:
    """Eigenvalues and eigenvectors (an empty array unless ``vectors``: LAPACK's values-only
    call, as torch makes when no gradient is wanted), by MKL's syevd as torch where MKL is
    installed, else by the backend's LAPACK."""
    if not a.size:  # empty values and vectors of its dtype, whatever it is
        return xp.zeros(a.shape[:-1], dtype=a.dtype), xp.zeros(a.shape if vectors else (0,),
                                                              dtype=a.dtype)
    found = _mkl.symmetric_eigen(a, uplo, vectors)
    if found is not None:  # torch's check of LAPACK's infos, after the whole batch
        raise_first_failure(xp, found[2], lambda where, k: (
            f"linalg.eigh: {where}The algorithm failed to converge because the input matrix is "
            f"ill-conditioned or has too many repeated eigenvalues (error code: {k})."))
    if found is None and vectors:
        found = xp.linalg.eigh(a, UPLO=uplo)
    if found is None:
        return xp.linalg.eigvalsh(a, UPLO=uplo), xp.zeros((0,), a.dtype)
    if not vectors:
        return found[0], xp.zeros((0,), a.dtype)
    return found[0], backend.column_major(found[1])  # the vectors column-major, as torch's


def _checked(fn: str, A: Tensor, UPLO: Any) -> str:
    """torch's checks of ``linalg.eigh``'s arguments, in its order; ``UPLO`` upper-cased."""
    _args.tensor_args(fn, (A, "input", 1))
    _args.string(fn, UPLO, "UPLO", 2)
    if A.dim() < 2 or A.shape[-1] != A.shape[-2]:
        _check_square("eigh", A)
    if len(UPLO) != 1 or UPLO.upper() not in "LU":
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    if A.dtype.name not in ("float32", "float64") and A.numel():  # no kernel runs on nothing
        raise _args.not_implemented("linalg_eigh_cpu", A.dtype)
    return UPLO.upper()


def eigh(input: Tensor, UPLO: str = "L") -> Any:
    """Eigenvalues (ascending) and orthonormal eigenvectors (columns) of a symmetric matrix,
    read from its lower (``UPLO="L"``) or upper triangle.

    >>> minitorch.linalg.eigh(minitorch.eye(2)).eigenvalues
    tensor([1., 1.])
    """
    uplo = _checked("linalg_eigh", input, UPLO)
    return return_types.linalg_eigh(*LinalgEigh.apply(input, uplo=uplo, vectors=True))


def eigvalsh(input: Tensor, UPLO: str = "L") -> Tensor:
    """The eigenvalues (ascending) of a symmetric matrix, read from its ``UPLO`` triangle.

    >>> minitorch.linalg.eigvalsh(minitorch.tensor([[0., 1.], [1., 0.]]))
    tensor([-1.,  1.])
    """
    uplo = _checked("linalg_eigvalsh", input, UPLO)
    vectors = (input.requires_grad and is_grad_enabled()) or forward_ad.has_tangents((input,))
    return LinalgEigh.apply(input, uplo=uplo, vectors=vectors)[0]
