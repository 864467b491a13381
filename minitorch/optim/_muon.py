"""``Muon``: momentum SGD whose update for each 2-D parameter is orthogonalized (torch 2.13).

For each parameter ``p`` (a matrix ``A x B``) with gradient ``g`` a step computes::

    buf = buf + (1 - momentum) * (g - buf)                  (buf starts at zero)
    u = g + momentum * (buf - g)   (nesterov)   or   buf
    O = Newton-Schulz(u)          (ns_steps quintic iterations, coefficients a, b, c)
    p = p * (1 - lr * weight_decay)
    p = p - lr * ratio * O        ratio: sqrt(max(1, A / B)) ("original", the default)
                                         or 0.2 * sqrt(max(A, B)) ("match_rms_adamw")

torch runs the Newton-Schulz iterations in bfloat16, which minitorch has no dtype for: each
bfloat16 result is emulated by rounding the float32 one to bfloat16's 8 significant bits
(nearest, ties to even) after torch's float32 arithmetic. Against torch on float32
matrices up to 33 x 33 the parameters are bit for bit torch's after several steps; on larger
ones a rare element may land one bfloat16 step apart (torch's matrix product sums in its own
order) and the steps after it then differ by about 1e-4 (seen on 64 x 20).

>>> import minitorch
>>> from minitorch import nn, optim
>>> p = nn.Parameter(minitorch.tensor([[1.0, 0.0], [0.0, 2.0]]))
>>> opt = optim.Muon([p], lr=0.1, weight_decay=0.0)
>>> (p * p).sum().backward(); opt.step(); p
Parameter containing:
tensor([[0.8883, 0.0000],
        [0.0000, 1.9309]], requires_grad=True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

from .. import _args
from .._tensor import Tensor
from ..ops._fused import add_scaled, lerp
from ._elementwise import check_tensor_lr
from .optimizer import Optimizer, plain_settings

__all__ = ["Muon"]

# torch's defaults (from Keller Jordan's Muon)
EPS = 1e-7
NS_COEFFICIENTS = (3.4445, -4.7750, 2.0315)
NS_STEPS = 5


def _bfloat16(xp: Any, x: Any) -> Any:
    """``x`` (float32) rounded to bfloat16's 8 significant bits, nearest, ties to even.

    >>> import numpy as np
    >>> _bfloat16(np, np.float32([1.0 + 2**-8, 1.0 + 3 * 2**-8, 3.0, np.inf]))
    array([1.      , 1.015625, 3.      ,      inf], dtype=float32)
    """
    wide = xp.astype(x, xp.float64)
    size = xp.abs(wide)
    tiny = (size < 2.0 ** -126) | ~xp.isfinite(size)  # kept as they are (inf: no ulp)
    exponent = xp.floor(xp.log2(xp.where(tiny, 1.0, size)))
    exponent = xp.where(size >= 2.0 ** (exponent + 1), exponent + 1, exponent)  # log2's
    exponent = xp.where(size < 2.0 ** exponent, exponent - 1, exponent)        # rounding
    ulp = 2.0 ** (exponent - 7)
    return xp.astype(xp.where(tiny, wide, xp.round(wide / ulp) * ulp), x.dtype)


def _orthogonalized(xp: Any, g: Any, coefficients: tuple, steps: int, eps: float) -> Any:
    """torch's Newton-Schulz iterations on ``g`` (bfloat16 emulated, see the module)."""
    if steps >= 100:
        raise ValueError("Number of steps must be less than 100 for computational efficiency")
    if len(coefficients) != 3:
        raise ValueError("Coefficients must be a tuple of exactly 3 values")
    a, b, c = coefficients
    tall = g.shape[0] > g.shape[1]
    x = _bfloat16(xp, xp.astype(g.T if tall else g, xp.float32))  # torch: g.bfloat16()
    norm = _bfloat16(xp, xp.sqrt(xp.sum(x * x)))
    x = _bfloat16(xp, x / xp.maximum(norm, _bfloat16(xp, xp.asarray(eps, dtype=x.dtype))))
    for _ in range(steps):
        gram = _bfloat16(xp, x @ x.T)
        # torch's addmm: beta * C fused into alpha * (A @ B) (rounded to float32 first)
        poly = _bfloat16(xp, add_scaled(xp, (gram @ gram) * xp.asarray(c, dtype=x.dtype),
                                        gram, b))
        x = _bfloat16(xp, add_scaled(xp, poly @ x, x, a))
    return x.T if tall else x


