"""Bad input from the adversarial fuzz of issue #21 (report adv21) against live torch, one
group per root cause: tensor arguments checked at the public boundary, two numbers with no
tensor, a second backward through a freed graph, ``backward(inputs=...)``, ``torch.Size``,
bool flags, non-differentiable copies. Each case runs on torch and on minitorch (as ``L``)
and must have the same outcome: the same result, or the same exception type and message.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from badinput import classify
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS


def _run(L: Any, code: str) -> Any:
    """Run the statements ``code`` with ``L`` as the library; their result is ``r``."""
    scope = {"L": L, "np": np, "F": L.nn.functional}
    exec(code, scope)
    return scope.get("r")


def assert_same_as_torch(code: str) -> None:
    """``code`` (statements over ``L``, ``F``, ``np``, setting ``r``) has torch's outcome."""
    outcome, said = classify(_run, [lambda L: code])
    assert outcome == "same", said


NOT_TENSORS = ["'a'", "None", "2.5", "3", "[1., 2., 3.]", "np.ones(3)"]

# Calls with one slot ``{}`` where torch takes a tensor (its message names the argument).
TENSOR_SLOTS = [
    "F.relu({})", "F.sigmoid({})", "F.tanh({})", "L.nn.ReLU()({})", "L.nn.Tanh()({})",
    "L.nn.Sigmoid()({})", "L.nn.Linear(3, 2)({})", "F.linear({}, L.ones(2, 3))",
    "F.linear(L.ones(3), {})", "L.matmul({}, L.ones(3))", "L.mm(L.ones(2, 2), {})",
    "L.ones(3).matmul({})", "L.ones(2, 2).mm({})", "L.ones(2, 3).mv({})", "L.ones(3).dot({})",
    "L.ones(1, 2, 2).bmm({})", "L.nn.Conv2d(1, 2, 1)({})", "F.conv2d({}, L.ones(1, 1, 1, 1))",
    "F.conv2d(L.ones(1, 1, 2, 2), {})", "F.max_pool2d({}, 1)", "L.nn.AvgPool2d(2)({})",
    "L.log_softmax({}, 0)", "F.softmax({}, dim=0)", "L.nn.LogSoftmax(0)({})",
    "L.mean({})", "L.round({})", "L.zeros_like({})", "L.ones_like({})", "L.full_like({}, 1)",
    "L.empty_like({}).shape", "L.rand_like({}).shape", "L.randn_like({}).shape",
    "L.bernoulli({})", "L.ones(3).expand_as({})", "L.ones(3).view_as({})",
    "L.ones(3).reshape_as({})", "L.equal({}, L.ones(3))", "L.ones(3).equal({})",
    "L.ones(3).allclose({})", "F.l1_loss({}, L.ones(3))", "F.mse_loss(L.ones(3), {})",
    "F.smooth_l1_loss(L.ones(3), {})", "F.huber_loss({}, L.ones(3))",
    "F.binary_cross_entropy(L.ones(3), {})", "L.nn.BCEWithLogitsLoss()({}, L.ones(3))",
    "F.nll_loss({}, L.tensor([0]))", "F.cross_entropy({}, L.tensor([0]))",
    "F.batch_norm({}, L.zeros(3), L.ones(3))", "F.batch_norm(L.ones(2, 3), {}, L.ones(3))",
    "F.dropout({}, training=False)", "L.nn.init.kaiming_normal_({})",
    "L.nn.init.kaiming_uniform_({})", "L.nn.Parameter({})",
]


@SETTINGS
@given(call=st.sampled_from(TENSOR_SLOTS), value=st.sampled_from(NOT_TENSORS))
def test_tensor_arguments_are_checked_as_torch(call: str, value: str) -> None:
    """A non-tensor where torch takes a tensor: torch's TypeError naming the argument (or
    the AttributeError torch's own Python code raises), never a raw error from inside."""
    outcome, said = classify(_run, [lambda L: "r = " + call.format(value)])
    assert outcome in ("same", "message"), said  # "message": a position torch counts apart


@pytest.mark.parametrize("code", [
    "m = L.nn.Linear(3, 2); m.weight.data = 3",
    "m = L.nn.Linear(3, 2); m.weight.data = L.tensor(2)",
    "x = L.ones(3, requires_grad=True); (x * 2).sum().backward('a')",
    "x = L.ones(3, requires_grad=True); L.autograd.backward((x * 2).sum(), grad_tensors='a')",
    "x = L.tensor(2., requires_grad=True); r = L.autograd.grad([1., 2., 3.], x)",
    "r = L.equal(L.ones(3), 'a')", "r = L.allclose(L.ones(3), 2.5)",
    "r = L.nn.init.kaiming_normal_(2.5)", "r = L.nn.Parameter(3)",
])
def test_tensor_only_arguments_as_torch(code: str) -> None:
    """``.data``, ``backward``'s gradients and ``grad``'s outputs take tensors only."""
    assert_same_as_torch(code)


