"""Gamma-family draws against torch, bit for bit: ``_standard_gamma`` (Marsaglia and Tsang's
rejection with its uniforms and normals taken one by one from the generator), its
reparameterised gradient ``_standard_gamma_grad``, ``_sample_dirichlet`` and
``_dirichlet_grad``, and the distributions that sample through them (``Gamma``, ``Chi2``,
``StudentT``, ``Beta``, ``Dirichlet``): the same numbers for the same seed, the stream left
where torch leaves it, the same gradients, printed forms and errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import assert_same, assert_same_error, numpy_of, raised_by

# alphas where sample_gamma takes each of its paths: zero, tiny (1 / alpha overflows in
# float32), below 1 (the boost), 1, moderate and large, negative and NaN (torch's result
# becomes the smallest normal number), infinity
SPECIAL = [0.0, 1e-39, 1 / 3, float(np.float32(1) / np.float32(3)), 1e-320, 1e-30, 1e-5,
           0.01, 0.3, 0.5, 0.99, 1.0, 1.5, 2.0, 3.3, 10.0, 100.0, 1e4, 1e8, -0.5, -3.0,
           float("nan"), float("inf")]


def _bits(t: Any) -> np.ndarray:
    """The bytes of a tensor's values: equal bytes are equal numbers, NaNs and zeros' signs
    included."""
    return np.ascontiguousarray(numpy_of(t)).view(np.uint8)


def assert_bits(got: Any, want: torch.Tensor) -> None:
    assert str(got.dtype) == str(want.dtype) and tuple(got.shape) == tuple(want.shape)
    assert np.array_equal(_bits(got), _bits(want)), (numpy_of(got), numpy_of(want))


def both(fn: Any, seed: int) -> tuple:
    """``fn(library)`` after seeding each library with ``seed``."""
    mt.manual_seed(seed)
    torch.manual_seed(seed)
    return fn(mt), fn(torch)


def _alphas(seed: int, n: int = 40) -> np.ndarray:
    rs = np.random.RandomState(seed)
    return np.concatenate([SPECIAL, rs.gamma(0.7, 2.0, n), rs.uniform(0, 1, n // 4)])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("seed", range(12))
def test_standard_gamma_draws_and_the_stream_after_them(seed: int, dtype: str) -> None:
    alphas = _alphas(seed).astype(dtype)

    def draws(L: Any) -> tuple:
        # a scalar normal after: its Box-Muller spare is the one the gamma draws left
        return L._standard_gamma(L.tensor(alphas)), L.randn(1, dtype=L.float64), L.rand(3)

    got, want = both(draws, seed)
    for g, w in zip(got, want):
        assert_bits(g, w)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), shape=st.sampled_from([(), (1,), (7,), (3, 5),
                                                                 (2, 0), (2, 3, 4)]),
       scale=st.sampled_from([1e-3, 0.2, 1.0, 5.0, 300.0]), double=st.booleans())
def test_standard_gamma_of_any_shape_and_layout(seed: int, shape: tuple, scale: float,
                                                double: bool) -> None:
    rs = np.random.RandomState(seed % 2 ** 31)
    alphas = rs.gamma(1.0, scale, shape).astype("float64" if double else "float32")

    def draws(L: Any) -> tuple:
        a = L.tensor(alphas)
        transposed = a.transpose(0, -1) if a.dim() > 1 else a  # drawn in its logical order
        expanded = L.tensor(alphas.reshape(-1)[:1]).expand(3, 2) if alphas.size else a
        return L._standard_gamma(a), L._standard_gamma(transposed), L._standard_gamma(expanded)

    got, want = both(draws, seed)
    for g, w in zip(got, want):
        assert_bits(g, w)


def test_standard_gamma_with_a_generator_leaves_the_default_one() -> None:
    def draws(L: Any) -> tuple:
        g = L.Generator().manual_seed(5)
        return L._standard_gamma(L.tensor([0.4, 2.0, 7.0]), g), L.rand(2)

    got, want = both(draws, 1)
    for g, w in zip(got, want):
        assert_bits(g, w)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_standard_gamma_grad_of_every_branch(dtype: str) -> None:
    """Small samples (the series), alpha above 8 near and away from x = alpha (Rice's
    saddle point), the rational approximation elsewhere, and zeros."""
    rs = np.random.RandomState(3)
    alpha = np.concatenate([rs.gamma(1, 3, 1500), rs.uniform(0, 30, 1500),
                            [1e-3, 0.5, 8.0, 8.5, 100.0, 1e4, 2.0, 2.0]])
    x = np.concatenate([rs.gamma(alpha[:3000]), [0.0, 1e-30, 8.0, 8.4, 95.0, 1e4, 0.0, 0.8]])
    got = mt._standard_gamma_grad(mt.tensor(alpha.astype(dtype)), mt.tensor(x.astype(dtype)))
    want = torch._standard_gamma_grad(torch.tensor(alpha.astype(dtype)),
                                      torch.tensor(x.astype(dtype)))
    assert_bits(got, want)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("seed", range(4))
def test_gamma_rsample_gradients(seed: int, dtype: str) -> None:
    conc = np.random.RandomState(seed).gamma(1.0, 3.0, 6).astype(dtype)

    def grads(L: Any) -> tuple:
        c = L.tensor(conc, requires_grad=True)
        r = L.tensor(np.linspace(0.5, 3, 6).astype(dtype), requires_grad=True)
        x = L.distributions.Gamma(c, r).rsample((4,))
        w = L.arange(24, dtype=x.dtype).reshape(4, 6)
        return (x, *L.autograd.grad((x * w).sum(), (c, r)))

    got, want = both(grads, seed)
    assert got[0].grad_fn.name() == want[0].grad_fn.name()
    for g, w in zip(got, want):
        assert_bits(g.detach(), w.detach())


def test_standard_gamma_nodes_and_their_refusals() -> None:
    def first_order(L: Any) -> tuple:
        a = L.tensor([0.7, 2.5], requires_grad=True)
        s = L._standard_gamma(a)
        (g,) = L.autograd.grad(s.sum(), a, create_graph=True)
        return s.grad_fn.name(), g

    got, want = both(first_order, 2)
    assert got[0] == want[0] == "StandardGammaBackward0"
    assert_bits(got[1].detach(), want[1].detach())

    def second_order(L: Any) -> Any:
        a = L.tensor([0.7, 2.5], requires_grad=True)
        (g,) = L.autograd.grad(L._standard_gamma(a).sum(), a, create_graph=True)
        return L.autograd.grad(g.sum(), a)

    assert_same_error(raised_by(second_order, mt), raised_by(second_order, torch))


BAD_CALLS = [
    lambda L: L._standard_gamma(L.tensor([1, 2])),
    lambda L: L._standard_gamma([1.0]),
    lambda L: L._standard_gamma(L.ones(2), 3),
    lambda L: L._standard_gamma_grad(L.tensor([1, 2]), L.tensor([1, 2])),
    lambda L: L._standard_gamma_grad(L.ones(2), L.ones(3)),
    lambda L: L._standard_gamma_grad(L.ones(2), L.ones(2, dtype=L.float64)),
    lambda L: L._sample_dirichlet(L.tensor([1, 2])),
    lambda L: L._sample_dirichlet(L.ones(2), "g"),
    lambda L: L._dirichlet_grad(L.ones(2), L.ones(3), L.ones(2)),
    lambda L: L._dirichlet_grad(L.ones(2), L.ones(2), L.ones(2, dtype=L.float64)),
    lambda L: L._sample_dirichlet(L.tensor([[0.5, 1.5]], requires_grad=True)).sum().backward(),
    lambda L: L._dirichlet_grad(L.tensor([0.3]), L.tensor([0.5], requires_grad=True),
                                L.tensor([1.0])).sum().backward(),
    lambda L: L._standard_gamma_grad(L.tensor([0.5], requires_grad=True),
                                     L.tensor([0.3])).sum().backward(),
]


@pytest.mark.parametrize("sampler", ["_standard_gamma", "_sample_dirichlet"])
def test_half_is_refused_as_torch(sampler: str) -> None:
    def draw(L: Any) -> Any:
        return getattr(L, sampler)(L.tensor([1.0], dtype=L.float16))

    assert_same_error(raised_by(draw, mt), raised_by(draw, torch))


def test_nodes_without_a_derivative_are_torchs() -> None:
    def nodes(L: Any) -> list:
        a = L.tensor([[0.5, 1.5]], requires_grad=True)
        x = L.tensor([0.3], requires_grad=True)
        return [L._sample_dirichlet(a).grad_fn.name(),
                L._dirichlet_grad(x, x + 1, x + 2).grad_fn.name(),
                L._standard_gamma_grad(x, x).grad_fn.name()]

    assert nodes(mt) == nodes(torch)


@pytest.mark.parametrize("call", range(len(BAD_CALLS)))
def test_bad_calls_raise_torchs_errors(call: int) -> None:
    fn = BAD_CALLS[call]
    want = raised_by(fn, torch)
    assert want is not None
    assert_same_error(raised_by(fn, mt), want)


@pytest.mark.parametrize("seed", range(6))
def test_chi2_and_student_t_draws(seed: int) -> None:
    def draws(L: Any) -> tuple:
        D = L.distributions
        df = L.tensor([0.5, 1.0, 4.0, 30.0], dtype=L.float64, requires_grad=True)
        t = D.StudentT(df, L.tensor(1.0, dtype=L.float64), 0.5).rsample((3,))
        chi = D.Chi2(L.tensor([1.0, 4.0])).sample((5,))
        return (chi, D.Chi2(3.0).rsample(), D.StudentT(4.0).sample((7,)), t,
                L.autograd.grad(t.sum(), df)[0])

    got, want = both(draws, seed)
    for g, w in zip(got, want):
        assert_bits(g.detach(), w.detach())


def test_chi2_and_student_t_scores() -> None:
    def scores(L: Any) -> tuple:
        D = L.distributions
        df = L.tensor([0.5, 1.0, 4.0, 30.0], dtype=L.float64)
        value = L.linspace(-3, 3, 12, dtype=L.float64).reshape(3, 4)
        return (D.StudentT(df, 1.0, 0.5).log_prob(value), D.Chi2(df).log_prob(value.abs()),
                D.Chi2(df).entropy(), D.StudentT(df).entropy(), D.Chi2(df).variance)

    for g, w in zip(scores(mt), scores(torch)):
        np.testing.assert_allclose(numpy_of(g), numpy_of(w), rtol=1e-12, atol=0)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("seed", range(8))
def test_sample_dirichlet_draws(seed: int, dtype: str) -> None:
    """Rows of 1 to 40 concentrations, tiny to large: float64 gamma draws, torch's float64
    sum, the ratio clamped below 1 and above the smallest normal number."""
    rs = np.random.RandomState(seed)
    rows = [rs.gamma(0.5, 2.0, (3, k)) for k in (1, 2, 5, 40)] + [np.array([[1e-4, 1e-3]])]

    def draws(L: Any) -> tuple:
        return (*(L._sample_dirichlet(L.tensor(r.astype(dtype))) for r in rows),
                L._sample_dirichlet(L.tensor(2.0)), L.randn(1, dtype=L.float64))

    got, want = both(draws, seed)
    for g, w in zip(got, want):
        assert_bits(g, w)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_dirichlet_grad_of_every_branch(dtype: str) -> None:
    """x near 0 and near 1 (the Taylor series, in float32 where torch's are), both
    concentrations above 6 (the saddle point), the rational correction elsewhere."""
    rs = np.random.RandomState(5)
    alpha = np.concatenate([rs.gamma(1, 3, 2000), rs.uniform(6, 60, 1000)]) + 1e-3
    other = np.concatenate([rs.gamma(1, 5, 2000), rs.uniform(6, 60, 1000)]) + 1e-3
    x = rs.beta(alpha, other).clip(1e-7, 1 - 1e-7)
    args = [a.astype(dtype) for a in (x, alpha, alpha + other)]
    assert_bits(mt._dirichlet_grad(*map(mt.tensor, args)),
                torch._dirichlet_grad(*map(torch.tensor, args)))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("seed", range(4))
def test_beta_and_dirichlet_rsample_gradients(seed: int, dtype: str) -> None:
    rs = np.random.RandomState(seed)
    c1, c0 = rs.gamma(1.0, 3.0, 5).astype(dtype), rs.gamma(1.0, 3.0, 5).astype(dtype)
    conc = rs.gamma(1.0, 4.0, (2, 4)).astype(dtype)

    def draws(L: Any) -> tuple:
        D = L.distributions
        a, b = L.tensor(c1, requires_grad=True), L.tensor(c0, requires_grad=True)
        x = D.Beta(a, b).rsample((3,))
        k = L.tensor(conc, requires_grad=True)
        y = D.Dirichlet(k).rsample((2,))
        wx = L.arange(15, dtype=x.dtype).reshape(3, 5)
        wy = L.arange(16, dtype=y.dtype).reshape(2, 2, 4)
        return (x, y, *L.autograd.grad((x * wx).sum() + (y * wy).sum(), (a, b, k)),
                D.Beta(2.0, 3.0).sample((4,)), D.Dirichlet(k).expand((3, 2)).sample())

    got, want = both(draws, seed)
    assert got[1].grad_fn.name() == want[1].grad_fn.name() == "_DirichletBackward"
    for g, w in zip(got, want):
        assert_bits(g.detach(), w.detach())


SCORES = [
    "D.Beta(2.0, 3.0)", "D.Beta(L.tensor([0.5, 2.0]), L.tensor([0.5, 3.0]))",
    "D.Dirichlet(L.tensor([[0.2, 1.0, 3.0], [5.0, 6.0, 7.0]], dtype=L.float64))",
    "D.Dirichlet(L.tensor([0.5, 0.5]))", "D.Beta(L.tensor(2.0), L.tensor(3.0)).expand([2])",
]


@pytest.mark.parametrize("made", SCORES)
def test_beta_and_dirichlet_scores_and_printed_forms(made: str) -> None:
    def scores(L: Any) -> tuple:
        d = eval(made, {"D": L.distributions, "L": L})
        value = d.mean * 0.5 + 0.5 / d.event_shape.numel()  # inside the support
        return (repr(d), tuple(d.batch_shape), tuple(d.event_shape), d.mean, d.variance,
                d.mode, d.entropy(), d.log_prob(value))

    got, want = scores(mt), scores(torch)
    assert got[:3] == want[:3]
    for g, w in zip(got[3:], want[3:]):
        np.testing.assert_allclose(numpy_of(g), numpy_of(w), rtol=1e-6, atol=0)


BAD_PARAMETERS = [
    "D.Dirichlet(L.tensor(1.0))", "D.Dirichlet(L.tensor([1.0, -1.0]))", "D.Beta(1.0, -1.0)",
    "D.Beta(L.tensor([1.0]), L.tensor([0.0]))", "D.Beta(2.0, 3.0).log_prob(L.tensor(1.5))",
    "D.Dirichlet(L.ones(3)).log_prob(L.tensor([0.5, 0.5, 0.5]))",
    "D.Beta(L.ones(2), L.ones(3))",
]


@pytest.mark.parametrize("program", BAD_PARAMETERS)
def test_bad_parameters_raise_torchs_errors(program: str) -> None:
    def build(L: Any) -> Any:
        return eval(program, {"D": L.distributions, "L": L})

    want = raised_by(build, torch)
    assert want is not None
    assert_same_error(raised_by(build, mt), want)


def test_a_long_run_of_draws_leaves_the_stream_where_torch_does() -> None:
    """More uniforms than one block minitorch reads ahead: the block after it, and the words
    read ahead but not used given back."""
    alphas = np.tile([0.3, 2.5, 0.9, 40.0], 9000).astype("float32")

    def draws(L: Any) -> tuple:
        return L._standard_gamma(L.tensor(alphas)), L.randn(3, dtype=L.float64), L.rand(5)

    got, want = both(draws, 11)
    for g, w in zip(got, want):
        assert_bits(g, w)


SCORES_REFUSED = ["D.Beta(2.0, 3.0).cdf(L.tensor(0.5))", "D.StudentT(2.0).cdf(L.tensor(0.5))",
                  "D.Dirichlet(L.ones(2)).icdf(L.tensor(0.5))",
                  "D.Beta(2.0, 3.0).icdf(L.tensor(0.5))"]


@pytest.mark.parametrize("program", SCORES_REFUSED)
def test_scores_torch_does_not_define_are_refused_as_torch(program: str) -> None:
    def score(L: Any) -> Any:
        return eval(program, {"D": L.distributions, "L": L})

    assert_same_error(raised_by(score, mt), raised_by(score, torch))


def test_gamma_cdf_is_torchs_regularized_incomplete_gamma() -> None:
    """torch's is ``special.gammainc(concentration, rate * value)``, for Chi2 too."""
    def cdfs(L: Any) -> Any:
        values = L.tensor([0.5, 2.0, 7.5], dtype=L.float64)
        return (L.distributions.Chi2(L.tensor(3.0, dtype=L.float64)).cdf(values),
                L.distributions.Gamma(L.tensor([0.5, 2.0, 9.0], dtype=L.float64),
                                      2.0).cdf(values))

    for got, want in zip(cdfs(mt), cdfs(torch)):
        assert_same(got, want)


def test_sample_n_warns_and_draws_as_torch() -> None:
    def draws(L: Any) -> Any:
        with pytest.warns(FutureWarning, match=r"sample_n\(n\)` will be deprecated"):
            return L.distributions.Gamma(L.tensor([2.0, 0.5]), 1.0).sample_n(3)

    got, want = both(draws, 4)
    assert_bits(got, want)
