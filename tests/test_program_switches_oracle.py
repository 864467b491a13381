"""Small switches that tutorials call: ``is_inference``, ``use_deterministic_algorithms``,
``nn.DataParallel`` on a machine without GPUs."""

from __future__ import annotations

from typing import Any

import pytest
import torch
from oracle import assert_same, assert_same_error, raised_by

import minitorch as mt


def test_is_inference_function() -> None:
    def run(L: Any) -> tuple:
        with L.inference_mode():
            y = L.ones(2) * 2
        return L.is_inference(y), L.is_inference(L.ones(1))
    assert run(mt) == run(torch)
    assert_same_error(raised_by(lambda L: L.is_inference(1), mt),
                      raised_by(lambda L: L.is_inference(1), torch))


@pytest.fixture
def restore_deterministic() -> Any:
    yield
    for L in (mt, torch):
        L.use_deterministic_algorithms(False)


@pytest.mark.usefixtures("restore_deterministic")
@pytest.mark.parametrize("warn_only", [False, True])
def test_use_deterministic_algorithms(warn_only: bool) -> None:
    def run(L: Any) -> tuple:
        L.use_deterministic_algorithms(True, warn_only=warn_only)
        return (L.are_deterministic_algorithms_enabled(),
                L.is_deterministic_algorithms_warn_only_enabled())
    assert run(mt) == run(torch)


@pytest.mark.parametrize("call", [lambda L: L.use_deterministic_algorithms(1),
                                  lambda L: L.use_deterministic_algorithms(True, warn_only=1)])
def test_use_deterministic_algorithms_refuses_non_bools(call: Any) -> None:
    assert_same_error(raised_by(call, mt), raised_by(call, torch))


def test_data_parallel_without_gpus_is_the_module() -> None:
    import torch.nn.parallel

    import minitorch.nn.parallel  # noqa: F401

    mt.manual_seed(0)
    torch.manual_seed(0)
    got, want = mt.nn.DataParallel(mt.nn.Linear(2, 1)), torch.nn.DataParallel(torch.nn.Linear(2, 1))
    assert repr(got) == repr(want)
    assert list(got.state_dict()) == list(want.state_dict())
    assert got.device_ids == want.device_ids
    assert_same(got(mt.ones(3, 2)), want(torch.ones(3, 2)))
