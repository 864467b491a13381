"""Writes to the nodes of built-in ops, against live torch: torch's C++ nodes have no instance
dict, so any write is refused (an unknown name, a saved value, an internal of minitorch's
that would change the gradient), while hooks and ``metadata`` still work and a custom
Function's node still takes its ctx attributes."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same, assert_same_error, raised_by

NODES = {
    "x * 2": lambda L, x, c: x * 2,
    "x * c": lambda L, x, c: x * c,
    "(x * c).sum()": lambda L, x, c: (x * c).sum(),
    "x.exp()": lambda L, x, c: x.exp(),
    "x.max()": lambda L, x, c: x.max(),
    "x + c": lambda L, x, c: x + c,
    "x[0]": lambda L, x, c: x[0],
    "x.view(2, 1)": lambda L, x, c: x.view(2, 1),
    "x.sort()": lambda L, x, c: x.sort()[0],
    "x.clamp(0, 1)": lambda L, x, c: x.clamp(0, 1),
    "leaf's AccumulateGrad": lambda L, x, c: (x * c).grad_fn.next_functions[0][0],
}
NAMES = ["foo", "scalar", "a", "b", "alpha", "_saved_self", "_saved_other", "_saved_result",
         "_raw_saved_self", "_saved_self_sym_sizes", "name", "next_functions", "metadata",
         "register_hook", "requires_grad", "needs_input_grad", "saved_tensors", "variable"]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("node", sorted(NODES))
def test_a_write_to_a_built_in_node_is_refused_as_torch(node: str, name: str) -> None:
    def node_of(L: Any) -> Any:
        x = L.tensor([0.5, 2.0], requires_grad=True)
        made = NODES[node](L, x, L.tensor([3.0, 4.0], requires_grad=True))
        return made if isinstance(made, L.autograd.graph.Node) else made.grad_fn

    want = raised_by(lambda L: setattr(node_of(L), name, 5), torch)
    assert want is not None
    if "not writable" in str(want) and not hasattr(node_of(mt), name):
        pytest.skip(f"minitorch's {node} node does not show torch's {name}")
    assert_same_error(raised_by(lambda L: setattr(node_of(L), name, 5), mt), want)


def test_a_refused_write_leaves_the_gradient_torchs_and_hooks_still_work() -> None:
    def run(L: Any) -> tuple:
        x = L.tensor([0.5, 2.0], requires_grad=True)
        y = x * 2
        node = y.grad_fn
        with contextlib.suppress(AttributeError):
            node.scalar = 5  # minitorch's own slot: it had changed the gradient
        node.metadata["tag"] = 1
        seen = []
        node.register_hook(lambda grad_inputs, grad_outputs: seen.append("hook"))
        node.register_prehook(lambda grad_outputs: seen.append("prehook"))
        y.retain_grad()
        y.sum().backward()
        return x.grad, y.grad, seen, node.metadata, y.is_leaf, node is y.grad_fn

    got, want = run(mt), run(torch)
    assert_same(got[0], want[0], "x.grad")
    assert_same(got[1], want[1], "y.grad")
    assert got[2:] == want[2:]


def test_a_custom_functions_node_keeps_its_ctx_attributes() -> None:
    def run(L: Any) -> tuple:
        class Scale(L.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any) -> Any:
                ctx.factor = 3.0
                return x * ctx.factor

            @staticmethod
            def backward(ctx: Any, g: Any) -> Any:
                return g * ctx.factor

        x = L.tensor([1.0, 2.0], requires_grad=True)
        y = Scale.apply(x)
        y.grad_fn.factor = 5.0  # a custom node is a Python object: the write is kept
        y.sum().backward()
        return x.grad

    assert_same(run(mt), run(torch), "x.grad")

