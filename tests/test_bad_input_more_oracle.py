"""Bad and edge input of issue #21's later rounds against live torch: numpy bools as
numbers, list keys read as tuples, ... Each case runs on torch and on minitorch and must
have the same outcome (the same result, or the same exception type and message).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from badinput import classify
from hypothesis import given
from hypothesis import strategies as st
from oracle import SETTINGS


def assert_same_as_torch(expression: str, **names: Any) -> None:
    """``expression`` (over ``L``, ``np`` and ``names``, each a function of the library) has
    torch's outcome in minitorch."""
    def run(L: Any, e: str) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return eval(e, {"np": np, "L": L, **{k: f(L) for k, f in names.items()}})

    outcome, said = classify(run, [lambda L: expression])
    assert outcome == "same", said


TENSORS = {"float": lambda L: L.tensor([1.5, -2.0, 0.0]),
           "int": lambda L: L.tensor([4, -3, 0]),
           "bool": lambda L: L.tensor([True, False, True]),
           "bool0d": lambda L: L.tensor(True)}


@SETTINGS
@given(x=st.sampled_from(sorted(TENSORS)), flag=st.sampled_from(["np.True_", "np.False_"]),
       expression=st.sampled_from([
           "x * {b}", "{b} * x", "x + {b}", "x | {b}", "x ^ {b}", "x & {b}", "L.pow(x, {b})",
           "x == {b}", "L.where(x > 0, {b}, x)", "L.clamp(x, {b})", "L.full((2,), {b})",
           "x.add(1, alpha={b})", "L.result_type(x, {b})", "x.masked_fill(x > 0, {b})",
           "L.sub(x, 1, alpha={b})", "L.mul(x, {b})"]))
def test_numpy_bools_read_as_doubles_as_torch(x: str, flag: str, expression: str) -> None:
    """torch's parser reads a numpy bool scalar as a double: ``int_tensor * np.True_`` is a
    float tensor, ``bool_tensor | np.False_`` a float op that bitwise ops refuse."""
    assert_same_as_torch(expression.format(b=flag), x=TENSORS[x])


LIST_KEYS = ["[[0, 1], [1, 0]]", "[[True, False, True]]", "[[True, False], [False, True]]",
             "[L.tensor(0), 1]", "[slice(None), 1]", "[None, 1]", "[Ellipsis, 1]",
             "[(0, 1), [1, 0]]", "[0, 1]", "[[0]] * 33", "[range(2)]", "[np.array([0, 1]), 0]",
             "[L.tensor([0, 2])]", "np.array([[0, 1], [1, 0]])", "((0, 1), [1, 0])",
             "[[0, 1], [1, 0], [0, 0]]"]


@SETTINGS
@given(shape=st.sampled_from([(3,), (3, 2), (2, 3), (2, 2, 2), ()]),
       key=st.sampled_from(LIST_KEYS), write=st.booleans())
def test_list_keys_read_as_tuples_as_torch(shape: tuple, key: str, write: bool) -> None:
    """A short list key that holds a sequence, tensor, slice, None or ``...`` indexes as the
    tuple of its items (numpy's old rule, kept by torch); a tuple inside a key is a list."""
    x = lambda L: L.arange(float(np.prod(shape))).reshape(shape)  # noqa: E731
    if write:
        assert_same_as_torch(f"x.__setitem__({key}, -1.0) or x", x=x)
    else:
        assert_same_as_torch(f"x[{key}]", x=x)


def test_list_keys_warn_as_torch() -> None:
    """The old rule warns, as torch does."""
    import minitorch as mt
    with pytest.warns(UserWarning, match="non-tuple sequence for multidimensional indexing"):
        mt.ones(3, 2)[[[0, 1], [1, 0]]]


OPERANDS = {"float32": lambda L, s: L.full(s, 0.25), "float64": lambda L, s: L.full(s, 0.75,
            dtype=L.float64), "int64": lambda L, s: L.full(s, 1, dtype=L.int64),
            "bool": lambda L, s: L.full(s, True)}


@SETTINGS
@given(loss=st.sampled_from(["mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss",
                             "binary_cross_entropy", "binary_cross_entropy_with_logits"]),
       dtypes=st.tuples(st.sampled_from(sorted(OPERANDS)), st.sampled_from(sorted(OPERANDS))),
       shapes=st.sampled_from([((2, 3), (2, 3)), ((2, 3), (3,)), ((2, 3), (3, 2)), ((), ())]),
       reduction=st.sampled_from(["mean", "none", None, True]),
       extra=st.sampled_from(["", ", beta=-1.0", ", delta=-1.0", ", beta=0.0"]))
