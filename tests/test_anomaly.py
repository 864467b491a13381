"""Anomaly mode against live torch 2.13: switching it, the forward trace printed when backward
fails, the NaN check, and the version-counter error's hint.

Every warning is captured and checked; anything else reaching stderr fails the test.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import torch
from oracle import mt

LIBS = pytest.mark.parametrize("L", [mt, torch], ids=["minitorch", "torch"])
pytestmark = pytest.mark.filterwarnings("error")

ANOMALY_WARNING = ("Anomaly Detection has been enabled. This mode will increase the runtime and "
                   "should only be enabled for debugging.")
TRACE_HEADER = "Error detected in {}. Traceback of forward call that caused the error:\n"


def state(L: Any) -> tuple[bool, bool]:
    """(anomaly mode on, NaN check on). torch has these at the top level only."""
    if L is torch:
        return torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()
    m = mt.autograd.anomaly_mode
    return m.is_anomaly_enabled(), m.is_anomaly_check_nan_enabled()


@pytest.fixture(autouse=True)
def anomaly_mode_off() -> Iterator[None]:
    """Each test starts and ends with anomaly mode off (it is global state)."""
    for L in (mt, torch):
        L.autograd.set_detect_anomaly(False)
    yield
    for L in (mt, torch):
        L.autograd.set_detect_anomaly(False)


# ---------------------------------------------------------------------------- switching


@LIBS
def test_set_detect_anomaly_as_a_call(L: Any) -> None:
    assert state(L) == (False, True)
    L.autograd.set_detect_anomaly(True)
    assert state(L) == (True, True)
    L.autograd.set_detect_anomaly(True, check_nan=False)
    assert state(L) == (True, False)
    L.autograd.set_detect_anomaly(False)
    assert state(L) == (False, True)


@LIBS
def test_set_detect_anomaly_as_a_context_manager(L: Any) -> None:
    with L.autograd.set_detect_anomaly(True, check_nan=False):
        assert state(L) == (True, False)
        with L.autograd.set_detect_anomaly(False):
            assert state(L) == (False, True)
        assert state(L) == (True, False)
    assert state(L) == (False, True)


@LIBS
def test_set_detect_anomaly_restores_after_an_error(L: Any) -> None:
    with pytest.raises(ValueError), L.autograd.set_detect_anomaly(True):
        raise ValueError
    assert state(L) == (False, True)


@LIBS
def test_detect_anomaly_warns_and_switches_on(L: Any) -> None:
    with pytest.warns(UserWarning) as record:
        manager = L.autograd.detect_anomaly(check_nan=False)
    assert [str(w.message) for w in record] == [ANOMALY_WARNING]
    assert record[0].filename == __file__  # points at the caller
    with manager:
        assert state(L) == (True, False)
    assert state(L) == (False, True)


@LIBS
def test_anomaly_mode_is_global(L: Any) -> None:
    seen = []
    with L.autograd.set_detect_anomaly(True):
        thread = threading.Thread(target=lambda: seen.append(state(L)))
        thread.start()
        thread.join()
    assert seen == [(True, True)]


def test_top_level_anomaly_functions() -> None:
    try:
        for L in (torch, mt):
            L.set_anomaly_enabled(True, check_nan=False)
            assert (L.is_anomaly_enabled(), L.is_anomaly_check_nan_enabled()) == (True, False)
            L.set_anomaly_enabled(False)
            assert (L.is_anomaly_enabled(), L.is_anomaly_check_nan_enabled()) == (False, True)
    finally:
        mt.set_anomaly_enabled(False)
        torch.set_anomaly_enabled(False)


# ---------------------------------------------------------------------------- errors in backward


def boom(L: Any) -> type:
    class Boom(L.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x * 2

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            raise RuntimeError("boom")

    return Boom


@LIBS
def test_error_in_backward_shows_the_forward_trace(L: Any) -> None:
    x = L.ones(2, requires_grad=True)
    with L.autograd.set_detect_anomaly(True):
        y = boom(L).apply(x)  # the forward call the trace must show
        with pytest.warns(UserWarning) as record, pytest.raises(RuntimeError, match=r"^boom$"):
            y.sum().backward()
    [warning] = record
    text = str(warning.message)
    assert text.startswith(TRACE_HEADER.format("BoomBackward") + "  File ")
    assert f'File "{__file__}", line ' in text
    assert "y = boom(L).apply(x)  # the forward call the trace must show" in text


@LIBS
def test_error_in_backward_without_anomaly_mode_warns_nothing(L: Any) -> None:
    y = boom(L).apply(L.ones(2, requires_grad=True))
    with pytest.raises(RuntimeError, match=r"^boom$"):
        y.sum().backward()


def sqrt_at_zero(L: Any) -> tuple[Any, Any]:
    """d sqrt(x)/dx at 0 is inf; times the zero gradient of ``* 0`` it is 0 * inf = nan."""
    x = L.tensor([0.0, 1.0], requires_grad=True)
    y = x.sqrt()  # where the NaN is born
    return x, (y * 0).sum()


@LIBS
def test_nan_check_raises_torchs_error_after_the_trace(L: Any) -> None:
    with L.autograd.set_detect_anomaly(True):
        _, z = sqrt_at_zero(L)
        with pytest.warns(UserWarning) as record, pytest.raises(RuntimeError) as error:
            z.backward()
    assert str(error.value) == "Function 'SqrtBackward0' returned nan values in its 0th output."
    [warning] = record
    assert str(warning.message).startswith(TRACE_HEADER.format("SqrtBackward0"))
    assert "y = x.sqrt()  # where the NaN is born" in str(warning.message)


@LIBS
@pytest.mark.parametrize("mode", ["off", "check_nan=False"])
def test_nan_passes_without_the_check(L: Any, mode: str) -> None:
    with L.autograd.set_detect_anomaly(mode != "off", check_nan=False):
        x, z = sqrt_at_zero(L)
        z.backward()
    assert np.isnan(x.grad.numpy()[0]) and x.grad.numpy()[1] == 0


@LIBS
def test_nan_gradient_prints_nothing(L: Any) -> None:
    """numpy's warning about 0 * inf is not torch's: it must stay off stderr too."""
    _, z = sqrt_at_zero(L)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        z.backward()


# ---------------------------------------------------------------------------- version counters


def modified_sigmoid_output(L: Any) -> Any:
    """The reference's case: sigmoid saves its output, which is then changed in place."""
    a = L.ones(1, 10, requires_grad=True)
    b = a.sigmoid()  # SigmoidBackward0 saves b
    b.mul_(2)
    return b.sum()


def version_error(L: Any, anomaly: bool) -> tuple[str, list[str]]:
    """The error message, and the warnings printed on the way."""
    with L.autograd.set_detect_anomaly(anomaly):
        loss = modified_sigmoid_output(L)
        with warnings.catch_warnings(record=True) as record, \
                pytest.raises(RuntimeError) as error:
            warnings.simplefilter("always")
            loss.backward()
    return str(error.value), [str(w.message) for w in record]


@pytest.mark.parametrize("anomaly", [False, True], ids=["plain", "anomaly mode"])
def test_version_error_hint_matches_torch(anomaly: bool) -> None:
    want, _ = version_error(torch, anomaly)
    got, _ = version_error(mt, anomaly)
    assert got == want
    hint = ("the backtrace further above shows the operation that failed to compute its "
            "gradient" if anomaly else "enable anomaly detection")
    assert hint in got


@LIBS
def test_version_error_under_anomaly_mode_shows_the_trace(L: Any) -> None:
    _, printed = version_error(L, anomaly=True)
    [text] = printed
    assert text.startswith(TRACE_HEADER.format("SigmoidBackward0"))
    assert "b = a.sigmoid()  # SigmoidBackward0 saves b" in text
    assert version_error(L, anomaly=False)[1] == []
