"""torch.linalg.solve_ex and inv_ex against live torch: the (result, info) pairs (torch's bits
and strides where MKL is here, a singular matrix's infs included), check_errors' errors, the
printed forms, node names and gradients of first and second order; and without MKL, the
backend's values within rounding and the same infos."""

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
RNG = np.random.default_rng(16)


def _singular_rows(a: np.ndarray, which: np.ndarray) -> np.ndarray:
    """``a`` with the matrices picked by the boolean batch mask ``which`` made exactly singular
    (a zero column)."""
    a = a.copy()
    a[which, :, -1] = 0
    return a


def _systems(draw: Any) -> tuple[np.ndarray, np.ndarray, bool, str]:
    n = draw(st.integers(0, 4))
    batch = tuple(draw(st.lists(st.integers(1, 3), max_size=2)))
    shape_b = draw(st.sampled_from(["vector", "matrix", "broadcast"]))
    left = draw(st.booleans())
    dtype = draw(st.sampled_from(["float32", "float64"]))
    a = RNG.standard_normal((*batch, n, n))
    if batch and draw(st.booleans()):
        a = _singular_rows(a, RNG.random(batch) < 0.5) if n else a
    if shape_b == "vector" and left:
        b = RNG.standard_normal((*batch, n))
    elif shape_b == "broadcast":
        b = RNG.standard_normal((2, *[1] * len(batch), n, n))
    else:
        b = RNG.standard_normal((*batch, n, 3) if left else (*batch, 3, n))
    return a.astype(dtype), b.astype(dtype), left, dtype


def _assert_bits(got: Any, want: torch.Tensor) -> None:
    """Same dtype, shape, strides (of the dims longer than 1, the others' being free) and bits
    (infs and NaNs where torch has them)."""
    assert str(got.dtype) == str(want.dtype) and tuple(got.shape) == tuple(want.shape)
    assert [s for s, n in zip(got.stride(), got.shape) if n > 1] == \
        [s for s, n in zip(want.stride(), want.shape) if n > 1]
    np.testing.assert_array_equal(numpy_of(got), numpy_of(want))


@pytest.mark.skipif(not MKL, reason="torch's bits come from MKL's getrf/getrs")
@settings(max_examples=60, deadline=None)
@given(st.data())
def test_solve_ex_is_torchs_bits_and_infos(data: Any) -> None:
    a, b, left, _ = _systems(data.draw)
    got = mt.linalg.solve_ex(mt.tensor(a), mt.tensor(b), left=left)
    want = torch.linalg.solve_ex(torch.tensor(a), torch.tensor(b), left=left)
    _assert_bits(got.result, want.result)
    assert_same(got.info, want.info)


@pytest.mark.skipif(not MKL, reason="torch's bits come from MKL's getrf/getrs")
@settings(max_examples=40, deadline=None)
@given(st.data())
def test_inv_ex_is_torchs_bits_and_infos(data: Any) -> None:
    a, _, _, _ = _systems(data.draw)
    got, want = mt.linalg.inv_ex(mt.tensor(a)), torch.linalg.inv_ex(torch.tensor(a))
    _assert_bits(got.inverse, want.inverse)
    assert_same(got.info, want.info)


def test_without_mkl_the_backend_solves_within_rounding_with_the_same_infos(monkeypatch) -> None:
    monkeypatch.setattr(_mkl, "lu_solve", lambda *args: None)
    a = _singular_rows(RNG.standard_normal((3, 4, 4)), np.array([False, True, False]))
    b = RNG.standard_normal((3, 4, 2))
    got = mt.linalg.solve_ex(mt.tensor(a), mt.tensor(b))
    want = torch.linalg.solve_ex(torch.tensor(a), torch.tensor(b))
    assert_same(got.info, want.info)
    good = numpy_of(want.info) == 0
    np.testing.assert_allclose(numpy_of(got.result)[good], numpy_of(want.result)[good],
                               rtol=1e-10, atol=1e-12)
    assert np.isnan(numpy_of(got.result)[~good]).all()  # no garbage passed off as a solution
    inverses = [L.linalg.inv_ex(L.tensor(a[good])).inverse for L in (mt, torch)]
    assert_same(*inverses)
    for fn in (lambda L: L.linalg.solve_ex(L.tensor(a), L.tensor(b), check_errors=True),
               lambda L: L.linalg.inv_ex(L.tensor(a), check_errors=True),
               lambda L: L.linalg.inv(L.tensor(a[1]))):
        assert_same_error(raised_by(fn, mt), raised_by(fn, torch))


