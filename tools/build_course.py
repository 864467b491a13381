"""Build the student release in course/ from the instructor notebooks in solutions/.

Each `solutions/<id>.py` (jupytext percent format, nbgrader metadata on its `# %%` lines) is
the single source of an assignment. The tool writes it as `source/<id>/<id>.ipynb` into a
throwaway nbgrader course root, runs nbgrader's generate_assignment there with
course/nbgrader_config.py, and copies the release, normalised, to `course/<id>/`.

    python tools/build_course.py                  # regenerate course/ (every assignment)
    python tools/build_course.py 01_dag           # regenerate one assignment
    python tools/build_course.py --check          # exit 1 with a summary if course/ is stale
    python tools/build_course.py --instructor-root ~/autograd-course   # a root to grade in
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shutil
import sys
import sysconfig
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

import jupytext
import nbformat
from nbgrader.apps import NbGraderAPI
from traitlets.config import Config, PyFileConfigLoader

REPO = Path(__file__).resolve().parents[1]
SOLUTIONS = REPO / "solutions"
COURSE = REPO / "course"
CONFIG_NAME = "nbgrader_config.py"
PLUGINS = ("integrity.py",)  # nbgrader plug-ins the config loads from beside it
ASSIGNMENT_ID = re.compile(r"^\d\d_[a-z0-9_]+$")
KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
# Cell metadata jupytext adds to keep the .py layout; meaningless in a notebook.
JUPYTEXT_CELL_KEYS = ("lines_to_next_cell", "lines_to_end_of_cell_marker")
# nbgrader copies data files verbatim: one holding these would leak answers into the release.
LEAKY_MARKERS = (b"BEGIN SOLUTION", b"BEGIN HIDDEN TESTS")

Files = dict[str, bytes]  # path relative to course/ (posix) -> content


class BuildError(Exception):
    """A source that cannot be built, or an nbgrader step that failed."""


def use_environment_scripts() -> None:
    """Put this interpreter's ``bin/`` first on PATH: nbgrader runs ``alembic`` as a program.

    >>> use_environment_scripts(); os.environ["PATH"].startswith(sysconfig.get_path("scripts"))
    True
    """
    scripts = sysconfig.get_path("scripts")
    path = os.environ.get("PATH", "")
    if path.split(os.pathsep)[0] != scripts:
        os.environ["PATH"] = scripts + os.pathsep + path


def find_sources(solutions: Path, ids: Sequence[str] = ()) -> dict[str, Path]:
    """Map assignment ids to their ``<id>.py`` sources: all of them, or the ``ids`` asked for.

    >>> find_sources(Path("/nonexistent"))
    {}
    """
    found = {}
    for path in sorted(solutions.glob("*.py")):
        if not ASSIGNMENT_ID.match(path.stem):
            raise BuildError(f"{path}: not an assignment id like 01_dag (move helpers to a folder)")
        found[path.stem] = path
    unknown = [i for i in ids if i not in found]
    if unknown:
        raise BuildError(f"no {solutions}/<id>.py for: {', '.join(unknown)}")
    return {i: found[i] for i in ids} if ids else found


def read_source(path: Path) -> nbformat.NotebookNode:
    """Read a percent-format source as a notebook with stable cell ids and a python3 kernel.

    A cell's id is the ``id=`` of its ``# %%`` line, else its grade_id, else the last such id
    followed by ``-1``, ``-2``... (``cell-1``... before the first), so ids never change unless
    the source does, and a new cell renames at most the few unnamed cells after it.

    >>> [cell.id for cell in read_source(REPO / "tests/course/fixtures/00_demo.py").cells][:3]
    ['cell-1', 'setup', 'setup-1']
    """
    nb = jupytext.read(path, fmt="py:percent")
    nb.metadata.pop("jupytext", None)
    nb.metadata.setdefault("kernelspec", dict(KERNELSPEC))
    for cell in nb.cells:
        for key in JUPYTEXT_CELL_KEYS:
            cell.metadata.pop(key, None)
    _assign_cell_ids(nb, path)
    nbformat.validate(nb)
    return nb


def _assign_cell_ids(nb: nbformat.NotebookNode, path: Path) -> None:
    anchor, count, seen = "cell", 0, set()
    for cell in nb.cells:
        named = cell.metadata.pop("id", None) or cell.metadata.get("nbgrader", {}).get("grade_id")
        if named:
            anchor, count, cell_id = named, 0, named
        else:
            count += 1
            cell_id = f"{anchor}-{count}"
        if cell_id in seen:
            raise BuildError(f"{path}: two cells get the id {cell_id!r}: add id=... to one")
        seen.add(cell_id)
        cell.id = cell_id


def _data_files(nb: nbformat.NotebookNode, path: Path) -> list[str]:
    """Pop the data files listed in the notebook's ``course: files:`` metadata and check them."""
    names = nb.metadata.pop("course", {}).get("files", [])
    for name in names:
        file = path.parent / name
        if Path(name).is_absolute() or ".." in Path(name).parts or not file.is_file():
            raise BuildError(f"{path}: data file {name!r} is not a file beside it")
        if any(marker in file.read_bytes() for marker in LEAKY_MARKERS):
            raise BuildError(f"{file}: holds solution or hidden-test markers; it would leak")
    return names


