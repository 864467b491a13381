"""Vector norms: ``Tensor.norm(p, dim, keepdim)`` and ``minitorch.norm``, one node
(``LinalgVectorNormBackward0``) for every ``p``.

>>> import minitorch
>>> x = minitorch.tensor([3., 4.], requires_grad=True)
>>> n = x.norm(); n
tensor(5., grad_fn=<LinalgVectorNormBackward0>)
>>> n.backward(); x.grad
tensor([0.6000, 0.8000])
"""

from __future__ import annotations

import math
from typing import Any

from .. import _args, _call_form
from .._dtype import promote_types
from .._powf import c_pow
from .._tensor import Tensor
from .._warn_once import warn_once
from ..backend import c_order
from ._base import Op, wrap
from ._norm_order import norm1, norm2
from .decompositions import linalg_svdvals
from .inverse import check_half
from .pointwise import where
from .reduction import _expand_back

__all__ = ["Amax", "Amin", "LinalgVectorNorm", "Norm", "frobenius_norm", "matrix_norm", "norm",
           "nuclear_norm"]


def vector_norm_of(xp: Any, a: Any, p: float, dims: Any) -> Any:
    """``‖a‖_p`` of the absolute values ``a`` over ``dims`` (None: all; ``()``: a 0-d
    tensor's own dim, named), the dims kept, as torch's norm kernel computes it: where
    ``dims`` hold one value, that value, with no power of it to overflow (not for a 0-d
    tensor's named dim, which torch reduces as any other).

    >>> import numpy as np
    >>> vector_norm_of(np, np.float32([[2.0], [3.0]]), 200.0, (1,))
    array([[2.],
           [3.]], dtype=float32)
    """
    count = math.prod(a.shape[d] for d in (range(a.ndim) if dims is None else dims))
    if count == 1 and dims != () and p != 0:
        return a
    if count == 0:  # the norms that have an identity start from 0 (a nan order's too)
        kept = tuple(1 if dims is None or d in dims else n for d, n in enumerate(a.shape))
        return xp.zeros(kept, dtype=a.dtype)
    return _reduce(xp, a, p, dims)


def _reduce(xp: Any, a: Any, p: float, dims: Any) -> Any:
    """``‖a‖_p`` of the absolute values ``a`` over ``dims``, the dims kept, by its formula."""
    if str(a.dtype) == "float16":  # torch's kernel computes a half's norm in float
        return xp.astype(_reduce(xp, xp.astype(a, xp.float32), p, dims), a.dtype)
    if p == math.inf:
        return xp.max(a, axis=dims, keepdims=True)
    if p == -math.inf:
        return xp.min(a, axis=dims, keepdims=True)
    if p == 0:
        return xp.sum(xp.astype(a != 0, a.dtype), axis=dims, keepdims=True)
    if p == 1:
        return norm1(xp, a, dims)
    if p == 2:
        return norm2(xp, a, dims)
    # torch adds C's pow(|x|, p) in the 1-norm's order and takes pow(sum, 1 / p), both in the
    # accumulating type: float32's p and 1 / p rounded to float32
    if str(a.dtype) == "float32":
        p32 = xp.asarray(p, dtype=xp.float32)
        inverse = xp.asarray(1, dtype=xp.float32) / p32
        return c_pow(xp, norm1(xp, c_pow(xp, a, float(p32)), dims), float(inverse))
    return c_pow(xp, norm1(xp, c_pow(xp, a, p), dims), 1.0 / p)


class LinalgVectorNorm(Op):
    node_name = "LinalgVectorNormBackward0"
    _profile_name = "aten::linalg_vector_norm"

    @staticmethod
    def forward(ctx: Any, x: Tensor, *, p: float, dims: Any, keepdim: bool) -> Tensor:
        xp = x._xp
        kept = vector_norm_of(xp, xp.abs(x._data), p, dims)
        ctx.meta = (p, dims, keepdim, tuple(x.shape), tuple(kept.shape))
        # torch's reductions allocate their result contiguous, whatever the input's layout
        out = wrap(c_order(kept if keepdim else xp.reshape(kept, _dropped(kept.shape, dims))))
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        x, out = ctx.saved_tensors
        p, dims, keepdim, shape, kept = ctx.meta
        g = _expand_back(g, shape, _dim_tuple(dims, len(shape)), keepdim)
        return (_norm_backward(x, out.reshape(kept), g, p, dims),)


