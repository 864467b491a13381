"""torch.distributions' transforms (the vector and matrix ones, caching, affine events),
transform_to/biject_to for every constraint torch maps, and the base class's refusals, with
torch as the oracle (found by a differential fuzz of torch.distributions)."""

from __future__ import annotations

import math
import warnings

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.oracle import assert_as_torch, assert_same


def quietly(program):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_as_torch(program, compare=assert_same)


def D(L):
    return L.distributions


X = lambda L: L.tensor([[0.3, -1.2, 2.0], [0.0, 0.7, -0.4]])  # noqa: E731
SQUARE = lambda L: L.tensor([[0.5, 0.2], [-0.3, 1.1]])  # noqa: E731
ELEMENTWISE = ["TanhTransform", "SoftplusTransform", "ExpTransform", "SigmoidTransform"]
VECTOR = ["SoftmaxTransform", "StickBreakingTransform"]

CASES = {
    "softmax forward and inverse": lambda L: (D(L).SoftmaxTransform()(X(L)),
                                              D(L).SoftmaxTransform().inv(X(L).softmax(-1))),
    "softmax has no log-determinant": lambda L: D(L).SoftmaxTransform().log_abs_det_jacobian(
        X(L), X(L)),
    "stick-breaking shapes": lambda L: (D(L).StickBreakingTransform().forward_shape((2, 3)),
                                        D(L).StickBreakingTransform().inverse_shape((4,))),
    "stick-breaking of a 0-d shape": lambda L: D(L).StickBreakingTransform().forward_shape(()),
    "softmax of a 0-d shape": lambda L: D(L).SoftmaxTransform().inverse_shape(()),
    "event dims": lambda L: [(t().domain.event_dim, t().codomain.event_dim, str(t().domain),
                              str(t().codomain)) for t in (
        D(L).SoftmaxTransform, D(L).StickBreakingTransform, D(L).LowerCholeskyTransform,
        D(L).TanhTransform, D(L).PositiveDefiniteTransform)],
    "event_dim of a transform that changes it": lambda L: D(L).StickBreakingTransform().event_dim,
    "lower cholesky": lambda L: (D(L).LowerCholeskyTransform()(SQUARE(L)),
                                 D(L).LowerCholeskyTransform().inv(SQUARE(L).abs())),
    "positive definite": lambda L: (D(L).PositiveDefiniteTransform()(SQUARE(L)),
                                    D(L).PositiveDefiniteTransform().inv(
                                        D(L).PositiveDefiniteTransform()(SQUARE(L)))),
    "independent transform": lambda L: (
        D(L).IndependentTransform(D(L).ExpTransform(), 1).log_abs_det_jacobian(X(L), X(L).exp()),
        repr(D(L).IndependentTransform(D(L).ExpTransform(), 1)),
        D(L).IndependentTransform(D(L).ExpTransform(), 2).domain.event_dim),
    "independent transform of too few dims": lambda L: D(L).IndependentTransform(
        D(L).ExpTransform(), 2)(L.ones(3)),
    "reshape": lambda L: (D(L).ReshapeTransform((6,), (2, 3))(L.arange(12.).reshape(2, 6)),
                          D(L).ReshapeTransform((6,), (2, 3)).inverse_shape((5, 2, 3)),
                          D(L).ReshapeTransform((6,), (2, 3)).log_abs_det_jacobian(
                              L.ones(4, 6), L.ones(4, 2, 3))),
    "reshape of another count": lambda L: D(L).ReshapeTransform((6,), (4,)),
    "reshape of a mismatched shape": lambda L: D(L).ReshapeTransform((6,), (2, 3)).forward_shape(
        (2, 5)),
    "reshape of too few dims": lambda L: D(L).ReshapeTransform((2, 3), (6,)).forward_shape((6,)),
    # cache_size
    "a cached tanh gives back its own x": lambda L: (lambda t, x: t.inv(t(x)) is x)(
        D(L).TanhTransform(cache_size=1), L.tensor([30.0])),
    "an uncached tanh does not": lambda L: (lambda t, x: t.inv(t(x)))(
        D(L).TanhTransform(), L.tensor([30.0])),
    "cache_size 2": lambda L: D(L).TanhTransform(cache_size=2),
    "cache_size 'a'": lambda L: D(L).ExpTransform(cache_size="a"),
    "with_cache": lambda L: [t.with_cache()._cache_size for t in (
        D(L).ExpTransform(), D(L).AffineTransform(1.0, 2.0), D(L).PowerTransform(2.0),
        D(L).ComposeTransform([D(L).ExpTransform()]), D(L).ExpTransform().inv,
        D(L).IndependentTransform(D(L).ExpTransform(), 1), D(L).ReshapeTransform((2,), (2,)))],
    "a cached composition caches its parts": lambda L: [
        p._cache_size for p in D(L).ComposeTransform([D(L).ExpTransform(), D(L).TanhTransform()],
                                                     cache_size=1).parts],
    # affine transforms over events
    "affine over a vector event": lambda L: (
        D(L).AffineTransform(L.zeros(3), L.tensor([1.0, 2.0, 4.0]), event_dim=1)
        .log_abs_det_jacobian(X(L), X(L)),
        str(D(L).AffineTransform(0.0, 2.0, event_dim=1).domain),
        D(L).AffineTransform(0.0, 2.0, event_dim=1).log_abs_det_jacobian(X(L), X(L))),
    "composed event dims": lambda L: (
        str(D(L).ComposeTransform([D(L).ExpTransform(), D(L).SoftmaxTransform()]).domain),
        str(D(L).ComposeTransform([D(L).StickBreakingTransform(), D(L).ExpTransform()]).codomain),
        D(L).ComposeTransform([D(L).ExpTransform(), D(L).StickBreakingTransform()])
        .log_abs_det_jacobian(X(L), D(L).StickBreakingTransform()(X(L).exp()))),
    # transformed distributions whose transforms join dims into an event
    "stick-breaking normal": lambda L: (lambda d: (
        d.batch_shape, d.event_shape, d.log_prob(L.tensor([[0.2, 0.3, 0.1, 0.4]] * 2)),
        d.sample((5,)).shape, str(d.support)))(
        D(L).TransformedDistribution(D(L).Normal(L.zeros(2, 3), 1.0),
                                     D(L).StickBreakingTransform())),
    "a vector transform of a scalar base": lambda L: D(L).TransformedDistribution(
        D(L).Normal(0.0, 1.0), D(L).SoftmaxTransform()),
    "softmax normal has no log_prob": lambda L: D(L).TransformedDistribution(
        D(L).Normal(L.zeros(3), 1.0), D(L).SoftmaxTransform()).log_prob(L.ones(3) / 3),
    "affine event over a normal": lambda L: (lambda d: (d.batch_shape, d.event_shape,
                                                         d.log_prob(X(L))))(
        D(L).TransformedDistribution(D(L).Normal(L.zeros(2, 3), 1.0),
                                     D(L).AffineTransform(1.0, L.tensor([1.0, 2.0, 3.0]),
                                                          event_dim=1))),
    "tanh-squashed normal (a SAC policy)": lambda L: (lambda d, u: (
        d.log_prob(D(L).TanhTransform(cache_size=1)(u)), d.batch_shape))(
        D(L).TransformedDistribution(D(L).Normal(L.zeros(3), L.ones(3)),
                                     [D(L).TanhTransform()]), L.tensor([0.1, -2.0, 0.5])),
    # transform_to / biject_to
    "simplex maps": lambda L: (D(L).transform_to(D(L).constraints.simplex)(X(L)),
                               D(L).biject_to(D(L).constraints.simplex)(X(L)),
                               repr(D(L).biject_to(D(L).constraints.simplex))),
    "biject_to of lower_cholesky": lambda L: D(L).biject_to(D(L).constraints.lower_cholesky),
    "biject_to of an interval": lambda L: D(L).biject_to(
        D(L).constraints.interval(L.zeros(2), L.ones(2)))(L.tensor([0.0, 3.0])),
    # the new constraints
    "constraint checks": lambda L: (
        D(L).constraints.half_open_interval(0.0, 1.0).check(L.tensor([0.0, 0.5, 1.0])),
        repr(D(L).constraints.half_open_interval(0.0, 1.0)),
        D(L).constraints.lower_triangular.check(L.stack([SQUARE(L), SQUARE(L).tril()])),
        D(L).constraints.positive_semidefinite.check(
            L.tensor([[[1.0, 0.0], [0.0, 0.0]], [[1.0, 2.0], [2.0, 1.0]]]))),
    # the base class and the distributions the fuzz found
    "a distribution without a variance": lambda L: D(L).RelaxedOneHotCategorical(
        2.0, probs=L.tensor([0.3, 0.7])).variance,
    "bernoulli's mode": lambda L: D(L).Bernoulli(L.tensor([0.5, 0.7, 0.2])).mode,
    "uniform's mode": lambda L: D(L).Uniform(0.0, L.ones(2)).mode,
    "half-cauchy reads its value in the scale's dtype": lambda L: D(L).HalfCauchy(
        L.tensor([2.0]).bool()).log_prob(L.tensor(0.3, dtype=L.float64)),
    "independent with a negative count": lambda L: D(L).Independent(
        D(L).Normal(L.zeros(2, 3), 1.0), -1).log_prob(L.ones(2, 3)),
    "multinomial checks total_count as a binomial's": lambda L: D(L).Multinomial(
        -1, probs=L.tensor([0.3, 0.7]), validate_args=False),
    "a sample shape that is not one": lambda L: D(L).Multinomial(
        2, probs=L.tensor([0.3, 0.7])).sample("a"),
    "a sample shape of one int": lambda L: D(L).Normal(0.0, 1.0).sample(2),
}


