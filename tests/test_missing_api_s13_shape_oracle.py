"""torch's public names that programs use and minitorch lacked, against live torch: shapes and
views (``meshgrid``, ``broadcast_to``, ``roll``, ``rot90``, ``tile``, the ``*split``s,
the ``*_scatter``s, ``index_*``, ``put``/``take``, ``as_strided``, ...), reductions and
statistics, products and linear algebra, and nn functions at the top level.

Each call is compared as a program sees it: the printed result (values, dtype, grad_fn),
the printed gradient of a weighted sum of its squares, what a write into the input does to
the result (a view shares memory), then ``gradcheck`` in float64 and torch's errors for bad
arguments."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import SETTINGS, arrays, assert_same_error, raised_by, shapes

RNG = np.random.default_rng(13)
MATRIX = RNG.normal(size=(3, 4))
CUBE = RNG.normal(size=(2, 3, 4))
VECTOR = RNG.normal(size=5)


def _pieces(result: Any) -> list:
    return list(result) if isinstance(result, (tuple, list)) else [result]


def _printed(L: Any, call: Any, data: np.ndarray) -> list[str]:
    """What a program prints: the result, the gradient of a weighted sum of its squares, and
    the result again after an in-place change of the input (a view shows it)."""
    x = L.tensor(data, requires_grad=True)
    result = call(L, x)
    out = [repr(result)]
    tracked = [t for t in _pieces(result) if isinstance(t, L.Tensor) and t.grad_fn is not None]
    if tracked:
        total = sum((t * t).sum() * (i + 1) for i, t in enumerate(tracked))
        out.append(repr(L.autograd.grad(total, x)[0]))
    with L.no_grad():
        x.add_(100)
    # (the values only: torch renames a view's grad_fn once its base changed)
    out.append(repr([t.detach() for t in _pieces(result) if isinstance(t, L.Tensor)]))
    return out


def assert_prints_like_torch(call: Any, data: np.ndarray) -> None:
    assert _printed(mt, call, data) == _printed(torch, call, data)


def assert_gradcheck(call: Any, data: np.ndarray) -> None:
    """minitorch's gradient of the call passes gradcheck and gradgradcheck in float64."""
    x = mt.tensor(data, requires_grad=True)

    def f(t: Any) -> Any:
        return tuple(p for p in _pieces(call(mt, t)) if p.dtype.is_floating_point)

    assert mt.autograd.gradcheck(f, (x,))
    assert mt.autograd.gradgradcheck(f, (x,))


INDEX = {"i": np.array([2, 0])}

SHAPE_CALLS = {
    "meshgrid_ij": (lambda L, x: L.meshgrid(x[0], x[1, :2], indexing="ij"), MATRIX),
    "meshgrid_xy": (lambda L, x: L.meshgrid(x[0], x[1, :2], x[2, :3], indexing="xy"), MATRIX),
    "meshgrid_list": (lambda L, x: L.meshgrid([x[0, 0], x[1]], indexing="xy"), MATRIX),
    "meshgrid_one": (lambda L, x: L.meshgrid(x[0], indexing="xy"), MATRIX),
    "broadcast_to": (lambda L, x: L.broadcast_to(x[0], (2, 4)), MATRIX),
    "broadcast_to_method": (lambda L, x: x[:, :1].broadcast_to(2, 3, -1), MATRIX),
    "broadcast_tensors": (lambda L, x: L.broadcast_tensors(x[:, :1], x[0], x[0, 0]), MATRIX),
    "roll": (lambda L, x: L.roll(x, 1, 0), MATRIX),
    "roll_flat": (lambda L, x: x.roll(-3), MATRIX),
    "roll_dims": (lambda L, x: L.roll(x, shifts=(1, -5), dims=(2, 0)), CUBE),
    "roll_scalar": (lambda L, x: L.roll(x[0, 0], 2), MATRIX),
    "rot90": (lambda L, x: L.rot90(x), MATRIX),
    "rot90_k2": (lambda L, x: x.rot90(2), MATRIX),
    "rot90_k3": (lambda L, x: L.rot90(x, 3, [1, 0]), MATRIX),
    "rot90_k0": (lambda L, x: L.rot90(x, 0), MATRIX),
    "rot90_negative": (lambda L, x: L.rot90(x, -1, (2, -3)), CUBE),
    "tile": (lambda L, x: L.tile(x, (2,)), MATRIX),
    "tile_more": (lambda L, x: x.tile(2, 1, 2), MATRIX),
    "tile_method_tuple": (lambda L, x: x.tile((1, 2)), CUBE),
    "ravel": (lambda L, x: L.ravel(x), MATRIX),
    "ravel_transposed": (lambda L, x: x.t().ravel(), MATRIX),
    "fliplr": (lambda L, x: L.fliplr(x), MATRIX),
    "flipud": (lambda L, x: x.flipud(), CUBE),
    "swapaxes": (lambda L, x: L.swapaxes(x, 0, 2), CUBE),
    "swapdims": (lambda L, x: x.swapdims(-1, 0), MATRIX),
    "swapaxes_": (lambda L, x: (x * 1).swapaxes_(0, 1), MATRIX),
    "swapdims_": (lambda L, x: (x * 1).swapdims_(1, 2), CUBE),
    "hsplit": (lambda L, x: L.hsplit(x, 2), MATRIX),
    "hsplit_indices": (lambda L, x: x.hsplit([1, 3]), MATRIX),
    "hsplit_vector": (lambda L, x: L.hsplit(x[0], (1,)), MATRIX),
    "vsplit": (lambda L, x: L.vsplit(x, 3), MATRIX),
    "dsplit": (lambda L, x: x.dsplit([3]), CUBE),
    "unflatten": (lambda L, x: L.unflatten(x, 1, (2, -1)), MATRIX),
    "split_with_sizes": (lambda L, x: L.split_with_sizes(x, [1, 3], 1), MATRIX),
    "split_with_sizes_method": (lambda L, x: x.split_with_sizes((2, 1)), MATRIX),
    "squeeze_": (lambda L, x: (x[:, None] * 1).squeeze_(), MATRIX),
    "squeeze_dim": (lambda L, x: (x[None] * 1).squeeze_(0), MATRIX),
    "squeeze_dims": (lambda L, x: (x[None, :, None] * 1).squeeze_((0, 2)), MATRIX),
    "narrow_copy": (lambda L, x: L.narrow_copy(x, 1, 1, 2), MATRIX),
}


