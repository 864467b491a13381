"""Least squares: ``linalg.lstsq`` (``LinalgLstsqBackward0``), the ``X`` minimising
``‖A X - B‖``, with LAPACK's drivers as torch calls them on the CPU (gelsy by default).

Where MKL is here the forward is torch's LAPACK call (torch's bits for gels, gelsd and gelss;
gelsy's column pivoting starts from an array torch leaves uninitialised, so its bits follow
torch's only where that memory is nonzero, which is usual); else the backend's pseudo-inverse,
within rounding. The gradient is torch's, through ``pinv(A)``: ``dB = pinv(A)ᴴ dX`` and
``pinv_backward`` for ``A``.

>>> import minitorch
>>> a = minitorch.tensor([[1., 0.], [0., 1.], [0., 0.]])
>>> minitorch.linalg.lstsq(a, minitorch.tensor([[1.], [2.], [3.]])).solution
tensor([[1.],
        [2.]])
"""

from __future__ import annotations

from typing import Any

from .. import _args, _mkl, return_types
from .._dtype import finfo
from .._tensor import Tensor, broadcast_pair, sum_to
from ._base import Op, wrap
from .decompositions import linalg_pinv, pinv_backward
from .inverse import raise_first_failure

__all__ = ["lstsq"]

_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


class Lstsq(Op):
    node_name = "LinalgLstsqBackward0"
    saved_names = ("self", "b")
    _profile_name = "aten::linalg_lstsq"

    @staticmethod
    def forward(ctx: Any, a: Tensor, b: Tensor, *, driver: str, rcond: float, vector: bool
                ) -> tuple:
        xp = a._xp
        right = b._data[..., None] if vector else b._data
        # torch reads B's batch as its first dims as many as A's (for a B of one dim fewer
        # that is no vector batch, its own leading dims: that B is broadcast along them)
        batch = tuple(broadcast_pair(a.shape[:-2], b.shape[:a.dim() - 2]))
        left = xp.broadcast_to(a._data, (*batch, *a.shape[-2:]))
        right = xp.broadcast_to(right, (*batch, *right.shape[-2:]))
        m, n = a.shape[-2:]
        solved = _mkl.lstsq(left, right, driver, rcond)
        if solved is None:
            solution, tail, ranks, values = _backend_lstsq(xp, left, right, rcond)
        else:
            buffer, ranks, values, infos = solved
            raise_first_failure(xp, infos, lambda where, k: (
                f"torch.linalg.lstsq: {where}The least squares solution could not be computed "
                f"because the input matrix does not have full rank (error code: {k})."))
            solution, tail = buffer[..., :n, :], buffer[..., n:, :]
        full = driver in ("gels", "gelsy") or bool(xp.all(ranks == min(m, n)))
        if m > n and driver != "gelsy" and full:
            residuals = xp.sum(tail * tail, axis=-2)
        else:
            residuals = xp.zeros((0,), dtype=left.dtype)
        if driver not in ("gelsd", "gelss"):
            values = xp.zeros((0,), dtype=left.dtype)
        if driver == "gels":
            ranks = xp.zeros((0,), dtype=xp.int64)
        outputs = (wrap(solution[..., 0] if vector else solution), wrap(residuals),
                   wrap(ranks), wrap(values))
        ctx.mark_non_differentiable(*outputs[2:])  # (the residuals have a gradient)
        ctx.set_materialize_grads(False)  # as torch's: none for the solution, none for A, B
        ctx.save_for_backward(a, b, outputs[0])
        ctx.vector = vector
        return outputs

    @staticmethod
    def backward(ctx: Any, g: Tensor | None, g_residuals: Tensor | None, *_: Any) -> tuple:
        a, b, solution = ctx.saved_tensors
        residual = g_residuals is not None and g_residuals.numel() > 0
        if g is None and not residual:
            return None, None
        if g is None:
            g = solution.new_zeros(solution.shape)
        gx = g[..., None] if ctx.vector else g
        right = b[..., None] if ctx.vector else b
        pinv = linalg_pinv(a)
        ga = gb = None
        if ctx.needs_input_grad[0]:
            ga = pinv_backward(gx @ right.mT, pinv, a)
        if ctx.needs_input_grad[1]:
            gb = pinv.mT @ gx
        if residual:  # each column's squared error:
            x = solution[..., None] if ctx.vector else solution  # 2 (A X - B) at the optimum
            scaled = 2 * (a @ x - right) * g_residuals.unsqueeze(-2)
            ga = None if ga is None else ga + scaled @ x.mT
            gb = None if gb is None else gb - scaled
        ga = None if ga is None else sum_to(ga, tuple(a.shape))
        gb = None if gb is None else sum_to(gb[..., 0] if ctx.vector else gb, tuple(b.shape))
        return ga, gb


