"""Chapter 06_gradcheck: the numerical-Jacobian seam (``gradcheck.use``) and the chapter's grading.

The seam tests run minitorch directly. The grading tests autograde a few submissions of the
chapter, each carrying one plausible wrong answer for every exercise at once, one student
who delegates to minitorch, and two who cheat (later cells rewritten into ``pass``; failures
swallowed and checks monkeypatched), and check which test cells lose their points.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import numpy as np
import pytest
import torch
from grading import (
    SKIP_LATER_CELLS,
    SWALLOW_AND_AGREE,
    CourseRoot,
    Grades,
    edit_cells,
    grade_cells,
)

import minitorch
from minitorch import course
from minitorch.autograd import Function
from tools.build_course import read_source

pytestmark = [
    pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning"),
    pytest.mark.filterwarnings("ignore::nbformat.validator.MissingIDFieldWarning"),
]

CHAPTER = Path(__file__).resolve().parents[2] / "solutions" / "06_gradcheck.py"
gradcheck_py = importlib.import_module("minitorch.autograd.gradcheck")


def central(f, x, eps):
    """A correct numerical Jacobian in the chapter's signature (rows: input elements)."""
    flat = x.detach().numpy().reshape(-1)
    rows = []
    for r in range(flat.size):
        step = np.eye(flat.size)[r] * eps
        hi = f(minitorch.tensor((flat + step).reshape(tuple(x.shape)), dtype=x.dtype))
        lo = f(minitorch.tensor((flat - step).reshape(tuple(x.shape)), dtype=x.dtype))
        rows.append((hi.detach().numpy() - lo.detach().numpy()).reshape(-1) / (2 * eps))
    return np.array(rows).reshape(flat.size, -1)


class HalfGradient(Function):
    """x * y whose backward forgets half of the gradient for y."""

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        return grad * y, grad * x * 0.5


def leaf(*values: float) -> minitorch.Tensor:
    return minitorch.tensor(list(values), dtype=minitorch.float64, requires_grad=True)


# ----------------------------------------------------------------------------- the seam
def test_gradcheck_takes_every_pair_from_the_plugged_jacobian() -> None:
    calls = []

    def spy(f, x, eps):
        calls.append((tuple(x.shape), tuple(f(x).shape), eps, x.requires_grad))
        return central(f, x, eps)

    scale = minitorch.tensor([2.0, 3.0], dtype=minitorch.float64)  # passed through, unchecked
    x, y = leaf(0.5, -1.0), leaf(1.5, 2.0, 0.25)
    with gradcheck_py.use(spy):
        assert minitorch.autograd.gradcheck(
            lambda s, x, y: (x * s, y.exp(), x.sum() * y), (scale, x, y), eps=1e-5)
    # per input (x, y), one call per output; the student gets a private copy of the input
    outputs = [(2,), (3,), (3,)]
    assert calls == [(shape, out, 1e-5, False) for shape in [(2,), (3,)] for out in outputs]
    assert gradcheck_py.numerical_jacobian is course.reference(gradcheck_py, "numerical_jacobian")
    assert x.grad is None and x.tolist() == [0.5, -1.0]


def test_a_wrong_backward_gives_the_reference_message_through_the_plug() -> None:
    x, y = leaf(0.5, -1.0), leaf(1.5, 2.0)

    def message() -> str:
        with pytest.raises(gradcheck_py.GradcheckError) as error:
            minitorch.autograd.gradcheck(HalfGradient.apply, (x, y))
        return str(error.value)

    with gradcheck_py.use(central):
        plugged = message()
    assert plugged == message()
    assert plugged.startswith("Jacobian mismatch for output 0 with respect to input 1,\n")


def test_gradgradcheck_and_float32_go_through_it_too() -> None:
    x = leaf(0.3, -1.2, 2.0)
    with gradcheck_py.use(central):
        assert minitorch.autograd.gradgradcheck(lambda t: t.sigmoid() * t, (x,))
        x32 = minitorch.tensor([-0.4646, -0.4403, 1.2525, -0.5953], requires_grad=True)
        with pytest.warns(UserWarning, match="not a double precision"):
            verdicts = [minitorch.autograd.gradcheck(minitorch.sigmoid, (x32,), eps=eps,
                                                     raise_exception=False)
                        for eps in (1e-3, 1e-4)]
    assert verdicts == [True, False]  # the notes' float32 lesson, with the plugged Jacobian


