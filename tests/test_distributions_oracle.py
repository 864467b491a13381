"""``minitorch.distributions`` against ``torch.distributions``: samples for the same seed,
log_prob, entropy, gradients, printed forms, validation errors and KL divergences."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch
from oracle import assert_same, assert_same_error, raised_by

import minitorch as mt

MAKERS: dict[str, Callable[[Any], Any]] = {
    "Categorical probs": lambda L: L.distributions.Categorical(L.tensor([[0.2, 0.3, 0.5],
                                                                         [0.6, 0.1, 0.3]])),
    "Categorical logits": lambda L: L.distributions.Categorical(
        logits=L.tensor([1.0, -0.5, 2.0, 0.0])),
    "Normal": lambda L: L.distributions.Normal(L.tensor([0.0, 1.0]), L.tensor([1.0, 0.5])),
    "Normal scalars": lambda L: L.distributions.Normal(0.0, 2.0),
    "Bernoulli probs": lambda L: L.distributions.Bernoulli(L.tensor([0.25, 0.9])),
    "Bernoulli logits": lambda L: L.distributions.Bernoulli(logits=0.3),
    "Uniform": lambda L: L.distributions.Uniform(L.tensor([0.0, -1.0]), 2.0),
    "OneHotCategorical probs": lambda L: L.distributions.OneHotCategorical(
        L.tensor([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]])),
    "OneHotCategorical logits": lambda L: L.distributions.OneHotCategorical(
        logits=L.tensor([1.0, -0.5, 2.0, 0.0])),
    "OneHotCategoricalStraightThrough": lambda L: L.distributions.OneHotCategoricalStraightThrough(
        L.tensor([0.3, 0.3, 0.4])),
}


@pytest.mark.parametrize("name", [name for name in MAKERS if name.startswith("OneHot")])
def test_one_hot_categorical_moments_support_and_checks(name: str) -> None:
    def run(L: Any) -> list:
        L.manual_seed(3)
        d = MAKERS[name](L)
        e = d.expand((2, *d.batch_shape))
        return [d.mean, d.mode, d.variance, d.probs, d.logits, d.enumerate_support(),
                d.enumerate_support(expand=False), e.sample(), e.log_prob(e.mode),
                repr(d.support), d.param_shape]

    L, T = run(mt), run(torch)
    assert L[-2:] == T[-2:]
    for got, want in zip(L[:-2], T[:-2], strict=True):
        assert_same(got, want)
    bad = lambda L: MAKERS[name](L).log_prob(L.full(MAKERS[name](L).event_shape, 0.5))  # noqa: E731
    assert_same_error(raised_by(bad, mt), raised_by(bad, torch))


@pytest.mark.parametrize("name", MAKERS)
@pytest.mark.parametrize("shape", [(), (3,), (2, 2)])
def test_samples_log_prob_entropy(name: str, shape: tuple) -> None:
    def run(L: Any) -> list:
        L.manual_seed(7)
        d = MAKERS[name](L)
        x = d.sample(shape)
        out = [x, d.log_prob(x), d.entropy()]
        if d.has_rsample:
            out.append(d.rsample(shape))
        return out
    for got, want in zip(run(mt), run(torch), strict=True):
        assert_same(got, want)


@pytest.mark.parametrize("name", MAKERS)
def test_repr_and_shapes(name: str) -> None:
    got, want = MAKERS[name](mt), MAKERS[name](torch)
    assert repr(got) == repr(want)
    assert (got.batch_shape, got.event_shape) == (want.batch_shape, want.event_shape)


def test_reinforce_step_gradients() -> None:
    def run(L: Any) -> Any:
        L.manual_seed(0)
        logits = L.tensor([[0.1, 0.7, -0.2]], requires_grad=True)
        m = L.distributions.Categorical(L.softmax(logits, dim=1))
        (-m.log_prob(m.sample()) * 2.0).sum().backward()
        return logits.grad
    assert_same(run(mt), run(torch))


def test_rsample_gradients() -> None:
    def run(L: Any) -> list:
        L.manual_seed(0)
        loc, scale = L.tensor([0.5], requires_grad=True), L.tensor([2.0], requires_grad=True)
        L.distributions.Normal(loc, scale).rsample((4,)).pow(2).sum().backward()
        return [loc.grad, scale.grad]
    for got, want in zip(run(mt), run(torch)):
        assert_same(got, want)


BAD: dict[str, Callable[[Any], Any]] = {
    "negative scale": lambda L: L.distributions.Normal(0.0, -1.0),
    "not a simplex": lambda L: L.distributions.Categorical(L.tensor([-1.0, 2.0])),
    "outside the support": lambda L: L.distributions.Categorical(L.ones(3)).log_prob(
        L.tensor(3)),
    "probs above one": lambda L: L.distributions.Bernoulli(1.5),
    "low above high": lambda L: L.distributions.Uniform(1.0, 0.0),
    "a float to log_prob": lambda L: L.distributions.Normal(0.0, 1.0).log_prob(1.0),
    "neither probs nor logits": lambda L: L.distributions.Categorical(),
    "0-d probs": lambda L: L.distributions.Categorical(L.tensor(1.0)),
    "shape": lambda L: L.distributions.Normal(L.zeros(2), 1.0).log_prob(L.zeros(3)),
    "no KL": lambda L: L.distributions.kl_divergence(
        L.distributions.Normal(0.0, 1.0), L.distributions.Categorical(L.ones(2))),
}


@pytest.mark.parametrize("name", BAD)
def test_validation_errors(name: str) -> None:
    assert_same_error(raised_by(BAD[name], mt), raised_by(BAD[name], torch))


def test_validate_args_false_skips_checks() -> None:
    got = mt.distributions.Normal(0.0, -1.0, validate_args=False)
    want = torch.distributions.Normal(0.0, -1.0, validate_args=False)
    assert repr(got) == repr(want)


def _with_beta(other: str, beta_first: bool) -> Callable[[Any], tuple]:
    """A pair of a Beta and the distribution ``other`` (made in ``L.distributions``)."""
    def pair(L: Any) -> tuple:
        beta = L.distributions.Beta(L.tensor([0.5, 2.0, 3.0]), L.tensor([1.5, 2.0, 0.7]))
        made = eval(other, {"L": L, **vars(L.distributions)})
        return (beta, made) if beta_first else (made, beta)
    return pair


PAIRS: dict[str, Callable[[Any], tuple]] = {
    "Categorical": lambda L: (L.distributions.Categorical(L.tensor([0.2, 0.8, 0.0])),
                              L.distributions.Categorical(L.tensor([0.5, 0.25, 0.25]))),
    "Normal": lambda L: (L.distributions.Normal(L.tensor([0.0, 1.0]), 1.5),
                         L.distributions.Normal(0.5, L.tensor([1.0, 2.0]))),
    "Bernoulli": lambda L: (L.distributions.Bernoulli(L.tensor([0.0, 0.3, 1.0])),
                            L.distributions.Bernoulli(L.tensor([0.5, 0.0, 0.2]))),
    "Uniform": lambda L: (L.distributions.Uniform(L.tensor([0.0, -1.0]), 1.0),
                          L.distributions.Uniform(L.tensor([-1.0, 0.0]), 2.0)),
    "Uniform Normal": lambda L: (L.distributions.Uniform(0.0, L.tensor([1.0, 3.0])),
                                 L.distributions.Normal(0.5, 2.0)),
    **{f"Beta {other.split('(')[0]}": _with_beta(other, beta_first=True) for other in (
        "Beta(L.tensor([1.0, 4.0, 2.0]), 0.5)", "Exponential(L.tensor(2.0))",
        "Gamma(L.tensor(2.0), L.tensor(3.0))", "Normal(0.3, 2.0)",
        "Uniform(L.tensor([0.0, 0.1, -1.0]), 2.0)")},
    **{f"{other.split('(')[0]} Beta": _with_beta(other, beta_first=False) for other in (
        "Uniform(L.tensor([0.1, 0.2, -0.5]), L.tensor([0.9, 1.0, 0.5]))",
        "Exponential(L.tensor([1.0]))", "Gamma(2.0, 1.0)", "Normal(L.zeros(3), 1.0)",
        "Laplace(L.zeros(3), 1.0)")},
    "Dirichlet": lambda L: (L.distributions.Dirichlet(L.tensor([[0.5, 1.0, 2.0]])),
                            L.distributions.Dirichlet(L.ones(2, 3))),
    "OneHotCategorical": lambda L: (L.distributions.OneHotCategorical(L.tensor([0.2, 0.8])),
                                    L.distributions.OneHotCategorical(
                                        logits=L.tensor([0.0, 1.0]))),
}


@pytest.mark.parametrize("name", PAIRS)
def test_kl_divergence(name: str) -> None:
    assert_same(mt.distributions.kl_divergence(*PAIRS[name](mt)),
                torch.distributions.kl_divergence(*PAIRS[name](torch)))
