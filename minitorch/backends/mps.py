"""``minitorch.backends.mps``: Apple's Metal backend, which minitorch does not have.

>>> import minitorch
>>> minitorch.backends.mps.is_available()
False
"""

__all__ = ["is_available", "is_built"]


def is_available() -> bool:
    """False: minitorch runs on the CPU (numpy) or an NVIDIA GPU (CuPy), not on MPS."""
    return False


def is_built() -> bool:
    """False: minitorch has no MPS backend."""
    return False
