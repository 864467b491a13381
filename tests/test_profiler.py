"""minitorch.autograd.profiler, driven through its _push/_pop hooks and record_function.

Truth comes from torch: its own table builder (fed the same intervals through
``torch.autograd.profiler_util.FunctionEvent``) and live torch profiles for the layout.
A fake clock makes the durations exact; sleep-based runs check the real clock.
"""

import doctest
import json
import re
import sys
import threading
import time

import pytest
import torch
from torch.autograd import profiler_util as torch_util

import minitorch
from minitorch.autograd import profiler
from minitorch.autograd.profiler import profile, record_function

LONG_NAME = "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad"
KB, MB, GB = 1024, 1024**2, 1024**3

# A run as tokens: ("push", name, cat, shapes), ("work", microseconds), ("pop", nbytes).
# Every child is followed by some work, so it lies strictly inside its parent, as torch's
# interval-based nesting needs.
SCRIPT = [
    ("push", "forward", "user_annotation", None), ("work", 3),
    ("push", "aten::mul", "cpu_op", [(3, 4), (3, 4)]), ("work", 2500), ("pop", 48),
    ("work", 1),
    ("push", "aten::mul", "cpu_op", [(3, 4), ()]), ("work", 700), ("pop", 48), ("work", 1),
    ("push", "aten::sum", "cpu_op", [(3, 4)]), ("work", 0.25), ("pop", 4), ("work", 2),
    ("pop", 0),
    ("push", "autograd::engine::evaluate_function: MulBackward0", "cpu_op", None),
    ("work", 1.5),
    ("push", "MulBackward0", "cpu_op", None), ("work", 2),
    ("push", "aten::mul", "cpu_op", [(3, 4), (3, 4)]), ("work", 1_500_000), ("pop", 2 * KB),
    ("work", 1),
    ("push", "aten::mul", "cpu_op", [(3, 4), (3, 4)]), ("work", 12), ("pop", 3 * MB),
    ("work", 1), ("pop", 96), ("work", 1), ("pop", 96), ("work", 4),
    ("push", LONG_NAME, "cpu_op", None), ("work", 9),
    ("push", "x" * 52, "user_annotation", None), ("work", 6), ("pop", 0), ("work", 1),
    ("pop", 0),
    ("push", "aten::empty", "cpu_op", [(1024, 1024, 1280)]), ("work", 1), ("pop", 5 * GB),
    # a label named like an op is a row of its own
    ("push", "aten::sum", "user_annotation", None), ("work", 3), ("pop", 0),
]


class FakeClock:
    """Stands in for perf_counter_ns: time moves only when the script works."""

    def __init__(self) -> None:
        self.now = 0

    def __call__(self) -> int:
        return self.now

    def advance(self, us: float) -> None:
        self.now += round(us * 1000)


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr(profiler, "perf_counter_ns", fake)
    return fake


def run_script(prof, clock, script=SCRIPT):
    for token in script:
        if token[0] == "push":
            prof._push(*token[1:])
        elif token[0] == "work":
            clock.advance(token[1])
        else:
            prof._pop(token[1])


def torch_events(script, thread, stacks=None, record_shapes=True, profile_memory=True,
                 device_factor=0):
    """The same run as torch FunctionEvents, with the memory rule written out here:
    an event holds max(its outputs' bytes, its children's bytes). With ``device_factor``,
    each event is torch's legacy CUDA-timed event: one kernel lasting that many times its
    CPU time (children included), as CUDA events around the call measure it."""
    now, open_, done, children_bytes = 0, [], [], {}
    for token in script:
        if token[0] == "push":
            open_.append((len(done) + len(open_), token[1], token[2], token[3], now))
            children_bytes[open_[-1][0]] = 0
        elif token[0] == "work":
            now += round(token[1] * 1000)
        else:
            idx, name, cat, shapes, start = open_.pop()
            memory = max(token[1], children_bytes[idx])
            if open_:
                children_bytes[open_[-1][0]] += memory
            done.append(torch_util.FunctionEvent(
                id=idx, name=name, thread=thread, start_us=start / 1000, end_us=now / 1000,
                input_shapes=[list(s) for s in shapes or ()] if record_shapes else [],
                stack=stacks[idx] if stacks else [], cpu_memory_usage=memory,
                is_user_annotation=cat == "user_annotation",
                use_device="cuda" if device_factor else None, is_legacy=bool(device_factor)))
    done.sort(key=lambda evt: evt.id)
    events = torch_util.EventList(done, profile_memory=profile_memory,
                                  use_device="cuda" if device_factor else None)
    events._build_tree()
    for evt in events if device_factor else ():
        evt.append_kernel("kernel", 0, device_factor * evt.cpu_time_total)
    return events


