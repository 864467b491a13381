"""The set-up lines of training scripts, against live torch: ``torch.backends``' switches
(cuDNN's, cuBLAS's, MPS's availability) with torch's checks, the float32 matmul precision,
and ``torch.compile`` (a model that runs eagerly here, wrapped and checked as torch's)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same, assert_same_error, raised_by


@pytest.fixture(autouse=True)
def _restore_switches() -> Any:
    """Each test starts from torch's defaults, in both libraries, and leaves them so: torch's
    compile turns off its distributions' argument checks for the whole process (its graph
    capture cannot trace them), which later tests compare against."""
    validating = torch.distributions.Distribution._validate_args
    yield
    torch.distributions.Distribution.set_default_validate_args(validating)
    for L in (torch, mt):
        L.backends.cudnn.enabled, L.backends.cudnn.benchmark = True, False
        L.backends.cudnn.deterministic, L.backends.cudnn.allow_tf32 = False, True
        L.backends.cuda.matmul.allow_tf32 = False


def _both(call: Any) -> tuple:
    return call(mt), call(torch)


def test_availability_answers_as_torchs_cpu_build() -> None:
    got, want = _both(lambda L: (
        L.backends.cudnn.is_available(), L.backends.cudnn.version(),
        L.backends.cudnn.enabled, L.backends.cudnn.benchmark, L.backends.cudnn.deterministic,
        L.backends.cudnn.allow_tf32, L.backends.cudnn.benchmark_limit,
        L.backends.mps.is_available(), L.backends.mps.is_built(), L.backends.cuda.is_built(),
        L.backends.cuda.matmul.allow_tf32,
        L.backends.cuda.matmul.allow_fp16_reduced_precision_reduction,
        L.backends.mkl.is_available(), L.get_float32_matmul_precision()))
    assert got == want


SWITCHES = [("cudnn", "enabled"), ("cudnn", "benchmark"), ("cudnn", "deterministic"),
            ("cudnn", "allow_tf32"), ("cuda.matmul", "allow_tf32"),
            ("cuda.matmul", "allow_fp16_reduced_precision_reduction"),
            ("cuda.matmul", "allow_bf16_reduced_precision_reduction"),
            ("cuda.matmul", "no_such_switch")]


def _owner(L: Any, path: str) -> Any:
    owner = L.backends
    for part in path.split("."):
        owner = getattr(owner, part)
    return owner


@pytest.mark.parametrize("path, name", SWITCHES)
@pytest.mark.parametrize("value", [True, False, 1, "yes", None, (True, False), (False, True),
                                   (True,), (), (True, True, True), (True, 1)], ids=repr)
def test_switches_take_what_torch_takes(path: str, name: str, value: Any) -> None:
    def flip(L: Any) -> Any:
        setattr(_owner(L, path), name, value)
        return getattr(_owner(L, path), name)

    want = raised_by(flip, torch)
    if want is not None:
        assert_same_error(raised_by(flip, mt), want)
    else:
        assert flip(mt) == flip(torch)


def test_cudnn_flags_set_the_switches_for_a_block_only() -> None:
    def block(L: Any) -> tuple:
        with L.backends.cudnn.flags(enabled=False, deterministic=True):
            inside = (L.backends.cudnn.enabled, L.backends.cudnn.deterministic)
        return inside, (L.backends.cudnn.enabled, L.backends.cudnn.deterministic)

    assert block(mt) == block(torch)


@pytest.mark.parametrize("precision", ["highest", "high", "medium", "low", "", 3, None])
def test_float32_matmul_precision_as_torch(precision: Any) -> None:
    def set_and_read(L: Any) -> tuple:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            L.set_float32_matmul_precision(precision)
        shown = [str(w.message).split(" (Triggered")[0] for w in caught]
        return L.get_float32_matmul_precision(), L.backends.cuda.matmul.allow_tf32, shown

    want = raised_by(set_and_read, torch)
    try:
        if want is not None:
            assert_same_error(raised_by(set_and_read, mt), want)
        else:
            assert set_and_read(mt) == set_and_read(torch)
    finally:
        for L in (torch, mt):
            L.set_float32_matmul_precision("highest")


def _net(L: Any) -> Any:
    L.manual_seed(0)
    return L.nn.Sequential(L.nn.Linear(3, 4), L.nn.Tanh(), L.nn.Linear(4, 2))


def test_a_compiled_module_is_torchs_wrapper_and_trains_as_the_module() -> None:
    def train(L: Any) -> tuple:
        net = _net(L)
        compiled = L.compile(net)
        opt = L.optim.SGD(compiled.parameters(), lr=0.1)
        x = L.tensor(np.linspace(-1, 1, 12).reshape(4, 3), dtype=L.float32)
        for _ in range(3):
            opt.zero_grad()
            loss = compiled(x).pow(2).mean()
            loss.backward()
            opt.step()
        compiled.eval()
        return (type(compiled).__name__, repr(compiled), list(compiled.state_dict()),
                compiled._orig_mod is net, net.training, compiled.training,
                compiled[0].in_features if False else compiled.__len__(), loss.detach(),
                net[0].weight.detach())

    got, want = _both(train)
    assert got[:7] == want[:7]
    assert_same(got[7], want[7], "loss")
    assert_same(got[8], want[8], "weight")


def test_a_compiled_function_keeps_its_name_and_values() -> None:
    def run(L: Any) -> tuple:
        def scaled_sine(x: Any) -> Any:
            return x.sin() * 2

        decorated = L.compile(mode="reduce-overhead")(scaled_sine)
        x = L.linspace(0, 1, 5, requires_grad=True)
        y = L.compile(scaled_sine)(x)
        y.sum().backward()
        return L.compile(scaled_sine).__name__, decorated(x).detach(), x.grad

    got, want = _both(run)
    assert got[0] == want[0]
    assert_same(got[1], want[1], "decorated")
    assert_same(got[2], want[2], "grad")


@pytest.mark.parametrize("call", [
    lambda L: L.compile(lambda x: x, mode="fastest"),
    lambda L: L.compile(lambda x: x, mode="default", options={}),
    lambda L: L.compile(3),
    lambda L: L.compile("model"),
    lambda L: L.nn.Linear(2, 2).compile(mode="nope"),
], ids=["unknown mode", "mode and options", "an int", "a str", "Module.compile's mode"])
def test_compile_refuses_as_torch(call: Any) -> None:
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


def test_module_compile_in_place_returns_none_and_keeps_running() -> None:
    def run(L: Any) -> tuple:
        net = _net(L)
        returned = net.compile()
        return returned, net(L.ones(1, 3)).detach()

    got, want = _both(run)
    assert got[0] is want[0] is None
    assert_same(got[1], want[1], "output")
