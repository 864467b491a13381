"""Fuzz s20 fuzzt (tensor API, seeds 20001 and 20002): bad or edge input that minitorch
refused in other words than torch (or by a missing name). Each case runs under torch and
minitorch (``L``): the same result, or the same exception type and message."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import minitorch as mt
from tests.oracle import SETTINGS, assert_same, assert_same_error, assert_same_grads, raised_by


def assert_as_torch(fn: Any) -> None:
    """``fn(L)`` gives torch's tensor (or other value), or raises torch's exception."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = raised_by(fn, torch)
        got = raised_by(fn, mt)
        if want is not None:
            assert_same_error(got, want)
            return
        assert got is None, f"minitorch raised {got!r}; torch gave a result"
        a, b = fn(mt), fn(torch)
    if isinstance(b, torch.Tensor) and b.dtype is torch.float16:  # (no float16 tolerance)
        assert str(a.dtype) == str(b.dtype)
        a, b = a.float(), b.float()
    if isinstance(b, torch.Tensor):
        assert_same(a, b)
    else:
        assert a == b


def _cases(*sources: str) -> Any:
    """Parametrize over lambdas of ``L`` given as source (their ids are the source)."""
    return pytest.mark.parametrize("source", sources)


# ---- torch's functions for complex tensors, on real ones ------------------------------------
@_cases("L.angle(L.tensor([1, -2, 0], dtype=L.int16))",
        "L.angle(L.tensor([1., -2., float('nan'), -0.]))",
        "L.angle(L.tensor([1., -2.]).half())", "L.angle(L.tensor([True, False]))",
        "L.tensor([-1, 2]).angle()", "L.angle(2)",
        "L.angle(L.tensor([-1, 2]), out=L.empty(2, dtype=L.float64))",
        "L.conj(L.ones(2)) is not None", "L.resolve_conj(L.ones(2))", "L.resolve_neg(L.ones(2))",
        "L.is_conj(L.ones(2))", "L.is_neg(L.ones(2))", "L.is_conj(1)", "L.resolve_conj('a')",
        "L.conj(L.ones(2), 1)", "L.conj(L.ones(2), out=L.ones(2))", "L.adjoint(L.ones(2, 3))",
        "L.adjoint(L.ones(3))", "L.ones(3).adjoint()", "L.adjoint(L.ones(2), 1)",
        "complex(L.tensor([2]))", "complex(L.tensor(2.5))", "complex(L.tensor([True]))",
        "complex(L.ones(2))")
def test_complex_functions_on_real_tensors(source: str) -> None:
    """angle, conj, resolve_conj/neg, is_conj/neg, adjoint and __complex__ were missing."""
    assert_as_torch(eval(f"lambda L: {source}"))


def test_angle_gradient_is_zero() -> None:
    for L in (mt, torch):
        x = L.tensor([1., -2., 3.], requires_grad=True)
        y = L.angle(x)
        assert type(y.grad_fn).__name__ == "AngleBackward0"
        y.sum().backward()
        assert x.grad.tolist() == [0., 0., 0.]


@_cases("L.complex(L.ones(2), L.ones(3))", "L.complex(L.ones(2, dtype=L.int64), L.ones(3))",
        "L.complex(L.ones(2), L.ones(3, dtype=L.float64))",
        "L.complex(L.ones(2, dtype=L.bool), L.ones(3, dtype=L.float16))",
        "L.complex(L.ones(2, dtype=L.float16), L.ones(3, dtype=L.float16))",
        "L.complex(L.ones(2), 1.0)", "L.complex(1.0, L.ones(2))", "L.complex(L.ones(2))",
        "L.complex(L.ones(2), L.ones(2), 3)", "L.complex(L.ones(2), L.ones(2), out=L.ones(2))",
        "L.complex(L.ones(2), L.ones(2), out=3)", "L.complex(L.ones(2), L.ones(2), bad=3)",
        "L.complex(L.ones(2, requires_grad=True), L.ones(2), out=L.ones(2))",
        "L.complex(L.ones(2, dtype=L.float64), L.ones(2, dtype=L.float64), out=L.ones(2))",
        "L.polar(L.ones(2), L.ones(3))", "L.polar(L.ones(2, dtype=L.uint8), L.ones(3))",
        "L.polar(L.ones(2), 1.0)", "L.polar(abs=L.ones(2))",
        "L.polar(L.ones(2, dtype=L.float16), L.ones(3, dtype=L.float32))",
        "L.polar(L.ones(2), L.ones(2), out=L.ones(2, dtype=L.float16))")
