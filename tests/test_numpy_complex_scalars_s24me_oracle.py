"""numpy complex scalars where torch wants a number, and dropout's Python range check.

torch's argument parser reads a numpy ``complex64`` (or ``clongdouble``) as a double, by its
real part with numpy's ComplexWarning, wherever it wants a number; a ``complex128`` is a
Python complex, a complex number where a Number is taken and its real part where a ``float``
is. Dropout's range check is Python code run before the parser, so numbers, numpy values
and tensors pass, fail and print there as Python's comparisons make them.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.oracle import SETTINGS, assert_as_torch

COMPLEX_AS_REAL = [np.complex64(0.5 + 0.5j), np.complex64(2), np.clongdouble(1 + 1j),
                   np.complex64(-3 - 1j)]

NUMBER_USES = {
    "add": lambda L, v: L.ones(2) + v,
    "radd int": lambda L, v: v * L.ones(2, dtype=L.int64),
    "div": lambda L, v: L.ones(2).div(v),
    "full": lambda L, v: L.full((2,), v),
    "clamp": lambda L, v: L.clamp(L.arange(4.0), v),
    "clamp max": lambda L, v: L.arange(4.0).clamp(max=v),
    "fill_": lambda L, v: L.ones(2).fill_(v),
    "where": lambda L, v: L.where(L.tensor([True, False]), v, 0.0),
    "masked_fill": lambda L, v: L.ones(2).masked_fill(L.tensor([True, False]), v),
    "pow": lambda L, v: L.arange(3.0).pow(v),
    "gt": lambda L, v: L.arange(3.0) > v,
    "lerp": lambda L, v: L.ones(2).lerp(L.zeros(2), v),
    "arange": lambda L, v: L.arange(v),
    "elu": lambda L, v: L.nn.functional.elu(-L.ones(2), v),
    "hardtanh": lambda L, v: L.nn.functional.hardtanh(L.arange(-3.0, 4.0), v, 2.0),
    "threshold": lambda L, v: L.nn.functional.threshold(L.arange(3.0), v, 7.0),
    "normalize": lambda L, v: L.nn.functional.normalize(L.ones(2), v, 0),
}

FLOAT_USES = {
    "pdist": lambda L, v: L.nn.functional.pdist(L.tensor([[0.0, 1.0], [2.0, 4.0]]), v),
    "layer_norm eps": lambda L, v: L.nn.functional.layer_norm(L.arange(2.0), (2,), eps=v),
    "cosine eps": lambda L, v: L.nn.functional.cosine_similarity(L.ones(2), L.ones(2), 0, v),
    "pairwise p": lambda L, v: L.nn.functional.pairwise_distance(L.ones(2), L.zeros(2), v),
    "dropout p": lambda L, v: L.nn.functional.dropout(L.ones(2), v, False),
    "huber delta": lambda L, v: L.nn.functional.huber_loss(L.ones(2), L.zeros(2), delta=v),
}


def _quietly(program):
    def run(L):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
            return program(L)
    return run


@pytest.mark.parametrize("value", COMPLEX_AS_REAL, ids=repr)
@pytest.mark.parametrize("use", sorted(NUMBER_USES))
def test_numpy_complex_is_read_as_its_real_part_where_a_number_is_taken(use, value):
    assert_as_torch(_quietly(lambda L: NUMBER_USES[use](L, value)))


@pytest.mark.parametrize("value", [*COMPLEX_AS_REAL, np.complex128(0.25 + 1j)], ids=repr)
@pytest.mark.parametrize("use", sorted(FLOAT_USES))
def test_numpy_complex_is_read_as_its_real_part_where_a_float_is_taken(use, value):
    assert_as_torch(_quietly(lambda L: FLOAT_USES[use](L, value)))


def test_the_real_part_comes_with_numpys_complex_warning():
    import minitorch

    with pytest.warns(np.exceptions.ComplexWarning):
        minitorch.ones(2) + np.complex64(1 + 1j)


DROPOUTS = ("dropout", "alpha_dropout", "feature_alpha_dropout", "dropout1d")
ODD_PROBABILITIES = [np.array([2.0]), np.array([1 + 1j]), np.array([0.5 + 0j]),
                     np.complex128(1 + 1j), np.array([]), np.array(["a"]), np.array([[0.5]]),
                     np.array([0.3, 0.2]), np.float16(3), np.int64(-1), float("nan"),
                     "a", None, 1 + 0j]


@pytest.mark.parametrize("p", ODD_PROBABILITIES, ids=repr)
@pytest.mark.parametrize("fn", DROPOUTS)
def test_dropout_checks_p_as_pythons_comparisons_do(fn, p):
    assert_as_torch(_quietly(lambda L: getattr(L.nn.functional, fn)(L.ones(2, 2), p, False)))


@SETTINGS
@given(value=st.floats(-2, 3) | st.just(float("nan")), shape=st.sampled_from([(), (1,), (2,)]),
       fn=st.sampled_from(DROPOUTS))
def test_dropout_with_a_tensor_p_prints_the_tensor(value, shape, fn):
    assert_as_torch(lambda L: getattr(L.nn.functional, fn)(
        L.ones(2, 2), L.full(shape, value), False))


@pytest.mark.parametrize("use", sorted(NUMBER_USES) + sorted(FLOAT_USES))
def test_a_long_double_is_read_as_a_double(use):
    uses = {**NUMBER_USES, **FLOAT_USES}
    assert_as_torch(lambda L: uses[use](L, np.longdouble(0.75)))


# an int64 parameter (a dim, an offset, chunks) refuses a 0-d numpy array; a SymInt one
# (a size, an index, k) reads it by __index__
INT_PARAMETERS = {
    "unsqueeze dim": lambda L, v: L.ones(3).unsqueeze(v),
    "diagonal offset": lambda L, v: L.ones(3, 3).diagonal(v),
    "chunk chunks": lambda L, v: L.ones(3).chunk(v),
    "transpose dim0": lambda L, v: L.ones(3, 3).transpose(v, 1),
    "softmax dim": lambda L, v: L.ones(3).softmax(v),
    "cumsum dim": lambda L, v: L.ones(3).cumsum(v),
    "tril diagonal": lambda L, v: L.ones(3, 3).tril(v),
    "one_hot classes": lambda L, v: L.nn.functional.one_hot(L.tensor([1]), v + 2),
    "zeros size": lambda L, v: L.zeros(v),
    "repeat": lambda L, v: L.ones(3).repeat(v),
    "topk k": lambda L, v: L.ones(3).topk(v),
    "narrow start": lambda L, v: L.ones(3).narrow(0, v, 1),
    "select index": lambda L, v: L.ones(3).select(0, v),
    "eye n": lambda L, v: L.eye(v),
}


@pytest.mark.parametrize("value", [np.array(0), np.array(1, dtype=np.int8)], ids=repr)
@pytest.mark.parametrize("use", sorted(INT_PARAMETERS))
def test_a_zero_d_numpy_array_is_an_int_only_where_torch_takes_a_symint(use, value):
    assert_as_torch(lambda L: INT_PARAMETERS[use](L, value))


@pytest.mark.parametrize("bound", [np.array(2.0), np.array(3), np.array([2.0]),
                                   np.array([2.0, 1.0]), np.array(["a"]),
                                   __import__("decimal").Decimal("1.5"),
                                   __import__("decimal").Decimal("2.5"),
                                   __import__("fractions").Fraction(5, 2), 1j],
                         ids=repr)
def test_hardtanhs_python_check_compares_as_python_does(bound):
    assert_as_torch(lambda L: L.nn.functional.hardtanh(L.arange(-3.0, 4.0), bound, 2.0))


BERNOULLI = {
    "None": lambda L: L.bernoulli(L.ones(3), None),
    "p=None": lambda L: L.bernoulli(L.ones(3), p=None),
    "method None": lambda L: L.ones(3).bernoulli(None),
    "None with out": lambda L: L.bernoulli(L.ones(3), None, out=L.ones(3)),
    "0-d tensor out of range": lambda L: L.bernoulli(L.ones(3), L.tensor(2.0)),
    "method 0-d tensor": lambda L: L.ones(3).bernoulli(L.tensor(-1.0)),
    "0-d long tensor": lambda L: L.bernoulli(L.zeros(3), L.tensor(1)),
    "0-d bool tensor": lambda L: L.bernoulli(L.zeros(3), L.tensor(True)),
    "1-d tensor": lambda L: L.bernoulli(L.ones(3), L.tensor([0.5])),
    "numpy": lambda L: L.bernoulli(L.ones(3), np.float32(2)),
}


@pytest.mark.parametrize("case", sorted(BERNOULLI))
def test_bernoullis_p_is_a_float_or_nothing(case):
    assert_as_torch(BERNOULLI[case])


@pytest.mark.parametrize("value", [2 + 0j, 0.5 + 0j, 2 + 1j, 1j], ids=repr)
@pytest.mark.parametrize("use", ["std correction", "var_mean correction", "rrelu lower",
                                 "rrelu upper", "arange end"])
def test_a_complex_number_read_as_a_double_needs_no_imaginary_part(use, value):
    program = {
        "std correction": lambda L: L.arange(4.0).std(correction=value),
        "var_mean correction": lambda L: L.arange(4.0).var_mean(correction=value),
        "rrelu lower": lambda L: L.nn.functional.rrelu(-L.ones(2), value, 3.0),
        "rrelu upper": lambda L: L.nn.functional.rrelu(-L.ones(2), 0.1, value),
        "arange end": lambda L: L.arange(value),
    }[use]
    assert_as_torch(program)


def test_float_power_refuses_a_complex_number_with_minitorchs_message():
    import minitorch

    for program in (lambda: minitorch.ones(2).float_power(2 + 0j),
                    lambda: minitorch.float_power(1j, minitorch.ones(2))):
        with pytest.raises(TypeError, match="minitorch has no complex tensors"):
            program()


MIXED_DATA = {
    "uint16 and float": lambda L: L.tensor([np.uint16(5), 1.5]),
    "uint16 and int": lambda L: L.tensor([np.uint16(5), 1]),
    "uint32 and bool": lambda L: L.tensor([np.uint32(5), True]),
    "float and uint64": lambda L: L.tensor([1.5, np.uint64(5)]),
    "nested uint32": lambda L: L.tensor([[1.0], [np.uint32(3)]]),
    "as_tensor": lambda L: L.as_tensor([np.uint16(5), 1.5]),
    "arrays": lambda L: L.tensor([np.array([2], dtype=np.uint16), np.array([1.5])]),
    "uint64 array": lambda L: L.tensor([np.array([5], dtype=np.uint64)]),
    "uint64 alone": lambda L: L.tensor([[np.uint64(5)]]),
    "two wide unsigned": lambda L: L.tensor([np.uint16(3), np.uint32(4)]),
    "uint64 and half": lambda L: L.tensor([np.uint64(3), np.float16(1)]),
    "uint32 and 0-d float32 array": lambda L: L.tensor([np.uint32(1), np.array(1.5, np.float32)]),
    "uint16 and a float tensor": lambda L: L.tensor([np.uint16(1), L.tensor([1.5])]),
    "uint16 and an int tensor": lambda L: L.tensor([np.uint16(1), L.tensor(1)]),
    "uint16 and complex64": lambda L: L.tensor([np.uint16(1), np.complex64(1)]),
    "int8 and uint16": lambda L: L.tensor([np.int8(1), np.uint16(1)]),
    "int and uint16": lambda L: L.tensor([1, np.uint16(1)]),
    "uint16 and a string": lambda L: L.tensor([np.uint16(5), "a"]),
    "float32 and a double tensor": lambda L: L.tensor([np.float32(1), L.tensor(2.0).double()]),
}


@pytest.mark.parametrize("case", sorted(MIXED_DATA))
def test_data_with_a_wide_unsigned_numpy_value_promotes_as_torch_does(case):
    assert_as_torch(MIXED_DATA[case])


COPIES_FORWARD = {
    "view_copy": lambda L, x: (L.view_copy(x, (2, 3)) ** 3).sum(),
    "permute_copy": lambda L, x: (L.permute_copy(x.view(2, 3), (1, 0)) ** 3 * x.view(3, 2)).sum(),
    "split_copy": lambda L, x: sum((t ** 2).sum() * (i + 1)
                                   for i, t in enumerate(L.split_copy(x, 2))),
    "expand_copy": lambda L, x: (L.expand_copy(x, (2, 6)) ** 3).sum(),
}


@pytest.mark.parametrize("transform", ["jacfwd", "jacfwd(jacfwd)", "jacfwd(jacrev)",
                                       "jacrev(jacfwd)"])
@pytest.mark.parametrize("copy", sorted(COPIES_FORWARD))
def test_forward_ad_through_a_view_copy_as_torch(copy, transform):
    """A *_copy's tangent is its view of the input's tangent (it was dropped: zeros)."""
    def program(L):
        f = lambda x: COPIES_FORWARD[copy](L, x)  # noqa: E731
        x = L.arange(6.0, dtype=L.float64) / 3
        jac = {"jacfwd": L.func.jacfwd(f),
               "jacfwd(jacfwd)": L.func.jacfwd(L.func.jacfwd(f)),
               "jacfwd(jacrev)": L.func.jacfwd(L.func.jacrev(f)),
               "jacrev(jacfwd)": L.func.jacrev(L.func.jacfwd(f))}[transform]
        return jac(x)
    from tests.oracle import assert_same
    assert_as_torch(program, compare=assert_same)


@pytest.mark.parametrize("program", [
    lambda L: L.arange(6.0).reshape(3, 2).expand(1, 3, 2),
    lambda L: L.ones(3, 2).expand(1, 1, 3, 2),
    lambda L: L.ones(3, 2).expand(2, 1, 3, 2),
    lambda L: L.ones(3, 1).expand(2, 1, 3, 4),
    lambda L: L.arange(2).to(L.bool)[::2].expand(1, 1),
    lambda L: L.ones(0, 3).expand(1, 0, 3),
    lambda L: L.tensor(5.0).expand(1),
    lambda L: L.tensor(5.0).expand(2, 1),
])
def test_expand_gives_a_new_dim_of_size_one_torchs_stride(program):
    """torch's inferExpandGeometry: a new dim of size one strides over the dims after it."""
    assert_as_torch(lambda L: (program(L), program(L).stride(), program(L).is_contiguous()))


@pytest.mark.parametrize("sizes", [(2 ** 62, 2), (2 ** 62, 4), (2 ** 31, 2 ** 31, 2 ** 3),
                                   (2 ** 62, 4, 0), (2 ** 61, 2), (-1,), (2, -3), (1,)])
def test_resize_checks_its_size_as_torch(sizes):
    assert_as_torch(lambda L: L.ones(3).half().resize_(*sizes))


@pytest.mark.parametrize("shape", [(1, 3, 1), (3, 1), (2,)])
def test_t_refuses_a_leaf_before_its_dims(shape):
    assert_as_torch(lambda L: L.ones(*shape, requires_grad=True).t_())
