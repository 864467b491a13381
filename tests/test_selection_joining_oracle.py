"""Tutorial APIs for picking and joining against torch: ``masked_select``, ``take_along_dim``,
``kthvalue``, ``median``/``nanmedian``, ``mode``, ``msort``, ``tensor_split``,
``unsafe_split``/``unsafe_chunk``, ``hstack``/``vstack``/``dstack``/``column_stack``/
``row_stack``, ``atleast_*d``, ``type_as``, ``unique`` and ``resize_``: printed results
(values, dtypes, node names), gradients, and torch's errors for bad arguments."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import FEW, SETTINGS, arrays, assert_same_error, raised_by, shapes

NAN = float("nan")


def _printed(L: Any, call: Any, data: np.ndarray) -> list[str]:
    """What a program prints: the result, then the gradient of its squares' sum."""
    x = L.tensor(data, requires_grad=True)
    result = call(L, x)
    out = [repr(result)]
    pieces = result if isinstance(result, tuple) else (result,)
    tracked = [t for t in pieces if t.grad_fn is not None and "Unique" not in t.grad_fn.name()]
    if tracked:
        total = sum(t.pow(2).sum() for t in tracked)
        out.append(repr(L.autograd.grad(total, x)[0]))
    return out


def assert_prints_like_torch(call: Any, data: np.ndarray) -> None:
    assert _printed(mt, call, data) == _printed(torch, call, data)


MATRIX = np.array([[3., 1., 2., 7.], [0., 5., 4., -1.], [2., 2., 9., 2.]])
TIES = np.random.default_rng(0).integers(0, 4, (5, 9)).astype(float)

CALLS = {
    "masked_select": lambda L, x: L.masked_select(x, x > 1.5),
    "masked_select_broadcast": lambda L, x: x.masked_select(L.tensor([True, False, True, True])),
    "masked_select_mask_wider": lambda L, x: x[0].masked_select(L.tensor([[True], [False]])),
    "take_along_dim": lambda L, x: L.take_along_dim(x, x.argsort(dim=1), dim=1),
    "take_along_dim_broadcast": lambda L, x: L.take_along_dim(x, L.tensor([[0, 1, 1, 2]]), 0),
    "take_along_dim_flat": lambda L, x: L.take_along_dim(x, L.tensor([0, 11, 4])),
    "take_along_dim_method": lambda L, x: x.take_along_dim(L.tensor([[1], [0], [3]]), -1),
    "kthvalue": lambda L, x: x.kthvalue(2, 1),
    "kthvalue_keepdim": lambda L, x: L.kthvalue(x, 3, 0, True),
    "median": lambda L, x: x.median(),
    "median_dim": lambda L, x: x.median(1),
    "median_keepdim": lambda L, x: L.median(x, 0, keepdim=True),
    "nanmedian": lambda L, x: x.nanmedian(),
    "nanmedian_dim": lambda L, x: x.nanmedian(-1),
    "mode": lambda L, x: x.mode(),
    "mode_dim0": lambda L, x: L.mode(x, 0, True),
    "msort": lambda L, x: L.msort(x),
    "msort_method": lambda L, x: x.msort(),
    "tensor_split_sections": lambda L, x: x.tensor_split(3, dim=1),
    "tensor_split_indices": lambda L, x: L.tensor_split(x, [1, 6, 2], 1),
    "tensor_split_tensor": lambda L, x: x.tensor_split(L.tensor([1, 2])),
    "tensor_split_tensor_sections": lambda L, x: x.tensor_split(L.tensor(2)),
    "unsafe_split": lambda L, x: x.unsafe_split(3, 1),
    "unsafe_chunk": lambda L, x: L.unsafe_chunk(x, 2, 0),
    "hstack": lambda L, x: L.hstack([x, x[:, :1]]),
    "hstack_1d": lambda L, x: L.hstack([x[0], x[1, 0]]),
    "vstack": lambda L, x: L.vstack([x, x[0]]),
    "row_stack": lambda L, x: L.row_stack((x[0], x[1])),
    "dstack": lambda L, x: L.dstack([x, x]),
    "dstack_1d": lambda L, x: L.dstack([x[0], x[1]]),
    "column_stack": lambda L, x: L.column_stack([x[0], x[1], x[2]]),
    "column_stack_2d": lambda L, x: L.column_stack([x, x[:, 0]]),
    "atleast": lambda L, x: (L.atleast_1d(x[0, 0]), L.atleast_2d(x[0]), L.atleast_3d(x)),
    "atleast_many": lambda L, x: L.atleast_2d(x[0, 0], x[0]),
    "type_as_double": lambda L, x: x.type_as(L.ones(1, dtype=L.float64)),
    "type_as_long": lambda L, x: x.type_as(L.tensor([1])),
    "unique": lambda L, x: L.unique(x),
    "unique_all": lambda L, x: x.unique(return_inverse=True, return_counts=True),
    "unique_dim": lambda L, x: L.unique(x.detach(), dim=1, return_inverse=True,
                                        return_counts=True),
}


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("data", [MATRIX, MATRIX.astype(np.float32)], ids=["f64", "f32"])
def test_prints_what_torch_prints(name: str, data: np.ndarray) -> None:
    assert_prints_like_torch(CALLS[name], data)


