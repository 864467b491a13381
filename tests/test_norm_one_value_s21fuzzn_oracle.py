"""The 2-norm over one value is that value's size (s21 fuzzn): torch squares nothing there,
so a float32 1e30 (0-d, or a dim of length one) keeps its norm where its square overflows;
clip_grad_norm_ over such a gradient then finds a finite total."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same, assert_same_error, raised_by

CALLS = {
    "0d": lambda L: L.linalg.vector_norm(L.tensor(-1e30)),
    "dim_of_one": lambda L: L.linalg.vector_norm(L.tensor([[1e30, 2.0]]), dim=0),
    "all_of_one": lambda L: L.linalg.vector_norm(L.tensor([[[1e30]]])),
    "method_0d": lambda L: L.tensor(1e30).norm(),
    "two_values_overflow": lambda L: L.linalg.vector_norm(L.tensor([1e30, 1.0])),
    "grad": lambda L: L.linalg.vector_norm(L.tensor(-3.0, requires_grad=True)),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_norm_of_one_value(name: str) -> None:
    assert_same(CALLS[name](mt), CALLS[name](torch))


def test_clip_grad_norm_of_a_huge_0d_gradient() -> None:
    def fn(L: Any) -> Any:
        w = L.zeros(3, dtype=L.float64, requires_grad=True)
        v = L.zeros((), requires_grad=True)
        w.grad, v.grad = L.ones(3, dtype=L.float64), L.tensor(np.float32(1e30))
        return L.nn.utils.clip_grad_norm_([w, v], -1.0, error_if_nonfinite=True)

    want = raised_by(fn, torch)
    if want is not None:
        assert_same_error(raised_by(fn, mt), want)
    else:
        assert_same(fn(mt), fn(torch))
