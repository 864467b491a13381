"""``minitorch.random``: the default generator's seed and state, as ``torch.random`` has them,
and :func:`fork_rng`, which lets a block draw random numbers without moving the stream the
rest of the program sees.

>>> import minitorch
>>> _ = minitorch.manual_seed(0)
>>> with minitorch.random.fork_rng():
...     inside = minitorch.rand(1)
>>> minitorch.equal(inside, minitorch.rand(1))
True
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator

from . import cuda
from ._random import (
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)
from .backend import device

__all__ = ["default_generator", "fork_rng", "get_rng_state", "initial_seed", "manual_seed",
           "seed", "set_rng_state"]


@contextlib.contextmanager
def fork_rng(devices: Iterable[int] | None = None, enabled: bool = True,
             _caller: str = "fork_rng", _devices_kw: str = "devices",
             device_type: str | None = None) -> Iterator[None]:
    """Restores the default generator's state when the block ends (unless ``enabled`` is
    False). Naming GPU ``devices`` without a GPU is refused, as in torch."""
    if device_type is not None:
        device(device_type)  # torch's refusal of an unknown device type
    if device_type == "meta" or not enabled:
        yield
        return
    if devices is not None and list(devices) and not cuda.is_available():
        raise AssertionError("Torch not compiled with CUDA enabled")
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)
