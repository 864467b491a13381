"""``minitorch.linalg``, as ``torch.linalg``: norms, the inverse, the determinant and square
solves, each with torch's node names and messages.

>>> import minitorch
>>> a = minitorch.tensor([[2., 1.], [1., 3.]], requires_grad=True)
>>> minitorch.linalg.solve(a, minitorch.tensor([3., 4.]))
tensor([1., 1.], grad_fn=<LinalgSolveExBackward0>)
"""

from __future__ import annotations

import math
from typing import Any

from . import _args, _call_form, _creation
from ._dtype import bool as bool_
from ._dtype import finfo
from ._tensor import Tensor
from .ops import shape as _shape
from .ops.cross import linalg_cross as cross
from .ops.decompositions import linalg_cholesky as cholesky
from .ops.decompositions import linalg_cholesky_ex as cholesky_ex
from .ops.decompositions import linalg_pinv as pinv
from .ops.decompositions import linalg_slogdet as slogdet
from .ops.decompositions import linalg_svd as svd
from .ops.decompositions import linalg_svdvals as svdvals
from .ops.eigh import eigh, eigvalsh
from .ops.householder import householder_product, qr
from .ops.inverse import Inv, LinAlgError, _check_square, det, inv, solve
from .ops.matrix_exp import linalg_matrix_exp as matrix_exp
from .ops.norm import matrix_norm
from .ops.norm import norm as _norm
from .ops.products import matrix_power, multi_dot
from .ops.solve_triangular import solve_triangular

__all__ = [
    "LinAlgError",
    "cholesky",
    "cholesky_ex",
    "cond",
    "cross",
    "det",
    "diagonal",
    "eigh",
    "eigvalsh",
    "householder_product",
    "inv",
    "matrix_exp",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "multi_dot",
    "norm",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "solve_triangular",
    "svd",
    "svdvals",
    "tensorinv",
    "vecdot",
    "vector_norm",
]


def vector_norm(x: Tensor, ord: Any = 2, dim: Any = None, keepdim: bool = False, *,
                dtype: Any = None) -> Tensor:
    """The ``ord``-norm of ``x`` seen as a vector (flattened, or along ``dim``).

    >>> minitorch.linalg.vector_norm(minitorch.tensor([3., -4.]))
    tensor(5.)
    """
    _args.tensor_args("linalg_vector_norm", (x, "input", 1))
    _args.number_types("linalg_vector_norm", (ord, "ord", 2))
    return _norm(x, ord, dim, keepdim, dtype)


def norm(A: Tensor, ord: Any = None, dim: Any = None, keepdim: bool = False, *,
         dtype: Any = None) -> Tensor:
    """A vector norm or, for a string ``ord``, a 2-tuple ``dim`` or an ``ord`` on a matrix, a
    matrix norm; with neither ``ord`` nor ``dim``, the 2-norm of all entries.

    >>> minitorch.linalg.norm(minitorch.tensor([[1., -2.], [3., 4.]]), 1)
    tensor(6.)
    """
    _args.tensor_args("linalg_norm", (A, "input", 1))
    if dim is not None:
        dim = _args.int_list("linalg_norm", dim, "dim", 3)
        if len(dim) not in (1, 2):
            raise RuntimeError("linalg.norm: If dim is specified, it must be of length 1 or 2. "
                               f"Got {list(dim)}")
    elif ord is not None and A.dim() not in (1, 2):
        raise RuntimeError("linalg.norm: If dim is not specified but ord is, the input must be "
                           f"1D or 2D. Got {A.dim()}D.")
    matrix = len(dim) == 2 if dim is not None else A.dim() == 2
    if isinstance(ord, str) or (ord is not None and matrix):
        return matrix_norm(A, ord, (0, 1) if dim is None else dim, keepdim, dtype=dtype)
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype)


def cond(A: Tensor, p: Any = None) -> Tensor:
    """The condition number of each matrix of ``A`` in the norm ``p``: the ratio of its extreme
    singular values for ``p`` None or +-2, else ``norm(A, p) * norm(inv(A), p)``.

    >>> minitorch.linalg.cond(minitorch.tensor([[2., 0.], [0., 0.5]]))
    tensor(4.)
    """
    _args.tensor_args("linalg_cond", (A, "input", 1))
    if A.dim() < 2:
        raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
    if p is None or (not isinstance(p, str) and abs(p) == 2):
        S = svdvals(A)  # descending
        big, small = S.narrow(-1, 0, 1), S.narrow(-1, -1, 1)
        return (small.div(big) if p == -2 else big.div(small)).squeeze(-1)
    if not isinstance(p, str) and abs(p) not in (1, math.inf):
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    # torch names the order as C++'s to_string writes it (a float: -1.000000)
    _check_square(f"cond(ord={p:f})" if isinstance(p, float) else f"cond(ord={p})", A)
    if isinstance(p, str) and p not in ("fro", "nuc"):
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    if p == "nuc":  # torch's definition, not matrix_norm's
        S = svdvals(A)
        return S.sum(-1) * S.reciprocal().sum(-1)
    inverse = inv(A)
    # torch fills the inverses of singular matrices with inf, in place (minitorch's inv refuses
    # them): its backward then refuses the modified inverse
    inverse.masked_fill_(_creation.zeros((*A.shape[:-2], 1, 1), dtype=bool_), math.inf)
    # zero times infinity is infinity, as numpy's
    return (matrix_norm(A, p) * matrix_norm(inverse, p)).nan_to_num_(math.inf, math.inf,
                                                                       -math.inf)


