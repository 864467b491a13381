"""Build the zip students get: the released notebooks and minitorch, nothing of the answers.

solutions/ (answers and hidden tests) lives in this repository, so the repository is not what
students get. The bundle holds the committed release (`course/<id>/`), the `minitorch`
package and what installs it; never solutions/, tests/, tools/ or the instructor's files.
It is refused if any file in it holds a solution or hidden-test marker, or an assertion
of a hidden test.

    python tools/student_bundle.py dist/autograd-course.zip
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
INCLUDED = ["minitorch", "course", "LICENSE", "pyproject.toml", "Makefile", "environment.yml"]
INSTRUCTOR_ONLY = {"course/nbgrader_config.py", "course/integrity.py", "course/README.md"}
MARKERS = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")
BLOCK = re.compile(r"### BEGIN (SOLUTION|HIDDEN TESTS)\n(.*?)### END \1", re.S)
PREFIX = "autograd-course"
STUDENT_README = """\
# The autograd course

Seven JupyterLab chapters on how PyTorch's autograd works, and `minitorch`, the small library
you rebuild in them. On Debian/Ubuntu with Python >= 3.10 and make:

    make course

sets up `.venv` and opens the chapters (course/<chapter>/) in JupyterLab. Each exercise has
visible tests; run them as you go, then hand in the notebook as your instructor asks.
"""


class LeakError(RuntimeError):
    """A file meant for students holds solution or hidden-test text."""


def bundle_files(repo: Path = REPO) -> list[str]:
    """The tracked files that go to students, relative to ``repo``."""
    listed = subprocess.run(["git", "ls-files", "-z", "--", *INCLUDED], cwd=repo, check=True,
                            capture_output=True, text=True).stdout.split("\0")
    return sorted(p for p in listed if p and p not in INSTRUCTOR_ONLY)


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
    names = bundle_files(repo)
    texts = {name: (repo / name).read_bytes().decode("utf-8", "replace") for name in names}
    found = leaks(texts, secrets(sorted((repo / "solutions").glob("*.py"))))
    if found:
        raise LeakError("refusing to bundle:\n" + "\n".join(found))
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as bundle:
        for name in names:
            bundle.write(repo / name, f"{PREFIX}/{name}")
        bundle.writestr(f"{PREFIX}/README.md", STUDENT_README)
    return names


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
    print(f"wrote {args.out}: {len(names)} files (course/ release, minitorch, install files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
