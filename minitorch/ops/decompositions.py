"""Matrix decompositions at torch's top level and in ``linalg``: the singular value
decomposition (``linalg.svd``; the old ``torch.svd`` returning ``V``), the old ``torch.qr``
(``linalg.qr`` by a boolean), the sign and log of the determinant (``linalg.slogdet``,
``logdet``), the pseudo-inverse (``linalg.pinv``, ``pinverse``) and the Cholesky factor with
what it solves (``linalg.cholesky``, ``cholesky``, ``cholesky_solve``, ``cholesky_inverse``).

Each has torch's node and torch's gradient formula written in ops, so a graph of the gradient
can be differentiated again. The factors come from LAPACK as torch's CPU kernels call it
(MKL's gesdd where MKL is installed, so the singular vectors have torch's signs).

>>> import minitorch
>>> a = minitorch.tensor([[3., 0.], [0., 4.]], requires_grad=True)
>>> minitorch.linalg.svd(a).S
tensor([4., 3.], grad_fn=<LinalgSvdBackward0>)
>>> minitorch.logdet(a)
tensor(2.4849, grad_fn=<WhereBackward0>)
"""

from __future__ import annotations

import math
import warnings
from typing import Any

from .. import _args, _call_form, _mkl, backend, return_types
from .._tensor import Tensor, sum_to
from ..autograd import forward_ad, grad_mode
from ._base import Op, kept, wrap
from ._cascade_sum import cascade_sum
from .diagonal import diag_embed
from .inverse import (
    LinAlgError,
    _broadcast_batch,
    _check_floating,
    _check_square,
    check_half,
    check_lapack,
    inv,
    raise_first_failure,
)
from .pointwise import where
from .solve_triangular import LinalgSolveTriangular

__all__ = ["CholeskyInverse", "CholeskySolve", "LinalgCholesky", "LinalgPinv", "LinalgSlogdet",
           "LinalgSvd", "cholesky", "cholesky_inverse", "cholesky_solve", "linalg_cholesky",
           "linalg_cholesky_ex", "linalg_pinv", "linalg_slogdet", "linalg_svd", "linalg_svdvals",
           "logdet", "pinverse", "qr", "slogdet", "svd"]


def _svd_arrays(xp: Any, a: Any, full: bool) -> tuple:
    try:
        found = _mkl.svd(a, full) if a.size else None
    except _mkl.NotConverged as failure:
        batch = f"(Batch element {failure.at}): " if a.ndim > 2 else ""
        raise LinAlgError(f"linalg.svd: {batch}The algorithm failed to converge because the "
                          "input matrix is ill-conditioned or has too many repeated singular "
                          f"values (error code: {failure.info}).") from None
    if found is not None:
        return found
    u, s, vh = xp.linalg.svd(a, full_matrices=full)
    return backend.column_major(u), s, backend.column_major(vh)


class LinalgSvd(Op):
    """``A = U diag(S) Vh``; the gradient is torch's ``svd_backward`` (the singular values
    distinct, the matrix of full rank where it is not square)."""

    node_name = "LinalgSvdBackward0"
    _profile_name = "aten::_linalg_svd"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, full_matrices: bool) -> tuple:
        out = tuple(wrap(x) for x in _svd_arrays(a._xp, a._data, full_matrices))
        ctx.set_materialize_grads(False)  # as torch's: no U or Vh gradient is not a zero one
        ctx.full = full_matrices
        ctx.save_for_backward(*out)
        return out

    @staticmethod
    def backward(ctx: Any, g_u: Tensor | None, g_s: Tensor | None, g_vh: Tensor | None
                 ) -> tuple:
        u, s, vh = ctx.saved_tensors
        if ctx.full:  # only the first k singular vectors take part
            k = s.shape[-1]
            u, vh = u[..., :k], vh[..., :k, :]
            g_u = None if g_u is None else g_u[..., :k]
            g_vh = None if g_vh is None else g_vh[..., :k, :]
        return (_svd_backward(g_u, g_s, g_vh, u, s, vh),)


