"""Bad input found by issue #21's third fuzz (seeds 2201-2203) that minitorch accepted where
torch refuses (SILENT) or refused with a raw numpy or Python error from its own code
(INTERNAL), against live torch. Each case is a small program run on torch and on minitorch
(``L``); its outcome, the value of ``R`` or the exception's type and message, must be the
same.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch

Y = "y = L.ones(1, 1, 2, 2)\n"


@pytest.mark.parametrize("program", [
    Y + "R = L.nn.functional.max_unpool2d(y, L.tensor([[[[0., 1.], [2., 3.]]]]), 2)",
    Y + "R = L.nn.functional.max_unpool2d(y, L.zeros(1, 1, 2, 1, dtype=L.int64), 2)",
    Y + "R = L.nn.functional.max_unpool2d(y, L.zeros(1, 1, 2, 2, dtype=L.bool), 2)",
    Y + "R = L.nn.functional.max_unpool2d(y.long(), L.zeros(1, 1, 2, 2, dtype=L.int64), 2)",
    Y + "R = L.nn.functional.max_unpool2d(y, [1], 2)",
    "R = L.nn.functional.max_unpool2d(L.ones(2, 2), L.zeros(2, 2, dtype=L.int64), 2)",
    "R = L.nn.functional.max_unpool2d(L.ones(1, 0, 2, 2), L.zeros(1, 0, 2, 2, dtype=L.int64), 2)",
    "R = L.nn.functional.max_unpool2d(L.ones(0, 1, 2, 2), L.zeros(0, 1, 2, 2, dtype=L.int64), 2)",
    Y + "R = L.nn.functional.max_unpool2d(y, L.zeros(1, 1, 2, 2, dtype=L.int64), 2, "
        "output_size=(5,))",
    Y + "R = L.nn.functional.max_unpool2d(y, L.zeros(1, 1, 2, 2, dtype=L.int64), 2, "
        "output_size=[1, 1, 9, 4])",
    Y + "R = L.nn.MaxUnpool2d(2)(y, L.ones(1, 1, 2, 2))"])
def test_max_unpool_indices_as_torch(program: str) -> None:
    """max_unpool2d checks its indices (int64, the input's shape), the input's rank, empty
    dims and dtype, and output_size's length, in torch's order and words."""
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    "R = L.nn.utils.rnn.pad_sequence([L.tensor(1.)], batch_first=True)",
    "R = L.nn.utils.rnn.pad_sequence([L.ones(2), L.tensor(1.)])",
    "R = L.finfo(float)", "R = L.finfo(float).eps", "R = L.finfo(int)", "R = L.iinfo(int).max",
    "R = L.iinfo(bool)", "R = L.iinfo(float)", "R = L.finfo('float32')", "R = L.iinfo('int64')",
    "R = L.finfo(None)", "R = L.finfo(L.tensor(1.))", "R = L.iinfo()",
    "R = L.finfo(complex).dtype",
    "R = L.atleast_3d([1, 2])", "R = L.atleast_2d(2.5)", "R = L.atleast_1d(None)",
    "R = L.atleast_1d([L.ones(2), 3])", "R = L.atleast_2d(L.ones(2), 3)", "R = L.atleast_3d('ab')",
    "R = L.atleast_1d([])", "R = L.atleast_2d((L.ones(2),))"])
def test_non_tensor_arguments_as_torch(program: str) -> None:
    """0-d sequences, Python types as dtypes (finfo(float) is float64's) and non-tensors where
    torch's parser wants tensors get torch's answers, not Python's errors."""
    assert_as_torch(program)


@pytest.mark.parametrize("sizes", ["2", "None", "'ab'", "(2.0, 3)", "(2, -2)", "(-1, -1)",
                                   "(4, -1)", "(0, -1)", "(3, 1, -1)", "()"])
def test_unflatten_sizes_as_torch(sizes: str) -> None:
    """unflatten's sizes are a tuple of ints, inferred as torch's infer_size, its errors in
    torch's words (some wrapped as an unexpected error)."""
    assert_as_torch(f"R = L.zeros(6, 3).unflatten(0, {sizes})")
    assert_as_torch(f"R = L.zeros(0, 3).unflatten(0, {sizes})")
    assert_as_torch(f"R = L.tensor(1.).unflatten(-1, {sizes})")


@pytest.mark.parametrize("cell", ["L.nn.RNNCell(3, 2)", "L.nn.GRUCell(3, 2)",
                                  "L.nn.RNNCell(3, 2, nonlinearity='relu')"])
@pytest.mark.parametrize("call", ["m(L.ones(3), L.zeros(3))", "m(L.ones(1, 3), L.zeros(3, 2))",
                                  "m(L.ones(1, 4), L.zeros(1, 2))", "m(L.ones(2, 3), 3)",
                                  "m(L.ones(2, 3), L.zeros(2, 2, 2))", "m(L.ones(2, 3))"])
def test_rnn_cell_states_as_torch(cell: str, call: str) -> None:
    """The cells check the input's and hidden state's sizes as torch's kernels do."""
    assert_as_torch(f"L.manual_seed(0); m = {cell}\nR = {call}")


@pytest.mark.parametrize("call", [
    "m(L.ones(3), L.zeros(1, 4, 2))", "m(L.ones(3), L.zeros(2, 2))", "m(L.ones(3), L.zeros(3, 2))",
    "m(L.ones(1, 3), L.zeros(2, 1, 2))", "m(L.ones(3), [L.zeros(2)])",
    "m(L.ones(3), [L.zeros(2)] * 3)", "m(L.ones(1, 3), [L.zeros(1, 2)])",
    "m(L.ones(1, 3), [L.zeros(1, 2)] * 3)", "m(L.ones(3), L.zeros(2))", "m(L.ones(3), 3)",
    "m(L.ones(1, 3), (L.zeros(1, 2), L.zeros(2)))",
    "m(L.ones(1, 3), (L.zeros(1, 3), L.zeros(1, 2)))", "m(L.ones(1, 4))",
    "m(L.ones(0, 3), (L.zeros(0, 2), L.zeros(0, 2)))"])
def test_lstm_cell_states_as_torch(call: str) -> None:
    """LSTMCell reads ``hx`` as torch does: whatever holds two states when unbatched, a
    tuple of two otherwise, with the kernel's size checks."""
    assert_as_torch(f"L.manual_seed(0); m = L.nn.LSTMCell(3, 2)\nR = {call}")


X64 = "x = L.tensor([1., 2.], dtype=L.float64, requires_grad=True)\n"


@pytest.mark.parametrize("program", [
    X64 + "R = L.autograd.gradcheck(lambda a: 3.0, x.expand(2, 2), nondet_tol=1e-3)",
    X64 + "R = L.autograd.gradcheck(lambda a: 3.0, x)",
    X64 + "R = L.autograd.gradgradcheck(lambda a: a * 2, x.expand(2, 2), fast_mode=True)",
    X64 + "R = L.autograd.gradcheck(lambda a, b: a * b, (x, x.expand(2, 2)))",
    X64 + "R = L.autograd.gradcheck(lambda a: a * 2, x[None].expand(1, 2))",
    X64 + "R = L.autograd.gradgradcheck(lambda a: a.detach() * 2, x)",
    X64 + "R = L.autograd.gradgradcheck(lambda a, b: a.detach() * 2, (x, 3))",
    X64 + "R = L.autograd.gradgradcheck(lambda a: a * a, x)"])
def test_gradcheck_inputs_as_torch(program: str) -> None:
    """gradcheck refuses inputs with a stride-0 dim; gradgradcheck splits its inputs from the
    grad_outputs as torch does, even with no grad_outputs at all."""
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    "R = L.nn.functional.multi_margin_loss(a, L.tensor([0., 1.]), p=2)",
    "R = L.nn.functional.multi_margin_loss(a, L.tensor([0., 5.]))",
    "R = L.nn.functional.multi_margin_loss(a, L.tensor([True, False]))",
    "R = L.nn.functional.multi_margin_loss(a, L.tensor([0, 1]), weight=L.ones(2).double())",
    "R = L.nn.functional.multi_margin_loss(a.long(), L.tensor([0., 1.]))",
    "R = L.nn.functional.multi_margin_loss(a.double(), L.tensor([0, 1]), weight=L.ones(2))",
    "R = L.nn.functional.multi_margin_loss(L.zeros(0, 2), L.zeros(0), reduction='none')",
    "R = L.xlogy(L.ones(3, 1).double(), L.ones(2, 3))",
    "R = L.nn.functional.scaled_dot_product_attention(L.ones(3, 4), L.ones(5, 4), L.ones(5, 4), "
    "dropout_p=1.5)",
    "R = L.nn.functional.scaled_dot_product_attention(L.ones(3, 4), L.ones(5, 4), L.ones(5, 4), "
    "dropout_p=2.0)",
    "x = L.tensor([1.5, -0.75])[:1]; x %= L.zeros(0, dtype=L.float64, requires_grad=True); R = x",
    "x = L.zeros(1, requires_grad=True) * 1; v = x[:1]; v += L.ones(2, requires_grad=True)"])
