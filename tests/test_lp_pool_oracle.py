"""F.lp_pool1d/lp_pool2d and nn.LPPool1d/LPPool2d against torch: values and gradients
(float64 to rounding), the graph's nodes (torch's composition), printed forms, ±inf norms."""

from __future__ import annotations

import numpy as np
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS, arrays, assert_same_error, node_chain, raised_by

import minitorch


def _run(L, data, rank, p, kernel, stride, ceil, module):
    x = L.tensor(data, requires_grad=True)
    if module:
        pool = (L.nn.LPPool1d if rank == 1 else L.nn.LPPool2d)(p, kernel, stride, ceil)
        y, text = pool(x), repr(pool)
    else:
        fn = L.nn.functional.lp_pool1d if rank == 1 else L.nn.functional.lp_pool2d
        y, text = fn(x, p, kernel, stride, ceil), ""
    y.sum().backward()
    return y.detach().numpy(), x.grad.numpy(), node_chain(y.grad_fn), text


@SETTINGS
@given(st.data())
def test_lp_pool_as_torch(data) -> None:
    rank = data.draw(st.sampled_from([1, 2]))
    shape = (2, 3, 5) if rank == 1 else (1, 2, 4, 5)
    values = np.abs(data.draw(arrays(shape))) + 0.1
    p = data.draw(st.sampled_from([1, 2, 3.0, 1.5, float("inf"), -float("inf")]))
    kernel = data.draw(st.sampled_from([2, 3] if rank == 1 else [2, (2, 3)]))
    stride = data.draw(st.sampled_from([None, 1, 2]))
    ceil, module = data.draw(st.booleans()), data.draw(st.booleans())
    args = (values, rank, p, kernel, stride, ceil, module)
    want = raised_by(lambda L: _run(L, *args), torch)
    if want is not None:
        got = raised_by(lambda L: _run(L, *args), minitorch)
        assert_same_error(got, want)
        return
    got, exp = _run(minitorch, *args), _run(torch, *args)
    for g, w in zip(got[:2], exp[:2]):
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-14)
    assert got[3] == exp[3]
    # max_pool1d's ceil_mode pads through a CatBackward0 of its own (known; not lp_pool's)
    if not (ceil and abs(p) == float("inf")):
        assert got[2] == exp[2]
