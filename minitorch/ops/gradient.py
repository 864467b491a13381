"""``gradient``: a function's derivative estimated from its samples by central differences
(second order accurate inside; first or second order at the edges, ``edge_order``), along
each of ``dim``, with the samples ``spacing`` apart (one number per dim) or at the given
coordinates (one 1-d tensor per dim). As torch, it is a composition of slices, products,
quotients and a ``cat``, so its graph and gradients are torch's (``CatBackward0`` on top).

>>> import minitorch
>>> minitorch.gradient(minitorch.tensor([1., 4., 9., 16.]))
(tensor([3., 4., 6., 7.]),)
"""

from __future__ import annotations

from typing import Any

from .. import _args, _call_form
from .._tensor import Tensor
from .differences import _along
from .shape import cat

__all__ = ["gradient"]

SIGNATURES = (
    "Tensor input, *, tuple of ints dim, int edge_order = 1",
    "Tensor input, *, Number spacing, tuple of ints dim, int edge_order = 1",
    "Tensor input, *, Number spacing = None, int dim = None, int edge_order = 1",
    "Tensor input, *, tuple of Scalars spacing, int dim = None, int edge_order = 1",
    "Tensor input, *, tuple of Scalars spacing, tuple of ints dim, int edge_order = 1",
    "Tensor input, *, tuple of Tensors spacing, int dim = None, int edge_order = 1",
    "Tensor input, *, tuple of Tensors spacing, tuple of ints dim, int edge_order = 1",
)


@_call_form.overloads(*SIGNATURES)
def gradient(input: Tensor, *, spacing: Any = None, dim: Any = None,
             edge_order: int = 1) -> tuple:
    """The derivative of the sampled function ``input`` along each of ``dim`` (default:
    every dim), its samples ``spacing`` apart (a number, one per dim, or each dim's
    coordinates as 1-d tensors).

    >>> minitorch.gradient(minitorch.tensor([[1., 2., 4.], [2., 5., 8.]]), spacing=2., dim=1)
    (tensor([[0.5000, 0.7500, 1.0000],
            [1.5000, 1.5000, 1.5000]]),)
    """
    spacing, dims = _read(input, spacing, dim, edge_order)
    return tuple(
        _by_coordinates(input, d, h, edge_order) if isinstance(h, Tensor) else
        _by_step(input, d, h, edge_order) for d, h in zip(dims, spacing))


def _read(input: Tensor, spacing: Any, dim: Any, edge_order: Any) -> tuple:
    """torch's parser's pick among the signatures, then its checks, in its order: the
    spacings (one per dim) and the wrapped dims."""
    _args.tensor_args("gradient", (input, "input", 1))
    if isinstance(dim, (tuple, list)) and dim and _args.as_int(dim[0]) is not None:
        _args.dims("gradient", dim, None)  # its later items, refused as torch unpacks them
    one_dim = dim is None or _args.as_int(dim) is not None
    dims_ok = one_dim or (isinstance(dim, (tuple, list)) and
                          all(_args.as_int(d) is not None for d in dim))
    steps = _spacings(spacing)
    if steps is None or not dims_ok or _args.as_int(edge_order) is None:
        given = {k: v for k, v in (("spacing", spacing), ("dim", dim),
                                   ("edge_order", edge_order)) if v is not None}
        raise _args.invalid_combination("gradient", (input,), *SIGNATURES, keywords=given)
    if input.dtype.name == "uint8":
        raise RuntimeError("torch.gradient does not support uint8 input.")
    dims = (list(range(input.dim())) if dim is None else
            [dim] if one_dim else list(dim))
    if spacing is None or isinstance(steps, (int, float, complex)):  # one number for all
        steps = [1.0 if spacing is None else steps] * len(dims)
    elif dim is None and len(steps) != input.dim():
        raise RuntimeError(
            "torch.gradient expected spacing to be unspecified, a scalar, or a list of length "
            f"equal to 'self.dim() = {input.dim()}', since dim argument was not given, but got "
            f"a list of length {len(steps)}")
    elif dim is not None and len(steps) != len(dims):
        raise RuntimeError(
            "torch.gradient expected spacing to be unspecified, a scalar or it's spacing and "
            "dim arguments to have the same length, but got a spacing argument of length "
            f"{len(steps)} and a dim argument of length {len(dims)}.")
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    named = dims
    if dim is not None:
        dims = list(_args.dims("gradient", dims, input.dim()))
    if not input.dim() and dims:  # a 0-d input has no size to read: torch's words
        _args.wrap_dim(named[0], 0, scalar=False)
    if any(input.shape[d] < edge_order + 1 for d in dims):
        raise RuntimeError("torch.gradient expected each dimension size to be at least "
                           "edge_order+1")
    return steps, dims


