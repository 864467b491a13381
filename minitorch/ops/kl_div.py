"""``xlogy`` and the Kullback-Leibler divergence loss ``F.kl_div`` built on it.

As torch's, ``kl_div`` takes ``input`` as log-probabilities and ``target`` as
probabilities (or log-probabilities with ``log_target=True``); ``reduction="batchmean"``
divides the sum by the batch size, which is the divergence's definition.

>>> import minitorch
>>> minitorch.xlogy(minitorch.tensor([0., 2.]), minitorch.tensor([0., 1.]))
tensor([0., 0.])
"""

from __future__ import annotations

import warnings
from typing import Any

from .. import _args, _call_form
from .._dtype import get_default_dtype
from .._libm import c_math_of
from .._tensor import Tensor
from ..backend import array_dtype
from ._base import Op, cast_operands, wrap
from .pointwise import _meta, _reduce, check_broadcast

__all__ = ["Xlogy", "XlogyScalarOther", "XlogyScalarSelf", "kl_div", "xlogy"]


class Xlogy(Op):
    """``x * log(y)``, and 0 where ``x`` is 0 (even where ``y`` is 0 too; not where it is
    nan)."""

    node_name = "XlogyBackward0"
    saved_names = ("other", "self")
    _profile_name = "aten::xlogy"

    @staticmethod
    def forward(ctx: Any, a: Tensor, b: Tensor) -> Tensor:
        ctx.a, ctx.b = _meta(a), _meta(b)
        ctx.save_for_backward(b, a)  # in the order of saved_names
        return _xlogy(a, b)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        b, a = ctx.saved_tensors
        grad_a = None
        if ctx.needs_input_grad[0]:  # torch's xlogy(g, other), 0 where both are 0 (or other < 0)
            grad_a = _reduce(Xlogy.apply(g, b).masked_fill((a == 0) & (b <= 0), 0.0), ctx.a)
        grad_b = _reduce(g * a / b, ctx.b) if ctx.needs_input_grad[1] else None
        return grad_a, grad_b


def _xlogy(a: Any, b: Any, log: str = "log") -> Tensor:
    """``a * log(b)``, 0 where ``a`` is 0; one of them may be a number. ``log`` names the C
    library's function (``log1p`` for torch's ``xlog1py``)."""
    x, y, dt = cast_operands(a, b)
    xp = (a if isinstance(a, Tensor) else b)._xp
    if not dt.is_floating_point:  # each integer read straight into the float it computes in
        # (not through the operands' common integer type, which could wrap it), a number as it
        # is (-3 beside uint8: not 253)
        x, y = (o._data if isinstance(o, Tensor) else _args.float_scalar(o) for o in (a, b))
    if isinstance(x, (int, float)) or isinstance(y, (int, float)) or not dt.is_floating_point:
        # numbers and integers in the result's float dtype (integers: the default one)
        result = array_dtype(xp, (dt if dt.is_floating_point else get_default_dtype()).name)
        x, y = (xp.astype(xp.asarray(v), result) for v in (x, y))
    # torch's xlogy kernel calls the C library's log for each element, not vector maths
    out = x * c_math_of(xp, log, y)
    out = xp.where(x == 0, xp.zeros((), dtype=out.dtype), out)
    return wrap(xp.where(xp.isnan(y), y, out))  # a nan y wins over x == 0, as torch's


class XlogyScalarOther(Op):
    """``xlogy(input, number)``: only ``input`` is an operand of the node."""

    node_name = "XlogyBackward2"
    saved_names = ("self",)
    _profile_name = "aten::xlogy"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, other: Any) -> Tensor:
        ctx.save_for_backward(a)
        ctx.other = other
        return _xlogy(a, other)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (a,) = ctx.saved_tensors
        grad = XlogyScalarOther.apply(g, other=ctx.other)
        return (grad.masked_fill(a == 0, 0.0) if ctx.other <= 0 else grad,)


class XlogyScalarSelf(Op):
    """``xlogy(number, other)``: only ``other`` is an operand of the node."""

    node_name = "XlogyBackward1"
    saved_names = ("other",)
    _profile_name = "aten::xlogy"

    @staticmethod
    def forward(ctx: Any, b: Tensor, *, input: Any) -> Tensor:
        ctx.save_for_backward(b)
        ctx.input = input
        return _xlogy(input, b)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (b,) = ctx.saved_tensors
        return (g * ctx.input / b,)


def _number(value: Any) -> Any:
    """``value`` as the Python number torch's Number parameter takes, else None."""
    if _args.is_array(value) and value.shape == () and type(value).__name__ != "ndarray":
        value = _args.operand(value)
    return value if isinstance(value, (int, float, complex)) else None


@_call_form.overloads("Tensor input, Tensor other, *, Tensor out = None",
                      "Number self, Tensor other, *, Tensor out = None",
                      "Tensor input, Number other, *, Tensor out = None")
def xlogy(input: Any, other: Any) -> Tensor:
    """``input * log(other)``, defined as 0 where ``input`` is 0 (either may be a number).

    >>> minitorch.xlogy(minitorch.tensor([3.]), minitorch.tensor([1.]))
    tensor([0.])
    """
    if isinstance(other, Tensor) and _number(input) is not None:
        _args.no_complex_kernel("xlogy", _number(input), other)
        return XlogyScalarSelf.apply(other, input=_number(input))
    if isinstance(input, Tensor) and _number(other) is not None:
        _args.no_complex_kernel("xlogy", input, _number(other))
        return XlogyScalarOther.apply(input, other=_number(other))
    _args.tensor_args("xlogy", (input, "input", 1), (other, "other", 2))
    check_broadcast(input, other)
    return Xlogy.apply(input, other)


_MEAN_WARNING = ("reduction: 'mean' divides the total loss by both the batch size and the "
                 "support size.'batchmean' divides only by the batch size, and aligns with the "
                 "KL div math definition.'mean' will be changed to behave the same as "
                 "'batchmean' in the next major release.")


def kl_div(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None,
           reduction: str = "mean", log_target: bool = False) -> Tensor:
    """``target * (log(target) - input)`` summed as ``reduction`` says ("mean", "batchmean",
    "sum" or "none").

    >>> p = minitorch.tensor([[0.5, 0.5]])
    >>> F.kl_div(p.log(), p, reduction="batchmean")
    tensor(0.)
    """
    from ..nn.functional_losses import _check_reduction  # (nn builds on ops)

    legacy = size_average is not None or reduce is not None
    if reduction == "mean" and not legacy:
        warnings.warn(_MEAN_WARNING, UserWarning, stacklevel=2)
    batch = reduction == "batchmean"  # torch divides by the batch after any reduction
    kind = "sum" if batch and not legacy else _check_reduction(reduction, size_average, reduce)
    _args.tensor_args("kl_div", (input, "input", 1), (target, "target", 2))
    log_target = _args.flag("kl_div", log_target, "log_target")
    if not (input.is_floating_point() and target.is_floating_point()):
        raise RuntimeError("kl_div: Integral inputs not supported.")
    # torch's C++ builds each product's right operand first (GCC's order of evaluation), so
    # its nodes run, and the target's gradients add up, in that order
    if log_target:
        difference = target - input
        pointwise = target.exp() * difference
    else:
        product = target * input
        pointwise = xlogy(target, target) - product
    reduced = pointwise if kind == "none" else pointwise.mean() if kind == "mean" else \
        pointwise.sum()
    return reduced / input.shape[0] if batch and input.dim() else reduced
