"""nbgrader grades the course's way: proven on a two-exercise demo assignment.

The demo (tests/course/fixtures/00_demo.py) has exercises `square` and `mean`, each worth
2 points split over a visible and a hidden test cell, a data file, and a library call that
warns inside a graded cell, as minitorch does where torch does.
"""

import re
import sys
from html import unescape
from pathlib import Path

import nbformat
import pytest
from grading import CourseRoot, delete_cells, edit_cells, grade_cells, passify_tests
from nbclient import NotebookClient

from course.integrity import HIDDEN_FAILURE

# nbgrader's own: its gradebook session warns, and the test cells it puts back have no id.
pytestmark = [
    pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning"),
    pytest.mark.filterwarnings("ignore::nbformat.validator.MissingIDFieldWarning"),
]

DEMO = Path(__file__).parent / "fixtures" / "00_demo.py"
FULL = {"square_visible": 1, "square_hidden": 1, "mean_visible": 1, "mean_hidden": 1}
SQUARE_LOST = {"square_visible": 0, "square_hidden": 0}
MEAN_LOST = {"mean_visible": 0, "mean_hidden": 0}
RESET_WARNINGS = "import warnings\nwarnings.resetwarnings()\n\ndef square(x):\n    return x * x"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> CourseRoot:
    return CourseRoot(tmp_path_factory.mktemp("demo"), DEMO)


def _stderr(nb: nbformat.NotebookNode) -> str:
    return "".join(
        output.text
        for cell in nb.cells
        for output in cell.get("outputs", [])
        if output.output_type == "stream" and output.name == "stderr"
    )


def test_kernel_is_this_interpreter() -> None:
    # Autograde runs the notebook's kernelspec, python3: it must be the venv's Python.
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import sys; sys.executable")])
    nb.metadata.kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    NotebookClient(nb, timeout=60).execute()
    assert nb.cells[0].outputs[0].data["text/plain"] == repr(sys.executable)


def test_release_hides_solutions_and_hidden_tests(demo: CourseRoot) -> None:
    text = nbformat.writes(demo.release())
    for secret in ("BEGIN SOLUTION", "return x * x", "BEGIN HIDDEN TESTS", "square(-2)"):
        assert secret not in text
    assert "raise NotImplementedError()" in text


def test_validate_passes_the_solution_and_fails_every_test_of_the_release(
    demo: CourseRoot,
) -> None:
    assert demo.validate("source") == {}
    assert demo.validate("release", invert=True) == {}


def test_solution_gets_full_marks_despite_stderr_in_ungraded_cells(demo: CourseRoot) -> None:
    grades = demo.grade("solution", demo.solution())
    assert (grades.total, grades.max_total) == (4, 4), grades.errors()
    assert grades.by_grade_id == FULL
    assert "a message on stderr, in an ungraded cell" in _stderr(grades.notebook)


def test_untouched_release_gets_zero(demo: CourseRoot) -> None:
    grades = demo.grade("release", demo.release())
    assert grades.by_grade_id == dict.fromkeys(FULL, 0)
    assert "NotImplementedError" in grades.errors()


@pytest.mark.parametrize(
    ("submission", "expected"),
    [("release", dict.fromkeys(FULL, 0)), ("solution", FULL)],
)
def test_test_cells_edited_to_pass_are_restored(
    demo: CourseRoot, submission: str, expected: dict
) -> None:
    nb = demo.release() if submission == "release" else demo.solution()
    grades = demo.grade(f"passified-{submission}", passify_tests(nb))
    assert grades.by_grade_id == expected
    restored = {c.metadata.nbgrader.grade_id: c.source
                for c in grade_cells(grades.notebook, tests=True)}
    assert "assert square(-2) == 4" in restored["square_hidden"]


@pytest.mark.parametrize(
    ("grade_id", "answer", "expected"),
    [
        ("square", "def square(x):\n    return x * 2", SQUARE_LOST),
        ("square", "def square(x):\n    return abs(x) * x", {"square_hidden": 0}),
        ("mean", "def mean(xs):\n    return sum(xs) // len(xs)", {"mean_hidden": 0}),
        ("mean", "def mean(xs):\n    return sum(xs) / (len(xs) - 1)", MEAN_LOST),
    ],
    ids=["square-doubles", "square-abs", "mean-floor", "mean-off-by-one"],
)
def test_wrong_answer_loses_its_exercise_points(
    demo: CourseRoot, grade_id: str, answer: str, expected: dict
) -> None:
    grades = demo.grade(f"wrong-{grade_id}", edit_cells(demo.solution(), {grade_id: answer}))
    assert grades.by_grade_id == {**FULL, **expected}


@pytest.mark.parametrize(
    ("answer", "total"),
    [(None, 4), ("def square(x):\n    return 2 * x", 2)],
    ids=["solution", "wrong-square"],
)
def test_deleted_test_cell_is_put_back_and_run(
    demo: CourseRoot, answer: str | None, total: int
) -> None:
    nb = demo.solution() if answer is None else edit_cells(demo.solution(), {"square": answer})
    grades = demo.grade(f"deleted-{total}", delete_cells(nb, ["square_visible", "square_hidden"]))
    assert grades.total == total
    assert None not in grades.by_grade_id.values()


@pytest.mark.parametrize(
    ("answer", "ignore_pattern", "square_visible"),
    [
        ("def square(x):\n    return x * x", False, 1),  # the set-up cell's filter alone
        (RESET_WARNINGS, True, 1),  # the student reset the filter: IgnorePattern alone
        (RESET_WARNINGS, False, 0),  # neither: the warning zeroes a right answer
    ],
    ids=["setup-filter", "ignore-pattern", "unprotected"],
)
def test_warnings_in_graded_cells(
    demo: CourseRoot, answer: str, ignore_pattern: bool, square_visible: int
) -> None:
    config = {"IgnorePattern": {"enabled": ignore_pattern}}
    nb = edit_cells(demo.solution(), {"square": answer})
    grades = demo.grade(f"warn-{ignore_pattern}-{square_visible}", nb, config)
    assert grades.by_grade_id == {**FULL, "square_visible": square_visible}
    warned = "UserWarning: library_call always warns" in _stderr(grades.notebook)
    assert warned == (square_visible == 0)


def test_infinite_loop_times_out_and_grading_goes_on(demo: CourseRoot) -> None:
    nb = edit_cells(demo.solution(), {"square": "def square(x):\n    while True:\n        pass"})
    grades = demo.grade("loops", nb, {"Execute": {"timeout": 3}})
    assert grades.by_grade_id == {**FULL, **SQUARE_LOST}
    assert "CellTimeoutError" in grades.errors()


def test_feedback_hides_the_hidden_tests(demo: CourseRoot) -> None:
    # A wrong square fails its visible test; a wrong mean passes the visible test (mean([1, 2,
    # 3]) == 2) and fails only hidden ones, whose code and message must not reach the student.
    wrong = {"square": "def square(x):\n    return x + x",
             "mean": "def mean(xs):\n    return xs[len(xs) // 2]"}
    grades = demo.grade("hedda", edit_cells(demo.release(), wrong))
    assert grades.by_grade_id["mean_visible"] == 1 and grades.by_grade_id["mean_hidden"] == 0
    html = unescape(re.sub(r"<[^>]+>", "", demo.feedback("hedda")))  # the text a student reads
    for secret in ("square(-2)", "mean(values)", "== 2.5", "BEGIN HIDDEN TESTS"):
        assert secret not in html, secret
    assert HIDDEN_FAILURE in html
    assert "square(3) == 9" in html  # the visible test that failed is still shown
