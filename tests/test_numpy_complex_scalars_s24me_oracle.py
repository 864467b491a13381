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
