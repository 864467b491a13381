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
        if type(value) is not bool:
            raise RuntimeError(f"{self.setter} expects a bool, but got {type(value).__name__}")
        module.__dict__[self.name] = value
