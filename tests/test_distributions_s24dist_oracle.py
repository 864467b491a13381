"""The distributions, transforms and constraints torch.distributions has and minitorch lacked
(FisherSnedecor, GeneralizedPareto, InverseGamma, LKJCholesky, LogisticNormal,
NegativeBinomial, VonMises, Wishart; Cat/Stack/CorrCholesky/CumulativeDistribution
transforms; cat/stack/corr_cholesky constraints), with torch as the oracle: construction and
its refusals, scores, moments, supports, shapes of draws, expand."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.oracle import assert_as_torch, assert_same


def same(program):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_as_torch(program, compare=assert_same)


def D(L):
    return L.distributions


def T(L):
    return L.distributions.transforms


def C(L):
    return L.distributions.constraints


def stats(d, value, *more):
    """What a distribution computes without drawing (each that torch refuses, refused), and
    ``more`` results."""
    out = [str(d.batch_shape), str(d.event_shape), repr(d), str(d.support), d.log_prob(value)]
    for name in ("mean", "mode", "variance"):
        out.append(getattr(d, name))
    return [*out, *more]


def draws(d, shape=(2,)):
    """A draw (torch's numbers for the seed), its shape, dtype and whether it lies in the
    support."""
    s = d.rsample(shape) if d.has_rsample else d.sample(shape)
    return s.detach(), tuple(s.shape), str(s.dtype), bool(d.support.check(s).all())


CASES = {
    "inverse gamma": lambda L: stats(D(L).InverseGamma(L.tensor([0.5, 1.5, 3.]), 2.),
                                     L.tensor(0.7),
        D(L).InverseGamma(L.tensor([0.5, 3.]), 2.).entropy()),
    "inverse gamma refuses a negative value": lambda L: D(L).InverseGamma(1., 2.).log_prob(
        L.tensor(-1.)),
    "inverse gamma refuses a negative rate": lambda L: D(L).InverseGamma(1., -2.),
    "fisher snedecor": lambda L: stats(D(L).FisherSnedecor(L.tensor([0.5, 3., 6.]),
                                                           L.tensor([1., 3., 6.])), L.tensor(0.7)),
    "fisher snedecor has no entropy": lambda L: D(L).FisherSnedecor(2., 3.).entropy(),
    "fisher snedecor expands": lambda L: D(L).FisherSnedecor(2., L.tensor([3.])).expand(
        (2, 1)).df2,
    "generalized pareto": lambda L: stats(
        D(L).GeneralizedPareto(L.tensor([0., 1.]), 2., L.tensor([0., -0.5])), L.tensor(1.7),
        D(L).GeneralizedPareto(L.tensor([0., 1.]), 2., L.tensor([0., -0.5])).cdf(L.tensor(1.7)),
        D(L).GeneralizedPareto(L.tensor([0., 1.]), 2., L.tensor([0., 0.5])).icdf(L.tensor(0.3)),
        D(L).GeneralizedPareto(0., 2., 0.5).entropy()),
    "generalized pareto out of its bounded support": lambda L: D(L).GeneralizedPareto(
        0., 1., -0.5).log_prob(L.tensor(3.)),
    "negative binomial": lambda L: stats(D(L).NegativeBinomial(3., probs=L.tensor([0.2, 0.7])),
                                         L.tensor(2.),
        D(L).NegativeBinomial(L.tensor([0., 2.]), logits=L.tensor([0.2, -0.7])).log_prob(
            L.tensor([0., 1.]))),
    "negative binomial refuses probs of 1": lambda L: D(L).NegativeBinomial(
        3., probs=L.tensor([1.0])),
    "negative binomial needs probs or logits": lambda L: D(L).NegativeBinomial(3.),
    "negative binomial refuses a fraction": lambda L: D(L).NegativeBinomial(
        3., probs=0.5).log_prob(L.tensor(0.5)),
    "logistic normal": lambda L: stats(D(L).LogisticNormal(L.tensor([0., 1.]), 2.),
                                       L.tensor([0.2, 0.3, 0.5])),
    "logistic normal of numbers": lambda L: (D(L).LogisticNormal(0., 2.).event_shape,
                                             D(L).LogisticNormal(0., 2.).expand((3,)).loc),
    "von mises": lambda L: stats(D(L).VonMises(L.tensor([0., 1.]), L.tensor([0.5, 5.])),
                                 L.tensor(1.7)),
    "von mises has no rsample": lambda L: D(L).VonMises(0., 1.).rsample(),
    "von mises refuses a negative concentration": lambda L: D(L).VonMises(0., -1.),
    "lkj cholesky": lambda L: stats(D(L).LKJCholesky(3, L.tensor([0.5, 2.0])),
                                    T(L).CorrCholeskyTransform()(L.tensor([0.3, -1.2, 2.0]))),
    "lkj cholesky needs dim 2": lambda L: D(L).LKJCholesky(1, 0.5),
    "lkj cholesky refuses a non-factor": lambda L: D(L).LKJCholesky(3, 1.).log_prob(
        L.ones(3, 3)),
    "lkj cholesky expands": lambda L: D(L).LKJCholesky(3, L.tensor([0.5, 2.0])).expand(
        (4, 2)).batch_shape,
    "wishart": lambda L: stats(D(L).Wishart(3., covariance_matrix=L.tensor([[2., 1.], [1., 2.]])),
                               L.eye(2),
        D(L).Wishart(L.tensor([3., 4.]), scale_tril=L.tensor([[1., 0.], [3., 2.]])).entropy()),
    "wishart of a precision, expanded": lambda L: (lambda d: (d.scale_tril, d.mean))(
        D(L).Wishart(L.tensor([3., 4.]), precision_matrix=L.tensor([[2., 1.], [1., 2.]]))
        .expand((3, 2))),
    "wishart refuses a small df": lambda L: D(L).Wishart(1., covariance_matrix=L.eye(3)),
    "wishart needs one matrix": lambda L: D(L).Wishart(2.5, covariance_matrix=L.eye(3),
                                                       scale_tril=L.eye(3)),
    "wishart needs a matrix": lambda L: D(L).Wishart(2.5, covariance_matrix=L.ones(3)),
    "wishart kl is not registered": lambda L: D(L).kl_divergence(
        D(L).Wishart(3., L.eye(2)), D(L).Wishart(3., L.eye(2))),
    "corr cholesky": lambda L: (lambda t, x: (t(x), t.inv(t(x)), t.log_abs_det_jacobian(x, t(x)),
                                              str(t.domain), str(t.codomain)))(
        D(L).biject_to(C(L).corr_cholesky), L.tensor([[0.3, -1.2, 2.0], [1., 0., -3.]])),
    "corr cholesky of a length that is no triangle": lambda L: T(L).CorrCholeskyTransform()(
        L.zeros(2)),
    "corr cholesky shapes": lambda L: (T(L).CorrCholeskyTransform().forward_shape((2, 6)),
                                       T(L).CorrCholeskyTransform().inverse_shape((3, 3))),
    "corr cholesky check": lambda L: (C(L).corr_cholesky.check(L.eye(3)),
                                      C(L).corr_cholesky.check(L.tensor([[1., 0.], [1., 1.]]))),
    "cat transform": lambda L: (lambda t, x: (t(x), t.inv(t(x)), t.log_abs_det_jacobian(x, t(x)),
                                              str(t.domain), t.event_dim))(
        T(L).CatTransform([T(L).ExpTransform(), T(L).StickBreakingTransform()], 0, [1, 2]),
        L.tensor([[0.3, -1.2, 2.0], [1., 2., 3.]])),
    "cat transform of the wrong length": lambda L: T(L).CatTransform([T(L).ExpTransform()])(
        L.zeros(3)),
    "cat transform of lengths that do not match": lambda L: T(L).CatTransform(
        [T(L).ExpTransform()], lengths=[1, 2]),
    "stack transform": lambda L: (lambda t, x: (t(x), t.inv(t(x)), t.log_abs_det_jacobian(x, t(x)),
                                                t.domain.check(x)))(
        T(L).StackTransform([T(L).ExpTransform(), T(L).AffineTransform(1., 2.)], dim=1),
        L.tensor([[0.3, -1.2], [2.0, 1.]])),
    "stack transform along a negative dim": lambda L: (lambda t: (
        t.event_dim, t.domain.event_dim, t(L.tensor([[0.3, -1.2]]))))(
        T(L).StackTransform([T(L).ExpTransform(), T(L).AffineTransform(1., 2.)], dim=-1)),
    "stack transform out of range": lambda L: T(L).StackTransform([T(L).ExpTransform()], 2)(
        L.zeros(3)),
    "cdf transform": lambda L: (lambda t, x: (t(x), t.inv(t(x)), t.log_abs_det_jacobian(x, t(x)),
                                              str(t.domain)))(
        T(L).CumulativeDistributionTransform(D(L).Normal(0., 1.)), L.tensor([0.3, -1.2, 2.0])),
    "cat and stack constraints": lambda L: (
        C(L).cat([C(L).real, C(L).positive], 0, [1, 2]).check(L.tensor([1., -1., 3.])),
        C(L).stack([C(L).real, C(L).positive], 1).check(L.tensor([[1., -1.], [2., 3.]])),
        D(L).transform_to(C(L).stack([C(L).positive, C(L).unit_interval], 1))(L.zeros(3, 2))),
    "an independent constraint refuses too few dims": lambda L: C(L).real_vector.check(
        L.tensor(0.5)),
    "a normal of bool parameters, empty": lambda L: D(L).HalfNormal(L.tensor(True)).expand(
        (0,)).sample(),
    "normal of empty int tensors": lambda L: L.normal(L.zeros(0, dtype=L.int64), L.ones(0).int()),
    "normal of empty tensors whose result type does not cast": lambda L: L.normal(
        L.zeros(2, 1, dtype=L.int64), L.ones(0)),
    "student t expands its bool df before its chi2": lambda L: D(L).StudentT(
        0.25, L.tensor(True), L.tensor([[2.163], [2.969]], dtype=L.float16)).expand((-1,)),
    "fisher snedecor expands its bool df before its gammas": lambda L: D(L).FisherSnedecor(
        L.tensor([[2.163], [2.969]]).to(L.bool), 0.25).expand((-1,)),
    "affine log-determinant of a number": lambda L: T(L).AffineTransform(
        0., 2.).log_abs_det_jacobian(0.5, 1.0),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_as_torch(name):
    same(CASES[name])


@pytest.mark.parametrize("make", [
    lambda L: D(L).InverseGamma(L.tensor([0.5, 3.]), 2.),
    lambda L: D(L).FisherSnedecor(L.tensor([0.5, 3.]), 2.),
    lambda L: D(L).GeneralizedPareto(0., 1., L.tensor([-0.5, 0.5])),
    lambda L: D(L).NegativeBinomial(L.tensor([1., 3.]), probs=0.3),
    lambda L: D(L).LogisticNormal(L.zeros(2, 3), 1.),
    lambda L: D(L).VonMises(L.tensor([0., 3.]), L.tensor([0.1, 10.])),
    lambda L: D(L).LKJCholesky(4, L.tensor([0.5, 3.])),
    lambda L: D(L).Wishart(L.tensor([2.5, 4.]), covariance_matrix=L.eye(2)),
])
def test_draws_are_torch_draws_for_the_seed(make):
    def program(L):
        L.manual_seed(0)
        return draws(make(L))
    same(program)


@settings(max_examples=25, deadline=None)
@given(st.floats(0.2, 5.0), st.floats(0.2, 5.0), st.floats(0.05, 4.0))
def test_scores_match_torch(a, b, x):
    same(lambda L: (D(L).InverseGamma(a, b).log_prob(L.tensor(x)),
                    D(L).FisherSnedecor(a, b).log_prob(L.tensor(x)),
                    D(L).GeneralizedPareto(0., a, b - 2.6).log_prob(L.tensor(x)),
                    D(L).NegativeBinomial(a, logits=L.tensor(b - 2.6)).log_prob(
                        L.tensor(float(round(x)))),
                    D(L).VonMises(a, b).log_prob(L.tensor(x)),
                    D(L).LKJCholesky(3, a).log_prob(
                        D(L).transforms.CorrCholeskyTransform()(L.tensor([a, -b, x])))))
