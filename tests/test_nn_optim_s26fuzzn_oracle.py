"""Bad input to torch.nn and torch.optim found by issue #21's nn fuzz on seeds 26201-26211,
against live torch: each program runs on torch and on minitorch (``L``) and must end the same
way (the value of ``R``, or the exception's type and message).
"""

from __future__ import annotations

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch


def _steps(optimizer: str, settings: str, steps: int = 1, shape: str = "2") -> str:
    """A program: ``steps`` steps of ``optimizer`` with ``settings`` on a parameter of
    ``shape``; ``R`` is the parameter after them."""
    return (f"p = L.zeros({shape}, requires_grad=True)\n"
            f"o = L.optim.{optimizer}([p], {settings})\n"
            f"for i in range({steps}):\n"
            f"    p.grad = L.ones({shape}) * (i + 1.5)\n"
            f"    o.step()\n"
            "R = p")


# a tensor setting meets torch's in-place ops with its shape: more dims than the state it
# writes refused ('output with shape'), a non-0-d one where a Number is read refused
# ('must be Number'), several values where torch unpacks rows taken as rows
_OPTIM = [
    _steps("SGD", "lr=0.1, momentum=L.tensor([[0.9]])", 2),
    _steps("SGD", "lr=0.1, momentum=L.tensor([0.9])", 2),
    _steps("SGD", "lr=0.1, momentum=L.tensor(0.9)", 2),
    _steps("Adam", "eps=L.tensor([[1e-8]])"),
    _steps("Adam", "eps=L.tensor([1e-8])", shape="()"),
    _steps("AdamW", "weight_decay=L.tensor([[0.1]])"),
    _steps("Adamax", "eps=L.tensor([[[0.5]]])"),
    _steps("NAdam", "eps=L.tensor([[0.1]])"),
    _steps("NAdam", "momentum_decay=L.tensor([0.5])"),
    _steps("RMSprop", "alpha=L.tensor([0.5])"),
    _steps("RMSprop", "alpha=L.tensor([[0.5]])"),
    _steps("RMSprop", "alpha=L.tensor(0.5)", 2),
    _steps("RMSprop", "alpha=L.tensor([0.5], dtype=L.float64)", 3, shape="()"),
    _steps("RMSprop", "eps=L.tensor([[0.1]])"),
    _steps("RMSprop", "momentum=L.tensor([[0.9]])"),
    _steps("RMSprop", "momentum=L.tensor([[0.9]]), centered=True", shape="()"),
    _steps("Adadelta", "rho=L.tensor([0.5])"),
    _steps("Adadelta", "eps=L.tensor([[0.1]])"),
    _steps("Adadelta", "eps=L.tensor([[0.1]])", shape="()"),
    _steps("Adagrad", "initial_accumulator_value=L.tensor([0.5])"),
    _steps("Adagrad", "initial_accumulator_value=L.tensor(0.5)"),
    _steps("Adagrad", "eps=L.tensor([[0.1]])"),
    _steps("ASGD", "lambd=L.tensor([0.1, 0.2])"),
    _steps("ASGD", "lambd=L.tensor([0.1, 0.2, 0.3])"),
    _steps("ASGD", "lambd=L.tensor([0.5])"),
    _steps("ASGD", "lambd=L.tensor([[0.1]])"),
    _steps("ASGD", "lambd=L.tensor([1e-4], dtype=L.float64), weight_decay=0.1", 2,
           shape="2, 1"),
    _steps("ASGD", "alpha=L.tensor([0.1, 0.2])"),
    _steps("ASGD", "alpha=L.tensor([[0.1]])"),
    _steps("ASGD", "t0=L.tensor([0.5])", 2),
    _steps("ASGD", "t0=L.tensor([0.5])", 1),
    _steps("Rprop", "step_sizes=L.tensor([0.1, 0.2])", 2),
    _steps("Adafactor", "eps=L.tensor([0.1, 0.2])", 2),
    _steps("Adafactor", "eps=L.tensor([0.1, 0.2, 0.3])"),
    _steps("Adafactor", "weight_decay=L.tensor([[0.1]])"),
    # Adafactor's load adds only foreach to a group (its __setstate__)
    "p = L.zeros(2, requires_grad=True)\no = L.optim.Adafactor([{'params': [p]}])\n"
    "p.grad = L.ones(2); o.step()\no2 = L.optim.Adafactor([p])\n"
    "o2.load_state_dict(o.state_dict())\nR = sorted(o2.state_dict()['param_groups'][0])",
]

