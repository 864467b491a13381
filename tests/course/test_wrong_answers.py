"""A corpus of wrong answers, written from each topic's misconceptions (issue #17; the list
of misconceptions per exercise is in solutions/README.md, "Misconceptions").

Each wrong answer is the solution notebook with one answer cell changed, so that it is the
only mistake of its submission. Every submission of a chapter (and the solution, and the
untouched release) is autograded in one nbgrader run and its feedback generated in another;
then, for each wrong answer:

- it loses points on its own exercise and on no other;
- the feedback of its exercise's failing cells says what was expected and what the code gave
  (or names the mistake), and never shows hidden test code.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from html import unescape

import nbformat
import pytest
from grading import CourseRoot, Grades, edit_cells

from course.integrity import HideHiddenTests
from tools.build_course import SOLUTIONS, read_source

pytestmark = [
    pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning"),
    pytest.mark.filterwarnings("ignore::nbformat.validator.MissingIDFieldWarning"),
]

# A change is (old, new): replace the one occurrence of old in the solution's answer cell.
Change = tuple[str, str]

GRAD_MODES: dict[str, Change] = {
    "the mode is one global flag, not one per thread": (
        "class GradState(threading.local):", "class GradState:"),
    "the mode is not restored when the block raises": (
        "    def __exit__(self, *exc_info):\n        grad_state.grad_enabled = self.saved",
        "    def __exit__(self, *exc_info):\n"
        "        if exc_info[0] is None:\n            grad_state.grad_enabled = self.saved"),
    "exit turns grad mode on instead of restoring what it found": (
        "    def __exit__(self, *exc_info):\n        grad_state.grad_enabled = self.saved",
        "    def __exit__(self, *exc_info):\n        grad_state.grad_enabled = True"),
    "no_grad flips the mode instead of setting it": (
        "    def __enter__(self):\n        self.saved = grad_state.grad_enabled\n"
        "        grad_state.grad_enabled = self.mode",
        "    def __enter__(self):\n        self.saved = grad_state.grad_enabled\n"
        "        grad_state.grad_enabled = self.mode if self.mode else not self.saved"),
    "the decorator reads the mode to restore when it decorates": (
        "        mode = self.mode\n\n        def run_in_mode(*args, **kwargs):\n"
        "            saved = grad_state.grad_enabled\n",
        "        mode = self.mode\n        saved = grad_state.grad_enabled\n\n"
        "        def run_in_mode(*args, **kwargs):\n"),
    "the decorator reuses its one instance, so a recursive call overwrites what to restore": (
        "            saved = grad_state.grad_enabled\n            grad_state.grad_enabled = mode\n"
        "            try:\n                return func(*args, **kwargs)\n            finally:\n"
        "                grad_state.grad_enabled = saved\n",
        "            with self:\n                return func(*args, **kwargs)\n"),
    "set_grad_enabled used as a decorator switches the mode when it decorates": (
        "        grad_state.grad_enabled = self.saved  # decorating must not switch\n", ""),
    "the mode is set on the class, so every thread shares it": (
        "    def __enter__(self):\n        self.saved = grad_state.grad_enabled\n"
        "        grad_state.grad_enabled = self.mode\n",
        "    def __enter__(self):\n        self.saved = grad_state.grad_enabled\n"
        "        GradState.grad_enabled = self.mode\n"
        "        grad_state.__dict__.pop('grad_enabled', None)\n"),
}
FREEZE: dict[str, Change] = {
    "freezing zeroes the gradients instead of turning requires_grad off": (
        "            p.requires_grad_(False)", "            p.grad = minitorch.zeros_like(p)"),
    '"1" also freezes "10": a prefix test without the dot': (
        'pname == name or pname.startswith(name + ".")', "pname.startswith(name)"),
    "it returns the frozen names, not those that still train": (
        "if p.requires_grad]", "if not p.requires_grad]"),
    "only the direct parameters of a named submodule are frozen": (
        'pname == name or pname.startswith(name + ".")',
        'pname == name or pname.rpartition(".")[0] == name'),
    "eval() is taken to freeze a module": (
        "            p.requires_grad_(False)", "            model.eval()"),
    "the parameters are detached, which leaves them training": (
        "            p.requires_grad_(False)", "            p.detach()"),
}


def _prediction(key: str, wrong: bool) -> Change:
    return f'"{key}": {not wrong},', f'"{key}": {wrong},'


PREDICTIONS: dict[str, Change] = {
    "eval() turns grad mode off (row k)": _prediction("k", False),
    "a new thread inherits no_grad (row j)": _prediction("j", False),
    "inference_mode(False) leaves the mode alone (row i)": _prediction("i", False),
    "a tensor made under no_grad poisons later operations (row d)": _prediction("d", False),
    "a frozen model's output never requires grad (row m)": _prediction("m", False),
    "no_grad forbids a new leaf from requiring grad (row n)": _prediction("n", False),
    "detach() keeps requires_grad (row e)": _prediction("e", True),
}

PROFILER_STACK: dict[str, Change] = {
    "the parent is the previous event, not the innermost open one": (
        "parent = self._open[-1] if self._open else None",
        "parent = len(self.events) - 1 if self.events else None"),
    "the parent is the depth of the stack, not an index": (
        "parent = self._open[-1] if self._open else None",
        "parent = len(self._open) - 1 if self._open else None"),
    "exit closes the outermost open event": (
        "self.events[self._open.pop()].end", "self.events[self._open.pop(0)].end"),
    "exit closes the last event entered, open or not": (
        "self.events[self._open.pop()].end = self.clock()",
        "self._open.pop()\n        self.events[-1].end = self.clock()"),
    "record() does not exit when the block raises": (
        "        try:\n            yield\n        finally:\n            self.exit()",
        "        yield\n        self.exit()"),
    "record() swallows the exception": (
        "        try:\n            yield\n        finally:\n            self.exit()",
        "        try:\n            yield\n        except Exception:\n            pass\n"
        "        self.exit()"),
}
SELF_TIME: dict[str, Change] = {
    "the children are not subtracted": ("            result[e.parent] -= e.end - e.start\n",
                                        "            pass\n"),
    "every descendant is subtracted, grandchildren twice": (
        "        if e.parent is not None:\n            result[e.parent] -= e.end - e.start\n",
        "        ancestor = e.parent\n        while ancestor is not None:\n"
        "            result[ancestor] -= e.end - e.start\n"
        "            ancestor = events[ancestor].parent\n"),
    "the children's self times are subtracted instead of their totals": (
        "    for e in events:\n        if e.parent is not None:\n"
        "            result[e.parent] -= e.end - e.start\n",
        "    for i in reversed(range(len(events))):\n        if events[i].parent is not None:\n"
        "            result[events[i].parent] -= result[i]\n"),
    "the parent is taken to be the previous event": (
        "            result[e.parent] -= e.end - e.start\n",
        "            result[events.index(e) - 1] -= e.end - e.start\n"),
    "only the first child is subtracted": (
        "    for e in events:\n        if e.parent is not None:\n"
        "            result[e.parent] -= e.end - e.start\n",
        "    done = set()\n    for e in events:\n"
        "        if e.parent is not None and e.parent not in done:\n"
        "            done.add(e.parent)\n            result[e.parent] -= e.end - e.start\n"),
}
KEY_AVERAGES: dict[str, Change] = {
    "one row per name and parent": (
        "groups.get(event.name, (0, 0, 0))\n        groups[event.name] =",
        "groups.get((event.name, event.parent), (0, 0, 0))\n"
        "        groups[(event.name, event.parent)] ="),
    "averages per call instead of sums": (
        "return [Average(name, *sums) for name, sums in groups.items()]",
        "return [Average(name, c, s / c, t / c) for name, (c, s, t) in groups.items()]"),
    "the rows are sorted by name": (
        "for name, sums in groups.items()]", "for name, sums in sorted(groups.items())]"),
    "only the last event of a name is kept": (
        "(count + 1, self_total + self_time,\n                              total + ",
        "(1, self_time,\n                              "),
    "the total is the sum of the self times": (
        "total + event.end - event.start)", "total + self_time)"),
    "the count is a float": ("(count + 1, self_total", "(count + 1.0, self_total"),
}
TABLE: dict[str, Change] = {
    "percentages of the sum of the total times": (
        "everything = sum(a.self_total for a in averages)",
        "everything = sum(a.total for a in averages)"),
    "percentages and the total count only the rows row_limit keeps": (
        "everything = sum(a.self_total for a in averages)",
        "everything = sum(a.self_total for a in rows)"),
    "the rows are not sorted": (
        "rows = sorted(averages, key=keys[sort_by], reverse=True)[:row_limit]",
        "rows = list(averages)[:row_limit]"),
    "a unit is reached only above its threshold, not at it": ("if t >= scale:", "if t > scale:"),
    "the average is the self time per call": ("fmt(a.total / a.count)",
                                              "fmt(a.self_total / a.count)"),
    "ties are reversed by sorting ascending and then reversing": (
        "rows = sorted(averages, key=keys[sort_by], reverse=True)[:row_limit]",
        "rows = sorted(averages, key=keys[sort_by])[::-1][:row_limit]"),
}

CORPUS: dict[str, dict[str, dict[str, Change]]] = {
    "04_grad_modes": {"grad_modes": GRAD_MODES, "freeze": FREEZE, "predictions": PREDICTIONS},
    "07_profiler": {"profiler_stack": PROFILER_STACK, "self_time": SELF_TIME,
                    "key_averages": KEY_AVERAGES, "table": TABLE},
}
ENTRIES = [(chapter, exercise, name) for chapter, exercises in CORPUS.items()
           for exercise, answers in exercises.items() for name in answers]
# Expected against got, in a check's message ("expected: ... got: ...", "expected 3, got 21")
# or a known mistake named.
# A check's message, or the grader's verdict on observations: where they differ and what the
# student's code gave there (never the solution's value: hidden tests hold no answers).
EXPECTED_VS_GOT = re.compile(r"expected:? .*\n?.*got:? |this is what you get when|"
                             r"differ at: .*\(got: ")


def exercises_of(nb: nbformat.NotebookNode) -> dict[str, list[str]]:
    """Each answer cell's grade_id, with the grade_ids of the test cells after it."""
    found: dict[str, list[str]] = {}
    current = None
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("solution"):
            current = meta["grade_id"]
            found[current] = []
        elif meta.get("grade") and current:
            found[current].append(meta["grade_id"])
    return found


