"""Gaps that made tutorial programs fail (issue #20 follow-up), each against live torch.

Every test runs the same code on minitorch and on torch (the library is ``L``) and requires
the same values, dtypes, graph node names and errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
import torch.profiler
import torch.utils.data

import minitorch as mt
from tests.oracle import assert_same, assert_same_error, raised_by, twins

LIBS = pytest.mark.parametrize("L", [mt, torch], ids=["minitorch", "torch"])


def both(fn: Any) -> None:
    """``fn(L)`` gives the same tensor (or the same error) in both libraries."""
    want_error = raised_by(fn, torch)
    if want_error is not None:
        assert_same_error(raised_by(fn, mt), want_error)
        return
    assert_same(fn(mt), fn(torch))


# ---------------------------------------------------------------------------- range index

X = np.arange(12.0).reshape(3, 4)


@pytest.mark.parametrize("key", [
    (range(3), [0, 2, 3]), range(2), (slice(None), range(1, 4, 2)), range(0),
    (range(3), range(3)), range(5), (range(2), range(-5, -3)),
], ids=str)
def test_range_index_forward_and_backward(key: Any) -> None:
    """d2l's ``y_hat[range(len(y_hat)), y]``: a range indexes as its list of ints."""
    (a,), (b,) = twins([X])
    error = raised_by(lambda L: b[key], torch)
    if error is not None:
        assert_same_error(raised_by(lambda L: a[key], mt), error)
        return
    got, want = a[key], b[key]
    assert_same(got, want)
    assert type(got.grad_fn).__name__ == type(want.grad_fn).__name__
    got.sum().backward()
    want.sum().backward()
    assert_same(a.grad, b.grad)


def test_range_index_assignment() -> None:
    def fn(L: Any) -> Any:
        x = L.zeros(4)
        x[range(1, 3)] = 1.0
        return x

    both(fn)


# ---------------------------------------------------------------------------- axis= alias

REDUCTIONS = ["sum", "mean", "max", "min", "argmax", "argmin"]


def _values(result: Any) -> Any:
    return result.values if hasattr(result, "values") and not callable(result.values) else result


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("method", [False, True], ids=["function", "method"])
def test_axis_is_dims_alias(name: str, method: bool) -> None:
    def fn(L: Any, **kwargs: Any) -> Any:
        x = L.tensor(X)
        return _values(getattr(x, name)(**kwargs) if method
                       else getattr(L, name)(x, **kwargs))

    both(lambda L: fn(L, axis=1))
    both(lambda L: fn(L, axis=0, keepdim=True))
    both(lambda L: fn(L, axis=-1))
    both(lambda L: fn(L, axis=2))


@pytest.mark.parametrize("name", ["sum", "argmax", "argmin"])
def test_axis_and_dim_together_is_refused(name: str) -> None:
    both(lambda L: getattr(L, name)(L.tensor(X), dim=1, axis=1))
    both(lambda L: getattr(L.tensor(X), name)(1, axis=1))


@pytest.mark.parametrize("name", ["mean", "max", "min"])
def test_axis_and_dim_together_is_a_type_error(name: str) -> None:
    with pytest.raises(TypeError):
        getattr(torch, name)(torch.tensor(X), dim=1, axis=1)
    with pytest.raises(TypeError):
        getattr(mt, name)(mt.tensor(X), dim=1, axis=1)


@pytest.mark.parametrize("data", [[3, 1, 1], [[2.0, 0.5], [-1.0, 4.0]], [True], [], 7.0],
                         ids=str)
def test_argmin(data: Any) -> None:
    both(lambda L: L.argmin(L.tensor(data)))
    both(lambda L: L.tensor(data).argmin(0))


# ---------------------------------------------------------------------------- __format__


def _formatted(value: Any, spec: str) -> Any:
    return lambda L: format(L.tensor(value, requires_grad=isinstance(value, float)), spec)


@pytest.mark.parametrize(("value", "spec"), [
    (3.14159, ".3f"), (3.14159, ""), (3.14159, ">10.2e"), (3, "d"), (3, "05d"), (True, ""),
    (2.5, "d"), ([2.5], ".2f"), ([1.0, 2.0], ".2f"), ([], ".1f"), ([[1.5]], ">8.1f"),
], ids=str)
def test_format_spec(value: Any, spec: str) -> None:
    """Tutorials print ``f"loss {loss:.4f}"``: a 0-d tensor formats as ``item()``."""
    fn = _formatted(value, spec)
    want_error = raised_by(fn, torch)
    if want_error is not None:
        assert_same_error(raised_by(fn, mt), want_error)
    else:
        assert fn(mt) == fn(torch)


