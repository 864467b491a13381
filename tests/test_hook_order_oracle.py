"""Hooks fire in torch's order when one backward reaches several leaves and tensors.

torch's engine runs ready nodes from a priority queue: the most recently created node first,
and a leaf's AccumulateGrad (sequence number UINT64_MAX) as soon as it is ready, ties broken
by the heap. Random programs over a few leaves, with a printing hook on every tensor, must
log the same names in the same order under minitorch as under torch.
"""

from __future__ import annotations

from typing import Any

import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS

import minitorch as mt

OPS = ("add", "mul", "sub", "sin", "exp_scaled")

steps = st.lists(st.tuples(st.sampled_from(OPS), st.integers(0, 99), st.integers(0, 99)),
                 min_size=1, max_size=8)


def _hook_log(L: Any, n_leaves: int, program: list, n_outputs: int) -> list[str]:
    log: list[str] = []
    values = []
    for i in range(n_leaves):
        leaf = L.tensor([0.5 + i, -0.25 * i], requires_grad=True)
        leaf.register_hook(lambda g, name=f"leaf{i}": log.append(name))
        values.append(leaf)
    for k, (op, a, b) in enumerate(program):
        x, y = values[a % len(values)], values[b % len(values)]
        if op == "sin":
            out = x.sin()
        elif op == "exp_scaled":
            out = (x * 0.1).exp()
        else:
            out = getattr(x, op)(y)
        out.register_hook(lambda g, name=f"t{k}": log.append(name))
        values.append(out)
    total = sum(v.sum() for v in values[-n_outputs:])
    total.backward()
    return log


@given(st.integers(1, 4), steps, st.integers(1, 3))
@SETTINGS
def test_hooks_fire_in_torchs_order(n_leaves: int, program: list, n_outputs: int) -> None:
    assert _hook_log(mt, n_leaves, program, n_outputs) == \
        _hook_log(torch, n_leaves, program, n_outputs)


def test_leaf_hooks_run_as_soon_as_the_leaf_is_ready() -> None:
    # a is ready after e's and d's nodes; torch stores it before b, made later than a
    def log(L: Any) -> list[str]:
        names: list[str] = []
        a, b, c = (L.tensor([v], requires_grad=True) for v in (1.0, 2.0, 3.0))
        for name, t in (("a", a), ("b", b), ("c", c)):
            t.register_hook(lambda g, name=name: names.append(name))
        d = a * b
        e = d + c
        ((e * a).sum() + (b * c).sum() + d.exp().sum()).backward()
        return names

    assert log(mt) == log(torch) == ["c", "a", "b"]
