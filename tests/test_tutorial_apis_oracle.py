"""APIs that real tutorial programs failed on (/tmp/adv20 report), each against live torch:
softplus, log1p, expm1, rsqrt, sort/argsort/topk, lerp, addcmul/addcdiv, Tensor.new_*,
``grad_fn._raw_saved_*``, the optimizer repr with several groups, forward-AD tangents that
record a graph, ``gradcheck(check_forward_ad=True)`` and the profiler's pow/mul events.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
import torch.autograd.forward_ad as tfw
from hypothesis import given, settings
from hypothesis import strategies as st

import minitorch as mt
import minitorch.autograd.forward_ad as mfw
from tests.oracle import (
    POSITIVE,
    arrays,
    assert_same,
    assert_same_error,
    distinct_arrays,
    raised_by,
    shapes,
    twins,
)

DTYPES = st.sampled_from(["float32", "float64"])


def _same_call(fn: Any, arrays_: list, dtype: str = "float64") -> None:
    """``fn(L, *tensors)``: the same value, node name and gradients in both libraries."""
    a, b = twins([x.astype(dtype) for x in arrays_])
    got, want = fn(mt, *a), fn(torch, *b)
    assert_same(got, want)
    assert type(got.grad_fn).__name__ == type(want.grad_fn).__name__
    got.sum().backward()
    want.sum().backward()
    for x, y in zip(a, b):
        if y.grad is None:
            assert x.grad is None
        else:
            assert_same(x.grad, y.grad, "grad")


@settings(max_examples=25, deadline=None)
@given(shapes(), DTYPES, st.sampled_from(["log1p", "expm1", "rsqrt"]), st.data())
def test_unary_functions_and_methods(shape: tuple, dtype: str, name: str, data: Any) -> None:
    x = data.draw(arrays(shape, POSITIVE))
    _same_call(lambda L, t: getattr(L, name)(t), [x], dtype)
    _same_call(lambda L, t: getattr(t, name)(), [x], dtype)


@settings(max_examples=25, deadline=None)
@given(shapes(), DTYPES, st.sampled_from([(1.0, 20.0), (2.0, 1.0), (0.5, 3.0)]), st.data())
def test_softplus(shape: tuple, dtype: str, params: tuple, data: Any) -> None:
    x = data.draw(arrays(shape)) * 4
    beta, threshold = params
    _same_call(lambda L, t: L.nn.functional.softplus(t, beta, threshold), [x], dtype)
    _same_call(lambda L, t: L.nn.Softplus(beta=beta, threshold=threshold)(t), [x], dtype)
    assert repr(mt.nn.Softplus(beta, threshold)) == repr(torch.nn.Softplus(beta, threshold))


def test_softplus_float32_values_match_bitwise_mostly() -> None:
    x = np.random.default_rng(0).normal(size=200).astype(np.float32) * 3
    got = mt.nn.functional.softplus(mt.tensor(x)).numpy()
    want = torch.nn.functional.softplus(torch.tensor(x)).numpy()
    np.testing.assert_allclose(got, want, rtol=2e-7, atol=0)


@settings(max_examples=25, deadline=None)
@given(shapes(min_dims=1), st.booleans(), st.data())
def test_sort_argsort(shape: tuple, descending: bool, data: Any) -> None:
    (x,) = data.draw(distinct_arrays([shape]))
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    _same_call(lambda L, t: L.sort(t, dim, descending).values, [x])
    _same_call(lambda L, t: t.sort(dim=dim, descending=descending)[0], [x])
    a, b = twins([x], [False])
    assert_same(mt.sort(a[0], dim, descending).indices, torch.sort(b[0], dim, descending).indices)
    assert_same(mt.argsort(a[0], dim, descending), torch.argsort(b[0], dim, descending))


def test_sort_is_stable_with_nan_and_ties() -> None:
    x = [2.0, float("nan"), 1.0, 2.0, float("inf"), 1.0, float("nan")]
    for descending in (False, True):
        got = mt.sort(mt.tensor(x), descending=descending, stable=True)
        want = torch.sort(torch.tensor(x), descending=descending, stable=True)
        assert got.indices.tolist() == want.indices.tolist()
        assert repr(got) == repr(want)


@settings(max_examples=25, deadline=None)
@given(shapes(min_dims=1), st.booleans(), st.data())
def test_topk(shape: tuple, largest: bool, data: Any) -> None:
    (x,) = data.draw(distinct_arrays([shape]))
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    k = data.draw(st.integers(0, shape[dim]))
    _same_call(lambda L, t: L.topk(t, k, dim, largest).values, [x])
    a, b = twins([x], [False])
    got, want = a[0].topk(k, dim, largest), b[0].topk(k, dim, largest)
    assert_same(got.indices, want.indices)
    assert type(got).__name__ == type(want).__name__ == "topk"


@pytest.mark.parametrize("call", [
    lambda L: L.topk(L.ones(3), 4), lambda L: L.sort(L.ones(3), 1),
    lambda L: L.lerp(L.ones(3), L.ones(3, dtype=L.float64), 0.5),
    lambda L: L.lerp(L.ones(3), L.ones(3), L.ones(3, dtype=L.float64)),
    lambda L: L.lerp(L.ones(3), 1.0, 0.5), lambda L: L.lerp(L.ones(3), L.ones(2), 0.5),
    lambda L: L.addcmul(L.ones(3), L.ones(2), L.ones(3)),
    lambda L: L.addcmul(L.ones(3), L.ones(3), 2.0),
    lambda L: L.addcdiv(L.ones(3), L.ones(3, dtype=L.int64), L.ones(3, dtype=L.int64)),
    lambda L: L.nn.functional.softplus(L.ones(2, dtype=L.int64)),
    lambda L: L.ones(2).new_ones(2.5), lambda L: L.ones(2).new_full(2, 1.0),
], ids=range(12))
def test_errors(call: Any) -> None:
    want = raised_by(call, torch)
    assert want is not None
    assert_same_error(raised_by(call, mt), want)


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_lerp_scalar_and_tensor_weight(data: Any) -> None:
    shape_a, shape_b, shape_w = data.draw(
        st.sampled_from([((3,), (3,), (3,)), ((2, 3), (3,), (1, 3)), ((), (2,), ())]))
    a, b = data.draw(arrays(shape_a)), data.draw(arrays(shape_b))
    w = data.draw(arrays(shape_w, st.floats(-0.5, 1.5)))
    _same_call(lambda L, x, y, z: L.lerp(x, y, z), [a, b, w], "float32")
    scalar = data.draw(st.floats(-0.5, 1.5))
    _same_call(lambda L, x, y: L.lerp(x, y, scalar), [a, b], "float32")


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["addcmul", "addcdiv"]), st.floats(-2, 2), DTYPES, st.data())
def test_addcmul_addcdiv(name: str, value: float, dtype: str, data: Any) -> None:
    shape = data.draw(st.sampled_from([(4,), (2, 3), ()]))
    x, y = data.draw(arrays(shape)), data.draw(arrays(shape))
    z = data.draw(arrays(shape, POSITIVE))
    _same_call(lambda L, a, b, c: getattr(L, name)(a, b, c, value=value), [x, y, z], dtype)
    _same_call(lambda L, a, b, c: getattr(a, name)(b, c, value=value), [x, y, z], dtype)


def test_addcmul_rounds_as_one_fused_multiply_add() -> None:
    rng = np.random.default_rng(1)
    x, y, z = (rng.normal(size=1000).astype(np.float32) for _ in range(3))
    got = mt.addcmul(mt.tensor(x), mt.tensor(y), mt.tensor(z), value=0.3).numpy()
    want = torch.addcmul(torch.tensor(x), torch.tensor(y), torch.tensor(z), value=0.3).numpy()
    np.testing.assert_array_equal(got, want)
    got = mt.lerp(mt.tensor(x), mt.tensor(y), mt.tensor(z)).numpy()
    np.testing.assert_array_equal(got, torch.lerp(*map(torch.tensor, (x, y, z))).numpy())


@pytest.mark.parametrize("name", ["addcmul_", "addcdiv_", "lerp_", "log1p_", "expm1_",
                                  "rsqrt_"])
def test_inplace_forms(name: str) -> None:
    def run(L: Any) -> Any:
        x = L.tensor([0.5, 2.0], requires_grad=True)
        y = x * 1
        args = {"lerp_": (x * 3, 0.25), "log1p_": (), "expm1_": (), "rsqrt_": ()}.get(
            name, (x + 1, x + 2))
        getattr(y, name)(*args)
        y.sum().backward()
        return y, x.grad, type(y.grad_fn).__name__, y._version

    got, want = run(mt), run(torch)
    assert_same(got[0], want[0])
    assert_same(got[1], want[1], "grad")
    assert got[2:] == want[2:]


@pytest.mark.parametrize("call", [
    lambda t: t.new_ones(3), lambda t: t.new_ones((2, 1)), lambda t: t.new_zeros(2, 2),
    lambda t: t.new_full((2,), 3), lambda t: t.new_tensor([1, 2]), lambda t: t.new_empty(0),
    lambda t: t.new_ones(2, dtype=t.new_tensor(1).long().dtype),
    lambda t: t.new_zeros(2, requires_grad=True),
], ids=range(8))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_new_factories(call: Any, dtype: str) -> None:
    got = call(mt.ones(2, dtype=getattr(mt, dtype)))
    want = call(torch.ones(2, dtype=getattr(torch, dtype)))
    assert_same(got, want)


def test_raw_saved_tensor_hooks() -> None:
    def run(L: Any) -> list:
        log: list = []
        x = L.tensor([1.0, 2.0], requires_grad=True)
        y = x.pow(2)
        raw = y.grad_fn._raw_saved_self
        raw.register_hooks(lambda t: (log.append("pack"), t * 1)[1],
                           lambda t: (log.append("unpack"), t)[1])
        y.sum().backward()
        log.append(type(raw).__name__)
        log.append(x.grad.tolist())
        log.append(str(raised_by(lambda _: raw.register_hooks(lambda t: t, lambda t: t), L)))
        log.append(type(raised_by(lambda _: x.exp().grad_fn._raw_saved_result.register_hooks(
            1, 2), L)).__name__)
        return log

    assert run(mt) == run(torch)


def test_optimizer_repr_with_groups() -> None:
    def text(L: Any, cls: str, groups: int) -> str:
        w, b = L.nn.Parameter(L.zeros(2)), L.nn.Parameter(L.zeros(1))
        params = [w] if groups == 1 else [{"params": [w]}, {"params": [b], "lr": 1e-3}]
        return repr(getattr(L.optim, cls)(params, lr=1e-2))

    for cls in ("SGD", "Adam", "AdamW", "RMSprop"):
        for groups in (1, 2):
            assert text(mt, cls, groups) == text(torch, cls, groups)


def test_forward_ad_tangents_record_a_graph() -> None:
    def run(L: Any, fw: Any) -> list:
        L.manual_seed(0)
        p = L.nn.Parameter(L.tensor([[1.0, 2.0], [3.0, 4.0]]))
        x = L.tensor([[1.0, -1.0], [0.5, 2.0]])
        seen = []
        with fw.dual_level():
            d = fw.make_dual(p, L.ones(2, 2))
            for out in (x @ d.t(), d * d, L.nn.functional.linear(x, d), d.sum(), d + 1,
                        d.exp()):
                t = fw.unpack_dual(out).tangent
                seen.append((t.detach().tolist(), t.requires_grad))
            t = fw.unpack_dual((d * d).sum()).tangent
            seen.append(L.autograd.grad(t, p)[0].tolist())
            with L.no_grad():
                seen.append(fw.unpack_dual(d * d).tangent.requires_grad)
        return seen

    assert run(mt, mfw) == run(torch, tfw)


class _Exp:
    """The forward-AD tutorial's Function, built for either library."""

    @staticmethod
    def of(L: Any, wrong: bool = False) -> Any:
        class Fn(L.autograd.Function):
            @staticmethod
            def forward(ctx: Any, foo: Any) -> Any:
                result = L.exp(foo)
                ctx.result = result
                return result

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                return g * ctx.result

            @staticmethod
            def jvp(ctx: Any, g_i: Any) -> Any:
                return g_i * (1 if wrong else ctx.result)

        return Fn


