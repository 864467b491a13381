"""Grade a class in one command: collect, check the assignment, autograde in parallel, feedback,
export, and a table of what happened to every student and assignment.

Run it from the course root, as you run nbgrader (course/README.md, "Grade a class"):

    cd ~/autograd-course
    python /path/to/repo/tools/grade_class.py 01_dag 02_manual_backward -j 2
    python /path/to/repo/tools/grade_class.py 01_dag --force   # grade again from submitted/

Each submission is graded by its own ``nbgrader autograde A --student S`` process (``-j``
of them at a time), so a notebook that kills its kernel or loops costs only that student.
nbgrader's sqlite gradebook takes one writer at a time: its writes are short, so the workers
share it with a long busy-timeout instead of failing with "database is locked".
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

GRADED, CRASHED, TIMED_OUT = "graded", "crashed", "timed out"
NOT_SUBMITTED, NOT_COLLECTED, SKIPPED, FAILED = (
    "not submitted", "not collected", "skipped", "grader failed")
NEEDS_INSTRUCTOR = (CRASHED, TIMED_OUT, NOT_COLLECTED, FAILED)
DB_TIMEOUT_S = 600  # how long a worker waits for another's gradebook write


@dataclass
class Result:
    """What happened to one student's submission of one assignment."""

    student: str
    assignment: str
    status: str
    detail: str = ""
    score: float | None = None
    max_score: float | None = None
    seconds: float = 0.0
    cells: dict[str, float] = field(default_factory=dict)  # test cell grade_id -> score

    def score_text(self) -> str:
        """``7.0/9.0``, or ``-`` when there is no score (not submitted, not collected)."""
        return "-" if self.score is None else f"{self.score:g}/{self.max_score:g}"


class GateRefused(Exception):
    """The assignment itself is broken: its solution fails a test, or its release passes one."""


# ------------------------------------------------------------------------------ running nbgrader

def nbgrader_command() -> str:
    """The ``nbgrader`` program beside this Python (its kernel is this Python)."""
    return shutil.which("nbgrader") or str(Path(sys.executable).with_name("nbgrader"))


def run_nbgrader(root: Path, *args: str) -> subprocess.CompletedProcess:
    """``nbgrader ARGS`` in ``root``, sharing the gradebook with the other workers."""
    db = f"--CourseDirectory.db_url=sqlite:///{root.resolve()}/gradebook.db?timeout={DB_TIMEOUT_S}"
    return subprocess.run([nbgrader_command(), *args, db], cwd=root, capture_output=True,
                          text=True)


def _last_error(log: str) -> str:
    lines = [line.strip() for line in log.splitlines() if line.strip()]
    errors = [line for line in lines if "ERROR" in line or "Error" in line]
    return (errors or lines or ["no output"])[-1]


# ---------------------------------------------------------------------------------- collecting

def load_settings(root: Path) -> object:
    """The root's nbgrader configuration, as nbgrader loads it."""
    from tools.build_course import CONFIG_NAME, load_config
    return load_config(root / CONFIG_NAME, root)


def collect(root: Path, assignment: str, pattern: str) -> dict[str, str]:
    """``nbgrader zip_collect`` when ``downloaded/A/archive`` exists; returns, per student,
    why a file of theirs was not collected (its name did not match ``pattern`` or is not
    the released notebook's)."""
    if not (root / "downloaded" / assignment / "archive").is_dir():
        return {}
    done = run_nbgrader(root, "zip_collect", assignment, "--force")
    if done.returncode:
        raise RuntimeError(f"nbgrader zip_collect {assignment} failed: "
                           f"{_last_error(done.stdout + done.stderr)}")
    return uncollected(root / "downloaded" / assignment / "extracted", pattern,
                       f"{assignment}.ipynb")