def test_format_without_spec_of_a_vector_is_its_str() -> None:
    assert f"{mt.tensor([1.0, 2.0])}" == f"{torch.tensor([1.0, 2.0])}"


# ---------------------------------------------------------------------------- round

ROUNDED = np.array([0.5, 1.5, 2.5, -0.5, 1.2345, -2.675, 1234.5, 0.125])


@pytest.mark.parametrize("kwargs", [{}, {"decimals": 0}, {"decimals": 2}, {"decimals": -2}],
                         ids=str)
@pytest.mark.parametrize("method", [False, True], ids=["function", "method"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_round_values_node_and_zero_gradient(kwargs: dict, method: bool, dtype: str) -> None:
    (a,), (b,) = twins([ROUNDED.astype(dtype)])
    got = a.round(**kwargs) if method else mt.round(a, **kwargs)
    want = b.round(**kwargs) if method else torch.round(b, **kwargs)
    assert_same(got, want)
    assert type(got.grad_fn).__name__ == type(want.grad_fn).__name__
    (got * 3).sum().backward()
    (want * 3).sum().backward()
    assert_same(a.grad, b.grad)


@pytest.mark.parametrize("fn", [
    lambda L: L.round(L.tensor([1, 2])),
    lambda L: L.round(L.tensor([1, 2]), decimals=1),
    lambda L: L.round(L.tensor([True])),
    lambda L: L.round(L.tensor([0.5]), 1),
    lambda L: L.round(L.tensor([0.5]), decimals=1.5),
    lambda L: L.round(L.tensor([0.5]), decimals=None),
    lambda L: L.tensor([0.5]).round(1),
    lambda L: L.tensor(2.5).round(),
])
def test_round_dtypes_and_errors(fn: Any) -> None:
    both(fn)


# ---------------------------------------------------------------------------- module backward hooks

W = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]])
B = np.array([0.1, -0.2])


def _linear(L: Any) -> Any:
    lin = L.nn.Linear(3, 2).double()
    with L.no_grad():
        lin.weight.copy_(L.tensor(W))
        lin.bias.copy_(L.tensor(B))
    return lin


def _hooked_run(L: Any, make: Any, x_requires_grad: bool, replace: bool = False) -> tuple:
    """Run a hooked module's backward; the log of the hooks' calls and the input's grad."""
    module = make(L)
    log: list = []

    def pre_hook(m: Any, grad_output: tuple) -> Any:
        log.append(("pre", type(m).__name__, grad_output))
        return (grad_output[0] * 2,) if replace else None

    def hook(m: Any, grad_input: tuple, grad_output: tuple) -> Any:
        log.append(("hook", type(m).__name__, grad_input, grad_output))
        return tuple(None if g is None else g + 1 for g in grad_input) if replace else None

    module.register_full_backward_pre_hook(pre_hook)
    module.register_full_backward_hook(hook)
    x = L.tensor(np.arange(6.0).reshape(2, 3) - 2, requires_grad=x_requires_grad)
    y = module(x)
    (y * L.tensor([1.0, 3.0], dtype=L.float64)).sum().backward()
    return log, x.grad, type(y.grad_fn).__name__


def _assert_same_log(got: list, want: list) -> None:
    assert len(got) == len(want), (got, want)
    for g, w in zip(got, want):
        assert g[:2] == w[:2]
        for g_grads, w_grads in zip(g[2:], w[2:]):
            assert len(g_grads) == len(w_grads)
            for a, b in zip(g_grads, w_grads):
                assert (a is None) == (b is None)
                if b is not None:
                    assert_same(a, b)


