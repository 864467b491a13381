"""Calls where torch and minitorch both refuse, but another check came first: each family's
checks now run in torch's order (the in-place forms' output shape before their kernel's
dtype, autograd's leaf check before the op's own, a convolution's bias dtype before its
ranks, dot's sizes before its dtype dispatch, index_put_'s indices in the key's order)."""

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.oracle import assert_as_torch

warnings.filterwarnings("ignore", message="indexing with dtype torch.uint8")

DTYPES = ("float64", "float32", "bool", "uint8", "int64")


def _t(L, shape, dtype="float32"):
    return L.ones(shape, dtype=getattr(L, dtype))


@pytest.mark.parametrize("rank", [1, 2, 3])
@pytest.mark.parametrize("dtype", ["float64", "bool", "uint8"])
@pytest.mark.parametrize("size2", [3, 4])
def test_addr_in_place_reads_its_input_as_the_2d_result(rank, dtype, size2):
    assert_as_torch(lambda L: _t(L, (3,) * rank, dtype).addr_(_t(L, 3, "float64"),
                                                              _t(L, size2, "float64")))


@pytest.mark.parametrize("op,operands", [
    ("addmv_", ((3, 3), (3,))), ("baddbmm_", ((2, 3, 3), (2, 3, 3))),
    ("addmv", ((3, 3), (3,))),
    ("baddbmm", ((2, 3, 3), (2, 3, 3)))])
@pytest.mark.parametrize("shape", [(), (1,), (3,), (3, 3), (1, 3, 3), (4, 3, 3)])
@pytest.mark.parametrize("dtype", ["float32", "float64", "bool"])
def test_scaled_products_in_place_size_after_meta_checks(op, operands, shape, dtype):
    assert_as_torch(lambda L: getattr(_t(L, shape, dtype), op)(_t(L, operands[0]),
                                                                _t(L, operands[1])))


def test_addmm_names_the_input_dtype_in_its_expand_error():
    assert_as_torch(lambda L: L.addmm(_t(L, (3, 3, 3), "float64"), _t(L, (3, 3), "float64"),
                                      _t(L, (3, 3), "float64")))


@given(st.sampled_from(["matmul", "dot", "vdot", "mv", "inner"]),
       st.sampled_from(["bool", "int64", "uint8", "float32"]),
       st.sampled_from([((4,), (3,)), ((4,), (4,)), ((2, 4), (3,))]))
@settings(max_examples=40, deadline=None)
def test_dot_checks_sizes_before_its_dtype_dispatch(op, dtype, shapes):
    assert_as_torch(lambda L: getattr(L, op)(_t(L, shapes[0], dtype), _t(L, shapes[1], dtype)))


@given(st.sampled_from(["ldexp_", "pow_", "copysign_", "atan2_", "hypot_", "fmod_",
                        "remainder_", "bitwise_and_", "bitwise_xor_", "mul_", "sub_"]),
       st.sampled_from(["float32", "int64", "bool"]), st.sampled_from(["bool", "float64"]),
       st.sampled_from([((), (2, 3)), ((3,), (2, 3)), ((1,), (2,)), ((3,), (3,))]))
@settings(max_examples=80, deadline=None)
def test_in_place_binary_output_shape_before_dtype(op, dtype, other_dtype, shapes):
    assert_as_torch(lambda L: getattr(_t(L, shapes[0], dtype), op)(
        _t(L, shapes[1], other_dtype)))


def _leaf(L, view):
    x = L.ones(3, 3, requires_grad=True)
    return x[:] if view else x


@pytest.mark.parametrize("view", [False, True])
@pytest.mark.parametrize("alpha", [1, 0])
def test_leaf_check_before_sub_bool_check(view, alpha):
    assert_as_torch(lambda L: _leaf(L, view).subtract_(_t(L, 3, "bool"), alpha=alpha))


def _write(L, view, key, value):
    x = _leaf(L, view)
    x[key(L)] = value(L)


@pytest.mark.parametrize("view", [False, True])
@pytest.mark.parametrize("key", [lambda L: (L.ones(2), -3), lambda L: _t(L, 4, "bool"),
                                 lambda L: (5,), lambda L: (0, slice(None))])
@pytest.mark.parametrize("value", [lambda L: 1.0, lambda L: L.ones(7)])
def test_leaf_or_view_of_leaf_setitem_refused_first(view, key, value):
    assert_as_torch(lambda L: _write(L, view, key, value))