def test_loss_operand_checks_as_torch(loss: str, dtypes: tuple, shapes: tuple,
                                      reduction: Any, extra: str) -> None:
    """Elementwise losses check shapes, then the reduction, then their parameters, then the
    dtypes their kernels take (floating; huber writes into the input's dtype, bce wants the
    target in the input's dtype), as torch does."""
    if ("beta" in extra and loss != "smooth_l1_loss") or ("delta" in extra and
                                                         loss != "huber_loss"):
        extra = ""
    names = {"x": lambda L: OPERANDS[dtypes[0]](L, shapes[0]),
             "y": lambda L: OPERANDS[dtypes[1]](L, shapes[1])}
    assert_same_as_torch(f"L.nn.functional.{loss}(x, y, reduction={reduction!r}{extra})",
                         **names)


@pytest.mark.parametrize("expression", [
    "L.nn.functional.dropout(L.ones(2, 3, dtype=L.int64), 0.5)",
    "L.nn.functional.dropout(L.ones(2, 3, dtype=L.bool), 0.5)",
    "L.nn.Dropout(0.5)(L.ones(3, dtype=L.int64))",
    "L.nn.functional.dropout(L.ones(3, dtype=L.int64), 1.0)",
    "L.nn.Dropout('a')", "L.nn.Dropout(None)", "L.nn.Parameter(3)", "L.nn.Parameter([1.0])",
    "L.optim.Adam([L.nn.Parameter(L.ones(1))], betas=0.9)",
    "L.optim.AdamW([L.nn.Parameter(L.ones(1))], betas=None)",
    "L.optim.Adam([L.nn.Parameter(L.ones(1))], betas=[0.5, 1.0])"])
def test_layer_and_optimizer_arguments_as_torch(expression: str) -> None:
    """Dropout's mask divides in place (an integer input cannot take it); Dropout, Parameter
    and Adam read their arguments as torch's Python code does."""
    assert_same_as_torch(expression)


NORM_DTYPES = [None, "float32", "float64", "int64", "bool"]


@SETTINGS
@given(dtypes=st.tuples(*[st.sampled_from(NORM_DTYPES)] * 4),
       input=st.sampled_from(["float32", "float64", "int64", "bool"]), training=st.booleans())
def test_batch_norm_dtypes_as_torch(dtypes: tuple, input: str, training: bool) -> None:
    """batch_norm's dtype checks: a floating input; weight, bias, running mean and var of
    the input's dtype (the first decides between torch's two messages)."""
    def make(L: Any, dt: str | None, fill: float) -> Any:
        return None if dt is None else L.full((3,), fill, dtype=getattr(L, dt))

    def call(L: Any) -> Any:
        x = L.tensor([[1.0, 2, 3], [4, 5, 7]]).to(getattr(L, input))
        weight, bias, mean, var = (make(L, d, f) for d, f in zip(dtypes, (1, 0, 0, 1)))
        if not training and (mean is None or var is None):
            mean, var = L.zeros(3).to(x.dtype), L.ones(3).to(x.dtype)
        return L.nn.functional.batch_norm(x, mean, var, weight, bias, training=training)

    outcome, said = classify(lambda L, f: f(L), [lambda L: call])
    assert outcome == "same", said


@SETTINGS
@given(name=st.sampled_from(["std", "var"]), method=st.booleans(),
       args=st.lists(st.sampled_from(["1", "True", "False", "None", "(0, 1)"]), max_size=3),
       kwargs=st.sampled_from(["", "keepdim=True", "correction=0", "unbiased=False",
                               "keepdim=False, correction=2", "unbiased=True, correction=1"]))
def test_variance_overloads_as_torch(name: str, method: bool, args: list, kwargs: str) -> None:
    """std and var take ``(dim, unbiased, keepdim)``, ``(dim, *, correction, keepdim)`` or a
    lone ``unbiased`` flag, as torch's three overloads; other mixes are torch's TypeError."""
    call = ", ".join([*args, kwargs] if kwargs else args)
    head = f"x.{name}(" if method else f"L.{name}(x, "
    outcome, said = classify(
        lambda L, e: eval(e, {"L": L, "x": L.tensor([[1.0, 2, 4], [3, 5, 9]])}),
        [lambda L: head + call + ")"])
    assert outcome in ("same", "message"), said  # torch's message adds per-overload notes


