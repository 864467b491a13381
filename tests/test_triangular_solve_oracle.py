"""The deprecated torch.triangular_solve against live torch: (solution, cloned_coefficient)
with torch's bits and layouts (MKL's trsm), the backend's solve within rounding, its one
deprecation warning, errors, node name and gradients of first and second order."""

from __future__ import annotations

import subprocess
import sys
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
RNG = np.random.default_rng(21)
pytestmark = pytest.mark.filterwarnings("ignore:torch.triangular_solve is deprecated")


def _system(draw: Any) -> tuple:
    n = draw(st.integers(0, 4))
    batch_a = tuple(draw(st.lists(st.integers(1, 3), max_size=2)))
    batch_b = draw(st.sampled_from([batch_a, (2, *[1] * len(batch_a)), ()]))
    dtype = draw(st.sampled_from(["float32", "float64"]))
    a = (RNG.standard_normal((*batch_a, n, n)) + 3 * np.eye(n)).astype(dtype)
    b = RNG.standard_normal((*batch_b, n, draw(st.integers(1, 3)))).astype(dtype)
    flags = {name: draw(st.booleans()) for name in ("upper", "transpose", "unitriangular")}
    return a, b, flags


def _solved(L: Any, a: np.ndarray, b: np.ndarray, flags: dict) -> Any:
    return L.triangular_solve(L.tensor(b), L.tensor(a), **flags)


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_values_layouts_and_bits(data: Any) -> None:
    a, b, flags = _system(data.draw)
    got, want = _solved(mt, a, b, flags), _solved(torch, a, b, flags)
    for g, w in zip(got, want):
        assert_same(g, w)
        if MKL and type(g._data) is np.ndarray:
            np.testing.assert_array_equal(numpy_of(g), numpy_of(w))
            assert [s for s, n in zip(g.stride(), g.shape) if n > 1] == \
                [s for s, n in zip(w.stride(), w.shape) if n > 1]


def test_without_mkl_the_backend_solves_within_rounding(monkeypatch) -> None:
    monkeypatch.setattr(_mkl, "triangular_solve", lambda *args: None)
    a, b = RNG.standard_normal((2, 4, 4)) + 3 * np.eye(4), RNG.standard_normal((2, 4, 3))
    for upper in (True, False):
        for transpose in (True, False):
            flags = {"upper": upper, "transpose": transpose, "unitriangular": upper}
            for g, w in zip(_solved(mt, a, b, flags), _solved(torch, a, b, flags)):
                assert_same(g, w)


def test_printed_form() -> None:
    a, b = np.array([[2.0, 1.0], [0.0, 4.0]]), np.array([[1.0], [2.0]])
    assert repr(_solved(mt, a, b, {})) == repr(_solved(torch, a, b, {}))


def _warnings_of_two_calls(module: str) -> list:
    """The messages of the warnings that two calls in a fresh process of ``module`` give."""
    program = (f"import warnings, {module} as L\n"
               "with warnings.catch_warnings(record=True) as seen:\n"
               "    warnings.simplefilter('always')\n"
               "    for _ in range(2): L.triangular_solve(L.ones(2, 1), L.eye(2))\n"
               "print(repr([str(w.message).split(' (Triggered')[0] for w in seen]))")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          check=True)
    return eval(done.stdout)


def test_the_deprecation_warning_is_torchs_and_comes_once() -> None:
    got, want = _warnings_of_two_calls("minitorch"), _warnings_of_two_calls("torch")
    assert got == want and len(want) == 1


ERRORS = [
    lambda L: L.triangular_solve(L.randn(3), L.eye(3)),
    lambda L: L.triangular_solve(L.randn(3, 2), L.eye(3)[:2]),
    lambda L: L.triangular_solve(L.randn(2, 2), L.eye(3)),
    lambda L: L.triangular_solve(L.randn(3, 2, dtype=L.float64), L.eye(3)),
    lambda L: L.triangular_solve(L.randn(3, 2), L.eye(3), upper=1),
    lambda L: L.triangular_solve(3, L.eye(3)),
    lambda L: L.triangular_solve(L.ones(3, 2, dtype=L.int64), L.eye(3, dtype=L.int64)),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_errors_are_torchs(case: int) -> None:
    assert_same_error(raised_by(ERRORS[case], mt), raised_by(ERRORS[case], torch))


@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("transpose", [True, False])
@pytest.mark.parametrize("unitriangular", [True, False])
def test_gradients_first_and_second_order(upper: bool, transpose: bool,
                                          unitriangular: bool) -> None:
    a = RNG.standard_normal((2, 3, 3)) + 3 * np.eye(3)
    b = RNG.standard_normal((3, 2))
    flags = {"upper": upper, "transpose": transpose, "unitriangular": unitriangular}
    node = mt.triangular_solve(mt.tensor(b), mt.tensor(a, requires_grad=True), **flags)
    assert node.solution.grad_fn.name() == "TriangularSolveBackward0"
    assert_grads_match([b, a], lambda L, y, x: tuple(L.triangular_solve(y, x, **flags)))
