"""minitorch prints torch's names, so a tutorial's output is the same under either library.

Each case prints something a tutorial prints (shapes, dtypes, devices, classes, nodes, the
named tuples of ``max(dim)``); torch 2.13 is the oracle. Addresses (``at 0x...``) differ.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
import torch

import minitorch as mt


def _custom_node(L: Any) -> Any:
    class Double(L.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x * 2

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g * 2

    return Double.apply(L.ones(2, requires_grad=True)).grad_fn


def _sum_node(L: Any) -> Any:
    return (L.ones(2, 3, requires_grad=True) * 2).sum().grad_fn


CASES: dict[str, Callable[[Any], object]] = {
    "shape": lambda L: L.ones(2, 3).shape,
    "size_dim": lambda L: (L.ones(2, 3).size(), L.ones(2, 3).size(1)),
    "empty_shape": lambda L: L.tensor(1.0).shape,
    "dtypes": lambda L: (L.float32, L.float64, L.long, L.int64, L.bool, L.float, L.double),
    "tensor_dtype": lambda L: (L.ones(2).dtype, L.tensor([1, 2]).dtype, L.tensor([True]).dtype),
    "default_dtype": lambda L: L.get_default_dtype(),
    "device": lambda L: (L.ones(1).device, L.device("cpu")),
    "tensor_repr_dtype": lambda L: L.ones(2, dtype=L.float64),
    "tensor_repr_int_empty": lambda L: L.zeros(0, 3, dtype=L.long),
    "type_name": lambda L: (L.ones(1).type(), L.tensor([1]).type(), L.ones(1).double().type()),
    "legacy_classes": lambda L: (L.FloatTensor, L.LongTensor, L.DoubleTensor),
    "tensor_class": lambda L: (type(L.ones(1)), L.Tensor),
    "parameter_class": lambda L: type(L.nn.Parameter(L.ones(1))),
    "builtin_node_class": lambda L: type(_sum_node(L)),
    "accumulate_grad": lambda L: type(_sum_node(L).next_functions[0][0].next_functions[0][0]),
    "custom_node_class": lambda L: type(_custom_node(L)),
    "max_dim": lambda L: L.max(L.tensor([[1.0, 5.0], [3.0, 2.0]]), 1),
    "min_dim_keepdim": lambda L: L.tensor([[1.0, 5.0], [3.0, 2.0]]).min(0, keepdim=True),
    "max_fields": lambda L: type(L.max(L.ones(2, 2), 0)).__name__,
    "parameter": lambda L: L.nn.Parameter(L.ones(2)),
}


def _once_differentiable_grad(L: Any) -> Any:
    """The gradient a once-differentiable backward gives under create_graph (its node is
    torch's ``Error``)."""
    class Twice(L.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x * 2

        @staticmethod
        @L.autograd.function.once_differentiable
        def backward(ctx: Any, g: Any) -> Any:
            return g * 2

    x = L.ones(2, requires_grad=True)
    return L.autograd.grad(Twice.apply(x), x, L.ones(2, requires_grad=True),
                           create_graph=True)[0]


def _written_into(L: Any, how: str) -> Any:
    a = L.ones(2, requires_grad=True) * 1
    if how == "setitem":
        a[0] = 5
    else:
        a.copy_(L.zeros(2, requires_grad=True))
    return a


NODES: dict[str, Callable[[Any], Any]] = {
    "builtin": lambda L: _sum_node(L),
    "custom": lambda L: _custom_node(L),
    "accumulate_grad": lambda L: (L.ones(2, requires_grad=True) * 2).grad_fn.next_functions[0][0],
    "copy_slices": lambda L: _written_into(L, "setitem").grad_fn,
    "copy_backwards": lambda L: _written_into(L, "copy_").grad_fn,
    "error": lambda L: _once_differentiable_grad(L).grad_fn,
}


@pytest.mark.parametrize("case", NODES)
def test_node_names_are_torchs(case: str) -> None:
    """name() of a node torch writes in C++ carries its namespace; its class does not."""
    def names(L: Any) -> tuple:
        node = NODES[case](L)
        return node.name(), type(node).__name__, _printed(type(node))

    assert names(mt) == names(torch)


@pytest.mark.parametrize("how", ["setitem", "copy_"])
def test_tensor_repr_names_the_node_class(how: str) -> None:
    assert repr(_written_into(mt, how)) == repr(_written_into(torch, how))
    assert repr(_once_differentiable_grad(mt)) == repr(_once_differentiable_grad(torch))


def _printed(value: object) -> str:
    return re.sub(r" at 0x[0-9a-f]+", " at 0x?", str(value))


@pytest.mark.parametrize("case", CASES)
def test_prints_what_torch_prints(case: str) -> None:
    assert _printed(CASES[case](mt)) == _printed(CASES[case](torch))


@pytest.mark.parametrize("make", [_sum_node, _custom_node], ids=["builtin", "custom"])
def test_grad_fn_repr_is_torchs(make: Callable[[Any], Any]) -> None:
    assert _printed(repr(make(mt))) == _printed(repr(make(torch)))


def test_max_dim_is_a_named_tuple_like_torchs() -> None:
    for L in (mt, torch):
        found = L.max(L.tensor([[1.0, 5.0], [3.0, 2.0]]), 1)
        values, indices = found
        assert isinstance(found, tuple) and found.values is values and found[1] is indices
        assert type(found).__module__ == "torch.return_types"


def test_errors_name_torchs_classes() -> None:
    messages = []
    for L in (mt, torch):
        with pytest.raises(TypeError) as info:
            L.nn.Linear(1, 1).weight = L.ones(1)
        messages.append(str(info.value))
    assert messages[0] == messages[1]
