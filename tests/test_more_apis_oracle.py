"""APIs that tutorials and textbooks use, checked against torch: split, chunk, select, repeat,
gather/scatter, cumsum, prod, pad, embedding, layer_norm, the activations, ...

Each case is one program run on both libraries (``L`` is minitorch or torch): its outputs,
their grad_fn names, the gradients of its float inputs, and the errors of bad calls.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import (
    SETTINGS,
    arrays,
    assert_same,
    assert_same_error,
    assert_same_grads,
    raised_by,
    shapes,
    twins,
)

import minitorch as mt


def _outputs(result: Any) -> list:
    return list(result) if isinstance(result, (tuple, list)) else [result]


def check(program: Any, *data: np.ndarray, grad: bool = True) -> None:
    """``program(L, *tensors)`` gives torch's outputs, nodes and input gradients."""
    mine, theirs = twins(list(data), requires_grad=[grad] * len(data))
    got, want = _outputs(program(mt, *mine)), _outputs(program(torch, *theirs))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert_same(g, w)
        assert type(g.grad_fn).__name__ == type(w.grad_fn).__name__ if w.grad_fn else \
            g.grad_fn is None
    if not grad:
        return
    weights = [np.random.default_rng(i).standard_normal(tuple(w.shape)) for i, w in
               enumerate(want)]
    floating = [(g, w, a) for g, w, a in zip(got, want, weights) if w.dtype.is_floating_point]
    sum(((g * mt.tensor(a)).sum() for g, _, a in floating), mt.zeros(())).backward()
    sum(((w * torch.tensor(a)).sum() for _, w, a in floating), torch.zeros(())).backward()
    assert_same_grads([m.grad for m in mine], [t.grad for t in theirs], "input grads")


def check_error(call: Any) -> None:
    """``call(L)`` raises torch's error type and message."""
    want = raised_by(call, torch)
    assert want is not None, "torch raised nothing: not a bad call"
    assert_same_error(raised_by(call, mt), want)


# ---------------------------------------------------------------------------- split and co.


@st.composite
def shape_and_dim(draw: Any, min_dims: int = 1) -> tuple:
    shape = draw(shapes(min_dims=min_dims, min_side=0, max_side=5))
    return shape, draw(st.integers(-len(shape), len(shape) - 1))


@given(shape_and_dim(), st.integers(1, 6))
@SETTINGS
def test_split_and_chunk_pieces_nodes_and_grads(case: tuple, n: int) -> None:
    shape, dim = case
    data = np.arange(float(np.prod(shape))).reshape(shape)
    check(lambda L, x: x.split(n, dim), data)
    check(lambda L, x: L.chunk(x, n, dim), data)


@given(shape_and_dim(), st.data())
@SETTINGS
def test_split_with_sizes_is_torchs(case: tuple, data: st.DataObject) -> None:
    shape, dim = case
    total = shape[dim]
    cuts = sorted(data.draw(st.lists(st.integers(0, total), max_size=3)))
    sizes = [b - a for a, b in zip([0, *cuts], [*cuts, total])]
    check(lambda L, x: L.split(x, sizes, dim=dim), np.ones(shape))


@given(shapes(max_dims=3, max_side=3), st.lists(st.integers(0, 3), max_size=4), st.data())
@SETTINGS
def test_repeat_values_and_grads(shape: tuple, extra: list, data: st.DataObject) -> None:
    counts = extra + [data.draw(st.integers(0, 3)) for _ in shape]
    check(lambda L, x: x.repeat(*counts) if counts else x.repeat(()), data.draw(arrays(shape)))


@given(shape_and_dim(), st.data())
@SETTINGS
def test_select_is_torchs(case: tuple, data: st.DataObject) -> None:
    shape, dim = case
    if shape[dim] == 0:
        return
    i = data.draw(st.integers(-shape[dim], shape[dim] - 1))
    check(lambda L, x: (x.select(dim, i), L.select(x, dim, i)), data.draw(arrays(shape)))


SPLIT_ERRORS = [
    lambda L: L.ones(4, 3).split(0), lambda L: L.ones(4, 3).split(-1),
    lambda L: L.ones(4, 3).split([1, 2]), lambda L: L.ones(4, 3).split([5, -1]),
    lambda L: L.ones(4, 3).split(2, 5), lambda L: L.ones(4, 3).split(2.0),
    lambda L: L.ones(4, 3).chunk(0), lambda L: L.ones(4).chunk(-1),
    lambda L: L.tensor(1.).chunk(1), lambda L: L.tensor(1.).split(1),
    lambda L: L.ones(4, 3).repeat(2), lambda L: L.ones(4, 3).repeat(-1, 2),
    lambda L: L.ones(4, 3).select(0, 4), lambda L: L.ones(4, 3).select(2, 0),
    lambda L: L.ones(4, 3).select(0, -5),
]


@pytest.mark.parametrize("call", SPLIT_ERRORS)
def test_split_errors_are_torchs(call: Any) -> None:
    check_error(call)
