"""``F.pad``: widening (or, with negative sizes, cropping) the last dims of a tensor.

``pad`` lists (left, right) pairs from the last dim backwards, as torch: ``(1, 1, 2, 0)``
widens the last dim by one on each side and the one before by two at its start. The
``"constant"`` mode fills with ``value``; ``"reflect"``, ``"replicate"`` and ``"circular"``
read every new element from a position of the input, so their gradient adds each output's
gradient back at that position.

>>> import minitorch
>>> import minitorch.nn.functional as F
>>> F.pad(minitorch.tensor([[1., 2.]], requires_grad=True), (1, 0), value=9.)
tensor([[9., 1., 2.]], grad_fn=<ConstantPadNdBackward0>)
"""

from __future__ import annotations

from typing import Any

from .. import _args
from .._tensor import Tensor, overlap_error
from ..backend import getitem
from ._base import Op, wrap
from .shape import IndexAdd

__all__ = ["ConstantPadNd", "pad"]


def _pairs(pad: tuple, ndim: int) -> list:
    """(dim, left, right) per padded dim, the last dim first."""
    return [(ndim - 1 - i, pad[2 * i], pad[2 * i + 1]) for i in range(len(pad) // 2)]


class ConstantPadNd(Op):
    node_name = "ConstantPadNdBackward0"
    _profile_name = "aten::constant_pad_nd"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, pad: tuple, value: Any) -> Tensor:
        ctx.pad = pad
        xp = a._xp
        shape, src, dst = list(a.shape), [slice(None)] * a.dim(), [slice(None)] * a.dim()
        for d, left, right in _pairs(pad, a.dim()):
            kept = shape[d] - max(-left, 0) - max(-right, 0)
            src[d] = slice(max(-left, 0), max(-left, 0) + kept)
            dst[d] = slice(max(left, 0), max(left, 0) + kept)
            shape[d] += left + right
        out = xp.full(tuple(shape), value, dtype=a._data.dtype)
        out[tuple(dst)] = a._data[tuple(src)]
        return wrap(out)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (ConstantPadNd.apply(g, pad=tuple(-p for p in ctx.pad), value=0),)


class _IndexedPad(Op):
    """Padding that reads the input at ``key`` (reflect, replicate, circular)."""

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, key: tuple) -> Tensor:
        ctx.shape, ctx.key = tuple(a.shape), key
        return wrap(getitem(a._xp, a._data, key))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        return (IndexAdd.apply(g, shape=ctx.shape, key=ctx.key),)


_NODES = {(mode, k): type(f"{prefix}{k}D", (_IndexedPad,), {
    "node_name": f"{prefix}{k}DBackward0", "_profile_name": f"aten::{aten}{k}d"})
    for mode, prefix, aten in (("reflect", "ReflectionPad", "reflection_pad"),
                               ("replicate", "ReplicationPad", "replication_pad"))
    for k in (1, 2, 3)}
_NODES.update({("circular", k): type("CopySlices", (_IndexedPad,), {
    "node_name": "CopySlices", "_profile_name": "aten::copy_"}) for k in (1, 2, 3)})


def _source(mode: str, xp: Any, n: int, left: int, right: int) -> Any:
    """The input position each output position of a padded dim reads."""
    i = xp.arange(-left, n + right)
    if mode == "reflect":
        return n - 1 - xp.abs(n - 1 - xp.abs(i))
    if mode == "replicate":
        return xp.clip(i, 0, n - 1)
    lo, hi = max(-left, 0), max(-right, 0)  # torch crops by a negative pad, then wraps
    kept = n - lo - hi
    return xp.arange(-max(left, 0), kept + max(right, 0)) % kept + lo


def _indexed(input: Tensor, pad: tuple, mode: str) -> Tensor:
    k = len(pad) // 2
    if input.dim() not in (k + 1, k + 2) or not 0 < k <= 3:
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {input.dim()}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    xp, lead = input._xp, input.dim() - k
    key: list = [slice(None)] * lead
    if mode in ("reflect", "replicate"):
        _check_nonempty(input, k)
    if mode == "reflect":
        _check_reflect(input, pad)
    if mode == "circular":
        _check_circular(input, pad)
    else:
        _check_output(input, pad, mode)
    for d, left, right in reversed(_pairs(pad, input.dim())):
        n = input.shape[d]
        shape = [1] * k
        shape[d - lead] = n + left + right
        key.append(xp.reshape(_source(mode, xp, n, left, right), tuple(shape)))
    if mode != "circular" and input.dtype.name == "bool":  # no bool kernel (after the sizes)
        kernel = "reflection" if mode == "reflect" else "replication"
        raise _args.not_implemented(f"{kernel}_pad{k}d", "Bool")
    return _NODES[mode, k].apply(input, key=tuple(key))


def _check_nonempty(input: Tensor, k: int) -> None:
    """torch's refusal of an empty dim but the batch in a reflection or replication pad over
    ``k`` dims."""
    if 0 in input.shape[input.dim() == k + 2:]:
        raise RuntimeError(f"Expected {k + 1}D or {k + 2}D (batch mode) tensor with possibly 0 "
                           "batch size and other non-zero dimensions for input, but got: "
                           f"{list(input.shape)}")


