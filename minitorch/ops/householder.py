"""Householder reflectors and the QR decomposition: ``geqrf`` (``GeqrfBackward0``, not
differentiable, as in torch), ``linalg.householder_product`` (``LinalgHouseholderProductBackward0``)
and ``linalg.qr`` (``LinalgQrBackward0``).

The forwards are LAPACK's geqrf and orgqr, through MKL as torch calls them where MKL is
installed, else numpy's ``qr(mode="raw")`` and the reflectors applied one by one. The
backwards are written in ops, so they have their own gradients. With ``Hᵢ = I - τᵢ vᵢ vᵢᵀ``
and ``Q = H₁ ⋯ Hₖ E``, the gradient reaching ``Hᵢ`` is ``Gᵢ = Pᵢᵀ G Rᵢᵀ`` (``Pᵢ`` the
reflectors before it, ``Rᵢ`` those after, times ``E``), whence
``gτᵢ = -vᵢᵀ Gᵢ vᵢ`` and ``gvᵢ = -τᵢ (Gᵢ + Gᵢᵀ) vᵢ``.

>>> import minitorch
>>> minitorch.linalg.householder_product(minitorch.zeros(2, 1), minitorch.tensor([2.]))
tensor([[-1.],
        [-0.]])
"""

from __future__ import annotations

import math
from typing import Any

from .. import _args, _mkl, backend, return_types
from .._creation import eye
from .._tensor import Tensor
from ._base import Op, wrap
from .inverse import _check_floating, check_half, solve
from .shape import cat

__all__ = ["Geqrf", "LinalgHouseholderProduct", "LinalgQr", "geqrf", "householder_product",
           "orgqr", "qr"]


def _geqrf(xp: Any, a: Any) -> tuple:
    """The packed QR factors and their scales of each matrix of ``a`` (LAPACK's geqrf)."""
    found = _mkl.geqrf(a)
    if found is not None:
        return found
    pairs = _each(xp, lambda xp, m: xp.linalg.qr(m, mode="raw"), a)
    tau_shape = (*a.shape[:-2], min(a.shape[-2:]))
    return (_stack(xp, [xp.matrix_transpose(h) for h, _ in pairs], a.shape, a.dtype),
            _stack(xp, [t for _, t in pairs], tau_shape, a.dtype))


def _orgqr(xp: Any, a: Any, tau: Any) -> Any:
    """The first n columns of H₁ ⋯ Hₖ from the reflectors below the diagonal of each matrix
    of ``a`` (LAPACK's orgqr)."""
    found = _mkl.orgqr(a, tau)
    if found is not None:
        return found
    return _stack(xp, _each(xp, _orgqr_matrix, a, tau), a.shape, a.dtype)


def _orgqr_matrix(xp: Any, a: Any, tau: Any) -> Any:
    m, n = a.shape
    q = xp.eye(m, n, dtype=a.dtype)
    for i in reversed(range(tau.shape[0])):  # Hᵢ (Hᵢ₊₁ ⋯ Hₖ E)
        v = a[:, i] * 1
        v[:i] = 0
        v[i] = 1
        q = q - tau[i] * v[:, None] * (v @ q)[None, :]
    return q


def _each(xp: Any, fn: Any, a: Any, *more: Any) -> list:
    """``fn(xp, matrix, *vectors)`` for each matrix of the batch ``a``, with the matching
    rows of the batches of vectors ``more``."""
    n, batch = a.shape[-2:], math.prod(a.shape[:-2])  # not -1: empty matrices too
    flat = [xp.reshape(a, (batch, *n))] + [xp.reshape(v, (batch, v.shape[-1])) for v in more]
    return [fn(xp, *items) for items in zip(*flat)]


def _stack(xp: Any, items: list, shape: tuple, dtype: Any) -> Any:
    return xp.reshape(xp.stack(items), shape) if items else xp.zeros(shape, dtype=dtype)


class Geqrf(Op):
    node_name = "GeqrfBackward0"
    _profile_name = "aten::geqrf"

    @staticmethod
    def forward(ctx: Any, a: Tensor) -> tuple:
        packed, tau = _geqrf(a._xp, a._data)
        return wrap(backend.column_major(packed)), wrap(tau)

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> tuple:
        raise NotImplementedError("the derivative for 'geqrf' is not implemented.")


def geqrf(input: Tensor) -> Any:
    """LAPACK's QR factorisation in its packed form: ``a`` holds R on and above the diagonal
    and the Householder vectors below; ``tau`` their scales.

    >>> minitorch.geqrf(minitorch.tensor([[3., 0.], [4., 5.]])).tau
    tensor([1.6000, 0.0000])
    """
    _args.tensor_args("geqrf", (input, "input", 1))
    if input.dim() < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    _supported("geqrf_cpu", input)
    return return_types.geqrf(*Geqrf.apply(input))


