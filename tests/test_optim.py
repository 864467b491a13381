"""``minitorch.optim`` against live torch: SGD's update rules, parameter groups, state.

Each test trains the same float64 model with minitorch and with torch (weights copied
through ``state_dict``) and requires the same parameters after every step.
"""

from __future__ import annotations

import doctest
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
from oracle import assert_same, assert_same_error, mt, numpy_of, raised_by

import minitorch
import minitorch.nn
from minitorch.optim import optimizer, sgd

RNG = np.random.default_rng(7)
X = RNG.standard_normal((8, 3))
Y = RNG.standard_normal((8, 2))


def model(L: Any) -> Any:
    return L.nn.Sequential(L.nn.Linear(3, 4), L.nn.Tanh(), L.nn.Linear(4, 2)).double()


def twin_models() -> tuple[Any, Any]:
    ours, theirs = model(mt), model(torch)
    theirs.load_state_dict({k: torch.tensor(numpy_of(v)) for k, v in ours.state_dict().items()})
    return ours, theirs


def loss_of(net: Any, L: Any) -> Any:
    return L.nn.functional.mse_loss(net(L.tensor(X)), L.tensor(Y))


def train(net: Any, opt: Any, L: Any, steps: int) -> list[Any]:
    """Run ``steps`` steps; the parameters after each, as numpy arrays."""
    history = []
    for _ in range(steps):
        opt.zero_grad()
        loss_of(net, L).backward()
        opt.step()
        history.append([numpy_of(p).copy() for p in net.parameters()])
    return history


def assert_same_history(got: list, want: list) -> None:
    for step, (a, b) in enumerate(zip(got, want)):
        for i, (pa, pb) in enumerate(zip(a, b)):
            np.testing.assert_allclose(pa, pb, rtol=1e-10, atol=1e-12,
                                       err_msg=f"step {step}, parameter {i}")


CONFIGS = {
    "plain": {"lr": 0.1},
    "momentum": {"lr": 0.1, "momentum": 0.9},
    "dampening": {"lr": 0.05, "momentum": 0.8, "dampening": 0.3},
    "weight_decay": {"lr": 0.1, "weight_decay": 0.01},
    "nesterov": {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 0.02},
    "maximize": {"lr": 0.01, "momentum": 0.5, "maximize": True},
    "everything": {"lr": 0.2, "momentum": 0.7, "dampening": 0.1, "weight_decay": 0.05},
}


@pytest.mark.parametrize("name", CONFIGS)
def test_sgd_matches_torch_over_five_steps(name: str) -> None:
    ours, theirs = twin_models()
    got = train(ours, mt.optim.SGD(ours.parameters(), **CONFIGS[name]), mt, 5)
    want = train(theirs, torch.optim.SGD(theirs.parameters(), **CONFIGS[name]), torch, 5)
    assert_same_history(got, want)


def test_param_groups_with_their_own_settings_match_torch() -> None:
    def groups(net: Any) -> list[dict]:
        return [{"params": net[0].parameters(), "lr": 0.01, "momentum": 0.5},
                {"params": net[2].parameters()}]

    ours, theirs = twin_models()
    opt = mt.optim.SGD(groups(ours), lr=0.1, momentum=0.9)
    topt = torch.optim.SGD(groups(theirs), lr=0.1, momentum=0.9)
    assert [g["lr"] for g in opt.param_groups] == [g["lr"] for g in topt.param_groups]
    assert_same_history(train(ours, opt, mt, 5), train(theirs, topt, torch, 5))


def test_parameters_without_grad_are_left_alone() -> None:
    ours = model(mt)
    frozen = ours[0].weight
    before = numpy_of(frozen).copy()
    frozen.requires_grad_(False)
    opt = mt.optim.SGD(ours.parameters(), lr=0.5, momentum=0.9, weight_decay=0.1)
    train(ours, opt, mt, 2)
    np.testing.assert_array_equal(numpy_of(frozen), before)
    assert frozen not in opt.state


def test_step_updates_in_place_and_bumps_the_version() -> None:
    net = model(mt)
    weights = [p for p in net.parameters()]
    data = [p._data for p in weights]
    versions = [p._version for p in weights]
    opt = mt.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    train(net, opt, mt, 1)
    assert list(net.parameters()) == weights
    assert all(p._data is d for p, d in zip(weights, data))
    assert all(p._version == v + 1 for p, v in zip(weights, versions))
    assert all(not p.requires_grad or p.grad_fn is None for p in weights)


def test_a_graph_that_saved_a_parameter_fails_after_a_step_as_in_torch() -> None:
    def run(L: Any) -> BaseException | None:
        net = model(L)
        opt = L.optim.SGD(net.parameters(), lr=0.1)
        loss_of(net, L).backward()
        stale = loss_of(net, L)  # saves the weights for its backward
        opt.step()
        return raised_by(lambda _: stale.backward(), L)

    want = run(torch)
    got = run(mt)
    assert want is not None and got is not None
    assert type(got) is type(want)
    assert "modified by an inplace operation" in str(got)


def test_zero_grad_to_none_or_to_zeros() -> None:
    net = model(mt)
    opt = mt.optim.SGD(net.parameters(), lr=0.1)
    loss_of(net, mt).backward()
    grads = [p.grad for p in net.parameters()]
    opt.zero_grad(set_to_none=False)
    assert all(p.grad is g for p, g in zip(net.parameters(), grads))
    assert all(not numpy_of(g).any() for g in grads)
    opt.zero_grad()
    assert all(p.grad is None for p in net.parameters())


