"""Fuzz D (seeds 3301/3302) DIFFERENT and REFUSED causes found on s14's tree, against live
torch: calls that both libraries run but answer differently (value, dtype, exception type),
or that torch runs and minitorch refused."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same_error, raised_by


def _scaled(L: Any, extra: float, times: float = 2.0) -> Any:
    """``x * 2`` whose backward returns ``g * times + extra``."""
    class Fn(L.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x * 2

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g * times + extra

    return Fn.apply


def _x(L: Any, requires_grad: bool = True) -> Any:
    return L.tensor([1.0, -2.0, 3.0], dtype=L.float64, requires_grad=requires_grad)


MASKED_CALLS = {
    "right backward": lambda L, m: L.autograd.gradcheck(_scaled(L, 0.0), (_x(L),), masked=m),
    "offset below allclose's atol": lambda L, m: L.autograd.gradcheck(
        _scaled(L, 1e-9), (_x(L),), masked=m),
    "offset above allclose's atol": lambda L, m: L.autograd.gradcheck(
        _scaled(L, 1e-7), (_x(L),), masked=m),
    "wrong backward": lambda L, m: L.autograd.gradcheck(_scaled(L, 0.0, 3.0), (_x(L),), masked=m),
    "fast mode": lambda L, m: L.autograd.gradcheck(
        _scaled(L, 0.0, 3.0), (_x(L),), masked=m, fast_mode=True),
    "no input requires grad": lambda L, m: L.autograd.gradcheck(
        _scaled(L, 0.0), (_x(L, False),), masked=m),
    "gradgradcheck": lambda L, m: L.autograd.gradgradcheck(
        lambda t: t.exp() * t, (_x(L),), masked=m),
    "gradgradcheck, offset": lambda L, m: L.autograd.gradgradcheck(
        lambda t: _scaled(L, 1e-9)(t) * t, (_x(L),), (L.ones(3, dtype=L.float64),), masked=m),
    "gradgradcheck, no input requires grad": lambda L, m: L.autograd.gradgradcheck(
        _scaled(L, 0.0), (_x(L, False),), masked=m),
}


@pytest.mark.parametrize("masked", [True, False, None])
@pytest.mark.parametrize("call", MASKED_CALLS.values(), ids=MASKED_CALLS.keys())
def test_gradcheck_masked_on_dense_inputs_is_torchs(call: Any, masked: Any) -> None:
    """On dense (strided) inputs torch's ``masked`` changes one thing: the zero-grad_output
    check becomes ``allclose`` to zero instead of exact equality. minitorch's tensors are all
    dense, so it is accepted, not refused."""
    def run(L: Any) -> Any:
        L.manual_seed(0)
        return call(L, masked)

    want = raised_by(run, torch)
    if want is not None:
        assert_same_error(raised_by(run, mt), want)
    else:
        assert run(mt) is run(torch)


@pytest.mark.parametrize("input_shape", [(1, 3), (3,), (2, 1, 3)], ids=str)
@pytest.mark.parametrize("devices", [("cpu", "cpu", "meta"), ("cpu", "meta", "meta"),
                                     ("meta", "cpu", "cpu"), ("meta", "meta", "cpu")], ids=str)
def test_linear_bias_on_another_device_is_torchs_error(input_shape: tuple, devices: tuple) -> None:
    """torch's linear checks the bias against the input's device before anything else: a
    Linear moved to 'meta' called on a CPU batch (or the reverse) says which tensor is not
    on the expected device."""
    def run(L: Any) -> Any:
        x, w, b = (L.ones(*s, device=d) for s, d in zip((input_shape, (2, 3), (2,)), devices))
        return L.nn.functional.linear(x, w, b)

    assert_same_error(raised_by(run, mt), raised_by(run, torch))


def test_module_moved_to_meta_refuses_a_cpu_batch_as_torch() -> None:
    def run(L: Any) -> Any:
        m = L.nn.Sequential(L.nn.Linear(3, 2), L.nn.Tanh())
        m.to("meta")
        return m(L.ones(1, 3))

    assert_same_error(raised_by(run, mt), raised_by(run, torch))


SHARE_CALLS = {
    "the tensor": lambda L, x: (x.share_memory_() is x, x.is_shared()),
    "a view of it": lambda L, x: (x.share_memory_(), x[1:].is_shared(), x.view(3).is_shared()),
    "through a view": lambda L, x: (x[1:].share_memory_(), x.is_shared()),
    "through detach": lambda L, x: (x.detach().share_memory_(), x.is_shared()),
    "a copy is not": lambda L, x: (x.share_memory_(), x.clone().is_shared(), (x * 2).is_shared()),
    "never shared": lambda L, x: x.is_shared(),
    "the storage": lambda L, x: (x.untyped_storage().is_shared(),
                                 x.untyped_storage().share_memory_() is not None, x.is_shared()),
    "a module": lambda L, x: (
        (m := L.nn.Sequential(L.nn.Linear(3, 2), L.nn.Tanh())).share_memory() is m,
        all(p.is_shared() for p in m.parameters())),
    "a meta tensor": lambda L, x: L.ones(2, device="meta").share_memory_(),
    "a meta tensor's flag": lambda L, x: L.ones(2, device="meta").is_shared(),
}


@pytest.mark.parametrize("call", SHARE_CALLS.values(), ids=SHARE_CALLS.keys())
def test_share_memory_marks_the_storage_as_torch(call: Any) -> None:
    """``is_shared`` is a property of the storage: after ``share_memory_`` (of the tensor, a
    view of it or its module) every tensor over that memory reports it, a copy does not."""
    def run(L: Any) -> Any:
        result = call(L, L.tensor([1.0, 2.0, 3.0]))
        return tuple(r for r in result if not isinstance(r, L.Tensor)) \
            if isinstance(result, tuple) else result

    want = raised_by(run, torch)
    if want is not None:
        assert_same_error(raised_by(run, mt), want)
    else:
        assert run(mt) == run(torch)


HALF_DRAWS = {
    "rand": lambda L, n: L.rand(n, dtype=L.float16),
    "rand requires_grad": lambda L, n: L.rand(n, dtype=L.float16, requires_grad=True),
    "randn": lambda L, n: L.randn(n, dtype=L.float16),
    "uniform_": lambda L, n: L.empty(n, dtype=L.float16).uniform_(-2.0, 3.0),
    "uniform_ narrow": lambda L, n: L.empty(n, dtype=L.float16).uniform_(0.1, 0.2),
    "normal_": lambda L, n: L.empty(n, dtype=L.float16).normal_(0.1, 0.3),
    "normal_ strided": lambda L, n: L.empty(3, n, dtype=L.float16)[:, 0].normal_(2.0, 3.0),
    "normal of a tensor": lambda L, n: L.normal(L.zeros(n, dtype=L.float16), 2.0),
}


@pytest.mark.parametrize("n", [1, 2, 15, 16, 17, 20, 32, 33, 5000])
@pytest.mark.parametrize("draw", HALF_DRAWS.values(), ids=HALF_DRAWS.keys())
def test_float16_samples_are_torchs(draw: Any, n: int) -> None:
    """torch draws float16 samples as its float32 ones rounded (a uniform one that rounds up
    to ``high`` gives ``low``; its half normal kernel draws the overlapping last 16 after the
    whole blocks): the dtype stays float16 and the numbers are torch's for the same seed."""
    def run(L: Any) -> Any:
        L.manual_seed(0)
        return draw(L, n)

    got, want = run(mt), run(torch)
    assert str(got.dtype) == str(want.dtype) and got.requires_grad == want.requires_grad
    np.testing.assert_array_equal(got.detach().numpy(), want.detach().numpy())
