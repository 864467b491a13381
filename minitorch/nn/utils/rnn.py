"""``nn.utils.rnn``: sequences of different lengths batched into one padded tensor.

>>> import minitorch
>>> from minitorch.nn.utils.rnn import pad_sequence
>>> pad_sequence([minitorch.tensor([1, 2, 3]), minitorch.tensor([4])], batch_first=True)
tensor([[1, 2, 3],
        [4, 0, 0]])
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Iterable
from itertools import pairwise
from typing import Any

from ... import _args, _creation, _dtype, _factories
from ..._tensor import Tensor, broadcast_shapes
from ...ops._base import Op, wrap

__all__ = ["PackedSequence", "pack_padded_sequence", "pack_sequence", "pad_packed_sequence",
           "pad_sequence", "unpack_sequence", "unpad_sequence"]


def pad_sequence(sequences: Tensor | Iterable[Tensor], batch_first: bool = False,
                 padding_value: float = 0.0, padding_side: str = "right") -> Tensor:
    """Stack ``sequences`` (tensors of shape ``(length, *)``, lengths may differ) into one
    tensor of shape ``(longest, batch, *)`` (``batch_first``: ``(batch, longest, *)``), each
    padded with ``padding_value`` on its ``padding_side``. As torch, the result is filled
    and then each sequence copied in, so its gradient node is ``CopySlices``.

    >>> pad_sequence([minitorch.ones(2), minitorch.ones(1)], padding_side="left")
    tensor([[1., 0.],
            [1., 1.]])
    """
    if not isinstance(sequences, Iterable):
        raise RuntimeError("pad_sequence: Expected iterable for input sequences, but got arg of "
                           f"type: {type(sequences)}")
    sequences = tuple(sequences)
    for i, s in enumerate(sequences):  # torch's parser reads every argument first
        if not isinstance(s, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type(s).__name__}")
    _args.flag("pad_sequence", batch_first, "batch_first", 2)
    padding_value = _args.real("pad_sequence", padding_value, "padding_value", 3)
    if not isinstance(padding_side, str):
        raise TypeError("pad_sequence(): argument 'padding_side' (position 4) must be str, not "
                        f"{_args.type_name(padding_side)}")
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got "
                           f"{padding_side}.")
    if not sequences[0].dim():  # torch slices the first one's trailing sizes off
        raise RuntimeError("ArrayRef: invalid slice, N = 1; size = 0")
    longest = max(s.size(0) for s in sequences)
    batch = len(sequences)
    lead = (batch, longest) if batch_first else (longest, batch)
    out = sequences[0].new_full((*lead, *sequences[0].shape[1:]), padding_value)
    for i, s in enumerate(sequences):
        start = longest - s.shape[0] if padding_side == "left" else 0
        _place(out, i, start, s, batch_first)
    return out


def _place(out: Tensor, i: int, start: int, sequence: Tensor, batch_first: bool) -> None:
    """Copy ``sequence`` into batch entry ``i`` of ``out`` from ``start`` of its time dim."""
    rows = slice(start, start + sequence.shape[0])
    broadcast_shapes((rows.stop - start, *out.shape[2:]), tuple(sequence.shape))  # copy_'s error
    if batch_first:
        out[i, rows] = sequence
    else:
        out[rows, i] = sequence


class PackPaddedSequence(Op):
    """The valid steps of a padded batch (sorted longest first), time step after time step:
    the rows ``x[t, b]`` for ``b < batch_sizes[t]`` (``x[b, t]`` with ``batch_first``)."""

    node_name = "PackPaddedSequenceBackward0"
    _profile_name = "aten::_pack_padded_sequence"

    @staticmethod
    def forward(ctx: Any, a: Tensor, *, batch_sizes: list[int], batch_first: bool) -> Tensor:
        xp = a._xp
        steps = xp.asarray([t for t, size in enumerate(batch_sizes) for _ in range(size)])
        rows = xp.asarray([b for size in batch_sizes for b in range(size)])
        ctx.index = (rows, steps) if batch_first else (steps, rows)
        ctx.shape = a.shape
        return wrap(a._data[ctx.index])

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        grad = g.new_zeros(ctx.shape)
        grad[tuple(Tensor._make(i) for i in ctx.index)] = g
        return (grad,)


class PackedSequence(namedtuple("PackedSequence_", ["data", "batch_sizes", "sorted_indices",
                                                  "unsorted_indices"])):
    """A batch of sequences of different lengths, packed step by step: ``data`` holds the
    first step of every sequence, then the second step of those that have one, ...;
    ``batch_sizes[t]`` says how many sequences are still running at step ``t``.
    ``sorted_indices`` (None when the batch came sorted longest first) orders the original
    batch so, ``unsorted_indices`` undoes that. Make one with :func:`pack_padded_sequence`
    or :func:`pack_sequence`; recurrent layers take and return one.

    >>> pack_sequence([minitorch.tensor([1, 2]), minitorch.tensor([3])]).batch_sizes
    tensor([2, 1])
    """

    def __new__(cls, data: Any, batch_sizes: Tensor | None = None,
                sorted_indices: Tensor | None = None, unsorted_indices: Tensor | None = None
                ) -> PackedSequence:
        if unsorted_indices is None:
            unsorted_indices = _inverse(sorted_indices)
        if batch_sizes is None:  # (data, batch_sizes) as one pair
            if not (isinstance(data, (list, tuple)) and len(data) == 2):
                raise AssertionError("Expected data to be a list or tuple of length 2")
            data, batch_sizes = data
        elif batch_sizes.device.type != "cpu":
            raise ValueError("batch_sizes should always be on CPU. Instances of PackedSequence "
                             "should never be created manually. They should be instantiated "
                             "by functions like pack_sequence and pack_padded_sequences in "
                             "nn.utils.rnn. https://pytorch.org/docs/stable/nn.html#torch.nn."
                             "utils.rnn.pack_sequence")
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args: Any, **kwargs: Any) -> PackedSequence:
        """``data`` converted as ``Tensor.to``, the indices moved along with it."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        kwargs = {k: v for k, v in kwargs.items() if k not in ("device", "dtype")}
        indices = [None if i is None else i.to(data.device, **kwargs)
                   for i in (self.sorted_indices, self.unsorted_indices)]
        return type(self)(data, self.batch_sizes, *indices)

    def cpu(self) -> PackedSequence:
        return self.to(device="cpu")

    def double(self) -> PackedSequence:
        return self.to(dtype=_dtype.float64)

    def float(self) -> PackedSequence:
        return self.to(dtype=_dtype.float32)

    def long(self) -> PackedSequence:
        return self.to(dtype=_dtype.int64)

    @property
    def is_cuda(self) -> bool:
        return self.data.is_cuda