def parse_table(text):
    """(titles, rows as dicts of stripped cells, footer) of a profiler table."""
    lines = text.splitlines()
    spans = [m.span() for m in re.finditer(r"-+", lines[0])]
    titles = [lines[1][a:b].strip() for a, b in spans]
    rows = []
    for line in lines[3:]:
        if line == lines[0]:
            break
        rows.append(dict(zip(titles, (line[a:b].strip() for a, b in spans))))
    return titles, rows, lines[-1]


def parse_time(text):
    value, unit = re.fullmatch(r"(-?[\d.]+)(us|ms|s)", text).groups()
    return float(value) * {"us": 1, "ms": 1e3, "s": 1e6}[unit]


def torch_table_lines(profile_memory):
    x = torch.randn(3, 4, requires_grad=True)
    w = torch.randn(3, 4, requires_grad=True)
    with torch.autograd.profiler.profile(profile_memory=profile_memory) as prof:
        (x * w).sum().backward()
    return prof.key_averages().table(sort_by="self_cpu_time_total").splitlines()


# ---- the table, character for character against torch ----------------------------------

@pytest.mark.parametrize("sort_by", [None, "self_cpu_time_total", "cpu_time_total", "cpu_time",
                                     "count", "self_cpu_memory_usage", "cpu_memory_usage"])
@pytest.mark.parametrize("row_limit", [100, 3, 0, -1])
def test_key_averages_table_matches_torch(clock, sort_by, row_limit):
    with profile(profile_memory=True) as prof:
        run_script(prof, clock)
    ours = prof.key_averages().table(sort_by=sort_by, row_limit=row_limit)
    theirs = torch_events(SCRIPT, 1).key_averages().table(sort_by=sort_by, row_limit=row_limit)
    assert ours == theirs


@pytest.mark.parametrize("profile_memory", [False, True])
@pytest.mark.parametrize("record_shapes", [False, True])
def test_raw_and_grouped_tables_match_torch(clock, profile_memory, record_shapes):
    with profile(record_shapes=record_shapes, profile_memory=profile_memory) as prof:
        run_script(prof, clock)
    expected = torch_events(SCRIPT, 1, record_shapes=record_shapes,
                            profile_memory=profile_memory)
    assert prof.table() == expected.table()
    assert str(prof) == str(prof.function_events) == expected.table()
    for sort_by in (None, "cpu_time_total"):
        ours = prof.key_averages(group_by_input_shape=True).table(sort_by=sort_by)
        assert ours == expected.key_averages(group_by_input_shapes=True).table(sort_by=sort_by)
    if record_shapes:
        assert "Input Shapes" in parse_table(prof.table())[0]


@pytest.mark.parametrize("time_unit", ["s", "ms", "us"])
def test_header_and_time_unit_match_torch(clock, time_unit):
    with profile() as prof:
        run_script(prof, clock)
    ours = prof.key_averages().table(header="A header", time_unit=time_unit)
    theirs = torch_events(SCRIPT, 1, profile_memory=False).key_averages().table(
        header="A header", time_unit=time_unit)
    assert ours == theirs


def test_bad_time_unit_is_refused(clock):
    with profile() as prof:
        run_script(prof, clock)
    with pytest.raises(ValueError, match="time_unit"):
        prof.key_averages().table(time_unit="min")


def test_source_column_matches_torch(clock):
    with profile(with_stack=True) as prof:
        run_script(prof, clock)
    events = prof.events()
    stacks = {evt.id: evt.stack for evt in events}
    expected = torch_events(SCRIPT, events[0].thread, stacks, record_shapes=False,
                            profile_memory=False)
    assert prof.table() == expected.table()
    assert prof.events().table(max_src_column_width=30) == expected.table(max_src_column_width=30)
    assert prof.key_averages(group_by_stack_n=2).table() == \
        expected.key_averages(group_by_stack_n=2).table()


