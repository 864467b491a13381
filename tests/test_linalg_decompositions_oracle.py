"""torch.dist, matrix_exp, linalg.eigh/eigvalsh, geqrf, linalg.householder_product and
linalg.qr, and nn.utils.parametrizations.orthogonal built on them, against live torch: values
(torch's float32 bits where the forward is torch's algorithm or its LAPACK call through MKL),
gradients of first and second order, node names, printed forms and errors."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt
from minitorch import _mkl
from tests.oracle import assert_same, assert_same_error, numpy_of, raised_by

RNG = np.random.default_rng(20)
MKL = _mkl.library() is not None


def _both(arrays: list, fn: Any, requires_grad: bool = True) -> tuple:
    """``fn(L, *tensors)`` in each library, with tensors of the same arrays."""
    out = []
    for L in (mt, torch):
        tensors = [L.tensor(a, requires_grad=requires_grad) for a in arrays]
        out.append((tensors, fn(L, *tensors)))
    return out


def _assert_grads_match(arrays: list, fn: Any, second: bool = True) -> None:
    """First (and second) derivatives of ``<w, fn(x)>`` in both libraries agree."""
    results = []
    for (xs, out) in _both(arrays, fn):
        outs = out if isinstance(out, tuple) else (out,)
        weights = [np.linspace(-1, 1, o.numel()).reshape(tuple(o.shape)) for o in outs]
        L = mt if isinstance(xs[0], mt.Tensor) else torch
        loss = sum((o * L.tensor(w, dtype=o.dtype)).sum() for o, w in zip(outs, weights))
        grads = L.autograd.grad(loss, xs, create_graph=second)
        values = [numpy_of(g) for g in grads]
        if second:
            values += [numpy_of(g) for g in L.autograd.grad(sum((g * g).sum() for g in grads), xs)]
        results.append(values)
    for got, want in zip(*results):
        np.testing.assert_allclose(got, want, rtol=1e-7, atol=1e-9)


# ---------------------------------------------------------------------------- dist


@pytest.mark.parametrize("p", [0, 1, 2, 3, 0.5, math.inf, -math.inf])
def test_dist_values_gradients_and_node(p: float) -> None:
    a, b = RNG.standard_normal((2, 3)), RNG.standard_normal(3)
    (_, got), (_, want) = _both([a, b], lambda L, x, y: L.dist(x, y, p))
    assert_same(got, want)
    assert got.grad_fn.name() == want.grad_fn.name() == "DistBackward0"
    if p != 0:  # torch gives p=0 no gradient at all
        _assert_grads_match([a, b], lambda L, x, y: L.dist(x, y, p), second=p not in (1, 0.5))


def test_dist_prints_and_errors_as_torch() -> None:
    a = RNG.standard_normal(4).astype(np.float32)
    assert repr(mt.tensor(a).dist(mt.zeros(4))) == repr(torch.tensor(a).dist(torch.zeros(4)))
    for fn in (lambda L: L.dist(L.ones(2), L.ones(3)),
               lambda L: L.dist(L.ones(2, dtype=L.int64), L.ones(2, dtype=L.int64)),
               lambda L: L.dist(L.ones(2), 1.0)):
        assert_same_error(raised_by(fn, mt), raised_by(fn, torch))


# ---------------------------------------------------------------------------- matrix_exp


@pytest.mark.parametrize("scale", [1e-8, 1e-4, 0.03, 0.3, 1.0, 2.5, 40.0])
@pytest.mark.parametrize("n", [2, 3, 7])
def test_matrix_exp_is_torchs_bits_at_every_degree(n: int, scale: float) -> None:
    a = (RNG.standard_normal((n, n)) * scale / n).astype(np.float32)
    got, want = mt.matrix_exp(mt.tensor(a)), torch.matrix_exp(torch.tensor(a))
    np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_matrix_exp_of_a_batch_is_torchs_bits() -> None:
    a = RNG.standard_normal((4, 3, 3)).astype(np.float32)
    a *= np.float32([1e-3, 0.1, 1, 10])[:, None, None]
    got, want = mt.linalg.matrix_exp(mt.tensor(a)), torch.linalg.matrix_exp(torch.tensor(a))
    np.testing.assert_array_equal(got.numpy(), want.numpy())


@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (1, 1), (0, 0)])
def test_matrix_exp_gradients_of_two_orders(shape: tuple) -> None:
    a = RNG.standard_normal(shape)
    (_, got), (_, want) = _both([a], lambda L, x: L.matrix_exp(x))
    assert_same(got, want)
    assert repr(got) == repr(want)
    if a.size:
        _assert_grads_match([a], lambda L, x: x.matrix_exp())


@pytest.mark.parametrize("call", [
    lambda L: L.matrix_exp(L.ones(2, 3)), lambda L: L.matrix_exp(L.ones(3)),
    lambda L: L.matrix_exp(L.ones(2, 2, dtype=L.int64)), lambda L: L.matrix_exp([[1.0]]),
    lambda L: L.linalg.matrix_exp(L.ones(2, 3))])
def test_matrix_exp_errors(call: Any) -> None:
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


# ---------------------------------------------------------------------------- eigh


@pytest.mark.parametrize("uplo", ["L", "U", "u"])
@pytest.mark.parametrize("shape", [(3, 3), (2, 5, 5), (1, 1)])
def test_eigh_values_and_gradients(shape: tuple, uplo: str) -> None:
    a = RNG.standard_normal(shape)
    (_, got), (_, want) = _both([a], lambda L, x: L.linalg.eigh(x, uplo))
    assert_same(got.eigenvalues, want.eigenvalues)
    np.testing.assert_allclose(np.abs(numpy_of(got.eigenvectors)),
                               np.abs(numpy_of(want.eigenvectors)), atol=1e-10)
    assert got.eigenvalues.grad_fn.name() == "LinalgEighBackward0"
    # squared eigenvectors: free of LAPACK's choice of signs
    _assert_grads_match([a], lambda L, x: (L.linalg.eigh(x, uplo).eigenvalues,
                                           L.linalg.eigh(x, uplo).eigenvectors ** 2))
    _assert_grads_match([a], lambda L, x: L.linalg.eigvalsh(x, uplo))


def test_eigvalsh_float32_is_torchs_bits_with_mkl() -> None:
    a = RNG.standard_normal((4, 4)).astype(np.float32)
    got, want = mt.linalg.eigvalsh(mt.tensor(a)), torch.linalg.eigvalsh(torch.tensor(a))
    if MKL:
        np.testing.assert_array_equal(got.numpy(), want.numpy())
        assert repr(got) == repr(want)


@pytest.mark.parametrize("call", [
    lambda L: L.linalg.eigvalsh(L.ones(2, 3), UPLO="X"), lambda L: L.linalg.eigvalsh(L.ones(3)),
    lambda L: L.linalg.eigh(L.ones(2, 2), UPLO="UU"),
    lambda L: L.linalg.eigh(L.ones(2, 2, dtype=L.int64), UPLO="X"),
    lambda L: L.linalg.eigvalsh(L.ones(2, 2, dtype=L.int64)), lambda L: L.linalg.eigvalsh(1)])
def test_eigh_errors(call: Any) -> None:
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


# ---------------------------------------------------------------------------- QR family


@pytest.mark.parametrize("shape", [(5, 3), (3, 3), (3, 5), (2, 4, 3)])
def test_geqrf_and_qr_values(shape: tuple) -> None:
    a = RNG.standard_normal(shape).astype(np.float32)
    for fn in (lambda L, x: tuple(L.geqrf(x)), lambda L, x: tuple(L.linalg.qr(x)),
               lambda L, x: tuple(L.linalg.qr(x, mode="complete")),
               lambda L, x: tuple(L.linalg.qr(x, mode="r"))):
        (_, got), (_, want) = _both([a], fn, requires_grad=False)
        for g, w in zip(got, want):
            if MKL:
                np.testing.assert_array_equal(numpy_of(g), numpy_of(w))
            assert_same(g, w)


@pytest.mark.parametrize("shape", [(5, 3), (3, 3), (3, 5), (2, 4, 3)])
def test_qr_gradients(shape: tuple) -> None:
    a = RNG.standard_normal(shape)
    _assert_grads_match([a], lambda L, x: tuple(L.linalg.qr(x)))
    (_, got), (_, want) = _both([a], lambda L, x: L.linalg.qr(x))
    assert repr(got) == repr(want)


@pytest.mark.parametrize("shapes", [((5, 3), (3,)), ((5, 3), (2,)), ((2, 4, 4), (2, 3))])
def test_householder_product_values_and_gradients(shapes: tuple) -> None:
    a, tau = (RNG.standard_normal(s) for s in shapes)
    (_, got), (_, want) = _both([a, tau], lambda L, x, t: L.linalg.householder_product(x, t))
    assert_same(got, want)
    assert got.grad_fn.name() == "LinalgHouseholderProductBackward0"
    _assert_grads_match([a, tau], lambda L, x, t: L.linalg.householder_product(x, t))


def test_without_mkl_the_backend_lapack_gives_the_same_within_rounding(monkeypatch) -> None:
    for name in ("geqrf", "orgqr", "symmetric_eigen"):
        monkeypatch.setattr(_mkl, name, lambda *args: None)
    a = RNG.standard_normal((5, 3))
    for fn in (lambda L, x: tuple(L.geqrf(x)), lambda L, x: tuple(L.linalg.qr(x, "complete")),
               lambda L, x: L.linalg.eigvalsh(x[:3]),
               lambda L, x: L.linalg.householder_product(x, x[0])):
        (_, got), (_, want) = _both([a], fn, requires_grad=False)
        for g, w in zip(*(o if isinstance(o, tuple) else (o,) for o in (got, want))):
            assert_same(g, w)


@pytest.mark.parametrize("call", [
    lambda L: L.linalg.householder_product(L.ones(3), L.ones(2)),
    lambda L: L.linalg.householder_product(L.ones(2, 3), L.ones(2)),
    lambda L: L.linalg.householder_product(L.ones(3, 2), L.ones(3)),
    lambda L: L.linalg.householder_product(L.ones(3, 2), L.ones(2, 2)),
    lambda L: L.linalg.householder_product(L.ones(2, 3, 2), L.ones(3, 2)),
    lambda L: L.linalg.householder_product(L.ones(3, 2), L.ones(2, dtype=L.float64)),
    lambda L: L.linalg.householder_product(L.ones(3, 2, dtype=L.int64),
                                           L.ones(2, dtype=L.int64)),
    lambda L: L.linalg.householder_product(L.ones(3, 2), L.ones(())),
    lambda L: L.geqrf(L.ones(3)), lambda L: L.geqrf(L.ones(3, 3, dtype=L.int64)),
    lambda L: L.linalg.qr(L.ones(3)), lambda L: L.linalg.qr(L.ones(3, 3), mode="x"),
    lambda L: L.linalg.qr(L.ones(3, 3, dtype=L.int64)),
    lambda L: L.geqrf(L.ones(2, 2, requires_grad=True))[0].sum().backward(),
    lambda L: L.linalg.qr(L.ones(3, 2, requires_grad=True), mode="r")[1].sum().backward(),
    lambda L: L.linalg.qr(L.eye(3, 2, requires_grad=True), "complete")[1].sum().backward()])
def test_qr_family_errors(call: Any) -> None:
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


# ---------------------------------------------------------------------------- orthogonal


@pytest.mark.parametrize("trivial", [True, False])
@pytest.mark.parametrize("orth_map", [None, "matrix_exp", "cayley", "householder"])
@pytest.mark.parametrize("shape", [(3, 3), (5, 3), (3, 5)])
def test_orthogonal_weights_and_gradients(shape: tuple, orth_map: str | None,
                                          trivial: bool) -> None:
    results = []
    for L in (mt, torch):
        L.manual_seed(3)
        layer = L.nn.Linear(shape[1], shape[0], dtype=L.float64)
        error = raised_by(lambda L, layer=layer: L.nn.utils.parametrizations.orthogonal(
            layer, orthogonal_map=orth_map, use_trivialization=trivial), L)
        if error is not None:
            results.append(error)
            continue
        w = layer.weight
        (w * L.arange(w.numel(), dtype=w.dtype).reshape(w.shape)).sum().backward()
        original = layer.parametrizations.weight.original
        results.append((numpy_of(w), numpy_of(original), numpy_of(original.grad), repr(layer)))
    got, want = results
    if isinstance(want, BaseException):
        assert_same_error(got if isinstance(got, BaseException) else None, want)
        return
    for g, w in zip(got[:3], want[:3]):
        np.testing.assert_allclose(g, w, rtol=1e-7, atol=1e-10)
    assert got[3] == want[3]


def test_orthogonal_errors_as_torch() -> None:
    for fn in (lambda L: L.nn.utils.parametrizations.orthogonal(L.nn.Linear(2, 2), "bias"),
               lambda L: L.nn.utils.parametrizations.orthogonal(L.nn.Linear(2, 2), "nothing"),
               lambda L: L.nn.utils.parametrizations.orthogonal(L.nn.Linear(2, 2),
                                                                orthogonal_map="qr"),
               lambda L: setattr(L.nn.utils.parametrizations.orthogonal(L.nn.Linear(2, 3)),
                                 "weight", L.ones(2, 2))):
        assert_same_error(raised_by(fn, mt), raised_by(fn, torch))
