"""Fuzz 21, session 18 (fuzz N: torch.nn.functional, nn modules, optim, autograd.grad/backward,
nn.init; seeds 18101 and 18102): refusals and results unlike torch's. Each program runs under
torch and minitorch (``L``): the same result ``R``, or the same exception type and message."""

from typing import Any

import pytest
from test_bad_input_fuzz21b_oracle import assert_as_torch

F = "L.nn.functional"


@pytest.mark.parametrize("call", [
    # the parser reads a list's first item at the match, the others when it unpacks the list
    "avg_pool2d(L.ones(1, 1, 4, 4), (2, 'a'))",
    "avg_pool2d(L.ones(1, 1, 4, 4), (True, 2))",
    "max_pool1d(L.ones(2, 4), (True,))",
    "max_pool1d(L.ones(2, 4), ((2,),), stride=2)",
    "avg_pool1d(L.ones(2, 4), ('a',))",
    "avg_pool1d(L.ones(2, 4), 2, padding=2.0)",
    "max_pool3d(L.ones(1, 2, 2, 2), (2, 2, [1, 2]), return_indices=True)",
    "lp_pool2d(L.ones(1, 1, 4, 4), 2.0, (False, 2))",
])
def test_pool_window_items_are_read_as_torch_parser(call: str) -> None:
    assert_as_torch(f"R = {F}.{call}")


@pytest.mark.parametrize("call", [
    "max_pool2d(L.ones(1, 1, 4, 4), 2, stride=2.0, return_indices=True)",
    "max_pool2d(L.ones(1, 1, 4, 4), 2, return_indices=True, ceil_mode='a')",
    "max_pool1d(L.ones(1, 2, 4), 2, padding='a', return_indices=True)",
    "max_pool3d(L.ones(1, 2, 2, 2), 2, padding=False, return_indices=True)",
])
def test_max_pool_with_indices_is_named_as_torch_op(call: str) -> None:
    """With return_indices torch's wrapper calls ``max_poolNd_with_indices``: its name."""
    assert_as_torch(f"R = {F}.{call}")


@pytest.mark.parametrize("call", [
    "conv3d(L.ones(2, 2, 1, 5, 4), L.ones(1, 2, 1, 1, 1), stride=(1, 2.0, ()))",
    "conv2d(L.ones(1, 2, 4, 4), L.ones(1, 2, 1, 1), padding=(0, 1.5))",
    "conv2d(L.ones(1, 2, 4, 4), L.ones(1, 2, 1, 1), dilation=(1, (2,)))",
    "conv2d(L.ones(1, 2, 4, 4), L.ones(1, 2, 1, 1), stride='a')",
    "conv2d(L.ones(1, 2, 4, 4), L.ones(1, 2, 1, 1), padding='valid', dilation='a')",
    "conv3d(L.ones(1, 1, 2, 5, 1), L.ones(1, 1, 1, 1, 3), dilation=(1, False, 1))",
])
def test_conv_geometry_lists_are_unpacked_as_torch(call: str) -> None:
    """A first item that is no int: no overload matches (invalid combination); a later one:
    the list fails to unpack; a bool after the first reads as an int."""
    assert_as_torch(f"R = {F}.{call}")


@pytest.mark.parametrize("call", [
    "conv_transpose2d(L.ones(1, 2, 3, 3), L.ones(2, 1, 1, 1), stride=((), 1))",
    "conv_transpose2d(L.ones(1, 2, 3, 3), L.ones(2, 1, 1, 1), None, ((), 1))",
    "conv_transpose3d(L.ones(1, 2, 3, 3, 1), L.ones(2, 1, 1, 1, 1), padding=(None, 0, 1))",
    "conv_transpose1d(L.ones(1, 2, 3), L.ones(2, 1, 1), stride=(1.5,))",
    "conv_transpose2d(L.ones(1, 2, 3, 3), L.ones(2, 1, 1), padding=(0, (2,)), dilation='a')",
    "conv_transpose2d(L.ones(1, 2, 3, 3), L.ones(2, 1, 1, 1), padding='same')",
    "conv_transpose2d(L.ones(2, 3), L.ones(2, 1, 1, 1), stride=1.5)",
])
def test_conv_transpose_arguments_as_called(call: str) -> None:
    """By keyword torch names no position and no bad item; every type before any shape."""
    assert_as_torch(f"R = {F}.{call}")


