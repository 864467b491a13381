"""Bad input found by the s20 fuzzn fuzz (nn, functional, init, utils): minitorch answers as
torch 2.13 does, with its exception type and message or its result."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import FEW, assert_same, assert_same_error, raised_by


def F(L: Any) -> Any:
    return L.nn.functional


def sdpa(L: Any, q: tuple, k: tuple, v: tuple, **kw: Any) -> Any:
    mask = kw.pop("mask", None)
    if mask is not None:
        kw["attn_mask"] = L.ones(*mask)
    return F(L).scaled_dot_product_attention(L.ones(*q), L.ones(*k), L.ones(*v), **kw)


REFUSED = {
    # fill_ has a Tensor and a Number overload: torch's message names both
    "fill_none": lambda L: L.ones(2).fill_(None),
    "fill_tuple": lambda L: L.ones(2).fill_((1,)),
    "fill_list": lambda L: L.ones(2).fill_([1.0]),
    "prelu_init_none": lambda L: L.nn.PReLU(init=None),
    "constant_nested": lambda L: L.nn.init.constant_(L.ones(()), ((0.5,),)),
    # a functional's unknown keyword: the caller's TypeError, not the dispatcher's
    "sigmoid_inplace": lambda L: F(L).sigmoid(L.ones(2), inplace=True),
    "gelu_inplace": lambda L: F(L).gelu(L.ones(2), inplace=False),
    # sdpa: an empty batch takes torch's math path, which checks the shapes
    "sdpa_empty_batch": lambda L: sdpa(L, (0, 3, 4), (2, 5, 4), (2, 5, 4)),
    "sdpa_empty_batch_4d": lambda L: sdpa(L, (0, 3, 4), (2, 2, 3, 4), (2, 3, 4), is_causal=True),
    "sdpa_empty_causal_mask": lambda L: sdpa(L, (0, 3, 2), (1, 2), (2, 1, 2), mask=(3, 1),
                                             is_causal=True),
    "sdpa_mask_grows_scores": lambda L: sdpa(L, (2, 3, 4), (2, 5, 4), (2, 5, 4),
                                             mask=(3, 2, 1, 1)),
    "sdpa_mask_grows_scores_grad": lambda L: F(L).scaled_dot_product_attention(
        L.ones(2, 3, 2), L.ones(1, 2, requires_grad=True), L.ones(2, 1, 3),
        attn_mask=L.ones(3, 2, dtype=L.bool)),
    "sdpa_mask_last_dim_first": lambda L: sdpa(L, (2, 3, 0), (2, 5, 0), (2, 5, 4),
                                               mask=(3, 5, 5)),
    "sdpa_gqa_2d_key": lambda L: sdpa(L, (2, 3, 4), (5, 4), (2, 5, 4), enable_gqa=True),
    # rnn packing: ATen's parser reads batch_first, padding_value, total_length first
    "pack_batch_first_int": lambda L: L.nn.utils.rnn.pack_padded_sequence(
        L.ones(0, 2), [1, 1], batch_first=1),
    "pack_batch_first_none": lambda L: L.nn.utils.rnn.pack_padded_sequence(
        L.ones(3, 2), [1, 1], batch_first=None),
    "pad_packed_batch_first": lambda L: L.nn.utils.rnn.pad_packed_sequence(
        L.nn.utils.rnn.pack_sequence([L.ones(2)]), batch_first=1, padding_value="a"),
    "pad_packed_padding_value": lambda L: L.nn.utils.rnn.pad_packed_sequence(
        L.nn.utils.rnn.pack_sequence([L.ones(2)]), padding_value=None),
    "pad_packed_total_float": lambda L: L.nn.utils.rnn.pad_packed_sequence(
        L.nn.utils.rnn.pack_sequence([L.ones(2)]), total_length=2.5),
    "pad_packed_total_bool": lambda L: L.nn.utils.rnn.pad_packed_sequence(
        L.nn.utils.rnn.pack_sequence([L.ones(1)]), total_length=True),
    "pad_sequence_batch_first": lambda L: L.nn.utils.rnn.pad_sequence([L.ones(2)], batch_first=1),
    "pad_sequence_value_none": lambda L: L.nn.utils.rnn.pad_sequence([L.ones(2)],
                                                                     padding_value=None),
    "pad_sequence_side_none": lambda L: L.nn.utils.rnn.pad_sequence([], padding_side=None),
    "pad_sequence_item_first": lambda L: L.nn.utils.rnn.pad_sequence([1], padding_side="mid"),
    # the target's range is read before either dtype
    "multilabel_range_int32": lambda L: F(L).multilabel_margin_loss(
        L.ones(2, 1), L.ones(2, 1, dtype=L.int32)),
    "multilabel_range_long_input": lambda L: F(L).multilabel_margin_loss(
        L.ones(2, 1, dtype=L.int64), L.ones(2, 1, dtype=L.int32)),
    "multilabel_range_float": lambda L: F(L).multilabel_margin_loss(
        L.ones(2, 1), L.ones(2, 1, dtype=L.float32)),
    # a transposed convolution checks its sizes before the weight's dtype
    "conv_t1d_small": lambda L: F(L).conv_transpose1d(
        L.ones(2, 4, 3, dtype=L.float64), L.ones(4, 2, 1), stride=2, padding=100),
    "conv_t2d_small": lambda L: F(L).conv_transpose2d(
        L.ones(2, 4, 1, 3, dtype=L.float64), L.ones(4, 2, 1, 1), stride=2, padding=100),
    "conv_t3d_small": lambda L: F(L).conv_transpose3d(
        L.ones(2, 4, 1, 3, 3, dtype=L.float64), L.ones(4, 2, 1, 1, 1), stride=2, padding=100),
    "conv_t2d_output_padding": lambda L: F(L).conv_transpose2d(
        L.ones(2, 4, 1, 3, dtype=L.float64), L.ones(4, 2, 1, 1), stride=2, output_padding=3),
    # local_response_norm of 4-d input pools with avg_pool3d, after its pad
    "lrn_negative_4d": lambda L: F(L).local_response_norm(L.ones(1, 2, 3, 2), -1),
    "lrn_negative_5d_pad_first": lambda L: F(L).local_response_norm(L.ones(1, 2, 3, 2, 2), -3),
    # fold: negative block counts whose product is right
    "fold_negative_blocks": lambda L: F(L).fold(L.ones(0, 4, 4), output_size=-1, kernel_size=2),
    "fold_negative_blocks_mismatch": lambda L: F(L).fold(L.ones(1, 4, 1), output_size=(-1, -1),
                                                         kernel_size=2),
    # vmap's chunks are joined by a stricter reading of out_dims
    "vmap_chunked_1tuple": lambda L: L.func.vmap(lambda u: u.sum(), out_dims=(0,),
                                                 chunk_size=1)(L.ones(2, 3)),
    # uniform_'s bounds in the tensor's own dtype, and their span
    "uniform_half_from": lambda L: L.zeros(2, dtype=L.float16).uniform_(-1e6, 1),
    "uniform_half_span": lambda L: L.zeros(2, dtype=L.float16).uniform_(-65504, 65504),
    "uniform_float_span": lambda L: L.zeros(2).uniform_(-3e38, 3e38),
    "uniform_double_span": lambda L: L.zeros(2, dtype=L.float64).uniform_(-1e308, 1e308),
    "xavier_half_inf": lambda L: L.nn.init.xavier_uniform_(L.zeros(0, 3, dtype=L.float16),
                                                           gain=-float("inf")),
    "orthogonal_half": lambda L: L.nn.init.orthogonal_(L.zeros(3, 3, dtype=L.float16)),
    # torch's Python reads .device of each parameter, .split of a submodule path
    "p2v_int": lambda L: L.nn.utils.parameters_to_vector([L.ones(2), 2]),
    "v2p_int": lambda L: L.nn.utils.vector_to_parameters(L.ones(2), [1]),
    "get_submodule_none": lambda L: L.nn.Linear(2, 2).get_submodule(None),
    # MaxUnpool2d keeps torch's _pair of its sizes: the functional reads them
    "unpool2d_padding_float": lambda L: L.nn.MaxUnpool2d(2, padding=1.5)(
        L.ones(1, 2, 2, 2), L.zeros(1, 2, 2, 2, dtype=L.int64)),
    "unpool2d_kernel_3": lambda L: L.nn.MaxUnpool2d((1, 2, 3))(
        L.ones(1, 2, 2, 2), L.zeros(1, 2, 2, 2, dtype=L.int64)),
    "unpool2d_padding_1": lambda L: L.nn.MaxUnpool2d(2, padding=(2,))(
        L.ones(1, 2, 2, 2), L.zeros(1, 2, 2, 2, dtype=L.int64), output_size=(1, 2, 4, 4)),
    # a packed LSTM without states reaches its kernel unchecked
    "lstm_packed_double": lambda L: L.nn.LSTM(2, 3)(
        L.nn.utils.rnn.pack_sequence([L.ones(2, 2, dtype=L.float64)])),
    "lstm_packed_long": lambda L: L.nn.LSTM(2, 3)(
        L.nn.utils.rnn.pack_sequence([L.ones(2, 2, dtype=L.int64)])),
    "lstm_packed_double_weights": lambda L: L.nn.LSTM(2, 3, dtype=L.float64)(
        L.nn.utils.rnn.pack_sequence([L.ones(2, 2)])),
    # interpolate: torch's Python refuses antialias before its kernel parses the scales
    "interp_antialias_before_scale": lambda L: F(L).interpolate(
        L.ones(1, 3, 1), scale_factor="x", mode="nearest-exact", antialias=True),
    "interp_antialias_3d_nearest": lambda L: F(L).interpolate(
        L.ones(3, 1, 2), scale_factor="x", mode="nearest", antialias=True),
    # EmbeddingBag reads num_embeddings only on the side padding_idx is on
    "embedding_bag_str_size_pad0": lambda L: L.nn.EmbeddingBag("a", None, padding_idx=0),
    "embedding_bag_str_size_pad1": lambda L: L.nn.EmbeddingBag("a", 2, padding_idx=1),
    "embedding_bag_str_size_neg": lambda L: L.nn.EmbeddingBag("a", 2, padding_idx=-1),
    "embedding_bag_pad_high": lambda L: L.nn.EmbeddingBag(4, 2, padding_idx=4),
    "embedding_bag_pad_low": lambda L: L.nn.EmbeddingBag(4, 2, padding_idx=-5),
}


@pytest.mark.parametrize("name", REFUSED)
def test_refused_as_torch(name: str) -> None:
    want = raised_by(REFUSED[name], torch)
    assert want is not None, "torch accepts this: the case is wrong"
    assert_same_error(raised_by(REFUSED[name], mt), want)


def test_functional_binding_error_points_at_the_caller() -> None:
    """The dispatcher adds no frame of its own to a call that did not bind."""
    with pytest.raises(TypeError) as info:
        mt.nn.functional.sigmoid(mt.ones(2), inplace=True)
    assert info.traceback[-1].statement.lines[-1].strip().startswith("raise")


ACCEPTED = {
    "sdpa_empty_rows": lambda L: sdpa(L, (2, 0, 4), (2, 5, 4), (3, 5, 4)),
    "sdpa_empty_width_out": lambda L: sdpa(L, (2, 3, 4), (3, 5, 4), (2, 5, 0), mask=(3, 5, 5)),
    "sdpa_empty_keys": lambda L: sdpa(L, (2, 3, 4), (3, 0, 4), (2, 0, 4)),
    "sdpa_empty_batch_fits": lambda L: sdpa(L, (0, 3, 4), (5, 4), (5, 4)),
    "sdpa_gqa_same_heads": lambda L: sdpa(L, (2, 3, 4), (2, 5, 4), (2, 5, 4), enable_gqa=True),
    "fill_numpy_scalar": lambda L: L.ones(2).fill_(np.float32(2.5)),
    "pad_sequence_int_float_value": lambda L: L.nn.utils.rnn.pad_sequence(
        [L.ones(2, dtype=L.int64), L.ones(1, dtype=L.int64)], padding_value=1.5),
    "vmap_chunked_tuple_out": lambda L: L.func.vmap(lambda u: (u.sum(),), out_dims=(0,),
                                                    chunk_size=5)(L.ones(2, 3))[0],
    "uniform_half_wide": lambda L: L.zeros(2, dtype=L.float16).uniform_(-3e4, 3e4).shape,
    "ctc_elementwise_mean": lambda L: F(L).ctc_loss(
        L.zeros(5, 2, 4).log_softmax(2), L.tensor([[1, 2], [1, 1]]), (5, 5), (2, 2),
        reduction="elementwise_mean"),
    "unpool2d_kernel_bool": lambda L: L.nn.MaxUnpool2d(True, stride=2)(
        L.ones(1, 2, 2, 2), L.zeros(1, 2, 2, 2, dtype=L.int64)),
    "vmap_unchunked_1tuple": lambda L: L.func.vmap(lambda u: u.sum(), out_dims=(0,))(
        L.ones(2, 3)),
}


@pytest.mark.parametrize("name", ACCEPTED)
def test_accepted_as_torch(name: str) -> None:
    got, want = ACCEPTED[name](mt), ACCEPTED[name](torch)
    if isinstance(want, torch.Size):
        assert tuple(got) == tuple(want)
    else:
        assert_same(got, want)


@FEW
@given(st.sampled_from([np.nan, np.inf, -np.inf, 1e30, 0.0]), st.integers(0, 5),
       st.booleans())
def test_muon_with_a_huge_or_odd_gradient(odd: float, where: int, nesterov: bool) -> None:
    """Muon's bfloat16 emulation keeps an infinite norm infinite (it made NaN of every
    weight where torch's update is zero)."""
    rng = np.random.default_rng(where)
    weight = rng.standard_normal((3, 2)).astype("float32")
    grad = rng.standard_normal((3, 2)).astype("float32")
    grad.reshape(-1)[where] = odd

    def run(L: Any) -> Any:
        w = L.tensor(weight.copy(), requires_grad=True)
        opt = L.optim.Muon([w], nesterov=nesterov)
        for _ in range(2):
            w.grad = L.tensor(grad.copy())
            opt.step()
        return w.detach()
    assert_same(run(mt), run(torch))


