"""Bad input found by issue #21's fuzz D on new seeds (3305-3307), against live torch: each
program runs on torch and on minitorch (``L``) and must end the same way (the value of ``R``,
or the exception's type and message).
"""

from __future__ import annotations

import pytest
import torch
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from oracle import SETTINGS
from test_bad_input_fuzz21b_oracle import assert_as_torch, run

import minitorch as mt

_VALUES = ["L.tensor(5.)", "L.ones(3)", "L.ones(1)", "L.ones(4)", "L.ones(1, 3)", "L.ones(2, 3)",
           "L.ones(0)", "L.ones(1, 1)", "L.ones(3, dtype=L.float64)", "L.tensor(5)"]


@settings(SETTINGS, max_examples=80)
@given(st.sampled_from(["L.zeros(3)", "L.zeros(())", "L.zeros(2, 3)", "L.zeros(0)",
                        "L.zeros(1)", "L.zeros(3, requires_grad=True)"]),
       st.sampled_from(["()", "[]"]), st.sampled_from(_VALUES), st.booleans(),
       st.sampled_from(["x.index_put_", "x.index_put", "L.index_put"]))
def test_index_put_without_indices_is_refused_as_torch(x: str, key: str, value: str,
                                                       accumulate: bool, call: str) -> None:
    """index_put with an empty index tuple: torch checks the value against the whole tensor,
    then its kernel fails on the missing index (it never fills the whole tensor)."""
    if call == "L.index_put":
        program = f"x = {x}; R = L.index_put(x, {key}, {value}, accumulate={accumulate})"
    else:
        program = f"x = {x}; R = {call}({key}, {value}, accumulate={accumulate})"
    if call == "x.index_put_" and "requires_grad" in x:
        program = program.replace("x = ", "x = 1 * ", 1)
    assert_as_torch(program)


@settings(SETTINGS, max_examples=40)
@given(st.sampled_from(["x * {n}", "{n} * x", "x.mul({n})", "L.mul(x, {n})", "x / {n}",
                        "x.div({n})"]),
       st.sampled_from(["2", "2.5", "True", "-3"]), st.booleans())
def test_saved_number_operand_as_torch(expr: str, number: str, freed: bool) -> None:
    """A number operand of mul/div is saved as torch's wrapped-number tensor (int64, float64,
    bool), and reading it after the graph was freed is torch's 'second time' error."""
    free = "y.sum().backward(); " if freed else ""
    assert_as_torch(f"x = L.ones(3, requires_grad=True); y = {expr.format(n=number)}; {free}"
                    "R = y.grad_fn._saved_other")


_FACTORIES = ["L.zeros(2)", "L.ones(2, 3)", "L.empty(0)", "L.full((2,), 1.5)", "L.arange(3)",
              "L.eye(2)", "L.linspace(0, 1, 3)", "L.logspace(0, 1, 3)", "L.rand(2).shape",
              "L.randn(2).shape", "L.randint(3, (2,)).shape", "L.randperm(3).sort().values",
              "L.range(0, 2)", "L.zeros_like(L.ones(2))", "L.full_like(L.ones(2), 2)",
              "L.empty_like(L.ones(2)).shape", "L.rand_like(L.ones(2)).shape",
              "L.empty_strided((2,), (1,)).shape", "L.scalar_tensor(1.)",
              "L.tril_indices(3, 3)", "L.tensor([1.])", "L.ones(2).new_zeros(2)",
              "L.ones(2).new_full((2,), 3.)", "L.ones(2).new_tensor([1.])", "L.zeros(-1)",
              "L.full((2,), 'a')", "L.zeros(2, dtype=3)"]
_OPTIONS = ["layout=L.strided", "layout=None", "layout=1", "layout=L.contiguous_format",
            "pin_memory=False", "pin_memory=None", "pin_memory=True", "pin_memory=1",
            "out=None", "generator=None", "out=L.empty(3)", "out=L.empty(2, dtype=L.int64)"]


