"""``torch.utils.data``'s core: datasets (map-style, iterable, concatenated), random splits,
the samplers (``sampler.py``) and a batching loader.

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

import bisect
import itertools
import math
import os
import warnings
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from .. import accelerator
from .._tensor import Tensor
from ..ops.shape import stack
from .sampler import (
    BatchSampler,
    InfiniteConstantSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
    _public,
    draw_seed,
)

__all__ = ["BatchSampler", "ChainDataset", "ConcatDataset", "DataLoader", "Dataset",
           "IterableDataset", "RandomSampler", "Sampler", "SequentialSampler", "StackDataset",
           "Subset", "SubsetRandomSampler", "TensorDataset", "WeightedRandomSampler",
           "default_collate", "default_convert", "get_worker_info", "random_split"]


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

    def __add__(self, other: Any) -> ConcatDataset:
        return ConcatDataset([self, other])


class IterableDataset(Dataset, Iterable):
    """A stream of samples: ``__iter__`` yields them; a ``DataLoader`` batches them in the
    order they come (no sampler, no shuffle). As torch's, an ``Iterable`` whose ``__iter__``
    is abstract: only a subclass that defines it makes datasets.

    >>> class Count(IterableDataset):
    ...     def __iter__(self): return iter(range(5))
    >>> [b.tolist() for b in DataLoader(Count(), batch_size=2)]
    [[0, 1], [2, 3], [4]]
    """

    def __add__(self, other: Any) -> ChainDataset:  # type: ignore[override]
        """The two streams one after the other (torch's ``ChainDataset``)."""
        return ChainDataset([self, other])


class ConcatDataset(Dataset):
    """Datasets one after another: index ``len(a)`` is ``b[0]``.

    >>> ds = ConcatDataset([range(3), range(10, 12)])
    >>> len(ds), ds[3], ds[-1], ds.cumulative_sizes
    (5, 10, 11, [3, 5])
    """

    def __init__(self, datasets: Iterable[Any]) -> None:
        self.datasets = list(datasets)
        if not self.datasets:  # (torch's assert statements)
            raise AssertionError("datasets should not be an empty iterable")
        if any(isinstance(d, IterableDataset) for d in self.datasets):
            raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = list(itertools.accumulate(len(d) for d in self.datasets))

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx: int) -> Any:
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        which = bisect.bisect_right(self.cumulative_sizes, idx)
        start = self.cumulative_sizes[which - 1] if which else 0
        return self.datasets[which][idx - start]


def _chained(dataset: Any) -> Any:
    """A dataset of a ChainDataset, which must be iterable-style (torch's assert)."""
    if not isinstance(dataset, IterableDataset):
        raise AssertionError("ChainDataset only supports IterableDataset")
    return dataset


class ChainDataset(IterableDataset):
    """Iterable datasets one after another, chained as they are iterated (each must be an
    ``IterableDataset``; checked when it is reached).

    >>> class Count(IterableDataset):
    ...     def __init__(self, n): self.n = n
    ...     def __iter__(self): return iter(range(self.n))
    ...     def __len__(self): return self.n
    >>> ds = ChainDataset([Count(2), Count(3)]); list(ds), len(ds)
    ([0, 1, 0, 1, 2], 5)
    """

    def __init__(self, datasets: Iterable[Any]) -> None:
        self.datasets = datasets

    def __iter__(self) -> Iterator[Any]:
        for d in self.datasets:
            _chained(d)
            yield from d

    def __len__(self) -> int:
        total = 0
        for d in self.datasets:
            total += len(_chained(d))
        return total


