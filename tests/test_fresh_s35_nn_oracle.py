"""Session 35 (nn): an independent fuzzer's findings about linear, normalization, convolution
with wide padding, sparse embeddings, pad values and typenames. Each case runs under torch and
minitorch (``L``) and must raise torch's exception with torch's message, or give torch's
result."""

from __future__ import annotations

import itertools
import math
import tracemalloc
from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt
from tests.oracle import assert_as_torch, assert_same

DTYPES = ["int64", "float32", "float64", "float16", "bool"]


def _node_chain(y: Any) -> list[str]:
    """The names of ``y``'s grad_fn and of each first input's node below it."""
    names, node = [], y.grad_fn
    while node is not None:
        names.append(type(node).__name__)
        node = node.next_functions[0][0] if node.next_functions else None
    return names


@pytest.mark.parametrize("dim, dtypes", [
    (dim, dtypes) for dim in (1, 2, 3)
    for dtypes in itertools.product(DTYPES, DTYPES, [*DTYPES, None])])
@pytest.mark.parametrize("contiguous", [True, False])
def test_linear_adds_a_bias_it_does_not_fuse_in_place(dim: int, dtypes: tuple,
                                                      contiguous: bool) -> None:
    """``linear(int64 (2, 3, 1), int64 (3, 1), float64 bias)`` (non-contiguous input) gave
    a float64 result: torch adds a bias it does not fuse into addmm to the product in place,
    so a result type the product cannot hold is refused."""
    def fn(L: Any) -> Any:
        x, w = (L.ones(shape, dtype=getattr(L, dt)) for shape, dt in
                (((2, 2, 3)[3 - dim:] if contiguous else (2, 3, 2)[3 - dim:], dtypes[0]),
                 ((4, 3), dtypes[1])))
        if not contiguous and dim > 1:
            x = x.transpose(-1, -2) if dim == 2 else x.transpose(1, 2)
        b = None if dtypes[2] is None else L.ones(4, dtype=getattr(L, dtypes[2]))
        return L.nn.functional.linear(x, w, b)
    assert_as_torch(fn)  # (exact: sums of ones, float16 among them)


@pytest.mark.parametrize("dtypes", list(itertools.product(DTYPES, DTYPES, DTYPES)))
@pytest.mark.parametrize("dim", [1, 3])
def test_linear_of_a_vector_weight_adds_its_scalar_bias_in_place(dtypes: tuple,
                                                                 dim: int) -> None:
    """``linear(int64 (3,), int64 (3,), float32 0-d bias)`` gave a float result where torch's
    in-place add refuses the cast; a float bias of a wider type widened the result."""
    def fn(L: Any) -> Any:
        x = L.ones((2, 2, 3)[3 - dim:], dtype=getattr(L, dtypes[0]))
        w = L.ones(3, dtype=getattr(L, dtypes[1]))
        return L.nn.functional.linear(x, w, L.ones((), dtype=getattr(L, dtypes[2])))
    assert_as_torch(fn)


@pytest.mark.parametrize("shape, bias, layout, grads", [
    (shape, bias, layout, grads)
    for shape in [(3,), (2, 3), (4, 3), (2, 2, 3), (1, 2, 2, 3), (4, 1, 3)]
    for bias in [(4,), (1, 4), (4, 1), (1, 1), (), (1,), (2, 4), (2, 1, 4)]
    for layout in ["contiguous", "input transposed", "bias transposed"]
    for grads in ["all", "bias", "input"]], ids=str)
