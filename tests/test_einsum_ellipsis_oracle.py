"""``einsum`` with an ellipsis against torch: the broadcast dims where torch places them
(first in an implicit output, after the summed labels when summed), values and gradients to
the bit, the output node, and torch's errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same_error, raised_by

CASES = [("...ij,...jk", [(5, 2, 3), (3, 4)]), ("...ij,...jk->...ik", [(2, 5, 2, 3), (5, 3, 4)]),
         ("b...,b...->b", [(3, 4, 5), (3, 4, 5)]), ("...ii->...i", [(2, 3, 3)]),
         ("i...->...", [(3, 4, 2)]), ("...", [(2, 3)]), ("a...b,b...->a", [(2, 3, 4), (4, 3)]),
         ("...i,i", [(2, 3, 4), (4,)]), ("ij...,jk...->ik...", [(2, 3, 5), (3, 4, 1)]),
         ("...,...", [(2, 1), (3,)]), ("i...j->j...i", [(2, 3, 4, 5)])]


@pytest.mark.parametrize("equation,shapes", CASES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_ellipsis_is_torchs_bits(equation: str, shapes: list, dtype: str) -> None:
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s).astype(dtype) for s in shapes]

    def run(L: Any) -> list:
        leaves = [L.tensor(a, requires_grad=True) for a in arrays]
        y = L.einsum(equation, *leaves)
        y.pow(2).sum().backward()
        return [y.grad_fn.name(), *(t.detach().numpy() for t in (y, *(x.grad for x in leaves)))]

    got, want = run(mt), run(torch)
    assert got[0] == want[0]
    for g, w in zip(got[1:], want[1:], strict=True):
        assert g.shape == w.shape
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("call", [lambda L: L.einsum("...ijk", L.ones(2, 3)),
                                  lambda L: L.einsum("ij", L.ones(2, 3, 4)),
                                  lambda L: L.einsum("...i,...i", L.ones(2, 3), L.ones(4, 3))])
def test_errors(call: Any) -> None:
    assert_same_error(raised_by(call, mt), raised_by(call, torch))
