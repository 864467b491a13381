"""The activation modules and functions torch has beyond the common ones (Softmin, Threshold,
PReLU, CELU, SELU, Mish, Hardswish, Hardsigmoid, Hardshrink, Softshrink, Tanhshrink, Softsign,
F.softshrink/hardsigmoid/softmin and the in-place F.selu_/celu_/threshold_) against torch:
values to the bit, gradients and the nodes of both graphs, printed forms, errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS, arrays, assert_same_error, raised_by, shapes

import minitorch

MODULES = {
    "Softmin": lambda nn: nn.Softmin(dim=0),
    "Threshold": lambda nn: nn.Threshold(0.25, -2.0),
    "Threshold_inplace": lambda nn: nn.Threshold(0.1, 20.0, inplace=True),
    "PReLU": lambda nn: nn.PReLU(),
    "CELU": lambda nn: nn.CELU(0.7),
    "SELU": lambda nn: nn.SELU(),
    "Mish": lambda nn: nn.Mish(),
    "Hardswish": lambda nn: nn.Hardswish(),
    "Hardsigmoid": lambda nn: nn.Hardsigmoid(),
    "Hardsigmoid_inplace": lambda nn: nn.Hardsigmoid(inplace=True),
    "Hardshrink": lambda nn: nn.Hardshrink(0.3),
    "Softshrink": lambda nn: nn.Softshrink(),
    "Softshrink0": lambda nn: nn.Softshrink(0.0),
    "Tanhshrink": lambda nn: nn.Tanhshrink(),
    "Softsign": lambda nn: nn.Softsign(),
}
REPRS = {
    "CELU": lambda nn: nn.CELU(2.0, inplace=True), "SELU": lambda nn: nn.SELU(True),
    "Mish": lambda nn: nn.Mish(inplace=True), "Hardswish": lambda nn: nn.Hardswish(True),
    "Hardsigmoid": lambda nn: nn.Hardsigmoid(True), "Softmin": lambda nn: nn.Softmin(),
    "PReLU": lambda nn: nn.PReLU(3, init=0.5), "Threshold": lambda nn: nn.Threshold(0, 1, True),
    "Hardshrink": lambda nn: nn.Hardshrink(), "Softshrink": lambda nn: nn.Softshrink(1),
    "Tanhshrink": lambda nn: nn.Tanhshrink(), "Softsign": lambda nn: nn.Softsign(),
}
# points where the pieces meet, signed zeros, NaN and infinities (the last two only for the
# functions new here: the older ones' gradients at NaN are not yet torch's)
EDGES = [-3.0, 3.0, -0.5, 0.5, 0.25, -0.0, 0.0, 0.1, 20.0, -20.0]
NONFINITE = {"Threshold", "Threshold_inplace", "Hardsigmoid", "Hardsigmoid_inplace",
             "Hardshrink", "Softshrink", "Softshrink0"}


def _run(lib, name: str, data: np.ndarray, weights: np.ndarray, dtype: str):
    module = MODULES[name](lib.nn).to(getattr(lib, dtype))
    leaf = lib.tensor(data, dtype=getattr(lib, dtype), requires_grad=True)
    x = leaf * 1  # a non-leaf, so the in-place forms may run on it
    y = module(x)
    g = lib.tensor(weights, dtype=y.dtype)
    (gx,) = lib.autograd.grad(y, leaf, g, create_graph=True)
    return y, gx, [p.grad for p in module.parameters()]


def _assert_close(got, want, zero_signs: bool) -> None:
    """Equal to rounding (a few ulps: softmax sums in another order than torch), NaN where
    torch has NaN, and (``zero_signs``) the sign of every zero as torch's."""
    g, w = np.asarray(got.detach().numpy()), np.asarray(want.detach().numpy())
    eps = np.finfo(w.dtype).eps
    np.testing.assert_allclose(g, w, rtol=4 * eps, atol=4 * eps)
    if zero_signs:
        assert np.signbit(g[w == 0]).tolist() == np.signbit(w[w == 0]).tolist()


