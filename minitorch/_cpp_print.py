"""A tensor as torch's C++ code prints it into some error messages (``operator<<`` in
ATen's ``Formatting.cpp``): one column of numbers per matrix column, a common width and
format chosen from the values, then ``[ torch.FloatTensor{2,3} ]``.

>>> import minitorch
>>> print(cpp_str(minitorch.tensor([[0., 1.5], [2., 3.]])))
 0.0000  1.5000
 2.0000  3.0000
[ torch.FloatTensor{2,2} ]
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from . import _args

_LINE = 80  # torch's line size


def cpp_str(tensor: Any) -> str:
    """``tensor`` as torch's C++ ``operator<<`` prints it."""
    values, shape = tensor.detach().to("cpu").tolist(), tuple(tensor.shape)
    kind = "CPUBoolType" if tensor.dtype.name == "bool" else _args._legacy_name(tensor)
    name = f"{kind}{{{','.join(map(str, shape))}}}"
    if not shape:
        return f"{cpp_float(float(values))}\n[ {name} ]"
    if not tensor.numel():
        return f"[ {name} ]"
    flat = _flat(values)
    if len(shape) == 1:
        scale, width, number = _format(flat)
        head = _scale_line(scale)
        return head + "".join(f"{number(v / scale):>{width}}\n" for v in values) + f"[ {name} ]"
    if len(shape) == 2:
        return _matrix(values, flat, 0) + f"[ {name} ]"
    return _tensor(values, shape) + f"[ {name} ]"


def _flat(values: Any) -> list:
    while values and isinstance(values[0], list):
        values = [v for row in values for v in row]
    return [float(v) for v in values]


def cpp_float(value: float) -> str:
    """C++'s default float format (``%g``), with its spellings of the specials."""
    if math.isnan(value):
        return "nan" if math.copysign(1, value) > 0 else "-nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:g}"


def _format(flat: list) -> tuple:
    """torch's ``__printFormat``: the scale, the width and the number format of the values."""
    finite = [abs(v) for v in flat if math.isfinite(v)]
    integral = all(not math.isfinite(v) or v == math.ceil(v) for v in flat)

    def exponent(v: float) -> float:
        return math.floor(math.log10(v)) + 1 if v else 1

    def fixed(v: float) -> str:
        return f"{v:.4f}" if math.isfinite(v) else cpp_float(v)

    low, high = (exponent(min(finite)), exponent(max(finite))) if finite else (1, 1)
    scientific = (11, lambda v: f"{v:.4e}" if math.isfinite(v) else cpp_float(v))
    if integral:
        if high > 9:
            return (1.0, *scientific)
        return 1.0, int(high) + 1, cpp_float
    if high - low > 4:
        width, number = scientific
        return 1.0, width + (abs(high) > 99 or abs(low) > 99), number
    if high > 5 or high < 0:
        return 10.0 ** (high - 1), 7, fixed
    return 1.0, 7 if high == 0 else int(high) + 6, fixed


def _scale_line(scale: float, indent: int = 0) -> str:
    """The scale line (in the shortest form that reads back, as torch's fmt prints it)."""
    return f"{repr(scale).removesuffix('.0')} *\n{' ' * indent}" if scale != 1 else ""


def _matrix(rows: list, flat: list, indent: int) -> str:
    """torch's ``__printMatrix``: the columns in blocks that fit the line."""
    scale, width, number = _format(flat)
    per_line = (_LINE - indent) // (width + 1)
    columns = len(rows[0])
    out, first = [], 0  # (torch indents every row but the first)
    while first < columns:
        last = min(first + per_line, columns) - 1
        if per_line < columns:
            out.append(("\n" if first else "") + f"Columns {first + 1} to {last + 1}" +
                       " " * indent)
        out.append(_scale_line(scale, indent))
        for r, row in enumerate(rows):
            cells = [f"{number(float(v) / scale):>{width}}" for v in row[first:last + 1]]
            out.append(" ".join(cells) + "\n")
            if r != len(rows) - 1:
                out.append(" " * indent + (" " if scale != 1 else ""))
        first = last + 1
    return "".join(out)


def _tensor(values: list, shape: tuple) -> str:
    """torch's ``__printTensor``: each matrix of the last two dims under its ``(i,j,.,.)``,
    the first index counting fastest."""
    out = []
    for index in itertools.product(*(range(n) for n in reversed(shape[:-2]))):
        index = index[::-1]
        block = values
        for i in index:
            block = block[i]
        out.append(f"({','.join(str(i + 1) for i in index)},.,.) = \n" +
                   _matrix(block, _flat(block), 1))
    return "\n".join(out)
