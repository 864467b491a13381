"""The autograd profiler: time every op and backward node, then summarise them.

While a :class:`profile` is active, the core brackets each forward op and each backward
node with ``_push(name, cat, shapes)`` / ``_pop(nbytes)``. The profiler keeps one stack per
thread, so events nest: an event's *total* time is its whole interval, its *self* time is
the total minus its direct children's totals. After the ``with`` block, the events can be
averaged per name (:meth:`profile.key_averages`), printed as torch's table, or exported
for chrome://tracing / Perfetto.

Example:
    >>> import minitorch
    >>> from minitorch.autograd.profiler import profile, record_function
    >>> x = minitorch.ones(3, requires_grad=True)
    >>> with profile() as prof:
    ...     with record_function("step"):
    ...         (x * x).sum().backward()
    >>> print(prof.key_averages().table(sort_by="self_cpu_time_total"))  # doctest: +SKIP
"""

from __future__ import annotations

import functools
import json
import os
import sys
import threading
import warnings
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from operator import attrgetter
from time import perf_counter_ns
from typing import Any, Protocol, TypeVar

from .. import backend, course
from .torch_events import FORWARD, WORK, holds_work, recorded_shapes

__all__ = [
    "EventList",
    "FunctionEvent",
    "FunctionEventAvg",
    "plot_top_ops",
    "profile",
    "record_function",
    "use",
]

_F = TypeVar("_F", bound=Callable[..., Any])
_R = TypeVar("_R")

_active: profile | None = None
"""The running profile, or None. The core checks it before calling ``_push``/``_pop``."""

# An event is recorded as a plain list, the cheapest record to build on the hot path; these
# indices name its fields. PARENT is the enclosing record on the same thread, or, for a
# top-level event, the thread's id (each thread's stack starts with its id). START and END
# are perf_counter_ns readings; END is None while the event is open. DEVICE_START/END are
# CUDA events, recorded only when the profile times the GPU too.
_NAME, _CAT, _SHAPES, _PARENT, _STACK, _START, _END, _NBYTES, _DEVICE_START, _DEVICE_END = (
    range(10))

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_STACK_DEPTH = 5
_COLUMN_WIDTH = 12
_TIME_UNITS = {"s": 1e6, "ms": 1e3, "us": 1.0}


def _python_stack() -> list[str]:
    """The innermost frames outside minitorch, as ``"file(line): function"`` strings."""
    entries = []
    frame = sys._getframe(1)
    while frame is not None and len(entries) < _STACK_DEPTH:
        code = frame.f_code
        if not code.co_filename.startswith(_PACKAGE_DIR):
            entries.append(f"{code.co_filename}({frame.f_lineno}): {code.co_name}")
        frame = frame.f_back
    return entries


class _EventStats:
    """What the table shows of one event or one group of events (times in microseconds)."""

    __slots__ = (
        "count",
        "cpu_memory_usage",
        "cpu_time_total",
        "device_time_total",
        "input_shapes",
        "is_user_annotation",
        "key",
        "self_cpu_memory_usage",
        "self_cpu_time_total",
        "self_device_time_total",
        "stack",
    )

    @property
    def cpu_time(self) -> float:
        """Average total time per call, in microseconds."""
        return self.cpu_time_total / self.count if self.count else 0.0

    @property
    def device_time(self) -> float:
        """Average GPU time per call, in microseconds (0 unless the GPU was timed)."""
        return self.device_time_total / self.count if self.count else 0.0


class FunctionEvent(_EventStats):
    """One recorded call: an op, a backward node or a :class:`record_function` block.

    Times are microseconds since the profile started; ``cpu_parent``/``cpu_children`` give
    the nesting on the event's thread. ``cpu_memory_usage`` counts the bytes of the
    outputs of the event and of everything nested in it.

    Example:
        >>> with profile() as prof:
        ...     with record_function("block"):
        ...         pass
        >>> evt = prof.events()[0]
        >>> evt.name, evt.count, evt.cpu_parent
        ('block', 1, None)
    """

    __slots__ = ("cat", "cpu_children", "cpu_parent", "end_us", "id", "name", "start_us",
                 "thread")

    def __init__(self, id: int, record: list, thread: int, t0: int,
                 record_shapes: bool) -> None:
        self.id = id
        # torch names every step of a scheduled profile alike, so the steps sum into one row
        self.name = self.key = "ProfilerStep*" if record[_NAME].startswith("ProfilerStep#") \
            else record[_NAME]
        self.cat = record[_CAT]
        self.is_user_annotation = self.cat == "user_annotation"
        self.thread = thread
        self.start_us = (record[_START] - t0) / 1000
        self.end_us = (record[_END] - t0) / 1000
        self.cpu_time_total = (record[_END] - record[_START]) / 1000
        self.device_time_total = (backend.cuda_elapsed_us(record[_DEVICE_START],
                                                          record[_DEVICE_END])
                                  if record[_DEVICE_START] is not None else 0.0)
        shapes = record[_SHAPES] if record_shapes else None
        self.input_shapes = [list(shape) for shape in shapes or ()]
        self.stack = record[_STACK] or []
        self.count = 1
        self.cpu_parent: FunctionEvent | None = None
        self.cpu_children: list[FunctionEvent] = []

    def __repr__(self) -> str:
        return (f"<FunctionEvent id={self.id} name={self.name} thread={self.thread} "
                f"cpu_time={_format_time(self.cpu_time_total)} "
                f"start_us={self.start_us} end_us={self.end_us} "
                f"input_shapes={self.input_shapes} cpu_memory_usage={self.cpu_memory_usage}>")


