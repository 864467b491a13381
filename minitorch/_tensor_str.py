"""Printing tensors exactly as torch prints them (default print options only).

The layout follows torch's rules: every shown element of a tensor is formatted by one
shared rule (plain integers, ``1.`` for integer-valued floats, ``0.1234`` fixed point or
``1.2340e-05`` scientific), right-aligned to a common width, wrapped at 80 columns, with
``...`` standing for the middle of any dimension longer than six once the tensor has more
than 1000 elements. Suffixes such as ``dtype=...`` or ``grad_fn=<...>`` follow the values.
"""

import math
from collections.abc import Callable, Sequence

import numpy as np

from ._dtype import get_default_dtype

PRECISION = 4  # digits after the decimal point
THRESHOLD = 1000  # more elements than this are summarised
EDGEITEMS = 3  # elements kept at each end of a summarised dimension
LINEWIDTH = 80

_PREFIX = "tensor("
_FLOATING = ("float16", "float32", "float64")
_IMPLIED = ("int64", "bool")  # with the default float, the dtypes whose values show their kind


def tensor_repr(array: np.ndarray, dtype_name: str, suffixes: Sequence[str] = (),
                device: str = "") -> str:
    """Return torch's ``repr`` of a tensor holding ``array``, spelled ``minitorch.``.

    ``dtype_name`` names the array's dtype ("float32", "int32"...); the ``dtype=`` suffix is
    added where torch shows it, after ``device=`` (given for non-CPU tensors) and before the
    caller's ``suffixes``.

    >>> tensor_repr(np.array([1.0, 2.5]), "float32", ["requires_grad=True"])
    'tensor([1.0000, 2.5000], requires_grad=True)'
    >>> tensor_repr(np.zeros((0, 3)), "int64")
    'tensor([], size=(0, 3), dtype=torch.int64)'
    """
    array = np.asarray(array, dtype=dtype_name)
    extra = [f"device='{device}'"] if device else []
    if array.size == 0:
        body = "[]"
        if array.ndim != 1:
            extra.append(f"size={tuple(array.shape)}")
        # no element shows whether an empty tensor holds integers, so only float32 is implied
        show_dtype = dtype_name != get_default_dtype().name
    else:
        body = _values_str(array, dtype_name in _FLOATING)
        show_dtype = dtype_name not in _IMPLIED and dtype_name != get_default_dtype().name
    if show_dtype:
        extra.append(f"dtype=torch.{dtype_name}")
    return _add_suffixes(_PREFIX + body, [*extra, *suffixes])


def meta_repr(shape: tuple, dtype_name: str, suffixes: Sequence[str] = ()) -> str:
    """torch's ``repr`` of a meta tensor, which has no values: its size instead.

    >>> meta_repr((2, 3), "int64", ["requires_grad=True"])
    "tensor(..., device='meta', size=(2, 3), dtype=torch.int64, requires_grad=True)"
    """
    extra = ["device='meta'", f"size={tuple(shape)}"]
    if dtype_name != get_default_dtype().name:
        extra.append(f"dtype=torch.{dtype_name}")
    return _add_suffixes(_PREFIX + "...", [*extra, *suffixes])


def _values_str(array: np.ndarray, floating: bool) -> str:
    """The bracketed values of a non-empty array, e.g. ``[[1., 2.],\\n        [3., 4.]]``."""
    summarize = array.size > THRESHOLD
    cut = [summarize and n > 2 * EDGEITEMS for n in array.shape]
    if summarize:
        array = array[np.ix_(*(_kept(n) if c else np.arange(n) for n, c in zip(array.shape, cut)))]
    cells, width = _format_cells(array, floating)
    return _nest(cells, cut, width, len(_PREFIX))


def _kept(n: int) -> np.ndarray:
    """Indices shown along a summarised dimension of length ``n``: both edges."""
    return np.r_[0:EDGEITEMS, n - EDGEITEMS : n]


def _format_cells(shown: np.ndarray, floating: bool) -> tuple[np.ndarray, int]:
    """Format every shown element; return the strings (shaped like ``shown``) and the width.

    The width is the one torch uses for alignment and line breaking; a few strings
    (``nan``, ``-0.``) may be longer than it.
    """
    values = shown.ravel().tolist()
    if floating:
        to_str, width = _float_rule(shown)
    else:
        to_str, width = str, max(len(str(v)) for v in values)
    cells = [to_str(v).rjust(width) for v in values]
    return np.array(cells, dtype=object).reshape(shown.shape), width


def _float_rule(shown: np.ndarray) -> tuple[Callable[[float], str], int]:
    """Choose how floats print, from their non-zero finite values: returns (to_str, width)."""
    flat = shown.ravel()
    nonzero = flat[np.isfinite(flat) & (flat != 0)].tolist()
    if not nonzero:
        return _int_valued, 1
    small, large = min(map(abs, nonzero)), max(map(abs, nonzero))
    if large / small > 1000.0 or large > 1.0e8 or small < 1.0e-4:
        to_str = f"{{:.{PRECISION}e}}".format
    elif all(v.is_integer() for v in nonzero):
        to_str = _int_valued
    else:
        to_str = f"{{:.{PRECISION}f}}".format
    return to_str, max(len(to_str(v)) for v in nonzero)


def _int_valued(value: float) -> str:
    """An integer-valued float with a trailing dot (``3.``); ``nan`` and ``inf`` as they are."""
    text = f"{value:.0f}"
    return text + "." if math.isfinite(value) else text


def _nest(cells: np.ndarray, cut: list[bool], width: int, indent: int) -> str:
    """Bracket the formatted cells dimension by dimension; ``indent`` is the column of ``[``."""
    if cells.ndim == 0:
        return cells[()]
    if cells.ndim == 1:
        return _row(list(cells), cut[0], width, indent)
    parts = [_nest(sub, cut[1:], width, indent + 1) for sub in cells]
    if cut[0]:
        parts.insert(EDGEITEMS, "...")
    # blocks of higher dimensions are separated by blank lines, one per extra dimension
    separator = "," + "\n" * (cells.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(parts) + "]"


def _row(items: list[str], cut: bool, width: int, indent: int) -> str:
    """One innermost dimension, wrapped so each line holds as many elements as fit."""
    if cut:
        items.insert(EDGEITEMS, " ...")
    per_line = max(1, (LINEWIDTH - indent) // (width + 2))
    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _add_suffixes(text: str, suffixes: Sequence[str]) -> str:
    """Append ``, suffix`` items, moving one to a new line when it would pass the line width."""
    # breaks fall where torch's do: torch counts two characters more than the last line holds
    line_length = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        length = len(suffix)
        if line_length + length + 2 > LINEWIDTH:
            text += ",\n" + " " * len(_PREFIX) + suffix
            line_length = len(_PREFIX) + length
        else:
            text += ", " + suffix
            line_length += length + 2
    return text + ")"
