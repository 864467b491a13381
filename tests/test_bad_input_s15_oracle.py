"""Refusals found by fuzz D that were worded or ordered unlike torch's (or not made at all):
vmap's in_dims leaves of any type, forward AD's level checks in torch's order (and a second
make_dual of a dual tensor), bilinear's dtype check before its shapes, layer weights made
from a tuple of sizes as torch's ``empty((...))`` does. Each program runs under torch and
minitorch: the same result, or the same exception type and message."""

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch

import minitorch as mt

VMAP = "L.vmap(lambda x, y: x + y, in_dims={dims})(L.ones(2), L.ones(2))"


@pytest.mark.parametrize("dims", ["('0', 0)", "(0.0, 0)", "((0,), 0)", "(None, 'a')",
                                  "[0]", "(0, None)", "(None, None)", "(True, 0)"])
def test_vmap_in_dims_leaves_as_torch(dims: str) -> None:
    """A leaf of in_dims of any type stands for the subtree under it, as torch's pytree
    broadcast: a string or float is then refused as no integer dimension, not as a tree."""
    assert_as_torch("R = " + VMAP.format(dims=dims))


@pytest.mark.parametrize("program", [
    "R = L.vmap(lambda x: x[0] + x[1], in_dims=('a',))((L.ones(2), L.ones(2)))",
    "R = L.vmap(lambda x: x['a'], in_dims=({'a': 0},))({'a': L.ones(2)})",
    "R = L.vmap(lambda x: x['a'], in_dims=({'b': 0},))({'a': L.ones(2)})",
    "R = L.vmap(lambda x, y: x + y, in_dims=([0], 0))((L.ones(2),), L.ones(2))",
])
def test_vmap_in_dims_trees_as_torch(program: str) -> None:
    assert_as_torch(program)


FW = "fw = L.autograd.forward_ad\n"


@pytest.mark.parametrize("program", [
    FW + "fw.exit_dual_level(); R = 1",
    FW + "fw.exit_dual_level(level=0); R = 1",
    FW + "fw.exit_dual_level(level=-1); R = 1",
    FW + "with fw.dual_level():\n    R = fw.make_dual(L.ones(3), L.ones(2, 3), level=1)",
    FW + "with fw.dual_level():\n    R = fw.make_dual(L.ones(3), L.ones(2, 3), level=0)",
    FW + "with fw.dual_level():\n    R = fw.make_dual(L.ones(3), L.ones(3), level=1.5)",
    FW + "with fw.dual_level():\n    d = fw.make_dual(L.ones(3), L.ones(3))\n"
         "    R = fw.make_dual(d, L.ones(3))",
    FW + "with fw.dual_level():\n    d = fw.make_dual(L.ones(3), L.ones(3))\n"
         "    R = fw.make_dual(d, L.ones(2))",
    FW + "with fw.dual_level():\n    d = fw.make_dual(L.ones(3), L.ones(3))\n"
         "    R = fw.make_dual(d * 2, L.ones(3), level=1)",
    FW + "with fw.dual_level():\n    d = fw.make_dual(L.ones(3), L.ones(3))\n"
         "    R = fw.unpack_dual(fw.make_dual(d.detach(), L.zeros(3)) * d)",
    FW + "with fw.dual_level():\n    fw.exit_dual_level(level=1)\nR = 1",
])
def test_forward_ad_levels_as_torch(program: str) -> None:
    """Exiting no level, a level that is not the current one, a dual made at another level or
    of a tensor that already has a tangent there: torch's checks in torch's order."""
    assert_as_torch(program)


@pytest.mark.parametrize("dtypes", [("float32", "float16", "float32", None),
                                    ("float32", "int64", "float32", None),
                                    ("float64", "float64", "float32", "float64"),
                                    ("float32", "float32", "float32", "bool"),
                                    ("float64", "float64", "float64", "float64")])
