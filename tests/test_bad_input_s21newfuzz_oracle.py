"""Bad input and edge input met by the s21 black-box fuzz of linalg, reductions, scans, shape
ops and random fills, against torch: the same refusal (type and message) or the same result.

Each case is one call written for either library (``L``); a refusal must be torch's, and a
result must match to the bit (dtype, shape, requires_grad, values)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS, assert_same_error, numpy_of, raised_by

import minitorch

CASES = [
    # torch.unflatten (the parser) reads dim's type and range before refusing no sizes;
    # the method (Python) refuses no sizes first
    "L.unflatten(L.zeros(2, 0), 1.0, ())",
    "L.unflatten(L.zeros(2, 0), -3, ())",
    "L.unflatten(L.zeros(2, 0), 1, ())",
    "L.unflatten(L.zeros(2, 0), 1, None)",
    "L.unflatten(L.tensor(1.0), 0, ())",
    "L.unflatten(L.zeros(2, 6), 1, (3, -1))",
    "L.zeros(2, 0).unflatten(-3, ())",
    "L.zeros(2, 0).unflatten(1.0, ())",
    # linalg.vecdot refuses a non-floating x before comparing the dtypes
    "L.linalg.vecdot(L.ones(3, dtype=L.int64), L.ones(3, dtype=L.int64))",
    "L.linalg.vecdot(L.ones(3, dtype=L.int64), L.ones(2))",
    "L.linalg.vecdot(L.ones(3, dtype=L.bool), L.ones(3, dtype=L.bool))",
    "L.linalg.vecdot(L.ones(3), L.ones(3, dtype=L.int64))",
    "L.linalg.vecdot(L.ones(2, 3), L.ones(3))",
    # matrix_power takes float16 (matmuls); only a negative power meets inv's refusal
    "L.matrix_power(L.tensor([[1.5, 2.0], [0.25, -1.0]], dtype=L.float16), 0)",
    "L.matrix_power(L.tensor([[1.5, 2.0], [0.25, -1.0]], dtype=L.float16), 1)",
    "L.matrix_power(L.tensor([[1.5, 2.0], [0.25, -1.0]], dtype=L.float16), 2)",
    "L.linalg.matrix_power(L.tensor([[1.5, 2.0], [0.25, -1.0]], dtype=L.float16), -1)",
    "L.matrix_power(L.ones(2, 3, dtype=L.float16), 2)",
    "L.matrix_power(L.ones(2, 2, dtype=L.int64), -1)",
    "L.linalg.cond(L.eye(2, dtype=L.float16), 'fro')",
    "L.linalg.cond(L.eye(2, dtype=L.float16), 1)",
    # a sampling kernel is dispatched on dtype only when there is an element to fill
    "L.zeros(0, dtype=L.int64).normal_(0, 1)",
    "L.zeros(2, 0, dtype=L.bool).normal_()",
    "L.zeros(2, dtype=L.int64).normal_()",
    "L.zeros(0, dtype=L.int64).normal_(0, -1)",
    "L.zeros(0, dtype=L.bool).log_normal_()",
    "L.zeros(2, dtype=L.bool).log_normal_()",
    "L.zeros(0, dtype=L.bool).geometric_(0.5)",
    "L.zeros(2, dtype=L.bool).geometric_(0.5)",
    "L.zeros(0, dtype=L.int64).uniform_()",
    # amax/amin of an empty input: each dim as given is checked for a zero size, in order,
    # before any repeat
    "L.amax(L.zeros(0, 3), [0, 0])",
    "L.amax(L.zeros(0, 3), [1, 1])",
    "L.amax(L.zeros(0, 3), [5, 0])",
    "L.amax(L.zeros(0, 3), [0, 5])",
    "L.amin(L.zeros(0, 3), -2)",
    "L.amin(L.zeros(0, 3), (-2, 1), keepdim=True)",
    "L.amax(L.zeros(0, 3), [])",
    "L.amax(L.zeros(0, 3), 1, keepdim=True)",
    "L.amax(L.zeros(()), [0])",
    "L.amax(L.zeros(()), [0, 0])",
    "L.amax(L.zeros(2, 3), [0, 0])",
    # cummax/cummin: an empty input is returned before dim's range; a 0-d one has its words
    "L.cummax(L.zeros(0, 3), 5)",
    "L.cummin(L.zeros(0, dtype=L.int8), -2)",
    "L.cummax(L.zeros(2, 3), 5)",
    "L.cummin(L.tensor(3.0), 1)",
    "L.cummax(L.tensor(3.0), -2)",
    "L.cummax(L.tensor(3.0), -1)",
    # roll: an empty input is returned before dims' range, after their count
    "L.roll(L.zeros(0, 3), 1, -3)",
    "L.roll(L.zeros(0, 3), (1, 2), (5, 6))",
    "L.roll(L.zeros(0, 3), (1, 2), (0,))",
    "L.roll(L.zeros(2, 3), 1, 5)",
    # tensordot: each pair of dims wrapped (a 0-d tensor has none) and sized in turn; the
    # message names the dims as given; dims=0 of 0-d tensors is an outer product
    "L.tensordot(L.tensor(1.0), L.zeros(3), dims=([0], [0]))",
    "L.tensordot(L.zeros(3), L.tensor(1.0), dims=([-1], [0]))",
    "L.tensordot(L.zeros(3), L.zeros(2), dims=([-1], [-1]))",
    "L.tensordot(L.zeros(3, 2), L.zeros(2, 4), dims=([-2, 0], [0, 1]))",
    "L.tensordot(L.zeros(2, 0), L.zeros(2, 3, 4), dims=1)",
    "L.tensordot(L.zeros(3), L.zeros(2), dims=([0], [5]))",
    "L.tensordot(L.tensor(1.5), L.tensor([2.0, 3.0]), dims=0)",
    "L.tensordot(L.tensor(1.5), L.tensor(2.0), dims=0)",
    "L.tensordot(L.ones(3, 1), L.ones(3, 2), dims=([0, 1], [0, 1]))",
    # movedim of a 0-d tensor: torch's alias, once the dims are checked
    "L.movedim(L.tensor(2.0), 0, -1)",
    "L.movedim(L.tensor(2.0), (), ())",
    "L.movedim(L.tensor(2.0), (0, 0), (0, 0))",
    "L.movedim(L.tensor(2.0), 0, 1)",
    # var/std(_mean) with unbiased and keepdim but no dim match none of torch's overloads
    "L.std(L.zeros(3), unbiased=False, keepdim=False)",
    "L.var(L.zeros(3), keepdim=True, unbiased=True)",
    "L.zeros(3).var(keepdim=False, unbiased=True)",
    "L.std_mean(L.zeros(3), unbiased=True, keepdim=False)",
    "L.var_mean(L.zeros(3, dtype=L.uint8), unbiased=False, keepdim=False)",
    "L.std_mean(L.zeros(3), dim=True)",
    "L.std(L.zeros(3), dim=None, unbiased=False, keepdim=False)",
    "L.var_mean(L.tensor([1.0, 4.0]), unbiased=False)",
    "L.std_mean(L.tensor([1.0, 4.0]), 0, keepdim=True, unbiased=False)",
    # linalg.pinv: torch's four overloads (atol, rtol, rcond, hermitian) and their checks
    "L.linalg.pinv(L.tensor([[2.0, 1.0], [1.0, 3.0]]), 0.1)",
    "L.linalg.pinv(L.tensor([[2.0, 1.0], [1.0, 3.0]]), rcond=0.5)",
    "L.linalg.pinv(L.tensor([[2.0, 1.0], [1.0, 3.0]]), L.tensor(0.5))",
    "L.linalg.pinv(L.tensor([[2.0, 1.0], [1.0, 3.0]]), atol=2.5)",
    "L.linalg.pinv(L.tensor([[2.0, 1.0], [1.0, 3.0]], dtype=L.float64), atol=L.tensor(2.5))",
    "L.linalg.pinv(L.tensor([[2.0, 1.0], [1.0, 3.0]]), atol=L.tensor([0.1, 2.5]))",
    "L.linalg.pinv(L.tensor([[2.0, 1.0], [1.0, 3.0]]), atol=0.0, rtol=0.6)",
    "L.linalg.pinv(L.tensor([[2.0, 5.0], [1.0, 3.0]]), hermitian=True)",
    "L.linalg.pinv(L.tensor([[2.0, 5.0], [1.0, -3.0]]), 0.1, True)",
    "L.linalg.pinv(L.zeros(2, 0, 0), atol=0.1, hermitian=True)",
    "L.linalg.pinv(L.ones(2, 3), hermitian=True)",
    "L.linalg.pinv(L.eye(2), tol=0.1)",
    "L.linalg.pinv(L.eye(2), rcond=0.1, rtol=0.2)",
    "L.linalg.pinv(L.eye(2), 0.1, atol=0.2)",
    "L.linalg.pinv(L.ones(3), atol=0.1)",
    "L.linalg.pinv(L.ones(3), atol=0.1, rtol=0.1)",
    "L.linalg.pinv(L.ones(2, 2, dtype=L.int64), atol=0.1)",
    "L.linalg.pinv(L.ones(2, 2, dtype=L.float16), atol=L.tensor(0.1))",
    "L.pinverse(L.tensor([[1.0, 2.0], [2.0, 4.0001]]), 1e-3)",
    # eigh: LAPACK's infos become torch's error (first failing batch element, its code); a
    # NaN that LAPACK gets through gives its values, as torch's
    "L.linalg.eigh((lambda a: a @ a.mT)(L.tensor([[4.0, 3.82, float('inf')], [0.39, 4.0, -3.0],"
    " [5.0, 2.0, -2.83]], dtype=L.float64)))",
    "L.linalg.eigh((lambda a: a @ a.mT)(L.tensor([[[0.0, -3.76, -1.0], [float('inf'), 1.49, -4.0],"
    " [0.0, 2.0, -4.0]], [[-0.05, -1.0, 1.94], [-2.04, -2.0, -1.0], [-4.0, 1.5, 4.0]]])))",
    "L.linalg.eigvalsh(L.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], [[5.0, 5.0,"
    " float('nan')], [0.0, -2.0, -2.74], [-3.04, float('inf'), -0.96]]], dtype=L.float64))",
    "L.linalg.eigh(L.tensor([[[1.0, 2.0], [2.0, 1.0]], [[float('nan'), 0.0], [0.0, 1.0]]]))",
    "L.linalg.eigvalsh(L.tensor([[[1.0, 2.0], [2.0, 1.0]], [[float('nan'), 0.0], [0.0, 1.0]]]))",
    # lstsq's values-returning drivers on empty matrices
    "L.linalg.lstsq(L.zeros((1, 2, 0, 0)), L.zeros((1, 2, 0, 2)), driver='gelsd')",
    "L.linalg.lstsq(L.zeros((2, 3, 0)), L.zeros((2, 3, 2)), driver='gelss')",
    # a descending sort of the smallest integer (whose negation overflows to itself)
    "L.sort(L.tensor([-128, 5, 3, -128, 127], dtype=L.int8), descending=True)",
    "L.sort(L.tensor([-2**63, 5]), descending=True, stable=True)",
    "L.topk(L.tensor([-128, 5, 3], dtype=L.int8), 2)",
    "L.argsort(L.tensor([[-32768, 0, 7]], dtype=L.int16), dim=1, descending=True)",
    "L.sort(L.zeros((0, 3), dtype=L.uint8), dim=-2, descending=True, stable=True)",
    # slogdet's sign is torch's sign kernel of U's diagonal: 0 (or -0) for a NaN
    "L.linalg.slogdet(L.tensor([[float('nan'), 1.0], [1.0, 2.0]]))",
    "L.linalg.slogdet(L.tensor([[-3.0, 5.0, -3.0], [-1.0, float('nan'), 4.0], [0.73, 1.38, 4.0]],"
    " dtype=L.float64))",
    "L.linalg.slogdet(L.tensor([[[float('inf'), 0.0, 2.92], [-1.34, 1.23, -3.0],"
    " [1.91, -3.0, 0.64]], [[4.0, -3.78, -2.0], [float('nan'), -3.9, -2.0], [2.09, 0.25, 3.0]]],"
    " dtype=L.float64))",
    # linalg.vander refuses float16 as torch's kernel does
    "L.linalg.vander(L.tensor([1, 2, 3], dtype=L.float16))",
    "L.linalg.vander(L.tensor([], dtype=L.float16))",
    "L.linalg.vander(L.tensor([1, 2], dtype=L.int16))",
    # lstsq: the driver's name after the shapes and dtypes; gels's infos as torch's error
    "L.linalg.lstsq(L.ones(2, 2), L.ones(3, 1), driver='bad')",
    "L.linalg.lstsq(L.ones(2), L.ones(3, 1), driver='bad')",
    "L.linalg.lstsq(L.ones(2, 2), L.ones(2, 1, dtype=L.float64), driver='bad')",
    "L.linalg.lstsq(L.ones(2, 2, dtype=L.int64), L.ones(2, 1, dtype=L.int64), driver='bad')",
    "L.linalg.lstsq(L.ones(2, 2), L.ones(2, 1), driver=3)",
    "L.linalg.lstsq(L.ones(2, 2), L.ones(2, 1), None, driver='gels')",
    "L.linalg.lstsq(L.stack([L.eye(2), L.ones(2, 2)]), L.ones(2, 2, 1), driver='gels')",
    "L.linalg.lstsq(L.zeros(3, 2, dtype=L.float64), L.ones(3, 1, dtype=L.float64), driver='gels')",
    # multi_dot checks its two ends before the tensors between them
    "L.linalg.multi_dot([L.ones(3, 1), L.ones(2, 1, 3), L.ones(2, 3, 4)])",
    "L.linalg.multi_dot([L.ones(3, 1), L.ones(2, 1, 3), L.ones(3, 4)])",
    "L.linalg.multi_dot([L.ones(3), L.ones(3, 3), L.ones(3, 4, 1)])",
    # unique_consecutive's dim as unique's: none for a 0-d tensor, no other empty dim
    "L.unique_consecutive(L.tensor(3), dim=1)",
    "L.unique_consecutive(L.tensor(True), return_counts=True, dim=0)",
    "L.unique_consecutive(L.zeros((0, 3)), dim=1)",
    "L.unique_consecutive(L.zeros((2, 0)), dim=-2)",
    "L.unique_consecutive(L.zeros((0, 0)), dim=0)",
    "L.unique_consecutive(L.zeros((0, 3)), dim=0)",
    "L.unique_consecutive(L.zeros((2, 3)), dim=1.0)",
    "L.unique_consecutive(L.tensor([[1, 1], [1, 1], [2, 2]]), return_inverse=True, dim=0)",
    # tile of a 0-d tensor by no counts
    "L.tile(L.tensor(5), ())",
    "L.tile(L.tensor([[5, 6]]), (2,))",
    # median and searchsorted dispatch no kernel (so refuse no dtype) for an empty input
    "L.median(L.zeros((0,), dtype=L.bool))",
    "L.nanmedian(L.zeros((0, 2), dtype=L.bool))",
    "L.median(L.zeros((2,), dtype=L.bool))",
    "L.median(L.zeros((0,), dtype=L.int64))",
    "L.searchsorted(L.zeros((2,), dtype=L.bool), L.zeros((0, 3), dtype=L.bool))",
    "L.searchsorted(L.zeros((0,), dtype=L.bool), L.zeros((0,), dtype=L.bool), out_int32=True)",
    "L.searchsorted(L.zeros((2,), dtype=L.bool), L.tensor(True))",
    # torch's older cholesky returns an empty input's like before any check
    "L.cholesky(L.zeros((0, 1), dtype=L.int64))",
    "L.cholesky(L.zeros((2, 0)), upper=True)",
    "L.cholesky(L.ones(2, 3))",
    # cholesky_inverse: an exact zero on the factor's diagonal is potri's singular matrix
    "L.cholesky_inverse(L.tensor([[0.0]], dtype=L.float64))",
    "L.cholesky_inverse(L.tensor([[[1.0, 0.0], [2.0, 0.0]], [[1.0, 0.0], [2.0, 1.0]]]))",
    "L.cholesky_inverse(L.tensor([[0.0, 0.0], [2.0, 1.0]]), upper=True)",
    "L.cholesky_inverse(L.tensor([[1.0, 0.0], [2.0, float('nan')]]))",
    "L.cholesky_inverse(L.zeros(2, 0, 0))",
    # pinv of matrices with no singular value (one side empty)
    "L.zeros((0, 2), dtype=L.float64).pinverse()",
    "L.linalg.pinv(L.zeros((3, 0, 2)), atol=0.5)",
    # randperm refuses a permutation its dtype cannot hold
    "L.randperm(129, dtype=L.int8)",
    "L.randperm(257, dtype=L.uint8)",
    "L.randperm(32769, dtype=L.int16)",
    "L.randperm(2050, dtype=L.float16)",
    "L.randperm(2**24 + 2, dtype=L.float32)",
    "L.randperm(0, dtype=L.uint8)",
    "L.randperm(-1, dtype=L.int8)",
    "L.randperm(300, dtype=L.bool)",
    # rot90 reads the dims' ranges before comparing them
    "L.rot90(L.ones(3, 3), 1, (-1, -3))",
    "L.rot90(L.ones(3, 3, 3), 1, (4, 4))",
    "L.rot90(L.ones(3, 3), 1, (0, -2))",
    "L.rot90(L.ones(3, 3), 1, (1, 1))",
    # matrix_rank: the dtype is the kernels' to refuse when tolerances are given
    "L.linalg.matrix_rank(L.ones(2, 2, dtype=L.float16), tol=1.0)",
    "L.linalg.matrix_rank(L.ones(2, 2, dtype=L.int64), tol=1.0)",
    "L.linalg.matrix_rank(L.ones(2, 2, dtype=L.float16), rtol=1.0)",
    "L.linalg.matrix_rank(L.ones(2, 2, dtype=L.float16), 1.0, True)",
    "L.linalg.matrix_rank(L.ones(2, 2, dtype=L.float16), atol=1.0)",
    "L.linalg.matrix_rank(L.ones(2, 2, dtype=L.float16), hermitian=True)",
    # bernoulli_ with a tensor of probabilities checks them as bernoulli does (if it fills)
    "L.zeros(3).bernoulli_(L.tensor([0.5, 2.0, 0.0]))",
    "L.zeros(3).bernoulli_(L.tensor([0.5, float('nan'), 0.0]))",
    "L.zeros(3, dtype=L.int64).bernoulli_(L.tensor([-0.5]))",
    "L.zeros(3).bernoulli_(L.tensor([1, 0, 2]))",
    "L.zeros(0).bernoulli_(L.tensor([2.0]))",
    "L.zeros(3).bernoulli_(L.tensor([0.5, 2.0]))",
    "L.zeros(2, 3).bernoulli_(L.tensor([1.0, 0.0, 1.0]))",
    # eigh of empty matrices of any dtype: no kernel runs
    "L.linalg.eigvalsh(L.zeros((1, 2, 0, 0), dtype=L.float16))",
    "L.linalg.eigh(L.zeros((0, 0), dtype=L.int64))",
    "L.linalg.eigh(L.zeros((3, 0, 0), requires_grad=True))",
    "L.linalg.eigvalsh(L.zeros((2, 2), dtype=L.float16))",
    # cumsum/cumprod of a 0-d tensor into bool is a copy, not a scan
    "L.cumsum(L.tensor(False), -1, dtype=L.bool)",
    "L.cumprod(L.tensor(3.5), 0, dtype=L.bool)",
    "L.cumsum(L.tensor([False]), -1, dtype=L.bool)",
    "L.cumsum(L.tensor(3.5, requires_grad=True), 0, dtype=L.bool)",
]


def assert_bitwise(got, want) -> None:
    """Tensors equal to the bit: dtype, shape, requires_grad, values (nan where torch's)."""
    assert str(got.dtype) == str(want.dtype) and tuple(got.shape) == tuple(want.shape)
    assert got.requires_grad == want.requires_grad
    np.testing.assert_array_equal(numpy_of(got), numpy_of(want))


def _outcome(code: str, L):
    return eval(code, {"L": L})


@pytest.mark.parametrize("code", CASES)
def test_same_refusal_or_result(code):
    want = raised_by(lambda L: _outcome(code, L), torch)
    if want is not None:
        assert_same_error(raised_by(lambda L: _outcome(code, L), minitorch), want)
        return
    got, expected = _outcome(code, minitorch), _outcome(code, torch)
    if isinstance(expected, tuple):
        for g, e in zip(got, expected, strict=True):
            assert_bitwise(g, e)
    else:
        assert_bitwise(got, expected)


def test_empty_scans_keep_their_graph():
    for L in (torch, minitorch):
        x = L.zeros(0, 3, requires_grad=True)
        assert L.cummax(x, 4).values.grad_fn.name() == "CummaxBackward0"
        assert L.roll(x, (1, 2), (5, 6)).grad_fn._saved_dims == (5, 6)
        scalar = L.tensor(2.0, requires_grad=True)
        assert L.movedim(scalar, 0, 0).grad_fn.name() == "AliasBackward0"


@pytest.mark.parametrize("shape, upper", [((2, 0, 3), False), ((2, 3, 0), True),
                                          ((2, 0, 0), False), ((0,), False)])
def test_backward_of_older_cholesky_of_empty_inputs(shape, upper):
    def run(L):
        x = L.zeros(shape, requires_grad=True)
        L.cholesky(x, upper=upper).sum().backward()
        return x.grad

    want = raised_by(run, torch)
    if want is not None:
        assert_same_error(raised_by(run, minitorch), want)
    else:
        assert_bitwise(run(minitorch), run(torch))


@SETTINGS
@given(st.lists(st.integers(-4, 4), min_size=0, max_size=3), st.booleans())
def test_amax_of_empty_inputs(dims, keepdim):
    code = f"L.amax(L.zeros(0, 2, 3), {dims!r}, keepdim={keepdim})"
    test_same_refusal_or_result(code)


@SETTINGS
@given(st.integers(1, 3), st.sampled_from([{}, {"atol": 0.5}, {"rtol": 0.3}, {"hermitian": True},
                                           {"atol": 0.4, "hermitian": True}]),
       st.integers(0, 2**31 - 1))
def test_pinv_values_and_gradients(n, options, seed):
    a = np.random.default_rng(seed).standard_normal((2, n, n))
    got, want = minitorch.tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)
    mine, theirs = minitorch.linalg.pinv(got, **options), torch.linalg.pinv(want, **options)
    assert_bitwise(mine, theirs)
    assert mine.grad_fn.name() == theirs.grad_fn.name()
    (mine * mine).sum().backward()
    (theirs * theirs).sum().backward()
    np.testing.assert_allclose(numpy_of(got.grad), numpy_of(want.grad), rtol=1e-7, atol=1e-9)


@SETTINGS
@given(st.sampled_from(["int8", "int16", "int32", "int64", "uint8", "bool"]),
       st.lists(st.integers(0, 4), min_size=1, max_size=6))
def test_descending_sort_of_integers_at_their_limits(dtype, picks):
    limits = {"int8": (-128, 127), "int16": (-32768, 32767), "int32": (-2**31, 2**31 - 1),
              "int64": (-2**63, 2**63 - 1), "uint8": (0, 255), "bool": (0, 1)}[dtype]
    values = [(limits[0], limits[1], 0, 1, limits[0] + 1)[p] for p in picks]
    if dtype == "bool":
        values = [bool(v % 2) for v in values]
    code = f"L.sort(L.tensor({values!r}, dtype=L.{dtype}), descending=True, stable=True)"
    test_same_refusal_or_result(code)
