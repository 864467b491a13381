"""``layer_norm`` against live torch, bit for bit: the output and the three gradients over
random shapes (one and two normalised dims, rows shorter and longer than torch's chunks of
vectors), with and without affine parameters, on one and on two threads.
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
    lead = tuple(rng.randint(1, 6) for _ in range(rng.randint(1, 2)))
    norm = rng.choice([(rng.randint(1, 40),), (rng.randint(1, 9), rng.randint(1, 9)),
                       (rng.randint(120, 700),)])
    affine = rng.random() < 0.7
    shape = lead + norm
    return {"x": (values.standard_normal(shape) * rng.choice([1, 3]) + rng.choice([0, 2])),
            "g": values.standard_normal(shape), "norm": norm,
            "w": values.standard_normal(norm) if affine else None,
            "b": values.standard_normal(norm) if affine else None}


def _run(L: Any, case: dict, dtype: Any) -> dict:
    def t(a: Any, grad: bool = False) -> Any:
        return None if a is None else L.tensor(a, dtype=dtype, requires_grad=grad)
    x, w, b = t(case["x"], True), t(case["w"], True), t(case["b"], True)
    y = L.nn.functional.layer_norm(x, case["norm"], w, b)
    y.backward(t(case["g"]))
    found = {"y": y, "grad x": x.grad, "grad weight": None if w is None else w.grad,
             "grad bias": None if b is None else b.grad}
    return {k: v.detach().numpy().tobytes() for k, v in found.items() if v is not None}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("seed", range(25))
def test_layer_norm_is_torch_bit_for_bit(seed: int, threads: int, dtype: str) -> None:
    case = _case(seed)
    before = torch.get_num_threads(), mt.get_num_threads()
    torch.set_num_threads(threads)
    mt.set_num_threads(threads)
    try:
        assert _run(mt, case, getattr(mt, dtype)) == _run(torch, case, getattr(torch, dtype))
    finally:
        torch.set_num_threads(before[0])
        mt.set_num_threads(before[1])
