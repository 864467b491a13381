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


def timed(root: Path, assignment: str, workers: int) -> tuple[float, list, dict]:
    """Seconds to grade every submission again with ``workers`` workers, the results, and
    the wall seconds of each phase."""
    phases = grade_class.Phases()
    start = time.perf_counter()
    results = grade_class.grade_class(root, [assignment], workers, force=True,
                                      stream=io.StringIO(), phases=phases)
    return time.perf_counter() - start, results, phases


def report(workers: int, seconds: float, results: list, phases: dict) -> float:
    """Print one run's throughput, its phases and its CPU per submission; the rate."""
    rate = len(results) * 60 / seconds
    statuses = sorted({r.status for r in results})
    cpu = sum(r.cpu for r in results) / len(results)
    print(f"-j {workers}: {len(results)} submissions in {seconds:.1f} s = {rate:.1f}/min "
          f"({', '.join(statuses)}); CPU per submission {cpu:.2f} s "
          f"(nbgrader's processes and the kernel), wall per submission "
          f"{sum(r.seconds for r in results) / len(results):.2f} s")
    serial = seconds - phases.get("parallel grading", 0.0)
    print("    serial: " + ", ".join(f"{name} {t:.2f} s" for name, t in phases.items()
                                     if name != "parallel grading")
          + f"; {serial:.2f} s in all = {100 * serial / seconds:.1f}% of the run")
    return rate


def main() -> None:
    """Print throughput with 1 and ``-j`` workers, the serial phases, and the scaling."""
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
            rates = {workers: report(workers, *timed(root, args.assignment, workers))
                     for workers in (1, args.j)}
        finally:
            os.chdir(cwd)
    print(f"scaling -j {args.j} / -j 1: {rates[args.j] / rates[1]:.2f}x "
          f"(load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
