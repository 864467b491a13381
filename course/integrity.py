"""nbgrader plug-ins that keep grading honest; course/nbgrader_config.py loads them.

``HideHiddenTests`` runs in ``nbgrader generate_feedback``: the autograded notebook holds the
hidden tests again (autograde puts them back to run them), and the feedback HTML students get
is made from it. This preprocessor removes the hidden-test region from every test cell and
every output line that quotes it; an error raised by a hidden line becomes one line saying
that a hidden test failed.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
from jupyter_client.manager import AsyncKernelManager
from jupyter_core.utils import run_sync
from nbclient.exceptions import DeadKernelError
from nbformat import NotebookNode
from nbformat.v4 import new_output
from nbgrader.api import MissingEntry
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import ClearHiddenTests, Execute, OverwriteCells
from traitlets import Bool, Integer

import minitorch.course
from minitorch.course import OBSERVATION_MIME

ANSI = re.compile(r"\x1b\[[0-9;]*m")
HIDDEN_FAILURE = "A hidden test failed. Hidden tests are not shown; the visible ones are above."
HIDDEN_FRAME = "---> a hidden test of this cell (not shown)"
UNDEFINED = ("An exercise's cell above defines it, and that cell has not run to its end: "
             "answer the exercise, run its cell, then this test.")
# IPython's frame headers: "Cell In[7], line 12, in f(x)" for notebook code, "File path:12,
# in f(x)" for a module's; then the frame's context lines, "---> 12 code" at the failing one.
CELL_FRAME = re.compile(r"Cell In\s*\[(\d+)\], line (\d+)(?:, in (\w+))?")
FILE_FRAME = re.compile(r"File (\S+):(\d+)")
CONTEXT_LINE = re.compile(r"^\s*(?:-+>\s*)?(\d+)(?: |$)")
SHORTEST_LEAK = 16  # hidden lines shorter than this ("pass", ")") are not searched for
HELPERS = "minitorch/checks.py"  # frames of the check helper say nothing about the mistake


class HideHiddenTests(ClearHiddenTests):
    """Strip hidden tests, and outputs that quote them, from the notebook feedback is made of.

    Which traceback frames belong to a hidden test is read from where their code comes from:
    the frame's cell (the running cell's ``In[n]``) and line number, inside the hidden region.
    Those lines are left out; the student's own lines and messages always stay.
    """

    def preprocess_cell(
        self, cell: NotebookNode, resources: dict[str, Any], cell_index: int
    ) -> tuple[NotebookNode, dict[str, Any]]:
        region = _hidden_region(cell.source, self.begin_test_delimeter,
                                self.end_test_delimeter)
        cell, resources = super().preprocess_cell(cell, resources, cell_index)
        if cell.cell_type == "code":
            count = cell.get("execution_count")
            outputs = [_scrub(output, region, count) for output in cell.get("outputs", [])]
            cell.outputs = _explained(outputs)
        return cell, resources


@dataclass(frozen=True)
class HiddenRegion:
    """A test cell's hidden lines: their numbers (1-based, delimiters included) and text."""

    numbers: frozenset[int]
    lines: tuple[str, ...]


def _hidden_region(source: str, begin: str, end: str) -> HiddenRegion:
    numbers, lines, inside = set(), [], False
    for number, line in enumerate(source.split("\n"), start=1):  # as nbgrader splits
        if begin in line or end in line:
            inside = begin in line
            numbers.add(number)
        elif inside:
            numbers.add(number)
            if len(line.strip()) >= SHORTEST_LEAK:
                lines.append(line.strip())
    return HiddenRegion(frozenset(numbers), tuple(lines))


def _quotes(text: str, region: HiddenRegion) -> bool:
    """Whether ``text`` (printed by the kernel, not a traceback's code) holds a hidden line as
    one of its own lines: a submission could print the running cell's source. A message that
    only mentions a hidden line's words ("@set_grad_enabled(False)") is no quote."""
    hidden = set(region.lines)
    return any(line.strip() in hidden for line in ANSI.sub("", text).splitlines())


def _scrub(output: NotebookNode, region: HiddenRegion, count: int | None) -> NotebookNode:
    if output.output_type == "error":
        return _scrub_error(output, region, count)
    if output.output_type == "stream" and region.lines:
        output.text = "".join(line for line in output.text.splitlines(keepends=True)
                              if not _quotes(line, region))
    return output


