"""float32 conv2d on the CPU, bit for bit as torch's: forward, grad_input, grad_weight and
grad_bias, compared live with torch (see ``minitorch/ops/_conv_order.py``).

torch runs one of several kernels (its own slow_conv2d with MKL's gemm for a small single
image, oneDNN's direct, 1x1 or gemm convolution otherwise), each adding in its own order; a
last bit that differs grows in a training loop until a printed loss differs (d2l's LeNet).
Only the parts ``plan`` claims are compared: the others keep numpy's products.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from oracle import AVX512, SETTINGS

import minitorch as mt
from minitorch import _mkl
from minitorch.ops import _conv_order
from minitorch.ops._cascade_sum import get_num_threads

pytestmark = [
    pytest.mark.skipif(not AVX512, reason="oneDNN's kernel choice is repeated for AVX-512"),
    pytest.mark.skipif(get_num_threads() != torch.get_num_threads(),
                       reason="torch runs with another thread count than minitorch assumes"),
]


@pytest.fixture(autouse=True, params=[2])
def threads(request: pytest.FixtureRequest) -> Any:
    """torch's kernel choice depends on its threads (one thread keeps small 1x1 convolutions
    in slow_conv2d): the expectations below are two threads' unless a test asks for one."""
    before = torch.get_num_threads()
    torch.set_num_threads(request.param)
    mt.set_num_threads(request.param)
    yield request.param
    torch.set_num_threads(before)
    mt.set_num_threads(before)

PARTS = ("forward", "grad_input", "grad_weight", "grad_bias")


def _run(lib: Any, x: np.ndarray, w: np.ndarray, b: np.ndarray, g_seed: int,
         **geometry: Any) -> list[np.ndarray]:
    """The output and the three gradients of ``conv2d`` under ``lib`` (minitorch or torch)."""
    xt, wt, bt = (lib.tensor(a, requires_grad=True) for a in (x, w, b))
    y = lib.nn.functional.conv2d(xt, wt, bt, **geometry)
    g = np.random.default_rng(g_seed).standard_normal(tuple(y.shape)).astype(np.float32)
    y.backward(lib.tensor(g))
    return [t.detach().numpy() for t in (y, xt.grad, wt.grad, bt.grad)]


def _claimed(plan: _conv_order.Plan) -> tuple[bool, ...]:
    """Which of PARTS this module repeats for ``plan`` (slow_conv2d's need MKL)."""
    kinds = (plan.forward, plan.grad_input, plan.grad_weight)
    have = [k is not None and (k != "slow" or _mkl.library() is not None) for k in kinds]
    return (*have, have[2])