@pytest.mark.parametrize("call", [
    "adaptive_avg_pool2d(L.ones(6, 5, 3, 3), True)",
    "adaptive_max_pool2d(L.ones(1, 1, 4, 6), False)",
    "adaptive_avg_pool2d(L.ones(6, 1, 3, 4), (1.5, 2))",
    "adaptive_avg_pool2d(L.ones(1, 1, 1), (2, [1, 2]))",
    "adaptive_max_pool2d(L.ones(3, 4, 6, 3), (2, ()))",
    "adaptive_max_pool2d(L.ones(2, 4, 4, 4, 1), 1.5, return_indices=True)",
    "adaptive_avg_pool2d(L.ones(6, 2), 'a')",
    "adaptive_avg_pool2d(L.ones(2, 5, 3, 1), (True, -1))",
    "adaptive_avg_pool2d(L.ones(1, 4, 6), (2, None))",
])
def test_adaptive_pool_output_size_through_torch_wrapper(call: str) -> None:
    """torch's wrapper fills the Nones in (taking len of the value), then its parser reads
    an ``int[2]``."""
    assert_as_torch(f"R = {F}.{call}")


@pytest.mark.parametrize("call", [
    "unfold(L.ones(1, 1, 4, 2), kernel_size=None)",
    "unfold(L.ones(3, 4, 4), kernel_size=2, stride=1.5)",
    "unfold(L.ones(1, 1, 4, 4), kernel_size=1.5)",
    "fold(L.ones(1, 3, 4), output_size=(3, 3), kernel_size=True)",
    "fold(L.ones(1, 4, 6), output_size=2, kernel_size='a')",
    "fold(L.ones(1, 3, 4), output_size=None, kernel_size=1.5)",
    "fold(L.ones(4, 4), output_size=(-1, 3), kernel_size=2, stride=False)",
    "fold(L.ones(1, 4, 4), output_size=(3, 3, 3), kernel_size=2)",
    "fold(L.ones(1, 4, 4), output_size=(3, 3), kernel_size=2)",
])
def test_fold_unfold_arguments_as_torch_pairs_them(call: str) -> None:
    """torch's wrapper makes each a pair (``_pair``), then im2col/col2im's parser reads them
    at their own positions."""
    assert_as_torch(f"R = {F}.{call}")


@pytest.mark.parametrize("bounds", ["-math.inf, 0.3", "0.1, math.inf", "math.nan, 0.3",
                                    "0.1, math.nan", "0.5, 0.1"])
@pytest.mark.parametrize("training", [False, True])
def test_rrelu_bounds_must_be_finite(bounds: str, training: bool) -> None:
    assert_as_torch(f"import math\nR = {F}.rrelu(L.ones(3), {bounds}, {training})")


@pytest.mark.parametrize("program", [
    f"R = {F}.linear(L.ones(0), L.ones(2, 0), L.tensor(1.))",
    f"R = {F}.linear(L.ones(2, 3, 0), L.ones(2, 0), L.ones(2))",
    "R = L.nn.Unflatten(1, (-1, 2))(L.ones(0, 6))",
    "R = L.ones(0, 6).unflatten(1, (3, -1))",
])
def test_no_elements_infer_sizes_from_the_dims(program: str) -> None:
    assert_as_torch(program)


@pytest.mark.parametrize("form", [
    "L.autograd.backward(y, L.ones(1), inputs=[y])",
    "y.backward(L.ones(1), inputs=[y])",
])
def test_backward_into_a_non_leaf_input_frees_its_node(form: str) -> None:
    """torch runs the node of a non-leaf input too: a second backward finds it freed."""
    assert_as_torch(f"x = L.tensor([0.5], requires_grad=True)\ny = x * x\n{form}\n"
                    "g = y.grad\ny.backward(L.ones(1))\nR = x.grad")


