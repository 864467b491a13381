"""The trigonometric functions besides ``sin`` and ``cos``: ``tan``, the inverses ``asin``,
``acos``, ``atan`` (also under numpy's names ``arcsin``, ...), ``deg2rad``/``rad2deg``, the
normalised ``sinc`` and a real number's ``angle`` (0, or π where negative), each with torch's
node and the backward of ``derivatives.yaml``. Integer and bool inputs are computed in the
default float dtype, as torch's.

>>> import minitorch
>>> x = minitorch.tensor([0.5], requires_grad=True)
>>> y = minitorch.asin(x); y
tensor([0.5236], grad_fn=<AsinBackward0>)
>>> y.backward(); x.grad
tensor([1.1547])
"""

from __future__ import annotations

import math
from typing import Any

from ..backend import cpu_math
from ._base import example, public_unary
from .pointwise import _unary, where, zero_grad

__all__ = ["METHODS", "Acos", "Angle", "Asin", "Atan", "Deg2Rad", "Rad2Deg", "Sinc", "Tan",
           "acos", "angle", "arccos", "arcsin", "arctan", "asin", "atan", "deg2rad", "rad2deg",
           "sinc", "tan"]

# the backward formulas multiply in torch's order, so that they round as torch's do
Acos = _unary("Acos", "acos", lambda xp, a: cpu_math(xp.acos, a),
              lambda g, x: g * -((-x * x + 1).rsqrt()), "self")
Asin = _unary("Asin", "asin", lambda xp, a: cpu_math(xp.asin, a),
              lambda g, x: g * (-x * x + 1).rsqrt(), "self")
Atan = _unary("Atan", "atan", lambda xp, a: cpu_math(xp.atan, a),
              lambda g, x: g / (x * x + 1), "self")
Tan = _unary("Tan", "tan", lambda xp, a: cpu_math(xp.tan, a),
             lambda g, r: g * (1 + r * r), "result")
_PI_180, _180_PI = math.pi / 180, 180 / math.pi  # torch's M_PI_180 and M_180_PI
# a product by a double, which torch's kernel reads in the tensor's dtype
Deg2Rad = _unary("Deg2Rad", "deg2rad", lambda xp, a: a * _PI_180, lambda g, _: g * _PI_180,
                 None)
Rad2Deg = _unary("Rad2Deg", "rad2deg", lambda xp, a: a * _180_PI, lambda g, _: g * _180_PI,
                 None)


def _sinc(xp: Any, a: Any) -> Any:
    """``sin(πx) / (πx)``, 1 at 0: torch's kernel, the product rounded in the dtype first."""
    product = a * math.pi
    with_zero = xp.where(a == 0, xp.ones_like(product), product)
    return xp.where(a == 0, xp.ones_like(a), cpu_math(xp.sin, with_zero) / with_zero)


def _sinc_grad(g: Any, x: Any) -> Any:
    """torch's ``sinc_backward``: ``g (πx cos πx - sin πx) / (πx²)``, 0 where ``πx²`` is 0."""
    x_pi = x * math.pi
    squared_pi = x * x * math.pi
    out = g * ((x_pi * x_pi.cos()) - x_pi.sin()) / squared_pi
    return where(squared_pi == 0.0, 0.0, out)


Sinc = _unary("Sinc", "sinc", _sinc, _sinc_grad, "self")


def _angle(xp: Any, a: Any) -> Any:
    """The argument of a real number: π where it is negative, else 0 (NaN stays NaN)."""
    out = xp.where(a < 0, xp.full_like(a, math.pi), xp.zeros_like(a))
    return xp.where(a != a, a, out)


# torch saves self, whose real values have a zero gradient (its angle_backward)
Angle = _unary("Angle", "angle", _angle, zero_grad, "self")


def _public(op: Any, name: str, summary: str, values: str, printed: str) -> Any:
    return public_unary(op, name, example(summary, f"minitorch.{name}(minitorch.tensor({values}))",
                                          printed))


acos = _public(Acos, "acos", "The angle whose cosine is ``input``, in radians.", "[1., 0.]",
               "tensor([0.0000, 1.5708])")
arccos = _public(Acos, "arccos", "numpy's name for :func:`acos`.", "[1]", "tensor([0.])")
asin = _public(Asin, "asin", "The angle whose sine is ``input``, in radians.", "[0., 1.]",
               "tensor([0.0000, 1.5708])")
arcsin = _public(Asin, "arcsin", "numpy's name for :func:`asin`.", "[0]", "tensor([0.])")
atan = _public(Atan, "atan", "The angle whose tangent is ``input``, in radians.", "[0., 1.]",
               "tensor([0.0000, 0.7854])")
arctan = _public(Atan, "arctan", "numpy's name for :func:`atan`.", "[1]", "tensor([0.7854])")
tan = _public(Tan, "tan", "The tangent of ``input`` (radians).", "[0., 0.7854]",
              "tensor([0.0000, 1.0000])")
deg2rad = _public(Deg2Rad, "deg2rad", "Degrees to radians.", "[180., 90.]",
                  "tensor([3.1416, 1.5708])")
rad2deg = _public(Rad2Deg, "rad2deg", "Radians to degrees.", "[3.1415927]", "tensor([180.])")
sinc = _public(Sinc, "sinc", "The normalised sinc, ``sin(πx) / (πx)`` (1 at 0).", "[0., 0.5]",
               "tensor([1.0000, 0.6366])")
angle = _public(Angle, "angle", "The argument of each (real) element: π where negative, else 0.",
                "[-2, 3]", "tensor([3.1416, 0.0000])")

METHODS = {fn.__name__: fn for fn in (acos, angle, arccos, asin, arcsin, atan, arctan, tan,
                                      deg2rad, rad2deg, sinc)}
