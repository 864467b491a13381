"""``masked_fill``: ``value`` where a boolean mask holds, the input elsewhere (one node,
``MaskedFillBackward0``; the filled places get no gradient, but a tensor ``value`` gets theirs,
``MaskedFillBackward1``); ``masked_select``: the elements where the (broadcast) mask holds, in
order, as a 1-d tensor (``MaskedSelectBackward0``); ``masked_scatter``, its inverse: a
source's elements written in order where the mask holds (``MaskedScatterBackward0``).

>>> import minitorch
>>> x = minitorch.tensor([1., 2., 3.], requires_grad=True)
>>> x.masked_fill(x > 1.5, 0.)
tensor([1., 0., 0.], grad_fn=<MaskedFillBackward0>)
"""

from __future__ import annotations

import math
from typing import Any

from .. import _args, _call_form
from .._batched import refuse_batched_mask
from .._tensor import (
    Tensor,
    broadcast_pair,
    check_inplace_allowed,
    check_internal_overlap,
    expanded_shape,
    warn_expanded,
)
from ..backend import c_order, getitem, setitem
from ._base import Op, sum_to, wrap
from .pointwise import where
from .shape import cat

__all__ = ["MaskedFill", "MaskedFillTensor", "MaskedScatter", "MaskedSelect",
           "check_fill_through_mask", "masked_fill", "masked_fill_", "masked_scatter",
           "masked_scatter_", "masked_select"]


class MaskedFill(Op):
    node_name = "MaskedFillBackward0"
    _profile_name = "aten::masked_fill"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, mask: Tensor, value: Any) -> Tensor:
        ctx.save_for_backward(mask)  # torch saves the mask: a second backward raises
        ctx.shape = a._data.shape  # a broadcasting mask: the gradient sums back to it
        xp = a._xp
        fill = xp.asarray(value._data if isinstance(value, Tensor) else value,
                          dtype=a._data.dtype)
        return wrap(c_order(xp.where(mask._data, fill, a._data)))  # contiguous, as torch's

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        mask, = ctx.saved_tensors
        return (sum_to(where(mask, 0.0, g), ctx.shape),)


class MaskedFillTensor(Op):
    """``masked_fill`` with a 0-d tensor ``value``, which gets the gradient of the places it
    fills (torch's ``MaskedFillBackward1``)."""

    node_name = "MaskedFillBackward1"
    _profile_name = "aten::masked_fill"

    @staticmethod
    def forward(ctx: Any, a: Tensor, value: Tensor, *, mask: Tensor) -> Tensor:
        ctx.save_for_backward(mask)
        ctx.value_dtype = value.dtype
        return MaskedFill.forward(ctx, a, mask=mask, value=value)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        mask, = ctx.saved_tensors
        filled = where(mask, g, 0.0).sum() if ctx.needs_input_grad[1] else None
        kept = sum_to(where(mask, 0.0, g), ctx.shape)
        return kept, None if filled is None else filled.to(ctx.value_dtype)


def _filled(self: Tensor, mask: Tensor, value: Any) -> Any:
    """The op that fills ``value`` in, and its arguments after the input."""
    if isinstance(value, Tensor):
        return MaskedFillTensor.apply, (value,), {"mask": mask}
    return MaskedFill.apply, (), {"mask": mask, "value": value}


def _check_mask(mask: Tensor) -> None:
    if mask.dtype.name != "bool":
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{_args.c_name(mask.dtype)}")


def _check_value(fn: str, mask: Tensor, value: Any, shapes: Any = None,
                 written: Tensor | None = None) -> Any:
    """The fill value as torch checks it before the in-place kernel's shapes (its type, an
    int's range, autograd's refusal to write ``written`` in place, the out-of-place form's
    broadcast ``shapes()``, a tensor value's rank, the mask's dtype); numpy scalars come back
    as Python numbers."""
    value = _args.numpy_scalar(value)
    if not isinstance(mask, Tensor) or not isinstance(value, (Tensor, int, float, complex)):
        raise _args.invalid_combination(fn, (mask, value), "Tensor mask, Tensor value",
                                        "Tensor mask, Number value")
    _args.unpack_int(value)
    if written is not None:
        check_inplace_allowed(written, value, overlap=False)  # (a value read as a number)
    if shapes is not None:
        shapes()
    if isinstance(value, Tensor) and value.dim():
        raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got "
                           f"tensor with {value.dim()} dimension(s).")
    _check_mask(mask)
    return value