def student_id(exercise: str, name: str) -> str:
    return f"{exercise}-" + re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:60]


class Graded:
    """A chapter's corpus, graded: grades and feedback per student id."""

    def __init__(self, root: CourseRoot, chapter: str) -> None:
        solution = root.solution()
        sources = {cell.metadata.nbgrader.grade_id: cell.source for cell in solution.cells
                   if cell.metadata.get("nbgrader", {}).get("solution")}
        submissions = {"solution": solution, "release": root.release()}
        for exercise, answers in CORPUS[chapter].items():
            for name, (old, new) in answers.items():
                assert sources[exercise].count(old) == 1, (exercise, name)
                wrong = sources[exercise].replace(old, new)
                submissions[student_id(exercise, name)] = edit_cells(solution, {exercise: wrong})
        self.exercises = exercises_of(solution)
        self.grades = root.grade_many(submissions)
        self.html = root.feedback_many(submissions)


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Graded]:
    """Grade a chapter's corpus on first use; later tests of the chapter read the result."""
    done: dict[str, Graded | BaseException] = {}

    def grade(chapter: str) -> Graded:
        if chapter not in done:  # graded once, also when grading fails
            try:
                root = CourseRoot(tmp_path_factory.mktemp(chapter), SOLUTIONS / f"{chapter}.py")
                done[chapter] = Graded(root, chapter)
            except Exception as error:  # re-raised by every test that needs it
                done[chapter] = error
        if isinstance(done[chapter], BaseException):
            raise done[chapter]
        return done[chapter]

    return grade


