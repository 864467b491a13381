"""Where the session-26 branches met: ``out=`` of a call whose argument a parameter's
annotation does not name but the op takes (a numpy number where ``mul`` says Tensor) is
written, not dropped; out='s autograd refusal by the op's derivative (none, not
implemented, or torch's); an empty view's place. Each case is a small program run on torch
and on minitorch (``L``); its outcome, the value of ``R`` or the exception's type and
message, must be the same."""

from __future__ import annotations

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch

X = "x = L.tensor([1., 2., 3., 4.]); "


@pytest.mark.parametrize("program", [
    # a numpy number as an operand of an op with out=: written into out, or out's cast refused
    X + "o = L.empty(4); r = L.mul(x, np.float32(1.5), out=o); R = (r is o, o)",
    X + "R = L.mul(x[::2], np.float32(1.5), out=L.empty(2, dtype=L.bool))",
    X + "o = L.empty(4, dtype=L.float64); r = L.add(x, np.float64(2), out=o); R = (r is o, o)",
    X + "o = L.empty(4); r = L.sub(x, np.int64(1), alpha=2, out=o); R = (r is o, o)",
    X + "o = L.empty(4, dtype=L.bool); r = L.eq(x, np.float32(2), out=o); R = (r is o, o)",
    X + "o = L.empty(4); r = L.maximum(x, np.float32(2), out=o); R = (r is o, o)",
    X + "R = L.mul(x, np.array([1.5]), out=L.empty(4))",
    X + "R = L.mul(x, 'a', out=L.empty(4))",
    X + "R = L.atan2(x, out=L.empty(4))",
    # out= and autograd, by the op's derivative
    X + "o = L.empty(4, dtype=L.bool, requires_grad=False); R = L.eq(x.requires_grad_(), 2, out=o)",
    "o = L.empty(2, requires_grad=True); R = L.lt(L.ones(2), 2, out=o).requires_grad",
    "R = L.gcd(L.tensor([4, 6]), L.tensor([2, 4]), out=L.empty(2, requires_grad=True))",
    "R = L.gcd(L.ones(2), L.ones(2), out=L.empty(2, requires_grad=True))",
    "R = L.bitwise_not(L.tensor([1]), out=L.empty(1, requires_grad=True))",
    "R = L.floor_divide(L.ones(2), L.ones(2), out=L.empty(2, requires_grad=True))",
    "R = L.heaviside(L.ones(2), L.ones(2), out=L.empty(2, requires_grad=True))",
    "R = L.add(L.ones(2, requires_grad=True), 1, out=L.empty(2))",
    # an expanded out: refused after the parser's checks
    "R = L.add(L.ones(3), 1, out=L.ones(1).expand(3))",
    "R = L.add(L.ones(3), 'a', out=L.ones(1).expand(3))",
    # Tensor.type's non_blocking: a flag, read before the dtype and the keywords
    "R = L.ones(2).type(L.float64, 'a')",
    "R = L.ones(2).type(L.float64, non_blocking='a')",
    "R = L.ones(2).type('a', 'b')",
    "R = L.ones(2).type(L.float64, 'a', foo=1)",
    "R = L.ones(2).type(L.float64, True, 1)",
    "R = L.ones(2).type(L.int64, non_blocking=True)",
    # linalg's parsers: pinv's tolerances are tensors or numbers (no None by position),
    # matrix_exp's input a tensor
    "R = L.linalg.pinv(L.ones(2, 2), 'a')",
    "R = L.linalg.pinv(L.ones(2, 2), None)",
    "R = L.linalg.pinv(L.ones(2, 2), None, atol=1.)",
    "R = L.linalg.pinv(L.ones(2, 2), rtol='a')",
    "R = L.linalg.pinv(L.ones(2, 2), atol=1., rtol=L.tensor(0.5))",
    "R = L.linalg.pinv(L.ones(2, 2), rcond=None)",
    "R = L.linalg.pinv(L.ones(2, 2), 0.1, True)",
    "R = L.linalg.matrix_exp(1.)",
    # an empty view's place in its storage
    "R = L.arange(12.).view(3, 4)[3:].storage_offset()",
    "R = L.arange(12.).view(3, 4)[:, 4:].stride()",
    # numpy arrays inside tensor()'s data: sequences to its shape, their items checked
    "R = L.tensor([np.ones(2, np.float32), [1.0, 2.0]])",
    "R = L.tensor([np.ones(2, np.int32), [1.5, 2.0]], dtype=L.float64)",
    "R = L.tensor([np.ones(2), [1.0]])",
    "R = L.tensor([np.ones(2), 3.0])",
    "R = L.tensor([1.0, np.ones(1)])",
    "R = L.tensor([1, np.ones(2, np.int64)])",
    "R = L.tensor([[1.0, 2.0], np.ones((2, 2))])",
    "R = L.tensor([[1, 2], np.array([300, 2])], dtype=L.int8)",
    "R = L.tensor([np.array([1.5]), [1.0]], dtype=L.int64)",
    # torch.norm's int dim (a bool too) goes on as a list
    "R = L.norm(L.ones(2, 3), 2, True)",
    "R = L.norm(L.ones(2, 3), 2, 1)",
    "R = L.norm(L.ones(2, 3), 2, True, out=L.ones(2))",
    # AdamW: 1 - lr * weight_decay, in Python, before mul_
    "p = L.nn.Parameter(L.ones(2)); p.grad = L.ones(2); o = L.optim.AdamW([p]); "
    "o.param_groups[0]['weight_decay'] = 'a'; o.step()",
    "p = L.nn.Parameter(L.ones(2)); p.grad = L.ones(2); o = L.optim.AdamW([p], lr=1); "
    "o.param_groups[0]['weight_decay'] = 'a'; o.step()",
    "p = L.nn.Parameter(L.ones(2)); p.grad = L.ones(2); o = L.optim.AdamW([p]); "
    "o.param_groups[0]['weight_decay'] = None; o.step()",
    "p = L.nn.Parameter(L.ones(2)); p.grad = L.ones(2); o = L.optim.AdamW([p]); "
    "o.param_groups[0]['weight_decay'] = L.tensor([0.1, 0.2, 0.3]); o.step()",
    # torch.avg_pool1d is F.avg_pool1d: every type before any window's unpacking
    "R = L.avg_pool1d(L.ones(2, 6), (1.,), 1, 0, 'a')",
    "R = L.avg_pool1d(L.ones(2, 6), (1.,), (1.,), (1.,))",
    "R = L.avg_pool1d(L.ones(2, 6), 2) is None or L.avg_pool1d is L.nn.functional.avg_pool1d",
])
def test_as_torch(program: str) -> None:
    assert_as_torch(program)
