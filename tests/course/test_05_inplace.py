"""Chapter 05_inplace: the saved-tensor seam (``graph.check_version``, ``graph.use``), the
chapter's constants checked against live torch, and nbgrader grading wrong answers down.

The autograded submissions (few, as each costs seconds) each carry one plausible wrong answer
for every exercise at once; a third delegates exercises 1 and 2 to minitorch's own check.
"""

from __future__ import annotations

import doctest
import math
import types
import warnings
from collections.abc import Iterator
from typing import Any

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
    passify_tests,
)

import minitorch
from minitorch import course
from minitorch.autograd import graph
from tools.build_course import SOLUTIONS, read_source

pytestmark = [
    pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning"),
    pytest.mark.filterwarnings("ignore::nbformat.validator.MissingIDFieldWarning"),
]

SOURCE = SOLUTIONS / "05_inplace.py"
STALE = "modified by an inplace operation"


class Keep:
    """A student's class as the chapter asks for it, checking nothing."""

    def __init__(self, tensor: Any) -> None:
        self.tensor = tensor

    def get(self) -> Any:
        return self.tensor


class Strict(Keep):
    """A student's class that checks, with its own message."""

    def __init__(self, tensor: Any) -> None:
        super().__init__(tensor)
        self.version = tensor._version

    def get(self) -> Any:
        if self.tensor._version != self.version:
            raise RuntimeError(f"strict: {self.version} -> {self.tensor._version}")
        return self.tensor


@pytest.fixture(autouse=True)
def _restored() -> Iterator[None]:
    yield
    course.reset()
    assert graph.check_version is course.reference(graph, "check_version")
    assert graph._hook_state.stack == ()


def notes_cell(L: Any) -> Any:
    """The notes' failing cell (seed 002, In [9]) up to its backward; returns z."""
    x = L.ones(1, 10, requires_grad=True)
    y1 = x**2
    with L.no_grad():
        x += 1
        y2 = x**2
    return y1**2 + y2**2


# ------------------------------------------------------------------ the seam


def test_minitorch_calls_the_plugged_check_at_every_unpack() -> None:
    calls = []

    def spy(saved: Any, tensor: Any, owner: Any) -> None:
        calls.append((owner.name(), saved._version, tensor._version))

    z = notes_cell(minitorch)
    with course.plug(graph, "check_version", spy):
        z.sum().backward()  # the spy lets the stale x through
    assert calls == [("PowBackward0", 0, 0), ("PowBackward0", 0, 1)]


def test_switched_off_catches_a_kept_reference() -> None:
    kept = graph.check_version
    x = minitorch.ones(2, requires_grad=True)
    y = x * x
    saved = y.grad_fn._saved[0]
    with course.switched_off("graph.check_version"):
        with pytest.raises(course.SwitchedOff):
            kept(saved, x, y.grad_fn)
        with pytest.raises(course.SwitchedOff):
            y.sum().backward()
    y.sum().backward()  # back on after the block
    assert x.grad.tolist() == [2.0, 2.0]
    assert "graph.check_version" in course.seams()


def test_use_keeps_every_saved_tensor_in_the_class_and_asks_it_back() -> None:
    made: list[Keep] = []

    class Logged(Keep):
        def __init__(self, tensor: Any) -> None:
            super().__init__(tensor)
            made.append(self)

    x = minitorch.tensor([0.5, 1.0, 2.0], requires_grad=True)
    with graph.use(Logged):
        y = x.exp()
        z = (y * x).sum()  # exp saves y, mul saves y and x
        assert sorted("x" if k.tensor is x else "y" if k.tensor is y else "?" for k in made) \
            == ["x", "y", "y"]
        z.backward()
    np.testing.assert_allclose(x.grad.numpy(), (np.array([0.5, 1, 2]) + 1) * np.exp([0.5, 1, 2]),
                               rtol=1e-6)


def test_use_with_a_checking_class_catches_the_notes_bug_alone() -> None:
    with course.switched_off("graph.check_version"), graph.use(Strict):
        z = notes_cell(minitorch)
        with pytest.raises(RuntimeError, match=r"^strict: 0 -> 1$"):
            z.sum().backward()