def _svd_backward(g_u: Any, g_s: Any, g_vh: Any, u: Tensor, s: Tensor, vh: Tensor
                  ) -> Tensor | None:
    """torch's ``svd_backward`` for real matrices, in ops."""
    m, n = u.shape[-2], vh.shape[-1]
    if g_u is None and g_vh is None:
        if g_s is None:  # no gradient reached any factor (torch's node is not run then)
            return None
        return u @ (g_s.unsqueeze(-1) * vh) if m >= n else (u * g_s.unsqueeze(-2)) @ vh
    uhgu = None if g_u is None else _skew(u.mT @ g_u)
    vhgv = None if g_vh is None else _skew(vh @ g_vh.mT)
    squares = s * s
    gaps = squares.unsqueeze(-2) - squares.unsqueeze(-1)
    gaps = gaps + diag_embed(1 - gaps.diagonal(0, -2, -1))  # 1 on the diagonal: 0 / 1 there
    if uhgu is not None and vhgv is not None:
        inner = (uhgu * s.unsqueeze(-2) + s.unsqueeze(-1) * vhgv) / gaps
    elif uhgu is not None:
        inner = uhgu * (s.unsqueeze(-2) / gaps)
    else:
        inner = s.unsqueeze(-1) * (vhgv / gaps)
    if g_s is not None:
        inner = inner + diag_embed(g_s)
    if m > n and g_u is not None:
        ga = u @ inner
        scaled = g_u / s.unsqueeze(-2)
        ga = ga + scaled - u @ (u.mT @ scaled)
        return ga @ vh
    if m < n and g_vh is not None:
        ga = inner @ vh
        scaled = g_vh / s.unsqueeze(-1)
        ga = ga + scaled - (scaled @ vh.mT) @ vh
        return u @ ga
    return u @ (inner @ vh) if m >= n else (u @ inner) @ vh


def _skew(a: Tensor) -> Tensor:
    return a - a.mT


def _svd_checked(fn: str, A: Any, driver: Any = None) -> None:
    """torch's checks of an SVD's input, in its order: a tensor of two dims or more, floating,
    not float16 (LAPACK has none), ``driver`` only on CUDA, and no NaN (LAPACK's failure)."""
    linalg = fn.startswith("linalg")
    _args.tensor_args(fn, (A, "A" if linalg else "input", 1))
    if driver is not None:
        _args.string(fn, driver, "driver")
    if A.dim() < 2:
        raise RuntimeError("linalg.svd: The input tensor A must have at least 2 dimensions." if
                           linalg else "linalg.svd: input should have at least 2 dimensions, "
                           f"but has {A.dim()} dimensions instead")
    _check_floating("svd", A)
    check_half("svd", A)
    if driver is not None:
        raise RuntimeError("torch.linalg.svd: keyword argument `driver=` is only supported on "
                           "CUDA inputs with cuSOLVER backend.")
    _check_converges(A)


def _check_converges(a: Tensor) -> None:
    """torch's error where LAPACK's SVD fails: a matrix holding a NaN (an infinity gives NaNs,
    as torch's)."""
    nan = a._xp.any(a._xp.isnan(a._data), axis=(-2, -1))
    if a._xp.any(nan):
        at = int(a._xp.argmax(a._xp.reshape(nan, (-1,))))
        batch = f"(Batch element {at}): " if a.dim() > 2 else ""
        raise LinAlgError(f"linalg.svd: {batch}The algorithm failed to converge because the "
                          "input matrix contained non-finite values.")


def linalg_svdvals(A: Tensor, *, driver: Any = None) -> Tensor:
    """The singular values of the matrices in the last two dims, largest first: torch's
    ``linalg.svdvals``, the ``S`` of ``linalg.svd`` with its node and gradient.

    >>> minitorch.linalg.svdvals(minitorch.tensor([[0., 2.], [1., 0.]]))
    tensor([2., 1.])
    """
    _svd_checked("linalg_svdvals", A, driver)
    if (grad_mode._state.grad_enabled and A.requires_grad) or forward_ad.has_tangents((A,)):
        return LinalgSvd.apply(A, full_matrices=False)[1]
    found = _mkl.svd(A._data, False, vectors=False)  # torch asks LAPACK for the values alone
    return wrap(_svd_arrays(A._xp, A._data, False)[1] if found is None else found[1])


def linalg_svd(A: Tensor, full_matrices: bool = True, *, driver: Any = None) -> Any:
    """``U``, ``S``, ``Vh`` with ``A = U @ diag(S) @ Vh``: the singular values in descending
    order, ``U`` and ``Vh`` square (``full_matrices``) or of ``min(m, n)`` vectors.

    >>> minitorch.linalg.svd(minitorch.tensor([[0., 2.], [1., 0.]])).S
    tensor([2., 1.])
    """
    _args.tensor_args("linalg_svd", (A, "A", 1))  # the parser's types, then the checks
    full = _args.flag("linalg_svd", full_matrices, "full_matrices", 2)
    _svd_checked("linalg_svd", A, driver)
    return return_types.linalg_svd(*LinalgSvd.apply(A, full_matrices=full))


