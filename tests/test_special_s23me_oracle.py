"""torch.special's own argument parsing (its round has one signature; its functions take
``out=``), with torch as the oracle (found by a differential fuzz of torch.special)."""

from __future__ import annotations

import pytest

from tests.oracle import assert_as_torch, assert_same

X = "L.tensor([0.25, 1.5, 3.0])"


@pytest.mark.parametrize("call", [
    # round: one signature, so torch's parser names the argument
    f"L.special.round({X}, decimals=None)", "L.special.round(None, decimals=2)",
    f"L.special.round({X}, decimals='a')", f"L.special.round({X}, 1)",
    f"L.special.round({X}, decimals=1)", f"L.special.round({X}, decimals=True)",
    "L.special.round(L.tensor([1, 2]), decimals=1)", f"L.special.round({X}, foo=1)",
    # out=, into a tensor of another shape, dtype, or one that is not a tensor
    *[f"L.special.{f}({X}, out=L.empty(3))" for f in (
        "expit", "erf", "erfc", "erfinv", "exp2", "expm1", "log1p", "gammaln", "digamma", "psi",
        "i0", "sinc", "round")],
    f"L.special.logit({X}, 0.1, out=L.empty(3))", f"L.special.logit({X}, out=L.empty(3))",
    f"L.special.round({X}, decimals=1, out=L.empty(3))", f"L.special.round({X}, out=None)",
    f"L.special.xlogy({X}, {X}, out=L.empty(3))", f"L.special.xlogy(2, {X}, out=L.empty(1))",
    f"L.special.polygamma(1, {X}, out=L.empty(5))", f"L.polygamma(2, {X}, out=L.empty(3))",
    f"L.special.polygamma(1, {X}, out=L.empty(3, dtype=L.int64))",
    f"L.special.polygamma(1.5, {X}, out=L.empty(3))", f"L.polygamma(1, {X}, out=1)",
    f"L.special.expit({X}, out=2.0)", f"L.special.erf({X}, out=L.empty(3, dtype=L.int64))",
    f"L.special.gammaln({X}, out=L.empty(3, dtype=L.float64))",
    f"L.special.expit({X}.requires_grad_(), out=L.empty(3))",
    f"L.special.polygamma(1, {X}.requires_grad_(), out=L.empty(3))",
    "L.ones(3).polygamma(1, out=L.empty(3))",
])
def test_as_torch(call: str) -> None:
    # (values to their dtype's tolerance: lgamma and polygamma may differ in a last bit)
    assert_as_torch(lambda L: eval(call), compare=assert_same)  # the test's own expressions


@pytest.mark.parametrize("call", [
    "L.xlogy(L.tensor([0., 1.]), float('nan'))", "L.xlogy(L.tensor([0, 1]), float('nan'))",
    "L.special.xlogy(L.tensor([0, 1], dtype=L.int8), float('nan'))",
    "L.xlogy(0.0, L.tensor([float('nan'), 1.0]))",
    "L.xlogy(L.tensor(0.0), L.tensor([float('nan'), 2.0], dtype=L.float64))",
    "L.xlogy(L.tensor(-2 ** 63), L.tensor([8, 6], dtype=L.int32))",
    "L.xlogy(L.tensor(300), L.tensor([8, 2], dtype=L.uint8))",
    "L.xlogy(L.tensor([1, 2], dtype=L.uint8), -3)", "L.xlogy(-3, L.tensor([1, 2], dtype=L.uint8))",
])
def test_xlogy_nan_and_integers(call: str) -> None:
    """A nan y gives nan even where x is 0; integers are read straight into the float
    xlogy computes in (a 0-d int64 beside an int32 tensor does not wrap through int32)."""
    assert_as_torch(lambda L: eval(call))  # the test's own expressions
