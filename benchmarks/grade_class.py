"""Grading throughput of tools/grade_class.py: N synthetic submissions with 1 worker and with
``-j`` workers, in a throwaway course root (issue #19: scaling >= 1.7x on 2 cores).

Half the submissions are the instructor's solution, half the untouched release; with
``--loop`` one more answer loops forever, to show it costs one cell timeout and no more.
The gate and the solution's observations are computed once before timing.

    python benchmarks/grade_class.py                       # 01_dag, 10 submissions, -j 2
    python benchmarks/grade_class.py 04_grad_modes -n 50 -j 2 --loop
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import nbformat  # noqa: E402

from tools import grade_class  # noqa: E402
from tools.build_course import (  # noqa: E402
    CONFIG_NAME,
    COURSE,
    PLUGINS,
    SOLUTIONS,
    generate,
    load_config,
    use_environment_scripts,
    write_source,
)


def make_root(root: Path, assignment: str, count: int, loop: bool, timeout: int) -> None:
    """A course root holding ``count`` submissions of ``assignment`` (and a looping one)."""
    write_source(root, SOLUTIONS / f"{assignment}.py")
    for name in (CONFIG_NAME, *PLUGINS):
        shutil.copy(COURSE / name, root / name)
    with open(root / CONFIG_NAME, "a") as file:
        file.write(f"\nc.Execute.timeout = {timeout}\n")
    generate(load_config(root / CONFIG_NAME, root), [assignment])
    solution = nbformat.read(root / "source" / assignment / f"{assignment}.ipynb", 4)
    release = nbformat.read(root / "release" / assignment / f"{assignment}.ipynb", 4)
    submissions = {f"s{i:03d}": solution if i % 2 else release for i in range(count)}
    if loop:
        looping = nbformat.from_dict(solution)
        answer = next(c for c in looping.cells if c.metadata.get("nbgrader", {}).get("solution"))
        answer.source = "while True:\n    pass"
        submissions["zz-loop"] = looping
    for student, nb in submissions.items():
        folder = root / "submitted" / student / assignment
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / f"{assignment}.ipynb")


def timed(root: Path, assignment: str, workers: int) -> tuple[float, list]:
    """Seconds to grade every submission again with ``workers`` workers."""
    start = time.perf_counter()
    results = grade_class.grade_class(root, [assignment], workers, force=True,
                                      stream=io.StringIO())
    return time.perf_counter() - start, results


def main() -> None:
    """Print throughput with 1 and ``-j`` workers and the scaling between them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("assignment", nargs="?", default="01_dag")
    parser.add_argument("-n", type=int, default=10, help="submissions (default 10)")
    parser.add_argument("-j", type=int, default=os.cpu_count() or 2, help="workers")
    parser.add_argument("--loop", action="store_true", help="add a submission that loops")
    parser.add_argument("--timeout", type=int, default=10, help="cell timeout, seconds")
    args = parser.parse_args()
    use_environment_scripts()
    with tempfile.TemporaryDirectory(prefix="grade-bench-") as folder:
        root = Path(folder)
        make_root(root, args.assignment, args.n, args.loop, args.timeout)
        cwd = Path.cwd()
        os.chdir(root)
        try:
            grade_class.gate(root, args.assignment)
            grade_class.grade_all(root, [(args.assignment, "s000")], 1,
                                  grade_class.Progress(1, io.StringIO()))  # observations
            rates = {}
            for workers in (1, args.j):
                seconds, results = timed(root, args.assignment, workers)
                rates[workers] = len(results) * 60 / seconds
                statuses = sorted({r.status for r in results})
                print(f"-j {workers}: {len(results)} submissions in {seconds:.1f} s = "
                      f"{rates[workers]:.1f}/min ({', '.join(statuses)})")
        finally:
            os.chdir(cwd)
    print(f"scaling -j {args.j} / -j 1: {rates[args.j] / rates[1]:.2f}x "
          f"(load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
