"""Bad and edge input of issue #21's later rounds against live torch: numpy bools as
numbers, list keys read as tuples, ... Each case runs on torch and on minitorch and must
have the same outcome (the same result, or the same exception type and message).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
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
