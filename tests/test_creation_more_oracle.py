"""The factories and Tensor methods that tutorials use beyond the core, against live torch:
linspace/logspace, normal, the *_like family, size=, the legacy constructors, default dtype
and device, manual_seed's Generator, norm, the in-place samplers, type(), index_add_ and the
in-place unary ops."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS, assert_same, assert_same_error, raised_by, twins

import minitorch as mt


@pytest.mark.parametrize("lib_call", [
    lambda L: L.linspace(0, 1, 5),
    lambda L: L.linspace(-3.14, 3.14, 4),
    lambda L: L.linspace(0, 10, 5, dtype=L.int64),
    lambda L: L.linspace(2, 2, 1),
    lambda L: L.linspace(0, 1, 0),
    lambda L: L.linspace(-math.pi, math.pi, 2000),
    lambda L: L.linspace(0, 1, 7, dtype=L.float64),
    lambda L: L.logspace(0, 2, 3),
    lambda L: L.logspace(0, 3, 4, base=2),
    lambda L: L.logspace(-1, 1, 5, dtype=L.float64),
    lambda L: L.full_like(L.ones(2, 3), 7),
    lambda L: L.Tensor([1, 2]),
    lambda L: L.Tensor(),
    lambda L: L.FloatTensor([1, 2]),
    lambda L: L.LongTensor([1, 2]),
    lambda L: L.BoolTensor([True]),
    lambda L: L.zeros(size=(2, 3)),
    lambda L: L.ones(size=[1]),
    lambda L: L.index_add(L.zeros(3), 0, L.tensor([2, 2]), L.ones(2)),
])
def test_factories_like_torch(lib_call) -> None:
    got, want = lib_call(mt), lib_call(torch)
    assert_same(got, want)
    assert repr(got) == repr(want)


@given(st.floats(-100, 100), st.floats(-100, 100), st.integers(0, 50))
@SETTINGS
def test_linspace_values_are_torchs(start: float, end: float, steps: int) -> None:
    assert_same(mt.linspace(start, end, steps, dtype=mt.float64),
                torch.linspace(start, end, steps, dtype=torch.float64))
    assert_same(mt.linspace(start, end, steps), torch.linspace(start, end, steps))


@pytest.mark.parametrize("call", [
    lambda L: L.randn(size=(2, 3)), lambda L: L.rand(size=(4,)),
    lambda L: L.empty_like(L.ones(2, dtype=L.int64)), lambda L: L.Tensor(2, 3),
    lambda L: L.DoubleTensor(2), lambda L: L.empty(size=(1, 2)), lambda L: L.Tensor(L.Size([2])),
    lambda L: L.normal(0.0, 1.0, size=(2, 3)), lambda L: L.normal(2, 3, size=(1, 4)),
    lambda L: L.normal(L.zeros(2, 1), L.ones(3)), lambda L: L.normal(0.5, L.ones(5)),
    lambda L: L.normal(L.zeros(2, dtype=L.float64), 1.0),
    lambda L: L.rand_like(L.ones(2, dtype=L.float64)), lambda L: L.randn_like(L.ones(3)),
    lambda L: L.randint(0, 10, (3,)), lambda L: L.randint(5, (2, 2)),
    lambda L: L.randint_like(L.ones(2), 10), lambda L: L.randperm(5),
    lambda L: L.bernoulli(L.full((3,), 0.5)),
    lambda L: L.ones(2).uniform_(-1, 1), lambda L: L.ones(2).normal_(),
    lambda L: L.ones(2).random_(0, 3), lambda L: L.ones(3).bernoulli_(0.5),
    lambda L: L.ones(2, dtype=L.int64).random_(0, 4), lambda L: L.ones(2).exponential_(),
])
def test_samplers_have_torchs_shape_and_dtype(call) -> None:
    got, want = call(mt), call(torch)
    assert (got.shape, str(got.dtype)) == (tuple(want.shape), str(want.dtype))


def test_samplers_draw_from_the_right_range() -> None:
    mt.manual_seed(0)
    u = mt.empty(10000).uniform_(-2, 3)
    assert float(u.min()) >= -2 and float(u.max()) < 3
    n = mt.normal(1.0, 2.0, size=(20000,))
    assert abs(float(n.mean()) - 1) < 0.1 and abs(float(n.std()) - 2) < 0.1
    r = mt.randint(3, 7, (5000,))
    assert sorted(set(r.tolist())) == [3, 4, 5, 6]
    b = mt.empty(20000).bernoulli_(0.25)
    assert abs(float(b.mean()) - 0.25) < 0.02
    assert sorted(mt.randperm(6).tolist()) == list(range(6))


def test_manual_seed_returns_a_generator_and_repeats_the_draws() -> None:
    g = mt.manual_seed(3)
    assert repr(torch.manual_seed(3)).split(" object")[0] == repr(g).split(" object")[0]
    a = mt.randn(3)
    assert g.manual_seed(3) is g and g.initial_seed() == 3 == mt.initial_seed()
    assert mt.equal(a, mt.randn(3))


@pytest.mark.parametrize("call", [
    lambda L: L.normal(0.0, 1.0),
    lambda L: L.normal(L.zeros(2), -1.0),
    lambda L: L.ones(2, dtype=L.int64).uniform_(),
    lambda L: L.ones(2, dtype=L.int64).normal_(),
    lambda L: L.ones(3, requires_grad=True).uniform_(),
    lambda L: L.linspace(0, 1, -1),
    lambda L: L.set_default_dtype(L.int64),
    lambda L: L.ones(2).type("HalfishTensor"),
    lambda L: L.zeros(3).index_add_(0, L.tensor([0]), L.ones(2)),
])
def test_errors_like_torch(call) -> None:
    want = raised_by(call, torch)
    got = raised_by(call, mt)
    assert want is not None
    if isinstance(want, TypeError) and "invalid combination" in str(want):
        assert type(got) is TypeError and "invalid combination" in str(got)
        return
    assert_same_error(got, want)


def test_normal_with_tensor_arguments_is_a_node_with_zero_gradients() -> None:
    for L in (mt, torch):
        m = L.zeros(2, requires_grad=True)
        s = L.ones(2, requires_grad=True)
        y = L.normal(m, s)
        assert y.grad_fn.name() == "NormalBackward3"
        y.sum().backward()
        assert m.grad.tolist() == [0.0, 0.0] == s.grad.tolist()
        assert L.normal(0.0, s).grad_fn.name() == "NormalBackward2"
        assert L.normal(m, 1.0).grad_fn.name() == "NormalBackward1"


@pytest.mark.parametrize("method,args", [("uniform_", ()), ("normal_", ()), ("random_", ()),
                                         ("random_", (4,)), ("random_", (1, 4)),
                                         ("bernoulli_", ()), ("exponential_", ())])
def test_inplace_samplers_record_torchs_node(method: str, args: tuple) -> None:
    names = []
    for L in (mt, torch):
        x = L.ones(3, requires_grad=True)
        y = x * 2
        getattr(y, method)(*args)
        (y * x).sum().backward()
        names.append((y.grad_fn.name(), y._version, x.grad.tolist()))
    assert names[0][:2] == names[1][:2]


def test_default_dtype_changes_new_floats_and_printing() -> None:
    try:
        for L in (mt, torch):
            L.set_default_dtype(L.float64)
        calls = [lambda L: L.tensor([1.5]), lambda L: L.Tensor([1]), lambda L: L.ones(2),
                 lambda L: L.tensor([1, 2]) / 2, lambda L: L.linspace(0, 1, 2),
                 lambda L: L.ones(1, dtype=L.float32) * 2.5, lambda L: L.FloatTensor([1]),
                 lambda L: L.arange(0, 1, 0.5)]
        for call in calls:
            got, want = call(mt), call(torch)
            assert repr(got) == repr(want)
        assert mt.get_default_dtype() is mt.float64
    finally:
        mt.set_default_dtype(mt.float32)
        torch.set_default_dtype(torch.float32)


def test_default_device_cpu() -> None:
    mt.set_default_device("cpu")
    try:
        assert mt.ones(1).device == mt.device("cpu") == mt.get_default_device()
    finally:
        mt.set_default_device(None)


@pytest.mark.parametrize("call", [
    lambda L: L.tensor([1.0, 2.0]).type(),
    lambda L: L.tensor([1, 2]).type(),
    lambda L: L.tensor([True]).type(),
    lambda L: L.tensor([1, 2]).type(L.FloatTensor),
    lambda L: L.tensor([1, 2]).type("torch.DoubleTensor"),
    lambda L: L.zeros(2).type(L.int64),
    lambda L: isinstance(L.ones(1), L.FloatTensor),
    lambda L: isinstance(L.ones(1), L.LongTensor),
])
def test_type_like_torch(call) -> None:
    assert repr(call(torch)) == repr(call(mt))


norm_args = st.sampled_from([
    {}, {"p": 1}, {"p": 2}, {"p": 3}, {"p": 0.5}, {"p": math.inf}, {"p": -math.inf},
    {"p": 0}, {"p": 1.5}, {"p": 0.3, "dim": 1}, {"dim": 0}, {"dim": 1, "keepdim": True},
    {"p": 1, "dim": -1},
    {"p": "fro"}, {"p": math.inf, "dim": 0}, {"dim": (0, 1)},
])


@given(st.lists(st.sampled_from([0.0, 1.0, -2.0]) | st.floats(-5, 5), min_size=6, max_size=6),
       norm_args)
@SETTINGS
def test_norm_values_and_gradients_are_torchs(values: list, kwargs: dict) -> None:
    data = np.array(values).reshape(2, 3)
    (a,), (b,) = twins([data])
    got, want = a.norm(**kwargs), b.norm(**kwargs)
    assert_same(got, want)
    assert got.grad_fn.name() == want.grad_fn.name()
    weight = np.arange(1.0, 1.0 + want.numel()).reshape(tuple(want.shape))
    (got * mt.tensor(weight)).sum().backward()
    (want * torch.tensor(weight)).sum().backward()
    if b.grad is None:  # p=0
        assert a.grad is None
        return
    assert_same(a.grad, b.grad, "grad")


def test_norm_double_backward_matches_torch() -> None:
    (a,), (b,) = twins([np.array([1.0, -2.0, 3.0])])
    for x, L in ((a, mt), (b, torch)):
        (g,) = L.autograd.grad(L.norm(x, p=3), x, create_graph=True)
        g.sum().backward()
    assert_same(a.grad, b.grad)


@pytest.mark.parametrize("name", ["exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid",
                                  "relu", "abs", "neg", "reciprocal"])
def test_inplace_unary_like_torch(name: str) -> None:
    (a,), (b,) = twins([np.array([0.5, 1.5, 2.0])])
    results = []
    for x in (a, b):
        y = x * 1
        out = getattr(y, f"{name}_")()
        assert out is y and y._version == 1
        (y * y).sum().backward()
        results.append((y, y.grad_fn.name()))
    assert_same(results[0][0], results[1][0])
    assert results[0][1] == results[1][1]
    assert_same(a.grad, b.grad, "grad")


def test_inplace_unary_on_a_saved_tensor_is_caught_like_torch() -> None:
    errors = []
    for L in (mt, torch):
        x = L.tensor([1.0, 2.0], requires_grad=True)
        y = x * 1
        z = y.sin()
        y.sin_()
        errors.append(raised_by(lambda _, z=z: z.sum().backward(), L))
    assert_same_error(errors[0], errors[1])


def test_index_add_gradients_like_torch() -> None:
    (a, s), (b, t) = twins([np.zeros((3, 2)), np.arange(6.0).reshape(3, 2)])
    for x, src, L in ((a, s, mt), (b, t, torch)):
        y = x * 1
        y.index_add_(0, L.tensor([0, 2, 0]), src, alpha=2)
        assert y.grad_fn.name() == "IndexAddBackward0"
        (y * L.arange(6.0).reshape(3, 2)).sum().backward()
    assert_same(a.grad, b.grad)
    assert_same(s.grad, t.grad)


@pytest.mark.parametrize("call", [
    lambda L: L.tensor([1.0, 2.0]).masked_fill(L.tensor([True, False]), L.tensor(5.0)),
    lambda L: L.tensor([[1, 2], [3, 4]]).masked_fill(L.tensor([False, True]), 7),
    lambda L: L.zeros(2).masked_fill_(L.tensor([False, True]), 1.0),
    lambda L: L.tensor([1, 0]).all(), lambda L: L.tensor([[True, False]]).any(dim=1),
    lambda L: L.tensor([[1.0, 0.0], [2.0, 3.0]]).all(1, keepdim=True),
])
def test_masked_fill_all_any_like_torch(call) -> None:
    assert repr(call(mt)) == repr(call(torch))


def test_masked_fill_gradient_and_mask_error_like_torch() -> None:
    (a,), (b,) = twins([np.array([1.0, 2.0, 3.0])])
    for x in (a, b):
        y = x.masked_fill(x > 1.5, 0.0)
        (y * y).sum().backward()
    assert a.grad.tolist() == b.grad.tolist()
    assert y.grad_fn.name() == "MaskedFillBackward0"
    call = lambda L: L.ones(2).masked_fill(L.tensor([1, 0]), 0.0)  # noqa: E731
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


@pytest.mark.parametrize("clip", ["norm", "norm_inf", "value"])
def test_clip_grad_like_torch(clip: str) -> None:
    results = []
    for L in (mt, torch):
        ps = [L.nn.Parameter(L.tensor([3.0, 4.0])), L.nn.Parameter(L.tensor([[1.0, -12.0]]))]
        for p in ps:
            p.grad = p.detach() * 2
        if clip == "value":
            out = L.nn.utils.clip_grad_value_(ps, 5.0)
        else:
            out = L.nn.utils.clip_grad_norm_(ps, 1.0, float("inf") if clip == "norm_inf" else 2)
        results.append((repr(out), [repr(p.grad) for p in ps]))
    assert results[0][0] == results[1][0]
    for g1, g2 in zip(results[0][1], results[1][1]):
        assert g1 == g2