def _spacings(spacing: Any) -> Any:
    """``spacing`` as torch's parser reads it: None, one number (a 0-d tensor's value too),
    a list of numbers or a list of tensors; None when it is none of these."""
    if spacing is None:
        return ()
    number = _number(spacing)
    if number is not None or not isinstance(spacing, (tuple, list)):
        return number
    if any(isinstance(s, Tensor) for s in spacing):  # a list of tensors, then, or refused
        return _args.tensor_items(spacing)
    numbers = [_number(s) for s in spacing]
    return None if None in numbers else numbers


def _number(value: Any) -> Any:
    """A Python number, or a 0-d tensor's or numpy scalar's value; None for anything else."""
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, Tensor):
        return value.item() if value.dim() == 0 else None
    return value.item() if _args.holds_number(value) else None


def _by_step(x: Tensor, d: int, h: Any, edge_order: int) -> Tensor:
    """Central differences of samples ``h`` apart (torch's arithmetic, step for step)."""
    def part(start: int, stop: int | None) -> Tensor:
        return x[_along(d, slice(start, stop))]

    center = (part(2, None) - part(0, -2)) / h
    if edge_order == 1:
        first = (part(1, 2) - part(0, 1)) / h
        last = (part(-1, None) - part(-2, -1)) / h
    else:
        first = (-1.5 * part(0, 1) + 2 * part(1, 2) - 0.5 * part(2, 3)) / h
        last = (0.5 * part(-3, -2) - 2 * part(-2, -1) + 1.5 * part(-1, None)) / h
    return cat([first, center / 2, last], d)


def _by_coordinates(x: Tensor, d: int, at: Tensor, edge_order: int) -> Tensor:
    """Central differences of samples at the coordinates ``at`` (uneven steps: each
    neighbour weighted by the other side's step)."""
    if at.dim() != 1:
        raise RuntimeError("torch.gradient expected each element of spacing to have one "
                           f"dimension, but got an element with {at.dim()} dimensions!")

    def part(start: int, stop: int | None) -> Tensor:
        return x[_along(d, slice(start, stop))]

    step = at.diff(1, 0)
    before, after = step[:-1], step[1:]
    shape = [-1 if i == d else 1 for i in range(x.dim())]
    a = (-after / (before * (before + after))).reshape(shape)
    b = ((after - before) / (before * after)).reshape(shape)
    c = (before / (after * (before + after))).reshape(shape)
    center = a * part(0, -2) + b * part(1, -1) + c * part(2, None)
    if edge_order == 1:
        first = (part(1, 2) - part(0, 1)) / step[0]
        last = (part(-1, None) - part(-2, -1)) / step[-1]
    else:
        h0, h1, g0, g1 = step[0], step[1], step[-1], step[-2]
        first = (-(2.0 * h0 + h1) / (h0 * (h0 + h1)) * part(0, 1)
                 + (h0 + h1) / (h0 * h1) * part(1, 2)
                 + (-h0) / (h1 * (h0 + h1)) * part(2, 3))
        last = (g0 / (g1 * (g0 + g1)) * part(-3, -2)
                + -(g0 + g1) / (g0 * g1) * part(-2, -1)
                + (2 * g0 + g1) / (g0 * (g0 + g1)) * part(-1, None))
    return cat([first, center, last], d)
