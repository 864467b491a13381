"""Chapter 07_profiler: the profiler's seam (``profiler.use`` and the switched-off reference
pieces), and nbgrader grading of the chapter: each exercise's plausible wrong answers and a
student who delegates to minitorch lose points on that exercise."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from grading import (
    DROP_ASSERTS,
    SKIP_LATER_CELLS,
    SWALLOW_AND_AGREE,
    CourseRoot,
    Grades,
    edit_cells,
)

import minitorch
from minitorch import course
from minitorch.autograd import profiler
from minitorch.autograd.profiler import profile, record_function

pytestmark = [
    pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning"),
    pytest.mark.filterwarnings("ignore::nbformat.validator.MissingIDFieldWarning"),
]

SOURCE = Path(__file__).resolve().parents[2] / "solutions" / "07_profiler.py"
REFERENCE_PIECES = ("profiler.build_events", "profiler.average_events", "profiler.format_table",
                    "profiler._format_time")


class Recorder:
    """A student's profiler reduced to its calls: ("enter", name) and ("exit",)."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []
        self.depth = 0

    def enter(self, name: str) -> None:
        self.calls.append(("enter", name))
        self.depth += 1

    def exit(self) -> None:
        self.calls.append(("exit",))
        self.depth -= 1

    def names(self) -> list[str]:
        return [call[1] for call in self.calls if call[0] == "enter"]


@pytest.fixture(autouse=True)
def _restore_seams():
    yield
    course.reset()


# --- the seam -------------------------------------------------------------------------------

def test_use_forwards_ops_backward_nodes_and_labels_in_nesting_order() -> None:
    x = minitorch.ones(3, requires_grad=True)
    with profiler.use(Recorder()) as rec:
        with record_function("step"):
            y = (x * x).sum()
        y.backward()
    # torch's aten::sum records the kernel's aten::as_strided and aten::fill_ inside it
    assert rec.calls[:10] == [("enter", "step"), ("enter", "aten::mul"), ("exit",),
                              ("enter", "aten::sum"), ("enter", "aten::as_strided"), ("exit",),
                              ("enter", "aten::fill_"), ("exit",), ("exit",), ("exit",)]
    # backward's implicit gradient: torch's aten::ones_like and the kernels it calls
    assert rec.names()[5:9] == ["aten::ones_like", "aten::empty_like", "aten::empty_strided",
                                "aten::fill_"]
    assert rec.names()[9:11] == ["autograd::engine::evaluate_function: SumBackward0",
                                 "SumBackward0"]
    assert "MulBackward0" in rec.names() and rec.depth == 0
    assert x.grad.tolist() == [2.0, 2.0, 2.0]  # the reference work is untouched


def test_use_matches_the_reference_profiler_event_for_event() -> None:
    x = minitorch.ones(2, 2, requires_grad=True)

    def run() -> None:
        x.grad = None  # both runs store a first gradient (AccumulateGrad's aten::detach)
        with record_function("block"):
            (x.relu() @ x).sum().backward()

    with profile() as prof:
        run()
    with profiler.use(Recorder()) as rec:
        run()
    assert rec.names() == [evt.name for evt in prof.events()]


def test_a_failing_op_still_exits_its_event() -> None:
    with profiler.use(Recorder()) as rec, pytest.raises(RuntimeError):
        minitorch.ones(2, 3) @ minitorch.ones(2, 3)
    assert rec.depth == 0 and rec.calls[-1] == ("exit",)


def test_use_restores_the_reference_on_exit_even_after_an_error() -> None:
    with pytest.raises(ZeroDivisionError), profiler.use(Recorder()):
        1 / 0
    assert profiler._active is None
    with profile() as prof:  # the reference profiler works again
        minitorch.ones(2) * 2
    # torch's ones is an empty tensor filled; its mul by a number records the number's
    # conversion to a tensor inside it: aten::to, which copies through aten::_to_copy into a
    # fresh aten::empty_strided
    assert [evt.name for evt in prof.events()] == [
        "aten::ones", "aten::empty", "aten::fill_",
        "aten::mul", "aten::to", "aten::_to_copy", "aten::empty_strided", "aten::copy_"]