@pytest.mark.parametrize("name", SHAPE_CALLS)
def test_shape_calls_print_like_torch(name: str) -> None:
    call, data = SHAPE_CALLS[name]
    assert_prints_like_torch(call, data)


@pytest.mark.parametrize("name", [n for n in SHAPE_CALLS if n[-1] != "_"])
def test_shape_calls_pass_gradcheck(name: str) -> None:
    call, data = SHAPE_CALLS[name]
    assert_gradcheck(call, data)


def test_meshgrid_without_indexing_warns_once_as_torch() -> None:
    """torch warns (once per process) that ``indexing`` will be required, and uses "ij"."""
    from minitorch.ops import broadcast

    broadcast._warned[0] = False
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        grids = mt.meshgrid(mt.ones(2), mt.ones(3))
        mt.meshgrid(mt.ones(2), mt.ones(3))
    assert [str(w.message) for w in caught] == [
        "torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
        "argument."]
    assert caught[0].category is UserWarning
    assert [tuple(g.shape) for g in grids] == [(2, 3), (2, 3)]


def test_narrow_copy_from_the_end_has_a_gradient_where_torchs_fails() -> None:
    """torch's formula slices its gradient from ``start`` as given, so a negative start
    (counted from the end) makes its backward fail; minitorch's slices where the copy was
    taken. The values are torch's."""
    def call(L: Any, x: Any) -> Any:
        return x.narrow_copy(0, -2, 2)

    got, want = call(mt, mt.tensor(MATRIX, requires_grad=True)), call(torch, torch.tensor(MATRIX))
    assert repr(got.detach()) == repr(want)
    x = torch.tensor(MATRIX, requires_grad=True)
    with pytest.raises(RuntimeError, match="must match the size"):
        call(torch, x).sum().backward()
    x = mt.tensor(MATRIX, requires_grad=True)
    call(mt, x).sum().backward()
    assert x.grad.tolist() == [[0.0] * 4, [1.0] * 4, [1.0] * 4]


def test_views_and_copies_share_memory_as_torchs() -> None:
    """A view's writes reach its base (broadcast_to, meshgrid, ravel of a contiguous tensor,
    swapaxes, the splits); the copies (roll, rot90, tile, flips, narrow_copy) keep theirs."""
    for name in ("broadcast_to", "meshgrid_ij", "ravel", "swapaxes", "hsplit", "rot90", "roll",
                 "tile", "fliplr", "narrow_copy", "ravel_transposed"):
        call, data = SHAPE_CALLS[name]
        shared = []
        for L in (mt, torch):
            x = L.tensor(data)
            first = _pieces(call(L, x))[0]
            x.view(-1)[0] = 1000.0
            shared.append(bool((first == 1000.0).any()))
        assert shared[0] == shared[1], name


