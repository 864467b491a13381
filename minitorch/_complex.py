"""torch's ``complex`` and ``polar``, which build a complex tensor from two real ones, and
``view_as_real`` and ``view_as_complex``, which read a tensor's memory as the other kind.
minitorch has no complex dtypes: it checks their arguments in torch's order, so that bad
input gets torch's error, and refuses what torch would turn into a complex tensor.

>>> import minitorch
>>> minitorch.complex(minitorch.ones(2), minitorch.ones(2, dtype=minitorch.float64))
Traceback (most recent call last):
RuntimeError: Expected object of scalar type Float but got scalar type Double for second argument
"""

from __future__ import annotations

from typing import Any

from . import _args
from ._tensor import Tensor, broadcast_shapes
from .autograd.grad_mode import is_grad_enabled

__all__ = ["complex", "polar", "view_as_complex", "view_as_real"]

_PARTS = ("float16", "float32", "float64")


def complex(real: Tensor, imag: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``real + i imag``: refused after torch's checks, minitorch has no complex dtypes.

    >>> minitorch.complex(minitorch.ones(2), minitorch.ones(3, dtype=minitorch.int64))
    Traceback (most recent call last):
    RuntimeError: Expected both inputs to be Half, Float or Double tensors but got Float and Long
    """
    _refuse("complex", (real, "real"), (imag, "imag"), out)


def polar(abs: Tensor, angle: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``abs (cos angle + i sin angle)``: refused after torch's checks, minitorch has no
    complex dtypes.

    >>> minitorch.polar(minitorch.ones(2), 1.0)
    Traceback (most recent call last):
    TypeError: polar(): argument 'angle' (position 2) must be Tensor, not float
    """
    _refuse("polar", (abs, "abs"), (angle, "angle"), out)


def view_as_real(input: Tensor) -> Tensor:
    """A complex tensor's memory as real pairs: every minitorch tensor is real, so torch's
    refusal of a real one.

    >>> minitorch.view_as_real(minitorch.ones(2))
    Traceback (most recent call last):
    RuntimeError: view_as_real is only supported for complex tensors
    """
    _args.tensor_args("view_as_real", (input, "input", 1))
    raise RuntimeError("view_as_real is only supported for complex tensors")


def view_as_complex(input: Tensor) -> Tensor:
    """A real tensor's last dim of two as one complex number: refused after torch's checks
    of the memory it would read, minitorch has no complex dtypes.

    >>> minitorch.view_as_complex(minitorch.ones(2, 3))
    Traceback (most recent call last):
    RuntimeError: Tensor must have a last dimension of size 2
    """
    _args.tensor_args("view_as_complex", (input, "input", 1))
    if input.dtype.name not in _PARTS:
        raise RuntimeError("view_as_complex is only supported for half, float and double "
                           f"tensors, but got a tensor of scalar type: {_args.legacy(input.dtype)}")
    if input.dim() == 0:
        raise RuntimeError("Input tensor must have one or more dimensions")
    if input.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    strides = input.stride()
    if strides[-1] != 1:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    if any(s % 2 for s in strides[:-1]):
        raise RuntimeError("Tensor must have a stride divisible by 2 for all but last dimension")
    if input.storage_offset() % 2:
        raise RuntimeError("Tensor must have a storage_offset divisible by 2")
    raise NotImplementedError("minitorch has no complex dtypes: torch.view_as_complex would "
                              f"return a Complex{_args.legacy(input.dtype)} tensor")


def _refuse(fn: str, first: tuple, second: tuple, out: Any) -> Any:
    """torch's checks of ``fn``'s two real parts (``(value, name)``) and ``out``, in its
    order (the parser's, autograd's, the kernel's dtypes, then shapes); then minitorch's
    refusal of the complex result."""
    (a, _), (b, _) = first, second
    _args.tensor_args(fn, (*first, 1), (*second, 2))
    if out is not None:
        _args.tensor_args(fn, (out, "out", None))
        if is_grad_enabled() and (a.requires_grad or b.requires_grad or out.requires_grad):
            raise RuntimeError(f"{fn}(): functions with out=... arguments don't support "
                               "automatic differentiation, but one of the arguments requires "
                               "grad.")
    if a.dtype.name not in _PARTS or b.dtype.name not in _PARTS:
        raise RuntimeError("Expected both inputs to be Half, Float or Double tensors but got "
                           f"{_args.legacy(a.dtype)} and {_args.legacy(b.dtype)}")
    if a.dtype is not b.dtype:
        raise RuntimeError(f"Expected object of scalar type {_args.legacy(a.dtype)} but got "
                           f"scalar type {_args.legacy(b.dtype)} for second argument")
    result = f"Complex{_args.legacy(a.dtype)}"
    if out is not None:
        raise RuntimeError(f"Expected object of scalar type {result} but got scalar type "
                           f"{_args.legacy(out.dtype)} for argument 'out'")
    broadcast_shapes(a.shape, b.shape)
    if fn == "polar" and a.dtype.name == "float16":
        raise _args.not_implemented("polar_cpu", a.dtype)
    raise NotImplementedError(f"minitorch has no complex dtypes: torch.{fn} would return a "
                              f"{result} tensor")
