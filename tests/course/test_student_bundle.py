"""tools/student_bundle.py: students get the release and minitorch, never the answers; the
bundle is a product of its own, set up and checked with its README's two commands."""

import doctest
import json
import os
import re
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import nbformat
import pytest

from tools import student_bundle
from tools.build_course import REPO, SOLUTIONS, read_source

sys.path.insert(0, str(REPO / "tools" / "bundle"))
from autograd_course import cli, progress

ARTIFACTS = REPO / "build" / "browser-artifacts"
HIDDEN = re.compile(r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", re.S)
SOLUTION = re.compile(r"^[ \t]*### (BEGIN|END) SOLUTION[ \t]*\n", re.M)
TWO_COMMANDS = ("python3 -m autograd_course start", "python3 -m autograd_course check")


def _read(zip_path: Path) -> dict[str, str]:
    with zipfile.ZipFile(zip_path) as bundle:
        return {name: bundle.read(name).decode("utf-8", "replace") for name in bundle.namelist()}


def _exercise_count() -> int:
    return sum(json.dumps(cell.metadata.get("nbgrader", {})).count('"solution": true')
               for path in sorted((REPO / "course").glob("*/*.ipynb"))
               for cell in nbformat.read(path, as_version=4).cells)


def test_bundle_holds_the_release_minitorch_and_its_own_files_only(tmp_path: Path) -> None:
    out = tmp_path / "course.zip"
    assert student_bundle.main([str(out)]) == 0
    files = _read(out)
    names = {name.split("/", 1)[1] for name in files}
    assert {"minitorch/__init__.py", "pyproject.toml", "README.md", "environment.yml",
            "autograd_course/cli.py", "autograd_course/progress.py", "LICENSE"} <= names
    tracked = subprocess.run(["git", "ls-files", "course/*/*"], cwd=REPO, check=True,
                             capture_output=True, text=True).stdout.split()
    assert {n for n in names if n.startswith("course/")} == set(tracked)  # the committed release
    for forbidden in ("solutions/", "tests/", "tools/", "benchmarks/", "course/nbgrader_config",
                      "Makefile", "conftest.py", ".ci/"):
        assert not [n for n in names if n.startswith(forbidden)], forbidden


def test_nothing_in_the_bundle_names_a_file_it_lacks(tmp_path: Path) -> None:
    out = tmp_path / "course.zip"
    student_bundle.build_bundle(out)
    files = _read(out)
    names = {name.split("/", 1)[1] for name in files}
    text = "\n".join(v for k, v in files.items() if not k.startswith("autograd-course/minitorch"))
    for word in ("make course", "make test", "Makefile", "apt-get", "tests/", "tools/",
                 "solutions/", "conftest", "nbgrader validate", "playwright", "chromium",
                 "torch=="):
        assert word not in text, word
    readme = files["autograd-course/README.md"]
    for path in re.findall(r"`([\w./<>-]+\.(?:toml|yml|md|ipynb|py))`", readme):
        assert path.startswith("course/<") or any(n == path or n.endswith(f"/{path}")
                                                  for n in names), path
    for command in TWO_COMMANDS:
        assert command in readme and command.replace("python3", "py") in readme


def test_the_students_pyproject_installs_no_instructor_tools(tmp_path: Path) -> None:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    project = tomllib.loads(student_bundle.student_pyproject())["project"]
    names = {re.split(r"[<>=!~;\s\[]", r, maxsplit=1)[0] for r in project["dependencies"]}
    assert {"numpy", "jupyterlab", "graphviz-anywidget", "nbclient", "ipykernel"} <= names
    assert not names & {"nbgrader", "torch", "playwright", "jupytext", "pytest"}
    assert project["requires-python"] == ">=3.10"
    env = (REPO / "tools" / "bundle" / "environment.yml").read_text()
    conda = set(re.findall(r"^\s+- ([\w-]+)", env, re.M)) - {"python", "pip"}
    assert {"python-graphviz" if n == "graphviz" else n for n in names} <= conda | {"."}


def test_bundle_holds_no_solution_or_hidden_test_text(tmp_path: Path) -> None:
    out = tmp_path / "course.zip"
    student_bundle.build_bundle(out)
    text = "\n".join(_read(out).values())
    assert "BEGIN SOLUTION" not in text and "BEGIN HIDDEN TESTS" not in text
    for source in sorted(SOLUTIONS.glob("*.py")):
        visible = HIDDEN.sub("", source.read_text())  # text a student may see anyway
        for block in HIDDEN.findall(source.read_text()):
            for line in block.splitlines():
                if line.strip().startswith("assert ") and line.strip() not in visible:
                    assert line.strip() not in text, f"{source.name}: {line.strip()}"


def test_a_leaking_file_is_refused(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "solutions").mkdir(parents=True)
    (repo / "minitorch").mkdir()
    (repo / "solutions" / "01_x.py").write_text(
        "### BEGIN HIDDEN TESTS\nassert answer() == 42, 'the secret'\n### END HIDDEN TESTS\n")
    (repo / "minitorch" / "leak.py").write_text("assert answer() == 42, 'the secret'\n")
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run(["git", "add", "."], cwd=repo, check=True)
    out = tmp_path / "out.zip"
    with pytest.raises(student_bundle.LeakError, match=r"minitorch/leak\.py"):
        student_bundle.build_bundle(out, repo)
    assert not out.exists()


@pytest.mark.parametrize("module", [student_bundle, cli, progress])
def test_docstring_examples(module) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def _cell(source: str, error: str | None = None, **nbgrader) -> nbformat.NotebookNode:
    outputs = [nbformat.v4.new_output("error", ename=error, evalue="", traceback=[])] if error \
        else []
    return nbformat.v4.new_code_cell(source, outputs=outputs,
                                     metadata={"nbgrader": nbgrader} if nbgrader else {})


def test_progress_sorts_exercises_into_passed_failed_not_answered() -> None:
    nb = nbformat.v4.new_notebook(cells=[
        _cell("def a(): raise NotImplementedError()", solution=True, grade_id="a"),
        _cell("a()", "NotImplementedError", grade=True, grade_id="a_visible"),
        _cell("def b(): return 1", solution=True, grade_id="b"),
        _cell("assert b() == 2", "AssertionError", grade=True, grade_id="b_visible"),
        _cell("def c(): return 1", solution=True, grade_id="c"),
        _cell("assert c() == 1", grade=True, grade_id="c_visible"),
        _cell("print(oops)", "NameError"),
    ])
    exercises, others = progress.grade("01_x", nb)
    assert [(e.name, e.status, e.detail) for e in exercises] == [
        ("a", "not answered", ""), ("b", "failed", "AssertionError"), ("c", "passed", "")]
    assert others == ["01_x, cell 7: NameError"]
    assert progress.summary(exercises) == "1 of 3 exercises passed (1 failed, 1 not answered)"


def test_check_shows_what_a_failed_check_expected_and_got() -> None:
    """A student at the terminal sees the check's whole lesson, not only its title."""
    failed = nbformat.v4.new_output("error", ename="CheckFailed", traceback=[],
                                    evalue="the nodes\n  expected: 3\n  got:      5\n  hint: once")
    nb = nbformat.v4.new_notebook(cells=[
        _cell("def a(): return 1", solution=True, grade_id="a"),
        nbformat.v4.new_code_cell("check(a)", outputs=[failed],
                                  metadata={"nbgrader": {"grade": True, "grade_id": "a_v"}}),
    ])
    exercises, _ = progress.grade("01_x", nb)
    assert progress.table(exercises).splitlines()[1].endswith("failed: CheckFailed: the nodes")
    assert progress.explanations(exercises).splitlines() == [
        "01_x a: CheckFailed: the nodes", "  expected: 3", "  got:      5", "  hint: once"]
    assert progress.explanations(exercises, most=2).splitlines()[-1] == "  ..."


def test_check_before_start_says_what_to_run(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setattr(cli, "bundle_root", lambda: tmp_path)
    assert cli.main(["check"]) == 2
    assert "run `python -m autograd_course start` first" in capsys.readouterr().err


def fill_in_answers(course: Path) -> None:
    """Put the instructor's solutions into the released notebooks' answer cells, as a
    student who answered everything would have them."""
    for path in sorted(course.glob("*/*.ipynb")):
        source = read_source(SOLUTIONS / f"{path.stem}.py")
        answers = {cell.metadata["nbgrader"]["grade_id"]: SOLUTION.sub("", cell.source)
                   for cell in source.cells
                   if cell.metadata.get("nbgrader", {}).get("solution")}
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            meta = cell.metadata.get("nbgrader", {})
            if meta.get("solution"):
                cell.source = answers[meta["grade_id"]]
        nbformat.write(nb, path)


class Student:
    """The unzipped bundle, set up with its README's first command, no `dot` on PATH."""

    def __init__(self, root: Path) -> None:
        student_bundle.build_bundle(root / "course.zip")
        with zipfile.ZipFile(root / "course.zip") as bundle:
            bundle.extractall(root / "student")
        self.folder = root / "student" / "autograd-course"
        empty = root / "bin"  # PATH holds nothing: no dot, no make, no git
        empty.mkdir()
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("VIRTUAL_ENV", "PYTHON", "JUPYTER"))}
        self.env["PATH"] = str(empty)
        started = time.perf_counter()
        setup = self.run("start", "--setup-only")
        assert setup.returncode == 0, setup.stdout[-3000:] + setup.stderr[-3000:]
        print(f"set-up: {time.perf_counter() - started:.0f} s")

    def command(self, *args: str) -> list[str]:
        return [sys.executable, "-m", "autograd_course", *args]

    def run(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(self.command(*args), cwd=self.folder, env=self.env,
                              capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def student(tmp_path_factory: pytest.TempPathFactory) -> Student:
    return Student(tmp_path_factory.mktemp("bundle"))


@pytest.mark.slow
def test_a_student_follows_the_readme(student: Student) -> None:
    """Unzip outside the repository, run the README's two commands with no `dot` on PATH:
    0 of N and exit 1 untouched, with no error outside the exercises; N of N and 0 answered."""
    python = cli.venv_python(student.folder / ".venv")
    pip_list = subprocess.run([str(python), "-m", "pip", "list", "--format=freeze"],
                              capture_output=True, text=True, check=True).stdout.lower()
    for absent in ("nbgrader", "torch", "playwright", "jupytext"):
        assert f"\n{absent}==" not in f"\n{pip_list}", absent

    n = _exercise_count()
    untouched = student.run("check")
    assert untouched.returncode == 1, untouched.stdout + untouched.stderr
    assert f"0 of {n} exercises passed (0 failed, {n} not answered)" in untouched.stdout
    assert "Errors outside the exercises" not in untouched.stdout, untouched.stdout
    assert "Traceback" not in untouched.stdout + untouched.stderr

    fill_in_answers(student.folder / "course")
    answered = student.run("check")
    assert answered.returncode == 0, answered.stdout + answered.stderr
    assert f"{n} of {n} exercises passed (0 failed, 0 not answered)" in answered.stdout


@pytest.mark.slow
@pytest.mark.browser
def test_the_bundles_jupyterlab_draws_chapter_2_without_dot(student: Student,
                                                            tmp_path: Path) -> None:
    """The bundle's own server (`start`), chapter 2 run in Chromium: no Nbgrader menu, the
    graphs drawn by Graphviz as WebAssembly, the stepper's panel beside its graph."""
    sys.path.insert(0, str(REPO / "tests"))
    from test_browser import CHROMIUM, CHROMIUM_FLAGS, _free_port

    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM}")
    sync_api = pytest.importorskip("playwright.sync_api")
    port, token = _free_port(), "student-bundle-test"
    env = {**student.env, "JUPYTER_CONFIG_DIR": str(tmp_path / "config"),
           "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"),
           "JUPYTERLAB_SETTINGS_DIR": str(tmp_path / "settings"),
           "JUPYTERLAB_WORKSPACES_DIR": str(tmp_path / "workspaces")}
    news = tmp_path / "settings" / "@jupyterlab" / "apputils-extension"
    news.mkdir(parents=True)  # no "get notified about Jupyter news?" pop-up over the page
    (news / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
    server = subprocess.Popen(
        student.command("start", "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1",
                        f"--IdentityProvider.token={token}", "--LabApp.expose_app_in_browser=True",
                        "--LabApp.news_url=None"),
        cwd=student.folder, env=env, stdout=(tmp_path / "lab.log").open("w"),
        stderr=subprocess.STDOUT, start_new_session=True)
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
            page = browser.new_page(viewport={"width": 1000, "height": 900})
            try:
                _run_chapter_2(sync_api, page, port, token)
            except Exception:
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / "bundle-jupyterlab.png"), full_page=True)
                raise
            finally:
                browser.close()
    finally:  # the server's process group: `start` and the JupyterLab it runs
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def _run_chapter_2(sync_api, page, port: int, token: str) -> None:
    """Open chapter 2 in the bundle's server, run it, measure the stepper at 1000 px."""
    page.set_default_timeout(120_000)
    chapter = "02_manual_backward/02_manual_backward.ipynb"
    for _ in range(120):  # the server needs a few seconds
        try:
            page.goto(f"http://127.0.0.1:{port}/lab/tree/{chapter}?token={token}")
            break
        except sync_api.Error:
            time.sleep(0.5)
    page.wait_for_selector(".jp-Notebook .jp-Cell")
    menus = page.locator(".lm-MenuBar-itemLabel").all_inner_texts()
    assert "Run" in menus and "Nbgrader" not in menus, menus
    page.wait_for_function("window.jupyterapp.shell.currentWidget?.sessionContext"
                           "?.session?.kernel")
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function(
        "[...document.querySelectorAll('.jp-OutputArea-output svg')]"
        ".some(svg => svg.textContent.includes('AddBackward0'))")
    picture = page.locator(".minitorch-stepper-picture svg").first
    picture.wait_for()
    page.wait_for_timeout(500)
    graph, panel = picture.bounding_box(), page.locator(
        ".minitorch-stepper-panel").first.bounding_box()
    assert graph["width"] > 100 and graph["x"] + graph["width"] <= panel["x"] + 1
