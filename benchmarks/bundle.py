"""What the student bundle costs a student: set-up time, installed size, and check times.

Builds the bundle, unzips it into a temporary folder outside the repository and follows its
README with no `dot` on PATH: `python -m autograd_course start --setup-only` (venv + pip, with
pip configured as on this machine: its cache makes later runs faster than a student's first),
then `check` on the untouched notebooks. Not a timed test: read the numbers against a
laptop's patience (set-up in minutes, check well under one).

    python benchmarks/bundle.py            # set-up, size, one check
    python benchmarks/bundle.py --keep     # leave the unzipped folder and print where
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tools import student_bundle  # noqa: E402


def size_mb(folder: Path) -> float:
    """Bytes of every file under ``folder``, in MB (10**6)."""
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) / 1e6


def timed(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, int]:
    """Wall-clock seconds and exit status of ``command``."""
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        print(done.stdout[-2000:], done.stderr[-2000:], file=sys.stderr)
    return time.perf_counter() - start, done.returncode


def main() -> int:
    """Measure and print one row per step."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="keep the unzipped bundle")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bundle-bench-"))
    zip_path = work / "autograd-course.zip"
    student_bundle.build_bundle(zip_path)
    with zipfile.ZipFile(zip_path) as bundle:
        bundle.extractall(work)
    folder = work / "autograd-course"
    (work / "bin").mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))}
    env["PATH"] = str(work / "bin")  # no dot, make or git
    command = [sys.executable, "-m", "autograd_course"]
    rows = [("bundle zip", f"{zip_path.stat().st_size / 1e6:.2f} MB", "")]
    seconds, status = timed([*command, "start", "--setup-only"], folder, env)
    rows.append(("set-up (venv + pip install)", f"{seconds:.0f} s", f"exit {status}"))
    rows.append(("installed (.venv)", f"{size_mb(folder / '.venv'):.0f} MB", ""))
    seconds, status = timed([*command, "start", "--setup-only"], folder, env)
    rows.append(("set-up again (nothing to do)", f"{seconds:.1f} s", f"exit {status}"))
    seconds, status = timed([*command, "check"], folder, env)
    rows.append(("check, 7 untouched chapters", f"{seconds:.0f} s", f"exit {status} (1 expected)"))
    for name, value, note in rows:
        print(f"{name:<32} {value:>10}  {note}")
    if args.keep:
        print(f"kept: {folder}")
    else:
        shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
