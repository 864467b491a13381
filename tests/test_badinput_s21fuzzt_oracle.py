"""Fuzz s21 fuzzt (tensor API, seeds 21001 and 21002): arguments torch takes or refuses
otherwise than minitorch did. Each expression runs under torch and minitorch (``L``): the
same exception type and message, or a result of the same dtype, shape (and values, where
they are not random)."""

from __future__ import annotations

import warnings

import pytest
import torch

import minitorch as mt
from tests.oracle import assert_as_torch, assert_exact, assert_same_error, raised_by

RANDOM = ("normal_", "log_normal_", "bernoulli", "geometric_", "exponential_", "random_")


def _same_kind(got: mt.Tensor, want: torch.Tensor) -> None:
    """A random result: torch's dtype and shape, its values drawn from another generator."""
    assert (str(got.dtype), tuple(got.shape)) == (str(want.dtype), tuple(want.shape))


CASES = [
    # copy_ takes torch's non_blocking (a bool) by position or keyword
    "L.zeros(3, 3).copy_(L.ones(1, dtype=L.int8), non_blocking=1)",
    "L.zeros(3, 3).copy_(L.ones(1, dtype=L.int8), non_blocking=True)",
    "L.zeros(3, 3).copy_(L.ones(1, dtype=L.int8), True)",
    "L.zeros(3, 3).copy_(L.ones(1), None)",
    # promote_types reads Python's types as dtypes, as every dtype argument
    "L.promote_types(int, L.float32)", "L.promote_types(L.bool, bool)",
    "L.promote_types(L.int8, float)", "L.promote_types(L.bool, 'a')",
    # multi_dot's (and chain_matmul's) dtype message names C++ types
    "L.linalg.multi_dot([L.zeros(2, 3, dtype=L.uint8), L.zeros(3, 2, dtype=L.int16)])",
    "L.chain_matmul(L.zeros(2, 3), L.zeros(3, 2, dtype=L.float64))",
    # cummax/cummin: an empty tensor's results come before the dim is wrapped; a 0-d
    # tensor's dim is checked in the op's words
    "L.zeros(0, dtype=L.bool).cummin(-2)", "L.zeros(0).cummax(-2)", "L.zeros(2, 0).cummax(5)",
    "L.zeros(()).cummin(-2)", "L.zeros(()).cummax(0)", "L.zeros(2, 3).cummax(2)",
    # the random fills and bernoulli call no kernel for an empty tensor (no dtype check)
    "L.zeros(2, 0, 3, dtype=L.int8).normal_()", "L.zeros(0, dtype=L.int8).log_normal_()",
    "L.bernoulli(L.zeros(0, dtype=L.bool))", "L.zeros(0, dtype=L.bool).geometric_(0.5)",
    "L.zeros(2, dtype=L.int8).normal_()", "L.bernoulli(L.zeros(2, dtype=L.bool))",
    "L.zeros(2, dtype=L.bool).geometric_(0.5)", "L.poisson(L.zeros(0, dtype=L.int8))",
    # torch.unflatten (C++) reads dim's type and range before it refuses no sizes; the
    # method (Python) refuses no sizes first
    "L.unflatten(L.zeros(1, 3, 1, dtype=L.int32), (0, 1), None)",
    "L.unflatten(L.zeros(2, 3), -9223372036854775808, ())", "L.unflatten(L.zeros(2, 3), 5, ())",
    "L.unflatten(L.zeros(2, 3), 0, ())", "L.zeros(2, 3).unflatten(5, ())",
    "L.unflatten(3, 0, (1,))", "L.unflatten(L.zeros(2, 3), 1, (3, 1))",
    # diag's matrix is sized before it is allocated
    "L.diagflat(L.zeros(1), offset=2147483648)", "L.diag(L.zeros(2), 2 ** 33)",
    "L.diag_embed(L.zeros(1), 2 ** 31)",
    # new_ones/new_zeros/new_empty: the parser's types of the options before a negative size
    "L.zeros(2).new_ones(-1, dtype=3)", "L.zeros(2).new_zeros(-1, dtype=3)",
    "L.zeros(2).new_empty(-1, dtype=3)", "L.zeros(2).new_ones((-1,), device=1.5)",
    "L.zeros(2).new_ones(-1, requires_grad=3)", "L.zeros(2).new_ones(-1)",
    # Tensor.type names a refused class as torch's C type name; torch.Tensor is the default
    "L.zeros(2).type(np.float32)", "L.zeros(2).type(np.ndarray)", "L.zeros(2).type(float)",
    "L.zeros(2, dtype=L.int64).type(L.Tensor)",
    # float_power_ reads its Number (an int past uint64 overflows) before its dtype check
    "L.zeros(2).float_power_(2 ** 64)", "L.zeros(2).float_power_(2 ** 63)",
    # random_'s overloads: one or two ints of the wrong type match none of two plausible
    # ones; three positional arguments are counted against the one that takes two
    "L.zeros(2, dtype=L.uint8).random_(1, 'a')", "L.zeros(2, dtype=L.uint8).random_(1.5)",
    "L.zeros(2, dtype=L.uint8).random_(None)", "L.zeros(2, dtype=L.uint8).random_(to=1.5)",
    "L.zeros(2, dtype=L.uint8).random_(1, to='a')", "L.zeros(2, dtype=L.uint8).random_(1, 2, 3)",
    "L.zeros(2, dtype=L.uint8).random_('a', 2)", "L.zeros(2, dtype=L.uint8).random_(5)",
    # torch.norm's Python passes a matrix norm's dim on as a list unless it was a tuple
    "L.zeros(()).norm(p='nuc', dim=0, keepdim=1)", "L.zeros(2, 2).norm(p='nuc', keepdim=1)",
    "L.zeros(2, 2).norm(p='nuc', dim=(0, 1), keepdim=1)",
    "L.zeros(2, 2).norm(p='nuc', dim=[0, 1], keepdim=1)",
    # tril_indices/triu_indices size their result (as torch counts it) before building it
    "L.tril_indices(2 ** 36, 2)", "L.triu_indices(2 ** 22, 2 ** 22, 5)",
    "L.tril_indices(5, 3, -2)", "L.triu_indices(4, 6, 2)",
    # cat checks each tensor in turn, its rank then its sizes
    "L.cat([L.zeros(2, 1, 2), L.zeros(2, 0, 3), L.zeros(0, 1)], 1)",
    "L.column_stack([L.zeros(2, 1, 2, dtype=L.bool), L.zeros(2, 0, 3), L.zeros(0)])",
    "L.cat([L.zeros(2, 1, 2), L.zeros(0, 1), L.zeros(2, 0, 3)], 1)",
    "L.concat([L.zeros(1, 3, 1), L.zeros(2, 3), L.zeros(1, 3, 1)], dim=2)",
    "L.hstack((L.zeros(2, 0, 3), L.zeros((), dtype=L.int64)))",
    # index tensors broadcast together before any is checked against an empty dim
    "L.index_put(L.zeros(2, 0, 3), (L.zeros(0, dtype=L.int64), L.zeros(2, dtype=L.int64)),"
    " L.zeros(2, 3))",
    "L.zeros(2, 0, 3)[L.zeros(0, dtype=L.int64), L.zeros(2, dtype=L.int64)]",
    "L.zeros(2, 0, 3)[L.zeros(2, dtype=L.int64), L.zeros(2, dtype=L.int64)]",
]


