"""Where the class is stuck, and its grades for the LMS: written by tools/grade_class.py.

Per exercise (an answer cell and the test cells after it, up to the next answer cell), how
many students got full, partial or zero marks, and the most common failure messages, as a
text table and as a self-contained HTML page; the grades as a wide CSV (per-exercise
columns; "not submitted" is not 0) and as Canvas and Moodle gradebook imports.
"""

from __future__ import annotations

import csv
import html
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from tools.grade_class import NOT_COLLECTED, NOT_SUBMITTED, Result

TOP_FAILURES = 3


@dataclass
class Exercise:
    """One answer cell's tests and what the class made of them."""

    assignment: str
    name: str
    tests: dict[str, float] = field(default_factory=dict)  # test grade_id -> points
    full: int = 0
    partial: int = 0
    zero: int = 0
    missing: int = 0
    failures: Counter[str] = field(default_factory=Counter)

    @property
    def points(self) -> float:
        """The exercise's maximum score."""
        return sum(self.tests.values())

    def score(self, result: Result) -> float | None:
        """``result``'s score on this exercise; None when it has none."""
        scores = [result.cells.get(test) for test in self.tests]
        return None if None in scores else sum(scores)


def exercises(root: Path, assignment: str) -> list[Exercise]:
    """The exercises of ``assignment``, from its source notebook in ``root``; test cells before
    the first answer cell form an exercise named after the assignment."""
    nb = nbformat.read(root / "source" / assignment / f"{assignment}.ipynb", as_version=4)
    found = [Exercise(assignment, assignment)]
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("solution"):
            found.append(Exercise(assignment, meta["grade_id"]))
        if meta.get("grade") and not meta.get("solution"):
            found[-1].tests[meta["grade_id"]] = float(meta.get("points", 0))
    return [exercise for exercise in found if exercise.tests]


def failure_messages(root: Path, result: Result) -> dict[str, str]:
    """The first line of each failing test cell's error, by grade_id."""
    path = root / "autograded" / result.student / result.assignment / f"{result.assignment}.ipynb"
    if not path.exists():
        return {}
    found = {}
    for cell in nbformat.read(path, as_version=4).cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        if grade_id and errors:
            message = (f"{errors[0].ename}: {errors[0].evalue}".splitlines() or [""])[0]
            message = message.removesuffix(": ")  # a bare NotImplementedError: not answered
            found[grade_id] = message if len(message) <= 100 else message[:97] + "..."
    return found


def tally(root: Path, results: Sequence[Result]) -> list[Exercise]:
    """Every exercise of the assignments in ``results``, with the class's counts filled in."""
    table = []
    for assignment in sorted({r.assignment for r in results}):
        mine = [r for r in results if r.assignment == assignment]
        for exercise in exercises(root, assignment):
            for result in mine:
                _count(root, exercise, result)
            table.append(exercise)
    return table


def _count(root: Path, exercise: Exercise, result: Result) -> None:
    score = exercise.score(result)
    if score is None:
        exercise.missing += 1
        return
    if score >= exercise.points:
        exercise.full += 1
        return
    if score > 0:
        exercise.partial += 1
    else:
        exercise.zero += 1
    messages = failure_messages(root, result)
    exercise.failures.update({messages[t] for t in exercise.tests if t in messages})


def summary(root: Path, results: Sequence[Result]) -> str:
    """The class report as a text table."""
    rows = [("exercise", "full", "partial", "zero", "none", "most common failures")]
    for e in tally(root, results):
        common = "; ".join(f"{n}x {m}" for m, n in e.failures.most_common(TOP_FAILURES))
        rows.append((f"{e.assignment}/{e.name}", str(e.full), str(e.partial), str(e.zero),
                     str(e.missing), common))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    return "\n".join(" ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=False))
                     + " " + row[5] for row in rows)


