"""The named tuples that ops such as ``max(dim)`` return, printed as torch prints them.

>>> import minitorch
>>> minitorch.max(minitorch.tensor([[1., 5.], [3., 2.]]), 1)
torch.return_types.max(
values=tensor([5., 3.]),
indices=tensor([1, 0]))
"""

from __future__ import annotations

import functools
from collections import namedtuple
from typing import Any

__all__ = [
    "aminmax",
    "cummax",
    "cummin",
    "frexp",
    "geqrf",
    "histogram",
    "histogramdd",
    "kthvalue",
    "linalg_cholesky_ex",
    "linalg_eigh",
    "linalg_inv_ex",
    "linalg_lstsq",
    "linalg_lu",
    "linalg_lu_factor",
    "linalg_lu_factor_ex",
    "linalg_qr",
    "linalg_slogdet",
    "linalg_solve_ex",
    "linalg_svd",
    "lu_unpack",
    "max",
    "median",
    "min",
    "mode",
    "nanmedian",
    "qr",
    "slogdet",
    "sort",
    "svd",
    "topk",
    "triangular_solve",
]


def _return_type(name: str, fields: tuple[str, ...]) -> type:
    """A named tuple class ``name`` that prints as ``torch.return_types.name(...)``."""
    base = namedtuple(name, fields)  # type: ignore[misc]

    def __repr__(self: Any) -> str:
        items = ",\n".join(f"{field}={value!r}" for field, value in zip(fields, self))
        return f"torch.return_types.{name}(\n{items})"

    return type(name, (base,), {"__slots__": (), "__repr__": __repr__,
                                "__module__": "torch.return_types"})


max = _return_type("max", ("values", "indices"))
min = _return_type("min", ("values", "indices"))
sort = _return_type("sort", ("values", "indices"))
topk = _return_type("topk", ("values", "indices"))
kthvalue = _return_type("kthvalue", ("values", "indices"))
median = _return_type("median", ("values", "indices"))
nanmedian = _return_type("nanmedian", ("values", "indices"))
mode = _return_type("mode", ("values", "indices"))
aminmax = _return_type("aminmax", ("min", "max"))
cummax = _return_type("cummax", ("values", "indices"))
cummin = _return_type("cummin", ("values", "indices"))
linalg_eigh = _return_type("linalg_eigh", ("eigenvalues", "eigenvectors"))
linalg_qr = _return_type("linalg_qr", ("Q", "R"))
geqrf = _return_type("geqrf", ("a", "tau"))
frexp = _return_type("frexp", ("mantissa", "exponent"))
linalg_svd = _return_type("linalg_svd", ("U", "S", "Vh"))
svd = _return_type("svd", ("U", "S", "V"))
qr = _return_type("qr", ("Q", "R"))
linalg_slogdet = _return_type("linalg_slogdet", ("sign", "logabsdet"))
linalg_cholesky_ex = _return_type("linalg_cholesky_ex", ("L", "info"))
slogdet = _return_type("slogdet", ("sign", "logabsdet"))
histogram = _return_type("histogram", ("hist", "bin_edges"))
histogramdd = _return_type("histogramdd", ("hist", "bin_edges"))
linalg_inv_ex = _return_type("linalg_inv_ex", ("inverse", "info"))
linalg_solve_ex = _return_type("linalg_solve_ex", ("result", "info"))
linalg_lu_factor = _return_type("linalg_lu_factor", ("LU", "pivots"))
linalg_lu_factor_ex = _return_type("linalg_lu_factor_ex", ("LU", "pivots", "info"))
linalg_lu = _return_type("linalg_lu", ("P", "L", "U"))
lu_unpack = _return_type("lu_unpack", ("P", "L", "U"))
triangular_solve = _return_type("triangular_solve", ("solution", "cloned_coefficient"))
linalg_lstsq = _return_type("linalg_lstsq",
                            ("solution", "residuals", "rank", "singular_values"))


@functools.cache
def _written_type(name: str, fields: tuple[str, ...]) -> type:
    return _return_type(f"{name}_out", fields)


def written(result: Any, outs: tuple) -> Any:
    """The ``outs`` an op's named ``result`` was written into, as torch returns them: its
    fields, under the name ``<op>_out``.

    >>> from minitorch import tensor
    >>> written(mode(tensor(1.), tensor(0)), (tensor(1.), tensor(0)))
    torch.return_types.mode_out(
    values=tensor(1.),
    indices=tensor(0))
    """
    if not hasattr(result, "_fields"):
        return tuple(outs)
    return _written_type(type(result).__name__, result._fields)(*outs)
