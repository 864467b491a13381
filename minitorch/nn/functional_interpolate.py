"""``interpolate``: resize the spatial dims of ``(N, C, L)``, ``(N, C, H, W)`` or
``(N, C, D, H, W)`` by a ``size`` or a ``scale_factor``, as torch: ``nearest``,
``nearest-exact``, ``linear`` / ``bilinear`` / ``trilinear``, ``bicubic`` (4-D) and ``area``
(adaptive average pooling; 3-D and 4-D here).

>>> import minitorch
>>> from minitorch.nn import functional as F
>>> F.interpolate(minitorch.tensor([[[0., 1.]]]), size=3, mode="linear", align_corners=True)
tensor([[[0.0000, 0.5000, 1.0000]]])
"""

from __future__ import annotations

import warnings
from typing import Any

from .. import _args
from .._dtype import uint8
from .._tensor import Tensor
from ..ops.adaptive_pool import adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d
from ..ops.upsample import (
    NODES,
    cubic_sources,
    linear_sources,
    nearest_exact_sources,
    nearest_sources,
)

__all__ = ["interpolate", "upsample", "upsample_bilinear", "upsample_nearest"]

_LINEAR = {"linear": 3, "bilinear": 4, "trilinear": 5}  # the rank each mode needs
_KERNELS = {*((mode, rank) for mode in ("nearest", "nearest-exact") for rank in (3, 4, 5)),
            *_LINEAR.items(), ("bicubic", 4)}
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
    if not scale and not all(_args.as_int(v) is not None or isinstance(v, bool) or (
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
    if not given:  # no spatial dims: torch's Input Error comes later
        return []
    kernel = _upsample_kernel(mode, input.dim() - 2)
    if not given:  # no spatial dim: refused by the mode's check, after
        return []
    listed = scale_factor if isinstance(scale_factor, (tuple, list)) else given
    _check_flag(input, mode, align_corners, None, listed)
    first = given[0]
    if not (isinstance(first, (int, float, complex)) or (
            _args.holds_number(first) and not _args.is_tensor(first))):
        raise _no_overload(input, mode, align_corners, None, listed)
    for position, value in enumerate(given, 1):
        if not _args.is_real(value) or (isinstance(value, int) and abs(value) >= _NO_DOUBLE):
            raise TypeError(f"{kernel}(): argument 'scale_factors' must be tuple of floats, "
                            f"but found element of type {_args.type_name(value)} at pos "
                            f"{position}")
    return [float(v) for v in given]


def _upsample_kernel(mode: str, dims: int) -> str:
    """The name of torch's upsampling kernel for ``mode`` in ``dims`` spatial dims."""
    return f"{'_' if mode == 'nearest-exact' else ''}upsample_{mode.replace('-', '_')}{dims}d"


def _no_overload(input: Tensor, mode: str, align_corners: Any, output_size: Any,
                 scale_factors: Any) -> TypeError:
    """The TypeError of torch's upsampling kernel for ``mode`` when neither of its overloads
    takes the sizes or scales it was given."""
    dims = input.dim() - 2
    flag = "bool align_corners, " if mode not in ("nearest", "nearest-exact") else ""
    scales = ", ".join(f"float scales_{d} = None" for d in "dhw"[-dims:]) \
        if dims > 1 else "float scales = None"
    align = False if align_corners is None else align_corners  # as torch's Python passes it
    given_args = (input, output_size, *([align] if flag else []), scale_factors)
    return _args.invalid_combination(
        _upsample_kernel(mode, dims), given_args,
        f"Tensor input, tuple of ints output_size, {flag}tuple of floats scale_factors",
        f"Tensor input, tuple of ints output_size, {flag}{scales}, *, Tensor out = None")


def _check_flag(input: Tensor, mode: str, align_corners: Any, output_size: Any,
                scale_factors: Any) -> None:
    """The parser of an interpolating mode's kernel: ``align_corners`` is a bool (or None,
    which torch's Python passes as False)."""
    if mode in ("nearest", "nearest-exact") or align_corners is None or \
            isinstance(align_corners, bool):
        return
    raise _no_overload(input, mode, align_corners, output_size, scale_factors)


def _output_size(input: Tensor, mode: str, align_corners: Any, size: Any,
                 given: list) -> list:
    """``size`` as the kernel's parser of a ``tuple of ints`` reads it (each an int, never a
    bool or a float): torch hands ``area`` to adaptive_avg_pool, the others to an upsampling
    kernel, and each refuses in its own words."""
    listed = size if isinstance(size, (tuple, list)) else given
    if mode != "area":
        _check_flag(input, mode, align_corners, listed, None)
    for position, value in enumerate(given):
        if _args.as_int(value) is None:
            if mode == "area":
                raise TypeError(f"adaptive_avg_pool{input.dim() - 2}d(): argument "
                                "'output_size' (position 2) must be tuple of ints, but found "
                                f"element of type {_args.type_name(value)} at pos {position}")
            raise _no_overload(input, mode, align_corners, listed, None)
    return [_args.as_int(value) for value in given]


def _unpacked_sizes(input: Tensor, mode: str, sizes: list) -> None:
    """The sizes torch's Python computed, as its kernel's parser unpacks them into int64s
    (the kernel's name as in :func:`_output_size`), then their allocation checked."""
    rank = input.dim()
    if mode != "area" and (mode, rank) not in _KERNELS:
        return
    kernel = f"adaptive_avg_pool{rank - 2}d" if mode == "area" else \
        _upsample_kernel(mode, rank - 2)
    for position, size in enumerate(sizes, 1):
        if not _args.INT64_MIN <= size <= _args.INT64_MAX:
            raise _args.unpack_overflow(kernel, "output_size", position)
    if min(sizes, default=1) > 0:
        _args.check_alloc((*input.shape[:2], *sizes), input.dtype.itemsize)


def _check_align(mode: str, align_corners: bool | None) -> None:
    """torch's first check: ``align_corners`` only with the interpolating modes."""
    if align_corners is not None and mode in ("nearest", "area", "nearest-exact"):
        raise ValueError("align_corners option can only be set with the interpolating modes: "
                         "linear | bilinear | bicubic | trilinear")


def _unsupported(input: Tensor, mode: str) -> None:
    """What torch says of a mode and rank it has no kernel for."""
    rank = input.dim()
    if mode in _LINEAR and rank in (3, 4, 5):
        raise NotImplementedError(f"Got {rank}D input, but {mode} mode needs "
                                  f"{_LINEAR[mode]}D input")
    raise NotImplementedError(
        f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {rank}D) for the modes: "
        "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact "
        f"(got {mode})")


def _check_sizes(input: Tensor, sizes: list, mode: str, antialias: bool) -> None:
    """The checks of torch's upsampling kernels: sizes, an empty input, the dtype."""
    spatial = input.shape[2:]
    if min(*spatial, *sizes) <= 0:
        names = "DHW"[-len(sizes):]
        given, wanted = (", ".join(f"{n}: {v}" for n, v in zip(names, values))
                         for values in (spatial, sizes))
        raise RuntimeError("Input and output sizes should be greater than 0, but got input "
                           f"({given}){' and' if len(sizes) == 1 else ''} output ({wanted})")
    if input.numel() == 0 and not input.shape[1]:  # an empty batch alone is allowed
        raise RuntimeError(f"Non-empty {input.dim()}D data tensor expected but got a tensor "
                           f"with sizes {list(input.shape)}")
    copies = antialias and tuple(sizes) == spatial  # torch's kernel then reads no dtype
    bytes_ok = input.dtype is uint8 and (input.dim() == 4 or "nearest" in mode)
    if not input.dtype.is_floating_point and not copies and not bytes_ok:
        raise _args.not_implemented(_kernel(input.dim(), mode, antialias), input.dtype)
    if antialias:
        raise NotImplementedError("minitorch's interpolate does not support antialias=True")
    if input.dtype is uint8 and "nearest" not in mode:
        raise NotImplementedError(f"minitorch's interpolate has no uint8 kernel for {mode!r} "
                                  "(torch's rounds its own way)")


def _kernel(rank: int, mode: str, antialias: bool) -> str:
    """The torch kernel whose dtype check refuses a ``mode`` on an input of ``rank``."""
    kind = "nearest" if "nearest" in mode else "cubic" if mode == "bicubic" else "linear"
    if antialias:
        return "compute_index_ranges_weights"
    if rank == 4 and kind != "cubic":
        return f"upsample_{'nearest' if kind == 'nearest' else 'bilinear'}2d_channels_last"
    return f"compute_indices_weights_{kind}"


def _area(input: Tensor, sizes: list) -> Tensor:
    """``mode='area'``: torch's adaptive average pooling to ``sizes``."""
    pool = (adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d)[input.dim() - 3]
    return pool(input, sizes)


def interpolate(input: Tensor, size: Any = None, scale_factor: Any = None,
                mode: str = "nearest", align_corners: bool | None = None,
                recompute_scale_factor: bool | None = None, antialias: bool = False) -> Tensor:
    """``input`` resized to ``size`` (or its spatial sizes times ``scale_factor``), with
    torch's checks in torch's order.

    >>> F.interpolate(minitorch.ones(1, 1, 2, 2), scale_factor=2, mode="bilinear").shape
    torch.Size([1, 1, 4, 4])
    """
    _check_align(mode, align_corners)
    dims = input.dim() - 2  # (torch's Python asks first: what is no tensor has no dim())
    if (size is None) == (scale_factor is None):
        raise ValueError("either size or scale_factor should be defined" if size is None
                         else "only one of size or scale_factor should be defined")
    given = _per_dim(size if size is not None else scale_factor, dims, input, size is None)
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if not recompute_scale_factor and mode != "area" and (mode, input.dim()) not in _KERNELS \
            and (mode, input.dim()) != ("lanczos", 4):  # torch's Python reaches no kernel: the
        _check_antialias(mode, input, antialias)  # sizes and scales are never read
        _unsupported(input, mode)
    if size is not None:
        sizes, scales = _output_size(input, mode, align_corners, size, given), [None] * dims
        _unpacked_sizes(input, mode, sizes)  # the kernel's parser unpacks them as int64s
    elif recompute_scale_factor or mode == "area":  # torch's Python computes the sizes (as
        # int(size * scale), its TypeError or ValueError for a scale of the wrong kind)
        sizes = [_args.python_int(_args.python_op(n, "*", s))
                 for n, s in zip(input.shape[2:], given)]
        scales = [None] * dims
        if mode != "area" and (mode, input.dim()) in _KERNELS:
            _check_flag(input, mode, align_corners, sizes, None)
        _unpacked_sizes(input, mode, sizes)
    else:  # torch's Python checks antialias before its kernel's parser reads the scales
        _check_antialias(mode, input, antialias)
        scales = _scale_factors(input, mode, align_corners, scale_factor, given)
        sizes = [_scaled_size(n * s) for n, s in zip(input.shape[2:], scales)]
    _check_antialias(mode, input, antialias)
    if mode == "area" and input.dim() in (3, 4, 5):
        return _area(input, sizes)
    if mode == "lanczos" and input.dim() == 4:  # antialias only: refused after the checks
        if align_corners:
            raise ValueError("Lanczos mode does not support align_corners=True")
        if not antialias:
            raise ValueError("Lanczos mode requires antialias=True")
        _check_sizes(input, sizes, mode, antialias)
    if (mode, input.dim()) not in _KERNELS:
        _unsupported(input, mode)
    _check_sizes(input, sizes, mode, antialias)
    return NODES[mode, dims].apply(input, sources=_sources(input, mode, sizes, scales,
                                                           bool(align_corners)))


def _check_antialias(mode: str, input: Tensor, antialias: bool) -> None:
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.dim() == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos "
                         "modes and requires a 4-D tensor as input")


