"""``minitorch.compile``: minitorch has no compiler, so a compiled model runs eagerly, op by
op, with the same values and the same autograd graph as without ``compile`` (as torch's
``backend="eager"`` runs the ops it captured). The call checks its arguments as torch does
and wraps a module in torch's ``OptimizedModule``, so the usual ``model = torch.compile(model)``
line runs unchanged, state-dict keys (``_orig_mod.``) included.

>>> import minitorch
>>> net = minitorch.compile(minitorch.nn.Linear(2, 1))
>>> list(net.state_dict())
['_orig_mod.weight', '_orig_mod.bias']
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from .nn.module import Module

__all__ = ["OptimizedModule", "compile"]

_MODES = ("default", "lite", "reduce-overhead", "max-autotune-no-cudagraphs", "max-autotune")


class OptimizedModule(Module):
    """A module as ``compile`` returns it: ``_orig_mod`` runs each call, and attributes the
    wrapper lacks are read from it.

    >>> m = OptimizedModule(minitorch.nn.Linear(2, 1)); m.in_features
    2
    """

    def __init__(self, mod: Module) -> None:
        super().__init__()
        self._orig_mod = mod

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return self._orig_mod(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name == "_orig_mod":  # not set yet (a copy being made): no recursion
            raise AttributeError(name)
        return getattr(self._orig_mod, name)


def compile(model: Callable | None = None, *, fullgraph: bool = False, dynamic: bool | None = None,
            backend: str | Callable = "inductor", mode: str | None = None,
            options: dict | None = None, disable: bool = False) -> Any:
    """``model`` to run eagerly (minitorch compiles nothing): a module wrapped in an
    :class:`OptimizedModule`, a function in a function of its name; without ``model``, the
    decorator that does this.

    >>> double = minitorch.compile(lambda x: x * 2)
    >>> double(minitorch.ones(2))
    tensor([2., 2.])
    """
    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be "
                           "specified at the same time.")
    if mode is not None and mode not in _MODES:
        raise RuntimeError(f"Unrecognized mode={mode}, should be one of: {', '.join(_MODES)}")
    if model is None:
        return functools.partial(compile, fullgraph=fullgraph, dynamic=dynamic,
                                 backend=backend, mode=mode, options=options, disable=disable)
    if not callable(model):
        raise AssertionError(f"A callable function is expected, but {type(model)} is provided.")
    if isinstance(model, Module):
        return OptimizedModule(model)

    @functools.wraps(model)
    def compiled(*args: Any, **kwargs: Any) -> Any:
        return model(*args, **kwargs)

    return compiled
