# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Chapter 7: the profiler
#
# Your model trains, but slowly. Where does the time go: the forward pass, the backward pass,
# one matrix multiply called a thousand times, or the optimizer? Guessing is how afternoons
# get lost. `torch.autograd.profiler` answers with numbers: it times **every op and every
# backward node**, nests them, and sums them up per name in a table.
#
# In this chapter you will
# 1. profile a training step and learn to read the table (self time versus total time),
#    label your own blocks with `record_function`, export a Chrome trace and find the
#    bottleneck with a chart;
# 2. open `minitorch/autograd/profiler.py` and see how little machinery it needs;
# 3. build your own small profiler: a stack of nested events, self times, `key_averages`
#    and torch's table;
# 4. plug it into minitorch and profile the MLP from the notes with it.

# %% nbgrader={"schema_version": 3, "grade": false, "solution": false, "locked": true, "task": false, "grade_id": "setup"}
import os
import warnings

from minitorch.checks import check
from minitorch.course import expect, observe

if os.environ.get("NBGRADER_EXECUTION"):  # autograde and validate: keep graded cells silent
    warnings.simplefilter("ignore")

import inspect
import itertools
import json
import re
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import NamedTuple

import matplotlib.pyplot as plt

import minitorch
from minitorch import nn
from minitorch.autograd import profiler
from minitorch.autograd.profiler import profile, record_function

# %% [markdown]
# ## 1. Profiling a training step
#
# The notes profile a ResNet-18 for a hundred iterations:
#
# ```python
# with torch.autograd.profiler.profile() as prof:
#     for _ in range(100):
#         y = model(x)
#         y = torch.sum(y)
#         y.backward()
# print(prof.key_averages().table(sort_by="self_cpu_time_total"))
# ```
#
# minitorch runs on numpy and has no convolutions worth timing, so we profile the small MLP
# from the notes instead (`fc1` ... `fc4`, two branches joined by `+`). The recipe is the
# same: everything inside `with profile() as prof:` is recorded.