@pytest.mark.parametrize("wrong", [False, True])
def test_gradcheck_forward_ad(wrong: bool) -> None:
    def run(L: Any) -> Any:
        x = L.tensor([[0.5, -1.0], [2.0, 0.25]], dtype=L.float64, requires_grad=True)
        return L.autograd.gradcheck(_Exp.of(L, wrong).apply, (x,), check_forward_ad=True,
                                    check_backward_ad=False, check_undefined_grad=False,
                                    raise_exception=False)

    assert run(mt) == run(torch) == (not wrong)
    x = mt.tensor([0.5, -1.0], dtype=mt.float64, requires_grad=True)
    y = torch.tensor([0.5, -1.0], dtype=torch.float64, requires_grad=True)
    f = _Exp.of(mt, wrong).apply
    g = _Exp.of(torch, wrong).apply
    error = raised_by(lambda L: torch.autograd.gradcheck(g, (y,), check_forward_ad=True), torch)
    got = raised_by(lambda L: mt.autograd.gradcheck(f, (x,), check_forward_ad=True), mt)
    if error is None:
        assert got is None
    else:
        assert_same_error(got, error)


def test_gradcheck_forward_ad_on_built_in_ops() -> None:
    x = mt.tensor([0.5, 1.5, -0.25], dtype=mt.float64, requires_grad=True)
    for fn in (lambda t: t.sort().values * t.log1p(), lambda t: mt.lerp(t, t.exp(), t),
               lambda t: mt.nn.functional.softplus(t, 2.0).topk(2).values):
        for fast in (False, True):
            assert mt.autograd.gradcheck(fn, (x,), check_forward_ad=True, fast_mode=fast)


def test_profiler_records_pow_and_scalar_mul_events() -> None:
    def counts(L: Any) -> list:
        x = L.ones((1, 1), requires_grad=True)
        with L.autograd.profiler.profile() as prof:
            for _ in range(3):
                (x ** 2).backward()
            _ = x ** 1
        return sorted((e.key, e.count) for e in prof.key_averages()
                      if e.key in ("aten::pow", "aten::result_type", "aten::to", "aten::mul"))

    assert counts(mt) == counts(torch)
