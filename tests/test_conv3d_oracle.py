"""``nn.Conv3d`` and ``F.conv3d`` against torch: printed modules, initial weights, values,
gradients (second order too), padding strings and modes, groups, unbatched input, errors.
minitorch runs them through the 2-D convolution's own columns-and-products code."""

from __future__ import annotations

from typing import Any

import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same, assert_same_error, raised_by

SETTINGS = [{}, {"stride": 2, "padding": 1},
            {"padding": (0, 1, 2), "dilation": (1, 2, 1), "groups": 2, "bias": False},
            {"padding": "same", "padding_mode": "circular"},
            {"padding": 1, "stride": (1, 2, 1), "padding_mode": "reflect"},
            {"padding": "valid", "padding_mode": "replicate"}]


def _check(run: Any) -> None:
    got, want = run(mt), run(torch)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        if isinstance(w, torch.Tensor):
            assert_same(g, w)
        else:
            assert g == w


@pytest.mark.parametrize("settings", SETTINGS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_module(settings: dict, dtype: str) -> None:
    def run(L: Any) -> list[Any]:
        L.manual_seed(0)
        m = L.nn.Conv3d(4, 6, (2, 3, 2), **settings).to(getattr(L, dtype))
        x = L.randn(2, 4, 5, 6, 5, dtype=getattr(L, dtype), requires_grad=True)
        y = m(x)
        y.pow(2).sum().backward()
        out = [repr(m), m.weight, y, y.grad_fn.name(), x.grad, m.weight.grad]
        if m.bias is not None:
            out.append(m.bias.grad)
        return [*out, m(L.randn(4, 5, 6, 5, dtype=getattr(L, dtype)))]
    _check(run)


def test_second_order() -> None:
    def run(L: Any) -> list[Any]:
        L.manual_seed(1)
        x = L.randn(1, 2, 3, 4, 3, dtype=L.float64, requires_grad=True)
        w = L.randn(4, 1, 2, 2, 2, dtype=L.float64, requires_grad=True)
        b = L.randn(4, dtype=L.float64, requires_grad=True)
        y = L.nn.functional.conv3d(x, w, b, padding=1, stride=(1, 2, 1), groups=2)
        gx, gw, gb = L.autograd.grad(y.pow(2).sum(), (x, w, b), create_graph=True)
        return list(L.autograd.grad(gx.pow(2).sum() + gw.pow(3).sum() + gb.pow(2).sum(),
                                    (x, w, b)))
    _check(run)


@pytest.mark.parametrize("call", [
    "F.conv3d(L.ones(1, 2, 4, 4, 4), L.ones(3, 2, 2, 2, 2), stride=(1, 2))",
    "F.conv3d(L.ones(4, 4, 4), L.ones(3, 2, 2, 2, 2))",
    "F.conv3d(L.ones(1, 3, 4, 4, 4), L.ones(3, 2, 2, 2, 2))",
    "F.conv3d(L.ones(1, 2, 1, 4, 4), L.ones(3, 2, 2, 2, 2))",
    "F.conv3d(L.ones(1, 2, 4, 4, 4), L.ones(3, 2, 2, 2, 2), padding='same', stride=2)",
    "F.conv3d(L.ones(1, 2, 4, 4, 4), L.ones(3, 2, 2, 2, 2), L.ones(2))",
    "L.nn.Conv3d(2, 3, 2, groups=2)",
    "L.nn.Conv3d(2, 4, 2, padding_mode='mirror')",
])
def test_errors(call: str) -> None:
    def run(L: Any) -> Any:
        return eval(call, {"L": L, "F": L.nn.functional})
    assert_same_error(raised_by(run, mt), raised_by(run, torch))
