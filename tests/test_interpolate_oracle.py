"""``F.interpolate`` and ``nn.Upsample`` against torch: 'nearest' values and gradients to the
bit; 'linear' values to the bit (torch's fused multiply-adds emulated); 'bilinear' and the
linear gradients to float32 rounding; node names, reprs and errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import SETTINGS, assert_same_error, raised_by


def _run(L: Any, data: np.ndarray, kwargs: dict) -> tuple:
    x = L.tensor(data, requires_grad=True)
    y = L.nn.functional.interpolate(x, **kwargs)
    y.pow(2).sum().backward()
    return y.grad_fn.name(), y.detach().numpy(), x.grad.numpy()


CASES = [({"scale_factor": 2}, 4), ({"size": (7, 9)}, 4), ({"scale_factor": 1.5}, 4),
         ({"size": (3, 3)}, 4), ({"scale_factor": (2, 3)}, 4), ({"scale_factor": 2}, 3),
         ({"size": 7}, 3), ({"scale_factor": 0.5}, 3),
         ({"size": 7, "mode": "linear"}, 3),
         ({"scale_factor": 2.5, "mode": "linear", "align_corners": True}, 3),
         ({"scale_factor": 2, "mode": "linear", "recompute_scale_factor": True}, 3),
         ({"scale_factor": 2, "mode": "bilinear"}, 4), ({"size": (7, 9), "mode": "bilinear"}, 4),
         ({"size": (7, 9), "mode": "bilinear", "align_corners": True}, 4),
         ({"scale_factor": (1.7, 2.3), "mode": "bilinear"}, 4)]


@pytest.mark.parametrize("kwargs,dims", CASES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_interpolate_values_and_grads(kwargs: dict, dims: int, dtype: str) -> None:
    data = np.random.default_rng(0).standard_normal((2, 3, 5, 4)[:dims]).astype(dtype)
    got, want = _run(mt, data, kwargs), _run(torch, data, kwargs)
    assert got[0] == want[0]
    mode = kwargs.get("mode", "nearest")
    for i, (g, w) in enumerate(zip(got[1:], want[1:], strict=True)):
        assert g.shape == w.shape and g.dtype == w.dtype
        exact = dtype == "float32" and (mode == "nearest" or (mode == "linear" and i == 0))
        if exact:
            np.testing.assert_array_equal(g, w)
        else:
            np.testing.assert_allclose(g, w, rtol=2e-6 if dtype == "float32" else 1e-12,
                                       atol=2e-6 if dtype == "float32" else 1e-12)


@given(height=st.integers(1, 6), width=st.integers(1, 6), out_h=st.integers(1, 9),
       out_w=st.integers(1, 9), mode=st.sampled_from(["nearest", "bilinear"]),
       align=st.booleans())
@SETTINGS
def test_interpolate_any_size(height: int, width: int, out_h: int, out_w: int, mode: str,
                              align: bool) -> None:
    data = np.random.default_rng(height * 7 + width).standard_normal((1, 2, height, width))
    kwargs = {"size": (out_h, out_w), "mode": mode}
    if mode == "bilinear":
        kwargs["align_corners"] = align
    got, want = _run(mt, data, kwargs), _run(torch, data, kwargs)
    assert got[0] == want[0]
    for g, w in zip(got[1:], want[1:], strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12)


def test_upsample_module_prints_and_runs_as_torch() -> None:
    def run(L: Any) -> list[str]:
        ups = [L.nn.Upsample(scale_factor=2), L.nn.Upsample(size=(3, 4), mode="bilinear"),
               L.nn.Upsample(scale_factor=(2, 3)),
               L.nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True)]
        x = L.arange(8.).reshape(1, 2, 2, 2)
        return [repr(u) for u in ups] + [repr(u(x)) for u in ups]
    assert run(mt) == run(torch)


BAD_CALLS = [
    lambda L: L.nn.functional.interpolate(L.ones(1, 1, 3)),
    lambda L: L.nn.functional.interpolate(L.ones(1, 1, 3), size=2, scale_factor=2),
    lambda L: L.nn.functional.interpolate(L.ones(1, 1, 3), scale_factor=2, align_corners=True),
    lambda L: L.nn.functional.interpolate(L.ones(1, 1, 3), scale_factor=2, mode="bilinear"),
    lambda L: L.nn.functional.interpolate(L.ones(1, 1, 2, 3), scale_factor=2, mode="linear"),
    lambda L: L.nn.functional.interpolate(L.ones(1, 1, 3), size=(2, 3)),
    lambda L: L.nn.functional.interpolate(L.ones(1, 1, 3), scale_factor=(2, 3)),
]


@pytest.mark.parametrize("call", BAD_CALLS)
def test_bad_arguments_raise_torchs_errors(call: Any) -> None:
    want = raised_by(call, torch)
    assert want is not None
    assert_same_error(raised_by(call, mt), want)
