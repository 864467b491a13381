"""Bad input found by issue #21's third fuzz (seeds 2202-2203, session 13) where minitorch's
answer differed from torch's, against live torch. Each case is a small program run on torch
and on minitorch (``L``); its outcome, the value of ``R`` or the exception's type and message,
must be the same.
"""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import SETTINGS
from test_bad_input_fuzz21b_oracle import assert_as_torch

import minitorch as mt


def test_tensor_has_no_method_torch_lacks() -> None:
    """Every public attribute of minitorch's Tensor is one of torch's Tensor's too (torch has
    only the function ``torch.rsub``, no ``Tensor.rsub``)."""
    extra = {n for n in dir(mt.Tensor) if not n.startswith("_")} - set(dir(torch.Tensor))
    assert not extra, sorted(extra)


@pytest.mark.parametrize("program", [
    "R = L.ones(2).rsub(L.ones(2))", "R = L.rsub(L.ones(2), L.tensor([3., 4.]), alpha=2)",
    "R = L.rsub(L.tensor([1, 2]), 5)"])
def test_rsub_is_a_function_only(program: str) -> None:
    assert_as_torch(program)


_DTYPES = ["L.float32", "L.float64", "L.int64", "L.bool", "L.float16", "L.int8", "L.uint8"]
_SCALAR_OPS = [
    "L.copysign(x, {v})", "x.copysign({v})", "L.xlogy(x, {v})", "L.xlogy({v}, x)",
    "L.clamp_min(x, {v})", "x.clamp_min_({v})", "L.clamp(x, {v})", "L.clamp(x, None, {v})",
    "L.addcmul(x, x, x, value={v})", "L.addcdiv(x, x, x, value={v})", "L.lerp(x, x, {v})",
    "x.scatter(0, L.tensor([0]), {v})", "x.scatter_(0, L.tensor([0]), {v})",
    "L.nn.functional.threshold(x, {v}, 2.)", "L.nn.functional.threshold(x, 1., {v}, True)",
    "L.nn.functional.leaky_relu(x, {v})", "L.nn.functional.elu(x, {v})",
    "L.nn.functional.celu(x, {v})", "L.nn.functional.softplus(x, {v})",
    "L.nn.functional.softplus(x, 1, {v})", "L.nn.functional.hardtanh(x, -1e300, 1e300)",
    "L.dist(x, x, {v})", "L.norm(x, {v})", "L.linalg.vector_norm(x, {v})",
    "L.linalg.matrix_norm(x.reshape(1, 2), {v})", "L.isclose(x, x, {v})",
    "L.isclose(x, x, 1., atol={v})", "x.allclose(x, {v})", "L.allclose(x, x, 1., {v})",
    "x.addmm(x.reshape(1, 2).T, x.reshape(1, 2), beta={v})", "x.fill_({v})",
    "x.hypot_({v})", "x.atan2_({v})", "x.round(decimals={v})",
    "L.nn.functional.multi_margin_loss(x[None], L.tensor([0]), margin={v})"]


@pytest.mark.parametrize("dtype", _DTYPES)
@pytest.mark.parametrize("value", ["1j", "2+0j", "1e300"])
@pytest.mark.parametrize("op", _SCALAR_OPS)
def test_number_arguments_in_the_kernels_dtype_as_torch(op: str, value: str,
                                                        dtype: str) -> None:
    """A Number argument reaches the kernel as torch's parser leaves it (a complex one too)
    and is read there in the kernel's dtype (float32 for float16 where the kernel computes in
    it): a complex with an imaginary part or a value too large is refused in torch's words,
    after the kernel's own dtype refusal; where torch refuses complex numbers outright
    (clamp, copysign, xlogy, the norms' order) it says so."""
    assert_as_torch(f"x = L.ones(2, dtype={dtype}); R = {op.format(v=value)}")


