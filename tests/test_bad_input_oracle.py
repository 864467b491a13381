"""Bad and edge input of issue #21's later groups against live torch: 0-d shapes passed on, ...
Each case runs on torch and on minitorch and must
have the same outcome (the same result, or the same exception type and message).
"""

from __future__ import annotations

import numpy as np
import pytest
from badinput import classify


def assert_same_as_torch(expression: str) -> None:
    """``expression`` (over ``L``, ``np``) has torch's outcome in minitorch."""
    outcome, said = classify(lambda L, e: eval(e, {"np": np, "L": L}), [lambda L: expression])
    assert outcome == "same", said


@pytest.mark.parametrize("expression", [
    "L.ones(3).expand_as(L.tensor(1.))", "L.ones(3).view_as(L.tensor(1.))",
    "L.ones(1).reshape_as(L.tensor(1.))", "L.rand_like(L.tensor(1.)).shape",
    "L.randn_like(L.tensor(True)).shape", "L.normal(2.5, 1, ()).shape",
    "L.nn.Dropout(0.5)(L.tensor(1.)).shape", "L.bernoulli(L.tensor(0.5), 0.5).shape",
    "L.nn.functional.mse_loss(L.tensor(1.), L.tensor(2.))",
    "L.nn.functional.avg_pool2d(L.tensor(1.), 1, 1)",
    "L.nn.functional.avg_pool2d(L.ones(2, 3), 3, np.int64(2))",
    "L.nn.functional.avg_pool2d(L.ones(1, 1, 4, 4), 2, ())"])
def test_zero_dim_shapes_pass_on_as_torch(expression: str) -> None:
    """A 0-d tensor's shape ``()`` reaches the op as a shape, not as no argument at all."""
    assert_same_as_torch(expression)