@pytest.mark.parametrize("expression", [
    "L.zeros(0, 3).masked_fill(L.ones(2, 3, dtype=L.bool), -1)",
    "L.ones(3, 2).masked_fill(L.ones(2, 3, dtype=L.bool), L.tensor(1.))",
    "L.zeros(0, 3).masked_fill_(L.ones(2, 3, dtype=L.bool), 0)",
    "L.zeros(2, 1).masked_fill_(L.ones(2, 3, dtype=L.bool), 0)",
    "L.zeros(2, 1).masked_fill(L.ones(2, 3, dtype=L.bool), 0)"])
def test_masked_fill_shapes_as_torch(expression: str) -> None:
    """A mask that does not broadcast with the tensor is torch's broadcast error."""
    assert_same_as_torch(expression)



LEGACY_DATA = ["L.tensor([1, 2])", "L.tensor([1.0, 2.0])", "L.tensor([1.0], dtype=L.float64)",
               "L.tensor([True])", "L.tensor(3)", "L.zeros(0, 2)"]


@SETTINGS
@given(ctor=st.sampled_from(["Tensor", "FloatTensor", "DoubleTensor", "LongTensor",
                             "BoolTensor"]),
       data=st.sampled_from(LEGACY_DATA), device=st.sampled_from(["", ", device='cpu'"]))
def test_legacy_constructors_of_a_tensor_as_torch(ctor: str, data: str, device: str) -> None:
    """A legacy constructor given a tensor shares it: of its own dtype (``torch.Tensor``:
    any), else torch's TensorOptions TypeError; with a device, torch's refusal."""
    assert_same_as_torch(f"L.{ctor}({data}{device})")


def test_legacy_constructor_shares_the_tensor_as_torch() -> None:
    """torch aliases the tensor: a write through the new one shows in the old."""
    assert_same_as_torch("(lambda x: (L.FloatTensor(x).fill_(5.0), x)[1])(L.ones(2))")


@SETTINGS
@given(fn=st.sampled_from(["linspace", "logspace"]),
       ends=st.sampled_from(["1, 2", "L.tensor([1.0, 2.0]), 2", "1, L.tensor([[2.0]])",
                             "L.tensor(1.0), 2", "1j, 2", "'a', L.tensor([1.0])"]),
       steps=st.sampled_from(["3", "-1", "L.tensor(2)", "'a'"]),
       dtype=st.sampled_from(["", ", dtype=L.bool", ", dtype=L.int64", ", dtype='float32'",
                              ", dtype=float"]))
def test_spaced_factories_check_as_torch(fn: str, ends: str, steps: str, dtype: str) -> None:
    """linspace/logspace: every type first (steps, dtype), then 0-d tensor ends, the steps'
    sign, then the dtype (no bool kernel)."""
    outcome, said = classify(lambda L, e: eval(e, {"L": L}),
                             [lambda L: f"L.{fn}({ends}, {steps}{dtype})"])
    assert outcome in ("same", "message"), said  # torch's text lists its overloads


@pytest.mark.parametrize("expression", [
    "L.randperm(-5, dtype='float32')", "L.randperm(-5, dtype=L.bool)", "L.randperm(3, dtype=3)"])
def test_randperm_reads_types_first_as_torch(expression: str) -> None:
    """randperm checks the dtype's type before n's sign, as torch's parser."""
    outcome, said = classify(lambda L, e: eval(e, {"L": L}), [lambda L: expression])
    assert outcome in ("same", "message"), said


@SETTINGS
@given(fn=st.sampled_from(["reshape", "permute"]),
       sizes=st.sampled_from(["-1", "1", "6", "(3, 2)", "[2, 3]", "(1, 0)", "None", "'a'",
                              "L.Size([6])", "(3, 'a')"]))
def test_sizes_functions_take_one_tuple_as_torch(fn: str, sizes: str) -> None:
    """``minitorch.reshape``/``permute`` take the sizes as one tuple (never one int), as
    torch's functions; the methods take them spread out too."""
    assert_same_as_torch(f"L.{fn}(L.zeros(2, 3), {sizes})")


