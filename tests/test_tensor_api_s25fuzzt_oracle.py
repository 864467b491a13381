"""Bad input found by the differential fuzzer of the tensor API (session 25): each program
runs on torch and on minitorch, which must raise torch's error or give torch's result."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import minitorch
from tests.oracle import SETTINGS, assert_as_torch

BIG = 2 ** 63 - 1


def _quiet(program: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_as_torch(program)


# ------------------------------------------ a numpy scalar exponent is the number it holds

NUMPY_EXPONENTS = [np.int32(2 ** 31 - 1), np.float64(1e300), np.float32(1e10), np.int64(-1),
                   np.int16(3), np.float64(2.0), np.longdouble(2)]
POW_FORMS = {
    "pow": lambda L, t, e: L.pow(t, e),
    "method": lambda L, t, e: t.pow(e),
    "in place": lambda L, t, e: t.clone().pow_(e),
    "operator": lambda L, t, e: t ** e,
    "reflected": lambda L, t, e: e ** t,
    "number base": lambda L, t, e: L.pow(e, t),
}


@pytest.mark.parametrize("form", POW_FORMS)
@given(dtype=st.sampled_from(["float16", "float32", "int16", "int8", "int64", "uint8", "bool"]),
       exponent=st.sampled_from(NUMPY_EXPONENTS))
@SETTINGS
def test_pow_reads_a_numpy_scalar_as_torch(form: str, dtype: str, exponent: Any) -> None:
    _quiet(lambda L: POW_FORMS[form](L, L.ones(2, dtype=getattr(L, dtype)), exponent))


# ------------------------------- normal(number, tensor) adds the number to an empty output

@given(dtype=st.sampled_from(["uint8", "int8", "int64", "bool", "float16", "float32"]),
       number=st.sampled_from([-1, 300, -300, 2.5, 1e39, 1e300, float("inf")]),
       mean_first=st.booleans(), size=st.sampled_from([0, 2]), sign=st.sampled_from([1, -1]))
@SETTINGS
def test_normal_reads_a_number_mean_into_the_dtype(dtype: str, number: float, mean_first: bool,
                                                    size: int, sign: int) -> None:
    def program(L: Any) -> Any:
        t = sign * L.ones(size, dtype=getattr(L, dtype))
        r = L.normal(number, t) if mean_first else L.normal(t, number)
        return r.shape, r.dtype
    _quiet(program)


# ---------------------------------------- reshape/view: torch's int64 count of the new shape

@pytest.mark.parametrize("shape", [(4, -1, BIG), (2 ** 40, 2 ** 40, 0), (BIG, BIG, 0),
                                   (-1, 0), (0, -1), (2, -1, 2 ** 62)])
@pytest.mark.parametrize("how", ["reshape", "view"])
def test_reshape_counts_as_torch(shape: tuple, how: str) -> None:
    _quiet(lambda L: getattr(L.zeros(0, 3), how)(shape).shape)


@pytest.mark.parametrize("make", [
    lambda L: L.zeros(0, 3).reshape(0, BIG),
    lambda L: L.zeros(0, 3).view(-1, BIG),
    lambda L: L.zeros(0, 3).as_strided((0, 2 ** 62), (BIG, 1)),
    lambda L: L.zeros(0, 3).new_empty_strided((2 ** 62, 0, 3), (1, 1, 1)),
    lambda L: L.empty_strided((0, BIG), (1, 1)),
])
def test_an_empty_shape_numpy_cannot_hold_is_refused_plainly(make: Any) -> None:
    assert make(torch_lib()).numel() == 0  # torch holds it
    with pytest.raises(RuntimeError, match="minitorch cannot hold an empty tensor"):
        make(minitorch)


def torch_lib() -> Any:
    import torch
    return torch
