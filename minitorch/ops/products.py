"""Products that tutorials spell with a name, each torch's composition where torch composes
(so its graph is torch's): ``outer``, ``tensordot`` (contracted dims permuted to the inside,
then one ``mm``, or a ``dot`` for a full contraction), ``inner``, ``kron``, ``vdot``
(``VdotBackward0``), ``chain_matmul``/``linalg.multi_dot`` (the cheapest order of ``mm``s)
and ``matrix_power``.

>>> import minitorch
>>> minitorch.outer(minitorch.tensor([1., 2.]), minitorch.tensor([1., 10.]))
tensor([[ 1., 10.],
        [ 2., 20.]])
>>> minitorch.kron(minitorch.tensor([1, 2]), minitorch.tensor([1, 10]))
tensor([ 1, 10,  2, 20])
"""

from __future__ import annotations

import math
import warnings
from typing import Any

from .. import _args
from .._tensor import Tensor
from . import _out
from .inverse import _check_square, inv
from .linalg import Dot, matmul, mm
from .shape import UnsafeView, tensor_list

__all__ = ["Vdot", "chain_matmul", "inner", "kron", "matrix_power", "multi_dot", "outer",
           "tensordot", "vdot"]


def outer(input: Tensor, vec2: Tensor) -> Tensor:
    """``input[i] * vec2[j]`` for two vectors: torch's ``input.reshape(-1, 1) * vec2``
    (MulBackward0).

    >>> minitorch.ones(2).outer(minitorch.ones(3)).shape
    torch.Size([2, 3])
    """
    _args.tensor_args("outer", (input, "input", 1), (vec2, "vec2", 2))
    for name, v in (("self", input), ("vec2", vec2)):
        if v.dim() != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {v.dim()}-D")
    return input.reshape(input.shape[0], 1) * vec2


def _tensordot_dims(a: Tensor, b: Tensor, dims: Any) -> tuple:
    """``dims`` (a count of trailing/leading dims, or two lists) as two lists, as torch's
    Python wrapper reads it."""
    if isinstance(dims, Tensor):
        if dims.numel() > 1:
            return dims[0].tolist(), dims[1].tolist()
        count = int(dims.item())  # torch checks its sign only, not the ranks
        if count < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        return list(range(-count, 0)), list(range(count))
    if isinstance(dims, (tuple, list)):
        first, second = dims
        return list(first) if isinstance(first, (tuple, list)) else [first], \
            list(second) if isinstance(second, (tuple, list)) else [second]
    if _args.as_int(dims) is None:
        raise RuntimeError("tensordot expects dims to be int or tuple[list[int], list[int]] or "
                           f"list[list[int]] containing two lists, but got dims={dims}")
    if dims < 0:
        raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
    for operand in (a, b):  # torch's Python wrapper reads their ranks here, unchecked
        if not isinstance(operand, Tensor):
            raise AttributeError(f"'{_args.type_name(operand)}' object has no attribute 'dim'")
    if dims > min(a.dim(), b.dim()):
        raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
    return list(range(-dims, 0)), list(range(dims))


def tensordot(a: Tensor, b: Tensor, dims: Any = 2) -> Tensor:
    """The sum of products of ``a`` and ``b`` over the contracted dims: the last ``dims`` of
    ``a`` with the first ``dims`` of ``b``, or the two listed sets of dims.

    >>> minitorch.tensordot(minitorch.ones(2, 3), minitorch.ones(3, 4), dims=1).shape
    torch.Size([2, 4])
    """
    first, second = _tensordot_dims(a, b, dims)  # torch's Python, before its parser's checks
    _args.tensor_args("tensordot", (a, "input", 1), (b, "other", 2))
    if len(first) != len(second):
        raise RuntimeError("both dimension lists should have same length")
    if a.dtype is not b.dtype:
        raise RuntimeError("both inputs should have same dtype")
    t1, t2, contracted = a, b, 1
    wrapped: tuple[list, list] = ([], [])
    for given1, given2 in zip(first, second):  # each pair wrapped, then sized, as torch
        d1 = _args.wrap_dim(given1, a.dim(), scalar=False)
        d2 = _args.wrap_dim(given2, b.dim(), scalar=False)
        wrapped[0].append(d1)
        wrapped[1].append(d2)
        s1, s2 = a.shape[d1], b.shape[d2]
        if s2 == 1:  # a broadcast dim is summed right away
            t1 = t1.sum(d1, keepdim=True, dtype=t1.dtype)  # (torch keeps an int dtype)
        elif s1 == 1:
            t2 = t2.sum(d2, keepdim=True, dtype=t2.dtype)
        elif s1 != s2:
            raise RuntimeError(f"contracted dimensions need to match, but first has size {s1} "
                               f"in dim {given1} and second has size {s2} in dim {given2}")
        else:
            contracted *= s1
    first, second = wrapped
    kept1 = [d for d in range(a.dim()) if d not in first]
    kept2 = [d for d in range(b.dim()) if d not in second]
    sizes = [t1.shape[d] for d in kept1] + [t2.shape[d] for d in kept2]
    size1 = math.prod(t1.shape[d] for d in kept1)
    size2 = math.prod(t2.shape[d] for d in kept2)
    t1, t2 = t1.permute((*kept1, *first)), t2.permute((*second, *kept2))
    if size1 != 1 or size2 != 1:
        return mm(t1.reshape(size1, contracted), t2.reshape(contracted, size2)).reshape(sizes)
    if t1.is_contiguous() and t2.is_contiguous():  # torch's fast path for a full contraction
        return Dot.apply(t1.flatten(), t2.flatten()).reshape(sizes)
    return (t1.squeeze() * t2.squeeze()).sum(dtype=t1.dtype).reshape(sizes)


