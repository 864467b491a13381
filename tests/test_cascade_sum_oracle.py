"""Sums bit for bit as torch's CPU kernel: every bit of sum and mean equals torch's.

numpy's pairwise sum and torch's cascade differ in the last bit for most inputs; torch's
printer then may pick another format (issue #20: ``tensor([1., 1.])`` for
``tensor([1.0000, 1.0000])``). Tolerances would hide exactly that, so these tests compare
the bits.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import minitorch as mt
from minitorch.ops import _cascade_sum
from tests.oracle import SETTINGS

SIZES = st.sampled_from([1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127,
                         128, 129, 255, 256, 257, 784, 1000, 1025, 4096, 4099])


def _same_bits(got: mt.Tensor, want: torch.Tensor) -> None:
    a, b = got.numpy(), want.numpy()
    assert a.shape == b.shape and a.dtype == b.dtype
    assert a.tobytes() == b.tobytes(), f"{a!r} != {b!r}"


@st.composite
def _cases(draw: st.DrawFn) -> tuple[np.ndarray, tuple[int, ...] | None, bool]:
    """An array of 1 to 3 dims (up to ~50k elements), dims to reduce, keepdim."""
    ndim = draw(st.integers(1, 3))
    shape = [draw(SIZES)]
    while len(shape) < ndim:
        shape.append(draw(st.sampled_from([1, 2, 3, 5, 8, 9, 17, 40])))
    shape = draw(st.permutations(shape))
    dims = draw(st.none() | st.sets(st.integers(0, ndim - 1), min_size=1).map(tuple))
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    scale = draw(st.sampled_from([1.0, 1e-30, 1e30, 3.0e4]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    data = rng.standard_normal(tuple(shape)) * scale
    if draw(st.booleans()):  # positive values, as a softmax's: no cancellation to hide behind
        data = np.abs(data)
    return data.astype(dtype), dims, draw(st.booleans())


@SETTINGS
@given(_cases())
def test_sum_and_mean_bits_match_torch(case: tuple) -> None:
    data, dims, keepdim = case
    a, b = mt.tensor(data), torch.tensor(data)
    if dims is None and not keepdim:
        _same_bits(a.sum(), b.sum())
        _same_bits(a.mean(), b.mean())
        return
    dims = dims if dims is not None else tuple(range(data.ndim))
    _same_bits(a.sum(dims, keepdim=keepdim), b.sum(dims, keepdim=keepdim))
    _same_bits(a.mean(dims, keepdim=keepdim), b.mean(dims, keepdim=keepdim))


@pytest.mark.parametrize("shape, dim", [((64, 784), 1), ((64, 784), 0), ((64, 784), None),
                                        ((1000003,), None), ((40, 3, 1000), 1),
                                        ((2000, 33), 0), ((7, 9000), (0, 1))])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_large_sums_split_between_threads_match_torch(shape: tuple, dim: object,
                                                      dtype: type) -> None:
    data = np.random.default_rng(0).standard_normal(shape).astype(dtype)
    a, b = mt.tensor(data), torch.tensor(data)
    if dim is None:
        _same_bits(a.sum(), b.sum())
    else:
        _same_bits(a.sum(dim), b.sum(dim))


@pytest.mark.parametrize("threads", [1, 2])
def test_thread_count_is_torchs(threads: int) -> None:
    data = np.random.default_rng(1).standard_normal(100_001).astype(np.float32)
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    mt.set_num_threads(threads)
    try:
        _same_bits(mt.tensor(data).sum(), torch.tensor(data).sum())
    finally:
        torch.set_num_threads(before)
        _cascade_sum._threads.clear()


def _d2l_row_sums(lib: object, X_exp: np.ndarray) -> str:
    """d2l's softmax from scratch, from the same exponentials: its rows sum to one, printed."""
    X_exp = lib.tensor(X_exp)
    return str((X_exp / X_exp.sum(1, keepdim=True)).sum(1))


def test_d2l_softmax_row_sums_print_as_torch() -> None:
    # the exponentials are torch's: its float32 exp (SLEEF) may differ from numpy's in the
    # last bit, which is exp's matter, not the sum's
    for seed in range(200):
        torch.manual_seed(seed)
        X_exp = torch.exp(torch.normal(0, 1, (2, 5))).numpy()
        assert _d2l_row_sums(mt, X_exp) == _d2l_row_sums(torch, X_exp), seed


def test_gradient_of_a_broadcast_sums_as_torch() -> None:
    data = np.random.default_rng(2).standard_normal((300, 7)).astype(np.float32)
    grads = []
    for lib in (mt, torch):
        bias = lib.zeros(7, requires_grad=True)
        ((lib.tensor(data) + bias) * lib.tensor(data)).sum().backward()
        grads.append(bias.grad)
    _same_bits(*grads)


@pytest.mark.parametrize("loss, reduction", [("mse_loss", "mean"), ("mse_loss", "sum"),
                                             ("smooth_l1_loss", "mean")])
def test_reduced_losses_sum_as_torch(loss: str, reduction: str) -> None:
    rng = np.random.default_rng(3)
    x, y = rng.standard_normal((2, 37, 129)).astype(np.float32)
    got = getattr(mt.nn.functional, loss)(mt.tensor(x), mt.tensor(y), reduction=reduction)
    want = getattr(torch.nn.functional, loss)(torch.tensor(x), torch.tensor(y),
                                              reduction=reduction)
    _same_bits(got, want)


@pytest.mark.parametrize("order", [(2, 0, 1), (1, 0, 2), (0, 2, 1)])
@pytest.mark.parametrize("dim", [0, 1, 2, (0, 2), None])
def test_permuted_views_sum_as_torch(order: tuple, dim: object) -> None:
    data = np.random.default_rng(4).standard_normal((97, 71, 35)).astype(np.float32)
    a, b = mt.tensor(data).permute(*order), torch.tensor(data).permute(*order)
    _same_bits(a.sum() if dim is None else a.sum(dim), b.sum() if dim is None else b.sum(dim))