@pytest.mark.parametrize("name", ["median", "median_dim", "nanmedian", "nanmedian_dim", "mode",
                                  "mode_dim0", "unique", "unique_all", "unique_dim", "msort"])
def test_ties_pick_torchs_value_and_index(name: str) -> None:
    """Rows with repeated values: the lower median, the smallest most frequent value at its
    last index, the distinct rows in order."""
    assert_prints_like_torch(CALLS[name], TIES)


@pytest.mark.parametrize("name", ["median", "median_dim", "nanmedian", "nanmedian_dim",
                                  "unique", "unique_all"])
def test_nan(name: str) -> None:
    """median is NaN where a row has NaN (at the first NaN); nanmedian skips NaN; each NaN
    is a distinct value of unique."""
    data = np.array([[1., NAN, 0., 3.], [2., 1., 3., 0.], [NAN, 4., NAN, 5.]])
    assert_prints_like_torch(CALLS[name], data)


@pytest.mark.parametrize("call", [lambda L, x: x.median(), lambda L, x: x.median(0),
                                  lambda L, x: x.kthvalue(1), lambda L, x: x.mode(),
                                  lambda L, x: x.nanmedian(-1, True)])
def test_zero_dim_inputs(call: Any) -> None:
    assert_prints_like_torch(call, np.array(5.))


def test_integer_and_bool_inputs() -> None:
    def run(L: Any) -> list[str]:
        ints = L.tensor([[3, 1, 3, 2], [1, 1, 0, 2]])
        return [repr(v) for v in (ints.median(), ints.median(1), ints.mode(1), ints.kthvalue(2),
                                  L.unique(ints > 1, return_counts=True),
                                  L.masked_select(ints, ints > 1), L.hstack([ints, ints > 1]))]
    assert run(mt) == run(torch)


@given(data=arrays(shapes(min_dims=1, max_dims=3)), k=st.integers(1, 4), dim=st.integers(-1, 0))
@SETTINGS
def test_kthvalue_and_median_any_shape(data: np.ndarray, k: int, dim: int) -> None:
    """Distinct values (ties pick the index by torch's quickselect, which minitorch does not
    copy): values, indices and gradients."""
    data = data + np.arange(data.size).reshape(data.shape) * 1e-3  # make ties unlikely
    if len(np.unique(data)) != data.size:
        return
    k = min(k, data.shape[dim])
    for call in (lambda L, x: x.kthvalue(k, dim), lambda L, x: x.median(dim),
                 lambda L, x: x.nanmedian(dim, True), lambda L, x: x.median()):
        assert_prints_like_torch(call, data)


@given(data=arrays(shapes(min_dims=1, max_dims=3)), sections=st.integers(1, 5),
       cuts=st.lists(st.integers(-5, 5), max_size=3), dim=st.integers(-1, 0))
@SETTINGS
def test_tensor_split_any_shape(data: np.ndarray, sections: int, cuts: list, dim: int) -> None:
    assert_prints_like_torch(lambda L, x: x.tensor_split(sections, dim), data)
    assert_prints_like_torch(lambda L, x: L.tensor_split(x, cuts, dim), data)


@given(data=arrays(shapes(min_dims=0, max_dims=3, max_side=3)), n=st.integers(1, 3))
@FEW
def test_stacks_any_shape(data: np.ndarray, n: int) -> None:
    for fn in ("hstack", "vstack", "dstack", "column_stack", "row_stack"):
        if fn == "column_stack" and data.ndim > 2:
            continue
        assert_prints_like_torch(lambda L, x, fn=fn: getattr(L, fn)([x] * n), data)


