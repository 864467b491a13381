"""Calls where issue #21's third fuzz (seeds 2201-2203) found torch and minitorch both
succeeding with different results, or raising different exception types; each program ends
as in torch (``R`` equal, or the same exception type and message)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from test_bad_input_fuzz21b_oracle import assert_as_torch

import minitorch as mt

_GRADIENTS = [
    # a broadcasting mask: the gradient sums back to the input's shape
    "x = L.tensor(1., requires_grad=True)\n"
    "x.masked_fill(L.tensor([True, False, True]), 2.).sum().backward(); R = x.grad",
    "x = L.tensor([1., 2., 3.], requires_grad=True)\n"
    "x.masked_fill(L.ones(2, 3, dtype=L.bool).tril(), 0.).sum().backward(); R = x.grad",
    "x = L.tensor([[1.], [2.]], requires_grad=True); v = L.tensor(3., requires_grad=True)\n"
    "x.masked_fill(L.tensor([True, False]), v).pow(2).sum().backward(); R = (x.grad, v.grad)",
]


@pytest.mark.parametrize("program", _GRADIENTS)
def test_gradients_as_torch(program: str) -> None:
    assert_as_torch(program)


_VALUES = [
    # vmap: a 0-d example's dim -1 is the example itself, never the batch's dim
    "f = lambda x: x.mean(dim=-1, keepdim=True)\nR = L.vmap(L.vmap(f))(L.arange(6.).view(2, 3))",
    "R = L.vmap(lambda x: x.sum(-1))(L.arange(3.))",
    "R = L.vmap(lambda x: x.softmax(-1))(L.arange(3.))",
    "R = L.vmap(lambda x: x.sum(-2))(L.ones(2, 3))",
    "R = L.vmap(lambda x: x.unsqueeze(-1))(L.arange(3.))",
    # integer average pooling keeps the dtype, its quotient rounded toward zero
    "R = L.nn.functional.avg_pool2d(L.arange(50).view(1, 2, 5, 5), 3)",
    "R = L.nn.functional.avg_pool2d(L.arange(9).view(1, 3, 3) - 4, 2, 1, divisor_override=3)",
    "x = L.tensor([[[-7, 2, 5, 0, 1]]])\n"
    "R = [L.nn.functional.avg_pool2d(x, (1, 3), 1, (0, 1), count_include_pad=c)"
    " for c in (True, False)]",
    # reshape's copy is no view of anything
    "R = L.ones(2, 2).t().reshape(-1)._base is None",
    "R = L.ones(2, 3, requires_grad=True).t().reshape(-1)._base is None",
    "x = L.ones(2, 2, 3); R = (x @ L.ones(3, 2))._base is None",
]


@pytest.mark.parametrize("program", _VALUES)
def test_values_as_torch(program: str) -> None:
    assert_as_torch(program)


_SIZES = ["R = L.Size([2, 3]) + (1,)", "R = (1,) + L.Size([2, 3])", "R = L.Size([2, 3]) * 2",
          "R = 2 * L.Size([2, 3])", "R = L.Size([2]) * 0", "R = L.Size([2]) * L.tensor(2)",
          "R = L.Size([2]) + [1]", "R = L.Size([2]) + (1.5,)", "R = L.Size([2]) * 1.5",
          "R = type(L.Size([2]) + L.Size([3])).__name__", "L.set_rng_state([1, 2]); R = 1"]


@pytest.mark.parametrize("program", _SIZES)
def test_sizes_and_states_as_torch(program: str) -> None:
    assert_as_torch(program)


_X, _I = "x = L.ones(2, 3); i = L.tensor([[0, 1]])\n", "i = L.tensor([[0.5]])\n"
_ERRORS = [
    # scatter: torch's parser and index checks come before minitorch's refusal of reduce
    _X + _I + "R = x.scatter(0, i, 1.5, reduce='multiply')",
    "x = L.tensor([-3, 0, 1]); i = L.tensor([[0]]); R = x.scatter(-2, i, 2, reduce='add')",
    _X + "R = x.scatter((), i, 1.5, reduce='multiply')",
    _X + "R = x.scatter(0, i, value=L.ones(3, 3))",
    _X + "R = x.scatter(0, i, L.ones(2, 3), value=1.)",
    _X + "R = x.scatter(1, i, value=L.tensor(2.))",
    _X + "R = x.scatter(1, i, 2., reduce='bad')",
    _X + "R = x.scatter(1, i, 2., reduce=1)",
    _X + "R = x.scatter_(1, i, value=L.ones(2))",
    _X + "R = x.scatter_(1, i, value=3)",
    # a rounding_mode that is no str matches none of div's overloads
    _X + "R = L.div(x, 2, rounding_mode=1)",
    _X + "R = x.div_(L.ones(3), rounding_mode=1)",
    _X + "R = x.div(2, rounding_mode='x')",
    # permute with no dims: a missing argument, not an empty order
    _X + "R = x.permute()", "R = L.tensor(1.).permute()", _X + "R = x.permute(())",
    # a slice's step and bounds are checked in their turn, after the count of dims
    "R = L.tensor(-1)['a', ::0, L.tensor(1)]", _X + "R = x[::0, 0, 0]", _X + "R = x[::-1, 0, 0]",
    _X + "R = x[::0.5, 0, 0]", _X + "R = x[::0, 'a']", _X + "R = x['a', ::0]",
    _X + "R = x[5, ::0]", _X + "R = x[::0]", _X + "R = x[1:2:0.5]",
    "x = L.zeros(3); x[-5, ::0, L.tensor([], dtype=L.int64)] = 2; R = x",
    "x = L.zeros(3); x[::0] = 2; R = x",
    # argument checks in torch's order, with torch's exception types
    "R = L.nn.functional.pad(L.arange(3.), 1, 'constant', 1)",
    "R = L.nn.functional.pad(L.arange(3.), 1.5)",
    "R = L.nn.functional.pad(L.arange(3.), [1, 1])",
    "a = L.zeros(2, 2); R = L.nn.functional.triplet_margin_loss(a, L.ones(3, 2), L.ones(2),"
    " margin=-1.)",
    "a = L.zeros(2, 2); R = L.nn.functional.triplet_margin_loss(a, a, a, margin=0.)",
    "x = L.ones(2, 3, 4); R = L.nn.functional.scaled_dot_product_attention(x, L.ones(2, 5, 4),"
    " L.ones(2, 5, 6), dropout_p=1.5)",
    "x = L.ones(2, 3); i = L.zeros(2, 3, dtype=L.int64)\n"
    "R = [L.take_along_dim(x, i[None], dim=(0, 0)), L.take_along_dim(x, i, dim=True)]",
    # softmax and log_softmax take torch's _stacklevel (and dtype third, by position)
    "R = L.nn.functional.log_softmax(L.zeros(0, requires_grad=True), 1, _stacklevel=5)",
    "R = L.nn.functional.softmax(L.tensor([1, -2, 4]), None, _stacklevel=5)",
    "R = L.nn.functional.softmax(L.tensor([1., 2.]), 0, 3, L.float64)",
    "R = L.nn.functional.log_softmax(L.tensor([1., 2.]), 0, 3, L.float64)",
    # an int exponent past uint64 fails in torch's parser, whatever the dtype
    "R = L.tensor(3) ** 2 ** 70", "R = L.tensor(3.) ** 2 ** 70", "R = L.tensor(3) ** 2 ** 63",
    "R = L.tensor(3) ** -2 ** 70", "R = L.pow(L.tensor(3), 2 ** 64)",
    "R = L.tensor(3).pow_(2 ** 70)",
    "R = L.ones(2, requires_grad=True).resize_(2.0)",
    "R = L.ones(2, requires_grad=True).resize_(1)",
]


@pytest.mark.parametrize("program", _ERRORS)
def test_errors_as_torch(program: str) -> None:
    assert_as_torch(program)


_AUTOGRAD = [
    # an input forward returns and marks non-differentiable is returned without a grad_fn
    "class Fn(L.autograd.Function):\n"
    "    @staticmethod\n    def forward(ctx, x):\n"
    "        ctx.mark_non_differentiable(x)\n        return x\n"
    "    @staticmethod\n    def backward(ctx, g):\n        return g\n"
    "x = L.ones(2, requires_grad=True); y = Fn.apply(x); R = (y.requires_grad, y)",
    # bernoulli of probabilities that require grad: BernoulliBackward0, a zero gradient
    "p = L.tensor([0.3, 0.7], requires_grad=True); L.manual_seed(0); r = L.bernoulli(p)\n"
    "r.sum().backward(); R = (r, p.grad)",
    "p = L.tensor([0.3, 0.7], requires_grad=True)\n"
    "R = L.bernoulli(p, generator=L.Generator().manual_seed(4))",
]


@pytest.mark.parametrize("program", _AUTOGRAD)
def test_autograd_as_torch(program: str) -> None:
    assert_as_torch(program)


_MHA = "L.manual_seed(0); m = L.nn.MultiheadAttention(4, 2); q = L.ones(3, 2, 4)\n"
_MHA_KV = ("L.manual_seed(0); m = L.nn.MultiheadAttention(4, 1, kdim=3, vdim=5)\n"
           "q = L.ones(3, 4)\n")
_ATTENTION = [
    _MHA + "R = m(q, L.ones(5, 2, 3), L.ones(5, 2, 5), need_weights=False)",
    _MHA + "R = m(q, L.ones(5, 2, 4), L.ones(6, 2, 4), attn_mask=L.zeros(2, 2))",
    _MHA + "R = m(q, q, q, is_causal=True)",
    _MHA + "R = m(q, q, q, key_padding_mask=L.zeros(2, dtype=L.bool))",
    _MHA + "R = m(q, q, q, attn_mask=L.zeros(1, 2, 3, 3))",
    _MHA_KV + "R = m(q, L.ones(5, 2, 3), L.ones(5, 2, 5))",
    _MHA_KV + "R = m(q, L.ones(5, 3), L.ones(6, 5))",
    _MHA_KV + "R = m(q, L.ones(5, 3), L.ones(5, 5), attn_mask=L.zeros(2, 3, 4))",
    _MHA_KV + "R = m(q, L.ones(5, 3), L.ones(5, 5), attn_mask=L.zeros(1, 3, 5), is_causal=True)",
    "L.manual_seed(0); m = L.nn.MultiheadAttention(4, 2, dropout=1.5); q = L.ones(3, 4)\n"
    "R = m(q, q, q, attn_mask=L.ones(3, 3, dtype=L.bool).triu(1), is_causal=True)",
]


@pytest.mark.parametrize("program", _ATTENTION)
def test_attention_errors_as_torch(program: str) -> None:
    assert_as_torch(program)


def test_attention_trusts_the_causal_hint_as_torch() -> None:
    """Without weights or key padding torch takes the hint and drops the (here all-zero)
    mask: the attention is causal."""
    outs = []
    for lib in (torch, mt):
        lib.manual_seed(0)
        m = lib.nn.MultiheadAttention(4, 2)
        q = lib.tensor(np.linspace(-1, 1, 24, dtype=np.float32).reshape(3, 2, 4))
        mask = lib.zeros(3, 3)
        outs.append([m(q, q, q, attn_mask=mask, is_causal=True, need_weights=need)[0]
                     .detach().numpy() for need in (False, True)])
    np.testing.assert_allclose(outs[1][0], outs[0][0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(outs[1][1], outs[0][1], rtol=1e-5, atol=1e-6)
