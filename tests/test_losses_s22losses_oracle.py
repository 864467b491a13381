"""Losses and interpolate given bad or edge input: torch's refusal, or its result bit for bit.

The C++ losses (poisson_nll_loss, hinge_embedding_loss, soft_margin_loss, margin_ranking_loss,
cosine_embedding_loss, multilabel_margin_loss, kl_div) read their arguments through torch's
parser; the kernels compute in the input's dtype, so an integer or bool input meets torch's
own refusals; binary_cross_entropy dispatches on the dtype before it reads any value.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

import minitorch as mt
from tests.oracle import assert_as_torch, raised_by

BAD_FLAGS = [math.nan, 0.0, 1, "x", None, -math.inf]
BAD_FLOATS = [math.nan, math.inf, -1.0, 1e300, 2 ** 70, "x", None, True]
DTYPES = ["float32", "float64", "float16", "int64", "int32", "uint8", "bool"]


def _tensor(L, dtype, shape=(3, 4), seed=0, signs=False):
    rng = np.random.default_rng(seed)
    a = np.sign(rng.standard_normal(shape)) if signs else rng.standard_normal(shape)
    return L.tensor(a.astype(dtype) if dtype != "bool" else a > 0)


def _probabilities(L, dtype, shape=(3, 4), seed=0):
    a = np.random.default_rng(seed).random(shape)
    return L.tensor(a.astype(dtype) if dtype != "bool" else a > 0.5)


@pytest.mark.parametrize("name", ["log_input", "full", "eps"])
@pytest.mark.parametrize("value", [*BAD_FLAGS, True])
def test_poisson_nll_loss_reads_its_flags_as_torch_parser(name, value):
    assert_as_torch(lambda L: L.nn.functional.poisson_nll_loss(
        _tensor(L, "float32"), _tensor(L, "float32", seed=1), **{name: value}))
    assert_as_torch(lambda L: L.nn.PoissonNLLLoss(**{name: value})(
        _tensor(L, "float32"), _tensor(L, "float32", seed=1)))


@pytest.mark.parametrize("name", ["poisson_nll_loss", "soft_margin_loss", "hinge_embedding_loss",
                                  "multilabel_margin_loss"])
@pytest.mark.parametrize("bad", [1.0, "x", None])
@pytest.mark.parametrize("first", [True, False])
def test_cpp_losses_refuse_what_is_no_tensor(name, bad, first):
    def program(L):
        x = _tensor(L, "float32")
        args = (bad, x) if first else (x, bad)
        return getattr(L.nn.functional, name)(*args)

    assert_as_torch(program)


@pytest.mark.parametrize("name", ["margin_ranking_loss", "cosine_embedding_loss"])
@pytest.mark.parametrize("position", [0, 1, 2])
def test_three_tensor_losses_refuse_what_is_no_tensor(name, position):
    def program(L):
        shapes = ((3,), (3,), (3,)) if name == "margin_ranking_loss" else ((3, 4), (3, 4), (3,))
        args = [_tensor(L, "float32", s, seed=i, signs=i == 2) for i, s in enumerate(shapes)]
        args[position] = 1.0
        return getattr(L.nn.functional, name)(*args)

    assert_as_torch(program)


@pytest.mark.parametrize("input_dtype", DTYPES)
@pytest.mark.parametrize("target_dtype", ["float32", "float64", "float16", "int64", "bool"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_hinge_embedding_loss_computes_in_the_input_dtype(input_dtype, target_dtype, reduction):
    assert_as_torch(lambda L: L.nn.functional.hinge_embedding_loss(
        _tensor(L, input_dtype, signs=True), _tensor(L, target_dtype, seed=1, signs=True),
        reduction=reduction))


@pytest.mark.parametrize("input_dtype", ["float32", "float16", "int64", "bool"])
@pytest.mark.parametrize("margin", [*BAD_FLOATS, 0.5, -math.inf])
def test_hinge_embedding_loss_fills_its_margin_into_the_input_dtype(input_dtype, margin):
    assert_as_torch(lambda L: L.nn.functional.hinge_embedding_loss(
        _tensor(L, input_dtype, signs=True), _tensor(L, "float32", seed=1, signs=True),
        margin=margin, reduction="sum"))
    assert_as_torch(lambda L: L.nn.HingeEmbeddingLoss(margin=margin)(
        _tensor(L, input_dtype, signs=True), _tensor(L, "float32", seed=1, signs=True)))


@pytest.mark.parametrize("input_dtype", DTYPES)
@pytest.mark.parametrize("target_dtype", DTYPES)
def test_soft_margin_loss_computes_in_place_in_the_input_dtype(input_dtype, target_dtype):
    assert_as_torch(lambda L: L.nn.functional.soft_margin_loss(
        _tensor(L, input_dtype, signs=True), _tensor(L, target_dtype, seed=1, signs=True)))


@pytest.mark.parametrize("shape", [(0,), (0, 4), ()])
@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "bool"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_binary_cross_entropy_dispatches_on_the_dtype_first(shape, dtype, reduction):
    assert_as_torch(lambda L: L.nn.functional.binary_cross_entropy(
        _probabilities(L, dtype, shape), _probabilities(L, dtype, shape, seed=1),
        reduction=reduction))


@pytest.mark.parametrize("shape", [(3, 4), (4,), (1, 4), ()])
def test_binary_cross_entropy_weight_asks_no_gradient(shape):
    def program(L):
        weight = _probabilities(L, "float32", shape, seed=2).requires_grad_()
        return L.nn.functional.binary_cross_entropy(
            _probabilities(L, "float32"), _probabilities(L, "float32", seed=1), weight=weight)

    assert_as_torch(program)


def test_binary_cross_entropy_weight_without_gradient_mode():
    def program(L):
        weight = _probabilities(L, "float32", (4,), seed=2).requires_grad_()
        with L.no_grad():
            return L.nn.functional.binary_cross_entropy(
                _probabilities(L, "float32"), _probabilities(L, "float32", seed=1),
                weight=weight)

    assert_as_torch(program)


@pytest.mark.parametrize("value", [*BAD_FLAGS, True, False])
def test_kl_div_log_target_is_a_bool(value):
    assert_as_torch(lambda L: L.nn.functional.kl_div(
        _tensor(L, "float32"), _tensor(L, "float32", seed=1), reduction="sum", log_target=value))
    assert_as_torch(lambda L: L.nn.KLDivLoss(reduction="sum", log_target=value)(
        _tensor(L, "float32"), _tensor(L, "float32", seed=1)))


@pytest.mark.parametrize("var", [1, "x", None, True])
def test_gaussian_nll_loss_var_that_is_no_tensor_or_float(var):
    assert_as_torch(lambda L: L.nn.functional.gaussian_nll_loss(
        _tensor(L, "float32"), _tensor(L, "float32", seed=1), var))


@pytest.mark.parametrize("dtypes", [("bool", "bool", "bool"), ("bool", "bool", "float32"),
                                    ("int64", "int64", "bool"), ("float32", "bool", "float32")])
def test_margin_ranking_loss_subtracts_first(dtypes):
    assert_as_torch(lambda L: L.nn.functional.margin_ranking_loss(
        *(_tensor(L, d, (3,), seed=i, signs=True) for i, d in enumerate(dtypes))))


@pytest.mark.parametrize("mode", ["nearest", "linear", "nearest-exact", "area"])
@pytest.mark.parametrize("scale", [1e30, (1e30, 2.0), (2.0, 1e30)])
def test_interpolate_recomputed_sizes_past_int64(mode, scale):
    def program(L):
        x = L.ones(2, 2, 3) if not isinstance(scale, tuple) else L.ones(2, 2, 3, 3)
        mode_ = "bilinear" if mode == "linear" and isinstance(scale, tuple) else mode
        return L.nn.functional.interpolate(x, scale_factor=scale, mode=mode_,
                                           recompute_scale_factor=True)

    # torch's message goes on with its C++ stack: its first line
    want, got = raised_by(program, torch), raised_by(program, mt)
    assert want is not None and type(got) is type(want), (got, want)
    assert str(got).split("\n")[0] == str(want).split("\n")[0]


@pytest.mark.parametrize("name", ["nll_loss", "cross_entropy", "multi_margin_loss"])
@pytest.mark.parametrize("shape", [(4,), (3,), (1, 4), ()])
@pytest.mark.parametrize("grad_mode", ["enable_grad", "no_grad"])
def test_class_weight_asking_a_gradient_is_refused_first(name, shape, grad_mode):
    def program(L):
        weight = _probabilities(L, "float32", shape, seed=2).requires_grad_()
        with getattr(L, grad_mode)():
            return getattr(L.nn.functional, name)(
                _tensor(L, "float32"), L.tensor([1, 2, 3]), weight=weight)

    assert_as_torch(program)


@pytest.mark.parametrize("weight", [1.0, "x", [1.0] * 4])
def test_cross_entropy_weight_that_is_no_tensor(weight):
    assert_as_torch(lambda L: L.nn.functional.cross_entropy(
        _tensor(L, "float32"), L.tensor([1, 2, 3]), weight=weight))


@pytest.mark.parametrize("name", ["nll_loss", "cross_entropy"])
@pytest.mark.parametrize("target_shape", [(1,), ()])
def test_one_dimensional_input_has_a_0d_loss(name, target_shape):
    assert_as_torch(lambda L: getattr(L.nn.functional, name)(
        _tensor(L, "float32", (4,)), L.tensor(np.full(target_shape, 2)), reduction="none"))


@pytest.mark.parametrize("distance", [lambda a, b: 1.0, lambda a, b: "x"])
def test_triplet_with_distance_that_gives_no_tensor(distance):
    assert_as_torch(lambda L: L.nn.functional.triplet_margin_with_distance_loss(
        *(_tensor(L, "float32", seed=i) for i in range(3)), distance_function=distance))


@pytest.mark.parametrize("input_dtype", ["float16", "float32"])
@pytest.mark.parametrize("target_dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("reduction", ["sum", "none"])
def test_bce_with_logits_rounds_each_step_in_torch_dtype(input_dtype, target_dtype, reduction):
    assert_as_torch(lambda L: L.nn.functional.binary_cross_entropy_with_logits(
        _tensor(L, input_dtype), _probabilities(L, target_dtype, seed=1), reduction=reduction))


@pytest.mark.parametrize("name", ["weight", "pos_weight"])
@pytest.mark.parametrize("dtype", ["float16", "float64", "int64"])
@pytest.mark.parametrize("shape", [(3, 4), (4,), ()])
def test_bce_with_logits_weights_in_their_own_dtype(name, dtype, shape):
    assert_as_torch(lambda L: L.nn.functional.binary_cross_entropy_with_logits(
        _tensor(L, "float32"), _probabilities(L, "float32", seed=1), reduction="none",
        **{name: _probabilities(L, dtype, shape, seed=2) * 3}))


@pytest.mark.parametrize("dtype", ["float16", "float64", "int64"])
def test_bce_weight_scales_in_their_common_dtype(dtype):
    assert_as_torch(lambda L: L.nn.functional.binary_cross_entropy(
        _probabilities(L, "float32"), _probabilities(L, "float32", seed=1), reduction="none",
        weight=_probabilities(L, dtype, (4,), seed=2) * 3))


def test_log_sigmoid_of_half_is_computed_in_float():
    a = np.random.default_rng(0).standard_normal((30, 40)).astype("float16") * 4
    assert_as_torch(lambda L: L.nn.functional.logsigmoid(L.tensor(a)))


@pytest.mark.parametrize("mode", ["linear", "bilinear", "bicubic", "trilinear"])
@pytest.mark.parametrize("align_corners", [1, "x", 0.0])
@pytest.mark.parametrize("sizing", [{"scale_factor": 2.0}, {"size": 5},
                                    {"scale_factor": 2.0, "recompute_scale_factor": True}])
def test_interpolate_align_corners_must_be_a_bool(mode, align_corners, sizing):
    rank = {"linear": 1, "trilinear": 3}.get(mode, 2)
    assert_as_torch(lambda L: L.nn.functional.interpolate(
        L.ones(2, 2, *[3] * rank), mode=mode, align_corners=align_corners, **sizing))


@pytest.mark.parametrize("lengths", [([0, 0], [0, 0]), ([0, 5], [0, 2]), ([0, 5], [1, 2])])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("zero_infinity", [False, True])
def test_ctc_loss_of_no_frames(lengths, reduction, zero_infinity):
    def program(L):
        log_probs = L.tensor(np.log(np.full((6, 2, 4), 0.25, "float32")), requires_grad=True)
        loss = L.nn.functional.ctc_loss(log_probs, L.tensor([[1, 2, 1], [3, 1, 0]]), *lengths,
                                        reduction=reduction, zero_infinity=zero_infinity)
        loss.sum().backward()
        return loss, log_probs.grad[:, 0]  # (the other sample's last bits: not this test's)

    assert_as_torch(program)


@pytest.mark.parametrize("target", [("float32", (3, 4)), ("int64", (3, 4)), ("int64", (3,))])
@pytest.mark.parametrize("extra", [{}, {"ignore_index": 1}, {"weight": (3,)}])
@pytest.mark.parametrize("smoothing", [2.0, math.nan, 0.5])
def test_cross_entropy_label_smoothing_range_after_the_target_checks(target, extra, smoothing):
    def program(L):
        dtype, shape = target
        kw = {k: L.ones(v) if k == "weight" else v for k, v in extra.items()}
        return L.nn.functional.cross_entropy(
            _tensor(L, "float32"), L.tensor(np.ones(shape, dtype)), label_smoothing=smoothing,
            **kw)

    assert_as_torch(program)


@pytest.mark.parametrize("input_dtype", ["uint8", "int32", "int64", "bool", "float32"])
@pytest.mark.parametrize("target_dtype", ["uint8", "int32", "int64", "bool", "float32"])
def test_huber_loss_kernel_named_by_the_common_dtype(input_dtype, target_dtype):
    assert_as_torch(lambda L: L.nn.functional.huber_loss(
        _tensor(L, input_dtype), _tensor(L, target_dtype, seed=1)))


@pytest.mark.parametrize("margin", [2 ** 70, 2 ** 1100, True, 1])
def test_triplet_margin_loss_reads_its_margin_as_a_double(margin):
    assert_as_torch(lambda L: L.nn.functional.triplet_margin_loss(
        *(_tensor(L, "float32", seed=i) for i in range(3)), margin=margin))
