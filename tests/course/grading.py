"""Grade notebooks for real in throwaway nbgrader course roots.

A ``CourseRoot`` holds one assignment, built from a percent-format source (``solutions/*.py``
or a fixture) the way tools/build_course.py builds it and configured by the course's own
course/nbgrader_config.py. Tests submit notebooks for student ids, autograde them with
nbgrader and read the scores from the gradebook::

    root = CourseRoot(tmp_path, Path("tests/course/fixtures/00_demo.py"))
    grades = root.grade("alice", edit_cells(root.release(), {"square": "def square(x): ..."}))
    assert grades.by_grade_id["square_visible"] == 0
"""

from __future__ import annotations

import copy
import csv
import functools
import os
import shutil
import subprocess
import sysconfig
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
import nbgrader.api
from nbformat import NotebookNode
from nbgrader.api import Gradebook
from nbgrader.apps import NbGraderAPI
from nbgrader.validator import Validator
from traitlets.config import Config

from tools.build_course import (
    CONFIG_NAME,
    COURSE,
    load_config,
    use_environment_scripts,
    write_source,
)

use_environment_scripts()  # the gradebook is created by running `alembic`
# Each new gradebook asks `alembic heads`, a subprocess that takes seconds, for the version
# nbgrader's migrations end at, which is the same for every gradebook: asked once a process.
nbgrader.api.get_alembic_version = functools.cache(nbgrader.api.get_alembic_version)


# A course root runs the instructor's solution once, to observe what its test cells send
# (course/integrity.py caches that in the root's .observations, keyed by the source's hash
# and the seams removed). A test session shares those runs between its roots: each root
# starts with the observations already made, and adds those it makes (tests/course/
# conftest.py names the folder; None: each root runs its solution).
shared_observations: Path | None = None


def _take_observations(root: Path) -> None:
    if shared_observations is not None and shared_observations.is_dir():
        (root / ".observations").mkdir(exist_ok=True)
        for made in shared_observations.glob("*.json"):
            shutil.copyfile(made, root / ".observations" / made.name)


def _share_observations(root: Path) -> None:
    if shared_observations is None:
        return
    shared_observations.mkdir(parents=True, exist_ok=True)
    for made in (root / ".observations").glob("*.json"):
        if not (shared_observations / made.name).exists():  # (another worker's: the same)
            partial = shared_observations / f".{made.name}.{os.getpid()}"
            shutil.copyfile(made, partial)
            os.replace(partial, shared_observations / made.name)  # whole, or not at all


@dataclass(frozen=True)
class Grades:
    """One autograded submission: total, maximum, and each graded cell's auto score."""

    total: float
    max_total: float
    by_grade_id: dict[str, float | None]  # None: nbgrader left it for manual grading
    notebook: NotebookNode  # the autograded notebook, outputs included

    def errors(self) -> str:
        """The error outputs of the autograded notebook, for assertion messages."""
        return "\n".join(
            f"[{cell.get('id')}] {output.ename}: {output.evalue}"
            for cell in self.notebook.cells
            for output in cell.get("outputs", [])
            if output.output_type == "error"
        )


# Cheats that solve nothing (course/README.md, "What autograding defends against"); in a
# submission's first answer cell, each must leave every test cell without its points.
SKIP_LATER_CELLS = 'get_ipython().input_transformers_cleanup.append(lambda lines: ["pass\\n"])\n'
SWALLOW_AND_AGREE = """\
import math

import numpy as np

import minitorch

get_ipython().set_custom_exc((BaseException,), lambda *args, **kwargs: None)
math.isclose = np.allclose = np.array_equal = lambda *args, **kwargs: True
np.testing.assert_allclose = lambda *args, **kwargs: None
minitorch.Tensor.__eq__ = minitorch.Tensor.equal = minitorch.Tensor.allclose = (
    lambda *args, **kwargs: True)
"""


