"""The matrix exponential ``linalg.matrix_exp`` (``LinalgMatrixExpBackward0``), by torch's own
algorithm so that float32 results carry torch's bits: the optimised Taylor polynomials of
degree 1, 2, 4, 8, 12 or 18 of Bader, Blanes and Casas (2019), the degree chosen by the
matrix's 1-norm, with scaling and squaring past the last threshold.

The gradient is ``exp`` of a block matrix: ``exp([[Aᴴ, G], [0, Aᴴ]])``'s upper-right block is
the adjoint of exp's differential at ``A`` applied to ``G``; it is written in ops, so it has
its own gradient.

>>> import minitorch
>>> minitorch.matrix_exp(minitorch.zeros(2, 2))
tensor([[1., 0.],
        [0., 1.]])
"""

from __future__ import annotations

from typing import Any

from .. import _args
from .._tensor import Tensor
from ._base import Op, wrap
from .inverse import _check_square
from .linalg import batched_product, product

__all__ = ["MatrixExp", "linalg_matrix_exp", "matrix_exp"]

# the 1-norm up to which each degree (1, 2, 4, 8, 12, 18) is accurate, per precision
_THETAS = {
    "float32": (1.192092800768788e-07, 5.978858893805233e-04, 5.116619363445086e-02,
                5.800524627688768e-01, 1.461661507209034e+00, 3.010066362817634e+00),
    "float64": (2.220446049250313e-16, 2.580956802971767e-08, 3.397168839976962e-04,
                4.991228871115323e-02, 2.996158913811580e-01, 1.090863719290036e+00),
}
# rows: the coefficients of I, A, A², A³ in the four factors of the degree-12 polynomial
_B12 = ((9.0198e-16, 0.46932117595418237389, -0.20099424927047284052, -0.04623946134063071740),
        (5.31597895759871264183, 1.19926790417132231573, 0.01179296240992997031,
         0.01108844528519167989),
        (0.18188869982170434744, 0.05502798439925399070, 0.09351590770535414968,
         0.00610700528898058230),
        (-2.0861320e-13, -0.13181061013830184015, -0.02027855540589259079,
         -0.00675951846863086359))
# rows: the coefficients of I, A, A², A³, A⁶ in the five factors of the degree-18 polynomial
_B18 = ((0., -1.00365581030144618291e-01, -8.02924648241156932449e-03,
         -8.92138498045729985177e-04, 0.),
        (0., 3.97849749499645077844e-01, 1.36783778460411720168e+00,
         4.98289622525382669416e-01, -6.37898194594723280150e-04),
        (-1.09676396052962061844e+01, 1.68015813878906206114e+00, 5.71779846478865511061e-02,
         -6.98210122488052056106e-03, 3.34975017086070470649e-05),
        (-9.04316832390810593223e-02, -6.76404519071381882256e-02, 6.75961301770459654925e-02,
         2.95552570429315521194e-02, -1.39180257516060693404e-05),
        (0., 0., -9.23364619367118555360e-02, -1.69364939002081722752e-02,
         -1.40086798182036094347e-05))


def _combine(xp: Any, mats: list, coefs: Any) -> Any:
    """``Σ cⱼ Mⱼ`` summed in order, each product rounded to the matrices' dtype (torch's
    ``_compute_linear_combination``)."""
    rounded = mats[0].dtype.type
    out = xp.zeros_like(mats[0])
    for m, c in zip(mats, coefs):
        out += m * rounded(c)
    return out


def _powers(xp: Any, a: Any, count: int) -> list:
    """The first ``count`` of I, A, A², A³, A⁶ (torch's products, in its order)."""
    mats = [xp.broadcast_to(xp.eye(a.shape[-1], dtype=a.dtype), a.shape) + 0, a]
    for left, right in ((1, 1), (1, 2), (3, 3))[:count - 2]:
        mats.append(batched_product(mats[left], mats[right]))
    return mats


def _taylor1(xp: Any, a: Any) -> Any:
    i, a = _powers(xp, a, 2)
    return i + a


def _taylor2(xp: Any, a: Any) -> Any:
    i, a, a2 = _powers(xp, a, 3)
    return i + a + a2 / 2


def _taylor4(xp: Any, a: Any) -> Any:
    mats = _powers(xp, a, 3)
    mats.append(batched_product(mats[2], _combine(xp, mats, (1 / 2.0, 1 / 6.0, 1 / 24.0))))
    return _combine(xp, mats, (1.0, 1.0, 0.0, 1.0))


def _taylor8(xp: Any, a: Any) -> Any:
    r = a.dtype.type  # torch's constants are rounded to the dtype as each is defined
    sqrt_177 = float(r(0.1330413469565007072504e+2))
    x3 = float(r(2. / 3.))
    x1, x2 = r(x3 * ((1. + sqrt_177) / 88.)), r(x3 * ((1. + sqrt_177) / 352.))
    x4, x5 = r((-271. + 29. * sqrt_177) / (315. * x3)), r((-11. + 11. * sqrt_177) / (1260. * x3))
    x6, x7 = r((-99. + 11. * sqrt_177) / (5040. * x3)), r((89. - sqrt_177) / (5040. * x3))
    y2 = r((857. - 58. * sqrt_177) / 630.)
    mats = _powers(xp, a, 3)
    mats.append(batched_product(mats[2], _combine(xp, mats[1:3], (x1, x2))))
    mats.append(batched_product(_combine(xp, mats[2:4], (x3, 1.0)),
                                _combine(xp, mats, (x4, x5, x6, x7))))
    return _combine(xp, mats, (1.0, 1.0, y2, 0.0, 1.0))


