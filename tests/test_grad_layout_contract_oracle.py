"""The gradient layout contract of torch's AccumulateGrad, against live torch: a leaf's first
``.grad`` has the leaf's strides when the leaf is dense (copied into them when the gradient
arrives in another layout), is contiguous otherwise, and is a recorded copy
(``CopyBackwards``) under ``create_graph``. A sum over a ``.grad`` walks its memory in order,
so the layout shows in the bits of a gradient norm."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minitorch as mt
from tests.oracle import numpy_of

RNG = np.random.default_rng(3)

LEAVES = {
    "contiguous": lambda L, a: L.tensor(a).requires_grad_(),
    "transposed": lambda L, a: L.tensor(a.T.copy()).t().detach().requires_grad_(),
    "strided": lambda L, a: L.tensor(np.concatenate([a, a], 1))[:, ::2].detach()
    .requires_grad_(),
    "permuted 3-d": lambda L, a: L.tensor(a.reshape(2, 3, 4)).permute(2, 0, 1).detach()
    .requires_grad_(),
}

USES = {
    "mul": lambda x: x * 2,
    "transpose copy": lambda x: x.t().contiguous().t() * 2 if x.dim() == 2 else x * 2,
    "contiguous copy": lambda x: x.contiguous() * 3,
    "matmul": lambda x: x.reshape(x.shape[0], -1) @ x.reshape(x.shape[0], -1).t(),
    "expand": lambda x: x.sum() * x,
    "t": lambda x: x.t() if x.dim() == 2 else x.transpose(0, 1),
}


@pytest.mark.parametrize("leaf", sorted(LEAVES))
@pytest.mark.parametrize("use", sorted(USES))
@pytest.mark.parametrize("create_graph", [False, True])
def test_first_grad_has_torchs_layout(leaf: str, use: str, create_graph: bool) -> None:
    a = RNG.standard_normal((4, 6)).astype(np.float32)
    grads = []
    for L in (mt, torch):
        x = LEAVES[leaf](L, a)
        out = USES[use](x)
        (out * L.tensor(np.linspace(-1, 1, out.numel(), dtype=np.float32))
         .reshape(tuple(out.shape))).sum().backward(create_graph=create_graph)
        grads.append(x.grad)
    got, want = grads
    assert got.stride() == want.stride(), (leaf, use)
    np.testing.assert_array_equal(numpy_of(got), numpy_of(want))
    assert type(got.grad_fn).__name__ == type(want.grad_fn).__name__ or (
        got.grad_fn is None) == (want.grad_fn is None)
    if want.grad_fn is not None:
        assert got.grad_fn.name() == want.grad_fn.name()


def test_a_later_grad_is_added_in_the_first_ones_layout() -> None:
    a = RNG.standard_normal((5, 3)).astype(np.float32)
    strides = []
    for L in (mt, torch):
        x = LEAVES["transposed"](L, a)
        (x.contiguous() * 2).sum().backward()
        (x.t().contiguous() * 3).sum().backward()
        strides.append(x.grad.stride())
    assert strides[0] == strides[1]


def test_grad_norm_bits_follow_the_layout() -> None:
    """A norm over a gradient that arrived transposed: torch's bits."""
    a = RNG.standard_normal((64, 33)).astype(np.float32)
    norms = []
    for L in (mt, torch):
        w = L.tensor(a, requires_grad=True)
        (w.t().contiguous() * L.tensor(a.T.copy())).sum().backward()
        norms.append(float(w.grad.norm()))
    assert norms[0] == norms[1]
