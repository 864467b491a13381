"""``nn.utils.rnn``: sequences of different lengths batched into one padded tensor.

>>> import minitorch
>>> from minitorch.nn.utils.rnn import pad_sequence
>>> pad_sequence([minitorch.tensor([1, 2, 3]), minitorch.tensor([4])], batch_first=True)
tensor([[1, 2, 3],
        [4, 0, 0]])
"""

from __future__ import annotations

from collections.abc import Iterable

from ..._tensor import Tensor, broadcast_shapes

__all__ = ["pad_sequence"]


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
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got "
                           f"{padding_side}.")
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    for i, s in enumerate(sequences):
        if not isinstance(s, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type(s).__name__}")
    longest = max(s.shape[0] for s in sequences)
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