class RestoreHiddenTests(OverwriteCells):
    """nbgrader's OverwriteCells, without its tampering warning for the change every submission
    makes: a test cell exactly as released (its hidden region cleared) differs from the
    gradebook's copy, which holds the hidden tests. Such a cell is restored silently; any
    other change to a locked cell is still restored and still logged."""

    def preprocess_cell(self, cell: NotebookNode, resources: dict[str, Any],
                        cell_index: int) -> tuple[NotebookNode, dict[str, Any]]:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id and cell.cell_type == "code":
            try:
                source = self.gradebook.find_source_cell(grade_id, self.notebook_id,
                                                         self.assignment_id).source
            except MissingEntry:
                source = None
            if source is not None and cell.source == released_form(source):
                cell.source = source
        return super().preprocess_cell(cell, resources, cell_index)


def released_form(source: str) -> str:
    """A test cell's source as the release shows it: without its hidden region.

    >>> released_form("assert f(1) == 1\\n### BEGIN HIDDEN TESTS\\nassert f(2) == 2\\n"
    ...               "### END HIDDEN TESTS")
    'assert f(1) == 1'
    """
    cell = nbformat.v4.new_code_cell(source)
    ClearHiddenTests()._remove_hidden_test_region(cell)
    return cell.source


def _scrub_error(output: NotebookNode, region: HiddenRegion,
                 count: int | None) -> NotebookNode:
    """The traceback without the hidden lines of the running cell's frames. An error raised
    by a hidden line itself keeps its message (the course's checks write it for students)
    unless it has none or quotes hidden code: then it reads HIDDEN_FAILURE."""
    entries, innermost, function = [], "none", None
    for entry in output.traceback:
        plain = ANSI.sub("", entry)
        cell_frame, file_frame = CELL_FRAME.search(plain), FILE_FRAME.match(plain.lstrip())
        if cell_frame:
            count = count if count is not None else int(cell_frame[1])
            if int(cell_frame[1]) == count:
                hidden = int(cell_frame[2]) in region.numbers
                entry = _without_hidden_lines(entry, region, hidden)
                innermost = "hidden" if hidden else "test"
            else:
                innermost, function = "student", cell_frame[3]
        elif file_frame and file_frame[1].endswith(HELPERS):
            continue  # the check helper's own frame: its message says it all
        elif file_frame:
            innermost = "library"
        entries.append(entry)
    evalue = output.evalue
    if innermost == "hidden" and (not evalue.strip() or _quotes(evalue, region)):
        evalue = HIDDEN_FAILURE
    elif output.ename == "NotImplementedError" and innermost == "student" and function:
        evalue = (f"Not answered yet: {function} still raises the release's "
                  "NotImplementedError. Write your answer in its cell and run it.")
    elif output.ename == "NameError" and innermost in ("test", "hidden"):
        evalue = f"{evalue}. {UNDEFINED}"
    elif _quotes(evalue, region):
        evalue = HIDDEN_FAILURE
    if evalue != output.evalue:  # the last entry is the message: "AssertionError: ..."
        last = entries and ANSI.sub("", entries[-1]).startswith(output.ename)
        entries = (entries[:-1] if last else entries) + [f"{output.ename}: {evalue}"]
    return new_output("error", ename=output.ename, evalue=evalue, traceback=entries)


def _without_hidden_lines(entry: str, region: HiddenRegion, failed_here: bool) -> str:
    """A frame of the running cell without the context lines of its hidden region."""
    header, *context = entry.rstrip("\n").split("\n")
    kept = [line for line in context if not _hidden_number(line, region)]
    while kept and not ANSI.sub("", kept[-1]).strip():
        kept.pop()
    return "\n".join([header, *kept, *[HIDDEN_FRAME] * failed_here]) + "\n"


def _hidden_number(line: str, region: HiddenRegion) -> bool:
    number = CONTEXT_LINE.match(ANSI.sub("", line))
    return bool(number) and int(number[1]) in region.numbers