def _supported(kernel: str, a: Tensor) -> None:
    if a.dtype.name not in ("float32", "float64"):
        raise _args.not_implemented(kernel, a.dtype)


class LinalgHouseholderProduct(Op):
    node_name = "LinalgHouseholderProductBackward0"
    _profile_name = "aten::linalg_householder_product"

    @staticmethod
    def forward(ctx: Any, a: Tensor, tau: Tensor) -> Tensor:
        ctx.save_for_backward(a, tau)
        return wrap(backend.column_major(_orgqr(a._xp, a._data, tau._data)))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        a, tau = ctx.saved_tensors
        return _householder_grads(a, tau, g)


def _householder_grads(a: Tensor, tau: Tensor, g: Tensor) -> tuple:
    """The gradients of ``householder_product(a, tau)`` (see the module's docstring)."""
    m, n = a.shape[-2:]
    k = tau.shape[-1]
    vs = a.tril(-1) + eye(m, n, dtype=a.dtype)
    reflect = [_reflector(vs[..., :, i:i + 1], tau[..., i:i + 1, None]) for i in range(k)]
    after = [eye(m, n, dtype=a.dtype)]  # Rₖ = E, Rᵢ₋₁ = Hᵢ Rᵢ
    for h in reversed(reflect[1:]):
        after.insert(0, h @ after[0])
    before = eye(m, dtype=a.dtype)
    g_tau, g_cols = [], []
    for i in range(k):
        v, t = vs[..., :, i:i + 1], tau[..., i:i + 1, None]
        pv, rv = before @ v, after[i].mT @ v
        g_tau.append(-(pv.mT @ g @ rv)[..., 0, :])
        g_cols.append(-t * (before.mT @ (g @ rv) + after[i] @ (g.mT @ pv)))
        before = before @ reflect[i]
    g_v = cat(g_cols, -1)
    if k < n:
        g_v = cat([g_v, a.new_zeros((*a.shape[:-1], n - k))], -1)
    return g_v.tril(-1), cat(g_tau, -1)


def _reflector(v: Tensor, t: Tensor) -> Tensor:
    return eye(v.shape[-2], dtype=v.dtype) - t * (v @ v.mT)


def householder_product(input: Tensor, tau: Tensor) -> Tensor:
    """The first n columns of ``H₁ ⋯ Hₖ``, ``Hᵢ = I - τᵢ vᵢ vᵢᵀ``, ``vᵢ`` the i-th column of
    ``A`` below the diagonal with a 1 on it (as ``geqrf`` stores them).

    >>> minitorch.linalg.householder_product(minitorch.tensor([[1.], [1.]]), minitorch.ones(1))
    tensor([[ 0.],
            [-1.]])
    """
    fn = "torch.linalg.householder_product"
    _args.tensor_args("linalg_householder_product", (input, "input", 1), (tau, "tau", 2))
    if input.dim() < 2:
        raise RuntimeError(f"{fn}: input must have at least 2 dimensions.")
    if input.shape[-2] < input.shape[-1]:
        raise RuntimeError(f"{fn}: input.shape[-2] must be greater than or equal to "
                           "input.shape[-1]")
    if tau.dim() == 0:
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    if input.shape[-1] < tau.shape[-1]:
        raise RuntimeError(f"{fn}: input.shape[-1] must be greater than or equal to "
                           "tau.shape[-1]")
    if input.dim() - tau.dim() != 1:
        raise RuntimeError(f"{fn}: Expected tau to have one dimension less than input, but got "
                           f"tau.ndim equal to {tau.dim()} and input.ndim is equal to "
                           f"{input.dim()}")
    if tuple(tau.shape[:-1]) != tuple(input.shape[:-2]):
        raise RuntimeError(f"{fn}: Expected batch dimensions of tau to be equal to "
                           f"input.shape[:-2], but got {list(tau.shape[:-1])}")
    if tau.dtype != input.dtype:
        raise RuntimeError(f"{fn}: tau dtype {_args.legacy(tau.dtype)} does not match input "
                           f"dtype {_args.legacy(input.dtype)}")
    _supported("orgqr_cpu", input)
    return LinalgHouseholderProduct.apply(input, tau)