def test_course_reset_restores_the_reference_profiler() -> None:
    block = profiler.use(Recorder())
    block.__enter__()  # a student's cell that never left the block
    assert profiler._active is not None
    course.reset()
    assert profiler._active is None


def test_use_refuses_an_object_without_enter_and_exit() -> None:
    class OnlyEnter:
        def enter(self, name: str) -> None: ...

    with pytest.raises(TypeError, match=r"enter\(name\) and exit\(\).*OnlyEnter has no exit"):
        profiler.use(OnlyEnter()).__enter__()
    assert profiler._active is None


def test_use_and_profile_refuse_each_other() -> None:
    with profile(), pytest.raises(RuntimeError, match="already enabled"):
        profiler.use(Recorder()).__enter__()
    with profiler.use(Recorder()), pytest.raises(RuntimeError, match="already enabled"):
        profile().__enter__()
    assert profiler._active is None


def test_events_of_other_threads_are_not_forwarded() -> None:
    with profiler.use(Recorder()) as rec:
        worker = threading.Thread(target=lambda: minitorch.ones(2) * 3)
        worker.start()
        worker.join()
        minitorch.ones(2) + 1
    conversion = [("enter", "aten::to"), ("enter", "aten::_to_copy"),
                  ("enter", "aten::empty_strided"), ("exit",), ("enter", "aten::copy_"), ("exit",),
                  ("exit",), ("exit",)]
    ones = [("enter", "aten::ones"), ("enter", "aten::empty"), ("exit",),
            ("enter", "aten::fill_"), ("exit",), ("exit",)]  # torch's ones: empty, then filled
    assert rec.calls == [*ones, ("enter", "aten::add"), *conversion, ("exit",)]


def test_the_reference_pieces_are_seams() -> None:
    assert set(REFERENCE_PIECES) <= set(course.seams())


def test_switched_off_pieces_raise_even_through_kept_references() -> None:
    x = minitorch.ones(2, requires_grad=True)
    with profile() as prof, record_function("block"):
        (x * x).sum()
    events = prof.events()
    kept = (profiler.build_events, profiler.EventList.key_averages, profiler.EventList.table,
            profiler._format_time)
    with course.switched_off(*REFERENCE_PIECES):
        for call in (lambda: kept[0]([], 0, False, False), lambda: kept[1](events),
                     lambda: kept[2](events), lambda: kept[3](1.0)):
            with pytest.raises(course.SwitchedOff):
                call()
        with profiler.use(Recorder()) as rec:  # the seam itself needs none of them
            (x * x).sum().backward()
    assert rec.depth == 0 and "MulBackward0" in rec.names()
    assert "block" in events.key_averages().table()  # back on after the block


# --- grading --------------------------------------------------------------------------------

IMPORTS = "from contextlib import contextmanager\nfrom types import SimpleNamespace\n"

RIGHT_PROFILER = '''
class Profiler:
    def __init__(self, clock):
        self.clock = clock
        self.events = []
        self.open = []

    def enter(self, name):
        self.events.append(Event(name, self.clock(), None, self.open[-1] if self.open else None))
        self.open.append(len(self.events) - 1)

    def exit(self):
        self.events[self.open.pop()].end = self.clock()

    @contextmanager
    def record(self, name):
        self.enter(name)
        try:
            yield
        finally:
            self.exit()
'''

