"""relu, clamp, clamp_min/max and hardtanh keep torch's bits on ties and specials: the first
operand on a tie (``relu(-0.)`` is ``-0.``), NaN propagated, bounds as torch rounds them;
hypothesis draws values, dtypes and scalar bounds, torch 2.13 is the oracle."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import assert_same, assert_same_error, raised_by

SPECIALS = [-0.0, 0.0, float("nan"), float("inf"), -float("inf"), 1e-45, -1e-45, 0.5, -0.5]
DTYPES = ["float16", "float32", "float64", "int8", "int32", "int64"]
OPS = [
    lambda L, x, lo, hi: L.relu(x),
    lambda L, x, lo, hi: L.clamp(x, min=lo),
    lambda L, x, lo, hi: L.clamp(x, max=hi),
    lambda L, x, lo, hi: L.clamp(x, lo, hi),
    lambda L, x, lo, hi: x.clamp_min(lo),
    lambda L, x, lo, hi: x.clamp_max(hi),
    lambda L, x, lo, hi: L.nn.functional.hardtanh(x, lo, hi) if lo <= hi else L.relu(x),
    lambda L, x, lo, hi: L.nn.functional.relu6(x),
]
bound = st.sampled_from([-0.0, 0.0, 0.5, -1.0, 2.0, 1e-45, float("inf"), -float("inf")])


def _bits(t: Any) -> tuple:
    a = t.numpy()
    return str(a.dtype), a.shape, a.tobytes()


@settings(max_examples=300, deadline=None)
@given(values=st.lists(st.one_of(st.sampled_from(SPECIALS),
                                 st.floats(-4, 4, allow_subnormal=True)), min_size=1,
                       max_size=40),
       dtype=st.sampled_from(DTYPES), op=st.sampled_from(OPS), lo=bound, hi=bound)
def test_clamp_family_bits_match_torch(values: list, dtype: str, op: Any, lo: float,
                                       hi: float) -> None:
    array = np.array(values, np.float64)
    if not dtype.startswith("float"):
        array = np.nan_to_num(array, nan=0.0, posinf=3.0, neginf=-3.0).round()
        lo, hi = (float(np.nan_to_num(v, posinf=3.0, neginf=-3.0)) for v in (lo, hi))
    array = array.astype(dtype)
    want = op(torch, torch.from_numpy(array.copy()), lo, hi)
    got = op(mt, mt.from_numpy(array.copy()), lo, hi)
    assert _bits(got) == _bits(want), (values, dtype, lo, hi, got, want)


def _one_sided_graph(L: Any) -> list:
    x = L.tensor([[-1.0, 0.5, 2.0], [0.0, 3.0, -2.0]], requires_grad=True)
    bound = L.tensor([0.5, 0.0, 1.0], requires_grad=True)
    outs = [x.clamp_max(0.5), L.clamp_max(x, bound), x.clamp_min(bound), L.clamp_min(x, 0.0)]
    sum(o.sum() for o in outs).backward()
    inplace = x.detach().clone()
    inplace.clamp_max_(1.0)
    L.clamp_max_(inplace, bound.detach())
    return [*[(o, o.grad_fn.name()) for o in outs], x.grad, bound.grad, inplace]


def test_clamp_min_and_max_graphs_match_torch() -> None:
    got, want = _one_sided_graph(mt), _one_sided_graph(torch)
    for index, (g, w) in enumerate(zip(got, want)):
        if isinstance(w, tuple):
            assert g[1] == w[1], (index, g[1], w[1])
            g, w = g[0], w[0]
        assert_same(g, w, f"output {index}")


def test_clamp_max_refusals_match_torch() -> None:
    for call in (lambda L: L.clamp_max(L.ones(2), None), lambda L: L.ones(2).clamp_max("a"),
                 lambda L: L.ones(2).clamp_max(L.ones(3)), lambda L: L.clamp_max(2.0, 1.0)):
        assert_same_error(raised_by(call, mt), raised_by(call, torch))
