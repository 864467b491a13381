"""torch's window functions for signal processing: ``hann_window``, ``hamming_window``,
``blackman_window``, ``bartlett_window`` and ``kaiser_window``.

Each is computed as torch's kernel computes it, op by op in the window's dtype, so that its
rounding is torch's. A periodic window (the default) is the symmetric window one longer,
without its last element.

>>> import minitorch
>>> minitorch.hann_window(4), minitorch.hann_window(4, periodic=False)
(tensor([0.0000, 0.5000, 1.0000, 0.5000]), tensor([0.0000, 0.7500, 0.7500, 0.0000]))
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from . import _args, _call_form, _layout, backend
from . import _dtype as D
from ._tensor import Tensor
from .autograd.grad_mode import no_grad

_OPTIONS = ("*, torch.dtype dtype = None, torch.layout layout = None, torch.device device = "
            "None, bool pin_memory = False, bool requires_grad = False")
_SIGNATURES = (f"int window_length, {_OPTIONS}", f"int window_length, bool periodic, {_OPTIONS}")


def _window(name: str, window_length: Any, periodic: Any, numbers: tuple, dtype: Any,
            layout: Any, device: Any, requires_grad: Any,
            shape: Callable[[int, tuple, Any, Any], Tensor]) -> Tensor:
    """The checks every window shares, in torch's order (a floating dtype, then a
    non-negative length), then ``shape(length, numbers, dtype, device)`` for a length > 1
    (the symmetric window; one longer when ``periodic``)."""
    if layout is not None and (not isinstance(layout, _layout.layout) or
                               isinstance(layout, _layout.memory_format)):
        raise _args.invalid_combination(name, (window_length,), *_SIGNATURES,
                                        keywords={"layout": layout})
    periodic = True if periodic is _args.OMITTED else periodic
    if isinstance(window_length, Tensor) and (window_length.dim() or window_length.dtype in (
            D.bool, D.float16, D.float32, D.float64)):  # (a 0-d integer one is an int)
        raise TypeError(f"{name}(): argument 'window_length' (position 1) must be int, not "
                        "Tensor")
    n, periodic, requires_grad = _args.parsed(
        name, ("int", window_length, "window_length", 1), ("bool", periodic, "periodic", 2),
        ("flag", requires_grad, "requires_grad", None))
    dtype = dtype or D.get_default_dtype()
    if not dtype.is_floating_point:
        default = "" if layout is not None else " (default)"
        raise RuntimeError(f"{name} expects floating point dtypes, got: TensorOptions(dtype="
                           f"{_args.c_name(dtype)}, device=cpu, layout=Strided{default}, "
                           "requires_grad=false (default), pinned_memory=false, "
                           "memory_format=(nullopt))")
    if n < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length={n}")
    from ._creation import empty, ones

    if n <= 1:
        return ones(n, dtype=dtype, device=device, requires_grad=requires_grad)
    if device is not None and backend.device(device).type == "meta":  # a shape, no values
        return empty(n, dtype=dtype, device=device, requires_grad=requires_grad)
    with no_grad():
        window = shape(n + 1 if periodic else n, numbers, dtype, device)
        window = window[:-1] if periodic else window
    return window.contiguous().requires_grad_(requires_grad)


def _c(value: float, like: Tensor) -> Tensor:
    """``value`` in ``like``'s dtype: torch's window kernels round each constant to the
    window's dtype before using it (it shows in float16)."""
    from ._creation import tensor

    return tensor(value, dtype=like.dtype, device=like.device)


def _positions(n: int, step: float, dtype: D.dtype, device: Any) -> Tensor:
    from ._creation import arange

    k = arange(n, dtype=dtype, device=device)
    return k * _c(step, k)


def _cosine(n: int, numbers: tuple, dtype: D.dtype, device: Any) -> Tensor:
    alpha, beta = numbers
    w = _positions(n, 2 * math.pi / (n - 1), dtype, device).cos()
    return w * _c(-beta, w) + _c(alpha, w)


def _blackman(n: int, numbers: tuple, dtype: D.dtype, device: Any) -> Tensor:
    w = _positions(n, math.pi / (n - 1), dtype, device)
    return ((w * _c(4, w)).cos() * _c(0.08, w) - (w * _c(2, w)).cos() * _c(0.5, w) +
            _c(0.42, w))


def _bartlett(n: int, numbers: tuple, dtype: D.dtype, device: Any) -> Tensor:
    w = _positions(n, 2 / (n - 1), dtype, device)
    half = ((n - 1) >> 1) + 1
    w[half:] = w[half:] * _c(-1, w) + _c(2, w)
    return w