def test_backward_into_a_non_leaf_input_keeps_the_graph_when_told() -> None:
    assert_as_torch("x = L.tensor([0.5], requires_grad=True)\ny = x * x\nz = y * 3\n"
                    "z.backward(L.ones(1), inputs=[y], retain_graph=True)\n"
                    "z.backward(L.ones(1))\nR = (x.grad, y.grad, y.retains_grad)")


@pytest.mark.parametrize("call", [
    "batch_norm(L.ones(3), None, None, training=True)",
    "batch_norm(L.ones(2), None, None, training=True, momentum=0.1)",
    "instance_norm(L.ones(4), L.zeros(4), L.ones(4), use_input_stats=False)",
])
def test_norms_of_one_dim_read_the_channels(call: str) -> None:
    assert_as_torch(f"R = {F}.{call}")


@pytest.mark.parametrize("name", ["SGD", "Adam", "Adadelta", "RAdam", "Rprop"])
@pytest.mark.parametrize("differentiable", ["None", "1", "'yes'"])
def test_optimizer_step_reads_differentiable_as_grad_mode(name: str,
                                                          differentiable: str) -> None:
    assert_as_torch(f"w = L.zeros(3, requires_grad=True)\n"
                    f"o = L.optim.{name}([w], differentiable={differentiable})\n"
                    "w.grad = L.ones(3)\no.step()\nR = w")


@pytest.mark.parametrize("call", [
    "pairwise_distance(L.ones(1), L.ones(0), p=-1.0)",
    "pairwise_distance(L.ones(2, 0), L.ones(2, 0), p=math.inf)",
    "pairwise_distance(L.ones(2, 0), L.ones(2, 0), p=0.0)",
    "triplet_margin_loss(L.ones(1), L.ones(0), L.ones(1), p=-1.0, reduction='none')",
])
def test_distance_with_no_identity_over_an_empty_dim(call: str) -> None:
    assert_as_torch(f"import math\nR = {F}.{call}")


@pytest.mark.parametrize("program", [
    "x = L.ones(1, requires_grad=True)\n"
    "R = L.autograd.grad([x * x, (x * 3).sum()], (x,), (L.ones(1), L.ones(1)))",
    "x = L.ones(2, 1, requires_grad=True)\n"
    "R = L.autograd.grad([x * x, (x * 3).sum()], [x], (L.ones(2, 1), L.ones(2, 1)))",
    "x = L.ones(2, requires_grad=True)\nR = L.autograd.grad(x * x, [1.0])",
    "x = L.ones(2)\nR = L.autograd.grad(x * x, [1.0])",
    "x = L.ones(2, requires_grad=True)\nR = L.autograd.grad(x * x, [1.0], 1.0)",
    "x = L.ones(2, requires_grad=True)\nR = L.autograd.grad(x * x, [x], L.ones(2, 2))",
    "x = L.ones(3, 3, requires_grad=True)\n"
    "L.autograd.backward([x * x, (x * 3).sum()], (L.ones(3, 3), L.ones(3, 3)), inputs=(x,))",
])
def test_grad_checks_outputs_before_inputs_and_numbers_as_torch(program: str) -> None:
    """torch makes the root gradients (numbering a mismatch by ``list.index``, which compares
    with ==) and checks the outputs before it looks at the inputs' types."""
    assert_as_torch(program)


@pytest.mark.parametrize("call", [
    "multi_margin_loss(L.ones(2, 3), L.tensor([0, 1]), p=3, reduction='avg')",
    "multi_margin_loss(L.ones(2, 3), L.tensor([0, 1]), p=1.5, reduction=None)",
    "cross_entropy(L.eye(3), L.tensor([0, 1, 1]), label_smoothing=math.nan)",
    "cross_entropy(L.eye(3), L.tensor([0, 1, 1]), label_smoothing=-0.5)",
    "cross_entropy(L.eye(3), L.eye(3) / 2, label_smoothing=math.nan)",
])
def test_loss_options_read_as_torch(call: str) -> None:
    """multi_margin_loss reads the reduction before p; cross entropy smooths only for a
    label_smoothing above 0 (not for nan)."""
    assert_as_torch(f"import math\nR = {F}.{call}")


