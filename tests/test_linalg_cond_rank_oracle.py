"""torch.linalg.cond (every ord) and matrix_rank (atol, rtol, tol, hermitian) against live
torch: values (singular and empty matrices included), dtypes, node names, gradients of first
and second order, and errors."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import assert_same, assert_same_error, numpy_of, raised_by

RNG = np.random.default_rng(18)
ORDS = [None, 2, -2, "fro", "nuc", math.inf, -math.inf, 1, -1]


@pytest.mark.parametrize("p", ORDS)
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_cond_values(p: Any, data: Any) -> None:
    square = p not in (None, 2, -2) or data.draw(st.booleans())
    batch = tuple(data.draw(st.lists(st.integers(0, 2), max_size=2)))
    m = data.draw(st.integers(0, 4))
    n = m if square else data.draw(st.integers(0, 4))
    a = RNG.standard_normal((*batch, m, n))
    if m and n and data.draw(st.booleans()):
        a[..., 0] = 0  # singular
    a = a.astype(data.draw(st.sampled_from(["float32", "float64"])))
    got, want = mt.linalg.cond(mt.tensor(a), p), torch.linalg.cond(torch.tensor(a), p)
    assert str(got.dtype) == str(want.dtype) and tuple(got.shape) == tuple(want.shape)
    np.testing.assert_allclose(numpy_of(got), numpy_of(want), rtol=1e-4)


@pytest.mark.parametrize("p", [None, 2, -2, "nuc"])
def test_cond_nodes_and_gradients(p: Any) -> None:
    a = RNG.standard_normal((2, 3, 3)) + 2 * np.eye(3)

    def run(L: Any) -> list:
        x = L.tensor(a, requires_grad=True)
        out = L.linalg.cond(x, p)
        (grad,) = L.autograd.grad((out * L.tensor([1.0, -0.5])).sum(), [x], create_graph=True)
        (second,) = L.autograd.grad((grad * grad).sum(), [x])
        return [out.grad_fn.name(), numpy_of(out), numpy_of(grad), numpy_of(second)]

    got, want = run(mt), run(torch)
    assert got[0] == want[0]
    for g, w in zip(got[1:], want[1:]):
        np.testing.assert_allclose(g, w, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("p", ["fro", math.inf, -math.inf, 1, -1])
def test_cond_by_norms_has_torchs_node_and_no_gradient(p: Any) -> None:
    """torch fills its inverse in place, which its own backward then refuses."""
    a = RNG.standard_normal((2, 3, 3))
    outs = [L.linalg.cond(L.tensor(a, requires_grad=True), p) for L in (mt, torch)]
    assert outs[0].grad_fn.name() == outs[1].grad_fn.name() == "NanToNumBackward0"
    got, want = (raised_by(lambda _, out=out: out.sum().backward(), None) for out in outs)
    assert_same_error(got, want)


RANK_ARGS = [{}, {"atol": 1.0}, {"rtol": 0.5}, {"atol": 1.0, "rtol": 0.5}, {"atol": -1.0},
             {"tol": 0.5}, {"atol": 0.0}, {"tensor_atol": [0.5, 2.0]},
             {"tensor_rtol": [0.1, 0.9]}]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_matrix_rank_hermitian(dtype: str) -> None:  # eigvalsh's backend is numpy's alone
    _check_rank({"hermitian": True}, dtype)


@pytest.mark.parametrize("case", range(len(RANK_ARGS)))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_matrix_rank(case: int, dtype: str) -> None:
    _check_rank(RANK_ARGS[case], dtype)


def _check_rank(args: dict, dtype: str) -> None:
    a = RNG.standard_normal((2, 4, 3))
    a[0, :, 2] = a[0, :, 0] + a[0, :, 1]  # rank 2 within rounding
    if args.get("hermitian"):
        a = a[..., :3, :] @ a[..., :3, :].swapaxes(-1, -2)
    a = a.astype(dtype)

    def run(L: Any) -> Any:
        kwargs = dict(args)
        for name in ("atol", "rtol"):
            if f"tensor_{name}" in kwargs:
                kwargs[name] = L.tensor(kwargs.pop(f"tensor_{name}"))
        tol = kwargs.pop("tol", None)
        return L.linalg.matrix_rank(L.tensor(a), tol, **kwargs) if tol is not None else \
            L.linalg.matrix_rank(L.tensor(a), **kwargs)

    assert_same(run(mt), run(torch))


@pytest.mark.parametrize("shape", [(2, 0, 3), (2, 0, 0), (3, 0)])
def test_matrix_rank_of_empty_matrices(shape: tuple) -> None:
    got, want = (L.linalg.matrix_rank(L.zeros(shape)) for L in (mt, torch))
    assert_same(got, want)


ERRORS = [
    lambda L: L.linalg.cond(L.randn(2, 3), 1),
    lambda L: L.linalg.cond(L.randn(2, 3), "fro"),
    lambda L: L.linalg.cond(L.randn(2, 3), "foo"),
    lambda L: L.linalg.cond(L.randn(3), 1),
    lambda L: L.linalg.cond(L.randn(3)),
    lambda L: L.linalg.cond(L.randn(3, 3), 3),
    lambda L: L.linalg.cond(L.randn(3, 3), "foo"),
    lambda L: L.linalg.cond(L.ones(3, 3, dtype=L.int64)),
    lambda L: L.linalg.cond(3),
    lambda L: L.linalg.matrix_rank(L.ones(3)),
    lambda L: L.linalg.matrix_rank(L.ones(2, 3), hermitian=True),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_errors_are_torchs(case: int) -> None:
    assert_same_error(raised_by(ERRORS[case], mt), raised_by(ERRORS[case], torch))
