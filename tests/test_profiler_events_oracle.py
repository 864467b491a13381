"""The profiler's events are torch 2.13's: names, counts, nesting and recorded shapes.

A program that prints a profile (``key_averages()`` keys and counts, ``table()`` rows,
``events()`` with ``cpu_parent``, ``record_shapes`` input shapes) prints what torch prints,
times aside. Each case builds its tensors outside the profile and returns the step that is
profiled; the step runs under ``torch`` and under ``minitorch`` and three things are compared:

- ``keys``: sorted ``(key, count)`` of ``key_averages()``;
- ``chains``: each event's chain of names up to the top (``cpu_parent``), sorted;
- ``shapes``: each event's name with its ``input_shapes`` (``record_shapes=True``), sorted.

Cases known to differ are listed per aspect (``KNOWN_DIFFERENT``) with the reason, and are
strict xfails, so a fix is noticed. ``python tests/test_profiler_events_oracle.py`` prints
how many cases match.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
import torch

import minitorch as mt

Step = Callable[[], Any]
Case = Callable[[Any], Step]


def _x(L: Any, *shape: int, grad: bool = False) -> Any:
    """A tensor of ``shape`` filled 0.1, 0.2, ... (same values in both libraries)."""
    n = 1
    for s in shape:
        n *= s
    return L.tensor([0.1 * (i % 7 + 1) - 0.3 for i in range(n)]).reshape(shape).detach() \
        .requires_grad_(grad)


def _backward(L: Any, f: Callable[[Any], Any], *shape: int) -> Step:
    """The step ``f(x).sum().backward()`` on a leaf of ``shape`` (the forward included)."""
    x = _x(L, *shape, grad=True)
    return lambda: f(x).sum().backward()


CASES: dict[str, Case] = {
    # creation
    "randn": lambda L: lambda: L.randn(2, 3),
    "zeros": lambda L: lambda: L.zeros(2, 3),
    "ones": lambda L: lambda: L.ones(2, 3),
    "tensor": lambda L: lambda: L.tensor([1.0, 2.0]),
    "arange": lambda L: lambda: L.arange(5),
    "zeros_like": lambda L: (lambda x: lambda: L.zeros_like(x))(_x(L, 2, 3)),
    "ones_like": lambda L: (lambda x: lambda: L.ones_like(x))(_x(L, 2, 3)),
    "randn_like": lambda L: (lambda x: lambda: L.randn_like(x))(_x(L, 2, 3)),
    # pointwise
    "add": lambda L: (lambda x: lambda: x + x)(_x(L, 2, 3)),
    "add scalar": lambda L: (lambda x: lambda: x + 1.0)(_x(L, 2, 3)),
    "sub": lambda L: (lambda x: lambda: x - x)(_x(L, 2, 3)),
    "rsub scalar": lambda L: (lambda x: lambda: 1.0 - x)(_x(L, 2, 3)),
    "mul broadcast": lambda L: (lambda x, y: lambda: x * y)(_x(L, 2, 3), _x(L, 3)),
    "div scalar": lambda L: (lambda x: lambda: x / 2)(_x(L, 2, 3)),
    "neg": lambda L: (lambda x: lambda: -x)(_x(L, 2, 3)),
    "pow 2": lambda L: (lambda x: lambda: x ** 2)(_x(L, 2, 3)),
    "pow tensor": lambda L: (lambda x: lambda: x.abs() ** x)(_x(L, 2, 3)),
    "exp log": lambda L: (lambda x: lambda: x.exp().log())(_x(L, 2, 3)),
    "sigmoid tanh relu": lambda L: (lambda x: lambda: x.sigmoid().tanh().relu())(_x(L, 2, 3)),
    "add_ mul_": lambda L: (lambda x: lambda: x.add_(1.0).mul_(x))(_x(L, 2, 3)),
    "zero_ fill_": lambda L: (lambda x: lambda: x.zero_().fill_(2.0))(_x(L, 2, 3)),
    # products
    "mm": lambda L: (lambda a, b: lambda: a.mm(b))(_x(L, 2, 3), _x(L, 3, 4)),
    "matmul 2d": lambda L: (lambda a, b: lambda: a @ b)(_x(L, 2, 3), _x(L, 3, 4)),
    "matmul 1d": lambda L: (lambda a: lambda: a @ a)(_x(L, 3)),
    "matmul 2d@1d": lambda L: (lambda a, b: lambda: a @ b)(_x(L, 2, 3), _x(L, 3)),
    "matmul 3d": lambda L: (lambda a, b: lambda: a @ b)(_x(L, 2, 2, 3), _x(L, 2, 3, 4)),
    "bmm": lambda L: (lambda a, b: lambda: a.bmm(b))(_x(L, 2, 2, 3), _x(L, 2, 3, 4)),
    # views
    "view": lambda L: (lambda x: lambda: x.view(3, 2))(_x(L, 2, 3)),
    "reshape view": lambda L: (lambda x: lambda: x.reshape(-1))(_x(L, 2, 3)),
    "reshape copy": lambda L: (lambda x: lambda: x.t().reshape(-1))(_x(L, 2, 3)),
    "t": lambda L: (lambda x: lambda: x.t())(_x(L, 2, 3)),
    "transpose": lambda L: (lambda x: lambda: x.transpose(0, 1))(_x(L, 2, 3)),
    "permute": lambda L: (lambda x: lambda: x.permute(1, 0))(_x(L, 2, 3)),
    "expand": lambda L: (lambda x: lambda: x.expand(2, 3))(_x(L, 1, 3)),
    "squeeze unsqueeze": lambda L: (lambda x: lambda: x.unsqueeze(0).squeeze(0))(_x(L, 2, 3)),
    "slice": lambda L: (lambda x: lambda: x[1:])(_x(L, 2, 3)),
    "select": lambda L: (lambda x: lambda: x[1])(_x(L, 2, 3)),
    "index tensor": lambda L: (lambda x, i: lambda: x[i])(_x(L, 3, 2), L.tensor([0, 2])),
    "flatten": lambda L: (lambda x: lambda: x.flatten())(_x(L, 2, 3)),
    "contiguous": lambda L: (lambda x: lambda: x.t().contiguous())(_x(L, 2, 3)),
    "clone detach": lambda L: (lambda x: lambda: x.clone().detach())(_x(L, 2, 3)),
    # reductions
    "sum": lambda L: (lambda x: lambda: x.sum())(_x(L, 2, 3)),
    "sum dim": lambda L: (lambda x: lambda: x.sum(dim=1))(_x(L, 2, 3)),
    "mean": lambda L: (lambda x: lambda: x.mean())(_x(L, 2, 3)),
    "mean dim": lambda L: (lambda x: lambda: x.mean(0))(_x(L, 2, 3)),
    "max": lambda L: (lambda x: lambda: x.max())(_x(L, 2, 3)),
    "max dim": lambda L: (lambda x: lambda: x.max(dim=1))(_x(L, 2, 3)),
    "min": lambda L: (lambda x: lambda: x.min())(_x(L, 2, 3)),
    "argmax": lambda L: (lambda x: lambda: x.argmax())(_x(L, 2, 3)),
    "argmax dim": lambda L: (lambda x: lambda: x.argmax(dim=1))(_x(L, 2, 3)),
    # softmax and losses
    "softmax": lambda L: (lambda x: lambda: x.softmax(-1))(_x(L, 2, 3)),
    "log_softmax": lambda L: (lambda x: lambda: x.log_softmax(-1))(_x(L, 2, 3)),
    "cross_entropy": lambda L: (lambda x, t: lambda: L.nn.functional.cross_entropy(x, t))(
        _x(L, 2, 3), L.tensor([0, 2])),
    "mse_loss": lambda L: (lambda x, y: lambda: L.nn.functional.mse_loss(x, y))(
        _x(L, 2, 3), _x(L, 2, 3)),
    "nll_loss": lambda L: (lambda x, t: lambda: L.nn.functional.nll_loss(x, t))(
        _x(L, 2, 3), L.tensor([0, 2])),
    # conversions
    "item": lambda L: (lambda x: lambda: x.item())(_x(L, 1)),
    "to float64": lambda L: (lambda x: lambda: x.to(L.float64))(_x(L, 2, 3)),
    "float of int": lambda L: (lambda x: lambda: x.float())(L.arange(3)),
    "float of float": lambda L: (lambda x: lambda: x.float())(_x(L, 2)),
    # backward
    "backward add mul": lambda L: _backward(L, lambda x: x * x + x, 2, 3),
    "backward sub div": lambda L: _backward(L, lambda x: (x - 1.0) / (x + 2.0), 2, 3),
    "backward pow exp log": lambda L: _backward(L, lambda x: (x ** 2).exp().log(), 2, 3),
    "backward sigmoid tanh relu": lambda L: _backward(L, lambda x: x.sigmoid().tanh().relu(), 2, 3),
    "backward matmul": lambda L: _backward(L, lambda x: x @ x.t(), 2, 3),
    "backward matmul 1d": lambda L: _backward(L, lambda x: x @ x, 3),
    "backward bmm": lambda L: _backward(L, lambda x: x.bmm(x.transpose(1, 2)), 2, 2, 3),
    "backward views": lambda L: _backward(
        L, lambda x: x.view(3, 2).t().unsqueeze(0).expand(2, 2, 3).permute(0, 2, 1), 2, 3),
    "backward slice select": lambda L: _backward(L, lambda x: x[1:, 0] * x[0, :2], 3, 3),
    "backward reshape copy": lambda L: _backward(L, lambda x: x.t().reshape(-1), 2, 3),
    "backward sum dim mean": lambda L: (lambda x: lambda: x.sum(dim=1).mean().backward())(
        _x(L, 2, 3, grad=True)),
    "backward max": lambda L: (lambda x: lambda: x.max().backward())(_x(L, 2, 3, grad=True)),
    "backward max dim": lambda L: _backward(L, lambda x: x.max(dim=1).values, 2, 3),
    "backward softmax": lambda L: _backward(L, lambda x: x.softmax(-1) * x, 2, 3),
    "backward log_softmax": lambda L: _backward(L, lambda x: x.log_softmax(-1) * x, 2, 3),
    "backward cross_entropy": lambda L: (lambda x, t: lambda: L.nn.functional.cross_entropy(
        x, t).backward())(_x(L, 2, 3, grad=True), L.tensor([0, 2])),
    "backward mse_loss": lambda L: (lambda x, y: lambda: L.nn.functional.mse_loss(
        x, y).backward())(_x(L, 2, 3, grad=True), _x(L, 2, 3)),
}


def _module_cases() -> dict[str, Case]:
    """nn layers and optimizers: seeded so both libraries build the same parameters."""

    def linear(L: Any) -> Step:
        L.manual_seed(0)
        m, x = L.nn.Linear(3, 2), _x(L, 4, 3)
        return lambda: m(x).sum().backward()

    def conv(L: Any) -> Step:
        L.manual_seed(0)
        m, x = L.nn.Conv2d(1, 2, 3), _x(L, 1, 1, 5, 5)
        return lambda: m(x).sum().backward()

    def pool(L: Any) -> Step:
        m, x = L.nn.MaxPool2d(2), _x(L, 1, 1, 4, 4, grad=True)
        return lambda: m(x).sum().backward()

    def batchnorm(L: Any) -> Step:
        m, x = L.nn.BatchNorm2d(2), _x(L, 2, 2, 2, 2)
        return lambda: m(x).sum().backward()

    def sgd(L: Any) -> Step:
        L.manual_seed(0)
        m = L.nn.Linear(3, 2)
        opt = L.optim.SGD(m.parameters(), lr=0.1)
        m(_x(L, 4, 3)).sum().backward()
        return opt.step

    def adam(L: Any) -> Step:
        L.manual_seed(0)
        m = L.nn.Linear(3, 2)
        opt = L.optim.Adam(m.parameters(), lr=0.1, foreach=False)
        m(_x(L, 4, 3)).sum().backward()
        return opt.step

    def issue_program(L: Any) -> Step:
        x, w = _x(L, 4, 5, grad=True), _x(L, 5, 3, grad=True)

        def step() -> None:
            y = (x @ w).relu()
            z = y.sum(dim=1).mean()
            x.t()[1:3].reshape(-1)
            s = x.softmax(-1).max()
            z.backward()
            (s * 2).backward()

        return step

    return {"nn.Linear": linear, "nn.Conv2d": conv, "nn.MaxPool2d": pool,
            "nn.BatchNorm2d": batchnorm, "optim.SGD step": sgd, "optim.Adam step": adam,
            "issue #20 program": issue_program}


CASES.update(_module_cases())


def _profile(L: Any, case: Case) -> Any:
    step = case(L)
    with L.profiler.profile(activities=[L.profiler.ProfilerActivity.CPU],
                            record_shapes=True) as prof:
        step()
    return prof


def _chain(e: Any) -> tuple[str, ...]:
    names = []
    while e is not None:
        names.append(e.name)
        e = e.cpu_parent
    return tuple(reversed(names))


def aspects(L: Any, case: Case) -> dict[str, list]:
    """What a program printing the profile of ``case`` sees, per aspect (times aside)."""
    prof = _profile(L, case)
    events = prof.events()
    return {"keys": sorted((e.key, e.count) for e in prof.key_averages()),
            "chains": sorted(_chain(e) for e in events),
            "shapes": sorted((e.name, str(e.input_shapes)) for e in events)}


_LAYERS = {
    "nn.Conv2d": "torch's conv2d > convolution > _convolution > thnn_conv2d > "
                 "_slow_conv2d_forward and one convolution_backward; minitorch's convolution "
                 "is an im2col of slices and a matmul, whose ops it records",
    "nn.MaxPool2d": "torch's max_pool2d > max_pool2d_with_indices and one "
                    "max_pool2d_with_indices_backward; minitorch's pooling is built of "
                    "select/add/mul ops, which it records",
    "nn.BatchNorm2d": "torch's batch_norm > _batch_norm_impl_index > native_batch_norm and "
                      "one native_batch_norm_backward; minitorch's batch norm is built of "
                      "mean/var/sub/mul ops, which it records",
    "optim.Adam step": "torch's Adam (foreach=False) records about 90 ops per step (lerp_, "
                       "addcmul_, the step count's item, ...); minitorch's Adam updates the "
                       "arrays directly and records only the Optimizer.step block",
}

_BIAS_SUM = ("torch's engine sums the bias gradient to the bias's shape (aten::sum, "
             "aten::view in evaluate_function) after AddmmBackward0 returns it "
             "(validate_outputs); minitorch's node sums it inside, on arrays, unrecorded")

KNOWN_DIFFERENT: dict[str, dict[str, str]] = {
    "keys": {**_LAYERS, "nn.Linear": _BIAS_SUM},
    "chains": {**_LAYERS, "nn.Linear": _BIAS_SUM},
    "shapes": {},
}
"""Per aspect, the cases that still differ from torch, with why."""

SHAPES_MATCH = {"add", "add scalar", "sub", "mul broadcast", "div scalar", "neg", "exp log",
                "add_ mul_", "zero_ fill_", "view", "reshape view", "flatten", "min", "max",
                "matmul 1d"}
"""The cases whose recorded shapes are torch's. torch records the arguments of every event,
also of those inside an op (``aten::as_strided``'s view of the input, ``aten::fill_``'s
output, ``aten::resolve_conj``'s operands); minitorch records the arguments of the ops it
runs and of composite ops, and ``[]`` for each argument of the events its table adds."""
KNOWN_DIFFERENT["shapes"] = {
    name: "inner events record [] for each argument where torch records their shapes"
    for name in CASES if name not in SHAPES_MATCH}

_cache: dict[str, tuple[dict, dict]] = {}


def _both(name: str) -> tuple[dict, dict]:
    if name not in _cache:
        _cache[name] = aspects(torch, CASES[name]), aspects(mt, CASES[name])
    return _cache[name]


def _params(aspect: str) -> list:
    known = KNOWN_DIFFERENT[aspect]
    return [pytest.param(name, marks=pytest.mark.xfail(reason=known[name], strict=True))
            if name in known else name for name in CASES]


def _diff(want: list, got: list) -> str:
    missing, extra = Counter(map(str, want)) - Counter(map(str, got)), \
        Counter(map(str, got)) - Counter(map(str, want))
    return f"torch only: {sorted(missing)}\nminitorch only: {sorted(extra)}"


@pytest.mark.parametrize("name", _params("keys"))
def test_key_averages_keys_and_counts(name: str) -> None:
    want, got = _both(name)
    assert got["keys"] == want["keys"], _diff(want["keys"], got["keys"])


@pytest.mark.parametrize("name", _params("chains"))
def test_events_nest_as_torchs(name: str) -> None:
    want, got = _both(name)
    assert got["chains"] == want["chains"], _diff(want["chains"], got["chains"])


@pytest.mark.parametrize("name", _params("shapes"))
def test_recorded_input_shapes(name: str) -> None:
    want, got = _both(name)
    assert got["shapes"] == want["shapes"], _diff(want["shapes"], got["shapes"])


def main() -> None:
    """Print, per aspect, how many cases match torch, and the first difference of the rest."""
    matched = Counter()
    for name in CASES:
        want, got = _both(name)
        same = [a for a in want if want[a] == got[a]]
        matched.update(same)
        if len(same) == len(want):
            matched["all"] += 1
        elif "-v" in sys.argv:
            for a in want:
                if want[a] != got[a]:
                    print(f"--- {name} [{a}]\n{_diff(want[a], got[a])}")
    print(f"{len(CASES)} cases; match: " + ", ".join(f"{a} {matched[a]}" for a in
                                                      ("keys", "chains", "shapes", "all")))


if __name__ == "__main__":
    main()