def svd(input: Tensor, some: bool = True, compute_uv: bool = True) -> Any:
    """torch's older ``svd``: ``U``, ``S`` and ``V`` (not its transpose) with
    ``input = U @ diag(S) @ V.mT``; ``some`` keeps ``min(m, n)`` vectors; without
    ``compute_uv``, ``U`` and ``V`` are zeros.

    >>> minitorch.svd(minitorch.tensor([[0., 2.], [1., 0.]]), compute_uv=False)
    torch.return_types.svd(
    U=tensor([[0., 0.],
            [0., 0.]]),
    S=tensor([2., 1.]),
    V=tensor([[0., 0.],
            [0., 0.]]))
    """
    _args.tensor_args("svd", (input, "input", 1))  # the parser's types, then the checks
    some, compute_uv = (_args.flag("svd", v, name, at) for v, name, at in
                        ((some, "some", 2), (compute_uv, "compute_uv", 3)))
    _svd_checked("svd", input)
    if compute_uv:
        u, s, vh = LinalgSvd.apply(input, full_matrices=not some)
        return return_types.svd(u, s, vh.mT)
    s = linalg_svdvals(input)
    m, n = input.shape[-2:]
    batch = tuple(input.shape[:-2])
    u = input.new_zeros((*batch, m, m))
    return return_types.svd(u, s, input.new_zeros((*batch, n, n)).mT)


_qr_warned = [False]


def qr(input: Tensor, some: bool = True) -> Any:
    """torch's older ``qr``: ``linalg.qr`` with ``some`` for the reduced factors (else the
    complete ones); deprecated in torch, which warns once.

    >>> minitorch.qr(minitorch.tensor([[3., 0.], [4., 5.]])).R
    tensor([[-5., -4.],
            [ 0.,  3.]])
    """
    from .householder import qr as linalg_qr

    if not _qr_warned[0]:
        _qr_warned[0] = True
        warnings.warn("torch.qr is deprecated in favor of torch.linalg.qr and will be removed "
                      "in a future PyTorch release.\nThe boolean parameter 'some' has been "
                      "replaced with a string parameter 'mode'.\nQ, R = torch.qr(A, some)\n"
                      "should be replaced with\nQ, R = torch.linalg.qr(A, 'reduced' if some else "
                      "'complete')", UserWarning, stacklevel=3)
    _args.tensor_args("qr", (input, "input", 1))
    some = _args.flag("qr", some, "some", 2)
    return return_types.qr(*linalg_qr(input, "reduced" if some else "complete"))


class LinalgSlogdet(Op):
    """The sign and the log of the absolute value of the determinant, by LU; the gradient
    of the log is ``g * A^{-T}`` (the sign's is zero)."""

    node_name = "LinalgSlogdetBackward0"
    _profile_name = "aten::_linalg_slogdet"

    @staticmethod
    def forward(ctx: Any, a: Tensor) -> tuple:
        xp = a._xp
        found = _mkl.lu_diagonals(a._data) if a.numel() else None
        if found is None:
            sign, log = xp.linalg.slogdet(a._data)
            sign, log = xp.asarray(sign, dtype=a._data.dtype), xp.asarray(log)
        else:
            sign, log = _slogdet_of_lu(xp, a._data, found)
        ctx.save_for_backward(a)
        ctx.set_materialize_grads(False)  # as torch's: the sign's gradient alone is none
        return wrap(sign), wrap(log)

    @staticmethod
    def backward(ctx: Any, g_sign: Any, g_log: Tensor | None) -> tuple:
        (a,) = ctx.saved_tensors
        if g_log is None:
            return (None,)
        # (+ 0.0: torch's triangular solve skips a zero right-hand side, so a zero gradient
        # is +0 where the inverse is negative)
        return (g_log.unsqueeze(-1).unsqueeze(-1) * inv(a).mT + 0.0,)


def _slogdet_of_lu(xp: Any, a: Any, found: list) -> tuple[Any, Any]:
    """torch's sign and log of the determinants from U's diagonals and the permutations'
    signs (``_mkl.lu_diagonals``): the product of the diagonal's signs times the permutation's,
    and the sum of the logs of its absolute values (the log of torch's kernel, the sum in
    torch's order)."""
    diagonals = xp.stack([d for d, _ in found])
    # torch's sign kernel, (0 < x) - (x < 0): a NaN on the diagonal signs 0, not NaN
    sign = xp.astype(diagonals > 0, a.dtype) - xp.astype(diagonals < 0, a.dtype)
    signs = xp.asarray([s for _, s in found], dtype=a.dtype) * xp.prod(sign, axis=-1)
    logs = cascade_sum(xp, backend.cpu_math(xp.log, xp.abs(diagonals)), (-1,), False)
    batch = a.shape[:-2]
    return xp.reshape(signs, batch), xp.reshape(logs, batch)


