"""``nn.utils.skip_init``: build a module without running its parameters' initialization."""

from __future__ import annotations

import inspect
from typing import Any

from ..module import Module


def skip_init(module_cls: type, *args: Any, **kwargs: Any) -> Module:
    """Instantiate ``module_cls(*args, **kwargs)`` with its parameters and buffers left
    uninitialized, as ``empty`` leaves them: the module is built on the meta device (where
    initialization has nothing to write) and then given fresh storage on ``device``.

    The module must take a ``device`` argument, as torch requires.

    >>> import minitorch
    >>> m = skip_init(minitorch.nn.Linear, 5, 1)
    >>> m.weight.shape, m.weight.device, m.weight.requires_grad
    (torch.Size([1, 5]), device(type='cpu'), True)
    """
    if not issubclass(module_cls, Module):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    final_device = kwargs.pop("device", "cpu")
    kwargs["device"] = "meta"
    return module_cls(*args, **kwargs).to_empty(device=final_device)
