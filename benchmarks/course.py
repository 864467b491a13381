"""How fast the course answers: each solution notebook executed, and each chapter autograded.

Issue #9's budgets: every solution notebook together in at most 60 s, one chapter
submission autograded in at most 10 s. Times are wall clock on this machine (a kernel start
included), so read them against the budget, not as a comparison between machines.

    python benchmarks/course.py                 # every chapter in solutions/
    python benchmarks/course.py 02_manual_backward
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from nbclient import NotebookClient  # noqa: E402
from nbgrader.apps import NbGraderAPI  # noqa: E402
from sqlalchemy.exc import SAWarning  # noqa: E402

from tools.build_course import (  # noqa: E402
    CONFIG_NAME,
    COURSE,
    SOLUTIONS,
    find_sources,
    generate,
    load_config,
    read_source,
    use_environment_scripts,
    write_source,
)

NOTEBOOKS_BUDGET, AUTOGRADE_BUDGET = 60.0, 10.0


def execute_seconds(source: Path) -> float:
    """Seconds to run the solution notebook top to bottom in a fresh kernel, in a folder
    holding its data files (as a student's release folder does)."""
    with tempfile.TemporaryDirectory() as root:
        write_source(Path(root), source)
        folder = Path(root) / "source" / source.stem
        nb = read_source(source)
        start = time.perf_counter()
        NotebookClient(nb, timeout=600, resources={"metadata": {"path": str(folder)}}).execute()
        return time.perf_counter() - start


def autograde_seconds(source: Path) -> float:
    """Seconds for ``nbgrader autograde`` of one submission (the solution itself)."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write_source(root, source)
        config = load_config(COURSE / CONFIG_NAME, root)
        generate(config, [source.stem])
        submitted = root / "submitted" / "student" / source.stem
        submitted.mkdir(parents=True)
        notebook = f"{source.stem}.ipynb"
        (submitted / notebook).write_bytes((root / "source" / source.stem / notebook).read_bytes())
        start = time.perf_counter()
        result = NbGraderAPI(config=config).autograde(source.stem, "student")
        seconds = time.perf_counter() - start
        if not result["success"]:
            raise RuntimeError(f"autograde of {source.stem} failed:\n{result.get('log', '')}")
        return seconds


def main(argv: list[str] | None = None) -> int:
    """Print a table of both timings per chapter, with the totals against the budgets."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ids", nargs="*", help="assignment ids (default: every chapter)")
    args = parser.parse_args(argv)
    use_environment_scripts()
    warnings.filterwarnings("ignore", category=SAWarning)  # nbgrader's gradebook session
    os.environ.pop("NBGRADER_EXECUTION", None)
    print(f"{'chapter':<22}{'execute (s)':>12}{'autograde (s)':>15}")
    total, slowest = 0.0, 0.0
    for assignment_id, source in find_sources(SOLUTIONS, args.ids).items():
        run, grade = execute_seconds(source), autograde_seconds(source)
        total, slowest = total + run, max(slowest, grade)
        print(f"{assignment_id:<22}{run:>12.1f}{grade:>15.1f}")
    print(f"{'all notebooks':<22}{total:>12.1f}   budget {NOTEBOOKS_BUDGET:.0f} s")
    print(f"{'slowest autograde':<22}{slowest:>27.1f}   budget {AUTOGRADE_BUDGET:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
