"""``Exponential`` and ``Laplace`` against live torch: moments, log_prob/cdf/icdf/entropy and
their gradients, samples for the same seed, printed forms, supports, ``expand``, the
``kl_divergence`` pairs torch registers among them, and torch's validation errors."""

from __future__ import annotations

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch

MAKERS = [
    "D.Exponential(L.tensor([0.5, 2.0], requires_grad=True))", "D.Exponential(1.5)",
    "D.Exponential(L.tensor([[1.], [3.]], dtype=L.float64))",
    "D.Laplace(L.tensor([0., 1.], requires_grad=True), L.tensor(2., requires_grad=True))",
    "D.Laplace(0., 1.)", "D.Laplace(L.tensor([[-1.], [2.]], dtype=L.float64), 0.5)",
]
VALUES = ["L.tensor(0.5)", "L.tensor([0., 1.5])", "L.tensor([[0.25], [3.]])"]


def _grads(expr: str) -> str:
    return (f"out = {expr}; ps = [v for v in vars(d).values() if isinstance(v, L.Tensor) "
            "and v.requires_grad]; "
            "g = L.autograd.grad(out.sum(), ps, allow_unused=True) if ps else None")


@pytest.mark.parametrize("make", MAKERS)
@pytest.mark.parametrize("value", VALUES)
@pytest.mark.parametrize("method", ["log_prob", "cdf"])
def test_density_and_cdf_with_grads_as_torch(make: str, value: str, method: str) -> None:
    assert_as_torch(f"D = L.distributions; d = {make}; {_grads(f'd.{method}({value})')}; "
                    "R = (out, g)")


@pytest.mark.parametrize("make", MAKERS)
@pytest.mark.parametrize("value", ["L.tensor(0.3)", "L.tensor([0.01, 0.99])", "L.tensor(0.5)"])
def test_icdf_as_torch(make: str, value: str) -> None:
    assert_as_torch(f"D = L.distributions; d = {make}; {_grads(f'd.icdf({value})')}; "
                    "R = (out, g)")


@pytest.mark.parametrize("make", MAKERS)
def test_moments_printed_form_and_support_as_torch(make: str) -> None:
    assert_as_torch(f"D = L.distributions; d = {make}; "
                    "R = (d.mean, d.mode, d.stddev, d.variance, d.entropy(), repr(d), "
                    "repr(d.support), d.arg_constraints, d.batch_shape, d.event_shape, "
                    "d.has_rsample, sorted(k for k in vars(d) if not k.startswith('_')))")


@pytest.mark.parametrize("make", MAKERS)
@pytest.mark.parametrize("shape", ["()", "(3,)", "L.Size([2, 1])"])
@pytest.mark.parametrize("draw", ["sample", "rsample"])
def test_samples_for_a_seed_as_torch(make: str, shape: str, draw: str) -> None:
    assert_as_torch(f"D = L.distributions; d = {make}; L.manual_seed(3); "
                    f"{_grads(f'd.{draw}({shape})')}; R = (out, g)")


@pytest.mark.parametrize("make", MAKERS)
@pytest.mark.parametrize("shape", ["[3, 2]", "(4, 1, 2)"])
def test_expand_as_torch(make: str, shape: str) -> None:
    assert_as_torch(f"D = L.distributions; d = {make}; e = d.expand({shape}); "
                    "L.manual_seed(1); x = e.sample(); "
                    "R = (repr(e), e.batch_shape, x, e.log_prob(x), e.entropy(), e.mean)")


PAIRS = [
    ("D.Exponential(L.tensor([1., 2.]))", "D.Exponential(L.tensor(3.))"),
    ("D.Exponential(L.tensor([1., 2.]))", "D.Normal(L.tensor(0.5), 2.)"),
    ("D.Laplace(L.tensor([0., 1.]), 2.)", "D.Normal(L.tensor(0.5), 2.)"),
    ("D.Uniform(L.tensor([-1., 1.]), 2.)", "D.Exponential(L.tensor(3.))"),
    ("D.Exponential(L.tensor([1., 2.]))", "D.Uniform(0., 1.)"),
    ("D.Laplace(L.tensor([0., 1.]), 2.)", "D.Exponential(L.tensor(3.))"),
    ("D.Laplace(L.tensor([0., 1.]), 2.)", "D.Uniform(0., 1.)"),
    ("D.Normal(L.tensor([0., 1.]), 2.)", "D.Exponential(L.tensor(3.))"),
    ("D.Normal(L.tensor([0., 1.]), 2.)", "D.Uniform(0., 1.)"),
]


@pytest.mark.parametrize(("p", "q"), PAIRS)
def test_kl_pairs_as_torch(p: str, q: str) -> None:
    assert_as_torch(f"D = L.distributions; R = D.kl_divergence({p}, {q})")


@pytest.mark.parametrize(("p", "q"), [
    ("D.Laplace(L.tensor([0., 1.]), 2.)", "D.Laplace(L.tensor(0.5), L.tensor([1., 3.]))"),
    ("D.Normal(L.tensor([0., 1.]), 2.)", "D.Laplace(L.tensor(0.5), 2.)"),
])
def test_kl_pairs_through_float32_exp_as_torch(p: str, q: str) -> None:
    """Pairs whose formula takes a float32 ``exp``: torch's bits come from MKL (or numpy's
    float64 rounded once), which other array namespaces do not promise."""
    assert_as_torch(f"D = L.distributions; R = D.kl_divergence({p}, {q})")


@pytest.mark.parametrize("program", [
    "R = D.Exponential(L.tensor([1., -1.]))",
    "R = D.Exponential(0.)",
    "R = D.Laplace(0., -1.)",
    "R = D.Laplace(L.tensor([0., float('nan')]), 1.)",
    "R = D.Exponential(1.).log_prob(L.tensor(-1.))",
    "R = D.Exponential(1.).cdf(L.tensor([1., -0.5]))",
    "R = D.Exponential(1., validate_args=False).log_prob(L.tensor(-1.))",
    "R = D.Laplace(0., 1.).log_prob(L.tensor(float('nan')))",
    "R = D.Exponential(L.ones(2)).log_prob(L.ones(3))",
    "R = (D.constraints.nonnegative, D.constraints.greater_than_eq(2.), "
    "D.constraints.nonnegative.check(L.tensor([-1., 0., 1.])))",
])
def test_validation_as_torch(program: str) -> None:
    assert_as_torch("D = L.distributions\n" + program)
