"""``minitorch.backends.mkl``: whether MKL is here for minitorch's products and LAPACK
calls (where it is, they give torch's bits).

>>> import minitorch
>>> minitorch.backends.mkl.is_available() in (True, False)
True
"""

from .. import _mkl

__all__ = ["is_available"]


def is_available() -> bool:
    """True when MKL's library was found (minitorch then calls it as torch does)."""
    return _mkl.library() is not None