@pytest.mark.parametrize("program", [
    "R = L.nn.functional.pairwise_distance(L.ones(2), L.ones(2), 1j)",
    "R = L.nn.functional.pairwise_distance(L.ones(2), L.ones(2), p=1j)",
    "R = L.nn.functional.pairwise_distance(L.ones(2), L.ones(2), 2, 'a')",
    "R = L.nn.functional.cosine_similarity(L.ones(2), L.ones(2), 0, 1j)",
    "R = L.nn.functional.cosine_similarity(L.ones(2), L.ones(2), 0, eps=1j)",
    "R = L.nn.functional.margin_ranking_loss(L.ones(2), L.ones(2), L.ones(2), 1j)",
    "R = L.nn.functional.margin_ranking_loss(L.ones(2), L.ones(2), L.ones(2), margin='a')",
    "R = L.nn.functional.hinge_embedding_loss(L.ones(2), L.ones(2), margin=1j)",
    "R = L.nn.functional.cosine_embedding_loss(L.ones(1, 2), L.ones(1, 2), L.ones(1), "
    "margin=1j)",
    "R = L.nn.functional.poisson_nll_loss(L.ones(2), L.ones(2), eps=1j)",
    "R = L.nn.functional.glu(L.ones(2), 1j)",
    "R = L.nn.functional.interpolate(L.ones(1, 1, 2), scale_factor=1j)",
    "R = L.nn.functional.interpolate(L.ones(1, 1, 2, 2), scale_factor=(2, 1j))",
    "R = L.nn.functional.interpolate(L.ones(1, 1, 2, 2), scale_factor=(2, None))",
    "R = L.nn.functional.interpolate(L.ones(1, 1, 2, 2), scale_factor=('a', 2))",
    "R = L.nn.functional.interpolate(L.ones(1, 1, 2, 2), scale_factor=(None, 2), "
    "mode='bilinear')",
    "R = L.nn.functional.interpolate(L.ones(1, 1, 2), scale_factor=L.tensor(2.))",
    "R = L.nn.functional.interpolate(L.ones(1, 1, 2), scale_factor=1j, "
    "recompute_scale_factor=True)",
    "R = L.nn.functional.interpolate(L.ones(1, 1, 2, 2), scale_factor=(2, L.tensor(2.)))",
    "R = L.isclose(L.ones(2), L.ones(2), float('nan'))",
    "R = L.isclose(L.ones(2), L.ones(2), equal_nan='a')",
    "R = L.isclose(L.ones(2), L.ones(2).double(), 1j)",
    "R = L.ones(2).clamp_min_('a')", "R = L.clamp_min_(L.ones(2), 1j)",
    "R = L.ones(2, dtype=L.int64).clamp_min_(2.5)", "R = L.ones(2).hypot_(2.)",
    "R = L.ones(2).arctan2_(2)", "R = L.ones(2).cumsum_('a')"])
def test_float_and_number_arguments_as_torch(program: str) -> None:
    """Float arguments of torch's parsed functions are refused by position (none when given
    by keyword) whatever their type, a complex one included; an in-place twin speaks for
    itself, counting its arguments after ``self``."""
    assert_as_torch(program)


