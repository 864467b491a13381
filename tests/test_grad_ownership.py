"""A leaf's first gradient is kept without a copy only when nothing else can hold it.

The engine makes a leaf's ``.grad`` out of the gradient array a backward computed for it,
instead of copying it, when that array is its own and nobody saw it on the way: no hook,
observer, capture or caller of a node. Every test here holds a gradient the way user code
can, runs a second backward (which adds into ``.grad`` in place), and checks that what it
holds did not change: sharing memory with ``.grad`` would change it silently.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

import minitorch
from minitorch.autograd import engine
from minitorch.autograd.graph import AccumulateGrad
from minitorch.ops._base import Op, wrap

X = [[1.0, 2.0], [3.0, 4.0]]
FIRST = [[4.0, 4.0], [6.0, 6.0]]  # the gradient of sum(X @ w) for w


def weight() -> Any:
    return minitorch.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)


def loss(w: Any) -> Any:
    return (minitorch.tensor(X) @ w).sum()


def test_the_first_gradient_of_a_leaf_is_not_copied(monkeypatch: pytest.MonkeyPatch) -> None:
    copies = []
    original = minitorch.Tensor._detached_copy
    monkeypatch.setattr(minitorch.Tensor, "_detached_copy",
                        lambda t: copies.append(t) or original(t))
    w, b = weight(), minitorch.zeros(2, requires_grad=True)
    minitorch.addmm(b, minitorch.tensor(X), w).sum().backward()
    assert copies == []  # both the weight's and the bias's gradient were the engine's own
    np.testing.assert_array_equal(w.grad.numpy(), FIRST)
    np.testing.assert_array_equal(b.grad.numpy(), [2.0, 2.0])
    assert not w.grad._fresh and not b.grad._fresh


def test_a_gradient_a_leaf_hook_kept_stays_as_it_was() -> None:
    w, kept = weight(), []
    w.register_hook(kept.append)
    loss(w).backward()
    loss(w).backward()
    np.testing.assert_array_equal(kept[0].numpy(), FIRST)
    np.testing.assert_array_equal(w.grad.numpy(), np.multiply(FIRST, 2))


def test_gradients_a_node_hook_kept_stay_as_they_were() -> None:
    w, kept = weight(), []
    out = loss(w)
    out.grad_fn.next_functions[0][0].register_hook(lambda ins, outs: kept.append(ins))
    out.backward()
    loss(w).backward()
    np.testing.assert_array_equal(kept[0][1].numpy(), FIRST)


def test_gradients_an_accumulator_prehook_kept_stay_as_they_were() -> None:
    w, kept = weight(), []
    out = loss(w)
    mm = out.grad_fn.next_functions[0][0]
    acc = next(n for n, _ in mm.next_functions if isinstance(n, AccumulateGrad))
    acc.register_prehook(kept.append)
    out.backward()
    loss(w).backward()
    np.testing.assert_array_equal(kept[0][0].numpy(), FIRST)


def test_gradients_an_observer_saw_stay_as_they_were() -> None:
    w, seen = weight(), []

    def observer(event: str, **info: Any) -> None:
        if event == "done" and info["node"].name() == "MmBackward0":
            seen.append(info["grad_inputs"][1])

    with engine.observe(observer):
        loss(w).backward()
        loss(w).backward()
    np.testing.assert_array_equal(seen[0].numpy(), FIRST)


def test_gradients_a_caller_of_a_node_holds_stay_as_they_were() -> None:
    mm = loss(weight()).grad_fn.next_functions[0][0]
    acc = next(n for n, _ in mm.next_functions if isinstance(n, AccumulateGrad))
    with minitorch.no_grad():
        _, g = mm(minitorch.ones(2, 2))
        acc(g)
        acc(g)
    np.testing.assert_array_equal(g.numpy(), FIRST)
    np.testing.assert_array_equal(acc.variable.grad.numpy(), np.multiply(FIRST, 2))


def test_a_root_gradient_passed_on_unchanged_is_not_taken() -> None:
    # a bias as large as the product gets the output's gradient itself: here, the caller's
    w, bias = weight(), minitorch.zeros(2, 2, requires_grad=True)
    grad = minitorch.ones(2, 2)
    minitorch.addmm(bias, minitorch.tensor(X), w).backward(grad)
    minitorch.addmm(bias, minitorch.tensor(X), w).backward(grad)
    np.testing.assert_array_equal(grad.numpy(), np.ones((2, 2)))
    np.testing.assert_array_equal(bias.grad.numpy(), np.full((2, 2), 2.0))


def test_one_leaf_reached_twice_sums_into_a_gradient_of_its_own() -> None:
    w = weight()
    (loss(w) + loss(w)).backward()
    loss(w).backward()
    np.testing.assert_array_equal(w.grad.numpy(), np.multiply(FIRST, 3))


def test_gradients_summed_for_a_leaf_leave_what_a_hook_kept_alone() -> None:
    # the engine adds the gradients for one leaf into a sum of its own, in place: never
    # into one a node hook saw, even when later gradients are added to it
    x, kept = minitorch.ones(2, requires_grad=True), []
    first = x * 2.0
    first.grad_fn.register_hook(lambda ins, outs: kept.append(ins[0]))
    (first + x * 3.0 + x * 4.0).sum().backward()
    np.testing.assert_array_equal(kept[0].numpy(), [2.0, 2.0])
    np.testing.assert_array_equal(x.grad.numpy(), [9.0, 9.0])
    (x * 1.0).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [10.0, 10.0])
    np.testing.assert_array_equal(kept[0].numpy(), [2.0, 2.0])


def test_gradients_for_one_leaf_are_summed_without_recording_an_op() -> None:
    x = minitorch.tensor(2.0, requires_grad=True)
    y = x
    for _ in range(5):
        y = y * x + x
    with minitorch.autograd.profiler.profile() as prof:
        y.backward()
    adds = [e for e in prof.function_events if e.name == "aten::add"]
    assert adds == []
    want = torch.tensor(2.0, requires_grad=True)
    z = want
    for _ in range(5):
        z = z * want + want
    z.backward()
    assert x.grad.item() == want.grad.item()


class Flatten(Op):
    """A built-in-like op whose array backward returns a view of the incoming gradient."""

    @staticmethod
    def forward(ctx: Any, a: Any) -> Any:
        return wrap(a._data.reshape(-1))

    @staticmethod
    def backward(ctx: Any, g: Any) -> tuple:
        return (g.reshape(2, 2),)

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> tuple:
        return (g.reshape(2, 2),)


def test_a_view_of_another_gradient_is_not_taken() -> None:
    x = minitorch.ones(2, 2, requires_grad=True)
    grad = minitorch.ones(4)
    Flatten.apply(x).backward(grad)
    Flatten.apply(x).backward(grad)
    np.testing.assert_array_equal(grad.numpy(), np.ones(4))
    np.testing.assert_array_equal(x.grad.numpy(), np.full((2, 2), 2.0))


def test_a_gradient_autograd_grad_returned_stays_as_it_was() -> None:
    w = weight()
    (g,) = minitorch.autograd.grad(loss(w), w)
    acc = loss(w).grad_fn.next_functions[0][0].next_functions[1][0]
    with minitorch.no_grad():
        acc(g)
        acc(g)
    np.testing.assert_array_equal(g.numpy(), FIRST)


class AddSharing(Op):
    """A built-in-like op whose array backward returns one array for both operands."""

    @staticmethod
    def forward(ctx: Any, a: Any, b: Any) -> Any:
        return wrap(a._data + b._data)

    @staticmethod
    def backward(ctx: Any, g: Any) -> tuple:
        return g * 1.0, g * 1.0

    @staticmethod
    def backward_arrays(ctx: Any, g: Any) -> tuple:
        shared = g * 1.0
        return shared, shared


def test_one_array_for_two_leaves_is_taken_by_neither() -> None:
    x, y = minitorch.zeros(2, requires_grad=True), minitorch.zeros(2, requires_grad=True)
    AddSharing.apply(x, y).backward(minitorch.ones(2))
    (x * 3.0).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [4.0, 4.0])
    np.testing.assert_array_equal(y.grad.numpy(), [1.0, 1.0])
