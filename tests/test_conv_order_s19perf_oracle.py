"""float32 conv2d bit for bit as torch's on the shapes of real networks: many blocks of 16
channels (a ragged last one), kernels mostly on padding (a ResNet's last layers on a small
image), strides. ``_conv_order`` runs oneDNN's independent chains side by side and skips
the padding's products, as oneDNN does; these check that no output bit moved.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS
from test_conv_bits_oracle import PARTS, _check, pytestmark  # noqa: F401  (its skips)

import minitorch as mt
from minitorch.ops import _conv_order


@pytest.fixture(autouse=True)
def two_threads() -> Any:
    """The kernel choice and the weight gradient's split are two threads' here, as torch's."""
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    mt.set_num_threads(2)
    yield
    torch.set_num_threads(before)
    mt.set_num_threads(before)


@pytest.mark.parametrize(("n", "c", "o", "size", "kernel", "stride", "padding"), [
    (2, 1, 64, (28, 28), (7, 7), 2, 3),  # d2l's ResNet-18: its first layer
    (3, 64, 64, (7, 7), (3, 3), 1, 1),
    (2, 64, 128, (7, 7), (3, 3), 2, 1),
    (2, 64, 128, (8, 8), (1, 1), 2, 0),
    (2, 128, 256, (4, 4), (3, 3), 2, 1),
    (2, 256, 256, (2, 2), (3, 3), 1, 1),
    (4, 512, 48, (1, 1), (3, 3), 1, 1),  # every kernel offset but the middle on padding
    (2, 40, 33, (9, 9), (3, 3), 1, 1)])  # ragged blocks of 16 channels both ways
def test_resnet_layers_are_torchs_bits(n: int, c: int, o: int, size: tuple, kernel: tuple,
                                       stride: int, padding: int) -> None:
    compared = _check(n, c, o, size, kernel, stride, padding, 1, seed=c + o)
    assert compared == list(PARTS)


@SETTINGS
@given(n=st.sampled_from([1, 2, 3, 8]), c=st.sampled_from([1, 3, 16, 17, 33, 48, 64]),
       o=st.sampled_from([1, 8, 16, 20, 35, 64]), h=st.integers(5, 12), w=st.integers(5, 12),
       k=st.sampled_from([1, 3, 5]), stride=st.sampled_from([1, 2]), same=st.booleans(),
       seed=st.integers(0, 2**16))
def test_random_convolutions_are_torchs_bits(n: int, c: int, o: int, h: int, w: int, k: int,
                                             stride: int, same: bool, seed: int) -> None:
    """A network's convolutions: odd kernels, unpadded or padded to keep the size, many
    blocks of channels. (``plan`` misses some other shapes: dilated gemm kernels, 7x7
    kernels with stride 2, even kernels on oneDNN's AVX2 weight kernel.)"""
    _check(n, c, o, (h, w), (k, k), stride, (k - 1) // 2 if same else 0, 1, seed)


def test_padding_is_skipped_as_onednn_skips_it() -> None:
    """oneDNN's kernels never multiply the padding: an inf weight gives inf, not nan, at the
    border (numpy's ``0 * inf`` would)."""
    outs = []
    for lib in (mt, torch):
        w = lib.ones(8, 16, 3, 3)
        w[0, 0, 0, 0], w[1, 0, 0, 0] = float("inf"), float("nan")
        outs.append(lib.nn.functional.conv2d(lib.ones(2, 16, 6, 6), w, padding=1).numpy())
    np.testing.assert_array_equal(*outs)
    assert outs[0][0, 0, 0, 0] == outs[0][0, 1, 0, 0] == 64  # the inf and nan read padding
    assert np.isinf(outs[0][0, 0, 1, 1]) and np.isnan(outs[0][0, 1, 1, 1])


def test_depthwise_skips_the_padding_from_its_bias() -> None:
    """oneDNN's depthwise kernel starts each chain from the bias and skips the padding too:
    a -0 bias stays -0 at the border, where the products of +1 with padding are left out."""
    geometry = ((1, 1), (1, 1), (1, 1))
    assert _conv_order.plan((2, 4, 6, 6), (4, 1, 3, 3), geometry, 4).forward == "bias-first"
    outs = []
    for lib in (mt, torch):
        w = -lib.ones(4, 1, 3, 3)
        w[:, :, 0, 0] = 1.0  # 0 * 1 = +0 would make the -0 sum +0
        y = lib.nn.functional.conv2d(lib.zeros(2, 4, 6, 6), w, lib.full((4,), -0.0),
                                     padding=1, groups=4)
        outs.append(y.numpy().view(np.uint32))
    np.testing.assert_array_equal(*outs)
    assert outs[0][0, 0, 0, 0] == 1 << 31  # -0
