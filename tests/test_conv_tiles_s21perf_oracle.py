"""The convolution chains' cache tiles run on torch's thread count (``_conv_order._each_tile``):
every tile once, an error raised where the kernel was called, the caller's numpy error state
inside each tile, and a forward computed on two threads bit-equal to one computed tile by tile."""

import numpy as np
import pytest
import torch

import minitorch as mt
from minitorch.ops import _conv_order as order


@pytest.fixture
def two_threads():
    before = mt.get_num_threads()
    mt.set_num_threads(2)
    yield
    mt.set_num_threads(before)


def test_every_tile_runs_once(two_threads):
    seen = []
    order._each_tile(lambda chains, part: seen.append((chains, part)), [(i, -i) for i in range(9)])
    assert sorted(seen) == [(i, -i) for i in range(9)]


def test_an_error_in_a_tile_is_raised_to_the_caller(two_threads):
    def work(chains, part):
        if chains == 3:
            raise ValueError("tile 3")
    with pytest.raises(ValueError, match="tile 3"):
        order._each_tile(work, [(i, 0) for i in range(6)])


def test_tiles_see_the_callers_numpy_error_state(two_threads):
    states = []
    with np.errstate(over="raise"):
        order._each_tile(lambda c, p: states.append(np.geterr()["over"]), [(0, 0), (1, 0)])
    assert states == ["raise", "raise"]


def test_threaded_tiles_give_the_serial_bits(two_threads, monkeypatch):
    rng = np.random.default_rng(5)
    x = rng.standard_normal((6, 40, 9, 9)).astype(np.float32)
    w = rng.standard_normal((48, 40, 3, 3)).astype(np.float32)
    b = rng.standard_normal(48).astype(np.float32)
    geometry = ((1, 1), (1, 1), (1, 1))
    monkeypatch.setattr(order, "_CACHED", 1 << 12)  # many tiles
    threaded = order.direct_forward(x, w, b, geometry, 1, 16)
    serial_runs = []

    def serial(work, tiles):
        serial_runs.append(len(tiles))
        for tile in tiles:
            work(*tile)
    monkeypatch.setattr(order, "_each_tile", serial)
    serial_out = order.direct_forward(x, w, b, geometry, 1, 16)
    assert serial_runs and serial_runs[0] > 2
    assert np.array_equal(threaded.view(np.uint32), serial_out.view(np.uint32))
    want = torch.nn.functional.conv2d(torch.from_numpy(x), torch.from_numpy(w), torch.from_numpy(b),
                                      padding=1).numpy()
    np.testing.assert_allclose(threaded, want, rtol=1e-5, atol=1e-4)
