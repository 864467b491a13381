"""``binomial`` against torch, bit for bit: torch's ``sample_binomial`` (inversion of
geometric waiting times below ``count * prob = 10``, BTRS rejection above, ``count - ...`` for
probabilities above 1/2), its float32 steps, the stream left where torch leaves it, its
NotImplemented node and its errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same_error, numpy_of, raised_by

# every branch: zero count or probability, probability 1, inversion (small count * prob),
# BTRS (large), probabilities above 1/2 both ways, a NaN probability, a negative count
SPECIAL = [(0, 0.5), (5, 0.3), (20, 0.6), (100, 0.2), (1000, 0.01), (1e6, 0.4), (7, 0.0),
           (3, 1.0), (40, 0.97), (50, 0.5), (10, float("nan")), (-1, 0.5), (25, 0.4)]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("seed", range(10))
def test_binomial_counts_and_the_stream_after_them(seed: int, dtype: str) -> None:
    rs = np.random.RandomState(seed)
    counts = np.concatenate([[c for c, _ in SPECIAL], rs.randint(0, 300, 60)]).astype(dtype)
    probs = np.concatenate([[p for _, p in SPECIAL], rs.uniform(0, 1, 60)]).astype(dtype)

    def draws(L: Any) -> tuple:
        L.manual_seed(seed)
        return (L.binomial(L.tensor(counts), L.tensor(probs)), L.rand(3, dtype=L.float64),
                L.randn(2, dtype=L.float64))

    for got, want in zip(draws(mt), draws(torch)):
        assert np.array_equal(numpy_of(got), numpy_of(want), equal_nan=True)
        assert str(got.dtype) == str(want.dtype)


def test_binomial_broadcasts_in_order_and_takes_a_generator() -> None:
    def draws(L: Any) -> tuple:
        L.manual_seed(3)
        counts = L.ones(2, 3).t() * 50  # a transposed count: drawn in its logical order
        probs = L.rand(3, 2)
        g = L.Generator().manual_seed(1)
        return (L.binomial(counts, probs), L.binomial(L.tensor(30.0), L.tensor(0.5), g),
                L.binomial(L.full((3, 1), 60.0), L.tensor([0.1, 0.5, 0.9])))

    for got, want in zip(draws(mt), draws(torch)):
        assert np.array_equal(numpy_of(got), numpy_of(want))
        assert tuple(got.shape) == tuple(want.shape)


def test_binomial_has_no_derivative() -> None:
    def node(L: Any) -> Any:
        p = L.tensor([0.3, 0.6], requires_grad=True)
        return L.binomial(L.tensor([5.0, 20.0]), p).grad_fn.name()

    assert node(mt) == node(torch)

    def backward(L: Any) -> Any:
        p = L.tensor([0.3, 0.6], requires_grad=True)
        return L.autograd.grad(L.binomial(L.tensor([5.0, 20.0]), p).sum(), p)

    assert_same_error(raised_by(backward, mt), raised_by(backward, torch))


BAD_CALLS = [
    lambda L: L.binomial(L.tensor([1, 2]), L.tensor([0.5, 0.5])),
    lambda L: L.binomial(L.ones(2), L.ones(3)),
    lambda L: L.binomial(L.ones(2), L.ones(2, dtype=L.float64)),
    lambda L: L.binomial([1.0], L.ones(1)),
    lambda L: L.binomial(L.ones(1), 0.5),
    lambda L: L.binomial(L.ones(2), L.ones(2), generator=3),
]


@pytest.mark.parametrize("call", range(len(BAD_CALLS)))
def test_bad_calls_raise_torchs_errors(call: int) -> None:
    want = raised_by(BAD_CALLS[call], torch)
    assert want is not None
    assert_same_error(raised_by(BAD_CALLS[call], mt), want)


def test_half_is_refused_as_torch() -> None:
    def draw(L: Any) -> Any:
        return L.binomial(L.ones(2, dtype=L.float16), L.ones(2, dtype=L.float16))

    assert_same_error(raised_by(draw, mt), raised_by(draw, torch))


MAKERS = ["D.Binomial(10, L.tensor([0.2, 0.5, 0.9], requires_grad=True))",
          "D.Binomial(L.tensor([5.0, 50.0]), logits=L.tensor([0.3, -1.0], requires_grad=True))",
          "D.Binomial(L.tensor(4.0, dtype=L.float64),"
          " L.tensor(0.25, dtype=L.float64, requires_grad=True))"]


@pytest.mark.parametrize("made", MAKERS)
def test_binomial_distribution_as_torch(made: str) -> None:
    def run(L: Any) -> list:
        L.manual_seed(2)
        d = eval(made, {"D": L.distributions, "L": L})
        x = d.sample((4,))
        lp = d.log_prob(x)
        (g,) = L.autograd.grad(lp.sum(), d._param)
        return [repr(d), tuple(d.batch_shape), repr(d.support), x, lp, g, d.mean, d.mode,
                d.variance, d.probs, d.logits, d.expand((2, *d.batch_shape)).sample()]

    got, want = run(mt), run(torch)
    assert got[:3] == want[:3]
    for g, w in zip(got[3:], want[3:]):
        np.testing.assert_allclose(numpy_of(g), numpy_of(w), rtol=1e-6, atol=1e-7)


def test_binomial_entropy_support_and_kl_as_torch() -> None:
    def run(L: Any) -> list:
        D = L.distributions
        b = D.Binomial(5, L.tensor([0.3, 0.8]))
        other = D.Binomial(L.tensor([5.0, 4.0]), L.tensor([0.6, 0.5]))
        return [b.entropy(), b.enumerate_support(), b.enumerate_support(expand=False),
                D.kl_divergence(b, other), D.kl_divergence(D.Poisson(L.tensor([2.0])), b)]

    for g, w in zip(run(mt), run(torch)):
        np.testing.assert_allclose(numpy_of(g), numpy_of(w), rtol=1e-6, atol=0)


BAD_DISTRIBUTIONS = [
    "D.Binomial(L.tensor([3.0, 5.0]), L.tensor([0.5, 0.5])).entropy()",
    "D.Binomial(L.tensor([3.0, 5.0]), L.tensor([0.5, 0.5])).enumerate_support()",
    "D.Binomial(2.5, L.tensor(0.5))", "D.Binomial(3, L.tensor(1.5))", "D.Binomial(3)",
    "D.Binomial(3, L.tensor(0.5)).log_prob(L.tensor(4.0))",
    "D.Binomial(3, L.tensor(0.5), L.tensor(0.0))",
    "D.kl_divergence(D.Binomial(5, L.tensor(0.3)), D.Binomial(6, L.tensor(0.6)))",
]


@pytest.mark.parametrize("program", BAD_DISTRIBUTIONS)
def test_binomial_distribution_errors_as_torch(program: str) -> None:
    def build(L: Any) -> Any:
        return eval(program, {"D": L.distributions, "L": L})

    want = raised_by(build, torch)
    assert want is not None
    assert_same_error(raised_by(build, mt), want)