def test_complex_and_polar_refuse_as_torch(source: str) -> None:
    """torch's checks in its order: parser, out's autograd, dtypes, out's dtype, shapes."""
    assert_as_torch(eval(f"lambda L: {source}"))


@pytest.mark.parametrize("fn", ["complex", "polar"])
def test_complex_result_is_refused_plainly(fn: str) -> None:
    """minitorch has no complex dtypes: what torch turns into one it refuses, saying so."""
    with pytest.raises(NotImplementedError, match="no complex dtypes"):
        getattr(mt, fn)(mt.ones(2), mt.ones(2))


# ---- the parser checks types as it binds, before missing arguments and leftover keywords ----
@_cases("L.ones(3).transpose_('x')", "L.ones(3).swapdims_('x')", "L.ones(3).swapaxes_('x')",
        "L.ones(3).index_add_('x')", "L.ones(3).index_copy_('x')",
        "L.ones(3).scatter_add_('x')", "L.ones(3).scatter_reduce_('x')", "L.ones(3).put_(5)",
        "L.ones(3).masked_scatter_('x')", "L.ones(3).heaviside_(255)",
        "L.ones(3).logical_or_(0)", "L.ones(3).logical_xor_(5)", "L.ones(3).nextafter_(1)",
        "L.ones(2, 2).addmm_(3, L.ones(2, 2))", "L.ones(3).index_add_(0, 1, L.ones(3))",
        "L.ones(3).transpose_(0, dim1='x', bad=1)")
def test_types_before_missing_arguments(source: str) -> None:
    """x.transpose_('x') said a dim1 was missing, x.heaviside_(255) 'not float'."""
    assert_as_torch(eval(f"lambda L: {source}"))


# ---- torch's overloads: invalid combinations ------------------------------------------------
@_cases("L.copysign(L.ones(3), 'x')", "L.ones(3).copysign('x')", "L.ones(3).copysign_('x')",
        "L.bitwise_or(L.ones(3, dtype=L.int64), 'x')",
        "L.bitwise_and(L.ones(3, dtype=L.bool), [1])",
        "L.ones(3, dtype=L.int64).bitwise_xor('x')", "L.ones(3, dtype=L.int64).bitwise_or_('x')",
        "L.histogram(L.ones(3), 'x')", "L.histogram(L.ones(3), None)",
        "L.histogram(L.ones(3), 1.5, range=(0.0, 1.0))", "L.ones(3).histogram(None)",
        "L.multiply(L.ones(3), 'x')", "L.subtract(L.ones(3), 'x')", "L.ones(3).subtract('x')",
        "L.ones(3).multiply('x')", "L.ones(3).multiply_('x')", "L.ones(3).true_divide_('x')",
        "L.ones(3).subtract_(1, alpha='x')", "L.ones(3).subtract_('x')",
        "L.ones(3).xlogy_('x')", "L.ones(3, dtype=L.int32).xlogy_([1, 2])",
        "L.ones(3).multiply_(2)", "L.ones(3).true_divide_(2)", "L.ones(3).subtract_(1, alpha=2)",
        "L.ones(3).mul_('x')", "L.ones(3).sub_('x')")
def test_overloads_give_the_invalid_combination(source: str) -> None:
    assert_as_torch(eval(f"lambda L: {source}"))


@_cases("L.nonzero(L.ones(2), out=3)", "L.matmul(L.ones(2), L.ones(2), out='x')")
def test_out_must_be_a_tensor(source: str) -> None:
    """A non-tensor out failed inside the write (AttributeError)."""
    assert_as_torch(eval(f"lambda L: {source}"))