def test_linear_fuses_torchs_biases_only(shape: tuple, bias: tuple, layout: str,
                                         grads: str) -> None:
    """torch fuses into addmm a contiguous bias of one row (``bias.squeeze()`` 1-d) with a
    contiguous input, else it adds the bias in place: minitorch fused a (1, 1) bias (a
    broadcast torch refuses) and added a (4, 1) one (so it refused a shape addmm takes); a
    vector input's product was a view (torch squeezes it in place), and a batch of rows that
    does not fold without a copy went through mm, not torch's bmm."""
    def fn(L: Any) -> Any:
        x = L.arange(float(L.Size(shape).numel())).reshape(shape)
        if layout == "input transposed" and x.dim() >= 2:
            x = x.transpose(0, -1).contiguous().transpose(0, -1)
        w = L.arange(12.).reshape(4, 3).requires_grad_(grads == "all")
        b = L.arange(float(L.Size(bias).numel())).reshape(bias)
        if layout == "bias transposed" and b.dim() >= 2:
            b = b.transpose(0, -1).contiguous().transpose(0, -1)
        x.requires_grad_(grads != "bias")
        b.requires_grad_(grads != "input")
        y = L.nn.functional.linear(x, w, b)
        chain = _node_chain(y)
        y.sum().backward()
        return y, y._version, y._base is None, str(chain), x.grad, w.grad, b.grad
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("grad", [True, False])
@pytest.mark.parametrize("contiguous", [True, False])
def test_reshape_aliases_memory_that_is_not_contiguous(grad: bool, contiguous: bool) -> None:
    """torch's reshape views contiguous memory (``ViewBackward0``, ``aten::view``) and aliases
    other strides (``ReshapeAliasBackward0``, ``aten::_reshape_alias``), in grad mode or not;
    minitorch chose by the grad mode."""
    def fn(L: Any) -> Any:
        x = L.ones(2, 3, requires_grad=True)
        y = x if contiguous else x.t()
        with L.autograd.profiler.profile() as prof, L.set_grad_enabled(grad):
            z = y.reshape(6, 1)
        return str(_node_chain(z)), str([e.name for e in prof.function_events])
    assert_as_torch(fn)


FLOATS = ["float32", "float64", "float16"]


def _near(got: Any, want: Any) -> None:
    """dtype and shape torch's, values near (float16 included, to its precision)."""
    assert str(got.dtype) == str(want.dtype), f"{got.dtype} vs {want.dtype}"
    assert tuple(got.shape) == tuple(want.shape), f"{got.shape} vs {want.shape}"
    np.testing.assert_allclose(got.detach().numpy().astype(float),
                               want.detach().numpy().astype(float), rtol=2e-3, atol=2e-3)


def _instance_norm(L: Any, dtypes: tuple, use_input_stats: bool, shape: tuple) -> tuple:
    """instance_norm of an input, running mean and var, weight and bias of ``dtypes`` (None
    for a missing one), then its backward: the result, the gradients and the running stats."""
    x_dt, mean_dt, var_dt, w_dt, b_dt = dtypes
    x = L.arange(float(math.prod(shape))).reshape(shape).sin().to(getattr(L, x_dt))
    x.requires_grad_()

    def made(dt: str | None, value: float) -> Any:
        return None if dt is None else L.full((shape[1],), value).to(getattr(L, dt))

    mean, var, w, b = made(mean_dt, 0.5), made(var_dt, 2.0), made(w_dt, 1.5), made(b_dt, 0.25)
    params = [p.requires_grad_() for p in (w, b) if p is not None]
    y = L.nn.functional.instance_norm(x, mean, var, w, b, use_input_stats=use_input_stats,
                                      momentum=0.3)
    weights = L.arange(float(math.prod(shape))).reshape(shape).cos().to(y.dtype)
    (y * weights).sum().backward()
    return y, x.grad, *(p.grad for p in params), mean, var


@pytest.mark.parametrize("dtypes", [
    (x, stats, stats, w, b) for x in FLOATS for stats in [*FLOATS, None]
    for w in [*FLOATS, None] for b in [*FLOATS, None]], ids=str)
@pytest.mark.parametrize("use_input_stats", [True, False])
def test_instance_norm_casts_its_running_stats_to_its_parameters_dtype(
        dtypes: tuple, use_input_stats: bool) -> None:
    """torch's instance_norm casts the running mean and var to the weight's dtype (the
    input's without one) where the mean's differs, so float64 input with float32 stats
    runs (minitorch refused "all inputs must share same datatype"), and float16 input with
    float32 stats and bias but no weight is refused (stats now half, the bias float: minitorch
    ran it); the updated stats are cast back."""
    assert_as_torch(lambda L: _instance_norm(L, dtypes, use_input_stats, (2, 3, 2, 2)), _near)


@pytest.mark.parametrize("dtypes", [
    (x, mean, var, w, None) for x in FLOATS for mean in [*FLOATS, None]
    for var in [*FLOATS, None] for w in [*FLOATS, None]], ids=str)
@pytest.mark.parametrize("shape", [(2, 3, 4), (2, 3, 2, 1, 2)])
def test_instance_norm_casts_both_stats_by_the_running_means_dtype(dtypes: tuple,
                                                                   shape: tuple) -> None:
    """The cast is decided by the running mean alone and casts both (a missing running var
    then fails as a call on an undefined tensor), on 3-d and 5-d inputs too."""
    assert_as_torch(lambda L: _instance_norm(L, dtypes, True, shape), _near)


