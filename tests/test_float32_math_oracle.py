"""float32 exp, log, sin, cos and tanh round as torch's CPU kernels: bit for bit, nearly always.

torch's kernels (MKL's vector maths) are not open, so no emulation is exact; they are within
a hair of correctly rounded, and so is minitorch's float64-then-round (``cpu_math``).
numpy's float32 loops are not (exp: 60% of results equal torch's). These tests count the
results identical to torch's bits, and the printed form of d2l's softmax-from-scratch, whose
``X_prob.sum(1)`` prints ``tensor([1., 1.])`` where torch prints ``tensor([1.0000, 1.0000])``
as soon as one exp differs in its last bit.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import minitorch as mt

# The share of float32 results identical to torch's, measured on x86-64 (MKL): numpy's own
# float32 loops reach 0.60 (exp), 0.81 (log), 0.87 (sin), 0.81 (cos), 0.68 (tanh).
AT_LEAST = {"exp": 0.985, "log": 0.998, "sin": 0.94, "cos": 0.94, "tanh": 0.985}


@pytest.mark.parametrize("name", sorted(AT_LEAST))
@pytest.mark.parametrize("shape", [(), (6,), (40, 75)])
def test_float32_results_are_torchs_bits(name: str, shape: tuple) -> None:
    """3000 numbers in tensors of ``shape`` (0-d ones take the same kernels)."""
    values = (np.random.default_rng(0).standard_normal(3000) * 3).astype(np.float32)
    values = np.abs(values) if name == "log" else values
    chunks = values.reshape((-1, *shape)) if shape else values
    got = np.concatenate([getattr(mt, name)(mt.tensor(v)).numpy().ravel() for v in chunks])
    want = np.concatenate([getattr(torch, name)(torch.tensor(v)).numpy().ravel()
                           for v in chunks])
    share = np.mean(got.view(np.int32) == want.view(np.int32))
    assert share >= AT_LEAST[name], f"{name}: {share:.4f} of results are torch's bits"


def test_d2l_softmax_prints_as_torch() -> None:
    """d2l 3.6's softmax from scratch, 200 seeds: the probabilities and their row sums."""
    def printed(lib: object, seed: int) -> str:
        lib.manual_seed(seed)
        x_exp = lib.exp(lib.normal(0, 1, (2, 5)))
        x_prob = x_exp / x_exp.sum(1, keepdim=True)
        return f"{x_prob}\n{x_prob.sum(1)}"

    same = sum(printed(mt, seed) == printed(torch, seed) for seed in range(200))
    assert same >= 192, f"{same} of 200 seeds print as torch (numpy's float32 exp: about 130)"


def test_float64_and_cuda_paths_keep_their_own_math() -> None:
    """Only float32 numpy arrays take the float64 detour: float64 stays float64."""
    x = mt.tensor([0.1, 1.5], dtype=mt.float64)
    np.testing.assert_array_equal(x.exp().numpy(), np.exp(np.array([0.1, 1.5])))
    assert mt.tensor([0.5]).exp().dtype == mt.float32


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 40), n=st.integers(1, 300), seed=st.integers(0, 2**16))
def test_softmax_last_dim_is_torchs_bits(rows: int, n: int, seed: int) -> None:
    """torch's kernel: SLEEF's exp and its lanes' order of adding (16 with AVX512, else 8)."""
    x = (np.random.default_rng(seed).standard_normal((rows, n)) * 3).astype(np.float32)
    got = mt.softmax(mt.tensor(x), -1).numpy()
    assert got.tobytes() == torch.softmax(torch.tensor(x), -1).numpy().tobytes()


@pytest.mark.parametrize("n", [3, 10, 16, 17, 100, 784])
def test_log_softmax_last_dim_is_nearly_always_torchs_bits(n: int) -> None:
    """torch takes the rows' logs with SLEEF's logf, minitorch rounds float64's once: a row
    whose log differs in its last bit differs everywhere, so this counts over 500 rows."""
    x = (np.random.default_rng(n).standard_normal((500, n)) * 3).astype(np.float32)
    share = np.mean(mt.log_softmax(mt.tensor(x), 1).numpy()
                    == torch.log_softmax(torch.tensor(x), 1).numpy())
    assert share >= 0.98, share


@pytest.mark.parametrize("batch", [1, 7, 16, 17, 64, 300, 4097])
def test_cross_entropy_item_is_torchs(batch: int) -> None:
    """The loss a training loop prints with ``.item()``: every digit, ignored rows and
    class weights included (torch's nll_loss adds the rows in a cascade of levels of 16).
    A row's log-sum-exp may still differ in its last bit (torch's SLEEF logf), so 10 of 12."""
    rng = np.random.default_rng(batch)
    same = []
    for case in range(12):
        x = (rng.standard_normal((batch, 10)) * 2).astype(np.float32)
        y = rng.integers(0, 10, batch)
        if case % 3 == 0:
            y[rng.integers(0, batch, batch // 4 + 1)] = -100
        kwargs = {"reduction": ("mean", "sum")[case % 2]}
        w = (rng.random(10) + 0.5).astype(np.float32) if case % 4 < 2 else None
        got = mt.nn.functional.cross_entropy(
            mt.tensor(x), mt.tensor(y), weight=None if w is None else mt.tensor(w), **kwargs)
        want = torch.nn.functional.cross_entropy(
            torch.tensor(x), torch.tensor(y), weight=None if w is None else torch.tensor(w),
            **kwargs)
        same.append(repr(got.item()) == repr(want.item()))
    assert sum(same) >= 10, same
