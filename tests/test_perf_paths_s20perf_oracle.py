"""Issue #22, session 10 (perf): the faster paths give torch's results bit for bit.

relu's forward is a bit-mask AND (``backend.zero_where``), not numpy's ``where()``; saved
tensors are packed in plain loops; ``discover`` reads each node's edges in one inner loop;
a backward's product of fewer than two dims skips ``torch_layout``. Each test compares with
torch 2.13, or with the plain definition the faster code replaced.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minitorch as mt
from minitorch import backend
from minitorch.autograd import engine
from minitorch.autograd.graph import SavedTensor
from tests.oracle import SETTINGS, assert_same_error, numpy_of, raised_by

SPECIAL = [-0.0, 0.0, -1.0, 1.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 5e-324, -5e-324]
FLOATS = ["float16", "float32", "float64"]


def _bits(values: np.ndarray) -> np.ndarray:
    return values.view(f"u{values.itemsize}")


@pytest.mark.parametrize("dtype", FLOATS)
def test_relu_forward_is_torchs_bit_for_bit_on_special_values(dtype: str) -> None:
    data = np.array(SPECIAL, dtype=dtype)
    got = mt.tensor(data).relu()
    want = torch.tensor(data).relu()
    assert str(got.dtype) == str(want.dtype)
    np.testing.assert_array_equal(_bits(numpy_of(got)), _bits(numpy_of(want)))


@SETTINGS
@given(hnp.arrays(st.sampled_from(FLOATS), hnp.array_shapes(min_dims=0, max_dims=3),
                  elements={"allow_nan": True, "allow_infinity": True}),
       st.booleans())
def test_relu_forward_is_torchs_bit_for_bit(data: np.ndarray, transposed: bool) -> None:
    if transposed and data.ndim >= 2:
        data = data.swapaxes(0, 1)
    got = mt.tensor(data).relu()
    want = torch.tensor(data).relu()
    np.testing.assert_array_equal(_bits(np.ascontiguousarray(numpy_of(got))),
                                  _bits(np.ascontiguousarray(numpy_of(want))))
    assert tuple(got.shape) == tuple(want.shape)


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint8"])
def test_relu_of_integers_is_torchs(dtype: str) -> None:
    data = np.array([-3, -1, 0, 1, 7, 200 if dtype == "uint8" else -100]).astype(dtype)
    got, want = mt.tensor(data).relu(), torch.tensor(data).relu()
    assert str(got.dtype) == str(want.dtype)
    np.testing.assert_array_equal(numpy_of(got), numpy_of(want))


def test_relu_of_bool_is_refused_as_torch() -> None:
    assert_same_error(raised_by(lambda L: L.tensor([True, False]).relu(), mt),
                      raised_by(lambda L: L.tensor([True, False]).relu(), torch))


def test_relu_gradient_is_torchs_bit_for_bit() -> None:
    data = np.array([*SPECIAL, 3.0, -2.5], dtype=np.float32)
    grads = []
    for lib in (mt, torch):
        x = lib.tensor(data, requires_grad=True)
        x.relu().backward(lib.tensor(np.linspace(-2, 2, len(data), dtype=np.float32)))
        grads.append(numpy_of(x.grad))
    np.testing.assert_array_equal(_bits(grads[0]), _bits(grads[1]))


def test_zero_where_result_owns_its_memory_when_the_mask_fits() -> None:
    values = np.array([[-1.0, 2.0], [-0.0, np.nan]], dtype=np.float32)
    out = backend.zero_where(np, values, values < 0)
    assert out.base is None and out.dtype == values.dtype  # not a view of integer scratch
    np.testing.assert_array_equal(_bits(out), _bits(np.array([[0.0, 2.0], [-0.0, np.nan]],
                                                             dtype=np.float32)))
    wide = backend.zero_where(np, np.ones(3), np.array([[True], [False]]))  # mask broadcasts
    np.testing.assert_array_equal(wide, [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]])


def test_a_non_tensor_saved_is_refused_before_any_pack_hook_runs() -> None:
    class Saves(mt.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 3)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g

    packed = []
    x = mt.ones(2, requires_grad=True)
    with mt.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t), \
            pytest.raises(TypeError, match="argument 1 is of type int"):
        Saves.apply(x)
    assert packed == []


def test_saved_tensors_of_a_product_unpack_as_torch() -> None:
    for lib in (mt, torch):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 3
        z = y * x
        assert z.grad_fn._saved_self is y and z.grad_fn._saved_other is x
    assert isinstance(mt.tensor([1.0], requires_grad=True).mul(mt.ones(1)).grad_fn
                      ._raw_saved_other, SavedTensor)


def _reference_discover(root):
    """The walk as it read edges before: one edge an iteration of the outer loop."""
    deps, order, seen = {}, [], {root}
    path, walked = [root], [0]
    while path:
        node, i = path[-1], walked[-1]
        edges = engine._walked_edges(node)
        if i == len(edges):
            path.pop()
            walked.pop()
            order.append(node)
            continue
        walked[-1] = i + 2
        child = edges[i]
        if child is not None:
            deps[child] = deps.get(child, 0) + 1
            if child not in seen:
                seen.add(child)
                path.append(child)
                walked.append(0)
    return deps, order


@SETTINGS
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 5), st.integers(0, 5)),
                min_size=1, max_size=25))
def test_discover_gives_the_same_order_and_counts(steps: list) -> None:
    leaves = [mt.tensor(float(i + 1), requires_grad=True) for i in range(3)]
    values = [*leaves, leaves[0] * 2]
    for kind, i, j in steps:
        a, b = values[i % len(values)], values[j % len(values)]
        values.append([a * b, a + b, a * 1.5, a - b][kind])
    root = values[-1].grad_fn
    assert engine.discover([root]) == _reference_discover(root)


def test_one_leaf_graph_gradient_is_torchs() -> None:
    grads = []
    for lib in (mt, torch):
        x = lib.tensor(0.999, requires_grad=True)
        y = x
        for _ in range(50):
            y = y * x + x
        y.backward()
        grads.append(x.grad.item())
    assert grads[0] == grads[1]
