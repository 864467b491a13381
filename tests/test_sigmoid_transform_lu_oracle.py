"""torch.distributions' SigmoidTransform (and its inverse, the logit, as a prior's transform)
and the deprecated ``torch.lu``/``Tensor.lu``, against live torch: values, log-det-Jacobians,
gradients, the clipping at the ends, and what ``lu`` returns."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import assert_same, numpy_of

VALUES = st.lists(st.floats(-40, 40, allow_nan=False), min_size=1, max_size=8)


@settings(max_examples=60, deadline=None)
@given(VALUES, st.sampled_from(["float32", "float64"]))
def test_sigmoid_transform_and_its_inverse_as_torch(values: list, dtype: str) -> None:
    results = []
    for L in (mt, torch):
        x = L.tensor(values, dtype=getattr(L, dtype), requires_grad=True)
        t = L.distributions.transforms.SigmoidTransform()
        y = t(x)
        back = t.inv(y)
        ladj = t.log_abs_det_jacobian(x, y)
        (y.sum() + ladj.sum()).backward()
        results.append((y, back, ladj, x.grad))
    for got, want in zip(*results):
        assert_same(got.detach(), want.detach())


def test_logistic_prior_of_a_flow_as_torch() -> None:
    """Karpathy's normalizing-flow prior: Uniform through the logit."""
    samples = []
    for L in (mt, torch):
        L.manual_seed(3)
        prior = L.distributions.TransformedDistribution(
            L.distributions.Uniform(L.zeros(2), L.ones(2)),
            L.distributions.transforms.SigmoidTransform().inv)
        z = prior.sample((4,))
        samples.append((z, prior.log_prob(z)))
    for got, want in zip(*samples):
        assert_same(got, want)
    assert mt.distributions.SigmoidTransform() == mt.distributions.transforms.SigmoidTransform()


@pytest.mark.parametrize("get_infos", [False, True])
def test_deprecated_lu_returns_torchs_factors(get_infos: bool) -> None:
    a = np.random.default_rng(4).standard_normal((2, 3, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got, want = (L.tensor(a).lu(get_infos=get_infos) for L in (mt, torch))
        assert type(got) is tuple and len(got) == len(want) == (3 if get_infos else 2)
        for g, w in zip(got, want):
            assert_same(g, w)
        np.testing.assert_array_equal(numpy_of(mt.lu(mt.tensor(a))[1]),
                                      numpy_of(torch.lu(torch.tensor(a))[1]))
