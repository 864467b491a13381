"""Looking up rows of a weight matrix by index: ``embedding`` and ``one_hot``.

The gradient of a lookup adds each output row's gradient into the weight row it came from
(repeated indices add up); the ``padding_idx`` row gets none.

>>> import minitorch
>>> w = minitorch.eye(3, requires_grad=True)
>>> embedding(minitorch.tensor([2, 0]), w)
tensor([[0., 0., 1.],
        [1., 0., 0.]], grad_fn=<EmbeddingBackward0>)
"""

from __future__ import annotations

from typing import Any

from .. import _args
from .._dtype import float64
from .._tensor import Tensor
from ..autograd import grad_mode
from ..backend import getitem
from ._base import Op, c_ints, kept, wrap
from .inplace_more import IndexAdd
from .pointwise import where

__all__ = ["Embedding", "embedding", "one_hot"]


class Embedding(Op):
    node_name = "EmbeddingBackward0"
    index_operands = (1,)
    saved_names = ("indices",)
    saved_values = {"padding_idx": kept("padding_idx", lambda p: c_ints(-1 if p is None else p)),
                    "scale_grad_by_freq": kept("scale"), "sparse": kept("sparse"),
                    "weight_sym_argsize_0": kept("shape", lambda shape: shape[0])}
    _profile_name = "aten::embedding"

    @staticmethod
    def forward(ctx: Any, weight: Tensor, indices: Tensor, *, padding_idx: int | None,
                scale_grad_by_freq: bool, sparse: bool = False) -> Tensor:
        ctx.shape, ctx.padding_idx, ctx.scale = weight.shape, padding_idx, scale_grad_by_freq
        ctx.sparse = sparse
        ctx.save_for_backward(indices)
        xp = weight._xp
        rows = getitem(xp, weight._data, xp.reshape(indices._data, (-1,)))
        return wrap(xp.reshape(rows, (*indices.shape, weight.shape[1])))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (indices,) = ctx.saved_tensors
        if ctx.sparse:  # torch's gradient is a sparse tensor, which minitorch has not
            if ctx.scale:
                raise RuntimeError("embedding_backward: scale_grad_by_freq not supported with "
                                   "sparse gradients")
            raise NotImplementedError("minitorch has no sparse tensors: torch's gradient of "
                                      "embedding(..., sparse=True) is one; use sparse=False "
                                      "for the same values, dense")
        flat = indices.reshape(-1)
        rows = g.reshape(flat.shape[0], ctx.shape[1])  # (not -1: rows of no columns)
        if ctx.padding_idx is not None:
            rows = where((flat == ctx.padding_idx).unsqueeze(1), 0.0, rows)
        if ctx.scale:
            counts = _counts(flat, ctx.shape[0], rows)
            rows = rows / counts.index_select(0, flat).unsqueeze(1)
        zeros = wrap(g._xp.zeros(tuple(ctx.shape), dtype=g._data.dtype))
        return IndexAdd.apply(zeros, rows, key=(flat._data,), alpha=1), None


def _counts(flat: Tensor, n: int, like: Tensor) -> Tensor:
    """How often each row index occurs in ``flat``."""
    xp = like._xp
    ones = wrap(xp.ones(flat.shape, dtype=like._data.dtype))
    return IndexAdd.apply(wrap(xp.zeros((n,), dtype=like._data.dtype)), ones,
                          key=(flat._data,), alpha=1)


def _empty_rows_refusal(weight: Tensor, indices: Any) -> None:
    """torch's index_select on an empty ``weight`` (no rows, or rows of width 0) refuses an
    out-of-range index in its own words, naming the first one."""
    rows = weight.shape[0]
    if not rows:
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    if not weight.shape[1]:
        flat = [int(i) for i in indices.reshape(-1).tolist()]
        bad = next(i for i in flat if not 0 <= i < rows)
        raise RuntimeError(f"INDICES element is out of DATA bounds, id={bad} axis_dim={rows}")


def _check_indices(fn: str, indices: Tensor, argument: int) -> None:
    """torch's check that ``indices`` (argument #``argument`` of ``fn``) are integers."""
    _args.arg_scalar_types(fn, (indices, "indices", argument), ("Long", "Int"))