@pytest.mark.parametrize("expression", [
    'L.logcumsumexp(L.tensor([1, 2]), 0)',
    'L.logaddexp(L.tensor([1, 2]), L.tensor([1, 2]))',
    'L.nn.functional.layer_norm(L.tensor([[1, 2]]), (2,))',
    'L.bitwise_not(L.zeros(0, dtype=L.float64))',
    'L.bitwise_not(L.ones(2))',
    'L.ones(2).bitwise_not()',
    "L.nn.functional.pad(L.ones(1, 2, 2, dtype=L.bool), (1, 1), mode='reflect')",
    "L.nn.functional.pad(L.ones(1, 2, 2, dtype=L.bool), (1, 1), mode='replicate')",
    'L.repeat_interleave(L.tensor([1., 2.]))',
    'L.tensor([True]).exp2()',
    'L.tensor([1, 2]).frac()',
    'L.tensor([True]).sort()',
    'L.tensor([True, False]).topk(1)',
    'L.nn.functional.adaptive_max_pool2d(L.ones(1, 2, 2, dtype=L.int64), 1)',
    'L.nn.functional.adaptive_avg_pool2d(L.ones(1, 2, 2, dtype=L.int64), 1)',
    'L.linalg.eigh(L.ones(2, 2, dtype=L.int64))',
    'L.tensor([True]) ** L.tensor([True])',
    'L.tensor([True]).abs()',
    'L.ones(2) & L.ones(2)',
    'L.ones(2) << 1',
    'L.tensor([True]) << 1',
    'L.clamp(L.tensor([True]), True, False)',
    'L.tensor([True]).round()',
    'L.tensor([1]).round(decimals=1)',
    'L.tensor([True]) // L.tensor([True])',
    'L.tensor([True]) % L.tensor([True])',
    'L.linalg.householder_product(L.ones(2, 2, dtype=L.int64), L.ones(1, dtype=L.int64))',
    'L.nn.functional.gelu(L.tensor([1]))',
    'L.nn.functional.elu(L.tensor([1]))',
    'L.nn.functional.silu(L.tensor([1]))',
    'L.nn.functional.threshold(L.tensor([True]), 0.5, 2.)',
    'L.nn.functional.threshold(L.tensor([True]), 0.5, 2., True)',
    'L.lerp(L.tensor([1]), L.tensor([1]), 0.5)',
    'L.lerp(L.tensor([1]), L.tensor([1]), L.tensor([1]))',
    'L.addcmul(L.tensor([True]), L.tensor([True]), L.tensor([True]))',
    'L.softmax(L.tensor([1, 2]), 0)',
    'L.log_softmax(L.tensor([1, 2]), 0)',
    'L.mm(L.ones(2, 2, dtype=L.bool), L.ones(2, 2, dtype=L.bool))',
    'L.dot(L.ones(2, dtype=L.bool), L.ones(2, dtype=L.bool))',
    'L.addmm(L.ones(2, 2, dtype=L.bool), L.ones(2, 2, dtype=L.bool), L.ones(2, 2, dtype=L.bool))',
    'L.cumsum(L.tensor([True]), 0, dtype=L.bool)',
    'L.cumprod(L.tensor([True]), 0, dtype=L.bool)',
    'L.nn.functional.unfold(L.ones(1, 1, 2, 2, dtype=L.int64), 1)',
    'L.nn.functional.multi_margin_loss(L.ones(1, 2, dtype=L.int64), L.tensor([0]))',
    'L.nn.functional.huber_loss(L.tensor([1]), L.tensor([1]))',
    'L.nn.functional.smooth_l1_loss(L.tensor([1]), L.tensor([1]))',
    'L.nn.functional.max_unpool2d(L.ones(1, 1, 2, 2, dtype=L.int64), '
    'L.zeros(1, 1, 2, 2, dtype=L.int64), 2)',
    'L.nn.functional.interpolate(L.ones(1, 1, 2, dtype=L.int64), scale_factor=2)',
    'L.nn.functional.interpolate(L.ones(1, 1, 2, 2, dtype=L.int64), scale_factor=2)',
    'L.randn(2, dtype=L.int64)',
    'L.rand(2, dtype=L.int64)',
    'L.arange(3, dtype=L.bool)',
    'L.ones(2) < 1j',
    'L.ones(2, dtype=L.float16) < 1j',
    'L.ones(2, dtype=L.float64).lt(1j)',
    'L.linspace(0, 1, 3, dtype=L.bool)',
    'L.logspace(0, 1, 3, dtype=L.bool)',
    'L.ones(2, dtype=L.int64).normal_()',
    'L.ones(2, dtype=L.int64).uniform_()',
    'L.ones(2, dtype=L.int64).exponential_()',
    'L.randperm(3, dtype=L.bool)',
    'L.ones(2) // 1j',
    'L.nn.functional.log_softmax(L.tensor([1, 2]), 0)',
    'L.nn.functional.softmax(L.tensor([], dtype=L.int64), 0)',
    'L.ones(2).copysign(1j)',
    'L.nn.functional.layer_norm(L.tensor([[True]]), (1,))',
    'L.tensor([1, 2]).logcumsumexp(0)',
    'L.nn.functional.mse_loss(L.tensor([1]), L.tensor([1]))',
    'L.nn.functional.l1_loss(L.tensor([True]), L.tensor([True]))'])
def test_dispatch_refusals_as_torch(expression: str) -> None:
    """Where torch's dispatcher finds no kernel for a dtype it raises NotImplementedError
    '"<kernel>" not implemented for \'<Type>\'' (bitwise_not of floats, threshold of bools,
    a complex number compared or divided, ...), and minitorch raises the same."""
    assert_as_torch(f"R = {expression}")


_INDEX_OPS = {  # each op's call on ``x`` along ``d`` at ``i``, its source shaped by ``S``
    "index_add": "x.index_add(d, i, L.ones(S){alpha})",
    "index_add_": "x.index_add_(d, i, L.ones(S){alpha})",
    "index_select": "x.index_select(d, i)", "function": "L.index_add(x, d, i, L.ones(S))"}


@settings(SETTINGS, max_examples=120)
@given(op=st.sampled_from(sorted(_INDEX_OPS)),
       shape=st.sampled_from([(3,), (2, 3), (2, 3, 4), (), (0, 3), (2, 0), (0,)]),
       dim=st.integers(-3, 2), index=st.sampled_from([[0, 5], [-1], [1, -3], [7, 2, 9], [0]]),
       int32=st.booleans(), alpha=st.sampled_from(["", ", alpha=2"]))