# %%
class MLP(nn.Module):
    """The notes' MLP: fc1 and relu, then two branches (fc2; fc3, relu, fc4) summed."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(10, 5)
        self.relu = nn.ReLU()
        self.fc2 = nn.Linear(5, 2)
        self.fc3 = nn.Linear(5, 2)
        self.fc4 = nn.Linear(2, 2)

    def forward(self, x):
        x = self.fc1(x)
        x = self.relu(x)
        x1 = self.fc2(x)
        x2 = self.fc3(x)
        x2 = self.relu(x2)
        x2 = self.fc4(x2)
        return x1 + x2


minitorch.manual_seed(0)
mlp = MLP()
x = minitorch.ones([10], requires_grad=True)

with profile() as prof:
    for _ in range(100):
        y = mlp(x)
        y = minitorch.sum(y)
        y.backward()

print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=12))

# %% [markdown]
# ### Reading the table
#
# Each row is one **name**: an op such as `aten::addmm` (what `nn.Linear` runs), or a
# backward node such as `AddmmBackward0`, or the engine's wrapper around a backward node,
# `autograd::engine::evaluate_function: AddmmBackward0`.
#
# - **CPU total** is the whole time spent inside the event, from its start to its end, summed
#   over all its calls.
# - **Self CPU** is the part of that time *not* spent in other profiled events nested inside.
#   The engine's wrapper `autograd::engine::evaluate_function: AddmmBackward0` contains the
#   node `AddmmBackward0`: the wrapper's total includes the node's time, its self time does
#   not (the cell below prints both). The node in turn runs the ops of its backward formula,
#   and they are events too: `AddmmBackward0` calls `aten::t` and `aten::mm`, in torch and
#   in minitorch alike. (Outside a profile, minitorch computes a built-in backward straight
#   on numpy arrays, chapter 3 §6; under one it runs the formula on tensors, so that its
#   table lists the same rows as torch's.)
# - **Self CPU %** and **CPU total %** divide by the sum of all self times, the
#   `Self CPU time total` on the last line. Self times never count anything twice, so the
#   self percentages add up to 100 %; the total percentages do not.
# - **CPU time avg** is total divided by **# of Calls**.
#
# Sorting by self time finds the code that is slow *itself*; sorting by total time finds the
# expensive *subtrees*, with the engine's wrappers near the top because they contain
# everything a backward node does.

# %%
rows = {avg.key: avg for avg in prof.key_averages()}
for name in ("autograd::engine::evaluate_function: AddmmBackward0", "AddmmBackward0"):
    row = rows[name]
    print(f"{name}: self {row.self_cpu_time_total / 1000:.3f} ms of "
          f"{row.cpu_time_total / 1000:.3f} ms total, {row.count} calls")
inside = {e.name for e in prof.events() if e.cpu_parent and e.cpu_parent.name == "AddmmBackward0"}
print("inside AddmmBackward0:", sorted(inside))
print(prof.key_averages().table(sort_by="cpu_time_total", row_limit=8))

# %% [markdown]
# Not one number of these tables is the same on two runs: they are wall-clock times, and your
# machine is doing other things too. The *shape* of the table is stable: which rows dominate,
# how many calls each has. (Here: 100 iterations, 4 linear layers, so 400 `aten::addmm`.)
#
# ### Labelling your own blocks: `record_function`
#
# Op names tell you *what* ran, not *why*. `record_function("name")` opens an event of your
# own (a "user annotation"); everything run inside it nests under it. A real training step,
# with a loss and an optimizer, labelled in three parts:

# %%
minitorch.manual_seed(0)
mlp = MLP()
optimizer = minitorch.optim.SGD(mlp.parameters(), lr=0.1)
inputs, targets = minitorch.randn(16, 10), minitorch.randn(16, 2)


def train_step():
    """One SGD step of the MLP on the batch, in three labelled blocks."""
    with record_function("forward"):
        loss = nn.functional.mse_loss(mlp(inputs), targets)
    with record_function("backward"):
        optimizer.zero_grad()
        loss.backward()
    with record_function("optimizer step"):
        optimizer.step()
    return loss


with profile() as prof:
    for _ in range(20):
        train_step()

averages = prof.key_averages()
print(averages.table(sort_by="cpu_time_total", row_limit=10))

# %% [markdown]
# ### Forward or backward: finding the bottleneck
#
# The three labels are rows like any other, so their totals compare the phases directly.
# `profiler.plot_top_ops` draws the biggest rows by self time.

# %%
phases = ["forward", "backward", "optimizer step"]
phase_ms = [next(avg.cpu_time_total for avg in averages if avg.key == name) / 1000
            for name in phases]
fig, (left, right) = plt.subplots(1, 2, figsize=(13, 3.5))
left.bar(phases, phase_ms, color=["tab:blue", "tab:orange", "tab:green"])
left.set_ylabel("CPU total (ms) over 20 steps")
left.set_title("where a training step spends its time")
profiler.plot_top_ops(averages, n=8, ax=right)
fig.tight_layout()
plt.show()

# %% [markdown]
# On this tiny network the backward pass costs more than the forward pass: it runs about
# twice as many ops (each `AddmmBackward0` needs two matrix products and a sum, and the
# engine wraps every node in an event of its own). And no single op dominates: with 16 x 10
# matrices, the *number of calls* is what costs, since every call pays Python's overhead
# whatever the size of its arrays. With large matrices the time of a call follows its
# arithmetic instead, and the matrix products (`aten::addmm`, `aten::mm`) climb to the top.
# That is the profiler's first lesson: measure before you optimise, because the bottleneck
# moves with the sizes.
#
# ### A Chrome trace
#
# A table sums; a trace shows *when*. `export_chrome_trace` writes every event as a JSON
# object with a start (`ts`) and a duration (`dur`), both in microseconds:

# %%
with profile() as prof:
    train_step()
prof.export_chrome_trace("trace.json")

with open("trace.json") as file:
    trace = json.load(file)
for event in trace["traceEvents"][:6]:
    print(event)

# %% [markdown]
# Open `trace.json` in **chrome://tracing** (in Chrome or Edge: *Load*) or drag it into
# **https://ui.perfetto.dev**: each event becomes a bar, nested events stack under their
# parents, and you can zoom into a single backward node. The same picture, drawn by hand
# from the profile's events (`cpu_parent` gives the nesting depth):

# %%
def depth(event):
    """How many events enclose ``event``."""
    levels = 0
    while event.cpu_parent is not None:
        event, levels = event.cpu_parent, levels + 1
    return levels


fig, ax = plt.subplots(figsize=(13, 3))
for event in prof.events():
    level = depth(event)
    ax.barh(-level, event.cpu_time_total, left=event.start_us, height=0.8,
            color="tab:blue" if event.is_user_annotation else "tab:gray", edgecolor="white")
    if level == 0:
        ax.text(event.start_us, 0.5, event.name, fontsize=9)
deepest = max(depth(event) for event in prof.events())
ax.set_yticks(range(0, -deepest - 1, -1), ["depth 0", *map(str, range(1, deepest + 1))])
ax.set_xlabel("time since the profile started (us)")
ax.set_title("one training step: labels in blue, ops and backward nodes in grey")
plt.show()

# %% [markdown]
# ## 2. Inside `minitorch/autograd/profiler.py`
#
# The profiler is not magic: minitorch's core calls it. While a profile is active, the
# module variable `profiler._active` holds it, and `Function.apply` wraps every op in a
# `_push` and a `_pop` (in a `finally`, so an op that fails still closes its event):

# %%
print(inspect.getsource(minitorch.autograd.Function.apply))

# %% [markdown]
# The engine does the same around each backward node, twice: once for the
# `autograd::engine::evaluate_function: ...` wrapper and once for the node itself.
# `record_function` pushes and pops too, with the category `"user_annotation"`.
#
# `_push` appends a *record* (a plain list: name, category, shapes, parent, stack, start,
# end, bytes) to a per-thread **stack**; the record's parent is whatever was on top of the
# stack. `_pop` takes the top record off and writes its end time. Nesting comes for free:

# %%
print(inspect.getsource(profiler.profile._push))
print(inspect.getsource(profiler.profile._pop))

# %% [markdown]
# Nothing else happens while the code runs: the profiler only appends lists and reads a
# clock, to disturb the timings as little as possible. The work is done after the `with`
# block, in three steps that each build on the last:
#
# 1. `build_events` links every record to its parent and computes each **self time** as the
#    total minus the totals of its *direct* children;
# 2. `average_events` (behind `key_averages()`) groups the events by name, counting the
#    calls and summing self and total times;
# 3. `format_table` (behind `.table()`) sorts the groups and lays out torch's columns.

# %%
print(inspect.getsource(profiler.build_events))
print(inspect.getsource(profiler.average_events))

# %% [markdown]
# ## 3. Your profiler
#
# You will now write the same pipeline in a different shape. Two choices make it testable:
#
# - **Your profiler takes a clock.** `Profiler(clock)` calls `clock()` to read the time,
#   instead of calling `time.perf_counter_ns` itself. In real use you pass a real clock; in
#   tests we pass a fake one we move by hand, so every time is an exact number.
# - **Events are small records** (given below), and an event points to its parent by its
#   **index** in the profiler's list of events (`None` for a top-level event).
#
# Times are in whatever unit the clock counts. The table (exercise 4) takes microseconds.

# %%
@dataclass
class Event:
    """One profiled interval: ``start``/``end`` are clock readings (``end`` is None while the
    event is open); ``parent`` is the index of the enclosing event, or None."""

    name: str
    start: float
    end: float | None = None
    parent: int | None = None


class Average(NamedTuple):
    """All the events of one name: how many, and their summed self and total times."""

    name: str
    count: int
    self_total: float
    total: float


# %% [markdown]
# A fake clock for experiments: `clock()` returns `now[0]`, and `at(t)` moves it.

# %%
now = [0]


def clock():
    """The fake clock's reading."""
    return now[0]


