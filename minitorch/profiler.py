"""``torch.profiler``'s names over ``minitorch.autograd.profiler``: ``profile`` takes
``activities`` (``ProfilerActivity.CUDA`` also times the GPU), ``record_function`` marks a
block, and a ``schedule`` with an ``on_trace_ready`` handler profiles some of the steps of a
long loop (``prof.step()`` ends each).

>>> import minitorch
>>> with profile(activities=[ProfilerActivity.CPU]) as prof:
...     with record_function("square"):
...         _ = minitorch.ones(2) * 2
>>> "square" in [e.key for e in prof.key_averages()]
True
"""

from __future__ import annotations

import enum
import warnings
from collections.abc import Callable, Iterable
from typing import Any

from .autograd import profiler as _autograd_profiler
from .autograd.profiler import record_function

__all__ = ["ProfilerAction", "ProfilerActivity", "profile", "record_function", "schedule"]


class ProfilerActivity(enum.Enum):
    """The devices a profile times (torch's values).

    >>> ProfilerActivity.CUDA
    <ProfilerActivity.CUDA: 2>
    """

    CPU = 0
    XPU = 1
    CUDA = 2
    HPU = 3
    MTIA = 4
    PrivateUse1 = 5


class ProfilerAction(enum.Enum):
    """What a profiler ``schedule`` asks of a step (torch's values).

    >>> ProfilerAction.RECORD_AND_SAVE
    <ProfilerAction.RECORD_AND_SAVE: 3>
    """

    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3
    DEVICE_STOPPED = 4


def schedule(*, wait: int, warmup: int, active: int, repeat: int = 0, skip_first: int = 0,
             skip_first_wait: int = 0) -> Callable[[int], ProfilerAction]:
    """The step -> action function of a cycling profile: after ``skip_first`` steps, each
    cycle waits ``wait`` steps, warms up ``warmup``, records ``active`` (the last one also
    saves: ``on_trace_ready`` is called); ``repeat`` cycles (0: until the end).
    ``skip_first_wait`` skips the first cycle's wait.

    >>> s = schedule(wait=1, warmup=1, active=2, repeat=1)
    >>> [s(i).name for i in range(5)]
    ['NONE', 'WARMUP', 'RECORD', 'RECORD_AND_SAVE', 'NONE']
    """
    if wait < 0 or warmup < 0 or active <= 0 or repeat < 0 or skip_first < 0:
        raise AssertionError(
            f"Invalid profiler schedule arguments. Got wait={wait} (need >= 0), warmup={warmup} "
            f"(need >= 0), active={active} (need > 0), repeat={repeat} (need >= 0), "
            f"skip_first={skip_first} (need >= 0).")
    if warmup == 0:
        warnings.warn("Profiler won't be using warmup, this can skew profiler results",
                      stacklevel=2)
    cycle = wait + warmup + active

    def action(step: int) -> ProfilerAction:
        if step < 0:
            raise AssertionError(f"Step must be non-negative. Got {step}.")
        if step < skip_first:
            return ProfilerAction.NONE
        step = step - skip_first + (wait if skip_first_wait else 0)
        if repeat > 0 and step >= repeat * cycle:
            return ProfilerAction.NONE
        place = step % cycle
        if place < wait:
            return ProfilerAction.NONE
        if place < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if place < cycle - 1 else ProfilerAction.RECORD_AND_SAVE

    return action


_cycles_warned = False


def _warn_cycles_cleared() -> None:
    """torch's warning (once a process) that a new window drops the last one's events."""
    global _cycles_warned
    if not _cycles_warned:
        _cycles_warned = True
        warnings.warn("Warning: Profiler clears events at the end of each cycle. Only events "
                      "from the current cycle will be reported. To keep events across cycles, "
                      "set acc_events=True.", stacklevel=4)


def _always_record(step: int) -> ProfilerAction:
    return ProfilerAction.RECORD


