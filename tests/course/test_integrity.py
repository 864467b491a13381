"""Autograding that a cheating submission cannot talk round (course/integrity.py, issue #7).

Each cheat below solves nothing; plain nbgrader would give some of them full marks. Graded
with the course's configuration, each scores 0, on the demo assignment and on two real
chapters, while honest work keeps its points, even from a notebook whose kernel dies
half-way.
"""

import ast
import re
import shutil
import sys
import textwrap
from pathlib import Path

import nbformat
import pytest
from grading import (
    DROP_ASSERTS,
    SKIP_LATER_CELLS,
    CourseRoot,
    edit_cells,
    grade_cells,
    nbgrader,
    read_grades,
)

from course.integrity import namespaces_available, same
from tools.build_course import CONFIG_NAME, COURSE, PLUGINS, SOLUTIONS

pytestmark = [
    pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning"),
    pytest.mark.filterwarnings("ignore::nbformat.validator.MissingIDFieldWarning"),
]

DEMO = Path(__file__).parent / "fixtures" / "00_demo.py"
FULL = {"square_visible": 1, "square_hidden": 1, "mean_visible": 1, "mean_hidden": 1}
WRONG = "def square(x):\n    return 0\n\ndef mean(xs):\n    return 0\n"
needs_sandbox = pytest.mark.skipif(not namespaces_available(),
                                   reason="the grading sandbox needs Linux user namespaces")


def cheat(code: str) -> dict[str, str]:
    """A submission whose first answer cell holds ``code`` and wrong answers."""
    return {"square": textwrap.dedent(code) + "\n" + WRONG,
            "mean": "def mean(xs):\n    return 0"}


CHEATS = {
    "input-transformer": SKIP_LATER_CELLS,
    "ast-transformer": DROP_ASSERTS,
    "custom-exception-handler": """
        get_ipython().set_custom_exc((BaseException,), lambda *args, **kwargs: None)
    """,
    "excepthook-and-showtraceback": """
        import sys
        sys.excepthook = lambda *args: None
        get_ipython().showtraceback = lambda *args, **kwargs: None
    """,
    "monkeypatched-checks": """
        import math
        import numpy as np
        math.isclose = lambda *args, **kwargs: True
        np.testing.assert_allclose = lambda *args, **kwargs: None
        np.allclose = lambda *args, **kwargs: True
    """,
    "replaced-code": """
        import numpy as np
        np.testing.assert_allclose.__code__ = (lambda *args, **kwargs: None).__code__
    """,
    "fake-observations": """
        import minitorch.course
        minitorch.course.observe = lambda *values: None
        observe = minitorch.course.observe
    """,
}


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> CourseRoot:
    return CourseRoot(tmp_path_factory.mktemp("integrity"), DEMO)


@pytest.mark.parametrize("name", CHEATS)
def test_a_cheat_earns_nothing(demo: CourseRoot, name: str) -> None:
    grades = demo.grade(f"cheat-{name}", edit_cells(demo.release(), cheat(CHEATS[name])))
    assert grades.total == 0, grades.by_grade_id


@needs_sandbox
def test_hidden_tests_and_solutions_cannot_be_read(demo: CourseRoot) -> None:
    # The kernel would read the instructor's notebook (answers and hidden tests) and the
    # gradebook from the course root, then run the solution's code as its own.
    notebook = demo.root / "source" / "00_demo" / "00_demo.ipynb"
    steal_answers = f"""
        import json
        source = json.load(open({str(notebook)!r}))
        for cell in source["cells"]:
            if cell["metadata"].get("nbgrader", {{}}).get("solution"):
                exec("".join(cell["source"]))
    """
    steal_tests = f"""
        import sqlite3
        sqlite3.connect({str(demo.root / "gradebook.db")!r}).execute("select * from source_cell")
    """
    code = {"square": textwrap.dedent(steal_answers), "mean": textwrap.dedent(steal_tests)}
    grades = demo.grade("reader", edit_cells(demo.release(), code))
    assert grades.total == 0, grades.errors()
    # bwrap shows no course root at all; the unshare fallback shows it empty and unreadable
    assert re.search(r"\[square\] (PermissionError|FileNotFoundError)", grades.errors())
    assert "[mean] OperationalError: unable to open database file" in grades.errors()


