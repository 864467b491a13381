"""The hyperbolic functions ``sinh``, ``cosh`` and their inverses ``asinh``, ``acosh``,
``atanh``, with the bits of torch's CPU kernels and the backward of ``derivatives.yaml``.

torch's float32 and float64 kernels (ATen's UnaryOpsKernel.cpp) differ by function:

* ``asinh`` and ``acosh`` call the C library's ``asinhf``/``acoshf`` (``asinh``/``acosh``)
  for every element: minitorch calls the same functions (:func:`minitorch._libm.c_math`);
* ``sinh``, ``cosh`` and ``atanh`` take two SIMD vectors at a time through SLEEF, and the
  elements after the last pair one by one through the C library, as :func:`torch_sigmoid`
  does. For float32 minitorch runs SLEEF's own steps (:mod:`minitorch._sleef`: all of torch's
  bits but about one in 200 000) and the C library on the rest; for
  float64 the vector part is numpy's (96-99% of torch's bits). Where torch runs its scalar
  kernel (no AVX2, or ``ATEN_CPU_CAPABILITY=default``) every element is the C library's.

torch's in-place ``asinh_``, ``acosh_`` and ``atanh_`` have no derivative: their node
(``AsinhBackward1``, ...) refuses, as here. Arrays other than numpy's keep their library's
functions.

>>> import minitorch
>>> x = minitorch.tensor([0., 1.], requires_grad=True)
>>> y = minitorch.sinh(x)
>>> y
tensor([0.0000, 1.1752], grad_fn=<SinhBackward0>)
>>> y.sum().backward(); x.grad
tensor([1.0000, 1.5431])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _sleef
from .._libm import c_math
from .._tensor import Tensor
from ._fused import fuses
from ._softmax_order import lanes
from .pointwise import _unary

__all__ = ["METHODS", "Acosh", "Asinh", "Atanh", "Cosh", "Sinh"]


def _scalar(name: str) -> Any:
    """torch's kernel that calls the C library for every element (``asinh``, ``acosh``)."""

    def compute(xp: Any, a: Any) -> Any:
        if type(a) is np.ndarray:
            return c_math(name, a)
        return getattr(xp, name)(a)

    return compute


def _paired(name: str) -> Any:
    """torch's vectorised kernel: SLEEF on pairs of vectors, the C library for the rest."""

    def compute(xp: Any, a: Any) -> Any:
        if type(a) is not np.ndarray:
            return getattr(xp, name)(a)
        flat = a.ravel()
        pair = 2 * lanes() * 4 // a.itemsize  # float64 vectors hold half as many
        paired = flat.size - flat.size % pair if fuses() else 0  # else torch's scalar kernel
        head = (getattr(_sleef, f"{name}f") if a.dtype == np.float32 else getattr(np, name))(
            flat[:paired])
        return np.concatenate([head, c_math(name, flat[paired:])]).reshape(a.shape)

    return compute


_COMPUTE = {"sinh": _paired("sinh"), "cosh": _paired("cosh"), "asinh": _scalar("asinh"),
            "acosh": _scalar("acosh"), "atanh": _paired("atanh")}

# torch's pow(2) of a float is x * x, as here
Sinh = _unary("Sinh", "sinh", _COMPUTE["sinh"], lambda g, x: g * x.cosh(), "self")
Cosh = _unary("Cosh", "cosh", _COMPUTE["cosh"], lambda g, x: g * x.sinh(), "self")
Asinh = _unary("Asinh", "asinh", _COMPUTE["asinh"],
               lambda g, x: g * (x * x + 1).rsqrt(), "self")
Acosh = _unary("Acosh", "acosh", _COMPUTE["acosh"],
               lambda g, x: g * (x * x - 1).rsqrt(), "self")
Atanh = _unary("Atanh", "atanh", _COMPUTE["atanh"],
               lambda g, x: g * 1 / (1 - x * x), "self")


def _inplace_of_inverse(op: Any) -> Any:
    """torch's in-place ``asinh_``/``acosh_``/``atanh_``: node ``<Name>Backward1``, whose
    backward refuses, with torch's message."""
    name = op.__name__.lower()

    def refuse(g: Any, r: Any) -> Any:
        raise NotImplementedError(f"the derivative for 'inplace version of {name}' is not "
                                  "implemented.")

    return _unary(op.__name__, f"{name}_", _COMPUTE[name], refuse, "result",
                  node=f"{op.__name__}Backward1")


INPLACE = {op: _inplace_of_inverse(op) for op in (Asinh, Acosh, Atanh)}


def _method(op: Any, inplace: bool) -> Any:
    name = op.__name__.lower()

    def method(self: Tensor) -> Tensor:
        return self._inplace(INPLACE.get(op, op).apply) if inplace else op.apply(self)

    method.__name__ = f"{name}_" if inplace else name
    method.__doc__ = (f"{'In-place ' if inplace else 'Element-wise '}``{name}`` (node "
                      f"``{op.node_name}``).\n\n    >>> minitorch.tensor([0.5]).{method.__name__}"
                      "().shape\n    torch.Size([1])\n    ")
    return method


# the Tensor methods, each also under numpy's name (arcsinh, ...) as torch has them
METHODS: dict[str, Any] = {}
for _op in (Sinh, Cosh, Asinh, Acosh, Atanh):
    for _inplace in (False, True):
        _fn = _method(_op, _inplace)
        METHODS[_fn.__name__] = _fn
        if _op.__name__.startswith("A"):
            METHODS["arc" + _fn.__name__[1:]] = _fn
