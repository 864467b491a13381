"""tools/grade_class.py: a class graded in one command, in parallel, with a truthful status for
every student (graded, crashed, timed out, not submitted, not collected, skipped), a gate that
refuses a broken assignment, the class report and the LMS exports."""

import csv
import doctest
import hashlib
import shutil
from pathlib import Path

import nbformat
import pytest
from grading import CourseRoot, delete_cells, edit_cells, nbgrader
from nbgrader.api import Gradebook

from tools import grade_class
from tools.build_course import CONFIG_NAME, COURSE, PLUGINS

pytestmark = [
    pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning"),
    pytest.mark.filterwarnings("ignore::nbformat.validator.MissingIDFieldWarning"),
]
DEMO = Path(__file__).parent / "fixtures" / "00_demo.py"


def _digest(folder: Path) -> str:
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    return hashlib.sha256(b"".join(p.read_bytes() for p in files)).hexdigest()


def _root(tmp_path: Path, timeout: int = 5) -> CourseRoot:
    """A demo course root configured as a real one: the course's nbgrader_config.py beside
    its plug-ins, with a short cell timeout."""
    root = CourseRoot(tmp_path, DEMO)
    for name in (CONFIG_NAME, *PLUGINS):
        shutil.copy(COURSE / name, tmp_path / name)
    with open(tmp_path / CONFIG_NAME, "a") as file:
        file.write(f"\nc.Execute.timeout = {timeout}\n")
    return root


def _csv(path: Path) -> list[list[str]]:
    with open(path, newline="") as file:
        return list(csv.reader(file))


