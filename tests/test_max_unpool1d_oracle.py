"""F.max_unpool1d and nn.MaxUnpool1d against torch: values, gradients, the nodes, printed
form and the errors of output_size and of the indices."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS, arrays, assert_same_error, node_chain, raised_by

import minitorch


def _run(L, data, kernel, stride, extra, module):
    x = L.tensor(data, requires_grad=True)
    v, i = L.nn.functional.max_pool1d(x, kernel, stride, return_indices=True)
    size = None if extra is None else [data.shape[-1] + extra]
    if module:
        y = L.nn.MaxUnpool1d(kernel, stride)(v, i, output_size=size)
    else:
        y = L.nn.functional.max_unpool1d(v, i, kernel, stride, output_size=size)
    (y * L.arange(y.numel(), dtype=y.dtype).reshape(y.shape)).sum().backward()
    return y.tolist(), x.grad.tolist(), node_chain(y.grad_fn)


@SETTINGS
@given(st.data())
def test_max_unpool1d_as_torch(data) -> None:
    shape = data.draw(st.sampled_from([(1, 1, 6), (2, 3, 5), (2, 7)]))
    values = data.draw(arrays(shape))
    kernel = data.draw(st.integers(1, 3))
    stride = data.draw(st.sampled_from([None, 1, 2]))
    extra = data.draw(st.sampled_from([None, 0, 1]))
    module = data.draw(st.booleans())
    args = (values, kernel, stride, extra, module)
    want = raised_by(lambda L: _run(L, *args), torch)
    if want is None:
        assert _run(minitorch, *args) == _run(torch, *args)
    else:
        got = raised_by(lambda L: _run(L, *args), minitorch)
        assert_same_error(got, want)


BAD = {
    "size_far": lambda L: L.nn.functional.max_unpool1d(L.ones(1, 1, 2), L.zeros(
        1, 1, 2, dtype=L.int64), 2, output_size=[9]),
    "size_length": lambda L: L.nn.functional.max_unpool1d(L.ones(1, 1, 2), L.zeros(
        1, 1, 2, dtype=L.int64), 2, output_size=[1, 4]),
    "indices_dtype": lambda L: L.nn.functional.max_unpool1d(L.ones(1, 1, 2), L.zeros(
        1, 1, 2, dtype=L.int32), 2),
    "indices_shape": lambda L: L.nn.functional.max_unpool1d(L.ones(1, 1, 2), L.zeros(
        1, 1, 3, dtype=L.int64), 2),
}


@pytest.mark.parametrize("case", BAD)
def test_max_unpool1d_refusals_as_torch(case: str) -> None:
    want, got = raised_by(BAD[case], torch), raised_by(BAD[case], minitorch)
    assert want is not None
    assert_same_error(got, want)


def test_max_unpool1d_repr_as_torch() -> None:
    for args in [(2,), (3, 1, 1), ([2], [2])]:
        assert repr(minitorch.nn.MaxUnpool1d(*args)) == repr(torch.nn.MaxUnpool1d(*args))
