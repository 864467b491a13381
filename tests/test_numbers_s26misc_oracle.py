"""Numbers as arguments, and the named leftovers of issue #21 (session 26, ``misc``): torch's
count of a shape's elements (``_args.check_numel``) at every site that counts, numpy scalars
and arrays beside a tensor (``/``, ``!=``, ``to``), out= of ops with no derivative, int[1]
arguments past int64, pad's allocation, elu of a signed zero. Each case is a small program
run on torch and on minitorch (``L``); its outcome, the value of ``R`` or the exception's
type and message, must be the same.
"""

from __future__ import annotations

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch

SIGNS = "R = [str(v) for v in {}.tolist()]"  # a zero's sign, which == does not see


@pytest.mark.parametrize("program", [
    # the element count: an unsigned running product (a negative size overflows unless a 0
    # came first; a later 0 does not undo an overflow)
    "R = L.ones(1, 1, 1).expand(2 ** 40, 2 ** 40, 0)",
    "R = L.ones(1, 1).expand(-2, 4)",
    "R = L.ones(2).resize_(2 ** 40, 2 ** 40, 0)",
    "R = L.ones(2).resize_(-1)",
    "R = L.ones(4).as_strided((-1, -1, 0), (1, 1, 1))",
    "R = L.ones(4).as_strided_((-1, -1, 0), (1, 1, 1))",
    "R = L.ones(4).as_strided((-1, 2), (0, 0))",
    "R = L.nn.functional.pad(L.ones(1, 3, 3), (-2, -2, 1, 1), mode='reflect')",
    "R = L.combinations(L.arange(2 ** 10), 7)",
    "R = L.ones(0).view(2 ** 62, 4, 0)",
    "R = L.eye(2 ** 62, 2)",
    # pad allocates its output as torch does
    "R = L.nn.functional.pad(L.ones(2, 2), (2 ** 62, 0))",
    "R = L.nn.functional.pad(L.ones(1, 2, 2), (2 ** 61,) * 4, mode='replicate')",
    # var_mean/std_mean check as themselves
    "R = L.var_mean(L.ones(3), 0, correction='a')",
    "R = L.std_mean(L.tensor([1., 2., 4.]), 0)",
    "R = L.var_mean(L.ones(3, 2), (0,), correction=0, keepdim=True)",
    # sub refuses a bool operand before out's cast
    "R = L.sub(L.tensor([True]), 1j, out=L.empty(1))",
    "R = L.subtract(L.tensor([True, False]), 2, out=L.empty(2, dtype=L.bool))",
    # numpy beside a tensor: / falls back to numpy's own product, != to numpy's comparison
    "R = np.uint64(2 ** 63) / L.tensor([3., 7.], dtype=L.float16)",
    "R = np.array(1, dtype=np.uint64) / L.tensor([3, -1], dtype=L.int8)",
    "R = L.tensor([3, -1], dtype=L.int8).__rtruediv__(np.array([1, 2], dtype=np.float32))",
    "R = np.array(1.) / L.ones(2, requires_grad=True)",
    "R = 'ab' / L.tensor(2)",
    "R = L.ones(2, 1, dtype=L.int64).__ne__(np.array(1, dtype=np.int16))",
    "R = L.ones(2, 1, dtype=L.int64).__eq__(np.array(1, dtype=np.int16))",
    "R = L.ones(2, 1, dtype=L.int64) != np.array([1, 2])",
    # fill's 0-d value requiring grad cannot flow into an integer result
    "R = L.fill(L.zeros(3, dtype=L.uint8), L.tensor(2., requires_grad=True))",
    # to(numpy scalar): an integer one is a device index, any other its number's type
    "R = L.ones(2).to(np.float64(1))",
    "R = L.ones(2).to(np.float32(2), non_blocking=True)",
    "R = L.ones(2).to(np.bool_(True))",
    "R = L.ones(2).to(np.int64(0))",
    "R = L.ones(2).to(np.int8(-1))",
    "R = L.ones(2).to(np.float64(1), L.float64)",
    "R = L.ones(2).to(np.array(1.0))",
    # an int[1] alone past int64 is the parser's ValueError; a lone bool is no list
    "R = L.linalg.vector_norm(L.ones(2, 2), 2, 2 ** 64)",
    "R = L.linalg.vector_norm(L.ones(2, 2), dim=-2 ** 63 - 1)",
    "R = L.linalg.norm(L.ones(2, 2), dim=2 ** 64)",
    "R = L.frobenius_norm(L.ones(2, 2), True)",
    "R = L.linalg.vector_norm(L.ones(2, 2), 2, True)",
    "R = L.linalg.tensorsolve(L.ones(2, 2), L.ones(2), 1)",
    # out= of an op with no derivative: no autograd refusal, out keeps its history
    "R = L.eq(L.tensor([1.5], requires_grad=True), L.tensor([2.]), out=L.empty(1))",
    "R = L.lt(L.tensor([1.], requires_grad=True), 2., out=L.empty(1, dtype=L.bool))",
    "R = L.logical_xor(L.ones(1), L.ones(1, requires_grad=True), out=L.empty(1))",
    "R = L.eq(L.ones(1), L.ones(1), out=L.ones(1, requires_grad=True))",
    "o = L.ones(1, requires_grad=True) * 1; L.ne(L.ones(1), 2., out=o); R = (o, o.grad_fn.name())",
    "R = L.logical_not(L.ones(1, requires_grad=True), out=L.ones(1, requires_grad=True))",
    "R = L.bitwise_and(L.tensor([1.5], requires_grad=True), L.tensor([2.]), out=L.empty(1))",
    "R = L.add(L.ones(1, requires_grad=True), 1, out=L.empty(1))",
    "R = L.bitwise_xor(L.ones(2, dtype=L.int64), 1, out=L.ones(2, requires_grad=True))",
    "R = L.bitwise_not(L.ones(2, dtype=L.int64), out=L.ones(2, requires_grad=True))",
    # out= of an op of two operands: its parser refuses an operand by type before autograd
    "R = L.minimum(np.float16(0), L.ones(2, requires_grad=True), out=L.empty(2))",
    "R = L.xlogy(L.ones(2, requires_grad=True), np.array(2, dtype=np.uint16), out=L.empty(2))",
    "from decimal import Decimal\n"
    "R = L.lt(Decimal(1), L.ones(2, requires_grad=True), out=L.empty(2))",
    "R = L.remainder(np.float16(2), L.ones(2, requires_grad=True), out=L.empty(2))",
    "R = L.greater(2, L.ones(2), out=L.empty(2))",
    "R = L.true_divide(L.ones(2, requires_grad=True), None, out=L.empty(2))",
    "R = L.ldexp(L.ones(2, requires_grad=True), 2, out=L.empty(2))",
    "R = L.sub(L.ones(2), np.float32(2), out=L.empty(2))",
    "R = L.pow(2, L.ones(2), out=L.empty(2))",
    # bitwise functions: a first operand that is no number matches no overload
    "from fractions import Fraction\nR = L.bitwise_or(Fraction(1, 2), L.ones(2, dtype=L.int64))",
    "R = L.bitwise_xor(np.array(1), L.ones(2, dtype=L.int64))",
    "R = L.bitwise_and(None, 2)",
    # masked_fill as a function takes a complex value as the method does
    "R = L.masked_fill(L.ones(2, 3, dtype=L.int32), L.ones(2, 3, dtype=L.bool), 1j)",
    "R = L.masked_fill(L.ones(2, 3), L.ones(2, 3, dtype=L.bool), 2 + 0j)",
    "R = L.masked_fill(L.ones(2, 3), L.ones(3, 0, dtype=L.bool), 1j)",
    # a numpy complex128 Number is read as Python's complex (numpy would promote by its dtype)
    "R = L.addcmul(L.ones(2, dtype=L.float16), L.ones(2), L.ones(2, dtype=L.float16), "
    "value=np.complex128(3))",
    "R = L.addcdiv(L.ones(2, dtype=L.float16), L.ones(2), L.ones(2), value=np.complex128(2))",
    # linspace/logspace name both tensor bounds' dims
    "R = L.linspace(L.tensor(0.), L.ones(1), 3)",
    "R = L.logspace(L.ones(1), L.ones(2), 3)",
    "R = L.linspace(L.ones(1), 2., 3)",
    # size/stride of a 0-d tensor: a dim the parser reads as no int is refused as such
    "R = L.tensor(1.).size(L.tensor([[2]], dtype=L.int16))",
    "R = L.tensor(1.).stride(L.tensor([0]))",
    "R = L.tensor(1.).size(L.tensor(0))",
    # elu of a zero is the zero, whatever alpha's sign
    SIGNS.format("L.nn.functional.elu(L.tensor([-0.0, 0.0] * 20), alpha=-1.)"),
    SIGNS.format("L.nn.functional.elu(L.tensor([-0.0, 0.0], dtype=L.float64), alpha=-2.5)"),
    SIGNS.format("L.nn.functional.celu(L.tensor([-0.0, 0.0]), alpha=-1.)"),
])
def test_numbers_and_leftovers_as_torch(program: str) -> None:
    assert_as_torch(program)
