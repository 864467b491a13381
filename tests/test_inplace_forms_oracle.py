"""In-place forms that others' programs call, against live torch: the method twins
(``x.floor_()``, ``x.cumsum_(0)``, ...), torch's in-place functions (``torch.relu_(x)``,
``torch.sin_(x)``) and the functional ones (``F.relu_``, ``F.leaky_relu_``, ...): values,
version counters, nodes and the gradients through them. Also ``data_ptr``."""

from __future__ import annotations

from typing import Any

import pytest
import torch

import minitorch as mt
from minitorch.ops.inplace_more import TWINS

ARGS = {"addmm": lambda L: (L.ones(2, 2), L.ones(2, 3)), "addmv": lambda L: (L.ones(2, 3),
                                                                               L.ones(3)),
        "clamp_min": lambda L: (0.5,), "clamp_max": lambda L: (0.5,), "clip": lambda L: (-1, 1),
        "cumprod": lambda L: (1,), "cumsum": lambda L: (0,), "fmod": lambda L: (0.7,),
        "remainder": lambda L: (0.7,), "tril": lambda L: (1,), "triu": lambda L: (-1,),
        "hypot": lambda L: (L.full((2, 3), 0.5),), "atan2": lambda L: (L.full((2, 3), -0.5),),
        "arctan2": lambda L: (L.full((3,), 2.),), "copysign": lambda L: (-1.,),
        "xlogy": lambda L: (2.5,)}


def _outcome(L: Any, call: Any) -> str:
    """What a program prints: the result, the version, the leaf's gradient, or the error."""
    base = L.tensor([[0.3, -1.7, 2.5], [4.0, -0.2, 0.9]], requires_grad=True)
    x = base * 1
    try:
        y = call(L, x)
        lines = [str(y), str(x._version), str(y is x)]
        if y.requires_grad:
            y.sum().backward()
            lines.append(str(base.grad))
        return "\n".join(lines)
    except Exception as e:  # the error is the outcome compared
        return f"{type(e).__name__}: {e}"


def _same(call: Any) -> None:
    assert _outcome(mt, call) == _outcome(torch, call)


@pytest.mark.parametrize("name", [n for n in TWINS if hasattr(mt.Tensor, f"{n}_")])
def test_method_twins(name: str) -> None:
    _same(lambda L, x: getattr(x, f"{name}_")(*ARGS.get(name, lambda L: ())(L)))


def test_twins_refuse_a_leaf_and_an_integer_result_type() -> None:
    _same(lambda L, x: L.ones(2, requires_grad=True).floor_())
    _same(lambda L, x: L.tensor([1, 2]).erf_())


@pytest.mark.parametrize("name", ["relu_", "sin_", "exp_", "sigmoid_", "tanh_", "abs_",
                                  "floor_", "square_", "clamp_min_"])
def test_torch_inplace_functions(name: str) -> None:
    args = (0.1,) if name == "clamp_min_" else ()
    _same(lambda L, x: getattr(L, name)(x, *args))


@pytest.mark.parametrize(("name", "args"), [("relu_", ()), ("elu_", (0.5,)),
                                            ("leaky_relu_", (0.2,)), ("hardtanh_", (-0.5, 0.5))])
def test_functional_inplace_forms(name: str, args: tuple) -> None:
    _same(lambda L, x: getattr(L.nn.functional, name)(x, *args))


def test_data_ptr_tells_shared_memory() -> None:
    def program(L: Any) -> tuple:
        x = L.randn(3, 4, requires_grad=True)
        return (x.detach().data_ptr() == x.data_ptr(), x.data.data_ptr() == x.data_ptr(),
                x[1:].data_ptr() - x.data_ptr(), x.t().data_ptr() == x.data_ptr(),
                x.clone().data_ptr() == x.data_ptr(), L.empty(0).data_ptr())
    assert program(mt) == program(torch)
