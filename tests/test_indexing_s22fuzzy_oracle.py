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

from tests.oracle import SETTINGS
from tests.test_badinput_s20fuzzy_oracle import _same  # torch's error, or its result's bits

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]


def _quiet(program: Callable[[Any], Any]) -> None:
    with warnings.catch_warnings():  # (out's resize warns in both)
        warnings.simplefilter("ignore")
        _same(program)


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
    _same(lambda L: eval(code, {"L": L, "x": _t(L, [1, 0, 3], "int64").to(getattr(L, dtype))}))


def test_a_true_division_by_a_uint64_number_is_positive() -> None:
    for dtype in ("int64", "uint8", "int32"):
        _same(lambda L: _t(L, [1, 0, -5], "int64").to(getattr(L, dtype)) / 2 ** 63)
        _same(lambda L: _t(L, [1, 0, -5], "int64").to(getattr(L, dtype)).div(2 ** 64 - 1))
