"""log_sigmoid and binary_cross_entropy_with_logits bit for bit as torch's CPU kernels, live:
torch's log_sigmoid takes SLEEF's exp and log1p on every value and keeps exp(-|x|) for its
backward; BCE with logits is ``(1 - t) x - log_sigmoid(x)`` (times its positive weight) and
its backward divides by the count last.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import SETTINGS

SIZES = st.sampled_from([1, 3, 8, 15, 16, 17, 32, 33, 100, 257])
SCALES = st.sampled_from([0.1, 1.0, 5.0, 30.0, 120.0])


def _bits(t: object) -> bytes:
    return t.detach().numpy().tobytes()  # type: ignore[attr-defined]


def _floats(seed: int, n: int, scale: float) -> np.ndarray:
    return (np.random.default_rng(seed).standard_normal(n) * scale).astype(np.float32)


@SETTINGS
@given(n=SIZES, scale=SCALES, seed=st.integers(0, 2**32 - 1), double=st.booleans())
def test_logsigmoid_and_its_gradients(n: int, scale: float, seed: int, double: bool) -> None:
    a = _floats(seed, n, scale)
    results = []
    for lib in (mt, torch):
        x = lib.tensor(a, dtype=lib.float64 if double else lib.float32, requires_grad=True)
        y = lib.nn.functional.logsigmoid(x)
        (g,) = lib.autograd.grad(y.sum(), x, create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), x)
        results.append((y, g, gg, type(g.grad_fn).__name__))
    (y, g, gg, node), (ty, tg, tgg, tnode) = results
    assert node == tnode == "LogSigmoidBackwardBackward0"
    if double:  # numpy's exp and log1p, not SLEEF's double kernels
        np.testing.assert_allclose(y.detach().numpy(), ty.detach().numpy(), rtol=1e-14)
        return
    assert _bits(y) == _bits(ty) and _bits(g) == _bits(tg)
    np.testing.assert_allclose(gg.numpy(), tgg.numpy(), rtol=1e-6, atol=1e-30)


def test_logsigmoid_module_and_refusals_as_torch() -> None:
    assert repr(mt.nn.LogSigmoid()) == repr(torch.nn.LogSigmoid())
    with pytest.raises(NotImplementedError, match="\"log_sigmoid_cpu\" not implemented for "
                                                  "'Long'"):
        mt.nn.functional.logsigmoid(mt.tensor([1, 2]))


@SETTINGS
@given(n=SIZES, scale=SCALES, seed=st.integers(0, 2**32 - 1),
       reduction=st.sampled_from(["mean", "sum", "none"]), weighted=st.booleans(),
       positive=st.booleans())
def test_bce_with_logits_is_torchs(n: int, scale: float, seed: int, reduction: str,
                                   weighted: bool, positive: bool) -> None:
    rng = np.random.default_rng(seed)
    a, t = _floats(seed, n, scale), rng.random(n).astype(np.float32)
    w, pw = rng.random(n).astype(np.float32), (rng.random(n) * 3).astype(np.float32)
    results = []
    for lib in (mt, torch):
        x, target = lib.tensor(a, requires_grad=True), lib.tensor(t, requires_grad=True)
        loss = lib.nn.functional.binary_cross_entropy_with_logits(
            x, target, weight=lib.tensor(w) if weighted else None,
            pos_weight=lib.tensor(pw) if positive else None, reduction=reduction)
        (loss if reduction != "none" else loss.sum()).backward()
        results.append((_bits(loss), _bits(x.grad), _bits(target.grad)))
    assert results[0] == results[1]
