"""Calls left over from issue #21's third fuzz (seeds 2201-2203) where minitorch raised a
different error than torch, or refused what torch does; each program ends as in torch
(``R`` equal, or the same exception type and message)."""

from __future__ import annotations

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch

_PROGRAMS = [
    # interpolate checks align_corners, then the size / scale_factor counts, before the mode
    "R = L.nn.functional.interpolate(L.ones(1, 1, 3), size=(2, 3, 4), mode='bilinear')",
    "R = L.nn.functional.interpolate(L.ones(1, 1, 3), size=[2, 3], mode='bicubic')",
    "R = L.nn.functional.interpolate(L.ones(1, 1, 3), scale_factor=(2, 3), mode='bicubic')",
    "R = L.nn.functional.interpolate(L.ones(1, 1, 3), mode='nearest', align_corners=True)",
    "R = L.nn.functional.interpolate(L.ones(1, 1, 3), size=2, mode='linear',"
    " align_corners=False)",
]


@pytest.mark.parametrize("program", _PROGRAMS)
def test_as_torch(program: str) -> None:
    assert_as_torch(program)
