"""torch.linalg.lstsq against live torch, for each driver: the solution (torch's bits and
layout for gels, gelsd and gelss where MKL is here; gelsy's within rounding, torch leaving its
pivoting array uninitialised), residuals, ranks and singular values as torch returns them, the
backend's pseudo-inverse without MKL, errors, node name and gradients of first and second
order."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minitorch as mt
from minitorch import _mkl
from tests.linalg_grads import assert_grads_match
from tests.oracle import assert_same, assert_same_error, numpy_of, raised_by

MKL = _mkl.library() is not None
RNG = np.random.default_rng(19)
DRIVERS = ["gels", "gelsy", "gelsd", "gelss"]


def _problem(draw: Any) -> tuple:
    batch = tuple(draw(st.lists(st.integers(1, 3), max_size=2)))
    m, n = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    driver = draw(st.sampled_from(DRIVERS))
    if driver == "gels":  # gels asks for a full-rank A
        m, n = max(m, n), min(m, n)
    a = RNG.standard_normal((*batch, m, n))
    if driver not in ("gels", "gelsy") and n > 1 and draw(st.booleans()):
        a[..., -1] = 0  # rank deficient, its last singular value far below any tolerance
        # (not for gelsy: torch's uninitialised pivots may put the zero column first, then
        # its rank is whatever that memory held, 1 of 4 once, and the next call another)
    vector = draw(st.booleans())
    b = RNG.standard_normal((*batch, m) if vector else (*batch, m, 2))
    dtype = draw(st.sampled_from(["float32", "float64"]))
    return a.astype(dtype), b.astype(dtype), driver


def _solved(L: Any, a: np.ndarray, b: np.ndarray, driver: str) -> Any:
    return L.linalg.lstsq(L.tensor(a), L.tensor(b), driver=driver)


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_lstsq_is_torchs(data: Any) -> None:
    a, b, driver = _problem(data.draw)
    got, want = _solved(mt, a, b, driver), _solved(torch, a, b, driver)
    for name in ("rank", "residuals", "singular_values", "solution"):
        g, w = getattr(got, name), getattr(want, name)
        assert tuple(g.shape) == tuple(w.shape) and str(g.dtype) == str(w.dtype), name
    assert_same(got.rank, want.rank)
    tolerance = 1e-4 if a.dtype == np.float32 else 1e-10
    for name in ("residuals", "singular_values", "solution"):
        np.testing.assert_allclose(numpy_of(getattr(got, name)), numpy_of(getattr(want, name)),
                                   rtol=tolerance, atol=tolerance, err_msg=name)
    if MKL and driver != "gelsy" and type(got.solution._data) is np.ndarray:
        for name in ("residuals", "singular_values", "solution"):
            np.testing.assert_array_equal(numpy_of(getattr(got, name)),
                                          numpy_of(getattr(want, name)), err_msg=name)
        wide = [s for s, n in zip(got.solution.stride(), got.solution.shape) if n > 1]
        assert wide == [s for s, n in zip(want.solution.stride(), want.solution.shape) if n > 1]


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_lstsq_without_mkl_is_torchs_within_rounding(data: Any) -> None:
    a, b, driver = _problem(data.draw)
    a, b = a.astype(np.float64), b.astype(np.float64)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_mkl, "lstsq", lambda *args: None)
        got = _solved(mt, a, b, driver)
    want = _solved(torch, a, b, driver)
    assert_same(got.rank, want.rank)
    for name in ("residuals", "singular_values", "solution"):
        np.testing.assert_allclose(numpy_of(getattr(got, name)), numpy_of(getattr(want, name)),
                                   rtol=1e-8, atol=1e-10, err_msg=name)


def test_printed_form() -> None:
    a, b = np.array([[2.0, 0.0], [0.0, 4.0], [0.0, 0.0]]), np.array([[2.0], [4.0], [1.0]])
    for driver in DRIVERS:
        assert repr(_solved(mt, a, b, driver)) == repr(_solved(torch, a, b, driver))


ERRORS = [
    lambda L: L.linalg.lstsq(L.randn(5, 3), L.randn(4, 2)),
    lambda L: L.linalg.lstsq(L.randn(5, 3), L.randn(5, 2), driver="foo"),
    lambda L: L.linalg.lstsq(L.randn(3), L.randn(5, 2)),
    lambda L: L.linalg.lstsq(L.randn(5, 3), L.randn(5, 2, dtype=L.float64)),
    lambda L: L.linalg.lstsq(L.ones(5, 3, dtype=L.int64), L.ones(5, 2, dtype=L.int64)),
    lambda L: L.linalg.lstsq(3, L.randn(5, 2)),
    lambda L: L.linalg.lstsq(L.randn(5, 2), 3),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_errors_are_torchs(case: int) -> None:
    assert_same_error(raised_by(ERRORS[case], mt), raised_by(ERRORS[case], torch))


@pytest.mark.parametrize("shape", [((2, 5, 3), (2, 5, 2)), ((3, 5), (3, 2)), ((4, 3), (4,))])
def test_gradients_first_and_second_order(shape: tuple) -> None:
    out = mt.linalg.lstsq(mt.randn(shape[0], requires_grad=True), mt.randn(shape[1])).solution
    assert out.grad_fn.name() == "LinalgLstsqBackward0"
    assert_grads_match([RNG.standard_normal(s) for s in shape],
                       lambda L, x, y: L.linalg.lstsq(x, y).solution)
