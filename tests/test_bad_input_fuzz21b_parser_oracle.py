"""Bad input found by issue #21's second fuzz (seeds 1101-1103) where minitorch raised torch's
exception type with other words, against live torch: the argument parser's positions (a
method does not count self, a keyword has none), its invalid-combination listings, Python's
binding errors in torch's words, and checks made in torch's order; and the spectral and
nuclear matrix norms, which minitorch lacked. Each case is a small program run on torch and
on minitorch (``L``); its outcome, ``R`` or the exception's type and message, must be equal.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from test_bad_input_fuzz21b_oracle import assert_as_torch

import minitorch as mt


@pytest.mark.parametrize("program", [
    "R = L.ones(3).unsafe_split(None)",
    "R = L.ones(3).unsafe_split([2, 2])",
    "R = L.chunk(L.ones(3), [1, 1], 1)",
    "R = L.ones(3).chunk([1, 1])",
    "R = L.chunk(L.ones(3), 2, dim=1.5)",
    "R = L.ones(3).masked_select(True)",
    "R = L.ones(5).sort(dim=None, descending=True, stable=True)",
    "R = L.ones(5).kthvalue(2.5)",
    "R = L.kthvalue(L.ones(5), 2.5)",
    "R = L.ones(5).topk(None)",
    "R = L.ones(5).cumsum(None, dtype=L.float32)",
    "R = L.softmax(L.ones(3), 'a', dtype=L.int64)",
    "R = L.log_softmax(L.ones(2, 3), (0, 1), dtype=L.float64)",
    "R = L.ones(3).log_softmax((0, 1))",
    "R = L.nn.functional.softmax(L.ones(3), 'a')",
    "R = L.linalg.vector_norm(L.ones(3), ord=None)",
    "R = L.linalg.vector_norm(L.ones(3), 'bad')",
    "R = L.ones(3, 2).scatter_add(1.5, L.tensor([[0, 1]]), L.ones(3, 3))",
    "R = L.ones(2, 3).mean((0, 1.5), False, dtype=L.int64)",
    "R = L.ones(2).view_as(L.ones(2).shape)",
    "R = L.ones(2).chunk(L.float32)",
])
def test_argument_positions_as_torch(program: str) -> None:
    """A refused argument's position counts from the first argument after ``self`` for a
    method, from the tensor for a function, and is left out for a keyword argument."""
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    "R = L.ones(2, 3).masked_fill(L.ones(3) > 0, None)",
    "R = L.ones(3).masked_fill(True, 2.5)",
    "R = L.ones(3).masked_fill([True, False, True], 1)",
    "R = L.ones(3).masked_fill(mask=[1], value=None)",
    "R = L.ones(3).masked_fill_(True, L.tensor(2.5))",
    "R = L.clamp(L.ones(3), min=0.0, max=L.ones(3))",
    "R = L.clamp(L.ones(3), None, 'a')",
    "R = L.ones(3).clamp_(2.5, L.ones(3))",
    "R = L.ones(3).clamp(min='a')",
    "R = L.where(L.ones(3) > 0, None, None)",
    "R = L.where([True], L.ones(2), 1.0)",
    "R = L.where(L.ones(3) > 0, L.ones(3), 'a')",
    "R = L.clamp_min(L.ones(2), 'a')",
    "R = L.ones(2).clamp_min(None)",
    "R = L.nn.functional.normalize(L.ones(2, 3), p=2.0, dim=1, eps=None)",
    "R = L.eye((2,), device='cpu')",
    "R = L.eye(2, 'a')",
    "R = L.eye((2,))",
    "R = L.ones(3).tensor_split([1.5, 1.5], -1)",
    "R = L.ones(3).tensor_split([1.5], dim=0)",
    "R = L.tensor_split(L.ones(3), 'a')",
    "R = L.randn([2], dtype='float32', requires_grad=True)",
    "R = L.arange((2,), device='cpu')",
    "R = L.eq(L.tensor(0), L.ones(3), alpha=2)",
    "R = L.eq(0.0, 0.0, alpha=True)",
    "R = L.ones(2).lt('a')",
    "R = L.ones(2).eq(np.ones(2))",
    "R = L.pow(L.ones(2), 'a')",
    "R = L.ones(2).pow(L.ones(2), zzz=1)",
    "R = L.remainder(False, L.tensor(-2), rounding_mode='bad')",
    "R = L.div(L.ones(2), L.ones(2), alpha=1)",
    "R = L.xlogy(L.ones(2), 2, alpha=1)",
    "R = L.fmod(1, 2, alpha=1)",
    "R = L.linalg.matrix_norm(L.eye(2), ord=None)",
])
def test_invalid_combinations_as_torch(program: str) -> None:
    """Arguments that no overload takes: torch lists the caller's types (keywords by name),
    and under each signature of that many arguments marks the ones that do not match."""
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    "R = L.full(2, 3, L.tensor(2), dtype=L.int64, requires_grad=True)",
    "R = L.ones(3).chunk(1, 2, 3)",
    "R = L.chunk(L.ones(3), 1, 2, 3)",
    "R = L.ones(3).kthvalue(1, 0, False, 3)",
    "R = L.eye(2, 3, 4)",
    "R = L.allclose(L.ones(3), L.ones(2), alpha=True)",
])
def test_python_binding_errors_in_torch_words(program: str) -> None:
    """Too many positional arguments, or an unknown keyword, as torch's parser says it."""
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    "R = L.nn.functional.adaptive_avg_pool1d(L.ones(5), (2, 0))",
    "R = L.nn.functional.adaptive_avg_pool1d(L.ones(1, 2, 5), (2, 3))",
    "R = L.nn.AdaptiveAvgPool1d((None, 2))(L.ones(1, 2, 5))",
    "R = L.nn.functional.adaptive_avg_pool1d(L.ones(1, 2, 5), (True,))",
    "R = L.nn.AdaptiveMaxPool2d((1,))(L.ones(1, 2, 0, 5))",
    "R = L.nn.functional.adaptive_max_pool2d(L.ones(5), -1, return_indices=True)",
    "R = L.nn.functional.adaptive_max_pool2d(L.ones(1, 2, 5, dtype=L.int64), -1)",
    "R = L.linalg.matrix_norm(L.eye(3) > 0, 'nuc', dim=(0, 0))",
    "R = L.log_softmax(L.ones(2, 3), (0, 1), dtype='float32')",
    "R = L.ones(3).masked_fill_(L.ones(3), L.tensor([1.0, 2.0, 3.0]))",
    "R = L.split(L.ones(3, 2), [1, 2], -1)",
    "R = L.nn.functional.log_softmax([1.0, -1.0])",
    "R = L.nn.Dropout(1, inplace=True)([1.0, 2.0])",
    "R = L.nn.AvgPool2d(2, 1, 1, True, True, divisor_override=1.5)(L.ones(1, 3, 4, 4))",
    "R = L.nn.functional.avg_pool2d(L.ones(1, 3, 4, 4), 2, ceil_mode=1)",
])
def test_checks_in_torch_order_as_torch(program: str) -> None:
    """Where several arguments are wrong, the one torch checks first is the one named."""
    assert_as_torch(program)


