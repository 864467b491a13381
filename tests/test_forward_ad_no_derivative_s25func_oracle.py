"""Ops torch records under its NotImplemented node (no derivative at all) refuse a dual
operand under forward AD, in torch's words (issue #21): minitorch dropped the tangent and
returned a result with none."""

from __future__ import annotations

import pytest

from tests.oracle import assert_as_torch

OPS = {
    "detach_copy": lambda L, d: L.detach_copy(d),
    "heaviside_input": lambda L, d: L.heaviside(d, L.ones(3)),
    "heaviside_values": lambda L, d: L.heaviside(L.ones(3), d),
    "remainder_of_number": lambda L, d: L.remainder(2.0, d),
    "floor_divide": lambda L, d: L.floor_divide(d, 2),
    "floor_divide_by_dual": lambda L, d: L.floor_divide(L.ones(3), d),
    "native_channel_shuffle": lambda L, d: L.native_channel_shuffle(d.reshape(1, 3, 1), 3),
    # still fine: copies that are views' copies carry the tangent
    "alias_copy": lambda L, d: L.alias_copy(d),
    "t_copy": lambda L, d: L.t_copy(d),
}


def _tangent_through(L, op, grad_enabled):
    fw = L.autograd.forward_ad
    with fw.dual_level(), L.set_grad_enabled(grad_enabled):
        dual = fw.make_dual(L.tensor([1.5, -2.0, 3.0]), L.ones(3))
        out = fw.unpack_dual(OPS[op](L, dual))
        return out.primal, out.tangent


@pytest.mark.parametrize("grad_enabled", [True, False])
@pytest.mark.parametrize("op", list(OPS))
def test_dual_operand(op, grad_enabled):
    assert_as_torch(lambda L: _tangent_through(L, op, grad_enabled))


@pytest.mark.parametrize("op", ["detach_copy", "heaviside_input", "floor_divide"])
def test_under_jvp(op):
    assert_as_torch(lambda L: L.func.jvp(lambda x: OPS[op](L, x), (L.ones(3),), (L.ones(3),)))


def test_plain_operands_still_run():
    assert_as_torch(lambda L: (L.detach_copy(L.ones(2)), L.heaviside(L.ones(2), L.zeros(2))))
