"""Names for the tensors of a drawn graph: from ``params`` or from the caller's variables.

>>> import minitorch
>>> w = minitorch.ones(2, requires_grad=True)
>>> tensor_names({"weight": w}, None)[id(w)][1]
'weight'
"""

from __future__ import annotations

from types import FrameType
from typing import Any

from .._tensor import Tensor

__all__ = ["tensor_names"]


def tensor_names(params: Any, frame: FrameType | None) -> dict[int, tuple[Tensor, str]]:
    """Map ``id(tensor)`` to the tensor and its display name (holding the tensor keeps the
    id valid while the graph is drawn).

    ``params`` is a dict of name to tensor, or anything with ``named_parameters()`` (a
    Module). With a ``frame``, its local variables name the tensors they hold, and a local
    Module names its parameters ``var.param``. Explicit ``params`` win over variables.
    """
    names: dict[int, tuple[Tensor, str]] = {}
    if frame is not None:
        _add_locals(names, frame.f_locals)
    if params is not None:
        for name, value in _named(params):
            if isinstance(value, Tensor):
                names[id(value)] = (value, name)
    return names


def _named(params: Any) -> list[tuple[str, Any]]:
    if isinstance(params, dict):
        return list(params.items())
    if callable(getattr(params, "named_parameters", None)):
        return list(params.named_parameters())
    raise TypeError(
        "params must be a dict of name -> tensor or an object with named_parameters() (a "
        f"Module), but got {type(params).__name__}"
    )


def _add_locals(names: dict[int, tuple[Tensor, str]], local_vars: dict[str, Any]) -> None:
    """Tensors first, so ``w = model.fc.weight`` shows as ``w`` rather than ``model.fc.weight``."""
    modules = []
    for var, value in local_vars.items():
        if var.startswith("_"):  # IPython's _, __, _1, _i1 ... history names
            continue
        if isinstance(value, Tensor):
            names.setdefault(id(value), (value, var))
        elif not isinstance(value, type) and callable(getattr(value, "named_parameters", None)):
            modules.append((var, value))
    for var, module in modules:
        for pname, p in module.named_parameters():
            names.setdefault(id(p), (p, f"{var}.{pname}"))
