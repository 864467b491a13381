"""float32 ``gelu`` and its backward bit for bit as torch's, compared live with torch.

torch hands the erf form of a contiguous float32 tensor of two or more elements to oneDNN
(on AVX-512 CPUs a minimax polynomial forward, on AVX2 ones Abramowitz and Stegun's erf;
that erf with oneDNN's own exp backward on both); before minitorch followed it, 70% of such
outputs and 47% of gradients differed in the last bits (on AVX2 CPUs, until minitorch ran
that kernel's forward too, 27% of outputs, up to 1e-4 relative near -3, and gelu(inf)).
Every comparison here is of bits, over every exponent, both signs, zeros, subnormals,
infinities, NaNs and the edges of the kernels' ranges.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minitorch as mt
from minitorch import _onednn


def _bit_patterns() -> np.ndarray:
    """Random float32 bit patterns, then the edges where the kernels change course: each
    step of the polynomial index (every 2^21 bit patterns, 64 either side), the right bound
    past which erf is 1, the backward exp's underflow (|x| near 13.2) and every subnormal
    exponent, each of both signs."""
    rng = np.random.default_rng(20)
    steps = (np.arange(2048, dtype=np.int64) << 21) - 0xC21FFFFF
    edges = [(steps[:, None] + np.arange(-64, 64)).ravel() & 0x7FFFFFFF,
             np.arange(0x40B15CEE - 20_000, 0x40B15CEE + 20_000),
             np.arange(0x41500000, 0x41600000, 97), np.arange(0, 0x00800000, 4099),
             np.arange(0x7F800000, 0x80000000, 65537), np.float32([0, np.inf]).view(np.uint32)]
    magnitudes = np.concatenate(edges).astype(np.uint32)
    signed = np.concatenate([magnitudes, magnitudes | np.uint32(0x80000000)])
    random = rng.integers(0, 2**32, 1_000_000, dtype=np.uint64).astype(np.uint32)
    return np.concatenate([signed, random]).view(np.float32)


def _gelu_and_grad(lib: object, x0: np.ndarray, g0: np.ndarray) -> tuple[bytes, bytes]:
    x = lib.tensor(x0, requires_grad=True)
    y = lib.nn.functional.gelu(x)
    y.backward(lib.tensor(g0))
    return y.detach().numpy().tobytes(), x.grad.numpy().tobytes()


def test_gelu_and_its_gradient_are_torchs_over_every_kind_of_float() -> None:
    """About 1.9 million inputs; gradients of every kind too (NaN, inf, subnormal)."""
    x0 = _bit_patterns()
    g0 = np.random.default_rng(21).permutation(x0)
    with np.errstate(all="ignore"):
        got, want = _gelu_and_grad(mt, x0, g0), _gelu_and_grad(torch, x0, g0)
    assert got[0] == want[0], "forward"
    assert got[1] == want[1], "backward"


@pytest.mark.parametrize("scale", [0.3, 3.0, 30.0])
def test_normal_values_and_a_summed_loss_are_torchs(scale: float) -> None:
    """Typical activations, the gradient of a sum coming as one expanded value."""
    x0 = (np.random.default_rng(22).standard_normal((300, 70)) * scale).astype(np.float32)
    got, want = [], []
    for lib, out in ((mt, got), (torch, want)):
        x = lib.tensor(x0, requires_grad=True)
        y = lib.nn.GELU()(x).sum()
        y.backward()
        out.extend([y.item(), x.grad.numpy().tobytes()])
    assert got == want


_LAYOUTS = {"contiguous": lambda t: [t], "transposed": lambda t: [t.t()],
            "sliced": lambda t: [t[:, ::2]], "a row": lambda t: [t[3]],
            "one element": lambda t: [t[i, :1] for i in range(20)],
            "float64": lambda t: [t.double()], "tanh": lambda t: [t]}


def _outputs(lib: object, x0: np.ndarray, layout: str) -> list[np.ndarray]:
    """Inputs, outputs and gradients (of ones) of ``layout``'s views of ``x0``, as float32."""
    approximate = "tanh" if layout == "tanh" else "none"
    parts = []
    for x in _LAYOUTS[layout](lib.tensor(x0)):
        x = x.detach().requires_grad_()
        y = lib.nn.functional.gelu(x, approximate=approximate)
        (g,) = lib.autograd.grad(y, x, lib.ones_like(y))
        parts.append([v.detach().numpy().astype(np.float32).ravel() for v in (x, y, g)])
    return [np.concatenate(values) for values in zip(*parts)]


@pytest.mark.parametrize("layout", list(_LAYOUTS))
def test_onednn_where_torch_takes_it_only(layout: str) -> None:
    """torch's choice of kernel: oneDNN's bits, forward and backward, for the erf form of a
    contiguous float32 tensor of two or more elements only; minitorch's choice the same."""
    x0 = (np.random.default_rng(23).standard_normal((20, 30)) * 3).astype(np.float32)
    taken = []
    for lib in (torch, mt):
        x, y, g = _outputs(lib, x0, layout)
        taken.append((np.array_equal(y, _onednn.gelu_erf(x)),
                      np.array_equal(g, _onednn.gelu_erf_backward(x, np.ones_like(x)))))
    expected = layout in ("contiguous", "a row")
    assert taken[0] == (expected, expected), "torch took another kernel than expected"
    assert taken[1] == taken[0]
