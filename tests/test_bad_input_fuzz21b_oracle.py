"""Bad input found by issue #21's second independent fuzz (seeds 1101-1103) in
nn.functional, the nn layers, linalg and the tensor ops, against live torch: each case runs
on torch and on minitorch and must have the same outcome (the same result, or the same
exception type and message). Programs with statements leave their result in ``R``.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS
from test_bad_input_fuzz_oracle import _message, _same_result, assert_as_torch

import minitorch as mt


def run(L: Any, program: str) -> tuple[str, Any]:
    """("ok", R) or (exception type name, message) of ``program`` run over ``L``."""
    scope = {"L": L, "F": L.nn.functional, "np": np}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(program, scope)
            return "ok", scope.get("R")
        except Exception as error:  # the outcome is what is compared
            return type(error).__name__, str(error)


def assert_program_as_torch(program: str) -> None:
    """``program`` ends as in torch: an equal ``R``, or the same exception and message."""
    want, got = run(torch, program), run(mt, program)
    assert want[0] == got[0], (program, want, got)
    if want[0] == "ok":
        assert _same_result(got[1], want[1]), (program, want, got)
    else:
        assert _message(want[1]) == got[1].strip(), (program, want, got)


@SETTINGS
@given(x=st.sampled_from(["L.ones(4, 3)", "L.ones(4, 3, dtype=L.float64)",
                          "L.ones(4, 3, dtype=L.int64)", "L.ones(4, 3) > 0"]),
       shape=st.sampled_from(["(3,)", "3", "()", "(2,)", "L.Size([3])", "[4, 3]", "2.5"]),
       weight=st.sampled_from(["None", "L.ones(3)", "L.ones(3, dtype=L.float64)",
                               "L.ones(2)", "3"]),
       bias=st.sampled_from(["None", "L.zeros(3)", "L.zeros(3, dtype=L.float64)",
                             "L.zeros(4)"]),
       eps=st.sampled_from(["1e-5", "'a'", "0", "None"]))
def test_layer_norm_checks_as_torch(x: str, shape: str, weight: str, bias: str,
                                    eps: str) -> None:
    """layer_norm types its arguments as torch's parser (a lone int is no shape), then
    checks the parameters' dtype, the shapes, and runs a floating kernel only."""
    assert_as_torch(f"L.nn.functional.layer_norm({x}, {shape}, {weight}, {bias}, {eps})")


@pytest.mark.parametrize("expression", [
    "L.nn.LayerNorm(3, elementwise_affine=False)(L.ones(2, 3, dtype=L.int64))",
    "L.nn.LayerNorm(3, eps='a')(L.ones(2, 3))", "L.nn.LayerNorm(3)(L.ones(2, 3, dtype=L.int64))"])
def test_layer_norm_module_as_torch(expression: str) -> None:
    assert_as_torch(expression)


@SETTINGS
@given(x=st.sampled_from(["L.ones(2, 3)", "L.ones(0, 3)", "L.ones(4, 3, dtype=L.int64)",
                          "L.ones(0, 3, dtype=L.int64)", "L.ones(1, 3, 1)", "L.ones(3)"]),
       stats=st.sampled_from(["L.zeros(3), L.ones(3)", "None, None", "L.zeros(2), None",
                              "L.zeros(3, dtype=L.float64), L.ones(3)",
                              "L.zeros(3, requires_grad=True), L.ones(3)"]),
       params=st.sampled_from(["None, None", "L.ones(3), L.zeros(3)", "L.ones(2), None",
                               "None, L.zeros(2)", "L.ones(3, requires_grad=True), None"]),
       training=st.booleans(), eps=st.sampled_from(["1e-5", "0.0", "-1.0", "'a'", "None"]))
def test_batch_norm_checks_as_torch(x: str, stats: str, params: str, training: bool,
                                    eps: str) -> None:
    """batch_norm checks eps as torch's Python does (non-negative; positive when training),
    returns an empty input scaled and shifted without statistics, then checks the running
    statistics, weight and bias hold one value per channel before their dtypes."""
    assert_as_torch(f"L.nn.functional.batch_norm({x}, {stats}, {params}, "
                    f"training={training}, eps={eps})")


@pytest.mark.parametrize("program", [
    "m = L.nn.BatchNorm1d(3)\ny = m(L.ones(0, 3))\n"
    "R = (y, m.running_mean, m.running_var, m.num_batches_tracked)",
    "m = L.nn.BatchNorm1d(3)\nx = L.ones(0, 3, requires_grad=True)\ny = m(x)\n"
    "y.sum().backward()\nR = (y, x.grad, m.weight.grad, m.bias.grad)",
    "R = L.nn.BatchNorm1d(0).eval()(L.ones(0, 3))",
    "R = L.nn.BatchNorm2d(2)(L.ones(0, 2, 3, 3))"])
def test_batch_norm_of_an_empty_batch_as_torch(program: str) -> None:
    """An empty batch leaves the running statistics as they are (they were NaN)."""
    assert_program_as_torch(program)


@SETTINGS
@given(x=st.sampled_from(["L.ones(2)", "L.ones(2, dtype=L.int64) * 7", "L.ones(2) > 0", "3.0",
                          "L.ones(2, requires_grad=True) * 1"]),
       call=st.sampled_from([
           "elu({x})", "elu({x}, alpha=None)", "elu({x}, alpha='a', inplace=True)",
           "elu({x}, 2.0, True)", "leaky_relu({x}, None)", "leaky_relu({x}, 0.2, True)",
           "leaky_relu({x}, 2 ** 70)", "hardtanh({x})", "hardtanh({x}, -1.5, 1.5)",
           "hardtanh({x}, 'a', 'b')", "hardtanh({x}, 2.0, 1.0)", "hardtanh({x}, 0.0, 'b')",
           "hardtanh({x}, 2 ** 70, 2 ** 71)", "hardtanh({x}, inplace=True)", "relu6({x})",
           "relu6({x}, inplace=True)", "silu({x})", "silu({x}, inplace=True)", "gelu({x})",
           "gelu({x}, 'tanh')", "gelu({x}, approximate=None)", "gelu({x}, approximate='x')",
           "gelu({x}, approximate='tanh')", "logsigmoid({x})"]))
def test_activation_arguments_as_torch(x: str, call: str) -> None:
    """Activations type their numbers as torch's parser (named ``fn_`` in place), take
    gelu's ``approximate`` by keyword only, and refuse the dtypes torch's kernels lack
    (hardtanh and relu6 run on integers, not on bools)."""
    assert_as_torch("L.nn.functional." + call.format(x=x))
