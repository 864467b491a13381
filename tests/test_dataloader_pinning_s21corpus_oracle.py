"""DataLoader(pin_memory=True) warns on each iter() as torch's does when there is no accelerator.

Found by corpus21 (karpathy/makemore: ``DataLoader(..., pin_memory=True)`` on a CPU machine):
torch warns that nothing is pinned; minitorch was silent.
"""

from __future__ import annotations

import os
import warnings
from typing import Any

import pytest
import torch
import torch.utils.data

import minitorch as mt
import minitorch.utils.data

OPTIONS: list[dict[str, Any]] = [
    {"pin_memory": True},
    {"pin_memory": True, "pin_memory_device": "cpu"},
    {"pin_memory": False, "pin_memory_device": "cpu"},
    {"pin_memory": False},
    {"pin_memory": True, "shuffle": True, "drop_last": True},
]


def warned(lib: Any, options: dict[str, Any]) -> tuple[int, list[tuple[str, str]], list]:
    """Warnings of the constructor (a count), then of two passes over the loader; the batches."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        lib.manual_seed(0)
        loader = lib.utils.data.DataLoader(list(range(5)), batch_size=2, **options)
        built = len(seen)
        batches = [b.tolist() for _ in range(2) for b in loader]
    return built, [(w.category.__name__, str(w.message)) for w in seen], batches


@pytest.mark.skipif(torch.accelerator.is_available(), reason="torch pins on an accelerator")
@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_pinning_warnings_as_torch(options: dict[str, Any]) -> None:
    assert warned(mt, options) == warned(torch, options)


def shown_by_default(lib: Any) -> list[str]:
    """The warnings the default filter shows for two loaders iterated from two lines."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("default")
        for _ in range(2):
            list(lib.utils.data.DataLoader([1, 2], pin_memory=True))
        list(lib.utils.data.DataLoader([1, 2], pin_memory=True, pin_memory_device="cpu"))
    return [str(w.message) for w in seen]


@pytest.mark.skipif(torch.accelerator.is_available(), reason="torch pins on an accelerator")
def test_the_default_filter_shows_each_warning_once_as_torch() -> None:
    assert shown_by_default(mt) == shown_by_default(torch)


def _usable_cpus() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


@pytest.mark.parametrize("extra", [0, 1, 3])
def test_too_many_workers_warns_as_torch(extra: int) -> None:
    """More workers than usable CPUs: torch warns when the loader is built and on each iter
    (minitorch loads in-process, with the same batches)."""
    options = {"num_workers": _usable_cpus() + extra - 1 if extra == 0 else _usable_cpus() + extra}
    got, want = warned(mt, options), warned(torch, options)
    assert got == want
