"""The nbgrader tests import tools/ (the course build) from the repository root. (Which of
them share an xdist worker: the repository's conftest.py.)"""

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# tools/ is not an installed package; pytest puts only this folder on sys.path.
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