@pytest.mark.parametrize(("result", "message"), [
    (lambda f, x, eps: np.zeros((2, 3)), r"has shape \(2, 3\) \(is it transposed\?\), but "
                                         r"gradcheck needs \(3, 2\)"),
    (lambda f, x, eps: None, r"has shape \(\), but gradcheck needs \(3, 2\): one row per input"),
])
def test_refuses_a_jacobian_of_the_wrong_shape(result, message: str) -> None:
    W = minitorch.tensor(np.arange(6.0).reshape(2, 3), dtype=minitorch.float64)
    with gradcheck_py.use(result), pytest.raises(ValueError, match=message):
        minitorch.autograd.gradcheck(lambda t: W @ t, (leaf(1.0, 2.0, 3.0),))


def test_restored_after_an_error_and_by_reset() -> None:
    reference = course.reference(gradcheck_py, "numerical_jacobian")
    with pytest.raises(ZeroDivisionError), gradcheck_py.use(lambda f, x, eps: 1 / 0):
        minitorch.autograd.gradcheck(lambda t: t * t, (leaf(1.0),))
    assert gradcheck_py.numerical_jacobian is reference
    gradcheck_py.use(central).__enter__()  # a student's cell that never left the block
    course.reset()
    assert gradcheck_py.numerical_jacobian is reference


@pytest.mark.parametrize("seam", ["gradcheck.numerical_jacobian", "gradcheck.allclose"])
def test_switched_off_stops_minitorch_gradcheck_even_through_a_kept_reference(seam: str) -> None:
    kept = gradcheck_py.numerical_jacobian
    x = leaf(0.5, 2.0)
    with course.switched_off(seam), pytest.raises(course.SwitchedOff, match=seam):
        minitorch.autograd.gradcheck(lambda t: t.exp(), (x,))
    with course.switched_off("gradcheck.numerical_jacobian"), pytest.raises(course.SwitchedOff):
        kept(lambda t: t.exp(), (x,), 0, 1e-6)
    assert minitorch.autograd.gradcheck(lambda t: t.exp(), (x,))  # back on after the block


def test_fast_mode_is_stopped_by_the_pass_rule_and_does_not_call_the_jacobian() -> None:
    x = leaf(0.5, 2.0, -1.0)
    with gradcheck_py.use(lambda f, x, eps: 1 / 0):  # never called in fast mode
        assert minitorch.autograd.gradcheck(lambda t: t.exp(), (x,), fast_mode=True)
    with course.switched_off("gradcheck.allclose"), pytest.raises(course.SwitchedOff):
        minitorch.autograd.gradcheck(lambda t: t.exp(), (x,), fast_mode=True)


def test_the_plugged_jacobian_works_while_the_reference_is_off() -> None:
    x = leaf(0.5, 2.0)
    with course.switched_off("gradcheck.numerical_jacobian"), gradcheck_py.use(central):
        assert minitorch.autograd.gradcheck(lambda t: t.exp() * t, (x,))


def test_reference_pieces() -> None:
    x = minitorch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=minitorch.float64)
    J, total = gradcheck_py.numerical_jacobian(lambda t: (t * t, (t * t).sum()), (x,), 0, 1e-6)
    assert J.shape == (4, 4) and total.shape == (4, 1)
    assert np.allclose(J, np.diag([2.0, 4.0, 6.0, 8.0]), atol=1e-8)
    assert np.allclose(total[:, 0], [2.0, 4.0, 6.0, 8.0], atol=1e-8)
    rule = gradcheck_py.allclose
    assert rule(np.array([3.0]), np.array([9.0]), rtol=1.0, atol=0.0)  # relative to numerical
    assert not rule(np.array([9.0]), np.array([3.0]), rtol=1.0, atol=0.0)
    assert rule(np.array([0.0]), np.array([1e-6]), rtol=1e-3, atol=1e-5)
    assert not rule(np.array([np.nan]), np.array([np.nan]), rtol=1.0, atol=1.0)
    assert {"gradcheck.numerical_jacobian", "gradcheck.allclose"} <= set(course.seams())


