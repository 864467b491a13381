"""``func.vmap`` against live torch: ``func`` runs once on the whole batch where its ops have
batching rules (``minitorch._batched``), so the result prints as torch's, the last op's
``grad_fn`` included; gradients through it match torch's; ops without a rule fall back to
one call per example and still print the same values.
"""

from __future__ import annotations

from typing import Any

import pytest
import torch
import torch.func

import minitorch as mt
from minitorch import _batched


def _weights(L: Any) -> Any:
    return L.randn(5, requires_grad=True)


PROGRAMS = {
    "dot then relu (torch.func tutorial)": lambda L: (
        lambda w: L.func.vmap(lambda v: v.dot(w).relu())(L.randn(3, 5)))(_weights(L)),
    "dot of two batches": lambda L: L.func.vmap(lambda a, b: a.dot(b))(
        L.randn(3, 4, requires_grad=True), L.randn(3, 4)),
    "mul with a shared row": lambda L: L.func.vmap(lambda a, b: a * b, in_dims=(0, None))(
        L.arange(6.).reshape(3, 2).requires_grad_(), L.tensor([1., 10.])),
    "broadcast against a larger shared tensor": lambda L: L.func.vmap(lambda a, b: a + b,
                                                                      in_dims=(0, None))(
        L.randn(4, 3, requires_grad=True), L.randn(2, 3)),
    "numbers on both sides": lambda L: L.func.vmap(lambda a: (2 - a) / 3 + a ** 2)(
        L.randn(3, 2, requires_grad=True)),
    "sum over all": lambda L: L.func.vmap(lambda a: a.sum())(L.randn(3, 2, requires_grad=True)),
    "sum over a dim": lambda L: L.func.vmap(lambda a: a.sum(0))(
        L.randn(3, 2, 4, requires_grad=True)),
    "mean keepdim, negative dim": lambda L: L.func.vmap(lambda a: a.mean(-1, keepdim=True))(
        L.randn(3, 2, 4, requires_grad=True)),
    "softmax": lambda L: L.func.vmap(lambda a: a.softmax(0))(L.randn(3, 4, requires_grad=True)),
    "index": lambda L: L.func.vmap(lambda a: a[0])(L.randn(3, 2, requires_grad=True)),
    "slice and ellipsis": lambda L: L.func.vmap(lambda a: a[..., 1:])(
        L.randn(3, 2, 4, requires_grad=True)),
    "reshape": lambda L: L.func.vmap(lambda a: a.reshape(2, 1))(L.randn(3, 2, requires_grad=True)),
    "unsqueeze": lambda L: L.func.vmap(lambda a: a.unsqueeze(0))(
        L.randn(3, 2, requires_grad=True)),
    "t": lambda L: L.func.vmap(lambda a: a.t())(L.randn(3, 2, 4, requires_grad=True)),
    "matrix product": lambda L: L.func.vmap(lambda a, w: (a @ w).tanh(), in_dims=(0, None))(
        L.randn(3, 2, 4, requires_grad=True), L.randn(4, 5)),
    "in_dims 1": lambda L: L.func.vmap(lambda a: a + 1, in_dims=1)(
        L.randn(3, 2, requires_grad=True)),
    "out_dims 1": lambda L: L.func.vmap(lambda a: a * 2, out_dims=1)(
        L.randn(3, 2, requires_grad=True)),
    "tuple output": lambda L: L.func.vmap(lambda a: (a.exp(), a.sum()))(
        L.randn(3, 2, requires_grad=True)),
    "identity": lambda L: L.func.vmap(lambda a: a)(L.randn(3, 2)),
    # no rule here: one call per example, the same values
    "a torch function (falls back)": lambda L: L.func.vmap(lambda a: L.sin(a) * 2)(
        L.randn(3, 2, requires_grad=True)).detach(),
    "metadata in a Python branch": lambda L: L.func.vmap(lambda a: a * 2 if a.dim() else a)(
        L.randn(3, 2)),
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_vmap_prints_as_torch(name: str) -> None:
    torch.manual_seed(0)
    mt.manual_seed(0)
    assert repr(PROGRAMS[name](mt)) == repr(PROGRAMS[name](torch))


@pytest.mark.parametrize("name", ["dot then relu (torch.func tutorial)", "matrix product",
                                  "broadcast against a larger shared tensor", "sum over a dim",
                                  "softmax", "out_dims 1"])
def test_gradients_through_vmap_match_torch(name: str) -> None:
    grads = []
    for L in (mt, torch):
        L.manual_seed(0)
        out = PROGRAMS[name](L)
        leaves = [n.variable for n, _ in _leaf_nodes(out.grad_fn)]
        (out * L.arange(out.numel(), dtype=out.dtype).reshape(out.shape)).sum().backward()
        grads.append([repr(leaf.grad) for leaf in leaves])
    assert grads[0] == grads[1]


def _leaf_nodes(node: Any) -> list:
    """The AccumulateGrad nodes under ``node``, in next_functions order, each once."""
    found, stack, seen = [], [node], set()
    while stack:
        n = stack.pop()
        for child, nr in reversed(n.next_functions):
            if child is None or id(child) in seen:
                continue
            seen.add(id(child))
            if hasattr(child, "variable"):
                found.append((child, nr))
            else:
                stack.append(child)
    return found


def test_a_shared_operand_wider_than_the_example_is_multiplied_per_example() -> None:
    # (B, m, n) @ (p, n, k) would broadcast p against the batch: no rule, each example's
    out = mt.func.vmap(lambda a, w: a @ w, in_dims=(0, None))(mt.ones(3, 2, 4), mt.ones(3, 4, 5))
    expected = torch.func.vmap(lambda a, w: a @ w, in_dims=(0, None))(torch.ones(3, 2, 4),
                                                                       torch.ones(3, 4, 5))
    assert out.shape == expected.shape


def test_python_reads_of_a_batched_value_fall_back() -> None:
    batch = _batched.BatchedTensor(mt.ones(3, 2))
    for read in (lambda b: b.add_(1), lambda b: list(b)):
        with pytest.raises((_batched.Unbatched, TypeError)):
            read(batch)
    # torch refuses data-dependent control flow and reading one number per example
    for read in (bool, float, int, lambda b: b.item(), lambda b: b.tolist()):
        with pytest.raises(_batched.Refused):
            read(batch)


def test_randomness_different_draws_per_example() -> None:
    """One call on the whole batch would draw once for all examples: 'different' keeps the
    per-example calls."""
    mt.manual_seed(0)
    out = mt.func.vmap(lambda a: a + mt.randn(()), randomness="different")(mt.zeros(3))
    assert len(set(out.tolist())) == 3
