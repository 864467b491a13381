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

from . import _args, _call_form
from ._tensor import Tensor
from .autograd.grad_mode import is_grad_enabled
from .ops import _out
from .ops import linalg as _products
from .ops import scan as _scan
from .ops import shape as _shape
from .ops.conditioning import cond, matrix_rank
from .ops.cross import linalg_cross as cross
from .ops.decompositions import linalg_cholesky as cholesky
from .ops.decompositions import linalg_cholesky_ex as cholesky_ex
from .ops.decompositions import linalg_pinv as pinv
from .ops.decompositions import linalg_slogdet as slogdet
from .ops.decompositions import linalg_svd as svd
from .ops.decompositions import linalg_svdvals as svdvals
from .ops.eigh import eigh, eigvalsh
from .ops.householder import householder_product, qr
from .ops.inverse import (
    Inv,
    LinAlgError,
    _check_floating,
    _check_square,
    det,
    inv,
    inv_ex,
    solve,
    solve_ex,
)
from .ops.lstsq import lstsq
from .ops.lu import linalg_lu as lu
from .ops.lu import linalg_lu_factor as lu_factor
from .ops.lu import linalg_lu_factor_ex as lu_factor_ex
from .ops.lu import linalg_lu_solve as lu_solve
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
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "householder_product",
    "inv",
    "inv_ex",
    "lstsq",
    "lu",
    "lu_factor",
    "lu_factor_ex",
    "lu_solve",
    "matmul",
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
    "solve_ex",
    "solve_triangular",
    "svd",
    "svdvals",
    "tensorinv",
    "tensorsolve",
    "vander",
    "vecdot",
    "vector_norm",
]


@_call_form.alias_of("matmul")
def matmul(input: Tensor, other: Tensor) -> Tensor:
    """torch.linalg's name for :func:`minitorch.matmul`.

    >>> minitorch.linalg.matmul(minitorch.eye(2), minitorch.ones(2))
    tensor([1., 1.])
    """
    return _products.matmul(input, other)


def vander(x: Tensor, *, N: int | None = None) -> Tensor:
    """The Vandermonde matrix of ``x``: its powers ``x⁰ … x^(N-1)`` (N = ``x.shape[-1]``) side
    by side, each made by multiplying the one before by ``x``, as torch's (a cumulative
    product after a column of ones: the same rounding, and the gradient through them).

    >>> minitorch.linalg.vander(minitorch.tensor([1., 2., 3.]))
    tensor([[1., 1., 1.],
            [1., 2., 4.],
            [1., 3., 9.]])
    """
    _args.tensor_args("linalg_vander", (x, "x", 1))
    if N is not None:
        N = _args.integer("linalg_vander", N, "N", None)
    if x.dtype.name in ("bool", "float16"):  # torch's kernel takes neither
        raise RuntimeError("linalg.vander supports floating point, complex, and integer tensors, "
                           f"but got {_args.legacy(x.dtype)}")
    columns = x.unsqueeze(-1) if x.dim() == 0 else x
    n = columns.shape[-1] if N is None else N
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    powers = _scan.cumprod(columns.unsqueeze(-1).expand(*columns.shape, n - 1), -1)
    return _shape.cat([powers.new_ones(*columns.shape, 1), powers], -1)


@_call_form.parser_types(ord="Number", dim="tuple of ints | None")
def vector_norm(input: Tensor, ord: Any = 2, dim: Any = None, keepdim: bool = False, *,
                dtype: Any = None) -> Tensor:
    """The ``ord``-norm of ``x`` seen as a vector (flattened, or along ``dim``).

    >>> minitorch.linalg.vector_norm(minitorch.tensor([3., -4.]))
    tensor(5.)
    """
    _args.tensor_args("linalg_vector_norm", (input, "input", 1))
    _args.number_types("linalg_vector_norm", (ord, "ord", 2))
    _args.lone_int(dim, listed=False)  # its int[1] (torch.norm's Python passes a list on)
    if isinstance(dim, bool):  # (which torch.norm's Python would pass on as [True])
        _args.int_list("linalg_vector_norm", dim, "dim", 3)
    return _norm(input, ord, dim, keepdim, dtype=dtype)