class Norm(LinalgVectorNorm):
    """``at::norm(input, p, dim, keepdim)`` as torch's C++ compositions call it (NormBackward1,
    the same kernel and gradient as the vector norm).

    >>> Norm.apply(minitorch.ones(2, requires_grad=True), p=2.0, dims=(0,), keepdim=False)
    tensor(1.4142, grad_fn=<NormBackward1>)
    """

    node_name = "NormBackward1"
    _profile_name = "aten::norm"


def _norm_backward(x: Tensor, norm: Tensor, g: Tensor, p: float, dims: Any) -> Tensor | None:
    """torch's norm_backward: ``g * sign(x) |x|^(p-1) / norm^(p-1)``, 0 where the norm is 0;
    the infinity norms share ``g`` evenly among the elements that reach the extremum."""
    if p == 0:  # torch gives no gradient at all (the leaf's .grad stays None)
        return None
    if p == 1:
        return g * x.sign()
    zero = norm == 0
    safe = where(zero, 1.0, norm)  # no 0/0 even in the unused branch: its gradient is nan
    if p == 2:  # torch's grouping: g * (x / norm)
        return g * where(zero, 0.0, x / safe)
    if math.isinf(p):  # a nan is an extremum too (its sign, and so its share, is 0)
        hits = ((x.abs() == norm) | x.abs().isnan()).to(x.dtype)
        return x.sign() * (g / hits.sum(_dim_tuple(dims, x.dim()), keepdim=True) * hits)
    if p < 1:  # |x|^(p-1) is infinite at 0: that element's gradient is 0 instead
        scaled = x.sign() * where(x == 0, 0.0, x.abs() ** (p - 1))
        return scaled * g * norm ** (1 - p)
    scaled = x.sign() * x.abs() ** (p - 1) if p < 2 else x * x.abs() ** (p - 2)
    return scaled * where(zero, 0.0, g / safe ** (p - 1))


def _dim_tuple(dims: Any, ndim: int) -> tuple:
    return tuple(range(ndim)) if dims is None else dims


def _dropped(shape: tuple, dims: Any) -> tuple:
    if dims is None:
        return ()
    return tuple(n for d, n in enumerate(shape) if d not in dims)


def _as_p(p: Any) -> Any:
    """A vector norm's order as torch's parser reads it (a complex one as it is)."""
    if p is None or (isinstance(p, str) and p == "fro"):
        return 2.0
    (p,) = _args.numbers("linalg_vector_norm", (p, "ord", 2))
    return p


def real_order(p: Any) -> float:
    """A vector norm's order, refused as torch's kernel refuses a complex one (after its
    input's dtype)."""
    if isinstance(p, complex):
        raise RuntimeError("linalg.vector_norm: Expected a non-complex scalar as the order of "
                           "norm.")
    return float(p)


def norm(input: Tensor, p: Any = "fro", dim: Any = None, keepdim: bool = False,
         out: Tensor | None = None, dtype: Any = None) -> Tensor:
    """The ``p``-norm of ``input`` (flattened, or over ``dim``); ``p`` may be ``inf``;
    written into ``out`` where given, by linalg's norm torch's Python code calls.

    >>> minitorch.norm(minitorch.tensor([[3., -4.]]), p=1, dim=1)
    tensor([7.])
    """
    _args.python_attribute(input, "layout")  # torch's Python asks it first
    if isinstance(p, str) and p == "fro" and dim is not None and not isinstance(dim, int):
        _args.python_len(dim)  # torch.norm's Python code asks len(dim) here
    if isinstance(p, str) and (p != "fro" or not (dim is None or isinstance(dim, int) or
                                                 len(dim) <= 2)):
        # torch's Python passes a tuple on as it is, an int (or nothing) as a list, to
        # linalg's matrix_norm, whose parser reads them
        dims = list(range(input.dim())) if dim is None else \
            [dim] if isinstance(dim, int) else dim
        return _linalg().matrix_norm(input, p, dims, keepdim, dtype=dtype,
                                     **({} if out is None else {"out": out}))
    if p is not None and not isinstance(p, str):  # every type, then the values, as torch
        _args.number_types("linalg_vector_norm", (p, "ord", 2))
    listed = [dim] if isinstance(dim, int) else dim  # torch's Python passes an int (a bool
    # too) on as a list
    if listed is not None and not _call_form._ints_like(listed):  # its type, with the
        _args.int_list("linalg_vector_norm", listed, "dim", 3)  # others'; its items after
    keepdim = _args.flag("linalg_vector_norm", keepdim, "keepdim", 4)
    dtype = _args.dtype("linalg_vector_norm", dtype)
    if out is not None:
        return _linalg().vector_norm(input, _as_p(p), listed, keepdim, dtype=dtype, out=out)
    given = None if dim is None else _args.int_list("linalg_vector_norm", listed, "dim", 3)
    order = _as_p(p)
    if not input.dtype.is_floating_point:
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor "
                           f"as input. Got {input.dtype.legacy}")
    order = real_order(order)
    _check_identity(input.shape, order, given or None)
    if dtype is not None:
        input = input.to(_result_dtype("linalg.vector_norm", input, dtype))
    dims = _args.dims("linalg_vector_norm", given, input.dim()) or None
    if input.dim() == 0:  # a 0-d tensor's dim, named, is reduced; with none named, read
        dims = () if dims else None
    return LinalgVectorNorm.apply(input, p=order, dims=dims, keepdim=keepdim)


