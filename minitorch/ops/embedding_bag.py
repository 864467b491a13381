"""``embedding_bag``: the rows of a weight matrix that each bag of indices names, reduced
per bag (summed, averaged or their elementwise maximum) without the rows ever being stored.

Bags are consecutive runs of a flat index tensor, starting at ``offsets`` (or the rows of a
2-D index tensor). In ``sum`` mode each row may be scaled by its ``per_sample_weights``;
``padding_idx`` rows take part in no bag; an empty bag gives zeros.

>>> import minitorch
>>> w = minitorch.tensor([[1., 2.], [3., 4.], [5., 6.]], requires_grad=True)
>>> embedding_bag(minitorch.tensor([0, 2, 1]), w, minitorch.tensor([0, 2]), mode="sum")
tensor([[6., 8.],
        [3., 4.]], grad_fn=<EmbeddingBagBackward0>)
"""

from __future__ import annotations

import os
import warnings
from typing import Any

from .. import _args
from .. import _dtype as D
from .._creation import arange
from .._dtype import promote_types
from .._tensor import Tensor
from ..backend import getitem, index_add
from ._base import Op, wrap
from .embedding import _check_indices, renorm_
from .indexing import Index
from .inplace_more import IndexAdd

__all__ = ["EmbeddingBag", "embedding_bag"]

_MODES = ("sum", "mean", "max")


class EmbeddingBag(Op):
    """One bag's reduction per output row; ``bags`` gives each index's bag, ``keep`` marks
    the indices that are not ``padding_idx``, ``summed`` those of them a sum adds. With
    ``include_last_offset`` the last bag runs on to the end of the indices, past the last
    offset, as in torch; only torch's float32 kernel without ``padding_idx`` stops a sum (not
    a mean's count, not a gradient) at the last offset."""

    node_name = "EmbeddingBagBackward0"
    _profile_name = "aten::embedding_bag"

    @staticmethod
    def forward(ctx: Any, weight: Tensor, per_sample_weights: Tensor | None, *, indices: Any,
                bags: Any, keep: Any, summed: Any, nbags: int, mode: str) -> Tensor:
        xp = weight._xp
        rows = getitem(xp, weight._data, indices)
        ctx.weight_shape, ctx.mode = weight.shape, mode
        ctx.indices, ctx.bags, ctx.keep, ctx.summed = indices, bags, keep, summed
        if mode == "max":
            out, ctx.argmax = _bag_max(xp, rows, bags, keep, nbags)
            return wrap(out)
        if per_sample_weights is not None:
            rows = rows * xp.reshape(per_sample_weights._data, (-1, 1))
            ctx.save_for_backward(weight, per_sample_weights)
        ctx.counts = _bag_counts(xp, bags, keep, nbags, rows.dtype)
        out = xp.zeros((nbags, weight.shape[1]), dtype=rows.dtype)
        index_add(xp, out, (bags[summed],), rows[summed])
        if mode == "mean":
            out = out / xp.reshape(xp.maximum(ctx.counts, 1), (-1, 1))
        return wrap(out)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        if ctx.mode == "max":
            return _max_backward(ctx, g), None
        if ctx.mode == "mean":
            g = g / wrap(g._xp.reshape(g._xp.maximum(ctx.counts, 1), (-1, 1)))
        keep = ctx.keep
        grad_rows = Index.apply(g, key=(ctx.bags[keep],))
        grad_psw = None
        if ctx.saved_tensors:
            weight, psw = ctx.saved_tensors
            if ctx.needs_input_grad[1]:
                picked = Index.apply(weight, key=(ctx.indices[keep],))
                grad_psw = _scatter(g._xp, (picked * grad_rows).sum(1), keep, psw.shape[0])
            grad_rows = grad_rows * Index.apply(psw, key=(keep,)).unsqueeze(1)
        if ctx.mode == "sum":
            grad_rows = Index.apply(grad_rows, key=(ctx.summed[keep],))
            keep = ctx.summed
        zeros = wrap(g._xp.zeros(tuple(ctx.weight_shape), dtype=g._data.dtype))
        grad_weight = IndexAdd.apply(zeros, grad_rows, key=(ctx.indices[keep],), alpha=1)
        return grad_weight, grad_psw