def _check_circular(input: Tensor, pad: tuple) -> None:
    """torch's checks of a circular pad: each dim wraps at most once into a size not below
    zero, then (with elements to copy) no wrap reads what it writes."""
    pairs = list(reversed(_pairs(pad, input.dim())))
    for d, left, right in pairs:
        n = input.shape[d]
        if left > n or right > n:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if n + left + right < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
    out = list(input.shape)
    for d, left, right in pairs:
        out[d] += left + right
    for d, left, right in pairs:
        kept = input.shape[d] - max(-left, 0) - max(-right, 0)
        # torch wraps by copying slices of the cropped output into itself: a copy that reads
        # what it writes is refused only when its check can see it, both slices dense (no
        # dim before this one longer than 1); with nothing kept to wrap torch returns
        # uninitialised memory, refused here
        seen = kept == 0 or max(out[:d], default=1) == 1
        if max(left, right) > kept and 0 not in out and seen:
            raise overlap_error()


def _check_output(input: Tensor, pad: tuple, mode: str) -> None:
    """torch's checks of a reflection or replication pad's output sizes: refused when no
    padded dim keeps an element, then when any would be negative."""
    pairs = list(reversed(_pairs(pad, input.dim())))
    sides = [input.shape[d] for d, _, _ in pairs]
    outs = [n + left + right for n, (_, left, right) in zip(sides, pairs)]
    if max(outs) < 1:
        names = "DHW"[-len(pairs):]
        given = " ".join(f"{name}: {n}," for name, n in zip(names, sides))[:-1]
        given = given.replace(",", "", len(pairs) - 2)  # torch's "(D: 2 H: 2, W: 2)"
        space = " " if (mode, len(pairs)) == ("replicate", 2) else ""
        wanted = " ".join(f"{name}: {n}" for name, n in zip(names, outs))
        raise RuntimeError(f"input ({given}{space}) is too small. Calculated output {wanted}")
    if (mode, len(pairs)) == ("reflect", 2):  # torch counts its output's elements first
        _args.check_numel((*input.shape[:input.dim() - 2], *outs))
    _args.non_negative("pad", (*input.shape[:input.dim() - len(pairs)], *outs))
    _args.check_alloc((*input.shape[:input.dim() - len(pairs)], *outs), input.dtype.itemsize)


def _check_reflect(input: Tensor, pad: tuple) -> None:
    """torch's check of each reflection padding (the last dim first: argument #4, #6, #8)
    against its dim."""
    for i, (d, left, right) in enumerate(_pairs(pad, input.dim())):
        if left >= input.shape[d] or right >= input.shape[d]:
            raise RuntimeError(f"Argument #{4 + 2 * i}: Padding size should be less than the "
                               "corresponding input dimension, but got: padding "
                               f"({left}, {right}) at dimension {d} of input {list(input.shape)}")


def pad(input: Tensor, pad: Any, mode: str = "constant", value: float | None = None) -> Tensor:
    """``input`` widened by ``pad`` = (left, right) pairs from the last dim backwards.

    >>> F.pad(minitorch.tensor([[1., 2., 3.]]), (2, 1), mode="reflect")
    tensor([[3., 2., 1., 2., 3., 2.]])
    """
    _args.tensor_args("pad", (input, "input", 1))
    if not isinstance(pad, (tuple, list)):  # a lone int is no list of sizes here
        raise TypeError("pad(): argument 'pad' (position 2) must be tuple of ints, not "
                        f"{_args.type_name(pad)}")
    _args.int_list_types("pad", pad, "pad", 2)  # the first size's type, then the others'
    _args.string("pad", mode, "mode", 3)
    if value is not None:
        _args.real("pad", value, "value", 4)  # (a one-element tensor is read as its number)
        value = value.item() if _args.is_tensor(value) else value
    pad = _args.sizes("pad", (pad,), "pad", check_negative=False, position=2)
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise RuntimeError("Padding length should be less than or equal to two times the input "
                           f"dimension but got padding length {len(pad)} and input of "
                           f"dimension {input.dim()}")
    if mode == "constant":
        shape = list(input.shape)
        for d, left, right in _pairs(pad, input.dim()):  # torch crops by narrowing each side
            if input.shape[d] + min(left, 0) + min(right, 0) < 0:
                raise RuntimeError("narrow(): length must be non-negative.")
            shape[d] += left + right
        _args.check_alloc(tuple(shape), input.dtype.itemsize)  # torch's output, then filled
        # (pads none positive: torch narrows and copies, never converting the value; else
        # its parser's double: -1 does not wrap into uint8 as an int would)
        fill = 0 if value is None or all(p <= 0 for p in pad) else float(value)
        return ConstantPadNd.apply(input, pad=pad, value=_args.assigned(fill, input.dtype))
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    return _indexed(input, pad, mode)