def _inverse(permutation: Tensor | None) -> Tensor | None:
    """torch's ``invert_permutation``: the inverse found by a scatter."""
    if permutation is None:
        return None
    inverse = _factories.empty_like(permutation)
    inverse.scatter_(0, permutation,
                     _creation.arange(0, permutation.numel(), device=permutation.device))
    return inverse


def pack_padded_sequence(input: Tensor, lengths: Tensor | list[int], batch_first: bool = False,
                         enforce_sorted: bool = True) -> PackedSequence:
    """Pack a padded batch ``(T, B, *)`` (``(B, T, *)`` with ``batch_first``) whose sequence
    ``b`` has ``lengths[b]`` valid steps. With ``enforce_sorted`` the lengths must come
    longest first; otherwise the batch is sorted here and the order kept to undo it.

    >>> x = minitorch.tensor([[1, 2, 0], [3, 0, 0]])
    >>> pack_padded_sequence(x, [2, 1], batch_first=True).data
    tensor([1, 3, 2])
    """
    if isinstance(lengths, Tensor):
        lengths = lengths.to(dtype=_dtype.int64)
    else:
        lengths = _creation.tensor(list(lengths), dtype=_dtype.int64)
    sorted_indices = None
    if not enforce_sorted:
        lengths, sorted_indices = lengths.sort(descending=True)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    if lengths.dim() != 1:  # ATen's first check of them
        raise RuntimeError("'lengths' argument should be a 1D CPU int64 tensor, but got "
                           f"{lengths.dim()}D {lengths.device.type} Long tensor")
    data, batch_sizes = _pack(input, lengths.tolist(), batch_first)
    return PackedSequence(data, batch_sizes, sorted_indices)


