"""Pooling windows as torch's argument parser reads them (s21 fuzzn): every argument's type
first (flags included), then the int lists unpacked right to left, so of several lists
with a bad item the last one is named; the lengths are the kernel's checks, after."""

from __future__ import annotations

from typing import Any

import pytest
import torch
from hypothesis import assume, given
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import SETTINGS, assert_same_error, raised_by

BAD = (1, (2,))  # an int, then an item that is not one: refused when the list is unpacked


def F(L: Any) -> Any:
    return L.nn.functional


POOLS = {  # name: (call, input rank, the window arguments' count)
    "max_pool1d": (lambda L, x, a: F(L).max_pool1d(x, *a), 3, 4),
    "max_pool2d": (lambda L, x, a: F(L).max_pool2d(x, *a), 4, 4),
    "max_pool3d": (lambda L, x, a: F(L).max_pool3d(x, *a), 5, 4),
    "max_pool2d_indices": (lambda L, x, a: F(L).max_pool2d(x, *a, return_indices=True), 4, 4),
    "max_pool1d_indices": (lambda L, x, a: F(L).max_pool1d(x, *a, return_indices=True), 3, 4),
    "avg_pool1d": (lambda L, x, a: F(L).avg_pool1d(x, *a), 3, 3),
    "avg_pool2d": (lambda L, x, a: F(L).avg_pool2d(x, *a), 4, 3),
    "lp_pool2d": (lambda L, x, a: F(L).lp_pool2d(x, 2, *a[:2]), 4, 2),
}
GOOD = (2, 1, 0, 1)


@SETTINGS
@given(bad=st.lists(st.booleans(), min_size=4, max_size=4))
@pytest.mark.parametrize("name", sorted(POOLS))
def test_last_bad_window_is_named(name: str, bad: list) -> None:
    call, rank, count = POOLS[name]
    assume(any(bad[:count]))
    args = tuple(BAD if b else g for b, g in zip(bad, GOOD))[:count]
    fn = lambda L: call(L, L.ones((1, 2, 6, 6, 6)[:rank]), args)  # noqa: E731
    assert_same_error(raised_by(fn, mt), raised_by(fn, torch))


@pytest.mark.parametrize("module", ["MaxPool1d", "MaxPool2d", "AvgPool1d", "AvgPool2d"])
def test_module_stride_defaults_to_the_kernel(module: str) -> None:
    """A module's stride defaults to its kernel: torch names the stride, the later list."""
    rank = 3 if module.endswith("1d") else 4
    fn = lambda L: getattr(L.nn, module)(BAD)(L.ones((1, 2, 6, 6)[:rank]))  # noqa: E731
    assert_same_error(raised_by(fn, mt), raised_by(fn, torch))


@pytest.mark.parametrize("call", [
    lambda L: F(L).max_pool1d(L.ones(2, 6), BAD, 1, 0, 1, "a"),
    lambda L: F(L).max_pool2d(L.ones(1, 6, 6), BAD, 1, 0, 1, "a"),
    lambda L: F(L).avg_pool1d(L.ones(2, 6), BAD, 1, 0, "a"),
    lambda L: F(L).avg_pool2d(L.ones(1, 6, 6), BAD, 1, 0, False, True, "a"),
    lambda L: F(L).max_pool1d(L.ones(2, 6), 2, 1, 0, 1, "a"),
])
def test_flag_types_before_unpacking(call: Any) -> None:
    assert_same_error(raised_by(call, mt), raised_by(call, torch))