NUMBERS = ["2.5", "3", "True", "np.float32(2)", "np.int64(3)"]


@SETTINGS
@given(fn=st.sampled_from(["add", "sub", "mul", "div", "floor_divide", "remainder", "pow"]),
       a=st.sampled_from(NUMBERS), b=st.sampled_from(NUMBERS))
def test_two_numbers_without_a_tensor_as_torch(fn: str, a: str, b: str) -> None:
    """torch reads the first number as a 0-d tensor in add, sub, mul, div and floor_divide,
    and finds no signature for remainder and pow."""
    outcome, said = classify(_run, [lambda L: f"r = L.{fn}({a}, {b})"])
    assert outcome in ("same", "message"), said


@pytest.mark.parametrize("code", [
    "r = L.eq(L.randn(2, 3), 'a')", "r = L.remainder(3, True)", "r = L.pow(2, 3)",
    "r = L.sub(2.5, np.float32(2))", "r = L.floor_divide(2.5, 2.5)",
])
def test_operands_without_a_signature_as_torch(code: str) -> None:
    """A comparison with a string, or a number pair where torch has no signature."""
    assert_same_as_torch(code)


OPS = ["x * 2", "2 * x", "x / 2", "x * x", "x + 2", "x.exp()", "x.masked_fill(x > 0, 0.)",
       "x.relu()", "x.sum()", "x.clamp(0, 1)", "x ** 2"]


@SETTINGS
@given(op=st.sampled_from(OPS), retain=st.booleans())
def test_second_backward_through_a_freed_graph_as_torch(op: str, retain: bool) -> None:
    """After a backward without retain_graph, a node that saved a tensor (or a number, or a
    mask, which torch saves as tensors) refuses a second one; one that saved nothing runs."""
    assert_same_as_torch(f"x = L.tensor([1., -2., 3.], requires_grad=True); y = ({op}).sum()\n"
                         f"y.backward(retain_graph={retain}); y.backward(); r = x.grad")


@pytest.mark.parametrize("inputs", ["L.randn(1)", "[x, L.randn(1)]", "['a']", "'a'", "x",
                                    "[x * 3]"])
def test_backward_inputs_as_torch(inputs: str) -> None:
    """``backward(inputs=...)`` takes tensors that require grad."""
    assert_same_as_torch("x = L.tensor(2., requires_grad=True)\n"
                         f"(x * x).sum().backward(inputs={inputs}); r = x.grad")


@pytest.mark.parametrize("code", [
    "r = L.Size('a')", "r = L.Size([1, 'a'])", "r = L.Size([2.5])", "r = L.Size([True])",
    "r = L.Size(L.randn(3))", "r = L.Size((2, 3))[0:1]", "r = L.Size((2, 3))[::-1]",
    "r = type(L.tensor([[1, 2], [3, 4]]).shape[0:1]).__name__",
    "r = int(L.randn(3))", "r = float(L.zeros(0))", "r = int(L.tensor(3))",
    "r = L.randn(3).item()", "r = L.cat([], 0)",
])
def test_sizes_and_scalars_as_torch(code: str) -> None:
    """``torch.Size`` checks its items and slices to a Size; ``int()`` of a tensor that is
    not one element raises ValueError (``item()`` a RuntimeError); ``cat([])`` ValueError."""
    assert_same_as_torch(code)


@pytest.mark.parametrize("code", [
    "r = L.autograd.set_detect_anomaly(1)", "r = L.autograd.set_detect_anomaly(np.bool_(True))",
    "r = L.autograd.set_detect_anomaly(False, 1)", "r = L.no_grad(None)",
    "r = F.batch_norm(L.randn(2, 3), L.zeros(3), L.ones(3), training='yes')",
    "r = F.batch_norm(L.randn(2, 3), L.zeros(3), L.ones(3), training=None)",
    "r = L.nn.MaxPool2d(2, ceil_mode=1)(L.randn(1, 1, 5, 5))",
    "r = F.avg_pool2d(L.ones(1, 1, 4, 4), 2, ceil_mode=1)",
    "r = L.utils.data.DataLoader(L.utils.data.TensorDataset(L.arange(4.)), batch_size=2, "
    "drop_last=2)",
])
def test_bool_flags_as_torch(code: str) -> None:
    """Flags take a bool only, with torch's exception and message."""
    assert_same_as_torch(code)


