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


_DEBUG_MODES = {"default": 0, "warn": 1, "error": 2}


def set_deterministic_debug_mode(debug_mode: str | int) -> None:
    """:func:`use_deterministic_algorithms` by level: ``"default"`` (0) off, ``"warn"`` (1)
    warn only, ``"error"`` (2) on.

    >>> minitorch.set_deterministic_debug_mode("default"); minitorch.get_deterministic_debug_mode()
    0
    """
    if isinstance(debug_mode, str):
        if debug_mode not in _DEBUG_MODES:
            raise RuntimeError("invalid value of debug_mode, expected one of `default`, `warn`, "
                               f"`error`, but got {debug_mode}")
        debug_mode = _DEBUG_MODES[debug_mode]
    elif not isinstance(debug_mode, int):
        raise TypeError(f"debug_mode must be str or int, but got {type(debug_mode)}")
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got "
                           f"{debug_mode}")
    use_deterministic_algorithms(debug_mode > 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode() -> int:
    """The level :func:`set_deterministic_debug_mode` sets: 0 off, 1 warn only, 2 on.

    >>> minitorch.get_deterministic_debug_mode()
    0
    """
    if not _state["mode"]:
        return 0
    return 1 if _state["warn_only"] else 2