# Wrong answer A for every exercise.
WRONG_A = {
    # no stack: the parent is the previous event, not the enclosing one
    "profiler_stack": IMPORTS + '''
class Profiler:
    def __init__(self, clock):
        self.clock = clock
        self.events = []

    def enter(self, name):
        parent = len(self.events) - 1 if self.events else None
        self.events.append(Event(name, self.clock(), None, parent))

    def exit(self):
        [e for e in self.events if e.end is None][-1].end = self.clock()

    @contextmanager
    def record(self, name):
        self.enter(name)
        try:
            yield
        finally:
            self.exit()
''',
    # the children are not subtracted: self time = total time
    "self_time": "def self_times(events):\n    return [e.end - e.start for e in events]\n",
    # keyed by (name, parent): one name under two parents makes two rows
    "key_averages": '''
def key_averages(events, selfs):
    groups = {}
    for e, s in zip(events, selfs):
        count, self_total, total = groups.get((e.name, e.parent), (0, 0, 0))
        groups[(e.name, e.parent)] = (count + 1, self_total + s, total + e.end - e.start)
    return [Average(key[0], *sums) for key, sums in groups.items()]
''',
    # percentages of the sum of total times instead of self times
    "table": '''
def table(averages, sort_by="self_cpu_time_total", row_limit=None):
    def fmt(t):
        if t >= 1e6:
            return f"{t / 1e6:.3f}s"
        return f"{t / 1e3:.3f}ms" if t >= 1e3 else f"{t:.3f}us"
    key = {"self_cpu_time_total": lambda a: a.self_total, "cpu_time_total": lambda a: a.total,
           "count": lambda a: a.count}[sort_by]
    rows = sorted(averages, key=key, reverse=True)[:row_limit]
    everything = sum(a.total for a in averages)
    lines = ["Name  Self CPU %  Self CPU  CPU total %  CPU total  CPU time avg  # of Calls"]
    for a in rows:
        lines.append(f"{a.name}  {100 * a.self_total / everything:.2f}%  {fmt(a.self_total)}  "
                     f"{100 * a.total / everything:.2f}%  {fmt(a.total)}  "
                     f"{fmt(a.total / a.count)}  {a.count}")
    lines.append(f"Self CPU time total: {fmt(sum(a.self_total for a in averages))}")
    return "\\n".join(lines)
''',
}

# Wrong answer B for every exercise.
WRONG_B = {
    # record() without try/finally: an exception leaves its events open
    "profiler_stack": IMPORTS + RIGHT_PROFILER.replace(
        "        try:\n            yield\n        finally:\n            self.exit()",
        "        yield\n        self.exit()"),
    # every descendant subtracted, grandchildren too
    "self_time": '''
def self_times(events):
    result = [e.end - e.start for e in events]
    for e in events:
        ancestor = e.parent
        while ancestor is not None:
            result[ancestor] -= e.end - e.start
            ancestor = events[ancestor].parent
    return result
''',
    # averages per call instead of sums
    "key_averages": '''
def key_averages(events, selfs):
    groups = {}
    for e, s in zip(events, selfs):
        groups.setdefault(e.name, []).append((s, e.end - e.start))
    return [Average(name, len(v), sum(s for s, _ in v) / len(v), sum(t for _, t in v) / len(v))
            for name, v in groups.items()]
''',
    # the footer and percentages count only the rows shown after row_limit
    "table": WRONG_A["table"].replace(
        "everything = sum(a.total for a in averages)",
        "everything = sum(a.self_total for a in rows)").replace(
        "fmt(sum(a.self_total for a in averages))", "fmt(everything)"),
}

# A student who hands each piece to minitorch: right while the reference is on.
DELEGATING = {
    "profiler_stack": IMPORTS + RIGHT_PROFILER,
    "self_time": '''
from minitorch.autograd import profiler as reference
build = reference.build_events  # kept before any test switches it off

def self_times(events):
    records = []
    for e in events:
        parent = records[e.parent] if e.parent is not None else 1  # 1: the thread id
        records.append([e.name, "cpu_op", None, parent, None, e.start * 1000, e.end * 1000, 0,
                        None, None])
    return [evt.self_cpu_time_total for evt in build(records, 0, False, False)]
''',
    "key_averages": IMPORTS + '''
from minitorch.autograd import profiler as reference
averaged = reference.EventList.key_averages  # kept

def key_averages(events, selfs):
    stats = reference.EventList(
        SimpleNamespace(key=e.name, is_user_annotation=False, input_shapes=[], stack=[],
                        count=1, cpu_time_total=e.end - e.start, self_cpu_time_total=s,
                        cpu_memory_usage=0, self_cpu_memory_usage=0, device_time_total=0,
                        self_device_time_total=0)
        for e, s in zip(events, selfs))
    return [Average(a.key, a.count, a.self_cpu_time_total, a.cpu_time_total)
            for a in averaged(stats)]
''',
    "table": IMPORTS + '''
from minitorch.autograd import profiler as reference

def table(averages, sort_by="self_cpu_time_total", row_limit=None):
    rows = reference.EventList(
        SimpleNamespace(key=a.name, count=a.count, self_cpu_time_total=a.self_total,
                        cpu_time_total=a.total, cpu_time=a.total / a.count, input_shapes="",
                        stack=[], self_device_time_total=0)
        for a in averages)
    return rows.table(sort_by=sort_by, row_limit=-1 if row_limit is None else row_limit)
''',
}