def test_index_ops_out_of_range_as_torch(op: str, shape: tuple, dim: int, index: list,
                                         int32: bool, alpha: str) -> None:
    """An index out of a dim's range is refused in each op's own words and type, which for
    index_add depend on the kernel torch runs (scatter_add along the first or last dim of a
    tensor of several dims for an int64 index and alpha 1: a RuntimeError naming the index;
    otherwise "index out of range in self"); an empty tensor of several dims is not read."""
    size = list(shape) or [1]
    size[dim % len(size)] = len(index)
    program = (f"x = L.zeros({shape}); d = {dim}; "
               f"i = L.tensor({index}{', dtype=L.int32' if int32 else ''}); S = {size}; "
               f"R = {_INDEX_OPS[op].format(alpha=alpha)}")
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    "x = L.zeros(0, 3, requires_grad=True); s = L.ones(1, 3, requires_grad=True); "
    "y = x.index_add(0, L.tensor([0]), s); y.sum().backward(); R = (y, x.grad, s.grad)",
    "x = L.zeros(2, 0, requires_grad=True); s = L.ones(1, 0, requires_grad=True); "
    "y = x.index_add(0, L.tensor([5]), s); y.sum().backward(); R = (y, x.grad, s.grad)",
    "x = L.zeros(2, 3, requires_grad=True); s = L.ones(2, 3, requires_grad=True); "
    "y = x.index_add(0, L.tensor([1, 1]), s, alpha=3); y.sum().backward(); "
    "R = (y, x.grad, s.grad)",
    "x = L.zeros((), requires_grad=True); s = L.ones((), requires_grad=True); "
    "y = x.index_add(0, L.tensor([0]), s); y.backward(); R = (y, x.grad, s.grad)"])
def test_index_add_gradients_as_torch(program: str) -> None:
    """index_add's gradient of ``source`` is torch's ``grad.index_select(dim, index)``, with
    index_select's own refusals where the forward wrote nothing (an empty ``self``)."""
    assert_as_torch(program)


_SCATTER_INDEX = "L.tensor([[1, 0, 0, 2], [1, 2, 2, 1]])"


@pytest.mark.parametrize("src", ["L.ones(2)", "L.ones(2, 4)", "L.ones(2, 5)", "L.ones(1, 4)",
                                 "L.ones(2, 4, 1)", "L.ones(())", "2.", "L.ones(2, 4).long()"])
@pytest.mark.parametrize("index", [_SCATTER_INDEX, "L.tensor([[1, 0, 0, 2, 0]])",
                                   "L.tensor([1, 0])", "L.tensor([[]], dtype=L.int64)",
                                   "L.tensor([[1, 0, 0, 3]])"])
@pytest.mark.parametrize("call", ["x.scatter(0, i, s)", "x.scatter(-2, i, s, reduce='add')",
                                  "x.scatter(0, i, s, reduce='multiply')",
                                  "x.scatter(0, i, s, reduce='mean')", "x.scatter_add(0, i, s)",
                                  "x.scatter_reduce(0, i, s, 'amax')",
                                  "x.scatter_reduce(0, i, s, 'max')"])
def test_scatter_shapes_as_torch(call: str, index: str, src: str) -> None:
    """The scatters check the index against self (apart from dim), then against a tensor
    src in every dim (a dim src lacks is torch's IndexError), then src's rank, then the
    reduction's name, then the index's range, in torch's order and words."""
    assert_as_torch(f"x = L.zeros(3, 4); i = {index}; s = {src}; R = {call}")


@pytest.mark.parametrize("program", [
    "R = L.zeros(3).scatter(0, L.tensor(1), L.ones(1))",
    "R = L.zeros(3).scatter(0, L.tensor([1]), L.ones(()))",
    "R = L.zeros(()).scatter(0, L.tensor(0), L.ones(1))",
    "R = L.zeros(3).scatter_add(0, L.tensor(1), L.ones(1))",
    "R = L.zeros(()).scatter_add(0, L.tensor([0]), L.ones(()))"])
def test_scatter_of_scalars_as_torch(program: str) -> None:
    """A 0-d index, src or self counts as one element of one dim, as in torch."""
    assert_as_torch(program)


@pytest.mark.parametrize("self_", ["L.ones(3, 4)", "L.ones(3, 4, requires_grad=True)",
                                   "L.tensor([[True, False, True, False]] * 3)",
                                   "L.arange(12).reshape(3, 4)", "L.ones(3, 4).double()"])
@pytest.mark.parametrize("src", ["L.arange(8.).reshape(2, 4)", "2.5", "2", "True", "1j",
                                 "L.ones(2, 4, requires_grad=True)"])
@pytest.mark.parametrize("reduce", ["add", "multiply"])
def test_scatter_legacy_reduce_as_torch(self_: str, src: str, reduce: str) -> None:
    """scatter's deprecated ``reduce=`` with a tensor or a number: torch's values in the
    self's dtype, recorded under a NotImplemented node whose backward refuses."""
    program = (f"x = {self_}; s = {src}; s = s.to(x.dtype) if isinstance(s, L.Tensor) else s; "
               f"R = x.scatter(0, {_SCATTER_INDEX}, s, reduce='{reduce}')")
    assert_as_torch(program)
    assert_as_torch(program + "; y = x * 1; y.scatter_(0, "
                    f"{_SCATTER_INDEX}, s, reduce='{reduce}'); R = (R, y)")
    assert_as_torch(program + "; R.sum().backward()")


