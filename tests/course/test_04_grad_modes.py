"""Chapter 04_grad_modes: the grad-mode seam (``grad_mode.use``, ``grad_mode.set_state``),
the prediction table checked against live torch, and nbgrader grading wrong answers down.

The autograded submissions (few, as each costs seconds) each carry one plausible wrong answer
for every exercise at once; a fourth delegates exercise 1 to minitorch's own grad mode; two
more cheat (course/integrity.py): one rewrites every later cell into ``pass``, one swallows
every failure and makes the checks agree. They are graded in one test, so that pytest-xdist
does not grade them once per worker.
"""

from __future__ import annotations

import ast
import doctest
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

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
from minitorch.autograd import grad_mode
from tools.build_course import SOLUTIONS, read_source

pytestmark = [
    pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning"),
    pytest.mark.filterwarnings("ignore::nbformat.validator.MissingIDFieldWarning"),
]

SOURCE = SOLUTIONS / "04_grad_modes.py"
EXERCISES = {
    "grad_modes": ["grad_modes_visible", "grad_modes_errors", "grad_modes_threads"],
    "freeze": ["freeze_visible", "freeze_hidden"],
    "predictions": ["predictions_visible", "predictions_hidden"],
}
GRADE_IDS = [grade_id for ids in EXERCISES.values() for grade_id in ids]


class Mode(threading.local):
    """A student's state as the exercise asks for it: only ``grad_enabled``."""

    grad_enabled = True


@pytest.fixture(autouse=True)
def _default_modes() -> Any:
    yield
    course.reset()
    assert minitorch.is_grad_enabled() and not minitorch.is_inference_mode_enabled()


# ------------------------------------------------------------------ the seam


def test_use_makes_minitorch_read_and_write_the_plugged_state() -> None:
    mine = Mode()
    x = minitorch.tensor([1.0, 2.0], requires_grad=True)
    with grad_mode.use(mine):
        mine.grad_enabled = False
        assert not (x * 2).requires_grad and not minitorch.is_grad_enabled()
        mine.grad_enabled = True
        with minitorch.no_grad():  # the reference writes into the plugged state
            assert mine.grad_enabled is False
            y = x * 2
        (x * x).sum().backward()  # the engine's own switching goes through it too
        assert mine.grad_enabled is True
    assert not y.requires_grad and x.grad.tolist() == [2.0, 4.0]
    assert minitorch.is_grad_enabled() and grad_mode._state is not mine


def test_use_keeps_inference_per_thread_beside_a_grad_only_state() -> None:
    mine = Mode()
    with grad_mode.use(mine):
        with minitorch.inference_mode():
            assert (mine.grad_enabled, minitorch.is_inference_mode_enabled()) == (False, True)
            assert minitorch.ones(1).is_inference()
        assert (mine.grad_enabled, minitorch.is_inference_mode_enabled()) == (True, False)


def test_a_state_with_inference_is_plugged_as_it_is() -> None:
    class Full(threading.local):
        grad_enabled = True
        inference = False

    full = Full()
    with grad_mode.use(full) as plugged:
        assert plugged is full is grad_mode._state
    assert grad_mode._state is not full


def test_use_restores_on_error_and_on_reset() -> None:
    reference = grad_mode._state
    with pytest.raises(ZeroDivisionError), grad_mode.use(Mode()):
        1 / 0
    assert grad_mode._state is reference
    grad_mode.use(Mode()).__enter__()  # a cell that never left the block
    course.reset()
    assert grad_mode._state is reference


@pytest.mark.parametrize(("state", "message"), [
    (object(), "needs a state with a grad_enabled attribute"),
    (type("Shared", (), {"grad_enabled": True})(), "changed it in this one"),
    (type("Off", (threading.local,), {"grad_enabled": False})(), "must start with grad_enabled"),
], ids=["no attribute", "shared between threads", "new threads start off"])
def test_use_refuses_what_minitorch_cannot_use(state: Any, message: str) -> None:
    before, reference = getattr(state, "grad_enabled", None), grad_mode._state
    with pytest.raises(TypeError, match=message), grad_mode.use(state):
        pass
    assert getattr(state, "grad_enabled", None) is before  # the probe put a shared value back
    assert grad_mode._state is reference


def test_use_refuses_a_plain_local_set_once() -> None:
    state = threading.local()
    state.grad_enabled = True  # other threads see no attribute at all
    with pytest.raises(TypeError, match="sees None"), grad_mode.use(state):
        pass