# ----------------------------------------------------------------------------- grading
NUMERICAL = ("numerical_jacobian_visible", "numerical_jacobian_hidden")
GRADCHECK = ("my_gradcheck_visible", "my_gradcheck_hidden")
FAST = ("fast_gradcheck_visible", "fast_gradcheck_hidden")
BN = ("dummy_bn_forward_visible", "dummy_bn_forward_hidden")
EXERCISES = (NUMERICAL, GRADCHECK, FAST, BN)
POINTS = {"numerical_jacobian_visible": 1, "numerical_jacobian_hidden": 2,
          "my_gradcheck_visible": 1, "my_gradcheck_hidden": 2,
          "fast_gradcheck_visible": 1, "fast_gradcheck_hidden": 1,
          "dummy_bn_forward_visible": 1, "dummy_bn_forward_hidden": 1, **(NEW := {
              "eps_predictions_visible": 1, "eps_predictions_hidden": 1,  # untouched by WRONG
              "my_hessian_visible": 1, "my_hessian_hidden": 2,
              "functional_predictions_visible": 1, "functional_predictions_hidden": 1})}

JACOBIAN = '''
def numerical_jacobian(f, x, eps=1e-6):
    flat = x.detach().numpy().reshape(-1)

    def f_at(values):
        return f(minitorch.tensor(values.reshape(tuple(x.shape)), dtype=x.dtype)).detach().numpy()

    rows = []
    for r in range(flat.size):
        step = np.zeros_like(flat)
        step[r] = eps
        rows.append(DIFFERENCE)
    return np.array(rows).reshape(flat.size, -1)RESULT
'''
CENTRAL = "(f_at(flat + step) - f_at(flat - step)).reshape(-1) / (2 * eps)"


def jacobian(difference: str = CENTRAL, result: str = "") -> str:
    return JACOBIAN.replace("DIFFERENCE", difference).replace("RESULT", result)


GRADCHECK_TEMPLATE = '''
def my_gradcheck(func, inputs, numerical_jacobian, *, eps=1e-6, atol=1e-5, rtol=1e-3):
    checked = [j for j, x in enumerate(inputs)
               if isinstance(x, minitorch.Tensor) and x.requires_grad]
    outputs = func(*inputs)
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    for i, output in enumerate(outputs):
        for number, j in enumerate(checked):
            a = jacobian(lambda t: moving(func, inputs, j, i)(t), inputs[j])
            a = np.asarray(a.detach().numpy()).reshape(output.numel(), -1)TRANSPOSE
            n = numerical_jacobian(moving(func, inputs, j, i), inputs[j], eps)
            if not np.all(np.abs(a - n) <= RULE):
                raise GradcheckError(
                    f"Jacobian mismatch for output {i} with respect to input {number},\\n"
                    f"numerical:{minitorch.tensor(n)}\\nanalytical:{minitorch.tensor(a)}\\n")
    return True


def moving(func, inputs, j, i):
    def f(t):
        args = list(inputs)
        args[j] = t
        out = func(*args)
        return out[i] if isinstance(out, tuple) else out
    return f
'''


def my_gradcheck(rule: str, transpose: str = ".T") -> str:
    return GRADCHECK_TEMPLATE.replace("RULE", rule).replace("TRANSPOSE", transpose)


FAST_TEMPLATE = '''
def fast_gradcheck(func, x, u, v, *, eps=1e-6, atol=1e-5, rtol=1e-3):
    u = np.asarray(u, dtype=float).reshape(-1)
    v = np.asarray(v, dtype=float).reshape(-1)
    values = x.detach().numpy()

    def f_at(moved):
        return func(minitorch.tensor(moved, dtype=x.dtype)).detach().numpy().reshape(-1)

    step = eps * u.reshape(tuple(x.shape))
    numerical = float(v @ NUMERICAL)
    output = func(x)
    vj, = minitorch.autograd.grad(output, (x,), minitorch.tensor(v.reshape(tuple(output.shape))))
    analytical = float(vj.detach().numpy().reshape(-1) @ u)
    return bool(abs(analytical - numerical) <= ATOL + rtol * abs(numerical)), numerical, analytical
'''
FAST_CENTRAL = "(f_at(values + step) - f_at(values - step)) / (2 * eps)"
SCALED = "atol * u.sum() * v.sum()"