class FunctionEventAvg(_EventStats):
    """The sum of several events with the same key; ``cpu_time`` is the average per call.

    Example:
        >>> with profile() as prof:
        ...     for _ in range(3):
        ...         with record_function("step"):
        ...             pass
        >>> avg = prof.key_averages()[0]
        >>> avg.key, avg.count
        ('step', 3)
    """

    __slots__ = ()

    def __init__(self, first: _EventStats | None = None) -> None:
        """Empty, with the key, shapes and stack of ``first``; without it none of them and,
        as torch's, no ``is_user_annotation`` at all."""
        self.key = self.input_shapes = self.stack = None
        if first is not None:
            self.key, self.input_shapes, self.stack = first.key, first.input_shapes, first.stack
            self.is_user_annotation = first.is_user_annotation
        self.count = 0
        self.cpu_time_total = self.self_cpu_time_total = 0.0
        self.device_time_total = self.self_device_time_total = 0.0
        self.cpu_memory_usage = self.self_cpu_memory_usage = 0

    def add(self, other: _EventStats) -> FunctionEventAvg:
        """Accumulate another event (or average) with the same key into this one."""
        self.count += other.count
        self.cpu_time_total += other.cpu_time_total
        self.self_cpu_time_total += other.self_cpu_time_total
        self.device_time_total += other.device_time_total
        self.self_device_time_total += other.self_device_time_total
        self.cpu_memory_usage += other.cpu_memory_usage
        self.self_cpu_memory_usage += other.self_cpu_memory_usage
        return self

    def __repr__(self) -> str:
        return (f"<FunctionEventAvg key={self.key} "
                f"self_cpu_time={_format_time(self.self_cpu_time_total)} "
                f"cpu_time={_format_time(self.cpu_time)} input_shapes={self.input_shapes} "
                f"cpu_memory_usage={self.cpu_memory_usage}>")


class EventList(list):
    """A list of events (raw or averaged) that prints as torch's profiler table.

    Example:
        >>> with profile() as prof:
        ...     with record_function("block"):
        ...         pass
        >>> events = prof.events()
        >>> events.table(row_limit=5).splitlines()[1].split()[:4]
        ['Name', 'Self', 'CPU', '%']
    """

    def __init__(self, events: Iterable[_EventStats] = (), profile_memory: bool = False):
        super().__init__(events)
        self._profile_memory = profile_memory

    def __str__(self) -> str:
        return self.table()

    @property
    def self_cpu_time_total(self) -> float:
        """The sum of all self times, in microseconds (the table's footer)."""
        return sum(evt.self_cpu_time_total for evt in self)

    def key_averages(self, group_by_input_shapes: bool = False,
                     group_by_stack_n: int = 0) -> EventList:
        """Sum the events per name (and per input shapes / top stack frames if asked).

        Example:
            >>> with profile() as prof:
            ...     for _ in range(2):
            ...         with record_function("a"):
            ...             pass
            >>> [(e.key, e.count) for e in prof.events().key_averages()]
            [('a', 2)]
        """
        return average_events(self, group_by_input_shapes, group_by_stack_n)

    def total_average(self) -> FunctionEventAvg:
        """All the events summed into one, whose key is ``"Total"``.

        Example:
            >>> with profile() as prof:
            ...     for _ in range(2):
            ...         with record_function("a"):
            ...             pass
            >>> total = prof.events().total_average()
            >>> total.key, total.count
            ('Total', 2)
        """
        # torch's sum forgets its key after each event, so takes the last one's fields
        total = FunctionEventAvg(self[-1] if self else None)
        for evt in self:
            total.add(evt)
        total.key = "Total"
        return total

    def table(self, sort_by: str | None = None, row_limit: int = 100,
              max_src_column_width: int = 75, max_name_column_width: int = 55,
              max_shapes_column_width: int = 80, header: str | None = None,
              time_unit: str | None = None) -> str:
        """Format the events as torch's profiler table.

        ``sort_by`` names an event attribute to sort on, largest first: ``"cpu_time"``,
        ``"cpu_time_total"``, ``"self_cpu_time_total"``, ``"count"``, ``"cpu_memory_usage"``,
        ``"self_cpu_memory_usage"``; None keeps the recording order. ``row_limit`` caps the
        rows (a negative value shows all); ``time_unit`` ("s", "ms", "us") fixes the unit.

        Example:
            >>> with profile() as prof:
            ...     with record_function("block"):
            ...         pass
            >>> prof.key_averages().table(sort_by="count").splitlines()[-1][:20]
            'Self CPU time total:'
        """
        return format_table(self, sort_by, row_limit, header=header, time_unit=time_unit,
                            widths={"name": max_name_column_width,
                                    "shapes": max_shapes_column_width,
                                    "src": max_src_column_width})

    def export_chrome_trace(self, path: str) -> None:
        """Write the raw events as a Chrome trace (chrome://tracing, Perfetto).

        Example:
            >>> with profile() as prof:
            ...     with record_function("block"):
            ...         pass
            >>> prof.events().export_chrome_trace("trace.json")  # doctest: +SKIP
        """
        pid = os.getpid()
        trace = [{"ph": "X", "cat": evt.cat, "name": evt.name, "pid": pid, "tid": evt.thread,
                  "ts": evt.start_us, "dur": evt.cpu_time_total,
                  "args": {"Input Dims": evt.input_shapes} if evt.input_shapes else {}}
                 for evt in self]
        with open(path, "w") as f:
            json.dump({"traceEvents": trace, "displayTimeUnit": "ms"}, f)


