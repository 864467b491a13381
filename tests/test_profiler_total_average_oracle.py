"""profile.total_average() and EventList.total_average() against torch: one aggregate of all
the events, keyed "Total"."""

from __future__ import annotations

import pytest
import torch

import minitorch


def _total(L, body: str):
    P = L.autograd.profiler
    with P.profile() as p:
        if body == "mul":
            L.ones(2) * 2
        elif body == "block":
            with P.record_function("block"):
                L.zeros(3).sum()
        elif body == "block last":
            L.zeros(3).sum()
            with P.record_function("block"):
                pass
    totals = (p.total_average(), p.function_events.total_average())
    return [(t.key, t.count, t.input_shapes, t.stack, getattr(t, "is_user_annotation", "unset"))
            for t in totals]


@pytest.mark.parametrize("body", ["mul", "block", "block last", "nothing"])
def test_total_average_as_torch(body: str) -> None:
    assert _total(minitorch, body) == _total(torch, body)
