"""Special functions that torch has at the top level: ``erfc``, ``erfinv``, the modified
Bessel function ``i0``, ``logit`` and ``nan_to_num``, each with torch's node and backward.

The array API has none of them: ``erfc`` is summed in float64 as :func:`erf_array` is (the
continued fraction of its tail keeps the small values' digits), ``erfinv`` and ``i0`` follow
torch's CPU kernels in the input's dtype (a rational first guess and two Newton steps;
Cephes' Chebyshev series).

>>> import minitorch
>>> x = minitorch.tensor([0.5], requires_grad=True)
>>> minitorch.erfinv(x)
tensor([0.4769], grad_fn=<ErfinvBackward0>)
"""

from __future__ import annotations

import math
from typing import Any

from .. import _args, _libm, _mkl
from .._dtype import get_default_dtype
from .._tensor import Tensor
from ..autograd import grad_mode
from ..backend import cpu_math, half_via_float
from ._base import Op, example, public_unary, wrap
from ._softmax_order import vector_mask
from .pointwise import _ParametrizedUnary, _unary, where
from .unary_more import _erf_small, _erfc_large, torch_erf

__all__ = [
    "I0",
    "METHODS",
    "Erfc",
    "Erfinv",
    "Logit",
    "NanToNum",
    "erfc",
    "erfc_array",
    "erfinv",
    "i0",
    "logit",
    "nan_to_num",
    "refuse_halves",
    "torch_erfc",
    "torch_erfinv",
]


def erfc_array(xp: Any, a: Any) -> Any:
    """``1 - erf(a)`` of a floating array, in float64 without the subtraction's loss where
    it is small (the continued fraction beyond 3), rounded once.

    >>> import numpy as np
    >>> float(erfc_array(np, np.array(10.0)))  # 2.0884875837625447...e-45
    2.0884875837625452e-45
    """
    x = xp.astype(a, xp.float64)
    ax = xp.abs(x)
    near = 1 - _erf_small(xp, xp.clip(ax, 0.0, 3.0))
    far = _erfc_large(xp, xp.clip(ax, 3.0, 28.0))  # erfc(28) is 0 in float64
    upper = xp.where(ax < 3, near, far)
    out = xp.where(x < 0, 2 - upper, upper)
    return xp.astype(xp.where(xp.isnan(x), x, out), a.dtype)


# torch's erfinv: a rational first guess (Pavlis'), then two Newton steps, in the dtype
_CENTRAL = ((0.886226899, -1.645349621, 0.914624893, -0.140543331),
            (-2.118377725, 1.442710462, -0.329097515, 0.012229801))
_TAIL = ((-1.970840454, -1.624906493, 3.429567803, 1.641345311), (3.543889200, 1.637067800))


def _horner(z: Any, coefficients: tuple) -> Any:
    """``c[-1] z^(n-1) + ... + c[0]``, innermost first."""
    out = z * coefficients[-1] + coefficients[-2]
    for c in reversed(coefficients[:-2]):
        out = out * z + c
    return out


def erfinv_array(xp: Any, y: Any) -> Any:
    """The inverse of erf, as torch's kernel computes it: NaN beyond ±1, ±inf at ±1.

    >>> import numpy as np
    >>> round(float(erfinv_array(np, np.array(0.5))), 12)
    0.476936276204
    """
    y_abs = xp.abs(y)
    inside = xp.where(y_abs < 1, y, xp.zeros_like(y))
    z = inside * inside
    central = inside * _horner(z, _CENTRAL[0]) / (_horner(z, _CENTRAL[1]) * z + 1)
    w = xp.sqrt(-cpu_math(xp.log, (1 - xp.abs(inside)) / 2))
    tail = xp.copysign(_horner(w, _TAIL[0]), inside) / (_horner(w, _TAIL[1]) * w + 1)
    x = xp.where(xp.abs(inside) <= 0.7, central, tail)
    for _ in range(2):
        slope = 2 / math.sqrt(math.pi) * cpu_math(xp.exp, -x * x)
        x = x - (torch_erf(xp, x) - inside) / slope
    x = xp.where(y_abs == 1, xp.copysign(xp.full_like(y, math.inf), y), x)
    return xp.where((y_abs > 1) | xp.isnan(y), xp.full_like(y, math.nan), x)


