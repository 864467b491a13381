"""torch.nn.functional calls a black-box fuzzer (session 36) found minitorch answering unlike
torch 2.13: each program runs on both libraries and must raise torch's error or return its
result."""

from __future__ import annotations

import numpy as np
import pytest

from tests.oracle import assert_as_torch

THETA2 = np.arange(6.0).reshape(1, 2, 3) / 7
THETA3 = np.arange(12.0).reshape(1, 3, 4) / 13


def _theta(L, size):
    return L.tensor(THETA2 if len(size) == 4 else THETA3)


@pytest.mark.parametrize("size", [(1, 1, 1, 3), (1, 1, 3, 1), (1, 1, 1, 2, 2), (1, 1, 2, 2, 1),
                                  (1, 1, 2, 3)])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_affine_grid_unit_size_half_refused_as_aten_tensor(size, dtype):
    """ATen builds a unit dim's single point by ``at::tensor(0)``, which has no float16 loop
    on the CPU."""
    assert_as_torch(lambda L: L.nn.functional.affine_grid(
        _theta(L, size).to(getattr(L, dtype)), list(size), align_corners=False))


@pytest.mark.parametrize("size", [(2, 1, 3, 4), (2, 1, 2, 3, 4)])
def test_affine_grid_node_and_gradients(size):
    def program(L):
        theta = _theta(L, size)[:1].expand(2, -1, -1).double().clone().requires_grad_()
        out = L.nn.functional.affine_grid(theta, list(size), align_corners=True)
        grad, = L.autograd.grad((out ** 3).sum(), theta, create_graph=True)
        return out, type(out.grad_fn).__name__, grad, L.autograd.grad(grad.sum(), theta)[0]

    assert_as_torch(program)


@pytest.mark.parametrize("shapes", [((1, 6, 3), (1, 3, 2)), ((2, 1, 5), (2, 5, 1))])
def test_small_half_bmm_sums_in_float32_rounds_once(shapes):
    """torch's small-bmm loop accumulates float16 in float32 (affine_grid's float16 grid is
    such a product)."""
    a, b = (np.random.default_rng(i).standard_normal(s) for i, s in enumerate(shapes))
    assert_as_torch(lambda L: L.tensor(a).half().bmm(L.tensor(b).half()))


@pytest.mark.parametrize("shape", [(4, 2, 3), (7, 5, 3), (3, 33)])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_half_softmax_rounds_exps_as_torch(shape, dim):
    """softmin(dtype=float16) (fuzzer case 224): torch's float16 kernel off the last dim keeps
    each exp in float16 and divides by the float32 sum."""
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32) * 3
    assert_as_torch(lambda L: L.nn.functional.softmin(L.tensor(x), dim=dim, dtype=L.float16))


@pytest.mark.parametrize("index", [-1, 0, 3])
@pytest.mark.parametrize("named", [False, True])
def test_sequential_insert_shifts_by_number_as_torch(index, named):
    """Sequential.insert moves entries by their numbers (fuzzer case 2537: KeyError '2')."""
    def program(L):
        layers = [L.nn.Linear(3, 4), L.nn.Tanh(), L.nn.Linear(4, 2)]
        if named:
            from collections import OrderedDict
            layers = [OrderedDict(zip(("fc", "act", "out"), layers))]
        m = L.nn.Sequential(*layers).insert(index, L.nn.ReLU())
        return [(name, type(mod).__name__) for name, mod in m.named_children()]

    assert_as_torch(program)
