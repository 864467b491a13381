"""Bad input to the tensor API gets torch's answer (s23 fuzzt): each case is a class of calls
the differential fuzz found answered differently, checked against live torch."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.oracle import SETTINGS, assert_as_torch

# A one-element tensor given for an int: torch's parser takes it for a SymInt (a size, k,
# an index) but a dim, an offset or a count of chunks (int64) only if it is 0-d; a numpy int
# anywhere an int is taken.
INT_ARGUMENTS = [
    lambda L: L.zeros(3).unsqueeze(L.tensor([0])),
    lambda L: L.zeros(3).cumsum(L.tensor([0])),
    lambda L: L.zeros(3).narrow(L.tensor([0]), 0, 1),
    lambda L: L.zeros(3, 2).transpose(L.tensor([0]), 1),
    lambda L: L.zeros(3, 2).diagonal(L.tensor([0])),
    lambda L: L.zeros(3, 2).chunk(L.tensor([1])),
    lambda L: L.zeros(3, 2).flatten(0, L.tensor([1])),
    lambda L: L.zeros(3, 2).unfold(0, L.tensor([1]), 1),
    lambda L: L.zeros(3, 2).topk(L.tensor([1])),
    lambda L: L.zeros(3, 2).tril(L.tensor([1])),
    lambda L: L.zeros(3, 2).select(0, L.tensor([1])),
    lambda L: L.eye(L.tensor([2])),
    lambda L: L.zeros(3, 2).unsqueeze(L.tensor(0)),
    lambda L: L.movedim(L.zeros(2, 1, 2), np.int64(0), 3),
    lambda L: L.zeros(2, 1, 2).moveaxis(0, np.int64(1)),
    lambda L: L.zeros(2, 1, 2).moveaxis(2 ** 63, np.int64(0)),
    lambda L: L.movedim(L.zeros(2, 1, 2), L.tensor([0]), 1),
    lambda L: L.movedim(L.zeros(2, 1, 2), L.tensor(0), 1),
]


@pytest.mark.parametrize("program", INT_ARGUMENTS)
def test_int_arguments(program):
    assert_as_torch(program)


# autograd's refusal to write into a leaf that requires grad comes before the kernel's own
# checks of the values (a sampler's parameters, a fill's mask and value, a dim's range)
LEAF_WRITES = [
    lambda L, x: x.uniform_(3, 1),
    lambda L, x: x.normal_(0, -1),
    lambda L, x: x.exponential_(-1),
    lambda L, x: x.random_(3, 1),
    lambda L, x: x.bernoulli_(2.0),
    lambda L, x: x.geometric_(2.0),
    lambda L, x: x.cauchy_(0, -1),
    lambda L, x: x.log_normal_(0, -1),
    lambda L, x: x.uniform_(3, "a"),
    lambda L, x: x.masked_fill_(L.tensor([True, False]), L.zeros(2, 2)),
    lambda L, x: x.masked_fill_(L.tensor([1, 0]), 1.0),
    lambda L, x: x.masked_fill_(L.tensor([True, False]), 2 ** 64),
    lambda L, x: x.index_copy_(5, L.tensor([0]), L.zeros(1)),
    lambda L, x: x.index_copy_(2 ** 63, L.tensor([0]), L.zeros(1)),
    lambda L, x: x.clamp_(),
]


@pytest.mark.parametrize("program", LEAF_WRITES)
def test_leaf_refused_before_the_kernel(program):
    assert_as_torch(lambda L: program(L, L.zeros(2, requires_grad=True)))


# an expanded tensor: torch's parser refuses an argument's type, and clamp_ its missing
# bounds, before its TensorIterator refuses the overlapping write
EXPANDED_WRITES = [
    lambda L, x: x.clamp_(),
    lambda L, x: x.heaviside_(0.0),
    lambda L, x: x.addcmul_(L.zeros(1), "a"),
    lambda L, x: x.nan_to_num_("a"),
    lambda L, x: x.clamp_(0.0),
    lambda L, x: x.add_(1),
]


@pytest.mark.parametrize("program", EXPANDED_WRITES)
def test_expanded_write_refusals(program):
    assert_as_torch(lambda L: program(L, L.zeros(1).expand(2)))


@given(rows=st.integers(2, 4), batch=st.sampled_from([(), (2,)]),
       dtype=st.sampled_from(["float32", "float64"]))
@SETTINGS
def test_svd_that_does_not_converge(rows, batch, dtype):
    """LAPACK's gesdd fails on rows holding an infinity: torch's _LinAlgError, with its code."""
    data = np.tile(np.array([2.0, 0.5, -np.inf]), (*batch, rows, 1))
    for op in (lambda L, a: L.linalg.svd(a), lambda L, a: L.pinverse(a),
               lambda L, a: L.linalg.svdvals(a), lambda L, a: L.linalg.pinv(a)):
        assert_as_torch(lambda L, op=op: op(L, L.tensor(data, dtype=getattr(L, dtype))))


@pytest.mark.parametrize("program", [
    lambda L: L.trapezoid(L.zeros(0, dtype=L.bool)),
    lambda L: L.trapz(L.zeros(0, dtype=L.int32)),
    lambda L: L.trapezoid(L.zeros(2, 0), dim=1),
    lambda L: L.cholesky_solve(L.zeros(2, 2), L.zeros(2, 1)),
    lambda L: L.cholesky_solve(L.zeros(2, 2), L.zeros(3, 3)),
    lambda L: L.zeros_like(L.zeros(2), dtype="float32", memory_format="bad"),
    lambda L: L.empty_like(L.zeros(2), layout="x", memory_format="bad"),
    lambda L: L.full_like(L.zeros(2), 1, device=3.5, memory_format="bad"),
    lambda L: L.empty_strided((2,), (1,), dtype="x", memory_format="bad"),
])
def test_shapes_and_options_in_torchs_order(program):
    assert_as_torch(program)


@pytest.mark.parametrize("dtype", ["int8", "float32"])
@pytest.mark.parametrize("op", ["clamp_min", "clamp_max", "add", "mul", "fill_"])
def test_numpy_float64_is_a_python_float(op, dtype):
    """torch's parser reads a numpy float64 Number as a Python float: no float64 result."""
    assert_as_torch(lambda L: getattr(L.zeros(2, dtype=getattr(L, dtype)), op)(np.float64(1.5)))