class profile:
    """Context manager that records every op and backward node run inside it.

    Args:
        enabled: False makes the context manager a no-op (``with`` binds None).
        record_shapes: keep the input shapes of each op (see ``group_by_input_shape``).
        profile_memory: show the bytes of the ops' outputs (``CPU Mem`` columns).
        with_stack: keep a short Python stack (your code, not minitorch's) per event.
        use_device: ``"cuda"`` also times each event on the GPU with CUDA events (the
            ``Self CUDA`` / ``CUDA total`` columns); without a GPU it warns and times the CPU.
        use_cuda: torch's older spelling of ``use_device="cuda"`` (it warns that it is
            deprecated); False leaves ``use_device`` as given.

    Example:
        >>> import minitorch
        >>> x = minitorch.ones(2, 2, requires_grad=True)
        >>> with profile(record_shapes=True) as prof:
        ...     (x * x).sum().backward()
        >>> print(prof.key_averages().table(sort_by="cpu_time_total"))  # doctest: +SKIP
    """

    def __init__(self, enabled: bool = True, *, record_shapes: bool = False,
                 profile_memory: bool = False, with_stack: bool = False,
                 use_device: str | None = None, use_cuda: bool = False) -> None:
        if use_cuda:
            warnings.warn("The attribute `use_cuda` will be deprecated soon, please use "
                          "``use_device = 'cuda'`` instead.", FutureWarning, stacklevel=2)
            use_device = "cuda"
        if use_device not in (None, "cuda"):
            raise ValueError(f"use_device must be None or 'cuda', got {use_device!r}")
        if use_device == "cuda" and not backend.cuda_device_count():
            warnings.warn("CUDA is not available, disabling CUDA profiling", stacklevel=2)
            use_device = None
        self.use_device = use_device
        self.enabled = enabled
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.entered = False
        self._records: list[list] = []
        self._local = threading.local()  # .stack: [thread id, open events...]
        self._t0 = self._t1 = 0
        self._function_events: EventList | None = None

    def __enter__(self) -> profile | None:
        global _active
        if not self.enabled:
            return None
        if self.entered:
            raise RuntimeError("Profiler context manager is not reentrant")
        if isinstance(_active, profile):  # as torch: the session moves to this profile, and
            _active._records = []  # the one it was in ends with no events at all
        elif _active is not None:
            raise RuntimeError("Profiler is already enabled on this thread")
        self.entered = True
        self._t0 = perf_counter_ns()
        _active = self
        return self

    def __exit__(self, *exc_info: object) -> bool | None:
        global _active
        if not self.enabled:
            return None
        self._t1 = perf_counter_ns()
        if self.use_device:
            backend.synchronize()  # every recorded CUDA event must have happened
        _active = None
        self._local = threading.local()  # a _pop arriving after the end is ignored
        return False

    def _push(self, name: str, cat: str, shapes: list[tuple[int, ...]] | None) -> None:
        """Open an event on this thread; the caller must ``_pop`` it (in a ``finally``).

        ``shapes`` (the inputs' shapes) is only kept when ``record_shapes`` is set, so a
        caller may pass None otherwise.
        """
        try:
            stack = self._local.stack
        except AttributeError:  # the first event of this thread
            stack = self._local.stack = [threading.get_native_id()]
        if _muted.depth:
            return
        record = [name, cat, shapes, stack[-1],
                  _python_stack() if self.with_stack else None, 0, None, 0, None, None]
        stack.append(record)
        self._records.append(record)
        if self.use_device:
            record[_DEVICE_START] = backend.cuda_event()
        record[_START] = perf_counter_ns()

    def _pop(self, nbytes: int) -> None:
        """Close this thread's innermost event; ``nbytes`` is the size of its outputs."""
        end = perf_counter_ns()
        if _muted.depth:
            return
        try:
            stack = self._local.stack
        except AttributeError:
            return  # no event was opened on this thread while the profile ran
        record = stack.pop()
        try:
            record[_END] = end
        except TypeError:  # only the thread id was left: the event predates the profile
            stack.append(record)
            return
        record[_NBYTES] = nbytes
        if self.use_device:
            record[_DEVICE_END] = backend.cuda_event()

    @property
    def function_events(self) -> EventList:
        """The raw events in recording order (empty until the ``with`` block ends)."""
        if self._function_events is None:
            if not self.entered or _active is self:
                return EventList(profile_memory=self.profile_memory)
            self._function_events = build_events(self._close(), self._t0,
                                                    self.record_shapes, self.profile_memory)
        return self._function_events

    def events(self) -> EventList:
        """The raw events, as :attr:`function_events`.

        Example:
            >>> with profile() as prof:
            ...     with record_function("block"):
            ...         pass
            >>> [e.name for e in prof.events()]
            ['block']
        """
        return self.function_events

    def _close(self) -> list[list]:
        """The records, with events left open at exit ending when the profile ended."""
        for record in self._records:
            if record[_END] is None:
                record[_END] = max(self._t1, record[_START])
        return self._records

    def key_averages(self, group_by_input_shape: bool = False,
                     group_by_stack_n: int = 0) -> EventList:
        """The events summed per name, as torch's ``FunctionEventAvg`` list.

        Example:
            >>> with profile() as prof:
            ...     with record_function("block"):
            ...         pass
            >>> prof.key_averages()[0].key
            'block'
        """
        return self.function_events.key_averages(group_by_input_shape, group_by_stack_n)

    def total_average(self) -> FunctionEventAvg:
        """All the events summed into one (see :meth:`EventList.total_average`).

        Example:
            >>> with profile() as prof:
            ...     with record_function("block"):
            ...         pass
            >>> prof.total_average().count
            1
        """
        return self.function_events.total_average()

    def table(self, sort_by: str | None = None, row_limit: int = 100, **kwargs: Any) -> str:
        """The table of the raw events (see :meth:`EventList.table`).

        Example:
            >>> with profile() as prof:
            ...     with record_function("block"):
            ...         pass
            >>> "block" in prof.table()
            True
        """
        return self.function_events.table(sort_by, row_limit, **kwargs)

    def export_chrome_trace(self, path: str) -> None:
        """Write the events as a Chrome trace (see :meth:`EventList.export_chrome_trace`).

        Example:
            >>> with profile() as prof:
            ...     pass
            >>> prof.export_chrome_trace("trace.json")  # doctest: +SKIP
        """
        if not isinstance(path, (str, bytes)):  # torch's binding (of the profiler's result,
            # the object it names): a str, never a descriptor
            raise TypeError("save(): incompatible function arguments. The following argument "
                            "types are supported:\n    1. (self: torch._C._autograd."
                            "_ProfilerResult, arg0: str) -> None\n\nInvoked with: <torch._C."
                            f"_autograd._ProfilerResult object at {id(self):#x}>, {path!r}")
        self.function_events.export_chrome_trace(path)

    @property
    def self_cpu_time_total(self) -> float:
        """The total of all events' self times, in microseconds.

        Example:
            >>> with profile() as prof:
            ...     pass
            >>> prof.self_cpu_time_total
            0
        """
        return self.function_events.self_cpu_time_total

    def __str__(self) -> str:
        return str(self.function_events)


