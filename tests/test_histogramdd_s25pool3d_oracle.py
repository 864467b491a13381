"""``minitorch.histogramdd`` against torch: the histogram's values, dtype and shape, the bin
edges and the printed return type, for bins as one int, one per dim or edge tensors, with
and without ``range``, ``weight`` and ``density``; and torch's refusals of bad input."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS, assert_same_error, numpy_of, raised_by

import minitorch as mt


@st.composite
def cases(draw: Any) -> tuple:
    """Points (rows of D coordinates, batched or not) and histogramdd's arguments."""
    d = draw(st.integers(1, 3))
    lead = tuple(draw(st.lists(st.integers(0, 5), min_size=1, max_size=2)))
    kind = draw(st.sampled_from(["int", "ints", "edges"]))
    counts = [draw(st.integers(1, 4)) for _ in range(d)]
    bounds = draw(st.one_of(st.none(), st.just([v for _ in range(d) for v in (-1.0, 1.5)])))
    weighted, density = draw(st.booleans()), draw(st.booleans())
    dtype = draw(st.sampled_from(["float32", "float64"]))

    def call(L: Any) -> Any:
        rng = np.random.default_rng(sum(lead) + d)
        x = L.tensor(rng.standard_normal((*lead, d)).astype(dtype))
        bins: Any = (counts[0] if kind == "int" else counts if kind == "ints" else
                     [L.tensor(np.cumsum(rng.uniform(0.2, 1.0, c + 1)).astype(dtype) - 1.5)
                      for c in counts])
        weight = L.tensor(rng.uniform(0, 2, lead).astype(dtype)) if weighted else None
        return L.histogramdd(x, bins=bins, range=None if kind == "edges" else bounds,
                             weight=weight, density=density)

    return call


@SETTINGS
@given(cases())
def test_histogramdd_like_torch(call: Any) -> None:
    got, want = call(mt), call(torch)
    assert type(got).__name__ == type(want).__name__ == "histogramdd"
    for g, w in zip((got.hist, *got.bin_edges), (want.hist, *want.bin_edges)):
        assert str(g.dtype) == str(w.dtype) and tuple(g.shape) == tuple(w.shape)
        np.testing.assert_allclose(numpy_of(g), numpy_of(w), rtol=1e-5, equal_nan=True)
    assert len(got.bin_edges) == len(want.bin_edges)


def test_histogramdd_prints_as_torch() -> None:
    got, want = (repr(L.histogramdd(L.tensor([[0., 1.], [1., 0.], [2., 2.]]), bins=2))
                 for L in (mt, torch))
    assert got == want


BAD = [
    "L.histogramdd(x, bins=[3])", "L.histogramdd(x, bins=[3, 3, 3])", "L.histogramdd(x, [0, 3])",
    "L.histogramdd(x, bins=[-1, 3])", "L.histogramdd(x, bins=3, range=[0., 1.])",
    "L.histogramdd(x, bins=3, range=[1., 0., 0., 1.])", "L.histogramdd(x.long(), bins=3)",
    "L.histogramdd(x, bins=3, weight=w.double())", "L.histogramdd(x, bins=3, weight=w[:3])",
    "L.histogramdd(x[0], bins=3)", "L.histogramdd(x, bins=[L.tensor([0., 1, 2])])",
    "L.histogramdd(x, bins=[L.tensor([0., 1, 2]).double(), L.tensor([0., 1, 2])])",
    "L.histogramdd(x, bins=2.5)", "L.histogramdd(x, bins=None)", "L.histogramdd(x)",
    "L.histogramdd(x, bins=L.tensor([0., 1, 2]))",
    "L.histogramdd(L.tensor([[float('nan'), 1.]]), bins=3)",
    "L.histogramdd(x, bins=3, range=[0., float('inf'), 0, 1])",
    "L.histogramdd(x, bins=[L.tensor([[0., 1]]), L.tensor([0., 1, 2])])",
    "L.histogramdd(x, bins=[L.tensor([0.]), L.tensor([0., 1, 2])])", "L.histogramdd(x.half(), 3)",
    "L.histogramdd(x, bins=[L.tensor([0, 1, 2]), L.tensor([0, 1, 2])])",
    "L.histogramdd(x, bins=[2, 2.5])", "L.histogramdd(x, bins=[True, 2])",
    "L.histogramdd(x, bins=[2, -1], range=[0., 1., 0, 1])",
    "L.histogramdd(x, bins=[2], range=[0., 1., 2, 1])",
]


@pytest.mark.parametrize("call", BAD)
def test_bad_input_refused_as_torch(call: str) -> None:
    def program(L: Any) -> Any:
        x, w = L.tensor([[0., 1.], [1., 0.], [2., 0.], [2., 2.]]), L.tensor([1., 2., 4., 8.])
        return eval(call, {"L": L, "x": x, "w": w})

    want = raised_by(program, torch)
    assert want is not None, call
    assert_same_error(raised_by(program, mt), want)
