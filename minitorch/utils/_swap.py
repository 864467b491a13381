"""``utils.swap_tensors``: two tensor objects exchange their contents, keeping their identities."""

from __future__ import annotations

import copyreg
import weakref
from typing import Any


def swap_tensors(t1: Any, t2: Any) -> None:
    """Swap everything two tensors hold (class, attributes, values, autograd state), so that
    whoever holds ``t1`` now sees what ``t2`` was (an optimizer keeps seeing a module's
    parameter after the module replaced it, for example).

    >>> import minitorch
    >>> a, b = minitorch.arange(2), minitorch.arange(3)
    >>> swap_tensors(a, b)
    >>> a, b
    (tensor([0, 1, 2]), tensor([0, 1]))
    """
    if weakref.getweakrefs(t1):
        raise RuntimeError("Cannot swap t1 because it has weakref associated with it")
    if weakref.getweakrefs(t2):
        raise RuntimeError("Cannot swap t2 because it has weakref associated with it")
    t1_slots = set(copyreg._slotnames(type(t1)))  # type: ignore[attr-defined]
    t2_slots = set(copyreg._slotnames(type(t2)))  # type: ignore[attr-defined]
    if t1_slots != t2_slots:
        raise RuntimeError("Cannot swap t1 and t2 if they have different slots")
    for name in ("__class__", "__dict__"):
        _swap_attribute(t1, t2, name)
    for slot in t1_slots:
        _swap_slot(t1, t2, slot)


def _swap_attribute(t1: Any, t2: Any, name: str) -> None:
    first = getattr(t1, name)
    setattr(t1, name, getattr(t2, name))
    setattr(t2, name, first)


def _swap_slot(t1: Any, t2: Any, slot: str) -> None:
    """A slot set on one side only moves to the other (an unset slot has no value)."""
    has1, has2 = hasattr(t1, slot), hasattr(t2, slot)
    if has1 and has2:
        _swap_attribute(t1, t2, slot)
    elif has1:
        setattr(t2, slot, getattr(t1, slot))
        delattr(t1, slot)
    elif has2:
        setattr(t1, slot, getattr(t2, slot))
        delattr(t2, slot)
