"""``out=``: an op's result written into a given tensor, as torch's ``torch.add(a, b,
out=t)``.

>>> import minitorch
>>> t = minitorch.empty(2)
>>> minitorch.add(minitorch.ones(2), 1, out=t) is t, t
(True, tensor([2., 2.]))
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any

from .. import _args
from .._dtype import can_cast
from .._tensor import Tensor, check_output_shape
from ..autograd import grad_mode
from ..autograd.grad_mode import is_grad_enabled


def takes_out(fn: Callable, name: str | None = None, elementwise: bool = False) -> Callable:
    """``fn`` with torch's ``out=`` keyword: the result is copied into ``out``, which is
    returned; autograd refuses it, as in torch (its message names ``name``, or ``fn``).
    An ``elementwise`` op given one of its operands as ``out`` works in place, as torch's
    TensorIterator: that operand is not resized to the broadcast shape but refused.

    >>> double = takes_out(lambda x: x * 2)
    >>> t = minitorch.empty(1)
    >>> double(minitorch.ones(1), out=t) is t
    True
    """

    @functools.wraps(fn)
    def with_out(*args: Any, out: Tensor | None = None, **kwargs: Any) -> Any:
        if out is None:
            return fn(*args, **kwargs)
        tensors = [a for a in (*args, *kwargs.values(), out) if isinstance(a, Tensor)]
        if is_grad_enabled() and any(t.requires_grad for t in tensors):
            raise RuntimeError(
                f"{name or fn.__name__}(): functions with out=... arguments don't support "
                "automatic differentiation, but one of the arguments requires grad.")
        with grad_mode._recording(False):
            result = fn(*args, **kwargs)
        if elementwise and any(t is out for t in tensors[:-1]):
            check_output_shape(out.shape, result.shape)
        return _write(result, out)

    return with_out


def takes_out_elementwise(fn: Callable) -> Callable:
    """``takes_out`` for an elementwise op (its ``out`` may be one of its operands).

    >>> x = minitorch.ones(1)
    >>> takes_out_elementwise(minitorch.add)(x, minitorch.ones(2), out=x)
    Traceback (most recent call last):
    RuntimeError: output with shape [1] doesn't match the broadcast shape [2]
    """
    return takes_out(fn, elementwise=True)


def _write(result: Tensor, out: Tensor) -> Tensor:
    if not can_cast(result.dtype, out.dtype):
        raise RuntimeError(f"result type {_args.legacy(result.dtype)} can't be cast to the "
                           f"desired output type {_args.legacy(out.dtype)}")
    if out.shape != result.shape:
        if out.numel():
            warnings.warn(
                f"An output with one or more elements was resized since it had shape "
                f"{list(out.shape)}, which does not match the required output shape "
                f"{list(result.shape)}. This behavior is deprecated, and in a future PyTorch "
                "release outputs will not be resized unless they have zero elements. You can "
                "explicitly reuse an out tensor t by resizing it, inplace, to zero elements "
                "with t.resize_(0).", UserWarning, stacklevel=3)
        xp = out._xp
        out._data = xp.empty(result._data.shape, dtype=out._data.dtype)
    out.copy_(result)
    return out