def _mark(name: str, *children: tuple) -> None:
    """Record the event ``name`` holding ``children`` (each ``(name, *its_children)``): the
    events torch's kernels record for work minitorch does in one array call.

    >>> with profile() as prof:
    ...     _mark("aten::detach", ("detach",))
    >>> [(e.name, e.cpu_parent and e.cpu_parent.name) for e in prof.function_events]
    [('aten::detach', None), ('detach', 'aten::detach')]
    """
    prof = _active
    if prof is None:
        return
    prof._push(name, "cpu_op", recorded_shapes(name, []) if prof.record_shapes else None)
    try:
        for child in children:
            if child is not WORK:  # (a tree marked after its work ran elsewhere)
                _mark(*child)
    finally:
        prof._pop(0)


def run_inside(children: tuple, work: Callable[[], _R]) -> _R:
    """Record ``children`` (trees of :mod:`torch_events`) in the open event and run ``work``
    where they say (inside the child holding ``WORK``; after them if none does).

    >>> with profile() as prof:
    ...     with op_event("aten::t"):
    ...         run_inside((("aten::transpose", ("aten::as_strided",)),), lambda: None)
    >>> [e.name for e in prof.function_events]
    ['aten::t', 'aten::transpose', 'aten::as_strided']
    """
    result: Any = _NOT_RUN
    for child in children:
        if child is WORK:
            result = work()
        elif result is _NOT_RUN and holds_work(child):
            with op_event(child[0]):
                result = run_inside(child[1:], work)
        else:
            _mark(*child)
    return work() if result is _NOT_RUN else result