def _sources(input: Tensor, mode: str, sizes: list, scales: list, align: bool) -> tuple:
    """Per spatial dim, the source indices and weights of each output (see
    :mod:`minitorch.ops.upsample`)."""
    xp, dt = input._xp, input._data.dtype
    if mode == "nearest":
        return tuple(nearest_sources(xp, n, out, s)
                     for n, out, s in zip(input.shape[2:], sizes, scales))
    if mode == "nearest-exact":
        return tuple(nearest_exact_sources(xp, n, out, s)
                     for n, out, s in zip(input.shape[2:], sizes, scales))
    per_dim = cubic_sources if mode == "bicubic" else linear_sources
    return tuple(per_dim(xp, dt, n, out, s, align)
                 for n, out, s in zip(input.shape[2:], sizes, scales))


def _scaled_size(size: float) -> int:
    """A size times its scale, truncated to an int64 as torch's C++ does."""
    if not _args.fits_int64(size):  # nan, inf or beyond int64
        raise _args.conversion_overflow("int64_t")
    return int(size)


def _deprecated(name: str) -> None:
    warnings.warn(f"`nn.functional.{name}` is deprecated. Use `nn.functional.interpolate` "
                  "instead.", stacklevel=3)


def upsample(input: Tensor, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
             align_corners: bool | None = None) -> Tensor:
    """Deprecated ``interpolate`` (torch warns so, and so does minitorch).

    >>> with warnings.catch_warnings(action="ignore"):
    ...     F.upsample(minitorch.ones(1, 1, 2), scale_factor=2).shape
    torch.Size([1, 1, 4])
    """
    _deprecated("upsample")
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input: Tensor, size: Any = None, scale_factor: Any = None) -> Tensor:
    """Deprecated ``interpolate(..., mode="nearest")``.

    >>> with warnings.catch_warnings(action="ignore"):
    ...     F.upsample_nearest(minitorch.ones(1, 1, 1, 1), size=2).shape
    torch.Size([1, 1, 2, 2])
    """
    _deprecated("upsample_nearest")
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input: Tensor, size: Any = None, scale_factor: Any = None) -> Tensor:
    """Deprecated ``interpolate(..., mode="bilinear", align_corners=True)``.

    >>> with warnings.catch_warnings(action="ignore"):
    ...     F.upsample_bilinear(minitorch.tensor([[[[0., 1.]]]]), size=(1, 3))
    tensor([[[[0.0000, 0.5000, 1.0000]]]])
    """
    _deprecated("upsample_bilinear")
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)