def linalg_slogdet(A: Tensor) -> Any:
    """The sign (1, -1, or 0 for a singular matrix) and the log of the absolute value of the
    determinant, which stays finite where the determinant under- or overflows.

    >>> minitorch.linalg.slogdet(minitorch.tensor([[-2., 0.], [0., 3.]])).logabsdet
    tensor(1.7918)
    """
    _args.tensor_args("linalg_slogdet", (A, "A", 1))
    _check_square("slogdet", A)
    return return_types.linalg_slogdet(*LinalgSlogdet.apply(A))


def slogdet(input: Tensor) -> Any:
    """``linalg.slogdet`` under torch's older name (and its return type's).

    >>> minitorch.slogdet(minitorch.eye(2) * 2).logabsdet
    tensor(1.3863)
    """
    _args.tensor_args("slogdet", (input, "input", 1))
    _check_square("slogdet", input)
    return return_types.slogdet(*LinalgSlogdet.apply(input))


def logdet(input: Tensor) -> Tensor:
    """The log of the determinant: nan where it is negative, -inf where it is 0.

    >>> minitorch.logdet(minitorch.eye(2) * 3)
    tensor(2.1972)
    """
    _args.tensor_args("logdet", (input, "input", 1))
    _cholesky_checked("logdet", input)  # (the same shape checks, in logdet's words)
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"logdet: Expected a floating point or complex tensor as input. Got "
                           f"{_args.legacy(input.dtype)}")
    check_half("logdet", input, module="")
    sign, log = LinalgSlogdet.apply(input)
    return where(sign == -1.0, math.nan, log)


class LinalgPinv(Op):
    """The pseudo-inverse ``V diag(1 / S) U^T`` over the singular values above the
    tolerance ``max(atol, rtol * largest)`` (float64, as torch's); ``hermitian``: from the
    eigenvalues of the lower triangle, ``U diag(1 / w) U^T`` over ``|w|`` above it. The
    gradient is torch's ``pinv_backward``."""

    node_name = "LinalgPinvBackward0"
    _profile_name = "aten::linalg_pinv"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, atol: Any, rtol: Any, hermitian: bool) -> Tensor:
        xp = a._xp
        if not min(a.shape[-2:]):  # no singular value: zeros, as torch's
            out = xp.zeros((*a.shape[:-2], a.shape[-1], a.shape[-2]), dtype=a._data.dtype)
            result = wrap(out)
            ctx.save_for_backward(a, result)
            return result
        if hermitian:
            from .eigh import _decompose

            s, u = _decompose(xp, a._data, "L", True)
            size, vh = xp.abs(s), xp.matrix_transpose(u)
        else:
            u, s, vh = _svd_arrays(xp, a._data, False)
            size = s
        largest = xp.astype(xp.max(size, axis=-1, keepdims=True), xp.float64)
        cut = xp.maximum(atol[..., None], rtol[..., None] * largest)
        kept = xp.astype(size, xp.float64) > cut
        inverse = xp.where(kept, 1 / xp.where(kept, s, xp.ones_like(s)), xp.zeros_like(s))
        scaled = wrap(xp.matrix_transpose(vh) * xp.expand_dims(inverse, axis=-2))
        result = scaled @ wrap(xp.matrix_transpose(u))  # torch's product, its bits
        ctx.save_for_backward(a, result)
        return result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        a, p = ctx.saved_tensors
        return (pinv_backward(g, p, a),)


def pinv_backward(g: Tensor, p: Tensor, a: Tensor) -> Tensor:
    """torch's ``pinv_backward``: the gradient of ``A`` from ``g``, that of ``p = pinv(A)``."""
    m, n = a.shape[-2:]
    ph, gh = p.mT, g.mT
    if m <= n:
        k = gh @ p
        kph = k @ ph
        return -(p @ k).mT + kph - (a @ p) @ kph + (ph @ p) @ (gh - k @ a)
    k = p @ gh
    phk = ph @ k
    return -(k @ p).mT + (gh - a @ k) @ p @ ph + phk - phk @ p @ a


def _pinv(fn: str, A: Any, atol: Any, rtol: Any, hermitian: bool = False) -> Tensor:
    """``A``'s pseudo-inverse once its dtype and rank are torch's; ``atol`` and ``rtol``
    (numbers or tensors) as float64 arrays, the default rtol ``max(m, n) * eps`` where none
    is given (zero where a positive atol is)."""
    if A.dim() < 2 or A.dtype.name not in ("float32", "float64"):
        raise RuntimeError(f"linalg.pinv({_args.legacy(A.dtype)}{{{list(A.shape)}}}): expected "
                           "a tensor with 2 or more dimensions of float, double, cfloat or "
                           "cdouble types")
    xp = A._xp

    def array(v: Any) -> Any:
        return xp.astype(v._data if isinstance(v, Tensor) else xp.asarray(v), xp.float64)

    given_atol = None if atol is None else array(atol)
    atol = xp.asarray(0.0, dtype=xp.float64) if given_atol is None else given_atol
    if rtol is None:
        from .._dtype import finfo

        default = xp.asarray(max(A.shape[-2:]) * finfo(A.dtype).eps, dtype=xp.float64)
        rtol = default if given_atol is None else xp.where(given_atol > 0, 0.0, default)
    if hermitian:
        _check_square("eigh", A)
    else:
        _check_converges(A)  # torch's pinv is its SVD's
    return LinalgPinv.apply(A, atol=atol, rtol=array(rtol), hermitian=hermitian)


