"""saved_tensors_hooks against live torch 2.13: pack in forward, unpack in backward, nesting,
and the documented example that keeps saved tensors on disk until backward needs them.
"""

from __future__ import annotations

import doctest
import itertools
import os
import tempfile
import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
from oracle import assert_same, assert_same_error, mt, raised_by

LIBS = pytest.mark.parametrize("L", [mt, torch], ids=["minitorch", "torch"])
pytestmark = pytest.mark.filterwarnings("error")

X = np.array([0.5, -1.0, 2.0])


def hooks(L: Any) -> Any:
    return L.autograd.graph.saved_tensors_hooks


def logging_hooks(log: list, tag: str = "") -> tuple[Callable, Callable]:
    """Hooks that record what they see and store the tensor unchanged."""
    def pack(t: Any) -> Any:
        log.append(("pack" + tag, t))
        return t

    def unpack(t: Any) -> Any:
        log.append(("unpack" + tag, t))
        return t

    return pack, unpack


def notes_example(L: Any, log: list) -> tuple[Any, Any, Any]:
    """``y = x.exp(); (y * x).sum()`` with logging hooks: x, y and the loss."""
    x = L.tensor(X, requires_grad=True)
    with hooks(L)(*logging_hooks(log)):
        y = x.exp()
        z = (y * x).sum()
    return x, y, z


@LIBS
def test_notes_example_packs_three_times(L: Any) -> None:
    log: list = []
    x, y, _ = notes_example(L, log)
    assert [kind for kind, _ in log] == ["pack"] * 3
    # exp saves its result y; mul saves both operands (torch packs other before self)
    assert sorted(("x" if t is x else "y" if t is y else "?") for _, t in log) == ["x", "y", "y"]


@LIBS
def test_unpack_runs_in_backward(L: Any) -> None:
    log: list = []
    x, _, z = notes_example(L, log)
    del log[:]
    z.backward()
    assert [kind for kind, _ in log] == ["unpack"] * 3
    np.testing.assert_allclose(x.grad.numpy(), (X + 1) * np.exp(X))


def test_pack_and_unpack_counts_match_torch() -> None:
    """retain_graph runs unpack again; outside the block nothing is packed."""
    counts = []
    for L in (torch, mt):
        log: list = []
        x = L.tensor(X, requires_grad=True)
        with hooks(L)(*logging_hooks(log)):
            z = (x.exp().sin() * x).sum()
        w = (x * x).sum()
        z.backward(retain_graph=True)
        z.backward()
        w.backward()
        counts.append([kind for kind, _ in log])
    assert counts[0] == counts[1]


@LIBS
def test_nesting_innermost_wins(L: Any) -> None:
    log: list = []
    x = L.tensor(X, requires_grad=True)
    with hooks(L)(*logging_hooks(log, "1")):
        c = x.exp()
        with hooks(L)(*logging_hooks(log, "2")):
            d = c.sin()
        e = d.cos()
    e.sum().backward()
    assert [kind for kind, _ in log] == ["pack1", "pack2", "pack1",
                                         "unpack1", "unpack2", "unpack1"]


@LIBS
def test_hooks_are_removed_on_exit_even_after_an_error(L: Any) -> None:
    log: list = []
    with pytest.raises(ValueError), hooks(L)(*logging_hooks(log)):
        raise ValueError
    x = L.tensor(X, requires_grad=True)
    x.exp().sum().backward()
    assert log == []


@LIBS
def test_hooks_belong_to_the_thread_that_set_them(L: Any) -> None:
    log: list = []
    x = L.tensor(X, requires_grad=True)
    with hooks(L)(*logging_hooks(log)):
        thread = threading.Thread(target=lambda: x.exp())
        thread.start()
        thread.join()
    assert log == []


def test_unpack_must_return_a_tensor() -> None:
    def scenario(L: Any) -> Any:
        x = L.tensor(X, requires_grad=True)
        with hooks(L)(lambda t: 1, lambda p: 5):
            z = (x * x).sum()
        z.backward()

    assert_same_error(raised_by(scenario, mt), raised_by(scenario, torch))


def test_freed_after_backward_like_torch() -> None:
    def scenario(L: Any) -> Any:
        x = L.tensor(X, requires_grad=True)
        with hooks(L)(lambda t: t, lambda p: p):
            z = x.exp().sum()
        z.backward()
        z.backward()

    assert_same_error(raised_by(scenario, mt), raised_by(scenario, torch))


# ---------------------------------------------------------------------------- offloading to disk


def save_on_disk(L: Any, folder: str) -> Any:
    """A named storage policy: subclass saved_tensors_hooks, keep each saved tensor in a file."""
    names = itertools.count()

    class SaveOnDisk(hooks(L)):
        def __init__(self) -> None:
            super().__init__(self.pack_to_file, self.unpack_from_file)

        @staticmethod
        def pack_to_file(tensor: Any) -> str:
            path = os.path.join(folder, f"{next(names)}.npy")
            np.save(path, tensor.detach().numpy())
            return path

        @staticmethod
        def unpack_from_file(path: str) -> Any:
            return L.from_numpy(np.load(path))

    return SaveOnDisk()


def mlp_loss(L: Any, x: Any, w1: Any, w2: Any) -> Any:
    return ((x @ w1).tanh() @ w2).sigmoid().sum()


@LIBS
def test_offloading_to_disk_gives_the_same_gradients(L: Any) -> None:
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s) for s in ((5, 4), (4, 3), (3, 2))]
    plain = [L.tensor(a, requires_grad=True) for a in arrays]
    mlp_loss(L, *plain).backward()
    offloaded = [L.tensor(a, requires_grad=True) for a in arrays]
    with tempfile.TemporaryDirectory() as folder:
        with save_on_disk(L, folder):
            loss = mlp_loss(L, *offloaded)
        assert len(os.listdir(folder)) > 0  # saved tensors wait on disk for backward
        loss.backward()
    for p, o in zip(plain, offloaded):
        np.testing.assert_array_equal(o.grad.numpy(), p.grad.numpy())


def test_offloaded_gradients_match_torch() -> None:
    rng = np.random.default_rng(1)
    arrays = [rng.standard_normal(s) for s in ((5, 4), (4, 3), (3, 2))]
    grads = []
    for L in (mt, torch):
        params = [L.tensor(a, requires_grad=True) for a in arrays]
        with tempfile.TemporaryDirectory() as folder:
            with save_on_disk(L, folder):
                loss = mlp_loss(L, *params)
            loss.backward()
        grads.append([p.grad for p in params])
    for got, want in zip(*grads):
        assert_same(got, want)


def test_docstring_example() -> None:
    """The example in saved_tensors_hooks' docstring (packing count, offloading to disk)."""
    hooks_class = mt.autograd.graph.saved_tensors_hooks
    finder = doctest.DocTestFinder(recurse=False)
    runner = doctest.DocTestRunner()
    for test in finder.find(hooks_class, globs={"saved_tensors_hooks": hooks_class}):
        runner.run(test)
    results = runner.summarize(verbose=False)
    assert results.attempted > 0 and results.failed == 0
