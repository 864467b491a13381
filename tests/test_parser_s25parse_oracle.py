"""torch's parser on numbers of every kind where it reads a number, a dim or a size: a numpy
long double or complex scalar where it reads a double or a Number (by ``float()``: the real
part); a 0-d bool tensor as ``alpha`` (a bool Scalar: "Boolean alpha only supported for
Boolean results."); a 0-d integer numpy array given for a tuple of ints (its parser's
``PyList_Check`` assertion, an int where an ``int dim`` overload comes first); a size below
-2**62 in the legacy constructors (empty's SymInt site); an int past int64 in a list (its
C++ error, whose backtrace header the message carries); numpy ints as ``tensor_split``'s
sections, an integer tensor of any width as ``narrow``'s start, a numpy scalar as
``new()``'s data. Against torch, each call's error or result."""

from __future__ import annotations

import warnings
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import SETTINGS, assert_as_torch, raised_by

warnings.simplefilter("ignore", np.exceptions.ComplexWarning)

# numpy scalars torch's parser reads by float() where it wants a double or a Number
FLOAT_READ = ["np.longdouble({v})", "np.complex64({v})", "np.clongdouble({v})",
              "np.complex64({v}j)", "np.complex128({v})"]
# (op, whether its result is random: then its shape and dtype are compared)
NUMBER_OPS = [("X.clamp_min({n})", False), ("X.clamp_max({n})", False),
              ("X.clamp_min_({n})", False), ("L.quantile(X, {n})", False),
              ("L.nanquantile(X, {n})", False), ("L.rsub(X, X, alpha={n})", False),
              ("X.add(X, alpha={n})", False), ("X.mul({n})", False),
              ("L.full((2,), {n})", False), ("X.bernoulli({n})", True),
              ("X.bernoulli_({n})", True), ("L.bernoulli(X, {n})", True),
              ("L.normal({n}, 1., (2,))", True), ("L.normal(0., {n}, (2,))", True),
              ("L.normal(X, {n})", True), ("L.normal({n}, X)", True)]


def _program(source: str, shape_only: bool):
    def program(L):
        result = eval(source, {"L": L, "np": np, "X": L.arange(6.).reshape(2, 3) / 6})
        return (tuple(result.shape), str(result.dtype)) if shape_only else result
    return program


@SETTINGS
@given(op=st.sampled_from(NUMBER_OPS), kind=st.sampled_from(FLOAT_READ),
       value=st.sampled_from(["0", "0.5", "1", "2", "-1"]))
def test_numpy_scalars_read_by_float(op, kind, value):
    source, random = op
    assert_as_torch(_program(source.format(n=kind.format(v=value)), random))


BOOLS = ["L.tensor(True)", "L.tensor(False)", "L.tensor([True])", "True", "np.bool_(True)"]


@pytest.mark.parametrize("alpha", BOOLS)
@pytest.mark.parametrize("call", ["X.add(Y, alpha={a})", "X.sub(Y, alpha={a})",
                                  "L.add(X, Y, alpha={a})", "L.rsub(X, Y, alpha={a})",
                                  "X.add(1, alpha={a})", "X.clone().add_(Y, alpha={a})",
                                  "L.sub(X, 1, alpha={a})"])
@pytest.mark.parametrize("dtype", ["L.float32", "L.int64", "L.bool", "L.uint8"])
def test_a_bool_alpha_only_for_a_bool_result(alpha, call, dtype):
    source = call.format(a=alpha)
    assert_as_torch(lambda L: eval(source, {
        "L": L, "np": np, "X": L.tensor([[0, 1, 2], [3, 0, 1]]).to(eval(dtype, {"L": L})),
        "Y": L.tensor([1, 0, 1]).to(eval(dtype, {"L": L}))}))


