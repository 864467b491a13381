"""linalg.diagonal and linalg.vecdot against torch: values, gradients, nodes, errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS, arrays, assert_same_error, raised_by

import minitorch


def _run(L, a, b, case, dim):
    x, y = L.tensor(a, requires_grad=True), L.tensor(b, requires_grad=True)
    out = L.linalg.diagonal(x, offset=dim) if case == "diagonal" else \
        L.linalg.vecdot(x, y, dim=dim)
    out.sum().backward()
    grad_y = None if y.grad is None else y.grad.numpy()
    return out.detach().numpy(), x.grad.numpy(), grad_y, type(out.grad_fn).__name__


@SETTINGS
@given(st.data())
def test_diagonal_and_vecdot_as_torch(data) -> None:
    shape = data.draw(st.sampled_from([(3, 4), (2, 3, 3), (4,)]))
    a, b = data.draw(arrays(shape)), data.draw(arrays(shape))
    case = data.draw(st.sampled_from(["diagonal", "vecdot"]))
    dim = data.draw(st.integers(-2, 1))
    want = raised_by(lambda L: _run(L, a, b, case, dim), torch)
    if want is not None:
        assert_same_error(raised_by(lambda L: _run(L, a, b, case, dim), minitorch), want)
        return
    got, exp = _run(minitorch, a, b, case, dim), _run(torch, a, b, case, dim)
    for g, w in zip(got[:3], exp[:3]):
        if w is None:
            assert g is None
        else:
            np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-14)
    assert got[3] == exp[3]


BAD = {
    "dtypes": lambda L: L.linalg.vecdot(L.ones(2), L.ones(2, dtype=L.float64)),
    "offset_float": lambda L: L.linalg.diagonal(L.ones(2, 2), offset=1.0),
    "shapes": lambda L: L.linalg.vecdot(L.ones(2, 3), L.ones(2, 4)),
}


@pytest.mark.parametrize("case", BAD)
def test_refusals_as_torch(case: str) -> None:
    want = raised_by(BAD[case], torch)
    assert want is not None
    assert_same_error(raised_by(BAD[case], minitorch), want)