_MATRICES = ["[[2.0, 1.0], [1.0, 3.0]]", "[[0.0, 1.5], [1.0, 0.0]]",
             "[[1.0, -2.0, 0.5], [3.0, 4.0, -1.0]]",
             "[[[1.0, 2.0], [3.0, 4.0]], [[0.0, 1.0], [2.0, 0.5]]]"]


@pytest.mark.parametrize("matrix", _MATRICES)
@pytest.mark.parametrize("call", [
    "L.linalg.matrix_norm(A, ord={ord}, keepdim={keepdim})",
    "L.linalg.matrix_norm(A, ord={ord}, dim=(-1, -2), keepdim={keepdim})",
    "L.linalg.norm(A, ord={ord}, dim=(0, -1), keepdim={keepdim})",
])
@pytest.mark.parametrize("ord", ["2", "-2", "'nuc'"])
@pytest.mark.parametrize("keepdim", [False, True])
def test_spectral_and_nuclear_norms_as_torch(matrix: str, call: str, ord: str,
                                             keepdim: bool) -> None:
    """The largest, smallest or sum of the singular values: values, node and gradient."""
    assert_as_torch(f"A = L.tensor({matrix}, requires_grad=True)\n"
                    f"r = {call.format(ord=ord, keepdim=keepdim)}\n"
                    "(r * L.arange(1, r.numel() + 1).reshape(r.shape)).sum().backward()\n"
                    "R = (r, A.grad)")


@pytest.mark.parametrize("program", [
    "R = L.linalg.matrix_norm(L.zeros(2, 0, 0), ord=2)",
    "R = L.linalg.matrix_norm(L.zeros(2, 0, 3), ord=-2)",
    "R = L.linalg.matrix_norm(L.zeros(0, 3), ord='nuc')",
    "R = L.linalg.matrix_norm(L.ones(3), ord=2)",
    "R = L.linalg.matrix_norm(L.eye(3, dtype=L.int64), ord=2)",
    "R = L.linalg.matrix_norm(L.eye(3), ord=-2, dtype=L.float64)",
    "R = L.norm(L.ones(2, 3, 4), p='nuc', dim=(0, 2))",
    "R = L.norm(L.ones(3), p='nuc')",
    "R = L.ones(2, 3).norm(p='nuc', dim=(0, 1))",
])
def test_singular_value_norm_edges_as_torch(program: str) -> None:
    assert_as_torch(program)


