"""Fresh fuzz seeds of session 40 and what they opened: torch's C forms of the losses
(``torch.triplet_margin_loss`` and its kin), whose parser reads every argument's type before
the loss runs, and the activations whose scalars torch's parser names ``Number``. Each case
runs under torch and minitorch (``L``) and must raise torch's exception with torch's message,
or give torch's result. The sweeps loop inside one test each and report every mismatch."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.oracle import assert_as_torch, mismatches

BAD = {"list": "[1]", "tensor": "L.ones(1)", "float": "0.5", "None": "None", "str": "'a'",
       "bool": "True", "numpy float": "np.float64(1.0)", "big int": "2 ** 64"}

# torch's C loss functions: (tensor count, their scalars after the tensors with a valid value)
LOSSES = {
    "triplet_margin_loss": (3, {"margin": "1.0", "p": "2.0", "eps": "1e-6", "swap": "False",
                                "reduction": "1"}),
    "hinge_embedding_loss": (2, {"margin": "1.0", "reduction": "1"}),
    "cosine_embedding_loss": (3, {"margin": "0.0", "reduction": "1"}),
    "margin_ranking_loss": (3, {"margin": "0.0", "reduction": "1"}),
    "kl_div": (2, {"reduction": "1"}),
}


def _loss_calls(name: str) -> list[str]:
    """Every argument of ``name`` in turn given each bad value: by position, by keyword, and
    by position with a stray keyword after it."""
    count, scalars = LOSSES[name]
    tensors = ["L.ones(2, 3)"] * count if name != "cosine_embedding_loss" else \
        ["L.ones(2, 3)", "L.ones(2, 3)", "L.ones(2)"]
    calls = []
    for position, bad in ((p, b) for p in range(count) for b in BAD.values()):
        given = [*tensors[:position], bad, *tensors[position + 1:]]
        calls.append(f"L.{name}({', '.join(given)})")
    names = list(scalars)
    for j, bad in ((j, b) for j in range(len(names)) for b in BAD.values()):
        before = ", ".join([*tensors, *(scalars[n] for n in names[:j])])
        calls += [f"L.{name}({before}, {bad})", f"L.{name}({before}, {bad}, zz=1)",
                  f"L.{name}({', '.join(tensors)}, {names[j]}={bad})"]
    return calls


@pytest.mark.parametrize("name", list(LOSSES))
def test_a_c_loss_parses_every_argument_as_torchs_parser(name: str) -> None:
    """Own scan s40: torch.triplet_margin_loss(a, p, n, [1]) failed inside F's Python
    ('<=' not supported between list and int); torch's parser refuses the margin's type."""
    calls = {call: lambda L, call=call: eval(call, {"L": L, "np": np})
             for call in _loss_calls(name)}
    assert not (found := mismatches(calls)), "\n".join(found)


@pytest.mark.parametrize("call", [
    "L.rrelu(L.ones(1), [2, -1], (0, 1), p=None)",
    "L.rrelu(L.ones(1, dtype=L.int8), L.ones(0, 3), 2, offset=np.int64(1))",
    "L.rrelu_(L.ones(1), 0.1, [1], zz=1)",
    "L.celu_(L.ones(1) > 0, L.tensor([0, 1]), largest=[0])",
    "L.celu(L.ones(1), 'a', zz=1)",
    "L.threshold_(L.ones(2, 2), [1])",
    "L.threshold_(L.ones(2, 2), 0.5, [1], zz=1)",
    "L.threshold(L.ones(2, 2), [1], zz=1)"])
def test_an_activations_scalars_are_numbers_to_torchs_parser(call: str) -> None:
    """Own fuzzer s40 seed 5: a scalar of rrelu, celu_ or threshold_ refused with a stray
    keyword (or a missing argument) was named 'float'; torch's parser says 'Number'."""
    assert_as_torch(lambda L: eval(call, {"L": L, "np": np}))


@pytest.mark.parametrize("call", [
    "L.clamp(L.tensor(-0.8), L.tensor(-2.7939), 0, out=L.zeros(()))",
    "L.clamp(x, 0.5, L.tensor(1), out=L.zeros(2))",
    "L.clip(x, L.tensor(0.5), 1, out=L.zeros(2))",
    "L.clamp(x, min=L.tensor(0.5), max=1, out=L.zeros(2))",
    "L.clip(x, L.tensor(0.5, requires_grad=True), 1, out=L.zeros(2))",
    "L.clip(x, L.tensor([0.5]), 1, out=L.zeros(2))",
    "L.clamp(n, min=L.tensor(0.5), max=1, out=L.zeros(2, dtype=L.long))",
    "L.clamp(n, L.tensor(2 ** 40), 1, out=L.zeros(2, dtype=L.int32))",
    "L.clamp(n, L.tensor(2 ** 40), max=1, out=L.zeros(2, dtype=L.int32))",
    "L.clamp(n, None, L.tensor(1), out=L.zeros(2, dtype=L.int32))",
    "L.clamp(n.int(), L.tensor(2), L.tensor(1), out=L.zeros(2, dtype=L.int32))"])
def test_a_0d_bound_next_to_a_number_is_a_number_with_out_too(call: str) -> None:
    """Math fuzzer s40 (seed 3903): clamp(x, tensor(-2.8), 0, out=o) was refused as an
    invalid combination; torch's parser reads a 0-d bound that needs no grad, next to a
    number, as a number, with out= as without (and checks out as it does for numbers)."""
    def program(L: Any) -> Any:
        x, n = L.tensor([-0.8, 3.0]), L.tensor([-1, 3])
        return eval(call, {"L": L, "x": x, "n": n})

    assert_as_torch(program)


LAYOUT_OPS = ["L.mul(a, b)", "L.add(a, b)", "L.sub(a, b, alpha=2)", "L.div(a, b)",
              "L.maximum(a, b)", "L.eq(a, b)", "L.logical_or(a, b)", "L.bitwise_and(a, b)",
              "L.atan2(a, b)", "L.kron(a, b)"]


@pytest.mark.parametrize("dtypes", [("int32", "bool"), ("float32", "int64"),
                                    ("int8", "int16"), ("float64", "float32")])
def test_an_elementwise_result_is_laid_out_by_its_operands_before_their_cast(
        dtypes: tuple) -> None:
    """Math fuzzer s40 (seed 3903): int32.kron(expanded bool) was refused (the product's
    view failed): minitorch laid the product out by the bool operand's cast copy, which had
    lost its zero strides; torch's TensorIterator reads the operands as given."""
    def program(L: Any, call: str) -> Any:
        a = L.tensor([[-4], [4]]).to(getattr(L, dtypes[0])).reshape(2, 1, 1, 1)
        b = L.tensor([[0, 0, 1]]).to(getattr(L, dtypes[1])).expand(2, 3).reshape(1, 2, 1, 3)
        out = eval(call, {"L": L, "a": a, "b": b})
        return out, out.stride()

    calls = {call: lambda L, call=call: program(L, call) for call in LAYOUT_OPS}
    assert not (found := mismatches(calls)), "\n".join(found)