def _explained(outputs: list[NotebookNode]) -> list[NotebookNode]:
    """The outputs without the generic hidden-check line when another error explains the
    cell's failure already."""
    errors = [o for o in outputs if o.output_type == "error" and o.ename != "HiddenCheckFailed"]
    return [o for o in outputs
            if not (errors and o.output_type == "error" and o.ename == "HiddenCheckFailed")]


# ---------------------------------------------------------------- the student's kernel, sandboxed

SANDBOX_LAUNCHER = """
import json, os, resource, subprocess, sys
options, command = json.loads(sys.argv[1]), sys.argv[2:]
def mount(*args):
    subprocess.run(["mount", *args], check=True, capture_output=True)
for path in options["read_only"]:
    mount("--bind", path, path)
    mount("-o", "remount,bind,ro", path)
for path in options["hidden"]:
    mount("-t", "tmpfs", "-o", "size=4k,mode=000", "none", path)
limit = options["memory_bytes"]
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
os.execvp("setpriv", ["setpriv", "--bounding-set=-all", "--inh-caps=-all", "--no-new-privs",
                      *command])
"""


@dataclass(frozen=True)
class Sandbox:
    """How a student's kernel is confined: paths it cannot see (the course root: gradebook,
    sources, other submissions), paths it cannot write (the Python installation, minitorch),
    and its address-space limit. Mounts need Linux user namespaces (``unshare``)."""

    hidden: tuple[str, ...]
    read_only: tuple[str, ...]
    memory_bytes: int

    def wrap(self, command: list[str]) -> list[str]:
        """The kernel command, run inside a private mount namespace without capabilities."""
        options = json.dumps({"hidden": self.hidden, "read_only": self.read_only,
                              "memory_bytes": self.memory_bytes})
        return ["unshare", "--user", "--map-root-user", "--mount", "--",
                sys.executable, "-c", SANDBOX_LAUNCHER, options, *command]


@functools.cache
def namespaces_available() -> bool:
    """Whether this machine lets an unprivileged process mount in its own namespace."""
    if not (shutil.which("unshare") and shutil.which("setpriv")):
        return False
    probe = ["unshare", "--user", "--map-root-user", "--mount", "--",
             "mount", "-t", "tmpfs", "none", tempfile.gettempdir()]
    return subprocess.run(probe, capture_output=True).returncode == 0


class SandboxedKernelManager(AsyncKernelManager):
    """A kernel manager whose kernels start inside ``sandbox`` (None: unconfined)."""

    sandbox: Sandbox | None = None

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        command = super().format_kernel_cmd(extra_arguments)
        return self.sandbox.wrap(command) if self.sandbox else command


# ------------------------------------------------------ grading that the kernel cannot talk round