def renorm_(weight: Any, indices: Any, max_norm: Any, norm_type: Any) -> None:
    """torch's ``embedding_renorm_``: rows of ``weight`` that ``indices`` name and whose
    ``norm_type``-norm exceeds ``max_norm`` are scaled back to it, in place, unrecorded;
    its arguments checked as torch checks them, rows selected in ascending order: those before
    the first index out of range are renormed before it is refused."""
    fn = "embedding_renorm_"
    _args.tensor_args(fn, (weight, "self", 1), (indices, "indices", 2))
    max_norm, norm_type = _args.reals(fn, (max_norm, "max_norm", 3), (norm_type, "norm_type", 4))
    if weight.dim() != 2:
        raise RuntimeError(f"Expected 2-dimensional tensor, but got {weight.dim()}-dimensional "
                           f"tensor for argument #1 'self' (while checking arguments for {fn})")
    _check_indices(fn, indices, 2)
    xp, n = weight._xp, weight.shape[0]
    rows = xp.sort(xp.unique_values(xp.reshape(indices._data, (-1,))))  # torch's loop order
    # sorted, so the rows before the first out of range: none past a too negative first
    valid = 0 if rows.shape[0] and bool(rows[0] < -n) else \
        int(xp.sum(xp.astype(rows < n, xp.int64)))
    if valid:
        _renorm_rows(weight, wrap(rows[:valid] % n), max_norm, norm_type)
    if valid < rows.shape[0]:
        raise IndexError(f"select(): index {int(rows[valid])} out of range for tensor of size "
                         f"{list(weight.shape)} at dimension 0")


def _renorm_rows(weight: Any, rows: Tensor, max_norm: float, norm_type: float) -> None:
    """The rows of ``weight`` whose norm exceeds ``max_norm`` scaled back to it, in place."""
    if not weight.dtype.is_floating_point:
        raise RuntimeError("norm(): input dtype should be either floating point or complex. "
                           f"Got {_args.legacy(weight.dtype)} instead.")
    with grad_mode._recording(False):
        picked = weight.index_select(0, rows)
        # torch's kernel reads each norm as a double, takes the scale in double, and
        # multiplies the row by it rounded to the row's dtype
        norms = picked.norm(p=norm_type, dim=1, keepdim=True).to(float64)
        scale = where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
        weight[rows] = picked * scale.to(weight.dtype)


def _padding_row(weight: Any, padding_idx: Any) -> Any:
    """torch's Python checks of ``padding_idx``: a row of ``weight``, a negative one counted
    from the end."""
    if padding_idx is None:
        return None
    if padding_idx == 0:  # torch's Python reads no size for it
        return padding_idx
    _args.python_attribute(weight, "size")
    n = weight.size(0)
    if (padding_idx > 0 and padding_idx >= n) or (padding_idx < 0 and padding_idx < -n):
        raise AssertionError("Padding_idx must be within num_embeddings")
    return n + padding_idx if padding_idx < 0 else padding_idx


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None,
              max_norm: float | None = None, norm_type: float = 2.0,
              scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """The rows of ``weight`` that ``input`` (integer indices, any shape) names.

    >>> F.embedding(minitorch.tensor([[1]]), minitorch.eye(2)).shape
    torch.Size([1, 1, 2])
    """
    padding_idx = _padding_row(weight, padding_idx)
    if max_norm is not None:
        _args.python_attribute(input, "contiguous")
        renorm_(weight, input, max_norm, norm_type)
    fn = "embedding"
    _args.tensor_args(fn, (weight, "weight", 1), (input, "indices", 2))
    if padding_idx is not None:
        _args.integer(fn, padding_idx, "padding_idx", 3)
    scale_grad_by_freq = _args.flag(fn, scale_grad_by_freq, "scale_grad_by_freq", 4)
    sparse = _args.flag(fn, sparse, "sparse", 5)
    if weight.dim() == 0 and weight.requires_grad and grad_mode.is_grad_enabled():
        # torch's autograd notes the weight's row count before its kernel checks the rank
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if weight.dim() != 2:
        raise RuntimeError("'weight' must be 2-D")
    _check_indices(fn, input, 1)
    data = input._data
    if input.numel() and bool(input._xp.any((data < 0) | (data >= weight.shape[0]))):
        _empty_rows_refusal(weight, data)
        raise IndexError("index out of range in self")
    return Embedding.apply(weight, input, padding_idx=padding_idx,
                           scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


def one_hot(input: Tensor, num_classes: int = -1) -> Tensor:
    """An int64 tensor with one more dim of size ``num_classes`` (default: max + 1) holding
    a 1 at each index and 0 elsewhere.

    >>> F.one_hot(minitorch.tensor([0, 2]))
    tensor([[1, 0, 0],
            [0, 0, 1]])
    """
    _args.tensor_args("one_hot", (input, "input", 1))
    num_classes = _args.integer("one_hot", num_classes, "num_classes", 2)
    if input.dtype.name != "int64":
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    xp, data = input._xp, input._data
    if num_classes == -1 or (not input.numel() and num_classes < 1):
        if not input.numel():
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(xp.max(data)) + 1
    if input.numel() and int(xp.min(data)) < 0:
        raise RuntimeError("Class values must be non-negative.")
    if input.numel() and int(xp.max(data)) >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    classes = xp.arange(num_classes, dtype=data.dtype)
    return wrap(xp.astype(data[..., None] == classes, data.dtype))