def _bag_counts(xp: Any, bags: Any, keep: Any, nbags: int, dtype: Any) -> Any:
    counts = xp.zeros((nbags,), dtype=dtype)
    index_add(xp, counts, (bags[keep],), xp.ones(bags[keep].shape, dtype=dtype))
    return counts


def _scatter(xp: Any, values: Tensor, keep: Any, n: int) -> Tensor:
    """``values`` (one per kept index) at the kept positions of ``n``, zeros elsewhere."""
    zeros = wrap(xp.zeros((n,), dtype=values._data.dtype))
    return IndexAdd.apply(zeros, values, key=(keep,), alpha=1)


def _bag_max(xp: Any, rows: Any, bags: Any, keep: Any, nbags: int) -> tuple[Any, Any]:
    """Each bag's elementwise maximum (zeros for an empty bag) and, per output element, the
    position in the flat indices of the row it came from (-1 for an empty bag); the first
    of equal values wins, as in torch."""
    n, d = rows.shape
    positions = xp.arange(n)[keep]
    kept_bags = bags[keep]
    starts = xp.searchsorted(kept_bags, xp.arange(nbags))
    slot = xp.arange(positions.shape[0]) - starts[kept_bags]
    width = int(xp.max(slot)) + 1 if slot.shape[0] else 1
    dense = xp.full((nbags, width, d), -xp.inf, dtype=rows.dtype)
    dense[kept_bags, slot] = rows[keep]
    which = xp.argmax(dense, axis=1)
    table = xp.full((nbags, width), -1, dtype=positions.dtype)
    table[kept_bags, slot] = positions
    argmax = xp.take_along_axis(table, which, axis=1)
    out = xp.where(argmax >= 0, xp.max(dense, axis=1), xp.zeros((), dtype=rows.dtype))
    return out, argmax


def _max_backward(ctx: Any, g: Tensor) -> Tensor:
    """Each output element's gradient into the weight element it was the maximum of."""
    xp, d = g._xp, ctx.weight_shape[1]
    argmax = xp.reshape(ctx.argmax, (-1,))
    found = argmax >= 0  # an empty bag's elements have no maximum (and no index to read)
    columns = xp.arange(argmax.shape[0]) % d
    flat = ctx.indices[argmax[found]] * d + columns[found]
    picked = Index.apply(g.reshape(-1), key=(xp.nonzero(found)[0],))
    zeros = wrap(xp.zeros((ctx.weight_shape[0] * d,), dtype=g._data.dtype))
    return IndexAdd.apply(zeros, picked, key=(flat,), alpha=1).reshape(ctx.weight_shape)