@pytest.mark.filterwarnings("ignore:Full backward hook")
@pytest.mark.parametrize("make", [
    _linear, lambda L: L.nn.Sequential(_linear(L), L.nn.ReLU(), L.nn.Linear(2, 2).double()),
], ids=["Linear", "Sequential"])
@pytest.mark.parametrize("x_requires_grad", [True, False])
@pytest.mark.parametrize("replace", [False, True])
def test_full_backward_hooks(make: Any, x_requires_grad: bool, replace: bool) -> None:
    mt.manual_seed(0)
    torch.manual_seed(0)
    if make is not _linear:  # the same weights in both libraries
        def make_same(L: Any, make: Any = make) -> Any:
            seq = make(L)
            with L.no_grad():
                seq[2].weight.copy_(L.tensor([[1.0, -2.0], [0.5, 0.5]], dtype=L.float64))
                seq[2].bias.copy_(L.tensor([0.0, 1.0], dtype=L.float64))
            return seq
        make = make_same
    got_log, got_grad, got_node = _hooked_run(mt, make, x_requires_grad, replace)
    want_log, want_grad, want_node = _hooked_run(torch, make, x_requires_grad, replace)
    assert got_node == want_node
    _assert_same_log(got_log, want_log)
    assert (got_grad is None) == (want_grad is None)
    if want_grad is not None:
        assert_same(got_grad, want_grad)


def test_backward_hook_handle_removes() -> None:
    lin = _linear(mt)
    calls: list = []
    handle = lin.register_full_backward_hook(lambda *a: calls.append(a))
    handle.remove()
    lin(mt.ones(1, 3, dtype=mt.float64, requires_grad=True)).sum().backward()
    assert calls == []


# ---------------------------------------------------------------------------- out=


def _into(op: str, a: Any, b: Any, out: Any, **kwargs: Any) -> Any:
    def fn(L: Any) -> Any:
        target = out(L)
        result = getattr(L, op)(a(L), b(L), out=target, **kwargs)
        assert result is target
        return result
    return fn


def _ones(*shape: int, requires_grad: bool = False) -> Any:
    return lambda L: L.ones(*shape, requires_grad=requires_grad)


def _empty(*shape: int, dtype: str = "float32", requires_grad: bool = False) -> Any:
    return lambda L: L.empty(*shape, dtype=getattr(L, dtype), requires_grad=requires_grad)


@pytest.mark.parametrize("fn", [
    _into("matmul", _ones(2, 3), _ones(3, 2), _empty(2, 2)),
    _into("matmul", _ones(2, 3), _ones(3), _empty(2)),
    _into("add", _ones(2), lambda L: 1, _empty(2)),
    _into("add", _ones(2), _ones(2), _empty(2), alpha=3),
    _into("mul", lambda L: L.tensor([1, 2]), lambda L: 3, _empty(2)),
    _into("mul", lambda L: L.tensor([1, 2]), lambda L: 3, _empty(2, dtype="int64")),
    _into("mul", _ones(2), lambda L: 2.5, _empty(2, dtype="int64")),
    _into("add", lambda L: L.tensor([1, 2]), lambda L: 1, _empty(2, dtype="bool")),
    _into("add", _ones(2, requires_grad=True), lambda L: 1, _empty(2)),
    _into("mul", _ones(2), lambda L: 1, _empty(2, requires_grad=True)),
    _into("matmul", _ones(2, 2), _ones(2, requires_grad=True), _empty(2)),
    _into("add", _ones(2), _ones(2), _empty(0)),
], ids=range(12))
def test_out_keyword(fn: Any) -> None:
    both(fn)


def test_out_under_no_grad_keeps_out_requires_grad() -> None:
    def fn(L: Any) -> Any:
        with L.no_grad():
            return L.add(L.ones(2, requires_grad=True), 1, out=L.empty(2, requires_grad=True))
    both(fn)


def test_out_of_another_shape_is_resized_with_torch_warning() -> None:
    with pytest.warns(UserWarning, match="was resized since it had shape \\[3\\]"):
        got = mt.add(mt.ones(2), 1, out=mt.empty(3))
    assert_same(got, torch.full((2,), 2.0))


# ---------------------------------------------------------------------------- utils.data


def _dataset(L: Any) -> Any:
    return L.utils.data.TensorDataset(L.arange(10.0).reshape(5, 2), L.arange(5))


def _flat(batches: Any) -> list:
    """The tensors of a loader's batches, in order."""
    out = []
    for batch in batches:
        out.extend(batch if isinstance(batch, (list, tuple)) else [batch])
    return out