_I0E_LOW = (-4.41534164647933937950E-18, 3.33079451882223809783E-17,
            -2.43127984654795469359E-16, 1.71539128555513303061E-15,
            -1.16853328779934516808E-14, 7.67618549860493561688E-14,
            -4.85644678311192946090E-13, 2.95505266312963983461E-12,
            -1.72682629144155570723E-11, 9.67580903537323691224E-11,
            -5.18979560163526290666E-10, 2.65982372468238665035E-9,
            -1.30002500998624804212E-8, 6.04699502254191894932E-8,
            -2.67079385394061173391E-7, 1.11738753912010371815E-6,
            -4.41673835845875056359E-6, 1.64484480707288970893E-5,
            -5.75419501008210370398E-5, 1.88502885095841655729E-4,
            -5.76375574538582365885E-4, 1.63947561694133579842E-3,
            -4.32430999505057594430E-3, 1.05464603945949983183E-2,
            -2.37374148058994688156E-2, 4.93052842396707084878E-2,
            -9.49010970480476444210E-2, 1.71620901522208775349E-1,
            -3.04682672343198398683E-1, 6.76795274409476084995E-1)
_I0E_HIGH = (-7.23318048787475395456E-18, -4.83050448594418207126E-18,
             4.46562142029675999901E-17, 3.46122286769746109310E-17,
             -2.82762398051658348494E-16, -3.42548561967721913462E-16,
             1.77256013305652638360E-15, 3.81168066935262242075E-15,
             -9.55484669882830764870E-15, -4.15056934728722208663E-14,
             1.54008621752140982691E-14, 3.85277838274214270114E-13,
             7.18012445138366623367E-13, -1.79417853150680611778E-12,
             -1.32158118404477131188E-11, -3.14991652796324136454E-11,
             1.18891471078464383424E-11, 4.94060238822496958910E-10,
             3.39623202570838634515E-9, 2.26666899049817806459E-8,
             2.04891858946906374183E-7, 2.89137052083475648297E-6,
             6.88975834691682398426E-5, 3.36911647825569408990E-3,
             8.04490411014108831608E-1)
_I1E_LOW = (2.77791411276104639959E-18, -2.11142121435816608115E-17,
            1.55363195773620046921E-16, -1.10559694773538630805E-15,
            7.60068429473540693410E-15, -5.04218550472791168711E-14,
            3.22379336594557470981E-13, -1.98397439776494371520E-12,
            1.17361862988909016308E-11, -6.66348972350202774223E-11,
            3.62559028155211703701E-10, -1.88724975172282928790E-9,
            9.38153738649577178388E-9, -4.44505912879632808065E-8,
            2.00329475355213526229E-7, -8.56872026469545474066E-7,
            3.47025130813767847674E-6, -1.32731636560394358279E-5,
            4.78156510755005422638E-5, -1.61760815825896745588E-4,
            5.12285956168575772895E-4, -1.51357245063125314899E-3,
            4.15642294431288815669E-3, -1.05640848946261981558E-2,
            2.47264490306265168283E-2, -5.29459812080949914269E-2,
            1.02643658689847095384E-1, -1.76416518357834055153E-1,
            2.52587186443633654823E-1)