# torch's signatures of linalg.norm
_NORM_SIGNATURES = tuple(
    f"Tensor input, {kind}, tuple of ints dim = None, bool keepdim = False, *, "
    "torch.dtype dtype = None, Tensor out = None" for kind in ("Number ord = None", "str ord"))


@_call_form.overloads(*_NORM_SIGNATURES)
def norm(input: Tensor, ord: Any = None, dim: Any = None, keepdim: bool = False, *,
         dtype: Any = None) -> Tensor:
    """A vector norm or, for a string ``ord``, a 2-tuple ``dim`` or an ``ord`` on a matrix, a
    matrix norm; with neither ``ord`` nor ``dim``, the 2-norm of all entries.

    >>> minitorch.linalg.norm(minitorch.tensor([[1., -2.], [3., 4.]]), 1)
    tensor(6.)
    """
    _args.tensor_args("linalg_norm", (input, "input", 1))
    if (keepdim is not True and keepdim is not False) or not (
            ord is None or isinstance(ord, (str, int, float, complex))
            or _args.holds_number(ord)):  # (no signature takes them)
        raise _args.invalid_combination("linalg_norm", (input, ord, dim, keepdim),
                                        *_NORM_SIGNATURES, keywords={"dtype": dtype})
    if dim is not None:
        dim = _args.int_list("linalg_norm", dim, "dim", 3)
        if len(dim) not in (1, 2):
            raise RuntimeError("linalg.norm: If dim is specified, it must be of length 1 or 2. "
                               f"Got {list(dim)}")
    elif ord is not None and input.dim() not in (1, 2):
        raise RuntimeError("linalg.norm: If dim is not specified but ord is, the input must be "
                           f"1D or 2D. Got {input.dim()}D.")
    matrix = len(dim) == 2 if dim is not None else input.dim() == 2
    if isinstance(ord, str) or (ord is not None and matrix):
        return matrix_norm(input, ord, (0, 1) if dim is None else dim, keepdim, dtype=dtype)
    return vector_norm(input, 2 if ord is None else ord, dim, keepdim, dtype=dtype)


def tensorsolve(input: Tensor, other: Tensor, dims: Any = None) -> Tensor:
    """``X`` with ``tensordot(A, X, X.dim()) == B``: ``A`` read as a square matrix of rows
    ``B``'s elements (after moving ``dims`` of ``A`` to the end), solved for ``B`` flattened,
    shaped ``A.shape[B.dim():]``.

    >>> minitorch.linalg.tensorsolve(minitorch.eye(6).reshape(2, 3, 6), minitorch.ones(2, 3))
    tensor([1., 1., 1., 1., 1., 1.])
    """
    A, B = input, other  # (torch's parser names them so)
    _args.tensor_args("linalg_tensorsolve", (A, "input", 1), (B, "other", 2))
    if dims is not None:
        if not isinstance(dims, (tuple, list)):  # (an int[] of no fixed length: no lone int)
            raise TypeError("linalg_tensorsolve(): argument 'dims' (position 3) must be tuple "
                            f"of ints, not {_args.type_name(dims)}")
        dims = _args.int_list("linalg_tensorsolve", dims, "dims", 3)
        A = A.movedim(dims, tuple(range(A.dim() - len(dims), A.dim())))
    if B.dim() > A.dim():  # (torch slices A's sizes by a negative count)
        raise RuntimeError("cannot create std::vector larger than max_size()")
    result_shape = A.shape[B.dim():]
    if math.prod(result_shape) != B.numel():
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[other.ndim:])"
                           " == prod(self.shape[:other.ndim]), but got "
                           f"{math.prod(result_shape)} != {B.numel()}")
    rows = B.numel()
    return solve(A.reshape(rows, rows), B.reshape(rows)).reshape(result_shape)


