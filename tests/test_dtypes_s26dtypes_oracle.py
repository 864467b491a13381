"""Result dtypes, out= dtypes and their refusals in torch's order (s26 dtypes fuzzer): the
kernels that check out's dtype before their operands' (mm, dot, softmax, clamp, mean), an out
whose elements share memory (an expanded tensor), rsub's promotion with alpha, lcm's C int
arithmetic, a nested list's numbers read in turn into an integer dtype, where's float16
number, cumsum_'s in-place dtype check and float16 lerp in float32; torch is the
oracle."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from tests.oracle import assert_as_torch


def T(L: Any, values: Any, dtype: str = "float32") -> Any:
    return L.tensor(values, dtype=getattr(L, dtype))


def expanded(L: Any, dtype: str = "int64") -> Any:
    """A (3, 3) tensor whose rows share memory."""
    return T(L, [[5, -1, -6]], dtype).expand(3, 3)


def row(L: Any, dtype: str = "int16") -> Any:
    return T(L, [[300, -1, 5]], dtype)


CASES = {
    # TensorIterator: the operands' broadcast before the cast of their result type into out
    "bitwise_and broadcast first": lambda L: L.bitwise_and(
        T(L, [1., 2., 3.], "float64"), T(L, [1, 2], "int64"), out=T(L, [], "int16")),
    "remainder broadcast first": lambda L: L.remainder(
        T(L, [1., 2., 3.]), T(L, [[1], [2]]).t(), out=T(L, [], "int8")),
    # mm's out dtype (the first matrix's) after the shapes, before the two dtypes
    "mm out dtype": lambda L: L.mm(L.ones(2, 3, dtype=L.int8), L.ones(3, 2), out=L.ones(2, 2)),
    "mm out of float16": lambda L: L.mm(L.ones(2, 3, dtype=L.int8),
                                        L.ones(3, 2, dtype=L.float16),
                                        out=L.ones(2, dtype=L.float16)),
    "mm shapes first": lambda L: L.mm(L.ones(2, 3), L.ones(4, 2, dtype=L.int8),
                                      out=L.ones(2, 2, dtype=L.int8)),
    "matmul by a matrix": lambda L: L.matmul(L.ones(2, 3, 3, dtype=L.int8), L.ones(3, 2),
                                             out=L.ones(2)),
    "matmul vector by matrix": lambda L: L.matmul(L.ones(3, dtype=L.int8), L.ones(3, 2),
                                                  out=L.ones(2)),
    "matmul of vectors": lambda L: L.matmul(L.ones(3, dtype=L.int8), L.ones(4), out=L.ones(2)),
    "dot out first": lambda L: L.dot(L.ones(3, dtype=L.int8), L.ones(4, dtype=L.int8),
                                     out=L.ones(2)),
    "dot unknown keyword": lambda L: L.dot(L.ones(3), L.ones(3), foo=1,
                                           out=L.ones(2, dtype=L.int64)),
    # cat's cast into out once its dim is in range, before the sizes
    "cat cast before sizes": lambda L: L.cat([L.ones(1, 3), L.ones(3, 1, dtype=L.float64)],
                                             out=L.ones(0, dtype=L.uint8)),
    "cat cast before ndims": lambda L: L.cat([L.ones(1, 3), L.ones(3, dtype=L.float64)],
                                             out=L.ones(0, dtype=L.uint8)),
    "cat dim first": lambda L: L.cat([L.ones(1, 3), L.ones(3, 1)], 5,
                                     out=L.ones(0, dtype=L.uint8)),
    # (log_)softmax's out dtype once its dim is in range, before its integer kernel refuses
    "softmax out of int8": lambda L: L.softmax(T(L, [1, 2, 3], "int8"), 0, out=L.ones(3)),
    "softmax dtype= and out": lambda L: L.softmax(T(L, [1, 2, 3], "int8"), 0, dtype=L.int16,
                                                  out=L.ones(3, dtype=L.int8)),
    "log_softmax dim by keyword": lambda L: L.log_softmax(
        T(L, [1, 2, 3], "int8"), dim=0, out=L.ones(3, dtype=L.float64)),
    "softmax out before autograd": lambda L: L.softmax(
        L.ones(3, dtype=L.float16, requires_grad=True), 0, out=L.ones(3, dtype=L.int8)),
    "softmax dim first": lambda L: L.softmax(T(L, [1, 2, 3], "int8"), 5, out=L.ones(3)),
    # mean(out=): an integer dtype= refused first; mean of all checks its input casts to out
    "mean int dtype= with out": lambda L: L.mean(L.ones(2, 3), 0, dtype=L.int16,
                                                 out=L.ones(3)),
    "mean bool dtype= with out": lambda L: L.mean(L.ones(2, 3, dtype=L.int16), 0,
                                                  dtype=L.bool, out=L.ones(3, dtype=L.bool)),
    "mean of all into int": lambda L: L.mean(L.ones(2, 3), out=L.ones(3, dtype=L.int64)),
    "mean of all, int16 into bool": lambda L: L.mean(L.ones(2, 3, dtype=L.int16),
                                                     out=L.ones(3, dtype=L.bool)),
    # rsub(alpha=) of tensors of two dtypes, in their result type, alpha wrapping
    "rsub 0-d int16 by uint8": lambda L: L.rsub(T(L, -1, "int16"), T(L, [4, 1], "uint8"),
                                                alpha=2),
    "rsub int32 by 0-d float": lambda L: L.rsub(T(L, [1, 2], "int32"), T(L, -2.5), alpha=2),
    "rsub uint8 negative alpha": lambda L: L.rsub(T(L, [1, 2], "int8"), T(L, [-2, 3], "uint8"),
                                                  alpha=-3),
    # lcm: the product and its abs in C's int, then wrapped
    "lcm int8 wraps": lambda L: L.lcm(T(L, [127, -1, 100], "int8"), T(L, 2, "int8")),
    "lcm uint8 wraps": lambda L: L.lcm(T(L, [255, 7], "uint8"), T(L, [2, 100], "uint8")),
    # a nested list's numbers read in turn into an integer dtype
    "tensor int16 range first": lambda L: L.tensor([2 ** 31, 2 ** 63], dtype=L.int16),
    "new_tensor int32 range first": lambda L: L.ones(1).new_tensor([2 ** 40, 2 ** 63],
                                                                   dtype=L.int32),
    "tensor int64 float then uint64": lambda L: L.tensor([1e30, 2 ** 63], dtype=L.int64),
    "tensor int64 uint64 then float": lambda L: L.tensor([2 ** 63, 2.5], dtype=L.int64),
    # clamp's out dtype before its bounds are converted; a uint64 bound's promotion first
    "clamp out before overflow": lambda L: L.clamp(row(L), 2 ** 40, out=L.ones(2, dtype=L.int8)),
    "clamp_min out before overflow": lambda L: L.clamp_min(row(L, "int8"), 1000, out=L.ones(0)),
    "clamp float16 bound out": lambda L: L.clamp(row(L, "float16"), 1e10,
                                                 out=L.ones(0, dtype=L.float64)),
    "clamp uint64 bound out": lambda L: L.clamp(row(L, "int8"), 2 ** 63,
                                                out=L.ones(0, dtype=L.int16)),
    "clamp uint64 then int": lambda L: L.clamp(row(L), 2 ** 63, 7),
    "clamp int then uint64": lambda L: L.clamp(row(L), 7, 2 ** 63),
    "clamp bool and uint64": lambda L: L.clamp(row(L, "int8"), True, 2 ** 63),
    "clamp_ uint64 and float": lambda L: row(L, "int8").clamp_(2 ** 63, 2.5),
    "clamp no bound, expanded out": lambda L: L.clamp(row(L), out=expanded(L, "int16")),
    # an out whose elements share memory: refused after the parser, before shapes and dtypes
    "eq into expanded": lambda L: L.eq(row(L), 100, out=expanded(L)),
    "add into expanded": lambda L: L.add(row(L), row(L), out=expanded(L, "float32")),
    "div into expanded int": lambda L: L.div(row(L), 100, out=expanded(L)),
    "neg into expanded": lambda L: L.neg(row(L), out=expanded(L, "int16")),
    "exp into expanded int": lambda L: L.exp(row(L), out=expanded(L, "int16")),
    "floor into expanded double": lambda L: L.floor(row(L, "float32"),
                                                    out=expanded(L, "float64")),
    "where into expanded": lambda L: L.where(row(L) > 0, row(L), row(L),
                                             out=expanded(L, "int16")),
    "where dtype before overlap": lambda L: L.where(row(L) > 0, row(L), row(L),
                                                    out=expanded(L, "int64")),
    "clamp into expanded": lambda L: L.clamp(row(L), 1, out=expanded(L, "int16")),
    "addcmul into expanded": lambda L: L.addcmul(row(L, "float32"), row(L, "float32"),
                                                 row(L, "float32"), out=expanded(L, "float32")),
    "gcd into expanded": lambda L: L.gcd(row(L), row(L), out=expanded(L, "float32")),
    "nan_to_num float into expanded": lambda L: L.nan_to_num(row(L, "float32"),
                                                             out=expanded(L, "float32")),
    "nan_to_num int into expanded": lambda L: L.nan_to_num(row(L), out=expanded(L, "int16")),
    "sum into expanded": lambda L: L.sum(row(L), 0, out=expanded(L)),
    "maximum of a number, expanded": lambda L: L.maximum(row(L), 100, out=expanded(L)),
    "add of a string, expanded": lambda L: L.add(row(L), "a", out=expanded(L)),
    "exp of two, expanded": lambda L: L.exp(row(L), row(L), out=expanded(L)),
    # where's number read into a float16 result unchecked
    "where float16 number": lambda L: L.where(T(L, [True], "bool"), 1e300,
                                              T(L, [4.], "float16")),
    "where condition dtype first": lambda L: L.where(T(L, 63, "int64"), 1e300,
                                                     T(L, 4., "float16")),
    # float16 lerp computed in float32 and rounded once, as torch's opmath
    "lerp float16 huge weight": lambda L: L.lerp(T(L, [-2.5, 0.0], "float16"),
                                                 T(L, [-129.0, -0.0], "float16"), 2 ** 62),
    "lerp float16 number weight": lambda L: L.lerp(T(L, [1.5, 100.3, -7.1], "float16"),
                                                   T(L, [7.1, -3.3, 1e4], "float16"), 0.3),
    "lerp float16 tensor weight": lambda L: L.lerp(T(L, [1.5, 100.3, -7.1], "float16"),
                                                   T(L, [7.1, -3.3, 1e4], "float16"),
                                                   T(L, [0.3, 0.7, -1.3], "float16")),
    # cumsum_'s dtype= check after autograd's, before an overlap's
    "cumsum_ dtype on expanded": lambda L: expanded(L, "int8").cumsum_(0, dtype=L.float64),
    "cumprod_ dim on expanded": lambda L: expanded(L, "float32").cumprod_(5),
    "cumsum_ leaf first": lambda L: L.ones(3, requires_grad=True).cumsum_(0, dtype=L.float64),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_dtypes_as_torch(case: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (torch's and minitorch's resize warnings alike)
        assert_as_torch(CASES[case])
