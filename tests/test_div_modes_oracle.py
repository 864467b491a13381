"""``div(rounding_mode=)``, ``div_(rounding_mode=)`` and ``fmod`` against live torch: values
bit for bit (float32, float64, integers), zero gradients through torch's ``DivBackward2``,
``fmod``'s ``FmodBackward1/0`` with ``-g * trunc(a / b)`` for the divisor, and torch's errors.
Before, minitorch refused ``rounding_mode`` and had no ``fmod``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt


def _bits(t: Any) -> bytes:
    array = t.detach().numpy()
    return np.where(np.isnan(array), abs(array), array).tobytes()  # NaN's sign aside


def _run(lib: Any, dtype: str, mode: Any, fn: str) -> list:
    rng = np.random.default_rng(3)
    a0 = (rng.standard_normal(2000) * 5).astype(dtype)
    b0 = (rng.standard_normal(2000) * 2).astype(dtype)
    b0[::50], a0[::77] = 0, 0
    a, b = lib.tensor(a0, requires_grad=True), lib.tensor(b0, requires_grad=True)
    z = lib.div(a, b, rounding_mode=mode) if fn == "div" else getattr(lib, fn)(a, b)
    z.backward(lib.ones_like(z) * 1.5)
    scalar = a.div(1.5, rounding_mode=mode) if fn == "div" else getattr(a, fn)(1.5)
    (g,) = lib.autograd.grad((lib.div(a, b, rounding_mode=mode) if fn == "div"
                              else getattr(lib, fn)(a, b)).sum(), b, create_graph=True)
    return [type(z.grad_fn).__name__, _bits(z), _bits(a.grad), _bits(b.grad),
            type(scalar.grad_fn).__name__, _bits(scalar), type(g.grad_fn).__name__]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(("fn", "mode"), [("div", "floor"), ("div", "trunc"), ("div", None),
                                          ("fmod", None), ("remainder", None)])
def test_rounded_division_and_fmod_are_torchs(fn: str, mode: Any, dtype: str) -> None:
    assert _run(mt, dtype, mode, fn) == _run(torch, dtype, mode, fn)


def _integers_and_errors(lib: Any) -> list:
    a, b = lib.tensor([7, -7, 6, -6, 0, 9]), lib.tensor([2, 2, -4, -4, 3, -2])
    out: list = []
    for mode in ("floor", "trunc"):
        out += [lib.div(a, b, rounding_mode=mode).tolist(), str(lib.div(a, 2, rounding_mode=mode)),
                str(lib.div(a, 2.5, rounding_mode=mode))]
    out += [lib.fmod(a, b).tolist(), str(lib.fmod(a, 2.5))]
    y = lib.tensor([5.0, -5.0])
    y.div_(2, rounding_mode="floor")
    out.append(y.tolist())
    for bad in (lambda: lib.div(lib.tensor([1]), lib.tensor([0]), rounding_mode="trunc"),
                lambda: lib.div(lib.tensor([True]), lib.tensor([True]), rounding_mode="trunc"),
                lambda: lib.div(lib.tensor([1.0]), 2, rounding_mode="bad"),
                lambda: lib.fmod(lib.tensor([1]), lib.tensor([0]))):
        with pytest.raises(Exception) as error:
            bad()
        out.append((error.type.__name__, str(error.value)))
    return out


def test_integers_in_place_and_errors_are_torchs() -> None:
    assert _integers_and_errors(mt) == _integers_and_errors(torch)
