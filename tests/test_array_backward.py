"""Ops that also give their backward on arrays (used when no graph of the backward is wanted)
return exactly what their Tensor backward returns: same values bit for bit, shapes, dtypes,
and None in the same places. Where an op leaves a case to its Tensor backward, it says so
with NotImplemented."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minitorch
from minitorch import backend
from minitorch.ops import linalg, pointwise, reduction, shape

DTYPES = st.sampled_from(["float32", "float64"])
SIZES = st.integers(1, 4)
SETTINGS = settings(max_examples=40, deadline=None)


def tensor(data: st.DataObject, shape: tuple, dtype: str, requires_grad: bool) -> Any:
    seed = data.draw(st.integers(0, 2**32 - 1))
    values = np.random.default_rng(seed).standard_normal(shape).astype(dtype)
    return minitorch.tensor(values, requires_grad=requires_grad)


def both_paths(out: Any, data: st.DataObject) -> tuple[tuple, tuple]:
    """(array path, Tensor path) of the backward of ``out``'s node for a random gradient."""
    node = out.grad_fn
    g = tensor(data, tuple(out.shape), out.dtype.name, False)
    with minitorch.no_grad(), backend.quiet():  # as the engine runs a backward
        arrays = node._forward_cls.backward_arrays(node, g._data)
        assert arrays is not NotImplemented, "the array path declined a case it serves"
        via_arrays = node._apply((g,))
        via_tensors = node._forward_cls.backward(node, g)
    # a leaf may keep an array gradient as its .grad: it must be memory of its own
    saved = [t._data for t in node.saved_tensors if t is not None]
    assert not any(np.shares_memory(t._data, s) for t in via_arrays if t is not None
                   for s in saved)
    return via_arrays, via_tensors if isinstance(via_tensors, tuple) else (via_tensors,)


def assert_same(via_arrays: tuple, via_tensors: tuple) -> None:
    assert len(via_arrays) == len(via_tensors)
    for i, (a, t) in enumerate(zip(via_arrays, via_tensors)):
        assert (a is None) == (t is None), f"gradient {i}: None on one path only"
        if a is not None:
            assert a.dtype is t.dtype, f"gradient {i}: {a.dtype} != {t.dtype}"
            assert tuple(a.shape) == tuple(t.shape), f"gradient {i}: shape"
            np.testing.assert_array_equal(a.numpy(), t.numpy(), err_msg=f"gradient {i}")


def needs(data: st.DataObject, count: int) -> list[bool]:
    """Which of ``count`` inputs require grad (at least one)."""
    flags = data.draw(st.lists(st.booleans(), min_size=count, max_size=count))
    return flags if any(flags) else [True, *flags[1:]]


@SETTINGS
@given(data=st.data(), n=SIZES, k=SIZES, m=SIZES, dtype=DTYPES)
def test_mm(data: st.DataObject, n: int, k: int, m: int, dtype: str) -> None:
    ra, rb = needs(data, 2)
    a, b = tensor(data, (n, k), dtype, ra), tensor(data, (k, m), dtype, rb)
    assert_same(*both_paths(linalg.mm(a, b), data))


@SETTINGS
@given(data=st.data(), n=SIZES, k=SIZES, m=SIZES, dtype=DTYPES,
       bias=st.sampled_from(["m", "1m", "nm", "n1", "scalar"]))
def test_addmm(data: st.DataObject, n: int, k: int, m: int, dtype: str, bias: str) -> None:
    shape = {"m": (m,), "1m": (1, m), "nm": (n, m), "n1": (n, 1), "scalar": ()}[bias]
    rc, ra, rb = needs(data, 3)
    c, a, b = (tensor(data, shape, dtype, rc), tensor(data, (n, k), dtype, ra),
               tensor(data, (k, m), dtype, rb))
    assert_same(*both_paths(minitorch.addmm(c, a, b), data))


BROADCAST = st.sampled_from([((3,), (3,)), ((2, 3), (3,)), ((2, 1), (1, 3)), ((), (2, 3)),
                             ((4, 2, 3), (2, 1)), ((1, 3), (2, 3))])


