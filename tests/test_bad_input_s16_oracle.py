"""Refusals torch makes that minitorch let pass (fuzz 21, session 16): writes to a recorded
node's read-only attributes, a convolution's kernel or weight with an empty dim, an in-place
op on a dual tensor whose tangent is a leaf that requires grad, and a Function's vmap rule
returning an out_dim outside its output. Each program runs under torch and minitorch: the
same result, or the same exception type and message."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_bad_input_fuzz21b_oracle import assert_as_torch

LEAF = "x = L.ones(3, requires_grad=True)\nacc = (x * 2).grad_fn.next_functions[0][0]\n"
CUSTOM = ("class Fn(L.autograd.Function):\n"
          "    @staticmethod\n    def forward(ctx, x): return x * 2\n"
          "    @staticmethod\n    def backward(ctx, g): return g\n"
          "node = Fn.apply(L.ones(3, requires_grad=True)).grad_fn\n")


@pytest.mark.parametrize("name", ["next_functions", "metadata"])
@pytest.mark.parametrize("node", ["(L.ones(2, requires_grad=True) * 2).grad_fn",
                                  "(L.ones(2, requires_grad=True)).sum().grad_fn"])
def test_an_op_nodes_getters_are_not_writable(node: str, name: str) -> None:
    assert_as_torch(f"n = {node}\nn.{name} = ()\nR = 1")


@pytest.mark.parametrize("name", ["foo", "variable", "next_functions", "metadata", "name",
                                  "register_hook", "_saved_self", "requires_grad"])
def test_accumulate_grad_refuses_every_write(name: str) -> None:
    """AccumulateGrad is a C++ node without an instance dict: any write is refused, worded
    by what torch's type has under that name (a getter, a method, nothing)."""
    assert_as_torch(LEAF + f"acc.{name} = 1\nR = 1")


@pytest.mark.parametrize("name, ok", [("next_functions", False), ("saved_tensors", False),
                                      ("metadata", False), ("foo", True), ("name", True)])
def test_a_custom_nodes_own_attributes_are_writable_not_its_getters(name: str,
                                                                    ok: bool) -> None:
    assert_as_torch(CUSTOM + f"node.{name} = 1\nR = node.{name} if {ok} else 0")


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 3), st.lists(st.integers(0, 2), min_size=3, max_size=5),
       st.booleans(), st.booleans())
def test_empty_kernels_and_weights_as_torch(rank: int, sizes: list, transposed: bool,
                                            empty_batch: bool) -> None:
    """Any weight with an empty dim (out or in channels, a kernel side), for every
    convolution rank and conv_transpose2d, with an input whose batch is empty or not: the
    result or refusal torch gives, in torch's order."""
    if transposed:
        rank = 2
    weight = (2 if transposed else 3, *sizes[:1], *sizes[1:rank + 1], *[1] * 3)[:rank + 2]
    batch = 0 if empty_batch else 1
    fn = "conv_transpose2d" if transposed else f"conv{rank}d"
    assert_as_torch(f"R = L.nn.functional.{fn}(L.ones({batch}, 2, *[4] * {rank}), "
                    f"L.ones{tuple(weight)})")


DUAL = ("fw = L.autograd.forward_ad\nt = L.ones(3, requires_grad=True)\n"
        "with fw.dual_level():\n    d = fw.make_dual(L.ones(3), t)\n")


@pytest.mark.parametrize("op", ["d.add_(1)", "d.mul_(2)", "d.zero_()", "d.copy_(L.ones(3))",
                                "d.relu_()", "d.sin_()", "L.ones(3).add_(d)"])
def test_in_place_on_a_dual_whose_tangent_is_a_leaf_that_requires_grad(op: str) -> None:
    """The op writes the tangent in place: refused as torch refuses a leaf that requires grad
    (writing into a plain tensor from a dual one makes a new tangent: allowed)."""
    assert_as_torch(DUAL + f"    R = fw.unpack_dual({op}).primal")


RULE = ("class Fn(L.autograd.Function):\n"
        "    generate_vmap_rule = False\n"
        "    @staticmethod\n    def forward(x): return x * 2\n"
        "    @staticmethod\n    def setup_context(ctx, inputs, output): pass\n"
        "    @staticmethod\n    def backward(ctx, g): return g * 2\n"
        "    @staticmethod\n    def vmap(info, in_dims, x): return x * 2, {out_dim}\n"
        "R = L.vmap(Fn.apply)(L.ones(2, 3))\n")


@pytest.mark.parametrize("out_dim", ["5", "-5", "2", "-3", "1", "-1", "-2", "0", "None", "'0'"])
def test_a_vmap_rules_out_dim_is_checked_against_its_output(out_dim: str) -> None:
    """torch counts a negative out_dim once from the output's end, then checks it as a dim."""
    assert_as_torch(RULE.format(out_dim=out_dim))
