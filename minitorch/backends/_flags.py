"""Switches of a ``minitorch.backends`` module, checked on assignment as torch checks them."""

from __future__ import annotations

from typing import Any


class Switch:
    """A boolean module attribute that refuses anything but a bool in torch's words
    (``set_deterministic_cudnn expects a bool, but got str``).

    >>> class Demo:
    ...     flag = Switch(False, "set_flag")
    >>> m = Demo(); m.flag = True; m.flag
    True
    """

    def __init__(self, default: bool, setter: str) -> None:
        self.default, self.setter = default, setter

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = "_" + name

    def __get__(self, module: Any, owner: type | None = None) -> Any:
        return self if module is None else module.__dict__.get(self.name, self.default)

    def __set__(self, module: Any, value: Any) -> None:
        module.__dict__[self.name] = checked_bool(self.setter, value)


def checked_bool(setter: str, value: Any) -> bool:
    """``value`` if it is a bool, else torch's refusal by its C++ ``setter``'s name.

    >>> checked_bool("set_flag", 1)
    Traceback (most recent call last):
    RuntimeError: set_flag expects a bool, but got int
    """
    if type(value) is not bool:
        raise RuntimeError(f"{setter} expects a bool, but got {type(value).__name__}")
    return value