def _backend_lstsq(xp: Any, a: Any, b: Any, rcond: float) -> tuple:
    """The minimum-norm solution by the backend's pseudo-inverse, the residual rows
    ``A X - B`` (their squares sum to LAPACK's residuals), the ranks and singular values."""
    values = xp.linalg.svdvals(a)
    solution = xp.linalg.pinv(a, rtol=rcond) @ b
    ranks = xp.zeros(a.shape[:-2], dtype=xp.int64)
    if values.shape[-1]:
        cut = rcond * xp.max(values, axis=-1, keepdims=True)
        ranks = xp.sum(xp.astype(values > cut, xp.int64), axis=-1)
    return solution, a @ solution - b, ranks, values


def lstsq(input: Tensor, b: Tensor, rcond: float | None = None, *, driver: str | None = None
          ) -> Any:
    """``(solution, residuals, rank, singular_values)`` of the least-squares problem
    ``min ‖A X - B‖`` for each matrix of ``A`` (..., m, n) and ``B`` (..., m, k) or a vector
    (..., m), batches broadcast: residuals (squared, per column) when m > n, A is full rank
    and the driver is not gelsy; ranks unless gels; singular values for gelsd and gelss.

    >>> minitorch.linalg.lstsq(minitorch.eye(2) * 2, minitorch.ones(2, 1)).solution
    tensor([[0.5000],
            [0.5000]])
    """
    _args.tensor_args("linalg_lstsq", (input, "input", 1), (b, "b", 2))
    driver = "gelsy" if driver is None else _args.string("linalg_lstsq", driver, "driver")
    if input.dim() < 2:
        raise RuntimeError("torch.linalg.lstsq: input must have at least 2 dimensions.")
    if b.dim() < 1:
        raise RuntimeError("torch.linalg.lstsq: other must have at least 1 dimension.")
    if not 0 <= input.dim() - b.dim() <= 1:
        raise RuntimeError("torch.linalg.lstsq: input.dim() must be greater or equal to "
                           "other.dim() and (input.dim() - other.dim()) <= 1")
    if input.dtype is not b.dtype:
        raise RuntimeError("torch.linalg.lstsq: Expected input and other to have the same dtype, "
                           f"but got input's dtype {_args.legacy(input.dtype)} and other's dtype "
                           f"{_args.legacy(b.dtype)}")
    vector = b.dim() == 1 or (b.dim() == input.dim() - 1 and b.shape == input.shape[:-1])
    rows = -1 if vector else -2
    if input.shape[-2] != b.shape[rows]:
        raise RuntimeError(f"torch.linalg.lstsq: input.size(-2) should match other.size({rows})")
    if driver not in _DRIVERS:  # after the shapes and dtypes, before the kernel's dtype
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, "
                           "gelsd, gelss)")
    if input.dtype.name not in ("float32", "float64"):
        raise RuntimeError("This function doesn't handle types other than float and double")
    if rcond is None:
        rcond = finfo(input.dtype).eps * max(input.shape[-2:])
    outputs = Lstsq.apply(input, b, driver=driver, rcond=float(rcond), vector=vector)
    return return_types.linalg_lstsq(*outputs)