def embedding_bag(input: Tensor, weight: Tensor, offsets: Tensor | None = None,
                  max_norm: float | None = None, norm_type: float = 2,
                  scale_grad_by_freq: bool = False, mode: str = "mean", sparse: bool = False,
                  per_sample_weights: Tensor | None = None, include_last_offset: bool = False,
                  padding_idx: int | None = None) -> Tensor:
    """The rows of ``weight`` named by each bag of ``input``, reduced by ``mode`` ("sum",
    "mean" or "max"); see the module docstring for bags and offsets.

    >>> w = minitorch.eye(3)
    >>> F.embedding_bag(minitorch.tensor([[0, 1], [2, 2]]), w, mode="mean")
    tensor([[0.5000, 0.5000, 0.0000],
            [0.0000, 0.0000, 1.0000]])
    """
    if weight.dtype == D.int64 and input.is_floating_point():  # torch's old order, still
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. Usage "  # taken
                      "`embedding_bag(weight, input, ...)` is deprecated, and should now be "
                      "`embedding_bag(input, weight, ...)`.", stacklevel=2)
        weight, input = input, weight
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) "
                         "is not None, then it must have the same shape as the input "
                         f"({input.shape})")
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension "
                         f"{weight.dim()}")
    input, offsets, include_last_offset, per_sample_weights = _flat_bags(
        input, offsets, include_last_offset, per_sample_weights)
    _check_mode(mode, scale_grad_by_freq, sparse, per_sample_weights)
    if max_norm is not None:
        renorm_(weight, input, max_norm, norm_type)
    padding_idx = _bag_padding_row(weight.shape[0], padding_idx)
    common = promote_types(input.dtype, offsets.dtype)  # torch's promoteIndicesAndOffsets
    input, offsets = input.to(common), offsets.to(common)
    _check_indices("embedding_bag", input, 1)
    _args.arg_scalar_types("embedding_bag", (weight, "weight", 1), _WEIGHT_TYPES)
    if scale_grad_by_freq or sparse:
        raise NotImplementedError("minitorch's embedding_bag has no scale_grad_by_freq or "
                                  "sparse gradients")
    xp = weight._xp
    indices, starts = input._data, offsets._data
    nbags = starts.shape[0] - (1 if include_last_offset else 0)
    _check_offsets(xp, indices, starts, common, include_last_offset, weight,
                   per_sample_weights)
    _check_indices_in_range(xp, indices, starts, weight.shape[0],
                            mode == "max" or padding_idx is not None or
                            weight.dtype.name not in _FBGEMM, include_last_offset)
    bags = xp.searchsorted(starts[:nbags], xp.arange(indices.shape[0]), side="right") - 1
    keep = bags >= 0  # (no offsets: no bag, and none of the indices is read)
    if padding_idx is not None:
        keep = keep & (indices != padding_idx)
    summed = keep
    if include_last_offset and padding_idx is None and weight.dtype.name in _FBGEMM:
        summed = keep & (xp.arange(indices.shape[0]) < starts[-1])
    # what is left out of range lies past the last offset, which that kernel never reads
    indices = xp.where((indices < 0) | (indices >= weight.shape[0]), 0, indices)
    return EmbeddingBag.apply(weight, per_sample_weights, indices=indices, bags=bags,
                              keep=keep, summed=summed, nbags=nbags, mode=mode)


_WEIGHT_TYPES = ("Half", "BFloat16", "Float", "Double")

_FBGEMM = ("float32", "float16")
"""The weights' dtypes torch's sum/mean kernel hands to fbgemm (without a padding row)."""


def _bag_padding_row(n: int, padding_idx: Any) -> int | None:
    """torch's kernel check of ``padding_idx`` (its Python passes it on unchecked): an int
    row of the ``n`` rows, a negative one counted from the end.

    >>> _bag_padding_row(3, -1)
    2
    """
    if padding_idx is None:
        return None
    padding_idx = _args.integer("embedding_bag", padding_idx, "padding_idx", 9)
    if not -n <= padding_idx < n:
        raise RuntimeError(f"padding_idx must be within the number of embeddings, -{n} "
                           f"through {n - 1}, but got {padding_idx}")
    return padding_idx + n if padding_idx < 0 else padding_idx


def _flat_bags(input: Tensor, offsets: Any, include_last_offset: bool,
               per_sample_weights: Any) -> tuple:
    """A 2-D ``input`` as flat indices with one bag per row (torch's Python rewriting)."""
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated "
                             "is a mini-batch of fixed length sequences. However, found "
                             f"offsets of type {type(offsets)}")
        offsets = arange(0, input.numel(), input.size(1), dtype=input.dtype)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
        return input.reshape(-1), offsets, False, per_sample_weights
    if input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
        return input, offsets, include_last_offset, per_sample_weights
    raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension "
                     f"{input.dim()}")


