"""A red team against autograding (issue #18): each cheat solves nothing, and each one, planted
in an untouched release, must score 0 with the course's configuration.

The cheats come in batches, one assignment and one ``nbgrader autograde`` run each: every
cheat is one student; the same run grades the instructor's solution submitted by a student
graded last (``zz-victim``), who must keep full marks however the cheats tried to reach later
kernels, and an untouched release (0). After the run, no process a cheat started is alive.

What they try (course/README.md, "What autograding defends against"): forging the outputs
nbgrader scores, reading the grader's or the repository's files, leaving processes behind,
driving another kernel, undoing the switch-off of minitorch's reference pieces, delegating to
them however reached, and reading expected values from the hidden tests.
"""

from __future__ import annotations

import ast
import importlib.util
import inspect
import os
import shutil
import struct
import textwrap
from pathlib import Path

import pytest
from grading import CourseRoot, edit_cells, grade_cells, nbgrader, read_grades

import minitorch
from course.integrity import (
    REMOVED_SEAMS,
    STAND_INS,
    bubblewrap_available,
    grading_package,
    with_twins,
)
from tools.build_course import CONFIG_NAME, COURSE, PLUGINS, SOLUTIONS

pytestmark = [
    pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning"),
    pytest.mark.filterwarnings("ignore::nbformat.validator.MissingIDFieldWarning"),
    pytest.mark.slow,  # one autograde run of a class per assignment
    pytest.mark.skipif(not bubblewrap_available(), reason="the grading sandbox needs bwrap"),
]

REPO = Path(__file__).resolve().parents[2]
DEMO = Path(__file__).parent / "fixtures" / "00_demo.py"
MARKER = "red-team-daemon-7d3f"  # in the command line of every process a cheat leaves behind

# ------------------------------------------------------------------------ forging the outputs
# nbgrader scores a test cell by its outputs: the first execute_result is partial credit (a
# non-number is full points), and a cell without an error gets full points.

FORGING = {
    "displayhook-before-each-cell": """
        ip = get_ipython()
        ip.events.register("pre_run_cell", lambda *args: ip.displayhook("full marks"))
    """,
    "raw-execute-result-before-each-cell": """
        ip = get_ipython()
        kernel = ip.kernel
        def forge(*args):
            kernel.session.send(kernel.iopub_socket, "execute_result",
                                {"data": {"text/plain": "'full marks'"}, "metadata": {},
                                 "execution_count": 1},
                                parent=kernel.get_parent(), ident=b"execute_result")
        ip.events.register("pre_run_cell", forge)
    """,
    "numeric-partial-credit": """
        ip = get_ipython()
        ip.events.register("pre_run_cell", lambda *args: ip.displayhook(1))
    """,
    "result-after-each-cell": """
        ip = get_ipython()
        ip.events.register("post_run_cell", lambda *args: ip.displayhook("full marks"))
    """,
    "clear-the-errors": """
        from IPython.display import clear_output
        get_ipython().events.register("post_run_cell", lambda *args: clear_output())
    """,
    "clear-then-result": """
        from IPython.display import clear_output
        ip = get_ipython()
        def forge(*args):
            clear_output()
            ip.displayhook("full marks")
        ip.events.register("post_run_cell", forge)
    """,
    "result-from-a-thread": """
        import threading, time
        ip = get_ipython()
        kernel = ip.kernel
        def forge():
            while True:
                kernel.session.send(kernel.iopub_socket, "execute_result",
                                    {"data": {"text/plain": "'full'"}, "metadata": {},
                                     "execution_count": 1},
                                    parent=kernel.get_parent(), ident=b"execute_result")
                time.sleep(0.005)
        threading.Thread(target=forge, daemon=True).start()
    """,
    "display-updated-into-a-result": """
        from IPython.display import display, update_display
        ip = get_ipython()
        ip.events.register("pre_run_cell", lambda *args: display("pending", display_id="forged"))
        ip.events.register("post_run_cell", lambda *args: update_display("'full marks'",
                                                                          display_id="forged"))
    """,
    "silenced-observations-and-errors": """
        import minitorch.course
        from IPython.display import clear_output
        minitorch.course.observe = lambda *values: None
        get_ipython().events.register("post_run_cell", lambda *args: clear_output())
    """,
}

