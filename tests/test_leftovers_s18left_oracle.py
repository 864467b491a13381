"""Leftovers of the fuzzing (issues #20, #21), each checked against torch: the parser's
``*dims`` varargs and the order of its refusals, reductions' ``dtype=``, vmap's in-place
refusals, weight_norm's fused node, GroupNorm and conv3d bits."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same, assert_same_error, raised_by


def same_outcome(fn) -> None:
    """``fn(L)`` gives torch's tensor (or value), or raises torch's error."""
    want = raised_by(fn, torch)
    if want is not None:
        assert_same_error(raised_by(fn, mt), want)
        return
    got, expected = fn(mt), fn(torch)
    if isinstance(expected, torch.Tensor):
        assert_same(got, expected)
    else:
        assert got == expected


# ---------------------------------------------------------------- 1. *dims varargs, order

VARARGS = [
    # a method whose only positional parameter is a tuple of ints takes them one by one
    lambda L: L.zeros(1, 1, 3).squeeze(0, 1),
    lambda L: L.zeros(1, 1, 3).squeeze(np.int64(0), 1),
    lambda L: L.zeros(1, 1, 3).squeeze(L.tensor(0), 1),
    lambda L: L.zeros(1, 1, 3).squeeze(0, None),
    lambda L: L.zeros(1, 1, 3).squeeze(0, (1,)),
    lambda L: L.zeros(1, 1, 3).squeeze(1, 1),
    lambda L: L.zeros(1, 1, 3).squeeze(True, 1),
    lambda L: L.zeros(1, 1, 3).squeeze((True, 1)),
    lambda L: L.squeeze(L.zeros(1, 1, 3), (0, 1)),
    lambda L: L.squeeze(L.zeros(1, 1, 3), 0, 1),
    lambda L: L.squeeze(L.zeros(1, 1, 3), (True, 1)),
    lambda L: L.tensor([[0., 1.], [2., 0.]]).count_nonzero(0, 1),
    lambda L: L.tensor([[0., 1.], [2., 0.]]).count_nonzero(0, 1, 1),
    lambda L: L.tensor([[0., 1.], [2., 0.]]).count_nonzero(0, 'a'),
    lambda L: L.tensor([[0., 1.], [2., 0.]]).count_nonzero(0.0, 1),
    lambda L: L.tensor([[0., 1.], [2., 0.]]).count_nonzero(0.0),
    lambda L: L.tensor([[0., 1.], [2., 0.]]).count_nonzero('a'),
    lambda L: L.tensor([[0., 1.], [2., 0.]]).count_nonzero((True, 1)),
    lambda L: L.tensor([[0., 1.], [2., 0.]]).count_nonzero(dims=(0, 1)),
    lambda L: L.count_nonzero(L.tensor([[0., 1.], [2., 0.]]), dim=(0, 1)),
    lambda L: L.count_nonzero(L.tensor([[0., 1.], [2., 0.]]), 0, 1),
    lambda L: L.ones(1, 1).amax((True, 1)),
    lambda L: L.ones(1, 1).nansum((True, 1)),
    lambda L: L.ones(1, 1, 1).flip(0, 1, 1),
    lambda L: L.ones(1, 1, 1).flip(2, 1, 1, 2),
    lambda L: L.ones(1, 2).expand(3, -1, implicit=True),
    lambda L: L.ones(1, 2).expand(3, -1, implicit=1),
    lambda L: L.ones(1, 1).tile(dims=(2, 1)),
    lambda L: L.ones(1, 1).new_zeros(size=(2,)),
    lambda L: L.ones(1, 1).new_ones(size=[2]),
    lambda L: L.ones(1, 1).new_empty(size=(2,)).shape,
    lambda L: L.ones(1, 1).new_zeros(-1),
    lambda L: L.ones(1, 1).new_zeros(2.5, dtype=1),
    lambda L: L.ones(2, 1).sum_to_size(size=(1,)),
    lambda L: L.ones(2, 2).resize_(size=(1,)),
]


@pytest.mark.parametrize("call", VARARGS, ids=range(len(VARARGS)))
def test_int_varargs_are_torchs(call):
    same_outcome(call)


BAD_TWICE = [f"lambda L: L.ones(1, 1).{m}({a})" for m in (
    "permute", "reshape", "repeat", "expand", "tile", "flip", "new_zeros", "new_ones",
    "new_empty", "sum_to_size", "resize_") for a in ("1.5, foo=1", "dim=(0, 1)", "'a', foo=1")]
BAD_TWICE += [f"lambda L: L.{m}(L.ones(1, 1), dim=(0, 1))" for m in (
    "permute", "reshape", "tile", "flip", "roll")]
BAD_TWICE += ["lambda L: L.ones(1, 1).transpose(0, foo=1)",
              "lambda L: L.ones(1, 1).transpose(dims=(0, 1))"]


@pytest.mark.parametrize("call", BAD_TWICE)
def test_the_argument_torchs_parser_reads_first_wins(call):
    """A bad or missing parameter is refused before an unknown keyword, as torch's parser
    reads the parameters before it looks for keywords left over."""
    same_outcome(eval(call))


# ---------------------------------------------------------------- 2. reductions' dtype=

INPUTS = {
    "int": lambda L: L.tensor([[1, 2], [3, 4]]),
    "bool": lambda L: L.tensor([[True, False], [True, True]]),
    "float": lambda L: L.tensor([[1.5, float("nan")], [3.25, 2.75]]),
    "double": lambda L: L.tensor([[0.1, 0.2], [0.3, 1e-9]], dtype=L.float64),
    "int8": lambda L: L.tensor([[100, 100], [3, 4]], dtype=L.int8),
}
DTYPES = ["int64", "int32", "int8", "uint8", "bool", "float16", "float32", "float64"]


def _exact(got, want) -> None:
    """Same dtype, shape and bits (NaNs where torch has them)."""
    assert str(got.dtype) == str(want.dtype) and tuple(got.shape) == tuple(want.shape)
    np.testing.assert_array_equal(got.detach().numpy(), want.detach().numpy())


@pytest.mark.parametrize("op", ["sum", "nansum", "prod", "mean", "nanmean"])
@pytest.mark.parametrize("given", list(INPUTS))
@pytest.mark.parametrize("dtype", DTYPES)
def test_reduction_dtype_keyword_is_torchs(op, given, dtype):
    for call in (lambda L: getattr(L, op)(INPUTS[given](L), dtype=getattr(L, dtype)),
                 lambda L: getattr(L, op)(INPUTS[given](L), 0, dtype=getattr(L, dtype)),
                 lambda L: getattr(INPUTS[given](L), op)(dim=1, keepdim=True,
                                                         dtype=getattr(L, dtype))):
        want = raised_by(call, torch)
        if want is not None:
            assert_same_error(raised_by(call, mt), want)
        else:
            _exact(call(mt), call(torch))


@pytest.mark.parametrize("op", ["cumsum", "cumprod", "softmax", "log_softmax"])
@pytest.mark.parametrize("given", list(INPUTS))
@pytest.mark.parametrize("dtype", DTYPES)
def test_dim_op_dtype_keyword_is_torchs(op, given, dtype):
    def call(L):
        return getattr(L, op)(INPUTS[given](L), 1, dtype=getattr(L, dtype))

    want = raised_by(call, torch)
    if want is not None:
        assert_same_error(raised_by(call, mt), want)
    else:
        _exact(call(mt), call(torch))


@pytest.mark.parametrize("op", ["sum", "nansum"])
def test_a_reductions_cast_is_inside_its_node(op):
    """torch casts as it reduces: ``SumBackward0``/``NansumBackward0`` right above the leaf,
    and the leaf's gradient in its own dtype."""
    results = {}
    for L in (mt, torch):
        x = L.tensor([0.1, float("nan"), 0.3], requires_grad=True)
        y = getattr(L, op)(x, dtype=L.float64)
        y.backward()
        below = type(y.grad_fn.next_functions[0][0]).__name__
        results[L.__name__] = (type(y.grad_fn).__name__, below, str(x.grad.dtype)[6:],
                               repr(y.item()))
    assert results["minitorch"] == results["torch"]


