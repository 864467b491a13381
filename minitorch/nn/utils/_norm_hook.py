"""The forward pre-hook that the old ``weight_norm`` and ``spectral_norm`` each leave on a
module: at most one per parameter, and ``remove_*`` finds it by class and parameter name.

>>> import warnings
>>> from minitorch.nn.utils._norm_hook import find_norm_hook
>>> from minitorch.nn.utils.weight_norm import WeightNorm
>>> with warnings.catch_warnings():
...     warnings.simplefilter("ignore")
...     m = nn.utils.weight_norm(nn.Linear(3, 2))
>>> find_norm_hook(m, WeightNorm, "weight") is not None
True
"""

from __future__ import annotations

from typing import Any

from ..module import Module

__all__ = ["find_norm_hook", "refuse_second_norm_hook", "remove_norm_hook"]


def find_norm_hook(module: Module, kind: type, name: str) -> tuple[int, Any] | None:
    """The key and hook of ``module``'s pre-hook of class ``kind`` over ``name``, or None."""
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, kind) and hook.name == name:
            return key, hook
    return None


def refuse_second_norm_hook(module: Module, kind: type, name: str, what: str) -> None:
    """Torch's refusal to reparametrize ``name`` twice the same way (``what``: the function)."""
    if find_norm_hook(module, kind, name) is not None:
        raise RuntimeError(f"Cannot register two {what} hooks on the same parameter {name}")


def remove_norm_hook(module: Module, kind: type, name: str, what: str) -> None:
    """Undo the reparametrization of ``name`` and drop its pre-hook (``what``: the function)."""
    found = find_norm_hook(module, kind, name)
    if found is None:
        raise ValueError(f"{what} of '{name}' not found in {module}")
    key, hook = found
    hook.remove(module)
    del module._forward_pre_hooks[key]
