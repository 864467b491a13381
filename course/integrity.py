"""nbgrader plug-ins that keep grading honest; course/nbgrader_config.py loads them.

``HideHiddenTests`` runs in ``nbgrader generate_feedback``: the autograded notebook holds the
hidden tests again (autograde puts them back to run them), and the feedback HTML students get
is made from it. This preprocessor removes the hidden-test region from every test cell and
every output line that quotes it; an error raised by a hidden line becomes one line saying
that a hidden test failed.
"""

from __future__ import annotations

import atexit
import compileall
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
import time
from dataclasses import dataclass
from pathlib import Path
from queue import Empty
from typing import Any

import nbformat
from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_client.channels import AsyncZMQSocketChannel
from jupyter_client.manager import AsyncKernelManager
from jupyter_core.utils import run_sync
from nbclient.exceptions import DeadKernelError
from nbformat import NotebookNode
from nbformat.v4 import new_output
from nbgrader.api import MissingEntry
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import ClearHiddenTests, Execute, OverwriteCells
from traitlets import Bool, Dict, Enum, Integer, List, Type, default

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

    # generate_feedback hands the HTML exporter's output priority to every preprocessor;
    # declared as configurable (as nbgrader's GetGrades does), nbgrader does not warn about it
    display_data_priority = List(ClearHiddenTests.display_data_priority.default_value).tag(
        config=True)

    def preprocess_cell(
        self, cell: NotebookNode, resources: dict[str, Any], cell_index: int
    ) -> tuple[NotebookNode, dict[str, Any]]:
        region = _hidden_region(cell.source, self.begin_test_delimeter,
                                self.end_test_delimeter)
        cell, resources = super().preprocess_cell(cell, resources, cell_index)
        if cell.cell_type == "code":
            count = cell.get("execution_count")
            outputs = [_scrub(output, region, count) for output in cell.get("outputs", [])]
            if not cell.metadata.get("nbgrader", {}).get("grade"):
                outputs = [_demo_note(output) for output in outputs]
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


GRADING_COPY_NOTE = ("This cell uses a piece of minitorch that the grader leaves out, so that "
                     "no exercise can hand its work to it; it runs in your own notebook. Nothing "
                     "is graded here.")


def _demo_note(output: NotebookNode) -> NotebookNode:
    """A cell that is not graded and stopped at a piece missing from the grading copy: a note
    saying so, instead of a traceback that reads like a mistake of the student's.

    >>> note = _demo_note(new_output("error", ename="SwitchedOff", evalue="", traceback=[]))
    >>> note.output_type, note.text == GRADING_COPY_NOTE
    ('stream', True)
    """
    if output.output_type == "error" and output.ename == "SwitchedOff":
        return new_output("stream", name="stdout", text=GRADING_COPY_NOTE)
    return output


def _explained(outputs: list[NotebookNode]) -> list[NotebookNode]:
    """The outputs without the generic hidden-check line when another error explains the
    cell's failure already."""
    errors = [o for o in outputs if o.output_type == "error" and o.ename != "HiddenCheckFailed"]
    return [o for o in outputs
            if not (errors and o.output_type == "error" and o.ename == "HiddenCheckFailed"
                    and o.evalue.startswith(MISMATCH))]  # an expect's own message stays


# ---------------------------------------------------------------- the student's kernel, sandboxed
#
# Preferred: bubblewrap (Debian's `bwrap`). The kernel gets its own user, pid, network, IPC
# and UTS namespaces, no capabilities, a private /tmp, and sees only read-only binds of the
# Python installation and of a grading copy of minitorch, plus the scratch copy of the
# submission's files and a private folder holding its own connection file and sockets
# (the kernel talks to the grader over Unix sockets: it has no network). Everything it starts
# dies with it (--die-with-parent and the pid namespace). Fallback where bwrap cannot run:
# the older `unshare` mount namespace below, which hides the course root only.

BWRAP_ISOLATION = ("--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL",
                   "--die-with-parent")
SYSTEM_PATHS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc/fonts",
                "/etc/localtime", "/etc/alternatives", "/etc/ld.so.cache")
KERNEL_ENV = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "NBGRADER_EXECUTION",
              "NBGRADER_VALIDATING", "MPLBACKEND")


# An interrupt (a cell's timeout) is SIGINT to the kernel's process group, bwrap included: bwrap
# must ignore it (the kernel handles it while it runs a cell) or the whole sandbox dies.
IGNORE_SIGINT = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); "
                 "os.execvp(sys.argv[1], sys.argv[1:])")


@functools.cache
def bubblewrap_available() -> bool:
    """Whether ``bwrap`` can build the grading sandbox on this machine (as this user)."""
    bwrap = shutil.which("bwrap")
    if not (bwrap and shutil.which("prlimit")):
        return False
    probe = [bwrap, *BWRAP_ISOLATION, "--ro-bind", "/", "/", "--proc", "/proc", "--", "true"]
    return subprocess.run(probe, capture_output=True).returncode == 0