@pytest.mark.parametrize("profile_memory", [False, True])
def test_header_lines_match_live_torch(clock, profile_memory):
    with profile(profile_memory=profile_memory) as prof:
        run_script(prof, clock)
    ours = prof.key_averages().table(sort_by="self_cpu_time_total").splitlines()
    theirs = torch_table_lines(profile_memory)
    assert ours[:3] == theirs[:3]
    assert ours[-1].startswith("Self CPU time total: ")
    assert re.fullmatch(r"Self CPU time total: [\d.]+(us|ms|s)", theirs[-1])
    assert len(ours[-2]) == len(theirs[-2])


@pytest.mark.parametrize("us", [0, 0.0004, 0.5, 999.9994, 999.9996, 1000, 123456.789,
                                999_999.9, 1e6, 3.25e7, -38.81, -2500])
def test_time_format_matches_torch(us):
    assert profiler._format_time(us) == torch_util._format_time(us)


@pytest.mark.parametrize("nbytes", [0, 1, 1023, 1024, 1536, MB - 1, MB, 5 * GB + 7, -48, -3 * MB])
def test_memory_format_matches_torch(nbytes):
    assert profiler._format_memory(nbytes) == torch_util._format_memory(nbytes)


def test_empty_profile_prints_nothing():
    with profile() as prof:
        pass
    assert str(prof) == prof.key_averages().table() == ""
    assert prof.self_cpu_time_total == 0


# ---- the numbers, on the real clock ------------------------------------------------------

def sleepy_run():
    """forward { mul x2, sum { add } }, backward { MulBackward0 { mul } }, with sleeps."""
    with profile(record_shapes=True) as prof:
        with record_function("forward"):
            for _ in range(2):
                prof._push("aten::mul", "cpu_op", [(2, 2), (2, 2)])
                time.sleep(0.002)
                prof._pop(16)
            prof._push("aten::sum", "cpu_op", [(2, 2)])
            time.sleep(0.001)
            prof._push("aten::add", "cpu_op", [(2, 2), ()])
            time.sleep(0.001)
            prof._pop(16)
            prof._pop(4)
        prof._push("MulBackward0", "cpu_op", None)
        prof._push("aten::mul", "cpu_op", [(2, 2), (2, 2)])
        time.sleep(0.001)
        prof._pop(16)
        prof._pop(16)
    return prof


@pytest.fixture(scope="module")
def sleepy():
    return sleepy_run()


def test_real_clock_rows_are_consistent(sleepy):
    _, rows, footer = parse_table(sleepy.key_averages().table())
    counts = {row["Name"]: int(row["# of Calls"]) for row in rows}
    assert counts == {"forward": 1, "aten::mul": 3, "aten::sum": 1, "aten::add": 1,
                      "MulBackward0": 1}
    for row in rows:
        self_us, total_us = parse_time(row["Self CPU"]), parse_time(row["CPU total"])
        assert self_us <= total_us + 0.001
        assert parse_time(row["CPU time avg"]) == pytest.approx(
            total_us / int(row["# of Calls"]), abs=0.002, rel=1e-3)
    shares = [float(row["Self CPU %"].rstrip("%")) for row in rows]
    assert sum(shares) == pytest.approx(100, abs=0.01 * len(rows))
    total = parse_time(footer.removeprefix("Self CPU time total: "))
    assert total == pytest.approx(sum(parse_time(r["Self CPU"]) for r in rows), rel=1e-3)
    assert total >= 7000  # at least the 7 ms slept
    by_name = {row["Name"]: row for row in rows}
    assert parse_time(by_name["aten::mul"]["CPU total"]) >= 5000
    assert parse_time(by_name["forward"]["CPU total"]) >= 6000
    assert parse_time(by_name["aten::sum"]["CPU total"]) >= 2000


def test_self_and_total_times_follow_the_nesting(sleepy):
    events = sleepy.events()
    assert [evt.name for evt in events] == ["forward", "aten::mul", "aten::mul", "aten::sum",
                                            "aten::add", "MulBackward0", "aten::mul"]
    forward, summed, backward = events[0], events[3], events[5]
    assert [child.name for child in forward.cpu_children] == ["aten::mul"] * 2 + ["aten::sum"]
    assert summed.cpu_children == [events[4]] and events[4].cpu_parent is summed
    assert backward.cpu_parent is None and backward.cpu_children == [events[6]]
    for evt in events:
        children = sum(child.cpu_time_total for child in evt.cpu_children)
        assert evt.self_cpu_time_total == pytest.approx(evt.cpu_time_total - children)
        assert evt.cpu_time_total == pytest.approx(evt.end_us - evt.start_us)
        for child in evt.cpu_children:
            assert evt.start_us <= child.start_us <= child.end_us <= evt.end_us
    assert sleepy.self_cpu_time_total == pytest.approx(
        sum(evt.cpu_time_total for evt in events if evt.cpu_parent is None))