def inner(input: Tensor, other: Tensor) -> Tensor:
    """The sums of products over the last dims of ``input`` and ``other`` (a product where
    one is a number).

    >>> minitorch.inner(minitorch.tensor([1., 2.]), minitorch.tensor([3., 4.]))
    tensor(11.)
    """
    _args.tensor_args("inner", (input, "input", 1), (other, "other", 2))
    if not input.dim() or not other.dim():
        return input * other
    if input.shape[-1] != other.shape[-1]:
        raise RuntimeError("inner() the last dimension must match on both input tensors but got "
                           f"shapes {list(input.shape)} and {list(other.shape)}")
    return tensordot(input, other, ([-1], [-1]))


def kron(input: Tensor, other: Tensor) -> Tensor:
    """The Kronecker product: each element of ``input`` times all of ``other``, in blocks.

    >>> minitorch.kron(minitorch.eye(2), minitorch.ones(1, 2))
    tensor([[1., 1., 0., 0.],
            [0., 0., 1., 1.]])
    """
    _args.tensor_args("kron", (input, "input", 1), (other, "other", 2))
    ndim = max(input.dim(), other.dim())
    a = (1,) * (ndim - input.dim()) + tuple(input.shape)
    b = (1,) * (ndim - other.dim()) + tuple(other.shape)
    spread_a = tuple(n for s in a for n in (s, 1))
    spread_b = tuple(n for s in b for n in (1, s))
    product = UnsafeView.apply(input, shape=spread_a) * UnsafeView.apply(other, shape=spread_b)
    return UnsafeView.apply(product, shape=tuple(x * y for x, y in zip(a, b)))


class Vdot(Dot):
    node_name = "VdotBackward0"
    saved_names = ("other", "self")
    _profile_name = "aten::vdot"


def vdot(input: Tensor, other: Tensor) -> Tensor:
    """The dot product of two vectors (of real numbers: ``dot``).

    >>> minitorch.vdot(minitorch.tensor([1., 2.]), minitorch.tensor([3., 4.]))
    tensor(11.)
    """
    _args.tensor_args("vdot", (input, "input", 1), (other, "other", 2))
    return Vdot.apply(input, other)  # (dot's checks, in dot's words, as torch's)


def _matrices(fn: str, tensors: list) -> list:
    """multi_dot's checks: vectors at the ends read as a row and a column, matrices between,
    one dtype, shapes that chain."""
    n = len(tensors)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    ends = {0: "first", n - 1: "last"}
    out = list(tensors)
    for i in ends:  # the two ends before the middle, as torch
        if tensors[i].dim() not in (1, 2):
            raise RuntimeError(f"multi_dot(): the {ends[i]} tensor must be 1D or 2D but got "
                               f"{tensors[i].dim()}D")
    for i, t in enumerate(tensors):
        if i not in ends and t.dim() != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {t.dim()}D")
    if out[0].dim() == 1:
        out[0] = out[0].unsqueeze(0)
    if out[-1].dim() == 1:
        out[-1] = out[-1].unsqueeze(-1)
    for i in range(1, n):
        if out[i].dtype is not out[0].dtype:
            raise RuntimeError(f"multi_dot(): all tensors must have be the same dtype but tensor "
                               f"0 is {_args.c_name(out[0].dtype)} and tensor {i} "
                               f"{_args.c_name(out[i].dtype)}")
        if out[i - 1].shape[-1] != out[i].shape[0]:
            raise RuntimeError(f"multi_dot(): tensors {i - 1} and {i} with shapes "
                               f"{list(tensors[i - 1].shape)} and {list(tensors[i].shape)} "
                               "cannot be multiplied")
    return out


