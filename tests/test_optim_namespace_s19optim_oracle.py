"""``optim``'s namespace against torch's (programs print ``dir(torch.optim)``), and the names
it adds: SparseAdam's checks and refusals, Muon's steps and checks, and
``swap_in_optimizer_params_and_state``."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import FEW, assert_same_error, numpy_of, raised_by

import minitorch as mt


def test_dir_of_optim_is_torchs():
    assert sorted(dir(mt.optim)) == sorted(dir(torch.optim))
    assert sorted(mt.optim.__all__) == sorted(torch.optim.__all__)


@pytest.mark.parametrize("name", ["adam", "sgd", "optimizer", "_adafactor", "_muon",
                                  "sparse_adam", "_stateless", "_functional"])
def test_submodules_stay_importable(name):
    module = importlib.import_module(f"minitorch.optim.{name}")
    assert module.__name__ == f"minitorch.optim.{name}"


def test_swap_function_named_in_optim():
    assert mt.optim.swap_in_optimizer_params_and_state.__module__ == "minitorch.optim"
    assert torch.optim.swap_in_optimizer_params_and_state.__module__ == "torch.optim"


# ------------------------------------------------------------------------------ SparseAdam

SPARSE_ADAM_BAD = [{"lr": -1.0}, {"lr": 0.0}, {"eps": 0.0}, {"betas": (1.0, 0.5)},
                   {"betas": (0.5, -1.0)}, {"lr": "a"}]


@pytest.mark.parametrize("kwargs", SPARSE_ADAM_BAD)
def test_sparse_adam_settings_refused_as_torch(kwargs):
    def make(L):
        return L.optim.SparseAdam([L.nn.Parameter(L.ones(2))], **kwargs)
    assert_same_error(raised_by(make, mt), raised_by(make, torch))


def test_sparse_adam_refuses_dense_gradients_and_skips_gradless():
    out = {}
    for L in (mt, torch):
        p, q = L.nn.Parameter(L.ones(2)), L.nn.Parameter(L.ones(3))
        opt = L.optim.SparseAdam([p, q], lr=0.1)
        assert opt.step() is None  # no gradients: nothing to refuse
        q.grad = L.ones(3)
        out[L] = (raised_by(lambda L, opt=opt: opt.step(), L), opt.defaults, repr(opt),
                  dict(opt.state))
    assert_same_error(out[mt][0], out[torch][0])
    assert out[mt][1:] == out[torch][1:]


# ------------------------------------------------------------------------------------ Muon

def _muon_steps(L, start, grads, kwargs):
    p = L.nn.Parameter(L.tensor(start.copy()))
    opt = L.optim.Muon([p], **kwargs)
    for g in grads:
        p.grad = L.tensor(g.copy())
        opt.step()
    return p, opt


@FEW
@given(rows=st.integers(1, 8), cols=st.integers(1, 8), seed=st.integers(0, 2**16),
       nesterov=st.booleans(), fn=st.sampled_from([None, "original", "match_rms_adamw"]))
def test_muon_steps_bit_for_bit_on_small_float32(rows, cols, seed, nesterov, fn):
    rng = np.random.default_rng(seed)
    start = rng.standard_normal((rows, cols)).astype(np.float32)
    grads = [rng.standard_normal((rows, cols)).astype(np.float32) for _ in range(4)]
    kwargs = {"lr": 0.05, "nesterov": nesterov, "adjust_lr_fn": fn, "weight_decay": 0.2}
    (got, got_opt), (want, want_opt) = (_muon_steps(L, start, grads, kwargs) for L in (mt, torch))
    np.testing.assert_array_equal(numpy_of(got), numpy_of(want))
    np.testing.assert_array_equal(numpy_of(got_opt.state[got]["momentum_buffer"]),
                                  numpy_of(want_opt.state[want]["momentum_buffer"]))


@pytest.mark.parametrize("shape", [(16, 32), (40, 8), (33, 33)])
def test_muon_steps_bit_for_bit_on_wider_matrices(shape):
    rng = np.random.default_rng(1)
    start = rng.standard_normal(shape).astype(np.float32)
    grads = [rng.standard_normal(shape).astype(np.float32) for _ in range(3)]
    got, want = (_muon_steps(L, start, grads, {"lr": 0.02})[0] for L in (mt, torch))
    np.testing.assert_array_equal(numpy_of(got), numpy_of(want))


def test_muon_defaults_and_repr_as_torch():
    got, want = (L.optim.Muon([L.nn.Parameter(L.ones(2, 2))]) for L in (mt, torch))
    assert got.defaults == want.defaults
    assert repr(got) == repr(want)


MUON_BAD = [
    ({}, (3,)), ({}, (2, 2, 2)), ({"lr": -0.1}, (2, 2)), ({"momentum": -1.0}, (2, 2)),
    ({"weight_decay": -1.0}, (2, 2)), ({"adjust_lr_fn": "bad"}, (2, 2)),
]


@pytest.mark.parametrize("kwargs, shape", MUON_BAD)
def test_muon_refusals_as_torch(kwargs, shape):
    def make(L):
        return L.optim.Muon([L.nn.Parameter(L.ones(*shape))], **kwargs)
    assert_same_error(raised_by(make, mt), raised_by(make, torch))


@pytest.mark.parametrize("kwargs", [{"ns_steps": 100}, {"ns_coefficients": (1.0, 2.0)}])
def test_muon_step_refusals_as_torch(kwargs):
    def step(L):
        p = L.nn.Parameter(L.ones(2, 2))
        opt = L.optim.Muon([p], **kwargs)
        p.grad = L.ones(2, 2)
        opt.step()
    assert_same_error(raised_by(step, mt), raised_by(step, torch))


# ------------------------------------------------------- swap_in_optimizer_params_and_state

def _swapped_sgd(L):
    p = L.nn.Parameter(L.tensor([1.0, 2.0]))
    opt = L.optim.SGD([p], lr=0.5, momentum=0.9)
    p.grad = L.tensor([1.0, -1.0])
    opt.step()
    saved = opt.state_dict()
    saved["param_groups"][0]["lr"] = 0.1
    q = L.nn.Parameter(L.tensor([0.0, 0.0]))
    q.grad = L.tensor([2.0, 3.0])
    params, groups = opt.param_groups[0]["params"], opt.param_groups
    with L.optim.swap_in_optimizer_params_and_state(opt, {"q": q}, saved):
        inside = (opt.param_groups[0]["lr"], opt.param_groups[0]["params"][0] is q)
        opt.step()
    after = (opt.param_groups[0]["lr"], opt.param_groups[0]["params"] is params,
             opt.param_groups is groups, opt.state[p]["momentum_buffer"].tolist())
    return q, p, inside, after


def test_swap_in_steps_the_swapped_params_and_restores():
    (gq, gp, *got), (wq, wp, *want) = _swapped_sgd(mt), _swapped_sgd(torch)
    assert got == want
    np.testing.assert_array_equal(numpy_of(gq), numpy_of(wq))
    np.testing.assert_array_equal(numpy_of(gp), numpy_of(wp))


def _swap_error(change):
    def run(L):
        p = L.nn.Parameter(L.ones(2))
        opt = L.optim.SGD([p], lr=0.1, momentum=0.9)
        p.grad = L.ones(2)
        opt.step()
        saved = change(opt.state_dict())
        with L.optim.swap_in_optimizer_params_and_state(opt, {"p": L.zeros(2)}, saved):
            pass
    return run


SWAP_BAD = [
    lambda sd: [],
    lambda sd: {**sd, "state": []},
    lambda sd: {**sd, "state": {0: 1}},
    lambda sd: {**sd, "param_groups": ()},
    lambda sd: {**sd, "param_groups": []},
    lambda sd: {**sd, "param_groups": [1]},
    lambda sd: {**sd, "param_groups": [{**sd["param_groups"][0], "params": ["a"]}]},
    lambda sd: {**sd, "param_groups": [{**sd["param_groups"][0], "params": [0, 1]}]},
    lambda sd: {**sd, "param_groups": [{**sd["param_groups"][0], "extra": 1}]},
    lambda sd: {**sd, "state": {**sd["state"], 5: {}}},
]


@pytest.mark.parametrize("change", SWAP_BAD)
def test_swap_in_refusals_as_torch(change):
    assert_same_error(raised_by(_swap_error(change), mt), raised_by(_swap_error(change), torch))


def test_swap_in_refuses_uninitialized_state_as_torch():
    def run(L):
        opt = L.optim.SGD([L.nn.Parameter(L.ones(2))], lr=0.1)
        with L.optim.swap_in_optimizer_params_and_state(opt, {}, opt.state_dict()):
            pass
    assert_same_error(raised_by(run, mt), raised_by(run, torch))


# ----------------------------------------------------------------------------- _functional

def test_functional_names_are_torchs_that_work():
    # torch's functional forms: minitorch offers sgd, and lists none it cannot run
    forms = {n for n in dir(torch.optim._functional) if n.islower() and n.isidentifier()
             and callable(getattr(torch.optim._functional, n)) and not n.startswith("_")}
    assert forms & set(dir(mt.optim._functional)) == {"sgd"}
    assert mt.optim._functional.__all__ == ["sgd"]


@FEW
@given(seed=st.integers(0, 2**16), momentum=st.sampled_from([0.0, 0.9]),
       nesterov=st.booleans(), maximize=st.booleans(), weight_decay=st.sampled_from([0, 0.1]))
def test_functional_sgd_as_torch(seed, momentum, nesterov, maximize, weight_decay):
    nesterov = nesterov and momentum > 0
    rng = np.random.default_rng(seed)
    start = rng.standard_normal((2, 3)).astype(np.float32)
    grads = [rng.standard_normal((2, 3)).astype(np.float32) for _ in range(3)]
    out = {}
    for L in (mt, torch):
        F = importlib.import_module(f"{L.__name__}.optim._functional")
        p, bufs = L.tensor(start.copy()), [None]
        for g in grads:
            F.sgd([p], [L.tensor(g.copy())], bufs, weight_decay=weight_decay,
                  momentum=momentum, lr=0.1, dampening=0.0, nesterov=nesterov,
                  maximize=maximize)
        out[L] = (numpy_of(p), bufs)
    np.testing.assert_array_equal(out[mt][0], out[torch][0])
    assert (out[mt][1][0] is None) == (out[torch][1][0] is None)
    if out[torch][1][0] is not None:
        np.testing.assert_array_equal(numpy_of(out[mt][1][0]), numpy_of(out[torch][1][0]))


def test_functional_sgd_refuses_grad_scale_as_torch():
    def run(L):
        F = importlib.import_module(f"{L.__name__}.optim._functional")
        F.sgd([L.ones(2)], [L.ones(2)], [None], grad_scale=L.ones(()), weight_decay=0,
              momentum=0, lr=0.1, dampening=0, nesterov=False, maximize=False)
    assert_same_error(raised_by(run, mt), raised_by(run, torch))


@pytest.mark.parametrize("name", ["Adafactor", "Muon", "SparseAdam", "Adam",
                                  "swap_in_optimizer_params_and_state"])
def test_public_names_say_torchs_module(name):
    got, want = getattr(mt.optim, name).__module__, getattr(torch.optim, name).__module__
    assert got.replace("minitorch", "torch", 1) == want
