"""tools/build_course.py: deterministic releases, drift detection, and an instructor's root
where the headless nbgrader commands of course/README.md grade a class."""

import shutil
import zipfile
from pathlib import Path

import nbformat
import pytest
from grading import nbgrader, read_grades

from tools.build_course import (
    CONFIG_NAME,
    COURSE,
    PLUGINS,
    REPO,
    main,
    normalise_notebook,
)

FIXTURES = Path(__file__).parent / "fixtures"
DEMO_FILES = ["00_demo/00_demo.ipynb", "00_demo/demo_values.txt"]
DEMO_IDS = [
    "cell-1", "setup", "setup-1", "setup-2", "square", "square_visible", "square_hidden",
    "square_hidden-1", "square_hidden-2", "mean", "mean_visible", "mean_hidden",
]


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the demo's solutions/ and an empty course/ holding the course's config."""
    solutions, course = tmp_path / "solutions", tmp_path / "course"
    shutil.copytree(FIXTURES, solutions)
    copy_config(course)
    return solutions, course


def copy_config(course: Path) -> None:
    """Give ``course`` the course's nbgrader configuration and the plug-ins it loads."""
    course.mkdir()
    for name in (CONFIG_NAME, *PLUGINS):
        shutil.copyfile(COURSE / name, course / name)


def build(solutions: Path, course: Path, *args: str) -> int:
    return main(["--solutions", str(solutions), "--course", str(course), *args])


def snapshot(course: Path) -> dict[str, bytes]:
    return {p.relative_to(course).as_posix(): p.read_bytes()
            for p in sorted(course.rglob("*"))
            if p.is_file() and p.name not in (CONFIG_NAME, *PLUGINS) and p.suffix != ".pyc"}


def test_regenerating_is_byte_identical(repo: tuple[Path, Path], tmp_path: Path) -> None:
    solutions, course = repo
    assert build(solutions, course) == 0
    first = snapshot(course)
    assert sorted(first) == DEMO_FILES
    assert build(solutions, course) == 0
    other = tmp_path / "other"
    shutil.copytree(course, other)
    shutil.rmtree(other / "00_demo")
    assert build(solutions, other) == 0
    assert snapshot(course) == first == snapshot(other)


