"""max_pool3d and nn.MaxPool3d against torch: values, indices, gradients (double backward
too) and grad_fn names over drawn windows (ceil mode, dilation, padding, unbatched inputs),
the layer's printed form, and torch's errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS, assert_same_error, numpy_of, raised_by

import minitorch as mt


@st.composite
def pool_cases(draw: Any) -> tuple:
    """An input shape and the keyword window of a valid 3-d max pool."""
    per_dim = [draw(st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(1, 2)))
               for _ in range(3)]  # kernel, stride, dilation
    kernel, stride, dilation = (tuple(v[i] for v in per_dim) for i in range(3))
    padding = tuple(draw(st.integers(0, k // 2)) for k in kernel)
    sizes = tuple(draw(st.integers(max(1, d * (k - 1) + 1 - 2 * p), 6))
                  for k, d, p in zip(kernel, dilation, padding))
    batch = draw(st.sampled_from([(), (2,)]))
    kw = dict(kernel_size=kernel, stride=stride, padding=padding, dilation=dilation,
              ceil_mode=draw(st.booleans()))
    return (*batch, 2, *sizes), kw


def _pool(L: Any, shape: tuple, kw: dict) -> list:
    rng = np.random.default_rng(sum(shape))
    x = L.tensor(rng.standard_normal(shape), requires_grad=True)
    y, indices = L.nn.functional.max_pool3d(x, **kw, return_indices=True)
    (y * y).sum().backward()
    return [y.grad_fn.name(), numpy_of(y), numpy_of(indices), numpy_of(x.grad)]


@SETTINGS
@given(pool_cases())
def test_max_pool3d_like_torch(case: tuple) -> None:
    got, want = (_pool(L, *case) for L in (mt, torch))
    assert got[0] == want[0]  # MaxPool3DWithIndicesBackward0 (Squeeze.. when unbatched)
    for g, w in zip(got[1:], want[1:]):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_array_equal(g, w)


def test_max_pool3d_double_backward_like_torch() -> None:
    def second(L: Any) -> list:
        x = L.tensor(np.random.default_rng(1).standard_normal((1, 2, 3, 4, 4)),
                     requires_grad=True)
        y = L.nn.functional.max_pool3d(x, 2, 1)
        (gx,) = L.autograd.grad((y ** 3).sum(), (x,), create_graph=True)
        (gx ** 2).sum().backward()
        return [numpy_of(gx), numpy_of(x.grad)]
    for g, w in zip(second(mt), second(torch)):
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("make", [
    lambda L: L.nn.MaxPool3d(2),
    lambda L: L.nn.MaxPool3d((2, 3, 1), stride=1, padding=0, dilation=2, ceil_mode=True),
])
def test_module_prints_and_pools_like_torch(make: Any) -> None:
    x = np.random.default_rng(2).standard_normal((1, 2, 4, 5, 6))
    mine, theirs = make(mt), make(torch)
    assert repr(mine) == repr(theirs)
    np.testing.assert_array_equal(numpy_of(mine(mt.tensor(x))), numpy_of(theirs(torch.tensor(x))))


def _bad(L: Any, *args: Any, x: Any = None, **kw: Any) -> Any:
    x = L.ones(1, 2, 4, 5, 6) if x is None else x
    return L.nn.functional.max_pool3d(x, *args, **kw)


BAD = {
    "kernel_length": lambda L: _bad(L, (2, 2)),
    "stride_length": lambda L: _bad(L, (2, 2, 2), stride=(1, 1)),
    "padding_length": lambda L: _bad(L, 2, padding=(1, 1)),
    "dilation_length": lambda L: _bad(L, 2, dilation=(1, 1)),
    "zero_stride": lambda L: _bad(L, 2, stride=0),
    "zero_kernel": lambda L: _bad(L, (3, 3, 0), stride=1),
    "negative_stride": lambda L: _bad(L, 3, stride=(1, 1, -1)),
    "big_padding": lambda L: _bad(L, 2, padding=2),
    "negative_padding": lambda L: _bad(L, 2, padding=-1),
    "padding_past_half_kernel": lambda L: _bad(L, 3, padding=2, dilation=2),
    "zero_dilation": lambda L: _bad(L, 2, dilation=0),
    "too_small": lambda L: _bad(L, 7),
    "input_dims": lambda L: _bad(L, 2, x=L.ones(2, 3, 4)),
    "empty_channels": lambda L: _bad(L, 2, x=L.ones(1, 0, 3, 4, 4)),
    "bool": lambda L: _bad(L, 2, x=L.ones(1, 2, 3, 4, 4, dtype=L.bool)),
    "float_kernel": lambda L: _bad(L, 2.5),
    "float_ceil_mode": lambda L: _bad(L, 2, ceil_mode=1.0),
}


@pytest.mark.parametrize("make", BAD.values(), ids=BAD.keys())
def test_bad_max_pool3d_raises_like_torch(make: Any) -> None:
    want = raised_by(make, torch)
    assert want is not None
    assert_same_error(raised_by(make, mt), want)


@pytest.mark.parametrize("args", [(2,), (2, ()), (3, (), 1, 1, True), (2, (1, 2, 1))])
def test_top_level_max_pool3d_like_torch(args: tuple) -> None:
    x = np.random.default_rng(3).standard_normal((2, 3, 4, 5))
    got, want = (numpy_of(L.max_pool3d(L.tensor(x), *args)) for L in (mt, torch))
    np.testing.assert_array_equal(got, want)