def _system_binds(path: str) -> list[str]:
    """bwrap arguments that show ``path`` read-only (a symlink stays a symlink)."""
    if os.path.islink(path):
        return ["--symlink", os.readlink(path), path]
    return ["--ro-bind", path, path] if os.path.exists(path) else []


@dataclass(frozen=True)
class Bubble:
    """A kernel confined by bubblewrap: it sees ``read_only`` (Python, system libraries),
    ``packages`` (the grading copy of minitorch, first on sys.path), ``scratch`` (the
    submission's files, its only writable folder and its home) and ``private`` (its
    connection file and sockets); ``masked`` folders (another minitorch) appear empty."""

    scratch: str
    private: str
    packages: str
    read_only: tuple[str, ...]
    masked: tuple[str, ...]
    memory_bytes: int

    def wrap(self, command: list[str]) -> list[str]:
        """The kernel command, run by bwrap under an address-space limit."""
        args = ["bwrap", *BWRAP_ISOLATION, "--proc", "/proc", "--dev", "/dev",
                "--tmpfs", "/tmp"]
        for path in self.read_only:
            args += _system_binds(path)
        for path in self.masked:
            args += ["--tmpfs", path, "--remount-ro", path]
        args += ["--ro-bind", self.packages, self.packages, "--bind", self.scratch, self.scratch,
                 "--bind", self.private, self.private, "--chdir", self.scratch, "--clearenv"]
        env = {name: os.environ[name] for name in KERNEL_ENV if name in os.environ}
        env |= {"HOME": self.scratch, "IPYTHONDIR": f"{self.scratch}/.ipython",
                "MPLCONFIGDIR": f"{self.scratch}/.mpl", "PYTHONPATH": self.packages,
                "PYTHONNOUSERSITE": "1", "TMPDIR": "/tmp",
                "JPY_PARENT_PID": "1"}  # ipykernel: no parent to poll, no banner on stdout
        for name, value in env.items():
            args += ["--setenv", name, value]
        return [sys.executable, "-c", IGNORE_SIGINT, "prlimit", f"--as={self.memory_bytes}", "--",
                *args, "--", *command]


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
    """The fallback confinement (no bwrap): paths a kernel cannot see (the course root:
    gradebook, sources, other submissions), paths it cannot write (the Python installation,
    minitorch), and its address-space limit. Mounts need Linux user namespaces (``unshare``)."""

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


class PromptChannel(AsyncZMQSocketChannel):
    """A kernel channel that looks for a waiting message at least every tenth of a second.

    pyzmq's asyncio poll can miss a message's arrival: after an ``ipywidgets.interact`` cell,
    about one cell in thirty (on a loaded machine) waited out its whole timeout (nbgrader's 60 s)
    and then found its reply, which had been there all along. Polling in slices bounds that wait
    (a wake-up every 0.1 s costs microseconds).
    """

    async def get_msg(self, timeout: float | None = None) -> dict[str, Any]:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = 0.1 if deadline is None else max(0.0, min(0.1, deadline - time.monotonic()))
            if await self.socket.poll(int(left * 1000)):  # type: ignore[union-attr]
                return await self._recv()
            if deadline is not None and time.monotonic() >= deadline:
                raise Empty


class PromptKernelClient(AsyncKernelClient):
    """nbclient's kernel client, its message channels :class:`PromptChannel`."""

    shell_channel_class = Type(PromptChannel)
    iopub_channel_class = Type(PromptChannel)
    stdin_channel_class = Type(PromptChannel)
    control_channel_class = Type(PromptChannel)


class SandboxedKernelManager(AsyncKernelManager):
    """A kernel manager whose kernels start inside ``sandbox`` (None: unconfined), talked to
    by a :class:`PromptKernelClient`."""

    sandbox: Bubble | Sandbox | None = None

    @default("client_factory")
    def _prompt_client(self) -> type:
        return PromptKernelClient

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        command = super().format_kernel_cmd(extra_arguments)
        return self.sandbox.wrap(command) if self.sandbox else command


# ------------------------------------------------ the grading copy of minitorch: no reference