def test_kernel_argument_checks_as_torch(program: str) -> None:
    """Losses, xlogy, attention's dropout and in-place ops on views check dtypes and shapes
    before numpy meets them."""
    assert_as_torch("a = L.zeros(2, 2, requires_grad=True)\n" + program)


_VALUES = ["L.tensor(0.3)", "L.tensor(0.3, requires_grad=True)", "L.tensor([0.1, 0.2, 0.3])",
           "L.tensor(2)", "None", "'a'", "np.float64(0.5)", "np.array(0.5)", "True", "1j"]


@pytest.mark.parametrize("fn", ["addcmul", "addcdiv"])
@pytest.mark.parametrize("value", _VALUES)
def test_addc_value_as_torch(fn: str, value: str) -> None:
    """addcmul's and addcdiv's value is a Number as torch's parser reads one (a 0-d tensor
    that does not require grad, a numpy scalar, not a numpy array)."""
    assert_as_torch(f"x = L.tensor([0.25, 1.0, 4.0], dtype=L.float64, requires_grad=True)\n"
                    f"y = L.tensor([1.5], dtype=L.float64, requires_grad=True)\n"
                    f"R = L.{fn}(x, y, y, value={value}); R = (R, L.autograd.grad(R.sum(), y))")


@pytest.mark.parametrize("program", [
    "R = L.addcmul(L.tensor([0, 1, 4]), L.tensor([1]), L.tensor([1]), value=0.5)",
    "R = L.addcmul(L.tensor([0, 1, 4]), L.tensor([1]), L.tensor([3]), value=-2.7)",
    "R = L.addcmul(L.tensor([True]), L.tensor([True]), L.tensor([True]), value=True)",
    "R = L.tensor([True, False]).lerp(L.tensor([False, False]), True)",
    "R = L.tensor([True, False]).lerp(L.tensor([False, False]), L.tensor([False, False]))",
    "R = L.lerp(L.tensor([1, 0]), L.tensor([0, 0]), 2)",
    "R = L.add(L.ones(2), L.ones(2), alpha=L.tensor(2., requires_grad=True))",
    "R = L.full((2,), L.tensor(2., requires_grad=True))",
    "R = L.nn.functional.softplus(L.ones(2), beta=L.tensor(2., requires_grad=True))",
    "R = L.nn.functional.elu(L.ones(2), L.tensor(2., requires_grad=True))",
    "R = L.add(L.ones(2), L.ones(2), alpha=np.array(2.))"])