# the parser's order: every argument's type, then a lone int past int64 (its ValueError),
# then the op's own checks of shapes, dtypes and values
PARSER_FIRST = [
    lambda L: L.zeros(3).roll(0, 2 ** 63),
    lambda L: L.zeros(3).roll(2 ** 63),
    lambda L: L.zeros(3).roll(1, -2 ** 63 - 1),
    lambda L: L.zeros(3).roll("a", 2 ** 63),
    lambda L: L.zeros(3).roll(2 ** 63, "a"),
    lambda L: L.zeros(0).quantile(1, 2 ** 63),
    lambda L: L.zeros(1).quantile(-0.1, 2 ** 63, interpolation="nearest"),
    lambda L: L.zeros(3).nanquantile(2.0, -2 ** 63 - 1),
    lambda L: L.zeros(2).copy_(-2 ** 63 - 1, non_blocking=None),
    lambda L: L.zeros(2).copy_("a", non_blocking=None),
    lambda L: L.zeros(2, dtype=L.uint8).new_full(-1, "x"),
    lambda L: L.zeros(2).new_full((2, "a"), "x"),
    lambda L: L.full(-1, None),
    lambda L: L.full(size=3, fill_value=None),
    lambda L: L.binomial(L.zeros(2, dtype=L.float64), L.zeros(3)),
    lambda L: L.binomial(L.zeros(2, dtype=L.float64), L.zeros(2, dtype=L.int64)),
    lambda L: L.binomial(L.zeros(0, 0, dtype=L.float64), L.zeros(1, 3, 1)),
]


@pytest.mark.parametrize("program", PARSER_FIRST)
def test_parser_before_the_op(program):
    assert_as_torch(program)


@pytest.mark.parametrize("data", [[b"a"], [b"ab", b"cd"], [[b"a"]], [b""], [1, b"a"],
                                  [b"a", 1], [1j]])
