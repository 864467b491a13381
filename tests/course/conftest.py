"""The nbgrader tests import tools/ (the course build) from the repository root. (Which of
them share an xdist worker: the repository's conftest.py.)"""

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# tools/ is not an installed package; pytest puts only this folder on sys.path.
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))


@pytest.fixture(scope="session", autouse=True)
def _observations_shared_by_the_session(request: pytest.FixtureRequest,
                                        tmp_path_factory: pytest.TempPathFactory) -> None:
    """The solution observations course roots share (grading.shared_observations): one
    folder for every xdist worker of the run (each has its own folder in the run's)."""
    import grading

    base = tmp_path_factory.getbasetemp()
    worker = hasattr(request.config, "workerinput")
    grading.shared_observations = (base.parent if worker else base) / "observations"
