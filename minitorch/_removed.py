"""torch's linear-algebra functions removed in 1.9 that it keeps as names which only refuse,
pointing to their ``torch.linalg`` replacements: ``matrix_rank``, ``solve``, ``lstsq`` and
``eig`` (also the methods ``Tensor.solve``, ``Tensor.lstsq`` and ``Tensor.eig``). Like torch's,
they are Python functions: Python binds their arguments.

>>> import minitorch
>>> try:
...     minitorch.matrix_rank(minitorch.eye(2))
... except RuntimeError as e:
...     print(str(e).splitlines()[0])
This function was deprecated since version 1.9 and is now removed.
"""

from __future__ import annotations

from typing import Any

from ._tensor import Tensor

__all__ = ["METHODS", "eig", "lstsq", "matrix_rank", "solve"]

_REMOVED = "This function was deprecated since version 1.9 and is now removed."


def matrix_rank(input: Tensor, tol: Any = None, symmetric: bool = False, *,
                out: Any = None) -> Tensor:
    """Removed: ``linalg.matrix_rank`` replaces it."""
    raise RuntimeError(f"{_REMOVED}\nPlease use the `torch.linalg.matrix_rank` function "
                       "instead. The parameter 'symmetric' was renamed in "
                       "`torch.linalg.matrix_rank()` to 'hermitian'.")


def solve(input: Tensor, A: Tensor, *, out: Any = None) -> tuple:
    """Removed: ``linalg.solve`` (its arguments reversed) replaces it."""
    raise RuntimeError(
        f"{_REMOVED} `torch.solve` is deprecated in favor of `torch.linalg.solve`. "
        "`torch.linalg.solve` has its arguments reversed and does not return the LU "
        "factorization.\n\nTo get the LU factorization see `torch.lu`, which can be used with "
        "`torch.lu_solve` or `torch.lu_unpack`.\nX = torch.solve(B, A).solution should be "
        "replaced with:\nX = torch.linalg.solve(A, B)")


def lstsq(input: Tensor, A: Tensor, *, out: Any = None) -> tuple:
    """Removed: ``linalg.lstsq`` (its arguments reversed) replaces it."""
    raise RuntimeError(
        f"{_REMOVED} `torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n"
        "`torch.linalg.lstsq` has reversed arguments and does not return the QR decomposition "
        "in the returned tuple (although it returns other information about the problem).\n\n"
        "To get the QR decomposition consider using `torch.linalg.qr`.\n\nThe returned "
        "solution in `torch.lstsq` stored the residuals of the solution in the last m - n "
        "columns of the returned value whenever m > n. In torch.linalg.lstsq, the residuals "
        "are in the field 'residuals' of the returned named tuple.\n\nThe unpacking of the "
        "solution, as in\nX, _ = torch.lstsq(B, A).solution[:A.size(1)]\nshould be replaced "
        "with:\nX = torch.linalg.lstsq(A, B).solution")


def eig(self: Tensor, eigenvectors: bool = False, *, e: Any = None, v: Any = None) -> tuple:
    """Removed: ``linalg.eig`` and ``linalg.eigvals`` replace it."""
    raise RuntimeError(
        f"{_REMOVED} `torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` "
        "rather than real tensors mimicking complex tensors.\n\nL, _ = torch.eig(A) should be "
        "replaced with:\nL_complex = torch.linalg.eigvals(A)\n\nand\n\nL, V = torch.eig(A, "
        "eigenvectors=True) should be replaced with:\nL_complex, V_complex = "
        "torch.linalg.eig(A)")


def _eig_method(self: Tensor, eigenvectors: bool = False) -> tuple:
    return eig(self, eigenvectors=eigenvectors)


def _solve_method(self: Tensor, other: Tensor) -> tuple:
    return solve(self, other)


def _lstsq_method(self: Tensor, other: Tensor) -> tuple:
    return lstsq(self, other)


for _fn in (matrix_rank, solve, lstsq, eig):
    _fn.__module__ = "torch._linalg_utils"  # torch's Python: its parser never sees them
METHODS = {"eig": _eig_method, "solve": _solve_method, "lstsq": _lstsq_method}
