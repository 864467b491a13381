"""The 3-d poolings against torch: ``avg_pool3d``, ``adaptive_avg_pool3d``,
``adaptive_max_pool3d``, ``max_unpool3d``, ``lp_pool3d`` and their modules. Values, dtypes,
shapes, grad_fn names, gradients and gradients of gradients over drawn windows (kernel,
stride, padding, ceil mode, count_include_pad, divisor_override, unbatched inputs), the
modules' printed forms, and torch's refusals of bad input (types and messages)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS, assert_same_error, numpy_of, raised_by

import minitorch as mt


def _run(L: Any, fn: Any, shape: tuple, dtype: str = "float64", seed: int = 0) -> list:
    """``fn(F, x)``'s result, its node's name, and (floats) x's gradient and the gradient
    of that gradient's square, under a weight that tells the outputs apart."""
    x = np.random.default_rng(seed).standard_normal(shape).astype(dtype)
    floating = dtype.startswith("float")
    t = L.tensor(x, requires_grad=floating)
    out = fn(L.nn.functional, t)
    first = out[0] if isinstance(out, tuple) else out
    got = [numpy_of(o) for o in (out if isinstance(out, tuple) else (out,))]
    got.append(type(first.grad_fn).__name__ if first.grad_fn is not None else None)
    if floating and first.numel():
        w = L.tensor(np.linspace(-1, 1, first.numel()).reshape(first.shape).astype(dtype))
        (g,) = L.autograd.grad((first * w).sum(), t, create_graph=True)
        got.append(numpy_of(g))
        gg = None  # a gradient that does not depend on x: torch may still record it
        if g.requires_grad:
            (gg,) = L.autograd.grad((g * g).sum(), t, allow_unused=True)
        got.append(np.zeros(shape, dtype) if gg is None else numpy_of(gg))
    return got


def _same(fn: Any, shape: tuple, dtype: str = "float64") -> None:
    """minitorch gives torch's result, or raises torch's error."""
    want_error = raised_by(lambda L: _run(L, fn, shape, dtype), torch)
    if want_error is not None:
        got_error = raised_by(lambda L: _run(L, fn, shape, dtype), mt)
        if str(want_error).startswith("Found an invalid max index"):
            # which bad index torch names depends on how its threads split the input
            assert type(got_error) is type(want_error)
            assert str(got_error).split(":")[0] == str(want_error).split(":")[0]
            assert str(got_error).split("(")[1] == str(want_error).split("(")[1]
            return
        assert_same_error(got_error, want_error)
        return
    got, want = _run(mt, fn, shape, dtype), _run(torch, fn, shape, dtype)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        if isinstance(w, str) or w is None:
            assert g == w
        else:
            assert g.shape == w.shape and g.dtype == w.dtype
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


@st.composite
def windows(draw: Any) -> tuple:
    """An input shape (batched or not) and an average pool's window over it, valid or not
    (a padding past half the kernel, an input smaller than the kernel)."""
    kernel = tuple(draw(st.integers(1, 3)) for _ in range(3))
    stride = draw(st.sampled_from([None, 1, 2, tuple(draw(st.integers(1, 3)) for _ in range(3))]))
    padding = tuple(draw(st.integers(0, 2)) for _ in range(3))
    sizes = tuple(draw(st.integers(1, 5)) for _ in range(3))
    batch = draw(st.sampled_from([(), (2,), (0,)]))
    return (*batch, 2, *sizes), (kernel, stride, padding, draw(st.booleans()),
                                 draw(st.booleans()), draw(st.sampled_from([None, 2, -3])))


@SETTINGS
@given(windows(), st.sampled_from(["float64", "float32"]))
def test_avg_pool3d_like_torch(case: tuple, dtype: str) -> None:
    shape, args = case
    _same(lambda F, x: F.avg_pool3d(x, *args), shape, dtype)