DROP_ASSERTS = """\
import ast


class DropAsserts(ast.NodeTransformer):
    def visit_Assert(self, node):
        return ast.copy_location(ast.Pass(), node)


get_ipython().ast_transformers.append(DropAsserts())
"""


def grade_cells(nb: NotebookNode, *, tests: bool) -> list[NotebookNode]:
    """The cells holding an answer (``tests=False``) or the graded test cells (``tests=True``)."""
    found = []
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        is_test = bool(meta.get("grade")) and not meta.get("solution")
        if is_test if tests else meta.get("solution"):
            found.append(cell)
    return found


def edit_cells(nb: NotebookNode, sources: Mapping[str, str]) -> NotebookNode:
    """A copy of ``nb`` whose cells named by grade_id hold the given sources.

    >>> edit_cells(nbformat.v4.new_notebook(), {"nowhere": "pass"})
    Traceback (most recent call last):
    KeyError: "no cell with grade_id: ['nowhere']"
    """
    nb = copy.deepcopy(nb)
    missing = set(sources)
    for cell in nb.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in sources:
            cell.source = sources[grade_id]
            missing.discard(grade_id)
    if missing:
        raise KeyError(f"no cell with grade_id: {sorted(missing)}")
    return nb


def passify_tests(nb: NotebookNode) -> NotebookNode:
    """A copy of ``nb`` whose every test cell is reduced to ``pass``."""
    ids = [cell.metadata.nbgrader.grade_id for cell in grade_cells(nb, tests=True)]
    return edit_cells(nb, dict.fromkeys(ids, "pass"))


def delete_cells(nb: NotebookNode, grade_ids: Iterable[str]) -> NotebookNode:
    """A copy of ``nb`` without the cells named by ``grade_ids``."""
    doomed = set(grade_ids)
    nb = copy.deepcopy(nb)
    kept = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") not in doomed]
    if len(nb.cells) - len(kept) != len(doomed):
        raise KeyError(f"not all of {sorted(doomed)} are grade_ids of {len(nb.cells)} cells")
    nb.cells = kept
    return nb


