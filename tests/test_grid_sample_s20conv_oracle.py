"""grid_sample's gradients bit for bit as torch's CPU kernel's (bilinear, float32): the grid's
a fused chain over the channels per position, the image's scattered in (vector of 8
positions, corner, lane) order. A spatial transformer trains its affine map through the
grid's gradient; a last bit that differs grows until a printed loss differs (PyTorch's
spatial transformer tutorial differed in its 8th digit).
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS

import minitorch as mt


def _gradients(lib: object, image: np.ndarray, grid: np.ndarray, g: np.ndarray,
               permuted: bool, **options: object) -> list[np.ndarray]:
    x = lib.tensor(image, requires_grad=True)
    if permuted:  # a grid whose rows do not follow each other: the kernel goes row by row
        points = lib.tensor(np.ascontiguousarray(grid.transpose(0, 3, 1, 2)),
                            requires_grad=True)
        leaf, grid_t = points, points.permute(0, 2, 3, 1)
    else:
        leaf = grid_t = lib.tensor(grid, requires_grad=True)
    out = lib.nn.functional.grid_sample(x, grid_t, **options)
    out.backward(lib.tensor(g))
    return [t.detach().numpy() for t in (out, x.grad, leaf.grad)]


@SETTINGS
@given(n=st.integers(1, 3), c=st.integers(1, 4), h=st.integers(1, 9), w=st.integers(1, 9),
       ho=st.integers(1, 7), wo=st.integers(1, 13), border=st.booleans(),
       align_corners=st.booleans(), on_pixels=st.booleans(), permuted=st.booleans(),
       seed=st.integers(0, 2**16))
def test_bilinear_gradients_are_torchs_bits(n: int, c: int, h: int, w: int, ho: int, wo: int,
                                            border: bool, align_corners: bool,
                                            on_pixels: bool, permuted: bool,
                                            seed: int) -> None:
    rng = np.random.default_rng(seed)
    image = rng.standard_normal((n, c, h, w)).astype(np.float32)
    grid = (rng.random((n, ho, wo, 2)) * 2.6 - 1.3).astype(np.float32)
    if on_pixels:  # corners exactly on pixels and on the border
        grid = np.round(grid * 4) / 4
    g = rng.standard_normal((n, c, ho, wo)).astype(np.float32)
    options = {"padding_mode": "border" if border else "zeros", "align_corners": align_corners}
    mine = _gradients(mt, image, grid, g, permuted, **options)
    theirs = _gradients(torch, image, grid, g, permuted, **options)
    for name, a, b in zip(("output", "grad_input", "grad_grid"), mine, theirs):
        differ = int((a.view(np.uint32) != b.view(np.uint32)).sum())
        assert differ == 0, f"{name}: {differ} of {a.size} differ"


def test_node_and_second_order_are_torchs() -> None:
    """The node is torch's; with a graph of the gradients wanted they come from the
    composition, which can be differentiated again (within rounding of torch's)."""
    rng = np.random.default_rng(0)
    image = rng.standard_normal((2, 3, 5, 6))
    grid = rng.random((2, 4, 3, 2)) * 2 - 1
    results = []
    for lib in (mt, torch):
        x = lib.tensor(image, requires_grad=True)
        points = lib.tensor(grid, requires_grad=True)
        out = lib.nn.functional.grid_sample(x, points, align_corners=False)
        assert type(out.grad_fn).__name__ == "GridSampler2DBackward0"
        gx, gg = lib.autograd.grad((out ** 2).sum(), (x, points), create_graph=True)
        (gx.sum() + (gg ** 2).sum()).backward()
        results.append([t.detach().numpy() for t in (gx, gg, x.grad, points.grad)])
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("mode", ["nearest"])
def test_other_modes_keep_the_compositions_gradients(mode: str) -> None:
    rng = np.random.default_rng(1)
    image = rng.standard_normal((1, 2, 4, 4)).astype(np.float32)
    grid = (rng.random((1, 3, 3, 2)) * 2 - 1).astype(np.float32)
    g = rng.standard_normal((1, 2, 3, 3)).astype(np.float32)
    mine = _gradients(mt, image, grid, g, False, mode=mode, align_corners=False)
    theirs = _gradients(torch, image, grid, g, False, mode=mode, align_corners=False)
    for a, b in zip(mine, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)