def test_number_arguments_as_torch(program: str) -> None:
    """Integer kernels read a float value in their dtype; bool and integer lerp have no
    kernel; a tensor that requires grad is no Number to torch's parser."""
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    "x = L.ones(3, requires_grad=True); x.grad_fn = None",
    "x = L.ones(3, requires_grad=True); y = x * 2; y.grad_fn = None",
    "x = L.ones(3); del x.grad_fn", "x = L.ones(3); del x.is_leaf",
    "x = L.ones(3, requires_grad=True); R = ((x * 2).grad_fn.name(), x.grad_fn)"])
def test_grad_fn_read_only_as_torch(program: str) -> None:
    """``grad_fn`` (and every read-only attribute) refuses assignment and deletion."""
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    "buf = io.BytesIO(); L.save(L.Size([2, 3]), buf); buf.seek(0); R = L.load(buf, mmap=True)",
    "buf = io.BytesIO(); L.save(L.ones(2), buf); buf.seek(0); R = L.load(buf, mmap=1)",
    "buf = io.BytesIO(); L.save(L.ones(2), buf); buf.seek(0); R = L.load(buf, mmap=False)",
    "x = L.arange(6.); R = x.tensor_split(L.tensor([1.5]))",
    "x = L.arange(6.); R = x.tensor_split(L.tensor(2.))",
    "x = L.arange(6.); R = x.tensor_split(L.tensor([True]))",
    "R = L.tensor(1.).tensor_split(L.tensor([1.5]))",
    "x = L.arange(6.); R = x.tensor_split(L.tensor([[1]]))"])
def test_load_mmap_and_split_indices_as_torch(program: str) -> None:
    """``load(mmap=True)`` wants a path; tensor_split's tensor indices are int64, checked in
    torch's order."""
    assert_as_torch(program)


