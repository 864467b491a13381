"""conv_transpose1d / conv_transpose3d and nn.ConvTranspose1d / nn.ConvTranspose3d against
torch: values, gradients (double backward too), grad_fn names over drawn geometries, the
layers' start, printed form and output_size, and torch's errors, which for a 1-d one speak
of the 2-d convolution of height 1 that torch runs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import FEW, SETTINGS, assert_same_error, numpy_of, raised_by

import minitorch as mt


@st.composite
def transposed_cases(draw: Any, dims: int) -> tuple:
    """An input shape, a weight shape and the keyword geometry of a valid transposed
    convolution of ``dims`` spatial dims (batched or not, grouped or not)."""
    groups = draw(st.integers(1, 2))
    c_in, c_out = groups * draw(st.integers(1, 2)), groups * draw(st.integers(1, 2))
    per_dim = [draw(st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(1, 3),
                              st.integers(1, 2))) for _ in range(dims)]  # size, k, s, d
    stride = tuple(s for _, _, s, _ in per_dim)
    dilation = tuple(d for *_, d in per_dim)
    padding = tuple(draw(st.integers(0, (k - 1) * d // 2)) for _, k, _, d in per_dim)
    output_padding = tuple(draw(st.integers(0, max(s, d) - 1)) for s, d in zip(stride, dilation))
    batch = draw(st.sampled_from([(), (2,)]))
    x_shape = (*batch, c_in, *(n for n, *_ in per_dim))
    w_shape = (c_in, c_out // groups, *(k for _, k, *_ in per_dim))
    kw = dict(stride=stride, padding=padding, output_padding=output_padding, groups=groups,
              dilation=dilation)
    return x_shape, w_shape, kw


def _run(L: Any, dims: int, x_shape: tuple, w_shape: tuple, kw: dict) -> list:
    rng = np.random.default_rng(sum(x_shape) + sum(w_shape))
    x = L.tensor(rng.standard_normal(x_shape), requires_grad=True)
    w = L.tensor(rng.standard_normal(w_shape), requires_grad=True)
    b = L.tensor(rng.standard_normal(w_shape[1] * kw["groups"]), requires_grad=True)
    y = getattr(L.nn.functional, f"conv_transpose{dims}d")(x, w, b, **kw)
    (y * y).sum().backward()
    return [y.grad_fn.name(), numpy_of(y), numpy_of(x.grad), numpy_of(w.grad), numpy_of(b.grad)]


@pytest.mark.parametrize("dims", [1, 3])
def test_conv_transpose_like_torch(dims: int) -> None:
    @SETTINGS
    @given(transposed_cases(dims))
    def check(case: tuple) -> None:
        got, want = (_run(L, dims, *case) for L in (mt, torch))
        assert got[0] == want[0]  # ConvolutionBackward0; SqueezeBackward1 when unbatched
        for g, w in zip(got[1:], want[1:]):
            assert g.shape == w.shape
            np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-10)
    check()


@pytest.mark.parametrize("dims", [1, 3])
def test_conv_transpose_float32_like_torch(dims: int) -> None:
    @FEW
    @given(transposed_cases(dims))
    def check(case: tuple) -> None:
        x_shape, w_shape, kw = case
        rng = np.random.default_rng(0)
        x, w = (rng.standard_normal(s).astype(np.float32) for s in (x_shape, w_shape))
        got, want = (getattr(L.nn.functional, f"conv_transpose{dims}d")(
            L.tensor(x), L.tensor(w), **kw) for L in (mt, torch))
        assert got.dtype == mt.float32
        np.testing.assert_allclose(numpy_of(got), numpy_of(want), rtol=1e-5, atol=1e-5)
    check()


@pytest.mark.parametrize(("dims", "x_shape", "w_shape"), [
    (1, (2, 2, 3), (2, 3, 2)), (3, (1, 2, 2, 3, 2), (2, 2, 2, 1, 2))])
def test_conv_transpose_double_backward_like_torch(dims: int, x_shape: tuple,
                                                   w_shape: tuple) -> None:
    def second(L: Any) -> list:
        x = L.tensor(np.linspace(-1, 1, np.prod(x_shape)).reshape(x_shape), requires_grad=True)
        w = L.tensor(np.linspace(-1, 2, np.prod(w_shape)).reshape(w_shape), requires_grad=True)
        y = getattr(L.nn.functional, f"conv_transpose{dims}d")(x, w, stride=2, padding=1)
        gx, gw = L.autograd.grad((y ** 2).sum(), (x, w), create_graph=True)
        (gx.sum() + (gw ** 2).sum()).backward()
        return [numpy_of(gx), numpy_of(gw), numpy_of(x.grad), numpy_of(w.grad)]
    for g, w in zip(second(mt), second(torch)):
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("make", [
    lambda L: L.nn.ConvTranspose1d(4, 6, 3, stride=2, groups=2),
    lambda L: L.nn.ConvTranspose1d(2, 3, 3, stride=2, padding=1, output_padding=1, bias=False,
                                   dilation=2),
    lambda L: L.nn.ConvTranspose3d(2, 4, (1, 2, 3), padding=1),
    lambda L: L.nn.ConvTranspose3d(2, 2, 2, stride=(1, 2, 2), output_padding=(0, 1, 1)),
])
def test_modules_start_and_print_like_torch(make: Any) -> None:
    layers = []
    for L in (mt, torch):
        L.manual_seed(3)
        layers.append(make(L))
    mine, theirs = layers
    assert repr(mine) == repr(theirs)
    assert list(mine.state_dict()) == list(theirs.state_dict())  # no bias when told so
    for key, value in theirs.state_dict().items():  # the same draws from the same seed
        np.testing.assert_array_equal(numpy_of(mine.state_dict()[key]), numpy_of(value))
    assert mine.transposed and mine.output_padding == theirs.output_padding


def _bad(L: Any, dims: int, x: Any = None, weight: Any = None, **kwargs: Any) -> Any:
    x = L.ones(1, 2, *(3,) * dims) if x is None else x
    weight = L.ones(2, 3, *(2,) * dims) if weight is None else weight
    return getattr(L.nn.functional, f"conv_transpose{dims}d")(x, weight, **kwargs)


BAD = {
    "output_padding": lambda L, n: _bad(L, n, stride=2, output_padding=2),
    "zero_dilation": lambda L, n: _bad(L, n, dilation=0),
    "zero_dilation_and_output_padding": lambda L, n: _bad(L, n, dilation=0, output_padding=3),
    "too_small": lambda L, n: _bad(L, n, padding=5),
    "empty_weight": lambda L, n: _bad(L, n, weight=L.ones(2, 0, *(2,) * n)),
    "zero_kernel": lambda L, n: _bad(L, n, weight=L.ones(2, 3, *(2,) * (n - 1), 0)),
    "zero_kernel_empty_input": lambda L, n: _bad(L, n, x=L.ones(0, 2, *(3,) * n),
                                                 weight=L.ones(2, 3, *(2,) * (n - 1), 0)),
    "padding_string": lambda L, n: _bad(L, n, padding="same"),
    "input_dims": lambda L, n: _bad(L, n, x=L.ones(2, 2, 2, 2, 2, 2)),
    "stride_length": lambda L, n: _bad(L, n, stride=(1,) * (n + 1)),
    "padding_length": lambda L, n: _bad(L, n, padding=(1, 2) if n != 2 else (1, 2, 3)),
    "float_stride": lambda L, n: _bad(L, n, stride=1.5),
    "channels": lambda L, n: _bad(L, n, weight=L.ones(3, 3, *(2,) * n)),
    "groups": lambda L, n: _bad(L, n, groups=3),
    "bias": lambda L, n: _bad(L, n, bias=L.ones(4)),
    "dtypes": lambda L, n: _bad(L, n, weight=L.ones(2, 3, *(2,) * n, dtype=L.float64)),
    "negative_padding": lambda L, n: _bad(L, n, padding=-1),
    "zero_stride": lambda L, n: _bad(L, n, stride=0),
    "module_padding_mode": lambda L, n: getattr(L.nn, f"ConvTranspose{n}d")(
        2, 4, 2, padding_mode="reflect"),
    "module_groups": lambda L, n: getattr(L.nn, f"ConvTranspose{n}d")(4, 3, 3, groups=2),
}


@pytest.mark.parametrize("dims", [1, 3])
@pytest.mark.parametrize("make", BAD.values(), ids=BAD.keys())
def test_bad_transposed_convolutions_raise_like_torch(make: Any, dims: int) -> None:
    want = raised_by(lambda L: make(L, dims), torch)
    assert want is not None
    assert_same_error(raised_by(lambda L: make(L, dims), mt), want)


def test_spectral_norm_reads_the_rows_of_every_transposed_layer() -> None:
    for n in (1, 3):
        for L in (mt, torch):
            L.manual_seed(0)
        mine, theirs = (L.nn.utils.spectral_norm(getattr(L.nn, f"ConvTranspose{n}d")(2, 3, 2))
                        for L in (mt, torch))
        assert mine.weight_u.shape == theirs.weight_u.shape