# ------------------------------------------- reading the grader's and the repository's files

def reading(root: Path) -> dict[str, str]:
    """Cheats that look for the answers where the grader or the repository keeps them and,
    when they find them, run them (each finding defines the demo's ``square`` and ``mean``)."""
    source = root / "source" / "00_demo" / "00_demo.ipynb"
    run_notebook = """
        import json
        def run_solution(path):
            for cell in json.load(open(path))["cells"]:
                if "BEGIN SOLUTION" in "".join(cell["source"]):
                    exec("".join(cell["source"]), globals())
    """
    return {
        "course-root-source": run_notebook + f"run_solution({str(source)!r})",
        "gradebook": f"""
            import sqlite3
            db = sqlite3.connect({str(root / "gradebook.db")!r})
            for (code,) in db.execute("select source from source_cell"):
                exec(code, globals())
        """,
        "observation-cache": f"""
            import glob, json
            from IPython.display import publish_display_data
            from minitorch.course import OBSERVATION_MIME
            cache = {{}}
            for path in glob.glob({str(root / ".observations" / "*.json")!r}):
                cache.update(json.load(open(path)))
            order = iter(cache.values())
            def replay(info):
                if "observe(" in info.raw_cell:
                    publish_display_data({{OBSERVATION_MIME: next(order), "text/plain": ""}})
            get_ipython().events.register("pre_run_cell", replay)
            import minitorch.course
            minitorch.course.observe = lambda *values: None
        """,
        "repository-fixture": f"exec(open({str(DEMO)!r}).read(), globals())",
        "beside-minitorch": """
            import pathlib, minitorch
            for parent in pathlib.Path(minitorch.__file__).resolve().parents:
                for found in parent.glob("tests/course/fixtures/00_demo.py"):
                    exec(found.read_text(), globals())
        """,
        "editable-install-paths": """
            import glob, pathlib, site
            for pth in (p for d in site.getsitepackages() for p in glob.glob(d + "/*.pth")):
                for line in open(pth).read().splitlines():
                    fixture = pathlib.Path(line.strip(), "tests/course/fixtures/00_demo.py")
                    if fixture.is_file():
                        exec(fixture.read_text(), globals())
        """,
        "other-processes": run_notebook + """
            import os
            for pid in filter(str.isdigit, os.listdir("/proc")):
                try:
                    cwd = os.readlink(f"/proc/{pid}/cwd")
                    run_solution(f"{cwd}/source/00_demo/00_demo.ipynb")
                except OSError:
                    pass
        """,
        "through-proc-root": run_notebook + f"""
            import os
            for pid in (1, os.getppid()):
                try:
                    run_solution(f"/proc/{{pid}}/root{source}")
                except OSError:
                    pass
        """,
        "walk-the-filesystem": run_notebook + """
            import os
            for top in ("/tmp", "/root", "/home", "/work", "/srv", "/var/tmp", os.getcwd() + "/.."):
                for folder, dirs, files in os.walk(top):
                    for name in files:
                        if name.endswith(".ipynb") and "source" in folder:
                            try:
                                run_solution(os.path.join(folder, name))
                            except Exception:
                                pass
        """,
    }


# ------------------------------------------- processes that outlive grading, other kernels

