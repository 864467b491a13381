"""The profiler records the backward's own ops as torch 2.13's does.

torch's table lists, besides the forward ops, ``aten::ones_like`` for backward's implicit
gradient, one ``autograd::engine::evaluate_function: X`` row per node run with the node ``X``
inside it, the ops of each node's backward formula inside the node, and AccumulateGrad's
``aten::detach`` (first gradient) or ``aten::add_`` (later ones). Inside an op, torch also
records its kernels' internal calls (``aten::as_strided`` in ``aten::expand``, ...); minitorch
does not, so those are pruned from torch's tree, except the conversion of an operand to the
op's dtype (``aten::to`` / ``aten::_to_copy``, for a Python number above all), which both
record and which is compared in full.
Where two gradients meet in the engine's input buffer of a node, both record ``aten::add``
or ``aten::add_`` inside the evaluate_function event of the node that produced the second
one (tests/test_profiler_events_oracle.py compares those programs).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch

import minitorch as mt

# ops whose inner events minitorch records too (it builds them in one array call)
_OPENED = {"aten::ones_like", "aten::empty_like", "aten::detach"}


def _tree(L: Any, program: Callable[[Any], Callable[[], None]]) -> list[str]:
    """The profiled events of the step ``program(L)`` returns, as indented names, kernels'
    internals pruned (the leaves are made before the profile starts)."""
    step = program(L)
    with L.autograd.profiler.profile() as prof:
        step()
    lines = []
    for e in prof.function_events:
        chain = []
        parent = e.cpu_parent
        while parent is not None:
            chain.append(parent.name)
            parent = parent.cpu_parent
        if any(p.startswith("aten::") and p not in _OPENED for p in chain):
            continue
        lines.append("  " * len(chain) + e.name)
    return lines


def _mul_sum(L: Any) -> Callable[[], None]:
    x = L.ones(3, requires_grad=True)
    w = L.ones(3, requires_grad=True)
    return lambda: (x * w).sum().backward()


def _twice(L: Any) -> Callable[[], None]:
    x = L.ones(3, requires_grad=True)

    def step() -> None:
        (x * 2).sum().backward()
        x.exp().mean().backward()

    return step


def _mlp_step(L: Any) -> Callable[[], None]:
    w1 = L.ones(3, 4, requires_grad=True)
    w2 = L.ones(4, 1, requires_grad=True)
    x = L.ones(2, 3)
    return lambda: (x.mm(w1).relu().mm(w2) ** 2).mean().backward()


def _explicit_grad(L: Any) -> Callable[[], None]:
    x = L.ones(2, 2, requires_grad=True)
    g = L.ones(2, 2)
    return lambda: (x * 3).backward(g)


PROGRAMS = {"mul_sum": _mul_sum, "twice": _twice, "mlp_step": _mlp_step,
            "explicit_grad": _explicit_grad}


@pytest.mark.parametrize("name", PROGRAMS)
def test_backward_events_nest_like_torchs(name: str) -> None:
    assert _tree(mt, PROGRAMS[name]) == _tree(torch, PROGRAMS[name])



SCALAR_OPS = {  # each makes its operands, and returns the step profiled
    "x + 2.0": lambda L, x: lambda: x + 2.0, "x - 2": lambda L, x: lambda: x - 2,
    "x * True": lambda L, x: lambda: x * True, "x / 2.0": lambda L, x: lambda: x / 2.0,
    "2.0 / x": lambda L, x: lambda: 2.0 / x, "1 - x": lambda L, x: lambda: 1 - x,
    "float64 * 2.0": lambda L, x: (lambda d: lambda: d * 2.0)(x.double()),
    "int64 * 2": lambda L, x: (lambda i: lambda: i * 2)(L.ones(2, dtype=L.int64)),
    "int64 * 2.0": lambda L, x: (lambda i: lambda: i * 2.0)(L.ones(2, dtype=L.int64)),
    "int64 / int64": lambda L, x: (lambda i: lambda: i / i)(L.ones(2, dtype=L.int64)),
    "float32 + float64": lambda L, x: (lambda d: lambda: x + d)(x.double()),
    "x * 0-d tensor": lambda L, x: (lambda t: lambda: x * t)(L.tensor(2.0)),
    "x ** 3 backward": lambda L, x: (lambda g: lambda: (x ** 3).backward(g))(L.ones(2, 2)),
    "x * 2 backward": lambda L, x: (lambda g: lambda: (x * 2.0).backward(g))(L.ones(2, 2)),
}


def _full_tree(L: Any, op: Callable) -> list[str]:
    step = op(L, L.ones(2, 2, requires_grad=True))
    with L.autograd.profiler.profile() as prof:
        step()
    lines = []
    for e in prof.function_events:
        depth, parent = 0, e.cpu_parent
        while parent is not None:
            depth, parent = depth + 1, parent.cpu_parent
        lines.append("  " * depth + e.name)
    return lines


@pytest.mark.parametrize("name", SCALAR_OPS)
def test_operands_converted_to_the_ops_dtype_are_recorded_as_torch(name: str) -> None:
    """torch's kernel copies each operand whose dtype is not the op's (a Python number is a
    float64, int64 or bool tensor to it): ``aten::to`` > ``aten::_to_copy`` >
    ``aten::empty_strided``, ``aten::copy_``."""
    assert _full_tree(mt, SCALAR_OPS[name]) == _full_tree(torch, SCALAR_OPS[name])