@pytest.mark.parametrize("sort_by, column", [
    ("self_cpu_time_total", "Self CPU"), ("cpu_time_total", "CPU total"),
    ("cpu_time", "CPU time avg"), ("count", "# of Calls")])
def test_sort_order_and_row_limit(sleepy, sort_by, column):
    averages = sleepy.key_averages()
    _, rows, _ = parse_table(averages.table(sort_by=sort_by))
    values = [parse_time(r[column]) if "CPU" in column else int(r[column]) for r in rows]
    assert values == sorted(values, reverse=True)
    _, top, _ = parse_table(averages.table(sort_by=sort_by, row_limit=2))
    assert top == rows[:2]


def test_averages_expose_torch_attributes(sleepy):
    mul = next(avg for avg in sleepy.key_averages() if avg.key == "aten::mul")
    raw = [evt for evt in sleepy.events() if evt.name == "aten::mul"]
    assert mul.count == 3
    assert mul.cpu_time_total == pytest.approx(sum(evt.cpu_time_total for evt in raw))
    assert mul.self_cpu_time_total == pytest.approx(sum(e.self_cpu_time_total for e in raw))
    assert mul.cpu_time == pytest.approx(mul.cpu_time_total / 3)
    assert mul.input_shapes == ""
    assert (mul.cpu_memory_usage, mul.self_cpu_memory_usage) == (48, 48)
    grouped = sleepy.key_averages(group_by_input_shape=True)
    assert sorted((a.key, a.count, str(a.input_shapes)) for a in grouped if a.key == "aten::mul") \
        == [("aten::mul", 3, "[[2, 2], [2, 2]]")]
    assert "aten::mul" in repr(mul) and "aten::mul" in repr(raw[0])


def test_memory_nests_without_double_counting(clock):
    with profile(profile_memory=True) as prof:
        run_script(prof, clock)
    by_name = {avg.key: avg for avg in prof.key_averages()}
    # MulBackward0 returns 96 bytes that its two nested muls (2 KB, 3 MB) already made
    assert by_name["MulBackward0"].cpu_memory_usage == 2 * KB + 3 * MB
    assert by_name["MulBackward0"].self_cpu_memory_usage == 0
    assert by_name["forward"].cpu_memory_usage == 48 + 48 + 4
    _, rows, _ = parse_table(prof.key_averages().table())
    empty = next(row for row in rows if row["Name"] == "aten::empty")
    assert (empty["CPU Mem"], empty["Self CPU Mem"]) == ("5.00 GB", "5.00 GB")


# ---- chrome trace ------------------------------------------------------------------------

def test_chrome_trace_is_valid_and_nested(sleepy, tmp_path):
    path = tmp_path / "trace.json"
    sleepy.export_chrome_trace(str(path))
    trace = json.loads(path.read_text())["traceEvents"]
    assert [e["name"] for e in trace] == [evt.name for evt in sleepy.events()]
    assert {e["ph"] for e in trace} == {"X"}
    assert {e["cat"] for e in trace} == {"cpu_op", "user_annotation"}
    assert next(e for e in trace if e["name"] == "forward")["cat"] == "user_annotation"
    for event in trace:
        assert isinstance(event["ts"], float) and isinstance(event["dur"], float)
        assert set(event) == {"ph", "cat", "name", "pid", "tid", "ts", "dur", "args"}
    assert trace[1]["args"] == {"Input Dims": [[2, 2], [2, 2]]}
    assert trace[0]["args"] == {}
    for evt, event in zip(sleepy.events(), trace):
        parent = evt.cpu_parent
        if parent is not None:
            outer = trace[parent.id]
            assert outer["tid"] == event["tid"]
            assert outer["ts"] <= event["ts"]
            assert event["ts"] + event["dur"] <= outer["ts"] + outer["dur"] + 1e-6


# ---- record_function ---------------------------------------------------------------------

def test_record_function_is_a_noop_without_profile():
    with record_function("nothing") as rf:
        assert profiler._active is None
    assert rf.name == "nothing"