def _pack(input: Tensor, lengths: list[int], batch_first: bool) -> tuple[Tensor, Tensor]:
    """ATen's ``_pack_padded_sequence``: its checks, then the packed data and batch sizes."""
    _args.flag("_pack_padded_sequence", batch_first, "batch_first", 3)
    batch = input.shape[0 if batch_first else 1] if input.dim() > 1 else 0
    if input.numel() == 0:
        raise RuntimeError("Cannot pack empty tensors.")
    if len(lengths) != batch:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got "
                           f"{len(lengths)} (batch_size={batch})")
    if lengths[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an "
                           "element in 'lengths' that is <= 0")
    if any(later > earlier for earlier, later in pairwise(lengths)):
        raise RuntimeError("`lengths` array must be sorted in decreasing order when "
                           "`enforce_sorted` is True. You can pass `enforce_sorted=False` to "
                           "pack_padded_sequence and/or pack_sequence to sidestep this "
                           "requirement if you do not need ONNX exportability.")
    steps = input.shape[1 if batch_first else 0]
    batch_sizes = [sum(1 for n in lengths if n > t) for t in range(lengths[0])]
    # lengths past the input's steps: ATen's slices stop at its end, so the data holds only
    # the steps there are (its unpacking then fails on the short data, as torch's)
    data = PackPaddedSequence.apply(input, batch_sizes=batch_sizes[:steps],
                                    batch_first=batch_first)
    return data, _creation.tensor(batch_sizes, dtype=_dtype.int64)


def pad_packed_sequence(sequence: PackedSequence, batch_first: bool = False,
                        padding_value: float = 0.0, total_length: int | None = None
                        ) -> tuple[Tensor, Tensor]:
    """Undo :func:`pack_padded_sequence`: the padded batch (in the original order) and each
    sequence's length, padded with ``padding_value`` to ``total_length`` steps if given.

    >>> packed = pack_sequence([minitorch.tensor([1, 2]), minitorch.tensor([3])])
    >>> pad_packed_sequence(packed, batch_first=True)
    (tensor([[1, 2],
            [3, 0]]), tensor([2, 1]))
    """
    sizes = sequence.batch_sizes.tolist()
    steps = len(sizes)
    if total_length is not None:
        if total_length < steps:
            raise ValueError("Expected total_length to be at least the length of the longest "
                             f"sequence in input, but got total_length={total_length} and max "
                             f"sequence length being {steps}")
        steps = total_length
    fn = "_pad_packed_sequence"  # ATen's parser, after the Python check above
    _args.flag(fn, batch_first, "batch_first", 3)
    _args.number_types(fn, (padding_value, "padding_value", 4))
    steps = _args.integer(fn, steps, "total_length", 5)
    data = sequence.data
    output = data.new_full((steps, sizes[0], *data.shape[1:]), padding_value)
    offset, start = 0, 0
    for t in range(1, len(sizes) + 1):  # as ATen: one copy per run of equal batch sizes
        if t == len(sizes) or sizes[t] != sizes[start]:
            size, count = sizes[start], t - start
            block = data[offset:offset + size * count].view(count, size, *data.shape[1:])
            output[start:t, :size] = block
            offset, start = offset + size * count, t
    lengths = _creation.tensor([sum(1 for s in sizes if s > b) for b in range(sizes[0])],
                               dtype=_dtype.int64)
    if batch_first:
        output = output.transpose(0, 1)
    if sequence.unsorted_indices is not None:
        order = sequence.unsorted_indices
        return output.index_select(0 if batch_first else 1, order), lengths[order]
    return output, lengths


def pack_sequence(sequences: list[Tensor], enforce_sorted: bool = True) -> PackedSequence:
    """Pack a list of sequences ``(length, *)`` (longest first unless not ``enforce_sorted``).

    >>> packed = pack_sequence([minitorch.tensor([1, 2, 3]), minitorch.tensor([4])])
    >>> packed.data, packed.batch_sizes
    (tensor([1, 4, 2, 3]), tensor([2, 1, 1]))
    """
    lengths = [v.size(0) for v in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpad_sequence(padded_sequences: Tensor, lengths: Tensor, batch_first: bool = False
                   ) -> list[Tensor]:
    """Undo :func:`pad_sequence`: each sequence cut to its length. As torch, a padded
    batch that is not ``batch_first`` is transposed in place.

    >>> unpad_sequence(minitorch.tensor([[1, 2], [3, 0]]), minitorch.tensor([2, 1]), True)
    [tensor([1, 2]), tensor([3])]
    """
    if not batch_first:
        padded_sequences.transpose_(0, 1)
    steps = _creation.arange(padded_sequences.shape[1], device=lengths.device)
    return [sequence[steps < length]
            for sequence, length in zip(padded_sequences, lengths, strict=True)]


def unpack_sequence(packed_sequences: PackedSequence) -> list[Tensor]:
    """Undo :func:`pack_sequence`: the list of sequences, in their original order.

    >>> unpack_sequence(pack_sequence([minitorch.tensor([1, 2]), minitorch.tensor([3])]))
    [tensor([1, 2]), tensor([3])]
    """
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
