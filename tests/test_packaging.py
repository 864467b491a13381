"""Packaging checks: pyproject.toml, environment.yml, the built wheel and the CI entry point."""

import email.parser
import re
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

import minitorch

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]

# conda-forge names whose pip package is called differently; None: not a pip package at all.
CONDA_TO_PIP = {
    "python": None,
    "pip": None,
    "graphviz": None,  # the dot program; its Python bindings are python-graphviz
    "python-graphviz": "graphviz",
    "playwright-python": "playwright",
}
ENV_PYTHON = {"python_version": "3.11", "python_full_version": "3.11.0"}


def _spec(requirement: Requirement) -> tuple[str, str]:
    return canonicalize_name(requirement.name), str(requirement.specifier)


def _applies(requirement: Requirement) -> bool:
    """Whether a requirement is wanted in environment.yml's Python (3.11)."""
    marker = requirement.marker
    return marker is None or marker.evaluate({**ENV_PYTHON, "extra": ""})


def _conda_requirements() -> set[tuple[str, str]]:
    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    specs = set()
    for dep in env["dependencies"]:
        if isinstance(dep, dict):
            specs |= {_spec(Requirement(line)) for line in dep["pip"] if line != "-e ."}
            continue
        name = re.split(r"[=<>! ]", dep, maxsplit=1)[0]
        pip_name = CONDA_TO_PIP.get(name, name)
        if pip_name is not None:
            specs.add(_spec(Requirement(pip_name + dep[len(name) :])))
    return specs


def _pyproject_requirements(extras: list[str]) -> set[tuple[str, str]]:
    optional = PROJECT["optional-dependencies"]
    lines = PROJECT["dependencies"] + [line for extra in extras for line in optional[extra]]
    return {_spec(r) for r in map(Requirement, lines) if _applies(r)}


def test_environment_yml_matches_extras():
    assert _conda_requirements() == _pyproject_requirements(["test", "viz", "course"])


def test_environment_yml_has_the_dot_program_and_python_3_11():
    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    assert env["channels"] == ["conda-forge"]
    conda_specs = {dep for dep in env["dependencies"] if isinstance(dep, str)}
    assert {"graphviz", "python-graphviz", "python=3.11"} <= conda_specs


def test_numpy_is_the_only_runtime_dependency():
    assert [Requirement(r).name for r in PROJECT["dependencies"]] == ["numpy"]


def test_version_is_dynamic_and_read_from_the_package():
    assert "version" in PROJECT["dynamic"]
    assert "version" not in PROJECT
    assert PYPROJECT["tool"]["hatch"]["version"]["path"] == "minitorch/__init__.py"
    assert isinstance(minitorch.__version__, str)
    Version(minitorch.__version__)  # raises InvalidVersion unless PEP 440


def test_ci_runs_the_readme_test_command():
    ci_commands = [
        line
        for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
        if line and not line.startswith(("#", "set ", "cd "))
    ]
    assert ci_commands == ["make test"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make test" in readme
    assert "make course" in readme


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[zipfile.ZipFile]:
    out = tmp_path_factory.mktemp("wheel")
    pip_wheel = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
    subprocess.run([*pip_wheel, str(ROOT), "-w", str(out)], check=True)
    (path,) = out.glob("minitorch-*.whl")
    with zipfile.ZipFile(path) as archive:
        yield archive


def test_wheel_holds_only_the_package(wheel: zipfile.ZipFile):
    names = wheel.namelist()
    assert "minitorch/__init__.py" in names
    assert "minitorch/py.typed" in names
    top_level = {name.split("/")[0] for name in names}
    assert top_level == {"minitorch", f"minitorch-{minitorch.__version__}.dist-info"}
    assert not [name for name in names if "__pycache__" in name]


def test_wheel_metadata(wheel: zipfile.ZipFile):
    dist_info = f"minitorch-{minitorch.__version__}.dist-info"
    metadata = email.parser.Parser().parsestr(wheel.read(f"{dist_info}/METADATA").decode())
    assert metadata["Name"] == "minitorch"
    assert metadata["Version"] == minitorch.__version__
    assert metadata["License-Expression"] == "MIT"
    runtime = [r for r in map(Requirement, metadata.get_all("Requires-Dist")) if r.marker is None]
    assert [r.name for r in runtime] == ["numpy"]
    assert f"{dist_info}/licenses/LICENSE" in wheel.namelist()
