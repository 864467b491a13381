"""Feedback that teaches (issue #17): what a student reads after autograding.

The scrubber (course/integrity.py, ``HideHiddenTests``) is run here on tracebacks that a real
kernel printed, for test cells longer than nine lines (IPython's arrow is ``---->`` up to line
9, ``--->`` after): the hidden lines are told apart by the frame's cell and line number, the
student's own lines stay, and the generic hidden-check line appears only when nothing else
explains the failure.
"""

from __future__ import annotations

import re

import nbformat
import pytest
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_notebook, new_output

from course.integrity import (
    GRADING_COPY_NOTE,
    HIDDEN_FAILURE,
    MISMATCH,
    UNDEFINED,
    HideHiddenTests,
    _hidden_region,
    _quotes,
    mismatch,
    observations,
)
from minitorch.course import expectation

BEGIN, END = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
PADDING = "".join(f"pad{i} = {i}\n" for i in range(9))  # puts the checks past line 9
STUDENT = """\
def stub(x):
    raise NotImplementedError()


def pairs(node):
    for next_node, _ in node:
        yield next_node


def fails_inside(x):
    raise ValueError(f"the student's own error for {x}")
"""
TESTS = {
    # a visible line fails; the same text also sits in the hidden block
    "visible": f"{PADDING}assert list(pairs([(1, 0)])) == [2]\n{BEGIN}\n"
               f"assert list(pairs([(1, 0)])) == [2]\nsecret_input_one = [9, 9, 9]\n{END}\n",
    # a bare hidden assert fails
    "bare_hidden": f"{PADDING}assert pad1 == 1\n{BEGIN}\nsecret_input_two = [7, 7]\n"
                   f"assert sum(secret_input_two) == 15\n{END}\n",
    # a hidden expect fails (the grader's verdict): its message was written for the student
    "hidden_check": f"{PADDING}from minitorch.course import expect\n{BEGIN}\n"
                    f"secret_input_three = [4, 5]\n"
                    f"expect('the sum of a hidden list', sum(secret_input_three), "
                    f"hint='add them all')\n{END}\n",
    # a hidden line calls the student's function, which raises in the student's cell
    "student_raises": f"{PADDING}pass\n{BEGIN}\nsecret_input_four = 3\n"
                      f"fails_inside(secret_input_four)\n{END}\n",
    # the stub is called
    "stub": f"{PADDING}stub(1)\n{BEGIN}\nstub(2)\n{END}\n",
    # an exercise's cell never ran to its end
    "undefined": f"{PADDING}never_defined(1)\n{BEGIN}\npass\n{END}\n",
}


SOLUTION = {"hidden_check": [[expectation("the sum of a hidden list", 10, "add them all")]]}


@pytest.fixture(scope="module")
def feedback() -> dict[str, str]:
    """The text of each test cell's error outputs, after the scrubber."""
    cells = [new_code_cell(STUDENT)]
    for grade_id, source in {**TESTS, "passes": f"{PADDING}pass\n"}.items():
        cell = new_code_cell(source)
        cell.metadata.nbgrader = {"grade": True, "solution": False, "locked": True,
                                  "grade_id": grade_id, "points": 1, "schema_version": 3}
        cells.append(cell)
    nb = new_notebook(cells=cells)
    NotebookClient(nb, allow_errors=True, timeout=60).execute()
    for cell in nb.cells[1:]:  # what GuardedExecute adds: the solution sent SOLUTION's
        expected = SOLUTION.get(cell.metadata.nbgrader.grade_id, [[1.0]])
        verdict = mismatch(observations(cell), expected) if observations(cell) else MISMATCH
        cell.outputs.append(new_output("error", ename="HiddenCheckFailed", evalue=verdict,
                                       traceback=[verdict]))
    nb, _ = HideHiddenTests().preprocess(nbformat.from_dict(nb), {})
    return {cell.metadata.nbgrader.grade_id: _text(cell) for cell in nb.cells[1:]}