@settings(SETTINGS, max_examples=150)
@given(st.sampled_from(_FACTORIES), st.sampled_from(_OPTIONS))
def test_factory_tensor_options_as_torch(call: str, option: str) -> None:
    """torch's tensor-option keywords (layout, pin_memory, out) are taken, type-checked and
    refused (pin_memory=True, without an accelerator) where its factory's signature has
    them, and are unexpected keywords where it does not (generator= on zeros)."""
    head, _, tail = call.partition(")")
    args = head.split("(", 1)[1]
    called = f"{head}{', ' if args.strip() else ''}{option}){tail}"
    if option.startswith("out=L.empty"):  # (torch resizes ``out`` before its size check)
        assume("-1" not in call)
        called = f"o = {option[4:]}; R = ({called.replace(option, 'out=o')}, o.shape, o.dtype)"
    else:
        called = f"R = {called}"
    assert_as_torch(called)


@pytest.mark.parametrize("program", [
    "L.nn.utils.rnn.pack_padded_sequence(L.arange(6.).view(3, 2, 1), L.tensor([5, 2]))",
    "L.nn.utils.rnn.pack_padded_sequence(L.arange(6.).view(3, 2, 1), [2, 5], "
    "enforce_sorted=False)",
    "L.nn.utils.rnn.pack_padded_sequence(L.arange(8.).view(4, 2), L.tensor([3, 2]), "
    "batch_first=True, enforce_sorted=False)",
    "L.nn.utils.rnn.pack_padded_sequence(L.arange(8.).view(4, 2), [3], batch_first=True, "
    "enforce_sorted=False)"])
def test_pack_padded_sequence_length_past_the_input_packs_what_is_there(program: str) -> None:
    """A length longer than the input's time steps: torch's slices stop at the input's end,
    so its data holds the steps there are (batch sizes that do not add up to it)."""
    assert_as_torch(f"R = tuple({program})")


_TO_ARGS = ["L.float64", "L.int64", "float", "'cpu'", "None", "True", "False", "1.5", "[1]",
            "L.ones(1, dtype=L.int32)", "L.device('cpu')", "'b'"]
_TO_KEYWORDS = ["", "dtype=L.float64", "device='cpu'", "copy=True", "non_blocking=1",
                "foo=1", "copy=False, dtype=L.int32"]


@settings(SETTINGS, max_examples=150)
@given(st.lists(st.sampled_from(_TO_ARGS), max_size=5), st.sampled_from(_TO_KEYWORDS))
def test_to_binds_torch_signatures(args: list, keywords: str) -> None:
    """``Tensor.to`` binds its arguments to one of torch's three signatures (device and
    dtype; dtype; tensor; each then non_blocking and copy) or refuses the combination as
    torch's parser does, never reading a second dtype as the one to convert to."""
    given_args = ", ".join([*args, *([keywords] if keywords else [])])
    program = f"x = L.ones(2); y = x.to({given_args}); R = (y, y is x)"
    if run(torch, program)[0] == "TypeError":  # (which signature torch words its refusal
        assert run(mt, program)[0] == "TypeError", program  # by is not this test's point)
    else:
        assert_as_torch(program)


@pytest.mark.parametrize("program", [
    "m = L.nn.Sequential(L.nn.ReLU()); m += [L.nn.Tanh()]; R = repr(m)",
    "m = L.nn.Sequential(L.nn.ReLU()); m += (); R = len(m)",
    "R = repr(L.nn.Sequential(L.nn.ReLU()) + L.nn.Sequential(L.nn.Tanh(), L.nn.ReLU()))",
    "m = L.nn.Sequential(L.nn.ReLU()); m += L.nn.Sequential(L.nn.Tanh()); R = repr(m)",
    "m = L.nn.Sequential(L.nn.ReLU()); m += m; R = repr(m)",
    "R = repr([L.nn.Tanh()] + L.nn.Sequential(L.nn.ReLU()))",
    "m = L.nn.Sequential(L.nn.Linear(2, 2), L.nn.ReLU()); "
    "R = [n for n, _ in m.named_modules(prefix=3)]",
    "m = L.nn.Sequential(L.nn.Linear(2, 2)); R = [n for n, _ in m.named_modules(prefix='a')]",
    "m = L.nn.Sequential(L.nn.Linear(2, 2)); R = [n for n, _ in m.named_parameters(prefix=3)]",
    "R = L.nn.Hardtanh(None, 1)", "R = L.nn.Hardtanh(1, 1)", "R = L.nn.Hardtanh(1, None)",
    "R = repr(L.nn.Hardtanh(-2, 2))"])