def _meshgrid_bad(L: Any) -> Any:
    return L.meshgrid(L.ones(2), L.tensor([[0.5, -1.25e-3], [3.0, 1e6]]), indexing="ij")


SHAPE_ERRORS = {
    "meshgrid_2d": _meshgrid_bad,
    "meshgrid_3d_ints": lambda L: L.meshgrid(L.arange(24).reshape(2, 3, 4), indexing="ij"),
    "meshgrid_bool": lambda L: L.meshgrid(L.ones(2, 2, dtype=L.bool), indexing="ij"),
    "meshgrid_dtype": lambda L: L.meshgrid(L.ones(2), L.arange(2), indexing="ij"),
    "meshgrid_indexing": lambda L: L.meshgrid(L.ones(2), indexing="ji"),
    "meshgrid_empty": lambda L: L.meshgrid(indexing="ij"),
    "meshgrid_not_tensor": lambda L: L.meshgrid(L.ones(2), 1, indexing="ij"),
    "broadcast_to": lambda L: L.broadcast_to(L.ones(3, 4), (2, 4)),
    "broadcast_to_int": lambda L: L.broadcast_to(L.ones(3), 3),
    "broadcast_to_input": lambda L: L.broadcast_to([1.0], (3,)),
    "broadcast_to_fewer": lambda L: L.broadcast_to(L.ones(3, 4), (4,)),
    "broadcast_tensors": lambda L: L.broadcast_tensors(L.ones(3), L.ones(2)),
    "broadcast_tensors_three": lambda L: L.broadcast_tensors(L.ones(2, 1), L.ones(3),
                                                             L.ones(4, 1, 1, 2)),
    "broadcast_tensors_list": lambda L: L.broadcast_tensors([L.ones(3)]),
    "roll_align": lambda L: L.roll(L.ones(3, 4), (1, 2), 0),
    "roll_align_dims": lambda L: L.roll(L.ones(3, 4), 1, (0, 1)),
    "roll_no_dims": lambda L: L.roll(L.ones(3, 4), (1, 2)),
    "roll_no_shifts": lambda L: L.roll(L.ones(3, 4), ()),
    "roll_dim": lambda L: L.roll(L.ones(3, 4), 1, 5),
    "roll_scalar_dim": lambda L: L.roll(L.tensor(1.0), 1, 0),
    "roll_float": lambda L: L.roll(L.ones(3), 1.5),
    "roll_method_args": lambda L: L.ones(3).roll(1, 2, 3),
    "rot90_vector": lambda L: L.rot90(L.ones(3)),
    "rot90_one_dim": lambda L: L.rot90(L.ones(3, 4), 1, [0]),
    "rot90_same": lambda L: L.rot90(L.ones(3, 4), 1, [0, 0]),
    "rot90_same_wrapped": lambda L: L.rot90(L.ones(3, 4), 1, [0, -2]),
    "rot90_range": lambda L: L.rot90(L.ones(3, 4), 1, [0, 3]),
    "rot90_k": lambda L: L.rot90(L.ones(3, 4), 1.5),
    "tile_negative": lambda L: L.tile(L.ones(3, 4), (-1,)),
    "tile_int": lambda L: L.tile(L.ones(3, 4), 2),
    "tile_float": lambda L: L.tile(L.ones(3, 4), (1.5,)),
    "ravel": lambda L: L.ravel(1),
    "fliplr": lambda L: L.fliplr(L.ones(3)),
    "flipud": lambda L: L.flipud(L.tensor(1.0)),
    "swapaxes": lambda L: L.swapaxes(L.ones(3, 4), 0, 2),
    "swapaxes_float": lambda L: L.swapaxes(L.ones(3, 4), 0, 1.0),
    "swapdims_method_float": lambda L: L.ones(3, 4).swapdims(0, 1.0),
    "swapaxes_leaf": lambda L: L.ones(3, 4, requires_grad=True).swapaxes_(0, 1),
    "hsplit_scalar": lambda L: L.hsplit(L.tensor(1.0), 1),
    "hsplit_divides": lambda L: L.hsplit(L.ones(3, 4), 3),
    "hsplit_zero": lambda L: L.hsplit(L.ones(3, 4), 0),
    "hsplit_float": lambda L: L.hsplit(L.ones(3, 4), 1.5),
    "vsplit_vector": lambda L: L.vsplit(L.ones(3), 3),
    "vsplit_divides": lambda L: L.vsplit(L.ones(3, 4), 2),
    "dsplit_matrix": lambda L: L.dsplit(L.ones(3, 4), 2),
    "split_with_sizes_sum": lambda L: L.split_with_sizes(L.ones(3, 4), [1, 1]),
    "split_with_sizes_negative": lambda L: L.split_with_sizes(L.ones(3, 4), [4, -1]),
    "split_with_sizes_int": lambda L: L.split_with_sizes(L.ones(3, 4), 2),
    "split_with_sizes_method_int": lambda L: L.ones(3, 4).split_with_sizes(2),
    "split_with_sizes_float": lambda L: L.split_with_sizes(L.ones(3), [1, 2.5]),
    "split_with_sizes_scalar": lambda L: L.split_with_sizes(L.tensor(1.0), [1]),
    "unflatten_sizes": lambda L: L.unflatten(L.ones(3, 4), 1, (2, 3)),
    "unflatten_float": lambda L: L.unflatten(L.ones(3, 4), 1, 2.5),
    "unflatten_dim": lambda L: L.unflatten(L.ones(3, 4), 1.5, (2, 2)),
    "unflatten_method_float": lambda L: L.ones(3, 4).unflatten(1, 2.5),
    "squeeze_leaf": lambda L: L.ones(3, 1, requires_grad=True).squeeze_(),
    "squeeze_none": lambda L: L.ones(3, 1).squeeze_(None),
    "squeeze_dims_float": lambda L: L.ones(3, 1).squeeze_([0, 1.5]),
    "narrow_copy_exceeds": lambda L: L.narrow_copy(L.ones(3, 4), 0, 2, 2),
    "narrow_copy_float": lambda L: L.narrow_copy(L.ones(3, 4), 0, 1.5, 1),
    "narrow_copy_length": lambda L: L.narrow_copy(L.ones(3, 4), 0, 0, -1),
    "narrow_copy_scalar": lambda L: L.narrow_copy(L.tensor(1.0), 0, 0, 1),
    "narrow_copy_start": lambda L: L.narrow_copy(L.ones(3, 4), 0, 5, 0),
}


