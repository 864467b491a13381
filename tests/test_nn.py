"""``minitorch.nn`` against live torch: modules, functional, init, state_dict, repr, errors.

Most tests build the same model twice, as ``build(L)`` with ``L = minitorch`` and
``L = torch``, copy minitorch's weights into torch through ``state_dict``, and require the
same outputs, gradients, graph nodes, printed forms and error messages (float64 throughout).
"""

from __future__ import annotations

import copy
import doctest
import math
import pickle
import warnings
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
from oracle import assert_same, assert_same_error, mt, numpy_of, raised_by

import minitorch
from minitorch.nn import (
    activation,
    batchnorm,
    container,
    dropout,
    flatten,
    functional,
    init,
    linear,
    loss,
    module,
    parameter,
    pooling,
)

RNG = np.random.default_rng(2024)


# ---------------------------------------------------------------------------- helpers
def to_torch(t: Any) -> torch.Tensor:
    return torch.from_numpy(numpy_of(t).copy())


def to_mt(t: Any) -> Any:
    return mt.tensor(numpy_of(t))


def twin_modules(build: Callable[[Any], Any]) -> tuple[Any, Any]:
    """``build(minitorch)`` and ``build(torch)`` in float64 with minitorch's weights."""
    ours, theirs = build(mt).double(), build(torch).double()
    theirs.load_state_dict({k: to_torch(v) for k, v in ours.state_dict().items()})
    return ours, theirs


def twin_inputs(*shapes: tuple, requires_grad: bool = True) -> tuple[list, list]:
    arrays = [RNG.standard_normal(s) for s in shapes]
    return ([mt.tensor(a, requires_grad=requires_grad) for a in arrays],
            [torch.tensor(a, requires_grad=requires_grad) for a in arrays])


def graph_names(node: Any, depth: int = 5) -> Any:
    """The backward graph below ``node`` as nested (name, children) tuples."""
    if node is None:
        return None
    if depth == 0:
        return type(node).__name__
    return (type(node).__name__,
            tuple(graph_names(fn, depth - 1) for fn, _ in node.next_functions))


def backward_with_weights(y: Any, weights: np.ndarray, L: Any) -> None:
    """``(y * weights).sum().backward()``: a gradient that differs per element."""
    (y * L.tensor(weights)).sum().backward()


def assert_grads(ours: list, theirs: list) -> None:
    for i, (a, b) in enumerate(zip(ours, theirs)):
        assert (a.grad is None) == (b.grad is None), f"grad {i} presence"
        if b.grad is not None:
            assert_same(a.grad, b.grad, f"grad {i}")


def assert_params_match(ours: Any, theirs: Any, grads: bool = True) -> None:
    got, want = dict(ours.named_parameters()), dict(theirs.named_parameters())
    assert list(got) == list(want)
    for name in want:
        assert_same(got[name].detach(), want[name].detach(), name)
        if grads and want[name].grad is not None:
            assert_same(got[name].grad, want[name].grad, f"{name}.grad")