def norm_method(self: Tensor, p: Any = "fro", dim: Any = None, keepdim: bool = False,
                dtype: Any = None) -> Tensor:
    """``Tensor.norm``: :func:`norm` without ``out`` (torch's method takes none, its
    ``dtype`` comes fourth).

    >>> minitorch.tensor([3., -4.]).norm(1)
    tensor(7.)
    """
    return norm(self, p, dim, keepdim, dtype=dtype)


norm_method.__name__ = norm_method.__qualname__ = "norm"


def _linalg() -> Any:
    """minitorch.linalg, whose functions take ``out=``."""
    from .. import linalg

    return linalg


def _check_identity(shape: tuple, p: float, dims: tuple | None) -> None:
    """torch's refusal of an inf or negative norm over an empty dim (``dims`` as given, each
    checked in range on the way): no value to start from."""
    if not (p < 0 or p == math.inf) or 0 not in shape:  # (a nan order has its identity)
        return
    order = f"{p:g}"
    if dims is None:
        raise RuntimeError(f"linalg.vector_norm cannot compute the {order} norm on an empty "
                           "tensor because the operation does not have an identity")
    for d in dims:
        if shape[_args.wrap_dim(d, len(shape))] == 0:
            raise RuntimeError(f"linalg.vector_norm cannot compute the {order} norm on the "
                               f"dimension {d}because this dimension is empty and the "
                               "operation does not have an identity")


def _result_dtype(fn: str, input: Tensor, dtype: Any) -> Any:
    """A norm's ``dtype=``, refused as torch refuses it: unless floating, and where the
    input's dtype would narrow into it."""
    if not dtype.is_floating_point:
        raise RuntimeError(f"{fn}: dtype should be floating point or complex, but got "
                           f"{_args.legacy(dtype)}")
    if promote_types(input.dtype, dtype) is not dtype:
        raise RuntimeError(f"{fn}: the dtype of the input ({_args.legacy(input.dtype)}) should "
                           "be convertible without narrowing to the specified dtype "
                           f"({_args.legacy(dtype)})")
    return dtype


class Amax(Op):
    """The largest value along one dim; ties share the gradient evenly (``amax``'s rule)."""

    node_name = "AmaxBackward0"
    saved_names = ("self", "result")
    _profile_name = "aten::amax"
    fn = "max"

    @classmethod
    def forward(cls, ctx: Any, a: Tensor, *, dim: int, keepdim: bool) -> Tensor:
        kept = wrap(getattr(a._xp, cls.fn)(a._data, axis=dim, keepdims=True))
        ctx.meta = dim, keepdim
        ctx.save_for_backward(a, kept)
        return kept if keepdim else kept.squeeze(dim)

    @staticmethod
    def backward(ctx: Any, g: Tensor) -> tuple:
        a, kept = ctx.saved_tensors
        dim, keepdim = ctx.meta
        hits = (a == kept).to(a.dtype)
        return (_expand_back(g, tuple(a.shape), (dim,), keepdim) * hits
                / hits.sum(dim, keepdim=True),)


class Amin(Amax):
    node_name = "AminBackward0"
    _profile_name = "aten::amin"
    fn = "min"


# torch's signatures of linalg.matrix_norm
_MATRIX_NORM_SIGNATURES = tuple(
    f"Tensor input, {kind}, tuple of ints dim = {{-2,-1}}, bool keepdim = False, *, "
    "torch.dtype dtype = None, Tensor out = None" for kind in ("Number ord", 'str ord = "fro"'))