_REDUCE_CASES = [  # self, dim, index, src
    ("[[1., 0., 3.], [2., 5., 2.]]", 1, "[[0, 0], [2, 2]]", "[[2., 0.], [2., 0.]]"),
    ("[1., 0., 2., 2.]", 0, "[0, 0, 1, 3, 3]", "[2., 0., 0., 1., 2.]"),
    ("[4., 4., 1.]", 0, "[0, 1, 0]", "[4., 1., 4.]"),
    ("[5., nan, 9.]", 0, "[1, 0, 2]", "[1., nan, 4.]"),
    ("[[1., 2.], [3., 4.]]", 0, "[[1, 1]]", "[[0., 5.], [7., 8.]]")]


@pytest.mark.parametrize("case", _REDUCE_CASES)
@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin", "max", "min"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_values_and_gradients_as_torch(case: tuple, reduce: str,
                                                      include_self: bool) -> None:
    """scatter_reduce's values, node and gradients of self and src (ties share amax's and
    amin's, zeros are left out of prod's products; a src larger than the index gets
    torch's broadcast gradient or the engine's refusal; torch's forward takes "max" and
    "min" but its backward refuses them), against torch's."""
    x, dim, index, src = case
    made = "L.tensor({}, dtype=L.float64, requires_grad=True)"
    assert_as_torch(
        f"nan = float('nan'); x = {made.format(x)}; s = {made.format(src)}; "
        f"y = x.scatter_reduce({dim}, L.tensor({index}), s, '{reduce}', "
        f"include_self={include_self}); "
        "y.backward(L.arange(float(y.numel()), dtype=L.float64).reshape(y.shape)); "
        "R = (y, x.grad, s.grad)")


@pytest.mark.parametrize("program", [
    "x = L.tensor([5, 7, 9]); R = x.scatter_reduce(0, L.tensor([0, 0, 2]), L.tensor([1, 2, 4]), "
    "'mean')",
    "x = L.tensor([5, 7, 9]); R = x.scatter_reduce(0, L.tensor([1, 1]), L.tensor([1, 2]), "
    "'amin', include_self=False)",
    "x = L.tensor([True, False]); R = x.scatter_reduce(0, L.tensor([1, 1]), "
    "L.tensor([True, False]), 'prod')",
    "x = L.tensor([True, False]); R = x.scatter_reduce(0, L.tensor([1, 1]), "
    "L.tensor([True, False]), 'mean')",
    "x = L.ones(3, dtype=L.float16); R = x.scatter_reduce(0, L.tensor([0, 0]), "
    "L.ones(2, dtype=L.float16), 'mean', include_self=False)",
    "x = L.zeros(3); R = x.scatter_reduce(0, L.tensor([0, 0, 2]), L.tensor([1., 2., 3.]), 3)",
    "x = L.zeros(3); R = x.scatter_reduce(0, L.tensor([0, 0, 2]), 2., 'sum')",
    "x = L.zeros(3); R = x.scatter_reduce(0, L.tensor([0, 0, 2]), L.ones(3), 'sum', "
    "include_self='a')",
    "x = L.zeros(3); R = x.scatter_reduce(0, L.tensor([0., 0, 2]), L.ones(3), 'foo')",
    "x = L.zeros(3); R = x.scatter_reduce(0, L.tensor([0, 0, 5]), L.ones(3), 'foo')",
    "x = L.zeros(3); R = x.scatter_reduce(0, L.tensor([0, 0, 5]), L.ones(3), 'sum')",
    "x = L.zeros(3); R = L.scatter_reduce(x, 0, L.tensor([0, 0, 2]), L.ones(3), reduce=None)",
    "x = L.zeros(3, requires_grad=True); R = x.scatter_reduce_(0, L.tensor([0]), L.ones(1), "
    "'sum')",
    "x = L.ones(3, requires_grad=True); y = x * 1; y.scatter_reduce_(0, L.tensor([0, 0, 2]), "
    "L.ones(3), 'amax'); y.sum().backward(); R = (y, x.grad)",
    "x = L.ones(3, requires_grad=True); s = L.ones(4, requires_grad=True); "
    "x.scatter_reduce(0, L.tensor([0, 0, 2]), s, 'sum').sum().backward(); R = s.grad",
    "x = L.tensor([1., 2., 3.], dtype=L.float64, requires_grad=True); "
    "s = L.tensor([0., 0., 4.], dtype=L.float64, requires_grad=True); "
    "y = x.scatter_reduce(0, L.tensor([0, 0, 2]), s, 'prod'); "
    "gx, gs = L.autograd.grad(y.sum(), (x, s), create_graph=True); R = gs",
    "x = L.tensor([1., 2., 3.], dtype=L.float64, requires_grad=True); "
    "s = L.tensor([0., 0., 4.], dtype=L.float64, requires_grad=True); "
    "y = x.scatter_reduce(0, L.tensor([0, 0, 2]), s, 'prod'); "
    "gx, gs = L.autograd.grad(y.sum(), (x, s), create_graph=True); "
    "R = L.autograd.grad(gs.sum(), (s,))",
    "x = L.tensor([1., 2., 3.], dtype=L.float64, requires_grad=True); "
    "s = L.tensor([2., 3., 4.], dtype=L.float64, requires_grad=True); "
    "y = x.scatter_reduce(0, L.tensor([0, 0, 2]), s, 'prod', include_self=False); "
    "gx, gs = L.autograd.grad(y.sum(), (x, s), create_graph=True); "
    "R = L.autograd.grad((gx * gx).sum() + (gs * gs).sum(), (x, s))",
    "x = L.tensor([1., 2., 3.], dtype=L.float64, requires_grad=True); "
    "s = L.tensor([2., 3., 4.], dtype=L.float64, requires_grad=True); "
    "y = x.scatter_reduce(0, L.tensor([0, 0, 2]), s, 'mean', include_self=False); "
    "gx, gs = L.autograd.grad(y.sum(), (x, s), create_graph=True); R = (gx, gs)"])
