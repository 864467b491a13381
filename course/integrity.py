"""nbgrader plug-ins that keep grading honest; course/nbgrader_config.py loads them.

``HideHiddenTests`` runs in ``nbgrader generate_feedback``: the autograded notebook holds the
hidden tests again (autograde puts them back to run them), and the feedback HTML students get
is made from it. This preprocessor removes the hidden-test region from every test cell and
every output line that quotes it; an error raised by a hidden line becomes one line saying
that a hidden test failed.
"""

from __future__ import annotations

import re
from typing import Any

from nbformat import NotebookNode
from nbformat.v4 import new_output
from nbgrader.preprocessors import ClearHiddenTests

ANSI = re.compile(r"\x1b\[[0-9;]*m")
HIDDEN_FAILURE = "A hidden test failed. Hidden tests are not shown; the visible ones are above."


class HideHiddenTests(ClearHiddenTests):
    """Strip hidden tests, and outputs that quote them, from the notebook feedback is made of."""

    def preprocess_cell(
        self, cell: NotebookNode, resources: dict[str, Any], cell_index: int
    ) -> tuple[NotebookNode, dict[str, Any]]:
        hidden = _hidden_lines(cell.source, self.begin_test_delimeter, self.end_test_delimeter)
        cell, resources = super().preprocess_cell(cell, resources, cell_index)
        if hidden and cell.cell_type == "code":
            cell.outputs = [_scrub(output, hidden) for output in cell.get("outputs", [])]
        return cell, resources


def _hidden_lines(source: str, begin: str, end: str) -> list[str]:
    """The hidden region's lines, its delimiters included (a traceback's context shows them)."""
    lines, inside = [], False
    for line in source.splitlines():
        if begin in line or end in line:
            inside = begin in line
            lines.append(line.strip())
        elif inside and line.strip():
            lines.append(line.strip())
    return lines


def _quotes(text: str, hidden: list[str]) -> bool:
    plain = ANSI.sub("", text)
    return any(line in plain for line in hidden)


def _scrub(output: NotebookNode, hidden: list[str]) -> NotebookNode:
    """The output without the lines that quote hidden tests; an error raised by a hidden line
    (the traceback's arrow points at it, or its message quotes it) becomes HIDDEN_FAILURE."""
    if output.output_type == "error":
        lines = [line for entry in output.traceback for line in entry.splitlines()]
        culprit = [line for line in lines if "---->" in ANSI.sub("", line)]
        if _quotes(output.evalue, hidden) or any(_quotes(line, hidden) for line in culprit):
            return new_output("error", ename=output.ename, evalue=HIDDEN_FAILURE,
                              traceback=[HIDDEN_FAILURE])
        output.traceback = [line for line in lines if not _quotes(line, hidden)]
    elif output.output_type == "stream":
        output.text = "".join(line for line in output.text.splitlines(keepends=True)
                              if not _quotes(line, hidden))
    return output
