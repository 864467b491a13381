"""Leftovers of session 25's merged fuzz, each compared live with torch 2.13: ldexp of a
zero, an infinity or a nan by a huge power of two; interpolate's ``area`` mode on 5-D inputs
(adaptive_avg_pool3d)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.oracle import SETTINGS, assert_as_torch

SPECIAL = [0.0, -0.0, float("inf"), float("-inf"), float("nan"), 1.0, -0.75, 5e-324, 1e-300,
           1e308, 3e38, 1e-45]


@given(values=st.lists(st.sampled_from(SPECIAL) | st.floats(allow_nan=False), min_size=1,
                       max_size=6),
       powers=st.lists(st.integers(-40000, 40000) | st.sampled_from([1023, 1024, 2046, 2047,
                                                                     -1074, -1075, -2200]),
                       min_size=1, max_size=6),
       dtype=st.sampled_from(["float64", "float32", "float16"]),
       power_dtype=st.sampled_from(["int16", "int32", "int64"]))
@SETTINGS
def test_ldexp_of_any_float_by_any_power_is_torchs(values: list, powers: list, dtype: str,
                                                  power_dtype: str) -> None:
    n = min(len(values), len(powers))
    if power_dtype == "int16":
        powers = [max(-32768, min(32767, p)) for p in powers]
    assert_as_torch(lambda L: L.ldexp(
        L.tensor(values[:n], dtype=getattr(L, dtype)),
        L.tensor(powers[:n], dtype=getattr(L, power_dtype))))


@pytest.mark.parametrize("size", [(3, 2, 5), (1, 1, 1), (2, 3, 4), (0, 2, 2), (-1, 2, 5)])
@pytest.mark.parametrize("shape", [(1, 1, 2, 3, 4), (2, 3, 4, 1, 5), (1, 0, 2, 3, 4),
                                   (1, 1, 2, 0, 4)])
def test_area_interpolation_of_a_5d_input_is_torchs(shape: tuple, size: tuple) -> None:
    def program(L):
        x = L.arange(float(L.Size(shape).numel())).reshape(shape).requires_grad_()
        y = L.nn.functional.interpolate(x, size=size, mode="area")
        y.sum().backward()
        return y, x.grad
    assert_as_torch(program)


@pytest.mark.parametrize("dilation", [0, 1, 2, -1, (0, 1), (1, 0), (0, 0), (2, 0)])
@pytest.mark.parametrize("stride", [1, 2])
@pytest.mark.parametrize("case", [
    ((2, 4, 1, 3), (3, 4, 2, 1), 1, "float32"), ((2, 4, 3, 3), (3, 4, 1, 1), 1, "float32"),
    ((1, 4, 3, 3), (3, 4, 2, 1), 1, "float32"), ((1, 4, 3, 3), (3, 4, 5, 5), 1, "float32"),
    ((2, 4, 0, 3), (3, 4, 1, 1), 1, "float32"), ((1, 2, 3, 3), (4, 1, 1, 1), 2, "float32"),
    ((2, 4, 3, 3), (3, 4, 2, 1), 1, "float64"), ((4, 3, 3), (3, 4, 2, 1), 1, "float32"),
    ((20, 4, 3, 3), (3, 4, 1, 1), 1, "float32")])
def test_a_zero_dilation_is_refused_in_the_words_of_torchs_kernel(case: tuple, stride: int,
                                                                   dilation) -> None:
    """Where torch's CPU convolution picks oneDNN (float32, a batch, a large kernel...), a
    zero dilation is "non-positive dilation is not supported"; its own kernels list them."""
    x, w, groups, dtype = case
    assert_as_torch(lambda L: L.nn.functional.conv2d(
        L.ones(x, dtype=getattr(L, dtype)), L.ones(w, dtype=getattr(L, dtype)),
        dilation=dilation, stride=stride, groups=groups))


@pytest.mark.parametrize("primal_grad", [False, True])
@pytest.mark.parametrize("tangent_grad", [False, True])
def test_linearize_replays_tensors_made_inside_without_their_requires_grad(
        primal_grad: bool, tangent_grad: bool) -> None:
    """torch replays a trace of ``func``: a tensor it made requiring grad is made again
    without, so only the primals and tangents decide whether jvp_fn's output requires grad."""
    def program(L):
        def func(x):
            w = L.ones(3, requires_grad=True)
            return (x * w).sin(), w.sum()
        x = L.tensor([1.0, 2.0, 3.0], requires_grad=primal_grad)
        _, jvp_fn = L.func.linearize(func, x)
        return jvp_fn(L.ones(3, requires_grad=tangent_grad))
    assert_as_torch(program)
