"""Bad input found by a differential fuzzer of indexing, index_put, clamp's bounds and dtype
promotion (session 21): each program runs on torch and on minitorch, which must raise torch's
error or give torch's result bit for bit."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from tests.oracle import (
    SETTINGS,
    assert_as_torch,  # torch's error, or its result's bits
    raised_by,
)


def _i(L: Any, values: Any, dtype: str = "int64") -> Any:
    return L.tensor(values, dtype=getattr(L, dtype))


# An index tensor into a dim of size 0 is refused only once the index tensors broadcast (a
# mask's shape is checked before both), and not where their broadcast shape is empty too
EMPTY_DIMS = [
    lambda L: L.zeros(2, 0, 3)[L.zeros(0, dtype=L.int32), _i(L, [-4, 1], "int32")],
    lambda L: L.zeros(2, 0, 3)[[2, -2], [-2, -2, -4], [True, False]],
    lambda L: L.zeros(2, 0, 3)[_i(L, [[-3, 2], [1, -3]]), _i(L, [[-4, 2, -3], [3, 4, -4]])],
    lambda L: L.zeros(0)[False, [2]],
    lambda L: L.zeros(2, 0, 3)[..., _i(L, [3], "int32"), []],
    lambda L: L.zeros(2, 0, 3)[:, [0]],
    lambda L: L.zeros(2, 0)[[1], [0]],
    # index_put reads a 0-d integer tensor as an index tensor, not an int
    lambda L: L.index_put(L.zeros(0), (_i(L, 2),), L.tensor(1.), accumulate=True),
    lambda L: L.index_put(L.zeros(2, 0), (_i(L, 5), _i(L, 0)), L.tensor(1.)),
    lambda L: L.index_put(L.zeros(3, 0), (_i(L, 1), _i(L, [])), L.tensor(1.)),
]


@pytest.mark.parametrize("program", EMPTY_DIMS)
def test_index_into_an_empty_dim(program: Callable[[Any], Any]) -> None:
    assert_as_torch(program)


@given(st.lists(st.integers(0, 3), min_size=1, max_size=3),
       st.lists(st.integers(-4, 4), min_size=0, max_size=3),
       st.lists(st.integers(-4, 4), min_size=0, max_size=3))
@SETTINGS
def test_index_tensors_into_empty_dims(shape: list, first: list, second: list) -> None:
    assert_as_torch(lambda L: L.zeros(*shape)[(first, second)[:len(shape)]])


# torch numbers an index tensor among the index tensors of its kernel: a bool (or 0-d bool
# tensor) is one, as the mask of a new dim; index_put's 0-d integer tensors are ones too
NUMBERING = [
    lambda L: L.ones(3, 4)[True, [3, 2, -3]],
    lambda L: L.ones(4, 1)[:10, True, [2]],
    lambda L: L.ones(4, 1)[_i(L, [[-2, 2], [-1, -2]], "int32"), True, [-4, 2]],
    lambda L: L.zeros(3, 4)[_i(L, [0]), L.tensor(True), _i(L, [7])],
    lambda L: L.ones(3, 4).__setitem__((L.tensor(True), [3, 2, -3]), -2.5),
    lambda L: L.index_put(L.ones(2, 3), (_i(L, 1), _i(L, [3, -1])), L.tensor(7.)),
    # a mask is one index tensor per dim it indexes, in the broadcast's message too
    lambda L: L.ones(2, 3, 4, dtype=L.bool)[L.tensor([[False, False, False],
                                                       [False, True, True]]),
                                             _i(L, [[4, -2, 3, -2], [3, -1, 0, 2],
                                                    [-2, -2, 2, -3]])],
]


@pytest.mark.parametrize("program", NUMBERING)
def test_index_tensors_are_numbered_as_torch_numbers_them(program: Callable[[Any], Any]
                                                          ) -> None:
    assert_as_torch(program)


# index_put writes a one-element value through a lone mask of any dims (a 0-d one too) with
# masked_fill_, which casts it; else a 0-d mask indexes nothing (none left: torch's assert)
def _put(mask: Any, values: Any, accumulate: bool = False, shape: tuple = (3, 4),
         dtype: str = "float32") -> Callable[[Any], Any]:
    def program(L: Any) -> Any:
        x = L.zeros(*shape, dtype=getattr(L, dtype))
        return L.index_put(x, tuple(m(L) for m in mask), values(L), accumulate=accumulate)
    return program


PUTS = [
    _put([lambda L: L.tensor(True)], lambda L: _i(L, 1, "int16")),
    _put([lambda L: L.tensor(False)], lambda L: _i(L, 1, "int16")),
    _put([lambda L: _i(L, 1, "uint8")], lambda L: L.tensor(2.)),
    _put([lambda L: L.tensor(True)], lambda L: _i(L, [1, 2, 3, 4], "int16")),
    _put([lambda L: L.tensor(True), lambda L: _i(L, [1, 2])], lambda L: L.tensor([1., 2])),
    _put([lambda L: L.tensor(True), lambda L: _i(L, [1, 2])], lambda L: L.ones(2, 4)),
    _put([lambda L: _i(L, 1, "uint8")], lambda L: _i(L, [[0, 255, 0, 0], [3, 0, 0, 0]],
                                                     "uint8"), shape=(4,), dtype="uint8"),
    _put([lambda L: L.tensor(False)], lambda L: L.tensor([1., 2, 3]), shape=(3,)),
    _put([lambda L: L.tensor(False)], lambda L: L.tensor([1., 2, 3]), True, shape=(3,)),
    _put([lambda L: L.tensor(True)], lambda L: L.tensor(1.), True),
    _put([lambda L: L.tensor([True, False, True])], lambda L: L.tensor(5), shape=(3,)),
]


@pytest.mark.parametrize("program", PUTS)
def test_index_put_through_zero_dim_masks(program: Callable[[Any], Any]) -> None:
    assert_as_torch(program)


# x[key] = value writes a one-element value through a key's only index tensor, a mask, with
# masked_fill_ after the basic parts made a view: a uint8 mask is refused there
@pytest.mark.parametrize("key", [
    lambda L: (-1, _i(L, [1, 2, 1, 1], "uint8")),
    lambda L: (slice(None), _i(L, [1, 0, 1, 1], "uint8")),
    lambda L: (None, 0, _i(L, [1, 0, 1, 1], "uint8")),
    lambda L: (-1, L.tensor([True, False, True, True])),
    lambda L: (_i(L, [0]), _i(L, [1, 0, 1, 1], "uint8")),
])
@pytest.mark.parametrize("value", [lambda L: L.tensor(False), lambda L: L.tensor(2.5), 7])
def test_setitem_through_a_mask_after_basic_parts(key: Any, value: Any) -> None:
    def program(L: Any) -> Any:
        x = L.arange(12).reshape(3, 4)
        x[key(L)] = value(L) if callable(value) else value
        return x
    assert_as_torch(program)


# result_type reads an int past int64 as uint64, which promotes with no int64 or bool
@pytest.mark.parametrize("a, b", [(2 ** 31, 2 ** 63), (2 ** 63, 1), (2 ** 63, True),
                                  (True, 2 ** 63), (2 ** 63, 1.5), (2 ** 63, -1)])
def test_result_type_of_numbers_past_int64(a: Any, b: Any) -> None:
    assert_as_torch(lambda L: L.result_type(a, b))


# where checks its condition's dtype before a complex number meets minitorch's refusal
@pytest.mark.parametrize("program", [
    lambda L: L.where(L.zeros(0, dtype=L.int64), 256, 1j),
    lambda L: L.where(L.tensor([0.0, 7.8]), 1j, L.tensor(False)),
    lambda L: L.where(L.tensor([0, 2], dtype=L.int32), L.ones(2), 1j),
])
def test_where_checks_its_condition_before_a_complex_number(program: Any) -> None:
    assert_as_torch(program)


# clamp's int bounds are read into an integer result as its dtype holds them (-1 is 255 to
# uint8); a float bound makes the result floating, which holds any int bound
@pytest.mark.parametrize("program", [
    lambda L: _i(L, [6, 200], "uint8").clamp(-129),
    lambda L: _i(L, [6, 200], "uint8").clamp(-1, 3),
    lambda L: _i(L, [6, 200], "uint8").clamp_(-1),
    lambda L: _i(L, [6, 200], "uint8").clamp_min(-1),
    lambda L: _i(L, [6, 200], "uint8").clamp_max(-1),
    lambda L: _i(L, [6, 200], "uint8").clamp_min_(-3),
    lambda L: _i(L, [6, 100], "int8").clamp(-1.5, 1000),
    lambda L: _i(L, [6, 100], "int8").clamp(-1000, 1.5),
    lambda L: _i(L, [6, 100], "int8").clamp_(-1000, 1.5),
    lambda L: _i(L, [6, 100], "int8").clamp(max=200),
    lambda L: L.tensor([True, False]).clamp_min(True),
    lambda L: L.tensor([True, False]).clamp_max_(False),
    lambda L: L.tensor([True, False]).clamp_max(1),
])
def test_clamp_reads_its_bounds_as_the_result_dtype(program: Any) -> None:
    assert_as_torch(program)


# torch's indexing skips a slice of a tuple key that takes the whole dim as written (from 0,
# step 1, to the end or past it): the result is an alias; a lone slice is always sliced
@pytest.mark.parametrize("key", [
    slice(None), slice(0, 3), slice(None, 5), slice(0, 3, 1), slice(-3, None), slice(-5, 3),
    slice(None, 2), slice(1, None), slice(None, None, 2)])
@pytest.mark.parametrize("form", [lambda s: s, lambda s: (..., s), lambda s: (s,),
                                  lambda s: (s, s), lambda s: (s, None)])
def test_whole_slices_of_a_tuple_key_make_an_alias(key: slice, form: Any) -> None:
    def program(L: Any) -> Any:
        x = L.ones(3, 2, requires_grad=True)
        return type(x[form(key)].grad_fn).__name__
    assert_as_torch(program)


# a number written into a bool tensor is whether it is non-zero, past int64 and complex too
def _written(make: Callable[[Any], Any], write: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def program(L: Any) -> Any:
        x = make(L)
        write(x)
        return x
    return program


@pytest.mark.parametrize("program", [
    _written(lambda L: L.tensor([True, False]), lambda x: x.fill_(2 ** 63)),
    _written(lambda L: L.tensor([True, False]), lambda x: x.fill_(1j)),
    _written(lambda L: L.tensor([True, False]), lambda x: x.__setitem__(x.long(), 2 + 0j)),
    _written(lambda L: L.tensor([True, False]), lambda x: x.__setitem__(0, 0j)),
    _written(lambda L: L.tensor(1.0, dtype=L.float16), lambda x: x.__setitem__((None, ...),
                                                                               2 + 0j)),
    _written(lambda L: L.tensor([1, 2]), lambda x: x.__setitem__(x - 1, 2 + 1j)),
])
def test_numbers_written_into_bool_and_half_tensors(program: Any) -> None:
    assert_as_torch(program)


# out= on torch's binary elementwise functions: the result cast into out where it can be (a
# promoted op's out dtype checked before its kernel's refusals), out resized with a warning
@pytest.mark.parametrize("fn", ["sub", "div", "floor_divide", "remainder", "fmod", "pow",
                                "maximum", "minimum", "eq", "lt", "ge", "logical_and",
                                "bitwise_and", "bitwise_xor"])
@pytest.mark.parametrize("a_dtype, b, out_dtype, out_shape", [
    ("float32", 2, "float64", (3,)), ("int64", "int32", "float32", (3,)),
    ("int16", 1, "uint8", (3,)), ("float16", 1, "uint8", (2, 3)),
    ("bool", "bool", "int8", (0,)), ("int32", 1.5, "int32", (3,)),
    ("float64", "float32", "bool", (3,))])
def test_binary_functions_take_out(fn: str, a_dtype: str, b: Any, out_dtype: str,
                                   out_shape: tuple) -> None:
    def program(L: Any) -> Any:
        a = L.tensor([3, 1, 2], dtype=getattr(L, a_dtype))
        other = L.tensor([2, 1, 5], dtype=getattr(L, b)) if isinstance(b, str) else b
        out = L.zeros(out_shape, dtype=getattr(L, out_dtype))
        result = getattr(L, fn)(a, other, out=out)
        return out, result is out
    with pytest.warns(UserWarning) if out_shape == (2, 3) and raised_by(
            program, torch) is None else _nothing():
        assert_as_torch(program)


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> None:
        return None


# true division converts each integer input to the float it computes in from its own values,
# not as the inputs' common integer type holds them (a 0-d tensor does not widen it)
@pytest.mark.parametrize("program", [
    lambda L: L.div(_i(L, [7, 6], "uint8"), _i(L, 32767, "int16")),
    lambda L: _i(L, [7, 6], "int8") / L.tensor(1000),
    lambda L: L.tensor(1000) / _i(L, [7, 6], "int8"),
    lambda L: L.true_divide(L.tensor([True, False]), L.tensor(3)),
    lambda L: _i(L, [7, 6], "int8").div(L.tensor(1000), rounding_mode="floor"),
])
def test_true_division_reads_each_integer_input_as_it_is(program: Any) -> None:
    assert_as_torch(program)


# an accumulating index_put checks every index tensor's dtype before any mask's shape
@pytest.mark.parametrize("accumulate", [True, False])
@pytest.mark.parametrize("second", [lambda L: _i(L, [1], "int16"), lambda L: _i(L, 1, "int8"),
                                    lambda L: L.tensor([1.]), lambda L: _i(L, [1])])
def test_index_put_accumulate_checks_dtypes_first(accumulate: bool, second: Any) -> None:
    assert_as_torch(lambda L: L.zeros(3, 4).index_put_((L.tensor([True]), second(L)), L.tensor(1.),
                                             accumulate=accumulate))
