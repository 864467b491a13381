"""Bad input to torch.nn found by issue #21's nn fuzz on seeds 24200-24299, against live
torch: each program runs on torch and on minitorch (``L``) and must end the same way (the
value of ``R``, or the exception's type and message).
"""

from __future__ import annotations

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch

_PROGRAMS = [
    # unfold reads sizes before its rank check (its backward's first when recording)
    "R = L.nn.functional.unfold(L.ones(4), 2)",
    "R = L.nn.functional.unfold(L.ones(2, requires_grad=True), 100)",
    "R = L.nn.functional.unfold(L.tensor(4.), 2)",
    "R = L.nn.functional.unfold(L.tensor(4., requires_grad=True), 2)",
    "R = L.nn.functional.unfold(L.ones(4, 4), 2)",
    # adaptive_max_pool1d: input, output_size's parse, rank, then its length
    "R = L.nn.functional.adaptive_max_pool1d(L.ones(5), [1, 2])",
    "R = L.nn.functional.adaptive_max_pool1d([1.], 'a')",
    "R = L.nn.functional.adaptive_max_pool1d(L.ones(2, 5), [1, 2])",
    # local_response_norm on 4-D+ pools with avg_pool3d, whose parser refuses a bool
    "R = L.nn.LocalResponseNorm(True)(L.ones(2, 4, 2, 4))",
    "R = L.nn.LocalResponseNorm(False)(L.ones(2, 4, 2, 4, 2))",
    "R = L.nn.LocalResponseNorm(True)(L.ones(2, 4, 2))",
    # circular pad past the kept size: refused only when torch's overlap check sees it
    "R = L.nn.functional.pad(L.arange(12.).view(4, 3), (-1, 3), mode='circular')",
    "R = L.nn.functional.pad(L.arange(6.).view(1, 2, 3), (-1, 3), mode='circular')",
    "R = L.nn.functional.pad(L.arange(3.).view(1, 1, 3), (-1, 3), mode='circular')",
    "R = L.nn.functional.pad(L.arange(3.).view(1, 3), (-1, 3), mode='circular')",
    "R = L.nn.functional.pad(L.arange(18.).view(1, 2, 3, 3), (0, 0, -1, 3), mode='circular')",
    "R = L.nn.functional.pad(L.arange(9.).view(1, 1, 3, 3), (0, 0, -1, 3), mode='circular')",
    "R = L.nn.functional.pad(L.arange(9.).view(1, 1, 3, 3), (-1, 3, 0, 0), mode='circular')",
    "R = L.nn.functional.pad(L.ones(1, 1, 0, 3), (-1, 3, 0, 0), mode='circular')",
    # packed lengths past the input's steps: short data, refused where torch reads it
    "P = L.nn.utils.rnn.pack_padded_sequence(L.ones(3, 1, 2), [5])\n"
    "R = L.nn.utils.rnn.pad_packed_sequence(P, total_length=4)",
    "P = L.nn.utils.rnn.pack_padded_sequence(L.arange(12.).reshape(3, 2, 2), [6, 1])\n"
    "R = L.nn.utils.rnn.pad_packed_sequence(P)",
    "P = L.nn.utils.rnn.pack_padded_sequence(L.arange(12.).reshape(3, 2, 2), [4, 3])\n"
    "R = L.nn.LSTM(2, 3)(P)",
    "P = L.nn.utils.rnn.pack_padded_sequence(L.arange(12.).reshape(3, 2, 2), [5, 5])\n"
    "R = L.nn.GRU(2, 3, bidirectional=True)(P)",
    # ModuleList.insert looks up "-1" before any type; cosine_similarity refuses a NaN eps
    "M = L.nn.ModuleList([L.nn.ReLU()])\nR = M.insert(-5, 3)",
    "M = L.nn.ModuleList()\nR = M.insert(-1, 3)",
    "R = L.nn.CosineSimilarity(0, float('nan'))(L.ones(0, 3), L.ones(2, 3))",
    # a sequence's + of a number in torch's Python: Python's own words
    "R = L.nn.init.trunc_normal_(L.ones(2), b='x')",
    "R = L.nn.init.trunc_normal_(L.ones(2), b=(0.5,))",
    "R = L.nn.init.trunc_normal_(L.ones(2), b=[0.5])",
    # a module's registry deleted: its entries are no attributes any more
    "M = L.nn.BatchNorm1d(2)\ndel M._parameters\nR = repr(M)",
    "M = L.nn.Linear(2, 2)\ndel M._parameters\nR = M(L.ones(2))",
    "M = L.nn.BatchNorm1d(2)\ndel M._buffers\nR = M.running_mean",
    "M = L.nn.Sequential(L.nn.Linear(2, 2))\ndel M._modules\nR = M[0]",
    "M = L.nn.Linear(2, 2)\nM._parameters = None\nR = repr(M)",
    "M = L.nn.Linear(2, 2)\nM._parameters = 3\nR = M.weight",
    "M = L.nn.Linear(2, 2)\nM._parameters = {'w': L.nn.Parameter(L.ones(1))}\nR = M.w",
    "M = L.nn.BatchNorm1d(2)\nM._buffers = None\nR = M.state_dict()",
    # Embedding's padding_idx checks are torch's Python comparisons
    "R = L.nn.Embedding('a', 2, padding_idx=2)",
    "R = L.nn.Embedding('a', 2, padding_idx=-2)",
    "R = L.nn.Embedding(3, 2, padding_idx=-4)",
    # pad's parser matches the first size's type, then mode's and value's, then unpacks
    "R = L.nn.ConstantPad3d((1, 1, 1, 1, None, 1), (0.5,))(L.ones(2, 1, 2, 1))",
    "R = L.nn.functional.pad(L.ones(2, 1), (1, None), mode=3)",
    "R = L.nn.functional.pad(L.ones(2, 1), (None, 1), value='a')",
    "R = L.nn.functional.pad(L.ones(2, 1), (1, 1.5))",
    # the plain RNN's gate size is hidden_size itself: a bool for empty to refuse
    "R = L.nn.RNN(3, True)",
    "R = L.nn.GRU(3, True)",
    # padding='same' with a zero dilation: the shapes are checked first
    "R = L.nn.functional.conv3d(L.ones(1, 4, 4, 3, 1), L.ones(1, 1, 3, 2, 2), padding='same', "
    "dilation=0, groups=4)",
    "R = L.nn.functional.conv1d(L.ones(1, 4, 4), L.ones(4, 1, 3), padding='same', dilation=0, "
    "groups=4, bias=L.ones(3))",
    "R = L.nn.functional.conv1d(L.ones(1, 4, 4), L.ones(4, 1, 3), padding='same', dilation=0, "
    "groups=4)",
    # a conv's repr compares each setting with a default of its own length
    "R = L.nn.ConvTranspose2d(2, 3, 1, dilation=())",
    "R = L.nn.ConvTranspose1d(2, 3, 1, output_padding=[0])",
    "R = L.nn.Conv3d(2, 3, 1, padding=(), dilation=())",
    # Rprop writes etaplus then etaminus into its signs, then clamps by step_sizes
    "w = L.tensor([1., -2.], requires_grad=True)\nopt = L.optim.Rprop([w], etas=(0.5, 'a'))\n"
    "w.grad = L.ones(2)\nopt.step()\nR = w.detach()",
    "w = L.tensor([1., -2.], requires_grad=True)\n"
    "opt = L.optim.Rprop([w], step_sizes=(0.5, 'a'))\nw.grad = L.ones(2)\nopt.step()\n"
    "R = w.detach()",
]