@pytest.mark.parametrize("case", CASES)
def test_as_torch(case: str) -> None:
    quietly(CASES[case])


@pytest.mark.parametrize("name", [*ELEMENTWISE, "StickBreakingTransform"])
def test_transform_forward_inverse_and_logdet(name: str) -> None:
    def program(L):
        t = getattr(D(L).transforms, name)()
        y = t(X(L))
        return y, t.inv(y), t.log_abs_det_jacobian(X(L), y), repr(t)
    quietly(program)


@pytest.mark.parametrize("constraint", [
    "interval(0., 1.)", "interval(-2., 3.)", "half_open_interval(0., 2.)", "unit_interval",
    "less_than(1.5)", "positive", "nonnegative", "greater_than(2.)", "real_vector",
    "independent(positive, 1)", "simplex", "lower_cholesky", "positive_definite",
    "positive_semidefinite"])
def test_transform_to(constraint: str) -> None:
    def program(L):
        c = eval(constraint, vars(D(L).constraints))  # the test's own expressions
        t = D(L).transform_to(c)
        matrix = c.event_dim == 2
        return repr(t), t(SQUARE(L) if matrix else X(L)), str(t.codomain)
    quietly(program)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(ELEMENTWISE + VECTOR), st.integers(1, 4), st.integers(0, 3),
       st.floats(-5, 5), st.floats(0.1, 3))
