"""conv_transpose2d and nn.ConvTranspose2d against torch: values, gradients, grad_fn names,
the layer's start and printed form, output_size (nn.ConvTranspose1d's and 3d's too), and
torch's errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from oracle import assert_conv_bits, assert_same_error, numpy_of, raised_by

import minitorch as mt


def _transposed(L: Any, x_shape: tuple, w_shape: tuple, **kw: Any) -> list:
    rng = np.random.default_rng(sum(x_shape) + sum(w_shape))
    x = L.tensor(rng.standard_normal(x_shape), requires_grad=True)
    w = L.tensor(rng.standard_normal(w_shape), requires_grad=True)
    b = L.tensor(rng.standard_normal(w_shape[1] * kw.get("groups", 1)), requires_grad=True)
    y = L.nn.functional.conv_transpose2d(x, w, b, **kw)
    (y * y).sum().backward()
    return [y.grad_fn.name(), numpy_of(y), numpy_of(x.grad), numpy_of(w.grad), numpy_of(b.grad)]


CASES = [
    ((2, 4, 3, 3), (4, 2, 3, 3), {}),
    ((2, 4, 3, 5), (4, 3, 3, 2), dict(stride=2, padding=1, output_padding=1, groups=2)),
    ((1, 2, 4, 4), (2, 3, 3, 3), dict(dilation=2, output_padding=1)),
    ((2, 3, 4, 4), (3, 1, 2, 2), dict(stride=(2, 3), groups=3)),
    ((3, 4, 4), (3, 2, 3, 3), dict(stride=2, padding=(0, 1))),  # unbatched
]


@pytest.mark.parametrize(("x_shape", "w_shape", "kw"), CASES)
def test_conv_transpose2d_like_torch(x_shape: tuple, w_shape: tuple, kw: dict) -> None:
    got, want = (_transposed(L, x_shape, w_shape, **kw) for L in (mt, torch))
    assert got[0] == want[0]  # ConvolutionBackward0, SqueezeBackward1 when unbatched
    for g, w in zip(got[1:], want[1:]):
        assert g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(("x_shape", "w_shape", "kw"), [
    *CASES, ((1, 16, 6, 6), (16, 16, 3, 3), dict(stride=2, padding=1)),
    ((2, 4, 5, 5), (4, 1, 2, 3), dict(dilation=2, stride=3, groups=4))])
def test_conv_transpose2d_float32_is_torchs_bits(x_shape: tuple, w_shape: tuple,
                                                 kw: dict) -> None:
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s).astype(np.float32)
              for s in (x_shape, w_shape, (w_shape[1] * kw.get("groups", 1),))]
    got, want = (numpy_of(L.nn.functional.conv_transpose2d(*map(L.tensor, arrays), **kw))
                 for L in (mt, torch))
    assert_conv_bits(got, want)


@pytest.mark.parametrize(("x_shape", "w_shape", "kw"), [
    ((2, 4, 5, 5), (4, 3, 3, 3), {}), ((1, 16, 6, 6), (16, 16, 3, 3), dict(stride=2, padding=1)),
    ((2, 4, 5, 5), (4, 3, 3, 3), dict(stride=2, padding=1, output_padding=1)),
    ((8, 3, 4, 4), (3, 2, 1, 1), {}), ((1, 3, 4, 4), (3, 2, 3, 3), {})])
def test_conv_transpose2d_float32_gradients_are_torchs_bits(x_shape: tuple, w_shape: tuple,
                                                            kw: dict) -> None:
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s).astype(np.float32)
              for s in (x_shape, w_shape, (w_shape[1] * kw.get("groups", 1),))]

    def grads(L: Any) -> list:
        leaves = [L.tensor(a, requires_grad=True) for a in arrays]
        y = L.nn.functional.conv_transpose2d(*leaves, **kw)
        (y * y).sum().backward()
        return [numpy_of(t.grad) for t in leaves]
    got, want = grads(mt), grads(torch)
    for mine, theirs in zip(got[:2], want[:2]):  # the input's and the weight's
        assert_conv_bits(mine, theirs)
    np.testing.assert_allclose(got[2], want[2], rtol=1e-6)  # the bias's: not oneDNN's sum


def test_conv_transpose2d_double_backward_like_torch() -> None:
    def second(L: Any) -> list:
        x = L.tensor(np.linspace(-1, 1, 2 * 2 * 9).reshape(2, 2, 3, 3), requires_grad=True)
        w = L.tensor(np.linspace(-1, 2, 2 * 3 * 4).reshape(2, 3, 2, 2), requires_grad=True)
        y = L.nn.functional.conv_transpose2d(x, w, stride=2)
        gx, gw = L.autograd.grad((y ** 2).sum(), (x, w), create_graph=True)
        (gx.sum() + (gw ** 2).sum()).backward()
        return [numpy_of(gx), numpy_of(gw), numpy_of(x.grad), numpy_of(w.grad)]
    for g, w in zip(second(mt), second(torch)):
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12)


def test_module_starts_and_prints_like_torch() -> None:
    layers = []
    for L in (mt, torch):
        L.manual_seed(3)
        layers.append([L.nn.ConvTranspose2d(4, 6, 3, stride=2, groups=2),
                       L.nn.ConvTranspose2d(2, 3, (3, 5), stride=2, padding=1,
                                            output_padding=1, bias=False, dilation=2)])
    for mine, theirs in zip(*layers):
        assert repr(mine) == repr(theirs)
        np.testing.assert_array_equal(numpy_of(mine.weight), numpy_of(theirs.weight))
        assert (mine.bias is None) == (theirs.bias is None)
        if mine.bias is not None:
            np.testing.assert_array_equal(numpy_of(mine.bias), numpy_of(theirs.bias))
        assert mine.transposed and mine.output_padding == theirs.output_padding


@pytest.mark.parametrize(("dims", "size"), [
    (2, [8, 8]), (2, [7, 8]), (2, [1, 2, 8, 7]), (2, [9, 9]), (2, [6, 6]), (2, [6]),
    (1, [8]), (1, [7]), (1, [1, 2, 8]), (1, [9]), (1, [8, 8]),
    (3, [8, 8, 8]), (3, [7, 8, 7]), (3, [1, 2, 8, 7, 8]), (3, [9, 9, 9]), (3, [8, 8])])
@pytest.mark.parametrize("batched", [True, False])
def test_module_output_size_like_torch(dims: int, size: list, batched: bool) -> None:
    def run(L: Any) -> Any:
        L.manual_seed(0)
        up = getattr(L.nn, f"ConvTranspose{dims}d")(4, 2, 3, stride=2)
        x = L.ones(*((1,) if batched else ()), 4, *(3,) * dims)
        return numpy_of(up(x, output_size=size))
    want = raised_by(run, torch)
    if want is not None:
        assert_same_error(raised_by(run, mt), want)
    else:
        np.testing.assert_allclose(run(mt), run(torch), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("make", [
    lambda L: L.nn.functional.conv_transpose2d(L.ones(1, 4, 3, 3), L.ones(4, 2, 3, 3),
                                               stride=2, output_padding=2),
    lambda L: L.nn.functional.conv_transpose2d(L.ones(1, 4, 3, 3), L.ones(4, 2, 3, 3),
                                               output_padding=1),
    lambda L: L.nn.functional.conv_transpose2d(L.ones(1, 4, 3, 3), L.ones(3, 2, 3, 3)),
    lambda L: L.nn.functional.conv_transpose2d(L.ones(1, 4, 3, 3), L.ones(4, 2, 3, 3),
                                               groups=3),
    lambda L: L.nn.functional.conv_transpose2d(L.ones(1, 4, 3, 3), L.ones(4, 2, 3, 3),
                                               L.ones(3)),
    lambda L: L.nn.functional.conv_transpose2d(L.ones(4, 3), L.ones(4, 2, 3, 3)),
    lambda L: L.nn.functional.conv_transpose2d(L.ones(1, 4, 3, 3), L.ones(4, 2, 3, 3),
                                               padding=3),
    lambda L: L.nn.functional.conv_transpose2d(L.ones(1, 4, 3, 3), L.ones(4, 2, 3, 3),
                                               padding=-1),
    lambda L: L.nn.functional.conv_transpose2d(L.ones(1, 4, 3, 3), L.ones(4, 2, 3, 3),
                                               stride=0),
    lambda L: L.nn.ConvTranspose2d(4, 2, 3, stride=2, output_padding=2)(L.ones(1, 4, 3, 3)),
    lambda L: L.nn.ConvTranspose2d(4, 2, 3, padding_mode="reflect"),
    lambda L: L.nn.ConvTranspose2d(4, 3, 3, groups=2),
    lambda L: _bad(L, output_padding=-1, stride=0),
    lambda L: _bad(L, output_padding=-1, padding=-1),
    lambda L: _bad(L, output_padding=-1, groups=0),
    lambda L: _bad(L, dilation=0),
    lambda L: _bad(L, weight=L.ones(3, 2, 3, 3), dilation=0),
    lambda L: _bad(L, weight=L.ones(4, 2, 3, 3, dtype=L.float64)),
    lambda L: _bad(L, padding="same"),
    lambda L: L.nn.ConvTranspose2d(4, 2, 3, padding="same")(L.ones(1, 4, 3, 3)),
], ids=["output_padding", "output_padding_stride1", "channels", "groups", "bias",
        "input_dims", "too_small", "negative_padding", "zero_stride", "module_output_padding",
        "padding_mode", "module_groups", "negative_output_padding", "padding_first",
        "groups_first", "zero_dilation", "channels_before_dilation", "dtypes",
        "padding_string", "module_padding_string"])
def test_bad_transposed_convolutions_raise_like_torch(make: Any) -> None:
    assert_same_error(raised_by(make, mt), raised_by(make, torch))


def _bad(L: Any, weight: Any = None, **kwargs: Any) -> Any:
    weight = L.ones(4, 2, 3, 3) if weight is None else weight
    return L.nn.functional.conv_transpose2d(L.ones(1, 4, 3, 3), weight, **kwargs)
