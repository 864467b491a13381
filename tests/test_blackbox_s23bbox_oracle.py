"""Edge input met by the s23 black-box fuzz, against torch: the same result to the bit or the
same refusal.

A float written into an integer tensor is checked as torch's ``c10::overflows`` checks it,
comparing doubles: 2.0**63 equals int64's largest value as a double, so it passes and converts
to int64's minimum. ``unique(dim=)`` orders slices with NaN as torch's ``std::sort`` leaves
them (``<`` does not order NaN). ``std_mean``/``var_mean`` take the mean from torch's Welford
pass (an infinity followed by another element gives NaN). ``addbmm_`` writes into its input
as into an ``out=`` tensor, resizing one that only broadcasts to the result."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS, assert_as_torch

NAN, INF = float("nan"), float("inf")

CASES = [
    # a float past an integer type: refused unless it is 2.0**63 into int64 (its minimum)
    *(f"L.full((2,), {v!r}, dtype=L.{dt})" for v in (2.0**63, -2.0**63, 2.0**64, 2.0**31, INF)
      for dt in ("int64", "int32", "uint8")),
    "L.zeros(2, dtype=L.int64).fill_(2.0**63)", "L.zeros(2, dtype=L.int64).fill_(-2.0**63)",
    "L.zeros(2, dtype=L.int64).fill_(float('nan'))", "L.zeros(2, dtype=L.int64).fill_(1e19)",
    "L.zeros(2, dtype=L.int32).fill_(2.0**31)", "L.zeros(2, dtype=L.int16).fill_(-32768.5)",
    "L.zeros(2, dtype=L.int64).masked_fill(L.tensor([True, False]), 2.0**63)",
    "L.zeros(2, dtype=L.int64).index_fill(0, L.tensor([1]), 2.0**63)",
    "L.full_like(L.zeros(2, dtype=L.int64), 2.0**63)",
    "L.zeros(2, dtype=L.int64).new_full((3,), 2.0**63)",
    "L.tensor([2.0**63, 1], dtype=L.int64)", "L.tensor(-2.0**63, dtype=L.int64)",
    "L.tensor([[1.5, 2.0**63]], dtype=L.int64)", "L.tensor([2.0**64], dtype=L.int64)",
    "L.zeros(2, 2, dtype=L.int64).fill_diagonal_(2.0**63)",
    # unique along a dim, NaN in the slices
    "L.unique(L.tensor([NAN, 0.91, -1.95, 0.99]), dim=-1, return_inverse=True)",
    "L.unique(L.tensor([[1., NAN, 1.], [NAN, NAN, NAN]]), dim=1, return_counts=True)",
    "L.unique(L.tensor([[NAN, 2.], [NAN, 1.], [0., 1.]]), dim=0, return_inverse=True)",
    # the Welford mean
    "L.std_mean(L.tensor([1., INF, 2.]))", "L.std_mean(L.tensor([1., 2., INF]))",
    "L.var_mean(L.tensor([[1., INF], [2., 3.]]), dim=1)",
    "L.var_mean(L.tensor([[1., INF], [2., 3.]]), dim=0, keepdim=True)",
    "L.var_mean(L.tensor([0.0, -3.0, 3.0, 0.0, 2.0, -2.0], dtype=L.float64))",
    "L.std_mean(L.tensor(INF))", "L.var_mean(L.zeros(0, 3), dim=1)",
    # diff with n=0 copies before reading dim; matrix_exp takes 1 by 1 and empty float16
    "L.diff(L.ones(2, 3), n=0, dim=5)", "L.diff(L.ones(2, 3), n=0, dim=5, prepend=L.ones(2, 1))",
    "L.diff(L.ones(2, 3), n=0, dim=1, prepend=L.ones(2, 1))", "L.diff(L.tensor(1.), n=0)",
    "L.linalg.matrix_exp(L.full((2, 1, 1), 2.0, dtype=L.float16))",
    "L.matrix_exp(L.full((1, 1), -7.5, dtype=L.float16))",
    "L.linalg.matrix_exp(L.zeros(0, 3, 3, dtype=L.float16))",
    "L.linalg.matrix_exp(L.zeros(3, 2, dtype=L.float16))",
    "L.linalg.matrix_exp(L.zeros(1, dtype=L.float16))",
    # full's size is a list of ints: a bare int is refused before the value
    "L.full(3, 'a', dtype=L.uint8)", "L.full([3], 'a')", "L.full(size=3, fill_value='a')",
    # out= on products, shape, linalg and search ops: resized, or out's dtype refused
    *(f"L.{op}, out=L.zeros({shape}, dtype=L.{dt}))" for op in (
        "mm(L.ones(2, 3), L.ones(3, 2)", "matmul(L.ones(2, 3), L.ones(3))", "addmm(L.ones(2), "
        "L.ones(2, 3), L.ones(3, 2)", "outer(L.ones(2), L.arange(3.)", "kron(L.eye(2), L.ones(2)",
        "cat([L.ones(2), L.zeros(1)]", "stack([L.ones(2), L.zeros(2)], 1",
        "take(L.eye(3), L.tensor([0, 4])", "index_select(L.eye(3), 0, L.tensor([2])",
        "masked_select(L.eye(2), L.eye(2) > 0", "tensordot(L.ones(2, 2), L.ones(2, 2)",
        "dot(L.ones(3), L.ones(3)", "tril(L.ones(3, 3)",
        "all(L.eye(3), 1", "any(L.eye(3)", "argmax(L.eye(3), 0",
        "isin(L.arange(3.), L.ones(1)", "nonzero(L.eye(2)", "quantile(L.arange(3.), 0.5",
        "histc(L.arange(3.), bins=2", "linalg.inv(L.eye(2)", "linalg.det(L.eye(2)",
        "linalg.vector_norm(L.ones(3)", "linalg.norm(L.ones(2, 2)", "linalg.vecdot(L.ones(2, 2), "
        "L.ones(2, 2)", "linalg.multi_dot([L.eye(2), L.eye(2)]", "linalg.pinv(L.eye(2)")
      for shape, dt in (("0", "float32"), ("(2, 2)", "float32"), ("0", "float64"),
                        ("0", "int64"), ("3", "bool"), ("0", "uint8"))),
    "L.mm(L.ones(1, 1, requires_grad=True), L.ones(1, 1), out=L.zeros(0))",
    "L.cat([L.ones(1, requires_grad=True)], out=L.zeros(0))",
    "L.linalg.inv(L.eye(1, requires_grad=True), out=L.zeros(0))",
    "L.bincount(L.tensor([8, 7, 2**63 - 1]))",
    # searchsorted/bucketize out=: int64, or int32 with out_int32; no autograd refusal
    *(f"L.searchsorted(L.tensor([0., 1.]), L.tensor([0.5, 2.]), out_int32={flag}, "
      f"out=L.zeros(0, dtype=L.{dt}))" for flag in (False, True)
      for dt in ("int64", "int32", "float64")),
    "L.bucketize(L.tensor([0.5, -1]), L.tensor([0., 1.]), out=L.zeros(2, dtype=L.int32))",
    "L.bucketize(0.5, L.tensor([0., 1.]), out=L.zeros(0, dtype=L.int64))",
    "L.searchsorted(L.tensor([0., 1.], requires_grad=True), L.tensor([0.5]), "
    "out=L.zeros(0, dtype=L.int64))",
    "L.argmax(L.tensor([0., 1.], requires_grad=True), 0, out=L.zeros(0, dtype=L.int64))",
    # xlogy: NaN in y wins over x == 0; tensordot sums a size-1 dim keeping an int dtype
    "L.xlogy(L.tensor([0., 0, 1]), L.tensor([NAN, 0., NAN]))",
    "L.xlogy(L.tensor([0, 0], dtype=L.int8), L.tensor([[NAN, 1.]], dtype=L.float64))",
    "L.xlogy(0, L.tensor([NAN]))", "L.xlogy(L.tensor([0.]), NAN)",
    "L.tensordot(L.tensor([1], dtype=L.int32), L.tensor([2], dtype=L.int32), dims=1)",
    "L.tensordot(L.tensor([[1], [3]], dtype=L.int16), L.tensor([[2, 5]], dtype=L.int16), dims=1)",
    # diff(out=) narrows from 1 (an empty dim is refused); cross has no bool kernel
    "L.diff(L.tensor([]), out=L.zeros(0))", "L.diff(L.zeros(2, 0), out=L.zeros(0))",
    "L.diff(L.zeros(2, 0), dim=0, out=L.zeros(0))", "L.diff(L.tensor([1.]), n=2, out=L.zeros(0))",
    "L.diff(L.tensor([]), prepend=L.ones(1), out=L.zeros(0))",
    "L.cross(L.eye(3, dtype=L.bool), L.eye(3, dtype=L.bool), dim=0)",
    "L.linalg.cross(L.eye(3, dtype=L.bool), L.eye(3, dtype=L.bool))",
    # std and var compute in a floating out's dtype; any and all write bool or uint8
    *(f"L.{op}(L.tensor([[1., 2, 4], [3, 5, 9]], dtype=L.{a}), 0, out=L.zeros(0, dtype=L.{b}))"
      for op in ("std", "var") for a in ("float16", "float32", "int64")
      for b in ("float16", "float64", "int64")),
    "L.any(L.tensor([[0, 8], [5, 0]], dtype=L.uint8), 0, out=L.zeros(0, dtype=L.bool))",
    "L.all(L.eye(2), 1, out=L.zeros(0, dtype=L.uint8))",
    # addbmm_ resizes an input that broadcasts to the result
    *(f"{x}.addbmm_(L.ones(2, 3, 4), L.ones(2, 4, 3), beta=2)" for x in (
        "L.tensor([1., 2., 3.])", "L.tensor([[1.], [2.], [3.]])", "L.tensor([[1., 2., 3.]])",
        "L.tensor(5.)", "L.tensor([7.])", "L.ones(2, 3)", "L.ones(0)", "L.ones(9)")),
]


@pytest.mark.parametrize("code", CASES)
def test_edge_case_as_torch(code: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_as_torch(lambda L: eval(code, {"L": L, "NAN": NAN, "INF": INF}))


@SETTINGS
@given(st.lists(st.sampled_from([NAN, 0.0, 1.0, 2.0]), min_size=2, max_size=40),
       st.sampled_from([1, 2, 4]), st.booleans())
def test_unique_dim_with_nan_as_torch(values: list, width: int, counts: bool) -> None:
    rows = values[:len(values) // width * width]
    assert_as_torch(lambda L: L.unique(L.tensor(rows).reshape(-1, width), dim=0,
                                       return_inverse=True, return_counts=counts))


@SETTINGS
@given(st.lists(st.sampled_from([INF, -INF, 1.0, -2.5, 0.1, 3.0]), min_size=1, max_size=24),
       st.sampled_from([(-1,), (2, -1), (-1, 2)]), st.sampled_from([None, 0, -1]),
       st.sampled_from(["float32", "float64", "float16"]))
def test_welford_mean_as_torch(values: list, shape: tuple, dim: int | None,
                               dtype: str) -> None:
    if -1 not in shape or len(values) % max(abs(s) for s in shape):
        shape = (-1,)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_as_torch(lambda L: L.var_mean(
            L.tensor(values, dtype=getattr(L, dtype)).reshape(shape), dim=dim))