def write_source(root: Path, path: Path) -> None:
    """Write ``path`` and its data files into the nbgrader root as ``source/<id>/``."""
    nb = read_source(path)
    names = _data_files(nb, path)
    dest = root / "source" / path.stem
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    nbformat.write(nb, dest / f"{path.stem}.ipynb")
    for name in names:
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path.parent / name, dest / name)


def load_config(config_file: Path, root: Path) -> Config:
    """The nbgrader configuration in ``config_file``, for the course root ``root``."""
    config = PyFileConfigLoader(config_file.name, path=str(config_file.parent)).load_config()
    config.CourseDirectory.root = str(root)
    return config


def generate(config: Config, ids: Sequence[str]) -> None:
    """Run nbgrader's generate_assignment for each id in the root ``config`` names."""
    use_environment_scripts()
    api = NbGraderAPI(config=config)
    for assignment_id in ids:
        result = api.generate_assignment(assignment_id)
        if not result["success"]:
            log = result.get("log", "") + result.get("error", "")
            raise BuildError(f"nbgrader generate_assignment {assignment_id} failed:\n{log}")


def normalise_notebook(text: str) -> bytes:
    """The notebook with no outputs nor execution counts, as sorted JSON ending in a newline.

    >>> normalise_notebook(nbformat.writes(nbformat.v4.new_notebook()))[-2:]
    b'}\\n'
    """
    nb = nbformat.reads(text, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    return (nbformat.writes(nb).rstrip("\n") + "\n").encode()


def release_files(sources: Mapping[str, Path], config_file: Path) -> Files:
    """Generate the release of ``sources`` in a temporary root and return its files."""
    with tempfile.TemporaryDirectory(prefix="course-build-") as tmp:
        root = Path(tmp)
        for path in sources.values():
            write_source(root, path)
        config = load_config(config_file, root)
        config.GenerateAssignment.no_database = True  # the same as --no-db
        config.SaveCells.enabled = False
        generate(config, list(sources))
        release = root / "release"
        files = {}
        for file in sorted(release.rglob("*")):
            if file.is_file():
                data = file.read_bytes()
                if file.suffix == ".ipynb":
                    data = normalise_notebook(data.decode())
                files[file.relative_to(release).as_posix()] = data
        return files


def _generated(file: Path) -> bool:
    """Whether a file under course/<id>/ is the build's (not a checkpoint or a cache)."""
    return not any(part.startswith(".") or part == "__pycache__" for part in file.parts)


def course_files(course: Path, ids: Sequence[str]) -> Files:
    """The generated files now in ``course/<id>/`` for each id."""
    files = {}
    for assignment_id in ids:
        folder = course / assignment_id
        for file in sorted(folder.rglob("*")):
            rel = file.relative_to(course)
            if file.is_file() and _generated(rel):
                files[rel.as_posix()] = file.read_bytes()
    return files


def assignment_folders(course: Path) -> list[str]:
    """The assignment folders in course/ (named like ``01_dag``)."""
    return sorted(p.name for p in course.iterdir() if p.is_dir() and ASSIGNMENT_ID.match(p.name))


def _line_counts(old: bytes, new: bytes) -> str:
    diff = difflib.unified_diff(old.decode(errors="replace").splitlines(),
                                new.decode(errors="replace").splitlines(), lineterm="", n=0)
    lines = [line for line in diff if line[:3] not in ("---", "+++")]
    added = sum(line.startswith("+") for line in lines)
    removed = sum(line.startswith("-") for line in lines)
    return f"+{added} -{removed} lines"


def compare(expected: Files, actual: Files) -> list[str]:
    """One line per file of course/ that differs from what the build would write.

    >>> compare({"a/a.ipynb": b"x\\n"}, {"a/a.ipynb": b"y\\n", "a/old.csv": b""})
    ['stale    course/a/a.ipynb (+1 -1 lines)', 'extra    course/a/old.csv']
    """
    lines = []
    for rel in sorted(expected.keys() | actual.keys()):
        if rel not in actual:
            lines.append(f"missing  course/{rel}")
        elif rel not in expected:
            lines.append(f"extra    course/{rel}")
        elif expected[rel] != actual[rel]:
            lines.append(f"stale    course/{rel} ({_line_counts(actual[rel], expected[rel])})")
    return lines


def write_course(course: Path, expected: Files, ids: Sequence[str], prune: bool) -> None:
    """Make ``course/<id>/`` hold exactly the ``expected`` files; with ``prune``, also remove
    assignment folders whose source is gone."""
    for rel in course_files(course, ids).keys() - expected.keys():
        (course / rel).unlink()
    for rel, data in expected.items():
        (course / rel).parent.mkdir(parents=True, exist_ok=True)
        (course / rel).write_bytes(data)
    if prune:
        for name in set(assignment_folders(course)) - set(ids):
            shutil.rmtree(course / name)


def make_instructor_root(root: Path, sources: Mapping[str, Path], config_file: Path) -> None:
    """Create or refresh an nbgrader course root outside the repository to grade a class in.

    It gets ``source/<id>/`` for each source, the course's nbgrader plug-ins and, if it has
    none yet, the course's nbgrader_config.py; graded work already there (gradebook.db,
    submitted/, ...) is kept.
    """
    root = root.expanduser().resolve()
    if root == REPO or REPO in root.parents:
        raise BuildError(f"{root} is inside the repository: grade a class outside it")
    for path in sources.values():
        write_source(root, path)
    for plugin in PLUGINS:  # code, not settings: always the repository's
        shutil.copyfile(config_file.parent / plugin, root / plugin)
    config = root / CONFIG_NAME
    if not config.exists():
        shutil.copyfile(config_file, config)
    elif config.read_bytes() != config_file.read_bytes():
        print(f"kept your {config}; it differs from {config_file}")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("assignments", nargs="*", metavar="ASSIGNMENT",
                        help="assignment ids such as 01_dag (default: every solutions/*.py)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true",
                      help="write nothing; exit 1 and list the files if course/ is stale")
    mode.add_argument("--instructor-root", type=Path, metavar="DIR",
                      help="create or refresh an nbgrader course root in DIR to grade a class")
    parser.add_argument("--solutions", type=Path, default=SOLUTIONS, help=argparse.SUPPRESS)
    parser.add_argument("--course", type=Path, default=COURSE, help=argparse.SUPPRESS)
    return parser


def _run(args: argparse.Namespace) -> int:
    sources = find_sources(args.solutions, args.assignments)
    config_file = args.course / CONFIG_NAME
    if args.instructor_root:
        make_instructor_root(args.instructor_root, sources, config_file)
        print(f"{args.instructor_root}: source/ holds {', '.join(sources) or 'no assignment'}; "
              "cd there and run nbgrader (see course/README.md)")
        return 0
    expected = release_files(sources, config_file) if sources else {}
    everything = not args.assignments
    actual = course_files(args.course, list(sources))
    if everything:
        actual.update(course_files(args.course, assignment_folders(args.course)))
    if args.check:
        stale = compare(expected, actual)
        print("\n".join(stale) if stale else "course/ is up to date")
        if stale:
            print("course/ is stale: run `python tools/build_course.py`", file=sys.stderr)
        return 1 if stale else 0
    write_course(args.course, expected, list(sources), prune=everything)
    print(f"built {', '.join(sources) or 'nothing (no assignment sources)'} into {args.course}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point; returns the exit status (2 when the build fails)."""
    try:
        return _run(_parser().parse_args(argv))
    except BuildError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
