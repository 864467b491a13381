"""Conv2d, MaxPool2d, their functional forms and the binary/robust losses against live
torch: values, node names, first and second gradients, printed modules and errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import FEW, SETTINGS, assert_same, assert_same_error, raised_by, twins

import minitorch as mt

F_MT, F_T = mt.nn.functional, torch.nn.functional


def _functional(L):
    return F_MT if L is mt else F_T


# ---- losses ----------------------------------------------------------------------------
LOSSES = [
    ("binary_cross_entropy", {}), ("binary_cross_entropy", {"reduction": "sum"}),
    ("binary_cross_entropy", {"reduction": "none"}),
    ("binary_cross_entropy_with_logits", {}),
    ("binary_cross_entropy_with_logits", {"reduction": "none"}),
    ("smooth_l1_loss", {}), ("smooth_l1_loss", {"beta": 0.5, "reduction": "none"}),
    ("smooth_l1_loss", {"beta": 0.0}), ("huber_loss", {"delta": 0.7}), ("l1_loss", {}),
    ("l1_loss", {"reduction": "sum"}),
]


@given(st.sampled_from(LOSSES), st.integers(1, 5), st.data())
@SETTINGS
def test_losses_values_nodes_and_gradients(loss: tuple, n: int, data: st.DataObject) -> None:
    name, kwargs = loss
    probs = name == "binary_cross_entropy"
    elems = st.floats(0.01, 0.99) if probs else st.floats(-3, 3)
    x = np.array(data.draw(st.lists(elems, min_size=n, max_size=n)))
    t = np.array(data.draw(st.lists(st.floats(0, 1), min_size=n, max_size=n)))
    (a, ta), (b, tb) = twins([x, t])
    got = getattr(F_MT, name)(a, ta, **kwargs)
    want = getattr(F_T, name)(b, tb, **kwargs)
    assert_same(got, want)
    assert got.grad_fn.name() == want.grad_fn.name()
    w = np.arange(1.0, 1.0 + want.numel()).reshape(tuple(want.shape))
    ga = mt.autograd.grad((got * mt.tensor(w)).sum(), [a, ta], create_graph=True)
    gb = torch.autograd.grad((want * torch.tensor(w)).sum(), [b, tb], create_graph=True)
    for g1, g2 in zip(ga, gb):
        assert_same(g1, g2, "grad")
    # second order: through the gradient of the input
    (h1,) = mt.autograd.grad(ga[0].sum(), [a], allow_unused=True)
    (h2,) = torch.autograd.grad(gb[0].sum(), [b], allow_unused=True)
    if h2 is not None:
        assert_same(h1, h2, "second-order grad")


def test_bce_weights_and_pos_weight_like_torch() -> None:
    (x, t, w), (y, u, v) = twins([np.array([[0.2, 0.7], [0.4, 0.9]]),
                                  np.array([[0.0, 1.0], [1.0, 0.0]]),
                                  np.array([1.0, 3.0])], requires_grad=[True, False, False])
    assert_same(F_MT.binary_cross_entropy(x, t, weight=w), F_T.binary_cross_entropy(y, u, weight=v))
    assert_same(F_MT.binary_cross_entropy_with_logits(x, t, pos_weight=w),
                F_T.binary_cross_entropy_with_logits(y, u, pos_weight=v))
    a = mt.nn.BCEWithLogitsLoss(pos_weight=w)(x, t)
    b = torch.nn.BCEWithLogitsLoss(pos_weight=v)(y, u)
    a.backward()
    b.backward()
    assert_same(x.grad, y.grad)
    assert_same(mt.nn.BCELoss()(x.sigmoid(), t), torch.nn.BCELoss()(y.sigmoid(), u))
    assert_same(F_MT.binary_cross_entropy(mt.tensor([0.0, 1.0]), mt.tensor([1.0, 0.0])),
                F_T.binary_cross_entropy(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.0])))


@pytest.mark.parametrize("module", ["BCELoss", "BCEWithLogitsLoss", "SmoothL1Loss", "L1Loss",
                                    "HuberLoss", "Conv2d", "MaxPool2d"])
def test_modules_print_like_torch(module: str) -> None:
    args = {"Conv2d": (3, 8, (3, 5)), "MaxPool2d": (3, 2, 1)}.get(module, ())
    assert repr(getattr(mt.nn, module)(*args)) == repr(getattr(torch.nn, module)(*args))


@pytest.mark.parametrize("call", [
    lambda F, L: F.binary_cross_entropy(L.tensor([1.5]), L.tensor([1.0])),
    lambda F, L: F.binary_cross_entropy(L.tensor([0.5, 0.5]), L.tensor([1.0])),
    lambda F, L: F.binary_cross_entropy_with_logits(L.tensor([0.5, 0.5]), L.tensor([1.0])),
    lambda F, L: F.smooth_l1_loss(L.ones(2), L.ones(2), reduction="avg"),
    lambda F, L: F.conv2d(L.ones(1, 2, 4, 4), L.ones(1, 3, 2, 2)),
    lambda F, L: F.conv2d(L.ones(4, 4), L.ones(1, 1, 2, 2)),
    lambda F, L: F.max_pool2d(L.ones(1, 1, 4, 4), 2, padding=2),
])
def test_errors_like_torch(call) -> None:
    want = raised_by(lambda L: call(_functional(L), L), torch)
    assert want is not None
    assert_same_error(raised_by(lambda L: call(_functional(L), L), mt), want)


# ---- convolution and pooling -----------------------------------------------------------
@st.composite
def conv_cases(draw):
    n, c, o = draw(st.integers(1, 2)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    kh, kw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    sh, sw = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    ph, pw = draw(st.integers(0, 1)), draw(st.integers(0, 1))
    dh, dw = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    h = draw(st.integers(dh * (kh - 1) + 1, 7))
    w = draw(st.integers(dw * (kw - 1) + 1, 7))
    bias = draw(st.booleans())
    rng = np.random.default_rng(draw(st.integers(0, 1000)))
    arrays = [rng.standard_normal((n, c, h, w)), rng.standard_normal((o, c, kh, kw))]
    if bias:
        arrays.append(rng.standard_normal(o))
    return arrays, {"stride": (sh, sw), "padding": (ph, pw), "dilation": (dh, dw)}


@given(conv_cases())
@SETTINGS
def test_conv2d_values_and_gradients_are_torchs(case) -> None:
    arrays, kwargs = case
    mine, theirs = twins(arrays)
    got, want = F_MT.conv2d(*mine, **kwargs), F_T.conv2d(*theirs, **kwargs)
    assert_same(got, want)
    assert got.grad_fn.name() == want.grad_fn.name() == "ConvolutionBackward0"
    w = np.cos(np.arange(want.numel())).reshape(tuple(want.shape))
    ga = mt.autograd.grad((got * mt.tensor(w)).sum(), mine, create_graph=True)
    gb = torch.autograd.grad((want * torch.tensor(w)).sum(), theirs, create_graph=True)
    for g1, g2 in zip(ga[:2], gb[:2]):
        assert_same(g1, g2, "grad")
    if len(ga) == 3:  # torch's bias gradient requires grad as the op's other outputs do
        np.testing.assert_allclose(ga[2].detach().numpy(), gb[2].detach().numpy(), rtol=1e-7)
    # second order: the input's gradient depends on the weight
    h1 = mt.autograd.grad((ga[0] ** 2).sum(), mine[1])
    h2 = torch.autograd.grad((gb[0] ** 2).sum(), theirs[1])
    assert_same(h1[0], h2[0], "second-order grad")


@given(st.integers(1, 3), st.integers(1, 3), st.integers(0, 1), st.integers(1, 2),
       st.integers(0, 10_000))
@FEW
def test_max_pool2d_values_and_gradients_are_torchs(k: int, s: int, p: int, d: int,
                                                     seed: int) -> None:
    p = min(p, k // 2)
    data = np.random.default_rng(seed).integers(0, 4, (2, 2, 6, 7)).astype(float)  # ties
    (a,), (b,) = twins([data])
    got = F_MT.max_pool2d(a, k, s, p, d)
    want = F_T.max_pool2d(b, k, s, p, d)
    assert_same(got, want)
    assert got.grad_fn.name() == want.grad_fn.name()
    w = np.sin(np.arange(want.numel())).reshape(tuple(want.shape))
    (got * mt.tensor(w)).sum().backward()
    (want * torch.tensor(w)).sum().backward()
    assert_same(a.grad, b.grad)


def test_unbatched_and_module_forms_like_torch() -> None:
    (x,), (y,) = twins([np.arange(2 * 5 * 5, dtype=np.float32).reshape(2, 5, 5)])
    conv_m, conv_t = mt.nn.Conv2d(2, 3, 3, padding="same"), torch.nn.Conv2d(2, 3, 3, padding="same")
    with torch.no_grad():
        conv_t.weight.copy_(torch.tensor(conv_m.weight.detach().numpy()))
        conv_t.bias.copy_(torch.tensor(conv_m.bias.detach().numpy()))
    got = mt.nn.MaxPool2d(2)(conv_m(x))
    want = torch.nn.MaxPool2d(2)(conv_t(y))
    assert_same(got, want)
    got.sum().backward()
    want.sum().backward()
    assert_same(conv_m.weight.grad, conv_t.weight.grad)
    assert_same(x.grad, y.grad)
    assert repr(mt.nn.Conv2d(1, 2, 3, padding="same")) == repr(
        torch.nn.Conv2d(1, 2, 3, padding="same"))


def _graph(fn) -> list:
    """Node names of a graph, depth first (AccumulateGrad spelled as in torch's name())."""
    if fn is None:
        return []
    name = fn.name().replace("torch::autograd::", "")
    return [name] + [n for nxt, _ in fn.next_functions for n in _graph(nxt)]


@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 4), (2, 3, 4, 2), (2, 3, 2, 2, 2)])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("module", ["NLLLoss", "CrossEntropyLoss"])
def test_class_losses_of_any_rank_build_torchs_graph(shape: tuple, reduction: str,
                                                     module: str) -> None:
    """(N, C, d1, ...) inputs go through torch's views: 4-D straight into NllLoss2D, other
    ranks viewed as (N, C, 1, positions) and, unreduced, viewed back (ViewBackward0)."""
    rng = np.random.default_rng(len(shape))
    x = rng.standard_normal(shape).astype(np.float32)
    t = rng.integers(0, shape[1], (shape[0], *shape[2:]))
    out = {}
    for L in (mt, torch):
        leaf = L.tensor(x, requires_grad=True)
        loss = getattr(L.nn, module)(reduction=reduction)(leaf, L.tensor(t))
        loss.sum().backward()
        out[L] = (_graph(loss.grad_fn), loss.detach().numpy(), leaf.grad.numpy())
    assert out[mt][0] == out[torch][0]
    np.testing.assert_allclose(out[mt][1], out[torch][1], rtol=1e-6)
    np.testing.assert_allclose(out[mt][2], out[torch][2], rtol=1e-6, atol=1e-7)
