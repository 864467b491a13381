"""nn.BatchNorm3d, nn.AdaptiveMaxPool1d and F.adaptive_max_pool1d against torch: values,
gradients, nodes, printed forms and errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS, arrays, assert_same_error, raised_by

import minitorch


def _batch_norm_3d(L, data: np.ndarray, training: bool):
    L.manual_seed(0)
    m = L.nn.BatchNorm3d(data.shape[1], momentum=0.3).double()
    m.train(training)
    x = L.tensor(data, requires_grad=True)
    y = m(x)
    (y * y).sum().backward()
    return (y, x.grad, m.weight.grad, m.running_mean, m.running_var), type(y.grad_fn).__name__


@SETTINGS
@given(st.data())
def test_batch_norm_3d_as_torch(data) -> None:
    shape = (data.draw(st.integers(2, 3)), data.draw(st.integers(1, 3)),
             *data.draw(st.tuples(*[st.integers(1, 3)] * 3)))
    values, training = data.draw(arrays(shape)), data.draw(st.booleans())
    got, want = _batch_norm_3d(minitorch, values, training), _batch_norm_3d(torch, values, training)
    assert got[1] == want[1]
    for g, w in zip(got[0], want[0]):
        np.testing.assert_allclose(g.detach().numpy(), w.detach().numpy(), rtol=1e-10,
                                   atol=1e-12)


def test_batch_norm_3d_repr_and_rank_check_as_torch() -> None:
    assert repr(minitorch.nn.BatchNorm3d(4, affine=False)) == repr(torch.nn.BatchNorm3d(
        4, affine=False))
    for shape in [(2, 3, 4), (2, 3, 2, 2)]:
        want = raised_by(lambda L, s=shape: L.nn.BatchNorm3d(3)(L.ones(*s)), torch)
        got = raised_by(lambda L, s=shape: L.nn.BatchNorm3d(3)(L.ones(*s)), minitorch)
        assert_same_error(got, want)


def _adaptive(L, data: np.ndarray, size: int, indices: bool, module: bool):
    x = L.tensor(data, requires_grad=True)
    if module:
        out = L.nn.AdaptiveMaxPool1d(size, return_indices=indices)(x)
    else:
        out = L.nn.functional.adaptive_max_pool1d(x, size, indices)
    y = out[0] if indices else out
    y.sum().backward()
    rest = out[1].tolist() if indices else None
    return y.tolist(), x.grad.tolist(), rest, type(y.grad_fn).__name__


@SETTINGS
@given(st.data())
def test_adaptive_max_pool1d_as_torch(data) -> None:
    shape = data.draw(st.sampled_from([(5,), (2, 7), (2, 3, 4)]))
    if len(shape) == 1:
        shape = (1, *shape)
    values = data.draw(arrays(shape))
    size = data.draw(st.integers(1, shape[-1] + 1))
    indices, module = data.draw(st.booleans()), data.draw(st.booleans())
    assert _adaptive(minitorch, values, size, indices, module) == _adaptive(
        torch, values, size, indices, module)


@pytest.mark.parametrize("size", [0, (2, 2), -1])
def test_adaptive_max_pool1d_odd_sizes_as_torch(size) -> None:
    def call(L):
        return list(L.nn.AdaptiveMaxPool1d(size)(L.ones(1, 2, 4)).shape)

    want, got = raised_by(call, torch), raised_by(call, minitorch)
    if want is None:
        assert call(minitorch) == call(torch)
    else:
        assert_same_error(got, want)


def test_adaptive_max_pool1d_repr_as_torch() -> None:
    assert repr(minitorch.nn.AdaptiveMaxPool1d(3, True)) == repr(torch.nn.AdaptiveMaxPool1d(
        3, True))
