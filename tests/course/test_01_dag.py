"""Chapter 01_dag: the viz walk seam, the prediction table's constants, and wrong answers.

The generic chapter tests (test_course_chapters.py) prove that the solution earns full marks
and the release 0. Here: ``minitorch.viz.use`` plugs a student's ``trace`` into ``draw``;
the table's hidden constants are what live torch (and minitorch) compute; and plausible
wrong answers, and a student who delegates to minitorch's own walk, lose points on each
exercise.
"""

from __future__ import annotations

import ast
import contextlib
from typing import Any

import pytest
import torch
from grading import SKIP_LATER_CELLS, SWALLOW_AND_AGREE, CourseRoot, edit_cells, grade_cells

import minitorch
from minitorch import course, viz
from minitorch.viz import dot
from tools.build_course import SOLUTIONS, read_source

pytestmark = [
    pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning"),
    pytest.mark.filterwarnings("ignore::nbformat.validator.MissingIDFieldWarning"),
]

SOURCE = SOLUTIONS / "01_dag.py"


def reference_pairs(t: minitorch.Tensor) -> tuple[list[Any], list[tuple[Any, Any]]]:
    """What a correct student trace returns: the reference walk, edges as node pairs."""
    nodes, edges = course.reference(dot, "walk")([t])
    return nodes, [(node, node.next_functions[i][0]) for node, i in edges]


def abef() -> minitorch.Tensor:
    A = minitorch.tensor(2.0, requires_grad=True)
    B = minitorch.tensor(0.5, requires_grad=True)
    E = minitorch.tensor(1.0, requires_grad=True)
    return (A * B).exp() + E


# ---------------------------------------------------------------------------- the seam


def test_walk_is_a_declared_seam() -> None:
    assert "viz.dot.walk" in course.seams()
    assert viz.use is dot.use


@pytest.mark.parametrize("make", [abef, lambda: (lambda x: x * x + x)(
    minitorch.tensor(3.0, requires_grad=True))], ids=["abef", "shared_leaf"])
def test_draw_with_a_correct_trace_is_the_reference_drawing(make: Any) -> None:
    out = make()
    calls = []

    def trace(t: minitorch.Tensor) -> Any:
        calls.append(t)
        return reference_pairs(t)

    with viz.use(trace) as plugged:
        assert plugged is trace and dot.walk is not course.reference(dot, "walk")
        mine = dot.build([out], {})
        drawn = viz.draw(out)
    assert len(calls) == 2 and calls[0] is out
    reference = dot.build([out], {})
    assert [e.key for e in mine.edges] == [e.key for e in reference.edges]
    assert drawn.source == viz.draw(out).source


def test_repeated_pairs_take_successive_next_functions_entries() -> None:
    x = minitorch.tensor(3.0, requires_grad=True)
    y = x * x
    acc = y.grad_fn.next_functions[0][0]
    with viz.use(lambda t: ([y.grad_fn, acc], [(y.grad_fn, acc), (y.grad_fn, acc)])):
        keys = [e.key for e in dot.build([y], {}).edges if e.key]
    assert keys == [(id(y.grad_fn), 0), (id(y.grad_fn), 1)]


def test_a_partial_trace_draws_only_what_it_found() -> None:
    out = abef()
    with viz.use(lambda t: ([t.grad_fn], [])):
        source = viz.draw(out).source
    assert "AddBackward0" in source and "ExpBackward0" not in source
    assert source.count("->") == 1  # the output box only


def test_a_leaf_is_drawn_without_calling_trace() -> None:
    x = minitorch.tensor(1.0, requires_grad=True)

    def trace(t: minitorch.Tensor) -> Any:
        raise AssertionError("trace called for a leaf")

    with viz.use(trace):
        model = dot.build([x], {})
        assert [item.kind for item in model.items] == ["leaf", "output"]
        assert [item.kind for item in dot.build([minitorch.ones(1)], {}).items] == ["output"]


@pytest.mark.parametrize(
    ("trace", "error", "match"),
    [
        (lambda t: ([t], []), TypeError, "graph nodes"),
        (lambda t: ([t.grad_fn], [(t.grad_fn, t.grad_fn)]), ValueError, "not .* in AddBackward0"),
        (lambda t: ([t.grad_fn], [(t.grad_fn, t)]), TypeError, "graph nodes"),
    ],
    ids=["tensor_as_node", "edge_not_in_next_functions", "tensor_in_edge"],
)
def test_use_refuses_what_draw_cannot_draw(trace: Any, error: type, match: str) -> None:
    with viz.use(trace), pytest.raises(error, match=match):
        viz.draw(abef())


