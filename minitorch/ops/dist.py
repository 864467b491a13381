"""``minitorch.dist(input, other, p)``: the ``p``-norm of ``input - other`` (``DistBackward0``).

The forward is torch's ``norm(input - other, p)`` (the same kernels as the vector norms, so the
same bits); the backward is the norm's gradient of the difference, negated for ``other``.

>>> import minitorch
>>> minitorch.dist(minitorch.tensor([3., 0.]), minitorch.tensor([0., 4.]))
tensor(5.)
"""

from __future__ import annotations

from typing import Any

from .. import _args
from .._tensor import Tensor
from ..autograd.grad_mode import no_grad
from ._base import Op, sum_to, wrap
from .norm import _norm_backward, _reduce, real_order

__all__ = ["Dist", "dist"]


class Dist(Op):
    node_name = "DistBackward0"
    _profile_name = "aten::dist"

    @staticmethod
    def forward(ctx: Any, a: Tensor, b: Tensor, *, p: float) -> Tensor:
        with no_grad():
            diff = a - b
        if not diff.dtype.is_floating_point:
            raise RuntimeError("norm(): input dtype should be either floating point or complex. "
                               f"Got {_args.legacy(diff.dtype)} instead.")
        p = real_order(p)
        xp = diff._xp
        out = wrap(xp.reshape(_reduce(xp, xp.abs(diff._data), p, None), ()))
        ctx.p = p
        ctx.save_for_backward(a, b, out)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        a, b, out = ctx.saved_tensors
        grad = _norm_backward(a - b, out, g, ctx.p, None)
        if grad is None:
            return None, None
        return sum_to(grad, a.shape), sum_to(-grad, b.shape)


def dist(input: Tensor, other: Tensor, p: float = 2) -> Tensor:
    """The ``p``-norm of ``input - other`` (broadcast); ``p`` may be 0, ``inf`` or ``-inf``.

    >>> minitorch.dist(minitorch.ones(3), minitorch.zeros(3), p=1)
    tensor(3.)
    """
    _args.tensor_args("dist", (input, "input", 1), (other, "other", 2))
    (p,) = _args.numbers("dist", (p, "p", 3))
    return Dist.apply(input, other, p=p)