def at(t):
    """Move the fake clock to ``t``."""
    now[0] = t


# %% [markdown]
# ### Exercise 1: a stack of nested events (3 points)
#
# Complete `Profiler`:
#
# - `enter(name)` reads the clock **once** and appends `Event(name, start, None, parent)` to
#   `self.events`, where `parent` is the index of the innermost event still open (`None` if
#   none is open). The new event becomes the innermost open one.
# - `exit()` reads the clock **once** and closes the innermost open event: its `end` is that
#   reading. The event that was open around it becomes the innermost again.
# - `record(name)` is a context manager (like `record_function`): it enters on the way in and
#   exits on the way out, **also when the block raises**. The exception still propagates.
#
# Events stay in `self.events` in the order they were entered.

# %% nbgrader={"schema_version": 3, "grade": false, "solution": true, "locked": false, "task": false, "grade_id": "profiler_stack"}
class Profiler:
    """Records nested events, timed with ``clock``.

    >>> prof = Profiler(clock)
    >>> at(0); prof.enter("step"); at(1); prof.enter("aten::mul"); at(3); prof.exit()
    >>> at(4); prof.exit()
    >>> prof.events
    [Event(name='step', start=0, end=4, parent=None), Event(name='aten::mul', start=1, end=3, parent=0)]
    """

    def __init__(self, clock):
        self.clock = clock
        self.events = []
        ### BEGIN SOLUTION
        self._open = []  # indices of the open events, innermost last
        ### END SOLUTION

    def enter(self, name):
        ### BEGIN SOLUTION
        parent = self._open[-1] if self._open else None
        self._open.append(len(self.events))
        self.events.append(Event(name, self.clock(), None, parent))
        ### END SOLUTION

    def exit(self):
        ### BEGIN SOLUTION
        self.events[self._open.pop()].end = self.clock()
        ### END SOLUTION

    @contextmanager
    def record(self, name):
        ### BEGIN SOLUTION
        self.enter(name)
        try:
            yield
        finally:
            self.exit()
        ### END SOLUTION


# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "profiler_stack_visible", "points": 1}
# (time, name): enter `name` at that time; (time, None): exit at that time
script = [(0, "step"), (1, "forward"), (2, "aten::mul"), (5, None), (6, "aten::sum"),
          (7, None), (9, None), (10, "backward"), (20, None), (21, None)]
now = [0]
prof = Profiler(lambda: now[0])
for now[0], name in script:
    if name is None:
        prof.exit()
    else:
        prof.enter(name)
check("the events (name, start, end, parent) the script above records",
      [(e.name, e.start, e.end, e.parent) for e in prof.events], [
          ("step", 0, 21, None),
          ("forward", 1, 9, 0),
          ("aten::mul", 2, 5, 1),
          ("aten::sum", 6, 7, 1),   # a sibling of aten::mul: its parent is forward
          ("backward", 10, 20, 0),
      ], hint="the parent is the innermost event still open, not the previous event; after "
              "exit() the event around it is the innermost again")
### BEGIN HIDDEN TESTS
prof = Profiler(lambda: now[0])
for now[0], name in [(0.0, "x"), (2.0, "y"), (3.0, "z"), (4.5, None), (6.0, None),
                     (7.0, "w"), (8.0, None), (9.0, None), (11.0, "v"), (12.5, None)]:
    if name is None:
        prof.exit()
    else:
        prof.enter(name)