ARRAY_DIMS = ["X.sum({d})", "L.sum(X, {d})", "X.sum(dim={d})", "X.mean({d})", "X.amax({d})",
              "X.amin({d})", "X.nansum({d})", "X.std({d})", "X.var({d})", "X.logsumexp({d})",
              "X.norm(2, {d})", "L.linalg.vector_norm(X, dim={d})", "X.nanmean({d})",
              "X.roll(1, {d})", "X.roll({d})", "X.roll({d}, 0)", "X.all({d})",
              "X.any(dim={d})", "L.all(X, {d})", "X.squeeze({d})", "X[:1].squeeze({d})",
              "X.count_nonzero({d})", "X.repeat_interleave({d})", "X.tensor_split({d})",
              "X.tensor_split({d}, 1)", "X.flip({d})", "X.cumsum({d})", "X.sum(({d}, 1))"]


@SETTINGS
@given(call=st.sampled_from(ARRAY_DIMS),
       array=st.sampled_from(["np.array({v})", "np.array({v}, dtype=np.uint8)",
                              "np.array({v}, dtype=np.int32)", "np.array({v}.5)",
                              "np.array(True)", "np.array([{v}])", "np.int64({v})",
                              "np.uint8({v})"]),
       value=st.sampled_from([0, 1]))
def test_a_0d_numpy_array_as_dims(call, array, value):
    source = call.format(d=array.format(v=value))
    assert_as_torch(lambda L: eval(source, {"L": L, "np": np,
                                            "X": L.arange(6.).reshape(2, 3)}))


@pytest.mark.parametrize("source", [
    "L.FloatTensor({s})", "L.LongTensor({s})", "L.Tensor({s})", "L.FloatTensor(2, {s})",
    "L.BoolTensor({s}, 2)", "L.DoubleTensor({s})"])
@pytest.mark.parametrize("size", ["-2**63", "-2**62-1", "-2**62", "-1", "2**63"])
def test_legacy_constructor_sizes(source, size):
    call = source.format(s=size)
    def program(L):
        return eval(call, {"L": L}).shape

    want = raised_by(program, torch)
    got = raised_by(program, mt)
    if want is None:
        assert got is None and program(mt) == program(torch)
        return
    assert type(got) is type(want)
    assert str(got).split("\nException raised from ")[0] == \
        str(want).split("\nException raised from ")[0]


@pytest.mark.parametrize("source", [
    "X.new(2**63)", "X.view(2, 2**63)", "X.sum((0, 2**63))", "L.zeros(2, 2**63)",
    "X.flip(2**63)", "L.zeros((np.uint64(2**64 - 1),))", "X.new_empty((2**63,))",
    "L.nn.functional.interpolate(X[None], size=(2**64,))"])
def test_an_int_past_int64_in_a_list_is_torch_s_c_error(source):
    # torch's message carries its C++ backtrace; before it, minitorch's text is torch's, and
    # it ends as torch's where a comparison strips the backtrace up to its closing quote
    def program(L):
        return eval(source, {"L": L, "np": np, "X": L.ones(2, 3)})

    want, got = raised_by(program, torch), raised_by(program, mt)
    assert type(got) is type(want) is TypeError
    head = "\nException raised from "
    assert str(got).split(head)[0] == str(want).split(head)[0]
    assert str(got).endswith('"') and str(want).endswith('"')


@pytest.mark.parametrize("source", [
    "X.tensor_split(np.int64(2))", "X.tensor_split(np.uint8(3), 1)", "X.tensor_split(np.int16(0))",
    "X.tensor_split(np.uint64(2**64 - 1))", "X.tensor_split(np.array(2))",
    "X.narrow(0, L.tensor(1, dtype=L.uint8), 1)", "X.narrow(1, L.tensor(1, dtype=L.int32), 2)",
    "X.narrow(0, L.tensor(1, dtype=L.int8), 1)", "X.narrow(0, L.tensor(True), 1)",
    "X.narrow(0, L.tensor(1.), 1)", "X.clone().random_(np.array(3)).shape",
    "X.clone().random_(0, L.tensor(True))", "X.clone().random_(L.tensor([3])).shape",
    "X.clone().random_(np.int64(3)).shape", "X.new(np.float64(0.5))", "X.new(np.bool_(True))",
    "X.new(np.longdouble(2))", "X.new(np.complex64(1))", "X.new(np.array([1.5]))",
    "X.new(np.int64(2)).shape", "X.add(X, alpha=np.longdouble(2))",
    "L.linspace(0, 1, np.array(2))", "L.linspace(0, 1, L.tensor(True))",
    "L.linspace(0, 1, L.tensor([2]))", "L.logspace(0, 1, steps=np.array(2))",
    "L.linspace(0, 1, np.int64(2))", "L.linspace(0, 1, L.tensor(2))"])
