"""Distributions' ``expand`` and ``enumerate_support`` against live torch: the expanded
distribution's shapes, parameters (views, both parameterisations where one was read),
samples for the same seed, log_prob and entropy, the supports, and torch's errors."""

from __future__ import annotations

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch

MAKERS = [
    "D.Normal(L.tensor([0., 1.]), 2.)", "D.Normal(0., 1.)", "D.Uniform(L.tensor([0., -1.]), 2.)",
    "D.Bernoulli(L.tensor([0.25, 0.9]))", "D.Bernoulli(logits=0.3)",
    "D.Categorical(L.tensor([[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]]))",
    "D.Categorical(logits=L.tensor([1., -0.5, 2.]))",
    "D.Independent(D.Normal(L.zeros(2, 3), 1.), 1)",
    "D.Independent(D.Bernoulli(L.tensor([[0.5, 0.25]])), 0)",
    "D.MultivariateNormal(L.zeros(2), L.eye(2))",
]


@pytest.mark.parametrize("make", MAKERS)
@pytest.mark.parametrize("shape", ["[3, 2]", "(4, 1, 2)", "L.Size([2])"])
def test_expand_as_torch(make: str, shape: str) -> None:
    assert_as_torch(
        f"D = L.distributions; d = {make}; "
        "d.probs if hasattr(d, 'probs') else None; "
        f"e = d.expand({shape}); L.manual_seed(1); x = e.sample(); "
        "R = (repr(e), e.batch_shape, e.event_shape, x, e.log_prob(x), e.entropy(), "
        "e.mean if not isinstance(e, D.Categorical) else None, "
        "sorted(k for k in vars(e) if not k.startswith('_')), e._validate_args)")


@pytest.mark.parametrize("make", MAKERS)
@pytest.mark.parametrize("expand", [True, False])
def test_enumerate_support_as_torch(make: str, expand: bool) -> None:
    assert_as_torch(f"D = L.distributions; d = {make}; "
                    f"R = (d.has_enumerate_support, d.enumerate_support({expand}))")


@pytest.mark.parametrize("program", [
    "class N(D.Normal):\n    def __init__(self): super().__init__(0., 1.)\nR = N().expand([2])",
    "R = D.Distribution().expand([2])",
    "R = D.Distribution().enumerate_support()",
    "R = D.Independent(D.Bernoulli(L.tensor([[0.5, 0.25]])), 1).enumerate_support()",
    "d = D.Normal(0., 1., validate_args=False).expand([2]); R = d.log_prob(L.tensor([2.]))",
])
def test_expand_edges(program: str) -> None:
    assert_as_torch("D = L.distributions\n" + program)
