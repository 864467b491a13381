"""``torch.utils.data``'s core: datasets, random splits and a batching loader.

A ``DataLoader`` draws as torch's does: each iteration first draws a seed (torch's workers'
base seed), and with ``shuffle=True`` its order is ``randperm`` from a fresh generator seeded
by another draw (or from ``generator=``), so after ``manual_seed`` the batches come in torch's
order. Loading is single-process (no ``num_workers``).

>>> import minitorch
>>> ds = TensorDataset(minitorch.arange(6.).reshape(3, 2), minitorch.tensor([0, 1, 0]))
>>> [y for _, y in DataLoader(ds, batch_size=2)]
[tensor([0, 1]), tensor([0])]
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any

from .._creation import empty
from .._dtype import int64
from .._random import Generator, randperm
from .._tensor import Tensor
from ..ops.shape import stack

__all__ = ["DataLoader", "Dataset", "Subset", "TensorDataset", "default_collate",
           "random_split"]


class Dataset:
    """A map-style dataset: ``__getitem__(index)`` and, for a loader, ``__len__``.

    >>> class Squares(Dataset):
    ...     def __getitem__(self, i): return i * i
    ...     def __len__(self): return 3
    >>> Squares()[2]
    4
    """

    def __getitem__(self, index: int) -> Any:
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")


class TensorDataset(Dataset):
    """Samples are the tensors' rows, one tuple per index.

    >>> TensorDataset(minitorch.tensor([1., 2.]), minitorch.tensor([3, 4]))[1]
    (tensor(2.), tensor(4))
    """

    def __init__(self, *tensors: Tensor) -> None:
        if any(t.size(0) != tensors[0].size(0) for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index: Any) -> tuple:
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].size(0)


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``.

    >>> Subset(range(10), [7, 2])[0]
    7
    """

    def __init__(self, dataset: Any, indices: Sequence[int]) -> None:
        self.dataset, self.indices = dataset, indices

    def __getitem__(self, index: int) -> Any:
        return self.dataset[self.indices[index]]

    def __len__(self) -> int:
        return len(self.indices)


def random_split(dataset: Any, lengths: Sequence[float], generator: Any = None) -> list:
    """Disjoint random subsets of the given lengths (or fractions summing to 1).

    >>> [len(s) for s in random_split(range(10), [0.7, 0.3])]
    [7, 3]
    """
    n = len(dataset)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        lengths = _lengths_of_fractions(lengths, n)
    if sum(lengths) != n:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = randperm(sum(lengths), generator=generator).tolist()  # torch's: ints only
    starts = [sum(lengths[:i]) for i in range(len(lengths))]
    return [Subset(dataset, order[s:s + k]) for s, k in zip(starts, lengths)]


def _lengths_of_fractions(fractions: Sequence[float], n: int) -> list[int]:
    """torch's rounding: floors, then the remainder one by one, round-robin."""
    lengths = [math.floor(n * f) for f in fractions]
    for i in range(n - sum(lengths)):
        lengths[i % len(lengths)] += 1
    return lengths


def default_collate(batch: list) -> Any:
    """Samples stacked into batches: tensors stacked, numbers made tensors, tuples and
    lists of fields collated field by field (into a list), dicts key by key.

    >>> default_collate([(1., 2), (3., 4)])
    [tensor([1., 3.], dtype=torch.float64), tensor([2, 4])]
    """
    from .. import float64, tensor

    first = batch[0]
    if isinstance(first, Tensor):
        return stack(batch)
    if isinstance(first, float):  # Python floats are doubles, as in torch
        return tensor(batch, dtype=float64)
    if isinstance(first, (bool, int)):
        return tensor(batch)
    if isinstance(first, dict):
        return {key: default_collate([sample[key] for sample in batch]) for key in first}
    if isinstance(first, (tuple, list)):
        return [default_collate(list(field)) for field in zip(*batch)]
    return batch


def _draw_seed(generator: Any) -> int:
    """A seed as torch draws one: ``empty((), dtype=int64).random_(generator=generator)``."""
    return int(empty((), dtype=int64).random_(generator=generator).item())


class DataLoader:
    """Batches of a dataset, in order or shuffled (see the module's note on the order).

    >>> len(DataLoader(range(5), batch_size=2)), len(DataLoader(range(5), 2, drop_last=True))
    (3, 2)
    """

    def __init__(self, dataset: Any, batch_size: int | None = 1, shuffle: bool = False, *,
                 drop_last: bool = False, collate_fn: Any = None, generator: Any = None,
                 num_workers: int = 0) -> None:
        if batch_size is not None and (type(batch_size) is not int or batch_size <= 0):
            raise ValueError("batch_size should be a positive integer value, but got "
                             f"batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.dataset, self.batch_size, self.shuffle = dataset, batch_size, shuffle
        self.drop_last, self.generator = drop_last, generator
        self.collate_fn = collate_fn or (default_collate if batch_size else (lambda s: s))

    def _order(self) -> list[int]:
        n = len(self.dataset)
        if not self.shuffle:
            return list(range(n))
        generator = self.generator
        if generator is None:  # torch's RandomSampler: a fresh generator seeded by a draw
            generator = Generator().manual_seed(_draw_seed(None))
        return randperm(n, generator=generator).tolist()

    def __iter__(self) -> Iterator[Any]:
        _draw_seed(self.generator)  # torch's iterator draws its workers' base seed first
        return self._batches()

    def _batches(self) -> Iterator[Any]:
        order = self._order()
        if self.batch_size is None:
            yield from (self.collate_fn(self.dataset[i]) for i in order)
            return
        for start in range(0, len(order), self.batch_size):
            indices = order[start:start + self.batch_size]
            if self.drop_last and len(indices) < self.batch_size:
                return
            yield self.collate_fn([self.dataset[i] for i in indices])

    def __len__(self) -> int:
        n = len(self.dataset)
        if self.batch_size is None:
            return n
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