def seed_mlp(L: Any) -> Any:
    """The MLP of seed 000: two heads on a shared hidden layer."""

    class MLP(L.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc1 = L.nn.Linear(10, 5)
            self.relu = L.nn.ReLU()
            self.fc2 = L.nn.Linear(5, 2)
            self.fc3 = L.nn.Linear(5, 2)
            self.fc4 = L.nn.Linear(2, 2)

        def forward(self, x: Any) -> Any:
            x = self.relu(self.fc1(x))
            x1 = self.fc2(x)
            x2 = self.fc4(self.relu(self.fc3(x)))
            return x1 + x2

    return MLP()


def zoo(L: Any) -> Any:
    """A model with every kind of child: parameters, buffers, nesting, absent bias."""
    nn = L.nn
    return nn.Sequential(
        nn.Linear(2, 3), nn.ReLU(), nn.Sequential(nn.Linear(3, 1), nn.Sigmoid()),
        nn.Dropout(0.2), nn.BatchNorm1d(3), nn.BatchNorm2d(3, affine=False),
        nn.AvgPool2d(2), nn.AvgPool2d(3, 1), nn.MSELoss(), nn.CrossEntropyLoss(), nn.NLLLoss(),
        nn.Flatten(), nn.Identity(), nn.Tanh(), nn.ReLU(True), nn.Softmax(dim=1),
        nn.LogSoftmax(1), nn.Linear(2, 3, bias=False), seed_mlp(L),
        nn.BatchNorm1d(2, momentum=None, track_running_stats=False, bias=False),
    )


# ---------------------------------------------------------------------------- the seed's MLP
def test_seed_mlp_gradient_of_x_matches_torch() -> None:
    ours, theirs = twin_modules(seed_mlp)
    (x,), (tx,) = twin_inputs((10,))
    y, ty = ours(x), theirs(tx)
    assert graph_names(y.grad_fn, 8) == graph_names(ty.grad_fn, 8)
    y.sum().backward()
    ty.sum().backward()
    assert_same(x.grad, tx.grad, "x.grad")
    assert_params_match(ours, theirs)


def test_float32_classifier_keeps_its_dtype_and_matches_torch() -> None:
    def build(L: Any) -> Any:
        nn = L.nn
        return nn.Sequential(nn.Linear(6, 5), nn.BatchNorm1d(5), nn.ReLU(), nn.Dropout(0.5),
                             nn.Linear(5, 3))

    ours, theirs = build(mt).eval(), build(torch).eval()
    theirs.load_state_dict({k: to_torch(v) for k, v in ours.state_dict().items()})
    data = RNG.standard_normal((4, 6)).astype(np.float32)
    x, tx = mt.tensor(data, requires_grad=True), torch.tensor(data, requires_grad=True)
    labels = [0, 2, 1, 2]
    value = mt.nn.functional.cross_entropy(ours(x), mt.tensor(labels))
    tvalue = torch.nn.functional.cross_entropy(theirs(tx), torch.tensor(labels))
    assert_same(value, tvalue)
    value.backward()
    tvalue.backward()
    assert_same(x.grad, tx.grad, "x.grad")
    assert_params_match(ours, theirs)


def test_seed_mlp_state_dict_loads_into_a_fresh_model() -> None:
    first = seed_mlp(mt)
    second = seed_mlp(mt)
    assert second.load_state_dict(first.state_dict()).missing_keys == []
    x = mt.ones(10)
    assert first(x).equal(second(x))


# ---------------------------------------------------------------------------- functional
@pytest.mark.parametrize("shape", [(3,), (2, 3), (4, 2, 3), (2, 2, 2, 3)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_values_grads_and_nodes(shape: tuple, bias: bool) -> None:
    (x, w, b), (tx, tw, tb) = twin_inputs(shape, (5, 3), (5,))
    y = mt.nn.functional.linear(x, w, b if bias else None)
    ty = torch.nn.functional.linear(tx, tw, tb if bias else None)
    assert_same(y, ty)
    assert graph_names(y.grad_fn) == graph_names(ty.grad_fn)
    weights = RNG.standard_normal(ty.shape)
    backward_with_weights(y, weights, mt)
    backward_with_weights(ty, weights, torch)
    assert_grads([x, w, b], [tx, tw, tb])


ACTIVATIONS = {
    "relu": lambda L, x: L.nn.functional.relu(x),
    "relu_inplace": lambda L, x: L.nn.functional.relu(x * 1, inplace=True),
    "sigmoid": lambda L, x: L.nn.functional.sigmoid(x),
    "tanh": lambda L, x: L.nn.functional.tanh(x),
    "softmax": lambda L, x: L.nn.functional.softmax(x, dim=1),
    "log_softmax": lambda L, x: L.nn.functional.log_softmax(x, dim=0),
    "ReLU": lambda L, x: L.nn.ReLU()(x),
    "Sigmoid": lambda L, x: L.nn.Sigmoid()(x),
    "Tanh": lambda L, x: L.nn.Tanh()(x),
    "Softmax": lambda L, x: L.nn.Softmax(dim=-1)(x),
    "LogSoftmax": lambda L, x: L.nn.LogSoftmax(dim=1)(x),
    "Flatten": lambda L, x: L.nn.Flatten(0)(x),
    "Identity": lambda L, x: L.nn.Identity(3, key=4)(x) * 2,
}


@pytest.mark.parametrize("name", ACTIVATIONS)
def test_activation_values_grads_and_nodes(name: str) -> None:
    (x,), (tx,) = twin_inputs((3, 4))
    y, ty = ACTIVATIONS[name](mt, x), ACTIVATIONS[name](torch, tx)
    assert_same(y, ty)
    assert graph_names(y.grad_fn) == graph_names(ty.grad_fn)
    weights = RNG.standard_normal(ty.shape)
    backward_with_weights(y, weights, mt)
    backward_with_weights(ty, weights, torch)
    assert_same(x.grad, tx.grad, "x.grad")


def test_softmax_without_dim_warns_like_torch() -> None:
    (x,), (tx,) = twin_inputs((2, 3))
    with pytest.warns(UserWarning) as ours:
        y = mt.nn.functional.softmax(x)
    with pytest.warns(UserWarning) as theirs:
        ty = torch.nn.functional.softmax(tx)
    assert [str(w.message) for w in ours] == [str(w.message) for w in theirs]
    assert ours[0].filename == __file__
    assert_same(y, ty)


@pytest.mark.parametrize("kernel,stride", [(2, None), (3, 1), ((2, 1), (1, 2))])
def test_avg_pool2d_matches_torch(kernel: Any, stride: Any) -> None:
    (x,), (tx,) = twin_inputs((2, 3, 5, 6))
    y = mt.nn.AvgPool2d(kernel, stride)(x)
    ty = torch.nn.AvgPool2d(kernel, stride)(tx)
    assert_same(y, ty)
    assert graph_names(y.grad_fn) == graph_names(ty.grad_fn)
    weights = RNG.standard_normal(ty.shape)
    backward_with_weights(y, weights, mt)
    backward_with_weights(ty, weights, torch)
    assert_same(x.grad, tx.grad, "x.grad")


def test_seed_avg_pool_jacobian_has_the_seeds_shape() -> None:
    pool = mt.nn.AvgPool2d(kernel_size=2)

    def mat_func(x: Any) -> Any:
        return pool(x.reshape((1, 1, *x.shape))).reshape(2, 2) ** 2

    x = mt.tensor(RNG.standard_normal((4, 4)), requires_grad=True)
    y = mat_func(x)
    y.sum().backward()
    # d/dx (mean of the window)² = 2 · mean / 4 on every element of the window
    means = numpy_of(x).reshape(2, 2, 2, 2).mean(axis=(1, 3))
    expected = np.kron(2 * means / 4, np.ones((2, 2)))
    np.testing.assert_allclose(numpy_of(x.grad), expected, rtol=1e-6)


# ---------------------------------------------------------------------------- losses
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("kind", ["CrossEntropyLoss", "NLLLoss", "MSELoss"])
def test_losses_match_torch(kind: str, reduction: str) -> None:
    (x,), (tx,) = twin_inputs((6, 4))
    if kind == "MSELoss":
        (target,), (ttarget,) = twin_inputs((6, 4))
    else:
        labels = RNG.integers(0, 4, size=6)
        target, ttarget = mt.tensor(labels), torch.tensor(labels)
    value = getattr(mt.nn, kind)(reduction=reduction)(x, target)
    tvalue = getattr(torch.nn, kind)(reduction=reduction)(tx, ttarget)
    assert_same(value, tvalue)
    assert graph_names(value.grad_fn) == graph_names(tvalue.grad_fn)
    weights = RNG.standard_normal(tvalue.shape)
    backward_with_weights(value, weights, mt)
    backward_with_weights(tvalue, weights, torch)
    assert_grads([x, target], [tx, ttarget])


def test_mse_loss_broadcasts_with_torchs_warning() -> None:
    (x, target), (tx, ttarget) = twin_inputs((3, 4), (4,))
    with pytest.warns(UserWarning) as ours:
        value = mt.nn.functional.mse_loss(x, target)
    with pytest.warns(UserWarning) as theirs:
        tvalue = torch.nn.functional.mse_loss(tx, ttarget)
    assert [str(w.message) for w in ours] == [str(w.message) for w in theirs]
    assert_same(value, tvalue)
    value.backward()
    tvalue.backward()
    assert_grads([x, target], [tx, ttarget])


# ---------------------------------------------------------------------------- dropout
def test_dropout_in_training_zeroes_with_probability_p_and_rescales() -> None:
    mt.manual_seed(0)
    p = 0.3
    x = mt.ones(200, 500, dtype=mt.float64, requires_grad=True)
    y = mt.nn.Dropout(p)(x)
    values = numpy_of(y)
    assert set(np.unique(values)) <= {0.0, 1 / (1 - p)}
    n = values.size
    assert abs((values == 0).mean() - p) < 4 * math.sqrt(p * (1 - p) / n)
    assert type(y.grad_fn).__name__ == "MulBackward0"
    assert [fn is None for fn, _ in y.grad_fn.next_functions] == [False, True]
    y.sum().backward()
    np.testing.assert_array_equal(numpy_of(x.grad), values)  # d(x·mask)/dx = mask


def test_dropout_mask_follows_manual_seed() -> None:
    x = mt.ones(50)
    mt.manual_seed(7)
    first = mt.nn.functional.dropout(x, 0.5)
    mt.manual_seed(7)
    assert mt.nn.functional.dropout(x, 0.5).equal(first)


@pytest.mark.parametrize("case", ["eval", "p0", "numel0"])
def test_dropout_returns_its_input_where_torch_does(case: str) -> None:
    def run(L: Any) -> tuple[Any, Any]:
        x = L.ones(0 if case == "numel0" else 3, requires_grad=True)
        drop = L.nn.Dropout(0.0 if case == "p0" else 0.5)
        return x, (drop.eval() if case == "eval" else drop)(x)

    x, y = run(mt)
    tx, ty = run(torch)
    assert (y is x) == (ty is tx) is True


def test_dropout_p1_and_inplace_match_torch() -> None:
    def run(L: Any, p: float, inplace: bool) -> tuple[Any, Any]:
        h = L.ones(4, requires_grad=True) * 1
        return h, L.nn.functional.dropout(h, p, training=True, inplace=inplace)

    for p, inplace in [(1.0, False), (1.0, True), (0.5, True)]:
        h, y = run(mt, p, inplace)
        th, ty = run(torch, p, inplace)
        assert (y is h) == (ty is th)
        assert type(y.grad_fn).__name__ == type(ty.grad_fn).__name__
        if p == 1.0:
            assert_same(y, ty)


# ---------------------------------------------------------------------------- batch norm
BATCH_NORMS = {
    "1d": (lambda L: L.nn.BatchNorm1d(4), (8, 4)),
    "1d_3D_input": (lambda L: L.nn.BatchNorm1d(4, momentum=0.3), (5, 4, 3)),
    "2d": (lambda L: L.nn.BatchNorm2d(4), (3, 4, 2, 3)),
    "no_affine": (lambda L: L.nn.BatchNorm1d(4, affine=False), (8, 4)),
    "no_bias": (lambda L: L.nn.BatchNorm2d(4, bias=False), (3, 4, 2, 2)),
    "cumulative": (lambda L: L.nn.BatchNorm1d(4, momentum=None), (6, 4)),
    "untracked": (lambda L: L.nn.BatchNorm1d(4, track_running_stats=False), (6, 4)),
}


def _randomize_affine(ours: Any, theirs: Any) -> None:
    with torch.no_grad():
        for p in theirs.parameters():
            p.copy_(torch.tensor(RNG.uniform(0.5, 2.0, p.shape)))
    ours.load_state_dict({k: to_mt(v) for k, v in theirs.state_dict().items()})


@pytest.mark.parametrize("name", BATCH_NORMS)
def test_batch_norm_train_then_eval_matches_torch(name: str) -> None:
    build, shape = BATCH_NORMS[name]
    ours, theirs = twin_modules(build)
    _randomize_affine(ours, theirs)
    for training in (True, True, True, False):
        ours.train(training)
        theirs.train(training)
        (x,), (tx,) = twin_inputs(shape)
        y, ty = ours(x), theirs(tx)
        assert_same(y, ty)
        assert graph_names(y.grad_fn) == graph_names(ty.grad_fn)
        weights = RNG.standard_normal(shape)
        backward_with_weights(y, weights, mt)
        backward_with_weights(ty, weights, torch)
        assert_same(x.grad, tx.grad, "x.grad")
        assert_params_match(ours, theirs)
        ours.zero_grad()
        theirs.zero_grad()
        for key, value in theirs.state_dict().items():
            assert_same(ours.state_dict()[key], value, key)


@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_second_derivatives_match_torch(training: bool) -> None:
    def run(L: Any, bn: Any, x: Any) -> None:
        bn.train(training)
        (g,) = L.autograd.grad((bn(x) ** 3).sum(), x, create_graph=True)
        (g * g).sum().backward()

    ours, theirs = twin_modules(lambda L: L.nn.BatchNorm1d(3))
    _randomize_affine(ours, theirs)
    with torch.no_grad():
        theirs.running_mean.copy_(torch.tensor(RNG.standard_normal(3)))
    ours.load_state_dict({k: to_mt(v) for k, v in theirs.state_dict().items()})
    (x,), (tx,) = twin_inputs((5, 3))
    run(mt, ours, x)
    run(torch, theirs, tx)
    assert_same(x.grad, tx.grad, "x.grad")
    assert_params_match(ours, theirs)


def test_batch_norm_updates_running_stats_without_recording() -> None:
    bn = mt.nn.BatchNorm1d(2)
    x = mt.tensor([[1.0, 2.0], [3.0, 6.0]], requires_grad=True)
    version = bn.running_mean._version
    bn(x)
    assert bn.running_mean._version > version
    assert not bn.running_mean.requires_grad and not bn.running_var.requires_grad
    # batch mean (2, 4), unbiased variance (2, 8), momentum 0.1
    np.testing.assert_allclose(numpy_of(bn.running_mean), [0.2, 0.4], rtol=1e-6)
    np.testing.assert_allclose(numpy_of(bn.running_var), [1.1, 1.7], rtol=1e-6)


# ---------------------------------------------------------------------------- Module
def test_registration_order_and_traversal_match_torch() -> None:
    ours, theirs = zoo(mt), zoo(torch)

    def names(items: Any) -> list:
        return [name for name, _ in items]

    assert names(ours.named_parameters()) == names(theirs.named_parameters())
    assert names(ours.named_buffers()) == names(theirs.named_buffers())
    assert names(ours.named_children()) == names(theirs.named_children())
    assert names(ours.named_modules()) == names(theirs.named_modules())
    assert [type(m).__name__ for m in ours.modules()] == [
        type(m).__name__ for m in theirs.modules()]
    assert [type(m).__name__ for m in ours.children()] == [
        type(m).__name__ for m in theirs.children()]
    assert len(list(ours.parameters())) == len(list(theirs.parameters()))
    assert names(ours.named_parameters(recurse=False)) == []


def test_shared_parameters_are_listed_once_but_saved_under_each_name() -> None:
    def build(L: Any) -> Any:
        shared = L.nn.Linear(2, 2)
        return L.nn.Sequential(shared, L.nn.ReLU(), shared)

    ours, theirs = twin_modules(build)
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert [n for n, _ in ours.named_modules()] == [n for n, _ in theirs.named_modules()]


def test_attributes_are_registered_replaced_and_deleted() -> None:
    m = mt.nn.Module()
    m.w = mt.nn.Parameter(mt.ones(2))
    m.sub = mt.nn.Linear(2, 2)
    m.register_buffer("stat", mt.zeros(2))
    m.register_buffer("scratch", mt.zeros(1), persistent=False)
    m.plain = 3
    assert [n for n, _ in m.named_parameters()] == ["w", "sub.weight", "sub.bias"]
    assert list(m.state_dict()) == ["w", "stat", "sub.weight", "sub.bias"]
    assert m.w is m._parameters["w"] and m.stat is m._buffers["stat"]
    m.stat = mt.ones(2)  # assigning a tensor to a buffer's name updates the buffer
    assert m._buffers["stat"].equal(mt.ones(2))
    m.w = None
    assert m.w is None and [n for n, _ in m.named_parameters()] == ["sub.weight", "sub.bias"]
    m.sub = mt.nn.Parameter(mt.zeros(1))  # a parameter may replace a module
    assert "sub" not in m._modules and [n for n, _ in m.named_parameters()] == ["sub"]
    del m.sub, m.stat
    assert not hasattr(m, "sub") and "stat" not in m._buffers
    del m.plain
    assert not hasattr(m, "plain")


def test_train_eval_requires_grad_and_zero_grad() -> None:
    model = zoo(mt)
    assert model.eval() is model
    assert not any(m.training for m in model.modules())
    model.train()
    assert all(m.training for m in model.modules())
    fc = mt.nn.Linear(3, 2)
    assert fc.requires_grad_(False) is fc
    assert not any(p.requires_grad for p in fc.parameters())
    fc.requires_grad_()
    fc(mt.ones(1, 3)).sum().backward()
    grad = fc.weight.grad
    fc.zero_grad(set_to_none=False)
    assert fc.weight.grad is grad
    np.testing.assert_array_equal(numpy_of(fc.weight.grad), 0)
    fc.zero_grad()
    assert fc.weight.grad is None and fc.bias.grad is None


def test_frozen_layer_gets_no_gradient_like_torch() -> None:
    ours, theirs = twin_modules(seed_mlp)
    ours.fc1.requires_grad_(False)
    theirs.fc1.requires_grad_(False)
    (x,), (tx,) = twin_inputs((4, 10))
    ours(x).sum().backward()
    theirs(tx).sum().backward()
    assert ours.fc1.weight.grad is None
    assert_params_match(ours, theirs)
    assert_same(x.grad, tx.grad)


def test_forward_hooks() -> None:
    fc = mt.nn.Linear(2, 2)
    seen = []
    pre = fc.register_forward_pre_hook(lambda m, args: (args[0] * 0,))
    post = fc.register_forward_hook(lambda m, args, out: seen.append(args[0]) or out + 1)
    y = fc(mt.ones(1, 2))
    assert seen[0].equal(mt.zeros(1, 2))
    assert y.equal(fc.bias.detach().reshape(1, 2) + 1)
    pre.remove()
    post.remove()
    assert fc(mt.ones(1, 2)).equal(mt.nn.functional.linear(mt.ones(1, 2), fc.weight, fc.bias))


def test_to_double_float_keep_parameters_and_integer_buffers() -> None:
    bn = mt.nn.BatchNorm1d(3)
    weight = bn.weight
    bn.weight.grad = mt.ones(3)
    assert bn.double() is bn and bn.weight is weight
    assert bn.weight.dtype == mt.float64 and bn.weight.grad.dtype == mt.float64
    assert bn.running_mean.dtype == mt.float64 and bn.num_batches_tracked.dtype == mt.int64
    assert bn.to(mt.float32).running_var.dtype == mt.float32
    assert bn.float().weight.dtype == mt.float32


def test_sequential_indexing_len_iteration_and_append() -> None:
    def build(L: Any) -> Any:
        nn = L.nn
        return nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1), nn.Sigmoid())

    ours, theirs = build(mt), build(torch)
    assert len(ours) == len(theirs) == 4
    assert repr(ours[-1]) == repr(theirs[-1]) == "Sigmoid()"
    assert repr(ours[1:3]) == repr(theirs[1:3])
    assert [repr(m) for m in ours] == [repr(m) for m in theirs]
    ours.append(mt.nn.Tanh())
    theirs.append(torch.nn.Tanh())
    ours[0] = mt.nn.Linear(2, 3, bias=False)
    theirs[0] = torch.nn.Linear(2, 3, bias=False)
    assert repr(ours) == repr(theirs)
    named = mt.nn.Sequential(OrderedDict(fc=mt.nn.Linear(1, 1), act=mt.nn.ReLU()))
    assert [n for n, _ in named.named_children()] == ["fc", "act"]
    assert named.fc is named[0]


def test_repr_equals_torchs() -> None:
    assert repr(zoo(mt)) == repr(zoo(torch))
    assert repr(mt.nn.Module()) == repr(torch.nn.Module())
    p = mt.nn.Parameter(mt.tensor([[1.0, -2.5]]))
    assert repr(p) == repr(torch.nn.Parameter(torch.tensor([[1.0, -2.5]])))


def test_parameter_is_a_leaf_sharing_the_data() -> None:
    data = mt.ones(3)
    p = mt.nn.Parameter(data)
    assert isinstance(p, mt.Tensor) and p.is_leaf and p.requires_grad
    with mt.no_grad():
        p.add_(1)
    assert data.equal(mt.full((3,), 2.0)) and data._version == p._version == 1
    assert not mt.nn.Parameter(data, requires_grad=False).requires_grad
    assert mt.nn.Parameter().shape == torch.nn.Parameter().shape
    assert type(p * 2) is mt.Tensor and type(p.detach()) is mt.Tensor


def test_deepcopy_and_pickle_give_independent_models() -> None:
    model = seed_mlp(mt)
    x = mt.ones(10)
    y = model(x)  # a live graph holds the original parameters' accumulators
    clone = copy.deepcopy(model)
    assert all(a is not b for a, b in zip(clone.parameters(), model.parameters()))
    assert all(isinstance(p, mt.nn.Parameter) for p in clone.parameters())
    clone(x).sum().backward()
    assert all(p.grad is None for p in model.parameters())
    assert all(p.grad is not None for p in clone.parameters())
    y.sum().backward()


def test_pickle_round_trip_after_backward() -> None:
    model = mt.nn.Sequential(mt.nn.Linear(3, 2), mt.nn.BatchNorm1d(2), mt.nn.Sigmoid())
    x = mt.ones(4, 3)
    model(x).sum().backward()
    restored = pickle.loads(pickle.dumps(model))
    assert restored.eval()(x).equal(model.eval()(x))
    assert [n for n, _ in restored.named_buffers()] == [n for n, _ in model.named_buffers()]
    assert all(isinstance(p, mt.nn.Parameter) and p.requires_grad
               for p in restored.parameters())


# ---------------------------------------------------------------------------- state_dict
def test_state_dict_keys_and_detached_values() -> None:
    ours, theirs = zoo(mt), zoo(torch)
    state = ours.state_dict()
    assert isinstance(state, OrderedDict)
    assert list(state) == list(theirs.state_dict())
    assert all(not v.requires_grad and v.grad_fn is None for v in state.values())
    assert all(type(v) is mt.Tensor for v in state.values())
    with mt.no_grad():
        ours[0].weight.add_(1)  # the saved values share memory with the model, as in torch
    assert state["0.weight"].equal(ours[0].weight.detach())
    kept = ours.state_dict(keep_vars=True)
    assert kept["0.weight"] is ours[0].weight


def test_state_dict_round_trip_through_torch() -> None:
    ours, theirs = twin_modules(zoo)
    (x,), (tx,) = twin_inputs((4, 2))
    back = zoo(mt).double()
    assert repr(back.load_state_dict({k: to_mt(v) for k, v in theirs.state_dict().items()})) == (
        "<All keys matched successfully>")
    for key, value in ours.state_dict().items():
        assert back.state_dict()[key].equal(value), key
    assert_same(back[0](x), theirs[0](tx))


def test_load_state_dict_non_strict_reports_keys_like_torch() -> None:
    def run(L: Any) -> str:
        m = L.nn.Linear(2, 3)
        result = m.load_state_dict({"weight": L.ones(3, 2), "extra": L.ones(1)}, strict=False)
        assert m.weight.detach().equal(L.ones(3, 2))
        return repr(result)

    assert run(mt) == run(torch)


# ---------------------------------------------------------------------------- init
def test_linear_default_init_bounds_and_seed() -> None:
    mt.manual_seed(0)
    fc = mt.nn.Linear(400, 300)
    bound = 1 / math.sqrt(400)
    for p in (fc.weight, fc.bias):
        values = numpy_of(p)
        assert np.abs(values).max() <= bound
        assert np.abs(values).max() > 0.98 * bound
    w = numpy_of(fc.weight)
    assert abs(w.mean()) < 0.01 * bound
    assert abs(w.var() / (bound**2 / 3) - 1) < 0.02  # the variance of U(-b, b)
    mt.manual_seed(0)
    assert mt.nn.Linear(400, 300).weight.equal(fc.weight)
    assert not mt.nn.Linear(400, 300).weight.equal(fc.weight)
    assert fc.weight.is_leaf and fc.weight.requires_grad


@pytest.mark.parametrize("shape", [(200, 300), (40, 30, 3, 3)])
def test_init_functions_bounds_and_moments(shape: tuple) -> None:
    mt.manual_seed(1)
    t = mt.nn.Parameter(mt.empty(*shape))
    receptive = math.prod(shape[2:])
    fan_in, fan_out = shape[1] * receptive, shape[0] * receptive

    def values(out: Any) -> np.ndarray:
        assert out is t
        return numpy_of(out.detach())

    b = math.sqrt(6 / (fan_in + fan_out))
    v = values(mt.nn.init.xavier_uniform_(t))
    assert np.abs(v).max() <= b and np.abs(v).max() > 0.98 * b
    b = math.sqrt(3) * torch.nn.init.calculate_gain("relu") / math.sqrt(fan_out)
    v = values(mt.nn.init.kaiming_uniform_(t, mode="fan_out", nonlinearity="relu"))
    assert np.abs(v).max() <= b and np.abs(v).max() > 0.98 * b
    v = values(mt.nn.init.normal_(t, 2.0, 0.5))
    assert abs(v.mean() - 2.0) < 0.02 and abs(v.std() - 0.5) < 0.02
    v = values(mt.nn.init.kaiming_normal_(t))
    assert abs(v.std() * math.sqrt(fan_in) / torch.nn.init.calculate_gain("leaky_relu") - 1) < 0.05
    v = values(mt.nn.init.xavier_normal_(t, gain=2.0))
    assert abs(v.std() / (2 * math.sqrt(2 / (fan_in + fan_out))) - 1) < 0.05
    v = values(mt.nn.init.uniform_(t, -3.0, -2.0))
    assert v.min() >= -3.0 and v.max() < -2.0
    assert not values(mt.nn.init.zeros_(t)).any()
    assert (values(mt.nn.init.ones_(t)) == 1).all()
    assert (values(mt.nn.init.constant_(t, 0.25)) == 0.25).all()
    assert t.is_leaf and t.requires_grad and t.grad_fn is None


@pytest.mark.parametrize("args", [("linear",), ("sigmoid",), ("tanh",), ("relu",), ("selu",),
                                  ("leaky_relu",), ("leaky_relu", 0.2), ("conv2d",)])
def test_calculate_gain_matches_torch(args: tuple) -> None:
    assert mt.nn.init.calculate_gain(*args) == pytest.approx(
        torch.nn.init.calculate_gain(*args), rel=1e-12)


# ---------------------------------------------------------------------------- errors
def _linear(L: Any) -> Any:
    return L.nn.Linear(2, 2)


ERRORS = {
    "load_missing_unexpected_size": lambda L: L.nn.Linear(2, 2).load_state_dict(
        {"weight": L.ones(3, 3), "foo": L.ones(1)}),
    "load_not_a_tensor": lambda L: L.nn.Linear(2, 3).load_state_dict(
        {"weight": 1, "bias": L.ones(3)}),
    "assign_tensor_to_parameter": lambda L: setattr(_linear(L), "weight", L.ones(2, 2)),
    "assign_int_to_parameter": lambda L: setattr(_linear(L), "weight", 3),
    "assign_tensor_to_module": lambda L: setattr(L.nn.Sequential(_linear(L)), "0", L.ones(1)),
    "buffer_name_taken": lambda L: _linear(L).register_buffer("weight", L.ones(1)),
    "buffer_name_dot": lambda L: _linear(L).register_buffer("a.b", L.ones(1)),
    "buffer_name_empty": lambda L: _linear(L).register_buffer("", L.ones(1)),
    "buffer_not_tensor": lambda L: _linear(L).register_buffer("c", 3),
    "parameter_not_parameter": lambda L: _linear(L).register_parameter("d", L.ones(1)),
    "parameter_of_ints": lambda L: L.nn.Parameter(L.ones(2, dtype=L.int64)),
    "module_not_module": lambda L: _linear(L).add_module("m", 3),
    "module_name_dot": lambda L: _linear(L).add_module("a.b", L.nn.ReLU()),
    "module_name_int": lambda L: _linear(L).add_module(3, L.nn.ReLU()),
    "module_name_taken": lambda L: _linear(L).add_module("weight", L.nn.ReLU()),
    "parameter_name_dot": lambda L: _linear(L).register_parameter("a.b", None),
    "sequential_of_int": lambda L: L.nn.Sequential(3),
    "no_forward": lambda L: L.nn.Module()(1),
    "sequential_index": lambda L: L.nn.Sequential(L.nn.ReLU())[3],
    "to_int": lambda L: _linear(L).to(L.int64),
    "train_not_bool": lambda L: _linear(L).train(1),
    "dropout_p": lambda L: L.nn.Dropout(2),
    "functional_dropout_p": lambda L: L.nn.functional.dropout(L.ones(2), 1.5),
    "bn1d_rank": lambda L: L.nn.BatchNorm1d(4)(L.ones(2, 4, 2, 2)),
    "bn2d_rank": lambda L: L.nn.BatchNorm2d(4)(L.ones(2, 4)),
    "bn_one_value": lambda L: L.nn.BatchNorm1d(4)(L.ones(1, 4)),
    "bn_eval_without_stats": lambda L: L.nn.functional.batch_norm(L.ones(2, 4), None, None),
    "linear_shapes": lambda L: _linear(L)(L.ones(3, 5)),
    "nll_target_high": lambda L: L.nn.functional.nll_loss(L.ones(3, 4), L.tensor([0, 1, 4])),
    "nll_target_negative": lambda L: L.nn.NLLLoss()(L.ones(3, 4), L.tensor([0, -1, 1])),
    "nll_target_float": lambda L: L.nn.functional.nll_loss(L.ones(3, 4), L.ones(3)),
    "nll_batch": lambda L: L.nn.functional.nll_loss(L.ones(3, 4), L.tensor([0, 1])),
    "ce_batch": lambda L: L.nn.CrossEntropyLoss()(L.ones(3, 4), L.tensor([0, 1])),
    "mse_reduction": lambda L: L.nn.MSELoss(reduction="avg")(L.ones(2), L.ones(2)),
    "ce_reduction": lambda L: L.nn.functional.cross_entropy(L.ones(2, 2), L.tensor([0, 1]),
                                                            reduction="x"),
    "fans": lambda L: L.nn.init.xavier_uniform_(L.ones(3)),
    "gain": lambda L: L.nn.init.calculate_gain("swish"),
    "kaiming_mode": lambda L: L.nn.init.kaiming_uniform_(L.ones(2, 2), mode="fan"),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors_match_torch(name: str) -> None:
    want = raised_by(ERRORS[name], torch)
    assert want is not None, "torch raised nothing: the case is wrong"
    assert_same_error(raised_by(ERRORS[name], mt), want)


def test_assigning_a_non_tensor_to_a_buffer_is_refused() -> None:
    # torch 2.13 words, nn.Buffer offered too
    with pytest.raises(TypeError, match=r"cannot assign 'int' as buffer 'running_mean' "
                                        r"\(torch.nn.Buffer, torch.Tensor or None expected\)"):
        mt.nn.BatchNorm1d(2).running_mean = 3


UNSUPPORTED = {  # what torch accepts and minitorch lacks: a NotImplementedError that says so
    "grouped_query_attention": lambda: minitorch.nn.functional.scaled_dot_product_attention(
        mt.ones(1, 4, 2, 3), mt.ones(1, 2, 2, 3), mt.ones(1, 2, 2, 3), enable_gqa=True),
}


@pytest.mark.parametrize("name", UNSUPPORTED)
def test_unsupported_options_are_refused(name: str) -> None:
    with pytest.raises(NotImplementedError, match="minitorch"):
        UNSUPPORTED[name]()


# ---------------------------------------------------------------------------- docstrings
@pytest.mark.parametrize("mod", [activation, batchnorm, container, dropout, flatten,
                                 functional, init, linear, loss, module, parameter, pooling,
                                 minitorch.nn], ids=lambda m: m.__name__)
def test_docstring_examples(mod: Any) -> None:
    import minitorch.optim as optim

    globs = {"minitorch": minitorch, "nn": minitorch.nn, "F": minitorch.nn.functional,
             "optim": optim, "np": np, "OrderedDict": OrderedDict}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = doctest.testmod(mod, globs=globs, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0