def test_module_python_checks_as_torch(program: str) -> None:
    """torch's Python-level checks of nn containers and modules: Sequential's + and += take
    only a Sequential (a list is refused, not appended), a non-str prefix fails in its own
    concatenation, Hardtanh compares its bounds as torch does."""
    assert_as_torch(program)


@pytest.mark.parametrize("program", [
    "opt = L.optim.Adagrad([w], lr=0.1); w.grad = None; opt.step(); "
    "R = (w, opt.state_dict()['state'])",
    "opt = L.optim.Adagrad([w], lr=0.1, initial_accumulator_value=0.5); R = opt.state_dict()",
    "opt = L.optim.Adagrad([w], lr=0.1); opt.add_param_group({'params': [v], "
    "'initial_accumulator_value': 2.}); (w.sum() + v.sum()).backward(); opt.step(); "
    "R = (w, v, opt.state_dict())",
    "opt = L.optim.Adagrad([w]); sd = opt.state_dict(); sd['state'][0]['step'] = 3; "
    "b = L.optim.Adagrad([w]); b.load_state_dict(sd); R = b.state_dict()",
    "opt = L.optim.Adagrad([w]); sd = opt.state_dict(); sd['state'][0].pop('sum'); "
    "b = L.optim.Adagrad([w]); b.load_state_dict(sd); (w * w).sum().backward(); b.step()"])
def test_adagrad_state_from_its_constructor_as_torch(program: str) -> None:
    """Adagrad fills each parameter's state (step 0, the initial sum) in its constructor, as
    torch's: a step with no gradient and a state_dict before any step show it."""
    assert_as_torch("w = L.tensor([1., -2., 3.], requires_grad=True)\n"
                    "v = L.tensor([0.5, 0.25], requires_grad=True)\n" + program)


_OPTIMIZERS = ["SGD", "Adam", "AdamW", "Adagrad", "RMSprop", "Adamax", "NAdam", "RAdam",
               "Adadelta"]
_FLAGS = ["fused=True, foreach=True", "fused=True, differentiable=True", "fused=True",
          "capturable=True", "differentiable=True", "foreach=True", "fused=False, foreach=True",
          "betas=(0.9, 0.999, 0.5)", "betas=[0.9, 0.99]"]


@settings(SETTINGS, max_examples=80)
@given(st.sampled_from(_OPTIMIZERS), st.sampled_from(_FLAGS), st.booleans(), st.booleans())
def test_optimizer_flags_refused_as_torch(name: str, flags: str, step: bool,
                                          empty: bool) -> None:
    """torch's refusals of an optimizer's flags: fused with foreach or differentiable at
    construction; at the step, capturable=True on the CPU, differentiable=True writing into
    a leaf that requires grad, and betas that do not unpack into two (for every group, one
    without parameters too)."""
    params = '[{"params": []}]' if empty else "[w]"
    then = "(w * w).sum().backward(); opt.step(); " if step else ""
    assert_as_torch(f"w = L.tensor([1., -2., 3.], requires_grad=True); "
                    f"opt = L.optim.{name}({params}, lr=0.1, {flags}); {then}R = w")


@pytest.mark.parametrize("name", ["SGD", "Adam", "Adagrad", "RMSprop", "NAdam"])
@pytest.mark.parametrize("args", ["(1,)", "()", "({'a': 1},)", "(None,)"])
def test_step_pre_hook_replacing_self_fails_as_torch(name: str, args: str) -> None:
    """A step pre-hook that replaces the optimizer in the step's arguments: torch's
    grad-mode wrapper reads ``self.defaults['differentiable']`` from what it got."""
    assert_as_torch(f"w = L.tensor([1., -2., 3.], requires_grad=True)\n"
                    f"opt = L.optim.{name}([w], lr=0.1)\n(w * w).sum().backward()\n"
                    f"h = opt.register_step_pre_hook(lambda o, args, kwargs: ({args}, {{}}))\n"
                    "opt.step()\nR = w")