EXERCISES = ("profiler_stack", "self_time", "key_averages", "table")


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> CourseRoot:
    return CourseRoot(tmp_path_factory.mktemp("ch07"), SOURCE)


# Per exercise, the (visible, hidden) scores of each submission; an exercise is worth (1, 2).
EXPECTED = {
    "wrong_a": (WRONG_A, {"profiler_stack": (0, 0),  # no stack: every nesting is wrong
                          "self_time": (0, 0),
                          "key_averages": (0, 0),    # the hidden nesting splits the rows again
                          "table": (0, 0)}),
    "wrong_b": (WRONG_B, {"profiler_stack": (1, 0),  # right nesting, unbalanced on exceptions
                          "self_time": (0, 0),
                          "key_averages": (0, 0),
                          "table": (1, 0)}),         # only row_limit reveals it
    # Delegation finds no reference: the grading copy of minitorch has none of the pieces
    # (REMOVED_SEAMS in course/integrity.py), so it earns nothing, visible or hidden.
    # Exercise 1 is answered honestly, and keeps its points, also where it profiles via use().
    "delegating": (DELEGATING, {"profiler_stack": (1, 2), "self_time": (0, 0),
                                "key_averages": (0, 0), "table": (0, 0)}),
}


def exercise_scores(grades: Grades) -> dict[str, tuple]:
    """Per exercise, the (visible, hidden) scores of a graded submission."""
    return {exercise: (grades.by_grade_id[f"{exercise}_visible"],
                       grades.by_grade_id[f"{exercise}_hidden"]) for exercise in EXERCISES}


@pytest.mark.parametrize("student", EXPECTED)
def test_each_wrong_answer_loses_points_on_its_exercise(root: CourseRoot, student: str) -> None:
    answers, expected = EXPECTED[student]
    grades = root.grade(student, edit_cells(root.release(), answers))
    assert exercise_scores(grades) == expected, grades.errors()


# --- cheats (course/integrity.py): each runs in the first answer cell, before every test cell

# Failures are swallowed, the checks a test might call always agree, and asserts are compiled
# away: this chapter's asserts compare plain lists, so only dropping them gets a wrong answer
# past them, and then only the hidden observations stand between it and the points.
TALK_ROUND_THE_ASSERTS = SWALLOW_AND_AGREE + DROP_ASSERTS


def cheating(cheat: str, answers: dict[str, str]) -> dict[str, str]:
    """``answers`` with ``cheat`` run first, in the first answer cell."""
    first = answers.get("profiler_stack", "")
    return {**answers, "profiler_stack": cheat + "\n" + first}


CHEATS = {
    "input-transformer": (SKIP_LATER_CELLS, {}),  # solves nothing
    "wrong_a-cheating": (TALK_ROUND_THE_ASSERTS, WRONG_A),
}


@pytest.mark.parametrize("student", CHEATS)
def test_a_cheat_earns_nothing(root: CourseRoot, student: str) -> None:
    cheat, answers = CHEATS[student]
    grades = root.grade(student, edit_cells(root.release(), cheating(cheat, answers)))
    assert grades.total == 0, grades.by_grade_id


def test_dropping_the_asserts_adds_nothing_to_subtle_wrong_answers(root: CourseRoot) -> None:
    # Wrong answer B agrees with the solution on most inputs; the hidden observations must
    # still see its stack left open by an exception and its percentages of the rows kept.
    answers, expected = EXPECTED["wrong_b"]
    grades = root.grade("wrong_b-cheating",
                        edit_cells(root.release(), cheating(TALK_ROUND_THE_ASSERTS, answers)))
    assert exercise_scores(grades) == expected, grades.errors()