def uncollected(extracted: Path, pattern: str, notebook: str) -> dict[str, str]:
    """The notebooks under ``extracted`` that zip_collect skips, by student (the folder
    directly under ``extracted``), checkpoints and other artefacts left out.

    >>> import tempfile; folder = Path(tempfile.mkdtemp())
    >>> for name in ["alice/01_dag.ipynb", "bob/01_dag (1).ipynb", "bob/.ipynb_checkpoints/x"]:
    ...     (folder / name).parent.mkdir(parents=True, exist_ok=True); (folder / name).touch()
    >>> pattern = r".*/extracted/(?P<student_id>[^/]+)/(?P<file_id>[^/]+)$"
    >>> uncollected(folder, pattern, "01_dag.ipynb")
    {'bob': "'01_dag (1).ipynb' is not named 01_dag.ipynb"}
    """
    regexp, found = re.compile(pattern), {}
    for path in sorted(extracted.rglob("*.ipynb")):
        relative = path.relative_to(extracted)
        if any(part.startswith(".") for part in relative.parts):
            continue
        match = regexp.match(f"/extracted/{relative.as_posix()}") or regexp.match(str(path))
        if match is None:
            found[relative.parts[0]] = f"'{relative.as_posix()}' does not match {pattern}"
        elif Path(match.group("file_id")).name != notebook:
            found[match.group("student_id")] = (f"'{Path(match.group('file_id')).name}' is not "
                                                f"named {notebook}")
    return found


def submitted_students(root: Path, assignment: str) -> list[str]:
    """The student ids with a submission of ``assignment`` in ``root/submitted``."""
    return sorted(p.parent.name for p in (root / "submitted").glob(f"*/{assignment}") if p.is_dir())


# ------------------------------------------------------------------------------------- the gate

def gate(root: Path, assignment: str) -> None:
    """Refuse to grade with a broken assignment: the solution (``source/``) must pass every
    test and the untouched release fail every test. A passed check is remembered in
    ``.gate/`` until source or release change."""
    source = root / "source" / assignment / f"{assignment}.ipynb"
    release = root / "release" / assignment / f"{assignment}.ipynb"
    if not release.exists():
        raise GateRefused(f"{assignment}: no release; run `nbgrader generate_assignment "
                          f"{assignment}` first")
    digest = hashlib.sha256(source.read_bytes() + release.read_bytes()).hexdigest()[:16]
    stamp = root / ".gate" / f"{assignment}-{digest}.ok"
    if stamp.exists():
        return
    from nbgrader.validator import Validator
    settings = load_settings(root)
    failed = Validator(config=settings).validate(str(source)).get("failed", [])
    passed = Validator(config=settings, invert=True).validate(str(release)).get("passed", [])
    problems = ([f"the solution fails test {_grade_id(source, f['source'])}: "
                 f"{_last_error(f.get('raw_error', ''))}" for f in failed]
                + [f"the untouched release passes test {_grade_id(release, p['source'])}"
                   for p in passed])
    if problems:
        raise GateRefused(f"{assignment}: " + "; ".join(problems))
    stamp.parent.mkdir(exist_ok=True)
    stamp.touch()


def _grade_id(path: Path, source: str) -> str:
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.source.strip() == source:
            return cell.metadata.get("nbgrader", {}).get("grade_id", "(unnamed cell)")
    return repr(source.splitlines()[0] if source else "")


# ---------------------------------------------------------------------------------- autograding

def observations_cached(root: Path, assignment: str) -> bool:
    """Whether the solution's observations (integrity.GuardedExecute) are already cached;
    until they are, the first worker computes them and the others must wait for it."""
    source = root / "source" / assignment / f"{assignment}.ipynb"
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:16]
    return (root / ".observations" / f"{assignment}-{digest}.json").exists()


def grade_one(root: Path, assignment: str, student: str) -> Result:
    """Autograde one submission, in its own process."""
    start = time.perf_counter()
    done = run_nbgrader(root, "autograde", assignment, "--student", student, "--force")
    seconds = time.perf_counter() - start
    if done.returncode:
        return Result(student, assignment, FAILED, _last_error(done.stdout + done.stderr),
                      seconds=seconds)
    status, detail = notebook_outcome(root / "autograded" / student / assignment
                                      / f"{assignment}.ipynb")
    return Result(student, assignment, status, detail, seconds=seconds)


