"""Fuzz s21 fuzzt (tensor API, seeds 21001 and 21002): torch checks a call in one order: its
parser's types, then autograd's refusal of an in-place write (a leaf that requires grad), then
the op's own checks of values and dtypes (some before the operands' shapes), then the result's
cast into the written tensor, and last the kernel's dtype. Each case runs under torch and
minitorch (``L``): the same exception, or the same result."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from tests.oracle import assert_as_torch, assert_same


def T(L, shape: tuple, dtype: str, grad: bool = False):
    """A zero tensor of ``shape`` and ``dtype`` in library ``L`` (a leaf requiring grad)."""
    return L.zeros(shape, dtype=getattr(L, dtype), requires_grad=grad)


def assert_quietly_as_torch(fn) -> None:
    """oracle's assert_as_torch, with both libraries' warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_as_torch(fn, compare=assert_same)


CASES = {
    # parser types before autograd's leaf check
    "addmm_ bad mat2 on a leaf": lambda L: T(L, (1,), "float64", True).addmm_(
        T(L, (2, 0, 3), "bool"), np.float64(1.5)),
    "addr_ alpha None before the vectors' dims": lambda L: T(L, (3, 3), "float64").addr_(
        T(L, (3, 3), "int16"), T(L, (), "int64"), beta=-2.5, alpha=None),
    # autograd's leaf check before the op's checks of values
    "polygamma_ negative n on a leaf": lambda L: T(L, (1,), "float64", True).polygamma_(-2),
    "mvlgamma_ p 0 on a leaf": lambda L: T(L, (1,), "float64", True).mvlgamma_(0),
    # the op's checks before the shapes
    "heaviside_ dtypes before shapes": lambda L: T(L, (2, 3), "float64").heaviside_(
        T(L, (4,), "bool")),
    "heaviside_ dtypes before the output shape": lambda L: T(L, (), "int32").heaviside_(
        T(L, (2, 0, 3), "int8")),
    "divide_ rounding mode before shapes": lambda L: T(L, (4,), "int16").divide_(
        T(L, (2, 1, 2), "float64"), rounding_mode="bad"),
    "div_ rounding mode before shapes": lambda L: T(L, (4,), "float32").div_(
        T(L, (2, 1, 2), "float64"), rounding_mode="bad"),
    "baddbmm input dtype before the dims": lambda L: L.baddbmm(
        T(L, (2, 0, 3), "float32"), T(L, (2, 0, 3), "float64"), T(L, (2, 0, 3), "int16")),
    "baddbmm_ input dtype before the dims": lambda L: T(L, (2, 0, 3), "float32").baddbmm_(
        T(L, (2, 0, 3), "float64"), T(L, (2, 0, 3), "int16")),
    # the input's shape before addr's scalars; the scalars against the result's dtype
    "addr expand before an integral alpha": lambda L: L.addr(
        T(L, (3, 3), "int16"), T(L, (0,), "float64"), T(L, (0,), "int64"), alpha=0.5),
    "addr float alpha with a float vector": lambda L: L.addr(
        T(L, (3, 3), "int16"), T(L, (3,), "float64"), T(L, (3,), "int16"), alpha=0.5),
    "addr float alpha, all integral": lambda L: L.addr(
        T(L, (3, 3), "int16"), T(L, (3,), "int16"), T(L, (3,), "int16"), alpha=0.5),
    # the result's cast into self before the kernel's dtype
    "nextafter_ bool self": lambda L: T(L, (3,), "bool").nextafter_(T(L, (), "int64")),
    "nextafter_ int self, float other": lambda L: T(L, (3,), "int32").nextafter_(
        T(L, (3,), "float32")),
    "mvlgamma_ integral self": lambda L: T(L, (1, 3, 1), "int16").mvlgamma_(3),
    "mvlgamma_ uint8 self": lambda L: T(L, (), "uint8").mvlgamma_(3),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_checks_come_in_torchs_order(case: str) -> None:
    assert_quietly_as_torch(CASES[case])


@pytest.mark.parametrize("name", ["fmod_", "remainder_", "copysign_", "xlogy_", "heaviside_",
                                  "nextafter_"])
@pytest.mark.parametrize("dtypes", [("bool", "int64", (3,), ()),
                                    ("int32", "float32", (3,), (3,)),
                                    ("int32", "int8", (), (2, 0, 3)),
                                    ("int64", "int64", (3,), (3,)),
                                    ("float32", "float64", (3,), (4,))])
def test_binary_inplace_twins_check_as_torch(name: str, dtypes: tuple) -> None:
    self_dtype, other_dtype, self_shape, other_shape = dtypes
    assert_quietly_as_torch(lambda L: getattr(T(L, self_shape, self_dtype), name)(
        L.ones(other_shape, dtype=getattr(L, other_dtype))))