class GuardedExecute(Execute):
    """nbgrader's Execute, made to grade code that may try to cheat.

    - The kernel runs in a scratch copy of the submission's files, outside the course root,
      inside a ``Sandbox`` where the course root is hidden, Python and minitorch are
      read-only, and memory is limited; IPython and matplotlib keep their files in scratch.
    - A kernel that dies (``os._exit``, a crash, memory) is restarted and grading goes on:
      the cells that ran keep their points, and the fresh kernel first re-runs the set-up cells
      and the student's earlier answers (``replay_earlier_cells``), so later cells can pass.
    - Each test cell's observations (``minitorch.course.observe`` in hidden tests) must match
      those of the instructor's solution, compared here, outside the kernel: a test cell that
      the kernel skipped, rewrote or talked round scores 0.
    """

    memory_limit_mb = Integer(4096, help="Address-space limit of a student's kernel.").tag(
        config=True)
    require_sandbox = Bool(False, help="Refuse to grade when the sandbox is unavailable.").tag(
        config=True)

    def __init__(self, **kwargs: Any) -> None:
        kwargs["kernel_manager_class"] = SandboxedKernelManager
        super().__init__(**kwargs)
        self._expected: dict[str, list] | None = None
        self._scratch: str | None = None

    def preprocess(self, nb: NotebookNode, resources: dict[str, Any],
                   km: Any = None) -> tuple[NotebookNode, dict[str, Any]]:
        folder = resources.get("metadata", {}).get("path") or "."
        if "nbgrader" in resources and self._expected is None:
            self._expected = self._solution_observations(resources)
        with tempfile.TemporaryDirectory(prefix="grading-") as scratch:
            shutil.copytree(folder, scratch, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("*.ipynb", ".*"))
            self._scratch = scratch
            resources.setdefault("metadata", {})["path"] = scratch
            try:
                return super().preprocess(nb, resources, km)
            finally:
                resources["metadata"]["path"] = folder
                self._expected = None

    def create_kernel_manager(self) -> Any:
        km = super().create_kernel_manager()
        km.sandbox = self._sandbox()
        return km

    async def async_start_new_kernel(self, **kwargs: Any) -> None:
        private = {name: os.path.join(self._scratch or ".", folder)
                   for name, folder in (("IPYTHONDIR", ".ipython"), ("MPLCONFIGDIR", ".mpl"))}
        kwargs.setdefault("env", {**os.environ, **private, "PYTHONNOUSERSITE": "1"})
        await super().async_start_new_kernel(**kwargs)

    start_new_kernel = run_sync(async_start_new_kernel)  # nbclient binds the sync one early

    def _sandbox(self) -> Sandbox | None:
        if not namespaces_available():
            if self.require_sandbox:
                raise RuntimeError("the grading sandbox needs Linux user namespaces (unshare)")
            self.log.warning("No sandbox (unshare unavailable): kernels can read the course root")
            return None
        root = Path(CourseDirectory(config=self.config).root).resolve()
        package = Path(minitorch.course.__file__).resolve().parent
        read_only = {sys.prefix, sys.base_prefix, str(package.parent), str(Path.home())}
        return Sandbox(hidden=(str(root),),
                       read_only=tuple(sorted(p for p in read_only if not _inside(root, p))),
                       memory_bytes=self.memory_limit_mb * 2**20)

    def preprocess_cell(self, cell: NotebookNode, resources: dict[str, Any],
                        index: int) -> tuple[NotebookNode, dict[str, Any]]:
        try:
            cell, resources = super().preprocess_cell(cell, resources, index)
        except DeadKernelError:
            cell.outputs.append(new_output("error", ename="DeadKernelError", evalue=KERNEL_DIED,
                                           traceback=[KERNEL_DIED]))
            run_sync(self.km.restart_kernel)(now=True)
            run_sync(self.kc.wait_for_ready)(timeout=self.startup_timeout)
            replay_earlier_cells(self, index)
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        expected = (self._expected or {}).get(grade_id)
        if expected and not same(observations(cell), expected):
            cell.outputs.append(new_output("error", ename="HiddenCheckFailed",
                                           evalue=MISMATCH, traceback=[MISMATCH]))
        return cell, resources

    def _solution_observations(self, resources: dict[str, Any]) -> dict[str, list]:
        """What the instructor's notebook observes in each test cell, cached beside the
        gradebook (hidden from kernels) and keyed by the source's hash."""
        coursedir = CourseDirectory(config=self.config)
        info = resources["nbgrader"]
        folder = Path(coursedir.format_path(coursedir.source_directory, ".", info["assignment"]))
        source = folder / f"{info['notebook']}.ipynb"
        digest = hashlib.sha256(source.read_bytes()).hexdigest()[:16]
        cache = Path(coursedir.root) / ".observations" / f"{info['assignment']}-{digest}.json"
        if cache.exists():
            return json.loads(cache.read_text())
        solution = nbformat.read(source, as_version=4)
        runner = GuardedExecute(config=self.config)
        runner._expected = {}
        runner.preprocess(solution, {"metadata": {"path": str(folder)}})
        found = {cell.metadata.nbgrader.grade_id: observations(cell) for cell in solution.cells
                 if cell.metadata.get("nbgrader", {}).get("grade")}
        cache.parent.mkdir(exist_ok=True)
        cache.write_text(json.dumps(found))
        return json.loads(cache.read_text())  # the same plain data as the next run reads


