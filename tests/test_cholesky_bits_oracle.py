"""The Cholesky factor and MKL's triangular solve against live torch: torch's float bits and
layout (a column-major factor), the triangle that is read, torch's errors for a matrix that is
not positive-definite (its order, the batch element), and the same without MKL."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minitorch as mt
from minitorch import _mkl
from minitorch.ops import decompositions
from tests.oracle import assert_same, assert_same_error, numpy_of, raised_by

MKL = _mkl.library() is not None
RNG = np.random.default_rng(31)


def _spd(shape: tuple, dtype: Any) -> np.ndarray:
    """Symmetric positive-definite matrices of ``shape`` (..., n, n)."""
    a = RNG.standard_normal(shape)
    return (a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])).astype(dtype)


def _factors(array: np.ndarray, upper: bool) -> tuple:
    return tuple(L.linalg.cholesky(L.tensor(array), upper=upper) for L in (mt, torch))


@pytest.mark.skipif(not MKL, reason="torch's bits come from MKL's potrf")
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(1, 1), (3, 3), (17, 17), (40, 40), (2, 3, 6, 6)])
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_is_torchs_bits_and_layout(dtype: Any, shape: tuple, upper: bool) -> None:
    got, want = _factors(_spd(shape, dtype), upper)
    np.testing.assert_array_equal(numpy_of(got), numpy_of(want))
    assert got.stride() == want.stride()


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_reads_one_triangle_as_torch(upper: bool) -> None:
    a = _spd((5, 5), np.float64)
    a[np.triu_indices(5, 1) if not upper else np.tril_indices(5, -1)] = 1e3  # never read
    got, want = _factors(a, upper)
    assert_same(got, want)


@pytest.mark.parametrize("array", [
    [[1.0, 2.0], [2.0, 1.0]],
    [[1.0, 0.0], [5.0, 1.0]],  # its lower triangle is not positive-definite, its determinant is
    [[float("nan"), 0.0], [0.0, 1.0]],
    [[1.0, 0.0], [0.0, float("nan")]],
    [[4.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
    [[[1.0, 0.0], [0.0, 1.0]], [[1.0, 2.0], [2.0, 1.0]]],
    [[[0.0, 0.0], [0.0, 1.0]], [[1.0, 2.0], [2.0, 1.0]]],
])
@pytest.mark.parametrize("without_mkl", [False, True])
def test_not_positive_definite_raises_torchs_error(array: list, without_mkl: bool,
                                                   monkeypatch: Any) -> None:
    if without_mkl:
        monkeypatch.setattr(_mkl, "cholesky", lambda *args: None)
    for fn in (lambda L: L.linalg.cholesky(L.tensor(array)),
               lambda L: L.linalg.cholesky(L.tensor(array), upper=True)):
        want = raised_by(fn, torch)
        if want is None:  # the triangle read is positive-definite
            assert_same(fn(mt), fn(torch))
        else:
            assert_same_error(raised_by(fn, mt), want)


@pytest.mark.parametrize("shape", [(4, 4), (3, 5, 5)])
@pytest.mark.parametrize("upper", [False, True])
def test_without_mkl_the_factor_is_torchs_within_rounding_and_layout(
        shape: tuple, upper: bool, monkeypatch: Any) -> None:
    monkeypatch.setattr(_mkl, "cholesky", lambda *args: None)
    got, want = _factors(_spd(shape, np.float64), upper)
    assert_same(got, want)
    assert got.stride() == want.stride()


def test_the_column_by_column_factor_finds_potrfs_order() -> None:
    a = np.stack([np.diag([1.0, 2.0, -1.0, 3.0]), _spd((4, 4), np.float64)])
    _, info = decompositions._factor(np, a)
    assert info.tolist() == [3, 0]


@st.composite
def _systems(draw: Any) -> tuple:
    """A triangular system in any of the layouts torch meets: A and B row- or column-major or
    strided, a broadcast batch, either side, either triangle."""
    n, k = draw(st.integers(1, 6)), draw(st.integers(1, 4))
    batch = draw(st.sampled_from([(), (2,), (3, 1)]))
    left, upper, unit = draw(st.booleans()), draw(st.booleans()), draw(st.booleans())
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    big = RNG.standard_normal((*batch, 2 * n, 2 * n)) + 4 * np.eye(2 * n)
    layout = draw(st.sampled_from(["rows", "columns", "strided", "broadcast"]))
    a = {"rows": big[..., :n, :n].copy(), "columns": np.swapaxes(big[..., :n, :n].copy(), -1, -2),
         "strided": big[..., ::2, ::2],
         "broadcast": np.broadcast_to(big[..., :n, :n].reshape(-1, n, n)[0], (*batch, n, n))}
    b = RNG.standard_normal((*batch, n, k) if left else (*batch, k, n))
    if draw(st.booleans()):
        b = np.swapaxes(np.swapaxes(b, -1, -2).copy(), -1, -2)
    return a[layout].astype(dtype), b.astype(dtype), upper, left, unit


def _torch_twin(array: np.ndarray) -> torch.Tensor:
    """A torch tensor with the array's values and strides (a broadcast dim stays one)."""
    strides = tuple(s // array.itemsize for s in array.strides)
    base = torch.from_numpy(np.ascontiguousarray(array).ravel().copy())
    if all(s >= 0 for s in strides) and array.size:
        span = 1 + sum((n - 1) * s for n, s in zip(array.shape, strides))
        storage = torch.zeros(span, dtype=base.dtype)
        torch.as_strided(storage, array.shape, strides).copy_(torch.from_numpy(array.copy()))
        return torch.as_strided(storage, array.shape, strides)
    return base.reshape(array.shape)


@pytest.mark.skipif(not MKL, reason="torch's bits come from MKL's trsm")
@settings(max_examples=300, deadline=None)
@given(_systems())
def test_mkl_triangular_solve_is_torchs_bits_and_layout(system: tuple) -> None:
    a, b, upper, left, unit = system
    want = torch.linalg.solve_triangular(_torch_twin(a), _torch_twin(b), upper=upper,
                                         left=left, unitriangular=unit).numpy()
    got = _mkl.triangular_solve(a, b, upper, left, unit)
    np.testing.assert_array_equal(got, want)
    assert got.strides == want.strides


@pytest.mark.skipif(not MKL, reason="torch's bits come from MKL's potrf and trsm")
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_gradient_is_torchs_bits(dtype: Any, upper: bool) -> None:
    """torch's cholesky_backward solves with the triangular factor (trsm), not by LU."""
    a = _spd((12, 12), dtype)
    weights = RNG.standard_normal((12, 12)).astype(dtype)
    grads = []
    for L in (mt, torch):
        k = L.tensor(a, requires_grad=True)
        (L.linalg.cholesky(k, upper=upper) * L.tensor(weights)).sum().backward()
        grads.append(k.grad)
    np.testing.assert_array_equal(numpy_of(grads[0]), numpy_of(grads[1]))
    assert grads[0].stride() == grads[1].stride()


@pytest.mark.skipif(not MKL, reason="torch's bits come from MKL")
def test_a_gradient_keeps_torchs_layout_through_pointwise_backwards() -> None:
    """A column-major gradient (from the factor's backward) through exp and a product with a
    0-d float64 scale: each backward product is laid out as torch's, so the sum that reduces
    it to the scale's shape runs in torch's order and gives its bits."""
    x = RNG.standard_normal((30, 30)).astype(np.float32)
    grads = []
    for L in (mt, torch):
        scale = L.tensor(0.0, dtype=L.float64, requires_grad=True)
        q = L.tensor(-0.5 * x * x) / L.exp(scale)
        k = L.exp(scale) * L.exp(q) + 30 * L.eye(30)
        L.log(L.diagonal(L.linalg.cholesky(k))).sum().backward()
        grads.append(scale.grad)
    assert grads[0].item() == grads[1].item()
