"""Chapter 02_manual_backward: the engine seam (``engine.use``) and the chapter's grading.

The seam tests run minitorch directly. The grading tests autograde a few submissions of the
chapter, each carrying one plausible wrong answer for every exercise at once, and check that
every exercise loses points; and two cheats that talk the kernel round (skipped cells, swallowed
errors, checks that always agree), which the hidden observations leave with nothing.
"""

from __future__ import annotations

import ast
import doctest
import math
from pathlib import Path

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
from minitorch.autograd import engine
from tools.build_course import read_source

pytestmark = [
    pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning"),
    pytest.mark.filterwarnings("ignore::nbformat.validator.MissingIDFieldWarning"),
]

CHAPTER = Path(__file__).resolve().parents[2] / "solutions" / "02_manual_backward.py"


def simple_engine(root, grad):
    """A correct engine in the chapter's signature (counts, then runs each node once)."""
    consumers = {root: 0}
    stack = [root]
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is not None:
                if child not in consumers:
                    stack.append(child)
                consumers[child] = consumers.get(child, 0) + 1
    waiting, ready, ran = {root: grad}, [root], []
    while ready:
        node = ready.pop()
        outs = node(waiting.pop(node, None))
        ran.append(node)
        outs = outs if isinstance(outs, tuple) else (outs,)
        for (child, _), g in zip(node.next_functions, outs):
            if child is None:
                continue
            if g is not None:
                waiting[child] = waiting[child] + g if child in waiting else g
            consumers[child] -= 1
            if consumers[child] == 0:
                ready.append(child)
    return ran


def notes_graph() -> tuple[minitorch.Tensor, ...]:
    """The notes' C = A**2, D = B**2, E = C*D, F = D + E at A=3, B=2."""
    A = minitorch.tensor([3.0], requires_grad=True)
    B = minitorch.tensor([2.0], requires_grad=True)
    D = B**2
    return A, B, D + (A**2) * D


# ----------------------------------------------------------------------------- the seam
def test_backward_runs_the_plugged_engine_and_restores_it() -> None:
    calls = []

    def spy(root, grad):
        calls.append((root.name(), grad.item(), minitorch.is_grad_enabled()))
        return simple_engine(root, grad)

    A, B, F = notes_graph()
    with engine.use(spy):
        F.backward()
    assert calls == [("AddBackward0", 1.0, False)]  # the root node, 1, grad mode off
    assert (A.grad.tolist(), B.grad.tolist()) == ([24.0], [40.0])
    assert engine.execute is course.reference(engine, "execute")
    assert minitorch.is_grad_enabled()


def test_autograd_backward_with_a_gradient_goes_through_it_too() -> None:
    seen = []
    x = minitorch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with engine.use(lambda root, grad: seen.append(grad.tolist()) or simple_engine(root, grad)):
        minitorch.autograd.backward(x**2, minitorch.tensor([1.0, 0.1, 0.001]))
    assert seen == [pytest.approx([1.0, 0.1, 0.001])]
    assert x.grad.tolist() == pytest.approx([2.0, 0.4, 0.006])


def test_restored_after_an_error_and_by_reset() -> None:
    def broken(root, grad):
        raise ZeroDivisionError

    x = minitorch.tensor(2.0, requires_grad=True)
    with pytest.raises(ZeroDivisionError), engine.use(broken):
        (x * x).backward()
    assert engine.execute is course.reference(engine, "execute")
    assert minitorch.is_grad_enabled()  # grad mode back on after the student's error
    engine.use(broken).__enter__()  # a student's cell that never left the block
    course.reset()
    (x * x).backward()
    assert x.grad.item() == 4.0


def test_graph_is_freed_unless_retained() -> None:
    A = minitorch.tensor(2.0, requires_grad=True)
    D = (A * 0.5).exp()
    with engine.use(simple_engine):
        D.backward(retain_graph=True)
        D.backward()
        with pytest.raises(RuntimeError, match="backward through the graph a second time"):
            D.backward()
    assert A.grad.item() == pytest.approx(2 * 0.5 * 2.718281828, rel=1e-6)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda x: (x**3).backward(create_graph=True), "create_graph=True"),
        (lambda x: minitorch.autograd.grad(x**3, x), "autograd.grad"),
        (lambda x: (x**3).backward(inputs=[x]), r"backward\(inputs=...\)"),
        (lambda x: minitorch.autograd.backward([x * 2, x * 3]), "one root"),
    ],
    ids=["create_graph", "grad", "inputs", "two_roots"],
)
def test_refuses_what_the_student_engine_cannot_do(call, message: str) -> None:
    x = minitorch.tensor(5.0, requires_grad=True)
    with engine.use(simple_engine), pytest.raises(NotImplementedError, match=message):
        call(x)
    assert x.grad is None