def feedback(root: Path, assignment: str, results: list[Result]) -> None:
    """``nbgrader generate_feedback`` for everyone autograded, in one process (nbgrader takes
    seconds to start); a failure marks the assignment's results as needing a look."""
    done = run_nbgrader(root, "generate_feedback", assignment, "--force")
    if done.returncode:
        reason = f"feedback failed: {_last_error(done.stdout + done.stderr)}"
        for result in results:
            if result.assignment == assignment and result.status not in (NOT_SUBMITTED,
                                                                          NOT_COLLECTED):
                result.status, result.detail = FAILED, reason


def notebook_outcome(path: Path) -> tuple[str, str]:
    """(status, detail) of an autograded notebook: crashed or timed out, and at which cell."""
    nb = nbformat.read(path, as_version=4)
    for kind, ename in ((CRASHED, "DeadKernelError"), (TIMED_OUT, "CellTimeoutError")):
        for index, cell in enumerate(nb.cells):
            if any(o.get("ename") == ename for o in cell.get("outputs", [])):
                name = cell.metadata.get("nbgrader", {}).get("grade_id")
                return kind, f"at cell {index + 1}" + (f" ({name})" if name else "")
    return GRADED, ""


def grade_all(root: Path, jobs: list[tuple[str, str]], workers: int,
              progress: Progress) -> list[Result]:
    """Grade every (assignment, student), ``workers`` at a time; for an assignment whose
    solution observations are not cached yet, its first submission goes alone."""
    results: list[Result] = []
    first = [job for job in _firsts(jobs) if not observations_cached(root, job[0])]
    for assignment, student in first:
        results.append(progress.done(grade_one(root, assignment, student)))
    rest = [job for job in jobs if job not in first]
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(grade_one, root, a, s) for a, s in rest]
        for future in concurrent.futures.as_completed(futures):
            results.append(progress.done(future.result()))
    return results