def _check_mode(mode: str, scale_grad_by_freq: bool, sparse: bool, per_sample_weights: Any
                ) -> None:
    if mode not in _MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if mode == "max" and sparse:
        raise ValueError("max mode does not support sparse weights")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError("embedding_bag: per_sample_weights was not None. "
                                  "per_sample_weights is only supported for mode='sum' (got "
                                  f"mode='{mode}'). Please open a feature request on GitHub.")


_INDEX_SIZE = _args.check_failed("i < index_size")


def _check_offsets(xp: Any, indices: Any, starts: Any, dtype: Any, include_last_offset: bool,
                   weight: Tensor, per_sample_weights: Tensor | None) -> None:
    """torch's checks of the offsets (which print offsets[0] as a 0-d tensor of ``dtype``)
    and indices, with its check that ``per_sample_weights`` have the weight's dtype between
    them."""
    if starts.shape[0] and int(starts[0]) != 0:
        raise RuntimeError("offsets[0] has to be 0, i.e., the first sequence in the mini-batch "
                           f"has to start from position 0. However, got {int(starts[0])}\n"
                           f"[ {_args.type_string(dtype)}{{}} ]")
    if starts.shape[0] and int(starts[-1]) > indices.shape[0]:
        raise RuntimeError(f"offsets[-1] can not be greater than input's length "
                           f"{indices.shape[0]} but got offsets[-1] of {int(starts[-1])}")
    if per_sample_weights is not None:
        _args.arg_same_type("embedding_bag", (weight, "weight", 1),
                            (per_sample_weights, "per_sample_weights", 1))
    if include_last_offset and not starts.shape[0]:
        raise RuntimeError("include_last_offset: number of offset should be at least 1")
    if bool(xp.any(starts[1:] < starts[:-1])):
        raise RuntimeError(_INDEX_SIZE)


def _check_indices_in_range(xp: Any, indices: Any, starts: Any, n: int, generic: bool,
                            include_last_offset: bool) -> None:
    """torch's refusal of an index outside ``[0, n)``, in the words of the kernel it takes:
    the ``generic`` one (max mode, a padding row, weights other than float32 or float16)
    names the first bad value; the float32/float16 sum/mean kernel (fbgemm) runs on chunks
    of bags in parallel and re-reads a failed chunk with its offsets absolute but its indices
    counted from the chunk's start, so what it names depends on where the chunk starts."""
    bad = (indices < 0) | (indices >= n)
    if not indices.shape[0] or not bool(xp.any(bad)):
        return
    if generic:
        first = int(xp.argmax(xp.astype(bad, xp.int8)))
        raise RuntimeError("embedding_bag: Expected idx >= 0 && idx < num_embeddings but found "
                           f"idx to be {int(indices[first])}")
    bounds = [int(b) for b in starts.tolist()]
    if not include_last_offset:
        bounds.append(indices.shape[0])
    nbags = len(bounds) - 1
    step = -(-nbags // min(_threads(), nbags)) if nbags else 1
    for first in range(0, nbags, step):
        last = min(first + step, nbags)
        begin, end = bounds[first], bounds[last]
        if bool(xp.any(bad[begin:end])):
            _fbgemm_report(indices, bounds[first:last + 1], n)


def _fbgemm_report(indices: Any, bounds: list, n: int) -> None:
    """torch's re-reading of one failed chunk of bags (``bounds``: its absolute offsets)."""
    start, size = bounds[0], bounds[-1] - bounds[0]
    for i in range(bounds[0], bounds[-1]):
        if i >= size:
            raise RuntimeError(_INDEX_SIZE)
        value = int(indices[start + i])
        if not 0 <= value < n:
            raise RuntimeError(f"Index {i} of input takes value {value} which is not in the "
                               f"valid range [0, {n})")
    if start:
        raise RuntimeError("Your input appears to be incorrect: the last offset value should "
                           "be the size of the indices tensor, but it seems not to be the case.")


def _threads() -> int:
    """The threads torch's CPU kernels split work over by default: the cores it may use."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity else os.cpu_count() or 1