PINV_SIGNATURES = (
    "Tensor input, *, Tensor atol = None, Tensor rtol = None, bool hermitian = False, "
    "Tensor out = None",
    "Tensor input, *, float atol = None, float rtol = None, bool hermitian = False, "
    "Tensor out = None",
    "Tensor input, Tensor rcond, bool hermitian = False, *, Tensor out = None",
    "Tensor input, float rcond, bool hermitian = False, *, Tensor out = None")


@_call_form.overloads(*PINV_SIGNATURES)
def linalg_pinv(input: Tensor, rcond: Any = _args.OMITTED, hermitian: bool = False, *,
                atol: Any = None, rtol: Any = None) -> Tensor:
    """The Moore-Penrose pseudo-inverse: singular values up to ``max(atol, rtol * largest)``
    count as zero (by default ``rtol = max(m, n) * eps``); ``rcond`` is ``rtol``;
    ``hermitian``: from the eigenvalues of the lower triangle.

    >>> minitorch.linalg.pinv(minitorch.tensor([[2., 0.], [0., 0.]]))
    tensor([[0.5000, 0.0000],
            [0.0000, 0.0000]])
    """
    _args.tensor_args("linalg_pinv", (input, "input", 1))
    given = {k: v for k, v in (("atol", atol), ("rtol", rtol)) if v is not None}
    explicit = () if rcond is _args.OMITTED else (rcond,)  # (torch's overloads take no None)
    if (explicit and given) or not all(_args.is_tensor(v) or _args.is_real(v)
                                       for v in (*explicit, *given.values())) or \
            not isinstance(hermitian, bool):
        flags = {} if hermitian is False else {"hermitian": hermitian}
        raise _args.invalid_combination("linalg_pinv", (input, *explicit), *PINV_SIGNATURES,
                                        keywords={**given, **flags})
    if explicit:
        rtol = rcond
    if isinstance(atol, (int, float)) and rtol is None:  # torch's float overload: its default rtol
        _args.wrap_dim(-2, input.dim())        # reads the sizes and the dtype's eps first
        if input.dtype.name not in ("float32", "float64"):
            raise RuntimeError("This function doesn't handle types other than float and double")
    return _pinv("linalg_pinv", input, atol, rtol, hermitian)


def pinverse(input: Tensor, rcond: float = 1e-15) -> Tensor:
    """The pseudo-inverse, singular values up to ``rcond`` times the largest counting as
    zero (``linalg.pinv`` with ``rtol=rcond``).

    >>> minitorch.pinverse(minitorch.tensor([[1., 2.]]))
    tensor([[0.2000],
            [0.4000]])
    """
    _args.tensor_args("pinverse", (input, "input", 1))
    (rcond,) = _args.reals("pinverse", (rcond, "rcond", 2))
    return _pinv("pinverse", input, None, float(rcond))


class LinalgCholesky(Op):
    """The lower (or upper) triangular ``L`` with ``A = L L^T``; torch's
    ``cholesky_backward``. With ``info`` it also returns LAPACK's ``info`` (``cholesky_ex``)."""

    node_name = "LinalgCholeskyExBackward0"
    saved_names = ("L",)
    saved_values = {"upper": kept("upper")}
    _profile_name = "aten::linalg_cholesky_ex"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, upper: bool, fn: str, check_errors: bool = True,
                info: bool = False) -> Any:
        factor, infos = _cholesky_factor(a._xp, a._data, upper)
        if check_errors:
            _raise_not_positive(fn, infos, a.dim() > 2)
        out = wrap(factor)
        ctx.upper = upper
        ctx.save_for_backward(out)
        codes = a._xp.reshape(a._xp.asarray(infos, dtype=a._xp.int32), tuple(a.shape[:-2]))
        return (out, wrap(codes)) if info else out

    @staticmethod
    def backward(ctx: Any, g: Tensor, *_info: Any) -> tuple:
        (factor,) = ctx.saved_tensors
        low, g_low = (factor.mT, g.mT) if ctx.upper else (factor, g)
        ga = (low.mT @ g_low).tril()
        ga = 0.5 * (ga + ga.tril(-1).mT)
        ga = LinalgSolveTriangular.apply(low.mT, ga, upper=True, left=True, unitriangular=False)
        return (LinalgSolveTriangular.apply(low, ga, upper=False, left=False,
                                            unitriangular=False),)