def fast(numerical: str = FAST_CENTRAL, atol: str = SCALED) -> str:
    return FAST_TEMPLATE.replace("NUMERICAL", numerical).replace("ATOL", atol)


FULL_JACOBIAN_FAST = '''
def fast_gradcheck(func, x, u, v, *, eps=1e-6, atol=1e-5, rtol=1e-3):
    u = np.asarray(u, dtype=float).reshape(-1)
    v = np.asarray(v, dtype=float).reshape(-1)
    flat = x.detach().numpy().reshape(-1)
    J = np.zeros((flat.size, v.size))
    for r in range(flat.size):
        step = np.eye(flat.size)[r] * eps
        hi = func(minitorch.tensor((flat + step).reshape(tuple(x.shape)))).detach().numpy()
        lo = func(minitorch.tensor((flat - step).reshape(tuple(x.shape)))).detach().numpy()
        J[r] = (hi - lo).reshape(-1) / (2 * eps)
    output = func(x)
    vj, = minitorch.autograd.grad(output, (x,), minitorch.tensor(v.reshape(tuple(output.shape))))
    numerical, analytical = float(u @ J @ v), float(vj.detach().numpy().reshape(-1) @ u)
    passed = abs(analytical - numerical) <= atol * u.sum() * v.sum() + rtol * abs(numerical)
    return bool(passed), numerical, analytical
'''

BN_TEMPLATE = '''
def dummy_bn_forward(x, bn_weight, bn_bias, eps, mean_val=None, var_val=None):
    if mean_val is None:
        mean_val = x.mean([0, 2, 3])STATS
    if var_val is None:
        var_val = x.var([0, 2, 3]VARIANCE)STATS
    x = x - mean_val[None, ..., None, None]
    x = x / SCALE
    return mean_val, var_val, x * bn_weight[..., None, None] + bn_bias[..., None, None]
'''
SQRT = "minitorch.sqrt(var_val[None, ..., None, None] + eps)"


def bn(variance: str = ", unbiased=False", stats: str = "", scale: str = SQRT) -> str:
    return (BN_TEMPLATE.replace("VARIANCE", variance).replace("STATS", stats)
            .replace("SCALE", scale))


WRONG = {
    # forward differences; rtol * |analytical|; fast mode by forward difference; unbiased var
    "forward_difference_and_relative_to_analytical": {
        "numerical_jacobian": jacobian(
            "(f_at(flat + step) - f_at(flat)).reshape(-1) / eps"),
        "my_gradcheck": my_gradcheck("atol + rtol * np.abs(a)"),
        "fast_gradcheck": fast("(f_at(values + step) - f_at(values)) / eps"),
        "dummy_bn_forward": bn(variance=""),
    },
    # eps not divided by 2; no atol; fast mode's atol not scaled; batch statistics detached
    "step_not_halved_and_no_atol": {
        "numerical_jacobian": jacobian("(f_at(flat + step) - f_at(flat - step)).reshape(-1) / eps"),
        "my_gradcheck": my_gradcheck("rtol * np.abs(n)"),
        "fast_gradcheck": fast(atol="atol"),
        "dummy_bn_forward": bn(stats=".detach()"),
    },
    # transposed Jacobians (numerical, then analytical); a full Jacobian in fast mode; eps
    # added outside the square root
    "transposed": {
        "numerical_jacobian": jacobian(result=".T"),
        "my_gradcheck": my_gradcheck("atol + rtol * np.abs(n)", transpose=""),
        "fast_gradcheck": FULL_JACOBIAN_FAST,
        "dummy_bn_forward": bn(scale="(minitorch.sqrt(var_val[None, ..., None, None]) + eps)"),
    },
}

