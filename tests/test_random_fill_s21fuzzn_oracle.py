"""In-place random fills and nn.init on an empty tensor (s21 fuzzn): a filling kernel never
runs on no elements, so torch takes an integer or bool one there (uniform's bound check
excepted), and refuses it once it has elements."""

from __future__ import annotations

from typing import Any

import pytest
import torch

import minitorch as mt
from tests.oracle import assert_as_torch, assert_same_error, raised_by

FILLS = {
    "normal_": lambda t: t.normal_(),
    "log_normal_": lambda t: t.log_normal_(),
    "geometric_": lambda t: t.geometric_(0.5),
    "uniform_": lambda t: t.uniform_(),
    "exponential_": lambda t: t.exponential_(),
    "cauchy_": lambda t: t.cauchy_(),
}
INITS = ["normal_", "xavier_normal_", "kaiming_normal_", "trunc_normal_", "uniform_",
         "xavier_uniform_", "kaiming_uniform_", "orthogonal_"]


@pytest.mark.parametrize("shape", [(0, 3), (2,)])
@pytest.mark.parametrize("dtype", ["int64", "bool"])
@pytest.mark.parametrize("fill", ["normal_", "log_normal_", "geometric_", "uniform_",
                                  "exponential_", "cauchy_"])
def test_fill_of_empty_integer_tensor(fill: str, dtype: str, shape: tuple) -> None:
    def fn(L: Any) -> Any:
        t = L.zeros(shape, dtype=getattr(L, dtype))
        return FILLS[fill](t)

    want = raised_by(fn, torch)
    if want is not None:
        assert_same_error(raised_by(fn, mt), want)
    else:  # the draws differ: their dtype and shape do not
        got, expected = fn(mt), fn(torch)
        assert (str(got.dtype), tuple(got.shape)) == (str(expected.dtype), tuple(expected.shape))


@pytest.mark.parametrize("dtype", ["int64", "bool"])
@pytest.mark.parametrize("name", INITS)
def test_init_of_empty_integer_tensor(name: str, dtype: str) -> None:
    assert_as_torch(lambda L: getattr(L.nn.init, name)(L.zeros(0, 3, dtype=getattr(L, dtype))))
