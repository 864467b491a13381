"""``tensor()`` reads any Python sequence as torch does, and refuses what is not one."""

from __future__ import annotations

import array
import collections
from collections.abc import Callable
from typing import Any

import pytest
import torch
from oracle import assert_same, assert_same_error, raised_by

import minitorch as mt


class Indexable:
    def __len__(self) -> int:
        return 2

    def __getitem__(self, i: int) -> float:
        if i >= 2:
            raise IndexError(i)
        return float(i)


SEQUENCES: dict[str, Callable[[], Any]] = {
    "deque": lambda: collections.deque([1.0, 2.0]),
    "deque of deques": lambda: collections.deque([collections.deque([1, 2])]),
    "list of deque and tuple": lambda: [collections.deque([1, 2]), (3, 4)],
    "class with __getitem__": Indexable,
    "array.array": lambda: array.array("d", [1.0, 2.0]),
    "range": lambda: range(3),
}
NOT_SEQUENCES: dict[str, Callable[[], Any]] = {
    "generator": lambda: (x for x in [1.0]),
    "set": lambda: {1.0, 2.0},
    "dict": lambda: {1: 2},
    "OrderedDict": lambda: collections.OrderedDict({0: 1.0}),
    "dict keys": lambda: {1: 2}.keys(),
    "set inside a list": lambda: [1, {2}],
}


@pytest.mark.parametrize("name", SEQUENCES)
def test_sequences_are_read_as_lists(name: str) -> None:
    assert_same(mt.tensor(SEQUENCES[name]()), torch.tensor(SEQUENCES[name]()))


@pytest.mark.parametrize("name", NOT_SEQUENCES)
def test_other_iterables_are_refused(name: str) -> None:
    make = NOT_SEQUENCES[name]
    assert_same_error(raised_by(lambda L: L.tensor(make()), mt),
                      raised_by(lambda L: L.tensor(make()), torch))