def _kind(action: ProfilerAction | None) -> str:
    """The actions as torch's transitions tell them apart: RECORD and RECORD_AND_SAVE only
    differ in what follows them."""
    return "end" if action is None else action.name


# (action before, action after) -> what happens, in order (torch's rules; "end": the
# profile stops)
_TRANSITIONS: dict[tuple[str, str], tuple[str, ...]] = {
    ("NONE", "WARMUP"): ("_prepare_trace",),
    ("WARMUP", "NONE"): ("_start_trace", "_stop_trace"),
    ("WARMUP", "end"): ("_start_trace", "_stop_trace"),
    ("RECORD", "NONE"): ("_stop_trace",),
    ("RECORD", "WARMUP"): ("_stop_trace",),
    ("RECORD", "end"): ("_stop_trace", "_trace_ready"),
    ("RECORD_AND_SAVE", "NONE"): ("_stop_trace", "_trace_ready"),
    ("RECORD_AND_SAVE", "WARMUP"): ("_stop_trace", "_trace_ready", "_prepare_trace"),
    ("RECORD_AND_SAVE", "end"): ("_stop_trace", "_trace_ready"),
}
for _into in ("RECORD", "RECORD_AND_SAVE"):
    _TRANSITIONS["NONE", _into] = ("_prepare_trace", "_start_trace")
    _TRANSITIONS["WARMUP", _into] = ("_start_trace",)
    _TRANSITIONS["RECORD_AND_SAVE", _into] = ("_stop_trace", "_trace_ready", "_prepare_trace",
                                              "_start_trace")
_INCORRECT = {(ProfilerAction.WARMUP, ProfilerAction.NONE),
              (ProfilerAction.RECORD, ProfilerAction.NONE),
              (ProfilerAction.RECORD, ProfilerAction.WARMUP)}


def _parsed_activities(activities: Iterable[Any]) -> set[ProfilerActivity]:
    """The activities as torch's profiler reads them the second time: each a
    ProfilerActivity or a dict keyed by them, none twice (an iterator read up by the first
    reading has none left: torch refuses that when it prepares its trace).

    >>> _parsed_activities([ProfilerActivity.CPU, "cpu"])
    Traceback (most recent call last):
    TypeError: Expected ProfilerActivity or dict, got <class 'str'>
    """
    parsed: set[ProfilerActivity] = set()
    for item in activities:
        if not isinstance(item, (dict, ProfilerActivity)):
            raise TypeError(f"Expected ProfilerActivity or dict, got {type(item)}")
        for activity in item if isinstance(item, dict) else [item]:
            if activity in parsed:
                raise ValueError(f"Activity {activity} specified more than once")
            parsed.add(activity)
    return parsed


