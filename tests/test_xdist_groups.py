"""Which tests share an xdist worker (the repository's conftest.py): a course test module's
course roots are built once, on the one worker that runs all of its tests (pytest 9 drops
xdist's own ``xdist_group`` marks, and each test went wherever a worker was free: the
wrong-answer corpus was graded on both workers)."""

from pathlib import Path
from types import ModuleType

import pytest
from xdist.remote import Producer

WRONG = "tests/course/test_wrong_answers.py"


@pytest.fixture
def conftest(pytestconfig: pytest.Config) -> ModuleType:
    """The repository's conftest.py as pytest loaded it (no importable module: the course's
    conftest.py is named "conftest" too)."""
    path = str(Path(pytestconfig.rootpath, "conftest.py"))
    (found,) = [plugin for plugin in pytestconfig.pluginmanager.get_plugins()
                if getattr(plugin, "__file__", None) == path]
    return found


@pytest.mark.parametrize("nodeid", [
    "tests/course/test_integrity.py::test_a_class_of_twenty_in_one_autograde_run",
    "tests/course/test_05_inplace.py::test_a_wrong_check_loses_points[at_get-cells0]",
    "tests/course/grading.py::tests.course.grading.edit_cells",
])
def test_a_course_module_runs_on_one_worker(conftest: ModuleType, nodeid: str) -> None:
    assert conftest.xdist_group(nodeid) == nodeid.split("::")[0]


def test_the_wrong_answer_corpus_runs_on_one_worker_per_chapter(conftest: ModuleType) -> None:
    groups = {conftest.xdist_group(f"{WRONG}::{test}") for test in (
        "test_the_corpus_has_five_wrong_answers_per_exercise[06_gradcheck]",
        "test_the_solution_keeps_full_marks_and_the_release_scores_zero[06_gradcheck]",
        "test_a_wrong_answer_loses_points_on_its_exercise_only[06_gradcheck-my_hessian-x]")}
    assert groups == {f"{WRONG}[06_gradcheck]"}
    assert conftest.xdist_group(f"{WRONG}::test_a[01_dag-trace-y]") == f"{WRONG}[01_dag]"


@pytest.mark.parametrize("nodeid", [
    "tests/course/test_course_chapters.py::test_release_is_up_to_date[01_dag]",
    "tests/test_ops_oracle.py::test_unary[exp]",
    "minitorch/_tensor.py::minitorch._tensor.Tensor.add",
])
def test_other_tests_go_wherever_a_worker_is_free(conftest: ModuleType, nodeid: str) -> None:
    assert conftest.xdist_group(nodeid) is None


def test_loadgroup_schedules_by_these_groups(conftest: ModuleType, pytestconfig: pytest.Config,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pytestconfig.option, "dist", "loadgroup")
    monkeypatch.setattr(pytestconfig.option, "tx", ["2*popen"])  # what -n 2 sets
    scheduler = conftest.pytest_xdist_make_scheduler(pytestconfig, Producer("t", enabled=False))
    assert scheduler._split_scope(f"{WRONG}::test_a[07_profiler-table-x]") == \
        f"{WRONG}[07_profiler]"
    assert scheduler._split_scope("tests/test_ops_oracle.py::test_unary[exp]") == \
        "tests/test_ops_oracle.py::test_unary[exp]"
    monkeypatch.setattr(pytestconfig.option, "dist", "load")
    assert conftest.pytest_xdist_make_scheduler(pytestconfig, None) is None
