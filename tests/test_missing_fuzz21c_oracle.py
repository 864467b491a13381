"""The functions, methods and arguments the third fuzz (fuzz21c) found missing or refused,
against live torch: each program runs on torch and on minitorch (``L``) and must end the same
(``R``'s values, dtype, shape, requires_grad and grad_fn, or the exception and message).
Differentiable ones also check the gradient and, with ``create_graph``, the second order.
"""

from __future__ import annotations

import pytest
import torch
from test_bad_input_fuzz21b_oracle import assert_as_torch, run

import minitorch as mt

X = "x = L.tensor([0.3, -1.2, 2.0, 0.0, 1.5, -0.4], dtype=L.float64, requires_grad=True)\n"
Y = "y = L.tensor([1.5, 0.7, -0.4, 2.0, -2.5, 0.9], dtype=L.float64, requires_grad=True)\n"


def _twice(expr: str, inputs: str = "x") -> str:
    """``R``: ``expr``, its gradient (with a graph) and the gradient of that gradient (the
    gradients' values: the nodes of a backward's graph are not compared)."""
    return (X + Y + f"r = {expr}\n"
            f"g = L.autograd.grad(r.sum(), [{inputs}], create_graph=True)\n"
            f"gg = L.autograd.grad(sum((v * v).sum() for v in g), [{inputs}], "
            "allow_unused=True)\n"
            "R = (r, *(v.detach() for v in g), *(v if v is None else v + 0 for v in gg))")


DIFFERENTIABLE = [
    "L.divide(x, y)", "x.true_divide(2)", "x.divide(y, rounding_mode=None)",
    "x.where(x > 0, y)", "L.concat([x, y]) * 2", "L.concatenate((x, y), 0)",
    "L.rsub(x, y)", "L.rsub(x, y, alpha=3) * x", "L.rsub(x, 2.)", "x.sgn() * x",
    "L.hypot(x, y)", "x.atan2(y)", "L.copysign(x * x, y)", "L.copysign(x * x, -1.)",
    "L.logaddexp(x, y)", "x.logaddexp(y * 40)",
    "L.nn.functional.selu(x)", "L.nn.functional.celu(x, 0.7)", "L.nn.functional.mish(x)",
    "L.nn.functional.hardswish(x * 2)", "L.nn.functional.threshold(x, 0.5, -2.) * x",
    "L.nn.functional.glu(x.view(2, 3) * x.view(2, 3), 0)", "L.nn.functional.softsign(x)",
    "L.nn.functional.tanhshrink(x)",
    "L.nn.functional.prelu(x.view(2, 3) + 0.1, y[:3] * 0.5)",
    "x.amax()", "L.amax(x.view(2, 3).round(), 1)", "x.view(3, 2).amin(0, keepdim=True)",
    "L.tensor([1., 3., 3.], dtype=L.float64, requires_grad=True).amax() * x",
    "L.aminmax(x).max * L.aminmax(x).min", "x.view(2, 3).aminmax(dim=1).min",
    "L.nansum(x.log())", "L.nanmean(x.log().view(2, 3), 1)",
    "L.std_mean(x)[0] * L.std_mean(x)[1]", "L.var_mean(x.view(2, 3), 1)[0]",
    "L.var_mean(x, correction=0)[0] * L.var_mean(x, correction=0)[1]",
    "x.cummax(0).values * x", "L.cummin(x.view(2, 3), 1)[0] * x.view(2, 3)",
    "x.logcumsumexp(0)", "L.logcumsumexp(x.view(2, 3) * y.view(2, 3), 1)",
    "x.view(2, 3).H", "x.xlogy(2.5)", "L.xlogy(x, -2) + 0", "L.xlogy(2, y * y)",
    "L.nn.functional.linear(x.view(2, 1, 3), y.view(2, 3), x.view(2, 3)[:1, :2])",
    "x.view(3, 2).mH", "list(reversed(x))[0] * x",
]


@pytest.mark.parametrize("expr", DIFFERENTIABLE)
def test_values_gradients_and_second_order_match_torch(expr: str) -> None:
    inputs = "x, y" if "y" in expr else "x"
    assert_as_torch(_twice(expr, inputs))