def test_step_with_closure_returns_its_loss() -> None:
    ours, theirs = twin_models()
    opt = mt.optim.SGD(ours.parameters(), lr=0.1)
    topt = torch.optim.SGD(theirs.parameters(), lr=0.1)

    def closure(net: Any, o: Any, L: Any) -> Callable[[], Any]:
        def run() -> Any:
            o.zero_grad()
            loss = loss_of(net, L)
            loss.backward()
            return loss
        return run

    with mt.no_grad():  # the closure still records: step enables grad for it
        loss = opt.step(closure(ours, opt, mt))
    tloss = topt.step(closure(theirs, topt, torch))
    assert_same(loss, tloss)
    assert_same_history([[numpy_of(p) for p in ours.parameters()]],
                        [[numpy_of(p) for p in theirs.parameters()]])


def test_state_dict_round_trip_continues_the_same_trajectory() -> None:
    config = CONFIGS["everything"]
    ours, theirs = twin_models()
    topt = torch.optim.SGD(theirs.parameters(), **config)
    want = train(theirs, topt, torch, 5)

    first = mt.optim.SGD(ours.parameters(), **config)
    got = train(ours, first, mt, 2)
    saved = first.state_dict()
    assert list(saved["state"]) == list(topt.state_dict()["state"])
    assert saved["param_groups"][0]["params"] == [0, 1, 2, 3]
    resumed = mt.optim.SGD(ours.parameters(), lr=1.0)  # settings come back from the dict
    resumed.load_state_dict(saved)
    assert resumed.param_groups[0]["lr"] == config["lr"]
    buffer = resumed.state[ours[0].weight]["momentum_buffer"]
    assert buffer is not first.state[ours[0].weight]["momentum_buffer"]
    got += train(ours, resumed, mt, 3)
    assert_same_history(got, want)


def test_load_state_dict_checks_the_groups() -> None:
    net = model(mt)
    saved = mt.optim.SGD(net.parameters(), lr=0.1).state_dict()
    two_groups = mt.optim.SGD([{"params": net[0].parameters()},
                               {"params": net[2].parameters()}], lr=0.1)
    with pytest.raises(ValueError, match="different number of parameter groups"):
        two_groups.load_state_dict(saved)
    smaller = mt.optim.SGD(net[0].parameters(), lr=0.1)
    with pytest.raises(ValueError, match="doesn't match the size"):
        smaller.load_state_dict(saved)


def _leaf(L: Any) -> Any:
    return L.ones(2, requires_grad=True)


ERRORS = {
    "negative_lr": lambda L: L.optim.SGD([_leaf(L)], lr=-0.1),
    "negative_momentum": lambda L: L.optim.SGD([_leaf(L)], lr=0.1, momentum=-1),
    "negative_weight_decay": lambda L: L.optim.SGD([_leaf(L)], lr=0.1, weight_decay=-1),
    "nesterov_without_momentum": lambda L: L.optim.SGD([_leaf(L)], lr=0.1, nesterov=True),
    "nesterov_with_dampening": lambda L: L.optim.SGD([_leaf(L)], lr=0.1, momentum=0.9,
                                                     dampening=0.1, nesterov=True),
    "non_leaf": lambda L: L.optim.SGD([_leaf(L) * 2], lr=0.1),
    "a_tensor": lambda L: L.optim.SGD(_leaf(L), lr=0.1),
    "empty": lambda L: L.optim.SGD([], lr=0.1),
    "not_a_tensor": lambda L: L.optim.SGD([1], lr=0.1),
    "shared_between_groups": lambda L: (lambda p: L.optim.SGD(
        [{"params": [p]}, {"params": p}], lr=0.1))(_leaf(L)),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors_match_torch(name: str) -> None:
    want = raised_by(ERRORS[name], torch)
    assert want is not None, "torch raised nothing: the case is wrong"
    assert_same_error(raised_by(ERRORS[name], mt), want)


def test_defaults_and_repr() -> None:
    opt = mt.optim.SGD([_leaf(mt)], lr=0.1, momentum=0.9)
    topt = torch.optim.SGD([_leaf(torch)], lr=0.1, momentum=0.9)
    assert {k: topt.defaults[k] for k in opt.defaults} == opt.defaults
    assert repr(opt).startswith("SGD (\nParameter Group 0\n    dampening: 0\n")
    assert "    lr: 0.1\n" in repr(opt) and repr(opt).endswith(")")
    assert mt.optim.SGD([_leaf(mt)]).defaults["lr"] == topt.__class__([_leaf(torch)]).defaults[
        "lr"]


def test_base_optimizer_step_is_abstract() -> None:
    opt = mt.optim.Optimizer([_leaf(mt)], {"lr": 0.1})
    with pytest.raises(NotImplementedError):
        opt.step()


@pytest.mark.parametrize("mod", [optimizer, sgd, minitorch.optim], ids=lambda m: m.__name__)
def test_docstring_examples(mod: Any) -> None:
    globs = {"minitorch": minitorch, "nn": minitorch.nn, "optim": minitorch.optim}
    result = doctest.testmod(mod, globs=globs)
    assert result.attempted > 0
    assert result.failed == 0
