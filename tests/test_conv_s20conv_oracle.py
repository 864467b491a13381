"""float32 conv2d's chains run in cache-sized tiles (``_conv_order._tiles``) and still give
torch's bits: a tile runs its chains (blocks of channels, kernel columns; a few images) from
first step to last before the next tile starts, which must leave every chain's order alone.
Real networks' layers make tiles only at sizes too slow for a test, so these shrink the cache
budget until every shape here is cut into many tiles, ragged last blocks included.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS
from test_conv_bits_oracle import PARTS, _check, pytestmark  # noqa: F401  (its skips)
from test_conv_order_s19perf_oracle import two_threads  # noqa: F401  (autouse: torch's two threads)

from minitorch.ops import _conv_order


def _check_in_tiles(budget: int, *args: Any, **kwargs: Any) -> list[str]:
    """``_check`` with tiles of at most ``budget`` values: one image's chain, or less."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_conv_order, "_CACHED", budget)
        return _check(*args, **kwargs)


def test_tiles_cover_every_chain_of_every_image_once() -> None:
    seen = [(c, i) for chains, images in _conv_order._tiles(7, 5, 300)
            for c in range(7)[chains] for i in range(5)[images]]
    assert sorted(seen) == [(c, i) for c in range(7) for i in range(5)]


@pytest.mark.parametrize(("n", "c", "o", "size", "kernel", "stride", "padding"), [
    (4, 96, 40, (10, 10), (5, 5), 1, 2),  # d2l's NiN and GoogLeNet: 5x5 on many channels
    (4, 7, 9, (12, 12), (3, 3), 2, 1),  # strided grad_input: a chain per kernel column
    (3, 40, 40, (7, 7), (1, 1), 1, 0),  # 1x1: chains from the bias
    (2, 33, 50, (6, 6), (3, 3), 1, 1),  # ragged last blocks both ways
    (2, 16, 20, (11, 11), (5, 5), 2, 2)])  # strided grad_input: one chain
def test_network_layers_in_tiles_are_torchs_bits(n: int, c: int, o: int, size: tuple,
                                                 kernel: tuple, stride: int,
                                                 padding: int) -> None:
    compared = _check_in_tiles(500, n, c, o, size, kernel, stride, padding, 1, seed=c + o)
    assert compared == list(PARTS)


@SETTINGS
@given(n=st.sampled_from([2, 3, 5]), c=st.sampled_from([1, 3, 16, 17, 40]),
       o=st.sampled_from([8, 16, 20, 36]), h=st.integers(5, 11), w=st.integers(5, 11),
       k=st.sampled_from([1, 3, 5]), stride=st.sampled_from([1, 2]), same=st.booleans(),
       groups=st.sampled_from([1, 1, 4]), budget=st.sampled_from([1, 200, 2000, 20000]),
       seed=st.integers(0, 2**16))
def test_random_convolutions_in_tiles_are_torchs_bits(n: int, c: int, o: int, h: int, w: int,
                                                      k: int, stride: int, same: bool,
                                                      groups: int, budget: int,
                                                      seed: int) -> None:
    """Whatever the tiles, the parts ``plan`` claims keep torch's bits (the others stay
    within rounding of torch's, as without tiles); the shapes of
    ``test_conv_order_s19perf_oracle``, whose bits ``plan`` knows, and groups."""
    groups = groups if c % groups == 0 else 1
    padding = (k - 1) // 2 if same else 0
    _check_in_tiles(budget, n, c, o, (h, w), (k, k), stride, padding, 1, seed, groups)
