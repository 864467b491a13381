"""Chapter 03_custom_function: the ``apply`` seam of minitorch/autograd/function.py, and
nbgrader grading of the chapter (wrong and delegating answers lose points per exercise)."""

from __future__ import annotations

import doctest
import math
from pathlib import Path
from typing import Any

import pytest
from grading import (
    SKIP_LATER_CELLS,
    SWALLOW_AND_AGREE,
    CourseRoot,
    Grades,
    edit_cells,
    passify_tests,
)

import minitorch
from minitorch import course
from minitorch.autograd import Function, function

pytestmark = [
    pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning"),
    pytest.mark.filterwarnings("ignore::nbformat.validator.MissingIDFieldWarning"),
]

CHAPTER = Path(__file__).resolve().parents[2] / "solutions" / "03_custom_function.py"


class Exp(Function):
    """The notes' Exp."""

    @staticmethod
    def forward(ctx: Any, i: Any) -> Any:
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx: Any, grad_output: Any) -> Any:
        (result,) = ctx.saved_tensors
        return grad_output * result


def spy_apply(calls: list) -> Any:
    """A student-style apply that records each call and lets minitorch's reference work."""
    reference = course.reference(function, "apply_custom")

    def student_apply(fn_cls: type, *args: Any) -> Any:
        calls.append(fn_cls)
        return reference(fn_cls, args, {})

    return student_apply


# ------------------------------------------------------------------ the seam


def test_custom_functions_run_through_the_plugged_apply_builtins_do_not() -> None:
    calls: list = []
    x = minitorch.tensor([1.0], requires_grad=True)
    with function.use(spy_apply(calls)):
        y = Exp.apply(x * 2).sum()  # `* 2` and `sum` are built-in ops
        y.backward()
    assert calls == [Exp]
    assert x.grad.item() == pytest.approx(2 * math.exp(2), rel=1e-6)  # d/dx e^(2x) at 1


def test_builtin_ops_work_while_the_reference_is_switched_off() -> None:
    x = minitorch.tensor([1.0, 2.0], requires_grad=True)
    with course.switched_off("function.apply_custom"):
        (x * x).exp().sum().backward()
        with pytest.raises(course.SwitchedOff, match=r"function\.apply_custom"):
            Exp.apply(x)
    assert Exp.apply(x).grad_fn.name() == "ExpBackward"  # back on after the block


def test_a_kept_reference_is_switched_off_too() -> None:
    kept = function.apply_custom
    x = minitorch.tensor([1.0], requires_grad=True)
    with course.switched_off("function.apply_custom"), pytest.raises(course.SwitchedOff):
        kept(Exp, (x,), {})


def test_use_restores_the_reference_on_exit_and_after_an_error() -> None:
    def broken(fn_cls: type, *args: Any) -> Any:
        raise ZeroDivisionError

    with pytest.raises(ZeroDivisionError), function.use(broken):
        Exp.apply(minitorch.ones(1))
    assert function.apply_custom is course.reference(function, "apply_custom")


def test_course_reset_restores_a_plug_left_open() -> None:
    function.use(spy_apply([])).__enter__()  # a student's cell that never left the block
    course.reset()
    assert function.apply_custom is course.reference(function, "apply_custom")


def test_use_refuses_keyword_arguments_and_setup_context() -> None:
    class Scale(Function):
        @staticmethod
        def forward(ctx: Any, x: Any, k: float = 2.0) -> Any:
            return x * k

    class Cube(Function):
        @staticmethod
        def forward(x: Any) -> Any:
            return x**3

        @staticmethod
        def setup_context(ctx: Any, inputs: tuple, output: Any) -> None:
            pass

    x = minitorch.ones(1, requires_grad=True)
    with function.use(spy_apply([])):
        with pytest.raises(NotImplementedError, match=r"Scale.apply got keyword arguments \['k'\]"):
            Scale.apply(x, k=3.0)
        with pytest.raises(NotImplementedError, match="Cube has a setup_context"):
            Cube.apply(x)
        assert Scale.apply(x, 3.0).item() == 3.0


def test_the_forward_trace_ends_at_the_callers_line() -> None:
    x = minitorch.tensor([1.0], requires_grad=True)
    with minitorch.autograd.detect_anomaly():
        y = Exp.apply(x)  # the caller's line
        z = x * 3  # a built-in op's caller
    assert y.grad_fn._anomaly_trace[-1].strip().endswith("y = Exp.apply(x)  # the caller's line")
    assert "z = x * 3" in "".join(z.grad_fn._anomaly_trace[-3:])  # then Tensor.__mul__


def test_function_module_doctests() -> None:
    assert doctest.testmod(function).failed == 0


# ------------------------------------------------------------------ grading

EXERCISES = {
    "functions": ("functions_visible", "functions_hidden"),
    "apply": ("apply_visible", "apply_errors", "apply_hidden", "apply_hidden_errors"),
    "linear": ("linear_visible", "linear_hidden"),
}
HIDDEN = ("functions_hidden", "apply_hidden", "apply_hidden_errors", "linear_hidden")