def test_use_draws_one_tensor_at_a_time() -> None:
    with viz.use(reference_pairs), pytest.raises(ValueError, match="one tensor at a time"):
        viz.draw(abef(), abef())


def test_use_restores_on_exit_on_error_and_by_reset() -> None:
    reference = course.reference(dot, "walk")
    with pytest.raises(ZeroDivisionError), viz.use(lambda t: 1 / 0):
        viz.draw(abef())
    assert dot.walk is reference
    stuck = viz.use(reference_pairs)
    stuck.__enter__()  # a student's cell that never left the block
    assert dot.walk is not reference
    course.reset()
    assert dot.walk is reference


def test_switched_off_walk_stops_draw_and_a_kept_reference() -> None:
    kept = dot.walk
    with course.switched_off("viz.dot.walk"):
        with pytest.raises(course.SwitchedOff):
            viz.draw(abef())
        with pytest.raises(course.SwitchedOff):
            kept([abef()])
    assert len(kept([abef()])[0]) == 6


# ---------------------------------------------------------------------------- the table


def cell_source(grade_id: str) -> str:
    cells = [c for c in read_source(SOURCE).cells
             if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id]
    assert len(cells) == 1, grade_id
    return cells[0].source


def assigned(grade_id: str, name: str) -> Any:
    """The literal assigned to ``name`` in the cell ``grade_id`` of the solution."""
    for statement in ast.parse(cell_source(grade_id)).body:
        if isinstance(statement, ast.Assign) and ast.unparse(statement.targets[0]) == name:
            return ast.literal_eval(statement.value)
    raise KeyError(name)


# The solution's predictions are what the grader expects (hidden tests hold no answers);
# test_every_prediction_is_what_the_libraries_do checks them against torch and minitorch.
def solved(grade_id: str, name: str) -> Any:
    """The value the solution's answer cell ``grade_id`` gives ``name`` (the cell is run)."""
    namespace: dict[str, Any] = {}
    exec(cell_source(grade_id), namespace)
    return namespace[name]


EXPECTED = solved("table", "predictions")
NO_GRAD = "with no_grad(): "


def evaluate(L: Any, expression: str) -> tuple[bool, bool]:
    """(requires_grad, is_leaf) of ``expression`` with the table's tensors, in library L."""
    L.manual_seed(0)
    names = {"a": L.tensor([1.0, 2.0], requires_grad=True), "b": L.tensor([3.0, 4.0]),
             "lin": L.nn.Linear(2, 1)}
    code = expression.removeprefix(NO_GRAD)
    with L.no_grad() if code != expression else contextlib.nullcontext():
        result = eval(code, {}, names)  # the table's own expressions, nothing else
    return result.requires_grad, result.is_leaf


def test_table_lists_the_same_expressions_as_its_setup() -> None:
    assert list(EXPECTED) == assigned("table_setup", "EXPRESSIONS")
    assert len(EXPECTED) == 12


@pytest.mark.parametrize("L", [torch, minitorch], ids=["torch", "minitorch"])
@pytest.mark.parametrize("expression", list(EXPECTED))
def test_table_constants_are_what_the_libraries_compute(L: Any, expression: str) -> None:
    assert evaluate(L, expression) == EXPECTED[expression]


# ---------------------------------------------------------------------------- wrong answers

WRONG_A = {  # visits shared nodes again, returns nodes, no_grad result "requires grad",
    # arrows reversed
    "trace": '''
def trace(t):
    if t.grad_fn is None:
        return [], []
    nodes, edges = [], []

    def visit(node):
        nodes.append(node)
        for next_node, _ in node.next_functions:
            if next_node is not None:
                edges.append((node, next_node))
                visit(next_node)

    visit(t.grad_fn)
    return nodes, edges
''',
    "leaves": '''
def leaves(t):
    if t.grad_fn is None:
        return [t] if t.requires_grad else []
    return [n for n in trace(t)[0] if hasattr(n, "variable")]
''',
    "to_dot": '''
def to_dot(nodes, edges):
    ids = {id(node): f"n{k}" for k, node in enumerate(nodes)}
    lines = ["digraph {"]
    for node in nodes:
        shape = "ellipse" if hasattr(node, "variable") else "box"
        lines.append(f'    {ids[id(node)]} [label="{type(node).__name__}" shape={shape}]')
    for node, next_node in edges:
        lines.append(f"    {ids[id(node)]} -> {ids[id(next_node)]}")
    return "\\n".join(lines + ["}"])
''',
}
WRONG_B = {  # edges as a set, a leaf per edge, ids from names
    "trace": '''
def trace(t):
    if t.grad_fn is None:
        return [], []
    nodes, edges, stack = [t.grad_fn], set(), [t.grad_fn]
    while stack:
        node = stack.pop()
        for next_node, _ in node.next_functions:
            if next_node is not None and (node, next_node) not in edges:
                edges.add((node, next_node))
                if next_node not in nodes:
                    nodes.append(next_node)
                    stack.append(next_node)
    return nodes, list(edges)
''',
    "leaves": '''
def leaves(t):
    if t.grad_fn is None:
        return [t] if t.requires_grad else []
    return [m.variable for _, m in trace(t)[1] if hasattr(m, "variable")]
''',
    "to_dot": '''
def to_dot(nodes, edges):
    lines = ["digraph {"]
    for node in nodes:
        shape = "ellipse" if hasattr(node, "variable") else "box"
        lines.append(f'    {type(node).__name__} [label="{type(node).__name__}" shape={shape}]')
    for node, next_node in edges:
        lines.append(f"    {type(next_node).__name__} -> {type(node).__name__}")
    return "\\n".join(lines + ["}"])
''',
}
DELEGATING = {  # minitorch's walk kept before the tests; the engine's discover
    "trace": '''
from minitorch.viz.dot import walk as kept_walk

def trace(t):
    if t.grad_fn is None:
        return [], []
    nodes, edges = kept_walk([t])
    return nodes, [(node, node.next_functions[i][0]) for node, i in edges]
''',
    "leaves": '''
from minitorch.autograd import engine

def leaves(t):
    if t.grad_fn is None:
        return [t] if t.requires_grad else []
    _, order = engine.discover([t.grad_fn])
    return [node.variable for node in order if hasattr(node, "variable")]
''',
}


