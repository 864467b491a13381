"""Fuzz 21, session 16: refusals torch makes that minitorch let pass (writes to a recorded
node's read-only attributes, a convolution's kernel or weight with an empty dim, an in-place
op on a dual tensor whose tangent is a leaf that requires grad, a Function's vmap out_dim
outside its output or jvp tangents that do not fit its outputs, an index write from the
written tensor's own memory), numpy errors that escaped (max EmbeddingBag's empty bags,
matrix_exp of a non-finite matrix) and results unlike torch's (circular padding by a negative
pad, count_nonzero over no dims, dropout's tensor p, forward's parameter names). Each
program runs under torch and minitorch: the same result, or the same exception type and
message."""

import inspect

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


JVP = ("class Fn(L.autograd.Function):\n"
       "    @staticmethod\n    def forward(ctx, a): return {out}\n"
       "    @staticmethod\n    def backward(ctx, *g): return g[0]\n"
       "    @staticmethod\n    def jvp(ctx, ta): return {ret}\n"
       "fw = L.autograd.forward_ad\n"
       "with fw.dual_level():\n"
       "    y = Fn.apply(fw.make_dual(L.ones(3), L.ones(3)))\n"
       "    y = y if isinstance(y, tuple) else (y,)\n"
       "    R = tuple(fw.unpack_dual(o).tangent for o in y)\n")


@pytest.mark.parametrize("out", ["a * 2", "(a * 2, a * 3)", "a.long()", "(a * 2, a.long())"])
@pytest.mark.parametrize("ret", ["ta * 2", "(ta, ta)", "(ta,)", "()", "None", "(ta, ta, ta)",
                                 "[ta]", "3", "L.ones(2)", "(ta, None)", "(None, ta)"])
def test_a_functions_jvp_gives_one_tangent_per_output(out: str, ret: str) -> None:
    """What jvp returns is checked as torch does: as many tangents as outputs, each a tensor
    of its output's size, None exactly where the output is not differentiable."""
    assert_as_torch(JVP.format(out=out, ret=ret))


@pytest.mark.parametrize("write", [
    "x[[0, 2]] = x[0]", "x[[0, 2]] = x[0, 0]", "x[[0, 1, 2]] = x", "x[[0, 2]] = x",
    "x[L.tensor([True, False, True])] = x[0]", "x[L.tensor([True, False, True])] = x[0, 0]",
    "x[[0, 2]] = x[0].clone()", "x[[0, 2]] = x[[1, 1]]", "x[0] = x[1]", "x[...] = x",
    "x[:, [0]] = x[:, 1:2]", "x[[0, 2], 0] = x[0, 1]", "x[1:][[0]] = x[0]", "x[[5]] = x[0]",
    "x.t()[[0, 1]] = x.t()[2]", "x.index_put_((L.tensor([0, 2]),), x[0])",
    "x.index_put_((L.tensor([0, 2]),), x[0], accumulate=True)",
    "x.index_copy_(0, L.tensor([0]), x[1:2])", "x.index_copy_(0, L.tensor([5]), x[1:2])",
    "x = x.index_copy(0, L.tensor([0]), x[1:2])"])
def test_a_write_from_the_written_tensors_own_memory_as_torch(write: str) -> None:
    """index_put_ (advanced-index assignment) and index_copy_ refuse a source sharing memory
    with what they write, when both are laid out densely (torch's check gives up on others);
    copy_ and slicing writes allow it."""
    assert_as_torch(f"x = L.arange(12.).view(3, 4)\n{write}\nR = x")


@pytest.mark.parametrize("indices, offsets", [([], [0]), ([], [0, 0]), ([1, 2], [0, 0]),
                                              ([1, 2, 3], [0, 2]), ([3, 3], [0, 1, 1])])
def test_max_embedding_bag_with_empty_bags_backward(indices: list, offsets: list) -> None:
    assert_as_torch("m = L.nn.EmbeddingBag(4, 3, mode='max')\n"
                    "with L.no_grad(): m.weight.copy_(L.arange(12.).view(4, 3) * "
                    "L.tensor([1., -1., 1.]))\n"
                    f"y = m(L.tensor({indices}, dtype=L.int64), L.tensor({offsets}))\n"
                    "y.sum().backward()\nR = (y, m.weight.grad)")


