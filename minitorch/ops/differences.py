"""Differences and their running sums: ``diff`` (neighbours subtracted, ``n`` times),
``trapezoid``/``trapz`` (the trapezoid rule) and ``cumulative_trapezoid``. Each is torch's
composition of slices, sums and products, so its graph and gradient are torch's
(``SubBackward0`` over ``SliceBackward0``s, ...).

>>> import minitorch
>>> y = minitorch.tensor([1., 4., 9.], requires_grad=True)
>>> minitorch.diff(y)
tensor([3., 5.], grad_fn=<SubBackward0>)
>>> minitorch.trapezoid(y)
tensor(9., grad_fn=<MulBackward1>)
"""

from __future__ import annotations

from typing import Any

from .. import _args, _call_form
from .._creation import zeros, zeros_like
from .._tensor import Tensor
from .logic import logical_xor
from .pointwise import DivScalar, MulScalar
from .shape import cat

__all__ = ["cumulative_trapezoid", "diff", "trapezoid", "trapz"]


def _check_joined(input: Tensor, other: Tensor | None, dim: int) -> None:
    """diff's check of a tensor to prepend or append: ``input``'s shape but along ``dim``."""
    if other is None:
        return
    if other.dim() != input.dim():
        raise RuntimeError("diff expects prepend or append to be the same dimension as input")
    for i, (want, got) in enumerate(zip(input.shape, other.shape)):
        if i != dim and want != got:
            raise RuntimeError("diff expects the shape of tensor to prepend or append to match "
                               "that of input except along the differencing dimension; "
                               f"input.size({i}) = {want}, but got tensor.size({i}) = {got}")


def diff(input: Tensor, n: int = 1, dim: int = -1, prepend: Tensor | None = None,
         append: Tensor | None = None) -> Tensor:
    """The ``n``-th difference along ``dim``: ``out[i] = input[i + 1] - input[i]``, repeated
    ``n`` times (``prepend`` and ``append`` joined on first; bools are xor-ed).

    >>> minitorch.diff(minitorch.tensor([1, 3, 6, 10]), 2)
    tensor([1, 1])
    """
    _args.tensor_args("diff", (input, "input", 1))
    n, dim = _args.integers("diff", (n, "n", 2), (dim, "dim", 3))
    for value, name, at in ((prepend, "prepend", 4), (append, "append", 5)):
        if value is not None:
            _args.tensor_args("diff", (value, name, at))
    if input.dim() < 1:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    if not n and prepend is None and append is None:  # torch's copy, before any dim check
        return zeros_like(input).copy_(input)
    d = _args.wrap_dim(dim, input.dim())
    _check_joined(input, prepend, d)
    _check_joined(input, append, d)
    if not n:  # torch's copy of the input (CopyBackwards)
        return zeros_like(input).copy_(input)
    if prepend is not None or append is not None:
        input = cat([t for t in (prepend, input, append) if t is not None], d)
    result, length = input, input.shape[d] - 1
    for _ in range(min(n, input.shape[d])):
        later, earlier = result.narrow(d, 1, length), result.narrow(d, 0, length)
        result = logical_xor(later, earlier) if input.dtype.name == "bool" else later - earlier
        length -= 1
    return result


def _dim(fn: str, y: Tensor, dim: Any) -> int:
    return _args.wrap_dim(_args.integer(fn, dim, "dim", None), y.dim(), scalar=False)


def _trapezoid_x(fn: str, y: Tensor, x: Tensor, d: int) -> Tensor:
    """The spacings ``x[i + 1] - x[i]`` along ``d``, ``x`` (1-d: along ``d``; of fewer dims:
    leading ones) shaped to broadcast with ``y``'s."""
    if x.dim() == 1:
        if x.shape[0] != y.shape[d]:
            raise RuntimeError(f"{fn}: There must be one `x` value for each sample point")
        x = x.view(*(-1 if i == d else 1 for i in range(y.dim())))
    elif x.dim() < y.dim():
        x = x.view(*(1,) * (y.dim() - x.dim()), *x.shape)
    return x[_along(d, slice(1, None))] - x[_along(d, slice(0, -1))]


def _along(d: int, part: slice) -> tuple:
    return (slice(None),) * d + (part,)


def _no_bool(fn: str, *tensors: Any) -> None:
    if any(isinstance(t, Tensor) and t.dtype.name == "bool" for t in tensors):
        said = "`x` or `y`" if len(tensors) > 1 else "`y`"
        raise RuntimeError(f"{fn}: received a bool input for {said}, but bool is not supported")