def test_record_function_as_decorator_nests_recursive_calls(clock):
    @record_function("fib")
    def fib(n):
        """Fibonacci."""
        clock.advance(1)
        return n if n < 2 else fib(n - 1) + fib(n - 2)

    assert fib.__name__ == "fib" and fib.__doc__ == "Fibonacci."
    assert fib(4) == 3  # works while no profile runs
    with profile() as prof:
        assert fib(3) == 2
    events = prof.events()
    assert [evt.name for evt in events] == ["fib"] * 5
    assert all(evt.cat == "user_annotation" and evt.is_user_annotation for evt in events)
    depth = [0 if evt.cpu_parent is None else 1 + events.index(evt.cpu_parent) for evt in events]
    assert depth == [0, 1, 2, 2, 1]
    assert prof.key_averages()[0].count == 5


def test_record_function_args_are_kept():
    assert record_function("block", "some args").args == "some args"


# ---- the profile's life ------------------------------------------------------------------

def test_active_is_set_and_restored_even_on_error():
    prof = profile()
    with pytest.raises(ZeroDivisionError), prof:
        assert profiler._active is prof
        1 / 0
    assert profiler._active is None


def test_profile_is_not_reentrant():
    prof = profile()
    with prof, pytest.raises(RuntimeError, match=r"^Profiler context manager is not reentrant$"):
        prof.__enter__()
    with pytest.raises(RuntimeError, match="not reentrant"), prof:
        pass
    assert profiler._active is None


def test_nested_profile_takes_the_session_over():
    with profile() as outer:
        with profile() as inner:
            assert profiler._active is inner
        assert profiler._active is None  # as torch: the inner one's end ends the session
    assert profiler._active is None
    assert list(outer.function_events) == []


def test_disabled_profile_records_nothing():
    with profile(enabled=False) as prof:
        assert prof is None
        assert profiler._active is None
        with record_function("block"):
            pass


def test_events_appear_when_the_profile_ends(clock):
    with profile() as prof:
        run_script(prof, clock, SCRIPT[:5])
        assert len(prof.events()) == 0 and prof.key_averages().table() == ""
    assert [evt.name for evt in prof.events()] == ["forward", "aten::mul"]
    assert prof.events() is prof.function_events


def test_unbalanced_hooks_do_not_break_the_profile(clock):
    with profile() as prof:
        prof._pop(8)  # an op that started before the profile
        prof._push("open", "cpu_op", None)
        clock.advance(5)  # still open when the profile ends
    prof._pop(0)  # ends after the profile: ignored
    (evt,) = prof.events()
    assert (evt.name, evt.cpu_time_total, evt.self_cpu_time_total) == ("open", 5.0, 5.0)


def test_events_carry_their_thread(clock):
    barrier = threading.Barrier(2)
    ids = {}

    def worker(name):
        ids[name] = threading.get_native_id()
        barrier.wait()
        for _ in range(50):
            with record_function(name):
                prof._push("aten::mul", "cpu_op", None)
                prof._pop(0)

    with profile() as prof:
        threads = [threading.Thread(target=worker, args=(n,)) for n in ("a", "b")]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    events = prof.events()
    assert len(events) == 200 and ids["a"] != ids["b"]
    for evt in events:
        if evt.name == "aten::mul":
            assert evt.cpu_parent is not None and evt.cpu_parent.thread == evt.thread
        else:
            assert evt.thread == ids[evt.name] and evt.cpu_parent is None
    assert {(a.key, a.count) for a in prof.key_averages()} == {("a", 50), ("b", 50),
                                                                ("aten::mul", 100)}


def test_with_stack_points_at_the_caller_not_the_profiler():
    with profile(with_stack=True) as prof, record_function("here"):
        pass
    (evt,) = prof.events()
    assert evt.stack[0].startswith(f"{__file__}(")
    assert evt.stack[0].endswith(": test_with_stack_points_at_the_caller_not_the_profiler")
    assert not any(entry.startswith(profiler.__file__) for entry in evt.stack)
    assert len(evt.stack) <= 5
    assert "Source Location" in parse_table(prof.table())[0]
    assert profile().with_stack is False


# ---- plot_top_ops ------------------------------------------------------------------------