@pytest.mark.parametrize("expression", [
    "x.var(True, correction=None)", "x.std(True, correction=None)", "x.var(correction=None)",
    "L.var(x, 0, True, correction=None)", "x.std(0, correction=None, keepdim=True)"])
def test_correction_none_is_given_as_torch(expression: str) -> None:
    """An explicit ``correction=None`` selects torch's correction overload: no ``unbiased``
    next to it."""
    outcome, said = classify(lambda L, e: eval(e, {"L": L, "x": L.tensor([1.0, 2.0, 4.0])}),
                             [lambda L: expression])
    assert outcome in ("same", "message"), said  # torch lists per-overload notes


@SETTINGS
@given(init=st.sampled_from(["kaiming_uniform_", "kaiming_normal_"]),
       tensor=st.sampled_from(["L.ones(2, 3)", "L.zeros(0, 3)", "L.ones(4)", "'a'"]),
       a=st.sampled_from(["0.0", "True", "np.float32(2)", "np.float64(2)", "2", "None"]),
       mode=st.sampled_from(["'fan_in'", "'FAN_OUT'", "1", "None", "'bad'"]),
       nonlinearity=st.sampled_from(["'leaky_relu'", "'relu'", "'sigmoid'", "'bad'"]))
def test_kaiming_arguments_as_torch(init: str, tensor: str, a: str, mode: str,
                                    nonlinearity: str) -> None:
    """kaiming init leaves an empty tensor (before any check), lower-cases the mode, and
    takes only Python ints and floats (no bool) as leaky_relu's slope, as torch's code."""
    assert_same_as_torch(f"L.nn.init.{init}({tensor}, a={a}, mode={mode}, "
                         f"nonlinearity={nonlinearity}).shape")


@pytest.mark.parametrize("expression", [
    "L.nn.init.zeros_('a')", "L.nn.init.ones_('a')", "L.nn.init.calculate_gain('sigmoid')",
    "L.nn.init.calculate_gain('conv_transpose2d')", "L.nn.init.calculate_gain('linear')"])
def test_init_helpers_as_torch(expression: str) -> None:
    """zeros_ calls ``zero_`` (a non-tensor lacks it); linear gains are the int 1."""
    assert_same_as_torch(expression)


@pytest.mark.parametrize("module", ["L.nn.Linear(3, 2)", "L.nn.ReLU()", "L.nn.Sigmoid()",
                                    "L.nn.Sequential(L.nn.Linear(3, 2))", "L.nn.Flatten()",
                                    "L.nn.Dropout()", "L.nn.BatchNorm1d(3)"])
def test_module_forward_names_its_input_as_torch(module: str) -> None:
    """A forward pre-hook that drops the arguments gets Python's TypeError naming torch's
    parameter, ``input``."""
    assert_same_as_torch(f"(lambda m: (m.register_forward_pre_hook(lambda m, i: ()), "
                         f"m(L.ones(4, 3)))[1])({module})")


@pytest.mark.parametrize("eps", ["None", "'a'", "[1]", "1j", "L.tensor(2.0)",
                                 "L.tensor([1.0, 2.0])", "np.float32(2)", "-0.5"])
def test_gradcheck_step_as_torch(eps: str) -> None:
    """gradcheck's ``eps`` is subtracted from an input element in place: a real number or a
    0-d tensor; anything else fails as that subtraction fails in torch."""
    assert_same_as_torch(f"L.autograd.gradcheck(lambda x: x ** 2, (L.tensor([1.0, 2.0], "
                         f"dtype=L.float64, requires_grad=True),), eps={eps}, atol=2)")


@pytest.mark.parametrize("lengths", ["[1.5, 2.5]", "[0.5, 0.5]", "[1, 3]", "[2, 3]"])
def test_random_split_lengths_as_torch(lengths: str) -> None:
    """random_split draws ``randperm(sum(lengths))``: float lengths fail there, as torch."""
    outcome, said = classify(lambda L, e: eval(e, {"L": L}), [lambda L: (
        f"[len(s) for s in L.utils.data.random_split(L.utils.data.TensorDataset("
        f"L.arange(4.0)), {lengths})]")])
    assert outcome in ("same", "message"), said  # torch's text lists randperm's overloads