# The cells each wrong submission must fail, and errors that prove why.
LOST = {
    "forward_difference_and_relative_to_analytical": (
        set(POINTS) - {"my_gradcheck_visible"},  # a message test: the rule is the hidden one's
        ["[[3.31]]", "the variance is the unbiased one"]),
    "step_not_halved_and_no_atol": (
        {"numerical_jacobian_visible", "numerical_jacobian_hidden", "my_gradcheck_hidden",
         "fast_gradcheck_hidden", "dummy_bn_forward_hidden", *NEW},
        ["[[6.02]]", "off by 1.5e-05"]),
    "transposed": (
        set(POINTS),  # a full Jacobian's projection differs from one step along u at O(eps²)
        ["the shape of the Jacobian of W @ t, 3 inputs and 2 outputs",
         "operands could not be broadcast together with shapes (3,2) (2,3)",
         "81 evaluations"]),
}

DELEGATING = {
    "numerical_jacobian": '''
def numerical_jacobian(f, x, eps=1e-6, kept=gradcheck_py.numerical_jacobian):
    return kept(f, (x,), 0, eps)[0]  # a reference kept before the tests switch it off
''',
    "my_gradcheck": '''
def my_gradcheck(func, inputs, numerical_jacobian, *, eps=1e-6, atol=1e-5, rtol=1e-3):
    with gradcheck_py.use(numerical_jacobian):
        return minitorch.autograd.gradcheck(func, inputs, eps=eps, atol=atol, rtol=rtol)
''',
    "fast_gradcheck": fast().replace(  # minitorch's own fast mode for the verdict
        "return bool(abs(analytical - numerical) <= atol * u.sum() * v.sum() + rtol * "
        "abs(numerical))",
        "return minitorch.autograd.gradcheck(func, (x,), fast_mode=True, raise_exception=False)"),
    "dummy_bn_forward": '''
def dummy_bn_forward(x, bn_weight, bn_bias, eps, mean_val=None, var_val=None):
    if mean_val is None:
        mean_val = x.mean([0, 2, 3])
    if var_val is None:
        var_val = x.var([0, 2, 3], unbiased=False)
    y = minitorch.nn.functional.batch_norm(x, mean_val, var_val, bn_weight, bn_bias,
                                           training=False, eps=eps)
    return mean_val, var_val, y
''',
}


@pytest.fixture(scope="module")
def chapter(tmp_path_factory: pytest.TempPathFactory) -> CourseRoot:
    return CourseRoot(tmp_path_factory.mktemp("ch06"), CHAPTER)


def earned(grades: Grades, cells: tuple[str, ...]) -> float:
    return sum(grades.by_grade_id[cell] or 0 for cell in cells)


def test_points_are_split_as_documented(chapter: CourseRoot) -> None:
    graded = grade_cells(chapter.solution(), tests=True)
    assert {c.metadata.nbgrader.grade_id: c.metadata.nbgrader.points for c in graded} == POINTS


@pytest.mark.parametrize("wrong", sorted(WRONG))
def test_each_wrong_answer_loses_points_on_its_exercise(chapter: CourseRoot, wrong: str) -> None:
    grades = chapter.grade(wrong, edit_cells(chapter.release(), WRONG[wrong]))
    for cells in EXERCISES:
        assert earned(grades, cells) < sum(POINTS[c] for c in cells), (wrong, grades.by_grade_id)
    lost, reasons = LOST[wrong]
    assert {cell for cell, score in grades.by_grade_id.items() if not score} == lost, \
        grades.errors()
    errors = grades.errors()
    assert all(reason in errors for reason in reasons), errors


def test_delegating_student_earns_no_hidden_points(chapter: CourseRoot) -> None:
    grades = chapter.grade("delegating", edit_cells(chapter.release(), DELEGATING))
    # the grading copy of minitorch holds neither piece: the visible checks earn nothing
    # either (they pass in the student's JupyterLab), the hidden ones nothing
    cells = ("numerical_jacobian_visible", "my_gradcheck_visible", "fast_gradcheck_visible",
             "numerical_jacobian_hidden", "my_gradcheck_hidden", "fast_gradcheck_hidden",
             "dummy_bn_forward_visible", "dummy_bn_forward_hidden")
    assert {cell: grades.by_grade_id[cell] for cell in cells} == dict.fromkeys(cells, 0), (
        grades.errors())
    errors = grades.errors()
    assert "gradcheck.numerical_jacobian is not in the grading copy" in errors
    # minitorch's batch_norm refuses running statistics that require grad, with torch's words
    assert "The function 'native_batch_norm' is not differentiable" in errors