TANH = '''
class Tanh(Function):
    @staticmethod
    def forward(ctx, x):
        y = x.tanh()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        return {tanh_grad}
'''
LEAKY = '''
class LeakyReLU(Function):
    @staticmethod
    def forward(ctx, x, slope):
        ctx.save_for_backward(x)
        ctx.slope = slope
        return minitorch.where(x > 0, x, x * slope)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return {leaky_grads}
'''
RIGHT_LEAKY = "minitorch.where(x > 0, grad_output, grad_output * ctx.slope), None"

NODE = '''
class FunctionNode(Node):
    def __init__(self, fn_cls):
        super().__init__()
        self.fn_cls = fn_cls
        self.saved_tensors = ()
        self.needs_input_grad = ()
        self.is_tensor = ()

    def name(self):
        return f"{{self.fn_cls.__name__}}Backward"

    def save_for_backward(self, *tensors):
        self.saved_tensors = tensors

    def _apply(self, grad_outputs):
        grads = self.fn_cls.backward(self, *grad_outputs)
        if not isinstance(grads, tuple):
            grads = (grads,)
        {check}
        return tuple(g for g, keep in zip(grads, self.is_tensor) if keep)


def edge_to(t):
    if t.grad_fn is not None:
        return (t.grad_fn, t._output_nr)
    return (t._grad_accumulator(), 0) if t.requires_grad else (None, 0)


def my_apply(fn_cls, *args):
    node = FunctionNode(fn_cls)
    node.is_tensor = tuple({is_tensor} for arg in args)
    node.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
    record = minitorch.is_grad_enabled() and any(node.needs_input_grad)
    with minitorch.no_grad():
        output = fn_cls.forward(node, *args)
    if record:
        node.next_functions = tuple({edge} for arg in args if {is_tensor})
        output._set_grad_fn(node, 0)
    return output
'''
COUNT_CHECK = '''n = len(self.is_tensor)
        if len(grads) < n or any(g is not None for g in grads[n:]):
            raise RuntimeError(f"function {self.name()} returned an incorrect number of "
                               f"gradients (expected {n}, got {len(grads)})")'''
TENSOR = "isinstance(arg, Tensor)"
EDGE = "edge_to(arg) if isinstance(arg, Tensor) else (None, 0)"

LINEAR = '''
class LinearFunction(Function):
    @staticmethod
    def forward(ctx, x, weight, bias):
        ctx.save_for_backward(x, weight)
        out = x @ weight.T
        return out if bias is None else out + bias

    @staticmethod
    def backward(ctx, grad_output):
        x, weight = ctx.saved_tensors
        grad_bias = None
        if ctx.needs_input_grad[2]:
            grad_bias = {grad_bias}
        return grad_output @ weight, {grad_weight}, grad_bias
'''


def functions_cell(tanh_grad: str, leaky_grads: str = RIGHT_LEAKY) -> str:
    return TANH.format(tanh_grad=tanh_grad) + LEAKY.format(leaky_grads=leaky_grads)


def apply_cell(check: str = COUNT_CHECK, is_tensor: str = TENSOR,
               edge: str = "edge_to(arg)") -> str:
    return NODE.format(check=check, is_tensor=is_tensor, edge=edge)


def linear_cell(grad_bias: str = "grad_output.sum(0)",
                grad_weight: str = "grad_output.T @ x") -> str:
    return LINEAR.format(grad_bias=grad_bias, grad_weight=grad_weight)


DELEGATING_FUNCTIONS = '''
def _autograd(fn, x, grad_output):
    with minitorch.enable_grad():
        x = x.detach().requires_grad_()
        return minitorch.autograd.grad(fn(x), x, grad_output)[0]


class Tanh(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.tanh()

    @staticmethod
    def backward(ctx, grad_output):
        return _autograd(minitorch.tanh, ctx.saved_tensors[0], grad_output)


class LeakyReLU(Function):
    @staticmethod
    def forward(ctx, x, slope):
        ctx.save_for_backward(x)
        ctx.slope = slope
        return minitorch.where(x > 0, x, x * slope)

    @staticmethod
    def backward(ctx, grad_output):
        def leaky(x):
            return minitorch.where(x > 0, x, x * ctx.slope)
        return _autograd(leaky, ctx.saved_tensors[0], grad_output), None
'''
DELEGATING_LINEAR = '''
class LinearFunction(Function):
    @staticmethod
    def forward(ctx, x, weight, bias):
        ctx.save_for_backward(x, weight, bias)
        out = x @ weight.T
        return out if bias is None else out + bias

    @staticmethod
    def backward(ctx, grad_output):
        inputs = [t.detach().requires_grad_() for t in ctx.saved_tensors if t is not None]
        with minitorch.enable_grad():
            x, weight, *bias = inputs
            out = x @ weight.T + (bias[0] if bias else 0)
            grads = minitorch.autograd.grad(out, inputs, grad_output)
        return (*grads, None) if len(grads) == 2 else grads
'''
DELEGATING_APPLY = apply_cell() + '''
_kept = minitorch.autograd.function.apply_custom


def my_apply(fn_cls, *args):
    return _kept(fn_cls, args, {})
'''


