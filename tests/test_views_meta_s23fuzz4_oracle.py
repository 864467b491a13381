"""Oracle tests for what the s23 fuzz4 fuzzer (views, in-place writes, metadata, module API,
serialization) found: each program runs on torch and minitorch and must give torch's result
or torch's exception."""

from __future__ import annotations

import io

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import SETTINGS, assert_as_torch

# ---------------------------------------------------------------- in-place overlap of in/out

OVERLAPS = [
    lambda L: L.arange(4.).reshape(2, 2).copy_(L.arange(4.).reshape(2, 2)),
    lambda L: (lambda y: y.copy_(y.t()))(L.arange(4.).reshape(2, 2)),
    lambda L: (lambda y: y.copy_(y))(L.arange(4.).reshape(2, 2)),
    lambda L: (lambda z: z[1:].copy_(z[:-1]))(L.arange(4.)),
    lambda L: (lambda z: (z[:2].copy_(z[2:]), z))(L.arange(4.)),
    lambda L: (lambda z: z[1:].add_(z[:-1]))(L.arange(4.)),
    lambda L: (lambda z: z[1:].mul_(z[:-1]))(L.arange(4.)),
    lambda L: (lambda z: z.add_(z.flip(0)))(L.arange(4.)),
    lambda L: (lambda z: z[::2].add_(z[1::2]))(L.arange(4.)),
    lambda L: (lambda z: z.view(2, 2).t().add_(z.view(2, 2)))(L.arange(4.)),
]


@pytest.mark.parametrize("program", OVERLAPS)
def test_partial_overlap_of_input_and_output(program):
    assert_as_torch(program)


@given(st.integers(0, 3), st.integers(0, 3), st.integers(1, 3))
@SETTINGS
def test_shifted_slices_written_from_each_other(a, b, n):
    assert_as_torch(lambda L: (lambda z: (z[a:a + n].copy_(z[b:b + n]), z))(L.arange(8.)))


def test_empty_expanded_view_takes_writes():
    assert_as_torch(lambda L: L.zeros(0).expand(2, 0).add_(1))
    assert_as_torch(lambda L: L.zeros(0).expand(3, 0).copy_(L.ones(3, 0)))


# ---------------------------------------------------------------- metadata

@pytest.mark.parametrize("shape", [(2, 3, 4, 5), (2, 1, 4, 5), (1, 1, 1, 1), (0, 3, 2, 2),
                                   (2, 3, 4, 5, 6), (3,), (2, 3)])
@pytest.mark.parametrize("fmt", ["contiguous_format", "channels_last", "channels_last_3d",
                                 "preserve_format"])
@pytest.mark.parametrize("view", ["plain", "last"])
def test_is_contiguous_memory_format(shape, fmt, view):
    def program(L):
        x = L.zeros(*shape)
        if view == "last" and len(shape) >= 3:
            order = (0, *range(2, len(shape)), 1)
            back = (0, len(shape) - 1, *range(1, len(shape) - 1))
            x = x.permute(*order).contiguous().permute(*back)
        return x.is_contiguous(memory_format=getattr(L, fmt))
    assert_as_torch(program)


@pytest.mark.parametrize("call", ["is_contiguous(memory_format=None)",
                                  "is_contiguous(memory_format=3)",
                                  "is_contiguous(L.channels_last)", "is_contiguous(foo=1)"])
def test_is_contiguous_refusals(call):
    assert_as_torch(lambda L: eval(f"L.ones(2).{call}"))


CHECKS = [False, True, "[L.contiguous_format]", "[L.channels_last]",
          "[L.contiguous_format, L.channels_last]", "[]", "(L.contiguous_format,)", "['x']", 3]


@pytest.mark.parametrize("check", CHECKS)
@pytest.mark.parametrize("make", ["L.ones(2, 3, 4, 5)", "L.ones(2, 1, 4, 5)", "L.ones(4, 1).t()",
                                  "L.ones(2, 3).t()", "L.ones(1, 1)", "L.ones(())", "L.ones(3)",
                                  "L.ones(2).expand(3, 2)", "L.ones(2, 3, 1, 1)",
                                  "L.ones(2, 3, 4, 5).permute(0, 2, 3, 1)",
                                  "L.ones(3, 2)[..., None].expand(3, 2, 4)"])
def test_dim_order_and_its_ambiguity_check(make, check):
    def program(L):
        given = eval(check) if isinstance(check, str) else check
        return eval(make).dim_order(ambiguity_check=given)
    assert_as_torch(program)


@pytest.mark.parametrize("other", ["x", "x[:]", "x.detach()", "x.view(3)", "x[1:]", "L.ones(3)",
                                   "3", "None"])
def test_is_set_to(other):
    def program(L):
        x = L.ones(3)
        return x.is_set_to(eval(other))
    assert_as_torch(program)


def test_empty_tensors_are_set_to_only_their_own_memory():
    assert_as_torch(lambda L: (lambda x: (x.is_set_to(x), x.is_set_to(L.ones(2, 0))))(L.ones(2, 0)))


def test_untyped_storage_data_ptr():
    assert_as_torch(lambda L: (lambda x: (x.untyped_storage().data_ptr() == x.data_ptr(),
                                          x[1:].untyped_storage().data_ptr() == x.data_ptr(),
                                          L.ones(0).untyped_storage().data_ptr()))(L.ones(3)))


@pytest.mark.parametrize("call", ["view_as(1.0, 3)", "expand_as(1, 2)", "view_as(other=1)",
                                  "view_as(1)", "type_as(1, 2)"])
def test_arity_refused_before_argument_types(call):
    assert_as_torch(lambda L: eval(f"L.ones(2).{call}"))