@pytest.mark.parametrize("mode", ["1", "None", "'avg'", "'zeros'", "[1]"])
def test_conv_padding_mode_as_torch(mode: str) -> None:
    """An unknown padding mode is torch's ValueError, after the padding string's checks."""
    outcome, said = classify(lambda L, e: eval(e, {"L": L}),
                             [lambda L: f"L.nn.Conv2d(1, 2, 3, padding_mode={mode}).padding_mode"])
    assert outcome in ("same", "message"), said  # torch prints a set, in its own order


LOSS_CALLS = {
    "mse": "L.nn.functional.mse_loss(x, p{extra})", "l1": "L.nn.functional.l1_loss(x, p{extra})",
    "smooth_l1": "L.nn.functional.smooth_l1_loss(x, p{extra})",
    "smooth_l1_beta0": "L.nn.functional.smooth_l1_loss(x, p, beta=0.0{extra})",
    "bce": "L.nn.functional.binary_cross_entropy(p, p{extra})",
    "bce_logits": "L.nn.functional.binary_cross_entropy_with_logits(x, p{extra})",
    "nll": "L.nn.functional.nll_loss(x, c{extra})",
    "cross_entropy": "L.nn.functional.cross_entropy(x, c{extra})",
    "MSELoss": "L.nn.MSELoss({extra0})(x, p)", "BCELoss": "L.nn.BCELoss({extra0})(p, p)",
    "NLLLoss": "L.nn.NLLLoss({extra0})(x, c)",
    "CrossEntropyLoss": "L.nn.CrossEntropyLoss({extra0})(x, c)"}


@SETTINGS
@given(loss=st.sampled_from(sorted(LOSS_CALLS)), extra=st.sampled_from([
    "reduction='elementwise_mean'", "reduction='Mean'", "reduce=False", "size_average=False",
    "size_average=False, reduction='none'", "reduce=True, reduction='bad'",
    "reduction='sum'"]))
def test_loss_reductions_as_torch(loss: str, extra: str) -> None:
    """Every loss reads the deprecated size_average/reduce pair (then ignoring
    ``reduction``) and the deprecated 'elementwise_mean' as torch does."""
    names = {"x": lambda L: L.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]]),
             "p": lambda L: L.tensor([[0.25, 0.5, 1.0], [0.0, 0.75, 0.5]]),
             "c": lambda L: L.tensor([0, 2])}
    assert_same_as_torch(LOSS_CALLS[loss].format(extra=", " + extra, extra0=extra), **names)


@SETTINGS
@given(module=st.sampled_from(["NLLLoss", "CrossEntropyLoss"]),
       options=st.sampled_from(["weight=L.tensor([0.5, 1.0, 2.0])", "ignore_index=2",
                                "weight=L.ones(4)", "label_smoothing=0.25",
                                "label_smoothing=2.5", "ignore_index=0, reduction='sum'"]),
       input=st.sampled_from(["L.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]])", "'a'"]),
       reduction=st.sampled_from(["", ", reduction='Mean'"]))
def test_class_loss_modules_take_torch_options(module: str, options: str, input: str,
                                               reduction: str) -> None:
    """NLLLoss and CrossEntropyLoss take weight and ignore_index (and label_smoothing), and
    check the reduction before the input's type, as torch's functions do."""
    if "label_smoothing" in options and module == "NLLLoss":
        options = "ignore_index=-1"
    if reduction and "reduction" in options:
        reduction = ""
    assert_same_as_torch(f"L.nn.{module}({options}{reduction})({input}, L.tensor([0, 2]))")


@pytest.mark.parametrize("expression", [
    "L.autograd.grad(None, x)", "L.autograd.grad((x * 2).sum(), None)",
    "L.autograd.backward(None)", "((x * 2).sum().backward(inputs=None), x.grad)[1]"])
def test_autograd_tensor_lists_are_no_none_as_torch(expression: str) -> None:
    """grad's outputs and inputs and backward's tensors are iterated: None is no iterable."""
    assert_same_as_torch(expression, x=lambda L: L.ones(3, requires_grad=True))


@pytest.mark.parametrize("result", ["None", "t", "t * 2", "1", "(t,)", "[t]"])
def test_post_accumulate_hook_results_as_torch(result: str) -> None:
    """A post-accumulate-grad hook returns None (or its tensor); another tensor is refused,
    anything else is torch's 'expected Variable'."""
    assert_same_as_torch(f"(x.register_post_accumulate_grad_hook(lambda t: {result}), "
                         "(x * 2).sum().backward(), x.grad)[2]",
                         x=lambda L: L.ones(2, 3, requires_grad=True))