class CourseRoot:
    """An nbgrader course root in ``root`` holding the assignment built from ``source``,
    configured by course/nbgrader_config.py, with the release generated."""

    def __init__(self, root: Path, source: Path) -> None:
        self.root = root
        self.assignment_id = source.stem
        write_source(root, source)
        self.settings = load_config(COURSE / CONFIG_NAME, root)
        _succeed(self._api().generate_assignment(self.assignment_id), "generate_assignment")

    def _api(self, config: Mapping[str, Any] | None = None) -> NbGraderAPI:
        settings = copy.deepcopy(self.settings)
        settings.merge(Config(config or {}))
        return NbGraderAPI(config=settings)

    def _path(self, step: str, student_id: str) -> Path:
        folder = self.root / step / student_id / self.assignment_id
        return folder / f"{self.assignment_id}.ipynb"

    def solution(self) -> NotebookNode:
        """The instructor's notebook (nbgrader's source)."""
        return nbformat.read(self._path("source", "."), as_version=4)

    def release(self) -> NotebookNode:
        """The student notebook generated from it."""
        return nbformat.read(self._path("release", "."), as_version=4)

    def validate(self, step: str, *, invert: bool = False) -> dict[str, list]:
        """``nbgrader validate [--invert]`` on the ``"source"`` or ``"release"`` notebook:
        ``{}`` when every test cell passes (fails, with ``invert``), else the offending cells."""
        validator = Validator(config=copy.deepcopy(self.settings), invert=invert)
        return validator.validate(str(self._path(step, ".")))

    def submit(self, student_id: str, nb: NotebookNode) -> None:
        """Put ``nb`` where nbgrader collects ``student_id``'s submission."""
        path = self._path("submitted", student_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, path)

    def autograde(self, student_id: str, config: Mapping[str, Any] | None = None) -> Grades:
        """Autograde the submission of ``student_id`` and read its scores from the gradebook;
        ``config`` (e.g. ``{"Execute": {"timeout": 5}}``) is merged over the root's
        configuration for this run only."""
        api = self._api(config)
        _take_observations(self.root)
        _succeed(api.autograde(self.assignment_id, student_id), "autograde")
        _share_observations(self.root)
        return self._grades(api, student_id)

    def grade_many(self, submissions: Mapping[str, NotebookNode]) -> dict[str, Grades]:
        """Submit each notebook for its student id and autograde them all in one nbgrader
        run (one start-up and gradebook for the lot: the way to grade a corpus)."""
        for student_id, nb in submissions.items():
            self.submit(student_id, nb)
        api = self._api()
        _take_observations(self.root)
        api.autograde(self.assignment_id, "*")
        for student_id in submissions:  # a kernel that died on a loaded machine: once more
            if not self._graded_cleanly(student_id):
                _succeed(api.autograde(self.assignment_id, student_id), "autograde")
        _share_observations(self.root)
        return {student_id: self._grades(api, student_id) for student_id in submissions}

    def _graded_cleanly(self, student_id: str) -> bool:
        path = self._path("autograded", student_id)
        return path.exists() and "DeadKernelError" not in path.read_text()

    def _grades(self, api: NbGraderAPI, student_id: str) -> Grades:
        coursedir = api.coursedir
        with Gradebook(coursedir.db_url, course_id=coursedir.course_id) as gradebook:
            submission = gradebook.find_submission(self.assignment_id, student_id)
            notebook = gradebook.find_submission_notebook(
                self.assignment_id, self.assignment_id, student_id
            )
            return Grades(
                total=submission.score,
                max_total=submission.max_score,
                by_grade_id={grade.name: grade.auto_score for grade in notebook.grades},
                notebook=nbformat.read(self._path("autograded", student_id), as_version=4),
            )

    def feedback(self, student_id: str) -> str:
        """``nbgrader generate_feedback`` for an autograded student: the HTML they get."""
        _succeed(self._api().generate_feedback(self.assignment_id, student_id),
                 "generate_feedback")
        return self._path("feedback", student_id).with_suffix(".html").read_text()

    def feedback_many(self, student_ids: Iterable[str]) -> dict[str, str]:
        """``nbgrader generate_feedback`` for the named autograded students, in one run."""
        wanted = set(student_ids)
        others = [path.name for path in (self.root / "autograded").iterdir()
                  if path.name not in wanted]
        api = self._api({"CourseDirectory": {"student_id_exclude": ",".join(others)}})
        _succeed(api.generate_feedback(self.assignment_id, "*"), "generate_feedback")
        return {student_id: self._path("feedback", student_id).with_suffix(".html").read_text()
                for student_id in wanted}

    def grade(
        self, student_id: str, nb: NotebookNode, config: Mapping[str, Any] | None = None
    ) -> Grades:
        """Submit ``nb`` for ``student_id`` and autograde it."""
        self.submit(student_id, nb)
        return self.autograde(student_id, config)


def _succeed(result: dict, step: str) -> None:
    if not result["success"]:
        raise AssertionError(f"nbgrader {step} failed:\n{result.get('log', '')}"
                             f"{result.get('error', '')}")


def nbgrader(root: Path, *args: str) -> str:
    """Run the nbgrader command line in ``root``, the way course/README.md does."""
    use_environment_scripts()
    command = [str(Path(sysconfig.get_path("scripts")) / "nbgrader"), *args]
    done = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stderr


def read_grades(root: Path) -> dict[tuple[str, str], float]:
    """``nbgrader export`` in ``root``, read back: {(student_id, assignment): score}."""
    nbgrader(root, "export")
    with open(root / "grades.csv", newline="") as file:
        return {(row["student_id"], row["assignment"]): float(row["score"])
                for row in csv.DictReader(file)}