@pytest.mark.slow  # five autogrades, two at a time, plus the gate's two runs
def test_a_class_in_one_command(tmp_path: Path, capsys: pytest.CaptureFixture,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    root = _root(tmp_path)
    kill_after_square = {"square": "def square(x):\n    return x * x\nimport os\nos._exit(0)"}
    loop = {"mean": "while True:\n    pass"}
    for student, nb in [("alice", root.solution()), ("bob", edit_cells(root.solution(),
                        kill_after_square)), ("carol", edit_cells(root.solution(), loop)),
                        ("dave", root.release())]:
        root.submit(student, nb)
    misnamed = tmp_path / "downloaded" / "00_demo" / "archive" / "erin" / "00_demo (1).ipynb"
    misnamed.parent.mkdir(parents=True)
    nbformat.write(root.solution(), misnamed)
    with Gradebook(f"sqlite:///{tmp_path}/gradebook.db") as gradebook:
        gradebook.add_student("frank")
    before = _digest(tmp_path / "submitted")
    monkeypatch.chdir(tmp_path)

    assert grade_class.main(["00_demo", "-j", "2"]) == 1  # bob, carol and erin need a look
    out = capsys.readouterr().out
    lines = {line.split()[0]: line for line in out.splitlines()[1:7]}
    assert lines["alice"].split()[2:] == ["4/4", "graded"]
    # bob's kernel died after square's cell: square scores 0, but the fresh kernel replays
    # the set-up cell (numpy, math) so that mean's tests pass
    assert lines["bob"].split()[2:] == ["2/4", "crashed", "at", "cell", "5", "(square)"]
    assert lines["carol"].split()[2:] == ["2/4", "timed", "out", "at", "cell", "10", "(mean)"]
    assert lines["dave"].split()[2:] == ["0/4", "graded"]
    assert "'00_demo (1).ipynb' is not named 00_demo.ipynb" in lines["erin"]
    assert lines["erin"].split()[2:5] == ["-", "not", "collected"]
    assert lines["frank"].split()[2:] == ["-", "not", "submitted"]
    tallies = {line.split()[0]: line.split()[1:5] for line in out.splitlines()
               if line.startswith("00_demo/")}  # full, partial, zero, no score
    assert tallies == {"00_demo/square": ["2", "0", "2", "2"],
                       "00_demo/mean": ["2", "0", "2", "2"]}
    assert _digest(tmp_path / "submitted") == before

    wide = {row[0]: row[1:] for row in _csv(tmp_path / "grades.csv")}
    assert wide["student_id"][:4] == ["00_demo", "00_demo status", "00_demo/square",
                                      "00_demo/mean"]
    assert wide["frank"][0] == "not submitted" and wide["dave"][0] == "0"
    canvas = _csv(tmp_path / "grades_canvas.csv")  # no "(4)": Canvas reads it as an id
    assert canvas[0][3:] == ["SIS Login ID", "Section", "00_demo"]
    assert canvas[1][0].strip() == "Points Possible" and canvas[1][5] == "4"
    assert {row[0]: row[1] for row in _csv(tmp_path / "grades_moodle.csv")}["frank"] == ""
    report = (tmp_path / "class_report.html").read_text()
    assert "<td>00_demo/square</td><td>2</td><td>2</td><td>0</td><td>2</td>" in report
    assert "1&times; NameError: name &#x27;square&#x27; is not defined" in report  # bob
    assert (tmp_path / "feedback" / "alice" / "00_demo" / "00_demo.html").exists()

    assert grade_class.main(["00_demo"]) == 1  # erin is still not collected
    out = capsys.readouterr().out
    assert "alice   00_demo    4/4   skipped already graded (graded)" in out
    assert "bob     00_demo    2/4   skipped already graded (crashed at cell 5 (square))" in out


@pytest.mark.slow  # the gate's two runs and one autograde
def test_after_a_crash_the_ordinary_cells_are_replayed_too(
        tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """A chapter's ordinary cells (03 imports minitorch and numpy in them) are state that later
    answers rely on: a crash must not cost the answers that use them."""
    root = _root(tmp_path)
    nb = edit_cells(root.solution(), {
        "square": "def square(x):\n    return x * x\nimport os\nos._exit(1)",
        "mean": "def mean(xs):\n    return one * sum(xs) / len(xs)"})
    nb.cells.insert(1, nbformat.v4.new_code_cell("one = 1"))  # ordinary: no nbgrader metadata
    root.submit("bob", nb)
    monkeypatch.chdir(tmp_path)

    assert grade_class.main(["00_demo"]) == 1
    assert "bob     00_demo    2/4   crashed at cell 6 (square)" in capsys.readouterr().out


@pytest.mark.slow  # the gate's two runs and two autogrades
def test_a_submission_nbgrader_cannot_grade_is_reported_and_the_rest_is_graded(
        tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _root(tmp_path)
    root.submit("alice", root.solution())
    root.submit("bob", root.solution())
    (tmp_path / "submitted" / "bob" / "00_demo" / "00_demo.ipynb").write_text('{"cells": [')
    root.submit("carol", delete_cells(root.solution(), ["square", "square_visible"]))
    misnamed = tmp_path / "submitted" / "dave" / "00_demo" / "00_demo (1).ipynb"
    misnamed.parent.mkdir(parents=True)
    nbformat.write(root.solution(), misnamed)
    monkeypatch.chdir(tmp_path)

    assert grade_class.main(["00_demo", "-j", "2"]) == 1
    out = capsys.readouterr().out
    lines = {line.split()[0]: " ".join(line.split()[2:]) for line in out.splitlines()[1:5]}
    assert lines == {
        "alice": "4/4 graded",
        "bob": "- grader failed 00_demo.ipynb is not a notebook (NotJSONError: Notebook does "
               "not appear to be JSON: '{\"cells\": ['): ask the student for the file again",
        "carol": "- grader failed the student deleted cell 'square' and nbgrader cannot put its "
                 "tests back (KeyError: 'square'): paste their answers into a fresh release "
                 "notebook and grade that",
        "dave": "- grader failed no 00_demo.ipynb in the submission (it holds '00_demo "
                "(1).ipynb'): rename the file and run again"}
    assert "3 need a look: bob/00_demo (grader failed), carol/00_demo (grader failed), " \
           "dave/00_demo (grader failed)" in out
    assert {row[0]: row[2] for row in _csv(tmp_path / "grades.csv")}["carol"].startswith(
        "grader failed the student deleted cell 'square'")


@pytest.mark.slow  # the gate runs the solution
def test_the_gate_refuses_a_solution_that_fails_its_own_test(
        tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _root(tmp_path)
    root.submit("alice", root.solution())
    source = tmp_path / "source" / "00_demo" / "00_demo.ipynb"
    nbformat.write(edit_cells(root.solution(), {"mean_hidden": "assert mean([4]) == 5"}), source)
    monkeypatch.chdir(tmp_path)

    assert grade_class.main(["00_demo", "--force"]) == 2
    out = capsys.readouterr().out
    assert "refused to grade: 00_demo: the solution fails test mean_hidden" in out
    assert not (tmp_path / "autograded").exists()


@pytest.mark.slow  # three autogrades on nbgrader's command line
def test_an_honest_run_logs_nothing_that_reads_as_an_error(tmp_path: Path) -> None:
    root = _root(tmp_path)
    root.submit("alice", root.release())  # untouched: its test cells lack the hidden tests
    root.submit("bob", edit_cells(root.solution(), {"mean": "import os\nos._exit(0)"}))
    root.submit("carol", edit_cells(root.solution(), {"square_visible": "assert True"}))

    log = nbgrader(tmp_path, "autograde", "00_demo")

    for noise in ("ERROR", "SAWarning", "not in session", "without encryption"):
        assert noise not in log
    changed = [line for line in log.splitlines() if "has changed!" in line]
    assert len(changed) == 1 and "cell square_visible" in changed[0]  # carol's edit stays loud
    assert "[AutogradeApp | WARNING] The kernel died in a cell" in log


def test_the_docstring_examples_run() -> None:  # tools/ is outside pytest's doctest paths
    from tools import class_report
    for module in (grade_class, class_report):
        assert doctest.testmod(module).failed == 0, module.__name__
