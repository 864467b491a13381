"""The ``*_like`` factories under ``preserve_format``, against live torch: a result made like
a tensor that lies densely in memory in another order (a transpose, a permutation) has its
strides, and a random one is drawn in memory order, so its values at each index are torch's."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt
from tests.oracle import numpy_of

SOURCES = {
    "contiguous": lambda L: L.arange(12.0).reshape(3, 4),
    "transposed": lambda L: L.arange(12.0).reshape(3, 4).t(),
    "permuted": lambda L: L.arange(24.0).reshape(2, 3, 4).permute(2, 0, 1),
    "strided slice": lambda L: L.arange(24.0).reshape(4, 6)[:, ::2],
    "expanded": lambda L: L.arange(3.0).reshape(3, 1).expand(3, 4),
    "one column": lambda L: L.arange(4.0).reshape(4, 1).t(),
}

FACTORIES = {
    "zeros_like": lambda L, t: L.zeros_like(t),
    "ones_like": lambda L, t: L.ones_like(t),
    "empty_like": lambda L, t: L.empty_like(t).fill_(3),
    "full_like": lambda L, t: L.full_like(t, 2.5),
    "rand_like": lambda L, t: L.rand_like(t),
    "randn_like": lambda L, t: L.randn_like(t),
    "randn_like float64": lambda L, t: L.randn_like(t, dtype=L.float64),
    "randint_like": lambda L, t: L.randint_like(t, 3, 10),
    "rand_like contiguous_format": lambda L, t: L.rand_like(t, memory_format=L.contiguous_format),
    "zeros_like contiguous_format": lambda L, t: L.zeros_like(t,
                                                              memory_format=L.contiguous_format),
}


@pytest.mark.parametrize("source", sorted(SOURCES))
@pytest.mark.parametrize("factory", sorted(FACTORIES))
def test_like_has_torchs_strides_and_values(source: str, factory: str) -> None:
    made = []
    for L in (mt, torch):
        L.manual_seed(5)
        made.append(FACTORIES[factory](L, SOURCES[source](L)))
    got, want = made
    assert got.stride() == want.stride(), (source, factory)
    np.testing.assert_array_equal(numpy_of(got), numpy_of(want))
    assert str(got.dtype) == str(want.dtype)


def test_requires_grad_and_a_generator_are_kept() -> None:
    made: list[Any] = []
    for L in (mt, torch):
        g = L.Generator().manual_seed(11)
        made.append(L.randn_like(SOURCES["transposed"](L), generator=g, requires_grad=True))
    got, want = made
    assert got.requires_grad and got.is_leaf and got.stride() == want.stride()
    np.testing.assert_array_equal(numpy_of(got.detach()), numpy_of(want.detach()))
