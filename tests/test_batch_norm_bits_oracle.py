"""``batch_norm`` against live torch, bit for bit: the output, the running statistics and the
three gradients, over random shapes (2-d rows, 3-d and 4-d planes), training and evaluation,
with and without affine parameters and running statistics, on one and on two threads.

In training a batch norm hands the layer before it a gradient of rounding noise (its sum over
a channel is 0 but for the last bits); an optimizer's momentum buffer then prints that noise,
so only torch's own order of adding and rounding (:mod:`minitorch.ops._batch_norm_order`)
prints as torch does.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt


def _case(seed: int) -> dict:
    rng, values = random.Random(seed), np.random.default_rng(seed)
    n, c = rng.randint(2, 40), rng.randint(1, 24)
    shape = rng.choice([(n, c), (n, c), (n, c, rng.randint(1, 30)),
                        (n, c, rng.randint(1, 7), rng.randint(1, 7))])
    training = rng.random() < 0.7
    affine, track = rng.random() < 0.7, not training or rng.random() < 0.7
    scale, shift = rng.choice([1, 3, 0.01]), rng.choice([0, 2])
    return {"x": (values.standard_normal(shape) * scale + shift).astype(np.float32),
            "g": values.standard_normal(shape).astype(np.float32),
            "w": values.standard_normal(c).astype(np.float32) if affine else None,
            "b": values.standard_normal(c).astype(np.float32) if affine else None,
            "rm": values.standard_normal(c).astype(np.float32) if track else None,
            "rv": values.uniform(0.5, 2, c).astype(np.float32) if track else None,
            "training": training, "momentum": rng.choice([0.1, 0.3])}


def _run(L: Any, case: dict, dtype: Any) -> dict:
    def t(a: Any, grad: bool = False) -> Any:
        return None if a is None else L.tensor(a, dtype=dtype, requires_grad=grad)
    x, w, b = t(case["x"], True), t(case["w"], True), t(case["b"], True)
    rm, rv = t(case["rm"]), t(case["rv"])
    y = L.nn.functional.batch_norm(x, rm, rv, w, b, case["training"], case["momentum"])
    y.backward(t(case["g"]))
    found = {"y": y, "grad x": x.grad, "running_mean": rm, "running_var": rv,
             "grad weight": None if w is None else w.grad, "grad bias": None if b is None else
             b.grad}
    return {k: v.detach().numpy().tobytes() for k, v in found.items() if v is not None}


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("seed", range(40))
def test_float32_batch_norm_is_torch_bit_for_bit(seed: int, threads: int) -> None:
    case = _case(seed)
    before = torch.get_num_threads(), mt.get_num_threads()
    torch.set_num_threads(threads)
    mt.set_num_threads(threads)
    try:
        assert _run(mt, case, mt.float32) == _run(torch, case, torch.float32)
    finally:
        torch.set_num_threads(before[0])
        mt.set_num_threads(before[1])


@pytest.mark.parametrize("seed", range(10))
def test_float64_batch_norm_matches_torch(seed: int) -> None:
    case = _case(seed)
    mine, theirs = _run(mt, case, mt.float64), _run(torch, case, torch.float64)
    assert mine.keys() == theirs.keys()
    for key in mine:  # bit for bit but for a rare last bit of a plane's invstd
        np.testing.assert_allclose(np.frombuffer(mine[key]), np.frombuffer(theirs[key]),
                                   rtol=1e-14, atol=1e-15, err_msg=key)


def test_the_layer_before_a_batch_norm_gets_torch_s_noise() -> None:
    """The corpus's state_dict recipe: Linear -> BatchNorm1d -> ReLU -> Linear, SGD with
    momentum; the first Linear's bias gradient is ~1e-8 noise and its momentum buffer prints it."""
    printed = []
    for L in (mt, torch):
        L.manual_seed(0)
        model = L.nn.Sequential(L.nn.Linear(6, 12), L.nn.BatchNorm1d(12), L.nn.ReLU(),
                                L.nn.Linear(12, 3))
        opt = L.optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
        x, t = L.randn(8, 6), L.randint(0, 3, (8,))
        for _ in range(3):
            opt.zero_grad()
            L.nn.functional.cross_entropy(model(x), t).backward()
            opt.step()
        printed.append(repr(opt.state_dict()["state"][1]["momentum_buffer"]))
    assert printed[0] == printed[1]
