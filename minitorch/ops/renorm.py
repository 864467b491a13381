"""``renorm``: each slice along ``dim`` whose ``p``-norm exceeds ``maxnorm`` scaled down to
norm ``maxnorm`` (``maxnorm / (norm + 1e-7)``, as torch), the others kept; one node,
``RenormBackward0``, with torch's ``renorm_backward``.

>>> import minitorch
>>> minitorch.renorm(minitorch.tensor([[3., 4.], [0.3, 0.4]]), 2, 0, 1.)
tensor([[0.6000, 0.8000],
        [0.3000, 0.4000]])
"""

from __future__ import annotations

from typing import Any

from .. import _args, _call_form
from .._cpp_print import cpp_float
from .._dtype import float16, float32
from .._tensor import Tensor, check_inplace_allowed
from ..backend import c_order
from ._base import Op, wrap
from .norm import LinalgVectorNorm, _norm_backward
from .norm import norm as vector_norm
from .pointwise import where

__all__ = ["METHODS", "Renorm", "renorm", "renorm_"]


class Renorm(Op):
    node_name = "RenormBackward0"
    _profile_name = "aten::renorm"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, p: float, dims: tuple, maxnorm: float) -> Tensor:
        ctx.options = (p, dims, maxnorm)
        ctx.save_for_backward(a)
        xp, data = a._xp, a._data
        # torch's kernel: the norm in its accumulating type (float32 for float16; |x|^p
        # there, so a huge p overflows to inf), maxnorm / (norm + 1e-7) divided in double,
        # the factor then rounded to the tensor's dtype and multiplied in it
        acc = float32 if a.dtype is float16 else a.dtype
        norm = vector_norm(a.detach(), p, dims, True, dtype=acc)._data
        denominator = xp.astype(norm + xp.asarray(1e-7, dtype=norm.dtype), xp.float64)
        factor = xp.where(xp.astype(norm, xp.float64) > maxnorm,
                          maxnorm / denominator, xp.ones((), dtype=xp.float64))
        # torch's CPU renorm allocates its result contiguous
        return wrap(c_order(data * xp.astype(xp.astype(factor, norm.dtype), data.dtype)))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        p, dims, maxnorm = ctx.options
        norm = LinalgVectorNorm.apply(x, p=p, dims=dims, keepdim=True)
        scaled = _norm_backward(x, norm, (x * g).sum(dims, keepdim=True), p, dims)
        inverse = (norm + 1e-7).reciprocal()
        factor = inverse * maxnorm
        return (where(norm > maxnorm, factor * g - (factor * inverse) * scaled, g),)


def _checked(fn: str, input: Any, p: Any, dim: Any, maxnorm: Any) -> dict:
    """renorm's options after torch's checks, in its order."""
    _args.tensor_args(fn, (input, "input", 1))
    p, dim, maxnorm = _args.parsed(fn, ("number", p, "p", 2), ("int", dim, "dim", 3),
                                   ("number", maxnorm, "maxnorm", 4))
    if fn.endswith("_"):  # torch's autograd refuses a leaf that requires grad before the kernel
        check_inplace_allowed(input)
    if isinstance(p, complex):
        raise RuntimeError("renorm: p must be real-valued")
    if not p > 0:  # (a nan order too)
        raise RuntimeError("renorm: non-positive-norm not supported")
    if isinstance(maxnorm, complex):
        raise RuntimeError("renorm: maxnorm must be real-valued")
    if not maxnorm >= 0:  # NaN too
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {cpp_float(maxnorm)}")
    if input.dim() <= 1:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {input.dim()} "
                           "dimensions")
    d = _args.wrap_dim(dim, input.dim())
    if not input.dtype.is_floating_point:
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {_args.legacy(input.dtype)}")
    dims = tuple(k for k in range(input.dim()) if k != d)
    return {"p": float(p), "dims": dims, "maxnorm": float(maxnorm)}


@_call_form.parser_types(p="Number", maxnorm="Number")
def renorm(input: Tensor, p: Any, dim: int, maxnorm: Any) -> Tensor:
    """``input`` with each slice along ``dim`` whose ``p``-norm is above ``maxnorm`` scaled
    down to that norm.

    >>> minitorch.renorm(minitorch.ones(2, 4), 1, 0, 2.)
    tensor([[0.5000, 0.5000, 0.5000, 0.5000],
            [0.5000, 0.5000, 0.5000, 0.5000]])
    """
    return Renorm.apply(input, **_checked("renorm", input, p, dim, maxnorm))


@_call_form.parser_types(p="Number", maxnorm="Number")
def renorm_(input: Tensor, p: Any, dim: int, maxnorm: Any) -> Tensor:
    """In-place ``renorm``.

    >>> minitorch.full((1, 2), 3.).renorm_(1, 0, 2.)
    tensor([[1., 1.]])
    """
    options = _checked("renorm_", input, p, dim, maxnorm)
    return input._inplace(lambda a: Renorm.apply(a, **options))


METHODS = {"renorm": renorm, "renorm_": renorm_}
