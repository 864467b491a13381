"""Run each chapter's notebook as saved, with its visible tests, and print a progress table.

An exercise is a cell you answer (nbgrader's solution cell) and the test cells after it.
It is *not answered* while its cell still raises ``NotImplementedError()`` where your code
goes, *passed* when it and its tests run without error, *failed* otherwise. Errors in other
cells are listed under the table. Your notebooks are only read, never changed.

    python -m autograd_course.progress --root . [01_dag ...]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError

STUB = "raise NotImplementedError()"
CELL_TIMEOUT = 120  # seconds; a cell that runs longer fails its exercise
MESSAGE_LINES = 8  # of a failed check's message in `check`'s output; the notebook shows all


@dataclass
class Exercise:
    """One exercise of a chapter and what became of it."""

    chapter: str
    name: str
    status: str = "not answered"  # or "passed", "failed"
    detail: str = ""


def error_of(cell: nbformat.NotebookNode) -> str | None:
    """``"Name: message"`` of the error a code cell raised (every line of it), or None.

    >>> error_of(nbformat.v4.new_code_cell(outputs=[nbformat.v4.new_output(
    ...     "error", ename="AssertionError", evalue="3 != 4\\nmore", traceback=[])]))
    'AssertionError: 3 != 4\\nmore'
    """
    for output in cell.get("outputs", []):
        if output.get("output_type") == "error":
            return f"{output['ename']}: {output['evalue']}".strip(": \n")
    return None


def first_line(text: str) -> str:
    """The first line of ``text`` (an error's title).

    >>> first_line("CheckFailed: the shape\\n  expected: (2,)")
    'CheckFailed: the shape'
    """
    return text.partition("\n")[0]


def grade(chapter: str, nb: nbformat.NotebookNode) -> tuple[list[Exercise], list[str]]:
    """The exercises of an executed notebook, and the errors raised outside them."""
    exercises: list[Exercise] = []
    others: list[str] = []
    for number, cell in enumerate(nb.cells, 1):
        meta = cell.metadata.get("nbgrader", {})
        error = error_of(cell) if cell.cell_type == "code" else None
        if meta.get("solution") and cell.cell_type == "code":
            answered = STUB not in cell.source
            status = ("failed" if error else "passed") if answered else "not answered"
            exercises.append(Exercise(chapter, meta.get("grade_id", f"cell {number}"), status,
                                      error or "" if answered else ""))
        elif meta.get("grade") and exercises:
            current = exercises[-1]
            if error and current.status == "passed":
                current.status, current.detail = "failed", error
        elif error:
            others.append(f"{chapter}, cell {number}: {first_line(error)}")
    return exercises, others


def execute(path: Path, tries: int = 2) -> tuple[nbformat.NotebookNode, str]:
    """The notebook at ``path``, run top to bottom in a scratch copy of its folder (so that
    nothing it writes lands in yours; errors don't stop it), and ``""``; or, when its kernel
    died or a cell ran out of time, as saved and the reason."""
    reason = ""
    for _ in range(tries):
        nb = nbformat.read(path, as_version=4)
        with tempfile.TemporaryDirectory(prefix="autograd-check-") as scratch:
            folder = Path(scratch) / path.parent.name
            shutil.copytree(path.parent, folder,
                            ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
            client = NotebookClient(nb, timeout=CELL_TIMEOUT, allow_errors=True,
                                    kernel_name="python3",
                                    resources={"metadata": {"path": str(folder)}})
            try:
                client.execute(stderr=subprocess.DEVNULL)  # the kernel's log is not yours
                return nb, ""
            except (DeadKernelError, CellTimeoutError) as error:
                reason = f"{type(error).__name__}: {str(error).partition(chr(10))[0]}"
    return nbformat.read(path, as_version=4), reason.strip(": ")


def table(exercises: Sequence[Exercise]) -> str:
    """The progress table, one row per exercise.

    >>> print(table([Exercise("01_dag", "trace", "passed")]))
    chapter  exercise  status
    01_dag   trace     passed
    """
    rows = [("chapter", "exercise", "status")]
    rows += [(e.chapter, e.name, f"{e.status}: {first_line(e.detail)}" if e.detail else e.status)
             for e in exercises]
    widths = [max(len(row[i]) for row in rows) for i in range(2)]
    return "\n".join(f"{a:<{widths[0]}}  {b:<{widths[1]}}  {c}" for a, b, c in rows)


def explanations(exercises: Sequence[Exercise], most: int = MESSAGE_LINES) -> str:
    """What each failed check said beyond its title (what was expected, what your code gave,
    a hint), indented under the exercise's name; at most ``most`` lines each.

    >>> print(explanations([Exercise("01_dag", "trace", "failed",
    ...     "CheckFailed: the number of nodes\\n  expected: 3\\n  got:      5")]))
    01_dag trace: CheckFailed: the number of nodes
      expected: 3
      got:      5
    """
    blocks = []
    for e in exercises:
        lines = e.detail.splitlines()
        if e.status == "failed" and len(lines) > 1:
            shown = lines[:most] + (["  ..."] if len(lines) > most else [])
            blocks.append("\n".join([f"{e.chapter} {e.name}: {shown[0]}", *shown[1:]]))
    return "\n\n".join(blocks)


def summary(exercises: Sequence[Exercise]) -> str:
    """One line: how many exercises passed, failed, are not answered.

    >>> summary([Exercise("01", "a", "passed"), Exercise("01", "b")])
    '1 of 2 exercises passed (0 failed, 1 not answered)'
    """
    count = {s: sum(e.status == s for e in exercises)
             for s in ("passed", "failed", "not answered")}
    return (f"{count['passed']} of {len(exercises)} exercises passed ({count['failed']} failed, "
            f"{count['not answered']} not answered)")


def chapters(root: Path, wanted: Sequence[str]) -> list[Path]:
    """The chapters' notebooks under ``root/course`` (only ``wanted`` ones, if given)."""
    found = sorted(root.glob("course/*/*.ipynb"))
    found = [p for p in found if p.stem == p.parent.name and ".ipynb_checkpoints" not in p.parts]
    unknown = set(wanted) - {p.stem for p in found}
    if unknown:
        raise SystemExit(f"error: no chapter {', '.join(sorted(unknown))}; the chapters are "
                         f"{', '.join(p.stem for p in found)}")
    return [p for p in found if not wanted or p.stem in wanted]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the chapters, print the table; 0 when every exercise passed, else 1."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--root", type=Path, default=Path.cwd(), help="the unzipped course folder")
    p.add_argument("chapters", nargs="*")
    args = p.parse_args(argv)
    exercises: list[Exercise] = []
    others: list[str] = []
    print("Running your notebooks as saved (save them in JupyterLab first) ...", flush=True)
    for path in chapters(args.root, args.chapters):
        print(f"  {path.stem}", flush=True)
        nb, broken = execute(path)
        found, errors = grade(path.stem, nb)
        if broken:  # nothing ran to the end: no exercise of this chapter counts as passed
            for e in found:
                if e.status == "passed":
                    e.status, e.detail = "failed", f"the chapter did not run to the end ({broken})"
        exercises += found
        others += errors
    print()
    print(table(exercises))
    print()
    if explained := explanations(exercises):
        print("What the failed checks say (the whole message is in the notebook):")
        print(explained)
        print()
    if others:
        print("Errors outside the exercises (answer the exercises above them first):")
        print("\n".join(f"  {line}" for line in others))
        print()
    print(summary(exercises))
    return 0 if exercises and all(e.status == "passed" for e in exercises) else 1


if __name__ == "__main__":
    sys.exit(main())