@pytest.mark.parametrize("program", _PROGRAMS)
def test_ends_as_torch(program: str) -> None:
    assert_as_torch(program)


_OPTIMIZER_SETTINGS = [
    ("SGD", "lr", "[0.1, 0.2]", False), ("SGD", "momentum", "[0.1, 0.2]", False),
    ("SGD", "weight_decay", "[0.5]", True), ("Adam", "weight_decay", "[0.1, 0.2]", True),
    ("Adam", "lr", "[0.1, 0.2]", False), ("RMSprop", "momentum", "[0.1, 0.2]", True),
    ("Adagrad", "weight_decay", "[0.1, 0.2, 0.3]", True), ("ASGD", "t0", "[0.1, 0.2]", True),
    ("Rprop", "lr", "[0.1, 0.2]", False), ("NAdam", "eps", "[0.1, 0.2]", False),
    # lr squeezed to a 0-d tensor first (torch's _to_scalar), several values refused
    ("SGD", "lr", "[0.5]", True), ("RMSprop", "lr", "[[0.1]]", True),
    ("Adagrad", "lr", "[0.5]", True), ("Adadelta", "lr", "[0.1, 0.2]", True),
    ("RMSprop", "lr", "[0.1, 0.2]", True), ("Adamax", "lr", "[0.1, 0.2]", True),
    ("Adam", "betas", "[0.5, 0.5]", False)]


@pytest.mark.parametrize(("name", "key", "value", "grad"), _OPTIMIZER_SETTINGS)
def test_a_tensor_setting_is_read_where_torch_reads_it(name: str, key: str, value: str,
                                                       grad: bool) -> None:
    """A setting edited into param_groups as a tensor: torch's step reads it only where its
    update uses it (not at all without gradients, but momentum's test), in an ``if`` first
    for weight_decay, momentum and t0."""
    assert_as_torch(f"w = L.tensor([1., -2., 3.], requires_grad=True)\n"
                    f"opt = L.optim.{name}([w], lr=0.1)\n"
                    f"opt.param_groups[0]['{key}'] = L.tensor({value})\n"
                    f"w.grad = L.ones(3) if {grad} else None\n"
                    "opt.step()\nR = w.detach()")


@pytest.mark.parametrize("name", ["Adam", "AdamW", "SGD"])
@pytest.mark.parametrize("settings", ["maximize='a'", "maximize=1", "maximize=None",
                                      "fused=(50, 1e-6), maximize=(1.0, 0.5)",
                                      "eps=True", "maximize=True"])
def test_fused_kernels_parse_their_settings(name: str, settings: str) -> None:
    """fused=True on CPU: torch's fused kernel takes its flags as bools only."""
    settings = settings if "fused" in settings else f"fused=True, {settings}"
    assert_as_torch(f"w = L.tensor([1., -2., 3.], requires_grad=True)\n"
                    f"opt = L.optim.{name}([w], lr=0.1, {settings})\n"
                    "w.grad = L.ones(3)\nopt.step()\nR = w.detach()")
