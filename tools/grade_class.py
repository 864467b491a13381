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
import atexit
import concurrent.futures
import contextlib
import functools
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter
from collections.abc import Iterator, Sequence
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
    cpu: float = 0.0  # CPU seconds of grading it: nbgrader's processes and the kernel
    cells: dict[str, float] = field(default_factory=dict)  # test cell grade_id -> score

    def score_text(self) -> str:
        """``7.0/9.0``, or ``-`` when there is no score (not submitted, not collected)."""
        return "-" if self.score is None else f"{self.score:g}/{self.max_score:g}"


class GateRefused(Exception):
    """The assignment itself is broken: its solution fails a test, or its release passes one."""


# ------------------------------------------------------------------------------ running nbgrader

@dataclass
class Ran:
    """What one nbgrader command did: its exit status, its log, and the CPU seconds of its
    process and of the kernels it waited for."""

    returncode: int
    output: str
    cpu: float = 0.0


def run_nbgrader(root: Path, *args: str) -> Ran:
    """``nbgrader ARGS`` in ``root``, in a fresh process of its own, sharing the gradebook with
    the other workers.

    The process is forked from this thread's :class:`NbgraderServer`, which imported nbgrader
    once: an ``nbgrader`` program spends about 2 s of CPU importing (half of it jsonschema
    building an IRI grammar), which was most of the CPU a submission cost.
    """
    server = getattr(_servers, "mine", None)
    if server is None or server.process.poll() is not None:
        server = _servers.mine = NbgraderServer()
    return server.run(root, [*args, f"--CourseDirectory.db_url={gradebook_url(root)}"])


class NbgraderServer:
    """A process that has imported nbgrader and forks one child per command it is sent (one
    JSON line each on its stdin); a child's exit status and CPU come back as a JSON line."""

    started: list[NbgraderServer] = []

    def __init__(self) -> None:
        repo = str(Path(__file__).resolve().parents[1])
        self.process = subprocess.Popen(
            [sys.executable, "-c", f"import sys; sys.path.insert(0, {repo!r}); "
             "from tools.grade_class import serve; serve()"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        NbgraderServer.started.append(self)

    def run(self, root: Path, args: Sequence[str]) -> Ran:
        """Run ``nbgrader ARGS`` in ``root`` in a forked child; its log, status and CPU."""
        with tempfile.NamedTemporaryFile("r", prefix="nbgrader-", suffix=".log") as log:
            self.process.stdin.write(json.dumps([str(root.resolve()), log.name, *args]) + "\n")
            self.process.stdin.flush()
            answer = self.process.stdout.readline()
            if not answer:
                return Ran(1, "the nbgrader server died: see its error above")
            code, cpu = json.loads(answer)
            return Ran(code, log.read(), cpu)

    @classmethod
    def stop_all(cls) -> None:
        """End every server. Each is idle by now (every command it was sent has answered), so
        it is killed: a clean exit would unload nbgrader for a second or two, all serial."""
        while cls.started:
            server = cls.started.pop()
            server.process.kill()
            server.process.wait()
            server.process.stdin.close()
            server.process.stdout.close()


_servers = threading.local()


def serve() -> None:
    """The server's loop: import nbgrader, then one forked child per request line."""
    from nbgrader.apps.nbgraderapp import NbGraderApp  # noqa: F401 -- the import to share
    for line in sys.stdin:
        root, log, *args = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _nbgrader_here(root, args, log)
        _, status, usage = os.wait4(pid, 0)
        print(json.dumps([os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime]),
              flush=True)


def _nbgrader_here(root: str, args: Sequence[str], log: str) -> None:
    """The forked child: nbgrader's command line in ``root``, its output into ``log``."""
    os.chdir(root)
    with open(log, "w") as out, open(os.devnull) as nothing:
        os.dup2(nothing.fileno(), 0)
        os.dup2(out.fileno(), 1)
        os.dup2(out.fileno(), 2)
    from nbgrader.apps.nbgraderapp import NbGraderApp
    code = 0
    try:
        NbGraderApp.launch_instance(argv=list(args))
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    except BaseException:  # nbgrader's own crash is this submission's status
        traceback.print_exc()
        code = 1
    finally:
        atexit._run_exitfuncs()  # os._exit below skips them: clean up as nbgrader would
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(code)


@functools.lru_cache
def gradebook_url(root: Path) -> str:
    """The gradebook of the course root: ``CourseDirectory.db_url`` when its configuration sets
    one (e.g. a Postgres gradebook shared by many machines), else its ``gradebook.db``, shared
    by the workers with a long busy-timeout instead of failing with "database is locked"."""
    configured = load_settings(root).CourseDirectory.get("db_url")
    return configured or f"sqlite:///{root.resolve()}/gradebook.db?timeout={DB_TIMEOUT_S}"


_EXCEPTION = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Interrupt|Exit)(:|$)")
_COLOURS = re.compile(r"\x1b\[[0-9;]*m")  # a kernel's tracebacks are coloured
_BOILERPLATE = ("Please see the the above traceback", "There was an error processing")


def _last_error(log: str) -> str:
    """The line of ``log`` that says what went wrong: the last exception raised, else the last
    error line that is not nbgrader's "see the traceback above".

    >>> _last_error("[App | ERROR] Traceback\\n  File x\\nKeyError: 'square'\\n"
    ...             "[App | ERROR] Please see the the above traceback for details")
    "KeyError: 'square'"
    >>> _last_error("\\x1b[31mAssertionError\\x1b[39m: broken")
    'AssertionError: broken'
    """
    lines = [line.strip() for line in _COLOURS.sub("", log).splitlines() if line.strip()]
    exceptions = [line for line in lines if _EXCEPTION.match(line)]
    errors = [line for line in lines if ("ERROR" in line or "Error" in line)
              and not any(text in line for text in _BOILERPLATE)]
    return (exceptions or errors or lines or ["no output"])[-1]


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
                           f"{_last_error(done.output)}")
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
    """Whether the solution's observations (integrity.GuardedExecute) are already cached for
    the current source: a ``.observations/A-*.json`` written after ``source/A/A.ipynb`` (the
    cache's key is integrity's business); until then, the first worker computes them and the
    others must wait for it."""
    source = (root / "source" / assignment / f"{assignment}.ipynb").stat().st_mtime
    return any(cache.stat().st_mtime >= source
               for cache in (root / ".observations").glob(f"{assignment}-*.json"))


