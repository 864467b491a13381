"""Bad input found by the differential fuzzer of the tensor API (session 24): each program
runs on torch and on minitorch, which must raise torch's error or give torch's result."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.oracle import SETTINGS, assert_as_torch


def _quiet(program: Any) -> None:
    with warnings.catch_warnings():  # (torch warns of copy-constructed tensors)
        warnings.simplefilter("ignore")
        assert_as_torch(program)


# ------------------------------------------------- a bool tensor as a size (a SymInt) or not

SYMINT_SIZES = {
    "zeros": lambda L, b: L.zeros(b),
    "zeros after an int": lambda L, b: L.zeros(2, b),
    "zeros in a tuple": lambda L, b: L.zeros((2, b)),
    "empty": lambda L, b: L.empty(b).shape,
    "randn": lambda L, b: L.randn(b).shape,
    "new_zeros": lambda L, b: L.ones(2).new_zeros(b),
    "new_ones in a tuple": lambda L, b: L.ones(2).new_ones((b,)),
    "repeat": lambda L, b: L.ones(2).repeat(b),
    "tile method": lambda L, b: L.ones(2).tile(b),
    "tile function": lambda L, b: L.tile(L.ones(2), (b,)),
    "reshape": lambda L, b: L.ones(2).reshape(b, 2),
    "view": lambda L, b: L.ones(2).view(b, 2),
    "expand": lambda L, b: L.ones(2).expand(b, 2),
    "unflatten": lambda L, b: L.ones(2, 2).unflatten(0, (2, b)),
    "layer_norm": lambda L, b: L.nn.functional.layer_norm(L.ones(2), (b,)),
    # int64 lists (dims, roll's shifts) read a bool tensor as 0 or 1
    "roll": lambda L, b: L.ones(3).roll(b, 0),
    "permute": lambda L, b: L.ones(2, 2).permute((b, 0)),
    "flip": lambda L, b: L.ones(2, 2).flip((b,)),
    "rot90": lambda L, b: L.ones(2, 2).rot90(1, (b, 0)),
    "logsumexp": lambda L, b: L.ones(2, 2).logsumexp((b,)),
    "norm": lambda L, b: L.ones(2, 2).norm(dim=(b,)),
}


@pytest.mark.parametrize("program", list(SYMINT_SIZES))
@pytest.mark.parametrize("shape", [(), (1,)])
@pytest.mark.parametrize("value", [True, False])
def test_bool_tensor_as_size(program: str, shape: tuple, value: bool) -> None:
    _quiet(lambda L: SYMINT_SIZES[program](L, L.full(shape, value)))


# --------------------------------------------- int64 parameters: a tensor only if it is 0-d

INT64_PARAMETERS = {
    "diff's n": lambda L, t: L.diff(L.ones(3), n=t),
    "polygamma's n": lambda L, t: L.polygamma(t, L.ones(3)),
    "polygamma method": lambda L, t: L.ones(3).polygamma(t),
    "polygamma_": lambda L, t: L.ones(3).polygamma_(t),
    "mvlgamma's p": lambda L, t: L.ones(3).mvlgamma(t),
    "diag's diagonal": lambda L, t: L.ones(3).diag(t),
    "rot90's k": lambda L, t: L.ones(3, 3).rot90(t, (0, 1)),
    # SymInt parameters take any one-element integral tensor
    "tril's diagonal": lambda L, t: L.ones(3, 3).tril(t),
    "eye's n": lambda L, t: L.eye(t),
    "topk's k": lambda L, t: L.ones(3).topk(t),
}


@pytest.mark.parametrize("program", list(INT64_PARAMETERS))
@pytest.mark.parametrize("make", ["0-d", "1-d", "bool 0-d"])
def test_tensor_as_int64_parameter(program: str, make: str) -> None:
    def tensor(L: Any) -> Any:
        return {"0-d": L.tensor(1), "1-d": L.tensor([1]), "bool 0-d": L.tensor(True)}[make]

    _quiet(lambda L: INT64_PARAMETERS[program](L, tensor(L)))


# ------------------------------------- tensors inside a list: an integer dtype reads indices

@pytest.mark.parametrize("code", [
    "L.ShortTensor([L.tensor(1.5)])",
    "L.ShortTensor([L.tensor(1.5, dtype=L.half)])",
    "L.ShortTensor([[L.tensor(1.5)]])",
    "L.ShortTensor([L.tensor([1, 2])])",
    "L.ShortTensor([L.tensor([1])])",
    "L.FloatTensor([L.tensor(1.5)])",
    "L.tensor([L.tensor(1.5)], dtype=L.int16)",
    "L.tensor([L.tensor(1.5)], dtype=L.uint8)",
    "L.tensor([L.tensor(1.5)], dtype=L.float16)",
    "L.tensor([L.tensor([1, 2]), L.tensor([3, 4])], dtype=L.int8)",
    "L.tensor([L.tensor([1, 2]), L.tensor([3, 4])], dtype=L.float32)",
    "L.tensor([L.tensor(1), L.tensor(2.5)], dtype=L.int8)",
    "L.tensor([1, L.tensor(2.5)], dtype=L.int32)",
    "L.as_tensor([L.tensor(1.5)], dtype=L.int16)",
    # a tensor below the first item's nesting is a sequence there
    "L.tensor([[1], L.tensor([2])])",
    "L.tensor([[1, 2], L.tensor([3.5, 4])])",
    "L.tensor([[1, 2], L.tensor([3, 4])], dtype=L.int8)",
    "L.tensor([[1], L.tensor(2)])",
    "L.tensor([[[1, 2]], L.tensor([[3, 4]])])",
])
def test_tensors_in_a_list(code: str) -> None:
    _quiet(lambda L: eval(code, {"L": L}))


# ------------------------------------------------------------------ numpy uint64 numbers

@pytest.mark.parametrize("value", [5, 2 ** 63 - 1, 2 ** 63, 2 ** 64 - 1])
def test_numpy_uint64_number(value: int) -> None:
    number = np.uint64(value)
    _quiet(lambda L: L.copysign(L.ones(2), number))
    _quiet(lambda L: L.tensor(number))
    _quiet(lambda L: L.tensor(number, dtype=L.float32))


@pytest.mark.parametrize("value", [np.float32(-2.0), np.int8(-2), np.bool_(True)])
def test_copysign_numpy_number(value: Any) -> None:
    _quiet(lambda L: L.copysign(L.tensor([1.0, -2.0]), value))


# ------------------------------------------------ chunk's size: torch's int64 ceil division

@given(length=st.integers(0, 6), chunks=st.one_of(
    st.integers(1, 8), st.integers(2 ** 63 - 8, 2 ** 63 - 1), st.sampled_from([2 ** 60, 2 ** 62])))
@SETTINGS
def test_chunk_counts(length: int, chunks: int) -> None:
    assert_as_torch(lambda L: L.ones(length).chunk(chunks))


# ------------------------------------ one value written into an expanded tensor, as torch

@pytest.mark.parametrize("code", [
    "L.ones(4).expand(3, 4).fill_(2)",
    "L.ones(4).expand(3, 4).zero_()",
    "L.ones(4).expand(3, 4).t().zero_()",
    "L.ones(4).expand(3, 4).detach().fill_(1.5)",
    "L.ones(3, 1).expand(3, 4).zero_()",
    "L.ones(4).as_strided((3, 4), (0, 1)).fill_(1)",
    "L.ones(1, dtype=L.int64).expand(3).fill_(2.5)",
    "L.ones(1).expand(3).fill_(2 ** 70)",
    "L.ones(4).expand(3, 4).fill_(L.tensor(2.))",  # a tensor's value: refused
    "L.ones(4).expand(3, 4).add_(1)",
    "(lambda a: (a.expand(2, 3).fill_(5), a, a._version)[1:])(L.zeros(3))",
    "(lambda a: (a.unsqueeze(0).expand(2, 3).fill_(5), a)[1])(L.zeros(3))",
    # recorded by autograd: written, and CopySlices' backward refuses
    "(lambda y: y.expand(2, 3).zero_())(L.ones(3, requires_grad=True) * 1)",
    "(lambda y: (y.expand(2, 3).fill_(2), y, y.grad_fn.name()))(L.ones(3, requires_grad=True) * 1)",
    "(lambda y: (y.expand(2, 3).zero_(), L.autograd.grad(y.sum(), y)))("
    "L.ones(3, requires_grad=True) * 1)",
    "(lambda x: (lambda y: (y.expand(2, 3).zero_(), L.autograd.grad(y.sum(), x)))(x * 1))("
    "L.ones(3, requires_grad=True))",
    "(lambda x: (lambda y: (y[0].zero_(), L.autograd.grad(y.sum(), x)))(x * 1))("
    "L.ones(3, requires_grad=True))",
])
def test_fill_expanded(code: str) -> None:
    _quiet(lambda L: eval(code, {"L": L}))


# ------------------------------------------- in-place twins: torch's count of the arguments

@pytest.mark.parametrize("code", [
    "L.ones(3, 3).triu_(1, 2)",
    "L.ones(3, 3).tril_(0, L.ones(2), 'a')",
    "L.ones(3, 3).hypot_(L.ones(3), 1)",
    "L.ones(3, 3).logit_(0, 0, 1)",
    "L.ones(3, 3).heaviside_(L.ones(3), 1.5)",
    "L.ones(3).xlogy_(1, 2, 3)",
    "L.ones(3).ceil_(1)",
    "L.ones(3).mvlgamma()",
])
def test_inplace_argument_count(code: str) -> None:
    _quiet(lambda L: eval(code, {"L": L}))


# --------------------------- the order of the refusals: the parser, autograd, the iterator

@pytest.mark.parametrize("code", [
    "L.ones(3, dtype=L.int32).expand(2, 3).exponential_()",
    "L.ones(3, dtype=L.int32).expand(2, 3).exponential_(-1)",
    "L.ones(3, dtype=L.int32).expand(2, 3).log_normal_()",
    "L.ones(3, dtype=L.int32).expand(2, 3).log_normal_(1, -1)",
    "L.ones(3, dtype=L.int32).expand(2, 3).cauchy_()",
    "L.ones(3, dtype=L.int32).expand(2, 3).random_(2 ** 40)",
    "L.ones(3, dtype=L.int32).expand(2, 3).random_(2, 1)",
    "L.ones(3, dtype=L.bool).expand(2, 3).random_(0, 3)",
    "L.ones(3, requires_grad=True).round_(1.5)",
    "L.ones(3, requires_grad=True).round_(1, 2)",
    "L.ones(3, requires_grad=True).round_(decimals=1.5)",
    "L.ones(3, requires_grad=True).round_(decimals=1)",
    "L.ones(3).expand(2, 3).round_(L.ones(3), True)",
    "L.ones(3).expand(2, 3).round_(decimals=1)",
    "L.ones(3, requires_grad=True).xlogy_('a')",
    "L.ones(3, requires_grad=True).addcmul_(L.ones(3), L.ones(3), value='a')",
    "L.ones(3, requires_grad=True).addcmul_(L.ones(3), L.ones(2))",
    "L.ones(3).expand(2, 3).lerp_(L.ones(3), 'a')",
])
def test_refusal_order(code: str) -> None:
    _quiet(lambda L: eval(code, {"L": L}))


# ------------------------------------------ numpy ints and tensors where an int is expected

@pytest.mark.parametrize("code", [
    "L.ones(2, 3).repeat_interleave(2, np.uint8(1))",
    "L.ones(2, 3).repeat_interleave(2, np.int64(1))",
    "L.ones(2, 3).repeat_interleave(np.int64(2), 1)",
    "L.ones(2, 3).repeat_interleave(L.tensor(2), np.uint8(1))",
    "L.ones(2, 3).repeat_interleave(2, L.tensor(1))",
    "L.ones(2, 3).repeat_interleave(2, L.tensor([1]))",
    "L.ones(2, 3).repeat_interleave(2, 1, output_size=np.int64(12))",
    "L.ones(2, 3).repeat_interleave(2 ** 63, 1)",
    "L.ones(2, 3).repeat_interleave(2, 1.0)",
    "L.repeat_interleave(L.ones(2, 3), np.uint8(2))",
    "L.all(L.ones(2, 2), L.tensor([[1]]))",
    "L.all(L.ones(2, 2), L.tensor([1]))",
    "L.all(L.ones(2, 2), L.tensor(1))",
    "L.all(L.ones(2, 2), L.tensor(True))",
    "L.any(L.ones(2, 2), L.tensor([1]), True)",
    "L.all(L.ones(2, 2), dim=L.tensor([1]))",
    "L.ones(2, 2).all(L.tensor([1]))",
    "L.ones(2, 2).any(L.tensor([1]), True)",
    "L.ones(2, 2).all(L.tensor([1]), keepdim=True)",
    "L.ones(2, 2).all(L.tensor(1))",
])
def test_int_arguments(code: str) -> None:
    _quiet(lambda L: eval(code, {"L": L, "np": np}))


# ------------------------------------------------------- map_ and apply_, torch's C methods

@pytest.mark.parametrize("code", [
    "L.ones(2, 3).map_(L.ones(2, 3, dtype=L.bool), 0)",
    "L.ones(2, 3).map_(L.ones(2, 3), 0)",
    "L.ones(2, 3).map_(L.ones(3, dtype=L.float64), lambda a, b: a)",
    "L.ones(2, 3, dtype=L.bool).map_(L.ones(2, 3), lambda a, b: a)",
    "L.ones(2).map_(L.ones(3), lambda a, b: a)",
    "L.ones(2).map_(L.ones(3, dtype=L.int64), lambda a, b: a)",
    "L.ones(2, requires_grad=True).map_(L.ones(3, dtype=L.int64), 0)",
    "L.ones(2, 3).map_(L.ones(3), lambda a, b: a + b)",
    "L.ones(2, 3).map_(3)",
    "L.ones(2, 3).map_(other=L.ones(3), callable=lambda a, b: a)",
    "L.ones(2, 3).map_(tensor=L.ones(3), callable=lambda a, b: a)",
    "L.ones(2, 3).apply_()",
    "L.ones(2, 3).apply_(1, 2)",
    "L.ones(2, 3).apply_(callable=1)",
    "L.ones(2, 3).apply_(lambda a: a * 2)",
    "L.ones(2, 3, requires_grad=True).apply_(1)",
])
def test_map_apply(code: str) -> None:
    _quiet(lambda L: eval(code, {"L": L}))


# ------------------------------- in-place methods of several overloads: torch's combination

OVERLOADED = ["pow_", "float_power_", "fill_", "clamp_min_", "clamp_max_", "div_", "eq_", "ne_",
              "lt_", "le_", "gt_", "ge_", "greater_", "less_", "squeeze_", "index_fill_",
              "scatter_", "remainder_", "masked_fill_"]
CALLS = ["3, 0, 'a', 1, 2", "", "3, 0, 'a'", "'a'", "None", "1.5, 'a'", "L.ones(3), 2, 3"]


@pytest.mark.parametrize("name", OVERLOADED)
@pytest.mark.parametrize("call", CALLS)
def test_overloaded_inplace(name: str, call: str) -> None:
    _quiet(lambda L: eval(f"L.ones(3).{name}({call})", {"L": L}))


@pytest.mark.parametrize("code", [
    "L.ones(1, 3).squeeze_(0, 0)",
    "L.ones(1, 1, 3).squeeze_(0, 1).shape",
    "L.ones(1, 3).squeeze_(True, 0)",
    "L.ones(1, 3, requires_grad=True).squeeze_(L.tensor(1, dtype=L.int16), 3, 0)",
    "L.ones(1, 3, requires_grad=True).squeeze_(5)",
    "L.ones(1, 3, requires_grad=True).squeeze_('a')",
    "(L.ones(1, 3, requires_grad=True) * 1).squeeze_(5)",
    "L.ones(1, 3, requires_grad=True).unsqueeze_(5)",
    "L.ones(1, 3, requires_grad=True).unsqueeze_('a')",
    "L.ones(1, 3, requires_grad=True).unsqueeze_(2 ** 63)",
    "L.ones(1, 3).unsqueeze_(5)",
])
def test_view_changes_in_place(code: str) -> None:
    _quiet(lambda L: eval(code, {"L": L}))


@pytest.mark.parametrize("code", [
    "L.ones(3).roll((L.tensor(True),))",
    "L.ones(3).roll((L.tensor([True]),))",
    "L.ones(3).roll(L.tensor(True))",
    "L.ones(3).roll(L.tensor([True]))",
    "L.ones(3).roll((1, L.tensor(True)), (0, 0))",
    "L.roll(L.ones(3), [L.tensor(1)])",
    "L.polygamma(200, L.ones(2))",
    "L.polygamma(171, L.tensor([1., 2., 0.5], dtype=L.float64))",
    "L.ones(3, dtype=L.bool).nan_to_num_(L.ones(3, dtype=L.bool), (0, 1), foo=L.ones(2))",
    "L.ones(3).nan_to_num_(1.0, foo=1)",
    "L.ones(3).hypot_(L.ones(3), foo=1)",
    "L.ones(3).lerp_(L.ones(3), 0.5, foo=1)",
    "L.ones(3).round_(decimals=1, foo=2)",
])
def test_more_parsing(code: str) -> None:
    _quiet(lambda L: eval(code, {"L": L}))


@pytest.mark.parametrize("code", [
    "L.HalfTensor([[1, 2], L.tensor([[1, 2]])])",
    "L.as_tensor([[1, 2], L.tensor([[1, 2]])], dtype=L.int16)",
    "L.tensor([[1, 2], L.tensor([3, 4, 5])])",
    "L.tensor([[1, 2], [L.tensor(1.5)]], dtype=L.int8)",
    "L.tensor([[1, 2], [L.tensor(1.5), 2]], dtype=L.int8)",
    "L.tensor([[], [1]])",
    "L.tensor([[1], []])",
    "L.tensor([[1, 2], [3]])",
    "L.tensor([[1, 2], [[3], 4]])",
    "L.tensor([[1, 2], [3, 4], [5]])",
    "L.tensor([range(2), [1, 2]])",
])
def test_nested_lengths_first(code: str) -> None:
    _quiet(lambda L: eval(code, {"L": L}))


@pytest.mark.parametrize("code", [
    "L.mul(L.zeros(2, dtype=L.float16), np.int64(-2 ** 63))",
    "L.mul(L.zeros(2, dtype=L.float16), np.int64(70000))",
    "L.mul(L.zeros(2, dtype=L.float16), np.float64(70000.0))",
    "L.zeros(2, dtype=L.float16) * np.int64(70000)",
    "np.int64(70000) * L.zeros(2, dtype=L.float16)",
    "L.tensor([397.], dtype=L.float16) * np.float64(0.001)",
    "L.tensor([397.], dtype=L.float16) / np.float32(1000)",
    "L.tensor([397.], dtype=L.float16) * np.bool_(True)",
    "L.zeros(2, dtype=L.float16).mul_(np.int64(70000))",
    "L.addcdiv(L.zeros(2, dtype=L.float16), L.ones(2, dtype=L.float16), "
    "L.ones(2, dtype=L.float16), value=np.int64(70000))",
])
def test_half_by_numpy_number(code: str) -> None:
    _quiet(lambda L: eval(code, {"L": L, "np": np}))


@pytest.mark.parametrize("code", [
    "L.zeros(2, 0, 3, dtype=L.uint8).bitwise_right_shift_(np.float16(1.5))",
    "L.zeros(2, dtype=L.uint8).bitwise_right_shift_(np.float16(1.5))",
    "L.zeros(2, dtype=L.uint8).bitwise_left_shift_(np.int64(1))",
    "L.zeros(2, dtype=L.int64).bitwise_and_(np.int8(3))",
    "L.zeros(2, dtype=L.int64).bitwise_or_(np.bool_(True))",
    "L.zeros(2, dtype=L.bool).bitwise_xor_(np.bool_(True))",
    "L.zeros(2, dtype=L.int32).bitwise_and_(np.uint64(2 ** 63))",
])
def test_bitwise_inplace_numpy_number(code: str) -> None:
    _quiet(lambda L: eval(code, {"L": L, "np": np}))


NUMPY_NUMBERS = [np.int64(300), np.int64(-1), np.uint64(2 ** 63), np.uint64(5), np.uint8(200),
                 np.int8(-3), np.float64(1.5), np.float32(1e10), np.float16(2.5),
                 np.float64(np.nan), np.bool_(True), np.int32(70000), np.uint64(2 ** 64 - 1)]


@pytest.mark.parametrize("value", NUMPY_NUMBERS, ids=repr)
@pytest.mark.parametrize("dtype", ["uint8", "int8", "int32", "int64", "float16", "float32",
                                   "bool"])
def test_numpy_number_given_a_dtype(value: Any, dtype: str) -> None:
    _quiet(lambda L: L.tensor(value, dtype=getattr(L, dtype)))


@pytest.mark.parametrize("code", [
    "L.topk(L.ones(3, 3, dtype=L.int64), k=np.uint64(2))",
    "L.ones(3).topk(np.int32(2), np.int8(0))",
    "L.ones(0, 3).unsafe_chunk(2 ** 63 - 1)",
])
def test_numpy_ints_and_counts(code: str) -> None:
    _quiet(lambda L: eval(code, {"L": L, "np": np}))


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "int64"])
def test_mvlgamma_huge_dimension(dtype: str) -> None:
    _quiet(lambda L: L.mvlgamma(L.tensor([1., 2., 3.]).to(getattr(L, dtype)), 2 ** 62))


@pytest.mark.parametrize("code", [
    "L.trapezoid(L.ones(2, 3), None)",
    "L.trapz(L.ones(2, 3), None)",
    "L.cumulative_trapezoid(L.ones(2, 3), None)",
    "L.trapezoid(L.ones(2, 3), None, dim=0)",
    "L.trapezoid(L.ones(2, 3), dx=None)",
    "L.trapezoid(L.ones(2, 3))",
    "L.trapezoid(L.ones(2, 3), dx=2)",
    "L.trapezoid(L.ones(2, 3), L.ones(3))",
    "L.trapezoid(L.ones(2, 3), L.ones(3), dx=2)",
    "L.ones(2, 3).trapezoid()",
])
def test_trapezoid_spacing(code: str) -> None:
    _quiet(lambda L: eval(code, {"L": L}))


@pytest.mark.parametrize("code", [
    "L.copysign(L.ones(2), np.array(3))",
    "L.copysign(L.ones(2), np.array([3]))",
    "L.ones(2).copysign(np.array(3))",
    "L.histc(L.ones(3), bins=2 ** 62)",
    "L.histc(L.ones(3), bins=5)",
])
def test_arrays_and_huge_bins(code: str) -> None:
    _quiet(lambda L: eval(code, {"L": L, "np": np}))