@_call_form.overloads(*_MATRIX_NORM_SIGNATURES)
def matrix_norm(input: Tensor, ord: Any = "fro", dim: Any = (-2, -1), keepdim: bool = False, *,
                dtype: Any = None) -> Tensor:
    """A matrix norm over the two dims ``dim``: ``'fro'`` (the 2-norm of all entries), ``1``
    / ``-1`` (the largest / smallest column sum of ``|A|``), ``inf`` / ``-inf`` (rows),
    ``2`` / ``-2`` (the largest / smallest singular value), ``'nuc'`` (their sum).

    >>> minitorch.linalg.matrix_norm(minitorch.tensor([[1., -2.], [3., 4.]]), 1)
    tensor(6.)
    """
    _args.tensor_args("linalg_matrix_norm", (input, "input", 1))
    if isinstance(dim, int) or not isinstance(ord, (str, int, float, complex)):
        _refuse_matrix_norm_arguments(input, ord, dim, keepdim)
    if (keepdim is not True and keepdim is not False) or not _call_form._ints_like(dim) or not (
            dtype is None or _call_form._dtype_like(dtype)):  # (no overload takes them)
        raise _matrix_norm_combination((input, ord, dim, keepdim), {"dtype": dtype})
    if isinstance(ord, complex):
        raise RuntimeError("linalg.matrix_norm: Expected a non-complex scalar as the order of "
                           "norm.")
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    elif abs(float(ord)) not in (1.0, 2.0, math.inf):
        raise RuntimeError(f"linalg.matrix_norm: Order {float(ord):g} not supported.")
    dims = _matrix_dims(input, _args.int_list("linalg_matrix_norm", dim, "dim", 3),
                        singular=ord == "nuc" or (not isinstance(ord, str) and abs(ord) == 2))
    dtype = _args.dtype("linalg_matrix_norm", dtype)
    if dtype is not None:
        _result_dtype("linalg.matrix_norm", input, dtype)
    if ord == "fro":
        return norm(input, 2, dims, keepdim, dtype=dtype)
    if ord == "nuc" or abs(ord) == 2:
        return _singular_norm(input, ord, dims, keepdim, dtype)
    first, second = dims[::-1] if math.isinf(ord) else dims
    if not keepdim and first < second:
        second -= 1
    sums = norm(input, 1, first, keepdim, dtype=dtype)
    return _extremum(sums, second, ord > 0, keepdim)


def _singular_norm(A: Tensor, ord: Any, dims: tuple, keepdim: bool, dtype: Any) -> Tensor:
    """The nuclear (``'nuc'``) or spectral (``2``, ``-2``) norm, as torch computes it: the sum,
    largest or smallest singular value of ``A`` with ``dims`` moved to the end."""
    if dtype is not None:
        A = A.to(dtype)
    check_half("matrix_norm", A)
    order = [d for d in range(A.dim()) if d not in dims] + list(dims)
    A = A.permute(*order)
    values = linalg_svdvals(A)
    result = values.sum(-1, keepdim=keepdim) if ord == "nuc" else \
        _extremum(values, -1, ord > 0, keepdim)
    if keepdim:
        result = result.unsqueeze(-1).permute(*(order.index(d) for d in range(A.dim())))
    return result


def _extremum(sums: Tensor, dim: int, largest: bool, keepdim: bool) -> Tensor:
    """The largest (or smallest) of a matrix norm's row or column ``sums`` along ``dim``; as
    torch, the largest of none is a 0 off the graph, and the smallest of none is refused."""
    if sums.shape[dim] == 0:
        if not largest:
            raise IndexError(f"amin(): Expected reduction dim {dim} to have non-zero size.")
        shape = list(sums.shape)
        shape[dim] = 1
        zeros = sums.detach().new_zeros(shape)
        return zeros if keepdim else zeros.squeeze(dim)
    return (Amax if largest else Amin).apply(sums, dim=dim % sums.dim(), keepdim=keepdim)


def _matrix_norm_combination(values: tuple, keywords: dict) -> TypeError:
    """torch's parser's refusal of ``linalg_matrix_norm(*values, **keywords)``."""
    return _args.invalid_combination("linalg_matrix_norm", values, *_MATRIX_NORM_SIGNATURES,
                                     keywords=keywords)