LEAVE_BEHIND = {
    "daemon": f"""
        import subprocess, sys
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", "{MARKER}"],
                         start_new_session=True)
    """,
    "double-fork": f"""
        import os, time
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.execvp("sleep", ["sleep", "300", "{MARKER}"])
            os._exit(0)
        time.sleep(0.2)
    """,
    # Finds other kernels' connection files and makes their kernels exit: the victim graded
    # after it would lose its points.
    "kernel-hijacker": f"""
        import subprocess, sys
        HIJACK = '''
        import glob, os, time
        from jupyter_client import BlockingKernelClient
        from jupyter_core.paths import jupyter_runtime_dir
        mine = os.environ.get("OWN_FILE")
        done = set()
        for _ in range(600):
            found = set(glob.glob("/tmp/**/kernel*.json", recursive=True))
            found |= set(glob.glob(jupyter_runtime_dir() + "/kernel*.json"))
            for pid in filter(str.isdigit, os.listdir("/proc")):
                try:
                    args = open(f"/proc/{{pid}}/cmdline").read().split(chr(0))
                    found |= {{a for a in args if a.endswith(".json")}}
                except OSError:
                    pass
            for path in found - done - {{mine}}:
                done.add(path)
                try:
                    client = BlockingKernelClient(connection_file=path)
                    client.load_connection_file()
                    client.start_channels()
                    client.execute("import os; os._exit(1)")
                except Exception:
                    pass
            time.sleep(0.1)
        '''
        import ipykernel, os
        env = dict(os.environ, OWN_FILE=ipykernel.get_connection_file())
        subprocess.Popen([sys.executable, "-c", HIJACK, "{MARKER}"], env=env,
                         start_new_session=True)
    """,
    # Start-up files that kill every later kernel.
    "planted-startup-files": """
        import os, pathlib, site, sys, tempfile
        payload = "import os\\nos._exit(1)\\n"
        targets = [*site.getsitepackages(), site.getusersitepackages(), tempfile.gettempdir(),
                   os.path.expanduser("~/.ipython/profile_default/startup"),
                   "/root/.ipython/profile_default/startup", *sys.path]
        for folder in targets:
            for name in ("sitecustomize.py", "usercustomize.py", "00-planted.py"):
                try:
                    pathlib.Path(folder).mkdir(parents=True, exist_ok=True)
                    pathlib.Path(folder, name).write_text(payload)
                except OSError:
                    pass
    """,
    "network": """
        import socket
        for port in range(40000, 40200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.01).close()
            except OSError:
                pass
        socket.create_connection(("1.1.1.1", 53), timeout=1)
    """,
}

# ------------------------------------------------------- chapters: delegating, expected values

REFERENCE_TOPOLOGICAL = """
    def topological_order(root):
        return list(reversed(get_discover()([root])[1]))

    def run_backward(root, grad):
        ran = []
        with engine.observe(lambda event, **info: event == "run" and ran.append(info["node"])):
            get_execute()([(root, 0)], [grad], keep_graph=True, create_graph=False)
        return ran
"""

# How each cheat reaches minitorch's engine: (get_discover, get_execute) defined first.
REACH = {
    "switch-back-on": """
        import minitorch.course
        from minitorch.autograd import engine
        def get_discover():
            minitorch.course.reset()
            return minitorch.course.reference(engine, "discover")
        def get_execute():
            minitorch.course.reset()
            return minitorch.course.reference(engine, "execute")
    """,
    "kept-before-the-tests": """
        from minitorch.autograd import engine
        KEPT = engine.discover, engine.execute
        get_discover, get_execute = (lambda: KEPT[0]), (lambda: KEPT[1])
    """,
    "saved-code-objects": """
        import types, minitorch.course
        from minitorch.autograd import engine
        def rebuilt(name):
            code = minitorch.course._codes[f"engine.{name}"]
            return types.FunctionType(code, vars(engine), name)
        get_discover, get_execute = (lambda: rebuilt("discover")), (lambda: rebuilt("execute"))
    """,
    "re-executed-module-source": """
        import pathlib
        from minitorch.autograd import engine
        copy = {"__name__": "minitorch.autograd.engine", "__package__": "minitorch.autograd"}
        exec(compile(pathlib.Path(engine.__file__).read_text(), engine.__file__, "exec"), copy)
        get_discover, get_execute = (lambda: copy["discover"]), (lambda: copy["execute"])
    """,
    "installed-distribution-source": """
        import importlib.metadata, json, pathlib
        from minitorch.autograd import engine
        dist = importlib.metadata.distribution("minitorch")
        url = json.loads(dist.read_text("direct_url.json") or "{}").get("url", "")
        roots = [pathlib.Path(url.removeprefix("file://")), pathlib.Path(str(dist.locate_file("")))]
        copy = {"__name__": "minitorch.autograd.engine", "__package__": "minitorch.autograd"}
        for root in roots:
            path = root / "minitorch" / "autograd" / "engine.py"
            if path.is_file():
                exec(compile(path.read_text(), str(path), "exec"), copy)
        get_discover, get_execute = (lambda: copy["discover"]), (lambda: copy["execute"])
    """,
    "garbage-collector": """
        import gc
        from minitorch.autograd import engine
        def original(name):
            current = getattr(engine, name).__code__
            for obj in gc.get_objects():
                if callable(obj) and getattr(obj, "__name__", "") == name and \\
                        getattr(obj, "__code__", current) is not current:
                    return obj
            return getattr(engine, name)
        get_discover, get_execute = (lambda: original("discover")), (lambda: original("execute"))
    """,
    "in-a-thread": """
        import threading
        import minitorch.course
        from minitorch.autograd import engine
        def in_thread(name):
            def call(*args, **kwargs):
                box = []
                def run():
                    minitorch.course.reset()
                    box.append(minitorch.course.reference(engine, name)(*args, **kwargs))
                thread = threading.Thread(target=run)
                thread.start()
                thread.join()
                return box[0]
            return call
        get_discover, get_execute = (lambda: in_thread("discover")), (lambda: in_thread("execute"))
    """,
    "settrace-skips-the-switch": """
        import sys
        import minitorch.course
        from minitorch.autograd import engine
        def skip(frame, event, arg):  # a SwitchedOff raised anywhere is swallowed
            if event == "exception" and arg[0] is minitorch.course.SwitchedOff:
                frame.f_trace_lines = False
            return skip
        sys.settrace(skip)
        get_discover, get_execute = (lambda: engine.discover), (lambda: engine.execute)
    """,
}