def replay_earlier_cells(client: Any, index: int) -> list[int]:
    """Re-run, in a freshly restarted kernel, what the cells after ``index`` depend on: the
    locked set-up cells and the student's answer cells before it, outputs discarded (their
    test cells already hold their points). A cell that killed the kernel is not replayed, and
    replay stops at the first cell that fails or overruns ``client.timeout``. Returns the
    indices replayed."""
    replayed = []
    for number, cell in enumerate(client.nb.cells[:index]):
        if not _state_cell(cell) or any(o.get("ename") == "DeadKernelError"
                                        for o in cell.get("outputs", [])):
            continue
        try:
            reply = run_sync(client.kc.execute_interactive)(
                cell.source, store_history=False, allow_stdin=False, timeout=client.timeout,
                output_hook=lambda message: None)
        except TimeoutError:
            run_sync(client.km.interrupt_kernel)()
            break
        replayed.append(number)
        if reply["content"]["status"] != "ok":
            break
    client.log.info("Kernel restarted; replayed cells %s before cell %d", replayed, index)
    return replayed


def _state_cell(cell: NotebookNode) -> bool:
    """A set-up cell (locked, not graded) or an answer cell: code later cells rely on."""
    meta = cell.metadata.get("nbgrader", {})
    return cell.cell_type == "code" and (bool(meta.get("solution"))
                                         or (meta.get("locked") and not meta.get("grade")))


KERNEL_DIED = ("The kernel died while running this cell (os._exit, a crash, or its memory "
               "limit); grading went on in a fresh kernel.")
MISMATCH = "A hidden check did not find the solution's results in this cell."


def _inside(root: Path, path: str) -> bool:
    return root == Path(path) or root in Path(path).parents


def observations(cell: NotebookNode) -> list:
    """The values a cell's code sent with ``minitorch.course.observe``, in order."""
    return [output.data[OBSERVATION_MIME] for output in cell.get("outputs", [])
            if output.output_type == "display_data" and OBSERVATION_MIME in output.get("data", {})]


def _number(value: Any) -> bool:
    return type(value) in (int, float)  # not bool: True is not 1.0


def same(actual: Any, expected: Any) -> bool:
    """Equal observations; numbers equal to a relative 1e-6 (other algorithms round otherwise).

    >>> same([1.0, {"dict": [["a", 2]]}], [1.0000000001, {"dict": [["a", 2]]}])
    True
    >>> same([1.0], [1.1]), same([True], [1.0]), same([1, 2], [1])
    (False, False, False)
    """
    if _number(expected) and _number(actual):  # 3 and 3.0 are the same result
        return math.isclose(actual, expected, rel_tol=1e-6, abs_tol=1e-9)
    if isinstance(expected, list):
        return (isinstance(actual, list) and len(actual) == len(expected)
                and all(map(same, actual, expected)))
    if isinstance(expected, dict):  # nbformat reads JSON objects as NotebookNode, a dict
        return (isinstance(actual, dict) and actual.keys() == expected.keys()
                and all(same(actual[k], expected[k]) for k in expected))
    return type(actual) is type(expected) and actual == expected


# ---------------------------------------------------------------------- logs that read truthfully

class RoutineOutcomes(logging.Filter):
    """Rewords nbclient's ERROR lines, during autograde, for what a student's notebook
    routinely does (a cell that loops past the timeout, a kernel that dies) as one WARNING
    each, saying what grading does about it; every other record passes unchanged.

    >>> record = logging.LogRecord("AutogradeApp", logging.ERROR, "", 0,
    ...                            "Timeout waiting for execute reply (%is).", (60,), None)
    >>> RoutineOutcomes().filter(record), record.levelname, record.getMessage()[:38]
    (True, 'WARNING', 'A cell ran past the 60 s timeout: it w')
    """

    REWORDED = {
        "Timeout waiting for execute reply": "A cell ran past the {} s timeout: it was "
        "interrupted, scores 0, and grading goes on.",
        "Kernel died while waiting for execute reply": "The kernel died in a cell (os._exit, "
        "a crash, its memory limit): that cell scores 0; grading goes on in a fresh kernel.",
        "Interrupting kernel": None,  # said by the timeout line above
    }

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        for start, text in self.REWORDED.items():
            if message.startswith(start):
                if text is None:
                    return False
                seconds = re.findall(r"\d+", message)
                record.msg, record.args = text.format(*seconds[:1]), ()
                record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def quiet_routine_logs(*app_names: str) -> None:
    """Install ``RoutineOutcomes`` on the loggers of the nbgrader applications named."""
    for name in app_names:
        logging.getLogger(name).addFilter(RoutineOutcomes())