def _chain(matrices: list) -> Tensor:
    """The product of the matrices in torch's order: the cheaper of the two for three,
    the matrix chain order (dynamic programming) for more."""
    n = len(matrices)
    if n == 2:
        return mm(*matrices)
    sizes = [m.shape[0] for m in matrices] + [matrices[-1].shape[1]]
    if n == 3:
        a, b, c, d = sizes
        if a * c * (b + d) > b * d * (a + c):
            return mm(matrices[0], mm(matrices[1], matrices[2]))
        return mm(mm(matrices[0], matrices[1]), matrices[2])
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None  # type: ignore[call-overload]
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + sizes[i] * sizes[k + 1] * sizes[j + 1]
                if cost[i][j] is None or q < cost[i][j]:
                    cost[i][j], split[i][j] = q, k

    def product(i: int, j: int) -> Tensor:
        return matrices[i] if i == j else mm(product(i, split[i][j]),
                                             product(split[i][j] + 1, j))

    return product(0, n - 1)


def multi_dot(tensors: Any) -> Tensor:
    """The product of a list of matrices in the order that costs the fewest multiplications
    (the first and last may be vectors).

    >>> minitorch.linalg.multi_dot([minitorch.ones(2), minitorch.ones(2, 3), minitorch.ones(3)])
    tensor(6.)
    """
    given = tensor_list("linalg_multi_dot", tensors)
    matrices = _matrices("multi_dot", list(given))
    shape = [s for t, s in ((given[0], given[0].shape[0]), (given[-1], given[-1].shape[-1]))
             if t.dim() == 2]
    return _chain(matrices).view(shape)


_chain_warned = [False]


def chain_matmul(*matrices: Tensor, out: Tensor | None = None) -> Tensor:
    """The product of the matrices (deprecated in torch: use ``linalg.multi_dot``).

    >>> import warnings; warnings.simplefilter("ignore")
    >>> minitorch.chain_matmul(minitorch.ones(2, 3), minitorch.ones(3, 1))
    tensor([[3.],
            [3.]])
    """
    if not _chain_warned[0]:
        _chain_warned[0] = True
        warnings.warn("torch.chain_matmul is deprecated and will be removed in a future PyTorch "
                      "release. Use torch.linalg.multi_dot instead, which accepts a list of two "
                      "or more tensors rather than multiple parameters.", UserWarning,
                      stacklevel=3)
    if len(matrices) == 1 and isinstance(matrices[0], (tuple, list)):  # torch's Python wrapper
        matrices = tuple(matrices[0])
    matrices = tensor_list("chain_matmul", matrices)
    if out is not None and not isinstance(out, Tensor):
        raise TypeError(f"chain_matmul(): argument 'out' must be Tensor, not "
                        f"{_args.type_name(out)}")
    for m in matrices:
        if m.dim() != 2:
            raise RuntimeError(f"Tensor dimension is {m.dim()}, expected 2 instead.")
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    if len(matrices) == 1 and out is not None:  # torch copies it in, into any dtype
        return _out._write(matrices[0], out, cast=True)
    if len(matrices) == 1:
        return matrices[0].clone(memory_format=None).contiguous()
    if out is None:
        return multi_dot(matrices)
    from .. import linalg  # (linalg's multi_dot takes out=; linalg imports this module)

    return linalg.multi_dot(matrices, out=out)


def matrix_power(input: Tensor, n: int) -> Tensor:
    """The matrix (or each in a batch) multiplied by itself ``n`` times; ``n = 0`` gives the
    identity, a negative ``n`` powers of the inverse.

    >>> minitorch.matrix_power(minitorch.tensor([[1, 1], [0, 1]]), 3)
    tensor([[1, 3],
            [0, 1]])
    """
    _args.tensor_args("matrix_power", (input, "input", 1))
    (n,) = _args.integers("matrix_power", (n, "n", 2))
    _check_square("matrix_power", input, floating=False)
    if n == 0:  # a copy, so that the result is in the graph
        from .._creation import eye

        return input.clone().contiguous().copy_(eye(input.shape[-1], dtype=input.dtype))
    if n == 1:
        return input.clone().contiguous()
    if n == -1:
        return inv(input)
    a = inv(input) if n < 0 else input
    n = abs(n)
    if n == 2:
        return matmul(a, a)
    if n == 3:
        return matmul(matmul(a, a), a)
    z = result = None
    while n > 0:  # torch's binary decomposition, least significant bit first
        bit, n = n % 2, n // 2
        z = a if z is None else matmul(z, z)
        if bit:
            result = z if result is None else matmul(result, z)
    return result
