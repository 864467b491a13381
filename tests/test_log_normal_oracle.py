"""``LogNormal`` and ``TransformedDistribution`` (element-wise transforms) against live
torch: samples for a seed and their gradients, log_prob, moments, entropy, printed forms,
supports, ``expand`` and torch's validation errors."""

from __future__ import annotations

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch

MAKERS = [
    "D.LogNormal(L.tensor(0.5, requires_grad=True), L.tensor(0.3, requires_grad=True))",
    "D.LogNormal(0., 1.)", "D.LogNormal(L.tensor([[0.], [1.]], dtype=L.float64), 0.5)",
    "D.TransformedDistribution(D.Normal(L.tensor([0., 1.], requires_grad=True), 2.), "
    "[D.ExpTransform(), D.AffineTransform(1., 3.)])",
    "D.TransformedDistribution(D.Independent(D.Normal(L.zeros(2, 3), 1.), 1), "
    "D.ExpTransform())",
]


def _grads(expr: str) -> str:
    return (f"out = {expr}; ps = [v for v in (getattr(d, 'base_dist', d).__dict__.values()) "
            "if isinstance(v, L.Tensor) and v.requires_grad]; "
            "g = L.autograd.grad(out.sum(), ps, allow_unused=True) if ps else None")


@pytest.mark.parametrize("make", MAKERS)
@pytest.mark.parametrize("shape", ["()", "(5,)", "L.Size([2, 1])"])
def test_rsample_and_log_prob_as_torch(make: str, shape: str) -> None:
    assert_as_torch(f"D = L.distributions; d = {make}; "
                    f"L.manual_seed(2); s = d.rsample({shape}); L.manual_seed(2); "
                    f"t = d.sample({shape}); {_grads('d.log_prob(s) + s.sum()')}; "
                    "R = (s, t, out, g)")


@pytest.mark.parametrize("make", MAKERS)
def test_forms_as_torch(make: str) -> None:
    assert_as_torch(f"D = L.distributions; d = {make}; "
                    "R = (repr(d), repr(d.support), d.batch_shape, d.event_shape, d.has_rsample, "
                    "d.arg_constraints, sorted(k for k in vars(d) if not k.startswith('_')))")


@pytest.mark.parametrize("make", MAKERS[:3])
def test_moments_as_torch(make: str) -> None:
    assert_as_torch(f"D = L.distributions; d = {make}; "
                    "R = (d.mean, d.mode, d.variance, d.stddev, d.entropy(), d.loc, d.scale)")


@pytest.mark.parametrize("make", MAKERS)
def test_expand_as_torch(make: str) -> None:
    assert_as_torch(f"D = L.distributions; d = {make}; e = d.expand([4, 2]); "
                    "L.manual_seed(1); x = e.sample(); "
                    "R = (repr(e), e.batch_shape, e.event_shape, x, e.log_prob(x))")


@pytest.mark.parametrize("program", [
    "R = D.LogNormal(0., -1.)",
    "R = D.LogNormal(L.tensor([0., 1.]), 0.).expand([3, 2])",
    "R = D.LogNormal(0., 1.).log_prob(L.tensor(-1.))",
    "R = D.LogNormal(0., 1., validate_args=False).log_prob(L.tensor([0., 2.]))",
    "R = D.TransformedDistribution(D.Normal(0., 1.), 3)",
    "R = D.TransformedDistribution(D.Normal(0., 1.), [D.ExpTransform(), 3])",
])
def test_edges_as_torch(program: str) -> None:
    assert_as_torch("D = L.distributions\n" + program)
