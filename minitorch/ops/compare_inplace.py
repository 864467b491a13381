"""The comparisons in place (``x.lt_(y)``, ``x.greater_(0)``, ...) and torch's longer names
(``greater``, ``less_equal``, ``not_equal``, ...). In place, the result is written as 1 or 0
in ``x``'s own dtype, and torch records a node (``LtBackward0`` for a number, ``LtBackward1``
for a tensor) whose gradients are zeros.

>>> import minitorch
>>> x = minitorch.tensor([0.5, 2.], requires_grad=True) * 1
>>> x.gt_(1.)
tensor([0., 1.], grad_fn=<GtBackward0>)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import _args, _call_form
from .._dtype import check_unsigned
from .._tensor import Tensor
from ._base import Op, wrap
from .pointwise import _meta, _reduce, zero_grad

__all__ = ["NAMES", "in_place_methods"]

# torch's longer names of the comparisons
NAMES = (("gt", "greater"), ("ge", "greater_equal"), ("lt", "less"), ("le", "less_equal"),
         ("ne", "not_equal"))


class _Compared(Op):
    """``compare(a, b)`` (an out-of-place comparison) as 1/0 in ``a``'s dtype; zeros for
    the gradients, as torch's."""

    @staticmethod
    def forward(ctx: Any, a: Tensor, b: Tensor | None = None, *, other: Any = None,
                compare: Callable) -> Tensor:
        ctx.metas = (_meta(a), _meta(b))
        xp = a._xp
        return wrap(xp.astype(compare(a, other if b is None else b)._data, a._data.dtype))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        zero = zero_grad(g, None)
        return tuple(_reduce(zero, meta) for meta in ctx.metas if meta is not None)


def _nodes(name: str) -> tuple:
    """The op of ``x.name_(number)`` and of ``x.name_(tensor)``: torch's Scalar and Tensor
    overloads, ``<Name>Backward0`` and ``<Name>Backward1``."""
    return tuple(type(f"{name.capitalize()}InPlace{kind}", (_Compared,), {
        "node_name": f"{name.capitalize()}Backward{i}", "_profile_name": f"aten::{name}_",
        "__module__": __name__}) for i, kind in enumerate(("Scalar", "Tensor")))


_OPS = {name: _nodes(name) for name in ("eq", "ne", "lt", "le", "gt", "ge")}


def _in_place(name: str, public: str, compare: Callable) -> Callable:
    scalar_op, tensor_op = _OPS[name]

    @_call_form.overloads("Tensor other", "Number other")
    def method(self: Tensor, other: Any) -> Tensor:
        if not isinstance(other, (Tensor, int, float, complex)) and \
                not _args.holds_number(other):
            raise _args.invalid_combination(f"{public}_", (other,), "Tensor other",
                                            "Number other")
        if isinstance(other, Tensor):
            return self._inplace(tensor_op.apply, other, compare=compare)
        if type(other) is int:  # read in this tensor's dtype, as torch's in-place ops read it
            check_unsigned(self, other)
            other = _args.scalar_for(other, self.dtype)
        return self._inplace(scalar_op.apply, other=other, compare=compare)

    method.__name__ = f"{public}_"
    method.__doc__ = (f"In place ``{public}``: 1 where true, else 0, in this tensor's "
                      f"dtype.\n\n    >>> minitorch.tensor([1, 5]).{public}_(2)\n    tensor("
                      f"{[int(getattr(1, f'__{name}__')(2)), int(getattr(5, f'__{name}__')(2))]})"
                      "\n    ")
    return method


def in_place_methods(methods: dict) -> dict:
    """``x.eq_(...)`` ... ``x.ge_(...)`` and the longer names' ``x.greater_(...)``, ...,
    from the out-of-place ``methods`` (whose checks and promotion they share)."""
    names = [(name, name) for name in _OPS] + list(NAMES)
    return {f"{public}_": _in_place(name, public, methods[public]) for name, public in names}