WALK_01 = {  # trace(t) -> (nodes, edges), from minitorch's own graph walks
    "twin-graph-walk": """
        from minitorch.autograd import engine
        def trace(t):
            nodes = engine._reachable(t.grad_fn) if t.grad_fn else []
            edges = [(c, n) for n in nodes for c, _ in n.next_functions if c is not None]
            return nodes, edges
    """,
    "viz-walk": """
        from minitorch.viz import dot
        def trace(t):
            nodes, edges = dot.walk([t])
            return nodes, [(nodes[a], nodes[b]) for a, b, *_ in edges]
    """,
}

JACOBIAN_06 = {  # numerical_jacobian(f, x, eps) from minitorch's own
    "switch-back-on": """
        import minitorch.course
        from minitorch.autograd import gradcheck
        def numerical_jacobian(f, x, eps=1e-6):
            minitorch.course.reset()
            reference = minitorch.course.reference(gradcheck, "numerical_jacobian")
            return reference(f, (x,), 0, eps)[0]
    """,
    "re-executed-module-source": """
        import pathlib
        from minitorch.autograd import gradcheck
        copy = {"__name__": "minitorch.autograd.gradcheck", "__package__": "minitorch.autograd"}
        exec(compile(pathlib.Path(gradcheck.__file__).read_text(), gradcheck.__file__, "exec"),
             copy)
        def numerical_jacobian(f, x, eps=1e-6):
            return copy["numerical_jacobian"](f, (x,), 0, eps)[0]
    """,
}

# Predictions copied from the hidden test as it arrives, or from its frame.
PREDICTIONS = {
    "incoming-cell": """
        import re
        predictions = {key: None for key in KEYS}
        def copy(info):
            found = re.search(r"EXPECTED = (\\{.*?\\n\\})", info.raw_cell, re.S)
            if found:
                predictions.update(eval(found.group(1)))
        get_ipython().events.register("pre_run_cell", copy)
    """,
    "frame-walk": """
        import sys
        class Peek(dict):
            def get(self, key, default=None):
                frame = sys._getframe(1)
                while frame:
                    for scope in (frame.f_locals, frame.f_globals):
                        expected = scope.get("EXPECTED")
                        if isinstance(expected, dict) and key in expected:
                            return expected[key]
                    frame = frame.f_back
                return default
        predictions = Peek({key: None for key in KEYS})
    """,
}


# ------------------------------------- 03, 05, 07: delegating to the piece, however reached
# Each reaching defines get_reference(name): minitorch's own ``name`` of one module, reached
# past the switch-off. KEEP_GOING makes every statement of later cells run even when one fails
# (its error swallowed), so that only the grader's verdict on the observations stands between
# a delegating answer and the points.

