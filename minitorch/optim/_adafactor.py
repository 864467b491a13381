"""Adafactor (Shazeer and Stern, 2018), as torch's single-tensor CPU step writes it.

A matrix's second moment is kept factored, a row mean and a column mean of the squared
gradient (their outer product, over the rows' mean, estimates it); a vector keeps it whole.
The step size is relative to the parameter's root mean square, and the update is clipped so
that its own root mean square is at most ``d``:

    rho = min(lr, 1/sqrt(t));  alpha = max(eps2, rms(p)) * rho;  beta2 weight = t**beta2_decay
    u = g / sqrt(max(v_estimate, eps1**2));  p -= alpha / max(1, rms(u)/d) * u

The update is torch's sequence of in-place tensor operations (norm, lerp_, rsqrt_, ...),
so each step rounds as torch's does.

>>> import minitorch
>>> from minitorch import nn, optim
>>> optim.Adafactor([nn.Parameter(minitorch.ones(2, 2))]).defaults["beta2_decay"]
-0.8
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .. import _args
from .._dtype import finfo
from .._tensor import Tensor
from ..autograd import grad_mode
from ._elementwise import ElementwiseOptimizer, check_tensor_lr, state_tensor

__all__ = ["Adafactor"]


def _check_settings(lr: Any, beta2_decay: float, eps: tuple, d: float,
                    weight_decay: float) -> None:
    """torch's checks, one after another in its order and operand order (a nan fails each);
    torch's Python comparisons and indexing, so a setting of the wrong kind fails as there."""
    op = _args.python_op
    if not op(0.0, "<=", lr):
        raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
    if not op(0.0, ">=", beta2_decay):
        raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
    eps1 = _args.python_item(eps, 0)
    if eps1 is not None and not op(0.0, "<=", eps1):
        raise ValueError(f"epsilon1 should be >= 0 but is: {eps1}")
    if not op(0.0, "<=", _args.python_item(eps, 1)):
        raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
    if not op(1.0, "<=", d):
        raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
    if not op(0.0, "<=", weight_decay):
        raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")


class Adafactor(ElementwiseOptimizer):
    """Adafactor (see the module docstring for the update).

    >>> optim.Adafactor([nn.Parameter(minitorch.ones(1))]).defaults["eps"]
    (None, 0.001)
    """

    _settings = ("lr", "beta2_decay", "eps", "d", "weight_decay", "foreach", "maximize")
    _step_reads_self = False  # torch's step is under no_grad only
    _loaded_defaults = {"foreach": None}  # torch's __setstate__ adds no other setting

    def __init__(self, params: Iterable[Any], lr: float = 1e-2, beta2_decay: float = -0.8,
                 eps: tuple[float | None, float] = (None, 1e-3), d: float = 1.0,
                 weight_decay: float = 0.0, *, foreach: Any = None,
                 maximize: bool = False) -> None:
        check_tensor_lr(lr)
        _check_settings(lr, beta2_decay, eps, d, weight_decay)
        defaults = {"lr": lr, "beta2_decay": beta2_decay, "eps": eps, "d": d,
                    "weight_decay": weight_decay, "foreach": foreach, "maximize": maximize}
        super().__init__(params, defaults)

    def _loaded_state(self, p: Tensor, state: dict, group: dict) -> dict:
        """The entries torch reads: the factors of a matrix, a vector's whole variance."""
        if state:
            for key in ("step", "row_var", "col_var") if p.dim() > 1 else ("step", "variance"):
                if key not in state:
                    raise KeyError(key)
        return state

    def _update(self, p: Tensor, grad: Any, state: dict, group: dict) -> None:
        g = state_tensor(grad)
        if not state:
            self._initial_state(g, state)
        step = self._count_step(p, state)
        eps1, eps2 = (e.item() if isinstance(e, Tensor) else e  # torch unpacks a tensor's rows
                      for e in _args.python_unpack(group.raw("eps"), 2))
        eps1 = finfo(p.dtype).eps if eps1 is None else eps1
        lr, d = float(group["lr"]), group["d"]
        weight = step ** group["beta2_decay"]
        alpha = max(eps2, p.norm(2).item() / p.numel() ** 0.5) * min(lr, 1 / step ** 0.5)
        param = state_tensor(p._data)  # the step's caller counts the parameter's version
        with grad_mode.no_grad():
            if group["weight_decay"] != 0:
                param.mul_(1 - lr * group.raw("weight_decay"))  # a tensor's shape checked
            estimate = self._variance_estimate(g, state, weight, eps1)
            update = estimate.clamp_(min=eps1 * eps1).rsqrt_().mul_(g)
            denom = max(1.0, update.norm(2).item() / (update.numel() ** 0.5 * d))
            param.add_(update, alpha=-alpha / denom)

    @staticmethod
    def _initial_state(g: Tensor, state: dict) -> None:
        xp = g._xp
        state["step"] = state_tensor(xp.zeros((), dtype=xp.float32))
        if g.dim() > 1:
            state["row_var"] = g.new_zeros((*g.shape[:-1], 1))
            state["col_var"] = g.new_zeros((*g.shape[:-2], 1, g.shape[-1]))
        else:
            state["variance"] = state_tensor(xp.zeros_like(g._data))

    @staticmethod
    def _variance_estimate(g: Tensor, state: dict, weight: float, eps1: float) -> Tensor:
        """The second moment's estimate: the factors' product over the rows' mean for a
        matrix, a copy of the whole variance for a vector; both moving averages updated."""
        if g.dim() <= 1:
            state["variance"].lerp_(g * g, weight)
            return state["variance"].clone()
        row_var, col_var = state["row_var"], state["col_var"]
        row_var.lerp_(g.norm(dim=-1, keepdim=True).square_().div_(g.size(-1)), weight)
        col_var.lerp_(g.norm(dim=-2, keepdim=True).square_().div_(g.size(-2)), weight)
        return (row_var @ col_var).div_(row_var.mean(dim=-2, keepdim=True).clamp_(min=eps1))
