"""The ``*_like`` factories read their keywords as torch's parser does: a dtype that is no
torch.dtype refused in each factory's own name (rand_like and randn_like, of two overloads,
with torch's invalid-combination listing), and a generator drawn from as torch draws."""

from __future__ import annotations

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch

_LIKES = ["L.empty_like(x{})", "L.full_like(x, 3{})", "L.zeros_like(x{})", "L.ones_like(x{})",
          "L.rand_like(x{})", "L.randn_like(x{})"]


@pytest.mark.parametrize("dtype", ["'torch.float32'", "3", "None", "L.float64", "L.int32"])
@pytest.mark.parametrize("call", _LIKES)
def test_like_factories_read_dtype_as_torch(call: str, dtype: str) -> None:
    program = f"x = L.ones(2, 3)\ny = {call.format(', dtype=' + dtype)}\n"
    assert_as_torch(program + "R = (y.shape, y.dtype, y.requires_grad)")


@pytest.mark.parametrize("call", ["L.rand_like(x, generator=g)", "L.randn_like(x, generator=g)"])
def test_like_draws_from_a_generator_as_torch(call: str) -> None:
    assert_as_torch(f"g = L.Generator().manual_seed(3)\nx = L.ones(4, dtype=L.float64)\nR = {call}")