@pytest.mark.parametrize("name", ["lt", "le", "gt", "ge", "eq", "ne"])
@pytest.mark.parametrize("other", ["'a'", "None", "[1]", "np.array([1.])", "np.array(1.)",
                                   "(1,)", "1j", "np.float64(1.)", "1"])
def test_comparison_operands_as_torch(name: str, other: str) -> None:
    """A comparison method (and function) refuses what its signatures do not take; the
    operator (``<``) leaves it to Python, and ``==`` takes a numpy array."""
    x = "x = L.tensor([[2.0, 0.5, -1.25]])\n"
    assert_as_torch(f"{x}R = x.{name}({other})")
    assert_as_torch(f"{x}R = L.{name}(x, {other})")


@pytest.mark.parametrize("program", [
    "R = a.allclose(b, rtol=-1)", "R = a.allclose(b, atol=-1)", "R = a.allclose(b, rtol=-0.5)",
    "R = a.allclose(b, rtol=float('nan'))", "R = a.allclose(b, rtol=None)",
    "R = a.allclose(b, rtol='a')", "R = a.allclose(b, rtol=L.tensor(0.1))",
    "R = L.allclose(b, b, equal_nan=None)", "R = L.allclose(b, b, equal_nan=1)",
    "R = L.allclose(L.ones(3), L.ones(3, dtype=L.int64))",
    "R = L.allclose(L.ones(3).long(), L.ones(3).long(), rtol=-1)"])
def test_allclose_tolerances_as_torch(program: str) -> None:
    """allclose reads its tolerances as floats, neither negative nor nan, after its dtype
    check, and equal_nan as a bool."""
    assert_as_torch("a = L.zeros(0, 3); b = L.tensor([-2.5])\n" + program)


@pytest.mark.parametrize("seed", ["True", "1.5", "'3'", "'a'", "L.tensor(3)", "L.tensor(3.)",
                                  "None", "np.int64(3)", "np.float64(2.)", "2 ** 63", "-1",
                                  "2 ** 64", "[3]", "3.0"])
def test_manual_seed_types_as_torch(seed: str) -> None:
    """A Generator's manual_seed takes a Python int only; ``manual_seed`` converts first."""
    assert_as_torch(f"R = L.Generator().manual_seed({seed}).initial_seed()")
    assert_as_torch(f"R = L.manual_seed({seed}).initial_seed()")


@pytest.mark.parametrize("program", [
    "R = L.randint(0, 3, (2,), dtype=L.bool)", "R = L.randint(-1, 1, (2,), dtype=L.bool)",
    "R = L.randint(3, (2,), dtype=L.bool)", "R = L.randint(0, 2, (6,), dtype=L.bool)",
    "R = L.zeros(2, dtype=L.bool).random_(0, 3)", "R = L.zeros(2, dtype=L.bool).random_(3)",
    "R = L.randint_like(L.zeros(2, dtype=L.bool), 0, 3)",
    "R = L.randint(0, 3, (2,), dtype=L.float32)"])
def test_randint_bounds_as_torch(program: str) -> None:
    """A draw into a bool tensor takes 0 and 1 only, as torch checks it."""
    assert_as_torch("L.manual_seed(0)\n" + program)


@pytest.mark.parametrize("program", [
    "R = L.logsumexp(x, None)",
    "R = L.logsumexp(x, 'a')", "R = L.logsumexp(x, 1.5)", "R = L.logsumexp(x, True)",
    "R = L.logsumexp(x, ())", "R = L.logsumexp(x, (), keepdim=True)",
    "R = L.logsumexp(L.tensor(2.), ())", "R = L.logsumexp(L.zeros(0, 3), ())",
    "R = L.logsumexp(L.ones(2, 3, requires_grad=True), [], keepdim=True)"])
def test_logsumexp_dims_as_torch(program: str) -> None:
    """logsumexp's dim is a tuple of ints (not None); () reduces every dim, as torch's
    kernel does (and fails to without keepdim)."""
    assert_as_torch("x = L.tensor([[0.5, 1.0]], dtype=L.float64)\n" + program)


@pytest.mark.parametrize("name", ["floor", "ceil", "trunc", "frac", "round"])
@pytest.mark.parametrize("x", ["L.zeros(2, dtype=L.bool)", "L.zeros(0, dtype=L.bool)",
                               "L.tensor(False)", "L.tensor([1, -2])"])
def test_rounding_dtypes_as_torch(name: str, x: str) -> None:
    """floor, ceil and trunc have no bool kernel; frac has floating kernels only."""
    assert_as_torch(f"R = L.{name}({x})")
    assert_as_torch(f"R = {x}.{name}_()")