@pytest.mark.parametrize("name", MODULES)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@SETTINGS
@given(data=st.data())
def test_module_values_and_graphs_as_torch(name: str, dtype: str, data) -> None:
    shape = data.draw(shapes(1, 3))
    values = data.draw(arrays(shape))
    edges = [*EDGES[:7], float("nan"), float("inf"), -float("inf")] if name in NONFINITE \
        else EDGES
    values.flat[:min(values.size, len(edges))] = edges[:values.size]
    weights = data.draw(arrays(shape))
    got = _run(minitorch, name, values, weights, dtype)
    want = _run(torch, name, values, weights, dtype)
    for g, w, zero_signs in zip(got[:2], want[:2], (True, False)):
        _assert_close(g, w, zero_signs)
        assert type(g.grad_fn).__name__ == type(w.grad_fn).__name__
        assert g.dtype.__repr__() == w.dtype.__repr__()


@pytest.mark.parametrize("name", REPRS)
def test_module_repr_as_torch(name: str) -> None:
    assert repr(REPRS[name](minitorch.nn)) == repr(REPRS[name](torch.nn))


def test_prelu_weight_and_its_gradient_as_torch() -> None:
    results = []
    for lib in (minitorch, torch):
        m = lib.nn.PReLU(2, init=0.1, dtype=lib.float64)
        x = lib.tensor([[-1.0, 2.0], [-3.0, -4.0]], dtype=lib.float64)
        m(x).sum().backward()
        results.append((m.weight.tolist(), m.weight.grad.tolist(), repr(m.weight.dtype)))
    assert results[0] == results[1]


def _functional(F, name):
    return {"softshrink": lambda x: F.softshrink(x, 0.75), "hardsigmoid": F.hardsigmoid,
            "softmin": lambda x: F.softmin(x, -1), "hardshrink": F.hardshrink,
            "selu_": F.selu_, "celu_": lambda x: F.celu_(x, 2.0),
            "threshold_": lambda x: F.threshold_(x, 0.5, -1.0)}[name]


@pytest.mark.parametrize("name", ["softshrink", "hardsigmoid", "softmin", "hardshrink",
                                  "selu_", "celu_", "threshold_"])
def test_functional_forms_as_torch(name: str) -> None:
    values = np.array([[-4.0, -0.75, -0.3, 0.0], [0.3, 0.75, 2.5, 4.0]])
    out = []
    for lib in (minitorch, torch):
        x = lib.tensor(values, requires_grad=True) * 1
        y = _functional(lib.nn.functional, name)(x)
        y.sum().backward()
        out.append((y, type(y.grad_fn).__name__, x._version))
    _assert_close(out[0][0], out[1][0], zero_signs=True)
    assert out[0][1:] == out[1][1:]


BAD = {
    "softshrink_negative": lambda L: L.nn.functional.softshrink(L.ones(2), -0.5),
    "softshrink_negative_float32": lambda L: L.nn.functional.softshrink(
        L.ones(2, dtype=L.float32), -1),
    "softshrink_long": lambda L: L.nn.functional.softshrink(L.tensor([1, 2])),
    "softshrink_lambd_str": lambda L: L.nn.functional.softshrink(L.ones(2), "a"),
    "hardsigmoid_long": lambda L: L.nn.functional.hardsigmoid(L.tensor([1, 2])),
    "hardsigmoid_bool": lambda L: L.nn.functional.hardsigmoid(L.tensor([True])),
    "hardsigmoid_list": lambda L: L.nn.functional.hardsigmoid([1.0]),
    "softmin_list": lambda L: L.nn.functional.softmin([1.0], 0),
    "softmin_dim": lambda L: L.nn.functional.softmin(L.ones(2), 3),
    "hardsigmoid_double_backward": lambda L: L.autograd.grad(
        L.autograd.grad(L.nn.functional.hardsigmoid(_leaf(L)).sum(), _LEAVES[-1],
                        create_graph=True)[0].sum(), _LEAVES[-1]),
    "prelu_module_channels": lambda L: L.nn.PReLU(3)(L.ones(2, 2)),
}
_LEAVES: list = []


def _leaf(L):
    _LEAVES.append(L.ones(2, requires_grad=True))
    return _LEAVES[-1]


@pytest.mark.parametrize("case", BAD)
def test_bad_arguments_refused_as_torch(case: str) -> None:
    want = raised_by(BAD[case], torch)
    got = raised_by(BAD[case], minitorch)
    assert want is not None
    assert_same_error(got, want)


def test_softmin_without_dim_warns_as_torch() -> None:
    messages = []
    for lib in (minitorch, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            y = lib.nn.Softmin()(lib.tensor([[1.0, 2.0]]))
        messages.append(([str(w.message) for w in caught], y.tolist()))
    assert messages[0] == messages[1]
