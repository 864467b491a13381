"""``nn.Conv1d``/``F.conv1d``, ``nn.MaxPool1d``/``F.max_pool1d``, Conv1d/Conv2d's padding
modes, ``nn.Unflatten``/``Tensor.unflatten`` against torch: seeded init, values and gradients
(float32 to the bit where minitorch's 2-d kernels are torch's), printed forms, node names and
errors."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import SETTINGS, assert_conv_bits, assert_same_error, raised_by


def _conv_run(L: Any, layer: str, cfg: dict, shape: tuple) -> tuple:
    L.manual_seed(0)
    conv = getattr(L.nn, layer)(3, 6, 3, **cfg)
    x = L.tensor(np.random.default_rng(1).standard_normal(shape).astype("float32"),
                 requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # 'same' with an even kernel warns in both
        y = conv(x)
    y.pow(2).sum().backward()
    grads = [p.grad for p in conv.parameters()]
    return (repr(conv), y.grad_fn.name()), [t.detach().numpy() for t in (y, x.grad, *grads)]


CONV1D = [{}, {"padding": 1}, {"stride": 2}, {"dilation": 2, "padding": 2}, {"groups": 3},
          {"bias": False}, {"padding": "same"}, {"padding": "valid"},
          {"padding": 1, "padding_mode": "reflect"}, {"padding": 2, "padding_mode": "replicate"},
          {"padding": 1, "padding_mode": "circular"},
          {"padding": "same", "padding_mode": "reflect"}]


@pytest.mark.parametrize("cfg", CONV1D)
@pytest.mark.parametrize("shape", [(2, 3, 9), (3, 9)], ids=["batched", "unbatched"])
def test_conv1d_bit_for_bit(cfg: dict, shape: tuple) -> None:
    """torch runs a 1-d convolution as the 2-d one of height 1; so does minitorch, whose
    grouped and dilated 2-d kernels match torch's to float32 rounding only (as in
    test_conv_bits_oracle), the others to the bit."""
    got_names, got = _conv_run(mt, "Conv1d", cfg, shape)
    want_names, want = _conv_run(torch, "Conv1d", cfg, shape)
    assert got_names == want_names
    for g, w in zip(got, want, strict=True):
        if "groups" in cfg or "dilation" in cfg:
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
        else:
            assert_conv_bits(g, w)


@pytest.mark.parametrize("cfg", [{"padding": 1, "padding_mode": m}
                                 for m in ("reflect", "replicate", "circular")]
                         + [{"padding": (1, 2), "padding_mode": "reflect"},
                            {"padding": "same", "padding_mode": "replicate"}])
def test_conv2d_padding_modes(cfg: dict) -> None:
    """Conv2d pads with F.pad first, as torch; circular's input gradient sums the wrapped
    corners in another order, so it is compared to float32 rounding."""
    got_names, got = _conv_run(mt, "Conv2d", cfg, (2, 3, 6, 7))
    want_names, want = _conv_run(torch, "Conv2d", cfg, (2, 3, 6, 7))
    assert got_names == want_names
    for g, w in zip(got, want, strict=True):
        if cfg["padding_mode"] == "circular":
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)
        else:
            assert_conv_bits(g, w)


@given(length=st.integers(1, 12), kernel=st.integers(1, 4), stride=st.integers(1, 3),
       padding=st.integers(0, 2), dilation=st.integers(1, 2), seed=st.integers(0, 50))
@SETTINGS
def test_conv1d_any_geometry(length: int, kernel: int, stride: int, padding: int,
                             dilation: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    x, w, b = rng.standard_normal((2, 2, length)), rng.standard_normal((3, 2, kernel)), \
        rng.standard_normal(3)

    def run(L: Any) -> Any:
        leaves = [L.tensor(a, requires_grad=True) for a in (x, w, b)]
        try:
            y = L.nn.functional.conv1d(*leaves, stride=stride, padding=padding,
                                       dilation=dilation)
        except RuntimeError as error:
            return str(error)
        y.pow(2).sum().backward()
        return [y.grad_fn.name(), *(t.detach().numpy() for t in (y, *(a.grad for a in leaves)))]

    got, want = run(mt), run(torch)
    if isinstance(want, str):
        assert got == want
        return
    assert got[0] == want[0]
    for g, w_ in zip(got[1:], want[1:], strict=True):
        np.testing.assert_allclose(g, w_, rtol=1e-10, atol=1e-12)


@given(length=st.integers(1, 12), kernel=st.integers(1, 4), stride=st.integers(1, 3),
       padding=st.integers(0, 2), dilation=st.integers(1, 2), ceil=st.booleans(),
       batched=st.booleans(), seed=st.integers(0, 50))
@SETTINGS
def test_max_pool1d_any_geometry(length: int, kernel: int, stride: int, padding: int,
                                 dilation: int, ceil: bool, batched: bool, seed: int) -> None:
    data = np.random.default_rng(seed).standard_normal((2, 3, length)[1 - batched:])

    def run(L: Any) -> list[str]:
        x = L.tensor(data, requires_grad=True)
        try:
            y = L.nn.functional.max_pool1d(x, kernel, stride, padding, dilation, ceil)
        except RuntimeError as error:
            return [type(error).__name__, str(error)]
        y.sum().backward()
        return [repr(y), repr(x.grad)]

    assert run(mt) == run(torch)


def test_modules_print_as_torch() -> None:
    for make in (lambda L: L.nn.MaxPool1d(3), lambda L: L.nn.MaxPool1d(2, 1, 1, ceil_mode=True),
                 lambda L: L.nn.Conv1d(2, 4, 5, stride=2, padding_mode="circular", padding=2),
                 lambda L: L.nn.Unflatten(1, (2, 5)), lambda L: L.nn.Unflatten(-1, [3, -1]),
                 lambda L: L.nn.Sequential(L.nn.Conv1d(1, 2, 3), L.nn.MaxPool1d(2),
                                           L.nn.Flatten(), L.nn.Unflatten(1, (2, 2)))):
        assert repr(make(mt)) == repr(make(torch))


def test_unflatten_views_and_values() -> None:
    def run(L: Any) -> list[str]:
        x = L.arange(24.).reshape(2, 12).requires_grad_()
        y = L.nn.Unflatten(1, (3, -1))(x)
        z = x.unflatten(-1, (2, 2, 3))
        (y.sum() + z.pow(2).sum()).backward()
        return [repr(y), repr(z.shape), repr(x.grad)]
    assert run(mt) == run(torch)


BAD_CALLS = [
    lambda L: L.nn.functional.conv1d(L.ones(1, 2, 5), L.ones(3, 2, 7)),
    lambda L: L.nn.functional.conv1d(L.ones(2, 5, 5, 5), L.ones(3, 2, 7)),
    lambda L: L.nn.functional.conv1d(L.ones(1, 2, 5), L.ones(3, 4, 2)),
    lambda L: L.nn.functional.conv1d(L.ones(1, 2, 5), L.ones(3, 2, 2), stride=0),
    lambda L: L.nn.functional.conv1d(L.ones(1, 2, 5), L.ones(3, 2, 2), padding=-1),
    lambda L: L.nn.functional.conv1d(L.ones(1, 2, 5), L.ones(3, 2, 2), padding="same",
                                     stride=2),
    lambda L: L.nn.functional.conv1d(L.ones(1, 2, 5), L.ones(3, 2, 2), L.ones(2)),
    lambda L: L.nn.Conv1d(2, 3, 3, padding_mode="reflect", padding=1)(L.ones(1, 2, 1)),
    lambda L: L.nn.Conv1d(2, 3, 3, groups=2),
    lambda L: L.nn.Conv1d(2, 3, 3, padding_mode="mirror"),
    lambda L: L.nn.functional.max_pool1d(L.ones(2, 2, 2, 2), 2),
    lambda L: L.nn.functional.max_pool1d(L.ones(1, 5), 7),
    lambda L: L.nn.functional.max_pool1d(L.ones(1, 5), 0),
    lambda L: L.nn.functional.max_pool1d(L.ones(1, 5), 2, 0),
    lambda L: L.nn.functional.max_pool1d(L.ones(1, 5), 2, 1, 2),
    lambda L: L.nn.functional.max_pool1d(L.ones(1, 5), 2, 1, -1),
    lambda L: L.nn.functional.max_pool1d(L.ones(1, 5), 2, 1, 0, 0),
    lambda L: L.ones(2, 10).unflatten(1, (3, 5)), lambda L: L.ones(2, 10).unflatten(1, ()),
    lambda L: L.ones(2, 10).unflatten(2, (2, 5)),
    lambda L: L.nn.Unflatten(1, 5), lambda L: L.nn.Unflatten(1, (2.0, 5)),
]


@pytest.mark.parametrize("call", BAD_CALLS)
def test_bad_arguments_raise_torchs_errors(call: Any) -> None:
    want = raised_by(call, torch)
    assert want is not None
    assert_same_error(raised_by(call, mt), want)
