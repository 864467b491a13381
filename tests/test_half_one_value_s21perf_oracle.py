"""``a * b`` and ``a / b`` where one operand holds one value, across dtypes: the float16 path
(the one value read into float32, rounded once) must be taken exactly where torch takes it,
now that the test of ``a``'s dtype comes first (issue #22: every float32 product asked it)."""

import numpy as np
import pytest
import torch

import minitorch as mt
from tests.oracle import numpy_of

A_DTYPES = ["float16", "float32", "float64", "int32", "bool"]
ONE_VALUES = [0.001, 1e6, 3, True, ("float32", ()), ("float64", ()), ("int64", ()),
              ("bool", ()), ("float16", ()), ("float32", (1,)), ("float64", (1, 1))]


def _pair(lib, a_dtype, one):
    a = lib.tensor(np.array([397.0, 0.0, -3.5, 65504.0]), dtype=getattr(lib, a_dtype))
    if isinstance(one, tuple):
        dtype, shape = one
        b = lib.full(shape, 0.001 if dtype.startswith("float") else 1,
                     dtype=getattr(lib, dtype))
        return a, b
    return a, one


@pytest.mark.parametrize("op", ["mul", "div"])
@pytest.mark.parametrize("one", ONE_VALUES, ids=str)
@pytest.mark.parametrize("a_dtype", A_DTYPES)
def test_one_value_operand_bits_as_torch(op, one, a_dtype):
    a, b = _pair(mt, a_dtype, one)
    ta, tb = _pair(torch, a_dtype, one)
    got, want = getattr(a, op)(b), getattr(ta, op)(tb)
    assert str(got.dtype) == str(want.dtype)
    g, w = numpy_of(got), numpy_of(want)
    assert g.shape == w.shape
    if want.dtype.is_floating_point:
        assert np.array_equal(g.view(f"u{g.itemsize}"), w.view(f"u{w.itemsize}")), (g, w)
    else:
        assert np.array_equal(g, w)