class profile(_autograd_profiler.profile):
    """``torch.profiler.profile``: the autograd profiler, with its device chosen by
    ``activities`` (the GPU is timed too when it lists CUDA).

    With a ``schedule``, each ``step()`` moves to the next step: only the steps it records
    are kept (each in a ``ProfilerStep#n`` event), and ``on_trace_ready(prof)`` is called at
    the end of each recorded window (without a schedule, once, at the end).

    >>> with profile(record_shapes=True) as prof:
    ...     _ = minitorch.ones(2).sum()
    >>> [e.key for e in prof.key_averages()][:2]  # as torch: aten::ones first
    ['aten::ones', 'aten::empty']
    >>> seen = []
    >>> with profile(schedule=schedule(wait=1, warmup=1, active=1),
    ...              on_trace_ready=lambda p: seen.append(p.step_num)) as p:
    ...     for _ in range(6):
    ...         p.step()
    >>> seen  # the step() that ends a recorded step has already counted it
    [3, 6]
    """

    def __init__(self, *, activities: Iterable[ProfilerActivity] | None = None,
                 schedule: Callable[[int], ProfilerAction] | None = None,
                 on_trace_ready: Callable[[profile], Any] | None = None,
                 record_shapes: bool = False, profile_memory: bool = False,
                 with_stack: bool = False) -> None:
        if activities is not None:
            if not any(isinstance(item, (dict, ProfilerActivity)) and item
                       for item in activities):
                raise AssertionError("No valid profiler activities found")
            activities = _parsed_activities(activities)  # (torch reads them a second time)
        cuda = activities is not None and ProfilerActivity.CUDA in activities
        super().__init__(record_shapes=record_shapes, profile_memory=profile_memory,
                         with_stack=with_stack, use_device="cuda" if cuda else None)
        self.schedule = schedule or _always_record
        self.record_steps = schedule is not None
        self.on_trace_ready = on_trace_ready
        self.step_num = 0
        self.current_action = self.schedule(0)
        self._step_label: record_function | None = None
        self._prepared = False  # a window exists (torch's "profiler initialized")
        self._no_activities = activities is not None and not activities

    def __enter__(self) -> profile:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def start(self) -> None:
        """Begin the first step (``with`` calls it)."""
        self._move(ProfilerAction.NONE, self.current_action)
        self._open_step()

    def stop(self) -> None:
        """End the last step; a window still recording is saved (``with`` calls it)."""
        self._close_step()
        self._move(self.current_action, None)

    def step(self) -> None:
        """End this step and begin the next, doing what the schedule asks of it."""
        self._close_step()
        before = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        self._move(before, self.current_action)
        self._open_step()

    def _move(self, before: ProfilerAction, after: ProfilerAction | None) -> None:
        """Do what torch does when the action changes from ``before`` to ``after`` (None:
        the profile ends): prepare a new window (dropping the last one's events), start or
        stop recording, hand a finished window to ``on_trace_ready``."""
        if (before, after) in _INCORRECT:
            warnings.warn(f"Incorrect schedule: {before.name} followed by {after.name}",  # type: ignore[union-attr]
                          stacklevel=3)
        for name in _TRANSITIONS.get((_kind(before), _kind(after)), ()):
            getattr(self, name)()

    def _prepare_trace(self) -> None:
        if self._no_activities:
            raise AssertionError("No activities specified for the profiler")
        if self._prepared:
            _warn_cycles_cleared()
        self._prepared = True
        self.entered = False
        self._records, self._function_events = [], None

    def _start_trace(self) -> None:
        _autograd_profiler.profile.__enter__(self)

    def _stop_trace(self) -> None:
        if not self._prepared:  # (stop() before start())
            raise AssertionError("Profiler must be initialized before stopping trace")
        _autograd_profiler.profile.__exit__(self, None, None, None)

    def key_averages(self, group_by_input_shape: bool = False,
                     group_by_stack_n: int = 0) -> Any:
        """The events of the last window, summed per name (see the autograd profiler's).

        >>> profile(schedule=schedule(wait=1, warmup=1, active=1)).key_averages()
        Traceback (most recent call last):
        AssertionError: Profiler must be initialized before getting key averages
        """
        if not self._prepared:
            raise AssertionError("Profiler must be initialized before getting key averages")
        return super().key_averages(group_by_input_shape, group_by_stack_n)

    def events(self) -> Any:
        """The raw events of the last window.

        >>> profile().events()
        Traceback (most recent call last):
        AssertionError: Profiler must be initialized before accessing events
        """
        if not self._prepared:
            raise AssertionError("Profiler must be initialized before accessing events")
        return super().events()

    def _trace_ready(self) -> None:
        if self.on_trace_ready is not None:
            self.on_trace_ready(self)

    def _open_step(self) -> None:
        if self.record_steps:
            self._step_label = record_function(f"ProfilerStep#{self.step_num}")
            self._step_label.__enter__()

    def _close_step(self) -> None:
        if self._step_label is not None:
            self._step_label.__exit__(None, None, None)
            self._step_label = None
