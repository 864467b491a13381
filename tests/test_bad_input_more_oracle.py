"""Bad and edge input of issue #21's later rounds against live torch: numpy bools as
numbers, list keys read as tuples, ... Each case runs on torch and on minitorch and must
have the same outcome (the same result, or the same exception type and message).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from badinput import classify
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS


def assert_same_as_torch(expression: str, **names: Any) -> None:
    """``expression`` (over ``L``, ``np`` and ``names``, each a function of the library) has
    torch's outcome in minitorch."""
    def run(L: Any, e: str) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return eval(e, {"np": np, "L": L, **{k: f(L) for k, f in names.items()}})

    outcome, said = classify(run, [lambda L: expression])
    assert outcome == "same", said


TENSORS = {"float": lambda L: L.tensor([1.5, -2.0, 0.0]),
           "int": lambda L: L.tensor([4, -3, 0]),
           "bool": lambda L: L.tensor([True, False, True]),
           "bool0d": lambda L: L.tensor(True)}


@SETTINGS
@given(x=st.sampled_from(sorted(TENSORS)), flag=st.sampled_from(["np.True_", "np.False_"]),
       expression=st.sampled_from([
           "x * {b}", "{b} * x", "x + {b}", "x | {b}", "x ^ {b}", "x & {b}", "L.pow(x, {b})",
           "x == {b}", "L.where(x > 0, {b}, x)", "L.clamp(x, {b})", "L.full((2,), {b})",
           "x.add(1, alpha={b})", "L.result_type(x, {b})", "x.masked_fill(x > 0, {b})",
           "L.sub(x, 1, alpha={b})", "L.mul(x, {b})"]))
def test_numpy_bools_read_as_doubles_as_torch(x: str, flag: str, expression: str) -> None:
    """torch's parser reads a numpy bool scalar as a double: ``int_tensor * np.True_`` is a
    float tensor, ``bool_tensor | np.False_`` a float op that bitwise ops refuse."""
    assert_same_as_torch(expression.format(b=flag), x=TENSORS[x])


LIST_KEYS = ["[[0, 1], [1, 0]]", "[[True, False, True]]", "[[True, False], [False, True]]",
             "[L.tensor(0), 1]", "[slice(None), 1]", "[None, 1]", "[Ellipsis, 1]",
             "[(0, 1), [1, 0]]", "[0, 1]", "[[0]] * 33", "[range(2)]", "[np.array([0, 1]), 0]",
             "[L.tensor([0, 2])]", "np.array([[0, 1], [1, 0]])", "((0, 1), [1, 0])",
             "[[0, 1], [1, 0], [0, 0]]"]


@SETTINGS
@given(shape=st.sampled_from([(3,), (3, 2), (2, 3), (2, 2, 2), ()]),
       key=st.sampled_from(LIST_KEYS), write=st.booleans())
def test_list_keys_read_as_tuples_as_torch(shape: tuple, key: str, write: bool) -> None:
    """A short list key that holds a sequence, tensor, slice, None or ``...`` indexes as the
    tuple of its items (numpy's old rule, kept by torch); a tuple inside a key is a list."""
    x = lambda L: L.arange(float(np.prod(shape))).reshape(shape)  # noqa: E731
    if write:
        assert_same_as_torch(f"x.__setitem__({key}, -1.0) or x", x=x)
    else:
        assert_same_as_torch(f"x[{key}]", x=x)


def test_list_keys_warn_as_torch() -> None:
    """The old rule warns, as torch does."""
    import minitorch as mt
    with pytest.warns(UserWarning, match="non-tuple sequence for multidimensional indexing"):
        mt.ones(3, 2)[[[0, 1], [1, 0]]]
