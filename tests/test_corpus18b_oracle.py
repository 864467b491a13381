"""Oracle tests for what the corpus18b programs (textbooks and teaching repositories) needed.

ShusenTang's Dive-into-DL-PyTorch and the UvA DL tutorials seed both devices at the top of a
program: ``torch.manual_seed(0); torch.cuda.manual_seed(0)``. On a machine without CUDA torch
accepts the call (it queues the seed until CUDA starts) and returns None; the CPU stream is
left where it was.
"""

from __future__ import annotations

import pytest
import torch

import minitorch as mt
from tests.oracle import assert_same, assert_same_error, raised_by

cpu_only = pytest.mark.skipif(mt.cuda.is_available() or torch.cuda.is_available(),
                              reason="the CPU-only behaviour (a GPU really reseeds)")


@cpu_only
@pytest.mark.parametrize("name", ["manual_seed", "manual_seed_all"])
def test_cuda_seeding_returns_none_and_leaves_cpu_stream(name: str) -> None:
    def program(L):
        L.manual_seed(3)
        first = L.rand(2)
        returned = getattr(L.cuda, name)(123)
        return returned, first, L.randn(4)

    got, want = program(mt), program(torch)
    assert got[0] is None and want[0] is None
    assert_same(got[1], want[1])
    assert_same(got[2], want[2])


@pytest.mark.parametrize("name", ["manual_seed", "manual_seed_all"])
@pytest.mark.parametrize("seed", ["a", None, 1.5])
def test_cuda_seed_is_converted_by_int_first(name: str, seed) -> None:
    def call(L):
        return getattr(L.cuda, name)(seed)

    want = raised_by(call, torch)
    got = raised_by(call, mt)
    if want is None:
        assert got is None
    else:
        assert_same_error(got, want)


def test_cuda_seeding_names_are_public() -> None:
    for name in ("manual_seed", "manual_seed_all"):
        assert name in mt.cuda.__all__
        assert callable(getattr(torch.cuda, name))


@cpu_only
def test_empty_cache_is_a_no_op_without_a_gpu() -> None:
    def program(L):
        L.manual_seed(1)
        x = L.rand(3)
        returned = L.cuda.empty_cache()
        return returned, x, L.rand(2)

    got, want = program(mt), program(torch)
    assert got[0] is None and want[0] is None
    assert_same(got[1], want[1])
    assert_same(got[2], want[2])
