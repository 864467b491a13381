"""nn.init's deprecated names and fan helpers against torch: the same values for a seed, the
same FutureWarning, the same fans and errors."""

from __future__ import annotations

import warnings

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minitorch
from minitorch.nn import init

OLD = ["uniform", "normal", "constant", "eye", "dirac", "xavier_uniform", "xavier_normal",
       "kaiming_uniform", "kaiming_normal", "orthogonal", "sparse"]
ARGS = {"constant": (0.5,), "sparse": (0.5,)}
SHAPE = {"dirac": (2, 2, 3)}


def _call(lib, name):
    lib.manual_seed(3)
    x = lib.empty(*SHAPE.get(name, (3, 4)), dtype=lib.float64)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = getattr(lib.nn.init, name)(x, *ARGS.get(name, ()))
    return y, [(w.category, str(w.message)) for w in caught]


@pytest.mark.parametrize("name", OLD)
def test_deprecated_alias_warns_and_fills_as_torch(name: str) -> None:
    y, warned = _call(minitorch, name)
    ty, twarned = _call(torch, name)
    assert warned == twarned and warned[0][0] is FutureWarning
    assert y.tolist() == ty.tolist()
    assert getattr(init, name).__name__ == name


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=0, max_size=4),
       st.sampled_from(["fan_in", "fan_out", "FAN_IN", "fan"]))
def test_fans_as_torch(shape: list[int], mode: str) -> None:
    results = []
    for lib in (minitorch, torch):
        x = lib.empty(tuple(shape))
        try:
            results.append((lib.nn.init._calculate_fan_in_and_fan_out(x),
                            lib.nn.init._calculate_correct_fan(x, mode)))
        except ValueError as e:
            results.append(("ValueError", str(e)))
    assert results[0] == results[1]
