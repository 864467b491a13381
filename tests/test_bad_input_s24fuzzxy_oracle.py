"""Bad input found by the differential fuzzers of autograd/torch.func and of indexing,
assignment and promotion (session 24, seeds 243xx): each program runs on torch and on
minitorch, which must raise torch's error or give torch's result bit for bit."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.oracle import SETTINGS, assert_as_torch


def _quiet(program: Any) -> None:
    with warnings.catch_warnings():  # (torch warns of truncated slices, index_reduce's beta)
        warnings.simplefilter("ignore")
        assert_as_torch(program)


# ------------------------------------------------------------- out= meets a complex number

# ops taking a number whose promoted result type, complex, torch casts into out's dtype
# before their kernel could refuse complex (was the kernel's "not implemented")
CAST_FIRST = ["remainder", "fmod", "floor_divide", "bitwise_and", "bitwise_or",
              "bitwise_left_shift", "copysign", "xlogy", "pow", "sub", "true_divide"]


@pytest.mark.parametrize("op", CAST_FIRST)
@pytest.mark.parametrize("dtype", ["uint8", "float64", "float16"])
@pytest.mark.parametrize("out", ["int8", "float64", "bool"])
def test_complex_number_with_out_is_a_cast_error(op: str, dtype: str, out: str) -> None:
    _quiet(lambda L: getattr(L, op)(L.ones(2, dtype=getattr(L, dtype)), 1j,
                                    out=L.zeros(2, dtype=getattr(L, out))))


# a number first with out: the parser's refusal where no overload taking a number first has
# out (was a result for remainder and the shifts, the kernel's refusal for fmod and copysign)
@pytest.mark.parametrize("op", ["remainder", "fmod", "bitwise_and", "bitwise_xor",
                                "bitwise_left_shift", "bitwise_right_shift", "copysign",
                                "floor_divide", "xlogy", "pow"])
@pytest.mark.parametrize("number", [2, 2.5, 2j])
def test_number_first_with_out(op: str, number: Any) -> None:
    _quiet(lambda L: getattr(L, op)(number, L.ones(2, dtype=L.int64),
                                    out=L.zeros(2, dtype=L.int64)))


def test_fmod_number_dividend_is_refused_before_complex() -> None:
    _quiet(lambda L: L.fmod(2j, L.ones(2)))


# float_power: out's dtype must be the result's (float64), checked before autograd's refusal
# (in pow's name); a complex operand was an internal TypeError of float()
@pytest.mark.parametrize("operands", [
    lambda L: (L.ones(2, dtype=L.float64), 2.0), lambda L: (2, L.ones(2)),
    lambda L: (L.ones(2, dtype=L.float64, requires_grad=True), 2.0),
    lambda L: (L.ones(2), L.ones(2, dtype=L.int64)), lambda L: (L.ones(2), 2j)])
@pytest.mark.parametrize("out", ["float32", "float64", "int64"])
def test_float_power_out_dtype(operands: Any, out: str) -> None:
    _quiet(lambda L: L.float_power(*operands(L), out=L.zeros(2, dtype=getattr(L, out))))


def test_float_power_in_place_complex_exponent() -> None:
    _quiet(lambda L: L.ones(2, dtype=L.float64).float_power_(2j))


# ------------------------------------------------------------------- slices with a zero step

# torch reads the step first but refuses a zero one only after start and stop: a bound of -1
# surfaces it, and a float bound after another one is a TypeError (a tensor bound's __index__
# then runs with the refusal pending: Python's SystemError, though not in every interpreter
# state, so it is left out here)
BOUNDS = [1, -1, None, 1.0, -2 ** 63, 5, -2, True]


@given(start=st.sampled_from(BOUNDS), stop=st.sampled_from(BOUNDS),
       step=st.sampled_from([0, False, "tensor0", 1.0, 2]),
       where=st.sampled_from(["get", "set", "tuple"]))
@SETTINGS
def test_slice_bounds_read_in_torch_order(start: Any, stop: Any, step: Any, where: str) -> None:
    def program(L: Any) -> Any:
        x = L.zeros(3, 4)
        s = slice(start, stop, L.tensor(0) if step == "tensor0" else step)
        if where == "set":
            x[s] = 1
            return x
        return x[(s, 0)] if where == "tuple" else x[s]

    _quiet(program)


# ---------------------------------------------------------------------- index_add, index_reduce


@pytest.mark.parametrize("alpha", [0.5, 1.5, 2.7, 2])
@pytest.mark.parametrize("dtype", ["uint8", "int32", "int64", "float32"])
def test_index_add_float_alpha_of_integer_self(alpha: Any, dtype: str) -> None:
    # an integer self's kernel truncates alpha (was 5 * 0.5 added as 2 or 3)
    _quiet(lambda L: L.tensor([[1, 0, 3], [0, 5, 6]], dtype=getattr(L, dtype)).index_add(
        1, L.tensor([0, 2]), L.tensor([[5, 7], [6, 9]], dtype=getattr(L, dtype)), alpha=alpha))


@pytest.mark.parametrize("reduce", ["amin", "amax", "prod", "mean"])
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("index", [[1], [9], []])
@pytest.mark.parametrize("matrix", [False, True])
def test_index_reduce_of_bool(reduce: str, include_self: bool, index: list,
                              matrix: bool) -> None:
    # torch's kernel of one dim has no bool loop (was a result, or the index range's refusal
    # first); a matrix's has
    def program(L: Any) -> Any:
        x = L.tensor([False, True, False])
        x = x.expand(2, 3).clone() if matrix else x
        source = L.ones((2, len(index)) if matrix else len(index), dtype=L.bool)
        return x.index_reduce(-1, L.tensor(index, dtype=L.int64), source, reduce,
                              include_self=include_self)

    _quiet(program)


# ------------------------------------------------------------------------------------ jacfwd


@pytest.mark.parametrize("aux", ["tensor", "tuple", "none"])
@pytest.mark.parametrize("argnums", [0, (0, 1)])
def test_jacfwd_aux_over_no_input_element(aux: str, argnums: Any) -> None:
    # torch keeps the aux of its first column; with none, a tensor aux has no first one
    def program(L: Any) -> Any:
        def f(x: Any, y: Any) -> Any:
            return x.sin(), {"tensor": (x.sum(), y), "tuple": (), "none": None}[aux]
        return L.func.jacfwd(f, argnums=argnums, has_aux=True)(L.zeros(0), L.zeros(0))

    _quiet(program)


# ------------------------------------------------------------------------ saved tensor hooks


@pytest.mark.parametrize("message", [None, 3, 2.5, "fine", b"fine"])
def test_disable_saved_tensors_hooks_message_type(message: Any) -> None:
    # torch's binding takes a str only (was accepted, to fail later or never)
    def program(L: Any) -> Any:
        with L.autograd.graph.disable_saved_tensors_hooks(message):
            return L.ones(2) * 2

    _quiet(program)


@pytest.mark.parametrize("op", ["sin", "exp", "pow3", "mul_self"])
@pytest.mark.parametrize("unpacked", ["wrong_shape", "half", "scalar"])
def test_unpack_hook_of_another_shape(op: str, unpacked: str) -> None:
    # the backward runs on the unpacked tensor as it is: its ops refuse it in torch's words
    # (was numpy's broadcast error from the array path)
    def program(L: Any) -> Any:
        t = L.ones(3, dtype=L.float64, requires_grad=True)

        def unpack(p: Any) -> Any:
            return {"wrong_shape": L.ones(3, 7, dtype=L.float64), "half": p.to(L.float16),
                    "scalar": L.tensor(2.0, dtype=L.float64)}[unpacked]

        with L.autograd.graph.saved_tensors_hooks(lambda v: v, unpack):
            y = {"sin": lambda: t.sin(), "exp": lambda: t.exp(), "pow3": lambda: t ** 3,
                 "mm": lambda: t.reshape(1, 3) @ t.reshape(3, 1),
                 "mul_self": lambda: t * t}[op]()
        y.sum().backward()
        return t.grad

    _quiet(program)


# ------------------------------------------------------------------------------ mean's out


@pytest.mark.parametrize("input_dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("out_dtype", ["float16", "float32", "float64", "int64"])
@pytest.mark.parametrize("dtype", [None, "float64"])
def test_mean_into_out(input_dtype: str, out_dtype: str, dtype: Any) -> None:
    # torch's mean.out sums in out's dtype (was the input's, then cast), and a dtype= must be
    # out's (was a silent cast)
    def program(L: Any) -> Any:
        a = L.tensor([[-3.9, -5.0, 3.0], [-0.0, 5.13, -3.0]], dtype=getattr(L, input_dtype))
        o = L.zeros(2, dtype=getattr(L, out_dtype))
        kw = {} if dtype is None else {"dtype": getattr(L, dtype)}
        return L.mean(a, -1, out=o, **kw), o

    _quiet(program)


# ------------------------------------------------------------------- writing a leaf's part


@pytest.mark.parametrize("key", [
    "(False, L.tensor(0.0))", "(True, L.tensor(0.0))", "(None, L.tensor(0.0))", "L.tensor(0.0)",
    "(..., L.tensor(0.0))", "slice(5, None)", "slice(0, 0)", "slice(None)", "slice(None, None, 2)",
    "slice(-9, 9)", "slice(-4, None)", "slice(0, 9)", "slice(None, -9)", "slice(None, 0)",
    "(slice(1, None), L.tensor([0.5]))"])
@pytest.mark.parametrize("size", [4, 0])
def test_leaf_write_refused_before_the_index_dtype(key: str, size: int) -> None:
    # a floating index tensor goes to the index kernel, which checks it after autograd's
    # refusal (was the dtype's IndexError first); a slice from past the end is a view
    def program(L: Any) -> Any:
        x = L.zeros(size, requires_grad=True)
        x[eval(key)] = 1.0
        return x

    _quiet(program)


# ------------------------------------------------------------- index ops into an empty dim


@pytest.mark.parametrize("shape_dim", [((0,), 0), ((0, 2), 0), ((2, 0), 1), ((0, 0), 0),
                                       ((2, 0), 0)])
@pytest.mark.parametrize("dtype", ["int16", "float32", "bool"])
@pytest.mark.parametrize("op", ["copy", "copy_", "fill", "prod", "amax_excluding",
                                "mean_excluding", "add"])
def test_index_ops_into_an_empty_dim(shape_dim: Any, dtype: str, op: str) -> None:
    # torch's kernels restride an empty self to the index's length (stride 0) past its empty
    # storage, or select its first slice (was the index range's refusal, or a result)
    shape, d = shape_dim

    def program(L: Any) -> Any:
        x = L.zeros(shape, dtype=getattr(L, dtype))
        sshape = list(shape)
        sshape[d] = 2
        i, s = L.tensor([1, 0]), L.ones(sshape, dtype=getattr(L, dtype))
        return {"copy": lambda: x.index_copy(d, i, s),
                "copy_": lambda: x.clone().index_copy_(d, i, s),
                "fill": lambda: x.index_fill(d, i, 3),
                "prod": lambda: x.index_reduce(d, i, s, "prod"),
                "amax_excluding": lambda: x.index_reduce(d, i, s, "amax", include_self=False),
                "mean_excluding": lambda: x.index_reduce(d, i, s, "mean", include_self=False),
                "add": lambda: x.index_add(d, i, s)}[op]()

    _quiet(program)


@pytest.mark.parametrize("alpha", [2 ** 63, 70000, 1j, True, 0.5, 1.0, 1])
@pytest.mark.parametrize("index", [[1, -3, 1], [0, 1, 2]])
@pytest.mark.parametrize("dtype", ["float16", "int64"])
def test_index_add_alpha_read_before_the_index_range(alpha: Any, index: list,
                                                     dtype: str) -> None:
    _quiet(lambda L: L.zeros(2, 3, dtype=getattr(L, dtype)).index_add(
        1, L.tensor(index), L.ones(2, 3, dtype=getattr(L, dtype)), alpha=alpha))


@pytest.mark.parametrize("values", ["float32", "float64", "int64"])
@pytest.mark.parametrize("out", ["float32", "float64", "int64"])
def test_heaviside_out_dtype_is_the_input_dtype(values: str, out: str) -> None:
    # torch's kernel refuses an out of another dtype (was a silent cast)
    _quiet(lambda L: L.heaviside(L.tensor([0., 2.]), L.ones(2, dtype=getattr(L, values)),
                                 out=L.zeros(2, dtype=getattr(L, out))))


@pytest.mark.parametrize("out", ["int32", "bool", "float32"])
@pytest.mark.parametrize("grad", [False, True])
def test_ldexp_out_of_an_integer_dtype(out: str, grad: bool) -> None:
    # ldexp's kernel names itself (was the generic "result type Float can't be cast ..."),
    # after autograd's refusal of out
    _quiet(lambda L: L.ldexp(L.tensor([1., 2.], requires_grad=grad), L.tensor([1, 2]),
                             out=L.zeros(2, dtype=getattr(L, out))))