@pytest.mark.parametrize("call", [
    "conv2d(L.ones(1, 4, 3, 4, dtype=L.float64), L.ones(4, 1, 3, 1), L.ones(5), "
    "stride=(100, -2), groups=2)",
    "conv2d(L.ones(1, 4, 3, 4, dtype=L.float64), L.ones(0, 4, 2, 1), L.ones(2))",
    "conv2d(L.ones(1, 4, 3, 4, dtype=L.float64), L.ones(2, 2), L.ones(2))",
    "conv3d(L.ones(2, 1, 4, 5, 1), L.ones(2, 1, 3, 2, 3), L.ones((), dtype=L.float64), "
    "padding='valid')",
    "conv_transpose2d(L.ones(2, 4, 4, 5), L.ones(4, 4, 1, 2, dtype=L.float64))",
    "conv_transpose2d(L.ones(1, 4, 4, 5), L.ones(4, 4, 1, 2, dtype=L.float64))",
    "conv_transpose1d(L.ones(2, 4, 3), L.ones(4, 2, 3, dtype=L.float64))",
    "conv_transpose2d(L.ones(2, 4, 4, 5), L.ones(4, 4, 1, 2), L.ones(4, dtype=L.float64))",
    "conv_transpose2d(L.ones(2, 4, 4, 5), L.ones(4, 4, 1, 2, dtype=L.int64))",
])
def test_conv_dtype_checks_in_torch_order(call: str) -> None:
    """A bias of another dtype is torch's first check of a convolution with int padding; a
    transposed one over a batch of several floats goes through oneDNN, with its words."""
    assert_as_torch(f"R = {F}.{call}")


@pytest.mark.parametrize("call", [
    "interpolate(L.ones(2, 3, 4, 4), scale_factor='x', mode='cubic')",
    "interpolate(L.ones(1, 4, 2, 4, 3, 2), scale_factor=(None, -0.5, 2.0, (0.5,)), "
    "mode='linear')",
    "interpolate(L.ones(3, 4, 4), scale_factor=1e30, mode='bicubic')",
    "interpolate(L.ones(3, 4, 4), scale_factor=math.inf, mode='bilinear')",
    "interpolate(L.ones(2, 1, 2, 4), size='a', mode='linear')",
    "interpolate(L.ones(2, 1, 2, 4), size=3, mode='linear', antialias=True)",
])
def test_interpolate_without_a_kernel_reads_no_sizes(call: str) -> None:
    """A mode torch has no kernel for at that rank is refused before any size or scale is
    computed."""
    assert_as_torch(f"import math\nR = {F}.{call}")


@pytest.mark.parametrize("call", [
    "instance_norm(L.ones(2, 2, 2), momentum='x')",
    "instance_norm(L.ones(2, 2, 2), eps=None)",
    "instance_norm(L.ones(2, 2, 2), use_input_stats=None)",
    "instance_norm(L.ones(2, 2, 2), weight=3)",
    "instance_norm(L.ones(2, 2, 2), momentum=1)",
    "local_response_norm(L.ones(3, 1, 1, 3), 0)",
    "local_response_norm(L.ones(3, 1, 3), 0)",
    "max_pool3d(L.ones(5, 2, 2, 3), [1, 2], return_indices=True)",
    "max_pool2d(L.ones(4, 1, 5), 1, dilation=(1, 2, 3), return_indices=True)",
    "adaptive_avg_pool1d(L.ones(5, 1), True)",
    "softshrink(L.ones(2, 1, 2), lambd=(0.5,))",
    "prelu(L.ones(()), L.ones(4, 1))",
    "prelu(L.ones(2, 3), L.ones(2, 2))",
    "prelu(L.ones(2, 3), L.ones(3, 1))",
    "prelu(L.ones(()), L.ones(1, 1))",
])
def test_refusals_named_and_ordered_as_torch(call: str) -> None:
    """instance_norm's parser speaks of itself; LRN over 4-D pools in 3-d; a pool's window
    length is its kernel's refusal; prelu checks several weights against the input first."""
    assert_as_torch(f"R = {F}.{call}")