_I1E_HIGH = (7.51729631084210481353E-18, 4.41434832307170791151E-18,
             -4.65030536848935832153E-17, -3.20952592199342395980E-17,
             2.96262899764595013876E-16, 3.30820231092092828324E-16,
             -1.88035477551078244854E-15, -3.81440307243700780478E-15,
             1.04202769841288027642E-14, 4.27244001671195135429E-14,
             -2.10154184277266431302E-14, -4.08355111109219731823E-13,
             -7.19855177624590851209E-13, 2.03562854414708950722E-12,
             1.41258074366137813316E-11, 3.25260358301548823856E-11,
             -1.89749581235054123450E-11, -5.58974346219658380687E-10,
             -3.83538038596423702205E-9, -2.63146884688951950684E-8,
             -2.51223623787020892529E-7, -3.88256480887769039346E-6,
             -1.10588938762623716291E-4, -9.76109749136146840777E-3,
             7.78576235018280120474E-1)
# torch's float kernel of i1 sums the last 17 and 7 terms only
_I1_FLOAT_TERMS = (17, 7)


def _chebyshev(xp: Any, y: Any, coefficients: tuple) -> Any:
    """Cephes' ``chbevl``: the Chebyshev series of ``coefficients`` at ``y / 2``. The compiler
    of torch's AVX2 kernels fuses each step's ``y * b1 - b2`` into one ``fma``: so does
    :func:`~minitorch._libm.chbevl_fused` for a float32 numpy ``y`` and a float64 one of up
    to 64 values. Longer float64 keeps two roundings (85% of torch's bits; an exact fma by
    Dekker's product has them all, but makes i0e 6 to 16 times slower)."""
    fused = _libm.chbevl_fused(y, coefficients)
    if fused is not None:
        return fused
    b0, b1, b2 = xp.full_like(y, coefficients[0]), xp.zeros_like(y), xp.zeros_like(y)
    for c in coefficients[1:]:
        b2, b1 = b1, b0
        b0 = y * b1 - b2 + c
    return 0.5 * (b0 - b2)


def bessel_array(xp: Any, a: Any, order: int) -> Any:
    """The modified Bessel function ``I0`` or ``I1`` (``order``) of the first kind, as
    torch's kernel (Cephes') computes it in the dtype.

    >>> import numpy as np
    >>> [round(float(bessel_array(np, np.array(1.0), k)), 12) for k in (0, 1)]
    [1.266065877752, 0.565159103992]
    """
    low, high = (_I0E_LOW, _I0E_HIGH) if order == 0 else (_I1E_LOW, _I1E_HIGH)
    if order == 1 and a.dtype == xp.float32:
        low, high = low[-_I1_FLOAT_TERMS[0]:], high[-_I1_FLOAT_TERMS[1]:]
    x = xp.abs(a)
    far = xp.where(x <= 8, xp.full_like(x, 8), x)  # (NaN stays)
    near = _libm.exp_of(xp, x)  # std::exp, per number
    if order == 1:  # torch's exp(x) * x * chbevl(...), in that order
        near = near * x
    near = near * _chebyshev(xp, x / 2 - 2, low)
    far = _libm.exp_of(xp, far) * _chebyshev(xp, 32 / far - 2, high) / xp.sqrt(far)
    out = xp.where(x <= 8, near, far)
    return xp.where(a < 0, -out, out) if order == 1 else out


def torch_erfc(xp: Any, a: Any) -> Any:
    """erfc as torch's CPU kernel takes it: MKL's ``vsErfc``/``vdErfc`` where MKL is
    installed, else :func:`erfc_array` (ndtr and erfcx, whose kernels call the C library's
    ``erfc``, keep that one).

    >>> import numpy as np
    >>> float(torch_erfc(np, np.array([2.5]))[0])
    0.0004069520174449589
    """
    return _mkl.vector_maths_or("erfc", erfc_array, xp, a)


def torch_erfinv(xp: Any, a: Any) -> Any:
    """erfinv as torch's CPU kernel takes it: MKL's ``vsErfInv``/``vdErfInv`` where MKL is
    installed, else :func:`erfinv_array`.

    >>> import numpy as np
    >>> round(float(torch_erfinv(np, np.array([0.5]))[0]), 12)
    0.476936276204
    """
    return _mkl.vector_maths_or("erfinv", erfinv_array, xp, a)


Erfc = _unary("Erfc", "erfc", torch_erfc,
              lambda g, x: -2.0 / math.sqrt(math.pi) * (-(x * x)).exp() * g, "self")