def test_use_with_a_class_that_checks_nothing_gives_the_silent_wrong_gradient() -> None:
    with graph.use(Keep):
        x = minitorch.ones(3, requires_grad=True)
        y = x**2
        with minitorch.no_grad():
            x += 1
        y.sum().backward()
    assert x.grad.tolist() == [4.0, 4.0, 4.0]  # 2x at the new x; the true gradient is 2


def test_use_refuses_tensors_saved_before_the_block() -> None:
    x = minitorch.ones(2, requires_grad=True)
    y = x * x
    with graph.use(Keep), pytest.raises(RuntimeError, match=r"MulBackward0 needs a tensor "
                                        r"saved before graph\.use\(Keep\) began"):
        y.sum().backward()


def test_use_refuses_a_class_without_get() -> None:
    with pytest.raises(TypeError, match="has no get method"), graph.use(object):
        pass
    assert graph._hook_state.stack == ()


def test_a_get_that_returns_no_tensor_is_refused() -> None:
    class Forgets(Keep):
        def get(self) -> None:
            return None

    with graph.use(Forgets):
        x = minitorch.ones(2, requires_grad=True)
        y = (x * x).sum()
        with pytest.raises(TypeError, match="expected to be a Tensor but got result of type "
                                            "NoneType"):
            y.backward()


def test_a_class_that_saves_again_is_refused_not_recursed() -> None:
    class Delegates(Keep):
        def __init__(self, tensor: Any) -> None:
            super().__init__(tensor)
            self.saved = graph.SavedTensor(tensor, False)

    x = minitorch.ones(2, requires_grad=True)
    with graph.use(Delegates), pytest.raises(RuntimeError, match=r"^Delegates\(tensor\) saved "
                                                               r"a tensor for backward itself"):
        x * x
    (x * x).sum().backward()  # nothing left behind
    assert x.grad.tolist() == [2.0, 2.0]


@pytest.mark.parametrize("L", [torch, minitorch], ids=["torch", "minitorch"])
def test_pack_hooks_run_with_grad_mode_off_like_torch(L: Any) -> None:
    seen = []

    def pack(t: Any) -> Any:
        seen.append((L.is_grad_enabled(), (t * t).requires_grad))
        return t

    x = L.ones(2, requires_grad=True)
    with L.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        y = x.exp()
    assert seen == [(False, False)] and L.is_grad_enabled() and y.requires_grad


def test_an_inner_saved_tensors_hooks_block_wins() -> None:
    packed = []
    with graph.use(Strict), graph.saved_tensors_hooks(lambda t: packed.append(t) or t,
                                                        lambda t: t):
        minitorch.ones(2, requires_grad=True).exp()
    assert len(packed) == 1


def test_use_restores_on_error_and_on_reset() -> None:
    reference = course.reference(graph, "check_version")
    with pytest.raises(ZeroDivisionError), graph.use(Keep):
        1 / 0
    assert graph.check_version is reference and graph._hook_state.stack == ()
    plugged = graph.use(Keep)
    plugged.__enter__()  # a cell that never left the block
    assert graph.check_version is not reference and len(graph._hook_state.stack) == 1
    course.reset()
    assert graph.check_version is reference and graph._hook_state.stack == ()


def test_graph_doctests() -> None:
    result = doctest.testmod(graph, extraglobs={"minitorch": minitorch})
    assert result.failed == 0 and result.attempted > 20


def two_outputs(L: Any) -> Any:
    """A Function with two outputs; returns its second output q (output_nr 1)."""

    class Two(L.autograd.Function):
        @staticmethod
        def forward(ctx: Any, a: Any) -> Any:
            return a * 2, a * 3

        @staticmethod
        def backward(ctx: Any, g: Any, h: Any) -> Any:
            return 2 * g + 3 * h

    _, q = Two.apply(L.ones(2, 3, dtype=L.float64, requires_grad=True))
    return q


