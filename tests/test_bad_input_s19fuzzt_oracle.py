"""Fuzz s19 fuzzt (tensor API, seeds 19001 and 19002): bad or edge input that minitorch
accepted, refused from deep inside, answered with other values, or refused in other words
than torch. Each case runs under torch and minitorch (``L``): the same result, or the same
exception type and message."""

from __future__ import annotations

import array
import warnings
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import SETTINGS, assert_same, assert_same_error, raised_by


def assert_as_torch(fn: Any) -> None:
    """``fn(L)`` gives torch's tensor (or tuple/shape), or raises torch's exception."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = raised_by(fn, torch)
        got = raised_by(fn, mt)
        if want is not None:
            if got is not None and type(got) is type(want) and _cpython(got) == _cpython(want):
                return
            assert_same_error(got, want)
            return
        assert got is None, f"minitorch raised {got!r}; torch gave a result"
        a, b = fn(mt), fn(torch)
    if isinstance(b, torch.Tensor):
        assert_same(a, b)
    else:
        assert a == b


def _cpython(error: BaseException) -> str:
    """CPython names a C method's class Tensor or TensorBase depending on how it was reached
    (in torch itself too)."""
    return str(error).replace("TensorBase.", "Tensor.")


INTS = ["uint8", "int8", "int16", "int32", "int64"]


# ---- rsub of a number: the input scaled in the result's dtype ------------------------------
@SETTINGS
@given(dtype=st.sampled_from([*INTS, "float32"]),
       other=st.sampled_from([np.True_, 2.5, np.float64(2.0), 1, np.int64(1)]),
       alpha=st.sampled_from([2, 255, -3, 0.5]))
def test_rsub_scales_the_input_in_the_result_dtype(dtype: str, other: Any, alpha: Any) -> None:
    """rsub(uint8, np.True_, alpha=255) is 1 - 255 * x in float (it wrapped in uint8)."""
    assert_as_torch(lambda L: L.rsub(L.tensor([3, 2, 0], dtype=getattr(L, dtype)), other,
                                     alpha=alpha))


# ---- random_() on float16 ------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int16", "uint8", "bool"])
def test_random_without_bounds_draws_torchs_numbers(dtype: str) -> None:
    def draw(L: Any) -> Any:
        L.manual_seed(0)
        return L.zeros(64, dtype=getattr(L, dtype)).random_().double()  # (exact)
    assert_as_torch(draw)


# ---- tensor() of an empty ndarray keeps numpy's zero strides --------------------------------
@pytest.mark.parametrize("make", ["tensor", "from_numpy"])
@pytest.mark.parametrize("shape", [(0,), (0, 3), (2, 0, 3)])
@pytest.mark.parametrize("view", ["int64", "int8", "float16"])
def test_an_empty_ndarray_keeps_its_zero_strides(make: str, shape: tuple, view: str) -> None:
    """torch keeps numpy's strides (all 0 for an empty array): a view as a wider dtype is
    refused (minitorch accepted it)."""
    def viewed(L: Any) -> Any:
        t = getattr(L, make)(np.zeros(shape, np.int16))
        return t.stride(), t.view(getattr(L, view)).shape
    assert_as_torch(viewed)


# ---- out= of torch's unary functions -------------------------------------------------------
UNARY_OUT = ["abs", "absolute", "neg", "exp", "log1p", "tan", "exp2", "sinc", "cosh", "floor",
             "frac", "sign", "sgn", "square", "arccos", "fix", "bitwise_not", "logical_not",
             "isneginf", "signbit", "nan_to_num", "msort", "erfinv", "sigmoid", "logit"]


@settings(SETTINGS, max_examples=120)
@given(name=st.sampled_from(UNARY_OUT),
       dtype=st.sampled_from(["float32", "float64", "int64", "bool"]),
       out_dtype=st.sampled_from(["float32", "float64", "int64", "bool"]),
       out_shape=st.sampled_from([(3,), (2,), (0,)]),
       requires_grad=st.booleans())
def test_unary_functions_take_out(name: str, dtype: str, out_dtype: str, out_shape: tuple,
                                  requires_grad: bool) -> None:
    def run(L: Any) -> Any:
        x = L.tensor(np.array([0.5, -0.25, 2.0]).astype(dtype))
        if requires_grad and dtype.startswith("float"):
            x.requires_grad_(True)
        out = L.zeros(out_shape, dtype=getattr(L, out_dtype))
        result = getattr(L, name)(x, out=out)
        return result is out, out
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want, got = raised_by(run, torch), raised_by(run, mt)
        if want is not None:
            assert_same_error(got, want)
            return
        assert got is None, got
        (same_t, t), (same_m, m) = run(torch), run(mt)
    assert same_t and same_m
    if t.dtype.is_floating_point:
        t, m = t.nan_to_num(), m.nan_to_num()
    assert_same(m, t)


@pytest.mark.parametrize("name", ["log1p", "tan", "exp2", "sinc", "cosh", "abs"])
@pytest.mark.parametrize("out", [0.5, 3, "a", [1.0]])
def test_out_must_be_a_tensor(name: str, out: Any) -> None:
    assert_as_torch(lambda L: getattr(L, name)(L.ones(2), out=out))


def test_out_written_in_place() -> None:
    x = mt.tensor([0.0, 1.0])
    assert mt.exp(x, out=x) is x
    assert x.tolist() == pytest.approx([1.0, np.e])


# ---- addbmm / baddbmm: sizes read before the 3-D check ---------------------------------------
SHAPES = {0: (), 1: (4,), 2: (2, 3), 3: (2, 3, 3), 4: (1, 2, 3, 3)}


@pytest.mark.parametrize("name", ["addbmm", "baddbmm", "addbmm_", "baddbmm_"])
@pytest.mark.parametrize("d1", sorted(SHAPES))
@pytest.mark.parametrize("d2", sorted(SHAPES))
def test_batched_products_check_dims_as_torch(name: str, d1: int, d2: int) -> None:
    if name.endswith("_") and d1 == d2 == 3:
        pytest.skip("torch's in-place form resizes a mismatched input (not this class)")
    input_shape = (3, 3) if name.startswith("addbmm") else (2, 3, 3)
    if name.endswith("_"):
        assert_as_torch(lambda L: getattr(L.zeros(input_shape), name)(
            L.zeros(SHAPES[d1]), L.zeros(SHAPES[d2])))
    else:
        assert_as_torch(lambda L: getattr(L, name)(L.zeros(input_shape), L.zeros(SHAPES[d1]),
                                                   L.zeros(SHAPES[d2])))


# ---- indexing: ints, then index tensors' dtypes, then their dims ------------------------------
@pytest.mark.parametrize("shape", [(0,), (3,), (0, 3), (3, 3)])
@pytest.mark.parametrize("key", [
    "(L.tensor([1.0, 0.0]),)", "L.tensor([1.0])", "(L.tensor([1], dtype=L.int8), 5)",
    "(5, L.tensor([1], dtype=L.int16))", "(L.tensor([1.0]), 5)",
    "(L.tensor([1], dtype=L.int16), slice(1, None), 0)", "(L.tensor([0], dtype=L.int8),)",
    "L.tensor(1, dtype=L.int16)", "(L.tensor([0, 0]), L.tensor([1.5]))",
    "(L.tensor([2, 2]), L.tensor([0]))", "(None, L.tensor([0], dtype=L.uint8))",
])
@pytest.mark.parametrize("write", [False, True])
def test_index_checks_in_torchs_order(shape: tuple, key: str, write: bool) -> None:
    def index(L: Any) -> Any:
        x = L.zeros(shape)
        k = eval(key, {"L": L})
        if write:
            x[k] = 1.0
            return x
        return x[k]
    assert_as_torch(index)


# ---- frombuffer --------------------------------------------------------------------------------
@pytest.mark.parametrize("buffer, options", [
    (b"abcd", {"dtype": "int8"}), (bytearray(b"abcd"), {"dtype": "int16"}),
    (b"abcd", {"dtype": "float64"}), (b"", {"dtype": "int64"}), ("abcd", {"dtype": "int32"}),
    (3, {"dtype": "int8"}), (b"abcd", {"dtype": "int8", "count": 2, "offset": 1}),
    (b"abcd", {"dtype": "int8", "count": 5}), (b"abcd", {"dtype": "int8", "offset": 4}),
    (b"abcd", {"dtype": "int8", "offset": -1}), (b"abcd", {"dtype": "int8", "count": 0}),
    (b"abcd", {"dtype": "int8", "count": -2}), (bytearray(8), {"dtype": "float32", "offset": 1}),
    (bytearray(b"abcdefgh"), {"dtype": "int16", "count": 3, "offset": 1}),
    (bytearray(4), {"dtype": "float32", "requires_grad": True}), (bytearray(4), {}),
    (bytearray(4), {"dtype": None}), (bytearray(4), {"dtype": "bool", "count": 1.5}),
    (array.array("f", [1.5, 2.0]), {"dtype": "float32"}), (memoryview(bytearray(8)),
                                                           {"dtype": "bool"}),
    (bytearray(8), {"dtype": float}), (bytearray(8), {"dtype": np.float32}),
    (bytearray(8), {"dtype": "int8", "offset": 2 ** 63}),
])
def test_frombuffer(buffer: Any, options: dict) -> None:
    def made(L: Any) -> Any:
        kw = {k: getattr(L, v) if k == "dtype" and isinstance(v, str) else v
              for k, v in options.items()}
        return L.frombuffer(buffer, **kw)
    assert_as_torch(made)


def test_frombuffer_shares_a_writable_buffer() -> None:
    buffer = bytearray(4)
    mt.frombuffer(buffer, dtype=mt.uint8)[1] = 7
    assert buffer == bytearray(b"\x00\x07\x00\x00")


# ---- names, devices, legacy sizes, split's dim ------------------------------------------------
@pytest.mark.parametrize("program", [
    lambda L: L.moveaxis(L.zeros(3), -1, 1.0), lambda L: L.moveaxis(L.zeros(3), "a", 0),
    lambda L: L.arccosh(L.ones(2), 1), lambda L: L.arcsinh_(L.ones(2), 1),
    lambda L: L.ones([4], device=True), lambda L: L.zeros(2, device=1.5),
    lambda L: L.tensor([1], device=True), lambda L: L.empty(2, device=[0]),
    lambda L: L.full((2,), 1.0, device=True), lambda L: L.zeros(2, device="cpu"),
    lambda L: L.Tensor(np.array(3)), lambda L: L.CharTensor(np.array(3)),
    lambda L: L.Tensor(np.int64(2), np.array(2)), lambda L: L.Tensor(np.array(2.5)),
    lambda L: L.Tensor(np.array(True)), lambda L: L.LongTensor(np.array(-1)),
    lambda L: L.Tensor(L.tensor(3)),
    lambda L: L.zeros(3).split_with_sizes([1, 2], dim=[0]),
    lambda L: L.split_with_sizes(L.zeros(3), [1, 2], dim=[0]),
    lambda L: L.zeros(()).split([3], dim="a"), lambda L: L.zeros(3).split([1, 2], 1.5),
    lambda L: L.split(L.zeros(3), [1, 2], dim="a"),
])
def test_parser_refusals(program: Any) -> None:
    assert_as_torch(lambda L: tuple(program(L).shape) if isinstance(program(L), L.Tensor)
                    else program(L))


# ---- found by the widened fuzzer (in-place binary ops, more methods) ---------------------------
@pytest.mark.parametrize("program", [
    lambda L: L.tensor([[0.1, 0.9]], dtype=L.float64).histogram(L.tensor([0.0, 0.5, 1.0])),
    lambda L: L.tensor([[0.1, 0.9]]).histogram(L.tensor([0.0, 0.5, 1.0]), range=(0.0, 1.0)),
    lambda L: L.histogram(L.tensor([[0.1, 0.9]]), L.tensor([0.0, 0.5, 1.0]), range=None),
    lambda L: L.tensor([1, 2]).histogram(L.tensor([0.0, 0.5, 1.0])),
    lambda L: L.tensor([0.1, 0.9]).histogram(L.tensor([0.0, 0.5, 1.0])).hist,
    lambda L: L.tensor([0.1, 0.9]).histogram(3, range=None).hist,
    lambda L: L.take_along_dim(L.tensor(3), L.tensor(0), -1),
    lambda L: L.take_along_dim(L.tensor(3), L.tensor(0), 0),
    lambda L: L.take_along_dim(L.tensor(3), L.tensor(0)),
])
def test_widened_refusals(program: Any) -> None:
    assert_as_torch(program)


@pytest.mark.parametrize("fn", ["tril_indices", "triu_indices"])
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32", "int64", "float32", "bool"])
@pytest.mark.parametrize("row", [3, -1])
def test_triangle_indices_only_in_int32_and_int64(fn: str, dtype: str, row: int) -> None:
    assert_as_torch(lambda L: getattr(L, fn)(row, 3, dtype=getattr(L, dtype)))


@pytest.mark.parametrize("name", ["logical_and_", "logical_or_", "logical_xor_", "bitwise_and_",
                                  "bitwise_or_", "bitwise_xor_", "addmv_", "addr_", "addbmm_",
                                  "baddbmm_", "floor_divide_", "remainder_"])
@pytest.mark.parametrize("args", [("x",), (1.0,), ("y", "z"), (1, 2, 3)])
def test_in_place_methods_number_their_arguments_as_methods(name: str, args: tuple) -> None:
    assert_as_torch(lambda L: getattr(L.ones(2, 2, dtype=L.int64), name)(*args))


@pytest.mark.parametrize("name, operands", [
    ("addmv_", lambda L: (L.ones(2, 2), 1)), ("addr_", lambda L: (L.ones(2), 1.0)),
    ("addmv_", lambda L: (L.ones(2, 2),)),
])
def test_in_place_products_refuse_as_their_one_signature(name: str, operands: Any) -> None:
    assert_as_torch(lambda L: getattr(L.ones(2), name)(*operands(L)))


@pytest.mark.parametrize("name", ["logical_not_", "bitwise_not_"])
@pytest.mark.parametrize("args", [(), (1,)])
@pytest.mark.parametrize("dtype", ["int64", "bool"])
def test_unary_logic_in_place(name: str, args: tuple, dtype: str) -> None:
    assert_as_torch(lambda L: getattr(L.tensor([0, 3], dtype=getattr(L, dtype)), name)(*args))


IN_PLACE_SHAPES = [(1,), (2, 3), (3,), (0,), ()]
IN_PLACE_DTYPES = ["float32", "int32", "uint8", "bool", "float64"]


@SETTINGS
@given(name=st.sampled_from(["bitwise_or_", "bitwise_and_", "gcd_", "lcm_", "hypot_", "atan2_",
                             "arctan2_", "logical_or_", "logical_xor_", "floor_divide_",
                             "remainder_"]),
       shapes=st.tuples(st.sampled_from(IN_PLACE_SHAPES), st.sampled_from(IN_PLACE_SHAPES)),
       dtypes=st.tuples(st.sampled_from(IN_PLACE_DTYPES), st.sampled_from(IN_PLACE_DTYPES)),
       requires_grad=st.booleans())
def test_in_place_binary_checks_in_torchs_order(name: str, shapes: tuple, dtypes: tuple,
                                                requires_grad: bool) -> None:
    """Autograd's refusal (none for the logical ops, which have no derivative), then the
    operands' broadcast to the tensor's shape, then the cast, then the kernel's dtypes."""
    def run(L: Any) -> Any:
        x = L.ones(shapes[0], dtype=getattr(L, dtypes[0]))
        if requires_grad and dtypes[0].startswith("float"):
            x.requires_grad_(True)
        result = getattr(x, name)(L.ones(shapes[1], dtype=getattr(L, dtypes[1])))
        return result.detach()
    assert_as_torch(run)


def test_logical_in_place_keeps_the_history() -> None:
    a = mt.ones(2, requires_grad=True)
    v = a * 2
    v.logical_or_(mt.zeros(2))
    assert type(v.grad_fn).__name__ == "MulBackward0" and v._version == 1
