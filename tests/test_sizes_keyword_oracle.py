"""Methods and functions that take their sizes spread out (``x.permute(1, 0)``) also take them
by torch's keyword as one tuple or list (``x.permute(dims=(1, 0))``, ``torch.flip(x,
dims=[0])``); a bare int by keyword, or both forms at once, is refused in torch's words."""

from __future__ import annotations

import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same, assert_same_error, raised_by

CALLS = ["x.permute(dims=(1, 0))", "x.permute(dims=[1, 0])", "x.repeat(repeats=(2, 1))",
         "x.repeat(repeats=[1, 2, 1])", "x.reshape(shape=(3, 2))", "x.reshape(shape=[-1])",
         "x.flip(dims=(0,))", "x.flip(dims=[0, 1])", "L.flip(x, dims=[1])",
         "x.expand(size=(2, 2, 3))", "x.expand(size=L.Size([2, 2, 3]))",
         "L.permute(x, dims=(1, 0))", "L.reshape(x, shape=(6,))", "L.reshape(x, (6,))"]
REFUSED = ["x.flip(dims=0)", "x.permute(dims=0)", "x.reshape(shape=6)", "x.expand(size=3)",
           "x.repeat(repeats=2)", "x.permute(1, 0, dims=(1, 0))", "L.reshape(x, shape=6)",
           "L.reshape(x, 6)", "L.reshape(x)", "L.permute(x, dims=(1, 0), shape=(1,))"]


@pytest.mark.parametrize("call", CALLS)
def test_sizes_by_keyword(call: str) -> None:
    def run(L: object) -> object:
        x = L.arange(6.0).view(2, 3).requires_grad_()
        y = eval(call, {"L": L, "x": x})
        (y * L.arange(float(y.numel())).view(y.shape)).sum().backward()
        return y, x.grad

    (got, got_grad), (want, want_grad) = run(mt), run(torch)
    assert_same(got, want)
    assert_same(got_grad, want_grad, "gradient")


@pytest.mark.parametrize("call", REFUSED)
def test_sizes_by_keyword_refusals(call: str) -> None:
    def run(L: object) -> object:
        return eval(call, {"L": L, "x": L.arange(6.0).view(2, 3)})

    assert_same_error(raised_by(run, mt), raised_by(run, torch))
