"""``torch.overrides``' dispatch for tensor-like types: an object whose class defines
``__torch_function__`` (and is not a Tensor) handles the public functions it is passed to.

minitorch's public ``minitorch.*`` functions hand over to such an object when they are called
with one (see "Extending torch with a Tensor-like type" in torch's notes); Tensor subclasses
that define ``__torch_function__`` are not dispatched to.

>>> import minitorch
>>> class Two:
...     @classmethod
...     def __torch_function__(cls, func, types, args=(), kwargs=None):
...         return f"{func.__name__} of Two"
>>> minitorch.mean(Two())
'mean of Two'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["handle_torch_function", "has_torch_function"]


def _is_tensor_like(kind: type) -> bool:
    from ._tensor import Tensor

    return getattr(kind, "__torch_function__", None) is not None and not issubclass(kind, Tensor)


def _flat(values: Iterable) -> Iterable:
    """The arguments torch's parser looks at: each value, and the items of a list or tuple."""
    for value in values:
        if isinstance(value, (list, tuple)):
            yield from value
        else:
            yield value


def _overloaded(relevant_args: Iterable) -> list:
    """One argument per tensor-like type, a subclass before its base classes (the order in
    which torch asks them)."""
    found: list = []
    for arg in _flat(relevant_args):
        kind = type(arg)
        if not _is_tensor_like(kind) or any(type(o) is kind for o in found):
            continue
        at = next((i for i, o in enumerate(found) if issubclass(kind, type(o))), len(found))
        found.insert(at, arg)
    return found


def has_torch_function(relevant_args: Iterable) -> bool:
    """Whether any of ``relevant_args`` is of a tensor-like type (its class defines
    ``__torch_function__``).

    >>> import minitorch
    >>> has_torch_function((minitorch.ones(1), 2.0))
    False
    """
    return bool(_overloaded(relevant_args))


def handle_torch_function(public_api: Callable, relevant_args: Iterable, *args: Any,
                          **kwargs: Any) -> Any:
    """Call ``public_api(*args, **kwargs)`` through the ``__torch_function__`` of the
    tensor-like types among ``relevant_args``: the first answer that is not NotImplemented.

    >>> class Loud:
    ...     @classmethod
    ...     def __torch_function__(cls, func, types, args=(), kwargs=None):
    ...         return func.__name__, len(args), kwargs
    >>> def scale(x, by=2): pass
    >>> handle_torch_function(scale, (Loud(),), Loud(), by=3)
    ('scale', 1, {'by': 3})
    """
    return _dispatch(public_api, f"{public_api.__module__}.{public_api.__name__}",
                     relevant_args, args, kwargs)


def _dispatch(public_api: Callable, name: str, relevant_args: Iterable, args: tuple,
              kwargs: dict | None) -> Any:
    overloaded = _overloaded(relevant_args)
    types = tuple(type(arg) for arg in overloaded)
    for arg in overloaded:
        result = type(arg).__torch_function__(public_api, types, args, kwargs)
        if result is not NotImplemented:
            return result
    listed = "".join(f"  - tensor subclass {kind}\n" for kind in types)
    raise TypeError(f"Multiple dispatch failed for '{name}'; all __torch_function__ handlers "
                    f"returned NotImplemented:\n\n{listed}\nFor more information, try "
                    "re-running with TORCH_LOGS=not_implemented")


def dispatch_public(public_api: Callable, name: str, args: tuple, kwargs: dict) -> Any:
    """How a public minitorch function called with a tensor-like argument answers (torch's
    C functions: ``kwargs`` None when none were given); NotImplemented when there is none."""
    if not _overloaded((*args, *kwargs.values())):
        return NotImplemented
    return _dispatch(public_api, name, (*args, *kwargs.values()), args, kwargs or None)