# ---- index_reduce ---------------------------------------------------------------------------
_X = "L.arange(6.).reshape(2, 3)"
_I = "L.tensor([0, 1, 0])"
_S = "L.full((2, 3), 2.)"


@_cases(f"L.index_reduce({_X}, 1, {_I}, {_S}, 'sum')", f"L.index_reduce({_X}, 1, {_I}, {_S}, 1)",
        f"L.index_reduce({_X}, 1.0, {_I}, {_S}, 'prod')",
        f"L.index_reduce({_X}, 1, {_I}, {_S}.long(), 'prod')",
        f"L.index_reduce({_X}, 1, {_I}.float(), {_S}, 'prod')",
        f"L.index_reduce({_X}, 1, {_I}.reshape(1, 3), {_S}, 'prod')",
        f"L.index_reduce({_X}, 3, {_I}, {_S}, 'prod')",
        f"L.index_reduce({_X}, 1, L.tensor([0, 5, 0]), {_S}, 'prod')",
        f"L.index_reduce({_X}, 1, L.tensor([0, 1]), {_S}, 'prod')",
        f"L.index_reduce({_X}, 0, L.tensor([0, 1]), L.ones(2, 4), 'prod')",
        f"L.index_reduce({_X}, 1, {_I}, L.ones(3), 'prod')",
        f"L.index_reduce({_X}, 1, L.tensor([[0]]), L.ones(3), 'sum')",
        f"L.index_reduce({_X}, 5, {_I}, {_S}.long(), 'bad')",
        f"L.index_reduce({_X}, 1, {_I}, {_S}, 'prod', include_self=1)",
        f"L.index_reduce({_X}, 2 ** 63, {_I}, {_S}, 'prod', include_self='a')",
        f"{_X}.index_reduce(1, {_I}, {_S})", f"{_X}.index_reduce(1, {_I}, {_S}, 'prod', True)",
        f"L.index_reduce({_X}.bool(), 1, {_I}, {_S}.bool(), 'mean')",
        f"L.index_reduce({_X}.bool(), 1, {_I}, {_S}.bool(), 'prod')",
        f"L.index_reduce({_X}.bool(), 1, {_I}, {_S}.bool(), 'amin', include_self=False)",
        f"L.index_reduce({_X}.half(), 1, {_I}, {_S}.half(), 'mean')",
        f"L.index_reduce({_X}.long(), 1, {_I}, {_S}.long(), 'mean')",
        f"L.index_reduce({_X}.to(L.uint8), 1, {_I}, {_S}.to(L.uint8), 'amax', include_self=False)",
        "L.index_reduce(L.tensor(5.), 0, L.tensor([0]), L.tensor(2.), 'prod')",
        "L.index_reduce(L.tensor(5.), 0, L.tensor(0), L.tensor(2.), 'amax')",
        "L.index_reduce(L.tensor(5.), 0, L.tensor([0]), L.tensor([2.]), 'prod')",
        "L.index_reduce(L.ones(2, 0, 3), 1, L.tensor([], dtype=L.int64), L.ones(2, 0, 3), 'prod')",
        f"L.index_reduce({_X}, -1, L.tensor([-1, 0, 0]), {_S}, 'prod')",
        f"L.index_reduce({_X}, 1, {_I}, {_S}, 'prod', out=L.empty(2, 3))",
        f"L.index_reduce({_X}, 1, {_I}, {_S}, 'prod', out=3)",
        f"{_X}.requires_grad_().index_reduce_(5, {_I}, {_S}.long(), 'bad')",
        f"{_X}.index_reduce_(1, {_I}, {_S}, 'amin', include_self=False)")
def test_index_reduce_as_torch(source: str) -> None:
    """index_reduce was missing (torch's checks in its order, then its values)."""
    assert_as_torch(eval(f"lambda L: {source}"))


@SETTINGS
@given(reduce=st.sampled_from(["prod", "mean", "amax", "amin"]), include_self=st.booleans(),
       shape=st.sampled_from([(3,), (2, 3), (3, 2, 2)]), data=st.data())
