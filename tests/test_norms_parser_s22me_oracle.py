"""What session 22's own probes found (issue #21), against torch:

* a norm over one value is that value in torch's kernel (no power of it to overflow: the
  200-norm of ``[2.]`` is 2, not inf), but for ``p=0`` and a 0-d tensor's named dim; an
  empty reduction with a nan order is 0. cdist and pdist take no such shortcut (their square
  overflows), refuse a nan ``p`` and half inputs in torch's order, and take a general order's
  root in double; renorm refuses a nan ``p``;
* torch's parser checks an int list's first item as it matches the call and unpacks the
  rest once every argument's type has matched (so a bad ``keepdim`` is named before a float
  in ``dim``), taking a bool after the first item as an int;
* a function form of a method (``torch.unsqueeze``) checks its arguments' types before it
  names an unknown keyword, as the method does.

Each program runs on both libraries: torch's error, or its result bit for bit."""

from __future__ import annotations

import itertools

import pytest

from tests.oracle import assert_as_torch

NAN, INF = float("nan"), float("inf")
VALUES = ["L.tensor(2.)", "L.tensor([2.])", "L.tensor([[2.], [3.]])", "L.tensor(1e30)",
          "L.tensor([[1e30], [1.]])", "L.tensor(1e-30)", "L.zeros(0, 3)",
          "L.tensor([[2.]]).expand(3, 1)", "L.tensor([[300.]], dtype=L.float16)",
          "L.tensor([[1e-30]], dtype=L.float64)"]
ORDERS = ["2.", "200.", "-2.", "0.5", "0.", "1.", "INF", "-INF", "NAN", "2**63"]
DIMS = ["None", "0", "-1", "()", "(0,)", "(0, 1)"]


@pytest.mark.parametrize("value,order,dim", list(itertools.product(VALUES, ORDERS, DIMS)))
def test_vector_norm_as_torch(value: str, order: str, dim: str) -> None:
    for call in (f"L.norm({value}, {order}, dim={dim})",
                 f"L.linalg.vector_norm({value}, {order}, dim={dim}, keepdim=True)"):
        assert_as_torch(lambda L, call=call: eval(call))


@pytest.mark.parametrize("value,order", list(itertools.product(VALUES, ORDERS)))
def test_norm_users_as_torch(value: str, order: str) -> None:
    for call in (f"L.dist({value}, L.zeros(()), {order})",
                 f"L.nn.functional.normalize({value}, {order})",
                 f"{value}.renorm({order}, 0, 1.)",
                 f"L.cdist({value}.reshape(-1, 1), L.zeros(1, 1), {order})",
                 f"L.pdist(L.cat([{value}.reshape(-1, 1).float(), L.zeros(1, 1)]), {order})"):
        assert_as_torch(lambda L, call=call: eval(call))


@pytest.mark.parametrize("call", [
    "L.cdist(L.ones(2, 2, dtype=L.float16), L.ones(2, 2), -1.)",
    "L.cdist(L.ones(2, 2, dtype=L.float16), L.ones(2, 2))",
    "L.cdist(L.ones(2, 2, dtype=L.float16), L.ones(2, 2, dtype=L.float16))",
    "L.cdist(L.ones(2, 2), L.ones(2, 2, dtype=L.float16))",
    "L.cdist(L.ones(2, 2, dtype=L.float64), L.ones(2, 2), NAN)",
    "L.pdist(L.ones(2, 2, dtype=L.float16))",
    "L.pdist(L.ones(2, 2), NAN)",
    "L.ones(2, 2).renorm(NAN, 5, 1.)",
    "L.cdist(L.arange(12.).reshape(3, 4), L.arange(8.).reshape(2, 4), 3.)",
    "L.pdist(L.arange(12., dtype=L.float64).reshape(3, 4) / 7, 0.5)",
])
def test_distances_as_torch(call: str) -> None:
    assert_as_torch(lambda L: eval(call))


PARSED = [
    "x.sum((0, True))", "x.sum([0, True])", "x.sum((0, 1.5), 'y')", "x.sum((0, 'a'), 'y')",
    "L.ones(2, 3, 4).sum((0, 1.5, 2), 'y')", "x.sum((5, 1.5))", "x.squeeze((0, True))",
    "x.amax((0, 1.5), 'y')", "x.amin((0, True), True)", "x.mean((0, 1.5), 'y')",
    "x.logsumexp((0, 1.5), 'y')", "x.logsumexp((0, True))", "L.logsumexp(x, True, 'y')",
    "x.movedim((0, 1.5), (1, 0))", "x.movedim((0, 1), (1, 0.5))", "x.movedim((0, True), (1, 0))",
    "L.sum(x, dim=True, keepdim='yes', dtype='float32')",
    "L.sum(x, dim=(0, 1.5), keepdim='yes', dtype='float32')",
    "L.mean(x, dim=(0, 1.5), keepdim=False, dtype='float32')",
    "L.mean(x.long(), dim=(0, 1.5))",
    "L.nansum(x, dim=(0, 1.5), keepdim=False, dtype='float32')",
    "L.nanmean(x, dim=(0, 1.5), keepdim='yes', dtype='float32')",
    "L.nanmean(x.long(), dim=(0, 1.5))",
    "L.std(x.long(), (0, 1.5))", "L.var_mean(x, (0, True))", "L.std_mean(x.long(), (0, 1.5))",
    "L.amax(x[:0], (0, 1.5))", "x.all((0, 1.5), 'y')", "x.any((0, True))",
    "L.unsqueeze(x, True, keepdim='yes')", "L.flatten(x, True, keepdim='yes')",
    "L.transpose(x, True, keepdim='yes')", "L.transpose(x, 0, keepdim='yes')",
    "L.unsqueeze(x, dim=True, keepdim='yes', dtype='float32')",
    # any int matches as the parser reads the types: its range is checked when unpacked
    "L.all(x.int(), 2**63, keepdim=None)", "x.sum(2**63, keepdim='y')", "x.sum((2**63, 0), 'y')",
    "x.mean(2**63, dtype='f')", "x.amax((0, 2**64), 'y')",
]


@pytest.mark.parametrize("call", PARSED)
def test_parser_order_as_torch(call: str) -> None:
    def program(L):
        x = L.ones(2, 3)  # noqa: F841 (read by the call)
        return eval(call)
    assert_as_torch(program)
