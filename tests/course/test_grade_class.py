"""tools/grade_class.py: a class graded in one run, a student whose notebook kills its kernel
reported and skipped, submissions untouched, and the same scores when graded again."""

import hashlib
from pathlib import Path

import pytest
from grading import CourseRoot, edit_cells, read_grades

from tools import grade_class

pytestmark = [
    pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning"),
    pytest.mark.filterwarnings("ignore::nbformat.validator.MissingIDFieldWarning"),
]
DEMO = Path(__file__).parent / "fixtures" / "00_demo.py"


def _digest(folder: Path) -> str:
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    return hashlib.sha256(b"".join(p.read_bytes() for p in files)).hexdigest()


@pytest.mark.slow  # six autogrades, each in its own process
def test_a_class_in_one_run(tmp_path: Path, capsys: pytest.CaptureFixture,
                            monkeypatch: pytest.MonkeyPatch) -> None:
    root = CourseRoot(tmp_path, DEMO)
    kill = {"square": "import os\nos._exit(0)"}
    zero_mean = {"mean": "def mean(xs):\n    return 0"}
    for student, nb in [("alice", root.solution()), ("carol", edit_cells(root.release(), kill)),
                        ("dave", edit_cells(root.solution(), zero_mean))]:
        root.submit(student, nb)
    before = _digest(tmp_path / "submitted")
    monkeypatch.chdir(tmp_path)

    assert grade_class.main(["00_demo"]) == 1  # carol could not be graded
    out = capsys.readouterr().out
    assert "[1/3] alice: graded" in out and "[2/3] carol: FAILED" in out
    assert "2 of 3 graded." in out and "not graded: carol" in out
    first = read_grades(tmp_path)
    assert {k: v for k, v in first.items() if k[0] != "carol"} == {
        ("alice", "00_demo"): 4, ("dave", "00_demo"): 2}

    assert grade_class.main(["00_demo", "--force"]) == 1
    assert read_grades(tmp_path) == first
    assert _digest(tmp_path / "submitted") == before