@pytest.mark.parametrize("kwargs", [{"batch_size": 2}, {"batch_size": 2, "drop_last": True},
                                    {}, {"batch_size": 5}, {"batch_size": None}], ids=str)
def test_dataloader_batches_in_order(kwargs: dict) -> None:
    got = mt.utils.data.DataLoader(_dataset(mt), **kwargs)
    want = torch.utils.data.DataLoader(_dataset(torch), **kwargs)
    assert len(got) == len(want)
    got_tensors, want_tensors = _flat(got), _flat(want)
    assert len(got_tensors) == len(want_tensors)
    for g, w in zip(got_tensors, want_tensors):
        assert_same(g, w)


@pytest.mark.parametrize("samples", [[1, 2, 3], [(1.0, 2), (3.0, 4)], [{"a": 1.5}, {"a": 2.0}],
                                     [True, False]], ids=str)
def test_default_collate(samples: list) -> None:
    got = _flat(mt.utils.data.DataLoader(samples, batch_size=2))
    want = _flat(torch.utils.data.DataLoader(samples, batch_size=2))
    for g, w in zip(got, want):
        if isinstance(w, dict):
            assert_same(g["a"], w["a"])
        else:
            assert_same(g, w)


def test_dataloader_shuffle_is_a_seeded_permutation() -> None:
    """The order follows minitorch.manual_seed (not torch's order for the seed)."""
    loader = mt.utils.data.DataLoader(_dataset(mt), batch_size=2, shuffle=True)
    mt.manual_seed(3)
    first = [y.tolist() for _, y in loader]
    mt.manual_seed(3)
    assert [y.tolist() for _, y in loader] == first
    assert sorted(i for batch in first for i in batch) == list(range(5))


@pytest.mark.parametrize("fn", [
    lambda L: L.utils.data.TensorDataset(L.ones(3), L.ones(4)),
    lambda L: L.utils.data.DataLoader([1], batch_size=0),
    lambda L: L.utils.data.random_split(range(10), [7, 4]),
])
def test_data_errors(fn: Any) -> None:
    assert_same_error(raised_by(fn, mt), raised_by(fn, torch))


@pytest.mark.parametrize("lengths", [[7, 3], [0.5, 0.3, 0.2], [0.33, 0.33, 0.34], [10]],
                         ids=str)
def test_random_split_lengths_and_disjoint(lengths: list) -> None:
    got = mt.utils.data.random_split(range(10), lengths)
    want = torch.utils.data.random_split(range(10), lengths)
    assert [len(s) for s in got] == [len(s) for s in want]
    assert sorted(i for s in got for i in s) == list(range(10))


def test_from_utils_import_data() -> None:
    from minitorch.utils import data

    assert data.DataLoader is mt.utils.data.DataLoader


# ---------------------------------------------------------------------------- profiler


def test_profiler_activities_are_torchs() -> None:
    assert {k: v.value for k, v in mt.profiler.ProfilerActivity.__members__.items()} == {
        k: int(v) for k, v in torch.profiler.ProfilerActivity.__members__.items()}


@pytest.mark.parametrize("L", [mt, torch], ids=["minitorch", "torch"])
def test_profiler_records_ops_and_blocks(L: Any) -> None:
    x = L.ones(3, requires_grad=True)
    with L.profiler.profile(activities=[L.profiler.ProfilerActivity.CPU]) as prof:
        with L.profiler.record_function("my_block"):
            (x * 2).sum().backward()
        prof.step()
    keys = {e.key for e in prof.key_averages()}
    assert {"my_block", "aten::mul", "aten::sum"} <= keys


def test_backward_hook_sees_the_input_a_forward_pre_hook_gave() -> None:
    def run(L: Any) -> tuple:
        lin = _linear(L)
        seen: list = []
        lin.register_forward_pre_hook(lambda m, args: (args[0] * 2,))
        lin.register_full_backward_hook(lambda m, gi, go: seen.append(gi[0]))
        x = L.ones(2, 3, dtype=L.float64, requires_grad=True)
        lin(x).sum().backward()
        return seen[0], x.grad

    (got_gi, got_grad), (want_gi, want_grad) = run(mt), run(torch)
    assert_same(got_gi, want_gi)
    assert_same(got_grad, want_grad)