@SETTINGS
@given(windows())
def test_avg_pool3d_module_like_torch(case: tuple) -> None:
    shape, args = case
    _same(lambda F, x: (mt.nn if F is mt.nn.functional else torch.nn).AvgPool3d(*args)(x),
          shape)


@SETTINGS
@given(windows(), st.sampled_from([1, 2, 3, 1.5, float("inf"), -float("inf")]))
def test_lp_pool3d_like_torch(case: tuple, norm: float) -> None:
    shape, (kernel, stride, _, ceil_mode, _, _) = case
    _same(lambda F, x: F.lp_pool3d(x.abs() + 0.5, norm, kernel, stride, ceil_mode), shape)


@st.composite
def adaptive(draw: Any) -> tuple:
    """An input shape (some side possibly empty) and an adaptive output size."""
    sizes = tuple(draw(st.integers(1, 6)) for _ in range(3))
    batch = draw(st.sampled_from([(), (2,), (0,)]))
    size = draw(st.one_of(st.integers(0, 4), st.tuples(*(st.one_of(st.none(), st.integers(0, 7))
                                                         for _ in range(3)))))
    return (*batch, draw(st.sampled_from([1, 3])), *sizes), size


@SETTINGS
@given(adaptive(), st.sampled_from(["float64", "float32"]))
def test_adaptive_avg_pool3d_like_torch(case: tuple, dtype: str) -> None:
    shape, size = case
    _same(lambda F, x: F.adaptive_avg_pool3d(x, size), shape, dtype)


@SETTINGS
@given(adaptive(), st.booleans())
def test_adaptive_max_pool3d_like_torch(case: tuple, return_indices: bool) -> None:
    shape, size = case
    _same(lambda F, x: F.adaptive_max_pool3d(x, size, return_indices), shape)


