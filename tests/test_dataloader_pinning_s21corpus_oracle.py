"""DataLoader(pin_memory=True) warns on each iter() as torch's does when there is no accelerator.

Found by corpus21 (karpathy/makemore: ``DataLoader(..., pin_memory=True)`` on a CPU machine):
torch warns that nothing is pinned; minitorch was silent.
"""

from __future__ import annotations

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


def test_the_warning_points_at_the_caller() -> None:
    loader = mt.utils.data.DataLoader([1, 2], pin_memory=True)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        iter(loader)
    assert seen and seen[0].filename == __file__