def stale_message(L: Any, saved_by_its_own_node: bool) -> str:
    q = two_outputs(L)
    w = q.exp() if saved_by_its_own_node else q * q
    with L.no_grad():
        q.mul_(2)
        if saved_by_its_own_node:
            w.mul_(1)
        else:
            q.mul_(2)
    with pytest.raises(RuntimeError) as info:
        w.sum().backward()
    return str(info.value)


def test_a_saved_input_is_named_output_0_like_torch() -> None:
    # torch keeps an output number only for saved outputs: q is output 1 of Two, yet torch
    # names it output 0 when a later node saved it as an input.
    want = stale_message(torch, saved_by_its_own_node=False)
    assert "[torch.DoubleTensor [2, 3]], which is output 0 of Two, is at version 2" in want
    assert stale_message(minitorch, saved_by_its_own_node=False) == want


def test_a_saved_output_is_named_after_its_node_like_torch() -> None:
    want = stale_message(torch, saved_by_its_own_node=True)
    assert "which is output 0 of Exp, is at version 1; expected version 0 instead." in want
    assert stale_message(minitorch, saved_by_its_own_node=True) == want


# ------------------------------------------------------------------ the chapter's constants


@pytest.mark.parametrize("L", [torch, minitorch], ids=["torch", "minitorch"])
def test_hooks_see_the_versions_the_visible_test_expects(L: Any) -> None:
    log = []
    with L.autograd.graph.saved_tensors_hooks(lambda t: log.append(("save", t._version)) or t,
                                              lambda t: log.append(("get", t._version)) or t):
        notes_cell(L).sum().backward()
    assert log == [("save", 0), ("save", 0), ("get", 0), ("get", 1)]


@pytest.mark.parametrize("L", [torch, minitorch], ids=["torch", "minitorch"])
def test_the_notes_cell_message_and_the_data_gradient(L: Any) -> None:
    with pytest.raises(RuntimeError, match=STALE) as info:
        notes_cell(L).sum().backward()
    assert str(info.value).startswith(
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [1, 10]] is at version 1; expected version 0 "
        "instead. Hint:")
    # The ".data fix" of exercise 3 runs, and silently gives 4·x_old²·x_new = 8, not 4.
    x = L.ones(1, 10, requires_grad=True)
    y1 = x**2
    x.data += 1
    (y1**2).sum().backward()
    assert x.grad.tolist() == [[8.0] * 10]


def fixed_by_clone(L: Any, values: np.ndarray) -> tuple[Any, Any]:
    x = L.tensor(values, requires_grad=True)
    y1 = x.clone() ** 2
    with L.no_grad():
        x += 1
        y2 = x**2
    z = y1**2 + y2**2
    z.sum().backward()
    return x, z


@pytest.mark.parametrize("L", [torch, minitorch], ids=["torch", "minitorch"])
def test_exercise_3_expectations_hold_in_both_libraries(L: Any) -> None:
    old = np.array([[0.5, -1.0, 2.0], [3.0, 0.0, -0.25]])
    x, z = fixed_by_clone(L, old)
    np.testing.assert_allclose(x.detach().numpy(), old + 1)
    np.testing.assert_allclose(x.grad.numpy(), 4 * old**3)
    np.testing.assert_allclose(z.detach().numpy(), old**4 + (old + 1) ** 4)


# ------------------------------------------- exercise 5: the debugging tools, predicted


def chapter_cell(grade_id: str | None, defines: str) -> dict[str, Any]:
    """The names the chapter's cell ``grade_id`` (or, for None, the unnamed cell that
    defines ``defines``) leaves behind, run with the set-up's imports."""
    (cell,) = [c for c in read_source(SOURCE).cells if c.cell_type == "code"
               and c.metadata.get("nbgrader", {}).get("grade_id") == grade_id
               and (grade_id or f"{defines} =" in c.source)]
    namespace: dict[str, Any] = {"minitorch": minitorch, "graph": graph, "warnings": warnings}
    exec(cell.source, namespace)  # the chapter's own code
    return namespace