def fill_value(value: Any, dt: Any) -> Any:
    """After the shapes: the value as the tensor's dtype holds it, refused as torch's checked
    fill refuses what ``dt`` cannot hold (an int wraps into an unsigned type down to minus its
    maximum; a float or bool tensor takes ints up to 2**64, as torch's parser reads them); a
    0-d tensor value is checked by its item and kept."""
    if isinstance(value, Tensor):
        _args.assigned(value.reshape(()).item() if value.dim() else value.item(), dt,
                        unsigned=True)
        return value
    return _args.assigned(value, dt, unsigned=True)


def check_fill_through_mask(self: Tensor, mask: Tensor, value: Any = None) -> None:
    """torch's checks where ``self[mask] = value`` or ``index_put_`` writes one value through
    one mask with masked_fill_: a uint8 index is a mask to indexing but not to masked_fill_,
    and a tensor value must fit ``self``'s dtype (nan into int64, 300 into int8 are refused;
    a number, None here, was checked as ``x[key] = number`` converts it first).

    >>> check_fill_through_mask(minitorch.zeros(2, dtype=minitorch.int8),
    ...                         minitorch.tensor([True, False]), minitorch.tensor(300))
    Traceback (most recent call last):
    RuntimeError: value cannot be converted to type int8_t without overflow
    """
    _check_mask(mask)
    if value is not None:
        fill_value(value, self.dtype)


_FILL_SIGNATURES = ("Tensor input, Tensor mask, Tensor value",
                    "Tensor input, Tensor mask, Number value")


@_call_form.overloads(*_FILL_SIGNATURES)
def masked_fill(self: Tensor, mask: Tensor, value: Any) -> Tensor:
    """``value`` where ``mask`` is True (broadcast), the tensor's values elsewhere.

    >>> minitorch.tensor([1., 2.]).masked_fill(minitorch.tensor([True, False]), 5.)
    tensor([5., 2.])
    """
    # torch's broadcast of the mask and the tensor comes first (its clone to fill)
    value = _check_value("masked_fill", mask, value, lambda: broadcast_pair(mask, self))
    value = fill_value(value, self.dtype)
    if isinstance(value, Tensor):  # its gradient would flow into an integer result
        _args.differentiable_dtype(value, self.dtype)
    op, values, keywords = _filled(self, mask, value)
    return op(self, *values, **keywords)


@_call_form.overloads(*_FILL_SIGNATURES)
def masked_fill_function(input: Tensor, mask: Tensor, value: Any) -> Tensor:
    """``torch.masked_fill(input, mask, value)``: :meth:`Tensor.masked_fill` as a function.

    >>> minitorch.masked_fill(minitorch.zeros(2), minitorch.tensor([False, True]), 1.)
    tensor([0., 1.])
    """
    if not (isinstance(input, Tensor) and isinstance(mask, Tensor)
            and (isinstance(value, (Tensor, int, float, complex)) or _args.holds_number(value))):
        raise _args.invalid_combination("masked_fill", (input, mask, value), *_FILL_SIGNATURES)
    return masked_fill(input, mask, value)


@_call_form.overloads(*_FILL_SIGNATURES)
def masked_fill_(self: Tensor, mask: Tensor, value: Any) -> Tensor:
    """In-place ``masked_fill``.

    >>> minitorch.zeros(2).masked_fill_(minitorch.tensor([False, True]), 1.)
    tensor([0., 1.])
    """
    value = _check_value("masked_fill_", mask, value, written=self)  # autograd first
    shape = broadcast_pair(self, mask)
    if shape != self._data.shape:
        raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast "
                           f"shape {list(shape)}")
    value = fill_value(value, self.dtype)
    warn_expanded(self, "masked_fill_")
    op, values, keywords = _filled(self, mask, value)
    return self._inplace(op, *values, fills=True, **keywords)  # torch's: onto an expand too


class MaskedSelect(Op):
    node_name = "MaskedSelectBackward0"
    index_operands = (1,)
    _profile_name = "aten::masked_select"

    @staticmethod
    def forward(ctx: Any, a: Tensor, mask: Tensor) -> Tensor:
        shape = broadcast_pair(mask, a)  # torch's order, for its message
        xp = a._xp
        ctx.save_for_backward(mask)
        ctx.shapes = (a.shape, shape)
        chosen = xp.broadcast_to(mask._data, shape)
        return wrap(getitem(xp, xp.broadcast_to(a._data, shape), chosen))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (mask,) = ctx.saved_tensors
        input_shape, shape = ctx.shapes
        zeros = wrap(g._xp.zeros(shape, dtype=g._data.dtype))
        return sum_to(MaskedScatter.apply(zeros, mask, g), input_shape), None