# The seams each assignment's exercises rebuild, absent from its grading copy of minitorch: the
# chapter's tests run on the student's own piece (plugged in), or on a stand-in that keeps the
# rest of minitorch working without doing the exercise's job (STAND_INS).
REMOVED_SEAMS = {
    "01_dag": ["viz.dot.walk", "engine.discover"],
    "02_manual_backward": ["engine.discover", "engine.execute"],
    "03_custom_function": ["function.apply_custom"],
    # minitorch's own code switches through grad_mode._recording, which stays
    "04_grad_modes": ["grad_mode.set_state"],
    "05_inplace": ["graph.check_version"],
    "06_gradcheck": ["gradcheck.numerical_jacobian", "gradcheck.allclose"],
    "07_profiler": ["profiler.build_events", "profiler.average_events", "profiler.format_table",
                    "profiler._format_time",
                    # exercise 1's stack of open events (not a seam: tests plug in with use)
                    "profiler.profile._push", "profiler.profile._pop"],
}
# Code that does the work of a seam under another name: removed wherever the seam is.
TWINS = {
    "viz.dot.walk": ("engine._reachable",),
    "profiler.format_table": ("profiler._Table",),
    "profiler.average_events": ("profiler.FunctionEventAvg.add",),
    "function.apply_custom": ("function._validate_grads",),
    # the managers' restore-on-exit and decorator logic, whatever set_state a student puts back
    "grad_mode.set_state": ("grad_mode._Mode", "grad_mode.set_grad_enabled",
                            "grad_mode._per_thread_state"),
}
# What a removed piece does instead of raising where the chapter's other exercises need it.
STAND_INS = {
    # Backward still refuses a stale saved tensor, without the message exercise 1 of 05 writes.
    "graph.check_version": (
        "if tensor._version_counter.value != saved._version:\n"
        "    raise RuntimeError(\"a tensor saved for backward was changed in place (the "
        "grading copy of minitorch checks versions without torch's message)\")\n"),
    # A user-defined Function runs much as a built-in op does: an edge for every argument,
    # what backward returns unchecked. That keeps 03's other exercises and demos (old and
    # setup_context style) running, and is not the apply its exercise 2 asks for.
    "function.apply_custom": (
        "if kwargs:\n"
        "    args = _placed(cls.forward, args, kwargs)\n"
        "node, record = _new_node(cls, args)\n"
        "outputs = _run_forward(cls, node, args)\n"
        "if not record:\n"
        "    return outputs\n"
        "node._next = tuple(e for a in args\n"
        "                   for e in (a._edge() if isinstance(a, T.Tensor) else _NO_EDGE))\n"
        "return _link(node, args, outputs)\n"),
    "function._validate_grads": "return grads\n",
    # One state for every thread: what 04's threads test asks for cannot be borrowed.
    "grad_mode._per_thread_state": (
        "import types\n"
        "return types.SimpleNamespace(grad_enabled=True, inference=False)\n"),
}


def with_twins(seams: list[str]) -> list[str]:
    """The seams and the functions that would do their work under another name.

    >>> with_twins(["viz.dot.walk", "engine.discover"])
    ['engine._reachable', 'engine.discover', 'viz.dot.walk']
    """
    return sorted({*seams, *(twin for name in seams for twin in TWINS.get(name, ()))})


def _module_file(package: Path, dotted: str) -> Path:
    """The file of a seam's module: ``engine`` is minitorch/autograd/engine.py (autograd's
    ``profiler`` before minitorch's own, as seams are named), ``viz.dot`` minitorch/viz/dot.py."""
    relative = Path(*dotted.split(".")).with_suffix(".py")
    for candidate in (package / "autograd" / relative, package / relative):
        if candidate.is_file():
            return candidate
    raise KeyError(f"no module {dotted!r} in {package}: fix the seam's name in the tests")


def _without_body(text: str, name: str, target: str, body: str | None = None) -> str:
    """``text`` (a module's source) with the body of its top-level function, class method
    (``Class.method``) or every method of a class (``Class``) replaced by ``body`` (a stand-in,
    indented as a function body at column 0), or by one that raises SwitchedOff; signatures,
    decorators and docstrings go with the old body.

    >>> print(_without_body("def f(x):\\n    return x\\n", "m.f", "f", "return 0\\n"), end="")
    def f(x):
        return 0
    """
    import ast

    lines = text.splitlines(keepends=True)
    found = _definitions(ast.parse(text).body, target.split("."))
    if not found:
        raise KeyError(f"no function or class {target!r} at the top level of {name}'s module")
    stub = body or (f"from minitorch.course import SwitchedOff\nraise SwitchedOff(\"minitorch's "
                    f"{name} is not in the grading copy: write your own\")\n")
    for node in sorted(found, key=lambda node: node.lineno, reverse=True):
        first, indent = node.body[0].lineno, " " * node.body[0].col_offset
        code = "".join(indent + line if line.strip() else line
                       for line in stub.splitlines(keepends=True))
        lines[first - 1:node.end_lineno] = [code]
    return "".join(lines)


