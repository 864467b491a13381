"""Ties in max, min and clamp keep the first operand as torch's kernels do, so the sign of a
zero survives: ``relu(-0.)`` prints ``-0.`` in torch, and numpy's ``maximum`` would give ``0.``."""

from __future__ import annotations

from typing import Any

import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import minitorch as mt

EDGES = [-0.0, 0.0, -1.0, 1.0, float("nan"), float("inf"), -float("inf")]

CALLS = {
    "relu": lambda L, a, b: L.relu(a),
    "F.relu": lambda L, a, b: L.nn.functional.relu(a),
    "maximum": lambda L, a, b: L.maximum(a, b),
    "minimum": lambda L, a, b: L.minimum(a, b),
    "clamp(min=0)": lambda L, a, b: a.clamp(min=0.0),
    "clamp(max=-0.)": lambda L, a, b: a.clamp(max=-0.0),
    "clamp(-0., 0.)": lambda L, a, b: a.clamp(-0.0, 0.0),
    "clamp(min=tensor)": lambda L, a, b: L.clamp(a, min=b),
    "clamp(max=tensor)": lambda L, a, b: L.clamp(a, max=b),
    "hardtanh": lambda L, a, b: L.nn.functional.hardtanh(a),
    "relu6": lambda L, a, b: L.nn.functional.relu6(a),
    "hardtanh(-0., 0.)": lambda L, a, b: L.nn.functional.hardtanh(a, -0.0, 0.0),
}


def _signed(t: Any) -> list[tuple[bool, str]]:
    """Each value with its sign bit, so that -0. and 0. differ (NaN compared by name)."""
    values = t.detach().reshape(-1).tolist()
    return [(str(v), str(v).startswith("-")) for v in values]


@pytest.mark.parametrize("name", sorted(CALLS))
@given(st.lists(st.tuples(st.sampled_from(EDGES), st.sampled_from(EDGES)), min_size=1,
                max_size=8))
def test_ties_keep_the_first_operand(name: str, pairs: list) -> None:
    a, b = [p[0] for p in pairs], [p[1] for p in pairs]
    got = CALLS[name](mt, mt.tensor(a), mt.tensor(b))
    want = CALLS[name](torch, torch.tensor(a), torch.tensor(b))
    assert _signed(got) == _signed(want), f"{name}({a}, {b}): torch {want}, minitorch {got}"
    assert str(got) == str(want)
