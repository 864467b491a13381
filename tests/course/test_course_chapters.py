"""Every chapter in solutions/: its committed release is current, and nbgrader grades it
right (the solution earns full marks, the untouched release 0)."""

import subprocess
import sys
from pathlib import Path

import pytest
from grading import CourseRoot, grade_cells

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
def test_solution_full_marks_release_zero(assignment_id: str, tmp_path: Path) -> None:
    root = CourseRoot(tmp_path, CHAPTERS[assignment_id])
    assert grade_cells(root.solution(), tests=True), "a chapter needs graded test cells"
    solution = root.grade("solution", root.solution())
    assert solution.total == solution.max_total > 0, solution.errors()
    release = root.grade("release", root.release())
    assert release.total == 0, release.by_grade_id
    # What a student sees: the release fails every test cell, even before hidden tests return.
    assert root.validate("release", invert=True) == {}


def test_check_command_passes_on_the_repository() -> None:
    done = subprocess.run([sys.executable, str(REPO / "tools" / "build_course.py"), "--check"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