class Cholesky(LinalgCholesky):
    """torch's older ``cholesky``: the same factor and gradient, its own node; an empty input
    (any shape) gives an empty result."""

    node_name = "CholeskyBackward0"
    saved_names = ("result",)
    _profile_name = "aten::cholesky"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, upper: bool, fn: str) -> Any:
        if a.numel():
            return LinalgCholesky.forward(ctx, a, upper=upper, fn=fn)
        out = wrap(a._xp.zeros_like(a._data))
        ctx.upper = upper
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor, *_info: Any) -> tuple:
        if g.numel():
            return LinalgCholesky.backward(ctx, g)
        # an empty result that is no batch of square matrices meets torch's formula's refusals
        if g.dim() < 2:
            raise RuntimeError("tensor.mH is only supported on matrices or batches of matrices. "
                               f"Got {g.dim()}-D tensor.")
        rows, cols = g.shape[-2:] if ctx.upper else g.shape[:-3:-1]  # the lower factor's mT
        if rows != cols:
            raise RuntimeError("linalg.solve_triangular: A must be batches of square matrices, "
                               f"but they are {rows} by {cols} matrices")
        return (g,)


def _cholesky_factor(xp: Any, a: Any, upper: bool) -> tuple[Any, list[int]]:
    """The factor of each matrix of the batch ``a``, from the triangle torch reads (the
    lower, or the upper with ``upper``), column-major as torch's; with LAPACK's ``info`` of
    each matrix (0, or the order of its first leading minor that is not positive-definite,
    where the factor is what potrf leaves). By MKL's potrf, as torch, where MKL is installed;
    else by the backend's ``linalg.cholesky``, or the column-by-column factorization where a
    matrix fails."""
    found = _mkl.cholesky(a, upper)
    if found is not None:
        return found
    low = xp.tril(xp.matrix_transpose(a) if upper else a)
    symmetric = low + xp.matrix_transpose(xp.tril(low, k=-1))
    try:
        factor = xp.linalg.cholesky(symmetric)
    except Exception:  # the backend's refusal (numpy's); potf2's infos below say where
        factor = None
    infos = [0] * math.prod(a.shape[:-2])
    if factor is None or not bool(xp.all(xp.isfinite(factor))):
        partial, codes = _factor(xp, symmetric)
        if factor is None or bool(xp.any(codes != 0)):
            factor, infos = partial, [int(c) for c in xp.reshape(codes, (-1,))]
    return backend.column_major(xp.matrix_transpose(factor) if upper else factor), infos


def _factor(xp: Any, a: Any) -> tuple:
    """The lower factor and LAPACK's ``info`` per matrix (int32: 0, or the order of the first
    leading minor that is not positive-definite) of the symmetric batch ``a``, column by
    column. Where a matrix fails, its factor is what LAPACK's potf2 leaves: the columns
    before the failing one factored, that column's pivot unrooted, the rest of ``A``'s lower
    triangle as it was."""
    n = a.shape[-1]
    info = xp.zeros(a.shape[:-2], dtype=xp.int32)
    rows = xp.arange(n)
    zero = xp.zeros((), dtype=a.dtype)
    cols: list = []
    for j in range(n):
        col = a[..., :, j]
        if cols:
            done = xp.stack(cols, axis=-1)
            col = col - xp.matmul(done, done[..., j, :, None])[..., 0]
        pivot = col[..., j:j + 1]
        running = (info == 0)[..., None]
        ok = running & (pivot > 0)
        root = xp.sqrt(xp.where(ok, pivot, xp.ones_like(pivot)))
        below = xp.where(ok, col / root, a[..., :, j])
        diagonal = xp.where(ok, root, xp.where(running, pivot, a[..., j:j + 1, j]))
        cols.append(xp.where(rows < j, zero, xp.where(rows == j, diagonal, below)))
        info = xp.where(running[..., 0] & ~ok[..., 0], xp.asarray(j + 1, dtype=xp.int32),
                        info)
    return (xp.stack(cols, axis=-1) if cols else a), info


def _raise_not_positive(fn: str, infos: list[int], batched: bool) -> None:
    """torch's error for the first matrix whose factorization failed, if any."""
    for i, order in enumerate(infos):
        if order:
            where = f"(Batch element {i}): " if batched else ""
            raise LinAlgError(f"{fn}: {where}The factorization could not be completed because "
                              "the input is not positive-definite (the leading minor of order "
                              f"{order} is not positive-definite).")