def table(changes: dict[str, tuple[bool, bool]]) -> str:
    """The table's answer cell with the right predictions except ``changes``."""
    return f"predictions = {dict(EXPECTED, **changes)!r}\n"


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> CourseRoot:
    return CourseRoot(tmp_path_factory.mktemp("dag"), SOURCE)


@pytest.mark.parametrize(
    ("student", "answers", "kept"),
    [
        # Its one wrong prediction is not among those the table's visible cell observes.
        ("wrong_a", {**WRONG_A, "table": table({"with no_grad(): a * b": (True, False)})},
         {"table_visible": 1}),
        ("wrong_b", {**WRONG_B, "table": table({"b * 2": (False, False)})}, {}),
    ],
)
def test_wrong_answers_lose_points_on_every_exercise(
    root: CourseRoot, student: str, answers: dict[str, str], kept: dict[str, float]
) -> None:
    grades = root.grade(student, edit_cells(root.release(), answers))
    earned = {cell: points for cell, points in grades.by_grade_id.items() if points}
    assert earned == kept, grades.errors()


def test_delegating_to_minitorch_earns_no_hidden_points(root: CourseRoot) -> None:
    grades = root.grade("delegating", edit_cells(root.release(), DELEGATING))
    for exercise in DELEGATING:
        # the grading copy of minitorch holds no walk to delegate to: not even the visible
        # test passes while grading (it does in the student's own JupyterLab)
        assert grades.by_grade_id[f"{exercise}_visible"] == 0, grades.errors()
        assert grades.by_grade_id[f"{exercise}_hidden"] == 0
    assert "is not in the grading copy" in grades.errors()


# ---------------------------------------------------------------- cheats (course/integrity.py)

# Wrong answers for every exercise, failures swallowed, and the checks the tests call patched
# to always agree.
SWALLOWED = SWALLOW_AND_AGREE + '''

def trace(t):
    return ([t.grad_fn], []) if t.grad_fn is not None else ([], [])
'''
CHEATS = {
    "input-transformer": {"trace": SKIP_LATER_CELLS},
    "swallowed-and-patched": {
        "trace": SWALLOWED,
        "leaves": "def leaves(t):\n    return [t]\n",
        "table": f"predictions = {dict.fromkeys(EXPECTED, (True, True))!r}\n",
        "to_dot": "def to_dot(nodes, edges):\n    return 'digraph {}'\n",
    },
}


@pytest.mark.parametrize("name", CHEATS)
def test_a_cheat_earns_nothing(root: CourseRoot, name: str) -> None:
    grades = root.grade(f"cheat-{name}", edit_cells(root.release(), CHEATS[name]))
    assert grades.total == 0, grades.by_grade_id
    # Every test cell failed the hidden observations, compared outside the kernel. Under the
    # input transformer, that is all that failed: plain nbgrader would give full marks.
    for cell in grade_cells(grades.notebook, tests=True):
        names = [out.ename for out in cell.outputs if out.output_type == "error"]
        assert "HiddenCheckFailed" in names, (cell.metadata.nbgrader.grade_id, names)
        if name == "input-transformer":
            assert names == ["HiddenCheckFailed"], (cell.metadata.nbgrader.grade_id, names)