def test_release_is_normalised_with_stable_ids(repo: tuple[Path, Path]) -> None:
    solutions, course = repo
    build(solutions, course)
    data = (course / DEMO_FILES[0]).read_bytes()
    assert data == normalise_notebook(data.decode())
    nb = nbformat.reads(data.decode(), as_version=4)
    assert [cell.id for cell in nb.cells] == DEMO_IDS
    assert nb.metadata == {"kernelspec": {
        "display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}}
    assert "lines_to_next_cell" not in data.decode()


def test_normalise_drops_outputs_and_counts() -> None:
    cell = nbformat.v4.new_code_cell("1", execution_count=3, id="one")
    result = nbformat.v4.new_output("execute_result", data={"text/plain": "1"}, execution_count=3)
    cell.outputs = [result]
    text = normalise_notebook(nbformat.writes(nbformat.v4.new_notebook(cells=[cell]))).decode()
    cleaned = nbformat.reads(text, as_version=4).cells[0]
    assert (cleaned.outputs, cleaned.execution_count, cleaned.id) == ([], None, "one")
    assert text.endswith("}\n") and not text.endswith("\n\n")


def test_check_reports_drift(repo: tuple[Path, Path], capsys: pytest.CaptureFixture) -> None:
    solutions, course = repo
    build(solutions, course)
    assert build(solutions, course, "--check") == 0
    source = solutions / "00_demo.py"
    source.write_text(source.read_text().replace("returns `x` times", "returns `x` multiplied by"))
    (course / "00_demo" / "demo_values.txt").unlink()
    (course / "99_gone").mkdir()
    (course / "99_gone" / "99_gone.ipynb").write_text("{}")
    capsys.readouterr()
    assert build(solutions, course, "--check") == 1
    assert capsys.readouterr().out.splitlines() == [
        "stale    course/00_demo/00_demo.ipynb (+1 -1 lines)",
        "missing  course/00_demo/demo_values.txt",
        "extra    course/99_gone/99_gone.ipynb",
    ]
    assert build(solutions, course) == 0
    assert not (course / "99_gone").exists()
    assert build(solutions, course, "--check") == 0


def test_explicit_ids_and_duplicates(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    course = tmp_path / "course"
    copy_config(course)
    source = tmp_path / "01_ids.py"
    source.write_text('# %% [markdown] id="intro"\n# hi\n\n# %%\nx = 1\n')
    assert build(tmp_path, course) == 0
    nb = nbformat.read(course / "01_ids" / "01_ids.ipynb", as_version=4)
    assert [cell.id for cell in nb.cells] == ["intro", "intro-1"]
    source.write_text('# %% id="x-1"\nx = 1\n\n# %% id="x"\ny = 1\n\n# %%\nz = 1\n')
    assert build(tmp_path, course) == 2
    assert "two cells get the id 'x-1'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("files", "content", "message"),
    [
        ("[demo_values.txt]", "### BEGIN SOLUTION\n", "would leak"),
        ("[../secret.txt]", "1\n", "is not a file beside it"),
        ("[missing.txt]", "1\n", "is not a file beside it"),
    ],
)
def test_bad_data_files_are_refused(
    repo: tuple[Path, Path], files: str, content: str, message: str,
    capsys: pytest.CaptureFixture,
) -> None:
    solutions, course = repo
    (solutions / "demo_values.txt").write_text(content)
    (solutions.parent / "secret.txt").write_text(content)
    source = solutions / "00_demo.py"
    listed = "#     files:\n#     - demo_values.txt"
    assert listed in source.read_text()
    source.write_text(source.read_text().replace(listed, f"#     files: {files}"))
    assert build(solutions, course) == 2
    assert message in capsys.readouterr().err


def test_sources_must_be_assignments(repo: tuple[Path, Path], capsys) -> None:
    solutions, course = repo
    (solutions / "helpers.py").write_text("x = 1\n")
    assert build(solutions, course) == 2
    assert "not an assignment id" in capsys.readouterr().err
    (solutions / "helpers.py").unlink()
    assert build(solutions, course, "01_missing") == 2
    assert "01_missing" in capsys.readouterr().err


def test_instructor_root_must_be_outside_the_repository(capsys) -> None:
    inside = REPO / "class-inside-repo"
    assert main(["--instructor-root", str(inside)]) == 2
    assert "inside the repository" in capsys.readouterr().err
    assert not inside.exists()


@pytest.mark.slow  # nine nbgrader command lines: 20 s on an idle machine, 30+ s under load
def test_headless_grading_in_an_instructor_root(repo: tuple[Path, Path], tmp_path: Path) -> None:
    solutions, course = repo
    build(solutions, course)
    root = tmp_path / "class"
    assert build(solutions, course, "--instructor-root", str(root)) == 0
    assert sorted(p.name for p in root.iterdir()) == sorted([CONFIG_NAME, *PLUGINS, "source"])

    nbgrader(root, "generate_assignment", "00_demo")
    assert snapshot(root / "release") == snapshot(course)  # the committed release, to the byte

    archive = root / "downloaded" / "00_demo" / "archive"
    (archive / "bob").mkdir(parents=True)
    with zipfile.ZipFile(archive / "alice.zip", "w") as bundle:
        bundle.write(root / "source" / "00_demo" / "00_demo.ipynb", "00_demo.ipynb")
        bundle.writestr(".ipynb_checkpoints/00_demo-checkpoint.ipynb", "{}")
    shutil.copyfile(course / "00_demo" / "00_demo.ipynb", archive / "bob" / "00_demo.ipynb")
    nbgrader(root, "zip_collect", "00_demo")
    nbgrader(root, "autograde", "00_demo")
    nbgrader(root, "generate_feedback", "00_demo")
    assert (root / "feedback" / "alice" / "00_demo" / "00_demo.html").is_file()
    assert read_grades(root) == {("alice", "00_demo"): 4, ("bob", "00_demo"): 0}

    # Re-release after a fix to a hidden test: the graded work and the config are kept.
    (root / CONFIG_NAME).write_text((root / CONFIG_NAME).read_text() + "# mine\n")
    source = solutions / "00_demo.py"
    source.write_text(source.read_text().replace("== 0.25", "== 0.5"))
    assert build(solutions, course, "--instructor-root", str(root), "00_demo") == 0
    assert (root / CONFIG_NAME).read_text().endswith("# mine\n")
    nbgrader(root, "generate_assignment", "00_demo", "--force")
    nbgrader(root, "autograde", "00_demo", "--force")
    assert read_grades(root) == {("alice", "00_demo"): 3, ("bob", "00_demo"): 0}
