"""Batches of matrices as torch takes them, against live torch: batches of two dims (each
matrix found at its own place), batches that broadcast between the operands of a solve (the
forward and both gradients summed back to each operand's shape), and ``linalg.lstsq``'s
own rules for the right-hand side's shape (a vector batch, or a matrix broadcast along its
leading dims) with torch's errors."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same_error, numpy_of, raised_by

RNG = np.random.default_rng(71)


def _spd(shape: tuple) -> np.ndarray:
    a = RNG.standard_normal(shape)
    return a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])


def _outcome(call: Callable, L: Any, arrays: tuple) -> Any:
    """``call``'s result and the gradients of a weighted sum of it, or what it raised."""
    inputs = [L.tensor(a, requires_grad=True) for a in arrays]

    def run(L: Any) -> tuple:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # torch.triangular_solve's deprecation
            out = call(L, *inputs)
        weights = np.random.default_rng(3).standard_normal(tuple(out.shape))
        (out * L.tensor(weights)).sum().backward()
        return (out, *(t.grad for t in inputs))

    error = raised_by(run, L)
    return error if error is not None else run(L)


def _assert_like_torch(call: Callable, arrays: tuple) -> None:
    want, got = _outcome(call, torch, arrays), _outcome(call, mt, arrays)
    if isinstance(want, Exception):
        assert_same_error(got if isinstance(got, Exception) else None, want)
        return
    assert not isinstance(got, Exception), f"minitorch raised {got!r}; torch gave a result"
    for name, g, w in zip(("result", "grad of A", "grad of B"), got, want):
        if w is None:  # an operand the call does not use
            assert g is None, name
            continue
        assert tuple(g.shape) == tuple(w.shape), f"{name}: shape {tuple(g.shape)}"
        np.testing.assert_allclose(numpy_of(g), numpy_of(w), rtol=1e-7, atol=1e-9,
                                   err_msg=name)


SOLVES = {
    "solve": lambda L, a, b: L.linalg.solve(a, b),
    "solve on the right": lambda L, a, b: L.linalg.solve(a, b.mT, left=False),
    "cholesky_solve": lambda L, a, b: L.cholesky_solve(b, L.linalg.cholesky(a)),
    "lu_solve": lambda L, a, b: L.linalg.lu_solve(*L.linalg.lu_factor(a), b),
    "lu_solve adjoint": lambda L, a, b: L.linalg.lu_solve(*L.linalg.lu_factor(a), b,
                                                          adjoint=True),
    "solve_triangular": lambda L, a, b: L.linalg.solve_triangular(L.linalg.cholesky(a), b,
                                                                  upper=False),
    "triangular_solve": lambda L, a, b: L.triangular_solve(b, L.linalg.cholesky(a),
                                                           upper=False)[0],
    "lstsq": lambda L, a, b: L.linalg.lstsq(a, b).solution,
}
BROADCASTS = [((2, 1, 3, 3), (1, 4, 3, 2)), ((3, 3), (2, 5, 3, 1)), ((2, 3, 3), (3, 4)),
              ((4, 1, 3, 3), (2, 3, 2)), ((1, 3, 3), (2, 2, 3, 2))]


@pytest.mark.parametrize("name", sorted(SOLVES))
@pytest.mark.parametrize("shapes", BROADCASTS, ids=str)
def test_broadcast_batches_solve_and_sum_gradients_back_as_torch(name: str, shapes: tuple
                                                                 ) -> None:
    """cholesky_solve's gradients had kept the broadcast batch (an error at the leaf)."""
    a_shape, b_shape = shapes
    _assert_like_torch(SOLVES[name], (_spd(a_shape), RNG.standard_normal(b_shape)))


DECOMPOSITIONS = {
    "qr": lambda L, a: sum(t.sum() for t in L.linalg.qr(a)),
    "geqrf then householder_product": lambda L, a: L.linalg.householder_product(*L.geqrf(a)),
    "svdvals": lambda L, a: L.linalg.svdvals(a),
    "pinv": lambda L, a: L.linalg.pinv(a),
    "lu": lambda L, a: sum(t.sum() for t in L.linalg.lu(a)),
    "lstsq": lambda L, a: L.linalg.lstsq(a, a[..., :2] * 1.5).solution,
    "matrix_norm nuc": lambda L, a: L.linalg.matrix_norm(a, "nuc"),
}


@pytest.mark.parametrize("name", sorted(DECOMPOSITIONS))
@pytest.mark.parametrize("shape", [(2, 3, 4, 3), (3, 1, 4, 4), (1, 2, 3, 4)], ids=str)
def test_batches_of_two_dims_decompose_each_matrix_as_torch(name: str, shape: tuple) -> None:
    """geqrf and orgqr had stepped through such a batch by its whole trailing shape (wrong
    matrices, then reads past the buffer)."""
    call = DECOMPOSITIONS[name]
    _assert_like_torch(lambda L, a, _: call(L, a), (RNG.standard_normal(shape), np.zeros(1)))


LSTSQ_A = [(3, 3), (2, 3, 3), (4, 1, 3, 3), (1, 3, 3), (3, 2), (3,), (0, 3, 3), (1, 2, 3, 3)]
LSTSQ_B = [(), (3,), (2,), (3, 1), (2, 3), (3, 4), (2, 3, 2), (2, 5, 3, 1), (1, 4, 3, 2),
           (1, 3), (4, 3), (5, 3, 2), (4, 1, 3), (0, 3), (1, 2, 3)]


@pytest.mark.parametrize("a_shape", LSTSQ_A, ids=str)
@pytest.mark.parametrize("b_shape", LSTSQ_B, ids=str)
def test_lstsq_reads_the_right_hand_sides_shape_as_torch(a_shape: tuple, b_shape: tuple
                                                         ) -> None:
    """A ``B`` of one dim fewer is a batch of vectors only when its shape is ``A``'s without
    the last dim; else a matrix, broadcast along its own leading dims (torch's rule, errors
    included: minitorch had taken every such ``B`` for vectors)."""
    _assert_like_torch(lambda L, a, b: L.linalg.lstsq(a, b).solution,
                       (RNG.standard_normal(a_shape), RNG.standard_normal(b_shape)))
