"""Autograd and torch.func refuse what torch refuses (issue #21), found by the s26 autograd
fuzzer: vmap over a transform (jacrev, jacfwd, vjp, jvp, hessian) whose function reads a
batched value as a number or branches on it; vmap (any randomness) over an op whose result's
shape depends on the values (nonzero, unique, a boolean mask, masked_select's batched mask);
jacrev's float chunk_size; too few gradients for the outputs of ``autograd.grad``/``backward``
refused after the flags and is_grads_batched's batch; a transform's input that requires grad
seen as a leaf of its level; linearize's tangent that is no tensor."""

from __future__ import annotations

import pytest

from tests.oracle import assert_as_torch


def _item(x):
    return x.sin() * x.sum().item()


def _branch(x):
    return x * 2 if x.sum() > 0 else x


def _to_int(x):
    return x * int(x.sum())


def _data(L):
    """Examples whose values give results of different shapes (for nonzero, unique...)."""
    return L.tensor([[1., 0., 1.], [2., 2., 0.]])


VMAPPED = {
    "jacrev_item": lambda L: L.vmap(L.func.jacrev(_item))(L.ones(3, 2)),
    "jacfwd_item": lambda L: L.vmap(L.func.jacfwd(_item))(L.ones(3, 2)),
    "vjp_item": lambda L: L.vmap(lambda x: L.func.vjp(_item, x)[0])(L.ones(3, 2)),
    "jvp_item": lambda L: L.vmap(lambda x: L.func.jvp(_item, (x,), (x,))[1])(L.ones(3, 2)),
    "hessian_item": lambda L: L.vmap(L.func.hessian(lambda x: _item(x).sum()))(L.ones(3, 2)),
    "jacrev_branch": lambda L: L.vmap(L.func.jacrev(_branch))(L.ones(3, 2)),
    "jacrev_int": lambda L: L.vmap(L.func.jacrev(_to_int))(L.ones(3, 2)),
    "jacrev_no_item": lambda L: L.vmap(L.func.jacrev(lambda x: x.sin() * 2))(L.ones(3, 2)),
    "jacfwd_no_item": lambda L: L.vmap(L.func.jacfwd(lambda x: x.exp()))(L.ones(3, 2)),
    "nonzero_different": lambda L: L.vmap(lambda x: x.nonzero(), randomness="different")(
        L.ones(2, 2, 3)),
    "nonzero_different_dims": lambda L: L.vmap(lambda x: x.nonzero(), in_dims=2, out_dims=2,
                                               randomness="different")(L.ones(2, 2, 3)),
    "item_different": lambda L: L.vmap(lambda x: x * x.sum().item(), randomness="different")(
        L.ones(2, 3)),
    "different_still_maps": lambda L: L.vmap(lambda x: x * 2 + 1, randomness="different")(
        L.ones(2, 3)),
    "nonzero_function": lambda L: L.vmap(L.nonzero)(_data(L)),
    "argwhere_batches": lambda L: L.vmap(L.argwhere)(_data(L)),
    "unique_method": lambda L: L.vmap(lambda x: x.unique())(_data(L)),
    "unique_function_inverse": lambda L: L.vmap(
        lambda x: L.unique(x, return_inverse=True)[1])(_data(L)),
    "unique_dim": lambda L: L.vmap(lambda x: x.unique(dim=0))(_data(L)),
    "unique_consecutive": lambda L: L.vmap(lambda x: x.unique_consecutive())(_data(L)),
    "boolean_mask_index": lambda L: L.vmap(lambda x: x[x > 0])(_data(L)),
    "unbatched_boolean_mask": lambda L: L.vmap(lambda x: x[L.tensor([True, False, True])])(
        _data(L)),
    "masked_select_batched_mask": lambda L: L.vmap(lambda x: x.masked_select(x > 0))(_data(L)),
    "masked_select_function": lambda L: L.vmap(lambda x: L.masked_select(x, x > 0))(_data(L)),
    "masked_select_unbatched_mask": lambda L: L.vmap(
        lambda x: x.masked_select(L.tensor([True, False, True])))(_data(L)),
    "vjp_unique": lambda L: L.vmap(lambda x: L.func.vjp(lambda v: v.unique(), x)[0])(_data(L)),
    "jacrev_boolean_mask": lambda L: L.vmap(L.func.jacrev(lambda v: v[v > 0]))(_data(L)),
}