def test_numpy_and_tensor_ints_as_torch_reads_them(source):
    assert_as_torch(lambda L: eval(source, {"L": L, "np": np,
                                            "X": L.arange(6.).reshape(2, 3)}))


@SETTINGS
@given(kind=st.sampled_from(["np.int64({v})", "np.uint64({v})", "np.int8({v})", "np.uint8({v})",
                             "np.float32({v})", "np.float16({v})", "np.longdouble({v})",
                             "np.complex64({v})", "np.clongdouble({v})", "np.bool_({v})"]),
       value=st.sampled_from(["0", "1", "2"]),
       call=st.sampled_from(["X.pow({n})", "L.pow({n}, X)", "Xi.pow({n})", "L.pow({n}, Xi)",
                             "X.scatter(0, L.tensor([[0, 1]]), {n})",
                             "Xi.scatter(0, L.tensor([[1]]), value={n})",
                             "X.clone().scatter_(1, L.tensor([[2]]), {n})"]))
def test_numpy_scalars_as_the_numbers_they_hold(kind, value, call):
    # the parser reads a numpy scalar as a Python number: no numpy promotion of the result
    source = call.format(n=kind.format(v=value))
    assert_as_torch(lambda L: eval(source, {"L": L, "np": np, "X": L.arange(6.).reshape(2, 3),
                                            "Xi": L.arange(6).reshape(2, 3)}))


@pytest.mark.parametrize("data", ["[Decimal(1)]", "[Fraction(1, 2), 2]", "Decimal('1.5')",
                                  "[[Fraction(1, 3)], [Decimal('nan')]]", "[Decimal('1e400')]"])
@pytest.mark.parametrize("dtype", ["L.float32", "L.float64", "L.float16", "L.int64", "L.bool",
                                   "None"])
def test_numbers_of_other_types_read_as_doubles(data, dtype):
    # a floating dtype reads any object with __float__ (PyFloat_AsDouble); an integer one
    # names its type as Python's C API prints it
    source = f"L.tensor({data}, dtype={dtype})"
    assert_as_torch(lambda L: eval(source, {"L": L, "Decimal": Decimal, "Fraction": Fraction}))


@pytest.mark.parametrize("op", ["X.add", "X.sub", "L.add(X, ", "L.sub(X, ", "X.clone().add_",
                                "X.clone().sub_", "L.rsub(X, "])
@pytest.mark.parametrize("args", ["2**64, alpha=-2**63-1", "2**64, alpha='a'",
                                  "2**64, alpha=np.array([1])", "-2**63-1, alpha=2**64",
                                  "'a', alpha='b'", "2**64, alpha=2**64", "1, alpha=2**64"])
def test_alpha_is_parsed_with_the_operands(op, args):
    # every type first, then the values right to left: alpha's before other's
    source = f"{op}({args})" if op.endswith(("add", "sub", "_")) else f"{op}{args})"
    assert_as_torch(lambda L: eval(source, {"L": L, "np": np, "X": L.ones(2, 3)}))


@pytest.mark.parametrize("pair", ["2**63, -2**63-1", "-2**63-1, 2**64", "2**64, 2**65",
                                  "2**63, 1", "X, 2**64", "2**63, X > 1", "X, -2**63-1"])
def test_result_type_unpacks_right_to_left(pair):
    assert_as_torch(lambda L: L.result_type(*eval(f"({pair})", {"X": L.ones(2)})))


@pytest.mark.parametrize("source", ["L.eye(2**31, 2**31)", "L.eye(2**62)", "L.eye(3, 2**62)",
                                    "L.empty_strided((2**61,), (1,))",
                                    "L.empty_strided((2, 2**62), (1, 1))",
                                    "L.empty_strided((2**62,), (2,), dtype=L.int8)"])
def test_huge_sizes_overflow_as_torch_counts_them(source):
    assert_as_torch(lambda L: eval(source, {"L": L}))
