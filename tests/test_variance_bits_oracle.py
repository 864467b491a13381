"""var and std bit for bit as torch's CPU kernels, compared live with torch.

``x.var().item()`` prints every digit, and a hand-made batch norm (makemore's, d2l's) trains on
``x.var(0)``: a last bit that differs shows in a printed loss a few steps later. torch takes
two passes in double for a single output and Welford's update per output otherwise
(``minitorch/ops/_variance_order.py``); these tests compare bits, never with a tolerance.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import SETTINGS

DTYPES = {"float32": np.float32, "float64": np.float64}


def _same(got: mt.Tensor, want: torch.Tensor) -> None:
    a, b = got.detach().numpy(), want.detach().numpy()
    assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, a.dtype, b.shape, b.dtype)
    differ = ~((a == b) | (np.isnan(a) & np.isnan(b)))
    assert not differ.any(), f"{differ.sum()} of {a.size} differ: {a[differ][:4]!r} != " \
                             f"{b[differ][:4]!r}"


@st.composite
def cases(draw: st.DrawFn) -> tuple:
    shape = tuple(draw(st.lists(st.integers(1, 12), min_size=1, max_size=3)))
    dims = draw(st.one_of(st.none(), st.lists(st.integers(0, len(shape) - 1), min_size=1,
                                              max_size=2, unique=True).map(tuple)))
    return (shape, dims, draw(st.sampled_from(sorted(DTYPES))), draw(st.booleans()),
            draw(st.sampled_from([0, 1, 2, 0.5])), draw(st.booleans()),
            draw(st.sampled_from([1.0, 10.0, 1e3])), draw(st.sampled_from([0.0, 5.0, 100.0])),
            draw(st.integers(0, 2**32 - 1)))


@SETTINGS
@given(cases())
def test_var_and_std_are_torchs_bits(case: tuple) -> None:
    shape, dims, dtype, transpose, correction, keepdim, scale, shift, seed = case
    values = np.random.default_rng(seed).standard_normal(shape) * scale + shift
    a = values.astype(DTYPES[dtype])
    if transpose:
        a = a.T  # memory order is not the logical order
    for name in ("var", "std"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # both warn of no degrees of freedom alike
            got = getattr(mt.tensor(a), name)(dim=dims, correction=correction, keepdim=keepdim)
            want = getattr(torch.tensor(a), name)(dim=dims, correction=correction,
                                                  keepdim=keepdim)
        _same(got, want)


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize(("shape", "dim"), [((100_000,), None), ((300, 400), None),
                                            ((40_000, 2), 0), ((3, 33_000), None)])
def test_large_reductions_split_between_threads_as_torchs(threads: int, shape: tuple,
                                                          dim: int | None) -> None:
    a = (np.random.default_rng(threads).standard_normal(shape) + 3).astype(np.float64)
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    mt.set_num_threads(threads)
    try:
        _same(mt.tensor(a).var(dim), torch.tensor(a).var(dim))
        _same(mt.tensor(a).std(dim), torch.tensor(a).std(dim))
    finally:
        torch.set_num_threads(before)
        mt.set_num_threads(before)


def test_makemore_batch_norm_statistics_print_as_torchs() -> None:
    """corpus C's makemore MLP: hpreact.var(0, keepdim=True) of a batch, printed in full."""
    x = np.random.default_rng(7).standard_normal((32, 200)).astype(np.float32) * 3 + 0.1
    got, want = mt.tensor(x).var(0, keepdim=True), torch.tensor(x).var(0, keepdim=True)
    _same(got, want)
    assert repr(mt.tensor(x[:, 0]).std().item()) == repr(torch.tensor(x[:, 0]).std().item())