@pytest.mark.parametrize("program", [
    "R = L.nn.Conv1d(0, 0, 1, padding=2.0)(L.ones(1, 4, 4))",
    "R = L.nn.Conv3d(2, 2, 1, dilation=None)(L.ones(2, 4, 4, 4))",
    "R = L.nn.Conv1d(2, 2, 3, dilation='a')(L.ones(1, 2, 4))",
    "R = L.nn.Conv2d(2, 2, 3, stride=(1, 2.5), bias=False)(L.ones(1, 2, 4, 4))",
    "R = L.nn.Conv2d(2, 2, 3, padding_mode='reflect', stride=1.5)(L.ones(1, 2, 4, 4))",
])
def test_conv_modules_refused_as_their_call(program: str) -> None:
    """A layer calls ``F.convNd`` with its parameters and tuples, by position: torch's
    invalid combination lists those."""
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    "R = L.nn.Conv2d(2, 2, 1, groups='a')",
    "R = L.nn.Conv2d((2,), 4, 1, groups=1)",
    "R = L.nn.Conv2d(2, 4, 1, groups=0)",
    "R = L.nn.MultiheadAttention([4], 2)",
    "R = L.nn.LSTM(4, 2, proj_size=None)",
    "R = L.nn.GroupNorm(None, 4)",
    "R = L.nn.GroupNorm(0, 4)",
    f"R = {F}.group_norm(L.ones(2, 4), 0)",
    f"R = {F}.group_norm(L.ones(2, 4), 'a')",
    f"R = {F}.batch_norm(L.ones(3, 3), None, None, training=True, eps=None)",
    f"R = {F}.hardtanh(L.ones(3), min_val='x')",
    f"R = {F}.triplet_margin_loss(L.ones(2, 3), L.ones(2, 3), L.ones(2, 3), margin=None)",
    "R = L.nn.GRUCell(1, None)",
    "R = L.nn.RNNCell(1, 'a')",
    "R = L.nn.Sequential(L.nn.ReLU())[1.5]",
    "R = L.nn.ModuleList([L.nn.ReLU()])['0']",
    "R = L.nn.ModuleDict({'a': L.nn.ReLU()})['training']",
])
def test_python_checks_refuse_as_python_does_in_torch(program: str) -> None:
    """Where torch's check is Python code, a value of the wrong type gets Python's own
    TypeError (or ZeroDivisionError), which minitorch raises as a refusal."""
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    "R = L.nn.Embedding(1, 3, padding_idx=-2)",
    "R = L.nn.Embedding(3, 3, padding_idx=3)",
    "w = L.zeros(2, requires_grad=True)\nR = L.optim.SGD([{'param': [w]}], lr=0.1)",
    "R = L.nn.Linear(2, 2).get_parameter(1)",
    "R = L.nn.Linear(2, 2).get_submodule(1)",
    "R = L.nn.init.trunc_normal_(L.ones(3, 2), std=None)",
    "R = L.nn.init.trunc_normal_(L.ones(()), mean=(0.5,))",
    "R = L.nn.init.trunc_normal_(L.ones(()), std=0.0)",
    "R = L.nn.init.kaiming_normal_(L.ones(3, 4), mode=None)",
    "R = L.nn.init.xavier_uniform_(L.ones(3, 4), gain=None)",
    "R = L.nn.init.xavier_normal_(L.ones(0, 0))",
])
def test_python_level_refusals_of_modules_optim_and_init(program: str) -> None:
    """torch's asserts, dict reads, attribute reads and arithmetic in Python: the same
    exceptions, raised by minitorch as refusals."""
    assert_as_torch(program)


_SCHEDULER = ("w = L.zeros(2, requires_grad=True)\n"
              "o = L.optim.SGD([w], lr=0.1, momentum=0.9)\nS = L.optim.lr_scheduler\n")