def test_transforms_of_drawn_inputs(name: str, n: int, batch: int, shift: float,
                                    spread: float) -> None:
    def program(L):
        torch_x = torch.linspace(-1, 1, n * max(batch, 1)).reshape(max(batch, 1), n)
        x = L.tensor(torch_x.tolist()) * spread + shift
        t = getattr(D(L), name)()
        y = t(x)
        logdet = t.log_abs_det_jacobian(x, y) if name != "SoftmaxTransform" else None
        return y, t.inv(y), logdet
    quietly(program)


# one member of each family, batched over two
FAMILIES = {
    "Bernoulli": lambda L: D(L).Bernoulli(L.tensor([0.3, 0.8])),
    "Beta": lambda L: D(L).Beta(L.tensor([0.5, 2.0]), L.tensor([1.5, 3.0])),
    "Binomial": lambda L: D(L).Binomial(3, L.tensor([0.3, 0.6])),
    "Categorical": lambda L: D(L).Categorical(L.tensor([[0.2, 0.8], [0.5, 0.5]])),
    "Cauchy": lambda L: D(L).Cauchy(L.tensor([0.0, 1.0]), L.tensor([1.0, 2.0])),
    "ContinuousBernoulli": lambda L: D(L).ContinuousBernoulli(L.tensor([0.3, 0.499])),
    "Dirichlet": lambda L: D(L).Dirichlet(L.tensor([[0.5, 2.0], [1.0, 1.0]])),
    "Exponential": lambda L: D(L).Exponential(L.tensor([0.5, 2.0])),
    "Gamma": lambda L: D(L).Gamma(L.tensor([0.5, 2.0]), L.tensor([1.5, 0.7])),
    "Geometric": lambda L: D(L).Geometric(L.tensor([0.3, 0.8])),
    "Gumbel": lambda L: D(L).Gumbel(L.tensor([0.0, 1.0]), L.tensor([1.0, 2.0])),
    "HalfNormal": lambda L: D(L).HalfNormal(L.tensor([1.0, 2.0])),
    "Laplace": lambda L: D(L).Laplace(L.tensor([0.0, 1.0]), L.tensor([1.0, 2.0])),
    "Normal": lambda L: D(L).Normal(L.tensor([0.0, 1.0]), L.tensor([1.0, 2.0])),
    "OneHotCategorical": lambda L: D(L).OneHotCategorical(L.tensor([[0.2, 0.8], [0.5, 0.5]])),
    "Pareto": lambda L: D(L).Pareto(L.tensor([1.0, 2.0]), L.tensor([1.5, 3.0])),
    "Poisson": lambda L: D(L).Poisson(L.tensor([0.5, 2.0])),
    "Uniform": lambda L: D(L).Uniform(L.tensor([0.1, 0.2]), L.tensor([0.6, 0.9])),
}