@pytest.mark.parametrize("program", [
    "R = L.multinomial(L.tensor([], dtype=L.float64), 3, True)",
    "R = L.multinomial(L.tensor([]), 1, True)", "R = L.multinomial(L.zeros(2, 0), 3, True)",
    "R = L.multinomial(L.zeros(2, 0), 1, True)", "R = L.multinomial(L.zeros(0, 0), 3, True)",
    "R = list(L.utils.data.WeightedRandomSampler([], 3, replacement=True, "
    "generator=L.Generator().manual_seed(0)))",
    "x = L.zeros((0, 3), requires_grad=True); y = L.nn.functional.soft_margin_loss(x, "
    "L.zeros(0, 3)); y.backward(); R = (y, x.grad)",
    "x = L.zeros((0, 3), requires_grad=True); y = L.nn.functional.soft_margin_loss(x, "
    "L.zeros(0, 3), reduction='sum'); y.backward(); R = (y, x.grad)"])
def test_empty_inputs_as_torch(program: str) -> None:
    """Empty inputs: multinomial over no category fails where torch's draw does (not in a
    numpy reshape); soft_margin_loss of an empty batch has an empty gradient (no Python
    division by zero)."""
    assert_as_torch(program)


_FN = ("class Fn(L.autograd.Function):\n    @staticmethod\n    def forward(ctx, a):\n"
       "        {body}\n    @staticmethod\n    def backward(ctx, g):\n        return g\n")


@pytest.mark.parametrize("body", [
    "return a.clone().requires_grad_()", "return a.requires_grad_()",
    "return a.view(3).requires_grad_()", "return L.ones(2, requires_grad=True)", "return a",
    "ctx.mark_dirty(a); return a.mul_(2)", "return a * 2"])
@pytest.mark.parametrize("call", [
    "x = L.ones(3); y = Fn.apply(x)",
    "x = L.ones(3, requires_grad=True)\nwith L.no_grad():\n    y = Fn.apply(x * 1)"])
def test_unrecorded_function_outputs_as_torch(body: str, call: str) -> None:
    """A custom Function called where torch records nothing (no input requires grad, or
    grad mode is off): an input returned is a new alias without grad, another output that
    requires grad is detached in place (a view is left as it is)."""
    assert_as_torch(_FN.format(body=body) + call +
                    "\nR = (y, y is x, y.requires_grad, y.grad_fn is None, y.is_leaf)")


@settings(SETTINGS, max_examples=80)
@given(st.sampled_from(["L.arange(24.).view(2, 3, 4)", "L.arange(24).view(2, 3, 4)",
                        "L.zeros(2, 0, 3)"]),
       st.sampled_from(["L.flip(x, {d})", "x.flip({d})", "L.nanmean(x, {d})",
                        "x.nanmean({d}, dtype=L.int32)", "x.nanmean({d}, dtype=L.float64)",
                        "L.std_mean(x, {d})", "L.var_mean(x, {d})"]),
       st.sampled_from(["2", "(2,)", "[0, 1]", "(0, 'a')", "(1.0,)", "5", "(0, 0)"]))
def test_reduction_argument_checks_in_torch_order(x: str, call: str, dims: str) -> None:
    """torch's parser checks the dims' types first, then the op its dtypes and ranges:
    ``torch.flip`` takes one tuple (the method also single ints), nanmean refuses an
    integer input and an integer ``dtype``."""
    program = f"x = {x}; R = {call.format(d=dims)}"
    if run(torch, program)[0] == "TypeError":  # (its parser's exact wording aside)
        assert run(mt, program)[0] == "TypeError", program
    else:
        assert_as_torch(program)