ROWS_CELL = chapter_cell(None, "DEBUG_ROWS")
EXPECTED_DEBUG = chapter_cell("debug_predictions", "debug_predictions")["debug_predictions"]


def run_debug_row(L: Any, key: str) -> object:
    """The chapter's run_debug_row, with library L in place of minitorch."""
    names = dict(ROWS_CELL, minitorch=L, graph=L.autograd.graph)
    return types.FunctionType(ROWS_CELL["run_debug_row"].__code__, names)(key)


def same(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("L", [torch, minitorch], ids=["torch", "minitorch"])
@pytest.mark.parametrize("key", sorted(EXPECTED_DEBUG))
def test_debug_rows_are_what_the_libraries_give(L: Any, key: str) -> None:
    assert sorted(ROWS_CELL["DEBUG_ROWS"]) == sorted(EXPECTED_DEBUG)
    got = run_debug_row(L, key)
    assert same(got, EXPECTED_DEBUG[key]), (key, got)


# ------------------------------------------------------------------ grading

EXERCISES = {
    "versioned_save": ["versioned_save_basics", "versioned_save_message",
                       "versioned_save_hidden"],
    "catch_notes_bug": ["catch_notes_bug_visible", "catch_notes_bug_hidden"],
    "fixed_cell": ["fixed_cell_visible", "fixed_cell_hidden"],
    "scaled_backward": ["scaled_backward_visible", "scaled_backward_hidden"],
    "debug_predictions": ["debug_predictions_visible", "debug_predictions_hidden"],
}

# Exercise 1: the version read when get() runs (never fires), or a wrong direction.
VERSION_AT_GET = '''class VersionedSave:
    def __init__(self, tensor):
        self.tensor = tensor

    def get(self):
        self.version = self.tensor._version
        if self.tensor._version != self.version:
            raise RuntimeError("changed")
        return self.tensor
'''
WRONG_DIRECTION = ("if now == self.version:", "if now >= self.version:")
# Exercise 1: the versions swapped, and always "output 0".
SWAPPED_VERSIONS = ('f"version {now}; expected version {self.version} instead. {HINT}"',
                    'f"version {self.version}; expected version {now} instead. {HINT}"')
OUTPUT_0 = ("{tensor._output_nr}", "0")
# Exercise 1 delegated to minitorch's SavedTensor and its check.
DELEGATES_SAVE = '''class VersionedSave:
    def __init__(self, tensor):
        self.tensor = tensor
        self.saved = graph.SavedTensor(tensor, False)

    def get(self):
        self.saved.unpack(self.tensor.grad_fn)
        return self.tensor
'''
# Exercise 2: not plugged (minitorch's own check speaks), or plugged after the forward.
NOT_PLUGGED = '''def catch_notes_bug(saved_class):
    x = minitorch.ones(1, 10, requires_grad=True)
    y1 = x**2
    with minitorch.no_grad():
        x += 1
        y2 = x**2
    z = y1**2 + y2**2
    try:
        z.sum().backward()
    except RuntimeError as error:
        return str(error)
    return None
'''
PLUGGED_LATE = '''def catch_notes_bug(saved_class):
    x = minitorch.ones(1, 10, requires_grad=True)
    y1 = x**2
    with minitorch.no_grad():
        x += 1
        y2 = x**2
    z = y1**2 + y2**2
    with graph.use(saved_class):
        try:
            z.sum().backward()
        except RuntimeError as error:
            return str(error)
    return None
'''
# Exercise 3: the .data "fix" (silently wrong), y1 taken after the step, a step that
# rebinds the name instead of changing the caller's x.
DATA_FIX = ('''    y1 = x.clone() ** 2  # pow saves the clone, which the step does not touch
    with minitorch.no_grad():
        x += 1
''', '''    y1 = x ** 2
    x.data += 1
    with minitorch.no_grad():
''')
Y1_AFTER_STEP = ('''    y1 = x.clone() ** 2  # pow saves the clone, which the step does not touch
    with minitorch.no_grad():
        x += 1
        y2 = x**2
''', '''    with minitorch.no_grad():
        x += 1
        y2 = x**2
    y1 = x ** 2
''')
REBINDS = ('''    y1 = x.clone() ** 2  # pow saves the clone, which the step does not touch
    with minitorch.no_grad():
        x += 1
        y2 = x**2
    z = y1**2 + y2**2
    z.sum().backward()
''', '''    y1 = x ** 2
    with minitorch.no_grad():
        stepped = x + 1
        y2 = stepped**2
    z = y1**2 + y2**2
    z.sum().backward()
    x = stepped
''')


def mutated(solution: str, *changes: tuple[str, str]) -> str:
    for old, new in changes:
        assert solution.count(old) == 1, old
        solution = solution.replace(old, new)
    return solution


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> CourseRoot:
    return CourseRoot(tmp_path_factory.mktemp("inplace"), SOURCE)


@pytest.fixture(scope="module")
def solutions(root: CourseRoot) -> dict[str, str]:
    return {cell.metadata.nbgrader.grade_id: cell.source
            for cell in grade_cells(root.solution(), tests=False)}


@pytest.fixture(scope="module")
def submissions(root: CourseRoot, solutions: dict[str, str]) -> dict[str, Grades]:
    """Each submission: a wrong answer per exercise, graded once for all the tests below."""
    answers = {
        # The version read at get(); not plugged; the .data fix. Test cells passified.
        "at_get": {"versioned_save": VERSION_AT_GET, "catch_notes_bug": NOT_PLUGGED,
                   "fixed_cell": mutated(solutions["fixed_cell"], DATA_FIX)},
        # Swapped versions and "output 0"; plugged after the forward; y1 after the step.
        "message": {"versioned_save": mutated(solutions["versioned_save"], SWAPPED_VERSIONS,
                                              OUTPUT_0),
                    "catch_notes_bug": PLUGGED_LATE,
                    "fixed_cell": mutated(solutions["fixed_cell"], Y1_AFTER_STEP)},
        # A comparison that never fires; a step that rebinds x. Exercise 1 delegated (its own
        # submission: a wrong exercise 1 must not hide what exercise 2 does).
        "direction": {"versioned_save": mutated(solutions["versioned_save"], WRONG_DIRECTION),
                      "fixed_cell": mutated(solutions["fixed_cell"], REBINDS)},
        "delegates": {"versioned_save": DELEGATES_SAVE},
    }
    release = root.release()
    return {
        student: root.grade(student, edit_cells(
            passify_tests(release) if student == "at_get" else release,
            {**{key: solutions[key] for key in EXERCISES}, **sources}))
        for student, sources in answers.items()
    }


def lost(grades: Grades, *grade_ids: str) -> bool:
    return all(grades.by_grade_id[grade_id] == 0 for grade_id in grade_ids)


def earned(grades: Grades, *grade_ids: str) -> bool:
    return all(grades.by_grade_id[grade_id] > 0 for grade_id in grade_ids)


@pytest.mark.parametrize(("student", "cells"), [
    ("at_get", ["versioned_save_basics", "versioned_save_message", "versioned_save_hidden"]),
    ("direction", ["versioned_save_basics", "versioned_save_message", "versioned_save_hidden"]),
    ("message", ["versioned_save_message", "versioned_save_hidden"]),
])
def test_a_wrong_check_loses_points(submissions: dict[str, Grades], student: str,
                                    cells: list[str]) -> None:
    assert lost(submissions[student], *cells), submissions[student].by_grade_id


def test_passified_test_cells_are_put_back(submissions: dict[str, Grades]) -> None:
    grades = submissions["at_get"]
    assert grades.total < grades.max_total and grades.by_grade_id["fixed_cell_visible"] == 0


def test_delegating_to_minitorch_earns_nothing_on_its_exercise(
        submissions: dict[str, Grades]) -> None:
    """The grading copy's version check is a stand-in without torch's message (REMOVED_SEAMS,
    STAND_INS in course/integrity.py): delegating exercise 1 to it earns none of its points,
    and the other exercises keep theirs."""
    grades = submissions["delegates"]
    assert lost(grades, *EXERCISES["versioned_save"]), (grades.by_grade_id, grades.errors())
    assert "grading copy of minitorch" in grades.errors()
    assert earned(grades, *EXERCISES["catch_notes_bug"], *EXERCISES["fixed_cell"]), (
        grades.by_grade_id, grades.errors())


@pytest.mark.parametrize(("student", "cells"), [
    ("at_get", ["catch_notes_bug_visible", "catch_notes_bug_hidden"]),
    ("message", ["catch_notes_bug_visible", "catch_notes_bug_hidden"]),
])
def test_an_unplugged_or_late_plug_loses_points(submissions: dict[str, Grades], student: str,
                                                cells: list[str]) -> None:
    assert lost(submissions[student], *cells), submissions[student].errors()


def test_exercise_2_does_not_need_exercise_1(submissions: dict[str, Grades]) -> None:
    grades = submissions["direction"]  # a wrong VersionedSave, the solution's catch_notes_bug
    assert earned(grades, *EXERCISES["catch_notes_bug"]), grades.errors()


@pytest.mark.parametrize(("student", "cells"), [
    ("at_get", ["fixed_cell_visible", "fixed_cell_hidden"]),
    ("message", ["fixed_cell_visible", "fixed_cell_hidden"]),
    ("direction", ["fixed_cell_visible", "fixed_cell_hidden"]),
])
def test_a_wrong_fix_loses_points(submissions: dict[str, Grades], student: str,
                                  cells: list[str]) -> None:
    assert lost(submissions[student], *cells), submissions[student].errors()


# ------------------------------------------------------------------ cheats (course/integrity.py)

# Wrong answers for every exercise, failures swallowed, and the checks the tests call patched
# to always agree. (minitorch.checks keeps its own comparison, so the .data fix still
# fails exercise 3's checks in the kernel.)
SWALLOWED = SWALLOW_AND_AGREE + '''

class VersionedSave:
    def __init__(self, tensor):
        self.tensor = tensor

    def get(self):
        return self.tensor
'''
DATA_FIXED_CELL = '''def fixed_cell(x):
    y1 = x**2
    x.data += 1
    with minitorch.no_grad():
        y2 = x**2
    z = y1**2 + y2**2
    z.sum().backward()
    return z
'''
CHEATS = {
    "input-transformer": {"versioned_save": SKIP_LATER_CELLS},
    "swallowed-and-patched": {
        "versioned_save": SWALLOWED,
        "catch_notes_bug": "def catch_notes_bug(saved_class):\n    return None\n",
        "fixed_cell": DATA_FIXED_CELL,
    },
}
TEST_CELLS = [grade_id for cells in EXERCISES.values() for grade_id in cells]


@pytest.mark.parametrize(("name", "unseen"), [
    ("input-transformer", TEST_CELLS),
    # minitorch.checks keeps its own comparison: patching numpy's no longer passes a check
    ("swallowed-and-patched", []),
])
def test_a_cheat_earns_nothing(root: CourseRoot, name: str, unseen: list[str]) -> None:
    grades = root.grade(f"cheat-{name}", edit_cells(root.release(), CHEATS[name]))
    assert grades.total == 0, grades.by_grade_id
    errors = {cell.metadata.nbgrader.grade_id: [out.ename for out in cell.outputs
                                                 if out.output_type == "error"]
              for cell in grade_cells(grades.notebook, tests=True)}
    assert list(errors) == TEST_CELLS and all(
        names[-1:] == ["HiddenCheckFailed"] for names in errors.values()), errors
    # In these cells the kernel reported no failure (nbgrader alone would give the points):
    # only the hidden observations, compared outside the kernel, took them.
    assert all(errors[grade_id] == ["HiddenCheckFailed"] for grade_id in unseen), errors


# Exercise 4's wrong hooks (never removed, not removed when backward raises, the scaled
# gradient returned) are graded with the other wrong answers in test_wrong_answers.py.