def _text(cell: nbformat.NotebookNode) -> str:
    plain = re.compile(r"\x1b\[[0-9;]*m")
    return "\n".join(plain.sub("", line) for output in cell.outputs
                     if output.output_type == "error" for line in output.traceback)


def test_hidden_code_never_reaches_the_student(feedback: dict[str, str]) -> None:
    for grade_id, text in feedback.items():
        assert "secret_input" not in text and BEGIN not in text, (grade_id, text)


def test_a_visible_failure_is_shown_as_it_is(feedback: dict[str, str]) -> None:
    text = feedback["visible"]
    assert "---> 10 assert list(pairs([(1, 0)])) == [2]" in text
    assert HIDDEN_FAILURE not in text and "a hidden test" not in text


def test_a_bare_hidden_assert_reads_hidden_failure(feedback: dict[str, str]) -> None:
    text = feedback["bare_hidden"]
    assert HIDDEN_FAILURE in text and "a hidden test of this cell" in text
    assert "assert pad1 == 1" in text  # the visible lines around it stay


def test_a_hidden_check_keeps_its_message(feedback: dict[str, str]) -> None:
    text = feedback["hidden_check"]
    assert "the sum of a hidden list (a hidden test)" in text
    assert "first difference: expected 10, got 9" in text and "hint: add them all" in text
    assert HIDDEN_FAILURE not in text and "secret_input" not in text


def test_the_students_own_lines_stay(feedback: dict[str, str]) -> None:
    text = feedback["student_raises"]
    assert 'raise ValueError(f"the student\'s own error for {x}")' in text
    assert "ValueError: the student's own error for 3" in text
    assert HIDDEN_FAILURE not in text


def test_a_stub_reads_not_answered_yet(feedback: dict[str, str]) -> None:
    text = feedback["stub"]
    assert "Not answered yet: stub still raises the release's NotImplementedError" in text
    assert MISMATCH not in text


def test_the_generic_line_only_when_nothing_else_explains(feedback: dict[str, str]) -> None:
    assert feedback["passes"] == MISMATCH
    assert all(MISMATCH not in text for grade_id, text in feedback.items() if grade_id != "passes")




def test_an_undefined_name_says_which_cell_to_run(feedback: dict[str, str]) -> None:
    assert f"NameError: name 'never_defined' is not defined. {UNDEFINED}" in feedback["undefined"]


def test_a_message_that_mentions_a_hidden_line_is_no_quote() -> None:
    region = _hidden_region(f"pass\n{BEGIN}\n@set_grad_enabled(False)\n{END}\n", BEGIN, END)
    assert not _quotes("grad mode right after decorating with @set_grad_enabled(False)", region)
    assert _quotes("the cell's source:\n    @set_grad_enabled(False)\n", region)


def test_a_demo_stopped_by_the_grading_copy_reads_as_a_note_not_a_mistake() -> None:
    """A demo cell that runs a piece the grading copy leaves out gets a one-line note; a graded
    cell keeps the error (there it means the student's answer handed its work to minitorch)."""
    stopped = new_output("error", ename="SwitchedOff", evalue="minitorch's engine.discover is "
                         "not in the grading copy: write your own", traceback=["SwitchedOff"])
    demo = new_code_cell("draw(y)", outputs=[stopped])
    graded = new_code_cell("check(...)", outputs=[stopped], metadata={"nbgrader": {
        "grade": True, "solution": False, "locked": True, "grade_id": "t", "points": 1,
        "schema_version": 3}})
    nb, _ = HideHiddenTests().preprocess(new_notebook(cells=[demo, graded]), {})
    assert [(o.output_type, o.get("text")) for o in nb.cells[0].outputs] == [
        ("stream", GRADING_COPY_NOTE)]
    assert [o.ename for o in nb.cells[1].outputs] == ["SwitchedOff"]