@pytest.mark.parametrize("matrix", ["[[inf, 1.], [1., 2.]]", "[[nan, 0.], [0., 1.]]",
                                    "[[-inf, 0.], [0., 1.]]", "[[1e30, 0.], [0., 1.]]",
                                    "[[[inf, 1.], [1., 2.]], [[1., 0.], [0., 1.]]]"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_matrix_exp_of_a_non_finite_matrix(matrix: str, dtype: str) -> None:
    """A NaN or infinite norm takes torch's scaling-and-squaring path: NaN, not an error."""
    assert_as_torch(f"inf, nan = float('inf'), float('nan')\n"
                    f"A = L.tensor({matrix}, dtype=L.{dtype}, requires_grad=True)\n"
                    "r = L.matrix_exp(A)\nr.sum().backward()\nR = (r.detach(), A.grad)")


@pytest.mark.parametrize("dim", ["()", "[]", "(0,)", "None"])
@pytest.mark.parametrize("shape", ["(0,)", "(2, 3)", "()"])
def test_count_nonzero_over_no_dims_counts_all(dim: str, shape: str) -> None:
    assert_as_torch(f"R = L.ones({shape}).count_nonzero({dim})")


@settings(max_examples=60, deadline=None)
@given(st.integers(-3, 4), st.integers(-3, 4), st.integers(1, 4))
def test_circular_padding_with_negative_pads_as_torch(left: int, right: int, n: int) -> None:
    """A negative pad crops first, then the rest wraps around what is left, as torch's copy
    does (refused where that copy would read what it writes)."""
    if n - max(-left, 0) - max(-right, 0) < 1:
        return  # torch reads memory it never wrote: nothing to compare
    assert_as_torch(f"x = L.arange({n}.).view(1, 1, {n}).requires_grad_()\n"
                    f"r = L.nn.functional.pad(x, ({left}, {right}), mode='circular')\n"
                    "r.sum().backward()\nR = (r.detach(), x.grad)")


@pytest.mark.parametrize("alpha", ["'a'", "0", "0.", "None", "2."])
@pytest.mark.parametrize("x", ["L.tensor([True])", "L.tensor([1])", "L.tensor([-1.])"])
def test_celu_parses_alpha_before_its_division_and_dtype_check(x: str, alpha: str) -> None:
    assert_as_torch(f"R = L.nn.functional.celu({x}, alpha={alpha})")


@pytest.mark.parametrize("p", ["L.tensor(0.5)", "L.tensor(1.5)", "L.tensor([0.5])",
                               "L.tensor([0.5, 0.2])", "L.tensor(1)", "L.tensor(True)",
                               "L.tensor(0.5, requires_grad=True)", "L.tensor(-0.5)"])
@pytest.mark.parametrize("fn", ["dropout", "alpha_dropout", "feature_alpha_dropout",
                                "dropout1d", "dropout2d", "dropout3d"])
def test_every_dropout_takes_a_zero_dim_tensor_probability(fn: str, p: str) -> None:
    """torch's Python range check compares a one-element tensor p, then its parser reads a
    0-d one (not requiring grad) as a double: the same for each dropout."""
    assert_as_torch(f"R = L.nn.functional.{fn}(L.ones(2, 2, 2), {p}, training=False)")


def _forward_parameters(module_type: type) -> list:
    return list(inspect.signature(module_type.forward).parameters)[1:]


def test_module_forwards_take_torchs_parameter_names() -> None:
    """``m(input=x)`` works and ``m(x=x)`` is refused as in torch: each layer's forward
    names its parameters as torch's does (the base Module's forward, abstract, aside)."""
    import torch

    import minitorch as mt

    for name in dir(torch.nn):
        theirs, ours = getattr(torch.nn, name), getattr(mt.nn, name, None)
        if name == "Module" or not (isinstance(theirs, type) and isinstance(ours, type)
                                    and issubclass(theirs, torch.nn.Module)
                                    and "forward" in theirs.__dict__):
            continue
        assert _forward_parameters(ours) == _forward_parameters(theirs), name


@pytest.mark.parametrize("layer", ["ELU()", "GELU()", "Hardtanh()", "LeakyReLU()", "SiLU()"])
@pytest.mark.parametrize("keyword", ["input", "x"])
def test_an_activation_layer_called_by_keyword(layer: str, keyword: str) -> None:
    assert_as_torch(f"R = L.nn.{layer}({keyword}=L.tensor([-1., 2.]))")


@pytest.mark.parametrize("call", ["elu(y, -2., True)", "elu(y, 0., True)", "elu(y, 2., True)",
                                  "elu_(y, -1.)", "celu(y, -2., True)", "celu(y, 2., True)",
                                  "leaky_relu(y, -2., True)", "leaky_relu(y, 0., True)",
                                  "leaky_relu(y, 0.1, True)", "elu(y, -2., 'a')",
                                  "leaky_relu_(y, -0.5)", "selu(y, True)"])
@pytest.mark.parametrize("create_graph", [False, True])
def test_in_place_activation_with_a_negative_slope_has_no_backward(call: str,
                                                                    create_graph: bool) -> None:
    """Its backward reads the result, ambiguous under a negative slope: refused as torch."""
    assert_as_torch("x = L.tensor([[-2., -0.5, 0., 0.5, 3.]], requires_grad=True)\n"
                    f"y = x * 1\nr = L.nn.functional.{call}\n"
                    f"R = L.autograd.grad(r.sum(), x, create_graph={create_graph})")


@pytest.mark.parametrize("fn", ["eye_", "dirac_", "orthogonal_", "sparse_"])
def test_init_of_a_list_fails_as_torchs_does(fn: str) -> None:
    args = ", 0.3" if fn == "sparse_" else ""
    assert_as_torch(f"R = L.nn.init.{fn}([[1., 2.]]{args})")