_NOT_RUN = object()


def records(name: str, *, event: bool = True) -> Callable[[_F], _F]:
    """Decorator: under a profile, each call of the function is the event ``name`` holding
    the events ``torch_events.FORWARD[name]`` lists, the call's work inside the one holding
    ``WORK``; the ops the function calls are not recorded (the table says what torch records).
    ``event=False`` records the table's events without an enclosing one (``torch.tensor``).

    >>> @records("aten::item")
    ... def item():
    ...     return 1.0
    >>> with profile() as prof:
    ...     _ = item()
    >>> [e.name for e in prof.function_events]
    ['aten::item', 'aten::_local_scalar_dense']
    """
    children = FORWARD.get(name, ())

    def decorate(func: _F) -> _F:
        @functools.wraps(func)
        def recorded(*args: Any, **kwargs: Any) -> Any:
            if _active is None:
                return func(*args, **kwargs)
            if not event:
                return run_inside(children, lambda: _unrecorded(func, args, kwargs))
            return run_op(name, name, lambda: _unrecorded(func, args, kwargs), args)

        return recorded  # type: ignore[return-value]

    return decorate


def run_op(name: str, key: str, work: Callable[[], _R], inputs: Iterable = ()) -> _R:
    """``work()``, recorded (under a profile) as the event ``name`` holding the events
    ``torch_events.FORWARD[key]`` lists: for an op that is a function, not a Function.
    ``inputs`` are the op's arguments, whose shapes ``record_shapes`` keeps.

    >>> with profile() as prof:
    ...     _ = run_op("aten::argmax", "aten::argmax.dim", lambda: 0)
    >>> [e.name for e in prof.function_events]
    ['aten::argmax', 'aten::as_strided']
    """
    if _active is None:
        return work()
    with op_event(name, inputs):
        return run_inside(FORWARD.get(key, ()), work)


def _unrecorded(func: Callable[..., _R], args: tuple, kwargs: dict) -> _R:
    with paused():
        return func(*args, **kwargs)


class _Muted(threading.local):
    depth = 0


_muted = _Muted()
"""How many :func:`paused` blocks this thread is in (events are not recorded inside)."""


@contextmanager
def paused() -> Iterator[None]:
    """Record nothing on this thread inside the block: for work whose events are recorded
    as torch's instead (see ``torch_events.BACKWARD``).

    >>> with profile() as prof:
    ...     with paused():
    ...         with op_event("aten::mul"):
    ...             pass
    >>> len(prof.function_events)
    0
    """
    _muted.depth += 1
    try:
        yield
    finally:
        _muted.depth -= 1


@contextmanager
def op_event(name: str, inputs: Iterable = ()) -> Iterator[None]:
    """An event ``name`` (category ``cpu_op``) around the block, when a profile is active:
    a composite op (``aten::matmul``) holds the events of the ops it calls. ``inputs`` are
    its arguments, whose shapes ``record_shapes`` keeps (as torch: ``[]`` for a number).

    >>> with profile() as prof:
    ...     with op_event("aten::matmul"):
    ...         pass
    >>> [e.name for e in prof.function_events]
    ['aten::matmul']
    """
    prof = _active
    if prof is None:
        yield
        return
    prof._push(name, "cpu_op", recorded_shapes(name, [
        tuple(getattr(v, "shape", ())) for v in inputs]) if prof.record_shapes else None)
    try:
        yield
    finally:
        prof._pop(0)


def _check_label(value: Any, name: str, kind: str, position: int) -> None:
    """torch's refusal of a label that is no string, in its operator schema's words."""
    if isinstance(value, (str, bytes)):
        return
    raise RuntimeError(
        f"profiler::_record_function_enter_new() Expected a value of type '{kind}' for "
        f"argument '{name}' but instead found type '{type(value).__name__}'.\n"
        f"Position: {position}\nValue: {value!r}\nDeclaration: profiler::"
        "_record_function_enter_new(str name, str? args=None) -> __torch__.torch.classes."
        "profiler._RecordFunction\nCast error details: Unable to cast Python instance of type "
        f"{type(value)} to C++ type '?' (#define PYBIND11_DETAILED_ERROR_MESSAGES or compile "
        "in debug mode for details)")