class StackDataset(Dataset):
    """Datasets side by side: sample ``i`` is the tuple (given by position) or the dict
    (given by keyword) of every dataset's sample ``i``.

    >>> StackDataset([1, 2], [3, 4])[1], StackDataset(x=[1, 2], y=[3, 4])[0]
    ((2, 4), {'x': 1, 'y': 3})
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if args and kwargs:
            raise ValueError("Supported either ``tuple``- (via ``args``) or``dict``- (via "
                             "``kwargs``) like input/output, but both types are given.")
        if not args and not kwargs:
            raise ValueError("At least one dataset should be passed")
        self.datasets: Any = args or kwargs
        every = list(args or kwargs.values())
        self._length = len(every[0])
        if any(self._length != len(d) for d in every):
            raise ValueError("Size mismatch between datasets")

    def __getitem__(self, index: int) -> Any:
        if isinstance(self.datasets, dict):
            return {k: d[index] for k, d in self.datasets.items()}
        return tuple(d[index] for d in self.datasets)

    def __getitems__(self, indices: list) -> list:
        """The samples at ``indices``, read in one call from the datasets that have
        ``__getitems__``."""
        named = isinstance(self.datasets, dict)
        columns = {k: _items(d, indices) for k, d in (
            self.datasets.items() if named else enumerate(self.datasets))}
        if named:
            return [{k: c[i] for k, c in columns.items()} for i in range(len(indices))]
        return [tuple(c[i] for c in columns.values()) for i in range(len(indices))]

    def __len__(self) -> int:
        return self._length


def _items(dataset: Any, indices: list) -> list:
    if not callable(getattr(dataset, "__getitems__", None)):
        return [dataset[i] for i in indices]
    items = dataset.__getitems__(indices)
    if len(items) != len(indices):
        raise ValueError("Nested dataset's output size mismatch. Expected "
                         f"{len(indices)}, got {len(items)}")
    return items


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

    def __getitem__(self, index: int | list[int]) -> Any:
        if isinstance(index, list):  # torch's: the dataset indexed with the list of indices
            return self.dataset[[self.indices[i] for i in index]]
        return self.dataset[self.indices[index]]

    def __len__(self) -> int:
        return len(self.indices)


def random_split(dataset: Any, lengths: Sequence[float], generator: Any = None) -> list:
    """Disjoint random subsets of the given lengths (or fractions summing to 1).

    >>> [len(s) for s in random_split(range(10), [0.7, 0.3])]
    [7, 3]
    """
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:  # (the lengths read first,
        lengths = _lengths_of_fractions(lengths, dataset)  # then the dataset's length)
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = _public("randperm")(sum(lengths), generator=generator).tolist()  # torch's: ints only
    starts = [sum(lengths[:i]) for i in range(len(lengths))]
    return [Subset(dataset, order[s:s + k]) for s, k in zip(starts, lengths)]


def _lengths_of_fractions(fractions: Sequence[float], dataset: Any) -> list[int]:
    """torch's rounding: floors, then the remainder one by one, round-robin; each fraction
    must lie in [0, 1] (checked in turn, the dataset's length taken after each) and an empty
    split is warned about, as torch does."""
    lengths = []
    for i, fraction in enumerate(fractions):
        if fraction < 0 or fraction > 1:
            raise ValueError(f"Fraction at index {i} is not between 0 and 1")
        lengths.append(math.floor(len(dataset) * fraction))
    n = len(dataset)
    for i in range(n - sum(lengths)):
        lengths[i % len(lengths)] += 1
    for i, length in enumerate(lengths):
        if length == 0:
            warnings.warn(f"Length of split at index {i} is 0. This might result in an empty "
                          "dataset.", stacklevel=3)
    return lengths


def default_convert(data: Any) -> Any:
    """A sample as a loader without batches gives it: numpy arrays and scalars made tensors,
    tuples made lists, inside dicts and lists too.

    >>> import numpy as np
    >>> default_convert((np.ones(2), 3))
    [tensor([1., 1.], dtype=torch.float64), 3]
    """
    if _is_numpy(data):
        return data if _is_text_array(data) else _as_tensor(data)
    if isinstance(data, dict):
        return {key: default_convert(value) for key, value in data.items()}
    if isinstance(data, tuple) and hasattr(data, "_fields"):  # a namedtuple keeps its type
        return type(data)(*map(default_convert, data))
    if isinstance(data, (tuple, list)):
        return [default_convert(d) for d in data]
    return data


def _as_tensor(data: Any) -> Tensor:
    """A numpy array shared (torch's ``as_tensor``), or numpy scalars copied."""
    from .. import from_numpy, tensor

    return from_numpy(data) if type(data).__name__ == "ndarray" else tensor(data)


def _is_numpy(data: Any) -> bool:
    """A numpy array or scalar, other than a string (torch's test, without importing numpy)."""
    kind = type(data)
    return kind.__module__ == "numpy" and kind.__name__ not in ("str_", "string_")


def _is_text_array(data: Any) -> bool:
    return type(data).__name__ == "ndarray" and data.dtype.kind in "OSUa"


def default_collate(batch: Sequence) -> Any:
    """Samples stacked into batches: tensors and numpy arrays stacked, numbers made tensors,
    tuples and lists of fields collated field by field (into a list; every sample must have
    as many), dicts key by key, strings left as they are.

    >>> default_collate([(1., 2), (3., 4)])
    [tensor([1., 3.], dtype=torch.float64), tensor([2, 4])]
    >>> default_collate([[1, 2], [3]])
    Traceback (most recent call last):
    RuntimeError: each element in list of batch should be of equal size
    """
    from .. import float64, from_numpy, tensor

    first = batch[0]
    if isinstance(first, Tensor):
        return stack(batch)
    if _is_numpy(first) and type(first).__name__ != "memmap":  # numpy strings: as str below
        if first.dtype.kind in "OSUa":  # torch's pattern of strings and objects
            raise TypeError(_COLLATE_TYPES.format(first.dtype))
        if first.shape == ():  # numpy scalars: one array of them
            return stack([from_numpy(b.__array__()) for b in batch])  # each scalar's dtype
        return default_collate([_as_tensor(b) for b in batch])
    if isinstance(first, float):  # Python floats are doubles, as in torch
        return tensor(batch, dtype=float64)
    if isinstance(first, int):
        return tensor(batch)
    if isinstance(first, (str, bytes)):
        return batch
    if isinstance(first, dict):
        return {key: default_collate([sample[key] for sample in batch]) for key in first}
    if isinstance(first, tuple) and hasattr(first, "_fields"):  # a namedtuple keeps its type
        return type(first)(*(default_collate(field) for field in zip(*batch)))
    if isinstance(first, (tuple, list)):
        if any(len(sample) != len(first) for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [default_collate(field) for field in zip(*batch)]
    raise TypeError(_COLLATE_TYPES.format(type(first)))


_COLLATE_TYPES = ("default_collate: batch must contain tensors, numpy arrays, numbers, dicts "
                  "or lists; found {}")


def _warn_worker_count(num_workers: int) -> None:
    """torch's advice, when a loader is built and on each ``iter``, if it asks for more worker
    processes than this process may run on (minitorch loads in this process either way)."""
    cpuset = hasattr(os, "sched_getaffinity")
    usable = len(os.sched_getaffinity(0)) if cpuset else os.cpu_count()
    if not num_workers or (usable is not None and num_workers <= usable):
        return
    unchecked = "" if cpuset else " (`cpuset` is not taken into account)"
    suggestion = ("DataLoader is not able to compute a suggested max number of worker in "
                  "current system." if usable is None else
                  f"Our suggested max number of worker in current system is {usable}{unchecked}"
                  ", which is smaller than what this DataLoader is going to create.")
    warnings.warn(f"This DataLoader will create {num_workers} worker processes in total. "
                  f"{suggestion} Please be aware that excessive worker creation might get "
                  "DataLoader running slow or even freeze, lower the worker number to avoid "
                  "potential slowness/freeze if necessary.", stacklevel=2)


def _warn_pinning(pin_memory: bool, pin_memory_device: str) -> None:
    """What torch's iterator says of ``pin_memory`` on each ``iter``: the device is the
    accelerator's, and without an accelerator nothing is pinned. Like torch's, the warnings
    point into the loader, so that the default filter shows each once per process."""
    if pin_memory and pin_memory_device:
        warnings.warn("pin_memory_device is deprecated, the current accelerator will be used as "
                      f"the device,ignore pin_memory_device='{pin_memory_device}'.", stacklevel=2)
    if pin_memory and not accelerator.is_available():
        warnings.warn("'pin_memory' argument is set as true but no accelerator is found, then "
                      "device pinned memory won't be used.", stacklevel=2)


class DataLoader:
    """Batches of a dataset, in order, shuffled, or as a ``sampler`` or ``batch_sampler``
    gives them (see the module's note on the order).

    >>> len(DataLoader(range(5), batch_size=2)), len(DataLoader(range(5), 2, drop_last=True))
    (3, 2)
    """

    def __init__(self, dataset: Any, batch_size: int | None = 1, shuffle: bool | None = None,
                 sampler: Any = None, batch_sampler: Any = None, num_workers: int = 0,
                 collate_fn: Any = None, pin_memory: bool = False, drop_last: bool = False,
                 timeout: float = 0, worker_init_fn: Any = None,
                 multiprocessing_context: Any = None, generator: Any = None, *,
                 prefetch_factor: int | None = None, persistent_workers: bool = False,
                 pin_memory_device: str = "", in_order: bool = True) -> None:
        _check_worker_options(num_workers, timeout, prefetch_factor, persistent_workers,
                              multiprocessing_context)
        self.dataset, self.generator, self.num_workers = dataset, generator, num_workers
        self.pin_memory, self.pin_memory_device = pin_memory, pin_memory_device
        iterable = isinstance(dataset, IterableDataset)
        if iterable:
            _check_iterable_options(shuffle, sampler, batch_sampler)
        shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                                 "shuffle, sampler, and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually "
                             "exclusive with drop_last")
        if sampler is None:
            sampler = (InfiniteConstantSampler() if iterable else
                       RandomSampler(dataset, generator=generator) if shuffle else
                       SequentialSampler(dataset))
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size, self.drop_last = batch_size, drop_last
        self.sampler, self.batch_sampler = sampler, batch_sampler
        batched = batch_sampler is not None
        self.collate_fn = collate_fn or (default_collate if batched else default_convert)
        _warn_worker_count(num_workers)

    @property
    def _index_sampler(self) -> Any:
        return self.sampler if self.batch_sampler is None else self.batch_sampler

    def __iter__(self) -> Iterator[Any]:
        indices = iter(self._index_sampler)  # a sampler's draws wait for its first index
        draw_seed(self.generator)  # torch's iterator draws its workers' base seed first
        if self.num_workers:
            _warn_worker_count(self.num_workers)
        _warn_pinning(self.pin_memory, self.pin_memory_device)
        if isinstance(self.dataset, IterableDataset):
            return self._from_stream(indices)
        return self._from_map(indices)

    def _from_map(self, indices: Iterator[Any]) -> Iterator[Any]:
        for index in indices:
            if self.batch_sampler is None:
                yield self.collate_fn(self.dataset[index])
            else:
                yield self.collate_fn([self.dataset[i] for i in index])

    def _from_stream(self, indices: Iterator[Any]) -> Iterator[Any]:
        """torch's iterable-dataset fetcher: ``batch_size`` samples a batch, the last one
        shorter (or dropped with ``drop_last``), or each sample alone."""
        samples = iter(self.dataset)
        if self.batch_sampler is None:
            yield from map(self.collate_fn, samples)
            return
        for batch_indices in indices:
            batch = list(itertools.islice(samples, len(batch_indices)))
            if not batch or (self.drop_last and len(batch) < len(batch_indices)):
                return
            yield self.collate_fn(batch)
            if len(batch) < len(batch_indices):
                return

    def __len__(self) -> int:
        if not isinstance(self.dataset, IterableDataset):
            return len(self._index_sampler)
        n = len(self.dataset)
        if self.batch_size is None:
            return n
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)


def get_worker_info() -> None:
    """The loading worker's id, count, seed and dataset copy inside a worker process; None in
    the main process, which is where minitorch's single-process loading always runs (a
    dataset's ``__iter__`` that splits its work by worker then takes all of it, once).

    >>> minitorch.utils.data.get_worker_info() is None
    True
    """
    return None


def _check_worker_options(num_workers: int, timeout: float, prefetch_factor: int | None,
                          persistent_workers: bool, multiprocessing_context: Any) -> None:
    """torch's checks of the worker options, though loading here is single-process: with
    no workers, options that only workers use are refused."""
    if num_workers < 0:
        raise ValueError("num_workers option should be non-negative; use num_workers=0 to "
                         "disable multiprocessing.")
    if timeout < 0:
        raise ValueError("timeout option should be non-negative")
    if num_workers == 0 and prefetch_factor is not None:
        raise ValueError("prefetch_factor option could only be specified in multiprocessing."
                         "let num_workers > 0 to enable multiprocessing, otherwise set "
                         "prefetch_factor to None.")
    if prefetch_factor is not None and prefetch_factor < 0:
        raise ValueError("prefetch_factor option should be non-negative")
    if persistent_workers and num_workers == 0:
        raise ValueError("persistent_workers option needs num_workers > 0")
    if multiprocessing_context is not None and num_workers == 0:
        raise ValueError("multiprocessing_context can only be used with multi-process loading "
                         f"(num_workers > 0), but got num_workers={num_workers}")


def _check_iterable_options(shuffle: Any, sampler: Any, batch_sampler: Any) -> None:
    """An ``IterableDataset`` gives its own order: torch refuses a shuffle or a sampler."""
    if shuffle not in {False, None}:
        raise ValueError("DataLoader with IterableDataset: expected unspecified shuffle "
                         f"option, but got shuffle={shuffle}")
    if sampler is not None:
        raise ValueError("DataLoader with IterableDataset: expected unspecified sampler "
                         f"option, but got sampler={sampler}")
    if batch_sampler is not None:
        raise ValueError("DataLoader with IterableDataset: expected unspecified "
                         f"batch_sampler option, but got batch_sampler={batch_sampler}")