@st.composite
def unpool_cases(draw: Any) -> tuple:
    """A 3-d max pool's window, and the unpooling's (the same, or another)."""
    kernel = tuple(draw(st.integers(1, 3)) for _ in range(3))
    stride = tuple(draw(st.integers(1, 3)) for _ in range(3))
    padding = tuple(draw(st.integers(0, k // 2)) for k in kernel)
    sizes = tuple(draw(st.integers(max(k, 2), 6)) for k in kernel)
    batch = draw(st.sampled_from([(), (2,)]))
    other = draw(st.sampled_from([None, (2, 2, 2), (1, 2, 3)]))
    return (*batch, 2, *sizes), (kernel, stride, padding), other


@SETTINGS
@given(unpool_cases())
def test_max_unpool3d_like_torch(case: tuple) -> None:
    shape, window, other = case

    def unpool(F: Any, x: Any) -> Any:
        values, indices = F.max_pool3d(x, *window, return_indices=True)
        return F.max_unpool3d(values, indices, *(window if other is None else (other,)))

    _same(unpool, shape)


BAD = [
    "F.avg_pool3d(x, (2, 2))", "F.avg_pool3d(x, 2, (1, 1))", "F.avg_pool3d(x, 2, padding=[])",
    "F.avg_pool3d(x, 0)", "F.avg_pool3d(x, (2, -1, 2))", "F.avg_pool3d(x, 2, -1)",
    "F.avg_pool3d(x, 5)", "F.avg_pool3d(x, 2, padding=2)", "F.avg_pool3d(x, 2.5)",
    "F.avg_pool3d(x, 2, divisor_override=0)", "F.avg_pool3d(x, 2, divisor_override=1.5)",
    "F.avg_pool3d(x, 2, ceil_mode=2)", "F.avg_pool3d(x[0, 0], 2)",
    "F.avg_pool3d(L.ones(1, 0, 4, 4, 4), 2)", "F.avg_pool3d(L.ones(0, 4, 4, 4), 2)",
    "F.avg_pool3d(x.half(), 2)", "F.avg_pool3d(x.int(), 2)", "F.avg_pool3d(x.bool(), 3, 2, 1)",
    "F.avg_pool3d(1, 2)", "F.max_pool3d(L.ones(0, 4, 4, 4), 2)",
    "F.adaptive_avg_pool3d(x, (2, 2))", "F.adaptive_avg_pool3d(x, (2, -1, 3))",
    "F.adaptive_avg_pool3d(x, 2.5)", "F.adaptive_avg_pool3d(x, [True, 2, 2])",
    "F.adaptive_avg_pool3d(x[0, 0], 2)", "F.adaptive_avg_pool3d(x.long(), 2)",
    "F.adaptive_avg_pool3d(x.long(), 1)", "F.adaptive_avg_pool3d(L.ones(1, 2, 2, 2, 0), 2)",
    "F.adaptive_avg_pool3d(x, (2, None, 3, 4, 5, 6))",
    "F.adaptive_max_pool3d(x, (2, 2))", "F.adaptive_max_pool3d(x, (2, -1, 3))",
    "F.adaptive_max_pool3d(x[0, 0], 2)", "F.adaptive_max_pool3d(x.long(), 2)",
    "F.adaptive_max_pool3d(L.ones(1, 0, 2, 2, 2), 2)",
    "F.max_unpool3d(v, i.int(), 2)", "F.max_unpool3d(v[0, 0], i[0, 0], 2)",
    "F.max_unpool3d(v, i[0], 2)",
    # bad indices all of one value: torch's threads may meet several in any order
    "F.max_unpool3d(v, i.clamp(max=0) - (i == i.max()).long(), 2)",
    "F.max_unpool3d(v, i.clamp(max=0) + 64 * (i == i.max()).long(), 2)",
    "F.max_unpool3d(v.long(), i, 2)", "F.max_unpool3d(v[:, :0], i[:, :0], 2)",
    "F.max_unpool3d(v, i, 2, stride=0)", "F.max_unpool3d(v, i, (2, 2))",
    "F.max_unpool3d(v, i, 2, output_size=(5, 5))", "F.max_unpool3d(v, i, 2, output_size=(7, 5, 5))",
    "F.max_unpool3d(v, i, 2, output_size=(2.5, 4, 4))", "F.max_unpool3d(v, i, 2, (1, 1))",
    "F.max_unpool3d(v, i, 2, 2, 'a')", "F.lp_pool3d(x, 2, (2, 2))", "F.lp_pool3d(x, 2, 2.0)",
    "L.nn.AvgPool3d((2, 2))(x)", "L.nn.AdaptiveMaxPool3d((1, 2))(x)",
    "L.nn.MaxUnpool3d(2)(v, i.int())", "L.nn.LPPool3d(2, 5)(x)",
]


@pytest.mark.parametrize("call", BAD)
def test_bad_input_refused_as_torch(call: str) -> None:
    def program(L: Any) -> Any:
        x = L.tensor(np.random.default_rng(0).standard_normal((1, 2, 4, 4, 4)),
                     dtype=L.float32)
        v, i = L.nn.functional.max_pool3d(x, 2, return_indices=True)
        return eval(call, {"F": L.nn.functional, "L": L, "x": x, "v": v, "i": i})

    want = raised_by(program, torch)
    assert want is not None, call
    assert_same_error(raised_by(program, mt), want)


@pytest.mark.parametrize("make", [
    "AvgPool3d(2)", "AvgPool3d((1, 2, 3), 1, (0, 1, 1), True, False, 3)",
    "AdaptiveAvgPool3d((2, None, 3))", "AdaptiveMaxPool3d(2, True)", "MaxUnpool3d(2)",
    "MaxUnpool3d((1, 2, 3), 1, [0, 1, 0])", "LPPool3d(2, 2)", "LPPool3d(2.5, (1, 2, 3), 1, True)",
])
def test_modules_print_as_torch(make: str) -> None:
    got, want = (repr(eval(f"L.nn.{make}", {"L": L})) for L in (mt, torch))
    assert got == want