class MaskedScatter(Op):
    """``source``'s first elements written, in order, where the mask (broadcast with ``a``)
    holds; the input's gradient skips those places, the source's elements get theirs (zeros
    for the ones left unread)."""

    node_name = "MaskedScatterBackward0"
    index_operands = (1,)
    _profile_name = "aten::masked_scatter"

    @staticmethod
    def forward(ctx: Any, a: Tensor, mask: Tensor, source: Tensor) -> Tensor:
        shape = broadcast_pair(mask, a)
        xp = a._xp
        ctx.save_for_backward(mask)
        ctx.shapes = (a.shape, source.shape)
        chosen = xp.broadcast_to(mask._data, shape)
        out = xp.asarray(xp.broadcast_to(a._data, shape), copy=True)
        count = int(xp.count_nonzero(chosen))
        setitem(xp, out, chosen, xp.reshape(source._data, (-1,))[:count])
        return wrap(c_order(out))  # torch's CPU masked_scatter: a contiguous result

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (mask,) = ctx.saved_tensors
        input_shape, source_shape = ctx.shapes
        grad_source = None
        if ctx.needs_input_grad[2]:
            picked = MaskedSelect.apply(g, mask)
            unread = math.prod(source_shape) - picked.numel()
            if unread:
                zeros = wrap(g._xp.zeros((unread,), dtype=g._data.dtype))
                picked = cat([picked, zeros])
            grad_source = picked.view(source_shape)
        return sum_to(where(mask, 0.0, g), input_shape), None, grad_source


def _masked_scatter_checked(fn: str, input: Any, mask: Any, source: Any) -> None:
    """torch's checks of masked_scatter's operands in its order: the mask broadcast with the
    input (in place: the input's overlap, the dtypes, then the mask expanded to the input),
    the dtypes, the mask's dtype, the count."""
    _args.tensor_args(fn, (input, "input", 1), (mask, "mask", 2), (source, "source", 3))
    if fn.endswith("_"):
        check_inplace_allowed(input)
        check_internal_overlap(input)
        _check_scatter_dtypes(input, source)
        expanded_shape(mask.shape, input.shape, _args.type_string(mask.dtype))
    else:
        broadcast_pair(mask, input)
    _check_scatter_dtypes(input, source)
    if mask.dtype.name != "bool":
        raise RuntimeError("masked_scatter_ only supports boolean masks, but got mask with "
                           f"dtype {_args.legacy(mask.dtype)}")
    shape = broadcast_pair(mask, input)
    if int(mask._xp.count_nonzero(mask._xp.broadcast_to(mask._data, shape))) > source.numel():
        raise RuntimeError("Number of elements of source < number of ones in mask")


def _check_scatter_dtypes(input: Tensor, source: Tensor) -> None:
    if source.dtype is not input.dtype:
        raise RuntimeError("masked_scatter: expected self and source to have same dtypes but "
                           f"got{_args.legacy(input.dtype)} and {_args.legacy(source.dtype)}")


def masked_scatter(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    """A copy of ``input`` (broadcast with ``mask``) with ``source``'s elements, in order,
    where ``mask`` is True.

    >>> minitorch.zeros(3).masked_scatter(minitorch.tensor([True, False, True]),
    ...                                   minitorch.tensor([1., 2., 3.]))
    tensor([1., 0., 2.])
    """
    _masked_scatter_checked("masked_scatter", input, mask, source)
    return MaskedScatter.apply(input, mask, source)


def masked_scatter_(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    """In-place ``masked_scatter``.

    >>> minitorch.zeros(2).masked_scatter_(minitorch.tensor([False, True]), minitorch.ones(2))
    tensor([0., 1.])
    """
    _masked_scatter_checked("masked_scatter_", input, mask, source)
    return input._inplace(MaskedScatter.apply, mask, source)


def masked_select(input: Tensor, mask: Tensor) -> Tensor:
    """The elements of ``input`` where ``mask`` (broadcast with it) is True, as a 1-d tensor.

    >>> x = minitorch.tensor([1., 2., 3.])
    >>> minitorch.masked_select(x, x != 2)
    tensor([1., 3.])
    """
    _args.tensor_args("masked_select", (input, "input", 1), (mask, "mask", 2))
    refuse_batched_mask(mask)
    if mask.dtype.name != "bool":
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    return MaskedSelect.apply(input, mask)
