"""What the session-30 fuzzers found, each a small program run on torch and on minitorch
(``L``) whose outcome, the value of ``R`` or the exception's type and message, must be the
same: a list of tensors checked element by element before any later argument, ``tensor``'s
keyword-only options, a memory format's type before the device, addbmm's autograd reading
the batch count, and ``out=`` where torch's function takes one (index_copy, the scatters,
narrow_copy, orgqr, lu_solve, chain_matmul, special's logsumexp and multigammaln)."""

from __future__ import annotations

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch

ROW = "x = L.ones(3); i = L.tensor([0]); "


@pytest.mark.parametrize("program", [
    # a tensor list: each element's type is the parser's, before dim, out and stray keywords
    "R = L.cat(L.ones(2), dim=2**63, out=3)",
    "R = L.cat([L.ones(2), 1], dim=True, out=L.ones(2))",
    "R = L.cat([L.ones(2), 1], out=3)",
    "R = L.cat((L.ones(2), 'a'), 1.5, out=L.ones(2))",
    "R = L.cat(tensors=[L.ones(2), 1], dim=True, out=L.ones(2))",
    "R = L.stack([L.ones(2), None], dim=True, out=L.ones(2))",
    "R = L.stack(L.ones(2), dim=2**63, out=3)",
    "R = L.hstack([L.ones(2), 1], out=3)",
    "R = L.hstack(tensors=(L.ones(2), 'a'), dim=1.5)",
    "R = L.concat((L.ones(2), 'a'), dim=1.5, out=L.ones(2))",
    "R = L.linalg.multi_dot(None, tensors=[L.ones(2)])",
    "R = L.ones(3).index_put((1,), L.tensor(1.), 1.5)",
    "R = L.index_put(L.ones(3), [None, 'a'], L.tensor(1.), 1.5)",
    "R = L.cat([L.ones(2), L.ones(2)], dim=1.5, out=L.ones(2))",
    # tensor() takes its options by keyword only
    "R = L.tensor([1], None)",
    "R = L.tensor(L.ones(2, 1), L.float32)",
    "R = L.tensor([1], L.float32, dtype=L.int64)",
    "R = L.tensor(data=[1], dtype=L.float64)",
    # stack_module_state reads a sequence: its len(), then by index
    "R = L.func.stack_module_state(1)",
    "R = L.func.stack_module_state(iter([L.nn.Linear(1, 1)]))",
    "R = L.func.stack_module_state({L.nn.Linear(1, 1): 1})",
    "R = L.func.stack_module_state([L.nn.Linear(1, 1), L.nn.ReLU()])",
    "R = L.func.stack_module_state((L.nn.Linear(1, 1), L.nn.Linear(1, 1)))[0]['weight'].shape",
    # a memory format's type is the parser's, before the device is reached; the device is
    # reached before the layout's rank is checked
    "R = L.ones(2).mtia(2, memory_format='right')",
    "R = L.ones(2).xpu(memory_format='right')",
    "R = L.ones(2).cuda('foo', memory_format='right')",
    "R = L.ones(2).cuda(memory_format=L.channels_last)",
    "R = L.ones(2).cuda(non_blocking=2, memory_format='a')",
    "R = L.ones(2).cuda(1.5, 2, memory_format='a')",
    "R = L.ones(2).to('cuda', memory_format=L.channels_last)",
    "R = L.ones(2).cpu(memory_format='right')",
    "R = L.ones(2).cpu(memory_format=L.channels_last)",
    "R = L.ones(2).cpu(memory_format=L.contiguous_format)",
    "R = L.ones(2).cpu(2)",
    "R = L.ones(2).cpu(foo=1)",
    "R = L.nn.Linear(1, 1).cuda(1.5)",
    # addbmm's autograd saves batch1's batch count before the kernel reads its sizes
    "R = L.ones(3, 3, requires_grad=True).addbmm(L.tensor(1.), L.tensor([1, 2]))",
    "R = L.ones(3, 3).addbmm_(L.tensor(1., requires_grad=True), batch2=L.tensor([1, 2]))",
    "R = L.ones(3, 3).addbmm(L.tensor(1.), L.tensor([1, 2]))",
    "R = L.ones(3, 3).addbmm(L.ones(2, 2, 2), L.ones(2, 2, 2, requires_grad=True))",
    "R = L.ones(3, 3).addbmm(L.ones(1, 3, 2), L.ones(1, 2, 3, requires_grad=True))",
    # out= where torch's function takes one
    ROW + "R = L.index_copy(x, 0, i, L.tensor([5.]), out=L.zeros(3))",
    ROW + "R = L.index_copy(x, 0, i, L.tensor([5.]), out=L.zeros(3, dtype=L.float64))",
    ROW + "R = L.index_copy(x.requires_grad_(), 0, i, L.tensor([5.]), out=L.zeros(3))",
    ROW + "R = L.index_copy(x, 1.5, i, L.tensor([5.]), out=3)",
    ROW + "R = L.index_copy(x, 0, L.tensor([3]), L.tensor([5.]), out=L.zeros(3))",
    ROW + "o = L.ones(6); R = (L.index_copy(x, 0, i, L.tensor([5.]), out=o[::2]), o)",
    ROW + "R = L.scatter(x, 0, i, L.tensor([5.]), out=L.zeros(3))",
    ROW + "R = L.scatter(x, 0, i, 5., out=L.zeros(3))",
    ROW + "R = L.scatter(x, 0, i, value=5., out=L.zeros(3))",
    ROW + "R = L.scatter(x, 0, i, 5., reduce='add', out=L.zeros(3))",
    ROW + "R = L.scatter(x, 0, i, L.tensor([5.]), out=L.zeros(3, dtype=L.int64))",
    ROW + "R = L.scatter(x, 0, i, L.tensor([5.]), out=3)",
    ROW + "R = L.scatter(x, 0, i, src=2.0, out=L.zeros(3))",
    ROW + "R = L.scatter_add(x, 0, i, L.tensor([5.]), out=L.zeros(3))",
    ROW + "R = L.scatter_add(x, 0, i, L.tensor([5.]), out=L.zeros(3, dtype=L.int64))",
    ROW + "R = L.scatter_reduce(x, 0, i, L.tensor([5.]), 'sum', out=L.zeros(3))",
    ROW + "R = L.scatter_reduce(x, 0, i, L.tensor([5.]), 'mean', include_self=False, "
          "out=L.zeros(3, dtype=L.float64))",
    ROW + "R = L.narrow_copy(x, 0, 0, 2, out=L.zeros(2))",
    ROW + "R = L.narrow_copy(x, 0, 0, 2, out=L.zeros(2, dtype=L.int64))",
    ROW + "R = L.narrow_copy(x.requires_grad_(), 0, 0, 2, out=L.zeros(2))",
    "R = L.orgqr(L.eye(2), L.ones(2), out=L.zeros(1))",
    "R = L.orgqr(L.eye(2), L.ones(2), out=L.zeros(1, dtype=L.int32))",
    "R = L.orgqr(L.eye(2, requires_grad=True), L.ones(2), out=L.zeros(1))",
    "p = L.tensor([1, 2], dtype=L.int32); R = L.lu_solve(L.ones(2, 1), L.eye(2), p, "
    "out=L.zeros(2, 1))",
    "p = L.tensor([1, 2], dtype=L.int32); R = L.lu_solve(L.ones(2, 1), L.eye(2), p, "
    "out=L.zeros(2, 1, dtype=L.float64))",
    "R = L.chain_matmul(L.ones(2, 2), L.ones(2, 2), out=L.zeros(2, 2))",
    "R = L.chain_matmul(L.ones(2, 2), L.ones(2, 2), out=L.zeros(2, 2, dtype=L.int64))",
    "R = L.chain_matmul(L.ones(2, 2), L.ones(2, 2), out=3)",
    "R = L.chain_matmul(L.ones(2, 2, requires_grad=True), out=L.zeros(1, dtype=L.int64))",
    "R = L.chain_matmul(L.ones(2, 2, requires_grad=True), L.ones(2, 2), out=L.zeros(1))",
    "R = L.chain_matmul(out=L.zeros(1))",
    "R = L.linalg.multi_dot([L.ones(2, 2), L.ones(2, 2, requires_grad=True)], out=L.zeros(1))",
    "R = L.special.logsumexp(L.ones(2), 0, out=L.zeros(()))",
    "R = L.special.logsumexp(L.ones(2), 0, out=3)",
    "R = L.special.logsumexp(L.ones(2), 0, out=L.zeros((), dtype=L.int64))",
    "R = L.special.multigammaln(L.ones(2) * 3, 2, out=L.zeros(2))",
    "R = L.special.multigammaln(L.ones(2) * 3, 2.5, out=1)",
    "R = L.mvlgamma(L.ones(2) * 3, 2, out=L.zeros((), dtype=L.int64))",
    "R = L.mvlgamma(L.ones(2) * 3, 2, out=L.zeros((), dtype=L.float64))",
    "R = L.mvlgamma(L.ones(2, dtype=L.float64) * 3, 2, out=L.zeros((), dtype=L.float16))",
    "R = L.mvlgamma(L.ones(2) * 3, p=2.5)",
    "R = L.ones(2).mvlgamma(2.5)",
])
def test_as_torch(program: str) -> None:
    assert_as_torch(program)
