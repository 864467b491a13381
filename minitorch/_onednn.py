"""oneDNN's float32 ``gelu_erf``, forward and backward, bit for bit, vectorised with numpy.

torch's CPU ``gelu`` (``approximate='none'``) and its backward hand a contiguous float32 input
of more than one element to oneDNN (``ideep::eltwise_forward`` / ``eltwise_backward`` with
``eltwise_gelu_erf``); a single element, a strided input, float64 and the tanh form stay in
ATen's own kernel. torch 2.13 bundles oneDNN v3.12, whose AVX-512 kernel
(``jit_uni_eltwise_injector``) computes, 16 floats at a time:

- forward, ``gelu_erf_minimax_approx_compute_vector_fwd``: erf(|x|/√2) as one of 25 degree-5
  minimax polynomials in |x| (no division by √2), picked by the exponent and two mantissa bits
  of |x|, Horner's rule in fused multiply-adds; then ``x * (1 ± p) * 0.5``;
- backward, ``gelu_erf_compute_vector_bwd``: Abramowitz and Stegun's 7.1.26 erf with oneDNN's
  own ``exp`` (a degree-5 polynomial after a ``2^n`` split), ``0.5 + r/√π·e^(-r²) + 0.5·erf``
  (``r = x/√2``), times the incoming gradient.

On a CPU without AVX-512, oneDNN's AVX2 kernel runs the same backward, and a forward of the
backward's erf: ``0.5·x + 0.5·x·erf`` (``gelu_erf_compute_vector_fwd``), which minitorch
then runs too (:func:`~minitorch.ops._softmax_order.lanes` tells the two CPUs apart).

Each step here is the instruction's float32 operation in the kernel's order, every ``vfmadd``
one correctly rounded :func:`~minitorch._libm.fmaf`; NaNs and infinities come out as the
kernel's (``gelu(inf)`` is NaN in the AVX-512 forward, inf in the AVX2 one, as in torch).

>>> import numpy as np
>>> gelu_erf(np.float32([0.5, 2.0]))  # doctest: +ELLIPSIS
array([0.345..., 1.954...], dtype=float32)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._libm import fmaf
from .ops._softmax_order import lanes

__all__ = ["gelu_erf", "gelu_erf_backward"]


def _floats(words: str) -> np.ndarray:
    return np.array([int(w, 16) for w in words.split()], np.uint32).view(np.float32)


# gelu_erf_minimax_pol: a row per degree (0 to 5), a column per polynomial (25, padding cut)
_MINIMAX = _floats("""
a6f2cb94 32827792 3381cc0c 34523d4a 351ac44d 35f36d88 36ee8229 37b8a3bb 3867a213 3940033b
3a2a5a1d 3ae35863 3b7828f2 3c08b14b 3c515ed3 bb503236 bd8d8e5e be8abcd9 bf0c19a2 beccb328
3e176ced 3f470d99 3f7abb28 3f800000 00000000
3f4c422a 3f4c421f 3f4c4207 3f4c41cb 3f4c413b 3f4c3fad 3f4c3a2f 3f4c2d40 3f4c146a 3f4bc341
3f4ad08c 3f48f8cf 3f45fac7 3f404e07 3f3b980f 3f48dff3 3f78b21b 3fbb0704 40019c32 3fe536d6
3f81331e 3e6c8684 3c98f936 00000000 3f800000
b62173f4 3735e4cf 37f2ff89 388c23be 3917535c 39ab2ab0 3a60fadb 3af9b960 3b6e5491 3c0a4ec5
3ca5aa8c 3d2138d9 3d8737d4 3ddfb660 3e0f27ab 3d94004b be0efdeb bf1d96c3 bf89db58 bf6d9897
bef69fb8 bdc4f8a8 bbde6422 00000000 00000000
be081a19 be084570 be08639b be089837 be08f409 be09ab95 be0b66d0 be0e400a be124df8 be1bde02
be2f19c9 be4931bf be685fbc be89c95f be96cbca be8044aa be0550f2 3dcfd6a1 3e94c826 3e79345f
3decec91 3ca46568 3aa1e00a 00000000 00000000
ba3d61db 39f097a3 3a5845dc 3ab1fa35 3b0cefb8 3b653ab6 3bcae527 3c221712 3c6c5840 3cc0a703
3d1dcc19 3d63656d 3d955907 3dbf9910 3dd53f69 3db7dcef 3d639ebe ba6ede48 bd22be69 bd041cf1
bc64f5ab bb097a32 b8ebf380 00000000 00000000
3cb7d80c 3c9b6050 3c978d11 3c92e850 3c8d058b 3c848454 3c6cd623 3c4c824b 3c2a7935 3be0b390
3b0651ac bb232f53 bbd42fa0 bc2c5366 bc492c9e bc2a7aa6 bbd55d04 ba823a76 3b102aa8 3ae25a7e
3a31f792 38b84375 3689bb5a 00000000 00000000""").reshape(6, 25)
# the polynomial's index: (bits(|x|) + 0xc21fffff) >> 21 (wrapping int32), kept in [1, 24],
# and 23 (erf = 1) past the right bound
_INDEX_BIAS, _RIGHT_BOUND = np.int32(0xC21FFFFF - (1 << 32)), _floats("40b15cee")[0]
_SIGN, _MAGNITUDE = np.uint32(0x80000000), np.uint32(0x7FFFFFFF)
# Abramowitz and Stegun: p, 1/√2, 1/√π; then the polynomial's a5 down to a1
_AS_P, _SQRT1_2, _SQRT1_PI = _floats("3ea7ba05 3f3504f3 3f106eba")
_AS_POLY = _floats("3f87dc22 bfba00e3 3fb5f0e3 be91a98e 3e827906")
# oneDNN's exp: log(FLT_MIN), log(FLT_MAX), log2(e), ln 2; its polynomial's p5 down to p1
_EXP_LOW, _EXP_HIGH, _LOG2E, _LN2 = _floats("c2aeac50 42b17218 3fb8aa3b 3f317218")
_EXP_POLY = _floats("3c07cfce 3d2b9d0d 3e2aad40 3efffee3 3f7ffffb")
_HALF, _ONE, _TWO = np.float32(0.5), np.float32(1), np.float32(2)


def _with_sign(value: np.ndarray, sign_bits: np.ndarray) -> np.ndarray:
    """``value`` with its sign bit flipped where ``sign_bits`` has it (``vxorps``)."""
    return (value.view(np.uint32) ^ sign_bits).view(np.float32)


def _horner(coefficients: Any, x: np.ndarray, start: Any) -> np.ndarray:
    """``start`` then, for each coefficient in turn, ``fma(value, x, coefficient)``."""
    value = start
    for c in coefficients:
        value = fmaf(value, x, c)
    return value


def takes(array: Any) -> bool:
    """Whether torch would hand ``array`` to oneDNN: a float32 CPU (numpy) array of more than
    one element (the caller checks its layout as a tensor's).

    >>> takes(np.zeros(2, np.float32)), takes(np.zeros(1, np.float32))
    (True, False)
    """
    return type(array) is np.ndarray and array.dtype == np.float32 and array.size > 1


def gelu_erf(x: np.ndarray) -> np.ndarray:
    """oneDNN's ``gelu_erf`` forward of a float32 array, by the kernel it runs on this CPU:
    the AVX-512 one's minimax polynomials, else Abramowitz and Stegun's erf.

    >>> gelu_erf(np.float32([0.0, 10.0]))
    array([ 0., 10.], dtype=float32)
    """
    return _gelu_erf_minimax(x) if lanes() == 16 else _gelu_erf_as(x)


def _gelu_erf_minimax(x: np.ndarray) -> np.ndarray:
    """The AVX-512 forward (``gelu_erf_minimax_approx_compute_vector_fwd``)."""
    bits = x.view(np.uint32)
    magnitude_bits = bits & _MAGNITUDE
    magnitude = magnitude_bits.view(np.float32)
    index = np.clip((magnitude_bits.view(np.int32) + _INDEX_BIAS) >> 21, 1, 24)
    with np.errstate(invalid="ignore", over="ignore"):  # NaN and inf run through as there
        index[magnitude > _RIGHT_BOUND] = 23
        c = _MINIMAX[:, index]
        erf = _with_sign(_horner(c[4::-1], magnitude, c[5]), bits & _SIGN)
        return x * (erf + _ONE) * _HALF


def _gelu_erf_as(s: np.ndarray) -> np.ndarray:
    """The AVX2 forward (``gelu_erf_compute_vector_fwd``): ``erf(s/√2)`` by Abramowitz and
    Stegun's 7.1.26, as the backward's, then ``0.5·s + 0.5·s·erf`` fused."""
    with np.errstate(invalid="ignore", over="ignore"):
        x = s * _SQRT1_2
        t = _ONE / fmaf(_AS_P, np.abs(x), _ONE)
        minus_q_t = -_exp(-(x * x)) * t
        erf = fmaf(minus_q_t, _horner(_AS_POLY[1:], t, _AS_POLY[0]), _ONE)
        half = s * _HALF
        return fmaf(_with_sign(erf, x.view(np.uint32) & _SIGN), half, half)


def _exp(s: np.ndarray) -> np.ndarray:
    """oneDNN's ``exp_compute_vector_fwd``: ``2·2^(n-1)·p(r)``, ``n = floor(s·log2(e) + ½)``,
    ``r = s - n·ln 2`` fused; 0 below log(FLT_MIN)."""
    underflow = s < _EXP_LOW
    s = np.maximum(np.fmin(s, _EXP_HIGH), _EXP_LOW)  # vminps: a NaN gives the bound
    n = np.floor(s * _LOG2E + _HALF)
    r = fmaf(-n, _LN2, s)
    power = ((n - _ONE).astype(np.int32) + 127) << 23
    power[underflow] = 0
    return _horner((*_EXP_POLY[1:], _ONE), r, _EXP_POLY[0]) * power.view(np.float32) * _TWO


def gelu_erf_backward(x: np.ndarray, grad: np.ndarray) -> np.ndarray:
    """oneDNN's AVX-512 ``gelu_erf`` backward: ``grad`` times gelu's derivative at ``x``
    (float32 arrays).

    >>> gelu_erf_backward(np.float32([0.0, 1.0]), np.float32([1.0, 2.0]))
    array([0.5      , 2.1666307], dtype=float32)
    """
    with np.errstate(invalid="ignore", over="ignore"):
        r = x * _SQRT1_2
        q = _exp(-(r * r))
        t = _ONE / fmaf(_AS_P, np.abs(r), _ONE)
        erf = fmaf(-q * t, _horner(_AS_POLY[1:], t, _AS_POLY[0]), _ONE)
        erf = _with_sign(erf, r.view(np.uint32) & _SIGN)
        return fmaf(erf, _HALF, r * _SQRT1_PI * q + _HALF) * grad
