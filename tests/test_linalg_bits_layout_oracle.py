"""torch.linalg's results as torch's CPU kernels give them, against live torch: the float bits
where torch calls LAPACK (through MKL, as minitorch does when MKL is installed) and the
strides of the results (LAPACK's are column-major), with and without MKL."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt
from minitorch import _mkl
from tests.oracle import assert_same, assert_same_error, numpy_of, raised_by

MKL = _mkl.library() is not None
RNG = np.random.default_rng(47)


def _matrix(shape: tuple, dtype: Any) -> np.ndarray:
    return RNG.standard_normal(shape).astype(dtype)


def _spd(shape: tuple, dtype: Any) -> np.ndarray:
    a = RNG.standard_normal(shape)
    return (a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])).astype(dtype)


def _cholesky(L: Any, a: Any) -> Any:
    return L.linalg.cholesky(a)


CALLS = {
    "slogdet": (_matrix, lambda L, a: tuple(L.linalg.slogdet(a))),
    "logdet": (_spd, lambda L, a: L.logdet(a)),
    "det": (_matrix, lambda L, a: L.linalg.det(a)),
    "svdvals": (_matrix, lambda L, a: L.linalg.svdvals(a)),
    "matrix_norm 2": (_matrix, lambda L, a: L.linalg.matrix_norm(a, 2)),
    "matrix_norm nuc": (_matrix, lambda L, a: L.linalg.matrix_norm(a, "nuc")),
    "pinv": (_matrix, lambda L, a: L.linalg.pinv(a)),
    "svd": (_matrix, lambda L, a: tuple(L.linalg.svd(a))),
    "svd reduced": (_matrix, lambda L, a: tuple(L.linalg.svd(a, full_matrices=False))),
    "old svd without vectors": (_matrix, lambda L, a: L.svd(a, compute_uv=False)[1]),
    "qr": (_matrix, lambda L, a: tuple(L.linalg.qr(a))),
    "qr complete": (_matrix, lambda L, a: tuple(L.linalg.qr(a, mode="complete"))),
    "qr of a wide matrix": (_matrix, lambda L, a: tuple(L.linalg.qr(a[..., :2, :]))),
    "qr complete of a tall one": (
        _matrix, lambda L, a: tuple(L.linalg.qr(a[..., :, :2], mode="complete"))),
    "geqrf": (_matrix, lambda L, a: tuple(L.geqrf(a))),
    "householder_product": (_matrix, lambda L, a: L.linalg.householder_product(*L.geqrf(a))),
    "eigh": (_spd, lambda L, a: tuple(L.linalg.eigh(a))),
    "cholesky_solve": (_spd, lambda L, a: L.cholesky_solve(a[..., :2] * 1, _cholesky(L, a))),
    "cholesky_inverse": (_spd, lambda L, a: L.cholesky_inverse(_cholesky(L, a))),
    "cholesky_inverse upper": (
        _spd, lambda L, a: L.cholesky_inverse(L.linalg.cholesky(a, upper=True), upper=True)),
    "cholesky": (_spd, _cholesky),
    "cholesky upper": (_spd, lambda L, a: L.linalg.cholesky(a, upper=True)),
    "lu_factor": (_matrix, lambda L, a: tuple(L.linalg.lu_factor(a))),
    "lu_solve": (_matrix, lambda L, a: L.linalg.lu_solve(*L.linalg.lu_factor(a), a[..., :2] * 1)),
    "solve": (_spd, lambda L, a: L.linalg.solve(a, a[..., :1] * 1)),
    "solve_triangular": (
        _spd, lambda L, a: L.linalg.solve_triangular(_cholesky(L, a), a, upper=False)),
    "lstsq gelsd": (_matrix, lambda L, a: tuple(L.linalg.lstsq(a, a[..., :2] * 1,
                                                                driver="gelsd"))[:3]),
}


def _outputs(result: Any) -> tuple:
    return result if isinstance(result, tuple) else (result,)


@pytest.mark.skipif(not MKL, reason="torch's bits come from MKL's LAPACK")
@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("shape", [(3, 3), (8, 8), (30, 30), (2, 5, 5), (2, 3, 4, 4),
                                   (3, 1, 4, 4)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_values_are_torchs_bits_and_strides(name: str, shape: tuple, dtype: Any) -> None:
    """Batches of two dims too: each matrix is found at its own place in the batch buffer."""
    make, call = CALLS[name]
    array = make(shape, dtype)
    got, want = (_outputs(call(L, L.tensor(array))) for L in (mt, torch))
    for g, w in zip(got, want):
        np.testing.assert_array_equal(numpy_of(g), numpy_of(w), err_msg=name)
        assert g.stride() == w.stride(), name


@pytest.mark.parametrize("name", sorted(CALLS))
def test_without_mkl_values_within_rounding_and_torchs_strides(name: str, monkeypatch: Any
                                                             ) -> None:
    for kernel in ("svd", "lu_diagonals", "cholesky", "cholesky_solve", "cholesky_inverse",
                   "symmetric_eigen", "geqrf", "orgqr", "lu_solve"):
        monkeypatch.setattr(_mkl, kernel, lambda *args, **kwargs: None)
    make, call = CALLS[name]
    array = make((4, 4), np.float64)
    got, want = (_outputs(call(L, L.tensor(array))) for L in (mt, torch))
    for g, w in zip(got, want):
        if name.startswith(("svd", "eigh", "qr")):  # vectors are unique up to sign
            g, w = g.abs(), w.abs()
        assert_same(g, w, name)
        assert g.stride() == w.stride(), name


def test_svdvals_with_a_gradient_is_the_full_svds() -> None:
    """torch asks LAPACK for the vectors too when a gradient is wanted (other rounding)."""
    array = _matrix((6, 6), np.float32)
    got, want = (L.tensor(array, requires_grad=True) for L in (mt, torch))
    values = [L.linalg.svdvals(t) for L, t in ((mt, got), (torch, want))]
    np.testing.assert_array_equal(numpy_of(values[0]), numpy_of(values[1]))
    assert values[0].grad_fn.name() == values[1].grad_fn.name()
    for v in values:
        v.sum().backward()
    np.testing.assert_allclose(numpy_of(got.grad), numpy_of(want.grad), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("call", [
    lambda L: L.cholesky_solve(L.ones(2, 3, 2), L.eye(3).expand(3, 3, 3)),
    lambda L: L.cholesky_solve(L.ones(4, 2, 3, 2), L.eye(3).expand(3, 1, 3, 3)),
    lambda L: L.linalg.solve(L.eye(3).expand(3, 3, 3), L.ones(2, 3, 2)),
])
def test_batches_that_do_not_broadcast_get_torchs_error(call: Any) -> None:
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


def test_cholesky_solve_broadcasts_batches_as_torch() -> None:
    a, b = _spd((3, 1, 4, 4), np.float64), _matrix((2, 4, 2), np.float64)
    got, want = (L.cholesky_solve(L.tensor(b), L.linalg.cholesky(L.tensor(a)))
                 for L in (mt, torch))
    assert_same(got, want)


@pytest.mark.parametrize("call", [
    lambda L, a, b: L.linalg.solve(a, b), lambda L, a, b: L.linalg.solve(a, b[..., :1]),
    lambda L, a, b: L.linalg.solve_triangular(a.triu(), b[..., :1], upper=True),
    lambda L, a, b: L.cholesky_solve(b[..., :1], L.linalg.cholesky(a @ a.mT + 4 * L.eye(4))),
    lambda L, a, b: L.linalg.svd(a[..., :1])[0], lambda L, a, b: L.linalg.qr(a[..., :1])[0],
])
def test_a_single_column_result_has_torchs_strides(call: Any) -> None:
    """torch strides a column-major (n, 1) result (1, n); a later product reads those strides
    to choose its BLAS call, so they show in its bits."""
    a, b = _matrix((4, 4), np.float32) + 4 * np.eye(4, dtype=np.float32), _matrix((4, 2),
                                                                                 np.float32)
    got, want = (call(L, L.tensor(a), L.tensor(b)) for L in (mt, torch))
    assert got.stride() == want.stride()
    products = [numpy_of(L.tensor(b[:, :1]).T @ r) for L, r in ((mt, got), (torch, want))]
    if MKL:
        np.testing.assert_array_equal(products[0], products[1])


@pytest.mark.parametrize("call", [
    lambda L, a: L.linalg.matrix_norm(a, ord=2),
    lambda L, a: L.linalg.svdvals(a).amax(-1),
    lambda L, a: L.linalg.svd(a, full_matrices=False).S.sum(-1),
    lambda L, a: L.linalg.eigh(a).eigenvalues.sum(-1),
    lambda L, a: L.linalg.eigvalsh(a).amax(-1),
])
def test_repeated_values_of_an_unused_factor_give_torchs_finite_gradient(call: Any) -> None:
    """The gradient of singular values or eigenvalues alone, where they repeat: torch's
    backward gets no gradient for the unused vectors, so it never divides by their gaps (a
    zero gradient in their place gave 0 / 0 = nan)."""
    grads = []
    for L in (mt, torch):
        a = L.eye(3, dtype=L.float64).expand(2, 3, 3).requires_grad_()
        call(L, a).sum().backward()
        grads.append(a.grad)
    assert_same(grads[0], grads[1])