def test_index_reduce_values_and_gradients(reduce: str, include_self: bool, shape: tuple,
                                           data: Any) -> None:
    """Values (ties and zeros included) and both gradients are torch's."""
    dim = data.draw(st.integers(0, len(shape) - 1))
    n = data.draw(st.integers(0, 4))
    index = data.draw(st.lists(st.integers(0, shape[dim] - 1), min_size=n, max_size=n))
    source_shape = (*shape[:dim], n, *shape[dim + 1:])
    pick = st.sampled_from([0., 1., 2., -1.5, 3.])
    a = np.array(data.draw(st.lists(pick, min_size=int(np.prod(shape)),
                                    max_size=int(np.prod(shape))))).reshape(shape)
    s = np.array(data.draw(st.lists(pick, min_size=int(np.prod(source_shape)),
                                    max_size=int(np.prod(source_shape))))).reshape(source_shape)
    results, grads = [], []
    for L in (mt, torch):
        x, src = L.tensor(a, requires_grad=True), L.tensor(s, requires_grad=True)
        y = L.index_reduce(x, dim, L.tensor(index, dtype=L.int64), src, reduce,
                           include_self=include_self)
        (y * L.arange(y.numel(), dtype=L.float64).reshape(y.shape)).sum().backward()
        results.append(y)
        grads.append((x.grad, src.grad))
    assert_same(results[0], results[1])
    assert type(results[0].grad_fn).__name__ == "IndexReduceBackward0"
    assert_same_grads(grads[0], grads[1], f"index_reduce {reduce}")


def test_index_reduce_in_place_records_the_node() -> None:
    for L in (mt, torch):
        x = L.ones(3, requires_grad=True) * 2
        x.index_reduce_(0, L.tensor([1]), L.tensor([5.]), "amax")
        assert type(x.grad_fn).__name__ == "IndexReduceBackward0"
        assert x._version == 1


# ---- silent acceptances and internal errors -------------------------------------------------
@_cases("L.linspace(-1.12, -2.5, 1, dtype=L.uint8)", "L.linspace(1., 300., 1, dtype=L.uint8)",
        "L.linspace(300., 1., 1, dtype=L.uint8)", "L.logspace(300., 1., 1, dtype=L.uint8)",
        "L.logspace(1., 300., 1, dtype=L.uint8)", "L.linspace(-1.5, 1., 0, dtype=L.uint8)",
        "L.vander(L.ones(4), increasing=1)", "L.vander(L.ones(4), 2 ** 63, increasing=1)",
        "L.vander(L.ones(4), 'a', increasing=1)", "L.vander(L.ones(4), 3, 1)",
        "L.vander(L.ones(4), None, True)",
        "L.combinations(L.arange(0), r=65)", "L.combinations(L.arange(2), r=65)",
        "L.combinations(L.arange(3.), r=40)", "L.combinations(L.arange(1.), r=70)",
        "L.combinations(L.arange(3.), r=4)", "L.combinations(L.arange(2.), r=3, "
        "with_replacement=True)")
def test_silent_and_internal(source: str) -> None:
    """linspace of one step kept an unrepresentable start, vander took increasing=1,
    combinations failed inside numpy (more than 64 dims, or memory)."""
    assert_as_torch(eval(f"lambda L: {source}"))


def test_combinations_beyond_memory_are_refused() -> None:
    """r grids of r dims: torch's allocator fails (with the machine's memory, not run here)."""
    with pytest.raises(RuntimeError, match="std::bad_alloc"):
        mt.combinations(mt.arange(0), r=2 ** 40)
    with pytest.raises(RuntimeError, match="SizesAndStrides"):
        mt.combinations(mt.arange(0), r=2 ** 25)


def test_log_normal_overflows_to_inf() -> None:
    """Python's exp raised OverflowError where the C library's gives inf."""
    for L in (mt, torch):
        L.manual_seed(0)
        x = L.ones(2, 3, dtype=L.float64).log_normal_(1e40)
        assert x.isinf().all()