def test_scatter_reduce_forms_as_torch(program: str) -> None:
    """scatter_reduce's dtypes (an integer mean rounds down, bool has no mean), its parser's
    and kernel's refusals in torch's order, the in-place form, and the derivatives of its
    gradients (torch refuses prod's where two zeros of src meet)."""
    assert_as_torch(program)


_LERP_WEIGHTS = ["L.tensor(1)", "L.tensor(True)", "L.tensor(0.5)", "L.tensor(0.5, dtype=L.float64)",
                 "L.tensor(0.5, dtype=L.float16)", "L.tensor([1])", "L.tensor([0.5])",
                 "L.tensor([0.5], dtype=L.float64)", "L.tensor([True])", "0.5", "2", "True",
                 "L.tensor(0.25, dtype=L.float64, requires_grad=True)",
                 "L.tensor([0.5, 0.25, 1.], dtype=L.float64)"]


@pytest.mark.parametrize("weight", _LERP_WEIGHTS)
@pytest.mark.parametrize("dtypes", [("float32", "float32"), ("float64", "float64"),
                                    ("int64", "int64"), ("bool", "bool"),
                                    ("float16", "float16"), ("float32", "float64")])
@pytest.mark.parametrize("shape", ["3", "()"])
def test_lerp_weight_types_as_torch(weight: str, dtypes: tuple, shape: str) -> None:
    """lerp's ``end`` is of ``input``'s dtype, and so is a weight tensor of some dims; a 0-d
    weight tensor promotes with them as a lower-rank operand (the result and kernel take the
    promoted type: an integer one has no kernel), out of place and in place (where the
    promoted type must cast back to ``input``'s), with torch's gradients."""
    grad = dtypes[0].startswith("float")
    made = (f"x = L.ones({shape}, dtype=L.{dtypes[0]}, requires_grad={grad}); "
            f"y = L.zeros({shape}, dtype=L.{dtypes[1]}); w = {weight}; ")
    assert_as_torch(made + "R = L.lerp(x, y, w)")
    assert_as_torch(made + "r = x.lerp(y, w); r.sum().backward(); "
                    "R = (r, x.grad, w.grad if isinstance(w, L.Tensor) else None)")
    assert_as_torch(made + "z = x.detach().clone(); R = (z.lerp_(y, w), z)")


_DTYPES_ALL = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32",
               "float64"]


@pytest.mark.parametrize("from_", _DTYPES_ALL)
def test_can_cast_table_as_torch(from_: str) -> None:
    """can_cast over every pair of minitorch's dtypes: no floating type into an integer,
    no number into a bool."""
    assert_as_torch(f"R = [L.can_cast(L.{from_}, getattr(L, to)) for to in {_DTYPES_ALL}]")