def test_nansum_to_an_integer_dtype_refuses_grad_and_skips_nans():
    same_outcome(lambda L: L.nansum(L.tensor([1.5, float("nan")], requires_grad=True),
                                    dtype=L.int64))
    same_outcome(lambda L: L.nansum(L.tensor([1.5, float("nan"), 2.75]), dtype=L.int64))


@pytest.mark.parametrize("seed", range(6))
def test_float64_softmax_last_dim_is_torchs_bits(seed):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(tuple(rng.integers(1, 40, size=rng.integers(1, 4)))) * 3
    _exact(mt.softmax(mt.tensor(a), -1), torch.softmax(torch.tensor(a), -1))


@pytest.mark.parametrize("seed", range(6))
def test_float16_log_softmax_is_torchs_bits(seed):
    rng = np.random.default_rng(seed)
    a = (rng.standard_normal(tuple(rng.integers(2, 30, size=rng.integers(2, 4)))) * 3
         ).astype(np.float16)
    for dim in (-1, 0):
        _exact(mt.log_softmax(mt.tensor(a), dim), torch.log_softmax(torch.tensor(a), dim))


# ---------------------------------------------------------------- 3. vmap: in-place into the
# unbatched

INPLACE_UNDER_VMAP = [f"lambda y, x: y.{op}(x)" for op in (
    "add_", "sub_", "mul_", "div_", "copy_", "clamp_min_", "clamp_max_", "atan2_",
    "copysign_", "fmod_", "remainder_", "pow_", "hypot_", "eq_", "lt_", "float_power_",
    "xlogy_", "floor_divide_", "true_divide_", "subtract_", "multiply_", "divide_",
    "nextafter_", "heaviside_", "ldexp_", "__iadd__", "__isub__", "__imul__",
    "__itruediv__", "__ipow__", "__ifloordiv__", "__imod__", "lerp_")] + [
    "lambda y, x: y.add_(x, alpha=2)",
    "lambda y, x: y.sub_(x, alpha=2)",
    "lambda y, x: y.mul_(x.sum())",
    "lambda y, x: y.add_(x.sum())",
    "lambda y, x: y.fill_(x.sum())",
    "lambda y, x: y.masked_fill_(x > 0, 1.)",
    "lambda y, x: y.masked_fill_(y > 0, x.sum())",
    "lambda y, x: y.index_add_(0, torch_.tensor([0, 1, 2]), x)",
    "lambda y, x: y.index_copy_(0, torch_.tensor([0, 1, 2]), x)",
    "lambda y, x: y.scatter_add_(0, torch_.tensor([0, 1, 2]), x)",
    "lambda y, x: y.addcmul_(x, x)",
    "lambda y, x: y.lerp_(y, x)",
    "lambda y, x: y.clamp_(min=x)",
    "lambda y, x: y.__setitem__(0, x[0])",
    "lambda y, x: y.zero_() + x",
    "lambda y, x: x.clone().add_(y)",
]
INTS_UNDER_VMAP = [f"lambda y, x: y.{op}(x)" for op in (
    "bitwise_and_", "bitwise_or_", "gcd_", "bitwise_left_shift_", "__iand__", "__ior__",
    "__ixor__", "__ilshift__", "__irshift__")]


