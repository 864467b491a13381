"""``minitorch.gradient`` against torch: values, dtypes, grad_fn names and gradients (and
gradients of gradients) for spacing as nothing, a number, a list of numbers or a list of
coordinate tensors, any dims and both edge orders; and torch's refusals of bad input."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS, assert_same_error, numpy_of, raised_by

import minitorch as mt


def _run(L: Any, shape: tuple, dtype: str, kwargs: Any) -> list:
    """gradient's outputs (values, dtype, node), the input's gradient under a weight that
    tells the outputs apart, and the gradient of that gradient's square."""
    x = np.random.default_rng(len(shape)).standard_normal(shape) * 3
    floating = dtype.startswith("float")
    t = L.tensor(x.astype(dtype), requires_grad=floating)
    out = L.gradient(t, **kwargs(L))
    got: list = [type(out).__name__]
    got += [(str(o.dtype), type(o.grad_fn).__name__ if o.grad_fn else None, numpy_of(o))
            for o in out]
    if floating and out:
        total = sum((o * L.tensor(np.linspace(-1, 2, o.numel()).reshape(o.shape))).sum()
                    for o in out)
        (g,) = L.autograd.grad(total, t, create_graph=True)
        got.append(numpy_of(g))
        gg = L.autograd.grad((g * g).sum(), t, allow_unused=True)[0] if g.requires_grad \
            else None
        got.append(np.zeros(shape) if gg is None else numpy_of(gg))
    return got


def _same(shape: tuple, dtype: str, kwargs: Any) -> None:
    want_error = raised_by(lambda L: _run(L, shape, dtype, kwargs), torch)
    if want_error is not None:
        assert_same_error(raised_by(lambda L: _run(L, shape, dtype, kwargs), mt), want_error)
        return
    got, want = _run(mt, shape, dtype, kwargs), _run(torch, shape, dtype, kwargs)
    assert got[0] == want[0] and len(got) == len(want)
    for g, w in zip(got[1:], want[1:]):
        if isinstance(w, tuple):
            assert g[:2] == w[:2]
            g, w = g[2], w[2]
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


@st.composite
def cases(draw: Any) -> tuple:
    """A shape, and gradient's keywords: spacing (nothing, a number, numbers, coordinates,
    of the right count or not), dim (nothing, an int, a list) and edge_order."""
    shape = tuple(draw(st.lists(st.integers(1, 5), min_size=0, max_size=3)))
    ndim = len(shape)
    dim = draw(st.one_of(st.none(), st.integers(-ndim - 1, ndim),
                         st.lists(st.integers(-ndim, max(ndim - 1, 0)), max_size=3)))
    count = ndim if dim is None else 1 if isinstance(dim, int) else len(dim)
    count = draw(st.sampled_from([count, count, count + 1]))
    kind = draw(st.sampled_from(["none", "number", "numbers", "coordinates"]))
    number = draw(st.sampled_from([1, 2, 0.5, -1.5]))
    starts = [draw(st.lists(st.floats(0.1, 2.0), min_size=1, max_size=6)) for _ in range(count)]
    edge_order = draw(st.sampled_from([1, 2, 2, 3]))

    def kwargs(L: Any) -> dict:
        given: dict = {"edge_order": edge_order}
        if dim is not None:
            given["dim"] = dim
        if kind == "number":
            given["spacing"] = number
        elif kind == "numbers":
            given["spacing"] = [number * (i + 1) for i in range(count)]
        elif kind == "coordinates":  # increasing coordinates (each dim's own length drawn)
            given["spacing"] = [L.tensor(np.cumsum(s)) for s in starts]
        return given

    return shape, kwargs


@SETTINGS
@given(cases(), st.sampled_from(["float64", "float32", "int64"]))
def test_gradient_like_torch(case: tuple, dtype: str) -> None:
    _same(*case[:1], dtype, case[1])


BAD = [
    "L.gradient(x, edge_order=3)", "L.gradient(x, edge_order=1.5)", "L.gradient(x, spacing='a')",
    "L.gradient(x, 2.)", "L.gradient(L.ones(1))", "L.gradient(L.ones(2, 0), dim=1)",
    "L.gradient(m, dim=2)", "L.gradient(m, dim=(0, 0))", "L.gradient(m, dim=(1, 'a'))",
    "L.gradient(m, dim=1.5)", "L.gradient(m, spacing=[1., 2., 3.])",
    "L.gradient(m, spacing=[2., 3.], dim=1)", "L.gradient(x, spacing=[L.tensor(2.)])",
    "L.gradient(m, spacing=[L.tensor([[0., 1, 3]])], dim=0)",
    "L.gradient(m, spacing=[L.tensor([0., 1, 3]), 2.])", "L.gradient(m, spacing=[2., L.ones(3)])",
    "L.gradient(L.tensor([True, False, True]))", "L.gradient(L.tensor([1, 2, 3], dtype=L.uint8))",
    "L.gradient([1., 2., 3.])",
]


@pytest.mark.parametrize("call", BAD)
def test_bad_input_refused_as_torch(call: str) -> None:
    def program(L: Any) -> Any:
        x, m = L.tensor([1., 4., 9., 16., 25.]), L.arange(12.).reshape(3, 4) ** 2
        return eval(call, {"L": L, "x": x, "m": m})

    want = raised_by(program, torch)
    assert want is not None, call
    assert_same_error(raised_by(program, mt), want)
