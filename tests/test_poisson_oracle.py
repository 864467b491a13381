"""``Poisson`` against live torch: log_prob and its gradient (rate 0 included), moments,
counts for the same seed, printed forms, supports, ``expand``, its KL pairs and torch's
validation errors."""

from __future__ import annotations

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch

MAKERS = ["D.Poisson(L.tensor([0.5, 2.0], requires_grad=True))", "D.Poisson(3.)",
          "D.Poisson(L.tensor([[0.], [7.5]], dtype=L.float64, requires_grad=True))"]


@pytest.mark.parametrize("make", MAKERS)
@pytest.mark.parametrize("value", ["L.tensor(0.)", "L.tensor([1., 4.])", "L.tensor([[2.], [0.]])"])
def test_log_prob_with_grads_as_torch(make: str, value: str) -> None:
    assert_as_torch(f"D = L.distributions; d = {make}; out = d.log_prob({value}); "
                    "g = L.autograd.grad(out.sum(), d.rate, allow_unused=True) "
                    "if d.rate.requires_grad else None; R = (out, g)")


@pytest.mark.parametrize("make", MAKERS)
@pytest.mark.parametrize("shape", ["()", "(3,)", "L.Size([2, 1])"])
def test_samples_and_forms_as_torch(make: str, shape: str) -> None:
    assert_as_torch(f"D = L.distributions; d = {make}; L.manual_seed(5); x = d.sample({shape}); "
                    "R = (x, d.mean, d.mode, d.variance, repr(d), repr(d.support), "
                    "d.arg_constraints, d.batch_shape, d.has_rsample, d.support.is_discrete, "
                    "d.support.check(L.tensor([-1., 0., 1.5, 2.])))")


@pytest.mark.parametrize("make", MAKERS)
def test_expand_as_torch(make: str) -> None:
    assert_as_torch(f"D = L.distributions; e = {make}.expand([4, 2]); L.manual_seed(1); "
                    "x = e.sample(); R = (repr(e), e.batch_shape, x, e.log_prob(x))")


@pytest.mark.parametrize("program", [
    "R = D.kl_divergence(D.Poisson(L.tensor([1., 2.])), D.Poisson(L.tensor(3.)))",
    "R = D.kl_divergence(D.Poisson(L.tensor([1., 2.])), D.Bernoulli(0.5))",
    "R = D.Poisson(-1.)",
    "R = D.Poisson(L.tensor([1., float('nan')]))",
    "R = D.Poisson(2.).log_prob(L.tensor(1.5))",
    "R = D.Poisson(2.).log_prob(L.tensor(-1.))",
    "R = D.Poisson(2., validate_args=False).log_prob(L.tensor(1.5))",
    "R = D.Poisson(2.).rsample()",
    "R = (D.constraints.nonnegative_integer, D.constraints.positive_integer, "
    "D.constraints.positive_integer.check(L.tensor([0., 1., 2.5])))",
])
def test_edges_as_torch(program: str) -> None:
    assert_as_torch("D = L.distributions\n" + program)


def test_a_long_run_of_counts_leaves_the_stream_where_torch_does() -> None:
    """More uniforms than one block minitorch reads ahead (small and large rates: products
    of uniforms, and the rejection method), then torch's next numbers."""
    assert_as_torch("L.manual_seed(9); rates = L.arange(30000, dtype=L.float64) % 37 * 0.7; "
                    "R = (L.poisson(rates), L.rand(3, dtype=L.float64), L.randn(2))")