class record_function:
    """Label a block of code (``with``) or every call of a function (decorator).

    The label shows in the profile as an event of category ``"user_annotation"`` that
    contains the ops run inside it. Without an active :class:`profile` it does nothing.
    ``args`` is accepted as in torch and kept on the object.

    Example:
        >>> with profile() as prof:
        ...     with record_function("forward"):
        ...         pass
        >>> @record_function("step")
        ... def step():
        ...     pass
        >>> [e.name for e in prof.events()]
        ['forward']
    """

    def __init__(self, name: str, args: str | None = None) -> None:
        self.name = name
        self.args = args
        self._profile: profile | None = None
        self._entered = False

    def __enter__(self) -> record_function:
        _check_label(self.name, "name", "str", 0)
        if self.args is not None:
            _check_label(self.args, "args", "Optional[str]", 1)
        self._entered = True
        self._profile = _active
        if self._profile is not None:
            self._profile._push(self.name, "user_annotation", None)
        return self

    def __exit__(self, *exc_info: object) -> None:
        if not self._entered:
            raise AssertionError("Expected record to be set")
        if self._profile is not None:
            self._profile._pop(0)
            self._profile = None

    def __call__(self, func: _F) -> _F:
        @functools.wraps(func)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            # A fresh instance per call, so recursive or concurrent calls nest correctly.
            with record_function(self.name, self.args):
                return func(*args, **kwargs)

        return wrapped  # type: ignore[return-value]


@course.seam
def build_events(records: list[list], t0: int, record_shapes: bool,
                 profile_memory: bool) -> EventList:
    """Turn a profile's closed records into events linked to their parent and children.

    Each record names the enclosing record (or, at the top, its thread's id), so one pass
    finds every event's parent; a backward pass then sums the children into each event's
    *self* time (its total minus its direct children's totals) and memory.
    ``t0`` (perf_counter_ns) becomes time zero.

    Example:
        >>> build_events([["op", "cpu_op", None, 7, None, 1000, 3000, 0, None, None]], 0, False,
        ...              False)[0]
        <FunctionEvent id=0 name=op thread=7 cpu_time=2.000us start_us=1.0 end_us=3.0 \
input_shapes=[] cpu_memory_usage=0>
    """
    events: list[FunctionEvent] = []
    by_record: dict[int, FunctionEvent] = {}
    for record in records:
        if isinstance(record[_PARENT], int):  # a top-level event: PARENT is the thread
            parent, thread = None, record[_PARENT]
        else:
            parent = by_record[id(record[_PARENT])]
            thread = parent.thread
        evt = FunctionEvent(len(events), record, thread, t0, record_shapes)
        if parent is not None:
            evt.cpu_parent = parent
            parent.cpu_children.append(evt)
        by_record[id(record)] = evt
        events.append(evt)
    # Children are recorded after their parent: walk backwards to sum them first.
    for record, evt in zip(reversed(records), reversed(events)):
        child_memory = sum(child.cpu_memory_usage for child in evt.cpu_children)
        # Outputs made by nested ops are not counted twice: the event's own share
        # is what its outputs need beyond what its children already allocated.
        evt.cpu_memory_usage = max(record[_NBYTES], child_memory)
        evt.self_cpu_memory_usage = evt.cpu_memory_usage - child_memory
        evt.self_cpu_time_total = evt.cpu_time_total - sum(
            child.cpu_time_total for child in evt.cpu_children)
        evt.self_device_time_total = evt.device_time_total - sum(
            child.device_time_total for child in evt.cpu_children)
    return EventList(events, profile_memory)


@course.seam
def average_events(events: EventList, group_by_input_shapes: bool = False,
                   group_by_stack_n: int = 0) -> EventList:
    """Sum ``events`` per key (name and kind, plus shapes / stack frames if asked).

    The groups keep the order in which their keys first appear; each one counts its calls
    and sums their self and total times and memory (see :meth:`EventList.key_averages`).

    Example:
        >>> with profile() as prof:
        ...     for _ in range(2):
        ...         with record_function("a"):
        ...             pass
        >>> [(e.key, e.count) for e in average_events(prof.events())]
        [('a', 2)]
    """
    groups: dict[tuple, FunctionEventAvg] = {}
    for evt in events:
        key: tuple = (evt.key, evt.is_user_annotation)
        if group_by_input_shapes:
            key += (str(evt.input_shapes),)
        key += tuple(evt.stack[:group_by_stack_n])
        if key not in groups:
            groups[key] = FunctionEventAvg(evt)
        groups[key].add(evt)
    for avg in groups.values():
        avg.stack = avg.stack[:group_by_stack_n]
        if not group_by_input_shapes:
            avg.input_shapes = ""
    return EventList(groups.values(), events._profile_memory)


@course.seam
def format_table(events: EventList, sort_by: str | None = None, row_limit: int = 100, *,
                 widths: dict[str, int] | None = None, header: str | None = None,
                 time_unit: str | None = None) -> str:
    """Lay ``events`` out as torch's profiler table (see :meth:`EventList.table`).

    ``widths`` caps the ``"name"``, ``"shapes"`` and ``"src"`` columns (55, 80, 75).

    Example:
        >>> with profile() as prof:
        ...     with record_function("block"):
        ...         pass
        >>> format_table(prof.events()).splitlines()[1].split()[:3]
        ['Name', 'Self', 'CPU']
    """
    if time_unit not in (None, *_TIME_UNITS):
        raise ValueError(f"time_unit must be one of 's', 'ms', 'us' or None, got {time_unit!r}")
    if not events:
        return ""
    widths = {"name": 55, "shapes": 80, "src": 75, **(widths or {})}
    return _Table(events, events._profile_memory, widths, time_unit).render(
        sort_by, row_limit, header)


