"""Nothing outlives a training step: graphs are freed by reference counting alone (no
cycles for the garbage collector to find), so memory stays flat across steps."""

import gc
import weakref
from collections import Counter

import pytest

import minitorch
from minitorch import nn, optim
from minitorch.autograd.graph import Node


def _live() -> Counter:
    # type(o), not isinstance: isinstance reads __class__, which some of torch's deprecated
    # module attributes answer with a warning.
    return Counter(type(o).__name__ for o in gc.get_objects()
                   if issubclass(type(o), (minitorch.Tensor, Node)))


def _training_step(model: nn.Module, opt: optim.SGD, x: minitorch.Tensor,
                   y: minitorch.Tensor) -> tuple[weakref.ref, ...]:
    out = model(x)
    loss = ((out - y) ** 2).mean()
    loss.backward()
    opt.step()
    opt.zero_grad()
    return weakref.ref(out), weakref.ref(loss), weakref.ref(loss.grad_fn)


def test_150_training_steps_leave_nothing_behind() -> None:
    minitorch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
    opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    x, y = minitorch.randn(32, 8), minitorch.randn(32, 1)
    gc.collect()
    gc.disable()  # whatever survives must be freed by reference counting, not by the collector
    try:
        refs = [_training_step(model, opt, x, y)]
        after_one = _live()
        refs += [_training_step(model, opt, x, y) for _ in range(149)]
        assert [r for step in refs for r in step if r() is not None] == []
        assert _live() == after_one
    finally:
        gc.enable()


def test_a_retained_graph_is_freed_when_its_output_is_dropped() -> None:
    x = minitorch.ones(3, requires_grad=True)
    y = (x.exp() * x).sum()
    y.backward(retain_graph=True)
    node = weakref.ref(y.grad_fn)
    gc.disable()
    try:
        del y
        assert node() is None
    finally:
        gc.enable()


def test_nodes_that_save_no_tensor_share_their_saved_tuple() -> None:
    # x * 2 saves no tensor (torch saves the 2, which minitorch keeps on the node): before
    # and after backward, such nodes hold one shared tuple, not one each, and a second
    # backward still raises torch's error.
    x = minitorch.tensor(1.0, requires_grad=True)
    a, b = x * 2.0, x * 3.0
    assert a.grad_fn._saved is b.grad_fn._saved
    a.backward()
    b.backward()
    assert a.grad_fn._saved is b.grad_fn._saved
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        a.backward()
