"""Doctests: every docstring example in minitorch runs with the names its docs assume
(``minitorch``, ``nn``, ``F`` for nn.functional, ``optim``) already imported.

Under xdist (``-n 2 --dist loadgroup``, the Makefile's), :func:`xdist_group` decides which
tests share a worker; xdist's own ``xdist_group`` marks are not used, as pytest 9 drops the
group it writes into node ids (pytest-xdist issue #1386) and then spreads every test."""

import re

import pytest

import minitorch
import minitorch.nn.functional as F
from minitorch import nn, optim

# Percent-format notebooks and the tutorial programs are run by their tests, never imported.
collect_ignore_glob = ["tests/course/fixtures/*", "tests/tutorial_programs/*"]

# Course test modules build module-scoped course roots (a generated assignment, a graded
# corpus), which must be built once, not once per worker: each such module runs on one worker,
# or, where it builds one root per chapter, each chapter's tests do.
COURSE_TESTS = "tests/course/"
ROOT_PER_CHAPTER = ("test_wrong_answers.py",)
NO_SHARED_ROOT = ("test_course_chapters.py",)
CHAPTER = re.compile(r"\[(\d\d_[a-z_]+)")


def xdist_group(nodeid: str) -> str | None:
    """The group of tests that one xdist worker runs together with this one; None: any.

    >>> xdist_group("tests/course/test_wrong_answers.py::test_a[06_gradcheck-jacobian-x]")
    'tests/course/test_wrong_answers.py[06_gradcheck]'
    >>> xdist_group("tests/test_ops.py::test_add") is None
    True
    """
    path = nodeid.split("::")[0]
    name = path.rpartition("/")[2]
    if not path.startswith(COURSE_TESTS) or name in NO_SHARED_ROOT:
        return None
    chapter = CHAPTER.search(nodeid) if name in ROOT_PER_CHAPTER else None
    return f"{path}[{chapter[1]}]" if chapter else path


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """``--dist loadgroup`` with the groups of :func:`xdist_group`: a group is sent to one
    worker whole; every other test is sent alone, wherever a worker is free."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class Grouped(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return xdist_group(nodeid) or nodeid

    return Grouped(config, log)


@pytest.fixture(autouse=True)
def _minitorch_in_doctests(doctest_namespace: dict) -> None:
    doctest_namespace.update(minitorch=minitorch, nn=nn, F=F, optim=optim)