def _check(n: int, c: int, o: int, size: tuple, kernel: tuple, stride: int, padding: int,
           dilation: int, seed: int, groups: int = 1) -> list[str]:
    """Compare every claimed part with torch's bits; the parts compared."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, c, *size)).astype(np.float32)
    w = (rng.standard_normal((o, c // groups, *kernel)) / np.sqrt(c * kernel[0] * kernel[1])
         ).astype(np.float32)
    b = rng.standard_normal(o).astype(np.float32)
    geometry = {"stride": stride, "padding": padding, "dilation": dilation, "groups": groups}
    pairs = ((stride,) * 2, (padding,) * 2, (dilation,) * 2)
    plan = _conv_order.plan(x.shape, w.shape, pairs, groups)
    got, want = _run(mt, x, w, b, seed, **geometry), _run(torch, x, w, b, seed, **geometry)
    compared = []
    for name, claimed, mine, theirs in zip(PARTS, _claimed(plan), got, want):
        if claimed:
            assert mine.dtype == theirs.dtype == np.float32
            differ = int((mine.view(np.uint32) != theirs.view(np.uint32)).sum())
            assert differ == 0, f"{name}: {differ} of {mine.size} differ ({plan})"
            compared.append(name)
        else:  # the rest: numpy's products, within rounding of torch's
            np.testing.assert_allclose(mine, theirs, rtol=2e-4, atol=2e-4)
    return compared


@pytest.mark.parametrize("n", [256, 18, 1])
@pytest.mark.parametrize(("c", "o", "size", "padding"), [(1, 6, (28, 28), 2),
                                                        (6, 16, (14, 14), 0)])
def test_lenet_convolutions_are_torchs_bits(n: int, c: int, o: int, size: tuple,
                                            padding: int) -> None:
    """d2l's LeNet (and its batch-norm variant): both convolutions, training and test
    batches, every part bit for bit."""
    compared = _check(n, c, o, size, (5, 5), 1, padding, 1, seed=n + c)
    assert compared == list(PARTS) or n == 1


@SETTINGS
@given(n=st.sampled_from([1, 2, 3, 4, 8, 16, 32]), c=st.sampled_from([1, 2, 3, 4, 6, 8, 16, 20]),
       o=st.sampled_from([1, 2, 4, 6, 8, 16, 17, 32]), h=st.integers(5, 12),
       w=st.integers(5, 12), kernel=st.sampled_from([(1, 1), (2, 2), (3, 3), (5, 5), (3, 1)]),
       stride=st.sampled_from([1, 1, 2]), padding=st.sampled_from([0, 0, 1, 2]),
       seed=st.integers(0, 2**16))
def test_random_convolutions_are_torchs_bits(n: int, c: int, o: int, h: int, w: int,
                                             kernel: tuple, stride: int, padding: int,
                                             seed: int) -> None:
    if h + 2 * padding < kernel[0] or w + 2 * padding < kernel[1]:
        return
    _check(n, c, o, (h, w), kernel, stride, padding, 1, seed)


@pytest.mark.parametrize("threads", [1, 2], indirect=True)
@pytest.mark.parametrize(("c", "o", "size"), [(8, 16, (8, 8)), (8, 16, (9, 9)),
                                              (16, 32, (8, 8)), (16, 32, (9, 7))])
def test_strided_1x1_convolutions_are_torchs_bits(c: int, o: int, size: tuple,
                                                  threads: int) -> None:
    """d2l's ResNet shortcut (a 1x1 kernel, stride 2, no padding): oneDNN's 1x1 kernel
    where the strides tile the image, its direct kernel where they do not; every part."""
    assert _check(8, c, o, size, (1, 1), 2, 0, 1, seed=c + size[1]) == list(PARTS)


@pytest.mark.parametrize("threads", [1, 2], indirect=True)
@pytest.mark.parametrize(("n", "c", "o", "size", "stride"), [
    (3, 20, 4, (13, 10), 1), (8, 32, 32, (8, 4), 1), (8, 3, 17, (8, 10), 2),
    (4, 20, 32, (6, 12), 2), (16, 16, 16, (48, 48), 1)])
def test_1x1_weight_gradient_follows_its_balance(n: int, c: int, o: int, size: tuple,
                                                 stride: Any, threads: int) -> None:
    """oneDNN's 1x1 backward-weights kernel shares blocks of image positions between the
    threads its ``balance()`` gives the batch (none where output channels are cheaper to
    split), and adds the blocks' chains in turn (a 48x48 image is several blocks)."""
    assert _check(n, c, o, size, (1, 1), stride, 0, 1, seed=n * o) == list(PARTS)


@pytest.mark.parametrize(("n", "c", "o", "size", "kernel", "stride", "padding"), [
    (8, 3, 17, (15, 13), (3, 3), 1, 1), (4, 1, 32, (16, 12), (3, 3), 1, 1),
    (2, 1, 17, (9, 15), (1, 1), 2, 0), (16, 32, 8, (9, 5), (1, 1), 2, 0),
    (4, 20, 16, (13, 6), (3, 3), 1, 1), (16, 32, 4, (12, 10), (3, 3), 1, 0),
    (3, 16, 16, (14, 14), (3, 3), 1, 1)])
def test_two_threads_share_the_weight_gradient_as_onednn(n: int, c: int, o: int, size: tuple,
                                                         kernel: tuple, stride: int,
                                                         padding: int) -> None:
    """oneDNN's direct backward-weights kernel shares output rows between threads (its 2-d
    harness, for more than 9 output rows; the bias summed with the weights) or else images,
    as its ``balance()`` picks in two steps: least memory, then less computing."""
    assert _check(n, c, o, size, kernel, stride, padding, 1, seed=n + o) == list(PARTS)


@pytest.mark.parametrize(("n", "c", "size", "kernel", "stride", "padding"), [
    (64, 4, (13, 9), (3, 3), 1, 0), (8, 16, (10, 10), (3, 3), 1, 1),
    (4, 8, (9, 9), (3, 3), 2, 1), (32, 32, (14, 14), (5, 5), 1, 2)])
def test_depthwise_forward_and_grad_input_are_torchs_bits(n: int, c: int, size: tuple,
                                                         kernel: tuple, stride: int,
                                                         padding: int) -> None:
    compared = _check(n, c, c, size, kernel, stride, padding, 1, seed=c, groups=c)
    assert compared == ["forward", "grad_input"]


@pytest.mark.parametrize(("n", "c", "o", "groups", "kernel", "stride", "padding"), [
    (32, 6, 3, 3, (5, 5), 1, 0), (3, 9, 9, 3, (5, 5), 1, 1), (8, 32, 6, 2, (5, 5), 1, 1),
    (16, 18, 6, 3, (1, 1), 2, 1), (4, 8, 8, 4, (1, 1), 1, 1)])