def _firsts(jobs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    seen: dict[str, tuple[str, str]] = {}
    for job in jobs:
        seen.setdefault(job[0], job)
    return list(seen.values())


class Progress:
    """One live line (rewritten in place on a terminal, one line per submission otherwise)."""

    def __init__(self, total: int, stream: object = sys.stderr) -> None:
        self.total, self.stream, self.start = total, stream, time.perf_counter()
        self.counts: Counter[str] = Counter()

    def done(self, result: Result) -> Result:
        """Count ``result`` and redraw the line."""
        self.counts[result.status] += 1
        finished = sum(self.counts.values())
        tally = ", ".join(f"{n} {status}" for status, n in sorted(self.counts.items()))
        line = (f"[{finished}/{self.total}] {tally} ({time.perf_counter() - self.start:.0f} s)"
                f" - last: {result.student} {result.assignment} {result.status}")
        live = getattr(self.stream, "isatty", lambda: False)()
        end = "" if live and finished < self.total else "\n"
        print(("\r\x1b[K" if live else "") + line, end=end, file=self.stream, flush=True)
        return result


# ------------------------------------------------------------------------------------ gradebook

def read_scores(root: Path, results: list[Result]) -> None:
    """Fill in each graded result's total and per-test-cell scores from the gradebook."""
    from nbgrader.api import Gradebook, MissingEntry
    with Gradebook(f"sqlite:///{root.resolve()}/gradebook.db") as gradebook:
        for result in results:
            if result.status in (NOT_SUBMITTED, NOT_COLLECTED, FAILED):
                continue
            try:
                submission = gradebook.find_submission(result.assignment, result.student)
            except MissingEntry:
                continue
            result.score, result.max_score = submission.score, submission.max_score
            for notebook in submission.notebooks:
                result.cells.update({g.name: g.score for g in notebook.grades})


def roster(root: Path) -> list[str]:
    """Every student the gradebook knows, plus everyone with a submitted folder."""
    from nbgrader.api import Gradebook
    with Gradebook(f"sqlite:///{root.resolve()}/gradebook.db") as gradebook:
        known = {student.id for student in gradebook.students}
    return sorted(known | {p.name for p in (root / "submitted").glob("*") if p.is_dir()})


# --------------------------------------------------------------------------------- the whole run

def grade_class(root: Path, assignments: Sequence[str], workers: int = 1, force: bool = False,
                stream: object = sys.stderr) -> list[Result]:
    """Collect, gate, autograde and generate feedback for ``assignments``; one result per
    student and assignment."""
    pattern = load_settings(root).FileNameCollectorPlugin.named_regexp
    missed = {a: collect(root, a, pattern) for a in assignments}
    students = sorted(set(roster(root)) | {s for m in missed.values() for s in m})
    results, jobs = [], []
    for assignment in assignments:
        handed_in = set(submitted_students(root, assignment))
        for student in students:
            autograded = root / "autograded" / student / assignment
            if student not in handed_in:
                status = NOT_COLLECTED if student in missed[assignment] else NOT_SUBMITTED
                results.append(Result(student, assignment, status,
                                      missed[assignment].get(student, "")))
            elif autograded.is_dir() and not force:
                status, detail = notebook_outcome(autograded / f"{assignment}.ipynb")
                results.append(Result(student, assignment, SKIPPED,
                                      f"already graded ({status} {detail}".strip() + ")"))
            else:
                jobs.append((assignment, student))
    for assignment in sorted({a for a, _ in jobs}):
        gate(root, assignment)
    results += grade_all(root, jobs, workers, Progress(len(jobs), stream))
    for assignment in sorted({a for a, _ in jobs}):
        feedback(root, assignment, results)
    read_scores(root, results)
    return sorted(results, key=lambda r: (r.student, r.assignment))


def table(results: Sequence[Result]) -> str:
    """The final table: one line per student and assignment.

    >>> print(table([Result("bo", "01_dag", CRASHED, "at cell 5 (trace)", 5.0, 10.0),
    ...              Result("al", "01_dag", NOT_SUBMITTED)]))
    student assignment score status
    bo      01_dag     5/10  crashed at cell 5 (trace)
    al      01_dag     -     not submitted
    """
    rows = [("student", "assignment", "score", "status")] + [
        (r.student, r.assignment, r.score_text(), f"{r.status} {r.detail}".strip())
        for r in results]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    return "\n".join(" ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=False))
                     + " " + row[3] for row in rows)


def main(argv: Sequence[str] | None = None) -> int:
    """Grade, report, export; exit 1 when something needs the instructor, 2 when the gate
    refused."""
    from tools import class_report
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("assignments", nargs="+", help="assignment ids, e.g. 01_dag")
    parser.add_argument("-j", "--jobs", type=int, default=1,
                        help="submissions graded at a time (default 1; one per core is best)")
    parser.add_argument("--force", action="store_true",
                        help="grade again submissions already autograded")
    args = parser.parse_args(argv)
    root = Path.cwd()
    try:
        results = grade_class(root, args.assignments, args.jobs, args.force)
    except GateRefused as refusal:
        print(f"refused to grade: {refusal}. Fix solutions/, rebuild the source and release "
              "(course/README.md, 'Re-release a fixed notebook'), then run this again.")
        return 2
    print(table(results))
    written = class_report.write_all(root, results)
    print(class_report.summary(root, results))
    print("wrote: " + ", ".join(str(path.relative_to(root)) for path in written))
    trouble = [r for r in results if r.status in NEEDS_INSTRUCTOR]
    if trouble:
        print(f"{len(trouble)} need a look: " + ", ".join(
            f"{r.student}/{r.assignment} ({r.status})" for r in trouble))
    return 1 if trouble else 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    sys.exit(main())
