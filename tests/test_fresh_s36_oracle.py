"""Fresh fuzz seeds of session 36 (four new black-box fuzzers written by helpers who did not
see minitorch's tests, and session 35's leftovers): what they found. Each case runs under
torch and minitorch (``L``) and must raise torch's exception with torch's message, or give
torch's result."""

from __future__ import annotations

import array
from typing import Any

import pytest

from tests.oracle import assert_as_torch

BUFFERS = {
    "bytes": lambda: b"abcdefgh", "bytearray": lambda: bytearray(b"abcdefgh"),
    "odd bytearray": lambda: bytearray(b"abc"), "empty": bytearray,
    "memoryview": lambda: memoryview(bytearray(range(8))),
    "2-d memoryview": lambda: memoryview(bytearray(8)).cast("B", (2, 4)),
    "float array": lambda: array.array("f", [1, 2]),
    "short array": lambda: array.array("h", [1, 2, 3])}


def _poke(buffer: Any) -> None:
    """Change the buffer's first byte (or element), so that a shared tensor sees it."""
    if isinstance(buffer, array.array):
        buffer[0] = 99
    elif isinstance(buffer, memoryview):
        buffer.obj[0] ^= 0xFF
    elif isinstance(buffer, bytearray) and buffer:
        buffer[0] ^= 0xFF


@pytest.mark.filterwarnings("ignore:The given buffer is not writable")
@pytest.mark.parametrize("buffer", BUFFERS)
@pytest.mark.parametrize("dtype", [None, "int16", "float64", "bool"])
@pytest.mark.parametrize("copy", [None, True, False])
@pytest.mark.parametrize("requires_grad", [None, True])
def test_asarray_reads_a_python_buffer_as_raw_bytes_of_the_dtype_as_torch(
        buffer: str, dtype: str | None, copy: bool | None, requires_grad: bool | None) -> None:
    """Leftover of session 35: ``asarray(bytearray(...))`` was refused as unsupported; torch
    reads a buffer's bytes as the dtype (the default dtype without one) and shares a writable
    buffer's memory unless ``copy=True``; a length that is not a multiple of the element size,
    or an empty buffer, is refused with frombuffer's message."""
    def program(L: Any) -> Any:
        kwargs: dict[str, Any] = {"copy": copy}
        if dtype is not None:
            kwargs["dtype"] = getattr(L, dtype)
        if requires_grad is not None:
            kwargs["requires_grad"] = requires_grad
        data = BUFFERS[buffer]()
        result = L.asarray(data, **kwargs)
        _poke(data)
        return result.detach().clone(), result.requires_grad
    assert_as_torch(program)