KEEP_GOING = """
    import ast

    def guarded(block):  # each statement of the cell, and of its with blocks, on its own
        kept = []
        for stmt in block:
            if isinstance(stmt, ast.With):
                stmt.body = guarded(stmt.body)
            if isinstance(stmt, (ast.FunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)):
                kept.append(stmt)
                continue
            handler = ast.ExceptHandler(type=ast.Name("BaseException", ast.Load()), name=None,
                                        body=[ast.Pass()])
            kept.append(ast.copy_location(ast.Try(body=[stmt], handlers=[handler], orelse=[],
                                                  finalbody=[]), stmt))
        return kept

    class KeepGoing(ast.NodeTransformer):
        def visit_Module(self, node):
            node.body = guarded(node.body)
            return node

    get_ipython().ast_transformers.append(KeepGoing())
"""


def reaching(module: str) -> dict[str, str]:
    """Ways past the switch-off to minitorch's own functions of ``module``: each cheat's code
    defines ``get_reference(name)``."""
    short = module.removeprefix("minitorch.").removeprefix("autograd.")
    head = f"import {module} as reached\n"
    ways = {
        "switch-back-on": """
            import minitorch.course
            def get_reference(name):
                minitorch.course.reset()
                return getattr(reached, name)
        """,
        "saved-code-objects": f"""
            import types, minitorch.course
            def get_reference(name):
                code = minitorch.course._codes.get({short!r} + "." + name)
                if code is None:
                    return getattr(reached, name)
                return types.FunctionType(code, vars(reached), name)
        """,
        "re-executed-module-source": """
            import pathlib
            copy = {"__name__": reached.__name__, "__package__": reached.__package__}
            exec(compile(pathlib.Path(reached.__file__).read_text(), reached.__file__, "exec"),
                 copy)
            def get_reference(name):
                return copy[name]
        """,
        "reloaded-module": """
            import importlib, minitorch.course
            minitorch.course.reset()
            importlib.reload(reached)
            def get_reference(name):
                return getattr(reached, name)
        """,
        "garbage-collector": """
            import gc
            def get_reference(name):
                current = getattr(reached, name)
                for obj in gc.get_objects():
                    if getattr(obj, "__name__", "") == name and obj is not current and \\
                            getattr(obj, "__module__", "") == reached.__name__:
                        return obj
                return current
        """,
        "in-a-thread": """
            import threading, minitorch.course
            def get_reference(name):
                def call(*args, **kwargs):
                    box = []
                    def run():
                        minitorch.course.reset()
                        box.append(getattr(reached, name)(*args, **kwargs))
                    thread = threading.Thread(target=run)
                    thread.start()
                    thread.join()
                    return box[0]
                return call
        """,
    }
    return {name: head + textwrap.dedent(code) for name, code in ways.items()}


DELEGATING = {  # assignment: (module reached, {answer cell: code that delegates to it})
    "03_custom_function": ("minitorch.autograd.function", {"apply": """
        class FunctionNode(Node):
            def __init__(self, fn_cls):
                super().__init__()
                self.fn_cls = fn_cls

            def name(self):
                return f"{self.fn_cls.__name__}Backward"

        def edge_to(t):
            return t._edge()

        def my_apply(fn_cls, *args):
            return get_reference("apply_custom")(fn_cls, args, {})
    """}),
    "04_grad_modes": ("minitorch.autograd.grad_mode", {"grad_modes": """
        class GradState(threading.local):  # minitorch's mode, read and written
            @property
            def grad_enabled(self):
                return get_reference("is_grad_enabled")()

            @grad_enabled.setter
            def grad_enabled(self, mode):
                reached._state.grad_enabled = bool(mode)

        grad_state = GradState()
        no_grad, enable_grad = get_reference("no_grad"), get_reference("enable_grad")
        set_grad_enabled = get_reference("set_grad_enabled")
    """}),
    "05_inplace": ("minitorch.autograd.graph", {"versioned_save": """
        class VersionedSave:
            def __init__(self, tensor):
                self.tensor, self._version = tensor, tensor._version

            def get(self):
                self._is_output, self._output_nr = True, self.tensor._output_nr
                get_reference("check_version")(self, self.tensor, self.tensor.grad_fn)
                return self.tensor
    """}),
    "07_profiler": ("minitorch.autograd.profiler", {
        "profiler_stack": """
            from contextlib import contextmanager

            class Profiler:  # minitorch's stack of open events, timed by the given clock
                def __init__(self, clock):
                    self.clock, self.reference = clock, get_reference("profile")()

                def enter(self, name):
                    get_reference("profile")._push(self.reference, name, "cpu_op", None)
                    self.reference._records[-1][5] = self.clock()

                def exit(self):
                    record = self.reference._local.stack[-1]
                    get_reference("profile")._pop(self.reference, 0)
                    record[6] = self.clock()

                @property
                def events(self):
                    records = self.reference._records
                    index = {id(record): i for i, record in enumerate(records)}
                    return [Event(r[0], r[5], r[6], index.get(id(r[3]))) for r in records]

                @contextmanager
                def record(self, name):
                    self.enter(name)
                    try:
                        yield
                    finally:
                        self.exit()
        """,
        "self_time": """
            def _reference_events(events):
                records = []
                for e in events:
                    parent = records[e.parent] if e.parent is not None else 1
                    records.append([e.name, "cpu_op", None, parent, None, e.start * 1000,
                                    e.end * 1000, 0, None, None])
                return get_reference("build_events")(records, 0, False, False)

            def self_times(events):
                return [e.self_cpu_time_total for e in _reference_events(events)]
        """,
        "key_averages": """
            def key_averages(events, selfs):
                rows = get_reference("average_events")(_reference_events(events))
                return [Average(r.key, r.count, r.self_cpu_time_total, r.cpu_time_total)
                        for r in rows]
        """}),
}


