"""Bad input found by the s22 nn/optim fuzz, against torch: optimizer settings edited into
``param_groups`` that are no number, weight_norm of a vector, and the total norm of
gradients as torch's default foreach path takes it."""

from __future__ import annotations

import math
import warnings
from typing import Any

import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same, assert_same_error, raised_by

SETTINGS = {
    "SGD": ["lr", "momentum", "dampening", "weight_decay"],
    "Adam": ["lr", "eps", "weight_decay", "betas"],
    "AdamW": ["lr", "eps", "weight_decay", "betas"],
    "RMSprop": ["lr", "alpha", "eps", "weight_decay", "momentum"],
    "Adagrad": ["lr", "lr_decay", "weight_decay", "eps"],
    "Adamax": ["lr", "eps", "weight_decay", "betas"],
    "NAdam": ["lr", "eps", "weight_decay", "momentum_decay", "betas"],
    "RAdam": ["lr", "eps", "weight_decay", "betas"],
    "Rprop": ["lr", "etas", "step_sizes"],
    "Adadelta": ["lr", "rho", "eps", "weight_decay"],
    "ASGD": ["lr", "lambd", "alpha", "t0", "weight_decay"],
}
NOT_NUMBERS = {"str": "x", "none": None, "list": [0.1], "nan": math.nan, "int": 1}
CASES = [(name, key, kind, extra) for name, keys in SETTINGS.items() for key in keys
         for kind in NOT_NUMBERS
         for extra in ([{}, {"momentum": 0.9}] if name in ("SGD", "RMSprop") else [{}])]


def _steps(lib: Any, name: str, key: str, value: Any, extra: dict, steps: int = 7) -> list:
    w = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
    opt = getattr(lib.optim, name)([w], lr=0.1, **extra)
    opt.param_groups[0][key] = value
    out = []
    for _ in range(steps):  # RAdam reads eps only from its 6th step
        w.grad = lib.tensor([0.5, -1.0, 0.25])
        opt.step()
        out.append(w.detach().clone())
    return out


@pytest.mark.parametrize(("name", "key", "kind", "extra"), CASES)
def test_a_setting_that_is_no_number_fails_as_in_torch(name: str, key: str, kind: str,
                                                        extra: dict) -> None:
    value = NOT_NUMBERS[kind]
    want = raised_by(lambda L: _steps(L, name, key, value, extra), torch)
    got = raised_by(lambda L: _steps(L, name, key, value, extra), mt)
    if want is None:
        assert got is None, got
        for a, b in zip(_steps(mt, name, key, value, extra),
                        _steps(torch, name, key, value, extra)):
            assert_same(a, b)
    else:
        assert_same_error(got, want)


def _vector_norm(lib: Any, name: str, dim: Any, new_api: bool) -> tuple:
    lin = lib.nn.Linear(3, 2)
    with lib.no_grad():
        lin.bias.copy_(lib.tensor([3.0, -4.0]))
        lin.weight.copy_(lib.arange(6.0).reshape(2, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if new_api:
            m = lib.nn.utils.parametrizations.weight_norm(lin, name=name, dim=dim)
            ps = m.parametrizations[name]
            return getattr(m, name), ps.original0, ps.original1
        m = lib.nn.utils.weight_norm(lin, name=name, dim=dim)
        return getattr(m, name), getattr(m, name + "_g"), getattr(m, name + "_v")


@pytest.mark.parametrize("new_api", [False, True])
@pytest.mark.parametrize("dim", [0, -1, None, 1])
@pytest.mark.parametrize("name", ["bias", "weight"])
def test_weight_norm_of_a_vector_keeps_one_norm_per_element(name: str, dim: Any,
                                                            new_api: bool) -> None:
    want = raised_by(lambda L: _vector_norm(L, name, dim, new_api), torch)
    if want is not None:
        assert_same_error(raised_by(lambda L: _vector_norm(L, name, dim, new_api), mt), want)
        return
    for a, b in zip(_vector_norm(mt, name, dim, new_api), _vector_norm(torch, name, dim,
                                                                          new_api)):
        assert_same(a, b)


def _total_norm(lib: Any, norm_type: float, foreach: Any, dtypes: tuple) -> Any:
    tensors = [lib.ones(2, dtype=getattr(lib, dtypes[0])),
               lib.ones(0, dtype=getattr(lib, dtypes[1]))]
    return lib.nn.utils.get_total_norm(tensors, norm_type, foreach=foreach)


@pytest.mark.parametrize("dtypes", [("float32", "float32"), ("int64", "float32"),
                                    ("float32", "int64"), ("float32", "float64")])
@pytest.mark.parametrize("foreach", [None, True, False])
@pytest.mark.parametrize("norm_type", [math.inf, -math.inf, 2.0, 0.0])
def test_total_norm_with_an_empty_gradient(norm_type: float, foreach: Any,
                                           dtypes: tuple) -> None:
    want = raised_by(lambda L: _total_norm(L, norm_type, foreach, dtypes), torch)
    if want is not None:
        assert_same_error(raised_by(lambda L: _total_norm(L, norm_type, foreach, dtypes), mt),
                          want)
    else:
        assert_same(_total_norm(mt, norm_type, foreach, dtypes),
                    _total_norm(torch, norm_type, foreach, dtypes))


def test_clip_grad_norm_reads_max_norm_after_the_norm() -> None:
    def clip(lib: Any) -> Any:
        a, b = lib.nn.Parameter(lib.ones(2)), lib.nn.Parameter(lib.ones(0))
        a.grad, b.grad = lib.ones(2), lib.ones(0)
        return lib.nn.utils.clip_grad_norm_([a, b], "a", norm_type=-math.inf)

    assert_same_error(raised_by(clip, mt), raised_by(clip, torch))


@pytest.mark.parametrize("beta2", ["a", None, [0.9]])
@pytest.mark.parametrize("name", ["Adam", "AdamW", "Adamax", "NAdam", "RAdam"])
def test_a_second_beta_that_is_no_number_fails_as_in_torch(name: str, beta2: Any) -> None:
    def steps(lib: Any) -> list:
        return _steps(lib, name, "betas", (0.5, beta2), {}, steps=2)

    want = raised_by(steps, torch)
    assert want is not None
    assert_same_error(raised_by(steps, mt), want)
