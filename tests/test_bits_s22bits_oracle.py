"""Last bits of float32 and float16 results against torch 2.13's CPU kernels: the cross
product (its fused multiply-add), a half's vector norm (computed in float) and
``logcumsumexp`` (its running sum in the accumulate type), and float32 bilinear upsampling
(torch's channels-last kernel for small outputs). Every value compares bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import SETTINGS, numpy_of

DTYPES = ["float32", "float16"]


def _same_bits(got: object, want: torch.Tensor) -> None:
    assert str(got.dtype) == str(want.dtype)
    assert tuple(got.shape) == tuple(want.shape)
    np.testing.assert_array_equal(numpy_of(got), numpy_of(want))


def _pair(data: np.ndarray, dtype: str, transposed: bool = False) -> tuple:
    a, b = mt.tensor(data).to(getattr(mt, dtype)), torch.tensor(data).to(getattr(torch, dtype))
    if transposed and data.ndim > 1:
        return a.mT, b.mT
    return a, b


@st.composite
def _data(draw: st.DrawFn, min_dims: int = 1, last: int | None = None) -> np.ndarray:
    """A random float32 array (2-4 dims of odd and even sizes) from a drawn seed."""
    ndim = draw(st.integers(min_dims, 3))
    shape = [draw(st.integers(1, 9)) for _ in range(ndim)]
    if last is not None:
        shape[-1] = last
    seed = draw(st.integers(0, 2**16))
    scale = draw(st.sampled_from([1.0, 1e-3, 1e3]))
    return (np.random.default_rng(seed).standard_normal(shape) * scale).astype(np.float32)


@SETTINGS
@given(_data(last=3), st.sampled_from([*DTYPES, "float64"]), st.booleans())
def test_cross_rounds_its_first_product_with_the_difference(x, dtype, broadcast):
    y = np.random.default_rng(x.size).standard_normal(x.shape).astype(np.float32)
    y = y[..., :1, :] if broadcast and x.ndim > 1 else y  # a row against every row of x
    (a, ta), (b, tb) = _pair(x, dtype), _pair(y, dtype)
    _same_bits(mt.linalg.cross(a, b), torch.linalg.cross(ta, tb))
    _same_bits(mt.cross(b, a, dim=-1), torch.cross(tb, ta, dim=-1))


@pytest.mark.parametrize("dtype", DTYPES)
def test_cross_along_a_leading_dim_of_transposed_inputs(dtype):
    rng = np.random.default_rng(0)
    x, y = (rng.standard_normal((7, 3, 5)).astype(np.float32) for _ in range(2))
    (a, ta), (b, tb) = _pair(x, dtype, True), _pair(y, dtype, True)
    _same_bits(mt.cross(a, b, dim=2), torch.cross(ta, tb, dim=2))  # a strided dim of 3
    big_a, big_ta = _pair(rng.standard_normal((3, 4000)).astype(np.float32), dtype)
    big_b, big_tb = _pair(rng.standard_normal((3, 4000)).astype(np.float32), dtype)
    _same_bits(mt.linalg.cross(big_a, big_b, dim=0), torch.linalg.cross(big_ta, big_tb, dim=0))


@SETTINGS
@given(_data(), st.sampled_from([0, 1, 2, float("inf")]), st.booleans())
def test_a_half_vector_norm_is_computed_in_float(x, order, transposed):
    a, ta = _pair(x, "float16", transposed)
    _same_bits(mt.linalg.vector_norm(a, ord=order), torch.linalg.vector_norm(ta, ord=order))
    _same_bits(mt.linalg.vector_norm(a, ord=order, dim=-1),
               torch.linalg.vector_norm(ta, ord=order, dim=-1))


@SETTINGS
@given(_data(), st.sampled_from(DTYPES), st.booleans(), st.data())
def test_logcumsumexp_runs_in_the_accumulate_type(x, dtype, transposed, data):
    a, ta = _pair(x * 4, dtype, transposed)
    dim = data.draw(st.integers(-a.dim(), a.dim() - 1))
    _same_bits(mt.logcumsumexp(a, dim), torch.logcumsumexp(ta, dim))


@pytest.mark.parametrize("dtype", DTYPES)
def test_logcumsumexp_of_long_rows_and_infinities(dtype):
    x = (np.random.default_rng(1).standard_normal((300, 40)) * 3).astype(np.float32)
    x[0, :3] = [np.inf, -np.inf, np.nan]
    x[5, 3:6] = [-np.inf, np.inf, -np.inf]
    for dim in (0, 1):
        a, ta = _pair(x, dtype)
        _same_bits(mt.logcumsumexp(a, dim), torch.logcumsumexp(ta, dim))


@SETTINGS
@given(st.integers(1, 20), st.integers(1, 9), st.integers(1, 9), st.integers(1, 60),
       st.integers(1, 60), st.booleans(), st.integers(0, 2**16))
def test_bilinear_of_a_small_output_takes_the_channels_last_kernel(
        channels, height, width, out_h, out_w, align, seed):
    x = np.random.default_rng(seed).standard_normal((2, channels, height, width))
    a, ta = _pair(x.astype(np.float32), "float32")
    got = mt.nn.functional.interpolate(a, size=(out_h, out_w), mode="bilinear",
                                       align_corners=align)
    want = torch.nn.functional.interpolate(ta, size=(out_h, out_w), mode="bilinear",
                                           align_corners=align)
    _same_bits(got, want)


@pytest.mark.parametrize("size", [(70, 60), (130, 40)])
def test_bilinear_of_a_large_output_keeps_the_generic_kernel(size):
    x = np.random.default_rng(3).standard_normal((1, 17, 40, 30)).astype(np.float32)
    a, ta = _pair(x, "float32")
    _same_bits(mt.nn.functional.interpolate(a, size=size, mode="bilinear"),
               torch.nn.functional.interpolate(ta, size=size, mode="bilinear"))


@SETTINGS
@given(_data(), st.sampled_from(["var_mean", "std_mean"]), st.integers(0, 2), st.booleans(),
       st.data())
def test_the_mean_of_var_mean_is_welfords_in_double(x, name, correction, transposed, data):
    a, ta = _pair(x * 3 + 1, "float32", transposed)
    dim = data.draw(st.sampled_from([None, *range(-a.dim(), a.dim())]))
    got = getattr(mt, name)(a, dim=dim, correction=correction)
    want = getattr(torch, name)(ta, dim=dim, correction=correction)
    _same_bits(got[0], want[0])
    _same_bits(got[1], want[1])
