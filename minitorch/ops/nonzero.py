"""``nonzero`` and ``argwhere``: the indices of a tensor's non-zero elements, as int64.

Without ``as_tuple`` one ``(n, ndim)`` tensor, a row per element; with it one 1-D tensor
per dim (a 0-d input counts as one dim there, and as none in the matrix, as in torch). The
result never needs a gradient.

>>> import minitorch
>>> minitorch.tensor([[0., 1.], [2., 0.]]).nonzero()
tensor([[0, 1],
        [1, 0]])
"""

from __future__ import annotations

from typing import Any

from .. import _args
from .._batched import refuse_dynamic_shape
from .._tensor import Tensor
from ..backend import restrided, strided_zeros
from ._base import wrap
from ._out import takes_out
from .pointwise import _nonzero

__all__ = ["METHODS", "argwhere", "nonzero", "nonzero_static"]


def _indices(fn: str, input: Tensor, as_tuple: Any) -> Any:
    _args.tensor_args(fn, (input, "input", 1))
    if _args.flag(fn, as_tuple, "as_tuple"):
        return _nonzero(input)
    if fn == "nonzero":  # (vmap batches argwhere, a decomposition, example by example)
        refuse_dynamic_shape("aten::nonzero", input)
    xp = input._xp
    if input.dim() == 0:  # one row of no indices when the number is non-zero
        n = int(bool(input._data))
        return wrap(restrided(xp.zeros((n, 0), dtype=xp.int64), (1, n)))
    return wrap(_column_major(xp, [i._data for i in _nonzero(input)]))


def _column_major(xp: Any, columns: list) -> Any:
    """The index ``columns`` side by side, stored column after column (strides ``(1, n)``)
    as torch's ``nonzero`` lays out its result."""
    n = columns[0].shape[0]
    out = strided_zeros(xp, (n, len(columns)), (1, n), xp.int64)
    if not n:
        return restrided(out, (1, n))
    out[...] = xp.stack(columns, axis=1)
    return out


@takes_out
def nonzero(input: Tensor, *, as_tuple: bool = False) -> Any:
    """The indices of ``input``'s non-zero elements: an ``(n, input.dim())`` int64 tensor, or
    with ``as_tuple`` a tuple of one index tensor per dim (what ``x[...]`` takes).

    >>> minitorch.nonzero(minitorch.tensor([0, 3, 5]), as_tuple=True)
    (tensor([1, 2]),)
    """
    return _indices("nonzero", input, as_tuple)


def argwhere(input: Tensor) -> Tensor:
    """``nonzero(input)``: the ``(n, input.dim())`` indices of the non-zero elements.

    >>> minitorch.argwhere(minitorch.tensor([0., 2.]))
    tensor([[1]])
    """
    return _indices("argwhere", input, False)


def _nonzero_method(self: Tensor, *args: Any, as_tuple: bool = False) -> Any:
    if args:  # torch's binding says so, with its odd count
        raise TypeError(f"nonzero() takes from 1 to 0 positional arguments but {len(args)} "
                        "were given")
    return nonzero(self, as_tuple=as_tuple)


def nonzero_static(input: Tensor = _args.OMITTED, *args: Any, size: int = _args.OMITTED,
                   fill_value: int = -1, **unknown: Any) -> Tensor:
    """``nonzero(input)`` with exactly ``size`` rows: cut short, or filled with
    ``fill_value`` (a shape known before the values, as compilers want).

    >>> minitorch.nonzero_static(minitorch.tensor([0, 3, 5]), size=3)
    tensor([[ 1],
            [ 2],
            [-1]])
    """
    _static_call(args, size, method=False, first=input, unknown=unknown)
    _args.tensor_args("nonzero_static", (input, "input", 1))
    size, fill_value = _args.parsed("nonzero_static", ("int", size, "size", None),
                                    ("int", fill_value, "fill_value", None))
    if size < 0:
        raise RuntimeError("nonzero_static: 'size' must be an non-negative integer")
    _args.check_alloc((size, input.dim()), 8)  # its int64 rows, as torch allocates them
    xp = input._xp
    if input.dim() == 0:  # torch's kernel: no index columns, ``size`` rows
        return wrap(xp.zeros((size, 0), dtype=xp.int64))
    found = _indices("nonzero_static", input, False)._data[:size]
    rows = xp.full((size, input.dim()), fill_value, dtype=xp.int64)
    rows[:found.shape[0]] = found
    return wrap(rows)


def _static_call(args: tuple, size: Any, method: bool, first: Any = None,
                 unknown: dict | None = None) -> None:
    """torch's binding of ``nonzero_static``: no positional argument after the tensor (its
    count as it words it), then the keyword ``size``."""
    if args:
        given, most = (len(args), 0) if method else (len(args) + 1, 1)
        raise TypeError(f"nonzero_static() takes from {most + 1} to {most} positional "
                        f"arguments but {given} were given")
    if not method and first is not _args.OMITTED:
        _args.tensor_args("nonzero_static", (first, "input", 1))  # a type before a lack
    lacking = [n for n, v in (("input", first), ("size", size)) if v is _args.OMITTED]
    if lacking:
        listed = ", ".join(f'"{n}"' for n in lacking)  # (torch's count, its plural)
        raise TypeError(f"nonzero_static() missing {len(lacking)} required positional "
                        f"argument{'s' * (len(lacking) == 1)}: {listed}")
    if unknown:
        raise TypeError(f"nonzero_static() got an unexpected keyword argument "
                        f"'{next(iter(unknown))}'")


def _nonzero_static_method(self: Tensor, *args: Any, size: int = _args.OMITTED,
                           fill_value: int = -1, **unknown: Any) -> Tensor:
    _static_call(args, size, method=True, unknown=unknown)
    return nonzero_static(self, size=size, fill_value=fill_value)


_nonzero_static_method.__name__ = "nonzero_static"
_nonzero_static_method.__doc__ = nonzero_static.__doc__
_nonzero_method.__name__ = "nonzero"
_nonzero_method.__doc__ = nonzero.__doc__
METHODS = {"nonzero": _nonzero_method, "argwhere": argwhere,
           "nonzero_static": _nonzero_static_method}