def test_plot_top_ops_draws_the_largest_bars(sleepy):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ax = profiler.plot_top_ops(sleepy, n=3)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    top = sorted(sleepy.key_averages(), key=lambda a: a.self_cpu_time_total, reverse=True)[:3]
    assert labels == [avg.key for avg in reversed(top)]
    widths = [bar.get_width() for bar in ax.patches]
    assert widths == [avg.self_cpu_time_total for avg in reversed(top)]
    assert ax.get_xlabel() == "self_cpu_time_total (us)"
    _, own_ax = plt.subplots()
    assert profiler.plot_top_ops(sleepy.key_averages(), n=10, key="count", ax=own_ax) is own_ax
    assert len(own_ax.patches) == 5
    plt.close("all")


def test_plot_top_ops_explains_a_missing_matplotlib(sleepy, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match="pip install matplotlib"):
        profiler.plot_top_ops(sleepy)


# ---- with the core -----------------------------------------------------------------------

needs_core = pytest.mark.skipif(not hasattr(minitorch, "tensor"),
                                reason="minitorch.tensor is not there yet (the core is missing)")

EXPECTED_NAMES = {"aten::mul", "aten::sum", "MulBackward0",
                  "autograd::engine::evaluate_function: MulBackward0"}


def test_torch_names_the_same_events():
    x = torch.ones(3, requires_grad=True)
    with torch.autograd.profiler.profile() as prof:
        (x * torch.full((3,), 2.0, requires_grad=True)).sum().backward()
    assert {avg.key for avg in prof.key_averages()} >= EXPECTED_NAMES


@needs_core
def test_profiles_forward_and_backward_of_minitorch():
    x = minitorch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = minitorch.tensor([4.0, 5.0, 6.0], requires_grad=True)
    with profile(record_shapes=True) as prof:
        y = (x * w).sum()
        y.backward()
    events = prof.events()
    assert {evt.name for evt in events} >= EXPECTED_NAMES
    node = next(evt for evt in events if evt.name == "MulBackward0")
    assert node.cpu_parent.name == "autograd::engine::evaluate_function: MulBackward0"
    mul = next(evt for evt in events if evt.name == "aten::mul")
    assert mul.input_shapes == [[3], [3]]
    assert x.grad.tolist() == [4.0, 5.0, 6.0]


@needs_core
def test_docstring_examples_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert doctest.testmod(profiler).failed == 0


# ---- CUDA time (use_device="cuda"), with a stand-in GPU clock ----------------------------

@pytest.fixture
def gpu(monkeypatch, clock):
    """A GPU whose events read twice the CPU clock: each event's GPU time is twice its CPU
    time, so the CUDA columns are exact numbers."""
    monkeypatch.setattr(profiler.backend, "cuda_device_count", lambda: 1)
    monkeypatch.setattr(profiler.backend, "cuda_event", lambda: 2 * clock.now)
    monkeypatch.setattr(profiler.backend, "cuda_elapsed_us", lambda a, b: (b - a) / 1000)
    monkeypatch.setattr(profiler.backend, "synchronize", lambda: None)


@pytest.mark.parametrize("profile_memory", [False, True])
def test_cuda_columns_match_torch(clock, gpu, profile_memory):
    with profile(use_device="cuda", profile_memory=profile_memory) as prof:
        run_script(prof, clock)
    expected = torch_events(SCRIPT, 1, record_shapes=False, profile_memory=profile_memory,
                            device_factor=2)
    assert prof.table() == expected.table()
    for sort_by in (None, "self_device_time_total", "device_time_total"):
        assert (prof.key_averages().table(sort_by=sort_by)
                == expected.key_averages().table(sort_by=sort_by))
    header = prof.table().splitlines()[1]
    columns = ["CPU time avg", "Self CUDA ", "Self CUDA %", "CUDA total", "CUDA time avg"]
    assert [header.index(c) for c in columns] == sorted(header.index(c) for c in columns)
    assert prof.table().splitlines()[-1].startswith("Self CUDA time total: ")


def test_cuda_times_nest_like_cpu_times(clock, gpu):
    with profile(use_device="cuda") as prof:
        run_script(prof, clock)
    for evt in prof.events():
        assert evt.device_time_total == 2 * evt.cpu_time_total
        assert evt.self_device_time_total == pytest.approx(2 * evt.self_cpu_time_total)


def test_cuda_profiling_without_a_gpu_warns_as_torch(clock):
    with pytest.warns(UserWarning, match="CUDA is not available, disabling CUDA profiling"):
        prof = profile(use_device="cuda")
    with prof:
        run_script(prof, clock)
    assert "CUDA" not in prof.table()
    with pytest.raises(ValueError, match="use_device"):
        profile(use_device="tpu")
