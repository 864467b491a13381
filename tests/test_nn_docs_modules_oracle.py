"""The modules of torch.nn's documentation examples that minitorch lacked, against torch:
Bilinear and ``F.bilinear``, PixelShuffle/PixelUnshuffle and their functions, Unfold/Fold,
CosineSimilarity, PairwiseDistance and Softmax2d: printed modules, initial weights, values,
gradients, node names and errors."""

from __future__ import annotations

from typing import Any

import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same, assert_same_error, raised_by


def _check(run: Any) -> None:
    got, want = run(mt), run(torch)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        if isinstance(w, torch.Tensor):
            assert_same(g, w)
        else:
            assert g == w


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("batch", [(), (4,), (2, 3)])
def test_bilinear(bias: bool, batch: tuple) -> None:
    def run(L: Any) -> list[Any]:
        L.manual_seed(0)
        m = L.nn.Bilinear(3, 2, 4, bias=bias).double()
        x1 = L.randn(*batch, 3, dtype=L.float64, requires_grad=True)
        x2 = L.randn(*batch, 2, dtype=L.float64, requires_grad=True)
        out = m(x1, x2)
        out.pow(2).sum().backward()
        grads = [m.weight.grad, x1.grad, x2.grad] + ([m.bias.grad] if bias else [])
        return [repr(m), m.weight, out, *grads]
    _check(run)


@pytest.mark.parametrize("call", [
    "F.bilinear(L.ones(3, 2), L.ones(3, 4, 1), L.ones(5, 2, 4))",
    "F.bilinear(L.ones(3, 2), L.ones(2, 4), L.ones(5, 2, 4))",
    "F.bilinear(L.ones(3, 2), L.ones(3, 4), L.ones(5, 3, 4))",
    "F.bilinear(L.ones(3, 2), L.ones(3, 4), L.ones(5, 2, 3))",
    "F.bilinear(L.ones(3, 2), L.ones(3, 4), L.ones(5, 2, 4), L.ones(4))",
    "F.pixel_shuffle(L.ones(1, 8, 2, 2), 3)",
    "F.pixel_shuffle(L.ones(8, 2), 2)",
    "F.pixel_shuffle(L.ones(1, 9, 2, 2), 0)",
    "F.pixel_unshuffle(L.ones(1, 1, 3, 4), 2)",
    "F.pixel_unshuffle(L.ones(1, 1, 4, 3), 2)",
    "F.pixel_unshuffle(L.ones(1, 1, 4, 4), -1)",
    "F.pixel_unshuffle(L.ones(4, 4), 2)",
    "L.nn.Softmax2d()(L.ones(2, 3))",
])
def test_errors(call: str) -> None:
    def run(L: Any) -> Any:
        return eval(call, {"L": L, "F": L.nn.functional})
    assert_same_error(raised_by(run, mt), raised_by(run, torch))


@pytest.mark.parametrize("shape,r", [((1, 9, 2, 3), 3), ((2, 3, 8, 2, 2), 2), ((4, 1, 1), 2)])
def test_pixel_shuffle_and_unshuffle(shape: tuple, r: int) -> None:
    def run(L: Any) -> list[Any]:
        L.manual_seed(1)
        x = L.randn(*shape, requires_grad=True)
        up = L.nn.PixelShuffle(r)(x)
        down = L.nn.PixelUnshuffle(r)(up)
        (up * L.arange(up.numel()).view(up.shape)).sum().backward()
        return [repr(L.nn.PixelShuffle(r)), repr(L.nn.PixelUnshuffle(r)), up,
                up.grad_fn.name(), down.grad_fn.name(), L.equal(down, x), x.grad]
    _check(run)


def test_unfold_fold_modules() -> None:
    def run(L: Any) -> list[Any]:
        L.manual_seed(2)
        nn = L.nn
        unfold = nn.Unfold(kernel_size=(2, 3), padding=1, stride=(1, 2))
        fold = nn.Fold(output_size=(4, 5), kernel_size=2, dilation=(1, 2))
        x = L.randn(2, 5, 3, 4)
        cols = L.randn(1, 3 * 2 * 2, 9)
        return [repr(unfold), repr(fold), repr(nn.Unfold(2)), unfold(x), fold(cols)]
    _check(run)


def test_distances_and_softmax2d() -> None:
    def run(L: Any) -> list[Any]:
        L.manual_seed(3)
        nn = L.nn
        x1, x2 = L.randn(5, 4, requires_grad=True), L.randn(5, 4)
        images = L.randn(2, 3, 4, 5, requires_grad=True)
        cos, pdist = nn.CosineSimilarity(dim=0, eps=1e-6), nn.PairwiseDistance(p=1, keepdim=True)
        soft = nn.Softmax2d()(images)
        out = [repr(cos), repr(pdist), repr(nn.Softmax2d()), cos(x1, x2), pdist(x1, x2),
               nn.PairwiseDistance()(x1, x2), soft, soft.grad_fn.name(),
               nn.Softmax2d()(images[0])]
        (cos(x1, x2).sum() + (soft * images).sum()).backward()
        return [*out, x1.grad, images.grad]
    _check(run)
