"""``minitorch.cuda``: is a GPU there, and waiting for it.

minitorch runs on an NVIDIA GPU through CuPy (``pip install "minitorch[cuda]"``). CuPy is
imported by these functions, never by ``import minitorch``.

>>> import minitorch
>>> minitorch.cuda.is_available() in (True, False)
True
"""

from __future__ import annotations

from typing import Any

from . import backend

__all__ = ["current_device", "device_count", "empty_cache", "is_available", "manual_seed",
           "manual_seed_all", "synchronize"]


def is_available() -> bool:
    """True when CuPy is installed and finds at least one CUDA GPU.

    >>> device = "cuda" if minitorch.cuda.is_available() else "cpu"
    """
    return backend.cuda_device_count() > 0


def device_count() -> int:
    """The number of CUDA GPUs CuPy sees (0 without CuPy).

    >>> minitorch.cuda.device_count() >= 0
    True
    """
    return backend.cuda_device_count()


def current_device() -> int:
    """The index of the GPU new CUDA tensors go to.

    >>> minitorch.cuda.current_device() if minitorch.cuda.is_available() else 0
    0
    """
    return backend.current_cuda_index()


def synchronize(device: Any = None) -> None:
    """Wait until every kernel queued on the GPU has finished (GPU work is asynchronous, so
    time a GPU step only after this). Does nothing when there is no GPU.

    >>> minitorch.cuda.synchronize()
    """
    backend.synchronize(backend.as_device(device) if device is not None else None)


def empty_cache() -> None:
    """Release the GPU memory the allocator keeps cached but unused (CuPy's memory pool), as
    training loops call between phases. Without a GPU it does nothing, as in torch.

    >>> minitorch.cuda.empty_cache() is None
    True
    """
    backend.release_cached_memory()


def manual_seed(seed: int) -> None:
    """Seed the GPU's random numbers only. Without a GPU it does nothing and returns None, as
    torch's does (torch queues the seed until CUDA starts), so CPU-only programs that seed
    both devices run unchanged.

    >>> minitorch.cuda.manual_seed(0) is None
    True
    """
    seed = int(seed)  # torch's Python converts first: a bad seed fails on any machine
    if is_available():
        from ._random import default_generator

        default_generator.manual_seed_gpu(seed)


def manual_seed_all(seed: int) -> None:
    """Seed every GPU's random numbers (minitorch drives one GPU stream, so the same as
    :func:`manual_seed`).

    >>> minitorch.cuda.manual_seed_all(0) is None
    True
    """
    manual_seed(seed)
