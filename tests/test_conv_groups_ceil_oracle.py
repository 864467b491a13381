"""Grouped convolutions and ceil-mode max pooling, values and gradients against torch."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import FEW, assert_same_error, numpy_of, raised_by

import minitorch as mt


def _grouped(L: Any, groups: int, c: int, o: int, stride: int, padding: int) -> list:
    x = L.tensor(np.linspace(-2, 3, 2 * c * 36).reshape(2, c, 6, 6), requires_grad=True)
    w = L.tensor(np.linspace(-1, 1, o * (c // groups) * 9).reshape(o, c // groups, 3, 3),
                 requires_grad=True)
    b = L.tensor(np.linspace(0, 1, o), requires_grad=True)
    y = L.nn.functional.conv2d(x, w, b, stride=stride, padding=padding, groups=groups)
    (y * y).sum().backward()
    return [y.grad_fn.name(), numpy_of(y), numpy_of(x.grad), numpy_of(w.grad), numpy_of(b.grad)]


@pytest.mark.parametrize(("groups", "c", "o"), [(2, 4, 6), (4, 4, 4), (3, 3, 6), (1, 2, 3)])
@pytest.mark.parametrize(("stride", "padding"), [(1, 0), (2, 1)])
def test_grouped_conv2d_like_torch(groups: int, c: int, o: int, stride: int,
                                   padding: int) -> None:
    got, want = _grouped(mt, groups, c, o, stride, padding), _grouped(torch, groups, c, o,
                                                                       stride, padding)
    assert got[0] == want[0]
    for g, w in zip(got[1:], want[1:]):
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12)


def test_grouped_conv2d_module_like_torch() -> None:
    for L in (mt, torch):
        L.manual_seed(0)
    layers = [L.nn.Conv2d(4, 6, 3, padding=1, groups=2) for L in (mt, torch)]
    assert repr(layers[0]) == repr(layers[1])
    assert layers[0].weight.shape == layers[1].weight.shape


@pytest.mark.parametrize("make", [
    lambda L: L.nn.functional.conv2d(L.ones(1, 3, 5, 5), L.ones(4, 1, 3, 3), groups=2),
    lambda L: L.nn.functional.conv2d(L.ones(1, 4, 5, 5), L.ones(3, 2, 3, 3), groups=2),
    lambda L: L.nn.functional.conv2d(L.ones(1, 4, 5, 5), L.ones(4, 4, 3, 3), groups=0),
    lambda L: L.nn.Conv2d(4, 4, 3, groups=3),
    lambda L: L.nn.Conv2d(4, 3, 3, groups=2),
    lambda L: L.nn.Conv2d(4, 4, 3, groups=0),
], ids=["channels", "out_not_divisible", "zero_groups", "module_in", "module_out",
        "module_zero"])
def test_bad_groups_raise_like_torch(make: Any) -> None:
    assert_same_error(raised_by(make, mt), raised_by(make, torch))


def _pooled(L: Any, size: tuple[int, int], kernel: int, stride: int, padding: int) -> list:
    x = L.tensor(np.random.default_rng(sum(size)).permutation(2 * size[0] * size[1])
                 .reshape(1, 2, *size).astype(float), requires_grad=True)
    y = L.nn.functional.max_pool2d(x, kernel, stride, padding, ceil_mode=True)
    (y * L.arange(y.numel()).reshape(y.shape)).sum().backward()
    return [y.grad_fn.name(), numpy_of(y), numpy_of(x.grad)]


@given(st.tuples(st.integers(2, 9), st.integers(2, 9)), st.integers(1, 3), st.integers(1, 3),
       st.integers(0, 1))
@FEW
def test_max_pool2d_ceil_mode_like_torch(size: tuple[int, int], kernel: int, stride: int,
                                         padding: int) -> None:
    kernel = min(kernel + padding, *size)  # padding at most half the kernel, as torch wants
    padding = min(padding, kernel // 2)
    got, want = (_pooled(L, size, kernel, stride, padding) for L in (mt, torch))
    assert got[0] == want[0]
    for g, w in zip(got[1:], want[1:]):
        np.testing.assert_array_equal(g, w)


def test_max_pool2d_module_ceil_mode_like_torch() -> None:
    outs = [L.nn.MaxPool2d(2, ceil_mode=True)(L.arange(2 * 49.0).reshape(1, 2, 7, 7))
            for L in (mt, torch)]
    np.testing.assert_array_equal(numpy_of(outs[0]), numpy_of(outs[1]))