SUBMISSIONS = {
    # A: a sign error, edges recorded for the non-tensor arguments, bias gradient not summed
    "wrong_a": {
        "functions": functions_cell("grad_output * (y * y - 1)"),
        "apply": apply_cell(is_tensor="True", edge=EDGE),
        "linear": linear_cell(grad_bias="grad_output"),
    },
    # B: grad_output forgotten / no None for slope, no count check, weight gradient transposed
    "wrong_b": {
        "functions": functions_cell("1 - y * y",
                                    "minitorch.where(x > 0, grad_output, grad_output * ctx.slope)"),
        "apply": apply_cell(check="pass"),
        "linear": linear_cell(grad_weight="x.T @ grad_output"),
    },
    # C: slope on the wrong side, edges in reverse order and forward recorded, a gradient
    #    for a None bias
    "wrong_c": {
        "functions": functions_cell(
            "grad_output * (1 - y * y)",
            "minitorch.where(x > 0, grad_output * ctx.slope, grad_output), None"),
        "apply": apply_cell().replace(
            "tuple(edge_to(arg) for arg in args if isinstance(arg, Tensor))",
            "tuple(edge_to(arg) for arg in reversed(args) if isinstance(arg, Tensor))",
        ).replace("with minitorch.no_grad():", "if True:"),
        "linear": linear_cell().replace("if ctx.needs_input_grad[2]:", "if True:"),
    },
    # delegates to minitorch: autograd inside backward, a kept reference to apply
    "delegating": {
        "functions": DELEGATING_FUNCTIONS,
        "apply": DELEGATING_APPLY,
        "linear": DELEGATING_LINEAR,
    },
}


# Cheats that solve nothing (course/README.md, "What autograding defends against"): the hidden
# observations, compared outside the kernel, take every point, whatever the asserts did.
SWALLOW_AGREE_AND_PASS_GRADCHECK = SWALLOW_AND_AGREE + """
minitorch.autograd.gradcheck = lambda *args, **kwargs: True
"""
# wrong in every test cell: a sign error, no count check and edges for non-tensor arguments,
# a weight gradient transposed (an unsummed bias gradient alone passes through apply, which
# sums a broadcast gradient down to the input's shape, as torch does)
WRONG_EVERYWHERE = {
    "functions": SUBMISSIONS["wrong_a"]["functions"],
    "apply": apply_cell(check="pass", is_tensor="True", edge=EDGE),
    "linear": linear_cell(grad_bias="grad_output", grad_weight="x.T @ grad_output"),
}
CHEATS = {
    "skip_later_cells": {"functions": SKIP_LATER_CELLS},
    "swallow_and_agree": {
        **WRONG_EVERYWHERE,
        "functions": SWALLOW_AGREE_AND_PASS_GRADCHECK + WRONG_EVERYWHERE["functions"],
    },
}


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Grades]:
    root = CourseRoot(tmp_path_factory.mktemp("course"), CHAPTER)
    release = root.release()
    # wrong_a's test cells are also reduced to `pass`: autograde must restore them.
    return {
        name: root.grade(name, (passify_tests if name == "wrong_a" else lambda nb: nb)(
            edit_cells(release, cells)))
        for name, cells in (SUBMISSIONS | CHEATS).items()
    }


@pytest.mark.parametrize(("name", "exercise"), [
    (name, exercise) for name, cells in SUBMISSIONS.items() for exercise in cells
])
def test_wrong_answers_lose_points_on_their_exercise(
    graded: dict[str, Grades], name: str, exercise: str
) -> None:
    grades = graded[name]
    lost = [cell for cell in EXERCISES[exercise] if grades.by_grade_id[cell] == 0]
    assert lost, f"{name} keeps every point of {exercise}: {grades.by_grade_id}"


def test_a_delegating_student_earns_nothing_in_hidden_tests(graded: dict[str, Grades]) -> None:
    scores = graded["delegating"].by_grade_id
    assert {cell: scores[cell] for cell in HIDDEN} == dict.fromkeys(HIDDEN, 0)


def test_wrong_answers_are_code_that_runs(graded: dict[str, Grades]) -> None:
    for name in SUBMISSIONS:
        errors = graded[name].errors()
        assert not any(e in errors for e in ("SyntaxError", "NameError")), name
    # wrong_c's count check is right, and its test keeps its point
    assert graded["wrong_c"].by_grade_id["apply_errors"] > 0, graded["wrong_c"].errors()


@pytest.mark.parametrize("cheat", sorted(CHEATS))
def test_a_cheat_earns_nothing(graded: dict[str, Grades], cheat: str) -> None:
    grades = graded[cheat]
    assert grades.total == 0, grades.by_grade_id
    # the grader, outside the kernel, found the solution's observations in no test cell
    errors = grades.errors().splitlines()
    cells = [cell for cells in EXERCISES.values() for cell in cells]
    assert all(any(e.startswith(f"[{cell}] HiddenCheckFailed: ") for e in errors)
               for cell in cells), errors