CHEATS = {
    # solves nothing; every later cell, the test cells included, becomes `pass`
    "input-transformer": {"numerical_jacobian": SKIP_LATER_CELLS},
    # wrong answers, failures swallowed, the checks the tests call made to agree
    "swallowed-and-patched": {
        "numerical_jacobian": SWALLOW_AND_AGREE
        + WRONG["forward_difference_and_relative_to_analytical"]["numerical_jacobian"],
        "my_gradcheck": WRONG["transposed"]["my_gradcheck"],
        "fast_gradcheck": WRONG["forward_difference_and_relative_to_analytical"]["fast_gradcheck"],
        "dummy_bn_forward": WRONG["forward_difference_and_relative_to_analytical"][
            "dummy_bn_forward"],
    },
}

# The test cells each cheat passes inside the kernel. (set_custom_exc hides tracebacks, but
# the kernel still reports the error, so only the patched checks get through.)
TALKED_ROUND = {
    "input-transformer": set(POINTS),
    # minitorch.checks keeps its own comparison, so the visible checks its wrong answers fail
    # still raise (a transposed analytical Jacobian is right for the visible, diagonal,
    # cases); hidden blocks compare nothing inside the kernel (expect): caught outside only
    "swallowed-and-patched": {"fast_gradcheck_visible", "my_gradcheck_visible",
                              "fast_gradcheck_hidden", "my_gradcheck_hidden",
                              "dummy_bn_forward_hidden"},
}


@pytest.mark.parametrize("name", sorted(CHEATS))
def test_a_cheat_earns_nothing(chapter: CourseRoot, name: str) -> None:
    grades = chapter.grade(f"cheat-{name}", edit_cells(chapter.release(), CHEATS[name]))
    assert grades.total == 0, grades.by_grade_id
    failures = {cell.metadata.nbgrader.grade_id: [out.ename for out in cell.outputs
                                                  if out.output_type == "error"]
                for cell in grade_cells(grades.notebook, tests=True)}
    assert all("HiddenCheckFailed" in names for names in failures.values()), failures
    # Cells that raised nothing in the kernel: plain nbgrader would have given their points.
    talked_round = {cell for cell, names in failures.items() if names == ["HiddenCheckFailed"]}
    assert talked_round == TALKED_ROUND[name], failures



# ----------------------------------------------- exercises 5 and 6: eps verdicts, my_hessian


def solution_literal(grade_id: str | None, name: str) -> object:
    """The literal assigned to ``name`` in the cell ``grade_id`` (any code cell, for None)."""
    for cell in read_source(CHAPTER).cells:
        cell_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if cell.cell_type == "code" and (cell_id == grade_id or grade_id is None):
            for statement in ast.parse(cell.source).body:
                if isinstance(statement, ast.Assign) and \
                        ast.unparse(statement.targets[0]) == name:
                    return ast.literal_eval(statement.value)
    raise KeyError(name)


EPS_VERDICTS = solution_literal("eps_predictions", "eps_predictions")  # the grader's expectation


@pytest.mark.filterwarnings("ignore::UserWarning")  # gradcheck's float32 warning
@pytest.mark.parametrize("L", [torch, minitorch], ids=["torch", "minitorch"])
@pytest.mark.parametrize("case", list(EPS_VERDICTS), ids=str)
def test_eps_verdicts_are_what_gradcheck_says(L: object, case: tuple[str, float]) -> None:
    assert list(EPS_VERDICTS) == solution_literal(None, "CASES")
    dtype, eps = case
    x = L.tensor([-0.4646, -0.4403, 1.2525, -0.5953], dtype=getattr(L, dtype), requires_grad=True)
    slow = {"fast_mode": False} if L is torch else {}
    assert L.autograd.gradcheck(L.sigmoid, (x,), eps=eps, raise_exception=False, **slow) is \
        EPS_VERDICTS[case]


