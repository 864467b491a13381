"""A transposed convolution whose output padding is not below its stride (s21 fuzzn): torch
does not pick oneDNN for it, so its own kernel's checks speak (the output padding against
the stride and the dilation before the dtypes), and where the dilation allows that padding
the result has the room it leaves, in torch's values and gradients."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import FEW, assert_same, assert_same_error, raised_by


def transposed(L: Any, dims: int, batch: int, weight_dtype: str, **kw: Any) -> Any:
    fn = getattr(L.nn.functional, f"conv_transpose{dims}d")
    return fn(L.ones((batch, 1) + (5,) * dims),
              L.ones((1, 3) + (2,) * dims, dtype=getattr(L, weight_dtype)), **kw)


@FEW
@given(batch=st.sampled_from([1, 2, 16]), stride=st.sampled_from([1, 2]),
       dilation=st.sampled_from([1, 2, 3]), output_padding=st.sampled_from([0, 1, 2]))
@pytest.mark.parametrize("dims", [1, 2])
@pytest.mark.parametrize("weight_dtype", ["float32", "float64"])
def test_output_padding_before_dtypes(dims: int, weight_dtype: str, batch: int, stride: int,
                                      dilation: int, output_padding: int) -> None:
    def fn(L: Any) -> Any:
        return transposed(L, dims, batch, weight_dtype, stride=stride, dilation=dilation,
                          output_padding=output_padding)

    want = raised_by(fn, torch)
    if want is not None:
        assert_same_error(raised_by(fn, mt), want)
    else:
        assert_same(fn(mt), fn(torch))


@pytest.mark.parametrize("dims, kw", [
    (2, {"output_padding": 2, "stride": 2, "dilation": 3}),
    (2, {"output_padding": (1, 2), "stride": 1, "dilation": (2, 3)}),
    (1, {"output_padding": 2, "stride": 2, "dilation": 3}),
])
def test_output_padding_past_the_stride_values(dims: int, kw: dict) -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 2) + (4,) * dims).astype(np.float32)
    w = rng.standard_normal((2, 3) + (2,) * dims).astype(np.float32)
    results = []
    for L in (mt, torch):
        a, b = L.tensor(x, requires_grad=True), L.tensor(w, requires_grad=True)
        y = getattr(L.nn.functional, f"conv_transpose{dims}d")(a, b, **kw)
        y.pow(2).sum().backward()
        results.append((y, a.grad, b.grad))
    for got, want in zip(*results):
        assert_same(got, want)