@pytest.mark.parametrize("enter", [
    lambda: minitorch.no_grad(),
    lambda: minitorch.enable_grad(),
    lambda: minitorch.inference_mode(),
    lambda: minitorch.set_grad_enabled(False),
], ids=["no_grad", "enable_grad", "inference_mode", "set_grad_enabled"])
def test_switched_off_stops_every_reference_context_manager(enter: Callable[[], Any]) -> None:
    kept = grad_mode.set_state
    x = minitorch.tensor([3.0], requires_grad=True)
    with course.switched_off("grad_mode.set_state"):
        with pytest.raises(course.SwitchedOff), enter():
            pass
        with pytest.raises(course.SwitchedOff):
            kept(False, False)
        (x * x).backward()  # operations and backward do not need the switch
    assert x.grad.tolist() == [6.0] and minitorch.is_grad_enabled()
    with minitorch.no_grad():  # back on after the block
        assert not minitorch.is_grad_enabled()


def test_plugged_set_state_is_what_the_context_managers_call() -> None:
    calls = []

    def spy(grad_enabled: bool, inference: bool) -> None:
        calls.append((grad_enabled, inference))
        course.reference(grad_mode, "set_state")(grad_enabled, inference)

    with course.plug(grad_mode, "set_state", spy), minitorch.no_grad():
        pass
    assert calls == [(False, False), (True, False)]


def test_grad_mode_doctests() -> None:
    result = doctest.testmod(grad_mode, extraglobs={"minitorch": minitorch})
    assert result.failed == 0 and result.attempted > 10


def test_inference_mode_false_is_plain_grad_mode_like_torch() -> None:
    for L in (torch, minitorch):
        with L.no_grad(), L.inference_mode(False):
            assert (L.is_grad_enabled(), L.is_inference_mode_enabled()) == (True, False)
        assert L.is_grad_enabled()


# ------------------------------------------------------------------ exercise 3's constants


def _cells() -> list[str]:
    return [cell.source for cell in read_source(SOURCE).cells if cell.cell_type == "code"]


def _rows() -> dict[str, str]:
    (cell,) = [source for source in _cells() if "\nROWS = {" in source]
    namespace: dict[str, Any] = {"threading": threading, "print": lambda *args: None}
    exec(cell, namespace)
    return namespace["ROWS"]


def _dict_literal(name: str, cell: str) -> dict[str, bool]:
    match = re.search(rf"^{name} = (\{{.*?\n\}})", cell, re.M | re.S)
    assert match, f"no {name} literal"
    return ast.literal_eval(match.group(1))


def expected_table() -> dict[str, bool]:
    """The solution's predictions: what the grader expects (hidden tests hold no answers)."""
    (cell,) = [source for source in _cells() if "\npredictions = {" in source]
    return _dict_literal("predictions", cell)


def run_row(L: Any, code: str) -> bool:
    """``out.requires_grad`` after ``code`` runs with library ``L`` as the exercise says."""

    def in_thread(f: Callable[[], Any]) -> Any:
        result = []
        thread = threading.Thread(target=lambda: result.append(f()))
        thread.start()
        thread.join()
        return result[0]

    namespace = {
        "minitorch": L, "x": L.tensor([1.0], requires_grad=True), "model": L.nn.Linear(1, 1),
        "inp": L.ones(1, 1), "in_thread": in_thread, "no_grad": L.no_grad,
        "enable_grad": L.enable_grad, "set_grad_enabled": L.set_grad_enabled,
        "inference_mode": L.inference_mode,
    }
    exec(code, namespace)
    return namespace["out"].requires_grad


@pytest.mark.parametrize("L", [torch, minitorch], ids=["torch", "minitorch"])
def test_hidden_constants_are_what_the_library_does(L: Any) -> None:
    rows = _rows()
    expected = expected_table()
    assert sorted(rows) == sorted(expected)
    assert {key: run_row(L, code) for key, code in rows.items()} == expected


# ------------------------------------------------------------------ grading