@pytest.mark.parametrize("dtype", ["uint8", "int8", "int32", "int64", "float64", "bool", None])
def test_bytes_in_data_are_sequences_given_a_dtype(data, dtype):
    """torch reads a bytes item as a sequence of its ints once a dtype is given."""
    if dtype is None and data == [1j]:
        pytest.skip("minitorch has no complex dtype")
    assert_as_torch(lambda L: L.tensor(data, dtype=dtype and getattr(L, dtype)))


@pytest.mark.parametrize("program", [
    lambda L: L.zeros(2, 3).unsqueeze(L.tensor(True)),
    lambda L: L.zeros(2, 3).cumsum(L.tensor(True)),
    lambda L: L.zeros(2, 3).transpose(L.tensor(False), 1),
    lambda L: L.zeros(2, 3).swapaxes(L.tensor([0]), 1),
    lambda L: L.zeros(2, 3).sum(L.tensor(True)),
    lambda L: L.zeros(2, 2, 2).tril(L.tensor(True)),
    lambda L: L.zeros(2, 3).topk(L.tensor(True)),
    lambda L: L.eye(L.tensor(True)),
    lambda L: L.zeros(2, 3).permute(L.tensor(True), 0),
])
def test_bool_tensor_is_no_dim(program):
    """A dim (torch's int64) takes a 0-d integral tensor, never a bool one (a list's may)."""
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    lambda L, x: x.addcdiv_("a", L.zeros(3), L.zeros(3)),
    lambda L, x: x.addcdiv_(),
    lambda L, x: x.addcmul_(L.zeros(3)),
    lambda L, x: x.lerp_(L.zeros(3), 0.5, 1),
])
@pytest.mark.parametrize("written", ["leaf", "expanded"])
def test_arity_before_autograd_and_overlap(program, written):
    """torch's parser counts the arguments before autograd or the kernel look at ``self``."""
    assert_as_torch(lambda L: program(L, L.zeros(3, requires_grad=True) if written == "leaf"
                                      else L.zeros(1).expand(3)))


@pytest.mark.parametrize("program", [
    lambda L: L.zeros(2, dtype=L.uint8).mul_(np.uint64(2 ** 63)),
    lambda L: L.zeros(0, dtype=L.int32).add_(np.uint64(2 ** 63)),
    lambda L: L.div(L.zeros(2), np.uint64(2 ** 63)),
    lambda L: L.zeros(2).masked_fill(L.zeros(2, dtype=L.bool), np.uint64(2 ** 63)),
    lambda L: L.zeros(2) < np.uint64(2 ** 63),
    lambda L: L.zeros(2, dtype=L.bool).eq(np.uint64(2 ** 63)),
    lambda L: L.zeros(2) == np.uint64(2 ** 63),
    lambda L: L.zeros(2).add(np.uint64(5)),
])
def test_numpy_uint64_past_int64_is_no_number(program):
    """torch's parser cannot read a numpy uint64 past int64 as a Number ("an integer is
    required"); an operator then leaves it to numpy's reflected one."""
    assert_as_torch(program)


def test_operator_leaves_numpy_uint64_to_numpy():
    import torch

    import minitorch as mt
    got, want = mt.zeros(2) + np.uint64(2 ** 63), torch.zeros(2) + np.uint64(2 ** 63)
    assert type(got) is type(want) is np.ndarray
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("program", [
    lambda L: L.zeros(4, dtype=L.bool)[3:2:2 ** 63].stride(),
    lambda L: L.zeros(4)[3:2:2 ** 63].shape,
    lambda L: L.zeros(4, 2)[3:2:2 ** 63, 1:],
    lambda L: L.zeros(4)[0:4:2 ** 62].shape,
])
def test_slice_step_past_int64(program):
    """Python clamps a slice's step to int64; an empty slice's stride is torch's step times the
    stride, wrapped in int64 (a negative one refused) or, past numpy's bytes, numpy's own."""
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    lambda L: L.HalfTensor([np.True_, 2]),
    lambda L: L.tensor([np.True_, 2 ** 70], dtype=L.float32),
    lambda L: L.tensor([np.True_, 300], dtype=L.int8),
    lambda L: L.tensor([np.int64(5), 2 ** 63], dtype=L.int64),
])
def test_numpy_bools_and_ints_among_python_ints(program):
    """The range check of a list's ints reads a numpy bool or int as the int it is (comparing
    it with an int past C long overflowed)."""
    assert_as_torch(program)
