"""F.rrelu, F.rrelu_ and nn.RReLU against torch: training draws equal to torch's for a seed
(float64 and float32, to the bit), eval's mean slope, gradients and the nodes of both graphs,
in place, printed form, errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS, arrays, assert_same_error, raised_by, shapes

import minitorch


def _run(L, data, weights, dtype, lower, upper, training, inplace):
    L.manual_seed(7)
    leaf = L.tensor(data, dtype=getattr(L, dtype), requires_grad=True)
    x = leaf * 1
    y = L.nn.functional.rrelu(x, lower, upper, training, inplace)
    (g,) = L.autograd.grad(y, leaf, L.tensor(weights, dtype=y.dtype), create_graph=True)
    after = L.rand(1, dtype=L.float64).item()  # the generator moved on as torch's
    return (y.detach().numpy().tobytes(), g.detach().numpy().tobytes(),
            type(y.grad_fn).__name__, type(g.grad_fn).__name__, after)


@SETTINGS
@given(st.data())
def test_rrelu_as_torch(data) -> None:
    shape = data.draw(shapes(1, 3))
    values, weights = data.draw(arrays(shape)), data.draw(arrays(shape))
    values.flat[0] = 0.0  # drawn for, as torch's x <= 0
    dtype = data.draw(st.sampled_from(["float64", "float32"]))
    lower = data.draw(st.sampled_from([0.0, 0.1, 1 / 8, 0.3]))
    upper = lower + data.draw(st.sampled_from([0.0, 1e-7, 0.2, 1 / 3]))
    training, inplace = data.draw(st.booleans()), data.draw(st.booleans())
    args = (values, weights, dtype, lower, upper, training, inplace)
    assert _run(minitorch, *args) == _run(torch, *args)


def test_rrelu_module_as_torch() -> None:
    out = []
    for L in (minitorch, torch):
        L.manual_seed(1)
        m = L.nn.RReLU(0.1, 0.4)
        x = L.tensor([[-1.0, 2.0, -0.5], [0.0, -3.0, 1.0]])
        trained = m(x).tolist()
        m.eval()
        out.append((repr(m), repr(L.nn.RReLU(inplace=True)), trained, m(x).tolist()))
    assert out[0] == out[1]


BAD = {
    "bounds": lambda L: L.nn.functional.rrelu(L.ones(2), 0.5, 0.1, True),
    "bounds_eval": lambda L: L.nn.functional.rrelu(L.ones(2), 0.5, 0.1),
    "long_training": lambda L: L.nn.functional.rrelu(L.tensor([1, 2]), training=True),
    "long_eval": lambda L: L.nn.functional.rrelu(L.tensor([1, 2])),
    "bool_training": lambda L: L.nn.functional.rrelu(L.tensor([True]), training=True),
    "lower_str": lambda L: L.nn.functional.rrelu(L.ones(2), "a"),
    "training_none": lambda L: L.nn.functional.rrelu(L.ones(2), training=None),
    "list": lambda L: L.nn.functional.rrelu([1.0]),
    "leaf_inplace": lambda L: L.nn.functional.rrelu_(L.ones(2, requires_grad=True)),
}


@pytest.mark.parametrize("case", BAD)
def test_rrelu_refusals_as_torch(case: str) -> None:
    want, got = raised_by(BAD[case], torch), raised_by(BAD[case], minitorch)
    assert want is not None
    assert_same_error(got, want)


def test_rrelu_draws_only_for_values_not_above_zero() -> None:
    minitorch.manual_seed(3)
    x = minitorch.tensor([1.0, -1.0, float("nan"), -2.0], dtype=minitorch.float64)
    y = minitorch.nn.functional.rrelu(x, training=True)
    torch.manual_seed(3)
    t = torch.nn.functional.rrelu(torch.tensor([1.0, -1.0, float("nan"), -2.0],
                                               dtype=torch.float64), training=True)
    np.testing.assert_array_equal(y.numpy(), t.numpy())


@pytest.mark.parametrize("lower, upper", [(0.0, 1e-7), (0.1, 0.1 + 1e-7), (0.25, 0.25)])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_training_gradient_is_the_drawn_noise_however_narrow_the_range(lower, upper, dtype):
    """torch multiplies by the drawn slopes even for a range under 1e-6 (minitorch took the
    mean slope there: hypothesis found x = 0 with U(0, 1e-7))."""
    values, weights = np.array([0.0, -1.0, 2.0, -3.5]), np.ones(4)
    args = (values, weights, dtype, lower, upper, True, False)
    assert _run(minitorch, *args) == _run(torch, *args)
