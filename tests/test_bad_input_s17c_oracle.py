"""Fuzz 21, session 17 (C): leftovers of the earlier fuzzing, each closed as a class against
live torch (pad's sizes per mode and rank, ...). Each program runs under torch and minitorch
(``L``): the same result, or the same exception type and message."""

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_bad_input_fuzz21b_oracle import assert_as_torch


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=5),
       st.lists(st.integers(-4, 4), max_size=8),
       st.sampled_from(["constant", "reflect", "replicate", "circular"]),
       st.sampled_from(["", ", dtype=L.int64", ", dtype=L.bool"]))
def test_pad_sizes_as_torch(shape: list, pad: list, mode: str, dtype: str) -> None:
    """Any pad (empty, odd, too long, cropping below nothing) on any shape (empty dims, each
    rank) in each mode: torch's result or its refusal, in torch's order. Circular padding
    that both crops and wraps is left out: torch copies from memory it never wrote."""
    assume(mode != "circular" or min(pad, default=0) >= 0 or max(pad, default=0) <= 0)
    assert_as_torch(f"R = L.nn.functional.pad(L.ones({tuple(shape)}{dtype}), {tuple(pad)}, "
                    f"mode='{mode}')")
