"""Fresh fuzz seeds of session 39 and what they opened: a method's lone argument that its
int overload does not take but that is an index (``x.hsplit(tensor([2]))``: the ints one by
one), which the function form refuses; torch's C++ losses (``torch.margin_ranking_loss``,
``torch.binary_cross_entropy_with_logits``), whose parser reads every argument first and
whose kernels broadcast where F's Python checks refuse. Each case runs under torch and
minitorch (``L``) and must raise torch's exception with torch's message, or give torch's
result, gradients included."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from tests.oracle import assert_as_torch

LONE = {  # a lone argument, by how torch's parser reads it
    "0-d int tensor": lambda L: L.tensor(2), "1-elem tensor": lambda L: L.tensor([2]),
    "1x1 tensor": lambda L: L.tensor([[1]]), "bool tensor": lambda L: L.tensor(True),
    "1-elem bool tensor": lambda L: L.tensor([True]), "0-d array": lambda L: np.array(1),
    "1-elem array": lambda L: np.array([1]), "numpy int": lambda L: np.int64(2),
    "float tensor": lambda L: L.tensor([2.0]), "int": lambda L: 2, "bool": lambda L: True,
}


@pytest.mark.parametrize("lone", list(LONE))
@pytest.mark.parametrize("name", ["hsplit", "vsplit", "dsplit", "squeeze", "count_nonzero"])
@pytest.mark.parametrize("method", [True, False])
def test_a_lone_index_is_the_int_overload_or_one_of_a_list_as_torchs_parser_reads_it(
        lone: str, name: str, method: bool) -> None:
    """Fuzz s39: ``x.vsplit(tensor([3]))`` cut into 3 pieces (torch: at index 3, the
    method's ints one by one); ``torch.hsplit(x, tensor([3]))`` and
    ``torch.squeeze(x, np.array(0))`` ran (torch: no overload takes them)."""
    def program(L: Any) -> Any:
        x = L.ones(1, 2, 6, requires_grad=True) * 1
        arg = LONE[lone](L)
        out = getattr(x, name)(arg) if method else getattr(L, name)(x, arg)
        return list(out) if isinstance(out, tuple) else out

    assert_as_torch(program)


@pytest.mark.parametrize("args", [(2, 1), ("t", 3), (np.int64(2), 3), (True, 2), (2, True),
                                  (2, 1.5)])
def test_a_directional_split_method_takes_its_indices_one_by_one(args: tuple) -> None:
    def program(L: Any) -> Any:
        given = [L.tensor([1]) if a == "t" else a for a in args]
        return list(L.arange(12.0).reshape(2, 6).hsplit(*given))

    assert_as_torch(program)


SHAPES = [((2, 3), (3,)), ((3,), (2, 3)), ((2, 1), (1, 3)), ((3,), (3,)), ((1,), (2, 3))]


@pytest.mark.parametrize("shapes", SHAPES)
@pytest.mark.parametrize("reduction", [0, 1, 2])
@pytest.mark.parametrize("weights", ["", "weight", "pos_weight", "both"])
def test_torchs_binary_cross_entropy_with_logits_broadcasts_the_input_into_the_target(
        shapes: tuple, reduction: int, weights: str) -> None:
    """Fuzz s39: ``torch.binary_cross_entropy_with_logits`` raised F's ValueError on shapes
    that differ; torch's kernel runs ``(1 - target).mul_(input)``: the input broadcasts
    into the target, or the in-place refusal."""
    rng = np.random.default_rng(len(weights) + reduction)
    x = rng.standard_normal(shapes[0]).astype(np.float32)  # (float32: SLEEF's, bit for bit)
    t = rng.random(shapes[1]).astype(np.float32)

    def program(L: Any) -> Any:
        kw = {}
        if weights in ("weight", "both"):
            kw["weight"] = L.tensor([[0.5], [2.0]])
        if weights in ("pos_weight", "both"):
            kw["pos_weight"] = L.tensor([1.0, 2.0, 3.0])
        a = L.tensor(x, requires_grad=True)
        loss = L.binary_cross_entropy_with_logits(a * 1, L.tensor(t), reduction=reduction, **kw)
        return loss, L.autograd.grad(loss.sum(), a, create_graph=True)

    assert_as_torch(program)


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("wrt", ["input", "target"])
def test_a_broadcast_inputs_logits_loss_backward_is_torchs(create_graph: bool, wrt: str) -> None:
    """torch's backward of that broadcast: the input's gradient in place where no graph is
    recorded (refused), the target's of the input's shape (the engine's refusal)."""
    def program(L: Any) -> Any:
        x = L.zeros(3, requires_grad=wrt == "input")
        t = L.full((2, 3), 0.3, requires_grad=wrt == "target")
        loss = L.binary_cross_entropy_with_logits(x, t, reduction=1)
        return L.autograd.grad(loss, x if wrt == "input" else t, create_graph=create_graph)

    assert_as_torch(program)


BAD = [("list", "x"), ("x", "list"), ("x", "x", "a"), ("x", "x", None), ("x", "x", "x", "s")]


@pytest.mark.parametrize("call", list(itertools.product(["margin_ranking_loss"], SHAPES)) +
                         [("margin_ranking_loss", b) for b in BAD])
def test_torchs_margin_ranking_loss_parses_then_broadcasts(call: tuple) -> None:
    """Fuzz s39: ``torch.margin_ranking_loss([1, 0], ...)`` gave AttributeError (F's Python
    reads ``dim()``); torch's parser names the argument; its kernel broadcasts."""
    _, spec = call

    def program(L: Any) -> Any:
        if isinstance(spec[0], tuple):
            a, b = L.ones(spec[0], requires_grad=True), L.zeros(spec[1])
            loss = L.margin_ranking_loss(a, b, L.tensor([-1.0]), 0.5, 1)
            return loss, L.autograd.grad(loss, a)
        given = {"x": L.ones(3), "list": [1.0, 0.0], "a": "a", "s": "sum", None: None}
        return L.margin_ranking_loss(*(given[k] for k in spec[:3]), L.ones(3),
                                     *(given[k] for k in spec[3:]))

    assert_as_torch(program)


@pytest.mark.parametrize("call", [
    "x.subtract(2, 3)", "L.subtract(x, 2, 3)", "L.rsub(x, 2, 3)", "x.clone().subtract_(2, 3)",
    "L.subtract(x, x, 3)", "L.subtract(x, 2, 'a')", "L.subtract(x, 2, 3, alpha=2)",
    "L.rsub(x, True, 3)", "x.subtract(2, 1.5)", "x.long().subtract(2, 1.5)",
    "L.subtract(2, x, 3)", "x.subtract(x, 3)"])
def test_a_numbers_alpha_may_come_by_position_as_torchs_overload_has_it(call: str) -> None:
    """Own fuzz s39: ``x.subtract(2, 3)`` was refused; torch's ``Number other, Number alpha``
    overload of subtract, subtract_ and rsub takes alpha by position (a tensor's, only by
    keyword)."""
    assert_as_torch(lambda L: eval(call, {"L": L, "x": L.arange(3.0)}))


@pytest.mark.parametrize("call", [
    "L.argmax(x, L.tensor(1.0), L.ones(2))", "x.argmax(0, L.ones(2))", "x.argmin(0, L.ones(1))",
    "L.argmin(x, False, L.ones(3, 3))", "x.argmax(0, True)", "x.argmin(float('nan'), L.ones(2))",
    "L.max_pool1d(x[None], float('inf'), L.ones(0), ())", "L.max_pool1d(x[None], 2, L.ones(0))",
    "L.max_pool1d(x[None], 2, [])", "L.max_pool1d(x[None], 2, L.tensor(1))",
    "L.max_pool2d(x.reshape(1, 1, 3), 1, (), 0, 1, 1)", "L.max_pool1d(x[None], -2)"])
def test_a_flag_or_size_is_parsed_before_it_is_read(call: str) -> None:
    """Own fuzz s39: a tensor given for argmax's keepdim or max_pool1d's stride was read for
    its truth first ("Boolean value of Tensor ... is ambiguous"); torch's parser names it."""
    assert_as_torch(lambda L: eval(call, {"L": L, "x": L.tensor([1.0, 3.0, 2.0])}))
