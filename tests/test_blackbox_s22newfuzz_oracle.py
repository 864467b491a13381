"""Edge input met by the s22 black-box fuzz of sorting/searching, random fills and
histograms, against torch: the same refusal (type and message) or the same result to the bit.

torch's mode reports the index its ``std::sort`` of a row leaves last among equal values
(NaN equal to nothing); its searchsorted/bucketize run their own halving search over the
boundaries as given (unsorted or holding NaN); random_(from, None) draws up to the dtype's
largest value, and a float dtype narrows a range its rounding crosses."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS, assert_alike, assert_as_torch, assert_same_error, raised_by

import minitorch

NAN = float("nan")

CASES = [
    # random_(from, None): up to the dtype's largest value (2**digits for floats)
    "L.zeros(3).random_(0, None)", "L.zeros(3).random_(-3, None)",
    "L.zeros(3, dtype=L.float16).random_(5, None)", "L.zeros(3, dtype=L.int64).random_(5, None)",
    "L.zeros(3, dtype=L.int32).random_(0, None)", "L.zeros(3, dtype=L.uint8).random_(0, None)",
    "L.zeros(3, dtype=L.bool).random_(0, None)", "L.zeros(3, dtype=L.bool).random_(-3, None)",
    "L.zeros(3, dtype=L.int8).random_(2**31, None)", "L.zeros(3).random_(2**24 + 1, None)",
    "L.zeros(3).random_(2**24 - 1, None)", "L.zeros(0, dtype=L.int8).random_(0, None)",
    "L.zeros(3, dtype=L.float64).random_(2**31, None)",
    # from = -2**63 and no end: all 64 bits, into int64 and float tensors only
    "L.zeros(3, dtype=L.int64).random_(-2**63, None)", "L.zeros(3).random_(-2**63, None)",
    "L.zeros(3, dtype=L.int32).random_(-2**63, None)",
    "L.zeros(3, dtype=L.float16).random_(-2**63, None)",
    "L.zeros(0, dtype=L.int8).random_(-2**63, None)",
    "L.zeros(3).random_(1.5, None)", "L.zeros(3).random_(None, None)",
    # a float dtype's rounding narrows the range (float32 holds 2**24 + 1 as 2**24)
    "L.zeros(3).random_(0, 2**40)", "L.zeros(3).random_(0, 2**25)", "L.zeros(3).random_(0, 2**31)",
    "L.zeros(3).random_(2**24 + 3, 2**24 + 4)", "L.zeros(3).random_(0, 2**53)",
    "L.randint(0, 2**25, (3,), dtype=L.float32)", "L.randint(0, 2**40, (3,), dtype=L.float64)",
    "L.randint_like(L.zeros(3), 0, 2**40)",
    # randint_like takes a generator and high by keyword
    "L.randint_like(L.ones(2), 10, generator=L.Generator().manual_seed(1))",
    "L.randint_like(L.ones(2), high=10, generator=L.Generator().manual_seed(1))",
    "L.randint_like(L.ones(2), low=2, high=10, generator=L.Generator().manual_seed(1))",
    "L.randint_like(L.ones(2, dtype=L.int16), 0, 2**40, generator=L.Generator())",
    "L.randint_like(L.ones(2), 5, generator=3)", "L.randint_like(L.ones(2))",
    # bernoulli_ with a tensor p expands and checks it only with something to fill
    "L.zeros(0).bernoulli_(L.tensor([0.5, 0.5, 0.5]))", "L.zeros(1, 0).bernoulli_(L.ones(2, 2))",
    "L.zeros(0, dtype=L.int64).bernoulli_(L.tensor([-0.5, 2.0]))",
    "L.zeros(2).bernoulli_(L.tensor([0.5, 0.5, 0.5]))",
    # histogram: the count of bins, the range, then the inputs, then the kernel's dtypes
    "L.histogram(L.tensor([1, 2]), L.tensor([0, 1, 2]))",
    "L.histogram(L.tensor([1, 2]), -1, weight=L.tensor([1.0, 2.0]))",
    "L.histogram(L.tensor([1, 2]), 2)", "L.histogram(L.tensor([], dtype=L.int64), 2)",
    "L.histogram(L.tensor([1, 2]), 2, range=(3.0, 1.0))",
    "L.histogram(L.tensor([1, 2]), 3, range=(float('nan'), 1.0))",
    "L.histogram(L.tensor([1, 2]), 2, range=(0.0, 4.0))",
    "L.histogram(L.tensor([1.0, float('nan')]), 2)",
    "L.histogram(L.tensor([1.0, float('inf')]), 2)",
    "L.histogram(L.tensor([1.0, 2.0]), 2, range=(0.0, float('inf')))",
    "L.histogram(L.tensor([1.0, 2.0]), L.tensor([0.0]))",
    "L.histogram(L.tensor([1.0, 2.0]), L.tensor([]))",
    "L.histogram(L.tensor([1.0, 2.0]), L.tensor([0.0]), weight=L.tensor([1, 2]))",
    "L.histogram(L.tensor([1.0, 2.0]), L.tensor([0.0]), weight=L.tensor([1.0, 2.0, 3.0]))",
    "L.histogram(L.tensor([[1.0, 2.0]]), 2, weight=L.tensor([[1.0], [2.0]]))",
    "L.histogram(L.tensor([1.0, 2.0]), 2, weight=L.tensor(1.0))",
    "L.histogram(L.tensor([], dtype=L.float64), bins=3, weight=L.ones(3))",
    "L.histogram(L.tensor([1.0, 2.0], dtype=L.float16), 2)",
    "L.histogram(L.tensor([1.0, 2.0], dtype=L.float16), 2, range=(0.0, 1.0))",
    "L.histogram(L.tensor([True]), 2)", "L.histogram(L.tensor([True]), 2, range=(0.0, 1.0))",
    # searchsorted reads the last size of a 0-d sorter
    "L.searchsorted(L.tensor(5.0), L.tensor([1.0]), sorter=L.tensor(0))",
    "L.searchsorted(L.tensor([1.0, float('nan'), 3.0]), 2.5, sorter=L.tensor([2, 0, 1]))",
    "L.bucketize(L.tensor([0.0, 1.5, 2.5, 4.0]), L.tensor([5.0, 1, 4, 2, 3]))",
    "L.bucketize(float('nan'), L.tensor([1.0, float('nan'), 3.0]))",
    # a Generator for meta tensors does not exist
    "L.Generator(device='meta')",
    # arange counts an int64 range in int64 arithmetic, which wraps
    "L.arange(0, 2**63 - 1, 2**62)", "L.arange(0, 2**63 - 1, 2**61)", "L.arange(-2**63, 0, 2**62)",
    "L.arange(2**63 - 1, 0, -2**62)", "L.arange(-3, -10, -4)",
    # a narrower integer dtype counts with the step as given (truncated, it may be 0)
    "L.arange(0.1, 0.4, 0.1, dtype=L.int32)", "L.arange(2.5, 0.1, -0.7, dtype=L.uint8)",
    "L.arange(0, 3, 0.5, dtype=L.int8)", "L.arange(0.1, 0.4, 0.1, dtype=L.int64)",
    # one step fills (bool too); logspace's fill value is base ** start
    "L.logspace(0, 10, 1, base=2.0, dtype=L.bool)", "L.logspace(0, 10, 2, base=2.0, dtype=L.bool)",
    "L.logspace(0.5, 3, 1, base=-2, dtype=L.uint8)", "L.logspace(1, 3, 1, base=-2, dtype=L.uint8)",
    "L.logspace(-2, 10, 1, base=2.0, dtype=L.uint8)",
    "L.logspace(10, 10, 1, base=2.0, dtype=L.uint8)",
    "L.logspace(5, 3, 1, base=10, dtype=L.float16)", "L.linspace(0, -5, 1, dtype=L.bool)",
    "L.linspace(0, -5, 2, dtype=L.bool)", "L.linspace(0, 5, 0, dtype=L.bool)",
    # dtype.to_complex: torch has none for integer and bool dtypes
    "L.int64.to_complex()", "L.bool.to_complex()", "L.uint8.to_complex()",
    "str(L.float32.to_real())",
    # a number divided by a one-value float16 tensor with rounding
    "0.0 // L.tensor(4.0, dtype=L.float16)", "-7 // L.tensor(2.0, dtype=L.float16)",
    "L.div(3.3, L.tensor(1.1, dtype=L.float16), rounding_mode='trunc')",
    "L.is_storage(L.ones(2).untyped_storage())", "L.is_storage(L.ones(2))", "L.is_storage([1])",
]


def _outcome(code: str, L):
    L.manual_seed(22)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return eval(code, {"L": L})


@pytest.mark.parametrize("code", CASES)
def test_same_refusal_or_result(code):
    assert_as_torch(lambda L: _outcome(code, L))  # (each run seeded alike)


VALUES = st.sampled_from([NAN, -1.0, 0.0, 1.0, 2.0, 3.0, 2.5, float("inf")])


@SETTINGS
@given(st.lists(st.lists(VALUES, min_size=1, max_size=40), min_size=1, max_size=3),
       st.sampled_from(["float32", "float64", "int64", "float16"]))
def test_mode_index_is_the_one_torchs_sort_leaves(rows, dtype):
    n = min(len(r) for r in rows)
    data = np.array([r[:n] for r in rows])
    if dtype == "int64":
        data = np.nan_to_num(data, nan=7.0, posinf=9.0)

    def run(L):
        return tuple(L.mode(L.tensor(data).to(getattr(L, dtype)), -1))

    assert_alike(run(minitorch), run(torch))


@SETTINGS
@given(st.lists(VALUES, min_size=0, max_size=9), st.lists(VALUES, min_size=0, max_size=5),
       st.booleans(), st.booleans(), st.integers(0, 2**16))
def test_search_runs_torchs_halving_over_unsorted_boundaries(bounds, values, right, sort, seed):
    sorter = np.random.RandomState(seed).permutation(len(bounds)) if sort else None

    def run(L):
        kw = {"right": right} if sorter is None else {"right": right, "sorter": L.tensor(sorter)}
        b, v = L.tensor(bounds), L.tensor(values)
        return (L.searchsorted(b, v, **kw), L.bucketize(v, b, right=right),
                L.searchsorted(b.expand(2, -1), v.expand(2, -1), **(
                    kw if sorter is None else {**kw, "sorter": kw["sorter"].expand(2, -1)})))

    assert_alike(run(minitorch), run(torch))


@SETTINGS
@given(st.sampled_from(["float32", "float64", "float16", "int64", "int32", "int16", "int8",
                        "uint8", "bool"]),
       st.integers(-2**40, 2**40) | st.sampled_from([-2**63, 2**24 - 1, 2**24 + 1, 2**53 + 1]),
       st.none() | st.integers(-2**40, 2**41) | st.sampled_from([2**24 + 3, 2**53 + 5, 2**62]))
def test_random_bounds_as_torch_narrows_them(dtype, low, high):
    def run(L):
        L.manual_seed(5)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return L.zeros(4, dtype=getattr(L, dtype)).random_(low, high)

    want = raised_by(run, torch)
    if want is not None:
        assert_same_error(raised_by(run, minitorch), want)
    else:
        assert_alike(run(minitorch), run(torch))