@FEW
@given(st.integers(1, 3), st.integers(1, 2), st.integers(2, 3))
def test_unfold_of_an_empty_batch(channels: int, kernel: int, side: int) -> None:
    """An empty batch unfolds to an empty batch of columns (it failed in numpy's reshape)."""
    def run(L: Any) -> Any:
        x = L.ones(0, channels, side, side, requires_grad=True)
        out = F(L).unfold(x, kernel)
        out.sum().backward()
        return out, x.grad
    (got, got_grad), (want, want_grad) = run(mt), run(torch)
    assert_same(got, want)
    assert_same(got_grad, want_grad)


def _jacfwd_negative(L: Any, argnums: Any) -> Any:
    x, y = L.tensor([-1.78, 1.0], dtype=L.float64), L.tensor([2.0, 3.0], dtype=L.float64)
    return L.func.jacfwd(lambda u, v: u * v * u, argnums=argnums)(x, y)


@pytest.mark.parametrize("argnums", [-1, -2, (0, -1), (-2, 1)])
def test_jacfwd_negative_argnums_as_torch(argnums: Any) -> None:
    """torch's jacfwd compares positions with argnums as written: a negative one names an
    input it never replaces with its dual, whose Jacobian is then zeros (jacrev and grad
    are right; this is torch's answer all the same)."""
    got, want = _jacfwd_negative(mt, argnums), _jacfwd_negative(torch, argnums)
    for g, w in zip(got if isinstance(got, tuple) else (got,),
                    want if isinstance(want, tuple) else (want,)):
        assert_same(g, w)