@SETTINGS
@given(fn=st.sampled_from(["argmax", "argmin"]),
       shape=st.sampled_from([(), (3,), (2, 3), (2, 1, 3), (0, 2)]),
       dim=st.sampled_from(["", "None, ", "1, ", "-1, "]))
def test_arg_extremum_keepdim_as_torch(fn: str, shape: tuple, dim: str) -> None:
    """argmax/argmin with keepdim and no dim keep every dim as size 1."""
    assert_same_as_torch(f"x.{fn}({dim}keepdim=True)",
                         x=lambda L: L.arange(float(np.prod(shape))).reshape(shape))


@SETTINGS
@given(shape=st.sampled_from([(), (3,), (2, 3), (2, 1, 3)]),
       dims=st.sampled_from([(0, -1), (1, 1), (0, 0), (-1, -1), (1, -1)]))
def test_flatten_of_nothing_is_the_tensor_as_torch(shape: tuple, dims: tuple) -> None:
    """flatten with nothing to merge returns the tensor itself (no ViewBackward0)."""
    assert_same_as_torch(f"(lambda y: (y is x, y.shape, y.grad_fn is None))(x.flatten{dims})",
                         x=lambda L: L.ones(shape, requires_grad=True))


@SETTINGS
@given(condition=st.sampled_from(["L.tensor(True)", "L.tensor([[1.0, 0.0], [2.0, 3.0]])",
                                  "L.zeros(2, 0)", "L.tensor([0, 3, 0, 1])", "3"]),
       rest=st.sampled_from(["", ", 1.0", ", other=2", ", 'a', 1", ", 1, 2.5"]))
def test_where_forms_as_torch(condition: str, rest: str) -> None:
    """where(condition) gives the indices where it holds, one tensor per dim; a lone second
    argument matches none of torch's overloads."""
    assert_same_as_torch(f"L.where({condition}{rest})")


FORWARDS = {"float": "return x * 2", "long": "return x.long()", "pair": "return x.long(), x * 2",
            "bool": "return x > 0"}


@pytest.mark.parametrize("forward", sorted(FORWARDS))
def test_custom_function_integer_outputs_need_no_grad_as_torch(forward: str) -> None:
    """A custom Function's integer or bool outputs are not differentiable: no grad_fn."""
    def call(L: Any) -> Any:
        class F(L.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any) -> Any:
                return eval(FORWARDS[forward].removeprefix("return "), {"x": x})

            @staticmethod
            def backward(ctx: Any, *grads: Any) -> Any:
                return grads[-1]

        outs = F.apply(L.tensor([1.0, -2.0], requires_grad=True))
        outs = outs if isinstance(outs, tuple) else (outs,)
        return [(o.requires_grad, o.grad_fn is None) for o in outs]

    outcome, said = classify(lambda L, f: f(L), [lambda L: call])
    assert outcome == "same", said


@pytest.mark.parametrize("calls", [False, True])
def test_function_instances_are_legacy_as_torch(calls: bool) -> None:
    """Instantiating a Function only warns; calling the instance is torch's legacy error."""
    def call(L: Any, calls: bool) -> Any:
        class F(L.autograd.Function):
            pass

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            f = F(2.5)
        return f(L.ones(1)) if calls else type(f).__name__

    outcome, said = classify(call, [lambda L: calls])
    assert outcome == "same", said


@pytest.mark.parametrize("expression", [
    "L.nn.functional.binary_cross_entropy_with_logits(L.tensor(3.0), L.ones(3), pos_weight='a')",
    "L.nn.functional.binary_cross_entropy_with_logits(L.ones(1), L.ones(1), weight='a')",
    "L.nn.functional.batch_norm(3, L.zeros(3), L.ones(3), training=1)",
    "L.nn.functional.batch_norm(3, L.zeros(3), L.ones(3))",
    "type(L.nn.Linear(3, 2).load_state_dict({'weight': L.zeros(2, 3)}, strict=False)).__name__"])
def test_python_checks_before_parser_checks_as_torch(expression: str) -> None:
    """Where torch's function is Python code before its C call, its Python checks (the
    input's size, the target's shape) come before the parser's type checks."""
    assert_same_as_torch(expression)