@SETTINGS
@given(dtype=st.sampled_from(["int64", "bool", "float64", "float32"]),
       how=st.sampled_from(["to", "type"]), leaf=st.booleans())
def test_integer_copies_do_not_require_grad_as_torch(dtype: str, how: str, leaf: bool) -> None:
    """An integer or bool copy of a tensor that requires grad has no gradient (no grad_fn);
    a floating copy records ``ToCopyBackward0``."""
    source = "x" if leaf else "(x * 1)"
    assert_same_as_torch("x = L.tensor([0.5, -1.5, 2.5], requires_grad=True)\n"
                         f"y = {source}.{how}(L.{dtype})\n"
                         "r = (y, y.requires_grad, y.is_leaf, "
                         "y.grad_fn.name() if y.grad_fn else None)")


@pytest.mark.parametrize("code", [
    "r = L.clamp(L.ones(3), max=L.tensor([1., 2.]))",
    "r = L.zeros(0).clamp(min=L.ones(2, 3, 4), max=L.arange(6).reshape(2, 3))",
    "r = L.arange(6).reshape(2, 3).clamp(min=L.tensor([1.5]), max=L.tensor(2))",
    "r = L.arange(5).masked_fill(L.tensor([True, False]), -0.5)",
    "r = L.zeros(0, 3).masked_fill(L.ones(2, 3, dtype=L.bool), 2)",
    "r = F.conv2d(L.ones(1, 1, 5, 5), L.ones(2, 1, 3, 3), L.ones(3))",
    "r = F.conv2d(L.ones(1, 1, 5, 5), L.ones(2, 1, 3, 3), L.arange(3))",
    "r = F.conv2d(L.ones(1, 1, 5, 5), L.ones(2, 1, 3, 3), L.tensor(1.))",
    "r = F.conv2d(L.ones(1, 1, 5, 5), L.ones(2, 1, 3, 3), dilation=(1, 1, 1))",
    "r = F.conv2d(L.ones(1, 1, 5, 5), L.ones(2, 1, 3, 3), stride=(2,)).shape",
])
def test_shapes_that_do_not_broadcast_as_torch(code: str) -> None:
    """Bounds, masks and biases whose shapes do not fit get torch's error (numpy's never
    reaches the user); tensor bounds compute in the result's dtype."""
    assert_same_as_torch(code)


@pytest.mark.parametrize("code", [
    "r = L.nn.Conv2d(4, 5, 2.5)", "r = L.nn.Conv2d(1, 2, 3, padding=True).padding",
    "r = L.nn.Conv2d(1, 2, 3, padding=(1, 1, 1))(L.ones(1, 1, 5, 5))",
    "r = L.nn.HuberLoss(delta='a')", "r = L.nn.HuberLoss(delta=np.int64(3))",
    "r = F.huber_loss(L.ones(3), L.zeros(3), delta=None)",
    "r = F.huber_loss(L.ones(3), L.zeros(3), delta=-1.)",
    "r = F.huber_loss(L.ones(3), L.zeros(3), delta=np.int64(2))",
    "r = F.smooth_l1_loss(L.ones(3), L.zeros(3), beta=float('nan'))",
    "r = L.nn.SmoothL1Loss(beta=[1])(L.ones(3), L.zeros(3))",
    "r = L.nn.Dropout('a')", "r = L.nn.Dropout(None)", "r = L.nn.Dropout(1.5)",
    "r = L.nn.Sequential(L.nn.ReLU())[[5]]", "r = L.nn.Sequential(L.nn.ReLU())[np.int64(0)]",
])
def test_layer_and_loss_options_as_torch(code: str) -> None:
    """Kernel sizes, paddings, loss parameters, dropout's p and Sequential's index are
    checked as torch's (its Python code's errors where its code is Python)."""
    assert_same_as_torch(code)


STEP = "(p ** 3).sum().backward(); opt.step(); opt.step(); r = p"


