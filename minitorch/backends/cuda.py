"""``minitorch.backends.cuda``: cuBLAS's switches (``matmul.allow_tf32``, ...) and the float32
matmul precision they share with :func:`set_float32_matmul_precision`. minitorch's products
are MKL's or numpy's (CuPy's on a GPU), in full float32 whatever these say, as torch's
CPU products are.

>>> import minitorch
>>> minitorch.backends.cuda.matmul.allow_tf32 = True
>>> minitorch.get_float32_matmul_precision()
'high'
>>> minitorch.set_float32_matmul_precision("highest")
"""

from __future__ import annotations

import warnings
from typing import Any

from .. import cuda
from ._flags import checked_bool

__all__ = ["get_float32_matmul_precision", "is_built", "matmul",
           "set_float32_matmul_precision"]

_PRECISIONS = ("highest", "high", "medium")
_precision = ["highest"]


def set_float32_matmul_precision(precision: str) -> None:
    """Sets the precision float32 products may use on a GPU: ``"highest"`` (full float32),
    ``"high"`` or ``"medium"`` (TF32 allowed, as ``matmul.allow_tf32 = True``)."""
    if not isinstance(precision, str):
        raise RuntimeError(f"set_float32_matmul_precision expects a str, but got "
                           f"{type(precision).__name__}")
    if precision not in _PRECISIONS:
        warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                      "setFloat32MatmulPrecision call has no effect.", stacklevel=2)
        return
    _precision[0] = precision


def get_float32_matmul_precision() -> str:
    """The precision set by :func:`set_float32_matmul_precision` (``"highest"`` at first)."""
    return _precision[0]


def is_built() -> bool:
    """Whether minitorch can run on a CUDA GPU here (CuPy installed and a GPU found)."""
    return cuda.is_available()


class cuBLASModule:
    """``matmul``: cuBLAS's switches, checked on assignment as torch checks them."""

    _reductions = ("allow_fp16_reduced_precision_reduction",
                   "allow_bf16_reduced_precision_reduction")

    def __init__(self) -> None:
        object.__setattr__(self, "_allowed", dict.fromkeys(self._reductions, True))

    def __getattr__(self, name: str) -> Any:
        if name == "allow_tf32":
            return _precision[0] != "highest"
        if name in self._reductions:
            return self._allowed[name]
        raise AttributeError(f"Unknown attribute {name}")

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "allow_tf32":
            allowed = checked_bool("set_allow_tf32_cublas", value)
            _precision[0] = "high" if allowed else "highest"
        elif name in self._reductions:
            self._allowed[name] = _reduction_switch(name, value)
        else:
            raise AttributeError(f"Unknown attribute {name}")


matmul = cuBLASModule()


def _reduction_switch(name: str, value: Any) -> bool:
    """``allow_reduced_precision`` from a bool or torch's ``(allow_reduced_precision,
    allow_splitk)`` pair, checked as torch checks it."""
    if type(value) is bool:
        return value
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"{name} expects a bool or a tuple/list of bools, but got {type(value)}")
    if not value:
        raise TypeError(f"{name} expects at least one boolean argument")
    if len(value) > 2:
        raise TypeError(f"{name} expects at most two boolean arguments")
    for part, what in zip(value, ("allow_reduced_precision", "allow_splitk")):
        if type(part) is not bool:
            raise TypeError(f"{name} expects a bool for {what}, but got {type(part)}")
    if value[0] and len(value) == 2 and not value[1]:
        raise RuntimeError("allow_splitk=False is not supported when reduced precision "
                           "reductions are enabled")
    return value[0]