@SETTINGS
@given(shapes=st.sampled_from([((2, 3), (2, 3), (2, 3)), ((2, 3), (3,), (1,)),
                               ((3,), (2, 3), (2, 1))]),
       bounds=st.sampled_from(["both", "min", "max", "crossed"]),
       dtype=st.sampled_from(["float32", "float64", "int64"]))
def test_clamp_tensor_bounds_get_gradients_as_torch(shapes: tuple, bounds: str,
                                                    dtype: str) -> None:
    """clamp with tensor bounds records them as inputs (ClampBackward0): each bound gets the
    gradient where it is the result, summed to its shape; crossed bounds give max."""
    def call(L: Any) -> Any:
        x = L.tensor(np.linspace(-2, 2, int(np.prod(shapes[0])))).reshape(shapes[0])
        x = x.to(getattr(L, dtype)).requires_grad_(dtype != "int64")
        shift = {"crossed": (1.0, -1.0)}.get(bounds, (-0.5, 0.5))
        low, high = (L.tensor(np.cos(np.arange(np.prod(s)))).reshape(s).float() + d
                     for s, d in zip(shapes[1:], shift))
        low = None if bounds == "max" else low.requires_grad_()
        high = None if bounds == "min" else high.requires_grad_()
        y = L.clamp(x, low, high)
        (y * L.arange(float(y.numel())).reshape(y.shape)).sum().backward()
        return (y, y.grad_fn.name(), *(t.grad for t in (x, low, high) if t is not None))

    outcome, said = classify(lambda L, f: f(L), [lambda L: call])
    assert outcome == "same", said


@SETTINGS
@given(loss=st.sampled_from(["binary_cross_entropy(p, q, weight=w)",
                             "binary_cross_entropy_with_logits(p, q, weight=w)",
                             "binary_cross_entropy_with_logits(p, q, pos_weight=w)",
                             "huber_loss(p, q, weight=w)"]),
       input=st.sampled_from(["float32", "float64"]),
       weight=st.sampled_from(["float32", "float64", "int64", "bool"]),
       reduction=st.sampled_from(["mean", "none"]))
def test_loss_weight_dtypes_as_torch(loss: str, input: str, weight: str, reduction: str) -> None:
    """Loss weights scale in the input's dtype (BCE kernels, in place) or the promoted one
    (huber, out of place), as torch."""
    names = {"p": lambda L: L.tensor([0.25, 0.5, 0.75], dtype=getattr(L, input)),
             "q": lambda L: L.tensor([0.0, 1.0, 0.5], dtype=getattr(L, input)),
             "w": lambda L: L.tensor([1, 0, 2]).to(getattr(L, weight))}
    assert_same_as_torch(f"L.nn.functional.{loss[:-1]}, reduction={reduction!r})", **names)


@SETTINGS
@given(mean=st.sampled_from(["L.zeros(3)", "L.zeros(3, dtype=L.float64)", "0.5"]),
       std=st.sampled_from(["L.ones(3)", "L.ones(3, dtype=L.float64)", "L.arange(3)", "2.0"]))
def test_normal_result_dtype_as_torch(mean: str, std: str) -> None:
    """normal's result has the dtype of its first tensor (torch's empty_like(mean))."""
    assert_same_as_torch(f"(L.manual_seed(0), L.normal({mean}, {std}))[1]")


@pytest.mark.parametrize("name", ["'torch.cuda.FloatTensor'", "'DoubleTensor'",
                                  "'foo.DoubleTensor'", "'torch.DoubleTensor'"])
def test_type_names_as_torch(name: str) -> None:
    """``Tensor.type`` takes torch's full type names only; a CUDA one moves the tensor (here
    refused, with no GPU)."""
    outcome, said = classify(lambda L, e: eval(e, {"L": L}), [lambda L: f"L.ones(2).type({name})"])
    assert outcome in ("same", "different"), said  # torch and minitorch lack CUDA differently


@SETTINGS
@given(p=st.sampled_from(["'fro'", "'nuc'", "'abc'", "2", "None"]),
       dim=st.sampled_from(["None", "0", "(0,)", "(0, 1)", "(-1, 0, 1)", "[0, 1, 2, 0]"]))
def test_norm_string_orders_as_torch(p: str, dim: str) -> None:
    """torch.norm takes 'fro' over at most two dims as a vector norm and hands any other string
    order to matrix_norm, which checks the order and then that there are two dims."""
    assert_same_as_torch(f"L.ones(2, 3, 4).norm(p={p}, dim={dim})")