def _lr_ratio(adjust_lr_fn: str | None, shape: tuple[int, ...]) -> float:
    rows, cols = shape[:2]
    if adjust_lr_fn is None or adjust_lr_fn == "original":
        return math.sqrt(max(1, rows / cols))
    if adjust_lr_fn == "match_rms_adamw":
        return 0.2 * math.sqrt(max(rows, cols))
    return 1.0


class Muon(Optimizer):
    """Orthogonalized momentum for 2-D parameters (see the module docstring for the update).

    >>> optim.Muon([nn.Parameter(minitorch.ones(2, 2))]).defaults["ns_steps"]
    5
    """

    _step_reads_self = False  # torch's step is a plain no_grad function

    def __init__(self, params: Iterable[Any], lr: float = 1e-3, weight_decay: float = 0.1,
                 momentum: float = 0.95, nesterov: bool = True,
                 ns_coefficients: tuple[float, float, float] = NS_COEFFICIENTS,
                 eps: float = EPS, ns_steps: int = NS_STEPS,
                 adjust_lr_fn: str | None = None) -> None:
        check_tensor_lr(lr)
        op = _args.python_op  # torch's Python comparisons: its TypeError for a non-number
        if not op(0.0, "<=", lr):
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not op(0.0, "<=", momentum):
            raise ValueError(f"momentum should be >= 0 but is: {momentum}")
        if not op(0.0, "<=", weight_decay):
            raise ValueError(f"weight decay should be >= 0 but is: {weight_decay}")
        if adjust_lr_fn is not None and adjust_lr_fn not in ("original", "match_rms_adamw"):
            raise ValueError(f"Adjust learning rate function {adjust_lr_fn} is not supported")
        defaults = {"lr": lr, "weight_decay": weight_decay, "momentum": momentum,
                    "nesterov": nesterov, "ns_coefficients": ns_coefficients, "eps": eps,
                    "ns_steps": ns_steps, "adjust_lr_fn": adjust_lr_fn}
        super().__init__(params, defaults)
        for p in self._all_params():
            if p.ndim != 2:
                raise ValueError("Muon only supports 2D parameters whereas we found a "
                                 f"parameter with size: {p.size()}")

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a gradient; returns ``closure()`` if given."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            ready = []
            for p in group["params"]:
                if p._grad is None:
                    continue
                if p.is_complex():
                    raise RuntimeError("Muon does not support complex parameters")
                state = self.state[p]
                if "momentum_buffer" not in state:
                    state["momentum_buffer"] = Tensor._make(p._xp.zeros_like(p._grad._data))
                ready.append(p)
            settings = plain_settings(group)
            for p in ready:
                self._update(p, settings)
        return loss

    def _update(self, p: Tensor, group: dict[str, Any]) -> None:
        # Arrays in, arrays out, as the other optimizers: the step is never recorded.
        xp, g = p._xp, p._grad._data
        if g.ndim != 2:
            raise ValueError("Param gradient must be a 2D matrix")
        momentum = group["momentum"]
        buf = self.state[p]["momentum_buffer"]
        buf._data[...] = lerp(xp, buf._data, g, 1 - momentum)
        buf._version_counter.value += 1
        u = lerp(xp, g, buf._data, momentum) if group["nesterov"] else buf._data
        update = _orthogonalized(xp, u, group["ns_coefficients"], group["ns_steps"],
                                 group["eps"])
        lr = group["lr"]
        decayed = p._data * xp.asarray(1 - lr * group["weight_decay"], dtype=p._data.dtype)
        ratio = _lr_ratio(group["adjust_lr_fn"], tuple(p.shape))
        p._data[...] = add_scaled(xp, decayed, xp.astype(update, p._data.dtype), -lr * ratio)
        p._version_counter.value += 1
