"""Public names torch programs use that minitorch lacked (session 13, pointwise and tensor
attributes), against live torch: print options, tensor constructors and attributes, the
trigonometric and special functions, and the comparisons by name and in place. Each case
runs on torch and on minitorch and must end the same: values, dtype, shape, grad_fn and
gradients, or the exception's type and message.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import SETTINGS
from test_bad_input_fuzz21b_oracle import assert_as_torch
from test_tensor_str import realistic_cases, small_cases

import minitorch as mt

# ---------------------------------------------------------------------------- print options


@pytest.fixture
def default_print_options():
    """Both libraries print with their defaults again after the test."""
    yield
    for lib in (torch, mt):
        lib.set_printoptions(profile="default")


def _print_options() -> st.SearchStrategy[dict]:
    return st.fixed_dictionaries({}, optional={
        "precision": st.integers(0, 8),
        "threshold": st.sampled_from([0, 1, 5, 10, 40, 1000, math.inf]),
        "edgeitems": st.integers(0, 4),
        "linewidth": st.integers(10, 120),
        "profile": st.sampled_from(["default", "short", "full"]),
        "sci_mode": st.sampled_from([None, True, False]),
    })


def _twin_reprs(array: np.ndarray, grad: str | None) -> tuple[str, str]:
    """The reprs of the same values in minitorch and torch, tracked as ``grad`` says."""
    reprs = []
    for lib in (mt, torch):
        t = lib.tensor(array)
        if grad is not None:
            t = t.requires_grad_() if grad == "leaf" else t.requires_grad_() * 1
        reprs.append(repr(t))
    return reprs[0], reprs[1]


@settings(SETTINGS, max_examples=150)
@given(st.one_of(small_cases(), realistic_cases()), _print_options())
def test_printed_under_any_print_options_as_torch(case, options) -> None:
    """Every option, alone or with others and a profile, prints every kind of tensor as
    torch does (summarised or not, scientific or not, wrapped at any width)."""
    array, grad, _ = case
    grad = grad if grad in (None, "leaf") else "node"
    try:
        for lib in (torch, mt):
            lib.set_printoptions(**options)
        ours, theirs = _twin_reprs(array, grad)
    finally:
        for lib in (torch, mt):
            lib.set_printoptions(profile="default")
    assert ours == theirs, options


@pytest.mark.parametrize("options", [
    {"precision": 2}, {"precision": 0}, {"threshold": 5}, {"threshold": 5, "edgeitems": 1},
    {"threshold": 3, "edgeitems": 0}, {"edgeitems": 0}, {"linewidth": 20},
    {"profile": "short"}, {"profile": "full"}, {"profile": "unknown"},
    {"sci_mode": True}, {"sci_mode": False}, {"threshold": 2.5}, {"precision": -1},
    {"precision": 2.0},
])
@pytest.mark.parametrize("values", [
    "L.arange(2000.) / 7", "L.arange(10)", "L.tensor([1e-9, 1e10])", "L.tensor(3.25)",
    "L.tensor([[1.5, float('nan')], [float('inf'), -0.]])", "L.zeros(0, 3)",
    "L.tensor([True, False, True, True, False, False, True])",
    "L.arange(120.).reshape(2, 3, 4, 5)", "L.tensor([0., 0.])", "L.tensor([12.])",
])
def test_print_options_cases_as_torch(options: dict, values: str,
                                      default_print_options: None) -> None:
    """Named cases, their errors too (a precision the format refuses), with the options
    restored after each."""
    assert_as_torch(f"L.set_printoptions(**{options!r})\n"
                    f"try:\n    R = repr({values})\nfinally:\n"
                    "    L.set_printoptions(profile='default')")


def test_sci_mode_resets_with_each_call(default_print_options: None) -> None:
    """As in torch, a call that does not name sci_mode sets it back to None."""
    for lib in (torch, mt):
        lib.set_printoptions(sci_mode=True)
        lib.set_printoptions(precision=3)
    assert repr(mt.tensor([1.5, 2.0])) == repr(torch.tensor([1.5, 2.0])) == \
        "tensor([1.500, 2.000])"
