"""More element-wise functions of two tensors: ``hypot``, ``atan2``, ``copysign`` and
``logaddexp``, each with torch's node and backward formula (written in Tensor operations, so
they differentiate again).

>>> import minitorch
>>> minitorch.hypot(minitorch.tensor([3.]), minitorch.tensor([4.]))
tensor([5.])
"""

from __future__ import annotations

from typing import Any

from .. import _args
from .._dtype import get_default_dtype
from .._tensor import Tensor
from ..backend import array_dtype
from ._base import Op, cast_operands, public_binary, wrap
from .pointwise import _meta, _reduce, check_broadcast, where, zero_grad

__all__ = ["Atan2", "Copysign", "CopysignScalar", "Hypot", "Logaddexp", "atan2", "copysign",
           "hypot", "logaddexp"]


def _floating_operands(name: str, a: Tensor, b: Any, integers: bool) -> tuple:
    """The operands' arrays in their float result type: integers become the default float
    where torch's kernel takes them (``integers``), else torch's "not implemented" error."""
    check_broadcast(a, b)
    x, y, dt = cast_operands(a, b)
    if not dt.is_floating_point:
        if not integers:
            raise _args.not_implemented(f"{name}_cpu", dt)
        xp = a._xp
        float_dt = array_dtype(xp, get_default_dtype().name)
        x, y = xp.astype(xp.asarray(x), float_dt), xp.astype(xp.asarray(y), float_dt)
    return x, y


class _Binary(Op):
    """Both inputs saved; ``compute(xp, x, y)`` on arrays, ``gradients(g, a, b, result)``."""

    integers = True

    @classmethod
    def forward(cls, ctx: Any, a: Tensor, b: Tensor) -> Tensor:
        x, y = _floating_operands(cls._profile_name[6:], a, b, cls.integers)
        out = wrap(cls.compute(a._xp, x, y))
        ctx.a, ctx.b = _meta(a), _meta(b)
        ctx.save_for_backward(a, b, out)
        return out

    @classmethod
    def backward(cls, ctx: Any, g: Tensor) -> tuple:
        a, b, out = ctx.saved_tensors
        grad_a, grad_b = cls.gradients(g, a, b, out)
        return (_reduce(grad_a, ctx.a) if ctx.needs_input_grad[0] else None,
                _reduce(grad_b, ctx.b) if ctx.needs_input_grad[1] else None)


class Hypot(_Binary):
    node_name = "HypotBackward0"
    saved_names = ("other", "self", "result")
    _profile_name = "aten::hypot"
    integers = False

    @staticmethod
    def compute(xp: Any, x: Any, y: Any) -> Any:
        return xp.hypot(x, y)

    @staticmethod
    def gradients(g: Tensor, a: Tensor, b: Tensor, out: Tensor) -> tuple:
        return g * a / out, g * b / out


class Atan2(_Binary):
    node_name = "Atan2Backward0"
    saved_names = ("other", "self")
    _profile_name = "aten::atan2"

    @staticmethod
    def compute(xp: Any, x: Any, y: Any) -> Any:
        return xp.atan2(x, y)

    @staticmethod
    def gradients(g: Tensor, a: Tensor, b: Tensor, out: Tensor) -> tuple:
        recip = (a * a + b * b).reciprocal()
        return g * b * recip, g * -a * recip


class Logaddexp(_Binary):
    node_name = "LogaddexpBackward0"
    saved_names = ("other", "self")
    _profile_name = "aten::logaddexp"
    integers = False

    @staticmethod
    def compute(xp: Any, x: Any, y: Any) -> Any:
        return xp.logaddexp(x, y)

    @staticmethod
    def gradients(g: Tensor, a: Tensor, b: Tensor, out: Tensor) -> tuple:
        return g / (1 + (b - a).exp()), g / (1 + (a - b).exp())


def _copysign_gradient(g: Tensor, a: Tensor, out: Tensor) -> Tensor:
    """torch's ``copysign_tensor_self_backward``: ``g * out / a``, 0 where ``a`` is 0."""
    return where(a == 0, 0.0, g * (out / a))


class Copysign(_Binary):
    node_name = "CopysignBackward0"
    saved_names = ("self", "result")
    _profile_name = "aten::copysign"

    @staticmethod
    def compute(xp: Any, x: Any, y: Any) -> Any:
        return xp.copysign(x, y)

    @staticmethod
    def gradients(g: Tensor, a: Tensor, b: Tensor, out: Tensor) -> tuple:
        return _copysign_gradient(g, a, out), zero_grad(g, None)


class CopysignScalar(Op):
    """``copysign`` with a number for ``other``: only ``input`` is an operand of the node."""

    node_name = "CopysignBackward1"
    saved_names = ("self", "result")
    _profile_name = "aten::copysign"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, other: Any) -> Tensor:
        x, y = _floating_operands("copysign", a, float(other), True)
        out = wrap(a._xp.copysign(x, y))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        a, out = ctx.saved_tensors
        return (_copysign_gradient(g, a, out),)


hypot = public_binary(Hypot, "hypot", """``sqrt(input² + other²)``, without overflow.

    >>> minitorch.hypot(minitorch.tensor([5.]), minitorch.tensor([12.]))
    tensor([13.])
    """)
atan2 = public_binary(Atan2, "atan2", """The angle of the point ``(other, input)``, in radians.

    >>> minitorch.atan2(minitorch.tensor([1.]), minitorch.tensor([-1.]))
    tensor([2.3562])
    """)
logaddexp = public_binary(Logaddexp, "logaddexp", """``log(exp(input) + exp(other))``, stably.

    >>> minitorch.logaddexp(minitorch.tensor([0.]), minitorch.tensor([0.]))
    tensor([0.6931])
    """)


def copysign(input: Tensor, other: Any) -> Tensor:
    """``input``'s magnitude with ``other``'s sign (a tensor or a number).

    >>> minitorch.copysign(minitorch.tensor([1., -2.]), -1.)
    tensor([-1., -2.])
    """
    _args.tensor_args("copysign", (input, "input", 1))
    if isinstance(other, Tensor):
        return Copysign.apply(input, other)
    _args.tensor_or_number("copysign", other, "other", 2)
    _args.no_complex_kernel("copysign", input, other)
    return CopysignScalar.apply(input, other=other)


arctan2 = atan2
METHODS = {"hypot": hypot, "atan2": atan2, "arctan2": atan2, "logaddexp": logaddexp,
           "copysign": copysign}
