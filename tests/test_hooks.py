"""Hooks: Tensor.register_hook, retain_grad, register_post_accumulate_grad_hook and the
node hooks (register_prehook, register_hook) — when they run, in which order, what their
return values do, and their errors. Same programs on minitorch and live torch 2.13.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch
from oracle import assert_same_error, mt, raised_by

LIBS = pytest.mark.parametrize("L", [mt, torch], ids=["minitorch", "torch"])


def every_hook(L: Any) -> list[tuple]:
    """One of each hook on y = x * 3 and its leaf x; the log of what ran, in order."""
    log: list[tuple] = []
    x = L.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.retain_grad()
    y.register_hook(lambda g: log.append(("tensor hook 1", g.tolist())) or g * 2)
    y.register_hook(lambda g: log.append(("tensor hook 2", g.tolist())))
    y.grad_fn.register_prehook(lambda go: log.append(("node prehook", go[0].tolist())))
    y.grad_fn.register_hook(
        lambda gi, go: log.append(("node hook", gi[0].tolist(), go[0].tolist())))
    x.register_hook(lambda g: log.append(("leaf hook", g.tolist())))
    x.register_post_accumulate_grad_hook(lambda t: log.append(("post accumulate",
                                                               t.grad.tolist())))
    (y * y).sum().backward()
    log.append(("y.grad", y.grad.tolist()))
    log.append(("x.grad", x.grad.tolist()))
    return log


def test_hook_order_like_torch() -> None:
    """Tensor hooks in registration order (each gets the previous one's result), then the
    node's prehook and the node, its hook, then the leaf's hook, accumulation and the
    post-accumulate hook; retain_grad keeps the gradient after the tensor hooks."""
    assert every_hook(mt) == every_hook(torch) == [
        ("tensor hook 1", [6.0, 12.0]),
        ("tensor hook 2", [12.0, 24.0]),
        ("node prehook", [12.0, 24.0]),
        ("node hook", [36.0, 72.0], [12.0, 24.0]),
        ("leaf hook", [36.0, 72.0]),
        ("post accumulate", [36.0, 72.0]),
        ("y.grad", [12.0, 24.0]),
        ("x.grad", [36.0, 72.0]),
    ]


# ------------------------------------------------------------------ Tensor.register_hook


@LIBS
def test_hook_replaces_or_keeps_the_gradient(L: Any) -> None:
    x = L.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    y.register_hook(lambda g: None)  # keeps
    y.register_hook(lambda g: g * 10)  # replaces
    y.register_hook(lambda g: g + 1)  # sees the replaced value
    y.sum().backward()
    assert x.grad.tolist() == [11.0, 11.0]


@LIBS
def test_remove(L: Any) -> None:
    x = L.tensor([1.0], requires_grad=True)
    calls: list[str] = []
    y = x * 1
    first = y.register_hook(lambda g: calls.append("first"))
    y.register_hook(lambda g: calls.append("second"))
    first.remove()
    first.remove()  # a second remove does nothing
    y.sum().backward()
    assert calls == ["second"]


@LIBS
def test_leaf_hook_runs_before_accumulation(L: Any) -> None:
    x = L.tensor([1.0, 2.0], requires_grad=True)
    x.grad = L.tensor([10.0, 10.0])
    seen: list[list[float]] = []
    handle = x.register_hook(lambda g: seen.append(g.tolist()) or g * 100)
    x.sum().backward()
    assert seen == [[1.0, 1.0]], "the hook sees the incoming gradient, not .grad"
    assert x.grad.tolist() == [110.0, 110.0], "its result is what accumulates"
    handle.remove()
    x.sum().backward()
    assert x.grad.tolist() == [111.0, 111.0]


@LIBS
def test_hook_sees_the_summed_gradient_once(L: Any) -> None:
    x = L.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    seen: dict[str, list] = {"x": [], "y": []}
    x.register_hook(lambda g: seen["x"].append(g.tolist()))
    y.register_hook(lambda g: seen["y"].append(g.tolist()))
    (y * 2 + y * 3 + x * 4).sum().backward()
    assert seen == {"y": [[5.0, 5.0]], "x": [[9.0, 9.0]]}


@LIBS
def test_hook_on_the_root(L: Any) -> None:
    x = L.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 2).sum()
    seen: list[float] = []
    y.register_hook(lambda g: seen.append(g.item()) or g * 3)
    y.backward()
    assert seen == [1.0] and x.grad.tolist() == [6.0, 6.0]


@LIBS
def test_hook_gradient_has_a_graph_with_create_graph(L: Any) -> None:
    x = L.tensor([1.0, 2.0], requires_grad=True)
    y = x**2
    seen: list[bool] = []
    y.register_hook(lambda g: seen.append(g.requires_grad))
    L.autograd.grad((y * x).sum(), x, create_graph=True)
    L.autograd.grad((x**2 * x).sum(), x)
    assert seen == [True]


@LIBS
def test_hooks_run_in_autograd_grad_for_non_leaves(L: Any) -> None:
    x = L.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: g * 10)
    assert L.autograd.grad((y * 1).sum(), y)[0].tolist() == [10.0, 10.0]
    assert x.grad is None


def test_leaf_hooks_run_in_autograd_grad() -> None:
    results = []
    for L in (torch, mt):
        x = L.tensor([1.0, 2.0], requires_grad=True)
        x.register_hook(lambda g: g * 100)
        x.register_post_accumulate_grad_hook(lambda t: pytest.fail("nothing accumulates"))
        results.append(L.autograd.grad((x * 2).sum(), x)[0].tolist())
    assert results == [[200.0, 200.0]] * 2


def test_leaf_hooks_in_autograd_grad_run_once_in_order_like_torch() -> None:
    results = []
    for L in (torch, mt):
        calls: list[str] = []
        x = L.tensor([1.0, 2.0], requires_grad=True)
        w = L.tensor([3.0], requires_grad=True)
        x.register_hook(lambda g, calls=calls: calls.append("first") or g + 1)
        x.register_hook(lambda g, calls=calls: calls.append("second"))  # None keeps g
        gx, gw = L.autograd.grad((x * w).sum(), (x, w))
        results.append((calls, gx.tolist(), gw.tolist(), x.grad))
    assert results[0] == results[1] == (["first", "second"], [4.0, 4.0], [3.0], None)


# ------------------------------------------------------------------ retain_grad


@LIBS
def test_retain_grad(L: Any) -> None:
    x = L.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    y.register_hook(lambda g: g * 2)
    y.retain_grad()
    y.register_hook(lambda g: g * 5)  # registered after, still seen by retain_grad
    z = x * 1
    assert (y.retains_grad, z.retains_grad, x.retains_grad) == (True, False, False)
    x.retain_grad()  # a leaf keeps its .grad anyway: nothing changes
    assert not x.retains_grad
    out = (y + z).sum()
    out.backward(retain_graph=True)
    assert y.grad.tolist() == [10.0, 10.0] and x.grad.tolist() == [11.0, 11.0]
    out.backward()
    assert y.grad.tolist() == [20.0, 20.0], "a retained gradient accumulates too"


@LIBS
def test_retain_grad_does_not_keep_the_tensor_alive(L: Any) -> None:
    import weakref

    x = L.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    out = y.sum()
    ref = weakref.ref(y)
    del y
    out.backward()
    assert ref() is None and x.grad.tolist() == [2.0, 2.0]


# ------------------------------------------------------------------ post-accumulate hooks


@LIBS
def test_post_accumulate_grad_hook(L: Any) -> None:
    x = L.tensor([1.0, 2.0], requires_grad=True)
    seen: list[tuple] = []
    handle = x.register_post_accumulate_grad_hook(
        lambda t: seen.append((t is x, t.grad.tolist())))
    (x * 3).sum().backward()
    (x * 3).sum().backward()
    handle.remove()
    (x * 3).sum().backward()
    assert seen == [(True, [3.0, 3.0]), (True, [6.0, 6.0])]
    assert x.grad.tolist() == [9.0, 9.0]


@LIBS
def test_post_accumulate_hook_can_step_like_an_optimizer(L: Any) -> None:
    w = L.tensor([1.0, 2.0], requires_grad=True)

    def sgd_step(t: Any) -> None:
        with L.no_grad():
            t.sub_(0.5 * t.grad)
        t.grad = None

    w.register_post_accumulate_grad_hook(sgd_step)
    (w * w).sum().backward()
    assert w.tolist() == [0.0, 0.0] and w.grad is None


# ------------------------------------------------------------------ node hooks


@LIBS
def test_node_prehook_replaces_grad_outputs(L: Any) -> None:
    x = L.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.grad_fn.register_prehook(lambda grad_outputs: (grad_outputs[0] * 10,))
    y.sum().backward()
    assert x.grad.tolist() == [30.0, 30.0]


@LIBS
def test_node_hook_replaces_grad_inputs(L: Any) -> None:
    x = L.tensor([1.0, 2.0], requires_grad=True)
    w = L.tensor([5.0, 5.0], requires_grad=True)
    y = x * w
    seen: list[tuple] = []

    def hook(grad_inputs: tuple, grad_outputs: tuple) -> tuple:
        seen.append((len(grad_inputs), len(grad_outputs)))
        return grad_inputs[0] + 1, None

    y.grad_fn.register_hook(hook)
    y.sum().backward()
    assert seen == [(2, 1)]
    assert x.grad.tolist() == [6.0, 6.0] and w.grad is None


@LIBS
def test_accumulate_grad_node_hooks(L: Any) -> None:
    x = L.tensor([1.0, 2.0], requires_grad=True)
    acc = (x * 3).grad_fn.next_functions[0][0]
    log: list[tuple] = []
    pre = acc.register_prehook(lambda go: log.append(("pre", go[0].tolist())))
    acc.register_hook(lambda gi, go: log.append(("post", gi, go[0].tolist())))
    y = x * 3
    assert y.grad_fn.next_functions[0][0] is acc, "one AccumulateGrad per leaf, while alive"
    y.sum().backward()
    pre.remove()
    (x * 3).sum().backward()
    assert log == [("pre", [3.0, 3.0]), ("post", (), [3.0, 3.0]), ("post", (), [3.0, 3.0])]


@LIBS
def test_node_hook_handles_remove(L: Any) -> None:
    x = L.tensor([1.0], requires_grad=True)
    y = x * 2
    pre = y.grad_fn.register_prehook(lambda go: (go[0] * 100,))
    post = y.grad_fn.register_hook(lambda gi, go: (gi[0] * 100, None))
    pre.remove()
    post.remove()
    y.sum().backward()
    assert x.grad.tolist() == [2.0]


# ------------------------------------------------------------------ errors


def double(grad: Any) -> Any:
    """A named hook that returns a gradient of the wrong size."""
    return grad.sum().expand(3)


def _named_hook_changes_size(L: Any) -> None:
    y = L.ones(2, requires_grad=True) * 1
    y.register_hook(double)
    y.sum().backward()


def _lambda_hook_changes_size_on_leaf(L: Any) -> None:
    x = L.ones(2, requires_grad=True)
    x.register_hook(lambda g: L.ones(3))
    x.sum().backward()


def _post_accumulate_on_non_leaf(L: Any) -> None:
    (L.ones(2, requires_grad=True) * 1).register_post_accumulate_grad_hook(lambda t: None)


def _post_accumulate_without_grad(L: Any) -> None:
    L.ones(2).register_post_accumulate_grad_hook(lambda t: None)


def _retain_grad_without_grad(L: Any) -> None:
    (L.ones(2) * 2).retain_grad()


HOOK_ERRORS = [_named_hook_changes_size, _lambda_hook_changes_size_on_leaf,
               _post_accumulate_on_non_leaf, _post_accumulate_without_grad,
               _retain_grad_without_grad]


@pytest.mark.parametrize("scenario", HOOK_ERRORS, ids=lambda f: f.__name__.strip("_"))
def test_hook_errors_like_torch(scenario: Callable[[Any], None]) -> None:
    want = raised_by(scenario, torch)
    assert want is not None
    assert_same_error(raised_by(scenario, mt), want)


def test_hook_error_texts() -> None:
    """The two strings of reference §10."""
    no_grad = raised_by(lambda L: L.ones(2).register_hook(lambda g: g), mt)
    assert str(no_grad) == "cannot register a hook on a tensor that doesn't require gradient"
    assert str(raised_by(_lambda_hook_changes_size_on_leaf, mt)) == (
        "hook '<lambda>' has changed the size of value")
    assert str(raised_by(_named_hook_changes_size, mt)) == (
        "hook 'double' has changed the size of value")