class StudentProfiler(Protocol):
    """What :func:`use` needs: ``enter(name)`` opens an event, ``exit()`` closes the
    innermost open one."""

    def enter(self, name: str) -> object:
        """Open an event called ``name``, nested in the innermost open event."""

    def exit(self) -> object:
        """Close the innermost open event."""


class _Forward:
    """Stands in for a :class:`profile`: hands the core's events to a student's profiler.

    Only the thread that entered :func:`use` is forwarded: a student's profiler keeps one
    stack, which events from two threads would interleave.
    """

    __slots__ = ("_enter", "_exit", "_thread")
    record_shapes = profile_memory = False  # the core then passes neither shapes nor bytes

    def __init__(self, target: StudentProfiler) -> None:
        self._enter = target.enter
        self._exit = target.exit
        self._thread = threading.get_ident()

    def _push(self, name: str, cat: str, shapes: object) -> None:
        if threading.get_ident() == self._thread and not _muted.depth:
            self._enter(name)

    def _pop(self, nbytes: int) -> None:
        if threading.get_ident() == self._thread and not _muted.depth:
            self._exit()


@contextmanager
def use(my_profiler: StudentProfiler) -> Iterator[StudentProfiler]:
    """Make ``my_profiler`` receive every op, backward node and :class:`record_function`
    block that minitorch runs inside the block, in place of :class:`profile`.

    minitorch calls ``my_profiler.enter(name)`` when an event starts and
    ``my_profiler.exit()`` when it ends (also when it fails), so the events nest. Names are
    torch's (``"aten::mul"``, ``"MulBackward0"``, ...). Shapes and memory are not passed.
    The reference profiler is back on exit, even after an error (and after
    ``minitorch.course.reset()``).

    Example:
        >>> import minitorch
        >>> class Names:
        ...     def __init__(self): self.names = []
        ...     def enter(self, name): self.names.append(name)
        ...     def exit(self): pass
        >>> x = minitorch.ones(3, requires_grad=True)
        >>> with use(Names()) as names:
        ...     y = (x * x).sum()
        >>> names.names
        ['aten::mul', 'aten::sum', 'aten::as_strided', 'aten::fill_']
    """
    missing = [m for m in ("enter", "exit") if not callable(getattr(my_profiler, m, None))]
    if missing:
        raise TypeError(f"profiler.use() needs an object with enter(name) and exit() methods; "
                        f"{type(my_profiler).__name__} has no {' or '.join(missing)}()")
    if _active is not None:
        raise RuntimeError("Profiler is already enabled: leave the running profile (or use() "
                           "block) before plugging in another profiler")
    with course.plug(sys.modules[__name__], "_active", _Forward(my_profiler)):
        yield my_profiler


@course.seam
def _format_time(time_us: float, unit: str | None = None) -> str:
    """``12.345us``, ``1.500ms``, ``2.000s``: the largest unit the value reaches, 3 decimals."""
    if unit is None:
        unit = next((u for u, scale in _TIME_UNITS.items() if time_us >= scale), "us")
    return f"{time_us / _TIME_UNITS[unit]:.3f}{unit}"


def _format_memory(nbytes: int) -> str:
    """``512 B``, ``1.50 KB``, ``3.00 MB``, ``1.00 GB`` (powers of 1024)."""
    for unit, scale in (("GB", 1024**3), ("MB", 1024**2), ("KB", 1024)):
        if abs(nbytes) >= scale:
            return f"{nbytes / scale:.2f} {unit}"
    return f"{nbytes} B"


def _format_share(time_us: float, total_us: float) -> str:
    return f"{time_us * 100.0 / total_us:.2f}%" if total_us else "NaN"


def _trim_left(text: str, width: int) -> str:
    """Keep the end of a long path, marking the cut with ``...``."""
    if len(text) <= width:
        return text
    text = text[len(text) - width:]
    return "..." + text[3:] if len(text) > 3 else text


