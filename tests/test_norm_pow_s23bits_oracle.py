"""The vector norm of an order other than 0, 1, 2 and ±inf against torch 2.13's CPU kernel,
bit for bit: C's ``pow(|x|, p)`` (``powf`` for float32, not correctly rounded) added one by
one in memory order, then ``pow(sum, 1 / p)``; a half's in float; zeros, infs and NaNs.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import torch
from hypothesis import given
from hypothesis import strategies as st

import minitorch as mt
from minitorch._libm import _c_math
from minitorch._powf import C_POW_MAX, c_pow, powf
from tests.oracle import SETTINGS, assert_exact

ORDERS = [3.0, 1.5, 0.5, -1.0, -0.5, 4, 7, 0.3, 2.5, -3.7, 100.0]


@st.composite
def _case(draw: st.DrawFn) -> tuple:
    """A random array (1-3 dims, up to C_POW_MAX values), a dtype, an order and dims."""
    shape = tuple(draw(st.lists(st.integers(1, 10), min_size=1, max_size=3)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    data = rng.standard_normal(shape) * draw(st.sampled_from([1.0, 1e-3, 40.0]))
    if draw(st.booleans()):  # a few zeros, infinities and NaNs
        data.ravel()[rng.integers(0, data.size, 2)] = draw(st.sampled_from([0.0, np.inf, np.nan]))
    dims = draw(st.sampled_from([None, (0,), (-1,), (0, -1)]))
    if dims is not None and len(set(d % len(shape) for d in dims)) < len(dims):
        dims = dims[:1]
    dtype = draw(st.sampled_from(["float32", "float64", "float16"]))
    return data, dtype, draw(st.sampled_from(ORDERS)), dims


@given(_case(), st.booleans())
@SETTINGS
def test_vector_norm_same_bits(case: tuple, transposed: bool) -> None:
    data, dtype, p, dims = case

    def run(L):
        x = L.tensor(data).to(getattr(L, dtype))
        x = x.mT if transposed and x.ndim > 1 else x
        return L.linalg.vector_norm(x, ord=p, dim=dims)

    assert_exact(run(mt), run(torch))


@given(st.integers(0, 2**32 - 1), st.sampled_from(ORDERS))
@SETTINGS
def test_norm_method_same_bits(seed: int, p: float) -> None:
    data = np.random.default_rng(seed).standard_normal((7, 13)).astype(np.float32)
    assert_exact(mt.tensor(data).norm(p, dim=1), torch.tensor(data).norm(p, dim=1))
    assert_exact(mt.norm(mt.tensor(data), p), torch.norm(torch.tensor(data), p))


def test_powf_is_the_c_librarys() -> None:
    function = _c_math("powf", arity=2)
    x = np.abs(np.random.default_rng(0).standard_normal(3000)).astype(np.float32) * 5
    x = np.concatenate([x, np.float32([0.0, np.inf, np.nan, 1e-45, 1e-40, 3e38, 1.0])])
    for y in [3.0, float(np.float32(1 / 3)), -0.5, 7.0, 100.0, -100.0]:
        want = np.array([function(v, y) for v in x.tolist()], np.float32)
        np.testing.assert_array_equal(powf(x, y), want)


def test_c_pow_float64_up_to_its_limit() -> None:
    x = np.abs(np.random.default_rng(1).standard_normal(C_POW_MAX))
    want = np.array([math.pow(v, 1.5) for v in x.tolist()])  # Python's pow is C's
    np.testing.assert_array_equal(c_pow(np, x, 1.5), want)


@given(st.floats(-6, 6), st.floats(-6, 6), st.integers(1, 80),
       st.sampled_from([10.0, 2.0, math.e, 0.5, 3.7, 1.1, -2.0, 0.0]),
       st.sampled_from(["float32", "float64", "float16", "int64", "int32", "int16"]))
@SETTINGS
def test_logspace_same_bits(start: float, end: float, steps: int, base: float,
                            dtype: str) -> None:
    """C's ``pow(base, e)`` of torch's exponents: the ends in the dtype, the step in float64."""

    def run(L):
        return L.logspace(start, end, steps, base=base, dtype=getattr(L, dtype))

    with np.errstate(all="ignore"):
        assert_exact(run(mt), run(torch))


def test_logspace_one_step_of_zero_base() -> None:
    for dtype in ["float32", "float64", "float16"]:
        assert_exact(mt.logspace(-1.5, 0, 1, base=0.0, dtype=getattr(mt, dtype)),
                     torch.logspace(-1.5, 0, 1, base=0.0, dtype=getattr(torch, dtype)))


@st.composite
def _stat_case(draw: st.DrawFn) -> tuple:
    """A random array (1-3 dims), maybe with an inf or NaN, a dtype and dims."""
    shape = tuple(draw(st.lists(st.integers(1, 9), min_size=1, max_size=3)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    data = rng.standard_normal(shape) * draw(st.sampled_from([1.0, 100.0])) + draw(
        st.sampled_from([0.0, 1000.0]))
    if draw(st.booleans()):
        data.ravel()[rng.integers(0, data.size)] = draw(st.sampled_from([np.inf, -np.inf,
                                                                         np.nan]))
    dims = draw(st.sampled_from([None, 0, -1, (0, -1)]))
    if isinstance(dims, tuple) and len(shape) == 1:
        dims = 0
    return data, draw(st.sampled_from(["float32", "float64", "float16"])), dims


@given(_stat_case(), st.sampled_from(["std_mean", "var_mean"]), st.sampled_from([0, 1, 2]))
@SETTINGS
def test_std_mean_same_bits(case: tuple, fn: str, correction: int) -> None:
    """Both values from one Welford pass in double: an inf then a number makes the mean NaN."""
    data, dtype, dims = case

    def run(L):
        x = L.tensor(data).to(getattr(L, dtype))
        return getattr(L, fn)(x, dim=dims, correction=correction)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        (stat, mean), (want_stat, want_mean) = run(mt), run(torch)
    assert_exact(stat, want_stat)
    assert_exact(mean, want_mean)


def test_std_mean_inf_then_number_is_nan() -> None:
    for dtype in ["float32", "float64", "float16"]:
        for data in ([1.0, math.inf, 2.0], [[1.0, math.inf], [2.0, 3.0]]):
            got = mt.std_mean(mt.tensor(data, dtype=getattr(mt, dtype)), 0)
            want = torch.std_mean(torch.tensor(data, dtype=getattr(torch, dtype)), 0)
            assert_exact(got[0], want[0])
            assert_exact(got[1], want[1])


def test_var_mean_of_no_values_is_nan() -> None:
    for shape, dim in (((2, 0), 1), ((0,), 0), ((0, 3), 1)):
        def run(L, shape=shape, dim=dim):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return L.var_mean(L.zeros(shape), dim=dim, correction=5, keepdim=True)

        for got, want in zip(run(mt), run(torch)):
            assert_exact(got, want)