@SETTINGS
@given(data=st.data(), shapes=BROADCAST, dtype=DTYPES)
def test_mul_of_two_tensors(data: st.DataObject, shapes: tuple, dtype: str) -> None:
    ra, rb = needs(data, 2)
    a, b = tensor(data, shapes[0], dtype, ra), tensor(data, shapes[1], dtype, rb)
    assert_same(*both_paths(a * b, data))


@SETTINGS
@given(data=st.data(), shapes=BROADCAST, dtype=DTYPES, op=st.sampled_from(["add", "sub"]))
def test_add_and_sub_of_two_tensors(data: st.DataObject, shapes: tuple, dtype: str,
                                    op: str) -> None:
    ra, rb = needs(data, 2)
    a, b = tensor(data, shapes[0], dtype, ra), tensor(data, shapes[1], dtype, rb)
    assert_same(*both_paths(a + b if op == "add" else a - b, data))


@SETTINGS
@given(data=st.data(), shape=st.sampled_from([(), (3,), (2, 3)]), dtype=DTYPES,
       number=st.one_of(st.floats(-3, 3), st.integers(-3, 3)), op=st.sampled_from(["+", "-"]))
def test_add_and_sub_of_a_number(data: st.DataObject, shape: tuple, dtype: str, number: Any,
                                 op: str) -> None:
    a = tensor(data, shape, dtype, True)
    assert_same(*both_paths(a + number if op == "+" else a - number, data))


@SETTINGS
@given(data=st.data(), shapes=BROADCAST, dtype=DTYPES)
def test_div_of_two_tensors(data: st.DataObject, shapes: tuple, dtype: str) -> None:
    ra, rb = needs(data, 2)
    a, b = tensor(data, shapes[0], dtype, ra), tensor(data, shapes[1], dtype, rb)
    assert_same(*both_paths(a / b, data))


@SETTINGS
@given(data=st.data(), shape=st.sampled_from([(), (3,), (2, 3)]), dtype=DTYPES,
       number=st.one_of(st.floats(-3, 3), st.integers(-3, 3)))
def test_div_by_a_number(data: st.DataObject, shape: tuple, dtype: str, number: Any) -> None:
    assert_same(*both_paths(tensor(data, shape, dtype, True) / number, data))


@SETTINGS
@given(data=st.data(), shape=st.sampled_from([(), (3,), (2, 3)]), dtype=DTYPES,
       number=st.one_of(st.floats(-3, 3), st.integers(-3, 3)))
def test_mul_by_a_number(data: st.DataObject, shape: tuple, dtype: str, number: Any) -> None:
    assert_same(*both_paths(tensor(data, shape, dtype, True) * number, data))


REDUCED = st.sampled_from([((), None), ((3,), None), ((2, 3), None), ((2, 1, 3), None),
                           ((3,), 0), ((2, 3), 1), ((2, 3), (0, 1)), ((2, 1, 3), (0, 2)),
                           ((4, 2, 3), -2)])


@pytest.mark.parametrize("reduce", ["sum", "mean"])
@SETTINGS
@given(data=st.data(), case=REDUCED, dtype=DTYPES, keepdim=st.booleans())
def test_sum_and_mean(reduce: str, data: st.DataObject, case: tuple, dtype: str,
                      keepdim: bool) -> None:
    shape, dim = case
    x = tensor(data, shape, dtype, True)
    if dim is None:  # over everything: keepdim only through the op itself
        op = reduction.Sum if reduce == "sum" else reduction.Mean
        out = op.apply(x, dims=None, keepdim=keepdim)
    else:
        out = getattr(x, reduce)(dim, keepdim=keepdim)
    assert_same(*both_paths(out, data))


@SETTINGS
@given(data=st.data(), shape=st.sampled_from([(), (3,), (2, 3)]), dtype=DTYPES,
       exponent=st.sampled_from([2, 3, -1, 0.5, 2.5, 1]))
def test_pow_by_a_number(data: st.DataObject, shape: tuple, dtype: str, exponent: Any) -> None:
    x = tensor(data, shape, dtype, True)
    assert_same(*both_paths(x.abs() ** exponent, data))


@SETTINGS
@given(data=st.data(), shape=st.sampled_from([(), (3,), (2, 3)]), dtype=DTYPES)
def test_relu(data: st.DataObject, shape: tuple, dtype: str) -> None:
    assert_same(*both_paths(tensor(data, shape, dtype, True).relu(), data))