@pytest.mark.parametrize("stats", [
    "L.zeros(1, 3), L.ones(3)", "L.zeros(3), L.ones(3, 1)", "L.zeros(3, 1, 1), L.ones(3)",
    "L.zeros(3), L.ones(3), weight=L.ones(1, 3)", "L.zeros(3), L.ones(3), bias=L.ones(3, 1)",
    "L.zeros(1, 3), L.ones(3), weight=L.ones(3).double()"])
@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_parameter_shapes_as_torch(stats: str, training: bool) -> None:
    """The running statistics are read as 1-d arrays; weight and bias by their numel, their
    gradients refused when their shape is not (C,)."""
    assert_as_torch(f"x = L.arange(6.).view(2, 3).requires_grad_()\n"
                    f"R = L.nn.functional.batch_norm(x, {stats}, training={training})\n"
                    "R = (R, L.autograd.grad(R.sum(), x))")


@pytest.mark.parametrize("op", ["x // y", "y // x", "x // 2", "2 // x", "x.floor_divide(yi)",
                                "L.floor_divide(2, x)", "2.5 % x", "L.remainder(2.5, x)",
                                "L.tensor([[True, False, True]]) // x", "x % y"])
def test_no_derivative_nodes_as_torch(op: str) -> None:
    """floor_divide and remainder(Number, Tensor) are recorded under torch's NotImplemented
    node (an edge per operand that requires grad), whose backward refuses."""
    program = ("x = L.tensor([[1.5, -0.75, -1.25]], requires_grad=True)\n"
               "y = L.tensor([[-2., -1., 4.]]); yi = y.long()\n"
               f"r = {op}\n")
    assert_as_torch(program + "R = (r, r.grad_fn.name(), len(r.grad_fn.next_functions))")
    assert_as_torch(program + "r.sum().backward(); R = x.grad")


@pytest.mark.parametrize("marks", ["ctx.mark_non_differentiable(3)",
                                   "ctx.mark_non_differentiable(None)",
                                   "ctx.mark_non_differentiable(x, 'a')",
                                   "ctx.mark_dirty(3)", "ctx.mark_dirty([x])",
                                   "ctx.mark_dirty(3); ctx.mark_non_differentiable(3)",
                                   "ctx.mark_non_differentiable()"])
@pytest.mark.parametrize("arg", ["x", "x.detach()"])
def test_function_marks_as_torch(marks: str, arg: str) -> None:
    """What a custom Function marks non-differentiable or dirty must be tensors."""
    assert_as_torch(
        "class Fn(L.autograd.Function):\n"
        "    @staticmethod\n"
        f"    def forward(ctx, x):\n        {marks}\n        return x * 2\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n        return g\n"
        f"x = L.tensor([1., 2.], requires_grad=True)\nR = Fn.apply({arg})")


@pytest.mark.parametrize("program", [
    "R = L.tensor(True).masked_fill(m, g)", "R = L.tensor([1, 2, 3]).masked_fill(m, g)",
    "R = L.tensor([1., 2, 3]).masked_fill(m, g)", "R = L.tensor([1, 2, 3]).masked_fill(m, 2.)",
    "with L.no_grad():\n    R = L.tensor([1, 2, 3]).masked_fill(m, g)"])
def test_masked_fill_grad_value_as_torch(program: str) -> None:
    """A value that requires grad cannot fill an integer or bool tensor."""
    assert_as_torch("g = L.tensor(1., requires_grad=True); m = L.ones(1, 3, dtype=L.bool)\n"
                    + program)


@pytest.mark.parametrize("shape", ["(0, 3)", "(3, 0)", "(0,)", "(2, 0, 3)", "(0, 0)", "(2, 3)",
                                   "()"])
@pytest.mark.parametrize("dim", [0, 1, -1, 2, "'a'"])
def test_unique_dims_as_torch(shape: str, dim: Any) -> None:
    """unique along a dim refuses empty slices across other dims, and every dim of a 0-d
    tensor, in torch's words."""
    assert_as_torch(f"R = L.unique(L.zeros({shape}, dtype=L.bool), return_inverse=True, "
                    f"return_counts=True, dim={dim})")


