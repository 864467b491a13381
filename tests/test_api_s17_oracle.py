"""Function forms and torch.linalg names that programs call, against live torch:
``torch.masked_fill``, ``torch.linalg.matmul`` and ``torch.linalg.vander`` (values, gradients,
dtypes and refusals)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same, assert_same_error, raised_by


def _outcome(call: Any, L: Any) -> Any:
    error = raised_by(call, L)
    return error if error is not None else call(L)


def _assert_like_torch(call: Any) -> None:
    want, got = _outcome(call, torch), _outcome(call, mt)
    if isinstance(want, Exception):
        assert_same_error(got if isinstance(got, Exception) else None, want)
    else:
        assert not isinstance(got, Exception), f"minitorch raised {got!r}"
        for g, w in zip(got if isinstance(got, tuple) else (got,),
                        want if isinstance(want, tuple) else (want,)):
            if w is None:
                assert g is None
            else:
                assert_same(g, w)


def _x(L: Any) -> Any:
    return L.arange(6.0).reshape(2, 3).requires_grad_()


MASKED_FILL = [
    lambda L: L.masked_fill(_x(L), _x(L) > 2, 0.5),
    lambda L: L.masked_fill(_x(L), _x(L) > 2, L.tensor(1.0)),
    lambda L: L.masked_fill(_x(L), mask=_x(L) > 2, value=2),
    lambda L: L.masked_fill("a", _x(L) > 2, 1),
    lambda L: L.masked_fill(_x(L), "m", 1),
    lambda L: L.masked_fill(_x(L), _x(L) > 2),
    lambda L: L.masked_fill(_x(L), _x(L) > 2, "v"),
    lambda L: L.masked_fill(_x(L), _x(L)[0] > 2, L.ones(2)),
    lambda L: L.masked_fill(_x(L), mask=_x(L) > 2, value=1, foo=2),
    lambda L: L.masked_fill(L.arange(4), L.arange(4) > 1, 2.5),
]


@pytest.mark.parametrize("call", MASKED_FILL)
def test_masked_fill_as_a_function_is_torchs(call: Any) -> None:
    _assert_like_torch(lambda L: _with_grad(call(L)))


def _with_grad(out: Any) -> Any:
    if not out.requires_grad:
        return out
    leaf = out.grad_fn.next_functions[0][0].variable
    out.sum().backward()
    return out, leaf.grad


VANDER = [
    lambda L: L.linalg.vander(L.tensor([0.5, 1.7, -2.3], requires_grad=True)),
    lambda L: L.linalg.vander(L.tensor([0.5, 1.7, -2.3]), N=5),
    lambda L: L.linalg.vander(L.tensor(3.0), N=3),
    lambda L: L.linalg.vander(L.tensor([2], dtype=L.uint8), N=10),
    lambda L: L.linalg.vander(L.tensor([[1, 2], [3, 4]], dtype=L.int32)),
    lambda L: L.linalg.vander(L.ones(2, dtype=L.float64) * 1.1, N=4),
    lambda L: L.linalg.vander(L.zeros(0, 3)),
    lambda L: L.linalg.vander("a"),
    lambda L: L.linalg.vander(L.tensor([True])),
    lambda L: L.linalg.vander(L.ones(2), N=1.5),
    lambda L: L.linalg.vander(L.ones(2), 3),
    lambda L: L.linalg.vander(L.ones(1)),
    lambda L: L.linalg.vander(L.ones(2), N=-1),
    lambda L: L.linalg.vander(L.zeros(0)),
]


@pytest.mark.parametrize("call", VANDER)
def test_linalg_vander_is_torchs(call: Any) -> None:
    _assert_like_torch(call)


def test_linalg_vanders_gradient_is_torchs() -> None:
    def run(L: Any) -> tuple:
        x = L.tensor([0.5, 1.7, -2.3], requires_grad=True)
        out = L.linalg.vander(x, N=4)
        weights = L.tensor(np.arange(12.0).reshape(3, 4), dtype=L.float32)
        return out, *L.autograd.grad((out * weights).sum(), x)

    _assert_like_torch(run)


@pytest.mark.parametrize("values", [np.linspace(-3, 3, 7), np.linspace(0.9, 1.1, 5)], ids=str)
def test_vander_powers_round_as_torchs(values: np.ndarray) -> None:
    """Each power is the one before times x: float32 rounding as torch's, not x ** k's."""
    _assert_like_torch(lambda L: L.linalg.vander(L.tensor(values, dtype=L.float32), N=12))


MATMUL = [
    lambda L: L.linalg.matmul(L.ones(2, 3), L.ones(3)),
    lambda L: L.linalg.matmul("a", L.ones(2, 2)),
    lambda L: L.linalg.matmul(L.ones(2, 2), L.ones(3)),
    lambda L: L.linalg.matmul(L.ones(2, 2)),
]


@pytest.mark.parametrize("call", MATMUL)
def test_linalg_matmul_is_torchs_matmul(call: Any) -> None:
    _assert_like_torch(call)


def test_an_iterable_dataset_split_by_worker_info_loads_as_torch_in_the_main_process() -> None:
    """The sharding idiom of torch's IterableDataset docs: no worker info in the main process,
    so the dataset yields its whole range."""
    def load(L: Any) -> list:
        class Range(L.utils.data.IterableDataset):
            def __iter__(self) -> Any:
                info = L.utils.data.get_worker_info()
                start, step = (0, 1) if info is None else (info.id, info.num_workers)
                return iter(range(start, 7, step))

        return [batch.tolist() for batch in L.utils.data.DataLoader(Range(), batch_size=3)]

    assert load(mt) == load(torch)


def _edge_program(L: Any) -> list:
    """autograd.grad and backward taking gradient edges in place of tensors."""
    edge_of, Edge = L.autograd.graph.get_gradient_edge, L.autograd.graph.GradientEdge
    seen = []
    a = L.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = a * 2
    z = (y ** 2).sum()
    edge = edge_of(y)
    seen += [edge.output_nr, edge.ownership_token, edge.node.name(), edge_of(a).node.name()]
    seen += L.autograd.grad(z, edge, retain_graph=True)
    seen += L.autograd.grad(z, [edge_of(a), y], retain_graph=True)
    seen += L.autograd.grad(z, Edge(y.grad_fn, 0), retain_graph=True)
    L.autograd.backward(z, inputs=edge_of(a), retain_graph=True)
    z.backward(inputs=[edge_of(a)], retain_graph=True)
    seen.append(a.grad)
    u, v = L.tensor([1.5, -2.0], requires_grad=True).unbind()
    seen += [edge_of(v).output_nr, *L.autograd.grad(u * v * 3, edge_of(v))]
    x = L.tensor([0.1, 0.2], requires_grad=True)
    p = x.sin()
    q, gone = p.cos(), edge_of(p)
    del p  # the edge outlives the tensor
    seen += L.autograd.grad(q.sum(), gone, create_graph=True)
    return seen


def test_gradient_edges_stand_for_tensors_as_in_torch() -> None:
    got, want = _edge_program(mt), _edge_program(torch)
    for g, w in zip(got, want):
        if isinstance(w, torch.Tensor):
            assert_same(g, w, "gradient")
        else:
            assert g == w


@pytest.mark.parametrize("call", [
    lambda L: L.autograd.graph.get_gradient_edge(L.ones(2)),
    lambda L: L.autograd.grad((L.ones(2, requires_grad=True) * 2).sum(),
                              L.autograd.graph.get_gradient_edge(L.ones(2, requires_grad=True))),
    lambda L: L.autograd.grad((L.ones(2, requires_grad=True) * 2).sum(),
                              L.autograd.graph.get_gradient_edge(L.ones(2, requires_grad=True)),
                              materialize_grads=True),
    lambda L: L.autograd.grad((L.ones(2, requires_grad=True) * 2).sum(),
                              L.autograd.graph.get_gradient_edge(L.ones(2, requires_grad=True)),
                              allow_unused=True),
    lambda L: L.autograd.grad((L.ones(2, requires_grad=True) * 2).sum(), [3]),
], ids=["no grad", "unused", "unused, materialized", "unused, allowed", "not an edge"])
def test_gradient_edge_refusals_are_torchs(call: Any) -> None:
    _assert_like_torch(call)


@pytest.mark.parametrize("args, kwargs", [
    ((1, 5, 2), {}), ((1, 0, 2), {}), ((1, 0, True, 1), {}), ((1,), {"largest": None}),
    ((1,), {"sorted": "a"}), ((1, 0, 1.0), {}), ((2, 0, False, False), {}), ((1, "a", 2), {}),
], ids=repr)
@pytest.mark.parametrize("form", ["method", "function"])
def test_topk_checks_its_flags_as_torchs_parser(args: tuple, kwargs: dict, form: str) -> None:
    """An int for ``largest`` had been taken for a bool (fuzz D seed 5506)."""
    def call(L: Any) -> Any:
        x = L.tensor([1.0, 3.0, 2.0])
        return (x.topk(*args, **kwargs) if form == "method" else
                L.topk(x, *args, **kwargs)).values

    want = raised_by(call, torch)
    if want is None:
        assert_same(call(mt), call(torch))
    else:
        assert_same_error(raised_by(call, mt), want)