UNARY = {"exp": lambda x: x.exp(), "log": lambda x: x.abs().log(), "sqrt": lambda x: x.abs().sqrt(),
         "tanh": lambda x: x.tanh(), "sigmoid": lambda x: x.sigmoid(),
         "reciprocal": lambda x: x.reciprocal()}


@pytest.mark.parametrize("name", UNARY)
@SETTINGS
@given(data=st.data(), shape=st.sampled_from([(), (3,), (2, 3)]), dtype=DTYPES)
def test_unary(name: str, data: st.DataObject, shape: tuple, dtype: str) -> None:
    assert_same(*both_paths(UNARY[name](tensor(data, shape, dtype, True)), data))


VIEWS = {"reshape": lambda x: x.reshape(-1), "view": lambda x: x.view(3, 1, 2),
         "permute": lambda x: x.permute(2, 0, 1), "transpose": lambda x: x.transpose(0, 2),
         "t": lambda x: x[0].t(), "unsqueeze": lambda x: x.unsqueeze(1),
         "squeeze(dim)": lambda x: x.squeeze(1), "squeeze()": lambda x: x.squeeze(),
         "vector @ matrix": lambda x: x[0, 0] @ x[0].t()}


@pytest.mark.parametrize("name", VIEWS)
@SETTINGS
@given(data=st.data(), dtype=DTYPES)
def test_views(name: str, data: st.DataObject, dtype: str) -> None:
    x = tensor(data, (2, 1, 3), dtype, True)
    assert_same(*both_paths(VIEWS[name](x), data))


DECLINED: dict[str, Callable[[], Any]] = {
    "mm with a gradient of another dtype": lambda: (
        minitorch.ones(2, 2, requires_grad=True).mm(minitorch.ones(2, 2)),
        minitorch.ones(2, 2, dtype=minitorch.float64)),
    "addmm with alpha": lambda: (
        minitorch.addmm(minitorch.zeros(2), minitorch.ones(2, 2, requires_grad=True),
                        minitorch.ones(2, 2), alpha=2.0), minitorch.ones(2, 2)),
    "mul of float32 by float64": lambda: (
        minitorch.ones(2, requires_grad=True) * minitorch.ones((), dtype=minitorch.float64),
        minitorch.ones(2)),
    "mul by a bool": lambda: (minitorch.ones(2, requires_grad=True) * True, minitorch.ones(2)),
    "div of int64 by float32": lambda: (
        minitorch.tensor([1, 2]) / minitorch.ones(2, requires_grad=True), minitorch.ones(2)),
    "pow 0": lambda: (minitorch.ones(2, requires_grad=True) ** 0, minitorch.ones(2)),
    "exp of float32, float64 gradient": lambda: (
        minitorch.ones(2, requires_grad=True).exp(), minitorch.ones(2, dtype=minitorch.float64)),
}


def outcome(run: Callable[[], Any]) -> Any:
    """What ``run()`` returns as a tuple, or the message of the RuntimeError it raises."""
    try:
        result = run()
    except RuntimeError as error:
        return str(error)
    return result if isinstance(result, tuple) else (result,)


@pytest.mark.parametrize("name", DECLINED)
def test_cases_left_to_the_tensor_backward_still_match(name: str) -> None:
    out, g = DECLINED[name]()
    node = out.grad_fn
    with minitorch.no_grad(), backend.quiet():
        assert node._forward_cls.backward_arrays(node, g._data) is NotImplemented
        via_node = outcome(lambda: node._apply((g,)))
        via_tensors = outcome(lambda: node._forward_cls.backward(node, g))
    if isinstance(via_tensors, str):  # torch's error, on both paths
        assert via_node == via_tensors
    else:
        assert_same(via_node, via_tensors)


def test_the_engine_takes_the_array_path_only_without_create_graph() -> None:
    x = minitorch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    g, = minitorch.autograd.grad(y, x, create_graph=True)
    assert g.grad_fn is not None  # the Tensor path recorded the backward
    (x * x).sum().backward()
    assert x.grad.grad_fn is None and x.grad.tolist() == [2.0, 4.0]


