"""What every built-in op shares: the op base class and gradient reduction to a shape.

A built-in op is a :class:`~minitorch.autograd.Function` whose forward works on arrays of
the input tensors' namespace and whose backward is written in Tensor operations, so the
same formula serves plain backward and ``create_graph=True``.
"""

from __future__ import annotations

from typing import Any

from .._dtype import dtype, result_type
from .._tensor import Tensor, sum_to
from ..autograd.function import Function

__all__ = ["Op", "array_of", "cast_operands", "sum_to", "wrap"]


class Op(Function):
    """Base of the built-in ops: trusted backward, profiled under ``aten::<name>``."""

    _trusted = True


def wrap(array: Any) -> Tensor:
    """A new tensor (no grad) holding ``array``."""
    return Tensor._make(array)


def array_of(value: Any) -> Any:
    """The array of a tensor, or the Python scalar itself."""
    return value._data if isinstance(value, Tensor) else value


def cast_operands(a: Any, b: Any) -> tuple[Any, Any, dtype]:
    """Arrays of ``a`` and ``b`` converted to their torch result type (scalars stay scalars)."""
    dt = result_type(a, b)
    return _as(a, dt), _as(b, dt), dt


def _as(value: Any, dt: dtype) -> Any:
    if isinstance(value, Tensor):
        if value.dtype is dt:
            return value._data
        return value._xp.astype(value._data, dt.np)
    if dt.is_floating_point:
        return float(value)
    return value
