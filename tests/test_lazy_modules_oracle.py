"""Lazy modules against live torch: d2l builds its networks of ``LazyConv2d``,
``LazyBatchNorm2d`` and ``LazyLinear``. After the same seed, the first forward must draw the
same weights, print the same module, give the same outputs and gradients, and the module
must become the plain layer; misuse gets torch's errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt


def _d2l_lenet(L: Any) -> list[str]:
    """d2l's LeNet with batch norm, built lazily; everything a program would print."""
    L.manual_seed(0)
    nn = L.nn
    net = nn.Sequential(
        nn.LazyConv2d(6, kernel_size=5, padding=2), nn.LazyBatchNorm2d(), nn.Sigmoid(),
        nn.AvgPool2d(kernel_size=2, stride=2),
        nn.LazyConv2d(16, kernel_size=5), nn.LazyBatchNorm2d(), nn.Sigmoid(),
        nn.AvgPool2d(kernel_size=2, stride=2), nn.Flatten(),
        nn.LazyLinear(120), nn.LazyBatchNorm1d(), nn.Sigmoid(), nn.LazyLinear(10))
    before = repr(net)
    x = L.tensor(np.random.default_rng(1).standard_normal((4, 1, 28, 28)).astype(np.float32))
    y = net(x)
    y.sum().backward()
    return [before, repr(net), str(y), str(net[0].weight.grad.sum()), str(net[1].running_var),
            str(net[10].running_mean[:4]), str(sorted(net.state_dict()))]


def test_d2l_lenet_built_lazily_is_torchs() -> None:
    for got, want in zip(_d2l_lenet(mt), _d2l_lenet(torch), strict=True):
        assert got == want


def _program(L: Any, build: Any, shape: tuple) -> list[str]:
    L.manual_seed(3)
    m = build(L)
    out = [repr(m), type(m).__name__]
    try:
        out.append(str(sorted(m.state_dict())))
        y = m(L.ones(*shape))
        out += [type(m).__name__, repr(m), str(y.shape), str(sorted(m.state_dict()))]
    except Exception as e:  # the error is the outcome compared
        out.append(f"{type(e).__name__}: {e}")
    return out


@pytest.mark.parametrize(("build", "shape"), [
    (lambda L: L.nn.LazyConv2d(4, 3, stride=2, padding=1, bias=False), (2, 3, 7, 7)),
    (lambda L: L.nn.LazyConv2d(4, 3, groups=2), (3, 6, 6)),  # unbatched
    (lambda L: L.nn.LazyConv2d(4, 3, groups=2), (1, 3, 6, 6)),  # channels not divisible
    (lambda L: L.nn.LazyConv2d(4, 3), (6, 6)),  # wrong rank
    (lambda L: L.nn.LazyBatchNorm1d(affine=False), (4, 3)),
    (lambda L: L.nn.LazyBatchNorm1d(track_running_stats=False), (4, 3, 5)),
    (lambda L: L.nn.LazyBatchNorm2d(momentum=None), (2, 3, 4, 4)),
    (lambda L: L.nn.LazyBatchNorm2d(), (2, 3, 4)),  # wrong rank
    (lambda L: L.nn.LazyLinear(3, bias=False), (2, 5)),
], ids=["conv_strided", "conv_unbatched", "conv_groups", "conv_rank", "bn1d_no_affine",
        "bn1d_no_stats", "bn2d_cumulative", "bn2d_rank", "linear"])
def test_lazy_modules(build: Any, shape: tuple) -> None:
    assert _program(mt, build, shape) == _program(torch, build, shape)


def test_uninitialized_buffer_refuses_use() -> None:
    def program(L: Any) -> list[str]:
        b = L.nn.UninitializedBuffer()
        out = [repr(b), str(b.requires_grad)]
        for use in (lambda: b + 1, lambda: b.shape, lambda: b.sum()):
            try:
                use()
            except Exception as e:  # the error is the outcome compared
                out.append(f"{type(e).__name__}: {str(e)[:60]}")
        b.materialize((2,))
        out += [type(b).__name__, str(b.shape)]
        return out
    assert program(mt) == program(torch)
