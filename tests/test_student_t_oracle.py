"""``StudentT`` against live torch: log_prob and entropy with their gradients, moments (the
nan/inf cases of small ``df``), printed forms, ``expand`` and torch's validation errors.
Sampling is refused (torch draws through ``_standard_gamma``): the refusal is tested here."""

from __future__ import annotations

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch
from test_gamma_oracle import log_prob_and_entropy_program

MAKERS = [
    "D.StudentT(L.tensor([0.5, 1.5, 4.], requires_grad=True), L.tensor(1., requires_grad=True), "
    "L.tensor(0.5, requires_grad=True))",
    "D.StudentT(4.)", "D.StudentT(df=3., loc=1., scale=2.)",
    "D.StudentT(L.tensor([[1.], [7.]], dtype=L.float64), 0.5)",
]


@pytest.mark.parametrize("make", MAKERS)
@pytest.mark.parametrize("value", ["L.tensor(0.5)", "L.tensor([-2., 0., 3.])",
                                   "L.tensor([[1.], [3.]])"])
def test_log_prob_and_entropy_with_grads_as_torch(make: str, value: str) -> None:
    assert_as_torch(log_prob_and_entropy_program(make, value))


@pytest.mark.parametrize("make", MAKERS)
def test_moments_forms_and_expand_as_torch(make: str) -> None:
    assert_as_torch(f"D = L.distributions; d = {make}; "
                    "e = d.expand([5, 3] if d.df.dim() else [2]); "
                    "R = (d.mean, d.mode, d.variance, d.stddev, repr(d), repr(d.support), "
                    "d.arg_constraints, d.batch_shape, repr(e), e.batch_shape, e.entropy(), "
                    "sorted(k for k in vars(d) if not k.startswith('_')))")


@pytest.mark.parametrize("program", [
    "R = D.StudentT(0.)",
    "R = D.StudentT(2., scale=L.tensor([1., -2.]))",
    "R = D.StudentT(2., validate_args=False).log_prob(L.tensor(float('inf')))",
])
def test_validation_as_torch(program: str) -> None:
    assert_as_torch("D = L.distributions\n" + program)