@pytest.mark.parametrize("code", [
    f"opt = L.optim.SGD([p], lr=L.tensor(0.1)); {STEP}",
    f"opt = L.optim.SGD([p], lr=L.tensor(0.1), momentum=0.9); {STEP}",
    "opt = L.optim.SGD([p], lr=L.tensor([0.1, 0.2]))",
    f"opt = L.optim.Adam([p], lr=L.tensor(0.1)); {STEP}",
    f"opt = L.optim.Adam([p], lr=0.1, betas=(L.tensor(0.9), L.tensor(0.99))); {STEP}",
    f"opt = L.optim.RMSprop([p], lr=L.tensor(0.1)); {STEP}",
    "opt = L.optim.Adam([p], betas=(L.tensor(0.9), 0.99))",
    "opt = L.optim.Adam([p], betas=None)", "opt = L.optim.Adam([p], betas=0.9)",
    "opt = L.optim.Adam([p], betas=(0.9,))", "opt = L.optim.Adam([p], betas=(0.9, 0))",
    "opt = L.optim.AdamW([p], betas=(0.9, 1))",
    "opt = L.optim.Adam([p], betas=[0.9, 0.99]); r = opt.defaults['betas']",
    "opt = L.optim.SGD([p], lr=0.1); opt.add_param_group([p])",
    "opt = L.optim.SGD([p], lr=0.1); opt.load_state_dict(2.5)",
])
def test_optimizer_settings_as_torch(code: str) -> None:
    """A one-element tensor ``lr`` or a pair of tensor ``betas`` train as torch's; other
    settings, groups and state dicts are refused with torch's errors."""
    assert_same_as_torch(f"p = L.tensor([1., -2., 3.], requires_grad=True)\n{code}")


DUAL = "with L.autograd.forward_ad.dual_level() as level:\n    "


@pytest.mark.parametrize("code", [
    f"{DUAL}r = level",
    f"{DUAL}r = L.autograd.forward_ad.unpack_dual("
    "L.autograd.forward_ad.make_dual(L.ones(3), L.ones(3), level=0)).tangent",
    f"{DUAL}L.autograd.forward_ad.make_dual(L.ones(3), L.ones(3), level=5)",
    f"{DUAL}L.autograd.forward_ad.make_dual(L.ones(3), L.ones(3), level='2')",
    f"{DUAL}L.autograd.forward_ad.make_dual(L.ones(3), L.ones(3), level=True)",
    f"{DUAL}L.autograd.forward_ad.make_dual(L.ones(3), L.ones(3), level=-1)",
    f"{DUAL}r = L.autograd.forward_ad.unpack_dual(3)",
    "r = L.autograd.forward_ad.unpack_dual(3)",
    f"{DUAL}r = L.autograd.forward_ad.unpack_dual("
    "L.autograd.forward_ad.make_dual(L.ones(3), L.ones(3)), level=5)",
    "level = L.autograd.forward_ad.enter_dual_level()\n"
    "L.autograd.forward_ad.exit_dual_level(level=level); r = level",
])
def test_forward_ad_levels_as_torch(code: str) -> None:
    """Levels are numbered as torch's (0 inside ``dual_level``) and checked as there."""
    assert_same_as_torch(code)


@pytest.mark.parametrize("code", [
    "r = L.FloatTensor(True)", "r = L.LongTensor(True)", "r = L.Tensor(np.float64(2.5))",
    "r = L.Tensor(2.5)", "r = L.Tensor([1, 2])", "r = L.Tensor(np.array([1., 2.]))",
    "r = L.nn.utils.clip_grad_norm_(L.zeros(3), None)",
    "r = L.nn.utils.clip_grad_norm_(L.zeros(3), 1j)",
    "r = F.batch_norm(L.ones(4, 3), None, None, training=True, eps=0)",
    "r = F.batch_norm(L.ones(4, 3), None, None, training=True, eps='a')",
    "r = F.batch_norm(L.ones(4, 3), L.zeros(3), L.ones(3), training=True, momentum='a')",
    "r = L.nn.BatchNorm1d(3, eps=0)(L.ones(4, 3))",
])
def test_legacy_data_and_numeric_options_as_torch(code: str) -> None:
    """The legacy constructors take a sequence as data (a number is a size or refused);
    ``max_norm``, batch_norm's ``eps`` and ``momentum`` are read as torch's."""
    assert_same_as_torch(code)