@pytest.mark.parametrize("program", [
    "R = L.nn.functional.interpolate(x, scale_factor=-1)",
    "R = L.nn.functional.interpolate(x, scale_factor=-0.5, mode='bilinear')",
    "R = L.nn.functional.interpolate(x, scale_factor=0.3)",
    "R = L.nn.functional.interpolate(x, scale_factor=(1, -1))",
    "R = L.nn.functional.interpolate(x[0], scale_factor=0.1)",
    "R = L.nn.functional.interpolate(x, scale_factor=-1, recompute_scale_factor=True)",
    "R = L.nn.functional.interpolate(x, size=(0, 2))",
    "R = L.nn.functional.interpolate(x, size=(6, 8), recompute_scale_factor=True)",
    "R = L.nn.functional.interpolate(x, size=(6, 8), recompute_scale_factor=False)",
    "R = L.nn.functional.interpolate(x, size=[6, 8, 1])",
    "R = L.nn.functional.interpolate(x, size=(6.0, 8))",
    "R = L.nn.functional.interpolate(x, size=(6, 8), scale_factor=2, align_corners=True)",
    "R = L.nn.functional.interpolate(x, scale_factor=2, antialias=True)",
    "R = L.nn.functional.interpolate(x[0], scale_factor=2, mode='linear', antialias=True)",
    "R = L.nn.functional.interpolate(x.long(), scale_factor=1.5)",
    "R = L.nn.functional.interpolate(x.bool(), scale_factor=(2, 3), mode='bilinear')",
    "R = L.nn.functional.interpolate(x.long(), scale_factor=1.5, mode='bilinear', "
    "antialias=True)",
    "R = L.nn.functional.interpolate(x[0].long(), scale_factor=1.5, mode='linear')",
    "R = L.nn.functional.interpolate(x[0].bool(), scale_factor=1.5)",
    "R = L.nn.functional.interpolate(L.zeros(1, 0, 3, 4), scale_factor=2)",
    "R = L.nn.functional.interpolate(L.zeros(1, 1, 0, 4), scale_factor=2)",
    "R = L.nn.functional.interpolate(L.zeros(0, 1, 3, 4), scale_factor=2)"])
def test_interpolate_checks_as_torch(program: str) -> None:
    """interpolate checks its arguments in torch's order: align_corners, size or scale,
    recompute_scale_factor, antialias, then the kernel's sizes and dtype."""
    assert_as_torch("x = L.arange(12.).view(1, 1, 3, 4)\n" + program)


@pytest.mark.parametrize("program", [
    "R = L.vmap(lambda x: L.rand(2))(x)", "R = L.vmap(lambda x: x.bernoulli())(x)",
    "R = L.vmap(lambda x: L.nn.functional.dropout(x, 0.5))(x)",
    "R = L.vmap(lambda x: L.nn.functional.dropout(x, 0.5, training=False))(x)",
    "R = L.vmap(lambda x: L.randperm(3))(x)", "R = L.vmap(lambda x: L.rand(2), out_dims=(0, 1))(x)",
    "R = L.vmap(L.vmap(lambda x: L.rand(2), randomness='same'))(L.ones(2, 2, 2))",
    "R = L.vmap(lambda x: x * 2, out_dims='a')(x)", "R = L.vmap(lambda x: x * 2, out_dims=1.5)(x)",
    "R = L.vmap(lambda x: x * 2, out_dims=(0, 0))(x)",
    "R = L.vmap(lambda x: x * 2, out_dims=[0])(x)",
    "R = L.vmap(lambda x: x * 2, out_dims=(1,))(x)",
    "R = L.vmap(lambda x: (x * 2, x + 1), out_dims=(0, 1))(x)",
    "R = L.vmap(lambda x: (x * 2, x + 1), out_dims=(1, None))(x)",
    "R = L.vmap(lambda x: (x * 2, L.ones(2)), out_dims=(1, None))(x)",
    "R = L.vmap(lambda x: (x * 2, 3), out_dims=(1, None))(x)",
    "R = L.vmap(lambda x: {'a': x.sum(), 'b': x}, out_dims={'a': 0, 'b': 1})(x)",
    "R = L.vmap(lambda x: [x * 2], out_dims=(0,))(x)",
    "R = L.vmap(lambda x: (x * 2, x + 1), out_dims=(0, 1))(L.zeros(0, 3))",
    "R = L.vmap(lambda x: [L.ones(2), x], out_dims=[None, 1])(x)"])
def test_vmap_randomness_and_out_dims_as_torch(program: str) -> None:
    """vmap refuses random operations in its default randomness mode, and reads ``out_dims``
    per output as torch does: an int or None each, shaped like a prefix of the outputs."""
    assert_as_torch("x = L.arange(6.).view(2, 3)\n" + program)
