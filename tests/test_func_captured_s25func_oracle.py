"""torch.func's transforms refuse what torch refuses (issue #21): an in-place write, inside
grad/vjp/jvp/jacrev/jacfwd/hessian, into a tensor the transformed function did not make (a
captured tensor, a view or detach of one, a BatchNorm's num_batches_tracked), named by its
aten overload; and a training batch norm of a batched input whose running statistics are
not batched, under vmap. What torch lets through (writes into the inputs, into tensors made
inside, into out=, under linearize or vmap alone) still runs."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.oracle import SETTINGS, assert_as_torch

TRANSFORMS = ["grad", "vjp", "jvp", "jacrev", "jacfwd", "vmap", "linearize", "grad_grad",
              "hessian"]

WRITES = {
    "add_number": lambda L, c, x: c.add_(1),
    "add_tensor": lambda L, c, x: c.add_(x),
    "sub_alpha": lambda L, c, x: c.sub_(x, alpha=2),
    "div_mode": lambda L, c, x: c.div_(2, rounding_mode="floor"),
    "pow_number": lambda L, c, x: c.pow_(2),
    "pow_tensor": lambda L, c, x: c.pow_(x),
    "fill_number": lambda L, c, x: c.fill_(2),
    "fill_tensor": lambda L, c, x: c.fill_(x[0]),
    "clamp_numbers": lambda L, c, x: c.clamp_(0, 1),
    "clamp_tensor": lambda L, c, x: c.clamp_(min=x),
    "masked_fill": lambda L, c, x: c.masked_fill_(c > 0, 1.0),
    "lerp": lambda L, c, x: c.lerp_(x, 0.5),
    "scatter_value": lambda L, c, x: c.scatter_(0, L.tensor([0]), 1.0),
    "index_fill": lambda L, c, x: c.index_fill_(0, L.tensor([0]), 1.0),
    "bernoulli": lambda L, c, x: c.bernoulli_(0.5),
    "random_to": lambda L, c, x: c.random_(3),
    "squeeze_dim": lambda L, c, x: c.squeeze_(0),
    "zero": lambda L, c, x: c.zero_(),
    "copy": lambda L, c, x: c.copy_(x),
    "setitem_basic": lambda L, c, x: c.__setitem__(0, x[0]),
    "setitem_number": lambda L, c, x: c.__setitem__(slice(None), 5.0),
    "setitem_index": lambda L, c, x: c.__setitem__(L.tensor([0]), 1.0),
    "setitem_mask": lambda L, c, x: c.__setitem__(L.tensor([True, False, True]), 1.0),
    "setitem_0d_mask": lambda L, c, x: c.__setitem__(L.tensor(True), 1.0),
    "setitem_0d_index": lambda L, c, x: c.__setitem__(L.tensor(0), 1.0),
    "setitem_list": lambda L, c, x: c.__setitem__([0, 1], 1.0),
    "iadd": lambda L, c, x: c.__iadd__(1),
    "imul_tensor": lambda L, c, x: c.__imul__(x),
    "view_of_captured": lambda L, c, x: c.view(-1).mul_(2),
    "detach_of_captured": lambda L, c, x: c.detach().add_(1),
    "under_no_grad": lambda L, c, x: _no_grad(L, lambda: c.add_(1)),
    "unsqueeze": lambda L, c, x: c.unsqueeze_(0),
    "xlogy_number": lambda L, c, x: c.xlogy_(2),
    # what torch lets through
    "made_inside": lambda L, c, x: L.zeros(3).add_(1),
    "view_made_inside": lambda L, c, x: L.zeros(3)[:2].add_(1),
    "clone_of_captured": lambda L, c, x: c.clone().add_(1),
    "input_detached": lambda L, c, x: x.detach().add_(1),
    "intermediate": lambda L, c, x: (x * 2).add_(1),
    "out_captured": lambda L, c, x: L.add(L.ones(3), 1, out=c),
}


def _no_grad(L, fn):
    with L.no_grad():
        fn()


def _transformed(L, write, transform):
    captured = L.zeros(3)

    def f(x):
        write(L, captured, x)
        return (x * x).sum()

    x = L.ones(3)
    if transform == "grad":
        return L.func.grad(f)(x)
    if transform == "vjp":
        return L.func.vjp(f, x)[0]
    if transform == "jvp":
        return L.func.jvp(f, (x,), (L.ones(3),))
    if transform == "jacrev":
        return L.func.jacrev(f)(x)
    if transform == "jacfwd":
        return L.func.jacfwd(f)(x)
    if transform == "vmap":
        return L.func.vmap(f)(L.ones(2, 3))
    if transform == "linearize":
        return L.func.linearize(f, x)[0]
    if transform == "hessian":
        return L.func.hessian(f)(x)
    return L.func.grad(L.func.grad(lambda y: f(y).sin()))(L.ones(()).expand(3).clone()[0:1].sum())


@pytest.mark.parametrize("write", list(WRITES))
@pytest.mark.parametrize("transform", ["grad", "jvp", "vmap"])
def test_write_into_captured_tensor(write, transform):
    assert_as_torch(lambda L: _transformed(L, WRITES[write], transform), compare=_loose)


@given(st.sampled_from(list(WRITES)), st.sampled_from(TRANSFORMS))
@SETTINGS
def test_write_under_each_transform(write, transform):
    assert_as_torch(lambda L: _transformed(L, WRITES[write], transform), compare=_loose)


def _loose(got, want):
    assert tuple(got.shape) == tuple(want.shape)


def test_write_into_the_input_itself():
    # jvp's primal is its own to write; grad's is a leaf that requires grad
    assert_as_torch(lambda L: L.func.jvp(lambda x: x.add_(1), (L.ones(2),), (L.ones(2),)))
    assert_as_torch(lambda L: L.func.grad(lambda x: x.add_(1).sum())(L.ones(2)))


def test_tensor_of_an_earlier_transform_is_captured():
    def program(L):
        kept = []
        L.func.grad(lambda x: (kept.append(L.zeros(2)), x.sum())[1])(L.ones(2))
        return L.func.grad(lambda x: (kept[0].add_(1), x.sum())[1])(L.ones(2))

    assert_as_torch(program)


def test_nested_transform_captures_the_outer_ones_tensor():
    def program(L):
        def outer(x):
            made = L.zeros(())
            inner = L.func.grad(lambda y: (made.add_(1), (y * y).sum())[1])(x)
            return inner.sum()

        return L.func.grad(outer)(L.ones(2))

    assert_as_torch(program)


@pytest.mark.parametrize("transform", ["grad", "jacrev", "jacfwd", "vjp", "jvp", "hessian"])
def test_batchnorm_module_in_training_counts_batches_in_place(transform):
    def program(L):
        m = L.nn.BatchNorm1d(3)
        x = L.linspace(-1, 1, 12).reshape(4, 3)
        f = (lambda t: m(t).sum()) if transform in ("grad", "hessian") else m
        if transform == "vjp":
            return L.func.vjp(f, x)[0]
        if transform == "jvp":
            return L.func.jvp(f, (x,), (x,))[0]
        return getattr(L.func, transform)(f)(x)

    assert_as_torch(program)


@pytest.mark.parametrize("track", [True, False])
@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_under_vmap_needs_batched_running_stats(track, training):
    def program(L):
        m = L.nn.BatchNorm1d(3, track_running_stats=track).train(training)
        return L.func.vmap(m)(L.linspace(-1, 1, 24).reshape(2, 4, 3))

    assert_as_torch(program)


@pytest.mark.parametrize("stats", ["none", "plain", "batched"])
def test_functional_norms_under_vmap(stats):
    def program(L):
        x = L.linspace(-1, 1, 24).reshape(2, 4, 3)
        mean = None if stats == "none" else L.zeros(2, 3) if stats == "batched" else L.zeros(3)
        var = None if stats == "none" else L.ones(2, 3) if stats == "batched" else L.ones(3)
        dims = (0, 0, 0) if stats == "batched" else (0, None, None)
        bn = L.func.vmap(lambda t, m, v: L.nn.functional.batch_norm(t, m, v, training=True),
                         in_dims=dims)(x, mean, var)
        inorm = L.func.vmap(lambda t, m, v: L.nn.functional.instance_norm(
            t.unsqueeze(0).transpose(1, 2), m, v), in_dims=dims)(x, mean, var)
        return bn, inorm

    assert_as_torch(program, compare=_loose)


OUTPUTS = {
    "tensor": lambda L: L.ones(3),
    "tuple": lambda L: (L.ones(3), L.ones(2)),
    "dict": lambda L: {"a": L.ones(3)},
    "int": lambda L: 3,
}


@pytest.mark.parametrize("inputs", [{}, (), [], ((), [])], ids=["dict", "tuple", "list", "nested"])
@pytest.mark.parametrize("output", list(OUTPUTS))
@pytest.mark.parametrize("transform", ["jacrev", "jacfwd", "hessian"])
def test_jacobian_over_no_input_element(inputs, output, transform):
    # torch: jacrev has no leaves to unflatten into the output's tree; jacfwd none to stack
    assert_as_torch(lambda L: getattr(L.func, transform)(lambda p: OUTPUTS[output](L))(inputs))


@given(st.lists(st.integers(1, 3), min_size=0, max_size=2), st.integers(2, 5),
       st.sampled_from(["matmul", "linear", "linear_bias", "module"]))
@SETTINGS
def test_vmapped_product_with_wrong_inner_size_names_the_folded_batch(lead, inner, form):
    def program(L):
        x = L.ones(2, *lead, inner)
        if form == "matmul":
            return L.func.vmap(lambda v: v @ L.ones(3, 2))(x)
        if form == "module":
            return L.func.vmap(L.nn.Linear(3, 2))(x)
        bias = L.ones(2) if form == "linear_bias" else None
        return L.func.vmap(lambda v: L.nn.functional.linear(v, L.ones(2, 3), bias))(x)

    assert_as_torch(program, compare=_loose)


CONVS = {
    "channels": lambda L: L.func.vmap(L.nn.Conv1d(3, 2, 1))(L.ones(2, 5, 1)),
    "channels_batched_examples": lambda L: L.func.vmap(L.nn.Conv1d(3, 2, 1))(L.ones(2, 4, 5, 1)),
    "channels_2d": lambda L: L.func.vmap(L.nn.Conv2d(3, 2, 1))(L.ones(2, 5, 2, 2)),
    "weight_rank": lambda L: L.func.vmap(
        lambda x: L.nn.functional.conv1d(x, L.ones(2, 3, 1, 1)))(L.ones(2, 3, 1)),
    "bias_size": lambda L: L.func.vmap(
        lambda x: L.nn.functional.conv1d(x, L.ones(2, 3, 1), L.ones(3)))(L.ones(2, 3, 1)),
    "groups": lambda L: L.func.vmap(
        lambda x: L.nn.functional.conv1d(x, L.ones(2, 3, 1), groups=3))(L.ones(2, 3, 1)),
    "fits": lambda L: L.func.vmap(L.nn.Conv1d(3, 2, 1))(L.ones(2, 4, 3, 1)),
}


@pytest.mark.parametrize("case", list(CONVS))
def test_vmapped_convolution_checks_the_folded_batch(case):
    assert_as_torch(CONVS[case], compare=_loose)


NESTED_WRITES = {
    "add_": lambda L, c, x: c.add_(x),
    "copy_": lambda L, c, x: c.copy_(x),
    "mul_": lambda L, c, x: c.mul_(x),
    "fill_": lambda L, c, x: c.fill_(x[0]),
    "index_add_": lambda L, c, x: c.index_add_(0, L.tensor([0]), x[:1]),
    "lerp_": lambda L, c, x: c.lerp_(x, 0.5),
    "normal_": lambda L, c, x: c.normal_(),  # (vmap's randomness rule first, inside a vmap)
}


@pytest.mark.parametrize("nest", ["grad_of_vmap", "vmap_of_grad"])
@pytest.mark.parametrize("write", list(NESTED_WRITES))
def test_batched_write_into_captured_tensor_which_level_refuses_first(write, nest):
    def program(L):
        c = L.zeros(3, dtype=L.float64)

        def body(x):
            NESTED_WRITES[write](L, c, x)
            return (x * x).sum()

        if nest == "grad_of_vmap":
            return L.func.grad(lambda y: L.func.vmap(body)(y.unsqueeze(0)).sum())(
                L.ones(3, dtype=L.float64))
        return L.func.vmap(L.func.grad(body))(L.ones(2, 3, dtype=L.float64))

    assert_as_torch(program, compare=_loose)


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("lead", [(), (4,)])
def test_vmapped_linear_of_another_dtype_names_the_folded_product(bias, lead):
    def program(L):
        b = L.ones(2, dtype=L.float64) if bias else None
        return L.func.vmap(lambda v: L.nn.functional.linear(v, L.ones(2, 3, dtype=L.float64), b))(
            L.ones(2, *lead, 3, dtype=L.int64))

    assert_as_torch(program, compare=_loose)
