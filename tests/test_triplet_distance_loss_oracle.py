"""F.triplet_margin_with_distance_loss and nn.TripletMarginWithDistanceLoss against torch:
values and gradients (float64 to rounding), the graph's nodes (torch's composition), the
printed module, the errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import NONZERO, SETTINGS, arrays, assert_same_error, node_chain, raised_by

import minitorch


def _cosine(L):
    return lambda a, b: 1.0 - L.nn.functional.cosine_similarity(a, b)


def _run(L, data, distance, margin, swap, reduction, module):
    a, p, n = (L.tensor(d, requires_grad=True) for d in data)
    fn = None if distance == "default" else _cosine(L) if distance == "cosine" else \
        L.nn.PairwiseDistance(p=1)
    if module:
        loss = L.nn.TripletMarginWithDistanceLoss(distance_function=fn, margin=margin,
                                                  swap=swap, reduction=reduction)(a, p, n)
    else:
        loss = L.nn.functional.triplet_margin_with_distance_loss(
            a, p, n, distance_function=fn, margin=margin, swap=swap, reduction=reduction)
    loss.sum().backward()
    return (loss.detach().numpy(), a.grad.numpy(), p.grad.numpy(), n.grad.numpy(),
            node_chain(loss.grad_fn))


@SETTINGS
@given(st.data())
def test_triplet_margin_with_distance_loss_as_torch(data) -> None:
    shape = data.draw(st.sampled_from([(3, 4), (2, 5), (4,)]))
    values = [data.draw(arrays(shape, NONZERO)) for _ in range(3)]
    args = (values, data.draw(st.sampled_from(["default", "cosine", "l1"])),
            data.draw(st.sampled_from([0.5, 1.0, 2])), data.draw(st.booleans()),
            data.draw(st.sampled_from(["mean", "sum", "none"])), data.draw(st.booleans()))
    error = raised_by(lambda L: _run(L, *args), torch)
    if error is not None:  # e.g. cosine_similarity's dim 1 of 1-d inputs
        mine = raised_by(lambda L: _run(L, *args), minitorch)
        assert_same_error(mine, error)
        return
    got, want = _run(minitorch, *args), _run(torch, *args)
    for g, w in zip(got[:4], want[:4]):
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-14)
    # the loss's own nodes (the distances' are pairwise_distance's, tested with it)
    assert got[4][:4] == want[4][:4]


BAD = {
    "reduction": lambda L: L.nn.functional.triplet_margin_with_distance_loss(
        L.ones(2), L.ones(2), L.ones(2), reduction="avg"),
    "margin": lambda L: L.nn.functional.triplet_margin_with_distance_loss(
        L.ones(2), L.ones(2), L.ones(2), margin=0),
    "dims": lambda L: L.nn.functional.triplet_margin_with_distance_loss(
        L.ones(2), L.ones(1, 2), L.ones(2)),
    "module_margin": lambda L: L.nn.TripletMarginWithDistanceLoss(margin=-1.0),
}


@pytest.mark.parametrize("case", BAD)
def test_triplet_margin_with_distance_loss_refusals_as_torch(case: str) -> None:
    want, got = raised_by(BAD[case], torch), raised_by(BAD[case], minitorch)
    assert want is not None
    assert_same_error(got, want)


def test_module_repr_as_torch() -> None:
    for kwargs in [{}, {"margin": 0.5, "swap": True}]:
        assert repr(minitorch.nn.TripletMarginWithDistanceLoss(**kwargs)) == repr(
            torch.nn.TripletMarginWithDistanceLoss(**kwargs))
