"""``interpolate``: resize the spatial dims of ``(N, C, L)`` or ``(N, C, H, W)`` by a
``size`` or a ``scale_factor``, with ``nearest`` or (bi)``linear`` interpolation, as torch.

>>> import minitorch
>>> from minitorch.nn import functional as F
>>> F.interpolate(minitorch.tensor([[[0., 1.]]]), size=3, mode="linear", align_corners=True)
tensor([[[0.0000, 0.5000, 1.0000]]])
"""

from __future__ import annotations

from typing import Any

from .. import _args
from .._tensor import Tensor
from ..ops.upsample import NODES, linear_sources, nearest_sources

__all__ = ["interpolate"]

_LINEAR = {"linear": 3, "bilinear": 4}
_NO_DOUBLE = 2 ** 1024 - 2 ** 970  # the smallest int that rounds past the largest double


def _per_dim(value: Any, dims: int, input: Tensor, scale: bool) -> list:
    """``size`` or ``scale_factor`` per spatial dim, with torch's errors for a wrong count or,
    for sizes, a non-integer."""
    if not isinstance(value, (tuple, list)):
        return [value] * dims
    if len(value) != dims:
        what, form = ("scale_factor", "scale_factor of shape") if scale else \
            ("output", "output size of")
        example = "scale_factor in (s1, s2, ...,sK)" if scale else \
            "output size in (o1, o2, ...,oK)"
        raise ValueError(
            f"Input and {what} must have the same number of spatial dimensions, but got "
            f"input with spatial dimensions of {list(input.shape[2:])} and {form} {value}. "
            f"Please provide input tensor in (N, C, d1, d2, ...,dK) format and {example} "
            "format.")
    if not scale and not all(_args.as_int(v) is not None or (
            _args.is_tensor(v) and not v.is_floating_point()) for v in value):
        raise TypeError("expected size to be one of int or Tuple[int] or Tuple[int, int] or "
                        "Tuple[int, int, int], but got size with types "
                        f"{[type(v) for v in value]}")
    return list(value)


def _scale_factors(input: Tensor, mode: str, align_corners: Any, scale_factor: Any,
                   given: list) -> list:
    """The scale factors as the parser of torch's upsampling kernel reads its ``tuple of
    floats``: the first a Python or numpy number (else no overload matches), then each as a
    float (a complex one refused by its 1-based position)."""
    kernel = f"upsample_{mode}{input.dim() - 2}d"
    if not given:  # no spatial dim: refused by the mode's check, after
        return []
    first = given[0]
    if not (isinstance(first, (int, float, complex)) or (
            _args.holds_number(first) and not _args.is_tensor(first))):
        listed = scale_factor if isinstance(scale_factor, (tuple, list)) else given
        flag = ("bool align_corners, ",) if mode != "nearest" else ("",)
        scales = ", ".join(f"float scales_{d} = None" for d in "dhw"[-len(given):]) \
            if len(given) > 1 else "float scales = None"
        given_args = (input, None, *([bool(align_corners)] if flag[0] else []), listed)
        raise _args.invalid_combination(
            kernel, given_args,
            f"Tensor input, tuple of ints output_size, {flag[0]}tuple of floats scale_factors",
            f"Tensor input, tuple of ints output_size, {flag[0]}{scales}, *, "
            "Tensor out = None")
    for position, value in enumerate(given, 1):
        if not _args.is_real(value) or (isinstance(value, int) and abs(value) >= _NO_DOUBLE):
            raise TypeError(f"{kernel}(): argument 'scale_factors' must be tuple of floats, "
                            f"but found element of type {_args.type_name(value)} at pos "
                            f"{position}")
    return [float(v) for v in given]


def _check_align(mode: str, align_corners: bool | None) -> None:
    """torch's first check: ``align_corners`` only with the interpolating modes."""
    if align_corners is not None and mode in ("nearest", "area", "nearest-exact"):
        raise ValueError("align_corners option can only be set with the interpolating modes: "
                         "linear | bilinear | bicubic | trilinear")


