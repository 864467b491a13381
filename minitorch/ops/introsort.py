"""The order in which C++'s ``std::sort`` (GCC's introsort) leaves values compared by
``<``: torch's CPU ``mode`` sorts each row's (value, index) pairs with it, so the index it
reports for a value that occurs more than once, and its answer for NaN (which ``<`` leaves
unordered), follow that order. The sort is sequential; it runs on host lists.

>>> from minitorch.ops.introsort import std_sort_order
>>> std_sort_order([3.0, 1.0, 2.0])
[1, 2, 0]
"""

from __future__ import annotations

from typing import Any

_THRESHOLD = 16  # below this many elements introsort leaves a range to insertion sort


def std_sort_order(values: list, rows: bool = False) -> list[int]:
    """The positions of ``values`` in the order ``std::sort`` with ``<`` puts them; with
    ``rows``, each value is a sequence compared as torch's ``unique(dim=)`` compares slices
    (the first element that is ``<`` or ``>`` decides, so NaN defers to the next one).

    >>> std_sort_order([2, 1, 2, 1])
    [1, 3, 0, 2]
    >>> std_sort_order([[float("nan"), 2.0], [float("nan"), 1.0]], rows=True)
    [1, 0]
    """
    items = list(range(len(values)))
    if len(items) > 1:
        less = (_RowLess if rows else _Less)(values)
        _introsort(items, 0, len(items), 2 * (len(items).bit_length() - 1), less)
        _final_insertion_sort(items, 0, len(items), less)
    return items


class _Less:
    """``a < b`` on the values at two positions (False where either is NaN)."""

    def __init__(self, values: list) -> None:
        self.values = values

    def __call__(self, i: int, j: int) -> bool:
        return bool(self.values[i] < self.values[j])


class _RowLess(_Less):
    """``a < b`` on two sequences, element by element, as torch's unique_dim compares."""

    def __call__(self, i: int, j: int) -> bool:
        for x, y in zip(self.values[i], self.values[j]):
            if x < y:
                return True
            if x > y:
                return False
        return False


def _introsort(a: list, first: int, last: int, depth: int, less: Any) -> None:
    while last - first > _THRESHOLD:
        if depth == 0:
            _heap_sort(a, first, last, less)
            return
        depth -= 1
        cut = _partition_pivot(a, first, last, less)
        _introsort(a, cut, last, depth, less)
        last = cut


def _partition_pivot(a: list, first: int, last: int, less: Any) -> int:
    mid = first + (last - first) // 2
    x, y, z = first + 1, mid, last - 1
    if less(a[x], a[y]):
        pick = y if less(a[y], a[z]) else (z if less(a[x], a[z]) else x)
    else:
        pick = x if less(a[x], a[z]) else (z if less(a[y], a[z]) else y)
    a[first], a[pick] = a[pick], a[first]
    lo, hi = first + 1, last
    while True:
        while less(a[lo], a[first]):
            lo += 1
        hi -= 1
        while less(a[first], a[hi]):
            hi -= 1
        if lo >= hi:
            return lo
        a[lo], a[hi] = a[hi], a[lo]
        lo += 1


def _final_insertion_sort(a: list, first: int, last: int, less: Any) -> None:
    if last - first > _THRESHOLD:
        _insertion_sort(a, first, first + _THRESHOLD, less)
        for i in range(first + _THRESHOLD, last):
            _linear_insert(a, i, less)
    else:
        _insertion_sort(a, first, last, less)


def _insertion_sort(a: list, first: int, last: int, less: Any) -> None:
    for i in range(first + 1, last):
        if less(a[i], a[first]):
            a[first:i + 1] = [a[i], *a[first:i]]
        else:
            _linear_insert(a, i, less)


def _linear_insert(a: list, i: int, less: Any) -> None:
    value = a[i]
    while less(value, a[i - 1]):
        a[i] = a[i - 1]
        i -= 1
    a[i] = value


def _heap_sort(a: list, first: int, last: int, less: Any) -> None:
    n = last - first
    for parent in range((n - 2) // 2, -1, -1):
        _adjust_heap(a, first, parent, n, a[first + parent], less)
    while n > 1:
        n -= 1
        value = a[first + n]
        a[first + n] = a[first]
        _adjust_heap(a, first, 0, n, value, less)


def _adjust_heap(a: list, base: int, hole: int, n: int, value: int, less: Any) -> None:
    top = child = hole
    while child < (n - 1) // 2:
        child = 2 * (child + 1)
        if less(a[base + child], a[base + child - 1]):
            child -= 1
        a[base + hole] = a[base + child]
        hole = child
    if n % 2 == 0 and child == (n - 2) // 2:
        child = 2 * (child + 1)
        a[base + hole] = a[base + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and less(a[base + parent], value):
        a[base + hole] = a[base + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[base + hole] = value