@needs_sandbox
def test_the_kernel_cannot_change_what_later_kernels_run(demo: CourseRoot) -> None:
    # Writing into minitorch, the installed packages or IPython's start-up folder would
    # reach every later student (and the solution's own run).
    tamper = """
        import pathlib, minitorch, numpy
        for target in (pathlib.Path(minitorch.__file__), pathlib.Path(numpy.__file__)):
            with open(target, "a") as file:
                file.write("# tampered\\n")
    """
    code = {"square": textwrap.dedent(tamper) + "\ndef square(x):\n    return x * x"}
    grades = demo.grade("tamper", edit_cells(demo.release(), code))
    assert "OSError" in grades.errors() or "Read-only" in grades.errors()
    assert grades.by_grade_id["square_visible"] == 0


@pytest.mark.parametrize(("name", "code"), [
    ("os-exit", "import os\nos._exit(0)"),
    ("sys-exit", "import sys\nsys.exit(3)"),
    ("memory", "hog = [bytearray(2**30) for _ in range(64)]"),
])
def test_a_dying_cell_keeps_the_points_of_what_ran(demo: CourseRoot, name: str, code: str) -> None:
    answer = {"mean": f"{code}\n\ndef mean(xs):\n    return sum(xs) / len(xs)"}
    grades = demo.grade(f"dies-{name}", edit_cells(demo.solution(), answer))
    assert grades.by_grade_id == {**FULL, "mean_visible": 0, "mean_hidden": 0}, grades.errors()


def test_an_honest_student_with_warnings_and_widgets_gets_full_marks(demo: CourseRoot) -> None:
    noisy = """
        import sys, warnings
        import ipywidgets
        from IPython.display import display
        display(ipywidgets.IntSlider(value=3))
        warnings.warn("an honest warning", UserWarning)
        print("and a line on stderr", file=sys.stderr)

        def square(x):
            return x * x
    """
    grades = demo.grade("honest", edit_cells(demo.solution(), {"square": textwrap.dedent(noisy)}))
    assert grades.by_grade_id == FULL, grades.errors()


def test_observations_compare_floats_with_a_tolerance() -> None:
    assert same([[0.1 + 0.2], {"dict": [["a", 3]]}], [[0.3], {"dict": [["a", 3]]}])
    # What nbformat reads back (NotebookNode) equals the cached plain JSON.
    observed = {"tensor": [1.0], "dtype": "minitorch.float32"}
    assert same(nbformat.from_dict(observed), dict(observed))
    assert not same([[0.31]], [[0.3]])
    assert not same([1, True], [1, 1])
    assert same([3.0, 2], [3, 2.0])
    assert not same([], [None])


@pytest.mark.slow  # twenty notebooks: about a minute
def test_a_class_of_twenty_in_one_autograde_run(tmp_path: Path) -> None:
    root = CourseRoot(tmp_path, DEMO)
    for name in (CONFIG_NAME, *PLUGINS):
        shutil.copyfile(COURSE / name, tmp_path / name)
    honest, release = root.solution(), root.release()
    wrong_mean = {"mean": "def mean(xs):\n    return sum(xs) / (len(xs) - 1)"}
    class_ = {f"honest{i}": (honest, 4) for i in range(5)}
    class_ |= {f"blank{i}": (release, 0) for i in range(4)}
    class_ |= {f"half{i}": (edit_cells(honest, wrong_mean), 2) for i in range(4)}
    class_ |= {f"cheat-{name}": (edit_cells(release, cheat(code)), 0)
               for name, code in CHEATS.items()}
    assert len(class_) == 20
    for student, (nb, _) in class_.items():
        root.submit(student, nb)
    nbgrader(tmp_path, "autograde", "00_demo")
    assert read_grades(tmp_path) == {(s, "00_demo"): score for s, (_, score) in class_.items()}


# ------------------------------------------------------------------ the same, on real chapters