def _refuse_matrix_norm_arguments(A: Tensor, ord: Any, dim: Any, keepdim: bool) -> None:
    """torch's parser's refusal of an ``ord`` that is neither a number nor a string, or of
    one int as ``dim`` (a 2-tuple there), dim and keepdim taken as given by keyword."""
    error = _matrix_norm_combination((A, ord), {})
    if not isinstance(dim, int):
        raise error
    keywords = (", keepdim=bool" if keepdim else "") + ", dim=int"
    raise TypeError(str(error).replace("), but", f"{keywords}), but", 1))


def _matrix_dims(A: Tensor, dims: tuple, singular: bool = False) -> tuple:
    """torch's checks of a matrix norm's input (``singular``: for a norm of its singular
    values, which has no half kernel) and its two dims, wrapped."""
    if A.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    if not A.dtype.is_floating_point:
        raise RuntimeError("linalg.matrix_norm: Expected a floating point or complex tensor as "
                           f"input. Got {_args.legacy(A.dtype)}")
    if singular:
        check_half("matrix_norm", A)
    if len(dims) != 2:
        raise RuntimeError("linalg.matrix_norm: dim must be a 2-tuple. Got "
                           + " ".join(str(d) for d in dims))
    wrapped = tuple(_args.wrap_dim(d, A.dim()) for d in dims)
    if wrapped[0] == wrapped[1]:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got {wrapped}")
    return wrapped


def frobenius_norm(input: Tensor, dim: Any, keepdim: bool = False) -> Tensor:
    """The 2-norm over ``dim`` (at most two dims; torch's deprecated name for
    ``linalg.vector_norm(input, 2, dim, keepdim)``, node ``NormBackward1``).

    >>> import warnings; warnings.simplefilter("ignore")
    >>> minitorch.frobenius_norm(minitorch.tensor([[3., 4.]]), (0, 1))
    tensor(5.)
    """
    fn = "frobenius_norm"
    _args.tensor_args(fn, (input, "input", 1))
    given = _args.int_list(fn, dim, "dim", 2)
    keepdim = _args.flag(fn, keepdim, "keepdim", 3)
    warn_once("at::frobenius_norm is deprecated and it is just left for JIT compatibility. It "
              "will be removed in a future PyTorch release. Please use `linalg.vector_norm(A, "
              "2., dim, keepdim)` instead")
    if len(given) > 2:
        raise RuntimeError(f"Expected at most 2 dimensions, but got {len(given)} dimensions "
                           "instead.")
    if not input.dtype.is_floating_point:
        raise RuntimeError("norm(): input dtype should be either floating point or complex. "
                           f"Got {input.dtype.legacy} instead.")
    dims = _args.dims(fn, given, input.dim()) or None
    if input.dim() == 0:
        dims = () if dims else None
    return Norm.apply(input, p=2.0, dims=dims, keepdim=keepdim)


_NUCLEAR_SIGNATURES = (
    "Tensor input, tuple of ints dim, bool keepdim = False, *, Tensor out = None",
    "Tensor input, bool keepdim = False, *, Tensor out = None")


@_call_form.overloads(*_NUCLEAR_SIGNATURES)
def nuclear_norm(input: Tensor, dim: Any = (-2, -1), keepdim: bool = False) -> Tensor:
    """The sum of the singular values over the two dims ``dim`` (torch's deprecated name for
    ``linalg.matrix_norm(input, "nuc", dim, keepdim)``); ``nuclear_norm(input, keepdim)``
    reads a bool second argument as ``keepdim``.

    >>> import warnings; warnings.simplefilter("ignore")
    >>> minitorch.nuclear_norm(minitorch.eye(2))
    tensor(2.)
    """
    fn = "nuclear_norm"
    _args.tensor_args(fn, (input, "input", 1))
    if isinstance(dim, bool):  # torch's other signature: (input, keepdim)
        dim, keepdim = (-2, -1), dim
    if not isinstance(dim, (int, tuple, list)):
        raise _args.invalid_combination(fn, (input, dim), *_NUCLEAR_SIGNATURES)
    one = not isinstance(dim, (tuple, list))
    given = _args.int_list(fn, dim, "dim", 2)
    keepdim = _args.flag(fn, keepdim, "keepdim", 3)
    warn_once("at::nuclear_norm is deprecated and it is just left for JIT compatibility. It "
              "will be removed in a future PyTorch release. Please use `linalg.matrix_norm(A, "
              "'nuc', dim, keepdim)` instead")
    if one:  # torch's parser reads one int as both dims
        given = (given[0], given[0])
    return matrix_norm(input, "nuc", given, keepdim)
