"""``start`` (set up and open JupyterLab) and ``check`` (progress table), standard library only.

``start`` creates ``.venv`` beside ``course/`` with Python's own ``venv`` module, installs this
folder into it with pip (again only when the bundle changed) and runs JupyterLab on
``course/``. ``check`` runs ``autograd_course.progress`` with that environment's Python.
With ``--here`` both use the Python that runs them instead (a conda environment, say).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import venv
from collections.abc import Sequence
from pathlib import Path

MIN_PYTHON = (3, 10)
STAMP = ".autograd-course-installed"  # in the environment: what was installed, as a hash


def bundle_root() -> Path:
    """The unzipped folder: the one holding ``course/`` beside this package, or the current one.

    >>> (bundle_root() / "course").is_dir() or bundle_root() == Path.cwd()
    True
    """
    for folder in (Path(__file__).resolve().parents[1], Path.cwd()):
        if (folder / "course").is_dir() and (folder / "pyproject.toml").is_file():
            return folder
    return Path.cwd()


def venv_python(env: Path) -> Path:
    """The Python executable of the virtual environment ``env`` on this OS.

    >>> venv_python(Path("v")).name in ("python", "python.exe")
    True
    """
    if os.name == "nt":
        return env / "Scripts" / "python.exe"
    return env / "bin" / "python"


def fingerprint(root: Path) -> str:
    """A hash of what ``pip install`` puts in the environment: the bundle's pyproject.toml
    and minitorch's sources, so that a new bundle reinstalls and nothing else does."""
    digest = hashlib.sha256((root / "pyproject.toml").read_bytes())
    for source in sorted((root / "minitorch").rglob("*.py")):
        digest.update(source.relative_to(root).as_posix().encode() + source.read_bytes())
    return digest.hexdigest()[:16]


def environment(root: Path, here: bool) -> Path:
    """The Python of the course's environment, created and filled first when needed."""
    if here:
        python, prefix = Path(sys.executable), Path(sys.prefix)
    else:
        prefix = root / ".venv"
        python = venv_python(prefix)
        if not python.exists():
            print(f"Creating a virtual environment in {prefix} ...", flush=True)
            venv.create(prefix, with_pip=True)
    stamp = prefix / STAMP
    wanted = fingerprint(root)
    if not stamp.exists() or stamp.read_text().strip() != wanted:
        print("Installing the course and its dependencies into it (the first time takes a few "
              "minutes) ...", flush=True)
        pip = [str(python), "-m", "pip", "install", "--disable-pip-version-check", str(root)]
        if subprocess.call(pip) != 0:
            raise SetupError("pip could not install the course (its message is above); check "
                             "your internet connection, then run the same command again.")
        stamp.write_text(wanted + "\n")
    return python


class SetupError(RuntimeError):
    """The environment could not be set up; the message says what to do."""


def start(root: Path, here: bool, setup_only: bool, lab_args: Sequence[str]) -> int:
    """Set up the environment, then run JupyterLab on ``course/`` until Ctrl-C."""
    try:
        python = environment(root, here)
    except SetupError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    if setup_only:
        print("Ready: `python -m autograd_course start` opens the course.")
        return 0
    as_root = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    print("Starting JupyterLab on course/ (it opens in your browser; if not, open the "
          "http://localhost:...?token=... address it prints). Ctrl-C stops it.", flush=True)
    try:
        return subprocess.call([str(python), "-m", "jupyterlab",
                                f"--ServerApp.root_dir={root / 'course'}", *as_root, *lab_args])
    except KeyboardInterrupt:
        return 0


def check(root: Path, here: bool, chapters: Sequence[str]) -> int:
    """Run ``progress`` with the course's Python (it needs nbclient)."""
    python = Path(sys.executable) if here else venv_python(root / ".venv")
    if not here and not (root / ".venv" / STAMP).exists():
        print("error: the course is not set up here yet: run `python -m autograd_course start` "
              "first (in this folder).", file=sys.stderr)
        return 2
    command = [str(python), "-m", "autograd_course.progress", "--root", str(root), *chapters]
    return subprocess.call(command, cwd=root)


def parser() -> argparse.ArgumentParser:
    """The command line: ``start`` and ``check``."""
    p = argparse.ArgumentParser(prog="python -m autograd_course",
                                description="The autograd course: set up and open it, or check "
                                            "your answers.")
    commands = p.add_subparsers(dest="command", required=True)
    s = commands.add_parser("start", help="set up .venv (first time) and open JupyterLab")
    s.add_argument("--setup-only", action="store_true", help="set up, don't open JupyterLab")
    c = commands.add_parser("check", help="run the visible tests of every chapter and print "
                                          "your progress; exit 1 unless all pass")
    c.add_argument("chapters", nargs="*", help="only these chapters (e.g. 01_dag)")
    for sub in (s, c):
        sub.add_argument("--here", action="store_true",
                         help="use the Python that runs this command (e.g. a conda "
                              "environment) instead of .venv")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m autograd_course``; JupyterLab options after ``start`` pass
    through (``--no-browser``, ``--port=8900``)."""
    if sys.version_info < MIN_PYTHON:
        print(f"error: the course needs Python >= 3.10; this is {sys.version.split()[0]}. "
              "Install a newer Python (python.org) and run the command with it.",
              file=sys.stderr)
        return 2
    args, rest = parser().parse_known_args(argv)
    root = bundle_root()
    if args.command == "start":
        return start(root, args.here, args.setup_only, rest)
    if rest:
        parser().error(f"unrecognized arguments: {' '.join(rest)}")
    return check(root, args.here, args.chapters)
