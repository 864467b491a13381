"""``testing.assert_close`` as torch's: for each pair of inputs (tensors of every dtype, specials,
empty and 0-d tensors, Python and numpy scalars, nested lists and dicts, bad types and bad
tolerances) minitorch passes where torch passes and otherwise raises torch's exception type
with torch's message; hypothesis draws shapes, dtypes, perturbations and tolerances.
torch 2.13 is the oracle."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minitorch as mt
from tests.oracle import SETTINGS, assert_same_error, raised_by, shapes

NAN, INF = float("nan"), float("inf")
Case = Callable[[Any], tuple[Any, Any, dict]]


def _t(L: Any, data: Any, dtype: str | None = None, **kw: Any) -> Any:
    return L.tensor(data, dtype=None if dtype is None else getattr(L, dtype), **kw)


CASES: dict[str, Case] = {
    # values
    "equal": lambda L: (_t(L, [1.0, 2.0, 3.0]), _t(L, [1.0, 2.0, 3.0]), {}),
    "close float32": lambda L: (_t(L, [1.0, 2.0]), _t(L, [1.0, 2.000001]), {}),
    "not close float32": lambda L: (_t(L, [1.0, 2.0, 3.0]), _t(L, [1.0, 2.5, 3.0]), {}),
    "not close float64": lambda L: (_t(L, [1.0, 2.0], "float64"),
                                    _t(L, [1.0, 2.0 + 1e-6], "float64"), {}),
    "2-d greatest": lambda L: (_t(L, [[1.0, 2.0], [3.0, 4.0]]), _t(L, [[1.5, 2.0], [3.0, 5.0]]),
                               {}),
    "3-d": lambda L: (_t(L, [[[1.0], [2.0]], [[3.0], [4.0]]]),
                      _t(L, [[[1.0], [2.5]], [[3.0], [4.0]]]), {}),
    "expected zero": lambda L: (_t(L, [1.0, 0.5]), _t(L, [1.0, 0.0]), {}),
    "every element": lambda L: (_t(L, [1.0, 2.0, 3.0]), _t(L, [2.0, 3.0, 4.0]), {}),
    "nan": lambda L: (_t(L, [1.0, NAN]), _t(L, [1.0, NAN]), {}),
    "nan equal_nan": lambda L: (_t(L, [1.0, NAN]), _t(L, [1.0, NAN]), {"equal_nan": True}),
    "nan vs number": lambda L: (_t(L, [NAN, 2.0]), _t(L, [1.0, 2.0]), {"equal_nan": True}),
    "inf": lambda L: (_t(L, [INF, -INF]), _t(L, [INF, -INF]), {}),
    "inf vs -inf": lambda L: (_t(L, [INF, 1.0]), _t(L, [-INF, 1.0]), {}),
    "inf vs number": lambda L: (_t(L, [1.0, 3.0]), _t(L, [1.0, INF]), {}),
    "-inf vs nan": lambda L: (_t(L, [-INF]), _t(L, [NAN]), {}),
    "empty": lambda L: (_t(L, []), _t(L, []), {}),
    "empty 2-d": lambda L: (L.zeros(0, 3), L.ones(0, 3), {}),
    "0-d equal": lambda L: (_t(L, 1.0), _t(L, 1.0), {}),
    "0-d not close": lambda L: (_t(L, 1.5), _t(L, 1.0), {}),
    "0-d expected zero": lambda L: (_t(L, 1.5), _t(L, 0.0), {}),
    "0-d nan": lambda L: (_t(L, NAN), _t(L, NAN), {}),
    "0-d int": lambda L: (_t(L, 3), _t(L, 2), {}),
    "0-d bool": lambda L: (_t(L, True), _t(L, False), {}),
    "int equal": lambda L: (_t(L, [1, 2, 3]), _t(L, [1, 2, 3]), {}),
    "int not equal": lambda L: (_t(L, [1, 2, 3]), _t(L, [1, 5, 3]), {}),
    "int with tolerances": lambda L: (_t(L, [1, 2, 3]), _t(L, [1, 5, 3]),
                                      {"rtol": 0.1, "atol": 1}),
    "int8 extremes": lambda L: (_t(L, [-128, 0], "int8"), _t(L, [127, 0], "int8"), {}),
    "uint8": lambda L: (_t(L, [0, 200], "uint8"), _t(L, [255, 200], "uint8"), {}),
    "bool": lambda L: (_t(L, [True, False]), _t(L, [False, False]), {}),
    "zero tolerances": lambda L: (_t(L, [1.0, 2.0]), _t(L, [1.0, 2.0000001]),
                                  {"rtol": 0, "atol": 0}),
    "loose tolerances": lambda L: (_t(L, [1.0, 2.0]), _t(L, [1.0, 2.5]),
                                   {"rtol": 0.3, "atol": 0.0}),
    # attributes
    "shape": lambda L: (_t(L, [1.0, 2.0]), _t(L, [1.0, 2.0, 3.0]), {}),
    "shape 0-d vs 1-d": lambda L: (_t(L, 1.0), _t(L, [1.0]), {}),
    "dtype": lambda L: (_t(L, [1.0, 2.0]), _t(L, [1.0, 2.0], "float64"), {}),
    "int vs float": lambda L: (_t(L, [1.0, 2.0, 3.0]), _t(L, [1, 5, 3]), {}),
    "int vs float unchecked": lambda L: (_t(L, [1.0, 2.0, 3.0]), _t(L, [1, 5, 3]),
                                         {"check_dtype": False}),
    "int vs float unchecked close": lambda L: (_t(L, [1.0, 2.000001]), _t(L, [1, 2]),
                                               {"check_dtype": False}),
    "stride unchecked": lambda L: (L.ones(2, 3).T, L.ones(3, 2), {}),
    "shape before dtype": lambda L: (_t(L, [1, 2]), _t(L, [1.0]), {}),
    "meta": lambda L: (L.ones(2, device="meta"), L.zeros(2, device="meta"), {}),
    "meta vs cpu": lambda L: (L.ones(2, device="meta"), L.zeros(2), {}),
    "meta vs cpu unchecked": lambda L: (L.ones(2, device="meta"), L.zeros(2),
                                        {"check_device": False}),
    "requires_grad ignored": lambda L: (_t(L, [1.0, 2.0], requires_grad=True), _t(L, [1.0, 2.0]),
                                        {}),
    "requires_grad not close": lambda L: ((_t(L, [1.0, 2.0], requires_grad=True) * 2),
                                          _t(L, [1.0, 2.0]), {}),
    "parameter": lambda L: (L.nn.Parameter(_t(L, [1.0])), _t(L, [1.0]), {}),
    "parameter strict": lambda L: (L.nn.Parameter(_t(L, [1.0])), _t(L, [1.0]),
                                   {"allow_subclasses": False}),
    # Python and numpy scalars, None
    "ints": lambda L: (3, 3, {}),
    "ints differ": lambda L: (3, 4, {}),
    "int vs float scalar": lambda L: (1, 1.0, {}),
    "int vs float scalar unchecked": lambda L: (1, 1.0, {"check_dtype": False}),
    "floats close": lambda L: (1.0, 1.0 + 1e-8, {}),
    "floats differ": lambda L: (1.5, 1.0, {}),
    "float vs zero": lambda L: (0.5, 0.0, {}),
    "float nan": lambda L: (NAN, NAN, {}),
    "float nan equal_nan": lambda L: (NAN, NAN, {"equal_nan": True}),
    "float inf": lambda L: (INF, INF, {}),
    "float inf vs -inf": lambda L: (INF, -INF, {}),
    "bools": lambda L: (True, True, {}),
    "bools differ": lambda L: (True, False, {}),
    "numpy bool vs int": lambda L: (np.bool_(True), 1, {}),
    "numpy float32 vs float": lambda L: (np.float32(1.5), 1.5, {}),
    "numpy floats differ": lambda L: (np.float32(1.5), np.float32(1.25), {}),
    "numpy int vs int": lambda L: (np.int64(2), 3, {}),
    "none": lambda L: (None, None, {}),
    "none vs int": lambda L: (None, 1, {}),
    "tensor vs none": lambda L: (_t(L, [1.0]), None, {}),
    # numpy arrays
    "arrays equal": lambda L: (np.ones(2), np.ones(2), {}),
    "arrays differ": lambda L: (np.ones(2), np.zeros(2), {}),
    "arrays dtype": lambda L: (np.ones(2, np.float32), np.ones(2), {}),
    "array vs tensor": lambda L: (np.ones(2), L.ones(2, dtype=L.float64), {}),
    # bad types and tolerances
    "tensor vs str": lambda L: (_t(L, [1.0]), "a", {}),
    "str vs str": lambda L: ("a", "a", {}),
    "sets": lambda L: ({1}, {1}, {}),
    "tensor vs list": lambda L: (_t(L, [1.0, 2.0]), [1.0, 2.0], {}),
    "tensor vs float": lambda L: (_t(L, 1.0), 1.0, {}),
    "rtol without atol": lambda L: (_t(L, [1.0]), _t(L, [1.0]), {"rtol": 1e-3}),
    "atol without rtol": lambda L: (_t(L, [1.0]), _t(L, [2.0]), {"atol": 1e-3}),
    "scalars rtol without atol": lambda L: (1.0, 1.0, {"rtol": 1e-3}),
    "none ignores rtol": lambda L: (None, None, {"rtol": 1e-3}),
    # nested
    "lists equal": lambda L: ([_t(L, [1.0]), 2, 3.0], [_t(L, [1.0]), 2, 3.0], {}),
    "list vs tuple": lambda L: ([1, _t(L, 2.0)], (1, _t(L, 2.0)), {}),
    "lists differ": lambda L: ([_t(L, [1.0]), _t(L, [2.0, 3.0])],
                               [_t(L, [1.0]), _t(L, [2.0, 4.0])], {}),
    "lists length": lambda L: ([1, 2], [1, 2, 3], {}),
    "nested lists": lambda L: ([[1.0, [2.0]]], [[1.0, [2.5]]], {}),
    "dicts equal": lambda L: ({"a": _t(L, 1.0), "b": 2}, {"b": 2, "a": _t(L, 1.0)}, {}),
    "dicts differ": lambda L: ({"a": _t(L, [1.0, NAN])}, {"a": _t(L, [1.0, NAN])}, {}),
    "dicts keys": lambda L: ({"a": 1, "c": 2}, {"a": 1, "b": 2}, {}),
    "dict of lists": lambda L: ({"w": [1.0, _t(L, [2.0])]}, {"w": [1.0, _t(L, [3.0])]}, {}),
    "int keys": lambda L: ({2: 1.0, 1: 1.0}, {1: 1.0, 2: 1.5}, {}),
    "bad type nested": lambda L: ([_t(L, 1.0), "x"], [_t(L, 2.0), "x"], {}),
    "rtol without atol nested": lambda L: ({"a": [1.0]}, {"a": [1.0]}, {"rtol": 0.1}),
    "list vs dict": lambda L: ([1], {0: 1}, {}),
    "strings in lists": lambda L: (["ab"], ["ab"], {}),
    # msg
    "msg str": lambda L: (_t(L, [1.0, 2.0]), _t(L, [1.0, 3.0]), {"msg": "Argh!"}),
    "msg callable": lambda L: ([1, _t(L, 1.0)], [1, _t(L, 2.0)],
                               {"msg": lambda m: f"Header\n\n{m}\n\nFooter"}),
    "msg str attribute": lambda L: (_t(L, [1.0]), _t(L, [1, 2]), {"msg": "shapes!"}),
    "msg str passes": lambda L: (_t(L, [1.0]), _t(L, [1.0]), {"msg": "unused"}),
    "msg ignored by length": lambda L: ([1], [1, 2], {"msg": "x"}),
    "msg ignored by type": lambda L: (_t(L, [1.0]), "a", {"msg": "x"}),
    "msg ignored by tolerances": lambda L: (1.0, 2.0, {"rtol": 0.1, "msg": "x"}),
}

# numpy's own: the strict array namespace (tests/test_backend_suites.py) has no float16, and
# its arrays' views have no strides of their own
HOST_CASES: dict[str, Case] = {
    "close float16": lambda L: (_t(L, [1.0, 2.0], "float16"), _t(L, [1.0, 2.001], "float16"), {}),
    "not close float16": lambda L: (_t(L, [1.0, 2.0], "float16"), _t(L, [1.0, 2.1], "float16"),
                                    {}),
    "float16 vs float64 unchecked": lambda L: (_t(L, [1.0, 2.0], "float16"),
                                               _t(L, [1.0, 2.0005], "float64"),
                                               {"check_dtype": False}),
    "stride": lambda L: (L.ones(2, 3).T, L.ones(3, 2), {"check_stride": True}),
}


def _outcome(case: Case, L: Any, check: str = "assert_close") -> BaseException | None:
    actual, expected, options = case(L)
    return raised_by(lambda lib: getattr(lib.testing, check)(actual, expected, **options), L)


def _same_outcome(got: BaseException | None, want: BaseException | None) -> None:
    if want is None:
        assert got is None, f"torch passes; minitorch raised {got!r}"
    else:
        assert_same_error(got, want)


@pytest.mark.parametrize("name", CASES)
def test_assert_close_passes_and_fails_as_torch(name: str) -> None:
    _same_outcome(_outcome(CASES[name], mt), _outcome(CASES[name], torch))


@pytest.mark.parametrize("name", HOST_CASES)
def test_float16_and_strides_as_torch(name: str) -> None:
    _same_outcome(_outcome(HOST_CASES[name], mt), _outcome(HOST_CASES[name], torch))


def test_cases_cover_passing_and_each_exception_type() -> None:
    kinds = {type(_outcome(case, torch)).__name__ for case in CASES.values()}
    assert kinds == {"NoneType", "AssertionError", "TypeError", "ValueError"}


# the deprecated assert_allclose: tensors of actual's dtype, looser defaults, NaN equal
ALLCLOSE_CASES: dict[str, Case] = {
    "lists": lambda L: ([1.0, NAN], [1.00001, NAN], {}),
    "lists nan unequal": lambda L: ([1.0, NAN], [1.0, NAN], {"equal_nan": False}),
    "ints vs floats": lambda L: ([1, 2], [1.5, 2.0], {}),
    "float32 loose": lambda L: (_t(L, [1.0, 2.0]), [1.0, 2.0001], {}),
    "float32 too far": lambda L: (_t(L, [1.0, 2.0]), [1.0, 2.001], {}),
    "float32 vs float64": lambda L: (_t(L, [1.0]), _t(L, [1.00005], "float64"), {}),
    "float64": lambda L: (_t(L, [1.0], "float64"), _t(L, [1.0001], "float64"), {}),
    "scalars": lambda L: (1.0, 1.5, {}),
    "shape": lambda L: (_t(L, [1.0, 2.0]), [1.0], {}),
    "msg": lambda L: (_t(L, [1.0, 2.0]), [1.5, 2.0], {"msg": "m"}),
    "rtol without atol": lambda L: (1.0, 1.5, {"rtol": 0.1}),
    "both tolerances": lambda L: (1.0, 1.5, {"rtol": 0.1, "atol": 0.5}),
}


@pytest.mark.parametrize("name", ALLCLOSE_CASES)
def test_assert_allclose_warns_passes_and_fails_as_torch(name: str) -> None:
    outcomes = []
    for L in (mt, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            outcomes.append(_outcome(ALLCLOSE_CASES[name], L, "assert_allclose"))
        outcomes.append([(w.category, str(w.message), w.filename) for w in caught])
    got, got_warnings, want, want_warnings = outcomes
    _same_outcome(got, want)
    assert got_warnings == want_warnings


# ---------------------------------------------------------------------------- drawn pairs

DTYPES = ["float16", "float32", "float64", "int8", "int32", "int64", "uint8", "bool"]
TOLERANCES = st.one_of(st.none(), st.tuples(st.sampled_from([0.0, 1e-6, 1e-3, 0.1, 1.0]),
                                            st.sampled_from([0.0, 1e-7, 1e-5, 0.01, 1.0])))
SPECIALS = [0.0, -0.0, 1.0, -1.0, 0.5, 100.0, 1e-3, NAN, INF, -INF]


def _values(dtype: str, shape: tuple[int, ...]) -> st.SearchStrategy[np.ndarray]:
    if dtype == "bool":
        return hnp.arrays(np.bool_, shape)
    if dtype.startswith("float"):
        elements = st.one_of(st.sampled_from(SPECIALS), st.floats(-10, 10, width=16))
        return hnp.arrays(np.float64, shape, elements=elements).map(lambda a: a.astype(dtype))
    info = np.iinfo(dtype)
    return hnp.arrays(dtype, shape, elements=st.integers(int(info.min), int(info.max)))


@st.composite
def _pairs(draw: Any) -> tuple[np.ndarray, np.ndarray]:
    """Two arrays of one shape: ``expected`` and a few of its elements nudged or replaced."""
    shape = draw(shapes(min_dims=0, max_dims=3, min_side=0, max_side=4))
    dtype, actual_dtype = draw(st.sampled_from(DTYPES)), draw(st.sampled_from(DTYPES))
    expected = draw(_values(dtype, shape))
    scale = draw(st.sampled_from([0.0, 1e-7, 1e-5, 1e-3, 0.1]))
    with np.errstate(all="ignore"):  # inf * 0 is NaN, a fine value to compare
        nudged = expected + scale * expected if expected.dtype.kind == "f" else expected
    actual = np.where(draw(hnp.arrays(np.bool_, shape)), draw(_values(dtype, shape)), nudged)
    if draw(st.booleans()) or actual_dtype == dtype:
        return actual, expected
    if np.can_cast(expected.dtype, actual_dtype):  # the same values in another dtype
        return expected.astype(actual_dtype), expected
    return draw(_values(actual_dtype, shape)), expected


@SETTINGS
@given(pair=_pairs(), tolerances=TOLERANCES, equal_nan=st.booleans(),
       check_dtype=st.booleans(), check_stride=st.booleans())
def test_drawn_tensors_as_torch(pair: tuple, tolerances: tuple | None, equal_nan: bool,
                                check_dtype: bool, check_stride: bool) -> None:
    rtol, atol = tolerances or (None, None)
    options = {"rtol": rtol, "atol": atol, "equal_nan": equal_nan, "check_dtype": check_dtype,
               "check_stride": check_stride}

    def case(L: Any) -> tuple[Any, Any, dict]:
        return L.tensor(pair[0]), L.tensor(pair[1]), options

    _same_outcome(_outcome(case, mt), _outcome(case, torch))


@SETTINGS
@given(actual=st.one_of(st.integers(-5, 5), st.floats(allow_subnormal=False), st.booleans()),
       expected=st.one_of(st.integers(-5, 5), st.floats(allow_subnormal=False), st.booleans()),
       tolerances=TOLERANCES, equal_nan=st.booleans(), check_dtype=st.booleans(),
       nest=st.sampled_from(["scalar", "list", "dict"]))
def test_drawn_scalars_as_torch(actual: Any, expected: Any, tolerances: tuple | None,
                                equal_nan: bool, check_dtype: bool, nest: str) -> None:
    # torch fails inside its own code there (a bool is an int, but its table has no bool)
    assume(isinstance(actual, bool) == isinstance(expected, bool))
    rtol, atol = tolerances or (None, None)
    options = {"rtol": rtol, "atol": atol, "equal_nan": equal_nan, "check_dtype": check_dtype}
    wrap = {"scalar": lambda x: x, "list": lambda x: [0, x], "dict": lambda x: {"k": x}}[nest]

    def case(L: Any) -> tuple[Any, Any, dict]:
        return wrap(actual), wrap(expected), options

    _same_outcome(_outcome(case, mt), _outcome(case, torch))



@st.composite
def _special_pairs(draw: Any) -> tuple[np.ndarray, np.ndarray]:
    """Two arrays of one shape and dtype, of zeros, ones, infinities and NaN (True for bool)."""
    shape = draw(shapes(max_dims=2))
    dtype = draw(st.sampled_from(["float16", "float32", "float64", "bool"]))
    pair = [draw(hnp.arrays(np.float64, shape, elements=st.sampled_from(SPECIALS)))
            for _ in range(2)]
    return pair[0].astype(dtype), pair[1].astype(dtype)


@SETTINGS
@given(pair=_special_pairs(), tolerances=TOLERANCES, equal_nan=st.booleans())
def test_isclose_of_bools_and_specials_as_torch(pair: tuple, tolerances: tuple | None,
                                                equal_nan: bool) -> None:
    """assert_close's comparison: bools with tolerances are measured as floats (torch's
    default dtype), and inf - inf or 0 * inf give not close without a numpy warning."""
    rtol, atol = tolerances or (0.0, 0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = mt.isclose(*(mt.tensor(a) for a in pair), rtol=rtol, atol=atol,
                         equal_nan=equal_nan)
    want = torch.isclose(*(torch.tensor(a) for a in pair), rtol=rtol, atol=atol,
                         equal_nan=equal_nan)
    np.testing.assert_array_equal(got.numpy(), want.numpy())