def grade_one(root: Path, assignment: str, student: str) -> Result:
    """Autograde one submission and generate its feedback, each in a process of its own; a
    submission nbgrader cannot grade is a ``grader failed`` result that says why."""
    start = time.perf_counter()
    result = Result(student, assignment, FAILED,
                    unreadable(root / "submitted" / student / assignment, assignment) or "")
    if not result.detail:
        _autograde(root, result)
    result.seconds = time.perf_counter() - start
    return result


def _autograde(root: Path, result: Result) -> None:
    assignment, student = result.assignment, result.student
    done = run_nbgrader(root, "autograde", assignment, "--student", student, "--force")
    result.cpu += done.cpu
    if done.returncode:
        result.detail = grader_failure(done.output)
        return
    result.status, result.detail = notebook_outcome(root / "autograded" / student / assignment
                                                    / f"{assignment}.ipynb")
    if result.status == FAILED:
        return
    shown = run_nbgrader(root, "generate_feedback", assignment, "--student", student, "--force")
    result.cpu += shown.cpu
    if shown.returncode:
        result.status, result.detail = FAILED, f"feedback failed: {_last_error(shown.output)}"


def unreadable(folder: Path, assignment: str) -> str | None:
    """Why nbgrader cannot grade the submission in ``folder``: no ``A.ipynb`` there, or a file
    that is not a notebook; None when it can try.

    >>> import tempfile; folder = Path(tempfile.mkdtemp())
    >>> (folder / "01_dag (1).ipynb").write_text("{}")
    2
    >>> unreadable(folder, "01_dag")
    "no 01_dag.ipynb in the submission (it holds '01_dag (1).ipynb'): rename the file and run again"
    >>> (folder / "01_dag.ipynb").write_text('{"cells": [')
    11
    >>> print(unreadable(folder, "01_dag"))  # doctest: +ELLIPSIS
    01_dag.ipynb is not a notebook (NotJSONError: ...): ask the student for the file again
    """
    notebook = folder / f"{assignment}.ipynb"
    if not notebook.exists():
        held = ", ".join(repr(p.name) for p in sorted(folder.iterdir()) if p.name[0] != ".")
        return (f"no {notebook.name} in the submission (it holds {held or 'nothing'}): rename "
                "the file and run again")
    try:
        nbformat.read(notebook, as_version=4)
    except Exception as error:  # whatever nbformat raises, nbgrader would raise too
        first = (str(error).splitlines() or [""])[0]
        first = first if len(first) <= 60 else first[:57] + "..."
        return (f"{notebook.name} is not a notebook ({type(error).__name__}: {first}): ask the "
                "student for the file again")
    return None