@pytest.mark.parametrize("shape", [(2, 0, 1), (3,), (2, 2), (2, 3)])
@pytest.mark.parametrize("dtype", ["float64", "bool", "float32"])
@pytest.mark.parametrize("bias", [None, "0d", "1d"])
def test_linear_zero_d_bias_goes_through_matmul(shape, dtype, bias):
    def program(L):
        b = {None: None, "0d": L.tensor(1.0), "1d": L.ones(2)}[bias]
        return L.nn.functional.linear(_t(L, shape, dtype), L.ones(2, 2), b)
    assert_as_torch(program)


@given(st.sampled_from([1, 2, 3]), st.integers(1, 5), st.sampled_from(DTYPES),
       st.booleans(), st.sampled_from([1, 2]))
@settings(max_examples=80, deadline=None)
def test_conv_bias_dtype_before_input_rank(dims, rank, dtype, bias, kernel):
    def program(L):
        x = _t(L, (2,) + (3,) * (rank - 1), dtype)
        w = L.ones((2, 2) + (kernel,) * dims)
        return getattr(L.nn.functional, f"conv{dims}d")(x, w, L.ones(2) if bias else None)
    assert_as_torch(program)


@pytest.mark.parametrize("dtype", ["float64", "bool"])
@pytest.mark.parametrize("rank", [1, 2])
def test_conv_module_bias_dtype_first(dtype, rank):
    def program(L):
        L.manual_seed(0)
        return L.nn.Conv2d(1, 2, 1)(_t(L, (3,) * rank, dtype))
    assert_as_torch(program)


def _put(L, form, mask_dtype, mask_shape, index_dtype):
    x = L.zeros(3, 3)
    key = (_t(L, mask_shape, mask_dtype), L.tensor([0, 1]).to(getattr(L, index_dtype)))
    if form == "setitem":
        x[key] = 1.0
        return x
    if form == "getitem":
        return x[key]
    return getattr(x, form)(key, L.tensor(1.0))


@pytest.mark.parametrize("form", ["setitem", "getitem", "index_put_", "index_put"])
@pytest.mark.parametrize("mask_dtype", ["uint8", "bool"])
@pytest.mark.parametrize("mask_shape", [(3,), (4,), (3, 3)])
@pytest.mark.parametrize("index_dtype", ["int64", "int16", "float32"])
def test_index_put_mask_and_index_order(form, mask_dtype, mask_shape, index_dtype):
    assert_as_torch(lambda L: _put(L, form, mask_dtype, mask_shape, index_dtype))


@pytest.mark.parametrize("key", [
    lambda L: (L.tensor([0, 1], dtype=L.int16), _t(L, 4, "bool")),
    lambda L: (None, _t(L, 4, "bool"), L.tensor([0, 1], dtype=L.int16)),
    lambda L: (_t(L, 4, "bool"), 0, L.tensor([0.])),
    lambda L: (..., _t(L, 4, "bool"))])
def test_setitem_reads_indices_in_key_order(key):
    def program(L):
        x = L.zeros(3, 3)
        x[key(L)] = 1.0
    assert_as_torch(program)


@pytest.mark.parametrize("shape", [(), (1, 1), (3,), (3, 3), (3, 4), (3, 3, 3)])
@pytest.mark.parametrize("dtype", ["float32", "float64", "bool", "int64"])
@pytest.mark.parametrize("mat2", [(3, 4), (3,), (4, 4)])
def test_addmm_in_place_size_after_meta_checks(shape, dtype, mat2):
    assert_as_torch(lambda L: _t(L, shape, dtype).addmm_(_t(L, (3, 3), dtype),
                                                         _t(L, mat2, dtype)))


@pytest.mark.parametrize("beta", [1.5, "a"])
def test_addmm_in_place_scalars_as_torch(beta):
    assert_as_torch(lambda L: _t(L, 3, "int64").addmm_(_t(L, (3, 3), "int64"),
                                                       _t(L, (3, 3), "int64"), beta=beta))


def test_setitem_int_bounds_before_a_float_index():
    def program(L):
        x = L.zeros(3, 4)
        x[(L.tensor(1.0), 7)] = 1.0
    assert_as_torch(program)


@pytest.mark.parametrize("first", [lambda L: True, lambda L: L.tensor([0, 2]),
                                   lambda L: _t(L, 3, "bool"), lambda L: slice(None),
                                   lambda L: 0, lambda L: None])
@pytest.mark.parametrize("value", [lambda L: 1.0, lambda L: L.ones(1), lambda L: L.ones(2)])
def test_setitem_mask_first_only_where_it_leads_the_index_tensors(first, value):
    def program(L):
        x = L.zeros(3, 3, 3)
        x[(first(L), _t(L, 4, "bool"), L.tensor([0, 1], dtype=L.int16))] = value(L)
    assert_as_torch(program)
