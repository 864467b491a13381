"""linalg.solve_triangular and linalg.cholesky_ex against live torch: values, first and second
order gradients, node names, printed forms (cholesky_ex's partial factor where a matrix is not
positive-definite) and torch's errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import SETTINGS
from test_bad_input_fuzz21b_oracle import assert_as_torch
from test_linalg_decompositions_oracle import _assert_grads_match

import minitorch as mt

RNG = np.random.default_rng(16)


def _triangular(shape: tuple, upper: bool) -> np.ndarray:
    """A well-conditioned matrix (only its triangle matters to the solve)."""
    a = RNG.standard_normal(shape)
    return a + 3 * np.eye(shape[-1]) * np.sign(np.diagonal(a, axis1=-2, axis2=-1))[..., None]


@settings(SETTINGS, max_examples=25)
@given(st.booleans(), st.booleans(), st.booleans(), st.sampled_from(
    [((3, 3), (3, 2)), ((2, 3, 3), (3, 1)), ((3, 3), (4, 1, 3, 2)), ((1, 1), (1, 4))]))
def test_values_and_gradients_of_every_form(upper: bool, left: bool, unit: bool,
                                            shapes: tuple) -> None:
    a_shape, b_shape = shapes
    if not left:
        b_shape = (*b_shape[:-2], b_shape[-1], b_shape[-2])
    a, b = _triangular(a_shape, upper), RNG.standard_normal(b_shape)
    _assert_grads_match([a, b], lambda L, x, y: L.linalg.solve_triangular(
        x, y, upper=upper, left=left, unitriangular=unit))


def test_node_printed_form_and_gradcheck() -> None:
    assert_as_torch("A = L.tensor([[2., 5.], [1., 3.]], requires_grad=True); "
                    "R = L.linalg.solve_triangular(A, L.tensor([[1.], [2.]]), upper=False); "
                    "R = (R, repr(R), R.grad_fn.name(), L.autograd.grad(R.sum(), A))")
    a = mt.tensor(_triangular((3, 3), False), requires_grad=True)
    b = mt.tensor(RNG.standard_normal((3, 2)), requires_grad=True)
    assert mt.autograd.gradgradcheck(
        lambda x, y: mt.linalg.solve_triangular(x, y, upper=False), (a, b))


@pytest.mark.parametrize("program", [
    "R = L.linalg.solve_triangular(L.tensor([[0., 1.], [0., 1.]]), L.ones(2, 1), upper=True)",
    "R = L.linalg.solve_triangular(L.eye(2), L.ones(2, 1, dtype=L.float64), upper=True)",
    "R = L.linalg.solve_triangular(L.eye(2).expand(3, 2, 2), L.ones(4, 1, 2, 1), upper=True)",
    "R = L.linalg.solve_triangular(L.zeros(0, 0), L.ones(0, 2), upper=True)",
    "R = L.linalg.solve_triangular(L.eye(2), L.ones(2, 1))",
    "R = L.linalg.solve_triangular(L.eye(2), L.ones(2, 1), upper=1)",
    "R = L.linalg.solve_triangular(L.eye(2), [[1.], [2.]], upper=True)",
    "R = L.linalg.solve_triangular(L.ones(2), L.ones(2, 1), upper=True)",
    "R = L.linalg.solve_triangular(L.ones(2, 2), L.ones(2), upper=True)",
    "R = L.linalg.solve_triangular(L.ones(2, 3), L.ones(2, 1), upper=True)",
    "R = L.linalg.solve_triangular(L.ones(2, 2), L.ones(3, 1), upper=True)",
    "R = L.linalg.solve_triangular(L.ones(2, 2), L.ones(2, 1), upper=True, left=False)",
    "R = L.linalg.solve_triangular(L.ones(2, 2, dtype=L.int64), L.ones(2, 1, dtype=L.int64), "
    "upper=True)",
    "R = L.linalg.solve_triangular(L.eye(2).expand(3, 2, 2), L.ones(2, 2, 1), upper=True)",
])
def test_solve_triangular_edges_and_errors(program: str) -> None:
    assert_as_torch(program)


@pytest.mark.parametrize("matrix", [
    "[[4., 2.], [2., 5.]]", "[[4., 2., 1.], [2., -5., 3.], [1., 3., 7.]]",
    "[[[4., 2.], [2., -5.]], [[-1., 0.], [0., 1.]]]", "[[float('nan'), 2.], [2., -5.]]",
    "[[1., 2., 3.], [2., 1., 0.], [3., 0., 1.]]",
])
@pytest.mark.parametrize("kwargs", ["", ", upper=True", ", check_errors=True"])
def test_cholesky_ex_factor_info_and_errors(matrix: str, kwargs: str) -> None:
    assert_as_torch(f"R = L.linalg.cholesky_ex(L.tensor({matrix}){kwargs}); R = (R, repr(R))")


@pytest.mark.parametrize("program", [
    "R = L.linalg.cholesky_ex(L.zeros(0, 2, 2))",
    "R = L.linalg.cholesky_ex(L.ones(2))",
    "R = L.linalg.cholesky_ex(L.ones(2, 3))",
    "R = L.linalg.cholesky_ex(L.ones(2, 2, dtype=L.int64))",
    "R = L.linalg.cholesky_ex(L.eye(2), check_errors=1)",
    "R = L.linalg.cholesky(L.tensor([[[4., 2.], [2., 5.]], [[-1., 0.], [0., 1.]]]))",
    "A = L.tensor([[4., 2.], [2., 5.]], requires_grad=True); R = L.linalg.cholesky_ex(A); "
    "R = (R, R.L.grad_fn.name(), R.L.grad_fn._saved_L, L.autograd.grad(R.L.sum(), A))",
])
def test_cholesky_ex_edges(program: str) -> None:
    assert_as_torch(program)


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_ex_gradients(upper: bool) -> None:
    m = RNG.standard_normal((2, 3, 3))
    spd = m @ np.swapaxes(m, -1, -2) + 3 * np.eye(3)
    _assert_grads_match([spd], lambda L, x: L.linalg.cholesky_ex(x, upper=upper).L)
