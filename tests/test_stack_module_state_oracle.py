"""``torch.func.stack_module_state`` and ``torch.vmap`` (the alias), as torch's."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
import torch.func

import minitorch as mt
import minitorch.func
from tests.oracle import assert_same_error, numpy_of, raised_by


def _models(L: Any, count: int = 3) -> list:
    L.manual_seed(0)
    models = [L.nn.Sequential(L.nn.Linear(2, 3), L.nn.BatchNorm1d(3)) for _ in range(count)]
    return models


def _summary(L: Any) -> list:
    params, buffers = L.func.stack_module_state(_models(L))
    return [(kind, name, tuple(t.shape), t.requires_grad, t.is_leaf, str(t.dtype))
            for kind, state in (("param", params), ("buffer", buffers))
            for name, t in state.items()]


def test_stacked_state_has_torchs_names_shapes_and_leaves() -> None:
    assert _summary(mt) == _summary(torch)


def test_stacked_values_are_each_models() -> None:
    models = _models(mt)
    params, _ = mt.func.stack_module_state(models)
    for i, model in enumerate(models):
        np.testing.assert_array_equal(numpy_of(params["0.weight"][i]), numpy_of(model[0].weight))


def _mixed_requires_grad(L: Any) -> Any:
    models = _models(L, 2)
    models[1][0].bias.requires_grad_(False)
    return L.func.stack_module_state(models)


def _mixed_modes(L: Any) -> Any:
    models = _models(L, 2)
    models[1].eval()
    return L.func.stack_module_state(models)


@pytest.mark.parametrize("call", [
    lambda L: L.func.stack_module_state([]),
    _mixed_modes,
    lambda L: L.func.stack_module_state([L.nn.Linear(2, 3), L.nn.Tanh()]),
    _mixed_requires_grad,
])
def test_bad_models_are_refused_as_torch(call: Any) -> None:
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


def test_top_level_vmap_is_func_vmap() -> None:
    assert mt.vmap is mt.func.vmap
    got = mt.vmap(mt.dot)(mt.ones(2, 3), mt.ones(2, 3))
    np.testing.assert_array_equal(numpy_of(got), numpy_of(torch.vmap(torch.dot)(
        torch.ones(2, 3), torch.ones(2, 3))))
