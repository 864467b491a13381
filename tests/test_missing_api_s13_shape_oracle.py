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
from tests.oracle import SETTINGS, arrays, assert_same_error, numpy_of, raised_by, shapes

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


# Deprecated calls that torch warns about once per process, run twice each; torch's warnings
# come from a fresh process (this one may have warned already).
WARNED_ONCE = ["L.meshgrid(L.ones(2), L.ones(3))", "L.cross(L.ones(3), L.ones(3))",
               "L.chain_matmul(L.ones(2, 2), L.ones(2, 2))", "L.qr(L.eye(2))",
               "L.cholesky(L.eye(2))"]


def _warnings_of(L: Any, calls: list) -> list:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for call in calls:
            eval(call, {"L": L})
            eval(call, {"L": L})
    return [(w.category.__name__, str(w.message).split(" (Triggered internally")[0])
            for w in caught]


def test_deprecated_calls_warn_once_as_torch() -> None:
    import subprocess
    import sys

    from minitorch.ops import broadcast, cross, decompositions, products

    for flag in (broadcast._warned, cross._warned, products._chain_warned,
                 decompositions._qr_warned, decompositions._cholesky_warned):
        flag[0] = False
    script = ("import torch, warnings, sys; sys.path.insert(0, '.'); "
              "from tests.test_missing_api_s13_shape_oracle import _warnings_of, WARNED_ONCE; "
              "print(repr(_warnings_of(torch, WARNED_ONCE)))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True)
    assert _warnings_of(mt, WARNED_ONCE) == eval(done.stdout)


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


# ------------------------------------------------ writing at positions, scatters into views


def _index(L: Any, *values: int) -> Any:
    return L.tensor(list(values))


MASK = MATRIX > 0.2
WRITE_CALLS = {
    "diagflat": (lambda L, x: L.diagflat(x[:2, :2]), MATRIX),
    "diagflat_offset": (lambda L, x: x[0].diagflat(-2), MATRIX),
    "diagflat_scalar": (lambda L, x: L.diagflat(x[0, 0], 1), MATRIX),
    "trace": (lambda L, x: L.trace(x), MATRIX),
    "trace_wide": (lambda L, x: x.t().trace(), MATRIX),
    "take": (lambda L, x: L.take(x, L.tensor([[0, -1], [5, 5]])), MATRIX),
    "take_method": (lambda L, x: x.take(_index(L, 2, 2, 0)), VECTOR),
    "put": (lambda L, x: L.put(x, _index(L, 1, -1), x[0, :2] * 3), MATRIX),
    "put_repeated_accumulate": (lambda L, x: x.put(_index(L, 1, 1, 2), x[1, :3] * 3, True),
                                MATRIX),
    "put_": (lambda L, x: (x * 1).put_(_index(L, 0, 3), x[2, 1:3].reshape(2, 1)), MATRIX),
    "put_accumulate_": (lambda L, x: (x * 1).put_(_index(L, 0, 0), x[2, 1:3], accumulate=True),
                        MATRIX),
    "index_copy": (lambda L, x: L.index_copy(x, 1, _index(L, 3, 0), x[:, :2] * 2), MATRIX),
    "index_copy_scalar_index": (lambda L, x: x.index_copy(0, L.tensor(1), x[:1] * 2), MATRIX),
    "index_copy_": (lambda L, x: (x * 1).index_copy_(0, _index(L, 2), x[:1] ** 2), MATRIX),
    "index_fill": (lambda L, x: L.index_fill(x, 1, _index(L, 3, -4), -1.5), MATRIX),
    "index_fill_tensor": (lambda L, x: x.index_fill(0, _index(L, 0, 0, 2), x[1, 1] * 2), MATRIX),
    "index_fill_": (lambda L, x: (x * 1).index_fill_(1, _index(L, 2), 7), MATRIX),
    "index_fill_tensor_": (lambda L, x: (x * 1).index_fill_(0, _index(L, 1), x[0, 0]), MATRIX),
    "index_put": (lambda L, x: L.index_put(x, (_index(L, 0, 2),), x[1] * 3), MATRIX),
    "index_put_pairs": (lambda L, x: x.index_put((_index(L, 0, 2), _index(L, 1, 1)), x[0, :2]),
                        MATRIX),
    "index_put_accumulate": (lambda L, x: x.index_put([_index(L, 1, 1)], x[2, 0],
                                                      accumulate=True), MATRIX),
    "index_put_mask_accumulate": (lambda L, x: x.index_put((L.tensor(MASK),), x[0, 0] * 2,
                                                           True), MATRIX),
    "index_put_": (lambda L, x: (x * 1).index_put_((_index(L, -1),), x[0, 0]), MATRIX),
    "torch_index_put_": (lambda L, x: L.index_put_(x * 1, (_index(L, 2, 0),), x[1, :1], True),
                         MATRIX),
    "masked_scatter": (lambda L, x: L.masked_scatter(x, L.tensor(MASK), x.flip(0) * 2), MATRIX),
    "masked_scatter_broadcast": (lambda L, x: x[0].masked_scatter(L.tensor(MASK), x * 3),
                                 MATRIX),
    "masked_scatter_": (lambda L, x: (x * 1).masked_scatter_(L.tensor(MASK[0]), x.t() * 5),
                        MATRIX),
    "masked_select_grad": (lambda L, x: x[0].masked_select(L.tensor(MASK)), MATRIX),
    "select_scatter": (lambda L, x: L.select_scatter(x, x[0] * 2, 0, 2), MATRIX),
    "select_scatter_negative": (lambda L, x: x.select_scatter(x[:, 1] * 2, 1, -1), MATRIX),
    "select_scatter_other_dtype": (lambda L, x: x.select_scatter(x[0].float(), 0, 1), MATRIX),
    "slice_scatter_other_dtype": (lambda L, x: x.slice_scatter(x.float() * 3), MATRIX),
    "diagonal_scatter_other_dtype": (lambda L, x: x.diagonal_scatter(x[0, :3].float()), MATRIX),
    "slice_scatter": (lambda L, x: L.slice_scatter(x, x[:, :2] * 2, 1, 1, 4, 2), MATRIX),
    "slice_scatter_defaults": (lambda L, x: x.slice_scatter(x.flip(0)), MATRIX),
    "slice_scatter_negative": (lambda L, x: L.slice_scatter(x, x[-2:], start=-2), MATRIX),
    "diagonal_scatter": (lambda L, x: L.diagonal_scatter(x, x[0, :3] * 2), MATRIX),
    "diagonal_scatter_offset": (lambda L, x: x.diagonal_scatter(x[1, :3], -1, 1, 0), MATRIX),
    "as_strided": (lambda L, x: L.as_strided(x, (2, 2), (1, 2)), MATRIX),
    "as_strided_overlapping": (lambda L, x: x.as_strided((3, 3), (1, 1), 2), MATRIX),
    "as_strided_of_view": (lambda L, x: x[1:].as_strided((2, 3), (4, 1)), MATRIX),
    "as_strided_of_transposed": (lambda L, x: x.t().as_strided((2,), (5,)), MATRIX),
    "as_strided_of_expanded": (lambda L, x: x[0].expand(2, 4).as_strided((3,), (1,)), MATRIX),
    "renorm": (lambda L, x: L.renorm(x, 2, 0, 1.5), MATRIX),
    "renorm_p1": (lambda L, x: x.renorm(1, 1, 1.0), MATRIX),
    "renorm_inf": (lambda L, x: x.renorm(float("inf"), -1, 1.0), CUBE),
    "renorm_p3": (lambda L, x: L.renorm(x, 3, 2, 0.5), CUBE),
    "renorm_": (lambda L, x: (x * 1).renorm_(2, 1, 1.0), MATRIX),
}


@pytest.mark.parametrize("name", WRITE_CALLS)
def test_write_calls_print_like_torch(name: str) -> None:
    call, data = WRITE_CALLS[name]
    assert_prints_like_torch(call, data)


@pytest.mark.parametrize("name", [n for n in WRITE_CALLS if n[-1] != "_" and
                                  "other_dtype" not in n])  # (float32: not for gradcheck)
def test_write_calls_pass_gradcheck(name: str) -> None:
    call, data = WRITE_CALLS[name]
    assert_gradcheck(call, data)


def test_integer_and_half_traces_are_torchs() -> None:
    for dt in ("uint8", "int32", "int64", "float16", "float32"):
        values = np.arange(12).reshape(3, 4) * 3
        got, want = (L.trace(L.tensor(values, dtype=getattr(L, dt))) for L in (mt, torch))
        assert repr(got) == repr(want), dt


def test_as_strided_is_a_view_of_the_storage() -> None:
    """Writes through an as_strided view reach the base and the other views, as torch's;
    ``storage_offset`` of views is torch's."""
    for L in (mt, torch):
        x = L.arange(12.0)
        view = x[2:].as_strided((2, 2), (3, 1))
        view[1, 1] = -1.0
        assert x[6].item() == -1.0
        assert view.storage_offset() == 2 and x.view(3, 4)[1:, 2:].storage_offset() == 6
    assert mt.arange(12.0).view(3, 4).t().storage_offset() == 0


def test_a_recorded_write_through_as_strided_reaches_the_base_gradient() -> None:
    def call(L: Any, x: Any) -> Any:
        y = x * 1
        y.as_strided((2,), (3,), 1).mul_(10)
        return y

    assert_prints_like_torch(call, VECTOR)


WRITE_ERRORS = {
    "diagflat_offset": lambda L: L.diagflat(L.ones(3), 1.5),
    "trace_vector": lambda L: L.trace(L.ones(3)),
    "trace_bool": lambda L: L.trace(L.ones(2, 2, dtype=L.bool)),
    "take_range": lambda L: L.take(L.ones(3, 4), _index(L, 12)),
    "take_negative_range": lambda L: L.take(L.ones(3), _index(L, -4)),
    "take_float": lambda L: L.take(L.ones(3), L.tensor([1.0])),
    "take_int32": lambda L: L.take(L.ones(3), L.tensor([1], dtype=L.int32)),
    "take_empty": lambda L: L.take(L.ones(0), _index(L, 0)),
    "put_count": lambda L: L.put(L.ones(3, 4), _index(L, 0, 2), L.ones(3)),
    "put_dtype": lambda L: L.put(L.ones(3, 4), _index(L, 0, 2), L.tensor([1, 2])),
    "put_range": lambda L: L.put(L.ones(3, 4), _index(L, 20), L.ones(1)),
    "put_float_index": lambda L: L.put(L.ones(3, 4), L.tensor([1.0]), L.ones(1)),
    "put_empty": lambda L: L.put(L.ones(0), _index(L, 0), L.ones(1)),
    "put_leaf": lambda L: L.ones(2, requires_grad=True).put_(_index(L, 0), L.ones(1)),
    "put_accumulate_float": lambda L: L.put(L.ones(2), _index(L, 0), L.ones(1), 1.5),
    "index_copy_dim": lambda L: L.index_copy(L.ones(3, 4), 2, _index(L, 0), L.ones(1, 4)),
    "index_copy_count": lambda L: L.index_copy(L.ones(3, 4), 0, _index(L, 0, 2), L.ones(3, 4)),
    "index_copy_slices": lambda L: L.index_copy(L.ones(2, 3, 4), 1, _index(L, 0),
                                                L.ones(3, 1, 5)),
    "index_copy_dtype": lambda L: L.index_copy(L.ones(3, 4), 0, _index(L, 0),
                                               L.ones(1, 4, dtype=L.float64)),
    "index_copy_index_dtype": lambda L: L.index_copy(L.ones(3, 4), 0, L.tensor([0.0]),
                                                     L.ones(1, 4)),
    "index_copy_index_2d": lambda L: L.index_copy(L.ones(3, 4), 0, L.tensor([[0]]),
                                                  L.ones(1, 4)),
    "index_copy_range": lambda L: L.index_copy(L.ones(3, 4), 0, _index(L, 0, 5), L.ones(2, 4)),
    "index_copy_negative": lambda L: L.index_copy(L.ones(3, 4), 0, _index(L, -1), L.ones(1, 4)),
    "index_copy_scalar_source": lambda L: L.index_copy(L.ones(3), 0, _index(L, 0, 1),
                                                       L.tensor(1.0)),
    "index_copy_dims": lambda L: L.index_copy(L.ones(2, 3, 4), 1, _index(L, 0), L.ones(1, 4)),
    "index_copy_leaf": lambda L: L.ones(3, requires_grad=True).index_copy_(0, _index(L, 0),
                                                                           L.ones(1)),
    "index_fill_value_dims": lambda L: L.index_fill(L.ones(3, 4), 0, _index(L, 0), L.ones(1)),
    "index_fill_index_dtype": lambda L: L.index_fill(L.ones(3, 4), 0, L.tensor([1.0]), 1.0),
    "index_fill_range": lambda L: L.index_fill(L.ones(3, 4), 0, _index(L, 5), 1.0),
    "index_fill_index_2d": lambda L: L.index_fill(L.ones(3, 4), 0, L.tensor([[1]]), 1.0),
    "index_fill_dim": lambda L: L.index_fill(L.ones(3, 4), 3, _index(L, 0), 1.0),
    "index_fill_str": lambda L: L.index_fill(L.ones(3, 4), 0, _index(L, 0), "a"),
    "index_fill_int32": lambda L: L.index_fill(L.ones(3), 0, L.tensor([0], dtype=L.int32), 1.0),
    "index_put_tensor": lambda L: L.index_put(L.ones(3, 4), _index(L, 1), L.tensor(1.0)),
    "index_put_shape": lambda L: L.index_put(L.ones(3, 4), (_index(L, 1),), L.ones(3)),
    "index_put_dtype": lambda L: L.index_put(L.ones(3, 4), (_index(L, 1),), L.tensor(1)),
    "index_put_too_many": lambda L: L.index_put(L.ones(3, 4), (_index(L, 0),) * 3,
                                                L.tensor(1.0)),
    "index_put_none": lambda L: L.index_put(L.ones(3, 4), (None, _index(L, 0)), L.tensor(1.0)),
    "index_put_range": lambda L: L.index_put(L.ones(3, 4), (_index(L, 5),), L.tensor(1.0)),
    "index_put_float_index": lambda L: L.index_put(L.ones(3), (L.tensor([1.0]),),
                                                   L.tensor(1.0)),
    "index_put_number": lambda L: L.index_put(L.ones(3), (_index(L, 0),), 1.0),
    "index_put_accumulate_float": lambda L: L.index_put(L.ones(3), (_index(L, 1),),
                                                        L.tensor(1.0), accumulate=1.5),
    "masked_scatter_count": lambda L: L.masked_scatter(L.ones(3, 4), L.ones(3, 4) > 0,
                                                       L.ones(3)),
    "masked_scatter_dtype": lambda L: L.masked_scatter(L.ones(3), L.ones(3) > 0,
                                                       L.ones(3, dtype=L.float64)),
    "masked_scatter_mask": lambda L: L.masked_scatter(L.ones(3), L.ones(3), L.ones(3)),
    "masked_scatter_uint8": lambda L: L.masked_scatter(L.ones(3), L.ones(3, dtype=L.uint8),
                                                       L.ones(3)),
    "masked_scatter_broadcast": lambda L: L.masked_scatter(L.ones(4), L.ones(3) > 0, L.ones(3)),
    "masked_scatter_inplace_broadcast": lambda L: L.ones(4).masked_scatter_(
        L.ones(3, 4) > 0, L.ones(12)),
    "select_scatter_shape": lambda L: L.select_scatter(L.ones(3, 4), L.ones(3), 0, 0),
    "select_scatter_range": lambda L: L.select_scatter(L.ones(3, 4), L.ones(4), 0, 5),
    "select_scatter_scalar": lambda L: L.select_scatter(L.tensor(1.0), L.tensor(2.0), 0, 0),
    "select_scatter_float": lambda L: L.select_scatter(L.ones(3, 4), L.ones(4), 0, 1.5),
    "slice_scatter_shape": lambda L: L.slice_scatter(L.ones(3, 4), L.ones(2, 4), 0, 0, 1),
    "slice_scatter_step": lambda L: L.slice_scatter(L.ones(4), L.ones(2), 0, step=0),
    "slice_scatter_negative_step": lambda L: L.slice_scatter(L.ones(4), L.ones(2), 0, step=-1),
    "diagonal_scatter_shape": lambda L: L.diagonal_scatter(L.ones(3, 4), L.ones(4)),
    "diagonal_scatter_dims": lambda L: L.diagonal_scatter(L.ones(3, 4), L.ones(3), 0, 0, 0),
    "as_strided_bounds": lambda L: L.as_strided(L.ones(3, 4), (4, 4), (4, 1)),
    "as_strided_offset_bounds": lambda L: L.as_strided(L.ones(3, 4), (2, 2), (1, 1), 10),
    "as_strided_view_bounds": lambda L: L.arange(12.0)[2:].as_strided((3,), (5,)),
    "as_strided_negative": lambda L: L.as_strided(L.ones(3, 4), (2, 2), (-1, 1)),
    "as_strided_lengths": lambda L: L.as_strided(L.ones(3, 4), (2, 2), (1,)),
    "as_strided_negative_offset": lambda L: L.as_strided(L.ones(3, 4), (2, 2), (1, 1), -1),
    "as_strided_negative_size": lambda L: L.ones(3, 4).as_strided((2, -1), (1, 1)),
    "as_strided_offset_float": lambda L: L.as_strided(L.ones(3), (2,), (1,), 1.5),
    "as_strided_size_int": lambda L: L.as_strided(L.ones(3), 2, (1,)),
    "renorm_p": lambda L: L.renorm(L.ones(3, 4), -1, 0, 5),
    "renorm_maxnorm": lambda L: L.renorm(L.ones(3, 4), 2, 0, -5),
    "renorm_maxnorm_float": lambda L: L.renorm(L.ones(3, 4), 2, 0, -2.5),
    "renorm_int": lambda L: L.renorm(L.ones(2, 2, dtype=L.int64), 2, 0, 5),
    "renorm_vector": lambda L: L.renorm(L.ones(3), 2, 0, 5),
    "renorm_scalar": lambda L: L.renorm(L.tensor(2.0), 2, 0, 1),
    "renorm_dim": lambda L: L.renorm(L.ones(3, 4), 2, 3, 5),
    "renorm_leaf": lambda L: L.ones(3, 4, requires_grad=True).renorm_(2, 0, 5),
}


@pytest.mark.parametrize("name", WRITE_ERRORS)
def test_write_errors_are_torchs(name: str) -> None:
    call = WRITE_ERRORS[name]
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


@SETTINGS
@given(st.data())
def test_scatters_into_views_of_any_shape_are_torchs(data: st.DataObject) -> None:
    shape = data.draw(shapes(min_dims=2, max_dims=3, max_side=4))
    values = data.draw(arrays(shape))
    ndim = len(shape)
    dim = data.draw(st.integers(-ndim, ndim - 1))
    index = data.draw(st.integers(-shape[dim], shape[dim] - 1))
    start = data.draw(st.none() | st.integers(-5, 5))
    end = data.draw(st.none() | st.integers(-5, 5))
    step = data.draw(st.integers(1, 3))
    offset = data.draw(st.integers(-2, 2))
    d1, d2 = data.draw(st.permutations(range(ndim)))[:2]

    def call(L: Any, x: Any) -> Any:
        return (L.select_scatter(x, x.select(dim, index) * 2, dim, index),
                L.slice_scatter(x, x[(slice(None),) * (dim % ndim) + (slice(start, end, step),)]
                                * 3, dim, start, end, step),
                L.diagonal_scatter(x, x.diagonal(offset, d1, d2) - 1, offset, d1, d2))

    assert_prints_like_torch(call, values)


@SETTINGS
@given(st.data())
def test_put_take_index_ops_of_any_shape_are_torchs(data: st.DataObject) -> None:
    shape = data.draw(shapes(min_dims=1, max_dims=3, max_side=4))
    values = data.draw(arrays(shape))
    n = int(np.prod(shape))
    flat = data.draw(st.lists(st.integers(-n, n - 1), min_size=1, max_size=5))
    dim = data.draw(st.integers(0, len(shape) - 1))
    rows = data.draw(st.lists(st.integers(0, shape[dim] - 1), min_size=1, max_size=4,
                              unique=True))
    accumulate = data.draw(st.booleans())

    def call(L: Any, x: Any) -> Any:
        where, along = L.tensor(flat), L.tensor(rows)
        source = x.index_select(dim, along) * 2
        return (L.take(x, where), L.put(x, where, x.reshape(-1)[where.remainder(n)] * 2,
                                        accumulate),
                L.index_copy(x, dim, along, source), L.index_fill(x, dim, along, -3.0),
                L.index_put(x, (where.remainder(shape[0]),), x[0] * 2, accumulate))

    assert_prints_like_torch(call, values)


# ------------------------------------------------------------- reductions and statistics

SAMPLES = np.array([[1.0, 4.0, 2.0, 8.0], [3.0, 0.5, 5.0, 1.5], [2.2, 2.5, 7.0, 3.3]])
STAT_CALLS = {
    "diff": (lambda L, x: L.diff(x), MATRIX),
    "diff_twice_dim0": (lambda L, x: x.diff(2, 0), CUBE),
    "diff_prepend_append": (lambda L, x: L.diff(x, 1, 1, prepend=x[:, :1] * 2,
                                                append=x[:, :2]), MATRIX),
    "diff_order_past_length": (lambda L, x: L.diff(x, 5, 0, append=x), MATRIX),
    "diff_none": (lambda L, x: L.diff(x, 0), MATRIX),
    "trapz": (lambda L, x: L.trapz(x), MATRIX),
    "trapz_dx": (lambda L, x: L.trapz(x, dx=0.5, dim=0), MATRIX),
    "trapz_x": (lambda L, x: L.trapz(x, x[0].cumsum(0)), MATRIX),
    "trapezoid": (lambda L, x: L.trapezoid(x, dim=1), CUBE),
    "trapezoid_x_2d": (lambda L, x: L.trapezoid(x, x.exp()), MATRIX),
    "trapezoid_x_fewer_dims": (lambda L, x: L.trapezoid(x, x[0].exp(), dim=1), CUBE),
    "trapezoid_empty": (lambda L, x: L.trapezoid(x[:, :0]), MATRIX),
    "cumulative_trapezoid": (lambda L, x: L.cumulative_trapezoid(x), MATRIX),
    "cumulative_trapezoid_dx": (lambda L, x: L.cumulative_trapezoid(x, dx=2, dim=0), CUBE),
    "cumulative_trapezoid_x": (lambda L, x: L.cumulative_trapezoid(x, x[1].exp()), MATRIX),
    "cov": (lambda L, x: L.cov(x), SAMPLES),
    "cov_vector": (lambda L, x: x[0].cov(), SAMPLES),
    "cov_correction": (lambda L, x: L.cov(x, correction=0), SAMPLES),
    "cov_fweights": (lambda L, x: L.cov(x, fweights=L.tensor([1, 2, 0, 3])), SAMPLES),
    "cov_aweights": (lambda L, x: L.cov(x, aweights=x[1].abs()), SAMPLES),
    "cov_both": (lambda L, x: L.cov(x, correction=2, fweights=L.tensor([1, 2, 1, 3]),
                                    aweights=L.tensor([0.5, 1.0, 2.0, 0.25],
                                                      dtype=L.float64)), SAMPLES),
    "corrcoef": (lambda L, x: L.corrcoef(x), SAMPLES),
    "corrcoef_vector": (lambda L, x: x[0].corrcoef(), SAMPLES),
    "quantile": (lambda L, x: L.quantile(x, 0.3), SAMPLES),
    "quantile_dim": (lambda L, x: x.quantile(L.tensor([0.2, 0.9], dtype=L.float64), dim=1,
                                             keepdim=True), SAMPLES),
    "quantile_dim0": (lambda L, x: L.quantile(x, L.tensor([0.5, 0.0, 1.0], dtype=L.float64),
                                              0), SAMPLES),
    "quantile_lower": (lambda L, x: L.quantile(x, 0.4, 1, interpolation="lower"), SAMPLES),
    "quantile_higher": (lambda L, x: L.quantile(x, 0.4, 1, interpolation="higher"), SAMPLES),
    "quantile_midpoint": (lambda L, x: L.quantile(x, 0.4, 0, interpolation="midpoint"),
                          SAMPLES),
    "quantile_nearest": (lambda L, x: L.quantile(x, L.tensor([0.25, 0.5, 0.75],
                                                             dtype=L.float64), -1,
                                                 interpolation="nearest"), SAMPLES),
    "quantile_keepdim_all": (lambda L, x: L.quantile(x, 0.5, keepdim=True), SAMPLES),
    "quantile_nan": (lambda L, x: L.quantile(x.log() - 0.6931, 0.5, 1), SAMPLES - 1.5),
    "nanquantile": (lambda L, x: L.nanquantile(x.log(), 0.5, 1), SAMPLES - 1.5),
    "nanquantile_all_nan": (lambda L, x: x.sqrt().nanquantile(0.5, 0), -SAMPLES),
}


@pytest.mark.parametrize("name", STAT_CALLS)
def test_statistics_print_like_torch(name: str) -> None:
    call, data = STAT_CALLS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_prints_like_torch(call, data)


@pytest.mark.parametrize("name", [n for n in STAT_CALLS if "nan" not in n and "empty" not in n])
def test_statistics_pass_gradcheck(name: str) -> None:
    call, data = STAT_CALLS[name]
    assert_gradcheck(call, data)


def test_quantile_gradient_reaches_q_as_torchs() -> None:
    def grads(L: Any) -> list:
        x = L.tensor(SAMPLES, requires_grad=True)
        q = L.tensor([0.3, 0.7], dtype=L.float64, requires_grad=True)
        out = L.quantile(x, q, dim=1)
        return [repr(g) for g in L.autograd.grad((out * out).sum(), (x, q))]

    assert grads(mt) == grads(torch)


def test_cov_warns_as_torch_when_no_degrees_of_freedom_are_left() -> None:
    for L in (mt, torch):
        with pytest.warns(UserWarning, match=r"cov\(\): degrees of freedom is <= 0"):
            L.cov(L.tensor([[1.0], [2.0]]))


def test_range_is_inclusive_and_warns_on_every_call() -> None:
    calls = [lambda L: L.range(1, 4), lambda L: L.range(0, 1, 0.1),
             lambda L: L.range(3, 1, -0.5, dtype=L.float64), lambda L: L.range(1.7, 5, 1.1,
                                                                              dtype=L.int32),
             lambda L: L.range(2, 2), lambda L: L.range(0, 1, 0.3, requires_grad=True)]
    for call in calls:
        printed = []
        for L in (mt, torch):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                printed.append(repr(call(L)))
            assert [str(w.message) for w in caught] == [
                "torch.range is deprecated and will be removed in a future release because its "
                "behavior is inconsistent with Python's range builtin. Instead, use torch.arange, "
                "which produces values in [start, end)."]
            assert caught[0].filename == __file__
        assert printed[0] == printed[1]


COUNT_VALUES = np.array([1.0, 3.0, 2.0, 5.0, 5.0, 0.5, -1.0, 7.5])
COUNT_CALLS = {
    "histc": lambda L: L.histc(L.tensor(COUNT_VALUES), 4),
    "histc_range": lambda L: L.tensor(COUNT_VALUES).histc(5, 0, 5),
    "histc_constant": lambda L: L.histc(L.ones(3), 4),
    "histc_float64_matrix": lambda L: L.histc(L.tensor(COUNT_VALUES, dtype=L.float64)
                                              .reshape(2, 4), 3),
    "histc_half": lambda L: L.histc(L.tensor(COUNT_VALUES).half(), 3),
    "histc_empty": lambda L: L.histc(L.ones(0), 3),
    "bincount": lambda L: L.bincount(L.tensor([1, 1, 3, 0])),
    "bincount_minlength": lambda L: L.tensor([1, 1, 3]).bincount(minlength=6),
    "bincount_empty": lambda L: L.bincount(L.tensor([], dtype=L.int64), minlength=2),
    "bincount_weights": lambda L: L.bincount(L.tensor([1, 1, 3]), L.tensor([0.5, 0.25, 2.0])),
    "bincount_weights_float64": lambda L: L.bincount(L.tensor([1, 2]), L.ones(2,
                                                                            dtype=L.float64)),
    "bincount_weights_int": lambda L: L.bincount(L.tensor([1, 2], dtype=L.uint8),
                                                 L.tensor([3, 4], dtype=L.int32)),
    "bincount_weights_grad": lambda L: L.bincount(L.tensor([0, 2]),
                                                  L.ones(2, requires_grad=True)),
    "searchsorted": lambda L: L.searchsorted(L.tensor([1.0, 3.0, 5.0, 7.0]),
                                             L.tensor([[3.0, 6.0], [0.0, 9.0]])),
    "searchsorted_right": lambda L: L.searchsorted(L.tensor([1.0, 3.0, 5.0]),
                                                   L.tensor([3.0, 6.0]), right=True),
    "searchsorted_side": lambda L: L.searchsorted(L.tensor([1.0, 3.0, 5.0]),
                                                  L.tensor([3.0, 6.0]), side="right"),
    "searchsorted_int32": lambda L: L.searchsorted(L.tensor([1.0, 3.0]), L.tensor([3.0]),
                                                   out_int32=True),
    "searchsorted_number": lambda L: L.searchsorted(L.tensor([1.0, 3.0, 5.0]), 3),
    "searchsorted_sorter": lambda L: L.searchsorted(L.tensor([5.0, 1.0, 3.0]),
                                                    L.tensor([2.0, 4.0, 5.0]),
                                                    sorter=L.tensor([1, 2, 0])),
    "searchsorted_rows": lambda L: L.searchsorted(L.tensor([[1.0, 3.0], [2.0, 4.0]]),
                                                  L.tensor([[2.0, 0.0, 3.0], [3.0, 5.0, 1.0]])),
    "searchsorted_mixed": lambda L: L.searchsorted(L.tensor([1, 3, 5]), L.tensor([2.5, 3.0])),
    "searchsorted_nan": lambda L: L.searchsorted(L.tensor([1.0, 3.0]), L.tensor([float("nan")])),
    "bucketize": lambda L: L.bucketize(L.tensor([[3.0, 6.0], [0.0, 9.0]]),
                                       L.tensor([1.0, 3.0, 5.0, 7.0])),
    "bucketize_right": lambda L: L.bucketize(L.tensor([3.0, 6.0]), L.tensor([1.0, 3.0, 5.0]),
                                             right=True),
    "bucketize_number": lambda L: L.bucketize(3.0, L.tensor([1.0, 3.0, 5.0]), out_int32=True),
    "isin": lambda L: L.isin(L.tensor([1, 2, 3, 4]), L.tensor([2, 4])),
    "isin_invert": lambda L: L.isin(L.tensor([[1, 2], [3, 4]]), L.tensor([[4]]), invert=True),
    "isin_number_elements": lambda L: L.isin(2, L.tensor([2, 4])),
    "isin_number_test": lambda L: L.isin(L.tensor([1.0, 2.0]), 2),
    "isin_mixed": lambda L: L.isin(L.tensor([1.0, 2.5]), L.tensor([2, 1])),
    "isin_nan": lambda L: L.isin(L.tensor([float("nan"), 1.0]), L.tensor([float("nan")])),
    "unravel_index": lambda L: L.unravel_index(L.tensor([[4, 7], [0, 11]]), (3, 4)),
    "unravel_index_scalar": lambda L: L.unravel_index(L.tensor(5, dtype=L.int32), [3, 4]),
    "unravel_index_wraps": lambda L: L.unravel_index(L.tensor([-1, 12, 25]), (3, 4)),
    "unravel_index_int_shape": lambda L: L.unravel_index(L.tensor([1, 6]), 4),
    "unravel_index_no_shape": lambda L: L.unravel_index(L.tensor([0]), ()),
    "tril_indices": lambda L: L.tril_indices(3, 3),
    "tril_indices_offset": lambda L: L.tril_indices(3, 4, -1, dtype=L.int32),
    "tril_indices_far": lambda L: L.tril_indices(2, 2, 10),
    "triu_indices": lambda L: L.triu_indices(3, 4, 2),
    "triu_indices_far": lambda L: L.triu_indices(2, 3, -10),
    "triu_indices_empty": lambda L: L.triu_indices(0, 3),
}


@pytest.mark.parametrize("name", COUNT_CALLS)
def test_counts_and_positions_print_like_torch(name: str) -> None:
    assert repr(COUNT_CALLS[name](mt)) == repr(COUNT_CALLS[name](torch))


def test_weighted_bincount_refuses_backward_as_torch() -> None:
    call = COUNT_CALLS["bincount_weights_grad"]
    assert_same_error(raised_by(lambda L: call(L).sum().backward(), mt),
                      raised_by(lambda L: call(L).sum().backward(), torch))


TABLE_CALLS = {
    "cartesian_prod": (lambda L, x: L.cartesian_prod(x[0, :2], x[1, :3], x[2, :1]), MATRIX),
    "cartesian_prod_one": (lambda L, x: L.cartesian_prod(x[0]), MATRIX),
    "combinations": (lambda L, x: L.combinations(x[0]), MATRIX),
    "combinations_three": (lambda L, x: L.combinations(x[1], 3), MATRIX),
    "combinations_replacement": (lambda L, x: L.combinations(x[2, :3], 2, True), MATRIX),
    "combinations_none": (lambda L, x: L.combinations(x[0], 0), MATRIX),
    "combinations_too_many": (lambda L, x: L.combinations(x[0, :2], 3), MATRIX),
    "block_diag": (lambda L, x: L.block_diag(x[:2, :3], x[2, 0], x[2]), MATRIX),
    "block_diag_none": (lambda L, x: L.block_diag(), MATRIX),
    "block_diag_promoted": (lambda L, x: L.block_diag(L.tensor([[True]]), x[:1, :2]), MATRIX),
    "block_diag_float32": (lambda L, x: L.block_diag(x[:2, :2].float(), x[2]), MATRIX),
    "vander_one": (lambda L, x: L.vander(x[1], 1), MATRIX),
    "vander_none": (lambda L, x: L.vander(x[1], 0), MATRIX),
}


@pytest.mark.parametrize("name", TABLE_CALLS)
def test_tables_print_like_torch(name: str) -> None:
    call, data = TABLE_CALLS[name]
    assert_prints_like_torch(call, data)


@pytest.mark.parametrize("name", [n for n in TABLE_CALLS if "none" not in n and
                                  "vander" not in n and "float32" not in n])
def test_tables_pass_gradcheck(name: str) -> None:
    call, data = TABLE_CALLS[name]
    assert_gradcheck(call, data)


def test_vander_is_torchs_and_so_is_its_refused_backward() -> None:
    """torch's vander writes its running product in place into the tensor it read it from,
    so its own backward refuses (a saved tensor was modified): the graph and values are
    torch's, and so is the refusal."""
    for n, increasing in ((None, False), (5, True), (2, False)):
        printed, errors = [], []
        for L in (mt, torch):
            x = L.tensor(MATRIX[0], requires_grad=True)
            result = L.vander(x, n, increasing)
            printed.append(repr(result))
            errors.append(raised_by(lambda L, r=result: r.sum().backward(), L))
        assert printed[0] == printed[1]
        assert [type(e) for e in errors] == [RuntimeError, RuntimeError]
        assert all("modified by an inplace operation" in str(e) for e in errors)


def test_block_diag_gradient_past_an_empty_vector_is_the_right_one() -> None:
    """An empty vector is a block of one row and no columns; torch's backward forgets that
    row and hands the next block the wrong rows of the gradient (its values and graph are
    otherwise torch's); minitorch's gradient is the true one."""
    def call(L: Any, x: Any) -> Any:
        return L.block_diag(x[0, :0], x[:2, :1])

    x = mt.tensor(MATRIX, requires_grad=True)
    assert repr(call(mt, x)) == repr(call(torch, torch.tensor(MATRIX, requires_grad=True)))
    weights = mt.tensor([[1.0], [2.0], [3.0]])
    (call(mt, x) * weights).sum().backward()
    assert x.grad[:2, 0].tolist() == [2.0, 3.0]
    assert_gradcheck(call, MATRIX)


def test_integer_tables_are_torchs() -> None:
    calls = [lambda L: L.vander(L.tensor([1, 2, 3])), lambda L: L.vander(L.tensor([True, False])),
             lambda L: L.vander(L.tensor([2, 3], dtype=L.int32), 3, True),
             lambda L: L.combinations(L.tensor([1, 2, 3]), 2),
             lambda L: L.cartesian_prod(L.tensor([1, 2]), L.tensor([3])),
             lambda L: L.block_diag(L.tensor([[True]]), L.tensor([[1]]))]
    for call in calls:
        assert repr(call(mt)) == repr(call(torch))


STAT_ERRORS = {
    "diff_scalar": lambda L: L.diff(L.tensor(1.0)),
    "diff_order": lambda L: L.diff(L.ones(3), -1),
    "diff_prepend_dims": lambda L: L.diff(L.ones(3, 4), prepend=L.ones(4)),
    "diff_prepend_shape": lambda L: L.diff(L.ones(3, 4), prepend=L.ones(2, 1)),
    "diff_append_shape": lambda L: L.diff(L.ones(3, 4), dim=0, append=L.ones(1, 3)),
    "diff_prepend_scalar": lambda L: L.diff(L.ones(3), prepend=L.tensor(1.0)),
    "diff_dim": lambda L: L.diff(L.ones(3, 4), dim=2),
    "diff_float_order": lambda L: L.diff(L.ones(3), 1.5),
    "trapz_bool": lambda L: L.trapz(L.tensor([True, False])),
    "trapezoid_x_length": lambda L: L.trapezoid(L.ones(3, 4), L.ones(3)),
    "trapezoid_x_and_dx": lambda L: L.trapezoid(L.ones(3, 4), L.ones(4), dx=2),
    "trapezoid_dx_bool": lambda L: L.trapezoid(L.ones(3), dx=True),
    "trapezoid_dim": lambda L: L.trapezoid(L.ones(3, 4), dim=2),
    "trapz_x_list": lambda L: L.trapz(L.ones(4), [1, 2, 3, 4]),
    "trapezoid_scalar": lambda L: L.trapezoid(L.tensor(1.0)),
    "cumulative_trapezoid_x_length": lambda L: L.cumulative_trapezoid(L.ones(3, 4), L.ones(3)),
    "cumulative_trapezoid_bool": lambda L: L.cumulative_trapezoid(L.tensor([True, False])),
    "cov_dims": lambda L: L.cov(L.ones(2, 2, 2)),
    "cov_bool": lambda L: L.cov(L.ones(2, 2, dtype=L.bool)),
    "cov_fweights_dims": lambda L: L.cov(L.ones(3, 4), fweights=L.ones(1, 4, dtype=L.int64)),
    "cov_fweights_float": lambda L: L.cov(L.ones(3, 4), fweights=L.ones(4)),
    "cov_fweights_count": lambda L: L.cov(L.ones(3, 4), fweights=L.ones(3, dtype=L.int64)),
    "cov_fweights_negative": lambda L: L.cov(L.ones(3, 4), fweights=L.tensor([1, -1, 1, 1])),
    "cov_aweights_int": lambda L: L.cov(L.ones(3, 4), aweights=L.ones(4, dtype=L.int64)),
    "cov_aweights_negative": lambda L: L.cov(L.ones(3, 4), aweights=L.tensor([1., -1, 1, 1])),
    "cov_aweights_count": lambda L: L.cov(L.ones(3, 4), aweights=L.ones(5)),
    "cov_weights_zero": lambda L: L.cov(L.ones(3, 4), fweights=L.zeros(4, dtype=L.int64)),
    "cov_correction_float": lambda L: L.cov(L.ones(3, 4), correction=0.5),
    "corrcoef_dims": lambda L: L.corrcoef(L.ones(2, 2, 2)),
    "quantile_empty": lambda L: L.quantile(L.ones(0), 0.5),
    "quantile_range": lambda L: L.quantile(L.ones(3), 1.5),
    "quantile_range_tensor": lambda L: L.quantile(L.ones(3), L.tensor([0.5, 1.5])),
    "quantile_q_matrix": lambda L: L.quantile(L.ones(3), L.ones(2, 2) * 0.5),
    "quantile_int": lambda L: L.quantile(L.tensor([1, 2]), 0.5),
    "quantile_half": lambda L: L.quantile(L.ones(2).half(), 0.5),
    "quantile_q_dtype": lambda L: L.quantile(L.ones(3), L.tensor(0.5, dtype=L.float64)),
    "quantile_interpolation": lambda L: L.quantile(L.ones(3), 0.5, interpolation="foo"),
    "quantile_dim": lambda L: L.quantile(L.ones(3, 4), 0.5, dim=2),
    "quantile_list": lambda L: L.quantile(L.ones(3), [0.5]),
    "nanquantile_range": lambda L: L.nanquantile(L.ones(3), -0.5),
    "histc_int": lambda L: L.histc(L.tensor([1, 2]), 4),
    "histc_min_max": lambda L: L.histc(L.ones(3), 4, 3, 1),
    "histc_bins": lambda L: L.histc(L.ones(3), 0),
    "histc_infinite": lambda L: L.histc(L.tensor([1.0, float("inf")])),
    "bincount_negative": lambda L: L.bincount(L.tensor([1, -1])),
    "bincount_matrix": lambda L: L.bincount(L.tensor([[1]])),
    "bincount_float": lambda L: L.bincount(L.tensor([1.0])),
    "bincount_bool": lambda L: L.bincount(L.tensor([True])),
    "bincount_weights_length": lambda L: L.bincount(L.tensor([1, 2]), L.ones(3)),
    "bincount_minlength": lambda L: L.bincount(L.tensor([1, 2]), minlength=-1),
    "searchsorted_side": lambda L: L.searchsorted(L.ones(3), L.ones(2), side="foo"),
    "searchsorted_opposites": lambda L: L.searchsorted(L.ones(3), L.ones(2), right=True,
                                                       side="left"),
    "searchsorted_sorter_size": lambda L: L.searchsorted(L.ones(3), L.ones(1),
                                                         sorter=L.tensor([1, 2])),
    "searchsorted_sorter_range": lambda L: L.searchsorted(L.ones(2), L.ones(1),
                                                          sorter=L.tensor([1, 2])),
    "searchsorted_sorter_dtype": lambda L: L.searchsorted(L.ones(2), L.ones(1),
                                                          sorter=L.tensor([1, 0],
                                                                          dtype=L.int32)),
    "searchsorted_rows": lambda L: L.searchsorted(L.ones(2, 2), L.ones(1)),
    "searchsorted_scalar_rows": lambda L: L.searchsorted(L.ones(2, 2), L.tensor(1.0)),
    "searchsorted_boundaries_scalar": lambda L: L.searchsorted(L.tensor(1.0), L.ones(1)),
    "bucketize_boundaries": lambda L: L.bucketize(L.ones(1), L.ones(2, 2)),
    "isin_numbers": lambda L: L.isin(1, 2),
    "unravel_index_float": lambda L: L.unravel_index(L.tensor([1.0]), (3, 4)),
    "unravel_index_bool": lambda L: L.unravel_index(L.tensor([True]), (3, 4)),
    "unravel_index_negative_shape": lambda L: L.unravel_index(L.tensor([1]), (-1, 4)),
    "unravel_index_float_shape": lambda L: L.unravel_index(L.tensor([1]), (3.0, 4)),
    "unravel_index_int": lambda L: L.unravel_index(5, (3, 4)),
    "tril_indices_row": lambda L: L.tril_indices(-1, 3),
    "triu_indices_col": lambda L: L.triu_indices(3, -2),
    "tril_indices_dtype": lambda L: L.tril_indices(2, 2, dtype=L.float32),
    "cartesian_prod_matrix": lambda L: L.cartesian_prod(L.ones(2, 2)),
    "cartesian_prod_dtypes": lambda L: L.cartesian_prod(L.tensor([1, 2]), L.tensor([3.0])),
    "cartesian_prod_none": lambda L: L.cartesian_prod(),
    "combinations_negative": lambda L: L.combinations(L.tensor([1, 2, 3]), -1),
    "combinations_matrix": lambda L: L.combinations(L.ones(2, 2)),
    "block_diag_dims": lambda L: L.block_diag(L.ones(2, 2, 2)),
    "block_diag_number": lambda L: L.block_diag(L.ones(2), 3),
    "vander_negative": lambda L: L.vander(L.tensor([1, 2, 3]), -1),
    "vander_matrix": lambda L: L.vander(L.ones(2, 2)),
    "range_bounds": lambda L: L.range(3, 1),
    "range_step": lambda L: L.range(1, 3, 0),
}


@pytest.mark.parametrize("name", STAT_ERRORS)
def test_statistics_errors_are_torchs(name: str) -> None:
    call = STAT_ERRORS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same_error(raised_by(call, mt), raised_by(call, torch))


@SETTINGS
@given(st.data())
def test_quantiles_of_any_shape_are_torchs(data: st.DataObject) -> None:
    shape = data.draw(shapes(min_dims=1, max_dims=3, max_side=5))
    values = data.draw(arrays(shape, unique=True))  # (ties: the gradient's place is torch's
    dim = data.draw(st.none() | st.integers(-len(shape), len(shape) - 1))  # sort's choice)
    q = data.draw(st.lists(st.floats(0, 1), min_size=1, max_size=3))
    keepdim = data.draw(st.booleans())
    mode = data.draw(st.sampled_from(["linear", "lower", "higher", "midpoint", "nearest"]))

    def call(L: Any, x: Any) -> Any:
        return L.quantile(x, L.tensor(q, dtype=L.float64), dim, keepdim, interpolation=mode)

    assert_prints_like_torch(call, values)


@SETTINGS
@given(st.data())
def test_histograms_and_searches_of_any_values_are_torchs(data: st.DataObject) -> None:
    values = data.draw(arrays(shapes(min_dims=1, max_dims=2, max_side=6),
                              elements=st.sampled_from([-2.0, -0.5, 0.0, 0.3, 1.0, 2.5, 4.0])))
    bins = data.draw(st.integers(1, 7))
    low, high = sorted(data.draw(st.lists(st.sampled_from([0.0, -1.0, 0.5, 3.0]), min_size=2,
                                          max_size=2)))
    boundaries = np.sort(data.draw(arrays((data.draw(st.integers(1, 5)),),
                                          elements=st.sampled_from([-1.0, 0.0, 0.3, 2.5]))))
    right = data.draw(st.booleans())
    for dtype in ("float32", "float64"):
        def call(L: Any, dtype: str = dtype) -> Any:
            x = L.tensor(values, dtype=getattr(L, dtype))
            b = L.tensor(boundaries, dtype=getattr(L, dtype))
            return (L.histc(x, bins, low, high), L.bucketize(x, b, right=right),
                    L.searchsorted(b, x, right=right), L.isin(x, b))

        assert repr(call(mt)) == repr(call(torch))


# ------------------------------------------------------------------------------ products

SQUARE = np.array([[2.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 4.0]])
PRODUCT_CALLS = {
    "tensordot": (lambda L, x: L.tensordot(x, x.t(), dims=1), MATRIX),
    "tensordot_full": (lambda L, x: L.tensordot(x, x * 2), MATRIX),
    "tensordot_full_transposed": (lambda L, x: L.tensordot(x.t(), x.t(), 2), MATRIX),
    "tensordot_lists": (lambda L, x: L.tensordot(x, x[:1], dims=([2, 1], [2, 1])), CUBE),
    "tensordot_outer": (lambda L, x: L.tensordot(x[0], x[1], dims=0), MATRIX),
    "tensordot_broadcast_dim": (lambda L, x: L.tensordot(x, x[:1], dims=([0], [0])), MATRIX),
    "tensordot_tensor_dims": (lambda L, x: L.tensordot(x, x, dims=L.tensor([[1], [1]])), MATRIX),
    "inner": (lambda L, x: L.inner(x, x[:2]), MATRIX),
    "inner_vectors": (lambda L, x: x[0].inner(x[1]), MATRIX),
    "inner_scalar": (lambda L, x: L.inner(x[0], x[1, 1]), MATRIX),
    "kron": (lambda L, x: L.kron(x[:2, :2], x), MATRIX),
    "kron_ranks": (lambda L, x: x[0].kron(x[:2]), CUBE),
    "vdot": (lambda L, x: L.vdot(x[0], x[1]), MATRIX),
    "cross": (lambda L, x: L.cross(x, x.flip(0), dim=0), SQUARE),
    "cross_broadcast": (lambda L, x: x[:1].cross(x, dim=1), SQUARE),
    "linalg_cross": (lambda L, x: L.linalg.cross(x, x.roll(1, 1)), SQUARE),
    "cdist": (lambda L, x: L.cdist(x, x[:2] * 2), MATRIX),
    "cdist_p1": (lambda L, x: L.cdist(x, x[:2] * 2, p=1), MATRIX),
    "cdist_p_half": (lambda L, x: L.cdist(x, x[:2] * 2, p=0.5), MATRIX),
    "cdist_p3": (lambda L, x: L.cdist(x, x[:2] * 2, p=3), MATRIX),
    "cdist_inf": (lambda L, x: L.cdist(x, x[:2] * 2, p=float("inf")), MATRIX),
    "cdist_zero": (lambda L, x: L.cdist(x, x[:2] * 2, p=0), MATRIX),
    "cdist_batches": (lambda L, x: L.cdist(x.reshape(1, 3, 4), x[:2].reshape(2, 1, 1, 4) * 2),
                      MATRIX),
    "cdist_mm": (lambda L, x: L.cdist(x, x * 0.5, compute_mode="use_mm_for_euclid_dist"),
                 MATRIX),
    "pdist": (lambda L, x: L.pdist(x), MATRIX),
    "pdist_p1": (lambda L, x: L.pdist(x.t(), 1), MATRIX),
    "pdist_inf": (lambda L, x: L.pdist(x, float("inf")), MATRIX),
    "pdist_p3": (lambda L, x: L.pdist(x, 3), MATRIX),
    "pdist_one_row": (lambda L, x: L.pdist(x[:1]), MATRIX),
    "cdist_large": (lambda L, x: L.cdist(x.reshape(-1, 1).repeat(3, 2), x[:2, :2]), MATRIX),
    "addr": (lambda L, x: L.addr(x, x[:, 0], x[0]), MATRIX),
    "addr_scaled": (lambda L, x: x.addr(x[:, 1], x[0], beta=0.5, alpha=-2), MATRIX),
    "addr_beta_zero": (lambda L, x: L.addr(x.log(), x[:, 0], x[0], beta=0), MATRIX),
    "addr_": (lambda L, x: (x * 1).addr_(x[:, 2], x[1], alpha=3), MATRIX),
    "addmv": (lambda L, x: L.addmv(x[:, 0], x, x[0]), MATRIX),
    "addmv_scaled": (lambda L, x: x[0, :3].addmv(x, x[1], beta=2, alpha=0.5), MATRIX),
    "addmv_": (lambda L, x: L.addmv_(x[:, 1] * 1, x, x[2]), MATRIX),
    "addbmm": (lambda L, x: L.addbmm(x[0, 0], x[:, :, :1], x[:, :1, :]), CUBE),
    "addbmm_scaled": (lambda L, x: x[0, :, :3].addbmm(x, x.transpose(1, 2), beta=0.5,
                                                      alpha=2), CUBE),
    "addbmm_": (lambda L, x: (x[0, :, :3] * 1).addbmm_(x, x.transpose(1, 2)), CUBE),
    "baddbmm": (lambda L, x: L.baddbmm(x[0, 0, :3], x, x.transpose(1, 2)), CUBE),
    "baddbmm_scaled": (lambda L, x: x[:, :3, :3].baddbmm(x, x.transpose(1, 2), beta=-1,
                                                         alpha=0.25), CUBE),
    "baddbmm_": (lambda L, x: (x[:, :3, :3] * 1).baddbmm_(x, x.transpose(1, 2)), CUBE),
    "chain_matmul": (lambda L, x: L.chain_matmul(x, x.t(), x), MATRIX),
    "chain_matmul_one": (lambda L, x: L.chain_matmul(x), MATRIX),
    "chain_matmul_two": (lambda L, x: L.chain_matmul(x, x.t()), MATRIX),
    "multi_dot": (lambda L, x: L.linalg.multi_dot([x[0], x.t(), x, x.t(), x[:, 1]]), MATRIX),
    "multi_dot_many": (lambda L, x: L.linalg.multi_dot([x[:2], x.t(), x[:, :1], x[:1, :3],
                                                        x]), MATRIX),
    "matrix_power": (lambda L, x: L.matrix_power(x, 3), SQUARE),
    "matrix_power_zero": (lambda L, x: x.matrix_power(0), SQUARE),
    "matrix_power_one": (lambda L, x: L.matrix_power(x, 1), SQUARE),
    "matrix_power_two": (lambda L, x: L.linalg.matrix_power(x, 2), SQUARE),
    "matrix_power_inverse": (lambda L, x: L.matrix_power(x, -1), SQUARE),
    "matrix_power_negative": (lambda L, x: L.matrix_power(x, -2), SQUARE),
    "matrix_power_many": (lambda L, x: L.matrix_power(x * 0.5, 13), SQUARE),
}


@pytest.mark.parametrize("name", PRODUCT_CALLS)
def test_products_print_like_torch(name: str) -> None:
    call, data = PRODUCT_CALLS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_prints_like_torch(call, data)


@pytest.mark.parametrize("name", [n for n in PRODUCT_CALLS if n[-1] != "_" and "dist" not in n
                                  and "beta_zero" not in n])
def test_products_pass_gradcheck(name: str) -> None:
    call, data = PRODUCT_CALLS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_gradcheck(call, data)


@pytest.mark.parametrize("name", [n for n in PRODUCT_CALLS if "dist" in n and "one_row" not in n])
def test_cdist_gradient_passes_gradcheck_and_refuses_a_graph_as_torch(name: str) -> None:
    call, data = PRODUCT_CALLS[name]
    x = mt.tensor(data, requires_grad=True)
    assert mt.autograd.gradcheck(lambda t: call(mt, t), (x,))
    if "mm" in name or "large" in name:  # torch's matrix-product form has a double backward
        assert mt.autograd.gradgradcheck(lambda t: call(mt, t), (x,))
        return

    def second(L: Any) -> Any:
        y = L.tensor(data, requires_grad=True)
        (g,) = L.autograd.grad(call(L, y).sum(), y, create_graph=True)
        return L.autograd.grad(g.sum(), y)

    assert_same_error(raised_by(second, mt), raised_by(second, torch))


def test_integer_products_are_torchs() -> None:
    calls = [lambda L: L.matrix_power(L.tensor([[1, 1], [1, 0]]), 10),
             lambda L: L.kron(L.tensor([1, 2]), L.tensor([[1], [3]])),
             lambda L: L.addr(L.ones(2, 2, dtype=L.int64), L.tensor([1, 2]), L.tensor([3, 4]),
                              beta=2, alpha=3),
             lambda L: L.addr(L.zeros(2, 2), L.tensor([1, 2]), L.tensor([0.5, 1.0])),
             lambda L: L.tensordot(L.arange(6).reshape(2, 3), L.arange(6).reshape(3, 2), 1),
             lambda L: L.cross(L.tensor([1, 0, 0]), L.tensor([0, 1, 0]), dim=0),
             lambda L: L.addmv(L.ones(2, dtype=L.int64), L.ones(2, 3, dtype=L.int64),
                               L.arange(3))]
    for call in calls:
        assert repr(call(mt)) == repr(call(torch))


PRODUCT_ERRORS = {
    "tensordot_dims": lambda L: L.tensordot(L.ones(3, 3), L.ones(3, 3), dims=3),
    "tensordot_negative": lambda L: L.tensordot(L.ones(3, 3), L.ones(3, 3), dims=-1),
    "tensordot_lengths": lambda L: L.tensordot(L.ones(3, 3), L.ones(3, 3), dims=([0, 1], [0])),
    "tensordot_sizes": lambda L: L.tensordot(L.ones(3, 3), L.ones(2, 3), dims=([0], [0])),
    "tensordot_dtypes": lambda L: L.tensordot(L.ones(3, 3), L.ones(3, 3).double(), dims=1),
    "tensordot_str": lambda L: L.tensordot(L.ones(3, 3), L.ones(3, 3), dims="a"),
    "inner_last": lambda L: L.inner(L.ones(3, 3), L.ones(2)),
    "kron_number": lambda L: L.kron(L.ones(3), 2),
    "vdot_matrix": lambda L: L.vdot(L.ones(3, 3), L.ones(3)),
    "vdot_sizes": lambda L: L.vdot(L.ones(3), L.ones(2)),
    "vdot_dtypes": lambda L: L.vdot(L.ones(3), L.ones(3).double()),
    "cross_length": lambda L: L.cross(L.ones(2, 4), L.ones(2, 4), dim=1),
    "cross_no_three": lambda L: L.cross(L.ones(2, 4), L.ones(2, 4)),
    "cross_dims": lambda L: L.cross(L.ones(3), L.ones(2, 3), dim=0),
    "cross_dtypes": lambda L: L.cross(L.ones(3), L.ones(3).double(), dim=0),
    "linalg_cross_dims": lambda L: L.linalg.cross(L.ones(2, 3), L.ones(3)),
    "cdist_vector": lambda L: L.cdist(L.ones(3), L.ones(3, 3)),
    "cdist_columns": lambda L: L.cdist(L.ones(3, 3), L.ones(2, 2)),
    "cdist_p": lambda L: L.cdist(L.ones(3, 3), L.ones(3, 3), p=-1),
    "cdist_int": lambda L: L.cdist(L.ones(3, 3).long(), L.ones(3, 3).long()),
    "cdist_dtypes": lambda L: L.cdist(L.ones(3, 3), L.ones(3, 3).double()),
    "cdist_mode": lambda L: L.cdist(L.ones(3, 3), L.ones(3, 3), compute_mode="foo"),
    "pdist_vector": lambda L: L.pdist(L.ones(3)),
    "pdist_cube": lambda L: L.pdist(L.ones(2, 3, 4)),
    "pdist_p": lambda L: L.pdist(L.ones(3, 2), -1.0),
    "pdist_int": lambda L: L.pdist(L.ones(3, 2, dtype=L.int64)),
    "addr_shape": lambda L: L.addr(L.ones(3, 3), L.ones(3), L.ones(2)),
    "addr_matrix": lambda L: L.addr(L.ones(3, 3), L.ones(3, 3), L.ones(3)),
    "addr_float_beta": lambda L: L.addr(L.ones(2, 2, dtype=L.int64), L.ones(2, dtype=L.int64),
                                        L.ones(2, dtype=L.int64), beta=0.5),
    "addmv_shape": lambda L: L.addmv(L.ones(3), L.ones(3, 3), L.ones(2)),
    "addmv_matrix": lambda L: L.addmv(L.ones(3), L.ones(3), L.ones(3)),
    "addmv_vector": lambda L: L.addmv(L.ones(3), L.ones(3, 3), L.ones(2, 2)),
    "addmv_bias": lambda L: L.addmv(L.ones(2), L.ones(3, 3), L.ones(3)),
    "addmv_dtypes": lambda L: L.addmv(L.ones(3), L.ones(3, 3), L.ones(3).double()),
    "addbmm_shape": lambda L: L.addbmm(L.ones(3, 3), L.ones(2, 3, 4), L.ones(2, 3, 3)),
    "addbmm_matrices": lambda L: L.addbmm(L.ones(3, 3), L.ones(3, 3), L.ones(3, 3)),
    "addbmm_batches": lambda L: L.addbmm(L.ones(3, 3), L.ones(2, 3, 3), L.ones(3, 3, 3)),
    "addbmm_bias": lambda L: L.addbmm(L.ones(2, 2), L.ones(2, 3, 3), L.ones(2, 3, 3)),
    "baddbmm_shape": lambda L: L.baddbmm(L.ones(3, 3), L.ones(2, 3, 4), L.ones(2, 3, 3)),
    "baddbmm_bias": lambda L: L.baddbmm(L.ones(3, 3, 3), L.ones(2, 3, 3), L.ones(2, 3, 3)),
    "baddbmm_matrices": lambda L: L.baddbmm(L.ones(3, 3), L.ones(3, 3), L.ones(3, 3)),
    "baddbmm_dtypes": lambda L: L.baddbmm(L.ones(3, 3), L.ones(2, 3, 3),
                                          L.ones(2, 3, 3).double()),
    "matrix_power_rectangle": lambda L: L.matrix_power(L.ones(2, 3), 2),
    "matrix_power_vector": lambda L: L.matrix_power(L.ones(3), 2),
    "matrix_power_int_inverse": lambda L: L.matrix_power(L.ones(2, 2, dtype=L.int64), -1),
    "chain_matmul_vector": lambda L: L.chain_matmul(L.ones(3, 3), L.ones(3)),
    "chain_matmul_sizes": lambda L: L.chain_matmul(L.ones(3, 3), L.ones(2, 2)),
    "chain_matmul_none": lambda L: L.chain_matmul(),
    "multi_dot_last": lambda L: L.linalg.multi_dot([L.ones(3, 3), L.ones(3, 3, 3)]),
    "multi_dot_one": lambda L: L.linalg.multi_dot([L.ones(3, 3)]),
    "multi_dot_middle": lambda L: L.linalg.multi_dot([L.ones(3), L.ones(3), L.ones(3)]),
}


@pytest.mark.parametrize("name", PRODUCT_ERRORS)
def test_product_errors_are_torchs(name: str) -> None:
    call = PRODUCT_ERRORS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same_error(raised_by(call, mt), raised_by(call, torch))


# ------------------------------------------------------------------------ decompositions

TALL = np.array([[2.0, 1.0], [1.0, 3.0], [0.5, -0.2]])
SPD = SQUARE @ SQUARE.T + np.eye(3)
DECOMPOSITION_CALLS = {
    "svd": (lambda L, x: L.svd(x), TALL),
    "svd_wide": (lambda L, x: x.t().svd(), TALL),
    "svd_full": (lambda L, x: L.svd(x, some=False), TALL),
    "svd_values_only": (lambda L, x: L.svd(x, compute_uv=False), TALL),
    "linalg_svd": (lambda L, x: L.linalg.svd(x, full_matrices=False), TALL),
    "linalg_svd_full": (lambda L, x: L.linalg.svd(x.t()), TALL),
    "linalg_svd_batch": (lambda L, x: L.linalg.svd(L.stack([x, x * 2 - 1]), False), TALL),
    "qr": (lambda L, x: L.qr(x), TALL),
    "qr_complete": (lambda L, x: x.qr(some=False), TALL),
    "slogdet": (lambda L, x: L.slogdet(x), SQUARE),
    "slogdet_negative": (lambda L, x: x.flip(0).slogdet(), SQUARE),
    "linalg_slogdet": (lambda L, x: L.linalg.slogdet(L.stack([x, -x])), SQUARE),
    "logdet": (lambda L, x: L.logdet(x), SQUARE),
    "logdet_negative": (lambda L, x: x.flip(0).logdet(), SQUARE),
    "pinverse": (lambda L, x: L.pinverse(x), TALL),
    "pinverse_wide": (lambda L, x: x.t().pinverse(), TALL),
    "pinverse_rcond": (lambda L, x: L.pinverse(x, rcond=0.5), TALL),
    "linalg_pinv": (lambda L, x: L.linalg.pinv(x), TALL),
    "cholesky": (lambda L, x: L.cholesky(x), SPD),
    "cholesky_upper": (lambda L, x: x.cholesky(upper=True), SPD),
    "linalg_cholesky": (lambda L, x: L.linalg.cholesky(x), SPD),
    "linalg_cholesky_upper": (lambda L, x: L.linalg.cholesky(x, upper=True), SPD),
    "cholesky_inverse": (lambda L, x: L.cholesky_inverse(L.linalg.cholesky(x)), SPD),
    "cholesky_inverse_upper": (lambda L, x: L.linalg.cholesky(x).mT.cholesky_inverse(True),
                               SPD),
    "cholesky_solve": (lambda L, x: L.cholesky_solve(x[:, :2], L.linalg.cholesky(x)), SPD),
    "cholesky_solve_upper": (lambda L, x: x[:, 1:].cholesky_solve(L.linalg.cholesky(x).mT,
                                                                  True), SPD),
}


def _factors(L: Any, call: Any, data: np.ndarray) -> tuple:
    """The outputs (dtype, shape, node, values) and the gradient of a weighted sum of their
    squares (or the error of its backward)."""
    x = L.tensor(data, requires_grad=True)
    result = call(L, x)
    pieces = [t for t in _pieces(result) if isinstance(t, L.Tensor)]
    outputs = [(str(t.dtype), tuple(t.shape), t.grad_fn and t.grad_fn.name(), numpy_of(t))
               for t in pieces]
    tracked = [t for t in pieces if t.grad_fn is not None]
    total = sum((t * t).sum() * (i + 1) for i, t in enumerate(tracked))
    grads: list = []
    error = raised_by(lambda L: grads.append(L.autograd.grad(total, x)[0]), L)
    return type(result).__name__, outputs, error or grads[0]


def assert_factors_like_torch(call: Any, data: np.ndarray) -> None:
    """Nodes, dtypes and values (to float64 rounding: LAPACK's paths differ in the last bits)
    of the results and of their gradient, or torch's refusal of it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got, want = _factors(mt, call, data), _factors(torch, call, data)
    assert got[0] == want[0]
    assert [o[:3] for o in got[1]] == [o[:3] for o in want[1]]
    for g, w in zip(got[1], want[1]):
        np.testing.assert_allclose(g[3], w[3], rtol=1e-9, atol=1e-12)
    if isinstance(want[2], BaseException):
        assert_same_error(got[2], want[2])
    else:
        np.testing.assert_allclose(numpy_of(got[2]), numpy_of(want[2]), rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("name", DECOMPOSITION_CALLS)
def test_decompositions_are_torchs(name: str) -> None:
    assert_factors_like_torch(*DECOMPOSITION_CALLS[name])


@pytest.mark.parametrize("name", [n for n in DECOMPOSITION_CALLS if "negative" not in n and
                                  "full" not in n and "complete" not in n and "rcond" not in n])
def test_decompositions_pass_gradcheck(name: str) -> None:
    call, data = DECOMPOSITION_CALLS[name]

    def symmetric(L: Any, x: Any) -> Any:  # a Cholesky factor reads a symmetric matrix
        return call(L, (x + x.mT) / 2 if "cholesky" in name else x)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_gradcheck(symmetric, data)


DECOMPOSITION_ERRORS = {
    "svd_vector": lambda L: L.svd(L.ones(3)),
    "svd_int": lambda L: L.svd(L.ones(3, 3, dtype=L.int64)),
    "linalg_svd_vector": lambda L: L.linalg.svd(L.ones(3)),
    "qr_vector": lambda L: L.qr(L.ones(3)),
    "slogdet_rectangle": lambda L: L.slogdet(L.ones(3, 2)),
    "slogdet_int": lambda L: L.slogdet(L.ones(2, 2, dtype=L.int64)),
    "logdet_int": lambda L: L.logdet(L.ones(3, 3, dtype=L.int64)),
    "logdet_rectangle": lambda L: L.logdet(L.ones(3, 2)),
    "pinverse_vector": lambda L: L.pinverse(L.ones(3)),
    "pinverse_rcond": lambda L: L.pinverse(L.ones(2, 2), rcond="a"),
    "cholesky_negative": lambda L: L.cholesky(-L.eye(2)),
    "cholesky_rectangle": lambda L: L.cholesky(L.ones(2, 3)),
    "cholesky_int": lambda L: L.cholesky(L.ones(2, 2, dtype=L.int64)),
    "linalg_cholesky_indefinite": lambda L: L.linalg.cholesky(L.tensor([[1.0, 2.0],
                                                                        [2.0, 1.0]])),
    "linalg_cholesky_vector": lambda L: L.linalg.cholesky(L.ones(3)),
    "cholesky_solve_vector": lambda L: L.cholesky_solve(L.ones(3), L.eye(2)),
    "cholesky_solve_sizes": lambda L: L.cholesky_solve(L.ones(3, 1), L.eye(2)),
    "cholesky_inverse_vector": lambda L: L.cholesky_inverse(L.ones(3)),
}


@pytest.mark.parametrize("name", DECOMPOSITION_ERRORS)
def test_decomposition_errors_are_torchs(name: str) -> None:
    call = DECOMPOSITION_ERRORS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same_error(raised_by(call, mt), raised_by(call, torch))


# ---------------------------------------------------------- nn functions at the top level

NCL = RNG.normal(size=(2, 3, 6))
NN_CALLS = {
    "dropout_eval": (lambda L, x: L.dropout(x, 0.5, False), NCL),
    "dropout_p0": (lambda L, x: L.dropout(x, 0.0, True), NCL),
    "dropout_p1": (lambda L, x: L.dropout(x, 1.0, True), NCL),
    "dropout_": (lambda L, x: L.dropout_(x * 1, 0.0, False), NCL),
    "conv1d": (lambda L, x: L.conv1d(x, x[0, :2, :3].reshape(2, 1, 3).expand(2, 3, 3) * 1,
                                     x[1, 0, :2], 2, 1), NCL),
    "conv1d_same": (lambda L, x: L.conv1d(x, x[:, :, :3], padding="same"), NCL),
    "conv2d": (lambda L, x: L.conv2d(x[None], x[None, :, :2, :2]), NCL),
    "conv3d": (lambda L, x: L.conv3d(x[None, None], x[None, None, :1, :2, :2]), NCL),
    "conv_transpose2d": (lambda L, x: L.conv_transpose2d(x[None], x[:, None, :2, :2]), NCL),
    "embedding": (lambda L, x: L.embedding(x[0], L.tensor([[2, 0], [1, 1]])), NCL),
    "embedding_padding": (lambda L, x: L.embedding(x[0], L.tensor([2, 0]), 0), NCL),
    "layer_norm": (lambda L, x: L.layer_norm(x, (6,), x[0, 0], x[0, 1], 1e-3, False), NCL),
    "batch_norm": (lambda L, x: L.batch_norm(x, x[0, :, 0], x[0, :, 1], None, None, True,
                                             0.1, 1e-5, False), NCL),
    "pixel_shuffle": (lambda L, x: L.pixel_shuffle(x.reshape(1, 4, 3, 3), 2), NCL),
    "pixel_unshuffle": (lambda L, x: L.pixel_unshuffle(x.reshape(1, 1, 6, 6), 2), NCL),
    "cosine_similarity": (lambda L, x: L.cosine_similarity(x, x.flip(0), 2), NCL),
    "pairwise_distance": (lambda L, x: L.pairwise_distance(x[0], x[1], 1.5, 1e-3, True), NCL),
    "prelu": (lambda L, x: L.prelu(x, x[0, :, 0].abs()), NCL),
    "prelu_method": (lambda L, x: x.prelu(L.tensor([0.25], dtype=L.float64)), NCL),
    "selu": (lambda L, x: L.selu(x), NCL),
    "selu_": (lambda L, x: L.selu_(x * 1), NCL),
    "celu": (lambda L, x: L.celu(x, 0.5), NCL),
    "celu_": (lambda L, x: L.celu_(x * 1), NCL),
    "threshold": (lambda L, x: L.threshold(x, 0.1, -2.0), NCL),
    "threshold_": (lambda L, x: L.threshold_(x * 1, 0.2, 5), NCL),
    "kl_div": (lambda L, x: L.kl_div(x, x.detach().exp()), NCL),
    "kl_div_sum": (lambda L, x: L.kl_div(x, x * 0.5, 2, log_target=True), NCL),
    "margin_ranking_loss": (lambda L, x: L.margin_ranking_loss(x, x.flip(0), x.sign(), 0.5),
                            NCL),
    "margin_ranking_loss_mean": (lambda L, x: L.margin_ranking_loss(x, x.flip(0), x.sign(),
                                                                    0.5, 1), NCL),
    "hinge_embedding_loss": (lambda L, x: L.hinge_embedding_loss(x, x.sign().detach()), NCL),
    "hinge_embedding_loss_other": (lambda L, x: L.hinge_embedding_loss(x, x.sign().detach(),
                                                                       2.0, 7), NCL),
    "cosine_embedding_loss": (lambda L, x: L.cosine_embedding_loss(x[0], x[1], L.tensor(
        [1.0, -1.0, 1.0]), 0.1, 2), NCL),
    "triplet_margin_loss": (lambda L, x: L.triplet_margin_loss(x[0], x[1], x[0] * 2), NCL),
    "triplet_margin_loss_swap": (lambda L, x: L.triplet_margin_loss(x[0], x[1], x[0] * 2, 0.5,
                                                                    1, 1e-6, True, 1), NCL),
    "poisson_nll_loss": (lambda L, x: L.poisson_nll_loss(x, x.detach().exp(), True, False, 1e-8,
                                                         1), NCL),
    "poisson_nll_loss_full": (lambda L, x: L.poisson_nll_loss(x.exp(), x.detach().exp() + 2,
                                                              False, True, 1e-6, 0), NCL),
    "bce_with_logits": (lambda L, x: L.binary_cross_entropy_with_logits(x, x.detach().sigmoid()),
                        NCL),
    "bce_with_logits_weights": (lambda L, x: L.binary_cross_entropy_with_logits(
        x, x.detach().sigmoid(), x[0, 0].detach().abs(), x[0, 1].detach().abs(), 2), NCL),
    "max_pool1d": (lambda L, x: L.max_pool1d(x, 2), NCL),
    "max_pool1d_options": (lambda L, x: L.max_pool1d(x, 3, 2, 1, 1, True), NCL),
    "max_pool2d": (lambda L, x: L.max_pool2d(x, 2, (1, 2)), NCL),
    "avg_pool1d": (lambda L, x: L.avg_pool1d(x, 2), NCL),
    "avg_pool1d_options": (lambda L, x: L.avg_pool1d(x, 3, 2, 1, True, False), NCL),
    "adaptive_avg_pool1d": (lambda L, x: L.adaptive_avg_pool1d(x, 4), NCL),
    "adaptive_max_pool1d": (lambda L, x: L.adaptive_max_pool1d(x, 4), NCL),
    "instance_norm": (lambda L, x: L.instance_norm(x, x[0, :, 0], x[1, :, 1], None, None, True,
                                                   0.1, 1e-5, False), NCL),
    "instance_norm_4d": (lambda L, x: L.instance_norm(x.reshape(2, 3, 2, 3), None, None, None,
                                                      None, True, 0.1, 1e-3, True), NCL),
    "bilinear": (lambda L, x: L.bilinear(x[0], x[1], x[:, :, :1].reshape(1, 6, 1)
                                         .expand(1, 6, 6) * 1, x[0, 0, :1]), NCL),
}


@pytest.mark.parametrize("name", NN_CALLS)
def test_nn_functions_at_the_top_level_are_torchs(name: str) -> None:
    assert_factors_like_torch(*NN_CALLS[name])


@pytest.mark.parametrize("call", [
    "L.alpha_dropout(x, 0.3, True)", "L.feature_alpha_dropout(x, 0.4, True)",
    "L.alpha_dropout_(x * 1, 0.3, True)", "L.feature_alpha_dropout_(x * 1, 0.6, True)",
    "L.alpha_dropout(x, 1.0, True)", "L.feature_alpha_dropout(x, 0.0, True)",
    "L.alpha_dropout(x, 0.5, False)", "L.dropout(x, 0.3, True)", "L.dropout_(x * 1, 0.3, True)"])
def test_dropouts_at_the_top_level_draw_torchs_masks(call: str) -> None:
    def printed(L: Any) -> list:
        L.manual_seed(7)
        x = L.tensor(NCL, requires_grad=True)
        out = eval(call, {"L": L, "x": x})
        return [repr(out), repr(L.autograd.grad((out * out).sum(), x)[0])] \
            if out.grad_fn is not None else [repr(out)]

    assert printed(mt) == printed(torch)


def test_instance_norm_updates_running_statistics_as_torch() -> None:
    printed = []
    for L in (mt, torch):
        mean, var = L.zeros(3, dtype=L.float64), L.ones(3, dtype=L.float64)
        L.instance_norm(L.tensor(NCL), None, None, mean, var, True, 0.3, 1e-5, False)
        out = L.instance_norm(L.tensor(NCL), None, None, mean, var, False, 0.3, 1e-5, False)
        printed.append([repr(mean), repr(var), repr(out)])
    assert printed[0] == printed[1]


NN_ERRORS = {
    "dropout_p": lambda L: L.dropout(L.ones(3), 1.5, True),
    "dropout_train": lambda L: L.dropout(L.ones(3), 0.5),
    "dropout_both": lambda L: L.dropout(L.ones(3)),
    "alpha_dropout_p": lambda L: L.alpha_dropout(L.ones(3), -0.5, True),
    "alpha_dropout_train": lambda L: L.alpha_dropout_(L.ones(3), 0.5),
    "feature_alpha_dropout_vector": lambda L: L.feature_alpha_dropout(L.ones(3), 0.5, True),
    "bce_pos_weight_grad": lambda L: L.binary_cross_entropy_with_logits(
        L.ones(2), L.ones(2), None, L.ones(2, requires_grad=True)),
    "bce_weight_grad": lambda L: L.binary_cross_entropy_with_logits(
        L.ones(2), L.ones(2), L.ones(2, requires_grad=True)),
    "dropout_str": lambda L: L.dropout(L.ones(3), "a", True),
    "batch_norm_cudnn": lambda L: L.batch_norm(L.ones(2, 3), None, None, None, None, True, 0.1,
                                               1e-5),
    "kl_div_reduction": lambda L: L.kl_div(L.ones(2), L.ones(2), "mean"),
    "margin_reduction": lambda L: L.margin_ranking_loss(L.ones(2), L.ones(2), L.ones(2), 0.0,
                                                        "mean"),
    "poisson_missing": lambda L: L.poisson_nll_loss(L.ones(2), L.ones(2), True, False, 1e-8),
    "instance_norm_statistics": lambda L: L.instance_norm(L.ones(2, 3, 4), None, None, None,
                                                          None, False, 0.1, 1e-5, False),
    "instance_norm_missing": lambda L: L.instance_norm(L.ones(2, 3, 4), None, None),
    "embedding_order": lambda L: L.embedding(L.tensor([1, 0]), L.ones(3, 2)),
    "avg_pool1d_dims": lambda L: L.avg_pool1d(L.ones(3), 2),
    "avg_pool1d_kernel": lambda L: L.avg_pool1d(L.ones(1, 3), (2, 2)),
    "adaptive_max_pool1d_dims": lambda L: L.adaptive_max_pool1d(L.ones(1, 1, 1, 3), 2),
    "adaptive_max_pool1d_empty": lambda L: L.adaptive_max_pool1d(L.ones(1, 0), 2),
}


@pytest.mark.parametrize("name", NN_ERRORS)
def test_nn_function_errors_are_torchs(name: str) -> None:
    call = NN_ERRORS[name]
    assert_same_error(raised_by(call, mt), raised_by(call, torch))