CHEATING_CHAPTERS = ["02_manual_backward", "05_inplace"]


@pytest.fixture(scope="module", params=CHEATING_CHAPTERS)
def chapter(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> CourseRoot:
    return CourseRoot(tmp_path_factory.mktemp(request.param), SOLUTIONS / f"{request.param}.py")


def _first_answer(root: CourseRoot) -> str:
    return grade_cells(root.release(), tests=False)[0].metadata.nbgrader.grade_id


@pytest.mark.slow  # one autograde per cheat and chapter
@pytest.mark.parametrize("name", [*CHEATS, "read-course-root", "tamper"])
def test_a_cheat_earns_nothing_in_a_chapter(chapter: CourseRoot, name: str) -> None:
    # The release, with the cheat in the first answer cell: it solves nothing.
    code = {
        **CHEATS,
        "read-course-root": f"""
            import pathlib
            for path in pathlib.Path({str(chapter.root)!r}).rglob("*"):
                print(path.read_text()[:10])
        """,
        "tamper": """
            import pathlib, minitorch
            pathlib.Path(minitorch.__file__).with_name("course.py").write_text("observe = print")
        """,
    }[name]
    nb = edit_cells(chapter.release(), {_first_answer(chapter): textwrap.dedent(code)})
    grades = chapter.grade(f"cheat-{name}", nb)
    assert grades.total == 0, grades.by_grade_id


@pytest.mark.slow
def test_an_honest_student_with_warnings_and_widgets_in_a_chapter(chapter: CourseRoot) -> None:
    noisy = textwrap.dedent("""
        import sys, warnings
        import ipywidgets
        from IPython.display import display
        display(ipywidgets.FloatSlider(value=0.5))
        warnings.warn("an honest warning", UserWarning)
        print("and a line on stderr", file=sys.stderr)
    """)
    solution = chapter.solution()
    first = grade_cells(solution, tests=False)[0]
    nb = edit_cells(solution, {first.metadata.nbgrader.grade_id: noisy + "\n" + first.source})
    grades = chapter.grade("honest", nb)
    assert grades.total == grades.max_total > 0, grades.errors()


@needs_sandbox
def test_without_bubblewrap_grading_falls_back_to_unshare(
        demo: CourseRoot, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    # The configuration loads the plug-in as a top-level module `integrity` (from beside it).
    monkeypatch.setattr(sys.modules["integrity"], "bubblewrap_available", lambda: False)
    forged = cheat("""
        ip = get_ipython()
        ip.events.register("pre_run_cell", lambda *args: ip.displayhook("full marks"))
    """)
    assert demo.grade("unshare-cheat", edit_cells(demo.release(), forged)).total == 0
    assert demo.grade("unshare-honest", demo.solution()).by_grade_id == FULL
    assert "bwrap cannot run here: grading in the weaker unshare sandbox" in caplog.text


def _calls_in_hidden_blocks(path: Path) -> list[tuple[int, str]]:
    """(line, function name) of each call made on a line of a hidden block of ``path``."""
    text = path.read_text()
    hidden, inside = set(), False
    for number, line in enumerate(text.splitlines(), 1):
        if "### BEGIN HIDDEN TESTS" in line or "### END HIDDEN TESTS" in line:
            inside = "BEGIN" in line
        elif inside:
            hidden.add(number)
    return [(node.lineno, node.func.id) for node in ast.walk(ast.parse(text))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.lineno in hidden]


@pytest.mark.parametrize("source", sorted(SOLUTIONS.glob("0*.py")), ids=lambda p: p.stem)
def test_hidden_blocks_hold_no_expected_value(source: Path) -> None:
    """A hidden block runs in the student's kernel, where a hook can read it as it arrives:
    it sends values with expect/observe, compared outside the kernel, and never compares them
    with an answer of its own (check, check_raises)."""
    found = [f"line {line}: {name}(...)" for line, name in _calls_in_hidden_blocks(source)
             if name in ("check", "check_raises")]
    assert not found, f"{source.name}: use expect() in hidden blocks: {found}"
