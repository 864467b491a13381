"""``torch.profiler``'s names over ``minitorch.autograd.profiler``: ``profile`` takes
``activities`` (``ProfilerActivity.CUDA`` also times the GPU), ``record_function`` marks a
block. Schedules and trace handlers are not supported.

>>> import minitorch
>>> with profile(activities=[ProfilerActivity.CPU]) as prof:
...     with record_function("square"):
...         _ = minitorch.ones(2) * 2
>>> "square" in [e.key for e in prof.key_averages()]
True
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Any

from .autograd import profiler as _autograd_profiler
from .autograd.profiler import record_function

__all__ = ["ProfilerActivity", "profile", "record_function"]


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


class profile(_autograd_profiler.profile):
    """``torch.profiler.profile``: the autograd profiler, with its device chosen by
    ``activities`` (the GPU is timed too when it lists CUDA).

    >>> with profile(record_shapes=True) as prof:
    ...     _ = minitorch.ones(2).sum()
    >>> [e.key for e in prof.key_averages()][:2]  # as torch: aten::ones first
    ['aten::ones', 'aten::empty']
    """

    def __init__(self, *, activities: Iterable[ProfilerActivity] | None = None,
                 record_shapes: bool = False, profile_memory: bool = False,
                 with_stack: bool = False) -> None:
        cuda = activities is not None and ProfilerActivity.CUDA in list(activities)
        super().__init__(record_shapes=record_shapes, profile_memory=profile_memory,
                         with_stack=with_stack, use_device="cuda" if cuda else None)

    def step(self, *_: Any) -> None:
        """torch advances its schedule here; without schedules there is nothing to do."""
