"""Fresh fuzz seeds of session 20 (tensor API 20003, nn 20103): the three silent acceptances
they found. Each case runs under torch and minitorch (``L``) and must raise torch's
exception with torch's message, or give torch's result."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import SETTINGS, assert_as_torch, assert_same


@pytest.mark.parametrize("fn", [
    lambda L: L.bucketize(L.tensor([True, False]), L.tensor([False, True])),
    lambda L: L.bucketize(True, L.tensor([False, True])),
    lambda L: L.bucketize(1, L.tensor([False, True])),
    lambda L: L.bucketize(L.tensor([True]), L.tensor([0.5, 1.0])),
    lambda L: L.searchsorted(L.tensor([False, True]), L.tensor([True, False])),
    lambda L: L.searchsorted(L.tensor([False, True]), True),
    lambda L: L.searchsorted(L.tensor([0, 1]), True),
], ids=["bool-bool", "True-bool", "1-bool", "bool-float", "sorted-bool", "sorted-True",
        "int-True"])
def test_searching_bools_has_no_kernel(fn: Any) -> None:
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("target, pos_weight", [
    ("float32", "bool"), ("bool", "bool"), ("bool", "float32"), ("bool", None),
    ("int64", None), ("float32", "int64"),
], ids=str)
def test_bce_with_logits_subtracts_as_torch(target: str, pos_weight: str | None) -> None:
    def fn(L: Any) -> Any:
        F = L.nn.functional
        weight = None if pos_weight is None else L.ones(4, dtype=getattr(L, pos_weight))
        return F.binary_cross_entropy_with_logits(
            L.zeros(2, 4), L.ones(2, 4, dtype=getattr(L, target)), pos_weight=weight)
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("view", [
    lambda w: next(iter(w)), lambda w: w[0], lambda w: w * 2,
], ids=["iterated row", "indexed row", "product"])
def test_data_of_a_non_leaf_that_requires_grad_stays_floating(view: Any) -> None:
    def fn(L: Any) -> Any:
        L.manual_seed(0)
        target = view(L.nn.Linear(3, 2).weight)
        target.data = L.zeros(target.shape, dtype=L.int64)
        return target
    assert_as_torch(fn, assert_same)


def test_vector_to_parameters_refuses_an_integer_vector_for_rows() -> None:
    def fn(L: Any) -> Any:
        w = L.nn.Linear(3, 2).weight
        L.nn.utils.vector_to_parameters(L.arange(6), w)  # iterating w gives its rows
    assert_as_torch(fn, assert_same)


@SETTINGS
@given(start=st.floats(-6, 6), span=st.floats(0, 12), step=st.sampled_from([1, 2, 1.5, 3.7]),
       dtype=st.sampled_from(["uint8", "int8", "int16", "int32", "int64"]))
def test_arange_of_floats_counts_as_torch_per_integer_dtype(start: float, span: float,
                                                            step: float, dtype: str) -> None:
    """int64 counts from the truncated bounds; the narrower integers from the numbers given
    (fresh seed 20003: ``arange(3.99, dtype=uint8)`` has 4 values)."""
    if dtype == "uint8":
        start = abs(start)
    assert_as_torch(lambda L: L.arange(start, start + span, step, dtype=getattr(L, dtype)),
                    assert_same)


@pytest.mark.parametrize("dtype", ["int32", "bool", "uint8", "int8", "float32"])
@pytest.mark.parametrize("kwargs", [
    {"min": 1}, {"bins": 2}, {"bins": 2, "min": 0, "max": 3}, {"bins": 0}, {"bins": 0, "min": 1},
    {"min": float("inf"), "max": 2}, {"min": float("nan")}, {"bins": -1, "min": 3, "max": 1},
    {"min": 200, "max": 300}, {"min": -1, "max": 2},
], ids=str)
@pytest.mark.parametrize("empty", [False, True], ids=["data", "empty"])
def test_histc_checks_bins_then_range_then_dtype(dtype: str, kwargs: dict, empty: bool) -> None:
    """Fresh seed 20003: torch checks the bins and the range before the dtype's refusal; bool
    fails making its bin edges, uint8 reading an empty input's widened range."""
    def fn(L: Any) -> Any:
        x = L.zeros(0) if empty else L.tensor([[1.0, 0.0, 1.0]])
        return L.histc(x.to(getattr(L, dtype)), **kwargs)
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("fn", [
    lambda L: L.zeros(2, dtype=L.int8).mean(2**63),
    lambda L: L.zeros(2, dtype=L.int8).mean(-2**63 - 1, keepdim=True),
], ids=["int", "negative"])
def test_a_dim_that_overflows_is_refused_before_the_dtype(fn: Any) -> None:
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("value", [None, "a", [1], object()],
                         ids=["None", "str", "list", "object"])
