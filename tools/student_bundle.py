"""Build the zip students get: the released notebooks and minitorch, nothing of the answers.

solutions/ (answers and hidden tests) lives in this repository, so the repository is not what
students get. The bundle is a product of its own: the committed release (`course/<id>/`),
the `minitorch` package, and from `tools/bundle/` its README, its conda `environment.yml` and
`autograd_course` (the two commands, `python -m autograd_course start` and `check`), with a
`pyproject.toml` written here from the repository's (numpy, the course extra less the
instructor's tools, and what `check` runs notebooks with). Never solutions/, tests/, tools/,
torch, playwright or nbgrader. It is refused if any file in it holds a solution or
hidden-test marker, or an assertion of a hidden test.

    python tools/student_bundle.py dist/autograd-course.zip
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[1]
INCLUDED = ["minitorch", "course", "LICENSE"]
PRODUCT = "tools/bundle"  # the bundle's own files, at the top of the zip
INSTRUCTOR_ONLY = {"course/nbgrader_config.py", "course/integrity.py", "course/README.md"}
# The course extra's packages that students never need: the grader and the authoring tool.
NOT_FOR_STUDENTS = {"nbgrader", "jupytext"}
CHECK_NEEDS = ["ipykernel", "nbclient", "nbformat"]  # `check` runs the notebooks itself
MARKERS = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")
BLOCK = re.compile(r"### BEGIN (SOLUTION|HIDDEN TESTS)\n(.*?)### END \1", re.S)
PREFIX = "autograd-course"
PYPROJECT = """\
[build-system]
requires = ["hatchling>=1.27"]
build-backend = "hatchling.build"

[project]
name = "autograd-course"
version = {version}
description = "The autograd course: JupyterLab chapters and minitorch, the library they rebuild."
readme = "README.md"
license = "MIT"
license-files = ["LICENSE"]
requires-python = ">=3.10"
dependencies = [
{dependencies}
]

[project.scripts]
autograd-course = "autograd_course.cli:main"

[tool.hatch.build.targets.wheel]
packages = ["minitorch", "autograd_course"]
"""


class LeakError(RuntimeError):
    """A file meant for students holds solution or hidden-test text."""


def bundle_files(repo: Path = REPO) -> dict[str, str]:
    """The tracked files that go to students: name in the bundle -> path in ``repo``."""
    listed = subprocess.run(["git", "ls-files", "-z", "--", *INCLUDED, PRODUCT], cwd=repo,
                            check=True, capture_output=True, text=True).stdout.split("\0")
    names = {p.removeprefix(f"{PRODUCT}/"): p for p in listed if p and p not in INSTRUCTOR_ONLY}
    return dict(sorted(names.items()))


def student_requirements(pyproject: dict) -> list[str]:
    """What a student's environment needs, from the repository's pyproject: minitorch's own
    dependencies and the course extra, less the instructor's tools, plus what ``check`` runs.

    >>> student_requirements({"project": {"dependencies": ["numpy"],
    ...     "optional-dependencies": {"course": ["jupyterlab", "nbgrader"]}}})
    ['numpy', 'jupyterlab', 'ipykernel', 'nbclient', 'nbformat']
    """
    project = pyproject["project"]
    course = [r for r in project["optional-dependencies"]["course"]
              if re.split(r"[\s\[<>=!~;]", r, maxsplit=1)[0] not in NOT_FOR_STUDENTS]
    wanted = project["dependencies"] + course
    return wanted + [r for r in CHECK_NEEDS if r not in wanted]


def student_pyproject(repo: Path = REPO) -> str:
    """The bundle's pyproject.toml: the course as a package (minitorch and its commands)."""
    pyproject = tomllib.loads((repo / "pyproject.toml").read_text(encoding="utf-8"))
    init = (repo / "minitorch" / "__init__.py").read_text(encoding="utf-8")
    version = re.search(r'^__version__ = "([^"]+)"', init, re.M).group(1)
    lines = ",\n".join(f"    {json.dumps(r)}" for r in student_requirements(pyproject))
    return PYPROJECT.format(version=json.dumps(version), dependencies=lines)


def secrets(sources: Iterable[Path]) -> list[str]:
    """Texts that must never reach a student: the markers, and every assertion of every
    hidden-test block in ``sources`` (solutions/*.py), where the expected values are, unless
    the same text is also visible outside the hidden blocks."""
    found = list(MARKERS)
    for source in sources:
        text = source.read_text()
        visible = BLOCK.sub("", text)
        for kind, body in BLOCK.findall(text):
            if kind == "HIDDEN TESTS":
                found += [line.strip() for line in body.splitlines()
                          if line.strip().startswith("assert ") and line.strip() not in visible]
    return found


def leaks(texts: dict[str, str], forbidden: Sequence[str]) -> list[str]:
    """``"path: text"`` for each forbidden text found in a file's text.

    >>> leaks({"a.py": "x = 1  # BEGIN SOLUTION"}, ["BEGIN SOLUTION"])
    ['a.py: BEGIN SOLUTION']
    """
    return [f"{name}: {secret}" for name, text in texts.items()
            for secret in forbidden if secret in text]


def build_bundle(out: Path, repo: Path = REPO) -> list[str]:
    """Write the student zip to ``out`` and return the files in it; raise ``LeakError``
    (writing nothing) when a file would leak solutions or hidden tests."""
    files = bundle_files(repo)
    texts = {name: (repo / path).read_bytes().decode("utf-8", "replace")
             for name, path in files.items()}
    found = leaks(texts, secrets(sorted((repo / "solutions").glob("*.py"))))
    if found:
        raise LeakError("refusing to bundle:\n" + "\n".join(found))
    texts["pyproject.toml"] = student_pyproject(repo)  # made of the repository's metadata only
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as bundle:
        for name in sorted(texts):
            if name in files:
                bundle.write(repo / files[name], f"{PREFIX}/{name}")
            else:
                bundle.writestr(f"{PREFIX}/{name}", texts[name])
    return sorted(texts)


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the zip file to write")
    args = parser.parse_args(argv)
    try:
        names = build_bundle(args.out)
    except LeakError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}: {len(names)} files (course/ release, minitorch, autograd_course, "
          "README.md, pyproject.toml, environment.yml)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