@pytest.mark.parametrize("name", SHAPE_ERRORS)
def test_shape_errors_are_torchs(name: str) -> None:
    call = SHAPE_ERRORS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same_error(raised_by(call, mt), raised_by(call, torch))


@SETTINGS
@given(st.data())
def test_roll_rot90_tile_of_any_shape_are_torchs(data: st.DataObject) -> None:
    shape = data.draw(shapes(min_dims=2, max_dims=4))
    values = data.draw(arrays(shape))
    ndim = len(shape)
    shift = data.draw(st.lists(st.integers(-7, 7), min_size=1, max_size=ndim))
    dims = data.draw(st.permutations(range(ndim)))[:len(shift)]
    k = data.draw(st.integers(-5, 5))
    d0, d1 = data.draw(st.permutations(range(ndim)))[:2]
    counts = tuple(data.draw(st.lists(st.integers(0, 3), min_size=0, max_size=ndim + 1)))

    def call(L: Any, x: Any) -> Any:
        return (L.roll(x, shift, dims), L.rot90(x, k, (d0, d1)), L.tile(x, counts),
                L.roll(x, shift[0]))

    assert_prints_like_torch(call, values)
    strides = [[t.stride() for t in call(L, L.tensor(values))] for L in (mt, torch)]
    assert strides[0] == strides[1]


@SETTINGS
@given(st.lists(shapes(min_dims=0, max_dims=1, max_side=3), min_size=1, max_size=4),
       st.sampled_from(["ij", "xy"]))
def test_meshgrid_of_any_vectors_is_torchs(sizes: list, indexing: str) -> None:
    flat = RNG.normal(size=sum(int(np.prod(s)) for s in sizes))

    def call(L: Any, x: Any) -> Any:
        parts, start = [], 0
        for s in sizes:
            n = int(np.prod(s))
            parts.append(x[start:start + n].reshape(s))
            start += n
        return L.meshgrid(*parts, indexing=indexing)

    assert_prints_like_torch(call, flat)


@SETTINGS
@given(st.data())
def test_cpp_printed_tensors_in_messages_are_torchs(data: st.DataObject) -> None:
    """The tensor torch's C++ code prints into a message (here meshgrid's refusal of a
    matrix): widths, formats, scales and column blocks."""
    shape = data.draw(shapes(min_dims=2, max_dims=4, max_side=5) | st.just((2, 30)))
    scale = data.draw(st.sampled_from([1e-7, 1e-3, 1.0, 1e3, 1e8]))
    values = data.draw(arrays(shape)) * scale
    if data.draw(st.booleans()):
        values = np.round(values)
    assert_same_error(raised_by(lambda L: L.meshgrid(L.tensor(values), indexing="ij"), mt),
                      raised_by(lambda L: L.meshgrid(L.tensor(values), indexing="ij"), torch))
