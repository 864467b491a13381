"""Calls with two or more bad arguments, where torch and minitorch must refuse the same one:
``tensor()`` of nested data reads its shape, then its dtype from every item, then stores
each item depth first (the first one it cannot store is refused); a Tensor method's
parser checks its arguments' types before any keyword left over; torch's Python ``cdist``
words its arity refusals in Python's words; ``Tensor.type`` takes no stray keyword, nor
``tril_`` its diagonal twice; the parser's refusals of a call with ``out=``
come before autograd's refusal of an ``out`` that requires grad."""

import numpy as np
import pytest

from tests.oracle import assert_as_torch

BIG = 2 ** 70

NESTED = [
    "L.tensor([[1, BIG], [1, 2, 3]], dtype=L.int32)",
    "L.tensor([[1, 300], [1, 'a']], dtype=L.uint8)",
    "L.tensor([[1, BIG], [1, 'a']], dtype=L.int64)",
    "L.tensor([[1, 'a'], [1, BIG]], dtype=L.int64)",
    "L.tensor([1.5, BIG], dtype=L.int64)",
    "L.tensor([BIG, L.tensor(1.5)], dtype=L.int64)",
    "L.tensor([[BIG], [L.tensor([1, 2])]], dtype=L.int64)",
    "L.tensor([BIG, float('nan')], dtype=L.int64)",
    "L.tensor([300, BIG], dtype=L.uint8)",
    "L.tensor([BIG, 1j], dtype=L.int64)",
    "L.tensor([BIG, None], dtype=L.int64)",
    "L.tensor([2 ** 1030, None], dtype=L.float32)",
    "L.tensor([[2 ** 1030], [1, 2]], dtype=L.float32)",
    "L.tensor([BIG, np.float64(1.5)], dtype=L.int64)",
    "L.tensor([BIG, 'a'], dtype=L.int64)",
    "L.tensor(['a', BIG], dtype=L.int64)",
    "L.tensor([[1, 2 ** 60], [1, 2 ** 64]], dtype=L.int32)",
    "L.tensor([[1], [None, 2]])",
    "L.tensor([[BIG], [1, 2]])",
    "L.tensor([[1.5, 2 ** 1030], [1, 2, 3]])",
    "L.tensor([[1, BIG], 5])",
    "L.tensor([[1, 2], 5, [BIG, 1]])",
    "L.tensor([[1, 2 ** 1030], [1, L.tensor([1, 2]), 3]], dtype=L.float32)",
    "L.tensor([True, [[None, 1e300], [300]]], dtype=L.bool)",
    "L.tensor([b'ab', -2 ** 63], dtype=L.int8)",
    "L.tensor(['', 1e300], dtype=L.int16)",
    "L.tensor([[], L.tensor(1.5)], dtype=L.int8)",
    "L.tensor([[[1.5, [], 1e300], [2.0 ** 63, -4]]], dtype=L.uint8)",
    "L.tensor([[[True], L.tensor(1.5)], [[1, 2]]], dtype=L.int8)",
    "L.tensor([[2.0 ** 63, 1.5], [1, 2, 3]], dtype=L.int64)",
    "L.tensor([[1j, 2], [1, 2, 3]])",
    "L.tensor([[0.5, 1e300, -3]], dtype=L.int8)",
    "L.tensor([b'ab', b'cd'], dtype=L.uint8)",
    "L.tensor([[1, 2], [3, 4]], dtype=L.int8)",
]

PARSER = [
    "L.ones(2).mul_((1, 2), foo=1)",
    "L.ones(2).mul_(2, foo=1)",
    "L.ones(2).logical_and_((1, 2), foo=1)",
    "L.ones(2).logical_or_(2, foo=1)",
    "L.ones(2).logical_xor_(L.ones(2), foo=1)",
    "L.cdist(L.ones(2, 2))",
    "L.cdist(x1=L.ones(2, 2))",
    "L.cdist()",
    "L.cdist(L.ones(2, 2), p='a')",
    "L.cdist(L.ones(2, 2), x2=L.ones(2, 2), p='a')",
    "L.cdist(L.ones(2, 2), x2='a')",
    "L.cdist(L.ones(2, 2), L.ones(2, 2), foo=1, p='a')",
    "L.unique_consecutive(L.ones(2), dim='a')",
    "L.ones(2).type(L.float64, dim=5)",
    "L.ones(2).type(outs=1)",
    "L.ones(2).type(L.float64, memory_format=L.contiguous_format)",
    "L.ones(3, 3).triu_(1, diagonal=0)",
    "L.ones(3, 3).tril_('a', diagonal=0)",
    "L.ones(3, 3).tril_(1, diagonal=0, foo=2)",
    "L.linalg.qr(L.ones(3), (1, 2))",
    "L.linalg.qr(L.ones(3, 3), mode=1)",
    "L.ones(2).dist(L.ones(2, dtype=L.bool), 'a', out='a')",
    "L.dist(L.ones(2), L.ones(2), 'a', foo=1)",
]

OUT = [
    "L.cat([L.ones(2, 3), L.ones(2, 3)], dims=1, out=L.ones(2, 3, requires_grad=True))",
    "L.cat([L.ones(2, 3)], 1, 1, 2, out=L.ones(2, 3, requires_grad=True))",
    "L.cos(L.ones(2, 3), dim=5, out=L.ones(2, 3, requires_grad=True))",
    "L.asinh([1.5, 'a'], out=L.ones(2, 3, requires_grad=True))",
    "L.addcmul(L.ones(2), L.ones(2), L.ones(2), value=2, dim=2,"
    " out=L.ones(2, requires_grad=True))",
    "L.cross(L.ones(2, 3, requires_grad=True), L.ones(2, 3), None, 3,"
    " out=L.ones(2, 3, requires_grad=True))",
    "L.hypot(L.ones(2), L.ones(2), dimm=1, out=L.ones(2, requires_grad=True))",
    "L.tril(L.ones(2, 2), 0, 1, out=L.ones(2, 2, requires_grad=True))",
    "L.mm(L.ones(2, 3), L.ones(3, 2), foo=1, out=L.ones(2, 2, requires_grad=True))",
    "L.exp(L.ones(2, requires_grad=True), out=L.ones(2))",
    "L.deg2rad(L.ones(2), 1, out=L.ones(2, dtype=L.bool))",
    "L.exp(L.ones(2), 1, out='a')",
    "L.where(L.ones(2) > 0, L.ones(2, requires_grad=True), L.ones(2), 1, 2,"
    " out=L.ones(2, requires_grad=True))",
]


@pytest.mark.parametrize("expr", NESTED + PARSER + OUT)
def test_the_first_bad_argument_is_torch_s(expr):
    assert_as_torch(lambda L: eval(expr, {"L": L, "np": np, "BIG": BIG}))
