"""torch's ``TORCH_WARN_ONCE``: a warning its C++ gives the first time only, per process
(``storage()``, ``set_default_tensor_type``, ``asarray`` of a tensor that requires grad).

>>> import warnings
>>> with warnings.catch_warnings(record=True) as seen:
...     warnings.simplefilter("always")
...     warn_once("doctest: said once"); warn_once("doctest: said once")
>>> len(seen)
1
"""

from __future__ import annotations

import warnings

__all__ = ["warn_once"]

_given: set[str] = set()


def warn_once(message: str, stacklevel: int = 3, key: str | None = None) -> None:
    """A UserWarning with ``message``, unless it (or another with the same ``key``: torch's
    once is per place in its code, whatever values the message shows) was given before in
    this process."""
    key = message if key is None else key
    if key not in _given:
        _given.add(key)
        warnings.warn(message, UserWarning, stacklevel=stacklevel)
