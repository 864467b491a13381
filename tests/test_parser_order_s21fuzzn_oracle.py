"""torch's argument parser, for the functions of F that are C functions in torch (s21
fuzzn): it counts the positional arguments, then checks each argument's type as it binds
it, and names an unknown keyword last; Python names the unknown keyword first."""

from __future__ import annotations

from typing import Any

import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same_error, raised_by


def F(L: Any) -> Any:
    return L.nn.functional


CALLS = {
    "hardshrink_lambd": lambda L: F(L).hardshrink(L.ones(2), "x", inplace=False),
    "hardshrink_lambd_keyword": lambda L: F(L).hardshrink(L.ones(2), lambd="x", inplace=True),
    "hardshrink_lambd_tensor": lambda L: F(L).hardshrink(L.ones(2), L.ones(1), foo=1),
    "top_hardshrink": lambda L: L.hardshrink(L.ones(2), (0.5,), foo=1),
    "method_hardshrink": lambda L: L.ones(2).hardshrink("x", foo=1),
    "softshrink_lambd": lambda L: F(L).softshrink(L.ones(2), (0.5,), inplace=True),
    "softplus_beta": lambda L: F(L).softplus(L.ones(2), beta="x", foo=1),
    "softplus_too_many": lambda L: F(L).softplus(L.ones(2), 1, 2, 3, foo=1),
    "gelu_too_many": lambda L: F(L).gelu(L.ones(2), "x", inplace=False),
    "gelu_approximate": lambda L: F(L).gelu(L.ones(2), approximate=1, foo=1),
    "logsigmoid_too_many": lambda L: F(L).logsigmoid(L.ones(2), 1, inplace=False),
    "hardshrink_method_too_many": lambda L: L.ones(2).hardshrink(1, 2, foo=1),
    "good_value_unknown_keyword": lambda L: F(L).hardshrink(L.ones(2), 0.5, foo=1),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_parser_order(name: str) -> None:
    want = raised_by(CALLS[name], torch)
    assert want is not None
    assert_same_error(raised_by(CALLS[name], mt), want)
