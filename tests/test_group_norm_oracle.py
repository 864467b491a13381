"""F.group_norm, torch.group_norm and nn.GroupNorm against live torch: values of every shape
and grouping, gradients of first and second order, the node, the module's parameters and
printed form, and torch's errors in its order."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import SETTINGS, assert_same
from test_bad_input_fuzz21b_oracle import assert_as_torch
from test_linalg_decompositions_oracle import _assert_grads_match

import minitorch as mt

RNG = np.random.default_rng(1616)


@settings(SETTINGS, max_examples=25)
@given(st.sampled_from([(2, 4), (3, 6, 5), (2, 4, 3, 2), (1, 6, 2, 1, 2)]),
       st.sampled_from([1, 2]), st.booleans(), st.booleans())
def test_values_and_gradients(shape: tuple, group_size: int, weight: bool, bias: bool) -> None:
    """(torch's backward with a bias and no weight fails: "tensor does not have a device")"""
    bias = bias and weight
    c = shape[1]
    groups = c // group_size if c % group_size == 0 else c
    arrays = [RNG.standard_normal(shape)]
    names = []
    for given_, name in ((weight, "w"), (bias, "b")):
        if given_:
            arrays.append(RNG.standard_normal(c))
            names.append(name)

    def fn(L, x, *params):  # type: ignore[no-untyped-def]
        kw = dict(zip(names, params))
        return L.nn.functional.group_norm(x, groups, kw.get("w"), kw.get("b"), 1e-3)
    # the bias enters linearly: its second derivative is unused (and torch's double
    # backward fails without a weight)
    _assert_grads_match(arrays, fn, second=not bias)


def test_node_float32_values_and_gradcheck() -> None:
    assert_as_torch("L.manual_seed(0); x = L.randn(2, 6, 3, 3, dtype=L.float64, "
                    "requires_grad=True); R = L.nn.functional.group_norm(x, 3, L.ones(6) * 2, "
                    "L.ones(6)); R = (R, R.grad_fn.name(), R.grad_fn._saved_input is x)")
    x32 = RNG.standard_normal((2, 6, 3, 3)).astype(np.float32)
    assert_same(mt.nn.functional.group_norm(mt.tensor(x32), 3),
                torch.nn.functional.group_norm(torch.tensor(x32), 3))
    x = mt.tensor(RNG.standard_normal((2, 4, 3)), requires_grad=True)
    w = mt.tensor(RNG.standard_normal(4), requires_grad=True)
    b = mt.tensor(RNG.standard_normal(4), requires_grad=True)
    assert mt.autograd.gradgradcheck(lambda *t: mt.nn.functional.group_norm(t[0], 2, *t[1:]),
                                     (x, w, b))


@pytest.mark.parametrize("program", [
    "m = L.nn.GroupNorm(2, 4); R = (repr(m), m.weight, m.bias, list(m.state_dict()))",
    "m = L.nn.GroupNorm(1, 3, affine=False); R = (repr(m), m.weight, m.bias)",
    "m = L.nn.GroupNorm(1, 3, 1e-3, bias=False, dtype=L.float64); R = (repr(m), m.weight, "
    "m.bias, m(L.ones(2, 3, 2, dtype=L.float64)))",
    "R = L.nn.GroupNorm(3, 4)",
    "R = L.nn.GroupNorm(0, 4)",
    "R = L.group_norm(L.tensor([[1., 3., 0., 4.]]), 2)",
    "R = L.group_norm(L.ones(2, 4), 2, cudnn_enabled=1)",
    "R = F.group_norm(L.ones(2, 4, 3), 3)",
    "R = F.group_norm(L.ones(2, 4, 3), 0)",
    "R = F.group_norm(L.ones(2, 4, 3), -2)",
    "R = F.group_norm(L.ones(4), 2)",
    "R = F.group_norm(L.ones(2, 4), 2)",
    "R = F.group_norm(L.ones(1, 4), 2)",
    "R = F.group_norm(L.ones(1, 4), 4)",
    "R = F.group_norm(L.ones(1, 4, 1), 4)",
    "R = F.group_norm(L.ones(0, 4, 3), 2)",
    "R = F.group_norm(L.ones(2, 4, 0), 2)",
    "R = F.group_norm(L.ones(2, 4, 3), 2, L.ones(3))",
    "R = F.group_norm(L.ones(2, 4, 3), 2, L.ones(2, 2))",
    "R = F.group_norm(L.ones(2, 4, 3), 2, None, L.ones(3))",
    "R = F.group_norm(L.ones(2, 4, 3), 2, L.ones(4), L.ones(3))",
    "R = F.group_norm(L.ones(2, 4, 3, dtype=L.int64), 2)",
    "R = F.group_norm(L.ones(2, 4, 3), 2, L.ones(4, dtype=L.float64))",
    "R = F.group_norm(L.ones(2, 4, 3, dtype=L.float64), 2, None, L.ones(4))",
    "R = F.group_norm(L.ones(2, 4, 3), 2.0)",
    "R = F.group_norm(L.ones(2, 4, 3), 2, eps='a')",
    "R = F.group_norm(L.ones(2, 4, 3), 2, [1.] * 4)",
    "R = F.group_norm([1.], 2)",
])
def test_module_edges_and_errors(program: str) -> None:
    assert_as_torch("F = L.nn.functional; " + program)