def _definitions(body: list, path: list[str]) -> list:
    """The function definitions ``path`` names in a module's ``body``: a function, a method
    (``["Class", "method"]``) or every method of a class (``["Class"]``)."""
    import ast

    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    for node in body:
        if getattr(node, "name", None) != path[0]:
            continue
        if isinstance(node, functions) and len(path) == 1:
            return [node]
        if isinstance(node, ast.ClassDef):
            methods = [n for n in node.body if isinstance(n, functions)]
            return [n for n in methods if len(path) == 1 or n.name == path[1]]
    return []


def grading_package(folder: Path, removed: list[str]) -> Path:
    """A copy of the minitorch package in ``folder`` (which goes on sys.path) whose
    ``removed`` seams hold no code: delegating to them earns nothing, however reached."""
    shutil.copytree(shared_grading_package(removed) / "minitorch", folder / "minitorch")
    return folder


def shared_grading_package(removed: list[str]) -> Path:
    """The folder (which goes on sys.path) of this process's one grading copy of minitorch
    without the ``removed`` seams, for kernels that can only read it (in a sandbox)."""
    source = Path(minitorch.course.__file__).resolve().parent
    return _compiled_package(source, tuple(removed), _fingerprint(source))


def _fingerprint(source: Path) -> tuple:
    """What says that minitorch's sources changed (an upgrade under a long-lived grader)."""
    return tuple((str(path), stat.st_mtime_ns, stat.st_size)
                 for path in sorted(source.rglob("*.py")) for stat in [path.stat()])