@given(data=arrays(shapes(min_dims=1, max_dims=3, max_side=4), elements=st.sampled_from(
    [0.0, 1.0, 2.0, -1.0])), dim=st.integers(-1, 0))
@SETTINGS
def test_unique_any_shape(data: np.ndarray, dim: int) -> None:
    assert_prints_like_torch(lambda L, x: L.unique(x, return_inverse=True,
                                                   return_counts=True), data)
    assert_prints_like_torch(lambda L, x: L.unique(x.detach(), dim=dim, return_inverse=True,
                                                   return_counts=True), data)


@given(data=arrays(shapes(min_dims=1, max_dims=3)), seed=st.integers(0, 100))
@SETTINGS
def test_masked_select_and_take_along_dim_any_shape(data: np.ndarray, seed: int) -> None:
    rng = np.random.default_rng(seed)
    mask = rng.random(data.shape[-1:]) > 0.5
    index = rng.integers(0, data.shape[-1], data.shape)
    assert_prints_like_torch(lambda L, x: L.masked_select(x, L.tensor(mask)), data)
    assert_prints_like_torch(lambda L, x: L.take_along_dim(x, L.tensor(index), -1), data)


def test_unique_has_no_derivative_and_type_as_keeps_the_tensor() -> None:
    for L in (mt, torch):
        x = L.ones(3)
        assert x.type_as(L.zeros(2)) is x
    for call in (lambda L: L.unique(L.ones(2, requires_grad=True)).sum().backward(),
                 lambda L: L.unique(L.ones(2, 2, requires_grad=True), dim=0).sum().backward()):
        assert_same_error(raised_by(call, mt), raised_by(call, torch))


def test_resize_keeps_the_first_elements_in_place() -> None:
    def run(L: Any) -> list[str]:
        x = L.arange(6.)
        y = x.resize_(2, 2)
        return [repr(y), str(y is x), str(x._version), repr(x.resize_(1, 3)),
                repr(x.resize_((3,)).shape)]
    assert run(mt) == run(torch)


BAD_CALLS = [
    lambda L: L.masked_select(L.ones(3), L.ones(3)),
    lambda L: L.masked_select(L.ones(3), L.ones(2, dtype=L.bool)),
    lambda L: L.masked_select(L.ones(3), [True, False, True]),
    lambda L: L.take_along_dim(L.ones(3, 2), L.tensor([1]), 1),
    lambda L: L.take_along_dim(L.ones(3, 2), L.tensor([[1.]]), 1),
    lambda L: L.take_along_dim(L.ones(3, 2), L.tensor([[1]]), 2),
    lambda L: L.ones(3).kthvalue(4), lambda L: L.ones(3).kthvalue(0),
    lambda L: L.ones(2, 3).kthvalue(1, 2), lambda L: L.ones(2, 3).median(5),
    lambda L: L.ones(2, 0).median(1), lambda L: L.ones(0).mode(),
    lambda L: L.ones(2, 0).nanmedian(1),
    lambda L: L.hstack([]), lambda L: L.vstack(L.ones(2)), lambda L: L.column_stack(()),
    lambda L: L.dstack([L.ones(2), L.ones(3)]), lambda L: L.row_stack([]),
    lambda L: L.tensor_split(L.ones(3), 0), lambda L: L.ones(3).tensor_split(2.5),
    lambda L: L.tensor(1.).tensor_split(2),
    lambda L: L.ones(3).tensor_split(L.tensor([[1]])),
    lambda L: L.ones(3).tensor_split(2, 1),
    lambda L: L.ones(3).unsafe_split(0), lambda L: L.unsafe_chunk(L.ones(3), 0),
    lambda L: L.ones(2).type_as(3), lambda L: L.unique(L.ones(2), dim=3),
    lambda L: L.ones(2, 3).resize_(-1, 2),
    lambda L: L.ones(2, requires_grad=True).resize_(3),
]


@pytest.mark.parametrize("call", BAD_CALLS)
def test_bad_arguments_raise_torchs_errors(call: Any) -> None:
    want = raised_by(call, torch)
    assert want is not None
    assert_same_error(raised_by(call, mt), want)
