"""distributions.MultivariateNormal against live torch: the three parameterisations, samples
for the same seed, log_prob, entropy, moments, gradients of first and second order through
them, batch broadcasting, expand, printed forms and the validation errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import SETTINGS, assert_same
from test_bad_input_fuzz21b_oracle import assert_as_torch
from test_linalg_decompositions_oracle import _assert_grads_match

import minitorch as mt

RNG = np.random.default_rng(161)
_FORMS = ("covariance_matrix", "precision_matrix", "scale_tril")


def _spd(batch: tuple, n: int) -> np.ndarray:
    m = RNG.standard_normal((*batch, n, n))
    return m @ np.swapaxes(m, -1, -2) + n * np.eye(n)


def _matrix(form: str, batch: tuple, n: int) -> np.ndarray:
    spd = _spd(batch, n)
    return np.linalg.cholesky(spd) if form == "scale_tril" else spd


def _everything(L: Any, form: str, loc: np.ndarray, matrix: np.ndarray, value: np.ndarray,
                sample_shape: tuple) -> list:
    L.manual_seed(3)
    d = L.distributions.MultivariateNormal(L.tensor(loc), **{form: L.tensor(matrix)})
    return [d.rsample(sample_shape), d.sample(sample_shape), d.log_prob(L.tensor(value)),
            d.entropy(), d.mean, d.mode, d.variance, d.stddev, d.scale_tril,
            d.covariance_matrix, d.precision_matrix]


@settings(SETTINGS, max_examples=20)
@given(st.sampled_from(_FORMS), st.sampled_from([((), ()), ((3,), ()), ((), (2,)),
                                                  ((2, 1), (3,)), ((4,), (4,))]),
       st.integers(1, 3), st.sampled_from([(), (2,), (2, 1)]))
def test_values_of_every_parameterisation_and_batch(form: str, batches: tuple, n: int,
                                                    sample_shape: tuple) -> None:
    matrix_batch, loc_batch = batches
    loc, matrix = RNG.standard_normal((*loc_batch, n)), _matrix(form, matrix_batch, n)
    batch = np.broadcast_shapes(matrix_batch, loc_batch)
    value = RNG.standard_normal((*sample_shape, *batch, n))
    got = _everything(mt, form, loc, matrix, value, sample_shape)
    want = _everything(torch, form, loc, matrix, value, sample_shape)
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        assert_same(g, w, f"item {i}")


@pytest.mark.parametrize("form", _FORMS)
def test_gradients_of_log_prob_entropy_and_rsample(form: str) -> None:
    loc, matrix = RNG.standard_normal((2, 3)), _matrix(form, (2,), 3)
    value = RNG.standard_normal((4, 2, 3))

    def fn(L: Any, mu: Any, m: Any) -> tuple:
        L.manual_seed(5)
        d = L.distributions.MultivariateNormal(mu, **{form: m})
        return d.log_prob(L.tensor(value)), d.entropy(), d.rsample((2,))
    _assert_grads_match([loc, matrix], fn)


@pytest.mark.parametrize("program", [
    "d = D.MultivariateNormal(L.zeros(2), L.eye(2)); R = (repr(d), d.batch_shape, d.event_shape)",
    "d = D.MultivariateNormal(L.zeros(3, 2), scale_tril=L.eye(2)); R = repr(d)",
    "d = D.MultivariateNormal(L.zeros(2), L.eye(2)); d.covariance_matrix; "
    "e = d.expand([3]); R = (repr(e), e.batch_shape, e.covariance_matrix, e.log_prob(L.ones(2)))",
    "d = D.MultivariateNormal(L.zeros(2), precision_matrix=2 * L.eye(2)).expand((4, 1)); "
    "L.manual_seed(0); R = (d.sample(), d.entropy(), d.scale_tril)",
    "R = D.MultivariateNormal(L.tensor(1.), L.eye(2))",
    "R = D.MultivariateNormal(L.zeros(2))",
    "R = D.MultivariateNormal(L.zeros(2), L.eye(2), L.eye(2))",
    "R = D.MultivariateNormal(L.zeros(2), L.ones(2))",
    "R = D.MultivariateNormal(L.zeros(2), precision_matrix=L.ones(2))",
    "R = D.MultivariateNormal(L.zeros(2), scale_tril=L.ones(2))",
    "R = D.MultivariateNormal(L.zeros(2), L.tensor([[1., 2.], [2., 1.]]))",
    "R = D.MultivariateNormal(L.zeros(2), L.tensor([[1., 2.], [0., 1.]]))",
    "R = D.MultivariateNormal(L.zeros(2), scale_tril=L.ones(2, 2))",
    "R = D.MultivariateNormal(L.tensor([0., float('nan')]), L.eye(2))",
    "R = D.MultivariateNormal(L.zeros(2), L.tensor([[1., 2.], [2., 1.]]), validate_args=False)",
    "R = D.MultivariateNormal(L.zeros(3), L.eye(2))",
    "R = D.MultivariateNormal(L.zeros(2, 2), L.eye(2).expand(3, 2, 2))",
    "R = D.MultivariateNormal(L.zeros(2), L.eye(2)).log_prob(L.zeros(3))",
    "R = D.MultivariateNormal(L.zeros(2), L.eye(2)).log_prob(L.zeros(3, 2))",
    "R = D.MultivariateNormal(L.zeros(2, 2), L.eye(2)).log_prob(L.zeros(3, 2))",
    "R = D.MultivariateNormal(L.zeros(2), L.eye(2)).log_prob([0., 0.])",
])
def test_printed_forms_expand_and_errors(program: str) -> None:
    assert_as_torch("D = L.distributions; " + program)


def test_gradcheck_of_log_prob() -> None:
    """Through a covariance ``A Aᵀ + 2I`` (the factor reads one triangle, so the entries of
    a covariance itself cannot be varied one at a time)."""
    a = mt.tensor(RNG.standard_normal((2, 2)), requires_grad=True)
    loc = mt.tensor(RNG.standard_normal(2), requires_grad=True)
    value = mt.tensor(RNG.standard_normal((3, 2)))

    def log_prob(m: mt.Tensor, f: mt.Tensor) -> mt.Tensor:
        cov = f @ f.mT + 2 * mt.eye(2, dtype=f.dtype)
        return mt.distributions.MultivariateNormal(m, cov).log_prob(value)
    assert mt.autograd.gradcheck(log_prob, (loc, a))
    assert mt.autograd.gradgradcheck(log_prob, (loc, a))


@pytest.mark.parametrize("program", [
    "p = D.MultivariateNormal(L.tensor([1., -1.]), L.tensor([[2., .5], [.5, 1.]])); "
    "q = D.MultivariateNormal(L.zeros(3, 2), scale_tril=L.tensor([[1., 0.], [.3, 2.]])); "
    "R = (D.kl_divergence(p, q), D.kl_divergence(q, p))",
    "p = D.MultivariateNormal(L.zeros(2), L.eye(2)); "
    "q = D.MultivariateNormal(L.zeros(3), L.eye(3)); R = D.kl_divergence(p, q)",
    "p = D.MultivariateNormal(L.zeros(2, 2), L.eye(2)); "
    "q = D.MultivariateNormal(L.zeros(3, 2), L.eye(2)); R = D.kl_divergence(p, q)",
])
def test_kl_divergence(program: str) -> None:
    assert_as_torch("D = L.distributions; " + program)


def test_kl_divergence_gradients() -> None:
    def fn(L: Any, mu: Any, m: Any) -> Any:
        p = L.distributions.MultivariateNormal(mu, m)
        q = L.distributions.MultivariateNormal(mu.flip(-1), precision_matrix=m)
        return L.distributions.kl_divergence(p, q)
    _assert_grads_match([RNG.standard_normal((2, 3)), _spd((2,), 3)], fn)
