"""max_pool2d's backward on the CPU, bit for bit as torch's (see ``MaxPoolWithIndices``).

Overlapping windows (d2l's ResNet stem: kernel 3, stride 2, padding 1) send an input the
gradients of several windows; torch adds them window after window in row-major order into
zeros, so a sum of three or more, and the sign of a zero, follow that order.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS

import minitorch as mt


def _grad(lib: Any, x: np.ndarray, g_seed: int, **pool: Any) -> list[np.ndarray]:
    xt = lib.tensor(x, requires_grad=True)
    y = lib.nn.functional.max_pool2d(xt, **pool)
    g = np.random.default_rng(g_seed).standard_normal(tuple(y.shape)).astype(np.float32)
    y.backward(lib.tensor(g))
    return [y.detach().numpy(), xt.grad.numpy()]


def _check(x: np.ndarray, seed: int, **pool: Any) -> None:
    for mine, theirs in zip(_grad(mt, x, seed, **pool), _grad(torch, x, seed, **pool)):
        differ = int((mine.view(np.uint32) != theirs.view(np.uint32)).sum())
        assert differ == 0, f"{differ} of {mine.size} differ ({pool})"


def test_resnet_stem_pool_gradient_is_torchs_bits() -> None:
    """d2l's ResNet: max_pool2d(3, 2, 1) of a (8, 8, 16, 16) batch after a ReLU (many
    equal zeros, so many ties and many windows per input)."""
    x = np.maximum(np.random.default_rng(0).standard_normal((8, 8, 16, 16)), 0)
    _check(x.astype(np.float32), 1, kernel_size=3, stride=2, padding=1)


def test_negative_gradients_leave_positive_zeros() -> None:
    """An input that wins no window gets torch's +0, not the -0 of a product by zero."""
    x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    xt = mt.tensor(x, requires_grad=True)
    mt.nn.functional.max_pool2d(xt, 2, 1).backward(-mt.ones(1, 1, 3, 3))
    assert not np.signbit(xt.grad.numpy()).reshape(-1)[:5].any()
    _check(x, 2, kernel_size=2, stride=1)


@SETTINGS
@given(n=st.integers(1, 3), c=st.integers(1, 4), h=st.integers(3, 11), w=st.integers(3, 11),
       kernel=st.sampled_from([2, 3, (3, 2), 4]), stride=st.sampled_from([1, 2, (1, 2)]),
       padding=st.sampled_from([0, 1]), dilation=st.sampled_from([1, 1, 2]),
       ceil_mode=st.booleans(), seed=st.integers(0, 2**16))
def test_random_pool_gradients_are_torchs_bits(n: int, c: int, h: int, w: int, kernel: Any,
                                               stride: Any, padding: int, dilation: int,
                                               ceil_mode: bool, seed: int) -> None:
    kh, kw = kernel if isinstance(kernel, tuple) else (kernel, kernel)
    if padding > min(kh, kw) // 2 or (kh - 1) * dilation >= h or (kw - 1) * dilation >= w:
        return
    x = np.random.default_rng(seed).standard_normal((n, c, h, w)).astype(np.float32)
    _check(x.round(1), seed, kernel_size=kernel, stride=stride, padding=padding,
           dilation=dilation, ceil_mode=ceil_mode)


def test_a_tie_of_signed_zeros_keeps_the_first_as_torch() -> None:
    """-0 and +0 compare equal: each window's value is its first maximum's, sign and all."""
    x = np.array([[[[-0.0, 0.0, -0.0], [0.0, -0.0, -1.0]]]], dtype=np.float32)
    _check(x, 3, kernel_size=2, stride=1)
    _check(-x, 3, kernel_size=(1, 2), stride=1, dilation=(1, 2))
