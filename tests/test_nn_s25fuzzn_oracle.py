"""Bad input to torch.nn found by issue #21's nn fuzz on seeds 25200-25299, against live
torch: each program runs on torch and on minitorch (``L``) and must end the same way (the
value of ``R``, or the exception's type and message).
"""

from __future__ import annotations

import itertools

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch

_PROGRAMS = [
    # pairwise_distance of 0-d operands: torch's norm over their dim -1 reduces nothing
    "R = L.nn.functional.pairwise_distance(L.tensor(0.7768), L.tensor(0.), p=1e-12, "
    "keepdim=True)",
    "R = L.nn.functional.pairwise_distance(L.tensor(-0.5), L.tensor(0.), p=0.5)",
    "R = L.nn.functional.pairwise_distance(L.tensor(1e30), L.tensor(0.))",
    # cosine_similarity keeps a float32 operand float32 (its norm overflows there)
    "R = L.nn.functional.cosine_similarity(L.tensor([[0.755, -1.4], [1e30, 0.19]]), "
    "L.tensor([[-1.5, -1.2], [0.47, 0.88]], dtype=L.float64), dim=-2)",
    "R = L.nn.functional.cosine_similarity(L.tensor([[1, 2], [3, 4]]), "
    "L.tensor([[1e30, 2.], [3., 4.]]))",
    # rrelu_ takes infinite bounds (ordered ones); its training draw refuses an infinite range
    "R = L.nn.functional.rrelu(L.tensor([1.5, -2.]), float('-inf'), 0.3, inplace=True)",
    "R = L.nn.functional.rrelu(L.tensor([1.5, -2.]), 0.1, float('nan'), inplace=True)",
    "R = L.nn.functional.rrelu(L.tensor([1.5, -2.]), float('-inf'), 0.3, training=True, "
    "inplace=True)",
    "R = L.nn.functional.rrelu(L.tensor([1.5, -2.]), float('-inf'), 0.3)",
    "R = L.nn.functional.rrelu(L.tensor([1.5, -2.]), -1e308, 0.1)",
    "R = L.nn.functional.rrelu(L.tensor([1.5, -2.]), -3.5e38, 0.1, training=True)",
    "R = L.nn.functional.rrelu(L.tensor([1.5, -2.], dtype=L.float64), -3.5e38, 0.1, "
    "training=True).shape",
    # ModuleList.insert is torch's loop over names: no type check, a negative index fails
    # looking up "-1" (after moving entries up), a non-int index in range()
    "m = L.nn.ModuleList(); m.insert(5, L.nn.Parameter(L.ones(1))); R = list(m._modules)",
    "m = L.nn.ModuleList([L.nn.ReLU()]); m.insert(0, 3); R = list(m._modules)",
    "m = L.nn.ModuleList([L.nn.ReLU(), L.nn.ELU()]); m.insert(True, L.nn.Tanh()); R = repr(m)",
    "m = L.nn.ModuleList([L.nn.ReLU()]); m.insert(-5, L.nn.Tanh())",
    "m = L.nn.ModuleList([L.nn.ReLU()]); m.insert(2.5, L.nn.Tanh())",
    # linear folds only a contiguous input into addmm: another one's bias is added after
    "x = L.ones(3, 4, 2, requires_grad=True).transpose(0, 1)\n"
    "R = L.nn.functional.linear(x, L.ones(5, 2), L.ones(5)).grad_fn.name()",
    "x = L.ones(2, 3, 4, 2).transpose(0, 2)\n"
    "R = L.nn.functional.linear(x, L.ones(5, 2), L.ones(1, 1, 1, 5))",
]

_NORM_DTYPES = ["float16", "float32", "float64", "int64", None]


@pytest.mark.parametrize("norm", ["layer_norm", "group_norm"])
@pytest.mark.parametrize(("input", "weight", "bias"),
                         list(itertools.product(_NORM_DTYPES[:4], _NORM_DTYPES, _NORM_DTYPES)))
def test_norm_parameter_dtypes_as_torch(norm: str, input: str, weight: str | None,
                                        bias: str | None) -> None:
    """torch's mixed-dtype check reads the first parameter: of another dtype than the input,
    all must be float32 ("expect ... Float") and the input half (its mixed mode, computed in
    float32, rounded once), else "all inputs must share"; a half input's affine step is
    float32 too."""
    w = "None" if weight is None else f"L.tensor([1.5, 2.]).to(L.{weight})"
    b = "None" if bias is None else f"L.tensor([1., -1.]).to(L.{bias})"
    call = ("layer_norm(x, (2,), weight=w, bias=b)" if norm == "layer_norm" else
            "group_norm(x, 1, weight=w, bias=b)")
    assert_as_torch(f"x = L.arange(8.).reshape(4, 2).to(L.{input})\nw = {w}\nb = {b}\n"
                    f"R = L.nn.functional.{call}")


@pytest.mark.parametrize("program", _PROGRAMS)
def test_ends_as_torch(program: str) -> None:
    assert_as_torch(program)


@pytest.mark.parametrize(("x", "out_channels", "kernel", "dilation", "output_padding",
                          "groups"),
                         [(x, oc, k, d, op, g) for x, oc, k, d, op, g in itertools.product(
                             ["(2, 4, 3)", "(1, 4, 3)", "(2, 4, 3, 3)", "(2, 4, 3, 3, 3)",
                              "(17, 4, 3)", "(4, 3)"],
                             [0, 2], [0, 1, 3], [0, 1, 2], [0, 1], [1, 2])
                          if (op, d) != (1, 2)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_conv_transpose_refuses_as_torch(x: str, out_channels: int, kernel: int,
                                         dilation: int, output_padding: int, groups: int,
                                         dtype: str) -> None:
    """A transposed convolution's checks in torch's order (kernel, dilation, output padding,
    then a non-empty weight, each group's); where torch picks oneDNN (float32, batched) its
    own refusals instead: an empty weight or a zero dilation of a wider kernel it cannot
    describe."""
    dims = x.count(",") - 1 if x != "(4, 3)" else 1
    weight = (4, out_channels) + (kernel,) * dims
    assert_as_torch(f"x = L.ones{x}.to(L.{dtype})\n"
                    f"w = L.ones{weight}.to(L.{dtype})\n"
                    f"R = L.nn.functional.conv_transpose{dims}d(x, w, stride=2, "
                    f"dilation={dilation}, output_padding={output_padding}, groups={groups})")


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "Adagrad"])
@pytest.mark.parametrize("fused", [True, False])
def test_a_bool_weight_decay_as_torch(name: str, fused: bool) -> None:
    """torch's fused kernel reads weight_decay=True as 1.0; its plain step hands it to
    ``add(alpha=)``, which refuses a bool alpha."""
    assert_as_torch("w = L.tensor([1., -2., 3.], requires_grad=True)\n"
                    f"opt = L.optim.{name}([w], lr=0.1, weight_decay=True, fused={fused})\n"
                    "for _ in range(2):\n    w.grad = L.ones(3); opt.step()\n"
                    "R = w.detach()")