@pytest.mark.parametrize("call", [
    "L.can_cast(1, L.float32)", "L.can_cast(L.float32)", "L.can_cast(L.float32, 'a')",
    "L.can_cast(from_=L.float32, to=L.int64)", "L.can_cast(L.float32, to=L.int64)",
    "L.can_cast(float, L.int64)", "L.can_cast(int, bool)", "L.can_cast(L.float32, L.int64, 1)",
    "L.can_cast()", "L.can_cast(L.tensor(1.), L.int64)", "L.can_cast(L.float32, None)",
    "L.can_cast(None, L.float32)", "L.zeros(3).transpose(1)", "L.zeros(3, 3).transpose()",
    "L.zeros(3).scatter_reduce(0, L.tensor([0]), L.ones(1))",
    "L.scatter_reduce(L.zeros(3), 0, L.tensor([0]))"])
def test_can_cast_and_missing_arguments_as_torch(call: str) -> None:
    """can_cast's arguments are dtypes (Python's float, int and bool as torch's); a call
    missing required arguments of a one-signature function is refused in torch's words."""
    assert_as_torch(f"R = {call}")


_PROBABILITIES = "L.tensor([0.3, 0.7], requires_grad={})"


@pytest.mark.parametrize("call", [
    "L.bernoulli(p, p=0.5)", "L.bernoulli(p, 0.5)", "L.bernoulli(p)", "p.bernoulli()",
    "p.bernoulli(0.5)", "p.bernoulli(p=0.5)", "p.bernoulli(generator=L.Generator().manual_seed(1))",
    "L.bernoulli(p, generator=L.Generator().manual_seed(1))",
    "L.bernoulli(p, 0.5, generator=L.Generator().manual_seed(1))",
    "L.bernoulli(p.double(), p=0.5)", "L.bernoulli(p, 1j)", "L.bernoulli(p, 'a')",
    "L.bernoulli(p, p='a')", "L.bernoulli(p, 1.5)", "p.bernoulli('a')",
    "p.bernoulli(L.tensor([0.5, 0.5]))", "L.bernoulli(p, 0.5, out=L.zeros(2))",
    "(lambda o: (L.bernoulli(p, out=o), o))(L.zeros(2))",
    "L.bernoulli(p, out=L.zeros(2, requires_grad=True))",
    "(lambda y: (y.bernoulli_(0.5), y))(p * 1)", "(lambda y: (y.bernoulli_(p), y))(L.zeros(2))",
    "(lambda y: (y.bernoulli_(p), y))(L.zeros(2, requires_grad=True) * 1)",
    "p.bernoulli_(1j)", "p.detach().bernoulli_('a')", "p.detach().bernoulli_(None)",
    "L.bernoulli(p, p=0.5).sum().backward()", "L.bernoulli(p).sum().backward()",
    "(lambda y: (y.bernoulli_(p), y.sum().backward(), p.grad))(L.zeros(2))"])
@pytest.mark.parametrize("requires_grad", [True, False])
def test_bernoulli_forms_as_torch(call: str, requires_grad: bool) -> None:
    """Every bernoulli form records what torch records: probabilities as a tensor give
    BernoulliBackward0 (bernoulli_: BernoulliBackward1, with an edge to them), a number p
    leaves its input under torch's NotImplemented node (bernoulli_: BernoulliBackward2);
    out= takes the tensor form only; p's type is refused with torch's overloads."""
    assert_as_torch(f"L.manual_seed(0); p = {_PROBABILITIES.format(requires_grad)}; "
                    f"R = {call}")


_LOSS_INPUTS = ["L.tensor(1., requires_grad=True)", "L.tensor(1)", "L.ones(3, requires_grad=True)",
                "L.ones(2, 3, requires_grad=True)", "L.ones(2, 3, 2, requires_grad=True)",
                "L.ones(2, 3, 2, 2, requires_grad=True)", "L.ones(2, 3, 2, 1, 1)"]
_LOSS_TARGETS = ["L.tensor(1)", "L.tensor(1.)", "L.tensor([0, 2])", "L.tensor([0., 2.])",
                 "L.tensor([True, False])", "L.tensor([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]])",
                 "L.tensor([[0, 1], [1, 0]])", "L.tensor([[0., 1.], [1., 0.]])",
                 "L.ones(2, 3, 2)", "L.ones(2, 3, 2, dtype=L.float64)", "L.ones(2, 2, 2)",
                 "L.ones(2, 2, 3)", "L.ones(2, 2, 3).long()", "L.ones(2, 2).long()",
                 "L.ones(2, 2, 1)", "L.ones(2, 2, 1, 1).long()", "L.tensor([0, 3])"]


