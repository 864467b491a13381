"""A number argument that the kernel reads in the result's dtype (issue #21): torch refuses
one the dtype cannot hold ("value cannot be converted to type float without overflow") and
truncates a float for an integer result. minitorch had computed inf, nan or zeros from such
a number (the scaled products, hardshrink, logit, histc), failed inside numpy (300 into
int8), promoted an integer addmv/addbmm to float64, and widened addbmm's int32 to int64.
histc's edges follow torch's: an empty range widened by 1 each way, the next number where
the dtype loses that 1, the outer edges read back from its bin edges, and a position the
dtype cannot compute counted where torch's counts it."""

import pytest

from tests.oracle import assert_as_torch

DTYPES = ["float32", "float16", "float64", "int8", "int32", "int64", "uint8"]
NUMBERS = [1e308, 1e39, 1e5, float("inf"), 300, 2**40, 1.5, -2.5]


def _products(L, dt, name, number):
    o = lambda *shape: L.ones(*shape, dtype=getattr(L, dt))  # noqa: E731
    calls = {
        "addmv": lambda: o(2).addmv(o(2, 2), o(2), alpha=number),
        "addr": lambda: o(2, 2).addr(o(2), o(2), beta=number),
        "baddbmm": lambda: o(1, 2, 2).baddbmm(o(1, 2, 2), o(1, 2, 2), alpha=number),
        "addbmm": lambda: o(2, 2).addbmm(o(3, 2, 2), o(3, 2, 2), beta=number),
        "addmm": lambda: o(2, 2).addmm(o(2, 2), o(2, 2), alpha=number),
        "hardshrink": lambda: L.nn.functional.hardshrink(o(2), number),
        "logit": lambda: o(2).logit(number),
        "histc": lambda: (o(2) * 3).histc(3, -number, number),
    }
    return calls[name]()


@pytest.mark.parametrize("number", NUMBERS, ids=str)
@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("name", ["addmv", "addr", "baddbmm", "addbmm", "addmm", "hardshrink",
                                  "logit", "histc"])
def test_number_read_in_the_kernels_dtypeassert_as_torch(name, dt, number):
    assert_as_torch(lambda L: _products(L, dt, name, number))


SINGLE = [5.0, 1e4, 16777216.0, 16777217.0, 33554432.0, 1e8, 1e30, 3e38, 65504.0,
          float("inf"), -float("inf")]


@pytest.mark.parametrize("bins", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("value", SINGLE, ids=str)
@pytest.mark.parametrize("dt", ["float32", "float64", "float16"])
def test_histc_widens_an_empty_rangeassert_as_torch(dt, value, bins):
    assert_as_torch(lambda L: L.tensor([value], dtype=getattr(L, dt)).histc(bins, 0, 0))
    assert_as_torch(lambda L: L.ones(0, dtype=getattr(L, dt)).histc(bins, value, value))


@pytest.mark.parametrize("data,low,high", [
    ([1.0, 3e38], -3e38, 3e38),            # the span overflows: torch's edges are nan
    ([2.0, 3.4e38], 1.0, 3.4e38),           # an infinite position lands in the first bin
    ([-3e38, 1.0, 3e38, 3.4e38], -3.4e38, 3.4e38),
    ([float("inf"), float("nan"), 1.0], 0.0, 3.0),
])
@pytest.mark.parametrize("bins", [3, 5])
def test_histc_positions_past_the_dtypeassert_as_torch(data, low, high, bins):
    assert_as_torch(lambda L: L.tensor(data).histc(bins, low, high))
