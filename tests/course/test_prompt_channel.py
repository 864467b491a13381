"""The kernel client that grading and the course's tests use polls its channels in slices:
pyzmq's asyncio poll can miss a message's arrival (after an ``interact`` cell, one cell in
thirty waited out its whole timeout, then found its reply). A socket that never announces its
message stands in for that miss."""

from __future__ import annotations

import asyncio
from queue import Empty
from typing import Any

import pytest

from course.integrity import PromptChannel, PromptKernelClient, SandboxedKernelManager


class SilentSocket:
    """A socket whose poll sleeps out the time it is given and only then looks: the miss."""

    def __init__(self, ready_after: int) -> None:
        self.asked: list[int] = []
        self.ready_after = ready_after  # polls before the message is there

    async def poll(self, timeout_ms: int) -> bool:
        self.asked.append(timeout_ms)
        await asyncio.sleep(timeout_ms / 1000)
        return len(self.asked) > self.ready_after


def _channel(socket: SilentSocket) -> PromptChannel:
    channel = PromptChannel.__new__(PromptChannel)  # (no session or loop: get_msg reads
    channel.socket = socket  # only the socket and _recv)

    async def recv() -> dict[str, Any]:
        return {"msg_type": "execute_reply"}

    channel._recv = recv  # type: ignore[method-assign]
    return channel


def test_a_missed_message_is_found_within_a_tenth_of_a_second() -> None:
    socket = SilentSocket(ready_after=2)
    msg = asyncio.run(_channel(socket).get_msg(timeout=300))
    assert msg == {"msg_type": "execute_reply"}
    assert socket.asked == [100, 100, 100], socket.asked  # not one poll of 300 000 ms


def test_no_message_is_still_empty_at_the_deadline() -> None:
    socket = SilentSocket(ready_after=10 ** 6)
    with pytest.raises(Empty):
        asyncio.run(_channel(socket).get_msg(timeout=0.25))
    assert max(socket.asked) <= 100 and len(socket.asked) >= 3, socket.asked


def test_grading_kernels_are_talked_to_by_the_prompt_client() -> None:
    manager = SandboxedKernelManager(kernel_name="python3")
    client = manager.client()
    assert isinstance(client, PromptKernelClient)
    assert all(isinstance(getattr(client, f"{name}_channel"), PromptChannel)
               for name in ("shell", "iopub", "control", "stdin"))