@settings(SETTINGS, max_examples=150)
@given(input=st.sampled_from(_LOSS_INPUTS), target=st.sampled_from(_LOSS_TARGETS),
       call=st.sampled_from(["L.nn.functional.cross_entropy(x, t{})",
                             "L.nn.CrossEntropyLoss({})(x, t)",
                             "L.nn.functional.nll_loss(x, t{})", "L.nn.NLLLoss({})(x, t)"]),
       options=st.sampled_from(["", "reduction='none', ignore_index=2", "label_smoothing=0.1",
                                "ignore_index=-5", "weight=L.ones(2)"]))
def test_loss_target_checks_as_torch(input: str, target: str, call: str, options: str) -> None:
    """cross_entropy reads a target of the input's shape as class probabilities (a floating
    one, without ignore_index; a 0-d input fails on its missing class dim), any other as
    class indices; nll_loss checks a spatial target's shape before its dtype (a 4-D input
    its rank before and its sizes after), in torch's order and words."""
    if "label_smoothing" in options and "nll" in call.lower():
        options = ""
    given = (", " + options if options else "") if "functional" in call else options
    assert_as_torch(f"x = {input}; t = {target}; R = {call.format(given)}")


@pytest.mark.parametrize("call", [
    'x.sum(axis=0)',
    'x.sum(0, axis=1)',
    'x.sum(dim=0, axis=1)',
    'L.sum(a=x, axis=0)',
    'L.sum(x=x)',
    'L.sum(x1=x)',
    'L.add(x1=x, x2=x)',
    'x.add(x2=x)',
    'L.add(x, x2=x, other=x)',
    'x.amin(dim=-2, keepdims=True)',
    'x.amin(-2, keepdims=True, keepdim=False)',
    'L.max(x, axis=1)',
    'x.split(2, axis=0)',
    'L.split(x, 2, axis=0)',
    'x.norm(axis=0)',
    'L.norm(x, axis=0)',
    'L.relu(x=x)',
    'L.exp(a=x)',
    'L.cat([x], axis=0)',
    'L.stack(tensors=[x], axis=0)',
    'L.mean(x, axis=(0,1), keepdims=True)',
    'L.where(x>1, x1=x, x2=x)',
    'L.sum(x, axis=0, keepdims=True, keepdim=True)',
    'x.unsqueeze(axis=0)',
    'x.squeeze(axis=0)',
    'L.squeeze(x, axis=0)',
    'L.argmax(x, axis=1)',
    'x.cumsum(axis=1)',
    'x.cumsum_(axis=1)',
    'L.softmax(x, axis=0)',
    'x.softmax(axis=0)',
    'x.log_softmax(axis=0)',
    'x.var(axis=1, keepdims=True)',
    'L.std(x, axis=1)',
    'x.std(axis=1)',
    'x.prod(axis=1)',
    'x.all(axis=1)',
    'L.any(x, axis=1, keepdims=True)',
    'x.logsumexp(axis=1)',
    'x.nanmedian(axis=1)',
    'x.median(axis=1)',
    'x.sort(axis=1)',
    'x.flatten(axis=1)',
    'x.size(axis=1)',
    'x.narrow(axis=1, start=0, length=1)',
    'x.select(axis=1, index=0)',
    'x.unbind(axis=1)',
    'x.chunk(2, axis=1)',
    'x.gather(axis=1, index=L.tensor([[0], [1]]))',
    'x.index_select(axis=1, index=L.tensor([0]))',
    'x.mul(x2=2)',
    'L.mul(x, x2=2)',
    'x.eq(x2=x)',
    'L.maximum(x1=x, x2=x)',
    'L.linalg.vector_norm(x, axis=0)',
    'L.linalg.norm(x, axis=0)',
    'L.nn.functional.softmax(x, axis=0)',
    'L.nn.functional.softplus(x=x)',
    'L.clamp(a=x, min=0)',
    'x.unique(axis=0)',
    'L.atleast_2d(x=x)',
    'x.sum(keepdims=True)',
    'L.sum(x, keepdims=True)',
    'x.amax(1, axis=0)',
    'L.movedim(x, 0, 1)',
    'x.cummax(axis=1)',
    'x.kthvalue(1, axis=1)',
    'x.topk(1, axis=1)',
    'x.count_nonzero(axis=1)',
    'x.mean(axis=1, keepdims=True, dtype=L.float64)',
    'x.repeat_interleave(2, axis=1)',
])
def test_numpy_keyword_names_as_torch(call: str) -> None:
    """torch's parser takes numpy's names for its parameters dim (axis), keepdim
    (keepdims), input (x, a, x1) and other (x2), on every parsed function and method
    (including in-place twins, torch.linalg and the parsed nn.functional ones), not on the
    functions torch writes in Python (split, norm, unique); given twice, or next to a
    positional argument, the numpy name is the unexpected keyword."""
    assert_as_torch(f"x = L.arange(6.).reshape(2, 3); R = {call}")