def _cheats(assignment: str, root: Path) -> dict[str, dict[str, str]]:
    """{cheat name: {answer cell's grade_id: code}} planted in this assignment's release."""
    first = {"00_demo": "square", "01_dag": "trace", "02_manual_backward": "topological_order",
             "04_grad_modes": "grad_modes"}.get(assignment)
    plant: dict[str, dict[str, str]] = {}
    if assignment == "00_demo":
        everything = {**FORGING, **reading(root), **LEAVE_BEHIND}
        return {name: {"square": code} for name, code in everything.items()}
    plant["forge-" + "displayhook-before-each-cell"] = {
        first or "": FORGING["displayhook-before-each-cell"]}
    if assignment == "02_manual_backward":
        for name, reach in REACH.items():
            code = textwrap.dedent(reach) + textwrap.dedent(REFERENCE_TOPOLOGICAL)
            plant[f"delegate-{name}"] = {"topological_order": code, "run_backward": code}
    if assignment == "01_dag":
        plant |= {f"delegate-{name}": {"trace": code} for name, code in WALK_01.items()}
    if assignment == "06_gradcheck":
        plant |= {f"delegate-{name}": {"numerical_jacobian": code}
                  for name, code in JACOBIAN_06.items()}
    if assignment in DELEGATING:
        module, cells = DELEGATING[assignment]
        for name, reach in reaching(module).items():
            prefix = textwrap.dedent(KEEP_GOING) + textwrap.dedent(reach)
            plant[f"delegate-{name}"] = {cell: prefix + textwrap.dedent(code)
                                         for cell, code in cells.items()}
    keys = {"01_dag": ("table", "EXPRESSIONS"), "04_grad_modes": ("predictions", "list(ROWS)")}
    if assignment in keys:
        cell, names = keys[assignment]
        plant |= {f"expected-{name}": {cell: f"KEYS = {names}\n" + textwrap.dedent(code)}
                  for name, code in PREDICTIONS.items()}
    return plant


