"""clamp, clamp_ and their other names clip, clip_ refuse bad bounds and counts as torch's
parser does: each in its own name, a method's listing in the method's signatures, and too
many arguments as no overload's (the listing without marks)."""

from __future__ import annotations

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch

_CALLS = ["L.{f}(x, L.ones(3), 1.5)", "x.{f}(L.ones(3), 1.5)", "x.clone().{f}_(L.ones(3), 1.5)",
          "L.{f}(x, 'a')", "x.{f}(0, 1, 2)", "L.{f}(x)", "L.{f}(x, 0, 1)", "x.{f}(max=1)",
          "L.{f}_(x.clone(), 0, 1)", "x.clone().{f}_(0, 1, 2)", "x.{f}(min=None, max=None)",
          "x.{f}(foo=1)", "L.{f}(x, L.zeros(3), L.ones(1, 3))", "x.clone().{f}_(None, 'b')"]


@pytest.mark.parametrize("name", ["clamp", "clip"])
@pytest.mark.parametrize("call", _CALLS)
def test_clamp_and_clip_arguments_as_torch(name: str, call: str) -> None:
    assert_as_torch("x = L.tensor([[-2., 0.5, 3.]])\nR = " + call.format(f=name))
