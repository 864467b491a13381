"""``Tensor.movedim`` / ``moveaxis`` and ``minitorch.movedim``: shapes, values, gradients and
errors as torch's."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import assert_same_error, numpy_of, raised_by


@st.composite
def moves(draw: Any) -> tuple[tuple[int, ...], Any, Any]:
    """A shape and a valid (source, destination): ints or equal-length tuples, some negative."""
    shape = tuple(draw(st.lists(st.integers(1, 3), min_size=1, max_size=4)))
    ndim = len(shape)
    count = draw(st.integers(1, ndim))
    src = draw(st.permutations(range(ndim)))[:count]
    dst = draw(st.permutations(range(ndim)))[:count]
    src = [d - ndim if draw(st.booleans()) else d for d in src]
    if count == 1 and draw(st.booleans()):
        return shape, src[0], dst[0]
    return shape, tuple(src), list(dst)


@settings(max_examples=40, deadline=None)
@given(case=moves())
def test_movedim_values_and_gradient_match_torch(case: tuple) -> None:
    shape, src, dst = case
    data = np.arange(float(np.prod(shape))).reshape(shape)
    results = []
    for L in (mt, torch):
        x = L.tensor(data, requires_grad=True)
        y = x.movedim(src, dst)
        (y * L.arange(y.numel(), dtype=y.dtype).reshape(y.shape)).sum().backward()
        same = L.moveaxis(x, src, dst)
        results.append((tuple(y.shape), numpy_of(y), numpy_of(x.grad), y.grad_fn.name(),
                        numpy_of(same)))
    got, want = results
    assert got[0] == want[0] and got[3] == want[3]
    for g, w in zip(got[1:], want[1:]):
        if isinstance(w, np.ndarray):
            np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("args", [((0, 0), (1, 2)), ((0, 1), (0,)), (5, 0), (0, -4), ("a", 0),
                                  (0.5, 1), ((0, 1), (1, 1)), ([0], [1.0]), ([0], 1)])
def test_bad_movedim_is_refused_as_torch(args: tuple) -> None:
    def call(L: Any) -> Any:
        return L.zeros(1, 2, 3).movedim(*args)
    assert_same_error(raised_by(call, mt), raised_by(call, torch))