def matrix_rank(A: Tensor, *, atol: Any = None, rtol: Any = None,
                hermitian: bool = False) -> Tensor:
    """How many singular values of each matrix of ``A`` pass ``max(atol, rtol * largest)``
    (``rtol`` by default the dtype's epsilon times the larger side, unless ``atol`` > 0).

    >>> minitorch.linalg.matrix_rank(minitorch.ones(3, 3))
    tensor(1)
    """
    _args.tensor_args("linalg_matrix_rank", (A, "input", 1))
    if A.dim() < 2:
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at least "
                           "2 dimensions.")
    if not A.dtype.is_floating_point:
        raise RuntimeError("This function doesn't handle types other than float and double")
    S = eigvalsh(A).abs() if hermitian else svdvals(A)
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else \
            finfo(A.dtype).eps * max(A.shape[-2], A.shape[-1])
    tol = S.amax(-1, keepdim=True).mul(rtol).clamp_min(0.0 if atol is None else atol)
    return (tol < S).sum(-1)


_call_form.public_functions(globals(), "linalg_")  # parser messages as the call was written


def tensorinv(A: Tensor, ind: int = 2) -> Tensor:
    """The inverse of ``A`` for ``tensordot`` over ``ind`` dims: ``A`` read as a square
    matrix of rows ``A.shape[:ind]`` and columns ``A.shape[ind:]``, inverted, and shaped
    ``A.shape[ind:] + A.shape[:ind]`` (torch's nodes: ReshapeAliasBackward0 over
    LinalgInvExBackward0 over ViewBackward0).

    >>> minitorch.linalg.tensorinv(minitorch.eye(4).reshape(4, 2, 2), ind=1).shape
    torch.Size([2, 2, 4])
    """
    _args.tensor_args("linalg_tensorinv", (A, "input", 1))
    ind = _args.integer("linalg_tensorinv", ind, "ind", None)
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    if ind > A.dim():
        raise RuntimeError(f"ArrayRef: invalid slice, N = {ind}; size = {A.dim()}")
    rows, cols = math.prod(A.shape[:ind]), math.prod(A.shape[ind:])
    if rows != cols:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           f"prod(self.shape[:ind]), but got {cols} != {rows}")
    matrix = A.reshape(rows, rows)
    _check_square("inv", matrix)
    inverse = Inv.apply(matrix, caller="inv")
    # torch's inverse is column-major: its reshape is a view (_reshape_alias) of strided
    # memory, a plain view where that is also row-major (one element or none)
    view = _shape.View if rows <= 1 else _shape.ReshapeAlias
    return view.apply(inverse, shape=(*A.shape[ind:], *A.shape[:ind]))


def diagonal(A: Tensor, *, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """The diagonal of each matrix of ``A`` (a view): ``A.diagonal`` with torch.linalg's
    defaults, the last two dims.

    >>> minitorch.linalg.diagonal(minitorch.eye(2))
    tensor([1., 1.])
    """
    _args.tensor_args("linalg_diagonal", (A, "A", 1))
    offset = _args.integer("linalg_diagonal", offset, "offset", None)
    return A.diagonal(offset, dim1, dim2)


def vecdot(x: Tensor, y: Tensor, *, dim: int = -1) -> Tensor:
    """The dot product of ``x`` and ``y`` along ``dim`` (batches broadcast): torch's
    ``(x * y).sum(dim)`` for real tensors, ``vdot`` for two vectors.

    >>> minitorch.linalg.vecdot(minitorch.tensor([1., 2.]), minitorch.tensor([3., 4.]))
    tensor(11.)
    """
    _args.tensor_args("linalg_vecdot", (x, "x", 1), (y, "y", 2))
    if x.dtype != y.dtype:
        raise RuntimeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found "
                           f"x of type {_args.legacy(x.dtype)} and y of type "
                           f"{_args.legacy(y.dtype)} instead")
    if x.dim() == 1 and y.dim() == 1:  # torch's route: vdot, whatever dim says
        return x.vdot(y)
    return (x * y).sum(dim)