def test_printed_forms_and_nodes() -> None:
    a = np.array([[2.0, 1.0], [1.0, 4.0]])
    for fn in (lambda L: L.linalg.solve_ex(L.tensor(a), L.ones(2, dtype=L.float64)),
               lambda L: L.linalg.inv_ex(L.tensor(a)),
               lambda L: L.linalg.inv_ex(L.eye(2, requires_grad=True))):
        assert repr(fn(mt)) == repr(fn(torch))
    nodes = [mt.linalg.inv_ex(mt.eye(2, requires_grad=True)).inverse.grad_fn.name(),
             mt.linalg.solve_ex(mt.eye(2, requires_grad=True), mt.ones(2)).result.grad_fn.name()]
    assert nodes == ["LinalgInvExBackward0", "LinalgSolveExBackward0"]


ERRORS = [
    lambda L: L.linalg.solve_ex(L.zeros(3, 2, 2), L.ones(3, 2), check_errors=True),
    lambda L: L.linalg.solve_ex(L.zeros(2, 2), L.ones(3, 2, 2), check_errors=True),
    lambda L: L.linalg.solve_ex(L.zeros(2, 2), L.ones(2, 2), left=False, check_errors=True),
    lambda L: L.linalg.solve(L.zeros(2, 1, 2, 2), L.ones(3, 2, 2)),
    lambda L: L.linalg.inv_ex(L.zeros(3, 2, 2), check_errors=True),
    lambda L: L.linalg.inv_ex(L.zeros(2, 2), check_errors=True),
    lambda L: L.linalg.inv_ex(L.zeros(2, 3)),
    lambda L: L.linalg.inv_ex(L.zeros(2, 2, dtype=L.int64)),
    lambda L: L.linalg.inv_ex(L.zeros(2)),
    lambda L: L.linalg.inv_ex(3),
    lambda L: L.linalg.inv_ex(L.eye(2), check_errors=1),
    lambda L: L.linalg.solve_ex(3, 4),
    lambda L: L.linalg.solve_ex(L.eye(2), 4),
    lambda L: L.linalg.solve_ex(L.eye(2), L.ones(2), check_errors=3),
    lambda L: L.linalg.solve_ex(L.eye(2), L.ones(2), left=None),
    lambda L: L.linalg.solve_ex(L.zeros(2, 3), L.ones(2)),
    lambda L: L.linalg.solve_ex(L.eye(2), L.ones(3)),
    lambda L: L.linalg.solve_ex(L.eye(2), L.ones(2, dtype=L.float64)),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_errors_are_torchs(case: int) -> None:
    assert_same_error(raised_by(ERRORS[case], mt), raised_by(ERRORS[case], torch))


@pytest.mark.parametrize("form", ["vector", "matrix", "right", "inv"])
def test_gradients_first_and_second_order(form: str) -> None:
    a = RNG.standard_normal((2, 3, 3)) + 3 * np.eye(3)
    if form == "inv":
        assert_grads_match([a], lambda L, x: L.linalg.inv_ex(x).inverse, 1e-9, 1e-11)
        return
    b = RNG.standard_normal({"vector": (2, 3), "matrix": (2, 3, 2), "right": (2, 2, 3)}[form])
    assert_grads_match([a, b], lambda L, x, y: L.linalg.solve_ex(x, y, left=form != "right")
                       .result, 1e-9, 1e-11)
