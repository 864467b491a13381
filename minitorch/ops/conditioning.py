"""How far a matrix is from singular: ``linalg.cond`` (the condition number) and
``linalg.matrix_rank`` (singular values above a tolerance), composed as torch composes them, so
their graphs (``SqueezeBackward1``, ``NanToNumBackward0``, ``MulBackward0``) and gradients are
torch's.

>>> import minitorch
>>> minitorch.linalg.cond(minitorch.tensor([[2., 0.], [0., 4.]]))
tensor(2.)
"""

from __future__ import annotations

import math
from typing import Any

from .. import _args, _call_form
from .._dtype import finfo
from .._tensor import Tensor
from .decompositions import linalg_svdvals
from .eigh import eigvalsh
from .inverse import _check_square, inv_ex
from .norm import matrix_norm

__all__ = ["cond", "matrix_rank"]

_ORDS = (None, 2, -2, 1, -1, math.inf, -math.inf, "fro", "nuc")


@_call_form.overloads("Tensor input, Number p = None, *, Tensor out = None",
                      "Tensor input, str p, *, Tensor out = None")
def cond(input: Tensor, p: Any = None) -> Tensor:
    """The condition number of each matrix of ``A`` in the ``p``-norm: the ratio of the
    extreme singular values for ``p`` None or ±2, else ``‖A‖ ‖A⁻¹‖`` (inf for a singular
    square matrix); 0 for an empty matrix.

    >>> minitorch.linalg.cond(minitorch.tensor([[1., 0.], [0., 4.]]), 1)
    tensor(4.)
    """
    _args.tensor_args("linalg_cond", (input, "input", 1))
    if input.dim() < 2:
        raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
    if isinstance(p, str):
        _check_square(f"cond(ord={p})", input, floating=False)
    if p not in _ORDS or isinstance(p, bool):
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    if input.numel() == 0:
        return input.new_zeros(input.shape[:-2])
    if p in (None, 2, -2):
        values = linalg_svdvals(input)
        top, bottom = values.narrow(-1, 0, 1), values.narrow(-1, -1, 1)
        return (bottom / top if p == -2 else top / bottom).squeeze(-1)
    if p == "nuc":  # matrix_norm refuses infinities, so the nuclear norms are sums of svdvals
        values = linalg_svdvals(input)
        return values.sum(-1) * values.reciprocal().sum(-1)
    if not isinstance(p, str):
        # torch names the order as C++ writes it: a float as -1.000000, an int as -1
        shown = f"{p:f}" if isinstance(p, float) and math.isfinite(p) else p
        _check_square(f"cond(ord={shown})", input, floating=False)
    inverse, info = inv_ex(input)
    # in place on inv_ex's saved output, as torch: so no gradient, with torch's error
    inverse.masked_fill_((info > 0)[..., None, None], math.inf)
    product = matrix_norm(input, p) * matrix_norm(inverse, p)
    return product.nan_to_num(math.inf, math.inf, -math.inf)  # 0 · inf: NumPy's inf


@_call_form.overloads(
    "Tensor input, *, Tensor atol = None, Tensor rtol = None, bool hermitian = False, "
    "Tensor out = None",
    "Tensor input, *, float atol = None, float rtol = None, bool hermitian = False, "
    "Tensor out = None",
    "Tensor input, Tensor tol, bool hermitian = False, *, Tensor out = None",
    "Tensor input, float tol, bool hermitian = False, *, Tensor out = None")
def matrix_rank(input: Tensor, tol: Any = None, hermitian: bool = False, *, atol: Any = None,
                rtol: Any = None) -> Tensor:
    """The number of singular values (absolute eigenvalues when ``hermitian``) of each matrix
    of ``A`` above ``max(atol, rtol · σ_max)``; ``rtol`` defaults to ``eps · max(m, n)`` when
    ``atol`` is not positive, else 0; ``tol`` is an ``atol`` with ``rtol`` 0.

    >>> minitorch.linalg.matrix_rank(minitorch.tensor([[1., 2.], [2., 4.]]))
    tensor(1)
    """
    _args.tensor_args("linalg_matrix_rank", (input, "input", 1))
    hermitian = _args.flag("linalg_matrix_rank", hermitian, "hermitian")
    if input.dim() < 2:
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at least "
                           "2 dimensions.")
    if input.dtype.name not in ("float32", "float64") and tol is None and rtol is None:
        # the default rtol's eps is read first; given tolerances leave the dtype to the kernels
        raise RuntimeError("This function doesn't handle types other than float and double")
    if tol is not None:
        atol, rtol = tol, 0.0
    values = eigvalsh(input).abs() if hermitian else linalg_svdvals(input)
    if input.numel() == 0:
        return values.sum(-1).long()
    largest = values.amax(-1, keepdim=True)
    floor = _as_tolerance(input, 0.0 if atol is None else atol)
    if rtol is None:  # eps · max(m, n), unless a positive atol is given
        default = finfo(input.dtype).eps * max(input.shape[-2:])
        relative = (floor <= 0).to(input.dtype) * default
    else:
        relative = _as_tolerance(input, rtol)
    return (values > floor.maximum(relative * largest)).sum(-1)


def _as_tolerance(A: Tensor, value: Any) -> Tensor:
    """A tolerance as a tensor of ``A``'s dtype, its batch dims ready for the singular values'
    last dim."""
    if isinstance(value, Tensor):
        return value.to(A.dtype)[..., None]
    return A.new_full((), float(value))