def test_every_op_with_an_array_backward_is_tested_here() -> None:
    ops = {cls for module in (linalg, pointwise, reduction, shape)
           for cls in vars(module).values()
           if isinstance(cls, type) and issubclass(cls, minitorch.autograd.Function)
           and "backward_arrays" in vars(cls)}
    assert ops == {linalg.Mm, linalg.Addmm, pointwise.Add, pointwise.Sub, pointwise.Mul,
                   pointwise.Div, pointwise.PowScalarExponent,
                   pointwise.Relu, reduction.Mean, reduction.Sum, pointwise.Exp, pointwise.Log,
                   pointwise.Sqrt, pointwise.Tanh, pointwise.Sigmoid, pointwise.Reciprocal,
                   shape.View, shape.Permute, shape.Unsqueeze, shape.Squeeze}


STEPS = {  # one op each, on a square matrix, through the array backwards
    "exp": lambda y: (y * 0.1).exp(),
    "log": lambda y: (y.abs() + 0.5).log(),
    "sqrt": lambda y: (y.abs() + 0.1).sqrt(),
    "tanh": lambda y: y.tanh(),
    "sigmoid": lambda y: y.sigmoid(),
    "reciprocal": lambda y: 1 / (y.abs() + 1),
    "relu": lambda y: y.relu(),
    "t": lambda y: y.t(),
    "reshape": lambda y: y.reshape(-1).reshape(y.shape),
    "unsqueeze": lambda y: y.unsqueeze(0).squeeze(0),
    "sum(0)": lambda y: y.sum(0, keepdim=True) * y,
    "mean(1)": lambda y: y.mean(1) - y,
    "pow": lambda y: y ** 2,
    "div": lambda y: y / (y.abs() + 1.5),
    "mul": lambda y: y * 1.7,
}


@settings(max_examples=60, deadline=None)
@given(steps=st.lists(st.sampled_from(sorted(STEPS)), min_size=1, max_size=8),
       seed=st.integers(0, 2**32 - 1))
def test_chains_of_array_backwards_give_torchs_gradients(steps: list[str], seed: int) -> None:
    a, b = np.random.default_rng(seed).standard_normal((2, 3, 3))
    grads = []
    for L in (minitorch, torch):
        x, w = L.tensor(a, requires_grad=True), L.tensor(b, requires_grad=True)
        y = x * w
        for step in steps:
            y = STEPS[step](y)
        (y + x @ w).sum().backward()  # w's gradient arrives by two paths, x's too
        grads.append((x.grad.numpy(), w.grad.numpy()))
    for got, want in zip(*grads):
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def test_the_engine_carries_arrays_and_makes_a_tensor_for_the_leaf_only(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # ops that unpack no saved output (which would make a tensor of its own)
    x = minitorch.tensor([0.5, 1.5], requires_grad=True)
    out = ((x * 2.0) * 3.0).reshape(2, 1).t().sum()
    made = []
    original = minitorch.Tensor._make
    monkeypatch.setattr(minitorch.Tensor, "_make",
                        classmethod(lambda cls, a: made.append(a) or original(a)))
    out.backward()
    assert len(made) == 2  # the root's gradient (ones), and x's .grad
    assert made[-1] is x.grad._data
    t = torch.tensor([0.5, 1.5], requires_grad=True)
    ((t * 2.0) * 3.0).reshape(2, 1).t().sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), t.grad.numpy())


def test_hooks_and_observers_still_see_tensors() -> None:
    x = minitorch.tensor([0.5, 1.5], requires_grad=True)
    mid = (x * 2.0).exp()
    out = (mid * 3.0).sum()
    seen = []
    mid.register_hook(lambda g: seen.append(("tensor hook", type(g))))
    mid.grad_fn.register_prehook(lambda gs: seen.append(("prehook", type(gs[0]))))
    mid.grad_fn.register_hook(lambda ins, outs: seen.append(("hook", type(ins[0]))))

    def observer(event: str, **info: Any) -> None:
        if event == "done" and info["node"] is mid.grad_fn:
            seen.append(("observer", type(info["grad_inputs"][0])))

    with minitorch.autograd.engine.observe(observer):
        out.backward()
    assert seen == [("tensor hook", minitorch.Tensor), ("prehook", minitorch.Tensor),
                    ("hook", minitorch.Tensor), ("observer", minitorch.Tensor)]