@pytest.mark.parametrize("program", [
    "s = S.ReduceLROnPlateau(o)\ns.step('a')\nR = o.param_groups[0]['lr']",
    "s = S.ReduceLROnPlateau(o)\ns.step(None)\nR = o.param_groups[0]['lr']",
    "s = S.ReduceLROnPlateau(o)\ns.step('1.5')\nR = o.param_groups[0]['lr']",
    "s = S.ReduceLROnPlateau(o, patience=None)\ns.step(1.0)\ns.step(2.0)\nR = 1",
    "s = S.LambdaLR(o, lr_lambda=1)\nR = 1",
    "s = S.StepLR(o, step_size=0)\no.step()\ns.step()\nR = o.param_groups[0]['lr']",
    "s = S.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=(1,))\nR = 1",
    "s = S.CosineAnnealingWarmRestarts(o, T_0='a')\nR = 1",
    "s = S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=(2,))\nR = 1",
    "s = S.CyclicLR(o, base_lr=0.01, max_lr=None)\no.step()\ns.step()\nR = 1",
    "s = S.OneCycleLR(o, max_lr=0.1, total_steps=5, pct_start=(0.5,))\nR = 1",
    "s = S.OneCycleLR(o, max_lr=0.1, total_steps='a')\nR = 1",
    "s = S.LinearLR(o, end_factor='x')\nR = 1",
    "s = S.SequentialLR(o, [S.ConstantLR(o), S.ExponentialLR(o, 0.9)], milestones=2)\nR = 1",
])
def test_scheduler_python_refusals(program: str) -> None:
    """torch's schedulers are Python: a wrongly typed setting fails in Python's words (float(),
    a call, a comparison, len), which minitorch raises as a refusal."""
    assert_as_torch(_SCHEDULER + program)


@pytest.mark.parametrize("program", [
    f"R = {F}.softplus(L.ones(3), inplace=False)",
    f"R = {F}.local_response_norm(L.ones(2, 2, 3), ())",
    f"R = {F}.lp_pool2d(L.ones(3, 6, 4, 1), 2.0, None, stride=2)",
    f"R = {F}.lp_pool2d(L.ones(6, 4, 1, 5), 2.0, (2,), stride=-2)",
    f"R = {F}.lp_pool2d(L.ones(6, 4, 2, 5), 2.0, (2, 1, 1))",
    f"R = {F}.lp_pool2d(L.ones(2, 6, 1, 6), 0, 1, stride=1)",
    f"R = {F}.lp_pool1d(L.ones(2, 6, 6), 0, 1, stride=1)",
    f"R = {F}.lp_pool2d(L.ones(2, 6, 2, 6), 2, 2)",
    "R = L.nn.LSTM(1, 4, num_layers=2.0)",
])
def test_more_python_level_refusals(program: str) -> None:
    """lp_pool's unpacking of its window, its 1 / norm_type after the pool, LRN's size // 2,
    an RNN's range(num_layers), an unknown keyword: Python's exceptions, as in torch."""
    assert_as_torch(program)


@pytest.mark.parametrize("dtypes", [("float32", "float64"), ("float64", "float32"),
                                    ("float16", "float32"), ("float16", "float16")])
def test_rms_norm_scales_then_casts_to_the_input_dtype(dtypes: tuple) -> None:
    """torch's composite multiplies by the weight in the computation's dtype and casts the
    result to the input's last."""
    x, w = dtypes
    assert_as_torch(f"x = L.arange(6.).reshape(2, 3).to(L.{x}) / 7\n"
                    f"w = L.tensor([0.3, 1.7, -2.1]).to(L.{w})\n"
                    f"R = {F}.rms_norm(x, (3,), weight=w)")


@pytest.mark.parametrize("program", [
    "s = S.ConstantLR(o, factor='x')\nR = 1",
    "s = S.LinearLR(o, start_factor=None)\nR = 1",
    "s = S.PolynomialLR(o, total_iters=[1, 2])\no.step()\ns.step()\nR = 1",
    "s = S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=0)\nR = 1",
])
def test_more_scheduler_python_refusals(program: str) -> None:
    assert_as_torch(_SCHEDULER + program)