def _cholesky_checked(fn: str, A: Any) -> None:
    if A.dim() < 2:
        raise RuntimeError(f"{fn}: The input tensor A must have at least 2 dimensions.")
    _square_matrices(f"{fn}: ", A)


def _square_matrices(prefix: str, A: Tensor) -> None:
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"{prefix}A must be batches of square matrices, but they are "
                           f"{A.shape[-2]} by {A.shape[-1]} matrices")


def linalg_cholesky(input: Tensor, *, upper: bool = False) -> Tensor:
    """The Cholesky factor of a symmetric positive-definite matrix: lower triangular ``L``
    with ``A = L @ L.mT`` (upper, ``L.mT``, with ``upper``).

    >>> minitorch.linalg.cholesky(minitorch.tensor([[4., 2.], [2., 5.]]))
    tensor([[2., 0.],
            [1., 2.]])
    """
    _args.tensor_args("linalg_cholesky", (input, "input", 1))
    upper = _args.flag("linalg_cholesky", upper, "upper")
    _cholesky_checked("linalg.cholesky", input)
    _check_floating("cholesky", input)
    check_half("cholesky", input)
    return LinalgCholesky.apply(input, upper=upper, fn="linalg.cholesky")


def linalg_cholesky_ex(input: Tensor, *, upper: bool = False, check_errors: bool = False) -> Any:
    """``linalg.cholesky`` that reports instead of raising: ``(L, info)``, ``info`` 0 where a
    matrix factors, else the order of its first leading minor that is not positive-definite
    (raised as ``linalg.cholesky`` does with ``check_errors``).

    >>> minitorch.linalg.cholesky_ex(minitorch.tensor([[4., 2.], [2., -5.]])).info
    tensor(2, dtype=torch.int32)
    """
    _args.tensor_args("linalg_cholesky_ex", (input, "input", 1))
    upper = _args.flag("linalg_cholesky_ex", upper, "upper")
    check_errors = _args.flag("linalg_cholesky_ex", check_errors, "check_errors")
    _cholesky_checked("linalg.cholesky", input)
    _check_floating("cholesky", input)
    check_half("cholesky", input)
    return return_types.linalg_cholesky_ex(*LinalgCholesky.apply(
        input, upper=upper, fn="linalg.cholesky_ex", check_errors=check_errors, info=True))


_cholesky_warned = [False]


def cholesky(input: Tensor, upper: bool = False) -> Tensor:
    """torch's older ``cholesky`` (deprecated in torch, which warns once): the factor of
    ``linalg.cholesky``.

    >>> import warnings; warnings.simplefilter("ignore")
    >>> minitorch.cholesky(minitorch.tensor([[4., 2.], [2., 5.]]), upper=True)
    tensor([[2., 1.],
            [0., 2.]])
    """
    if not _cholesky_warned[0]:
        _cholesky_warned[0] = True
        warnings.warn("torch.cholesky is deprecated in favor of torch.linalg.cholesky and will "
                      "be removed in a future PyTorch release.\nL = torch.cholesky(A)\nshould "
                      "be replaced with\nL = torch.linalg.cholesky(A)\nand\nU = "
                      "torch.cholesky(A, upper=True)\nshould be replaced with\nU = "
                      "torch.linalg.cholesky(A).mH\nThis transform will produce equivalent "
                      "results for all valid (symmetric positive definite) inputs.",
                      UserWarning, stacklevel=3)
    _args.tensor_args("cholesky", (input, "input", 1))
    upper = _args.flag("cholesky", upper, "upper", 2)
    if input.numel():  # torch returns an empty input's like before any check
        _cholesky_checked("cholesky", input)
        check_lapack("cholesky_cpu", input)
    return Cholesky.apply(input, upper=upper, fn="cholesky")


class CholeskyInverse(Op):
    """``(L L^T)^{-1}`` from the Cholesky factor ``L`` (or ``U^T U`` with ``upper``)."""

    node_name = "CholeskyInverseBackward0"
    _profile_name = "aten::cholesky_inverse"

    @staticmethod
    def forward(ctx: Any, factor: Tensor, *, upper: bool) -> Tensor:
        found = _mkl.cholesky_inverse(factor._data, upper)
        out = wrap(_from_factor(factor, upper, lambda xp, a: xp.linalg.inv(a))
                   if found is None else found)
        ctx.upper = upper
        ctx.save_for_backward(factor, out)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        factor, out = ctx.saved_tensors
        common = out @ ((g + g.mT) @ out)  # torch's: A^{-1} (G + G^T) A^{-1}
        return (-(factor @ common) if ctx.upper else -(common @ factor),)