observe([(e.name, e.start, e.end, e.parent) for e in prof.events])
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "profiler_stack_hidden", "points": 2}
now = [0]
prof = Profiler(lambda: now[0])
raised = False
try:
    with prof.record("step"):
        now[0] = 1
        with prof.record("aten::mul"):
            now[0] = 3
            raise ValueError("an op failed")
except ValueError:
    raised = True
now[0] = 4
with prof.record("next step"):
    now[0] = 5
check("whether the ValueError raised inside record() reached the caller", raised, True,
      hint="record() must let the exception through: do not catch it")
check("the events after an exception inside two record() blocks",
      [(e.name, e.start, e.end, e.parent) for e in prof.events],
      [("step", 0, 3, None), ("aten::mul", 1, 3, 0), ("next step", 4, 5, None)],
      hint="exit in a finally: block, so that an exception still closes every event it "
           "leaves, and the next event is top-level again")
### BEGIN HIDDEN TESTS
with minitorch.course.switched_off("profiler.build_events", "profiler.average_events",
                                   "profiler.format_table", "profiler._format_time"):
    script = [(0, "a"), (1, "b"), (2, "c"), (3, None), (4, "d"), (5, None), (6, None),
              (7, "e"), (8, None), (9, None), (10, "f"), (11, None)]
    prof = Profiler(lambda: now[0])
    for now[0], name in script:
        if name is None:
            prof.exit()
        else:
            prof.enter(name)
    expect("the events of a script with siblings three deep",
           [(e.name, e.start, e.end, e.parent) for e in prof.events],
           hint="the parent is the innermost event still open")

    # minitorch's own events, through the seam, timed by a clock that ticks at every reading
    ticks = itertools.count()
    prof = Profiler(lambda: next(ticks))
    x = minitorch.ones(3, requires_grad=True)
    with profiler.use(prof):
        with record_function("step"):
            y = (x * x).sum()
        y.backward()
    got = [(e.name, e.parent) for e in prof.events]
    expect("the first three (name, parent) pairs of minitorch's events through your profiler",
           got[:3])
    names = [name for name, _ in got]
    node = names.index("MulBackward0")
    expect("the parent of the MulBackward0 event", names[got[node][1]])
    events = prof.events
    closed = [e.end is not None and e.start < e.end for e in events]
    expect("the events not closed after they opened (index, name)",
           [(i, e.name) for i, e in enumerate(events) if not closed[i]],
           hint="read the clock once in enter() and once in exit()")
    expect("the closed events that do not lie inside their closed parent (index, name)",
           [(i, e.name) for i, e in enumerate(events) if closed[i] and e.parent is not None
            and closed[e.parent] and not (events[e.parent].start < e.start
                                          and e.end < events[e.parent].end)])
    observe(got)

    # an exception three levels deep closes every event it leaves, at the same reading
    now = [0.0]
    prof = Profiler(lambda: now[0])
    raised = False
    try:
        with prof.record("outer"):
            now[0] = 2.0
            with prof.record("inner"):
                now[0] = 5.0
                with prof.record("leaf"):
                    now[0] = 6.5
                    raise KeyError("a backward node failed")
    except KeyError:
        raised = True
    now[0] = 8.0
    with prof.record("after"):
        now[0] = 9.0
    observe(raised, [(e.name, e.start, e.end, e.parent) for e in prof.events])
### END HIDDEN TESTS

# %% [markdown]
# ### Exercise 2: self time (3 points)
#
# Write `self_times(events)`: for each event (closed ones, as your profiler makes them), its
# **self time**, the event's total time (`end - start`) minus the total times of its
# **direct children** (the events whose `parent` is its index). Return them as a list in the
# order of `events`. Children come after their parent in the list.
#
# Careful: a grandchild's time is already inside its parent's total. Subtract it once, not
# twice. For the profile of the visible test above: `step` took 21, its children `forward`
# (8) and `backward` (10), so its self time is 3.

# %% nbgrader={"schema_version": 3, "grade": false, "solution": true, "locked": false, "task": false, "grade_id": "self_time"}
def self_times(events):
    """Each event's total time minus its direct children's total times.

    >>> self_times([Event("step", 0, 10), Event("aten::mul", 2, 5, 0)])
    [7, 3]
    """
    ### BEGIN SOLUTION
    result = [e.end - e.start for e in events]
    for e in events:
        if e.parent is not None:
            result[e.parent] -= e.end - e.start
    return result
    ### END SOLUTION


# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "self_time_visible", "points": 1}
events = [Event("step", 0, 21), Event("forward", 1, 9, 0), Event("aten::mul", 2, 5, 1),
          Event("aten::sum", 6, 7, 1), Event("backward", 10, 20, 0)]
check("self_times of the visible profile (step > forward > aten::mul, aten::sum; "
      "step > backward)", self_times(events), [3, 4, 3, 1, 10], mistakes={
          "the children are not subtracted (self time = total time)": [21, 8, 3, 1, 10],
          "every descendant is subtracted, grandchildren twice": [-1, 4, 3, 1, 10],
          "the children's self times are subtracted instead of their totals": [7, 4, 3, 1, 10],
      }, hint="self time = the event's total minus its direct children's totals; a grandchild is already inside its parent's total")