@pytest.mark.parametrize("name", VMAPPED)
def test_vmap_refuses_what_torch_batching_refuses(name):
    assert_as_torch(VMAPPED[name])


CHUNKS = {
    "float_splits": lambda L: L.func.jacrev(L.sin, chunk_size=1.5)(L.ones(2)),
    "integral_float_splits": lambda L: L.func.jacrev(L.sin, chunk_size=1.0)(L.ones(3)),
    "float_one_chunk": lambda L: L.func.jacrev(L.sin, chunk_size=2.5)(L.ones(2)),
    "float_empty_output": lambda L: L.func.jacrev(L.sin, chunk_size=0.5)(L.ones(0)),
    "int_splits": lambda L: L.func.jacrev(L.sin, chunk_size=1)(L.ones(3)),
}


@pytest.mark.parametrize("name", CHUNKS)
def test_jacrev_chunk_size(name):
    assert_as_torch(CHUNKS[name])


def _scalar(L):
    x = L.ones((), requires_grad=True)
    return x, x * 2


COUNTS = {
    "batched_0d_first": lambda L: L.autograd.grad([_scalar(L)[1], 1.0], [L.ones(1)], [None],
                                                 is_grads_batched=True),
    "retain_graph_parsed_first": lambda L: (lambda x, y: L.autograd.grad(
        [y, y], [x], [None], retain_graph="x"))(*_scalar(L)),
    "allow_unused_parsed_first": lambda L: (lambda x, y: L.autograd.grad(
        [y, y], [x], [None], allow_unused="x"))(*_scalar(L)),
    "backward_create_graph_first": lambda L: (lambda x, y: L.autograd.backward(
        [y, y], [None], create_graph=[1]))(*_scalar(L)),
    "too_few": lambda L: (lambda x, y: L.autograd.grad([y, y], [x], [None]))(*_scalar(L)),
    "too_many_ignored": lambda L: (lambda x, y: L.autograd.grad([y], [x], [None, None]))(
        *_scalar(L)),
}


@pytest.mark.parametrize("name", COUNTS)
def test_gradient_count_checked_where_torch_checks_it(name):
    assert_as_torch(COUNTS[name])


def _seen_inside(L, transform):
    seen = []

    def f(x):
        seen.extend([x.is_leaf, x.grad_fn is None, x._base is None, x._is_view(),
                     x.requires_grad])
        return (x * x).sum()

    x = L.ones(3, requires_grad=True)
    {"grad": lambda: L.func.grad(f)(x), "vjp": lambda: L.func.vjp(f, x),
     "jacrev": lambda: L.func.jacrev(f)(x),
     "grad_and_value": lambda: L.func.grad_and_value(f)(x)}[transform]()
    return seen


@pytest.mark.parametrize("transform", ["grad", "vjp", "jacrev", "grad_and_value"])
def test_input_requiring_grad_is_a_leaf_inside(transform):
    assert_as_torch(lambda L: _seen_inside(L, transform))


def test_input_requiring_grad_still_links_outside():
    """The gradient that grad returns stays differentiable for the caller's tensor."""
    def program(L):
        x = L.tensor([1., 2.], requires_grad=True)
        g = L.func.grad(lambda t: (t ** 3).sum())(x)
        (gg,) = L.autograd.grad(g.sum(), x)
        return g, gg

    assert_as_torch(program)


LINEARIZED = {
    "none": lambda L: L.func.linearize(L.sin, L.ones(2))[1](None),
    "float": lambda L: L.func.linearize(L.sin, L.ones(2))[1](1.0),
    "list_of_float": lambda L: L.func.linearize(L.sin, L.ones(2))[1]([1.0]),
    "tensor": lambda L: L.func.linearize(L.sin, L.ones(2))[1](L.ones(2)),
    "wrong_shape": lambda L: L.func.linearize(L.sin, L.ones(2))[1](L.ones(3)),
}


@pytest.mark.parametrize("name", LINEARIZED)
def test_linearize_tangent_that_is_no_tensor(name):
    """torch's jvp_fn reads a tangent's shape, device and dtype in turn: a non-tensor fails
    at the first, with Python's AttributeError."""
    assert_as_torch(LINEARIZED[name])