def _alive() -> list[str]:
    """Command lines, on this machine, that hold the daemons' marker."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            line = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if MARKER in line and "pytest" not in line:
            found.append(line)
    return found


def _class_of_cheats(tmp_path: Path, source: Path) -> tuple[dict[str, float], float]:
    """Every cheat, an untouched release and the solution, graded in one autograde run:
    ({student: score}, the assignment's maximum)."""
    root = CourseRoot(tmp_path, source)
    for name in (CONFIG_NAME, *PLUGINS):
        shutil.copyfile(COURSE / name, tmp_path / name)
    release = root.release()
    first = grade_cells(release, tests=False)[0].metadata.nbgrader.grade_id
    for name, cells in _cheats(root.assignment_id, tmp_path).items():
        code = {cell or first: textwrap.dedent(text) for cell, text in cells.items()}
        root.submit(f"cheat-{name}", edit_cells(release, code))
    root.submit("release", release)
    root.submit("zz-victim", root.solution())
    nbgrader(tmp_path, "autograde", root.assignment_id)
    scores = {student: score for (student, _), score in read_grades(tmp_path).items()}
    return scores, sum(cell.metadata.nbgrader.points for cell in grade_cells(root.solution(),
                                                                               tests=True))


@pytest.mark.parametrize("source", [DEMO, *sorted(SOLUTIONS.glob("0*.py"))],
                         ids=lambda path: path.stem)
def test_every_cheat_scores_zero_and_the_solution_full_marks(source: Path,
                                                             tmp_path: Path) -> None:
    scores, total = _class_of_cheats(tmp_path, source)
    victim = scores.pop("zz-victim")
    cheats = {name: score for name, score in scores.items() if score}
    assert not cheats, f"cheats that earned points: {cheats}"
    assert not _alive(), "processes outlived grading"
    assert victim == total > 0


def test_the_red_team_is_at_least_thirty_strong() -> None:
    chapters = [_cheats(source.stem, Path("/nowhere")) for source in SOLUTIONS.glob("0*.py")]
    groups = [FORGING, reading(Path("/nowhere")), LEAVE_BEHIND, REACH, WALK_01, JACOBIAN_06,
              PREDICTIONS, *(reaching(module) for module, _ in DELEGATING.values())]
    assert sum(map(len, groups)) >= 30 and all(chapters)


def _body_lines(name: str) -> list[str]:
    """The lines of a removed piece's body in minitorch (docstrings left out) that appear
    once in the whole package: code that would be a usable reference if it stayed."""
    package = Path(minitorch.__file__).parent
    everything = "\n".join(path.read_text() for path in package.rglob("*.py"))
    *module, last = name.split(".")
    found = None
    for cut in range(len(module), 0, -1):
        for prefix in ("minitorch.autograd.", "minitorch."):
            try:
                found = __import__(prefix + ".".join(module[:cut]), fromlist=["_"])
            except ImportError:
                continue
            for attr in (*module[cut:], last):
                found = getattr(found, attr)
            break
        if found is not None:
            break
    source = textwrap.dedent(inspect.getsource(found))
    body = set()  # line numbers of the functions' statements, without signatures, docstrings
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef):
            for stmt in node.body:
                if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)):
                    body.update(range(stmt.lineno, stmt.end_lineno + 1))
    code = [line.strip() for number, line in enumerate(source.splitlines(), 1)
            if number in body and len(line.strip()) >= 30 and not line.strip().startswith("#")]
    return [line for line in code if everything.count(line) == 1]


@pytest.mark.parametrize("assignment", sorted(REMOVED_SEAMS))
def test_no_line_of_a_removed_piece_is_in_the_grading_copy(assignment: str,
                                                           tmp_path: Path) -> None:
    removed = with_twins(REMOVED_SEAMS[assignment])
    copy = grading_package(tmp_path, removed) / "minitorch"
    text = "\n".join(path.read_text() for path in copy.rglob("*.py"))
    # a stand-in (reviewed in STAND_INS) may call the same helpers as the piece it replaces
    allowed = {line.strip() for body in STAND_INS.values() for line in body.splitlines()}
    kept = {name: [line for line in _body_lines(name) if line in text and line not in allowed]
            for name in removed}
    assert all(_body_lines(name) for name in removed), "a removed piece without a body?"
    assert not any(kept.values()), f"lines of removed pieces left in the copy: {kept}"


@pytest.mark.parametrize("assignment", sorted(REMOVED_SEAMS))
def test_the_grading_copy_is_compiled_from_its_own_sources(assignment: str,
                                                          tmp_path: Path) -> None:
    """A kernel reads its copy of minitorch read-only, so it cannot cache bytecode: the copy
    brings bytecode, valid for its own (stubbed) sources, or every import compiles it all."""
    copy = grading_package(tmp_path, with_twins(REMOVED_SEAMS[assignment])) / "minitorch"
    stale = []
    for source in copy.rglob("*.py"):
        cached = Path(importlib.util.cache_from_source(str(source)))
        header = cached.read_bytes()[8:16] if cached.exists() else b""
        stat = source.stat()
        if header != struct.pack("<II", int(stat.st_mtime) & 0xFFFFFFFF,
                                 stat.st_size & 0xFFFFFFFF):
            stale.append(str(source.relative_to(copy)))
    assert not stale, f"modules whose bytecode is missing or not their source's: {stale}"