check("self_times of one event alone (5 to 12)", self_times([Event("alone", 5, 12)]), [7])
### BEGIN HIDDEN TESTS
observe(self_times([Event("a", 0.0, 50.0), Event("b", 5.0, 25.0, 0),
                    Event("c", 6.0, 9.0, 1), Event("d", 30.0, 44.0, 0),
                    Event("e", 50.0, 60.0)]))
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "self_time_hidden", "points": 2}
# four levels: a > b > c > d, and a second top-level tree
events = [Event("a", 0, 100), Event("b", 10, 60, 0), Event("c", 20, 50, 1),
          Event("d", 30, 35, 2), Event("x", 100, 130), Event("y", 101, 111, 4)]
check("self_times of a four-level tree a > b > c > d and a second tree x > y",
      self_times(events), [50, 20, 25, 5, 20, 10], mistakes={
          "the children are not subtracted (self time = total time)": [100, 50, 30, 5, 30, 10],
          "every descendant is subtracted, grandchildren twice": [15, 15, 25, 5, 20, 10],
          "the children's self times are subtracted instead of their totals": [
              80, 25, 25, 5, 20, 10],
      }, hint="self time = the event's total minus its direct children's totals; a grandchild is already inside its parent's total")
### BEGIN HIDDEN TESTS
with minitorch.course.switched_off("profiler.build_events", "profiler.average_events",
                                   "profiler.format_table", "profiler._format_time"):
    expect("self_times([])", self_times([]))
    # the children of "root" are not next to each other in the list
    events = [Event("root", 0, 1000), Event("p", 0, 400, 0), Event("q", 10, 390, 1),
              Event("r", 20, 30, 2), Event("s", 400, 900, 0), Event("t", 500, 700, 4),
              Event("u", 510, 520, 5), Event("v", 530, 560, 5), Event("w", 900, 950, 0)]
    expect("self_times of a tree whose children are not next to each other in the list",
           self_times(events),
           hint="find the children by their parent index, not by their place in the list")
    events = [Event("evaluate_function: MulBackward0", 1.5, 9.0),
              Event("MulBackward0", 2.0, 8.5, 0), Event("aten::mul", 2.5, 4.0, 1),
              Event("aten::mul", 4.5, 8.0, 1)]
    expect("self_times with float times and two children of the same name", self_times(events),
           hint="children of the same name are each subtracted, once each")
    observe(self_times([Event("r", 0.0, 90.0), Event("s", 1.0, 80.0, 0),
                        Event("t", 2.0, 70.0, 1), Event("u", 3.0, 60.0, 2),
                        Event("v", 61.0, 65.0, 2), Event("w", 81.0, 88.0, 0)]))
### END HIDDEN TESTS

# %% [markdown]
# ### Exercise 3: `key_averages` (3 points)
#
# Write `key_averages(events, selfs)`, where `selfs[i]` is the self time of `events[i]`.
# Group the events by **name** and return one `Average(name, count, self_total, total)` per
# name: how many events have that name, the sum of their self times, and the sum of their
# total times (`end - start`). Give the groups in the order in which their names **first
# appear** in `events`.
#
# Events with the same name are one row even when they sit under different parents.

# %% nbgrader={"schema_version": 3, "grade": false, "solution": true, "locked": false, "task": false, "grade_id": "key_averages"}
def key_averages(events, selfs):
    """Count the events per name and sum their self and total times.

    >>> key_averages([Event("aten::mul", 0, 2), Event("aten::mul", 3, 4)], [2, 1])
    [Average(name='aten::mul', count=2, self_total=3, total=3)]
    """
    ### BEGIN SOLUTION
    groups = {}
    for event, self_time in zip(events, selfs):
        count, self_total, total = groups.get(event.name, (0, 0, 0))
        groups[event.name] = (count + 1, self_total + self_time,
                              total + event.end - event.start)
    return [Average(name, *sums) for name, sums in groups.items()]
    ### END SOLUTION


# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "key_averages_visible", "points": 1}
events = [Event("step", 0, 30), Event("aten::mul", 1, 4, 0), Event("aten::sum", 5, 6, 0),
          Event("aten::mul", 7, 12, 0), Event("MulBackward0", 13, 25, 0),
          Event("aten::mul", 14, 20, 4)]
check("key_averages of the events above, with self times [9, 3, 1, 5, 6, 6]",
      key_averages(events, [9, 3, 1, 5, 6, 6]), [
          ("step", 1, 9, 30), ("aten::mul", 3, 14, 14), ("aten::sum", 1, 1, 1),
          ("MulBackward0", 1, 6, 12)], mistakes={
          "a name is grouped with its parent (one row per name and parent)": [
              ("step", 1, 9, 30), ("aten::mul", 2, 8, 8), ("aten::sum", 1, 1, 1),
              ("MulBackward0", 1, 6, 12), ("aten::mul", 1, 6, 6)],
          "the rows hold averages per call instead of sums": [
              ("step", 1, 9, 30), ("aten::mul", 3, 14 / 3, 14 / 3), ("aten::sum", 1, 1, 1),
              ("MulBackward0", 1, 6, 12)],
          "the rows are sorted by name": [
              ("MulBackward0", 1, 6, 12), ("aten::mul", 3, 14, 14), ("aten::sum", 1, 1, 1),
              ("step", 1, 9, 30)],
      }, hint="one row per name, in the order names first appear, with the count and the sums (not averages) of the self and total times")