def test_setitem_into_half_names_the_half_tensor(value: Any) -> None:
    def fn(L: Any) -> Any:
        x = L.zeros(3, dtype=L.float16)
        x[L.tensor([0])] = value
        return x
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("mode", ["trunc", "floor"])
@pytest.mark.parametrize("divisor", [
    "tensor", 255, 0.3, 7, -2.5, 1e-8, 0, True, "0-d float16", "0-d float64", "(1,) int32",
    "(1, 1) float16",
], ids=str)
def test_half_rounded_division_as_torch_kernels(mode: str, divisor: Any) -> None:
    """Fresh seed 20303: ``float16 / 255`` truncated gave 257 where torch gives 256. A divisor
    of one value is read into float32 and the quotient computed there; two tensors round each
    step to float16 (floor's formula included)."""
    rng = np.random.default_rng(7)
    a = (rng.standard_normal(4000) * rng.choice([1, 100, 10000], 4000)).astype(np.float16)
    b = (rng.standard_normal(4000) * rng.choice([0.01, 1, 300], 4000)).astype(np.float16)
    a[:4] = [np.inf, -np.inf, np.nan, -0.0]
    b[4:8] = [0, -0.0, np.inf, np.nan]

    def fn(L: Any) -> Any:
        if divisor == "tensor":
            d = L.tensor(b)
        elif isinstance(divisor, str):
            shape, dtype = divisor.rsplit(" ", 1)
            d = L.full(() if shape == "0-d" else eval(shape), -3.7, dtype=getattr(L, dtype))
        else:
            d = divisor
        x = L.tensor(a)
        return (x // d if mode == "floor" else L.div(x, d, rounding_mode=mode)).numpy()
    got, want = fn(mt), fn(torch)
    same = (got.view(np.int16) == want.view(np.int16)) | (np.isnan(got) & np.isnan(want))
    assert same.all(), f"{(~same).sum()} differ: {got[~same][:5]} vs torch {want[~same][:5]}"


@pytest.mark.parametrize("index", [[[0, 5], [1, 2]], [[5, 0], [1, 2]], [[0, 1], [7, 2]],
                                   [[-1, 1], [0, 2]]], ids=str)
@pytest.mark.parametrize("value, dtype", [(2**63, "int64"), (1e300, "int64"),
                                          (float("nan"), "int64"), (300, "int8")], ids=str)
@pytest.mark.parametrize("inplace", [False, True], ids=["scatter", "scatter_"])
def test_scatter_value_converted_at_the_first_write(index: list, value: Any, dtype: str,
                                                    inplace: bool) -> None:
    """Fresh seed 20303: torch's kernel converts the value as it writes the first element, so
    a value that does not fit is refused first unless that first index is out of range."""
    def fn(L: Any) -> Any:
        x = L.zeros(2, 4, dtype=getattr(L, dtype))
        return (x.scatter_ if inplace else x.scatter)(1, L.tensor(index), value)
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("dtype", ["int8", "int64", "uint8", "bool", "float16", "float32"])
@pytest.mark.parametrize("value", [2**63, 2**64, -2**63, 300, -1, 1e300, float("nan"),
                                   float("inf"), 2.7, True, 1 + 0j, 1j, -0.5], ids=str)
def test_fill_diagonal_reads_its_value_as_fill_does(dtype: str, value: Any) -> None:
    """Fresh seed 20004: ``fill_diagonal_(2**63)`` of an int8 tensor leaked numpy's
    OverflowError; torch fills the diagonal's view, converting the value as ``fill_`` does
    (a complex by its real part)."""
    def fn(L: Any) -> Any:
        return L.zeros(3, 3, dtype=getattr(L, dtype)).fill_diagonal_(value).float()
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("fn", [
    lambda L: L.zeros(0, dtype=L.uint8).nansum(keepdim=True),
    lambda L: L.ones(2, 3, dtype=L.int32).nansum(keepdim=True),
    lambda L: L.ones(2, 3, dtype=L.int32).nansum(None, True),
    lambda L: L.tensor(3).nansum(keepdim=True),
    lambda L: L.tensor([1.0, float("nan")]).nansum(keepdim=True, dtype=L.int32),
], ids=["empty uint8", "int32", "positional", "0-d", "float to int32"])
def test_integer_nansum_keeps_every_dim_with_keepdim(fn: Any) -> None:
    """Fresh seed 20004: an integer nansum dropped ``keepdim`` without a dim."""
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("fn", [
    lambda L: L.ones(2, 1, 2, dtype=L.float64).__rtruediv__(L.ones(2, 3)),
    lambda L: L.tensor([1.5, 3.0], requires_grad=True).__rtruediv__(L.tensor([0.7, 0.3])),
    lambda L: L.tensor([1, 2]).__rtruediv__(L.tensor([3, 4])),
    lambda L: L.tensor([2.0, 4.0]).__rdiv__(8),
    lambda L: L.tensor([2.0, 4.0]).__div__(2),
    lambda L: L.tensor([2.0, 4.0]).clone().__idiv__(2),
    lambda L: L.tensor(3.5).__long__(),
    lambda L: L.tensor(0.0).__nonzero__(),
], ids=["broadcast message", "values and node", "ints", "rdiv", "div", "idiv", "long",
        "nonzero"])
def test_reflected_division_is_the_reciprocal_times_other(fn: Any) -> None:
    """Fresh seed 20004: torch's ``__rtruediv__`` is ``self.reciprocal() * other`` for a
    tensor ``other`` too (its broadcast message names ``self`` first), and the Python 2
    names answer as torch's."""
    assert_as_torch(fn, assert_same)


@pytest.mark.parametrize("settings", [{"max_iter": 1.5}, {"max_iter": 2.5, "history_size": 3},
                                      {"max_iter": 0}, {"max_iter": 1.5, "max_eval": 4}],
                         ids=str)
def test_lbfgs_counts_iterations_as_torch(settings: dict) -> None:
    """Fresh seed 20104: ``LBFGS(max_iter=1.5)`` failed inside ``range``; torch counts its
    iterations up to any number."""
    def fn(L: Any) -> Any:
        w = L.nn.Parameter(L.tensor([[1.0, -2.0], [0.5, 3.0]], dtype=L.float64))
        opt = L.optim.LBFGS([w], **settings)

        def closure() -> Any:
            opt.zero_grad()
            loss = ((w - 0.3) ** 4).sum()
            loss.backward()
            return loss
        opt.step(closure)
        return L.stack([w.detach().flatten(), L.tensor([1.0, 1.0, 1.0, 1.0], dtype=L.float64)
                        * opt.state[w]["func_evals"]])
    assert_as_torch(fn, assert_same)
