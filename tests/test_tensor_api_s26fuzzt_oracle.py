"""Bad input found by the differential fuzzer of the tensor API (session 26): each program
runs on torch and on minitorch, which must raise torch's error or give torch's result."""

from __future__ import annotations

import math
import warnings
from typing import Any

import pytest

from tests.oracle import assert_as_torch

SYMBOLIC = -(2 ** 63)  # below SymInt's range: the dispatcher's refusal, at the op's site


def _quiet(program: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_as_torch(program)


# ------------------ a factory's out= kernel resizes out: resize_'s count checks the size

FACTORIES_INTO = {
    "zeros": lambda L, s, o: L.zeros(s, out=o),
    "ones": lambda L, s, o: L.ones(s, out=o),
    "empty": lambda L, s, o: L.empty(s, out=o).shape,
    "full": lambda L, s, o: L.full(s, 2, out=o),
    "rand": lambda L, s, o: L.rand(s, out=o).shape,
    "randn": lambda L, s, o: L.randn(s, out=o).shape,
    "randint": lambda L, s, o: L.randint(3, s, out=o).shape,
    "randint low": lambda L, s, o: L.randint(0, 3, s, out=o).shape,
    "randint empty range": lambda L, s, o: L.randint(3, 0, s, out=o).shape,
}


@pytest.mark.parametrize("factory", FACTORIES_INTO)
@pytest.mark.parametrize("size", [(), (-1,), (2, -1), (-1, -1, 0), (2 ** 40, 2 ** 40),
                                  (2 ** 62, 4, 0), (SYMBOLIC,), (2, 3)])
def test_a_factory_into_out_checks_its_size_as_resize(factory: str, size: tuple) -> None:
    dtype = "int64" if factory.startswith("randint") else "float32"
    _quiet(lambda L: FACTORIES_INTO[factory](L, size, L.empty(3, dtype=getattr(L, dtype))))


@pytest.mark.parametrize("size", [(), (-1,), (SYMBOLIC,), (2, 3)])
def test_a_factory_without_out_keeps_its_own_size_check(size: tuple) -> None:
    for make in (lambda L: L.zeros(size), lambda L: L.randint(0, 3, size).shape,
                 lambda L: L.randint(3, size).shape, lambda L: L.full(size, 1.0)):
        _quiet(make)


@pytest.mark.parametrize("n", [-3, SYMBOLIC, 0, 4])
def test_randperm_into_out_checks_n_first(n: int) -> None:
    _quiet(lambda L: L.randperm(n, out=L.empty(3, dtype=L.int64)).shape)


# ------------------------------ torch's Python unflatten refuses any false sizes first

@pytest.mark.parametrize("sizes", [0, False, "", (), [], None, (2,), 3])
@pytest.mark.parametrize("dim", [0, [0]])
def test_unflatten_refuses_false_sizes_first(sizes: Any, dim: Any) -> None:
    _quiet(lambda L: L.ones(2).unflatten(dim, sizes))


# --------------------- a str parameter given another type matches none of the overloads

QUANTILE_CALLS = {
    "quantile": lambda L, i: L.quantile(L.ones(3), 0.5, interpolation=i),
    "positional": lambda L, i: L.quantile(L.ones(3), 1, 0, False, interpolation=i),
    "method": lambda L, i: L.ones(3).quantile(L.tensor([0.5]), interpolation=i),
    "nanquantile": lambda L, i: L.nanquantile(L.ones(3), 0.5, dim=0, interpolation=i),
}


@pytest.mark.parametrize("call", QUANTILE_CALLS)
@pytest.mark.parametrize("interpolation", [None, 1, 1.5, "bad", "lower"])
def test_quantile_interpolation_of_another_type(call: str, interpolation: Any) -> None:
    _quiet(lambda L: QUANTILE_CALLS[call](L, interpolation))


SCATTER_CALLS = {
    "value": lambda L, r: L.scatter(L.ones(3), 0, L.tensor([0]), value=2, reduce=r),
    "src": lambda L, r: L.scatter(L.ones(3), 0, L.tensor([0]), L.ones(3), reduce=r),
    "number": lambda L, r: L.scatter(L.ones(3), 0, L.tensor([0]), 2.0, reduce=r),
    "in place": lambda L, r: L.ones(3).scatter_(0, L.tensor([0]), 2.0, reduce=r),
}


@pytest.mark.parametrize("call", SCATTER_CALLS)
@pytest.mark.parametrize("reduce", [None, "add", "bad", 1])
def test_scatter_reduce_given_none_is_no_str(call: str, reduce: Any) -> None:
    _quiet(lambda L: SCATTER_CALLS[call](L, reduce))


# ------------------ a number read by a kernel is cast, unchecked, into the result's dtype

@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int64"])
@pytest.mark.parametrize("other", [-math.inf, 1e308, 1e39, 70000, 2])
@pytest.mark.parametrize("alpha", [1e-320, 1e-46, 1e-8, 3])
@pytest.mark.parametrize("op", ["add", "sub"])
def test_add_alpha_reads_number_and_alpha_in_the_result_dtype(dtype: str, other: float,
                                                              alpha: float, op: str) -> None:
    _quiet(lambda L: getattr(L, op)(L.tensor([1, 2, 0]).to(getattr(L, dtype)), other,
                                    alpha=alpha))


@pytest.mark.parametrize("dtype", ["int64", "uint8", "bool", "int8"])
@pytest.mark.parametrize("exponent", [1e-320, 1e-46, -1e-46, 0.5, 2.0000001, -1.0])
def test_an_integer_tensor_to_a_float_power_is_the_float_kernel(dtype: str,
                                                                exponent: float) -> None:
    _quiet(lambda L: L.tensor([2, 0, 1, 7]).to(getattr(L, dtype)) ** exponent)


@pytest.mark.parametrize("condition", ["bool", "wide", "float", "uint8"])
@pytest.mark.parametrize("number", [1e308, 1e39, 70000])
@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_where_reads_a_number_into_float16_unchecked(condition: str, number: float,
                                                     dtype: str) -> None:
    def program(L: Any) -> Any:
        cond = {"bool": L.ones(2, dtype=L.bool), "wide": L.ones(2, 3, dtype=L.bool),
                "float": L.ones(2), "uint8": L.ones(2, dtype=L.uint8)}[condition]
        return L.where(cond, number, L.ones(2, dtype=getattr(L, dtype)))
    _quiet(program)


@pytest.mark.parametrize("bounds", [(1j, 3), (0, 1j), (2 + 0j, 3), (0, 3 + 0j)])
def test_histc_reads_a_complex_bound_as_a_double(bounds: tuple) -> None:
    _quiet(lambda L: L.histc(L.tensor([1.0, 2.0]), 2, *bounds))


# ------------------------ a new tensor is allocated before its kernel checks its values

ALLOCATED_FIRST = {
    "randint empty range": lambda L: L.randint(5, 2, (2 ** 40, 2 ** 40)),
    "randint empty range, large": lambda L: L.randint(5, 2, (2 ** 40,)),
    "randint past int8": lambda L: L.randint(0, 300, (2 ** 40,), dtype=L.int8),
    "randint past int8, small": lambda L: L.randint(0, 300, (2,), dtype=L.int8),
    "triu_indices bool": lambda L: L.triu_indices(1, 2 ** 40, dtype=L.bool),
    "tril_indices bool": lambda L: L.tril_indices(2 ** 40, 2, dtype=L.bool),
    "tril_indices bool, small": lambda L: L.tril_indices(3, 2, dtype=L.bool),
    "arange past 2**62": lambda L: L.arange(-2 ** 62, 4),
    "arange past 2**62 + 5": lambda L: L.arange(0, 2 ** 62 + 5),
}


@pytest.mark.parametrize("call", ALLOCATED_FIRST)
def test_a_new_tensor_is_allocated_before_its_values_are_checked(call: str) -> None:
    _quiet(ALLOCATED_FIRST[call])


# ------------- autograd and out=: no refusal without a derivative, aten's name without one

@pytest.mark.parametrize("op", ["eq", "lt", "greater_equal", "logical_and", "logical_not",
                                "bitwise_and", "bitwise_not", "gcd", "floor_divide", "abs"])
@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_out_that_requires_grad_by_the_ops_derivative(op: str, dtype: str) -> None:
    def program(L: Any) -> Any:
        x, o = L.ones(3, dtype=getattr(L, dtype)), L.zeros(3, requires_grad=True)
        f = getattr(L, op)
        r = f(x, out=o) if op in ("logical_not", "bitwise_not", "abs") else f(x, x, out=o)
        return r is o, r, o.grad_fn is None, o.is_leaf
    _quiet(program)
