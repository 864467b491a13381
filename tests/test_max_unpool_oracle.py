"""``max_pool2d(return_indices=True)``, ``F.max_unpool2d`` and ``nn.MaxUnpool2d`` against
torch: the indices, the unpooled planes, gradients, reprs and errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import SETTINGS, assert_same_error, raised_by


@given(height=st.integers(2, 8), width=st.integers(2, 8), kernel=st.integers(1, 3),
       stride=st.integers(1, 3), padding=st.integers(0, 1), ceil=st.booleans(),
       batched=st.booleans(), seed=st.integers(0, 30))
@SETTINGS
def test_pool_indices_and_unpool(height: int, width: int, kernel: int, stride: int,
                                 padding: int, ceil: bool, batched: bool, seed: int) -> None:
    shape = (2, 3, height, width)[1 - batched:]
    data = np.random.default_rng(seed).standard_normal(shape)

    def run(L: Any) -> list[str]:
        x = L.tensor(data, requires_grad=True)
        try:
            values, indices = L.nn.functional.max_pool2d(x, kernel, stride, padding,
                                                         ceil_mode=ceil, return_indices=True)
            unpool = L.nn.MaxUnpool2d(kernel, stride, padding)
            out = unpool(values, indices, output_size=x.shape[-2:])
        except (RuntimeError, ValueError) as error:
            return [type(error).__name__, str(error)]
        out.pow(2).sum().backward()
        return [repr(values), repr(indices), repr(out), repr(x.grad), repr(unpool)]

    assert run(mt) == run(torch)


BAD_CALLS = [
    lambda L: L.nn.functional.max_unpool2d(*L.nn.functional.max_pool2d(
        L.arange(56.).reshape(1, 1, 7, 8), 3, 2, 1, return_indices=True), 3, 2, 1),
    lambda L: L.nn.functional.max_unpool2d(*L.nn.functional.max_pool2d(
        L.ones(1, 1, 4, 4), 2, return_indices=True), 2, output_size=(9, 9)),
]


@pytest.mark.parametrize("call", BAD_CALLS)
def test_bad_arguments_raise_torchs_errors(call: Any) -> None:
    want = raised_by(call, torch)
    assert want is not None
    assert_same_error(raised_by(call, mt), want)
