"""Fresh fuzz seeds of session 35 (the four fuzzers of session 33, written by helpers who did
not see minitorch's tests, on the new seed 3501, and session 34's leftovers): what they
found. Each case runs under torch and minitorch (``L``) and must raise torch's exception with
torch's message, or give torch's result."""

from __future__ import annotations

from typing import Any

import pytest

from tests.oracle import assert_as_torch, assert_same

DTYPES = ["float32", "int64", "bool"]


@pytest.mark.parametrize("fn", ["gcd", "lcm", "logaddexp", "logaddexp2", "nextafter", "hypot",
                                "igamma", "igammac"])
@pytest.mark.parametrize("a", DTYPES)
@pytest.mark.parametrize("b", DTYPES)
@pytest.mark.parametrize("out", [*DTYPES, "int8"])
def test_a_pairs_out_dtype_is_cast_checked_before_its_kernel_refuses_as_torch(
        fn: str, a: str, b: str, out: str) -> None:
    """Math fuzz: ``lcm(float, float, out=long)`` raised lcm's "not implemented for 'Float'";
    torch's TensorIterator finds the operands' result type cannot be cast into out first
    (nextafter, hypot, igamma(c), logaddexp(2) of integers into a bool out alike)."""
    def call(L: Any) -> Any:
        o = L.zeros(2, dtype=getattr(L, out))
        return getattr(L, fn)(L.ones(2, dtype=getattr(L, a)), L.ones(2, dtype=getattr(L, b)),
                              out=o), o
    assert_as_torch(call, assert_same)
