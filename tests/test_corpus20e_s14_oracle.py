"""Causes behind the corpus20e programs (issue #20), each against live torch: the last bit of
``clip_grad_norm_``'s scaling; ``nn.modules.<file>`` paths; ``InstanceNorm1d/2d/3d``;
``avg_pool1d`` (and ``avg_pool2d``'s input-gradient order); ``affine_grid``/``grid_sample``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import SETTINGS, TOLERANCES

# ---------------------------------------------------------------------------- clip_grad_norm_


@SETTINGS
@given(sizes=st.lists(st.integers(1, 40), min_size=1, max_size=3),
       max_norm=st.floats(0.01, 10.0), norm_type=st.sampled_from([1.0, 2.0, 3.0, float("inf")]),
       dtype=st.sampled_from(["float32", "float64"]), seed=st.integers(0, 2**16))
def test_clip_grad_norm_scales_bit_for_bit(sizes: list[int], max_norm: float, norm_type: float,
                                           dtype: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    grads = [(rng.standard_normal(n) * 3).astype(dtype) for n in sizes]

    def clipped(L: Any) -> tuple[np.ndarray, list[np.ndarray]]:
        params = [L.nn.Parameter(L.zeros(g.shape, dtype=getattr(L, dtype))) for g in grads]
        for p, g in zip(params, grads):
            p.grad = L.tensor(g)
        total = L.nn.utils.clip_grad_norm_(params, max_norm, norm_type)
        return total.numpy(), [p.grad.numpy() for p in params]

    (got_total, got), (want_total, want) = clipped(mt), clipped(torch)
    assert got_total.dtype == want_total.dtype
    np.testing.assert_array_equal(got_total, want_total)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


# ---------------------------------------------------------------------------- nn.modules paths


def test_nn_modules_files_hold_torchs_classes() -> None:
    """Every class minitorch.nn has is reachable under torch's ``nn.modules.<file>`` path (and
    only there), and ``from ... import`` of that path works."""
    import importlib
    import types

    have = {name for name in mt.nn.__all__ if isinstance(getattr(mt.nn, name), type)}
    for file, module in vars(torch.nn.modules).items():
        if not isinstance(module, types.ModuleType) or file.startswith("_"):
            continue
        wanted = sorted(set(getattr(module, "__all__", ())) & have)
        if not wanted:
            continue
        ours = importlib.import_module(f"minitorch.nn.modules.{file}")
        assert sorted(ours.__all__) == wanted, file
        assert all(getattr(ours, name) is getattr(mt.nn, name) for name in wanted)
    assert all(getattr(mt.nn.modules, name) is getattr(mt.nn, name) for name in have)


# ---------------------------------------------------------------------------- InstanceNorm


@SETTINGS
@given(rank=st.integers(1, 3), batched=st.booleans(), data=st.data(),
       affine=st.booleans(), track=st.booleans(), training=st.booleans(),
       dtype=st.sampled_from(["float32", "float64"]))
def test_instance_norm_modules(rank: int, batched: bool, data: Any, affine: bool, track: bool,
                               training: bool, dtype: str) -> None:
    """Outputs, gradients of input and affine parameters, and running statistics of
    InstanceNorm1d/2d/3d, batched or not, over two steps: float32 bit for bit; float64 to
    rounding (batch_norm's float64 kernel, which instance norm runs, still differs from torch's
    in the last bit where a plane's length is no multiple of 4)."""
    channels = data.draw(st.integers(1, 4))
    spatial = data.draw(st.lists(st.integers(1, 4), min_size=rank, max_size=rank)
                        .filter(lambda s: np.prod(s) > 1))
    shape = ((data.draw(st.integers(1, 3)),) if batched else ()) + (channels, *spatial)
    x = np.random.default_rng(data.draw(st.integers(0, 99))).standard_normal(shape)

    def run(L: Any) -> list[np.ndarray]:
        L.manual_seed(0)
        layer = getattr(L.nn, f"InstanceNorm{rank}d")(channels, affine=affine,
                                                      track_running_stats=track,
                                                      dtype=getattr(L, dtype))
        layer.train(training)
        if affine:
            with L.no_grad():
                layer.weight.uniform_()
                layer.bias.uniform_()
        out = []
        for step in range(2):
            t = L.tensor(x * (step + 1), dtype=getattr(L, dtype), requires_grad=True)
            y = layer(t)
            (y * y.detach().sin()).sum().backward()
            out += [y.detach().numpy(), t.grad.numpy()]
        out += [v.detach().numpy() for v in layer.state_dict().values()]
        out += [p.grad.numpy() for p in layer.parameters()]
        return out

    got, want = run(mt), run(torch)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype
        if dtype == "float32":
            np.testing.assert_array_equal(g, w)
        else:
            np.testing.assert_allclose(g, w, **TOLERANCES[dtype])


def _error(program: Any) -> None:
    from tests.oracle import assert_same_error, raised_by

    want = raised_by(program, torch)
    assert want is not None
    assert_same_error(raised_by(program, mt), want)


def test_instance_norm_bad_input() -> None:
    for program in (lambda L: L.nn.InstanceNorm2d(3)(L.ones(2, 3, 4)[None, None]),
                    lambda L: L.nn.InstanceNorm2d(3, affine=True)(L.ones(2, 4, 4, 4)),
                    lambda L: L.nn.InstanceNorm1d(3)(L.ones(2, 3, 1)),
                    lambda L: L.nn.functional.instance_norm(L.ones(2, 3, 1, 1)),
                    lambda L: L.nn.functional.instance_norm([1.0]),
                    lambda L: L.nn.functional.instance_norm(L.ones(2, 3, 4),
                                                            use_input_stats=False),
                    lambda L: L.nn.functional.instance_norm(L.ones(2, 3, 4), L.zeros(2),
                                                            L.ones(2))):
        _error(program)
    with pytest.warns(UserWarning, match="does not match num_features"):
        mt.nn.InstanceNorm1d(2)(mt.ones(2, 3, 4))


# ---------------------------------------------------------------------------- avg_pool1d


@SETTINGS
@given(data=st.data(), batched=st.booleans(), ceil_mode=st.booleans(),
       count_include_pad=st.booleans(), dtype=st.sampled_from(["float32", "float64"]))
def test_avg_pool1d(data: Any, batched: bool, ceil_mode: bool, count_include_pad: bool,
                    dtype: str) -> None:
    """F.avg_pool1d and nn.AvgPool1d: values and input gradient bit for bit, grad_fn's name."""
    kernel = data.draw(st.integers(1, 4))
    stride = data.draw(st.integers(1, 3))
    padding = data.draw(st.integers(0, kernel // 2))
    length = data.draw(st.integers(kernel, 9))
    shape = ((data.draw(st.integers(1, 2)),) if batched else ()) + (data.draw(st.integers(1, 3)),
                                                                     length)
    x = np.random.default_rng(length).standard_normal(shape).astype(dtype)

    def run(L: Any) -> list[Any]:
        t = L.tensor(x, requires_grad=True)
        y = L.nn.functional.avg_pool1d(t, kernel, stride, padding, ceil_mode, count_include_pad)
        z = L.nn.AvgPool1d([kernel], stride, padding, ceil_mode, count_include_pad)(t)
        (y * y.detach().cos()).sum().backward()
        return [y.detach().numpy(), z.detach().numpy(), t.grad.numpy(), type(y.grad_fn).__name__]

    got, want = run(mt), run(torch)
    assert got[3] == want[3]
    for g, w in zip(got[:3], want[:3]):
        np.testing.assert_array_equal(g, w)


@SETTINGS
@given(data=st.data(), dtype=st.sampled_from(["float32", "float64"]))
def test_avg_pool2d_input_gradient_order(data: Any, dtype: str) -> None:
    """Overlapping 2-d windows: each input's gradient adds the outputs' shares in torch's
    order, bit for bit."""
    kernel = (data.draw(st.integers(1, 3)), data.draw(st.integers(1, 3)))
    stride = (data.draw(st.integers(1, 2)), data.draw(st.integers(1, 2)))
    shape = (2, kernel[0] + data.draw(st.integers(0, 4)), kernel[1] + data.draw(st.integers(0, 4)))
    x = np.random.default_rng(sum(shape)).standard_normal(shape).astype(dtype)

    def run(L: Any) -> np.ndarray:
        t = L.tensor(x, requires_grad=True)
        y = L.nn.functional.avg_pool2d(t, kernel, stride)
        (y * y.detach().cos()).sum().backward()
        return t.grad.numpy()

    np.testing.assert_array_equal(run(mt), run(torch))


def test_avg_pool1d_bad_input() -> None:
    for program in (lambda L: L.nn.functional.avg_pool1d(L.ones(1, 1, 2, 4), 2),
                    lambda L: L.nn.functional.avg_pool1d(L.ones(4), 2),
                    lambda L: L.nn.functional.avg_pool1d(L.ones(1, 4), (2, 2)),
                    lambda L: L.nn.functional.avg_pool1d(L.ones(1, 4), 2, (1, 1)),
                    lambda L: L.nn.functional.avg_pool1d(L.ones(1, 4), 5),
                    lambda L: L.nn.functional.avg_pool1d(L.ones(1, 4), 2, padding=2),
                    lambda L: L.nn.functional.avg_pool1d(L.ones(1, 4), 0),
                    lambda L: L.nn.functional.avg_pool1d(L.ones(1, 4), 2.5),
                    lambda L: L.nn.functional.avg_pool1d([1.0], 2)):
        _error(program)
    assert repr(mt.nn.AvgPool1d(3, 2, 1)) == repr(torch.nn.AvgPool1d(3, 2, 1))
    integers = [L.nn.functional.avg_pool1d(L.arange(6.0).long()[None], 2, 1, 1)
                for L in (mt, torch)]
    np.testing.assert_array_equal(integers[0].numpy(), integers[1].numpy())


# -------------------------------------------------------------------- affine_grid, grid_sample


@SETTINGS
@given(data=st.data(), mode=st.sampled_from(["bilinear", "nearest"]),
       padding_mode=st.sampled_from(["zeros", "border"]), align_corners=st.booleans(),
       dtype=st.sampled_from(["float32", "float64"]))
def test_affine_grid_and_grid_sample(data: Any, mode: str, padding_mode: str,
                                     align_corners: bool, dtype: str) -> None:
    """The grid and the samples bit for bit (ATen's fused kernel arithmetic); the gradients
    to the image and to theta to rounding."""
    n, c = data.draw(st.integers(1, 2)), data.draw(st.integers(1, 3))
    h, w, ho, wo = (data.draw(st.integers(1, 6)) for _ in range(4))
    rng = np.random.default_rng(data.draw(st.integers(0, 99)))
    theta = (np.eye(2, 3) + rng.standard_normal((n, 2, 3)) * 0.6).astype(dtype)
    image = rng.standard_normal((n, c, h, w)).astype(dtype)

    def run(L: Any) -> list[Any]:
        t, i = L.tensor(theta, requires_grad=True), L.tensor(image, requires_grad=True)
        grid = L.nn.functional.affine_grid(t, (n, c, ho, wo), align_corners=align_corners)
        out = L.nn.functional.grid_sample(i, grid, mode, padding_mode, align_corners)
        (out * out.detach().cos()).sum().backward()
        return [grid.detach().numpy(), out.detach().numpy(), i.grad.numpy(),
                np.zeros(theta.shape, dtype) if t.grad is None else t.grad.numpy()]

    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the unit-size grid warning, checked below
        got, want = run(mt), run(torch)
    for g, w_ in zip(got[:2], want[:2]):
        np.testing.assert_array_equal(g, w_)
    for g, w_ in zip(got[2:], want[2:]):
        np.testing.assert_allclose(g, w_, rtol=1e-4 if dtype == "float32" else 1e-10,
                                   atol=1e-5 if dtype == "float32" else 1e-12)


def test_affine_grid_3d() -> None:
    theta = np.random.default_rng(0).standard_normal((2, 3, 4))
    got, want = (L.nn.functional.affine_grid(L.tensor(theta), (2, 1, 3, 4, 5), False)
                 for L in (mt, torch))
    np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_grid_sample_bad_input() -> None:
    for program in (lambda L: L.nn.functional.affine_grid(L.eye(2, 3)[None].long(), (1, 1, 2, 2)),
                    lambda L: L.nn.functional.affine_grid(L.eye(2, 3), (1, 1, 2, 2), False),
                    lambda L: L.nn.functional.affine_grid(L.eye(2, 3)[None], (1, 1, 2), False),
                    lambda L: L.nn.functional.affine_grid(L.eye(2, 3)[None], (1, 1, 0, 2), False),
                    lambda L: L.nn.functional.grid_sample(L.ones(1, 1, 2, 2),
                                                          L.zeros(1, 1, 1, 2), "cubic"),
                    lambda L: L.nn.functional.grid_sample(L.ones(1, 1, 2, 2),
                                                          L.zeros(1, 1, 1, 2), padding_mode="x"),
                    lambda L: L.nn.functional.grid_sample(L.ones(1, 1, 2, 2),
                                                          L.zeros(2, 1, 1, 2), align_corners=True),
                    lambda L: L.nn.functional.grid_sample(L.ones(1, 1, 2, 2),
                                                          L.zeros(1, 1, 1, 3), align_corners=True),
                    lambda L: L.nn.functional.grid_sample(
                        L.ones(1, 1, 2, 2), L.zeros(1, 1, 1, 2, dtype=L.float64),
                        align_corners=True),
                    lambda L: L.nn.functional.grid_sample(L.ones(1, 1, 2, 2),
                                                          L.zeros(1, 1, 1, 2, 2), "nearest"),
                    lambda L: L.nn.functional.grid_sample(L.ones(1, 1, 0, 2),
                                                          L.zeros(1, 1, 1, 2), "nearest"),
                    lambda L: L.nn.functional.grid_sample(L.ones(1, 2),
                                                          L.zeros(1, 1, 1, 0), "nearest")):
        _error(program)
    for L in (mt, torch):
        with pytest.warns(UserWarning, match="align_corners=False since 1.3.0"):
            L.nn.functional.affine_grid(L.eye(2, 3)[None], (1, 1, 2, 2))
