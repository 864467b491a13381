"""The last bits of torch's CPU special functions, compared live with torch 2.13.

Each function takes the steps torch's kernel takes where they are cheap: MKL's
``vdErfc``/``vdErfInv``/``vdLGamma`` (its vector maths, where MKL is installed), the C
library's ``pow``/``exp``/``lgamma`` (its scalar loops), the fused multiply-adds GCC puts into
Cephes' ``chbevl``, SLEEF's halving of a subnormal in ``log1p``. SLEEF's ``lgammaf`` (its
vectorised float32 kernel) is ported bit for bit and is what float32 ``lgamma`` runs. Most tests
compare bits; where the port cannot reach every bit they bound the share of values that
differ.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import minitorch as mt
from minitorch import _mkl, _sleef
from tests.oracle import SETTINGS, assert_exact, assert_same, shapes

NEEDS_MKL = pytest.mark.skipif(_mkl.library() is None, reason="MKL (minitorch[mkl]) absent")
SPECIAL = [0.0, -0.0, 1.0, 2.0, -1.0, -2.5, 0.5, -0.5, 1e-45, 1e-40, 5e-324, 3.4e38, -3.4e38,
           1e300, -1e300, np.inf, -np.inf, np.nan, 7.0, 4.0, 2.5, 1.5, -0.25, 65504.0]


def _values(seed: int, dtype: str, n: int = 4000) -> np.ndarray:
    """Uniform, log-uniform (both signs) and half-integral values, as float ``dtype``."""
    rng = np.random.default_rng(seed)
    with np.errstate(over="ignore"):
        return np.concatenate([
            rng.uniform(-20, 20, n), rng.uniform(0, 10, n), np.exp(rng.uniform(-80, 80, n)),
            -np.exp(rng.uniform(-80, 80, n)), np.round(rng.uniform(-16, 16, n) * 2) / 2,
            np.array(SPECIAL)]).astype(dtype)


def _share_differing(got: mt.Tensor, want: torch.Tensor) -> float:
    a, b = got.numpy(), want.numpy()
    assert a.dtype == b.dtype and a.shape == b.shape
    return float(np.mean(~((a == b) | (np.isnan(a) & np.isnan(b)))))


# ---- lgamma: SLEEF's float32 kernel step by step; MKL's float64 ----

def test_sleef_lgammaf_is_torch_bit_for_bit() -> None:
    x = _values(0, "float32")
    np.testing.assert_array_equal(_sleef.lgammaf(x), torch.lgamma(torch.from_numpy(x)).numpy())


@pytest.mark.parametrize("call", [lambda L, x: L.lgamma(x), lambda L, x: L.special.gammaln(x),
                                  lambda L, x: x.lgamma(), lambda L, x: L.mvlgamma(x.abs(), 2)])
@pytest.mark.parametrize("shape", [(), (1,), (7, 3), (997,)])
def test_float32_lgamma_is_sleefs_for_any_shape(call, shape: tuple) -> None:
    data = _values(1, "float32")[:int(np.prod(shape))].reshape(shape)
    assert_exact(call(mt, mt.tensor(data)), call(torch, torch.tensor(data)))


@NEEDS_MKL
@given(shape=shapes(0, 3), data=st.data())
@SETTINGS
def test_float64_lgamma_is_mkls_for_any_shape(shape: tuple, data) -> None:
    x = np.asarray(data.draw(st.lists(st.sampled_from(
        [0.5, 1.5, 2.5, -0.5, -3.5, 7.0, 4.0, 3.0, 1e-45, 5e-324, 65504.0]),
        min_size=int(np.prod(shape)), max_size=int(np.prod(shape)))), np.float64).reshape(shape)
    assert_exact(mt.special.gammaln(mt.tensor(x)), torch.special.gammaln(torch.from_numpy(x)))


@NEEDS_MKL
def test_float64_lgamma_is_mkls() -> None:
    x = _values(2, "float64")
    assert _share_differing(mt.lgamma(mt.tensor(x)), torch.lgamma(torch.from_numpy(x))) < 0.01
    fuzzed = [2.5, 3.0, -1e300, 5e-324, -3.5, 7.0, 0.0, 0.5, -0.5, 2.5e305, 1e17]
    assert_exact(mt.lgamma(mt.tensor(fuzzed, dtype=mt.float64)),
                 torch.lgamma(torch.tensor(fuzzed, dtype=torch.float64)))


@NEEDS_MKL
@pytest.mark.parametrize("p", [1, 2, 3, 5])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_mvlgamma_sums_torchs_terms_in_torchs_order(p: int, dtype: str) -> None:
    x = np.abs(_values(3, dtype, 400)) + (p - 1) / 2 + 0.01
    x = x[np.isfinite(x)]
    got = mt.special.multigammaln(mt.tensor(x), p)
    bound = 0.03 if dtype == "float32" else 0.01  # float32's lgamma: the series, 98%
    assert _share_differing(got, torch.special.multigammaln(torch.from_numpy(x), p)) < bound
    if dtype == "float32":
        return
    quoted = np.array([[2.0, 2.5, 1.0], [0.5, 65504.0, 2.0]], dtype) + (p - 1) / 2
    assert_exact(mt.special.multigammaln(mt.tensor(quoted), p),
                 torch.special.multigammaln(torch.from_numpy(quoted), p))


# ---- erfc, erfinv: MKL's vector maths ----

@NEEDS_MKL
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_erfc_and_erfinv_are_mkls(dtype: str) -> None:
    with np.errstate(over="ignore"):  # 1e300 is inf in float32
        x = np.concatenate([np.random.default_rng(4).uniform(-8, 8, 20000), SPECIAL]).astype(dtype)
    assert_exact(mt.special.erfc(mt.tensor(x)), torch.special.erfc(torch.from_numpy(x)))
    y = np.concatenate([np.random.default_rng(5).uniform(-1, 1, 20000),
                        [1.0, -1.0, 0.0, 1.5, np.nan]]).astype(dtype)
    assert_exact(mt.erfinv(mt.tensor(y)), torch.erfinv(torch.from_numpy(y)))


# ---- polygamma: the C library's n! and pow ----

@pytest.mark.parametrize("n", [2, 3, 4, 7])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_polygamma_takes_the_c_librarys_pow(n: int, dtype: str) -> None:
    rng = np.random.default_rng(6)
    x = np.concatenate([rng.uniform(-10, 10, 3000), rng.uniform(0, 30, 3000),
                        np.arange(-5, 100, 0.5)]).astype(dtype)
    got = mt.polygamma(n, mt.tensor(x))
    assert _share_differing(got, torch.polygamma(n, torch.from_numpy(x))) < 0.003
    with np.errstate(over="ignore"):
        quoted = np.array([0.5, 1.0, 2.0, 2.5, 3.0, 4.0, 7.0, 1e300, 5e-324], dtype)
    assert_exact(mt.special.polygamma(n, mt.tensor(quoted)),
                 torch.special.polygamma(n, torch.from_numpy(quoted)))


# ---- i0, i0e, i1, i1e: chbevl with GCC's fused multiply-adds, the C library's exp ----

@pytest.mark.parametrize("name", ["i0", "special.i0e", "special.i1", "special.i1e"])
def test_float32_bessel_i_is_torch_bit_for_bit(name: str) -> None:
    rng = np.random.default_rng(7)
    x = np.concatenate([rng.uniform(-30, 30, 10000), rng.uniform(-8, 8, 10000),
                        np.arange(-20, 20, 0.5)]).astype(np.float32)
    got = eval(f"mt.{name}")(mt.tensor(x))
    assert _share_differing(got, eval(f"torch.{name}")(torch.from_numpy(x))) < 1e-3


@pytest.mark.parametrize("value", [True, 1, 2.5, -7.0])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_bessel_i_of_a_0d_tensor(value: float, dtype: str) -> None:
    for name in ("i0", "special.i0e", "special.i1", "special.i1e"):
        got = eval(f"mt.{name}")(mt.tensor(value).to(getattr(mt, dtype)))
        assert_exact(got, eval(f"torch.{name}")(torch.tensor(value).to(getattr(torch, dtype))),
                     name)
    assert_exact(mt.special.i0(mt.tensor(True)), torch.special.i0(torch.tensor(True)))


def test_short_float64_bessel_i_fuses_its_steps() -> None:
    x = np.random.default_rng(8).uniform(-30, 30, (300, 6))
    differing = sum(_share_differing(mt.i0(mt.tensor(row)), torch.i0(torch.from_numpy(row)))
                    for row in x)
    assert differing / len(x) < 0.01  # two roundings a step: 15%


# ---- log1p: SLEEF's log1pf; logit: MKL's log, 0-d too ----

def test_float32_log1p_is_sleefs() -> None:
    rng = np.random.default_rng(9)
    x = np.concatenate([rng.uniform(-1, 10, 20000), np.exp(rng.uniform(-104, 88, 20000)),
                        [1e-45, 3e-45, 1e-40, -1e-45, 3e38, np.inf, np.nan, -1, -2, -0.0]])
    x = x.astype(np.float32)
    got = mt.log1p(mt.tensor(x))
    assert _share_differing(got, torch.log1p(torch.from_numpy(x))) < 0.005
    for dtype in ("float32", "float64"):  # SLEEF halves a subnormal, rounding to even
        tiny = np.array([1e-45, 3e-45, 4.2e-45, 1e-40, -1e-45, 5e-324, 1.5e-323, 1e-310, 0.5],
                        dtype)
        assert_exact(mt.log1p(mt.tensor(tiny)), torch.log1p(torch.from_numpy(tiny)))
    assert_exact(mt.special.log1p(mt.tensor(1e-45)), torch.special.log1p(torch.tensor(1e-45)))


@pytest.mark.parametrize("eps", [None, 0.6, 0.1, 1e-6])
def test_logit_of_0d_tensors(eps: float | None) -> None:
    for v in np.random.default_rng(10).uniform(-0.5, 1.5, 60).astype(np.float32):
        assert_exact(mt.special.logit(mt.tensor(v), eps=eps),
                     torch.special.logit(torch.tensor(v), eps=eps))
    assert_exact(mt.special.logit(mt.tensor(-5, dtype=mt.int32), eps=0.6),
                 torch.special.logit(torch.tensor(-5, dtype=torch.int32), eps=0.6))


# ---- airy_ai below -2.09: torch's rational fits, not the true Ai ----

@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_airy_ai_oscillating_is_torchs(dtype: str) -> None:
    rng = np.random.default_rng(11)
    x = np.concatenate([rng.uniform(-30, -2.0, 5000), -np.exp(rng.uniform(0, 12, 500)),
                        [-2.09, -2.25, -2.5, -3.5, -7.0, -7.5]]).astype(dtype)
    assert_same(mt.special.airy_ai(mt.tensor(x)), torch.special.airy_ai(torch.from_numpy(x)))