def _eig_refused(fn: str, A: Any) -> Any:
    """torch's checks of ``linalg.eig``'s (``eigvals``'s) input, in its order (``eigvals`` of
    an input that requires grad runs ``eig``, under its name); then minitorch's refusal of
    the complex result."""
    _args.tensor_args(f"linalg_{fn}", (A, "input", 1))
    if not A.dtype.is_floating_point:
        raise RuntimeError(f"Unknown Complex ScalarType for {_args.legacy(A.dtype)}")
    if A.requires_grad and is_grad_enabled():
        fn = "eig"
    if A.dim() < 2:
        raise RuntimeError(f"linalg.{fn}: The input tensor A must have at least 2 dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"linalg.{fn}: A must be batches of square matrices, but they are "
                           f"{A.shape[-2]} by {A.shape[-1]} matrices")
    if A.dtype.name == "float16":
        raise _args.not_implemented("linalg_eig_out_cpu", A.dtype)
    if fn == "eig" and A.numel() and not bool(A.isfinite().all()):
        raise RuntimeError("torch.linalg.eig: input tensor should not contain infs or NaNs.")
    width = "Float" if A.dtype.name == "float32" else "Double"
    raise NotImplementedError(f"minitorch has no complex dtypes: torch.linalg.{fn} would return "
                              f"a Complex{width} tensor")


def eig(input: Tensor) -> tuple:
    """The eigenvalues and eigenvectors of a general square matrix: complex in torch, so
    refused here (minitorch has no complex dtypes) after torch's checks of ``A``; for a
    symmetric ``A``, :func:`eigh` gives them real.

    >>> minitorch.linalg.eig(minitorch.eye(2))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    NotImplementedError: minitorch has no complex dtypes: torch.linalg.eig would return a ...
    """
    return _eig_refused("eig", input)


def eigvals(input: Tensor) -> Tensor:
    """The eigenvalues of a general square matrix: complex in torch, refused here as
    :func:`eig`; :func:`eigvalsh` gives a symmetric matrix's.

    >>> minitorch.linalg.eigvals(minitorch.ones(2, 3))
    Traceback (most recent call last):
    RuntimeError: linalg.eigvals: A must be batches of square matrices, but they are 2 by 3 matrices
    """
    return _eig_refused("eigvals", input)


_call_form.public_functions(globals(), "linalg_")  # parser messages as the call was written


def tensorinv(input: Tensor, ind: int = 2) -> Tensor:
    """The inverse of ``A`` for ``tensordot`` over ``ind`` dims: ``A`` read as a square
    matrix of rows ``A.shape[:ind]`` and columns ``A.shape[ind:]``, inverted, and shaped
    ``A.shape[ind:] + A.shape[:ind]`` (torch's nodes: ReshapeAliasBackward0 over
    LinalgInvExBackward0 over ViewBackward0).

    >>> minitorch.linalg.tensorinv(minitorch.eye(4).reshape(4, 2, 2), ind=1).shape
    torch.Size([2, 2, 4])
    """
    _args.tensor_args("linalg_tensorinv", (input, "input", 1))
    ind = _args.integer("linalg_tensorinv", ind, "ind", None)
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    if ind > input.dim():
        raise RuntimeError(f"ArrayRef: invalid slice, N = {ind}; size = {input.dim()}")
    rows, cols = math.prod(input.shape[:ind]), math.prod(input.shape[ind:])
    if rows != cols:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           f"prod(self.shape[:ind]), but got {cols} != {rows}")
    matrix = input.reshape(rows, rows)
    _check_square("inv", matrix)
    inverse = Inv.apply(matrix, caller="inv")
    # torch's inverse is column-major: its reshape is a view (_reshape_alias) of strided
    # memory, a plain view where that is also row-major (one element or none)
    view = _shape.View if rows <= 1 else _shape.ReshapeAlias
    return view.apply(inverse, shape=(*input.shape[ind:], *input.shape[:ind]))


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
    dim = _args.integer("linalg_vecdot", dim, "dim", None)
    _check_floating("vecdot", x)  # x's alone, before the two dtypes are compared
    if x.dtype != y.dtype:
        raise RuntimeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found "
                           f"x of type {_args.legacy(x.dtype)} and y of type "
                           f"{_args.legacy(y.dtype)} instead")
    if x.dim() == 1 and y.dim() == 1:  # torch's route: vdot, whatever dim says
        return x.vdot(y)
    return (x * y).sum(dim)


_out.add_parsed_out(globals(), _out.LINALG_PARSED_OUT, "linalg_")
