"""Module and container APIs tutorials use, against torch: ``Sequential.insert/extend/pop``
and ``del``, ``load_state_dict(assign=True)``, ``Tensor.numpy(force=True)`` and
``linalg.solve(left=False)``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same_error, raised_by


def test_sequential_insert_extend_pop_del() -> None:
    def run(L: Any) -> list[str]:
        L.manual_seed(0)
        nn = L.nn
        s = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
        out = [repr(s.insert(0, nn.Tanh())), repr(s.insert(-1, nn.Sigmoid())),
               repr(s.insert(4, nn.ReLU())), repr(s.extend([nn.Linear(3, 1), nn.Tanh()]))]
        out.append(repr(s.pop(1)))
        del s[0]
        del s[1:3]
        out += [repr(s), repr(s.extend(nn.Sequential(nn.ReLU())))]
        return out
    assert run(mt) == run(torch)


@pytest.mark.parametrize("call", [lambda L: L.nn.Sequential(L.nn.ReLU()).insert(3, L.nn.ReLU()),
                                  lambda L: L.nn.Sequential().insert(0, 3),
                                  lambda L: L.nn.Sequential(L.nn.ReLU()).insert(-2, L.nn.ReLU())])
def test_insert_errors(call: Any) -> None:
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


def test_load_state_dict_assign_puts_the_tensors_themselves() -> None:
    def run(L: Any) -> list[str]:
        L.manual_seed(0)
        model = L.nn.Sequential(L.nn.Linear(2, 2), L.nn.BatchNorm1d(2))
        model[0].bias.requires_grad_(False)
        state = {k: v.detach().clone() * 2 for k, v in model.state_dict().items()}
        weight = state["0.weight"]
        result = model.load_state_dict(state, assign=True)
        got = model[0].weight
        return [repr(result), str(got is weight), type(got).__name__, str(got.requires_grad),
                str(model[0].bias.requires_grad), repr(got), repr(model[1].running_mean),
                str(model[1].running_mean is state["1.running_mean"]),
                repr(model.eval()(L.ones(3, 2)))]
    assert run(mt) == run(torch)


def test_load_state_dict_assign_errors() -> None:
    def call(L: Any) -> Any:
        return L.nn.Linear(2, 2).load_state_dict({"weight": L.ones(3, 2), "bias": L.ones(2)},
                                                 assign=True)
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


def test_numpy_force() -> None:
    for L in (mt, torch):
        x = L.ones(2, requires_grad=True) * 3
        array = x.numpy(force=True)
        assert isinstance(array, np.ndarray) and array.tolist() == [3.0, 3.0]
        assert str(array.dtype) == "float32"
    def call(L: Any) -> Any:
        return L.ones(2, requires_grad=True).numpy()
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


@pytest.mark.parametrize("shapes", [((3, 3), (2, 3)), ((2, 3, 3), (2, 4, 3)),
                                    ((3, 3), (2, 1, 3))])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_solve_left_false_is_torchs_bits(shapes: tuple, dtype: str) -> None:
    """``X A = B``: torch's adjoint solve with A's factors, one LinalgSolveExBackward0 node."""
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal(s).astype(dtype) for s in shapes)

    def run(L: Any) -> list:
        A, B = L.tensor(a, requires_grad=True), L.tensor(b, requires_grad=True)
        X = L.linalg.solve(A, B, left=False)
        X.pow(2).sum().backward()
        return [X.grad_fn.name(), *(t.detach().numpy() for t in (X, A.grad, B.grad))]

    got, want = run(mt), run(torch)
    assert got[0] == want[0]
    for g, w in zip(got[1:], want[1:], strict=True):
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("b_shape", [(3,), (3, 2)])
def test_solve_left_false_shape_errors(b_shape: tuple) -> None:
    def call(L: Any) -> Any:
        return L.linalg.solve(L.eye(3), L.ones(*b_shape), left=False)
    assert_same_error(raised_by(call, mt), raised_by(call, torch))
