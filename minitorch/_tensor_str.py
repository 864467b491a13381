"""Printing tensors exactly as torch prints them, under torch's print options.

The layout follows torch's rules: every shown element of a tensor is formatted by one
shared rule (plain integers, ``1.`` for integer-valued floats, ``0.1234`` fixed point or
``1.2340e-05`` scientific), right-aligned to a common width, wrapped at the line width, with
``...`` standing for the middle of any dimension longer than twice ``edgeitems`` once the
tensor has more than ``threshold`` elements. Suffixes such as ``dtype=...`` or
``grad_fn=<...>`` follow the values. :func:`set_printoptions` changes the options, as
``torch.set_printoptions`` does.

>>> import minitorch
>>> minitorch.set_printoptions(precision=2)
>>> minitorch.tensor([1.12345])
tensor([1.12])
>>> minitorch.set_printoptions(profile="default")
"""

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ._dtype import get_default_dtype


@dataclasses.dataclass
class _PrintOptions:
    precision: Any = 4  # digits after the decimal point
    threshold: Any = 1000  # more elements than this are summarised
    edgeitems: Any = 3  # elements kept at each end of a summarised dimension
    linewidth: Any = 80
    sci_mode: Any = None  # None: chosen from the values


PRINT_OPTS = _PrintOptions()
_PROFILES = {"default": (4, 1000, 3, 80), "short": (2, 1000, 2, 80), "full": (4, math.inf, 3, 80)}
_PREFIX = "tensor("
_FLOATING = ("float16", "float32", "float64")
_IMPLIED = ("int64", "bool")  # with the default float, the dtypes whose values show their kind


def set_printoptions(precision: Any = None, threshold: Any = None, edgeitems: Any = None,
                     linewidth: Any = None, profile: Any = None, sci_mode: Any = None) -> None:
    """Set how tensors print: digits after the point, the element count past which they are
    summarised, the elements kept at each end of a summarised dimension, the line width,
    a ``profile`` (``"default"``, ``"short"`` or ``"full"``) that the other options then
    override, and ``sci_mode`` (True or False forces scientific notation or not; None lets
    the values choose). As in torch, ``sci_mode`` is reset by every call.

    >>> minitorch.set_printoptions(threshold=5)
    >>> minitorch.arange(10)
    tensor([0, 1, 2,  ..., 7, 8, 9])
    >>> minitorch.set_printoptions(profile="default")
    >>> minitorch.arange(10)
    tensor([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    """
    if profile in _PROFILES:  # torch ignores a profile it does not know
        (PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems,
         PRINT_OPTS.linewidth) = _PROFILES[profile]
    for name, value in (("precision", precision), ("threshold", threshold),
                        ("edgeitems", edgeitems), ("linewidth", linewidth)):
        if value is not None:
            setattr(PRINT_OPTS, name, value)
    PRINT_OPTS.sci_mode = sci_mode


