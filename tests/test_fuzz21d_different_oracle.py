"""Fuzz D's DIFFERENT and REFUSED causes against torch: calls torch accepts or refuses that
minitorch answered otherwise (another value or dtype, another exception type, or a refusal)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same_error, raised_by


def _ab(L: Any) -> tuple:
    a = L.tensor(np.arange(6.0).reshape(2, 3) - 2.5, requires_grad=True)
    return a, L.tensor(np.arange(12.0).reshape(3, 4) / 7)


SUBLIST_CALLS = {
    "matmul": lambda L, a, b: L.einsum(a, [0, 1], b, [1, 2], [0, 2]),
    "implicit output": lambda L, a, b: L.einsum(a, [0, 1], b, [1, 2]),
    "lowercase labels": lambda L, a, b: L.einsum(a, [30, 40], b, [40, 51]),
    "one operand": lambda L, a, b: L.einsum(a, [0, 1]),
    "transpose": lambda L, a, b: L.einsum(a, (0, 1), [1, 0]),
    "ellipsis": lambda L, a, b: L.einsum(a, [..., 1], [1]),
    "ellipsis in both": lambda L, a, b: L.einsum(a, [0, ...], b, [..., 2], [0, ..., 2]),
    "summed out": lambda L, a, b: L.einsum(a, [0, 1], [0]),
    "bool and tensor labels": lambda L, a, b: L.einsum(a, [0, True], b, [L.tensor(1), 2]),
}
SUBLIST_ERRORS = {
    "label 60": lambda L, a, b: L.einsum(a, [0, 1], b, [1, 60], [0]),
    "negative label": lambda L, a, b: L.einsum(a, [0, -1]),
    "label out of range in output": lambda L, a, b: L.einsum(a, [0, 1], [52]),
    "string label": lambda L, a, b: L.einsum(a, [0, "a"]),
    "float label": lambda L, a, b: L.einsum(a, [0, 1.5]),
    "string sublist": lambda L, a, b: L.einsum(a, "ab"),
    "int sublist": lambda L, a, b: L.einsum(a, 5),
    "operand alone": lambda L, a, b: L.einsum(a),
    "equation alone": lambda L, a, b: L.einsum("ij"),
    "nothing": lambda L, a, b: L.einsum(),
    "output label not in inputs": lambda L, a, b: L.einsum(a, [0, 1], b, [1, 2], [0, 5]),
    "too many labels": lambda L, a, b: L.einsum(a, [0, 1, 2]),
    "non-tensor operand": lambda L, a, b: L.einsum(a, [0, 1], 3, [1, 2]),
    "tensor as output list": lambda L, a, b: L.einsum(a, [0, 1], b),
    "size mismatch": lambda L, a, b: L.einsum(a, [0, 1], b, [0, 2]),
    "None output list": lambda L, a, b: L.einsum(a, [0, 1], None),
}


@pytest.mark.parametrize("call", SUBLIST_CALLS.values(), ids=SUBLIST_CALLS.keys())
def test_einsum_sublist_form_is_torchs(call: Any) -> None:
    def run(L: Any) -> list:
        a, b = _ab(L)
        y = call(L, a, b)
        y.pow(2).sum().backward()
        return [y.grad_fn.name(), y.detach().numpy(), a.grad.numpy()]

    got, want = run(mt), run(torch)
    assert got[0] == want[0]
    for g, w in zip(got[1:], want[1:], strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("call", SUBLIST_ERRORS.values(), ids=SUBLIST_ERRORS.keys())
def test_einsum_sublist_errors_are_torchs(call: Any) -> None:
    def run(L: Any) -> Any:
        return call(L, *_ab(L))

    assert_same_error(raised_by(run, mt), raised_by(run, torch))