def grader_failure(log: str) -> str:
    """What nbgrader's failure on a submission means, from its log.

    >>> print(grader_failure("in add_missing_grade_cells\\nKeyError: 'square'"))
    ... # doctest: +NORMALIZE_WHITESPACE
    the student deleted cell 'square' and nbgrader cannot put its tests back (KeyError:
    'square'): paste their answers into a fresh release notebook and grade that
    """
    error = _last_error(log)
    deleted = re.match(r"KeyError: '(.+)'$", error)
    if deleted and "add_missing_grade_cells" in log:
        return (f"the student deleted cell '{deleted.group(1)}' and nbgrader cannot put its "
                f"tests back ({error}): paste their answers into a fresh release notebook and "
                "grade that")
    return f"nbgrader failed: {error}"


def notebook_outcome(path: Path) -> tuple[str, str]:
    """(status, detail) of an autograded notebook: crashed or timed out, and at which cell."""
    if not path.exists():
        return FAILED, f"nbgrader wrote no {path.name} for this submission"
    nb = nbformat.read(path, as_version=4)
    for kind, ename in ((CRASHED, "DeadKernelError"), (TIMED_OUT, "CellTimeoutError")):
        for index, cell in enumerate(nb.cells):
            if any(o.get("ename") == ename for o in cell.get("outputs", [])):
                name = cell.metadata.get("nbgrader", {}).get("grade_id")
                return kind, f"at cell {index + 1}" + (f" ({name})" if name else "")
    return GRADED, ""


def grade_all(root: Path, jobs: list[tuple[str, str]], workers: int, progress: Progress,
              phases: Phases | None = None) -> list[Result]:
    """Grade every (assignment, student), ``workers`` at a time; for an assignment whose
    solution observations are not cached yet, its first submission that nbgrader can read goes
    alone."""
    phases = Phases() if phases is None else phases
    results: list[Result] = []
    rest = list(jobs)
    with phases("first submission alone (observations)"):
        for assignment in dict.fromkeys(a for a, _ in jobs):
            mine = [job for job in rest if job[0] == assignment]
            while mine and not observations_cached(root, assignment):
                rest.remove(mine[0])
                results.append(progress.done(grade_one(root, *mine.pop(0))))
                if results[-1].cpu:  # nbgrader ran: it cached them, or never will
                    break
    with phases("parallel grading"), concurrent.futures.ThreadPoolExecutor(
            max_workers=workers) as pool:
        futures = [pool.submit(grade_one, root, a, s) for a, s in rest]
        for future in concurrent.futures.as_completed(futures):
            results.append(progress.done(future.result()))
    return results


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
    with Gradebook(gradebook_url(root)) as gradebook:
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
    with Gradebook(gradebook_url(root)) as gradebook:
        known = {student.id for student in gradebook.students}
    return sorted(known | {p.name for p in (root / "submitted").glob("*") if p.is_dir()})


# --------------------------------------------------------------------------------- the whole run

class Phases(dict):
    """Wall seconds of each phase of a run, by name, in the order they ran.

    >>> phases = Phases()
    >>> with phases("gate"):
    ...     pass
    >>> list(phases)
    ['gate']
    """

    @contextlib.contextmanager
    def __call__(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self[name] = self.get(name, 0.0) + time.perf_counter() - start


def grade_class(root: Path, assignments: Sequence[str], workers: int = 1, force: bool = False,
                stream: object = sys.stderr, phases: Phases | None = None) -> list[Result]:
    """Collect, gate, autograde and generate feedback for ``assignments``; one result per
    student and assignment. ``phases`` receives the wall time of each phase."""
    phases = Phases() if phases is None else phases
    try:
        with phases("collect"):
            pattern = load_settings(root).FileNameCollectorPlugin.named_regexp
            missed = {a: collect(root, a, pattern) for a in assignments}
            students = sorted(set(roster(root)) | {s for m in missed.values() for s in m})
            results, jobs = _triage(root, assignments, students, missed, force)
        with phases("gate"):
            for assignment in sorted({a for a, _ in jobs}):
                gate(root, assignment)
        results += grade_all(root, jobs, workers, Progress(len(jobs), stream), phases)
    finally:
        with phases("stop the nbgrader servers"):
            NbgraderServer.stop_all()
    with phases("scores"):
        read_scores(root, results)
    return sorted(results, key=lambda r: (r.student, r.assignment))


def _triage(root: Path, assignments: Sequence[str], students: Sequence[str],
            missed: dict[str, dict[str, str]], force: bool,
            ) -> tuple[list[Result], list[tuple[str, str]]]:
    """The results known without grading, and the (assignment, student) pairs to grade."""
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
    return results, jobs


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