_NN = [
    # fold: an empty output image refused after the block checks (padding gave it blocks)
    "R = L.nn.functional.fold(L.ones(1, 8, 4), (0, 3), 2, padding=1)",
    "R = L.nn.functional.fold(L.ones(1, 4, 1), (0, 0), 2, padding=1)",
    "R = L.nn.functional.fold(L.ones(1, 4, 4), (-1, -1), 2)",
    # nll_loss: autograd refuses a weight asking for a gradient before the kernel's checks
    "R = L.nn.functional.nll_loss(L.ones(0, 1), L.ones(0, dtype=L.long), "
    "weight=L.ones((), requires_grad=True), reduction='none')",
    "R = L.nn.functional.nll_loss(L.ones(3), L.ones(2, dtype=L.long), "
    "weight=L.ones(3, requires_grad=True))",
    "R = L.nn.functional.nll_loss(L.ones(2, 3), L.ones(2, 1, dtype=L.long), "
    "weight=L.ones(3, requires_grad=True))",
    "R = L.nn.functional.nll_loss(L.ones(2, 3), L.ones(2), weight=L.ones(3, requires_grad=True))",
    "R = L.nn.functional.nll_loss(L.ones(0, 3), L.tensor(1), weight=L.ones(3, requires_grad=True))",
    "R = L.nn.functional.nll_loss(L.ones(2, 3, 4), L.ones(2, 5, dtype=L.long), "
    "weight=L.ones(3, requires_grad=True))",
    "R = L.nn.functional.nll_loss(L.ones(2, 3, 4, 5), L.ones(2, 4, dtype=L.long), "
    "weight=L.ones(3, requires_grad=True))",
    "R = L.nn.functional.cross_entropy(L.ones(0, 1), L.ones(0, 1).expand(0, 1), "
    "reduction='none', weight=L.ones(2, requires_grad=True), ignore_index=-1)",
    # celu_: the in-place check before 1 / alpha
    "R = L.nn.functional.celu(L.ones(2, requires_grad=True), alpha=0., inplace=True)",
    "R = L.nn.functional.celu(L.ones(2), alpha=0., inplace=True)",
    # a transposed convolution of an empty input: torch's backend choice, then its empty path
    "R = L.nn.functional.conv_transpose1d(L.ones(1, 3, 0), L.ones(3, 3, 3))",
    "R = L.nn.functional.conv_transpose1d(L.ones(1, 3, 0, dtype=L.half), "
    "L.ones(3, 3, 3, dtype=L.half), None, padding=2, dilation=0)",
    "R = L.nn.functional.conv_transpose1d(L.ones(1, 3, 0), L.ones(3, 3, 0))",
    "R = L.nn.functional.conv_transpose3d(L.ones(1, 3, 0, 2, 2), L.ones(3, 3, 2, 2, 2), "
    "dilation=0)",
    "R = L.nn.functional.conv_transpose2d(L.ones(1, 3, 0, 2), L.ones(3, 3, 2, 2), stride=2, "
    "output_padding=3)",
    "R = L.nn.functional.conv_transpose2d(L.ones(0, 3, 2, 2), L.ones(3, 3, 2, 2), stride=2, "
    "output_padding=3)",
    "R = L.nn.functional.conv_transpose1d(L.ones(0, 3, 2), L.ones(3, 3, 2), stride=2, "
    "output_padding=3)",
    "R = L.nn.functional.conv_transpose2d(L.ones(0, 3, 2, 2), L.ones(3, 3, 2, 2), dilation=0)",
    "R = L.nn.functional.conv_transpose3d(L.ones(0, 3, 2, 2, 2), L.ones(3, 3, 2, 2, 2), "
    "dilation=0, output_padding=4)",
    "R = L.nn.functional.conv_transpose3d(L.ones(0, 3, 2, 2, 2), L.ones(3, 3, 2, 2, 0))",
    # padding='same' with a zero dilation: worded by the kernel torch picks
    "R = L.nn.functional.conv1d(L.ones(1, 2, 5, dtype=L.half), L.ones(3, 2, 1, "
    "dtype=L.float64), padding='same', dilation=0)",
    "R = L.nn.functional.conv1d(L.ones(1, 2, 5), L.ones(3, 2, 2), padding='same', dilation=0)",
    "R = L.nn.functional.conv2d(L.ones(1, 2, 5, 5), L.ones(3, 2, 2, 2), padding='same', "
    "dilation=(1, 0))",
    "R = L.nn.functional.conv2d(L.ones(1, 2, 5, 5, dtype=L.float64), L.ones(3, 2, 2, 2, "
    "dtype=L.float64), padding='same', dilation=(1, 0))",
    # grid_sample: no bicubic for 5-D input, checked before the dtypes
    "R = L.nn.functional.grid_sample(L.ones(1, 1, 2, 2, 2), L.ones(1, 1, 1, 1, 3), "
    "mode='bicubic', align_corners=False)",
    "R = L.nn.functional.grid_sample(L.ones(1, 1, 2, 2, 2), L.ones(1, 1, 1, 1, 3, "
    "dtype=L.float64), mode='bicubic', align_corners=False)",
]