@pytest.mark.parametrize("q", FAMILIES)
@pytest.mark.parametrize("p", FAMILIES)
def test_kl_divergence_of_every_pair(p: str, q: str) -> None:
    """torch's value where it registers the pair (or a family both share), its refusal where
    not: "No KL(p || q)", or two different exponential families."""
    quietly(lambda L: D(L).kl_divergence(FAMILIES[p](L), FAMILIES[q](L)))


def test_kl_divergence_of_independent_pairs() -> None:
    quietly(lambda L: D(L).kl_divergence(D(L).Independent(FAMILIES["Normal"](L), 1),
                                         D(L).Independent(FAMILIES["Normal"](L), 1)))
    quietly(lambda L: D(L).kl_divergence(
        D(L).Independent(D(L).Normal(L.zeros(2, 2), 1.0), 1),
        D(L).Independent(D(L).Normal(L.zeros(2, 2), 1.0), 2)))


def test_exponential_families() -> None:
    quietly(lambda L: [isinstance(FAMILIES[name](L), D(L).ExponentialFamily)
                       for name in FAMILIES])
    quietly(lambda L: FAMILIES["Poisson"](L).entropy())  # torch's family has no carrier measure


@pytest.mark.parametrize("shape", ["'a'", "(1.5,)", "2", "(2, -1)"])
@pytest.mark.parametrize("family", [
    "Categorical(logits=L.zeros(2, 3))", "OneHotCategorical(logits=L.zeros(3))",
    "Laplace(L.tensor([1, 0]).bool(), 1.0)", "Geometric(L.tensor([0.5]))",
    "Multinomial(2, probs=L.ones(2))", "Normal(L.zeros(2), 1.0)"])
def test_a_sample_shape_is_read_first(family: str, shape: str) -> None:
    """torch reads ``sample_shape`` as a torch.Size before anything else can fail."""
    quietly(lambda L: tuple(eval(f"D(L).{family}.sample({shape})").shape))


def _unit_normal(family: type) -> type:
    """A user's exponential family: a Normal of variance 1 (θ = μ, F(θ) = θ²/2)."""
    class UnitNormal(family):
        arg_constraints: dict = {}

        def __init__(self, mu):
            self.mu = mu
            super().__init__(mu.shape, validate_args=False)

        @property
        def _natural_params(self):
            return (self.mu,)

        def _log_normalizer(self, theta):
            return 0.5 * theta * theta

        @property
        def _mean_carrier_measure(self):
            return -0.5 * (1 + math.log(2 * math.pi))
    return UnitNormal


def test_a_users_exponential_family_gets_entropy_and_kl_by_autograd() -> None:
    """ExponentialFamily's entropy and the Bregman KL of two members come from ``F`` by
    autograd, as torch's."""
    def program(L):
        family = _unit_normal(L.distributions.ExponentialFamily)
        p, q = family(L.tensor([0.0, 1.0])), family(L.tensor([2.0, 1.0]))
        return p.entropy(), L.distributions.kl_divergence(p, q)
    quietly(program)