def _feedback_errors(grades: Grades, grade_ids: list[str]) -> str:
    """The error text the feedback shows in the named cells (the scrubbed tracebacks)."""
    nb, _ = HideHiddenTests().preprocess(copy.deepcopy(grades.notebook), {})
    plain = re.compile(r"\x1b\[[0-9;]*m")
    return "\n".join(plain.sub("", line) for cell in nb.cells
                     if cell.metadata.get("nbgrader", {}).get("grade_id") in grade_ids
                     for output in cell.get("outputs", []) if output.output_type == "error"
                     for line in output.traceback)


def _html_text(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", html))


@pytest.mark.parametrize("chapter", CORPUS)
def test_the_corpus_has_five_wrong_answers_per_exercise(chapter: str) -> None:
    source = read_source(SOLUTIONS / f"{chapter}.py")
    answers = [cell.metadata["nbgrader"]["grade_id"] for cell in source.cells
               if cell.metadata.get("nbgrader", {}).get("solution")]
    assert sorted(CORPUS[chapter]) == sorted(answers)
    assert all(len(wrong) >= 5 for wrong in CORPUS[chapter].values())


@pytest.mark.parametrize("chapter", CORPUS)
def test_the_solution_keeps_full_marks_and_the_release_scores_zero(
        graded: Callable[[str], Graded], chapter: str) -> None:
    corpus = graded(chapter)
    solution, release = corpus.grades["solution"], corpus.grades["release"]
    assert solution.total == solution.max_total > 0, solution.errors()
    assert release.total == 0


@pytest.mark.parametrize(("chapter", "exercise", "name"), ENTRIES)
def test_a_wrong_answer_loses_points_on_its_exercise_only(
        graded: Callable[[str], Graded], chapter: str, exercise: str, name: str) -> None:
    corpus = graded(chapter)
    grades = corpus.grades[student_id(exercise, name)]
    full = corpus.grades["solution"].by_grade_id
    own = corpus.exercises[exercise]
    lost = {grade_id for grade_id, score in grades.by_grade_id.items() if score < full[grade_id]}
    assert lost and lost <= set(own), (lost, grades.errors())

    text = _feedback_errors(grades, sorted(lost))
    assert EXPECTED_VS_GOT.search(text), text
    assert "HIDDEN TESTS" not in text
    shown = next(line for line in text.splitlines()
                 if re.search(r"first difference|this is what you get|got: ", line))
    assert shown.strip() in _html_text(corpus.html[student_id(exercise, name)])