@pytest.mark.parametrize("expression", CASES)
def test_as_torch(expression: str) -> None:
    random = any(r in expression for r in RANDOM)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_as_torch(eval(f"lambda L: {expression}"),  # the test's own expressions
                        compare=_same_kind if random else assert_exact)


@pytest.mark.parametrize("inplace", [False, True])
def test_forward_ad_refuses_index_reduce_under_the_called_name(inplace: bool) -> None:
    def call(L):
        fa = L.autograd.forward_ad
        with fa.dual_level():
            x = fa.make_dual(L.zeros(3), L.ones(3))
            args = (0, L.tensor([0]), L.ones(1), "prod")
            return x.index_reduce_(*args) if inplace else x.index_reduce(*args)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same_error(raised_by(call, mt), raised_by(call, torch))


@pytest.mark.parametrize("key", [4, -1, 0, (4,), (0,), slice(1, 2), [0], None, Ellipsis, True])
@pytest.mark.parametrize("grad", [True, False])
def test_a_write_into_a_0d_tensor_is_refused_as_torch(key, grad: bool) -> None:
    """A 0-d leaf that requires grad refuses the key as a plain 0-d tensor does, before
    autograd's refusal of the write (a lone int or slice is applied at once)."""
    def write(L):
        x = L.zeros((), dtype=L.float64, requires_grad=grad)
        x[key] = 1.0
        return x

    want = raised_by(write, torch)
    if want is None:
        assert raised_by(write, mt) is None
    else:
        assert_same_error(raised_by(write, mt), want)