### BEGIN HIDDEN TESTS
observe(key_averages([Event("p", 0.0, 9.0), Event("q", 1.0, 3.0, 0), Event("p", 4.0, 8.0, 0),
                      Event("q", 10.0, 11.0)], [5.0, 2.0, 4.0, 1.0]))
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "key_averages_hidden", "points": 2}
events = [Event("b", 0, 10), Event("a", 10, 15), Event("b", 15, 16), Event("b", 16, 26)]
check("key_averages of b, a, b, b with self times [10, 5, 1, 10]",
      key_averages(events, [10, 5, 1, 10]), [("b", 3, 21, 21), ("a", 1, 5, 5)], mistakes={
          "the rows are sorted by name": [("a", 1, 5, 5), ("b", 3, 21, 21)],
          "only the last event of a name is kept": [("b", 1, 10, 10), ("a", 1, 5, 5)],
      }, hint="one row per name, in the order names first appear, with the count and the sums (not averages) of the self and total times")
### BEGIN HIDDEN TESTS
with minitorch.course.switched_off("profiler.build_events", "profiler.average_events",
                                   "profiler.format_table", "profiler._format_time"):
    expect("key_averages([], [])", key_averages([], []))
    events = [Event("outer", 0, 100), Event("outer", 10, 60, 0), Event("mm", 20, 30, 1),
              Event("mm", 70, 75, 0), Event("zz", 80, 81, 0)]
    # the same name nested in itself: both calls count, as in torch
    expect("key_averages of a name nested in itself", key_averages(events, [45, 40, 10, 5, 1]),
           hint="both calls of a name nested in itself count, as in torch")
    averages = key_averages([Event("aten::t", 0.5, 1.0), Event("aten::t", 2.0, 2.25)],
                            [0.5, 0.25])
    expect("key_averages of two aten::t with float times", averages)
    expect("the type of an Average's count", type(averages[0].count).__name__,
           hint="count the events: an int, even when the times are floats")
    observe(key_averages([Event("m", 0.0, 10.0), Event("n", 1.0, 5.0, 0),
                          Event("m", 2.0, 4.0, 1), Event("n", 6.0, 9.0, 0),
                          Event("o", 10.0, 12.0)], [3.0, 2.0, 2.0, 3.0, 2.0]))
### END HIDDEN TESTS

# %% [markdown]
# ### Exercise 4: torch's table (3 points)
#
# Write `table(averages, sort_by="self_cpu_time_total", row_limit=None)`, which lays out a
# list of `Average`s (times in **microseconds**) as torch's profiler table:
#
# - a header row with the columns `Name`, `Self CPU %`, `Self CPU`, `CPU total %`,
#   `CPU total`, `CPU time avg`, `# of Calls`; then one row per average; then a last line
#   `Self CPU time total: <time>`. Lines of dashes between them are welcome.
# - columns separated by **at least two spaces** (names may hold single spaces);
# - percentages are of the **sum of all self times** (of every average, also those cut by
#   `row_limit`), with two decimals: `12.50%`;
# - a time `t` in microseconds is written with three decimals in the largest unit it
#   reaches: `t >= 1_000_000` in `s`, else `t >= 1000` in `ms`, else in `us`:
#   `2.000s`, `1.500ms`, `12.345us`;
# - `CPU time avg` is the total divided by the number of calls;
# - rows are sorted by `sort_by`, largest first: `"self_cpu_time_total"` (self time),
#   `"cpu_time_total"` (total time) or `"count"`; rows that tie keep their order;
# - `row_limit` keeps only the first rows (after sorting); `None` keeps them all.

# %% nbgrader={"schema_version": 3, "grade": false, "solution": true, "locked": false, "task": false, "grade_id": "table"}
def table(averages, sort_by="self_cpu_time_total", row_limit=None):
    """torch's profiler table of ``averages`` (times in microseconds), as a string.

    ``print(table([Average("aten::mm", 2, 30.0, 40.0)]))`` shows, between lines of dashes:

            Name  Self CPU %  Self CPU  CPU total %  CPU total  CPU time avg  # of Calls
        aten::mm     100.00%  30.000us      133.33%   40.000us      20.000us           2
        Self CPU time total: 30.000us
    """
    ### BEGIN SOLUTION
    keys = {"self_cpu_time_total": lambda a: a.self_total,
            "cpu_time_total": lambda a: a.total, "count": lambda a: a.count}
    rows = sorted(averages, key=keys[sort_by], reverse=True)[:row_limit]
    everything = sum(a.self_total for a in averages)

    def share(t):
        return f"{100 * t / everything:.2f}%" if everything else "NaN"

    def fmt(t):
        for unit, scale in (("s", 1e6), ("ms", 1e3)):
            if t >= scale:
                return f"{t / scale:.3f}{unit}"
        return f"{t:.3f}us"

    titles = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg",
              "# of Calls"]
    cells = [titles] + [[a.name, share(a.self_total), fmt(a.self_total), share(a.total),
                         fmt(a.total), fmt(a.total / a.count), str(a.count)] for a in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(titles))]
    lines = ["  ".join(f"{cell:>{w}}" for cell, w in zip(row, widths)) for row in cells]
    dashes = "  ".join("-" * w for w in widths)
    return "\n".join([dashes, lines[0], dashes, *lines[1:], dashes,
                      f"Self CPU time total: {fmt(everything)}"])
    ### END SOLUTION


# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "table_visible", "points": 1}
text = table([Average("aten::mul", 3, 30.0, 30.0), Average("step", 1, 10.0, 80.0),
              Average("MulBackward0", 2, 40.0, 50.0)])
cells = [re.split(r"\s{2,}", line.strip()) for line in text.splitlines()
         if line.strip() and set(line.strip()) - set("- ")]
check("the header row of the table, split at runs of two or more spaces", cells[0],
      ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg",
       "# of Calls"], hint="separate the columns by at least two spaces")
check("the rows of the table, sorted by self time", cells[1:-1], [
    ["MulBackward0", "50.00%", "40.000us", "62.50%", "50.000us", "25.000us", "2"],
    ["aten::mul", "37.50%", "30.000us", "37.50%", "30.000us", "10.000us", "3"],
    ["step", "12.50%", "10.000us", "100.00%", "80.000us", "80.000us", "1"]], mistakes={
    "the percentages are of the sum of the total times": [
        ["MulBackward0", "25.00%", "40.000us", "31.25%", "50.000us", "25.000us", "2"],
        ["aten::mul", "18.75%", "30.000us", "18.75%", "30.000us", "10.000us", "3"],
        ["step", "6.25%", "10.000us", "50.00%", "80.000us", "80.000us", "1"]],
    "the rows keep their order instead of being sorted by self time": [
        ["aten::mul", "37.50%", "30.000us", "37.50%", "30.000us", "10.000us", "3"],
        ["step", "12.50%", "10.000us", "100.00%", "80.000us", "80.000us", "1"],
        ["MulBackward0", "50.00%", "40.000us", "62.50%", "50.000us", "25.000us", "2"]],
    }, hint="percentages are of the sum of all self times (also of rows cut by row_limit); times have three decimals in the largest unit they reach")
check("the last line of the table", cells[-1], ["Self CPU time total: 80.000us"])
### BEGIN HIDDEN TESTS
text = table([Average("x", 2, 12.5, 40.0), Average("y", 5, 27.5, 27.5)])
observe([re.split(r"\s{2,}", line.strip()) for line in text.splitlines()
         if line.strip() and set(line.strip()) - set("- ")])
### END HIDDEN TESTS

# %% nbgrader={"schema_version": 3, "grade": true, "solution": false, "locked": true, "task": false, "grade_id": "table_hidden", "points": 2}
averages = [Average("autograd::engine::evaluate_function: AddmmBackward0", 4, 500.0, 3_000_000.0),
            Average("aten::addmm", 4, 2_500_000.0, 2_500_000.0),
            Average("aten::t", 12, 1_500.25, 1_500.25)]
text = table(averages, sort_by="cpu_time_total", row_limit=2)
cells = [re.split(r"\s{2,}", line.strip()) for line in text.splitlines()
         if line.strip() and set(line.strip()) - set("- ")]
check("the table sorted by cpu_time_total with row_limit=2 (rows, then the last line)",
      cells[1:], [
          ["autograd::engine::evaluate_function: AddmmBackward0", "0.02%", "500.000us",
           "119.90%", "3.000s", "750.000ms", "4"],
          ["aten::addmm", "99.92%", "2.500s", "99.92%", "2.500s", "625.000ms", "4"],
          ["Self CPU time total: 2.502s"]], mistakes={
          "the percentages and the total count only the rows row_limit keeps": [
              ["autograd::engine::evaluate_function: AddmmBackward0", "0.02%", "500.000us",
               "119.98%", "3.000s", "750.000ms", "4"],
              ["aten::addmm", "99.98%", "2.500s", "99.98%", "2.500s", "625.000ms", "4"],
              ["Self CPU time total: 2.501s"]],
      }, hint="percentages are of the sum of all self times (also of rows cut by row_limit); times have three decimals in the largest unit they reach")