def chapter_names(L: object, grade_id: str | None, defines: str) -> dict:
    """The names the chapter's cell ``grade_id`` (for None: the unnamed cell that assigns
    ``defines``) leaves behind, run with library L as ``minitorch``."""
    (cell,) = [c for c in read_source(CHAPTER).cells if c.cell_type == "code"
               and c.metadata.get("nbgrader", {}).get("grade_id") == grade_id
               and (grade_id or f"{defines} = " in c.source)]
    namespace: dict = {"minitorch": L, "Function": L.autograd.Function}
    exec(cell.source, namespace)  # the chapter's own code
    return namespace


FUNCTIONAL = chapter_names(minitorch, "functional_predictions",
                           "functional_predictions")["functional_predictions"]


@pytest.mark.parametrize("L", [torch, minitorch], ids=["torch", "minitorch"])
@pytest.mark.parametrize("key", sorted(FUNCTIONAL))
def test_functional_rows_are_what_the_libraries_give(L: object, key: str) -> None:
    names = chapter_names(L, None, "FUNCTIONAL_ROWS")
    assert sorted(names["FUNCTIONAL_ROWS"]) == sorted(FUNCTIONAL)
    got = names["run_functional_row"](key)
    assert type(got) is type(FUNCTIONAL[key]) and got == FUNCTIONAL[key], (key, got)


HESSIAN_BY_FUNCTIONAL = """
def my_hessian(f, x):
    return minitorch.autograd.functional.hessian(f, x.detach())
"""
HESSIAN_WITHOUT_CREATE_GRAPH = """
def my_hessian(f, x):
    x = x.detach().requires_grad_()
    (g,) = minitorch.autograd.grad(f(x), x)
    rows = [minitorch.autograd.grad(g[i], x, retain_graph=True)[0] for i in range(x.numel())]
    return minitorch.stack(rows).detach()
"""
HESSIAN_ATTACHED = """
def my_hessian(f, x):
    x = x.detach().requires_grad_()
    (g,) = minitorch.autograd.grad(f(x), x, create_graph=True)
    return minitorch.stack([minitorch.autograd.grad(g[i], x, retain_graph=True,
                                                    create_graph=True)[0]
                            for i in range(x.numel())])
"""


def eps_cell(**changes: bool) -> str:
    """The eps predictions with the right verdicts, except for the cases named f32_<eps> or
    f64_<eps> in ``changes`` (eps as written in CASES, '.' and '-' as '_')."""
    answers = dict(EPS_VERDICTS)
    for case in answers:
        key = f"f{case[0][-2:]}_{case[1]!r}".replace(".", "_").replace("-", "_")
        answers[case] = changes.get(key, answers[case])
    return f"eps_predictions = {answers!r}\n"


@pytest.mark.parametrize(
    ("answers", "zeroed"),
    [
        # a case the visible cell does not observe; hessian delegated to autograd.functional
        ({"eps_predictions": eps_cell(f64_1e_14=True), "my_hessian": HESSIAN_BY_FUNCTIONAL},
         {"eps_predictions_hidden", "my_hessian_hidden"}),
        # float32 at 1e-2 predicted to fail; the gradient not differentiable again
        ({"eps_predictions": eps_cell(f32_0_01=False), "my_hessian": HESSIAN_WITHOUT_CREATE_GRAPH},
         {"eps_predictions_visible", "eps_predictions_hidden", "my_hessian_visible",
          "my_hessian_hidden"}),
        # a Hessian that still requires grad
        ({"my_hessian": HESSIAN_ATTACHED}, {"my_hessian_visible"}),
    ],
    ids=["hidden_case_and_functional", "visible_case_and_no_create_graph", "attached"],
)
def test_new_exercises_lose_points_for_wrong_answers(
    chapter: CourseRoot, answers: dict[str, str], zeroed: set[str]
) -> None:
    name = "new-" + "-".join(sorted(zeroed))
    grades = chapter.grade(name, edit_cells(chapter.solution(), answers))
    lost = {cell for cell, score in grades.by_grade_id.items() if not score}
    assert lost == zeroed, grades.errors()