PROGRAMS = [
    # logical, bitwise and float tests
    "R = L.logical_and(L.tensor([0, 1, 2]), L.tensor([1., 0., 3.]))",
    "R = L.tensor([0., 2.]).logical_or(L.tensor([False, False]))",
    "R = L.logical_xor(L.tensor([True, False]), L.tensor([True, True]))",
    "R = L.logical_not(L.tensor([0, 3]))",
    "R = L.logical_and(L.ones(2), L.ones(3))",
    "R = L.bitwise_and(L.tensor([12, 5]), 10)",
    "R = L.bitwise_or(L.tensor([True, False]), L.tensor([False, False]))",
    "R = L.bitwise_xor(L.tensor([12]), L.tensor([10]))",
    "R = L.bitwise_not(L.tensor([0, 5]))",
    "R = L.bitwise_not(L.tensor([True, False]))",
    "R = L.bitwise_and(L.ones(2), 1)",
    "x = L.tensor([3, 5]); x.bitwise_and_(1); R = x",
    "x = L.tensor([3, 5]); x.bitwise_not_(); R = x",
    "x = L.tensor([0., 2.]); x.logical_not_(); R = x",
    "R = L.isinf(L.tensor([1., float('inf'), -float('inf'), float('nan')]))",
    "R = L.tensor([1., float('inf'), float('nan')]).isfinite()",
    "R = L.isfinite(L.tensor([1, 2]))",
    "R = L.signbit(L.tensor([-0., 0., -2.]))",
    "R = L.isclose(L.tensor([1., 2., float('nan')]), L.tensor([1., 2.1, float('nan')]))",
    "R = L.isclose(L.tensor([float('nan')]), L.tensor([float('nan')]), equal_nan=True)",
    "R = L.isclose(L.tensor([1., float('inf')]), L.tensor([1.00001, float('inf')]))",
    "R = L.isclose(L.tensor([1.]), L.tensor([1], dtype=L.int64))",
    "R = L.isclose(L.tensor([1.]), L.tensor([1.]), rtol=-1.)",
    "R = L.count_nonzero(L.tensor([[0., 1.], [2., 3.]]))",
    "R = L.tensor([[0, 1], [2, 3]]).count_nonzero(dim=0)",
    "R = L.count_nonzero(L.tensor([[0, 1], [2, 3]]), (0, 1))",
    # aliases and attributes
    "R = L.divide(L.tensor([7, -7]), 2, rounding_mode='floor')",
    "x = L.tensor([3., 4.]); x.divide_(2); R = x",
    "x = L.tensor([3., 4.]); x.true_divide_(L.tensor([2., 8.])); R = x",
    "R = L.rsub(L.tensor([1, 2]), 5)",
    "R = L.rsub(L.tensor([True]), L.tensor([False]))",
    "x = L.tensor([1., 2.]); R = L.positive(x) is x",
    "R = L.positive(L.tensor([True]))",
    "R = L.sgn(L.tensor([-2, 0, 3]))",
    "R = L.is_floating_point(L.tensor([1])), L.is_floating_point(L.ones(1))",
    "R = [L.typename(v) for v in (L.ones(1), L.tensor([1]), L.tensor([True]), 1.5, None)]",
    "R = L.ones(2, 3).layout, L.ones(1).is_sparse, L.strided",
    "x = L.ones(3, requires_grad=True); R = x.output_nr, x.unbind()[2].output_nr",
    "R = L.ones(2, 3, 4).permute(2, 0, 1).dim_order(), L.ones(3).dim_order()",
    "x = L.ones(2); R = x.resolve_conj() is x, x.resolve_neg() is x, x.is_conj(), x.is_neg()",
    "x = L.ones(2); R = x.share_memory_() is x",
    "R = L.ones(2).pin_memory()",
    "R = L.ones(3).H",
    "R = L.ones(2, 3, 4).H",
    "R = L.ones(3).mH",
    "R = L.tensor(2.).H",
    "R = list(reversed(L.tensor([1, 2, 3]))), reversed(L.tensor(5.))",
    "R = L.tensor([1., 2.]).map_(L.tensor([3., 4.]), lambda a, b: a * b)",
    "R = L.tensor([[1., 2.]]).map_(L.tensor([3.]), lambda a, b: a - b)",
    "R = L.tensor([1, 2]).apply_(lambda a: a * 1.5)",
    "R = L.ones(2, requires_grad=True).apply_(lambda a: a)",
    "R = L.ones(2, requires_grad=True).map_(L.ones(2), lambda a, b: a)",
    "R = L.ones(2).map_(3, lambda a, b: a)",
    "R = L.ones(2).map_(L.ones(3), lambda a, b: a)",
    # binary functions' dtypes and errors
    "R = L.hypot(L.tensor([3, 5]), L.tensor([4, 12]))",
    "R = L.hypot(L.tensor([3.]), 4.)",
    "R = L.atan2(L.tensor([1, 2]), L.tensor([3, -4]))",
    "R = L.copysign(L.tensor([1, 2]), -1)",
    "R = L.copysign(L.tensor([1., 2.]), L.tensor([-0., 0.]))",
    "R = L.logaddexp(L.tensor([1]), L.tensor([2]))",
    "R = L.hypot(L.ones(2), L.ones(3))",
    # activations' errors and in-place forms
    "R = L.nn.functional.selu(L.tensor([1, 2]))",
    "x = L.tensor([-1., 1.]); L.nn.functional.selu(x, inplace=True); R = x",
    "x = L.tensor([-1., 1.]); L.nn.functional.threshold(x, 0., 5., True); R = x",
    "R = L.nn.functional.threshold(L.tensor([1, 5]), 2, 0)",
    "R = L.nn.functional.glu(L.ones(3))",
    "R = L.nn.functional.glu(L.tensor(1.))",
    "R = L.nn.functional.prelu(L.ones(2, 3), L.ones(2))",
    "R = L.nn.functional.prelu(L.ones(2, 3), L.ones(1, 3))",
    "R = L.nn.functional.hardswish(L.tensor([-4., -1., 0., 2., 5.]))",
    "R = L.nn.functional.mish(L.tensor([-30., 30., 0.5], dtype=L.float32))",
    # reductions
    "R = L.amax(L.tensor([[1, 5], [3, 2]]), (0, 1))",
    "R = L.amin(L.ones(2, 0), 1)",
    "R = L.amax(L.ones(0))",
    "R = L.amax(L.ones(0, 2), 1)",
    "R = L.isclose(L.ones(1), L.ones(1), atol=-2.5)",
    "R = L.aminmax(L.tensor([[1., 5.], [3., 2.]]), dim=0, keepdim=True)",
    "R = L.aminmax(L.ones(0))",
    "R = L.nansum(L.tensor([[1, 2], [3, 4]]), 1)",
    "R = L.nansum(L.tensor([[1., float('nan')], [3., 4.]]), 1, keepdim=True)",
    "R = L.nanmean(L.tensor([[1., float('nan')], [float('nan'), float('nan')]]), 1)",
    "R = L.nanmean(L.tensor([1, 2]))",
    "R = L.std_mean(L.tensor([[1., 2.], [3., 5.]]), 0, keepdim=True)",
    "R = L.var_mean(L.tensor([1., 2., 4.]), unbiased=False)",
    "R = L.var_mean(L.tensor([1, 2]))",
    # running extrema and logcumsumexp
    "R = L.tensor([1., float('nan'), 3., float('nan'), 0.]).cummax(0)",
    "R = L.cummin(L.tensor([[3, 1, 1], [2, 2, 5]]), 1)",
    "R = L.cummax(L.tensor(2.), 0)",
    "R = L.cummax(L.ones(2, 0), 1)",
    "R = L.cummax(L.ones(2), 1)",
    "R = L.logcumsumexp(L.tensor([-float('inf'), -float('inf'), 1., float('inf')]), 0)",
    "R = L.logcumsumexp(L.tensor([1, 2]), 0)",
    "R = L.logcumsumexp(L.tensor([0., 0.], dtype=L.float32), 0)",
    # unique_consecutive
    "R = L.tensor([1., 3., 3., 2., 1.], requires_grad=True).unique_consecutive()",
    "R = L.unique_consecutive(L.tensor([1, 1, 2, 1]), return_inverse=True, "
    "return_counts=True)",
    "R = L.unique_consecutive(L.tensor([[1, 1], [1, 1], [2, 3]]), dim=0, return_counts=True)",
    "R = L.unique_consecutive(L.tensor([[1, 1, 2], [1, 1, 2]]), return_inverse=True)",
    "x = L.tensor([1., 1.], requires_grad=True); L.unique_consecutive(x).sum().backward()",
    # refused before, accepted by torch
    "R = L.nonzero(L.zeros((0,)), out=None)",
    "x = L.tensor([[1., 2.], [3., 4.]]).t(); R = x.clone(memory_format=None).stride()",
    "x = L.ones(2, 3).t(); R = x.clone(memory_format=L.contiguous_format).stride()",
    "R = L.ones(2, 3).t().contiguous(memory_format=L.contiguous_format).stride()",
    "R = L.ones(2, 3).t().contiguous(memory_format=L.preserve_format)",
    "R = L.zeros_like(L.ones(2), memory_format=L.preserve_format)",
    "R = L.empty_like(L.ones(2), memory_format=L.contiguous_format).shape",
    "R = L.preserve_format, L.contiguous_format",
    "R = L.max(L.tensor([1., 5.]), other=L.tensor([3., 2.]))",
    "R = L.min(L.tensor([1., 5.]), other=L.tensor([3., 2.]))",
    "R = L.tensor([[[0.0, 0.5, -0.75]], [[1.5, 2.0, 0.0]]]).nanmedian(1, keepdims=True)",
    "L.manual_seed(0); R = L.randint(10, size=(4,))",
    "x = L.ones(3, requires_grad=True); y = x * 2; R = y.requires_grad_(True)",
    "x = L.ones(3, requires_grad=True); y = x * 2; R = y.requires_grad_(False)",
    "x = L.ones(3, requires_grad=True); y = x * 2; y.requires_grad = True",
    "R = L.tensor([[-3, 3, -2], [4, -3, 3]]).xlogy(-2)",
    "import numpy as np; R = L.tensor([[4, 1, -3]]).xlogy(np.float32(1.5))",
    "R = L.xlogy(L.tensor([1, 2]), L.tensor([3, 0]))",
    "R = L.nn.functional.dropout(L.tensor(0.), L.tensor(0.5))",
    "R = L.nn.functional.dropout(L.ones(2), L.tensor(0.5), training=False)",
    "R = L.nn.functional.dropout(L.ones(2), L.tensor([0.5, 0.2]))",
    "R = L.nn.functional.linear(L.ones(4, 2, 3), L.ones(5, 3), L.zeros(3, 5))",
    "R = L.nn.functional.linear(L.ones(2, 1, 3), L.ones(2, 3), L.zeros(2, 2))",
    "L.manual_seed(0); m = L.nn.MultiheadAttention(4, 2); q = L.ones(3, 4)\n"
    "R = m(q, q, q, is_causal=True)",
    "L.manual_seed(0); m = L.nn.MultiheadAttention(4, 2, dropout=1.5); q = L.ones(3, 4)\n"
    "R = m(q, q, q, attn_mask=L.ones(3, 3, dtype=L.bool).triu(1), is_causal=True)",
    "R = L.autograd.functional.jacobian(lambda x: x ** 2, L.tensor(2.), "
    "strategy='forward-mode', vectorize=True)",
    "x = L.tensor([1., -2.], requires_grad=True) * 1; x.hypot_(L.tensor([1., 1.])); R = x",
    "y = L.tensor([-1., 2.]); y.sgn_(); z = L.tensor([1., 2.]); z.copysign_(-1.); R = y, z",
    "w = L.tensor([1., 2.]); w.xlogy_(2); v = L.tensor([1., 2.]); v.atan2_(w); R = w, v",
    "R = L.float64.is_complex, L.int64.is_signed, L.bool.is_signed, L.int64.to_real()",
]


@pytest.mark.parametrize("program", PROGRAMS)
def test_program_ends_as_in_torch(program: str) -> None:
    assert_as_torch(program)


@pytest.mark.parametrize("expr", ["L.amax(x, 0)", "L.nn.functional.selu(x)", "L.hypot(x, x)",
                                  "L.logical_and(x, x)", "x.cummax(0)", "L.aminmax(x)"])
def test_printed_form_matches_torch(expr: str) -> None:
    program = f"x = L.tensor([1., 3., 2.], requires_grad=True)\nR = repr({expr})"
    (_, want), (_, got) = run(torch, program), run(mt, program)
    assert got == want