### BEGIN HIDDEN TESTS
with minitorch.course.switched_off("profiler.build_events", "profiler.average_events",
                                   "profiler.format_table", "profiler._format_time"):
    averages = [Average("a", 1, 4.0, 4.0), Average("b", 7, 6.0, 9.0),
                Average("c", 2, 980.0, 1_000.0), Average("d", 7, 0.5, 0.5)]
    text = table(averages, sort_by="count")
    cells = [re.split(r"\s{2,}", line.strip()) for line in text.splitlines()
             if line.strip() and set(line.strip()) - set("- ")]
    expect("the header row of a table sorted by count", cells[0])
    expect("a table sorted by count, ties kept in their order", cells[1:],
           hint="sort largest first with a stable sort, so that rows that tie keep their order")
    text = table(averages, row_limit=1)
    cells = [re.split(r"\s{2,}", line.strip()) for line in text.splitlines()
             if line.strip() and set(line.strip()) - set("- ")]
    expect("a table with row_limit=1", cells[1:],
           hint="the percentages and the total count every average, also those row_limit cuts")
    averages = [Average("big", 1, 2_000.0, 3_500_000.0), Average("small", 3, 3.0, 6.0),
                Average("tied", 3, 1.0, 1_200.0), Average("tiny", 2, 0.25, 0.5)]
    for sort_by, row_limit in (("cpu_time_total", 3), ("count", None)):
        text = table(averages, sort_by=sort_by, row_limit=row_limit)
        observe([re.split(r"\s{2,}", line.strip()) for line in text.splitlines()
                 if line.strip() and set(line.strip()) - set("- ")])
### END HIDDEN TESTS

# %% [markdown] id="plug-it-in"
# ## 4. Plug it in
#
# `profiler.use(my_profiler)` makes your profiler the active one: inside the block, every op,
# backward node and `record_function` that minitorch runs calls your `enter(name)` and
# `exit()`, exactly where it would call `profile._push` and `_pop`. Give it a real clock
# that counts microseconds, profile the notes' MLP, and print your own table:

# %%
def microseconds():
    """A real clock, in microseconds."""
    return time.perf_counter_ns() / 1000


minitorch.manual_seed(0)
mlp = MLP()
x = minitorch.ones([10], requires_grad=True)
with minitorch.course.needs("profiler_stack", "self_time", "key_averages", "table"):
    mine = Profiler(microseconds)
    with profiler.use(mine):
        for _ in range(100):
            with record_function("iteration"):
                y = minitorch.sum(mlp(x))
                y.backward()

    print(table(key_averages(mine.events, self_times(mine.events)), row_limit=12))

# %% [markdown]
# Compare with minitorch's table at the top of the chapter: the same rows with the same
# numbers of calls. One row is new, `iteration`, our label: its `CPU total %` is 100 %, since
# everything else ran inside it. The times are larger than minitorch's: your profiler runs
# Python code (a method call, a new `Event`) at every enter and exit, and that overhead lands
# inside the events it measures. Real profilers fight the same effect, which is why
# minitorch's `_push` only appends a list and torch records its events in C++.
#
# ## 5. What PyTorch does
#
# `torch.autograd.profiler.profile` has the same table, and the same idea: every op pushes
# and pops an event (in C++, through the *RecordFunction* callbacks of ATen, so also the ops
# that ops call: `aten::linear` calls `aten::t` and `aten::addmm`, `aten::empty` allocates).
# Its newer front end, `torch.profiler.profile`, adds CUDA kernels, memory, schedules that
# skip warm-up steps, and TensorBoard export, but reads the same events. The labelled training
# step of section 1, with the notes' MLP (`fc1` ... `fc4`), in torch: its `AddmmBackward0`
# has the nested `aten::mm` rows that minitorch's lacks.

# %%
if os.environ.get("NBGRADER_EXECUTION"):
    torch = None  # a grading run has no use for torch: skip its slow import
else:
    try:
        import torch
    except ImportError:
        torch = None

if torch is None:
    print("torch is not installed (or this is a grading run): skipped")
else:
    class TorchMLP(torch.nn.Module):
        """The notes' MLP, in torch."""

        def __init__(self):
            super().__init__()
            self.fc1 = torch.nn.Linear(10, 5)
            self.relu = torch.nn.ReLU()
            self.fc2 = torch.nn.Linear(5, 2)
            self.fc3 = torch.nn.Linear(5, 2)
            self.fc4 = torch.nn.Linear(2, 2)

        forward = MLP.forward  # the same Python code: it only calls the layers

    torch.manual_seed(0)
    torch_mlp = TorchMLP()
    torch_optimizer = torch.optim.SGD(torch_mlp.parameters(), lr=0.1)
    torch_inputs, torch_targets = torch.randn(16, 10), torch.randn(16, 2)
    with torch.autograd.profiler.profile() as torch_prof:
        for _ in range(5):
            with torch.autograd.profiler.record_function("forward"):
                loss = torch.nn.functional.mse_loss(torch_mlp(torch_inputs), torch_targets)
            with torch.autograd.profiler.record_function("backward"):
                torch_optimizer.zero_grad()
                loss.backward()
            with torch.autograd.profiler.record_function("optimizer step"):
                torch_optimizer.step()
    print(torch_prof.key_averages().table(sort_by="cpu_time_total", row_limit=10))

# %% [markdown]
# ## Summary
#
# - A profiler is a stack: every op *enters* an event and *exits* it, so events nest; the
#   core closes the event in a `finally`, so a failing op leaves the stack balanced.
# - **Total** time is an event's whole interval; **self** time subtracts its direct
#   children's totals (never the grandchildren's: they are inside the children already).
# - `key_averages` groups by name; the table sorts and formats; percentages are of the sum
#   of self times.
# - `record_function` labels your own blocks; a Chrome trace (chrome://tracing, Perfetto)
#   shows when each event ran. Measure first: the bottleneck moves with the sizes.