class _Table:
    """Lays out torch's profiler table: columns right-aligned, two spaces after each."""

    def __init__(self, events: list[_EventStats], profile_memory: bool,
                 max_widths: dict[str, int], time_unit: str | None) -> None:
        self.events = events
        self.profile_memory = profile_memory
        self.max_name = max_widths["name"]
        self.time_unit = time_unit
        self.total = sum(evt.self_cpu_time_total for evt in events)
        self.titles = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total",
                       "CPU time avg"]
        self.device_total = sum(evt.self_device_time_total for evt in events)
        self.has_device_time = any(evt.self_device_time_total > 0 for evt in events)
        if self.has_device_time:  # torch's order and names
            self.titles += ["Self CUDA", "Self CUDA %", "CUDA total", "CUDA time avg"]
        if profile_memory:
            self.titles += ["CPU Mem", "Self CPU Mem"]
        self.titles.append("# of Calls")
        name_width = min(max(len(evt.key) for evt in events) + 4, self.max_name)
        self.widths = [name_width] + [_COLUMN_WIDTH] * (len(self.titles) - 1)
        self.has_shapes = any(evt.input_shapes for evt in events)
        if self.has_shapes:
            shapes_width = max(len(str(evt.input_shapes)) for evt in events) + 4
            self._add_column("Input Shapes", min(shapes_width, max_widths["shapes"]))
        self.has_stack = any(evt.stack for evt in events)
        if self.has_stack:  # the only left-aligned column, always the last
            src_width = max(len(entry) for evt in events for entry in evt.stack) + 4
            self._add_column("Source Location", min(src_width, max_widths["src"]))

    def _add_column(self, title: str, width: int) -> None:
        self.titles.append(title)
        self.widths.append(width)

    def render(self, sort_by: str | None, row_limit: int, header: str | None) -> str:
        events = self.events
        if sort_by is not None:
            events = sorted(events, key=attrgetter(sort_by), reverse=True)
        if row_limit >= 0:
            events = events[:row_limit]
        separator = self._row(["-" * width for width in self.widths])
        lines = []
        if header is not None:
            lines += ["=" * (len(separator) - 2), header]
        lines += [separator, self._row(self.titles), separator]
        for evt in events:
            lines += self._event_rows(evt)
        lines += [separator, f"Self CPU time total: {self._time(self.total)}"]
        if self.has_device_time:
            lines.append(f"Self CUDA time total: {self._time(self.device_total)}")
        return "\n".join(lines) + "\n"

    def _row(self, cells: list) -> str:
        row = [f"{cell:>{width}}  " for cell, width in zip(cells, self.widths)]
        if self.has_stack:
            row[-1] = f"{cells[-1]:<{self.widths[-1]}}  "
        return "".join(row)

    def _event_rows(self, evt: _EventStats) -> list[str]:
        name = evt.key
        if len(name) >= self.max_name - 3:
            name = name[: self.max_name - 3] + "..."
        cells = [name,
                 _format_share(evt.self_cpu_time_total, self.total),
                 self._time(evt.self_cpu_time_total),
                 _format_share(evt.cpu_time_total, self.total),
                 self._time(evt.cpu_time_total),
                 self._time(evt.cpu_time)]
        if self.has_device_time:
            cells += [self._time(evt.self_device_time_total),
                      _format_share(evt.self_device_time_total, self.device_total),
                      self._time(evt.device_time_total),
                      self._time(evt.device_time)]
        if self.profile_memory:
            cells += [_format_memory(evt.cpu_memory_usage),
                      _format_memory(evt.self_cpu_memory_usage)]
        cells.append(evt.count)
        if self.has_shapes:
            cells.append(str(evt.input_shapes)[: self.widths[len(cells)]])
        if not self.has_stack:
            return [self._row(cells)]
        # The first frame shares the event's row; deeper frames and a blank row follow.
        stack = [_trim_left(entry, self.widths[-1]) for entry in evt.stack] or [""]
        blank = [""] * len(cells)
        rows = [self._row([*cells, stack[0]])]
        rows += [self._row([*blank, entry]) for entry in stack[1:]]
        return [*rows, self._row([*blank, ""])]

    def _time(self, time_us: float) -> str:
        return _format_time(time_us, self.time_unit)


def plot_top_ops(prof_or_averages: profile | EventList, n: int = 10,
                 key: str = "self_cpu_time_total", ax: Any = None) -> Any:
    """Draw the ``n`` largest events by ``key`` as a horizontal bar chart (matplotlib).

    A :class:`profile` is averaged per name first; an :class:`EventList` is drawn as it is.
    Returns the matplotlib Axes.

    Example:
        >>> with profile() as prof:
        ...     with record_function("block"):
        ...         pass
        >>> ax = plot_top_ops(prof, n=5)  # doctest: +SKIP
    """
    try:
        import matplotlib.pyplot as plt
    except ImportError as err:
        raise ImportError("plot_top_ops needs matplotlib; install it with "
                          "`pip install matplotlib`") from err
    if isinstance(prof_or_averages, profile):
        prof_or_averages = prof_or_averages.key_averages()
    top = sorted(prof_or_averages, key=attrgetter(key), reverse=True)[:n]
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 1 + 0.35 * len(top)))
    top.reverse()  # barh draws bottom-up: put the largest bar on top
    ax.barh([evt.key for evt in top], [getattr(evt, key) for evt in top])
    unit = " (us)" if "time" in key else " (bytes)" if "memory" in key else ""
    ax.set_xlabel(key + unit)
    ax.set_title(f"top {len(top)} by {key}")
    return ax
