"""``torch.onnx``, importable so that programs which import it run; minitorch cannot export
a model to ONNX, and ``export`` says so.

>>> import minitorch.onnx
>>> minitorch.onnx.export(minitorch.nn.Linear(2, 1), (minitorch.ones(1, 2),), "m.onnx")
Traceback (most recent call last):
    ...
NotImplementedError: minitorch cannot export ONNX: it records no traced graph of a model
"""

from __future__ import annotations

from typing import Any

__all__ = ["export"]


def export(model: Any, args: Any = (), f: Any = None, **kwargs: Any) -> None:
    """Refuses: minitorch has no tracer or ONNX writer (use torch to export)."""
    raise NotImplementedError("minitorch cannot export ONNX: it records no traced graph of a "
                              "model")