@pytest.mark.parametrize("program", [
    "R = L.ones(2, 4, 0).matmul(L.ones(0, 1))",
    "R = L.ones(2, 4, 0, requires_grad=True).matmul(L.ones(0, 1))",
    "R = L.ones(2).matmul(L.ones(0, 2, 0, requires_grad=True))",
    f"R = {F}.linear(L.ones(2, 4, 0), L.ones(1, 0))",
    "R = L.nn.LayerNorm([1.5, 3])",
    "R = L.nn.LayerNorm([1.5, 3], elementwise_affine=False)(L.ones(2, 3))",
    "R = L.nn.LayerNorm([(1, 2, 3), 3], elementwise_affine=False)(L.ones(2, 3))",
    "R = L.nn.LayerNorm(True)",
    "R = L.nn.LayerNorm(L.tensor(3))(L.ones(2, 3))",
    "R = L.nn.Dropout((0.5,))",
    "R = L.nn.Dropout(math.nan).p",
])
def test_fresh_seed_findings(program: str) -> None:
    """matmul folds a batch whose rows are empty; LayerNorm keeps its shape as torch's Python
    does (torch.empty and layer_norm refuse it); Dropout compares p in Python."""
    assert_as_torch("import math\n" + program)


@pytest.mark.parametrize("shape", [(0, 6, 6, 6), (1, 0, 6, 6), (2, 0, 4, 4)])
def test_pixel_unshuffle_of_nothing_keeps_the_shape(shape: tuple) -> None:
    """torch's kernel returns a copy of an empty input, without rearranging its shape."""
    assert_as_torch(f"R = {F}.pixel_unshuffle(L.ones{shape}.requires_grad_(), 2)")


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
@pytest.mark.parametrize("padding_idx", [None, 0])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("bags", [("[[0, 2]]", "None"), ("[2, 1, 1]", "L.tensor([0, 2])"),
                                  ("[[-1, 0]]", "None")])
def test_embedding_bag_index_out_of_range(mode: str, padding_idx: Any, dtype: str,
                                          bags: tuple) -> None:
    """The generic kernel (max, a padding row, not float32) names the first bad value; the
    float32 sum/mean one its position (bad indices in the first bag only: torch's threads
    may otherwise report another check first)."""
    indices, offsets = bags
    assert_as_torch(f"R = {F}.embedding_bag(L.tensor({indices}), L.ones(2, 3, dtype=L.{dtype}), "
                    f"{offsets}, mode='{mode}', padding_idx={padding_idx})")


@pytest.mark.parametrize("program", [
    "R = L.nn.Embedding(None, 1, padding_idx=-1)",
    "R = L.nn.EmbeddingBag('a', 'a', padding_idx=-2)",
    f"R = {F}.triplet_margin_loss(L.ones(1), L.ones(1), L.ones(0), p='x')",
    f"R = {F}.triplet_margin_loss(L.ones(1), L.ones(1), L.ones(1), eps=None)",
    f"R = {F}.triplet_margin_loss(L.ones(1), L.ones(1), L.ones(1), swap=None)",
    f"R = {F}.triplet_margin_loss(L.ones(1), L.ones(1), L.ones(1), margin=-1, p='x')",
    f"R = {F}.triplet_margin_loss(L.ones(2, 3), 1, L.zeros(2, 3))",
])
def test_embedding_negation_and_triplet_parser(program: str) -> None:
    """-num_embeddings in torch's Python; torch.triplet_margin_loss's parser after the
    Python's margin check, under its own name and positions."""
    assert_as_torch(program)


@pytest.mark.parametrize("kernel", [1, 2, 3])
@pytest.mark.parametrize("dilation", [-2, -1, 0, (1, -1), (0, 1)])
def test_same_padding_with_bad_dilation(kernel: int, dilation: Any) -> None:
    """'same' pads by half of dilation * (kernel - 1) (C++'s division) before the checks:
    a negative padding first, then a zero dilation, then a negative one."""
    assert_as_torch(f"R = {F}.conv2d(L.ones(2, 1, 4, 4), L.ones(4, 1, {kernel}, {kernel}), "
                    f"padding='same', dilation={dilation!r})")


@pytest.mark.parametrize("bounds", ["'a', 'b'", "'b', 'a'", "(1,), (2,)", "'a', 1.0"])
def test_python_compares_sequences_of_a_kind(bounds: str) -> None:
    """hardtanh's Python check orders two strings (or tuples) as Python does; the parser then
    refuses them."""
    assert_as_torch(f"R = {F}.hardtanh(L.ones(2), {bounds})")
