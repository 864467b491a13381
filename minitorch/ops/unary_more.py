"""More element-wise functions: ``floor``, ``ceil``, ``trunc``, ``frac``, ``log2``,
``log10``, ``exp2``, ``erf`` and ``isnan``. ``log2``, ``log10`` and ``exp2`` of float32 round
once from float64, as torch's CPU kernels nearly always do.

The array API has no ``erf``, so it is summed here from two series in float64 (for float32
inputs then rounded once): near zero ``exp(-x²)·Σ 2ⁿx²ⁿ⁺¹/(2n+1)!!``, whose terms are all
positive, and beyond 3 one minus the continued fraction of ``erfc``.

>>> import minitorch
>>> minitorch.tensor([-1.5, 0.5]).floor()
tensor([-2.,  0.])
>>> minitorch.erf(minitorch.tensor([0., 1.]))
tensor([0.0000, 0.8427])
"""

from __future__ import annotations

import math
from typing import Any

from .. import _args, _mkl
from .._tensor import Tensor
from ..backend import cpu_math
from ._base import wrap
from .pointwise import _unary, zero_grad

__all__ = ["Ceil", "Erf", "Exp2", "Floor", "Frac", "Log2", "Log10", "Trunc", "erf_array",
           "isnan", "torch_erf"]

_SERIES_TERMS, _FRACTION_TERMS = 60, 60


def torch_erf(xp: Any, a: Any) -> Any:
    """erf as torch's CPU kernel takes it: MKL's ``vsErf``/``vdErf`` where MKL is installed
    (``minitorch[mkl]``), else :func:`erf_array`.

    >>> import numpy as np
    >>> float(torch_erf(np, np.array([0.5], dtype=np.float32))[0])
    0.5204998850822449
    """
    return _mkl.vector_maths_or("erf", erf_array, xp, a)


def _erf_small(xp: Any, x: Any) -> Any:
    term = x
    total = x
    x2 = x * x
    for n in range(1, _SERIES_TERMS):
        term = term * (2 * x2 / (2 * n + 1))
        total = total + term
    return 2 / math.sqrt(math.pi) * xp.exp(-x2) * total


def _erfc_large(xp: Any, x: Any) -> Any:
    """erfc(x) for x >= 3: exp(-x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + ...))))."""
    tail = x
    for k in range(_FRACTION_TERMS, 0, -1):
        tail = x + (k / 2) / tail
    return xp.exp(-x * x) / math.sqrt(math.pi) / tail


def erf_array(xp: Any, a: Any) -> Any:
    """erf of a floating array, accurate to a few float64 ulps; float32 rounds once.

    >>> import numpy as np
    >>> round(float(erf_array(np, np.array(0.5))), 15)
    0.520499877813047
    """
    x = xp.astype(a, xp.float64)
    ax = xp.clip(xp.abs(x), 0.0, 6.0)  # erf(6) is 1 in float64
    small = _erf_small(xp, xp.clip(ax, 0.0, 3.0))
    large = 1 - _erfc_large(xp, xp.clip(ax, 3.0, 6.0))
    out = xp.where(ax < 3, small, large)
    out = xp.where(x < 0, -out, out)
    out = xp.where(xp.isnan(x), x, out)
    return xp.astype(out, a.dtype)


def _rounding(name: str, fn: str) -> Any:
    """floor/ceil/trunc: integers stay as they are (bools are refused), the gradient is zero
    (torch's)."""
    op = _unary(name, fn, lambda xp, a: getattr(xp, fn)(a) if xp.isdtype(
        a.dtype, "real floating") else xp.asarray(a, copy=True), zero_grad, None,
        floating=False)
    op.bool_error = _args.not_implemented(f"{fn}_vml_cpu", "Bool")
    return op


Floor = _rounding("Floor", "floor")
Ceil = _rounding("Ceil", "ceil")
Trunc = _rounding("Trunc", "trunc")
Frac = _unary("Frac", "frac", lambda xp, a: a - xp.trunc(a), lambda g, x: g, None,
              floating=False)


def _frac_input(cls: type, a: Tensor) -> Any:
    """frac has floating kernels only (an integer input is refused, not converted)."""
    if not a.dtype.is_floating_point:
        raise _args.not_implemented("frac_cpu", a.dtype)
    return a._data


Frac.prepare = classmethod(_frac_input)
Log2 = _unary("Log2", "log2", lambda xp, a: cpu_math(xp.log2, a),
              lambda g, x: g / (x * math.log(2)), "self")
_LN10 = 2.3025850929940456  # torch's literal: one ulp below math.log(10)
Log10 = _unary("Log10", "log10", lambda xp, a: cpu_math(xp.log10, a),
               lambda g, x: g / (x * _LN10), "self")
Exp2 = _unary("Exp2", "exp2", lambda xp, a: cpu_math(lambda b: xp.pow(2.0, b), a),
              lambda g, r: g * r * math.log(2), "result")  # torch's order
Erf = _unary("Erf", "erf", lambda xp, a: torch_erf(xp, a),
             lambda g, x: 2.0 / math.sqrt(math.pi) * (-(x * x)).exp() * g, "self")


def isnan(input: Tensor) -> Tensor:
    """True where ``input`` is NaN.

    >>> minitorch.isnan(minitorch.tensor([1., float("nan")]))
    tensor([False,  True])
    """
    _args.tensor_args("isnan", (input, "input", 1))
    return wrap(input._xp.isnan(input._data))
