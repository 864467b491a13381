"""The gradients the linalg oracle tests compare: of first and second order, in both libraries."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

import minitorch as mt
from tests.oracle import numpy_of


def _grads(L: Any, arrays: list, fn: Any) -> list:
    """``d<w, fn(L, *xs)>/dxs`` (w a fixed ramp over each output) and the derivative of the
    sum of their squares (when the first depend on the inputs), as numpy arrays."""
    xs = [L.tensor(a, requires_grad=True) for a in arrays]
    outs = fn(L, *xs)
    outs = outs if isinstance(outs, tuple) else (outs,)
    loss = sum((o * L.tensor(np.linspace(-1, 1, o.numel()).reshape(tuple(o.shape)),
                             dtype=o.dtype)).sum() for o in outs)
    grads = L.autograd.grad(loss, xs, create_graph=True)
    values = [numpy_of(g) for g in grads]
    if any(g.requires_grad for g in grads):
        values += [numpy_of(g) for g in L.autograd.grad(sum((g * g).sum() for g in grads), xs)]
    return values


def assert_grads_match(arrays: list, fn: Any, rtol: float = 1e-8, atol: float = 1e-10) -> None:
    """minitorch's first and second derivatives of ``fn`` are torch's, within ``rtol``."""
    got, want = _grads(mt, arrays, fn), _grads(torch, arrays, fn)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol)