def _check_mode(input: Tensor, mode: str) -> None:
    """Refuse a mode or rank minitorch has no kernel for; torch checks the ``size`` and
    ``scale_factor`` counts before it dispatches, so this runs after them."""
    if mode in _LINEAR and input.dim() != _LINEAR[mode]:
        raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs "
                                  f"{_LINEAR[mode]}D input")
    if mode not in ("nearest", *_LINEAR) or input.dim() not in (3, 4):
        raise NotImplementedError(f"minitorch's interpolate supports 'nearest', 'linear' and "
                                  f"'bilinear' on 3-D and 4-D inputs, not {mode!r} on "
                                  f"{input.dim()}-D")


def _check_sizes(input: Tensor, sizes: list, mode: str, antialias: bool) -> None:
    """The checks of torch's upsampling kernels: sizes, an empty input, the dtype."""
    spatial = input.shape[2:]
    if min(*spatial, *sizes) <= 0:
        names = "HW"[-len(sizes):]
        given, wanted = (", ".join(f"{n}: {v}" for n, v in zip(names, values))
                         for values in (spatial, sizes))
        raise RuntimeError("Input and output sizes should be greater than 0, but got input "
                           f"({given}){' and' if len(sizes) == 1 else ''} output ({wanted})")
    if input.numel() == 0 and not input.shape[1]:  # an empty batch alone is allowed
        raise RuntimeError(f"Non-empty {input.dim()}D data tensor expected but got a tensor "
                           f"with sizes {list(input.shape)}")
    copies = antialias and tuple(sizes) == spatial  # torch's kernel then reads no dtype
    if not input.dtype.is_floating_point and not copies:
        kernel = ("compute_index_ranges_weights" if antialias else
                  f"upsample_{'nearest' if mode == 'nearest' else 'bilinear'}2d_channels_last"
                  ) if input.dim() == 4 else \
            f"compute_indices_weights_{'nearest' if mode == 'nearest' else 'linear'}"
        raise _args.not_implemented(kernel, input.dtype)
    if antialias:
        raise NotImplementedError("minitorch's interpolate does not support antialias=True")


def interpolate(input: Tensor, size: Any = None, scale_factor: Any = None,
                mode: str = "nearest", align_corners: bool | None = None,
                recompute_scale_factor: bool | None = None, antialias: bool = False) -> Tensor:
    """``input`` resized to ``size`` (or its spatial sizes times ``scale_factor``), with
    torch's checks in torch's order.

    >>> F.interpolate(minitorch.ones(1, 1, 2, 2), scale_factor=2, mode="bilinear").shape
    torch.Size([1, 1, 4, 4])
    """
    _check_align(mode, align_corners)
    if (size is None) == (scale_factor is None):
        raise ValueError("either size or scale_factor should be defined" if size is None
                         else "only one of size or scale_factor should be defined")
    dims = input.dim() - 2
    given = _per_dim(size if size is not None else scale_factor, dims, input, size is None)
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if size is not None:
        sizes, scales = [int(s) for s in given], [None] * dims
    elif recompute_scale_factor:  # torch's Python computes the sizes, its kernel gets none
        sizes, scales = [int(n * s) for n, s in zip(input.shape[2:], given)], [None] * dims
    else:
        scales = _scale_factors(input, mode, align_corners, scale_factor, given)
        sizes = [int(n * s) for n, s in zip(input.shape[2:], scales)]  # C++ truncates too
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.dim() == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos "
                         "modes and requires a 4-D tensor as input")
    _check_mode(input, mode)
    _check_sizes(input, sizes, mode, antialias)
    xp = input._xp
    if mode == "nearest":
        sources = tuple(nearest_sources(xp, n, out, s)
                        for n, out, s in zip(input.shape[2:], sizes, scales))
    else:
        sources = tuple(linear_sources(xp, input._data.dtype, n, out, s, bool(align_corners))
                        for n, out, s in zip(input.shape[2:], sizes, scales))
    return NODES[mode, dims].apply(input, sources=sources)
