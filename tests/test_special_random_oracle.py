"""``torch.special``'s names and ``torch.random``'s functions, against live torch: the same
values bit for bit, the same gradients and nodes, and torch's refusals under torch.special's
own name; ``fork_rng`` restoring the stream."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same, assert_same_error, raised_by

VALUES = np.array([0.3, 0.7, 1.5, 2.25], np.float32)

CALLS = {
    "expit": lambda s, x: s.expit(x),
    "logit": lambda s, x: s.logit(x / 3),
    "logit eps": lambda s, x: s.logit(x / 3, 0.2),
    "erf": lambda s, x: s.erf(x),
    "erfc": lambda s, x: s.erfc(x),
    "erfinv": lambda s, x: s.erfinv(x / 3),
    "exp2": lambda s, x: s.exp2(x),
    "expm1": lambda s, x: s.expm1(x),
    "log1p": lambda s, x: s.log1p(x),
    "gammaln": lambda s, x: s.gammaln(x),
    "digamma": lambda s, x: s.digamma(x),
    "psi": lambda s, x: s.psi(x),
    "polygamma": lambda s, x: s.polygamma(2, x),
    "multigammaln": lambda s, x: s.multigammaln(x + 2, 3),
    "i0": lambda s, x: s.i0(x),
    "sinc": lambda s, x: s.sinc(x),
    "round": lambda s, x: s.round(x, decimals=1),
    "softmax": lambda s, x: s.softmax(x, 0),
    "softmax float64": lambda s, x: s.softmax(x, dim=0, dtype=x.new_ones(1).double().dtype),
    "log_softmax": lambda s, x: s.log_softmax(x, 0),
    "logsumexp": lambda s, x: s.logsumexp(x, 0, keepdim=True),
    "xlogy": lambda s, x: s.xlogy(x, x + 1),
}


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_special_names_compute_torchs_values_gradients_and_nodes(name: str, dtype: str) -> None:
    def run(L: Any) -> tuple:
        x = L.tensor(VALUES, dtype=getattr(L, dtype), requires_grad=True)
        y = CALLS[name](L.special, x)
        grad = L.autograd.grad(y.sum(), x)[0] if y.requires_grad else None
        return y, grad, type(y.grad_fn).__name__ if y.grad_fn is not None else None

    (y, grad, node), (y_t, grad_t, node_t) = run(mt), run(torch)
    assert_same(y, y_t, name)
    assert node == node_t
    assert (grad is None) == (grad_t is None)
    if grad_t is not None:
        assert_same(grad, grad_t, f"{name}'s gradient")


BAD = [
    ("expit", ("a",), {}), ("expit", (3,), {}), ("logit", ("x", "e"), {}),
    ("softmax", ("x",), {}), ("softmax", ("x", 1.5), {}), ("polygamma", ("a", "x"), {}),
    ("polygamma", (1.5, "x"), {}), ("multigammaln", ("x",), {}), ("multigammaln", ("x", 0), {}),
    ("round", ("x", 1), {}), ("xlogy", ("a",), {}), ("xlogy", (), {}),
    ("logsumexp", ("x",), {}), ("gammaln", ("x", "x"), {}), ("erf", (), {}),
    ("expit", (), {"input": "x", "foo": 1}),
]


@pytest.mark.parametrize("name, args, kwargs", BAD, ids=lambda v: repr(v)[:30])
def test_special_refusals_are_torchs_under_its_name(name: str, args: tuple, kwargs: dict
                                                    ) -> None:
    def call(L: Any) -> Any:
        x = L.tensor(VALUES)
        given = [x if a == "x" else a for a in args]
        return getattr(L.special, name)(*given, **{k: x if v == "x" else v
                                                    for k, v in kwargs.items()})

    assert_same_error(raised_by(call, mt), raised_by(call, torch))


def test_fork_rng_restores_the_stream_as_torch() -> None:
    def run(L: Any) -> list:
        L.manual_seed(0)
        seen = []
        with L.random.fork_rng():
            seen.append(L.rand(2))
        seen.append(L.rand(2))
        with L.random.fork_rng(devices=[]):
            seen.append(L.randn(3))
        with L.random.fork_rng(enabled=False):
            seen.append(L.rand(1))
        seen.append(L.rand(1))
        with L.random.fork_rng(device_type="meta"):
            seen.append(L.rand(1))
        L.random.manual_seed(3)
        seen.append(L.randn(2))
        return seen

    for got, want in zip(run(mt), run(torch)):
        assert_same(got, want, "draw")
    assert mt.random.default_generator is mt.default_generator
    assert mt.random.initial_seed() == torch.random.initial_seed() == 3


@pytest.mark.parametrize("kwargs", [
    {"device_type": "xyz"},
    pytest.param({"devices": [0]}, marks=pytest.mark.skipif(
        mt.cuda.is_available(), reason="a GPU is here: minitorch forks with it; torch's CPU "
        "build refuses")),
], ids=str)
def test_fork_rng_refuses_as_torch(kwargs: dict) -> None:
    def call(L: Any) -> None:
        with warnings.catch_warnings(), L.random.fork_rng(**kwargs):
            pass

    assert_same_error(raised_by(call, mt), raised_by(call, torch))
