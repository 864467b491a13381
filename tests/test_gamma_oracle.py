"""``Gamma`` against live torch: log_prob and entropy with their gradients, moments, printed
forms, ``expand``, its KL pairs and torch's validation errors. Sampling is refused (torch's
``_standard_gamma`` kernel is not reproduced): the refusal is tested here."""

from __future__ import annotations

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch

MAKERS = [
    "D.Gamma(L.tensor([0.5, 3.0], requires_grad=True), L.tensor(2.0, requires_grad=True))",
    "D.Gamma(2., 1.)", "D.Gamma(L.tensor([[1.], [4.5]], dtype=L.float64), 0.5)",
    "D.Chi2(L.tensor([1., 3.], requires_grad=True))", "D.Chi2(4.)",
]


@pytest.mark.parametrize("make", MAKERS)
@pytest.mark.parametrize("value", ["L.tensor(0.5)", "L.tensor([0., 2.5])", "[[1.], [3.]]", "2"])
def test_log_prob_and_entropy_with_grads_as_torch(make: str, value: str) -> None:
    assert_as_torch(log_prob_and_entropy_program(make, value))


def log_prob_and_entropy_program(make: str, value: str) -> str:
    """``d.log_prob(value) + d.entropy()`` and its gradients in ``d``'s parameters."""
    return (f"D = L.distributions; d = {make}; out = d.log_prob({value}) + d.entropy(); "
            "ps = [v for v in vars(d).values() if isinstance(v, L.Tensor) and v.requires_grad]; "
            "g = L.autograd.grad(out.sum(), ps) if ps else None; R = (out, g)")


@pytest.mark.parametrize("make", MAKERS)
def test_moments_forms_and_expand_as_torch(make: str) -> None:
    assert_as_torch(f"D = L.distributions; d = {make}; e = d.expand([4, 2]); "
                    "R = (d.mean, d.mode, d.variance, d.stddev, repr(d), repr(d.support), "
                    "d.arg_constraints, d.batch_shape, repr(e), e.batch_shape, e.entropy(), "
                    "sorted(k for k in vars(d) if not k.startswith('_')))")


@pytest.mark.parametrize(("p", "q"), [
    ("D.Gamma(L.tensor([1., 2.5]), 2.)", "D.Gamma(L.tensor(3.), L.tensor([1.5, 0.5]))"),
    ("D.Exponential(L.tensor([1., 2.]))", "D.Gamma(L.tensor(3.), 1.5)"),
    ("D.Gamma(L.tensor([1., 2.5]), 2.)", "D.Exponential(L.tensor(3.))"),
    ("D.Gamma(L.tensor([1., 2.5]), 2.)", "D.Uniform(0., 1.)"),
    ("D.Normal(L.tensor([1., 2.5]), 2.)", "D.Gamma(2., 1.)"),
    ("D.Laplace(L.tensor([1., 2.5]), 2.)", "D.Gamma(2., 1.)"),
])
def test_kl_pairs_as_torch(p: str, q: str) -> None:
    assert_as_torch(f"D = L.distributions; R = D.kl_divergence({p}, {q})")


@pytest.mark.parametrize("program", [
    "R = D.Gamma(0., 1.)",
    "R = D.Gamma(1., L.tensor([1., -2.]))",
    "R = D.Gamma(2., 1.).log_prob(L.tensor(-1.))",
    "R = D.Gamma(2., 1., validate_args=False).log_prob(L.tensor([-1., 0.]))",
    "R = D.Gamma(1., 1.).log_prob(L.tensor(0.))",
    "R = D.Chi2(L.tensor([1., -1.]))",
])
def test_validation_as_torch(program: str) -> None:
    assert_as_torch("D = L.distributions\n" + program)
