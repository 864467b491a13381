"""Every chapter in solutions/: its committed release is current, and nbgrader grades every
chapter right, all together in one instructor root. (Each chapter alone, its solution, release
and wrong answers in one run: test_wrong_answers.py.)"""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from grading import grade_cells, nbgrader, read_grades
from nbgrader.api import Gradebook

from tools.build_course import (
    CONFIG_NAME,
    COURSE,
    REPO,
    SOLUTIONS,
    assignment_folders,
    course_files,
    find_sources,
    read_source,
    release_files,
)

pytestmark = [
    pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning"),
    pytest.mark.filterwarnings("ignore::nbformat.validator.MissingIDFieldWarning"),
]

CHAPTERS = find_sources(SOLUTIONS)
chapters = pytest.mark.parametrize(
    "assignment_id",
    list(CHAPTERS)
    or [pytest.param(None, marks=pytest.mark.skip(reason="no chapter in solutions/ yet"))],
)


def test_every_release_has_a_source() -> None:
    assert sorted(set(assignment_folders(COURSE)) - set(CHAPTERS)) == []


@chapters
def test_release_is_up_to_date(assignment_id: str) -> None:
    expected = release_files({assignment_id: CHAPTERS[assignment_id]}, COURSE / CONFIG_NAME)
    assert course_files(COURSE, [assignment_id]) == expected, (
        f"course/{assignment_id} is stale: run `python tools/build_course.py {assignment_id}`"
    )


@chapters
def test_starts_with_the_locked_setup_cell(assignment_id: str) -> None:
    # The course's convention that keeps warnings out of graded cells (course/README.md).
    code = [cell for cell in read_source(CHAPTERS[assignment_id]).cells
            if cell.cell_type == "code"]
    setup = code[0].metadata.get("nbgrader", {})
    assert (setup.get("grade_id"), setup.get("locked")) == ("setup", True)
    assert "NBGRADER_EXECUTION" in code[0].source and "warnings" in code[0].source


@chapters
def test_every_test_cell_observes_in_hidden_tests(assignment_id: str) -> None:
    # The grader compares hidden observations outside the student's kernel (course/README.md,
    # "What autograding defends against"): a test cell without them could be talked round.
    blind = []
    for cell in grade_cells(read_source(CHAPTERS[assignment_id]), tests=True):
        hidden = cell.source.partition("### BEGIN HIDDEN TESTS")[2]
        if "observe(" not in hidden.partition("### END HIDDEN TESTS")[0]:
            blind.append(cell.metadata.nbgrader.grade_id)
    assert blind == [], f"test cells with no hidden observe(...): {blind}"


def test_check_command_passes_on_the_repository() -> None:
    done = subprocess.run([sys.executable, str(REPO / "tools" / "build_course.py"), "--check"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow  # every chapter generated, autograded twice and exported: about a minute
@pytest.mark.skipif(not CHAPTERS, reason="no chapter in solutions/ yet")
def test_every_chapter_in_one_instructor_root(tmp_path: Path) -> None:
    """The instructor's whole round trip of course/README.md, all chapters in one root:
    alice hands in every solution notebook, bob every untouched release."""
    root = tmp_path / "class"
    build = [sys.executable, str(REPO / "tools" / "build_course.py"), "--instructor-root"]
    subprocess.run([*build, str(root)], check=True, capture_output=True, timeout=600)
    expected = {}
    for assignment_id in CHAPTERS:
        nbgrader(root, "generate_assignment", assignment_id)
        for student, step in (("alice", "source"), ("bob", "release")):
            folder = root / "submitted" / student / assignment_id
            shutil.copytree(root / step / assignment_id, folder)
        nbgrader(root, "autograde", assignment_id)
        expected[("bob", assignment_id)] = 0.0
    grades = read_grades(root)
    assert {key: score for key, score in grades.items() if key[0] == "bob"} == expected
    for assignment_id in CHAPTERS:
        assert grades[("alice", assignment_id)] > 0
        assert grades[("alice", assignment_id)] == _max_score(root, assignment_id)


def _max_score(root: Path, assignment_id: str) -> float:
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gradebook:
        return gradebook.find_assignment(assignment_id).max_score