@pytest.mark.parametrize("body", INPLACE_UNDER_VMAP + INTS_UNDER_VMAP)
def test_vmap_refuses_a_batched_value_into_an_unbatched_tensor(body):
    ints = body in INTS_UNDER_VMAP

    def call(L):
        fn = eval(body, {"torch_": L})
        y = L.full((3,), 3 if ints else 0.5)
        return L.func.vmap(lambda x: fn(y, x))(L.full((2, 3), 2 if ints else 0.25))

    same_outcome(call)


@pytest.mark.parametrize("self_shape, batch", [((2, 3), (2, 3)), ((4, 3), (2, 3)),
                                                ((3,), (2, 1))])
def test_vmap_add_into_unbatched_names_the_broadcast_shape(self_shape, batch):
    same_outcome(lambda L: L.func.vmap(lambda x: L.zeros(*self_shape).add_(x))(L.ones(*batch)))


def test_lerp_missing_weight_is_an_invalid_combination():
    same_outcome(lambda L: L.ones(3).lerp_(L.ones(3)))
    same_outcome(lambda L: L.lerp(L.ones(3), L.ones(3)))
    same_outcome(lambda L: L.ones(3).lerp_(L.ones(3), 0.5, foo=1))


# ---------------------------------------------------------------- 4. weight_norm's fused node


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_weight_norm_is_torchs_fused_node_bit_for_bit(seed, dtype):
    """torch's ``_weight_norm`` over dim 0 or the last: one ``WeightNormInterfaceBackward0``
    over ``v`` and ``g``; its values and both gradients bit for bit."""
    rng = np.random.default_rng(seed)
    nd = int(rng.integers(1, 4))
    shape = tuple(int(s) for s in rng.integers(1, 30, size=nd))
    v = rng.standard_normal(shape).astype(dtype)
    grad = rng.standard_normal(shape).astype(dtype)
    for dim in sorted({0, nd - 1}):
        g = (rng.random([n if d == dim else 1 for d, n in enumerate(shape)]) + 0.5
             ).astype(dtype)
        got = []
        for L, fn in ((mt, mt.nn.utils.weight_norm.__globals__["_weight_norm"]),
                      (torch, torch._weight_norm)):
            V, G = L.tensor(v, requires_grad=True), L.tensor(g, requires_grad=True)
            w = fn(V, G, dim)
            w.backward(L.tensor(grad))
            nodes = [type(w.grad_fn).__name__] + [type(f).__name__.rsplit(":", 1)[-1]
                                                  for f, _ in w.grad_fn.next_functions]
            got.append((nodes, w.detach().numpy(), V.grad.numpy(), G.grad.numpy()))
        assert got[0][0] == got[1][0]
        for mine, torchs in zip(got[0][1:], got[1][1:]):
            np.testing.assert_array_equal(mine, torchs)