def _spacing(fn: str, y: Tensor, x: Any, dx: Any) -> Any:
    """The sample spacing: a tensor ``x`` or a number ``dx`` (1 if neither), after torch's
    parser's choice of overload."""
    has_x, has_dx = x is not _args.OMITTED, dx is not _args.OMITTED  # (an explicit None:
    if (has_x and (has_dx or not isinstance(x, Tensor))) or (has_dx and dx is None):  # no
        given = (y, x) if has_x else (y,)  # overload of torch's takes it)
        raise _args.invalid_combination(
            fn, given, *_SIGNATURES[fn], keywords={"dx": dx} if has_dx else {})
    if has_x:
        return x
    dx = dx if has_dx else 1
    if isinstance(dx, (bool, complex)) or not _args.is_real(dx):
        if isinstance(dx, (bool, complex)):
            raise RuntimeError(f"{fn.replace('trapz', 'trapezoid')}: Currently, we only "
                               "support dx as a real number.")
        _args.number(fn, dx, "dx", None)
    return float(dx)


_SIGNATURES = {
    "trapezoid": ("Tensor y, Tensor x, *, int dim = -1",
                  "Tensor y, *, Number dx = 1, int dim = -1"),
    "trapz": ("Tensor y, *, float dx = 1, int dim = -1", "Tensor y, Tensor x, *, int dim = -1"),
    "cumulative_trapezoid": ("Tensor y, Tensor x, *, int dim = -1",
                             "Tensor y, *, Number dx = 1, int dim = -1"),
}


def _integral(fn: str, y: Any, x: Any, dx: Any, dim: Any, cumulative: bool) -> Tensor:
    _args.tensor_args(fn, (y, "y", 1))
    spacing = _spacing(fn, y, x, dx)
    d = _dim(fn, y, dim)
    name = "cumulative_trapezoid" if cumulative else "trapezoid"
    if not y.shape[d] and not cumulative:  # numpy's integral over no samples: 0
        return zeros((*y.shape[:d], *y.shape[d + 1:]), dtype=y.dtype)
    _no_bool(name, y, *([spacing] if isinstance(spacing, Tensor) else []))
    if isinstance(spacing, Tensor):
        spacing = _trapezoid_x(name, y, spacing, d)
    # torch's C++ formulas: a product or quotient by a double is mul.Scalar / div.Scalar
    left, right = y[_along(d, slice(0, -1))], y[_along(d, slice(1, None))]
    if cumulative:
        if isinstance(spacing, Tensor):
            return DivScalar.apply(((left + right) * spacing).cumsum(d), 2.0)
        return MulScalar.apply(left + right, spacing / 2.0).cumsum(d)
    if isinstance(spacing, Tensor):
        return DivScalar.apply(((right + left) * spacing).sum(d), 2.0)
    ends = MulScalar.apply(y.select(d, 0) + y.select(d, -1), 0.5)
    return MulScalar.apply(y.sum(d) - ends, spacing)


@_call_form.overloads(*_SIGNATURES["trapezoid"])
def trapezoid(y: Tensor, x: Any = _args.OMITTED, *, dx: Any = _args.OMITTED,
              dim: int = -1) -> Tensor:
    """The integral of the samples ``y`` along ``dim`` by the trapezoid rule, at points ``x``
    or ``dx`` apart (1 if neither is given).

    >>> minitorch.trapezoid(minitorch.tensor([1., 2., 3.]), dx=2.)
    tensor(8.)
    """
    return _integral("trapezoid", y, x, dx, dim, cumulative=False)


@_call_form.overloads(*_SIGNATURES["trapz"])
def trapz(y: Tensor, x: Any = _args.OMITTED, *, dx: Any = _args.OMITTED,
          dim: int = -1) -> Tensor:
    """torch's older name for :func:`trapezoid`.

    >>> minitorch.trapz(minitorch.tensor([1., 2., 3.]), minitorch.tensor([0., 1., 3.]))
    tensor(6.5000)
    """
    return _integral("trapz", y, x, dx, dim, cumulative=False)


@_call_form.overloads(*_SIGNATURES["cumulative_trapezoid"])
def cumulative_trapezoid(y: Tensor, x: Any = _args.OMITTED, *, dx: Any = _args.OMITTED,
                         dim: int = -1) -> Tensor:
    """The running integral of ``y`` along ``dim`` by the trapezoid rule (one value fewer
    than samples).

    >>> minitorch.cumulative_trapezoid(minitorch.tensor([1., 2., 3.]))
    tensor([1.5000, 4.0000])
    """
    return _integral("cumulative_trapezoid", y, x, dx, dim, cumulative=True)