# ------------------------------------------------------------------------------------- the page

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Class report</title><style>
body {{ font-family: sans-serif; margin: 2em; }} table {{ border-collapse: collapse; }}
td, th {{ padding: .2em .6em; border-bottom: 1px solid #ddd; text-align: left; }}
.bar {{ display: flex; width: 16em; height: 1em; }} .bar span {{ height: 100%; }}
.full {{ background: #2e7d32; }} .partial {{ background: #f9a825; }}
.zero {{ background: #c62828; }} .missing {{ background: #bbb; }}
</style></head><body><h1>Where the class is stuck</h1>
<p>Per exercise: <span class="full">&nbsp;&nbsp;</span> full marks,
<span class="partial">&nbsp;&nbsp;</span> partial, <span class="zero">&nbsp;&nbsp;</span> zero,
<span class="missing">&nbsp;&nbsp;</span> no score (not submitted or not graded).</p>
<table><tr><th>exercise</th><th>points</th><th>full</th><th>partial</th><th>zero</th>
<th>none</th><th></th><th>most common failures</th></tr>
{rows}</table></body></html>
"""


def page(exercises_: Sequence[Exercise]) -> str:
    """A self-contained HTML page: a row and a stacked bar per exercise."""
    rows = []
    for e in exercises_:
        total = max(e.full + e.partial + e.zero + e.missing, 1)
        bar = "".join(f'<span class="{kind}" style="width:{100 * n / total:.1f}%"></span>'
                      for kind, n in (("full", e.full), ("partial", e.partial),
                                      ("zero", e.zero), ("missing", e.missing)))
        common = "<br>".join(f"{n}&times; {html.escape(m)}"
                             for m, n in e.failures.most_common(TOP_FAILURES))
        rows.append(f"<tr><td>{html.escape(e.assignment)}/{html.escape(e.name)}</td>"
                    f"<td>{e.points:g}</td><td>{e.full}</td><td>{e.partial}</td>"
                    f"<td>{e.zero}</td><td>{e.missing}</td><td><div class=bar>{bar}</div></td>"
                    f"<td>{common}</td></tr>")
    return PAGE.format(rows="\n".join(rows))


# ---------------------------------------------------------------------------------- the exports

def _cell(result: Result, score: float | None) -> str:
    if result.status in (NOT_SUBMITTED, NOT_COLLECTED):
        return result.status
    return "" if score is None else f"{score:g}"


def wide_rows(root: Path, results: Sequence[Result]) -> list[dict[str, str]]:
    """One row per student: per assignment its total, status and per-exercise scores."""
    by_student: dict[str, dict[str, str]] = {}
    for assignment in sorted({r.assignment for r in results}):
        parts = exercises(root, assignment)
        for r in (r for r in results if r.assignment == assignment):
            row = by_student.setdefault(r.student, {"student_id": r.student})
            row[assignment] = _cell(r, r.score)
            row[f"{assignment} status"] = f"{r.status} {r.detail}".strip()
            for e in parts:
                row[f"{assignment}/{e.name}"] = _cell(r, e.score(r))
    return list(by_student.values())


def lms_rows(results: Sequence[Result], lms: str) -> tuple[list[str], list[list[str]]]:
    """Header and rows of a gradebook import for ``lms`` ("canvas" or "moodle"); a blank
    score means no grade (not submitted), never 0.

    Canvas reads a number in parentheses at the end of a column's name as its own assignment
    id, so the columns are the bare assignment ids (Canvas creates those assignments) and the
    maximum scores go in its "Points Possible" row, as in a Canvas export.

    >>> results = [Result("al", "01_dag", "graded", score=0.0, max_score=9.0),
    ...            Result("bo", "01_dag", NOT_SUBMITTED)]
    >>> lms_rows(results, "moodle")
    (['Username', '01_dag'], [['al', '0'], ['bo', '']])
    >>> lms_rows(results, "canvas")[1][0]
    ['    Points Possible', '', '', '', '', '9']
    """
    assignments = sorted({r.assignment for r in results})
    maxima = {r.assignment: f"{r.max_score:g}" for r in results if r.max_score is not None}
    scores: dict[str, dict[str, str]] = {}
    for r in results:
        scores.setdefault(r.student, {})[r.assignment] = "" if r.score is None else f"{r.score:g}"
    students = sorted(scores)
    if lms == "canvas":  # Canvas matches rows on "SIS Login ID"; the other columns may be empty
        points = ["    Points Possible", "", "", "", "", *(maxima.get(a, "") for a in assignments)]
        return (["Student", "ID", "SIS User ID", "SIS Login ID", "Section", *assignments],
                [points] + [[s, "", "", s, "", *(scores[s].get(a, "") for a in assignments)]
                            for s in students])
    return (["Username", *assignments],  # Moodle: map "Username" to the user's username
            [[s, *(scores[s].get(a, "") for a in assignments)] for s in students])


def write_all(root: Path, results: Sequence[Result]) -> list[Path]:
    """Write grades.csv, grades_canvas.csv, grades_moodle.csv and class_report.html into
    ``root``; returns their paths."""
    rows = wide_rows(root, results)
    columns = list(dict.fromkeys(key for row in rows for key in row))
    written = [root / "grades.csv", root / "grades_canvas.csv", root / "grades_moodle.csv",
               root / "class_report.html"]
    with open(written[0], "w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=columns, restval="")
        writer.writeheader()
        writer.writerows(rows)
    for path, lms in zip(written[1:3], ("canvas", "moodle"), strict=True):
        header, body = lms_rows(results, lms)
        with open(path, "w", newline="") as file:
            csv.writer(file).writerows([header, *body])
    written[3].write_text(page(tally(root, results)))
    return written