@pytest.mark.parametrize("shapes", [("5, 3", "4, 3", "4, 2, 3", "4"),
                                    ("2", "5, 3", "4, 2, 3", "4"),
                                    ("4, 2", "4, 3", "5, 2, 3", "5")])
def test_bilinear_checks_dtypes_first_as_torch(dtypes: tuple, shapes: tuple) -> None:
    """bilinear refuses mixed dtypes before it looks at shapes, naming each dtype as C++."""
    parts = [f"L.ones({s}, dtype=L.{d})" for s, d in zip(shapes, dtypes) if d]
    assert_as_torch(f"R = L.nn.functional.bilinear({', '.join(parts)})")


@pytest.mark.parametrize("program", [
    "R = L.nn.ConvTranspose2d(True, 4, (2, 0), padding=(1,))",
    "R = L.nn.ConvTranspose2d(2.0, 4, 0, padding='same', stride=2)",
    "R = L.nn.Conv2d(2.0, 4, 3)", "R = L.nn.Conv2d(2, 4.0, 3)", "R = L.nn.Conv2d(2, 4, 3.0)",
    "R = L.nn.MultiheadAttention(4.0, 2)", "R = L.nn.MultiheadAttention(4, 2, kdim=2.5)",
    "R = L.nn.MultiheadAttention(True, 1)",
])
def test_layer_weight_sizes_as_torch(program: str) -> None:
    """A layer's weight is ``empty((sizes...))``: a float or bool size is refused by torch's
    size parser in its own words, not by Python's arity."""
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    "R = L.nn.Bilinear(0, 3, 4)", "R = L.nn.Bilinear(-1, 3, 4)",
    "R = L.nn.Bilinear(2, 0, 4).weight.shape",
    "x = L.zeros(0, 3, requires_grad=True)\n"
    "l = L.nn.functional.multilabel_margin_loss(x, L.zeros(0, 3, dtype=L.int64), "
    "reduction='none')\nl.sum().backward()\nR = (l, x.grad)",
    "R = L.nn.functional.multilabel_margin_loss(L.ones(2, 4), L.zeros(2, 4, dtype=L.int64), "
    "reduction='elementwise_mean')",
])
def test_empty_layers_and_losses_as_torch(program: str) -> None:
    """Bilinear refuses no first input feature in torch's words (not by dividing by zero); a
    multi-label margin loss of no frames is empty, and so is its gradient."""
    assert_as_torch(program)


def test_multilabel_margin_loss_of_no_frames_reduces_without_error() -> None:
    """torch's mean and sum of no frames are undefined memory; minitorch's are the sum (0) and
    that sum over no frames (NaN), and the gradient is empty."""
    for reduction, want in (("sum", 0.0), ("mean", None)):
        x = mt.zeros(0, 3, requires_grad=True)
        loss = mt.nn.functional.multilabel_margin_loss(x, mt.zeros(0, 3, dtype=mt.int64),
                                                       reduction=reduction)
        loss.backward()
        assert (loss.item() == want) if want is not None else loss.isnan().item()
        assert tuple(x.grad.shape) == (0, 3)


@pytest.mark.parametrize("program", [
    "R = +L.tensor([True, False])", "x = L.ones(2, requires_grad=True); R = (+x) is x",
    "R = L.tensor(2.0).bernoulli_(L.tensor([0.2]))",
    "R = L.tensor([2.0, 1.0]).bernoulli_(L.tensor([0.2, 0.3, 0.4]))",
    "L.manual_seed(0); R = L.ones(2, 3).bernoulli_(L.tensor([0.0, 1.0, 0.0]))",
    "R = L.nn.ConvTranspose2d(2, 3, 3, output_padding=2)(L.ones(3), L.ones(3))",
])
def test_operators_samplers_and_output_sizes_as_torch(program: str) -> None:
    """``+`` refuses a bool tensor (as ``positive``); bernoulli_'s probabilities expand to
    the tensor with torch's expand errors (not numpy's broadcast error); an output size read
    from a dim the input lacks is torch's dim error."""
    assert_as_torch(program)
