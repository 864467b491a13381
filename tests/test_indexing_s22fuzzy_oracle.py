"""Bad input found by the differential fuzzer of indexing, promotion, out= and printing
(session 22): each program runs on torch and on minitorch, which must raise torch's error or
give torch's result bit for bit."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.oracle import SETTINGS, assert_as_torch

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]


def _quiet(program: Callable[[Any], Any]) -> None:
    with warnings.catch_warnings():  # (out's resize warns in both)
        warnings.simplefilter("ignore")
        assert_as_torch(program)


def _t(L: Any, values: Any, dtype: str) -> Any:
    return L.tensor(values, dtype=getattr(L, dtype))


# ---------------------------------------------------------------------------- out= of reductions

# sum/prod/nansum/cumsum/cumprod reduce in out's dtype, amax/amin need the input's, mean casts
# its float result into out; each took no out= before (a TypeError)
REDUCTIONS = ["sum", "prod", "nansum", "cumsum", "cumprod", "amax", "amin", "mean"]


@given(st.sampled_from(REDUCTIONS), st.sampled_from(DTYPES), st.sampled_from(DTYPES),
       st.sampled_from([(3,), (2, 3), (), (0,), (1,)]), st.sampled_from([0, -1, 1]))
@SETTINGS
def test_reduction_out(name: str, dtype: str, out_dtype: str, out_shape: tuple,
                       dim: int) -> None:
    def program(L: Any) -> Any:
        x = _t(L, [[2.7, -1.0, 0.0], [3.0, 1.5, -2.5]], "float64").to(getattr(L, dtype))
        out = L.zeros(out_shape, dtype=getattr(L, out_dtype))
        result = getattr(L, name)(x, dim, out=out)
        assert result is out
        return out
    _quiet(program)


OUT_PROGRAMS = [
    lambda L: L.sum(L.ones(2, 3), out=L.zeros(3)),  # no overload without dim takes out
    lambda L: L.mean(L.ones(2, 3), out=L.zeros(())),  # mean's does
    lambda L: L.amax(L.ones(2, 3), out=L.zeros(())),
    lambda L: L.sum(L.ones(2, 3), 0, dtype=L.float64, out=L.zeros(3, dtype=L.int64)),
    lambda L: L.sum(L.ones(2, 3, requires_grad=True), 0, out=L.zeros(3)),
    lambda L: L.cumsum(L.ones(2, 3), 0, dtype=L.float64, out=L.zeros(3)),
    lambda L: L.sum(L.ones(3), 0, out=2),
    lambda L: L.amax(L.ones(3), 1, out=L.zeros(3, dtype=L.int32)),  # dtype before dim
    lambda L: L.mean(L.ones(3, dtype=L.int16), 0, out=L.zeros(3)),
    lambda L: L.mean(L.ones(3, dtype=L.float16), 0, out=L.zeros(3, dtype=L.int64)),
    lambda L: L.round(L.ones(3), out=L.zeros(3, dtype=L.int64)),
    lambda L: L.round(L.full((3,), 2.5), out=L.zeros(3)),
    lambda L: L.round(L.ones(3, dtype=L.bool), out=L.zeros(3, dtype=L.bool)),
    lambda L: L.round(L.ones(3, dtype=L.int32), decimals=2, out=L.zeros(3, dtype=L.int32)),
    lambda L: L.round(L.ones(3, requires_grad=True), out=L.zeros(3)),
    lambda L: L.where(L.ones(3) > 0, _t(L, [1, 2, 3], "uint8"), _t(L, [1, 2, 3], "int8"),
                      out=L.zeros(3)),
    lambda L: L.where(L.ones(3) > 0, _t(L, [1, 2, 3], "uint8"), _t(L, [1, 2, 3], "int8"),
                      out=L.zeros(2, dtype=L.int16)),
    lambda L: L.where(L.ones(3) > 0, 1, L.ones(3), out=L.zeros(3)),  # tensors only with out
    lambda L: L.where(L.ones(3) > 0, L.ones(3), 1.0, out=L.zeros(3)),
    lambda L: L.where(L.ones(3) > 0, L.ones(3), L.ones(3), out=2),
    lambda L: L.where(L.ones(3) > 0, L.ones(3, requires_grad=True), L.ones(3),
                      out=L.zeros(3)),
]


@pytest.mark.parametrize("program", OUT_PROGRAMS)
def test_out_of_reductions_where_round(program: Callable[[Any], Any]) -> None:
    _quiet(program)


# ---------------------------------------------------------------------------- uint64 numbers

# An int in (2**63, 2**64) is a uint64 to torch: a bool tensor cannot promote with it (in
# place too, before the cast check); into an integer result it wraps, into a float one it is
# the positive double (a true division by it was by -2**63 before)
UNSIGNED_OPS = ["L.div({v}, x)", "L.div(x, {v})", "L.remainder({v}, x)", "L.sub({v}, x)",
                "L.copysign(x, {v})", "x.copysign({v})", "L.clamp_min(x, {v})",
                "L.true_divide(x, {v})", "x.add_({v})", "x.mul_({v})", "x.div_({v})",
                "x.eq_({v})", "x.lt_({v})", "x.fmod_({v})", "x.copysign_({v})",
                "x.floor_divide_({v})", "x.clamp_({v})", "x.clamp_min_({v})", "L.add(x, {v})",
                "L.result_type(x, {v})", "L.mul({v}, x)"]


@given(st.sampled_from(UNSIGNED_OPS), st.sampled_from(DTYPES),
       st.sampled_from(["2**63", "2**64-1", "2**63+5"]))
@SETTINGS
def test_uint64_numbers(form: str, dtype: str, value: str) -> None:
    code = form.format(v=value)
    assert_as_torch(lambda L: eval(code, {"L": L,
                                          "x": _t(L, [1, 0, 3], "int64").to(getattr(L, dtype))}))


@pytest.mark.parametrize("dtype", ["int64", "uint8", "int32"])
def test_a_true_division_by_a_uint64_number_is_positive(dtype: str) -> None:
    assert_as_torch(lambda L: _t(L, [1, 0, -5], "int64").to(getattr(L, dtype)) / 2 ** 63)
    assert_as_torch(lambda L: _t(L, [1, 0, -5], "int64").to(getattr(L, dtype)).div(2 ** 64 - 1))


# a number first with a float16 tensor is a float16 tensor, as torch wraps it (1e10 is inf)
@pytest.mark.parametrize("fn", ["add", "sub", "mul", "div", "floor_divide"])
@pytest.mark.parametrize("number", ["1e10", "70000", "2**63", "2.5", "-3"])
def test_a_number_first_is_read_as_float16(fn: str, number: str) -> None:
    assert_as_torch(lambda L: getattr(L, fn)(eval(number), L.tensor([1., 0., -float("inf"), 3.],
                                                          dtype=L.float16)))


# ---------------------------------------------------------------------------- index_fill, masks

# index_fill into a dim of size 0 meets torch's restride of the input past its empty storage;
# a 0-d tensor value is read by its item (refused where the dtype cannot hold it) before the
# indices' bounds, and refused as a gradient into an integer result after them
@given(st.sampled_from([(0,), (0, 3), (3, 0), (2, 0, 3), (2, 3)]), st.integers(0, 2),
       st.lists(st.integers(-3, 5), max_size=3), st.sampled_from(DTYPES))
@SETTINGS
def test_index_fill_into_an_empty_dim(shape: tuple, dim: int, index: list, dtype: str) -> None:
    dim = min(dim, len(shape) - 1)
    assert_as_torch(lambda L: L.zeros(shape, dtype=getattr(L, dtype)).index_fill(
        dim, L.tensor(index, dtype=L.int64), 1))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("value", ["-3.", "300", "float('nan')", "1e10", "3.5", "-3"])
@pytest.mark.parametrize("index", [[0], [5]])
def test_index_fill_tensor_value_fits(dtype: str, value: str, index: list) -> None:
    assert_as_torch(lambda L: L.zeros(2, dtype=getattr(L, dtype)).index_fill(
        0, L.tensor(index), L.tensor(eval(value))))
    assert_as_torch(lambda L: L.zeros(2, dtype=getattr(L, dtype)).index_fill(
        0, L.tensor(index), L.tensor(eval(value), requires_grad=True)))


# x[list of bools] = one-element value is torch's masked_fill_ (its value checked as a fill)
@pytest.mark.parametrize("key", [[True, False], [True, True], [False, False], [True, 1],
                                 [True], [1, 0]])
@pytest.mark.parametrize("value", ["L.tensor([-3.05], dtype=L.float16)", "L.tensor([300])",
                                   "L.tensor([2.5])", "L.tensor(7.)"])
def test_setitem_through_a_list_of_bools(key: list, value: str) -> None:
    def program(L: Any) -> Any:
        x = _t(L, [[5, 255, 0], [5, 0, 8]], "uint8")
        x[key] = eval(value, {"L": L})
        return x
    _quiet(program)


# index_put_ (and x[key] = tensor through it) refuses an index tensor sharing self's memory
OVERLAPS = [
    lambda L: L.tensor([True, False, True]).__setitem__(Ellipsis, 1),
    lambda L: (lambda x: x.__setitem__(x, L.tensor([False, True])))(L.tensor([True, False, True])),
    lambda L: (lambda x: x.__setitem__(x, L.tensor([False])))(L.tensor([True, False, True])),
    lambda L: (lambda x: x.__setitem__(x, L.tensor([5, 6, 7])))(L.tensor([0, 1, 2])),
    lambda L: (lambda x: x.index_put_((x,), L.tensor([5, 6])))(L.tensor([0, 1, 2])),
    lambda L: (lambda x: x.__setitem__((0, x[1]), L.tensor([5, 6])))(L.tensor([[0, 1], [1, 0]])),
]


@pytest.mark.parametrize("program", OVERLAPS)
def test_an_index_overlapping_the_written_tensor(program: Callable[[Any], Any]) -> None:
    assert_as_torch(program)