Erfinv = _unary("Erfinv", "erfinv", torch_erfinv,
                lambda g, x: 0.5 * math.sqrt(math.pi) * (Erfinv.apply(x) ** 2).exp() * g,
                "self")


def refuse_halves(kernel: str, x: Tensor) -> None:
    """torch's refusal of a float16 or bfloat16 ``x`` by a ``kernel`` without them."""
    if x.dtype.name in ("float16", "bfloat16"):
        raise _args.not_implemented(kernel, x.dtype)


def _i1_grad(g: Tensor, x: Tensor, result: Tensor) -> Tensor:
    """torch's ``i1_backward``: ``i0(x) - i1(x)/x``, 1/2 where ``|x|`` is below epsilon
    (its kernel has no half types)."""
    refuse_halves("i1_backward", x)
    eps = 2.0 ** -52 if x.dtype.name == "float64" else 2.0 ** -23
    not_tiny = x.abs() > eps
    safe = where(not_tiny, x, eps)
    return g * where(not_tiny, I0.apply(safe) - result * safe.reciprocal(), 0.5)


class I1(Op):
    """``I1``, the derivative of ``i0`` (torch's ``special_i1``)."""

    node_name = "SpecialI1Backward0"
    saved_names = ("self", "result")
    _profile_name = "aten::special_i1"

    @staticmethod
    def forward(ctx: Any, a: Tensor) -> Tensor:
        data = a._data if a.dtype.is_floating_point else \
            a._xp.astype(a._data, getattr(a._xp, get_default_dtype().name))  # (integers)
        out = wrap(half_via_float(lambda xp, x: bessel_array(xp, x, 1), a._xp, data))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, result = ctx.saved_tensors
        return (_i1_grad(g, x, result),)


I0 = _unary("I0", "i0", lambda xp, a: bessel_array(xp, a, 0), lambda g, x: g * I1.apply(x),
            "self")


class Logit(_ParametrizedUnary):
    """``log(x / (1 - x))``, ``x`` clamped to ``[eps, 1 - eps]`` first when ``eps`` is given
    (not negative); the gradient is 0 (NaN without ``eps``) outside that range."""

    node_name = "LogitBackward0"
    _profile_name = "aten::logit"

    @staticmethod
    def compute(xp: Any, x: Any, eps: float | None) -> Any:
        bounds = None if eps is None else _logit_bounds(xp, eps, x.dtype)
        return half_via_float(lambda xp, x: _logit_array(xp, x, bounds), xp, x)

    @staticmethod
    def gradient(g: Tensor, x: Tensor, eps: float | None) -> Tensor:
        low, high = (0.0, 1.0) if eps is None else (eps, 1.0 - eps)
        outside = 0.0 if eps is not None else math.nan
        inside = g / (x * (1.0 - x))
        if not grad_mode.is_grad_enabled():  # torch's kernel (its composite formula under
            # create_graph): its vectors divide, its values one by one give g * inf at 0 and
            # 1, whatever 0's sign
            one_by_one = Tensor._make(~vector_mask(x._data))
            inside = where(((x == 0) | (x == 1)) & one_by_one, g * math.inf, inside)
        return where((x >= low) & (x <= high), inside, outside)


def _logit_bounds(xp: Any, eps: float, dtype: Any) -> tuple[float, float]:
    """logit's clamp ``[eps, 1 - eps]`` as torch's kernel holds it: both bounds in the
    input's dtype (a float16's ``1 - 1e-6`` is 1.0, so logit reaches inf).

    >>> import numpy as np
    >>> _logit_bounds(np, 1e-6, np.float16)[1]
    1.0
    """
    low = xp.asarray(eps, dtype=dtype)
    return float(low), float(xp.asarray(1 - low, dtype=dtype))