def test_refuses_nodes_with_several_outputs() -> None:
    class Split(minitorch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1.0, x * 2.0

        @staticmethod
        def backward(ctx, a, b):
            return a + 2 * b

    x = minitorch.tensor(1.0, requires_grad=True)
    first, second = Split.apply(x)
    with engine.use(simple_engine), pytest.raises(NotImplementedError, match="several"):
        (first + second).backward()


def test_plugged_engine_works_while_the_reference_is_switched_off() -> None:
    kept = engine.execute
    A, B, F = notes_graph()
    with course.switched_off("engine.execute", "engine.discover"), engine.use(simple_engine):
        F.backward()
    assert (A.grad.tolist(), B.grad.tolist()) == ([24.0], [40.0])

    def delegating(root, grad):
        kept([(root, 0)], [grad], keep_graph=False, create_graph=False)

    *_, F = notes_graph()
    with course.switched_off("engine.execute"), engine.use(delegating), \
            pytest.raises(course.SwitchedOff):
        F.backward()


def test_normal_path_is_the_reference_itself() -> None:
    # No wrapper on the normal path: backward calls minitorch's own function.
    assert engine.execute is course.reference(engine, "execute")
    assert engine.execute.__module__ == engine.__name__
    assert not hasattr(engine.execute, "__wrapped__")


def test_engine_doctests() -> None:
    assert doctest.testmod(engine, extraglobs={"minitorch": minitorch}).failed == 0


def test_switched_off_leaves_nothing_to_reach_through() -> None:
    x = minitorch.tensor(2.0, requires_grad=True)
    kept = engine.discover
    with course.switched_off("engine.discover"), pytest.raises(course.SwitchedOff):
        getattr(kept, "__wrapped__", kept)([(x * x).grad_fn])
    assert kept([(x * x).grad_fn])[1]  # switched on again: the same function object works


# ----------------------------------------------------------------------------- grading
TOPO = ("topological_order_visible", "topological_order_hidden")
ENGINE = ("run_backward_visible", "run_backward_hidden", "run_backward_plugged")
NEW = {"predict_rows_visible": 1, "predict_rows_hidden": 2}  # untouched by WRONG: 0 there
POINTS = {"topological_order_visible": 1, "topological_order_hidden": 2,
          "run_backward_visible": 2, "run_backward_hidden": 2, "run_backward_plugged": 1, **NEW}

ITERATIVE_POST_ORDER = '''
def topological_order(root):
    order, seen = [], {root}
    stack = [(root, iter(root.next_functions))]
    while stack:
        node, children = stack[-1]
        for child, _ in children:
            if child is not None and child not in seen:
                seen.add(child)
                stack.append((child, iter(child.next_functions)))
                break
        else:
            stack.pop()
            order.append(node)
    return order%s
'''

ENGINE_TEMPLATE = '''
def run_backward(root, grad):
    consumers = {root: 0}
%s
    waiting, ready, ran = {root: grad}, [root], []
    while ready:
        node = ready.pop()
        outs = node(waiting.pop(node, None))
        ran.append(node)
        outs = outs if isinstance(outs, tuple) else (outs,)
        for (child, _), g in zip(node.next_functions, outs):
            if child is None:
                continue
            if g is not None:
                waiting[child] = %s
            consumers[child] -= 1
            if consumers[child] == 0:
                ready.append(child)
    return ran
'''
ITERATIVE_COUNT = '''
    stack = [root]
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is not None:
                if child not in consumers:
                    stack.append(child)
                consumers[child] = consumers.get(child, 0) + 1
'''
RECURSIVE_COUNT = '''
    def count(node):
        for child, _ in node.next_functions:
            if child is not None:
                if child not in consumers:
                    consumers[child] = 0
                    count(child)
                consumers[child] += 1
    count(root)
'''
SUM = "waiting[child] + g if child in waiting else g"

WRONG = {
    # recursion (fails on the 10 000-node chain); the notes' queue, visiting D twice
    "recursive_and_visit_twice": {
        "topological_order": '''
def topological_order(root):
    order, seen = [], set()
    def visit(node):
        seen.add(node)
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                visit(child)
        order.append(node)
    visit(root)
    return order[::-1]
''',
        "run_backward": '''
def run_backward(root, grad):
    ran, queue = [], [(root, grad)]
    while queue:
        node, g = queue.pop()
        outs = node(g)
        ran.append(node)
        outs = outs if isinstance(outs, tuple) else (outs,)
        for (child, _), child_grad in zip(node.next_functions, outs):
            if child is not None and child_grad is not None:
                queue.append((child, child_grad))
    return ran
''',
    },
    # the order reversed (leaves first); gradients overwritten instead of summed
    "reversed_and_overwrite": {
        "topological_order": ITERATIVE_POST_ORDER % "",
        "run_backward": ENGINE_TEMPLATE % (ITERATIVE_COUNT, "g"),
    },
    # breadth-first order; an engine that counts recursively
    "breadth_first_and_recursive": {
        "topological_order": '''
from collections import deque

def topological_order(root):
    order, seen, queue = [], {root}, deque([root])
    while queue:
        node = queue.popleft()
        order.append(node)
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                seen.add(child)
                queue.append(child)
    return order
''',
        "run_backward": ENGINE_TEMPLATE % (RECURSIVE_COUNT, SUM),
    },
}

# Delegates to references kept before the tests switch them off.
DELEGATING = {
    "topological_order": '''
kept_discover = engine.discover

def topological_order(root):
    return kept_discover([root])[1][::-1]
''',
    "run_backward": '''
kept_execute = engine.execute

def run_backward(root, grad):
    ran, nodes, stack = [], {root}, [root]
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is not None and child not in nodes:
                nodes.add(child)
                stack.append(child)
    handles = [n.register_prehook(lambda grads, n=n: ran.append(n)) for n in nodes]
    kept_execute([(root, 0)], [grad], keep_graph=True, create_graph=False)
    for handle in handles:
        handle.remove()
    return ran
''',
}


@pytest.fixture(scope="module")
def chapter(tmp_path_factory: pytest.TempPathFactory) -> CourseRoot:
    return CourseRoot(tmp_path_factory.mktemp("ch02"), CHAPTER)


def earned(grades: Grades, cells: tuple[str, ...]) -> float:
    return sum(grades.by_grade_id[cell] or 0 for cell in cells)


def test_points_are_split_as_documented(chapter: CourseRoot) -> None:
    graded = grade_cells(chapter.solution(), tests=True)
    assert {c.metadata.nbgrader.grade_id: c.metadata.nbgrader.points for c in graded} == POINTS


# The cells each wrong submission must fail, and the error that proves why (in one of them).
LOST = {
    "recursive_and_visit_twice": (
        {"topological_order_hidden", "run_backward_visible", "run_backward_hidden", *NEW},
        ["RecursionError", "each of the 6 nodes runs exactly once", "got:      8190"]),
    "reversed_and_overwrite": (set(POINTS), [
        "tensor([36.])", "this is what you get when the gradient reaching D by one path "
        "overwrote the other", "matches finite differences (a hidden test)"]),
    "breadth_first_and_recursive": (
        {"topological_order_visible", "topological_order_hidden", "run_backward_hidden", *NEW},
        ["whether MulBackward0 comes before its input PowBackward0",
         "got:      RecursionError"]),
}


@pytest.mark.parametrize("wrong", sorted(WRONG))
def test_each_wrong_answer_loses_points_on_its_exercise(chapter: CourseRoot, wrong: str) -> None:
    grades = chapter.grade(wrong, edit_cells(chapter.release(), WRONG[wrong]))
    for cells in (TOPO, ENGINE):
        assert earned(grades, cells) < sum(POINTS[c] for c in cells), (wrong, grades.by_grade_id)
    lost, reasons = LOST[wrong]
    assert {cell for cell, score in grades.by_grade_id.items() if not score} == lost
    errors = grades.errors()
    assert all(reason in errors for reason in reasons), errors


def test_delegating_student_earns_no_hidden_points(chapter: CourseRoot) -> None:
    grades = chapter.grade("delegating", edit_cells(chapter.release(), DELEGATING))
    # the grading copy of minitorch holds no engine to delegate to: every test cell of the two
    # exercises earns nothing, visible ones included (they pass in the student's JupyterLab)
    cells = (*TOPO, *ENGINE)
    assert {cell: grades.by_grade_id[cell] for cell in cells} == dict.fromkeys(cells, 0), (
        grades.errors())
    errors = grades.errors()
    assert "engine.discover is not in the grading copy" in errors
    assert "engine.execute is not in the grading copy" in errors


# Cheats that solve nothing (course/README.md, "What autograding defends against"): the hidden
# observations, compared outside the kernel, take every point, whatever the asserts did.
WRONG_ANSWERS = WRONG["reversed_and_overwrite"]
CHEATS = {
    "skip_later_cells": {"topological_order": SKIP_LATER_CELLS},
    "swallow_and_agree": {
        **WRONG_ANSWERS,
        "topological_order": SWALLOW_AND_AGREE + WRONG_ANSWERS["topological_order"],
    },
}


@pytest.mark.parametrize("cheat", sorted(CHEATS))
def test_a_cheat_earns_nothing(chapter: CourseRoot, cheat: str) -> None:
    grades = chapter.grade(cheat, edit_cells(chapter.release(), CHEATS[cheat]))
    assert grades.total == 0, grades.by_grade_id
    # the grader, outside the kernel, found the solution's observations in no test cell
    errors = grades.errors().splitlines()
    assert all(any(e.startswith(f"[{cell}] HiddenCheckFailed: ") for e in errors)
               for cell in POINTS), errors


# ------------------------------------------------ exercise 3: predict rows


def solution_literal(grade_id: str, name: str) -> object:
    """The literal assigned to ``name`` in the solution cell ``grade_id`` (or the unnamed
    cell whose source assigns it, for grade_id None)."""
    for cell in read_source(CHAPTER).cells:
        cell_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if cell.cell_type == "code" and (cell_id == grade_id or grade_id is None):
            for statement in ast.parse(cell.source).body:
                if isinstance(statement, ast.Assign) and \
                        ast.unparse(statement.targets[0]) == name:
                    return eval(ast.unparse(statement.value), {})  # literals and float("nan")
    raise KeyError(name)


ROWS = solution_literal(None, "ROWS")
def solved(grade_id: str, name: str) -> object:
    """The value the solution's answer cell ``grade_id`` gives ``name`` (the cell is run)."""
    (cell,) = [c for c in read_source(CHAPTER).cells
               if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id]
    namespace: dict = {}
    exec(cell.source, namespace)
    return namespace[name]


EXPECTED_ROWS = solved("predict_rows", "predictions")  # the grader's expectation


def run_row(L: object, code: str) -> object:
    """The chapter's run_row, for library L."""
    names = {"tensor": L.tensor, "autograd": L.autograd}
    try:
        exec(code, names)  # the chapter's own rows
    except Exception as error:
        return type(error).__name__
    answer = names["answer"]
    return answer.item() if hasattr(answer, "item") else answer


def same(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    return type(a) is type(b) and a == b


@pytest.mark.filterwarnings("error")  # no row may warn: graded cells run them
@pytest.mark.parametrize("L", [torch, minitorch], ids=["torch", "minitorch"])
@pytest.mark.parametrize("key", sorted(EXPECTED_ROWS))
def test_predicted_rows_are_what_the_libraries_give(L: object, key: str) -> None:
    assert sorted(ROWS) == sorted(EXPECTED_ROWS)
    assert same(run_row(L, ROWS[key]), EXPECTED_ROWS[key]), (key, run_row(L, ROWS[key]))


def predictions(**changes: object) -> str:
    """The predictions cell with the right answers except ``changes``."""
    def literal(value: object) -> str:
        return f"float({str(value)!r})" if isinstance(value, float) else repr(value)

    answers = {**EXPECTED_ROWS, **changes}
    return "predictions = {" + ", ".join(f"{k!r}: {literal(v)}" for k, v in answers.items()) + "}\n"


@pytest.mark.parametrize(
    ("answers", "zeroed"),
    [
        # a row only the hidden cell checks
        ({"predict_rows": predictions(n=0.0)}, {"predict_rows_hidden"}),
        # a row the visible cell observes
        ({"predict_rows": predictions(f=3.0)}, set(NEW)),
        ({"predict_rows": predictions(p=30.0)}, {"predict_rows_hidden"}),
    ],
    ids=["hidden_row_n", "visible_row_f", "hidden_row_p"],
)
def test_new_exercises_lose_points_for_wrong_answers(
    chapter: CourseRoot, answers: dict[str, str], zeroed: set[str]
) -> None:
    name = "new-" + "-".join(sorted(zeroed))
    grades = chapter.grade(name, edit_cells(chapter.solution(), answers))
    lost = {cell for cell, score in grades.by_grade_id.items() if not score}
    assert lost == zeroed, grades.errors()
