"""``torch.utils.checkpoint.checkpoint``: same values and gradients as torch, the function
rerun in backward, the random state restored for the rerun, and torch's warning."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
import torch
import torch.utils.checkpoint
from hypothesis import given, settings
from hypothesis import strategies as st

import minitorch as mt
import minitorch.utils.checkpoint
from tests.oracle import numpy_of


def _run(L: Any, values: list, use_reentrant: bool) -> tuple:
    """(grad_fn name, calls after forward, gradient, calls after backward)."""
    calls = []

    def f(t: Any) -> Any:
        calls.append(1)
        return (t * 2).sin() * t.exp()

    x = L.tensor(values, dtype=L.float64, requires_grad=True)
    y = L.utils.checkpoint.checkpoint(f, x, use_reentrant=use_reentrant)
    forward_calls = len(calls)
    y.sum().backward()
    return y.grad_fn.name(), forward_calls, numpy_of(x.grad), len(calls)


@settings(max_examples=10, deadline=None)
@given(values=st.lists(st.floats(-2, 2), min_size=1, max_size=4),
       use_reentrant=st.booleans())
def test_gradients_and_recomputation_match_torch(values: list, use_reentrant: bool) -> None:
    got, want = _run(mt, values, use_reentrant), _run(torch, values, use_reentrant)
    assert (got[0], got[1], got[3]) == (want[0], want[1], want[3])
    np.testing.assert_allclose(got[2], want[2], rtol=1e-12)


def _second_derivative(L: Any) -> Any:
    x = L.tensor([0.3, 0.7, -1.2], dtype=L.float64, requires_grad=True)
    y = L.utils.checkpoint.checkpoint(lambda t: t.sin() * t.exp(), x, use_reentrant=False)
    (g,) = L.autograd.grad(y.sum(), x, create_graph=True)
    return numpy_of(L.autograd.grad(g.sum(), x)[0])


def test_non_reentrant_double_backward_matches_torch() -> None:
    np.testing.assert_allclose(_second_derivative(mt), _second_derivative(torch), rtol=1e-12)


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_rerun_draws_the_same_random_numbers(use_reentrant: bool) -> None:
    def grad(L: Any) -> Any:
        L.manual_seed(0)
        x = L.ones(6, requires_grad=True)
        drop = lambda t: t * (L.rand(6) > 0.5) * 2  # noqa: E731 - a dropout of its own
        L.utils.checkpoint.checkpoint(lambda t: drop(t) * t, x,
                                      use_reentrant=use_reentrant).sum().backward()
        return numpy_of(x.grad)
    np.testing.assert_array_equal(grad(mt), grad(torch))


def test_use_reentrant_not_given_warns_as_torch() -> None:
    def caught(L: Any) -> list:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            y = L.utils.checkpoint.checkpoint(lambda t: t * 2, L.ones(1, requires_grad=True))
        return [(w.category.__name__, str(w.message)) for w in seen] + [y.grad_fn.name()]
    assert caught(mt) == caught(torch)


@pytest.mark.parametrize("segments", [1, 2, 3])
def test_checkpoint_sequential_matches_torch(segments: int) -> None:
    def grads(L: Any) -> list:
        L.manual_seed(0)
        model = L.nn.Sequential(L.nn.Linear(3, 4), L.nn.Tanh(), L.nn.Linear(4, 2), L.nn.Sigmoid())
        x = L.ones(2, 3, requires_grad=True)
        out = L.utils.checkpoint.checkpoint_sequential(model, segments, x, use_reentrant=False)
        out.sum().backward()
        return [numpy_of(out), numpy_of(x.grad), numpy_of(model[0].weight.grad)]
    for got, want in zip(grads(mt), grads(torch)):
        np.testing.assert_allclose(got, want, rtol=1e-6)
