"""Bad input found by a differential fuzzer of indexing, dtype promotion and printing: each
program runs on torch and on minitorch, which must raise torch's error or give torch's result
bit for bit (float16 included)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.oracle import SETTINGS, assert_as_torch


def _filled_(dtype: str, value: Any) -> Callable[[Any], Any]:
    def program(L: Any) -> Any:
        x = L.tensor([1, 2], dtype=getattr(L, dtype))
        return x.masked_fill_(L.tensor([True, False]), value)
    return program


# masked_fill reads its value as torch's checked fill: an int wraps into an unsigned type down
# to minus its maximum, anything else the dtype cannot hold is refused (numpy's own
# OverflowError escaped before)
@pytest.mark.parametrize("dtype, value", [
    ("uint8", -3), ("uint8", -256), ("uint8", 256), ("int8", 200), ("int8", 2 ** 63),
    ("int16", 2 ** 40), ("float16", 2 ** 63), ("float16", 70000), ("int64", 2 ** 63),
    ("bool", 5), ("int32", True)])
def test_masked_fill_number_fits_the_dtype(dtype: str, value: Any) -> None:
    assert_as_torch(_filled_(dtype, value))
    assert_as_torch(lambda L: L.tensor([1, 2], dtype=getattr(L, dtype)).masked_fill(
        L.tensor([True, False]), value))


@pytest.mark.parametrize("dtype, value", [
    ("uint8", -5.69), ("uint8", -3), ("int8", 300), ("float16", 1e10)])
def test_masked_fill_tensor_value_fits_the_dtype(dtype: str, value: Any) -> None:
    assert_as_torch(lambda L: L.masked_fill(L.tensor([1, 2], dtype=getattr(L, dtype)),
                                  L.tensor([True, False]), L.tensor(value)))


def test_masked_fill_of_an_empty_tensor_still_checks_the_value() -> None:
    assert_as_torch(lambda L: L.zeros(0, dtype=L.int16).masked_fill_(L.zeros(0, dtype=L.bool),
                                                                      2 ** 63))


# index_put(_): every index is a tensor index (a 0-d one too), the value's leading ones count,
# and its dtype must be the input's unless a single mask writes one element (masked_fill_)
@pytest.mark.parametrize("indices, value, accumulate", [
    ("0d", "f64[1]", True), ("0d", "f64[1]", False), ("1d", "f64[[1]]", True),
    ("0d", "i64", False), ("0d", "i64", True), ("mask", "i64", True), ("mask", "i64", False),
    ("mask", "i64[1]", False), ("1d", "f64[1]", False)])
def test_index_put_value_shape_and_dtype(indices: str, value: str, accumulate: bool) -> None:
    def program(L: Any) -> Any:
        y = L.zeros(4, dtype=L.float64)
        index = {"0d": L.tensor(3), "1d": L.tensor([3]),
                 "mask": L.tensor([True, False, True, True])}[indices]
        v = {"f64[1]": L.tensor([6.0], dtype=L.float64), "f64[[1]]": L.tensor([[6.0]],
             dtype=L.float64), "i64": L.tensor(6), "i64[1]": L.tensor([6])}[value]
        return y.index_put_((index,), v, accumulate=accumulate), L.index_put(
            L.zeros(2, 4, dtype=L.float64), (L.tensor(1),), v, accumulate=accumulate)
    assert_as_torch(program)


def test_index_put_on_an_empty_tensor_checks_the_dtype() -> None:
    assert_as_torch(lambda L: L.zeros(0, dtype=L.int16).index_put_((L.zeros(0, dtype=L.bool),),
                                                         L.tensor(6), accumulate=True))


# a 0-d float tensor in a key is an index tensor, which torch's kernel refuses by its dtype
@pytest.mark.parametrize("key", [
    lambda L: L.tensor(1.0), lambda L: (L.tensor(1.0), 7),
    lambda L: (L.tensor(1.0), None, ..., 2), lambda L: (L.tensor(1.0), L.tensor([1, 2]))])
def test_zero_dim_float_tensor_index(key: Callable[[Any], Any]) -> None:
    assert_as_torch(lambda L: L.zeros(3, 4, dtype=L.uint8)[key(L)])

    def assign(L: Any) -> Any:
        x = L.zeros(3, 4)
        x[key(L)] = 1.0
        return x
    assert_as_torch(assign)


# float16 times or over one value of another dtype: torch's kernel reads the value into float32
# (not rounded to float16 first) and rounds the float32 result once
@pytest.mark.parametrize("other", [
    0.001, 1e6, 70000, 2 ** 63, lambda L: L.tensor(0.001), lambda L: L.tensor(0.1, dtype=L.float64),
    lambda L: L.tensor([70000]), lambda L: L.tensor([[[1e-3]]], dtype=L.float32)])
def test_float16_by_one_value_rounds_once(other: Any) -> None:
    def operand(L: Any) -> Any:
        return other(L) if callable(other) else other

    def half(L: Any) -> Any:
        return L.tensor([397.0, 0.0, 1000.0, -3.3], dtype=L.float16)

    assert_as_torch(lambda L: half(L) * operand(L))
    assert_as_torch(lambda L: half(L) / operand(L))
    assert_as_torch(lambda L: half(L).mul_(operand(L)) if not callable(other) else half(L) * 1)

    def in_place(L: Any) -> Any:
        x = half(L)
        x *= operand(L) if not callable(other) else 1
        return x
    assert_as_torch(in_place)


@SETTINGS
@given(st.floats(-1e4, 1e4, width=16), st.floats(1e-6, 1e7))
def test_float16_times_a_float_as_torch(x: float, scale: float) -> None:
    assert_as_torch(lambda L: L.tensor([x], dtype=L.float16) * scale)
    assert_as_torch(lambda L: L.tensor([x], dtype=L.float16) / scale)


def test_float16_by_a_number_keeps_its_gradient_exact() -> None:
    def program(L: Any) -> Any:
        x = L.tensor([397.0, 0.0, 1000.0], dtype=L.float16, requires_grad=True)
        y = x * 0.001
        y.backward(L.ones(3, dtype=L.float16))
        return y.detach(), x.grad
    assert_as_torch(program)


# an integer division of an empty result reads no divisor: no ZeroDivisionError
@pytest.mark.parametrize("program", [
    lambda L: L.zeros(0, dtype=L.uint8) // 0,
    lambda L: L.zeros(0, dtype=L.uint8) % L.tensor(0),
    lambda L: L.zeros(0, dtype=L.int16).floor_divide_(False),
    lambda L: L.remainder(L.zeros(2, 0, dtype=L.int32), L.zeros(2, 1, dtype=L.int32)),
    lambda L: L.remainder(L.ones(2, 3, dtype=L.int32), L.zeros(2, 1, dtype=L.int32))])
def test_integer_division_of_an_empty_result(program: Callable[[Any], Any]) -> None:
    assert_as_torch(program)


# in place, the operands' broadcast to self's shape comes before the kernel's checks
@pytest.mark.parametrize("program", [
    lambda L: L.tensor(4).fmod_(L.tensor([[False] * 3, [True] * 3])),
    lambda L: L.tensor(4).div_(L.tensor([[0, 0, 0], [1, 1, 1]]), rounding_mode="floor"),
    lambda L: L.tensor(4).div_(L.tensor([[0, 0, 0], [1, 1, 1]]), rounding_mode="trunc"),
    lambda L: L.tensor([4.0, 3, 3]).copysign_(L.tensor([[-1, 0, 0], [1, 1, 1]])),
    lambda L: L.tensor([4, 3, 3]).fmod_(L.tensor([2.0, 0, 1]))])
def test_in_place_output_shape_first(program: Callable[[Any], Any]) -> None:
    assert_as_torch(program)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int64", "bool"])
def test_in_place_complex_result_names_its_type(dtype: str) -> None:
    assert_as_torch(lambda L: L.ones(3, dtype=getattr(L, dtype)).add_(1j))
    assert_as_torch(lambda L: L.ones(3, dtype=getattr(L, dtype)).mul_(1j))


# gather and the scatters read no dtype of an empty index; a src of another dtype is refused
@pytest.mark.parametrize("program", [
    lambda L: L.zeros(0).scatter_reduce_(-1, L.zeros(0), L.ones(5), "mean"),
    lambda L: L.scatter(L.zeros(0, dtype=L.uint8), 0, L.zeros(0), L.ones(2, 2, dtype=L.int16),
                        reduce="add"),
    lambda L: L.take_along_dim(L.zeros(3, dtype=L.float64), L.zeros(0)),
    lambda L: L.gather(L.zeros(3, 2), 0, L.zeros(0, 2, dtype=L.bool)),
    lambda L: L.zeros(3, 2).scatter(0, L.zeros(0, 2, dtype=L.uint8), 5.0),
    lambda L: L.zeros(3, 2).scatter_add(0, L.zeros(0, 2, dtype=L.uint8), L.ones(2, 2)),
    lambda L: L.zeros(0, dtype=L.bool).scatter(-1, L.zeros(0, dtype=L.int16), True),
    lambda L: L.zeros(3).scatter(0, L.tensor([1.0]), L.ones(1))])
def test_gather_scatter_empty_index(program: Callable[[Any], Any]) -> None:
    assert_as_torch(program)


# where converts its numbers (and promotes them) before it reads the condition's dtype
@pytest.mark.parametrize("program", [
    lambda L: L.where(L.tensor([-6.9, 5.0]), 7, 1e300),
    lambda L: L.tensor([[7, 8]], dtype=L.int16).where(L.tensor([[1, 0]]), 2 ** 63),
    lambda L: L.where(L.tensor([3.0, -4.0, 2.0]), L.tensor([9], dtype=L.uint8), 2 ** 31),
    lambda L: L.where(L.tensor([True, False, True]), L.tensor([9, 3, 4, 5], dtype=L.uint8),
                      2 ** 31),
    lambda L: L.where(L.tensor([True, False]), True, 2 ** 63),
    lambda L: L.where(L.tensor([True, False]), 3, 2 ** 63),
    lambda L: L.where(L.tensor([True, False]), 2 ** 63, True),
    lambda L: L.where(L.tensor([True, False]), 1.5, 2 ** 63),
    lambda L: L.where(L.tensor([1, 0], dtype=L.uint8), L.tensor([9, 3], dtype=L.uint8), 2)])
def test_where_numbers_before_the_condition(program: Callable[[Any], Any]) -> None:
    assert_as_torch(program)


# index_fill's parser takes a complex or any int, refused later in torch's order
@pytest.mark.parametrize("program", [
    lambda L: L.zeros(0, dtype=L.int32).index_fill(0, L.tensor([-1, 4, 2]), 1j),
    lambda L: L.zeros(3).index_fill(5, L.tensor([0]), 1j),
    lambda L: L.zeros(3).index_fill_(0, L.tensor([1]), 1 + 0j),
    lambda L: L.zeros(2, 3, dtype=L.int8).index_fill(2, L.tensor([0], dtype=L.int8), 1j),
    lambda L: L.zeros(0, dtype=L.float64).index_fill(-2, L.tensor([1, -2, 2]), -2 ** 63 - 1),
    lambda L: L.zeros(2, 3).index_fill(-1, L.tensor([False, True]), 2 ** 70),
    lambda L: L.zeros(3, dtype=L.int32).index_fill(0, L.tensor([1]), 2 ** 64 - 1)])
def test_index_fill_value_parsing(program: Callable[[Any], Any]) -> None:
    assert_as_torch(program)


@pytest.mark.parametrize("weight", [2 ** 70, -2 ** 63 - 1])
def test_lerp_weight_overflows_before_the_dtype_checks(weight: int) -> None:
    assert_as_torch(lambda L: L.tensor([1, 4], dtype=L.int64).lerp_(L.zeros(0, dtype=L.int8),
                                                                     weight))
    assert_as_torch(lambda L: L.lerp(L.zeros(2), L.zeros(2, dtype=L.float64), weight))


# torch 2.13's take_along_dim(dim=) wraps each index into the dim (Python's modulo)
@pytest.mark.parametrize("index", [[0, 1, 4], [-1, -5], [5], [9], [-6], [-7], [100], [-100]])
def test_take_along_dim_wraps_indices(index: list) -> None:
    assert_as_torch(lambda L: L.take_along_dim(L.arange(5) * 10, L.tensor(index), dim=0))
    assert_as_torch(lambda L: L.take_along_dim(L.arange(5) * 10, L.tensor(index)))  # flat: refused


def test_take_along_dim_wrapped_gradient_and_empty_dim() -> None:
    def program(L: Any) -> Any:
        x = L.arange(6.0).reshape(2, 3).requires_grad_()
        y = L.take_along_dim(x, L.tensor([[3, -1, 5]]), dim=0)
        y.sum().backward()
        return y.detach(), x.grad
    assert_as_torch(program)
    assert_as_torch(lambda L: L.take_along_dim(L.zeros(0, 3), L.tensor([[1, 0, 0]]), 0))
    assert_as_torch(lambda L: L.take_along_dim(L.zeros(0, 3), L.zeros(0, 3, dtype=L.long), 0))


# scatter checks the index range before it converts its number to the tensor's dtype
@pytest.mark.parametrize("program", [
    lambda L: L.tensor(-1, dtype=L.int16).scatter(-1, L.tensor(1), float("inf")),
    lambda L: L.tensor([9, 0, 0, 7], dtype=L.uint8).scatter(-1, L.tensor(4), 256),
    lambda L: L.zeros(0, dtype=L.int32).scatter(0, L.tensor(-2), 2 ** 63),
    lambda L: L.zeros(3, dtype=L.int32).scatter(0, L.tensor([1]), 2 ** 63),
    lambda L: L.zeros(3, dtype=L.int32).scatter_(0, L.tensor([7]), 2 ** 31, reduce="add")])
def test_scatter_value_after_the_index_range(program: Callable[[Any], Any]) -> None:
    assert_as_torch(program)


# one value through one mask is torch's masked_fill_: a uint8 index is refused there, a tensor
# value must fit the dtype; a number is checked as x[key] = number converts it (into float16
# as a double, cast unchecked: 70000 becomes inf)
@pytest.mark.parametrize("dtype, key, value", [
    ("float32", "u8", 5), ("float32", "u8", "t[5.]"), ("float32", "u8", "t[5,6,7,8]"),
    ("float32", "u8-short", 5), ("float32", "u8-0d", 5), ("int64", "mask", float("nan")),
    ("int64", "mask", "t(nan)"), ("int8", "mask", "t[300]"), ("int8", "mask", 300),
    ("int8", "mask", "t[3.5]"), ("uint8", "mask", "t(-3)"), ("float16", "mask", 70000),
    ("float16", "mask", "t(70000.)"), ("float16", "mask", 1j), ("float16", "idx", 70000),
    ("float16", "0", 1e300), ("float16", "0", 2 ** 31), ("float16", "0", 2 ** 63),
    ("float16", "0,0", 1j), ("float16", "0,0", 2 ** 31)])
def test_setitem_through_one_mask_and_float16_numbers(dtype: str, key: str, value: Any) -> None:
    def program(L: Any) -> Any:
        x = L.zeros(3, 4, dtype=getattr(L, dtype)) if key.startswith("u8") else \
            L.zeros(3, dtype=getattr(L, dtype))
        k = {"u8": L.tensor([1, 0, 1], dtype=L.uint8), "u8-short": L.tensor([1, 0],
             dtype=L.uint8), "u8-0d": L.tensor(1, dtype=L.uint8),
             "mask": L.tensor([True, False, True]), "idx": L.tensor([0, 1]), "0": 0,
             "0,0": (0, 0)}[key]
        v = value
        if isinstance(value, str):
            _, _, text = value.partition("[") if "[" in value else value.partition("(")
            v = L.tensor([float(n) for n in text.rstrip("]").split(",")] if "[" in value
                         else float(text.rstrip(")")))
        x[k] = v
        return x
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    lambda L: L.zeros(3, 4).index_put_((L.tensor([1, 0, 1], dtype=L.uint8),), L.tensor(5.0)),
    lambda L: L.zeros(3, 4).index_put_((L.tensor([1, 0, 1], dtype=L.uint8),), L.tensor(5.0),
                                       accumulate=True),
    lambda L: L.index_put(L.zeros(4, dtype=L.int8), (L.tensor(0, dtype=L.uint8),),
                          L.tensor(float("inf"))),
    lambda L: L.zeros(3, dtype=L.int64).index_put_((L.tensor([True, False, True]),),
                                                   L.tensor(float("nan"))),
    lambda L: L.zeros(3, dtype=L.int64).index_put_((L.tensor([True, False, True]),),
                                                   L.tensor(2.5)),
    lambda L: L.zeros(3, dtype=L.int8).index_put_((L.tensor([True, False, True]),),
                                                  L.tensor(300))])
def test_index_put_through_one_mask(program: Callable[[Any], Any]) -> None:
    assert_as_torch(program)


# add/sub scale a tensor ``other`` by alpha in the result's dtype (int8 beside a 0-d int8)
@pytest.mark.parametrize("program", [
    lambda L: L.tensor(-3, dtype=L.int8).add(L.tensor([[False, True, False]]), alpha=-1),
    lambda L: L.tensor(-3, dtype=L.int8).add(L.tensor([[1, 2, 100]], dtype=L.uint8), alpha=3),
    lambda L: L.tensor([-3, 4], dtype=L.int16).add(L.tensor(1000), alpha=100),
    lambda L: L.tensor([-3, 4], dtype=L.int16).add(L.tensor([1000]), alpha=100),
    lambda L: L.tensor([-3, 4], dtype=L.int8).add_(L.tensor([True, False]), alpha=-1)])
def test_add_alpha_in_the_result_dtype(program: Callable[[Any], Any]) -> None:
    assert_as_torch(program)


# a float16 power reads a float exponent as a float16 (a double for float32): 1e300 overflows
@pytest.mark.parametrize("exponent", [1e300, -1e10, float("inf"), 65504.0, 70000, 2 ** 31])
def test_float16_power_exponent_fits(exponent: Any) -> None:
    assert_as_torch(lambda L: L.tensor([-3.0, 2], dtype=L.float16) ** exponent)
    assert_as_torch(lambda L: L.tensor([-3.0, 2], dtype=L.float16).pow_(exponent))
    assert_as_torch(lambda L: L.tensor([-3.0, 2], dtype=L.float32) ** exponent)


# ops that promote integers to float read each operand from its own dtype: a number or a 0-d
# int64 -3 beside uint8 is -3., not 253. (xlogy and atan2 gave silently wrong values)
@pytest.mark.parametrize("program", [
    lambda L: L.tensor([7, 6, 9], dtype=L.uint8).xlogy(-3),
    lambda L: L.xlogy(-3, L.tensor([7, 6, 9], dtype=L.uint8)),
    lambda L: L.xlogy(300, L.tensor([7, 6, 9], dtype=L.int8)),
    lambda L: L.tensor([7, 0, 9], dtype=L.int8).xlogy(300),
    lambda L: L.tensor([7, 6, 9], dtype=L.uint8).atan2(L.tensor(-3)),
    lambda L: L.atan2(L.tensor(-300), L.tensor([7, 6, 9], dtype=L.int8)),
    lambda L: L.tensor([7.0, 6, 9]).atan2(L.tensor(-3)),
    lambda L: L.tensor([7, 6, 9], dtype=L.uint8).logaddexp(L.tensor(-3))])
def test_integer_to_float_ops_read_numbers_as_they_are(program: Callable[[Any], Any]) -> None:
    assert_as_torch(program)


# an int exponent past int64 is read as uint64 and does not convert to int64 for an integer
# tensor (minitorch wrapped it to a negative power); logical_and_ takes tensors only
@pytest.mark.parametrize("program", [
    lambda L: L.tensor(5, dtype=L.int16).__ipow__(2 ** 63),
    lambda L: L.zeros(0, dtype=L.int8).pow_(2 ** 63),
    lambda L: L.tensor([1, 2]) ** (2 ** 64 - 1),
    lambda L: L.tensor(5.0, dtype=L.float64).__ipow__(2 ** 63),
    lambda L: L.tensor([[0, 9, 6]], dtype=L.uint8).logical_and_(-2 ** 63 - 1),
    lambda L: L.tensor([-2.0, 4.8]).logical_and_(0),
    lambda L: L.tensor([-2.0, 4.8]).logical_or_(L.tensor(0))])
def test_uint64_exponent_and_logical_in_place_number(program: Callable[[Any], Any]) -> None:
    assert_as_torch(program)


# index_put reads its index tensors in order (a mask's shape, another tensor's dtype) after
# it counts them and before the dims they index
@pytest.mark.parametrize("program", [
    lambda L: L.zeros(2, 3, dtype=L.int32).index_put_(
        (L.tensor([[True, False, True], [False] * 3]), L.tensor([3, 3], dtype=L.int8)),
        L.tensor([7, 8, 4, 6], dtype=L.int32)),
    lambda L: L.zeros(3, 4).index_put_(
        (L.tensor([False]), L.tensor([[0, 3], [1, 2]], dtype=L.int8)), L.tensor(2.0)),
    lambda L: L.zeros(3, 4, dtype=L.uint8).index_put_(
        (L.tensor(3, dtype=L.int16), L.tensor([[-1, 1]])), L.tensor(7, dtype=L.uint8)),
    lambda L: L.index_put(L.zeros(2, 3, dtype=L.float64), (L.tensor([[3, 2, 1], [2, 2, 3]],
                          dtype=L.uint8), L.tensor([[False, True, True], [False] * 3])),
                          L.tensor([3.6, -2.0], dtype=L.float64), accumulate=True),
    lambda L: L.zeros(3, 4).index_put_((L.tensor([0, 1]), L.tensor([1.0, 2.0])), L.tensor(1.0)),
    lambda L: L.zeros(3, 4).index_put_((L.tensor([True, False, True, True]),), L.tensor(1.0)),
    lambda L: L.zeros(3).index_put_((L.tensor([True, False, True]), L.tensor([True])),
                                    L.tensor(1.0)),
    lambda L: L.tensor(3.0).index_put_((L.tensor([True]),), L.tensor(1.0)),
    lambda L: L.zeros(3, 4).index_put_((L.tensor([0, 2]), L.tensor([True, False, True, True])),
                                       L.tensor(1.0))])
def test_index_put_index_tensors_in_order(program: Callable[[Any], Any]) -> None:
    assert_as_torch(program)


# div(number, tensor) is a division of the wrapped number (DivBackward0); only the operator
# ``number / tensor`` is torch's reciprocal product (MulBackward0), and they round apart
@pytest.mark.parametrize("program", [
    lambda L: L.true_divide(255, L.tensor(7, dtype=L.int16)),
    lambda L: L.div(255, L.tensor([7], dtype=L.int16)),
    lambda L: 255 / L.tensor([7], dtype=L.int16),
    lambda L: L.div(300, L.tensor([7], dtype=L.int8)),
    lambda L: L.div(2.5, L.tensor([7, 3], dtype=L.float16)),
    lambda L: 2.5 / L.tensor([7, 3], dtype=L.float16),
    lambda L: L.div(True, L.tensor([7, 0], dtype=L.int16)),
    lambda L: L.divide(3, L.tensor([2.0], dtype=L.float64))])
def test_number_over_tensor(program: Callable[[Any], Any]) -> None:
    assert_as_torch(program)


@pytest.mark.parametrize("form", ["div", "operator"])
def test_number_over_tensor_node_and_gradient(form: str) -> None:
    def program(L: Any) -> Any:
        x = L.tensor([7.0, 3.0], requires_grad=True)
        y = L.div(2.0, x) if form == "div" else 2.0 / x
        y.sum().backward()
        return y.detach(), x.grad, y.grad_fn.name()
    assert_as_torch(program)
