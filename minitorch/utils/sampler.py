"""The samplers of ``torch.utils.data``: which indices a ``DataLoader`` reads, and in what
order (or in which batches), drawing from minitorch's generator as torch's do from torch's.

``RandomSampler`` without a generator seeds a fresh one from one draw of the global stream
and takes ``randperm`` from it (``randint`` in chunks of 32 with ``replacement``);
``SubsetRandomSampler`` takes ``randperm`` directly and ``WeightedRandomSampler``
``multinomial``, so after ``manual_seed`` every order is torch's.

>>> import minitorch
>>> list(BatchSampler(SequentialSampler(range(5)), batch_size=2, drop_last=False))
[[0, 1], [2, 3], [4]]
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from .._creation import empty
from .._dtype import float64, int64
from .._random import Generator
from .._tensor import Tensor

__all__ = ["BatchSampler", "RandomSampler", "Sampler", "SequentialSampler",
           "SubsetRandomSampler", "WeightedRandomSampler"]


def _public(name: str) -> Any:
    """minitorch's public ``name`` (torch's samplers call ``torch.randperm``: its parser
    words the refusal of a bad ``generator``)."""
    import minitorch

    return getattr(minitorch, name)


def draw_seed(generator: Any) -> int:
    """A seed as torch draws one: ``empty((), dtype=int64).random_(generator=generator)``."""
    return int(empty((), dtype=int64).random_(generator=generator).item())


def _positive_int(name: str, value: Any) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"{name} should be a positive integer value, but got {name}={value}")


def _bool(name: str, value: Any, error: type = ValueError) -> None:
    if not isinstance(value, bool):
        raise error(f"{name} should be a boolean value, but got {name}={value}")


class Sampler:
    """Indices to read: a subclass's ``__iter__`` yields them (and ``__len__`` counts them).

    >>> class Evens(Sampler):
    ...     def __iter__(self): return iter(range(0, 6, 2))
    >>> list(Evens())
    [0, 2, 4]
    """

    def __init__(self, data_source: Any = None) -> None:
        pass

    def __iter__(self) -> Iterator[Any]:
        raise NotImplementedError


class SequentialSampler(Sampler):
    """``0, 1, ..., len(data_source) - 1``.

    >>> list(SequentialSampler("abc"))
    [0, 1, 2]
    """

    def __init__(self, data_source: Any) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """A random order of ``data_source``'s indices (``num_samples`` drawn, with repeats
    when ``replacement``), torch's for the same seed.

    >>> _ = minitorch.manual_seed(0); list(RandomSampler(range(5)))
    [1, 3, 4, 2, 0]
    """

    def __init__(self, data_source: Any, replacement: bool = False,
                 num_samples: int | None = None, generator: Any = None) -> None:
        self.data_source, self.replacement = data_source, replacement
        self._num_samples, self.generator = num_samples, generator
        _bool("replacement", replacement, TypeError)
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError("num_samples should be a positive integer value, but got "
                             f"num_samples={self.num_samples}")

    @property
    def num_samples(self) -> int:
        """How many indices an iteration yields (the dataset's length unless given)."""
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        n = len(self.data_source)
        generator = self.generator
        if generator is None:  # a fresh generator, seeded by one draw of the global stream
            generator = Generator().manual_seed(draw_seed(None))
        if self.replacement:
            for size in [32] * (self.num_samples // 32) + [self.num_samples % 32]:
                yield from _public("randint")(0, n, (size,), dtype=int64,
                                              generator=generator).tolist()
        else:
            for _ in range(self.num_samples // n):
                yield from _public("randperm")(n, generator=generator).tolist()
            yield from _public("randperm")(n, generator=generator).tolist()[:self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given ``indices`` in a random order.

    >>> sorted(SubsetRandomSampler([7, 3, 5]))
    [3, 5, 7]
    """

    def __init__(self, indices: Sequence[int], generator: Any = None) -> None:
        self.indices, self.generator = indices, generator

    def __iter__(self) -> Iterator[int]:
        for i in _public("randperm")(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices drawn with probabilities proportional to ``weights``.

    >>> list(WeightedRandomSampler([0.0, 1.0, 0.0], 3))
    [1, 1, 1]
    """

    def __init__(self, weights: Sequence[float], num_samples: int, replacement: bool = True,
                 generator: Any = None) -> None:
        from .. import tensor

        _positive_int("num_samples", num_samples)
        _bool("replacement", replacement)
        weights = (weights.to(float64) if isinstance(weights, Tensor)  # torch's as_tensor
                   else tensor(weights, dtype=float64))
        if weights.dim() != 1:
            raise ValueError("weights should be a 1d sequence but given weights have shape "
                             f"{tuple(weights.shape)}")
        self.weights, self.num_samples = weights, num_samples
        self.replacement, self.generator = replacement, generator

    def __iter__(self) -> Iterator[int]:
        drawn = _public("multinomial")(self.weights, self.num_samples, self.replacement,
                            generator=self.generator)
        yield from drawn.tolist()

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler):
    """``sampler``'s indices in lists of ``batch_size`` (the last one shorter unless
    ``drop_last``).

    >>> len(BatchSampler(range(10), 3, drop_last=True))
    3
    """

    def __init__(self, sampler: Iterable[int], batch_size: int, drop_last: bool) -> None:
        _positive_int("batch_size", batch_size)
        _bool("drop_last", drop_last)
        self.sampler, self.batch_size, self.drop_last = sampler, batch_size, drop_last

    def __iter__(self) -> Iterator[list[int]]:
        indices = iter(self.sampler)
        batch = list(itertools.islice(indices, self.batch_size))
        while batch and (len(batch) == self.batch_size or not self.drop_last):
            yield batch
            batch = list(itertools.islice(indices, self.batch_size))

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size


class InfiniteConstantSampler(Sampler):
    """``None`` forever: the indices of an ``IterableDataset``, which are never read."""

    def __iter__(self) -> Iterator[None]:
        return itertools.repeat(None)
