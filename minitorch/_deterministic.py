"""``torch.use_deterministic_algorithms``: a switch that asks for reproducible kernels.

Every minitorch kernel is deterministic already (numpy on one process), so the switch is
only remembered, for programs that set it and read it back.

>>> import minitorch
>>> minitorch.use_deterministic_algorithms(True)
>>> minitorch.are_deterministic_algorithms_enabled()
True
>>> minitorch.use_deterministic_algorithms(False)
"""

from __future__ import annotations

from . import _args

_state = {"mode": False, "warn_only": False}


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    """Ask for deterministic algorithms (``warn_only``: warn, not raise, where none exists).

    >>> minitorch.use_deterministic_algorithms(False, warn_only=False)
    """
    _args.flag("_set_deterministic_algorithms", mode, "mode", 1)
    _args.flag("_set_deterministic_algorithms", warn_only, "warn_only")
    _state.update(mode=mode, warn_only=warn_only)


def are_deterministic_algorithms_enabled() -> bool:
    """Whether :func:`use_deterministic_algorithms` is on.

    >>> minitorch.are_deterministic_algorithms_enabled()
    False
    """
    return _state["mode"]


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    """Whether :func:`use_deterministic_algorithms` was set with ``warn_only=True``.

    >>> minitorch.is_deterministic_algorithms_warn_only_enabled()
    False
    """
    return _state["warn_only"]
