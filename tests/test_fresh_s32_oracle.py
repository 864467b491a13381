"""Fresh fuzz seeds of session 32 (base 32000): what they found. Each case runs under torch
and minitorch (``L``) and must raise torch's exception with torch's message, or give torch's
result."""

from __future__ import annotations

import tracemalloc

import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import SETTINGS, assert_as_torch, assert_same


@SETTINGS
@given(start=st.integers(-2**40, 2**40), step=st.integers(-600, 600).filter(bool),
       length=st.integers(0, 3 * 2**16 + 5), dtype=st.sampled_from(["uint8", "int8", "int16"]))
def test_a_narrow_integer_arange_wraps_round_as_torch(start: int, step: int, length: int,
                                                      dtype: str) -> None:
    """Seed 32002 (``arange(2**31, dtype=int8)``) timed out counting 2**31 int64s first: a
    type of one or two bytes repeats after 2**bits values, so one round is counted."""
    end = start + step * length
    assert_as_torch(lambda L: L.arange(start, end, step, dtype=getattr(L, dtype)), assert_same)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16"])
def test_a_long_narrow_arange_holds_no_int64_count(dtype: str) -> None:
    """Seed 32002: ``arange(2**31, dtype=int8)`` timed out (16 GiB of int64s counted first);
    the memory it takes at most is its result's and a round's."""
    length = 2**22
    tracemalloc.start()
    try:
        made = mt.arange(length, dtype=getattr(mt, dtype))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1.2 * length * made.element_size() + 2**20, peak
    assert made[-1].item() == torch.arange(length, dtype=getattr(torch, dtype))[-1].item()