def _conv(L: Any, nd: int, size: tuple, kernel: tuple, geometry: tuple, groups: int = 1,
          bias: bool = True, bad: str | None = None) -> tuple:
    """conv{nd}d of a float64 batch (two channels a group) and its gradients (``bad``: an inf
    weight, or a nan output gradient, where torch's sums read them)."""
    stride, padding, dilation = geometry
    x = L.tensor(np.sin(np.arange(2 * 2 * groups * math.prod(size))).reshape(
        2, 2 * groups, *size), requires_grad=True)
    w_data = np.cos(np.arange(4 * groups * math.prod(kernel))).reshape(2 * groups, 2,
                                                                        *kernel)
    if bad == "w":
        w_data.flat[0] = np.inf
    w = L.tensor(w_data, requires_grad=True)
    b = L.tensor(np.arange(2. * groups), requires_grad=True) if bias else None
    y = getattr(L.nn.functional, f"conv{nd}d")(x, w, b, stride=stride, padding=padding,
                                               dilation=dilation, groups=groups)
    g_data = np.cos(np.arange(y.numel()) * 0.7).reshape(tuple(y.shape))
    if bad == "g":
        g_data.flat[0] = np.nan
    grads = L.autograd.grad(y, [x, w, *([b] if bias else [])], L.tensor(g_data))
    return (y, *grads)


@pytest.mark.parametrize("nd, size, kernel, geometry, groups, bias, bad", [
    (3, (3, 2, 3), (1, 3, 3), (3, 100, (1, 2, 1)), 1, True, None),  # the fuzzer's case
    (3, (3, 2, 3), (1, 3, 3), (3, 7, (1, 2, 1)), 1, False, None),
    (2, (4, 5), (3, 2), ((2, 3), (9, 4), (1, 2)), 2, True, None),
    (2, (4, 5), (3, 2), ((2, 3), (9, 4), (1, 2)), 1, True, "w"),
    (2, (4, 5), (3, 2), ((2, 3), (9, 4), (1, 2)), 1, True, "g"),
    (2, (2, 2), (1, 1), (5, 9, 1), 1, True, "g"),  # windows of padding alone, in each dim
    (2, (2, 3), (2, 2), (4, 1, 1), 1, False, None),  # stride skips part of the input
    (1, (5,), (3,), (4, 8, 2), 1, True, None), (1, (5,), (3,), (1, 8, 2), 2, True, "g"),
    (1, (3,), (2,), (3, 2, 1), 1, False, None),
    (2, (3, 3), (3, 3), (1, 1, 1), 1, True, None),  # nothing to leave out
], ids=str)
def test_a_convolution_with_wide_padding_computes_what_its_windows_read(
        nd: int, size: tuple, kernel: tuple, geometry: tuple, groups: int, bias: bool,
        bad: str | None) -> None:
    """conv3d of a (3, 2, 3) input with padding 100 ran for minutes (torch: instant): the
    padded input and every window of padding alone were computed; now only the windows that
    meet the input are, the others being each weight times 0 (+ bias), as torch's sums give
    (nan for a weight that is not finite), and a nan gradient there reaches the weight's."""
    assert_as_torch(lambda L: _conv(L, nd, size, kernel, geometry, groups, bias, bad),
                    assert_same)


def test_a_convolution_with_wide_padding_holds_no_padded_input() -> None:
    """What a float64 convolution over padding 1500 holds at most is its result's size,
    not the (3002, 3002) padded input's (72 MB before). (float32 2-d ones run torch's
    kernels, :mod:`minitorch.ops._conv_order`, over the whole padding still.)"""
    x = mt.ones(1, 1, 2, 2, dtype=mt.float64, requires_grad=True)
    w = mt.ones(1, 1, 1, 1, dtype=mt.float64, requires_grad=True)
    tracemalloc.start()
    try:
        y = mt.nn.functional.conv2d(x, w, stride=1000, padding=1500)
        y.sum().backward()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2**20, peak
    assert tuple(y.shape) == tuple(torch.nn.functional.conv2d(
        torch.ones(1, 1, 2, 2), torch.ones(1, 1, 1, 1), stride=1000, padding=1500).shape)
