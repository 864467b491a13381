"""Creation ops whose values or refusals differed from torch 2.13: each compared with torch,
its error or its result bit for bit."""
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.oracle import assert_as_torch

FLOATS = ("float16", "float32", "float64")
INTS = ("uint8", "int8", "int16", "int32", "int64")


@pytest.mark.parametrize("dtype", FLOATS + INTS + ("bool",))
@pytest.mark.parametrize("value", [2**40, -2**40, 1e300, 2**63, 70000.0, 65519.0, 65520.0,
                                   math.inf, math.nan, -1, 3.5])
def test_scalar_tensor_half_is_filled_unchecked(dtype, value):
    # torch fills one half element unchecked: past its range is inf, not refused
    assert_as_torch(lambda L: L.scalar_tensor(value, dtype=getattr(L, dtype)))


@pytest.mark.parametrize("shape", [(), (1,), (1, 1), (2,)])
def test_full_of_one_half_is_unchecked(shape):
    assert_as_torch(lambda L: L.full(shape, 7e4, dtype=L.float16))


@pytest.mark.parametrize("args, kwargs", [
    ((), {"low": 3}), ((), {"low": 3, "high": None}), ((3,), {"high": None}), ((3, None), {}),
    ((), {}), ((5,), {"low": 3}), ((1, 2), {"high": 4}), ((), {"high": 5}),
    ((1,), {"high": 4}), ((), {"low": 1, "high": 4}), ((5,), {}), ((2, 5), {})])
def test_randint_like_needs_an_int_high(args, kwargs):
    assert_as_torch(lambda L: L.randint_like(L.ones(3), *args, **kwargs).shape)


@pytest.mark.parametrize("fn", ["tensor", "as_tensor"])
@pytest.mark.parametrize("make", [
    lambda L: [L.tensor([1, 2]), L.tensor([3, 4])], lambda L: [L.tensor([1, 2]), L.tensor([3])],
    lambda L: [L.tensor([1, 2]), [3, 4]], lambda L: [L.tensor([True, False])],
    lambda L: [L.tensor([1.5, 2.0])], lambda L: [L.tensor(1), L.tensor(2.5)],
    lambda L: [[L.tensor(1), L.tensor(2)], [L.tensor(3), 4]], lambda L: [L.ones(0)],
    lambda L: [L.ones(1, 1)], lambda L: [L.tensor(1.0, requires_grad=True).detach()]])
def test_tensor_of_tensors_refused_by_inferred_dtype(fn, make):
    # an int64 or bool inner tensor makes torch read the elements as indices
    assert_as_torch(lambda L: getattr(L, fn)(make(L)))


@pytest.mark.parametrize("dtype", INTS)
@given(values=st.lists(st.integers(-2**62, 2**62), max_size=3),
       bounds=st.sampled_from([(0, 0), (0, 10), (-2**63, 2**63 - 1), (0, 2**40), (5, 5),
                               (0, 1e30)]))
@settings(max_examples=15, deadline=None)
def test_histc_of_integers(dtype, values, bounds):
    # a double of 2**63 fits int64 for torch's checked conversion (compared as doubles)
    assert_as_torch(lambda L: L.histc(L.tensor(values, dtype=L.int64).to(getattr(L, dtype)),
                                      bins=4, min=bounds[0], max=bounds[1]))


ROUNDED = [1.2345, -3.75, 1000.5, 0.0001, 65000.0, 1e-30, 1e30, 0.5, 2.5, 0.0, -0.0, math.inf,
           math.nan, 1e-300, 1e300, 123456.789]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("decimals", [*range(-12, 13), -39, 38, 39, 308, 309, 400, -400])
def test_round_decimals_in_the_op_math_type(dtype, decimals):
    # torch scales in float32 for half (10**10 is no longer inf there, so no nan)
    assert_as_torch(lambda L: L.round(L.tensor(ROUNDED, dtype=getattr(L, dtype)),
                                      decimals=decimals))


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div", "remainder", "floor_divide",
                                "true_divide", "fmod", "maximum"])
@pytest.mark.parametrize("dtype", FLOATS + INTS + ("bool",))
@pytest.mark.parametrize("shape", [(0,), (), (2,)])
@pytest.mark.parametrize("number", [2**31, -2**40, 2**63, 1e300, -1, True])
def test_number_first_is_cast_unchecked(op, dtype, shape, number):
    # torch wraps the number as a 0-d tensor and casts it to the result dtype unchecked
    assert_as_torch(lambda L: getattr(L, op)(number, L.ones(shape, dtype=getattr(L, dtype))))


ENDS = [-2.7611488545289884, 3, 2.5, 10, 0, -2, 0.1, 7.3, -100.7, 1e5, math.inf, math.nan]


@pytest.mark.parametrize("dtype", FLOATS + INTS)
@given(start=st.sampled_from(ENDS), end=st.sampled_from(ENDS),
       steps=st.sampled_from([0, 1, 2, 3, 5, 7, 20, 33, 64, 70, 1000]))
@settings(max_examples=40, deadline=None)
def test_linspace_as_torch_kernel(dtype, start, end, steps):
    # half: each operation rounded to half; integers: truncated ends, fused float64 steps;
    # an int end read wrapped into uint8 (-2 is 254)
    assert_as_torch(lambda L: L.linspace(start, end, steps, dtype=getattr(L, dtype)))


@pytest.mark.parametrize("args", [(-2.7611488545289884, 3, 5, "float16"), (2.5, 10, 7, "int64"),
                                  (3, -7.77, 7, "int64"), (3, -2, 5, "uint8"),
                                  (1e5, 3, 1, "float16"), (-2, 5, 1, "uint8")])
def test_linspace_examples(args):
    start, end, steps, dtype = args
    assert_as_torch(lambda L: L.linspace(start, end, steps, dtype=getattr(L, dtype)))


@pytest.mark.parametrize("args", [(-2, 10, 1), (-2, 10, 2), (-2, 10, 5), (-2.0, 10, 3),
                                  (2, -1, 3), (0.25, 3, 1)])
def test_logspace_int_ends_into_uint8(args):
    # an int end is read wrapped (-1 is 255), a float one checked
    assert_as_torch(lambda L: L.logspace(*args, base=2.0, dtype=L.uint8))
