"""Adam, AdamW, RMSprop and Adagrad against torch: parameters after several steps of every
setting combination, printed forms, state and errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import FEW, SETTINGS, assert_same, assert_same_error, raised_by

import minitorch as mt

CASES = [
    ("Adam", {}), ("Adam", {"lr": 0.05, "weight_decay": 0.1}), ("Adam", {"amsgrad": True}),
    ("Adam", {"maximize": True, "betas": (0.8, 0.9)}),
    ("Adam", {"decoupled_weight_decay": True, "weight_decay": 0.3}),
    ("AdamW", {}), ("AdamW", {"lr": 0.1, "weight_decay": 0.5, "amsgrad": True}),
    ("RMSprop", {}), ("RMSprop", {"momentum": 0.9}), ("RMSprop", {"centered": True}),
    ("RMSprop", {"centered": True, "momentum": 0.5, "weight_decay": 0.1, "alpha": 0.9}),
    ("Adagrad", {}), ("Adagrad", {"lr_decay": 0.1, "weight_decay": 0.2,
                                  "initial_accumulator_value": 0.5}),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01}),
]


def _train(L, name: str, kwargs: dict, start: list, dtype_name: str, steps: int = 6):
    dtype = getattr(L, dtype_name)
    w = L.nn.Parameter(L.tensor(np.array(start).reshape(2, 3), dtype=dtype))
    b = L.nn.Parameter(L.tensor([0.1, -0.2], dtype=dtype))
    opt = getattr(L.optim, name)([{"params": [w]}, {"params": [b], "lr": 0.01}], **kwargs)
    x = L.tensor(np.linspace(-1, 1.7, 12).reshape(4, 3) ** 2, dtype=dtype)
    for _ in range(steps):
        opt.zero_grad()
        loss = ((x @ w.t() + b).tanh() ** 2).sum()
        loss.backward()
        opt.step()
    return w, b, opt


@given(st.sampled_from(CASES), st.lists(st.floats(-2, 2), min_size=6, max_size=6),
       st.sampled_from(["float64", "float32"]))
@SETTINGS
def test_parameters_after_steps_are_torchs(case: tuple, start: list, dtype: str) -> None:
    name, kwargs = case
    got = _train(mt, name, kwargs, start, dtype)
    want = _train(torch, name, kwargs, start, dtype)
    for a, b in zip(got[:2], want[:2]):
        assert_same(a.detach(), b.detach())
    for key, value in want[2].state[want[1]].items():
        assert_same(got[2].state[got[1]][key], value, key)


@pytest.mark.parametrize("case", CASES)
def test_optimizers_print_like_torch(case: tuple) -> None:
    name, kwargs = case
    made = [getattr(L.optim, name)([L.nn.Parameter(L.ones(1))], **kwargs) for L in (mt, torch)]
    assert repr(made[0]) == repr(made[1])


@pytest.mark.parametrize("call", [
    lambda L, p: L.optim.Adam(p, betas=(1.0, 0.9)),
    lambda L, p: L.optim.Adam(p, betas=(0.9, -0.1)),
    lambda L, p: L.optim.AdamW(p, lr=-1),
    lambda L, p: L.optim.Adam(p, eps=-1),
    lambda L, p: L.optim.RMSprop(p, alpha=-1),
    lambda L, p: L.optim.RMSprop(p, momentum=-0.5),
    lambda L, p: L.optim.Adagrad(p, lr_decay=-1),
])
def test_bad_settings_raise_torchs_errors(call) -> None:
    want = raised_by(lambda L: call(L, [L.nn.Parameter(L.ones(1))]), torch)
    assert want is not None
    assert_same_error(raised_by(lambda L: call(L, [L.nn.Parameter(L.ones(1))]), mt), want)


@given(st.sampled_from(CASES[:5]))
@FEW
def test_state_dict_resumes_training_like_torch(case: tuple) -> None:
    name, kwargs = case
    w, b, opt = _train(mt, name, kwargs, [0.5] * 6, "float64", steps=3)
    saved = opt.state_dict()
    fresh = getattr(mt.optim, name)([{"params": [w]}, {"params": [b], "lr": 0.01}], **kwargs)
    fresh.load_state_dict(saved)
    assert repr(fresh) == repr(opt)
    assert set(fresh.state[w]) == set(opt.state[w])