GLOBAL_FLAG = ("class GradState(threading.local):", "class GradState:")
MODE_AT_DECORATION = (
    "        mode = self.mode\n\n        def run_in_mode(*args, **kwargs):\n"
    "            saved = grad_state.grad_enabled\n",
    "        mode = self.mode\n        saved = grad_state.grad_enabled\n\n"
    "        def run_in_mode(*args, **kwargs):\n",
)
NO_RESTORE_ON_ERROR = '''import contextlib


class GradState(threading.local):
    grad_enabled = True


grad_state = GradState()


@contextlib.contextmanager
def _mode(mode):
    saved = grad_state.grad_enabled
    grad_state.grad_enabled = mode
    yield
    grad_state.grad_enabled = saved


def no_grad():
    return _mode(False)


def enable_grad():
    return _mode(True)


class set_grad_enabled:
    def __init__(self, mode):
        self.mode, self.saved = mode, grad_state.grad_enabled
        grad_state.grad_enabled = mode

    def __enter__(self):
        pass

    def __exit__(self, *exc_info):
        grad_state.grad_enabled = self.saved

    def __call__(self, func):
        grad_state.grad_enabled = self.saved
        return _mode(self.mode)(func)
'''
DELEGATES = '''from minitorch.autograd import grad_mode as _grad_mode

_kept = _grad_mode.set_state


class GradState(threading.local):
    @property
    def grad_enabled(self):
        return minitorch.is_grad_enabled()

    @grad_enabled.setter
    def grad_enabled(self, mode):
        _kept(bool(mode), minitorch.is_inference_mode_enabled())


grad_state = GradState()
no_grad, enable_grad = minitorch.no_grad, minitorch.enable_grad
set_grad_enabled = minitorch.set_grad_enabled
'''
ZEROES_GRADS = '''def freeze(model, names):
    for pname, p in model.named_parameters():
        if any(pname == name or pname.startswith(name + ".") for name in names):
            p.grad = minitorch.zeros_like(p)
    return [pname for pname, p in model.named_parameters() if p.grad is None]
'''
PREFIX_MATCH = ('pname == name or pname.startswith(name + ".")', "pname.startswith(name)")
MODULES_ONLY = '''def freeze(model, names):
    modules = dict(model.named_modules())
    for name in names:
        modules[name].requires_grad_(False)
    return [pname for pname, p in model.named_parameters() if p.requires_grad]
'''


# Cheats that solve nothing; the hidden observations, compared outside the kernel, catch them.
SWALLOWS_AND_AGREES = SWALLOW_AND_AGREE + '''

class GradState:
    grad_enabled = True


grad_state = GradState()


class no_grad:
    def __init__(self, mode=None):
        pass

    def __enter__(self):
        pass

    def __exit__(self, *exc_info):
        pass

    def __call__(self, func):
        return func


enable_grad = set_grad_enabled = no_grad
'''
FREEZES_NOTHING = '''def freeze(model, names):
    return [pname for pname, p in model.named_parameters()]
'''
PREDICTS_TRUE = "predictions = dict.fromkeys(ROWS, True)\n"


def mutated(solution: str, change: tuple[str, str]) -> str:
    old, new = change
    assert solution.count(old) == 1, old
    return solution.replace(old, new)


def prediction(key: str, value: bool) -> tuple[str, str]:
    return f'"{key}": {not value},', f'"{key}": {value},'


def answers(solutions: dict[str, str]) -> dict[str, dict[str, str]]:
    """Each submission: one wrong answer per exercise (the delegating one answers only 1, the
    cheats answer nothing right)."""
    return {
        # A global flag, freezing by zeroing grads, "eval() turns grad off".
        "global": {"grad_modes": mutated(solutions["grad_modes"], GLOBAL_FLAG),
                   "freeze": ZEROES_GRADS,
                   "predictions": mutated(solutions["predictions"], prediction("k", False))},
        # No restore on an exception, a prefix that freezes "10" with "1", "no_grad is global".
        "no_finally": {"grad_modes": NO_RESTORE_ON_ERROR,
                       "freeze": mutated(solutions["freeze"], PREFIX_MATCH),
                       "predictions": mutated(solutions["predictions"], prediction("j", False))},
        # The decorator reads the mode to restore when decorating; freezing only submodules;
        # "inference_mode(False) leaves the mode alone".
        "decoration_time": {
            "grad_modes": mutated(solutions["grad_modes"], MODE_AT_DECORATION),
            "freeze": MODULES_ONLY,
            "predictions": mutated(solutions["predictions"], prediction("i", False))},
        "delegates": {"grad_modes": DELEGATES},
        "cheat_rewrites": {"grad_modes": SKIP_LATER_CELLS},
        "cheat_swallows": {"grad_modes": SWALLOWS_AND_AGREES, "freeze": FREEZES_NOTHING,
                           "predictions": PREDICTS_TRUE},
    }


