"""Causes behind the corpus20e programs (issue #20), each against live torch: the last bit of
``clip_grad_norm_``'s scaling; ...
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from hypothesis import given
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import SETTINGS

# ---------------------------------------------------------------------------- clip_grad_norm_


@SETTINGS
@given(sizes=st.lists(st.integers(1, 40), min_size=1, max_size=3),
       max_norm=st.floats(0.01, 10.0), norm_type=st.sampled_from([1.0, 2.0, 3.0, float("inf")]),
       dtype=st.sampled_from(["float32", "float64"]), seed=st.integers(0, 2**16))
def test_clip_grad_norm_scales_bit_for_bit(sizes: list[int], max_norm: float, norm_type: float,
                                           dtype: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    grads = [(rng.standard_normal(n) * 3).astype(dtype) for n in sizes]

    def clipped(L: Any) -> tuple[np.ndarray, list[np.ndarray]]:
        params = [L.nn.Parameter(L.zeros(g.shape, dtype=getattr(L, dtype))) for g in grads]
        for p, g in zip(params, grads):
            p.grad = L.tensor(g)
        total = L.nn.utils.clip_grad_norm_(params, max_norm, norm_type)
        return total.numpy(), [p.grad.numpy() for p in params]

    (got_total, got), (want_total, want) = clipped(mt), clipped(torch)
    assert got_total.dtype == want_total.dtype
    np.testing.assert_array_equal(got_total, want_total)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


# ---------------------------------------------------------------------------- nn.modules paths


def test_nn_modules_files_hold_torchs_classes() -> None:
    """Every class minitorch.nn has is reachable under torch's ``nn.modules.<file>`` path (and
    only there), and ``from ... import`` of that path works."""
    import importlib
    import types

    have = {name for name in mt.nn.__all__ if isinstance(getattr(mt.nn, name), type)}
    for file, module in vars(torch.nn.modules).items():
        if not isinstance(module, types.ModuleType) or file.startswith("_"):
            continue
        wanted = sorted(set(getattr(module, "__all__", ())) & have)
        if not wanted:
            continue
        ours = importlib.import_module(f"minitorch.nn.modules.{file}")
        assert sorted(ours.__all__) == wanted, file
        assert all(getattr(ours, name) is getattr(mt.nn, name) for name in wanted)
    assert all(getattr(mt.nn.modules, name) is getattr(mt.nn, name) for name in have)