# ---- in place: the leaf check after the parser, before the kernel's checks -----------------
@_cases("L.tensor(1., requires_grad=True).transpose_(-1, -2 ** 63)",
        "L.tensor(1.).transpose_(-1, True)", "L.ones(2, 3).transpose_(0, 5)",
        "L.ones(2, 3).transpose_(dim0=0, dim1=1.5)", "L.ones(2, 3).transpose_(0, 2 ** 63)",
        "L.ones(2, 3, requires_grad=True).transpose_(0, 5)",
        "L.ones(3, requires_grad=True).baddbmm_(L.ones(3, 3, dtype=L.int32), "
        "L.ones(3, dtype=L.bool), alpha=0)",
        "L.ones(3, requires_grad=True).addmv_(L.ones(3, 3, 3), L.ones(3))",
        "L.ones(2, 3, requires_grad=True).renorm_(0, 5, 3)",
        "L.ones(2, 3, requires_grad=True).renorm_('x', 5, 3)")
def test_inplace_leaf_check_order(source: str) -> None:
    """A leaf that requires grad was refused only after the dims' and shapes' checks."""
    assert_as_torch(eval(f"lambda L: {source}"))


# ---- each argument's type before any value, the parser's before the kernel's ---------------
@_cases("L.kthvalue(L.tensor(1, dtype=L.uint8), 2 ** 63, dim=-1, keepdim='a')",
        "L.kthvalue(L.ones(3), 'x', dim=2 ** 63)",
        "L.ones(2, 0, 3).fill_diagonal_(float('nan'), wrap=1)",
        "L.ones(2, 3).fill_diagonal_('x', wrap=1)",
        "L.quantile(L.tensor(1, dtype=L.uint8), 0.0, 0, interpolation='bad')",
        "L.nanquantile(L.tensor(1, dtype=L.uint8), 0.0, 0, interpolation='bad')",
        "L.quantile(L.tensor([1.]), 2., interpolation='bad')",
        "L.quantile(L.tensor([], dtype=L.int64), 0.5)",
        "L.unflatten(L.ones(1, 3, 1), (0, 0), (1.0, 2))", "L.ones(3).unflatten((), (1.0, 2))",
        "L.unflatten(L.ones(3), 'x', (1.0, 2))", "L.ones(3).unflatten('x', [])",
        "L.ones(3).unflatten(0, None)", "L.ones(3).unflatten(2 ** 63, (1.0,))",
        "L.ones(3).unflatten(5, (3,))", "L.ones(6).unflatten(0, (2, -1))")
def test_types_before_values(source: str) -> None:
    assert_as_torch(eval(f"lambda L: {source}"))


# ---- Python's refusal under the name of the function torch's boolean_dispatch runs ---------
_U = "L.ones(3, dtype=L.int16)"


@_cases(f"L.unique_consecutive({_U}, return_inverse=False, sorted=True)",
        f"L.unique_consecutive({_U}, sorted=False)",
        f"L.unique_consecutive({_U}, return_inverse=True, sorted=True)",
        f"L.unique_consecutive({_U}, True, bad=1)", f"{_U}.unique_consecutive(sorted=True)",
        f"L.unique({_U}, bad=1)", f"L.unique({_U}, return_inverse=True, bad=1)",
        f"{_U}.unique(bad=1)", f"L.unique_consecutive({_U}, 1, 2, 3, 4)",
        f"L.unique({_U}, True, True, True, None, 5)",
        f"L.unique({_U}, return_counts=True, return_inverse=True, bad=1)")
def test_unique_refusals_name_the_dispatched_function(source: str) -> None:
    assert_as_torch(eval(f"lambda L: {source}"))


@_cases("L.ones(0, dtype=L.float64).prod(dtype=L.float64, keepdim=True)",
        "L.prod(L.ones(2), dtype=L.float64, keepdim=True)", "L.prod(L.ones(2), keepdim=True)",
        "L.ones(2).prod(keepdim=True)", "L.prod(L.ones(2), None)",
        "L.prod(L.ones(2), None, dtype=L.float64)", "L.ones(2).prod(keepdim=1, dtype=L.int64)")
def test_prod_without_dim_names_the_one_overload(source: str) -> None:
    """With dtype too, only prod's dim overload takes three arguments: torch's parser refuses
    the call by it (a missing dim, a None dim), not by the invalid combination."""
    assert_as_torch(eval(f"lambda L: {source}"))
