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


def _dirac_float_groups(L: Any) -> Any:
    t = L.ones(2, 2, 3)
    try:
        L.nn.init.dirac_(t, 1.0)
    except TypeError as e:
        return str(e), t
    return None, t


@pytest.mark.parametrize("program", [
    lambda L: L.nn.init.orthogonal_(L.zeros(2, 2, 2).transpose(0, 2)).shape,
    lambda L: L.nn.init.orthogonal_(L.zeros(2, 4, 2)[:, ::2]).shape,
    lambda L: L.nn.init.orthogonal_(L.zeros(4, 2, 2)[::2]).shape,
    lambda L: L.nn.init.orthogonal_(L.zeros(4, 2).t()).shape,
    lambda L: L.nn.init.eye_(L.zeros(3).expand(2, 3)),
    lambda L: L.nn.init.eye_(L.zeros(3, 4, dtype=L.int32)[:, ::2]),
    lambda L: L.nn.init.dirac_(L.zeros(3).expand(2, 2, 3)),
    lambda L: L.nn.init.dirac_(L.zeros(2, 2, 3).transpose(0, 2)),
    lambda L: L.nn.init.dirac_(L.zeros(2, 2, 0)),
    _dirac_float_groups,
])
def test_init_writes_through_the_tensor_as_torch(program: Any) -> None:
    """h4 #2: orthogonal_ filled a tensor whose trailing dimensions torch cannot view as one
    (it copies through ``tensor.view_as(q)``); eye_ and dirac_ refused an expanded tensor
    torch writes into, and dirac_ with float groups left the tensor as it was where torch
    has zeroed it before its loop fails."""
    assert_as_torch(program)


_NAN, _INF = float("nan"), float("inf")
_ROWS = [([_NAN, 1.0], [0.0, 0.0]), ([_INF, 1.0], [_INF, 0.0]), ([0.0, 2.0], [_NAN, 0.0]),
         ([_INF, _INF], [0.0, 0.0]), ([0.0, 2.0], [-_INF, 3.0]), ([1.0, _NAN], [_NAN, 0.0]),
         ([0.0, 2.0], [0.0, 0.0])]
_DISTANCES = {
    "cdist": lambda L, x, y, p: L.cdist(x, y, p=p),
    "pdist": lambda L, x, y, p: L.pdist(L.cat([x, y]), p=p),
    "pairwise_distance": lambda L, x, y, p: L.nn.functional.pairwise_distance(x, y, p=p),
    "dist": lambda L, x, y, p: L.dist(x, y, p=p),
}


@pytest.mark.parametrize("rows", _ROWS, ids=str)
@pytest.mark.parametrize("p", [0.0, 1.0, 2.0, 3.0, _INF])
@pytest.mark.parametrize("name", list(_DISTANCES))
@pytest.mark.parametrize("grad", [False, True])
def test_distances_of_nan_and_inf_as_torch(rows: tuple, p: float, name: str, grad: bool
                                           ) -> None:
    """h4 #3, #4: cdist's loop takes a max that passes over a nan (torch [[1.]], minitorch
    nan) and its 0-"norm" sums min(ceil(|d|), 1), nan for a nan (minitorch counted it);
    cdist/pdist's gradients test |d| == dist as torch's kernel does (nan for inf - inf) and
    give p = 0 zeros; the infinity norm's gradient (pairwise_distance, dist) counts a nan as
    an extremum of sign 0 (minitorch gave nan); dist's p = 0 gradient for ``other`` is
    refused as torch negates the undefined one."""
    def fn(L: Any) -> Any:
        x, y = (L.tensor([r], dtype=L.float64, requires_grad=grad) for r in rows)
        out = _DISTANCES[name](L, x, y, p)
        return L.autograd.grad(out.sum(), (x, y)) if grad else out
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("fn", ["unfold", "fold"])
@pytest.mark.parametrize("shape", [(2, 0), (2, 3), (0, 2), (2, 0, 3), (1, 1, 1, 1), (1, 4, 1),
                                   (1, 4, 0), (4, 0), (1, 1, 0, 2), (3,)], ids=str)
@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_unfold_and_fold_check_in_torch_order(fn: str, shape: tuple, dtype: str) -> None:
    """h4 #5: unfold refused an integer input before torch's check of the blocks it makes,
    and read size(2) of a [2, 0] input torch never reads (its check stops at size(1) == 0)."""
    def program(L: Any) -> Any:
        x = L.zeros(shape, dtype=getattr(L, dtype))
        if fn == "fold":
            return L.nn.functional.fold(x, (1, 1), 2)
        return L.nn.functional.unfold(x, 2)
    assert_as_torch(program)