# ---------------------------------------------------------------- creation from numpy 0-d

@pytest.mark.parametrize("data", ["[np.array(1), 2]", "[[np.array(1)], [2]]",
                                  "[[2], [np.array(1)]]", "([np.array(1.5)],)", "[np.array(1)]",
                                  "np.array(1)",
                                  "[[np.array([1])]]", "[2, np.array(1)]"])
@pytest.mark.parametrize("fn", ["tensor", "as_tensor"])
def test_zero_dim_arrays_first_in_a_list(data, fn):
    assert_as_torch(lambda L: getattr(L, fn)(eval(data)))


# ---------------------------------------------------------------- nn.Module

@pytest.mark.parametrize("tracked", ["[7]", "[5, 6]", "[]"])
def test_load_state_dict_reads_a_one_element_vector_as_a_scalar(tracked):
    def program(L):
        m = L.nn.BatchNorm1d(3)
        sd = {**m.state_dict(), "num_batches_tracked": L.tensor(eval(tracked), dtype=L.long)}
        return str(m.load_state_dict(sd)), m.num_batches_tracked
    assert_as_torch(program)


def test_load_state_dict_refuses_an_overlapping_copy():
    def program(L):
        m = L.nn.Linear(2, 2)
        return m.load_state_dict({"weight": m.weight.t(), "bias": m.bias})
    assert_as_torch(program)


@pytest.mark.parametrize("make", ["L.nn.Linear(2, 2)", "L.nn.Sequential(L.nn.ReLU())",
                                  "L.nn.BatchNorm1d(2)", "L.nn.ModuleDict({'a': L.nn.Tanh()})"])
def test_get_name(make):
    assert_as_torch(lambda L: eval(make)._get_name())


# ---------------------------------------------------------------- serialization

def _round_trip(L, obj):
    buffer = io.BytesIO()
    L.save(obj, buffer)
    buffer.seek(0)
    return L.load(buffer)


def test_loaded_views_keep_their_storage_offsets():
    def program(L):
        a = L.arange(6.)
        x, y, z, w = _round_trip(L, [a, a[2:], a.view(2, 3).t(), a[1::2]])
        x.add_(100)
        return (y, z, w, [t.storage_offset() for t in (x, y, z, w)],
                [t.stride() for t in (x, y, z, w)], y.untyped_storage().size())
    assert_as_torch(program)


def test_loaded_lone_view_counts_from_its_saved_storage():
    assert_as_torch(lambda L: (lambda t: (t, t.storage_offset(), t.stride()))(
        _round_trip(L, L.arange(10)[2:7:2])))


@pytest.mark.parametrize("f", ["3", "None"])
def test_save_refuses_the_file_before_pickling(f):
    assert_as_torch(lambda L: L.save(lambda: 1, eval(f)))


def test_numpy_arrays_of_odd_kinds_keep_torch_refusals():
    assert_as_torch(lambda L: L.as_tensor(np.array(["ab", "c"], dtype="S2")[1:]))
    assert_as_torch(lambda L: L.from_numpy(np.array([1, 2.5, None], dtype=object)))
    assert mt.tensor([2, np.array(1)]).tolist() == torch.tensor([2, np.array(1)]).tolist()


# ---------------------------------------------------------------- strides and resize_

@pytest.mark.parametrize("view", ["x[None]", "x.unsqueeze(0)", "x.unsqueeze(2)", "x[:, None]",
                                  "x[..., None]", "x[None, :, 0]", "x[:, :, None, :]",
                                  "x.unsqueeze(-1)"])
def test_unsqueeze_keeps_torch_strides_of_size_one_dims(view):
    def program(L):
        x = L.arange(6).reshape(3, 1, 2).permute(2, 1, 0)
        return eval(view, {"x": x}).stride()
    assert_as_torch(program)


@given(st.lists(st.integers(0, 3), min_size=1, max_size=4), st.integers(0, 4))
@SETTINGS
def test_unsqueeze_strides_of_permuted(shape, dim):
    def program(L):
        x = L.zeros(*shape).permute(*reversed(range(len(shape))))
        return x.unsqueeze(min(dim, x.dim())).stride()
    assert_as_torch(program)


@pytest.mark.parametrize("make", ["L.ones(2, 3)", "L.ones(3, 2).t()", "L.ones(3)[:2]"])
@pytest.mark.parametrize("size", ["(2, 3)", "(3, 2)", "(6,)", "(1,)"])
def test_resize_to_its_own_shape_is_not_counted(make, size):
    def program(L):
        x = eval(make)
        before = x.shape
        x.resize_(*eval(size))
        return x._version if x.shape == before else x.shape, x.stride() if x.shape == before else 0
    assert_as_torch(program)


# ---------------------------------------------------------------- as_strided / unfold checks

@pytest.mark.parametrize("make", ["L.arange(6)", "L.zeros(0)", "L.arange(6.)[1:]"])
@pytest.mark.parametrize("args", ["(-1,), (0,)", "(-1,), (1,)", "(-2, 3), (1, 1)", "(2,), (-1,)",
                                  "(0, 2), (0, 5)", "(2,), (1,), -1", "(3, -1), (1, 1)",
                                  "(2, 2), (2, 1), 3", "(-1,), (0,), 2"])
def test_as_strided_size_checks_in_torch_order(make, args):
    assert_as_torch(lambda L: (lambda v: (v.shape, v.stride()))(
        eval(f"{make}.as_strided({args})")))


@pytest.mark.parametrize("args", ["0, -1, -1", "0, -1, 1", "0, 7, -1", "0, 2, 0", "0, 2, 1"])
def test_unfold_checks_size_before_step(args):
    assert_as_torch(lambda L: eval(f"L.arange(6).unfold({args})"))