# Every wrong answer loses points on its own exercise, and only there: each test cell starts
# with grad mode on, so a grad mode left off by a failed restore costs only its own cell.
EXPECTED_SCORES = {
    "global": {"grad_modes_visible": 2, "grad_modes_errors": 2, "grad_modes_threads": 0,
               "freeze_visible": 0, "freeze_hidden": 0,
               "predictions_visible": 1, "predictions_hidden": 0},
    "no_finally": {"grad_modes_visible": 2, "grad_modes_errors": 0, "grad_modes_threads": 2,
                   "freeze_visible": 2, "freeze_hidden": 0,
                   "predictions_visible": 1, "predictions_hidden": 0},
    "decoration_time": {"grad_modes_visible": 2, "grad_modes_errors": 0,
                        "grad_modes_threads": 2, "freeze_visible": 2, "freeze_hidden": 0,
                        "predictions_visible": 1, "predictions_hidden": 0},
    # minitorch's context managers have no code in the grading copy: nothing to delegate to.
    "delegates": {"grad_modes_visible": 0, "grad_modes_errors": 0, "grad_modes_threads": 0,
                  "freeze_visible": 0, "freeze_hidden": 0,
                  "predictions_visible": 0, "predictions_hidden": 0},
    # The cheats pass every check inside the kernel, and earn nothing.
    "cheat_rewrites": dict.fromkeys(GRADE_IDS, 0),
    "cheat_swallows": dict.fromkeys(GRADE_IDS, 0),
}


def errors_by_test_cell(grades: Grades) -> dict[str, list[str]]:
    """The names of the errors each graded test cell shows."""
    return {cell.metadata.nbgrader.grade_id: [output.ename for output in cell.outputs
                                              if output.output_type == "error"]
            for cell in grade_cells(grades.notebook, tests=True)}


def story_text(grades: Grades) -> str:
    return "".join(output.get("text", "") for cell in grades.notebook.cells
                   for output in cell.get("outputs", []))


def test_wrong_answers_and_cheats_lose_points(tmp_path: Path) -> None:
    # One test, so that pytest-xdist grades each submission once.
    root = CourseRoot(tmp_path, SOURCE)
    solutions = {cell.metadata.nbgrader.grade_id: cell.source
                 for cell in grade_cells(root.solution(), tests=False)}
    release = root.release()
    graded = {}
    for student, sources in answers(solutions).items():
        # The first submission also turns every test cell into `pass`: nbgrader restores them.
        base = passify_tests(release) if not graded else release
        graded[student] = root.grade(student, edit_cells(base, sources))
    scores = {student: grades.by_grade_id for student, grades in graded.items()}
    assert scores == EXPECTED_SCORES, {s: g.errors() for s, g in graded.items()}
    assert "SwitchedOff" in graded["delegates"].errors()
    # Caught outside the kernel: the rewritten cells failed nothing inside it (ipykernel still
    # reports the errors that set_custom_exc swallows; the comparison does not need it to).
    caught = {grade_id: ["HiddenCheckFailed"] for grade_id in GRADE_IDS}
    assert errors_by_test_cell(graded["cheat_rewrites"]) == caught
    swallowed = errors_by_test_cell(graded["cheat_swallows"])
    assert {grade_id: names[-1:] for grade_id, names in swallowed.items()} == caught

    # The story cells run on: those on minitorch's own context managers stop at the grading
    # copy's gap (SwitchedOff, shown as a one-line note in the feedback), the rest print.
    text = story_text(graded["no_finally"])
    assert "Only Tensors of floating point" in text
    assert "under your no_grad: False |" in text  # their state, plugged in
    stopped = [output.ename for cell in graded["no_finally"].notebook.cells
               if not cell.metadata.get("nbgrader", {}).get("grade")
               for output in cell.get("outputs", []) if output.output_type == "error"]
    assert stopped and set(stopped) <= {"SwitchedOff", "RuntimeError"}, stopped


def test_every_exercise_is_graded_here() -> None:
    cells = [cell.metadata.get("nbgrader", {}) for cell in read_source(SOURCE).cells]
    tests = {meta["grade_id"] for meta in cells if meta.get("grade")}
    assert tests == set(GRADE_IDS)
    assert {meta["grade_id"] for meta in cells if meta.get("solution")} == set(EXERCISES)
