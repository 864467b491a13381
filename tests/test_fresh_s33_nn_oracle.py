"""Session 33's differential fuzz of torch.nn (h4): what it found. Each case runs under torch
and minitorch (``L``) and must raise torch's exception with torch's message, or give torch's
result."""

from __future__ import annotations

from typing import Any

import pytest

from tests.oracle import assert_as_torch, assert_same

_BAG_WEIGHTS = [("int64", {}), ("int32", {"mode": "max"}), ("uint8", {"mode": "mean"}),
                ("bool", {"mode": "max"}), ("int64", {"offsets": [1]}),
                ("int32", {"offsets": [0, 5]}), ("int32", {"offsets": [9], "padding_idx": 5}),
                ("int64", {"scale_grad_by_freq": True}),
                ("int32", {"offsets": [], "include_last_offset": True}),
                ("float64", {"psw": "float32"}), ("float16", {"psw": "int64"}),
                ("float64", {"psw": "float32", "offsets": [0, 2, 1]}),
                ("float64", {"psw": "float32", "offsets": [1]}),
                ("float64", {"psw": "float64"})]


@pytest.mark.parametrize("dtype, kw", _BAG_WEIGHTS, ids=str)
def test_embedding_bag_checks_the_weight_dtype_as_torch(dtype: str, kw: dict) -> None:
    """h4 #1: embedding_bag summed integer weights where torch refuses any but a floating
    weight (after the padding row's check, before the offsets'), and took per-sample weights
    of another dtype than the weight's."""
    kw = dict(kw)
    offsets, psw = kw.pop("offsets", [0]), kw.pop("psw", None)
    kw.setdefault("mode", "sum")

    def fn(L: Any) -> Any:
        weight = L.tensor([[1, 2], [3, 4]]).to(getattr(L, dtype))
        extra = {} if psw is None else {"per_sample_weights": L.ones(2, dtype=getattr(L, psw))}
        return L.nn.functional.embedding_bag(L.tensor([0, 1]), weight,
                                             L.tensor(offsets, dtype=L.int64), **kw, **extra)
    assert_as_torch(fn, assert_same)