def _from_factor(factor: Tensor, upper: bool, fn: Any) -> Any:
    """``fn(xp, A)`` for ``A`` rebuilt from its Cholesky factor, by the backend (without MKL),
    column-major as torch's result."""
    xp, f = factor._xp, factor._data
    a = xp.matmul(xp.matrix_transpose(f), f) if upper else xp.matmul(f, xp.matrix_transpose(f))
    return backend.column_major(fn(xp, a))


def cholesky_inverse(input: Tensor, upper: bool = False) -> Tensor:
    """The inverse of ``A`` from its Cholesky factor (``input`` lower triangular, or upper).

    >>> minitorch.cholesky_inverse(minitorch.tensor([[2., 0.], [1., 2.]]))
    tensor([[ 0.3125, -0.1250],
            [-0.1250,  0.2500]])
    """
    _args.tensor_args("cholesky_inverse", (input, "input", 1))
    upper = _args.flag("cholesky_inverse", upper, "upper", 2)
    _cholesky_checked("cholesky_inverse", input)
    check_lapack("cholesky_inverse_out_cpu", input)
    _check_nonzero_diagonal(input)
    return CholeskyInverse.apply(input, upper=upper)


def _check_nonzero_diagonal(factor: Tensor) -> None:
    """torch's error where LAPACK's potri meets an exact zero on a factor's diagonal (its
    info: the order of the first one)."""
    if not factor.shape[-1]:
        return
    xp = factor._xp
    zero = factor.diagonal(0, -2, -1)._data == 0
    first = xp.argmax(xp.astype(zero, xp.int8), axis=-1) + 1
    infos = xp.where(xp.any(zero, axis=-1), first, xp.zeros_like(first))
    raise_first_failure(xp, infos, lambda where, k: (
        f"cholesky_inverse: {where}The diagonal element {k} is zero, the inversion could not be "
        "completed because the input matrix is singular."))


class CholeskySolve(Op):
    """``X`` with ``A X = B`` given the Cholesky factor of ``A``; torch's
    ``cholesky_solve_backward``."""

    node_name = "CholeskySolveBackward0"
    _profile_name = "aten::cholesky_solve"

    @staticmethod
    def forward(ctx: Any, b: Tensor, factor: Tensor, *, upper: bool) -> Tensor:
        xp = factor._xp
        batch = _broadcast_batch(b.shape[:-2], factor.shape[:-2])
        rhs = xp.broadcast_to(b._data, (*batch, *b.shape[-2:]))
        found = _mkl.cholesky_solve(
            rhs, xp.broadcast_to(factor._data, (*batch, *factor.shape[-2:])), upper)
        out = wrap(_from_factor(factor, upper, lambda xp, a: xp.linalg.solve(a, rhs))
                   if found is None else found)
        ctx.upper = upper
        ctx.save_for_backward(b, factor, out)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        b, factor, x = ctx.saved_tensors
        grad_b = CholeskySolve.apply(g, factor, upper=ctx.upper)
        grad_factor = None
        if ctx.needs_input_grad[1]:
            common = -grad_b @ x.mT
            common = common + common.mT
            grad_factor = sum_to((factor @ common) if ctx.upper else (common @ factor),
                                 factor.shape)
        return sum_to(grad_b, b.shape), grad_factor  # batches broadcast: summed back


def cholesky_solve(input: Tensor, input2: Tensor, upper: bool = False) -> Tensor:
    """``X`` with ``A X = input``, ``input2`` the Cholesky factor of ``A`` (lower, or upper).

    >>> minitorch.cholesky_solve(minitorch.tensor([[4.], [5.]]), minitorch.eye(2) * 2)
    tensor([[1.0000],
            [1.2500]])
    """
    _args.tensor_args("cholesky_solve", (input, "input", 1), (input2, "input2", 2))
    upper = _args.flag("cholesky_solve", upper, "upper", 3)
    if input.dim() < 2:
        raise RuntimeError(f"b should have at least 2 dimensions, but has {input.dim()} "
                           "dimensions instead")
    if input2.dim() < 2:
        raise RuntimeError(f"u should have at least 2 dimensions, but has {input2.dim()} "
                           "dimensions instead")
    if input.dtype is not input2.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                           f"{_args.legacy(input.dtype)} and A of type "
                           f"{_args.legacy(input2.dtype)} instead.")
    _square_matrices("", input2)  # torch's check of a square factor, first
    if input.shape[-2] != input2.shape[-1]:
        raise RuntimeError(f"Incompatible matrix sizes for cholesky_solve: each A matrix is "
                           f"{input2.shape[-2]} by {input2.shape[-1]} but each b matrix is "
                           f"{input.shape[-2]} by {input.shape[-1]}")
    check_lapack("cholesky_solve_cpu", input)
    return CholeskySolve.apply(input, input2, upper=upper)