@pytest.mark.parametrize("ord", ["nuc", 2, -2])
def test_singular_value_gradient_graph_as_torch(ord: object) -> None:
    """The spectral and nuclear norms differentiate through the whole SVD (torch's
    LinalgSvdBackward0), so a graph of their gradient gives torch's second derivative."""
    a = [[2.0, 1.0, 0.5], [1.0, 3.0, -1.0]]
    results = []
    for lib in (mt, torch):
        x = lib.tensor(a, dtype=lib.float64, requires_grad=True)
        g, = lib.autograd.grad(lib.linalg.matrix_norm(x, ord), x, create_graph=True)
        gg, = lib.autograd.grad(g.pow(2).sum() + g[0, 1], x)
        results.append((g.detach().numpy(), gg.numpy()))
    for mine, theirs in zip(*results):
        np.testing.assert_allclose(mine, theirs, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("program", [
    "R = L.linalg.svdvals(L.tensor([[2., 1.], [1., 3.]]))",
    "R = L.linalg.svdvals(L.ones(2, 3, 4, dtype=L.float64))",
    "R = L.linalg.svdvals(L.tensor([[float('inf'), 1.], [1., 1.]]))",
    "R = L.linalg.svdvals(L.tensor([[[1., 1.], [1., 1.]], [[float('nan'), 1.], [1., 1.]]]))",
    "R = L.linalg.svd(L.tensor([[float('nan'), 1.], [1., 1.]]))",
    "R = L.svd(L.tensor([[float('nan'), 1.], [1., 1.]]))",
    "R = L.linalg.svdvals(L.ones(3))",
    "R = L.linalg.svdvals(L.ones(2, 2, dtype=L.int64))",
    "R = L.linalg.svdvals(L.ones(2, 2, dtype=L.float16))",
    "R = L.linalg.svd(L.ones(2, 2, dtype=L.float16))",
    "R = L.svd(L.ones(2, 2, dtype=L.float16))",
    "R = L.linalg.svd(L.ones(2, 2), driver='gesvd')",
    "R = L.linalg.svdvals(L.ones(2, 2), driver=1)",
    "R = L.linalg.svdvals([[1.]])",
    "R = L.linalg.svdvals(L.ones(2, 2), 1)",
])
def test_svd_checks_as_torch(program: str) -> None:
    """LAPACK's failure on a NaN, float16 and ``driver=`` on the CPU are refused in torch's
    words (not numpy's); an infinity gives NaNs, as torch's."""
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    "R = L.nn.functional.embedding(L.tensor([0]), L.zeros(0, 3))",
    "R = L.nn.Embedding(1, 0)(L.tensor([-1]))",
    "R = L.nn.functional.embedding(L.tensor([[1, 9], [2, 3]]), L.zeros(5, 0))",
    "R = L.nn.Embedding(5, 3)(L.tensor([True, False]))",
    "R = L.nn.functional.embedding(L.tensor([1]), L.zeros(5, 0))",
])
def test_embedding_of_empty_weights_and_bool_indices_as_torch(program: str) -> None:
    """An empty weight's out-of-range index is refused by torch's index_select, in its words;
    bool indices are named by torch's CPUBoolType."""
    assert_as_torch(program)


@pytest.mark.parametrize("expression", ["2.5 // x", "x // 2", "x // x", "L.floor_divide(x, 2)",
                                        "x.floor_divide(x)", "x.detach() // x"])
def test_floor_divide_records_a_node_without_derivative_as_torch(expression: str) -> None:
    """torch records floor_divide of a tensor that requires grad by a NotImplemented node,
    which refuses the backward."""
    assert_as_torch("x = L.tensor([1.0, 2.0, -3.0], requires_grad=True)\n"
                    f"y = {expression}\n"
                    "R = (y, y.requires_grad, type(y.grad_fn).__name__)")
    assert_as_torch(f"x = L.tensor([1.0, 2.0, -3.0], requires_grad=True)\n({expression}).sum()"
                    ".backward()\nR = x.grad")


@pytest.mark.parametrize("program", [
    "R = L.nn.functional.pad(L.ones(1, 2, 2, 5), (2, 2, 2, 2), mode='reflect')",
    "R = L.nn.functional.pad(L.ones(1, 2, 2, 2), (2, 2, 2, 2), mode='reflect')",
    "R = L.nn.functional.pad(L.ones(1, 2, 3, 3, 3), (1, 1, 1, 1, 3, 3), mode='reflect')",
    "R = L.nn.functional.pad(L.ones(1, 0, 4), (1, 1, 1, 1), mode='reflect')",
    "R = L.nn.functional.pad(L.ones(1, 0, 4), (1, 1, 1, 1), mode='replicate')",
    "R = L.nn.functional.pad(L.ones(0, 2, 2, 4), (1, 1, 1, 1), mode='replicate')",
    "R = L.nn.functional.conv2d(L.ones(1, 3, 4, 4), L.ones(2, 3, 3, 3, 3), stride=2)",
    "R = L.nn.functional.conv_transpose2d(L.ones(1, 3, 4, 4), L.ones(3, 2, 3, 3, 3), stride=2)",
    "R = L.ones(2, 3).masked_fill(L.ones(0, dtype=L.bool), L.tensor([1.0, 2.0, 3.0]))",
    "R = L.ones(2, 3).masked_fill(L.ones(0, dtype=L.int64), L.tensor(1.0))",
    "R = L.nn.LayerNorm(2.5, eps='a')",
])
def test_padding_convolution_and_fill_checks_as_torch(program: str) -> None:
    assert_as_torch(program)
