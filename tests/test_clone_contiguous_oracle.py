"""``clone(memory_format=contiguous_format)`` against live torch: always a copy of the same
shape (0-d included), whatever the input's layout."""

from __future__ import annotations

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch


@pytest.mark.parametrize("make", ["L.tensor(3.)", "L.ones(2, 3)", "L.ones(2, 3).t()",
                                  "L.arange(6.).reshape(2, 3)[:, ::2]"])
def test_contiguous_clone_is_a_copy_as_torch(make: str) -> None:
    assert_as_torch(f"a = {make}; m = a.clone(memory_format=L.contiguous_format); m.fill_(7.); "
                    "R = (a, m, m.shape, m.is_contiguous())")