@pytest.mark.parametrize("program", [
    "x = L.arange(24.).view(2, 3, 4).requires_grad_(); R = x.prod((1.0,), dtype=L.int32)",
    "x = L.arange(24.).view(2, 3, 4).requires_grad_(); R = x.prod(5, dtype=L.int32)",
    "x = L.arange(24.).view(2, 3, 4).requires_grad_(); R = x.prod(1, keepdim=1, "
    "dtype=L.int32)",
    "x = L.arange(24.).view(2, 3, 4); R = x.prod(1, dtype=L.int32)",
    "R = L.nn.functional.kl_div(L.tensor(0.24, requires_grad=True), L.tensor([1, 0]), "
    "reduction='elementwise_mean')",
    "R = L.nn.functional.kl_div(L.tensor([0.24, 1.]), L.tensor([1., 0]), "
    "reduction='elementwise_mean')",
    "R = L.nn.functional.kl_div(L.tensor([0.24, 1.]), L.tensor([1., 0]), size_average=False)",
    "R = L.nn.functional.kl_div(L.tensor([0.24, 1.], requires_grad=True), L.tensor([1., 0]), "
    "reduce=False, reduction='batchmean')",
    "R = L.nn.functional.kl_div(L.tensor([1, 2]), L.tensor([1., 0]), reduction='bad')",
    "x = L.arange(6).view(2, 3); R = x.put_(L.tensor([[0, 1]]), L.tensor([9.]), "
    "accumulate=True)",
    "x = L.arange(6).view(2, 3); R = x.put_(L.tensor([[0., 1]]), L.tensor([9.]))",
    "x = L.arange(6.).view(2, 3); R = x.put_(L.tensor([0]), L.tensor([9, 8]))",
    "x = L.arange(6.).view(2, 3); R = x.put_(L.tensor([0]), L.tensor([9., 8]))",
    "x = L.arange(6.).view(2, 3); R = x.put(L.tensor([7]), L.tensor([9.]))"])
def test_checks_in_torch_order(program: str) -> None:
    """Which refusal comes first, as in torch: prod's dim type before the dtype conversion,
    kl_div's reduction read as torch's (a deprecated 'elementwise_mean' or size_average
    taken; batchmean divides after any) before its integral-input check, put_'s dtypes
    before its counts."""
    assert_as_torch(program)


@settings(SETTINGS, max_examples=60)
@given(st.sampled_from(["L.tensor([0, 4, 5], dtype=L.uint8)", "L.tensor([0, 4, 5])",
                        "L.tensor([True, False, True])", "L.tensor([0., 4., 5.])"]),
       st.sampled_from(["bitwise_and_", "bitwise_or_", "bitwise_xor_", "bitwise_left_shift_",
                        "bitwise_right_shift_"]),
       st.sampled_from(["1.5", "2", "True", "L.tensor([1.5])", "L.tensor([3])",
                        "L.tensor(True)"]))
def test_inplace_bitwise_cast_check_as_torch(x: str, method: str, other: str) -> None:
    """An in-place bitwise op or shift refuses a promoted result its tensor cannot hold
    (torch's cast check) before the kernel's refusal of a float dtype."""
    assert_as_torch(f"x = {x}; y = x.{method}({other}); R = (y is x, x)")


@pytest.mark.parametrize("call", [
    "L.ones(2).new_zeros(3, device={d})", "L.full_like(L.ones(2), 7, device={d})",
    "L.zeros_like(L.ones(2), device={d})", "L.ones_like(L.ones(2), device={d})",
    "L.rand_like(L.ones(2), device={d}).shape", "L.empty_like(L.ones(2), device={d}).shape",
    "L.ones(2).new_tensor([1.], device={d})",
    "L.ones(2).new_empty_strided((2,), (1,), device={d}).shape"])
@pytest.mark.parametrize("device", ["0", "'cpu'", "None"])
def test_like_factories_read_device_zero_as_torch(call: str, device: str) -> None:
    """``device=0`` is a device (the first accelerator), not a missing one: the *_like and
    new_* factories take the tensor's own device only for None."""
    assert_as_torch(f"R = {call.format(d=device)}")


@pytest.mark.parametrize("target", ["L.tensor([True, False, True])", "L.tensor([1, -1, 1])",
                                    "L.tensor([1., -1., 1.])"])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_soft_margin_loss_backward_negates_the_target_as_torch(target: str,
                                                               reduction: str) -> None:
    """soft_margin_loss takes a bool target forward; its backward negates the target as
    given, as torch's, so a bool one meets torch's refusal of negating a bool."""
    assert_as_torch(f"x = L.tensor([[0.69, 1.62, 0.37]], requires_grad=True); y = {target}\n"
                    f"r = L.nn.functional.soft_margin_loss(x, y, reduction='{reduction}')\n"
                    "r.sum().backward(); R = (r, x.grad)")