@pytest.mark.parametrize("code", [
    "r = L.cat([], (0, 0))", "r = L.cat([], True)",
    "r = F.dropout(2.5, p=float('inf'), training=True)",
    "r = F.batch_norm(L.tensor([0.2, 0.7, 0.9]), L.zeros(3), L.ones(3), training=1)",
    "r = F.batch_norm(L.ones(0, 3), None, None, training=True)",
    "r = F.smooth_l1_loss(L.ones(3, 4), L.ones(3), beta=None)",
    "r = F.smooth_l1_loss(L.ones(3), L.zeros(3), beta=0, reduction='x')",
    "r = L.nn.L1Loss(reduction=1)(L.ones(3, 3), L.ones(2, 3))",
    "r = L.nn.HuberLoss(reduction='x')(L.ones(3, 3), L.ones(2, 3))",
])
def test_checks_in_torch_order(code: str) -> None:
    """Where several arguments are bad, the one torch checks first is named: its Python
    checks (dropout's p, batch_norm's batch size, a loss's broadcast) before its parser's."""
    assert_same_as_torch(code)


GRADCHECK = "x = (L.ones(3, dtype=L.float64, requires_grad=True),)\n" \
    "r = L.autograd.gradcheck(lambda x: x ** 2, x, {})"


@pytest.mark.parametrize("code", [
    "r = list(L.nn.BCELoss(weight=L.ones(3)).state_dict())",
    "r = list(L.nn.BCEWithLogitsLoss(pos_weight=L.ones(3)).state_dict())",
    "r = F.binary_cross_entropy(L.ones(3) / 2, L.ones(3), weight=[1., 2., 3.])",
    "r = F.binary_cross_entropy_with_logits(L.tensor(3.), L.tensor(2.), pos_weight=[1.])",
    "r = F.binary_cross_entropy_with_logits(L.tensor(3.), L.tensor(2.), weight=2.5)",
    "r = L.nn.BCEWithLogitsLoss(pos_weight=L.ones(2, 3))(L.ones(3), L.ones(3))",
    "r = L.ones(3, 4).var(True, correction=2)", "r = L.ones(3, 4).std(True, correction=2)",
    GRADCHECK.format("atol=1j"), GRADCHECK.format("atol=-0.5"),
    GRADCHECK.format("atol=float('nan')"), GRADCHECK.format("rtol=-1."),
    GRADCHECK.format("atol=None"), GRADCHECK.format("atol=np.float32(2)"),
    "r = L.nn.MaxPool2d(np.int64(2))(L.ones(3))",
    "r = L.nn.MaxPool2d(np.int64(2))(L.ones(1, 1, 4, 4))",
    "r = L.randperm(1, dtype=bool)",
    "r = L.nn.init.constant_(L.ones(4, 3), L.tensor([1., 2.]))",
    "r = L.ones(3).fill_(L.tensor([1., 2., 3.]))",
])
def test_weights_tolerances_and_values_as_torch(code: str) -> None:
    """Loss weights are buffers (checked, in state_dict) and broadcast as torch's; var's
    bool form takes no correction; gradcheck's tolerances and fill_'s value are checked."""
    assert_same_as_torch(code)


@pytest.mark.parametrize("code", [
    "L.manual_seed(0); r = L.normal(float('inf'), 1., size=(2,))",
    "L.manual_seed(0); r = L.normal(float('-inf'), 1., size=(20,))",
    "L.manual_seed(0); r = L.nn.init.normal_(L.ones(2, 3), float('inf'), 2.5)",
    "L.manual_seed(0); r = L.normal(L.ones(4), np.int64(3))",
    "r = L.tensor(3.).to(0)", "r = L.device(0)",
    "x = L.tensor(2., requires_grad=True)\n"
    "r = L.autograd.grad(x ** 2, x, grad_outputs=L.tensor(1., dtype=L.float64))[0]",
    "x = L.tensor(2., requires_grad=True); (x ** 2).backward(L.tensor(2)); r = x.grad",
])
def test_results_as_torch(code: str) -> None:
    """An infinite mean stays infinite; a numpy std does not promote; an int device needs an
    accelerator; a root's gradient is cast to the root's dtype."""
    assert_same_as_torch(code)


@pytest.mark.parametrize("code", [
    "r = F.conv2d(L.ones(1, 1, 5, 5), L.ones(2, 1, 3, 3), padding='SAME')",
    "r = L.nn.Conv2d(1, 2, 3, stride=2, padding='same')",
    "r = L.nn.Conv2d(1, 2, 3, padding='valid')",
    "r = L.nn.Conv2d(1, 2, 3, padding='same')(L.ones(1, 1, 5, 5)).shape",
    "r = L.tensor([1.]).softmax()", "r = L.tensor([1.]).log_softmax()",
    "r = L.softmax(L.tensor([1.]))",
])
def test_padding_strings_and_required_dims_as_torch(code: str) -> None:
    """Conv2d checks its padding string when built (F.conv2d when called); softmax's dim
    is required, with torch's message."""
    assert_same_as_torch(code)