@pytest.mark.parametrize("parametrized", [False, True])
def test_weight_norm_modules_print_torchs_node(parametrized):
    def weight(L):
        L.manual_seed(0)
        lin = L.nn.Linear(4, 3)
        with L.no_grad():
            lin.weight.copy_(L.tensor(np.random.default_rng(0).standard_normal((3, 4))))
        if parametrized:
            return L.nn.utils.parametrizations.weight_norm(lin).weight
        with pytest.warns(FutureWarning):
            lin = L.nn.utils.weight_norm(lin)
        lin(L.ones(2, 4))
        return lin.weight

    got, want = weight(mt), weight(torch)
    assert str(got.grad_fn).split(" ")[0] == str(want.grad_fn).split(" ")[0]
    np.testing.assert_array_equal(got.detach().numpy(), want.detach().numpy())


# ---------------------------------------------------------------- 5. GroupNorm's bits


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("affine", ["none", "weight", "bias", "both"])
def test_group_norm_forward_is_torchs_bits(seed, dtype, affine):
    rng = np.random.default_rng(seed)
    groups, per_group = int(rng.choice([1, 2, 3])), int(rng.integers(1, 5))
    shape = (int(rng.integers(1, 4)), groups * per_group,
             *(int(s) for s in rng.integers(1, 40, size=rng.integers(0, 3))))
    x = (rng.standard_normal(shape) * 2 + 0.5).astype(dtype)
    w = rng.standard_normal(shape[1]).astype(dtype) if affine in ("weight", "both") else None
    b = rng.standard_normal(shape[1]).astype(dtype) if affine in ("bias", "both") else None

    def out(L):
        given = [None if a is None else L.tensor(a) for a in (w, b)]
        return L.nn.functional.group_norm(L.tensor(x), groups, *given, eps=1e-5)

    want = raised_by(out, torch)  # (one value per group: torch refuses it)
    if want is not None:
        assert_same_error(raised_by(out, mt), want)
    else:
        _exact(out(mt), out(torch))