def orgqr(input: Tensor, input2: Tensor) -> Tensor:
    """``torch.orgqr``: :func:`householder_product` of ``input`` and its scales ``input2``.

    >>> minitorch.orgqr(minitorch.tensor([[1.], [1.]]), minitorch.ones(1))
    tensor([[ 0.],
            [-1.]])
    """
    _args.tensor_args("orgqr", (input, "input", 1), (input2, "input2", 2))
    return householder_product(input, input2)


class LinalgQr(Op):
    node_name = "LinalgQrBackward0"
    _profile_name = "aten::linalg_qr"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, mode: str) -> tuple:
        xp, data = a._xp, a._data
        m, n = data.shape[-2:]
        k = min(m, n)
        packed, tau = _geqrf(xp, data)
        r = xp.triu(packed if mode == "complete" else packed[..., :k, :])
        if mode == "r":
            q = xp.zeros((0,), dtype=data.dtype)
        else:
            q = backend.column_major(
                _orgqr(xp, _columns(xp, packed, m if mode == "complete" else k), tau))
        ctx.mode = mode
        out = wrap(q), wrap(backend.column_major(r))  # column-major, as torch's
        ctx.save_for_backward(*out)
        return out

    @staticmethod
    def backward(ctx: Any, g_q: Tensor | None, g_r: Tensor | None) -> tuple:
        q, r = ctx.saved_tensors
        if ctx.mode == "r":
            raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed "
                               "when mode='r'. Please use linalg.qr(A, mode='reduced') if you "
                               "are going to differentiate through linalg.qr.")
        m, n = q.shape[-2], r.shape[-1]
        if ctx.mode == "complete" and m > n:
            raise RuntimeError("The QR decomposition is not differentiable when "
                               "mode='complete' and nrows > ncols.")
        if m >= n:
            return (_qr_tall_grad(q, r, g_q, g_r),)
        # A = Q [R₁ R₂]: X = A[:, :m] = Q R₁ is square; Y = A[:, m:] = Q R₂ feeds Q's gradient
        y = q @ r[..., m:]
        g_r1 = None if g_r is None else g_r[..., :m]
        if g_r is not None:
            extra = y @ g_r[..., m:].mT
            g_q = extra if g_q is None else g_q + extra
        g_x = _qr_tall_grad(q, r[..., :m], g_q, g_r1)
        g_y = q @ g_r[..., m:] if g_r is not None else q.new_zeros((*q.shape[:-1], n - m))
        return (cat([g_x, g_y], -1),)


def _columns(xp: Any, packed: Any, cols: int) -> Any:
    """The first ``cols`` columns of geqrf's packed matrices, zero-padded when they have
    fewer."""
    n = packed.shape[-1]
    if cols <= n:
        return packed[..., :cols]
    pad = xp.zeros((*packed.shape[:-1], cols - n), dtype=packed.dtype)
    return xp.concat([packed, pad], axis=-1)


def _qr_tall_grad(q: Tensor, r: Tensor, g_q: Tensor | None, g_r: Tensor | None) -> Tensor:
    """torch's gradient of ``A = QR`` for m ≥ n: ``(gQ + Q sym(triu(gR Rᵀ - Qᵀ gQ))) R⁻ᵀ``,
    ``sym`` adding the transpose with the diagonal kept once."""
    inner = None if g_r is None else g_r @ r.mT
    if g_q is not None:
        inner = -(q.mT @ g_q) if inner is None else inner - q.mT @ g_q
    upper = inner.triu()
    sym = upper + upper.mT - upper.diagonal(0, -2, -1).diag_embed()
    grad = q @ sym
    if g_q is not None:
        grad = grad + g_q
    return solve(r, grad.mT).mT  # grad R⁻ᵀ


def qr(A: Tensor, mode: str = "reduced") -> Any:
    """``A = QR`` with orthonormal columns in Q and R upper triangular; ``mode`` "reduced"
    (k = min(m, n) columns), "complete" (Q square) or "r" (R alone, Q empty).

    >>> minitorch.linalg.qr(minitorch.tensor([[3., 0.], [4., 5.]])).R
    tensor([[-5., -4.],
            [ 0.,  3.]])
    """
    _args.tensor_args("linalg_qr", (A, "A", 1))
    _args.string("linalg_qr", mode, "mode", 2)  # (the parser's, before the kernel's checks)
    if A.dim() < 2:
        raise RuntimeError("linalg.qr: The input tensor A must have at least 2 dimensions.")
    _check_floating("qr", A)
    check_half("qr", A)
    if mode not in ("reduced", "r", "complete"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of "
                           "'reduced' (default), 'r', or 'complete'")
    return return_types.linalg_qr(*LinalgQr.apply(A, mode=mode))
