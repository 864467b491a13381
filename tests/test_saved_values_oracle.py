"""The ``_saved_<name>`` attributes of built-in nodes that are not tensors (a dim, a flag,
a bound, the input's sizes) against live torch: the same names and values, read from what
the forward kept."""

from __future__ import annotations

from typing import Any

import pytest
import torch

import minitorch as mt

# each reads every non-tensor attribute torch's node shows (arguments given non-negative:
# torch shows a negative int64 argument wrapped to unsigned, minitorch keeps dims normalised)
EXPRESSIONS = [
    "x.sum(1)", "x.sum(1, keepdim=True)", "x.sum()", "x.sum((0, 1))", "x.mean(1)", "x.mean()",
    "x.mean((1,), True)", "x.pow(3)", "x ** 2.5", "x.softmax(1)", "x.log_softmax(0)",
    "x.unsqueeze(1)", "x.unsqueeze(2)", "x.view(3, 2)", "x.reshape(6)", "x.expand(2, 2, 3)",
    "L.cat([x, x], 1)", "x.clamp(0, 1)", "x.clamp(min=0.5)", "x.clamp(max=2)",
    "L.nn.functional.leaky_relu(x, 0.2)", "L.nn.functional.gelu(x, approximate='tanh')",
    "L.nn.functional.gelu(x)", "x.permute(1, 0)", "x[None].permute(2, 0, 1)",
    "x.max(1).values", "x.min(0, keepdim=True).values", "x.logsumexp(1)", "x.cumsum(1)",
    "x.prod(1)", "x.prod(0, True)", "x.flip(0)", "x.flip((0, 1))", "x.repeat(2, 1)",
    "x.repeat(2, 1, 2)", "L.stack([x, x], 1)", "x + 2", "x.add(x, alpha=2)",
    "x.sub(x, alpha=2)", "x.sub(1.5)", "x.gather(1, L.tensor([[0], [1]]))", "x.roll(1, 1)",
    "x.roll(-1, 0)", "x.roll((1, 2), (0, 1))", "x.tril(1)", "x.triu(-1)",
    "L.linalg.solve_triangular(x[:, :2] + 3, x, upper=True)",
    "L.nn.functional.group_norm(x[None], 2)", "L.linalg.cholesky(x[:, :2] @ x[:, :2].mT)",
    "L.linalg.cholesky_ex(x[:, :2] @ x[:, :2].mT, upper=True).L",
]


def _saved_values(node: Any, names: list | None = None) -> dict:
    """``node``'s non-tensor ``_saved_`` attributes (torch's: every one its ``dir`` lists;
    minitorch's: those named in ``names``, a missing one as such)."""
    if names is None:
        names = [a for a in dir(node) if a.startswith("_saved_")]
        values = {a: getattr(node, a) for a in names}
        return {a: v for a, v in values.items() if not isinstance(v, torch.Tensor)
                and v is not None}
    return {a: getattr(node, a, "missing") for a in names}


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_saved_values_as_torch(expression: str) -> None:
    nodes = []
    for L in (torch, mt):
        x = L.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
        nodes.append(eval(expression, {"L": L, "x": x}).grad_fn)
    want = _saved_values(nodes[0])
    assert _saved_values(nodes[1], list(want)) == want


def test_squeeze_saves_the_input_sizes() -> None:
    for dims in ((), (0,), ((0,),)):
        got = mt.ones(1, 3, requires_grad=True).squeeze(*dims).grad_fn
        want = torch.ones(1, 3, requires_grad=True).squeeze(*dims).grad_fn
        assert got._saved_self_sym_sizes == want._saved_self_sym_sizes
        assert type(got).__name__ == type(want).__name__


def test_an_unknown_name_is_an_attribute_error() -> None:
    node = mt.ones(2, requires_grad=True).sum(0).grad_fn
    with pytest.raises(AttributeError, match="_saved_nothing"):
        node._saved_nothing
