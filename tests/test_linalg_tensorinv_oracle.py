"""linalg.tensorinv against torch: values and gradients (float64 to rounding), the nodes
(ReshapeAliasBackward0 over LinalgInvExBackward0 over ViewBackward0), errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS, assert_same_error, node_chain, raised_by

import minitorch

SHAPES = [((3, 3), 1), ((4, 2, 2), 1), ((2, 2, 4), 2), ((2, 3, 6), 2), ((6, 2, 3), 1),
          ((2, 2, 2, 2), 2), ((1, 1), 1)]


def _run(L, data: np.ndarray, weights: np.ndarray, ind: int):
    A = L.tensor(data, requires_grad=True)
    B = L.linalg.tensorinv(A, ind=ind)
    (B * L.tensor(weights)).sum().backward()
    return B, A.grad, node_chain(B.grad_fn)


@SETTINGS
@given(st.sampled_from(SHAPES), st.data())
def test_tensorinv_as_torch(case, data) -> None:
    shape, ind = case
    n = int(np.prod(shape[:ind]))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**16)))
    matrix = rng.standard_normal((n, n)) + n * np.eye(n)  # well conditioned
    weights = rng.standard_normal(shape[ind:] + shape[:ind])
    got = _run(minitorch, matrix.reshape(shape), weights, ind)
    want = _run(torch, matrix.reshape(shape), weights, ind)
    for g, w in zip(got[:2], want[:2]):
        assert tuple(g.shape) == tuple(w.shape)
        np.testing.assert_allclose(g.detach().numpy(), w.detach().numpy(), rtol=1e-12,
                                   atol=1e-13)
    assert got[2] == want[2]


BAD = {
    "ind_zero": lambda L: L.linalg.tensorinv(L.eye(4).reshape(2, 2, 4), ind=0),
    "ind_negative": lambda L: L.linalg.tensorinv(L.eye(4).reshape(2, 2, 4), ind=-2),
    "ind_float": lambda L: L.linalg.tensorinv(L.eye(4), ind=1.0),
    "ind_too_big": lambda L: L.linalg.tensorinv(L.eye(4), ind=3),
    "scalar": lambda L: L.linalg.tensorinv(L.ones(()), ind=1),
    "not_square": lambda L: L.linalg.tensorinv(L.ones(2, 3, 6), ind=1),
    "singular": lambda L: L.linalg.tensorinv(L.zeros(2, 2, 4), ind=2),
    "integers": lambda L: L.linalg.tensorinv(L.ones(2, 2, dtype=L.int64), ind=1),
    "list": lambda L: L.linalg.tensorinv([[1.0]], ind=1),
}


@pytest.mark.parametrize("case", BAD)
def test_tensorinv_refusals_as_torch(case: str) -> None:
    want, got = raised_by(BAD[case], torch), raised_by(BAD[case], minitorch)
    assert want is not None
    assert_same_error(got, want)


def test_tensorinv_of_an_empty_matrix_as_torch() -> None:
    assert list(minitorch.linalg.tensorinv(minitorch.zeros(0, 0), 1).shape) == list(
        torch.linalg.tensorinv(torch.zeros(0, 0), 1).shape)
