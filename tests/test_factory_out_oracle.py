"""``out=`` on the size factories (zeros, ones, empty, rand, randn): torch makes the result
with ``out``'s dtype and device, resizes ``out`` and writes into it (``empty`` only resizes);
it was once taken and ignored, a silently wrong result. torch 2.13 is the oracle."""

from __future__ import annotations

from typing import Any

import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same, assert_same_error, raised_by

CALLS = [
    "L.zeros(2, 3, out=o)", "L.ones(4, out=o)", "L.rand(2, out=o)", "L.randn(3, 1, out=o)",
    "L.empty(2, out=o)", "L.zeros(size=(2,), out=o)", "L.rand(2, out=o, dtype=o.dtype)",
    "L.ones((1, 2), out=o, requires_grad=False)",
]
OUTS = ["L.full((2,), 7.0)", "L.full((2, 3), 5, dtype=L.int64)", "L.zeros(2, dtype=L.float64)",
        "L.ones(6)[::2]", "L.zeros(0)", "L.ones(1, 1, dtype=L.bool)"]


@pytest.mark.parametrize("call", CALLS)
@pytest.mark.parametrize("out", OUTS)
def test_size_factories_write_into_out(call: str, out: str) -> None:
    def run(L: Any) -> Any:
        L.manual_seed(3)
        o = eval(out, {"L": L})
        held = o.numel()
        r = eval(call, {"L": L, "o": o})
        assert r is o
        if call.startswith("L.empty") and o.numel() > held:  # new memory: torch's is garbage
            return str(o.shape), str(o.dtype)
        return o

    want = raised_by(run, torch)
    if want is not None:
        assert_same_error(raised_by(run, mt), want)
        return
    got, expected = run(mt), run(torch)
    if isinstance(expected, tuple):
        assert got == expected
    else:
        assert_same(got, expected)


@pytest.mark.parametrize("call", [
    "L.zeros(2, out=3)", "L.rand(2, dtype=L.float32, out=L.zeros(2, dtype=L.float64))",
    "L.ones(2, out=L.zeros(2, requires_grad=True))", "L.randn(2, out=[1.0, 2.0])",
])
def test_size_factories_refuse_bad_out(call: str) -> None:
    def run(L: Any) -> Any:
        return eval(call, {"L": L})

    assert_same_error(raised_by(run, mt), raised_by(run, torch))