def _taylor12(xp: Any, a: Any) -> Any:
    mats = _powers(xp, a, 4)
    b0, b1, b2, b3 = (_combine(xp, mats, row) for row in _B12)
    b2 += batched_product(b3, b3)
    b1 += b2
    return b0 + batched_product(b1, b2)


def _taylor18(xp: Any, a: Any) -> Any:
    mats = _powers(xp, a, 5)
    b0, b1, b2, b3, b4 = (_combine(xp, mats, row) for row in _B18)
    b3 += batched_product(b0, b4)
    b2 += b3
    return b1 + batched_product(b2, b3)


_TAYLOR = (_taylor1, _taylor2, _taylor4, _taylor8, _taylor12)


def _scaled_squared(xp: Any, a: Any, norms: Any, theta: float) -> Any:
    """Degree 18 on ``A / 2ˢ``, then squared ``s`` times: ``s`` brings each norm under
    ``theta``."""
    ratio = norms / norms.dtype.type(theta)
    s = xp.maximum(xp.zeros_like(ratio), xp.ceil(xp.log2(ratio)))  # inf, nan: not finite
    out = _taylor18(xp, a / xp.astype(2 ** s, a.dtype)[:, None, None])
    s = xp.where(xp.isfinite(s), s, xp.zeros_like(s))  # such a matrix is NaN already
    for i in range(out.shape[0]):
        for _ in range(int(s[i])):
            out[i] = product(out[i], out[i])
    return out


def _mexp(xp: Any, a: Any) -> Any:
    """exp of each matrix in a batch ``a`` (b, n, n), n ≥ 2: one matrix by the polynomial
    its 1-norm calls for, a larger batch all by degree 18 (as torch)."""
    thetas = _THETAS["float32" if a.dtype.itemsize == 4 else "float64"]
    norms = xp.max(xp.sum(xp.abs(a), axis=-2), axis=-1)
    if a.shape[0] != 1:
        return _scaled_squared(xp, a, norms, thetas[-1])
    out = xp.empty_like(a)
    lower = -1.0
    for theta, taylor in zip(thetas, _TAYLOR):
        picked = xp.nonzero((lower < norms) & (norms <= theta))[0]
        if picked.size:
            out[picked] = taylor(xp, a[picked])
        lower = theta
    large = xp.nonzero(~(norms < thetas[-2]))[0]  # a NaN norm too, as torch's comparisons
    if large.size:
        out[large] = _scaled_squared(xp, a[large], norms[large], thetas[-1])
    return out


class MatrixExp(Op):
    node_name = "LinalgMatrixExpBackward0"
    _profile_name = "aten::linalg_matrix_exp"

    @staticmethod
    def forward(ctx: Any, a: Tensor) -> Tensor:
        ctx.save_for_backward(a)
        xp, data, n = a._xp, a._data, a.shape[-1]
        if n <= 1:
            return wrap(xp.exp(data) if n else data.copy())
        flat = xp.reshape(data, (-1, n, n))
        return wrap(xp.reshape(_mexp(xp, flat), data.shape))

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        (a,) = ctx.saved_tensors
        return (_exp_differential(a.mT, g),)


def _exp_differential(at: Tensor, g: Tensor) -> Tensor:
    """The upper-right block of ``exp([[Aᴴ, G], [0, Aᴴ]])`` (real dtypes only: Aᴴ = Aᵀ)."""
    from .shape import cat

    n = at.shape[-1]
    top = cat([at, g], -1)
    bottom = cat([at.new_zeros(at.shape), at], -1)
    return matrix_exp(cat([top, bottom], -2))[..., :n, n:]


def matrix_exp(input: Tensor) -> Tensor:
    """``exp(A) = Σ Aᵏ / k!`` of a square matrix (or each of a batch).

    >>> minitorch.matrix_exp(minitorch.tensor([[0., 1.], [0., 0.]]))
    tensor([[1., 1.],
            [0., 1.]])
    """
    _args.tensor_args("matrix_exp", (input, "input", 1))
    return linalg_matrix_exp(input)


def linalg_matrix_exp(input: Tensor) -> Tensor:
    """``minitorch.linalg.matrix_exp``: :func:`matrix_exp` under torch's ``linalg`` name.

    >>> minitorch.linalg.matrix_exp(minitorch.zeros(1, 1))
    tensor([[1.]])
    """
    _args.tensor_args("linalg_matrix_exp", (input, "input", 1))
    # torch's CPU kernel takes float16 (n >= 2 gives it inf and NaN); the 1 by 1 and empty
    # matrices, plain exp, are the ones it computes right
    tiny = input.dim() >= 2 and (input.shape[-1] <= 1 or not input.numel())
    _check_square("matrix_exp", input, floating=not tiny or input.dtype.name != "float16")
    return MatrixExp.apply(input)