def tensor_repr(array: np.ndarray, dtype_name: str, suffixes: Sequence[str] = (),
                device: str = "", prefix: str = _PREFIX) -> str:
    """Return torch's ``repr`` of a tensor holding ``array``, spelled ``minitorch.``.

    ``dtype_name`` names the array's dtype ("float32", "int32"...); the ``dtype=`` suffix is
    added where torch shows it, after ``device=`` (given for non-CPU tensors) and before the
    caller's ``suffixes``. A Tensor subclass's ``prefix`` is its name (``"Mine("``), as torch's.

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
        if not PRINT_OPTS.edgeitems:
            extra.append(f"size={tuple(array.shape)}")
        body = _values_str(array, dtype_name in _FLOATING, len(prefix))
        show_dtype = dtype_name not in _IMPLIED and dtype_name != get_default_dtype().name
    if show_dtype:
        extra.append(f"dtype=torch.{dtype_name}")
    return _add_suffixes(prefix + body, [*extra, *suffixes], len(prefix))


def meta_repr(shape: tuple, dtype_name: str, suffixes: Sequence[str] = (),
              prefix: str = _PREFIX) -> str:
    """torch's ``repr`` of a meta tensor, which has no values: its size instead.

    >>> meta_repr((2, 3), "int64", ["requires_grad=True"])
    "tensor(..., device='meta', size=(2, 3), dtype=torch.int64, requires_grad=True)"
    """
    extra = ["device='meta'", f"size={tuple(shape)}"]
    if dtype_name != get_default_dtype().name:
        extra.append(f"dtype=torch.{dtype_name}")
    return _add_suffixes(prefix + "...", [*extra, *suffixes], len(prefix))


def _values_str(array: np.ndarray, floating: bool, indent: int = len(_PREFIX)) -> str:
    """The bracketed values of a non-empty array, e.g. ``[[1., 2.],\\n        [3., 4.]]``."""
    summarize = array.size > PRINT_OPTS.threshold
    formatter = _Formatter(_summarized(array) if summarize else array, floating)
    return _nested_str(array, indent, summarize, formatter)


def _edges(n: int) -> list:
    """The indices torch keeps along a dimension of ``n`` when summarising: ``edgeitems`` at
    each end (sliced as torch slices, so 0 keeps everything)."""
    e, indices = PRINT_OPTS.edgeitems, list(range(n))
    return indices[:e] + indices[-e:] if n > 2 * e else indices


def _summarized(array: np.ndarray) -> np.ndarray:
    """The elements a summarised print shows, which alone choose the format (torch's
    ``get_summarized_data``); with ``edgeitems`` 0 a matrix shows none."""
    if array.ndim >= 2 and not PRINT_OPTS.edgeitems:
        return array[(slice(0, 0),) * array.ndim]
    return array[np.ix_(*(_edges(n) for n in array.shape))] if array.ndim else array


def _format(spec: str, value: float) -> str:
    """``value`` in ``spec``, made with the print options' precision, which torch never checks:
    a bad one (``2.5``, ``-1``) fails in Python's ``format`` as torch's does, with its words.

    >>> _format("{:.2f}", 1.0)
    '1.00'
    """
    try:
        return spec.format(value)
    except ValueError as error:  # (Python's own refusal, passed on as torch passes it)
        raise ValueError(str(error)) from None


class _Formatter:
    """torch's ``_Formatter``: one rule and one width for every shown element."""

    def __init__(self, shown: np.ndarray, floating: bool) -> None:
        self.floating, self.int_mode, self.sci_mode, self.width = floating, True, False, 1
        values = shown.ravel()
        if not floating:
            self.width = max([1, *(len(f"{v}") for v in values.tolist())])
            return
        nonzero = values[np.isfinite(values) & (values != 0)].tolist()
        if not nonzero:
            return
        small, large = min(map(abs, nonzero)), max(map(abs, nonzero))
        self.int_mode = all(v.is_integer() for v in nonzero)
        self.sci_mode = (large / small > 1000.0 or large > 1.0e8 or small < 1.0e-4
                         if PRINT_OPTS.sci_mode is None else PRINT_OPTS.sci_mode)
        precision = PRINT_OPTS.precision
        if self.sci_mode:
            widths = (len(_format(f"{{:.{precision}e}}", v)) for v in nonzero)
        elif self.int_mode:  # the trailing dot counts
            widths = (len(f"{v:.0f}") + 1 for v in nonzero)
        else:
            widths = (len(_format(f"{{:.{precision}f}}", v)) for v in nonzero)
        self.width = max(1, *widths)

    def format(self, value: Any) -> str:
        precision = PRINT_OPTS.precision
        if not self.floating:
            text = f"{value}"
        elif self.sci_mode:
            text = _format(f"{{:{self.width}.{precision}e}}", value)
        elif self.int_mode:
            text = f"{value:.0f}" + ("." if math.isfinite(value) else "")
        else:
            text = _format(f"{{:.{precision}f}}", value)
        return (self.width - len(text)) * " " + text


def _nested_str(array: np.ndarray, indent: int, summarize: bool, formatter: _Formatter) -> str:
    """Bracket the formatted elements dimension by dimension; ``indent`` is the column of
    ``[`` (torch's ``_tensor_str_with_formatter``)."""
    if array.ndim == 0:
        return formatter.format(array.item())
    if array.ndim == 1:
        return _vector_str(array, indent, summarize, formatter)
    e, n = PRINT_OPTS.edgeitems, len(array)
    if summarize and n > 2 * e:
        rows = [*range(e), None, *range(n - e, n)]
    else:
        rows = list(range(n))
    parts = ["..." if i is None else _nested_str(array[i], indent + 1, summarize, formatter)
             for i in rows]
    # blocks of higher dimensions are separated by blank lines, one per extra dimension
    return "[" + ("," + "\n" * (array.ndim - 1) + " " * (indent + 1)).join(parts) + "]"


def _vector_str(array: np.ndarray, indent: int, summarize: bool, formatter: _Formatter) -> str:
    """One innermost dimension, wrapped so each line holds as many elements as fit."""
    per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / (formatter.width + 2)))
    e = PRINT_OPTS.edgeitems
    if summarize and not e:
        items = ["..."]
    elif summarize and len(array) > 2 * e:
        items = ([formatter.format(v) for v in array[:e].tolist()] + [" ..."]
                 + [formatter.format(v) for v in array[-e:].tolist()])
    else:
        items = [formatter.format(v) for v in array.tolist()]
    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _add_suffixes(text: str, suffixes: Sequence[str], indent: int = len(_PREFIX)) -> str:
    """Append ``, suffix`` items, moving one to a new line when it would pass the line width."""
    # breaks fall where torch's do: torch counts two characters more than the last line holds
    line_length = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        length = len(suffix)
        if line_length + length + 2 > PRINT_OPTS.linewidth:
            text += ",\n" + " " * indent + suffix
            line_length = indent + length
        else:
            text += ", " + suffix
            line_length += length + 2
    return text + ")"
