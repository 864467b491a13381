"""tools/student_bundle.py: students get the release and minitorch, never the answers."""

import re
import subprocess
import zipfile
from pathlib import Path

import pytest

from tools import student_bundle
from tools.build_course import REPO, SOLUTIONS

HIDDEN = re.compile(r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", re.S)


def _read(zip_path: Path) -> dict[str, str]:
    with zipfile.ZipFile(zip_path) as bundle:
        return {name: bundle.read(name).decode("utf-8", "replace") for name in bundle.namelist()}


def test_bundle_holds_the_release_and_minitorch_only(tmp_path: Path) -> None:
    out = tmp_path / "course.zip"
    assert student_bundle.main([str(out)]) == 0
    files = _read(out)
    names = {name.split("/", 1)[1] for name in files}
    assert {"minitorch/__init__.py", "pyproject.toml", "README.md", "Makefile"} <= names
    tracked = subprocess.run(["git", "ls-files", "course/*/*"], cwd=REPO, check=True,
                             capture_output=True, text=True).stdout.split()
    assert {n for n in names if n.startswith("course/")} == set(tracked)  # the committed release
    for forbidden in ("solutions/", "tests/", "tools/", "benchmarks/", "course/nbgrader_config"):
        assert not [n for n in names if n.startswith(forbidden)], forbidden


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