def test_grouped_forward_is_torchs_bits(n: int, c: int, o: int, groups: int, kernel: tuple,
                                        stride: int, padding: int) -> None:
    """Groups oneDNN gives to its gemm kernel (not whole vectors of 4 channels)."""
    compared = _check(n, c, o, (9, 9), kernel, stride, padding, 1, seed=o, groups=groups)
    assert compared == ["forward"]


@pytest.mark.parametrize("threads", [1], indirect=True)
@pytest.mark.parametrize(("n", "c", "o", "groups"), [(4, 8, 8, 4), (2, 6, 9, 3), (3, 8, 8, 8)])
def test_one_thread_grouped_1x1_is_slow_conv2d_per_group(n: int, c: int, o: int, groups: int,
                                                         threads: int) -> None:
    """On one thread torch keeps a small 1x1 convolution in slow_conv2d, one per group
    (a reshape error here once reached the user)."""
    compared = _check(n, c, o, (9, 9), (1, 1), 1, 1, 1, seed=o, groups=groups)
    assert compared[:2] == ["forward", "grad_input"]


def test_plan_names_torchs_kernels() -> None:
    """The kernel choice for a few shapes, as ONEDNN_VERBOSE=1 shows torch 2.13 taking them
    on an AVX-512 CPU (slow_conv2d shows nothing)."""
    plain = ((1, 1), (0, 0), (1, 1))
    assert _conv_order.plan((1, 3, 8, 8), (4, 3, 3, 3), ((1, 1), (1, 1), (1, 1)), 1) == \
        _conv_order.Plan("slow", "slow", "slow")
    assert _conv_order.plan((256, 1, 28, 28), (6, 1, 5, 5), ((1, 1), (2, 2), (1, 1)), 1) == \
        _conv_order.Plan("direct", "direct", "direct", 16)  # jit:avx512_core x3
    assert _conv_order.plan((256, 6, 14, 14), (16, 6, 5, 5), plain, 1) == \
        _conv_order.Plan("direct", "direct", "direct", 8)  # backward weights: jit:avx2
    assert _conv_order.plan((8, 16, 8, 8), (32, 16, 1, 1), plain, 1).forward == "bias-first"
    # strided 1x1: oneDNN's 1x1 kernel when the strides tile the image (jit_1x1, its
    # "reduce to unit stride"), else its direct kernel; padded: its gemm kernel
    halved = ((2, 2), (0, 0), (1, 1))
    assert _conv_order.plan((8, 16, 8, 8), (32, 16, 1, 1), halved, 1) == _conv_order.Plan(
        "bias-first", "columns", "1x1")
    assert _conv_order.plan((8, 16, 9, 9), (32, 16, 1, 1), halved, 1) == _conv_order.Plan(
        "direct", "chain", "direct", 16)
    assert _conv_order.plan((8, 8, 9, 9), (16, 8, 1, 1), halved, 1) == _conv_order.Plan(
        "direct", "chain", "direct", 8)  # backward weights: jit:avx2
    assert _conv_order.plan((8, 8, 8, 8), (16, 8, 1, 1), ((2, 2), (1, 1), (1, 1)),
                            1).forward == "gemm"
    assert _conv_order.plan((8, 4, 8, 8), (4, 1, 3, 3), plain, 4) == _conv_order.Plan(
        "bias-first", "direct", None)  # depthwise: jit_dw, its weight gradient not repeated
    assert _conv_order.plan((8, 4, 8, 8), (4, 2, 3, 3), plain, 2) == _conv_order.Plan(
        "gemm", None, None)  # groups of 2 channels: gemm:jit, its forward only
    assert _conv_order.plan((8, 16, 8, 8), (16, 4, 3, 3), plain, 4) == _conv_order.Plan(
        None, None, None)  # groups of 4 channels: oneDNN's direct kernel, not repeated


def test_float64_and_double_backward_keep_their_numerics() -> None:
    """float64 takes numpy's products (torch's float64 kernels are other ones); a backward
    that builds a graph (create_graph) is the Tensor formula, within rounding of torch's."""
    rng = np.random.default_rng(0)
    x0 = rng.standard_normal((4, 3, 8, 8))
    w0 = rng.standard_normal((5, 3, 3, 3))
    for dtype in (np.float64, np.float32):
        outs = []
        for lib in (mt, torch):
            x = lib.tensor(x0.astype(dtype), requires_grad=True)
            w = lib.tensor(w0.astype(dtype), requires_grad=True)
            y = lib.nn.functional.conv2d(x, w, padding=1)
            (gx,) = lib.autograd.grad((y * y).sum(), x, create_graph=True)
            gx.sum().backward()
            outs.append([t.detach().numpy() for t in (y, gx, w.grad)])
        tol = 1e-10 if dtype is np.float64 else 1e-3
        for mine, theirs in zip(*outs):
            np.testing.assert_allclose(mine, theirs, rtol=tol, atol=tol)