def _kaiser(n: int, numbers: tuple, dtype: D.dtype, device: Any) -> Tensor:
    from .ops.special_functions import i0

    (beta,) = numbers
    wide = D.float32 if dtype is D.float16 else dtype  # torch's kernel computes a half in float
    alpha = (n - 1) / 2.0
    a = _positions(n, 1, dtype, device).to(wide)
    r = (1 - ((a - alpha) / alpha) ** 2).abs().sqrt() * beta
    from ._creation import tensor

    return (i0(r) / i0(tensor(beta, dtype=wide, device=device))).to(dtype)


def _numbers_after(name: str, window_length: Any, periodic: Any, **numbers: Any) -> None:
    """torch's signatures take a window's numbers (``alpha``, ``beta``) only after
    ``periodic``: given without it, the call matches none."""
    given = {k: v for k, v in numbers.items() if v is not _args.OMITTED}
    if periodic is _args.OMITTED and given:
        raise _args.invalid_combination(name, (window_length,), *_call_form.unwrapped(
            globals()[name]).torch_signatures, keywords=given)


@_call_form.overloads(*_SIGNATURES)
def hann_window(window_length: int, periodic: bool = True, *, dtype: D.dtype | None = None,
                layout: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    """The Hann window: ``0.5 - 0.5 cos(2 pi k / (N - 1))``.

    >>> minitorch.hann_window(5, periodic=False)
    tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
    """
    return _window("hann_window", window_length, periodic, (0.5, 0.5), dtype, layout, device,
                   requires_grad, _cosine)


@_call_form.overloads(*_SIGNATURES, f"int window_length, bool periodic, float alpha, {_OPTIONS}",
                      f"int window_length, bool periodic, float alpha, float beta, {_OPTIONS}")
def hamming_window(window_length: int, periodic: Any = _args.OMITTED, alpha: Any = _args.OMITTED,
                   beta: Any = _args.OMITTED, *, dtype: D.dtype | None = None, layout: Any = None,
                   device: Any = None, requires_grad: bool = False) -> Tensor:
    """The Hamming window: ``alpha - beta cos(2 pi k / (N - 1))``.

    >>> minitorch.hamming_window(3, periodic=False)
    tensor([0.0800, 1.0000, 0.0800])
    """
    _numbers_after("hamming_window", window_length, periodic, alpha=alpha, beta=beta)
    alpha, beta = _args.parsed("hamming_window", ("float", alpha, "alpha", 3),
                               ("float", beta, "beta", 4))
    alpha, beta = (0.54 if alpha is _args.OMITTED else alpha,
                   0.46 if beta is _args.OMITTED else beta)
    return _window("hamming_window", window_length, periodic, (alpha, beta), dtype, layout,
                   device, requires_grad, _cosine)


@_call_form.overloads(*_SIGNATURES)
def blackman_window(window_length: int, periodic: bool = True, *,
                    dtype: D.dtype | None = None, layout: Any = None, device: Any = None,
                    requires_grad: bool = False) -> Tensor:
    """The Blackman window: ``0.42 - 0.5 cos(2 pi k / (N - 1)) + 0.08 cos(4 pi k / (N - 1))``.

    >>> minitorch.blackman_window(3, periodic=False)
    tensor([-2.9802e-08,  1.0000e+00, -2.9802e-08])
    """
    return _window("blackman_window", window_length, periodic, (), dtype, layout, device,
                   requires_grad, _blackman)


@_call_form.overloads(*_SIGNATURES)
def bartlett_window(window_length: int, periodic: bool = True, *,
                    dtype: D.dtype | None = None, layout: Any = None, device: Any = None,
                    requires_grad: bool = False) -> Tensor:
    """The Bartlett (triangular) window, rising from 0 to 1 and back.

    >>> minitorch.bartlett_window(5, periodic=False)
    tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
    """
    return _window("bartlett_window", window_length, periodic, (), dtype, layout, device,
                   requires_grad, _bartlett)


@_call_form.overloads(*_SIGNATURES, f"int window_length, bool periodic, float beta, {_OPTIONS}")
def kaiser_window(window_length: int, periodic: Any = _args.OMITTED, beta: Any = _args.OMITTED, *,
                  dtype: D.dtype | None = None, layout: Any = None, device: Any = None,
                  requires_grad: bool = False) -> Tensor:
    """The Kaiser window: ``I0(beta sqrt(1 - ((k - m) / m) ** 2)) / I0(beta)``,
    ``m = (N - 1) / 2``.

    >>> minitorch.kaiser_window(3, periodic=False, beta=2.)
    tensor([0.4387, 1.0000, 0.4387])
    """
    _numbers_after("kaiser_window", window_length, periodic, beta=beta)
    (beta,) = _args.parsed("kaiser_window", ("float", beta, "beta", 3))
    beta = 12.0 if beta is _args.OMITTED else beta
    return _window("kaiser_window", window_length, periodic, (beta,), dtype, layout, device,
                   requires_grad, _kaiser)