def _logit_array(xp: Any, x: Any, bounds: tuple[float, float] | None) -> Any:
    if bounds is not None:
        low, high = (xp.asarray(b, dtype=x.dtype) for b in bounds)
        x = xp.where(x < low, low, xp.where(x > high, high, x))
    # (a 0-d array's arithmetic gives a numpy scalar: asarray keeps it on MKL's log)
    return cpu_math(xp.log, xp.asarray(x / (1 - x)))


class NanToNum(_ParametrizedUnary):
    """NaN, inf and -inf replaced by the given numbers (or the dtype's largest and lowest);
    the gradient passes where ``x`` is finite."""

    node_name = "NanToNumBackward0"
    floating = False  # integers come back as they are
    _profile_name = "aten::nan_to_num"

    @staticmethod
    def compute(xp: Any, x: Any, nan: float, posinf: Any, neginf: Any) -> Any:
        if not xp.isdtype(x.dtype, "real floating"):
            return xp.asarray(x, copy=True)
        info = xp.finfo(x.dtype)
        out = xp.where(xp.isnan(x), xp.asarray(nan, dtype=x.dtype), x)
        for sign, value, default in ((1, posinf, info.max), (-1, neginf, info.min)):
            fill = xp.asarray(default if value is None else value, dtype=x.dtype)
            out = xp.where(x == sign * math.inf, fill, out)
        return out

    @staticmethod
    def gradient(g: Tensor, x: Tensor, **replacements: Any) -> Tensor:
        return g * x.isfinite()


erfc = public_unary(Erfc, "erfc", example(
    "The complementary error function, ``1 - erf(input)``.",
    "minitorch.erfc(minitorch.tensor([0., 2.]))", "tensor([1.0000, 0.0047])"))
erfinv = public_unary(Erfinv, "erfinv", example(
    "The inverse of :func:`erf` (NaN outside ``[-1, 1]``).",
    "minitorch.erfinv(minitorch.tensor([0., 0.5]))", "tensor([0.0000, 0.4769])"))
i0 = public_unary(I0, "i0", example(
    "The modified Bessel function of the first kind, of order 0.",
    "minitorch.i0(minitorch.tensor([0., 1.]))", "tensor([1.0000, 1.2661])"))


def logit(input: Tensor, eps: float | None = None) -> Tensor:
    """``log(p / (1 - p))``, with ``p`` clamped to ``[eps, 1 - eps]`` when ``eps`` is given.

    >>> minitorch.logit(minitorch.tensor([0.25, 1.]), eps=0.1)
    tensor([-1.0986,  2.1972])
    """
    _, eps = _args.parsed("logit", ("tensor", input, "input", 1),
                          ("float", _args.OMITTED if eps is None else eps, "eps", 2))
    if eps is _args.OMITTED:
        return Logit.apply(input, eps=None)
    _args.kernel_scalar(eps, input.dtype if input.is_floating_point() else get_default_dtype())
    return Logit.apply(input, eps=None if eps < 0 else eps)


def nan_to_num(input: Tensor, nan: float = 0.0, posinf: float | None = None,
               neginf: float | None = None) -> Tensor:
    """NaN replaced by ``nan``, inf and -inf by ``posinf``/``neginf`` (by default the
    dtype's largest and lowest values).

    >>> minitorch.nan_to_num(minitorch.tensor([float("nan"), float("inf"), 1.]), posinf=9.)
    tensor([0., 9., 1.])
    """
    given = (("nan", nan, 2), ("posinf", posinf, 3), ("neginf", neginf, 4))
    _, nan, posinf, neginf = _args.parsed(
        "nan_to_num", ("tensor", input, "input", 1),
        *(("float", _args.OMITTED if v is None else v, name, at) for name, v, at in given))
    posinf, neginf = (None if v is _args.OMITTED else v for v in (posinf, neginf))
    return NanToNum.apply(input, nan=0.0 if nan is _args.OMITTED else nan, posinf=posinf,
                          neginf=neginf)


METHODS = {"erfc": erfc, "erfinv": erfinv, "i0": i0, "logit": logit, "nan_to_num": nan_to_num}
