"""Where the session's branches met: a write's overlap is the written region's (copy_'s),
out= through one wrapper (all/any into bool or uint8, linalg's under their names), with
torch as the oracle."""

from __future__ import annotations

import pytest

from tests.oracle import assert_as_torch


def written(x_expr: str, key: str, value: str) -> str:
    return f"(lambda x: (x.__setitem__({key}, {value}), x)[1])({x_expr})"


@pytest.mark.parametrize("program", [
    written("L.arange(4.)", "slice(1, None)", "x[:-1]"),  # shifted: partly the same memory
    written("L.arange(8.).view(2, 4)", "0", "x[1]"),  # another row: none
    written("L.arange(4.).view(2, 2)", "slice(0, 2)", "x.T[0:2]"),  # transposed
    written("L.arange(4.)", "Ellipsis", "x"),  # wholly the same
    written("L.arange(4.)", "slice(0, 1)", "x[0:1]"),
    written("L.arange(6.).view(2, 3)", "(Ellipsis, 0)", "x[..., 1]"),
    written("L.arange(12.).view(3, 4)", "L.tensor([True, False, True])", "x[0, 0]"),
    written("L.arange(12.).view(3, 4)", "([0, 2], 0)", "x[0, 1]"),
    written("L.arange(4.)", "L.tensor([0, 1])", "x[1:3]"),
    "L.any(L.tensor([[0, 8], [5, 0]], dtype=L.uint8), 0, out=L.zeros(0, dtype=L.bool))",
    "L.all(L.tensor([[0, 8], [5, 0]], dtype=L.uint8), out=L.zeros(0, dtype=L.uint8))",
    "L.all(L.ones(2), out=L.zeros(0))",
    "L.linalg.inv(L.eye(2), out=L.empty(0, dtype=L.float64))",
    "L.linalg.inv(L.eye(1, requires_grad=True), out=L.zeros(0))",
    "L.linalg.norm(L.ones(3), out=L.empty(0, dtype=L.float64))",
    "L.linalg.vector_norm(L.ones(3), ord=None)",
    "L.linalg.norm(L.arange(6.).reshape(2, 3), axis=0)",
    "L.cat([L.ones(2, requires_grad=True)], out=L.empty(0))",
    "L.std(L.ones(3), 0, out=L.empty((), dtype=L.float64))",
])
def test_as_torch(program: str) -> None:
    assert_as_torch(lambda L: eval(program))  # the test's own expressions
