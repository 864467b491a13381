"""Autograde a whole class, one student at a time, with progress and a summary of failures.

Plain ``nbgrader autograde A`` grades everyone in one process and one log: a notebook that
kills its kernel or runs out of memory shows up as a line lost among hundreds. This runs
``nbgrader autograde A --student S`` for each submission in turn, prints one line per
student as it goes, then a summary of who failed to grade and why, then ``nbgrader export``
(grades.csv). Run it from the course root, as you run nbgrader:

    cd ~/autograd-course
    python /path/to/repo/tools/grade_class.py 01_dag           # every submitted student
    python /path/to/repo/tools/grade_class.py 01_dag --force   # grade again from submitted/
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Outcome:
    """One student's autograde: whether it ran, how long it took, and the log's last words."""

    student: str
    ok: bool
    seconds: float
    reason: str = ""


def submitted_students(root: Path, assignment: str) -> list[str]:
    """The student ids with a submission of ``assignment`` in ``root/submitted``."""
    return sorted(p.parent.name for p in (root / "submitted").glob(f"*/{assignment}") if p.is_dir())


def autograde(root: Path, assignment: str, student: str, force: bool) -> Outcome:
    """``nbgrader autograde`` for one student, in its own process."""
    command = [_nbgrader(), "autograde", assignment, "--student", student]
    start = time.perf_counter()
    done = subprocess.run([*command, *(["--force"] if force else [])], cwd=root,
                          capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode == 0:
        return Outcome(student, True, seconds)
    return Outcome(student, False, seconds, _reason(done.stdout + done.stderr))


def _reason(log: str) -> str:
    errors = [line.strip() for line in log.splitlines() if "[ERROR]" in line or "Error" in line]
    return (errors or [line for line in log.splitlines() if line.strip()] or ["no output"])[-1]


def _nbgrader() -> str:
    return shutil.which("nbgrader") or str(Path(sys.executable).with_name("nbgrader"))


def grade_class(root: Path, assignment: str, force: bool = False) -> list[Outcome]:
    """Autograde every submitted student, printing a line each, and return the outcomes."""
    students = submitted_students(root, assignment)
    outcomes = []
    for number, student in enumerate(students, 1):
        outcome = autograde(root, assignment, student, force)
        status = "graded" if outcome.ok else f"FAILED: {outcome.reason}"
        print(f"[{number}/{len(students)}] {student}: {status} ({outcome.seconds:.1f} s)",
              flush=True)
        outcomes.append(outcome)
    return outcomes


def main(argv: Sequence[str] | None = None) -> int:
    """Grade, summarise, export; exit 1 when some student could not be graded."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("assignment", help="the assignment id, e.g. 01_dag")
    parser.add_argument("--force", action="store_true",
                        help="grade again students already autograded")
    args = parser.parse_args(argv)
    root = Path.cwd()
    outcomes = grade_class(root, args.assignment, args.force)
    failed = [o for o in outcomes if not o.ok]
    print(f"{len(outcomes) - len(failed)} of {len(outcomes)} graded.")
    for outcome in failed:
        print(f"  not graded: {outcome.student}: {outcome.reason}")
    subprocess.run([_nbgrader(), "export"], cwd=root, check=True, capture_output=True)
    print(f"grades: {root / 'grades.csv'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
