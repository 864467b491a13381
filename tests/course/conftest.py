"""The nbgrader tests import tools/ (the course build) from the repository root, and keep
each module on one xdist worker."""

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# tools/ is not an installed package; pytest puts only this folder on sys.path.
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))


def pytest_collection_modifyitems(items: list) -> None:
    """Under xdist (``--dist loadgroup``), keep each course test module on one worker: their
    module-scoped course roots then generate and autograde once, not once per worker."""
    for item in items:
        path = item.path.as_posix()
        if "/tests/course/" in path and item.path.name != "test_course_chapters.py":
            item.add_marker(pytest.mark.xdist_group(item.path.stem))
