"""nn.MultiheadAttention against torch: seeded start, printed form, parameter names, outputs,
attention weights, grad_fn names, gradients, masks, dropout and torch's errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from oracle import assert_same_error, numpy_of, raised_by

import minitorch as mt


def _layer(L: Any, *args: Any, **kwargs: Any) -> Any:
    L.manual_seed(0)
    return L.nn.MultiheadAttention(*args, **kwargs)


def _close(got: Any, want: Any) -> None:
    if want is None:
        assert got is None
    else:
        np.testing.assert_allclose(numpy_of(got), numpy_of(want), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("kwargs", [{}, dict(bias=False, batch_first=True),
                                    dict(kdim=3, vdim=5), dict(dropout=0.5)])
def test_start_and_print_like_torch(kwargs: dict) -> None:
    mine, theirs = _layer(mt, 8, 2, **kwargs), _layer(torch, 8, 2, **kwargs)
    assert repr(mine) == repr(theirs)
    got, want = dict(mine.named_parameters()), dict(theirs.named_parameters())
    assert list(got) == list(want)
    for name in want:
        np.testing.assert_array_equal(numpy_of(got[name]), numpy_of(want[name]))


def _self_attention(L: Any, batch_first: bool, **call: Any) -> list:
    m = _layer(L, 8, 2, batch_first=batch_first)
    x = L.tensor(np.random.default_rng(1).standard_normal((3, 5, 8)), dtype=L.float32,
                 requires_grad=True)
    padding = L.tensor([[False] * 5, [False] * 3 + [True] * 2, [False] * 4 + [True]])
    out, weights = m(x, x, x, key_padding_mask=padding if batch_first else None, **call)
    (out.pow(2).sum() + (0 if weights is None else weights.pow(3).sum())).backward()
    names = [out.grad_fn.name(), None if weights is None else weights.grad_fn.name()]
    return [names, out, weights, x.grad, m.in_proj_weight.grad, m.out_proj.weight.grad]


@pytest.mark.parametrize("batch_first", [True, False])
@pytest.mark.parametrize("call", [
    {}, dict(average_attn_weights=False), dict(need_weights=False),
    dict(attn_mask="causal"), dict(attn_mask="float", need_weights=False),
    dict(attn_mask="causal", is_causal=True),
    dict(attn_mask="causal", is_causal=True, need_weights=False)],
    ids=["weights", "per_head", "no_weights", "bool_mask", "float_mask", "causal_hint",
         "causal_hint_no_weights"])
def test_self_attention_like_torch(batch_first: bool, call: dict) -> None:
    def run(L: Any) -> list:
        kw, n = dict(call), 5 if batch_first else 3  # the sequence's length
        if kw.get("attn_mask") == "causal":
            kw["attn_mask"] = L.triu(L.ones(n, n, dtype=L.bool), 1)
        elif kw.get("attn_mask") == "float":
            kw["attn_mask"] = L.tensor(np.linspace(-1, 1, n * n).reshape(n, n),
                                       dtype=L.float32)
        return _self_attention(L, batch_first, **kw)
    got, want = run(mt), run(torch)
    assert got[0] == want[0]
    for g, w in zip(got[1:], want[1:]):
        _close(g, w)


def test_mismatched_masks_warn_like_torch() -> None:
    for L in (mt, torch):
        x = L.ones(3, 2, 4)
        with pytest.warns(UserWarning, match="Support for mismatched key_padding_mask and "
                          "attn_mask is deprecated. Use same type for both instead."):
            L.nn.MultiheadAttention(4, 2)(x, x, x, key_padding_mask=L.zeros(2, 3, dtype=L.bool),
                                          attn_mask=L.zeros(3, 3))


def test_cross_attention_unbatched_like_torch() -> None:
    def run(L: Any) -> list:
        m = _layer(L, 4, 2, kdim=3, vdim=5, bias=False)
        rng = np.random.default_rng(2)
        q, k, v = (L.tensor(rng.standard_normal(s), dtype=L.float32, requires_grad=True)
                   for s in ((6, 4), (7, 3), (7, 5)))
        out, weights = m(q, k, v)
        out.sum().backward()
        return [out.grad_fn.name(), out, weights, q.grad, k.grad, v.grad, m.k_proj_weight.grad]
    got, want = run(mt), run(torch)
    assert got[0] == want[0]
    for g, w in zip(got[1:], want[1:]):
        _close(g, w)


def test_dropout_draws_like_torch() -> None:
    def run(L: Any) -> list:
        m = _layer(L, 4, 2, dropout=0.5)
        q = L.randn(6, 2, 4)
        return list(m(q, q, q))
    for g, w in zip(run(mt), run(torch)):
        _close(g, w)


@pytest.mark.parametrize("make", [
    lambda L: L.nn.MultiheadAttention(6, 4),
    lambda L: L.nn.MultiheadAttention(0, 4),
    lambda L: _call(L, attn_mask=L.zeros(3, 4)),
    lambda L: _call(L, attn_mask=L.zeros(3, 3, 3)),
    lambda L: _call(L, attn_mask=L.zeros(3, 3, dtype=L.long)),
    lambda L: _call(L, key_padding_mask=L.zeros(3, 3, dtype=L.bool)),
    lambda L: _call(L, key_padding_mask=L.zeros(2, 4, dtype=L.bool)),
    lambda L: L.nn.MultiheadAttention(4, 2)(*[L.ones(3, 2, 5)] * 3),
    lambda L: L.nn.MultiheadAttention(4, 2)(L.ones(1, 3, 2, 4), L.ones(3, 2, 4),
                                            L.ones(3, 2, 4)),
], ids=["divisible", "zero", "mask_2d", "mask_3d", "mask_dtype", "padding_batch",
        "padding_length", "embed_dim", "query_dims"])
def test_bad_attention_raises_like_torch(make: Any) -> None:
    assert_same_error(raised_by(make, mt), raised_by(make, torch))


def _call(L: Any, **kwargs: Any) -> Any:
    x = L.ones(3, 2, 4)
    return L.nn.MultiheadAttention(4, 2)(x, x, x, **kwargs)