_ATTENTION = [
    # a half attention on torch's math path: float32 inside, rounded at the end; a float32
    # mask added in place
    (query, mask, grad)
    for query in ["float16", "float32", "float64"]
    for mask in ["float32", "bool", "float16", None]
    for grad in [False, True]
]


@pytest.mark.parametrize("program", _OPTIM)
def test_optimizer_tensor_settings_as_torch(program: str) -> None:
    """A tensor setting of an optimizer goes where torch's step takes it, with its shape."""
    assert_as_torch(program)


@pytest.mark.parametrize("program", _NN)
def test_nn_bad_input_as_torch(program: str) -> None:
    """torch's checks, in torch's order."""
    assert_as_torch(program)


@pytest.mark.parametrize(("query", "mask", "grad"), _ATTENTION)
def test_attention_dtypes_as_torch(query: str, mask: str | None, grad: bool) -> None:
    """scaled_dot_product_attention of 3-D inputs (torch's math path) in each dtype, with a
    mask of each kind: torch's values, dtype, node and gradient."""
    m = "None" if mask is None else (
        "L.tensor([[True, False, True, True, False]] * 3)" if mask == "bool" else
        f"L.arange(15.).reshape(3, 5).sin().to(L.{mask})")
    assert_as_torch(
        f"q = L.arange(24.).reshape(2, 3, 4).cos().to(L.{query}).requires_grad_({grad})\n"
        f"k = L.arange(40.).reshape(2, 5, 4).sin().to(L.{query})\n"
        f"v = L.arange(30.).reshape(2, 5, 3).cos().to(L.{query})\n"
        f"o = L.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask={m})\n"
        f"R = (o, o.sum().backward() or q.grad) if {grad} else o")


@pytest.mark.parametrize("program", [
    # a half weight takes torch's fbgemm kernel as a float32 one: its words for an index out
    # of range, and no index past the last offset read
    "R = L.nn.functional.embedding_bag(L.tensor([1]), L.ones(1, 1, dtype=L.half), "
    "L.tensor([0, 0]))",
    "R = L.nn.functional.embedding_bag(L.tensor([[-1]]), L.ones(1, 1, dtype=L.half), "
    "mode='mean')",
    "R = L.nn.functional.embedding_bag(L.tensor([[-1]]), L.ones(1, 1, dtype=L.half), "
    "mode='max')",
    "R = L.nn.functional.embedding_bag(L.tensor([0, 2, 1, 3, 1]), L.arange(8.).reshape(4, 2)"
    ".half(), L.tensor([0, 2]), include_last_offset=True)",
    "R = L.nn.functional.embedding_bag(L.tensor([0, 2, 1, 3, 1]), L.arange(8.).reshape(4, 2)"
    ".double(), L.tensor([0, 2]), include_last_offset=True)",
])
def test_embedding_bag_half_as_torch(program: str) -> None:
    """embedding_bag of a half weight, as torch's kernel for it."""
    assert_as_torch(program)
