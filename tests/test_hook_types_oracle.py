"""Every kind of backward hook sees what torch's does (Tensors, None for an undefined
gradient, tuples) and refuses a wrong return with torch's error."""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

import pytest
import torch
from oracle import assert_same, assert_same_error, raised_by

import minitorch as mt

LIBS = [mt, torch]


def kinds(value: Any) -> Any:
    """The structure of what a hook received: type names, None, tuples."""
    if isinstance(value, (tuple, list)):
        return type(value).__name__, [kinds(v) for v in value]
    return None if value is None else type(value).__name__


def mul_graph(L: Any) -> tuple:
    a = L.tensor([1.0, 2.0], requires_grad=True)
    return a, a * L.tensor([3.0, 4.0])


def seen_by_hooks(L: Any) -> list:
    seen: list = []
    a, c = mul_graph(L)
    c.grad_fn.register_hook(lambda gi, go: seen.append(("post", kinds(gi), kinds(go))))
    c.grad_fn.register_prehook(lambda go: seen.append(("pre", kinds(go))))
    c.register_hook(lambda g: seen.append(("tensor", kinds(g))))
    a.register_hook(lambda g: seen.append(("leaf", kinds(g))))
    a.register_post_accumulate_grad_hook(lambda p: seen.append(("acc", kinds(p))))
    c.sum().backward()
    lin = L.nn.Linear(2, 1)
    lin.register_full_backward_hook(lambda m, gi, go: seen.append(("mod", kinds(gi), kinds(go))))
    lin.register_full_backward_pre_hook(lambda m, go: seen.append(("modpre", kinds(go))))
    lin(L.ones(1, 2, requires_grad=True)).sum().backward()
    x, y = L.ones(1, requires_grad=True), L.ones(1, requires_grad=True)
    L.autograd.graph.register_multi_grad_hook((x, y), lambda g: seen.append(("multi", kinds(g))))
    (x * 3).sum().backward()
    return seen


def test_hooks_receive_what_torch_gives() -> None:
    assert seen_by_hooks(mt) == seen_by_hooks(torch)


@pytest.mark.parametrize("replace", ["post", "pre"])
def test_node_hook_replacing_gradients_as_in_the_docs(replace: str) -> None:
    def run(L: Any) -> Any:
        a, c = mul_graph(L)
        if replace == "post":
            c.grad_fn.register_hook(lambda gi, go: (gi[0] * 10, None))
        else:
            c.grad_fn.register_prehook(lambda go: (go[0] * 2,))
        c.sum().backward()
        return a.grad
    assert_same(run(mt), run(torch))


POST_RETURNS = {
    "not a tuple": lambda gi, go: gi[0],
    "too few": lambda gi, go: (gi[0],),
    "a list": lambda gi, go: [gi[0], None],
    "None replaced": lambda gi, go: (gi[0], gi[0]),
    "dtype": lambda gi, go: (gi[0].double(), None),
    "shape": lambda gi, go: (gi[0][:1], None),
    "a float": lambda gi, go: (1.0, None),
}


@pytest.mark.parametrize("name", POST_RETURNS)
def test_wrong_node_hook_returns(name: str) -> None:
    def run(L: Any) -> None:
        _, c = mul_graph(L)
        c.grad_fn.register_hook(POST_RETURNS[name])
        c.sum().backward()
    assert_same_error(raised_by(run, mt), raised_by(run, torch))


MODULE_HOOKS = {
    "hook not a tuple": ("register_full_backward_hook", lambda m, gi, go: gi[0] * 2, True),
    "hook too many": ("register_full_backward_hook", lambda m, gi, go: (gi[0], gi[0]), True),
    "pre hook too many": ("register_full_backward_pre_hook", lambda m, go: (go[0], go[0]), True),
    "no input needs grad": ("register_full_backward_hook", lambda m, gi, go: (go[0],), False),
}


@pytest.mark.parametrize("name", MODULE_HOOKS)
def test_wrong_module_hook_returns(name: str) -> None:
    register, hook, input_grad = MODULE_HOOKS[name]

    def run(L: Any) -> None:
        lin = L.nn.Linear(2, 1)
        getattr(lin, register)(hook)
        lin(L.ones(1, 2, requires_grad=input_grad)).sum().backward()
    with pytest.warns(UserWarning) if not input_grad else nullcontext():
        got = raised_by(run, mt)
    with pytest.warns(UserWarning) if not input_grad else nullcontext():
        want = raised_by(run, torch)
    assert_same_error(got, want)



def test_leaf_hooks_run_before_accumulate_grad_pre_hooks() -> None:
    def run(L: Any) -> tuple:
        seen: list = []
        a = L.tensor([1.0, 2.0], requires_grad=True)
        acc = (a * 2).grad_fn.next_functions[0][0]
        acc.register_prehook(lambda go: seen.append("node pre") or (go[0] * 3,))
        acc.register_hook(lambda gi, go: seen.append("node post"))
        a.register_hook(lambda g: seen.append("leaf") or g + 1)
        a.register_post_accumulate_grad_hook(lambda p: seen.append("post accumulate"))
        (a * 2).sum().backward()
        return seen, a.grad.tolist()
    assert run(mt) == run(torch)