@functools.cache
def _compiled_package(source: Path, removed: tuple[str, ...], fingerprint: tuple) -> Path:
    """The grading copy of minitorch, built once per process and compiled to bytecode: a
    kernel's read-only copy cannot cache bytecode, and compiling all of minitorch at every
    ``import minitorch`` cost each graded notebook two seconds. copytree keeps the modules'
    times, so the bytecode stays valid in a notebook's own copy."""
    folder = Path(tempfile.mkdtemp(prefix="minitorch-grading-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    package = folder / "minitorch"
    shutil.copytree(source, package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in removed:
        module, target = _split(package, name)
        path = _module_file(package, module)
        path.write_text(_without_body(path.read_text(), name, target, STAND_INS.get(name)))
    compileall.compile_dir(package, quiet=1)
    return folder


def _split(package: Path, name: str) -> tuple[str, str]:
    """A removed piece's module and its name there: ``profiler._Table.render`` is the method
    ``_Table.render`` of the module ``profiler``."""
    parts = name.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            _module_file(package, ".".join(parts[:cut]))
        except KeyError:
            continue
        return ".".join(parts[:cut]), ".".join(parts[cut:])
    raise KeyError(f"no module for {name!r} in {package}: fix the seam's name in the tests")


def _installed_copies(visible: list[str]) -> list[str]:
    """Folders of minitorch (a wheel install) inside the read-only binds: masked."""
    found = []
    for entry in sys.path:
        package = Path(entry or ".").resolve() / "minitorch"
        if package.is_dir() and any(_inside(Path(path), str(package)) for path in visible):
            found.append(str(package))
    return sorted(set(found))


# ------------------------------------------------------ grading that the kernel cannot talk round

class GuardedExecute(Execute):
    """nbgrader's Execute, made to grade code that may try to cheat.

    - The kernel runs in a scratch copy of the submission's files, outside the course root,
      in a bubblewrap sandbox (see above) with a grading copy of minitorch from which the
      pieces the assignment's exercises rebuild are removed; memory is limited.
    - A kernel that dies (``os._exit``, a crash, memory) is restarted and grading goes on:
      the cells that ran keep their points, and the fresh kernel first re-runs the set-up cells
      and the student's earlier answers (``replay_earlier_cells``), so later cells can pass.
    - A test cell scores from the grader's verdict alone: its observations
      (``minitorch.course.observe`` in hidden tests) must match those of the instructor's
      solution, compared here, outside the kernel. Results the kernel displays
      (``execute_result``, which nbgrader would read as partial credit) become plain
      displays; a cell that the kernel skipped, rewrote or talked round scores 0.
    """

    memory_limit_mb = Integer(4096, help="Address-space limit of a student's kernel.").tag(
        config=True)
    require_sandbox = Bool(False, help="Refuse to grade when the sandbox is unavailable.").tag(
        config=True)
    removed_seams = Dict(REMOVED_SEAMS, help="Per assignment id, the seams (and their twins) "
                         "left out of the kernel's copy of minitorch.").tag(config=True)
    # A graded kernel's own exit (atexit hooks, the interpreter's teardown) took a second of
    # every notebook and decides nothing: it is killed once the last cell has run (with its
    # process group; in bwrap, with its whole pid namespace).
    shutdown_kernel = Enum(["graceful", "immediate"], default_value="immediate",
                           help="How the kernel is stopped after the last cell.").tag(config=True)

    def __init__(self, **kwargs: Any) -> None:
        kwargs["kernel_manager_class"] = SandboxedKernelManager
        super().__init__(**kwargs)
        self._expected: dict[str, list] | None = None
        self._verdicts: dict[int, NotebookNode | None] = {}
        self._scratch: str | None = None
        self._private: str | None = None
        self._packages: str | None = None

    def preprocess(self, nb: NotebookNode, resources: dict[str, Any],
                   km: Any = None) -> tuple[NotebookNode, dict[str, Any]]:
        folder = resources.get("metadata", {}).get("path") or "."
        assignment = resources.get("nbgrader", {}).get("assignment")
        if assignment and self._expected is None:
            self._expected = self._solution_observations(resources)
        assignment = assignment or resources.get("grading_assignment")
        removed = with_twins(self.removed_seams.get(assignment, []))
        with tempfile.TemporaryDirectory(prefix="grading-") as work:
            scratch, private = Path(work, "scratch"), Path(work, "private")
            private.mkdir(mode=0o700)
            shutil.copytree(folder, scratch, ignore=shutil.ignore_patterns("*.ipynb", ".*"))
            self._scratch, self._private = str(scratch), str(private)
            if bubblewrap_available() or namespaces_available():  # mounted read-only
                self._packages = str(shared_grading_package(removed))
            else:
                self._packages = str(grading_package(Path(work, "packages"), removed))
            self._verdicts = {}
            resources.setdefault("metadata", {})["path"] = str(scratch)
            try:
                nb, resources = super().preprocess(nb, resources, km)
            finally:
                resources["metadata"]["path"] = folder
                self._expected = None
        for index, cell in enumerate(nb.cells):
            if _is_test(cell):
                cell.outputs = [_inert(output) for output in cell.get("outputs", [])]
                cell.outputs += [self._verdicts[index]] if self._verdicts.get(index) else []
        return nb, resources

    def create_kernel_manager(self) -> Any:
        km = super().create_kernel_manager()
        km.sandbox = self._sandbox()
        if isinstance(km.sandbox, Bubble):  # no network inside: Unix sockets, a private folder
            km.transport, km.ip = "ipc", f"{self._private}/kernel"
            km.connection_file = f"{self._private}/kernel.json"
        return km

    async def async_start_new_kernel(self, **kwargs: Any) -> None:
        private = {name: os.path.join(self._scratch or ".", folder)
                   for name, folder in (("IPYTHONDIR", ".ipython"), ("MPLCONFIGDIR", ".mpl"))}
        kwargs.setdefault("env", {**os.environ, **private, "PYTHONNOUSERSITE": "1",
                                  "PYTHONPATH": self._packages or ""})
        await super().async_start_new_kernel(**kwargs)

    start_new_kernel = run_sync(async_start_new_kernel)  # nbclient binds the sync one early

    def _sandbox(self) -> Bubble | Sandbox | None:
        memory = self.memory_limit_mb * 2**20
        if bubblewrap_available():
            read_only = [*SYSTEM_PATHS, sys.base_prefix, sys.prefix]
            return Bubble(scratch=self._scratch or ".", private=self._private or ".",
                          packages=self._packages or ".", read_only=tuple(read_only),
                          masked=tuple(_installed_copies(read_only)), memory_bytes=memory)
        if not namespaces_available():
            if self.require_sandbox:
                raise RuntimeError("the grading sandbox needs bubblewrap (apt-get install "
                                   "bubblewrap) or Linux user namespaces (unshare)")
            self.log.warning("No sandbox (neither bwrap nor unshare can run here): kernels "
                             "can read the course root and reach the network")
            return None
        self.log.warning("bwrap cannot run here: grading in the weaker unshare sandbox (the "
                         "course root hidden; no pid or network namespace)")
        root = Path(CourseDirectory(config=self.config).root).resolve()
        read_only = {sys.prefix, sys.base_prefix, self._packages or ".", str(Path.home())}
        return Sandbox(hidden=(str(root),),
                       read_only=tuple(sorted(p for p in read_only if not _inside(root, p))),
                       memory_bytes=memory)

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
        if _is_test(cell):  # judged now: later displays may rewrite this cell's outputs
            self._verdicts[index] = self._verdict(cell)
        return cell, resources

    def _verdict(self, cell: NotebookNode) -> NotebookNode | None:
        """None when the cell's observations are the solution's, else an error output."""
        if self._expected is None:  # the solution's own run: nothing to compare with
            return None
        expected = self._expected.get(cell.metadata.nbgrader.grade_id)
        if expected is None:
            return new_output("error", ename="HiddenCheckFailed", evalue=UNKNOWN_CELL,
                              traceback=[UNKNOWN_CELL])
        got = observations(cell)
        if same(got, expected):
            return None
        message = mismatch(got, expected)
        return new_output("error", ename="HiddenCheckFailed", evalue=message,
                          traceback=[message])

    def _solution_observations(self, resources: dict[str, Any]) -> dict[str, list]:
        """What the instructor's notebook observes in each test cell, cached beside the
        gradebook (hidden from kernels) and keyed by the source's hash."""
        coursedir = CourseDirectory(config=self.config)
        info = resources["nbgrader"]
        assignment = info["assignment"]
        folder = Path(coursedir.format_path(coursedir.source_directory, ".", assignment))
        source = folder / f"{info['notebook']}.ipynb"
        removed = json.dumps(with_twins(self.removed_seams.get(assignment, [])))
        digest = hashlib.sha256(source.read_bytes() + removed.encode()).hexdigest()[:16]
        cache = Path(coursedir.root) / ".observations" / f"{assignment}-{digest}.json"
        if cache.exists():
            return json.loads(cache.read_text())
        solution = nbformat.read(source, as_version=4)
        runner = GuardedExecute(config=self.config)
        runner._expected = None
        runner.preprocess(solution, {"metadata": {"path": str(source.parent)},
                                     "grading_assignment": assignment})
        found = {cell.metadata.nbgrader.grade_id: observations(cell)
                 for cell in solution.cells if _is_test(cell)}
        cache.parent.mkdir(exist_ok=True)
        cache.write_text(json.dumps(found))
        return json.loads(cache.read_text())  # the same plain data as the next run reads


def replay_earlier_cells(client: Any, index: int) -> list[int]:
    """Re-run, in a freshly restarted kernel, what the cells after ``index`` depend on: the
    code cells before it but test cells (set-up, ordinary and answer cells), outputs discarded
    (test cells already hold their points). A cell that killed the kernel is not replayed; a
    cell that fails is passed over as in the first run (chapters show errors on purpose), and
    replay stops at a cell that overruns ``client.timeout``. Returns the indices replayed."""
    replayed = []
    for number, cell in enumerate(client.nb.cells[:index]):
        if not _state_cell(cell) or any(o.get("ename") == "DeadKernelError"
                                        for o in cell.get("outputs", [])):
            continue
        try:
            run_sync(client.kc.execute_interactive)(
                cell.source, store_history=False, allow_stdin=False, timeout=client.timeout,
                output_hook=lambda message: None)
        except TimeoutError:
            run_sync(client.km.interrupt_kernel)()
            break
        replayed.append(number)
    client.log.info("Kernel restarted; replayed cells %s before cell %d", replayed, index)
    return replayed


def _state_cell(cell: NotebookNode) -> bool:
    """Code later cells rely on: every code cell but a test cell. Set-up and answer cells,
    and the chapter's ordinary cells too: in 03 the imports of minitorch and numpy live in
    those, and without them every cell after a crash failed with a NameError."""
    meta = cell.metadata.get("nbgrader", {})
    return cell.cell_type == "code" and (bool(meta.get("solution")) or not meta.get("grade"))


KERNEL_DIED = ("The kernel died while running this cell (os._exit, a crash, or its memory "
               "limit); grading went on in a fresh kernel.")
MISMATCH = "A hidden check did not find the solution's results in this cell."
UNKNOWN_CELL = "This test cell is not in the instructor's notebook: it earns nothing."


def _is_test(cell: NotebookNode) -> bool:
    """A graded cell that nbgrader scores from its outputs (a test cell)."""
    meta = cell.metadata.get("nbgrader", {})
    return cell.cell_type == "code" and bool(meta.get("grade")) and not meta.get("solution")


def _inert(output: NotebookNode) -> NotebookNode:
    """``output``, unable to raise a score: an ``execute_result`` becomes a display."""
    if output.output_type != "execute_result":
        return output
    return new_output("display_data", data=output.get("data", {}),
                      metadata=output.get("metadata", {}))


def _inside(root: Path, path: str) -> bool:
    return root == Path(path) or root in Path(path).parents


def observations(cell: NotebookNode) -> list:
    """The values a cell's code sent with ``minitorch.course.observe``, in order."""
    return [output.data[OBSERVATION_MIME] for output in cell.get("outputs", [])
            if output.output_type == "display_data" and OBSERVATION_MIME in output.get("data", {})]


TOLD = 3  # failed expectations shown in full per cell


def mismatch(got: list, expected: list) -> str:
    """What differs: for each failed ``expect``, its sentence, the first difference (expected
    against got) and its hint or the named mistake; for plain ``observe`` results, MISMATCH
    and which result and which key or position, never the solution's value.

    >>> got, solution = {"dict": [["a", 1], ["b", 2]]}, {"dict": [["a", 1], ["b", 3]]}
    >>> mismatch([[got]], [[solution]]).removeprefix(MISMATCH + " ")
    "They differ at: hidden result 1, key 'b' (got: 2)."
    >>> mismatch([], [[1.0]]).removeprefix(MISMATCH + " ")
    'It sent no results: did an earlier line of the cell fail?'
    >>> from minitorch.course import expectation
    >>> print(mismatch([[expectation("x.grad", [0.5, 4.0], None, None)]],
    ...                [[expectation("x.grad", [1.5, 4.0], "add, do not overwrite", None)]]))
    x.grad (a hidden test)
      first difference at [0]: expected 1.5, got 0.5
      hint: add, do not overwrite
    """
    if not got and expected:
        return f"{MISMATCH} It sent no results: did an earlier line of the cell fail?"
    flat_got = [value for call in got for value in call]
    flat_expected = [value for call in expected for value in call]
    sent: dict[str, list] = {}  # the cell's expectations by sentence, in order: a cell that
    for value in flat_got:      # stopped early is matched on what it sent
        if _is_expectation(value):
            sent.setdefault(str(value["expect"]), []).append(value)
    told = []
    for wanted in filter(_is_expectation, flat_expected):
        mine = sent.get(wanted["expect"])
        if mine and not _holds(mine[0], wanted):
            told.append(_expectation_failed(mine[0], wanted))
        if mine:
            mine.pop(0)
    if len(told) > TOLD:  # the first few teach; later ones often follow from them
        told[TOLD:] = [f"... and {len(told) - TOLD} more hidden checks of this cell differ."]
    plain_got = [value for value in flat_got if not _is_expectation(value)]
    plain_expected = [value for value in flat_expected if not _is_expectation(value)]
    if len(plain_got) != len(plain_expected):
        return "\n".join(told) or MISMATCH
    places = [f"hidden result {number}{where}"
              for number, (a, b) in enumerate(zip(plain_got, plain_expected), 1)
              for where in _differences(a, b)]
    shown = ", ".join(places[:6]) + (f" and {len(places) - 6} more" if len(places) > 6 else "")
    lines = told + ([f"{MISMATCH} They differ at: {shown}."] if places else [])
    return "\n".join(lines) or MISMATCH


def _is_expectation(value: Any) -> bool:
    return isinstance(value, dict) and "expect" in value


def _holds(got: Any, expected: dict) -> bool:
    """The cell's ``expect`` is the solution's (its sentence) and gave the solution's value, to
    the solution's ``tol``; the kernel's copy of the hint and mistakes plays no part."""
    return (_is_expectation(got) and got["expect"] == expected["expect"]
            and same(got.get("got"), expected["got"], expected["tol"]))


def _expectation_failed(got: dict, expected: dict) -> str:
    """What a failed ``expect`` tells the student: the solution's sentence and hint (never the
    kernel's copy of them), the first difference, a known mistake by name."""
    value = got.get("got")
    where, wanted, found = (first_difference(value, expected["got"], expected["tol"])
                            or ("", "?", "?"))
    lines = [f"{expected['expect']} (a hidden test)",
             f"  first difference{where}: expected {readable(wanted)}, got {readable(found)}"]
    named = [name for name, mistake in expected["mistakes"]
             if same(value, mistake, expected["tol"])]
    if named:
        lines.append(f"  this is what you get when {named[0]}")
    elif expected.get("hint"):
        lines.append(f"  hint: {expected['hint']}")
    return "\n".join(lines)


def first_difference(got: Any, expected: Any,
                     tol: float | None = None) -> tuple[str, Any, Any] | None:
    """Where two observed values first differ, and the two values there; None when the same.

    >>> first_difference([1, [2, 3]], [1, [2, 4]])
    (' at [1][1]', 4, 3)
    >>> first_difference({"dict": [["b", True]]}, {"dict": [["a", 1], ["b", True]]})
    (" at ['a']", 1, 'missing')
    >>> first_difference({"tensor": [1.0], "dtype": "torch.float64"},
    ...                  {"tensor": [1.0], "dtype": "torch.float32"})
    (' (dtype)', 'torch.float32', 'torch.float64')
    """
    found = _first(got, expected, "", tol)
    if found is None:
        return None
    path, what, wanted, value = found
    return (f" at {path}" if path else "") + what, wanted, value


def _first(got: Any, expected: Any, path: str,
           tol: float | None) -> tuple[str, str, Any, Any] | None:
    """(path such as "[1]['a']", a qualifier such as " (length)", expected, got)."""
    if same(got, expected, tol):
        return None
    kind = _kind(expected)
    if kind in ("tensor", "array") and _kind(got) == kind:
        if got["dtype"] != expected["dtype"]:
            return path, " (dtype)", expected["dtype"], got["dtype"]
        return _first(got[kind], expected[kind], path, tol)
    if kind == "dict" and _kind(got) == kind:
        mine = {json.dumps(key): value for key, value in got["dict"]}
        for key, value in expected["dict"]:
            at = f"{path}[{readable(key)}]"
            if json.dumps(key) not in mine:
                return at, "", value, "missing"
            if not same(mine[json.dumps(key)], value, tol):
                return _first(mine[json.dumps(key)], value, at, tol)
        return path, " (keys)", [k for k, _ in expected["dict"]], [k for k, _ in got["dict"]]
    if isinstance(got, list) and isinstance(expected, list):
        if len(got) != len(expected):
            return path, " (length)", len(expected), len(got)
        index = next(i for i, (a, b) in enumerate(zip(got, expected)) if not same(a, b, tol))
        return _first(got[index], expected[index], f"{path}[{index}]", tol)
    return path, "", expected, got


def _kind(value: Any) -> str | None:
    if isinstance(value, dict):
        return next((kind for kind in ("tensor", "array", "dict") if kind in value), None)
    return None


def readable(value: Any) -> str:
    """An observed value written back as Python would show it, cut at 300 characters.

    >>> readable([{"tensor": [1.0, 2.0], "dtype": "torch.float32"}, {"node": "MulBackward0"},
    ...           {"dict": [["a", None]]}, {"float": "nan"}, "s"])
    "[tensor([1.0, 2.0]), MulBackward0, {'a': None}, nan, 's']"
    """
    text = _readable(value)
    return text if len(text) <= 300 else text[:297] + "..."


def _readable(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(map(_readable, value)) + "]"
    if not isinstance(value, dict):
        return repr(value)
    kind = _kind(value)
    if kind in ("tensor", "array"):
        return f"{kind}({_readable(value[kind])})"
    if kind == "dict":
        return "{" + ", ".join(f"{_readable(k)}: {_readable(v)}" for k, v in value["dict"]) + "}"
    if "set" in value:
        return "{" + ", ".join(map(_readable, value["set"])) + "}"
    for key in ("node", "repr", "float"):
        if key in value:
            return str(value[key])
    return repr(value)


def _differences(got: Any, expected: Any, where: str = "") -> list[str]:
    """Where ``got`` differs from ``expected``: keys of observed dicts, positions of lists
    of the same length; the whole value elsewhere."""
    if same(got, expected):
        return []
    if isinstance(got, dict) and isinstance(expected, dict) and "dict" in expected \
            and "dict" in got:
        mine = {json.dumps(k): v for k, v in got["dict"]}
        return [place for key, value in expected["dict"]
                for place in _differences(mine.get(json.dumps(key), object()), value,
                                          f"{where}, key {_shown(key)}")]
    if isinstance(got, list) and isinstance(expected, list) and len(got) == len(expected) \
            and all(isinstance(item, (list, dict)) for item in expected):
        return [place for i, (a, b) in enumerate(zip(got, expected), 1)
                for place in _differences(a, b, f"{where}, item {i}")]
    if got is None or isinstance(got, (bool, int, float, str)):
        return [f"{where} (got: {got!r})"]
    return [where]


def _shown(key: Any) -> str:
    return repr(tuple(key)) if isinstance(key, list) else repr(key)


def _number(value: Any) -> bool:
    return type(value) in (int, float)  # not bool: True is not 1.0


def same(actual: Any, expected: Any, tol: float | None = None) -> bool:
    """Equal observations; numbers equal to a relative 1e-6 (other algorithms round otherwise),
    or to a relative and absolute ``tol`` when one is given (an ``expect``'s).

    >>> same([1.0, {"dict": [["a", 2]]}], [1.0000000001, {"dict": [["a", 2]]}])
    True
    >>> same([1.0], [1.1]), same([True], [1.0]), same([1, 2], [1]), same(1.0, 1.1, tol=0.2)
    (False, False, False, True)

    An ``expect`` compares to its own tolerance, looser or stricter than 1e-6:

    >>> from minitorch.course import expectation
    >>> same(expectation("x", 1.0001, tol=1e-3), expectation("x", 1.0, tol=1e-3))
    True
    >>> same(expectation("x", 1.0000001, tol=1e-12), expectation("x", 1.0, tol=1e-12))
    False
    """
    if _is_expectation(expected):
        return _holds(actual, expected)
    if _number(expected) and _number(actual):  # 3 and 3.0 are the same result
        rel, absolute = (1e-6, 1e-9) if tol is None else (tol, tol)
        return math.isclose(actual, expected, rel_tol=rel, abs_tol=absolute)
    if isinstance(expected, list):
        return (isinstance(actual, list) and len(actual) == len(expected)
                and all(same(a, e, tol) for a, e in zip(actual, expected)))
    if isinstance(expected, dict):  # nbformat reads JSON objects as NotebookNode, a dict
        return (isinstance(actual, dict) and actual.keys() == expected.keys()
                and all(same(actual[k], expected[k], tol) for k in expected))
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
